//! `Router::route` and `compile` over generated, realistic tables (10, 1 000, 10 000 and 100 000
//! paths), measured side by side with:
//!
//! - `linear`: a linear scan implementing the crate documentation's Semantics section independently of the library
//!   (for each request: every rule filtered by host tier, then path match, the best by the
//!   precedence keys). Before anything is timed it must give the router's answer on every
//!   generated request (the bench panics otherwise).
//! - `floor`: what no router can beat, two hash probes (host -> per-host map, path -> entry) with
//!   hashbrown's default hasher (foldhash, seeded per map, as the router's keys are seeded per
//!   table) over `Box<[u8]>` keys (as the table has); `fixed_floor`: the same with foldhash's
//!   fixed seed, to show what the seed costs the floor. Their inputs are pre-resolved: host
//!   already normalised and tier already chosen (so the first probe hits whenever some tier
//!   matches), path already cut at `?`/`#`; they only find rules whose path is exactly the
//!   request path. Normalising the host, cutting the query,
//!   trying prefixes and precedence are all work the router does and the floor does not.
//! - `gateway` (up to 10 000 paths, issue 29): the same hosts, paths and backends as Gateway API
//!   objects (one Gateway with one HTTP listener on port 80, HTTPRoutes per Ingress and host, one
//!   rule per path: Exact stays Exact, Prefix and ImplementationSpecific become PathPrefix), the
//!   same requests through the crate's one `Router` (`compile_input`). Before timing, every answer must be the one
//!   the Gateway API's rules give (`Linear::gateway_route`); where those rules differ from the
//!   Ingress ones (defaultBackends, wildcards over several labels, falling through to a less
//!   specific hostname, ImplementationSpecific read as PathPrefix) the requests are counted by
//!   reason, and all others must get the Ingress router's answer.
//!
//! Criterion ids (stable): `lookup/{router,floor,fixed_floor,gateway,linear}/<paths>` (throughput
//! in lookups), `compile/<paths>` and `compile/gateway/<paths>`. After criterion, in `--bench` mode, an interleaved pass (router, floors and
//! linear timed in alternation, medians of paired ratios) prints a Markdown summary with the
//! compile times and the heap retained by `compile` (counted by a `#[global_allocator]` wrapper
//! around `System`, switched on only around the measured `compile`), then a Gateway API table
//! (gateway, router and floor timed in alternation). See BENCHMARKS.md.
//!
//! Without `--bench` (`cargo test --benches`), only the 10 and 1 000 path tables are built and
//! checked, and each benchmark runs once. `ROUTE_BENCH_SIZES=10000` (comma-separated) builds only
//! the tables named (for profiling: `--profile-time 10 lookup/router/10000`).

use ingress_router::testing::LintObjects;
use ingress_router::testing::compile_objects as compile;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cmp::Reverse;
use std::hash::BuildHasher;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use hashbrown::{HashMap, HashSet};
use ingress_router::explain::StandingView;
use ingress_router::testing::model::{
    HttpIngressPath, HttpIngressRuleValue, Ingress, IngressBackend, IngressRule, IngressServiceBackend, IngressSpec,
    Object, ObjectMeta, ServiceBackendPort,
};
use ingress_router::{CompileOptions, Request, Router, Via};

const SIZES: [usize; 4] = [10, 1_000, 10_000, 100_000];
/// The largest table the Gateway API is also built for (issue 29 asks for 1 000 and 10 000).
const GATEWAY_MAX: usize = 10_000;
/// Requests per size; the router and the floor route all of them in each timed iteration.
const REQUESTS: usize = 4096;
const SEED: u64 = 0x001a_9e55_2024;

