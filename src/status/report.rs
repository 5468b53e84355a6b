//! The one status call: what the controllers write into every Ingress, GatewayClass, Gateway and
//! HTTPRoute of an input, in input order (`status --json`, the npm package's `status`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{StatusReport, ingress_status};
use crate::input::{Input, Origin};
use crate::model::Object;

/// What [`report`] computes: the Ingress controller's (`ingressClass`, `publishService`) and the
/// Gateway API controller's (`controllerName`, `transitionTime`) options. The same JSON in every home.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[non_exhaustive]
pub struct StatusOptions {
    /// The class the Ingress controller serves (`None`: every Ingress).
    pub ingress_class: Option<String>,
    /// The Service in front of the controller (`namespace/name`): its address goes into every
    /// Ingress served, and into a Gateway that asks for none. Without it Ingresses get no address.
    pub publish_service: Option<String>,
    /// The Gateway API controller's name: only GatewayClasses with this `spec.controllerName` are
    /// its own. `None`: every GatewayClass, and `ingress-router.dev/gateway-controller` written.
    pub controller_name: Option<String>,
    /// `lastTransitionTime` of the conditions that change (RFC 3339); `None`: `1970-01-01T00:00:00Z`.
    pub transition_time: Option<String>,
}

impl StatusOptions {
    /// Options for a controller with `publish_service` (`namespace/name`).
    pub fn with_publish_service(mut self, publish_service: impl Into<String>) -> Self {
        self.publish_service = Some(publish_service.into());
        self
    }

    /// Options for an Ingress controller serving `class`.
    pub fn with_ingress_class(mut self, class: impl Into<String>) -> Self {
        self.ingress_class = Some(class.into());
        self
    }

    /// Options for a Gateway API controller named `name`.
    pub fn with_controller_name(mut self, name: impl Into<String>) -> Self {
        self.controller_name = Some(name.into());
        self
    }

    /// The `lastTransitionTime` written into conditions that change.
    pub fn with_transition_time(mut self, time: impl Into<String>) -> Self {
        self.transition_time = Some(time.into());
        self
    }
}

/// The status of every object of an input: the Ingress report's fields (with a publish Service),
/// the Gateway API controller's name, and each Ingress and Gateway API object in input order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Report {
    /// The Ingress controller's report; `None` without a publish Service.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(crate) ingress: Option<StatusReport>,
    /// The `controllerName` written into Gateway API routes (`None` without the `gateway` feature).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) controller_name: Option<String>,
    /// Every Ingress and Gateway API object, in input order.
    pub(crate) objects: Vec<ObjectEntry>,
    /// The Gateway API objects' full reports (the CLI's text and requests).
    #[cfg(feature = "gateway")]
    #[serde(skip)]
    pub(crate) gateway: Vec<crate::gateway::status::ObjectStatus>,
}

impl Report {
    /// Whether the input holds an Ingress.
    pub fn has_ingress(&self) -> bool {
        self.objects.iter().any(|o| o.kind() == "Ingress")
    }

    /// Whether the input holds a GatewayClass, Gateway or route.
    pub fn has_gateway_api(&self) -> bool {
        self.objects.iter().any(|o| o.kind() != "Ingress")
    }
}

/// One object of [`Report::objects`]: `kind`, `namespace` (none for a GatewayClass), `name`,
/// `status` (and for Gateway API objects the `notes` and the `update` request).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub(crate) enum ObjectEntry {
    /// An Ingress and the `status` it carries once the controller is done.
    Ingress { kind: &'static str, namespace: String, name: String, status: Value },
    /// A GatewayClass, Gateway or route.
    #[cfg(feature = "gateway")]
    GatewayApi(crate::gateway::status::ObjectStatus),
}

impl ObjectEntry {
    /// `Ingress`, `GatewayClass`, `Gateway`, `HTTPRoute`, ...
    pub(crate) fn kind(&self) -> &str {
        match self {
            ObjectEntry::Ingress { kind, .. } => kind,
            #[cfg(feature = "gateway")]
            ObjectEntry::GatewayApi(o) => o.kind,
        }
    }
}

