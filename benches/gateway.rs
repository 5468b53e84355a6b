//! The Gateway API at scale (issue 28): `compile` (the objects read with the apiserver's checks, as
//! every home reads them, then compiled), the status a controller writes (`status::report`) and
//! `migrate`, on 1 000 and 10 000 HTTPRoutes attached to one Gateway, each with its own hostname,
//! path and Service; beside them the Ingress row of the same size (`compile` of as many Ingress
//! paths, 100 per Ingress, as `benches/read.rs` builds them).
//!
//! `cargo bench --features nginx --bench gateway`: criterion (`gateway/{ingress_compile,compile,status,migrate}/<n>`),
//! then, in `--bench` mode, a summary of medians (`GATEWAY_ROUNDS` rounds, default 10) with the
//! four timed in alternation. `GATEWAY_ROUTES=n GATEWAY_PASSES=k GATEWAY_STEP=compile|status|migrate`
//! runs only `k` passes of that step (for callgrind). BENCHMARKS.md ("Gateway API at scale").

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group};
use ingress_router::input::Input;
use ingress_router::migrate::MigrationReport;
use ingress_router::status::{self, StatusOptions};
use ingress_router::{CompileOptions, Profile, Request, Router, input};
use serde_json::{Value, json};

const SIZES: [usize; 2] = [1_000, 10_000];

/// One Gateway (an HTTP listener taking routes from every namespace), `n` HTTPRoutes attached to
/// it, each with a hostname, a `PathPrefix` and an `Exact` match and a backendRef of its own, and
/// the `n` Services they name.
fn routes(n: usize) -> Vec<Value> {
    let mut values = vec![json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "infra"},
        "spec": {"gatewayClassName": "eg", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP",
            "allowedRoutes": {"namespaces": {"from": "All"}}}]}})];
    for i in 0..n {
        values.push(json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": format!("r{i}"), "namespace": format!("team{}", i % 10)},
            "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}],
                     "hostnames": [format!("h{i}.example.com")],
                     "rules": [{"matches": [{"path": {"type": "PathPrefix", "value": format!("/api/v{}", i % 4)}},
                                            {"path": {"type": "Exact", "value": format!("/e{i}")}}],
                                "backendRefs": [{"name": format!("svc{i}"), "port": 80}]}]}}));
        values.push(json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": format!("svc{i}"), "namespace": format!("team{}", i % 10)},
            "spec": {"ports": [{"port": 80}]}}));
    }
    values
}

/// The manifests as every home has them: one input read from the text.
fn read(values: &[Value]) -> Input {
    let text = serde_json::to_string(values).expect("values write");
    input::parse("<bench>", &text).expect("the bench input reads")
}

/// `paths / 100` Ingresses of 100 paths each, a host each (`benches/read.rs`'s).
fn ingresses(paths: usize) -> Input {
    let mut docs = Vec::new();
    for h in 0..paths / 100 {
        let items: Vec<Value> = (0..100)
            .map(|p| {
                json!({"path": format!("/svc{p}/v{}", p % 4), "pathType": if p % 3 == 0 { "Exact" } else { "Prefix" },
                       "backend": {"service": {"name": format!("svc-{h}-{p}"), "port": {"number": 80}}}})
            })
            .collect();
        docs.push(json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": format!("app-{h}"), "namespace": "bench"},
            "spec": {"ingressClassName": "nginx", "rules": [{"host": format!("h{h}.example.com"), "http": {"paths": items}}]}}));
    }
    let text = serde_json::to_string(&docs).expect("values write");
    input::parse("<bench>", &text).expect("the bench input reads")
}

fn compile(input: &Input) -> Router {
    ingress_router::compile_seeded(input, &CompileOptions::default(), 7).expect("one Gateway")
}

fn status(input: &Input) -> status::Report {
    status::report(input, &StatusOptions::default())
}

