//! The URI nginx matches locations against (`$uri`): the request path decoded and normalised
//! (`ngx_http_parse_complex_uri` with `merge_slashes on`, nginx's default).

use alloc::borrow::Cow;
use alloc::vec::Vec;

/// Why nginx answers 400 before choosing a location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadUri {
    /// The path does not start with `/`.
    NotAbsolute,
    /// A `%` not followed by two hex digits, or `%00`.
    BadEscape,
    /// `..` climbs above the root.
    AboveRoot,
}

impl BadUri {
    pub fn as_str(self) -> &'static str {
        match self {
            BadUri::NotAbsolute => "the path does not start with '/'",
            BadUri::BadEscape => "a '%' escape is invalid or decodes to NUL",
            BadUri::AboveRoot => "'..' climbs above the root",
        }
    }
}

/// Splits a request target into path and query (a `#` ends the path too).
pub fn split_target(target: &[u8]) -> (&[u8], Option<&[u8]>) {
    let end = target.iter().position(|&b| b == b'?' || b == b'#').unwrap_or(target.len());
    let query = (target.get(end) == Some(&b'?')).then(|| {
        let rest = &target[end + 1..];
        &rest[..rest.iter().position(|&b| b == b'#').unwrap_or(rest.len())]
    });
    (&target[..end], query)
}

/// `$uri` for `path` (without the query): percent-decoded, `//` merged, `.` and `..` resolved.
/// Borrows when the path needs none of that (the usual case), so routing it allocates nothing.
pub fn normalize(path: &[u8]) -> Result<Cow<'_, [u8]>, BadUri> {
    if path.first() != Some(&b'/') {
        return Err(BadUri::NotAbsolute);
    }
    let simple = !path.contains(&b'%') && !path.windows(2).any(|w| w == b"//" || w == b"/.");
    if simple {
        return Ok(Cow::Borrowed(path));
    }
    let decoded = decode(path)?;
    let mut out: Vec<u8> = Vec::with_capacity(decoded.len());
    for segment in decoded.split(|&b| b == b'/').skip(1) {
        match segment {
            b"" | b"." => {}
            b".." => {
                let Some(cut) = out.iter().rposition(|&b| b == b'/') else { return Err(BadUri::AboveRoot) };
                out.truncate(cut);
                continue;
            }
            _ => {
                out.push(b'/');
                out.extend_from_slice(segment);
                continue;
            }
        }
    }
    // A path ending in `/`, `/.` or `/..` keeps its trailing slash; so does the root.
    let last = decoded.rsplit(|&b| b == b'/').next().unwrap_or_default();
    if matches!(last, b"" | b"." | b"..") || out.is_empty() {
        out.push(b'/');
    }
    Ok(Cow::Owned(out))
}

fn decode(path: &[u8]) -> Result<Vec<u8>, BadUri> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'%' {
            let (Some(h), Some(l)) = (path.get(i + 1).and_then(|&b| hex(b)), path.get(i + 2).and_then(|&b| hex(b)))
            else {
                return Err(BadUri::BadEscape);
            };
            let byte = h << 4 | l;
            if byte == 0 {
                return Err(BadUri::BadEscape);
            }
            out.push(byte);
            i += 3;
        } else {
            out.push(path[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(p: &str) -> Result<String, BadUri> {
        normalize(p.as_bytes()).map(|c| String::from_utf8(c.into_owned()).unwrap())
    }

    #[test]
    fn nginx_uri() {
        assert_eq!(n("/a/b"), Ok("/a/b".into()));
        assert_eq!(n("//a///b/"), Ok("/a/b/".into()));
        assert_eq!(n("/a/./b/../c"), Ok("/a/c".into()));
        assert_eq!(n("/a/.."), Ok("/".into()));
        assert_eq!(n("/a/b/.."), Ok("/a/".into()));
        assert_eq!(n("/%61pi/%2e%2e/x"), Ok("/x".into()));
        assert_eq!(n("/.hidden"), Ok("/.hidden".into()));
        assert_eq!(n("/.."), Err(BadUri::AboveRoot));
        assert_eq!(n("/%zz"), Err(BadUri::BadEscape));
        assert_eq!(n("/%00"), Err(BadUri::BadEscape));
        assert_eq!(n("x"), Err(BadUri::NotAbsolute));
    }

    #[test]
    fn targets() {
        assert_eq!(split_target(b"/a?b=1#f"), (&b"/a"[..], Some(&b"b=1"[..])));
        assert_eq!(split_target(b"/a#f?x"), (&b"/a"[..], None));
    }
}
