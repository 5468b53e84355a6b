//! GRPCRoute through the one entry point (`crate::compile`, `Router::route`, `explain`, status):
//! the conformance suite's GRPCRoute cases at v1.6.1 (`grpcroute-*.yaml`), its precedence, the
//! listener's route kinds, and an HTTPRoute and a GRPCRoute sharing a hostname.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Value, json};

use crate::gateway::status::{GatewayStatusReport, StatusOptions, gateway_status};
use crate::{CompileOptions, Request, Router};

const ECHO: &str = "gateway_api_conformance.echo_basic.grpcecho.GrpcEcho";

fn gateway(listener: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
           "metadata": {"name": "gw", "namespace": "infra"},
           "spec": {"gatewayClassName": "eg", "listeners": [listener]}})
}

fn listener() -> Value {
    json!({"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}})
}

fn grpc_route(name: &str, spec: Value) -> Value {
    route("GRPCRoute", name, spec)
}

fn route(kind: &str, name: &str, mut spec: Value) -> Value {
    spec["parentRefs"] = json!([{"name": "gw", "namespace": "infra"}]);
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": kind,
           "metadata": {"name": name, "namespace": "apps"}, "spec": spec})
}

fn compile(values: &[Value]) -> Router {
    let input = crate::input::parse("grpc.json", &Value::Array(values.to_vec()).to_string()).unwrap();
    crate::compile(&input, &CompileOptions::default()).unwrap()
}

/// A gRPC call of `service`/`method` with `metadata`: the backend's label (or the status), and
/// the gRPC status the client reads.
fn call(router: &Router, host: &str, method: &str, metadata: &[(&str, &str)]) -> (String, Option<u8>) {
    let mut headers: Vec<(&str, &str)> = alloc::vec![("content-type", "application/grpc")];
    headers.extend_from_slice(metadata);
    let request = Request::new(host, method).with_method("POST").with_headers(&headers);
    assert!(request.is_grpc());
    let view = router.route(&request).view(&request);
    // The name beside the code, as the specification writes it (the codes a proxy answers with).
    let name = view.grpc_status.map(|code| match code {
        2 => "UNKNOWN",
        12 => "UNIMPLEMENTED",
        14 => "UNAVAILABLE",
        other => panic!("gRPC status {other}: not one the proxy answers with"),
    });
    assert_eq!(view.grpc_status_name, name);
    (view.label, view.grpc_status)
}

fn echo(method: &str) -> String {
    alloc::format!("/{ECHO}/{method}")
}

fn ok(backend: &str) -> (String, Option<u8>) {
    (backend.to_string(), None)
}

fn unimplemented() -> (String, Option<u8>) {
    ("404".to_string(), Some(12))
}

#[test]
fn exact_method_matching() {
    // grpcroute-exact-method-matching.yaml
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "exact-matching",
            json!({"rules": [
                {"matches": [{"method": {"service": ECHO, "method": "Echo"}}],
                 "backendRefs": [{"name": "grpc-infra-backend-v1", "port": 8080}]},
                {"matches": [{"method": {"service": ECHO, "method": "EchoTwo"}}],
                 "backendRefs": [{"name": "grpc-infra-backend-v2", "port": 8080}]}]}),
        ),
    ]);
    assert_eq!(call(&router, "gw", &echo("Echo"), &[]), ok("apps/grpc-infra-backend-v1:8080"));
    assert_eq!(call(&router, "gw", &echo("EchoTwo"), &[]), ok("apps/grpc-infra-backend-v2:8080"));
    assert_eq!(call(&router, "gw", &echo("EchoThree"), &[]), unimplemented());
    // Exact is case-sensitive, and the service is a whole path element.
    assert_eq!(call(&router, "gw", &echo("echo"), &[]), unimplemented());
    assert_eq!(call(&router, "gw", "/gateway_api_conformance.echo_basic.grpcecho/GrpcEcho/Echo", &[]), unimplemented());
}

