//! `Router::route` never allocates, for Ingresses and the Gateway API alike (for the latter: the
//! listener choice, the host lowercased into a stack buffer, the exact and wildcard probes, the
//! match checks; a redirect's `Location` built from the request is its one allocation): counted by
//! a global allocator of this test binary alone. Hostile Gateway API requests route without
//! panicking.

use ingress_router::compile;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ingress_router::options::EscapedSlashes;
use ingress_router::{CompileOptions, Request, Router, Via, input};

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
    let input = input::parse("shop.yaml", MANIFESTS).unwrap();
    let long_path = format!("/cart/{}", "a/".repeat(2000));
    let too_long = format!("/{}/..", "a".repeat(8192));
    for options in [
        CompileOptions::default(),
        CompileOptions::default()
            .with_normalize_path(true)
            .with_merge_slashes(true)
            .with_escaped_slashes(EscapedSlashes::UnescapeAndForward),
        CompileOptions::default().with_escaped_slashes(EscapedSlashes::RejectRequest),
        CompileOptions::default().with_normalize_path(true),
    ] {
        let router = compile(&input, &options).unwrap();
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

// ---- the Gateway API

fn gateway_router() -> Router {
    let manifests: serde_json::Value = serde_json::from_str(
        r#"[
      {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "infra"},
       "spec": {"gatewayClassName": "c", "listeners": [
         {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}},
         {"name": "shop", "port": 80, "protocol": "HTTP", "hostname": "*.shop.example.com", "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
      {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "a", "namespace": "apps"},
       "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "hostnames": ["www.example.com", "*.example.com"],
         "rules": [
           {"matches": [{"path": {"type": "Exact", "value": "/exact"}}], "backendRefs": [{"name": "exact", "port": 80}]},
           {"matches": [{"path": {"value": "/api"}, "method": "POST", "headers": [{"name": "x-env", "value": "prod"}],
                         "queryParams": [{"name": "v", "value": "1 2"}]}],
            "backendRefs": [{"name": "api", "port": 80, "weight": 3}, {"name": "api2", "port": 80}]},
           {"filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https"}}]}]}},
      {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "any", "namespace": "apps"},
       "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "rules": [{"backendRefs": [{"name": "any", "port": 80}]}]}}
    ]"#,
    )
    .unwrap();
    let input = input::parse("gateway.json", &manifests.to_string()).unwrap();
    compile(&input, &CompileOptions::default()).unwrap()
}

#[test]
fn gateway_route_does_not_allocate() {
    let router = gateway_router();
    let headers = [("X-Env", "prod"), ("accept", "*/*")];
    let long_host = "a.".repeat(300) + "example.com";
    let requests = [
        Request::new("WWW.Example.com:80", "/exact"),
        Request::new("deep.sub.example.com", "/api/x?v=1%202").with_method("POST").with_headers(&headers),
        Request::new("x.example.com", "/other"),
        Request::new("a.shop.example.com", "/"),
        Request::new("other.org", "/x"),
        Request::new(&long_host, "/x"),
        Request::new("h.com:8080", "/x"),
    ];
    for request in &requests {
        let mut status = 0;
        let n = allocations_of(|| status = router.route(request).status());
        // A redirect's `Location` is built from the request: its one allocation; nothing else allocates.
        let location = usize::from(status == 302);
        assert_eq!(n, location, "{request:?} allocated {n} times");
        assert!(matches!(status, 200 | 302 | 404), "{request:?}: {status}");
    }
    // The decisions are what they should be (outside the counted closures).
    let status = |r: &Request<'_>| router.route(r).view(r);
    let service = |view: ingress_router::DecisionView| view.backend.and_then(|b| b.service).map(|s| s.name);
    assert_eq!(service(status(&requests[0])).as_deref(), Some("exact"));
    assert_eq!(status(&requests[1]).split.map(|s| s.len()), Some(2));
    assert_eq!(status(&requests[2]).redirect.unwrap().location, "https://x.example.com/other");
    // The *.shop listener: `*.example.com` intersects it as `*.shop.example.com`; at equal
    // hostname and path, route apps/a comes before apps/any.
    let shop = status(&requests[3]);
    let parts = shop.gateway.unwrap();
    assert_eq!((parts.listener.as_deref(), parts.route.as_deref(), shop.status), (Some("shop"), Some("apps/a"), 302));
    assert_eq!(service(status(&requests[4])).as_deref(), Some("any"));
    assert_eq!(service(status(&requests[5])).as_deref(), Some("any"));
    assert_eq!(status(&requests[6]).via, ingress_router::Via::NoListener);
}

#[test]
fn gateway_hostile_requests_do_not_panic() {
    let router = gateway_router();
    let long = "/".repeat(100_000);
    let weird =
        ["", ":", "[", "[::1", "]:80", ".", "..", "*.example.com", "é.example.com", "x.example.com:99999", "\u{0}"];
    for host in weird {
        for path in ["", "?", "#", "%", "?v=%", "?v=%zz&&==", long.as_str(), "no-slash"] {
            let request = Request::new(host, path).with_method("");
            let _ = router.route(&request).view(&request);
            let _ = router.explain(&request);
        }
    }
}
