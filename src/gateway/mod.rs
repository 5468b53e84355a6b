//! The Gateway API in the core (first phase): Gateways, HTTPRoutes and ReferenceGrants compiled
//! once, requests routed many times and explained, as the specification at v1.6.1 (`kubernetes-sigs/gateway-api`) says.
//!
//! Users reach it through the one entry point, [`compile`](crate::compile):
//!
//! ```
//! use ingress_router::{compile, input, CompileOptions, Request};
//! let manifests = r#"[
//!   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
//!    "metadata": {"name": "gw", "namespace": "infra"},
//!    "spec": {"gatewayClassName": "eg", "listeners": [
//!      {"name": "http", "port": 80, "protocol": "HTTP", "hostname": "*.example.com",
//!       "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
//!   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
//!    "metadata": {"name": "shop", "namespace": "shop"},
//!    "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}],
//!             "rules": [{"matches": [{"path": {"value": "/cart"}}],
//!                        "backendRefs": [{"name": "cart", "port": 8080}]}]}}
//! ]"#;
//! let router = compile(&input::parse("gw.json", manifests).unwrap(), &CompileOptions::default()).unwrap();
//! let request = Request::new("a.b.example.com", "/cart/items?id=1");
//! let decision = router.route(&request);
//! assert_eq!(decision.status(), 200);
//! let view = decision.view(&request);
//! assert_eq!(view.gateway.unwrap().route.as_deref(), Some("shop/shop"));
//! assert_eq!(view.label, "shop/cart:8080");
//! assert_eq!(router.route(&Request::new("example.com", "/cart")).status(), 404);
//! ```
//!
//! # Semantics
//!
//! - **Gateway**: [`GatewayOptions::gateway`], else the only Gateway of the input (several without
//!   the option: every request is 404, [`NoGateway::Ambiguous`]).
//! - **Listener**: the request's port (explicit, else the `Host` header's, else 80/443), protocol
//!   `HTTP` for http and `HTTPS` for https (an HTTPS listener terminates TLS, then routes as HTTP),
//!   and the most specific listener hostname that matches the host (exact, longest wildcard,
//!   none). None: 404.
//! - **Attachment** (per listener): a parentRef naming the Gateway (group, kind, namespace,
//!   name), its `sectionName` and `port` when set, `allowedRoutes.kinds` (empty: HTTPRoute) and
//!   `allowedRoutes.namespaces` (`Same`, `All`, `Selector` on the Namespace's labels, which always
//!   include `kubernetes.io/metadata.name`), and at least one intersecting hostname (the
//!   hostnames page; `*.` matches one or more labels). A route serves only its intersected
//!   hostnames.
//! - **Precedence** ([`PrecedenceKey`](precedence::PrecedenceKey)): the hostname's specificity (characters of a precise
//!   hostname, then of the hostname; the *intersected* hostname counts, as the hostnames page says
//!   only it is relevant), `Exact` path, the longest path value (characters as written), a method,
//!   most headers, most query parameters, the oldest route, `namespace/name`, first rule, first
//!   match.
//! - **Answers**: no rule: 404. A redirect filter: its status and `Location`. An `ExtensionRef`,
//!   `ExternalAuth` or unknown filter (which this core cannot apply): 500. No backendRefs, or none
//!   valid with a weight: 500. Otherwise forwarded: a split by weight ([`GatewayDecision::pick`]),
//!   invalid backends answering 500 for their share, weight 0 never chosen.
//! - **Backends**: core `Service` only (else `InvalidKind`); another namespace needs a
//!   ReferenceGrant there (from HTTPRoute in the route's namespace, to Service, with that name or
//!   none); the Service and its port must exist when [`GatewayOptions::check_services`] says so
//!   (by default: when the input holds any Service).
//!
//! # Choices where the specification is silent
//!
//! - A repeated request header matches a header match when any of its values does; a repeated
//!   query parameter is read at its first value (as `HTTPQueryParamMatch.Name` recommends), its
//!   value percent-decoded (`+` kept), its name compared exactly.
//! - `RequestHeaderModifier.add` appends a separate header line (as Envoy does); set, add, remove
//!   are applied in that order (the spec forbids two actions on one name).
//! - The redirect keeps the request's query.
//! - `RegularExpression` path, header and query matches: evaluated (anchored, whole value, as
//!   Envoy does) when built with the `nginx` feature, whose bounded DFA engine (`regexLimits`) they use
//!   (`REGEX_SUPPORTED`); otherwise they match nothing and [`explain`](GatewayRouter::explain)
//!   says so ([`Mismatch::RegularExpression`](matching::Mismatch::RegularExpression)). Their rank: [`RegexOrder`] (Envoy Gateway's by
//!   default, Istio's as an option), each documented with its source. Regex matches are tried
//!   only among the host's candidates, and read at most the request's regex budget.
//!
//! # Lookups
//!
//! [`GatewayRouter::route`] picks the listener (a scan of the Gateway's listeners, at most 64),
//! then probes that listener's table: the exact-host entry, one wildcard entry per label of the
//! host (longest suffix first), then `*`; each entry's candidates are pre-sorted by precedence and
//! the first whose conditions hold wins. An entry of more than 8 candidates is also indexed by
//! path (`Exact` values; `PathPrefix` values probed at each `/` of the request path, longest
//! first), so that only candidates whose path can match are checked. It allocates nothing (the
//! host is lowercased into a stack buffer); `BENCHMARKS.md` has the instruction counts. [`GatewayRouter::explain`] instead evaluates every rule of every route linearly, and the
//! tests check the two agree.

