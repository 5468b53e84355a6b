//! Status: the address an ingress controller writes into `status.loadBalancer.ingress[]` (the
//! crate documentation's [Validation and status](crate#validation-and-status) section). This
//! module computes it ([`report()`], [`ingress()`]), renders it as `kubectl` shows it, and builds the
//! `PUT .../status` request the apiserver is sent.
//!
//! The address comes from the publish Service as ingress-nginx computes it with
//! `--publish-service` (`statusAddressFromService` and `updateStatus` in
//! `internal/ingress/status/status.go`). Where this module goes beyond ingress-nginx it says so.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;

use crate::class::{self, Participation};
use crate::input::Input;

mod apiserver;
#[cfg(all(test, feature = "std"))]
mod cases;
#[cfg(any(feature = "cli", test))]
mod render;
mod report;
mod text;

use crate::model::{
    Condition, Ingress, IngressClass, IngressLoadBalancerStatus, IngressStatus, LoadBalancerIngress, Object,
    ObjectMeta, PortStatus, Service, ServiceSpec,
};
pub(crate) use apiserver::{StatusRequest, status_request};
pub use report::{Report, StatusOptions, report};
pub(crate) use text::service_view;
#[cfg(test)]
pub(crate) use text::{LoadBalancerState, ingress_rows};
pub use text::{ServiceView, StatusView};
#[cfg(any(feature = "cli", test))]
pub(crate) use {
    render::{render_ingress_table, render_service},
    text::ingress_rows_after,
};

/// `apiVersion` of the Ingress objects the controller writes.
pub(crate) const INGRESS_API_VERSION: &str = "networking.k8s.io/v1";

// ------------------------------------------------------------------------------------------------
// Addresses from the publish Service
// ------------------------------------------------------------------------------------------------

/// Why an Ingress gets no address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum NoAddress {
    /// The served class does not take this Ingress (`Participation::reason` says why).
    NotServed { reason: String },
    /// The publish-service argument is not `namespace/name`.
    InvalidPublishService { value: String },
    /// No Service of that namespace and name is in the input.
    PublishServiceMissing { service: String },
    /// A LoadBalancer Service whose `status.loadBalancer.ingress` is still empty.
    LoadBalancerPending { service: String },
    /// The field the address comes from (`spec.clusterIP`, `spec.externalName`) is empty or `None`.
    NoServiceAddress { service: String, service_type: String, field: String },
    /// A Service type ingress-nginx cannot take an address from.
    UnsupportedServiceType { service: String, service_type: String },
}

impl NoAddress {
    /// Whether the controller still writes the (empty) list: ingress-nginx clears the addresses while
    /// a LoadBalancer is pending, but leaves the status alone when it cannot read an address at all.
    pub fn clears_status(&self) -> bool {
        matches!(self, NoAddress::LoadBalancerPending { .. })
    }
}

impl core::error::Error for NoAddress {}

impl fmt::Display for NoAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoAddress::NotServed { reason } => write!(f, "not served: {reason}"),
            NoAddress::InvalidPublishService { value } => {
                write!(f, "invalid publish-service argument {value:?}: expected <namespace>/<name>")
            }
            NoAddress::PublishServiceMissing { service } => write!(
                f,
                "publish Service {service} is not in the input: the controller cannot read its address \
                 and leaves the status unchanged"
            ),
            NoAddress::LoadBalancerPending { service } => write!(
                f,
                "publish Service {service} is a LoadBalancer still pending (status.loadBalancer.ingress is empty)"
            ),
            NoAddress::NoServiceAddress { service, service_type, field } => {
                write!(f, "publish Service {service} of type {service_type} has no {field}")
            }
            NoAddress::UnsupportedServiceType { service, service_type } => {
                write!(f, "unable to extract IP address/es from service {service}: unsupported type {service_type:?}")
            }
        }
    }
}

/// Splits a publish-service argument into namespace and name, as ingress-nginx's `ParseNameNS` does.
pub(crate) fn parse_publish_service(value: &str) -> Result<(&str, &str), NoAddress> {
    match value.split_once('/') {
        Some((ns, name)) if !ns.is_empty() && !name.is_empty() && !name.contains('/') => Ok((ns, name)),
        _ => Err(NoAddress::InvalidPublishService { value: value.into() }),
    }
}

