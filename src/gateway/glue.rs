//! The Gateway API behind the crate's one entry point, as `nginx/glue.rs` is for the
//! ingress-nginx profile: a [`crate::Router`] compiled from Gateway API objects holds a
//! [`GatewayRouter`], and this module turns its answers into the crate's [`Decision`],
//! [`DecisionView`], [`Explanation`] and [`TableView`], so that every home reads one set of types
//! whatever the input.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;

use super::decision::{GatewayDecision, Outcome};
use super::{GatewayRequest, GatewayRouter, Upstream};
use crate::decision::{
    BackendRef, Decision, DecisionView, Redirect, RedirectView, ServicePort, Target, Via, WeightedView,
};
use crate::explain::{Explanation, TableView};
use crate::model::IngressBackend;
use crate::request::{Request, Scheme};

/// The Gateway API's own parts of a [`DecisionView`] (flattened into it): where the request
/// arrived and which rule decided, and what the backend receives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GatewayView {
    /// `namespace/name` of the Gateway.
    pub gateway: Option<String>,
    /// The listener that took the request.
    pub listener: Option<String>,
    /// `namespace/name` of the winning HTTPRoute.
    pub route: Option<String>,
    /// The winning rule's index in `spec.rules`, and its name.
    pub rule: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_name: Option<String>,
    /// The winning match's index in the rule's `matches`.
    #[serde(rename = "match")]
    pub match_index: Option<usize>,
    /// What the backend receives after the rule's filters (and the backend's own, when there is
    /// one backend); present when the request is forwarded.
    pub upstream: Option<Upstream>,
}

/// The request as the Gateway API reads it; `None` when its host or path is not UTF-8 (no
/// Gateway API hostname or path matches such bytes).
pub(crate) fn request<'a>(request: &Request<'a>) -> Option<GatewayRequest<'a>> {
    let host = core::str::from_utf8(request.host).ok()?;
    let path = core::str::from_utf8(request.path).ok()?;
    let scheme = match request.scheme {
        Scheme::Https => "https",
        _ => "http",
    };
    let method = if request.method.is_empty() { "GET" } else { request.method };
    let mut gateway = GatewayRequest::new(host, path).with_scheme(scheme).with_method(method);
    gateway.port = request.port;
    Some(gateway.with_headers(request.headers))
}

/// Routes `request`: the Gateway's decision as the crate's. Allocates only a redirect's
/// `Location`.
pub(crate) fn route<'r>(router: &'r GatewayRouter, request: &Request<'_>) -> Decision<'r> {
    let Some(request) = self::request(request) else { return Decision::none() };
    let decision = router.route(&request);
    let via = match decision.outcome {
        Outcome::Forward => Via::Rule,
        Outcome::Redirect(_) => Via::Redirect,
        Outcome::NotFound => Via::None,
        Outcome::NoListener(_) => Via::NoListener,
        Outcome::NoGateway(_) => Via::NoGateway,
        Outcome::FilterError => Via::FilterError,
        Outcome::NoValidBackend => Via::NoValidBackend,
    };
    let mut out = Decision::none();
    out.via = via;
    out.regex_exhausted = decision.regex_budget_exhausted;
    if let (Outcome::Redirect(r), Some(location)) = (decision.outcome, decision.location(&request)) {
        out.redirect = Some(Redirect { status: r.status_code, location: Cow::Owned(location) });
    }
    if let Some(b) = single_backend(&decision) {
        let port = b.port.map(ServicePort::Number);
        out.backend = Some(BackendRef::Service { namespace: &b.namespace, name: &b.name, port });
    }
    out.gateway = Some(decision);
    out
}

/// The backendRef `random` falls on (see [`Decision::target`]).
pub(crate) fn target<'r>(decision: &GatewayDecision<'r>, random: u64) -> Option<Target<'r>> {
    let backend = decision.pick(random)?;
    let index = decision.winner?.backends.iter().position(|b| core::ptr::eq(b, backend))?;
    let port = backend.port.map(ServicePort::Number);
    Some(Target {
        backend: BackendRef::Service { namespace: &backend.namespace, name: &backend.name, port },
        answer: None,
        invalid: backend.invalid.is_some(),
        index,
    })
}

