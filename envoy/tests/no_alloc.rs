//! What a request routed by Gateway API objects allocates inside the filter's table
//! (`Table::route`): nothing for a forward without filters, a split's pick, a 404 or a 500;
//! a redirect's `Location`, a rewritten path and a rule's header actions only. Counted by a global
//! allocator of this test binary alone. (The host calls' copies of `:authority`, `:path` and
//! `:method` are the host's, outside this table.) A request whose regex budget runs out allocates
//! nothing more there either (the filter's log line for it is the only allocation it adds); nor does
//! the Ingress path's table with the spec profile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ingress_router::Request;
use ingress_router_envoy::config::PluginConfig;
use ingress_router_envoy::routing::{Outcome, Table};

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
    "backendRefs": [{"name": "plain", "port": 80}]}]}},
 {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "evil", "namespace": "tenant"},
  "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "rules": [
   {"matches": [{"path": {"type": "RegularExpression", "value": "(?:[a-z/]{0,100}){0,1000}"}}], "backendRefs": [{"name": "evil", "port": 80}]},
   {"matches": [{"path": {"type": "RegularExpression", "value": "(.*a){20}x0"}}, {"path": {"type": "RegularExpression", "value": "(.*a){20}x1"}},
                {"path": {"type": "RegularExpression", "value": "(.*a){20}x2"}}, {"path": {"type": "RegularExpression", "value": "(.*a){20}x3"}},
                {"path": {"type": "RegularExpression", "value": "(.*a){20}x4"}}, {"path": {"type": "RegularExpression", "value": "(.*a){20}x5"}}],
    "backendRefs": [{"name": "evil", "port": 80}]}]}}
]"#;

fn table() -> Table {
    let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(MANIFESTS).unwrap());
    match Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 1) {
        (Some(table), _) => table,
        (_, report) => panic!("{:?}", report.errors),
    }
}

fn allocations(table: &Table, request: &Request<'_>, random: u64) -> (usize, &'static str) {
    let before = ALLOCATIONS.with(Cell::get);
    let outcome = table.route(request, random).outcome;
    let n = ALLOCATIONS.with(Cell::get) - before;
    let kind = match outcome {
        Outcome::Backend { .. } => "forward",
        Outcome::Redirect { .. } => "redirect",
        Outcome::Local { status: 404, .. } => "404",
        Outcome::Local { .. } => "500",
    };
    (n, kind)
}

#[test]
fn what_a_request_allocates() {
    let t = table();
    let get = |path| Request::new("shop.example.com", path);
    assert_eq!(allocations(&t, &get("/plain/x?q=1"), 0), (0, "forward"));
    assert_eq!(allocations(&t, &get("/split"), 0), (0, "forward"));
    assert_eq!(allocations(&t, &get("/split"), u64::MAX), (0, "forward"));
    let headers = [("x-beta", "1")];
    assert_eq!(allocations(&t, &get("/beta").with_headers(&headers), 0), (0, "forward"));
    assert_eq!(allocations(&t, &get("/nothing"), 0), (0, "404"));
    assert_eq!(allocations(&t, &Request::new("example.org", "/plain"), 0), (0, "404"));
    assert_eq!(allocations(&t, &get("/broken"), 0), (0, "500"));
    // What the core computes for the request, and only then.
    let (n, kind) = allocations(&t, &get("/moved"), 0);
    assert!(kind == "redirect" && n >= 1, "{n} {kind}");
    let (n, kind) = allocations(&t, &get("/rewrite/x"), 0);
    assert!(kind == "forward" && n >= 2, "the path and the header actions: {n} {kind}");
}

/// One tenant's regexes that read a whole 60 KB path each spend the request's budget: the
/// decision says so, and neither that nor the "no match" answers allocate.
#[test]
fn a_spent_regex_budget_allocates_nothing() {
    let t = table();
    let path: String = core::iter::once("/").chain(core::iter::repeat_n("abcdefghijklmnopqrstuvwxyz/", 2300)).collect();
    let hostile = Request::new("other.example.org", &path);
    let before = ALLOCATIONS.with(Cell::get);
    let routed = t.route(&hostile, 0);
    let n = ALLOCATIONS.with(Cell::get) - before;
    assert!(routed.regex_budget_exhausted, "6 scans of 60 KB exceed the default 256 KiB");
    assert!(matches!(routed.outcome, Outcome::Local { status: 404, .. }));
    assert_eq!(n, 0);
    // An ordinary request on the same table is not marked.
    let plain = Request::new("shop.example.com", "/plain");
    assert!(!t.route(&plain, 0).regex_budget_exhausted);
    // A short path the regexes can afford reaches the hostile tenant's backend, unmarked.
    let routed = t.route(&Request::new("other.example.org", "/aaaaaaaaaaaaaaaaaaaax4"), 0);
    assert!(!routed.regex_budget_exhausted);
    assert!(matches!(routed.outcome, Outcome::Backend { cluster: "tenant/evil:80", .. }));
}

/// The Ingress path's table with the spec profile: a forward, a default backend and a 404 allocate
/// nothing.
#[test]
fn the_ingress_spec_profile_allocates_nothing() {
    let manifest = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "a", "namespace": "ns"},
        "spec": {"rules": [{"host": "a.example.com", "http": {"paths": [{"path": "/a", "pathType": "Prefix",
        "backend": {"service": {"name": "a", "port": {"number": 1}}}}]}}]}}"#;
    let config = format!(r#"{{"manifests": {}}}"#, serde_json::to_string(manifest).unwrap());
    let table = match Table::build(&PluginConfig::parse(config.as_bytes()).unwrap(), 1) {
        (Some(table), _) => table,
        (_, report) => panic!("{:?}", report.errors),
    };
    for (host, path) in [("a.example.com", "/a/b?q=1"), ("a.example.com", "/b"), ("b.example.com", "/a")] {
        let request = Request::new(host, path);
        let before = ALLOCATIONS.with(Cell::get);
        let routed = table.route(&request, 0);
        assert_eq!(ALLOCATIONS.with(Cell::get) - before, 0, "{host}{path}: {:?}", routed.outcome);
        assert!(!routed.regex_budget_exhausted);
    }
}
