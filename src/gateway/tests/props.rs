//! Property: the compiled Gateway lookup (`GatewayRouter::route`) picks the same (route, rule,
//! match) as a straightforward linear evaluation of the specification's rules, written here
//! independently of the library: hostname intersection and matching as the hostnames page says,
//! then the precedence of `HTTPRouteSpec.Hostnames` and `HTTPRouteRule.Matches`.

use crate::gateway::{GatewayOptions, GatewayRequest, Objects, compile};
use proptest::prelude::*;
use serde_json::{Value, json};

const HOSTNAMES: &[&str] = &[
    "foo.example.com",
    "bar.example.com",
    "*.example.com",
    "*.com",
    "a.b.example.com",
    "*.b.example.com",
    "other.org",
];
const LISTENER_HOSTNAMES: &[Option<&str>] = &[None, Some("*.example.com"), Some("foo.example.com"), Some("*.com")];
const PATHS: &[&str] = &["/", "/a", "/a/", "/a/b", "/ab", "/b"];
const REQUEST_HOSTS: &[&str] =
    &["foo.example.com", "bar.example.com", "a.b.example.com", "x.b.example.com", "example.com", "other.org", "c.com"];
const REQUEST_PATHS: &[&str] = &["/", "/a", "/a/", "/a/b", "/ab", "/a/b/c", "/b"];
const HEADERS: &[(&str, &str)] = &[("x", "1"), ("x", "2"), ("y", "1")];
const TIMESTAMPS: &[Option<&str>] = &[None, Some("2020-01-01T00:00:00Z"), Some("2021-01-01T00:00:00Z")];

#[derive(Clone, Debug)]
struct Match {
    exact: bool,
    path: &'static str,
    method: Option<&'static str>,
    headers: Vec<(&'static str, &'static str)>,
    query: Option<(&'static str, &'static str)>,
}

#[derive(Clone, Debug)]
struct Route {
    namespace: &'static str,
    timestamp: Option<&'static str>,
    hostnames: Vec<&'static str>,
    rules: Vec<Vec<Match>>,
}

fn a_match() -> impl Strategy<Value = Match> {
    (
        any::<bool>(),
        prop::sample::select(PATHS),
        prop::option::of(prop::sample::select(&["GET", "POST"][..])),
        prop::collection::vec(prop::sample::select(HEADERS), 0..3),
        prop::option::of(prop::sample::select(&[("q", "1"), ("q", "2")][..])),
    )
        .prop_map(|(exact, path, method, headers, query)| Match { exact, path, method, headers, query })
}

fn a_route() -> impl Strategy<Value = Route> {
    (
        prop::sample::select(&["a", "b"][..]),
        prop::sample::select(TIMESTAMPS),
        prop::collection::vec(prop::sample::select(HOSTNAMES), 0..3),
        prop::collection::vec(prop::collection::vec(a_match(), 1..3), 1..4),
    )
        .prop_map(|(namespace, timestamp, hostnames, rules)| Route { namespace, timestamp, hostnames, rules })
}

fn manifests(listener: Option<&str>, routes: &[Route]) -> Vec<Value> {
    let mut listener_json =
        json!({"name": "l", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}});
    if let Some(h) = listener {
        listener_json["hostname"] = json!(h);
    }
    let mut values = vec![json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "infra"}, "spec": {"gatewayClassName": "c", "listeners": [listener_json]}})];
    for (i, r) in routes.iter().enumerate() {
        let rules: Vec<Value> = r
            .rules
            .iter()
            .map(|matches| {
                let matches: Vec<Value> = matches
                    .iter()
                    .map(|m| {
                        let mut v =
                            json!({"path": {"type": if m.exact { "Exact" } else { "PathPrefix" }, "value": m.path}});
                        if let Some(method) = m.method {
                            v["method"] = json!(method);
                        }
                        v["headers"] = m.headers.iter().map(|(n, val)| json!({"name": n, "value": val})).collect();
                        if let Some((n, val)) = m.query {
                            v["queryParams"] = json!([{"name": n, "value": val}]);
                        }
                        v
                    })
                    .collect();
                json!({"matches": matches, "backendRefs": [{"name": "svc", "port": 80}]})
            })
            .collect();
        let mut metadata = json!({"name": format!("r{i}"), "namespace": r.namespace});
        if let Some(ts) = r.timestamp {
            metadata["creationTimestamp"] = json!(ts);
        }
        values.push(json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": metadata,
            "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "hostnames": r.hostnames, "rules": rules}}));
    }
    values
}

// ---- The reference model ----

fn host_matches(pattern: &str, host: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    match pattern.strip_prefix("*.") {
        Some(suffix) => host.ends_with(&format!(".{suffix}")),
        None => pattern == host,
    }
}

