//! What a proxy does to the path before routing, so that a request is routed "as Envoy would see
//! it" ([`CompileOptions::normalize_path`](crate::CompileOptions), `merge_slashes`,
//! `escaped_slashes`). The Ingress specification itself routes the raw path.
//!
//! Nothing here allocates: a path that needs no change is routed as it is (one scan), any other
//! is normalised in a buffer on the stack, in place (every step shortens or keeps the path).

use crate::decision::Rejection;
use crate::options::{CompileOptions, EscapedSlashes};

/// The longest path (before `?`) that is normalised; a longer one that needs normalising is
/// refused with [`Rejection::PathTooLong`] (414). Envoy's own limit on the request headers is 60 KiB
/// by default; no route of a real table is this long.
pub const MAX_NORMALIZED_PATH: usize = 8192;

/// Which normalisations to apply (all off: the raw path, as the specification routes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PathNormalization {
    /// RFC 3986: decode percent-encoded unreserved characters and remove `.`/`..` segments.
    pub(crate) normalize_path: bool,
    /// Collapse runs of `/` into one.
    pub(crate) merge_slashes: bool,
    pub(crate) escaped_slashes: EscapedSlashes,
}

impl PathNormalization {
    pub(crate) fn of(options: &CompileOptions) -> Self {
        PathNormalization {
            normalize_path: options.normalize_path,
            merge_slashes: options.merge_slashes,
            escaped_slashes: options.escaped_slashes,
        }
    }

    /// Does any normalisation apply?
    pub(crate) fn is_on(&self) -> bool {
        self.normalize_path || self.merge_slashes || self.escaped_slashes != EscapedSlashes::KeepUnchanged
    }

    /// Could `path` change (or be refused)? False answers are exact; true ones may be spurious.
    pub(crate) fn may_change(&self, path: &[u8]) -> bool {
        let escapes = self.normalize_path || self.escaped_slashes != EscapedSlashes::KeepUnchanged;
        (escapes && memchr::memchr(b'%', path).is_some())
            || (self.normalize_path && (path.first() == Some(&b'.') || memchr::memmem::find(path, b"/.").is_some()))
            || (self.merge_slashes && memchr::memmem::find(path, b"//").is_some())
    }
}

/// The path part of a request target (query and fragment cut off) as the proxy routes it:
/// `path` itself when nothing changes, else the normalised path in `buf`.
pub(crate) fn normalize<'b>(
    target: &'b [u8],
    how: &PathNormalization,
    buf: &'b mut [u8; MAX_NORMALIZED_PATH],
) -> Result<&'b [u8], Rejection> {
    let path = crate::path::request_path(target);
    if !how.may_change(path) {
        return Ok(path);
    }
    let Some(out) = buf.get_mut(..path.len()) else { return Err(Rejection::PathTooLong) };
    out.copy_from_slice(path);
    let mut len = path.len();
    match how.escaped_slashes {
        EscapedSlashes::KeepUnchanged => {}
        EscapedSlashes::RejectRequest if has_escaped_slash(out) => return Err(Rejection::EscapedSlash),
        EscapedSlashes::RejectRequest => {}
        EscapedSlashes::UnescapeAndForward | EscapedSlashes::UnescapeAndRedirect => len = unescape_slashes(out),
    }
    if how.normalize_path {
        len = decode_unreserved(&mut out[..len]);
        len = remove_dot_segments(&mut out[..len]);
    }
    if how.merge_slashes {
        len = merge_slashes(&mut out[..len]);
    }
    Ok(&buf[..len])
}

fn has_escaped_slash(path: &[u8]) -> bool {
    path.windows(3).any(|w| {
        w[0] == b'%'
            && (w[1] == b'2' && w[2].eq_ignore_ascii_case(&b'f') || w[1] == b'5' && w[2].eq_ignore_ascii_case(&b'c'))
    })
}

