//! Filters: RequestRedirect (the `Location` the proxy answers), URLRewrite and
//! RequestHeaderModifier (what the backend receives), ResponseHeaderModifier (reported). Applied in
//! the order written, rule-level first, then the chosen backend's.

use alloc::borrow::{Cow, ToOwned};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use serde::Serialize;

use super::hostname;
use super::model::{HeaderFilter, HttpRouteFilter, HttpRouteMatch, PathModifier, RequestRedirect};
use super::request::GatewayRequest;
use crate::escape::{percent_encode, percent_encode_authority};

/// What a rule does with a request that matched it, decided once at compile time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum RuleAction {
    /// The rule has a RequestRedirect filter (at index `filter`), or its one backendRef with a
    /// weight has (`backend`: its index; the conformance suite's HTTPRouteBackendRequestRedirect):
    /// the proxy answers it.
    Redirect {
        filter: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        backend: Option<usize>,
    },
    /// A filter the proxy cannot apply (`ExtensionRef`, `ExternalAuth`, an unknown type, or a
    /// filter whose configuration is missing): "requests that would have been processed by that
    /// filter MUST receive a HTTP error response" (`HTTPRouteFilter.Type`): 500.
    FilterError { filter: usize },
    /// Forwarded to the backends (500 when none is valid with a weight).
    Forward,
}

/// The rule-level action: the first redirect or unusable filter decides; otherwise forward.
pub fn rule_action(filters: &[HttpRouteFilter]) -> RuleAction {
    for (i, f) in filters.iter().enumerate() {
        let usable = match f.kind.as_str() {
            "RequestRedirect" => {
                if f.request_redirect.is_some() {
                    return RuleAction::Redirect { filter: i, backend: None };
                }
                false
            }
            "RequestHeaderModifier" => f.request_header_modifier.is_some(),
            "ResponseHeaderModifier" => f.response_header_modifier.is_some(),
            "URLRewrite" => f.url_rewrite.is_some(),
            // Reported, not routed: mirrors and CORS change nothing about where a request goes.
            "RequestMirror" | "CORS" => true,
            _ => false,
        };
        if !usable {
            return RuleAction::FilterError { filter: i };
        }
    }
    RuleAction::Forward
}

/// What `rule` does: [`rule_action`] of its own filters; when it forwards and has one backendRef
/// with a weight, a RequestRedirect of that backendRef's redirects every request it takes.
pub fn action(rule: &super::model::HttpRouteRule) -> RuleAction {
    let own = rule_action(&rule.filters);
    if own != RuleAction::Forward {
        return own;
    }
    let mut weighted = rule.backend_refs.iter().enumerate().filter(|(_, b)| b.weight > 0);
    match (weighted.next(), weighted.next()) {
        (Some((backend, b)), None) => match rule_action(&b.filters) {
            RuleAction::Redirect { filter, .. } => RuleAction::Redirect { filter, backend: Some(backend) },
            _ => own,
        },
        _ => own,
    }
}

