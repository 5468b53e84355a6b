//! The routing conformance cases the wasm tests run: the project's own (`tests/cases/routing.json`).

use std::path::Path;

fn main() {
    let cases = Path::new("../tests/cases/routing.json");
    println!("cargo::rerun-if-changed={}", cases.display());
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("routing.json");
    std::fs::copy(cases, out).expect("the project's routing cases (tests/cases/routing.json) can be copied");
}