fn intersect(listener: &str, route: &str) -> Option<String> {
    if listener == "*" {
        return Some(route.to_string());
    }
    if route == "*" {
        return Some(listener.to_string());
    }
    let (lw, rw) = (listener.starts_with("*."), route.starts_with("*."));
    match (lw, rw) {
        (false, false) => (listener == route).then(|| listener.to_string()),
        (true, false) => host_matches(listener, route).then(|| route.to_string()),
        (false, true) => host_matches(route, listener).then(|| listener.to_string()),
        (true, true) => {
            if route.ends_with(&listener[1..]) {
                Some(route.to_string())
            } else if listener.ends_with(&route[1..]) {
                Some(listener.to_string())
            } else {
                None
            }
        }
    }
}

fn path_ok(m: &Match, path: &str) -> bool {
    if m.exact {
        return path == m.path;
    }
    let p = m.path.trim_end_matches('/');
    path.starts_with(p) && (path.len() == p.len() || path[p.len()..].starts_with('/'))
}

fn distinct_headers(m: &Match) -> Vec<(&'static str, &'static str)> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for &(n, v) in &m.headers {
        if !seen.iter().any(|(s, _)| s.eq_ignore_ascii_case(n)) {
            seen.push((n, v));
        }
    }
    seen
}

type RefKey = (i64, i64, u8, i64, u8, i64, i64, (bool, &'static str), (&'static str, String), usize, usize);

fn reference(
    listener: Option<&str>,
    routes: &[Route],
    host: &str,
    path: &str,
    query: &str,
    method: &str,
    headers: &[(&str, &str)],
) -> Option<(String, usize, usize)> {
    let listener = listener.unwrap_or("*");
    if !host_matches(listener, host) {
        return None;
    }
    let mut best: Option<RefKey> = None;
    for (i, r) in routes.iter().enumerate() {
        let intersected: Vec<String> = if r.hostnames.is_empty() {
            vec![listener.to_string()]
        } else {
            r.hostnames.iter().filter_map(|h| intersect(listener, h)).collect()
        };
        let spec = |h: &str| {
            if let Some(s) = h.strip_prefix('*') { (0, s.len() as i64) } else { (h.len() as i64, h.len() as i64) }
        };
        let Some(hostname) = intersected.iter().filter(|h| host_matches(h, host)).max_by_key(|h| spec(h)) else {
            continue;
        };
        let (precise, chars) = spec(hostname);
        for (ri, rule) in r.rules.iter().enumerate() {
            for (mi, m) in rule.iter().enumerate() {
                let hs = distinct_headers(m);
                let ok = path_ok(m, path)
                    && m.method.is_none_or(|x| x == method)
                    && hs.iter().all(|(n, v)| headers.iter().any(|(hn, hv)| hn.eq_ignore_ascii_case(n) && hv == v))
                    && m.query.is_none_or(|(n, v)| {
                        query.split('&').find_map(|p| p.split_once('=').filter(|(k, _)| *k == n).map(|(_, v)| v))
                            == Some(v)
                    });
                if !ok {
                    continue;
                }
                let key: RefKey = (
                    -precise,
                    -chars,
                    u8::from(!m.exact),
                    -(m.path.len() as i64),
                    u8::from(m.method.is_none()),
                    -(hs.len() as i64),
                    -(i64::from(m.query.is_some())),
                    (r.timestamp.is_none(), r.timestamp.unwrap_or("")),
                    (r.namespace, format!("r{i}")),
                    ri,
                    mi,
                );
                if best.as_ref().is_none_or(|b| key < *b) {
                    best = Some(key);
                }
            }
        }
    }
    best.map(|k| (format!("{}/{}", k.8.0, k.8.1), k.9, k.10))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn compiled_lookup_equals_linear_reference(
        listener in prop::sample::select(LISTENER_HOSTNAMES),
        routes in prop::collection::vec(a_route(), 1..6),
        requests in prop::collection::vec((
            prop::sample::select(REQUEST_HOSTS),
            prop::sample::select(REQUEST_PATHS),
            prop::sample::select(&["", "q=1", "q=2"][..]),
            prop::sample::select(&["GET", "POST"][..]),
            prop::collection::vec(prop::sample::select(HEADERS), 0..3),
        ), 1..16),
    ) {
        let router = compile(&Objects::from_values(&manifests(listener, &routes)), &GatewayOptions::default());
        for (host, path, query, method, headers) in requests {
            let target = if query.is_empty() { path.to_string() } else { format!("{path}?{query}") };
            let request = GatewayRequest::new(host, &target).with_method(method).with_headers(&headers);
            let view = router.route(&request).view(&request);
            let parts = view.gateway.clone().expect("a Gateway API decision has its parts");
            let got = parts.route.map(|r| (r, parts.rule.unwrap(), parts.match_index.unwrap()));
            let want = reference(listener, &routes, host, path, query, method, &headers);
            prop_assert_eq!(&got, &want, "{} {} {:?}", host, target, view);
            // explain's own linear pass agrees too.
            let explained = router.explain(&request);
            prop_assert_eq!(explained.winner().map(|(r, a, b)| (r.to_string(), a, b)), want);
        }
    }
}