#[test]
fn header_matching() {
    // grpcroute-header-matching.yaml: no method match matches every call; the most headers win,
    // then the first rule.
    let rule =
        |headers: Value, backend: &str| json!({"matches": headers, "backendRefs": [{"name": backend, "port": 8080}]});
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "grpc-header-matching",
            json!({"rules": [
                rule(json!([{"headers": [{"name": "version", "value": "one"}]}]), "v1"),
                rule(json!([{"headers": [{"name": "version", "value": "two"}]}]), "v2"),
                rule(json!([{"headers": [{"name": "version", "value": "two"}, {"name": "color", "value": "orange"}]}]), "v1"),
                rule(json!([{"headers": [{"name": "color", "value": "blue"}]}, {"headers": [{"name": "color", "value": "green"}]}]), "v1"),
                rule(json!([{"headers": [{"name": "color", "value": "red"}]}, {"headers": [{"name": "color", "value": "yellow"}]}]), "v2"),
            ]}),
        ),
    ]);
    let expect = [
        (&[("Version", "one")][..], ok("apps/v1:8080")),
        (&[("Version", "two")], ok("apps/v2:8080")),
        (&[("Version", "two"), ("Color", "orange")], ok("apps/v1:8080")),
        (&[("Version", "two"), ("Color", "blue")], ok("apps/v2:8080")),
        (&[("Color", "orange")], unimplemented()),
        (&[("Some-Other-Header", "one")], unimplemented()),
        (&[("Color", "blue")], ok("apps/v1:8080")),
        (&[("Color", "green")], ok("apps/v1:8080")),
        (&[("Color", "red")], ok("apps/v2:8080")),
        (&[("Color", "yellow")], ok("apps/v2:8080")),
    ];
    for (metadata, want) in expect {
        assert_eq!(call(&router, "gw", &echo("Echo"), metadata), want, "{metadata:?}");
    }
}

#[test]
fn precedence_is_service_then_method_then_headers() {
    let rule = |m: Value, backend: &str| json!({"matches": [m], "backendRefs": [{"name": backend, "port": 8080}]});
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "r",
            json!({"rules": [
                rule(json!({"method": {"method": "Get"}}), "method-only"),
                rule(json!({"method": {"service": "pkg.Svc"}}), "service-only"),
                rule(json!({"method": {"service": "pkg.Svc", "method": "Get"}}), "both"),
                rule(json!({"method": {"service": "pkg.Svc"}, "headers": [{"name": "x", "value": "1"}]}), "service-header"),
                rule(json!({"method": {"type": "RegularExpression", "service": "pkg\\..*", "method": "G.t"}}), "regex"),
            ]}),
        ),
    ]);
    // Service and method characters decide before headers: `pkg.Svc`/`Get` (7, 3) beats the
    // service alone with a header (7, 0), and ties with the regex (`pkg\..*`, `G.t`: 7 and 3
    // characters as written), which comes later in the route.
    assert_eq!(call(&router, "gw", "/pkg.Svc/Get", &[("x", "1")]), ok("apps/both:8080"));
    assert_eq!(call(&router, "gw", "/pkg.Svc/Put", &[("x", "1")]), ok("apps/service-header:8080"));
    assert_eq!(call(&router, "gw", "/pkg.Svc/Put", &[]), ok("apps/service-only:8080"));
    // The regex's service beats no service at all (a build without a regex engine matches no
    // `RegularExpression`: the method alone answers).
    let regex_winner = if crate::gateway::regex::REGEX_SUPPORTED { "apps/regex:8080" } else { "apps/method-only:8080" };
    assert_eq!(call(&router, "gw", "/pkg.Other/Get", &[]), ok(regex_winner));
    assert_eq!(call(&router, "gw", "/other.Svc/Get", &[]), ok("apps/method-only:8080"));
    assert_eq!(call(&router, "gw", "/other.Svc/Put", &[]), unimplemented());
    // Explain says what the winner has in GRPCRoute's words.
    let request = Request::new("gw", "/pkg.Svc/Get").with_method("POST");
    let explanation = router.explain(&request).gateway.unwrap();
    let reasons: Vec<&str> = explanation.routes[0].candidates.iter().map(|c| c.reason.as_str()).collect();
    assert_eq!(explanation.routes[0].kind, "GRPCRoute");
    assert!(reasons[1].contains("a longer method"), "{reasons:?}");
    assert!(reasons[0].contains("a longer service"), "{reasons:?}");
    assert_eq!(reasons[2], "matches, and wins");
    match crate::gateway::regex::REGEX_SUPPORTED {
        true => assert!(reasons[4].contains("an earlier rule"), "{reasons:?}"),
        false => assert!(reasons[4].starts_with("does not match: wants method: RegularExpression"), "{reasons:?}"),
    }
}

