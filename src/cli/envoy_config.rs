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

use base64::Engine as _;

use crate::model::{Object, Service};
use crate::{
    BackendRef, ClusterNames, CompileOptions, Decision, EscapedSlashes, HostView, MatchKind, Profile, RegexLimits,
    Router, ServicePort, StandingView, TableView, Tier,
};
use clap::{Args, ValueEnum};
use serde_json::{Map, Value, json};

use super::mesh::{self, Destination, Format, Module, Target};
use super::{Common, Failure, load, print, show};

pub const EXAMPLES: &str = "\
Examples:
  ingress-router envoy-config -f examples/shop/manifests --wasm ingress_router_envoy.wasm > envoy.json
  ingress-router envoy-config -f examples/shop/manifests --wasm x.wasm --native
  ingress-router envoy-config -f manifests/ --wasm x.wasm --upstream 127.0.0.1:8080 --listen 127.0.0.1:10000
  ingress-router envoy-config -f manifests/ --wasm /etc/envoy/x.wasm --ecds /etc/envoy/ecds/filter.yaml > envoy.json
  ingress-router envoy-config -f manifests/ --wasm /etc/envoy/x.wasm --format ecds > /etc/envoy/ecds/filter.yaml
  ingress-router envoy-config -f manifests/ --wasm /etc/envoy/x.wasm --format ecds --table > filter.yaml  # a compiled table
  ingress-router envoy-config -f manifests/ --format wasm-plugin --url oci://ghcr.io/o/ingress-router-envoy:0.1.0 --sha256 DIGEST
  ingress-router envoy-config -f manifests/ --format envoy-extension-policy --target-ref Gateway/eg \\
      --namespace default --url oci://ghcr.io/o/ingress-router-envoy:0.1.0 --sha256 DIGEST

