//! The string formats the apiserver checks, with its exact messages: apimachinery's
//! `pkg/util/validation` (DNS names, wildcard hosts, ports, domain-prefixed paths),
//! `pkg/api/validate/content` (label keys and values, path segments), the name functions of
//! `pkg/api/validation/generic.go`, and `netutils.ParseIPSloppy`. Kept apart from the object
//! validators because they know nothing of Ingresses; hand-written, as the crate has no regex engine.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::{FieldError, FieldPath, invalid, invalid_each, required};

// ---------------------------------------------------------------------------------------------
// Name functions (apimachinery pkg/api/validation/generic.go)
// ---------------------------------------------------------------------------------------------

/// `NameIsDNSSubdomain` (Ingress, IngressClass, Secret names, `ingressClassName`).
pub(super) fn name_is_dns_subdomain(name: &str) -> Vec<String> {
    is_dns1123_subdomain(name)
}

/// `NameIsDNSLabel` (namespaces; service names since `RelaxedServiceNameValidation`).
pub(super) fn name_is_dns_label(name: &str) -> Vec<String> {
    is_dns1123_label(name)
}

// ---------------------------------------------------------------------------------------------
// String formats (apimachinery pkg/util/validation and pkg/api/validate/content)
// ---------------------------------------------------------------------------------------------

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX: usize = 63;
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX: usize = 253;
const WILDCARD_DNS1123_SUBDOMAIN_FMT: &str = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_DNS1123_SUBDOMAIN_ERR: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX: usize = 63;
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX: usize = 63;
const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const PORT_NAME_MAX: usize = 15;

/// `validation.MaxLenError` (util/validation: hosts, names, port names).
fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `content.MaxLenError` (label keys and values, and the DNS prefix of a label key).
fn content_max_len_error(length: usize) -> String {
    format!("must be no more than {length} bytes")
}

/// `validation.EmptyError`.
const EMPTY_ERROR: &str = "must be non-empty";

/// `validation.RegexError`: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')`.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    let mut s = String::from(msg);
    if examples.is_empty() {
        let _ = write!(s, " (regex used for validation is '{re}')");
        return s;
    }
    s.push_str(" (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        let _ = write!(s, "'{example}', ");
    }
    let _ = write!(s, "regex used for validation is '{re}')");
    s
}

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// Matches `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            is_lower_alnum(first) && is_lower_alnum(last) && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// Matches the DNS-1123 subdomain format: labels joined by dots.
fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// Matches `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
fn matches_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `IsDNS1123Label`.
fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// `IsDNS1123Subdomain` (util/validation).
pub(super) fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    dns1123_subdomain_errors(value, max_len_error)
}

/// The DNS-1123 subdomain check with a given wording of the length error.
fn dns1123_subdomain_errors(value: &str, max_len: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len(DNS1123_SUBDOMAIN_MAX));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `IsWildcardDNS1123Subdomain`: `*.` then a DNS-1123 subdomain.
pub(super) fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    let matches = value.strip_prefix("*.").is_some_and(matches_dns1123_subdomain);
    if !matches {
        errs.push(regex_error(WILDCARD_DNS1123_SUBDOMAIN_ERR, WILDCARD_DNS1123_SUBDOMAIN_FMT, &["*.example.com"]));
    }
    errs
}

