//! The status a Gateway API controller writes (GatewayClass, Gateway with its listeners, HTTPRoute
//! `parents[]`), and the `PUT .../status` requests that write it, as the API types at
//! v1.6.1 describe them (`apis/v1/gatewayclass_types.go`,
//! `gateway_types.go`, `shared_types.go`, `httproute_types.go`).
//!
//! ```text
//! use ingress_router::gateway::status::{gateway_status, StatusOptions};
//! let manifests: Vec<serde_json::Value> = serde_json::from_str(r#"[
//!   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
//!    "metadata": {"name": "gw", "namespace": "infra", "generation": 3},
//!    "spec": {"gatewayClassName": "eg", "listeners": [
//!      {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
//!   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
//!    "metadata": {"name": "shop", "namespace": "shop"},
//!    "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}],
//!             "rules": [{"backendRefs": [{"name": "cart", "port": 8080}]}]}}
//! ]"#).unwrap();
//! let report = gateway_status(&manifests, &StatusOptions::default());
//! let gateway = serde_json::to_value(&report.objects[0].status).unwrap();
//! assert_eq!(gateway["listeners"][0]["attachedRoutes"], 1);
//! assert_eq!(gateway["conditions"][0]["observedGeneration"], 3);
//! let route = serde_json::to_value(&report.objects[1].status).unwrap();
//! assert_eq!(route["parents"][0]["conditions"][0]["reason"], "Accepted");
//! assert_eq!(route["parents"][0]["parentRef"]["group"], "gateway.networking.k8s.io");
//! ```
//!
//! # Which objects are this controller's
//!
//! - [`StatusOptions::controller_name`] `None` (the default): the controller takes every
//!   GatewayClass (it accepts all of them) and writes [`DEFAULT_CONTROLLER_NAME`]. `Some(name)`:
//!   only the GatewayClasses whose `spec.controllerName` is `name` (`GatewayClassConditionStatusAccepted`:
//!   the condition "MUST be set by a controller when it sees a GatewayClass using its controller
//!   string"); another controller's class, its Gateways and the route entries for them are left
//!   untouched (a note says why).
//! - A Gateway whose GatewayClass is not in the input is taken as this controller's: inputs often
//!   leave the cluster-scoped class out, and the user asked for the Gateway's status.
//! - A route's parentRef to a Gateway that is not in the input, or to something other than a
//!   Gateway, gets no entry: `RouteStatus.Parents` says "parent references that cannot be resolved
//!   by an implementation of this API will not be added to this list", and
//!   `RouteParentStatus.Conditions` lists "the Route refers to a nonexistent parent" among the cases
//!   where `Accepted` is not set. The object's notes say which parentRefs were left out, so that a
//!   user sees why.
//! - An object with a list longer than its CRD allows (64 matches per rule, 64 listeners, ...:
//!   [`oversize`](super::validation::oversize)) is left untouched and not read: the apiserver never
//!   stores it. A note names the list and its limit.
//!
//! # What is written, and from which text
//!
//! - GatewayClass: `Accepted` True/`Accepted`.
//! - Gateway `conditions`: `Accepted` True/`Accepted` when every listener is accepted,
//!   True/`ListenersNotValid` when some are, False/`ListenersNotValid` when none is
//!   (`GatewayReasonListenersNotValid`, and "ALL indistinct Listeners must not be accepted ... At
//!   least one distinct Listener MUST be present" in `GatewaySpec.Listeners`); `Programmed`
//!   True/`Programmed` when accepted, else False/`Invalid`. `addresses`: `spec.addresses` when given
//!   (`type` defaulting to `IPAddress`), else [`StatusOptions::addresses`], else none.
//! - Listener: `supportedKinds` (`HTTPRoute` for `HTTP` and `HTTPS` when `allowedRoutes.kinds` is
//!   empty or names it; unsupported kinds are left out, `ListenerStatus.SupportedKinds`);
//!   `attachedRoutes`, the routes accepted that attach to it through a parentRef and its
//!   `allowedRoutes`, whatever their `ResolvedRefs` (`ListenerStatus.AttachedRoutes`); conditions
//!   `Accepted` (False/`UnsupportedProtocol` for a protocol other than `HTTP` and `HTTPS`, as
//!   `ProtocolType` requires; False with the conflict's reason for a conflicted listener, as the
//!   conformance test `listenerset-hostname-conflict` expects), `Programmed` (True when accepted,
//!   else False with the same reason), `ResolvedRefs` (False/`InvalidRouteKinds` when
//!   `allowedRoutes.kinds` names a kind this controller does not serve, `RouteGroupKind`'s doc),
//!   `Conflicted` (True/`ProtocolConflict` when another listener has its port and another protocol,
//!   True/`HostnameConflict` when another has its port, protocol and hostname, else
//!   False/`NoConflicts`: "each listener in a set MUST have a unique combination of Port, Protocol,
//!   and, if supported by the protocol, Hostname").
//! - HTTPRoute `parents[]`: one entry per parentRef of this controller's, the parentRef echoed with
//!   its `group`, `kind` and `namespace` filled in, `controllerName`, and `Accepted` (True/`Accepted`
//!   when it attaches to at least one listener; False/`NoMatchingParent` when `sectionName` or
//!   `port` names no listener, `NotAllowedByListeners` when no listener's `allowedRoutes` takes it,
//!   `NoMatchingListenerHostname` when no hostname intersects, the reason of the listener the
//!   parentRef got farthest with; False/`UnsupportedValue` when a value of an enum the spec says so
//!   for is unknown: a match's `method`, a filter's `type`, a redirect's `scheme` or `statusCode`,
//!   a path modifier's `type`, or an enum that made the route undecodable), and `ResolvedRefs`
//!   (True/`ResolvedRefs`, or False with the first invalid backendRef's reason: `InvalidKind`,
//!   `RefNotPermitted`, `BackendNotFound`; the message lists every invalid one). The
//!   `UnsupportedProtocol` reason is not produced: the Services read here carry no `appProtocol`.
//!   And `PartiallyInvalid` (True/`UnsupportedValue`) when a `RegularExpression` match is invalid
//!   or over the regex size limit ([`StatusOptions::regex_limits`]): that match is dropped, the
//!   rest of the route served.
//! - Every condition: `observedGeneration` from `metadata.generation` (when given), and
//!   `lastTransitionTime` [`StatusOptions::transition_time`], or the one the object already has for
//!   that condition when its status does not change (`metav1.Condition`).
//!
//! # The request
//!
//! The body is the object as given with its `status` replaced by the one computed, merged as the
//! "Notes for implementors" require: conditions of other types are kept, and route `parents[]`
//! entries of other controllers are kept ("Implementations MUST NOT update entries with
//! non-matching `controllerName` fields"), while this controller's stale entries are dropped. No
//! request when the status already is that ([`StatusUpdate::Unchanged`]).

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::attach::{self, NotAttached};
use super::backends::{self, Invalid};
use super::model::{
    FromNamespaces, GROUP, Gateway, GatewayClass, HttpRoute, HttpRouteFilter, Listener, Objects, ParentReference,
    Skipped,
};
pub use super::model::{
    GatewayClassStatus, GatewayStatus, GatewayStatusAddress, HttpRouteStatus, ListenerStatus, RouteKind,
    RouteParentStatus,
};
use crate::model::Condition;
use crate::status::{StatusRequest, StatusUpdate};

