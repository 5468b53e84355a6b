//! The Kubernetes objects the project reads and writes.
//!
//! `null` reads as empty everywhere (maps, lists, list elements, strings), as the apiserver reads it.
//!
//! Field names follow the API (`camelCase`). Unknown fields are ignored so that real
//! `kubectl get -o yaml` output (with `managedFields`, `uid`, ...) reads as is. Fields the
//! apiserver validates keep their raw form (`pathType` as a string, port numbers as `i64`) so
//! validation can report the exact bad value instead of failing at parse time.
//!
//! The input reads them from `serde_json::Value`s with one plain function per type (`read`, the
//! rules above); their `Deserialize` goes through the same functions (any format's data taken as a
//! `Value` first). serde's derived visitors, a copy of `Value`'s decoding per type, are not
//! generated: they were ~110 KiB of the npm package's first WebAssembly module (issue 17).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Deserializer, Serialize};

pub(crate) mod read;

/// `Deserialize` through the type's reader in [`read`].
macro_rules! deserialize_by_reader {
    ($($ty:ident => $read:ident),* $(,)?) => {$(
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let mut value = serde_json::Value::deserialize(d)?;
                read::$read(&mut value).map_err(serde::de::Error::custom)
            }
        }
    )*};
}

deserialize_by_reader! {
    ObjectMeta => object_meta,
    Ingress => ingress,
    IngressSpec => ingress_spec,
    IngressTls => ingress_tls,
    IngressRule => ingress_rule,
    HttpIngressRuleValue => http_ingress_rule_value,
    HttpIngressPath => http_ingress_path,
    IngressBackend => ingress_backend,
    IngressServiceBackend => ingress_service_backend,
    ServiceBackendPort => service_backend_port,
    TypedLocalObjectReference => typed_local_object_reference,
    IngressStatus => ingress_status,
    IngressLoadBalancerStatus => ingress_load_balancer_status,
    LoadBalancerIngress => load_balancer_ingress,
    PortStatus => port_status,
    IngressClass => ingress_class,
    IngressClassSpec => ingress_class_spec,
    IngressClassParameters => ingress_class_parameters,
    Service => service,
    ServiceSpec => service_spec,
    ServicePort => service_port,
    ServiceStatus => service_status,
    LoadBalancerStatus => load_balancer_status,
    Condition => condition,
}

/// `metadata` of any object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(skip_serializing_if = "String::is_empty")]
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
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

impl ObjectMeta {
    /// The namespace, `default` when unset (as `kubectl apply` would place it).
    pub fn namespace_or_default(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }
}

/// `networking.k8s.io/v1` Ingress.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ingress {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: IngressSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<IngressStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ingress_class_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_backend: Option<IngressBackend>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tls: Vec<IngressTls>,
    /// `None` (absent or `null`) and `Some(vec![])` differ in validation messages (`null` vs `[]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<IngressRule>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressTls {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressRule {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpIngressRuleValue>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpIngressRuleValue {
    pub paths: Vec<HttpIngressPath>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpIngressPath {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Raw value; validation reports unsupported ones (`prefix`) as the apiserver does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_type: Option<String>,
    pub backend: IngressBackend,
}

/// Where traffic goes: a Service port, or a resource in the Ingress's namespace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressBackend {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<IngressServiceBackend>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<TypedLocalObjectReference>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressServiceBackend {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<ServiceBackendPort>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceBackendPort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `i64` so that out-of-range values (70000, -1) reach validation instead of failing the parse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TypedLocalObjectReference {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    pub kind: String,
    pub name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressStatus {
    pub load_balancer: IngressLoadBalancerStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressLoadBalancerStatus {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ingress: Vec<LoadBalancerIngress>,
}

/// One address of a load balancer (`IngressLoadBalancerIngress` and Service `LoadBalancerIngress`
/// share this shape; the Service one also has `ipMode`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadBalancerIngress {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_mode: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PortStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PortStatus {
    pub port: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `networking.k8s.io/v1` IngressClass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressClass {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: IngressClassSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressClassSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<IngressClassParameters>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngressClassParameters {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    pub kind: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// The annotation that marks the cluster's default IngressClass.
pub(crate) const DEFAULT_CLASS_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";
/// The deprecated per-Ingress class annotation.
pub(crate) const LEGACY_CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";

impl IngressClass {
    pub fn is_default(&self) -> bool {
        self.metadata.annotations.get(DEFAULT_CLASS_ANNOTATION).map(String::as_str) == Some("true")
    }
}

/// `v1` Service.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: ServiceSpec,
    pub status: ServiceStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceSpec {
    /// `ClusterIP` when unset.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ServicePort>,
    #[serde(rename = "clusterIP", skip_serializing_if = "Option::is_none")]
    pub cluster_ip: Option<String>,
    #[serde(rename = "clusterIPs", skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_name: Option<String>,
    #[serde(rename = "externalIPs", skip_serializing_if = "Vec::is_empty")]
    pub external_ips: Vec<String>,
    #[serde(rename = "loadBalancerIP", skip_serializing_if = "Option::is_none")]
    pub load_balancer_ip: Option<String>,
}

impl ServiceSpec {
    pub fn service_type(&self) -> &str {
        self.type_.as_deref().unwrap_or("ClusterIP")
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServicePort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
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

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_balancer: Option<LoadBalancerStatus>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadBalancerStatus {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ingress: Vec<LoadBalancerIngress>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
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

    /// The object's `metadata` (`migrate` and the crate's tests read it).
    #[cfg(any(feature = "testing", all(feature = "nginx", feature = "yaml", feature = "gateway")))]
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
