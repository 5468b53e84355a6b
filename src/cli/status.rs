//! `ingress-router status`: the addresses an ingress controller writes into the Ingresses it serves
//! (`kubectl get ingress` style), the requests it sends for them, or a Service's status.

use std::fmt::Write;
use std::path::PathBuf;

use clap::{ArgGroup, Args};
use ingress_router::model::{Ingress, Object};
use ingress_router::status::{self, StatusReport, StatusUpdate};
use serde_json::Value;

use super::load::{self, Loaded};
use super::{Failure, show};

#[derive(Args)]
#[command(group(ArgGroup::new("view").required(true).args(["publish_service", "service"])))]
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
    /// Print JSON (the status report, or the Service view).
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
    let text = match (&args.publish_service, &args.service) {
        (Some(publish), _) => ingresses(args, &loaded, publish)?,
        (None, Some(service)) => service_view(&loaded, service, args.json)?,
        (None, None) => unreachable!("clap requires --publish-service or --service"),
    };
    super::print(&text);
    Ok(0)
}

fn ingresses(args: &StatusArgs, loaded: &Loaded, publish: &str) -> Result<String, Failure> {
    loaded.require_ingress("no status to compute")?;
    let objects = loaded.objects();
    let report = status::ingress_status(&objects, args.ingress_class.as_deref(), publish);
    if args.json {
        return Ok(show::json(&report));
    }
    let mut out = status::render_ingress_table(&status::ingress_rows_after(&objects, &report));
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
    if args.requests {
        requests(&mut out, &report);
    }
    Ok(out)
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
