//! Path matching, as the crate documentation's [Paths](crate#paths) section states it:
//! `Exact` byte for byte, `Prefix` element-wise, a trailing `/` in the rule ignored.

use alloc::format;
use alloc::string::String;
use core::fmt;
use serde::{Deserialize, Serialize};

/// `pathType` of an Ingress path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PathType {
    Exact,
    Prefix,
    ImplementationSpecific,
}

impl PathType {
    /// Parses the API value; `None` for anything else (validation reports it).
    pub fn parse(s: &str) -> Option<PathType> {
        match s {
            "Exact" => Some(PathType::Exact),
            "Prefix" => Some(PathType::Prefix),
            "ImplementationSpecific" => Some(PathType::ImplementationSpecific),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PathType::Exact => "Exact",
            PathType::Prefix => "Prefix",
            PathType::ImplementationSpecific => "ImplementationSpecific",
        }
    }

    /// Precedence key 2: `Exact` beats `Prefix` beats `ImplementationSpecific` (lower is stronger).
    pub fn rank(self) -> u8 {
        match self {
            PathType::Exact => 0,
            PathType::Prefix => 1,
            PathType::ImplementationSpecific => 2,
        }
    }
}

impl fmt::Display for PathType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub use crate::options::ImplementationSpecific;

/// The matching a path gets once its `pathType` is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchKind {
    Exact,
    ElementPrefix,
    StringPrefix,
}

impl MatchKind {
    pub fn of(path_type: PathType, implementation_specific: ImplementationSpecific) -> MatchKind {
        match path_type {
            PathType::Exact => MatchKind::Exact,
            PathType::Prefix => MatchKind::ElementPrefix,
            PathType::ImplementationSpecific => match implementation_specific {
                ImplementationSpecific::Prefix => MatchKind::ElementPrefix,
                ImplementationSpecific::Exact => MatchKind::Exact,
                ImplementationSpecific::StringPrefix => MatchKind::StringPrefix,
            },
        }
    }

    /// The part of `path` that must match (see the crate's Paths section): for element-wise
    /// prefixes, without one trailing `/`. Proxies that translate the table need it.
    pub fn key(self, path: &str) -> &str {
        match_key(self, path)
    }
}

/// The key a path is stored under: the rule path, without one trailing `/` for element-wise
/// prefixes (`/foo/` and `/foo` cover the same requests). Its length is precedence key 1.
pub fn match_key(kind: MatchKind, path: &str) -> &str {
    match kind {
        MatchKind::ElementPrefix => path.strip_suffix('/').unwrap_or(path),
        MatchKind::Exact | MatchKind::StringPrefix => path,
    }
}

/// The part of a request target that is matched: up to the first `?` or `#`.
pub fn request_path(target: &[u8]) -> &[u8] {
    // memchr scans many bytes at a time: this scan is a large part of a lookup's cost.
    match memchr::memchr2(b'?', b'#', target) {
        Some(end) => &target[..end],
        None => target,
    }
}

/// The position of the last `/` in `bytes` (used for paths too long for the one-pass scan).
#[inline]
pub(crate) fn last_slash(bytes: &[u8]) -> Option<usize> {
    memchr::memrchr(b'/', bytes)
}

/// Does a rule path of this kind match the request path? (`request` already cut by [`request_path`].)
pub fn matches(kind: MatchKind, path: &str, request: &[u8]) -> bool {
    let p = path.as_bytes();
    match kind {
        MatchKind::Exact => request == p,
        MatchKind::StringPrefix => request.starts_with(p),
        MatchKind::ElementPrefix => {
            let q = match_key(kind, path).as_bytes();
            q.is_empty() || request == q || (request.starts_with(q) && request.get(q.len()) == Some(&b'/'))
        }
    }
}