The bootstrap is JSON, which Envoy reads as YAML too: envoy -c envoy.json. The other formats are
YAML to apply as is (kubectl apply -f, or Envoy's ECDS path). DIGEST: the image digest
`make envoy-image` prints; for file:// and http(s):// URLs --sha256 defaults to --wasm's.";

#[derive(Args)]
pub struct EnvoyConfigArgs {
    #[command(flatten)]
    common: Common,
    /// What to write: a bootstrap, an ECDS resource, or a control plane's resources.
    #[arg(long, value_enum, default_value = "bootstrap")]
    format: Format,
    /// The filter's .wasm file (the path Envoy will read); for bootstrap and ecds.
    #[arg(long, value_name = "PATH")]
    wasm: Option<PathBuf>,
    /// bootstrap: take the filter's configuration from this ECDS file (write it with --format
    /// ecds; renaming a new one over it swaps the configuration without touching the listener).
    #[arg(long, value_name = "PATH")]
    ecds: Option<String>,
    /// Where a control plane fetches the module: oci://REGISTRY/IMAGE:TAG, https://…, or file://….
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// The module's pin: the image digest for oci:// (printed by make envoy-image), else the
    /// .wasm's sha256 (computed from --wasm when omitted).
    #[arg(long, value_name = "HEX")]
    sha256: Option<String>,
    /// Name of the generated resources.
    #[arg(long, value_name = "NAME", default_value = mesh::PLUGIN_NAME)]
    name: String,
    /// Namespace of the generated resources (istio-system for Istio, default for Envoy Gateway).
    #[arg(long, value_name = "NS")]
    namespace: Option<String>,
    /// Istio: the workloads the plugin applies to (KEY=VALUE, repeatable; istio=ingressgateway
    /// when neither this nor --target-ref is given).
    #[arg(long, value_name = "KEY=VALUE")]
    selector: Vec<String>,
    /// A Gateway API object the plugin or policy attaches to (KIND/NAME, repeatable), e.g. Gateway/eg.
    #[arg(long, value_name = "KIND/NAME")]
    target_ref: Vec<String>,
    /// Istio: the Gateway the VirtualService binds to (NS/NAME, or mesh; repeatable).
    #[arg(long, value_name = "NS/NAME")]
    istio_gateway: Vec<String>,
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
    /// The filter refuses the whole configuration when any Ingress is invalid (by default it
    /// leaves that Ingress out and the others serve).
    #[arg(long)]
    strict: bool,
    /// What Envoy does when the filter fails: FAIL_RELOAD, FAIL_CLOSED or FAIL_OPEN.
    #[arg(long, value_name = "POLICY", default_value = "FAIL_RELOAD")]
    failure_policy: String,
    /// Route through the input's Gateway API objects at this Gateway (NAMESPACE/NAME, or NAME):
    /// the filter routes with Gateway API semantics, a cluster per backendRef. Without it, Gateway
    /// API input with no Ingress routes through its only Gateway.
    #[arg(long, value_name = "NS/NAME")]
    gateway: Option<String>,
    /// Gateway API: the port of the Gateway listener this Envoy listener serves; the filter routes
    /// every request as arriving on it. Without it, the `Host` header's port picks the Gateway
    /// listener (else 80 for http, 443 for https), which a gRPC client's `host:port` authority
    /// rarely names.
    #[arg(long, value_name = "PORT")]
    gateway_port: Option<u16>,
    /// Ship the filter the compiled table (as `ingress-router compile` writes it, base64) instead
    /// of the manifests: each VM only loads it (no YAML reading, validation or compiling), which
    /// cuts its memory and configure time. Ingress input with the spec profile.
    #[arg(long)]
    table: bool,
}

/// One Envoy cluster: its name (as the filter names it), where it points, the Service
/// (namespace, name) behind it, and whether Envoy speaks HTTP/2 to it ([`upstream_http2`]).
struct Cluster {
    name: String,
    address: Option<(String, u16)>,
    service: Option<(String, String)>,
    http2: bool,
}

/// Whether Envoy speaks HTTP/2 cleartext (h2c) to a backend rather than HTTP/1.1. The Service
/// port's `appProtocol` decides when it names a protocol (Kubernetes' `kubernetes.io/h2c`, and
/// `grpc`, `http2`, `h2c` as meshes write it: HTTP/2; `http`, `kubernetes.io/ws`: HTTP/1.1).
/// Otherwise the routes sending to it decide: only GRPCRoutes (gRPC needs HTTP/2 end to end),
/// HTTP/2; any Ingress or HTTPRoute, HTTP/1.1, which every HTTP backend speaks.
fn upstream_http2(app_protocol: Option<&str>, only_grpc_routes: bool) -> bool {
    match app_protocol {
        Some("kubernetes.io/h2c" | "grpc" | "http2" | "h2c") => true,
        Some("http" | "kubernetes.io/ws") => false,
        _ => only_grpc_routes,
    }
}

/// The `appProtocol` of a Service port in the input, the port given by number or by name.
fn app_protocol<'s>(
    services: &[&'s Service],
    namespace: &str,
    service: &str,
    port: &ServicePort<'_>,
) -> Option<&'s str> {
    services
        .iter()
        .filter(|s| s.metadata.name == service && s.metadata.namespace_or_default() == namespace)
        .flat_map(|s| s.spec.ports.iter())
        .find(|p| match port {
            ServicePort::Number(n) => p.port == i64::from(*n),
            ServicePort::Name(name) => p.name.as_deref() == Some(*name),
        })
        .and_then(|p| p.app_protocol.as_deref())
}

