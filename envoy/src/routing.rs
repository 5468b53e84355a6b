//! Every call into the core lives here: reading the manifests, compiling the table, routing a
//! request. The filter itself holds no routing, validation or status logic; it turns an
//! [`Outcome`] into host calls.

use ingress_router::diagnostics::Severity;
use ingress_router::input;
use ingress_router::model::{IngressBackend, Object};
use ingress_router::normalize::{EscapedSlashes, PathNormalization, normalize_path};
use ingress_router::path::ImplementationSpecific;
use ingress_router::table::{Route, Via};
use ingress_router::{CompileOptions, Profile, Request, Router, compile};

use crate::clusters::{Template, cluster_name};
use crate::config::PluginConfig;

/// What a backend turns into, rendered at configure time.
#[derive(Clone, Copy, Debug)]
struct Target {
    /// Index into [`Table::clusters`].
    cluster: u32,
    /// Index into [`Table::ingresses`] (its age rank).
    ingress: u32,
    /// Index into `Table::matches`.
    matched: u32,
}

/// The compiled configuration: the core's table, and each backend's cluster name.
pub struct Table {
    router: Router,
    normalization: Option<PathNormalization>,
    /// By route index (`Router::routes`).
    route_targets: Vec<Target>,
    /// By default-backend index (`Router::defaults`).
    default_targets: Vec<Option<Target>>,
    /// Distinct cluster names.
    pub clusters: Vec<String>,
    /// `namespace/name` of each Ingress taking part, oldest first.
    pub ingresses: Vec<String>,
    /// What the debug header says for each target: `namespace/name spec.rules[i].http.paths[j]`.
    matches: Vec<String>,
}

/// Where a request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome<'t> {
    Backend {
        cluster: &'t str,
        /// Index into [`Table::ingresses`].
        ingress: usize,
        /// The Ingress and rule (or `spec.defaultBackend`) that chose it, for [`Table::matched`].
        matched: u32,
        via_default: bool,
    },
    /// No rule matched and there is no default backend.
    NotFound,
    /// The table refuses the request before routing (its own path normalisation).
    Rejected { status: u32, reason: &'static str },
}

/// What configuring found: problems that stop the configuration from serving, and the rest.
#[derive(Debug, Default)]
pub struct Report {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

impl Table {
    /// Reads, validates and compiles the configuration. `Err` holds every problem found, each
    /// naming its Ingress and field (or the configuration key) so that the log says what to fix.
    pub fn build(config: &PluginConfig) -> (Option<Table>, Report) {
        let mut report = Report::default();
        let templates = Template::service(&config.cluster_template)
            .and_then(|s| Template::resource(&config.resource_cluster_template).map(|r| (s, r)));
        let options = compile_options(config);
        let (templates, (options, normalization)) = match (templates, options) {
            (Ok(t), Ok(o)) => (t, o),
            (t, o) => {
                report.errors.extend(t.err().into_iter().chain(o.err()));
                return (None, report);
            }
        };
        let texts = match config.manifest_texts() {
            Ok(texts) => texts,
            Err(e) => {
                report.errors.push(e);
                return (None, report);
            }
        };
        let mut objects: Vec<Object> = Vec::new();
        for (name, text) in &texts {
            match input::parse(name, text) {
                Ok(parsed) => {
                    report.warnings.extend(parsed.notes.iter().map(|n| n.to_string()));
                    objects.extend(parsed.into_objects());
                }
                Err(e) => report.errors.push(e.to_string()),
            }
        }
        if !report.errors.is_empty() {
            return (None, report);
        }
        if !objects.iter().any(|o| matches!(o, Object::Ingress(_))) {
            report.errors.push("the manifests hold no Ingress: nothing to route".into());
            return (None, report);
        }

        // Diagnostics come with the table for now; the sealed API gives them through a separate lint
        // call. Seeding: the sealed API's `compile_seeded(objects, options, seed)` takes the host's
        // clock (`proxy_wasm::hostcalls::get_current_time`) here; this core has no seed yet.
        let (router, diagnostics) = compile(&objects, &options);
        // An Ingress the apiserver would reject must not be half-served: the whole update is refused,
        // one line per bad field, and Envoy keeps the table it has.
        for excluded in router.excluded.iter().filter(|e| !e.errors.is_empty()) {
            for error in &excluded.errors {
                report.errors.push(format!("Ingress {}/{}: {error}", excluded.namespace, excluded.name));
            }
        }
        for diagnostic in diagnostics.iter().filter(|d| d.severity != Severity::Error) {
            let objects: Vec<String> = diagnostic.objects.iter().map(|o| o.to_string()).collect();
            report.warnings.push(format!("{diagnostic} [{}]", objects.join(", ")));
        }
        if !report.errors.is_empty() {
            return (None, report);
        }
        (Some(Table::with_targets(router, normalization, &templates.0, &templates.1)), report)
    }

