//! The `pattern`s of the Gateway API CRDs (and the regexes inside their CEL rules), each
//! hand-written as the crate has no regex engine in `no_std`. `text` is the pattern as the CRD
//! spells it, which the apiserver quotes in `should match '...'`. Go's `regexp` searches
//! (unanchored), so an alternative without `^`/`$` may match anywhere in the value: the matchers
//! below follow the patterns as written, quirks included (see `protocol` and `address_type`).

/// A CRD `pattern`: its text, and the check standing in for the regex.
pub(crate) struct Pattern {
    pub(crate) text: &'static str,
    pub(crate) matches: fn(&str) -> bool,
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, without a length limit.
fn dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            lower_alnum(first) && lower_alnum(last) && b.iter().all(|&c| lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`, without length limits.
pub(crate) fn dns_subdomain(s: &str) -> bool {
    s.split('.').all(dns_label)
}

/// `^(\*\.)?` + a DNS subdomain.
pub(crate) fn wildcard_hostname(s: &str) -> bool {
    dns_subdomain(s.strip_prefix("*.").unwrap_or(s))
}

/// `^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`
fn kind(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-')
        }
        _ => false,
    }
}

/// The characters after the `/` of a controller name or domain-prefixed address type:
/// `[A-Za-z0-9\/\-._~%!$&'()*+,;=:]`.
fn path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c)
}

/// `^` DNS subdomain `\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$`: the subdomain ends at the first `/`
/// (it has none).
fn controller_name(s: &str) -> bool {
    match s.split_once('/') {
        Some((domain, path)) => dns_subdomain(domain) && !path.is_empty() && path.chars().all(path_char),
        None => false,
    }
}

/// `[a-z0-9]...(\.[a-z0-9]...)*\/<rest>+$` matched anywhere: some `/` preceded by a lowercase
/// alphanumeric (the shortest subdomain that can end there) and followed, to the end, by one or
/// more characters that `rest` accepts.
fn domain_slash_suffix(s: &str, rest: fn(char) -> bool) -> bool {
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'/' && i > 0 && lower_alnum(b[i - 1]) && i + 1 < b.len() && s[i + 1..].chars().all(rest))
}

/// `^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$`
/// (the second alternative is not anchored at the start).
fn protocol(s: &str) -> bool {
    let b = s.as_bytes();
    let first = match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-')
        }
        _ => false,
    };
    first || domain_slash_suffix(s, |c| c.is_ascii_alphanumeric())
}

/// `^Hostname|IPAddress|NamedAddress|[a-z0-9]...\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$`: only the
/// first alternative is anchored at the start, only the last at the end.
fn address_type(s: &str) -> bool {
    s.starts_with("Hostname")
        || s.contains("IPAddress")
        || s.contains("NamedAddress")
        || domain_slash_suffix(s, path_char)
}

