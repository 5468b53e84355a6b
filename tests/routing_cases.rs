//! Every case of `tests/cases/routing.json` (see `tests/cases/README.md`) through the library: the
//! case's `options`, `request` and `expect` are a tests file's, read by the core's own types.
//!
//! A missing or empty case file fails the test, and so does a case this harness cannot run.

use ingress_router::RequestSpec;
use ingress_router::compile;
use ingress_router::input;
use ingress_router::tests_file;
use serde_json::{Value, json};

fn cases() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/routing.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} holds no cases");
    cases
}

/// Runs one case; `Err` says why it failed (an option or request this build cannot read included).
fn run(case: &Value) -> Result<(), String> {
    // The case as a tests file of one test: the core reads its options, request and expectation.
    let mut file = json!({"tests": [{"request": case["request"], "expect": case["expect"]}]});
    if let Some(options) = case.get("options") {
        file["options"] = options.clone();
    }
    let file = tests_file::parse("case", &file.to_string()).map_err(|e| e.to_string())?;
    let input = input::parse("ingresses", &case["ingresses"].to_string()).map_err(|e| e.to_string())?;
    let router = compile(&input, &file.options).unwrap();
    let report = tests_file::run(&router, &file);
    if report.passed != 1 {
        return Err(serde_json::to_string(&report).unwrap_or_default());
    }
    // The explanation's decision is the same view.
    let request: RequestSpec = serde_json::from_value(case["request"].clone()).map_err(|e| format!("request: {e}"))?;
    let (decision, explained) =
        request.with(|r| (router.route(r).view(r), router.explain(r))).map_err(|e| e.to_string())?;
    if explained.decision != decision {
        return Err(format!("explain disagrees: {:?} != {decision:?}", explained.decision));
    }
    Ok(())
}

#[test]
fn routing_cases() {
    let cases = cases();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| run(case).err().map(|e| format!("{}: {e}", case["id"].as_str().unwrap_or("(no id)"))))
        .collect();
    eprintln!("{} routing cases through the library", cases.len());
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
}

/// Guards the harness itself: an option it cannot read fails the case instead of skipping it.
#[test]
fn an_unknown_option_fails_the_case() {
    let mut case = cases().remove(0);
    case["options"] = serde_json::json!({"mode": "something-new"});
    let error = run(&case).unwrap_err();
    assert!(error.contains("unknown field `mode`"), "{error}");
}
