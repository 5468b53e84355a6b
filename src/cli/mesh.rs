//! `envoy-config --format …` for control planes that distribute Wasm modules and their
//! configuration: an Istio `WasmPlugin` or `TrafficExtension`, an Envoy Gateway
//! `EnvoyExtensionPolicy`, or an Envoy ECDS resource. Each is complete YAML to apply as is (each
//! document written as JSON, see [`stream`]).
//!
//! The filter routes by setting the routing header to a cluster name; under a control plane the
//! routes are the control plane's own, so the output carries the routes that read that header: an
//! Istio `VirtualService`, or Gateway API `HTTPRoute`s (plus the `ReferenceGrant`s their
//! cross-namespace backends need). The header values and the routes come from the same table, so
//! they cannot disagree.

use std::collections::{BTreeMap, BTreeSet};

use clap::ValueEnum;
use serde_json::{Value, json};

use super::{Failure, show};

/// What `envoy-config` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A complete Envoy bootstrap (JSON), the filter's configuration inline or through ECDS (--ecds).
    Bootstrap,
    /// An Envoy ECDS resource file: the filter's TypedExtensionConfig, for the bootstrap's --ecds path.
    Ecds,
    /// An Istio WasmPlugin (extensions.istio.io/v1alpha1) and the routes that read the header.
    WasmPlugin,
    /// An Istio TrafficExtension (Istio 1.30 and later) and the routes that read the header.
    TrafficExtension,
    /// An Envoy Gateway EnvoyExtensionPolicy, HTTPRoutes and ReferenceGrants.
    EnvoyExtensionPolicy,
}

/// The plugin name (Envoy's `root_id`) the filter answers to. The filter registers one root
/// context whatever the name; control planes still require one to be set.
pub const PLUGIN_NAME: &str = "ingress-router";
/// The Wasm HTTP filter's type URL.
pub const WASM_TYPE_URL: &str = "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm";

/// Where the control plane fetches the module, and how it is pinned.
pub struct Module {
    pub url: String,
    /// Lower-case hex, no `sha256:` prefix: the image digest for `oci://`, the module's own
    /// sha256 for `file://` and `http(s)://`.
    pub sha256: String,
}

/// Where the resources attach.
pub struct Target {
    pub name: String,
    pub namespace: String,
    /// Istio workload selector labels (`--selector`), when no `--target-ref` is given.
    pub selector: BTreeMap<String, String>,
    /// `Gateway/NAME`-style references (`--target-ref`), Gateway API kinds.
    pub target_refs: Vec<(String, String)>,
    /// The Istio `Gateway`s (namespace/name, or `mesh`) the VirtualService binds to.
    pub istio_gateways: Vec<String>,
    /// The hosts the Ingress rules name (`*.example.com` for a wildcard; `""` for a rule without a
    /// host): a VirtualService bound to `mesh` lists them, as Istio refuses `*` there.
    pub rule_hosts: Vec<String>,
}

/// A cluster the filter may name, and the Service behind it.
pub struct Destination {
    pub cluster: String,
    pub service: String,
    pub namespace: String,
    pub host: String,
    pub port: u16,
}

/// Splits `KIND/NAME` (`Gateway/public`); the kind defaults to Gateway.
pub fn target_ref(text: &str) -> Result<(String, String), Failure> {
    let (kind, name) = text.split_once('/').unwrap_or(("Gateway", text));
    if kind.is_empty() || name.is_empty() || name.contains('/') {
        return Err(Failure(format!("--target-ref {text:?}: expected KIND/NAME, for example Gateway/public")));
    }
    Ok((kind.to_string(), name.to_string()))
}

/// Splits `KEY=VALUE`.
pub fn label(text: &str) -> Result<(String, String), Failure> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_string(), value.to_string())),
        _ => Err(Failure(format!("--selector {text:?}: expected KEY=VALUE, for example istio=ingressgateway"))),
    }
}

