//! What a Gateway does with a request: the answer the proxy gives (404, 500, a redirect) or what
//! the backend receives, and which listener, route, rule and match decided it.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::attach::NoListener;
use super::backends::{self, Backend, Invalid};
use super::filters::{self, Modifications, RuleAction};
use super::model::{Gateway, HttpRoute, HttpRouteMatch, HttpRouteRule, Listener, RequestRedirect};
use super::request::GatewayRequest;

/// Why no Gateway takes requests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "camelCase")]
pub enum NoGateway {
    /// The input has no Gateway.
    NoGateways,
    /// Several Gateways and no [`GatewayOptions::gateway`](super::GatewayOptions::gateway).
    Ambiguous { gateways: Vec<String> },
    /// [`GatewayOptions::gateway`](super::GatewayOptions::gateway) names no Gateway of the input.
    NotFound { gateway: String },
}

impl core::fmt::Display for NoGateway {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NoGateway::NoGateways => f.write_str("no Gateway in the input"),
            NoGateway::Ambiguous { gateways } => {
                write!(
                    f,
                    "the input has several Gateways ({}): choose one with the gateway option",
                    gateways.join(", ")
                )
            }
            NoGateway::NotFound { gateway } => write!(f, "gateway {gateway:?}: no such Gateway in the input"),
        }
    }
}

/// How the request was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome<'r> {
    /// 404: no Gateway to route through.
    NoGateway(&'r NoGateway),
    /// 404: no listener takes the request ("If no other Listener matches the Host, the Gateway
    /// MUST return a 404", `Listener.Hostname`).
    NoListener(NoListener),
    /// 404: no attached rule matches.
    NotFound,
    /// The proxy answers a redirect.
    Redirect(&'r RequestRedirect),
    /// 500: a filter the proxy cannot apply.
    FilterError,
    /// 500: no valid backend with a weight (none at all included).
    NoValidBackend,
    /// Forwarded to the rule's backends.
    Forward,
}

/// The rule that won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Winner<'r> {
    pub route: &'r HttpRoute,
    pub rule_index: usize,
    pub rule: &'r HttpRouteRule,
    pub match_index: usize,
    pub matched: &'r HttpRouteMatch,
    pub backends: &'r [Backend],
}

/// A routing decision; borrowed from the router, built without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatewayDecision<'r> {
    pub gateway: Option<&'r Gateway>,
    pub listener: Option<&'r Listener>,
    pub winner: Option<Winner<'r>>,
    pub outcome: Outcome<'r>,
    /// Some `RegularExpression` match was answered "no match" because the request's regex budget
    /// ([`RegexLimits::scan`](crate::RegexLimits)) ran out: a proxy logs it.
    pub regex_budget_exhausted: bool,
}

impl<'r> GatewayDecision<'r> {
    pub(crate) fn decide(
        gateway: &'r Gateway,
        listener: &'r Listener,
        winner: Winner<'r>,
        action: &RuleAction,
    ) -> Self {
        let outcome = match *action {
            RuleAction::Redirect { filter, backend } => {
                let filters = match backend {
                    Some(b) => &winner.rule.backend_refs[b].filters,
                    None => &winner.rule.filters,
                };
                filters[filter].request_redirect.as_ref().map_or(Outcome::FilterError, Outcome::Redirect)
            }
            RuleAction::FilterError { .. } => Outcome::FilterError,
            RuleAction::Forward if winner.backends.iter().any(|b| b.invalid.is_none() && b.weight > 0) => {
                Outcome::Forward
            }
            RuleAction::Forward => Outcome::NoValidBackend,
        };
        GatewayDecision {
            gateway: Some(gateway),
            listener: Some(listener),
            winner: Some(winner),
            outcome,
            regex_budget_exhausted: false,
        }
    }

    /// The HTTP status the proxy answers: the redirect's, 404, 500, or 200 when the request is
    /// forwarded (the backend's own answer aside). In a split with invalid backends, 200 stands for
    /// the valid share; [`pick`](Self::pick) says which backend one request gets. The module's
    /// tests read it; homes read the crate's `Decision::status`, which answers the same.
    #[cfg(test)]
    pub(crate) fn status(&self) -> u16 {
        match self.outcome {
            Outcome::NoGateway(_) | Outcome::NoListener(_) | Outcome::NotFound => 404,
            Outcome::Redirect(r) => r.status_code,
            Outcome::FilterError | Outcome::NoValidBackend => 500,
            Outcome::Forward => 200,
        }
    }

