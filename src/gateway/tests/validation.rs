//! Gateway API objects validated as the apiserver validates the standard-channel CRDs of
//! `kubernetes-sigs/gateway-api` v1.6.1 (`crate::gateway::validation`). Each case names
//! the CRD field (`<crd>: <openAPIV3Schema path>`) whose constraint or `x-kubernetes-validations`
//! rule it exercises; the expected strings are the apiserver's (`field.Error.Error()`, Kubernetes
//! v1.36: kube-openapi's sentences for schema errors, the CRD's message for CEL rules).

use crate::gateway::validation::validate;
use crate::gateway::{GatewayOptions, GatewayRequest, Objects, compile};
use serde_json::{Value, json};

/// Reported after a blocking schema error (`hasBlockingErr`), in place of the CEL rules.
const NOT_CHECKED: &str = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

fn errors(object: &Value) -> Vec<String> {
    let verdict = validate(object).unwrap_or_else(|| panic!("not validated: {object}"));
    verdict.errors.iter().map(ToString::to_string).collect()
}

#[track_caller]
fn check(source: &str, object: Value, expected: &[&str]) {
    assert_eq!(errors(&object), expected, "{source}");
}

fn route(spec: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
           "metadata": {"name": "r", "namespace": "shop"}, "spec": spec})
}

/// A route of one rule.
fn rule(rule: Value) -> Value {
    route(json!({"parentRefs": [{"name": "gw"}], "rules": [rule]}))
}

fn path_match(kind: &str, value: &str) -> Value {
    rule(json!({"matches": [{"path": {"type": kind, "value": value}}], "backendRefs": [{"name": "s", "port": 80}]}))
}

fn filters(filters: Value) -> Value {
    rule(json!({"filters": filters}))
}

fn gateway(listeners: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
           "metadata": {"name": "gw", "namespace": "infra"},
           "spec": {"gatewayClassName": "eg", "listeners": listeners}})
}

fn gateway_spec(spec: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw"}, "spec": spec})
}

fn listener(name: &str, port: u16, protocol: &str) -> Value {
    json!({"name": name, "port": port, "protocol": protocol})
}

fn class(spec: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass", "metadata": {"name": "eg"}, "spec": spec})
}

fn grant(spec: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
           "metadata": {"name": "g", "namespace": "shop"}, "spec": spec})
}

// ------------------------------------------------------------------------------------------------
// Valid objects

/// Every object of the routing cases, except the one the apiserver refuses (the routing cases
/// feed it to the router unchecked, to test what the router does with a backendRef without port).
#[test]
fn the_routing_cases_objects_are_valid_but_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/gateway.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let refused: &[(&str, &str)] = &[(
        "backends/no-port",
        "HTTPRoute.gateway.networking.k8s.io \"r\" is invalid: spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference",
    )];
    let mut validated = 0;
    let mut found = Vec::new();
    for case in doc["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        for object in case["objects"].as_array().unwrap() {
            let Some(verdict) = validate(object) else { continue };
            validated += 1;
            if let Some(message) = verdict.message() {
                found.push((id, message));
            }
        }
    }
    let expected: Vec<(&str, String)> = refused.iter().map(|(id, m)| (*id, m.to_string())).collect();
    assert_eq!(found, expected);
    assert!(validated > 100, "{validated}");
}

#[test]
fn the_example_manifests_are_valid() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gateway/shop.yaml");
    let input = crate::input::parse("shop.yaml", &std::fs::read_to_string(path).unwrap()).unwrap();
    let verdicts: Vec<_> = input.gateway_api.iter().filter_map(|g| validate(&g.value)).collect();
    assert_eq!(verdicts.len(), 2);
    for v in verdicts {
        assert!(v.is_valid(), "{:?}", v.message());
    }
}