/// The `controllerName` written when [`StatusOptions::controller_name`] is `None`.
pub const DEFAULT_CONTROLLER_NAME: &str = "ingress-router.dev/gateway-controller";
/// The `apiVersion` of the objects written, and the start of every request path.
pub const API_VERSION: &str = "gateway.networking.k8s.io/v1";
/// The `lastTransitionTime` when [`StatusOptions::transition_time`] is not given (the one the CRDs'
/// default conditions carry).
pub const EPOCH: &str = "1970-01-01T00:00:00Z";

/// How the controller writes status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct StatusOptions {
    /// `None`: take every GatewayClass and write [`DEFAULT_CONTROLLER_NAME`]. `Some`: only the
    /// classes whose `spec.controllerName` is this, written as the route entries' `controllerName`.
    pub controller_name: Option<String>,
    /// `lastTransitionTime` of the conditions that change (RFC 3339: `2026-01-02T03:04:05Z`).
    pub transition_time: String,
    /// As [`GatewayOptions::check_services`](super::GatewayOptions::check_services).
    pub check_services: Option<bool>,
    /// A Gateway's `status.addresses` when its `spec.addresses` is empty.
    pub addresses: Vec<GatewayStatusAddress>,
    /// As [`GatewayOptions::regex_limits`](super::GatewayOptions::regex_limits): a pattern over its
    /// size, or invalid, makes the route `PartiallyInvalid` (the match is dropped).
    pub regex_limits: crate::options::RegexLimits,
}

impl Default for StatusOptions {
    fn default() -> Self {
        StatusOptions {
            controller_name: None,
            transition_time: EPOCH.to_string(),
            check_services: None,
            addresses: Vec::new(),
            regex_limits: crate::options::RegexLimits::default(),
        }
    }
}

/// One object's status stanza.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Stanza {
    GatewayClass(GatewayClassStatus),
    Gateway(GatewayStatus),
    HttpRoute(HttpRouteStatus),
}

/// One GatewayClass, Gateway or HTTPRoute of the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectStatus {
    /// `GatewayClass`, `Gateway` or `HTTPRoute`.
    pub kind: &'static str,
    /// `None` for the cluster-scoped GatewayClass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
    /// Its position in the input slice (items of a `List` share their list's).
    #[serde(skip)]
    pub index: usize,
    /// The status the object carries once the controller is done; `None` when it is not this
    /// controller's (then `notes` says why).
    pub status: Option<Stanza>,
    /// What the controller leaves out, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub(crate) update: StatusUpdate,
}

/// The status of every GatewayClass, Gateway and HTTPRoute of an input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayStatusReport {
    /// The `controllerName` written.
    pub controller_name: String,
    /// In input order.
    pub objects: Vec<ObjectStatus>,
}

/// Computes the status of every GatewayClass, Gateway and HTTPRoute in `values` (decoded
/// manifests, as [`Objects::from_values`] reads them, Services and Namespaces among them).
pub fn gateway_status(values: &[Value], options: &StatusOptions) -> GatewayStatusReport {
    let objects = Objects::from_values(values);
    let context = Context::new(&objects, options);
    let mut report = GatewayStatusReport { controller_name: context.controller_name.clone(), objects: Vec::new() };
    for (index, value) in values.iter().enumerate() {
        for item in items(value) {
            if let Some(status) = context.object(index, item) {
                report.objects.push(status);
            }
        }
    }
    report
}

/// A value, or the items of a `List`.
fn items(value: &Value) -> Vec<&Value> {
    let kind = str_at(value, "/kind");
    match value.get("items").and_then(Value::as_array) {
        Some(list) if kind.ends_with("List") => list.iter().flat_map(items).collect(),
        _ => alloc::vec![value],
    }
}

fn str_at<'a>(value: &'a Value, pointer: &str) -> &'a str {
    at(value, pointer).and_then(Value::as_str).unwrap_or("")
}

/// `value.pointer(pointer)` for pointers of plain keys, without the copy of each key
/// `Value::pointer` makes (several lookups per object).
fn at<'a>(value: &'a Value, pointer: &str) -> Option<&'a Value> {
    pointer.split('/').skip(1).try_fold(value, |v, key| v.get(key))
}

