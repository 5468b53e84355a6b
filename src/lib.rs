//! Kubernetes Ingress routing semantics: compile Ingress objects once, route requests many times,
//! explain every decision.
//!
//! ```
//! use ingress_router::{compile, input, CompileOptions, Request};
//! let text = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
//!   "metadata": {"name": "shop", "namespace": "default"},
//!   "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [
//!     {"path": "/cart", "pathType": "Prefix",
//!      "backend": {"service": {"name": "cart-api", "port": {"number": 80}}}}]}}]}}"#;
//! let objects = input::parse("shop.json", text).unwrap().into_objects();
//! let (router, diagnostics) = compile(&objects, &CompileOptions::default());
//! assert!(diagnostics.is_empty());
//! let decision = router.route(&Request::new("Shop.Example.com:443", "/cart/items?id=1"));
//! assert_eq!(decision.backend_label(), "cart-api:80");
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod class;
pub mod diagnostics;
pub mod explain;
mod hash;
pub mod host;
mod index;
pub mod input;
pub mod model;
pub mod normalize;
pub mod path;
#[cfg(feature = "yaml")]
pub mod position;
pub mod request;
pub mod status;
pub mod table;
pub mod validation;
#[cfg(feature = "yaml")]
pub mod views;

pub use diagnostics::{Diagnostic, Severity};
pub use explain::{DecisionView, Explanation, TableView};
pub use path::{ImplementationSpecific, PathType};
pub use request::Request;
pub use table::{CompileOptions, Decision, Profile, Router, Via, compile};
