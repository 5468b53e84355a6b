//! Hostnames as the Gateway API reads them (`site/content/en/docs/concepts/hostnames.md`): a
//! wildcard `*.` matches ONE OR MORE labels (`*.example.com` matches `a.b.example.com`, unlike an
//! Ingress's one label), `*` (a listener without a hostname) matches anything, and the
//! intersection of a listener's and a route's hostname is the more specific of the two.

/// Splits `host:port` (a port is 1 to 5 digits after the last `:`), looking only at the last six
/// bytes: cheaper than a search through the whole host on every request.
fn split_port(host: &str) -> (&str, Option<&str>) {
    let bytes = host.as_bytes();
    let mut i = bytes.len();
    while i > 0 && bytes.len() - i < 5 && bytes[i - 1].is_ascii_digit() {
        i -= 1;
    }
    if i > 0 && i < bytes.len() && bytes[i - 1] == b':' { (&host[..i - 1], Some(&host[i..])) } else { (host, None) }
}

/// The request's host without its port and one trailing dot (case is kept: comparisons ignore it).
pub fn request_host(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        // An IPv6 literal: never a Gateway API hostname, kept whole so that it matches nothing.
        return rest.split(']').next().unwrap_or(rest);
    }
    let (host, _) = split_port(host);
    host.strip_suffix('.').unwrap_or(host)
}

/// The port of a `Host` header, when it carries one (an unbracketed IPv6 address has none).
pub fn host_port(host: &str) -> Option<u16> {
    let (name, port) = split_port(host);
    if name.contains(':') && !name.ends_with(']') {
        return None;
    }
    port?.parse().ok()
}

/// Whether `pattern` (precise, `*.suffix` or `*`) matches the precise `host`.
pub fn matches(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix('*') {
        Some("") => true,
        Some(suffix) => host.len() > suffix.len() && ends_with_ignore_case(host, suffix),
        None => pattern.eq_ignore_ascii_case(host),
    }
}

fn ends_with_ignore_case(host: &str, suffix: &str) -> bool {
    host.len() >= suffix.len() && host.as_bytes()[host.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

fn is_wildcard(hostname: &str) -> bool {
    hostname.starts_with('*')
}

/// The intersected hostname of a listener's (`None`: every hostname) and a route's hostname, as
/// the hostnames page's "Hostname Intersection" defines it; `None` when they do not overlap.
pub fn intersect<'a>(listener: Option<&'a str>, route: &'a str) -> Option<&'a str> {
    let Some(listener) = listener.filter(|l| *l != "*") else { return Some(route) };
    if route == "*" {
        return Some(listener);
    }
    match (is_wildcard(listener), is_wildcard(route)) {
        (false, false) => listener.eq_ignore_ascii_case(route).then_some(listener),
        (true, false) => matches(listener, route).then_some(route),
        (false, true) => matches(route, listener).then_some(listener),
        // Both wildcards: they overlap when one suffix ends the other; the longer is the narrower.
        (true, true) => {
            let (l, r) = (&listener[1..], &route[1..]);
            if ends_with_ignore_case(r, l) {
                Some(route)
            } else if ends_with_ignore_case(l, r) {
                Some(listener)
            } else {
                None
            }
        }
    }
}

/// `HTTPRouteSpec.Hostnames`' precedence for a hostname that matched: characters in a matching
/// non-wildcard hostname, then characters in a matching hostname (a wildcard counts its suffix,
/// as written after `*`; `*` counts nothing). Larger wins.
pub fn specificity(hostname: &str) -> (usize, usize) {
    match hostname.strip_prefix('*') {
        Some(suffix) => (0, suffix.len()),
        None => (hostname.len(), hostname.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_hosts_lose_port_and_trailing_dot() {
        assert_eq!(request_host("Foo.Example.com.:8080"), "Foo.Example.com");
        assert_eq!(request_host("foo"), "foo");
        assert_eq!(request_host("[::1]:80"), "::1");
        assert_eq!(host_port("foo:8080"), Some(8080));
        assert_eq!(host_port("foo"), None);
        assert_eq!(host_port("[::1]:81"), Some(81));
        assert_eq!(host_port("::1"), None);
        assert_eq!(host_port("foo:123456"), None);
        assert_eq!(request_host("foo:"), "foo:");
        assert_eq!(request_host("foo:8080."), "foo:8080");
    }

    /// The hostnames page: "`*.example.com` matches `www.example.com` and
    /// `sub.domain.example.com`, but not `example.com`"; "`*.com` matches `example.com`, and also
    /// `www.example.com`".
    #[test]
    fn wildcards_match_one_or_more_labels() {
        assert!(matches("*.example.com", "www.example.com"));
        assert!(matches("*.example.com", "sub.domain.example.com"));
        assert!(!matches("*.example.com", "example.com"));
        assert!(matches("*.com", "example.com"));
        assert!(matches("*.com", "www.example.com"));
        assert!(!matches("*.example.com", "wwwexample.com"));
        assert!(matches("WWW.example.com", "www.EXAMPLE.com"));
        assert!(matches("*", "anything"));
    }

    /// Every row of the hostnames page's intersection table.
    #[test]
    fn intersection_table() {
        let rows = [
            ("www.example.com", "www.example.com", "www.example.com"),
            ("*.example.com", "www.example.com", "www.example.com"),
            ("*.example.com", "sub.domain.example.com", "sub.domain.example.com"),
            ("www.example.com", "*.example.com", "www.example.com"),
            ("sub.domain.example.com", "*.example.com", "sub.domain.example.com"),
            ("*.example.com", "*.example.com", "*.example.com"),
            ("*.com", "*.example.com", "*.example.com"),
            ("*", "www.example.com", "www.example.com"),
            ("*", "*", "*"),
        ];
        for (listener, route, expected) in rows {
            assert_eq!(intersect(Some(listener), route), Some(expected), "{listener} ∩ {route}");
        }
        assert_eq!(intersect(None, "a.com"), Some("a.com"));
        assert_eq!(intersect(Some("*.example.com"), "example.com"), None);
        assert_eq!(intersect(Some("*.example.com"), "test.example.net"), None);
        assert_eq!(intersect(Some("*.example.com"), "*.com"), Some("*.example.com"));
        assert_eq!(intersect(Some("*.a.com"), "*.b.com"), None);
    }

    #[test]
    fn specificity_orders_precise_over_wildcards() {
        assert!(specificity("www.example.com") > specificity("*.example.com"));
        assert!(specificity("*.example.com") > specificity("*.com"));
        assert!(specificity("*.com") > specificity("*"));
    }
}
