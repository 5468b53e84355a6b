//! The Gateway API engine's own tests: its types are the crate's, not users' (users go through
//! `compile` and the one `Router`, as `tests/gateway_cli.rs` does through the CLI).

mod cases;
mod grpc;
mod hostile;
#[cfg(feature = "lint")]
mod lint;
mod props;
mod status;
mod validation;
