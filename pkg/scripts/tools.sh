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

# npm devDependencies (binaryen's wasm-opt, esbuild, typescript, playwright-core), from the lock file:
# installed again when the lock file's content differs from the one installed (a stamp in node_modules).
ensure_node_modules() {
  local stamp=$PKG/node_modules/.ingress-router-lock.sha256 want
  want=$(sha256sum "$PKG/package.json" "$PKG/package-lock.json" | sha256sum | cut -d' ' -f1)
  if [[ -f $stamp && $(<"$stamp") == "$want" && -x $PKG/node_modules/.bin/wasm-opt ]]; then return; fi
  (cd "$PKG" && npm ci --no-audit --no-fund)
  echo "$want" > "$stamp"
}

# Debian's chromium and chromedriver, for the browser tests.
ensure_chromium() {
  if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then return; fi
  local sudo=""
  if [[ $(id -u) != 0 ]]; then sudo=sudo; fi
  $sudo apt-get update
  $sudo apt-get install -y chromium chromium-driver
}

# A package folder from the three .wasm files built by cargo (the first module, without the optional
# engines, the second, with them, and the route-only module): wasm-bindgen's glue of each rewritten as a factory
# (scripts/glue.mjs: the module can be instantiated again after a trap), and the entries.
assemble_dist() {
  local first=$1 second=$2 route=$3 out=$4
  rm -rf "$out"
  mkdir -p "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name ingress_router "$first"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name ingress_router_engines "$second"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name ingress_router_route "$route"
  for glue in ingress_router ingress_router_engines ingress_router_route; do node "$PKG/scripts/glue.mjs" "$out/$glue.js" "$out/$glue.js"; done
  cp "$PKG"/js/* "$out/"
}

# What pkg/dist is made from, as one hash: the three .wasm cargo built, the glue and entries copied in,
# the scripts that say how (wasm-opt's flags), and the versions of wasm-bindgen and of the npm tools.
dist_key() {
  local first=$1 second=$2 route=$3
  {
    echo "wasm-bindgen $WASM_BINDGEN_VERSION $WASM_BINDGEN_ROOT"
    (cd "$PKG" && sha256sum package-lock.json scripts/build.sh scripts/tools.sh scripts/glue.mjs js/*)
    sha256sum "$first" "$second" "$route" | sed 's/ .*/ wasm/' # the content, not where the target directory is
  } | sha256sum | cut -d' ' -f1
}

# Whether $out is exactly what the build with this key wrote: the stamp names the key and the hash of
# every file written; a different key, a missing, changed or extra file, or no stamp: not fresh.
dist_fresh() {
  local key=$1 out=$2 stamp=$3
  [[ -f $stamp && -d $out ]] || return 1
  [[ $(head -n1 "$stamp") == "key $key" ]] || return 1
  [[ $(tail -n +2 "$stamp" | sed 's/^[0-9a-f]*  //' | sort) == $(cd "$out" && find . -type f | sort) ]] || return 1
  tail -n +2 "$stamp" | (cd "$out" && sha256sum --check --quiet --strict - >/dev/null 2>&1)
}

write_dist_stamp() {
  local key=$1 out=$2 stamp=$3
  { echo "key $key"; (cd "$out" && find . -type f | sort | xargs -d '\n' sha256sum); } > "$stamp.tmp"
  mv "$stamp.tmp" "$stamp"
}

# The cargo target directory (the worktree's, or CARGO_TARGET_DIR).
target_dir() {
  (cd "$PKG" && cargo metadata --format-version 1 --no-deps) |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))'
}
