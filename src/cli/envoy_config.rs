//! `envoy-config`: a complete Envoy bootstrap for the given manifests, so nobody writes clusters
//! by hand. Either with the proxy-wasm filter (manifests embedded in its configuration, routing by
//! `cluster_header`) or, with `--native`, with the equivalent native RouteConfiguration: one
//! virtual host per host tier, routes in the core's precedence order, the way Envoy-based
//! controllers translate Ingress.
//!
//! Precedence is never decided here: the routes of each host table come in the order the core's
//! table gives them, and Envoy takes the first route that matches, which is then the winner.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use ingress_router::host::Tier;
use ingress_router::model::{IngressBackend, Object, Service};
use ingress_router::path::MatchKind;
use ingress_router::table::{HostTable, Standing};
use ingress_router::{Router, compile};
use serde_json::{Value, json};

use super::{Common, Failure, load, print, show};

pub const EXAMPLES: &str = "\
Examples:
  ingress-router envoy-config -f examples/shop/manifests --wasm ingress_router_envoy.wasm > envoy.json
  ingress-router envoy-config -f examples/shop/manifests --wasm x.wasm --native
  ingress-router envoy-config -f manifests/ --wasm x.wasm --upstream 127.0.0.1:8080 --listen 127.0.0.1:10000

The output is JSON, which Envoy reads as YAML too: envoy -c envoy.json";

#[derive(Args)]
pub struct EnvoyConfigArgs {
    #[command(flatten)]
    common: Common,
    /// The filter's .wasm file (the path Envoy will read).
    #[arg(long, value_name = "PATH")]
    wasm: PathBuf,
    /// Native Envoy routes instead of the filter.
    #[arg(long)]
    native: bool,
    /// Listener address.
    #[arg(long, value_name = "HOST:PORT", default_value = "0.0.0.0:10000")]
    listen: String,
    /// Admin interface address.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:9901")]
    admin: String,
    /// Address of each Service cluster; `{service}`, `{namespace}`, `{port}` (the port number,
    /// named ports resolved through the Services in the input).
    #[arg(long, value_name = "TEMPLATE", default_value = "{service}.{namespace}.svc.cluster.local:{port}")]
    upstream: String,
    /// Address of resource-backend clusters (`{namespace}`, `{kind}`, `{name}`); without it they have no endpoints.
    #[arg(long, value_name = "TEMPLATE")]
    resource_upstream: Option<String>,
    /// The request header the filter sets and the route's cluster_header reads.
    #[arg(long, value_name = "NAME", default_value = "x-ingress-backend")]
    routing_header: String,
    /// Add the response header naming the matched Ingress and rule (x-ingress-router-match).
    #[arg(long)]
    debug_header: bool,
    /// What Envoy does when the filter fails: FAIL_RELOAD, FAIL_CLOSED or FAIL_OPEN.
    #[arg(long, value_name = "POLICY", default_value = "FAIL_RELOAD")]
    failure_policy: String,
}

/// One Envoy cluster: its name (as the filter names it) and where it points.
struct Cluster {
    name: String,
    address: Option<(String, u16)>,
}