pub fn run(args: &EnvoyConfigArgs) -> Result<i32, Failure> {
    if !matches!(args.failure_policy.as_str(), "FAIL_RELOAD" | "FAIL_CLOSED" | "FAIL_OPEN") {
        return Err(Failure(format!(
            "--failure-policy {}: expected FAIL_RELOAD, FAIL_CLOSED or FAIL_OPEN",
            args.failure_policy
        )));
    }
    if args.table && args.native {
        return Err(Failure(
            "--table ships the filter a table; --native writes Envoy routes without the filter: \
                            give one of them"
                .into(),
        ));
    }
    let loaded = load::load(&args.common.files)?;
    let router = load::router(&loaded, &args.common, &CompileOptions::default(), args.gateway.as_deref())?;
    // The clusters come from the table's backends, whose shape differs by input.
    if let Some(table) = router.table().gateway {
        if args.table {
            return Err(Failure(
                "--table: tables hold Ingress routing (the spec profile); the filter reads Gateway API \
                 manifests itself: leave out --table"
                    .into(),
            ));
        }
        return run_gateway(args, &loaded, &table, router.options());
    }
    if args.gateway_port.is_some() {
        return Err(Failure(
            "--gateway-port names a Gateway listener's port; Ingresses route by host and path, whatever the port: \
             leave it out"
                .into(),
        ));
    }
    let objects = loaded.objects();
    let options = router.options().clone();
    if args.native && options.profile != Profile::Spec {
        return Err(Failure(format!(
            "--native writes the spec profile's routes; the {} profile (regex locations, canaries, \
             redirects, rewrites) needs the filter: leave out --native",
            options.profile
        )));
    }
    let services = services_of(&objects);
    // The plugin configuration below sets no template: the filter names clusters by the same
    // defaults.
    let names = ClusterNames::default();
    let clusters = clusters(args, &router, &names, &services)?;
    let route_config = if args.native {
        native_routes(&router.table(), &answer_clusters(&router, &names))
    } else {
        header_route(args)
    };
    let mut plugin = Map::new();
    // The compile options as the core writes them (defaults left out), less the normalisation,
    // which Envoy does before any filter runs (the listener below).
    let table_options = options
        .clone()
        .with_normalize_path(false)
        .with_merge_slashes(false)
        .with_escaped_slashes(EscapedSlashes::default());
    if args.table {
        // Compiled with the options the filter would compile with: the table holds them.
        let filter_router =
            crate::compile(&loaded.input(), &table_options).map_err(|e| Failure(format!("{}: {e}", loaded.names())))?;
        let bytes = filter_router.to_table_file().map_err(|e| Failure(format!("--table: {e}")))?;
        plugin.insert("table".into(), json!(base64::engine::general_purpose::STANDARD.encode(bytes)));
    } else {
        plugin.insert(
            "manifests".into(),
            json!(objects.iter().filter(|o| !matches!(o, Object::Service(_))).collect::<Vec<_>>()),
        );
        if let Value::Object(fields) = json!(table_options) {
            plugin.extend(fields);
        }
    }
    plugin.insert("routingHeader".into(), json!(args.routing_header));
    plugin.insert("debugHeader".into(), json!(args.debug_header));
    if args.strict {
        plugin.insert("strict".into(), json!(true));
    }
    let plugin = Value::Object(plugin);
    match args.format {
        Format::Bootstrap => print(&show::json(&bootstrap(args, route_config, &plugin, &clusters)?)),
        Format::Ecds => print(&ecds(args, &plugin)?),
        format => {
            let destinations = destinations(&clusters);
            let text = mesh::resources(
                format,
                &module(args)?,
                &target(args, format, &router.table())?,
                &plugin,
                &args.routing_header,
                &destinations,
            )?;
            print(&text);
        }
    }
    Ok(0)
}

/// The ECDS resource file carrying the filter's configuration.
fn ecds(args: &EnvoyConfigArgs, plugin: &Value) -> Result<String, Failure> {
    let config = wasm_config(args, plugin)?;
    // The version names the content: the same configuration, the same version.
    let version = sha256_hex(config.to_string().as_bytes())[..16].to_string();
    Ok(show::json(&mesh::ecds_file(&config, &version)))
}

/// The one route of a filter bootstrap: the cluster the routing header names.
fn header_route(args: &EnvoyConfigArgs) -> Value {
    json!({"name": "ingress", "virtual_hosts": [{"name": "ingress", "domains": ["*"],
        "routes": [{"match": {"prefix": "/"}, "route": {"cluster_header": args.routing_header}}]}]})
}

