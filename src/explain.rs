//! Decisions, traces and the compiled table as plain data, for people and views.
//!
//! [`Router::route`](crate::Router::route) answers fast; [`Router::explain`](crate::Router::explain) answers why: which host tier was chosen,
//! every path with matched / not matched and the reason in words, and which precedence key decided.

pub use crate::class::Participation;
pub use crate::diagnostics::ObjectRef;
pub use crate::table::{ExcludedIngress, IngressInfo};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

use crate::decision::{self, DecisionView};
use crate::host::{self, MAX_HOST_LEN, Tier};
use crate::path::{self, MatchKind, PathType};
use crate::request::Request;
use crate::table::{Found, HostTable, Route, Standing, Table, Via, display_path};

/// One step of the host lookup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HostStep {
    pub tier: Tier,
    /// What was looked for (`shop.example.com`, `*.example.com`, or `(host-less rules)`).
    pub looked_for: String,
    pub found: bool,
}

/// One path of the table, judged against the request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Candidate {
    pub ingress: String,
    pub host: String,
    pub path: String,
    pub path_type: PathType,
    pub match_kind: MatchKind,
    pub backend: String,
    pub field: String,
    /// In the chosen host tier (only those compete).
    pub considered: bool,
    pub matched: bool,
    pub chosen: bool,
    /// Position among the matching paths, by precedence (0 = the winner).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    pub reason: String,
}

/// The whole decision as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Explanation {
    /// The request host as received.
    pub host: String,
    /// After dropping the port, one trailing dot and case (`None` when too long to match a rule host).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized_host: Option<String>,
    /// The request path as received.
    pub path: String,
    /// The path after the proxy's normalisation, when it changed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized_path: Option<String>,
    /// The part that is matched (before `?` and `#`).
    pub matched_path: String,
    pub host_steps: Vec<HostStep>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<Tier>,
    /// The chosen host table's host (`""` for host-less rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier_host: Option<String>,
    pub tier_reason: String,
    /// Every path of the table: those of the chosen tier first, in precedence order.
    pub candidates: Vec<Candidate>,
    /// Which precedence key chose the winner over the runner-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// Why the default backend (or 404) answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_reason: Option<String>,
    /// A profile's own steps, in words (the ingress-nginx profile: the server, the location, the
    /// rule that decided, the rewrite); empty for the spec profile, whose steps are the fields above.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
    pub decision: DecisionView,
    /// The Gateway API's steps (flattened): the Gateway, each listener and whether it took the
    /// request, each route's attachment, and why each other rule match lost.
    #[cfg(feature = "gateway")]
    #[serde(flatten)]
    pub gateway: Option<crate::gateway::explain::Explanation>,
}

impl Table {
    /// Explains how `request` is routed. Allocates freely: this is for people, not the hot path.
    pub fn explain(&self, request: &Request<'_>) -> Explanation {
        let decision = self.route(request);
        let mut buf = [0u8; MAX_HOST_LEN];
        let normalized =
            host::normalize_request_host(request.host, &mut buf).map(|h| String::from_utf8_lossy(h).into_owned());
        let request_path = path::request_path(request.path);
        let chosen = decision.host_table;

        let host_steps = self.host_steps(normalized.as_deref());
        let tier_reason = tier_reason(normalized.as_deref(), chosen);

        // Candidates of the chosen tier in precedence order, then the rest of the table.
        let mut order: Vec<usize> = chosen.map(|t| t.routes.clone()).unwrap_or_default();
        for table in &self.hosts {
            if !chosen.is_some_and(|c| core::ptr::eq(c, table)) {
                order.extend(&table.routes);
            }
        }
        let mut rank = 0;
        let mut matching: Vec<&Route> = Vec::new();
        // The chosen table's routes come first in `order`, and a route belongs to one table only.
        let considered_count = chosen.map_or(0, |t| t.routes.len());
        let candidates = order
            .iter()
            .enumerate()
            .map(|(position, &r)| {
                let route = &self.routes[r];
                let considered = position < considered_count;
                let (path_matched, path_reason) =
                    path::explain_match(route.path_type, route.match_kind, &route.path, request_path);
                let matched = considered && path_matched;
                let chosen_now = decision.route.is_some_and(|w| core::ptr::eq(w, route));
                let reason = if considered {
                    self.considered_reason(route, path_matched, path_reason, chosen_now)
                } else {
                    not_considered_reason(route, normalized.as_deref(), chosen)
                };
                let this_rank = matched.then(|| {
                    rank += 1;
                    rank - 1
                });
                if matched {
                    matching.push(route);
                }
                Candidate {
                    ingress: self.ingresses[route.ingress].key(),
                    host: route.host.clone(),
                    path: route.path.clone(),
                    path_type: route.path_type,
                    match_kind: route.match_kind,
                    backend: route.backend.to_string(),
                    field: route.field(),
                    considered,
                    matched,
                    chosen: chosen_now,
                    rank: this_rank,
                    reason,
                }
            })
            .collect();

        let decided_by = match matching.as_slice() {
            [] => None,
            [_] => Some(String::from("the only matching path")),
            [first, second, ..] => Some(self.deciding_key(first, second)),
        };
        let default_reason = (decision.via != Via::Rule).then(|| self.default_reason(&decision, chosen));
        Explanation {
            host: String::from_utf8_lossy(request.host).into_owned(),
            normalized_host: normalized,
            path: String::from_utf8_lossy(request.path).into_owned(),
            normalized_path: None,
            matched_path: String::from_utf8_lossy(request_path).into_owned(),
            host_steps,
            tier: chosen.map(|t| t.tier),
            tier_host: chosen.map(|t| t.host.clone()),
            tier_reason,
            candidates,
            decided_by,
            default_reason,
            steps: Vec::new(),
            decision: decision.decision().view(request),
            #[cfg(feature = "gateway")]
            gateway: None,
        }
    }

