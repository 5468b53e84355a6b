//! `RegularExpression` path, header and query matches: implementation-specific in the
//! specification (dialect and precedence). Evaluated when the crate is built with the `nginx`
//! feature, through `regex-lite` (RE2-like syntax, as Envoy's `safe_regex`), anchored at both ends
//! (Envoy matches the whole value); without it they match nothing and `explain` says so. An
//! invalid pattern matches nothing.
//!
//! Where they rank is [`RegexOrder`]'s choice.

use alloc::vec::Vec;

use super::model::{HttpRouteMatch, PathMatchType, ValueMatch, ValueMatchType};

/// Whether this build evaluates `RegularExpression` matches.
pub const REGEX_SUPPORTED: bool = cfg!(feature = "nginx");

pub use crate::options::RegexOrder;

impl RegexOrder {
    /// The path class of a match: smaller first.
    pub fn path_class(self, kind: PathMatchType) -> u64 {
        match (self, kind) {
            (_, PathMatchType::Exact) => 0,
            (RegexOrder::EnvoyGateway, PathMatchType::RegularExpression) => 1,
            (RegexOrder::EnvoyGateway, PathMatchType::PathPrefix) => 2,
            (RegexOrder::Istio, PathMatchType::PathPrefix) => 1,
            (RegexOrder::Istio, PathMatchType::RegularExpression) => 2,
        }
    }
}

/// One compiled pattern (nothing without the `nginx` feature; `None` when invalid).
#[derive(Clone, Debug, Default)]
pub struct Pattern {
    #[cfg(feature = "nginx")]
    re: Option<regex_lite::Regex>,
}

impl Pattern {
    fn new(pattern: &str) -> Pattern {
        #[cfg(feature = "nginx")]
        {
            let anchored = alloc::format!("^(?:{pattern})$");
            Pattern { re: regex_lite::Regex::new(&anchored).ok() }
        }
        #[cfg(not(feature = "nginx"))]
        {
            let _ = pattern;
            Pattern {}
        }
    }

    /// `Ok(matched)`, or `Err(())` when it cannot be evaluated (no regex engine in this build, or an
    /// invalid pattern).
    pub fn is_match(&self, value: &str) -> Result<bool, ()> {
        #[cfg(feature = "nginx")]
        {
            self.re.as_ref().map(|re| re.is_match(value)).ok_or(())
        }
        #[cfg(not(feature = "nginx"))]
        {
            let _ = value;
            Err(())
        }
    }
}

/// The compiled regexes of one `HTTPRouteMatch` (only where its type is `RegularExpression`).
#[derive(Clone, Debug, Default)]
pub struct MatchRegexes {
    pub path: Option<Pattern>,
    pub headers: Vec<Option<Pattern>>,
    pub query: Vec<Option<Pattern>>,
}

impl MatchRegexes {
    pub fn compile(m: &HttpRouteMatch) -> MatchRegexes {
        let values = |matches: &[ValueMatch]| -> Vec<Option<Pattern>> {
            matches
                .iter()
                .map(|v| (v.kind == ValueMatchType::RegularExpression).then(|| Pattern::new(&v.value)))
                .collect()
        };
        MatchRegexes {
            path: (m.path.kind == PathMatchType::RegularExpression).then(|| Pattern::new(&m.path.value)),
            headers: values(&m.headers),
            query: values(&m.query_params),
        }
    }
}

#[cfg(all(test, feature = "nginx"))]
mod tests {
    use super::*;

    #[test]
    fn anchored_patterns() {
        let p = Pattern::new("/a/[0-9]+");
        assert_eq!(p.is_match("/a/12"), Ok(true));
        assert_eq!(p.is_match("/a/12/x"), Ok(false));
        assert_eq!(p.is_match("/x/a/12"), Ok(false));
        assert_eq!(Pattern::new("(").is_match("("), Err(()));
    }
}
