//! The tests file: requests and the answers they must get. Read, written and run here for every
//! home: `ingress-router test` and `diff --tests`, the npm package's `runTests` and `writeTests`,
//! the playground's export and import.
//!
//! ```yaml
//! options: {ingressClass: nginx}          # CompileOptions, as everywhere
//! tests:
//! - name: cart API
//!   request: {url: "https://shop.example.com/cart/items", method: GET, headers: {X-Canary: always}}
//!   expect:
//!     backend: cart-api:80                # the decision's label: 404, 400, redirect ..., split(...)
//!     via: rule                           # optional, as are the rest
//!     matched: {ingress: shop/cart, host: shop.example.com, path: /cart, pathType: Prefix}
//!     upstreamPath: /items                # after a rewrite
//! ```
//!
//! With `options.gateway` (a Gateway, `namespace/name`), or an input with a Gateway and no
//! Ingress, the requests are routed through the input's Gateway API objects instead (the same
//! [`run`]); `request.method` and `request.headers` are matched, and the URL's port picks the
//! listener:
//!
//! ```yaml
//! options: {gateway: infra/public}
//! tests:
//! - request: {url: "http://shop.example.com:8080/api?v=2", method: POST, headers: {x-env: canary}}
//!   expect:
//!     backend: shop/api-canary:8080       # namespace/name:port, or name:port (any namespace)
//!     status: 200
//!     upstream: {host: api.internal, path: /v2/api?v=2}
//! - request: {url: "http://shop.example.com/old"}
//!   expect: {status: 301, redirect: "http://shop.example.com/new"}
//! ```
//!
//! Every expectation is optional, but a test names at least one of `backend`, `status` and
//! `redirect`. For an Ingress, `status` is the refusal's or redirect's status, 404 when nothing
//! answers, else 200; `upstream.path` is `upstreamPath`; `upstream.host` is met only by a
//! Gateway API decision.
//!
//! ```
//! use ingress_router::{compile, input, tests_file, CompileOptions};
//! let manifests = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
//!   "metadata": {"name": "shop", "namespace": "default"},
//!   "spec": {"rules": [{"http": {"paths": [{"path": "/", "pathType": "Prefix",
//!     "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}}"#;
//! let file = tests_file::parse("tests.yaml", "tests:\n- request: {url: http://a/x, method: GET}\n  expect: {backend: web:80}\n").unwrap();
//! let input = input::parse("in.json", manifests).unwrap();
//! let report = tests_file::run(&compile(&input, &file.options).unwrap(), &file);
//! assert_eq!((report.passed, report.failed), (1, 0));
//! ```

// A tests file is read once per run: its errors carry their whole place.
#![allow(clippy::result_large_err)]

#[cfg(feature = "cli")]
use std::collections::BTreeSet;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::decision::{DecisionView, Via};
use crate::input::{InputError, InputErrorKind};
use crate::options::CompileOptions;
use crate::position::Positions;
use crate::request::RequestSpec;
use crate::router::Router;

/// A whole tests file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct TestsFile {
    /// The options the table is compiled with (the CLI's flags override them).
    #[serde(default, skip_serializing_if = "is_default")]
    pub options: CompileOptions,
    pub(crate) tests: Vec<Test>,
}

fn is_default(options: &CompileOptions) -> bool {
    *options == CompileOptions::default()
}

/// One request and what it must get.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub(crate) struct Test {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub request: RequestSpec,
    pub expect: Expect,
}

/// What a test expects: the decision's label, and optionally more of the decision (at least one
/// of `backend`, `status`, `redirect`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct Expect {
    /// The decision's [label](crate::DecisionView::label) (`404` may be written as a number); for
    /// the Gateway API, `namespace/name:port` or `name:port`.
    #[serde(default, deserialize_with = "optional_scalar", skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// The HTTP status the proxy answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The redirect's `Location` (an absolute URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<ExpectedMatch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_path: Option<String>,
    /// What the backend receives: its path (with query) and `Host`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream: Option<ExpectedUpstream>,
}