    fn host_steps(&self, host: Option<&str>) -> Vec<HostStep> {
        let mut steps = Vec::new();
        let has = |tier: Tier, name: &str| self.hosts.iter().any(|t| t.tier == tier && t.host == name);
        if let Some(h) = host {
            steps.push(HostStep { tier: Tier::Exact, looked_for: h.to_string(), found: has(Tier::Exact, h) });
            if let Some(suffix) = host::wildcard_suffix(h.as_bytes()) {
                let wildcard = format!("*.{}", String::from_utf8_lossy(suffix));
                let found = has(Tier::Wildcard, &wildcard);
                steps.push(HostStep { tier: Tier::Wildcard, looked_for: wildcard, found });
            }
        }
        steps.push(HostStep {
            tier: Tier::Any,
            looked_for: String::from("(host-less rules)"),
            found: has(Tier::Any, ""),
        });
        if let Some(i) = steps.iter().position(|s| s.found) {
            steps.truncate(i + 1);
        }
        steps
    }

    fn considered_reason(&self, route: &Route, matched: bool, path_reason: String, chosen: bool) -> String {
        if !matched {
            return path_reason;
        }
        if chosen {
            return format!("{path_reason}; chosen");
        }
        match route.standing {
            Standing::Shadowed { by } => format!(
                "{path_reason}, but the same host, path and pathType is declared by {} ({}), which wins (shadowed)",
                self.ingresses[self.routes[by].ingress].key(),
                self.routes[by].field()
            ),
            _ => format!("{path_reason}, but loses on precedence"),
        }
    }

    /// The first precedence key on which `winner` beats `runner_up`, in words.
    fn deciding_key(&self, winner: &Route, runner_up: &Route) -> String {
        let (wl, rl) = (winner.effective_len(), runner_up.effective_len());
        let (w, r) = (display_path(&winner.path), display_path(&runner_up.path));
        if wl != rl {
            return format!(
                "1. longest match: {} {w} matches {wl} characters, {} {r} only {rl}",
                winner.path_type, runner_up.path_type
            );
        }
        if winner.path_type != runner_up.path_type {
            return format!("2. same length: {} beats {}", winner.path_type, runner_up.path_type);
        }
        if winner.path.len() != runner_up.path.len() {
            return format!("3. same match, longer path as written: {w} beats {r}");
        }
        if winner.ingress != runner_up.ingress {
            let (wi, ri) = (&self.ingresses[winner.ingress], &self.ingresses[runner_up.ingress]);
            return match (&wi.creation_timestamp, &ri.creation_timestamp) {
                (Some(a), Some(b)) if a != b => {
                    format!("4. older Ingress: {} (created {a}) beats {} (created {b})", wi.key(), ri.key())
                }
                (Some(a), None) => {
                    format!("4. older Ingress: {} (created {a}) beats {} (not created yet)", wi.key(), ri.key())
                }
                _ => format!("4. same age: Ingress {} comes before {} by namespace/name", wi.key(), ri.key()),
            };
        }
        format!("5. same Ingress: {} comes before {}", winner.field(), runner_up.field())
    }

