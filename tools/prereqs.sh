#!/usr/bin/env bash
# `make prereqs`: what make cannot install by itself, checked before any build so that a missing
# tool is named up front with how to install it, instead of failing minutes into a build. No
# network; well under a second. Everything else (rustup targets, wasm-bindgen-cli, npm packages,
# Envoy, Chromium, skopeo) the targets install themselves.
#
# Usage: tools/prereqs.sh GROUP...   (rust: every target; node: the npm package, the playground,
# bench-wasm; python: Envoy; apt: what the test targets install with apt-get)
set -uo pipefail

missing=0
need() { # what is missing, how to install it
  printf 'missing: %s\n    %s\n' "$1" "$2" >&2
  missing=1
}

# "X.Y.Z" (a leading v and anything after the numbers ignored) at least "A.B"?
at_least() {
  local have=${1#v} major minor
  IFS=. read -r major minor _ <<<"$have"
  [[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ ]] || return 1
  ((major > $2 || (major == $2 && minor >= $3)))
}

check_rust() {
  if ! command -v rustup >/dev/null || ! command -v cargo >/dev/null; then
    need "rustup and cargo" "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y && . ~/.cargo/env"
  else
    # The crates' rust-version is 1.85 (edition 2024), but the locked dependencies ask for more:
    # proptest (the tests) and time and icu (wasm-bindgen-cli) have rust-version 1.88.
    local version
    version=$(rustc --version 2>/dev/null | awk '{print $2}')
    at_least "$version" 1 88 || need "Rust 1.88 or newer (found ${version:-none})" "rustup update stable"
  fi
  # rustc links native code (build scripts, proc macros, the CLI) with the system's cc.
  command -v cc >/dev/null || need "a C toolchain (cc, the linker rustc calls)" "sudo apt-get install -y build-essential"
}

check_node() {
  # Vite 8 and its tooling: node ^20.19.0 || ^22.13.0 || >=23.5.0 (engines in the package-lock
  # files). Debian 12's nodejs is 18 and comes without npm.
  local how="Node 22 LTS with npm, e.g. from NodeSource: curl -fsSL https://deb.nodesource.com/setup_22.x | sudo -E bash - && sudo apt-get install -y nodejs"
  if ! command -v node >/dev/null; then
    need "Node.js 20.19+ (or 22.13+)" "$how"
  else
    local version major ok=1
    version=$(node --version 2>/dev/null)
    major=${version#v}
    major=${major%%.*}
    case $major in
      20) at_least "$version" 20 19 || ok=0 ;;
      22) at_least "$version" 22 13 || ok=0 ;;
      23) at_least "$version" 23 5 || ok=0 ;;
      *) [[ $major =~ ^[0-9]+$ ]] && ((major >= 24)) || ok=0 ;;
    esac
    ((ok)) || need "Node.js 20.19+ (or 22.13+); found ${version:-an unreadable version}" "$how"
  fi
  command -v npm >/dev/null || need "npm (Debian's nodejs package has none)" "$how"
}

check_python() {
  local venv=${VENV:-$HOME/.cache/ingress-router/venv}
  if ! command -v python3 >/dev/null; then
    need "python3" "sudo apt-get install -y python3 python3-venv"
  elif [[ ! -x $venv/bin/python ]] && ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    # Debian ships venv's ensurepip in python3-venv: without it `python3 -m venv` fails.
    need "python3 -m venv (the Envoy virtualenv, $venv)" "sudo apt-get install -y python3-venv"
  fi
}

check_apt() {
  local wanted=()
  [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] || wanted+=(chromium chromium-driver)
  command -v skopeo >/dev/null || wanted+=(skopeo)
  if ((${#wanted[@]})) && [[ $(id -u) != 0 ]] && ! command -v sudo >/dev/null; then
    need "${wanted[*]} (make installs them with apt-get, which needs root or sudo)" \
      "as root: apt-get install -y ${wanted[*]}"
  fi
}

for group in "$@"; do
  case $group in
    rust | node | python | apt) "check_$group" ;;
    *) echo "tools/prereqs.sh: unknown group $group" >&2; exit 2 ;;
  esac
done
if ((missing)); then
  echo "Install the above, then run make again (README.md, \"Three commands\")." >&2
  exit 1
fi