/// What the backend must receive; each field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct ExpectedUpstream {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// The winning path a test expects; each field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct ExpectedMatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ingress: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_type: Option<String>,
}

/// A string, also when YAML reads it as a number (`backend: 404`) or a boolean.
fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(serde::de::Error::custom("expected a string")),
    }
}

fn optional_scalar<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    scalar(d).map(Some)
}

impl Expect {
    /// What `decision` answers, as a test pins it: its label, how, the winning path, and the
    /// upstream path after a rewrite.
    /// A Gateway API decision pins its status, redirect and upstream path too.
    pub(crate) fn pinning(decision: &DecisionView) -> Self {
        #[cfg(feature = "gateway")]
        if let Some(gateway) = &decision.gateway {
            return Expect {
                backend: Some(decision.label.clone()),
                status: Some(decision.status),
                redirect: decision.redirect.as_ref().map(|r| r.location.clone()),
                via: None,
                matched: None,
                upstream_path: None,
                upstream: gateway
                    .upstream
                    .as_ref()
                    .map(|u| ExpectedUpstream { path: Some(u.path.clone()), host: None }),
            };
        }
        Expect {
            backend: Some(decision.label.clone()),
            status: None,
            redirect: None,
            upstream: None,
            via: Some(decision.via),
            matched: decision.matched.as_ref().map(|m| ExpectedMatch {
                ingress: Some(m.ingress.clone()),
                host: Some(m.host.clone()),
                path: Some(m.path.clone()),
                path_type: Some(m.path_type.as_str().into()),
            }),
            upstream_path: decision.upstream_path.clone(),
        }
    }

    /// Whether `decision` meets every expectation written.
    /// `backend` written `name:port` meets a Gateway API label `namespace/name:port`.
    pub(crate) fn met_by(&self, decision: &DecisionView) -> bool {
        let same = |want: &Option<String>, got: &str| want.as_deref().is_none_or(|w| w == got);
        let (upstream_host, upstream_path) = upstream(decision);
        let upstream_path = |want: &String| upstream_path == Some(want.as_str());
        let label = &decision.label;
        self.backend.as_ref().is_none_or(|b| {
            b == label || (!b.contains('/') && label.split_once('/').is_some_and(|(_, name_port)| name_port == b))
        }) && self.status.is_none_or(|s| s == decision.status)
            && self.redirect.as_ref().is_none_or(|r| decision.redirect.as_ref().is_some_and(|d| d.location == *r))
            && self.upstream.as_ref().is_none_or(|u| {
                u.path.as_ref().is_none_or(upstream_path)
                    && u.host.as_ref().is_none_or(|h| upstream_host == Some(h.as_str()))
            })
            && self.via.is_none_or(|v| v == decision.via)
            && self.upstream_path.as_ref().is_none_or(upstream_path)
            && self.matched.as_ref().is_none_or(|m| {
                decision.matched.as_ref().is_some_and(|a| {
                    same(&m.ingress, &a.ingress)
                        && same(&m.host, &a.host)
                        && same(&m.path, &a.path)
                        && same(&m.path_type, a.path_type.as_str())
                })
            })
    }
}

/// The `Host` the backend receives (the Gateway API's, when it is known) and the path, when a
/// profile rewrote it or the Gateway API forwards.
fn upstream(decision: &DecisionView) -> (Option<&str>, Option<&str>) {
    #[cfg(feature = "gateway")]
    if let Some(u) = decision.gateway.as_ref().and_then(|g| g.upstream.as_ref()) {
        return (Some(u.host.as_str()), Some(u.path.as_str()));
    }
    (None, decision.upstream_path.as_deref())
}

