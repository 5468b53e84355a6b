//! Status: the address an ingress controller writes into `status.loadBalancer.ingress[]`
//! (the crate documentation's [Validation and status](crate#validation-and-status) section), the request it sends to write it, `kubectl get ingress`-style and
//! Service views, and `meta/v1` Status answers (401, 404) as the apiserver sends them.
//!
//! The address comes from the publish Service as ingress-nginx computes it with
//! `--publish-service` (`statusAddressFromService` and `updateStatus` in
//! `internal/ingress/status/status.go`). Where this module goes beyond ingress-nginx it says so.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::class::{self, Participation};
use crate::model::{
    Condition, Ingress, IngressClass, IngressLoadBalancerStatus, IngressStatus, LoadBalancerIngress, Object,
    ObjectMeta, PortStatus, Service, ServiceSpec, Status,
};

/// `apiVersion` of the Ingress objects the controller writes.
pub const INGRESS_API_VERSION: &str = "networking.k8s.io/v1";

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
pub fn parse_publish_service(value: &str) -> Result<(&str, &str), NoAddress> {
    match value.split_once('/') {
        Some((ns, name)) if !ns.is_empty() && !name.is_empty() && !name.contains('/') => Ok((ns, name)),
        _ => Err(NoAddress::InvalidPublishService { value: value.into() }),
    }
}

/// The Service `namespace/name` in `objects` (namespace `default` when unset), first one wins.
pub fn find_service<'a>(objects: &'a [Object], namespace: &str, name: &str) -> Option<&'a Service> {
    objects.iter().find_map(|o| match o {
        Object::Service(s) if s.metadata.name == name && s.metadata.namespace_or_default() == namespace => Some(s),
        _ => None,
    })
}