// The module is the crate's own: its docs link to its private parts.
#![allow(rustdoc::private_intra_doc_links)]

pub(crate) mod attach;
pub(crate) mod backends;
pub(crate) mod decision;
pub(crate) mod explain;
pub(crate) mod filters;
pub(crate) mod glue;
mod hostname;
#[cfg(feature = "lint")]
mod lint;
pub(crate) mod listing;
mod matching;
pub mod model;
mod precedence;
mod read;
mod regex;
pub(crate) mod request;
pub mod status;
mod table;
#[cfg(all(test, feature = "yaml"))]
mod tests;
pub mod validation;

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

pub use backends::Backend;
pub use decision::{GatewayDecision, NoGateway, Outcome, Winner};
pub use filters::RuleAction;
pub use model::Objects;

/// The positions `0..n` in the stable order of `cmp`. The Gateway API's sorts go through this one
/// copy of the standard library's sort: every `sort_by` closure is a copy of its own, about 4 KiB
/// of WebAssembly before `wasm-opt` (`make size`).
fn sorted_positions(n: usize, cmp: &dyn Fn(usize, usize) -> core::cmp::Ordering) -> alloc::vec::Vec<usize> {
    let mut positions: alloc::vec::Vec<usize> = (0..n).collect();
    positions.sort_by(|&a, &b| cmp(a, b));
    positions
}
pub use regex::RegexOrder;
pub use request::GatewayRequest;

/// How to compile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GatewayOptions {
    /// The Gateway requests arrive at: `namespace/name`, or `name` when only one Gateway has it.
    /// Needed when the input has several.
    pub gateway: Option<String>,
    /// Whether a backendRef to a Service (or port) missing from the input is invalid. `None`: when
    /// the input holds at least one Service.
    pub check_services: Option<bool>,
    /// Where `RegularExpression` matches rank (the specification leaves it to implementations).
    #[serde(default)]
    pub regex_order: RegexOrder,
    /// The work `RegularExpression` matches may do (size per pattern, bytes per request).
    #[serde(default)]
    pub regex_limits: crate::options::RegexLimits,
}

impl From<&crate::options::CompileOptions> for GatewayOptions {
    /// The Gateway API part of the options every home reads (`gateway`, `regexOrder`,
    /// `checkServices`).
    fn from(options: &crate::options::CompileOptions) -> Self {
        GatewayOptions {
            gateway: options.gateway.clone(),
            check_services: options.check_services,
            regex_order: options.regex_order.unwrap_or_default(),
            regex_limits: options.regex_limits,
        }
    }
}

/// The compiled Gateway: route many requests.
#[derive(Clone, Debug)]
pub struct GatewayRouter {
    objects: Objects,
    gateway: Result<usize, NoGateway>,
    routes: Vec<table::CompiledRoute>,
    /// One per listener of the chosen Gateway.
    listeners: Vec<table::CompiledListener>,
    regex_order: RegexOrder,
    regex_limits: crate::options::RegexLimits,
}

