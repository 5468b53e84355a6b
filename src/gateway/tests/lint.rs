//! `GatewayRouter::lint`: one test per diagnostic code of the Gateway API, each failing when that
//! diagnostic breaks, and a clean input that yields none. Inputs are YAML, read as every home reads
//! them (`input::parse`, then the Gateway API values and the Services).

use crate::gateway::{GatewayOptions, GatewayRouter, Objects, compile};
use crate::{Diagnostic, ObjectRef, Severity};
use serde_json::Value;

fn router_with(yaml: &str, options: &GatewayOptions) -> GatewayRouter {
    let input = crate::input::parse("lint.yaml", yaml).expect("the YAML is read");
    let values: Vec<Value> = input.gateway_api.iter().map(|v| v.value.clone()).collect();
    let mut objects = Objects::from_values(&values);
    assert!(objects.skipped.is_empty(), "{:?}", objects.skipped);
    // The Services are among the Ingress-side objects: read them as `Objects::from_input` does.
    objects.services = Objects::from_input(&[], &input.into_objects()).services;
    compile(&objects, options)
}

fn lint(yaml: &str) -> Vec<Diagnostic> {
    router_with(yaml, &GatewayOptions::default()).lint()
}

fn of_code<'a>(diagnostics: &'a [Diagnostic], code: &str) -> Vec<&'a Diagnostic> {
    diagnostics.iter().filter(|d| d.code.as_str() == code).collect()
}

const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: eg
  listeners:
  - name: http
    port: 80
    protocol: HTTP
    hostname: "*.example.com"
    allowedRoutes: {namespaces: {from: All}}
"#;

fn with_gateway(rest: &str) -> String {
    format!("{GATEWAY}---\n{rest}")
}

#[test]
fn clean_input_yields_no_diagnostics() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /cart}}]
    backendRefs: [{name: cart, port: 8080}]
  - matches: [{path: {type: PathPrefix, value: /pay}}]
    backendRefs: [{name: pay, namespace: payments, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: shop-to-pay, namespace: payments}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]
  to: [{group: "", kind: Service, name: pay}]
---
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec: {ports: [{port: 8080}]}
---
apiVersion: v1
kind: Service
metadata: {name: pay, namespace: payments}
spec: {ports: [{port: 80}]}
"#,
    );
    let diagnostics = lint(&yaml);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}

#[test]
fn route_not_attached_says_why() {
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: eg
  listeners:
  - {name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: elsewhere, namespace: apps}
spec:
  parentRefs: [{name: gw, namespace: infra}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: section, namespace: infra}
spec:
  parentRefs: [{name: gw, sectionName: https}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: host, namespace: infra}
spec:
  parentRefs: [{name: gw}]
  hostnames: [shop.example.org]
"#;
    let diagnostics = lint(yaml);
    let found = of_code(&diagnostics, "route-not-attached");
    assert_eq!(found.len(), 3, "{diagnostics:#?}");
    let by_route = |name: &str| {
        *found.iter().find(|d| d.objects[0].name == name).unwrap_or_else(|| panic!("{name}: {diagnostics:#?}"))
    };
    let elsewhere = by_route("elsewhere");
    assert_eq!(elsewhere.severity, Severity::Warning);
    assert!(elsewhere.message.contains("NotAllowedByListeners"), "{}", elsewhere.message);
    assert_eq!(elsewhere.objects[0], ObjectRef::http_route("apps", "elsewhere").with_field("spec.parentRefs[0]"));
    assert_eq!(elsewhere.objects[1], ObjectRef::gateway("infra", "gw"));
    assert!(!elsewhere.fix.is_empty());
    assert!(by_route("section").message.contains("NoMatchingParent"), "{}", by_route("section").message);
    assert!(by_route("host").message.contains("NoMatchingListenerHostname"), "{}", by_route("host").message);
    // A route that attaches nowhere is not also told about its hostnames.
    assert!(of_code(&diagnostics, "hostname-no-listener").is_empty(), "{diagnostics:#?}");
}

#[test]
fn route_parent_missing() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}, {name: other-gw, namespace: infra}]
"#,
    );
    let diagnostics = lint(&yaml);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d.code.as_str(), "route-parent-missing");
    assert_eq!(d.objects, [ObjectRef::http_route("shop", "shop").with_field("spec.parentRefs[1]")]);
    assert!(d.message.contains("infra/other-gw"), "{}", d.message);
}

#[test]
fn hostname_no_listener_names_the_hostnames_no_listener_serves() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [shop.example.com, shop.example.org, "*.example.com"]
"#,
    );
    let diagnostics = lint(&yaml);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d.code.as_str(), "hostname-no-listener");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.objects[0], ObjectRef::http_route("shop", "shop").with_field("spec.hostnames[1]"));
    assert!(d.message.contains("shop.example.org"), "{}", d.message);
    assert!(!d.message.contains("shop.example.com,"), "{}", d.message);
}

#[test]
fn backend_not_permitted_names_the_reference_grant_to_write() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs: [{name: cart, port: 80}]
  - matches: [{path: {value: /pay}}]
    backendRefs: [{name: cart, port: 80}, {name: pay, namespace: payments, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: other, namespace: payments}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: elsewhere}]
  to: [{group: "", kind: Service}]
"#,
    );
    let diagnostics = lint(&yaml);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d.code.as_str(), "backend-not-permitted");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.objects[0], ObjectRef::http_route("shop", "shop").with_field("spec.rules[1].backendRefs[1]"));
    for words in ["ReferenceGrant in namespace payments", "kind HTTPRoute namespace shop", "kind Service name pay"] {
        assert!(d.fix.contains(words), "{words:?} not in {}", d.fix);
    }
}