// ---------------------------------------------------------------------------------------------
// Heap accounting.

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes as isize, Relaxed) + bytes as isize;
    PEAK.fetch_max(live, Relaxed);
    ALLOCS.fetch_add(1, Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes as isize, Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the wrapper only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && COUNTING.load(Relaxed) {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() && COUNTING.load(Relaxed) {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        if COUNTING.load(Relaxed) {
            shrank(layout.size());
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && COUNTING.load(Relaxed) {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

struct Heap {
    /// Bytes still allocated once `compile` returned and its diagnostics were dropped: the router.
    retained: isize,
    /// Most bytes allocated at once during `compile`.
    peak: isize,
    allocations: usize,
}

fn compile_heap<R>(compile: impl FnOnce() -> R) -> Heap {
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ALLOCS.store(0, Relaxed);
    COUNTING.store(true, Relaxed);
    let router = compile();
    let retained = LIVE.load(Relaxed);
    COUNTING.store(false, Relaxed);
    drop(black_box(router));
    Heap { retained, peak: PEAK.load(Relaxed), allocations: ALLOCS.load(Relaxed) }
}

// ---------------------------------------------------------------------------------------------
// Seeded generation.

/// xorshift64 (Marsaglia 13/7/17) with a multiplicative output step.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "api",
    "v1",
    "v2",
    "v3",
    "users",
    "orders",
    "items",
    "cart",
    "checkout",
    "catalog",
    "products",
    "search",
    "static",
    "assets",
    "images",
    "css",
    "js",
    "auth",
    "login",
    "logout",
    "oauth2",
    "callback",
    "health",
    "healthz",
    "metrics",
    "admin",
    "graphql",
    "ws",
    "docs",
    "blog",
    "posts",
    "comments",
    "accounts",
    "billing",
    "invoices",
    "payments",
    "webhooks",
    "uploads",
    "files",
    "media",
    "reports",
    "settings",
    "profile",
    "notifications",
    "feed",
    "inventory",
    "shipping",
    "reviews",
    "recommendations",
    "sessions",
    "tokens",
    "public",
    "internal",
    "status",
    "events",
    "analytics",
    "export",
    "import",
    "downloads",
    "help",
    "support",
    "tickets",
    "messages",
    "chat",
    "config",
    "features",
    "flags",
    "teams",
    "projects",
    "repos",
    "builds",
    "deploy",
    "logs",
    "well-known",
    "favicon.ico",
    "robots.txt",
    "sitemap.xml",
    "index.html",
];
const SUBDOMAINS: &[&str] = &[
    "www",
    "api",
    "shop",
    "app",
    "admin",
    "static",
    "cdn",
    "auth",
    "m",
    "docs",
    "status",
    "grafana",
    "store",
    "portal",
    "dashboard",
    "mail",
    "login",
    "pay",
    "checkout",
    "media",
    "assets",
    "beta",
    "staging",
    "internal",
    "console",
    "eu",
    "us-east",
    "gw",
];
const COMPANIES: &[&str] = &[
    "acme",
    "globex",
    "initech",
    "umbrella",
    "hooli",
    "stark",
    "wayne",
    "wonka",
    "cyberdyne",
    "tyrell",
    "soylent",
    "vandelay",
    "pied-piper",
    "aperture",
    "black-mesa",
    "oscorp",
    "massive",
    "dunder",
    "prestige",
    "monarch",
];
const TLDS: &[&str] = &["com", "io", "net", "org", "dev", "co.uk", "cloud"];
/// `team` is a prefix of `team-a`: age ties then depend on comparing `namespace/name` as one string.
const NAMESPACES: &[&str] = &[
    "default",
    "shop",
    "payments",
    "search",
    "auth",
    "media",
    "platform",
    "monitoring",
    "team",
    "team-a",
    "team-b",
    "staging",
    "prod",
];

fn element(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..70 => (*rng.pick(WORDS)).to_string(),
        70..85 => (1 + rng.below(99_999)).to_string(),
        85..95 => format!("{:08x}", rng.next() as u32),
        _ => format!("{}-{}", rng.pick(WORDS), rng.pick(WORDS)),
    }
}

fn elements(rng: &mut Rng, count: usize) -> String {
    (0..count).map(|_| format!("/{}", element(rng))).collect()
}

/// Weighted towards short paths: 1 (35%), 2 (30%), 3 (20%), 4-6 (15%).
fn fresh_len(rng: &mut Rng) -> usize {
    match rng.below(100) {
        0..35 => 1,
        35..65 => 2,
        65..85 => 3,
        _ => 4 + rng.below(3),
    }
}

fn element_count(path: &str) -> usize {
    path.split('/').filter(|e| !e.is_empty()).count()
}

/// A domain not otherwise used by a rule, with `k` making it unique.
fn domain(rng: &mut Rng, k: usize) -> String {
    format!("{}{}.{}", rng.pick(COMPANIES), k, rng.pick(TLDS))
}

/// One generated path, as the requests need it.
struct Declared {
    /// The rule host as written.
    host: String,
    /// The path as written (`""` when absent).
    path: String,
}

struct Generated {
    objects: Vec<Object>,
    declared: Vec<Declared>,
    exact_hosts: Vec<String>,
    wildcard_suffixes: Vec<String>,
}

/// Ingresses holding exactly `paths` paths: exact (about 78% of rules), wildcard (12%) and
/// host-less (10%) hosts; Prefix 55%, Exact 35%, ImplementationSpecific 10%; 1-6 elements of
/// words and ids, nested under paths the host already has about half the time; some `/`
/// catch-alls, trailing slashes, duplicate declarations across Ingresses, and defaultBackends.
fn generate(paths: usize, seed: u64) -> Generated {
    let mut rng = Rng::new(seed ^ paths as u64);
    let mut seen = HashSet::new();
    let wildcard_suffixes: Vec<String> = (0..(paths / 400).max(1))
        .map(|k| {
            loop {
                let d = domain(&mut rng, k);
                if seen.insert(d.clone()) {
                    break d;
                }
            }
        })
        .collect();
    let exact_hosts: Vec<String> = (0..(paths / 25).max(1))
        .map(|k| {
            loop {
                // A fifth of the exact hosts sit under a wildcard's domain (exact beats wildcard).
                let parent = if rng.chance(20) { rng.pick(&wildcard_suffixes).clone() } else { domain(&mut rng, k) };
                let h = format!("{}.{parent}", rng.pick(SUBDOMAINS));
                if seen.insert(h.clone()) {
                    break h;
                }
            }
        })
        .collect();

    let mut per_host: HashMap<String, Vec<String>> = HashMap::new();
    let mut declared = Vec::with_capacity(paths);
    let mut objects = Vec::new();
    let mut names = 0usize;
    while declared.len() < paths {
        names += 1;
        let namespace = (*rng.pick(NAMESPACES)).to_string();
        let name = format!("{}-{names}", rng.pick(WORDS).replace('.', "-"));
        let creation_timestamp = (!rng.chance(8)).then(|| {
            // Coarse times: some Ingresses are the same age and fall back to namespace/name.
            format!("2024-{:02}-{:02}T{:02}:00:00Z", 1 + rng.below(12), 1 + rng.below(28), rng.below(24))
        });
        let default_backend = rng.chance(3).then(|| service_backend(&mut rng));
        let rule_count = match rng.below(100) {
            0..70 => 1,
            70..90 => 2,
            _ => 3,
        };
        let mut rules = Vec::new();
        for _ in 0..rule_count {
            if declared.len() >= paths {
                break;
            }
            let host = match rng.below(100) {
                // Skewed: half the rules land on the first tenth of the hosts.
                0..39 => rng.pick(&exact_hosts[..exact_hosts.len().div_ceil(10)]).clone(),
                39..78 => rng.pick(&exact_hosts).clone(),
                78..90 => format!("*.{}", rng.pick(&wildcard_suffixes)),
                _ => String::new(),
            };
            let count = (1 + rng.below(8)).min(paths - declared.len());
            let mut http_paths = Vec::new();
            for _ in 0..count {
                let known = per_host.entry(host.clone()).or_default();
                let (path, path_type) = rule_path(&mut rng, known);
                if !path.is_empty() && !known.contains(&path) {
                    known.push(path.clone());
                }
                declared.push(Declared { host: host.clone(), path: path.clone() });
                http_paths.push(HttpIngressPath {
                    path: (!path.is_empty()).then_some(path),
                    path_type: Some(path_type.to_string()),
                    backend: service_backend(&mut rng),
                });
            }
            rules.push(IngressRule {
                host: (!host.is_empty()).then_some(host),
                http: Some(HttpIngressRuleValue { paths: http_paths }),
            });
        }
        objects.push(Object::Ingress(Ingress {
            api_version: "networking.k8s.io/v1".into(),
            kind: "Ingress".into(),
            metadata: ObjectMeta { name, namespace: Some(namespace), creation_timestamp, ..ObjectMeta::default() },
            spec: IngressSpec { default_backend, rules: Some(rules), ..IngressSpec::default() },
            status: None,
        }));
    }
    Generated { objects, declared, exact_hosts, wildcard_suffixes }
}

fn rule_path(rng: &mut Rng, known: &[String]) -> (String, &'static str) {
    let path_type = match rng.below(100) {
        0..55 => "Prefix",
        55..90 => "Exact",
        _ => "ImplementationSpecific",
    };
    if path_type == "ImplementationSpecific" && rng.chance(10) {
        return (String::new(), path_type);
    }
    if path_type != "Exact" && rng.chance(8) {
        return ("/".into(), path_type);
    }
    let mut path = if !known.is_empty() && rng.chance(50) {
        let base = rng.pick(known).trim_end_matches('/').to_string();
        let room = 6usize.saturating_sub(element_count(&base));
        if room == 0 {
            base
        } else {
            let n = 1 + rng.below(room.min(2));
            base + &elements(rng, n)
        }
    } else {
        let n = fresh_len(rng);
        elements(rng, n)
    };
    if path_type == "Prefix" && rng.chance(10) {
        path.push('/');
    }
    (path, path_type)
}

fn service_backend(rng: &mut Rng) -> IngressBackend {
    let port = if rng.chance(80) {
        ServiceBackendPort { number: Some(*rng.pick(&[80, 8080, 3000, 9090, 443])), name: None }
    } else {
        ServiceBackendPort { number: None, name: Some((*rng.pick(&["http", "grpc", "web", "metrics"])).into()) }
    };
    IngressBackend {
        service: Some(IngressServiceBackend {
            name: format!("{}-{}", rng.pick(WORDS).replace('.', "-"), rng.below(50)),
            port: Some(port),
        }),
        resource: None,
    }
}

const QUERIES: &[&str] = &["?id=42", "?q=shoes&page=2", "?utm_source=mail&utm_medium=x", "?v=3#top", "#section-2", "?"];

/// Requests `(Host header, request target)`: about 35% a declared path as is, 25% deeper under it,
/// 10% it plus a query, 8% near misses (`/api/v1x`), 8% another path on the same host, 7% hosts
/// no rule names (two labels under a wildcard, unknown domains), 7% long paths; then query strings,
/// ports, upper case and trailing dots on top.
fn requests(g: &Generated, count: usize, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed ^ 0x5eed ^ g.declared.len() as u64);
    (0..count)
        .map(|_| {
            let d = rng.pick(&g.declared);
            let mut host = request_host(&mut rng, &d.host);
            let base = d.path.trim_end_matches('/');
            let mut path = match rng.below(100) {
                0..35 => {
                    if d.path.is_empty() {
                        "/".into()
                    } else {
                        d.path.clone()
                    }
                }
                35..60 => {
                    let n = 1 + rng.below(3);
                    format!("{base}{}", elements(&mut rng, n))
                }
                60..70 => format!("{}{}", if d.path.is_empty() { "/" } else { &d.path }, rng.pick(QUERIES)),
                70..78 => format!("{base}{}", rng.pick(&["x", "-old", "2", ".json", "_"])),
                78..86 => {
                    let n = fresh_len(&mut rng);
                    elements(&mut rng, n)
                }
                86..93 => {
                    host = if rng.chance(50) && !g.wildcard_suffixes.is_empty() {
                        format!("a.{}.{}", element(&mut rng).to_lowercase(), rng.pick(&g.wildcard_suffixes))
                    } else {
                        format!("{}.unknown{}.example", rng.pick(SUBDOMAINS), rng.below(1000))
                    };
                    let n = fresh_len(&mut rng);
                    elements(&mut rng, n)
                }
                _ => {
                    let n = 6 + rng.below(4);
                    format!("{base}{}", elements(&mut rng, n))
                }
            };
            if rng.chance(15) && !path.contains(['?', '#']) {
                let query = *rng.pick(QUERIES);
                path.push_str(query);
            }
            if rng.chance(4) {
                host = host.to_uppercase();
            }
            if rng.chance(2) {
                host.push('.');
            }
            if rng.chance(12) {
                let port = *rng.pick(&[":443", ":8443", ":80"]);
                host.push_str(port);
            }
            (host, path)
        })
        .collect()
}

/// A request host that selects the rule host: itself, a label under a wildcard's domain, or (for
/// host-less rules) a host no rule names.
fn request_host(rng: &mut Rng, rule_host: &str) -> String {
    if rule_host.is_empty() {
        format!("{}.nohost{}.example", rng.pick(SUBDOMAINS), rng.below(1000))
    } else if let Some(suffix) = rule_host.strip_prefix("*.") {
        let label =
            if rng.chance(70) { (*rng.pick(SUBDOMAINS)).to_string() } else { format!("tenant{}", rng.below(5000)) };
        format!("{label}.{suffix}")
    } else {
        rule_host.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// The linear scan: an independent reading of the crate documentation's Semantics section.

const MAX_HOST: usize = 256;

fn normalise_host<'b>(raw: &[u8], buf: &'b mut [u8; MAX_HOST]) -> Option<&'b [u8]> {
    let mut host = if raw.first() == Some(&b'[') {
        raw.iter().position(|&b| b == b']').map_or(raw, |end| &raw[..=end])
    } else {
        raw.iter().position(|&b| b == b':').map_or(raw, |colon| &raw[..colon])
    };
    if host.last() == Some(&b'.') {
        host = &host[..host.len() - 1];
    }
    if host.len() > MAX_HOST {
        return None;
    }
    let out = &mut buf[..host.len()];
    for (o, &b) in out.iter_mut().zip(host) {
        *o = b.to_ascii_lowercase();
    }
    Some(out)
}

/// Everything after the first label, when there is a non-empty first label and something after.
fn one_label_parent(host: &[u8]) -> Option<&[u8]> {
    let dot = host.iter().position(|&b| b == b'.')?;
    (dot > 0 && dot + 1 < host.len()).then(|| &host[dot + 1..])
}

fn cut_query(target: &[u8]) -> &[u8] {
    target.iter().position(|&b| b == b'?' || b == b'#').map_or(target, |end| &target[..end])
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum HostKind {
    Exact,
    Wildcard,
    Any,
}

struct Entry {
    host_kind: HostKind,
    /// The exact host, or the wildcard's domain (after `*.`).
    host: Box<[u8]>,
    /// What must match: the path, without one trailing `/` for element-wise prefixes.
    key: Box<[u8]>,
    exact: bool,
    /// Precedence keys 1-5, smallest best: longest key, Exact < Prefix < ImplementationSpecific,
    /// longest raw path, oldest Ingress, rule order, path order.
    rank: (Reverse<usize>, u8, Reverse<usize>, u32, u32, u32),
    /// The Ingress's age rank when it declares a defaultBackend.
    default: Option<u32>,
}

impl Entry {
    fn matches(&self, path: &[u8]) -> bool {
        let k = &*self.key;
        if self.exact {
            path == k
        } else {
            // `/` (key "") covers every path, even one without a leading slash.
            k.is_empty() || path == k || (path.starts_with(k) && path.get(k.len()) == Some(&b'/'))
        }
    }
}

struct Linear {
    entries: Vec<Entry>,
    /// Ingresses by age rank (oldest first), as indices into the objects.
    by_age: Vec<usize>,
    /// The oldest Ingress declaring a defaultBackend.
    oldest_default: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinearAnswer {
    Rule(u32),
    Default(u32),
    NotFound,
}

impl Linear {
    fn new(objects: &[Object]) -> Self {
        let ingresses: Vec<&Ingress> = objects
            .iter()
            .map(|o| match o {
                Object::Ingress(i) => i,
                _ => unreachable!("only Ingresses are generated"),
            })
            .collect();
        let mut by_age: Vec<usize> = (0..ingresses.len()).collect();
        // Precedence key 4: creationTimestamp (none counts as newest), then `namespace/name` as one
        // string (`team-b/web` before `team/web`).
        by_age.sort_by_cached_key(|&i| {
            let m = &ingresses[i].metadata;
            let t = m.creation_timestamp.clone();
            (t.is_none(), t, format!("{}/{}", m.namespace_or_default(), m.name))
        });
        let mut entries = Vec::new();
        let mut oldest_default = None;
        for (age, &i) in by_age.iter().enumerate() {
            let ingress = ingresses[i];
            let default = ingress.spec.default_backend.is_some().then_some(age as u32);
            oldest_default = oldest_default.or(default);
            for (r, rule) in ingress.spec.rules.iter().flatten().enumerate() {
                let host = rule.host.as_deref().unwrap_or("");
                let (host_kind, host) = match host.strip_prefix("*.") {
                    _ if host.is_empty() => (HostKind::Any, ""),
                    Some(domain) => (HostKind::Wildcard, domain),
                    None => (HostKind::Exact, host),
                };
                let paths = rule.http.as_ref().map_or(&[][..], |h| &h.paths[..]);
                for (p, path) in paths.iter().enumerate() {
                    let raw = path.path.as_deref().unwrap_or("");
                    let (exact, type_rank) = match path.path_type.as_deref() {
                        Some("Exact") => (true, 0),
                        Some("Prefix") => (false, 1),
                        // The default options: ImplementationSpecific is an element-wise prefix.
                        Some("ImplementationSpecific") => (false, 2),
                        other => panic!("generated an unknown pathType {other:?}"),
                    };
                    let key = if exact { raw } else { raw.strip_suffix('/').unwrap_or(raw) };
                    entries.push(Entry {
                        host_kind,
                        host: host.as_bytes().into(),
                        key: key.as_bytes().into(),
                        exact,
                        rank: (Reverse(key.len()), type_rank, Reverse(raw.len()), age as u32, r as u32, p as u32),
                        default,
                    });
                }
                assert!(!paths.is_empty(), "rules without paths select a tier too; the scan assumes none");
            }
        }
        Linear { entries, by_age, oldest_default }
    }

    fn route(&self, raw_host: &[u8], target: &[u8]) -> LinearAnswer {
        let mut buf = [0u8; MAX_HOST];
        let host = normalise_host(raw_host, &mut buf);
        let parent = host.and_then(one_label_parent);
        let path = cut_query(target);
        // The best tier with any rule for the host (0 exact, 1 wildcard, 2 host-less, 3 none), the
        // best matching path (tier first), and the oldest defaultBackend per tier.
        let mut tier_chosen = 3u8;
        let mut best: Option<(u8, usize)> = None;
        let mut defaults = [None::<u32>; 3];
        for (i, e) in self.entries.iter().enumerate() {
            let tier = match e.host_kind {
                HostKind::Exact if Some(&*e.host) == host => 0,
                HostKind::Wildcard if Some(&*e.host) == parent => 1,
                HostKind::Any => 2,
                _ => continue,
            };
            tier_chosen = tier_chosen.min(tier);
            if let Some(age) = e.default {
                let d = &mut defaults[tier as usize];
                *d = Some(d.map_or(age, |o| o.min(age)));
            }
            if e.matches(path) && best.is_none_or(|(bt, bi)| (tier, e.rank) < (bt, self.entries[bi].rank)) {
                best = Some((tier, i));
            }
        }
        match best {
            Some((tier, i)) if tier == tier_chosen => LinearAnswer::Rule(i as u32),
            _ => {
                let default = defaults.get(tier_chosen as usize).copied().flatten().or(self.oldest_default);
                default.map_or(LinearAnswer::NotFound, LinearAnswer::Default)
            }
        }
    }
}

/// An answer in terms both sides can name: (`namespace/name`, rule, path) or the default's Ingress.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Rule(String, usize, usize),
    Default(String),
    NotFound,
}

fn ingress_key(objects: &[Object], i: usize) -> String {
    let Object::Ingress(ingress) = &objects[i] else { unreachable!() };
    format!("{}/{}", ingress.metadata.namespace_or_default(), ingress.metadata.name)
}

fn linear_answer(linear: &Linear, objects: &[Object], a: LinearAnswer) -> Answer {
    match a {
        LinearAnswer::Rule(e) => {
            let e = &linear.entries[e as usize];
            let (_, _, _, age, rule, path) = e.rank;
            Answer::Rule(ingress_key(objects, linear.by_age[age as usize]), rule as usize, path as usize)
        }
        LinearAnswer::Default(age) => Answer::Default(ingress_key(objects, linear.by_age[age as usize])),
        LinearAnswer::NotFound => Answer::NotFound,
    }
}

fn router_answer(router: &Router, host: &str, target: &str) -> Answer {
    let d = router.route(&Request::new(host, target));
    match d.via() {
        Via::Rule => {
            let r = d.matched().expect("a rule answer names its route");
            Answer::Rule(r.ingress.to_string(), r.rule_index, r.path_index)
        }
        Via::DefaultBackend => Answer::Default(d.default_from().expect("only declared defaults exist").to_string()),
        _ => Answer::NotFound,
    }
}

// ---------------------------------------------------------------------------------------------
// The floor: two probes on pre-resolved, pre-normalised keys.

type Key = Box<[u8]>;

/// The floor's maps: hashbrown's default hasher is foldhash's `fast::RandomState`, seeded per
/// map (as the router's keys are seeded per table); `FixedState` is the same hash with a fixed
/// seed, to show what seeding costs the floor itself.
struct Floor<S = hashbrown::DefaultHashBuilder> {
    hosts: HashMap<Key, HashMap<Key, u32, S>, S>,
    /// (host key of the tier the request selects, path cut at `?`/`#`) per request.
    requests: Vec<(Key, Key)>,
}

impl<S: BuildHasher + Default> Floor<S> {
    fn new(linear: &Linear, requests: &[(String, String)]) -> Self {
        let key = |e: &Entry| -> Box<[u8]> {
            match e.host_kind {
                HostKind::Exact => e.host.clone(),
                HostKind::Wildcard => [&b"*."[..], &e.host].concat().into(),
                HostKind::Any => Box::from(&b""[..]),
            }
        };
        let mut hosts: HashMap<Key, HashMap<Key, u32, S>, S> = HashMap::default();
        for (i, e) in linear.entries.iter().enumerate() {
            hosts.entry(key(e)).or_default().entry(e.key.clone()).or_insert(i as u32);
        }
        let exact: HashSet<&[u8]> =
            linear.entries.iter().filter(|e| e.host_kind == HostKind::Exact).map(|e| &*e.host).collect();
        let wild: HashSet<&[u8]> =
            linear.entries.iter().filter(|e| e.host_kind == HostKind::Wildcard).map(|e| &*e.host).collect();
        let any = linear.entries.iter().any(|e| e.host_kind == HostKind::Any);
        let requests = requests
            .iter()
            .map(|(h, p)| {
                let mut buf = [0u8; MAX_HOST];
                let host = normalise_host(h.as_bytes(), &mut buf);
                let host_key: Box<[u8]> = match host {
                    Some(h) if exact.contains(h) => h.into(),
                    Some(h) if one_label_parent(h).is_some_and(|p| wild.contains(p)) => {
                        [&b"*."[..], one_label_parent(h).unwrap_or_default()].concat().into()
                    }
                    _ if any => Box::from(&b""[..]),
                    _ => Box::from(&b"\0no tier"[..]),
                };
                (host_key, cut_query(p.as_bytes()).into())
            })
            .collect();
        Floor { hosts, requests }
    }

    #[inline]
    fn lookup(&self, host: &[u8], path: &[u8]) -> Option<u32> {
        self.hosts.get(host)?.get(path).copied()
    }
}

// ---------------------------------------------------------------------------------------------
// The Gateway API beside it: the same hosts, paths and backends as one Gateway and HTTPRoutes.

/// Named Service ports have no Gateway API form (a backendRef's port is a number): each name
/// stands for one fixed number.
fn port_number(port: &ServiceBackendPort) -> u16 {
    match (port.number, port.name.as_deref()) {
        (Some(n), _) => n as u16,
        (None, Some("http")) => 8000,
        (None, Some("grpc")) => 8001,
        (None, Some("web")) => 8002,
        (None, _) => 8003,
    }
}

/// The CRD's `maxItems` for an HTTPRoute's rules: a longer list would be refused by the apiserver.
const MAX_RULES: usize = 16;

/// One Gateway (a single HTTP listener on port 80 taking routes from every namespace) and, per
/// Ingress and per host it names, HTTPRoutes with one rule per path (each path has its own
/// backend), in the Ingress's (rule, path) order, split at `MAX_RULES`. Metadata is the Ingress's
/// (the route name gets `-<host>-<chunk>`, which keeps the `namespace/name` order: the generated
/// names end in a unique number and `-` sorts before every digit and letter), so that age and
/// name break ties as they do between the Ingresses. Returns the manifests and, per (route
/// `namespace/name`, rule), the Ingress path it stands for. defaultBackends have no Gateway API
/// form and are left out.
fn gateway_manifests(objects: &[Object]) -> (Vec<serde_json::Value>, HashMap<(String, usize), Answer>) {
    use serde_json::json;
    let mut manifests = vec![json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "infra"},
        "spec": {"gatewayClassName": "bench", "listeners": [
            {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]}
    })];
    let mut origin = HashMap::new();
    for object in objects {
        let Object::Ingress(ingress) = object else { unreachable!("only Ingresses are generated") };
        let meta = &ingress.metadata;
        let namespace = meta.namespace_or_default();
        // Per host (in order of first appearance): (rule, path, the path) in the Ingress's order.
        type Paths<'a> = Vec<(usize, usize, &'a HttpIngressPath)>;
        let mut hosts: Vec<(&str, Paths)> = Vec::new();
        for (r, rule) in ingress.spec.rules.iter().flatten().enumerate() {
            let host = rule.host.as_deref().unwrap_or("");
            let at = match hosts.iter().position(|(h, _)| *h == host) {
                Some(at) => at,
                None => {
                    hosts.push((host, Vec::new()));
                    hosts.len() - 1
                }
            };
            for (p, path) in rule.http.iter().flat_map(|h| &h.paths).enumerate() {
                hosts[at].1.push((r, p, path));
            }
        }
        for (h, (host, paths)) in hosts.iter().enumerate() {
            for (chunk, paths) in paths.chunks(MAX_RULES).enumerate() {
                let name = format!("{}-{h}-{chunk}", meta.name);
                let rules: Vec<serde_json::Value> = paths
                    .iter()
                    .enumerate()
                    .map(|(k, &(r, p, path))| {
                        origin.insert(
                            (format!("{namespace}/{name}"), k),
                            Answer::Rule(format!("{namespace}/{}", meta.name), r, p),
                        );
                        // As the Gateway API's own Ingress conversion does (ingress2gateway):
                        // Exact stays Exact, Prefix and ImplementationSpecific become PathPrefix;
                        // no path is the prefix `/`.
                        let kind = if path.path_type.as_deref() == Some("Exact") { "Exact" } else { "PathPrefix" };
                        let value = path.path.as_deref().unwrap_or("/");
                        let service = path.backend.service.as_ref().expect("generated backends are Services");
                        let port = port_number(service.port.as_ref().expect("generated backends have a port"));
                        json!({"matches": [{"path": {"type": kind, "value": value}}],
                               "backendRefs": [{"name": service.name, "port": port}]})
                    })
                    .collect();
                let mut metadata = json!({"name": name, "namespace": namespace});
                if let Some(t) = &meta.creation_timestamp {
                    metadata["creationTimestamp"] = json!(t);
                }
                let mut spec = json!({"parentRefs": [{"name": "gw", "namespace": "infra"}], "rules": rules});
                if !host.is_empty() {
                    spec["hostnames"] = json!([host]);
                }
                manifests.push(json!({
                    "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
                    "metadata": metadata, "spec": spec
                }));
            }
        }
    }
    (manifests, origin)
}

