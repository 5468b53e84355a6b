//! The request a Gateway routes: scheme, host, port, method, path with query, headers. Borrowed:
//! building one never allocates.

use core::fmt;

use super::hostname;

/// A request to route through a Gateway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GatewayRequest<'a> {
    /// `http` or `https`: picks `HTTP` or `HTTPS` listeners, and is the redirect's default scheme.
    pub scheme: &'a str,
    /// The `Host` header or `:authority` (port, case and a trailing dot allowed).
    pub host: &'a str,
    /// The port the request arrived on; `None`: the `Host` header's, else 80 or 443 by scheme.
    pub port: Option<u16>,
    /// Upper case, as HTTP sends it (`HTTPMethod` values are compared as written).
    pub method: &'a str,
    /// The request target: path, optionally `?query` (and a `#fragment`, ignored).
    pub path: &'a str,
    pub headers: &'a [(&'a str, &'a str)],
}

impl<'a> GatewayRequest<'a> {
    /// A `GET` over http.
    pub fn new(host: &'a str, path: &'a str) -> Self {
        GatewayRequest { scheme: "http", host, port: None, method: "GET", path, headers: &[] }
    }

    pub fn with_method(mut self, method: &'a str) -> Self {
        self.method = method;
        self
    }

    pub fn with_headers(mut self, headers: &'a [(&'a str, &'a str)]) -> Self {
        self.headers = headers;
        self
    }

    pub fn with_scheme(mut self, scheme: &'a str) -> Self {
        self.scheme = scheme;
        self
    }

    pub fn with_port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
    }

    /// Reads `scheme://host[:port]/path?query` (`http` when the scheme is absent).
    pub fn from_url(url: &'a str) -> Result<Self, UrlError> {
        let (scheme, rest) = match url.split_once("://") {
            Some((scheme @ ("http" | "https"), rest)) => (scheme, rest),
            Some((other, _)) => return Err(UrlError::Scheme(other.len())),
            None => ("http", url),
        };
        let split = rest.find(['/', '?']).unwrap_or(rest.len());
        let (host, path) = rest.split_at(split);
        if host.is_empty() {
            return Err(UrlError::NoHost);
        }
        if host.bytes().any(|b| b.is_ascii_whitespace() || b.is_ascii_control()) {
            return Err(UrlError::Host);
        }
        check_port(host)?;
        let path = if path.is_empty() { "/" } else { path };
        let mut request = GatewayRequest::new(host, path).with_scheme(scheme);
        if path.starts_with('?') {
            // `http://h?q=1`: the path is `/`; the query is kept with it.
            request.path = path;
        }
        Ok(request)
    }

    pub fn https(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("https")
    }

    /// The port the request arrived on (see [`port`](Self::port)).
    pub fn effective_port(&self) -> u16 {
        self.port.or_else(|| hostname::host_port(self.host)).unwrap_or(if self.https() { 443 } else { 80 })
    }

    /// The path without query and fragment (`/` when the target starts with `?`).
    pub fn path_only(&self) -> &'a str {
        let end = self.path.find(['?', '#']).unwrap_or(self.path.len());
        if end == 0 { "/" } else { &self.path[..end] }
    }

    /// The query without `?` (and without a fragment); empty when there is none.
    pub fn query(&self) -> &'a str {
        let Some(start) = self.path.find('?') else { return "" };
        let query = &self.path[start + 1..];
        query.split('#').next().unwrap_or(query)
    }
}

/// A port after the host (`host:port`, `[v6]:port`) must be a number from 1 to 65535.
fn check_port(host: &str) -> Result<(), UrlError> {
    let after_name = match host.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(_, after)| after),
        None => host,
    };
    let Some((name, port)) = after_name.rsplit_once(':') else { return Ok(()) };
    if name.is_empty() && !host.starts_with('[') {
        return Err(UrlError::NoHost);
    }
    match port.parse::<u16>() {
        Ok(p) if p > 0 && port.bytes().all(|b| b.is_ascii_digit()) => Ok(()),
        _ => Err(UrlError::Port),
    }
}

/// Why a URL could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlError {
    NoHost,
    /// A scheme other than `http` or `https` (its length).
    Scheme(usize),
    /// The port after the host is not a number from 1 to 65535.
    Port,
    /// The host holds a space or a control character.
    Host,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::NoHost => f.write_str("the URL has no host"),
            UrlError::Scheme(_) => f.write_str("the URL's scheme is neither http nor https"),
            UrlError::Port => f.write_str("the URL's port is not a number from 1 to 65535"),
            UrlError::Host => f.write_str("the URL's host holds a space or a control character"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let r = GatewayRequest::from_url("https://Foo.com:8443/a/b?x=1&y=2#f").unwrap();
        assert_eq!(
            (r.scheme, r.host, r.path_only(), r.query(), r.effective_port()),
            ("https", "Foo.com:8443", "/a/b", "x=1&y=2", 8443)
        );
        let r = GatewayRequest::from_url("foo.com").unwrap();
        assert_eq!((r.path_only(), r.effective_port()), ("/", 80));
        let r = GatewayRequest::from_url("https://foo.com?q=1").unwrap();
        assert_eq!((r.path_only(), r.query(), r.effective_port()), ("/", "q=1", 443));
        assert_eq!(GatewayRequest::from_url("ftp://x").unwrap_err(), UrlError::Scheme(3));
        assert_eq!(GatewayRequest::from_url("http:///a").unwrap_err(), UrlError::NoHost);
        assert_eq!(GatewayRequest::new("h", "/").with_port(81).effective_port(), 81);
        assert_eq!(GatewayRequest::from_url("http://h:8080/").unwrap().effective_port(), 8080);
        assert_eq!(GatewayRequest::from_url("http://[::1]:81/").unwrap().effective_port(), 81);
        assert!(GatewayRequest::from_url("http://[::1]/").is_ok());
        for bad in ["http://h:x/", "http://h:70000/", "http://h:0/", "http://h:/", "http://h:+1/"] {
            assert_eq!(GatewayRequest::from_url(bad).unwrap_err(), UrlError::Port, "{bad}");
        }
        assert_eq!(GatewayRequest::from_url("http://:80/").unwrap_err(), UrlError::NoHost);
        assert_eq!(GatewayRequest::from_url("http://a b/").unwrap_err(), UrlError::Host);
    }
}
