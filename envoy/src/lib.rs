//! An Envoy HTTP filter (proxy-wasm) that routes every request with exact Kubernetes Ingress
//! semantics, or Gateway API semantics when the manifests route through a Gateway: `filter` holds
//! the host calls, `routing` every call into the core (one router whatever the manifests hold;
//! cluster names included: the core's `ClusterNames`), `report` what configuring found and what a
//! request spent, `config` the plugin configuration.

pub mod config;
#[cfg(not(feature = "noop"))]
mod filter;
#[cfg(feature = "noop")]
mod noop;
pub mod report;
pub mod routing;

use std::cell::Cell;

use proxy_wasm::hostcalls;
use proxy_wasm::traits::RootContext;
use proxy_wasm::types::{LogLevel, Status};

/// Asks Envoy to resolve the route again after the routing header changed. Envoy re-resolves the
/// route after a filter changes headers only in some releases; newer ones need this foreign
/// function. `known` remembers, per VM, whether the host has it (asked on the first request).
fn clear_route_cache(known: &Cell<Option<bool>>) {
    if known.get() == Some(false) {
        return;
    }
    let present = !matches!(hostcalls::call_foreign_function("clear_route_cache", Some(&[])), Err(Status::NotFound));
    if known.get().is_none() {
        known.set(Some(present));
    }
}

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
