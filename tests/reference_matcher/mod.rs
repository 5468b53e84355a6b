//! A naive reference matcher, written from the crate documentation's Semantics
//! section (hosts, paths, precedence, default backend; src/lib.rs) and nothing else.
//!
//! It deliberately shares no matching code with the library: host normalisation, wildcard
//! matching, tiers, path matching per pathType and ImplementationSpecific mode, the five precedence
//! keys, Ingress age and the choice of default backend are all plain loops over every rule, so
//! that the compiled router (hash maps, precomputed slots) can be checked against it.
//!
//! It also holds the compact, plain-data description of a rule set and of a request that both
//! `tests/reference.rs` (proptest) and `fuzz/fuzz_targets/differential.rs` (arbitrary) generate,
//! and renders it into Ingress objects that are valid by the apiserver's rules. One copy of the
//! reference: the fuzz crate includes this file with `#[path]`.
#![allow(dead_code)]

use std::cmp::Ordering;
use std::collections::BTreeMap;

use ingress_router::testing::model::{
    HttpIngressPath, HttpIngressRuleValue, Ingress, IngressBackend, IngressRule, IngressServiceBackend, IngressSpec,
    ObjectMeta, ServiceBackendPort, TypedLocalObjectReference,
};

/// How `ImplementationSpecific` paths match (the crate documentation, section Paths; `spec` profile).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsMode {
    Prefix,
    Exact,
    StringPrefix,
}

pub const IS_MODES: [IsMode; 3] = [IsMode::Prefix, IsMode::Exact, IsMode::StringPrefix];

/// What the reference decides, in the shape of the library's `DecisionView`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefDecision {
    /// `service:port`, `service:portName`, `resource:group/Kind/name`, or `404`.
    pub backend: String,
    /// `rule`, `defaultBackend` or `none`.
    pub via: &'static str,
    pub matched: Option<RefMatch>,
    /// `namespace/name` of the Ingress whose defaultBackend answered.
    pub default_from: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefMatch {
    pub ingress: String,
    pub host: String,
    pub path: String,
    pub path_type: String,
    /// `spec.rules[i].http.paths[j]`.
    pub field: String,
}

impl RefDecision {
    /// The library's answer in the reference's shape, for comparison.
    pub fn of(view: &ingress_router::DecisionView) -> RefDecision {
        RefDecision {
            backend: view.label.clone(),
            via: view.via.as_str(),
            matched: view.matched.as_ref().map(|m| RefMatch {
                ingress: m.ingress.clone(),
                host: m.host.clone(),
                path: m.path.clone(),
                path_type: m.path_type.as_str().to_string(),
                field: m.field.clone(),
            }),
            default_from: view.default_from.clone(),
        }
    }
}

/// `<name>:80`, the backend the hand-written tests use.
pub fn svc(name: &str) -> IngressBackend {
    IngressBackend {
        service: Some(IngressServiceBackend {
            name: name.into(),
            port: Some(ServiceBackendPort { name: None, number: Some(80) }),
        }),
        resource: None,
    }
}

/// A rule path to `<backend>:80` (an empty `p` means no path).
pub fn path(p: &str, path_type: &str, backend: &str) -> HttpIngressPath {
    HttpIngressPath {
        path: Some(p.into()).filter(|p: &String| !p.is_empty()),
        path_type: Some(path_type.into()),
        backend: svc(backend),
    }
}

/// The label the project writes for a backend (independent of the library's `Display`).
pub fn backend_label(b: &IngressBackend) -> String {
    if let Some(s) = &b.service {
        return match &s.port {
            Some(ServiceBackendPort { number: Some(n), .. }) if *n != 0 => format!("{}:{}", s.name, n),
            Some(ServiceBackendPort { name: Some(p), .. }) => format!("{}:{}", s.name, p),
            _ => s.name.clone(),
        };
    }
    if let Some(r) = &b.resource {
        return format!("resource:{}/{}/{}", r.api_group.as_deref().unwrap_or(""), r.kind, r.name);
    }
    String::from("(empty backend)")
}

fn key_of(i: &Ingress) -> String {
    format!("{}/{}", i.metadata.namespace.as_deref().unwrap_or("default"), i.metadata.name)
}

