//! Reading the [model](super::model) straight from a `serde_json::Value`: one plain function per
//! type over the helpers of [`crate::read`] (fields, strings, integers, lists, maps, defaults).
//!
//! serde's derived `Deserialize` through `serde_json::from_value` did the same with a visitor per
//! type and field, monomorphised for every deserializer, and a clone of the whole object first;
//! in the WebAssembly modules (`make size`, twiggy before wasm-opt) that generic code weighed more
//! than the routing itself. The rules are the derive's: unknown fields are ignored, an absent
//! field takes its default, `null` is "absent" for an optional field and an error for any other,
//! integers must be whole and in range; but a list is never read as a struct (the derive reads
//! one positionally, which no Kubernetes client writes). Errors name the field
//! (`spec.listeners[0].port`) and what was expected.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::model::{
    AllowedRoutes, Defaults, FromNamespaces, GROUP, Gateway, GatewayClass, GatewayClassSpec, GatewaySpec, GrantFrom,
    GrantTo, GrpcMethodMatch, Header, HeaderFilter, HttpBackendRef, HttpRoute, HttpRouteFilter, HttpRouteMatch,
    HttpRouteRule, HttpRouteSpec, LabelSelector, LabelSelectorRequirement, Listener, Metadata, Namespace, Objects,
    ParentReference, PathMatch, PathMatchType, PathModifier, ReferenceGrant, ReferenceGrantSpec, RequestRedirect,
    RouteGroupKind, RouteNamespaces, RouteType, Service, ServicePort, ServiceSpec, Skipped, UrlRewrite, ValueMatch,
    ValueMatchType,
};
use super::model::{
    GatewayClassStatus, GatewayStatus, GatewayStatusAddress, HttpRouteStatus, ListenerStatus, ParentRefStatus,
    RouteKind, RouteParentStatus,
};
use crate::model::Condition;
use crate::read::{
    Error, any, defaulted, fields, int64, items, list, optional, port, required, string, string_map, string_or, uint32,
    variant,
};

pub fn metadata(value: &Value) -> Result<Metadata, Error> {
    let f = fields(value)?;
    Ok(Metadata {
        name: string_or(f, "name", "")?,
        namespace: string_or(f, "namespace", "")?,
        creation_timestamp: optional(f, "creationTimestamp", string)?,
        labels: defaulted(f, "labels", string_map)?.unwrap_or_default(),
    })
}

pub fn gateway_class(value: &Value) -> Result<GatewayClass, Error> {
    let f = fields(value)?;
    let spec = defaulted(f, "spec", |v| {
        Ok(GatewayClassSpec { controller_name: string_or(fields(v)?, "controllerName", "")? })
    })?;
    Ok(GatewayClass { metadata: required(f, "metadata", metadata)?, spec: spec.unwrap_or_default() })
}

pub fn gateway(value: &Value) -> Result<Gateway, Error> {
    let f = fields(value)?;
    Ok(Gateway { metadata: required(f, "metadata", metadata)?, spec: required(f, "spec", gateway_spec)? })
}

fn gateway_spec(value: &Value) -> Result<GatewaySpec, Error> {
    let f = fields(value)?;
    Ok(GatewaySpec {
        gateway_class_name: string_or(f, "gatewayClassName", "")?,
        listeners: list(f, "listeners", listener)?,
    })
}

fn listener(value: &Value) -> Result<Listener, Error> {
    let f = fields(value)?;
    Ok(Listener {
        name: required(f, "name", string)?,
        hostname: optional(f, "hostname", string)?,
        port: required(f, "port", port)?,
        protocol: required(f, "protocol", string)?,
        allowed_routes: defaulted(f, "allowedRoutes", allowed_routes)?.unwrap_or_default(),
    })
}

fn allowed_routes(value: &Value) -> Result<AllowedRoutes, Error> {
    let f = fields(value)?;
    Ok(AllowedRoutes {
        namespaces: defaulted(f, "namespaces", route_namespaces)?.unwrap_or_default(),
        kinds: list(f, "kinds", route_group_kind)?,
    })
}