/// `ReplacePrefixMatch` as `HTTPPathModifier` defines it: the matched prefix (whole elements, its
/// trailing `/` ignored) is replaced; a trailing `/` of the replacement is dropped before what
/// follows; an empty result is `/`.
pub fn replace_prefix(path: &str, prefix: &str, replacement: &str) -> String {
    let prefix = prefix.strip_suffix('/').unwrap_or(prefix);
    let rest = path.strip_prefix(prefix).unwrap_or(path);
    let replacement = replacement.strip_suffix('/').unwrap_or(replacement);
    let mut out = String::with_capacity(replacement.len() + rest.len() + 1);
    out.push_str(replacement);
    if !rest.is_empty() && !rest.starts_with('/') {
        out.push('/');
    }
    out.push_str(rest);
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// The path (without query) after a path modifier; `matched` is the match that won (its value is
/// the prefix `ReplacePrefixMatch` replaces).
pub fn modify_path(modifier: &PathModifier, path: &str, matched: &HttpRouteMatch) -> String {
    match modifier.kind.as_str() {
        "ReplaceFullPath" => modifier.replace_full_path.clone().unwrap_or_else(|| "/".to_owned()),
        "ReplacePrefixMatch" => {
            replace_prefix(path, &matched.path.value, modifier.replace_prefix_match.as_deref().unwrap_or(""))
        }
        _ => path.to_owned(),
    }
}

/// The path and query a redirect or rewrite writes, percent-encoded ([`percent_encode`]): the path
/// may come from the manifest (`replaceFullPath`, `replacePrefixMatch`) and both from the client.
fn with_query(path: &str, query: &str) -> String {
    let mut out = String::new();
    push_with_query(&mut out, path, query);
    out
}

/// [`with_query`] written at the end of `out`.
fn push_with_query(out: &mut String, path: &str, query: &str) {
    out.push_str(&percent_encode(path.as_bytes()));
    if !query.is_empty() {
        out.push('?');
        out.push_str(&percent_encode(query.as_bytes()));
    }
}

/// The `Location` of a RequestRedirect: scheme (the request's by default), hostname (the request
/// host's, without port), port (`HTTPRequestRedirectFilter.Port`: the scheme's well-known port when
/// the filter sets a scheme, else the listener's; omitted when it is 80 for http or 443 for https),
/// path (modified, else the request's) and the request's query.
pub fn redirect_location(
    redirect: &RequestRedirect,
    request: &GatewayRequest<'_>,
    listener_port: u16,
    matched: &HttpRouteMatch,
) -> String {
    let scheme = redirect.scheme.as_deref().unwrap_or(if request.https() { "https" } else { "http" });
    let host = redirect.hostname.as_deref().unwrap_or_else(|| hostname::request_host(request.host));
    let port = redirect.port.unwrap_or(match (redirect.scheme.as_deref(), scheme) {
        (Some(_), "http") => 80,
        (Some(_), "https") => 443,
        _ => listener_port,
    });
    let path: Cow<'_, str> = match &redirect.path {
        Some(modifier) => Cow::Owned(modify_path(modifier, request.path_only(), matched)),
        None => Cow::Borrowed(request.path_only()),
    };
    // The CRD's pattern allows only DNS names in `hostname`, but the request's host is the
    // client's and `Objects::from_values` does not validate: encoded too.
    let host = percent_encode_authority(host.as_bytes());
    let query = request.query();
    // One allocation for the whole `Location` (a plain redirect allocates nothing else).
    let mut out = String::with_capacity(scheme.len() + host.len() + path.len() + query.len() + 16);
    out.push_str(scheme);
    out.push_str("://");
    // An IPv6 address (the request's, without its brackets) takes them back in a URL.
    match host.contains(':') {
        true => {
            out.push('[');
            out.push_str(&host);
            out.push(']');
        }
        false => out.push_str(&host),
    }
    if !matches!((scheme, port), ("http", 80) | ("https", 443)) {
        let _ = write!(out, ":{port}");
    }
    push_with_query(&mut out, &path, query);
    out
}

/// What the backend receives. As JSON: `{"host", "path", "headers": [[name, value], ...],
/// "responseHeaderModifiers"?: [...]}`; headers are a list of pairs, in order, so that a header
/// `add`ed to one already present shows as a second line, as the backend receives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Upstream {
    /// The `Host` header (the request's, unmodified, unless URLRewrite sets a hostname).
    pub host: String,
    /// Path and query.
    pub path: String,
    /// The request's headers after the header modifiers (names as written).
    pub headers: Vec<(String, String)>,
    /// ResponseHeaderModifier filters, in order: what the proxy does to the backend's response.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_header_modifiers: Vec<HeaderFilter>,
}

impl Upstream {
    pub fn of(request: &GatewayRequest<'_>) -> Upstream {
        Upstream {
            host: request.host.to_owned(),
            path: request.path.split('#').next().unwrap_or("").to_owned(),
            headers: request.headers.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect(),
            response_header_modifiers: Vec::new(),
        }
    }

    /// Applies URLRewrite, RequestHeaderModifier and ResponseHeaderModifier filters in order.
    pub fn apply(&mut self, filters: &[HttpRouteFilter], request: &GatewayRequest<'_>, matched: &HttpRouteMatch) {
        for filter in filters {
            if let Some(rewrite) = filter.url_rewrite.as_ref().filter(|_| filter.kind == "URLRewrite") {
                if let Some(host) = &rewrite.hostname {
                    self.host = host.clone();
                }
                if let Some(modifier) = &rewrite.path {
                    let path = modify_path(modifier, request.path_only(), matched);
                    self.path = with_query(&path, request.query());
                }
            }
            if let Some(m) = filter.request_header_modifier.as_ref().filter(|_| filter.kind == "RequestHeaderModifier")
            {
                self.modify_headers(m);
            }
            if let Some(m) =
                filter.response_header_modifier.as_ref().filter(|_| filter.kind == "ResponseHeaderModifier")
            {
                self.response_header_modifiers.push(m.clone());
            }
        }
    }

