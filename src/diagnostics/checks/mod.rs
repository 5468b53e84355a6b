//! The lint checks: findings about the input that the compiler itself does not make (Services
//! and ports behind backends, IngressClasses, TLS, controller annotations, regex-looking paths).
//!
//! One file per family of checks; each concept is one small function, and they share the
//! iteration helpers below.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::ops::Range;

use super::annotations::{self, NGINX_PREFIX};
use super::controllers;
use super::{Code, Diagnostic, ObjectRef, Severity, code};
use crate::class;
use crate::host::wildcard_suffix;
use crate::model::{
    DEFAULT_CLASS_ANNOTATION, HttpIngressPath, Ingress, IngressClass, IngressServiceBackend, LEGACY_CLASS_ANNOTATION,
    Object, Service, ServicePort,
};
use crate::options::CompileOptions;
use crate::path::PathType;

mod annotation_keys;
mod classes;
mod paths;
mod services;
mod tls;

use annotation_keys::*;
use classes::*;
use paths::*;
use services::*;
use tls::*;

/// Lints the input: every finding with a stable code, the objects and fields involved and a fix,
/// ordered by object, then field, then code.
///
/// Class checks look at every Ingress; the other checks only at the Ingresses that take part for
/// `options.ingress_class` (all of them when it is `None`). Service checks run only when the input
/// holds at least one Service: users often paste Ingresses alone. Nothing here repeats what
/// the table reports (`diagnostics::table`) (invalid Ingresses, classes not served, duplicate and
/// unreachable paths, default-backend conflicts).
///
/// [`Router::lint`](crate::Router::lint) shows an example.
pub fn lint(objects: &[Object], options: &CompileOptions) -> Vec<Diagnostic> {
    let mut memos = [Memo::default()];
    lint_parts(objects, options, &Parts { services: 0, parts: &[(0..objects.len(), 0)], keep: false }, &mut memos)
}

/// The input as parts (a [`Workspace`](crate::Workspace)'s documents), each with the [`Memo`] of
/// what lint found in it last time.
pub(crate) struct Parts<'a> {
    /// Changes whenever the input's Services change (the Service checks read them all).
    pub(crate) services: u64,
    /// The objects of each part, in order and covering the input, and the index of its memo.
    /// Parts with the same objects may share a memo.
    pub(crate) parts: &'a [(Range<usize>, usize)],
    /// Keep the findings in the memos for the next call (else they are moved out).
    pub(crate) keep: bool,
}

/// What lint found in one part of the input, kept from one [`lint_parts`] to the next. A memo
/// belongs to one sequence of objects (the caller keys it by the text they were read from): the
/// checks of an object alone are reused when the options are the same; the Service checks when,
/// besides, the Services, the part's Ingresses that take part and the did-you-mean budget left
/// to them allow.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    /// The findings of each object on its own, and the options they were found with.
    own: Option<(CompileOptions, Vec<Own>)>,
    /// The Service checks' findings on the part's Ingresses: a few, as the same part can stand
    /// at several places of the input.
    backends: Vec<Backends>,
}

/// What the checks of one Ingress alone find (they read no other object).
#[derive(Debug, Default)]
struct Own {
    /// On every Ingress: the legacy class annotation.
    every: Vec<Diagnostic>,
    /// On an Ingress that takes part: TLS, annotations, regex-looking paths, globs, ALB actions.
    served: Vec<Diagnostic>,
    /// The regex-path-literal findings in `served` (their index) with their rule host: the message
    /// says more when some Ingress turns regexes on for the host.
    regex_paths: Vec<(usize, String)>,
}

impl Own {
    fn of(object: &Object, options: &CompileOptions) -> Own {
        let mut own = Own::default();
        let Object::Ingress(ingress) = object else { return own };
        check_legacy_class_annotation(ingress, &mut own.every);
        let out = &mut own.served;
        check_tls_hosts_served(ingress, out);
        check_hosts_without_tls(ingress, out);
        check_tls_secrets(ingress, out);
        check_annotations(ingress, out);
        check_regex_paths(ingress, out, &mut own.regex_paths);
        super::idioms::check_own(ingress, options.implementation_specific, out);
        own
    }
}

/// The Service checks' findings on the Ingresses of a part, and what they read besides them.
#[derive(Debug)]
struct Backends {
    services: u64,
    /// Which objects of the part are Ingresses that take part.
    served: Vec<bool>,
    /// Did-you-mean suggestions left at the start, how many the part used, and whether it wanted more.
    budget: usize,
    used: usize,
    starved: bool,
    findings: Vec<Diagnostic>,
}

