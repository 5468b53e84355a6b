//! `ingress-router status`: the addresses an ingress controller writes into the Ingresses it serves
//! (`kubectl get ingress` style), the status a Gateway API controller writes into GatewayClasses,
//! Gateways and HTTPRoutes (`crate::gateway::status`), the requests it sends for them, or
//! a Service's status.

use std::fmt::Write;
use std::path::PathBuf;

use crate::gateway::status::{self as gateway_status, ObjectStatus};
use crate::model::{Condition, Ingress, Object};
use crate::status::{self, StatusOptions, StatusReport, StatusUpdate};
use clap::{ArgGroup, Args};
use serde_json::Value;

use super::load::{self, Loaded};
use super::{Failure, show};

#[derive(Args)]
#[command(group(ArgGroup::new("view").args(["publish_service", "service"])))]
pub struct StatusArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside, recursively); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// The Service in front of the controller (ingress-nginx's --publish-service): its address goes
    /// into every Ingress the controller serves.
    #[arg(long, value_name = "NAMESPACE/NAME")]
    publish_service: Option<String>,
    /// Show this Service's spec and status instead (`kubectl describe service` style).
    #[arg(long, value_name = "NAMESPACE/NAME")]
    service: Option<String>,
    /// The class the controller serves (default: every Ingress).
    #[arg(long, value_name = "NAME", conflicts_with = "service")]
    ingress_class: Option<String>,
    /// Also print the requests the controller sends: `PUT .../status` with its JSON body, or why none.
    #[arg(long, conflicts_with = "service")]
    requests: bool,
    /// The Gateway API controller's name: only GatewayClasses with this `spec.controllerName` (and
    /// their Gateways and routes) are its own, and route entries carry it. Default: every
    /// GatewayClass is taken, and route entries carry ingress-router.dev/gateway-controller.
    #[arg(long, value_name = "DOMAIN/PATH", conflicts_with = "service")]
    controller_name: Option<String>,
    /// Print JSON (the status report with `objects`, or the Service view).
    #[arg(long)]
    json: bool,
}

impl StatusArgs {
    pub fn json(&self) -> bool {
        self.json
    }
}

pub fn run(args: &StatusArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    let text = match &args.service {
        Some(service) => service_view(&loaded, service, args.json)?,
        None => objects(args, &loaded)?,
    };
    super::print(&text);
    Ok(0)
}

/// Every Ingress, GatewayClass, Gateway and HTTPRoute: the core's one status report (the Ingress
/// report with `--publish-service`, and the Gateway API status), the objects in input order.
fn objects(args: &StatusArgs, loaded: &Loaded) -> Result<String, Failure> {
    let mut options = StatusOptions::default()
        .with_transition_time(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string());
    options.ingress_class = args.ingress_class.clone();
    options.publish_service = args.publish_service.clone();
    options.controller_name = args.controller_name.clone();
    let all = status::report(&loaded.input(), &options);
    let has_ingress = all.has_ingress();
    if !all.has_gateway_api() {
        match &args.publish_service {
            Some(_) if !has_ingress => {
                loaded.require_ingress("no status to compute")?;
            }
            None => {
                return Err(Failure(format!(
                    "{}: no GatewayClass, Gateway or HTTPRoute in the input, and Ingresses need --publish-service \
                     (the Service whose address they get) or --service",
                    loaded.names()
                )));
            }
            Some(_) => {}
        }
    } else if args.publish_service.is_none() && has_ingress {
        load::stderr(
            &"note: Ingresses get no address without --publish-service (the Service in front of the controller)",
        );
    }
    if args.json {
        return Ok(show::json(&all));
    }
    let mut out = match &all.ingress {
        _ if !has_ingress => String::new(),
        Some(report) => ingress_text(loaded, report),
        None => no_publish_text(loaded),
    };
    if all.has_gateway_api() {
        if !out.is_empty() {
            out.push('\n');
        }
        for object in &all.gateway {
            gateway_object_text(&mut out, object);
        }
    }
    if args.requests {
        if let Some(report) = &all.ingress {
            requests(&mut out, report);
        } else {
            for i in loaded.objects.iter().filter_map(|o| match &o.object {
                Object::Ingress(i) => Some(i),
                _ => None,
            }) {
                let key = format!("{}/{}", i.metadata.namespace_or_default(), i.metadata.name);
                let _ = writeln!(out, "\n{key}: left untouched: no address without --publish-service");
            }
        }
        for object in &all.gateway {
            gateway_request(&mut out, object);
        }
    }
    Ok(out)
}

