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
//! let router = compile(&objects, &CompileOptions::default());
//! let diagnostics = router.lint(&objects);
//! assert!(diagnostics.is_empty());
//! let decision = router.route(&Request::new("Shop.Example.com:443", "/cart/items?id=1"));
//! assert_eq!(decision.view().backend, "cart-api:80");
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod class;
mod decision;
pub mod diagnostics;
pub mod explain;
mod hash;
pub mod host;
mod index;
pub mod input;
pub mod model;
mod normalize;
mod options;
pub mod path;
#[cfg(feature = "std")]
pub mod position;
pub mod request;
mod router;
pub mod status;
pub mod table;
pub mod validation;

pub use decision::{
    BackendRef, Decision, DecisionView, IngressRef, MatchedRule, MatchedView, Rejection, ServicePort, Via,
};
pub use diagnostics::{Diagnostic, Severity};
pub use explain::{Explanation, TableView};
pub use normalize::MAX_NORMALIZED_PATH;
pub use options::{CompileOptions, EscapedSlashes, ImplementationSpecific, Profile, UnknownValue};
pub use path::PathType;
pub use request::Request;
pub use router::{Router, compile};
