//! `gateway`: one request through the Gateway API objects of the input (Gateways, HTTPRoutes,
//! ReferenceGrants, with their Services and Namespaces): the decision, or with `--explain` why
//! every other listener, route and match lost. The routing is the core's (`ingress_router::gateway`);
//! this adapter reads files, builds the request and prints.

use std::path::PathBuf;

use clap::Args;
use ingress_router::gateway::{self, DecisionView, Explanation, GatewayOptions, GatewayRequest, Objects};
use ingress_router::model::Object;
use serde_json::Value;

use super::{Failure, load, print, show};

pub const EXAMPLES: &str = "\
Examples:
  ingress-router gateway -f gateway.yaml -f routes/ https://shop.example.com/cart?id=1
  ingress-router gateway -f manifests/ --gateway infra/public http://api.example.com/v2 --method POST --json
  ingress-router gateway -f manifests/ http://api.example.com/v2 -H 'x-env: canary' --explain

Gateway API objects (gateway.networking.k8s.io) are read from the same files as Ingresses; the
Ingress commands leave them out. The request arrives at --gateway (the only Gateway when there is
one) on the URL's port (80 for http, 443 for https).";

#[derive(Args)]
pub struct GatewayArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside, recursively); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// The request: scheme://host[:port]/path?query.
    url: String,
    /// The Gateway the request arrives at: NAMESPACE/NAME, or NAME (needed when the input has several).
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
    /// The request's method [default: GET].
    #[arg(long, value_name = "METHOD", default_value = "GET")]
    method: String,
    /// A request header, `Name: value` (repeatable).
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Why every other listener, route and match lost, not only the decision.
    #[arg(long)]
    explain: bool,
    /// JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &GatewayArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    let mut values: Vec<Value> = loaded.gateway_api.iter().map(|g| g.value.clone()).collect();
    if !values.iter().any(|v| v.get("kind").and_then(Value::as_str) == Some("Gateway")) {
        return Err(Failure(
            "no Gateway in the input: give the Gateway API objects (gateway.networking.k8s.io) with -f".into(),
        ));
    }
    // The Services the routes refer to (ports, existence), as the Ingress commands read them.
    let services = loaded.objects().into_iter().filter(|o| matches!(o, Object::Service(_)));
    values.extend(services.filter_map(|s| serde_json::to_value(s).ok()));
    // Objects the apiserver would refuse are left out, with its answer as the warning.
    let objects = Objects::from_checked_values(&values);
    for skipped in &objects.skipped {
        let origin = loaded.gateway_api.get(skipped.index).map_or(String::new(), |g| format!("{}: ", g.origin));
        load::stderr(&format_args!("warning: {origin}{} {:?} left out: {}", skipped.kind, skipped.name, skipped.error));
    }
    let options = GatewayOptions { gateway: args.gateway.clone(), ..GatewayOptions::default() };
    let router = gateway::compile(&objects, &options);

    let headers: Vec<(&str, &str)> = args
        .headers
        .iter()
        .map(|h| {
            h.split_once(':')
                .map(|(name, value)| (name.trim(), value.trim()))
                .ok_or_else(|| Failure(format!("--header {h:?}: expected `Name: value`")))
        })
        .collect::<Result<_, _>>()?;
    let request = GatewayRequest::from_url(&args.url)
        .map_err(|e| Failure(format!("bad URL {:?}: {e}", args.url)))?
        .with_method(&args.method)
        .with_headers(&headers);
    if args.explain {
        let explanation = router.explain(&request);
        print(&if args.json { show::json(&explanation) } else { explanation_text(&explanation) });
    } else {
        let view = router.route(&request).view(&request);
        print(&if args.json { show::json(&view) } else { decision_text(&view) + "\n" });
    }
    Ok(0)
}

/// One line: what answers, and which listener, route, rule and match chose it.
fn decision_text(view: &DecisionView) -> String {
    let answer = match (&view.backend, &view.redirect, view.split.is_empty()) {
        (Some(b), _, _) => {
            let port = b.port.map_or(String::new(), |p| format!(":{p}"));
            format!("{} {}/{}{port}", view.status, b.namespace, b.name)
        }
        (None, Some(redirect), _) => format!("{} redirect to {}", view.status, redirect.location),
        (None, None, false) => format!("{} split over {} backends", view.status, view.split.len()),
        (None, None, true) => format!("{} ({})", view.status, view.via),
    };
    let mut place = Vec::new();
    if let Some(listener) = &view.listener {
        place.push(format!("listener {listener}"));
    }
    if let Some(route) = &view.route {
        place.push(format!("HTTPRoute {route}"));
    }
    if let (Some(rule), Some(m)) = (view.rule, view.match_index) {
        place.push(format!("rules[{rule}].matches[{m}]"));
    }
    match place.is_empty() {
        true => answer,
        false => format!("{answer}  ({})", place.join(", ")),
    }
}

/// The decision, then each listener's and route's part, as JSON lines a person can scan.
fn explanation_text(explanation: &Explanation) -> String {
    let mut out = decision_text(&explanation.decision) + "\n";
    for listener in &explanation.listeners {
        out.push_str(&format!("  listener {}\n", serde_json::to_string(listener).unwrap_or_default()));
    }
    for route in &explanation.routes {
        out.push_str(&format!("  route {}\n", serde_json::to_string(route).unwrap_or_default()));
    }
    out
}
