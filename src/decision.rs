//! What [`Router::route`](crate::Router::route) answers: borrowed from the router, built without
//! allocating.
//!
//! ```
//! use ingress_router::{compile, input, CompileOptions, Request, Via};
//! use ingress_router::decision::BackendRef;
//! use ingress_router::options::EscapedSlashes;
//! let yaml = r#"
//! apiVersion: networking.k8s.io/v1
//! kind: Ingress
//! metadata: {name: api, namespace: team-b}
//! spec:
//!   rules:
//!   - http:
//!       paths:
//!       - {path: /v1, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}
//!       - {path: /files, pathType: Prefix, backend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: files}}}
//! "#;
//! let input = input::parse("api.yaml", yaml).unwrap();
//! let options = CompileOptions::default().with_escaped_slashes(EscapedSlashes::RejectRequest);
//! let router = compile(&input, &options).unwrap();
//!
//! let decision = router.route(&Request::new("example.com", "/v1/users"));
//! assert_eq!(decision.via(), Via::Rule);
//! let backend = decision.backend().unwrap();
//! assert_eq!((backend.namespace(), backend.to_string().as_str()), ("team-b", "api:80"));
//! let matched = decision.matched().unwrap();
//! assert_eq!((matched.ingress.to_string().as_str(), matched.path, matched.rule_index), ("team-b/api", "/v1", 0));
//!
//! let files = router.route(&Request::new("example.com", "/files/a")).backend().unwrap();
//! assert_eq!(files.to_string(), "resource:k8s.example.com/Bucket/files");
//! assert!(matches!(files, BackendRef::Resource { kind: "Bucket", .. }));
//!
//! let refused = router.route(&Request::new("example.com", "/v1/a%2Fb"));
//! assert_eq!((refused.via(), refused.rejection().map(|r| r.status())), (Via::Rejected, Some(400)));
//! assert_eq!(router.route(&Request::new("example.com", "/v2")).to_string(), "404");
//! ```

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;

/// What the proxy changes on a forwarded request ([`Decision::modifications`]).
#[cfg(feature = "gateway")]
pub use crate::gateway::filters::{HeaderAction, Modifications};
pub use crate::host::Tier;
use crate::model::{IngressBackend, IngressServiceBackend, ServiceBackendPort, TypedLocalObjectReference};
pub use crate::normalize::Rejection;
pub use crate::path::{MatchKind, PathType};

/// How a request was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Via {
    /// A rule's path matched.
    Rule,
    /// No path matched; a `defaultBackend` (or the configured default) answered.
    DefaultBackend,
    /// Nothing matched and there is no default: 404.
    None,
    /// The proxy refuses the request before routing ([`Decision::rejection`] says why).
    Rejected,
    /// The proxy answers with a redirect ([`Decision::redirect`]; the ingress-nginx profile, a
    /// Gateway API `RequestRedirect`).
    Redirect,
    /// 404: no listener of the Gateway takes the request's port, protocol and host.
    NoListener,
    /// 404: no Gateway to route through (none, several and none chosen, or not found).
    NoGateway,
    /// 500: the rule has a filter the proxy cannot apply (`ExtensionRef`, ...).
    FilterError,
    /// 500: the rule has no valid backend with a weight.
    NoValidBackend,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Rule => "rule",
            Via::DefaultBackend => "defaultBackend",
            Via::None => "none",
            Via::Rejected => "rejected",
            Via::Redirect => "redirect",
            Via::NoListener => "noListener",
            Via::NoGateway => "noGateway",
            Via::FilterError => "filterError",
            Via::NoValidBackend => "noValidBackend",
        }
    }
}