    fn default_reason(&self, decision: &Found<'_>, chosen: Option<&HostTable>) -> String {
        let first = match chosen {
            Some(t) if t.routes.is_empty() => format!("the rules for {} have no paths", host_label(t)),
            Some(t) => format!("no path for {} matched", host_label(t)),
            None => String::from("no host tier matched"),
        };
        let Some(default) = decision.backend.and_then(|b| self.defaults.iter().find(|d| core::ptr::eq(&d.backend, b)))
        else {
            return format!("{first}, and no Ingress declares a defaultBackend: 404");
        };
        let whose = match default.ingress {
            None => String::from("the configured default backend"),
            Some(i) if chosen.is_some_and(|t| t.ingresses.contains(&i)) => format!(
                "the defaultBackend of Ingress {}, the oldest Ingress with a rule for this host that declares one",
                self.ingresses[i].key()
            ),
            Some(i) => format!(
                "the defaultBackend of Ingress {}, the oldest Ingress that declares one",
                self.ingresses[i].key()
            ),
        };
        format!("{first}: answered by {whose}")
    }

    /// The compiled table as data.
    pub fn table(&self) -> TableView {
        let path_ref = |r: usize| {
            let route = &self.routes[r];
            PathRef {
                ingress: self.ingresses[route.ingress].key(),
                path: route.path.clone(),
                path_type: route.path_type,
                field: route.field(),
            }
        };
        let path_view = |&r: &usize| {
            let route = &self.routes[r];
            PathView {
                ingress: self.ingresses[route.ingress].key(),
                path: route.path.clone(),
                path_type: route.path_type,
                match_kind: route.match_kind,
                backend: route.backend.to_string(),
                field: route.field(),
                standing: match route.standing {
                    Standing::Active => StandingView::Active,
                    Standing::Shadowed { by } => StandingView::Shadowed { by: path_ref(by) },
                    Standing::Unreachable { by } => StandingView::Unreachable { by: path_ref(by) },
                },
                answer: Some(r),
            }
        };
        let default_view = |d: Option<usize>| d.map(|d| self.default_view(d));
        TableView {
            hosts: self
                .hosts
                .iter()
                .map(|t| HostView {
                    host: t.host.clone(),
                    tier: t.tier,
                    paths: t.routes.iter().map(path_view).collect(),
                    default_backend: default_view(t.default),
                })
                .collect(),
            ..self.summary()
        }
    }

    /// [`table`](Self::table) without its hosts, whose paths are most of its size.
    pub fn summary(&self) -> TableView {
        TableView {
            hosts: Vec::new(),
            default_backend: self.default.map(|d| self.default_view(d)),
            ingresses: self.ingresses.clone(),
            excluded: self.excluded.clone(),
            #[cfg(feature = "gateway")]
            gateway: None,
        }
    }

    fn default_view(&self, index: usize) -> DefaultView {
        let d = &self.defaults[index];
        DefaultView {
            backend: d.backend.to_string(),
            ingress: d.ingress.map(|i| self.ingresses[i].key()),
            answer: Some(self.routes.len() + index),
        }
    }
}

fn host_label(t: &HostTable) -> String {
    if t.host.is_empty() { String::from("host-less rules") } else { format!("host {}", t.host) }
}

fn tier_reason(host: Option<&str>, chosen: Option<&HostTable>) -> String {
    let shown = host.map_or_else(
        || String::from("(too long to be a DNS name)"),
        |h| if h.is_empty() { String::from("(empty)") } else { h.to_string() },
    );
    match chosen.map(|t| t.tier) {
        Some(Tier::Exact) => format!("rules with host {shown} exist: only they compete"),
        Some(Tier::Wildcard) => format!(
            "no rule has host {shown}; wildcard {} covers it (one label): only its rules compete",
            chosen.map_or("", |t| t.host.as_str())
        ),
        Some(Tier::Any) => format!("no rule has host {shown} and no wildcard covers it: the host-less rules compete"),
        None => format!("no rule has host {shown}, no wildcard covers it, and there are no host-less rules"),
    }
}

fn not_considered_reason(route: &Route, host: Option<&str>, chosen: Option<&HostTable>) -> String {
    let rule_host = crate::host::RuleHost::parse(&route.host);
    let request = host.unwrap_or("");
    let covers = host.is_some_and(|h| crate::host::host_matches(rule_host, h.as_bytes()));
    let shown = if route.host.is_empty() { String::from("host-less rule") } else { format!("host {}", route.host) };
    if !covers {
        return match rule_host {
            crate::host::RuleHost::Wildcard(suffix) => {
                format!("{shown} does not cover {request}: {}", wildcard_miss(suffix, request))
            }
            _ => format!("{shown} does not match {request}"),
        };
    }
    let winner = chosen.map_or_else(String::new, host_label);
    format!(
        "{shown} also matches, but the rules of {winner} take precedence and there is no fall-through between host tiers"
    )
}