pub fn run(args: &EnvoyConfigArgs) -> Result<i32, Failure> {
    if !matches!(args.failure_policy.as_str(), "FAIL_RELOAD" | "FAIL_CLOSED" | "FAIL_OPEN") {
        return Err(Failure(format!(
            "--failure-policy {}: expected FAIL_RELOAD, FAIL_CLOSED or FAIL_OPEN",
            args.failure_policy
        )));
    }
    let loaded = load::load(&args.common.files)?;
    loaded.require_ingress("nothing to route")?;
    let objects = loaded.objects();
    let (options, _) = load::options(&args.common, &load::FileOptions::default());
    let (router, diagnostics) = compile(&objects, &options);
    for d in &diagnostics {
        load::stderr(d);
    }
    let services: Vec<&Service> = objects
        .iter()
        .filter_map(|o| match o {
            Object::Service(s) => Some(s),
            _ => None,
        })
        .collect();
    let clusters = clusters(args, &router, &services)?;
    let route_config = if args.native {
        native_routes(&router)
    } else {
        json!({"name": "ingress", "virtual_hosts": [{"name": "ingress", "domains": ["*"],
            "routes": [{"match": {"prefix": "/"}, "route": {"cluster_header": args.routing_header}}]}]})
    };
    let plugin = json!({
        "manifests": objects.iter().filter(|o| !matches!(o, Object::Service(_))).collect::<Vec<_>>(),
        "ingressClass": args.common.ingress_class,
        "implementationSpecific": args.common.implementation_specific,
        "routingHeader": args.routing_header,
        "debugHeader": args.debug_header,
    });
    let bootstrap = bootstrap(args, route_config, &plugin, &clusters)?;
    print(&show::json(&bootstrap));
    Ok(0)
}

/// `host:port` into its parts.
fn address(text: &str, what: &str) -> Result<(String, u16), Failure> {
    let bad = || Failure(format!("{what} {text:?}: expected HOST:PORT"));
    let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
    let port = port.parse::<u16>().map_err(|_| bad())?;
    Ok((host.trim_matches(['[', ']']).to_string(), port))
}

fn socket(host: &str, port: u16) -> Value {
    json!({"socket_address": {"address": host, "port_value": port}})
}

/// The cluster name the filter uses for a backend of an Ingress in `namespace` (its default template).
pub fn cluster_name(namespace: &str, backend: &IngressBackend) -> String {
    match &backend.resource {
        Some(r) if backend.service.is_none() => {
            format!("{namespace}/resource/{}/{}/{}", r.api_group.as_deref().unwrap_or(""), r.kind, r.name)
        }
        _ => format!("{namespace}/{backend}"),
    }
}

/// One cluster per backend the table references, sorted by name.
fn clusters(args: &EnvoyConfigArgs, router: &Router, services: &[&Service]) -> Result<Vec<Cluster>, Failure> {
    let mut found: BTreeMap<String, Cluster> = BTreeMap::new();
    let backends = router
        .routes
        .iter()
        .map(|r| (r.ingress, r.field(), &r.backend))
        .chain(router.defaults.iter().filter_map(|d| Some((d.ingress?, "spec.defaultBackend".into(), &d.backend))));
    for (ingress, field, backend) in backends {
        let ingress = &router.ingresses[ingress];
        let name = cluster_name(&ingress.namespace, backend);
        if found.contains_key(&name) {
            continue;
        }
        let address = match (&backend.service, &args.resource_upstream) {
            (Some(service), _) => {
                let port = match (
                    service.port.as_ref().and_then(|p| p.number),
                    service.port.as_ref().and_then(|p| p.name.as_deref()),
                ) {
                    (Some(n), _) if n != 0 => n,
                    (_, Some(port_name)) if args.upstream.contains("{port}") => {
                        resolve_port(services, &ingress.namespace, &service.name, port_name).ok_or_else(|| {
                            Failure(format!(
                                "Ingress {} {field}: backend {backend} names port {port_name:?}, and no Service {}/{} \
                                 with a port of that name is in the input; add the Service manifest with -f, or give \
                                 --upstream an address without {{port}}",
                                ingress.key(),
                                ingress.namespace,
                                service.name
                            ))
                        })?
                    }
                    _ => 0,
                };
                let text = args
                    .upstream
                    .replace("{service}", &service.name)
                    .replace("{namespace}", &ingress.namespace)
                    .replace("{port}", &port.to_string());
                Some(address(&text, "--upstream")?)
            }
            (None, Some(template)) => {
                let r = backend.resource.as_ref();
                let text = template
                    .replace("{namespace}", &ingress.namespace)
                    .replace("{kind}", r.map_or("", |r| &r.kind))
                    .replace("{name}", r.map_or("", |r| &r.name));
                Some(address(&text, "--resource-upstream")?)
            }
            (None, None) => {
                load::stderr(&format_args!(
                    "note: cluster {name} (Ingress {} {field}) is a resource backend and has no endpoints; \
                     give --resource-upstream to point it somewhere",
                    ingress.key()
                ));
                None
            }
        };
        found.insert(name.clone(), Cluster { name, address });
    }
    Ok(found.into_values().collect())
}