/// The Service `namespace/name` in `objects` (namespace `default` when unset), first one wins.
pub(crate) fn find_service<'a>(objects: &'a [Object], namespace: &str, name: &str) -> Option<&'a Service> {
    objects.iter().find_map(|o| match o {
        Object::Service(s) if s.metadata.name == name && s.metadata.namespace_or_default() == namespace => Some(s),
        _ => None,
    })
}

/// The status a controller serving `class` (`None`: every Ingress) and publishing the address of
/// the Service `publish_service` (`namespace/name`) writes into every Ingress of `input`, with the
/// `kubectl get ingress` rows after it (`status --json`). The error: `publish_service` is not
/// `namespace/name`.
///
/// ```
/// use ingress_router::{input, status};
/// let text = "apiVersion: v1\nkind: Service\nmetadata: {name: lb, namespace: infra}\nspec: {type: LoadBalancer}\n\
///             status: {loadBalancer: {ingress: [{ip: 203.0.113.7}]}}\n---\n\
///             apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\n\
///             spec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n";
/// let input = input::parse("all.yaml", text).unwrap();
/// let view = serde_json::to_value(status::ingress(&input, None, "infra/lb").unwrap()).unwrap();
/// assert_eq!(view["ingresses"][0]["addresses"][0]["ip"], "203.0.113.7");
/// assert_eq!(view["rows"][0]["address"], "203.0.113.7");
/// assert!(status::ingress(&input, None, "lb").is_err());
/// ```
pub fn ingress(input: &Input, class: Option<&str>, publish_service: &str) -> Result<StatusView, NoAddress> {
    parse_publish_service(publish_service)?;
    let objects = input.to_objects();
    Ok(StatusView::new(&objects, ingress_status(&objects, class, publish_service)))
}

/// The Service `service` (`namespace/name`) of `input` as `kubectl describe service` summarises
/// it (`status --service --json`). The errors: `service` is not `namespace/name`
/// ([`NoAddress::InvalidPublishService`]), or no such Service is in `input`
/// ([`NoAddress::PublishServiceMissing`]).
pub fn service(input: &Input, service: &str) -> Result<ServiceView, NoAddress> {
    let (namespace, name) = parse_publish_service(service)?;
    let objects = input.to_objects();
    let found = find_service(&objects, namespace, name)
        .ok_or_else(|| NoAddress::PublishServiceMissing { service: format!("{namespace}/{name}") })?;
    Ok(service_view(found))
}

/// The addresses the controller publishes, from the publish Service named `publish_service`.
pub(crate) fn publish_addresses(
    objects: &[Object],
    publish_service: &str,
) -> Result<Vec<LoadBalancerIngress>, NoAddress> {
    let (ns, name) = parse_publish_service(publish_service)?;
    let service = find_service(objects, ns, name)
        .ok_or_else(|| NoAddress::PublishServiceMissing { service: format!("{ns}/{name}") })?;
    service_addresses(service)
}

/// `statusAddressFromService`: ExternalName → its hostname; ClusterIP → the cluster IP; NodePort →
/// the external IPs, else the cluster IP; LoadBalancer → each status ingress point plus the external
/// IPs not already listed. Sorted by hostname then IP, as `updateStatus` sorts them.
///
/// Beyond ingress-nginx: `ports` (with `error`) of the Service's ingress points are copied, and an
/// empty or `None` (headless) cluster IP is reported instead of written (the apiserver would reject it).
pub(crate) fn service_addresses(service: &Service) -> Result<Vec<LoadBalancerIngress>, NoAddress> {
    let key = object_key(&service.metadata);
    let spec = &service.spec;
    let service_type = spec.service_type();
    let missing = |field: &str| NoAddress::NoServiceAddress {
        service: key.clone(),
        service_type: service_type.into(),
        field: field.into(),
    };
    let mut addrs = match service_type {
        "ExternalName" => {
            let host =
                spec.external_name.as_deref().filter(|h| !h.is_empty()).ok_or_else(|| missing("spec.externalName"))?;
            vec![hostname_point(host)]
        }
        "ClusterIP" => vec![ip_point(cluster_ip(spec).ok_or_else(|| missing("spec.clusterIP"))?)],
        "NodePort" if spec.external_ips.is_empty() => {
            vec![ip_point(cluster_ip(spec).ok_or_else(|| missing("spec.clusterIP"))?)]
        }
        "NodePort" => spec.external_ips.iter().map(|ip| ip_point(ip)).collect(),
        "LoadBalancer" => load_balancer_points(service),
        other => {
            return Err(NoAddress::UnsupportedServiceType { service: key, service_type: other.into() });
        }
    };
    if addrs.is_empty() {
        return Err(NoAddress::LoadBalancerPending { service: key });
    }
    sort_addresses(&mut addrs);
    Ok(addrs)
}

