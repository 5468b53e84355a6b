//! `Decision::answer_index`: bindings convert each of a router's fixed answers once and reuse it,
//! so equal indexes must mean equal decisions, and different decisions different indexes.

use ingress_router::{CompileOptions, EscapedSlashes, Request, compile, input};

const MANIFESTS: &str = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: a, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  defaultBackend: {service: {name: fallback-a, port: {number: 80}}}
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: root, port: {number: 80}}}}
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart, port: {number: 80}}}}
      - {path: /cart, pathType: Exact, backend: {service: {name: cart, port: {number: 80}}}}
  - host: "*.example.com"
    http:
      paths:
      - {path: /api, pathType: Prefix, backend: {service: {name: api, port: {name: http}}}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: other, namespace: b, creationTimestamp: "2024-02-01T00:00:00Z"}
spec:
  defaultBackend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: static}}
  rules:
  - host: other.example.org
    http:
      paths:
      - {path: /files, pathType: Prefix, backend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: files}}}
"#;

#[test]
fn equal_indexes_are_equal_decisions_and_different_decisions_different_indexes() {
    let objects = input::parse("answer.yaml", MANIFESTS).unwrap().into_objects();
    let options = CompileOptions::default().with_escaped_slashes(EscapedSlashes::RejectRequest);
    let router = compile(&objects, &options);
    let hosts = ["shop.example.com", "x.example.com", "other.example.org", "none.test", "SHOP.example.com:80"];
    let paths = ["/", "/cart", "/cart/", "/cart/x", "/api", "/api/v1", "/files/a", "/nothing", "/cart%2Fx"];
    let mut seen: Vec<(usize, ingress_router::DecisionView)> = Vec::new();
    let mut rejected = 0;
    for host in hosts {
        for path in paths {
            let decision = router.route(&Request::new(host, path));
            let Some(index) = decision.answer_index() else {
                assert!(decision.rejection().is_some(), "{host}{path}: only request-dependent answers lack an index");
                rejected += 1;
                continue;
            };
            assert!(index < router.answer_count(), "{host}{path}: index {index} out of range");
            let view = decision.view();
            for (other, other_view) in &seen {
                assert_eq!(index == *other, view == *other_view, "{host}{path}: index {index} vs {other}");
            }
            seen.push((index, view));
        }
    }
    assert!(rejected > 0, "the escaped slash is refused");
    let mut distinct: Vec<usize> = seen.iter().map(|(i, _)| *i).collect();
    distinct.sort();
    distinct.dedup();
    // root, cart (Prefix), cart (Exact), api, files, and the two defaultBackends (no 404: a
    // host without a rule gets the oldest defaultBackend).
    assert_eq!(distinct.len(), 7, "{seen:#?}");
    let empty = compile(&[], &CompileOptions::default());
    let none = empty.route(&Request::new("a.test", "/"));
    assert_eq!((none.answer_index(), empty.answer_count()), (Some(0), 1), "404 is answer 0");
}
