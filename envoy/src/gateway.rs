//! The Gateway API path: when the manifests route through their Gateway API objects
//! ([`gateway::wanted`] with the configuration's `gateway`), the core's [`GatewayRouter`] with every
//! backend's cluster name rendered once. Every call into the core's `gateway` module lives here;
//! the filter turns a [`GatewayOutcome`] into host calls.

use std::collections::HashMap;

use ingress_router::gateway::{
    self, GatewayDecision, GatewayRequest, GatewayRouter, Modifications, NoGateway, Objects,
};
use ingress_router::{BackendRef, ClusterNames, ServicePort};
use serde_json::Value;

use crate::report::{Report, Routed};

/// The compiled Gateway and the cluster of each backend it can forward to.
pub struct GatewayTable {
    router: GatewayRouter,
    /// `namespace/name` of the Gateway served.
    pub gateway: String,
    /// By namespace, then Service name: (port, cluster name) of every valid backendRef.
    clusters: HashMap<String, HashMap<String, Vec<(u16, String)>>>,
    /// Distinct cluster names, sorted.
    pub cluster_names: Vec<String>,
    /// `namespace/name` of the HTTPRoutes attached to at least one listener.
    pub routes: Vec<String>,
    /// The request headers the routes match on (lower-case): the filter reads these and no others.
    pub header_names: Vec<String>,
}

/// What the filter does with one request.
#[derive(Debug, PartialEq, Eq)]
pub enum GatewayOutcome<'t> {
    /// Set the routing header to `cluster`, and change the request as listed (URLRewrite,
    /// RequestHeaderModifier), as the core computed them.
    Forward { cluster: &'t str, modifications: Modifications<'t> },
    /// A RequestRedirect: the proxy answers it.
    Redirect { status: u32, location: String },
    /// A local answer (404: no Gateway, listener or rule; 500: a filter this proxy cannot apply,
    /// no valid backend, or the invalid backend a split picked), with the core's reason.
    Local { status: u32, reason: &'static str },
}

impl GatewayTable {
    /// Compiles the Gateway API objects (`gateway_api`, with the Services among `objects`) for
    /// `gateway` (else the only Gateway). `None` when no Gateway takes requests; the report says
    /// why, and names the objects left out (undecodable: a warning, the others serve; an error
    /// under `strict`).
    pub fn build(
        gateway_api: &[Value],
        objects: &[ingress_router::model::Object],
        options: &ingress_router::CompileOptions,
        cluster_names: &ClusterNames,
        strict: bool,
        report: &mut Report,
    ) -> Option<GatewayTable> {
        let objects = Objects::from_input(gateway_api, objects);
        for skipped in &objects.skipped {
            let line = format!("{} {:?}: {}", skipped.kind, skipped.name, skipped.error);
            match strict {
                true => report.errors.push(line),
                false => report.warnings.push(format!("{line} (left out; the others serve)")),
            }
        }
        if strict && !objects.skipped.is_empty() {
            return None;
        }
        let options = gateway::GatewayOptions::from(options);
        let router = gateway::compile(&objects, &options);
        if let Some(problem) = router.no_gateway() {
            let names: Vec<String> =
                objects.gateways.iter().map(|g| format!("{}/{}", g.metadata.namespace, g.metadata.name)).collect();
            report.errors.push(match problem {
                NoGateway::NoGateways => "the manifests hold no Gateway: nothing to route".to_string(),
                NoGateway::NotFound { gateway } => {
                    format!("gateway {gateway:?}: no such Gateway; the manifests' Gateways: {}", names.join(", "))
                }
                NoGateway::Ambiguous { .. } => format!(
                    "the manifests hold several Gateways ({}): name one with the configuration's \"gateway\"",
                    names.join(", ")
                ),
            });
            return None;
        }
        // A refused pattern matches nothing; the operator reads why here, not per request.
        for refusal in router.regex_refusals() {
            report.warnings.push(format!("{refusal} (this match is dropped; the rest of the route serves)"));
        }
        let table = router.table();
        let mut clusters: HashMap<String, HashMap<String, Vec<(u16, String)>>> = HashMap::new();
        let mut cluster_list = Vec::new();
        let mut routes = Vec::new();
        for listener in &table.listeners {
            for route in listener.routes.iter().filter(|r| r.not_attached.is_none()) {
                if !routes.contains(&route.route) {
                    routes.push(route.route.clone());
                }
                for backend in route.rules.iter().flat_map(|r| &r.backends) {
                    // An invalid backend (no port among them) answers 500 for its share: no cluster.
                    let (None, Some(port)) = (&backend.invalid, backend.port) else { continue };
                    let ports =
                        clusters.entry(backend.namespace.clone()).or_default().entry(backend.name.clone()).or_default();
                    if ports.iter().any(|(p, _)| *p == port) {
                        continue;
                    }
                    let name = cluster_names.name(&BackendRef::Service {
                        namespace: &backend.namespace,
                        name: &backend.name,
                        port: Some(ServicePort::Number(port)),
                    });
                    cluster_list.push(name.clone());
                    ports.push((port, name));
                }
            }
        }
        cluster_list.sort();
        cluster_list.dedup();
        Some(GatewayTable {
            header_names: router.header_names(),
            gateway: table.gateway.unwrap_or_default(),
            router,
            clusters,
            cluster_names: cluster_list,
            routes,
        })
    }

