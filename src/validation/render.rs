//! How Go prints a bad value in a field error (`field.Error.ErrorBody`): `%q` for a `string`,
//! `%v` for numbers and booleans, `json.Marshal` for anything else.

use alloc::string::{String, ToString};
use core::fmt::Write as _;

use serde_json::Value;

/// A bad value in a message: strings as Go's `%q`, numbers and booleans bare, anything else as
/// `json.Marshal` writes it (`null`, `[]`).
pub(super) fn render_bad_value(value: &Value) -> String {
    match value {
        Value::String(s) => go_quote(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => go_json(other),
    }
}

/// `json.Marshal`: compact JSON with Go's HTML-safe escapes.
pub(super) fn go_json(value: &Value) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Go's `strconv.Quote`: double quotes, with `\"`, `\\`, C escapes, and `\x`/`\u`/`\U` escapes
/// for characters Go does not consider printable.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`, approximated without Unicode tables: everything but controls,
/// separators other than the ASCII space, common format characters, private-use characters and
/// non-characters.
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let format_chars = matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE0001 | 0xE0020..=0xE007F);
    let private_use = matches!(u, 0xE000..=0xF8FF | 0xF0000..=0x10FFFF);
    let non_character = matches!(u, 0xFDD0..=0xFDEF) || (u & 0xFFFE) == 0xFFFE;
    !(format_chars || private_use || non_character)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn go_quote_escapes_like_strconv_quote() {
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("tab\there\n"), r#""tab\there\n""#);
        assert_eq!(go_quote("\u{1}\u{7f}"), r#""\x01\x7f""#);
        assert_eq!(go_quote("héllo 世界"), "\"héllo 世界\"");
        assert_eq!(go_quote("\u{a0}\u{200b}\u{feff}"), r#""\u00a0\u200b\ufeff""#);
        assert_eq!(go_quote("\u{f0000}"), r#""\U000f0000""#);
    }

    #[test]
    fn bad_values_render_as_go_does() {
        assert_eq!(render_bad_value(&Value::Null), "null");
        assert_eq!(render_bad_value(&Value::Array(Vec::new())), "[]");
        assert_eq!(render_bad_value(&Value::from(70000)), "70000");
        assert_eq!(render_bad_value(&Value::from("<a&b>")), "\"<a&b>\"");
        assert_eq!(render_bad_value(&serde_json::json!(["<"])), "[\"\\u003c\"]");
    }
}
