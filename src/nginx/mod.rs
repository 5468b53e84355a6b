//! The `ingress-nginx` profile: route as the retired ingress-nginx controller did, by building the
//! nginx `server` and `location` blocks it would write and choosing among them as nginx does.
//!
//! The reference is the controller's code (`internal/ingress/controller`, the annotation parsers,
//! `nginx.tmpl`, `balancer.lua`); where its documentation says otherwise, the code wins and the
//! module that models it says so. In short:
//!
//! - Paths become locations ([`location`]): `Exact /p` is `location = /p`; `Prefix /p` (and
//!   `ImplementationSpecific`, which the controller turns into `Prefix`) is `location /p/` plus
//!   `location = /p`, so `/p` and `/p/...` match, `/pq` does not, and a `Prefix /p/` answers `/p`
//!   with nginx's 301 to `/p/`. Locations are written sorted by path length, longest first.
//! - `use-regex: "true"` or a `rewrite-target` on any Ingress of a host makes every location of
//!   that host a case-insensitive regex `~* "^path"`, tried in that order: the first match wins,
//!   and `Exact` no longer means exact. `rewrite-target` rewrites the path the upstream receives.
//! - Hosts become servers ([`server`]); canaries ([`canary`]) add an alternative backend.
//! - Redirects: `app-root` (302 for `/`), `permanent-redirect` / `temporal-redirect`, and
//!   `ssl-redirect` / `force-ssl-redirect` (308 to https, the controller's `http-redirect-code`).
//! - Regexes run on the core's bounded DFA engine ([`regex`] lists where it differs from PCRE).
//!
//! The crate's [`Router`](crate::Router) holds one of these when compiled with
//! [`Profile::IngressNginx`](crate::Profile::IngressNginx); [`glue`] turns its answers into the
//! crate's decisions, explanations, table views and diagnostics.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

pub mod annotations;
mod build;
pub mod canary;
mod glue;
pub(crate) use glue::Engine;
pub mod location;
pub mod regex;
pub mod server;
pub mod uri;

#[cfg(test)]
mod tests;

use crate::diagnostics::Code;
use crate::escape::{percent_encode, percent_encode_authority};
use crate::host::{MAX_HOST_LEN, normalize_request_host};
use crate::model::{Ingress, IngressBackend};
use crate::request::{Request, Scheme};
use alloc::borrow::Cow;
use canary::{Canary, Verdict};
use location::{Choice, Location, Origin};
use regex::Fuel;
use server::{Names, Server, ServerMatch};

/// How to compile (the subset of the project's options this profile reads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The IngressClass served; `None`: every Ingress takes part.
    pub ingress_class: Option<String>,
    /// The controller's `--default-backend-service`; `None`: its built-in 404.
    pub default_backend: Option<IngressBackend>,
    pub regex_limits: crate::options::RegexLimits,
}

/// Something the controller would log, refuse or ignore, naming the Ingress and field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The crate diagnostic code it becomes (`Router::lint`).
    pub code: Code,
    /// `namespace/name`.
    pub ingress: Option<String>,
    pub field: String,
    pub message: String,
}

