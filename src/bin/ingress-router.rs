//! The `ingress-router` command: everything it does is the library's `cli` module.

fn main() {
    std::process::exit(ingress_router::cli::main());
}