/// The objects and the lookups status makes, each a hash probe (the first object of a name, as a
/// scan would find it), so that the status of 50 000 routes is linear in them.
struct Context<'a> {
    objects: &'a Objects,
    options: &'a StatusOptions,
    controller_name: String,
    check_services: bool,
    refs: backends::Refs<'a>,
    classes: HashMap<&'a str, &'a GatewayClass>,
    gateways: HashMap<(&'a str, &'a str), &'a Gateway>,
    /// By kind (`HTTPRoute`, `GRPCRoute`), namespace and name.
    routes: HashMap<(&'a str, &'a str, &'a str), usize>,
    /// The routes (positions, each once) with a parentRef naming each Gateway: only those can
    /// attach to its listeners.
    routes_of: HashMap<(&'a str, &'a str), Vec<usize>>,
    /// Per route: no value of an enum it does not know (only such a route is counted as attached).
    supported: Vec<bool>,
    /// Objects left out, by position and name, and routes left out by kind and name.
    skipped: HashMap<(usize, &'a str), &'a Skipped>,
    skipped_routes: HashMap<(&'a str, &'a str), &'a Skipped>,
    conflicts: attach::KindConflicts<'a>,
}

impl<'a> Context<'a> {
    fn new(objects: &'a Objects, options: &'a StatusOptions) -> Self {
        let mut classes = HashMap::new();
        for c in &objects.gateway_classes {
            classes.entry(c.metadata.name.as_str()).or_insert(c);
        }
        let mut gateways = HashMap::new();
        for g in &objects.gateways {
            gateways.entry((g.metadata.namespace.as_str(), g.metadata.name.as_str())).or_insert(g);
        }
        let mut routes = HashMap::new();
        let mut routes_of: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (r, route) in objects.routes.iter().enumerate() {
            routes
                .entry((route.kind.as_str(), route.metadata.namespace.as_str(), route.metadata.name.as_str()))
                .or_insert(r);
            for parent in route.spec.parent_refs.iter().filter(|p| p.group == GROUP && p.kind == "Gateway") {
                let Some(namespace) = parent.namespace.as_deref() else { continue };
                let list = routes_of.entry((namespace, parent.name.as_str())).or_default();
                if list.last() != Some(&r) {
                    list.push(r);
                }
            }
        }
        let mut skipped = HashMap::new();
        let mut skipped_routes = HashMap::new();
        for s in &objects.skipped {
            skipped.entry((s.index, s.name.as_str())).or_insert(s);
            if matches!(s.kind.as_str(), "HTTPRoute" | "GRPCRoute") {
                skipped_routes.entry((s.kind.as_str(), s.name.as_str())).or_insert(s);
            }
        }
        Context {
            objects,
            options,
            controller_name: options.controller_name.clone().unwrap_or_else(|| DEFAULT_CONTROLLER_NAME.to_string()),
            check_services: options.check_services.unwrap_or(!objects.services.is_empty()),
            refs: backends::Refs::new(objects),
            classes,
            gateways,
            routes,
            routes_of,
            supported: objects.routes.iter().map(|r| unsupported_value(r).is_none()).collect(),
            skipped,
            skipped_routes,
            conflicts: attach::KindConflicts::new(objects),
        }
    }

    fn object(&self, index: usize, value: &Value) -> Option<ObjectStatus> {
        let api_version = str_at(value, "/apiVersion");
        if !matches!(api_version, "gateway.networking.k8s.io/v1" | "gateway.networking.k8s.io/v1beta1") {
            return None;
        }
        let kind = str_at(value, "/kind");
        let name = str_at(value, "/metadata/name").to_string();
        let namespace = match str_at(value, "/metadata/namespace") {
            "" => "default".to_string(),
            ns => ns.to_string(),
        };
        let generation = at(value, "/metadata/generation").and_then(Value::as_i64);
        let mut notes = Vec::new();
        if matches!(kind, "GatewayClass" | "Gateway" | "HTTPRoute" | "GRPCRoute")
            && let Some(error) = super::validation::oversize(value)
        {
            // Refused by the apiserver for its length, and not read: left as it is.
            let namespace = (kind != "GatewayClass").then_some(namespace);
            let kind = match kind {
                "GatewayClass" => "GatewayClass",
                "Gateway" => "Gateway",
                "GRPCRoute" => "GRPCRoute",
                _ => "HTTPRoute",
            };
            notes.push(format!("refused, not read: {error}"));
            return Some(ObjectStatus {
                kind,
                namespace,
                name,
                index,
                status: None,
                notes,
                update: StatusUpdate::Untouched,
            });
        }
        let (kind, namespace, computed) = match kind {
            "GatewayClass" => {
                let class = self.classes.get(name.as_str()).copied();
                let computed = class.and_then(|c| self.class_status(c, generation, &mut notes));
                ("GatewayClass", None, computed.map(Stanza::GatewayClass))
            }
            "Gateway" => {
                let gateway = self.gateways.get(&(namespace.as_str(), name.as_str())).copied();
                let computed = gateway.and_then(|g| self.gateway_status(g, value, generation, &mut notes));
                ("Gateway", Some(namespace), computed.map(Stanza::Gateway))
            }
            "HTTPRoute" | "GRPCRoute" => {
                let kind = if kind == "HTTPRoute" { "HTTPRoute" } else { "GRPCRoute" };
                let route = self.routes.get(&(kind, namespace.as_str(), name.as_str())).copied();
                let computed = match route {
                    Some(r) => self.route_status(r, value, generation, &mut notes),
                    None => self.undecodable_route_status(value, kind, &namespace, generation, &mut notes),
                };
                (kind, Some(namespace), computed.map(Stanza::HttpRoute))
            }
            _ => return None,
        };
        if computed.is_none() && notes.is_empty() {
            let why = self.skipped.get(&(index, name.as_str()));
            notes.push(match why {
                Some(s) => format!("not decodable: {}", s.error),
                None => "not decodable".to_string(),
            });
        }
        let (status, update) = match computed {
            None => (None, StatusUpdate::Untouched),
            Some(stanza) => {
                let (merged, update) = self.request(kind, namespace.as_deref(), &name, value, &stanza);
                (Some(merged), update)
            }
        };
        Some(ObjectStatus { kind, namespace, name, index, status, notes, update })
    }

    fn condition(
        &self,
        type_: &str,
        status: bool,
        reason: &str,
        message: String,
        generation: Option<i64>,
    ) -> Condition {
        Condition {
            type_: type_.to_string(),
            status: if status { "True" } else { "False" }.to_string(),
            observed_generation: generation,
            last_transition_time: Some(self.options.transition_time.clone()),
            reason: Some(reason.to_string()),
            message: Some(message),
        }
    }

    /// Whether a class is this controller's.
    fn takes_class(&self, class: &GatewayClass) -> bool {
        self.options.controller_name.as_ref().is_none_or(|name| *name == class.spec.controller_name)
    }

    fn class_status(
        &self,
        class: &GatewayClass,
        generation: Option<i64>,
        notes: &mut Vec<String>,
    ) -> Option<GatewayClassStatus> {
        if !self.takes_class(class) {
            notes.push(format!(
                "controllerName {:?} is not {:?}: another controller's class, left untouched",
                class.spec.controller_name, self.controller_name
            ));
            return None;
        }
        let message = format!("accepted by {}", self.controller_name);
        Some(GatewayClassStatus {
            conditions: alloc::vec![self.condition("Accepted", true, "Accepted", message, generation)],
        })
    }

    /// Whether a Gateway is this controller's: its class is, or is not in the input. `Err`: why not.
    fn takes_gateway(&self, gateway: &Gateway) -> Result<(), String> {
        let class = self.classes.get(gateway.spec.gateway_class_name.as_str());
        match class {
            Some(c) if !self.takes_class(c) => Err(format!(
                "GatewayClass {} belongs to controller {:?}, not {:?}",
                c.metadata.name, c.spec.controller_name, self.controller_name
            )),
            _ => Ok(()),
        }
    }

    fn gateway_status(
        &self,
        gateway: &Gateway,
        value: &Value,
        generation: Option<i64>,
        notes: &mut Vec<String>,
    ) -> Option<GatewayStatus> {
        if let Err(why) = self.takes_gateway(gateway) {
            notes.push(format!("{why}: left untouched"));
            return None;
        }
        let listeners: Vec<ListenerStatus> =
            (0..gateway.spec.listeners.len()).map(|l| self.listener_status(gateway, l, generation)).collect();
        let accepted = |l: &ListenerStatus| l.conditions.first().is_some_and(|c| c.status == "True");
        let (valid, invalid): (Vec<&ListenerStatus>, Vec<&ListenerStatus>) =
            listeners.iter().partition(|l| accepted(l));
        let names = |ls: &[&ListenerStatus]| ls.iter().map(|l| l.name.as_str()).collect::<Vec<_>>().join(", ");
        let (is_accepted, reason, message) = match (valid.is_empty(), invalid.is_empty()) {
            (_, true) if !valid.is_empty() => (true, "Accepted", "every listener is accepted".to_string()),
            (false, false) => (
                true,
                "ListenersNotValid",
                format!("listeners not valid: {}; accepted: {}", names(&invalid), names(&valid)),
            ),
            _ if listeners.is_empty() => (false, "ListenersNotValid", "the Gateway has no listeners".to_string()),
            _ => (false, "ListenersNotValid", format!("no listener is valid: {}", names(&invalid))),
        };
        let programmed = match is_accepted {
            true => self.condition("Programmed", true, "Programmed", "programmed".to_string(), generation),
            false => {
                self.condition("Programmed", false, "Invalid", "the Gateway is not accepted".to_string(), generation)
            }
        };
        let addresses = match at(value, "/spec/addresses") {
            Some(a) => super::read::gateway_addresses(a).unwrap_or_else(|e| {
                notes.push(format!("spec.addresses not read: {e}"));
                Vec::new()
            }),
            None => Vec::new(),
        };
        let addresses = if addresses.is_empty() { self.options.addresses.clone() } else { addresses };
        Some(GatewayStatus {
            addresses,
            conditions: alloc::vec![self.condition("Accepted", is_accepted, reason, message, generation), programmed],
            listeners,
        })
    }

    fn listener_status(&self, gateway: &Gateway, l: usize, generation: Option<i64>) -> ListenerStatus {
        let listener = &gateway.spec.listeners[l];
        let http = matches!(listener.protocol.as_str(), "HTTP" | "HTTPS");
        let kinds = &listener.allowed_routes.kinds;
        let route_kind =
            |k: &super::model::RouteGroupKind| k.group == GROUP && matches!(k.kind.as_str(), "HTTPRoute" | "GRPCRoute");
        let supported_kinds: Vec<RouteKind> = match (http, kinds.is_empty()) {
            (false, _) => Vec::new(),
            (true, true) => [super::model::RouteType::Http, super::model::RouteType::Grpc]
                .iter()
                .map(|k| RouteKind { group: GROUP.to_string(), kind: k.as_str().to_string() })
                .collect(),
            (true, false) => {
                let mut named: Vec<RouteKind> = kinds
                    .iter()
                    .filter(|k| route_kind(k))
                    .map(|k| RouteKind { group: GROUP.to_string(), kind: k.kind.clone() })
                    .collect();
                named.dedup();
                named
            }
        };
        let invalid_kinds: Vec<String> = kinds
            .iter()
            .filter(|k| !(http && route_kind(k)))
            .map(|k| if k.group.is_empty() { k.kind.clone() } else { format!("{}/{}", k.group, k.kind) })
            .collect();
        let conflict = conflict(gateway, l);
        let (accepted, accepted_reason, accepted_message) = match (&conflict, http) {
            (_, false) => (
                false,
                "UnsupportedProtocol",
                format!("protocol {:?} is not supported (HTTP, HTTPS)", listener.protocol),
            ),
            (Some((reason, message)), true) => (false, *reason, message.clone()),
            (None, true) => (true, "Accepted", "accepted".to_string()),
        };
        let programmed = match accepted {
            true => self.condition("Programmed", true, "Programmed", "programmed".to_string(), generation),
            false => {
                let reason = conflict.as_ref().map_or("Invalid", |(r, _)| *r);
                self.condition("Programmed", false, reason, accepted_message.clone(), generation)
            }
        };
        let resolved = match invalid_kinds.is_empty() {
            true => self.condition("ResolvedRefs", true, "ResolvedRefs", "resolved".to_string(), generation),
            false => self.condition(
                "ResolvedRefs",
                false,
                "InvalidRouteKinds",
                format!("route kinds not supported on a {} listener: {}", listener.protocol, invalid_kinds.join(", ")),
                generation,
            ),
        };
        let conflicted = match &conflict {
            Some((reason, message)) => self.condition("Conflicted", true, reason, message.clone(), generation),
            None => self.condition("Conflicted", false, "NoConflicts", "no conflicts".to_string(), generation),
        };
        let candidates = self.routes_of.get(&(gateway.metadata.namespace.as_str(), gateway.metadata.name.as_str()));
        let attached_routes = candidates
            .into_iter()
            .flatten()
            .filter(|&&r| self.supported[r] && attach::attach(self.objects, &self.conflicts, gateway, l, r).is_ok())
            .count();
        ListenerStatus {
            name: listener.name.clone(),
            supported_kinds,
            attached_routes: u32::try_from(attached_routes).unwrap_or(u32::MAX),
            conditions: alloc::vec![
                self.condition("Accepted", accepted, accepted_reason, accepted_message, generation),
                programmed,
                resolved,
                conflicted,
            ],
        }
    }

    fn route_status(
        &self,
        r: usize,
        value: &Value,
        generation: Option<i64>,
        notes: &mut Vec<String>,
    ) -> Option<HttpRouteStatus> {
        let route = &self.objects.routes[r];
        let unsupported = unsupported_value(route);
        let resolved = self.resolved_refs(route, generation);
        let partially_invalid = self.partially_invalid(route, generation);
        let mut parents = Vec::new();
        for (i, parent) in route.spec.parent_refs.iter().enumerate() {
            let Some(gateway) = self.parent_gateway(i, parent, notes) else { continue };
            let accepted = match &unsupported {
                Some(message) => self.condition("Accepted", false, "UnsupportedValue", message.clone(), generation),
                None => self.accepted(r, gateway, parent, generation),
            };
            parents.push(RouteParentStatus {
                parent_ref: parent.into(),
                controller_name: self.controller_name.clone(),
                conditions: [accepted, resolved.clone()].into_iter().chain(partially_invalid.clone()).collect(),
            });
        }
        self.route_or_untouched(parents, value)
    }

    /// `PartiallyInvalid` True/`UnsupportedValue` when a `RegularExpression` match cannot be
    /// evaluated (invalid, or over the regex size limit): that match is dropped and the rest of the
    /// route is served, as the condition's doc describes.
    fn partially_invalid(&self, route: &HttpRoute, generation: Option<i64>) -> Option<Condition> {
        let compiler = super::regex::Compiler::new(&self.options.regex_limits);
        let mut refused = Vec::new();
        for (r, rule) in route.spec.rules.iter().enumerate() {
            for (m, matched) in rule.matches.iter().enumerate() {
                let regexes = super::regex::MatchRegexes::compile(matched, &compiler);
                for (field, why) in regexes.refusals() {
                    refused.push(format!("spec.rules[{r}].matches[{m}].{field}: {why}"));
                }
            }
        }
        (!refused.is_empty()).then(|| {
            let message = format!("dropped matches: {}", refused.join("; "));
            self.condition("PartiallyInvalid", true, "UnsupportedValue", message, generation)
        })
    }

    /// An HTTPRoute [`Objects::from_values`] could not decode (an enum value it does not know, as
    /// a path match `type`): `Accepted` False/`UnsupportedValue` for each of its parentRefs that
    /// can be read, as the enums' docs require.
    fn undecodable_route_status(
        &self,
        value: &Value,
        kind: &str,
        namespace: &str,
        generation: Option<i64>,
        notes: &mut Vec<String>,
    ) -> Option<HttpRouteStatus> {
        let error = self.skipped_routes.get(&(kind, str_at(value, "/metadata/name")));
        let message = error.map_or_else(|| "not decodable".to_string(), |s| s.error.clone());
        let refs = at(value, "/spec/parentRefs").map_or(Ok(Vec::new()), super::read::parent_references);
        let Ok(mut refs) = refs else {
            notes.push(format!("not decodable: {message}"));
            return None;
        };
        let mut parents = Vec::new();
        for (i, parent) in refs.iter_mut().enumerate() {
            parent.namespace.get_or_insert_with(|| namespace.to_owned());
            if self.parent_gateway(i, parent, notes).is_none() {
                continue;
            }
            // Its backendRefs were not read: only `Accepted` is written.
            let accepted = self.condition("Accepted", false, "UnsupportedValue", message.clone(), generation);
            parents.push(RouteParentStatus {
                parent_ref: (&*parent).into(),
                controller_name: self.controller_name.clone(),
                conditions: alloc::vec![accepted],
            });
        }
        self.route_or_untouched(parents, value)
    }

    /// `None` (untouched) when no entry is this controller's and the route holds none of its old ones.
    fn route_or_untouched(&self, parents: Vec<RouteParentStatus>, value: &Value) -> Option<HttpRouteStatus> {
        let stale = existing(value, super::read::http_route_status)
            .parents
            .iter()
            .any(|p| p.controller_name == self.controller_name);
        (!parents.is_empty() || stale).then_some(HttpRouteStatus { parents })
    }

    /// The Gateway a parentRef names when it is this controller's; a note says why not otherwise.
    fn parent_gateway(&self, i: usize, parent: &ParentReference, notes: &mut Vec<String>) -> Option<&'a Gateway> {
        let namespace = parent.namespace.as_deref().unwrap_or_default();
        if parent.group != GROUP || parent.kind != "Gateway" {
            let group = if parent.group.is_empty() { "core" } else { parent.group.as_str() };
            notes.push(format!(
                "parentRefs[{i}] {} {namespace}/{} of group {group} is not a Gateway: no entry",
                parent.kind, parent.name
            ));
            return None;
        }
        let found = parent.namespace.as_deref().and_then(|ns| self.gateways.get(&(ns, parent.name.as_str())));
        let Some(&gateway) = found else {
            notes.push(format!(
                "parentRefs[{i}] Gateway {namespace}/{} is not in the input: a controller writes no entry for a \
                 parent it cannot find",
                parent.name
            ));
            return None;
        };
        if let Err(why) = self.takes_gateway(gateway) {
            notes.push(format!("parentRefs[{i}] Gateway {namespace}/{}: {why}: no entry", parent.name));
            return None;
        }
        Some(gateway)
    }

    fn accepted(&self, r: usize, gateway: &Gateway, parent: &ParentReference, generation: Option<i64>) -> Condition {
        match parent_acceptance(self.objects, &self.conflicts, r, gateway, parent) {
            Ok(attached) => {
                let gw = attach::key_of(&gateway.metadata.namespace, &gateway.metadata.name);
                let names: Vec<&str> = attached.iter().map(|l| l.name.as_str()).collect();
                let message = format!("attached to Gateway {gw} listener(s) {}", names.join(", "));
                self.condition("Accepted", true, "Accepted", message, generation)
            }
            Err((reason, message)) => self.condition("Accepted", false, reason, message, generation),
        }
    }

    /// `ResolvedRefs` of a route: every backendRef of every rule resolved as routing resolves it.
    fn resolved_refs(&self, route: &HttpRoute, generation: Option<i64>) -> Condition {
        let mut first: Option<&'static str> = None;
        let mut problems = Vec::new();
        for (r, rule) in route.spec.rules.iter().enumerate() {
            for (b, backend_ref) in rule.backend_refs.iter().enumerate() {
                let backend = backends::resolve(&self.refs, route, backend_ref, b, self.check_services);
                let Some(invalid) = backend.invalid else { continue };
                let target = format!("{}/{}", backend.namespace, backend.name);
                let (reason, what) = match invalid {
                    Invalid::InvalidKind { group, kind } => {
                        let group = if group.is_empty() { "core".to_string() } else { group };
                        ("InvalidKind", format!("kind {kind} of group {group} is not supported (core Service)"))
                    }
                    Invalid::RefNotPermitted => (
                        "RefNotPermitted",
                        format!("Service {target} is in another namespace and no ReferenceGrant there allows it"),
                    ),
                    Invalid::BackendNotFound => ("BackendNotFound", format!("Service {target} not found")),
                    Invalid::PortNotFound => match backend.port {
                        None => ("BackendNotFound", format!("Service {target} has no port given")),
                        Some(p) => ("BackendNotFound", format!("Service {target} has no port {p}")),
                    },
                };
                first.get_or_insert(reason);
                problems.push(format!("rules[{r}].backendRefs[{b}]: {what}"));
            }
        }
        match first {
            None => self.condition(
                "ResolvedRefs",
                true,
                "ResolvedRefs",
                "every backendRef resolved".to_string(),
                generation,
            ),
            Some(reason) => self.condition("ResolvedRefs", false, reason, problems.join("; "), generation),
        }
    }

    /// The status merged into what the object holds, and the request (or why none).
    fn request(
        &self,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
        value: &Value,
        stanza: &Stanza,
    ) -> (Stanza, StatusUpdate) {
        let merged = match stanza {
            Stanza::GatewayClass(s) => {
                let old = existing(value, super::read::gateway_class_status);
                Stanza::GatewayClass(GatewayClassStatus {
                    conditions: merge_conditions(&old.conditions, &s.conditions),
                })
            }
            Stanza::Gateway(s) => {
                let old = existing(value, super::read::gateway_status);
                let listeners = s
                    .listeners
                    .iter()
                    .map(|l| {
                        let before = old.listeners.iter().find(|o| o.name == l.name);
                        ListenerStatus {
                            conditions: merge_conditions(before.map_or(&[][..], |b| &b.conditions), &l.conditions),
                            ..l.clone()
                        }
                    })
                    .collect();
                Stanza::Gateway(GatewayStatus {
                    addresses: s.addresses.clone(),
                    conditions: merge_conditions(&old.conditions, &s.conditions),
                    listeners,
                })
            }
            Stanza::HttpRoute(s) => {
                let old = existing(value, super::read::http_route_status);
                let mut parents: Vec<RouteParentStatus> =
                    old.parents.iter().filter(|p| p.controller_name != self.controller_name).cloned().collect();
                for p in &s.parents {
                    let before = old
                        .parents
                        .iter()
                        .find(|o| o.controller_name == p.controller_name && o.parent_ref == p.parent_ref);
                    parents.push(RouteParentStatus {
                        conditions: merge_conditions(before.map_or(&[][..], |b| &b.conditions), &p.conditions),
                        ..p.clone()
                    });
                }
                Stanza::HttpRoute(HttpRouteStatus { parents })
            }
        };
        let mut status = match value.get("status") {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        if let Ok(Value::Object(ours)) = serde_json::to_value(&merged) {
            if matches!(stanza, Stanza::Gateway(_)) && !ours.contains_key("addresses") {
                status.remove("addresses");
            }
            status.extend(ours);
        }
        let status = Value::Object(status);
        if value.get("status") == Some(&status) {
            return (merged, StatusUpdate::Unchanged);
        }
        let request = match value {
            Value::Object(object) => request_for(kind, namespace, name, &Body { object, status: &status }),
            // Never: only objects get this far.
            _ => request_for(kind, namespace, name, value),
        };
        (merged, StatusUpdate::Put(request))
    }
}

/// The object with its `apiVersion` and `status` replaced, written as it would be once they are
/// inserted, without a copy of the object (the request's body is the whole object).
struct Body<'a> {
    object: &'a Map<String, Value>,
    status: &'a Value,
}