/// The addresses the controller publishes, from the publish Service named `publish_service`.
pub fn publish_addresses(objects: &[Object], publish_service: &str) -> Result<Vec<LoadBalancerIngress>, NoAddress> {
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
pub fn service_addresses(service: &Service) -> Result<Vec<LoadBalancerIngress>, NoAddress> {
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
pub fn sort_addresses(addrs: &mut [LoadBalancerIngress]) {
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
pub struct StatusReport {
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
pub struct IngressReport {
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
    pub fn resulting_addresses(&self) -> &[LoadBalancerIngress] {
        match &self.update {
            StatusUpdate::Put(_) => &self.addresses,
            _ => &self.current,
        }
    }
}

/// What the controller sends for one Ingress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum StatusUpdate {
    /// The status changes: this request replaces it.
    Put(StatusRequest),
    /// The status already equals the computed one: no request is needed.
    Unchanged,
    /// The controller leaves this Ingress's status alone (not served, or no address to compute).
    Untouched,
}

/// An HTTP request to the apiserver (`Content-Type: application/json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusRequest {
    pub method: String,
    pub path: String,
    /// The whole Ingress as JSON, `apiVersion`/`kind` set and `status` replaced.
    pub body: String,
}

/// Computes the status of every Ingress in `objects` for a controller serving `class`
/// (`None`: every Ingress) and publishing the address of the Service `publish_service` (`namespace/name`).
pub fn ingress_status(objects: &[Object], class: Option<&str>, publish_service: &str) -> StatusReport {
    let classes = ingress_classes(objects);
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

fn ingress_classes(objects: &[Object]) -> Vec<&IngressClass> {
    objects
        .iter()
        .filter_map(|o| match o {
            Object::IngressClass(c) => Some(c),
            _ => None,
        })
        .collect()
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

/// The `PUT .../status` request writing `addresses` into `ingress`.
pub fn status_request(ingress: &Ingress, addresses: &[LoadBalancerIngress]) -> StatusRequest {
    let namespace = ingress.metadata.namespace_or_default().to_owned();
    let mut body = ingress.clone();
    body.api_version = INGRESS_API_VERSION.into();
    body.kind = "Ingress".into();
    body.metadata.namespace = Some(namespace.clone());
    body.status = Some(IngressStatus { load_balancer: IngressLoadBalancerStatus { ingress: addresses.to_vec() } });
    StatusRequest {
        method: "PUT".into(),
        path: format!("/apis/{INGRESS_API_VERSION}/namespaces/{namespace}/ingresses/{}/status", ingress.metadata.name),
        body: serde_json::to_string(&body).unwrap_or_default(),
    }
}

/// The report as text: the publish Service's addresses, then one line per Ingress.
pub fn render_status(report: &StatusReport) -> String {
    let mut out = match &report.no_address {
        None => format!("publish Service {}: {}\n", report.publish_service, address_list(&report.addresses, ", ")),
        Some(e) => format!("publish Service {}: no address: {e}\n", report.publish_service),
    };
    for i in &report.ingresses {
        let address = match &i.reason {
            Some(reason) => format!("no address ({reason})"),
            None => address_list(&i.addresses, ", "),
        };
        let update = match &i.update {
            StatusUpdate::Put(r) => format!("{} {}", r.method, r.path),
            StatusUpdate::Unchanged => "no change needed (status already up to date)".into(),
            StatusUpdate::Untouched => "status left as is".into(),
        };
        out.push_str(&format!("{}/{}: {address}; {update}\n", i.namespace, i.name));
    }
    out
}

/// An ingress point as kubectl shows it: the IP, else the hostname.
fn point_text(p: &LoadBalancerIngress) -> Option<&str> {
    non_empty(p.ip.as_deref()).or(non_empty(p.hostname.as_deref()))
}

fn address_list(addrs: &[LoadBalancerIngress], sep: &str) -> String {
    addrs.iter().filter_map(point_text).collect::<Vec<_>>().join(sep)
}

// ------------------------------------------------------------------------------------------------
// `kubectl get ingress` view
// ------------------------------------------------------------------------------------------------

/// One line of `kubectl get ingress` (without AGE: the view has no clock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressRow {
    pub namespace: String,
    pub name: String,
    /// `spec.ingressClassName`, `<none>` when unset (kubectl ignores the legacy annotation here).
    pub class: String,
    /// Rule hosts comma-joined, `*` when none; past three, `+ N more...` as kubectl prints.
    pub hosts: String,
    /// IPs (else hostnames), sorted and deduplicated, comma-joined; never clipped (as `-o wide`).
    pub address: String,
    /// `80`, or `80, 443` when the Ingress has `tls`.
    pub ports: String,
}

/// The row of `ingress` with the status it carries.
pub fn ingress_row(ingress: &Ingress) -> IngressRow {
    row_with(ingress, current_addresses(ingress))
}

/// Rows of every Ingress in `objects`, as `kubectl get ingress` shows them now.
pub fn ingress_rows(objects: &[Object]) -> Vec<IngressRow> {
    ingresses(objects).map(ingress_row).collect()
}

/// Rows of every Ingress once the controller of `report` (computed from the same `objects`) has
/// written its statuses.
pub fn ingress_rows_after(objects: &[Object], report: &StatusReport) -> Vec<IngressRow> {
    let mut reports = report.ingresses.iter();
    ingresses(objects)
        .map(|ingress| match reports.next() {
            Some(r) if r.name == ingress.metadata.name && r.namespace == ingress.metadata.namespace_or_default() => {
                row_with(ingress, r.resulting_addresses())
            }
            _ => ingress_row(ingress),
        })
        .collect()
}

fn row_with(ingress: &Ingress, addrs: &[LoadBalancerIngress]) -> IngressRow {
    let unique: BTreeSet<&str> = addrs.iter().filter_map(point_text).collect();
    IngressRow {
        namespace: ingress.metadata.namespace_or_default().into(),
        name: ingress.metadata.name.clone(),
        class: ingress.spec.ingress_class_name.clone().unwrap_or_else(|| "<none>".into()),
        hosts: format_hosts(ingress),
        address: unique.into_iter().collect::<Vec<_>>().join(","),
        ports: if ingress.spec.tls.is_empty() { "80" } else { "80, 443" }.into(),
    }
}

/// kubectl's `formatHosts`: at most three hosts; once three are listed, any further rule turns the
/// tail into `+ N more...` with N = rules - 3 (host-less rules count, as in kubectl).
fn format_hosts(ingress: &Ingress) -> String {
    const MAX: usize = 3;
    let rules = ingress.spec.rules.as_deref().unwrap_or(&[]);
    let mut list: Vec<&str> = Vec::new();
    let mut more = false;
    for rule in rules {
        more |= list.len() == MAX;
        if let (false, Some(host)) = (more, non_empty(rule.host.as_deref())) {
            list.push(host);
        }
    }
    match (list.is_empty(), more) {
        (true, _) => "*".into(),
        (false, true) => format!("{} + {} more...", list.join(","), rules.len() - MAX),
        (false, false) => list.join(","),
    }
}

/// The rows as aligned text, like kubectl: upper-case headers, columns three spaces apart, a
/// NAMESPACE column first when the rows span more than one namespace. No rows: empty text
/// (kubectl says "No resources found" on stderr).
pub fn render_ingress_table(rows: &[IngressRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let namespaced = rows.iter().any(|r| r.namespace != rows[0].namespace);
    let mut header = vec!["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS"];
    if namespaced {
        header.insert(0, "NAMESPACE");
    }
    let mut table = vec![header];
    for r in rows {
        let mut cells = vec![r.name.as_str(), &r.class, &r.hosts, &r.address, &r.ports];
        if namespaced {
            cells.insert(0, &r.namespace);
        }
        table.push(cells);
    }
    render_columns(&table, "")
}

/// Aligns cells in columns three spaces apart (kubectl's tabwriter padding); lines start with `indent`.
fn render_columns(table: &[Vec<&str>], indent: &str) -> String {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| table.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in table {
        let mut line = String::from(indent);
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < row.len() {
                line.extend(core::iter::repeat_n(' ', widths[c] - cell.chars().count() + 3));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

// ------------------------------------------------------------------------------------------------
// Service view
// ------------------------------------------------------------------------------------------------

/// A Service's spec and status as `kubectl describe service` would summarise them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceView {
    pub namespace: String,
    pub name: String,
    /// `ClusterIP` when unset.
    #[serde(rename = "type")]
    pub service_type: String,
    #[serde(rename = "clusterIP", skip_serializing_if = "Option::is_none")]
    pub cluster_ip: Option<String>,
    #[serde(rename = "externalIPs")]
    pub external_ips: Vec<String>,
    pub ports: Vec<PortView>,
    pub load_balancer: LoadBalancerState,
    pub conditions: Vec<Condition>,
}

/// One Service port with the API defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PortView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub port: i64,
    /// `TCP` when unset.
    pub protocol: String,
    /// A number or a container port name; the port itself when unset.
    pub target_port: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_port: Option<i64>,
}

/// Where a LoadBalancer Service stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum LoadBalancerState {
    /// The Service is not of type LoadBalancer.
    NotLoadBalancer,
    /// Type LoadBalancer, `status.loadBalancer.ingress` still empty.
    Pending,
    /// The load balancer's ingress points, and the ports it failed to open.
    Provisioned { ingress: Vec<LoadBalancerIngress>, port_errors: Vec<PortError> },
}

/// A port a load balancer reports as failed (`status.loadBalancer.ingress[].ports[].error`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PortError {
    /// The ingress point's IP, else hostname.
    pub address: String,
    pub port: i64,
    pub protocol: String,
    pub error: String,
}

/// The view of `service`.
pub fn service_view(service: &Service) -> ServiceView {
    let spec = &service.spec;
    ServiceView {
        namespace: service.metadata.namespace_or_default().into(),
        name: service.metadata.name.clone(),
        service_type: spec.service_type().into(),
        cluster_ip: spec.cluster_ip.clone().or_else(|| spec.cluster_ips.first().cloned()),
        external_ips: spec.external_ips.clone(),
        ports: spec.ports.iter().map(port_view).collect(),
        load_balancer: load_balancer_state(service),
        conditions: service.status.conditions.clone(),
    }
}

fn port_view(p: &crate::model::ServicePort) -> PortView {
    let target_port = match &p.target_port {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => p.port.to_string(),
    };
    PortView {
        name: p.name.clone(),
        port: p.port,
        protocol: p.protocol.clone().unwrap_or_else(|| "TCP".into()),
        target_port,
        node_port: p.node_port,
    }
}

fn load_balancer_state(service: &Service) -> LoadBalancerState {
    if service.spec.service_type() != "LoadBalancer" {
        return LoadBalancerState::NotLoadBalancer;
    }
    let ingress: Vec<LoadBalancerIngress> =
        service.status.load_balancer.iter().flat_map(|lb| lb.ingress.iter().cloned()).collect();
    if ingress.is_empty() {
        return LoadBalancerState::Pending;
    }
    let port_errors = ingress.iter().flat_map(|p| p.ports.iter().filter_map(move |s| port_error(p, s))).collect();
    LoadBalancerState::Provisioned { ingress, port_errors }
}

fn port_error(point: &LoadBalancerIngress, port: &PortStatus) -> Option<PortError> {
    Some(PortError {
        address: point_text(point).unwrap_or("").into(),
        port: port.port,
        protocol: port.protocol.clone().unwrap_or_else(|| "TCP".into()),
        error: non_empty(port.error.as_deref())?.into(),
    })
}

/// The view as `kubectl describe`-like text.
pub fn render_service(view: &ServiceView) -> String {
    let mut out = String::new();
    field(&mut out, "Name", &view.name);
    field(&mut out, "Namespace", &view.namespace);
    field(&mut out, "Type", &view.service_type);
    field(&mut out, "IP", view.cluster_ip.as_deref().unwrap_or("<none>"));
    field(&mut out, "External IPs", &or_none(view.external_ips.join(",")));
    render_ports(&mut out, &view.ports);
    match &view.load_balancer {
        LoadBalancerState::NotLoadBalancer => {}
        LoadBalancerState::Pending => field(&mut out, "LoadBalancer Ingress", "<pending>"),
        LoadBalancerState::Provisioned { ingress, port_errors } => {
            field(&mut out, "LoadBalancer Ingress", &ingress.iter().map(point_line).collect::<Vec<_>>().join(", "));
            for e in port_errors {
                field(&mut out, "Port Error", &format!("{} {}/{}: {}", e.address, e.port, e.protocol, e.error));
            }
        }
    }
    render_conditions(&mut out, &view.conditions);
    out
}

fn render_ports(out: &mut String, ports: &[PortView]) {
    if ports.is_empty() {
        field(out, "Port", "<none>");
    }
    for p in ports {
        let name = p.name.as_deref().unwrap_or("<unset>");
        field(out, "Port", &format!("{name}  {}/{}", p.port, p.protocol));
        field(out, "TargetPort", &format!("{}/{}", p.target_port, p.protocol));
        if let Some(node_port) = p.node_port {
            field(out, "NodePort", &format!("{name}  {node_port}/{}", p.protocol));
        }
    }
}

fn render_conditions(out: &mut String, conditions: &[Condition]) {
    if conditions.is_empty() {
        field(out, "Conditions", "<none>");
        return;
    }
    out.push_str("Conditions:\n");
    let mut table = vec![vec!["Type", "Status", "Reason", "Message"], vec!["----", "------", "------", "-------"]];
    for c in conditions {
        let reason = c.reason.as_deref().unwrap_or("");
        table.push(vec![c.type_.as_str(), &c.status, reason, c.message.as_deref().unwrap_or("")]);
    }
    out.push_str(&render_columns(&table, "  "));
}

/// An ingress point: its IP or hostname, both when both are set, and the `ipMode` when given.
fn point_line(p: &LoadBalancerIngress) -> String {
    let mut text = match (non_empty(p.ip.as_deref()), non_empty(p.hostname.as_deref())) {
        (Some(ip), Some(host)) => format!("{ip} ({host})"),
        (Some(one), None) | (None, Some(one)) => one.into(),
        (None, None) => "<empty>".into(),
    };
    if let Some(mode) = &p.ip_mode {
        text.push_str(&format!(" [{mode}]"));
    }
    text
}

fn or_none(s: String) -> String {
    if s.is_empty() { "<none>".into() } else { s }
}

/// `Label:` padded to a fixed column, then the value.
fn field(out: &mut String, label: &str, value: &str) {
    out.push_str(&format!("{:<23}{value}\n", format!("{label}:")));
}

// ------------------------------------------------------------------------------------------------
// meta/v1 Status answers
// ------------------------------------------------------------------------------------------------

/// What the apiserver answers without valid credentials (`NewUnauthorized("Unauthorized")`), HTTP 401.
pub fn unauthorized() -> Status {
    failure("Unauthorized", "Unauthorized", 401, None)
}

/// What the apiserver answers for an unknown object (`NewNotFound`), HTTP 404.
/// `group_resource` is `resource.group` (`ingresses.networking.k8s.io`), or the resource alone for
/// the core group (`services`).
pub fn not_found(group_resource: &str, name: &str) -> Status {
    let (resource, group) = group_resource.split_once('.').unwrap_or((group_resource, ""));
    let mut details = Map::new();
    details.insert("name".into(), Value::String(name.into()));
    if !group.is_empty() {
        details.insert("group".into(), Value::String(group.into()));
    }
    details.insert("kind".into(), Value::String(resource.into()));
    let message = format!("{group_resource} {} not found", go_quote(name));
    failure(&message, "NotFound", 404, Some(Value::Object(details)))
}

fn failure(message: &str, reason: &str, code: i64, details: Option<Value>) -> Status {
    Status {
        api_version: "v1".into(),
        kind: "Status".into(),
        status: Some("Failure".into()),
        message: Some(message.into()),
        reason: Some(reason.into()),
        details,
        code: Some(code),
    }
}

/// Go's `%q`: the apiserver quotes names this way in its messages.
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IngressRule;

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
        let order: Vec<_> = addrs.iter().filter_map(point_text).collect();
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

    #[test]
    fn go_quote_matches_percent_q() {
        assert_eq!(go_quote("web"), "\"web\"");
        assert_eq!(go_quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\x01\"");
    }

    #[test]
    fn hosts_column_follows_kubectl() {
        let rule = |h: Option<&str>| IngressRule { host: h.map(Into::into), http: None };
        let mut ing = Ingress::default();
        assert_eq!(format_hosts(&ing), "*");
        ing.spec.rules = Some(vec![rule(None), rule(Some("a.example")), rule(Some("b.example"))]);
        assert_eq!(format_hosts(&ing), "a.example,b.example");
        ing.spec.rules = Some(vec![rule(Some("a")), rule(Some("b")), rule(Some("c"))]);
        assert_eq!(format_hosts(&ing), "a,b,c");
        ing.spec.rules = Some(vec![rule(Some("a")), rule(Some("b")), rule(Some("c")), rule(Some("d")), rule(None)]);
        assert_eq!(format_hosts(&ing), "a,b,c + 2 more...");
    }

    #[test]
    fn columns_pad_three_spaces_and_trim() {
        let table = vec![vec!["A", "BB", "C"], vec!["xxxx", "", ""]];
        assert_eq!(render_columns(&table, ""), "A      BB   C\nxxxx\n");
    }
}
