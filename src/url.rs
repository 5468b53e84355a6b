//! The one URL reader every home uses (the CLI's arguments, npm's `route(url)`, the playground,
//! tests files), for Ingress and Gateway API routing alike. A proxy never reads a URL: it hands
//! `:authority` and `:path` as they are.
//!
//! The rules are [`UrlError`]'s documentation, as doc-tests.

use core::fmt;

/// A URL read: what a client sends for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Url<'a> {
    /// `https://` (any case); otherwise `http`.
    pub https: bool,
    /// The `Host` header: the host, and `:port` when the URL has one.
    pub host: &'a str,
    /// The port the URL names, if any.
    pub port: Option<u16>,
    /// The request target: the path and `?query`, without the fragment; `/` when there is
    /// neither; `?query` alone when the URL has a query and no path.
    pub target: &'a str,
}

/// Why a URL could not be read ([`Request::from_url`](crate::Request::from_url), and the same for
/// every kind of input).
///
/// The URL rules, as the WHATWG URL standard and RFC 3986 read an `http(s)` URL, each a doc-test:
///
/// ```
/// use ingress_router::{Request, Scheme, UrlError};
/// let read = |url| Request::from_url(url).map(|r| (r.scheme, r.host, r.path));
/// // The scheme, in any case; none is `http`.
/// assert_eq!(read("HTTPS://shop.example.com/cart"), Ok((Scheme::Https, &b"shop.example.com"[..], &b"/cart"[..])));
/// assert_eq!(read("shop.example.com/cart"), Ok((Scheme::Http, &b"shop.example.com"[..], &b"/cart"[..])));
/// // Another scheme is refused, and so is `http:` without `//` (it has no host).
/// assert_eq!(read("ftp://shop.example.com/"), Err(UrlError::Scheme));
/// assert_eq!(read("http:shop.example.com/a"), Err(UrlError::NoHost));
/// // A host with a port and no scheme is a host, not a scheme.
/// assert_eq!(read("localhost:8080/a"), Ok((Scheme::Http, &b"localhost:8080"[..], &b"/a"[..])));
/// // Userinfo is not part of the host.
/// assert_eq!(read("https://user:pw@shop.example.com/a"), Ok((Scheme::Https, &b"shop.example.com"[..], &b"/a"[..])));
/// // The host keeps its port (the Host header a client sends); an empty port is the default one.
/// assert_eq!(read("http://shop.example.com:8080/a").unwrap().1, b"shop.example.com:8080");
/// assert_eq!(read("http://shop.example.com:/a").unwrap().1, b"shop.example.com");
/// // A port is decimal digits up to 65535.
/// for bad in ["http://h:99999/", "http://h:0x50/", "http://h:-1/", "http://h:8a/"] {
///     assert_eq!(read(bad), Err(UrlError::Port), "{bad}");
/// }
/// // IPv6 literals in brackets, with or without a port.
/// assert_eq!(read("http://[::1]:8080/a").unwrap().1, b"[::1]:8080");
/// assert_eq!(read("http://[::1]/a").unwrap().1, b"[::1]");
/// // The host ends at `/`, `?` or `#`; the fragment is never sent.
/// assert_eq!(read("http://h#frag/a"), Ok((Scheme::Http, &b"h"[..], &b"/"[..])));
/// assert_eq!(read("http://h/a?q=1#f"), Ok((Scheme::Http, &b"h"[..], &b"/a?q=1"[..])));
/// // A query without a path is the root's (the Ingress router reads no query; a Gateway's does).
/// assert_eq!(read("http://h?q=1").unwrap().2, b"/");
/// // A host with whitespace, a control character or a percent-encoding is refused (a proxy would
/// // get the bytes as written: write the host as it is).
/// assert_eq!(read("http://a b/"), Err(UrlError::Host));
/// assert_eq!(read("http://sh%6Fp.example.com/"), Err(UrlError::Host));
/// assert_eq!(read("http:///a"), Err(UrlError::NoHost));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlError {
    /// Nothing between `scheme://` and the path.
    NoHost,
    /// A scheme other than `http` or `https`.
    Scheme,
    /// The port after the host is not a number up to 65535.
    Port,
    /// The host holds whitespace, a control character or a percent-encoding.
    Host,
}

