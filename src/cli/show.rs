//! Text (and JSON) for people: decisions, explanations, the table.

use std::fmt::Write;

use crate::Candidate;
use crate::StandingView;
use crate::Tier;
use crate::gateway::{self, listing::GatewayTableView};
use crate::{DecisionView, Explanation, Router, Via};
use crate::{MatchKind, PathType};
use serde::Serialize;

/// Paths of other host tiers listed by `explain` before it only counts them.
const OTHER_TIERS_SHOWN: usize = 20;

pub fn json(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("views serialize to JSON");
    text.push('\n');
    text
}

fn row<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

/// Lines of cells, every column but the last padded to its widest cell.
pub fn columns(rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for r in rows {
        for (i, cell) in r.iter().enumerate().take(r.len().saturating_sub(1)) {
            let w = cell.chars().count();
            match widths.get_mut(i) {
                Some(width) => *width = (*width).max(w),
                None => widths.push(w),
            }
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < r.len() {
                let pad = widths[i] - cell.chars().count() + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `ImplementationSpecific` says how this build matches it.
fn path_type(path_type: PathType, kind: MatchKind) -> String {
    if path_type != PathType::ImplementationSpecific {
        return path_type.to_string();
    }
    let how = match kind {
        MatchKind::Exact => "exact",
        MatchKind::ElementPrefix => "prefix",
        MatchKind::StringPrefix => "string-prefix",
    };
    format!("{path_type} ({how})")
}

fn host_name(host: &str) -> &str {
    if host.is_empty() { "(any host)" } else { host }
}

fn path_name(path: &str) -> &str {
    if path.is_empty() { "\"\"" } else { path }
}

pub fn decision(view: &DecisionView) -> String {
    if view.gateway.is_some() {
        return decision_text(view) + "\n";
    }
    let mut rows = vec![row(["backend:", &view.label]), row(["via:", view.via.as_str()])];
    if let Some(m) = &view.matched {
        rows.push(row(["ingress:", &m.ingress]));
        rows.push(row(["host:", host_name(&m.host)]));
        rows.push(row(["path:", path_name(&m.path)]));
        rows.push(row(["pathType:", m.path_type.as_str()]));
        rows.push(row(["field:", &m.field]));
    }
    match view.via {
        Via::DefaultBackend => {
            let from =
                view.default_from.as_ref().map_or("the configured default backend".into(), |i| format!("Ingress {i}"));
            rows.push(row(["from:", &from]));
        }
        Via::None => rows.push(row(["reason:", "no path matched and there is no defaultBackend"])),
        _ => {}
    }
    if let Some(reason) = &view.reason {
        rows.push(row(["reason:", &format!("rejected by the proxy before routing: {reason}")]));
    }
    if let Some(path) = &view.upstream_path {
        rows.push(row(["upstream:", &format!("{path} (the path the upstream receives after the rewrite)")]));
    }
    columns(&rows)
}

/// The decision in one line.
pub fn decision_line(view: &DecisionView) -> String {
    match (&view.matched, view.via) {
        (Some(m), _) => format!(
            "{} via rule (Ingress {}, host {}, {} {})",
            view.label,
            m.ingress,
            host_name(&m.host),
            m.path_type,
            path_name(&m.path)
        ),
        (None, Via::DefaultBackend) => format!(
            "{} via defaultBackend ({})",
            view.label,
            view.default_from.as_ref().map_or("the configured default backend".into(), |i| format!("of Ingress {i}"))
        ),
        (None, Via::Redirect) => format!("{}: the proxy redirects", view.label),
        (None, Via::Rejected) => format!(
            "{}: rejected by the proxy before routing: {}",
            view.label,
            view.reason.as_deref().unwrap_or_default()
        ),
        _ => format!("{}: no path matched and there is no defaultBackend", view.label),
    }
}

fn mark(c: &Candidate) -> String {
    match c.rank {
        Some(rank) if c.matched => format!("✓ #{}", rank + 1),
        _ => String::from("✗"),
    }
}

/// One line per candidate (mark, pathType, path, backend, Ingress, field), its reason below.
fn candidate_lines(candidates: &[&Candidate]) -> String {
    let rows: Vec<Vec<String>> = candidates
        .iter()
        .map(|c| {
            row([
                "",
                &mark(c),
                &path_type(c.path_type, c.match_kind),
                path_name(&c.path),
                &format!("→ {}", c.backend),
                &c.ingress,
                &c.field,
            ])
        })
        .collect();
    let mut out = String::new();
    for (line, c) in columns(&rows).lines().zip(candidates) {
        let _ = writeln!(out, "{line}\n      {}", c.reason);
    }
    out
}

pub fn explanation(e: &Explanation) -> String {
    if let Some(gateway) = &e.gateway {
        return explanation_text(&e.decision, gateway);
    }
    let mut out = String::new();
    let mut head = vec![row(["request:", &format!("host {}, path {}", e.host, e.path)])];
    if e.decision.via == Via::Rejected && e.steps.is_empty() {
        head.push(row(["decision:", &decision_line(&e.decision)]));
        return columns(&head);
    }
    let (considered, others): (Vec<&Candidate>, Vec<&Candidate>) = e.candidates.iter().partition(|c| c.considered);
    // A profile with its own steps (ingress-nginx): server, location, the rule that decided; then
    // every location of the server with why it won or lost.
    if !e.steps.is_empty() {
        out.push_str(&columns(&head));
        for step in &e.steps {
            let _ = writeln!(out, "  - {step}");
        }
        if let Some(server) = e.tier_host.as_ref().filter(|_| !considered.is_empty()) {
            let _ = writeln!(out, "locations of server {server}, matching ones first:");
            out.push_str(&candidate_lines(&considered));
        }
        out.push_str(&decision(&e.decision));
        return out;
    }
    if let Some(path) = &e.normalized_path {
        head.push(row(["proxy:", &format!("path normalised to {path}")]));
    }
    let host = e
        .normalized_host
        .as_deref()
        .map_or("(too long to be a DNS name)", |h| if h.is_empty() { "(empty)" } else { h });
    head.push(row(["host:", &format!("{host} (port, one trailing dot and case dropped)")]));
    head.push(row(["path:", &format!("{} (the part before ? and # is matched)", path_name(&e.matched_path))]));
    out.push_str(&columns(&head));

    out.push_str("host lookup:\n");
    let steps: Vec<Vec<String>> = e
        .host_steps
        .iter()
        .map(|s| row(["", s.tier.as_str(), &s.looked_for, if s.found { "found" } else { "not found" }]))
        .collect();
    out.push_str(&columns(&steps));
    let _ = writeln!(out, "tier: {}", e.tier_reason);

    if let Some(tier_host) = &e.tier_host {
        let label = if tier_host.is_empty() { String::from("host-less rules") } else { format!("host {tier_host}") };
        let _ = writeln!(out, "paths of {label}, in precedence order:");
        out.push_str(&candidate_lines(&considered));
    }
    if let Some(key) = &e.decided_by {
        let _ = writeln!(out, "decided by: {key}");
    }
    if let Some(reason) = &e.default_reason {
        let _ = writeln!(out, "default: {reason}");
    }
    let _ = writeln!(out, "decision: {}", decision_line(&e.decision));

    if !others.is_empty() {
        out.push_str("paths of other hosts (not considered):\n");
        let rows: Vec<Vec<String>> = others
            .iter()
            .take(OTHER_TIERS_SHOWN)
            .map(|c| row(["", host_name(&c.host), c.path_type.as_str(), path_name(&c.path), &c.ingress, &c.reason]))
            .collect();
        out.push_str(&columns(&rows));
        if others.len() > OTHER_TIERS_SHOWN {
            let _ = writeln!(out, "  ... and {} more (see --json)", others.len() - OTHER_TIERS_SHOWN);
        }
    }
    out
}

pub fn table(router: &Router) -> String {
    let view = router.table();
    if let Some(gateway) = &view.gateway {
        return table_text(gateway);
    }
    let mut out = String::new();
    for host in &view.hosts {
        let _ = match host.tier {
            Tier::Exact => writeln!(out, "host {}", host.host),
            Tier::Wildcard => writeln!(out, "host {} (wildcard: exactly one label)", host.host),
            Tier::Any => writeln!(out, "any host (rules without a host)"),
        };
        let rows: Vec<Vec<String>> = host
            .paths
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let n = format!("{}.", i + 1);
                row([
                    "",
                    &n,
                    &path_type(p.path_type, p.match_kind),
                    path_name(&p.path),
                    &format!("→ {}", p.backend),
                    &p.ingress,
                    &p.field,
                ])
            })
            .collect();
        for (line, p) in columns(&rows).lines().zip(&host.paths) {
            let _ = writeln!(out, "{line}");
            match &p.standing {
                StandingView::Active => {}
                StandingView::Shadowed { by } => {
                    let _ = writeln!(
                        out,
                        "       shadowed: {} ({}) declares the same host, path and pathType and wins",
                        by.ingress, by.field
                    );
                }
                StandingView::Unreachable { by } => {
                    let _ = writeln!(
                        out,
                        "       unreachable: {} {} in {} ({}) always wins",
                        by.path_type,
                        path_name(&by.path),
                        by.ingress,
                        by.field
                    );
                }
            }
        }
        if let Some(d) = &host.default_backend {
            let _ = writeln!(
                out,
                "  defaultBackend: {} (Ingress {})",
                d.backend,
                d.ingress.as_deref().unwrap_or("configured")
            );
        }
    }
    match &view.default_backend {
        Some(d) => {
            let from = d.ingress.as_ref().map_or("the configured default".into(), |i| format!("Ingress {i}"));
            let _ = writeln!(out, "defaultBackend otherwise: {} ({from})", d.backend);
        }
        None => out.push_str("no defaultBackend: requests no path matches get 404\n"),
    }
    out.push_str("Ingresses taking part, oldest first:\n");
    for i in &view.ingresses {
        let created =
            i.creation_timestamp.as_deref().map_or(String::from("no creationTimestamp"), |t| format!("created {t}"));
        let _ = writeln!(out, "  {} ({created})", i.key());
    }
    if !view.excluded.is_empty() {
        out.push_str("excluded:\n");
        for x in &view.excluded {
            let _ = writeln!(out, "  {}/{}: {}", x.namespace, x.name, x.reason);
            for error in &x.errors {
                let _ = writeln!(out, "    {error}");
            }
        }
    }
    out
}

// ---- The Gateway API's parts: listeners, routes, rules.

/// One line: what answers, and which listener, route, rule and match chose it.
pub fn decision_text(view: &DecisionView) -> String {
    let answer = match (&view.backend, &view.redirect, &view.split) {
        (Some(_), _, _) => format!("{} {}", view.status, view.label),
        (None, Some(redirect), _) => format!("{} redirect to {}", view.status, redirect.location),
        (None, None, Some(split)) => format!("{} split over {} backends", view.status, split.len()),
        (None, None, None) => format!("{} ({})", view.status, view.via),
    };
    let answer = match (view.grpc_status, view.grpc_status_name) {
        (Some(code), Some(name)) => format!("{answer}, gRPC {code} {name}"),
        _ => answer,
    };
    let mut place = Vec::new();
    let parts = view.gateway.as_ref();
    if let Some(listener) = parts.and_then(|g| g.listener.as_ref()) {
        place.push(format!("listener {listener}"));
    }
    if let Some(route) = parts.and_then(|g| g.route.as_ref()) {
        let kind = parts.and_then(|g| g.route_kind).unwrap_or("HTTPRoute");
        place.push(format!("{kind} {route}"));
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
pub fn explanation_text(decision: &DecisionView, explanation: &gateway::explain::Explanation) -> String {
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
            let _ = writeln!(out, "  {} {}: not attached: {why}", route.kind, route.route);
            continue;
        }
        let hostname = route.matched_hostname.as_deref().map_or(String::new(), |h| format!(" (hostname {h})"));
        let _ = writeln!(out, "  {} {}{hostname}", route.kind, route.route);
        let rows: Vec<Vec<String>> = route
            .candidates
            .iter()
            .map(|c| {
                let name = c.rule_name.as_deref().map_or(String::new(), |n| format!(" ({n})"));
                vec![format!("rules[{}].matches[{}]{name}", c.rule, c.match_index), c.reason.clone()]
            })
            .collect();
        out.push_str(&indent(&columns(&rows), "    "));
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
                let _ = writeln!(out, "  {} {} not attached: {reason}", route.kind, route.route);
                continue;
            }
            let _ = writeln!(out, "  {} {} hostnames {}", route.kind, route.route, route.hostnames.join(", "));
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
            out.push_str(&indent(&columns(&rows), "    "));
        }
    }
    out
}

fn match_text(m: &gateway::model::HttpRouteMatch) -> String {
    let mut text = match &m.grpc {
        Some(grpc) => gateway::explain::grpc_method_text(grpc),
        None => format!("{:?} {}", m.path.kind, m.path.value),
    };
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
