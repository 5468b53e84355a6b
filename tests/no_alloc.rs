//! `Router::route` never allocates: counted by a global allocator of this test binary alone.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ingress_router::{CompileOptions, EscapedSlashes, Request, Via, compile, input};

/// Counts the allocations of the current thread (the test harness allocates on other threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_of(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

const MANIFESTS: &str = r#"
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: team-a, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  defaultBackend: {service: {name: fallback, port: {number: 80}}}
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /cart, pathType: Prefix, backend: {service: {name: cart, port: {name: http}}}}
      - {path: /admin, pathType: Exact, backend: {resource: {apiGroup: k8s.example.com, kind: Bucket, name: admin}}}
  - host: "*.example.com"
    http:
      paths:
      - {path: /, pathType: ImplementationSpecific, backend: {service: {name: tenant, port: {number: 8080}}}}
  - http:
      paths:
      - {path: /status, pathType: Exact, backend: {service: {name: status, port: {number: 80}}}}
"#;

/// Requests that take every way through `route`: each tier, each backend kind, the default
/// backend, 404, a long path, a host that needs normalising, and (with normalisation on) paths
/// that are normalised or refused.
const REQUESTS: &[(&str, &str)] = &[
    ("shop.example.com", "/cart/items?id=1"),
    ("Shop.Example.COM.:443", "/cart"),
    ("shop.example.com", "/admin"),
    ("a.example.com", "/x/y/z"),
    ("other.test", "/status"),
    ("other.test", "/nothing"),
    ("", ""),
    ("shop.example.com", "//cart/./items/../x%2Fy%41"),
    ("shop.example.com", "/cart%2fx"),
];

#[test]
fn route_does_not_allocate() {
    let objects = input::parse("shop.yaml", MANIFESTS).unwrap().into_objects();
    let long_path = format!("/cart/{}", "a/".repeat(2000));
    let too_long = format!("/{}/..", "a".repeat(ingress_router::MAX_NORMALIZED_PATH));
    for options in [
        CompileOptions::default(),
        CompileOptions::default()
            .with_normalize_path(true)
            .with_merge_slashes(true)
            .with_escaped_slashes(EscapedSlashes::UnescapeAndForward),
        CompileOptions::default().with_escaped_slashes(EscapedSlashes::RejectRequest),
        CompileOptions::default().with_normalize_path(true),
    ] {
        let router = compile(&objects, &options);
        let mut requests: Vec<Request<'_>> = REQUESTS.iter().map(|(h, p)| Request::new(h, p)).collect();
        requests.push(Request::new("shop.example.com", &long_path));
        requests.push(Request::new("shop.example.com", &too_long));
        let mut seen = Vec::with_capacity(requests.len());
        let count = allocations_of(|| {
            for request in &requests {
                let decision = router.route(request);
                // Read everything the decision holds (still without allocating).
                let namespace = decision.backend().map(|b| b.namespace());
                let matched = decision.matched().map(|m| (m.ingress.namespace, m.path.len()));
                seen.push((decision.via(), namespace.is_some(), matched.is_some(), decision.rejection()));
            }
        });
        assert_eq!(count, 0, "route() allocated with {options:?}");
        // The path too long for the stack buffer is refused (414) when it needs normalising.
        let last = seen.last().unwrap();
        if options.normalize_path {
            assert_eq!((last.0, last.3.map(|r| r.status())), (Via::Rejected, Some(414)));
        } else {
            assert_eq!(last.3, None);
        }
        assert!(seen.iter().any(|s| s.0 == Via::Rule) && seen.iter().any(|s| s.0 == Via::DefaultBackend));
    }
}

#[test]
fn the_counter_counts() {
    assert_eq!(allocations_of(|| drop(std::hint::black_box(vec![1u8; 10]))), 1);
}
