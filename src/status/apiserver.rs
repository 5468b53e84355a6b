//! What the apiserver is sent: the `PUT .../status` request writing an Ingress's status.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;

use serde::Serialize;

use super::*;

/// An HTTP request to the apiserver (`Content-Type: application/json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StatusRequest {
    pub method: String,
    pub path: String,
    /// The whole Ingress as JSON, `apiVersion`/`kind` set and `status` replaced.
    pub body: String,
}

/// The `PUT .../status` request writing `addresses` into `ingress`.
pub(crate) fn status_request(ingress: &Ingress, addresses: &[LoadBalancerIngress]) -> StatusRequest {
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
