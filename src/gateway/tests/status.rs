//! The status a Gateway API controller writes (`crate::gateway::status`), each case from
//! the reason docs of the API types at v1.6.1 (`shared_types.go`, `gateway_types.go`,
//! `gatewayclass_types.go`, `httproute_types.go`).

use crate::gateway::status::{
    DEFAULT_CONTROLLER_NAME, GatewayStatusAddress, GatewayStatusReport, ObjectStatus, StatusOptions, gateway_status,
};
use crate::status::StatusUpdate;
use serde_json::{Value, json};

const TIME: &str = "2026-01-02T03:04:05Z";

fn options() -> StatusOptions {
    StatusOptions { transition_time: TIME.into(), ..StatusOptions::default() }
}

fn gateway(listeners: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
           "metadata": {"name": "gw", "namespace": "infra", "generation": 2},
           "spec": {"gatewayClassName": "eg", "listeners": listeners}})
}

fn http(name: &str, extra: Value) -> Value {
    let mut l = json!({"name": name, "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}});
    l.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    l
}

fn route(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
           "metadata": {"name": name, "namespace": "shop", "generation": 5}, "spec": spec})
}

fn to_gw(extra: Value) -> Value {
    let mut p = json!({"name": "gw", "namespace": "infra"});
    p.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    p
}

fn run(values: &[Value]) -> GatewayStatusReport {
    gateway_status(values, &options())
}

fn find<'a>(report: &'a GatewayStatusReport, kind: &str, name: &str) -> &'a ObjectStatus {
    report.objects.iter().find(|o| o.kind == kind && o.name == name).unwrap_or_else(|| panic!("no {kind} {name}"))
}

fn status(report: &GatewayStatusReport, kind: &str, name: &str) -> Value {
    serde_json::to_value(&find(report, kind, name).status).unwrap()
}