impl fmt::Display for Via {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The port of a Service backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServicePort<'a> {
    Number(u16),
    Name(&'a str),
}

/// A backend, with the namespace it lives in: `default/api:80` and `team-b/api:80` differ.
///
/// `Display` gives the label the CLI prints and tests files expect, without the namespace:
/// `api:80`, `api:http`, `resource:group/Kind/name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BackendRef<'a> {
    /// A Service (port `None` only for a configured default backend without one).
    Service { namespace: &'a str, name: &'a str, port: Option<ServicePort<'a>> },
    /// Any other resource (`apiGroup` `""` for the core group).
    Resource { namespace: &'a str, api_group: &'a str, kind: &'a str, name: &'a str },
}

impl<'a> BackendRef<'a> {
    /// `None` for a backend that names nothing (validation rejects those in Ingresses).
    pub(crate) fn new(namespace: &'a str, backend: &'a IngressBackend) -> Option<Self> {
        if let Some(s) = &backend.service {
            let port = match &s.port {
                Some(ServiceBackendPort { number: Some(n), .. }) if *n != 0 => {
                    u16::try_from(*n).ok().map(ServicePort::Number)
                }
                Some(ServiceBackendPort { name: Some(p), .. }) => Some(ServicePort::Name(p)),
                _ => None,
            };
            return Some(BackendRef::Service { namespace, name: &s.name, port });
        }
        let r = backend.resource.as_ref()?;
        Some(BackendRef::Resource {
            namespace,
            api_group: r.api_group.as_deref().unwrap_or(""),
            kind: &r.kind,
            name: &r.name,
        })
    }

    /// The namespace of the Ingress that names the backend (`""` for the configured default).
    pub fn namespace(&self) -> &'a str {
        match *self {
            BackendRef::Service { namespace, .. } | BackendRef::Resource { namespace, .. } => namespace,
        }
    }
}

impl fmt::Display for BackendRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendRef::Service { name, port: Some(ServicePort::Number(n)), .. } => write!(f, "{name}:{n}"),
            BackendRef::Service { name, port: Some(ServicePort::Name(p)), .. } => write!(f, "{name}:{p}"),
            BackendRef::Service { name, port: None, .. } => f.write_str(name),
            BackendRef::Resource { api_group, kind, name, .. } => write!(f, "resource:{api_group}/{kind}/{name}"),
        }
    }
}

/// An Ingress, by namespace and name; `Display`: `namespace/name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct IngressRef<'a> {
    pub namespace: &'a str,
    pub name: &'a str,
}

impl fmt::Display for IngressRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// The path that won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MatchedRule<'a> {
    pub ingress: IngressRef<'a>,
    /// The rule host as written (`""` for a host-less rule).
    pub host: &'a str,
    /// The path as written (`""` when absent).
    pub path: &'a str,
    pub path_type: PathType,
    /// Its place: `spec.rules[rule_index].http.paths[path_index]`.
    pub rule_index: usize,
    pub path_index: usize,
}

/// A redirect the proxy answers with instead of proxying (the ingress-nginx profile: `app-root`,
/// `permanent-redirect`, `ssl-redirect`, nginx's trailing-slash 301, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Redirect<'r> {
    /// 301, 302, 307 or 308.
    pub status: u16,
    /// The `Location` header: borrowed when the annotation gives it whole, built from the request
    /// (so allocated) when it names the request's host or path.
    pub location: Cow<'r, str>,
}

/// One side of a weighted split: this backend gets `weight` out of the sum of the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WeightedBackend<'r> {
    pub backend: BackendRef<'r>,
    pub weight: u32,
    /// This side's answer number, as [`Decision::answer`] gives it when one backend answers: a
    /// proxy that picks a side finds what it rendered for it by this number.
    pub answer: usize,
}

/// The backend one request goes to ([`Decision::target`]): what a proxy forwards it to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Target<'r> {
    pub backend: BackendRef<'r>,
    /// Its answer number when the table numbers it ([`Decision::answer`]): a proxy finds what it
    /// rendered for it by this number, without hashing.
    pub answer: Option<usize>,
    /// The backend cannot serve (a Gateway API backendRef that does not resolve): its share of
    /// the requests is answered 500.
    pub invalid: bool,
    /// A Gateway API backendRef's place among its rule's (its own filters).
    pub(crate) index: usize,
}

