//! The status as `kubectl` shows it: the `kubectl get ingress` table and `kubectl describe
//! service`'s summary (the CLI's text output).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::text::{IngressRow, LoadBalancerState, PortView, ServiceView};
use super::*;

/// The rows as aligned text, like kubectl: upper-case headers, columns three spaces apart, a
/// NAMESPACE column first when the rows span more than one namespace. No rows: empty text
/// (kubectl says "No resources found" on stderr).
pub(crate) fn render_ingress_table(rows: &[IngressRow]) -> String {
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

/// The view as `kubectl describe`-like text.
pub(crate) fn render_service(view: &ServiceView) -> String {
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

    #[test]
    fn columns_pad_three_spaces_and_trim() {
        let table = vec![vec!["A", "BB", "C"], vec!["xxxx", "", ""]];
        assert_eq!(render_columns(&table, ""), "A      BB   C\nxxxx\n");
    }
}
