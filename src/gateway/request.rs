//! The request a Gateway routes: scheme, host, port, method, path with query, headers. Borrowed:
//! building one never allocates.

use super::hostname;
pub use crate::url::UrlError;

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

    /// Reads `scheme://host[:port]/path?query` by the rules in [`UrlError`], as the Ingress
    /// router's [`Request::from_url`](crate::Request::from_url) does; the URL's port picks the
    /// listener.
    pub fn from_url(url: &'a str) -> Result<Self, UrlError> {
        let url = crate::url::parse(url)?;
        let scheme = if url.https { "https" } else { "http" };
        let mut request = GatewayRequest::new(url.host, url.target).with_scheme(scheme);
        request.port = url.port;
        Ok(request)
    }

    /// `request` as the Gateway API reads it; `None` when its host or path is not UTF-8 (no
    /// Gateway API hostname or path matches such bytes).
    pub(crate) fn of(request: &crate::Request<'a>) -> Option<Self> {
        let (host, path) = request.text()?;
        let scheme = match request.scheme {
            crate::Scheme::Https => "https",
            _ => "http",
        };
        let method = if request.method.is_empty() { "GET" } else { request.method };
        let gateway = GatewayRequest { scheme, host, port: request.port, method, path, headers: request.headers };
        Some(gateway)
    }

    /// This request as the crate's [`Request`](crate::Request).
    pub fn as_request(&self) -> crate::Request<'a> {
        let scheme = if self.https() { crate::Scheme::Https } else { crate::Scheme::Http };
        let mut request = crate::Request::new(self.host, self.path).with_scheme(scheme).with_method(self.method);
        request.port = self.port;
        request.with_headers(self.headers)
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
        // memchr, not `str::find` with a char set: that reads a char at a time (issue 29's bench).
        let end = memchr::memchr2(b'?', b'#', self.path.as_bytes()).unwrap_or(self.path.len());
        if end == 0 { "/" } else { &self.path[..end] }
    }

    /// The query without `?` (and without a fragment); empty when there is none.
    pub fn query(&self) -> &'a str {
        let bytes = self.path.as_bytes();
        let Some(start) = memchr::memchr2(b'?', b'#', bytes).filter(|&i| bytes[i] == b'?') else { return "" };
        let query = &self.path[start + 1..];
        &query[..memchr::memchr(b'#', query.as_bytes()).unwrap_or(query.len())]
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
        assert_eq!(GatewayRequest::from_url("ftp://x").unwrap_err(), UrlError::Scheme);
        assert_eq!(GatewayRequest::from_url("http:///a").unwrap_err(), UrlError::NoHost);
        assert_eq!(GatewayRequest::new("h", "/").with_port(81).effective_port(), 81);
        assert_eq!(GatewayRequest::from_url("http://h:8080/").unwrap().effective_port(), 8080);
        assert_eq!(GatewayRequest::from_url("http://[::1]:81/").unwrap().effective_port(), 81);
        assert!(GatewayRequest::from_url("http://[::1]/").is_ok());
        // An empty port is the default one (the URL rules in `crate::url`).
        assert_eq!(GatewayRequest::from_url("http://h:/").unwrap().effective_port(), 80);
        for bad in ["http://h:x/", "http://h:70000/", "http://h:+1/"] {
            assert_eq!(GatewayRequest::from_url(bad).unwrap_err(), UrlError::Port, "{bad}");
        }
        assert_eq!(GatewayRequest::from_url("http://:80/").unwrap_err(), UrlError::NoHost);
        assert_eq!(GatewayRequest::from_url("http://a b/").unwrap_err(), UrlError::Host);
    }
}
