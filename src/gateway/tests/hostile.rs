//! Gateway API inputs built to hurt (tenants write HTTPRoutes; anyone sends requests): each is
//! routed correctly within bounded time and memory, and never panics. As in `hostile.rs`, no test
//! measures time: each is sized so that a lookup scanning every rule, or a quadratic compile,
//! would run for hours instead, which CI notices. Each test names the bound it guards.

use crate::gateway::{GatewayOptions, GatewayRequest, Objects, compile};
use serde_json::{Value, json};

fn gateway(listeners: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
           "metadata": {"name": "gw", "namespace": "infra"},
           "spec": {"gatewayClassName": "c", "listeners": listeners}})
}

fn http_listener() -> Value {
    json!([{"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}])
}

fn route(name: &str, hostnames: Value, rules: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
           "metadata": {"name": name, "namespace": "apps"},
           "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "hostnames": hostnames, "rules": rules}})
}

/// Bound: a lookup probes the host's path index, not every rule. 100 000 PathPrefix rules on one
/// host and 100 000 lookups: a scan would compare 10^10 rules.
#[test]
fn a_hundred_thousand_prefix_rules_on_one_host() {
    let mut values = vec![gateway(http_listener())];
    for r in 0..10_000 {
        let rules: Vec<Value> = (0..10)
            .map(|i| {
                let n = r * 10 + i;
                json!({"matches": [{"path": {"type": "PathPrefix", "value": format!("/p{n}")}}],
                       "backendRefs": [{"name": format!("svc{n}"), "port": 80}]})
            })
            .collect();
        values.push(route(&format!("r{r}"), json!(["shop.example.com"]), Value::Array(rules)));
    }
    let router = compile(&Objects::from_values(&values), &GatewayOptions::default());
    for n in (0..100_000).step_by(1) {
        let path = format!("/p{n}/x");
        let request = GatewayRequest::new("shop.example.com", &path);
        let decision = router.route(&request);
        let view = decision.view(&request);
        assert_eq!(view.backend.and_then(|b| b.service).map(|s| s.name), Some(format!("svc{n}")), "{path}");
    }
    assert_eq!(router.route(&GatewayRequest::new("shop.example.com", "/nothing")).status(), 404);
}

/// Bound: PathPrefix values are probed once per `/` of the request path. A path of 100 000 slashes
/// and a 64 KiB segment route as the reference says.
#[test]
fn very_long_paths_and_hosts_are_routed() {
    let rules = json!([
        {"matches": [{"path": {"type": "PathPrefix", "value": "/a"}}], "backendRefs": [{"name": "a", "port": 80}]},
        {"matches": [{"path": {"type": "Exact", "value": "/"}}], "backendRefs": [{"name": "root", "port": 80}]}
    ]);
    let long_host = format!("{}.example.com", "x".repeat(60));
    let values = vec![gateway(http_listener()), route("r", json!([]), rules)];
    let router = compile(&Objects::from_values(&values), &GatewayOptions::default());
    let slashes = "/".repeat(100_000);
    assert_eq!(router.route(&GatewayRequest::new("h", &slashes)).status(), 404);
    let deep = format!("/a{}", "/b".repeat(50_000));
    let request = GatewayRequest::new(&long_host, &deep);
    assert_eq!(
        router.route(&request).view(&request).backend.and_then(|b| b.service).map(|s| s.name).as_deref(),
        Some("a")
    );
    let wide = format!("/a/{}", "y".repeat(65_536));
    assert_eq!(router.route(&GatewayRequest::new("h", &wide)).status(), 200);
    // A host far over DNS's 253 bytes: no listener hostname can match it; the catch-all listener does.
    let huge_host = "h".repeat(100_000);
    assert_eq!(router.route(&GatewayRequest::new(&huge_host, "/a")).status(), 200);
}

/// Bound: headers are matched by name among the candidates of the host only. 10 000 request
/// headers against 1 000 header-matching rules.
#[test]
fn many_headers_against_many_header_matches() {
    let rules: Vec<Value> = (0..1_000)
        .map(|i| {
            json!({"matches": [{"path": {"value": "/"}, "headers": [{"name": format!("x-h{i}"), "value": "on"}]}],
                   "backendRefs": [{"name": format!("svc{i}"), "port": 80}]})
        })
        .collect();
    let mut values = vec![gateway(http_listener())];
    for (r, chunk) in rules.chunks(10).enumerate() {
        values.push(route(&format!("r{r}"), json!(["h.example.com"]), Value::Array(chunk.to_vec())));
    }
    let router = compile(&Objects::from_values(&values), &GatewayOptions::default());
    let names: Vec<String> = (0..10_000).map(|i| format!("x-other{i}")).collect();
    let mut headers: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "on")).collect();
    headers.push(("x-h999", "on"));
    let request = GatewayRequest::new("h.example.com", "/").with_headers(&headers);
    assert_eq!(
        router.route(&request).view(&request).backend.and_then(|b| b.service).map(|s| s.name).as_deref(),
        Some("svc999")
    );
    let none = GatewayRequest::new("h.example.com", "/").with_headers(&headers[..10_000]);
    assert_eq!(router.route(&none).status(), 404);
}

/// Bound: compiling is linear in hostnames: 6 250 routes of 16 hostnames each (the most a route
/// may have; wildcards among them), each hostname reached.
#[test]
fn a_hundred_thousand_hostnames_compile_and_route() {
    let mut values = vec![gateway(http_listener())];
    for r in 0..6_250 {
        let hostnames: Vec<String> = (0..16)
            .map(|h| if h % 10 == 0 { format!("*.w{r}-{h}.example.com") } else { format!("h{r}-{h}.example.com") })
            .collect();
        let rules = json!([{"backendRefs": [{"name": format!("svc{r}"), "port": 80}]}]);
        values.push(route(&format!("r{r}"), json!(hostnames), rules));
    }
    let objects = Objects::from_values(&values);
    assert_eq!(objects.routes.len(), 6_250);
    let router = compile(&objects, &GatewayOptions::default());
    for r in (0..6_250).step_by(7) {
        for h in [1, 7, 15] {
            let host = format!("h{r}-{h}.example.com");
            let request = GatewayRequest::new(&host, "/");
            assert_eq!(
                router.route(&request).view(&request).backend.and_then(|b| b.service).map(|s| s.name),
                Some(format!("svc{r}"))
            );
        }
        let deep = format!("a.b.c.w{r}-10.example.com");
        let request = GatewayRequest::new(&deep, "/x");
        assert_eq!(
            router.route(&request).view(&request).backend.and_then(|b| b.service).map(|s| s.name),
            Some(format!("svc{r}")),
            "{deep}"
        );
    }
}

/// Values of the wrong type anywhere in a Gateway API object leave that object out with a reason
/// (never a panic), and the rest routes.
#[test]
fn wrong_types_leave_the_object_out() {
    let bad = [
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "a", "namespace": "apps"}, "spec": {"rules": "nope"}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": 5}, "spec": {}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "g2"}, "spec": {"listeners": [{"port": "eighty"}]}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "b", "namespace": "apps"},
               "spec": {"rules": [{"backendRefs": [{"name": "x", "port": 70_000, "weight": -1}]}]}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "ReferenceGrant", "metadata": {"name": "g"}, "spec": {"from": {}}}),
    ];
    let rules = json!([{"backendRefs": [{"name": "ok", "port": 80}]}]);
    let mut values = vec![gateway(http_listener()), route("fine", json!([]), rules)];
    values.extend(bad.iter().cloned());
    let objects = Objects::from_values(&values);
    assert_eq!(objects.skipped.len(), bad.len(), "{:?}", objects.skipped);
    assert!(objects.skipped.iter().all(|s| !s.error.is_empty()));
    let checked = Objects::from_checked_values(&values);
    assert!(checked.skipped.len() >= bad.len());
    let router = compile(&objects, &GatewayOptions::default());
    let request = GatewayRequest::new("h", "/");
    assert_eq!(
        router.route(&request).view(&request).backend.and_then(|b| b.service).map(|s| s.name).as_deref(),
        Some("ok")
    );
}

