//! Arbitrary bytes through the whole pipeline: `input::parse` -> `compile` -> `route` and
//! `explain` (and the table view, proxy path normalisation inside `route`, URL reading). Must never panic.
//!
//! Layout of a fuzz input: byte 0 holds option bits; then the input text; then, after the last
//! NUL byte (if any), requests, one per line, `host path` (split at the first space). Without a
//! NUL, a fixed set of requests is routed. Seeds: any YAML or JSON manifest prefixed with one byte.
#![no_main]

use ingress_router::options::{EscapedSlashes, ImplementationSpecific};
use ingress_router::testing::InputObjects;
use ingress_router::testing::LintObjects;
use ingress_router::testing::compile_objects as compile;
use ingress_router::testing::model::{IngressBackend, IngressServiceBackend, ServiceBackendPort};
use ingress_router::{CompileOptions, Request, input};
use libfuzzer_sys::fuzz_target;

#[path = "common/layout.rs"]
mod layout;

const DEFAULT_REQUESTS: &[(&[u8], &[u8])] = &[
    (b"example.com", b"/"),
    (b"Foo.Example.COM.:8443", b"/foo/bar?x=1#y"),
    (b"", b""),
    (b"[::1]:80", b"//a/../b"),
    (b"\xff.example.com", b"/\xff\xfe"),
    (b"a:b:c", b"*"),
];

fuzz_target!(|data: &[u8]| {
    let Some((flags, text, lines)) = layout::split(data) else { return };
    // Bit 0: read the text lossily (else only valid UTF-8 is parsed).
    let text = if flags & 1 != 0 {
        String::from_utf8_lossy(text).into_owned()
    } else {
        match std::str::from_utf8(text) {
            Ok(t) => t.to_owned(),
            Err(_) => return,
        }
    };
    let parsed = match input::parse("fuzz", &text) {
        Ok(parsed) => parsed,
        Err(e) => {
            // Errors must render (Display walks every optional part).
            let _ = e.to_string();
            return;
        }
    };
    for note in &parsed.notes {
        let _ = note.to_string();
    }
    let objects = parsed.into_objects();
    let mut options = CompileOptions::default()
        .with_implementation_specific(match (flags >> 1) % 3 {
            0 => ImplementationSpecific::Prefix,
            1 => ImplementationSpecific::Exact,
            _ => ImplementationSpecific::StringPrefix,
        })
        // Bits 5 to 7: proxy path normalisation.
        .with_normalize_path(flags & 32 != 0)
        .with_merge_slashes(flags & 64 != 0)
        .with_escaped_slashes(if flags & 128 != 0 {
            EscapedSlashes::RejectRequest
        } else {
            EscapedSlashes::UnescapeAndForward
        });
    // Bit 3: serve a class (exercises IngressClass participation).
    if flags & 8 != 0 {
        options = options.with_ingress_class("nginx");
    }
    // Bit 4: a configured default backend.
    if flags & 16 != 0 {
        options = options.with_default_backend(IngressBackend {
            service: Some(IngressServiceBackend {
                name: "fallback".into(),
                port: Some(ServiceBackendPort { name: None, number: Some(80) }),
            }),
            resource: None,
        });
    }
    let router = compile(&objects, &options);
    let diagnostics = router.lint_objects(&objects);
    for d in &diagnostics {
        let _ = d.to_string();
    }
    let _ = serde_json::to_string(&router.table()).expect("the table view serialises");

    let check = |host: &[u8], path: &[u8]| {
        let request = Request::from_bytes(host, path);
        let decision = router.route(&request);
        let explanation = router.explain(&request);
        assert_eq!(explanation.decision, decision.view(&request), "explain() and route() disagree");
        let _ = serde_json::to_string(&explanation).expect("the explanation serialises");
        let url = format!("http://{}{}", String::from_utf8_lossy(host), String::from_utf8_lossy(path));
        if let Ok(r) = Request::from_url(&url) {
            let _ = router.route(&r);
        }
    };
    for (host, path) in layout::requests(lines, DEFAULT_REQUESTS) {
        check(host, path);
    }
});
