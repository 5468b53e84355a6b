#!/usr/bin/env bash
# `make size`: where the bytes go in each WebAssembly module this project ships (the npm
# package's, and the Envoy filter's): raw and gzip -9 size, twiggy's items grouped by the crate
# that owns them, and the largest items. twiggy is installed into $TOOLS on first use.
source "$(dirname "$0")/tools.sh"
TWIGGY_VERSION=0.8.0
TWIGGY=$TOOLS/twiggy-$TWIGGY_VERSION/bin/twiggy
if [[ ! -x $TWIGGY ]]; then
  echo "installing twiggy $TWIGGY_VERSION into $TOOLS (a few minutes)"
  cargo install twiggy --version "$TWIGGY_VERSION" --locked --root "$TOOLS/twiggy-$TWIGGY_VERSION"
fi
cd "$PKG/.."
target=$(cd "$PKG" && target_dir)

# Brotli (quality 11) too: what a CDN or a server with brotli on sends a browser.
brotli_size() { # FILE
  node -e 'const z = require("node:zlib"); const b = require("node:fs").readFileSync(process.argv[1]);
    console.log(z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }).length)' "$1"
}

sizes() { # FILE LABEL
  printf '| %s | %s | %s | %s |\n' "$2" "$(wc -c < "$1")" "$(gzip -9 -c "$1" | wc -c)" "$(brotli_size "$1")"
}

# The npm package: `make pkg` has built it; the cargo output before wasm-opt keeps the names (the
# second module's, built last).
named_pkg=$target/wasm32-unknown-unknown/release-wasm/ingress_router_wasm.wasm
# The filter as `make envoy-wasm` builds it (the core without `yaml` and `lint`), keeping its names
# and before its `wasm-opt` (envoy/tools/wasm-opt.sh), as the npm module's is measured.
(CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_STRIP=debuginfo \
  cargo build --locked -q -p ingress-router-envoy --target wasm32-wasip1 --release --target-dir "$target/size")
named_filter=$target/size/wasm32-wasip1/release/ingress_router_envoy.wasm

echo "| module | bytes | gzip -9 bytes | brotli -q 11 bytes |"
echo "|---|---:|---:|---:|"
sizes pkg/dist/ingress_router_bg.wasm "npm package, first module: spec profile (pkg/dist, after wasm-opt)"
sizes pkg/dist/ingress_router_engines_bg.wasm "npm package, second module: + ingress-nginx, Gateway API (loaded on demand)"
sizes pkg/dist/ingress_router_route_bg.wasm "npm package, route-only module: loads precompiled tables (ingress-router/route-only)"
sizes "$target/wasm32-wasip1/release/ingress_router_envoy.wasm" "Envoy filter (make envoy-wasm)"
sizes "$target/table-only/wasm32-wasip1/release/ingress_router_envoy.wasm" "Envoy filter, table-only build (loads envoy-config --table; no manifests reader, validation or compiler)"
echo
node pkg/scripts/size.mjs "$TWIGGY" "$named_pkg" 14
echo
node pkg/scripts/size.mjs "$TWIGGY" "$named_filter" 14

# The summary, one line per module: `size: NAME RAW_BYTES GZIP_BYTES`, each file gzip -9 on its own
# (as a server sends them), summed. npm-page: what a page loads to compile and route with the spec
# profile (browser.js, the modules it imports statically, followed through, and the first .wasm);
# npm-route-only: the same for the route-only entry (route-only.js and the route-only .wasm);
# npm-all: everything under pkg/dist (the package's code; its README, LICENSE and .d.ts aside);
# envoy-filter: the filter Envoy loads (make envoy-wasm).
page_files() { # ENTRY WASM
  node -e 'const fs = require("node:fs"), path = require("node:path");
    const [dir, entry, wasm] = process.argv.slice(1), seen = new Set(), todo = [entry];
    while (todo.length) {
      const file = todo.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*"\.\/([^"]+)"/gm)) todo.push(m[1]);
    }
    console.log([...seen, wasm].map(f => path.join(dir, f)).join("\n"));' pkg/dist "$1" "$2"
}
summary() { # NAME FILE...
  local name=$1 raw=0 gz=0 f
  shift
  for f in "$@"; do
    raw=$((raw + $(wc -c < "$f")))
    gz=$((gz + $(gzip -9 -c "$f" | wc -c)))
  done
  echo "size: $name $raw $gz"
}
echo
mapfile -t page < <(page_files browser.js ingress_router_bg.wasm)
summary npm-page "${page[@]}"
# npm-route-only: what a page that routes with a precompiled table loads (the route-only entry).
mapfile -t route_page < <(page_files route-only.js ingress_router_route_bg.wasm)
summary npm-route-only "${route_page[@]}"
summary npm-all $(find pkg/dist -type f | sort)
summary envoy-filter "$target/wasm32-wasip1/release/ingress_router_envoy.wasm"