fn route_namespaces(value: &Value) -> Result<RouteNamespaces, Error> {
    let f = fields(value)?;
    let from = defaulted(f, "from", |v| {
        const FROM: [FromNamespaces; 4] =
            [FromNamespaces::All, FromNamespaces::Selector, FromNamespaces::Same, FromNamespaces::None];
        Ok(FROM[variant(v, &["All", "Selector", "Same", "None"])?])
    })?;
    Ok(RouteNamespaces { from: from.unwrap_or_default(), selector: optional(f, "selector", label_selector)? })
}

fn route_group_kind(value: &Value) -> Result<RouteGroupKind, Error> {
    let f = fields(value)?;
    Ok(RouteGroupKind { group: string_or(f, "group", GROUP)?, kind: required(f, "kind", string)? })
}

pub fn label_selector(value: &Value) -> Result<LabelSelector, Error> {
    let f = fields(value)?;
    Ok(LabelSelector {
        match_labels: defaulted(f, "matchLabels", string_map)?.unwrap_or_default(),
        match_expressions: list(f, "matchExpressions", |v| {
            let f = fields(v)?;
            Ok(LabelSelectorRequirement {
                key: required(f, "key", string)?,
                operator: required(f, "operator", string)?,
                values: list(f, "values", string)?,
            })
        })?,
    })
}

pub fn http_route(value: &Value) -> Result<HttpRoute, Error> {
    route(value, RouteType::Http, |v| route_spec(v, |v| route_rule(v, http_route_match)))
}

/// A GRPCRoute, read into the route shape: each match's `method` becomes its path
/// ([`GrpcMethodMatch::path`]), its headers are header matches; no match matches every request.
pub fn grpc_route(value: &Value) -> Result<HttpRoute, Error> {
    route(value, RouteType::Grpc, |v| route_spec(v, |v| route_rule(v, grpc_route_match)))
}

/// A route of `kind`, its spec read by `read_spec` (the kinds differ in their matches only).
fn route(
    value: &Value,
    kind: RouteType,
    read_spec: fn(&Value) -> Result<HttpRouteSpec, Error>,
) -> Result<HttpRoute, Error> {
    let f = fields(value)?;
    let spec = defaulted(f, "spec", read_spec)?;
    Ok(HttpRoute { metadata: required(f, "metadata", metadata)?, kind, spec: spec.unwrap_or_default() })
}

fn route_spec(value: &Value, read_rule: fn(&Value) -> Result<HttpRouteRule, Error>) -> Result<HttpRouteSpec, Error> {
    let f = fields(value)?;
    Ok(HttpRouteSpec {
        parent_refs: list(f, "parentRefs", parent_reference)?,
        hostnames: list(f, "hostnames", string)?,
        rules: list(f, "rules", read_rule)?,
    })
}

type ReadMatch = fn(&Value) -> Result<HttpRouteMatch, Error>;

fn route_rule(value: &Value, read_match: ReadMatch) -> Result<HttpRouteRule, Error> {
    let f = fields(value)?;
    Ok(HttpRouteRule {
        name: optional(f, "name", string)?,
        matches: list(f, "matches", read_match)?,
        filters: list(f, "filters", http_route_filter)?,
        backend_refs: list(f, "backendRefs", http_backend_ref)?,
    })
}

fn grpc_route_match(value: &Value) -> Result<HttpRouteMatch, Error> {
    let f = fields(value)?;
    let grpc = optional(f, "method", grpc_method_match)?;
    Ok(HttpRouteMatch {
        path: grpc.as_ref().map(GrpcMethodMatch::path).unwrap_or_default(),
        headers: list(f, "headers", value_match)?,
        grpc,
        ..HttpRouteMatch::default()
    })
}

