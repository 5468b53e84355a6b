//! `Router::route` timed on whatever target this is built for (`make bench-wasm` builds it for
//! the host and for wasm32-wasip1, and runs the wasm under Node's WASI), next to the lookup's
//! hashing alone with three fold functions, timed in alternation in the same run:
//!
//! - `fold128`: the 64x64->128 multiply folded to 64 bits (the library's hash on 64-bit targets);
//! - `fold32`: two 32x32->64 multiplies (foldhash's fold where the 128-bit product is a library
//!   call, as on wasm32: the library's hash there);
//! - `mul64`: one 64x64->64 multiply and a shift (the cheapest; for reference only, its
//!   collisions do not depend on the seed: see `src/hash.rs`).
//!
//! The table: generated Ingresses, one host per 25 paths; the requests: declared paths, deeper
//! paths, near misses, unknown hosts, query strings. Prints ns per lookup (median of rounds).
//!
//! Then compile's floor: the same Ingresses as one YAML stream, read (`input::parse`: YAML to
//! objects) alone, and read and compiled (validation and the table; no lint), alternated.

use ingress_router::testing::InputObjects;
use ingress_router::testing::compile_objects_seeded as compile_seeded;
use std::hint::black_box;
use std::time::Instant;

use ingress_router::testing::model::*;
use ingress_router::{CompileOptions, Request, Router, input};

const WORDS: [&str; 12] =
    ["api", "v1", "v2", "users", "orders", "cart", "items", "static", "img", "auth", "search", "admin"];

/// xorshift64: the same tables on every target.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn backend(name: &str) -> IngressBackend {
    IngressBackend {
        service: Some(IngressServiceBackend {
            name: name.into(),
            port: Some(ServiceBackendPort { name: None, number: Some(80) }),
        }),
        resource: None,
    }
}

fn random_path(rng: &mut Rng) -> String {
    let mut p = String::new();
    for _ in 0..1 + rng.below(4) {
        p.push('/');
        match rng.below(4) {
            0 => p.push_str(&rng.below(100_000).to_string()),
            _ => p.push_str(WORDS[rng.below(WORDS.len())]),
        }
    }
    p
}

/// `paths` paths over `paths / 25` hosts, and 4 096 requests (host, target).
fn generate(paths: usize) -> (Vec<Object>, Vec<(String, String)>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ paths as u64);
    let hosts = (paths / 25).max(1);
    let mut declared = Vec::new();
    let mut objects = Vec::new();
    let mut made = 0;
    while made < paths {
        let host = format!("h{}.example.com", rng.below(hosts));
        let n = (1 + rng.below(8)).min(paths - made);
        let http_paths = (0..n)
            .map(|i| {
                let path = random_path(&mut rng);
                declared.push((host.clone(), path.clone()));
                let path_type = if rng.below(3) == 0 { "Exact" } else { "Prefix" };
                HttpIngressPath {
                    path: Some(path),
                    path_type: Some(path_type.into()),
                    backend: backend(&format!("s{}", made + i)),
                }
            })
            .collect();
        objects.push(Object::Ingress(Ingress {
            api_version: "networking.k8s.io/v1".into(),
            kind: "Ingress".into(),
            metadata: ObjectMeta { name: format!("i{made}"), namespace: Some("default".into()), ..Default::default() },
            spec: IngressSpec {
                rules: Some(vec![IngressRule {
                    host: Some(host),
                    http: Some(HttpIngressRuleValue { paths: http_paths }),
                }]),
                ..Default::default()
            },
            status: None,
        }));
        made += n;
    }
    let requests = (0..4096)
        .map(|_| {
            let (host, path) = declared[rng.below(declared.len())].clone();
            match rng.below(10) {
                0..=3 => (host, path),
                4..=6 => (host, format!("{path}/{}", WORDS[rng.below(WORDS.len())])),
                7 => (host, format!("{path}x?q=1")),
                8 => ("unknown.example.org".into(), path),
                _ => (host, format!("{path}?id={}", rng.below(1000))),
            }
        })
        .collect();
    (objects, requests)
}