/// Compiles `objects` for one Gateway (see [`GatewayOptions::gateway`]).
pub fn compile(objects: &Objects, options: &GatewayOptions) -> GatewayRouter {
    let objects = objects.clone();
    let gateway = choose_gateway(&objects, options.gateway.as_deref());
    let check_services = options.check_services.unwrap_or(!objects.services.is_empty());
    let routes = table::compile_routes(&objects, check_services, &regex::Compiler::new(&options.regex_limits));
    let listeners = match &gateway {
        Ok(g) => {
            let gw = &objects.gateways[*g];
            (0..gw.spec.listeners.len())
                .map(|l| table::compile_listener(&objects, gw, l, &routes, options.regex_order))
                .collect()
        }
        Err(_) => Vec::new(),
    };
    GatewayRouter {
        objects,
        gateway,
        routes,
        listeners,
        regex_order: options.regex_order,
        regex_limits: options.regex_limits,
    }
}

fn choose_gateway(objects: &Objects, wanted: Option<&str>) -> Result<usize, NoGateway> {
    let gateways = &objects.gateways;
    let Some(wanted) = wanted else {
        return match gateways.len() {
            0 => Err(NoGateway::NoGateways),
            1 => Ok(0),
            _ => Err(NoGateway::Ambiguous {
                gateways: gateways.iter().map(|g| attach::key_of(&g.metadata.namespace, &g.metadata.name)).collect(),
            }),
        };
    };
    let found: Vec<usize> = match wanted.split_once('/') {
        Some((ns, name)) => gateways
            .iter()
            .enumerate()
            .filter(|(_, g)| g.metadata.namespace == ns && g.metadata.name == name)
            .map(|(i, _)| i)
            .collect(),
        None => gateways.iter().enumerate().filter(|(_, g)| g.metadata.name == wanted).map(|(i, _)| i).collect(),
    };
    match found.as_slice() {
        [one] => Ok(*one),
        _ => Err(NoGateway::NotFound { gateway: String::from(wanted) }),
    }
}

impl GatewayRouter {
    /// The objects compiled (defaults applied).
    pub fn objects(&self) -> &Objects {
        &self.objects
    }

    /// The Gateway requests arrive at, when one was chosen.
    #[cfg_attr(not(feature = "yaml"), allow(dead_code))]
    pub fn gateway(&self) -> Option<&model::Gateway> {
        self.gateway.as_ref().ok().and_then(|&i| self.objects.gateways.get(i))
    }

    /// The chosen Gateway as `namespace/name` (a tests file's `options.gateway`), or "".
    #[cfg_attr(not(feature = "yaml"), allow(dead_code))]
    pub fn gateway_name(&self) -> String {
        self.gateway().map(|g| alloc::format!("{}/{}", g.metadata.namespace, g.metadata.name)).unwrap_or_default()
    }

    /// Why no Gateway takes requests (none in the input, several and none chosen, or the chosen
    /// one missing); `None` when one does.
    pub fn no_gateway(&self) -> Option<&NoGateway> {
        self.gateway.as_ref().err()
    }

    /// Every `RegularExpression` match this router cannot evaluate (invalid, over the regex size
    /// limit or the configuration's total, or no regex engine in this build), as
    /// `HTTPRoute ns/name spec.rules[i].matches[j].path.value: why`: each matches nothing. What a
    /// proxy logs when it configures (status says it as `PartiallyInvalid`).
    pub fn regex_refusals(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (route, compiled) in self.objects.routes.iter().zip(&self.routes) {
            for (r, rule) in compiled.rules.iter().enumerate() {
                for (m, regexes) in rule.regexes.iter().enumerate() {
                    for (field, why) in regexes.refusals() {
                        // A GRPCRoute's path pattern is its method match's.
                        let field = match (route.kind, field.as_str()) {
                            (model::RouteType::Grpc, "path.value") => "method".into(),
                            _ => field,
                        };
                        out.push(alloc::format!(
                            "{} {}/{} spec.rules[{r}].matches[{m}].{field}: {why}",
                            route.kind.as_str(),
                            route.metadata.namespace,
                            route.metadata.name
                        ));
                    }
                }
            }
        }
        out
    }

    /// Every backendRef of the routes attached to at least one of the Gateway's listeners, valid
    /// or not, in route and rule order (repeats included).
    pub(crate) fn attached_backends(&self) -> impl Iterator<Item = &Backend> {
        let attached = move |r: &usize| self.listeners.iter().any(|l| l.attachment.get(*r).is_some_and(Result::is_ok));
        (0..self.routes.len())
            .filter(attached)
            .flat_map(move |r| self.routes[r].rules.iter().flat_map(|rule| rule.backends.iter()))
    }