impl Serialize for Body<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        // The keys in the order the map would have them after the two inserts (sorted, or in
        // insertion order with serde_json's `preserve_order`).
        let mut keys: Map<String, Value> = self.object.keys().map(|k| (k.clone(), Value::Null)).collect();
        keys.insert("apiVersion".into(), Value::Null);
        keys.insert("status".into(), Value::Null);
        let api_version = Value::String(API_VERSION.into());
        let mut map = serializer.serialize_map(Some(keys.len()))?;
        for key in keys.keys() {
            let value = match key.as_str() {
                "apiVersion" => &api_version,
                "status" => self.status,
                _ => &self.object[key],
            };
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// The `PUT .../status` request writing `body` (the whole object, its new status in it).
#[cfg(test)]
fn status_request(kind: &str, namespace: Option<&str>, name: &str, body: &Value) -> StatusRequest {
    request_for(kind, namespace, name, body)
}

fn request_for(kind: &str, namespace: Option<&str>, name: &str, body: &impl Serialize) -> StatusRequest {
    let resource = match kind {
        "GatewayClass" => "gatewayclasses",
        "Gateway" => "gateways",
        "GRPCRoute" => "grpcroutes",
        _ => "httproutes",
    };
    let path = match namespace {
        Some(ns) => format!("/apis/{API_VERSION}/namespaces/{ns}/{resource}/{name}/status"),
        None => format!("/apis/{API_VERSION}/{resource}/{name}/status"),
    };
    StatusRequest { method: "PUT".into(), path, body: serde_json::to_string(body).unwrap_or_default() }
}

/// The status an object holds now, read leniently (a malformed one counts as empty).
fn existing<T: Default>(value: &Value, read: fn(&Value) -> Result<T, crate::read::Error>) -> T {
    value.get("status").and_then(|s| read(s).ok()).unwrap_or_default()
}

/// The new conditions, each keeping the old `lastTransitionTime` when its status is the same, after
/// the old conditions of other types (which the controller "MUST NOT remove or reorder").
fn merge_conditions(old: &[Condition], new: &[Condition]) -> Vec<Condition> {
    let mut merged: Vec<Condition> = old.iter().filter(|o| !new.iter().any(|n| n.type_ == o.type_)).cloned().collect();
    for n in new {
        let mut c = n.clone();
        if let Some(o) = old.iter().find(|o| o.type_ == n.type_ && o.status == n.status)
            && o.last_transition_time.is_some()
        {
            c.last_transition_time.clone_from(&o.last_transition_time);
        }
        merged.push(c);
    }
    merged
}

/// Whether `route` attaches through `parent` (which names `gateway`) to some listener: the listeners
/// it attaches to, or the `Accepted: False` reason (`NoMatchingParent`, `NotAllowedByListeners`,
/// `NoMatchingListenerHostname`) and message, from the listener the parentRef got farthest with.
/// Route status and [`GatewayRouter::lint`](super::GatewayRouter::lint) both say this.
pub(crate) fn parent_acceptance<'g>(
    objects: &Objects,
    conflicts: &attach::KindConflicts,
    r: usize,
    gateway: &'g Gateway,
    parent: &ParentReference,
) -> Result<Vec<&'g Listener>, (&'static str, String)> {
    let route = &objects.routes[r];
    let mut attached = Vec::new();
    let mut farthest: Option<(NotAttached, &Listener)> = None;
    for (l, listener) in gateway.spec.listeners.iter().enumerate() {
        match attach::attach_parent(objects, conflicts, gateway, l, r, parent) {
            Ok(_) => attached.push(listener),
            Err(reason) => {
                if farthest.as_ref().is_none_or(|(r, _)| reason.depth() > r.depth()) {
                    farthest = Some((reason, listener));
                }
            }
        }
    }
    if !attached.is_empty() {
        return Ok(attached);
    }
    let gw = attach::key_of(&gateway.metadata.namespace, &gateway.metadata.name);
    let listener_names = gateway.spec.listeners.iter().map(|l| l.name.as_str()).collect::<Vec<_>>().join(", ");
    let (reason, message) = match farthest {
        None => ("NoMatchingParent", format!("Gateway {gw} has no listeners")),
        Some((NotAttached::SectionName { section_name }, _)) => (
            "NoMatchingParent",
            format!("sectionName {section_name:?} names no listener of Gateway {gw} (listeners: {listener_names})"),
        ),
        Some((NotAttached::Port { port }, _)) => (
            "NoMatchingParent",
            format!("port {port} is no listener's port on Gateway {gw} (listeners: {listener_names})"),
        ),
        Some((NotAttached::KindNotAllowed, l)) => (
            "NotAllowedByListeners",
            format!(
                "listener {} of Gateway {gw} takes no {} (protocol {}, allowedRoutes.kinds)",
                l.name,
                route.kind.as_str(),
                l.protocol
            ),
        ),
        Some((NotAttached::NamespaceNotAllowed { from }, l)) => (
            "NotAllowedByListeners",
            format!(
                "listener {} of Gateway {gw} allows routes from {} namespaces, not from {}",
                l.name,
                from_text(from),
                route.metadata.namespace
            ),
        ),
        Some((NotAttached::NoMatchingListenerHostname, l)) => (
            "NoMatchingListenerHostname",
            format!(
                "no hostname of the route ({}) intersects listener {}'s hostname {}",
                route.spec.hostnames.join(", "),
                l.name,
                l.hostname.as_deref().unwrap_or("*")
            ),
        ),
        // The specification says only `Accepted: False` for the younger of an HTTPRoute and a
        // GRPCRoute sharing a hostname on a listener; the reason is this implementation's.
        Some((NotAttached::KindConflict { route: older }, l)) => (
            "Conflicted",
            format!(
                "{older} is attached to listener {} of Gateway {gw} with a hostname in common and is older: \
                 an HTTPRoute and a GRPCRoute do not share a hostname on a listener",
                l.name
            ),
        ),
        Some((NotAttached::NotAParent, _)) => ("NoMatchingParent", format!("no listener of Gateway {gw} matches")),
    };
    Err((reason, message))
}