/// The documents for `format` (not `Bootstrap` or `Ecds`), as one YAML stream.
pub fn resources(
    format: Format,
    module: &Module,
    target: &Target,
    plugin: &Value,
    routing_header: &str,
    destinations: &[Destination],
) -> Result<String, Failure> {
    let metadata = json!({"name": target.name, "namespace": target.namespace});
    let (documents, what) = match format {
        Format::WasmPlugin => {
            let mut spec = istio_common(module, target, plugin)?;
            spec["phase"] = json!("UNSPECIFIED_PHASE");
            let plugin = json!({"apiVersion": "extensions.istio.io/v1alpha1", "kind": "WasmPlugin",
                "metadata": metadata, "spec": spec});
            (with_routes(plugin, target, routing_header, destinations)?, "an Istio WasmPlugin")
        }
        Format::TrafficExtension => {
            let common = istio_common(module, target, plugin)?;
            let mut spec = json!({"phase": "UNSPECIFIED", "priority": common["priority"], "wasm": {}});
            for key in ["selector", "targetRefs"] {
                if let Some(v) = common.get(key) {
                    spec[key] = v.clone();
                }
            }
            for key in ["url", "sha256", "imagePullPolicy", "pluginName", "failStrategy", "type", "pluginConfig"] {
                spec["wasm"][key] = common[key].clone();
            }
            let extension = json!({"apiVersion": "extensions.istio.io/v1alpha1", "kind": "TrafficExtension",
                "metadata": metadata, "spec": spec});
            (with_routes(extension, target, routing_header, destinations)?, "an Istio TrafficExtension")
        }
        Format::EnvoyExtensionPolicy => {
            if target.target_refs.is_empty() {
                return Err(Failure(
                    "--format envoy-extension-policy needs --target-ref (the Envoy Gateway Gateway, e.g. Gateway/eg)"
                        .into(),
                ));
            }
            let code = match module.url.split_once("://") {
                Some(("oci", image)) => json!({"type": "Image", "image": {"url": image}, "sha256": module.sha256}),
                Some(("http" | "https", _)) => {
                    json!({"type": "HTTP", "http": {"url": module.url}, "sha256": module.sha256})
                }
                _ => {
                    return Err(Failure(format!(
                        "--url {}: Envoy Gateway fetches the module from an oci:// image or an http(s):// URL",
                        module.url
                    )));
                }
            };
            let policy = json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "EnvoyExtensionPolicy",
            "metadata": metadata,
            "spec": {
                "targetRefs": gateway_refs(target),
                "wasm": [{"name": PLUGIN_NAME, "rootID": PLUGIN_NAME, "code": code, "config": plugin,
                    // Fail closed: without the filter no request may reach a backend it did not choose.
                    "failOpen": false}]
            }});
            let mut documents = vec![policy];
            documents.extend(http_routes(target, routing_header, destinations));
            (documents, "an Envoy Gateway EnvoyExtensionPolicy")
        }
        Format::Bootstrap | Format::Ecds => unreachable!("written by envoy_config"),
    };
    let out = format!(
        "# {what} for the ingress-router filter, and the routes that send each request to the cluster the\n\
         # filter names in the {routing_header} header (written by `ingress-router envoy-config`).\n\
         # The filter overwrites any {routing_header} a client sends, so a client never picks the backend.\n"
    );
    Ok(out + &stream(&documents))
}