fn grpc_method_match(value: &Value) -> Result<GrpcMethodMatch, Error> {
    let f = fields(value)?;
    let kind = defaulted(f, "type", |v| {
        const TYPES: [ValueMatchType; 2] = [ValueMatchType::Exact, ValueMatchType::RegularExpression];
        Ok(TYPES[variant(v, &["Exact", "RegularExpression"])?])
    })?;
    Ok(GrpcMethodMatch {
        kind: kind.unwrap_or_default(),
        service: optional(f, "service", string)?,
        method: optional(f, "method", string)?,
    })
}

/// `spec.parentRefs` on its own (status reads them from a route that could not be read whole).
pub fn parent_references(value: &Value) -> Result<Vec<ParentReference>, Error> {
    items(value, parent_reference)
}

fn parent_reference(value: &Value) -> Result<ParentReference, Error> {
    let f = fields(value)?;
    Ok(ParentReference {
        group: string_or(f, "group", GROUP)?,
        kind: string_or(f, "kind", "Gateway")?,
        namespace: optional(f, "namespace", string)?,
        name: required(f, "name", string)?,
        section_name: optional(f, "sectionName", string)?,
        port: optional(f, "port", port)?,
    })
}

fn http_route_match(value: &Value) -> Result<HttpRouteMatch, Error> {
    let f = fields(value)?;
    Ok(HttpRouteMatch {
        path: defaulted(f, "path", path_match)?.unwrap_or_default(),
        headers: list(f, "headers", value_match)?,
        query_params: list(f, "queryParams", value_match)?,
        method: optional(f, "method", string)?,
        grpc: None,
    })
}

fn path_match(value: &Value) -> Result<PathMatch, Error> {
    let f = fields(value)?;
    let kind = defaulted(f, "type", |v| {
        const TYPES: [PathMatchType; 3] =
            [PathMatchType::Exact, PathMatchType::PathPrefix, PathMatchType::RegularExpression];
        Ok(TYPES[variant(v, &["Exact", "PathPrefix", "RegularExpression"])?])
    })?;
    Ok(PathMatch { kind: kind.unwrap_or_default(), value: string_or(f, "value", "/")? })
}

fn value_match(value: &Value) -> Result<ValueMatch, Error> {
    let f = fields(value)?;
    let kind = defaulted(f, "type", |v| {
        const TYPES: [ValueMatchType; 2] = [ValueMatchType::Exact, ValueMatchType::RegularExpression];
        Ok(TYPES[variant(v, &["Exact", "RegularExpression"])?])
    })?;
    Ok(ValueMatch {
        kind: kind.unwrap_or_default(),
        name: required(f, "name", string)?,
        value: required(f, "value", string)?,
    })
}

fn http_backend_ref(value: &Value) -> Result<HttpBackendRef, Error> {
    let f = fields(value)?;
    Ok(HttpBackendRef {
        group: string_or(f, "group", "")?,
        kind: string_or(f, "kind", "Service")?,
        name: string_or(f, "name", "")?,
        namespace: optional(f, "namespace", string)?,
        port: optional(f, "port", port)?,
        weight: defaulted(f, "weight", weight)?.unwrap_or(1),
        filters: list(f, "filters", http_route_filter)?,
    })
}

/// A backendRef's `weight`: the CRD's range, which the reader keeps too, so that a weight the
/// apiserver refuses never splits traffic (an unchecked read included).
fn weight(value: &Value) -> Result<u32, Error> {
    value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n <= 1_000_000)
        .ok_or_else(|| Error::expected("an integer from 0 to 1000000", value))
}

fn http_route_filter(value: &Value) -> Result<HttpRouteFilter, Error> {
    let f = fields(value)?;
    Ok(HttpRouteFilter {
        kind: string_or(f, "type", "")?,
        request_header_modifier: optional(f, "requestHeaderModifier", header_filter)?,
        response_header_modifier: optional(f, "responseHeaderModifier", header_filter)?,
        request_redirect: optional(f, "requestRedirect", request_redirect)?,
        url_rewrite: optional(f, "urlRewrite", url_rewrite)?,
        request_mirror: optional(f, "requestMirror", any)?,
        extension_ref: optional(f, "extensionRef", any)?,
    })
}