/// `%2F`/`%5C` become `/`/`\`, in place; returns the new length.
fn unescape_slashes(path: &mut [u8]) -> usize {
    let (mut read, mut write) = (0, 0);
    while read < path.len() {
        let mut byte = path[read];
        read += 1;
        if byte == b'%' && read + 1 < path.len() {
            match (path[read], path[read + 1].to_ascii_lowercase()) {
                (b'2', b'f') => (byte, read) = (b'/', read + 2),
                (b'5', b'c') => (byte, read) = (b'\\', read + 2),
                _ => {}
            }
        }
        path[write] = byte;
        write += 1;
    }
    write
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Decodes `%XX` where XX is an unreserved character (RFC 3986 section 6.2.2.2) and uppercases
/// other escapes, in place; returns the new length.
fn decode_unreserved(path: &mut [u8]) -> usize {
    let (mut read, mut write) = (0, 0);
    while read < path.len() {
        if path[read] == b'%' && read + 2 < path.len() {
            if let (Some(h), Some(l)) = (hex(path[read + 1]), hex(path[read + 2])) {
                let c = h * 16 + l;
                if c.is_ascii_alphanumeric() || b"-._~".contains(&c) {
                    path[write] = c;
                    write += 1;
                } else {
                    let (h, l) = (path[read + 1].to_ascii_uppercase(), path[read + 2].to_ascii_uppercase());
                    path[write..write + 3].copy_from_slice(&[b'%', h, l]);
                    write += 3;
                }
                read += 3;
                continue;
            }
        }
        path[write] = path[read];
        write += 1;
        read += 1;
    }
    write
}

/// RFC 3986 section 5.2.4 on segments, in place; returns the new length. Each segment is written
/// at or before where it was read, so the output never overtakes the input.
fn remove_dot_segments(path: &mut [u8]) -> usize {
    let absolute = path.first() == Some(&b'/');
    let (mut read, mut write) = (usize::from(absolute), 0);
    let mut trailing_slash = false;
    let mut done = path.is_empty();
    while !done {
        let end = memchr::memchr(b'/', &path[read..]).map_or(path.len(), |i| read + i);
        done = end == path.len();
        match &path[read..end] {
            b"." => trailing_slash = done,
            b".." => {
                // Pop the last segment written (and its `/`).
                write = memchr::memrchr(b'/', &path[..write]).unwrap_or(0);
                trailing_slash = done;
            }
            _ => {
                if absolute || write > 0 {
                    path[write] = b'/';
                    write += 1;
                }
                path.copy_within(read..end, write);
                write += end - read;
                trailing_slash = false;
            }
        }
        read = end + 1;
    }
    if trailing_slash || (absolute && write == 0) {
        path[write] = b'/';
        write += 1;
    }
    write
}

/// Collapses runs of `/`, in place; returns the new length.
fn merge_slashes(path: &mut [u8]) -> usize {
    let mut write = 0;
    for read in 0..path.len() {
        if path[read] == b'/' && write > 0 && path[write - 1] == b'/' {
            continue;
        }
        path[write] = path[read];
        write += 1;
    }
    write
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn run(path: &str, how: PathNormalization) -> Result<String, Rejection> {
        let mut buf = [0; MAX_NORMALIZED_PATH];
        normalize(path.as_bytes(), &how, &mut buf).map(|p| String::from_utf8(p.to_vec()).unwrap())
    }

    fn n(path: &str, how: PathNormalization) -> String {
        run(path, how).unwrap()
    }

    const NORMALIZE: PathNormalization = PathNormalization {
        normalize_path: true,
        merge_slashes: false,
        escaped_slashes: EscapedSlashes::KeepUnchanged,
    };

    #[test]
    fn envoy() {
        let envoy = PathNormalization {
            normalize_path: true,
            merge_slashes: true,
            escaped_slashes: EscapedSlashes::UnescapeAndForward,
        };
        assert_eq!(n("/public/../admin", envoy), "/admin");
        assert_eq!(n("//a///b", envoy), "/a/b");
        assert_eq!(n("/%66oo%2Fbar?x=1", envoy), "/foo/bar");
    }

    #[test]
    fn dot_segments() {
        assert_eq!(n("/a/b/../c", NORMALIZE), "/a/c");
        assert_eq!(n("/../../x", NORMALIZE), "/x");
        assert_eq!(n("/a/.", NORMALIZE), "/a/");
        assert_eq!(n("/a/..", NORMALIZE), "/");
        assert_eq!(n("/", NORMALIZE), "/");
        assert_eq!(n("/%2e%2e/admin", NORMALIZE), "/admin");
        assert_eq!(n("/a//./b/", NORMALIZE), "/a//b/");
        assert_eq!(n("a/../b", NORMALIZE), "b");
        assert_eq!(n(".", NORMALIZE), "/");
        assert_eq!(n("/.hidden/x", NORMALIZE), "/.hidden/x");
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
        assert_eq!(run("/a%2Fb", reject), Err(Rejection::EscapedSlash));
        assert_eq!(n("/a/b", reject), "/a/b");
        let unescape = PathNormalization { escaped_slashes: EscapedSlashes::UnescapeAndForward, ..Default::default() };
        assert_eq!(n("/a%2fb%5Cc%2", unescape), "/a/b\\c%2");
        assert_eq!(n("/a%2", unescape), "/a%2");
        assert_eq!(n("/a%", unescape), "/a%");
    }

    #[test]
    fn off_keeps_everything_before_the_query() {
        assert_eq!(n("//a/../b%2F?q=/..", PathNormalization::default()), "//a/../b%2F");
    }

    #[test]
    fn too_long_is_refused_only_when_it_needs_normalising() {
        let mut long = Vec::from(&b"/a"[..]);
        long.resize(MAX_NORMALIZED_PATH + 1, b'b');
        let long = String::from_utf8(long).unwrap();
        assert_eq!(n(&long, NORMALIZE), long);
        assert_eq!(run(&(long.clone() + "/.."), NORMALIZE), Err(Rejection::PathTooLong));
    }
}