impl Expect {
    /// Whether the test names what it checks: `backend`, `status` or `redirect`.
    fn names_an_answer(&self) -> bool {
        self.backend.is_some() || self.status.is_some() || self.redirect.is_some()
    }
}

impl core::fmt::Display for Expect {
    /// `backend X, via Y, matched ingress="..." ...`, as `test` prints an expectation.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(backend) = &self.backend {
            parts.push(format!("backend {backend}"));
        }
        if let Some(status) = self.status {
            parts.push(format!("status {status}"));
        }
        if let Some(redirect) = &self.redirect {
            parts.push(format!("redirect {redirect}"));
        }
        f.write_str(&parts.join(", "))?;
        if let Some(via) = self.via {
            write!(f, ", via {via}")?;
        }
        if let Some(m) = &self.matched {
            f.write_str(", matched")?;
            for (key, value) in
                [("ingress", &m.ingress), ("host", &m.host), ("path", &m.path), ("pathType", &m.path_type)]
            {
                if let Some(v) = value {
                    write!(f, " {key}={v:?}")?;
                }
            }
        }
        if let Some(path) = &self.upstream_path {
            write!(f, ", upstream path {path}")?;
        }
        if let Some(u) = &self.upstream {
            if let Some(path) = &u.path {
                write!(f, ", upstream path {path}")?;
            }
            if let Some(host) = &u.host {
                write!(f, ", upstream host {host}")?;
            }
        }
        Ok(())
    }
}

/// Reads a tests file, YAML or JSON (JSON is YAML). Unknown keys are errors, as is a request
/// without a target or with a URL that cannot be read; each error names its line and field.
pub fn parse(source: &str, text: &str) -> Result<TestsFile, InputError> {
    let text = text.trim_start_matches('\u{feff}');
    let value = read_value(source, text)?;
    let file = match TestsFile::deserialize(value) {
        Ok(file) => file,
        Err(e) => {
            let mut error = InputError::new(InputErrorKind::Shape, source, e.to_string());
            // Only a file that does not read needs its value again, to find the part at fault.
            let value = read_value(source, text).unwrap_or_default();
            if let Some(part) = failing_part(&value) {
                if let Some(at) = Positions::new(text).locate(1, &part) {
                    error = error.at_line(at.line, at.column);
                }
                error = error.at_field(part);
            }
            return Err(error);
        }
    };
    if file.tests.is_empty() {
        return Err(InputError::new(InputErrorKind::Shape, source, "`tests` is empty").at_field("tests"));
    }
    for (i, test) in file.tests.iter().enumerate() {
        if let Err(e) = test.request.with(|_| ()) {
            return Err(
                InputError::new(InputErrorKind::Shape, source, e.to_string()).at_field(format!("tests[{i}].request"))
            );
        }
        if !test.expect.names_an_answer() {
            return Err(InputError::new(
                InputErrorKind::Shape,
                source,
                "the test expects nothing: give `backend`, `status` or `redirect`",
            )
            .at_field(format!("tests[{i}].expect")));
        }
    }
    Ok(file)
}

/// The file's one YAML document as JSON. Read as the manifests are (YAML to a JSON `Value`, then
/// typed from it): one set of generic decoding code in a WebAssembly module.
fn read_value(source: &str, text: &str) -> Result<Value, InputError> {
    let mut documents = crate::yaml::documents(text);
    let yaml = documents.next().unwrap_or(Ok(crate::yaml::Yaml::Null)).map_err(|e| {
        let error = InputError::new(InputErrorKind::Syntax, source, e.message);
        match e.place {
            Some((line, column)) => error.at_line(line, column),
            None => error,
        }
    })?;
    if documents.next().is_some() {
        return Err(InputError::new(
            InputErrorKind::Syntax,
            source,
            "deserializing from YAML containing more than one document is not supported",
        ));
    }
    yaml.into_json().map_err(|e| InputError::new(InputErrorKind::Shape, source, format!("not a tests file: {e}")))
}

