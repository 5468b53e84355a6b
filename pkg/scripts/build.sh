#!/usr/bin/env bash
# `make pkg`: builds the npm package into pkg/dist (the .wasm, the wasm-bindgen glue, the entries).
source "$(dirname "$0")/tools.sh"
ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules

cd "$PKG"
# Run inside pkg/ so cargo reads pkg/.cargo/config.toml (the release-wasm profile).
cargo build --locked -p ingress-router-wasm --lib --profile release-wasm --target wasm32-unknown-unknown
wasm=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')/wasm32-unknown-unknown/release-wasm/ingress_router_wasm.wasm

rm -rf dist
mkdir -p dist
wasm-bindgen --target web --no-typescript --out-dir dist --out-name ingress_router "$wasm"
node_modules/.bin/wasm-opt -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  --enable-reference-types --enable-multivalue \
  dist/ingress_router_bg.wasm -o dist/ingress_router_bg.wasm
cp js/* dist/
cp ../LICENSE LICENSE # npm packs a LICENSE at the package root

raw=$(wc -c < dist/ingress_router_bg.wasm)
gz=$(gzip -9 -c dist/ingress_router_bg.wasm | wc -c)
echo "pkg/dist/ingress_router_bg.wasm: $raw bytes, $gz bytes gzip -9"
