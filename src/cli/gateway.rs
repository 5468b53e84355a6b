//! The Gateway API objects of the input (Gateways, HTTPRoutes, ReferenceGrants, with their
//! Services and Namespaces) through `route`, `explain`, `table` and `test`: which of the two
//! routers a command uses, the Gateway API router, and its text. The routing, the views and the
//! tests file are the core's (`ingress_router::gateway`, `tests_file`); this adapter reads files,
//! picks the Gateway and prints. The `gateway` subcommand is `route`/`explain` forced to this path.

use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use ingress_router::gateway::{self, Explanation, GatewayTableView};
use ingress_router::{CompileOptions, DecisionView, RequestSpec};
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
    spec.with(|_| ()).map_err(|e| Failure(e.to_string()))?;
    // The Gateway API objects, even beside Ingresses: the only Gateway when none is named.
    let named = match &args.gateway {
        Some(gateway) => gateway.clone(),
        None => only_gateway(&loaded)?,
    };
    let router = load::compile(&loaded, &CompileOptions::default().with_gateway(Some(named)))?;
    super::print(&super::request(&router, &spec, args.explain, args.json)?);
    Ok(0)
}

/// `namespace/name` of the input's one Gateway; an error when it has none or several.
fn only_gateway(loaded: &Loaded) -> Result<String, Failure> {
    let key = |v: &Value| {
        let meta = v.get("metadata");
        let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or_default();
        let namespace = meta.and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("default");
        format!("{namespace}/{name}")
    };
    let gateways: Vec<String> = loaded
        .gateway_api
        .iter()
        .map(|g| &g.value)
        .filter(|v| v.get("kind").and_then(Value::as_str) == Some("Gateway"))
        .map(key)
        .collect();
    match gateways.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Failure(format!(
            "{}: no Gateway in the input: give the Gateway API objects (gateway.networking.k8s.io) with -f",
            loaded.names()
        ))),
        several => Err(Failure(format!(
            "the input has several Gateways ({}): choose one with --gateway NAMESPACE/NAME",
            several.join(", ")
        ))),
    }
}

/// One line: what answers, and which listener, route, rule and match chose it.
pub fn decision_text(view: &DecisionView) -> String {
    let answer = match (&view.backend, &view.redirect, &view.split) {
        (Some(_), _, _) => format!("{} {}", view.status, view.label),
        (None, Some(redirect), _) => format!("{} redirect to {}", view.status, redirect.location),
        (None, None, Some(split)) => format!("{} split over {} backends", view.status, split.len()),
        (None, None, None) => format!("{} ({})", view.status, view.via),
    };
    let mut place = Vec::new();
    let parts = view.gateway.as_ref();
    if let Some(listener) = parts.and_then(|g| g.listener.as_ref()) {
        place.push(format!("listener {listener}"));
    }
    if let Some(route) = parts.and_then(|g| g.route.as_ref()) {
        place.push(format!("HTTPRoute {route}"));
    }
    if let (Some(rule), Some(m)) = (parts.and_then(|g| g.rule), parts.and_then(|g| g.match_index)) {
        place.push(format!("rules[{rule}].matches[{m}]"));
    }
    match place.is_empty() {
        true => answer,
        false => format!("{answer}  ({})", place.join(", ")),
    }
}

/// The decision, then each listener (and why it was or was not chosen), each HTTPRoute (or why
/// it is not attached) and each of its rule matches with why it won, lost or did not match.
pub fn explanation_text(decision: &DecisionView, explanation: &Explanation) -> String {
    let mut out = decision_text(decision) + "\n";
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