/// Ingress age order (precedence key 4): `creationTimestamp` (RFC 3339 text in the apiserver's
/// fixed format, so text order is time order; missing = newest), then `namespace/name`.
/// Returns indices into `ingresses`, oldest first.
pub fn age_order(ingresses: &[Ingress]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ingresses.len()).collect();
    order.sort_by(|&a, &b| {
        let (ta, tb) = (&ingresses[a].metadata.creation_timestamp, &ingresses[b].metadata.creation_timestamp);
        let by_time = match (ta, tb) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_time.then_with(|| key_of(&ingresses[a]).cmp(&key_of(&ingresses[b])))
    });
    order
}

/// Section 2: strip a `:port` (a bracketed IPv6 literal keeps its brackets), one trailing dot,
/// lowercase (ASCII).
pub fn normalize_host(raw: &[u8]) -> Vec<u8> {
    let mut host: Vec<u8> = Vec::new();
    if raw.first() == Some(&b'[') {
        let mut closed = false;
        for &b in raw {
            host.push(b);
            if b == b']' {
                closed = true;
                break;
            }
        }
        if !closed {
            host = raw.to_vec();
        }
    } else {
        for &b in raw {
            if b == b':' {
                break;
            }
            host.push(b);
        }
    }
    if host.last() == Some(&b'.') {
        host.pop();
    }
    for b in host.iter_mut() {
        if b.is_ascii_uppercase() {
            *b += b'a' - b'A';
        }
    }
    host
}