/// `^[A-Za-z0-9!#$%&'*+\-.^_\x60|~]+$`: an HTTP header name (RFC 7230 token).
fn header_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`
fn label_value(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (None, _) => true,
        (Some(f), Some(l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `^([0-9]{1,5}(h|m|s|ms)){1,4}$`: a Gateway API duration.
pub(crate) fn duration(s: &str) -> bool {
    parse_duration_parts(s).is_some()
}

/// The parts of a Gateway API duration as milliseconds, `None` when it does not match.
pub(crate) fn duration_millis(s: &str) -> Option<u64> {
    parse_duration_parts(s).map(|parts| parts.iter().sum())
}

fn parse_duration_parts(s: &str) -> Option<[u64; 4]> {
    let mut parts = [0u64; 4];
    let mut count = 0;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = i - start;
        if !(1..=5).contains(&digits) || count == 4 {
            return None;
        }
        let n: u64 = s[start..i].parse().ok()?;
        let unit = match (b.get(i), b.get(i + 1)) {
            (Some(b'm'), Some(b's')) => {
                i += 2;
                1
            }
            (Some(b'h'), _) => {
                i += 1;
                3_600_000
            }
            (Some(b'm'), _) => {
                i += 1;
                60_000
            }
            (Some(b's'), _) => {
                i += 1;
                1_000
            }
            _ => return None,
        };
        parts[count] = n * unit;
        count += 1;
    }
    (count > 0).then_some(parts)
}

/// `(^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$)`
fn cors_origin(s: &str) -> bool {
    if s == "*" {
        return true;
    }
    let Some(rest) = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://")) else { return false };
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    if let Some(port) = port {
        if !(1..=5).contains(&port.len()) || !port.bytes().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    if host == "*" {
        return true;
    }
    let host = host.strip_prefix("*.").unwrap_or(host);
    !host.is_empty()
        && host
            .split('.')
            .all(|label| !label.is_empty() && label.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-'))
}

/// `^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$`
/// (the label and annotation keys of `spec.infrastructure`, in a CEL rule).
pub(crate) fn qualified_key(s: &str) -> bool {
    let name = match s.split_once('/') {
        Some((prefix, name)) => {
            if !dns_subdomain(prefix) {
                return false;
            }
            name
        }
        None => s,
    };
    (1..=63).contains(&name.len()) && label_value(name)
}

/// `^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$` (the path rule's CEL regex).
pub(crate) fn path_characters(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() {
                i += 3;
                continue;
            }
            return false;
        }
        if !(c.is_ascii_alphanumeric() || b"-/._~!$&'()*+,;=:@".contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

pub(crate) static HOSTNAME: Pattern = Pattern {
    text: r"^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
    matches: wildcard_hostname,
};
pub(crate) static PRECISE_HOSTNAME: Pattern =
    Pattern { text: r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", matches: dns_subdomain };
pub(crate) static GROUP: Pattern = Pattern {
    text: r"^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
    matches: |s| s.is_empty() || dns_subdomain(s),
};
pub(crate) static KIND: Pattern = Pattern { text: r"^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$", matches: kind };
pub(crate) static NAMESPACE: Pattern = Pattern { text: r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", matches: dns_label };
pub(crate) static CONTROLLER_NAME: Pattern = Pattern {
    text: r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$",
    matches: controller_name,
};
pub(crate) static HEADER_NAME: Pattern = Pattern { text: r"^[A-Za-z0-9!#$%&'*+\-.^_\x60|~]+$", matches: header_name };
pub(crate) static PROTOCOL: Pattern = Pattern {
    text: r"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$",
    matches: protocol,
};
pub(crate) static ADDRESS_TYPE: Pattern = Pattern {
    text: r"^Hostname|IPAddress|NamedAddress|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$",
    matches: address_type,
};
pub(crate) static LABEL_VALUE: Pattern =
    Pattern { text: r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$", matches: label_value };
pub(crate) static DURATION: Pattern = Pattern { text: r"^([0-9]{1,5}(h|m|s|ms)){1,4}$", matches: duration };
pub(crate) static CORS_ORIGIN: Pattern = Pattern {
    text: r"(^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$)",
    matches: cors_origin,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostnames() {
        for ok in ["a", "example.com", "*.example.com", "a-b.c0", "0.0"] {
            assert!(wildcard_hostname(ok), "{ok}");
        }
        for bad in ["", "*", "*.", "A.com", "a..b", "-a", "a-", "a.*.b", "a_b", "example.com."] {
            assert!(!wildcard_hostname(bad), "{bad}");
        }
        assert!(!dns_subdomain("*.example.com"));
    }

    #[test]
    fn controller_names_and_protocols() {
        assert!(controller_name("example.com/gateway-controller"));
        assert!(controller_name("a/b/c:d"));
        assert!(!controller_name("example.com"));
        assert!(!controller_name("example.com/"));
        assert!(!controller_name("Example.com/x"));
        for ok in ["HTTP", "HTTPS", "TLS", "TCP", "UDP", "x-y", "example.com/proto", "Weird stuff example.com/p"] {
            assert!(protocol(ok), "{ok}");
        }
        for bad in ["", "-http", "http-", "HTTP/2.0", "a b"] {
            assert!(!protocol(bad), "{bad}");
        }
    }

    #[test]
    fn address_types_follow_the_unanchored_alternatives() {
        for ok in ["IPAddress", "Hostname", "NamedAddress", "HostnameX", "xIPAddressy", "example.com/kind"] {
            assert!(address_type(ok), "{ok}");
        }
        for bad in ["", "hostname", "ip", "example.com/", "/x"] {
            assert!(!address_type(bad), "{bad}");
        }
    }

    #[test]
    fn headers_labels_durations_origins() {
        assert!(header_name("X-Custom_Header!"));
        assert!(!header_name("bad header"));
        assert!(!header_name("a:b"));
        assert!(label_value("") && label_value("a.b-c_d") && !label_value("-a") && !label_value("a b"));
        assert_eq!(duration_millis("1h30m"), Some(5_400_000));
        assert_eq!(duration_millis("500ms"), Some(500));
        assert_eq!(duration_millis("0s"), Some(0));
        for bad in ["", "1", "1d", "123456s", "1s1s1s1s1s", "1.5s", "-1s", "s"] {
            assert!(!duration(bad), "{bad}");
        }
        for ok in ["*", "https://example.com", "http://*.example.com:8080", "https://*", "http://a-b"] {
            assert!(cors_origin(ok), "{ok}");
        }
        for bad in ["example.com", "ftp://a", "https://", "https://a:123456", "https://a/b", "https://a..b"] {
            assert!(!cors_origin(bad), "{bad}");
        }
    }

    #[test]
    fn keys_and_path_characters() {
        assert!(qualified_key("example.com/name") && qualified_key("name") && !qualified_key("/name"));
        assert!(!qualified_key("a/b/c") && !qualified_key(&"x".repeat(64)));
        assert!(path_characters("/a%2Fb") && path_characters("/~user/@x"));
        assert!(
            !path_characters("/a b") && !path_characters("/%zz") && !path_characters("/%2") && !path_characters("")
        );
    }
}