    fn with_targets(
        router: Router,
        normalization: Option<PathNormalization>,
        service: &Template,
        resource: &Template,
    ) -> Table {
        let mut table = Table {
            normalization,
            route_targets: Vec::with_capacity(router.routes.len()),
            default_targets: Vec::with_capacity(router.defaults.len()),
            clusters: Vec::new(),
            ingresses: router.ingresses.iter().map(|i| i.key()).collect(),
            matches: Vec::new(),
            router: Router::default(),
        };
        let mut cluster_index = std::collections::HashMap::new();
        let mut target = |table: &mut Table, ingress: usize, field: String, backend: &IngressBackend| {
            // The backend's namespace is its Ingress's (the core's Decision will name it; until then, here).
            let name = cluster_name(service, resource, &router.ingresses[ingress].namespace, backend);
            let cluster = *cluster_index.entry(name.clone()).or_insert_with(|| {
                table.clusters.push(name);
                table.clusters.len() as u32 - 1
            });
            table.matches.push(format!("{} {field}", table.ingresses[ingress]));
            Target { cluster, ingress: ingress as u32, matched: table.matches.len() as u32 - 1 }
        };
        for route in &router.routes {
            let t = target(&mut table, route.ingress, route.field(), &route.backend);
            table.route_targets.push(t);
        }
        for default in &router.defaults {
            // `None`: the configured default backend, which this filter never sets.
            let t = default.ingress.map(|i| target(&mut table, i, "spec.defaultBackend".into(), &default.backend));
            table.default_targets.push(t);
        }
        table.router = router;
        table
    }

    /// `namespace/name spec.rules[i].http.paths[j]` (or `spec.defaultBackend`) of a match.
    pub fn matched(&self, matched: u32) -> &str {
        self.matches.get(matched as usize).map_or("", String::as_str)
    }

    /// Routes one request: `host` from `:authority`, `path` from `:path` (query included; the
    /// core ignores it). Allocates nothing unless the table normalises paths itself.
    pub fn route(&self, host: &[u8], path: &[u8]) -> Outcome<'_> {
        let normalized;
        let path = match &self.normalization {
            None => path,
            Some(how) => match normalize_path(path, how) {
                Ok(p) => {
                    normalized = p;
                    &normalized
                }
                Err(_) => return Outcome::Rejected { status: 400, reason: "escaped slash in path" },
            },
        };
        let decision = self.router.route(&Request::from_bytes(host, path));
        let target = match decision.via {
            Via::None => return Outcome::NotFound,
            Via::Rule => decision.route.and_then(|r| self.route_targets.get(route_index(&self.router, r)?)).copied(),
            Via::DefaultBackend => decision
                .backend
                .and_then(|b| self.default_targets.get(default_index(&self.router, b)?).copied().flatten()),
        };
        match target {
            Some(t) => Outcome::Backend {
                cluster: &self.clusters[t.cluster as usize],
                ingress: t.ingress as usize,
                matched: t.matched,
                via_default: decision.via == Via::DefaultBackend,
            },
            // Every route and declared default has a target; answering beats trapping if that ever breaks.
            None => Outcome::Rejected { status: 500, reason: "backend without a cluster" },
        }
    }
}

// The decision borrows from the table; its position in the table's vectors finds the rendered
// cluster without hashing. When the core's Decision names its backend by index, these go away.
fn route_index(router: &Router, route: &Route) -> Option<usize> {
    index_in(&router.routes, route as *const Route as usize)
}

fn default_index(router: &Router, backend: &IngressBackend) -> Option<usize> {
    index_in(&router.defaults, backend as *const IngressBackend as usize)
}

/// The index of the element of `slice` whose bytes hold `address`.
fn index_in<T>(slice: &[T], address: usize) -> Option<usize> {
    let start = slice.as_ptr() as usize;
    let size = core::mem::size_of::<T>().max(1);
    (address >= start && address < start + slice.len() * size).then(|| (address - start) / size)
}