/// Does wildcard rule host `*.suffix` cover the request host? Exactly one non-empty label.
fn wildcard_covers(suffix: &[u8], host: &[u8]) -> bool {
    for (i, &b) in host.iter().enumerate() {
        if b == b'.' {
            return i > 0 && &host[i + 1..] == suffix;
        }
    }
    false
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum HostTier {
    Exact,
    Wildcard,
    Any,
}

fn classify(rule_host: &str) -> HostTier {
    if rule_host.is_empty() {
        HostTier::Any
    } else if rule_host.starts_with("*.") {
        HostTier::Wildcard
    } else {
        HostTier::Exact
    }
}

fn rule_host_matches(rule_host: &str, host: &[u8]) -> bool {
    match classify(rule_host) {
        HostTier::Any => true,
        HostTier::Exact => rule_host.as_bytes() == host,
        HostTier::Wildcard => wildcard_covers(&rule_host.as_bytes()[2..], host),
    }
}

/// Section 3: the matched path is the target up to the first `?` or `#`.
pub fn cut_path(target: &[u8]) -> &[u8] {
    let mut end = target.len();
    for (i, &b) in target.iter().enumerate() {
        if b == b'?' || b == b'#' {
            end = i;
            break;
        }
    }
    &target[..end]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum How {
    Exact,
    ElementPrefix,
    StringPrefix,
}

fn how(path_type: &str, mode: IsMode) -> Option<How> {
    match path_type {
        "Exact" => Some(How::Exact),
        "Prefix" => Some(How::ElementPrefix),
        "ImplementationSpecific" => Some(match mode {
            IsMode::Prefix => How::ElementPrefix,
            IsMode::Exact => How::Exact,
            IsMode::StringPrefix => How::StringPrefix,
        }),
        _ => None,
    }
}

fn without_trailing_slash(p: &[u8]) -> &[u8] {
    if p.last() == Some(&b'/') { &p[..p.len() - 1] } else { p }
}

/// The table of section 3, literally.
fn path_matches(how: How, p: &[u8], r: &[u8]) -> bool {
    match how {
        How::Exact => r == p,
        How::StringPrefix => r.len() >= p.len() && &r[..p.len()] == p,
        How::ElementPrefix => {
            if p == b"/" {
                return true;
            }
            let q = without_trailing_slash(p);
            if r == q {
                return true;
            }
            r.len() > q.len() && &r[..q.len()] == q && r[q.len()] == b'/'
        }
    }
}

/// Precedence key 1: for element-wise prefixes, the length without a trailing `/`.
fn effective_len(how: How, p: &[u8]) -> usize {
    match how {
        How::ElementPrefix => without_trailing_slash(p).len(),
        How::Exact | How::StringPrefix => p.len(),
    }
}

/// Precedence key 2 (lower is stronger): Exact, Prefix, ImplementationSpecific.
fn type_rank(path_type: &str) -> u8 {
    match path_type {
        "Exact" => 0,
        "Prefix" => 1,
        _ => 2,
    }
}

struct Candidate<'a> {
    age: usize,
    ingress: &'a Ingress,
    rule_index: usize,
    path_index: usize,
    host: &'a str,
    path: &'a str,
    path_type: &'a str,
    how: How,
    backend: &'a IngressBackend,
}

/// `true` when `a` takes precedence over `b` (section 4, keys 1 to 5).
fn beats(a: &Candidate<'_>, b: &Candidate<'_>) -> bool {
    let (ea, eb) = (effective_len(a.how, a.path.as_bytes()), effective_len(b.how, b.path.as_bytes()));
    if ea != eb {
        return ea > eb;
    }
    let (ta, tb) = (type_rank(a.path_type), type_rank(b.path_type));
    if ta != tb {
        return ta < tb;
    }
    if a.path.len() != b.path.len() {
        return a.path.len() > b.path.len();
    }
    if a.age != b.age {
        return a.age < b.age;
    }
    if a.rule_index != b.rule_index {
        return a.rule_index < b.rule_index;
    }
    a.path_index < b.path_index
}

/// Routes a request by the crate documentation's Semantics section over every rule of `ingresses` (all taking part).
pub fn reference_route(
    ingresses: &[Ingress],
    mode: IsMode,
    configured_default: Option<&IngressBackend>,
    raw_host: &[u8],
    target: &[u8],
) -> RefDecision {
    let order = age_order(ingresses);
    let mut age = vec![0; ingresses.len()];
    for (rank, &i) in order.iter().enumerate() {
        age[i] = rank;
    }
    let host = normalize_host(raw_host);
    let r = cut_path(target);

    // Section 2: the first non-empty tier wins; no fall-through afterwards.
    let mut tier = None;
    for wanted in [HostTier::Exact, HostTier::Wildcard, HostTier::Any] {
        let found = ingresses.iter().any(|ing| {
            ing.spec.rules.iter().flatten().any(|rule| {
                let h = rule.host.as_deref().unwrap_or("");
                classify(h) == wanted && rule_host_matches(h, &host)
            })
        });
        if found {
            tier = Some(wanted);
            break;
        }
    }

    // The rule host the chosen tier stands for (one exact host, one wildcard, or "").
    let mut chosen_host: Option<&str> = None;
    let mut best: Option<Candidate<'_>> = None;
    if let Some(tier) = tier {
        for (i, ing) in ingresses.iter().enumerate() {
            for (rule_index, rule) in ing.spec.rules.iter().flatten().enumerate() {
                let h = rule.host.as_deref().unwrap_or("");
                if classify(h) != tier || !rule_host_matches(h, &host) {
                    continue;
                }
                chosen_host = Some(h);
                let Some(http) = &rule.http else { continue };
                for (path_index, p) in http.paths.iter().enumerate() {
                    let path_type = p.path_type.as_deref().unwrap_or("");
                    let Some(how) = how(path_type, mode) else { continue };
                    let path = p.path.as_deref().unwrap_or("");
                    if !path_matches(how, path.as_bytes(), r) {
                        continue;
                    }
                    let c = Candidate {
                        age: age[i],
                        ingress: ing,
                        rule_index,
                        path_index,
                        host: h,
                        path,
                        path_type,
                        how,
                        backend: &p.backend,
                    };
                    if best.as_ref().is_none_or(|b| beats(&c, b)) {
                        best = Some(c);
                    }
                }
            }
        }
    }
    if let Some(c) = best {
        return RefDecision {
            backend: backend_label(c.backend),
            via: "rule",
            matched: Some(RefMatch {
                ingress: key_of(c.ingress),
                host: c.host.to_string(),
                path: c.path.to_string(),
                path_type: c.path_type.to_string(),
                field: format!("spec.rules[{}].http.paths[{}]", c.rule_index, c.path_index),
            }),
            default_from: None,
        };
    }

    // Section 5: the oldest Ingress with a rule for the chosen host that declares a
    // defaultBackend; else the oldest that declares one; else the configured one; else 404.
    let has_rule_for_chosen = |ing: &Ingress| {
        chosen_host
            .is_some_and(|ch| ing.spec.rules.iter().flatten().any(|rule| rule.host.as_deref().unwrap_or("") == ch))
    };
    let declared = |ing: &Ingress| ing.spec.default_backend.is_some();
    let pick = order
        .iter()
        .map(|&i| &ingresses[i])
        .find(|ing| declared(ing) && has_rule_for_chosen(ing))
        .or_else(|| order.iter().map(|&i| &ingresses[i]).find(|ing| declared(ing)));
    if let Some(ing) = pick {
        let backend = ing.spec.default_backend.as_ref().expect("declared");
        return RefDecision {
            backend: backend_label(backend),
            via: "defaultBackend",
            matched: None,
            default_from: Some(key_of(ing)),
        };
    }
    if let Some(backend) = configured_default {
        return RefDecision {
            backend: backend_label(backend),
            via: "defaultBackend",
            matched: None,
            default_from: None,
        };
    }
    RefDecision { backend: String::from("404"), via: "none", matched: None, default_from: None }
}

// ---------------------------------------------------------------------------------------------
// Compact rule sets and requests, shared by the property test and the differential fuzz target.
// ---------------------------------------------------------------------------------------------

/// Rule hosts (index 0: no host). Overlapping exact and wildcard hosts, all valid DNS names.
pub const RULE_HOSTS: &[&str] =
    &["", "foo.com", "bar.foo.com", "*.foo.com", "a.b.foo.com", "*.b.foo.com", "example.com", "*.example.com"];

/// Request hosts before decoration (case, port, trailing dot).
pub const REQUEST_HOSTS: &[&[u8]] = &[
    b"foo.com",
    b"bar.foo.com",
    b"baz.foo.com",
    b"b.foo.com",
    b"a.b.foo.com",
    b"x.b.foo.com",
    b"c.a.b.foo.com",
    b"example.com",
    b"www.example.com",
    b"other.org",
    b"",
    b"[::1]",
    b"10.0.0.1",
    b"\xff.foo.com",
    b".foo.com",
    b"*.foo.com",
    b"foo.com.evil",
];

/// Path elements of rules. No `.`/`..` elements and no `%2f` (Exact/Prefix validity); `a` is a
/// string prefix of `ab`, `A` differs from `a` only in case.
/// The long elements put paths and keys on both sides of 64 bytes, where the lookup changes
/// strategy (`hash::SCAN_LEN` and the short-length filters).
pub const PATH_ELEMENTS: &[&str] =
    &["a", "b", "ab", "ba", "A", "a.b", "x-y", "%41", "\u{e9}", "a-rather-long-element-of-thirty-1"];

/// Extra elements only requests use.
pub const REQUEST_EXTRA_ELEMENTS: &[&[u8]] =
    &[b"c", b"abc", b"aa", b"", b"\xff", b"\xc3", b".", b"..", b"another-long-request-element-31"];

pub const NAMESPACES: &[Option<&str>] = &[None, Some("default"), Some("team"), Some("team-b"), Some("shop")];
pub const NAMES: &[&str] = &["web", "web-1", "api", "web.v2"];
pub const TIMESTAMPS: &[&str] = &["2023-05-01T10:00:00Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:01Z"];

#[derive(Clone, Debug)]
pub struct GenCase {
    pub ingresses: Vec<GenIngress>,
    /// The table's configured default backend (CompileOptions::default_backend).
    pub configured_default: bool,
}

#[derive(Clone, Debug)]
pub struct GenIngress {
    /// Index into [`NAMESPACES`].
    pub namespace: usize,
    /// Index into [`NAMES`].
    pub name: usize,
    /// Index into [`TIMESTAMPS`]; `None`: not created yet (newest).
    pub timestamp: Option<usize>,
    pub default_backend: Option<GenBackend>,
    pub rules: Vec<GenRule>,
}

#[derive(Clone, Debug)]
pub struct GenRule {
    /// Index into [`RULE_HOSTS`].
    pub host: usize,
    /// `None`: a rule without `http` (only generated with a host).
    pub paths: Option<Vec<GenPath>>,
}

#[derive(Clone, Debug)]
pub struct GenPath {
    /// 0 Exact, 1 Prefix, 2 ImplementationSpecific.
    pub path_type: usize,
    /// Indices into [`PATH_ELEMENTS`]; no elements: `/`.
    pub elements: Vec<usize>,
    pub trailing_slash: bool,
    /// ImplementationSpecific only: 0 plain, 1 empty path, 2 contains `//`, 3 contains `/./`.
    pub odd: usize,
    pub backend: GenBackend,
}

#[derive(Clone, Copy, Debug)]
pub enum GenBackend {
    /// Service with a numbered port.
    Number(u16),
    /// Service with a named port.
    Named,
    /// A resource backend.
    Resource,
}

pub const PATH_TYPES: [&str; 3] = ["Exact", "Prefix", "ImplementationSpecific"];

/// The path as written in the rule, valid for its pathType.
pub fn render_rule_path(p: &GenPath) -> String {
    let path_type = PATH_TYPES[p.path_type % 3];
    if path_type == "ImplementationSpecific" && p.odd % 4 == 1 {
        return String::new();
    }
    let elements: Vec<&str> = p.elements.iter().map(|&e| PATH_ELEMENTS[e % PATH_ELEMENTS.len()]).collect();
    let mut s = String::from("/");
    s.push_str(&elements.join("/"));
    if p.trailing_slash && !elements.is_empty() {
        s.push('/');
    }
    if path_type == "ImplementationSpecific" {
        // Allowed for ImplementationSpecific (it only needs to be absolute): `//` and `/./`.
        match p.odd % 4 {
            2 => s.insert(0, '/'),
            3 => s.insert_str(0, "/."),
            _ => {}
        }
    }
    s
}

fn service(name: String, spec: GenBackend) -> IngressBackend {
    match spec {
        GenBackend::Number(n) => IngressBackend {
            service: Some(IngressServiceBackend {
                name,
                port: Some(ServiceBackendPort { name: None, number: Some(i64::from(n.max(1))) }),
            }),
            resource: None,
        },
        GenBackend::Named => IngressBackend {
            service: Some(IngressServiceBackend {
                name,
                port: Some(ServiceBackendPort { name: Some(String::from("http")), number: None }),
            }),
            resource: None,
        },
        GenBackend::Resource => IngressBackend {
            service: None,
            resource: Some(TypedLocalObjectReference {
                api_group: Some(String::from("k8s.example.com")),
                kind: String::from("StorageBucket"),
                name,
            }),
        },
    }
}

/// Renders a case into Ingresses that the apiserver would accept: unique namespace/name,
/// `defaultBackend` or at least one rule, every `http.paths` non-empty, valid hosts, paths,
/// service names (DNS-1035 labels, unique per path so a wrong choice always shows), port names
/// and numbers.
pub fn build_ingresses(case: &GenCase) -> Vec<Ingress> {
    let mut seen: Vec<(Option<&str>, String)> = Vec::new();
    let mut out = Vec::new();
    for (i, spec) in case.ingresses.iter().enumerate() {
        let namespace = NAMESPACES[spec.namespace % NAMESPACES.len()];
        let mut name = NAMES[spec.name % NAMES.len()].to_string();
        let same_ns = |a: Option<&str>, b: Option<&str>| a.unwrap_or("default") == b.unwrap_or("default");
        while seen.iter().any(|(ns, n)| same_ns(*ns, namespace) && *n == name) {
            name.push_str(&format!("-{i}"));
        }
        seen.push((namespace, name.clone()));
        let mut rules = Vec::new();
        for (r, rule) in spec.rules.iter().enumerate() {
            let host = RULE_HOSTS[rule.host % RULE_HOSTS.len()];
            let http = match &rule.paths {
                Some(paths) if !paths.is_empty() => Some(HttpIngressRuleValue {
                    paths: paths
                        .iter()
                        .enumerate()
                        .map(|(p, ps)| HttpIngressPath {
                            path: Some(render_rule_path(ps)).filter(|s| !s.is_empty()),
                            path_type: Some(PATH_TYPES[ps.path_type % 3].to_string()),
                            backend: service(format!("s{i}r{r}p{p}"), ps.backend),
                        })
                        .collect(),
                }),
                // A rule without http needs a host to say anything; give it one.
                _ if host.is_empty() => Some(HttpIngressRuleValue {
                    paths: vec![HttpIngressPath {
                        path: Some(String::from("/")),
                        path_type: Some(String::from("Prefix")),
                        backend: service(format!("s{i}r{r}p0"), GenBackend::Number(80)),
                    }],
                }),
                _ => None,
            };
            rules.push(IngressRule { host: Some(host.to_string()).filter(|h| !h.is_empty()), http });
        }
        let mut default_backend = spec.default_backend.map(|b| service(format!("d{i}"), b));
        if rules.is_empty() && default_backend.is_none() {
            default_backend = Some(service(format!("d{i}"), GenBackend::Number(8080)));
        }
        out.push(Ingress {
            api_version: String::from("networking.k8s.io/v1"),
            kind: String::from("Ingress"),
            metadata: ObjectMeta {
                name,
                namespace: namespace.map(String::from),
                creation_timestamp: spec.timestamp.map(|t| TIMESTAMPS[t % TIMESTAMPS.len()].to_string()),
                labels: BTreeMap::new(),
                annotations: BTreeMap::new(),
                ..ObjectMeta::default()
            },
            spec: IngressSpec {
                ingress_class_name: None,
                default_backend,
                tls: Vec::new(),
                rules: if rules.is_empty() && spec.rules.is_empty() { None } else { Some(rules) },
            },
            status: None,
        });
    }
    out
}

/// The configured default backend a case may set.
pub fn configured_default(case: &GenCase) -> Option<IngressBackend> {
    case.configured_default.then(|| service(String::from("fallback"), GenBackend::Number(80)))
}

#[derive(Clone, Debug)]
pub struct GenRequest {
    /// Index into [`REQUEST_HOSTS`].
    pub host: usize,
    /// Bit 0: uppercase the first letter of each label; bit 1: uppercase everything;
    /// bit 2: add a port; bit 3: add a trailing dot.
    pub host_style: u8,
    /// Path elements: below `PATH_ELEMENTS.len()` a rule element, above it an extra element.
    pub elements: Vec<usize>,
    /// Bit 0: trailing slash; bit 1: `//` after the first element; bit 2: query; bit 3: fragment.
    pub path_style: u8,
    /// 0: `/`-rooted path; 1: empty path; 2: query only (`?q=/a`).
    pub shape: u8,
}

/// Renders a request into `Host` header bytes and request-target bytes.
pub fn render_request(r: &GenRequest) -> (Vec<u8>, Vec<u8>) {
    let mut host = REQUEST_HOSTS[r.host % REQUEST_HOSTS.len()].to_vec();
    if r.host_style & 1 != 0 {
        let mut start = true;
        for b in host.iter_mut() {
            if start {
                b.make_ascii_uppercase();
            }
            start = *b == b'.';
        }
    }
    if r.host_style & 2 != 0 {
        host.make_ascii_uppercase();
    }
    if r.host_style & 8 != 0 {
        host.push(b'.');
    }
    if r.host_style & 4 != 0 {
        host.extend_from_slice(b":8443");
    }
    let path = match r.shape % 3 {
        1 => Vec::new(),
        2 => b"?q=/a".to_vec(),
        _ => {
            let mut path = Vec::new();
            let n = PATH_ELEMENTS.len();
            for (k, &e) in r.elements.iter().enumerate() {
                path.push(b'/');
                if k == 1 && r.path_style & 2 != 0 {
                    path.push(b'/');
                }
                if e % (n + REQUEST_EXTRA_ELEMENTS.len()) < n {
                    path.extend_from_slice(PATH_ELEMENTS[e % n].as_bytes());
                } else {
                    path.extend_from_slice(REQUEST_EXTRA_ELEMENTS[(e % (n + REQUEST_EXTRA_ELEMENTS.len())) - n]);
                }
            }
            if path.is_empty() || r.path_style & 1 != 0 {
                path.push(b'/');
            }
            if r.path_style & 4 != 0 {
                path.extend_from_slice(b"?x=/a/b");
            }
            if r.path_style & 8 != 0 {
                path.extend_from_slice(b"#/ab");
            }
            path
        }
    };
    (host, path)
}