#[test]
fn valid_objects_of_every_kind() {
    for object in [
        class(json!({"controllerName": "example.com/gateway-controller", "description": "d",
                     "parametersRef": {"group": "example.com", "kind": "Config", "name": "c"}})),
        gateway(json!([
            {"name": "http", "port": 80, "protocol": "HTTP", "hostname": "*.example.com",
             "allowedRoutes": {"namespaces": {"from": "Selector", "selector": {"matchLabels": {"env": "prod"}}},
                               "kinds": [{"kind": "HTTPRoute"}]}},
            {"name": "https", "port": 443, "protocol": "HTTPS",
             "tls": {"mode": "Terminate", "certificateRefs": [{"name": "cert"}]}},
            {"name": "tls", "port": 8443, "protocol": "TLS", "tls": {"mode": "Passthrough"}},
            {"name": "tcp", "port": 9000, "protocol": "TCP"},
            {"name": "custom", "port": 9001, "protocol": "example.com/proto"},
        ])),
        gateway_spec(json!({"gatewayClassName": "eg", "listeners": [listener("http", 80, "HTTP")],
            "addresses": [{"value": "10.0.0.1"}, {"type": "Hostname", "value": "lb.example.com"},
                          {"type": "example.com/custom", "value": "x"}],
            "infrastructure": {"labels": {"example.com/team": "a"}, "annotations": {"note": "anything at all"}}})),
        route(json!({"parentRefs": [{"name": "gw", "sectionName": "http"}, {"name": "gw", "sectionName": "https"}],
        "hostnames": ["shop.example.com", "*.example.org"],
        "rules": [
            {"name": "cart", "matches": [{"path": {"type": "Exact", "value": "/cart"}, "method": "GET",
                "headers": [{"name": "x-env", "value": "canary"}], "queryParams": [{"name": "q", "value": "1"}]}],
             "filters": [
                {"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "a", "value": "1"}],
                    "add": [{"name": "b", "value": "2"}], "remove": ["c"]}},
                {"type": "ExtensionRef", "extensionRef": {"group": "example.com", "kind": "F", "name": "f1"}},
                {"type": "ExtensionRef", "extensionRef": {"group": "example.com", "kind": "F", "name": "f2"}},
                {"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "percent": 10}},
                {"type": "CORS", "cors": {"allowOrigins": ["https://a.example.com"], "allowMethods": ["GET", "POST"]}}],
             "backendRefs": [{"name": "cart", "port": 8080, "weight": 0},
                             {"name": "x", "kind": "Bucket", "group": "example.com"}],
             "timeouts": {"request": "10s", "backendRequest": "2s"}},
            {"matches": [{"path": {"type": "PathPrefix", "value": "/old"}}],
             "filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https", "statusCode": 301,
                 "path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/new"}}}]},
            {"matches": [{"path": {"type": "RegularExpression", "value": "^/a.*//[#]$"}}],
             "backendRefs": [{"name": "s", "port": 80}], "timeouts": {"request": "0s", "backendRequest": "1h"}},
        ]})),
        grant(json!({"from": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": "shop"}],
                     "to": [{"group": "", "kind": "Service"}, {"group": "", "kind": "Secret", "name": "cert"}]})),
    ] {
        assert_eq!(errors(&object), Vec::<String>::new(), "{object}");
    }
}

// ------------------------------------------------------------------------------------------------
// HTTPRoute

#[test]
fn httproute_path_match_rules() {
    const SOURCE: &str = "httproutes: spec.rules[].matches[].path x-kubernetes-validations";
    let at = "spec.rules[0].matches[0].path: Invalid value: ";
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "PathPrefix",
            "foo",
            &["value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']"],
        ),
        ("Exact", "/a//b", &["must not contain '//' when type one of ['Exact', 'PathPrefix']"]),
        ("PathPrefix", "/a/./b", &["must not contain '/./' when type one of ['Exact', 'PathPrefix']"]),
        ("PathPrefix", "/a/../b", &["must not contain '/../' when type one of ['Exact', 'PathPrefix']"]),
        ("PathPrefix", "/a%2fb", &["must not contain '%2f' when type one of ['Exact', 'PathPrefix']"]),
        ("Exact", "/a%2Fb", &["must not contain '%2F' when type one of ['Exact', 'PathPrefix']"]),
        (
            "PathPrefix",
            "/a#b",
            &[
                "must not contain '#' when type one of ['Exact', 'PathPrefix']",
                "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
            ],
        ),
        ("PathPrefix", "/a/..", &["must not end with '/..' when type one of ['Exact', 'PathPrefix']"]),
        ("Exact", "/a/.", &["must not end with '/.' when type one of ['Exact', 'PathPrefix']"]),
        (
            "Exact",
            "/a b",
            &[
                "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
            ],
        ),
        ("RegularExpression", "foo//#", &[]),
    ];
    for (kind, value, messages) in cases {
        let expected: Vec<String> = messages.iter().map(|m| format!("{at}{m}")).collect();
        let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
        check(SOURCE, path_match(kind, value), &expected);
    }
    check(
        "httproutes: spec.rules[].matches[].path.type enum",
        path_match("Foo", "/"),
        &[
            "spec.rules[0].matches[0].path.type: Unsupported value: \"Foo\": supported values: \"Exact\", \"PathPrefix\", \"RegularExpression\"",
            NOT_CHECKED,
        ],
    );
    check(
        "httproutes: spec.rules[].matches[].path.value maxLength 1024",
        path_match("PathPrefix", &format!("/{}", "a".repeat(1024))),
        &["spec.rules[0].matches[0].path.value: Too long: may not be more than 1024 bytes", NOT_CHECKED],
    );
    check(
        "httproutes: spec.rules[].matches[].method enum",
        rule(json!({"matches": [{"method": "get"}]})),
        &[
            "spec.rules[0].matches[0].method: Unsupported value: \"get\": supported values: \"GET\", \"HEAD\", \"POST\", \"PUT\", \"DELETE\", \"CONNECT\", \"OPTIONS\", \"TRACE\", \"PATCH\"",
            NOT_CHECKED,
        ],
    );
}

#[test]
fn httproute_replace_prefix_match_needs_one_path_prefix_match() {
    let rewrite = json!([{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}}}]);
    check(
        "httproutes: spec.rules[] x-kubernetes-validations (URLRewrite replacePrefixMatch)",
        rule(json!({"matches": [{"path": {"type": "Exact", "value": "/a"}}], "filters": rewrite,
                    "backendRefs": [{"name": "s", "port": 80}]})),
        &[
            "spec.rules[0]: Invalid value: When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ],
    );
    check(
        "httproutes: spec.rules[] x-kubernetes-validations (URLRewrite replacePrefixMatch, default match)",
        rule(json!({"filters": rewrite, "backendRefs": [{"name": "s", "port": 80}]})),
        &[],
    );
    check(
        "httproutes: spec.rules[] x-kubernetes-validations (RequestRedirect replacePrefixMatch)",
        rule(json!({"matches": [{"path": {"value": "/a"}}, {"path": {"value": "/b"}}],
                    "filters": [{"type": "RequestRedirect", "requestRedirect": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}}}]})),
        &[
            "spec.rules[0]: Invalid value: When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ],
    );
    check(
        "httproutes: spec.rules[] x-kubernetes-validations (within backendRefs)",
        rule(json!({"matches": [{"path": {"type": "Exact", "value": "/a"}}],
                    "backendRefs": [{"name": "s", "port": 80, "filters": rewrite}]})),
        &[
            "spec.rules[0]: Invalid value: Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ],
    );
}