/// Without `--publish-service`: each Ingress, with no address.
fn no_publish_text(loaded: &Loaded) -> String {
    let mut out = String::new();
    for o in &loaded.objects {
        if let Object::Ingress(i) = &o.object {
            let key = format!("{}/{}", i.metadata.namespace_or_default(), i.metadata.name);
            let _ = writeln!(out, "Ingress {key}: no address (give --publish-service)");
        }
    }
    out
}

/// Writes `head`, the conditions in their good state by type (`Accepted, Programmed`), then each
/// other one on its own line, `indent`ed: `Type=Status Reason: message`.
fn conditions_lines(out: &mut String, head: &str, conditions: &[Condition], indent: &str) {
    let is_good = |c: &&Condition| {
        let reason = c.reason.as_deref().unwrap_or_default();
        (c.status == "True" && reason == c.type_) || (c.type_ == "Conflicted" && c.status == "False")
    };
    let good: Vec<&str> =
        conditions.iter().filter(is_good).filter(|c| c.type_ != "Conflicted").map(|c| c.type_.as_str()).collect();
    let _ = writeln!(out, "{head}: {}", if good.is_empty() { "-".to_string() } else { good.join(", ") });
    for c in conditions.iter().filter(|c| !is_good(c)) {
        let reason = c.reason.as_deref().unwrap_or_default();
        let message = c.message.as_deref().unwrap_or_default();
        let _ = writeln!(out, "{indent}{}={} {reason}: {message}", c.type_, c.status);
    }
}

/// A readable summary: a Gateway's conditions and each listener's; a route's parents.
fn gateway_object_text(out: &mut String, object: &ObjectStatus) {
    use gateway_status::Stanza;
    let key = match &object.namespace {
        Some(ns) => format!("{} {ns}/{}", object.kind, object.name),
        None => format!("{} {}", object.kind, object.name),
    };
    match &object.status {
        None => {
            let _ = writeln!(out, "{key}: left untouched");
        }
        Some(Stanza::GatewayClass(s)) => conditions_lines(out, &key, &s.conditions, "  "),
        Some(Stanza::Gateway(s)) => {
            conditions_lines(out, &key, &s.conditions, "  ");
            if !s.addresses.is_empty() {
                let addresses: Vec<&str> = s.addresses.iter().map(|a| a.value.as_str()).collect();
                let _ = writeln!(out, "  addresses: {}", addresses.join(", "));
            }
            for l in &s.listeners {
                let head = format!("  listener {}: {} attached route(s)", l.name, l.attached_routes);
                conditions_lines(out, &head, &l.conditions, "    ");
            }
        }
        Some(Stanza::HttpRoute(s)) => {
            let _ = writeln!(out, "{key}:");
            for p in &s.parents {
                let r = &p.parent_ref;
                let section = r.section_name.as_deref().map_or(String::new(), |s| format!(" sectionName {s}"));
                let port = r.port.map_or(String::new(), |p| format!(" port {p}"));
                let namespace = r.namespace.as_deref().unwrap_or_default();
                let head = format!("  parent {} {namespace}/{}{section}{port} ({})", r.kind, r.name, p.controller_name);
                conditions_lines(out, &head, &p.conditions, "    ");
            }
        }
    }
    for note in &object.notes {
        let _ = writeln!(out, "  note: {note}");
    }
}