#[test]
fn backend_not_found_follows_the_routers_service_check() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs: [{name: cart, port: 80}, {name: missing, port: 80}, {name: cart, port: 9090}]
---
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec: {ports: [{port: 80}, {port: 8080}]}
"#,
    );
    let diagnostics = lint(&yaml);
    let found = of_code(&diagnostics, "backend-not-found");
    assert_eq!(found.len(), 2, "{diagnostics:#?}");
    assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");
    assert_eq!(found[0].objects[0].field.as_deref(), Some("spec.rules[0].backendRefs[1]"));
    assert!(found[0].message.contains("shop/missing"), "{}", found[0].message);
    assert_eq!(found[1].objects[0].field.as_deref(), Some("spec.rules[0].backendRefs[2]"));
    assert!(found[1].message.contains("port 9090") && found[1].message.contains("80, 8080"), "{}", found[1].message);
    assert_eq!(found[0].severity, Severity::Warning);

    // The router's own setting decides: not checked, not reported.
    let unchecked = GatewayOptions { check_services: Some(false), ..GatewayOptions::default() };
    assert!(router_with(&yaml, &unchecked).lint().is_empty());
    // No Service in the input: Services are not checked by default.
    let without_services = yaml.split("---\napiVersion: v1").next().unwrap();
    assert!(lint(without_services).is_empty(), "{:#?}", lint(without_services));
}

#[test]
fn listener_conflict_as_status_says() {
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: eg
  listeners:
  - {name: a, port: 80, protocol: HTTP, hostname: shop.example.com}
  - {name: b, port: 80, protocol: HTTP, hostname: shop.example.com}
  - {name: c, port: 80, protocol: HTTP, hostname: pay.example.com}
  - {name: d, port: 8443, protocol: HTTPS}
  - {name: e, port: 8443, protocol: HTTP}
"#;
    let diagnostics = lint(yaml);
    let found = of_code(&diagnostics, "listener-conflict");
    assert_eq!(diagnostics.len(), found.len());
    let fields: Vec<&str> = found.iter().map(|d| d.objects[0].field.as_deref().unwrap()).collect();
    assert_eq!(fields, ["spec.listeners[0]", "spec.listeners[1]", "spec.listeners[3]", "spec.listeners[4]"]);
    assert!(found.iter().all(|d| d.severity == Severity::Error && d.objects[0].kind == "Gateway"));
    assert!(found[0].message.contains("HostnameConflict"), "{}", found[0].message);
    assert!(found[2].message.contains("ProtocolConflict"), "{}", found[2].message);
}

#[test]
fn rule_shadowed_by_an_identical_match_names_the_winner() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: old, namespace: shop, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /cart}, method: GET}]
    backendRefs: [{name: cart-v1, port: 80}]
  - matches: [{path: {type: Exact, value: /a}}]
    backendRefs: [{name: a, port: 80}]
  - matches: [{path: {type: Exact, value: /a}}]
    backendRefs: [{name: a2, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: new, namespace: shop, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [shop.example.com]
  rules:
  - matches:
    - {path: {type: PathPrefix, value: /cart}, method: GET}
    - {path: {type: PathPrefix, value: /cart}, method: POST}
    backendRefs: [{name: cart-v2, port: 80}]
"#,
    );
    let diagnostics = lint(&yaml);
    let found = of_code(&diagnostics, "rule-shadowed");
    assert_eq!(found.len(), 2, "{diagnostics:#?}");
    assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");
    // Ordered by object: shop/new before shop/old.
    let newer = found[0];
    assert_eq!(newer.objects[0], ObjectRef::http_route("shop", "new").with_field("spec.rules[0].matches[0]"));
    assert_eq!(newer.objects[1], ObjectRef::http_route("shop", "old").with_field("spec.rules[0].matches[0]"));
    assert!(newer.message.contains("older route"), "{}", newer.message);
    assert!(newer.message.contains("shop.example.com"), "{}", newer.message);
    let rule = found[1];
    assert_eq!(rule.objects[0], ObjectRef::http_route("shop", "old").with_field("spec.rules[2].matches[0]"));
    assert_eq!(rule.objects[1].field.as_deref(), Some("spec.rules[1].matches[0]"));
    assert!(rule.message.contains("earlier rule"), "{}", rule.message);
}

#[test]
fn diagnostics_are_ordered_and_stable() {
    let yaml = with_gateway(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b, namespace: shop}
spec:
  parentRefs: [{name: missing}, {name: gw, namespace: infra}]
  hostnames: [b.example.com, b.example.org]
  rules:
  - backendRefs: [{name: pay, namespace: payments, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra, port: 8080}]
"#,
    );
    let first = lint(&yaml);
    for _ in 0..5 {
        assert_eq!(lint(&yaml), first);
    }
    let listed: Vec<(String, &str)> = first.iter().map(|d| (d.objects[0].to_string(), d.code.as_str())).collect();
    assert_eq!(
        listed,
        [
            ("HTTPRoute shop/a (spec.parentRefs[0])".to_string(), "route-not-attached"),
            ("HTTPRoute shop/b (spec.hostnames[1])".to_string(), "hostname-no-listener"),
            ("HTTPRoute shop/b (spec.parentRefs[0])".to_string(), "route-parent-missing"),
            ("HTTPRoute shop/b (spec.rules[0].backendRefs[0])".to_string(), "backend-not-permitted"),
        ]
    );
}
