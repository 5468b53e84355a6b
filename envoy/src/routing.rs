//! Every call into the core lives here: reading the manifests, compiling the table, routing a
//! request. The filter itself holds no routing, validation or status logic; it turns an
//! [`Outcome`] into host calls.

use std::borrow::Cow;
use std::collections::HashMap;

use ingress_router::model::Object;
use ingress_router::{ClusterNames, Decision, Request, Router, Via, compile_seeded, input};

use crate::config::PluginConfig;
use crate::gateway::GatewayTable;
pub use crate::report::{Report, Routed};

/// The Ingresses the table leaves out for a reason other than an error (another class), in the
/// core's words: what a filter without the linter logs.
#[cfg(not(feature = "lint"))]
fn left_out(view: &ingress_router::TableView) -> Vec<String> {
    let excluded = view.excluded.iter().filter(|e| e.errors.is_empty());
    excluded.map(|e| format!("Ingress {}/{} is left out: it {}", e.namespace, e.name, e.reason)).collect()
}

/// The core's message, and for YAML text given to a filter built without YAML, what to give instead.
fn input_error(e: &input::InputError) -> String {
    match e.kind {
        input::InputErrorKind::YamlUnsupported => format!(
            "{}: YAML text, and this filter reads JSON only (built without its `yaml` feature): give the manifests \
             as JSON objects or JSON text, or let `ingress-router envoy-config` write the configuration",
            e.source
        ),
        _ => e.to_string(),
    }
}

/// What one answer of the table ([`Decision::answer`]) turns into, rendered at configure time.
#[derive(Clone, Copy, Debug)]
struct Target {
    /// Index into [`Table::clusters`].
    cluster: u32,
    /// Index into [`Table::ingresses`]; `None` for the configured default backend.
    ingress: Option<u32>,
}

/// The compiled configuration: the core's table, and what each of its answers renders to.
pub struct Table {
    router: Router,
    /// By [`Decision::answer`].
    targets: Vec<Target>,
    /// Distinct cluster names.
    pub clusters: Vec<String>,
    /// `namespace/name` of each Ingress taking part, oldest first.
    pub ingresses: Vec<String>,
    /// By answer, what the debug header says: the decision's label (the core's one line), then
    /// `namespace/name spec.rules[i].http.paths[j]`.
    matches: Vec<String>,
}