#[test]
fn httproute_filter_combinations() {
    let redirect = json!({"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}});
    let rewrite = json!({"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}});
    check(
        "httproutes: spec.rules[] x-kubernetes-validations (RequestRedirect with backendRefs)",
        rule(json!({"filters": [redirect], "backendRefs": [{"name": "s", "port": 80}]})),
        &["spec.rules[0]: Invalid value: RequestRedirect filter must not be used together with backendRefs"],
    );
    check(
        "httproutes: spec.rules[].filters x-kubernetes-validations (RequestRedirect and URLRewrite)",
        filters(json!([redirect, rewrite])),
        &[
            "spec.rules[0].filters: Invalid value: May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
        ],
    );
    let modifier = json!({"type": "RequestHeaderModifier", "requestHeaderModifier": {"remove": ["x"]}});
    check(
        "httproutes: spec.rules[].filters x-kubernetes-validations (cannot be repeated)",
        filters(json!([modifier, modifier, redirect, redirect])),
        &[
            "spec.rules[0].filters: Invalid value: RequestHeaderModifier filter cannot be repeated",
            "spec.rules[0].filters: Invalid value: RequestRedirect filter cannot be repeated",
        ],
    );
    let response = json!({"type": "ResponseHeaderModifier", "responseHeaderModifier": {"remove": ["x"]}});
    let cors = json!({"type": "CORS", "cors": {"allowOrigins": ["*"]}});
    check(
        "httproutes: spec.rules[].backendRefs[].filters x-kubernetes-validations (cannot be repeated)",
        rule(
            json!({"backendRefs": [{"name": "s", "port": 80, "filters": [response, response, rewrite, rewrite, cors, cors]}]}),
        ),
        &[
            "spec.rules[0].backendRefs[0].filters: Invalid value: CORS filter cannot be repeated",
            "spec.rules[0].backendRefs[0].filters: Invalid value: ResponseHeaderModifier filter cannot be repeated",
            "spec.rules[0].backendRefs[0].filters: Invalid value: URLRewrite filter cannot be repeated",
        ],
    );
}

#[test]
fn httproute_each_filter_type_needs_its_field_and_no_other() {
    const SOURCE: &str = "httproutes: spec.rules[].filters[] x-kubernetes-validations";
    for (kind, field) in [
        ("RequestHeaderModifier", "requestHeaderModifier"),
        ("ResponseHeaderModifier", "responseHeaderModifier"),
        ("RequestMirror", "requestMirror"),
        ("RequestRedirect", "requestRedirect"),
        ("URLRewrite", "urlRewrite"),
        ("ExtensionRef", "extensionRef"),
        ("CORS", "cors"),
    ] {
        let expected =
            format!("spec.rules[0].filters[0]: Invalid value: filter.{field} must be specified for {kind} filter.type");
        check(SOURCE, filters(json!([{"type": kind}])), &[&expected]);
    }
    check(
        SOURCE,
        filters(json!([{"type": "RequestHeaderModifier", "requestHeaderModifier": {}, "urlRewrite": {}}])),
        &[
            "spec.rules[0].filters[0]: Invalid value: filter.urlRewrite must be nil if the filter.type is not URLRewrite",
        ],
    );
    check(
        "httproutes: spec.rules[].filters[] required type",
        filters(json!([{"requestHeaderModifier": {}}])),
        &["spec.rules[0].filters[0].type: Required value", NOT_CHECKED],
    );
    check(
        "httproutes: spec.rules[].filters[].type enum (ExternalAuth is experimental)",
        filters(json!([{"type": "ExternalAuth"}])),
        &[
            "spec.rules[0].filters[0].type: Unsupported value: \"ExternalAuth\": supported values: \"RequestHeaderModifier\", \"ResponseHeaderModifier\", \"RequestMirror\", \"RequestRedirect\", \"URLRewrite\", \"ExtensionRef\", \"CORS\"",
            NOT_CHECKED,
        ],
    );
}

#[test]
fn httproute_filter_fields() {
    check(
        "httproutes: spec.rules[].filters[].requestHeaderModifier.set x-kubernetes-list-type map (name), remove set",
        filters(json!([{"type": "RequestHeaderModifier", "requestHeaderModifier": {
            "set": [{"name": "X", "value": "1"}, {"name": "X", "value": "2"}],
            "add": [{"name": "y", "value": "1"}, {"name": "Y", "value": "2"}],
            "remove": ["z", "z", "z"]}}])),
        &[
            "spec.rules[0].filters[0].requestHeaderModifier.remove[1]: Duplicate value: \"z\"",
            "spec.rules[0].filters[0].requestHeaderModifier.set[1]: Duplicate value: {\"name\":\"X\"}",
        ],
    );
    check(
        "httproutes: spec.rules[].filters[].requestHeaderModifier.set[].name pattern",
        filters(
            json!([{"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "a:b", "value": "1"}]}}]),
        ),
        &[
            "spec.rules[0].filters[0].requestHeaderModifier.set[0].name: Invalid value: \"a:b\": spec.rules[0].filters[0].requestHeaderModifier.set[0].name in body should match '^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$'",
        ],
    );
    check(
        "httproutes: spec.rules[].filters[].requestRedirect.statusCode enum",
        filters(json!([{"type": "RequestRedirect", "requestRedirect": {"statusCode": 300}}])),
        &[
            "spec.rules[0].filters[0].requestRedirect.statusCode: Unsupported value: 300: supported values: \"301\", \"302\", \"303\", \"307\", \"308\"",
            NOT_CHECKED,
        ],
    );
    check(
        "httproutes: spec.rules[].filters[].urlRewrite.path x-kubernetes-validations",
        filters(
            json!([{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath", "replacePrefixMatch": "/x"}}}]),
        ),
        &[
            "spec.rules[0].filters[0].urlRewrite.path: Invalid value: replaceFullPath must be specified when type is set to 'ReplaceFullPath'",
            "spec.rules[0].filters[0].urlRewrite.path: Invalid value: type must be 'ReplacePrefixMatch' when replacePrefixMatch is set",
        ],
    );
    check(
        "httproutes: spec.rules[].filters[].requestMirror x-kubernetes-validations",
        filters(json!([{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m"}, "percent": 5,
            "fraction": {"numerator": 200}}}])),
        &[
            "spec.rules[0].filters[0].requestMirror: Invalid value: Only one of percent or fraction may be specified in HTTPRequestMirrorFilter",
            "spec.rules[0].filters[0].requestMirror.backendRef: Invalid value: Must have port for Service reference",
            "spec.rules[0].filters[0].requestMirror.fraction: Invalid value: numerator must be less than or equal to denominator",
        ],
    );
    check(
        "httproutes: spec.rules[].filters[].requestMirror.percent maximum 100",
        filters(
            json!([{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "percent": 101}}]),
        ),
        &[
            "spec.rules[0].filters[0].requestMirror.percent: Invalid value: 101: spec.rules[0].filters[0].requestMirror.percent in body should be less than or equal to 100",
        ],
    );
    check(
        "httproutes: spec.rules[].filters[].cors.allowOrigins x-kubernetes-validations and pattern",
        filters(
            json!([{"type": "CORS", "cors": {"allowOrigins": ["*", "example.com"], "allowMethods": ["*", "GET"]}}]),
        ),
        &[
            "spec.rules[0].filters[0].cors.allowOrigins[1]: Invalid value: \"example.com\": spec.rules[0].filters[0].cors.allowOrigins[1] in body should match '(^\\*$)|(^(http(s)?):\\/\\/(((\\*\\.)?([a-zA-Z0-9\\-]+\\.)*[a-zA-Z0-9-]+|\\*)(:([0-9]{1,5}))?)$)'",
            "spec.rules[0].filters[0].cors.allowMethods: Invalid value: AllowMethods cannot contain '*' alongside other methods",
            "spec.rules[0].filters[0].cors.allowOrigins: Invalid value: AllowOrigins cannot contain '*' alongside other origins",
        ],
    );
}

#[test]
fn httproute_matches_headers_and_hostnames() {
    check(
        "httproutes: spec.rules[].matches[].headers[].name pattern",
        rule(json!({"matches": [{"headers": [{"name": "bad header", "value": "1"}]}]})),
        &[
            "spec.rules[0].matches[0].headers[0].name: Invalid value: \"bad header\": spec.rules[0].matches[0].headers[0].name in body should match '^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$'",
        ],
    );
    check(
        "httproutes: spec.rules[].matches[].headers x-kubernetes-list-type map (name); value minLength 1",
        rule(json!({"matches": [{"headers": [{"name": "x", "value": "1"}, {"name": "x", "value": ""}]}]})),
        &[
            "spec.rules[0].matches[0].headers[1].value: Invalid value: \"\": spec.rules[0].matches[0].headers[1].value in body should be at least 1 chars long",
            "spec.rules[0].matches[0].headers[1]: Duplicate value: {\"name\":\"x\"}",
        ],
    );
    check(
        "httproutes: spec.hostnames[] pattern",
        route(json!({"hostnames": ["Shop.example.com", "*.example.com", "*"]})),
        &[
            "spec.hostnames[0]: Invalid value: \"Shop.example.com\": spec.hostnames[0] in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
            "spec.hostnames[2]: Invalid value: \"*\": spec.hostnames[2] in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
        ],
    );
    check(
        "httproutes: spec.hostnames[] maxLength 253",
        route(json!({"hostnames": [format!("{}.com", "a".repeat(250))]})),
        &["spec.hostnames[0]: Too long: may not be more than 253 bytes", NOT_CHECKED],
    );
}

#[test]
fn httproute_list_sizes() {
    let hostnames: Vec<String> = (0..17).map(|i| format!("h{i}.example.com")).collect();
    check(
        "httproutes: spec.hostnames maxItems 16",
        route(json!({"hostnames": hostnames})),
        &["spec.hostnames: Too many: 17: must have at most 16 items", NOT_CHECKED],
    );
    let parents: Vec<Value> = (0..33).map(|i| json!({"name": format!("gw{i}")})).collect();
    check(
        "httproutes: spec.parentRefs maxItems 32",
        route(json!({"parentRefs": parents})),
        &["spec.parentRefs: Too many: 33: must have at most 32 items", NOT_CHECKED],
    );
    let rules: Vec<Value> = (0..17).map(|_| json!({})).collect();
    check(
        "httproutes: spec.rules maxItems 16",
        route(json!({"rules": rules})),
        &["spec.rules: Too many: 17: must have at most 16 items", NOT_CHECKED],
    );
    check(
        "httproutes: spec.rules minItems 1",
        route(json!({"rules": []})),
        &["spec.rules: Invalid value: 0: spec.rules in body should have at least 1 items"],
    );
    let matches: Vec<Value> = (0..65).map(|_| json!({})).collect();
    check(
        "httproutes: spec.rules[].matches maxItems 64",
        rule(json!({"matches": matches})),
        &["spec.rules[0].matches: Too many: 65: must have at most 64 items", NOT_CHECKED],
    );
    let matches: Vec<Value> = (0..43).map(|_| json!({})).collect();
    check(
        "httproutes: spec.rules x-kubernetes-validations (at most 128 matches)",
        route(json!({"rules": [{"matches": matches}, {"matches": matches}, {"matches": matches}]})),
        &[
            "spec.rules: Invalid value: While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128",
        ],
    );
    let backends: Vec<Value> = (0..17).map(|i| json!({"name": format!("s{i}"), "port": 80})).collect();
    check(
        "httproutes: spec.rules[].backendRefs maxItems 16",
        rule(json!({"backendRefs": backends})),
        &["spec.rules[0].backendRefs: Too many: 17: must have at most 16 items", NOT_CHECKED],
    );
}

#[test]
fn httproute_backend_refs() {
    let backend = |b: Value| rule(json!({"backendRefs": [b]}));
    check(
        "httproutes: spec.rules[].backendRefs[].weight minimum 0",
        backend(json!({"name": "s", "port": 80, "weight": -1})),
        &[
            "spec.rules[0].backendRefs[0].weight: Invalid value: -1: spec.rules[0].backendRefs[0].weight in body should be greater than or equal to 0",
        ],
    );
    check(
        "httproutes: spec.rules[].backendRefs[].weight maximum 1000000",
        backend(json!({"name": "s", "port": 80, "weight": 1_000_001})),
        &[
            "spec.rules[0].backendRefs[0].weight: Invalid value: 1000001: spec.rules[0].backendRefs[0].weight in body should be less than or equal to 1000000",
        ],
    );
    check(
        "httproutes: spec.rules[].backendRefs[].port minimum 1",
        backend(json!({"name": "s", "port": 0})),
        &[
            "spec.rules[0].backendRefs[0].port: Invalid value: 0: spec.rules[0].backendRefs[0].port in body should be greater than or equal to 1",
        ],
    );
    check(
        "httproutes: spec.rules[].backendRefs[].port maximum 65535",
        backend(json!({"name": "s", "port": 65536})),
        &[
            "spec.rules[0].backendRefs[0].port: Invalid value: 65536: spec.rules[0].backendRefs[0].port in body should be less than or equal to 65535",
        ],
    );
    check(
        "httproutes: spec.rules[].backendRefs[].port type integer",
        backend(json!({"name": "s", "port": "80"})),
        &[
            "spec.rules[0].backendRefs[0].port: Invalid value: \"string\": spec.rules[0].backendRefs[0].port in body must be of type integer: \"string\"",
            NOT_CHECKED,
        ],
    );
    check(
        "httproutes: spec.rules[].backendRefs[] x-kubernetes-validations (Service needs a port)",
        backend(json!({"name": "s"})),
        &["spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference"],
    );
    check(
        "httproutes: spec.rules[].backendRefs[] required name",
        backend(json!({"port": 80})),
        &["spec.rules[0].backendRefs[0].name: Required value", NOT_CHECKED],
    );
    check(
        "httproutes: spec.rules[].backendRefs[].namespace pattern, kind pattern",
        backend(json!({"name": "s", "port": 80, "namespace": "Shop", "kind": "1x"})),
        &[
            "spec.rules[0].backendRefs[0].kind: Invalid value: \"1x\": spec.rules[0].backendRefs[0].kind in body should match '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$'",
            "spec.rules[0].backendRefs[0].namespace: Invalid value: \"Shop\": spec.rules[0].backendRefs[0].namespace in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'",
        ],
    );
}

#[test]
fn httproute_timeouts_parents_and_metadata() {
    check(
        "httproutes: spec.rules[].timeouts x-kubernetes-validations",
        rule(json!({"timeouts": {"request": "10s", "backendRequest": "1m"}})),
        &["spec.rules[0].timeouts: Invalid value: backendRequest timeout cannot be longer than request timeout"],
    );
    check(
        "httproutes: spec.rules[].timeouts.request pattern",
        rule(json!({"timeouts": {"request": "1d"}})),
        &[
            "spec.rules[0].timeouts.request: Invalid value: \"1d\": spec.rules[0].timeouts.request in body should match '^([0-9]{1,5}(h|m|s|ms)){1,4}$'",
        ],
    );
    check(
        "httproutes: spec.parentRefs x-kubernetes-validations (sectionName must be specified)",
        route(json!({"parentRefs": [{"name": "gw"}, {"name": "gw", "sectionName": "http"}]})),
        &[
            "spec.parentRefs: Invalid value: sectionName must be specified when parentRefs includes 2 or more references to the same parent",
        ],
    );
    check(
        "httproutes: spec.parentRefs x-kubernetes-validations (sectionName must be unique)",
        route(json!({"parentRefs": [{"name": "gw", "sectionName": "http"}, {"name": "gw", "sectionName": "http"}]})),
        &[
            "spec.parentRefs: Invalid value: sectionName must be unique when parentRefs includes 2 or more references to the same parent",
        ],
    );
    check(
        "httproutes: spec.parentRefs x-kubernetes-validations (the same parent twice without sectionName)",
        route(json!({"parentRefs": [{"name": "gw"}, {"name": "gw", "kind": "Gateway", "sectionName": ""}]})),
        &[
            "spec.parentRefs[1].sectionName: Invalid value: \"\": spec.parentRefs[1].sectionName in body should be at least 1 chars long",
            "spec.parentRefs: Invalid value: sectionName must be unique when parentRefs includes 2 or more references to the same parent",
        ],
    );
    check(
        "httproutes: spec.parentRefs (another namespace is another parent)",
        route(json!({"parentRefs": [{"name": "gw"}, {"name": "gw", "namespace": "other"}]})),
        &[],
    );
    check(
        "httproutes: openAPIV3Schema required spec",
        json!({"apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "HTTPRoute", "metadata": {"name": "r"}}),
        &["spec: Required value", NOT_CHECKED],
    );
    check(
        "metadata (ValidateObjectMetaAccessor, NameIsDNSSubdomain)",
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "Bad_Name"}, "spec": {}}),
        &[
            "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ],
    );
    let verdict = validate(&json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
        "metadata": {"name": "r"}, "spec": {"hostnames": ["A", "B"]}}))
    .unwrap();
    assert_eq!(verdict.namespace.as_deref(), Some("default"));
    assert!(verdict.message().unwrap().starts_with(
        "HTTPRoute.gateway.networking.k8s.io \"r\" is invalid: [spec.hostnames[0]: Invalid value: \"A\": spec.hostnames[0] in body should match"
    ));
}

// ------------------------------------------------------------------------------------------------
// Gateway

#[test]
fn gateway_listeners() {
    check(
        "gateways: spec.listeners minItems 1",
        gateway(json!([])),
        &["spec.listeners: Invalid value: 0: spec.listeners in body should have at least 1 items"],
    );
    let many: Vec<Value> = (0..65).map(|i| listener(&format!("l{i}"), 8000 + i, "HTTP")).collect();
    check(
        "gateways: spec.listeners maxItems 64",
        gateway(json!(many)),
        &["spec.listeners: Too many: 65: must have at most 64 items", NOT_CHECKED],
    );
    check(
        "gateways: spec.listeners x-kubernetes-list-type map (name) and x-kubernetes-validations (unique names)",
        gateway(json!([listener("http", 80, "HTTP"), listener("http", 8080, "HTTP")])),
        &[
            "spec.listeners[1]: Duplicate value: {\"name\":\"http\"}",
            "spec.listeners: Invalid value: Listener name must be unique within the Gateway",
        ],
    );
    check(
        "gateways: spec.listeners x-kubernetes-validations (port, protocol and hostname unique)",
        gateway(json!([listener("a", 80, "HTTP"), listener("b", 80, "HTTP")])),
        &["spec.listeners: Invalid value: Combination of port, protocol and hostname must be unique for each listener"],
    );
    check(
        "gateways: spec.listeners[].hostname pattern, port minimum, required protocol",
        gateway(
            json!([{"name": "a", "port": 0, "protocol": "HTTP", "hostname": "*.Example.com"}, {"name": "b", "port": 1}]),
        ),
        &[
            "spec.listeners[0].hostname: Invalid value: \"*.Example.com\": spec.listeners[0].hostname in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
            "spec.listeners[0].port: Invalid value: 0: spec.listeners[0].port in body should be greater than or equal to 1",
            "spec.listeners[1].protocol: Required value",
            NOT_CHECKED,
        ],
    );
    check(
        "gateways: spec.listeners[].port maximum 65535, name pattern, protocol pattern",
        gateway(json!([{"name": "Http", "port": 65536, "protocol": "HTTP/2"}])),
        &[
            "spec.listeners[0].name: Invalid value: \"Http\": spec.listeners[0].name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
            "spec.listeners[0].port: Invalid value: 65536: spec.listeners[0].port in body should be less than or equal to 65535",
            "spec.listeners[0].protocol: Invalid value: \"HTTP/2\": spec.listeners[0].protocol in body should match '^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9]+$'",
        ],
    );
}

#[test]
fn gateway_listener_protocol_rules() {
    const SOURCE: &str = "gateways: spec.listeners x-kubernetes-validations";
    let certs = json!({"certificateRefs": [{"name": "cert"}]});
    check(
        SOURCE,
        gateway(json!([{"name": "tcp", "port": 9000, "protocol": "TCP", "hostname": "a.example.com"}])),
        &["spec.listeners: Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']"],
    );
    check(
        SOURCE,
        gateway(json!([{"name": "http", "port": 80, "protocol": "HTTP", "tls": certs}])),
        &["spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"],
    );
    check(
        SOURCE,
        gateway(json!([listener("tls", 443, "TLS")])),
        &["spec.listeners: Invalid value: tls mode must be set for protocol TLS"],
    );
    check(
        SOURCE,
        gateway(json!([{"name": "https", "port": 443, "protocol": "HTTPS", "tls": {"mode": "Passthrough"}}])),
        &["spec.listeners: Invalid value: tls mode must be Terminate for protocol HTTPS"],
    );
    check(
        "gateways: spec.listeners[].tls x-kubernetes-validations (certificateRefs or options)",
        gateway(json!([{"name": "https", "port": 443, "protocol": "HTTPS", "tls": {"certificateRefs": []}}])),
        &[
            "spec.listeners[0].tls: Invalid value: \"object\": no such key: options evaluating rule: certificateRefs or options must be specified when mode is Terminate",
        ],
    );
    check(
        "gateways: spec.listeners[].tls (options suffice)",
        gateway(
            json!([{"name": "https", "port": 443, "protocol": "HTTPS", "tls": {"options": {"example.com/k": "v"}}}]),
        ),
        &[],
    );
    check(
        "gateways: spec.listeners[].tls.mode enum",
        gateway(json!([{"name": "tls", "port": 443, "protocol": "TLS", "tls": {"mode": "passthrough"}}])),
        &[
            "spec.listeners[0].tls.mode: Unsupported value: \"passthrough\": supported values: \"Terminate\", \"Passthrough\"",
            NOT_CHECKED,
        ],
    );
}

#[test]
fn gateway_allowed_routes_addresses_and_infrastructure() {
    check(
        "gateways: spec.listeners[].allowedRoutes.namespaces.from enum",
        gateway(
            json!([{"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "None"}}}]),
        ),
        &[
            "spec.listeners[0].allowedRoutes.namespaces.from: Unsupported value: \"None\": supported values: \"All\", \"Selector\", \"Same\"",
            NOT_CHECKED,
        ],
    );
    check(
        "gateways: spec.listeners[].allowedRoutes.kinds maxItems 8, kinds[] required kind",
        gateway(
            json!([{"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"kinds": [{"group": "x"}]}}]),
        ),
        &["spec.listeners[0].allowedRoutes.kinds[0].kind: Required value", NOT_CHECKED],
    );
    let spec = |addresses: Value| {
        gateway_spec(
            json!({"gatewayClassName": "eg", "listeners": [listener("http", 80, "HTTP")], "addresses": addresses}),
        )
    };
    check(
        "gateways: spec.addresses x-kubernetes-validations (unique values)",
        spec(json!([{"value": "10.0.0.1"}, {"type": "IPAddress", "value": "10.0.0.1"},
                    {"type": "Hostname", "value": "a.example.com"}, {"type": "Hostname", "value": "a.example.com"}])),
        &[
            "spec.addresses: Invalid value: IPAddress values must be unique",
            "spec.addresses: Invalid value: Hostname values must be unique",
        ],
    );
    check(
        "gateways: spec.addresses[] x-kubernetes-validations (Hostname value), type pattern",
        spec(json!([{"type": "Hostname", "value": "A.example.com"}, {"type": "ip", "value": "1"}])),
        &[
            "spec.addresses[1].type: Invalid value: \"ip\": spec.addresses[1].type in body should match '^Hostname|IPAddress|NamedAddress|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$'",
            "spec.addresses[0]: Invalid value: Hostname value must be empty or contain only valid characters (matching ^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)",
        ],
    );
    check(
        "gateways: spec.addresses[] oneOf (IPAddress: value anyOf format ipv4, ipv6)",
        spec(
            json!([{"type": "IPAddress", "value": "1.2.3.4:8080"}, {"value": "::1"}, {"type": "Hostname", "value": "12:34:56::"}]),
        ),
        &[
            "<nil>: Invalid value: \"\": \"spec.addresses[0]\" must validate one and only one schema (oneOf). Found none valid",
            "<nil>: Invalid value: \"\": \"spec.addresses[0].value\" must validate at least one schema (anyOf)",
            "spec.addresses[0].value: Invalid value: \"1.2.3.4:8080\": spec.addresses[0].value in body must be of type ipv4: \"1.2.3.4:8080\"",
            NOT_CHECKED,
        ],
    );
    check(
        "gateways: spec required gatewayClassName, listeners",
        gateway_spec(json!({})),
        &["spec.gatewayClassName: Required value", "spec.listeners: Required value", NOT_CHECKED],
    );
    check(
        "gateways: spec.infrastructure.labels x-kubernetes-validations, labels{} pattern",
        gateway_spec(json!({"gatewayClassName": "eg", "listeners": [listener("http", 80, "HTTP")],
            "infrastructure": {"labels": {"bad key": "ok", "k": "-bad"}}})),
        &[
            "spec.infrastructure.labels.k: Invalid value: \"-bad\": spec.infrastructure.labels.k in body should match '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$'",
            "spec.infrastructure.labels: Invalid value: Label keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.",
        ],
    );
}

// ------------------------------------------------------------------------------------------------
// GatewayClass and ReferenceGrant

#[test]
fn gateway_class() {
    check(
        "gatewayclasses: spec.controllerName pattern",
        class(json!({"controllerName": "example"})),
        &[
            "spec.controllerName: Invalid value: \"example\": spec.controllerName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$'",
        ],
    );
    check(
        "gatewayclasses: spec required controllerName",
        class(json!({})),
        &["spec.controllerName: Required value", NOT_CHECKED],
    );
    check(
        "gatewayclasses: spec.description maxLength 64",
        class(json!({"controllerName": "example.com/c", "description": "d".repeat(65)})),
        &["spec.description: Too long: may not be more than 64 bytes", NOT_CHECKED],
    );
    let verdict = validate(&class(json!({"controllerName": "x"}))).unwrap();
    assert_eq!(verdict.namespace, None, "cluster-scoped");
    assert!(
        verdict
            .message()
            .unwrap()
            .starts_with("GatewayClass.gateway.networking.k8s.io \"eg\" is invalid: spec.controllerName")
    );
}

#[test]
fn reference_grant() {
    check(
        "referencegrants: spec.from minItems 1",
        grant(json!({"from": [], "to": [{"group": "", "kind": "Service"}]})),
        &["spec.from: Invalid value: 0: spec.from in body should have at least 1 items"],
    );
    check(
        "referencegrants: spec.from[] required namespace",
        grant(
            json!({"from": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"}], "to": [{"group": "", "kind": "Service"}]}),
        ),
        &["spec.from[0].namespace: Required value", NOT_CHECKED],
    );
    check(
        "referencegrants: spec.to[].kind minLength 1, maxLength 63, pattern",
        grant(json!({"from": [{"group": "", "kind": "1Route", "namespace": "a"}],
                     "to": [{"group": "", "kind": ""}, {"group": "", "kind": "K".repeat(64)}]})),
        &[
            "spec.from[0].kind: Invalid value: \"1Route\": spec.from[0].kind in body should match '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$'",
            "spec.to[0].kind: Invalid value: \"\": spec.to[0].kind in body should be at least 1 chars long",
            "spec.to[1].kind: Too long: may not be more than 63 bytes",
            NOT_CHECKED,
        ],
    );
    let many: Vec<Value> = (0..17).map(|i| json!({"group": "", "kind": "Service", "name": format!("s{i}")})).collect();
    check(
        "referencegrants: spec.to maxItems 16; spec required from",
        grant(json!({"to": many})),
        &["spec.to: Too many: 17: must have at most 16 items", "spec.from: Required value", NOT_CHECKED],
    );
}

// ------------------------------------------------------------------------------------------------
// Unknown fields (apiextensions pruning with TrackUnknownFieldPaths, as a strict create decodes)

#[test]
fn unknown_fields_refuse_the_object_under_strict_field_validation() {
    let object = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
        "metadata": {"name": "r"}, "status": {"parents": []},
        "spec": {"rules": [{"backendRef": [{"name": "s", "port": 80}],
                            "matches": [{"path": {"type": "Exact", "value": "/", "Value": "/x"}}]}],
                 "hostname": ["a.example.com"]}});
    let verdict = validate(&object).unwrap();
    let unknown: Vec<(&str, Option<&str>)> =
        verdict.unknown_fields.iter().map(|f| (f.field.as_str(), f.did_you_mean)).collect();
    assert_eq!(
        unknown,
        [
            ("spec.hostname", Some("hostnames")),
            ("spec.rules[0].backendRef", Some("backendRefs")),
            ("spec.rules[0].matches[0].path.Value", Some("value")),
        ]
    );
    assert!(verdict.errors.is_empty(), "pruned, the rest is valid: {:?}", verdict.errors);
    assert!(!verdict.is_valid());
    assert_eq!(
        verdict.message().unwrap(),
        "HTTPRoute in version \"v1\" cannot be handled as a HTTPRoute: strict decoding error: unknown field \"spec.hostname\", unknown field \"spec.rules[0].backendRef\", unknown field \"spec.rules[0].matches[0].path.Value\""
    );
    let beta = grant(json!({"from": [], "to": [], "form": []}));
    assert_eq!(
        validate(&beta).unwrap().message().unwrap(),
        "ReferenceGrant in version \"v1beta1\" cannot be handled as a ReferenceGrant: strict decoding error: unknown field \"spec.form\""
    );
}

// ------------------------------------------------------------------------------------------------
// Routing leaves refused objects out

#[test]
fn checked_objects_leave_out_what_the_apiserver_refuses() {
    let values = vec![
        gateway(
            json!([{"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]),
        ),
        route(json!({"parentRefs": [{"name": "gw", "namespace": "infra"}],
                     "rules": [{"matches": [{"path": {"value": "/a//b"}}], "backendRefs": [{"name": "s", "port": 80}]}]})),
    ];
    let unchecked = Objects::from_values(&values);
    assert!(unchecked.skipped.is_empty());
    assert_eq!(unchecked.routes.len(), 1);
    let checked = Objects::from_checked_values(&values);
    assert_eq!(checked.routes.len(), 0);
    assert_eq!(checked.skipped.len(), 1);
    assert_eq!(
        (checked.skipped[0].index, checked.skipped[0].kind.as_str(), checked.skipped[0].name.as_str()),
        (1, "HTTPRoute", "r")
    );
    assert_eq!(
        checked.skipped[0].error,
        "HTTPRoute.gateway.networking.k8s.io \"r\" is invalid: spec.rules[0].matches[0].path: Invalid value: must not contain '//' when type one of ['Exact', 'PathPrefix']"
    );
    let router = compile(&checked, &GatewayOptions::default());
    assert_eq!(router.route(&GatewayRequest::new("a.example.com", "/a//b")).status(), 404);
}
