//! An Envoy HTTP filter (proxy-wasm) that routes every request with exact Kubernetes Ingress
//! semantics: `filter` holds the host calls, `routing` every call into the core (cluster names
//! included: the core's `ClusterNames`), `config` the plugin configuration.

pub mod config;
#[cfg(not(feature = "noop"))]
mod filter;
#[cfg(feature = "noop")]
mod noop;
pub mod routing;

use proxy_wasm::traits::RootContext;
use proxy_wasm::types::LogLevel;

#[cfg(not(feature = "noop"))]
proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|_| -> Box<dyn RootContext> { Box::new(filter::Root::default()) });
}}

#[cfg(feature = "noop")]
proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|_| -> Box<dyn RootContext> { Box::new(noop::NoopRoot::default()) });
}}
