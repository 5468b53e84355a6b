//! `RegularExpression` path, header and query matches: implementation-specific in the
//! specification (dialect and precedence). Evaluated when the crate is built with the `nginx`
//! feature, through the core's bounded engine ([`crate::regex`]: RE2-like syntax, as Envoy's
//! `safe_regex`, with a size limit per pattern and a scan budget per request), anchored at both
//! ends (Envoy matches the whole value); without it they match nothing and `explain` says so. An
//! invalid pattern, or one over the size limit, matches nothing and is reported by name.
//!
//! Where they rank is [`RegexOrder`]'s choice.

use alloc::vec::Vec;

use super::model::{HttpRouteMatch, PathMatchType, ValueMatch, ValueMatchType};

/// Whether this build evaluates `RegularExpression` matches.
#[cfg(test)]
pub(crate) const REGEX_SUPPORTED: bool = cfg!(feature = "nginx");

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

/// One compiled pattern, or why it cannot be evaluated.
#[derive(Clone, Debug)]
pub struct Pattern {
    #[cfg(feature = "nginx")]
    re: Result<crate::regex::Regex, crate::regex::RegexError>,
}

/// Why a `RegularExpression` match answered "no match" without deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unevaluated {
    /// No regex engine in this build, an invalid pattern, or one over the size limit.
    Refused,
    /// The request's regex budget ran out first.
    #[cfg_attr(not(feature = "nginx"), allow(dead_code))]
    Budget,
}

/// The regex budget of one request, and the compiler of a configuration's patterns (nothing to
/// count without the `nginx` feature).
#[cfg(feature = "nginx")]
pub use crate::regex::{Compiler, Fuel};

#[cfg(not(feature = "nginx"))]
#[derive(Debug)]
pub struct Compiler;

#[cfg(not(feature = "nginx"))]
impl Compiler {
    pub fn new(_: &crate::options::RegexLimits) -> Compiler {
        Compiler
    }
}

#[cfg(not(feature = "nginx"))]
#[derive(Debug)]
pub struct Fuel;

#[cfg(not(feature = "nginx"))]
impl Fuel {
    pub fn new(_: usize) -> Fuel {
        Fuel
    }

    pub fn exhausted(&self) -> bool {
        false
    }
}

impl Pattern {
    fn new(pattern: &str, compiler: &Compiler) -> Pattern {
        #[cfg(feature = "nginx")]
        {
            // Envoy matches the whole value.
            let anchored = alloc::format!("^(?:{pattern})$");
            Pattern { re: compiler.compile(&anchored, crate::regex::Flags::default()) }
        }
        #[cfg(not(feature = "nginx"))]
        {
            let _ = (pattern, compiler);
            Pattern {}
        }
    }

    /// Whether the whole `value` matches, within `fuel`.
    pub fn is_match(&self, value: &[u8], fuel: &Fuel) -> Result<bool, Unevaluated> {
        #[cfg(feature = "nginx")]
        {
            let re = self.re.as_ref().map_err(|_| Unevaluated::Refused)?;
            re.is_match(value, fuel).ok_or(Unevaluated::Budget)
        }
        #[cfg(not(feature = "nginx"))]
        {
            let _ = (value, fuel);
            Err(Unevaluated::Refused)
        }
    }

    /// Why it cannot be evaluated, in words; `None` when it can.
    pub fn refusal(&self) -> Option<alloc::string::String> {
        #[cfg(feature = "nginx")]
        {
            self.re.as_ref().err().map(alloc::string::ToString::to_string)
        }
        #[cfg(not(feature = "nginx"))]
        {
            Some("RegularExpression matches are evaluated only with the `nginx` feature (the regex engine)".into())
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
    /// Compiles each `RegularExpression` value within the configuration's regex limits.
    pub fn compile(m: &HttpRouteMatch, compiler: &Compiler) -> MatchRegexes {
        let values = |matches: &[ValueMatch]| -> Vec<Option<Pattern>> {
            matches
                .iter()
                .map(|v| (v.kind == ValueMatchType::RegularExpression).then(|| Pattern::new(&v.value, compiler)))
                .collect()
        };
        MatchRegexes {
            // A GRPCRoute's `Exact` method match is read without a pattern (`exact_matches`).
            path: (m.path.kind == PathMatchType::RegularExpression
                && m.grpc.as_ref().is_none_or(|g| g.kind == ValueMatchType::RegularExpression))
            .then(|| Pattern::new(&m.path.value, compiler)),
            headers: values(&m.headers),
            query: values(&m.query_params),
        }
    }

    /// Each pattern that cannot be evaluated, with its field (`path.value`, `headers[1].value`)
    /// and why.
    pub fn refusals(&self) -> Vec<(alloc::string::String, alloc::string::String)> {
        let mut out = Vec::new();
        if let Some(why) = self.path.as_ref().and_then(Pattern::refusal) {
            out.push(("path.value".into(), why));
        }
        for (kind, list) in [("headers", &self.headers), ("queryParams", &self.query)] {
            for (i, p) in list.iter().enumerate() {
                if let Some(why) = p.as_ref().and_then(Pattern::refusal) {
                    out.push((alloc::format!("{kind}[{i}].value"), why));
                }
            }
        }
        out
    }
}

#[cfg(all(test, feature = "nginx"))]
mod tests {
    use super::*;

    fn any() -> Compiler {
        Compiler::new(&crate::RegexLimits::default())
    }

    #[test]
    fn anchored_patterns() {
        let fuel = Fuel::new(usize::MAX);
        let p = Pattern::new("/a/[0-9]+", &any());
        assert_eq!(p.is_match(b"/a/12", &fuel), Ok(true));
        assert_eq!(p.is_match(b"/a/12/x", &fuel), Ok(false));
        assert_eq!(p.is_match(b"/x/a/12", &fuel), Ok(false));
        // Alternatives are grouped before anchoring: `a|b` is not `^a|b$`.
        assert_eq!(Pattern::new("/a|/b", &any()).is_match(b"/a/x", &fuel), Ok(false));
        assert_eq!(Pattern::new("(", &any()).is_match(b"(", &fuel), Err(Unevaluated::Refused));
        assert!(
            Pattern::new("(a|b)*a(a|b){20}", &any()).refusal().unwrap().contains("regex size limit of 131072 bytes")
        );
        assert_eq!(Pattern::new("a*", &any()).is_match(&[b'a'; 100], &Fuel::new(10)), Err(Unevaluated::Budget));
    }
}