/// Gateway API input: the filter's configuration carries the Gateway API objects (with the
/// Services, which decide whether a backendRef is valid) and `gateway`, the Gateway the core
/// chose; a cluster per valid backendRef of an attached route, named as the filter names it.
fn run_gateway(
    args: &EnvoyConfigArgs,
    loaded: &load::Loaded,
    table: &crate::gateway::listing::GatewayTableView,
    options: &CompileOptions,
) -> Result<i32, Failure> {
    if args.native {
        return Err(Failure(
            "--native writes Ingress routes; Gateway API input routes through the filter: leave out --native".into(),
        ));
    }
    if !matches!(args.format, Format::Bootstrap | Format::Ecds) {
        return Err(Failure(format!(
            "--format {}: Gateway API input is written as a bootstrap or an ECDS resource (--format bootstrap, \
             --format ecds); control planes route Gateway API objects themselves",
            args.format.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
        )));
    }
    if let Some(port) = args.gateway_port
        && !table.listeners.iter().any(|l| l.port == port)
    {
        let ports: Vec<String> = table.listeners.iter().map(|l| l.port.to_string()).collect();
        return Err(Failure(format!(
            "--gateway-port {port}: Gateway {} has no listener on that port (its ports: {})",
            table.gateway.as_deref().unwrap_or_default(),
            ports.join(", ")
        )));
    }
    let objects = loaded.objects();
    let services = services_of(&objects);
    let names = ClusterNames::default();
    let mut found: BTreeMap<String, Cluster> = BTreeMap::new();
    // By cluster: its Service port, whether an HTTPRoute and whether a GRPCRoute sends to it
    // (`upstream_http2`).
    let mut senders: BTreeMap<String, (u16, bool, bool)> = BTreeMap::new();
    let attached = table.listeners.iter().flat_map(|l| &l.routes).filter(|r| r.not_attached.is_none());
    for route in attached {
        let grpc = route.kind == "GRPCRoute";
        for backend in route.rules.iter().flat_map(|r| &r.backends) {
            // Invalid backendRefs answer 500 for their share: the filter never names their cluster.
            let (None, Some(port)) = (&backend.invalid, backend.port) else { continue };
            let name = names.name(&BackendRef::Service {
                namespace: &backend.namespace,
                name: &backend.name,
                port: Some(ServicePort::Number(port)),
            });
            let sent = senders.entry(name.clone()).or_insert((port, false, false));
            if grpc {
                sent.2 = true;
            } else {
                sent.1 = true;
            }
            let text = args
                .upstream
                .replace("{service}", &backend.name)
                .replace("{namespace}", &backend.namespace)
                .replace("{port}", &port.to_string());
            let address = Some(address(&text, "--upstream")?);
            let service = Some((backend.namespace.clone(), backend.name.clone()));
            // The protocol is decided below, once every route sending to the cluster is known.
            found.insert(name.clone(), Cluster { name, address, service, http2: false });
        }
    }
    for (name, cluster) in &mut found {
        let (port, http, grpc) = senders[name];
        let Some((namespace, service)) = &cluster.service else { continue };
        let declared = app_protocol(&services, namespace, service, &ServicePort::Number(port));
        cluster.http2 = upstream_http2(declared, grpc && !http);
        if http && grpc && !cluster.http2 {
            load::stderr(&format_args!(
                "note: cluster {name} serves HTTPRoutes and GRPCRoutes, and its Service port declares no \
                 HTTP/2 appProtocol: Envoy speaks HTTP/1.1 to it, which gRPC calls cannot use; if the backend \
                 speaks HTTP/2 cleartext, set appProtocol: kubernetes.io/h2c on the port"
            ));
        }
    }
    let clusters: Vec<Cluster> = found.into_values().collect();
    let mut manifests: Vec<Value> = loaded.gateway_api.iter().map(|g| g.value.clone()).collect();
    manifests.extend(objects.iter().filter(|o| matches!(o, Object::Service(_))).map(|o| json!(o)));
    let mut plugin = Map::new();
    plugin.insert("manifests".into(), Value::Array(manifests));
    plugin.insert("gateway".into(), json!(table.gateway));
    if let Some(port) = args.gateway_port {
        plugin.insert("gatewayPort".into(), json!(port));
    }
    // The other Gateway API options, as the filter reads them (the same names as `--options`).
    if let Some(order) = options.regex_order {
        plugin.insert("regexOrder".into(), json!(order));
    }
    if let Some(check) = options.check_services {
        plugin.insert("checkServices".into(), json!(check));
    }
    if options.regex_limits != RegexLimits::default() {
        plugin.insert("regexLimits".into(), json!(options.regex_limits));
    }
    plugin.insert("routingHeader".into(), json!(args.routing_header));
    plugin.insert("debugHeader".into(), json!(args.debug_header));
    if args.strict {
        plugin.insert("strict".into(), json!(true));
    }
    let plugin = Value::Object(plugin);
    match args.format {
        Format::Ecds => print(&ecds(args, &plugin)?),
        _ => print(&show::json(&bootstrap(args, header_route(args), &plugin, &clusters)?)),
    }
    Ok(0)
}