impl Backends {
    /// Whether the checks would find the same again: with the same budget, or with enough of it.
    fn fits(&self, services: u64, served: &[bool], budget: usize) -> bool {
        self.services == services
            && self.served == served
            && (self.budget == budget || (!self.starved && budget >= self.used))
    }
}

/// How many [`Backends`] a memo keeps.
const MAX_BACKENDS: usize = 4;

/// [`lint`] over `parts`, reusing and updating `memos`.
pub(crate) fn lint_parts(
    objects: &[Object],
    options: &CompileOptions,
    parts: &Parts<'_>,
    memos: &mut [Memo],
) -> Vec<Diagnostic> {
    let input = Input::new(objects, options);
    let mut out = Vec::new();

    check_default_classes(&input.classes, &mut out);
    for ingress in &input.ingresses {
        check_unknown_class(ingress, &input.classes, options.ingress_class.as_deref(), &mut out);
    }

    let regex_hosts = regex_hosts(&input.served);
    let mut services: Option<ServiceIndex<'_>> = None;
    let mut budget = MAX_SUGGESTIONS;
    for (range, memo) in parts.parts {
        let memo = &mut memos[*memo];
        let served = &input.served_at[range.clone()];
        if memo.own.as_ref().is_none_or(|(o, _)| o != options) {
            memo.own = Some((options.clone(), objects[range.clone()].iter().map(|o| Own::of(o, options)).collect()));
        }
        let own = memo.own.as_mut().map(|(_, own)| own).into_iter().flatten();
        for (own, &served) in own.zip(served) {
            emit(&mut out, &mut own.every, parts.keep);
            if served {
                let at = out.len();
                emit(&mut out, &mut own.served, parts.keep);
                for (i, host) in &own.regex_paths {
                    if regex_hosts.contains(&host.as_str()) {
                        out[at + i].message.push_str(&regex_host_note(host));
                    }
                }
            }
        }

        if input.services.is_empty() {
            continue;
        }
        let found = memo.backends.iter().position(|b| b.fits(parts.services, served, budget));
        let at = match found {
            Some(at) => at,
            None => {
                let index = services.get_or_insert_with(|| ServiceIndex::new(&input.services));
                index.suggestions_left = budget;
                index.starved = false;
                let mut findings = Vec::new();
                for (object, _) in objects[range.clone()].iter().zip(served).filter(|(_, served)| **served) {
                    let Object::Ingress(ingress) = object else { continue };
                    check_backends(ingress, index, &mut findings);
                }
                if memo.backends.len() == MAX_BACKENDS {
                    memo.backends.remove(0);
                }
                memo.backends.push(Backends {
                    services: parts.services,
                    served: served.to_vec(),
                    budget,
                    used: budget - index.suggestions_left,
                    starved: index.starved,
                    findings,
                });
                memo.backends.len() - 1
            }
        };
        let backends = &mut memo.backends[at];
        budget -= backends.used;
        emit(&mut out, &mut backends.findings, parts.keep);
    }
    super::idioms::check_across(&input.served, options.implementation_specific, &mut out);

    // The checks' findings come in another order than one check after the other would give, but
    // each code comes from one check, which gives its findings in the order of the input: the
    // stable sort by object, field and code orders ties the same.
    out.sort_by(compare);
    out
}

/// Adds `found` to `out`: copies, or moves them when they are not kept.
fn emit(out: &mut Vec<Diagnostic>, found: &mut Vec<Diagnostic>, keep: bool) {
    if keep {
        out.extend_from_slice(found);
    } else {
        out.append(found);
    }
}

/// The Service checks on every backend of `ingress`.
fn check_backends(ingress: &Ingress, services: &mut ServiceIndex<'_>, out: &mut Vec<Diagnostic>) {
    for site in backend_sites(ingress) {
        let target = site.service.and_then(|b| services.by_key.get(&(namespace(ingress), b.name.as_str())).copied());
        for check in SERVICE_CHECKS {
            out.extend(check(&site, target, services));
        }
    }
}

/// The Services of the input, indexed so that every backend costs a few hash lookups.
struct ServiceIndex<'a> {
    by_key: hashbrown::HashMap<(&'a str, &'a str), &'a Service>,
    names_by_namespace: hashbrown::HashMap<&'a str, Vec<&'a str>>,
    namespaces_by_name: hashbrown::HashMap<&'a str, Vec<&'a str>>,
    /// Did-you-mean suggestions left to compute (each costs an edit distance per candidate).
    suggestions_left: usize,
    /// A suggestion was wanted when none was left.
    starved: bool,
}

/// At most this many missing Services get a did-you-mean, each among at most this many candidates.
const MAX_SUGGESTIONS: usize = 1_000;