    fn cluster(&self, namespace: &str, name: &str, port: u16) -> Option<&str> {
        let ports = self.clusters.get(namespace)?.get(name)?;
        ports.iter().find(|(p, _)| *p == port).map(|(_, c)| c.as_str())
    }

    /// Routes one request; a split picks its backend by `random` (uniform over `u64`). Allocates
    /// for a redirect's `Location`, a rewritten path and a rule's header modifiers only.
    pub fn route(&self, request: &GatewayRequest<'_>, random: u64) -> Routed<GatewayOutcome<'_>> {
        let decision = self.router.route(request);
        Routed {
            outcome: self.outcome(&decision, request, random),
            regex_budget_exhausted: decision.regex_budget_exhausted,
        }
    }

    fn outcome<'t>(
        &'t self,
        decision: &GatewayDecision<'t>,
        request: &GatewayRequest<'_>,
        random: u64,
    ) -> GatewayOutcome<'t> {
        let status = u32::from(decision.status());
        if let Some(location) = decision.location(request) {
            return GatewayOutcome::Redirect { status, location };
        }
        let Some(backend) = decision.pick(random) else {
            return GatewayOutcome::Local { status, reason: decision.via() };
        };
        if backend.invalid.is_some() {
            return GatewayOutcome::Local { status: 500, reason: "invalid-backend" };
        }
        match backend.port.and_then(|port| self.cluster(&backend.namespace, &backend.name, port)) {
            Some(cluster) => {
                GatewayOutcome::Forward { cluster, modifications: decision.modifications(request, Some(backend)) }
            }
            // Every valid backend's cluster is rendered at configure time.
            None => GatewayOutcome::Local { status: 500, reason: "no-cluster" },
        }
    }

    /// The decision in one line (the core's), for the debug header: status, via, route, rule,
    /// match, backend.
    pub fn matched(&self, request: &GatewayRequest<'_>) -> String {
        self.router.route(request).view(request).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PluginConfig;
    use crate::routing::Routing;
    use ingress_router::gateway::HeaderAction;

    const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: infra}
spec:
  gatewayClassName: envoy
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
  - {name: https, port: 443, protocol: HTTPS, hostname: secure.example.com, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: public, namespace: infra}]
  hostnames: [shop.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /cart}}]
    filters:
    - {type: URLRewrite, urlRewrite: {hostname: cart.internal, path: {type: ReplacePrefixMatch, replacePrefixMatch: /v2}}}
    - {type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: X-Env, value: prod}], remove: [x-debug]}}
    backendRefs: [{name: cart, port: 8080}]
  - matches: [{path: {type: PathPrefix, value: /split}}]
    backendRefs:
    - {name: a, port: 80, weight: 3}
    - {name: b, port: 80, weight: 1, filters: [{type: RequestHeaderModifier, requestHeaderModifier: {add: [{name: x-side, value: b}]}}]}
  - matches: [{path: {type: PathPrefix, value: /half-broken}}]
    backendRefs: [{name: a, port: 80}, {kind: Bucket, group: example.com, name: x}]
  - matches: [{path: {type: PathPrefix, value: /old}}]
    filters: [{type: RequestRedirect, requestRedirect: {scheme: https, statusCode: 301}}]
  - matches: [{path: {type: PathPrefix, value: /beta}, headers: [{name: X-Beta, value: "yes"}]}]
    backendRefs: [{name: beta, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /ext}}]
    filters: [{type: ExtensionRef, extensionRef: {group: example.com, kind: Thing, name: t}}]
    backendRefs: [{name: a, port: 80}]