impl Issue {
    fn for_ingress(code: Code, ingress: &Ingress, field: String, message: String) -> Issue {
        let meta = &ingress.metadata;
        Issue { code, ingress: Some(format!("{}/{}", meta.namespace_or_default(), meta.name)), field, message }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = &self.ingress {
            write!(f, "Ingress {i}")?;
            if !self.field.is_empty() {
                write!(f, " ({})", self.field)?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

/// An Ingress taking part, in the controller's order (oldest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IngressRef {
    pub namespace: String,
    pub name: String,
    pub canary: bool,
}

/// The compiled profile: servers in the order nginx.conf has them.
#[derive(Clone, Debug)]
pub struct Conf {
    pub ingresses: Vec<IngressRef>,
    pub servers: Vec<Server>,
    names: Names,
    pub canaries: Vec<Canary>,
    /// `from-to-www-redirect` servers: the name they answer to, and the server they redirect to.
    www_redirects: hashbrown::HashMap<String, usize>,
    /// Bytes a request's regexes may read ([`RegexLimits::scan`](crate::options::RegexLimits)).
    pub regex_scan: usize,
}

/// Compiles objects as ingress-nginx would. Invalid Ingresses and Ingresses of another class are
/// left out; what the controller would ignore or refuse is reported as [`Issue`]s.
pub fn build(objects: &[crate::model::Object], options: &Options) -> (Conf, Vec<Issue>) {
    build::build(objects, options)
}

/// What happens to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<'r> {
    /// Proxied to this backend.
    Backend { backend: &'r IngressBackend, canary: Option<Verdict> },
    /// A canary weight: traffic is split, `weight` out of the sum of both (never a random pick).
    Split { primary: &'r IngressBackend, primary_weight: u32, canary: &'r IngressBackend, canary_weight: u32 },
    /// nginx answers with a redirect.
    Redirect { status: u16, location: Cow<'r, str> },
    /// The controller's default backend: `Some` when one is configured, else its 404.
    DefaultBackend(Option<&'r IngressBackend>),
    /// nginx answers 400 before choosing a location.
    BadRequest(uri::BadUri),
}

impl fmt::Display for Answer<'_> {
    /// `svc:80`, `split(svc:80 90, canary:80 10)`, `redirect 301 http://host/foo/`, `404`, `400`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Backend { backend, .. } | Answer::DefaultBackend(Some(backend)) => write!(f, "{backend}"),
            Answer::Split { primary, primary_weight, canary, canary_weight } => {
                write!(f, "split({primary} {primary_weight}, {canary} {canary_weight})")
            }
            Answer::Redirect { status, location } => write!(f, "redirect {status} {location}"),
            Answer::DefaultBackend(None) => f.write_str("404"),
            Answer::BadRequest(_) => f.write_str("400"),
        }
    }
}

/// The answer and how nginx reached it.
#[derive(Clone, Debug)]
pub struct Handled<'r> {
    pub answer: Answer<'r>,
    pub server: &'r Server,
    /// The server's index in [`Conf::servers`].
    pub server_index: usize,
    pub server_match: ServerMatch,
    /// The location that handled the request (none for a 400 or an `app-root` redirect).
    pub location: Option<&'r Location>,
    pub choice: Choice,
    /// The canary consulted, if the location has one.
    pub canary: Option<&'r Canary>,
    /// The path and query the upstream receives when `rewrite-target` rewrote them.
    pub upstream_path: Option<String>,
    /// What decided, in nginx's words (set for redirects, canaries and 400s).
    why: Option<&'static str>,
    /// Some regex was answered "no match" because the request's regex budget ran out.
    pub regex_exhausted: bool,
}

impl Conf {
    /// Routes one request. Allocates only to build a redirect's `Location` or a rewritten path,
    /// or for a path that needs decoding (`%`, `//`, `/./`).
    pub fn route<'r>(&'r self, req: &Request<'_>) -> Handled<'r> {
        let fuel = Fuel::new(self.regex_scan);
        let mut handled = self.route_within(req, &fuel);
        handled.regex_exhausted = fuel.exhausted();
        handled
    }

