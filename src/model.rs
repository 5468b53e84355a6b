//! serde types of the Kubernetes objects the project reads and writes.
//!
//! `null` reads as empty everywhere (maps, lists, list elements, strings), as the apiserver reads it.
//!
//! Field names follow the API (`camelCase`). Unknown fields are ignored so that real
//! `kubectl get -o yaml` output (with `managedFields`, `uid`, ...) reads as is. Fields the
//! apiserver validates keep their raw form (`pathType` as a string, port numbers as `i64`) so
//! validation can report the exact bad value instead of failing at parse time.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Deserializer, Serialize};

pub(crate) mod read;

/// `null` reads as the empty value, as the apiserver reads it: `annotations:` with nothing under
/// it, `labels: null`, `paths: null` are an empty map or list, not an error. Every field that is
/// not an `Option` goes through it (an `Option` already reads `null` as `None`).
fn null_as_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A list: `null` is empty, and so is each `null` element (Go decodes `[null]` into a zero value).
fn list<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<Vec<T>, D::Error> {
    Ok(optional_list(d)?.unwrap_or_default())
}

/// [`list`] that keeps `null` apart from `[]` (validation words them differently).
fn optional_list<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    let items: Option<Vec<Option<T>>> = Deserialize::deserialize(d)?;
    Ok(items.map(|items| items.into_iter().map(Option::unwrap_or_default).collect()))
}

/// A string map whose `null` values read as `""` (Go's JSON decoder stores the zero value).
fn string_map<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    let map: Option<BTreeMap<String, Option<String>>> = Deserialize::deserialize(d)?;
    Ok(map.unwrap_or_default().into_iter().map(|(k, v)| (k, v.unwrap_or_default())).collect())
}

/// `metadata` of any object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectMeta {
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// RFC 3339 timestamp; compared as text (the apiserver always writes `YYYY-MM-DDThh:mm:ssZ`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    #[serde(deserialize_with = "string_map", skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(deserialize_with = "string_map", skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

impl ObjectMeta {
    /// The namespace, `default` when unset (as `kubectl apply` would place it).
    pub fn namespace_or_default(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }
}

/// `networking.k8s.io/v1` Ingress.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Ingress {
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(deserialize_with = "null_as_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_as_default")]
    pub spec: IngressSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<IngressStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ingress_class_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_backend: Option<IngressBackend>,
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub tls: Vec<IngressTls>,
    /// `None` (absent or `null`) and `Some(vec![])` differ in validation messages (`null` vs `[]`).
    #[serde(deserialize_with = "optional_list", skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<IngressRule>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressTls {
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressRule {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpIngressRuleValue>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HttpIngressRuleValue {
    #[serde(deserialize_with = "list")]
    pub paths: Vec<HttpIngressPath>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HttpIngressPath {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Raw value; validation reports unsupported ones (`prefix`) as the apiserver does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_type: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub backend: IngressBackend,
}

/// Where traffic goes: a Service port, or a resource in the Ingress's namespace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressBackend {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<IngressServiceBackend>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<TypedLocalObjectReference>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressServiceBackend {
    #[serde(deserialize_with = "null_as_default")]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<ServiceBackendPort>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceBackendPort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `i64` so that out-of-range values (70000, -1) reach validation instead of failing the parse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TypedLocalObjectReference {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub kind: String,
    #[serde(deserialize_with = "null_as_default")]
    pub name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressStatus {
    #[serde(deserialize_with = "null_as_default")]
    pub load_balancer: IngressLoadBalancerStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressLoadBalancerStatus {
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub ingress: Vec<LoadBalancerIngress>,
}

/// One address of a load balancer (`IngressLoadBalancerIngress` and Service `LoadBalancerIngress`
/// share this shape; the Service one also has `ipMode`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LoadBalancerIngress {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_mode: Option<String>,
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PortStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PortStatus {
    #[serde(deserialize_with = "null_as_default")]
    pub port: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `networking.k8s.io/v1` IngressClass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressClass {
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(deserialize_with = "null_as_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_as_default")]
    pub spec: IngressClassSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressClassSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<IngressClassParameters>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IngressClassParameters {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub kind: String,
    #[serde(deserialize_with = "null_as_default")]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// The annotation that marks the cluster's default IngressClass.
pub const DEFAULT_CLASS_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";
/// The deprecated per-Ingress class annotation.
pub const LEGACY_CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";

impl IngressClass {
    pub fn is_default(&self) -> bool {
        self.metadata.annotations.get(DEFAULT_CLASS_ANNOTATION).map(String::as_str) == Some("true")
    }
}

/// `v1` Service.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Service {
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(deserialize_with = "null_as_default")]
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "null_as_default")]
    pub spec: ServiceSpec,
    #[serde(deserialize_with = "null_as_default")]
    pub status: ServiceStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceSpec {
    /// `ClusterIP` when unset.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    #[serde(deserialize_with = "string_map", skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ServicePort>,
    #[serde(rename = "clusterIP", skip_serializing_if = "Option::is_none")]
    pub cluster_ip: Option<String>,
    #[serde(deserialize_with = "list", rename = "clusterIPs", skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_name: Option<String>,
    #[serde(deserialize_with = "list", rename = "externalIPs", skip_serializing_if = "Vec::is_empty")]
    pub external_ips: Vec<String>,
    #[serde(rename = "loadBalancerIP", skip_serializing_if = "Option::is_none")]
    pub load_balancer_ip: Option<String>,
}

impl ServiceSpec {
    pub fn service_type(&self) -> &str {
        self.type_.as_deref().unwrap_or("ClusterIP")
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ServicePort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub port: i64,
    /// A number or a named container port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_port: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_port: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_protocol: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ServiceStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_balancer: Option<LoadBalancerStatus>,
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LoadBalancerStatus {
    #[serde(deserialize_with = "list", skip_serializing_if = "Vec::is_empty")]
    pub ingress: Vec<LoadBalancerIngress>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Condition {
    #[serde(deserialize_with = "null_as_default", rename = "type")]
    pub type_: String,
    #[serde(deserialize_with = "null_as_default")]
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `meta/v1` Status: how the API answers a failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Status {
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(deserialize_with = "null_as_default", skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
}

/// One object of the input, by kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Object {
    Ingress(Ingress),
    IngressClass(IngressClass),
    Service(Service),
}

impl Object {
    pub fn kind(&self) -> &'static str {
        match self {
            Object::Ingress(_) => "Ingress",
            Object::IngressClass(_) => "IngressClass",
            Object::Service(_) => "Service",
        }
    }

    pub fn metadata(&self) -> &ObjectMeta {
        match self {
            Object::Ingress(o) => &o.metadata,
            Object::IngressClass(o) => &o.metadata,
            Object::Service(o) => &o.metadata,
        }
    }
}

impl core::fmt::Display for IngressBackend {
    /// `service:port` (number or name), `resource:<apiGroup>/<Kind>/<name>`, as the tests file writes them.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match (&self.service, &self.resource) {
            (Some(s), _) => match &s.port {
                Some(ServiceBackendPort { number: Some(n), .. }) if *n != 0 => write!(f, "{}:{}", s.name, n),
                Some(ServiceBackendPort { name: Some(p), .. }) => write!(f, "{}:{}", s.name, p),
                _ => write!(f, "{}", s.name),
            },
            (None, Some(r)) => write!(f, "resource:{}/{}/{}", r.api_group.as_deref().unwrap_or(""), r.kind, r.name),
            (None, None) => f.write_str("(empty backend)"),
        }
    }
}