fn compile_options(config: &PluginConfig) -> Result<(CompileOptions, Option<PathNormalization>), String> {
    let bad = |key: &str, value: &str, expected: &str| {
        format!("plugin configuration: {key} {value:?} is not one of {expected}")
    };
    let implementation_specific = match config.implementation_specific.as_deref() {
        None => ImplementationSpecific::default(),
        Some(s) => ImplementationSpecific::parse(s)
            .ok_or_else(|| bad("implementationSpecific", s, "prefix, exact, string-prefix"))?,
    };
    let profile = match config.profile.as_deref() {
        None => Profile::default(),
        Some(s) => Profile::parse(s).ok_or_else(|| bad("profile", s, "spec"))?,
    };
    let escaped_slashes = match config.escaped_slashes.as_deref() {
        None => EscapedSlashes::default(),
        Some(s) => EscapedSlashes::parse(s).ok_or_else(|| {
            bad("escapedSlashes", s, "KEEP_UNCHANGED, UNESCAPE_AND_FORWARD, REJECT_REQUEST, UNESCAPE_AND_REDIRECT")
        })?,
    };
    let normalization = PathNormalization {
        normalize_path: config.normalize_path,
        merge_slashes: config.merge_slashes,
        escaped_slashes,
    };
    let options = CompileOptions {
        ingress_class: config.ingress_class.clone(),
        implementation_specific,
        profile,
        ..CompileOptions::default()
    };
    // Envoy normalises before filters run (see envoy.yaml); the table only does it when asked.
    Ok((options, (normalization != PathNormalization::default()).then_some(normalization)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        Table::build(&PluginConfig::parse(config.as_bytes()).unwrap())
    }

    #[test]
    fn routes_to_cluster_names() {
        let (table, report) = table("");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let t = table.unwrap();
        let backend = |host: &str, path: &str| match t.route(host.as_bytes(), path.as_bytes()) {
            Outcome::Backend { cluster, matched, via_default, .. } => {
                format!("{cluster} {} {via_default}", t.matched(matched))
            }
            other => format!("{other:?}"),
        };
        assert_eq!(
            backend("shop.example.com", "/cart/items?x=1"),
            "shop/cart-api:8080 shop/storefront spec.rules[0].http.paths[1] false"
        );
        assert_eq!(
            backend("Shop.Example.com.:443", "/assets"),
            "shop/resource/k8s.example.com/StorageBucket/assets shop/storefront spec.rules[0].http.paths[2] false"
        );
        assert_eq!(backend("api.example.com", "/v1/x"), "api/v1:80 api/api spec.rules[0].http.paths[0] false");
        // No rule for the path in api.example.com's tier: the only defaultBackend answers.
        assert_eq!(backend("api.example.com", "/v2"), "shop/fallback:http shop/storefront spec.defaultBackend true");
        assert_eq!(t.ingresses, vec!["shop/storefront", "api/api"]);
    }

    #[test]
    fn not_found_without_default() {
        let config = r#"{"manifests": {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": "a", "namespace": "ns"}, "spec": {"rules": [{"host": "a.example.com",
            "http": {"paths": [{"path": "/a", "pathType": "Exact",
            "backend": {"service": {"name": "a", "port": {"number": 1}}}}]}}]}}}"#;
        let (t, _) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap());
        let t = t.unwrap();
        assert_eq!(t.route(b"a.example.com", b"/b"), Outcome::NotFound);
        assert_eq!(t.route(b"", b""), Outcome::NotFound);
        assert!(matches!(t.route(b"a.example.com", b"/a?q"), Outcome::Backend { cluster: "ns/a:1", .. }));
    }

    #[test]
    fn table_normalisation_when_asked() {
        let (t, _) = table(r#", "normalizePath": true, "mergeSlashes": true, "escapedSlashes": "REJECT_REQUEST""#);
        let t = t.unwrap();
        assert!(matches!(
            t.route(b"shop.example.com", b"//x/../cart"),
            Outcome::Backend { cluster: "shop/cart-api:8080", .. }
        ));
        assert!(matches!(t.route(b"shop.example.com", b"/cart%2Fx"), Outcome::Rejected { status: 400, .. }));
    }

    #[test]
    fn invalid_ingress_refuses_the_configuration() {
        let bad = SHOP.replace("path: /cart,", "path: /cart/../admin,");
        let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(&bad).unwrap());
        let (t, report) = Table::build(&PluginConfig::parse(config.as_bytes()).unwrap());
        assert!(t.is_none());
        assert!(
            report.errors.iter().any(|e| e.starts_with("Ingress shop/storefront: spec.rules[0].http.paths[1].path")),
            "{:?}",
            report.errors
        );
    }

    #[test]
    fn configuration_errors_are_named() {
        let errors = |json: &str| Table::build(&PluginConfig::parse(json.as_bytes()).unwrap()).1.errors.join("\n");
        assert!(errors(r#"{"manifests": "kind: Ingress\n  bad: [indent"}"#).contains("manifests"));
        assert!(
            errors(r#"{"manifests": "apiVersion: v1\nkind: Service\nmetadata: {name: s}"}"#).contains("no Ingress")
        );
        assert!(errors(r#"{"manifests": "", "implementationSpecific": "regex"}"#).contains("implementationSpecific"));
        assert!(errors(r#"{"manifests": "", "clusterTemplate": "{svc}"}"#).contains("{svc}"));
    }

    #[test]
    fn other_classes_are_left_out_not_refused() {
        let (t, report) = table(r#", "ingressClass": "nginx""#);
        assert!(report.errors.is_empty());
        assert!(report.warnings.iter().any(|w| w.contains("class-not-served")), "{:?}", report.warnings);
        assert_eq!(t.unwrap().route(b"shop.example.com", b"/cart"), Outcome::NotFound);
    }
}