/// Whether two listeners of `gateway` conflict with listener `l`: the reason and message.
pub(crate) fn conflict(gateway: &Gateway, l: usize) -> Option<(&'static str, String)> {
    let listener = &gateway.spec.listeners[l];
    let others = gateway.spec.listeners.iter().enumerate().filter(|(i, o)| *i != l && o.port == listener.port);
    let mut hostname = None;
    for (_, other) in others {
        if other.protocol != listener.protocol {
            return Some((
                "ProtocolConflict",
                format!(
                    "listener {} has port {} with protocol {}, this one {}",
                    other.name, listener.port, other.protocol, listener.protocol
                ),
            ));
        }
        let same_host = match (&other.hostname, &listener.hostname) {
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            (None, None) => true,
            _ => false,
        };
        if same_host && hostname.is_none() {
            hostname = Some((
                "HostnameConflict",
                format!(
                    "listener {} has the same port {}, protocol {} and hostname {}",
                    other.name,
                    listener.port,
                    listener.protocol,
                    listener.hostname.as_deref().unwrap_or("(none)")
                ),
            ));
        }
    }
    hostname
}

fn from_text(from: FromNamespaces) -> &'static str {
    match from {
        FromNamespaces::All => "all",
        FromNamespaces::Same => "the same (the Gateway's)",
        FromNamespaces::Selector => "the selected",
        FromNamespaces::None => "no",
    }
}