"#;

    fn build(extra: &str) -> (Option<Routing>, Report) {
        let config = format!(r#"{{"manifests": {}{extra}}}"#, serde_json::to_string(GATEWAY).unwrap());
        Routing::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 7)
    }

    fn table() -> GatewayTable {
        let (routing, report) = build("");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        match routing {
            Some(Routing::Gateway(t)) => *t,
            _ => panic!("Gateway API manifests without an Ingress route through the Gateway"),
        }
    }

    /// A pattern the core refuses (here over a small `regexLimits.size`) is named in the
    /// configure log, once, instead of silently matching nothing.
    #[test]
    fn refused_regexes_are_logged_at_configure() {
        let manifests = format!(
            "{GATEWAY}---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: re, namespace: shop}}\nspec:\n  parentRefs: [{{name: public, namespace: infra}}]\n  rules:\n  - matches: [{{path: {{type: RegularExpression, value: \"/v[0-9]+/items\"}}}}]\n    backendRefs: [{{name: a, port: 80}}]\n"
        );
        let config = |options: &str| {
            let text = format!(r#"{{"manifests": {}{options}}}"#, serde_json::to_string(&manifests).unwrap());
            Routing::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7).1
        };
        assert!(config("").warnings.iter().all(|w| !w.contains("HTTPRoute shop/re")));
        let report = config(r#", "regexLimits": {"size": 64}"#);
        let warning = report.warnings.iter().find(|w| w.contains("HTTPRoute shop/re")).expect("a warning");
        assert!(warning.contains("spec.rules[0].matches[0].path.value: too complex"), "{warning}");
        assert!(warning.contains("regex size limit of 64 bytes"), "{warning}");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
    }

    #[test]
    fn configure_renders_every_backend_once() {
        let t = table();
        assert_eq!(t.gateway, "infra/public");
        assert_eq!(t.cluster_names, ["shop/a:80", "shop/b:80", "shop/beta:80", "shop/cart:8080"]);
        assert_eq!(t.routes, ["shop/shop"]);
        assert_eq!(t.header_names, ["x-beta"], "the core's names, lower-case");
        // The template is the configuration's, as for Ingress backends.
        let (routing, _) = build(r#", "clusterTemplate": "outbound|{port}||{service}.{namespace}.svc""#);
        let Some(Routing::Gateway(t)) = routing else { panic!("a Gateway table") };
        assert!(t.cluster_names.contains(&"outbound|8080||cart.shop.svc".to_string()), "{:?}", t.cluster_names);
    }

    #[test]
    fn outcomes() {
        let t = table();
        let get = |path| GatewayRequest::new("shop.example.com", path);
        match t.route(&get("/cart/items?id=1"), 0).outcome {
            GatewayOutcome::Forward { cluster, modifications } => {
                assert_eq!(cluster, "shop/cart:8080");
                assert_eq!(modifications.host, Some("cart.internal"));
                assert_eq!(modifications.path.as_deref(), Some("/v2/items?id=1"));
                assert_eq!(
                    modifications.headers,
                    [HeaderAction::Set { name: "X-Env", value: "prod" }, HeaderAction::Remove { name: "x-debug" }]
                );
            }
            other => panic!("{other:?}"),
        }
        let side = |random| match t.route(&get("/split"), random).outcome {
            GatewayOutcome::Forward { cluster, modifications } => (cluster, modifications.headers),
            other => panic!("{other:?}"),
        };
        assert_eq!(side(0), ("shop/a:80", vec![]));
        assert_eq!(side(u64::MAX), ("shop/b:80", vec![HeaderAction::Add { name: "x-side", value: "b" }]));
        assert_eq!(
            t.route(&get("/half-broken"), u64::MAX).outcome,
            GatewayOutcome::Local { status: 500, reason: "invalid-backend" }
        );
        assert!(matches!(
            t.route(&get("/half-broken"), 0).outcome,
            GatewayOutcome::Forward { cluster: "shop/a:80", .. }
        ));
        assert_eq!(
            t.route(&get("/old/x?q"), 0).outcome,
            GatewayOutcome::Redirect { status: 301, location: "https://shop.example.com/old/x?q".into() }
        );
        assert_eq!(t.route(&get("/ext"), 0).outcome, GatewayOutcome::Local { status: 500, reason: "filter-error" });
        assert_eq!(t.route(&get("/beta"), 0).outcome, GatewayOutcome::Local { status: 404, reason: "no-match" });
        let headers = [("x-beta", "yes")];
        assert!(matches!(
            t.route(&get("/beta").with_headers(&headers), 0).outcome,
            GatewayOutcome::Forward { cluster: "shop/beta:80", .. }
        ));
        let other_port = GatewayRequest::new("shop.example.com:8080", "/cart");
        assert_eq!(t.route(&other_port, 0).outcome, GatewayOutcome::Local { status: 404, reason: "no-listener" });
        assert!(t.matched(&get("/cart")).contains("shop/shop rule 0 match 0"), "{}", t.matched(&get("/cart")));
    }

    #[test]
    fn the_gateway_is_chosen_or_the_configuration_refused() {
        let (routing, report) = build(r#", "gateway": "infra/public""#);
        assert!(matches!(routing, Some(Routing::Gateway(_))), "{:?}", report.errors);
        let (routing, report) = build(r#", "gateway": "infra/private""#);
        assert!(routing.is_none());
        assert!(
            report.errors[0].contains("\"infra/private\"") && report.errors[0].contains("infra/public"),
            "{:?}",
            report.errors
        );
        let two =
            format!("{GATEWAY}\n---\n{}", GATEWAY.split("---").next().unwrap().replace("name: public", "name: other"));
        let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(&two).unwrap());
        let (routing, report) = Routing::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 7);
        assert!(routing.is_none());
        assert!(report.errors[0].contains("several Gateways"), "{:?}", report.errors);
    }

    /// An object that cannot be decoded is left out and the others serve; `strict` refuses.
    #[test]
    fn an_undecodable_route_is_left_out_unless_strict() {
        let bad = r#"{"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": "bad", "namespace": "shop"}, "spec": {"rules": "not a list"}}"#;
        let config = |extra: &str| {
            let text = format!(r#"{{"manifests": [{}, {bad}]{extra}}}"#, serde_json::to_string(GATEWAY).unwrap());
            Routing::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7)
        };
        let (routing, report) = config("");
        assert!(matches!(routing, Some(Routing::Gateway(_))), "{:?}", report.errors);
        assert!(
            report.warnings.iter().any(|w| w.starts_with("HTTPRoute \"bad\"") && w.ends_with("the others serve)")),
            "{:?}",
            report.warnings
        );
        let (routing, report) = config(r#", "strict": true"#);
        assert!(routing.is_none());
        assert!(report.errors.iter().any(|e| e.starts_with("HTTPRoute \"bad\"")), "{:?}", report.errors);
    }

    /// The configuration's `regexLimits.scan` reaches the table: a path longer than the budget
    /// gets "no match" from the regex, marked, and the answer the core gives then; one within it
    /// matches.
    #[test]
    fn a_spent_regex_budget_is_marked() {
        let regex = "\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: re, namespace: t}\nspec:\n  parentRefs: [{name: public, namespace: infra}]\n  rules:\n  - matches: [{path: {type: RegularExpression, value: \"/re/.*\"}}]\n    backendRefs: [{name: re, port: 80}]\n";
        let text = format!(
            r#"{{"manifests": {}, "regexLimits": {{"scan": 64}}}}"#,
            serde_json::to_string(&format!("{GATEWAY}{regex}")).unwrap()
        );
        let Some(Routing::Gateway(t)) = Routing::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7).0 else {
            panic!("a Gateway table")
        };
        let short = t.route(&GatewayRequest::new("any.example.com", "/re/x"), 0);
        assert!(!short.regex_budget_exhausted);
        assert!(matches!(short.outcome, GatewayOutcome::Forward { cluster: "t/re:80", .. }));
        let long = format!("/re/{}", "x".repeat(100));
        let routed = t.route(&GatewayRequest::new("any.example.com", &long), 0);
        assert!(routed.regex_budget_exhausted);
        assert_eq!(routed.outcome, GatewayOutcome::Local { status: 404, reason: "no-match" });
        // A request that a route of its own host answers first reads no regex.
        let cart = format!("/cart/{}", "x".repeat(100));
        let routed = t.route(&GatewayRequest::new("shop.example.com", &cart), 0);
        assert!(!routed.regex_budget_exhausted);
        assert!(matches!(routed.outcome, GatewayOutcome::Forward { cluster: "shop/cart:8080", .. }));
    }

    /// Manifests with Ingresses and Gateway API objects route the Ingresses unless `gateway`
    /// names a Gateway: the core's `gateway::wanted`, as every home decides.
    #[test]
    fn mixed_manifests_route_the_ingresses_unless_a_gateway_is_named() {
        let ingress = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i, namespace: shop}\nspec:\n  defaultBackend: {service: {name: web, port: {number: 80}}}\n";
        let mixed = format!("{GATEWAY}\n---\n{ingress}");
        let config = |extra: &str| {
            let text = format!(r#"{{"manifests": {}{extra}}}"#, serde_json::to_string(&mixed).unwrap());
            Routing::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7).0
        };
        assert!(matches!(config(""), Some(Routing::Ingress(_))));
        assert!(matches!(config(r#", "gateway": "public""#), Some(Routing::Gateway(_))));
    }
}