fn folded_multiply128(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

fn folded_multiply32(a: u64, b: u64) -> u64 {
    let (la, ha) = (a as u32 as u64, a >> 32);
    let (lb, hb) = (b as u32 as u64, b >> 32);
    (la * hb) ^ (ha * lb).rotate_right(32)
}

fn mul64(a: u64, b: u64) -> u64 {
    let x = a.wrapping_mul(b);
    x ^ (x >> 32)
}

/// The lookup's hashing of one path: the chain over its words, then a finish for the whole path
/// and for the part before each `/` (the prefixes a lookup probes).
#[inline(never)]
fn hash_prefixes(path: &[u8], fold: impl Fn(u64, u64) -> u64) -> u64 {
    const START: u64 = 0x243f_6a88_85a3_08d3;
    const MIX: u64 = 0x9319_8a2e_0370_7345;
    const FINISH: u64 = 0xa409_3822_299f_31d0;
    let mut states = [0u64; 9];
    let mut state = START;
    let whole = path.len().min(64) / 8;
    for w in 0..whole {
        states[w] = state;
        let word = u64::from_le_bytes(path[8 * w..8 * w + 8].try_into().unwrap_or_default());
        state = fold(state ^ word, MIX);
    }
    states[whole] = state;
    let mut sum = fold(state, FINISH ^ path.len() as u64);
    for (i, _) in path.iter().enumerate().filter(|&(_, &b)| b == b'/') {
        sum ^= fold(states[i / 8] ^ i as u64, FINISH ^ i as u64);
    }
    sum
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time_router(router: &Router, requests: &[(String, String)]) -> f64 {
    let start = Instant::now();
    let mut hits = 0usize;
    for (host, target) in requests {
        hits += black_box(router.route(&Request::new(host, target))).matched().is_some() as usize;
    }
    black_box(hits);
    start.elapsed().as_nanos() as f64 / requests.len() as f64
}

fn time_hash(paths: &[&[u8]], fold: impl Fn(u64, u64) -> u64 + Copy) -> f64 {
    let start = Instant::now();
    let mut sum = 0u64;
    for _ in 0..4 {
        for path in paths {
            sum ^= hash_prefixes(black_box(path), fold);
        }
    }
    black_box(sum);
    start.elapsed().as_nanos() as f64 / (4 * paths.len()) as f64
}

/// The objects as a YAML stream, one document per Ingress, as `kubectl get -o yaml` users write them.
fn yaml(objects: &[Object]) -> String {
    let mut out = String::new();
    for object in objects {
        let Object::Ingress(ingress) = object else { continue };
        let rules = ingress.spec.rules.as_deref().unwrap_or_default();
        out.push_str(&format!(
            "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {}\n  namespace: default\nspec:\n  rules:\n",
            ingress.metadata.name
        ));
        for rule in rules {
            out.push_str(&format!("  - host: {}\n    http:\n      paths:\n", rule.host.as_deref().unwrap_or_default()));
            for path in rule.http.as_ref().map(|h| h.paths.as_slice()).unwrap_or_default() {
                let service = path.backend.service.as_ref().map_or("", |s| s.name.as_str());
                out.push_str(&format!(
                    "      - path: {}\n        pathType: {}\n        backend:\n          service:\n            name: {service}\n            port:\n              number: 80\n",
                    path.path.as_deref().unwrap_or_default(),
                    path.path_type.as_deref().unwrap_or_default(),
                ));
            }
        }
    }
    out
}

fn time_ms(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_nanos() as f64 / 1e6
}

/// Reading the YAML alone against reading and compiling it, alternated.
fn compile_floor(target: &str) {
    println!();
    println!("| target | paths | YAML bytes | parse ms | parse + compile ms | (parse + compile) / parse |");
    println!("|---|---:|---:|---:|---:|---:|");
    for paths in [1_000, 10_000] {
        let (objects, _) = generate(paths);
        let text = yaml(&objects);
        let rounds = if paths > 1_000 { 11 } else { 31 };
        let parse = || input::parse("bench.yaml", black_box(&text)).expect("the generated YAML reads");
        for _ in 0..3 {
            black_box(parse());
        }
        let (mut read, mut both, mut ratio) = (vec![], vec![], vec![]);
        for _ in 0..rounds {
            let a = time_ms(|| drop(black_box(parse())));
            let b = time_ms(|| {
                let objects = parse().into_objects();
                drop(black_box(compile_seeded(&objects, &CompileOptions::default(), 0x5eed)));
            });
            read.push(a);
            both.push(b);
            ratio.push(b / a);
        }
        println!(
            "| {target} | {paths} | {} | {:.2} | {:.2} | {:.2}x |",
            text.len(),
            median(read),
            median(both),
            median(ratio)
        );
    }
}

fn main() {
    let target = if cfg!(target_family = "wasm") { "wasm32" } else { "native" };
    let rounds = 31;
    println!(
        "| target | paths | route ns/lookup | hash fold128 ns | hash fold32 ns | hash mul64 ns | fold32/fold128 |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for paths in [1_000, 10_000] {
        let (objects, requests) = generate(paths);
        let router = compile_seeded(&objects, &CompileOptions::default(), 0x5eed ^ paths as u64);
        let cut: Vec<&[u8]> =
            requests.iter().map(|(_, t)| t.split(['?', '#']).next().unwrap_or("").as_bytes()).collect();
        // Warm up (V8 compiles wasm with a baseline compiler first, and optimises hot functions
        // later), then alternate, so that load from other processes hits every column alike.
        for _ in 0..20 {
            time_router(&router, &requests);
            time_hash(&cut, folded_multiply128);
            time_hash(&cut, folded_multiply32);
            time_hash(&cut, mul64);
        }
        let (mut route, mut f128, mut f32_, mut m64, mut ratio) = (vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..rounds {
            route.push(time_router(&router, &requests));
            let a = time_hash(&cut, folded_multiply128);
            let b = time_hash(&cut, folded_multiply32);
            m64.push(time_hash(&cut, mul64));
            f128.push(a);
            f32_.push(b);
            ratio.push(b / a);
        }
        println!(
            "| {target} | {paths} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2}x |",
            median(route),
            median(f128),
            median(f32_),
            median(m64),
            median(ratio)
        );
    }
    compile_floor(target);
}
