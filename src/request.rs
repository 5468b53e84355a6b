//! The request being routed: its host and its path.

use core::fmt;

/// A request to route. Borrowed bytes: building one never allocates, and bytes that are not
/// UTF-8 are routed as bytes (they simply match no rule that does not contain them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request<'a> {
    /// The `Host` header or `:authority`, as received (port, case and trailing dot allowed).
    pub host: &'a [u8],
    /// The request target's path, as received (query and fragment allowed; they are ignored).
    pub path: &'a [u8],
}

impl<'a> Request<'a> {
    pub fn new(host: &'a str, path: &'a str) -> Self {
        Request { host: host.as_bytes(), path: path.as_bytes() }
    }

    pub fn from_bytes(host: &'a [u8], path: &'a [u8]) -> Self {
        Request { host, path }
    }

    /// Reads `scheme://host[:port]/path?query` (the scheme is optional: `host/path` works too).
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
        Ok(Request::new(host, path))
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
        assert_eq!(r.path, b"/cart?x=1");
        let r = Request::from_url("example.com").unwrap();
        assert_eq!((r.host, r.path), (&b"example.com"[..], &b"/"[..]));
        let r = Request::from_url("http://example.com?q").unwrap();
        assert_eq!(r.path, b"/");
        assert_eq!(Request::from_url("http://"), Err(UrlError::NoHost));
        assert_eq!(Request::from_url("http:///path"), Err(UrlError::NoHost));
    }
}
