//! Reading manifests (`input::parse`: text → values → the model) and compiling them, at 1 000 and
//! 10 000 paths, JSON and YAML: the cost of the model's decoding on the way to a router.
//!
//! `cargo bench --bench read`: medians of `READ_ROUNDS` rounds (default 20) per size and format,
//! parse alone and parse + compile. For callgrind, `READ_PATHS=n READ_FORMAT=json|yaml
//! READ_PASSES=k` runs only `k` reads of that input (no compile); the difference between two `k`
//! is their cost. BENCHMARKS.md ("Ingress model read from values") has the numbers.

use ingress_router::compile_seeded;
use std::hint::black_box;
use std::time::Instant;

use ingress_router::{CompileOptions, input};

/// `paths / 100` Ingresses of 100 paths each (a host each), and a Service.
fn manifests(paths: usize, yaml: bool) -> String {
    let mut docs = Vec::new();
    for h in 0..paths / 100 {
        let items: Vec<String> = (0..100)
            .map(|p| {
                let kind = if p % 3 == 0 { "Exact" } else { "Prefix" };
                format!(
                    r#"{{"path": "/svc{p}/v{}", "pathType": "{kind}", "backend": {{"service": {{"name": "svc-{h}-{p}", "port": {{"number": 80}}}}}}}}"#,
                    p % 4
                )
            })
            .collect();
        docs.push(format!(
            r#"{{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {{"name": "app-{h}", "namespace": "bench", "labels": {{"app": "a{h}"}}, "annotations": {{"note": "n"}}}}, "spec": {{"ingressClassName": "nginx", "tls": [{{"hosts": ["h{h}.example.com"], "secretName": "tls"}}], "rules": [{{"host": "h{h}.example.com", "http": {{"paths": [{}]}}}}]}}}}"#,
            items.join(", ")
        ));
    }
    docs.push(r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "lb", "namespace": "bench"}, "spec": {"type": "LoadBalancer", "ports": [{"name": "http", "port": 80, "targetPort": 8080}]}, "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.1"}]}}}"#.into());
    match yaml {
        // Flow-style YAML documents (JSON is YAML) after a comment, so that the text reads as YAML.
        true => format!("# {paths} paths\n{}", docs.join("\n---\n")),
        false => format!("[{}]", docs.join(",\n")),
    }
}

fn read(text: &str) -> input::Input {
    input::parse("<input>", text).expect("the bench input reads")
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    if let Some(passes) = std::env::var("READ_PASSES").ok().and_then(|n| n.parse::<usize>().ok()) {
        let paths = std::env::var("READ_PATHS").ok().and_then(|n| n.parse().ok()).unwrap_or(1000);
        let text = manifests(paths, std::env::var("READ_FORMAT").is_ok_and(|f| f == "yaml"));
        for _ in 0..passes {
            black_box(read(black_box(&text)));
        }
        return;
    }
    let rounds = std::env::var("READ_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(20);
    println!("| paths | format | parse ms | parse + compile ms |\n|---:|---|---:|---:|");
    for paths in [1_000, 10_000] {
        for yaml in [false, true] {
            let text = manifests(paths, yaml);
            let (mut parse, mut both) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                let t = Instant::now();
                black_box(read(&text));
                parse.push(t.elapsed().as_secs_f64() * 1e3);
                let t = Instant::now();
                let input = read(&text);
                black_box(compile_seeded(&input, &CompileOptions::default(), 7)).unwrap();
                both.push(t.elapsed().as_secs_f64() * 1e3);
                drop(input);
            }
            let format = if yaml { "YAML" } else { "JSON" };
            println!("| {paths} | {format} | {:.2} | {:.2} |", median(parse), median(both));
        }
    }
}