/// `(type, status, reason)` of each condition.
fn conditions(conditions: &Value) -> Vec<(String, String, String)> {
    conditions.as_array().unwrap().iter().map(|c| (s(&c["type"]), s(&c["status"]), s(&c["reason"]))).collect()
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn t(type_: &str, status: &str, reason: &str) -> (String, String, String) {
    (type_.into(), status.into(), reason.into())
}

/// The route's `Accepted` and `ResolvedRefs` of its only parent: (reason, message) each.
fn parent(report: &GatewayStatusReport, name: &str) -> ((String, String), (String, String)) {
    let st = status(report, "HTTPRoute", name);
    let parents = st["parents"].as_array().unwrap();
    assert_eq!(parents.len(), 1, "{st}");
    let c = &parents[0]["conditions"];
    assert_eq!((s(&c[0]["type"]), s(&c[1]["type"])), ("Accepted".into(), "ResolvedRefs".into()));
    ((s(&c[0]["reason"]), s(&c[0]["message"])), (s(&c[1]["reason"]), s(&c[1]["message"])))
}

fn accepted_reason(values: &[Value], name: &str) -> (String, String) {
    parent(&run(values), name).0
}

#[test]
fn an_attached_route_is_accepted_with_its_parent_ref_echoed() {
    let values = [
        gateway(json!([http("web", json!({}))])),
        route("r", json!({"parentRefs": [{"name": "gw", "namespace": "infra", "sectionName": "web"}]})),
    ];
    let report = run(&values);
    assert_eq!(report.controller_name, DEFAULT_CONTROLLER_NAME);
    let st = status(&report, "HTTPRoute", "r");
    let entry = &st["parents"][0];
    assert_eq!(
        entry["parentRef"],
        json!({"group": "gateway.networking.k8s.io", "kind": "Gateway", "namespace": "infra", "name": "gw", "sectionName": "web"})
    );
    assert_eq!(entry["controllerName"], DEFAULT_CONTROLLER_NAME);
    assert_eq!(
        conditions(&entry["conditions"]),
        [t("Accepted", "True", "Accepted"), t("ResolvedRefs", "True", "ResolvedRefs")]
    );
    assert_eq!(entry["conditions"][0]["observedGeneration"], 5);
    assert_eq!(entry["conditions"][0]["lastTransitionTime"], TIME);
    // A parentRef without namespace names the route's namespace (echoed so).
    let mut gw = gateway(json!([http("web", json!({}))]));
    gw["metadata"]["namespace"] = json!("shop");
    let st = status(&run(&[gw, route("r", json!({"parentRefs": [{"name": "gw"}]}))]), "HTTPRoute", "r");
    assert_eq!(st["parents"][0]["parentRef"]["namespace"], "shop");
    assert_eq!(st["parents"][0]["conditions"][0]["reason"], "Accepted");
}

/// `RouteReasonNoMatchingParent`: "a Route ParentRef specifies a Port and/or SectionName that does
/// not match any Listeners in the Gateway".
#[test]
fn no_matching_parent_for_section_name_and_port() {
    let gw = gateway(json!([http("web", json!({}))]));
    let (reason, message) =
        accepted_reason(&[gw.clone(), route("r", json!({"parentRefs": [to_gw(json!({"sectionName": "api"}))]}))], "r");
    assert_eq!(reason, "NoMatchingParent");
    assert!(message.contains("\"api\"") && message.contains("listeners: web"), "{message}");
    let (reason, message) =
        accepted_reason(&[gw, route("r", json!({"parentRefs": [to_gw(json!({"port": 8080}))]}))], "r");
    assert_eq!(reason, "NoMatchingParent");
    assert!(message.contains("8080"), "{message}");
}

/// `RouteReasonNotAllowedByListeners`: "the Gateway has no Listener whose allowedRoutes criteria
/// permit the route" (namespaces, and kinds).
#[test]
fn not_allowed_by_listeners() {
    let same = gateway(json!([{"name": "web", "port": 80, "protocol": "HTTP"}]));
    let (reason, message) = accepted_reason(&[same, route("r", json!({"parentRefs": [to_gw(json!({}))]}))], "r");
    assert_eq!(reason, "NotAllowedByListeners");
    assert!(message.contains("shop"), "{message}");
    let grpc_only = gateway(json!([http("web", json!({"allowedRoutes": {"kinds": [{"kind": "GRPCRoute"}]}}))]));
    let (reason, _) = accepted_reason(&[grpc_only, route("r", json!({"parentRefs": [to_gw(json!({}))]}))], "r");
    assert_eq!(reason, "NotAllowedByListeners");
}

/// `RouteReasonNoMatchingListenerHostname`: "the Gateway has no compatible Listeners whose Hostname
/// matches the route".
#[test]
fn no_matching_listener_hostname() {
    let gw = gateway(json!([http("web", json!({"hostname": "*.example.com"}))]));
    let (reason, message) = accepted_reason(
        &[gw, route("r", json!({"parentRefs": [to_gw(json!({}))], "hostnames": ["shop.example.org"]}))],
        "r",
    );
    assert_eq!(reason, "NoMatchingListenerHostname");
    assert!(message.contains("shop.example.org") && message.contains("*.example.com"), "{message}");
}

/// `RouteReasonUnsupportedValue`: "Unknown values here must result in the implementation setting
/// the Accepted Condition for the Route to `status: False`, with a Reason of `UnsupportedValue`."
#[test]
fn unsupported_values() {
    let gw = gateway(json!([http("web", json!({}))]));
    let cases = [
        (json!({"matches": [{"method": "BREW"}]}), "rules[0].matches[0].method \"BREW\""),
        (json!({"filters": [{"type": "Teleport"}]}), "rules[0].filters[0].type \"Teleport\""),
        (
            json!({"filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "ftp"}}]}),
            "requestRedirect.scheme \"ftp\"",
        ),
        (json!({"filters": [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 304}}]}), "statusCode 304"),
        (
            json!({"filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "Squash"}}}]}),
            "urlRewrite.path.type \"Squash\"",
        ),
        // An enum value the decoder itself refuses: the route is read for its parentRefs only.
        (json!({"matches": [{"path": {"type": "Glob", "value": "/x"}}]}), "Glob"),
    ];
    for (rule, expected) in cases {
        let values = [gw.clone(), route("r", json!({"parentRefs": [to_gw(json!({}))], "rules": [rule]}))];
        let report = run(&values);
        let accepted = &status(&report, "HTTPRoute", "r")["parents"][0]["conditions"][0];
        assert_eq!(accepted["type"], "Accepted", "{expected}");
        let (reason, message) = (s(&accepted["reason"]), s(&accepted["message"]));
        assert_eq!(reason, "UnsupportedValue", "{expected}");
        assert!(message.contains(expected), "{expected}: {message}");
        // Not accepted: not counted on the listener.
        assert_eq!(status(&report, "Gateway", "gw")["listeners"][0]["attachedRoutes"], 0, "{expected}");
    }
}

fn resolved(values: &[Value]) -> (String, String) {
    parent(&run(values), "r").1
}

/// The `ResolvedRefs` reasons: `BackendNotFound`, `RefNotPermitted`, `InvalidKind`.
#[test]
fn resolved_refs_reasons() {
    let gw = gateway(json!([http("web", json!({}))]));
    let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "cart", "namespace": "shop"},
                          "spec": {"ports": [{"port": 8080}]}});
    let with =
        |backend: Value| route("r", json!({"parentRefs": [to_gw(json!({}))], "rules": [{"backendRefs": [backend]}]}));

    let ok = resolved(&[gw.clone(), service.clone(), with(json!({"name": "cart", "port": 8080}))]);
    assert_eq!(ok.0, "ResolvedRefs");
    let (reason, message) = resolved(&[gw.clone(), service.clone(), with(json!({"name": "nope", "port": 8080}))]);
    assert_eq!(reason, "BackendNotFound");
    assert!(message.contains("rules[0].backendRefs[0]: Service shop/nope not found"), "{message}");
    let (reason, message) = resolved(&[gw.clone(), service.clone(), with(json!({"name": "cart", "port": 9090}))]);
    assert_eq!(reason, "BackendNotFound");
    assert!(message.contains("no port 9090"), "{message}");
    let (reason, message) = resolved(&[gw.clone(), with(json!({"name": "db", "namespace": "data", "port": 5432}))]);
    assert_eq!(reason, "RefNotPermitted");
    assert!(message.contains("data/db") && message.contains("ReferenceGrant"), "{message}");
    let grant = json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
                       "metadata": {"name": "g", "namespace": "data"},
                       "spec": {"from": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": "shop"}],
                                "to": [{"group": "", "kind": "Service"}]}});
    assert_eq!(
        resolved(&[gw.clone(), grant, with(json!({"name": "db", "namespace": "data", "port": 5432}))]).0,
        "ResolvedRefs"
    );
    let (reason, message) =
        resolved(&[gw.clone(), with(json!({"group": "example.com", "kind": "Bucket", "name": "b"}))]);
    assert_eq!(reason, "InvalidKind");
    assert!(message.contains("Bucket") && message.contains("example.com"), "{message}");
}