/// The status the controllers write into every Ingress, GatewayClass, Gateway and HTTPRoute of
/// `input` (Ingresses get an address only with [`StatusOptions::publish_service`]).
///
/// ```
/// use ingress_router::{input, status};
/// let manifests = r#"[
///   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
///    "metadata": {"name": "gw", "namespace": "infra", "generation": 3},
///    "spec": {"gatewayClassName": "eg", "listeners": [
///      {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
///   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
///    "metadata": {"name": "shop", "namespace": "shop"},
///    "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}],
///             "rules": [{"backendRefs": [{"name": "cart", "port": 8080}]}]}}
/// ]"#;
/// let input = input::parse("all.json", manifests).unwrap();
/// let report = serde_json::to_value(status::report(&input, &status::StatusOptions::default())).unwrap();
/// let gateway = &report["objects"][0]["status"];
/// assert_eq!(gateway["listeners"][0]["attachedRoutes"], 1);
/// assert_eq!(gateway["conditions"][0]["observedGeneration"], 3);
/// let route = &report["objects"][1]["status"];
/// assert_eq!(route["parents"][0]["conditions"][0]["reason"], "Accepted");
/// ```
pub fn report(input: &Input, options: &StatusOptions) -> Report {
    let objects: Vec<Object> = input.objects.iter().map(|o| o.object.clone()).collect();
    let ingress =
        options.publish_service.as_deref().map(|p| ingress_status(&objects, options.ingress_class.as_deref(), p));
    let mut listed: Vec<((usize, usize, usize), ObjectEntry)> = Vec::new();
    let place = |origin: &Origin| (input.source_index(&origin.source), origin.document, origin.item.unwrap_or(0));
    let ingresses = input.objects.iter().filter_map(|o| match &o.object {
        Object::Ingress(i) => Some((i, &o.origin)),
        _ => None,
    });
    for (n, (i, origin)) in ingresses.enumerate() {
        let addresses = ingress.as_ref().and_then(|r| r.ingresses.get(n)).map(|i| i.resulting_addresses());
        let status = match addresses.unwrap_or_default() {
            [] => json!({"loadBalancer": {}}),
            a => json!({"loadBalancer": {"ingress": a}}),
        };
        let (namespace, name) = (i.metadata.namespace_or_default().to_string(), i.metadata.name.clone());
        listed.push((place(origin), ObjectEntry::Ingress { kind: "Ingress", namespace, name, status }));
    }
    #[cfg(feature = "gateway")]
    let (controller_name, gateway) = {
        let report = gateway_report(input, &objects, options);
        for object in &report.objects {
            let at = input.gateway_api.get(object.index).map_or((usize::MAX, 0, 0), |g| place(&g.origin));
            listed.push((at, ObjectEntry::GatewayApi(object.clone())));
        }
        (Some(report.controller_name), report.objects)
    };
    #[cfg(not(feature = "gateway"))]
    let controller_name = None;
    // Stable: objects of one place keep their order.
    listed.sort_by_key(|(at, _)| *at);
    Report {
        ingress,
        controller_name,
        objects: listed.into_iter().map(|(_, o)| o).collect(),
        #[cfg(feature = "gateway")]
        gateway,
    }
}

/// The Gateway API status of `input`'s objects, with the Services they refer to; the publish
/// Service's address stands for a Gateway that asks for none (`spec.addresses`).
#[cfg(feature = "gateway")]
fn gateway_report(
    input: &Input,
    objects: &[Object],
    options: &StatusOptions,
) -> crate::gateway::status::GatewayStatusReport {
    use super::{find_service, parse_publish_service, service_addresses};
    use crate::gateway::status::{self, GatewayStatusAddress};
    let mut values: Vec<Value> = input.gateway_api.iter().map(|g| g.value.clone()).collect();
    let services = objects.iter().filter(|o| matches!(o, Object::Service(_)));
    values.extend(services.filter_map(|s| serde_json::to_value(s).ok()));
    let addresses = options
        .publish_service
        .as_deref()
        .and_then(|p| parse_publish_service(p).ok())
        .and_then(|(ns, name)| find_service(objects, ns, name))
        .and_then(|s| service_addresses(s).ok())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|a| match (a.ip, a.hostname) {
            (Some(ip), _) => Some(GatewayStatusAddress { kind: "IPAddress".into(), value: ip }),
            (None, Some(host)) => Some(GatewayStatusAddress { kind: "Hostname".into(), value: host }),
            (None, None) => None,
        })
        .collect();
    let defaults = status::StatusOptions::default();
    let gateway_options = status::StatusOptions {
        controller_name: options.controller_name.clone(),
        transition_time: options.transition_time.clone().unwrap_or(defaults.transition_time),
        addresses,
        ..defaults
    };
    status::gateway_status(&values, &gateway_options)
}
