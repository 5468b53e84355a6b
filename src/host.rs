//! Host matching, as the crate documentation's [Hosts](crate#hosts) section states it: the
//! request host loses port, one trailing dot and case; `*.foo.com` covers exactly one label.

use serde::Serialize;

use crate::hash::{HIGH, ONES, has_byte, load, load8};

/// Longest host that can match a rule (DNS names are at most 253 characters); longer request
/// hosts can only fall to host-less rules. Also the size of the lookup's stack buffer.
pub const MAX_HOST_LEN: usize = 256;

/// A rule's host, classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleHost<'a> {
    /// No host: the rule matches every host.
    Any,
    /// An exact host.
    Exact(&'a str),
    /// `*.<suffix>`: any one label followed by `.<suffix>`.
    Wildcard(&'a str),
}

impl<'a> RuleHost<'a> {
    pub fn parse(host: &'a str) -> RuleHost<'a> {
        if host.is_empty() {
            RuleHost::Any
        } else if let Some(suffix) = host.strip_prefix("*.") {
            RuleHost::Wildcard(suffix)
        } else {
            RuleHost::Exact(host)
        }
    }
}

/// The host tiers, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Tier {
    /// Rules whose host equals the request host.
    Exact,
    /// Rules whose wildcard host covers the request host.
    Wildcard,
    /// Rules without a host.
    Any,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Exact => "exact",
            Tier::Wildcard => "wildcard",
            Tier::Any => "any",
        }
    }
}

/// Normalises a `Host` header (or `:authority`) into `buf`: strips a `:port` (IPv6 literals keep
/// their brackets), one trailing dot, and lowercases ASCII. Returns `None` when the host is longer
/// than [`MAX_HOST_LEN`]: no rule host can equal it. Never allocates.
pub fn normalize_request_host<'b>(raw: &'b [u8], buf: &'b mut [u8; MAX_HOST_LEN]) -> Option<&'b [u8]> {
    normalize_into(raw, buf)
}

/// [`normalize_request_host`] into a buffer of any size; `None` also when the normal host does
/// not fit (a buffer as long as `raw` always fits).
pub(crate) fn normalize_into<'b>(raw: &'b [u8], buf: &'b mut [u8]) -> Option<&'b [u8]> {
    // Most hosts are already normal (no port, lower case, no trailing dot): no copy then.
    if is_normal(raw) {
        return Some(raw);
    }
    let mut host = strip_port(raw);
    if let Some(rest) = host.strip_suffix(b".") {
        host = rest;
    }
    if host.len() > MAX_HOST_LEN {
        return None;
    }
    let out = buf.get_mut(..host.len())?;
    out.copy_from_slice(host);
    out.make_ascii_lowercase();
    Some(out)
}

/// Already what [`normalize_request_host`] would give: no `:`, no ASCII upper case, no
/// trailing `.`, not longer than [`MAX_HOST_LEN`]. Checks eight bytes at a time.
pub fn is_normal(raw: &[u8]) -> bool {
    if raw.len() > MAX_HOST_LEN || raw.last() == Some(&b'.') {
        return false;
    }
    let mut at = 0;
    while at + 8 <= raw.len() {
        if upper_or_colon(load8(&raw[at..])) {
            return false;
        }
        at += 8;
    }
    // Zero padding is neither upper case nor `:`.
    !upper_or_colon(load(&raw[at..]))
}

/// Does some byte of `word` hold an ASCII upper-case letter or `:`?
#[inline(always)]
fn upper_or_colon(word: u64) -> bool {
    // Per byte, without carries (high bits cleared): the high bit of `x + 0x80 - c` is `x >= c`.
    let low = word & !HIGH;
    let at_least_a = low + ONES * u64::from(0x80 - b'A');
    let above_z = low + ONES * u64::from(0x80 - b'Z' - 1);
    // Bytes of 0x80 and up are no ASCII letters, whatever their low bits say.
    let upper = at_least_a & !above_z & !word & HIGH;
    upper != 0 || has_byte(word, b':') != 0
}

fn strip_port(raw: &[u8]) -> &[u8] {
    if raw.first() == Some(&b'[') {
        return match raw.iter().position(|&b| b == b']') {
            Some(end) => &raw[..=end],
            None => raw,
        };
    }
    match memchr::memchr(b':', raw) {
        Some(colon) => &raw[..colon],
        None => raw,
    }
}

/// The part of a request host a wildcard rule is keyed by: everything after the first label.
/// `None` when the first label is empty or there is no second label.
pub fn wildcard_suffix(host: &[u8]) -> Option<&[u8]> {
    // The first label is short: a plain loop beats memchr's setup.
    let dot = host.iter().position(|&b| b == b'.')?;
    let suffix = &host[dot + 1..];
    (dot > 0 && !suffix.is_empty()).then_some(suffix)
}

/// Does a rule host match a normalised request host? (The reference form of the tiered lookup.)
pub fn host_matches(rule: RuleHost<'_>, request: &[u8]) -> bool {
    match rule {
        RuleHost::Any => true,
        RuleHost::Exact(h) => h.as_bytes() == request,
        RuleHost::Wildcard(suffix) => wildcard_suffix(request) == Some(suffix.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(raw: &str) -> Option<alloc::string::String> {
        let mut buf = [0u8; MAX_HOST_LEN];
        normalize_request_host(raw.as_bytes(), &mut buf).map(|h| alloc::string::String::from_utf8_lossy(h).into_owned())
    }

    #[test]
    fn ports_dots_and_case() {
        assert_eq!(norm("Foo.COM:80").as_deref(), Some("foo.com"));
        assert_eq!(norm("foo.com.").as_deref(), Some("foo.com"));
        assert_eq!(norm("[::1]:8080").as_deref(), Some("[::1]"));
        assert_eq!(norm("").as_deref(), Some(""));
    }

    /// Guards the word-at-a-time check against the byte-at-a-time rule, for every byte value in
    /// every position of a word and in the tail.
    #[test]
    fn normal_hosts_word_at_a_time() {
        let slow = |raw: &[u8]| {
            raw.len() <= MAX_HOST_LEN
                && raw.last() != Some(&b'.')
                && !raw.iter().any(|&b| b.is_ascii_uppercase() || b == b':')
        };
        for len in [1usize, 5, 8, 13, 16, 21] {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut raw = alloc::vec![b'a'; len];
                    raw[at] = b;
                    assert_eq!(is_normal(&raw), slow(&raw), "{raw:?}");
                }
            }
        }
        assert!(is_normal(b""));
        assert!(!is_normal(&[b'a'; MAX_HOST_LEN + 1]));
    }

    #[test]
    fn overlong_hosts_are_refused() {
        assert_eq!(norm(&"a".repeat(MAX_HOST_LEN + 1)), None);
        assert!(norm(&"a".repeat(MAX_HOST_LEN)).is_some());
    }

    #[test]
    fn wildcard_covers_one_label() {
        let w = RuleHost::parse("*.foo.com");
        assert!(host_matches(w, b"bar.foo.com"));
        assert!(!host_matches(w, b"foo.com"));
        assert!(!host_matches(w, b"baz.bar.foo.com"));
        assert!(!host_matches(w, b".foo.com"));
    }
}