/// `ListenerStatus.AttachedRoutes`: "the number of Routes with the Accepted condition set to
/// True", attachment "based solely on the combination of the AllowedRoutes field ... and the
/// Route's ParentRefs"; ResolvedRefs does not matter.
#[test]
fn attached_routes_counts() {
    let gw = gateway(json!([
        http("web", json!({})),
        http("api", json!({"port": 8080})),
        {"name": "internal", "port": 9090, "protocol": "HTTP"}
    ]));
    let values = [
        gw,
        // Attaches to web and api (no sectionName): counted on both.
        route("both", json!({"parentRefs": [to_gw(json!({}))]})),
        // Only web.
        route("web-only", json!({"parentRefs": [to_gw(json!({"sectionName": "web"}))]})),
        // A bad backend: still attached and counted.
        route(
            "bad-backend",
            json!({"parentRefs": [to_gw(json!({"port": 8080}))],
                                    "rules": [{"backendRefs": [{"kind": "Bucket", "group": "x", "name": "b"}]}]}),
        ),
        // internal allows only the Gateway's namespace: not counted.
        route("not-allowed", json!({"parentRefs": [to_gw(json!({"sectionName": "internal"}))]})),
        // Another Gateway: not counted.
        route("elsewhere", json!({"parentRefs": [{"name": "other", "namespace": "infra"}]})),
    ];
    let report = run(&values);
    let st = status(&report, "Gateway", "gw");
    let counts: Vec<(String, u64)> = st["listeners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (s(&l["name"]), l["attachedRoutes"].as_u64().unwrap()))
        .collect();
    assert_eq!(counts, [("web".into(), 2), ("api".into(), 2), ("internal".into(), 0)]);
    assert_eq!(parent(&report, "bad-backend").1.0, "InvalidKind");
    assert_eq!(parent(&report, "not-allowed").0.0, "NotAllowedByListeners");
    // The parentRef to a Gateway not in the input gets no entry, and a note says so.
    let elsewhere = find(&report, "HTTPRoute", "elsewhere");
    assert!(elsewhere.status.is_none(), "{:?}", elsewhere.status);
    assert_eq!(elsewhere.update, StatusUpdate::Untouched);
    assert!(elsewhere.notes[0].contains("infra/other is not in the input"), "{:?}", elsewhere.notes);
}

#[test]
fn a_route_to_two_gateways_gets_an_entry_for_each_it_can_find() {
    let gw2 = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
                     "metadata": {"name": "gw2", "namespace": "infra"},
                     "spec": {"gatewayClassName": "eg", "listeners": [{"name": "web", "port": 80, "protocol": "HTTP"}]}});
    let values = [
        gateway(json!([http("web", json!({}))])),
        gw2,
        route(
            "r",
            json!({"parentRefs": [to_gw(json!({})), {"name": "gw2", "namespace": "infra"},
                                         {"name": "gone", "namespace": "infra"}, {"kind": "Service", "group": "", "name": "mesh"}]}),
        ),
    ];
    let report = run(&values);
    let st = status(&report, "HTTPRoute", "r");
    let reasons: Vec<String> =
        st["parents"].as_array().unwrap().iter().map(|p| s(&p["conditions"][0]["reason"])).collect();
    assert_eq!(reasons, ["Accepted", "NotAllowedByListeners"]);
    let notes = &find(&report, "HTTPRoute", "r").notes;
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[1].contains("is not a Gateway"), "{notes:?}");
    // gw2 has no observedGeneration: its metadata has none.
    assert!(status(&report, "Gateway", "gw2")["conditions"][0].get("observedGeneration").is_none());
}