    /// `set` replaces every value of the name, `add` appends another (a separate field line, as
    /// Envoy does), `remove` drops the name; names compared without case.
    fn modify_headers(&mut self, m: &HeaderFilter) {
        for header in &m.set {
            self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&header.name));
            self.headers.push((header.name.clone(), header.value.clone()));
        }
        for header in &m.add {
            self.headers.push((header.name.clone(), header.value.clone()));
        }
        for name in &m.remove {
            self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        }
    }
}

/// One change to the headers of a forwarded request (a RequestHeaderModifier's `set`, `add` or
/// `remove`), as a proxy applies it with its own header calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderAction<'r> {
    /// Replaces every value of the name with this one.
    Set { name: &'r str, value: &'r str },
    /// Appends another value (a separate field line).
    Add { name: &'r str, value: &'r str },
    /// Drops every value of the name.
    Remove { name: &'r str },
}

/// What a proxy changes on a request it forwards to one backend: URLRewrite's host and path, and
/// the RequestHeaderModifier actions in the order they apply (the same order and results as the
/// upstream request a decision's view shows). For proxies that change the request in place: only
/// the actions are listed, the request's own headers are not copied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modifications<'r> {
    /// The `Host` (`:authority`) the backend receives instead of the request's.
    pub host: Option<&'r str>,
    /// The path and query the backend receives instead of the request's.
    pub path: Option<String>,
    pub headers: Vec<HeaderAction<'r>>,
}

