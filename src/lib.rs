//! Kubernetes Ingress routing semantics: compile Ingress objects once, route requests many times,
//! explain every decision.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod class;
pub mod input;
pub mod model;
#[cfg(feature = "yaml")]
pub mod position;
pub mod status;
pub mod validation;
