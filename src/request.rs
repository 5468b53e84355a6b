//! The request being routed: its host and its path, and (for profiles that read them) its scheme
//! and headers.

use core::fmt;

/// A request to route. Borrowed bytes: building one never allocates, and bytes that are not
/// UTF-8 are routed as bytes (they simply match no rule that does not contain them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request<'a> {
    /// The `Host` header or `:authority`, as received (port, case and trailing dot allowed).
    pub host: &'a [u8],
    /// The request target's path, as received (query and fragment allowed; the spec profile
    /// ignores them).
    pub path: &'a [u8],
    /// `http` unless told otherwise; the ingress-nginx profile's TLS redirects read it.
    pub scheme: Scheme,
    /// Request headers as `(name, value)` pairs; the ingress-nginx profile's canaries read them
    /// (and their cookies from `Cookie`). The spec profile ignores them.
    pub headers: &'a [(&'a str, &'a str)],
}

/// The scheme a request arrived with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scheme {
    #[default]
    Http,
    Https,
}

impl<'a> Request<'a> {
    pub fn new(host: &'a str, path: &'a str) -> Self {
        Request::from_bytes(host.as_bytes(), path.as_bytes())
    }

    pub fn from_bytes(host: &'a [u8], path: &'a [u8]) -> Self {
        Request { host, path, scheme: Scheme::Http, headers: &[] }
    }

    /// The request's headers (borrowed: building the request still allocates nothing).
    pub fn with_headers(mut self, headers: &'a [(&'a str, &'a str)]) -> Self {
        self.headers = headers;
        self
    }

    pub fn with_scheme(mut self, scheme: Scheme) -> Self {
        self.scheme = scheme;
        self
    }

    /// Reads `scheme://host[:port]/path?query` (the scheme is optional: `host/path` works too;
    /// `https://` sets [`Scheme::Https`]).
    pub fn from_url(url: &'a str) -> Result<Self, UrlError> {
        let rest = match url.find("://") {
            Some(i) if url[..i].bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) && i > 0 => {
                &url[i + 3..]
            }
            _ => url,
        };
        if rest.is_empty() {
            return Err(UrlError::NoHost);
        }
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..authority_end];
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if host.is_empty() {
            return Err(UrlError::NoHost);
        }
        if host.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(UrlError::Whitespace);
        }
        let target = &rest[authority_end..];
        let path = if target.is_empty() || !target.starts_with('/') { "/" } else { target };
        let https = url.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://"));
        Ok(Request::new(host, path).with_scheme(if https { Scheme::Https } else { Scheme::Http }))
    }
}

/// Why a URL could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlError {
    /// Nothing between `scheme://` and the path.
    NoHost,
    /// The host contains whitespace.
    Whitespace,
}

impl core::error::Error for UrlError {}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::NoHost => f.write_str("the URL has no host (write it as http://host/path)"),
            UrlError::Whitespace => f.write_str("the URL's host contains whitespace"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let r = Request::from_url("https://user@Shop.example.com:8443/cart?x=1").unwrap();
        assert_eq!(r.host, b"Shop.example.com:8443");
        assert_eq!((r.path, r.scheme), (&b"/cart?x=1"[..], Scheme::Https));
        let r = Request::from_url("example.com").unwrap();
        assert_eq!((r.host, r.path, r.scheme), (&b"example.com"[..], &b"/"[..], Scheme::Http));
        let r = Request::from_url("http://example.com?q").unwrap();
        assert_eq!(r.path, b"/");
        assert_eq!(Request::from_url("http://"), Err(UrlError::NoHost));
        assert_eq!(Request::from_url("http:///path"), Err(UrlError::NoHost));
    }
}