#[test]
fn a_rule_without_matches_matches_every_call_and_a_route_without_rules_none() {
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "all",
            json!({"hostnames": ["all.example.com"], "rules": [{"backendRefs": [{"name": "any", "port": 8080}]}]}),
        ),
        grpc_route("none", json!({"hostnames": ["none.example.com"]})),
    ]);
    assert_eq!(call(&router, "all.example.com", "/a.B/C", &[]), ok("apps/any:8080"));
    assert_eq!(call(&router, "none.example.com", "/a.B/C", &[]), unimplemented());
}

/// Regression: a GRPCRoute match without `method` (a rule without matches, or headers only) was
/// ranked as an HTTPRoute `PathPrefix /` match, which sorted it before every method match: a
/// catch-all rule took the calls a service match names.
#[test]
fn matches_without_a_method_rank_by_grpcroute_rules() {
    let rule = |m: Option<Value>, backend: &str| {
        let mut rule = json!({"backendRefs": [{"name": backend, "port": 8080}]});
        if let Some(m) = m {
            rule["matches"] = json!([m]);
        }
        rule
    };
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "r",
            json!({"rules": [
                rule(None, "every-call"),
                rule(Some(json!({"headers": [{"name": "x", "value": "1"}]})), "header-only"),
                rule(Some(json!({"method": {"service": "pkg.Svc"}})), "service"),
            ]}),
        ),
    ]);
    // Service characters rank before header matches; a header match before none.
    assert_eq!(call(&router, "gw", "/pkg.Svc/Get", &[("x", "1")]), ok("apps/service:8080"));
    assert_eq!(call(&router, "gw", "/other.Svc/Get", &[("x", "1")]), ok("apps/header-only:8080"));
    assert_eq!(call(&router, "gw", "/other.Svc/Get", &[]), ok("apps/every-call:8080"));
}

#[test]
fn weights_split_and_invalid_backends_are_unavailable() {
    // grpcroute-weight.yaml: 70/30/0.
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "weighted",
            json!({"rules": [{"backendRefs": [
                {"name": "grpc-infra-backend-v1", "port": 8080, "weight": 70},
                {"name": "grpc-infra-backend-v2", "port": 8080, "weight": 30},
                {"name": "grpc-infra-backend-v3", "port": 8080, "weight": 0}]}]}),
        ),
        grpc_route(
            "broken",
            json!({"hostnames": ["broken.example.com"], "rules": [{"backendRefs": [{"group": "x.io", "kind": "Thing", "name": "t"}]}]}),
        ),
    ]);
    let path = echo("Echo");
    let request = Request::new("gw", &path).with_method("POST");
    let view = router.route(&request).view(&request);
    let split: Vec<(String, u32)> = view.split.unwrap().into_iter().map(|w| (w.label, w.weight)).collect();
    assert_eq!(
        split,
        [
            ("apps/grpc-infra-backend-v1:8080".to_string(), 70),
            ("apps/grpc-infra-backend-v2:8080".to_string(), 30),
            ("apps/grpc-infra-backend-v3:8080".to_string(), 0)
        ]
    );
    // No valid backend: UNAVAILABLE, as GRPCRouteRule.BackendRefs says.
    assert_eq!(call(&router, "broken.example.com", "/a.B/C", &[]), ("500".to_string(), Some(14)));
}

