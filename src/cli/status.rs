//! `ingress-router status`: the addresses an ingress controller writes into the Ingresses it serves
//! (`kubectl get ingress` style), the status a Gateway API controller writes into GatewayClasses,
//! Gateways and HTTPRoutes (`crate::gateway::status`), the requests it sends for them, or
//! a Service's status.

use std::fmt::Write;
use std::path::PathBuf;

use clap::{ArgGroup, Args};
use crate::gateway::status::{self as gateway_status, GatewayStatusAddress, ObjectStatus, StatusOptions};
use crate::input::Origin;
use crate::model::{Condition, Ingress, Object};
use crate::status::{self, StatusReport, StatusUpdate};
use serde::Serialize;
use serde_json::{Value, json};

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

/// Every Ingress, GatewayClass, Gateway and HTTPRoute: the Ingress report (with
/// `--publish-service`) and the Gateway API status, the objects in input order.
fn objects(args: &StatusArgs, loaded: &Loaded) -> Result<String, Failure> {
    let gateway = gateway_report(args, loaded);
    let has_ingress = loaded.objects.iter().any(|o| matches!(o.object, Object::Ingress(_)));
    let report = match &args.publish_service {
        Some(_) if !has_ingress && gateway.objects.is_empty() => {
            loaded.require_ingress("no status to compute")?;
            None
        }
        Some(publish) => Some(status::ingress_status(&loaded.objects(), args.ingress_class.as_deref(), publish)),
        None if gateway.objects.is_empty() => {
            return Err(Failure(format!(
                "{}: no GatewayClass, Gateway or HTTPRoute in the input, and Ingresses need --publish-service \
                 (the Service whose address they get) or --service",
                loaded.names()
            )));
        }
        None => {
            if has_ingress {
                load::stderr(
                    &"note: Ingresses get no address without --publish-service (the Service in front of the controller)",
                );
            }
            None
        }
    };
    let listed = in_input_order(loaded, report.as_ref(), &gateway.objects);
    if args.json {
        let out = JsonReport { report: report.as_ref(), controller_name: &gateway.controller_name, objects: listed };
        return Ok(show::json(&out));
    }
    let mut out = match &report {
        _ if !has_ingress => String::new(),
        Some(report) => ingress_text(loaded, report),
        None => no_publish_text(loaded),
    };
    if !gateway.objects.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        for object in &gateway.objects {
            gateway_object_text(&mut out, object);
        }
    }
    if args.requests {
        if let Some(report) = &report {
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
        for object in &gateway.objects {
            gateway_request(&mut out, object);
        }
    }
    Ok(out)
}

/// The Gateway API status of the input's objects (with the Services they refer to).
fn gateway_report(args: &StatusArgs, loaded: &Loaded) -> gateway_status::GatewayStatusReport {
    let mut values: Vec<Value> = loaded.gateway_api.iter().map(|g| g.value.clone()).collect();
    let objects = loaded.objects();
    let services = objects.iter().filter(|o| matches!(o, Object::Service(_)));
    values.extend(services.filter_map(|s| serde_json::to_value(s).ok()));
    // The publish Service's address stands for a Gateway that asks for none (`spec.addresses`).
    let addresses = args
        .publish_service
        .as_deref()
        .and_then(|p| status::parse_publish_service(p).ok())
        .and_then(|(ns, name)| status::find_service(&objects, ns, name))
        .and_then(|s| status::service_addresses(s).ok())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|a| match (a.ip, a.hostname) {
            (Some(ip), _) => Some(GatewayStatusAddress { kind: "IPAddress".into(), value: ip }),
            (None, Some(host)) => Some(GatewayStatusAddress { kind: "Hostname".into(), value: host }),
            (None, None) => None,
        })
        .collect();
    let options = StatusOptions {
        controller_name: args.controller_name.clone(),
        transition_time: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        check_services: None,
        addresses,
        regex_limits: Default::default(),
    };
    gateway_status::gateway_status(&values, &options)
}

/// `--json`: the Ingress report's fields (with `--publish-service`), the Gateway API controller's
/// name, and every object's status in input order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonReport<'a> {
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    report: Option<&'a StatusReport>,
    controller_name: &'a str,
    objects: Vec<Listed<'a>>,
}

/// One entry of `objects`: `kind`, `namespace` (none for a GatewayClass), `name`, `status`.
#[derive(Serialize)]
#[serde(untagged)]
enum Listed<'a> {
    Ingress { kind: &'static str, namespace: String, name: String, status: Value },
    Gateway(&'a ObjectStatus),
}

/// Ingresses and Gateway API objects merged in input order: file, document, List item.
fn in_input_order<'a>(loaded: &Loaded, report: Option<&StatusReport>, gateway: &'a [ObjectStatus]) -> Vec<Listed<'a>> {
    // Each source's position once (a folder may hold one object per file).
    let mut sources = std::collections::HashMap::new();
    for (i, s) in loaded.sources.iter().enumerate() {
        sources.entry(s.name.as_str()).or_insert(i);
    }
    let place = |origin: &Origin| {
        let source = sources.get(origin.source.as_str()).copied().unwrap_or(usize::MAX);
        (source, origin.document, origin.item.unwrap_or(0))
    };
    let mut listed = Vec::new();
    let ingresses = loaded.objects.iter().filter_map(|o| match &o.object {
        Object::Ingress(i) => Some((i, &o.origin)),
        _ => None,
    });
    for (n, (ingress, origin)) in ingresses.enumerate() {
        let addresses = report.and_then(|r| r.ingresses.get(n)).map(|i| i.resulting_addresses()).unwrap_or_default();
        let status = match addresses {
            [] => json!({"loadBalancer": {}}),
            a => json!({"loadBalancer": {"ingress": a}}),
        };
        let namespace = ingress.metadata.namespace_or_default().to_string();
        let name = ingress.metadata.name.clone();
        listed.push((place(origin), Listed::Ingress { kind: "Ingress", namespace, name, status }));
    }
    for object in gateway {
        let at = loaded.gateway_api.get(object.index).map_or((usize::MAX, 0, 0), |g| place(&g.origin));
        listed.push((at, Listed::Gateway(object)));
    }
    listed.sort_by_key(|(at, _)| *at);
    listed.into_iter().map(|(_, l)| l).collect()
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