fn header_filter(value: &Value) -> Result<HeaderFilter, Error> {
    let f = fields(value)?;
    Ok(HeaderFilter { set: list(f, "set", header)?, add: list(f, "add", header)?, remove: list(f, "remove", string)? })
}

fn header(value: &Value) -> Result<Header, Error> {
    let f = fields(value)?;
    Ok(Header { name: required(f, "name", string)?, value: required(f, "value", string)? })
}

fn request_redirect(value: &Value) -> Result<RequestRedirect, Error> {
    let f = fields(value)?;
    Ok(RequestRedirect {
        scheme: optional(f, "scheme", string)?,
        hostname: optional(f, "hostname", string)?,
        path: optional(f, "path", path_modifier)?,
        port: optional(f, "port", port)?,
        status_code: defaulted(f, "statusCode", port)?.unwrap_or(302),
    })
}

fn url_rewrite(value: &Value) -> Result<UrlRewrite, Error> {
    let f = fields(value)?;
    Ok(UrlRewrite { hostname: optional(f, "hostname", string)?, path: optional(f, "path", path_modifier)? })
}

fn path_modifier(value: &Value) -> Result<PathModifier, Error> {
    let f = fields(value)?;
    Ok(PathModifier {
        kind: required(f, "type", string)?,
        replace_full_path: optional(f, "replaceFullPath", string)?,
        replace_prefix_match: optional(f, "replacePrefixMatch", string)?,
    })
}

pub fn reference_grant(value: &Value) -> Result<ReferenceGrant, Error> {
    let f = fields(value)?;
    let spec = defaulted(f, "spec", |v| {
        let f = fields(v)?;
        Ok(ReferenceGrantSpec {
            from: list(f, "from", |v| {
                let f = fields(v)?;
                Ok(GrantFrom {
                    group: string_or(f, "group", "")?,
                    kind: required(f, "kind", string)?,
                    namespace: required(f, "namespace", string)?,
                })
            })?,
            to: list(f, "to", |v| {
                let f = fields(v)?;
                Ok(GrantTo {
                    group: string_or(f, "group", "")?,
                    kind: required(f, "kind", string)?,
                    name: optional(f, "name", string)?,
                })
            })?,
        })
    })?;
    Ok(ReferenceGrant { metadata: required(f, "metadata", metadata)?, spec: spec.unwrap_or_default() })
}

pub fn service(value: &Value) -> Result<Service, Error> {
    let f = fields(value)?;
    let spec = defaulted(f, "spec", |v| {
        let ports = list(fields(v)?, "ports", |v| {
            let f = fields(v)?;
            Ok(ServicePort { port: required(f, "port", port)?, name: optional(f, "name", string)? })
        })?;
        Ok(ServiceSpec { ports })
    })?;
    Ok(Service { metadata: required(f, "metadata", metadata)?, spec: spec.unwrap_or_default() })
}

/// A Service the input read already (one of its other objects), as [`service`] reads its manifest.
pub fn core_service(service: &crate::model::Service) -> Result<Service, Error> {
    let meta = &service.metadata;
    let mut ports = Vec::with_capacity(service.spec.ports.len());
    for (index, p) in service.spec.ports.iter().enumerate() {
        let port = u16::try_from(p.port).map_err(|_| {
            let e = Error::expected("an integer from 0 to 65535", &Value::from(p.port)).in_field("port");
            e.in_item(index).in_field("ports").in_field("spec")
        })?;
        ports.push(ServicePort { port, name: p.name.clone() });
    }
    Ok(Service {
        metadata: Metadata {
            name: meta.name.clone(),
            namespace: meta.namespace.clone().unwrap_or_default(),
            creation_timestamp: meta.creation_timestamp.clone(),
            labels: meta.labels.clone(),
        },
        spec: ServiceSpec { ports },
    })
}

