//! The baseline filters (`--features noop`): the same proxy-wasm plumbing, no routing. The
//! benchmark measures the real filter against them, one host call at a time:
//!
//! - `{}`: nothing per request (the cost of any proxy-wasm filter);
//! - `{"readHeaders": true}`: reads `:authority` and `:path`, as the filter does;
//! - `{"fixedCluster": NAME}`: sets the routing header to `NAME` on every request, as the filter
//!   sets the chosen cluster;
//! - `{"clearRouteCache": true}`: asks Envoy to resolve the route again, as the filter does.
//!
//! All three together are the control filter: exactly the filter's host calls, no lookup. The
//! fail-open test makes it panic per request (`{"panicPerRequest": true}`).

use std::cell::Cell;
use std::rc::Rc;

use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType};
use serde::Deserialize;

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Steps {
    panic_per_request: bool,
    read_headers: bool,
    fixed_cluster: Option<String>,
    clear_route_cache: bool,
}

#[derive(Default)]
pub struct NoopRoot {
    steps: Rc<Steps>,
    clear_route_cache: Rc<Cell<Option<bool>>>,
}

impl Context for NoopRoot {}

impl RootContext for NoopRoot {
    fn on_configure(&mut self, _size: usize) -> bool {
        let config = self.get_plugin_configuration().unwrap_or_default();
        // A baseline for benchmarks: an unreadable configuration does nothing per request.
        self.steps = Rc::new(serde_json::from_slice(&config).unwrap_or_default());
        true
    }

    fn create_http_context(&self, _context_id: u32) -> Option<Box<dyn HttpContext>> {
        Some(Box::new(Noop { steps: self.steps.clone(), clear_route_cache: self.clear_route_cache.clone() }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

struct Noop {
    steps: Rc<Steps>,
    clear_route_cache: Rc<Cell<Option<bool>>>,
}

impl Context for Noop {}

impl HttpContext for Noop {
    fn on_http_request_headers(&mut self, _headers: usize, _end_of_stream: bool) -> Action {
        let steps = &self.steps;
        if steps.panic_per_request {
            panic!("panicPerRequest: a filter failing at request time (fail-open test)");
        }
        if steps.read_headers {
            // Read as the filter reads them (host-owned buffers copied into the VM), then kept
            // alive to the end of the call so the reads are not optimised away.
            let host = self.get_http_request_header_bytes(":authority");
            let path = self.get_http_request_header_bytes(":path");
            std::hint::black_box((host, path));
        }
        if let Some(cluster) = &steps.fixed_cluster {
            self.set_http_request_header_bytes("x-ingress-backend", Some(cluster.as_bytes()));
        }
        if steps.clear_route_cache {
            crate::clear_route_cache(&self.clear_route_cache);
        }
        Action::Continue
    }
}