/// Every valid backendRef of the routes attached to the Gateway's listeners, each once.
pub(crate) fn targets(router: &GatewayRouter) -> Vec<Target<'_>> {
    let mut seen = hashbrown::HashSet::new();
    let mut out: Vec<Target<'_>> = Vec::new();
    for backend in router.attached_backends().filter(|b| b.invalid.is_none()) {
        if seen.insert((backend.namespace.as_str(), backend.name.as_str(), backend.port)) {
            let port = backend.port.map(ServicePort::Number);
            let target = BackendRef::Service { namespace: &backend.namespace, name: &backend.name, port };
            out.push(Target { backend: target, answer: None, invalid: false, index: 0 });
        }
    }
    out
}

/// What the proxy changes on the request it forwards to `target` (see [`Decision::modifications`]).
pub(crate) fn modifications<'r>(
    decision: &GatewayDecision<'r>,
    request: &Request<'_>,
    target: &Target<'r>,
) -> super::Modifications<'r> {
    let Some(gateway) = self::request(request) else { return super::Modifications::default() };
    let backend = decision.winner.and_then(|w| w.backends.get(target.index));
    decision.modifications(&gateway, backend)
}

/// The one backend every forwarded request goes to: the only backendRef with a weight, when valid.
fn single_backend<'r>(decision: &GatewayDecision<'r>) -> Option<&'r super::Backend> {
    let (Outcome::Forward, Some(w)) = (decision.outcome, decision.winner) else { return None };
    let mut weighted = w.backends.iter().filter(|b| b.weight > 0);
    match (weighted.next(), weighted.next()) {
        (Some(only), None) if only.invalid.is_none() => Some(only),
        _ => None,
    }
}

/// A backend in a label: `namespace/name:port` (the namespace, since a route may name another's).
fn backend_label(b: &super::Backend) -> String {
    match b.port {
        Some(port) => alloc::format!("{}/{}:{port}", b.namespace, b.name),
        None => alloc::format!("{}/{}", b.namespace, b.name),
    }
}

/// The label of a Gateway API decision: `namespace/name:port` for one backend, `split(a:80 90,
/// b:80 10)` (each `namespace/name:port weight`) for several backendRefs, `redirect <status>
/// <location>`, else the status (`404`, `500`).
pub(crate) fn label(decision: &Decision<'_>, gateway: &GatewayDecision<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if let Some(b) = single_backend(gateway) {
        return f.write_str(&backend_label(b));
    }
    if let Some(r) = &decision.redirect {
        return write!(f, "redirect {} {}", r.status, r.location);
    }
    if let (Outcome::Forward, Some(w)) = (gateway.outcome, gateway.winner) {
        if w.backends.len() > 1 {
            f.write_str("split(")?;
            for (i, b) in w.backends.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}{} {}", backend_label(b), b.weight)?;
            }
            return f.write_str(")");
        }
    }
    write!(f, "{}", decision.status())
}

/// A backend as an Ingress writes one (`{service: {name, port: {number}}}`).
fn written(b: &super::Backend) -> IngressBackend {
    let port = b.port.map(ServicePort::Number);
    IngressBackend::from(BackendRef::Service { namespace: &b.namespace, name: &b.name, port })
}

/// Why a Gateway API decision answers 404 or 500, in words.
fn reason(outcome: Outcome<'_>) -> Option<String> {
    Some(match outcome {
        Outcome::NoGateway(why) => why.to_string(),
        Outcome::NoListener(super::NoListener::NoListenerOnPort { port }) => {
            alloc::format!("no listener of the Gateway takes port {port} with this protocol")
        }
        Outcome::NoListener(super::NoListener::NoListenerForHost) => {
            "no listener on this port has a hostname that matches the host".to_string()
        }
        Outcome::NotFound => "no rule of the routes attached to the listener matches".to_string(),
        Outcome::FilterError => "the rule has a filter this proxy cannot apply".to_string(),
        Outcome::NoValidBackend => "the rule has no valid backendRef with a weight".to_string(),
        Outcome::Redirect(_) | Outcome::Forward => return None,
    })
}

