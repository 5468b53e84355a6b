//! The baseline filter (`--features noop`): the same proxy-wasm plumbing, no routing. The benchmark
//! measures this filter's cost against the real one, and with `{"fixedCluster": NAME}` the cost of
//! routing by header alone (it sets `x-ingress-backend: NAME` on every request, as the real filter
//! sets the chosen cluster); the fail-open test makes it panic per request.

use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType};

#[derive(Default)]
pub struct NoopRoot {
    panic_per_request: bool,
    fixed_cluster: Option<std::rc::Rc<str>>,
}

impl Context for NoopRoot {}

impl RootContext for NoopRoot {
    fn on_configure(&mut self, _size: usize) -> bool {
        let config = self.get_plugin_configuration().unwrap_or_default();
        let value: Option<serde_json::Value> = serde_json::from_slice(&config).ok();
        self.panic_per_request = value.as_ref().and_then(|v| v.get("panicPerRequest")?.as_bool()).unwrap_or(false);
        self.fixed_cluster = value.as_ref().and_then(|v| Some(v.get("fixedCluster")?.as_str()?.into()));
        true
    }

    fn create_http_context(&self, _context_id: u32) -> Option<Box<dyn HttpContext>> {
        Some(Box::new(Noop { panic_per_request: self.panic_per_request, fixed_cluster: self.fixed_cluster.clone() }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

struct Noop {
    panic_per_request: bool,
    fixed_cluster: Option<std::rc::Rc<str>>,
}

impl Context for Noop {}

impl HttpContext for Noop {
    fn on_http_request_headers(&mut self, _headers: usize, _end_of_stream: bool) -> Action {
        if self.panic_per_request {
            panic!("panicPerRequest: a filter failing at request time (fail-open test)");
        }
        if let Some(cluster) = &self.fixed_cluster {
            self.set_http_request_header("x-ingress-backend", Some(cluster));
        }
        Action::Continue
    }
}