/// The answer to one request.
///
/// With the spec profile it is built without allocating. The ingress-nginx profile allocates only
/// for what it must write from the request: a redirect's `Location` that names the request, and
/// a path rewritten by `rewrite-target` (or a path it must percent-decode before matching).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<'r> {
    pub(crate) via: Via,
    pub(crate) backend: Option<BackendRef<'r>>,
    matched: Option<MatchedRule<'r>>,
    pub(crate) default_from: Option<IngressRef<'r>>,
    rejection: Option<Rejection>,
    pub(crate) redirect: Option<Redirect<'r>>,
    pub(crate) upstream_path: Option<String>,
    answer: Option<usize>,
    pub(crate) regex_exhausted: bool,
    /// An ingress-nginx canary split, or the Gateway API's own parts: never both, so they share
    /// the space (every lookup returns a `Decision` by value).
    pub(crate) extra: Extra<'r>,
}

/// What only some decisions carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Extra<'r> {
    None,
    /// Split by weight between two backends (then there is no single backend).
    Split([WeightedBackend<'r>; 2]),
    /// The Gateway API's own parts (listener, route, rule, every backendRef).
    #[cfg(feature = "gateway")]
    Gateway(crate::gateway::decision::GatewayDecision<'r>),
}

impl<'r> Decision<'r> {
    pub(crate) fn rejected(rejection: Rejection) -> Self {
        Decision { via: Via::Rejected, rejection: Some(rejection), ..Decision::none() }
    }

    /// 404: nothing matched and there is no default.
    pub(crate) fn none() -> Self {
        Decision {
            via: Via::None,
            backend: None,
            matched: None,
            default_from: None,
            rejection: None,
            redirect: None,
            upstream_path: None,
            answer: None,
            regex_exhausted: false,
            extra: Extra::None,
        }
    }

    #[cfg(feature = "nginx")]
    pub(crate) fn redirected(redirect: Redirect<'r>) -> Self {
        Decision { via: Via::Redirect, redirect: Some(redirect), ..Decision::none() }
    }

    /// Proxied: to `backend`, or split by weight when `split` is set (then there is no single
    /// backend).
    pub(crate) fn proxied(
        via: Via,
        backend: Option<BackendRef<'r>>,
        matched: Option<MatchedRule<'r>>,
        split: Option<[WeightedBackend<'r>; 2]>,
        upstream_path: Option<String>,
        answer: Option<usize>,
    ) -> Self {
        let (backend, extra) = match split {
            Some(split) => (None, Extra::Split(split)),
            None => (backend, Extra::None),
        };
        Decision { via, backend, matched, extra, upstream_path, answer, ..Decision::none() }
    }

    pub fn via(&self) -> Via {
        self.via
    }

    /// The HTTP status the proxy answers: 200 when a backend serves the request (the backend's
    /// own answer aside; in a Gateway API split with invalid backends, the valid share), the
    /// redirect's, the refusal's (400), 404 when nothing matched, 500 when the rule cannot be
    /// served (a Gateway API filter the proxy cannot apply, no valid backend).
    pub fn status(&self) -> u16 {
        match self.via {
            Via::Rule | Via::DefaultBackend => 200,
            Via::None | Via::NoListener | Via::NoGateway => 404,
            Via::Rejected => self.rejection.map_or(400, Rejection::status),
            Via::Redirect => self.redirect.as_ref().map_or(302, |r| r.status),
            Via::FilterError | Via::NoValidBackend => 500,
        }
    }

    /// The backend that serves the request; `None`: 404, rejected, redirected, or split between
    /// backends ([`split`](Self::split)).
    pub fn backend(&self) -> Option<BackendRef<'r>> {
        self.backend
    }

    /// The redirect answered, when [`via`](Self::via) is [`Via::Redirect`].
    pub fn redirect(&self) -> Option<&Redirect<'r>> {
        self.redirect.as_ref()
    }

    /// The Gateway API's own parts, for a decision of a Gateway API router.
    #[cfg(feature = "gateway")]
    pub(crate) fn gateway(&self) -> Option<&crate::gateway::decision::GatewayDecision<'r>> {
        match &self.extra {
            Extra::Gateway(g) => Some(g),
            _ => None,
        }
    }

    /// A weighted split between backends (an ingress-nginx canary weight): each gets its weight
    /// out of the sum, never a random pick. `None` when one backend (or none) answers.
    pub fn split(&self) -> Option<&[WeightedBackend<'r>]> {
        match &self.extra {
            Extra::Split(s) => Some(&s[..]),
            _ => None,
        }
    }

    /// The path and query the upstream receives, when the profile rewrote them (ingress-nginx's
    /// `rewrite-target`); `None`: the request's own.
    pub fn upstream_path(&self) -> Option<&str> {
        self.upstream_path.as_deref()
    }

    /// Whether some regex was answered "no match" because the request's regex budget
    /// ([`RegexLimits::scan`](crate::RegexLimits)) ran out: a proxy logs it.
    pub fn regex_budget_exhausted(&self) -> bool {
        self.regex_exhausted
    }

    /// The winning path, when [`via`](Self::via) is [`Via::Rule`].
    pub fn matched(&self) -> Option<MatchedRule<'r>> {
        self.matched
    }

    /// The Ingress whose `defaultBackend` answered (`None` for the configured default).
    pub fn default_from(&self) -> Option<IngressRef<'r>> {
        self.default_from
    }

    /// Why the proxy refused the request, when [`via`](Self::via) is [`Via::Rejected`].
    pub fn rejection(&self) -> Option<Rejection> {
        self.rejection
    }

    /// What answered, as a number below [`Router::answer_count`](crate::Router::answer_count): each
    /// rule path and each default backend of the table has its own, stable for the router's life.
    /// An adapter renders what it needs per answer once (a proxy's cluster name) and finds it by
    /// this number per request, without hashing or formatting. `None`: 404, rejected, redirected,
    /// or split (each side of a [`split`](Self::split) has its own).
    pub fn answer(&self) -> Option<usize> {
        self.answer
    }

    /// Which of the router's fixed answers this decision is, when its whole [`view`](Self::view)
    /// is one: `0` for the 404, `1 +` [`answer`](Self::answer) for a numbered answer that the
    /// request did not change. Two decisions of one router with the same slot have equal views,
    /// so an adapter may convert the view once per slot and share it. `None`: the decision
    /// depends on the request (a refusal, a redirect, a split, a rewritten path, a regex budget
    /// spent).
    ///
    /// Slots are below [`Router::answer_slots`](crate::Router::answer_slots).
    pub fn answer_slot(&self) -> Option<usize> {
        if self.regex_exhausted {
            // The flag is this request's, not the answer's.
            return None;
        }
        #[cfg(feature = "gateway")]
        if self.gateway().is_some() {
            // The listener and what the backend receives are the request's.
            return None;
        }
        match self.answer {
            Some(answer) if self.upstream_path.is_none() => Some(1 + answer),
            None if self.via == Via::None && self.matched.is_none() && self.default_from.is_none() => Some(0),
            _ => None,
        }
    }

    /// The backend this request goes to: the one backend, or the side of a split (an
    /// ingress-nginx canary, a Gateway API rule's backendRefs) that `random` falls on, each side
    /// getting its weight out of the sum of the weights (see [`pick_side`](Self::pick_side)).
    /// `None`: no backend serves (404, a refusal, a redirect, 500, every weight zero).
    pub fn target(&self, random: u64) -> Option<Target<'r>> {
        #[cfg(feature = "gateway")]
        if let Some(gateway) = self.gateway() {
            return gateway_parts::gateway_target(gateway, random);
        }
        if let Some(backend) = self.backend {
            return Some(Target { backend, answer: self.answer, invalid: false, index: 0 });
        }
        let side = self.pick_side(random)?;
        Some(Target { backend: side.backend, answer: Some(side.answer), invalid: false, index: 0 })
    }

    /// What the proxy changes on the request it forwards to `target` (from
    /// [`target`](Self::target)): the path ingress-nginx's `rewrite-target` wrote, the Gateway
    /// API's URLRewrite and RequestHeaderModifier filters (the rule's, then the backend's own).
    /// Allocates only for a rewritten path and header modifiers.
    #[cfg(feature = "gateway")]
    pub fn modifications(
        &self,
        request: &crate::Request<'_>,
        target: &Target<'r>,
    ) -> crate::gateway::filters::Modifications<'r> {
        if let Some(gateway) = self.gateway() {
            return gateway_parts::gateway_modifications(gateway, request, target);
        }
        crate::gateway::filters::Modifications { path: self.upstream_path.clone(), ..Default::default() }
    }

    /// As owned data: the one shape every home serialises (the CLI's `route --json`, the npm
    /// package's `route()`, an explanation's `decision`). `request` is the one routed: a Gateway
    /// API decision shows what the backend receives from it after the rule's filters.
    pub fn view(&self, request: &crate::Request<'_>) -> DecisionView {
        #[cfg(feature = "gateway")]
        if let Some(gateway) = self.gateway() {
            return gateway_parts::gateway_view(self, gateway, request);
        }
        let written = |b: BackendRef<'_>| IngressBackend::from(b);
        let grpc_status = request.grpc_status(self.status(), false);
        DecisionView {
            label: self.to_string(),
            backend: self.backend.map(written),
            via: self.via,
            matched: self.matched.map(|m| MatchedView {
                ingress: m.ingress.to_string(),
                host: m.host.into(),
                path: m.path.into(),
                path_type: m.path_type,
                field: format!("spec.rules[{}].http.paths[{}]", m.rule_index, m.path_index),
            }),
            default_from: self.default_from.map(|i| i.to_string()),
            reason: self.rejection.map(|r| r.to_string()),
            status: self.status(),
            redirect: self
                .redirect
                .as_ref()
                .map(|r| RedirectView { status: r.status, location: r.location.to_string() }),
            split: self.split().map(|s| {
                s.iter()
                    .map(|w| WeightedView {
                        label: w.backend.to_string(),
                        backend: written(w.backend),
                        weight: w.weight,
                        invalid: None,
                    })
                    .collect()
            }),
            upstream_path: self.upstream_path.clone(),
            regex_budget_exhausted: self.regex_exhausted,
            grpc_status_name: grpc_status.map(grpc_status_name),
            grpc_status,
            #[cfg(feature = "gateway")]
            gateway: None,
        }
    }
}

