//! What a proxy does to the path before routing, so that a request is routed "as Envoy would see
//! it" ([`CompileOptions::normalize_path`](crate::CompileOptions), `merge_slashes`,
//! `escaped_slashes`). The Ingress specification itself routes the raw path.
//!
//! Nothing here allocates: a path that needs no change is routed as it is (one scan), any other
//! is normalised in a buffer on the stack, in place (every step shortens or keeps the path).

use crate::options::{CompileOptions, EscapedSlashes};
use core::fmt;

/// The longest path (before `?`) that is normalised; a longer one that needs normalising is
/// refused with [`Rejection::PathTooLong`] (414). Envoy's own limit on the request headers is 60 KiB
/// by default; no route of a real table is this long.
pub const MAX_NORMALIZED_PATH: usize = 8192;

/// Which normalisations to apply (all off: the raw path, as the specification routes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PathNormalization {
    /// Envoy's `normalize_path` (Chromium's path canonicalisation): `\` becomes `/`, escapes of
    /// unreserved characters are decoded, characters a path may not hold are escaped, and `.`/`..`
    /// segments are removed.
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
            || (self.normalize_path
                && (path.first() == Some(&b'.')
                    || memchr::memmem::find(path, b"/.").is_some()
                    || path.iter().any(|&b| b == b'\\' || b == 0 || escaped_in_path(b))))
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
    // Escaping is the one step that lengthens the path: it goes first, from `path` into `buf`;
    // every later step works in place.
    let mut len = if how.normalize_path {
        canonicalize(path, buf)?
    } else {
        let Some(out) = buf.get_mut(..path.len()) else { return Err(Rejection::PathTooLong) };
        out.copy_from_slice(path);
        path.len()
    };
    let out = &mut buf[..len];
    match how.escaped_slashes {
        EscapedSlashes::KeepUnchanged => {}
        EscapedSlashes::RejectRequest if has_escaped_slash(out) => return Err(Rejection::EscapedSlash),
        EscapedSlashes::RejectRequest => {}
        EscapedSlashes::UnescapeAndForward | EscapedSlashes::UnescapeAndRedirect => len = unescape_slashes(out),
    }
    if how.normalize_path {
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

/// A byte Chromium's path canonicalisation escapes as `%XX`: controls, space, `"`, `#`, `<`, `>`,
/// `?`, `^`, `` ` ``, `{`, `|`, `}`, DEL and every non-ASCII byte (NUL is refused instead).
fn escaped_in_path(b: u8) -> bool {
    matches!(b, 0x01..=0x20 | b'"' | b'#' | b'<' | b'>' | b'?' | b'^' | b'`' | b'{' | b'|' | b'}' | 0x7f..)
}

/// A character an escape of which Chromium decodes: the unreserved ones (RFC 3986 section 2.3).
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Envoy's `normalize_path` before dot segments (Chromium's `DoPartialPath`), from `path` into
/// `out`: `\` becomes `/`; `%XX` of an unreserved character is decoded, any other valid escape is
/// kept exactly (case included), a `%` starting no valid escape is kept; the bytes of
/// [`escaped_in_path`] are escaped in upper case; a NUL, raw or escaped, refuses the path. As in
/// Chromium, a decoded character that turns an earlier lone `%` into a valid escape (`%%30%30`)
/// has that `%` written `%25`. Returns the length written.
fn canonicalize(path: &[u8], out: &mut [u8; MAX_NORMALIZED_PATH]) -> Result<usize, Rejection> {
    let mut len = 0;
    // Where the last `%` that started no valid escape was written.
    let mut lone_percent: Option<usize> = None;
    let push = |out: &mut [u8; MAX_NORMALIZED_PATH], len: &mut usize, bytes: &[u8]| {
        let end = *len + bytes.len();
        out.get_mut(*len..end).ok_or(Rejection::PathTooLong)?.copy_from_slice(bytes);
        *len = end;
        Ok::<(), Rejection>(())
    };
    let mut read = 0;
    while read < path.len() {
        let b = path[read];
        read += 1;
        match b {
            0 => return Err(Rejection::InvalidPath),
            b'\\' => push(out, &mut len, b"/")?,
            b'%' => match (path.get(read).copied().and_then(hex), path.get(read + 1).copied().and_then(hex)) {
                (Some(h), Some(l)) => {
                    let c = h * 16 + l;
                    if c == 0 {
                        return Err(Rejection::InvalidPath);
                    }
                    if unreserved(c) {
                        push(out, &mut len, &[c])?;
                        if let Some(p) = lone_percent.filter(|&p| p + 3 >= len) {
                            fix_nested_escape(out, &mut len, p, path.get(read + 2).copied())?;
                        }
                    } else {
                        push(out, &mut len, &path[read - 1..read + 2])?;
                    }
                    read += 2;
                }
                _ => {
                    lone_percent = Some(len);
                    push(out, &mut len, b"%")?;
                }
            },
            b if escaped_in_path(b) => {
                push(out, &mut len, &[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])?
            }
            b => push(out, &mut len, &[b])?,
        }
    }
    Ok(len)
}

