//! The request being routed: its host and its path, and (for profiles that read them) its scheme
//! and headers.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize};

pub use crate::url::UrlError;

/// A request to route. Borrowed bytes: building one never allocates, and bytes that are not
/// UTF-8 are routed as bytes (they simply match no rule that does not contain them).
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct Request<'a> {
    /// The `Host` header or `:authority`, as received (port, case and trailing dot allowed).
    pub host: &'a [u8],
    /// The request target's path, as received (query and fragment allowed; the spec profile
    /// ignores them).
    pub path: &'a [u8],
    /// `http` unless told otherwise; the ingress-nginx profile's TLS redirects read it.
    pub scheme: Scheme,
    /// Request headers as `(name, value)` pairs; the ingress-nginx profile's canaries read them
    /// (and their cookies from `Cookie`), the Gateway API's header matches too. The spec profile
    /// ignores them.
    pub headers: &'a [(&'a str, &'a str)],
    /// Upper case, as HTTP sends it (`""` reads as `GET`); the Gateway API's method matches read it.
    pub method: &'a str,
    /// The port the request arrived on; `None`: the host's, else 80 or 443 by scheme. Picks the
    /// Gateway's listener.
    pub port: Option<u16>,
    /// `host` and `path` as the `&str`s [`new`](Self::new) was given: the Gateway API reads text,
    /// and checking UTF-8 again was a tenth of its lookup. Used only while `host` and `path` are
    /// still those very slices (see [`text`](Self::text)).
    #[cfg_attr(not(feature = "gateway"), allow(dead_code))]
    text: Option<(&'a str, &'a str)>,
}

/// Two requests are the same request whatever they were built from.
impl PartialEq for Request<'_> {
    fn eq(&self, other: &Request<'_>) -> bool {
        (self.host, self.path, self.scheme, self.headers, self.method, self.port)
            == (other.host, other.path, other.scheme, other.headers, other.method, other.port)
    }
}

impl Eq for Request<'_> {}

/// The scheme a request arrived with (`http` or `https` in JSON and tests files).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Scheme {
    #[default]
    Http,
    Https,
}

/// `http` or `https`; anything else is an error that names the scheme.
impl<'de> Deserialize<'de> for Scheme {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match &*alloc::borrow::Cow::<'de, str>::deserialize(d)? {
            "http" => Ok(Scheme::Http),
            "https" => Ok(Scheme::Https),
            other => Err(serde::de::Error::custom(format_args!("unknown scheme {other:?}: expected http or https"))),
        }
    }
}

impl<'a> Request<'a> {
    pub fn new(host: &'a str, path: &'a str) -> Self {
        Request { text: Some((host, path)), ..Request::from_bytes(host.as_bytes(), path.as_bytes()) }
    }

    pub fn from_bytes(host: &'a [u8], path: &'a [u8]) -> Self {
        Request { host, path, scheme: Scheme::Http, headers: &[], method: "GET", port: None, text: None }
    }

    /// `host` and `path` as text: the ones [`new`](Self::new) was given while the fields still
    /// hold them (they are public, so a caller may have replaced them), else checked now.
    #[cfg_attr(not(feature = "gateway"), allow(dead_code))]
    pub(crate) fn text(&self) -> Option<(&'a str, &'a str)> {
        match self.text {
            Some((host, path))
                if core::ptr::eq(host.as_bytes(), self.host) && core::ptr::eq(path.as_bytes(), self.path) =>
            {
                Some((host, path))
            }
            _ => Some((core::str::from_utf8(self.host).ok()?, core::str::from_utf8(self.path).ok()?)),
        }
    }

    /// Whether this is a gRPC call: a `POST` whose `content-type` is `application/grpc`, alone or
    /// followed by `+` (`application/grpc+proto`) or `;` (parameters), as the gRPC-over-HTTP/2
    /// specification writes it. A gRPC client reads the answer to one as a gRPC status
    /// ([`DecisionView::grpc_status`](crate::DecisionView::grpc_status)).
    ///
    /// ```
    /// use ingress_router::Request;
    /// let headers = [("Content-Type", "application/grpc+proto")];
    /// let call = Request::new("grpc.example.com", "/pkg.Svc/Get").with_method("POST").with_headers(&headers);
    /// assert!(call.is_grpc());
    /// assert!(!call.with_method("GET").is_grpc());
    /// let json = [("content-type", "application/grpc-web")];
    /// assert!(!Request::new("h", "/s/m").with_method("POST").with_headers(&json).is_grpc());
    /// ```
    pub fn is_grpc(&self) -> bool {
        self.method == "POST"
            && self.headers.iter().any(|(name, value)| {
                name.eq_ignore_ascii_case("content-type")
                    && value.get(..16).is_some_and(|v| v.eq_ignore_ascii_case("application/grpc"))
                    && matches!(value.as_bytes().get(16), None | Some(b'+' | b';'))
            })
    }