/// The decision's label, one line: `service:port`, `resource:group/Kind/name`, `404`, the
/// refusal's status (`400`), `redirect <status> <location>`, or
/// `split(<backend> <weight>, <backend> <weight>)`. Tests files compare it; proxies log it.
impl fmt::Display for Decision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(feature = "gateway")]
        if let Some(gateway) = self.gateway() {
            return gateway_parts::gateway_label(self, gateway, f);
        }
        let split = match &self.extra {
            Extra::Split(s) => Some(s),
            _ => None,
        };
        match (self.backend, self.rejection, &self.redirect, split) {
            (Some(b), ..) => b.fmt(f),
            (None, Some(r), ..) => write!(f, "{}", r.status()),
            (None, None, Some(r), _) => write!(f, "redirect {} {}", r.status, r.location),
            (None, None, None, Some([a, b])) => {
                write!(f, "split({} {}, {} {})", a.backend, a.weight, b.backend, b.weight)
            }
            (None, None, None, None) => f.write_str("404"),
        }
    }
}

/// The backend as the Ingress writes it (`{service: {name, port}}` or
/// `{resource: {apiGroup, kind, name}}`).
impl From<BackendRef<'_>> for IngressBackend {
    fn from(backend: BackendRef<'_>) -> Self {
        match backend {
            BackendRef::Service { name, port, .. } => IngressBackend {
                service: Some(IngressServiceBackend {
                    name: name.into(),
                    port: port.map(|p| match p {
                        ServicePort::Number(n) => ServiceBackendPort { number: Some(n.into()), name: None },
                        ServicePort::Name(p) => ServiceBackendPort { name: Some(p.into()), number: None },
                    }),
                }),
                resource: None,
            },
            BackendRef::Resource { api_group, kind, name, .. } => IngressBackend {
                service: None,
                resource: Some(TypedLocalObjectReference {
                    api_group: Some(api_group.into()),
                    kind: kind.into(),
                    name: name.into(),
                }),
            },
        }
    }
}