fn resolve_port(services: &[&Service], namespace: &str, service: &str, port_name: &str) -> Option<i64> {
    services
        .iter()
        .filter(|s| s.metadata.name == service && s.metadata.namespace_or_default() == namespace)
        .flat_map(|s| s.spec.ports.iter())
        .find(|p| p.name.as_deref() == Some(port_name))
        .map(|p| p.port)
}

fn bootstrap(
    args: &EnvoyConfigArgs,
    route_config: Value,
    plugin: &Value,
    clusters: &[Cluster],
) -> Result<Value, Failure> {
    let (listen_host, listen_port) = address(&args.listen, "--listen")?;
    let (admin_host, admin_port) = address(&args.admin, "--admin")?;
    let mut http_filters = Vec::new();
    if !args.native {
        http_filters.push(json!({
            "name": "envoy.filters.http.wasm",
            "typed_config": {
                "@type": "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm",
                "config": {
                    "name": "ingress-router",
                    "root_id": "ingress-router",
                    "failure_policy": args.failure_policy,
                    "vm_config": {
                        "vm_id": "ingress-router",
                        "runtime": "envoy.wasm.runtime.v8",
                        "code": {"local": {"filename": args.wasm.display().to_string()}}
                    },
                    "configuration": {
                        "@type": "type.googleapis.com/google.protobuf.StringValue",
                        "value": plugin.to_string()
                    }
                }
            }
        }));
    }
    http_filters.push(json!({"name": "envoy.filters.http.router",
        "typed_config": {"@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"}}));
    let escaped = match args.common.escaped_slashes {
        Some(ingress_router::normalize::EscapedSlashes::UnescapeAndRedirect) => "UNESCAPE_AND_REDIRECT",
        _ => "REJECT_REQUEST",
    };
    let hcm = json!({
        "@type": "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
        "stat_prefix": "ingress",
        // Route on the path the backend will see (SEMANTICS: paths and security inside a proxy).
        "normalize_path": true,
        "merge_slashes": true,
        "path_with_escaped_slashes_action": escaped,
        "strip_any_host_port": args.native,
        // The client never names the cluster: the routing header goes before any filter runs.
        "early_header_mutation_extensions": [{
            "name": "envoy.http.early_header_mutation.header_mutation",
            "typed_config": {
                "@type": "type.googleapis.com/envoy.extensions.http.early_header_mutation.header_mutation.v3.HeaderMutation",
                "mutations": [{"remove": args.routing_header}]
            }
        }],
        "route_config": route_config,
        "http_filters": http_filters,
    });
    let clusters: Vec<Value> = clusters
        .iter()
        .map(|c| {
            let endpoints: Vec<Value> =
                c.address.iter().map(|(host, port)| json!({"endpoint": {"address": socket(host, *port)}})).collect();
            json!({
                "name": c.name,
                "type": "STRICT_DNS",
                "connect_timeout": "1s",
                "load_assignment": {"cluster_name": c.name, "endpoints": [{"lb_endpoints": endpoints}]}
            })
        })
        .collect();
    Ok(json!({
        "admin": {"address": socket(&admin_host, admin_port)},
        "static_resources": {
            "listeners": [{
                "name": "ingress",
                "address": socket(&listen_host, listen_port),
                "filter_chains": [{"filters": [{"name": "envoy.filters.network.http_connection_manager", "typed_config": hcm}]}]
            }],
            "clusters": clusters
        }
    }))
}