    fn route_within<'r>(&'r self, req: &Request<'_>, fuel: &Fuel) -> Handled<'r> {
        let mut buf = [0u8; MAX_HOST_LEN];
        let host = normalize_request_host(req.host, &mut buf).and_then(|h| core::str::from_utf8(h).ok());
        if let Some(&to) = host.and_then(|h| self.www_redirects.get(h)) {
            return self.www_redirect(req, to);
        }
        let (index, server_match) = match host {
            Some(h) => self.names.find(h, fuel),
            None => (self.names.catch_all, ServerMatch::CatchAll),
        };
        let server = &self.servers[index];
        let mut d = Handled {
            answer: Answer::DefaultBackend(None),
            server,
            server_index: index,
            server_match,
            location: None,
            choice: Choice::None,
            canary: None,
            upstream_path: None,
            why: None,
            regex_exhausted: false,
        };
        let (path, query) = uri::split_target(req.path);
        let uri = match uri::normalize(path) {
            Ok(u) => u,
            Err(bad) => {
                d.answer = Answer::BadRequest(bad);
                return d;
            }
        };
        // Server level: `if ($uri = /) { return 302 $scheme://$http_host<app-root>; }`.
        if let Some((root, _)) = &server.app_root
            && *uri == *b"/"
        {
            let scheme = if req.scheme == Scheme::Https { "https" } else { "http" };
            // `$http_host` is the client's (nginx refuses a bad one with 400): encoded.
            let http_host = percent_encode_authority(req.host);
            let root = percent_encode(root.as_bytes());
            d.answer = Answer::Redirect { status: 302, location: Cow::Owned(format!("{scheme}://{http_host}{root}")) };
            d.why = Some("app-root: the server redirects / before choosing a location");
            return d;
        }
        d.choice = server.locations.choose(&uri, fuel);
        let index = match d.choice {
            Choice::Exact(i) | Choice::Prefix(i) | Choice::Regex { index: i, .. } => i,
            Choice::AutoRedirect(i) => {
                let loc = &server.locations.list[i];
                d.location = Some(loc);
                // `absolute_redirect on` (ingress-nginx's `relative-redirects: false`), the host
                // without a port (`port_in_redirect off`, `server_name_in_redirect off`).
                let args = query.map(|q| format!("?{}", percent_encode(q))).unwrap_or_default();
                let scheme = if req.scheme == Scheme::Https { "https" } else { "http" };
                let host = percent_encode_authority(host.map_or(req.host, str::as_bytes));
                let path = percent_encode(loc.path.as_bytes());
                d.answer =
                    Answer::Redirect { status: 301, location: Cow::Owned(format!("{scheme}://{host}{path}{args}")) };
                d.why = Some("nginx redirects a URI equal to a location without its trailing '/' (auto_redirect)");
                return d;
            }
            Choice::None => return d,
        };
        let loc = &server.locations.list[index];
        d.location = Some(loc);
        // Location rewrite phase: `return` (redirect annotations), then the Lua https redirect.
        if let Some(r) = &loc.settings.redirect {
            // The annotation's validator allows only URL characters; encoded all the same.
            d.answer = Answer::Redirect { status: r.code, location: percent_encode(r.url.as_bytes()) };
            d.why = Some(r.annotation);
            return d;
        }
        let s = &loc.settings;
        if req.scheme == Scheme::Http && (s.force_ssl_redirect || (s.ssl_redirect && server.tls)) {
            let mut target = req.path;
            if !s.preserve_trailing_slash {
                target = target.strip_suffix(b"/").unwrap_or(target);
            }
            let host = percent_encode_authority(host.map_or(req.host, str::as_bytes));
            let target = percent_encode(target);
            d.answer = Answer::Redirect { status: 308, location: Cow::Owned(format!("https://{host}{target}")) };
            d.why = Some(if s.force_ssl_redirect { "force-ssl-redirect" } else { "ssl-redirect (the host has TLS)" });
            return d;
        }
        let Some(primary) = &loc.backend else {
            d.answer = Answer::DefaultBackend(None);
            return d;
        };
        if loc.needs_rewrite()
            && let Some(target) = &loc.settings.rewrite_target
        {
            d.upstream_path = Some(rewrite(loc, target, &uri, query));
        }
        d.answer = Answer::Backend { backend: primary, canary: None };
        let Some(c) = loc.canary.map(|c| &self.canaries[c]) else {
            if matches!(loc.origin, Origin::ServerDefault { .. }) {
                d.answer = Answer::DefaultBackend(Some(primary));
            }
            return d;
        };
        d.canary = Some(c);
        let (to_canary, verdict) = c.decide(req.headers, fuel);
        d.answer = match verdict {
            _ if to_canary => Answer::Backend { backend: &c.backend, canary: Some(verdict) },
            Verdict::Weight if c.weight >= c.weight_total => {
                Answer::Backend { backend: &c.backend, canary: Some(verdict) }
            }
            Verdict::Weight if c.weight > 0 => Answer::Split {
                primary,
                primary_weight: c.weight_total - c.weight,
                canary: &c.backend,
                canary_weight: c.weight,
            },
            _ => Answer::Backend { backend: primary, canary: Some(verdict) },
        };
        d
    }

