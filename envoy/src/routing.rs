//! Every call into the core lives here: reading the manifests, compiling the one table whatever
//! they hold (Ingresses, or the Gateway API objects), routing a request. The filter itself holds
//! no routing, validation or status logic; it turns an [`Outcome`] into host calls.

use std::borrow::Cow;
use std::collections::HashMap;

use ingress_router::decision::Modifications;
use ingress_router::decision::{BackendRef, ServicePort};
use ingress_router::options::ClusterNames;
use ingress_router::{Decision, Request, Router, Via};
#[cfg(feature = "manifests")]
use ingress_router::{compile_seeded, input, input::Input};

use crate::config::PluginConfig;
pub use crate::report::{Report, Routed};

/// The Ingresses the table leaves out for a reason other than an error (another class), in the
/// core's words: what a filter without the linter logs.
#[cfg(all(feature = "manifests", not(feature = "lint")))]
fn left_out(view: &ingress_router::TableView) -> Vec<String> {
    let excluded = view.excluded.iter().filter(|e| e.errors.is_empty());
    excluded.map(|e| format!("Ingress {}/{} is left out: it {}", e.namespace, e.name, e.reason)).collect()
}

/// The core's message, and for YAML text given to a filter built without YAML, what to give instead.
#[cfg(feature = "manifests")]
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
struct Rendered {
    /// Index into [`Table::clusters`].
    cluster: u32,
    /// Index into [`Table::ingresses`]; `None` for the configured default backend.
    ingress: Option<u32>,
}

/// The compiled configuration: the core's one router, and the cluster of every backend its
/// decisions may target, rendered once.
pub struct Table {
    router: Router,
    /// By [`Decision::answer`] (Ingress answers).
    rendered: Vec<Rendered>,
    /// The other targets (Gateway API backendRefs), by namespace, then Service name: (port,
    /// index into [`Table::clusters`]).
    by_backend: HashMap<String, HashMap<String, Vec<(u16, u32)>>>,
    /// Distinct cluster names.
    pub clusters: Vec<String>,
    /// `namespace/name` of each Ingress taking part, oldest first (none for the Gateway API).
    pub ingresses: Vec<String>,
    /// What the configuration serves, in words, for the log.
    pub serving: String,
    /// The request headers the table's decisions read (lower-case).
    header_names: Vec<String>,
}

