//! What the apiserver is sent and answers: the `PUT .../status` request writing an Ingress's
//! status, and `meta/v1` Status bodies (401, 404) as it sends them.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;

use serde::Serialize;
use serde_json::{Map, Value};

use super::*;
use crate::validation::go_quote;

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
