#!/usr/bin/env bash
# `make pkg`: builds the npm package into pkg/dist (the .wasm, the wasm-bindgen glue, the entries).
source "$(dirname "$0")/tools.sh"
ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules

cd "$PKG"
# Run inside pkg/ so cargo reads pkg/.cargo/config.toml (the release-wasm profile).
cargo build --locked -p ingress-router-wasm --lib --profile release-wasm --target wasm32-unknown-unknown
wasm=$(target_dir)/wasm32-unknown-unknown/release-wasm/ingress_router_wasm.wasm

assemble_dist "$wasm" dist
node_modules/.bin/wasm-opt -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  --enable-reference-types --enable-multivalue \
  dist/ingress_router_bg.wasm -o dist/ingress_router_bg.wasm
cp ../LICENSE LICENSE # npm packs a LICENSE at the package root

raw=$(wc -c < dist/ingress_router_bg.wasm)
gz=$(gzip -9 -c dist/ingress_router_bg.wasm | wc -c)
echo "pkg/dist/ingress_router_bg.wasm: $raw bytes, $gz bytes gzip -9"