fn migrate(input: &Input) -> MigrationReport {
    ingress_router::migrate(input, &CompileOptions::default(), Profile::IngressNginx)
}

fn ingress_compile(input: &Input) -> Router {
    ingress_router::compile_seeded(input, &CompileOptions::default(), 7).expect("the Ingresses compile")
}

fn benches(c: &mut Criterion) {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let mut group = c.benchmark_group("gateway");
    group.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    // Without `--bench` (`cargo test --benches`) each runs once: the small size only.
    for &n in SIZES.iter().take(if bench_mode { SIZES.len() } else { 1 }) {
        let values = routes(n);
        let manifests = read(&values);
        let router = compile(&manifests);
        let (host, path) = (format!("h{}.example.com", n - 1), format!("/e{}", n - 1));
        let last = router.route(&Request::new(&host, &path));
        let name = match last.backend() {
            Some(ingress_router::decision::BackendRef::Service { name, .. }) => name,
            other => panic!("h{} answers {other:?}", n - 1),
        };
        assert_eq!(name, format!("svc{}", n - 1), "every route is read");
        let report = status(&manifests);
        let reported = serde_json::to_value(&report).unwrap();
        assert_eq!(reported["objects"].as_array().map(Vec::len), Some(n + 1));
        let ingress = ingresses(n);
        group.bench_with_input(BenchmarkId::new("ingress_compile", n), &ingress, |b, o| {
            b.iter(|| ingress_compile(black_box(o)))
        });
        group.bench_with_input(BenchmarkId::new("compile", n), &manifests, |b, m| b.iter(|| compile(black_box(m))));
        group.bench_with_input(BenchmarkId::new("status", n), &manifests, |b, m| b.iter(|| status(black_box(m))));
        group.bench_with_input(BenchmarkId::new("migrate", n), &manifests, |b, m| b.iter(|| migrate(black_box(m))));
    }
    group.finish();
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn ms<T>(f: impl FnOnce() -> T) -> f64 {
    let t = Instant::now();
    black_box(f());
    t.elapsed().as_secs_f64() * 1e3
}

/// The four timed in alternation, round by round: medians in ms.
fn summary() {
    let rounds = std::env::var("GATEWAY_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(10);
    println!(
        "| HTTPRoutes (Ingress paths) | Ingress compile ms | compile ms | status ms | migrate ms |\n|---:|---:|---:|---:|---:|"
    );
    for n in SIZES {
        let values = routes(n);
        let manifests = read(&values);
        let ingress = ingresses(n);
        let mut times = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..rounds {
            times[0].push(ms(|| ingress_compile(&ingress)));
            times[1].push(ms(|| compile(&manifests)));
            times[2].push(ms(|| status(&manifests)));
            times[3].push(ms(|| migrate(&manifests)));
        }
        let [a, b, c, d] = times.map(median);
        println!("| {n} | {a:.2} | {b:.2} | {c:.2} | {d:.2} |");
    }
}

/// `passes` runs of one step alone (for callgrind: the difference between two `passes` is theirs).
fn step_only(n: usize, passes: usize, step: &str) {
    let values = routes(n);
    let manifests = read(&values);
    for _ in 0..passes {
        match step {
            "compile" => drop(black_box(compile(&manifests))),
            "status" => drop(black_box(status(&manifests))),
            "migrate" => drop(black_box(migrate(&manifests))),
            _ => panic!("GATEWAY_STEP: compile, status or migrate"),
        }
    }
}

criterion_group!(group, benches);

fn main() {
    if let Some(passes) = std::env::var("GATEWAY_PASSES").ok().and_then(|n| n.parse().ok()) {
        let n = std::env::var("GATEWAY_ROUTES").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000);
        return step_only(n, passes, &std::env::var("GATEWAY_STEP").unwrap_or_else(|_| "compile".into()));
    }
    group();
    Criterion::default().configure_from_args().final_summary();
    if std::env::args().any(|a| a == "--bench") {
        summary();
    }
}