/// A [`Decision`] as owned data: what `route --json` prints, what the npm package's `route()`
/// returns, and an explanation's `decision`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DecisionView {
    /// The decision in one line (see [`Decision`]'s `Display`).
    pub label: String,
    /// The backend that serves the request as the Ingress writes it; `null` for a 404, a
    /// refusal, a redirect or a split.
    pub backend: Option<IngressBackend>,
    pub via: Via,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<MatchedView>,
    /// `namespace/name` of the Ingress whose defaultBackend answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_from: Option<String>,
    /// Why the proxy refused the request, or (the Gateway API) why it answers 404 or 500.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The HTTP status the proxy answers ([`Decision::status`]).
    pub status: u16,
    /// The redirect answered instead of proxying (the ingress-nginx profile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect: Option<RedirectView>,
    /// A weighted split: each side with its weight out of the sum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<Vec<WeightedView>>,
    /// The path and query the upstream receives after a rewrite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_path: Option<String>,
    /// Some regex was answered "no match" because the request's regex budget ran out.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub regex_budget_exhausted: bool,
    /// For a gRPC call ([`Request::is_grpc`](crate::Request::is_grpc)) the proxy does not forward,
    /// the gRPC status its client reads ([`Request::grpc_status`](crate::Request::grpc_status)):
    /// `12` (UNIMPLEMENTED) when nothing routes it, `14` (UNAVAILABLE) when no backend can take
    /// it, `2` (UNKNOWN) for another 500. `None` for other requests, and for calls forwarded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grpc_status: Option<u8>,
    /// The name of [`grpc_status`](Self::grpc_status) as the gRPC specification writes it
    /// (`UNIMPLEMENTED`): here so that every home (the CLI, the npm package, the playground)
    /// names it alike, without a table of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grpc_status_name: Option<&'static str>,
    /// The Gateway API's own parts: the Gateway, listener, route, rule and match that decided,
    /// and what the backend receives.
    #[cfg(feature = "gateway")]
    #[serde(flatten)]
    pub gateway: Option<GatewayView>,
}

