#!/usr/bin/env bash
# `make bench-js` (after `make pkg`): route() and compile() in wasm from Node against the native
# library, in one run (pkg/bench/bench.mjs).
source "$(dirname "$0")/tools.sh"
cd "$PKG"
cargo build --locked --release -p ingress-router-wasm --example native_bench
native=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')/release/examples/native_bench
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# BENCH_BASELINE: another build's dist folder, timed in the same rounds (bench/bench.mjs).
node bench/bench.mjs "$native" "$scratch" ${BENCH_BASELINE:+"$BENCH_BASELINE"}
