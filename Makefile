# ingress-router task runner. Every target installs what it needs on a fresh machine
# (Debian 12 with rustup); tools are cached under $(TOOLS).
SHELL := /bin/bash
CARGO ?= cargo
TOOLS ?= $(HOME)/.cache/ingress-router/tools
FUZZ_SECONDS ?= 60
EXAMPLE := examples/shop

.PHONY: all build demo test test-rust test-nostd lint bench bench-wasm fuzz clean wasm-target

all: build

# The CLI is the `cli` feature (a library user never compiles clap).
build:
	$(CARGO) build --release --locked --features cli

# The main job on the bundled example: which backend serves a URL, and why.
demo: build
	./target/release/ingress-router explain --ingress-class nginx -f $(EXAMPLE)/manifests 'https://shop.example.com/cart/items?id=1'
	./target/release/ingress-router test -f $(EXAMPLE)/manifests $(EXAMPLE)/tests.yaml

# Every test the project has.
test: test-rust test-nostd test-pkg test-web

test-rust:
	$(CARGO) test --locked --features cli
	# The benchmark in test mode: the router must answer as the linear scan on generated tables.
	$(CARGO) test --locked --bench route
	# Colliding hashes (a test-only feature makes every key collide): work stays bounded.
	$(CARGO) test --locked --features test-hash-collisions --test hostile colliding

wasm-target:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# The core must build without std (no_std + alloc), for the browser and the proxy.
test-nostd: wasm-target
	$(CARGO) build --locked -p ingress-router --lib --no-default-features --target wasm32-unknown-unknown
	$(CARGO) build --locked -p ingress-router --lib --no-default-features

lint:
	$(CARGO) clippy --locked --all-targets --all-features -- -D warnings
	$(CARGO) clippy --locked --lib --no-default-features -- -D warnings
	# The npm package's wasm-bindgen crate, natively and for the browser.
	$(CARGO) clippy --locked -p ingress-router-wasm --all-targets -- -D warnings
	$(MAKE) wasm-target
	$(CARGO) clippy --locked -p ingress-router-wasm --all-targets --target wasm32-unknown-unknown -- -D warnings
	$(CARGO) fmt --all --check
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --locked --no-deps --all-features --document-private-items

bench:
	$(CARGO) bench --locked --bench route

# Lookup on wasm32 (wasm32-wasip1 under Node's WASI) and natively, side by side (BENCHMARKS.md, "wasm32").
bench-wasm:
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

web-deps:
	cd web && npm ci --no-audit --no-fund

# Browser tests of the playground: Debian's Chromium driven by playwright-core; the exported
# tests files are run through the CLI.
test-web: web chromium
	$(CARGO) build --locked --features cli --bin ingress-router
	cd web && INGRESS_ROUTER_CLI=$(CURDIR)/target/debug/ingress-router node test/run.mjs

chromium:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || { \
	  SUDO=$$(command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo); \
	  $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }

fuzz:
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@test -x $(TOOLS)/bin/cargo-fuzz || $(CARGO) install cargo-fuzz --locked --root $(TOOLS)
	cd fuzz && for target in $$(PATH=$(TOOLS)/bin:$$PATH cargo +nightly fuzz list); do \
	  PATH=$(TOOLS)/bin:$$PATH cargo +nightly fuzz run $$target -- -max_total_time=$(FUZZ_SECONDS) || exit 1; \
	done

clean:
	$(CARGO) clean

# The npm package in pkg/ (pkg/README.md): build, its tests (Node, headless Chromium, the packed
# tarball, a bundler), and its benchmark against the native library.
.PHONY: pkg test-pkg bench-js
pkg:
	bash pkg/scripts/build.sh

test-pkg: pkg
	bash pkg/scripts/test.sh

bench-js: pkg
	bash pkg/scripts/bench.sh