#[test]
fn filters_modify_the_request_headers() {
    let router = compile(&[
        gateway(listener()),
        grpc_route(
            "modify",
            json!({"rules": [{"filters": [{"type": "RequestHeaderModifier",
                                           "requestHeaderModifier": {"set": [{"name": "x-set", "value": "s"}], "remove": ["x-drop"]}}],
                              "backendRefs": [{"name": "v1", "port": 8080}]}]}),
        ),
    ]);
    let headers = [("content-type", "application/grpc"), ("x-drop", "1")];
    let request = Request::new("gw", "/a.B/C").with_method("POST").with_headers(&headers);
    let json = serde_json::to_value(router.route(&request).view(&request)).unwrap();
    assert_eq!(json["routeKind"], "GRPCRoute");
    let upstream = json["upstream"]["headers"].as_array().unwrap();
    assert!(upstream.iter().any(|h| h[0] == "x-set" && h[1] == "s"), "{upstream:?}");
    assert!(!upstream.iter().any(|h| h[0] == "x-drop"), "{upstream:?}");
}

#[test]
fn a_listener_that_allows_only_httproutes_refuses_a_grpcroute() {
    let only_http = json!({"name": "http", "port": 80, "protocol": "HTTP",
                           "allowedRoutes": {"namespaces": {"from": "All"}, "kinds": [{"kind": "HTTPRoute"}]}});
    let values =
        [gateway(only_http), grpc_route("r", json!({"rules": [{"backendRefs": [{"name": "v1", "port": 8080}]}]}))];
    let router = compile(&values);
    assert_eq!(call(&router, "gw", "/a.B/C", &[]), unimplemented());
    let report = status(&values);
    let route = object(&report, "GRPCRoute", "r");
    assert_eq!(route["parents"][0]["conditions"][0]["reason"], "NotAllowedByListeners");
    let gw = object(&report, "Gateway", "gw");
    assert_eq!(
        gw["listeners"][0]["supportedKinds"],
        json!([{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"}])
    );
    assert_eq!(gw["listeners"][0]["attachedRoutes"], 0);
}

#[test]
fn status_counts_grpcroutes_and_lists_both_kinds() {
    let values = [
        gateway(listener()),
        grpc_route("g", json!({"rules": [{"backendRefs": [{"name": "v1", "port": 8080}]}]})),
        route("HTTPRoute", "h", json!({"hostnames": ["web.example.com"]})),
    ];
    let report = status(&values);
    let gw = object(&report, "Gateway", "gw");
    assert_eq!(
        gw["listeners"][0]["supportedKinds"],
        json!([{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"},
               {"group": "gateway.networking.k8s.io", "kind": "GRPCRoute"}])
    );
    let route = object(&report, "GRPCRoute", "g");
    assert_eq!(route["parents"][0]["conditions"][0]["status"], "True");
    // The GRPCRoute has no hostnames: every hostname, which the HTTPRoute's shares, and the
    // GRPCRoute is the one accepted (both are as old: `apps/g` comes first by name).
    assert_eq!(gw["listeners"][0]["attachedRoutes"], 1);
    let http = object(&report, "HTTPRoute", "h");
    assert_eq!(http["parents"][0]["conditions"][0]["reason"], "Conflicted");
}

#[test]
fn an_httproute_and_a_grpcroute_sharing_a_hostname_the_older_is_accepted() {
    let aged = |mut v: Value, ts: &str| {
        v["metadata"]["creationTimestamp"] = json!(ts);
        v
    };
    let values = [
        gateway(listener()),
        aged(
            route(
                "HTTPRoute",
                "web",
                json!({"hostnames": ["*.example.com"],
                                              "rules": [{"backendRefs": [{"name": "web", "port": 80}]}]}),
            ),
            "2026-01-01T00:00:00Z",
        ),
        aged(
            grpc_route(
                "api",
                json!({"hostnames": ["api.example.com"],
                                       "rules": [{"backendRefs": [{"name": "api", "port": 8080}]}]}),
            ),
            "2026-02-01T00:00:00Z",
        ),
        aged(
            grpc_route(
                "other",
                json!({"hostnames": ["other.test"],
                                         "rules": [{"backendRefs": [{"name": "other", "port": 8080}]}]}),
            ),
            "2026-02-01T00:00:00Z",
        ),
    ];
    let router = compile(&values);
    // The GRPCRoute is newer: refused, and its host goes to the HTTPRoute.
    let request = Request::new("api.example.com", "/pkg.Svc/Get").with_method("POST");
    assert_eq!(router.route(&request).to_string(), "apps/web:80");
    // A GRPCRoute whose hostnames the HTTPRoute does not share is accepted.
    assert_eq!(call(&router, "other.test", "/a.B/C", &[]), ok("apps/other:8080"));
    let report = status(&values);
    let refused = object(&report, "GRPCRoute", "api");
    let condition = &refused["parents"][0]["conditions"][0];
    assert_eq!((&condition["status"], &condition["reason"]), (&json!("False"), &json!("Conflicted")));
    assert!(condition["message"].as_str().unwrap().contains("HTTPRoute apps/web"), "{condition}");
    assert_eq!(object(&report, "Gateway", "gw")["listeners"][0]["attachedRoutes"], 2);
}

#[test]
fn a_reference_grant_names_the_route_kind() {
    let grant = |kind: &str| {
        json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
               "metadata": {"name": "g", "namespace": "backends"},
               "spec": {"from": [{"group": "gateway.networking.k8s.io", "kind": kind, "namespace": "apps"}],
                        "to": [{"group": "", "kind": "Service"}]}})
    };
    let route =
        grpc_route("r", json!({"rules": [{"backendRefs": [{"name": "svc", "namespace": "backends", "port": 8080}]}]}));
    let for_http = compile(&[gateway(listener()), route.clone(), grant("HTTPRoute")]);
    assert_eq!(call(&for_http, "gw", "/a.B/C", &[]), ("500".to_string(), Some(14)));
    let for_grpc = compile(&[gateway(listener()), route, grant("GRPCRoute")]);
    assert_eq!(call(&for_grpc, "gw", "/a.B/C", &[]), ok("backends/svc:8080"));
}

#[test]
fn only_grpc_calls_get_a_grpc_status() {
    let router = compile(&[
        gateway(listener()),
        grpc_route("r", json!({"rules": [{"matches": [{"method": {"service": "a.B"}}]}]})),
    ]);
    let plain = Request::new("gw", "/x");
    assert_eq!(router.route(&plain).view(&plain).grpc_status, None);
    let web = [("content-type", "application/grpc-web+proto")];
    let grpc_web = Request::new("gw", "/x").with_method("POST").with_headers(&web);
    assert_eq!(router.route(&grpc_web).view(&grpc_web).grpc_status, None);
    let with_params = [("Content-Type", "application/grpc;charset=utf-8")];
    let call = Request::new("gw", "/x").with_method("POST").with_headers(&with_params);
    assert_eq!(router.route(&call).view(&call).grpc_status, Some(12));
    // Serialised beside the code; absent with it.
    let json = serde_json::to_value(router.route(&call).view(&call)).unwrap();
    assert_eq!((&json["grpcStatus"], &json["grpcStatusName"]), (&json!(12), &json!("UNIMPLEMENTED")));
    let json = serde_json::to_value(router.route(&plain).view(&plain)).unwrap();
    assert!(json.get("grpcStatus").is_none() && json.get("grpcStatusName").is_none(), "{json}");
}

fn status(values: &[Value]) -> GatewayStatusReport {
    gateway_status(
        values,
        &StatusOptions { transition_time: "2026-01-02T03:04:05Z".into(), ..StatusOptions::default() },
    )
}

fn object(report: &GatewayStatusReport, kind: &str, name: &str) -> Value {
    let found = report.objects.iter().find(|o| o.kind == kind && o.name == name);
    serde_json::to_value(&found.unwrap_or_else(|| panic!("no {kind} {name}")).status).unwrap()
}

/// The apiserver's answer for a GRPCRoute (`grpcroutes.gateway.networking.k8s.io` v1.6.1,
/// standard channel): each error as `field.Error.Error()` writes it.
fn errors(spec: Value) -> Vec<String> {
    let object = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GRPCRoute",
                        "metadata": {"name": "r", "namespace": "apps"}, "spec": spec});
    let verdict = crate::gateway::validation::validate(&object).expect("GRPCRoute v1 is validated");
    verdict.errors.iter().map(ToString::to_string).collect()
}