/// A Gateway API `PathPrefix` (a trailing `/` ignored) or `Exact` match; unlike the Ingress
/// prefix `/`, `PathPrefix /` does not match a path without a leading `/`.
fn gateway_matches(e: &Entry, path: &[u8]) -> bool {
    let k = &*e.key;
    if e.exact { path == k } else { path.starts_with(k) && (path.len() == k.len() || path[k.len()] == b'/') }
}

impl Linear {
    /// What the Gateway API answers for `gateway_manifests`, read from its specification over the
    /// same entries: the most specific hostname first (exact, then wildcards longest first, `*.x`
    /// covering one label or more, then routes without hostnames), falling through to the next
    /// when none of a hostname's rules match; within one, `Exact` first, the longest path value,
    /// the oldest route (then `namespace/name`), rule order. Prefix and ImplementationSpecific are
    /// both `PathPrefix`, and no path is `/`.
    fn gateway_route(&self, raw_host: &[u8], target: &[u8]) -> Option<usize> {
        let mut buf = [0u8; MAX_HOST];
        let host = normalise_host(raw_host, &mut buf).unwrap_or_default();
        let path = match cut_query(target) {
            b"" => b"/",
            p => p,
        };
        let mut best: Option<(_, usize)> = None;
        for (i, e) in self.entries.iter().enumerate() {
            let w = &*e.host;
            let group = match e.host_kind {
                HostKind::Exact if w == host => (0, Reverse(0)),
                HostKind::Wildcard
                    if host.len() > w.len() + 1 && host.ends_with(w) && host[host.len() - w.len() - 1] == b'.' =>
                {
                    (1, Reverse(w.len()))
                }
                HostKind::Any => (2, Reverse(0)),
                _ => continue,
            };
            if !gateway_matches(e, path) {
                continue;
            }
            let (_, type_rank, Reverse(raw), age, r, p) = e.rank;
            let key = (group, type_rank != 0, Reverse(raw.max(1)), age, r, p);
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

/// Why the Gateway API answers a request differently from the Ingress router (see `GatewayFixture::differ`).
const DIFFER: [&str; 4] = [
    "the Ingress defaultBackend (no Gateway API form)",
    "a wildcard covering more than one label",
    "ImplementationSpecific read as PathPrefix (same hostname, same path, other precedence)",
    "the Ingress's host tier not matching, where the Gateway falls through to a less specific hostname",
];

struct GatewayFixture {
    /// The generated Gateway API objects as read.
    input: ingress_router::input::Input,
    /// The objects through the crate's one entry point (`compile_input`): what every home routes
    /// with, and what `lookup/gateway` times.
    unified: Router,
    routes: usize,
    /// Requests the Gateway answers as the Ingress router does, and those it does not by
    /// `DIFFER` reason.
    same: usize,
    differ: [usize; 4],
}

fn gateway_answer(router: &Router, origin: &HashMap<(String, usize), Answer>, host: &str, target: &str) -> Answer {
    let request = Request::new(host, target).with_port(80);
    let view = router.route(&request).view(&request);
    match view.status {
        404 => Answer::NotFound,
        200 => {
            let parts = view.gateway.expect("a Gateway API decision has its parts");
            let at = (parts.route.expect("a forward names its route"), parts.rule.expect("and its rule"));
            let Answer::Rule(ingress, r, p) = &origin[&at] else { unreachable!() };
            Answer::Rule(ingress.clone(), *r, *p)
        }
        other => panic!("{host:?} {target:?}: the Gateway answered {other}: {}", view.label),
    }
}

/// Builds and compiles the Gateway API objects, then checks every request before anything is
/// timed: the Gateway's answer must be `Linear::gateway_route`'s, which is the Ingress router's
/// wherever the two APIs' semantics agree; the others are counted by reason.
fn gateway_fixture(
    objects: &[Object],
    linear: &Linear,
    router: &Router,
    requests: &[(String, String)],
) -> GatewayFixture {
    let (manifests, origin) = gateway_manifests(objects);
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": manifests});
    let input = ingress_router::input::parse("gateway.json", &list.to_string()).expect("the generated objects read");
    let gateway = compile_gateway(&input);
    let (mut same, mut differ) = (0, [0; 4]);
    for (i, (h, p)) in requests.iter().enumerate() {
        let got = gateway_answer(&gateway, &origin, h, p);
        let model = linear.gateway_route(h.as_bytes(), p.as_bytes());
        let want = model.map_or(Answer::NotFound, |e| {
            let (_, _, _, age, r, p) = linear.entries[e].rank;
            Answer::Rule(ingress_key(objects, linear.by_age[age as usize]), r as usize, p as usize)
        });
        assert_eq!(got, want, "{} paths, request {i}: host {h:?} target {p:?}", linear.entries.len());
        let ingress = router_answer(router, h, p);
        if got == ingress {
            same += 1;
            continue;
        }
        let mut buf = [0u8; MAX_HOST];
        let parent = normalise_host(h.as_bytes(), &mut buf).and_then(one_label_parent).unwrap_or_default();
        let en = &linear.entries;
        let at = |e: usize| (en[e].host_kind, &en[e].host);
        let is = |e: usize| en[e].rank.1 == 2;
        let chosen = match linear.route(h.as_bytes(), p.as_bytes()) {
            LinearAnswer::Rule(e) => Some(e as usize),
            _ => None,
        };
        differ[match (model, chosen) {
            _ if matches!(ingress, Answer::Default(_)) => 0,
            (Some(e), _) if linear.entries[e].host_kind == HostKind::Wildcard && *linear.entries[e].host != *parent => {
                1
            }
            // Prefix beats ImplementationSpecific on the same path for the Ingress; both are
            // PathPrefix for the Gateway, where the longer value as written, then age, decide.
            (Some(e), Some(c)) if at(e) == at(c) && en[e].key == en[c].key && (is(e) || is(c)) => 2,
            // The Ingress stays at the host tier it chose (404 there); the Gateway falls through.
            // The Ingress `/` also covers a path without a leading `/`; PathPrefix `/` does not.
            _ if ingress == Answer::NotFound || chosen.is_some_and(|c| en[c].key.is_empty() && !p.starts_with('/')) => {
                3
            }
            _ => panic!(
                "{h:?} {p:?}: the Gateway answers {got:?}, the Ingress router {ingress:?}, where the two APIs agree"
            ),
        }] += 1;
    }
    GatewayFixture { routes: manifests.len() - 1, input, unified: gateway, same, differ }
}

/// The Gateway API objects compiled through the one entry point.
fn compile_gateway(input: &ingress_router::input::Input) -> Router {
    ingress_router::compile_seeded(input, &CompileOptions::default(), SEED).expect("one Gateway")
}

// ---------------------------------------------------------------------------------------------
// Fixtures.

struct Fixture {
    paths: usize,
    objects: Vec<Object>,
    router: Router,
    linear: Linear,
    floor: Floor,
    fixed_floor: Floor<foldhash::fast::FixedState>,
    requests: Vec<(String, String)>,
    /// How many of `requests` the linear scan routes per timed iteration.
    linear_batch: usize,
    /// Requests answered by a rule / a defaultBackend / 404, and floor hits.
    mix: [usize; 4],
    hosts: usize,
    /// Paths shadowed or unreachable, and the diagnostics `compile` returned.
    not_active: usize,
    diagnostics: usize,
    /// The same table as Gateway API objects, up to `GATEWAY_MAX` paths.
    gateway: Option<GatewayFixture>,
}

fn fixture(paths: usize) -> Fixture {
    let g = generate(paths, SEED);
    let requests = requests(&g, REQUESTS, SEED);
    let router = compile(&g.objects, &CompileOptions::default());
    let diagnostics = router.lint_objects(&g.objects);
    let table = router.table();
    assert!(table.excluded.is_empty(), "a generated Ingress was rejected: {:?}", table.excluded.first());
    let all_paths = || table.hosts.iter().flat_map(|h| &h.paths);
    assert_eq!(all_paths().count(), paths);
    let not_active = all_paths().filter(|p| p.standing != StandingView::Active).count();
    let diagnostics = diagnostics.len();
    let linear = Linear::new(&g.objects);
    let floor = Floor::new(&linear, &requests);
    let fixed_floor = Floor::new(&linear, &requests);
    let mut mix = [0; 4];
    for (i, (h, p)) in requests.iter().enumerate() {
        let want = linear_answer(&linear, &g.objects, linear.route(h.as_bytes(), p.as_bytes()));
        let got = router_answer(&router, h, p);
        assert_eq!(got, want, "{paths} paths, request {i}: host {h:?} target {p:?}");
        mix[match got {
            Answer::Rule(..) => 0,
            Answer::Default(_) => 1,
            Answer::NotFound => 2,
        }] += 1;
    }
    mix[3] = floor.requests.iter().filter(|(h, p)| floor.lookup(h, p).is_some()).count();
    let gateway = (paths <= GATEWAY_MAX).then(|| gateway_fixture(&g.objects, &linear, &router, &requests));
    let linear_batch = match paths {
        0..=1_000 => REQUESTS,
        1_001..=10_000 => 1024,
        _ => 128,
    };
    Fixture {
        paths,
        hosts: g.exact_hosts.len() + g.wildcard_suffixes.len(),
        objects: g.objects,
        router,
        linear,
        floor,
        fixed_floor,
        requests,
        linear_batch,
        mix,
        not_active,
        diagnostics,
        gateway,
    }
}

#[inline(never)]
fn run_router(f: &Fixture) {
    for (h, p) in &f.requests {
        // By reference: the decision is over 400 bytes, and moving it into `black_box` would time a copy.
        let decision = f.router.route(black_box(&Request::new(h, p)));
        black_box(&decision);
    }
}

#[inline(never)]
fn run_gateway(f: &Fixture, g: &GatewayFixture) {
    for (h, p) in &f.requests {
        // Arrived on the listener's port: the Ingress router ignores the Host header's port, and
        // a `:443` in it would otherwise find no listener.
        let decision = g.unified.route(black_box(&Request::new(h, p).with_port(80)));
        black_box(&decision);
    }
}

#[inline(never)]
fn run_floor(f: &Fixture) {
    for (h, p) in &f.floor.requests {
        black_box(f.floor.lookup(black_box(h), black_box(p)));
    }
}

#[inline(never)]
fn run_fixed_floor(f: &Fixture) {
    for (h, p) in &f.fixed_floor.requests {
        black_box(f.fixed_floor.lookup(black_box(h), black_box(p)));
    }
}

#[inline(never)]
fn run_linear(f: &Fixture) {
    for (h, p) in &f.requests[..f.linear_batch] {
        black_box(f.linear.route(black_box(h.as_bytes()), black_box(p.as_bytes())));
    }
}

fn lookups(c: &mut Criterion, f: &Fixture) {
    let mut group = c.benchmark_group("lookup");
    group.sample_size(50);
    group.throughput(Throughput::Elements(f.requests.len() as u64));
    group.bench_with_input(BenchmarkId::new("router", f.paths), f, |b, f| b.iter(|| run_router(f)));
    group.bench_with_input(BenchmarkId::new("floor", f.paths), f, |b, f| b.iter(|| run_floor(f)));
    group.bench_with_input(BenchmarkId::new("fixed_floor", f.paths), f, |b, f| b.iter(|| run_fixed_floor(f)));
    if let Some(g) = &f.gateway {
        group.bench_with_input(BenchmarkId::new("gateway", f.paths), f, |b, f| b.iter(|| run_gateway(f, g)));
    }
    group.throughput(Throughput::Elements(f.linear_batch as u64));
    if f.paths > 1_000 {
        // Tens of milliseconds per iteration: the same number of iterations in every sample.
        group.sample_size(10).sampling_mode(SamplingMode::Flat);
    }
    group.bench_with_input(BenchmarkId::new("linear", f.paths), f, |b, f| b.iter(|| run_linear(f)));
    group.finish();
}

fn compiles(c: &mut Criterion, f: &Fixture) {
    let mut group = c.benchmark_group("compile");
    group.throughput(Throughput::Elements(f.paths as u64));
    if f.paths >= 10_000 {
        group.sample_size(10).sampling_mode(SamplingMode::Flat);
    } else {
        group.sample_size(30);
    }
    group.bench_with_input(BenchmarkId::from_parameter(f.paths), f, |b, f| {
        b.iter_with_large_drop(|| compile(black_box(&f.objects), &CompileOptions::default()))
    });
    if let Some(g) = &f.gateway {
        group.bench_with_input(BenchmarkId::new("gateway", f.paths), g, |b, g| {
            b.iter_with_large_drop(|| compile_gateway(black_box(&g.input)))
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------------
// GRPCRoute (issue 30): `methods` gRPC methods behind one Gateway, checked, then timed beside a floor.

/// Methods per service and services per host: a host holds 100 methods.
const GRPC_METHODS_PER_SERVICE: usize = 10;
const GRPC_SERVICES_PER_HOST: usize = 10;

struct GrpcFixture {
    methods: usize,
    routes: usize,
    input: ingress_router::input::Input,
    router: Router,
    /// gRPC calls: `(host, /service/method)`, a tenth of them to methods no rule names.
    calls: Vec<(String, String)>,
    /// The floor: one hash probe per call on `(host, path)`, the answer's index.
    floor: HashMap<(String, String), usize>,
}

/// One GRPCRoute per service: each of its methods an `Exact` match with its own backend, a last
/// rule for the whole service (a method this table does not name falls to it), hosts
/// `g<h>.example.com`.
fn grpc_fixture(methods: usize) -> GrpcFixture {
    use serde_json::json;
    let services = methods.div_ceil(GRPC_METHODS_PER_SERVICE);
    let mut manifests = vec![json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "infra"},
        "spec": {"gatewayClassName": "bench", "listeners": [
            {"name": "h2c", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]}
    })];
    let mut floor = HashMap::new();
    let mut named = Vec::new();
    for s in 0..services {
        let host = format!("g{}.example.com", s / GRPC_SERVICES_PER_HOST);
        let service = format!("bench.v{}.Service{s}", s % 3);
        let mut rules: Vec<serde_json::Value> = (0..GRPC_METHODS_PER_SERVICE)
            .map(|m| {
                let path = format!("/{service}/Method{m}");
                floor.insert((host.clone(), path.clone()), s * GRPC_METHODS_PER_SERVICE + m);
                named.push((host.clone(), path));
                json!({"matches": [{"method": {"service": service, "method": format!("Method{m}")}}],
                       "backendRefs": [{"name": format!("svc{s}-m{m}"), "port": 8080}]})
            })
            .collect();
        rules.push(json!({"matches": [{"method": {"service": service}}], "backendRefs": [{"name": format!("svc{s}"), "port": 8080}]}));
        manifests.push(json!({
            "apiVersion": "gateway.networking.k8s.io/v1", "kind": "GRPCRoute",
            "metadata": {"name": format!("service{s}"), "namespace": "apps"},
            "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}], "hostnames": [host], "rules": rules}
        }));
    }
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": manifests});
    let input = ingress_router::input::parse("grpc.json", &list.to_string()).expect("the generated objects read");
    let router = compile_gateway(&input);
    let mut rng = Rng::new(SEED ^ 0x6770_6363);
    let calls: Vec<(String, String)> = (0..REQUESTS)
        .map(|_| {
            let (host, path) = rng.pick(&named).clone();
            match rng.chance(10) {
                true => (host, format!("{}/Unnamed", path.rsplit_once('/').expect("/service/method").0)),
                false => (host, path),
            }
        })
        .collect();
    // Checked before anything is timed: each call reaches its method's backend, or its service's.
    for (host, path) in &calls {
        let headers = [("content-type", "application/grpc")];
        let request = Request::new(host, path).with_method("POST").with_headers(&headers).with_port(80);
        let view = router.route(&request).view(&request);
        let (service, method) = path[1..].split_once('/').expect("/service/method");
        let s: usize = service.rsplit_once("Service").expect("a generated service").1.parse().expect("its number");
        let want = match method.strip_prefix("Method") {
            Some(m) => format!("apps/svc{s}-m{m}:8080"),
            None => format!("apps/svc{s}:8080"),
        };
        assert_eq!(view.label, want, "{host} {path}");
        assert_eq!(view.gateway.and_then(|g| g.route_kind), Some("GRPCRoute"));
    }
    GrpcFixture { methods, routes: services, input, router, calls, floor }
}

#[inline(never)]
fn run_grpc(g: &GrpcFixture) {
    let headers = [("content-type", "application/grpc")];
    for (h, p) in &g.calls {
        let decision =
            g.router.route(black_box(&Request::new(h, p).with_method("POST").with_headers(&headers).with_port(80)));
        black_box(&decision);
    }
}

#[inline(never)]
fn run_grpc_floor(g: &GrpcFixture) {
    for (h, p) in &g.calls {
        black_box(g.floor.get(&(black_box(h).clone(), black_box(p).clone())));
    }
}

const GRPC_HEADER: &str = "| methods | GRPCRoutes | grpc ns/lookup | floor ns/lookup | grpc/floor | compile ms | retained B/method |\n|---:|---:|---:|---:|---:|---:|---:|\n";

/// One row of the GRPCRoute table: the router and the floor timed in alternation (31 rounds).
/// The floor clones its key strings (a `HashMap<(String, String), _>` probe): a generous floor.
fn grpc_row(g: &GrpcFixture) -> String {
    let n = g.calls.len();
    let (mut grpc, mut floor, mut gf) = (vec![], vec![], vec![]);
    for round in 0..31 {
        let mut times = [0.0; 2];
        for k in 0..2 {
            let which = (round + k) % 2;
            times[which] = match which {
                0 => per_lookup_ns(|| run_grpc(g), n, 4),
                _ => per_lookup_ns(|| run_grpc_floor(g), n, 4),
            };
        }
        grpc.push(times[0]);
        floor.push(times[1]);
        gf.push(times[0] / times[1]);
    }
    let compile_ms = gateway_compile_ms(&g.input);
    let heap = compile_heap(|| compile_gateway(&g.input));
    format!(
        "| {} | {} | {:.1} | {:.1} | {:.2}x | {:.2} | {:.0} |\n",
        g.methods,
        g.routes,
        median(grpc),
        median(floor),
        median(gf),
        compile_ms,
        heap.retained as f64 / g.methods as f64,
    )
}

// ---------------------------------------------------------------------------------------------
// Interleaved summary.

fn per_lookup_ns(run: impl Fn(), lookups: usize, passes: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..passes {
        run();
    }
    start.elapsed().as_nanos() as f64 / (lookups * passes) as f64
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

const SUMMARY_HEADER: &str = "| paths | hosts | router ns/lookup | floor ns/lookup | fixed floor ns/lookup | linear ns/lookup | router/floor | router/fixed floor | linear/router | compile ms | retained B/path | peak B/path | allocs/path |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

/// One row of the summary table: router, both floors and linear timed in alternation (31 rounds;
/// the linear scan every third round above 1 000 paths), then compile times and heap.
/// Also returns the router's ns/lookup and router/floor, for the Gateway API table.
fn summary_row(f: &Fixture) -> (String, f64, f64) {
    let rounds = 31;
    let n = f.requests.len();
    let (mut router, mut floor, mut fixed, mut linear) = (vec![], vec![], vec![], vec![]);
    let (mut rf, mut rx, mut lr) = (vec![], vec![], vec![]);
    for round in 0..rounds {
        // Rotate the order so no side always runs right after another.
        let mut times = [0.0; 3];
        for k in 0..3 {
            let which = (round + k) % 3;
            times[which] = match which {
                0 => per_lookup_ns(|| run_router(f), n, 4),
                1 => per_lookup_ns(|| run_floor(f), n, 4),
                _ => per_lookup_ns(|| run_fixed_floor(f), n, 4),
            };
        }
        let [r, fl, fx] = times;
        router.push(r);
        floor.push(fl);
        fixed.push(fx);
        rf.push(r / fl);
        rx.push(r / fx);
        if round % 3 == 0 || f.paths <= 1_000 {
            let l = per_lookup_ns(|| run_linear(f), f.linear_batch, 1);
            linear.push(l);
            lr.push(l / r);
        }
    }
    let compile_runs = if f.paths >= 100_000 { 5 } else { 15 };
    let compile_ms = median(
        (0..compile_runs)
            .map(|_| {
                let start = Instant::now();
                let table = compile(black_box(&f.objects), &CompileOptions::default());
                let t = start.elapsed();
                drop(table);
                t.as_secs_f64() * 1e3
            })
            .collect(),
    );
    let heap = compile_heap(|| compile(&f.objects, &CompileOptions::default()));
    let per = |x: f64| x / f.paths as f64;
    let (router, rf) = (median(router), median(rf));
    let row = format!(
        "| {} | {} | {:.1} | {:.1} | {:.1} | {:.0} | {:.2}x | {:.2}x | {:.0}x | {:.2} | {:.0} | {:.0} | {:.1} |\n",
        f.paths,
        f.hosts,
        router,
        median(floor),
        median(fixed),
        median(linear),
        rf,
        median(rx),
        median(lr),
        compile_ms,
        per(heap.retained as f64),
        per(heap.peak as f64),
        per(heap.allocations as f64),
    );
    (row, router, rf)
}

/// The median time `compile_gateway` takes over 15 runs, in milliseconds.
fn gateway_compile_ms(input: &ingress_router::input::Input) -> f64 {
    median(
        (0..15)
            .map(|_| {
                let start = Instant::now();
                let table = compile_gateway(black_box(input));
                let t = start.elapsed();
                drop(table);
                t.as_secs_f64() * 1e3
            })
            .collect(),
    )
}

const GATEWAY_HEADER: &str = "| paths | HTTPRoutes | gateway ns/lookup | floor ns/lookup | gateway/floor | router ns/lookup | router/floor | gateway/router | gateway compile ms | gateway retained B/path | answered as the Ingress router |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

/// One row of the Gateway API table: the Gateway router and the floor timed in alternation (31
/// rounds, the order rotated), then the Gateway's compile time and heap. Not the Ingress router
/// in the same rounds: at 10 000 paths each of the two tables evicts the other from the caches
/// (in one run the Ingress router measured 2.5x slower so); its columns are the Ingress row's, and
/// gateway/router is the quotient of the two /floor medians.
fn gateway_row(f: &Fixture, g: &GatewayFixture, router: f64, router_floor: f64) -> String {
    let n = f.requests.len();
    let (mut gateway, mut floor, mut gf) = (vec![], vec![], vec![]);
    for round in 0..31 {
        let mut times = [0.0; 2];
        for k in 0..2 {
            let which = (round + k) % 2;
            times[which] = match which {
                0 => per_lookup_ns(|| run_gateway(f, g), n, 4),
                _ => per_lookup_ns(|| run_floor(f), n, 4),
            };
        }
        let [gw, fl] = times;
        gateway.push(gw);
        floor.push(fl);
        gf.push(gw / fl);
    }
    let gf = median(gf);
    let compile_ms = gateway_compile_ms(&g.input);
    let heap = compile_heap(|| compile_gateway(&g.input));
    format!(
        "| {} | {} | {:.1} | {:.1} | {:.2}x | {:.1} | {:.2}x | {:.2}x | {:.2} | {:.0} | {:.0}% |\n",
        f.paths,
        g.routes,
        median(gateway),
        median(floor),
        gf,
        router,
        router_floor,
        gf / router_floor,
        compile_ms,
        heap.retained as f64 / f.paths as f64,
        g.same as f64 * 100.0 / n as f64,
    )
}

/// How many requests the Gateway answers otherwise than the Ingress router, and why.
fn differ_text(f: &Fixture, g: &GatewayFixture) -> String {
    let reasons: Vec<String> =
        DIFFER.iter().zip(g.differ).filter(|(_, n)| *n > 0).map(|(why, n)| format!("{n} by {why}")).collect();
    let n: usize = g.differ.iter().sum();
    format!("{n} of {} requests answered otherwise: {}", f.requests.len(), reasons.join("; "))
}

fn mix_line(f: &Fixture) -> String {
    let n = f.requests.len() as f64 / 100.0;
    format!(
        "- {} paths ({} Ingresses, {} paths shadowed or unreachable, {} diagnostics): rule {:.0}%, defaultBackend {:.0}%, 404 {:.0}%; floor hit {:.0}%\n",
        f.paths,
        f.objects.len(),
        f.not_active,
        f.diagnostics,
        f.mix[0] as f64 / n,
        f.mix[1] as f64 / n,
        f.mix[2] as f64 / n,
        f.mix[3] as f64 / n,
    )
}

fn main() {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let summary = bench_mode && !std::env::args().any(|a| a == "--profile-time");
    // `ROUTE_BENCH_SIZES=10000` (comma-separated) builds only those tables, e.g. for profiling.
    let chosen: Option<Vec<usize>> = std::env::var("ROUTE_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').map(|n| n.trim().parse().expect("a size")).collect());
    let sizes = match &chosen {
        Some(sizes) => &sizes[..],
        None if bench_mode => &SIZES[..],
        None => &SIZES[..2],
    };
    // `ROUTE_BENCH_PASSES=n`: no criterion, no summary; each size's router, floors and Gateway
    // router route the requests n times, for an instruction count under callgrind (`--toggle-collect=*run_router*`,
    // see BENCHMARKS.md).
    if let Some(passes) = std::env::var("ROUTE_BENCH_PASSES").ok().map(|n| n.parse::<usize>().expect("a count")) {
        for &paths in sizes {
            let f = fixture(paths);
            for _ in 0..passes {
                run_router(&f);
                run_floor(&f);
                run_fixed_floor(&f);
                if let Some(g) = &f.gateway {
                    run_gateway(&f, g);
                }
            }
            eprintln!("{paths} paths: {} lookups each", passes * f.requests.len());
        }
        return;
    }
    let mut c = Criterion::default().warm_up_time(Duration::from_secs(1)).configure_from_args();
    let (mut rows, mut mix, mut gateway_rows, mut differ, mut grpc_rows) =
        (String::new(), String::new(), String::new(), String::new(), String::new());
    // One table at a time, dropped before the next is built: a process holding the 100 000-path
    // fixture's heap compiles the 10 000-path table about 3x slower (glibc malloc on a large,
    // fragmented heap), which would measure the harness, not the router.
    for &paths in sizes {
        let start = Instant::now();
        let f = fixture(paths);
        eprintln!(
            "{paths} paths: generated, compiled and checked against the linear scan on {REQUESTS} requests in {:.1?}",
            start.elapsed()
        );
        if let Some(g) = &f.gateway {
            eprintln!("{paths} paths, Gateway API: checked; {}", differ_text(&f, g));
        }
        lookups(&mut c, &f);
        compiles(&mut c, &f);
        if (1_000..=GATEWAY_MAX).contains(&paths) {
            let g = grpc_fixture(paths);
            eprintln!("{paths} gRPC methods: GRPCRoutes generated, compiled and every call checked");
            let mut group = c.benchmark_group("lookup");
            group.throughput(Throughput::Elements(g.calls.len() as u64));
            group.bench_with_input(BenchmarkId::new("grpc", paths), &g, |b, g| b.iter(|| run_grpc(g)));
            group.finish();
            if summary {
                grpc_rows.push_str(&grpc_row(&g));
            }
        }
        if summary {
            let (row, router, router_floor) = summary_row(&f);
            rows.push_str(&row);
            mix.push_str(&mix_line(&f));
            if let Some(g) = &f.gateway {
                gateway_rows.push_str(&gateway_row(&f, g, router, router_floor));
                differ.push_str(&format!("- {paths} paths: {}\n", differ_text(&f, g)));
            }
        }
    }
    c.final_summary();
    if summary {
        eprintln!(
            "\n## Summary (interleaved: medians over rounds; ratios are medians of per-round ratios)\n\n{SUMMARY_HEADER}{rows}\n\
             Request mix (router answers; floor hits are exact (host, path) pairs):\n\n{mix}\n\
             Retained: heap still allocated by `compile` once its diagnostics are dropped (the Router).\n"
        );
        if !gateway_rows.is_empty() {
            eprintln!(
                "## Gateway API (the same hosts, paths and backends as one Gateway and HTTPRoutes; interleaved with the floor; the router columns are the Ingress rows')\n\n\
                 {GATEWAY_HEADER}{gateway_rows}\n\
                 Requests the two APIs answer differently (the Gateway's answers all checked against its specification):\n\n{differ}\n\
                 Gateway retained: the Router, whose Gateway API part keeps a copy of its input objects.\n"
            );
        }
        if !grpc_rows.is_empty() {
            eprintln!(
                "## GRPCRoute (one Gateway; per service a GRPCRoute of {GRPC_METHODS_PER_SERVICE} Exact methods and the whole service; \
                 {GRPC_SERVICES_PER_HOST} services per host; a tenth of the calls to methods no rule names; interleaved with a (host, path) hash floor)\n\n\
                 {GRPC_HEADER}{grpc_rows}"
            );
        }
    }
}
