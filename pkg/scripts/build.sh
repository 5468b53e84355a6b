#!/usr/bin/env bash
# `make pkg`: builds the npm package into pkg/dist: its three .wasm modules (the first without the
# optional engines, the second with the ingress-nginx profile and the Gateway API, loaded on
# demand, and the route-only module of the `route-only` entry, which loads precompiled tables and
# routes), the wasm-bindgen glue of each, the entries.
source "$(dirname "$0")/tools.sh"
ROUTE_OPT_LEVEL=${ROUTE_OPT_LEVEL:-z}
ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules

cd "$PKG"
# Run inside pkg/ so cargo reads pkg/.cargo/config.toml (the release-wasm profile). The first
# module gets a target directory of its own: both builds would write the same output file, and a
# build cargo finds fresh does not write it again.
target=$(target_dir)
first=$target/first-module
route=$target/route-only
cargo build --locked -p ingress-router-wasm --lib --profile release-wasm --target wasm32-unknown-unknown \
  --no-default-features --features compiler --target-dir "$first"
cargo build --locked -p ingress-router-wasm --lib --profile release-wasm --target wasm32-unknown-unknown
# The route-only module: no compiler (YAML, validation, lint), optimised for speed (ROUTE_OPT_LEVEL;
# pkg/README.md has the measurement): it is small, and routing is all it does.
CARGO_PROFILE_RELEASE_WASM_OPT_LEVEL=$ROUTE_OPT_LEVEL cargo build --locked -p ingress-router-wasm --lib \
  --profile release-wasm --target wasm32-unknown-unknown --no-default-features --features tables --target-dir "$route"

first_wasm=$first/wasm32-unknown-unknown/release-wasm/ingress_router_wasm.wasm
second_wasm=$target/wasm32-unknown-unknown/release-wasm/ingress_router_wasm.wasm
route_wasm=$route/wasm32-unknown-unknown/release-wasm/ingress_router_wasm.wasm
# wasm-bindgen and wasm-opt take half a minute: they run again only when what they read changed (the
# two .wasm cargo wrote, the glue, the entries, the tools and these scripts, by content) or dist/ is
# not what they wrote (dist.stamp: tools.sh, dist_key).
key=$(dist_key "$first_wasm" "$second_wasm" "$route_wasm")
if dist_fresh "$key" dist dist.stamp; then
  echo "pkg/dist: up to date (the same .wasm, glue, entries and tools as the last build)"
else
  rm -f dist.stamp
  assemble_dist "$first_wasm" "$second_wasm" "$route_wasm" dist
  for wasm in dist/ingress_router_bg.wasm dist/ingress_router_engines_bg.wasm dist/ingress_router_route_bg.wasm; do
    level=-Oz
    [[ $wasm == *route* && $ROUTE_OPT_LEVEL == 3 ]] && level=-O3
    node_modules/.bin/wasm-opt $level --strip-debug --strip-producers \
      --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
      --enable-reference-types --enable-multivalue \
      "$wasm" -o "$wasm"
    echo "pkg/$wasm: $(wc -c < "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) bytes gzip -9"
  done
  write_dist_stamp "$key" dist dist.stamp
fi
cp ../LICENSE LICENSE # npm packs a LICENSE at the package root