    /// For a gRPC call ([`is_grpc`](Self::is_grpc)) a proxy answers `http_status` itself
    /// (`unavailable`: no backend could take it): the gRPC status its client reads, as the
    /// GRPCRoute specification and gRPC's HTTP-to-gRPC status mapping say: `14` UNAVAILABLE when
    /// unavailable (and for 429, 502, 503, 504), `12` UNIMPLEMENTED for 404, `13` INTERNAL for 400,
    /// `16` UNAUTHENTICATED for 401, `7` PERMISSION_DENIED for 403, `2` UNKNOWN otherwise. `None`
    /// for other requests and for answers below 400 (forwarded, or redirected).
    ///
    /// ```
    /// use ingress_router::Request;
    /// let headers = [("content-type", "application/grpc")];
    /// let call = Request::new("h", "/pkg.Svc/Get").with_method("POST").with_headers(&headers);
    /// assert_eq!((call.grpc_status(404, false), call.grpc_status(500, true)), (Some(12), Some(14)));
    /// assert_eq!((call.grpc_status(200, false), Request::new("h", "/").grpc_status(404, false)), (None, None));
    /// ```
    pub fn grpc_status(&self, http_status: u16, unavailable: bool) -> Option<u8> {
        if !self.is_grpc() || http_status < 400 {
            return None;
        }
        Some(match http_status {
            _ if unavailable => 14,
            400 => 13,
            401 => 16,
            403 => 7,
            404 => 12,
            429 | 502 | 503 | 504 => 14,
            _ => 2,
        })
    }

    /// The request's method (`GET` unless told otherwise).
    pub fn with_method(mut self, method: &'a str) -> Self {
        self.method = method;
        self
    }

    /// The port the request arrived on, when it is not the host's own.
    pub fn with_port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
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

    /// Reads `scheme://host[:port]/path?query` by the rules in [`UrlError`] (the scheme is
    /// optional: `host/path` works too; `https://` sets [`Scheme::Https`]). A query without a
    /// path routes as `/` (the Ingress router reads no query).
    pub fn from_url(url: &'a str) -> Result<Self, UrlError> {
        let url = crate::url::parse(url)?;
        // `http://host?q` routes as `/`: every router reads a path that starts with `/`.
        let path = if url.target.starts_with('/') { url.target } else { "/" };
        let mut request =
            Request::new(url.host, path).with_scheme(if url.https { Scheme::Https } else { Scheme::Http });
        request.port = url.port;
        Ok(request)
    }
}

/// A request as people and tools write it: in a tests file, as the npm package's `route()`
/// argument, from the CLI's arguments. `url`, or `host` and `path`; then the `scheme` (else the
/// URL's, else `http`), the `method` (default `GET`; the Gateway API matches it), and the `headers`. Every profile accepts every field and reads what
/// it needs.
///
/// ```
/// use ingress_router::RequestSpec;
/// let spec: RequestSpec = serde_json::from_str(r#"{"url": "https://shop.example.com/cart", "method": "GET"}"#).unwrap();
/// let host = spec.with(|request| request.host.to_vec()).unwrap();
/// assert_eq!(host, b"shop.example.com");
/// // `headers: null` (or `undefined` in JavaScript) is no headers.
/// assert!(serde_json::from_str::<RequestSpec>(r#"{"host": "a", "path": "/", "headers": null}"#).is_ok());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RequestSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<Scheme>,
    /// By name, as given (the profiles compare names without case).
    #[serde(default, deserialize_with = "null_as_empty", skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// The port the request arrived on, when it is not the host's (a `Host: a.example.com:1234`
    /// sent to port 80): the Gateway API picks the listener by it and matches hostnames without
    /// the `Host` header's port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// A gRPC call, `SERVICE/METHOD` (`echo.v1.Echo/Echo`): the path `/SERVICE/METHOD`, method
    /// `POST` and `content-type: application/grpc` unless `method` and a `content-type` header are
    /// given. With `host` (no `path`) or a `url` whose path is `/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grpc: Option<String>,
}

fn null_as_empty<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    Ok(Option::deserialize(d)?.unwrap_or_default())
}

impl RequestSpec {
    /// A request for `url` (`scheme://host/path?query`).
    pub fn url(url: impl Into<String>) -> Self {
        RequestSpec { url: Some(url.into()), ..RequestSpec::default() }
    }

    /// A request for `path` on `host`, both as received.
    pub fn parts(host: impl Into<String>, path: impl Into<String>) -> Self {
        RequestSpec { host: Some(host.into()), path: Some(path.into()), ..RequestSpec::default() }
    }