/// `--url` and its pin.
fn module(args: &EnvoyConfigArgs) -> Result<Module, Failure> {
    let url = args.url.clone().ok_or_else(|| {
        Failure("--url is needed: where the control plane fetches the module (oci://…, https://…, file://…)".into())
    })?;
    let sha256 = match (&args.sha256, &args.wasm) {
        (Some(hex), _) => {
            let hex = hex.strip_prefix("sha256:").unwrap_or(hex).to_ascii_lowercase();
            if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(Failure(format!("--sha256 {hex:?}: expected 64 hex digits")));
            }
            hex
        }
        (None, _) if url.starts_with("oci://") => {
            return Err(Failure(
                "--sha256 is needed with an oci:// URL: the image digest `make envoy-image` prints, so that a \
                 moved tag cannot change the module"
                    .into(),
            ));
        }
        (None, Some(wasm)) => {
            let bytes = std::fs::read(wasm).map_err(|e| Failure(format!("{}: {e}", wasm.display())))?;
            sha256_hex(&bytes)
        }
        (None, None) => return Err(Failure("--sha256 or --wasm is needed to pin the module".into())),
    };
    Ok(Module { url, sha256 })
}

fn target(args: &EnvoyConfigArgs, format: Format, table: &TableView) -> Result<Target, Failure> {
    let rule_hosts =
        table.hosts.iter().map(|h| if h.tier == Tier::Any { String::new() } else { h.host.clone() }).collect();
    let default_namespace = if format == Format::EnvoyExtensionPolicy { "default" } else { "istio-system" };
    Ok(Target {
        name: args.name.clone(),
        namespace: args.namespace.clone().unwrap_or_else(|| default_namespace.into()),
        selector: args.selector.iter().map(|s| mesh::label(s)).collect::<Result<_, _>>()?,
        target_refs: args.target_ref.iter().map(|t| mesh::target_ref(t)).collect::<Result<_, _>>()?,
        istio_gateways: args.istio_gateway.clone(),
        rule_hosts,
    })
}

