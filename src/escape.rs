//! Percent-encoding of what the core writes into a redirect's `Location` or an upstream path:
//! paths and queries written in manifests (a redirect's path, a rewrite target) or sent by the
//! client, so that no `"`, `<`, space or control character reaches a header or a page unescaped,
//! whichever home (CLI, npm, Envoy filter) writes it.

use alloc::borrow::Cow;
use alloc::string::String;

/// `text` (a path, or a path with its `?query`, or a query) with every byte RFC 3986 does not allow
/// there percent-encoded: kept are `pchar` (unreserved, sub-delims, `:`, `@`), `/`, `?` and valid
/// `%XX` escapes (so `%2F` stays `%2F`, never `%252F`); everything else (space, `"`, `<`, `>`,
/// `\`, `^`, `` ` ``, `{`, `|`, `}`, `#`, a `%` not followed by two hex digits, controls and
/// non-ASCII, byte by byte of its UTF-8) becomes `%XX`. Borrows when nothing needs encoding.
///
pub(crate) fn percent_encode(text: &[u8]) -> Cow<'_, str> {
    encode(text, b"-._~!$&'()*+,;=:@/?")
}

/// [`percent_encode`] for a `host[:port]` taken from the request (a redirect that keeps the
/// client's host): RFC 3986's `reg-name`, `:` and an IP literal's brackets are kept; `/`, `?`,
/// `@` and `#` are encoded too, so that the host cannot end the authority early.
pub(crate) fn percent_encode_authority(text: &[u8]) -> Cow<'_, str> {
    encode(text, b"-._~!$&'()*+,;=:[]")
}

/// `text` with every byte encoded but ASCII letters and digits, `keep`, and valid `%XX` escapes.
fn encode<'t>(text: &'t [u8], keep: &[u8]) -> Cow<'t, str> {
    let kept = |i: usize| match text[i] {
        b'%' => text.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)),
        b => b.is_ascii_alphanumeric() || keep.contains(&b),
    };
    let Some(first) = (0..text.len()).find(|&i| !kept(i)) else {
        // Every byte kept is ASCII, so this is always UTF-8.
        return Cow::Borrowed(core::str::from_utf8(text).unwrap_or_default());
    };
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len() + 16);
    for (i, &b) in text.iter().enumerate() {
        if i >= first && !kept(i) {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push(char::from(b));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_rfc_3986_does_not_allow_is_encoded() {
        assert_eq!(percent_encode(b"/\"><img src=x>"), "/%22%3E%3Cimg%20src=x%3E");
        assert_eq!(percent_encode("/caf\u{e9}/a%2Fb/100%?q=a b&r=1".as_bytes()), "/caf%C3%A9/a%2Fb/100%25?q=a%20b&r=1");
        assert!(matches!(percent_encode(b"/a/b?c=d"), Cow::Borrowed("/a/b?c=d")));
    }

    #[test]
    fn keeps_what_rfc_3986_allows_in_a_path_and_query() {
        let allowed = "/AZaz09-._~!$&'()*+,;=:@/?x=%2f%2F%00";
        assert!(matches!(percent_encode(allowed.as_bytes()), Cow::Borrowed(s) if s == allowed));
        assert_eq!(percent_encode(b""), "");
    }

    #[test]
    fn encodes_everything_else() {
        assert_eq!(percent_encode(b" \"<>\\^`{|}#"), "%20%22%3C%3E%5C%5E%60%7B%7C%7D%23");
        assert_eq!(percent_encode(b"\x00\x1f\x7f\r\n"), "%00%1F%7F%0D%0A");
        assert_eq!(percent_encode("é€".as_bytes()), "%C3%A9%E2%82%AC");
        assert_eq!(percent_encode(b"\xff/a"), "%FF/a");
        // A `%` that starts no escape is a literal percent; a valid escape is kept as written.
        assert_eq!(percent_encode(b"%"), "%25");
        assert_eq!(percent_encode(b"%4"), "%254");
        assert_eq!(percent_encode(b"%zz%41"), "%25zz%41");
        assert_eq!(percent_encode(b"/a b%2Fc"), "/a%20b%2Fc");
    }

    #[test]
    fn authorities_keep_ports_and_ip_literals_but_cannot_end_early() {
        assert!(matches!(percent_encode_authority(b"[::1]:8080"), Cow::Borrowed("[::1]:8080")));
        assert_eq!(percent_encode_authority(b"a.com@evil.com/x?y#z"), "a.com%40evil.com%2Fx%3Fy%23z");
        assert_eq!(percent_encode_authority(b"h\"<"), "h%22%3C");
    }

    #[test]
    fn encoding_twice_changes_nothing() {
        for text in ["/\"><img src=x onerror=alert(1)>", "/a%zz b", "/é?q=<>", "%%%"] {
            let once = percent_encode(text.as_bytes()).into_owned();
            assert_eq!(percent_encode(once.as_bytes()), once, "{text}");
        }
    }
}
