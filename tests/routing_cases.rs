//! Every case of `tests/cases/routing.json` (see `tests/cases/README.md`) through the library.
//!
//! A missing or empty case file fails the test: it never passes by checking nothing.

use ingress_router::model::{Ingress, IngressClass, Object};
use ingress_router::{CompileOptions, Request, Via, compile};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/routing.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} holds no cases");
    cases
}

/// Compile options and proxy normalisation for a case; `None` for modes this build does not have.
fn options(case: &Value) -> Option<CompileOptions> {
    let mut compile = CompileOptions::default();
    let Some(opts) = case.get("options").and_then(Value::as_object) else {
        return Some(compile);
    };
    for (key, value) in opts {
        match key.as_str() {
            "ingress_class" => compile.ingress_class = Some(value.as_str()?.to_string()),
            "implementation_specific" => {
                compile.implementation_specific = value.as_str()?.parse().ok()?;
            }
            "normalize_path" => compile.normalize_path = value.as_bool()?,
            "merge_slashes" => compile.merge_slashes = value.as_bool()?,
            "escaped_slashes" => compile.escaped_slashes = value.as_str()?.parse().ok()?,
            _ => return None, // e.g. mode: ingress-nginx (a later profile)
        }
    }
    Some(compile)
}

#[test]
fn routing_cases() {
    let cases = cases();
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let Some(options) = options(case) else {
            skipped.push(id);
            continue;
        };
        let objects: Vec<Object> = case["ingresses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| match i["kind"].as_str() {
                Some("IngressClass") => {
                    Object::IngressClass(serde_json::from_value::<IngressClass>(i.clone()).unwrap())
                }
                _ => Object::Ingress(serde_json::from_value::<Ingress>(i.clone()).unwrap()),
            })
            .collect();
        let router = compile(&objects, &options);
        let host = case["request"]["host"].as_str().unwrap();
        let raw_path = case["request"]["path"].as_str().unwrap();
        let decision = router.route(&Request::new(host, raw_path));
        let expect = &case["expect"];
        let want = expect["backend"].as_str().unwrap();
        let got = decision.backend().map_or_else(|| String::from("404"), |b| b.to_string());
        let ok = match want {
            "404" => decision.via() == Via::None,
            "default" => {
                decision.via() == Via::DefaultBackend && Some(got.as_str()) == expect["default_service"].as_str()
            }
            _ => decision.via() == Via::Rule && got == want,
        };
        let matched_ok = match expect.get("matched") {
            None => true,
            Some(m) => {
                let view = decision.view();
                view.matched.is_some_and(|v| {
                    m["ingress"] == v.ingress.as_str()
                        && m["host"] == v.host.as_str()
                        && m["path"] == v.path.as_str()
                        && m["pathType"] == v.path_type.as_str()
                })
            }
        };
        // The explanation must agree with the fast path.
        let explained = router.explain(&Request::new(host, raw_path));
        let explain_ok = explained.decision == decision.view();
        if !(ok && matched_ok && explain_ok) {
            failures.push(format!("{id}: expected {expect}, got {:?} (explain agrees: {explain_ok})", decision.view()));
        }
    }
    eprintln!("{} cases, {} skipped (profile not built yet): {:?}", cases.len(), skipped.len(), skipped);
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
    assert!(cases.len() - skipped.len() >= cases.len() * 9 / 10, "too many cases skipped");
}
