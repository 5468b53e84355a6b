//! Every case of `tests/cases/gateway.json` (Gateway API routing, each case citing the
//! specification text it comes from) through `crate::gateway`: the decision's view is
//! checked against the case's `expect`, and `explain`'s linear evaluation must agree with the
//! compiled lookup on every case.

use crate::Via;
use crate::gateway::regex::REGEX_SUPPORTED;
use crate::gateway::{GatewayOptions, GatewayRequest, Objects, compile};
use serde_json::{Value, json};

fn cases() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/gateway.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = doc["cases"].as_array().cloned().unwrap_or_default();
    assert!(!cases.is_empty(), "{path} holds no cases");
    cases
}

/// `expect` keys this harness understands; any other fails the case rather than being skipped.
const KNOWN: &[&str] = &[
    "status",
    "via",
    "route",
    "rule",
    "match",
    "listener",
    "backend",
    "location",
    "upstream_host",
    "upstream_path",
    "upstream_headers",
    "split",
    "lost_on",
    "mismatch",
    "not_attached",
    "response_header_modifiers",
];

fn run(case: &Value) -> Result<(), String> {
    let options: GatewayOptions = match case.get("options") {
        Some(o) => serde_json::from_value(o.clone()).map_err(|e| format!("options: {e}"))?,
        None => GatewayOptions::default(),
    };
    let objects = Objects::from_values(case["objects"].as_array().ok_or("objects: not an array")?);
    if !objects.skipped.is_empty() {
        return Err(format!("objects left out: {:?}", objects.skipped));
    }
    let router = compile(&objects, &options);
    let r = &case["request"];
    let headers: Vec<(String, String)> = r
        .get("headers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|h| (h[0].as_str().unwrap_or("").to_string(), h[1].as_str().unwrap_or("").to_string()))
        .collect();
    let header_refs: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut request = GatewayRequest::from_url(r["url"].as_str().ok_or("request.url")?)
        .map_err(|e| e.to_string())?
        .with_headers(&header_refs);
    if let Some(method) = r.get("method").and_then(Value::as_str) {
        request = request.with_method(method);
    }
    if let Some(port) = r.get("port").and_then(Value::as_u64) {
        request = request.with_port(port as u16);
    }
    let view = router.route(&request).view(&request);
    let explained = router.explain(&request);
    if explained.decision != view {
        return Err(format!("explain's decision differs: {:?} != {view:?}", explained.decision));
    }
    let parts = view.gateway.as_ref().expect("a Gateway API decision has its parts");
    let compiled_winner = parts.route.as_deref().map(|route| (route, parts.rule.unwrap(), parts.match_index.unwrap()));
    if explained.winner() != compiled_winner && !matches!(view.via, Via::NoListener | Via::NoGateway) {
        return Err(format!("linear winner {:?} != compiled winner {compiled_winner:?}", explained.winner()));
    }
    let got = serde_json::to_value(&view).unwrap();
    // RegularExpression matches are evaluated only with the `nginx` feature (the regex engine).
    let expect = match case.get("expect_without_regex") {
        Some(without) if !REGEX_SUPPORTED => without,
        _ => &case["expect"],
    };
    let expect = expect.as_object().ok_or("expect: not an object")?;
    let mut failures = Vec::new();
    let mut check = |key: &str, want: &Value, have: Value| {
        if *want != have {
            failures.push(format!("{key}: expected {want}, got {have}"));
        }
    };
    for (key, want) in expect {
        match key.as_str() {
            "status" | "via" | "route" | "rule" | "listener" => check(key, want, got[key].clone()),
            "match" => check(key, want, got["match"].clone()),
            "backend" => check(
                key,
                want,
                // One backend: the label is `namespace/name:port`.
                view.backend.as_ref().map_or(Value::Null, |_| json!(view.label)),
            ),
            "location" => check(key, want, json!(view.redirect.as_ref().map(|r| r.location.clone()))),
            "upstream_host" => check(key, want, json!(parts.upstream.as_ref().map(|u| u.host.clone()))),
            "upstream_path" => check(key, want, json!(parts.upstream.as_ref().map(|u| u.path.clone()))),
            "upstream_headers" => check(key, want, json!(parts.upstream.as_ref().map(|u| u.headers.clone()))),
            "response_header_modifiers" => {
                check(key, want, json!(parts.upstream.as_ref().map_or(0, |u| u.response_header_modifiers.len())))
            }
            "split" => check(
                key,
                want,
                json!(
                    view.split
                        .iter()
                        .flatten()
                        .map(|s| json!([s.label, s.weight, if s.invalid.is_some() { 500 } else { 200 }]))
                        .collect::<Vec<_>>()
                ),
            ),
            "lost_on" | "mismatch" => {
                for (candidate, want) in want.as_object().ok_or("lost_on/mismatch: not an object")? {
                    let (route, position) = candidate.split_once(' ').ok_or("candidate: `ns/name rule.match`")?;
                    let (rule, m) = position.split_once('.').ok_or("candidate: `ns/name rule.match`")?;
                    let found = explained
                        .routes
                        .iter()
                        .filter(|r| r.route == route)
                        .flat_map(|r| &r.candidates)
                        .find(|c| c.rule.to_string() == rule && c.match_index.to_string() == m)
                        .map(|c| serde_json::to_value(&c.outcome).unwrap());
                    let have = match (key.as_str(), found) {
                        ("lost_on", Some(o)) if o["outcome"] == "lostOn" => o["key"].clone(),
                        ("mismatch", Some(o)) if o["outcome"] == "mismatch" => o["mismatch"]["failed"].clone(),
                        (_, o) => json!(o),
                    };
                    check(&format!("{key} {candidate}"), want, have);
                }
            }
            "not_attached" => {
                for (route, want) in want.as_object().ok_or("not_attached: not an object")? {
                    let have = explained
                        .routes
                        .iter()
                        .find(|r| r.route == *route)
                        .and_then(|r| r.not_attached.as_ref())
                        .map(|n| serde_json::to_value(n).unwrap()["reason"].clone());
                    check(&format!("not_attached {route}"), want, json!(have));
                }
            }
            other => check(other, &json!("a known expectation"), json!("unknown")),
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(format!("{} (view: {got})", failures.join("; "))) }
}

#[test]
fn gateway_cases() {
    let cases = cases();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| run(case).err().map(|e| format!("{}: {e}", case["id"].as_str().unwrap_or("(no id)"))))
        .collect();
    eprintln!("{} gateway cases through the library", cases.len());
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
}

/// Every case cites its source and uses only expectations the harness checks.
#[test]
fn cases_are_well_formed() {
    for case in cases() {
        let id = case["id"].as_str().unwrap_or("(no id)");
        assert!(case["source"].as_str().is_some_and(|s| !s.is_empty()), "{id}: no source");
        for expect in ["expect", "expect_without_regex"].iter().filter_map(|k| case.get(*k)) {
            for key in expect.as_object().unwrap().keys() {
                assert!(KNOWN.contains(&key.as_str()), "{id}: unknown expectation {key}");
            }
        }
    }
}

/// Guards the harness itself: a wrong expectation fails the case.
#[test]
fn a_wrong_expectation_fails_the_case() {
    let mut case = cases().remove(0);
    case["expect"]["status"] = json!(599);
    assert!(run(&case).unwrap_err().contains("status: expected 599"));
}
