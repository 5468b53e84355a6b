//! Reading the [model](super) straight from a `serde_json::Value`: one plain function per type
//! over the helpers of [`crate::read`], as [`gateway`](crate::gateway)'s reader does (see
//! [`crate::read`] for why: serde's derived visitors weighed ~110 KiB of the npm package's first
//! module).
//!
//! Each reader takes what it reads out of the value (strings, keys and lists move, as serde's
//! `from_value` moved them), leaving empty values behind. The rules are the ones the types' serde
//! attributes gave: unknown fields are ignored; absent is
//! the default; `null` is empty for a string, map, list or struct and `None` for an `Option`; a
//! `null` list item is the item's zero value and a `null` map value is `""` (Go's decoder stores
//! the zero value); integers are whole and fit an `i64`; `targetPort` and `details` stay as read.
//! The one difference: serde's derive also reads a struct from a list, positionally, which no
//! Kubernetes client writes; here that is an error (and [`input`](crate::input) refuses such a
//! value by its schema first).

use serde_json::Value;

use super::{
    Condition, HttpIngressPath, HttpIngressRuleValue, Ingress, IngressBackend, IngressClass, IngressClassParameters,
    IngressClassSpec, IngressLoadBalancerStatus, IngressRule, IngressServiceBackend, IngressSpec, IngressStatus,
    IngressTls, LoadBalancerIngress, LoadBalancerStatus, ObjectMeta, PortStatus, Service, ServiceBackendPort,
    ServicePort, ServiceSpec, ServiceStatus, TypedLocalObjectReference,
};
use crate::read::{
    Error, fields_mut, take_any, take_int64, take_optional, take_optional_zero_list, take_or_default, take_string,
    take_zero_list, take_zero_string_map,
};

pub fn object_meta(value: &mut Value) -> Result<ObjectMeta, Error> {
    let f = fields_mut(value)?;
    Ok(ObjectMeta {
        name: take_or_default(f, "name", take_string)?,
        namespace: take_optional(f, "namespace", take_string)?,
        uid: take_optional(f, "uid", take_string)?,
        resource_version: take_optional(f, "resourceVersion", take_string)?,
        generation: take_optional(f, "generation", take_int64)?,
        creation_timestamp: take_optional(f, "creationTimestamp", take_string)?,
        labels: take_or_default(f, "labels", take_zero_string_map)?,
        annotations: take_or_default(f, "annotations", take_zero_string_map)?,
    })
}

pub fn ingress(value: &mut Value) -> Result<Ingress, Error> {
    let f = fields_mut(value)?;
    Ok(Ingress {
        api_version: take_or_default(f, "apiVersion", take_string)?,
        kind: take_or_default(f, "kind", take_string)?,
        metadata: take_or_default(f, "metadata", object_meta)?,
        spec: take_or_default(f, "spec", ingress_spec)?,
        status: take_optional(f, "status", ingress_status)?,
    })
}

pub fn ingress_spec(value: &mut Value) -> Result<IngressSpec, Error> {
    let f = fields_mut(value)?;
    Ok(IngressSpec {
        ingress_class_name: take_optional(f, "ingressClassName", take_string)?,
        default_backend: take_optional(f, "defaultBackend", ingress_backend)?,
        tls: take_zero_list(f, "tls", ingress_tls)?,
        rules: take_optional_zero_list(f, "rules", ingress_rule)?,
    })
}

pub fn ingress_tls(value: &mut Value) -> Result<IngressTls, Error> {
    let f = fields_mut(value)?;
    Ok(IngressTls {
        hosts: take_zero_list(f, "hosts", take_string)?,
        secret_name: take_optional(f, "secretName", take_string)?,
    })
}

pub fn ingress_rule(value: &mut Value) -> Result<IngressRule, Error> {
    let f = fields_mut(value)?;
    Ok(IngressRule {
        host: take_optional(f, "host", take_string)?,
        http: take_optional(f, "http", http_ingress_rule_value)?,
    })
}

pub fn http_ingress_rule_value(value: &mut Value) -> Result<HttpIngressRuleValue, Error> {
    Ok(HttpIngressRuleValue { paths: take_zero_list(fields_mut(value)?, "paths", http_ingress_path)? })
}

pub fn http_ingress_path(value: &mut Value) -> Result<HttpIngressPath, Error> {
    let f = fields_mut(value)?;
    Ok(HttpIngressPath {
        path: take_optional(f, "path", take_string)?,
        path_type: take_optional(f, "pathType", take_string)?,
        backend: take_or_default(f, "backend", ingress_backend)?,
    })
}

pub fn ingress_backend(value: &mut Value) -> Result<IngressBackend, Error> {
    let f = fields_mut(value)?;
    Ok(IngressBackend {
        service: take_optional(f, "service", ingress_service_backend)?,
        resource: take_optional(f, "resource", typed_local_object_reference)?,
    })
}

pub fn ingress_service_backend(value: &mut Value) -> Result<IngressServiceBackend, Error> {
    let f = fields_mut(value)?;
    Ok(IngressServiceBackend {
        name: take_or_default(f, "name", take_string)?,
        port: take_optional(f, "port", service_backend_port)?,
    })
}

pub fn service_backend_port(value: &mut Value) -> Result<ServiceBackendPort, Error> {
    let f = fields_mut(value)?;
    Ok(ServiceBackendPort {
        name: take_optional(f, "name", take_string)?,
        number: take_optional(f, "number", take_int64)?,
    })
}

