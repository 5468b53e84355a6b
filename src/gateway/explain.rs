//! Why a request went where it went: the listener chosen and why the others were not, every
//! route's attachment (or why not), and for every rule match of the attached routes, whether it
//! won, did not match (which condition), or lost on which [`PrecedenceKey`]. Evaluated linearly
//! over every rule, independently of the compiled table.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::GatewayRouter;
use super::attach::{self, NotAttached, key_of};
use super::decision::NoGateway;
use super::hostname;
use super::matching::{self, Mismatch};
use super::precedence::{Key, PrecedenceKey};
use super::request::GatewayRequest;

/// As JSON (camelCase): `{"decision": DecisionView, "gateway", "noGateway"?, "listeners": [{"name",
/// "port", "protocol", "hostname", "outcome"}], "routes": [{"route", "notAttached"?: {"reason",
/// ...}, "reason"? (in words), "hostnames"?, "matchedHostname"?, "candidates"?: [{"rule",
/// "ruleName"?, "match", "outcome": {"outcome": "won" | "hostnameDidNotMatch" | "mismatch" |
/// "lostOn", ...}, "reason" (in words)}]}]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// Not serialised: flattened into the crate's [`Explanation`](crate::Explanation), whose own
    /// `decision` is the one every home reads.
    #[serde(skip)]
    pub decision: crate::DecisionView,
    pub gateway: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_gateway: Option<NoGateway>,
    pub listeners: Vec<ListenerView>,
    /// Every HTTPRoute of the input, for the chosen listener (empty when none was chosen).
    pub routes: Vec<RouteView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenerView {
    pub name: String,
    pub port: u16,
    pub protocol: String,
    pub hostname: Option<String>,
    /// `chosen`, `other port`, `other protocol`, `no HTTPRoutes`, `hostname does not match`,
    /// `less specific hostname`.
    pub outcome: &'static str,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteView {
    /// `HTTPRoute` or `GRPCRoute`.
    pub kind: &'static str,
    /// `namespace/name`.
    pub route: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_attached: Option<NotAttached>,
    /// Why it is not attached, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Its intersected hostnames on the listener.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<String>,
    /// The most specific of them that matches the request's host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_hostname: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<CandidateView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateView {
    pub rule: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_name: Option<String>,
    #[serde(rename = "match")]
    pub match_index: usize,
    pub outcome: CandidateOutcome,
    /// The outcome in words (`does not match: wants path /api (PathPrefix)`, `matches, but the
    /// winner has a longer path`).
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum CandidateOutcome {
    Won,
    /// None of the route's intersected hostnames matches the host.
    HostnameDidNotMatch,
    /// A condition failed; `detail` names it (`path /api (PathPrefix)`, `header x-env`, ...).
    Mismatch {
        mismatch: Mismatch,
        detail: String,
    },
    /// Matched, and lost to the winner on this key.
    LostOn {
        key: PrecedenceKey,
    },
}

impl CandidateOutcome {
    /// In words.
    pub fn reason(&self) -> String {
        match self {
            CandidateOutcome::Won => "matches, and wins".to_owned(),
            CandidateOutcome::HostnameDidNotMatch => {
                "none of the route's hostnames on this listener matches the request's host".to_owned()
            }
            CandidateOutcome::Mismatch { detail, .. } => format!("does not match: wants {detail}"),
            CandidateOutcome::LostOn { key } => format!("matches, but the winner has {}", key.winner_has()),
        }
    }
}

impl GatewayRouter {
    /// Explains [`route`](Self::route)'s decision for `request`.
    pub fn explain(&self, request: &GatewayRequest<'_>) -> Explanation {
        let decision = self.route(request).view(request);
        let mut explanation =
            Explanation { decision, gateway: None, no_gateway: None, listeners: Vec::new(), routes: Vec::new() };
        let g = match &self.gateway {
            Ok(g) => *g,
            Err(e) => {
                explanation.no_gateway = Some(e.clone());
                return explanation;
            }
        };
        let gateway = &self.objects.gateways[g];
        explanation.gateway = Some(key_of(&gateway.metadata.namespace, &gateway.metadata.name));
        let host = hostname::request_host(request.host);
        let (port, https) = (request.effective_port(), request.https());
        let chosen = attach::select_listener(gateway, port, https, host).ok();
        explanation.listeners = gateway
            .spec
            .listeners
            .iter()
            .enumerate()
            .map(|(i, l)| ListenerView {
                name: l.name.clone(),
                port: l.port,
                protocol: l.protocol.clone(),
                hostname: l.hostname.clone(),
                outcome: if chosen == Some(i) {
                    "chosen"
                } else if l.port != port {
                    "other port"
                } else if l.protocol != if https { "HTTPS" } else { "HTTP" } {
                    "other protocol"
                } else if !attach::serves_routes(l) {
                    "no HTTPRoutes or GRPCRoutes"
                } else if !hostname::matches(l.hostname.as_deref().unwrap_or("*"), host) {
                    "hostname does not match"
                } else {
                    "less specific hostname"
                },
            })
            .collect();
        let Some(l) = chosen else { return explanation };
        let compiled = &self.listeners[l];
        let fuel = super::regex::Fuel::new(self.regex_limits.scan);
        let mut matched: Vec<(Key, usize, usize)> = Vec::new(); // (key, route view, candidate)
        for (r, route) in self.objects.routes.iter().enumerate() {
            let mut view = RouteView {
                kind: route.kind.as_str(),
                route: key_of(&route.metadata.namespace, &route.metadata.name),
                not_attached: None,
                reason: None,
                hostnames: Vec::new(),
                matched_hostname: None,
                candidates: Vec::new(),
            };
            match &compiled.attachment[r] {
                Err(reason) => {
                    view.reason = Some(reason.to_string());
                    view.not_attached = Some(reason.clone());
                }
                Ok(hostnames) => {
                    view.hostnames = hostnames.clone();
                    let best = hostnames
                        .iter()
                        .filter(|h| hostname::matches(h, host))
                        .max_by_key(|h| hostname::specificity(h));
                    view.matched_hostname = best.cloned();
                    for (i, rule) in route.spec.rules.iter().enumerate() {
                        for (mi, m) in rule.matches.iter().enumerate() {
                            let outcome = match best {
                                None => CandidateOutcome::HostnameDidNotMatch,
                                Some(h) => {
                                    match matching::check(m, &self.routes[r].rules[i].regexes[mi], request, &fuel) {
                                        Err(mismatch) => CandidateOutcome::Mismatch {
                                            mismatch,
                                            detail: detail(m, &self.routes[r].rules[i].regexes[mi], mismatch),
                                        },
                                        Ok(()) => {
                                            let key = Key::new(h, m, self.routes[r].rank, i, mi, self.regex_order);
                                            matched.push((key, explanation.routes.len(), view.candidates.len()));
                                            CandidateOutcome::Won
                                        }
                                    }
                                }
                            };
                            view.candidates.push(CandidateView {
                                rule: i,
                                rule_name: rule.name.clone(),
                                match_index: mi,
                                outcome,
                                reason: String::new(),
                            });
                        }
                    }
                }
            }
            explanation.routes.push(view);
        }
        if let Some(&(best, _, _)) = matched.iter().min_by_key(|(k, _, _)| *k) {
            for (key, r, c) in matched {
                if let Some(lost_on) = key.first_difference(&best) {
                    explanation.routes[r].candidates[c].outcome = CandidateOutcome::LostOn { key: lost_on };
                }
            }
        }
        for candidate in explanation.routes.iter_mut().flat_map(|r| r.candidates.iter_mut()) {
            candidate.reason = candidate.outcome.reason();
        }
        explanation
    }
}

fn detail(m: &super::model::HttpRouteMatch, regexes: &super::regex::MatchRegexes, mismatch: Mismatch) -> String {
    match mismatch {
        Mismatch::Path => match &m.grpc {
            Some(grpc) => grpc_method_text(grpc),
            None => format!("path {} ({:?})", m.path.value, m.path.kind),
        },
        Mismatch::Method => format!("method {}", m.method.as_deref().unwrap_or("")),
        Mismatch::Header { index } => format!("header {}: {}", m.headers[index].name, m.headers[index].value),
        Mismatch::Query { index } => format!("query {}={}", m.query_params[index].name, m.query_params[index].value),
        Mismatch::RegularExpression => {
            let refusals = regexes.refusals();
            // A GRPCRoute's path pattern is its method match's.
            let field = |f: &str| if m.grpc.is_some() && f == "path.value" { "method" } else { f }.to_owned();
            let words: Vec<String> = refusals.iter().map(|(f, why)| format!("{}: {why}", field(f))).collect();
            words.join("; ")
        }
        Mismatch::RegexBudget => "the request's regex budget (regexLimits.scan) ran out before this regular \
             expression was read: answered as no match"
            .to_owned(),
    }
}

/// A GRPCRoute method match in words: `method pkg.Svc/Get (Exact)`, `*` for the part not given.
pub(crate) fn grpc_method_text(grpc: &super::model::GrpcMethodMatch) -> String {
    let service = grpc.service.as_deref().unwrap_or("*");
    let method = grpc.method.as_deref().unwrap_or("*");
    format!("method {service}/{method} ({:?})", grpc.kind)
}

impl Explanation {
    /// The candidate that won, as `(namespace/name, rule, match)`.
    pub fn winner(&self) -> Option<(&str, usize, usize)> {
        self.routes.iter().find_map(|r| {
            r.candidates
                .iter()
                .find(|c| c.outcome == CandidateOutcome::Won)
                .map(|c| (r.route.as_str(), c.rule, c.match_index))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::gateway::{GatewayOptions, GatewayRequest, NoGateway, Objects, compile};
    use serde_json::json;

    #[test]
    fn listener_outcomes_and_no_gateway() {
        let gateway = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
            "metadata": {"name": "gw", "namespace": "apps"},
            "spec": {"gatewayClassName": "c", "listeners": [
                {"name": "wild", "port": 80, "protocol": "HTTP", "hostname": "*.example.com"},
                {"name": "any", "port": 80, "protocol": "HTTP"},
                {"name": "other-port", "port": 81, "protocol": "HTTP"},
                {"name": "tls", "port": 80, "protocol": "HTTPS"},
                {"name": "foo", "port": 80, "protocol": "HTTP", "hostname": "foo.org"}]}});
        let router = compile(&Objects::from_values(&[gateway]), &GatewayOptions::default());
        let explained = router.explain(&GatewayRequest::new("a.example.com", "/"));
        let outcomes: Vec<&str> = explained.listeners.iter().map(|l| l.outcome).collect();
        assert_eq!(
            outcomes,
            ["chosen", "less specific hostname", "other port", "other protocol", "hostname does not match"]
        );
        assert_eq!(explained.decision.status, 404);
        let empty = compile(&Objects::default(), &GatewayOptions::default());
        assert_eq!(empty.explain(&GatewayRequest::new("h", "/")).no_gateway, Some(NoGateway::NoGateways));
    }
}
