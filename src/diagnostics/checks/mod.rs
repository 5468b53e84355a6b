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
    let input = Input::new(objects, options);
    let mut out = Vec::new();

    check_default_classes(&input.classes, &mut out);
    for ingress in &input.ingresses {
        check_unknown_class(ingress, &input.classes, options.ingress_class.as_deref(), &mut out);
        check_legacy_class_annotation(ingress, &mut out);
    }

    let regex_hosts = regex_hosts(&input.served);
    let mut services = ServiceIndex::new(&input.services);
    for ingress in &input.served {
        if !input.services.is_empty() {
            for site in backend_sites(ingress) {
                let target =
                    site.service.and_then(|b| services.by_key.get(&(namespace(ingress), b.name.as_str())).copied());
                for check in SERVICE_CHECKS {
                    out.extend(check(&site, target, &mut services));
                }
            }
        }
        check_tls_hosts_served(ingress, &mut out);
        check_hosts_without_tls(ingress, &mut out);
        check_tls_secrets(ingress, &mut out);
        check_annotations(ingress, &mut out);
        check_regex_paths(ingress, &regex_hosts, &mut out);
    }
    super::idioms::check(&input.served, options.implementation_specific, &mut out);

    out.sort_by(compare);
    out
}

/// The Services of the input, indexed so that every backend costs a few hash lookups.
struct ServiceIndex<'a> {
    by_key: hashbrown::HashMap<(&'a str, &'a str), &'a Service>,
    names_by_namespace: hashbrown::HashMap<&'a str, Vec<&'a str>>,
    namespaces_by_name: hashbrown::HashMap<&'a str, Vec<&'a str>>,
    /// Did-you-mean suggestions left to compute (each costs an edit distance per candidate).
    suggestions_left: usize,
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
    classes: Vec<&'a IngressClass>,
    services: Vec<&'a Service>,
}

impl<'a> Input<'a> {
    fn new(objects: &'a [Object], options: &CompileOptions) -> Self {
        let mut input = Input { ingresses: Vec::new(), served: Vec::new(), classes: Vec::new(), services: Vec::new() };
        for object in objects {
            match object {
                Object::Ingress(i) => input.ingresses.push(i),
                Object::IngressClass(c) => input.classes.push(c),
                Object::Service(s) => input.services.push(s),
            }
        }
        let served = options.ingress_class.as_deref();
        input.served = input
            .ingresses
            .iter()
            .copied()
            .filter(|i| class::participation(i, served, &input.classes).takes_part())
            .collect();
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
fn compare(a: &Diagnostic, b: &Diagnostic) -> Ordering {
    let key = |d: &Diagnostic| {
        d.objects.first().map(|o| {
            (o.kind, o.namespace.clone().unwrap_or_default(), o.name.clone(), o.field.clone().unwrap_or_default())
        })
    };
    match (key(a), key(b)) {
        (Some((ka, na, ma, fa)), Some((kb, nb, mb, fb))) => {
            ka.cmp(kb).then(na.cmp(&nb)).then(ma.cmp(&mb)).then_with(|| natural(&fa, &fb))
        }
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
    .then(a.code.as_str().cmp(b.code.as_str()))
}

/// Compares strings with runs of digits compared by value: `paths[2]` before `paths[10]`.
fn natural(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
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
