//! Gateway API rules with regexes and sizes from the fuzzer: HTTPRoutes (built with `arbitrary`,
//! so always well-formed manifests) whose path, header and query matches are `RegularExpression`
//! (or Exact / PathPrefix) with patterns the fuzzer writes and repeats up to the CRD's 1024
//! characters, redirects and rewrites with fuzz-written paths, and requests with long paths (a
//! fuzz-written segment repeated up to 64 KiB) and headers. Read both unchecked and as the
//! apiserver would accept them, compiled, routed, explained.
//!
//! Checks: never panics (a hostile regex is refused or bounded, never a crash or a hang: libFuzzer's
//! `-timeout` catches the hang); `explain()`'s decision is `route()`'s and its linear winner the
//! compiled lookup's; every redirect `Location` and rewritten upstream path holds only what RFC 3986
//! allows (`percent_encode`d), whatever the manifest or request wrote.
#![no_main]

use arbitrary::{Arbitrary, Result, Unstructured};
use ingress_router::Via;
use ingress_router::testing::{GatewayOptions, GatewayRequest, Objects, RegexOrder, compile};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// Fragments the fuzzer combines into patterns: the constructs that cost regex engines time or
/// memory (nested and counted repetition, alternation, classes, anchors, escapes, Unicode).
const FRAGMENTS: &[&str] = &[
    "a",
    "/",
    ".",
    "*",
    "+",
    "?",
    "(",
    ")",
    "(a+)+",
    "(a|a)*",
    "[a-z]",
    "[^/]",
    "{2}",
    "{1,1000}",
    "{0,}",
    "\\d",
    "\\w+",
    "\\/",
    "|",
    "^",
    "$",
    ".*",
    "(?i)",
    "\\p{L}",
    "é",
    "\\",
    "[",
    "]",
    "%2F",
    "x{1000}{1000}",
];

fn text(u: &mut Unstructured<'_>, max: usize) -> Result<String> {
    let mut out = String::new();
    for _ in 0..u.int_in_range(0..=8u8)? {
        let piece =
            if u.arbitrary()? { FRAGMENTS[u.choose_index(FRAGMENTS.len())?].to_string() } else { u.arbitrary()? };
        // Repeated: the patterns' size is what the compile bounds.
        let times = u.int_in_range(1..=64usize)?;
        for _ in 0..times {
            if out.len() + piece.len() > max {
                return Ok(out);
            }
            out.push_str(&piece);
        }
    }
    Ok(out)
}

fn match_type(u: &mut Unstructured<'_>, path: bool) -> Result<&'static str> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => "Exact",
        1 if path => "PathPrefix",
        _ => "RegularExpression",
    })
}

fn rule(u: &mut Unstructured<'_>, index: usize) -> Result<Value> {
    let mut matches = Vec::new();
    for _ in 0..u.int_in_range(0..=3u8)? {
        let path_type = match_type(u, true)?;
        let prefix = if path_type == "RegularExpression" { "" } else { "/" };
        let mut m = json!({"path": {"type": path_type, "value": format!("{prefix}{}", text(u, 1024)?)}});
        if u.arbitrary()? {
            m["headers"] = json!([{"type": match_type(u, false)?, "name": "x-h", "value": text(u, 1024)?}]);
        }
        if u.arbitrary()? {
            m["queryParams"] = json!([{"type": match_type(u, false)?, "name": "q", "value": text(u, 1024)?}]);
        }
        matches.push(m);
    }
    let mut rule = json!({"matches": matches, "backendRefs": [{"name": format!("svc{index}"), "port": 80}]});
    let modifier = |u: &mut Unstructured<'_>| -> Result<Value> {
        Ok(if u.arbitrary()? {
            json!({"type": "ReplaceFullPath", "replaceFullPath": format!("/{}", text(u, 1024)?)})
        } else {
            json!({"type": "ReplacePrefixMatch", "replacePrefixMatch": format!("/{}", text(u, 1024)?)})
        })
    };
    match u.int_in_range(0..=2u8)? {
        0 => rule["filters"] = json!([{"type": "RequestRedirect", "requestRedirect": {"path": modifier(u)?}}]),
        1 => rule["filters"] = json!([{"type": "URLRewrite", "urlRewrite": {"path": modifier(u)?}}]),
        _ => {}
    }
    Ok(rule)
}

/// A request path: `/` then a fuzz-written segment repeated up to 64 KiB, then maybe a query.
fn long_path(u: &mut Unstructured<'_>) -> Result<String> {
    let segment = text(u, 64)?;
    let mut path = String::from("/");
    for _ in 0..u.int_in_range(1..=4096usize)? {
        if path.len() + segment.len() > 65_536 {
            break;
        }
        path.push_str(&segment);
    }
    if u.arbitrary()? {
        path.push_str("?q=");
        path.push_str(&text(u, 256)?);
    }
    Ok(path)
}

/// Only what RFC 3986 allows in a URI (the `Location` is absolute: `:` and `/` of the scheme too).
fn is_uri(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b))
}

#[derive(Debug)]
struct Case {
    values: Vec<Value>,
    requests: Vec<(String, String)>,
    istio: bool,
}

impl<'a> Arbitrary<'a> for Case {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Case> {
        let rules = (0..u.int_in_range(1..=8usize)?).map(|i| rule(u, i)).collect::<Result<Vec<_>>>()?;
        let values = vec![
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
                   "metadata": {"name": "gw", "namespace": "default"},
                   "spec": {"gatewayClassName": "c", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP"}]}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
                   "metadata": {"name": "r", "namespace": "default"},
                   "spec": {"parentRefs": [{"name": "gw"}], "hostnames": ["h.example.com"], "rules": rules}}),
        ];
        let mut requests = Vec::new();
        for _ in 0..u.int_in_range(1..=4u8)? {
            requests.push((long_path(u)?, text(u, 256)?));
        }
        Ok(Case { values, requests, istio: u.arbitrary()? })
    }
}

fuzz_target!(|case: Case| {
    let options = GatewayOptions {
        regex_order: if case.istio { RegexOrder::Istio } else { RegexOrder::EnvoyGateway },
        ..GatewayOptions::default()
    };
    for objects in [Objects::from_values(&case.values), Objects::from_checked_values(&case.values)] {
        let router = compile(&objects, &options);
        for (path, header) in &case.requests {
            let headers = [("x-h", header.as_str())];
            let request = GatewayRequest::new("h.example.com", path).with_headers(&headers);
            let decision = router.route(&request);
            let view = decision.view(&request);
            if let Some(redirect) = &view.redirect {
                assert!(is_uri(&redirect.location), "{:?}", redirect.location);
            }
            if let Some(upstream) = view.gateway.as_ref().and_then(|g| g.upstream.as_ref()) {
                // Rewritten paths are encoded; a request's own path is forwarded as it came.
                let unchanged = path.split('#').next().unwrap_or("");
                assert!(is_uri(&upstream.path) || upstream.path == unchanged, "{:?}", upstream.path);
            }
            let explained = router.explain(&request);
            assert_eq!(explained.decision, view);
            if view.via != Via::NoListener && view.via != Via::NoGateway {
                let parts = view.gateway.as_ref().expect("a Gateway API decision has its parts");
                let compiled = parts.route.as_deref().map(|r| (r, parts.rule.unwrap(), parts.match_index.unwrap()));
                assert_eq!(explained.winner(), compiled);
            }
        }
    }
});