/// The part of a tests file that does not read (`options`, `tests[3].request`, ...), found by
/// reading the parts one by one; `None` for the file's own keys.
fn failing_part(value: &Value) -> Option<String> {
    let file = value.as_object()?;
    if let Some(options) = file.get("options")
        && CompileOptions::deserialize(options.clone()).is_err()
    {
        return Some(String::from("options"));
    }
    for (i, test) in file.get("tests")?.as_array()?.iter().enumerate() {
        let request = test.get("request").map(|r| RequestSpec::deserialize(r.clone()).is_err());
        let expect = test.get("expect").map(|e| Expect::deserialize(e.clone()).is_err());
        match (request, expect) {
            (Some(true), _) => return Some(format!("tests[{i}].request")),
            (_, Some(true)) => return Some(format!("tests[{i}].expect")),
            _ if Test::deserialize(test.clone()).is_err() => return Some(format!("tests[{i}]")),
            _ => {}
        }
    }
    None
}

/// The fields of a tests file in the order its types declare them (a JSON object sorts its keys).
const FIELD_ORDER: &[&str] = &[
    "options",
    "ingressClass",
    "implementationSpecific",
    "profile",
    "normalizePath",
    "mergeSlashes",
    "escapedSlashes",
    "defaultBackend",
    "tests",
    "name",
    "request",
    "url",
    "ingress",
    "host",
    "path",
    "pathType",
    "method",
    "scheme",
    "headers",
    "expect",
    "backend",
    "via",
    "matched",
    "upstreamPath",
];

/// The file as YAML, with `comment` (one or more lines) on top as `#` lines.
pub fn write(file: &TestsFile, comment: &str) -> String {
    let mut out: String = comment.lines().map(|l| format!("# {l}\n")).collect();
    // Serialising plain data to a JSON value cannot fail; an empty file would be refused by `parse`.
    let value = serde_json::to_value(file).unwrap_or_default();
    out.push_str(&crate::yaml::write(&value, FIELD_ORDER));
    out
}

/// Pins `router`'s answers to `requests` (each with an optional name): the file that keeps this
/// routing. The options are the router's; a router of the Gateway API names its Gateway in them,
/// so that the file routes through it again.
pub fn pin(router: &Router, requests: Vec<(Option<String>, RequestSpec)>) -> Result<TestsFile, InputError> {
    #[cfg(feature = "gateway")]
    if let Some(gateway) = router.gateway() {
        let options = CompileOptions { gateway: Some(gateway.gateway_name()), ..CompileOptions::default() };
        return pin_by(requests, |r| router.route(r).view(r), options);
    }
    pin_by(requests, |r| router.route(r).view(r), router.options().clone())
}

/// The tests file of `requests` answered by `route`, with `options`.
pub(crate) fn pin_by(
    requests: Vec<(Option<String>, RequestSpec)>,
    route: impl Fn(&crate::Request<'_>) -> DecisionView,
    options: CompileOptions,
) -> Result<TestsFile, InputError> {
    let mut tests = Vec::with_capacity(requests.len());
    for (i, (name, request)) in requests.into_iter().enumerate() {
        let decision = request.with(&route).map_err(|e| {
            InputError::new(InputErrorKind::Shape, "requests", e.to_string()).at_field(format!("[{i}]"))
        })?;
        tests.push(Test { name, request, expect: Expect::pinning(&decision) });
    }
    Ok(TestsFile { options, tests })
}

/// Every test's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TestsReport {
    pub passed: usize,
    pub failed: usize,
    pub(crate) results: Vec<TestResult>,
}

/// One test's outcome: what it expected, and the decision it got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub(crate) struct TestResult {
    /// The test's name, else `test #N`.
    pub name: String,
    pub passed: bool,
    pub expect: Expect,
    pub actual: DecisionView,
}