    /// The `from-to-www-redirect` server: 308 to `$scheme://<host>:$server_port$request_uri`, the
    /// trailing `/` removed (`ngx_srv_redirect.lua`; the port is the one listened on: 80 or 443).
    fn www_redirect<'r>(&'r self, req: &Request<'_>, to: usize) -> Handled<'r> {
        let server = &self.servers[to];
        let (scheme, port) = if req.scheme == Scheme::Https { ("https", 443) } else { ("http", 80) };
        let target = percent_encode(req.path.strip_suffix(b"/").unwrap_or(req.path));
        Handled {
            answer: Answer::Redirect {
                status: 308,
                location: Cow::Owned(format!("{scheme}://{}:{port}{target}", server.hostname)),
            },
            server,
            server_index: to,
            server_match: ServerMatch::WwwRedirect,
            location: None,
            choice: Choice::None,
            canary: None,
            upstream_path: None,
            why: Some("from-to-www-redirect: a server of this name redirects to the Ingress's host"),
            regex_exhausted: false,
        }
    }

    /// The `from-to-www-redirect` names, each with the server it redirects to (`migrate` reads them).
    #[cfg(all(feature = "yaml", feature = "gateway"))]
    pub fn www_redirects(&self) -> impl Iterator<Item = (&str, &Server)> {
        self.www_redirects.iter().map(|(name, &to)| (name.as_str(), &self.servers[to]))
    }

    /// `namespace/name` of the Ingress at `index`.
    pub fn ingress_key(&self, index: usize) -> String {
        let i = &self.ingresses[index];
        format!("{}/{}", i.namespace, i.name)
    }
}

/// `rewrite "(?i)<path>" <target> break;`: the whole URI becomes `target` with `$1`..`$9` taken
/// from the path's captures; the query follows unless the target has its own. The location's own
/// `^<path>` regex gives the same captures: it matched at the start, where the leftmost match is.
/// The result is percent-encoded as nginx escapes a rewritten URI for the upstream; a `%` or `?`
/// in a capture is a literal one (captures come from the decoded URI), so it is encoded too, lest
/// `/%252e%252e` reach the upstream as `/%2e%2e`, or `/a%3Fb` as a query. The captures are read
/// within [`crate::regex::CAPTURE_STEPS`]: `choose` refused the location for a URI too long for that.
fn rewrite(loc: &Location, target: &str, uri: &[u8], query: Option<&[u8]>) -> String {
    let caps = loc.regex.as_ref().and_then(|r| r.captures(uri)).map(|c| {
        c.into_iter().map(|g| String::from_utf8_lossy(g.unwrap_or_default()).into_owned()).collect::<Vec<_>>()
    });
    let mut out = String::with_capacity(target.len() + 16);
    let mut chars = target.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$'
            && let Some(d) = chars.peek().and_then(|d| d.to_digit(10))
        {
            chars.next();
            if let Some(caps) = &caps {
                let capture = caps.get(d as usize).map_or("", String::as_str);
                out.push_str(&capture.replace('%', "%25").replace('?', "%3F"));
            }
            continue;
        }
        out.push(c);
    }
    let mut out = percent_encode(out.as_bytes()).into_owned();
    if let Some(q) = query
        && !target.contains('?')
    {
        out.push('?');
        out.push_str(&percent_encode(q));
    }
    out
}