pub fn namespace(value: &Value) -> Result<Namespace, Error> {
    Ok(Namespace { metadata: required(fields(value)?, "metadata", metadata)? })
}

// The status an object holds already, which status merges its own into (as the derives of the
// status types read it).

pub fn gateway_class_status(value: &Value) -> Result<GatewayClassStatus, Error> {
    Ok(GatewayClassStatus { conditions: list(fields(value)?, "conditions", condition)? })
}

pub fn gateway_status(value: &Value) -> Result<GatewayStatus, Error> {
    let f = fields(value)?;
    Ok(GatewayStatus {
        addresses: list(f, "addresses", gateway_status_address)?,
        conditions: list(f, "conditions", condition)?,
        listeners: list(f, "listeners", |v| {
            let f = fields(v)?;
            Ok(ListenerStatus {
                name: string_or(f, "name", "")?,
                supported_kinds: list(f, "supportedKinds", |v| {
                    let f = fields(v)?;
                    Ok(RouteKind { group: string_or(f, "group", "")?, kind: string_or(f, "kind", "")? })
                })?,
                attached_routes: defaulted(f, "attachedRoutes", uint32)?.unwrap_or_default(),
                conditions: list(f, "conditions", condition)?,
            })
        })?,
    })
}

/// A Gateway's `spec.addresses` (read as its `status.addresses` are).
pub fn gateway_addresses(value: &Value) -> Result<Vec<GatewayStatusAddress>, Error> {
    items(value, gateway_status_address)
}

fn gateway_status_address(value: &Value) -> Result<GatewayStatusAddress, Error> {
    let f = fields(value)?;
    Ok(GatewayStatusAddress { kind: string_or(f, "type", "IPAddress")?, value: required(f, "value", string)? })
}

pub fn http_route_status(value: &Value) -> Result<HttpRouteStatus, Error> {
    let parents = list(fields(value)?, "parents", |v| {
        let f = fields(v)?;
        let parent_ref = defaulted(f, "parentRef", |v| {
            let f = fields(v)?;
            Ok(ParentRefStatus {
                group: string_or(f, "group", "")?,
                kind: string_or(f, "kind", "")?,
                namespace: optional(f, "namespace", string)?,
                name: string_or(f, "name", "")?,
                section_name: optional(f, "sectionName", string)?,
                port: optional(f, "port", port)?,
            })
        })?;
        Ok(RouteParentStatus {
            parent_ref: parent_ref.unwrap_or_default(),
            controller_name: string_or(f, "controllerName", "")?,
            conditions: list(f, "conditions", condition)?,
        })
    })?;
    Ok(HttpRouteStatus { parents })
}

/// A `metav1.Condition`; a `null` type or status is empty, as [`Condition`]'s own decoding reads it.
fn condition(value: &Value) -> Result<Condition, Error> {
    let f = fields(value)?;
    Ok(Condition {
        type_: optional(f, "type", string)?.unwrap_or_default(),
        status: optional(f, "status", string)?.unwrap_or_default(),
        observed_generation: optional(f, "observedGeneration", int64)?,
        last_transition_time: optional(f, "lastTransitionTime", string)?,
        reason: optional(f, "reason", string)?,
        message: optional(f, "message", string)?,
    })
}

// Reading objects into the model: its types know nothing of values.
impl Objects {
    /// Picks GatewayClass, Gateway, HTTPRoute and ReferenceGrant (`gateway.networking.k8s.io` `v1`,
    /// and `v1beta1`, which the standard CRDs still serve), Service and Namespace (`v1`) out of
    /// decoded manifests (a `kind: List` is read item by item), and applies the CRD defaults. An
    /// object with a list longer than its CRD allows is left out unread
    /// ([`oversize`](super::validation::oversize): `spec.rules[0].matches: Too many: 100000: must
    /// have at most 64 items`).
    pub fn from_values(values: &[Value]) -> Objects {
        Objects::read(values, false)
    }

