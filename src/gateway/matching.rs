//! One `HTTPRouteMatch` against a request: path, method, headers, query parameters (ANDed).

use serde::Serialize;

use super::model::{HttpRouteMatch, PathMatchType, ValueMatch};
use super::regex::{Fuel, MatchRegexes, Pattern, Unevaluated};
use super::request::GatewayRequest;

/// The first condition of a match that the request fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "failed", rename_all = "camelCase")]
pub enum Mismatch {
    Path,
    Method,
    /// The header match at this index of `headers`.
    Header {
        index: usize,
    },
    /// The query-parameter match at this index of `queryParams`.
    Query {
        index: usize,
    },
    /// A `RegularExpression` path, header or query match this build cannot evaluate (built
    /// without the `nginx` feature, which brings the regex engine), an invalid pattern, or one over
    /// the regex size limit: it matches nothing.
    RegularExpression,
    /// A `RegularExpression` match the request's regex budget could not pay for: answered as no
    /// match.
    RegexBudget,
}

/// `PathPrefix`: element-wise, a trailing `/` of the prefix ignored (`/abc` matches `/abc`,
/// `/abc/`, `/abc/def`, not `/abcd`); `/` matches every path. `Exact`: byte for byte.
pub fn path_matches(kind: PathMatchType, value: &str, path: &str) -> bool {
    match kind {
        PathMatchType::Exact => path == value,
        PathMatchType::PathPrefix => {
            let prefix = value.strip_suffix('/').unwrap_or(value);
            path.starts_with(prefix) && (path.len() == prefix.len() || path.as_bytes()[prefix.len()] == b'/')
        }
        PathMatchType::RegularExpression => false,
    }
}

/// Whether `index` is the first entry with its name (later ones are ignored, as
/// `HTTPHeaderMatch.Name` and `HTTPQueryParamMatch.Name` require).
pub fn first_of_name(matches: &[ValueMatch], index: usize, ignore_case: bool) -> bool {
    let name = &matches[index].name;
    !matches[..index].iter().any(|m| if ignore_case { m.name.eq_ignore_ascii_case(name) } else { m.name == *name })
}

/// The number of distinct names (the precedence counts "header matches", duplicates ignored).
pub fn distinct(matches: &[ValueMatch], ignore_case: bool) -> usize {
    (0..matches.len()).filter(|&i| first_of_name(matches, i, ignore_case)).count()
}

/// Checks every condition of `m`; the first failure says which.
pub fn check(
    m: &HttpRouteMatch,
    regexes: &MatchRegexes,
    request: &GatewayRequest<'_>,
    fuel: &Fuel,
) -> Result<(), Mismatch> {
    check_split(m, regexes, request, request.path_only(), request.query(), fuel)
}

/// [`check`] with the request's path and query split off once (a lookup tries several matches).
pub fn check_split(
    m: &HttpRouteMatch,
    regexes: &MatchRegexes,
    request: &GatewayRequest<'_>,
    path: &str,
    query: &str,
    fuel: &Fuel,
) -> Result<(), Mismatch> {
    let exact_grpc = m.grpc.as_ref().and_then(|g| g.exact_matches(path));
    let path_ok = match (exact_grpc, &regexes.path) {
        (Some(ok), _) => ok,
        (None, Some(pattern)) => regex(pattern, path.as_bytes(), fuel)?,
        (None, None) => path_matches(m.path.kind, &m.path.value, path),
    };
    if !path_ok {
        return Err(Mismatch::Path);
    }
    check_beyond_path(m, regexes, request, query, fuel)
}

/// [`check_split`] without the path condition, for a candidate whose path is known to match (the
/// table's exact-path index found it under the request's path).
pub fn check_beyond_path(
    m: &HttpRouteMatch,
    regexes: &MatchRegexes,
    request: &GatewayRequest<'_>,
    query: &str,
    fuel: &Fuel,
) -> Result<(), Mismatch> {
    if let Some(method) = &m.method
        && method != request.method
    {
        return Err(Mismatch::Method);
    }
    for (index, header) in m.headers.iter().enumerate() {
        if !first_of_name(&m.headers, index, true) {
            continue;
        }
        // A repeated request header matches when any of its values does.
        let mut found = false;
        for (_, value) in request.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(&header.name)) {
            found = match regexes.headers.get(index).and_then(Option::as_ref) {
                Some(pattern) => regex(pattern, value.as_bytes(), fuel)?,
                None => *value == header.value,
            };
            if found {
                break;
            }
        }
        if !found {
            return Err(Mismatch::Header { index });
        }
    }
    for (index, param) in m.query_params.iter().enumerate() {
        if !first_of_name(&m.query_params, index, false) {
            continue;
        }
        // The first value of the parameter, as HTTPQueryParamMatch.Name recommends; names compared
        // exactly, values percent-decoded.
        let value = query.split('&').find_map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (name == param.name).then_some(value)
        });
        let found = match (value, regexes.query.get(index).and_then(Option::as_ref)) {
            (None, _) => false,
            (Some(v), Some(pattern)) => regex_decoded(pattern, v, fuel)?,
            (Some(v), None) => decoded_eq(v, &param.value),
        };
        if !found {
            return Err(Mismatch::Query { index });
        }
    }
    Ok(())
}