/// The view of a Gateway API decision: the crate's fields, and [`GatewayView`]'s.
pub(crate) fn view(decision: &Decision<'_>, gateway: &GatewayDecision<'_>, request: &Request<'_>) -> DecisionView {
    let request = self::request(request).unwrap_or_else(|| GatewayRequest::new("", "/"));
    let inner = gateway.view(&request);
    let winner = gateway.winner;
    let split = match (gateway.outcome, winner) {
        (Outcome::Forward, Some(w)) if w.backends.len() > 1 => Some(
            w.backends
                .iter()
                .map(|b| WeightedView {
                    label: backend_label(b),
                    backend: written(b),
                    weight: b.weight,
                    invalid: b.invalid.as_ref().map(invalid_reason),
                })
                .collect(),
        ),
        _ => None,
    };
    DecisionView {
        label: decision.to_string(),
        backend: single_backend(gateway).map(written),
        via: decision.via,
        matched: None,
        default_from: None,
        reason: reason(gateway.outcome),
        status: decision.status(),
        redirect: decision
            .redirect
            .as_ref()
            .map(|r| RedirectView { status: r.status, location: r.location.to_string() }),
        split,
        upstream_path: None,
        regex_budget_exhausted: decision.regex_exhausted,
        gateway: Some(GatewayView {
            gateway: inner.gateway,
            listener: inner.listener,
            route: inner.route,
            rule: inner.rule,
            rule_name: inner.rule_name,
            match_index: inner.match_index,
            upstream: inner.upstream,
        }),
    }
}

/// An invalid backendRef's reason, as its route's `ResolvedRefs` condition names it.
fn invalid_reason(invalid: &super::Invalid) -> String {
    match invalid {
        super::Invalid::InvalidKind { group, kind } => {
            alloc::format!("InvalidKind: {kind} of group {group:?} is not a core Service")
        }
        super::Invalid::RefNotPermitted => {
            "RefNotPermitted: another namespace, and no ReferenceGrant there allows it".to_string()
        }
        super::Invalid::BackendNotFound => "BackendNotFound: no such Service".to_string(),
        super::Invalid::PortNotFound => "BackendNotFound: no port, or a port the Service does not declare".to_string(),
    }
}

/// How `request` is routed through the Gateway, step by step.
pub(crate) fn explain(router: &GatewayRouter, request: &Request<'_>) -> Explanation {
    let host = String::from_utf8_lossy(request.host).into_owned();
    let path = String::from_utf8_lossy(request.path).into_owned();
    let matched_path = String::from_utf8_lossy(crate::path::request_path(request.path)).into_owned();
    let decision = route(router, request).view(request);
    let gateway = self::request(request).map(|r| router.explain(&r));
    Explanation {
        host,
        normalized_host: None,
        path,
        normalized_path: None,
        matched_path,
        host_steps: Vec::new(),
        tier: None,
        tier_host: None,
        tier_reason: String::new(),
        candidates: Vec::new(),
        decided_by: None,
        default_reason: None,
        steps: Vec::new(),
        decision,
        gateway,
    }
}

/// The compiled Gateway as data: its listeners, the routes attached to each, their rules.
pub(crate) fn table(router: &GatewayRouter) -> TableView {
    TableView {
        hosts: Vec::new(),
        default_backend: None,
        ingresses: Vec::new(),
        excluded: Vec::new(),
        gateway: Some(router.table()),
    }
}

/// The diagnostics about the Gateway API objects compiled: each object left out because it
/// cannot be read, then the Gateway API's own (routes not attached, backends not permitted or not
/// found, listener conflicts, shadowed rules, ...).
#[cfg(feature = "lint")]
pub(crate) fn lint(router: &GatewayRouter) -> Vec<crate::diagnostics::Diagnostic> {
    use crate::diagnostics::{Code, Diagnostic, ObjectRef, Severity};
    let kind = |kind: &str| -> &'static str {
        match kind {
            "Gateway" => "Gateway",
            "GatewayClass" => "GatewayClass",
            "HTTPRoute" => "HTTPRoute",
            "ReferenceGrant" => "ReferenceGrant",
            "Service" => "Service",
            "Namespace" => "Namespace",
            _ => "object",
        }
    };
    router
        .objects()
        .skipped
        .iter()
        .map(|s| Diagnostic {
            code: Code::InvalidGatewayObject,
            severity: Severity::Warning,
            message: alloc::format!("{} {:?} left out: {}", s.kind, s.name, s.error),
            objects: alloc::vec![ObjectRef { kind: kind(&s.kind), namespace: None, name: s.name.clone(), field: None }],
            fix: "correct the fields `validate` names; the other objects serve".to_string(),
        })
        .chain(router.lint())
        .collect()
}