/// Why wildcard `*.<suffix>` does not cover `request`: the request is the suffix itself, has more
/// than one label before it, or ends otherwise.
fn wildcard_miss(suffix: &str, request: &str) -> String {
    if request == suffix {
        return format!(
            "a wildcard matches exactly one label before {suffix}, and the request host is {suffix} itself"
        );
    }
    match request.strip_suffix(suffix).and_then(|head| head.strip_suffix('.')) {
        Some(head) if head.contains('.') => format!(
            "a wildcard matches exactly one label before {suffix}, and {request} has {} ({head})",
            head.split('.').count()
        ),
        Some(_) => format!("{request} has an empty label before {suffix}"),
        None => format!("{request} does not end in .{suffix}"),
    }
}

/// The compiled table as data.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TableView {
    pub hosts: Vec<HostView>,
    /// Used when no host tier matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_backend: Option<DefaultView>,
    pub ingresses: Vec<IngressInfo>,
    pub excluded: Vec<ExcludedIngress>,
    /// The Gateway API's table (flattened): the Gateway, its listeners, the routes attached to
    /// each and their rules.
    #[cfg(feature = "gateway")]
    #[serde(flatten)]
    pub gateway: Option<crate::gateway::listing::GatewayTableView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HostView {
    pub host: String,
    pub tier: Tier,
    /// In precedence order.
    pub paths: Vec<PathView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_backend: Option<DefaultView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PathView {
    pub ingress: String,
    pub path: String,
    pub path_type: PathType,
    pub match_kind: MatchKind,
    pub backend: String,
    pub field: String,
    pub standing: StandingView,
    /// Its [`Decision::answer`](crate::Decision::answer) number ([`Router::answer`](crate::Router::answer)).
    /// With the ingress-nginx profile: the answer of the location's own backend.
    #[serde(skip)]
    pub answer: Option<usize>,
}

/// Whether a path can be chosen, and if not, which path always wins over it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum StandingView {
    /// Some request chooses it.
    Active,
    /// The same host, path and pathType is declared again, and `by` wins (a conflict).
    Shadowed { by: PathRef },
    /// `by` has the same match key and always beats it.
    Unreachable { by: PathRef },
}

/// A path of the table, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PathRef {
    /// `namespace/name`.
    pub ingress: String,
    pub path: String,
    pub path_type: PathType,
    /// `spec.rules[i].http.paths[j]`.
    pub field: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DefaultView {
    pub backend: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ingress: Option<String>,
    /// Its [`Decision::answer`](crate::Decision::answer) number ([`Router::answer`](crate::Router::answer)).
    /// `None` with the ingress-nginx profile, where the default backend answers as each
    /// server's root location (that location's `answer`).
    #[serde(skip)]
    pub answer: Option<usize>,
}

/// The explanation of a request the proxy refuses before routing.
pub(crate) fn rejected(request: &Request<'_>, rejection: decision::Rejection) -> Explanation {
    let mut buf = [0u8; MAX_HOST_LEN];
    let normalized_host =
        host::normalize_request_host(request.host, &mut buf).map(|h| String::from_utf8_lossy(h).into_owned());
    Explanation {
        host: String::from_utf8_lossy(request.host).into_owned(),
        normalized_host,
        path: String::from_utf8_lossy(request.path).into_owned(),
        normalized_path: None,
        matched_path: String::from_utf8_lossy(path::request_path(request.path)).into_owned(),
        host_steps: Vec::new(),
        tier: None,
        tier_host: None,
        tier_reason: format!("the proxy refuses the request before routing: {rejection}"),
        candidates: Vec::new(),
        decided_by: None,
        default_reason: None,
        steps: Vec::new(),
        decision: decision::Decision::rejected(rejection).view(request),
        #[cfg(feature = "gateway")]
        gateway: None,
    }
}

#[cfg(test)]
mod wildcard_reason_tests {
    use super::wildcard_miss;

    #[test]
    fn names_the_true_reason() {
        assert_eq!(
            wildcard_miss("foo.com", "foo.com"),
            "a wildcard matches exactly one label before foo.com, and the request host is foo.com itself"
        );
        assert_eq!(
            wildcard_miss("foo.com", "a.b.foo.com"),
            "a wildcard matches exactly one label before foo.com, and a.b.foo.com has 2 (a.b)"
        );
        assert_eq!(wildcard_miss("foo.com", "bar.org"), "bar.org does not end in .foo.com");
        // A suffix match without a label boundary is a different suffix.
        assert_eq!(wildcard_miss("foo.com", "xfoo.com"), "xfoo.com does not end in .foo.com");
        assert_eq!(wildcard_miss("foo.com", ".foo.com"), ".foo.com has an empty label before foo.com");
    }
}
