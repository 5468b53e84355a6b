//! What configuring the filter holds at once: the heap's high-water mark while `on_configure`'s
//! work runs (reading the plugin configuration, the manifests, compiling the table) and what the
//! table keeps afterwards, for the manifests `envoy/tools/bench.py` generates (paths over 10
//! hosts, as `envoy-config` embeds them: JSON objects). A WebAssembly memory never shrinks, so the
//! high-water mark is what every worker VM keeps. Native (64-bit pointers: the wasm32 heap is
//! smaller), so compare builds with each other, not with Envoy's figures.
//!
//! cargo run --release -p ingress-router-envoy --example configure_memory -- 10 10000

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use base64::Engine as _;
use ingress_router_envoy::config::PluginConfig;
use ingress_router_envoy::routing::Table;

struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static HIGH: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        HIGH.fetch_max(live, Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let live = LIVE.fetch_add(new_size, Relaxed) + new_size;
        HIGH.fetch_max(live, Relaxed);
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// The plugin configuration bench.py's manifests give: `paths` paths (two Prefix to one Exact)
/// over 10 hosts, one Ingress per host. Written as text: a JSON value of it would be the
/// program's own high-water mark.
fn configuration(paths: usize) -> Vec<u8> {
    format!(r#"{{"manifests": {}, "routingHeader": "x-ingress-backend", "debugHeader": false}}"#, documents(paths))
        .into_bytes()
}

/// The manifests themselves: a JSON array of the Ingresses.
fn documents(paths: usize) -> String {
    let per_host = (paths / 10).max(1);
    let docs: Vec<String> = (0..10)
        .map(|h| {
            let entries: Vec<String> = (0..per_host)
                .map(|p| {
                    let kind = if p % 3 == 0 { "Exact" } else { "Prefix" };
                    format!(
                        r#"{{"path": "/api/v{}/res{p}", "pathType": "{kind}", "backend": {{"service": {{"name": "backend", "port": {{"number": 80}}}}}}}}"#,
                        p % 7
                    )
                })
                .collect();
            format!(
                r#"{{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {{"name": "app{h}", "namespace": "bench"}}, "spec": {{"rules": [{{"host": "h{h}.bench.example.com", "http": {{"paths": [{}]}}}}]}}}}"#,
                entries.join(", ")
            )
        })
        .collect();
    format!("[{}]", docs.join(", "))
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn main() {
    // `configure_memory --load TABLE_FILE`: only the precompiled table's load (for a heap profiler,
    // whose peak is then the load's, not this program's own writing of the manifests).
    if let [flag, file] = &std::env::args().skip(1).collect::<Vec<_>>()[..]
        && flag == "--load"
    {
        let file = std::fs::read(file).expect("a table file");
        let config = PluginConfig::parse(br#"{"table": "", "routingHeader": "x-ingress-backend"}"#).expect("valid");
        let base = LIVE.load(Relaxed);
        HIGH.store(base, Relaxed);
        let table = Table::load(&config.without_manifests(), &file, 1).0.expect("a table");
        println!(
            "load: high-water mark {}; the table keeps {}",
            mib(HIGH.load(Relaxed) - base),
            mib(LIVE.load(Relaxed) - base)
        );
        drop(table);
        return;
    }
    let counts: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("a path count")).collect();
    for paths in if counts.is_empty() { vec![10, 10_000] } else { counts } {
        let bytes = configuration(paths);
        let size = bytes.len();
        // Counted from before the configuration's bytes existed (the host's copy of them).
        let base = LIVE.load(Relaxed) - size;
        HIGH.store(base + size, Relaxed);
        let above = |bytes: usize| mib(bytes - base);
        // As `on_configure` does: read the manifests, let the bytes go, compile.
        let config = PluginConfig::parse(&bytes).expect("a valid configuration");
        let manifests = Table::read(&config);
        let (read_high, read_live) = (HIGH.load(Relaxed), LIVE.load(Relaxed));
        let config = config.without_manifests();
        drop(bytes);
        HIGH.store(LIVE.load(Relaxed), Relaxed);
        let table = manifests.compile(&config, 1).0.expect("a table");
        println!(
            "{paths} paths: configuration {size} bytes; reading: high-water mark {}, then {} live; \
             compiling: high-water mark {}; the table keeps {}",
            above(read_high),
            above(read_live),
            above(HIGH.load(Relaxed)),
            above(LIVE.load(Relaxed)),
        );
        drop(table);

        // The same table precompiled (`envoy-config --table`): what loading it holds at once.
        let text = documents(paths);
        let input = ingress_router::input::parse("bench", &text).expect("manifests");
        let file = ingress_router::compile_seeded(&input, &Default::default(), 1)
            .expect("a router")
            .to_table_file()
            .expect("a table file");
        drop((input, text));
        let encoded = base64::engine::general_purpose::STANDARD.encode(&file);
        let bytes = format!(r#"{{"table": "{encoded}", "routingHeader": "x-ingress-backend"}}"#).into_bytes();
        let size = bytes.len();
        drop((file, encoded));
        let base = LIVE.load(Relaxed) - size;
        HIGH.store(base + size, Relaxed);
        let above = |bytes: usize| mib(bytes - base);
        // As `on_configure` does: decode the base64, let the bytes go, load.
        let config = PluginConfig::parse(&bytes).expect("a valid configuration");
        let file = config.table_bytes().expect("a table").expect("base64");
        let decode_high = HIGH.load(Relaxed);
        let config = config.without_manifests();
        drop(bytes);
        HIGH.store(LIVE.load(Relaxed), Relaxed);
        let table = Table::load(&config, &file, 1).0.expect("a table");
        let load_high = HIGH.load(Relaxed);
        drop(file);
        println!(
            "{paths} paths, precompiled: configuration {size} bytes; decoding: high-water mark {}; \
             loading: high-water mark {}; the table keeps {}",
            above(decode_high),
            above(load_high),
            above(LIVE.load(Relaxed)),
        );
        drop(table);
        // Under a WASI runtime (node's): the linear memory dlmalloc grew to, its high-water mark.
        #[cfg(target_arch = "wasm32")]
        println!("  linear memory {} after {paths} paths", mib(core::arch::wasm32::memory_size(0) * 65536));
    }
}
