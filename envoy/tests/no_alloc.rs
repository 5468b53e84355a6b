//! What a request on the Gateway API path allocates inside the filter's table
//! (`GatewayTable::route`): nothing for a forward without filters, a split's pick, a 404 or a 500;
//! a redirect's `Location`, a rewritten path and a rule's header actions only. Counted by a global
//! allocator of this test binary alone. (The host calls' copies of `:authority`, `:path` and
//! `:method` are the host's, outside this table.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ingress_router::gateway::GatewayRequest;
use ingress_router_envoy::config::PluginConfig;
use ingress_router_envoy::gateway::{GatewayOutcome, GatewayTable};
use ingress_router_envoy::routing::Routing;

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

const MANIFESTS: &str = r#"[
 {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "gw", "namespace": "infra"},
  "spec": {"gatewayClassName": "c", "listeners": [{"name": "http", "port": 80, "protocol": "HTTP",
           "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
 {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r", "namespace": "apps"},
  "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "hostnames": ["*.example.com"], "rules": [
   {"matches": [{"path": {"value": "/plain"}}], "backendRefs": [{"name": "plain", "port": 80}]},
   {"matches": [{"path": {"value": "/split"}}], "backendRefs": [{"name": "a", "port": 80}, {"name": "b", "port": 80}]},
   {"matches": [{"path": {"value": "/beta"}, "headers": [{"name": "x-beta", "value": "1"}]}], "backendRefs": [{"name": "beta", "port": 80}]},
   {"matches": [{"path": {"value": "/broken"}}], "backendRefs": [{"kind": "Bucket", "group": "x", "name": "b"}]},
   {"matches": [{"path": {"value": "/moved"}}], "filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https"}}]},
   {"matches": [{"path": {"value": "/rewrite"}}], "filters": [
     {"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/v2"}}},
     {"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "x-a", "value": "1"}], "remove": ["x-b"]}}],
    "backendRefs": [{"name": "plain", "port": 80}]}]}}
]"#;

fn table() -> GatewayTable {
    let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(MANIFESTS).unwrap());
    match Routing::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 1) {
        (Some(Routing::Gateway(table)), _) => *table,
        (_, report) => panic!("{:?}", report.errors),
    }
}

fn allocations(table: &GatewayTable, request: &GatewayRequest<'_>, random: u64) -> (usize, &'static str) {
    let before = ALLOCATIONS.with(Cell::get);
    let outcome = table.route(request, random);
    let n = ALLOCATIONS.with(Cell::get) - before;
    let kind = match outcome {
        GatewayOutcome::Forward { .. } => "forward",
        GatewayOutcome::Redirect { .. } => "redirect",
        GatewayOutcome::Local { status: 404, .. } => "404",
        GatewayOutcome::Local { .. } => "500",
    };
    (n, kind)
}

#[test]
fn what_a_request_allocates() {
    let t = table();
    let get = |path| GatewayRequest::new("shop.example.com", path);
    assert_eq!(allocations(&t, &get("/plain/x?q=1"), 0), (0, "forward"));
    assert_eq!(allocations(&t, &get("/split"), 0), (0, "forward"));
    assert_eq!(allocations(&t, &get("/split"), u64::MAX), (0, "forward"));
    let headers = [("x-beta", "1")];
    assert_eq!(allocations(&t, &get("/beta").with_headers(&headers), 0), (0, "forward"));
    assert_eq!(allocations(&t, &get("/nothing"), 0), (0, "404"));
    assert_eq!(allocations(&t, &GatewayRequest::new("example.org", "/plain"), 0), (0, "404"));
    assert_eq!(allocations(&t, &get("/broken"), 0), (0, "500"));
    // What the core computes for the request, and only then.
    let (n, kind) = allocations(&t, &get("/moved"), 0);
    assert!(kind == "redirect" && n >= 1, "{n} {kind}");
    let (n, kind) = allocations(&t, &get("/rewrite/x"), 0);
    assert!(kind == "forward" && n >= 2, "the path and the header actions: {n} {kind}");
}