/// The name of a gRPC status code (`UNIMPLEMENTED` for 12), as the gRPC specification writes it.
pub(crate) fn grpc_status_name(code: u8) -> &'static str {
    const NAMES: [&str; 17] = [
        "OK",
        "CANCELLED",
        "UNKNOWN",
        "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED",
        "NOT_FOUND",
        "ALREADY_EXISTS",
        "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION",
        "ABORTED",
        "OUT_OF_RANGE",
        "UNIMPLEMENTED",
        "INTERNAL",
        "UNAVAILABLE",
        "DATA_LOSS",
        "UNAUTHENTICATED",
    ];
    NAMES.get(usize::from(code)).copied().unwrap_or("UNKNOWN")
}

/// A [`Redirect`] as owned data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RedirectView {
    pub status: u16,
    pub location: String,
}

/// A side of a weighted split as owned data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WeightedView {
    pub label: String,
    pub backend: IngressBackend,
    pub weight: u32,
    /// Why this backend cannot serve (the Gateway API): its share answers 500.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
}

/// The winning path, as owned data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MatchedView {
    /// `namespace/name`.
    pub ingress: String,
    /// The rule host (`""` for host-less rules).
    pub host: String,
    pub path: String,
    pub path_type: PathType,
    /// `spec.rules[i].http.paths[j]`.
    pub field: String,
}