/// Documents as one YAML stream, each written as JSON (which is YAML): every string is quoted, so
/// no YAML 1.1 reader (kubectl's) takes `on`, `yes` or a timestamp for anything but a string.
pub fn stream(documents: &[Value]) -> String {
    let mut out = String::new();
    for document in documents {
        out.push_str("---\n");
        out.push_str(&show::json(document));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The fields WasmPlugin and TrafficExtension share (TrafficExtension nests the module's under `wasm`).
fn istio_common(module: &Module, target: &Target, plugin: &Value) -> Result<Value, Failure> {
    let mut spec = json!({
        "url": module.url,
        "sha256": module.sha256,
        "imagePullPolicy": "IfNotPresent",
        "pluginName": PLUGIN_NAME,
        // Last of its phase (descending priority), right before the router: other plugins that
        // rewrite the host or path have run when the route is chosen.
        "priority": -1000,
        // Without the filter no request may reach a backend it did not choose.
        "failStrategy": "FAIL_CLOSE",
        "type": "HTTP",
        "pluginConfig": plugin,
    });
    if !module.url.contains("://") {
        return Err(Failure(format!("--url {}: expected oci://, https://, http:// or file://", module.url)));
    }
    if target.target_refs.is_empty() {
        let labels = if target.selector.is_empty() {
            BTreeMap::from([("istio".to_string(), "ingressgateway".to_string())])
        } else {
            target.selector.clone()
        };
        spec["selector"] = json!({"matchLabels": labels});
    } else {
        spec["targetRefs"] = gateway_refs(target);
    }
    Ok(spec)
}

fn gateway_refs(target: &Target) -> Value {
    target
        .target_refs
        .iter()
        .map(|(kind, name)| json!({"group": "gateway.networking.k8s.io", "kind": kind, "name": name}))
        .collect()
}

/// The plugin, then a VirtualService (workload selector) or HTTPRoutes (targetRefs).
fn with_routes(
    plugin: Value,
    target: &Target,
    header: &str,
    destinations: &[Destination],
) -> Result<Vec<Value>, Failure> {
    let mut documents = vec![plugin];
    if !target.target_refs.is_empty() {
        documents.extend(http_routes(target, header, destinations));
        return Ok(documents);
    }
    let http: Vec<Value> = destinations
        .iter()
        .map(|d| {
            json!({"name": d.cluster, "match": [{"headers": {header: {"exact": d.cluster}}}],
                "route": [{"destination": {"host": d.host, "port": {"number": d.port}}}]})
        })
        .collect();
    let gateways = if target.istio_gateways.is_empty() {
        vec!["istio-system/ingressgateway".to_string()]
    } else {
        target.istio_gateways.clone()
    };
    // Bound to a gateway, every host the gateway serves (`*`); bound to the mesh (sidecars), the
    // hosts the Ingresses name, since Istio refuses `*` there.
    let hosts = if gateways.iter().any(|g| g == "mesh") {
        if target.rule_hosts.iter().any(String::is_empty) {
            return Err(Failure(
                "--istio-gateway mesh: an Ingress rule without a host cannot be served by a VirtualService bound to \
                 the mesh (Istio refuses the host `*` there); give those rules a host, or bind to a gateway"
                    .into(),
            ));
        }
        target.rule_hosts.clone()
    } else {
        vec!["*".to_string()]
    };
    documents.push(json!({"apiVersion": "networking.istio.io/v1", "kind": "VirtualService",
        "metadata": {"name": target.name, "namespace": target.namespace},
        "spec": {"hosts": hosts, "gateways": gateways, "http": http}}));
    Ok(documents)
}

/// Gateway API allows 16 rules per HTTPRoute.
const RULES_PER_ROUTE: usize = 16;

/// HTTPRoutes whose rules send each header value to its Service, and a ReferenceGrant in each
/// other namespace a backend lives in.
fn http_routes(target: &Target, header: &str, destinations: &[Destination]) -> Vec<Value> {
    let parents: Vec<Value> = target
        .target_refs
        .iter()
        .filter(|(kind, _)| kind == "Gateway")
        .map(|(_, name)| json!({"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": name}))
        .collect();
    let mut documents = Vec::new();
    for (i, chunk) in destinations.chunks(RULES_PER_ROUTE).enumerate() {
        let rules: Vec<Value> = chunk
            .iter()
            .map(|d| {
                json!({"matches": [{"headers": [{"type": "Exact", "name": header, "value": d.cluster}]}],
                    "backendRefs": [{"name": d.service, "namespace": d.namespace, "port": d.port}]})
            })
            .collect();
        let name =
            if destinations.len() > RULES_PER_ROUTE { format!("{}-{i}", target.name) } else { target.name.clone() };
        documents.push(json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": name, "namespace": target.namespace},
            "spec": {"parentRefs": parents, "rules": rules}}));
    }
    let others: BTreeSet<&str> =
        destinations.iter().map(|d| d.namespace.as_str()).filter(|ns| *ns != target.namespace).collect();
    for namespace in others {
        documents.push(json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
            "metadata": {"name": format!("{}-from-{}", target.name, target.namespace), "namespace": namespace},
            "spec": {"from": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": target.namespace}],
                "to": [{"group": "", "kind": "Service"}]}}));
    }
    documents
}

/// The ECDS resource file (a DiscoveryResponse Envoy reads from a path config source): the Wasm
/// filter's TypedExtensionConfig, named as the bootstrap's `config_discovery` filter.
pub fn ecds_file(wasm_config: &Value, version: &str) -> Value {
    json!({
        "version_info": version,
        "resources": [{
            "@type": "type.googleapis.com/envoy.config.core.v3.TypedExtensionConfig",
            "name": PLUGIN_NAME,
            "typed_config": wasm_config,
        }]
    })
}

/// The listener's filter that takes its configuration from ECDS at `path` (the folder is watched:
/// writing a new file and renaming it over `path` swaps the filter's configuration alone). No
/// default configuration: until the first one is accepted the listener does not serve.
pub fn ecds_filter(path: &str) -> Value {
    let folder = std::path::Path::new(path).parent().map(|p| p.display().to_string()).unwrap_or_default();
    let folder = if folder.is_empty() { ".".to_string() } else { folder };
    json!({
        "name": PLUGIN_NAME,
        "config_discovery": {
            "config_source": {
                "path_config_source": {"path": path, "watched_directory": {"path": folder}},
                "resource_api_version": "V3"
            },
            "type_urls": [WASM_TYPE_URL]
        }
    })
}
