//! The engine against ingress-nginx's documented and tested behaviour (`cases`), and its location
//! choice against a model of nginx's algorithm (`model`). The crate's public API with this
//! profile is tested in `tests/nginx_profile.rs` and `tests/nginx_diff.rs`.

mod cases;
mod model;