/// `GatewaySpec.Listeners`: "each listener in a set MUST have a unique combination of Port,
/// Protocol, and, if supported by the protocol, Hostname"; conflicted listeners are not accepted
/// (`listenerset-hostname-conflict` conformance), and the Gateway says `ListenersNotValid`.
#[test]
fn listener_conflicts_and_unsupported_protocols() {
    let gw = gateway(json!([
        http("a", json!({"hostname": "shop.example.com"})),
        http("b", json!({"hostname": "SHOP.example.com"})),
        http("c", json!({"hostname": "api.example.com"})),
        http("d", json!({"port": 443, "protocol": "HTTPS"})),
        http("e", json!({"port": 443, "protocol": "TLS"})),
        http("f", json!({"port": 5432, "protocol": "TCP"})),
    ]));
    let report = run(&[gw]);
    let st = status(&report, "Gateway", "gw");
    let listener = |name: &str| {
        let l = st["listeners"].as_array().unwrap().iter().find(|l| l["name"] == name).unwrap().clone();
        conditions(&l["conditions"])
    };
    assert_eq!(
        listener("a"),
        [
            t("Accepted", "False", "HostnameConflict"),
            t("Programmed", "False", "HostnameConflict"),
            t("ResolvedRefs", "True", "ResolvedRefs"),
            t("Conflicted", "True", "HostnameConflict")
        ]
    );
    assert_eq!(listener("b")[3], t("Conflicted", "True", "HostnameConflict"));
    assert_eq!(
        listener("c"),
        [
            t("Accepted", "True", "Accepted"),
            t("Programmed", "True", "Programmed"),
            t("ResolvedRefs", "True", "ResolvedRefs"),
            t("Conflicted", "False", "NoConflicts")
        ]
    );
    assert_eq!(listener("d")[0], t("Accepted", "False", "ProtocolConflict"));
    assert_eq!(listener("e")[3], t("Conflicted", "True", "ProtocolConflict"));
    assert_eq!(listener("f")[0], t("Accepted", "False", "UnsupportedProtocol"));
    let f = st["listeners"].as_array().unwrap().iter().find(|l| l["name"] == "f").unwrap();
    assert_eq!(f["supportedKinds"], json!([]));
    assert_eq!(
        conditions(&st["conditions"]),
        [t("Accepted", "True", "ListenersNotValid"), t("Programmed", "True", "Programmed")]
    );
    assert!(s(&st["conditions"][0]["message"]).contains("accepted: c"), "{st}");

    // No valid listener at all: not accepted, not programmed.
    let st = status(&run(&[gateway(json!([http("t", json!({"protocol": "UDP"}))]))]), "Gateway", "gw");
    assert_eq!(
        conditions(&st["conditions"]),
        [t("Accepted", "False", "ListenersNotValid"), t("Programmed", "False", "Invalid")]
    );
    // Every listener valid.
    let st = status(&run(&[gateway(json!([http("web", json!({}))]))]), "Gateway", "gw");
    assert_eq!(
        conditions(&st["conditions"]),
        [t("Accepted", "True", "Accepted"), t("Programmed", "True", "Programmed")]
    );
    assert_eq!(st["conditions"][1]["observedGeneration"], 2);
}