fn one_match(m: Value) -> Vec<String> {
    errors(json!({"rules": [{"matches": [m], "backendRefs": [{"name": "s", "port": 80}]}]}))
}

#[test]
fn validation_of_method_matches() {
    // GRPCMethodMatch's three x-kubernetes-validations rules.
    assert_eq!(
        one_match(json!({"method": {"type": "Exact"}})),
        ["spec.rules[0].matches[0].method: Invalid value: One or both of 'service' or 'method' must be specified"]
    );
    assert_eq!(
        one_match(json!({"method": {"service": "pkg/Svc", "method": "Get"}})),
        ["spec.rules[0].matches[0].method: Invalid value: service must only contain valid characters (matching \
          ^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$)"]
    );
    assert_eq!(
        one_match(json!({"method": {"method": "Get.All"}})),
        ["spec.rules[0].matches[0].method: Invalid value: method must only contain valid characters (matching \
          ^[A-Za-z_][A-Za-z_0-9]*$)"]
    );
    // Valid: a leading dot, upper case, underscores, digits; a regex is not checked for characters.
    for m in [
        json!({"method": {"service": ".Pkg_1.v2.Svc", "method": "Get_2"}}),
        json!({"method": {"type": "RegularExpression", "service": "pkg/.*"}}),
        json!({"headers": [{"name": "version", "value": "2"}]}),
    ] {
        assert_eq!(one_match(m.clone()), Vec::<String>::new(), "{m}");
    }
    // A service longer than the schema's 1024 characters.
    let long = "a".repeat(1025);
    assert_eq!(
        one_match(json!({"method": {"service": long}})),
        [
            "spec.rules[0].matches[0].method.service: Too long: may not be more than 1024 bytes",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; \
             correct the existing errors to complete validation"
        ]
    );
}