impl<'r> Modifications<'r> {
    /// Collects the changes of `filters` (rule-level, then the backend's), in order.
    pub fn of(
        filters: impl Iterator<Item = &'r HttpRouteFilter>,
        request: &GatewayRequest<'_>,
        matched: &HttpRouteMatch,
    ) -> Modifications<'r> {
        let mut out = Modifications::default();
        for filter in filters {
            if let Some(rewrite) = filter.url_rewrite.as_ref().filter(|_| filter.kind == "URLRewrite") {
                if let Some(host) = &rewrite.hostname {
                    out.host = Some(host);
                }
                if let Some(modifier) = &rewrite.path {
                    out.path = Some(with_query(&modify_path(modifier, request.path_only(), matched), request.query()));
                }
            }
            if let Some(m) = filter.request_header_modifier.as_ref().filter(|_| filter.kind == "RequestHeaderModifier")
            {
                out.headers.extend(m.set.iter().map(|h| HeaderAction::Set { name: &h.name, value: &h.value }));
                out.headers.extend(m.add.iter().map(|h| HeaderAction::Add { name: &h.name, value: &h.value }));
                out.headers.extend(m.remove.iter().map(|name| HeaderAction::Remove { name }));
            }
        }
        out
    }

    /// Whether the request goes to the backend as it came.
    pub fn is_empty(&self) -> bool {
        self.host.is_none() && self.path.is_none() && self.headers.is_empty()
    }

    /// Applies the changes to `upstream` (what each action means, names compared without case).
    pub fn apply_to(&self, upstream: &mut Upstream) {
        if let Some(host) = self.host {
            upstream.host = host.to_owned();
        }
        if let Some(path) = &self.path {
            upstream.path.clone_from(path);
        }
        for action in &self.headers {
            match *action {
                HeaderAction::Set { name, value } => {
                    upstream.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    upstream.headers.push((name.to_owned(), value.to_owned()));
                }
                HeaderAction::Add { name, value } => upstream.headers.push((name.to_owned(), value.to_owned())),
                HeaderAction::Remove { name } => upstream.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::model::{Header, PathMatch, PathMatchType, UrlRewrite};
    use alloc::string::ToString;
    use alloc::vec;

    /// The ReplacePrefixMatch table of `HTTPPathModifier.ReplacePrefixMatch`
    /// (apis/v1/httproute_types.go), every row.
    #[test]
    fn replace_prefix_match_table() {
        let rows = [
            ("/foo/bar", "/foo", "/xyz", "/xyz/bar"),
            ("/foo/bar", "/foo", "/xyz/", "/xyz/bar"),
            ("/foo/bar", "/foo/", "/xyz", "/xyz/bar"),
            ("/foo/bar", "/foo/", "/xyz/", "/xyz/bar"),
            ("/foo", "/foo", "/xyz", "/xyz"),
            ("/foo/", "/foo", "/xyz", "/xyz/"),
            ("/foo/bar", "/foo", "", "/bar"),
            ("/foo/", "/foo", "", "/"),
            ("/foo", "/foo", "", "/"),
            ("/foo/", "/foo", "/", "/"),
            ("/foo", "/foo", "/", "/"),
        ];
        for (path, prefix, replacement, expected) in rows {
            assert_eq!(replace_prefix(path, prefix, replacement), expected, "{path} {prefix} {replacement:?}");
        }
        assert_eq!(replace_prefix("/foo", "/", "/xyz"), "/xyz/foo");
    }

    fn prefix(value: &str) -> HttpRouteMatch {
        HttpRouteMatch {
            path: PathMatch { kind: PathMatchType::PathPrefix, value: value.to_string() },
            ..Default::default()
        }
    }

    #[test]
    fn redirect_ports_follow_the_scheme() {
        let request = GatewayRequest::new("foo.com:8080", "/a?x=1");
        let m = prefix("/");
        let loc = |r: RequestRedirect, port| redirect_location(&r, &request, port, &m);
        let base = RequestRedirect::default();
        assert_eq!(loc(base.clone(), 8080), "http://foo.com:8080/a?x=1");
        assert_eq!(loc(base.clone(), 80), "http://foo.com/a?x=1");
        let https = RequestRedirect { scheme: Some("https".to_string()), ..base.clone() };
        assert_eq!(loc(https.clone(), 8080), "https://foo.com/a?x=1");
        assert_eq!(loc(RequestRedirect { port: Some(8443), ..https }, 80), "https://foo.com:8443/a?x=1");
        let host = RequestRedirect { hostname: Some("bar.com".to_string()), port: Some(80), ..base };
        assert_eq!(loc(host, 8080), "http://bar.com/a?x=1");
    }

    #[test]
    fn header_modifiers_and_rewrites() {
        let headers = [("My-Header", "foo"), ("drop", "x"), ("keep", "y")];
        let request = GatewayRequest::new("a.com", "/foo/bar?q=1").with_headers(&headers);
        let mut upstream = Upstream::of(&request);
        let filters = vec![
            HttpRouteFilter {
                kind: "RequestHeaderModifier".to_string(),
                request_header_modifier: Some(HeaderFilter {
                    set: vec![Header { name: "my-header".to_string(), value: "bar".to_string() }],
                    add: vec![Header { name: "keep".to_string(), value: "z".to_string() }],
                    remove: vec!["DROP".to_string()],
                }),
                ..Default::default()
            },
            HttpRouteFilter {
                kind: "URLRewrite".to_string(),
                url_rewrite: Some(UrlRewrite {
                    hostname: Some("b.com".to_string()),
                    path: Some(PathModifier {
                        kind: "ReplacePrefixMatch".to_string(),
                        replace_full_path: None,
                        replace_prefix_match: Some("/xyz".to_string()),
                    }),
                }),
                ..Default::default()
            },
        ];
        upstream.apply(&filters, &request, &prefix("/foo"));
        assert_eq!((upstream.host.as_str(), upstream.path.as_str()), ("b.com", "/xyz/bar?q=1"));
        let pairs: Vec<(&str, &str)> = upstream.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(pairs, vec![("keep", "y"), ("my-header", "bar"), ("keep", "z")]);
        assert_eq!(rule_action(&filters), RuleAction::Forward);
        // The same changes as a list of actions, applied in order, give the same request.
        let mut listed = Upstream::of(&request);
        let m = Modifications::of(filters.iter(), &request, &prefix("/foo"));
        assert_eq!((m.host, m.path.as_deref(), m.headers.len()), (Some("b.com"), Some("/xyz/bar?q=1"), 3));
        m.apply_to(&mut listed);
        assert_eq!(listed, upstream);
        assert!(Modifications::of([].iter(), &request, &prefix("/")).is_empty());
        let ext = HttpRouteFilter { kind: "ExtensionRef".to_string(), ..Default::default() };
        assert_eq!(rule_action(&[ext]), RuleAction::FilterError { filter: 0 });
    }
}
