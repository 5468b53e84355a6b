//! `ingress-router test`: route assertions from a tests file (the core's `tests_file`), in the
//! spirit of Envoy's router_check_tool.

use std::fmt::Write;
use std::path::Path;

use crate::tests_file::{self, TestsReport};
use crate::{DecisionView, StandingView};

use super::load;
use super::{Common, Failure, show};

fn actual_text(view: &DecisionView) -> String {
    if let Some(gateway) = &view.gateway {
        let mut actual = show::decision_text(view);
        if let Some(upstream) = &gateway.upstream {
            let _ = write!(actual, ", upstream host {} path {}", upstream.host, upstream.path);
        }
        return actual;
    }
    let mut s = format!("backend {}, via {}", view.label, view.via.as_str());
    if let Some(m) = &view.matched {
        let _ = write!(
            s,
            ", matched ingress={:?} host={:?} path={:?} pathType={:?}",
            m.ingress,
            m.host,
            m.path,
            m.path_type.as_str()
        );
    }
    if let Some(from) = &view.default_from {
        let _ = write!(s, ", defaultBackend of Ingress {from}");
    }
    if let Some(path) = &view.upstream_path {
        let _ = write!(s, ", upstream path {path}");
    }
    s
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

/// Runs the tests; the exit code is 0 when all pass, 1 otherwise. Through the Gateway API
/// objects when `gateway` (`--gateway`) or the options' `gateway` names a Gateway, or when the
/// input has a Gateway and no Ingress.
pub fn run(
    common: &Common,
    tests_path: &Path,
    coverage: bool,
    json: bool,
    gateway: Option<&str>,
) -> Result<i32, Failure> {
    let (file_name, text) = load::read_text(tests_path)?;
    let file = tests_file::parse(&file_name, &text).map_err(|e| Failure(e.to_string()))?;
    let loaded = load::load(&common.files)?;
    let router = load::router(&loaded, common, &file.options, gateway)?;
    let report = tests_file::run(&router, &file);
    if json {
        super::print(&show::json(&report));
        return Ok(exit_code(&report));
    }
    let mut out = results_text(&report, &file.tests, actual_text, |test| {
        test.request.with(|r| show::explanation(&router.explain(r))).ok()
    });
    if coverage {
        match router.table().gateway {
            Some(table) => out.push_str(&gateway_coverage_text(&table, &report)),
            None => out.push_str(&coverage_text(&router, &report)),
        }
    }
    let _ = writeln!(out, "{} passed, {} failed", report.passed, report.failed);
    super::print(&out);
    Ok(exit_code(&report))
}

/// The route rules (HTTPRoute, GRPCRoute; attached to some listener) that no test chose.
fn gateway_coverage_text(table: &crate::gateway::listing::GatewayTableView, report: &TestsReport) -> String {
    let chosen = tests_file::chosen_rules(report);
    let mut rules: Vec<(&'static str, String, usize)> = table
        .listeners
        .iter()
        .flat_map(|l| l.routes.iter())
        .flat_map(|r| r.rules.iter().map(|rule| (r.kind, r.route.clone(), rule.rule)))
        .collect();
    rules.sort();
    rules.dedup();
    let missed: Vec<Vec<String>> = rules
        .iter()
        .filter(|r| !chosen.contains(r))
        .map(|(kind, route, rule)| vec![format!("{kind} {route}"), format!("rules[{rule}]")])
        .collect();
    let kinds: Vec<&str> = {
        let mut kinds: Vec<&str> = rules.iter().map(|(kind, _, _)| *kind).collect();
        kinds.dedup();
        kinds
    };
    let kind = match kinds.as_slice() {
        [one] => *one,
        _ => "route",
    };
    let (all, some) = (format!("every {kind} rule"), format!("{kind} rules"));
    coverage_lines(rules.len(), &missed, (&all, &some))
}

/// `coverage: every <all> (N) was chosen by a test`, or how many of `total` were and the
/// `missed` rows as columns.
fn coverage_lines(total: usize, missed: &[Vec<String>], (all, some): (&str, &str)) -> String {
    let mut out = String::new();
    if missed.is_empty() {
        let _ = writeln!(out, "coverage: {all} ({total}) was chosen by a test");
    } else {
        let _ = writeln!(
            out,
            "coverage: {} of {total} {some} chosen by a test; not chosen by any test:",
            total - missed.len()
        );
        out.push_str(&indent(&show::columns(missed), "  "));
    }
    out
}

/// `PASS name`, or `FAIL name` with what it expected, what it got (`actual`) and the trace
/// (`trace`: the explanation as text), for each test.
fn results_text(
    report: &TestsReport,
    tests: &[tests_file::Test],
    actual: impl Fn(&DecisionView) -> String,
    trace: impl Fn(&tests_file::Test) -> Option<String>,
) -> String {
    let mut out = String::new();
    for (result, test) in report.results.iter().zip(tests) {
        if result.passed {
            let _ = writeln!(out, "PASS {}", result.name);
            continue;
        }
        let _ = writeln!(out, "FAIL {}", result.name);
        let _ = writeln!(out, "  expected: {}", result.expect);
        let _ = writeln!(out, "  actual:   {}", actual(&result.actual));
        if let Some(trace) = trace(test) {
            out.push_str("  trace:\n");
            out.push_str(&indent(&trace, "    "));
        }
    }
    out
}

fn exit_code(report: &TestsReport) -> i32 {
    if report.failed == 0 { 0 } else { 1 }
}

/// The paths no test chose.
fn coverage_text(router: &crate::Router, report: &TestsReport) -> String {
    let chosen = tests_file::chosen_paths(report);
    let table = router.table();
    let paths: Vec<_> = table.hosts.iter().flat_map(|h| h.paths.iter().map(move |p| (h, p))).collect();
    let missed: Vec<Vec<String>> = paths
        .iter()
        .filter(|(_, p)| !chosen.contains(&(p.ingress.clone(), p.field.clone())))
        .map(|(h, p)| {
            let host = if h.host.is_empty() { "(any host)" } else { &h.host };
            let standing = match &p.standing {
                StandingView::Active => "",
                _ => "(can never be chosen: see `table`)",
            };
            vec![
                p.ingress.clone(),
                host.to_string(),
                p.path.clone(),
                p.path_type.to_string(),
                p.field.clone(),
                standing.into(),
            ]
        })
        .collect();
    coverage_lines(paths.len(), &missed, ("every path", "paths"))
}