    /// The backend one request goes to, `random` uniform in `[0, 2^64)` (weight / total each;
    /// an invalid backend answers 500 for its share). `None` unless forwarded.
    pub fn pick(&self, random: u64) -> Option<&'r Backend> {
        match (self.outcome, self.winner) {
            (Outcome::Forward, Some(w)) => backends::pick(w.backends, random),
            _ => None,
        }
    }

    /// The redirect's `Location` (an absolute URL, as [`crate::DecisionView::redirect`] has it); `None`
    /// unless the proxy answers a redirect.
    pub fn location(&self, request: &GatewayRequest<'_>) -> Option<String> {
        match (self.outcome, self.winner) {
            (Outcome::Redirect(r), Some(w)) => {
                let port = self.listener.map_or(request.effective_port(), |l| l.port);
                Some(filters::redirect_location(r, request, port, w.matched))
            }
            _ => None,
        }
    }

    /// What the proxy changes on the request it forwards to `backend` (one [`pick`](Self::pick)
    /// chose): the rule's URLRewrite and RequestHeaderModifier filters, then the backend's own;
    /// the same changes [`view`](Self::view)'s `upstream` shows. Empty unless forwarded. Allocates
    /// only for a rewritten path and a rule with header modifiers.
    pub fn modifications(&self, request: &GatewayRequest<'_>, backend: Option<&Backend>) -> Modifications<'r> {
        let (Outcome::Forward, Some(w)) = (self.outcome, self.winner) else { return Modifications::default() };
        let own = backend.and_then(|b| w.rule.backend_refs.get(b.index)).map(|b| b.filters.as_slice()).unwrap_or(&[]);
        Modifications::of(w.rule.filters.iter().chain(own), request, w.matched)
    }
}

/// A rule's backendRef as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SplitView {
    pub namespace: String,
    pub name: String,
    pub port: Option<u16>,
    pub weight: u32,
    /// 200 for a valid backend, 500 for an invalid one's share.
    pub status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid: Option<Invalid>,
}

impl SplitView {
    pub(crate) fn of(b: &Backend) -> Self {
        SplitView {
            namespace: b.namespace.clone(),
            name: b.name.clone(),
            port: b.port,
            weight: b.weight,
            status: if b.invalid.is_some() { 500 } else { 200 },
            invalid: b.invalid.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::gateway::{GatewayOptions, GatewayRequest, Objects, compile};
    use serde_json::json;

    #[test]
    fn statuses_and_picks() {
        let o = Objects::from_values(&[
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "apps"},
                   "spec": {"gatewayClassName": "c", "listeners": [{"name": "l", "port": 80, "protocol": "HTTP"}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r", "namespace": "apps"},
                   "spec": {"parentRefs": [{"name": "gw"}], "rules": [
                       {"matches": [{"path": {"value": "/split"}}],
                        "backendRefs": [{"name": "a", "port": 80, "weight": 1}, {"kind": "Bucket", "name": "b", "weight": 1}]},
                       {"matches": [{"path": {"value": "/moved"}}],
                        "filters": [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}]}]}}),
        ]);
        let router = compile(&o, &GatewayOptions::default());
        let split = router.route(&GatewayRequest::new("h", "/split"));
        assert_eq!(split.status(), 200);
        assert_eq!(split.pick(0).unwrap().name, "a");
        assert!(split.pick(u64::MAX).unwrap().invalid.is_some(), "the invalid half is picked for its share");
        let moved = router.route(&GatewayRequest::new("h", "/moved"));
        assert_eq!((moved.status(), moved.pick(0)), (301, None));
        let none = router.route(&GatewayRequest::new("h", "/none"));
        assert_eq!(none.status(), 404);
        let view = none.view(&GatewayRequest::new("h", "/none"));
        assert_eq!((view.label.as_str(), view.via), ("404", crate::Via::None));
        assert_eq!(moved.location(&GatewayRequest::new("h", "/moved?x")).as_deref(), Some("http://h/moved?x"));
        assert_eq!(split.location(&GatewayRequest::new("h", "/split")), None);
        assert!(router.header_names().is_empty());
    }

    /// The changes listed for a proxy are the ones the view's `upstream` shows: rule-level
    /// filters, then the picked backend's own.
    #[test]
    fn modifications_are_the_views_upstream() {
        let o = Objects::from_values(&[
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "apps"},
                   "spec": {"gatewayClassName": "c", "listeners": [{"name": "l", "port": 80, "protocol": "HTTP"}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r", "namespace": "apps"},
                   "spec": {"parentRefs": [{"name": "gw"}], "rules": [
                       {"matches": [{"path": {"value": "/old"}, "headers": [{"name": "X-Env", "value": "a"}]}],
                        "filters": [
                            {"type": "URLRewrite", "urlRewrite": {"hostname": "new.h", "path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/new"}}},
                            {"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "x-env", "value": "b"}], "remove": ["drop"]}}],
                        "backendRefs": [{"name": "a", "port": 80, "filters": [
                            {"type": "RequestHeaderModifier", "requestHeaderModifier": {"add": [{"name": "x-backend", "value": "a"}]}}]}]}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "other", "namespace": "apps"},
                   "spec": {"parentRefs": [{"name": "elsewhere"}], "rules": [{"matches": [{"headers": [{"name": "x-unattached", "value": "1"}]}]}]}}),
        ]);
        let router = compile(&o, &GatewayOptions::default());
        assert_eq!(router.header_names(), ["x-env"], "names of attached routes only, lower-case");
        let headers = [("X-Env", "a"), ("drop", "1")];
        let request = GatewayRequest::new("h", "/old/x?q=1").with_headers(&headers);
        let decision = router.route(&request);
        let m = decision.modifications(&request, decision.pick(0));
        assert_eq!((m.host, m.path.as_deref(), m.headers.len()), (Some("new.h"), Some("/new/x?q=1"), 3));
        let mut upstream = super::filters::Upstream::of(&request);
        m.apply_to(&mut upstream);
        assert_eq!(Some(upstream), decision.view(&request).gateway.unwrap().upstream);
        let none = router.route(&GatewayRequest::new("h", "/none"));
        assert!(none.modifications(&request, None).is_empty());
    }
}