fn load_balancer_points(service: &Service) -> Vec<LoadBalancerIngress> {
    let status = service.status.load_balancer.iter().flat_map(|lb| &lb.ingress);
    let mut addrs: Vec<LoadBalancerIngress> = status
        .map(|p| LoadBalancerIngress {
            ip: non_empty(p.ip.as_deref()).map(Into::into),
            hostname: non_empty(p.hostname.as_deref()).map(Into::into),
            ip_mode: None,
            ports: p.ports.clone(),
        })
        .filter(|p| p.ip.is_some() || p.hostname.is_some())
        .collect();
    for ip in &service.spec.external_ips {
        let listed = addrs.iter().any(|a| a.ip.as_ref() == Some(ip) || a.hostname.as_ref() == Some(ip));
        if !listed {
            addrs.push(ip_point(ip));
        }
    }
    addrs
}

/// The cluster IP (`spec.clusterIP`, else the first of `spec.clusterIPs`); `None` for headless.
fn cluster_ip(spec: &ServiceSpec) -> Option<&str> {
    let ip = spec.cluster_ip.as_deref().or(spec.cluster_ips.first().map(String::as_str));
    non_empty(ip).filter(|ip| *ip != "None")
}

fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

fn ip_point(ip: &str) -> LoadBalancerIngress {
    LoadBalancerIngress { ip: Some(ip.into()), ..Default::default() }
}

fn hostname_point(hostname: &str) -> LoadBalancerIngress {
    LoadBalancerIngress { hostname: Some(hostname.into()), ..Default::default() }
}

/// Stable sort by hostname, then IP (ingress-nginx `lessLoadBalancerIngress`).
pub(crate) fn sort_addresses(addrs: &mut [LoadBalancerIngress]) {
    addrs.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
}

fn sort_key(a: &LoadBalancerIngress) -> (&str, &str) {
    (a.hostname.as_deref().unwrap_or(""), a.ip.as_deref().unwrap_or(""))
}

fn object_key(meta: &ObjectMeta) -> String {
    format!("{}/{}", meta.namespace_or_default(), meta.name)
}

// ------------------------------------------------------------------------------------------------
// Ingress status as the controller computes it
// ------------------------------------------------------------------------------------------------

/// The status every Ingress of the input gets from a controller serving `class`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct StatusReport {
    /// The served class; `None`: every Ingress.
    pub class: Option<String>,
    /// The publish-service argument as given.
    pub publish_service: String,
    /// What the publish Service yields (empty when it yields nothing).
    pub addresses: Vec<LoadBalancerIngress>,
    /// Why the publish Service yields no address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_address: Option<NoAddress>,
    /// One per Ingress, in input order.
    pub ingresses: Vec<IngressReport>,
}

/// One Ingress: served or not, its new addresses, why it has none, and the request to write them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct IngressReport {
    pub namespace: String,
    pub name: String,
    pub served: bool,
    pub participation: Participation,
    /// `status.loadBalancer.ingress` as the Ingress carries it now.
    pub current: Vec<LoadBalancerIngress>,
    /// What the controller computes for it (empty when there is no address).
    pub addresses: Vec<LoadBalancerIngress>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_address: Option<NoAddress>,
    /// `no_address` in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub update: StatusUpdate,
}

impl IngressReport {
    /// The addresses the Ingress carries once the controller is done.
    pub(crate) fn resulting_addresses(&self) -> &[LoadBalancerIngress] {
        match &self.update {
            StatusUpdate::Put(_) => &self.addresses,
            _ => &self.current,
        }
    }
}

/// What the controller sends for one Ingress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub(crate) enum StatusUpdate {
    /// The status changes: this request replaces it.
    Put(StatusRequest),
    /// The status already equals the computed one: no request is needed.
    Unchanged,
    /// The controller leaves this Ingress's status alone (not served, or no address to compute).
    Untouched,
}

