//! Issue 28: the worst a regex configuration that compiles can make one request cost, at Envoy's
//! largest request line and headers (60 KiB), beside the engine the project used before
//! (regex-lite's PikeVM) on the same pattern and subject.
//!
//! - `full-scan-16`: 16 Gateway API routes with `(.*a){20}x<i>` on the request's host, each reading
//!   the whole path: the request's scan budget (256 KiB) runs out and the rest answer no match.
//! - `largest-dfa`: a pattern whose DFA is near the size limit and whose states a random subject
//!   visits in random order (cache misses on every byte), alone on the host.
//! - `ordinary`: a route of ordinary regexes, a 60 KiB path.
//! - `pikevm/...`: the same pattern and subject through regex-lite (only small subjects: at 60 KiB
//!   it takes seconds).
//!
//! `cargo test --bench regex` runs each once.

use ingress_router::compile as compile_input;
use std::hint::black_box;

use criterion::{Criterion, Throughput};
use ingress_router::{CompileOptions, Request, Router, input};
use serde_json::{Value, json};

const LONG: usize = 60 * 1024;

fn router(patterns: &[String]) -> Router {
    let rules: Vec<Value> = patterns
        .iter()
        .map(|p| {
            json!({"matches": [{"path": {"type": "RegularExpression", "value": p}}],
                        "backendRefs": [{"name": "svc", "port": 80}]})
        })
        .collect();
    let values = vec![
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
               "metadata": {"name": "gw", "namespace": "infra"},
               "spec": {"gatewayClassName": "c", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP",
                        "allowedRoutes": {"namespaces": {"from": "All"}}}]}}),
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
               "metadata": {"name": "r", "namespace": "t"},
               "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "rules": rules}}),
    ];
    let list = json!({"apiVersion": "v1", "kind": "List", "items": values});
    let input = input::parse("regex.json", &list.to_string()).expect("the objects read");
    compile_input(&input, &CompileOptions::default()).expect("one Gateway")
}

/// `a`/`b` from a fixed xorshift: a subject that walks a large DFA's states at random.
fn random_ab(len: usize) -> String {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut out = String::from("/");
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push(if x & 1 == 0 { 'a' } else { 'b' });
    }
    out
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let full_scan: Vec<String> = (0..16).map(|i| format!("/(.*a){{20}}x{i}")).collect();
    // 2^11 states of the last 11 letters: 64 KiB of DFA, half the limit, under the 128 KiB limit.
    let largest = vec![String::from("/(a|b)*a(a|b){10}c")];
    let ordinary: Vec<String> = ["/api/v[0-9]+/users/[^/]+", "/static/.*\\.(css|js|png)", "/(en|de|fr)(/.*)?"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let letters = "/abcdefghijklmnopqrstuvwxyz".repeat(LONG / 27 + 1);
    let cases = [
        ("full-scan-16", &full_scan, letters[..LONG].to_string()),
        ("largest-dfa", &largest, random_ab(LONG)),
        ("ordinary", &ordinary, format!("/api/v1/users/{}", "x".repeat(LONG - 14))),
    ];
    let mut group = c.benchmark_group("regex");
    group.throughput(Throughput::Bytes(LONG as u64));
    for (name, patterns, path) in &cases {
        let router = router(patterns);
        let request = Request::new("tenant.example.com", path);
        // Every pattern compiled (none refused by the size limit).
        let explained = serde_json::to_string(&router.explain(&request)).expect("an explanation writes");
        assert!(!explained.contains("\"regularExpression\""), "{name}: {explained}");
        group.bench_function(format!("route-60KiB/{name}"), |b| {
            b.iter(|| black_box(router.route(black_box(&request))).status())
        });
    }
    // The engine before, on a 4 KiB subject (at 60 KiB a single match takes seconds).
    let short = &letters[..4096];
    let before = reference_regex::Regex::new("^(?:/(.*a){20}x0)$").unwrap();
    group.throughput(Throughput::Bytes(short.len() as u64));
    group.bench_function("pikevm-4KiB/full-scan-1", |b| b.iter(|| before.is_match(black_box(short))));
    let one = router(&full_scan[..1]);
    let request = Request::new("tenant.example.com", short);
    group.bench_function("route-4KiB/full-scan-1", |b| b.iter(|| black_box(one.route(black_box(&request))).status()));
    group.finish();
    c.final_summary();
}
