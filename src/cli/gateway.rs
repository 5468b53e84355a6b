//! The Gateway API objects of the input (Gateways, HTTPRoutes, ReferenceGrants, with their
//! Services and Namespaces) through `route`, `explain`, `table` and `test`: which of the two
//! routers a command uses, the Gateway API router, and its text. The routing, the views and the
//! tests file are the core's (`ingress_router::gateway`, `tests_file`); this adapter reads files,
//! picks the Gateway and prints. The `gateway` subcommand is `route`/`explain` forced to this path.

use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use ingress_router::CompileOptions;
use ingress_router::RequestSpec;
use ingress_router::gateway::{
    self, DecisionView, Explanation, GatewayOptions, GatewayRouter, GatewayTableView, NoGateway, Objects,
};
use serde_json::Value;

use super::load::{self, Loaded};
use super::{Failure, show};

pub const EXAMPLES: &str = "\
The same as `route` and `explain` (with --explain) with the Gateway API objects of the input.

Examples:
  ingress-router gateway -f examples/gateway/manifests --gateway infra/public http://shop.example.com/cart?id=1
  ingress-router gateway -f manifests/ --gateway infra/public http://api.example.com/v2 --method POST --json
  ingress-router gateway -f manifests/ http://api.example.com/v2 -H 'x-env: canary' --explain";

/// `gateway`: an alias of `route` (`explain` with `--explain`) that always routes through the
/// Gateway API objects.
#[derive(Args)]
pub struct GatewayArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside, recursively); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The request: scheme://host[:port]/path?query.
    pub url: String,
    /// The Gateway the request arrives at: NAMESPACE/NAME, or NAME (needed when the input has several).
    #[arg(long, value_name = "NS/NAME")]
    pub gateway: Option<String>,
    /// The request's method.
    #[arg(short = 'X', long, value_name = "METHOD", default_value = "GET")]
    pub method: String,
    /// A request header, `Name: value` (repeatable).
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Why every other listener, route and match lost, not only the decision.
    #[arg(long)]
    pub explain: bool,
    /// JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &GatewayArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    let mut spec = RequestSpec::url(args.url.as_str());
    spec.method = Some(args.method.clone());
    spec.headers = super::parse_headers(&args.headers)?;
    let options = CompileOptions::default().with_gateway(args.gateway.clone());
    let router = router(&loaded, &options)?;
    super::print(&request(&router, &spec, args.explain, args.json)?);
    Ok(0)
}

/// Whether the input holds a Gateway.
pub fn has_gateway(loaded: &Loaded) -> bool {
    loaded.gateway_api.iter().any(|g| g.value.get("kind").and_then(Value::as_str) == Some("Gateway"))
}

/// Whether a command routes through the Gateway API objects: when `--gateway` (or a tests file's
/// `options.gateway`) names a Gateway, or when the input has a Gateway and no Ingress. Mixed input
/// without it routes the Ingresses, with a note on stderr.
pub fn chosen(loaded: &Loaded, gateway: Option<&str>) -> bool {
    let values: Vec<Value> = loaded.gateway_api.iter().map(|g| g.value.clone()).collect();
    let wanted = gateway::wanted(gateway, &values, &loaded.objects());
    if !wanted && has_gateway(loaded) {
        load::stderr(&"note: the input also holds Gateway API objects: --gateway NAMESPACE/NAME routes through them");
    }
    wanted
}

/// Compiles the Gateway API objects for `gateway` (else the only Gateway). Bad input (exit 2) when
/// there is no Gateway, when `gateway` names none of them, or when there are several and none is
/// named: the message lists the input's Gateways.
pub fn router(loaded: &Loaded, options: &CompileOptions) -> Result<GatewayRouter, Failure> {
    let values: Vec<Value> = loaded.gateway_api.iter().map(|g| g.value.clone()).collect();
    let objects = Objects::from_input(&values, &loaded.objects());
    for skipped in &objects.skipped {
        let origin = loaded.gateway_api.get(skipped.index).map_or(String::new(), |g| format!("{}: ", g.origin));
        load::stderr(&format_args!("warning: {origin}{} {:?} left out: {}", skipped.kind, skipped.name, skipped.error));
    }
    if objects.gateways.is_empty() {
        return Err(Failure(format!(
            "{}: no Gateway in the input: give the Gateway API objects (gateway.networking.k8s.io) with -f",
            loaded.names()
        )));
    }
    let router = gateway::compile(&objects, &GatewayOptions::from(options));
    let names = || {
        let names: Vec<String> =
            router.objects().gateways.iter().map(|g| format!("{}/{}", g.metadata.namespace, g.metadata.name)).collect();
        names.join(", ")
    };
    match router.no_gateway() {
        None => Ok(router),
        Some(NoGateway::NoGateways) => Err(Failure(String::from("no Gateway in the input"))),
        Some(NoGateway::NotFound { gateway }) => {
            Err(Failure(format!("--gateway {gateway}: no such Gateway; the input's Gateways: {}", names())))
        }
        Some(NoGateway::Ambiguous { .. }) => Err(Failure(format!(
            "the input has several Gateways ({}): choose one with --gateway NAMESPACE/NAME",
            names()
        ))),
    }
}