const METHODS: [&str; 9] = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"];
/// `HTTPRouteFilterType`, with the experimental channel's `ExternalAuth`.
const FILTER_TYPES: [&str; 8] = [
    "RequestHeaderModifier",
    "ResponseHeaderModifier",
    "RequestMirror",
    "RequestRedirect",
    "URLRewrite",
    "ExtensionRef",
    "CORS",
    "ExternalAuth",
];
const PATH_MODIFIERS: [&str; 2] = ["ReplaceFullPath", "ReplacePrefixMatch"];
const REDIRECT_CODES: [u16; 5] = [301, 302, 303, 307, 308];

/// The first value of an enum whose doc says "Unknown values here must result in the
/// implementation setting the Accepted Condition for the Route to `status: False`, with a Reason of
/// `UnsupportedValue`" that is not one of the enum's values (`HTTPMethod`, `HTTPRouteFilterType`,
/// `HTTPRequestRedirectFilter.Scheme` and `.StatusCode`, `HTTPPathModifierType`).
fn unsupported_value(route: &HttpRoute) -> Option<String> {
    for (r, rule) in route.spec.rules.iter().enumerate() {
        for (m, matched) in rule.matches.iter().enumerate() {
            if let Some(method) = &matched.method
                && !METHODS.contains(&method.as_str())
            {
                return unknown(format!("rules[{r}].matches[{m}].method"), method, &METHODS);
            }
        }
        let backend_filters = rule.backend_refs.iter().enumerate().flat_map(|(b, br)| {
            br.filters
                .iter()
                .enumerate()
                .map(move |(f, filter)| (format!("rules[{r}].backendRefs[{b}].filters[{f}]"), filter))
        });
        let filters = rule.filters.iter().enumerate().map(|(f, filter)| (format!("rules[{r}].filters[{f}]"), filter));
        for (at, filter) in filters.chain(backend_filters) {
            if let Some(message) = unsupported_filter_value(&at, filter) {
                return Some(message);
            }
        }
    }
    None
}