/// Chromium's `CheckForNestedEscapes`: the output ends with a lone `%` at `percent` and one or two
/// characters after it, the last just decoded. If they (with the next input character, when only
/// one follows the `%`) now read as a valid escape, the `%` becomes `%25`.
fn fix_nested_escape(
    out: &mut [u8; MAX_NORMALIZED_PATH],
    len: &mut usize,
    percent: usize,
    next: Option<u8>,
) -> Result<(), Rejection> {
    let after: [Option<u8>; 2] = if percent + 2 == *len {
        [out.get(percent + 1).copied(), next.filter(u8::is_ascii)]
    } else {
        [out.get(percent + 1).copied(), out.get(percent + 2).copied()]
    };
    if let [Some(h), Some(l)] = after
        && hex(h).is_some()
        && hex(l).is_some()
    {
        let end = *len + 2;
        let Some(region) = out.get_mut(percent + 1..end) else { return Err(Rejection::PathTooLong) };
        region.copy_within(0..region.len() - 2, 2);
        region[..2].copy_from_slice(b"25");
        *len = end;
    }
    Ok(())
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

/// Why the proxy refuses a request before routing (see [`CompileOptions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rejection {
    /// The path contains `%2F` or `%5C` and escaped slashes are rejected: 400 Bad Request.
    EscapedSlash,
    /// The path needs normalising and is longer than 8 192 bytes: 414 URI Too Long.
    PathTooLong,
    /// nginx refuses the URI (a bad `%` escape, `..` above the root, not starting with `/`):
    /// 400 Bad Request (the ingress-nginx profile).
    InvalidUri,
    /// The path holds a NUL byte (raw or `%00`), which the proxy's path normalisation refuses
    /// (Envoy's `normalize_path`): 400 Bad Request.
    InvalidPath,
}

impl Rejection {
    /// The HTTP status the proxy answers with.
    pub fn status(self) -> u16 {
        match self {
            Rejection::EscapedSlash => 400,
            Rejection::PathTooLong => 414,
            Rejection::InvalidUri | Rejection::InvalidPath => 400,
        }
    }
}

impl core::error::Error for Rejection {}

impl Rejection {
    /// Why, in words (also its `Display`): static, so a proxy can answer with it without formatting.
    pub fn message(self) -> &'static str {
        match self {
            Rejection::EscapedSlash => {
                "the path contains an escaped slash (%2F or %5C) and escaped slashes are rejected"
            }
            Rejection::PathTooLong => "the path is too long to normalise",
            Rejection::InvalidUri => "nginx refuses the URI: a bad '%' escape, '..' above the root, or no leading '/'",
            Rejection::InvalidPath => "the path contains a NUL byte (raw or %00), which path normalisation refuses",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
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
        // Exactly as written, case included (Chromium: "in case the server is sensitive").
        assert_eq!(n("/a%2fb", NORMALIZE), "/a%2fb");
        assert_eq!(n("/a%7c%7Cb", NORMALIZE), "/a%7c%7Cb");
        assert_eq!(n("/a%zz", NORMALIZE), "/a%zz");
        assert_eq!(n("/a%", NORMALIZE), "/a%");
        assert_eq!(n("/a%4", NORMALIZE), "/a%4");
    }

    /// Envoy's `normalize_path` is Chromium's path canonicalisation: checked against what a real
    /// Envoy forwarded for these paths (the stand-in backend's `%REQ(:PATH)%`).
    #[test]
    fn chromium_canonicalisation() {
        assert_eq!(n("/something(/|$)(.*)", NORMALIZE), "/something(/%7C$)(.*)");
        assert_eq!(n("/a b\"<>^`{|}", NORMALIZE), "/a%20b%22%3C%3E%5E%60%7B%7C%7D");
        assert_eq!(n("/caf\u{e9}", NORMALIZE), "/caf%C3%A9");
        assert_eq!(n("/a\\..\\admin", NORMALIZE), "/admin");
        assert_eq!(n("/public\\%2e%2e\\admin", NORMALIZE), "/admin");
        assert_eq!(n("/%41%7e%5F%2D", NORMALIZE), "/A~_-");
        assert_eq!(n("/100%", NORMALIZE), "/100%");
        assert_eq!(run("/a\0b", NORMALIZE), Err(Rejection::InvalidPath));
        assert_eq!(run("/a%00b", NORMALIZE), Err(Rejection::InvalidPath));
        // A decoded character that completes an earlier lone `%` into an escape: the `%` is
        // written `%25` so that the result cannot be read differently a second time.
        assert_eq!(n("/%%30%30", NORMALIZE), "/%2500");
        assert_eq!(n("/%%300", NORMALIZE), "/%2500");
        assert_eq!(n("/%x%30", NORMALIZE), "/%x0");
        // Escaping lengthens: a path that fits only before it is refused, not cut.
        let wide = "|".repeat(MAX_NORMALIZED_PATH / 2);
        assert_eq!(run(&("/".to_string() + &wide), NORMALIZE), Err(Rejection::PathTooLong));
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

    proptest::proptest! {
        /// Canonical output stays canonical: a second pass changes nothing (what Chromium's
        /// nested-escape rule is for), and a path that is refused once is refused again.
        #[test]
        fn normalising_twice_changes_nothing(path in "/[a-z/.%0-9A-Fa-f|\\\\ {}~-]{0,24}") {
            let envoy = PathNormalization {
                normalize_path: true,
                merge_slashes: true,
                escaped_slashes: EscapedSlashes::KeepUnchanged,
            };
            if let Ok(once) = run(&path, envoy) {
                proptest::prop_assert_eq!(run(&once, envoy), Ok(once.clone()), "from {:?}", path);
            }
        }
    }
}