/// The native RouteConfiguration: one virtual host per host table, routes in precedence order.
fn native_routes(router: &Router) -> Value {
    let any = router.hosts.iter().find(|t| t.tier == Tier::Any);
    let global_default = router.default.and_then(|d| default_cluster(router, d));
    let mut virtual_hosts = Vec::new();
    for table in &router.hosts {
        let (domains, guard) = match table.tier {
            Tier::Exact => (vec![table.host.clone(), format!("{}.", table.host)], None),
            // Envoy's `*.foo.com` covers any number of labels, an Ingress wildcard exactly one:
            // the wildcard's routes are guarded, and hosts with more labels fall through to the
            // host-less rules, appended after them.
            Tier::Wildcard => {
                let suffix = table.host.trim_start_matches('*');
                let regex = format!("(?i)^[^.:]+{}\\.?(:[0-9]+)?$", suffix.replace('.', "\\."));
                (vec![table.host.clone(), format!("{}.", table.host)], Some(regex))
            }
            Tier::Any => continue,
        };
        let mut routes = table_routes(router, table, guard.as_deref());
        if table.tier == Tier::Wildcard {
            routes.extend(any.map_or_else(Vec::new, |t| table_routes(router, t, None)));
            routes.extend(fallback(
                any.and_then(|t| t.default).and_then(|d| default_cluster(router, d)).or(global_default.clone()),
                None,
            ));
        }
        virtual_hosts.push(json!({"name": table.host, "domains": domains, "routes": routes}));
    }
    let mut routes = any.map_or_else(Vec::new, |t| table_routes(router, t, None));
    if any.is_none() {
        routes.extend(fallback(global_default, None));
    }
    virtual_hosts.push(json!({"name": "(any host)", "domains": ["*"], "routes": routes}));
    json!({"name": "ingress", "virtual_hosts": virtual_hosts})
}

fn default_cluster(router: &Router, d: usize) -> Option<String> {
    let default = &router.defaults[d];
    Some(cluster_name(&router.ingresses[default.ingress?].namespace, &default.backend))
}

/// A catch-all route to the default backend, if there is one.
fn fallback(cluster: Option<String>, guard: Option<&str>) -> Option<Value> {
    cluster.map(|c| with_guard(json!({"match": {"prefix": "/"}, "route": {"cluster": c}}), guard))
}

fn with_guard(mut route: Value, guard: Option<&str>) -> Value {
    if let Some(regex) = guard {
        route["match"]["headers"] = json!([{"name": ":authority", "string_match": {"safe_regex": {"regex": regex}}}]);
    }
    route
}

/// The table's routes, strongest first, then its default backend (or the global one).
fn table_routes(router: &Router, table: &HostTable, guard: Option<&str>) -> Vec<Value> {
    let mut routes = Vec::new();
    for &r in &table.routes {
        let route = &router.routes[r];
        if route.standing != Standing::Active {
            continue; // another route always wins its requests
        }
        let key = ingress_router::path::match_key(route.match_kind, &route.path);
        let matcher = match route.match_kind {
            MatchKind::Exact => json!({"path": route.path}),
            MatchKind::ElementPrefix if key.is_empty() => json!({"prefix": "/"}),
            MatchKind::ElementPrefix => json!({"path_separated_prefix": key}),
            MatchKind::StringPrefix => json!({"prefix": route.path}),
        };
        let cluster = cluster_name(&router.ingresses[route.ingress].namespace, &route.backend);
        routes.push(with_guard(
            json!({"match": matcher, "route": {"cluster": cluster},
            "name": format!("{} {}", router.ingresses[route.ingress].key(), route.field())}),
            guard,
        ));
    }
    let default = table.default.or(router.default).and_then(|d| default_cluster(router, d));
    match (default, guard) {
        // A guarded (wildcard) tier that was chosen must not fall through to the host-less routes after it.
        (None, Some(_)) => routes.push(with_guard(
            json!({"match": {"prefix": "/"}, "direct_response": {"status": 404, "body": {"inline_string": "no Ingress rule or default backend for this host and path\n"}}}),
            guard,
        )),
        (default, guard) => routes.extend(fallback(default, guard)),
    }
    routes
}