/// Computes the status of every Ingress in `objects` for a controller serving `class`
/// (`None`: every Ingress) and publishing the address of the Service `publish_service` (`namespace/name`).
pub(crate) fn ingress_status(objects: &[Object], class: Option<&str>, publish_service: &str) -> StatusReport {
    let classes = class::ingress_classes(objects);
    let published = publish_addresses(objects, publish_service);
    let ingresses = ingresses(objects).map(|i| ingress_report(i, class, &classes, &published)).collect();
    let (addresses, no_address) = match published {
        Ok(a) => (a, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    StatusReport {
        class: class.map(Into::into),
        publish_service: publish_service.into(),
        addresses,
        no_address,
        ingresses,
    }
}

fn ingresses(objects: &[Object]) -> impl Iterator<Item = &Ingress> {
    objects.iter().filter_map(|o| match o {
        Object::Ingress(i) => Some(i),
        _ => None,
    })
}

fn ingress_report(
    ingress: &Ingress,
    class: Option<&str>,
    classes: &[&IngressClass],
    published: &Result<Vec<LoadBalancerIngress>, NoAddress>,
) -> IngressReport {
    let participation = class::participation(ingress, class, classes);
    let current = current_addresses(ingress).to_vec();
    let outcome = if participation.takes_part() {
        published.clone()
    } else {
        let reason = participation.reason(class.unwrap_or("")).unwrap_or_default();
        Err(NoAddress::NotServed { reason })
    };
    let (addresses, no_address) = match outcome {
        Ok(a) => (a, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let writes = no_address.as_ref().is_none_or(NoAddress::clears_status);
    let update = if !writes {
        StatusUpdate::Untouched
    } else if same_addresses(&current, &addresses) {
        StatusUpdate::Unchanged
    } else {
        StatusUpdate::Put(status_request(ingress, &addresses))
    };
    IngressReport {
        namespace: ingress.metadata.namespace_or_default().into(),
        name: ingress.metadata.name.clone(),
        served: participation.takes_part(),
        participation,
        current,
        addresses,
        reason: no_address.as_ref().map(ToString::to_string),
        no_address,
        update,
    }
}

fn current_addresses(ingress: &Ingress) -> &[LoadBalancerIngress] {
    ingress.status.as_ref().map_or(&[], |s| &s.load_balancer.ingress)
}

/// Equal after sorting the current list as ingress-nginx does. ingress-nginx compares IP and
/// hostname only; ports are compared too because this module copies them.
fn same_addresses(current: &[LoadBalancerIngress], new: &[LoadBalancerIngress]) -> bool {
    let mut current = current.to_vec();
    sort_addresses(&mut current);
    current.len() == new.len() && current.iter().zip(new).all(|(a, b)| same_point(a, b))
}

fn same_point(a: &LoadBalancerIngress, b: &LoadBalancerIngress) -> bool {
    non_empty(a.ip.as_deref()) == non_empty(b.ip.as_deref())
        && non_empty(a.hostname.as_deref()) == non_empty(b.hostname.as_deref())
        && a.ports == b.ports
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lb(ip: Option<&str>, host: Option<&str>) -> LoadBalancerIngress {
        LoadBalancerIngress { ip: ip.map(Into::into), hostname: host.map(Into::into), ..Default::default() }
    }

    #[test]
    fn publish_service_must_be_namespace_slash_name() {
        assert_eq!(parse_publish_service("ingress-nginx/controller"), Ok(("ingress-nginx", "controller")));
        for bad in ["controller", "/controller", "ns/", "a/b/c", ""] {
            assert_eq!(
                parse_publish_service(bad),
                Err(NoAddress::InvalidPublishService { value: bad.into() }),
                "{bad}"
            );
        }
    }

    #[test]
    fn addresses_sort_by_hostname_then_ip() {
        let mut addrs = vec![
            lb(Some("10.0.0.2"), None),
            lb(None, Some("b.example")),
            lb(Some("10.0.0.1"), None),
            lb(None, Some("a.example")),
        ];
        sort_addresses(&mut addrs);
        let order: Vec<_> = addrs.iter().filter_map(text::point_text).collect();
        assert_eq!(order, ["10.0.0.1", "10.0.0.2", "a.example", "b.example"]);
    }

    #[test]
    fn equality_ignores_current_order_but_not_ports() {
        let new = vec![lb(Some("10.0.0.1"), None), lb(Some("10.0.0.2"), None)];
        assert!(same_addresses(&[new[1].clone(), new[0].clone()], &new));
        let mut with_port = new.clone();
        with_port[0].ports.push(PortStatus { port: 80, protocol: Some("TCP".into()), error: None });
        assert!(!same_addresses(&with_port, &new));
        assert!(!same_addresses(&new[..1], &new));
    }
}