/// `IsQualifiedName` = `content.IsLabelKey`: an optional DNS-subdomain prefix and `/`, then a
/// name of at most 63 alphanumerics, `-`, `_`, `.`.
pub(super) fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {EMPTY_ERROR}"));
            } else {
                let messages = dns1123_subdomain_errors(prefix, content_max_len_error);
                errs.extend(messages.into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {EMPTY_ERROR}"));
    } else if name.len() > LABEL_KEY_MAX {
        errs.push(format!("name part {}", content_max_len_error(LABEL_KEY_MAX)));
    }
    if !matches_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `IsValidLabelValue` = `content.IsLabelValue`: empty, or a label-key name of at most 63.
pub(super) fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(content_max_len_error(LABEL_VALUE_MAX));
    }
    if !value.is_empty() && !matches_label_key_name(value) {
        errs.push(regex_error(LABEL_VALUE_ERR, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// `IsValidPortNum`.
pub(super) fn is_valid_port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        alloc::vec!["must be between 1 and 65535, inclusive".to_string()]
    }
}

/// `IsValidPortName`: an IANA service name (at most 15 of `[-a-z0-9]`, at least one letter, no
/// `--`, no hyphen at either end).
pub(super) fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let b = port.as_bytes();
    if b.len() > PORT_NAME_MAX {
        errs.push(max_len_error(PORT_NAME_MAX));
    }
    if b.is_empty() || !b.iter().all(|&c| is_lower_alnum(c) || c == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string());
    }
    if !b.iter().any(u8::is_ascii_lowercase) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if b.first() == Some(&b'-') || b.last() == Some(&b'-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// `content.IsPathSegmentName`: not `.` or `..`, no `/` or `%`.
pub(super) fn is_path_segment_name(name: &str) -> Vec<String> {
    for illegal in [".", ".."] {
        if name == illegal {
            return alloc::vec![format!("may not be '{illegal}'")];
        }
    }
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(**illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// `IsDomainPrefixedPath`: `<DNS subdomain>/<HTTP path characters>` (IngressClass controller).
pub(super) fn is_domain_prefixed_path(path: &FieldPath, value: &str) -> Vec<FieldError> {
    if value.is_empty() {
        return alloc::vec![required(path, "")];
    }
    let Some((host, rest)) = value.split_once('/').filter(|(h, r)| !h.is_empty() && !r.is_empty()) else {
        return alloc::vec![invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")")];
    };
    let mut errs = invalid_each(path, host, is_dns1123_subdomain(host));
    let http_path_char = |c: u8| c.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&c);
    if !rest.bytes().all(http_path_char) {
        errs.push(invalid(path, rest, &regex_error("Invalid path", HTTP_PATH_FMT, &[])));
    }
    errs
}

/// `netutils.ParseIPSloppy(s) != nil`: an IPv4 address (leading zeros allowed) or an IPv6 one.
pub(super) fn parse_ip_sloppy(s: &str) -> bool {
    is_ipv4_sloppy(s) || (s.contains(':') && parse_ipv6_sloppy(s))
}

/// Go's pre-1.17 `parseIPv4`: four decimal parts of at most 255, leading zeros allowed.
fn is_ipv4_sloppy(s: &str) -> bool {
    let mut parts = 0;
    for part in s.split('.') {
        parts += 1;
        if parts > 4 || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        // Go's dtoi gives up past 0xFFFFFF; any value above 255 is rejected either way.
        let value = part.bytes().try_fold(0u32, |n, b| {
            let n = n * 10 + u32::from(b - b'0');
            (n <= 0xFF).then_some(n)
        });
        if value.is_none() {
            return false;
        }
    }
    parts == 4
}

/// Go's `parseIPv6`: hex groups with one optional `::`, optionally ending in an IPv4 address.
fn parse_ipv6_sloppy(s: &str) -> bool {
    let (head, tail) = match s.find("::") {
        Some(at) => (&s[..at], Some(&s[at + 2..])),
        None => (s, None),
    };
    let count_groups = |part: &str, may_end_ipv4: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let groups: Vec<&str> = part.split(':').collect();
        let mut count = 0;
        for (i, g) in groups.iter().enumerate() {
            let last = i + 1 == groups.len();
            if last && may_end_ipv4 && g.contains('.') {
                if !is_ipv4_sloppy(g) {
                    return None;
                }
                count += 2;
            } else if g.is_empty() || g.len() > 4 || !g.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            } else {
                count += 1;
            }
        }
        Some(count)
    };
    match tail {
        None => count_groups(head, true) == Some(8),
        Some(tail) => {
            if tail.contains("::") {
                return false;
            }
            match (count_groups(head, false), count_groups(tail, true)) {
                (Some(h), Some(t)) => h + t < 8,
                _ => false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_error_has_gos_double_space() {
        assert_eq!(
            is_dns1123_label("Foo"),
            alloc::vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                    .to_string()
            ]
        );
        assert_eq!(is_dns1123_label("a.b"), alloc::vec!["must not contain dots".to_string()]);
    }

    #[test]
    fn dns_formats() {
        for ok in ["a", "a-b", "1a", "a.b.c", "0-0.x"] {
            assert!(is_dns1123_subdomain(ok).is_empty(), "{ok}");
        }
        for bad in ["", "-a", "a-", "a..b", ".a", "a.", "A", "a_b", "a:80"] {
            assert!(!is_dns1123_subdomain(bad).is_empty(), "{bad}");
        }
        assert!(is_wildcard_dns1123_subdomain("*.example.com").is_empty());
        for bad in ["*", "*.", "**.a", "*.*.a", "a.*.b", "*a.b"] {
            assert!(!is_wildcard_dns1123_subdomain(bad).is_empty(), "{bad}");
        }
    }

    #[test]
    fn ip_addresses() {
        for ip in [
            "1.2.3.4",
            "192.168.001.1",
            "::1",
            "::",
            "fe80::1",
            "2001:db8::8:800:200c:417a",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:7:8",
        ] {
            assert!(parse_ip_sloppy(ip), "{ip}");
        }
        for not_ip in [
            "1.2.3",
            "1.2.3.256",
            "a.b.c.d",
            "1.2.3.4.5",
            "1:2:3",
            ":::",
            "1::2::3",
            "fe80::1%eth0",
            "example.com",
            "12345::",
        ] {
            assert!(!parse_ip_sloppy(not_ip), "{not_ip}");
        }
    }

    #[test]
    fn port_names() {
        assert!(is_valid_port_name("http").is_empty());
        assert!(is_valid_port_name("h-2").is_empty());
        assert_eq!(is_valid_port_name("123"), alloc::vec!["must contain at least one letter (a-z)".to_string()]);
        assert_eq!(is_valid_port_name("-http").len(), 1);
        assert_eq!(
            is_valid_port_name(""),
            alloc::vec![
                "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
                "must contain at least one letter (a-z)".to_string()
            ]
        );
    }

    #[test]
    fn qualified_names() {
        assert!(is_qualified_name("kubernetes.io/ingress.class").is_empty());
        assert!(is_qualified_name("app").is_empty());
        assert_eq!(is_qualified_name("/a"), alloc::vec!["prefix part must be non-empty".to_string()]);
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert_eq!(is_qualified_name("a/").len(), 2);
    }
}
