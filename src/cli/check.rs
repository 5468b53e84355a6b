//! `ingress-router test`: route assertions from a tests file, in the spirit of Envoy's router_check_tool.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::Path;

use ingress_router::StandingView;
use ingress_router::{CompileOptions, DecisionView, Via};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::load::{self, RequestSpec};
use super::{Common, Failure, show};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TestsFile {
    #[serde(default)]
    options: CompileOptions,
    tests: Vec<Test>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Test {
    name: Option<String>,
    request: TestRequest,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TestRequest {
    url: Option<String>,
    host: Option<String>,
    path: Option<String>,
    /// Request headers by name (canaries of the ingress-nginx profile read them).
    #[serde(default)]
    headers: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    backend: Scalar,
    via: Option<Via>,
    matched: Option<ExpectedMatch>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ExpectedMatch {
    ingress: Option<String>,
    host: Option<String>,
    path: Option<String>,
    path_type: Option<String>,
}

/// A string, also when YAML reads it as a number (`backend: 404`) or a boolean.
struct Scalar(String);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Scalar(s)),
            Value::Number(n) => Ok(Scalar(n.to_string())),
            Value::Bool(b) => Ok(Scalar(b.to_string())),
            _ => Err(serde::de::Error::custom("expected a string")),
        }
    }
}

/// Reads the tests file: YAML, or JSON when it starts with `{`. Unknown keys are errors.
fn parse(name: &str, text: &str) -> Result<TestsFile, Failure> {
    let text = text.trim_start_matches('\u{feff}');
    let (field, place, message) = if text.trim_start().starts_with('{') {
        let mut de = serde_json::Deserializer::from_str(text);
        match serde_path_to_error::deserialize(&mut de) {
            Ok(file) => return Ok(file),
            Err(e) => {
                let field = e.path().to_string();
                let e = e.into_inner();
                (field, Some((e.line(), e.column())), e.to_string())
            }
        }
    } else {
        match serde_path_to_error::deserialize(serde_norway::Deserializer::from_str(text)) {
            Ok(file) => return Ok(file),
            Err(e) => {
                let field = e.path().to_string();
                let e = e.into_inner();
                // serde_norway puts its own (less precise) path first: `tests[0]: unknown field ...`.
                let message = e.to_string();
                let message = match message.split_once(": ") {
                    Some((path, rest)) if !path.contains(' ') => rest.to_string(),
                    _ => message,
                };
                (field, e.location().map(|l| (l.line(), l.column())), message)
            }
        }
    };
    let message = message.find(" at line ").map_or(message.as_str(), |at| &message[..at]);
    let place = place.map_or(String::new(), |(line, column)| format!(" line {line}, column {column}:"));
    let field = if field == "." { String::new() } else { format!(" {field}:") };
    Err(Failure(format!("{name}:{place}{field} {message}")))
}

fn request(r: &TestRequest) -> Result<RequestSpec, String> {
    let mut spec = match (&r.url, &r.host, &r.path) {
        (Some(url), None, None) => RequestSpec::from_url(url)?,
        (None, Some(host), path) => RequestSpec {
            host: host.clone(),
            path: path.clone().unwrap_or_else(|| String::from("/")),
            ..RequestSpec::default()
        },
        _ => return Err(String::from("request needs either `url`, or `host` and `path`")),
    };
    spec.headers = r.headers.iter().map(|(n, v)| (n.clone(), v.clone())).collect();
    Ok(spec)
}

fn meets(expect: &Expect, view: &DecisionView) -> bool {
    let same = |want: &Option<String>, got: &str| want.as_deref().is_none_or(|w| w == got);
    view.backend == expect.backend.0
        && expect.via.is_none_or(|v| v == view.via)
        && expect.matched.as_ref().is_none_or(|m| {
            view.matched.as_ref().is_some_and(|a| {
                same(&m.ingress, &a.ingress)
                    && same(&m.host, &a.host)
                    && same(&m.path, &a.path)
                    && same(&m.path_type, a.path_type.as_str())
            })
        })
}

fn expected_text(e: &Expect) -> String {
    let mut s = format!("backend {}", e.backend.0);
    if let Some(via) = e.via {
        let _ = write!(s, ", via {}", via.as_str());
    }
    if let Some(m) = &e.matched {
        s.push_str(", matched");
        for (key, value) in [("ingress", &m.ingress), ("host", &m.host), ("path", &m.path), ("pathType", &m.path_type)]
        {
            if let Some(v) = value {
                let _ = write!(s, " {key}={v:?}");
            }
        }
    }
    s
}

fn actual_text(view: &DecisionView) -> String {
    let mut s = format!("backend {}, via {}", view.backend, view.via.as_str());
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
    s
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

/// Runs the tests; the exit code is 0 when all pass, 1 otherwise.
pub fn run(common: &Common, tests_path: &Path, coverage: bool) -> Result<i32, Failure> {
    let (file_name, text) = load::read_text(tests_path)?;
    let file = parse(&file_name, &text)?;
    if file.tests.is_empty() {
        return Err(Failure(format!("{file_name}: `tests` is empty")));
    }
    let mut tests = Vec::new();
    for (i, test) in file.tests.iter().enumerate() {
        let name = test.name.clone().unwrap_or_else(|| format!("test #{}", i + 1));
        let spec = request(&test.request).map_err(|e| Failure(format!("{file_name}: {name} (tests[{i}]): {e}")))?;
        tests.push((name, spec, &test.expect));
    }
    let router = load::router(common, &file.options)?;

    let mut out = String::new();
    let (mut passed, mut failed) = (0, 0);
    // The paths tests chose, as (Ingress, field).
    let mut chosen = HashSet::new();
    for (name, spec, expect) in &tests {
        let headers = spec.header_refs();
        let request = spec.request(&headers);
        let view = router.route(&request).view();
        if let Some(m) = &view.matched {
            chosen.insert((m.ingress.clone(), m.field.clone()));
        }
        if meets(expect, &view) {
            passed += 1;
            let _ = writeln!(out, "PASS {name}");
            continue;
        }
        failed += 1;
        let _ = writeln!(out, "FAIL {name}");
        let _ = writeln!(out, "  expected: {}", expected_text(expect));
        let _ = writeln!(out, "  actual:   {}", actual_text(&view));
        out.push_str("  trace:\n");
        out.push_str(&indent(&show::explanation(&router.explain(&request)), "    "));
    }
    if coverage {
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
                [
                    p.ingress.clone(),
                    host.to_string(),
                    p.path.clone(),
                    p.path_type.to_string(),
                    p.field.clone(),
                    standing.into(),
                ]
                .into_iter()
                .collect()
            })
            .collect();
        let total = paths.len();
        if missed.is_empty() {
            let _ = writeln!(out, "coverage: every path ({total}) was chosen by a test");
        } else {
            let _ = writeln!(
                out,
                "coverage: {} of {total} paths chosen by a test; not chosen by any test:",
                total - missed.len()
            );
            out.push_str(&indent(&show::columns(&missed), "  "));
        }
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    super::print(&out);
    Ok(if failed == 0 { 0 } else { 1 })
}