/// The Service behind each cluster with an address; resource backends have none to route to.
fn destinations(clusters: &[Cluster]) -> Vec<Destination> {
    clusters
        .iter()
        .filter_map(|c| {
            let (host, port) = c.address.clone()?;
            let (namespace, service) = c.service.clone()?;
            Some(Destination { cluster: c.name.clone(), service, namespace, host, port })
        })
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The Wasm HTTP filter's configuration (`envoy.extensions.filters.http.wasm.v3.Wasm`): inline in
/// the bootstrap, or the ECDS resource.
fn wasm_config(args: &EnvoyConfigArgs, plugin: &Value) -> Result<Value, Failure> {
    let wasm = args.wasm.as_ref().ok_or_else(|| Failure("--wasm is needed: the .wasm file Envoy reads".into()))?;
    Ok(json!({
        "@type": mesh::WASM_TYPE_URL,
        "config": {
            "name": mesh::PLUGIN_NAME,
            "root_id": mesh::PLUGIN_NAME,
            "failure_policy": args.failure_policy,
            "vm_config": {
                "vm_id": mesh::PLUGIN_NAME,
                "runtime": "envoy.wasm.runtime.v8",
                "code": {"local": {"filename": wasm.display().to_string()}}
            },
            "configuration": {
                "@type": "type.googleapis.com/google.protobuf.StringValue",
                "value": plugin.to_string()
            }
        }
    }))
}

/// `host:port` into its parts.
fn address(text: &str, what: &str) -> Result<(String, u16), Failure> {
    let bad = || Failure(format!("{what} {text:?}: expected HOST:PORT"));
    let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
    let port = port.parse::<u16>().map_err(|_| bad())?;
    Ok((host.trim_matches(['[', ']']).to_string(), port))
}

/// A cluster's upstream HTTP options: the extension's name, and its type under `type.googleapis.com/`.
const HTTP_PROTOCOL_OPTIONS: &str = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

fn socket(host: &str, port: u16) -> Value {
    json!({"socket_address": {"address": host, "port_value": port}})
}

/// The cluster name of each answer of the table ([`Decision::answer`]); `""` for one without a backend.
fn answer_clusters(router: &Router, names: &ClusterNames) -> Vec<String> {
    (0..router.answer_count())
        .map(|a| router.answer(a).and_then(|d| d.backend()).map_or_else(String::new, |b| names.name(&b)))
        .collect()
}

/// `namespace/name field` of the rule or defaultBackend an answer comes from.
fn answer_source(decision: &Decision<'_>) -> String {
    match (decision.matched(), decision.default_from()) {
        (Some(m), _) => format!("Ingress {} spec.rules[{}].http.paths[{}]", m.ingress, m.rule_index, m.path_index),
        (None, Some(ingress)) => format!("Ingress {ingress} spec.defaultBackend"),
        (None, None) => "the configured defaultBackend".into(),
    }
}

/// One cluster per backend the table references, sorted by name.
fn clusters(
    args: &EnvoyConfigArgs,
    router: &Router,
    names: &ClusterNames,
    services: &[&Service],
) -> Result<Vec<Cluster>, Failure> {
    let mut found: BTreeMap<String, Cluster> = BTreeMap::new();
    let decisions = (0..router.answer_count()).filter_map(|a| router.answer(a));
    for decision in decisions {
        let Some(backend) = decision.backend() else { continue };
        let name = names.name(&backend);
        if found.contains_key(&name) {
            continue;
        }
        let namespace = backend.namespace();
        let service = match &backend {
            BackendRef::Service { name, .. } => Some((namespace.to_string(), name.to_string())),
            _ => None,
        };
        let address = match (backend, &args.resource_upstream) {
            (BackendRef::Service { name: service, port, .. }, _) => {
                let port = match port {
                    Some(ServicePort::Number(n)) => i64::from(n),
                    Some(ServicePort::Name(port_name)) if args.upstream.contains("{port}") => {
                        resolve_port(services, namespace, service, port_name).ok_or_else(|| {
                            Failure(format!(
                                "{} names port {port_name:?} of Service {namespace}/{service}, and no Service \
                                 {namespace}/{service} with a port of that name is in the input; add the Service \
                                 manifest with -f, or give --upstream an address without {{port}}",
                                answer_source(&decision),
                            ))
                        })?
                    }
                    _ => 0,
                };
                let text = args
                    .upstream
                    .replace("{service}", service)
                    .replace("{namespace}", namespace)
                    .replace("{port}", &port.to_string());
                Some(address(&text, "--upstream")?)
            }
            (BackendRef::Resource { kind, name: resource, .. }, Some(template)) => {
                let text =
                    template.replace("{namespace}", namespace).replace("{kind}", kind).replace("{name}", resource);
                Some(address(&text, "--resource-upstream")?)
            }
            _ => {
                load::stderr(&format_args!(
                    "note: cluster {name} ({}) is a resource backend and has no endpoints; \
                     give --resource-upstream to point it somewhere",
                    answer_source(&decision)
                ));
                None
            }
        };
        // Ingresses carry HTTP: HTTP/2 only when the Service port declares it.
        let declared = match &backend {
            BackendRef::Service { name: service, port: Some(port), .. } => {
                app_protocol(services, namespace, service, port)
            }
            _ => None,
        };
        let http2 = upstream_http2(declared, false);
        found.insert(name.clone(), Cluster { name, address, service, http2 });
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
    match (args.native, &args.ecds) {
        (true, _) => {}
        (false, Some(path)) => http_filters.push(mesh::ecds_filter(path)),
        (false, None) => {
            http_filters.push(json!({"name": "envoy.filters.http.wasm", "typed_config": wasm_config(args, plugin)?}))
        }
    }
    http_filters.push(json!({"name": "envoy.filters.http.router",
        "typed_config": {"@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"}}));
    let escaped = match load::options(&args.common, &CompileOptions::default()).escaped_slashes {
        EscapedSlashes::UnescapeAndRedirect => "UNESCAPE_AND_REDIRECT",
        _ => "REJECT_REQUEST",
    };
    let hcm = json!({
        "@type": "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
        "stat_prefix": "ingress",
        // HTTP/1.1, and HTTP/2 with prior knowledge (h2c) as gRPC clients connect without TLS.
        "codec_type": "AUTO",
        // Route on the path the backend will see: `/public/../admin` must not reach another backend
        // than `/admin` does.
        "normalize_path": true,
        "merge_slashes": true,
        "path_with_escaped_slashes_action": escaped,
        "strip_any_host_port": args.native,
        // An edge proxy: x-forwarded-proto says how the client connected, whatever it sent (the
        // ingress-nginx profile's TLS redirects read it).
        "use_remote_address": true,
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
            let mut cluster = json!({
                "name": c.name,
                "type": "STRICT_DNS",
                "connect_timeout": "1s",
                "load_assignment": {"cluster_name": c.name, "endpoints": [{"lb_endpoints": endpoints}]}
            });
            if c.http2 {
                // HTTP/2 cleartext with prior knowledge, as gRPC servers expect (`upstream_http2`).
                cluster["typed_extension_protocol_options"] = json!({HTTP_PROTOCOL_OPTIONS: {
                    "@type": format!("type.googleapis.com/{HTTP_PROTOCOL_OPTIONS}"),
                    "explicit_http_config": {"http2_protocol_options": {}}
                }});
            }
            cluster
        })
        .collect();
    let mut bootstrap = json!({
        "admin": {"address": socket(&admin_host, admin_port)},
        "static_resources": {
            "listeners": [{
                "name": "ingress",
                "address": socket(&listen_host, listen_port),
                "filter_chains": [{"filters": [{"name": "envoy.filters.network.http_connection_manager", "typed_config": hcm}]}]
            }],
            "clusters": clusters
        }
    });
    if args.ecds.is_some() {
        // A discovery source needs the node's identity, even a file.
        bootstrap["node"] = json!({"id": mesh::PLUGIN_NAME, "cluster": mesh::PLUGIN_NAME});
    }
    Ok(bootstrap)
}

/// The native RouteConfiguration: one virtual host per host table, routes in precedence order.
/// `clusters`: the cluster of each answer ([`answer_clusters`]).
fn native_routes(table: &TableView, clusters: &[String]) -> Value {
    let cluster = |answer: Option<usize>| answer.and_then(|a| clusters.get(a)).filter(|c| !c.is_empty()).cloned();
    let any = table.hosts.iter().find(|t| t.tier == Tier::Any);
    let global_default = table.default_backend.as_ref().and_then(|d| cluster(d.answer));
    let mut virtual_hosts = Vec::new();
    for host in &table.hosts {
        let (domains, guard) = match host.tier {
            Tier::Exact => (vec![host.host.clone(), format!("{}.", host.host)], None),
            // Envoy's `*.foo.com` covers any number of labels, an Ingress wildcard exactly one:
            // the wildcard's routes are guarded, and hosts with more labels fall through to the
            // host-less rules, appended after them.
            Tier::Wildcard => {
                let suffix = host.host.trim_start_matches('*');
                let regex = format!("(?i)^[^.:]+{}\\.?(:[0-9]+)?$", suffix.replace('.', "\\."));
                (vec![host.host.clone(), format!("{}.", host.host)], Some(regex))
            }
            _ => continue,
        };
        let mut routes = host_routes(host, &cluster, &global_default, guard.as_deref());
        if host.tier == Tier::Wildcard {
            routes.extend(any.map_or_else(Vec::new, |t| host_routes(t, &cluster, &global_default, None)));
            let any_default = any.and_then(|t| t.default_backend.as_ref()).and_then(|d| cluster(d.answer));
            routes.extend(fallback(any_default.or(global_default.clone()), None));
        }
        virtual_hosts.push(json!({"name": host.host, "domains": domains, "routes": routes}));
    }
    let mut routes = any.map_or_else(Vec::new, |t| host_routes(t, &cluster, &global_default, None));
    if any.is_none() {
        routes.extend(fallback(global_default, None));
    }
    virtual_hosts.push(json!({"name": "(any host)", "domains": ["*"], "routes": routes}));
    json!({"name": "ingress", "virtual_hosts": virtual_hosts})
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

/// The host's routes, strongest first, then its default backend (or the global one).
fn host_routes(
    host: &HostView,
    cluster: &impl Fn(Option<usize>) -> Option<String>,
    global_default: &Option<String>,
    guard: Option<&str>,
) -> Vec<Value> {
    let mut routes = Vec::new();
    for path in &host.paths {
        if path.standing != StandingView::Active {
            continue; // another route always wins its requests
        }
        let key = path.match_kind.key(&path.path);
        let matcher = match path.match_kind {
            MatchKind::Exact => json!({"path": path.path}),
            MatchKind::ElementPrefix if key.is_empty() => json!({"prefix": "/"}),
            MatchKind::ElementPrefix => json!({"path_separated_prefix": key}),
            MatchKind::StringPrefix => json!({"prefix": path.path}),
        };
        let Some(cluster) = cluster(path.answer) else { continue };
        routes.push(with_guard(
            json!({"match": matcher, "route": {"cluster": cluster}, "name": format!("{} {}", path.ingress, path.field)}),
            guard,
        ));
    }
    let default = host.default_backend.as_ref().and_then(|d| cluster(d.answer)).or_else(|| global_default.clone());
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

/// The Services among `objects`.
fn services_of(objects: &[Object]) -> Vec<&Service> {
    objects
        .iter()
        .filter_map(|o| match o {
            Object::Service(s) => Some(s),
            _ => None,
        })
        .collect()
}