/// A Gateway API object's request, or why there is none.
fn gateway_request(out: &mut String, object: &ObjectStatus) {
    let key = match &object.namespace {
        Some(ns) => format!("{} {ns}/{}", object.kind, object.name),
        None => format!("{} {}", object.kind, object.name),
    };
    out.push('\n');
    match &object.update {
        StatusUpdate::Put(request) => {
            let body = serde_json::from_str::<Value>(&request.body)
                .and_then(|v| serde_json::to_string_pretty(&v))
                .unwrap_or_else(|_| request.body.clone());
            let _ = writeln!(out, "{key}: {} {}", request.method, request.path);
            let _ = writeln!(out, "Content-Type: application/json\n\n{body}");
        }
        StatusUpdate::Unchanged => {
            let _ = writeln!(out, "{key}: no change (the status already is this)");
        }
        StatusUpdate::Untouched => {
            let why =
                if object.notes.is_empty() { "not this controller's".to_string() } else { object.notes.join("; ") };
            let _ = writeln!(out, "{key}: left untouched: {why}");
        }
    }
}

fn ingress_text(loaded: &Loaded, report: &StatusReport) -> String {
    let publish = &report.publish_service;
    let objects = loaded.objects();
    let mut out = status::render_ingress_table(&status::ingress_rows_after(&objects, report));
    out.push('\n');
    match &report.no_address {
        None => {
            let addresses: Vec<&str> =
                report.addresses.iter().filter_map(|a| a.ip.as_deref().or(a.hostname.as_deref())).collect();
            let _ = writeln!(out, "publish Service {publish}: {}", addresses.join(", "));
        }
        Some(reason) => {
            let _ = writeln!(out, "no address: {reason}");
        }
    }
    // The publish Service's reason, said once above, stands for every served Ingress.
    for i in report.ingresses.iter().filter(|i| i.no_address.is_some() && i.no_address != report.no_address) {
        let _ = writeln!(out, "{}/{}: no address: {}", i.namespace, i.name, i.reason.as_deref().unwrap_or_default());
    }
    out
}

/// Each Ingress's request (an HTTP message with its pretty-printed body), or why there is none.
fn requests(out: &mut String, report: &StatusReport) {
    for i in &report.ingresses {
        out.push('\n');
        let key = format!("{}/{}", i.namespace, i.name);
        match &i.update {
            StatusUpdate::Put(request) => {
                let body = pretty(&request.body);
                let _ = writeln!(out, "{key}: {} {}", request.method, request.path);
                let _ = writeln!(out, "Content-Type: application/json\n\n{body}");
            }
            StatusUpdate::Unchanged => {
                let _ = writeln!(out, "{key}: no change (the status already holds these addresses)");
            }
            StatusUpdate::Untouched => {
                let reason = i.reason.as_deref().unwrap_or("the controller does not write it");
                let _ = writeln!(out, "{key}: left untouched: {reason}");
            }
        }
    }
}

/// The body pretty-printed, its fields in the API's order (read back as the Ingress it was written from).
fn pretty(body: &str) -> String {
    let pretty = match serde_json::from_str::<Ingress>(body) {
        Ok(ingress) => serde_json::to_string_pretty(&ingress),
        Err(_) => serde_json::from_str::<Value>(body).and_then(|v| serde_json::to_string_pretty(&v)),
    };
    pretty.unwrap_or_else(|_| body.to_string())
}

fn service_view(loaded: &Loaded, service: &str, json: bool) -> Result<String, Failure> {
    let (namespace, name) = status::parse_publish_service(service)
        .map_err(|_| Failure(format!("--service {service:?}: expected <namespace>/<name>")))?;
    let objects = loaded.objects();
    let Some(found) = status::find_service(&objects, namespace, name) else {
        let services: Vec<String> = objects
            .iter()
            .filter_map(|o| match o {
                Object::Service(s) => Some(format!("{}/{}", s.metadata.namespace_or_default(), s.metadata.name)),
                _ => None,
            })
            .collect();
        let known = if services.is_empty() { String::from("none") } else { services.join(", ") };
        return Err(Failure(format!(
            "{}: no Service {namespace}/{name} in the input (Services: {known})",
            loaded.names()
        )));
    };
    let view = status::service_view(found);
    Ok(if json { show::json(&view) } else { status::render_service(&view) })
}
