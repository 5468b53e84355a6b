//! nginx regexes (PCRE), translated for the core's bounded engine ([`crate::regex`]).
//!
//! The engine is a DFA on bytes with ASCII classes; its matching is leftmost-first like PCRE's.
//! What differs from PCRE, and how this module handles it:
//!
//! - A `{` that does not start a valid repetition (`/users/{id}`) is a literal in PCRE and an error
//!   in the engine: it is escaped here before compiling.
//! - Look-around (`(?=`, `(?!`, `(?<=`, `(?<!`), backreferences (`\1`), atomic groups `(?>`,
//!   possessive quantifiers (`a++`), `\K`, recursion and `\p{..}` are not supported: the path is
//!   reported as an error naming the Ingress and field, and left out.
//! - `$` matches only at the very end (PCRE also matches before a final newline); `\w`, `\d`, `\s`
//!   and case-insensitive matching are ASCII-only in both (nginx builds PCRE without UTF by default).
//! - A pattern whose automaton exceeds the options' `regexLimits.size` is refused like an invalid
//!   one; a request whose regexes would read more than `regexLimits.scan` bytes gets "no match"
//!   from those it could not afford (see [`crate::regex`]).

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;

pub use crate::regex::{Compiler, Fuel, Regex};
use crate::regex::{Flags, RegexError};

/// Compiles a PCRE pattern as nginx would (`~*`: case-insensitive) within the configuration's
/// regex limits; `captures` keeps what a `rewrite` with `$1` needs. The error says what is wrong.
pub fn compile(pattern: &str, case_insensitive: bool, captures: bool, compiler: &Compiler) -> Result<Regex, String> {
    if let Some(feature) = unsupported(pattern) {
        return Err(format!("{pattern:?} uses {feature}, which PCRE supports but this engine does not"));
    }
    let translated = escape_literal_braces(pattern);
    compiler.compile(&translated, Flags { case_insensitive, captures }).map_err(|e| match e {
        RegexError::Invalid(message) => format!("{pattern:?} is not a valid regular expression: {message}"),
        too_large => format!("{pattern:?} is {too_large}"),
    })
}

/// The first PCRE-only construct in `pattern`, by name.
fn unsupported(pattern: &str) -> Option<&'static str> {
    const CONSTRUCTS: &[(&str, &str)] = &[
        ("(?=", "a lookahead (?=...)"),
        ("(?!", "a negative lookahead (?!...)"),
        ("(?<=", "a lookbehind (?<=...)"),
        ("(?<!", "a negative lookbehind (?<!...)"),
        ("(?>", "an atomic group (?>...)"),
        ("\\K", "\\K"),
        ("(?R)", "recursion (?R)"),
        ("++", "a possessive quantifier ++"),
        ("*+", "a possessive quantifier *+"),
        ("?+", "a possessive quantifier ?+"),
    ];
    let bytes = pattern.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\\' && bytes.get(i + 1).is_some_and(|c| (b'1'..=b'9').contains(c)) && !escaped(bytes, i) {
            return Some("a backreference (\\1..\\9)");
        }
    }
    CONSTRUCTS.iter().find(|(s, _)| pattern.contains(s)).map(|(_, name)| *name)
}

/// Whether the byte at `i` is itself escaped by an odd run of backslashes before it.
fn escaped(bytes: &[u8], i: usize) -> bool {
    bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// Escapes every `{` that PCRE would read as a literal: one not followed by `n}`, `n,}` or `n,m}`.
fn escape_literal_braces(pattern: &str) -> Cow<'_, str> {
    let bytes = pattern.as_bytes();
    let literal = |i: usize| bytes[i] == b'{' && !escaped(bytes, i) && !in_class(bytes, i) && !quantifier(&bytes[i..]);
    if !(0..bytes.len()).any(literal) {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 4);
    for (i, c) in pattern.char_indices() {
        if c == '{' && literal(i) {
            out.push('\\');
        }
        out.push(c);
    }
    // A `}` without its `{` is a literal in both engines.
    Cow::Owned(out)
}

/// Whether `s` (starting at `{`) is a PCRE repetition `{n}`, `{n,}` or `{n,m}`.
fn quantifier(s: &[u8]) -> bool {
    let Some(end) = s.iter().position(|&b| b == b'}') else { return false };
    let inner = &s[1..end];
    let mut parts = inner.splitn(2, |&b| b == b',');
    let min = parts.next().unwrap_or_default();
    let max = parts.next();
    !min.is_empty() && min.iter().all(u8::is_ascii_digit) && max.is_none_or(|m| m.iter().all(u8::is_ascii_digit))
}

/// Whether position `i` is inside a `[...]` class (a rough scan, enough for braces).
fn in_class(bytes: &[u8], i: usize) -> bool {
    let mut inside = false;
    for j in 0..i {
        match bytes[j] {
            b'[' if !escaped(bytes, j) => inside = true,
            b']' if !escaped(bytes, j) && inside => inside = false,
            _ => {}
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    fn any() -> Compiler {
        Compiler::new(&crate::RegexLimits::default())
    }

    fn is(r: &Regex, subject: &str) -> bool {
        r.is_match(subject.as_bytes(), &Fuel::new(usize::MAX)).unwrap()
    }

    #[test]
    fn literal_braces_as_pcre() {
        let r = compile("^/users/{id}/x", true, false, &any()).unwrap();
        assert!(is(&r, "/USERS/{id}/x"));
        let r = compile("^/a{2}$", false, false, &any()).unwrap();
        assert!(is(&r, "/aa") && !is(&r, "/a{2}"));
        let r = compile("^/[{]x", false, false, &any()).unwrap();
        assert!(is(&r, "/{x"));
    }

    #[test]
    fn pcre_only_constructs_are_named() {
        assert!(compile("^/api(?!/internal)", true, false, &any()).unwrap_err().contains("negative lookahead"));
        assert!(compile("^/(a)\\1", true, false, &any()).unwrap_err().contains("backreference"));
        assert!(compile("^/(", true, false, &any()).unwrap_err().contains("not a valid regular expression"));
        // An escaped backslash before a digit is not a backreference.
        assert!(compile("^/a\\\\1", true, false, &any()).is_ok());
    }

    #[test]
    fn escapes_pcre_accepts() {
        // Escaped slashes are common in paths copied from PCRE.
        assert!(is(&compile("^\\/api\\/v1", true, false, &any()).unwrap(), "/api/v1"));
    }
}