/// `ListenerStatus.SupportedKinds`: unsupported kinds "MUST NOT appear in this list and an
/// implementation MUST set the ResolvedRefs condition to False with the InvalidRouteKinds reason"
/// (conformance `gateway-invalid-route-kind`).
#[test]
fn invalid_route_kinds() {
    let gw = gateway(json!([
        http("only-invalid", json!({"allowedRoutes": {"kinds": [{"kind": "FooRoute"}]}})),
        http("mixed", json!({"port": 81, "allowedRoutes": {"kinds": [{"kind": "FooRoute"}, {"kind": "HTTPRoute"}]}})),
    ]));
    let st = status(&run(&[gw]), "Gateway", "gw");
    let only = &st["listeners"][0];
    assert_eq!(only["supportedKinds"], json!([]));
    assert_eq!(conditions(&only["conditions"])[2], t("ResolvedRefs", "False", "InvalidRouteKinds"));
    assert!(s(&only["conditions"][2]["message"]).contains("FooRoute"));
    let mixed = &st["listeners"][1];
    assert_eq!(mixed["supportedKinds"], json!([{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute"}]));
    assert_eq!(conditions(&mixed["conditions"])[2], t("ResolvedRefs", "False", "InvalidRouteKinds"));
}

/// `GatewayClassConditionStatusAccepted`: set "when it sees a GatewayClass using its controller
/// string"; other controllers' classes (and their Gateways, and route entries for them) are theirs.
#[test]
fn gateway_classes_accepted_and_not_ours() {
    let class = |name: &str, controller: &str| {
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass",
               "metadata": {"name": name, "generation": 1}, "spec": {"controllerName": controller}})
    };
    let values = [
        class("eg", "example.net/gateway-controller"),
        class("other", "other.io/controller"),
        gateway(json!([http("web", json!({}))])),
        route("r", json!({"parentRefs": [to_gw(json!({}))]})),
    ];
    // Accepting every class (the default).
    let report = run(&values);
    let st = status(&report, "GatewayClass", "other");
    assert_eq!(conditions(&st["conditions"]), [t("Accepted", "True", "Accepted")]);
    assert!(find(&report, "GatewayClass", "eg").namespace.is_none());

    // Only ours.
    let ours = StatusOptions { controller_name: Some("example.net/gateway-controller".into()), ..options() };
    let report = gateway_status(&values, &ours);
    assert_eq!(report.controller_name, "example.net/gateway-controller");
    assert_eq!(conditions(&status(&report, "GatewayClass", "eg")["conditions"]), [t("Accepted", "True", "Accepted")]);
    let other = find(&report, "GatewayClass", "other");
    assert!(other.status.is_none() && other.update == StatusUpdate::Untouched);
    assert!(other.notes[0].contains("another controller"), "{:?}", other.notes);
    assert_eq!(status(&report, "HTTPRoute", "r")["parents"][0]["controllerName"], "example.net/gateway-controller");

    // The Gateway's class is another controller's: the Gateway and the route entry are left alone.
    let theirs = StatusOptions { controller_name: Some("other.io/controller".into()), ..options() };
    let report = gateway_status(&values, &theirs);
    let gw = find(&report, "Gateway", "gw");
    assert!(gw.status.is_none() && gw.notes[0].contains("example.net/gateway-controller"), "{:?}", gw.notes);
    assert!(find(&report, "HTTPRoute", "r").status.is_none());
}

#[test]
fn addresses_from_the_spec_or_the_options() {
    let mut gw = gateway(json!([http("web", json!({}))]));
    let st = status(&run(std::slice::from_ref(&gw)), "Gateway", "gw");
    assert!(st.get("addresses").is_none(), "{st}");
    let given = StatusOptions {
        addresses: vec![GatewayStatusAddress { kind: "Hostname".into(), value: "lb.example.com".into() }],
        ..options()
    };
    let report = gateway_status(std::slice::from_ref(&gw), &given);
    assert_eq!(status(&report, "Gateway", "gw")["addresses"], json!([{"type": "Hostname", "value": "lb.example.com"}]));
    gw["spec"]["addresses"] = json!([{"value": "203.0.113.7"}]);
    let report = gateway_status(&[gw], &given);
    assert_eq!(status(&report, "Gateway", "gw")["addresses"], json!([{"type": "IPAddress", "value": "203.0.113.7"}]));
}

/// The `PUT .../status` requests: paths, and bodies holding the object with its new status.
#[test]
fn put_requests() {
    let values = [
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass", "metadata": {"name": "eg"},
               "spec": {"controllerName": "x/y"}}),
        gateway(json!([http("web", json!({}))])),
        route("r", json!({"parentRefs": [to_gw(json!({}))]})),
    ];
    let report = run(&values);
    let put = |kind: &str, name: &str| match &find(&report, kind, name).update {
        StatusUpdate::Put(r) => {
            assert_eq!(r.method, "PUT");
            (r.path.clone(), serde_json::from_str::<Value>(&r.body).unwrap())
        }
        other => panic!("{kind} {name}: {other:?}"),
    };
    let (path, body) = put("GatewayClass", "eg");
    assert_eq!(path, "/apis/gateway.networking.k8s.io/v1/gatewayclasses/eg/status");
    assert_eq!(body["spec"]["controllerName"], "x/y");
    assert_eq!(body["status"], status(&report, "GatewayClass", "eg"));
    let (path, body) = put("Gateway", "gw");
    assert_eq!(path, "/apis/gateway.networking.k8s.io/v1/namespaces/infra/gateways/gw/status");
    assert_eq!(body["spec"]["listeners"][0]["name"], "web");
    assert_eq!(body["status"]["listeners"][0]["attachedRoutes"], 1);
    let (path, body) = put("HTTPRoute", "r");
    assert_eq!(path, "/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/r/status");
    assert_eq!(body["apiVersion"], "gateway.networking.k8s.io/v1");
    assert_eq!(body["metadata"]["generation"], 5);
    assert_eq!(body["status"], status(&report, "HTTPRoute", "r"));
}

