//! The Gateway API behind the crate's one entry point, as `nginx/glue.rs` is for the
//! ingress-nginx profile: a [`crate::Router`] compiled from Gateway API objects holds a
//! [`GatewayRouter`], and this module turns its answers into the crate's [`Decision`] (whose
//! Gateway API parts and view are `decision.rs`'s), [`Explanation`] and [`TableView`], so that
//! every home reads one set of types whatever the input.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::decision::{GatewayDecision, Outcome};
use super::{GatewayRequest, GatewayRouter};
use crate::decision::{BackendRef, Decision, Redirect, ServicePort, Target, Via};
use crate::explain::{Explanation, TableView};
use crate::request::Request;

/// Routes `request`: the Gateway's decision as the crate's. Allocates only a redirect's
/// `Location`.
pub(crate) fn route<'r>(router: &'r GatewayRouter, request: &Request<'_>) -> Decision<'r> {
    let Some(request) = GatewayRequest::of(request) else { return Decision::none() };
    decision_of(router.route(&request), &request)
}

/// The Gateway's `decision` for `request` as the crate's.
pub(crate) fn decision_of<'r>(decision: GatewayDecision<'r>, request: &GatewayRequest<'_>) -> Decision<'r> {
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
    if let (Outcome::Redirect(r), Some(location)) = (decision.outcome, decision.location(request)) {
        out.redirect = Some(Redirect { status: r.status_code, location: Cow::Owned(location) });
    }
    if let Some(b) = crate::decision::single_backend(&decision) {
        let port = b.port.map(ServicePort::Number);
        out.backend = Some(BackendRef::Service { namespace: &b.namespace, name: &b.name, port });
    }
    out.extra = crate::decision::Extra::Gateway(decision);
    out
}

impl GatewayDecision<'_> {
    /// The crate's [`DecisionView`](crate::DecisionView) of this decision for `request`: the one
    /// shape every home serialises (this allocates; [`route`](super::GatewayRouter::route) does
    /// not). Here, beside [`decision_of`], so that the Gateway API's decision needs nothing of the
    /// crate's.
    pub fn view(&self, request: &GatewayRequest<'_>) -> crate::DecisionView {
        decision_of(*self, request).view(&request.as_request())
    }
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

/// How `request` is routed through the Gateway, step by step.
pub(crate) fn explain(router: &GatewayRouter, request: &Request<'_>) -> Explanation {
    let host = String::from_utf8_lossy(request.host).into_owned();
    let path = String::from_utf8_lossy(request.path).into_owned();
    let matched_path = String::from_utf8_lossy(crate::path::request_path(request.path)).into_owned();
    let gateway = GatewayRequest::of(request).map(|r| router.explain(&r));
    // The Gateway API's explanation holds the decision already (routed once).
    let decision = match &gateway {
        Some(g) => g.decision.clone(),
        None => Decision::none().view(request),
    };
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
            fix: String::from("correct the fields `validate` names; the other objects serve"),
        })
        .chain(router.lint())
        .collect()
}