    /// Calls `f` with the request the router reads; an error says what is wrong with the spec.
    ///
    /// ```
    /// use ingress_router::RequestSpec;
    /// let call: RequestSpec = serde_json::from_str(r#"{"host": "grpc.example.com", "grpc": "echo.v1.Echo/Echo"}"#).unwrap();
    /// let (path, grpc) = call.with(|r| (r.path.to_vec(), r.is_grpc())).unwrap();
    /// assert_eq!((path.as_slice(), grpc), (&b"/echo.v1.Echo/Echo"[..], true));
    /// let bad: RequestSpec = serde_json::from_str(r#"{"host": "h", "grpc": "echo.v1.Echo"}"#).unwrap();
    /// assert!(bad.with(|_| ()).unwrap_err().to_string().contains("SERVICE/METHOD"));
    /// ```
    pub fn with<T>(&self, f: impl FnOnce(&Request<'_>) -> T) -> Result<T, RequestSpecError> {
        let headers: Vec<(&str, &str)> = self.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        RequestFields {
            url: self.url.as_deref(),
            host: self.host.as_deref(),
            path: self.path.as_deref(),
            method: self.method.as_deref(),
            scheme: self.scheme,
            headers: &headers,
            port: self.port,
            grpc: self.grpc.as_deref(),
        }
        .with(f)
    }
}

/// A [`RequestSpec`] borrowed: the same fields as text someone else holds (the npm package reads
/// them from a buffer JavaScript wrote), read by the same rules. `headers` in the order a
/// `RequestSpec` holds them: by name, in byte order, each name once. Building one allocates
/// nothing, and neither does [`with`](Self::with) unless the request is a gRPC call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestFields<'a> {
    pub url: Option<&'a str>,
    pub host: Option<&'a str>,
    pub path: Option<&'a str>,
    pub method: Option<&'a str>,
    pub scheme: Option<Scheme>,
    pub headers: &'a [(&'a str, &'a str)],
    pub port: Option<u16>,
    pub grpc: Option<&'a str>,
}

impl RequestFields<'_> {
    /// Calls `f` with the request the router reads, as [`RequestSpec::with`] does for the same
    /// fields (which it calls); an error says what is wrong with them.
    pub fn with<T>(&self, f: impl FnOnce(&Request<'_>) -> T) -> Result<T, RequestSpecError> {
        let grpc_path = match self.grpc {
            Some(call) => Some(grpc_path(call).ok_or_else(|| RequestSpecError::Grpc(call.into()))?),
            None => None,
        };
        let request = match (self.url, self.host, self.path, &grpc_path) {
            (Some(url), None, None, None) => {
                Request::from_url(url).map_err(|e| RequestSpecError::Url(url.into(), e))?
            }
            (Some(url), None, None, Some(grpc)) => {
                let request = Request::from_url(url).map_err(|e| RequestSpecError::Url(url.into(), e))?;
                if request.path != b"/" {
                    return Err(RequestSpecError::GrpcPath);
                }
                Request { path: grpc.as_bytes(), ..request }
            }
            (None, Some(host), None, Some(grpc)) => Request::new(host, grpc),
            (None, Some(_), Some(_), Some(_)) => return Err(RequestSpecError::GrpcPath),
            (None, Some(host), path, None) => Request::new(host, path.unwrap_or("/")),
            _ => return Err(RequestSpecError::Target),
        };
        let scheme = self.scheme.unwrap_or(request.scheme);
        let grpc = self.grpc.is_some();
        let with_type: Vec<(&str, &str)>;
        let headers = if grpc && !self.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type")) {
            let mut headers = self.headers.to_vec();
            headers.push(("content-type", "application/grpc"));
            with_type = headers;
            &with_type
        } else {
            self.headers
        };
        let method = self.method.unwrap_or(if grpc { "POST" } else { "GET" });
        let mut request = request.with_scheme(scheme).with_headers(headers).with_method(method);
        if let Some(port) = self.port {
            request = request.with_port(port);
        }
        Ok(f(&request))
    }
}

/// `/SERVICE/METHOD` for `SERVICE/METHOD` (both parts non-empty, one `/`).
fn grpc_path(call: &str) -> Option<String> {
    let (service, method) = call.split_once('/')?;
    (!service.is_empty() && !method.is_empty() && !method.contains('/')).then(|| alloc::format!("/{call}"))
}

/// What is wrong with a [`RequestSpec`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestSpecError {
    /// Neither `url` alone nor `host` (and `path`).
    Target,
    /// The URL cannot be read.
    Url(String, UrlError),
    /// `grpc` is not `SERVICE/METHOD`.
    Grpc(String),
    /// `grpc` with a `path` (or a URL with one): the call's path is its own.
    GrpcPath,
}

impl core::error::Error for RequestSpecError {}

impl fmt::Display for RequestSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestSpecError::Target => f.write_str("a request needs either `url`, or `host` and `path`"),
            RequestSpecError::Url(url, e) => write!(f, "bad URL {url:?}: {e}"),
            RequestSpecError::Grpc(call) => write!(f, "grpc {call:?}: expected SERVICE/METHOD (echo.v1.Echo/Echo)"),
            RequestSpecError::GrpcPath => {
                f.write_str("a gRPC call (`grpc`) has the path /SERVICE/METHOD: give `host` or a URL without a path")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: the text `new` was given stands only while the public fields still hold it.
    #[test]
    fn text_follows_replaced_fields() {
        let mut request = Request::new("a.example.com", "/a");
        assert_eq!(request.text(), Some(("a.example.com", "/a")));
        request.path = b"/b";
        assert_eq!(request.text(), Some(("a.example.com", "/b")));
        request.host = b"\xff.example.com";
        assert_eq!(request.text(), None);
        assert_eq!(Request::from_bytes(b"h", b"/").text(), Some(("h", "/")));
        assert_eq!(Request::new("h", "/"), Request::from_bytes(b"h", b"/"));
    }

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