/// Where a request goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<'t> {
    /// Set the routing header to `cluster`, and change the request as listed (a rewritten path,
    /// URLRewrite, RequestHeaderModifier), as the core computed them.
    Backend {
        cluster: &'t str,
        /// Index into [`Table::ingresses`] (`None`: the configured default backend, or a Gateway
        /// API backendRef).
        ingress: Option<usize>,
        /// What answered, for [`Table::matched`], when the table numbers it.
        answer: Option<usize>,
        via_default: bool,
        modifications: Modifications<'t>,
    },
    /// The proxy answers with a redirect.
    Redirect { status: u32, location: Cow<'t, str> },
    /// A local answer: 404 (nothing matched), a refusal before routing (400), 500 (a filter the
    /// proxy cannot apply, no valid backend, the invalid backend a split picked), with the
    /// core's reason.
    Local { status: u32, reason: &'static str },
}

/// The manifests read ([`Table::read`]) and what reading them found, to be compiled.
#[cfg(feature = "manifests")]
pub struct Read {
    input: Option<Input>,
    report: Report,
}

#[cfg(feature = "manifests")]
impl Read {
    /// [`Table::build`]'s second half. `config`'s manifests are not read again (the filter passes
    /// [`PluginConfig::without_manifests`]).
    pub fn compile(self, config: &PluginConfig<'_>, seed: u64) -> (Option<Table>, Report) {
        let Read { input, mut report } = self;
        let table = input.and_then(|input| Table::compile_input(config, seed, input, &mut report));
        if !report.errors.is_empty() {
            return (None, report);
        }
        (table, report)
    }
}

impl Table {
    /// Reads, validates and compiles the configuration, the table's hashes keyed by `seed`.
    /// `None` when it cannot serve; the report names every problem, each with its object and
    /// field (or the configuration key), so that the log says what to fix.
    #[cfg(feature = "manifests")]
    pub fn build(config: &PluginConfig<'_>, seed: u64) -> (Option<Table>, Report) {
        Table::read(config).compile(config, seed)
    }

    /// [`Table::build`]'s first half: the manifests read into the core's input, one at a time.
    /// The filter then lets go of the configuration's bytes before compiling.
    #[cfg(feature = "manifests")]
    pub fn read(config: &PluginConfig<'_>) -> Read {
        let mut report = Report::default();
        let input = read(config, &mut report);
        Read { input, report }
    }

    #[cfg(feature = "manifests")]
    fn compile_input(config: &PluginConfig<'_>, seed: u64, input: Input, report: &mut Report) -> Option<Table> {
        if !input.kinds().any(|kind| kind == "Ingress" || kind == "Gateway") && config.options.gateway.is_none() {
            report.errors.push("the manifests hold no Ingress: nothing to route".into());
            return None;
        }
        let router = match compile_seeded(&input, &config.options, seed) {
            Ok(router) => router,
            Err(e) => {
                report.errors.push(e.to_string());
                return None;
            }
        };
        // The objects read are the router's now: let them go before the table is rendered.
        #[cfg(not(any(test, feature = "lint")))]
        drop(input);
        // Without the hosts' paths: as large as the table, and not read here.
        let view = router.table_summary();
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
        // Gateway API objects that cannot be read (an error under `strict`), and the regexes the
        // core refuses (each matches nothing; the operator reads why here, not per request).
        for line in view.gateway.iter().flat_map(|g| &g.skipped) {
            match config.strict {
                true => report.errors.push(line.clone()),
                false => report.warnings.push(format!("{line} (left out; the others serve)")),
            }
        }
        for line in view.gateway.iter().flat_map(|g| &g.refused) {
            report.warnings.push(format!("{line} (this match is dropped; the rest of the route serves)"));
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
        for diagnostic in router.lint(&input).iter().filter(|d| d.severity != ingress_router::Severity::Error) {
            if diagnostic.code == ingress_router::Code::InvalidGatewayObject {
                continue; // reported above, as left out
            }
            let objects: Vec<String> = diagnostic.objects.iter().map(|o| o.to_string()).collect();
            report.warnings.push(format!("{diagnostic} [{}]", objects.join(", ")));
        }
        #[cfg(any(test, feature = "lint"))]
        drop(input);
        #[cfg(not(any(test, feature = "lint")))]
        report.warnings.extend(left_out(&view));
        if !report.errors.is_empty() {
            return None;
        }
        Table::serve(router, view, report, &config.cluster_names)
    }

    /// Loads a precompiled table (the configuration's `table`), its hashes keyed by `seed`: no
    /// manifests read, validated or compiled. A table of another format version, or a damaged
    /// one, is refused with the core's reason (the filter keeps serving what it had).
    pub fn load(config: &PluginConfig<'_>, bytes: &[u8], seed: u64) -> (Option<Table>, Report) {
        let mut report = Report::default();
        let router = match ingress_router::load_table_seeded(bytes, seed) {
            Ok(router) => router,
            Err(e) => {
                report.errors.push(format!("plugin configuration: table: {e}"));
                return (None, report);
            }
        };
        let view = router.table_summary();
        for excluded in &view.excluded {
            let key = format!("{}/{}", excluded.namespace, excluded.name);
            if !excluded.is_invalid() {
                report.warnings.push(format!("Ingress {key} is left out: it {}", excluded.reason));
                continue;
            }
            let line = format!("Ingress {key} is invalid (its errors were reported when the table was compiled)");
            match config.strict {
                true => report.errors.push(line),
                false => report.warnings.push(format!("{line}; it is left out, the others serve")),
            }
            report.excluded.push(key);
        }
        if view.ingresses.is_empty() && view.default_backend.is_none() {
            report.errors.push("the table has no Ingress and no default backend: nothing would be served".into());
        }
        if !report.errors.is_empty() {
            return (None, report);
        }
        let table = Table::serve(router, view, &mut report, &config.cluster_names);
        (table, report)
    }

    /// What serves, once the router is made: its Ingresses (or Gateway routes) in words for the
    /// log, and every target rendered.
    fn serve(
        router: Router,
        view: ingress_router::TableView,
        report: &mut Report,
        names: &ClusterNames,
    ) -> Option<Table> {
        let ingresses: Vec<String> = view.ingresses.iter().map(|i| i.key()).collect();
        let serving = match &view.gateway {
            Some(gateway) => {
                let mut routes: Vec<&str> = gateway
                    .listeners
                    .iter()
                    .flat_map(|l| &l.routes)
                    .filter(|r| r.not_attached.is_none())
                    .map(|r| r.route.as_str())
                    .collect();
                routes.sort_unstable();
                routes.dedup();
                format!(
                    "Gateway {}: {} HTTPRoutes attached",
                    gateway.gateway.as_deref().unwrap_or_default(),
                    routes.len()
                )
            }
            None => {
                let excluded = match report.excluded.is_empty() {
                    true => String::new(),
                    false => format!("; invalid Ingresses left out: {}", report.excluded.join(", ")),
                };
                format!("{} Ingresses{excluded}", ingresses.len())
            }
        };
        drop(view);
        match Table::render(router, ingresses, serving, names) {
            Ok(table) => Some(table),
            Err(e) => {
                report.errors.push(e);
                None
            }
        }
    }

    /// Renders every target of the table once: its cluster name, its Ingress, its debug text.
    fn render(router: Router, ingresses: Vec<String>, serving: String, names: &ClusterNames) -> Result<Table, String> {
        let rank: HashMap<&str, u32> = ingresses.iter().enumerate().map(|(i, k)| (k.as_str(), i as u32)).collect();
        let mut clusters: Vec<String> = Vec::new();
        let mut cluster_index: HashMap<String, u32> = HashMap::new();
        let mut rendered = vec![Rendered { cluster: 0, ingress: None }; router.answer_count()];
        let mut by_backend: HashMap<String, HashMap<String, Vec<(u16, u32)>>> = HashMap::new();
        let targets = router.targets();
        if targets.iter().filter(|t| t.answer.is_some()).count() != router.answer_count() {
            return Err("an answer of the table names no Service or resource".into());
        }
        for target in targets {
            let name = names.name(&target.backend);
            let cluster = *cluster_index.entry(name.clone()).or_insert_with(|| {
                clusters.push(name);
                clusters.len() as u32 - 1
            });
            match target.answer {
                Some(answer) => {
                    let decision = router.answer(answer).ok_or("the table numbers its answers with a gap")?;
                    let ingress = decision.matched().map(|m| m.ingress).or(decision.default_from());
                    let rank = ingress.and_then(|i| rank.get(i.to_string().as_str()).copied());
                    rendered[answer] = Rendered { cluster, ingress: rank };
                }
                None => {
                    let BackendRef::Service { namespace, name, port: Some(ServicePort::Number(port)) } = target.backend
                    else {
                        continue;
                    };
                    let ports = by_backend.entry(namespace.into()).or_default().entry(name.into()).or_default();
                    ports.push((port, cluster));
                }
            }
        }
        let header_names = router.header_names();
        Ok(Table { router, rendered, by_backend, clusters, ingresses, serving, header_names })
    }

    /// `<label> namespace/name spec.rules[i].http.paths[j]` (or `spec.defaultBackend`) of an answer.
    /// Written when asked (the debug header), not kept per answer: at 10 000 paths that is a
    /// megabyte a worker would hold for nothing.
    pub fn matched(&self, answer: usize) -> String {
        let Some(decision) = self.router.answer(answer) else { return String::new() };
        let (ingress, field) = answer_source(&decision);
        format!("{decision} {ingress} {field}")
    }

    /// The request headers the table's decisions read (lower-case; empty with the spec profile):
    /// the filter fetches these and no others.
    pub fn header_names(&self) -> &[String] {
        &self.header_names
    }

    /// Whether decisions read the request's scheme (the ingress-nginx profile's redirects, the
    /// Gateway API's listeners): the filter reads `x-forwarded-proto` only then.
    pub fn reads_scheme(&self) -> bool {
        self.router.reads_scheme()
    }

    /// Whether decisions read the request's method (the Gateway API's method matches).
    pub fn reads_method(&self) -> bool {
        self.router.reads_method()
    }

    /// Routes one request: `host` from `:authority`, `path` from `:path` (query included), and
    /// what [`reads_scheme`](Self::reads_scheme), [`reads_method`](Self::reads_method) and
    /// [`header_names`](Self::header_names) say the table reads. A weighted split takes the
    /// side that `random` (uniform over `u64`) falls on ([`Decision::target`]). With the spec
    /// profile, allocates nothing.
    pub fn route(&self, request: &Request<'_>, random: u64) -> Routed<Outcome<'_>> {
        let decision = self.router.route(request);
        Routed {
            outcome: self.outcome(&decision, request, random),
            regex_budget_exhausted: decision.regex_budget_exhausted(),
        }
    }

    fn outcome<'t>(&'t self, decision: &Decision<'t>, request: &Request<'_>, random: u64) -> Outcome<'t> {
        if let Some(redirect) = decision.redirect() {
            return Outcome::Redirect { status: u32::from(redirect.status), location: redirect.location.clone() };
        }
        let Some(target) = decision.target(random) else {
            let reason = decision.rejection().map_or(decision.via().as_str(), |r| r.message());
            // A split whose every weight is zero serves nothing: as nothing matched.
            let status = match decision.status() {
                200 => 404,
                status => status,
            };
            return Outcome::Local { status: u32::from(status), reason };
        };
        if target.invalid {
            return Outcome::Local { status: 500, reason: "invalid-backend" };
        }
        let found = match target.answer {
            Some(answer) => self.rendered.get(answer).map(|r| (r.cluster, r.ingress.map(|i| i as usize))),
            None => self.cluster_of(&target.backend).map(|c| (c, None)),
        };
        // Every target's cluster is rendered at configure time.
        let Some((cluster, ingress)) = found else { return Outcome::Local { status: 500, reason: "no-cluster" } };
        Outcome::Backend {
            cluster: self.clusters.get(cluster as usize).map_or("", String::as_str),
            ingress,
            answer: target.answer,
            via_default: decision.via() == Via::DefaultBackend,
            modifications: decision.modifications(request, &target),
        }
    }

    fn cluster_of(&self, backend: &BackendRef<'_>) -> Option<u32> {
        let BackendRef::Service { namespace, name, port: Some(ServicePort::Number(port)) } = *backend else {
            return None;
        };
        let ports = self.by_backend.get(namespace)?.get(name)?;
        ports.iter().find(|(p, _)| *p == port).map(|(_, c)| *c)
    }

    /// The decision in one line for the debug header: the answer's rendered text when the table
    /// numbers it, else the core's view (the Gateway API: status, via, route, rule, match).
    pub fn debug_text(&self, request: &Request<'_>, answer: Option<usize>) -> String {
        if let Some(answer) = answer {
            return self.matched(answer);
        }
        let view = self.router.route(request).view(request);
        let place = view.gateway.as_ref().and_then(|g| {
            Some(format!(" {} rule {} match {}", g.route.as_ref()?, g.rule.unwrap_or(0), g.match_index.unwrap_or(0)))
        });
        format!("{} ({}){} -> {}", view.status, view.via, place.unwrap_or_default(), view.label)
    }
}

/// The manifests read as one input, one manifest at a time (each one's JSON value lives only while
/// it is read). `None` when any text cannot be read (the report says where).
#[cfg(feature = "manifests")]
fn read(config: &PluginConfig<'_>, report: &mut Report) -> Option<Input> {
    let manifests = match config.manifests() {
        Ok(manifests) => manifests,
        Err(e) => {
            report.errors.push(e);
            return None;
        }
    };
    let mut all = Input::default();
    for manifest in &manifests {
        let parsed = manifest.text().and_then(|text| input::parse(&manifest.name, &text).map_err(|e| input_error(&e)));
        match parsed {
            Ok(parsed) => {
                report.warnings.extend(parsed.notes.iter().map(|n| n.to_string()));
                all.extend(parsed);
            }
            Err(e) => report.errors.push(e),
        }
    }
    report.errors.is_empty().then_some(all)
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
    use ingress_router::decision::HeaderAction;

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
            Outcome::Backend { cluster, answer: Some(answer), via_default, .. } => {
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

    /// `table`: the configuration a control plane ships once compiled (`envoy-config --table`)
    /// serves exactly as the manifests do, every outcome and matched text alike; options beside
    /// it, both keys, and a damaged or foreign table are refused by name.
    #[test]
    fn a_precompiled_table_serves_as_the_manifests() {
        use base64::Engine as _;
        let options =
            r#", "ingressClass": "envoy", "defaultBackend": {"service": {"name": "last", "port": {"number": 1}}}"#;
        let (compiled, _) = table(options);
        let compiled = compiled.unwrap();
        let input = input::parse("shop", SHOP).unwrap();
        let config = format!(r#"{{"manifests": "" {options}}}"#);
        let config = PluginConfig::parse(config.as_bytes()).unwrap();
        let bytes = compile_seeded(&input, &config.options, SEED).unwrap().to_table_file().unwrap();
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let config = format!(r#"{{"table": "{encoded}", "debugHeader": true}}"#);
        let config = PluginConfig::parse(config.as_bytes()).unwrap();
        let (loaded, report) = Table::load(&config, &config.table_bytes().unwrap().unwrap(), 7);
        assert!(report.errors.is_empty() && report.warnings.is_empty(), "{report:?}");
        let loaded = loaded.unwrap();
        assert_eq!(
            (&loaded.ingresses, &loaded.clusters, &loaded.serving),
            (&compiled.ingresses, &compiled.clusters, &compiled.serving)
        );
        for (host, path) in
            [("shop.example.com", "/cart/x"), ("shop.example.com", "/assets"), ("api.example.com", "/v2"), ("x", "/")]
        {
            let request = Request::new(host, path);
            let (a, b) = (compiled.route(&request, 0).outcome, loaded.route(&request, 0).outcome);
            assert_eq!(a, b, "{host}{path}");
            if let Outcome::Backend { answer: Some(answer), .. } = a {
                assert_eq!(compiled.matched(answer), loaded.matched(answer));
            }
        }
        let refused = |config: String, why: &str| {
            let error = PluginConfig::parse(config.as_bytes()).unwrap_err();
            assert!(error.contains(why), "{error}");
        };
        refused(format!(r#"{{"table": "{encoded}", "ingressClass": "x"}}"#), "give them to `ingress-router compile`");
        refused(format!(r#"{{"table": "{encoded}", "manifests": []}}"#), "give one of them");
        refused("{}".into(), "missing field `manifests` (or `table`)");
        let config = PluginConfig::parse(br#"{"table": "not base64!"}"#).unwrap();
        assert!(config.table_bytes().unwrap().unwrap_err().contains("plugin configuration: table:"));
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        let (none, report) = Table::load(&config, &damaged, 7);
        assert!(none.is_none());
        assert_eq!(report.errors, ["plugin configuration: table: table file damaged: its checksum does not match"]);
        let mut newer = bytes.clone();
        newer[8] = 9;
        assert!(Table::load(&config, &newer, 7).1.errors[0].contains("table format 9"));
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
        assert_eq!(
            t.route(&Request::new("a.example.com", "/b"), 0).outcome,
            Outcome::Local { status: 404, reason: "none" }
        );
        assert_eq!(t.route(&Request::new("", ""), 0).outcome, Outcome::Local { status: 404, reason: "none" });
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
            Outcome::Local { status: 400, .. }
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
        assert_eq!(
            t.route(&Request::new("shop.example.com", "/"), 0).outcome,
            Outcome::Local { status: 404, reason: "none" }
        );
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

    /// A table that left an invalid Ingress out: loaded, it serves the others and names the one
    /// left out; under `strict` it is refused as the manifests would be.
    #[test]
    fn a_table_with_an_invalid_ingress_serves_the_others_unless_strict() {
        use base64::Engine as _;
        let bad = SHOP.replace("path: /cart,", "path: /cart/../admin,");
        let input = input::parse("shop", &bad).unwrap();
        let bytes =
            compile_seeded(&input, &ingress_router::CompileOptions::default(), SEED).unwrap().to_table_file().unwrap();
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let config = format!(r#"{{"table": "{encoded}"}}"#);
        let config = PluginConfig::parse(config.as_bytes()).unwrap();
        let (t, report) = Table::load(&config, &bytes, SEED);
        let t = t.expect("the valid Ingresses serve");
        assert_eq!(report.excluded, ["shop/storefront"]);
        assert!(report.warnings.iter().any(|w| w.starts_with("Ingress shop/storefront is invalid")), "{report:?}");
        assert!(matches!(t.route(&Request::new("api.example.com", "/v1/x"), 0).outcome, Outcome::Backend { .. }));
        let config = format!(r#"{{"table": "{encoded}", "strict": true}}"#);
        let (t, report) = Table::load(&PluginConfig::parse(config.as_bytes()).unwrap(), &bytes, SEED);
        assert!(t.is_none());
        assert!(report.errors.iter().any(|e| e.starts_with("Ingress shop/storefront is invalid")), "{report:?}");
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
        let input = input::parse("shop", SHOP).unwrap();
        let view = ingress_router::compile_seeded(&input, &config.options, SEED).unwrap().table();
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
        assert_eq!(
            t.unwrap().route(&Request::new("shop.example.com", "/cart"), 0).outcome,
            Outcome::Local { status: 404, reason: "none" }
        );
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
        assert_eq!(
            (cluster(&long), long.regex_budget_exhausted),
            (r#"Local { status: 404, reason: "none" }"#.to_string(), true)
        );
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
            Outcome::Backend { cluster, modifications, answer: Some(answer), .. } => {
                format!("{cluster} {} {}", modifications.path.unwrap_or_default(), t.matched(answer))
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

    // ---- The Gateway API through the same table.

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

    fn build(extra: &str) -> (Option<Table>, Report) {
        let config = format!(r#"{{"manifests": {}{extra}}}"#, serde_json::to_string(GATEWAY).unwrap());
        Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 7)
    }

    fn gateway_table() -> Table {
        let (table, report) = build("");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let table = table.expect("a table");
        assert!(table.serving.starts_with("Gateway infra/public"), "{}", table.serving);
        table
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
            Table::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7).1
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
        let t = gateway_table();
        assert_eq!(t.serving, "Gateway infra/public: 1 HTTPRoutes attached");
        assert_eq!(t.clusters, ["shop/cart:8080", "shop/a:80", "shop/b:80", "shop/beta:80"]);
        assert_eq!(t.header_names(), ["x-beta"], "the core's names, lower-case");
        // The template is the configuration's, as for Ingress backends.
        let (routing, _) = build(r#", "clusterTemplate": "outbound|{port}||{service}.{namespace}.svc""#);
        let t = routing.expect("a Gateway table");
        assert!(t.clusters.contains(&"outbound|8080||cart.shop.svc".to_string()), "{:?}", t.clusters);
    }

    #[test]
    fn outcomes() {
        let t = gateway_table();
        let get = |path| Request::new("shop.example.com", path);
        match t.route(&get("/cart/items?id=1"), 0).outcome {
            Outcome::Backend { cluster, modifications, .. } => {
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
            Outcome::Backend { cluster, modifications, .. } => (cluster, modifications.headers),
            other => panic!("{other:?}"),
        };
        assert_eq!(side(0), ("shop/a:80", vec![]));
        assert_eq!(side(u64::MAX), ("shop/b:80", vec![HeaderAction::Add { name: "x-side", value: "b" }]));
        assert_eq!(
            t.route(&get("/half-broken"), u64::MAX).outcome,
            Outcome::Local { status: 500, reason: "invalid-backend" }
        );
        assert!(matches!(t.route(&get("/half-broken"), 0).outcome, Outcome::Backend { cluster: "shop/a:80", .. }));
        assert_eq!(
            t.route(&get("/old/x?q"), 0).outcome,
            Outcome::Redirect { status: 301, location: "https://shop.example.com/old/x?q".into() }
        );
        assert_eq!(t.route(&get("/ext"), 0).outcome, Outcome::Local { status: 500, reason: "filterError" });
        assert_eq!(t.route(&get("/beta"), 0).outcome, Outcome::Local { status: 404, reason: "none" });
        let headers = [("x-beta", "yes")];
        assert!(matches!(
            t.route(&get("/beta").with_headers(&headers), 0).outcome,
            Outcome::Backend { cluster: "shop/beta:80", .. }
        ));
        let other_port = Request::new("shop.example.com:8080", "/cart");
        assert_eq!(t.route(&other_port, 0).outcome, Outcome::Local { status: 404, reason: "noListener" });
        let debug = t.debug_text(&get("/cart"), None);
        assert!(debug.contains("shop/shop rule 0 match 0"), "{debug}");
    }

    #[test]
    fn the_gateway_is_chosen_or_the_configuration_refused() {
        let (routing, report) = build(r#", "gateway": "infra/public""#);
        assert!(routing.is_some_and(|t| t.serving.starts_with("Gateway")), "{:?}", report.errors);
        let (routing, report) = build(r#", "gateway": "infra/private""#);
        assert!(routing.is_none());
        assert!(
            report.errors[0].contains("infra/private") && report.errors[0].contains("infra/public"),
            "{:?}",
            report.errors
        );
        let two =
            format!("{GATEWAY}\n---\n{}", GATEWAY.split("---").next().unwrap().replace("name: public", "name: other"));
        let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(&two).unwrap());
        let (routing, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 7);
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
            Table::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7)
        };
        let (routing, report) = config("");
        assert!(routing.is_some(), "{:?}", report.errors);
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
        let t = Table::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7).0.expect("a Gateway table");
        let short = t.route(&Request::new("any.example.com", "/re/x"), 0);
        assert!(!short.regex_budget_exhausted);
        assert!(matches!(short.outcome, Outcome::Backend { cluster: "t/re:80", .. }));
        let long = format!("/re/{}", "x".repeat(100));
        let routed = t.route(&Request::new("any.example.com", &long), 0);
        assert!(routed.regex_budget_exhausted);
        assert_eq!(routed.outcome, Outcome::Local { status: 404, reason: "none" });
        // A request that a route of its own host answers first reads no regex.
        let cart = format!("/cart/{}", "x".repeat(100));
        let routed = t.route(&Request::new("shop.example.com", &cart), 0);
        assert!(!routed.regex_budget_exhausted);
        assert!(matches!(routed.outcome, Outcome::Backend { cluster: "shop/cart:8080", .. }));
    }

    /// Manifests with Ingresses and Gateway API objects route the Ingresses unless `gateway`
    /// names a Gateway: the core's `compile_input` decides, as for every home.
    #[test]
    fn mixed_manifests_route_the_ingresses_unless_a_gateway_is_named() {
        let ingress = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i, namespace: shop}\nspec:\n  defaultBackend: {service: {name: web, port: {number: 80}}}\n";
        let mixed = format!("{GATEWAY}\n---\n{ingress}");
        let config = |extra: &str| {
            let text = format!(r#"{{"manifests": {}{extra}}}"#, serde_json::to_string(&mixed).unwrap());
            Table::build(&PluginConfig::parse(text.as_bytes()).unwrap(), 7).0
        };
        assert!(config("").is_some_and(|t| t.serving.starts_with("1 Ingresses")));
        assert!(config(r#", "gateway": "public""#).is_some_and(|t| t.serving.starts_with("Gateway")));
    }
}
