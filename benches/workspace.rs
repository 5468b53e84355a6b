//! One keystroke in a 1 000-path manifest (the playground's speed state: 10 Ingresses of 100
//! flow-style paths and a Service), compiled from scratch and through a `Workspace`: read, compile,
//! lint and the validation report, as the npm package's `compile()` + `router.validate()` and
//! `workspace.update()` + `router.validate()` do. Each iteration types into the text, alternating
//! between two versions, so that the workspace always has one document to read again.
//!
//! `cargo bench --bench workspace`: criterion, then (in `--bench` mode) a summary of medians with
//! the two ways alternated round by round. See BENCHMARKS.md.
//!
//! For callgrind, `KEYSTROKES=n` (and `KEYSTROKE=comment` or `path`, the default) runs only the
//! workspace: the whole text, then `n` keystrokes; the difference between two `n` is their cost.

use ingress_router::compile_seeded;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use ingress_router::views::{self, ValidationReport};
use ingress_router::{CompileOptions, Workspace, input};

const SOURCE: &str = "<input>";

/// `web/test/speed.mjs`'s `thousandPaths()`.
fn thousand_paths() -> String {
    let mut docs = Vec::new();
    for h in 0..10 {
        let paths: Vec<String> = (0..100)
            .map(|p| {
                let kind = if p % 3 == 0 { "Exact" } else { "Prefix" };
                format!(
                    "      - {{path: /svc{p}/v{}, pathType: {kind}, backend: {{service: {{name: svc-{h}-{p}, port: {{number: 80}}}}}}}}",
                    p % 4
                )
            })
            .collect();
        docs.push(format!(
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: app-{h}, namespace: bench}}\nspec:\n  rules:\n  - host: h{h}.example.com\n    http:\n      paths:\n{}",
            paths.join("\n")
        ));
    }
    docs.push("apiVersion: v1\nkind: Service\nmetadata: {name: lb, namespace: bench}\nspec:\n  type: LoadBalancer\n  ports: [{name: http, port: 80}]\nstatus:\n  loadBalancer:\n    ingress: [{ip: 192.0.2.1}]".into());
    format!("# speed: 1 000 paths\n{}\n", docs.join("\n---\n"))
}

/// Two versions of the text one keystroke apart: in the comment on top (as `speed.mjs` types),
/// or in a path of the fifth Ingress.
fn keystrokes(text: &str) -> [(&'static str, [String; 2]); 2] {
    [
        ("comment", [text.replacen("# speed", "# speedx", 1), text.replacen("# speed", "# speedy", 1)]),
        (
            "path",
            [
                text.replacen(
                    "/svc41/v1, pathType: Prefix, backend: {service: {name: svc-4-41",
                    "/svc41/v1x, pathType: Prefix, backend: {service: {name: svc-4-41",
                    1,
                ),
                text.replacen(
                    "/svc41/v1, pathType: Prefix, backend: {service: {name: svc-4-41",
                    "/svc41/v1y, pathType: Prefix, backend: {service: {name: svc-4-41",
                    1,
                ),
            ],
        ),
    ]
}

fn report(input: &input::Input, text: &str, diagnostics: Vec<ingress_router::Diagnostic>) -> ValidationReport {
    views::validation_report(input, &[(SOURCE, text)], &input::Input::default(), diagnostics)
}

fn from_scratch(text: &str) -> ValidationReport {
    let input = input::parse_all(SOURCE, text);
    let router = compile_seeded(&input, &CompileOptions::default(), 7).unwrap();
    let diagnostics = router.lint(&input);
    black_box(&router);
    report(&input, text, diagnostics)
}

fn incremental(workspace: &mut Workspace, text: &str) -> ValidationReport {
    workspace.update(text);
    let (router, diagnostics) = workspace.compile(&CompileOptions::default(), 7).expect("Ingress input compiles");
    black_box(&router);
    report(workspace.input(), text, diagnostics)
}

fn benches(c: &mut Criterion) {
    let text = thousand_paths();
    let mut group = c.benchmark_group("keystroke");
    group.sample_size(20).measurement_time(Duration::from_secs(5));
    for (name, versions) in keystrokes(&text) {
        assert_eq!(from_scratch(&versions[0]), incremental(&mut Workspace::new(SOURCE), &versions[0]));
        let mut turn = 0;
        group.bench_function(format!("{name}/scratch"), |b| {
            b.iter(|| {
                turn ^= 1;
                from_scratch(black_box(&versions[turn]))
            })
        });
        let mut workspace = Workspace::new(SOURCE);
        workspace.update(&text);
        group.bench_function(format!("{name}/workspace"), |b| {
            b.iter(|| {
                turn ^= 1;
                incremental(&mut workspace, black_box(&versions[turn]))
            })
        });
    }
    group.finish();
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The two ways alternated round by round on the same machine: medians in ms.
fn summary() {
    let text = thousand_paths();
    println!("| keystroke in | from scratch ms | workspace ms | scratch / workspace |\n|---|---:|---:|---:|");
    for (name, versions) in keystrokes(&text) {
        let mut workspace = Workspace::new(SOURCE);
        workspace.update(&text);
        let (mut scratch, mut reused) = (Vec::new(), Vec::new());
        for round in 0..40 {
            let version = &versions[round % 2];
            let t = Instant::now();
            black_box(from_scratch(version));
            scratch.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            black_box(incremental(&mut workspace, version));
            reused.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (s, w) = (median(scratch), median(reused));
        println!("| {name} | {s:.2} | {w:.2} | {:.1}x |", s / w);
    }
}

/// The workspace alone: the whole text, then `count` keystrokes of one kind.
fn keystrokes_only(count: usize, kind: &str) {
    let text = thousand_paths();
    let (_, versions) = keystrokes(&text).into_iter().find(|(name, _)| *name == kind).expect("comment or path");
    let mut workspace = Workspace::new(SOURCE);
    black_box(incremental(&mut workspace, &text));
    for round in 0..count {
        black_box(incremental(&mut workspace, &versions[round % 2]));
    }
}

criterion_group!(group, benches);

fn main() {
    if let Some(n) = std::env::var("KEYSTROKES").ok().and_then(|n| n.parse().ok()) {
        return keystrokes_only(n, &std::env::var("KEYSTROKE").unwrap_or_else(|_| "path".into()));
    }
    group();
    Criterion::default().configure_from_args().final_summary();
    if std::env::args().any(|a| a == "--bench") {
        summary();
    }
}
