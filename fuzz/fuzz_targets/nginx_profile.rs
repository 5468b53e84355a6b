//! Arbitrary bytes through the ingress-nginx profile: `input::parse` -> `compile` with
//! `Profile::IngressNginx` -> `route`, `explain`, `table`, `lint`, and `diff` against the spec
//! profile. Must never panic, and the answer numbers adapters render by must hold.
//!
//! Layout of a fuzz input: byte 0 holds option bits; then the input text; then, after the last
//! NUL byte (if any), requests, one per line, `host path` (split at the first space), each sent
//! with the headers of byte 0's bits. Seeds: any manifest with nginx annotations, prefixed with
//! one byte (`tests/data/nginx/`).
#![no_main]

use ingress_router::testing::InputObjects;
use ingress_router::testing::LintObjects;
use ingress_router::testing::compile_objects as compile;
use ingress_router::{CompileOptions, Profile, Request, Scheme, diff, input};
use libfuzzer_sys::fuzz_target;

#[path = "common/layout.rs"]
mod layout;

const DEFAULT_REQUESTS: &[(&[u8], &[u8])] = &[
    (b"example.com", b"/"),
    (b"www.example.com", b"/api/v1/users?x=1"),
    (b"Foo.Example.COM.:8443", b"/foo/bar/"),
    (b"", b""),
    (b"a.b.example.com", b"//a/../b/%2e%2e/c"),
    (b"\xff.example.com", b"/\xff\xfe"),
];

/// The header sets the canaries may read: none, `always`, `never`, a cookie, an odd value.
const HEADERS: &[&[(&str, &str)]] = &[
    &[],
    &[("X-Canary", "always"), ("cookie", "canary=always")],
    &[("x-canary", "never"), ("Cookie", "a=1; canary=never; b")],
    &[("X-Canary", "\u{0}\u{ff}"), ("cookie", ";;=;")],
];

fuzz_target!(|data: &[u8]| {
    let Some((flags, text, lines)) = layout::split(data) else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let Ok(parsed) = input::parse("fuzz", text) else { return };
    let objects = parsed.clone().into_objects();
    let mut options = CompileOptions::default().with_profile(Profile::IngressNginx);
    // Bit 0: serve a class.
    if flags & 1 != 0 {
        options = options.with_ingress_class("nginx");
    }
    let router = compile(&objects, &options);
    for d in &router.lint_objects(&objects) {
        let _ = d.to_string();
    }
    let _ = serde_json::to_string(&router.table()).expect("the table view serialises");
    // Every answer maps back to a decision that names it.
    for n in 0..router.answer_count() {
        let d = router.answer(n).expect("every answer below answer_count has a decision");
        assert_eq!(d.answer(), Some(n));
    }
    let _ = router.header_names();
    // Bit 1: the diff against the spec profile (slower: only for some inputs).
    if flags & 2 != 0 {
        let report = diff(&parsed, &options, Profile::IngressNginx, Profile::Spec);
        let _ = (report.summary(), report.tests_file());
    }
    let headers = HEADERS[usize::from(flags >> 2) % HEADERS.len()];
    let scheme = if flags & 16 != 0 { Scheme::Https } else { Scheme::Http };
    let check = |host: &[u8], path: &[u8]| {
        let request = Request::from_bytes(host, path).with_headers(headers).with_scheme(scheme);
        let decision = router.route(&request);
        if let Some(n) = decision.answer() {
            let a = router.answer(n).expect("a decision's answer is below answer_count");
            assert_eq!((a.backend(), a.matched()), (decision.backend(), decision.matched()));
        }
        for side in decision.split().unwrap_or_default() {
            assert_eq!(router.answer(side.answer).and_then(|a| a.backend()), Some(side.backend));
        }
        let explanation = router.explain(&request);
        assert_eq!(explanation.decision, decision.view(&request), "explain() and route() disagree");
        let _ = serde_json::to_string(&explanation).expect("the explanation serialises");
    };
    for (host, path) in layout::requests(lines, DEFAULT_REQUESTS) {
        check(host, path);
    }
});
