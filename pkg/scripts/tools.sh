# Sourced by the package's scripts: where the tools live, and installing them when missing.
# Everything goes into $TOOLS (default ~/.cache/ingress-router/tools); nothing from Debian's binaryen.
set -euo pipefail
TOOLS=${TOOLS:-$HOME/.cache/ingress-router/tools}
WASM_BINDGEN_VERSION=0.2.130 # equal to the `=` pins of wasm-bindgen in pkg/Cargo.toml and tools/wasm-bindgen-cli
PKG=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WASM_BINDGEN_CLI=$(dirname "$PKG")/tools/wasm-bindgen-cli
# Named by its lock file too: a change of the lock installs again, and an earlier unlocked install
# (in wasm-bindgen-$WASM_BINDGEN_VERSION) is not taken for this one.
WASM_BINDGEN_ROOT=$TOOLS/wasm-bindgen-$WASM_BINDGEN_VERSION-$(sha256sum "$WASM_BINDGEN_CLI/Cargo.lock" | cut -c1-12)
export PATH=$WASM_BINDGEN_ROOT/bin:$PATH

ensure_wasm_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
}

ensure_wasm_bindgen() {
  # This install's own, not another wasm-bindgen on the PATH.
  if [[ "$("$WASM_BINDGEN_ROOT/bin/wasm-bindgen" --version 2>/dev/null)" == "wasm-bindgen $WASM_BINDGEN_VERSION" &&
    -x $WASM_BINDGEN_ROOT/bin/wasm-bindgen-test-runner ]]; then return; fi
  echo "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into $WASM_BINDGEN_ROOT (a few minutes)"
  # From tools/wasm-bindgen-cli, with its lock file (why: its Cargo.toml): the same dependencies on
  # every machine, and a failure stops the build. A --path install builds in that folder's target
  # directory unless told otherwise: a throwaway one instead, removed once installed.
  local build
  build=$(mktemp -d)
  cargo install --locked --force --path "$WASM_BINDGEN_CLI" --root "$WASM_BINDGEN_ROOT" --target-dir "$build"
  rm -rf "$build"
}

# npm devDependencies (binaryen's wasm-opt, esbuild, typescript, playwright-core), from the lock file.
ensure_node_modules() {
  if [[ ! -f "$PKG/node_modules/.package-lock.json" || "$PKG/package-lock.json" -nt "$PKG/node_modules/.package-lock.json" ]]; then
    (cd "$PKG" && npm ci --no-audit --no-fund)
  fi
}

# Debian's chromium and chromedriver, for the browser tests.
ensure_chromium() {
  if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then return; fi
  local sudo=""
  if [[ $(id -u) != 0 ]]; then sudo=sudo; fi
  $sudo apt-get update
  $sudo apt-get install -y chromium chromium-driver
}

# A package folder from the two .wasm files built by cargo (the first module, without the optional
# engines, and the second, with them): wasm-bindgen's glue of each rewritten as a factory
# (scripts/glue.mjs: the module can be instantiated again after a trap), and the entries.
assemble_dist() {
  local first=$1 second=$2 out=$3
  rm -rf "$out"
  mkdir -p "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name ingress_router "$first"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name ingress_router_engines "$second"
  for glue in ingress_router ingress_router_engines; do node "$PKG/scripts/glue.mjs" "$out/$glue.js" "$out/$glue.js"; done
  cp "$PKG"/js/* "$out/"
}

# The cargo target directory (the worktree's, or CARGO_TARGET_DIR).
target_dir() {
  (cd "$PKG" && cargo metadata --format-version 1 --no-deps) |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))'
}
