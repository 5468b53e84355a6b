//! `Decision::answer` and `Router::answer`: every answer of a table has its own number, and the
//! number a request gets leads back to the same decision (adapters render per-answer data once,
//! a proxy's cluster name, and find it by this number per request).

use std::collections::HashSet;

use ingress_router::input::{self, Input};
use ingress_router::{CompileOptions, Request, Via, compile};
use serde_json::Value;

fn objects(case: &Value) -> Input {
    input::parse("ingresses", &case["ingresses"].to_string()).unwrap()
}

#[test]
fn every_decision_leads_back_through_its_answer() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/routing.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(!cases.is_empty(), "{path} holds no cases");
    let mut answered = 0;
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let router = compile(&objects(case), &CompileOptions::default()).unwrap();
        let request = &case["request"];
        let decision =
            router.route(&Request::new(request["host"].as_str().unwrap(), request["path"].as_str().unwrap()));
        match decision.via() {
            Via::Rule | Via::DefaultBackend => {
                let answer = decision.answer().unwrap_or_else(|| panic!("{id}: a backend without an answer"));
                assert!(answer < router.answer_count(), "{id}");
                assert_eq!(router.answer(answer), Some(decision), "{id}");
                answered += 1;
            }
            _ => assert_eq!(decision.answer(), None, "{id}"),
        }
        // The table view names the same numbers; each one once.
        let table = router.table();
        let numbers: Vec<usize> = table
            .hosts
            .iter()
            .flat_map(|h| h.paths.iter().map(|p| p.answer))
            .chain(table.hosts.iter().filter_map(|h| h.default_backend.as_ref().map(|d| d.answer)))
            .chain(table.default_backend.as_ref().map(|d| d.answer))
            .map(|n| n.unwrap_or_else(|| panic!("{id}: the spec table numbers every answer")))
            .collect();
        for &n in &numbers {
            let decided =
                router.answer(n).unwrap_or_else(|| panic!("{id}: table names answer {n}, the router has none"));
            assert!(decided.backend().is_some(), "{id}: answer {n}");
        }
        let paths: Vec<Option<usize>> = table.hosts.iter().flat_map(|h| h.paths.iter().map(|p| p.answer)).collect();
        assert_eq!(paths.len(), paths.iter().collect::<HashSet<_>>().len(), "{id}: a path numbered twice");
        assert_eq!(router.answer(router.answer_count()), None, "{id}");
    }
    assert!(answered > 100, "only {answered} cases answered by a backend");
}