/// "`field` `value` is not supported (the allowed values)".
fn unknown(field: String, value: &str, allowed: &[&str]) -> Option<String> {
    Some(format!("{field} {value:?} is not supported ({})", allowed.join(", ")))
}

fn unsupported_filter_value(at: &str, filter: &HttpRouteFilter) -> Option<String> {
    if !FILTER_TYPES.contains(&filter.kind.as_str()) {
        return unknown(format!("{at}.type"), &filter.kind, &FILTER_TYPES);
    }
    if let Some(redirect) = &filter.request_redirect {
        if let Some(scheme) = &redirect.scheme
            && !matches!(scheme.as_str(), "http" | "https")
        {
            return unknown(format!("{at}.requestRedirect.scheme"), scheme, &["http", "https"]);
        }
        if !REDIRECT_CODES.contains(&redirect.status_code) {
            return Some(format!(
                "{at}.requestRedirect.statusCode {} is not supported (301, 302, 303, 307, 308)",
                redirect.status_code
            ));
        }
    }
    let paths = [
        filter.request_redirect.as_ref().and_then(|r| r.path.as_ref()).map(|p| ("requestRedirect", p)),
        filter.url_rewrite.as_ref().and_then(|r| r.path.as_ref()).map(|p| ("urlRewrite", p)),
    ];
    for (field, path) in paths.into_iter().flatten() {
        if !PATH_MODIFIERS.contains(&path.kind.as_str()) {
            return unknown(format!("{at}.{field}.path.type"), &path.kind, &PATH_MODIFIERS);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn gateway(listeners: Value) -> Gateway {
        let objects = Objects::from_values(&[json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
            "metadata": {"name": "gw", "namespace": "infra"}, "spec": {"gatewayClassName": "c", "listeners": listeners}})]);
        objects.gateways[0].clone()
    }

    #[test]
    fn conflicts_by_port_protocol_and_hostname() {
        let gw = gateway(json!([
            {"name": "a", "port": 80, "protocol": "HTTP"},
            {"name": "b", "port": 80, "protocol": "HTTP"},
            {"name": "c", "port": 80, "protocol": "HTTP", "hostname": "x.example.com"},
            {"name": "d", "port": 443, "protocol": "HTTPS", "hostname": "X.example.com"},
            {"name": "e", "port": 443, "protocol": "HTTPS", "hostname": "x.example.com"},
            {"name": "f", "port": 8080, "protocol": "HTTP"},
            {"name": "g", "port": 8080, "protocol": "HTTPS"}
        ]));
        let reasons: Vec<Option<&str>> = (0..7).map(|l| conflict(&gw, l).map(|(r, _)| r)).collect();
        assert_eq!(
            reasons,
            [
                Some("HostnameConflict"),
                Some("HostnameConflict"),
                None,
                Some("HostnameConflict"),
                Some("HostnameConflict"),
                Some("ProtocolConflict"),
                Some("ProtocolConflict")
            ]
        );
        assert!(conflict(&gw, 0).unwrap().1.contains("listener b"));
    }

    fn condition(type_: &str, status: &str, time: &str) -> Condition {
        Condition {
            type_: type_.into(),
            status: status.into(),
            last_transition_time: Some(time.into()),
            ..Condition::default()
        }
    }

    #[test]
    fn merged_conditions_keep_other_types_and_unchanged_transition_times() {
        let old = [
            condition("x/Custom", "True", "t0"),
            condition("Accepted", "True", "t0"),
            condition("Programmed", "True", "t0"),
        ];
        let new = [condition("Accepted", "True", "t1"), condition("Programmed", "False", "t1")];
        let merged = merge_conditions(&old, &new);
        let view: Vec<(&str, &str, &str)> = merged
            .iter()
            .map(|c| (c.type_.as_str(), c.status.as_str(), c.last_transition_time.as_deref().unwrap()))
            .collect();
        assert_eq!(view, [("x/Custom", "True", "t0"), ("Accepted", "True", "t0"), ("Programmed", "False", "t1")]);
    }

    #[test]
    fn unsupported_values_are_found_in_backend_filters_too() {
        let objects =
            Objects::from_values(&[json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": "r"}, "spec": {"rules": [{"backendRefs": [{"name": "s", "port": 80,
                "filters": [{"type": "RequestRedirect", "requestRedirect": {"path": {"type": "Nope"}}}]}]}]}})]);
        let message = unsupported_value(&objects.routes[0]).unwrap();
        assert!(
            message.starts_with("rules[0].backendRefs[0].filters[0].requestRedirect.path.type \"Nope\""),
            "{message}"
        );
        let fine = Objects::from_values(&[json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": "r"}, "spec": {"rules": [{"matches": [{"method": "PATCH"}],
                "filters": [{"type": "ExternalAuth"}, {"type": "RequestRedirect", "requestRedirect": {"scheme": "https", "statusCode": 308}}]}]}})]);
        assert_eq!(unsupported_value(&fine.routes[0]), None);
    }

    #[test]
    fn request_paths() {
        let body = json!({});
        assert_eq!(
            status_request("GatewayClass", None, "eg", &body).path,
            "/apis/gateway.networking.k8s.io/v1/gatewayclasses/eg/status"
        );
        assert_eq!(
            status_request("Gateway", Some("infra"), "gw", &body).path,
            "/apis/gateway.networking.k8s.io/v1/namespaces/infra/gateways/gw/status"
        );
        assert_eq!(
            status_request("HTTPRoute", Some("shop"), "r", &body).path,
            "/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/r/status"
        );
        assert_eq!(status_request("Gateway", Some("a"), "b", &body).method, "PUT");
    }
}
