//! Arbitrary bytes through the Gateway API core: JSON manifests -> `gateway::Objects::from_values`
//! -> `gateway::compile` -> `route`, `view`, `explain`. Must never panic; `explain`'s decision is
//! `route`'s, and its linear winner is the compiled lookup's.
//!
//! Layout (`common/layout.rs`): byte 0 holds option bits (1: Istio's regex order, 2: check
//! Services, 4: https, 8: POST, 16: a header set); then a JSON document (an array of manifests or
//! one manifest); then, after the last NUL byte, requests `host path` one per line. Seeds: the
//! `objects` arrays of `tests/cases/gateway.json`, prefixed with one byte.
#![no_main]

use ingress_router::Via;
use ingress_router::testing::{GatewayOptions, GatewayRequest, Objects, RegexOrder, compile};
use libfuzzer_sys::fuzz_target;

#[path = "common/layout.rs"]
mod layout;

const DEFAULT_REQUESTS: &[(&[u8], &[u8])] = &[
    (b"example.com", b"/"),
    (b"www.example.com:8080", b"/api/v1/users?x=1&y=%20"),
    (b"Foo.Example.COM.", b"/foo/bar/"),
    (b"", b""),
    (b"a.b.example.com", b"?q"),
];

fuzz_target!(|data: &[u8]| {
    let Some((flags, text, lines)) = layout::split(data) else { return };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(text) else { return };
    let values = match value {
        serde_json::Value::Array(items) => items,
        other => vec![other],
    };
    let options = GatewayOptions {
        regex_order: if flags & 1 != 0 { RegexOrder::Istio } else { RegexOrder::EnvoyGateway },
        check_services: Some(flags & 2 != 0),
        ..GatewayOptions::default()
    };
    let router = compile(&Objects::from_values(&values), &options);
    let headers: &[(&str, &str)] = if flags & 16 != 0 { &[("x-env", "prod"), ("X-Env", "dev")] } else { &[] };
    for (host, path) in layout::requests(lines, DEFAULT_REQUESTS) {
        let (Ok(host), Ok(path)) = (core::str::from_utf8(host), core::str::from_utf8(path)) else { continue };
        let request = GatewayRequest::new(host, path)
            .with_scheme(if flags & 4 != 0 { "https" } else { "http" })
            .with_method(if flags & 8 != 0 { "POST" } else { "GET" })
            .with_headers(headers);
        let decision = router.route(&request);
        let view = decision.view(&request);
        let _ = decision.pick(u64::from(flags) << 56);
        let explained = router.explain(&request);
        assert_eq!(explained.decision, view);
        if view.via != Via::NoListener && view.via != Via::NoGateway {
            let parts = view.gateway.as_ref().expect("a Gateway API decision has its parts");
            let compiled = parts.route.as_deref().map(|r| (r, parts.rule.unwrap(), parts.match_index.unwrap()));
            assert_eq!(explained.winner(), compiled);
        }
    }
});