/// Every field of a Gateway, an HTTPRoute and a ReferenceGrant (each with every field routing
/// reads), replaced in turn by a value of each JSON type and by a long list: never a panic; the
/// object is read, or left out with an error that starts at the replaced field (`spec.rules[0]...`)
/// and names it.
#[test]
fn a_wrong_type_at_every_level_names_its_field() {
    let long_list = Value::Array(vec![json!(1); 100_000]);
    let replacements = [
        json!(5),
        json!(-1),
        json!(1.5),
        json!("x"),
        json!({}),
        json!([]),
        json!([7]),
        json!(null),
        json!(true),
        long_list,
    ];
    let filter = |kind: &str| {
        json!({"type": kind,
               "requestHeaderModifier": {"set": [{"name": "a", "value": "b"}], "add": [{"name": "c", "value": "d"}], "remove": ["e"]},
               "responseHeaderModifier": {"set": [{"name": "a", "value": "b"}]},
               "requestRedirect": {"scheme": "https", "hostname": "h", "port": 443, "statusCode": 301,
                                   "path": {"type": "ReplaceFullPath", "replaceFullPath": "/x"}},
               "urlRewrite": {"hostname": "h", "path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/y"}},
               "requestMirror": {"backendRef": {"name": "m", "port": 80}}, "extensionRef": {"group": "g", "kind": "k", "name": "n"}})
    };
    let objects = [
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
               "metadata": {"name": "gw", "namespace": "infra", "creationTimestamp": "2024-01-02T03:04:05Z", "labels": {"app": "a"}},
               "spec": {"gatewayClassName": "c", "listeners": [
                   {"name": "http", "hostname": "*.example.com", "port": 80, "protocol": "HTTP",
                    "allowedRoutes": {"namespaces": {"from": "Selector", "selector": {"matchLabels": {"team": "a"},
                        "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}]}},
                        "kinds": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"}]}}]}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
               "metadata": {"name": "r", "namespace": "apps"},
               "spec": {"parentRefs": [{"group": "gateway.networking.k8s.io", "kind": "Gateway", "namespace": "infra",
                                        "name": "gw", "sectionName": "http", "port": 80}],
                        "hostnames": ["a.example.com"],
                        "rules": [{"name": "one",
                                   "matches": [{"path": {"type": "Exact", "value": "/a"}, "method": "GET",
                                                "headers": [{"type": "Exact", "name": "h", "value": "v"}],
                                                "queryParams": [{"type": "RegularExpression", "name": "q", "value": "v.*"}]}],
                                   "filters": [filter("RequestHeaderModifier")],
                                   "backendRefs": [{"group": "", "kind": "Service", "name": "s", "namespace": "apps",
                                                    "port": 80, "weight": 3, "filters": [filter("ResponseHeaderModifier")]}]}]}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
               "metadata": {"name": "g", "namespace": "infra"},
               "spec": {"from": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": "apps"}],
                        "to": [{"group": "", "kind": "Service", "name": "s"}]}}),
    ];
    let mut left_out = 0;
    for object in &objects {
        assert!(Objects::from_values(std::slice::from_ref(object)).skipped.is_empty());
        for (pointer, field) in fields(object, "", "") {
            if matches!(pointer.as_str(), "/apiVersion" | "/kind") {
                continue;
            }
            for replacement in &replacements {
                let mut bad = object.clone();
                *bad.pointer_mut(&pointer).unwrap() = replacement.clone();
                let read = Objects::from_values(&[bad]);
                let Some(skipped) = read.skipped.first() else { continue };
                left_out += 1;
                let first = field.split(['.', '[']).next().unwrap();
                let last = pointer.rsplit('/').find(|s| s.parse::<usize>().is_err()).unwrap();
                assert!(
                    skipped.error.starts_with(first) && skipped.error.contains(last) && skipped.error.len() < 200,
                    "{pointer} = {replacement:.40}: {}",
                    skipped.error
                );
            }
        }
    }
    assert!(left_out > 300, "{left_out}");
}

/// Every value in `value`: its JSON pointer and its field path as errors write it (`a.b[0].c`).
fn fields(value: &Value, pointer: &str, path: &str) -> Vec<(String, String)> {
    let children: Vec<(String, String, &Value)> = match value {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| {
                (format!("{pointer}/{k}"), if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, v)
            })
            .collect(),
        Value::Array(items) => {
            items.iter().enumerate().map(|(i, v)| (format!("{pointer}/{i}"), format!("{path}[{i}]"), v)).collect()
        }
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for (pointer, path, child) in children {
        out.push((pointer.clone(), path.clone()));
        out.extend(fields(child, &pointer, &path));
    }
    out
}

/// An object with a list far longer than its CRD allows (100 000 matches; 10 000 items elsewhere,
/// which keeps the test quick without optimisation), and the field path, length and limit its
/// refusal must name.
struct Oversize {
    object: Value,
    field: &'static str,
    length: usize,
    limit: usize,
}

fn oversize_cases() -> Vec<Oversize> {
    let many = |item: Value| Value::Array(vec![item; 10_000]);
    let one_rule = |rule: Value| route("r", json!(["a.example.com"]), json!([rule]));
    let backend = json!({"name": "s", "port": 80});
    let filter =
        json!({"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "a", "value": "b"}]}});
    let mut parents = route("r", json!([]), json!([{"backendRefs": [backend]}]));
    parents["spec"]["parentRefs"] = many(json!({"name": "gw", "namespace": "infra"}));
    let grant = |from: Value, to: Value| {
        json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
               "metadata": {"name": "g", "namespace": "infra"}, "spec": {"from": from, "to": to}})
    };
    let grant_from = json!({"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": "apps"});
    let grant_to = json!({"group": "", "kind": "Service"});
    vec![
        Oversize {
            object: one_rule(json!({"matches": vec![json!({}); 100_000], "backendRefs": [backend]})),
            field: "spec.rules[0].matches",
            length: 100_000,
            limit: 64,
        },
        Oversize {
            object: route("r", json!([]), many(json!({"backendRefs": [backend]}))),
            field: "spec.rules",
            length: 10_000,
            limit: 16,
        },
        Oversize {
            object: route("r", many(json!("a.example.com")), json!([{"backendRefs": [backend]}])),
            field: "spec.hostnames",
            length: 10_000,
            limit: 16,
        },
        Oversize { object: parents, field: "spec.parentRefs", length: 10_000, limit: 32 },
        Oversize {
            object: one_rule(json!({"backendRefs": many(backend.clone())})),
            field: "spec.rules[0].backendRefs",
            length: 10_000,
            limit: 16,
        },
        Oversize {
            object: one_rule(json!({"filters": many(filter.clone()), "backendRefs": [backend]})),
            field: "spec.rules[0].filters",
            length: 10_000,
            limit: 16,
        },
        Oversize {
            object: one_rule(json!({"backendRefs": [{"name": "s", "port": 80, "filters": many(filter)}]})),
            field: "spec.rules[0].backendRefs[0].filters",
            length: 10_000,
            limit: 16,
        },
        Oversize {
            object: one_rule(json!({"matches": [{"headers": many(json!({"name": "h", "value": "v"}))}]})),
            field: "spec.rules[0].matches[0].headers",
            length: 10_000,
            limit: 16,
        },
        Oversize {
            object: one_rule(json!({"matches": [{"queryParams": many(json!({"name": "q", "value": "v"}))}]})),
            field: "spec.rules[0].matches[0].queryParams",
            length: 10_000,
            limit: 16,
        },
        Oversize {
            object: gateway(many(json!({"name": "http", "port": 80, "protocol": "HTTP"}))),
            field: "spec.listeners",
            length: 10_000,
            limit: 64,
        },
        Oversize {
            object: grant(many(grant_from.clone()), json!([grant_to.clone()])),
            field: "spec.from",
            length: 10_000,
            limit: 16,
        },
        Oversize { object: grant(json!([grant_from]), many(grant_to)), field: "spec.to", length: 10_000, limit: 16 },
    ]
}

/// Bound: an object with a list longer than its CRD allows is refused by counting that list, before
/// anything is built from it (no validation of its items, no reading, no routing, no status): the
/// error names the object, the field and the limit, wherever the object arrives.
#[test]
fn oversize_lists_are_refused_before_anything_is_built() {
    use crate::gateway::status::{StatusOptions, gateway_status};
    use crate::gateway::validation::{oversize, validate};
    for case in oversize_cases() {
        let kind = case.object["kind"].as_str().unwrap();
        let name = case.object["metadata"]["name"].as_str().unwrap();
        let too_many = format!("{}: Too many: {}: must have at most {} items", case.field, case.length, case.limit);
        assert_eq!(oversize(&case.object).map(|e| e.to_string()).as_deref(), Some(too_many.as_str()));
        // The apiserver's answer: the object named, the field and the limit; the items not looked into.
        let verdict = validate(&case.object).unwrap();
        let message = verdict.message().unwrap();
        assert!(message.starts_with(&format!("{kind}.gateway.networking.k8s.io \"{name}\" is invalid: ")), "{message}");
        assert!(message.contains(&too_many), "{message}");
        assert_eq!(verdict.errors.len(), 2, "{message}"); // the refusal, and the CEL rules not checked
        // Read from manifests (checked or not): left out with that error, never read.
        let values = [gateway(http_listener()), case.object.clone()];
        for objects in [Objects::from_checked_values(&values), Objects::from_values(&values)] {
            let skipped: Vec<_> = objects.skipped.iter().filter(|s| s.kind == kind).collect();
            assert_eq!(skipped.len(), 1, "{kind} {}: {:?}", case.field, objects.skipped);
            assert_eq!(skipped[0].name, name);
            assert!(skipped[0].error.contains(&too_many), "{}", skipped[0].error);
            assert!(objects.routes.is_empty() && objects.grants.is_empty());
        }
        // Status: left as it is, a note saying why (a ReferenceGrant has none).
        if kind == "ReferenceGrant" {
            continue;
        }
        let report = gateway_status(&values[1..], &StatusOptions::default());
        let object = report.objects.iter().find(|o| o.kind == kind).unwrap();
        assert!(object.status.is_none(), "{kind} {}", case.field);
        assert!(object.notes.iter().any(|n| n.contains(&too_many)), "{:?}", object.notes);
    }
}

/// The limits are the CRD's: a list at its limit is read, one item more is refused.
#[test]
fn lists_at_their_limit_are_read() {
    let backend = json!({"name": "s", "port": 80});
    let matches = |n: usize| {
        let list: Vec<Value> = (0..n).map(|i| json!({"path": {"value": format!("/m{i}")}})).collect();
        route("r", json!(["a.example.com"]), json!([{"matches": list, "backendRefs": [backend]}]))
    };
    let read = |object: Value| Objects::from_checked_values(&[gateway(http_listener()), object]);
    assert_eq!(read(matches(64)).routes.len(), 1);
    let refused = read(matches(65));
    assert!(refused.routes.is_empty());
    assert!(refused.skipped[0].error.contains("spec.rules[0].matches: Too many: 65: must have at most 64 items"));
    let router = compile(&read(matches(64)), &GatewayOptions::default());
    let request = GatewayRequest::new("a.example.com", "/m63/x");
    assert_eq!(
        router.route(&request).view(&request).backend.and_then(|b| b.service).map(|s| s.name).as_deref(),
        Some("s")
    );
}

/// A redirect's `Location` and a rewritten upstream path carry text from the manifest and the
/// client: what RFC 3986 does not allow there (`"`, `<`, `>`, space, non-ASCII) is
/// percent-encoded, so no home (CLI, npm, Envoy filter) writes markup or a header-breaking byte;
/// valid escapes (`%2F`) and the characters a path and query allow stay as written.
#[test]
fn redirects_and_rewrites_percent_encode_what_they_write() {
    let xss = "/\"><img src=x onerror=alert(1)>";
    let rules = json!([
        {"matches": [{"path": {"type": "PathPrefix", "value": "/full"}}],
         "filters": [{"type": "RequestRedirect", "requestRedirect": {"path": {"type": "ReplaceFullPath", "replaceFullPath": xss}}}]},
        {"matches": [{"path": {"type": "PathPrefix", "value": "/prefix"}}],
         "filters": [{"type": "RequestRedirect", "requestRedirect": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/new <x>"}}}]},
        {"matches": [{"path": {"type": "PathPrefix", "value": "/same"}}],
         "filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https"}}]},
        {"matches": [{"path": {"type": "PathPrefix", "value": "/rewrite"}}],
         "filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/caf\u{e9}|{}"}}}],
         "backendRefs": [{"name": "s", "port": 80}]}
    ]);
    let values = vec![gateway(http_listener()), route("r", json!([]), rules)];
    let router = compile(&Objects::from_checked_values(&values), &GatewayOptions::default());
    let location = |target: &str| {
        let request = GatewayRequest::new("h", target);
        router.route(&request).view(&request).redirect.map(|r| r.location)
    };
    assert_eq!(location("/full").as_deref(), Some("http://h/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E"));
    assert_eq!(location("/prefix/a%2Fb?q=<\">&r=1").as_deref(), Some("http://h/new%20%3Cx%3E/a%2Fb?q=%3C%22%3E&r=1"));
    // The request's own path and host, when the redirect keeps them: the client's text.
    assert_eq!(location("/same/<é>?a=b").as_deref(), Some("https://h/same/%3C%C3%A9%3E?a=b"));
    // The client's host cannot end the authority early (`@`, `/`); an IP literal keeps its brackets.
    for (host, location) in [
        ("h\"<", "https://h%22%3C/same"),
        ("a.com@evil.com", "https://a.com%40evil.com/same"),
        ("a.com/evil", "https://a.com%2Fevil/same"),
        ("[::1]", "https://[::1]/same"),
    ] {
        let request = GatewayRequest::new(host, "/same");
        let view = router.route(&request).view(&request);
        assert_eq!(view.redirect.map(|r| r.location).as_deref(), Some(location), "{host}");
    }
    let request = GatewayRequest::new("h", "/rewrite/x y?q=1");
    let upstream = router.route(&request).view(&request).gateway.and_then(|g| g.upstream).map(|u| u.path);
    assert_eq!(upstream.as_deref(), Some("/caf%C3%A9%7C%7B%7D/x%20y?q=1"));
    // A redirect hostname is a DNS name: the CRD's pattern leaves an HTTPRoute with markup there
    // out of a checked read.
    let bad = json!([{"filters": [{"type": "RequestRedirect", "requestRedirect": {"hostname": "a\"><b"}}]}]);
    let checked = Objects::from_checked_values(&[gateway(http_listener()), route("bad", json!([]), bad)]);
    assert_eq!(checked.skipped.len(), 1, "{:?}", checked.skipped);
    assert!(checked.skipped[0].error.contains("hostname"), "{}", checked.skipped[0].error);
}

