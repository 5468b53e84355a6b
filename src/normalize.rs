//! What a proxy does to the path before routing (SEMANTICS.md section 9), so that a request can
//! be routed "as Envoy would see it". The Ingress specification itself routes the raw path.
//!
//! ```
//! use ingress_router::normalize::{PathNormalization, EscapedSlashes, normalize_path};
//! let envoy = PathNormalization { normalize_path: true, merge_slashes: true, escaped_slashes: EscapedSlashes::UnescapeAndForward };
//! assert_eq!(normalize_path(b"/public/../admin", &envoy).unwrap(), b"/admin");
//! assert_eq!(normalize_path(b"//a///b", &envoy).unwrap(), b"/a/b");
//! assert_eq!(normalize_path(b"/%66oo%2Fbar?x=1", &envoy).unwrap(), b"/foo/bar?x=1");
//! ```

use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};

pub use crate::options::EscapedSlashes;

/// Which normalisations to apply (all off: the raw path, as the specification routes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PathNormalization {
    /// RFC 3986: decode percent-encoded unreserved characters and remove `.`/`..` segments.
    pub normalize_path: bool,
    /// Collapse runs of `/` into one.
    pub merge_slashes: bool,
    pub escaped_slashes: EscapedSlashes,
}

/// The proxy refuses the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rejected;

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the path contains an escaped slash (%2F or %5C) and escaped slashes are rejected")
    }
}

/// Normalises the path part of a request target (the query and fragment are kept as they are).
pub fn normalize_path(target: &[u8], how: &PathNormalization) -> Result<Vec<u8>, Rejected> {
    let split = target.iter().position(|&b| b == b'?' || b == b'#').unwrap_or(target.len());
    let (path, rest) = target.split_at(split);
    let mut out = path.to_vec();
    match how.escaped_slashes {
        EscapedSlashes::KeepUnchanged => {}
        EscapedSlashes::RejectRequest if has_escaped_slash(&out) => return Err(Rejected),
        EscapedSlashes::RejectRequest => {}
        EscapedSlashes::UnescapeAndForward | EscapedSlashes::UnescapeAndRedirect => out = unescape_slashes(&out),
    }
    if how.normalize_path {
        out = remove_dot_segments(&decode_unreserved(&out));
    }
    if how.merge_slashes {
        out.dedup_by(|a, b| *a == b'/' && *b == b'/');
    }
    out.extend_from_slice(rest);
    Ok(out)
}

fn has_escaped_slash(path: &[u8]) -> bool {
    path.windows(3).any(|w| {
        w[0] == b'%'
            && (w[1] == b'2' && w[2].eq_ignore_ascii_case(&b'f') || w[1] == b'5' && w[2].eq_ignore_ascii_case(&b'c'))
    })
}

fn unescape_slashes(path: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'%' && i + 2 < path.len() {
            match (path[i + 1], path[i + 2].to_ascii_lowercase()) {
                (b'2', b'f') => {
                    out.push(b'/');
                    i += 3;
                    continue;
                }
                (b'5', b'c') => {
                    out.push(b'\\');
                    i += 3;
                    continue;
                }
                _ => {}
            }
        }
        out.push(path[i]);
        i += 1;
    }
    out
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Decodes `%XX` where XX is an unreserved character (RFC 3986 section 6.2.2.2); uppercases other escapes.
fn decode_unreserved(path: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'%' && i + 2 < path.len() {
            if let (Some(h), Some(l)) = (hex(path[i + 1]), hex(path[i + 2])) {
                let c = h * 16 + l;
                if c.is_ascii_alphanumeric() || b"-._~".contains(&c) {
                    out.push(c);
                } else {
                    out.extend_from_slice(&[b'%', path[i + 1].to_ascii_uppercase(), path[i + 2].to_ascii_uppercase()]);
                }
                i += 3;
                continue;
            }
        }
        out.push(path[i]);
        i += 1;
    }
    out
}

/// RFC 3986 section 5.2.4, on segments.
fn remove_dot_segments(path: &[u8]) -> Vec<u8> {
    let absolute = path.first() == Some(&b'/');
    let mut segments: Vec<&[u8]> = Vec::new();
    let parts: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
    let last = parts.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, seg) in parts.iter().enumerate() {
        if i == 0 && absolute {
            continue;
        }
        match *seg {
            b"." => trailing_slash = i == last,
            b".." => {
                segments.pop();
                trailing_slash = i == last;
            }
            s => {
                segments.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut out = Vec::with_capacity(path.len());
    for seg in &segments {
        if absolute || !out.is_empty() {
            out.push(b'/');
        }
        out.extend_from_slice(seg);
    }
    if trailing_slash || (absolute && segments.is_empty()) {
        out.push(b'/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(path: &str, how: PathNormalization) -> alloc::string::String {
        alloc::string::String::from_utf8(normalize_path(path.as_bytes(), &how).unwrap()).unwrap()
    }

    const NORMALIZE: PathNormalization = PathNormalization {
        normalize_path: true,
        merge_slashes: false,
        escaped_slashes: EscapedSlashes::KeepUnchanged,
    };

    #[test]
    fn dot_segments() {
        assert_eq!(n("/a/b/../c", NORMALIZE), "/a/c");
        assert_eq!(n("/../../x", NORMALIZE), "/x");
        assert_eq!(n("/a/.", NORMALIZE), "/a/");
        assert_eq!(n("/a/..", NORMALIZE), "/");
        assert_eq!(n("/", NORMALIZE), "/");
        assert_eq!(n("/%2e%2e/admin", NORMALIZE), "/admin");
    }

    #[test]
    fn escapes_other_than_unreserved_stay() {
        assert_eq!(n("/a%2fb", NORMALIZE), "/a%2Fb");
        assert_eq!(n("/a%zz", NORMALIZE), "/a%zz");
        assert_eq!(n("/a%", NORMALIZE), "/a%");
        assert_eq!(n("/a%4", NORMALIZE), "/a%4");
    }

    #[test]
    fn escaped_slashes() {
        let reject = PathNormalization { escaped_slashes: EscapedSlashes::RejectRequest, ..Default::default() };
        assert_eq!(normalize_path(b"/a%2Fb", &reject), Err(Rejected));
        assert_eq!(normalize_path(b"/a/b", &reject).unwrap(), b"/a/b");
        let unescape = PathNormalization { escaped_slashes: EscapedSlashes::UnescapeAndForward, ..Default::default() };
        assert_eq!(n("/a%2fb%5Cc%2", unescape), "/a/b\\c%2");
    }

    #[test]
    fn off_keeps_everything() {
        assert_eq!(n("//a/../b%2F?q=/..", PathNormalization::default()), "//a/../b%2F?q=/..");
    }
}
