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
//! ```
//! use ingress_router::{compile, input, tests_file, CompileOptions};
//! let manifests = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
//!   "metadata": {"name": "shop", "namespace": "default"},
//!   "spec": {"rules": [{"http": {"paths": [{"path": "/", "pathType": "Prefix",
//!     "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}}"#;
//! let file = tests_file::parse("tests.yaml", "tests:\n- request: {url: http://a/x, method: GET}\n  expect: {backend: web:80}\n").unwrap();
//! let objects = input::parse("in.json", manifests).unwrap().into_objects();
//! let report = tests_file::run(&compile(&objects, &file.options), &file);
//! assert_eq!((report.passed, report.failed), (1, 0));
//! ```

// A tests file is read once per run: its errors carry their whole place.
#![allow(clippy::result_large_err)]

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
    pub tests: Vec<Test>,
}

fn is_default(options: &CompileOptions) -> bool {
    *options == CompileOptions::default()
}

/// One request and what it must get.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Test {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub request: RequestSpec,
    pub expect: Expect,
}

/// What a test expects: the decision's label, and optionally more of the decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct Expect {
    /// The decision's [label](crate::DecisionView::label) (`404` may be written as a number).
    #[serde(deserialize_with = "scalar")]
    pub backend: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<ExpectedMatch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_path: Option<String>,
}

/// The winning path a test expects; each field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExpectedMatch {
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

impl Expect {
    /// What `decision` answers, as a test pins it: its label, how, the winning path, and the
    /// upstream path after a rewrite.
    pub fn pinning(decision: &DecisionView) -> Self {
        Expect {
            backend: decision.label.clone(),
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
    pub fn met_by(&self, decision: &DecisionView) -> bool {
        let same = |want: &Option<String>, got: &str| want.as_deref().is_none_or(|w| w == got);
        decision.label == self.backend
            && self.via.is_none_or(|v| v == decision.via)
            && self.upstream_path.as_ref().is_none_or(|p| decision.upstream_path.as_ref() == Some(p))
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

impl core::fmt::Display for Expect {
    /// `backend X, via Y, matched ingress="..." ...`, as `test` prints an expectation.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "backend {}", self.backend)?;
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
/// routing. The options are the router's.
pub fn pin(router: &Router, requests: Vec<(Option<String>, RequestSpec)>) -> Result<TestsFile, InputError> {
    let mut tests = Vec::with_capacity(requests.len());
    for (i, (name, request)) in requests.into_iter().enumerate() {
        let decision = request.with(|r| router.route(r).view()).map_err(|e| {
            InputError::new(InputErrorKind::Shape, "requests", e.to_string()).at_field(format!("[{i}]"))
        })?;
        tests.push(Test { name, request, expect: Expect::pinning(&decision) });
    }
    Ok(TestsFile { options: router.options().clone(), tests })
}

/// Every test's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TestsReport {
    pub passed: usize,
    pub failed: usize,
    pub results: Vec<TestResult>,
}

/// One test's outcome: what it expected, and the decision it got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TestResult {
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
            let actual = test.request.with(|r| router.route(r).view()).unwrap_or_else(|e| {
                let mut refused = crate::decision::Decision::none().view();
                refused.label = format!("bad request: {e}");
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

/// The `(Ingress, field)` of every path the passing and failing tests chose (for coverage).
pub fn chosen_paths(report: &TestsReport) -> BTreeSet<(String, String)> {
    report
        .results
        .iter()
        .filter_map(|r| r.actual.matched.as_ref())
        .map(|m| (m.ingress.clone(), m.field.clone()))
        .collect()
}