/// Integers out of range (2^64, which no JSON or YAML reader keeps as an integer; negative;
/// fractional; just over the type or the CRD's range) in every integer field an HTTPRoute or
/// Gateway routes by: the object is left out with an error that names the field (with its
/// indexes) and the range allowed, never "invalid type: integer ... as u128", nor a whole
/// document refused. Through YAML, as the CLI, npm package and Envoy filter read it: the
/// apiserver's own message, the object named.
#[test]
fn out_of_range_integers_name_their_field_and_range() {
    let huge: Value = serde_json::from_str("18446744073709551616").unwrap();
    let route_with = |backend: Value, redirect: Value| {
        route(
            "r",
            json!([]),
            json!([{"backendRefs": [{"name": "a", "port": 80}, backend]},
                   {"filters": [{"type": "RequestRedirect", "requestRedirect": redirect}]}]),
        )
    };
    let cases = [
        ("spec.rules[0].backendRefs[1].weight", "from 0 to 1000000", "weight", false),
        ("spec.rules[0].backendRefs[1].port", "from 0 to 65535", "port", false),
        ("spec.rules[1].filters[0].requestRedirect.port", "from 0 to 65535", "port", true),
        ("spec.rules[1].filters[0].requestRedirect.statusCode", "from 0 to 65535", "statusCode", true),
    ];
    let too_big = |field: &str| if field == "weight" { json!(1_000_001) } else { json!(65_536) };
    for (path, range, field, in_redirect) in cases {
        for bad in [huge.clone(), json!(-1), json!(1.5), json!(-9.3e18), too_big(field)] {
            let mut backend = json!({"name": "b", "port": 80});
            let mut redirect = json!({"scheme": "https"});
            let target = if in_redirect { &mut redirect } else { &mut backend };
            target[field] = bad.clone();
            let objects = Objects::from_values(&[gateway(http_listener()), route_with(backend, redirect)]);
            assert_eq!(objects.skipped.len(), 1, "{path} = {bad}");
            let error = &objects.skipped[0].error;
            assert!(error.starts_with(&format!("{path}: expected an integer {range}, found ")), "{error}");
        }
    }
    // The other ports: a listener's, a parentRef's, a Service's.
    for bad in [huge.clone(), json!(-1), json!(80.5), json!(65_536)] {
        let range = format!("expected an integer from 0 to 65535, found {bad}");
        let listener = json!([{"name": "http", "port": bad, "protocol": "HTTP"}]);
        let objects = Objects::from_values(&[gateway(listener)]);
        assert_eq!(objects.skipped[0].error, format!("spec.listeners[0].port: {range}"));
        let mut parent = route("p", json!([]), json!([]));
        parent["spec"]["parentRefs"][0]["port"] = bad.clone();
        let objects = Objects::from_values(&[parent]);
        assert_eq!(objects.skipped[0].error, format!("spec.parentRefs[0].port: {range}"));
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "apps"},
                             "spec": {"ports": [{"port": bad}]}});
        let objects = Objects::from_values(&[service]);
        assert_eq!(objects.skipped[0].error, format!("spec.ports[0].port: {range}"));
    }

    let yaml = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: apps}\n\
                spec:\n  rules:\n  - backendRefs:\n    - {name: a, port: 80}\n    - {name: b, port: 80, weight: 18446744073709551616}\n";
    let input = crate::input::parse("route.yaml", yaml).expect("the document is read");
    let values: Vec<Value> = input.gateway_api.iter().map(|v| v.value.clone()).collect();
    let unchecked = Objects::from_values(&values);
    assert!(
        unchecked.skipped[0]
            .error
            .starts_with("spec.rules[0].backendRefs[1].weight: expected an integer from 0 to 1000000")
    );
    let checked = Objects::from_input(&values, &[]);
    let skipped = &checked.skipped[0];
    assert_eq!((skipped.kind.as_str(), skipped.name.as_str()), ("HTTPRoute", "r"));
    assert!(
        skipped.error.contains("spec.rules[0].backendRefs[1].weight")
            && skipped.error.contains("should be less than or equal to 1000000"),
        "{}",
        skipped.error
    );
}