#[test]
fn validation_of_filters_and_counts() {
    // HTTPRoute's redirect is not a GRPCRoute filter (the enum), and a header modifier is once.
    let filters = |f: Value| errors(json!({"rules": [{"filters": f}]}));
    let unsupported = filters(json!([{"type": "URLRewrite"}]));
    assert!(
        unsupported[0].starts_with(
            "spec.rules[0].filters[0].type: Unsupported value: \"URLRewrite\": supported values: \
             \"ResponseHeaderModifier\", \"RequestHeaderModifier\", \"RequestMirror\", \"ExtensionRef\""
        ),
        "{unsupported:?}"
    );
    let modifier =
        json!({"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "a", "value": "b"}]}});
    assert_eq!(
        filters(json!([modifier.clone(), modifier])),
        ["spec.rules[0].filters: Invalid value: RequestHeaderModifier filter cannot be repeated"]
    );
    assert_eq!(
        filters(json!([{"type": "RequestMirror"}])),
        [
            "spec.rules[0].filters[0]: Invalid value: filter.requestMirror must be specified for RequestMirror filter.type"
        ]
    );
    // 16 rules of 64 matches pass the schema; more than 128 in all do not.
    let rule = json!({"matches": vec![json!({"method": {"service": "a.B"}}); 64]});
    let too_many = errors(json!({"rules": [rule.clone(), rule.clone(), rule.clone()]}));
    assert_eq!(too_many.len(), 1, "{too_many:?}");
    assert!(
        too_many[0].starts_with("spec.rules: Invalid value: While 16 rules and 64 matches per rule"),
        "{too_many:?}"
    );
    // A refused GRPCRoute never routes.
    let bad = grpc_route(
        "bad",
        json!({"rules": [{"matches": [{"method": {"type": "Exact"}}],
                                                    "backendRefs": [{"name": "v1", "port": 8080}]}]}),
    );
    assert_eq!(call(&compile(&[gateway(listener()), bad]), "gw", "/a.B/C", &[]), unimplemented());
}

/// The table decides the kinds' conflicts per listener (`attach::attach_all`), status and lint
/// once for every listener (`attach::KindConflicts`), both by a linear sweep: both say what the
/// specification's rule, applied route by route, says, over every mix of precise, wildcard and no
/// hostnames, ages and listener hostnames written here.
#[test]
fn conflicts_decided_at_once_are_those_decided_one_by_one() {
    use crate::gateway::attach::{KindConflicts, NotAttached, attach, attach_all, key_of};
    use crate::gateway::{Objects, hostname};
    // The rule, route by route: the oldest route of the other kind (creationTimestamp, none the
    // newest, then namespace/name) attached with a hostname in common keeps a route off.
    fn one_by_one(objects: &Objects) -> Vec<Result<Vec<String>, NotAttached>> {
        let mut alone_objects = objects.clone();
        alone_objects.mixed_route_kinds = false;
        let gw = &objects.gateways[0];
        let alone = attach_all(&alone_objects, gw, &gw.spec.listeners[0]);
        let age = |r: usize| {
            let m = &objects.routes[r].metadata;
            (m.creation_timestamp.is_none(), m.creation_timestamp.clone(), m.namespace.clone(), m.name.clone())
        };
        (0..alone.len())
            .map(|r| {
                let Ok(ours) = &alone[r] else { return alone[r].clone() };
                let older = (0..alone.len())
                    .filter(|&o| objects.routes[o].kind != objects.routes[r].kind && age(o) < age(r))
                    .filter(|&o| {
                        alone[o].as_ref().is_ok_and(|theirs| {
                            theirs.iter().any(|t| ours.iter().any(|h| hostname::intersect(Some(t), h).is_some()))
                        })
                    })
                    .min_by_key(|&o| age(o));
                match older {
                    Some(o) => {
                        let m = &objects.routes[o].metadata;
                        let route =
                            alloc::format!("{} {}", objects.routes[o].kind.as_str(), key_of(&m.namespace, &m.name));
                        Err(NotAttached::KindConflict { route })
                    }
                    None => Ok(ours.clone()),
                }
            })
            .collect()
    }
    let hostnames: [&[&str]; 7] = [
        &[],
        &["a.example.com"],
        &["*.example.com"],
        &["b.a.example.com"],
        &["*.a.example.com", "other.test"],
        &["other.test"],
        &["*.test"],
    ];
    let listener_hostnames = [None, Some("*.example.com"), Some("a.example.com")];
    let (mut checked, mut attached, mut kept_off) = (0, 0, 0);
    for (n, kinds) in
        [["HTTPRoute", "GRPCRoute", "HTTPRoute"], ["GRPCRoute", "HTTPRoute", "GRPCRoute"]].iter().enumerate()
    {
        for listener_hostname in listener_hostnames {
            for a in 0..hostnames.len() {
                for b in 0..hostnames.len() {
                    for c in [0, 3, 6] {
                        let mut l = listener();
                        if let Some(h) = listener_hostname {
                            l["hostname"] = json!(h);
                        }
                        let mut values = alloc::vec![gateway(l)];
                        for (i, (kind, h)) in kinds.iter().zip([a, b, c]).enumerate() {
                            let mut r = route(kind, &alloc::format!("r{i}"), json!({"hostnames": hostnames[h]}));
                            // r1 is the oldest, then r0, then r2 (no timestamp: the newest).
                            if i < 2 {
                                r["metadata"]["creationTimestamp"] =
                                    json!(["2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z"][i]);
                            }
                            values.push(r);
                        }
                        let objects = Objects::from_values(&values);
                        let gw = &objects.gateways[0];
                        let listener = &gw.spec.listeners[0];
                        let expected = one_by_one(&objects);
                        assert_eq!(
                            attach_all(&objects, gw, listener),
                            expected,
                            "{n} {listener_hostname:?} {a} {b} {c}"
                        );
                        let conflicts = KindConflicts::new(&objects);
                        let each: Vec<_> = (0..3).map(|r| attach(&objects, &conflicts, gw, 0, r)).collect();
                        assert_eq!(each, expected, "{n} {listener_hostname:?} {a} {b} {c}");
                        attached += expected.iter().filter(|a| a.is_ok()).count();
                        kept_off +=
                            expected.iter().filter(|a| matches!(a, Err(NotAttached::KindConflict { .. }))).count();
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 2 * 3 * 7 * 7 * 3);
    // Not vacuous: many routes attach, many are kept off.
    assert!(attached > 300 && kept_off > 300, "{attached} {kept_off}");
}