/// The request merges into what the object holds: other controllers' route entries and other
/// condition types are kept, an unchanged condition keeps its `lastTransitionTime`, and a status
/// already equal gets no request.
#[test]
fn requests_merge_and_skip_unchanged() {
    let mut r = route("r", json!({"parentRefs": [to_gw(json!({}))]}));
    r["status"] = json!({"parents": [
        {"parentRef": {"name": "gw", "namespace": "infra"}, "controllerName": "other.io/c",
         "conditions": [{"type": "Accepted", "status": "True", "reason": "Accepted"}]},
        {"parentRef": {"name": "old", "namespace": "infra", "group": "gateway.networking.k8s.io", "kind": "Gateway"},
         "controllerName": DEFAULT_CONTROLLER_NAME, "conditions": []},
        {"parentRef": {"group": "gateway.networking.k8s.io", "kind": "Gateway", "namespace": "infra", "name": "gw"},
         "controllerName": DEFAULT_CONTROLLER_NAME,
         "conditions": [{"type": "Accepted", "status": "True", "reason": "Accepted", "lastTransitionTime": "2020-01-01T00:00:00Z"}]}
    ]});
    let values = [gateway(json!([http("web", json!({}))])), r];
    let report = run(&values);
    let st = status(&report, "HTTPRoute", "r");
    let parents = st["parents"].as_array().unwrap();
    assert_eq!(parents.len(), 2, "{st}");
    assert_eq!(parents[0]["controllerName"], "other.io/c");
    assert_eq!(parents[1]["parentRef"]["name"], "gw");
    assert_eq!(parents[1]["conditions"][0]["lastTransitionTime"], "2020-01-01T00:00:00Z");
    assert_eq!(parents[1]["conditions"][1]["lastTransitionTime"], TIME);

    // Written back as computed: no request the second time.
    let mut again = values.clone();
    again[1]["status"] = st.clone();
    let report = run(&again);
    assert_eq!(find(&report, "HTTPRoute", "r").update, StatusUpdate::Unchanged);

    // Conditions of other types stay on the Gateway, first.
    let mut gw = gateway(json!([http("web", json!({}))]));
    gw["status"] = json!({"conditions": [{"type": "example.com/Custom", "status": "True", "reason": "X"}]});
    let st = status(&run(&[gw]), "Gateway", "gw");
    let types: Vec<String> = st["conditions"].as_array().unwrap().iter().map(|c| s(&c["type"])).collect();
    assert_eq!(types, ["example.com/Custom", "Accepted", "Programmed"]);
}

#[test]
fn objects_in_input_order_lists_included() {
    let values = [
        route("r1", json!({})),
        json!({"apiVersion": "v1", "kind": "List", "items": [gateway(json!([])), route("r2", json!({}))]}),
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "i"}}),
    ];
    let report = run(&values);
    let order: Vec<(&str, &str, usize)> = report.objects.iter().map(|o| (o.kind, o.name.as_str(), o.index)).collect();
    assert_eq!(order, [("HTTPRoute", "r1", 0), ("Gateway", "gw", 1), ("HTTPRoute", "r2", 1)]);
    // A Gateway without listeners is not accepted.
    let st = status(&report, "Gateway", "gw");
    assert_eq!(st["conditions"][0]["status"], "False");
    // Routes without parentRefs: nothing to write.
    assert_eq!(find(&report, "HTTPRoute", "r1").update, StatusUpdate::Untouched);
}
