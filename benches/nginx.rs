//! The ingress-nginx profile's `route` beside the spec profile's, on the same generated table
//! (hosts with Prefix and Exact paths, a wildcard host, a regex host with a rewrite, a canary).
//!
//! Before timing, every request is routed with a counting allocator: plain requests (no redirect,
//! no rewrite, no `%`/`//`/`/.` in the path) must not allocate once warm. `cargo test --bench
//! nginx` runs that check and each benchmark once.

use ingress_router::compile;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

use criterion::{Criterion, Throughput};
use ingress_router::{Code, CompileOptions, Profile, Request, Via, input};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; the wrapper only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const HOSTS: usize = 50;
const PATHS: usize = 20;

fn manifests() -> String {
    let mut out = String::new();
    for h in 0..HOSTS {
        let mut paths = String::new();
        for p in 0..PATHS {
            let kind = if p % 4 == 0 { "Exact" } else { "Prefix" };
            paths.push_str(&format!(
                "      - {{path: /s{p}/part{}, pathType: {kind}, backend: {{service: {{name: svc-{h}-{p}, port: {{number: 80}}}}}}}}\n",
                p % 3
            ));
        }
        out.push_str(&format!(
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: ing-{h}, namespace: ns}}\nspec:\n  rules:\n  - host: host{h}.example.com\n    http:\n      paths:\n{paths}---\n"
        ));
    }
    out.push_str(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: wild, namespace: ns}\nspec:\n  rules:\n  - host: \"*.tenants.example.com\"\n    http:\n      paths:\n      - {path: /app, pathType: Prefix, backend: {service: {name: app, port: {number: 80}}}}\n---\n\
         apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: api, namespace: ns, annotations: {nginx.ingress.kubernetes.io/use-regex: \"true\"}}\nspec:\n  rules:\n  - host: api.example.com\n    http:\n      paths:\n      - {path: \"/v[0-9]+/users\", pathType: ImplementationSpecific, backend: {service: {name: users, port: {number: 80}}}}\n      - {path: /v1/orders, pathType: Prefix, backend: {service: {name: orders, port: {number: 80}}}}\n---\n\
         apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: api-canary, namespace: ns, annotations: {nginx.ingress.kubernetes.io/canary: \"true\", nginx.ingress.kubernetes.io/canary-by-header: X-Canary}}\nspec:\n  rules:\n  - host: api.example.com\n    http:\n      paths:\n      - {path: /v1/orders, pathType: Prefix, backend: {service: {name: orders-v2, port: {number: 80}}}}\n",
    );
    out
}

fn requests() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for h in 0..HOSTS {
        for p in 0..PATHS {
            out.push((format!("host{h}.example.com"), format!("/s{p}/part{}", p % 3)));
            out.push((format!("HOST{h}.example.com:80"), format!("/s{p}/part{}/x?q=1", p % 3)));
        }
        out.push((format!("host{h}.example.com"), String::from("/missing")));
    }
    out.push((String::from("a.tenants.example.com"), String::from("/app/x")));
    out.push((String::from("api.example.com"), String::from("/V2/users/7")));
    out.push((String::from("api.example.com"), String::from("/v1/orders/1")));
    out.push((String::from("unknown.example.com"), String::from("/")));
    out
}

fn main() {
    let input = input::parse("bench.yaml", &manifests()).unwrap();
    let spec = compile(&input, &CompileOptions::default()).unwrap();
    let nginx = compile(&input, &CompileOptions::default().with_profile(Profile::IngressNginx)).unwrap();
    // The engine's own reports (the lint's notes about regex hosts and canaries are expected here).
    let issues: Vec<_> = nginx
        .lint(&input)
        .into_iter()
        .filter(|d| matches!(d.code, Code::NginxIgnoredAnnotation | Code::NginxSkippedPath | Code::NginxInertCanary))
        .collect();
    assert!(issues.is_empty(), "{issues:?}");
    let requests = requests();
    let headers = [("X-Canary", "always")];

    // No allocation for plain requests (none of these redirects or rewrites), once each regex has
    // made its allocations (a regex's DFA needs no cache; this keeps the check honest if one comes back).
    for (host, path) in &requests {
        nginx.route(&Request::new(host, path).with_headers(&headers));
    }
    for (host, path) in &requests {
        COUNTING.store(true, Relaxed);
        let d = nginx.route(&Request::new(host, path).with_headers(&headers));
        COUNTING.store(false, Relaxed);
        assert!(!matches!(d.via(), Via::Redirect | Via::Rejected), "{host}{path}: {:?}", d);
        assert_eq!(ALLOCS.swap(0, Relaxed), 0, "routing {host}{path} allocated");
    }
    assert_eq!(
        nginx.route(&Request::new("api.example.com", "/v1/orders/1").with_headers(&headers)).to_string(),
        "orders-v2:80"
    );

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("profile");
    group.throughput(Throughput::Elements(requests.len() as u64));
    group.bench_function("spec", |b| {
        b.iter(|| {
            for (host, path) in &requests {
                black_box(spec.route(&Request::new(host, path)).backend());
            }
        })
    });
    group.bench_function("ingress-nginx", |b| {
        b.iter(|| {
            for (host, path) in &requests {
                black_box(nginx.route(&Request::new(host, path).with_headers(&headers)).backend());
            }
        })
    });
    group.finish();
    c.final_summary();
}
