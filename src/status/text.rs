//! Status as text, the way `kubectl` shows it: `kubectl get ingress` rows, the publish
//! Service as `kubectl describe service` shows it, and the report of `ingress-router status`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::*;

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
pub(super) fn point_text(p: &LoadBalancerIngress) -> Option<&str> {
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
#[non_exhaustive]
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
pub(crate) fn ingress_row(ingress: &Ingress) -> IngressRow {
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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

    #[test]
    fn columns_pad_three_spaces_and_trim() {
        let table = vec![vec!["A", "BB", "C"], vec!["xxxx", "", ""]];
        assert_eq!(render_columns(&table, ""), "A      BB   C\nxxxx\n");
    }
}