impl<'a> ServiceIndex<'a> {
    fn new(services: &[&'a Service]) -> Self {
        let mut index = ServiceIndex {
            by_key: hashbrown::HashMap::new(),
            names_by_namespace: hashbrown::HashMap::new(),
            namespaces_by_name: hashbrown::HashMap::new(),
            suggestions_left: MAX_SUGGESTIONS,
            starved: false,
        };
        for s in services {
            let (ns, name) = (s.metadata.namespace_or_default(), s.metadata.name.as_str());
            index.by_key.entry((ns, name)).or_insert(s);
            index.names_by_namespace.entry(ns).or_default().push(name);
            index.namespaces_by_name.entry(name).or_default().push(ns);
        }
        index
    }
}

/// The objects of the input, by kind.
struct Input<'a> {
    /// Every Ingress.
    ingresses: Vec<&'a Ingress>,
    /// The Ingresses that take part for the served class.
    served: Vec<&'a Ingress>,
    /// For each object, whether it is an Ingress that takes part.
    served_at: Vec<bool>,
    classes: Vec<&'a IngressClass>,
    services: Vec<&'a Service>,
}

impl<'a> Input<'a> {
    fn new(objects: &'a [Object], options: &CompileOptions) -> Self {
        let mut input = Input {
            ingresses: Vec::new(),
            served: Vec::new(),
            served_at: Vec::with_capacity(objects.len()),
            classes: Vec::new(),
            services: Vec::new(),
        };
        for object in objects {
            match object {
                Object::Ingress(i) => input.ingresses.push(i),
                Object::IngressClass(c) => input.classes.push(c),
                Object::Service(s) => input.services.push(s),
            }
        }
        let served = options.ingress_class.as_deref();
        for object in objects {
            let takes_part = match object {
                Object::Ingress(i) => class::participation(i, served, &input.classes).takes_part(),
                _ => false,
            };
            if let (Object::Ingress(i), true) = (object, takes_part) {
                input.served.push(i);
            }
            input.served_at.push(takes_part);
        }
        input
    }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

fn namespace(ingress: &Ingress) -> &str {
    ingress.metadata.namespace_or_default()
}

fn ingress_ref(ingress: &Ingress) -> ObjectRef {
    ObjectRef::ingress(namespace(ingress), &ingress.metadata.name)
}

fn service_ref(service: &Service) -> ObjectRef {
    ObjectRef::service(service.metadata.namespace_or_default(), &service.metadata.name)
}

fn class_ref(class: &IngressClass) -> ObjectRef {
    ObjectRef::ingress_class(&class.metadata.name)
}

/// `Ingress ns/name`.
fn ingress_label(ingress: &Ingress) -> String {
    format!("Ingress {}/{}", namespace(ingress), ingress.metadata.name)
}

/// `ns/name`.
fn service_label(service: &Service) -> String {
    format!("{}/{}", service.metadata.namespace_or_default(), service.metadata.name)
}

fn diagnostic(code: Code, severity: Severity, message: String, objects: Vec<ObjectRef>, fix: String) -> Diagnostic {
    Diagnostic { code, severity, message, objects, fix }
}

/// The rules of an Ingress with their index.
fn rules(ingress: &Ingress) -> impl Iterator<Item = (usize, &crate::model::IngressRule)> {
    ingress.spec.rules.iter().flatten().enumerate()
}

/// The non-empty rule hosts with their rule index.
fn rule_hosts(ingress: &Ingress) -> impl Iterator<Item = (usize, &str)> {
    rules(ingress).filter_map(|(i, r)| r.host.as_deref().filter(|h| !h.is_empty()).map(|h| (i, h)))
}

/// Every `spec.tls[t].hosts[h]` with its indices.
fn tls_hosts(ingress: &Ingress) -> impl Iterator<Item = (usize, usize, &str)> {
    ingress
        .spec
        .tls
        .iter()
        .enumerate()
        .flat_map(|(t, tls)| tls.hosts.iter().enumerate().map(move |(h, host)| (t, h, host.as_str())))
}

/// Every rule path: its field (`spec.rules[i].http.paths[j]`), its rule host (`""` when none) and the path.
fn paths(ingress: &Ingress) -> impl Iterator<Item = (PathField, &str, &HttpIngressPath)> {
    rules(ingress).flat_map(|(i, rule)| {
        let host = rule.host.as_deref().unwrap_or("");
        rule.http.iter().flat_map(|h| h.paths.iter().enumerate()).map(move |(j, p)| (PathField(i, j), host, p))
    })
}

/// `spec.rules[i].http.paths[j]`, formatted only when shown.
#[derive(Clone, Copy)]
struct PathField(usize, usize);

impl core::fmt::Display for PathField {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "spec.rules[{}].http.paths[{}]", self.0, self.1)
    }
}

