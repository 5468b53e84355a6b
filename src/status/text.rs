//! Status as text, the way `kubectl` shows it: `kubectl get ingress` rows, the publish
//! Service as `kubectl describe service` shows it, and the report of `ingress-router status`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::*;

/// An ingress point as kubectl shows it: the IP, else the hostname.
pub(super) fn point_text(p: &LoadBalancerIngress) -> Option<&str> {
    non_empty(p.ip.as_deref()).or(non_empty(p.hostname.as_deref()))
}

// ------------------------------------------------------------------------------------------------
// `kubectl get ingress` view
// ------------------------------------------------------------------------------------------------

/// One line of `kubectl get ingress` (without AGE: the view has no clock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct IngressRow {
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
pub(crate) fn ingress_row(ingress: &Ingress) -> IngressRow {
    row_with(ingress, current_addresses(ingress))
}

/// Rows of every Ingress in `objects`, as `kubectl get ingress` shows them now.
#[cfg(test)]
pub(crate) fn ingress_rows(objects: &[Object]) -> Vec<IngressRow> {
    ingresses(objects).map(ingress_row).collect()
}

/// Rows of every Ingress once the controller of `report` (computed from the same `objects`) has
/// written its statuses.
pub(crate) fn ingress_rows_after(objects: &[Object], report: &StatusReport) -> Vec<IngressRow> {
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

/// What `status --json` prints for the Ingresses (the report's fields), and the `kubectl get
/// ingress` rows once the statuses are written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusView {
    #[serde(flatten)]
    pub(crate) report: StatusReport,
    pub(crate) rows: Vec<IngressRow>,
}

impl StatusView {
    /// `report` must have been computed from `objects`.
    pub(crate) fn new(objects: &[Object], report: StatusReport) -> Self {
        StatusView { rows: ingress_rows_after(objects, &report), report }
    }
}

// ------------------------------------------------------------------------------------------------
// Service view
// ------------------------------------------------------------------------------------------------

/// A Service's spec and status as `kubectl describe service` would summarise them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServiceView {
    pub(crate) namespace: String,
    pub(crate) name: String,
    /// `ClusterIP` when unset.
    #[serde(rename = "type")]
    pub(crate) service_type: String,
    #[serde(rename = "clusterIP", skip_serializing_if = "Option::is_none")]
    pub(crate) cluster_ip: Option<String>,
    #[serde(rename = "externalIPs")]
    pub(crate) external_ips: Vec<String>,
    pub(crate) ports: Vec<PortView>,
    pub(crate) load_balancer: LoadBalancerState,
    pub(crate) conditions: Vec<Condition>,
}

/// One Service port with the API defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct PortView {
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
pub(crate) enum LoadBalancerState {
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
#[non_exhaustive]
pub(crate) struct PortError {
    /// The ingress point's IP, else hostname.
    pub address: String,
    pub port: i64,
    pub protocol: String,
    pub error: String,
}

/// The view of `service`.
pub(crate) fn service_view(service: &Service) -> ServiceView {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IngressRule;

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
}
