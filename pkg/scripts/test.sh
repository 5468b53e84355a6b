#!/usr/bin/env bash
# `make test-pkg` (after `make pkg`): the bindings in Node and headless Chromium, the packed
# tarball as a user installs it (Node ESM, tsc --strict), esbuild, Vite and webpack bundles and the
# element in headless Chromium, memory over 10 000 compile/free cycles, and a trap contained (a test build).
source "$(dirname "$0")/tools.sh"
ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules
ensure_chromium
cd "$PKG"

echo "== wasm-bindgen-test: Node"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --locked -p ingress-router-wasm --target wasm32-unknown-unknown --test node
echo "== wasm-bindgen-test: headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --locked -p ingress-router-wasm --target wasm32-unknown-unknown --test browser

echo "== memory: 10 000 compile/free cycles"
node --expose-gc test/memory.mjs

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== a trap in the wasm is contained and the package recovers (a test build with the test-trap feature)"
if grep -q __panicForTest dist/ingress_router.js; then echo "the package has the test-only __panicForTest"; exit 1; fi
cargo build --locked -p ingress-router-wasm --lib --target wasm32-unknown-unknown --features test-trap
trap_wasm=$(target_dir)/wasm32-unknown-unknown/debug/ingress_router_wasm.wasm
assemble_dist "$trap_wasm" "$trap_wasm" "$trap_wasm" "$work/trap"
node --expose-gc test/trap.mjs "$work/trap" 2> "$work/trap.log" || { cat "$work/trap.log"; exit 1; }

echo "== consumer: npm pack, install the tarball, Node ESM, tsc --strict"
cargo build --locked -p ingress-router --features cli --bin ingress-router
cli=$(target_dir)/debug/ingress-router
tarball=$(npm pack --silent --pack-destination "$work")
tar -tzf "$work/$tarball" > "$work/files.txt"
grep -qx package/LICENSE "$work/files.txt" || { echo "the tarball has no LICENSE"; exit 1; }
for f in ../examples/shop/manifests/*.yaml; do echo "---"; cat "$f"; done > "$work/shop.yaml"
cp ../examples/invalid/checkout.yaml "$work/invalid.yaml"
cp ../tests/cases/routing.json "$work/routing.json"
cp ../tests/cases/gateway.json "$work/gateway.json"
mkdir -p "$work/migration"
for f in ../examples/migration/*.yaml; do echo "---"; cat "$f"; done > "$work/migration/careful.yaml"
# Every migration pair in the folder: its manifests as one stream, and the causes it must be found under.
for dir in ../tests/cases/migration/*/; do
  name=$(basename "$dir")
  for f in "$dir"*.yaml; do echo "---"; cat "$f"; done > "$work/migration/$name.yaml"
  cp "$dir/expected-causes" "$work/migration/$name.expected-causes"
done
# One ingress-nginx behaviour a file, for convert() (migrate).
mkdir -p "$work/migrate"
cp ../tests/cases/migrate/*.yaml "$work/migrate/"
cp test/consumer.mjs test/route-only.mjs test/nginx.yaml test/usage.ts test/must-fail.ts test/tsconfig.json "$work/"
(
  cd "$work"
  echo '{"name": "consumer", "private": true, "type": "module"}' > package.json
  npm install --silent --no-audit --no-fund --offline "./$tarball"
  node consumer.mjs shop.yaml invalid.yaml "$cli" routing.json gateway.json migration migrate
  mkdir -p route-only-scratch
  node route-only.mjs shop.yaml "$cli" routing.json route-only-scratch
  # The docs page's table (test/browser/table.html).
  "$cli" compile -f shop.yaml --ingress-class nginx -o shop.table 2>/dev/null
  "$PKG/node_modules/.bin/tsc" -p tsconfig.json
  echo "tsc --strict: usage.ts and the real outputs type-check"
  if "$PKG/node_modules/.bin/tsc" --strict --noEmit --module nodenext --target es2022 --lib es2022,esnext.disposable must-fail.ts > must-fail.log; then
    echo "must-fail.ts type-checked: the types are too loose"; exit 1
  fi
  # Refused for the mode: compile's overloads (Router<GatewayDecision> with a gateway) make it TS2769
  # "No overload matches this call", each overload naming the type "regex" is not.
  grep -q "must-fail.ts(3,.*error TS\(2322\|2769\)" must-fail.log && grep -q "\"regex\"' is not assignable to type 'ImplementationSpecificMode" must-fail.log \
    || { cat must-fail.log; exit 1; }
  echo "tsc --strict: must-fail.ts is refused as it should be"
)

echo "== browser: esbuild bundle, <ingress-route-demo> and a trap in headless Chromium"
node test/browser.mjs "$work"

echo "== bundlers: Vite and webpack production builds of the tarball in headless Chromium"
node test/bundlers.mjs "$work"