// ------------------------------------------------------------------------------------------------
// The Gateway API's parts of a decision (the `gateway` feature). Here rather than in `gateway/`:
// the decision depends on the Gateway API's types, never the other way round.

#[cfg(feature = "gateway")]
mod gateway_parts {
    use super::*;
    use crate::gateway::attach::NoListener;
    use crate::gateway::backends::{Backend, Invalid};
    use crate::gateway::decision::{GatewayDecision, Outcome};
    use crate::gateway::filters::{Modifications, Upstream};
    use crate::gateway::request::GatewayRequest;
    use crate::request::Request;

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
        /// `namespace/name` of the winning route.
        pub route: Option<String>,
        /// The winning route's kind when it is not an HTTPRoute (`GRPCRoute`).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub route_kind: Option<&'static str>,
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

    /// The backendRef `random` falls on (see [`Decision::target`]).
    pub(super) fn gateway_target<'r>(decision: &GatewayDecision<'r>, random: u64) -> Option<Target<'r>> {
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

    /// What the proxy changes on the request it forwards to `target` (see [`Decision::modifications`]).
    pub(super) fn gateway_modifications<'r>(
        decision: &GatewayDecision<'r>,
        request: &Request<'_>,
        target: &Target<'r>,
    ) -> Modifications<'r> {
        let Some(gateway) = GatewayRequest::of(request) else { return Modifications::default() };
        let backend = decision.winner.and_then(|w| w.backends.get(target.index));
        decision.modifications(&gateway, backend)
    }

    /// The one backend every forwarded request goes to: the only backendRef with a weight, when valid.
    pub(crate) fn single_backend<'r>(decision: &GatewayDecision<'r>) -> Option<&'r Backend> {
        let (Outcome::Forward, Some(w)) = (decision.outcome, decision.winner) else { return None };
        let mut weighted = w.backends.iter().filter(|b| b.weight > 0);
        match (weighted.next(), weighted.next()) {
            (Some(only), None) if only.invalid.is_none() => Some(only),
            _ => None,
        }
    }

    /// A backend in a label: `namespace/name:port` (the namespace, since a route may name another's).
    fn backend_label(b: &Backend) -> String {
        match b.port {
            Some(port) => alloc::format!("{}/{}:{port}", b.namespace, b.name),
            None => alloc::format!("{}/{}", b.namespace, b.name),
        }
    }

    /// The label of a Gateway API decision: `namespace/name:port` for one backend, `split(a:80 90,
    /// b:80 10)` (each `namespace/name:port weight`) for several backendRefs, `redirect <status>
    /// <location>`, else the status (`404`, `500`).
    pub(super) fn gateway_label(
        decision: &Decision<'_>,
        gateway: &GatewayDecision<'_>,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
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
    fn written_gateway(b: &Backend) -> IngressBackend {
        let port = b.port.map(ServicePort::Number);
        IngressBackend::from(BackendRef::Service { namespace: &b.namespace, name: &b.name, port })
    }

    /// Why a Gateway API decision answers 404 or 500, in words.
    fn reason(outcome: Outcome<'_>) -> Option<String> {
        Some(match outcome {
            Outcome::NoGateway(why) => why.to_string(),
            Outcome::NoListener(NoListener::NoListenerOnPort { port }) => {
                alloc::format!("no listener of the Gateway takes port {port} with this protocol")
            }
            Outcome::NoListener(NoListener::NoListenerForHost) => {
                "no listener on this port has a hostname that matches the host".to_string()
            }
            Outcome::NotFound => "no rule of the routes attached to the listener matches".to_string(),
            Outcome::FilterError => "the rule has a filter this proxy cannot apply".to_string(),
            Outcome::NoValidBackend => "the rule has no valid backendRef with a weight".to_string(),
            Outcome::Redirect(_) | Outcome::Forward => return None,
        })
    }

    /// The view of a Gateway API decision: the crate's fields, and [`GatewayView`]'s.
    pub(super) fn gateway_view(
        decision: &Decision<'_>,
        gateway: &GatewayDecision<'_>,
        request: &crate::Request<'_>,
    ) -> DecisionView {
        let request_text = request;
        let request = GatewayRequest::of(request).unwrap_or_else(|| GatewayRequest::new("", "/"));
        let winner = gateway.winner;
        // What the backend receives: the rule's filters, then the one backend's own.
        let upstream = match (gateway.outcome, winner) {
            (Outcome::Forward, Some(w)) => {
                let mut upstream = Upstream::of(&request);
                upstream.apply(&w.rule.filters, &request, w.matched);
                if let Some(backend) = single_backend(gateway) {
                    upstream.apply(&w.rule.backend_refs[backend.index].filters, &request, w.matched);
                }
                Some(upstream)
            }
            _ => None,
        };
        let key = |namespace: &str, name: &str| alloc::format!("{namespace}/{name}");
        let split = match (gateway.outcome, winner) {
            (Outcome::Forward, Some(w)) if w.backends.len() > 1 => Some(
                w.backends
                    .iter()
                    .map(|b| WeightedView {
                        label: backend_label(b),
                        backend: written_gateway(b),
                        weight: b.weight,
                        invalid: b.invalid.as_ref().map(invalid_reason),
                    })
                    .collect(),
            ),
            _ => None,
        };
        let unavailable = matches!(gateway.outcome, Outcome::NoValidBackend)
            || (decision.status() == 500 && matches!(gateway.outcome, Outcome::Forward));
        let grpc_status = request_text.grpc_status(decision.status(), unavailable);
        DecisionView {
            label: decision.to_string(),
            backend: single_backend(gateway).map(written_gateway),
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
            grpc_status_name: grpc_status.map(grpc_status_name),
            grpc_status,
            gateway: Some(GatewayView {
                gateway: gateway.gateway.map(|g| key(&g.metadata.namespace, &g.metadata.name)),
                listener: gateway.listener.map(|l| l.name.clone()),
                route: winner.map(|w| key(&w.route.metadata.namespace, &w.route.metadata.name)),
                route_kind: winner
                    .map(|w| w.route.kind)
                    .filter(|k| *k != crate::gateway::model::RouteType::Http)
                    .map(|k| k.as_str()),
                rule: winner.map(|w| w.rule_index),
                rule_name: winner.and_then(|w| w.rule.name.clone()),
                match_index: winner.map(|w| w.match_index),
                upstream,
            }),
        }
    }

    /// An invalid backendRef's reason, as its route's `ResolvedRefs` condition names it.
    fn invalid_reason(invalid: &Invalid) -> String {
        match invalid {
            Invalid::InvalidKind { group, kind } => {
                alloc::format!("InvalidKind: {kind} of group {group:?} is not a core Service")
            }
            Invalid::RefNotPermitted => {
                "RefNotPermitted: another namespace, and no ReferenceGrant there allows it".to_string()
            }
            Invalid::BackendNotFound => "BackendNotFound: no such Service".to_string(),
            Invalid::PortNotFound => "BackendNotFound: no port, or a port the Service does not declare".to_string(),
        }
    }
}
#[cfg(feature = "gateway")]
pub use gateway_parts::GatewayView;
#[cfg(feature = "gateway")]
pub(crate) use gateway_parts::single_backend;
