//! The `ingress-router` command. Everything it does lives in `src/cli/`, outside the library.

#[path = "../cli/mod.rs"]
mod cli;

fn main() {
    std::process::exit(cli::main());
}