impl Handled<'_> {
    /// The nginx rule that decided, in one line (e.g. `regex location ~* ^/api/.* comes first`).
    pub fn rule(&self) -> String {
        if let Answer::BadRequest(bad) = &self.answer {
            return format!("nginx answers 400: {}", bad.as_str());
        }
        let loc = self.location.map(Location::nginx_syntax).unwrap_or_default();
        let base = match self.choice {
            Choice::Exact(_) => format!("exact location {loc} equals the URI"),
            Choice::Prefix(_) => {
                format!("prefix location {loc} is the longest matching prefix and no regex location matches")
            }
            Choice::Regex { index, longest_prefix } => {
                let first = self.server.locations.list.iter().position(|l| l.regex.is_some()).unwrap_or(index);
                let order = if index == first {
                    String::from("the first regex location, and it matches")
                } else {
                    format!("the first matching regex location (#{} in order: longer paths come first)", index + 1)
                };
                let over = longest_prefix
                    .map(|p| format!("; it overrides prefix location {}", self.server.locations.list[p].nginx_syntax()))
                    .unwrap_or_default();
                format!("regex location {loc} is {order}{over}")
            }
            Choice::AutoRedirect(_) => format!("no location is named the URI but {loc} is the URI plus '/'"),
            Choice::None => String::from("no location matches"),
        };
        let mut rule = match self.why {
            Some(why) if self.location.is_none() => String::from(why),
            Some(why) => format!("{base}; {why}"),
            None => base,
        };
        if let Some(c) = self.canary {
            rule.push_str(&format!("; canary {}: {}", c.backend, verdict_text(&self.answer)));
        }
        if let (Some(missing), Answer::Backend { .. }) =
            (self.location.and_then(|l| l.fallback_for.as_ref()), &self.answer)
        {
            rule.push_str(&format!(
                "; Service {missing} has no endpoints, so the default-backend annotation's Service answers"
            ));
        }
        if matches!(self.answer, Answer::DefaultBackend(_)) {
            rule.push_str("; the server's default backend answers");
        }
        rule
    }

    /// Every step, for `explain`.
    pub fn steps(&self) -> Vec<String> {
        let s = self.server;
        let how = match self.server_match {
            ServerMatch::Exact => "its server_name equals the host",
            ServerMatch::Alias => "a server-alias equals the host",
            ServerMatch::Wildcard => "the wildcard host's regex server_name matches (one label of [A-Za-z0-9_-])",
            ServerMatch::AliasPattern => "a wildcard or regex server-alias matches",
            ServerMatch::CatchAll => "no server_name matches: the catch-all server",
            ServerMatch::WwwRedirect => {
                "the host is the www (or bare) twin of this server's host: from-to-www-redirect"
            }
        };
        let mut steps = vec![format!("server {}: {how}", s.server_name())];
        if s.enforce_regex {
            steps.push(String::from(
                "every location of this server is a case-insensitive regex: an Ingress of the host sets use-regex or rewrite-target",
            ));
        }
        if let Some(loc) = self.location {
            let source = match &loc.origin {
                Origin::Path { rule, path, path_type, declared, ingress_path, .. } => {
                    let treated = match declared == path_type {
                        true => String::new(),
                        false => format!(", which ingress-nginx treats as {}", path_type.as_str()),
                    };
                    format!("spec.rules[{rule}].http.paths[{path}] ({ingress_path} {}{treated})", declared.as_str())
                }
                Origin::ServerDefault { .. } => String::from("the server's default location /"),
            };
            steps.push(format!("location {} from {source}", loc.nginx_syntax()));
        }
        steps.push(self.rule());
        if let Some(p) = &self.upstream_path {
            steps.push(format!("rewrite-target: the upstream receives {p}"));
        }
        steps.push(format!("answer: {}", self.answer));
        steps
    }
}

pub(crate) fn verdict_text(answer: &Answer<'_>) -> &'static str {
    match answer {
        Answer::Backend { canary: Some(Verdict::Header), .. } => "the canary header selects it",
        Answer::Backend { canary: Some(Verdict::HeaderNever), .. } => {
            "the canary header says never (or its pattern fails)"
        }
        Answer::Backend { canary: Some(Verdict::Cookie), .. } => "the canary cookie says always",
        Answer::Backend { canary: Some(Verdict::CookieNever), .. } => "the canary cookie says never",
        Answer::Backend { canary: Some(Verdict::Deleted), .. } => "the controller deleted the canary backend",
        Answer::Split { .. } => "no header or cookie decides: the weight splits traffic",
        Answer::Backend { canary: Some(Verdict::Weight), .. } => "the weight sends all or nothing",
        _ => "not consulted",
    }
}