/// Every backend of an Ingress: `spec.defaultBackend` first, then each rule path's.
fn backend_sites(ingress: &Ingress) -> Vec<BackendSite<'_>> {
    let default = ingress.spec.default_backend.as_ref().map(|b| (String::from("spec.defaultBackend"), b));
    let rule_backends = paths(ingress).map(|(field, _, path)| (format!("{field}.backend"), &path.backend));
    default
        .into_iter()
        .chain(rule_backends)
        .map(|(field, backend)| BackendSite { ingress, field, service: backend.service.as_ref() })
        .collect()
}

/// The order of diagnostics: by the first object (kind, namespace, name, field with numbers
/// compared as numbers), then by code; ties keep the order the checks produced them in.
pub(crate) fn compare(a: &Diagnostic, b: &Diagnostic) -> Ordering {
    // Borrowed: the sort compares many times.
    fn key(d: &Diagnostic) -> Option<(&str, &str, &str, &str)> {
        d.objects.first().map(|o| {
            (
                o.kind,
                o.namespace.as_deref().unwrap_or_default(),
                o.name.as_str(),
                o.field.as_deref().unwrap_or_default(),
            )
        })
    }
    match (key(a), key(b)) {
        (Some((ka, na, ma, fa)), Some((kb, nb, mb, fb))) => {
            ka.cmp(kb).then(na.cmp(nb)).then(ma.cmp(mb)).then_with(|| natural(fa, fb))
        }
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
    .then(a.code.as_str().cmp(b.code.as_str()))
}

/// Compares strings with runs of digits compared by value: `paths[2]` before `paths[10]`.
fn natural(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    // The common prefix compares equal, up to the digit run it may end in (fields share long
    // prefixes, and the sort compares many).
    let mut common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while common > 0 && a[common - 1].is_ascii_digit() {
        common -= 1;
    }
    natural_bytes(&a[common..], &b[common..])
}

/// [`natural`] from the first byte.
fn natural_bytes(mut a: &[u8], mut b: &[u8]) -> Ordering {
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let na = trim_zeros(&a[..da]);
                let nb = trim_zeros(&b[..db]);
                let by_value = na.len().cmp(&nb.len()).then(na.cmp(nb));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[zeros..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        assert_eq!(natural("spec.rules[2]", "spec.rules[10]"), Ordering::Less);
        assert_eq!(natural("spec.rules[10].a", "spec.rules[10].b"), Ordering::Less);
        assert_eq!(natural("a", "a"), Ordering::Equal);
        assert_eq!(natural("paths[12]", "paths[1]"), Ordering::Greater);
        assert_eq!(natural("paths[1]", "paths[12]"), Ordering::Less);
        assert_eq!(natural("paths[012]", "paths[12]"), Ordering::Equal);
        assert_eq!(natural("paths[3].a", "paths[03].b"), Ordering::Less);
        assert_eq!(natural("x19", "x2"), Ordering::Greater);
        assert_eq!(natural("ab", "a"), Ordering::Greater);
        // Skipping the common prefix changes nothing: every pair of short strings.
        let mut strings = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> =
                strings.iter().flat_map(|s| ["a", "0", "1", "9"].map(|c| format!("{s}{c}"))).collect();
            strings.extend(longer);
        }
        strings.sort();
        strings.dedup();
        for a in &strings {
            for b in &strings {
                assert_eq!(natural(a, b), natural_bytes(a.as_bytes(), b.as_bytes()), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn overlap() {
        let hosts_overlap = |a: &str, b: &str| HostIndex::new(&[b]).overlaps(a);
        assert!(hosts_overlap("*.foo.com", "a.foo.com"));
        assert!(hosts_overlap("a.foo.com", "*.foo.com"));
        assert!(!hosts_overlap("*.foo.com", "foo.com"));
        assert!(!hosts_overlap("*.foo.com", "a.b.foo.com"));
        assert!(hosts_overlap("Foo.com", "foo.com"));
        assert!(hosts_overlap("a.foo.com", "A.FOO.COM"));
        assert!(!hosts_overlap("*.foo.com", "*.bar.com"));
    }

    #[test]
    fn literal_prefixes() {
        assert_eq!(literal_prefix("/api/(.*)"), "/api");
        assert_eq!(literal_prefix("/*"), "/");
        assert_eq!(literal_prefix("/foo/.*"), "/foo");
        assert_eq!(literal_prefix("/(/|$)(.*)"), "/");
        assert_eq!(literal_prefix("/v1/users/[0-9]+"), "/v1/users");
        assert_eq!(literal_prefix("/wlmdb(.*)"), "/wlmdb");
        assert_eq!(literal_prefix("/api/v?1"), "/api");
    }
}