fn regex(pattern: &Pattern, value: &[u8], fuel: &Fuel) -> Result<bool, Mismatch> {
    pattern.is_match(value, fuel).map_err(|why| match why {
        Unevaluated::Refused => Mismatch::RegularExpression,
        Unevaluated::Budget => Mismatch::RegexBudget,
    })
}

/// A query value is matched decoded; decoding allocates only when the value has an escape.
fn regex_decoded(pattern: &Pattern, raw: &str, fuel: &Fuel) -> Result<bool, Mismatch> {
    if !raw.contains('%') {
        return regex(pattern, raw.as_bytes(), fuel);
    }
    let mut bytes = alloc::vec::Vec::with_capacity(raw.len());
    let raw = raw.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        match (raw[i], raw.get(i + 1).and_then(|&b| hex(b)), raw.get(i + 2).and_then(|&b| hex(b))) {
            (b'%', Some(h), Some(l)) => {
                bytes.push(h << 4 | l);
                i += 3;
            }
            (b, _, _) => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    regex(pattern, &bytes, fuel)
}

/// Whether percent-decoding `raw` gives `expected`, without allocating (`+` stays `+`, as Envoy
/// reads query strings; a malformed escape is kept literally).
pub fn decoded_eq(raw: &str, expected: &str) -> bool {
    let (raw, expected) = (raw.as_bytes(), expected.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < raw.len() {
        let mut byte = raw[i];
        i += 1;
        if byte == b'%'
            && let (Some(h), Some(l)) = (raw.get(i).and_then(|&b| hex(b)), raw.get(i + 1).and_then(|&b| hex(b)))
        {
            byte = h << 4 | l;
            i += 2;
        }
        if expected.get(j) != Some(&byte) {
            return false;
        }
        j += 1;
    }
    j == expected.len()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::model::{PathMatch, ValueMatchType};
    use alloc::string::ToString;
    use alloc::vec;

    /// `PathMatchType`'s doc comment: "the paths `/abc`, `/abc/`, and `/abc/def` would all match
    /// the prefix `/abc`, but the path `/abcd` would not"; Exact `/abc` matches only `/abc`.
    #[test]
    fn paths() {
        for p in ["/abc", "/abc/", "/abc/def"] {
            assert!(path_matches(PathMatchType::PathPrefix, "/abc", p));
            assert!(path_matches(PathMatchType::PathPrefix, "/abc/", p));
        }
        assert!(!path_matches(PathMatchType::PathPrefix, "/abc", "/abcd"));
        assert!(path_matches(PathMatchType::PathPrefix, "/", "/anything"));
        assert!(path_matches(PathMatchType::Exact, "/abc", "/abc"));
        for p in ["/abc/", "/Abc", "/abcd"] {
            assert!(!path_matches(PathMatchType::Exact, "/abc", p));
        }
    }

    #[test]
    fn conditions() {
        let m = HttpRouteMatch {
            path: PathMatch { kind: PathMatchType::PathPrefix, value: "/a".to_string() },
            headers: vec![
                ValueMatch { kind: ValueMatchType::Exact, name: "X-Env".to_string(), value: "prod".to_string() },
                ValueMatch { kind: ValueMatchType::Exact, name: "x-env".to_string(), value: "ignored".to_string() },
            ],
            query_params: vec![ValueMatch {
                kind: ValueMatchType::Exact,
                name: "q".to_string(),
                value: "a b".to_string(),
            }],
            method: Some("POST".to_string()),
            grpc: None,
        };
        let headers = [("x-ENV", "prod")];
        let ok = GatewayRequest::new("h", "/a/b?q=a%20b&q=c").with_method("POST").with_headers(&headers);
        assert_eq!(
            check(
                &m,
                &MatchRegexes::compile(&m, &super::super::regex::Compiler::new(&crate::RegexLimits::default())),
                &ok,
                &Fuel::new(usize::MAX)
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &m,
                &MatchRegexes::compile(&m, &super::super::regex::Compiler::new(&crate::RegexLimits::default())),
                &GatewayRequest { path: "/b", ..ok },
                &Fuel::new(usize::MAX)
            ),
            Err(Mismatch::Path)
        );
        assert_eq!(
            check(
                &m,
                &MatchRegexes::compile(&m, &super::super::regex::Compiler::new(&crate::RegexLimits::default())),
                &GatewayRequest { method: "GET", ..ok },
                &Fuel::new(usize::MAX)
            ),
            Err(Mismatch::Method)
        );
        assert_eq!(
            check(
                &m,
                &MatchRegexes::compile(&m, &super::super::regex::Compiler::new(&crate::RegexLimits::default())),
                &GatewayRequest { headers: &[], ..ok },
                &Fuel::new(usize::MAX)
            ),
            Err(Mismatch::Header { index: 0 })
        );
        assert_eq!(
            check(
                &m,
                &MatchRegexes::compile(&m, &super::super::regex::Compiler::new(&crate::RegexLimits::default())),
                &GatewayRequest { path: "/a?q=c&q=a%20b", ..ok },
                &Fuel::new(usize::MAX)
            ),
            Err(Mismatch::Query { index: 0 })
        );
        assert_eq!(distinct(&m.headers, true), 1);
    }

    #[test]
    fn percent_decoding() {
        assert!(decoded_eq("a%20b", "a b"));
        assert!(decoded_eq("a%2", "a%2"));
        assert!(decoded_eq("a+b", "a+b"));
        assert!(!decoded_eq("ab", "abc"));
        assert!(!decoded_eq("abc", "ab"));
    }
}