    /// The request headers the routes attached to the Gateway's listeners match on, lower-case,
    /// sorted, each once: a proxy reads these and no others. Empty when no match reads a header.
    pub fn header_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for (r, route) in self.objects.routes.iter().enumerate() {
            if !self.listeners.iter().any(|l| l.attachment.get(r).is_some_and(Result::is_ok)) {
                continue;
            }
            let matches = route.spec.rules.iter().flat_map(|rule| &rule.matches);
            names.extend(matches.flat_map(|m| &m.headers).map(|h| h.name.to_ascii_lowercase()));
        }
        names.sort();
        names.dedup();
        names
    }

    /// What is wrong with the Gateway API objects compiled (every Gateway of the input, not only
    /// the one requests arrive at), as [`Diagnostic`](crate::Diagnostic)s in the catalogue
    /// [`Router::lint`](crate::Router::lint) uses, ordered by first object (kind, namespace, name,
    /// field), then code:
    ///
    /// - `route-not-attached` (warning): an HTTPRoute parentRef names a Gateway of the input and
    ///   attaches to none of its listeners; the reason is the route status's (`NoMatchingParent`,
    ///   `NotAllowedByListeners`, `NoMatchingListenerHostname`).
    /// - `route-parent-missing` (note): a parentRef names a Gateway not in the input.
    /// - `hostname-no-listener` (warning): route hostnames that intersect no hostname of the
    ///   listeners the route attaches to.
    /// - `backend-not-permitted` (error): a backendRef to another namespace that no ReferenceGrant
    ///   allows; the fix names the ReferenceGrant to write.
    /// - `backend-not-found` (warning): a backendRef's Service or port is not in the input (only
    ///   when Services are checked, [`GatewayOptions::check_services`]).
    /// - `listener-conflict` (error): a listener the Gateway status marks `Conflicted`.
    /// - `rule-shadowed` (warning): a match that never wins, because an identical match (path,
    ///   method, headers, query parameters) ranks before it on the same hostname and listener.
    ///
    /// ```text
    /// use ingress_router::gateway::{compile, GatewayOptions, Objects};
    /// let manifests: Vec<serde_json::Value> = serde_json::from_str(r#"[
    ///   {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
    ///    "metadata": {"name": "shop", "namespace": "shop"},
    ///    "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}]}}
    /// ]"#).unwrap();
    /// let router = compile(&Objects::from_values(&manifests), &GatewayOptions::default());
    /// let codes: Vec<&str> = router.lint().iter().map(|d| d.code.as_str()).collect();
    /// assert_eq!(codes, ["route-parent-missing"]);
    /// ```
    #[cfg(feature = "lint")]
    pub fn lint(&self) -> Vec<crate::Diagnostic> {
        lint::lint(self)
    }

    /// Routes one request, without allocating.
    pub fn route(&self, request: &GatewayRequest<'_>) -> GatewayDecision<'_> {
        let gateway = match &self.gateway {
            Ok(g) => &self.objects.gateways[*g],
            Err(e) => {
                return GatewayDecision {
                    gateway: None,
                    listener: None,
                    winner: None,
                    outcome: Outcome::NoGateway(e),
                    regex_budget_exhausted: false,
                };
            }
        };
        let host = hostname::request_host(request.host);
        let l = match attach::select_listener(gateway, request.effective_port(), request.https(), host) {
            Ok(l) => l,
            Err(e) => {
                return GatewayDecision {
                    gateway: Some(gateway),
                    listener: None,
                    winner: None,
                    outcome: Outcome::NoListener(e),
                    regex_budget_exhausted: false,
                };
            }
        };
        let listener = &gateway.spec.listeners[l];
        let fuel = regex::Fuel::new(self.regex_limits.scan);
        let mut decision = match self.listeners[l].lookup(&self.objects, &self.routes, request, &fuel) {
            Some(c) => {
                let (winner, action) = self.winner(c.route as usize, c.rule as usize, c.match_index as usize);
                GatewayDecision::decide(gateway, listener, winner, action)
            }
            None => GatewayDecision {
                gateway: Some(gateway),
                listener: Some(listener),
                winner: None,
                outcome: Outcome::NotFound,
                regex_budget_exhausted: false,
            },
        };
        decision.regex_budget_exhausted = fuel.exhausted();
        decision
    }

    fn winner(&self, route: usize, rule: usize, match_index: usize) -> (Winner<'_>, &RuleAction) {
        let r = &self.objects.routes[route];
        let compiled = &self.routes[route].rules[rule];
        let winner = Winner {
            route: r,
            rule_index: rule,
            rule: &r.spec.rules[rule],
            match_index,
            matched: &r.spec.rules[rule].matches[match_index],
            backends: &compiled.backends,
        };
        (winner, &compiled.action)
    }
}