    /// As [`from_values`](Self::from_values), but a GatewayClass, Gateway, HTTPRoute or
    /// ReferenceGrant that the apiserver would refuse (its CRD's schema and CEL rules,
    /// [`validation`](super::validation)) is left out too, its [`Skipped::error`] the apiserver's
    /// answer: a cluster never holds it, so it never routes.
    // The crate's tests' and benchmarks'; compiling an input reads through `from_held`.
    #[cfg(any(test, feature = "testing"))]
    pub fn from_checked_values(values: &[Value]) -> Objects {
        Objects::read(values, true)
    }

    fn read<V: core::borrow::Borrow<Value>>(values: &[V], checked: bool) -> Objects {
        let mut objects = Objects::default();
        for (index, value) in values.iter().enumerate() {
            objects.add(index, value.borrow(), checked);
        }
        let kind = |k| objects.routes.iter().any(|r| r.kind == k);
        objects.mixed_route_kinds = kind(RouteType::Http) && kind(RouteType::Grpc);
        objects
    }

    /// The Gateway API objects of an input ([`Input::gateway_api`](crate::input::Input::gateway_api),
    /// as values) with the Services among its other `objects`, which the routes' backendRefs name;
    /// objects the apiserver would refuse are left out ([`from_checked_values`](Self::from_checked_values)).
    /// [`Skipped::index`] still indexes `gateway_api`.
    #[cfg(any(test, feature = "testing", all(feature = "nginx", feature = "yaml")))]
    pub fn from_input(gateway_api: &[Value], objects: &[crate::model::Object]) -> Objects {
        Objects::from_held(gateway_api, objects)
    }

    /// `from_input` over the values and objects however held: compiling an input reads them
    /// where they are, without copying them.
    pub(crate) fn from_held<V, O>(gateway_api: &[V], objects: &[O]) -> Objects
    where
        V: core::borrow::Borrow<Value>,
        O: core::borrow::Borrow<crate::model::Object>,
    {
        let mut objects_here = Objects::read(gateway_api, true);
        for object in objects {
            // As its manifest would be read (`v1` only), without writing it out as a value first.
            if let crate::model::Object::Service(service) = object.borrow()
                && service.api_version == "v1"
                && service.kind == "Service"
            {
                match decode(service, core_service) {
                    Ok(service) => objects_here.services.push(service),
                    Err(error) => objects_here.skipped.push(Skipped {
                        index: usize::MAX,
                        kind: "Service".to_string(),
                        name: service.metadata.name.clone(),
                        error,
                    }),
                }
            }
        }
        objects_here
    }

    fn add(&mut self, index: usize, value: &Value, checked: bool) {
        let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
        // `kind: List` (kubectl) and typed lists (`HTTPRouteList`, as the API lists them).
        if kind.ends_with("List") && value.get("items").is_some_and(Value::is_array) {
            for item in value.get("items").and_then(Value::as_array).into_iter().flatten() {
                self.add(index, item, checked);
            }
            return;
        }
        // A list longer than the CRD allows (100 000 matches, 10 000 listeners) is refused before
        // anything is read from it: validation only counts it, and the reader never sees it.
        let refused = match checked {
            true => super::validation::validate(value).and_then(|v| v.message()),
            false => super::validation::oversize(value).map(|e| e.to_string()),
        };
        if let Some(message) = refused {
            let name = value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
            self.skipped.push(Skipped { index, kind: kind.to_string(), name, error: message });
            return;
        }
        let gateway_api = matches!(api_version, "gateway.networking.k8s.io/v1" | "gateway.networking.k8s.io/v1beta1");
        let result = match (gateway_api, api_version, kind) {
            (true, _, "GatewayClass") => decode(value, gateway_class).map(|o| self.gateway_classes.push(o)),
            (true, _, "Gateway") => decode(value, gateway).map(|o| self.gateways.push(o)),
            (true, _, "HTTPRoute") => decode(value, http_route).map(|o| self.routes.push(o)),
            (true, "gateway.networking.k8s.io/v1", "GRPCRoute") => {
                decode(value, grpc_route).map(|o| self.routes.push(o))
            }
            (true, _, "ReferenceGrant") => decode(value, reference_grant).map(|o| self.grants.push(o)),
            (_, "v1", "Service") => decode(value, service).map(|o| self.services.push(o)),
            (_, "v1", "Namespace") => decode(value, namespace).map(|mut o| {
                // Cluster-scoped: the namespace `default` filled in by `decode` is not its own.
                o.metadata.namespace.clear();
                self.namespaces.push(o)
            }),
            _ => return,
        };
        if let Err(error) = result {
            let name = value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
            self.skipped.push(Skipped { index, kind: kind.to_string(), name, error });
        }
    }
}

