//! The compiled table as data ([`GatewayRouter::table`]): per listener of the chosen Gateway,
//! every HTTPRoute of the input (attached with its intersected hostnames, or why not), and each
//! rule's matches, filters, action and backends as compiled.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::GatewayRouter;
use super::attach::{NotAttached, key_of};
use super::decision::{NoGateway, SplitView};
use super::filters::RuleAction;
use super::model::HttpRouteMatch;

/// As JSON: `{"gateway": "infra/public" | null, "noGateway"?: {...}, "listeners": [{"name",
/// "port", "protocol", "hostname", "routes": [{"route": "ns/name", "notAttached"?: {...},
/// "hostnames": [...], "rules": [{"rule", "name"?, "matches": [HTTPRouteMatch, defaults
/// applied], "filters": ["URLRewrite", ...], "action": {"action": "forward" | "redirect" |
/// "filterError", ...}, "backends": [{"namespace", "name", "port", "weight", "status",
/// "invalid"?}]}]}]}]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayTableView {
    pub gateway: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_gateway: Option<NoGateway>,
    pub listeners: Vec<ListenerTableView>,
    /// Each object left out because it cannot be read, in words (`HTTPRoute "x": why`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Each `RegularExpression` match that matches nothing because it cannot be evaluated
    /// (`HTTPRoute ns/x spec.rules[0].matches[0].path.value: why`): what a proxy logs when it
    /// configures.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenerTableView {
    pub name: String,
    pub port: u16,
    pub protocol: String,
    pub hostname: Option<String>,
    /// Every HTTPRoute of the input, in input order.
    pub routes: Vec<RouteTableView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteTableView {
    /// `HTTPRoute` or `GRPCRoute`.
    pub kind: &'static str,
    /// `namespace/name`.
    pub route: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_attached: Option<NotAttached>,
    /// Why it is not attached, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The intersected hostnames it serves on the listener (empty when not attached).
    pub hostnames: Vec<String>,
    /// Empty when not attached.
    pub rules: Vec<RuleTableView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleTableView {
    pub rule: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub matches: Vec<HttpRouteMatch>,
    /// The rule's filter types, in order.
    pub filters: Vec<String>,
    pub action: RuleAction,
    pub backends: Vec<SplitView>,
}

impl GatewayRouter {
    /// The compiled listeners, routes and rules.
    pub fn table(&self) -> GatewayTableView {
        let g = match &self.gateway {
            Ok(g) => *g,
            Err(e) => {
                return GatewayTableView {
                    gateway: None,
                    no_gateway: Some(e.clone()),
                    listeners: Vec::new(),
                    skipped: self.skipped(),
                    refused: self.regex_refusals(),
                };
            }
        };
        let gateway = &self.objects.gateways[g];
        let listeners = gateway
            .spec
            .listeners
            .iter()
            .zip(&self.listeners)
            .map(|(listener, compiled)| ListenerTableView {
                name: listener.name.clone(),
                port: listener.port,
                protocol: listener.protocol.clone(),
                hostname: listener.hostname.clone(),
                routes: self
                    .objects
                    .routes
                    .iter()
                    .zip(&self.routes)
                    .zip(&compiled.attachment)
                    .map(|((route, compiled_route), attachment)| {
                        let key = key_of(&route.metadata.namespace, &route.metadata.name);
                        match attachment {
                            Err(reason) => RouteTableView {
                                kind: route.kind.as_str(),
                                route: key,
                                not_attached: Some(reason.clone()),
                                reason: Some(reason.to_string()),
                                hostnames: Vec::new(),
                                rules: Vec::new(),
                            },
                            Ok(hostnames) => RouteTableView {
                                kind: route.kind.as_str(),
                                route: key,
                                not_attached: None,
                                reason: None,
                                hostnames: hostnames.clone(),
                                rules: route
                                    .spec
                                    .rules
                                    .iter()
                                    .zip(&compiled_route.rules)
                                    .enumerate()
                                    .map(|(i, (rule, compiled_rule))| RuleTableView {
                                        rule: i,
                                        name: rule.name.clone(),
                                        matches: rule.matches.clone(),
                                        filters: rule.filters.iter().map(|f| f.kind.clone()).collect(),
                                        action: compiled_rule.action.clone(),
                                        backends: compiled_rule.backends.iter().map(SplitView::of).collect(),
                                    })
                                    .collect(),
                            },
                        }
                    })
                    .collect(),
            })
            .collect();
        GatewayTableView {
            gateway: Some(key_of(&gateway.metadata.namespace, &gateway.metadata.name)),
            no_gateway: None,
            listeners,
            skipped: self.skipped(),
            refused: self.regex_refusals(),
        }
    }

    /// The objects that cannot be read, in words.
    fn skipped(&self) -> Vec<String> {
        self.objects.skipped.iter().map(|s| alloc::format!("{} {:?}: {}", s.kind, s.name, s.error)).collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::gateway::{GatewayOptions, Objects, compile};
    use serde_json::json;

    #[test]
    fn listeners_routes_rules() {
        let o = Objects::from_values(&[
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "apps"},
                   "spec": {"gatewayClassName": "c", "listeners": [{"name": "l", "port": 80, "protocol": "HTTP"}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r", "namespace": "apps"},
                   "spec": {"parentRefs": [{"name": "gw"}], "rules": [
                       {"backendRefs": [{"name": "a", "port": 80}]},
                       {"matches": [{"path": {"value": "/moved"}}],
                        "filters": [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}]}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "other", "namespace": "x"},
                   "spec": {"parentRefs": [{"name": "elsewhere"}]}}),
        ]);
        let table = compile(&o, &GatewayOptions::default()).table();
        let value = serde_json::to_value(&table).unwrap();
        let routes = &value["listeners"][0]["routes"];
        assert_eq!(value["gateway"], "apps/gw");
        assert_eq!(routes[0]["hostnames"], json!(["*"]));
        assert_eq!(routes[0]["rules"][0]["matches"][0]["path"], json!({"type": "PathPrefix", "value": "/"}));
        assert_eq!(routes[0]["rules"][0]["backends"][0]["name"], "a");
        assert_eq!(routes[0]["rules"][1]["action"], json!({"action": "redirect", "filter": 0}));
        assert_eq!(routes[1]["notAttached"]["reason"], "notAParent");
        let none = compile(&o, &GatewayOptions { gateway: Some("nope".into()), ..GatewayOptions::default() }).table();
        assert!(none.listeners.is_empty() && none.no_gateway.is_some());
    }
}