/// Runs every test of `file` against `router` (compiled with the file's options, or the caller's).
pub fn run(router: &Router, file: &TestsFile) -> TestsReport {
    let results: Vec<TestResult> = file
        .tests
        .iter()
        .enumerate()
        .map(|(i, test)| {
            // `parse` checked every request; a file built in code may hold a bad one: it fails.
            let actual = test.request.with(|r| router.route(r).view(r)).unwrap_or_else(|e| {
                let mut refused = crate::decision::Decision::none().view(&crate::Request::default());
                refused.label = format!("bad request: {e}");
                refused.status = 400;
                refused
            });
            TestResult {
                name: test.name.clone().unwrap_or_else(|| format!("test #{}", i + 1)),
                passed: test.expect.met_by(&actual),
                expect: test.expect.clone(),
                actual,
            }
        })
        .collect();
    let passed = results.iter().filter(|r| r.passed).count();
    TestsReport { passed, failed: results.len() - passed, results }
}

#[cfg(feature = "gateway")]
/// The `(HTTPRoute, rule)` every Gateway API test chose (for coverage).
#[cfg(feature = "cli")]
pub(crate) fn chosen_rules(report: &TestsReport) -> BTreeSet<(&'static str, String, usize)> {
    let chosen = |r: &TestResult| {
        let gateway = r.actual.gateway.as_ref()?;
        Some((gateway.route_kind.unwrap_or("HTTPRoute"), gateway.route.clone()?, gateway.rule?))
    };
    report.results.iter().filter_map(chosen).collect()
}

/// The `(Ingress, field)` of every path the passing and failing tests chose (for coverage).
#[cfg(feature = "cli")]
pub(crate) fn chosen_paths(report: &TestsReport) -> BTreeSet<(String, String)> {
    report
        .results
        .iter()
        .filter_map(|r| r.actual.matched.as_ref())
        .map(|m| (m.ingress.clone(), m.field.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input;
    use crate::router::compile_objects as compile;

    const INGRESS: &str = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
      "metadata": {"name": "shop", "namespace": "default"},
      "spec": {"rules": [{"host": "a", "http": {"paths": [{"path": "/", "pathType": "Prefix",
        "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}}"#;

    fn results(tests: &str) -> Vec<bool> {
        let file = parse("t.yaml", tests).unwrap();
        let objects = input::parse("in.json", INGRESS).unwrap().into_objects();
        run(&compile(&objects, &file.options), &file).results.iter().map(|r| r.passed).collect()
    }

    /// `status`, `redirect` and `upstream` read an Ingress decision too: 200 for a backend, 404
    /// when nothing answers; `upstream.host` only a Gateway's.
    #[test]
    fn ingress_status_and_upstream() {
        let tests = "tests:\n\
            - {request: {url: http://a/x}, expect: {status: 200, backend: web:80}}\n\
            - {request: {url: http://b/x}, expect: {status: 404}}\n\
            - {request: {url: http://b/x}, expect: {status: 200}}\n\
            - {request: {url: http://a/x}, expect: {redirect: http://a/y}}\n\
            - {request: {url: http://a/x}, expect: {status: 200, upstream: {host: a}}}\n";
        assert_eq!(results(tests), [true, true, false, false, false]);
    }

    #[test]
    fn a_test_names_an_answer() {
        let e = parse("t.yaml", "tests:\n- {request: {url: http://a/}, expect: {via: rule}}\n").unwrap_err();
        assert!(e.to_string().contains("expects nothing"), "{e}");
        let file = parse("t.yaml", "tests:\n- {request: {url: http://a/}, expect: {status: 404}}\n").unwrap();
        assert_eq!(file.tests[0].expect.to_string(), "status 404");
        // A Gateway's test reads the URL as a Gateway does.
        let port = "options: {gateway: gw}\ntests:\n- {request: {url: 'http://a:x/'}, expect: {status: 404}}\n";
        assert!(parse("t.yaml", port).unwrap_err().to_string().contains("port"));
    }
}