/// [`matches()`], with the reason in words a learner understands.
pub fn explain_match(path_type: PathType, kind: MatchKind, path: &str, request: &[u8]) -> (bool, String) {
    let r = String::from_utf8_lossy(request);
    let shown = if path.is_empty() { "\"\"" } else { path };
    let matched = matches(kind, path, request);
    let reason = match kind {
        MatchKind::Exact if matched => format!("{path_type} {shown} equals {r}"),
        MatchKind::Exact => {
            let hint = if r.strip_suffix('/') == Some(path) || path.strip_suffix('/') == Some(&*r) {
                " (a trailing '/' counts for Exact)"
            } else {
                ""
            };
            format!("{path_type} {shown} does not match {r}: not the same path byte for byte{hint}")
        }
        MatchKind::StringPrefix if matched => format!("{path_type} {shown} is a string prefix of {r}"),
        MatchKind::StringPrefix => format!("{path_type} {shown} does not match {r}: {r} does not start with {shown}"),
        MatchKind::ElementPrefix => {
            let q = match_key(kind, path);
            if q.is_empty() {
                format!("{path_type} {shown} matches every path")
            } else if matched {
                format!("{path_type} {shown} matches {r}: every element of {q} is a leading element of {r}")
            } else {
                format!("{path_type} {shown} does not match {r}: {}", element_mismatch(q, &r))
            }
        }
    };
    (matched, reason)
}

/// Names the first element where the request leaves the rule path.
fn element_mismatch(rule: &str, request: &str) -> String {
    let mut rule_elements = rule.split('/').filter(|e| !e.is_empty());
    let mut request_elements = request.split('/').filter(|e| !e.is_empty());
    loop {
        match (rule_elements.next(), request_elements.next()) {
            (Some(want), Some(got)) if want == got => continue,
            (Some(want), Some(got)) => return format!("element '{got}' is not '{want}'"),
            (Some(want), None) => return format!("the request has no element '{want}'"),
            // Same elements but different slashes (`//`): element-wise matching compares raw text.
            _ => return format!("{request} does not start with {rule} followed by '/' or the end"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_and_fragment_are_cut() {
        assert_eq!(request_path(b"/a?b#c"), b"/a");
        assert_eq!(request_path(b"/a#c?d"), b"/a");
        assert_eq!(request_path(b"/a"), b"/a");
    }

    #[test]
    fn scans_agree_with_byte_loops() {
        for s in [&b""[..], b"/", b"/a/b/c/d/e/f/g/h/i?x", b"/abcdefgh#", b"/\xff\xfe/?", b"no-slash"] {
            let cut = s.iter().position(|&b| b == b'?' || b == b'#').unwrap_or(s.len());
            assert_eq!(request_path(s), &s[..cut]);
            for end in 0..=s.len() {
                assert_eq!(last_slash(&s[..end]), s[..end].iter().rposition(|&b| b == b'/'));
            }
        }
    }

    #[test]
    fn element_prefix_examples_from_the_docs() {
        let m = |p, r: &str| matches(MatchKind::ElementPrefix, p, r.as_bytes());
        assert!(m("/", "/anything"));
        assert!(m("/aaa/bbb/", "/aaa/bbb"));
        assert!(!m("/aaa/bb", "/aaa/bbb"));
        assert!(!m("/foo/bar", "/foo/barbaz"));
        assert!(m("/foo", "/foo//bar"));
        assert!(m("", "/x"));
    }

    #[test]
    fn reasons_name_the_element() {
        let (ok, why) = explain_match(PathType::Prefix, MatchKind::ElementPrefix, "/aaa/bb", b"/aaa/bbb");
        assert!(!ok);
        assert_eq!(why, "Prefix /aaa/bb does not match /aaa/bbb: element 'bbb' is not 'bb'");
        let (ok, why) = explain_match(PathType::Exact, MatchKind::Exact, "/foo", b"/foo/");
        assert!(!ok);
        assert!(why.contains("trailing '/'"), "{why}");
    }
}
