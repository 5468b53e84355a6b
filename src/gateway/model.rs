//! The Gateway API objects this module reads, with the CRD defaults the apiserver applies
//! (`config/crd/standard/*.yaml` at v1.6.1), and the Services and
//! Namespaces they refer to.
//!
//! Only the fields routing reads are kept; unknown fields are ignored (validation is a later
//! phase). Every `Option`/`Vec` the CRDs default is filled in here, so the rest of the module never
//! guesses: a match without a path is `PathPrefix /`, a rule without matches has that one match, a
//! path type defaults to `PathPrefix`, header and query matches to `Exact`, a backend's kind to
//! `Service`, its weight to 1, a parentRef's group and kind to `gateway.networking.k8s.io`
//! `Gateway`, a listener's `allowedRoutes` to `namespaces: {from: Same}`, a redirect's status to 302.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::model::Condition;
use serde_json::Value;

/// The API group of every Gateway API kind.
pub const GROUP: &str = "gateway.networking.k8s.io";
/// The label the apiserver puts on every Namespace (since Kubernetes 1.22): selectors may use it
/// even when the Namespace object is not in the input.
pub const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub name: String,
    /// `default` when absent, as `kubectl apply` does.
    pub namespace: String,
    /// RFC 3339 as the apiserver writes it (`2024-01-02T03:04:05Z`), compared as text; absent
    /// counts as the newest.
    pub creation_timestamp: Option<String>,
    pub labels: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewayClass {
    pub metadata: Metadata,
    pub spec: GatewayClassSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GatewayClassSpec {
    pub controller_name: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gateway {
    pub metadata: Metadata,
    pub spec: GatewaySpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GatewaySpec {
    pub gateway_class_name: String,
    pub listeners: Vec<Listener>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listener {
    pub name: String,
    /// Absent: every hostname (`*` on the hostnames page).
    pub hostname: Option<String>,
    pub port: u16,
    /// `HTTP`, `HTTPS`, `TLS`, `TCP`, `UDP` or an implementation's own.
    pub protocol: String,
    pub allowed_routes: AllowedRoutes,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowedRoutes {
    pub namespaces: RouteNamespaces,
    /// Empty: the kinds the listener's protocol supports (HTTPRoute for HTTP and HTTPS).
    pub kinds: Vec<RouteGroupKind>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RouteNamespaces {
    pub from: FromNamespaces,
    pub selector: Option<LabelSelector>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum FromNamespaces {
    All,
    Selector,
    #[default]
    Same,
    /// Not in the HTTPRoute enum (ListenerSets only); read so that it attaches nothing.
    None,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteGroupKind {
    pub group: String,
    pub kind: String,
}

/// A `metav1.LabelSelector`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    pub match_labels: BTreeMap<String, String>,
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSelectorRequirement {
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`.
    pub operator: String,
    pub values: Vec<String>,
}

impl LabelSelector {
    /// As `metav1.LabelSelectorAsSelector` reads it: every label and every expression must hold
    /// (an empty selector selects everything); an unknown operator selects nothing.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.match_labels.iter().all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|e| {
                let value = labels.get(&e.key);
                match e.operator.as_str() {
                    "In" => value.is_some_and(|v| e.values.contains(v)),
                    "NotIn" => value.is_none_or(|v| !e.values.contains(v)),
                    "Exists" => value.is_some(),
                    "DoesNotExist" => value.is_none(),
                    _ => false,
                }
            })
    }
}

/// A route: an HTTPRoute, or a GRPCRoute read into the same shape (a route kind is a match type,
/// not an engine): its method matches become paths (`/service/method`, [`HttpRouteMatch::grpc`]
/// keeps them as written), everything else (parents, hostnames, filters, backends) is the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRoute {
    pub metadata: Metadata,
    pub kind: RouteType,
    pub spec: HttpRouteSpec,
}

/// Which kind of route an [`HttpRoute`] was read from (`RouteKind` is status's group and kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum RouteType {
    #[default]
    Http,
    Grpc,
}

impl RouteType {
    /// The object's `kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            RouteType::Http => "HTTPRoute",
            RouteType::Grpc => "GRPCRoute",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpRouteSpec {
    pub parent_refs: Vec<ParentReference>,
    pub hostnames: Vec<String>,
    /// Never empty after [`Objects::from_values`]: absent rules default to one rule matching
    /// `PathPrefix /` (`HTTPRouteSpec.Rules`' `+kubebuilder:default`).
    pub rules: Vec<HttpRouteRule>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParentReference {
    pub group: String,
    pub kind: String,
    /// Absent: the route's namespace (filled in by [`Objects::from_values`]).
    pub namespace: Option<String>,
    pub name: String,
    pub section_name: Option<String>,
    pub port: Option<u16>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpRouteRule {
    pub name: Option<String>,
    /// Never empty after [`Objects::from_values`]: no matches is one `PathPrefix /` match.
    pub matches: Vec<HttpRouteMatch>,
    pub filters: Vec<HttpRouteFilter>,
    pub backend_refs: Vec<HttpBackendRef>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HttpRouteMatch {
    pub path: PathMatch,
    pub headers: Vec<ValueMatch>,
    pub query_params: Vec<ValueMatch>,
    pub method: Option<String>,
    /// A GRPCRoute match's `method` as written (`path` is read from it); `None` for HTTPRoutes.
    #[serde(skip_serializing_if = "Option::is_none", rename = "grpcMethod")]
    pub grpc: Option<GrpcMethodMatch>,
}

/// `text` as a regular expression matching it literally.
fn regex_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `GRPCMethodMatch`: a gRPC service and/or method, `Exact` (default) or `RegularExpression`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrpcMethodMatch {
    #[serde(rename = "type")]
    pub kind: ValueMatchType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

impl GrpcMethodMatch {
    /// The request path it matches, as an HTTPRoute path match: `Exact /service/method`,
    /// `PathPrefix /service/` (a service alone), and a `RegularExpression` otherwise (a method
    /// alone, or regular expressions), `[^/]+` standing for the part not given.
    pub fn path(&self) -> PathMatch {
        let service = self.service.as_deref().filter(|s| !s.is_empty());
        let method = self.method.as_deref().filter(|m| !m.is_empty());
        let regex = |s: Option<&str>| match s {
            Some(s) => alloc::format!("(?:{s})"),
            None => "[^/]+".to_string(),
        };
        match (self.kind, service, method) {
            (ValueMatchType::Exact, Some(s), Some(m)) => {
                PathMatch { kind: PathMatchType::Exact, value: alloc::format!("/{s}/{m}") }
            }
            (ValueMatchType::Exact, Some(s), None) => {
                PathMatch { kind: PathMatchType::PathPrefix, value: alloc::format!("/{s}/") }
            }
            (ValueMatchType::Exact, None, Some(m)) => PathMatch {
                kind: PathMatchType::RegularExpression,
                value: alloc::format!("/[^/]+/{}", regex_literal(m)),
            },
            (ValueMatchType::RegularExpression, s, m) if s.is_some() || m.is_some() => PathMatch {
                kind: PathMatchType::RegularExpression,
                value: alloc::format!("/{}/{}", regex(s), regex(m)),
            },
            // Neither (the CRD refuses it): every request, as no method match.
            _ => PathMatch::default(),
        }
    }

    /// Whether an `Exact` match holds for a request path `/service/method` (a part not given
    /// matches any non-empty one); read without a regex engine. `None` for `RegularExpression`.
    pub fn exact_matches(&self, path: &str) -> Option<bool> {
        if self.kind != ValueMatchType::Exact {
            return None;
        }
        let Some((service, method)) = path.strip_prefix('/').and_then(|p| p.split_once('/')) else {
            return Some(false);
        };
        let part = |want: &Option<String>, got: &str| match want.as_deref().filter(|w| !w.is_empty()) {
            Some(want) => want == got,
            None => !got.is_empty(),
        };
        Some(!method.contains('/') && part(&self.service, service) && part(&self.method, method))
    }

    /// Characters of the service and of the method matched (the GRPCRoute precedence).
    pub fn lengths(&self) -> (usize, usize) {
        (self.service.as_deref().map_or(0, str::len), self.method.as_deref().map_or(0, str::len))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PathMatch {
    #[serde(rename = "type")]
    pub kind: PathMatchType,
    pub value: String,
}

impl Default for PathMatch {
    fn default() -> Self {
        PathMatch { kind: PathMatchType::PathPrefix, value: "/".to_string() }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum PathMatchType {
    Exact,
    #[default]
    PathPrefix,
    RegularExpression,
}

/// A header or query-parameter match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValueMatch {
    #[serde(rename = "type", default)]
    pub kind: ValueMatchType,
    pub name: String,
    pub value: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum ValueMatchType {
    #[default]
    Exact,
    RegularExpression,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpBackendRef {
    /// `""` (the core group) when absent.
    pub group: String,
    pub kind: String,
    pub name: String,
    pub namespace: Option<String>,
    pub port: Option<u16>,
    pub weight: u32,
    pub filters: Vec<HttpRouteFilter>,
}

/// One filter; `type` says which of the other fields is read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpRouteFilter {
    pub kind: String,
    pub request_header_modifier: Option<HeaderFilter>,
    pub response_header_modifier: Option<HeaderFilter>,
    pub request_redirect: Option<RequestRedirect>,
    pub url_rewrite: Option<UrlRewrite>,
    pub request_mirror: Option<Value>,
    pub extension_ref: Option<Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HeaderFilter {
    pub set: Vec<Header>,
    pub add: Vec<Header>,
    pub remove: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Header {
    pub name: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestRedirect {
    pub scheme: Option<String>,
    pub hostname: Option<String>,
    pub path: Option<PathModifier>,
    pub port: Option<u16>,
    pub status_code: u16,
}

impl Default for RequestRedirect {
    fn default() -> Self {
        RequestRedirect { scheme: None, hostname: None, path: None, port: None, status_code: 302 }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlRewrite {
    pub hostname: Option<String>,
    pub path: Option<PathModifier>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathModifier {
    /// `ReplaceFullPath` or `ReplacePrefixMatch`.
    pub kind: String,
    pub replace_full_path: Option<String>,
    pub replace_prefix_match: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceGrant {
    pub metadata: Metadata,
    pub spec: ReferenceGrantSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReferenceGrantSpec {
    pub from: Vec<GrantFrom>,
    pub to: Vec<GrantTo>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrantFrom {
    pub group: String,
    pub kind: String,
    pub namespace: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrantTo {
    pub group: String,
    pub kind: String,
    /// Absent: every object of that kind in the grant's namespace.
    pub name: Option<String>,
}

/// A Service: only its ports (numbers, and names for completeness).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Service {
    pub metadata: Metadata,
    pub spec: ServiceSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceSpec {
    pub ports: Vec<ServicePort>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServicePort {
    pub port: u16,
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Namespace {
    pub metadata: Metadata,
}

/// An object [`Objects::from_values`] left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its position in the input slice (items of a `List` share their list's).
    pub index: usize,
    pub kind: String,
    pub name: String,
    pub error: String,
}

/// The Gateway API objects of an input, defaults applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Objects {
    pub gateway_classes: Vec<GatewayClass>,
    pub gateways: Vec<Gateway>,
    pub routes: Vec<HttpRoute>,
    pub grants: Vec<ReferenceGrant>,
    pub services: Vec<Service>,
    pub namespaces: Vec<Namespace>,
    /// Objects of a kind read here that could not be decoded (other kinds, Ingress included, are
    /// silently not ours).
    pub skipped: Vec<Skipped>,
    /// Whether `routes` holds both HTTPRoutes and GRPCRoutes (only then can two routes conflict
    /// over a hostname).
    pub mixed_route_kinds: bool,
}

impl Objects {
    /// The labels of a namespace: its object's, or only [`NAMESPACE_NAME_LABEL`] when the input
    /// has no such Namespace (the apiserver always sets that one).
    pub fn namespace_labels(&self, namespace: &str) -> BTreeMap<String, String> {
        let mut labels = self
            .namespaces
            .iter()
            .find(|n| n.metadata.name == namespace)
            .map(|n| n.metadata.labels.clone())
            .unwrap_or_default();
        labels.insert(NAMESPACE_NAME_LABEL.to_string(), namespace.to_string());
        labels
    }
}

pub(super) trait Defaults {
    fn apply_defaults(&mut self);
}

fn default_namespace(metadata: &mut Metadata) {
    if metadata.namespace.is_empty() {
        metadata.namespace = "default".to_string();
    }
}

impl Defaults for GatewayClass {
    fn apply_defaults(&mut self) {}
}

impl Defaults for Gateway {
    fn apply_defaults(&mut self) {
        default_namespace(&mut self.metadata);
    }
}

impl Defaults for ReferenceGrant {
    fn apply_defaults(&mut self) {
        default_namespace(&mut self.metadata);
    }
}

impl Defaults for Service {
    fn apply_defaults(&mut self) {
        default_namespace(&mut self.metadata);
    }
}

impl Defaults for Namespace {
    fn apply_defaults(&mut self) {}
}

impl Defaults for HttpRoute {
    fn apply_defaults(&mut self) {
        default_namespace(&mut self.metadata);
        let namespace = &self.metadata.namespace;
        for parent in &mut self.spec.parent_refs {
            parent.namespace.get_or_insert_with(|| namespace.clone());
        }
        // An HTTPRoute without rules has one (`+kubebuilder:default`); a GRPCRoute's stay empty.
        if self.spec.rules.is_empty() && self.kind == RouteType::Http {
            self.spec.rules = vec![HttpRouteRule::default()];
        }
        for rule in &mut self.spec.rules {
            if rule.matches.is_empty() {
                rule.matches = vec![HttpRouteMatch::default()];
            }
            for backend in &mut rule.backend_refs {
                backend.namespace.get_or_insert_with(|| namespace.clone());
            }
        }
    }
}

// The status a controller writes (`status`), read back from objects that carry one (`read`).

/// `GatewayStatusAddress` (and `GatewaySpecAddress`, read the same way).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GatewayStatusAddress {
    /// `IPAddress` (the default), `Hostname`, or an implementation's own.
    #[serde(rename = "type", default = "ip_address")]
    pub kind: String,
    pub value: String,
}

fn ip_address() -> String {
    "IPAddress".to_string()
}

/// `GatewayClassStatus` (the conditions this controller writes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GatewayClassStatus {
    pub conditions: Vec<Condition>,
}

/// `GatewayStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GatewayStatus {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<GatewayStatusAddress>,
    pub conditions: Vec<Condition>,
    pub listeners: Vec<ListenerStatus>,
}

/// `ListenerStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListenerStatus {
    pub name: String,
    pub supported_kinds: Vec<RouteKind>,
    pub attached_routes: u32,
    pub conditions: Vec<Condition>,
}

/// `RouteGroupKind` as status writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RouteKind {
    pub group: String,
    pub kind: String,
}

/// `RouteStatus` of an HTTPRoute.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HttpRouteStatus {
    pub parents: Vec<RouteParentStatus>,
}

/// `RouteParentStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RouteParentStatus {
    pub parent_ref: ParentRefStatus,
    pub controller_name: String,
    pub conditions: Vec<Condition>,
}

/// A `ParentReference` as status echoes it: `group`, `kind` and `namespace` filled in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ParentRefStatus {
    pub group: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
}

impl From<&ParentReference> for ParentRefStatus {
    fn from(p: &ParentReference) -> Self {
        ParentRefStatus {
            group: p.group.clone(),
            kind: p.kind.clone(),
            namespace: p.namespace.clone(),
            name: p.name.clone(),
            section_name: p.section_name.clone(),
            port: p.port,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn crd_defaults_are_applied() {
        let objects = Objects::from_values(&[json!({
            "apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "HTTPRoute",
            "metadata": {"name": "r"},
            "spec": {"parentRefs": [{"name": "gw"}], "rules": [
                {"matches": [{"headers": [{"name": "a", "value": "b"}]}],
                 "backendRefs": [{"name": "svc", "port": 80}],
                 "filters": [{"type": "RequestRedirect", "requestRedirect": {}}]},
                {}]}
        })]);
        let route = &objects.routes[0];
        assert_eq!(route.metadata.namespace, "default");
        let parent = &route.spec.parent_refs[0];
        assert_eq!(
            (parent.group.as_str(), parent.kind.as_str(), parent.namespace.as_deref()),
            (GROUP, "Gateway", Some("default"))
        );
        let rule = &route.spec.rules[0];
        assert_eq!(rule.matches[0].path, PathMatch::default());
        assert_eq!(rule.matches[0].headers[0].kind, ValueMatchType::Exact);
        let backend = &rule.backend_refs[0];
        assert_eq!((backend.group.as_str(), backend.kind.as_str(), backend.weight), ("", "Service", 1));
        assert_eq!(rule.filters[0].request_redirect.as_ref().unwrap().status_code, 302);
        assert_eq!(route.spec.rules[1].matches, vec![HttpRouteMatch::default()]);
    }

    #[test]
    fn absent_rules_default_to_one_match_all_rule() {
        let objects = Objects::from_values(&[json!({
            "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r", "namespace": "x"}
        })]);
        assert_eq!(objects.routes[0].spec.rules[0].matches[0].path.value, "/");
    }

    #[test]
    fn listener_defaults_and_undecodable_objects() {
        let objects = Objects::from_values(&[
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "g"},
                   "spec": {"gatewayClassName": "c", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP"}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "bad"}, "spec": 3}),
            json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "i"}}),
        ]);
        assert_eq!(objects.gateways[0].spec.listeners[0].allowed_routes.namespaces.from, FromNamespaces::Same);
        assert_eq!(objects.skipped.len(), 1);
        assert_eq!(objects.skipped[0].name, "bad");
    }

    #[test]
    fn lists_and_garbage() {
        let route =
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"}});
        let objects = Objects::from_values(&[
            json!({"apiVersion": "v1", "kind": "List", "items": [route.clone()]}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRouteList", "items": [route]}),
            json!(1),
            json!("x"),
            json!(null),
            json!([]),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "bad"},
                   "spec": {"rules": "x"}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "g"},
                   "spec": {"listeners": [{"name": "l", "port": 70000, "protocol": "HTTP"}]}}),
        ]);
        assert_eq!(objects.routes.len(), 2);
        let skipped: Vec<&str> = objects.skipped.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(skipped, ["bad", "g"]);
        assert!(objects.skipped[1].error.contains("70000"), "{}", objects.skipped[1].error);
    }

    #[test]
    fn label_selectors() {
        let labels: BTreeMap<String, String> = [("env".to_string(), "prod".to_string())].into_iter().collect();
        let selector = |v: Value| super::super::read::label_selector(&v).unwrap().matches(&labels);
        assert!(selector(json!({})));
        assert!(selector(json!({"matchLabels": {"env": "prod"}})));
        assert!(!selector(json!({"matchLabels": {"env": "dev"}})));
        assert!(selector(json!({"matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}]})));
        assert!(selector(json!({"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]})));
        assert!(!selector(json!({"matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]})));
        assert!(!selector(json!({"matchExpressions": [{"key": "env", "operator": "Bogus"}]})));
    }
}
