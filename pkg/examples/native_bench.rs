//! The native side of `make bench-js`: the same manifests text and requests the JavaScript side
//! uses, compiled and routed by the library directly, timed the same way (medians of rounds).
//! Prints one JSON line: `{"compileMs": .., "routeNs": ..}`.
//!
//! `cargo run --release -p ingress-router-wasm --example native_bench -- MANIFESTS REQUESTS ROUNDS`

use std::hint::black_box;
use std::time::Instant;

use ingress_router::{CompileOptions, Request, compile, input};

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, manifests, requests, rounds] = args.as_slice() else {
        panic!("usage: native_bench MANIFESTS REQUESTS ROUNDS");
    };
    let text = std::fs::read_to_string(manifests).expect("manifests readable");
    let requests: Vec<(String, String)> =
        serde_json::from_str(&std::fs::read_to_string(requests).expect("requests readable")).expect("requests JSON");
    let rounds: usize = rounds.parse().expect("rounds is a number");

    // compile(): from the same text as the JavaScript side, parsing and the diagnostics included
    // (the package's compile() lints too).
    let build = || {
        let input = input::parse("bench", &text).expect("manifests parse");
        let router = compile(&input, &CompileOptions::default()).expect("the manifests compile");
        let diagnostics = router.lint(&input);
        (router, diagnostics)
    };
    let compile_ms = median(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                black_box(build());
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    let (router, _) = build();
    let route_ns = median(
        (0..rounds * 4)
            .map(|_| {
                let start = Instant::now();
                for (host, path) in &requests {
                    black_box(router.route(&Request::new(black_box(host), black_box(path))));
                }
                start.elapsed().as_secs_f64() * 1e9 / requests.len() as f64
            })
            .collect(),
    );
    println!("{{\"compileMs\": {compile_ms}, \"routeNs\": {route_ns}}}");
}