impl core::error::Error for UrlError {}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UrlError::NoHost => "the URL has no host (write it as http://host/path)",
            UrlError::Scheme => "the URL's scheme is neither http nor https",
            UrlError::Port => "the URL's port is not a number up to 65535",
            UrlError::Host => "the URL's host holds whitespace, a control character or a percent-encoding",
        })
    }
}

/// Reads `[scheme://][userinfo@]host[:port][/path][?query][#fragment]`.
pub(crate) fn parse(url: &str) -> Result<Url<'_>, UrlError> {
    let (https, rest) = split_scheme(url)?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let (host, name, port) = split_port(host)?;
    if name.is_empty() || name == "[]" {
        return Err(UrlError::NoHost);
    }
    if host.bytes().any(|b| b.is_ascii_whitespace() || b.is_ascii_control() || b == b'%') {
        return Err(UrlError::Host);
    }
    let target = &rest[authority_end..];
    let target = target.split('#').next().unwrap_or_default();
    let target = if target.is_empty() { "/" } else { target };
    Ok(Url { https, host, port, target })
}

/// Whether the scheme (any case) is `https`, and what follows `://`; no scheme is `http`.
fn split_scheme(url: &str) -> Result<(bool, &str), UrlError> {
    if let Some((scheme, rest)) = url.split_once("://")
        && !scheme.is_empty()
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return match scheme {
            s if s.eq_ignore_ascii_case("http") => Ok((false, rest)),
            s if s.eq_ignore_ascii_case("https") => Ok((true, rest)),
            _ => Err(UrlError::Scheme),
        };
    }
    // `http:host/a` names the scheme but no authority.
    if let Some((scheme, _)) = url.split_once(':')
        && (scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
    {
        return Err(UrlError::NoHost);
    }
    Ok((false, url))
}

/// `host[:port]` with the port checked: the Host header (an empty port dropped), the name, and
/// the port.
fn split_port(host: &str) -> Result<(&str, &str, Option<u16>), UrlError> {
    let name_end = match host.strip_prefix('[') {
        Some(rest) => rest.find(']').map_or(host.len(), |i| i + 2),
        None => host.find(':').unwrap_or(host.len()),
    };
    let name = &host[..name_end];
    let Some(port) = host[name_end..].strip_prefix(':') else {
        return if name_end == host.len() { Ok((host, name, None)) } else { Err(UrlError::Port) };
    };
    if port.is_empty() {
        return Ok((name, name, None));
    }
    if !port.bytes().all(|b| b.is_ascii_digit()) || port.len() > 5 {
        return Err(UrlError::Port);
    }
    let number: u32 = port.parse().map_err(|_| UrlError::Port)?;
    let number = u16::try_from(number).map_err(|_| UrlError::Port)?;
    Ok((host, name, Some(number)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_and_hosts() {
        let u = parse("https://user@[::1]:443/a").unwrap();
        assert_eq!((u.host, u.port), ("[::1]:443", Some(443)));
        assert_eq!(parse("http://h:0/").unwrap().port, Some(0));
        assert_eq!(parse("http://h:65535/").unwrap().port, Some(65535));
        assert_eq!(parse("http://h:65536/"), Err(UrlError::Port));
        assert_eq!(parse("http://h:000080/"), Err(UrlError::Port));
        assert_eq!(parse("http://[::1]x/"), Err(UrlError::Port));
        assert_eq!(parse("http://:80/"), Err(UrlError::NoHost));
        assert_eq!(parse("http://user@/a"), Err(UrlError::NoHost));
        assert_eq!(parse(""), Err(UrlError::NoHost));
        assert!(!parse("Http://h").unwrap().https);
        assert!(parse("hTTPs://h").unwrap().https);
        assert_eq!(parse("h?q#f").unwrap().target, "?q");
        assert_eq!(parse("h#f").unwrap().target, "/");
    }
}