/// Bound: an HTTPRoute and a GRPCRoute sharing a hostname on a listener are decided once per
/// listener for the table, status and lint alike (was route by route in status and lint: 10 000 of
/// each kind took 28 s for status in release, quadratic in the routes). 10 000 of each kind, every
/// GRPCRoute older than the HTTPRoute with its hostname.
#[test]
fn many_routes_of_both_kinds_sharing_hostnames_are_decided_in_linear_time() {
    let n = 10_000;
    let mut values = vec![gateway(http_listener())];
    for (kind, second) in [("GRPCRoute", "00"), ("HTTPRoute", "01")] {
        for i in 0..n {
            let mut r = route(&format!("r{i}"), json!([format!("h{i}.example.com")]), json!([{}]));
            r["kind"] = json!(kind);
            r["metadata"]["creationTimestamp"] = json!(format!("2026-01-01T00:00:{second}Z"));
            values.push(r);
        }
    }
    let objects = Objects::from_values(&values);
    let router = compile(&objects, &GatewayOptions::default());
    let lost = router.lint().iter().filter(|d| d.message.contains("(Conflicted)")).count();
    assert_eq!(lost, n);
    let report = crate::gateway::status::gateway_status(&values, &Default::default());
    let status = |o: &crate::gateway::status::ObjectStatus| serde_json::to_value(&o.status).unwrap();
    let gateway = report.objects.iter().find(|o| o.kind == "Gateway").unwrap();
    assert_eq!(status(gateway)["listeners"][0]["attachedRoutes"], json!(n));
    let routes: Vec<_> = report.objects.iter().filter(|o| o.kind != "Gateway").collect();
    assert_eq!(routes.len(), 2 * n);
    for o in routes {
        let expected = if o.kind == "GRPCRoute" { "Accepted" } else { "Conflicted" };
        assert_eq!(status(o)["parents"][0]["conditions"][0]["reason"], expected, "{} {}", o.kind, o.name);
    }
}