pub fn typed_local_object_reference(value: &mut Value) -> Result<TypedLocalObjectReference, Error> {
    let f = fields_mut(value)?;
    Ok(TypedLocalObjectReference {
        api_group: take_optional(f, "apiGroup", take_string)?,
        kind: take_or_default(f, "kind", take_string)?,
        name: take_or_default(f, "name", take_string)?,
    })
}

pub fn ingress_status(value: &mut Value) -> Result<IngressStatus, Error> {
    Ok(IngressStatus {
        load_balancer: take_or_default(fields_mut(value)?, "loadBalancer", ingress_load_balancer_status)?,
    })
}

pub fn ingress_load_balancer_status(value: &mut Value) -> Result<IngressLoadBalancerStatus, Error> {
    Ok(IngressLoadBalancerStatus { ingress: take_zero_list(fields_mut(value)?, "ingress", load_balancer_ingress)? })
}

pub fn load_balancer_ingress(value: &mut Value) -> Result<LoadBalancerIngress, Error> {
    let f = fields_mut(value)?;
    Ok(LoadBalancerIngress {
        ip: take_optional(f, "ip", take_string)?,
        hostname: take_optional(f, "hostname", take_string)?,
        ip_mode: take_optional(f, "ipMode", take_string)?,
        ports: take_zero_list(f, "ports", port_status)?,
    })
}

pub fn port_status(value: &mut Value) -> Result<PortStatus, Error> {
    let f = fields_mut(value)?;
    Ok(PortStatus {
        port: take_or_default(f, "port", take_int64)?,
        protocol: take_optional(f, "protocol", take_string)?,
        error: take_optional(f, "error", take_string)?,
    })
}

pub fn ingress_class(value: &mut Value) -> Result<IngressClass, Error> {
    let f = fields_mut(value)?;
    Ok(IngressClass {
        api_version: take_or_default(f, "apiVersion", take_string)?,
        kind: take_or_default(f, "kind", take_string)?,
        metadata: take_or_default(f, "metadata", object_meta)?,
        spec: take_or_default(f, "spec", ingress_class_spec)?,
    })
}

pub fn ingress_class_spec(value: &mut Value) -> Result<IngressClassSpec, Error> {
    let f = fields_mut(value)?;
    Ok(IngressClassSpec {
        controller: take_optional(f, "controller", take_string)?,
        parameters: take_optional(f, "parameters", ingress_class_parameters)?,
    })
}

pub fn ingress_class_parameters(value: &mut Value) -> Result<IngressClassParameters, Error> {
    let f = fields_mut(value)?;
    Ok(IngressClassParameters {
        api_group: take_optional(f, "apiGroup", take_string)?,
        kind: take_or_default(f, "kind", take_string)?,
        name: take_or_default(f, "name", take_string)?,
        scope: take_optional(f, "scope", take_string)?,
        namespace: take_optional(f, "namespace", take_string)?,
    })
}

pub fn service(value: &mut Value) -> Result<Service, Error> {
    let f = fields_mut(value)?;
    Ok(Service {
        api_version: take_or_default(f, "apiVersion", take_string)?,
        kind: take_or_default(f, "kind", take_string)?,
        metadata: take_or_default(f, "metadata", object_meta)?,
        spec: take_or_default(f, "spec", service_spec)?,
        status: take_or_default(f, "status", service_status)?,
    })
}

pub fn service_spec(value: &mut Value) -> Result<ServiceSpec, Error> {
    let f = fields_mut(value)?;
    Ok(ServiceSpec {
        type_: take_optional(f, "type", take_string)?,
        selector: take_or_default(f, "selector", take_zero_string_map)?,
        ports: take_zero_list(f, "ports", service_port)?,
        cluster_ip: take_optional(f, "clusterIP", take_string)?,
        cluster_ips: take_zero_list(f, "clusterIPs", take_string)?,
        external_name: take_optional(f, "externalName", take_string)?,
        external_ips: take_zero_list(f, "externalIPs", take_string)?,
        load_balancer_ip: take_optional(f, "loadBalancerIP", take_string)?,
    })
}

pub fn service_port(value: &mut Value) -> Result<ServicePort, Error> {
    let f = fields_mut(value)?;
    Ok(ServicePort {
        name: take_optional(f, "name", take_string)?,
        port: take_or_default(f, "port", take_int64)?,
        target_port: take_optional(f, "targetPort", take_any)?,
        protocol: take_optional(f, "protocol", take_string)?,
        node_port: take_optional(f, "nodePort", take_int64)?,
        app_protocol: take_optional(f, "appProtocol", take_string)?,
    })
}

pub fn service_status(value: &mut Value) -> Result<ServiceStatus, Error> {
    let f = fields_mut(value)?;
    Ok(ServiceStatus {
        load_balancer: take_optional(f, "loadBalancer", load_balancer_status)?,
        conditions: take_zero_list(f, "conditions", condition)?,
    })
}

pub fn load_balancer_status(value: &mut Value) -> Result<LoadBalancerStatus, Error> {
    Ok(LoadBalancerStatus { ingress: take_zero_list(fields_mut(value)?, "ingress", load_balancer_ingress)? })
}

/// A `metav1.Condition` (a Service's, and a Gateway API object's).
pub fn condition(value: &mut Value) -> Result<Condition, Error> {
    let f = fields_mut(value)?;
    Ok(Condition {
        type_: take_or_default(f, "type", take_string)?,
        status: take_or_default(f, "status", take_string)?,
        observed_generation: take_optional(f, "observedGeneration", take_int64)?,
        last_transition_time: take_optional(f, "lastTransitionTime", take_string)?,
        reason: take_optional(f, "reason", take_string)?,
        message: take_optional(f, "message", take_string)?,
    })
}

#[cfg(test)]
mod tests;