/// Where a request goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<'t> {
    Backend {
        cluster: &'t str,
        /// Index into [`Table::ingresses`] (`None`: the configured default backend).
        ingress: Option<usize>,
        /// What answered, for [`Table::matched`].
        answer: usize,
        via_default: bool,
        /// The `:path` the upstream receives instead of the request's (ingress-nginx's
        /// `rewrite-target`).
        rewritten_path: Option<String>,
    },
    /// The proxy answers with a redirect (the ingress-nginx profile).
    Redirect { status: u32, location: Cow<'t, str> },
    /// No rule matched and there is no default backend.
    NotFound,
    /// The table refuses the request before routing (its own path normalisation).
    Rejected { status: u32, reason: &'static str },
}

impl Table {
    /// Reads, validates and compiles the configuration, the table's hashes keyed by `seed`.
    /// `None` when it cannot serve; the report names every problem, each with its Ingress and
    /// field (or the configuration key), so that the log says what to fix.
    pub fn build(config: &PluginConfig, seed: u64) -> (Option<Table>, Report) {
        let mut report = Report::default();
        match read(config, &mut report) {
            Some((objects, _)) => (Table::compile(config, seed, &objects, &mut report), report),
            None => (None, report),
        }
    }

    fn compile(config: &PluginConfig, seed: u64, objects: &[Object], report: &mut Report) -> Option<Table> {
        if !objects.iter().any(|o| matches!(o, Object::Ingress(_))) {
            report.errors.push("the manifests hold no Ingress: nothing to route".into());
            return None;
        }

        let router = compile_seeded(objects, &config.options, seed);
        let view = router.table();
        // An Ingress the apiserver would reject is never half-served: the core leaves it out whole.
        // By default the others serve (one tenant's mistake must not freeze every other tenant's
        // routing); `strict` refuses the update instead, and Envoy keeps the table it has.
        for excluded in view.excluded.iter().filter(|e| !e.errors.is_empty()) {
            let key = format!("{}/{}", excluded.namespace, excluded.name);
            for error in &excluded.errors {
                let line = format!("Ingress {key}: {error}");
                match config.strict {
                    true => report.errors.push(line),
                    false => report.warnings.push(format!("{line} (this Ingress is left out; the others serve)")),
                }
            }
            report.excluded.push(key);
        }
        if !config.strict && view.ingresses.is_empty() && view.default_backend.is_none() && !report.excluded.is_empty()
        {
            report.errors.push(format!(
                "no valid Ingress and no default backend: nothing would be served (left out: {})",
                report.excluded.join(", ")
            ));
        }
        // The linter's warnings and notes with the `lint` feature (the unit tests, run with it,
        // check them); without it, what the table itself says: which Ingresses are left out, and why.
        #[cfg(any(test, feature = "lint"))]
        for diagnostic in router.lint(objects).iter().filter(|d| d.severity != ingress_router::Severity::Error) {
            let objects: Vec<String> = diagnostic.objects.iter().map(|o| o.to_string()).collect();
            report.warnings.push(format!("{diagnostic} [{}]", objects.join(", ")));
        }
        #[cfg(not(any(test, feature = "lint")))]
        report.warnings.extend(left_out(&view));
        if !report.errors.is_empty() {
            return None;
        }
        let ingresses = view.ingresses.iter().map(|i| i.key()).collect();
        match Table::with_targets(router, ingresses, &config.cluster_names) {
            Ok(table) => Some(table),
            Err(e) => {
                report.errors.push(e);
                None
            }
        }
    }

    /// Renders every answer of the table once: its cluster name, its Ingress, its debug text.
    fn with_targets(router: Router, ingresses: Vec<String>, cluster_names: &ClusterNames) -> Result<Table, String> {
        let rank: HashMap<&str, u32> = ingresses.iter().enumerate().map(|(i, k)| (k.as_str(), i as u32)).collect();
        let mut clusters = Vec::new();
        let mut cluster_index = HashMap::new();
        let mut targets = Vec::with_capacity(router.answer_count());
        let mut matches = Vec::with_capacity(router.answer_count());
        for answer in 0..router.answer_count() {
            let decision = router.answer(answer).ok_or("the table numbers its answers with a gap")?;
            let (ingress, field) = answer_source(&decision);
            let name = decision
                .backend()
                .map(|b| cluster_names.name(&b))
                .ok_or_else(|| format!("{ingress} {field}: the backend names no Service or resource"))?;
            let cluster = *cluster_index.entry(name.clone()).or_insert_with(|| {
                clusters.push(name);
                clusters.len() as u32 - 1
            });
            targets.push(Target { cluster, ingress: rank.get(ingress.as_str()).copied() });
            matches.push(format!("{decision} {ingress} {field}"));
        }
        Ok(Table { router, targets, clusters, ingresses, matches })
    }

    /// `<label> namespace/name spec.rules[i].http.paths[j]` (or `spec.defaultBackend`) of an answer.
    pub fn matched(&self, answer: usize) -> &str {
        self.matches.get(answer).map_or("", String::as_str)
    }

    /// The request headers the table's decisions read (lower-case; empty with the spec profile):
    /// the filter fetches these and no others.
    pub fn header_names(&self) -> Vec<String> {
        self.router.header_names()
    }

    /// Whether decisions read the request's scheme (the ingress-nginx profile's redirects): the
    /// filter reads `x-forwarded-proto` only then.
    pub fn reads_scheme(&self) -> bool {
        self.router.reads_scheme()
    }

    /// Routes one request: `host` from `:authority`, `path` from `:path` (query included; the
    /// spec profile ignores it, and normalises the path when the options ask), and for the
    /// ingress-nginx profile its scheme and the headers [`header_names`](Self::header_names)
    /// lists. A weighted split takes the side that `random` (uniform over `u64`) falls on
    /// ([`Decision::pick_side`]). With the spec profile, allocates nothing.
    pub fn route(&self, request: &Request<'_>, random: u64) -> Routed<Outcome<'_>> {
        let decision = self.router.route(request);
        Routed { outcome: self.outcome(&decision, random), regex_budget_exhausted: decision.regex_budget_exhausted() }
    }

    fn outcome<'t>(&'t self, decision: &Decision<'t>, random: u64) -> Outcome<'t> {
        if let Some(rejection) = decision.rejection() {
            return Outcome::Rejected { status: u32::from(rejection.status()), reason: rejection.message() };
        }
        if let Some(redirect) = decision.redirect() {
            return Outcome::Redirect { status: u32::from(redirect.status), location: redirect.location.clone() };
        }
        // A split has no answer of its own: the side picked has one.
        let answer = decision.answer().or_else(|| decision.pick_side(random).map(|side| side.answer));
        let Some((answer, target)) = answer.and_then(|a| Some((a, self.targets.get(a)?))) else {
            return Outcome::NotFound;
        };
        Outcome::Backend {
            cluster: self.clusters.get(target.cluster as usize).map_or("", String::as_str),
            ingress: target.ingress.map(|i| i as usize),
            answer,
            via_default: decision.via() == Via::DefaultBackend,
            rewritten_path: decision.upstream_path().map(str::to_owned),
        }
    }
}

/// The manifests read: the objects (Ingresses, Services, ...) and the Gateway API objects as
/// values. `None` when any text cannot be read (the report says where).
fn read(config: &PluginConfig, report: &mut Report) -> Option<(Vec<Object>, Vec<serde_json::Value>)> {
    let texts = match config.manifest_texts() {
        Ok(texts) => texts,
        Err(e) => {
            report.errors.push(e);
            return None;
        }
    };
    let mut objects: Vec<Object> = Vec::new();
    let mut gateway_api = Vec::new();
    for (name, text) in &texts {
        match input::parse(name, text) {
            Ok(mut parsed) => {
                report.warnings.extend(parsed.notes.iter().map(|n| n.to_string()));
                gateway_api.extend(std::mem::take(&mut parsed.gateway_api).into_iter().map(|v| v.value));
                objects.extend(parsed.into_objects());
            }
            Err(e) => report.errors.push(input_error(&e)),
        }
    }
    report.errors.is_empty().then_some((objects, gateway_api))
}

/// What a configuration routes with: its Ingresses, or its Gateway API objects (the core's
/// [`gateway::wanted`](ingress_router::gateway::wanted): when the configuration's `gateway` names
/// a Gateway, or when the manifests hold a Gateway and no Ingress).
pub enum Routing {
    Ingress(Box<Table>),
    Gateway(Box<GatewayTable>),
}

impl Routing {
    /// Reads the manifests and compiles the table the core says they route with.
    pub fn build(config: &PluginConfig, seed: u64) -> (Option<Routing>, Report) {
        let mut report = Report::default();
        let Some((objects, gateway_api)) = read(config, &mut report) else { return (None, report) };
        let gateway = config.options.gateway.as_deref();
        let routing = if ingress_router::gateway::wanted(gateway, &gateway_api, &objects) {
            GatewayTable::build(
                &gateway_api,
                &objects,
                &config.options,
                &config.cluster_names,
                config.strict,
                &mut report,
            )
            .map(|t| Routing::Gateway(Box::new(t)))
        } else {
            Table::compile(config, seed, &objects, &mut report).map(|t| Routing::Ingress(Box::new(t)))
        };
        if !report.errors.is_empty() {
            return (None, report);
        }
        (routing, report)
    }
}

/// The Ingress (`namespace/name`) and field an answer comes from.
fn answer_source(decision: &Decision<'_>) -> (String, String) {
    match (decision.matched(), decision.default_from()) {
        (Some(m), _) => (m.ingress.to_string(), format!("spec.rules[{}].http.paths[{}]", m.rule_index, m.path_index)),
        (None, Some(ingress)) => (ingress.to_string(), "spec.defaultBackend".into()),
        (None, None) => ("(options)".into(), "defaultBackend".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::regex_budget_line;

    const SEED: u64 = 0x5eed;

    const SHOP: &str = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: storefront, namespace: shop, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  ingressClassName: envoy
  defaultBackend: {service: {name: fallback, port: {name: http}}}
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart-api, port: {number: 8080}}}}
      - {path: /assets, pathType: Exact, backend: {resource: {apiGroup: k8s.example.com, kind: StorageBucket, name: assets}}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: api, namespace: api}
spec:
  ingressClassName: envoy
  rules:
  - host: api.example.com
    http:
      paths:
      - {path: /v1, pathType: Prefix, backend: {service: {name: v1, port: {number: 80}}}}
"#;

    fn table(extra: &str) -> (Option<Table>, Report) {
        let config = format!(r#"{{"manifests": {}{extra}}}"#, serde_json::to_string(SHOP).unwrap());
        Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED)
    }

    #[test]
    fn routes_to_cluster_names() {
        let (table, report) = table("");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let t = table.unwrap();
        // The spec profile reads neither the scheme nor a header: the filter fetches none.
        assert!(!t.reads_scheme());
        assert!(t.header_names().is_empty());
        let backend = |host: &str, path: &str| match t.route(&Request::new(host, path), 0).outcome {
            Outcome::Backend { cluster, answer, via_default, .. } => {
                format!("{cluster} {} {via_default}", t.matched(answer))
            }
            other => format!("{other:?}"),
        };
        assert_eq!(
            backend("shop.example.com", "/cart/items?x=1"),
            "shop/cart-api:8080 cart-api:8080 shop/storefront spec.rules[0].http.paths[1] false"
        );
        assert_eq!(
            backend("Shop.Example.com.:443", "/assets"),
            "shop/resource/k8s.example.com/StorageBucket/assets resource:k8s.example.com/StorageBucket/assets shop/storefront spec.rules[0].http.paths[2] false"
        );
        assert_eq!(backend("api.example.com", "/v1/x"), "api/v1:80 v1:80 api/api spec.rules[0].http.paths[0] false");
        // No rule for the path in api.example.com's tier: the only defaultBackend answers.
        assert_eq!(
            backend("api.example.com", "/v2"),
            "shop/fallback:http fallback:http shop/storefront spec.defaultBackend true"
        );
        assert_eq!(t.ingresses, vec!["shop/storefront", "api/api"]);
    }

    #[test]
    fn the_seed_changes_no_decision() {
        let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(SHOP).unwrap());
        let config = PluginConfig::parse(config.as_bytes()).unwrap();
        let (a, b) = (Table::build(&config, 1).0.unwrap(), Table::build(&config, u64::MAX).0.unwrap());
        for (host, path) in [("shop.example.com", "/cart/x"), ("api.example.com", "/v2"), ("x", "/")] {
            assert_eq!(a.route(&Request::new(host, path), 0).outcome, b.route(&Request::new(host, path), 0).outcome);
        }
    }

    /// The configuration envoy/envoy.yaml ships (the JSON block under `value: |`) compiles.
    #[test]
    fn shipped_configuration_serves() {
        let yaml = include_str!("../envoy.yaml");
        let start = yaml.find("value: |").expect("envoy.yaml has the plugin configuration");
        let json: String = yaml[start..]
            .lines()
            .skip(1)
            .take_while(|l| l.trim_start().starts_with(['{', '}', '"']))
            .collect::<Vec<_>>()
            .join("\n");
        let (t, report) = Table::build(&PluginConfig::parse(json.as_bytes()).unwrap(), SEED);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let t = t.unwrap();
        assert!(matches!(
            t.route(&Request::new("shop.example.com", "/cart/1"), 0).outcome,
            Outcome::Backend { cluster: "shop/cart-api:8080", .. }
        ));
        assert!(matches!(
            t.route(&Request::new("shop.example.com", "/x"), 0).outcome,
            Outcome::Backend { cluster: "shop/web:80", via_default: true, .. }
        ));
    }

    #[test]
    fn not_found_without_default() {
        let config = r#"{"manifests": {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": "a", "namespace": "ns"}, "spec": {"rules": [{"host": "a.example.com",
            "http": {"paths": [{"path": "/a", "pathType": "Exact",
            "backend": {"service": {"name": "a", "port": {"number": 1}}}}]}}]}}}"#;
        let (t, _) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED);
        let t = t.unwrap();
        assert_eq!(t.route(&Request::new("a.example.com", "/b"), 0).outcome, Outcome::NotFound);
        assert_eq!(t.route(&Request::new("", ""), 0).outcome, Outcome::NotFound);
        assert!(matches!(
            t.route(&Request::new("a.example.com", "/a?q"), 0).outcome,
            Outcome::Backend { cluster: "ns/a:1", .. }
        ));
    }

    #[test]
    fn table_normalisation_when_asked() {
        let (t, _) = table(r#", "normalizePath": true, "mergeSlashes": true, "escapedSlashes": "REJECT_REQUEST""#);
        let t = t.unwrap();
        assert!(matches!(
            t.route(&Request::new("shop.example.com", "//x/../cart"), 0).outcome,
            Outcome::Backend { cluster: "shop/cart-api:8080", .. }
        ));
        assert!(matches!(
            t.route(&Request::new("shop.example.com", "/cart%2Fx"), 0).outcome,
            Outcome::Rejected { status: 400, .. }
        ));
    }

    /// One tenant's invalid Ingress is left out, named with its field; the others serve.
    #[test]
    fn an_invalid_ingress_is_left_out_and_the_others_serve() {
        let bad = SHOP.replace("path: /cart,", "path: /cart/../admin,");
        let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(&bad).unwrap());
        let (t, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED);
        let t = t.expect("the valid Ingresses serve");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        assert_eq!(report.excluded, ["shop/storefront"]);
        assert!(
            report.warnings.iter().any(|w| w.starts_with("Ingress shop/storefront: spec.rules[0].http.paths[1].path")
                && w.ends_with("(this Ingress is left out; the others serve)")),
            "{:?}",
            report.warnings
        );
        assert!(!t.ingresses.contains(&"shop/storefront".to_string()));
        assert!(matches!(t.route(&Request::new("api.example.com", "/v1/x"), 0).outcome, Outcome::Backend { .. }));
        // Nothing of the bad Ingress is served, not even its valid paths.
        assert_eq!(t.route(&Request::new("shop.example.com", "/"), 0).outcome, Outcome::NotFound);
    }

    /// `strict` restores refusing the whole configuration.
    #[test]
    fn strict_refuses_the_configuration() {
        let bad = SHOP.replace("path: /cart,", "path: /cart/../admin,");
        let config = format!(r#"{{"manifests": {}, "strict": true}}"#, serde_json::to_string(&bad).unwrap());
        let (t, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED);
        assert!(t.is_none());
        assert!(
            report.errors.iter().any(|e| e.starts_with("Ingress shop/storefront: spec.rules[0].http.paths[1].path")),
            "{:?}",
            report.errors
        );
    }

    /// Only Ingresses, every one invalid, and no default: nothing could serve, so it is refused.
    #[test]
    fn nothing_valid_to_serve_is_refused() {
        let only = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a, namespace: t}\nspec:\n  rules:\n  - http:\n      paths:\n      - {path: /x/../y, pathType: Prefix, backend: {service: {name: s, port: {number: 80}}}}\n";
        let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(only).unwrap());
        let (t, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED);
        assert!(t.is_none());
        assert!(
            report.errors.iter().any(|e| e.contains("no valid Ingress and no default backend") && e.contains("t/a"))
        );
    }

    #[test]
    fn configuration_errors_are_named() {
        let errors = |json: &str| match PluginConfig::parse(json.as_bytes()) {
            Ok(config) => Table::build(&config, SEED).1.errors.join("\n"),
            Err(e) => e,
        };
        assert!(errors(r#"{"manifests": "kind: Ingress\n  bad: [indent"}"#).contains("manifests"));
        assert!(
            errors(r#"{"manifests": "apiVersion: v1\nkind: Service\nmetadata: {name: s}"}"#).contains("no Ingress")
        );
        assert!(errors(r#"{"manifests": "", "implementationSpecific": "regex"}"#).contains("implementationSpecific"));
        assert!(errors(r#"{"manifests": "", "clusterTemplate": "{svc}"}"#).contains("{svc}"));
    }

    /// YAML text in a filter built without YAML says what to give instead (the unit tests read
    /// YAML: the message is checked on the core's error).
    #[test]
    fn yaml_text_without_yaml_says_what_to_give() {
        let e = input::InputError::new(input::InputErrorKind::YamlUnsupported, "manifests[1]", "YAML input");
        let message = input_error(&e);
        assert!(message.starts_with("manifests[1]: YAML text"), "{message}");
        assert!(message.contains("JSON objects or JSON text") && message.contains("envoy-config"), "{message}");
        let other = input::InputError::new(input::InputErrorKind::Syntax, "manifests", "bad");
        assert_eq!(input_error(&other), "manifests: bad");
    }

    /// Without the linter the filter still says which Ingresses it leaves out.
    #[cfg(not(feature = "lint"))]
    #[test]
    fn left_out_says_why() {
        let config = format!(r#"{{"manifests": {}, "ingressClass": "nginx"}}"#, serde_json::to_string(SHOP).unwrap());
        let config = PluginConfig::parse(config.as_bytes()).unwrap();
        let objects = input::parse("shop", SHOP).unwrap().into_objects();
        let view = compile_seeded(&objects, &config.options, SEED).table();
        assert_eq!(
            left_out(&view),
            [
                "Ingress shop/storefront is left out: it belongs to IngressClass \"envoy\", not the served class \"nginx\"",
                "Ingress api/api is left out: it belongs to IngressClass \"envoy\", not the served class \"nginx\""
            ]
        );
    }

    #[test]
    fn other_classes_are_left_out_not_refused() {
        let (t, report) = table(r#", "ingressClass": "nginx""#);
        assert!(report.errors.is_empty());
        assert!(report.warnings.iter().any(|w| w.contains("class-not-served")), "{:?}", report.warnings);
        assert_eq!(t.unwrap().route(&Request::new("shop.example.com", "/cart"), 0).outcome, Outcome::NotFound);
    }

    /// The ingress-nginx profile's regex locations share the request's budget
    /// (`regexLimits.scan` from the configuration): past it they answer "no match", the outcome is
    /// the core's (here no location: 404), and the request is marked; another host is not.
    #[test]
    fn nginx_spent_regex_budget_is_marked() {
        let yaml = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: re\n  namespace: re\n  annotations: {nginx.ingress.kubernetes.io/use-regex: \"true\"}\nspec:\n  rules:\n  - host: re.example.com\n    http:\n      paths:\n      - {path: /re/.*x, pathType: ImplementationSpecific, backend: {service: {name: re, port: {number: 80}}}}\n---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: plain, namespace: plain}\nspec:\n  rules:\n  - host: plain.example.com\n    http:\n      paths:\n      - {path: /, pathType: Prefix, backend: {service: {name: root, port: {number: 80}}}}\n";
        let config = format!(
            r#"{{"manifests": {}, "profile": "ingress-nginx", "regexLimits": {{"scan": 64}}}}"#,
            serde_json::to_string(yaml).unwrap()
        );
        let (t, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let t = t.unwrap();
        let cluster = |routed: &Routed<Outcome<'_>>| match routed.outcome {
            Outcome::Backend { cluster, .. } => cluster.to_string(),
            ref other => format!("{other:?}"),
        };
        let short = t.route(&Request::new("re.example.com", "/re/ax"), 0);
        assert_eq!((cluster(&short), short.regex_budget_exhausted), ("re/re:80".to_string(), false));
        let path = format!("/re/{}x", "a".repeat(100));
        let plain = t.route(&Request::new("plain.example.com", &path), 0);
        assert_eq!((cluster(&plain), plain.regex_budget_exhausted), ("plain/root:80".to_string(), false));
        let long = t.route(&Request::new("re.example.com", &path), 0);
        assert_eq!((cluster(&long), long.regex_budget_exhausted), ("NotFound".to_string(), true));
    }

    /// The log line: host and path cut to 100 bytes each, printable ASCII only, with the length.
    #[test]
    fn regex_budget_line_cuts_and_cleans() {
        let path = format!("/{}", "abc/".repeat(1000));
        let line = regex_budget_line("RegularExpression matches", b"x.example.com", path.as_bytes());
        assert_eq!(
            line,
            format!(
                "regex budget exhausted (regexLimits.scan): some RegularExpression matches answered no match for \
                 x.example.com{}... (4001 bytes)",
                &path[..100]
            )
        );
        let line = regex_budget_line("regexes", b"h\x1b[31m", "/\u{e9}\n".as_bytes());
        assert!(line.ends_with("for h?[31m/???"), "{line}");
    }

    const NGINX: &str = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: checkout
  namespace: pay
  annotations: {nginx.ingress.kubernetes.io/use-regex: "true", nginx.ingress.kubernetes.io/rewrite-target: /$2}
spec:
  tls: [{hosts: [pay.example.com]}]
  rules:
  - host: pay.example.com
    http: {paths: [{path: /api(/|$)(.*), pathType: ImplementationSpecific, backend: {service: {name: api, port: {number: 80}}}}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: checkout-canary
  namespace: canary
  annotations:
    nginx.ingress.kubernetes.io/canary: "true"
    nginx.ingress.kubernetes.io/canary-by-header: X-Canary
    nginx.ingress.kubernetes.io/canary-weight: "25"
spec:
  rules:
  - host: pay.example.com
    http: {paths: [{path: /api(/|$)(.*), pathType: ImplementationSpecific, backend: {service: {name: api-v2, port: {number: 80}}}}]}
"#;

    /// The ingress-nginx profile through the filter's table: the redirect, the rewrite, the canary
    /// header and the weighted pick all reach the outcome.
    #[test]
    fn nginx_profile_outcomes() {
        let config =
            format!(r#"{{"manifests": {}, "profile": "ingress-nginx"}}"#, serde_json::to_string(NGINX).unwrap());
        let (t, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), SEED);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let t = t.unwrap();
        assert!(t.reads_scheme());
        assert_eq!(t.header_names(), ["x-canary"]);
        let https = |path| Request::new("pay.example.com", path).with_scheme(ingress_router::Scheme::Https);
        // Over http the host's TLS redirects first.
        assert_eq!(
            t.route(&Request::new("pay.example.com", "/api/x"), 0).outcome,
            Outcome::Redirect { status: 308, location: "https://pay.example.com/api/x".into() }
        );
        let side = |request: &Request<'_>, roll| match t.route(request, roll).outcome {
            Outcome::Backend { cluster, rewritten_path, answer, .. } => {
                format!("{cluster} {} {}", rewritten_path.unwrap_or_default(), t.matched(answer))
            }
            other => format!("{other:?}"),
        };
        // 75 / 25: the draw decides the side, and the upstream path is rewritten either way.
        assert_eq!(
            side(&https("/api/items?id=1"), 0),
            "pay/api:80 /items?id=1 api:80 pay/checkout spec.rules[0].http.paths[0]"
        );
        assert_eq!(
            side(&https("/api/items"), (3 << 62) - 1),
            "pay/api:80 /items api:80 pay/checkout spec.rules[0].http.paths[0]"
        );
        assert_eq!(
            side(&https("/api/items"), 3 << 62),
            "canary/api-v2:80 /items api-v2:80 pay/checkout spec.rules[0].http.paths[0]"
        );
        assert_eq!(
            side(&https("/api/items"), u64::MAX),
            "canary/api-v2:80 /items api-v2:80 pay/checkout spec.rules[0].http.paths[0]"
        );
        let headers = [("x-canary", "never")];
        assert_eq!(
            side(&https("/api").with_headers(&headers), u64::MAX),
            "pay/api:80 / api:80 pay/checkout spec.rules[0].http.paths[0]"
        );
        let headers = [("x-canary", "always")];
        assert_eq!(
            side(&https("/api").with_headers(&headers), 0),
            "canary/api-v2:80 / api-v2:80 pay/checkout spec.rules[0].http.paths[0]"
        );
        assert_eq!(t.clusters, ["pay/api:80", "canary/api-v2:80"]);
    }
}