/// One request: the decision or the explanation, as text or JSON.
pub fn request(router: &GatewayRouter, spec: &RequestSpec, explain: bool, json: bool) -> Result<String, Failure> {
    spec.with_gateway(|request| match (explain, json) {
        (false, true) => show::json(&router.route(request).view(request)),
        (false, false) => decision_text(&router.route(request).view(request)) + "\n",
        (true, true) => show::json(&router.explain(request)),
        (true, false) => explanation_text(&router.explain(request)),
    })
    .map_err(|e| Failure(e.to_string()))
}

/// One line: what answers, and which listener, route, rule and match chose it.
pub fn decision_text(view: &DecisionView) -> String {
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

/// The decision, then each listener (and why it was or was not chosen), each HTTPRoute (or why
/// it is not attached) and each of its rule matches with why it won, lost or did not match.
pub fn explanation_text(explanation: &Explanation) -> String {
    let mut out = decision_text(&explanation.decision) + "\n";
    if let Some(why) = &explanation.no_gateway {
        let _ = writeln!(out, "  no Gateway: {why}");
    }
    for l in &explanation.listeners {
        let hostname = l.hostname.as_deref().unwrap_or("*");
        let _ = writeln!(out, "  listener {} {}:{} {hostname}: {}", l.name, l.protocol, l.port, l.outcome);
    }
    for route in &explanation.routes {
        if let Some(why) = &route.reason {
            let _ = writeln!(out, "  HTTPRoute {}: not attached: {why}", route.route);
            continue;
        }
        let hostname = route.matched_hostname.as_deref().map_or(String::new(), |h| format!(" (hostname {h})"));
        let _ = writeln!(out, "  HTTPRoute {}{hostname}", route.route);
        let rows: Vec<Vec<String>> = route
            .candidates
            .iter()
            .map(|c| {
                let name = c.rule_name.as_deref().map_or(String::new(), |n| format!(" ({n})"));
                vec![format!("rules[{}].matches[{}]{name}", c.rule, c.match_index), c.reason.clone()]
            })
            .collect();
        out.push_str(&indent(&show::columns(&rows), "    "));
    }
    out
}

/// The table: per listener, each HTTPRoute (its hostnames, or why it is not attached) and its
/// rules, one line each: the matches, then what the rule does.
pub fn table_text(table: &GatewayTableView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Gateway {}", table.gateway.as_deref().unwrap_or("(none)"));
    for listener in &table.listeners {
        let hostname = listener.hostname.as_deref().unwrap_or("*");
        let _ = writeln!(out, "listener {} {}:{} {hostname}", listener.name, listener.protocol, listener.port);
        for route in &listener.routes {
            if let Some(reason) = &route.not_attached {
                let _ = writeln!(out, "  HTTPRoute {} not attached: {reason}", route.route);
                continue;
            }
            let _ = writeln!(out, "  HTTPRoute {} hostnames {}", route.route, route.hostnames.join(", "));
            let mut rows = Vec::new();
            for rule in &route.rules {
                let matches: Vec<String> = rule.matches.iter().map(match_text).collect();
                let backends: Vec<String> = rule
                    .backends
                    .iter()
                    .map(|b| {
                        let port = b.port.map_or(String::new(), |p| format!(":{p}"));
                        let invalid = if b.invalid.is_some() { " (invalid)" } else { "" };
                        let weight = if rule.backends.len() > 1 { format!(" {}", b.weight) } else { String::new() };
                        format!("{}/{}{port}{weight}{invalid}", b.namespace, b.name)
                    })
                    .collect();
                let action = serde_json::to_value(&rule.action).unwrap_or_default();
                let does = match action["action"].as_str() {
                    Some("forward") if backends.is_empty() => String::from("500 (no backendRefs)"),
                    Some("forward") => format!("-> {}", backends.join(", ")),
                    Some("redirect") => String::from("redirect"),
                    _ => String::from("500 (a filter this proxy cannot apply)"),
                };
                let filters =
                    if rule.filters.is_empty() { String::new() } else { format!("[{}]", rule.filters.join(", ")) };
                rows.push(vec![format!("rules[{}]", rule.rule), matches.join(" | "), filters, does]);
            }
            out.push_str(&indent(&show::columns(&rows), "    "));
        }
    }
    out
}

fn match_text(m: &gateway::model::HttpRouteMatch) -> String {
    let mut text = format!("{:?} {}", m.path.kind, m.path.value);
    if let Some(method) = &m.method {
        let _ = write!(text, " {method}");
    }
    for h in &m.headers {
        let _ = write!(text, " header {}={}", h.name, h.value);
    }
    for q in &m.query_params {
        let _ = write!(text, " query {}={}", q.name, q.value);
    }
    text
}

pub fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}