/// Reads one object (`read`: a field's own default is filled in there) and applies the defaults
/// that depend on other fields.
fn decode<V, T: Defaults>(value: &V, read: fn(&V) -> Result<T, Error>) -> Result<T, String> {
    let mut object = read(value).map_err(|e| e.to_string())?;
    object.apply_defaults();
    Ok(object)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::read::Read;

    fn route_error(spec: Value) -> String {
        let route = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"}, "spec": spec});
        http_route(&route).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_field_and_what_was_expected() {
        assert_eq!(route_error(json!({"rules": "x"})), "spec.rules: expected a list, found the string \"x\"");
        assert_eq!(
            route_error(json!({"rules": [{}, {"backendRefs": [{"name": "s", "port": 70000}]}]})),
            "spec.rules[1].backendRefs[0].port: expected an integer from 0 to 65535, found 70000"
        );
        assert_eq!(route_error(json!({"parentRefs": [{"port": 80}]})), "spec.parentRefs[0]: missing field `name`");
        assert_eq!(route_error(json!({"hostnames": [null]})), "spec.hostnames[0]: expected a string, found null");
        assert_eq!(
            route_error(json!({"rules": [{"matches": [{"path": {"type": "Prefix"}}]}]})),
            "spec.rules[0].matches[0].path.type: expected one of `Exact`, `PathPrefix`, `RegularExpression`, found the string \"Prefix\""
        );
        assert_eq!(route_error(json!(3)), "spec: expected a map, found 3");
        assert_eq!(
            metadata(&json!({"labels": {"app": ["a"]}})).unwrap_err().to_string(),
            "labels[\"app\"]: expected a string, found a list"
        );
        assert_eq!(gateway(&json!({"metadata": {}})).unwrap_err().to_string(), "missing field `spec`");
    }

    #[test]
    fn null_is_absent_only_for_optional_fields() {
        let route = json!({"metadata": {"name": "r", "creationTimestamp": null},
                           "spec": {"rules": [{"name": null, "backendRefs": [{"name": "s", "port": null}]}]}});
        let route = http_route(&route).unwrap();
        assert_eq!((route.metadata.creation_timestamp, &route.spec.rules[0].name), (None, &None));
        assert_eq!(route.spec.rules[0].backend_refs[0].port, None);
        assert_eq!(route_error(json!({"rules": null})), "spec.rules: expected a list, found null");
        assert_eq!(
            route_error(json!({"rules": [{"backendRefs": [{"weight": null}]}]})),
            "spec.rules[0].backendRefs[0].weight: expected an integer from 0 to 1000000, found null"
        );
    }

    /// The status readers agree with the status types' own `Deserialize` (kept for library users),
    /// on well-formed statuses and on each kind of malformed one.
    #[test]
    fn status_readers_read_as_the_derives_do() {
        fn same<T: serde::de::DeserializeOwned + PartialEq + core::fmt::Debug>(value: &Value, read: Read<T>) {
            assert_eq!(read(value).ok(), serde_json::from_value::<T>(value.clone()).ok(), "{value}");
        }
        let condition = json!({"type": "Accepted", "status": "True", "observedGeneration": 3,
                               "lastTransitionTime": "2024-01-02T03:04:05Z", "reason": "Accepted", "message": "ok"});
        let conditions = [
            condition.clone(),
            json!({"type": null, "status": null, "reason": null}),
            json!({}),
            json!({"observedGeneration": 1.5}),
            json!({"observedGeneration": "1"}),
            json!({"type": 1}),
            json!(null),
        ];
        for c in &conditions {
            same(&json!({"conditions": [c]}), gateway_class_status);
            same(&json!({"conditions": [c], "listeners": [{"name": "l", "conditions": [c]}]}), gateway_status);
            same(&json!({"parents": [{"controllerName": "x", "conditions": [c]}]}), http_route_status);
        }
        let odd = [json!(null), json!(1), json!("x"), json!({}), json!([1]), json!({"a": 1}), json!(-1), json!(70000)];
        for v in &odd {
            for status in [
                json!({"conditions": v}),
                json!({"addresses": v}),
                json!({"listeners": v}),
                json!({"listeners": [{"name": v}]}),
                json!({"listeners": [{"supportedKinds": v}]}),
                json!({"listeners": [{"supportedKinds": [{"group": v}]}]}),
                json!({"listeners": [{"attachedRoutes": v}]}),
                json!({"addresses": [{"type": v, "value": "1.2.3.4"}]}),
                json!({"addresses": [{"value": v}]}),
                v.clone(),
            ] {
                same(&status, gateway_status);
            }
            for status in [
                json!({"parents": v}),
                json!({"parents": [{"parentRef": v}]}),
                json!({"parents": [{"controllerName": v}]}),
                json!({"parents": [{"parentRef": {"name": v}}]}),
                json!({"parents": [{"parentRef": {"port": v}}]}),
                json!({"parents": [{"parentRef": {"namespace": v, "sectionName": v}}]}),
                v.clone(),
            ] {
                same(&status, http_route_status);
            }
            same(v, gateway_addresses);
        }
        same(
            &json!({"parents": [{"parentRef": {"group": "g", "kind": "Gateway", "namespace": "n", "name": "gw", "sectionName": "s", "port": 80},
                                  "controllerName": "c", "conditions": [condition]}]}),
            http_route_status,
        );
        same(&json!([{"type": "Hostname", "value": "a.example.com"}, {"value": "1.2.3.4"}]), gateway_addresses);
        // The one difference: serde's derive also reads a struct from a list, positionally; no
        // Kubernetes client writes one, and here it is malformed (an old status counts as empty).
        assert!(gateway_status(&json!([])).is_err() && serde_json::from_value::<GatewayStatus>(json!([])).is_ok());
    }

    /// A Service among the input's other objects is read as its manifest is.
    #[test]
    fn core_services_read_as_their_manifests() {
        for port in [json!(80), json!(70000), json!(-1)] {
            let manifest = json!({"apiVersion": "v1", "kind": "Service",
                                  "metadata": {"name": "s", "namespace": "apps", "labels": {"a": "b"}, "creationTimestamp": "2024-01-02T03:04:05Z"},
                                  "spec": {"ports": [{"port": 443, "name": "https"}, {"port": port}]}});
            let core: crate::model::Service = serde_json::from_value(manifest.clone()).unwrap();
            let read = |r: Result<Service, Error>| r.map_err(|e| e.to_string());
            assert_eq!(read(core_service(&core)), read(service(&manifest)), "{port}");
        }
        let bare: crate::model::Service =
            serde_json::from_value(json!({"apiVersion": "v1", "kind": "Service"})).unwrap();
        assert_eq!(core_service(&bare).ok(), service(&json!({"metadata": {}})).ok());
    }
}
