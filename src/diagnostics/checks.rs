//! The lint checks: findings about the input that the compiler itself does not make (Services
//! and ports behind backends, IngressClasses, TLS, controller annotations, regex-looking paths).
//!
//! Each concept is one small function; they share the iteration helpers at the end of the file.

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
// Services behind backends

/// One backend of an Ingress: `spec.defaultBackend` or a rule path's.
struct BackendSite<'a> {
    ingress: &'a Ingress,
    /// `spec.defaultBackend` or `spec.rules[i].http.paths[j].backend`.
    field: String,
    service: Option<&'a IngressServiceBackend>,
}

impl BackendSite<'_> {
    /// `Ingress ns/name: <field>.service.<suffix>`, the head of every backend message.
    fn at(&self, suffix: &str) -> String {
        format!("{}: {}.service.{suffix}", ingress_label(self.ingress), self.field)
    }

    fn object(&self, suffix: &str) -> ObjectRef {
        ingress_ref(self.ingress).with_field(format!("{}.service.{suffix}", self.field))
    }

    fn port_name(&self) -> Option<&str> {
        self.service.and_then(|s| s.port.as_ref()).and_then(|p| p.name.as_deref()).filter(|n| !n.is_empty())
    }

    fn port_number(&self) -> Option<i64> {
        self.service.and_then(|s| s.port.as_ref()).and_then(|p| p.number).filter(|&n| n != 0)
    }
}

type ServiceCheck = fn(&BackendSite<'_>, Option<&Service>, &mut ServiceIndex<'_>) -> Option<Diagnostic>;

/// The checks run on every Service backend, with the Service it names (when the input has it).
const SERVICE_CHECKS: [ServiceCheck; 5] =
    [check_missing_service, check_external_name, check_service_without_ports, check_port_name, check_port_number];

/// The backend names a Service that is not in the input (in the Ingress's namespace).
fn check_missing_service(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    services: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let backend = site.service?;
    if target.is_some() || super::idioms::is_alb_action_backend(site.ingress, backend) {
        return None; // an ALB action is no Service: alb-action-annotation names it
    }
    let namespace = namespace(site.ingress);
    let mut message = format!(
        "{}: Service {namespace}/{} is not in the input, so requests routed here fail (ingress-nginx answers 503)",
        site.at("name"),
        backend.name
    );
    let same_namespace = services.names_by_namespace.get(namespace).map_or(&[][..], Vec::as_slice);
    let suggestion = if services.suggestions_left > 0 && same_namespace.len() <= MAX_SUGGESTIONS {
        services.suggestions_left -= 1;
        crate::spelling::closest(&backend.name, same_namespace.iter().copied())
    } else {
        None
    };
    if let Some(s) = suggestion {
        message.push_str(&format!("; did you mean Service {namespace}/{s}?"));
    }
    let elsewhere: Vec<&str> = services
        .namespaces_by_name
        .get(backend.name.as_str())
        .into_iter()
        .flatten()
        .copied()
        .filter(|&ns| ns != namespace)
        .take(10)
        .collect();
    if !elsewhere.is_empty() {
        message.push_str(&format!(
            "; a Service of that name exists in namespace {}, but an Ingress only reaches Services in its own namespace",
            elsewhere.join(", ")
        ));
    }
    let fix = match suggestion {
        Some(s) => format!("set {}.service.name to {s:?}, or create Service {namespace}/{}", site.field, backend.name),
        None => format!("create Service {namespace}/{}, or correct {}.service.name", backend.name, site.field),
    };
    Some(diagnostic(code::MISSING_SERVICE, Severity::Warning, message, vec![site.object("name")], fix))
}

/// The backend is an ExternalName Service: some controllers proxy to the external name, others refuse it.
fn check_external_name(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    _: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let service = target.filter(|s| is_external_name(s))?;
    let external = service.spec.external_name.as_deref().unwrap_or("");
    Some(diagnostic(
        code::EXTERNAL_NAME_BACKEND,
        Severity::Warning,
        format!(
            "{}: Service {} is of type ExternalName ({external:?}); ingress-nginx proxies to that name, \
             but other controllers refuse ExternalName backends or need them enabled (Contour turns them off by default)",
            site.at("name"),
            service_label(service),
        ),
        vec![site.object("name"), service_ref(service).with_field("spec.externalName")],
        String::from("make sure the controller supports ExternalName backends, or route to a ClusterIP Service"),
    ))
}

/// The backend's Service defines no ports: there is nowhere to send traffic.
fn check_service_without_ports(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    _: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let service = target.filter(|s| !is_external_name(s) && s.spec.ports.is_empty())?;
    Some(diagnostic(
        code::SERVICE_WITHOUT_PORTS,
        Severity::Warning,
        format!(
            "{}: Service {} defines no ports (spec.ports is empty), so the backend has no port to send requests to",
            site.at("name"),
            service_label(service),
        ),
        vec![site.object("name"), service_ref(service).with_field("spec.ports")],
        format!("add the port the backend uses to spec.ports of Service {}", service_label(service)),
    ))
}

/// The backend names a port (`port.name`) that the Service does not define in `spec.ports[].name`.
fn check_port_name(site: &BackendSite<'_>, target: Option<&Service>, _: &mut ServiceIndex<'_>) -> Option<Diagnostic> {
    let service = target.filter(|s| !is_external_name(s) && !s.spec.ports.is_empty())?;
    let wanted = site.port_name()?;
    let ports = &service.spec.ports;
    if ports.iter().any(|p| p.name.as_deref() == Some(wanted)) {
        return None;
    }
    let mut message = format!(
        "{}: Service {} has no port named {wanted:?} (its ports: {})",
        site.at("port.name"),
        service_label(service),
        list_ports(ports),
    );
    // A container port name is the classic mix-up: the Ingress names the Service's port.
    let by_target = ports.iter().find(|p| p.target_port.as_ref().and_then(|t| t.as_str()) == Some(wanted));
    let suggestion = by_target.or_else(|| {
        let close = crate::spelling::closest(wanted, ports.iter().filter_map(|p| p.name.as_deref()))?;
        ports.iter().find(|p| p.name.as_deref() == Some(close))
    });
    if let Some(p) = by_target {
        message.push_str(&format!(
            "; {wanted:?} is the targetPort (a container port) of its port {}: an Ingress names the Service's own port",
            port_label(p)
        ));
    }
    let fix = match suggestion {
        Some(p) => format!("set {}.service.port to {}", site.field, port_reference(p)),
        None => format!(
            "name one of the Service's ports in {}.service.port, or add a port named {wanted:?} to the Service",
            site.field
        ),
    };
    Some(diagnostic(
        code::MISSING_PORT_NAME,
        Severity::Warning,
        message,
        vec![site.object("port.name"), service_ref(service).with_field("spec.ports")],
        fix,
    ))
}

/// The backend names a port number (`port.number`) that the Service does not expose in `spec.ports[].port`.
fn check_port_number(site: &BackendSite<'_>, target: Option<&Service>, _: &mut ServiceIndex<'_>) -> Option<Diagnostic> {
    let service = target.filter(|s| !is_external_name(s) && !s.spec.ports.is_empty())?;
    let wanted = site.port_number()?;
    let ports = &service.spec.ports;
    if ports.iter().any(|p| p.port == wanted) {
        return None;
    }
    let mut message = format!(
        "{}: Service {} does not expose port {wanted} (its ports: {})",
        site.at("port.number"),
        service_label(service),
        list_ports(ports),
    );
    let by_target = ports.iter().find(|p| p.target_port.as_ref().and_then(|t| t.as_i64()) == Some(wanted));
    if let Some(p) = by_target {
        message.push_str(&format!(
            "; {wanted} is the targetPort (the container port) of its port {}: an Ingress names the Service's own port",
            port_label(p)
        ));
    }
    let fix = match (by_target, ports.len()) {
        (Some(p), _) => format!("set {}.service.port.number to {}", site.field, p.port),
        (None, 1) => format!("set {}.service.port.number to {}", site.field, ports[0].port),
        (None, _) => format!(
            "use one of the Service's ports in {}.service.port, or expose port {wanted} on the Service",
            site.field
        ),
    };
    Some(diagnostic(
        code::MISSING_PORT_NUMBER,
        Severity::Warning,
        message,
        vec![site.object("port.number"), service_ref(service).with_field("spec.ports")],
        fix,
    ))
}

fn is_external_name(service: &Service) -> bool {
    service.spec.service_type() == "ExternalName"
}

/// `80 (http), 443`: a Service's ports as the messages list them.
fn list_ports(ports: &[ServicePort]) -> String {
    ports.iter().map(port_label).collect::<Vec<_>>().join(", ")
}

fn port_label(port: &ServicePort) -> String {
    match port.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("{} ({name})", port.port),
        None => port.port.to_string(),
    }
}

/// How a backend should name this port: by name when it has one, else by number.
fn port_reference(port: &ServicePort) -> String {
    match port.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("name: {name:?} (port {})", port.port),
        None => format!("number: {}", port.port),
    }
}

// ---------------------------------------------------------------------------------------------
// IngressClass

/// More than one IngressClass is marked as the cluster default.
fn check_default_classes(classes: &[&IngressClass], out: &mut Vec<Diagnostic>) {
    let mut defaults: Vec<&IngressClass> = classes.iter().copied().filter(|c| c.is_default()).collect();
    if defaults.len() < 2 {
        return;
    }
    defaults.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let names: Vec<&str> = defaults.iter().map(|c| c.metadata.name.as_str()).collect();
    let field = format!("metadata.annotations[{DEFAULT_CLASS_ANNOTATION}]");
    out.push(diagnostic(
        code::MULTIPLE_DEFAULT_CLASSES,
        Severity::Warning,
        format!(
            "{} IngressClasses are marked default ({DEFAULT_CLASS_ANNOTATION}: \"true\"): {}; the apiserver's \
             DefaultIngressClass admission then refuses new Ingresses that name no class",
            defaults.len(),
            names.join(", "),
        ),
        defaults.iter().map(|c| class_ref(c).with_field(field.clone())).collect(),
        format!("keep {DEFAULT_CLASS_ANNOTATION}: \"true\" on one IngressClass only"),
    ));
}

/// `spec.ingressClassName` names a class that no IngressClass in the input defines (only checked
/// when the input has IngressClasses). The served class itself is left to the compiler, which
/// reports it as not served.
fn check_unknown_class(ingress: &Ingress, classes: &[&IngressClass], served: Option<&str>, out: &mut Vec<Diagnostic>) {
    let Some(name) = ingress.spec.ingress_class_name.as_deref() else { return };
    if classes.is_empty() || served == Some(name) || classes.iter().any(|c| c.metadata.name == name) {
        return;
    }
    let mut known: Vec<&str> = classes.iter().map(|c| c.metadata.name.as_str()).collect();
    known.sort_unstable();
    known.dedup();
    let suggestion = crate::spelling::closest(name, known.iter().copied());
    let mut message = format!(
        "{}: spec.ingressClassName: no IngressClass named {name:?} in the input (IngressClasses: {}); \
         controllers ignore this Ingress and it gets no address",
        ingress_label(ingress),
        known.join(", "),
    );
    if let Some(s) = suggestion {
        message.push_str(&format!("; did you mean {s:?}?"));
    }
    let fix = match suggestion {
        Some(s) => format!("set spec.ingressClassName to {s:?}"),
        None => format!("set spec.ingressClassName to one of {}, or create IngressClass {name:?}", known.join(", ")),
    };
    out.push(diagnostic(
        code::UNKNOWN_INGRESS_CLASS,
        Severity::Warning,
        message,
        vec![ingress_ref(ingress).with_field("spec.ingressClassName")],
        fix,
    ));
}

/// The deprecated `kubernetes.io/ingress.class` annotation. When it disagrees with
/// `spec.ingressClassName` validation already rejects the Ingress, so that case is left out.
fn check_legacy_class_annotation(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    let Some(value) = ingress.metadata.annotations.get(LEGACY_CLASS_ANNOTATION) else { return };
    // GKE's own documentation keeps the annotation for its classes ("GKE continues to use this
    // annotation"): no advice that contradicts the file's controller.
    if matches!(value.as_str(), "gce" | "gce-internal") {
        return;
    }
    let field_name = ingress.spec.ingress_class_name.as_deref();
    if field_name.is_some_and(|f| f != value) {
        return;
    }
    let (message, fix) = if field_name.is_some() {
        (
            format!(
                "{}: the deprecated annotation {LEGACY_CLASS_ANNOTATION}: {value:?} repeats spec.ingressClassName",
                ingress_label(ingress)
            ),
            format!("remove the annotation {LEGACY_CLASS_ANNOTATION}"),
        )
    } else if let Some(why) = crate::validation::ingress_class_name_errors(value).first() {
        // The value cannot move to spec.ingressClassName: the apiserver would reject it there.
        (
            format!(
                "{}: the annotation {LEGACY_CLASS_ANNOTATION}: {value:?} is deprecated since Kubernetes 1.18, and its \
                 value cannot become spec.ingressClassName ({why})",
                ingress_label(ingress)
            ),
            format!(
                "create an IngressClass whose name is a lowercase DNS subdomain (such as {:?}) for the controller \
                 that serves {value:?}, set spec.ingressClassName to it and remove the annotation {LEGACY_CLASS_ANNOTATION}",
                class_name_like(value)
            ),
        )
    } else {
        (
            format!(
                "{}: the annotation {LEGACY_CLASS_ANNOTATION}: {value:?} is deprecated since Kubernetes 1.18; \
                 controllers still honour it, but new ones may not",
                ingress_label(ingress)
            ),
            format!("set spec.ingressClassName: {value} and remove the annotation {LEGACY_CLASS_ANNOTATION}"),
        )
    };
    out.push(diagnostic(
        code::DEPRECATED_CLASS_ANNOTATION,
        Severity::Note,
        message,
        vec![ingress_ref(ingress).with_field(format!("metadata.annotations[{LEGACY_CLASS_ANNOTATION}]"))],
        fix,
    ));
}

// ---------------------------------------------------------------------------------------------
// TLS

/// A `spec.tls[].hosts[]` entry that no rule host of the same Ingress matches: controllers pick a
/// certificate per rule host, so this one is never served. Host-less rules do not count: they
/// answer on the controller's catch-all server, with its default certificate.
fn check_tls_hosts_served(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    let rule_hosts: Vec<&str> = rule_hosts(ingress).map(|(_, h)| h).collect();
    let rule_index = HostIndex::new(&rule_hosts);
    let hostless = rules(ingress).any(|(_, r)| r.host.as_deref().unwrap_or("").is_empty());
    for (t, h, tls_host) in tls_hosts(ingress) {
        if rule_index.overlaps(tls_host) {
            continue;
        }
        let mut message = format!(
            "{}: spec.tls[{t}].hosts[{h}]: {tls_host:?} matches no rule host of this Ingress (rule hosts: {}), \
             so its certificate is never served for it",
            ingress_label(ingress),
            if rule_hosts.is_empty() { String::from("none") } else { host_list(&rule_hosts) },
        );
        if hostless {
            message.push_str(
                "; the host-less rules answer on the controller's catch-all server, with its default certificate",
            );
        }
        out.push(diagnostic(
            code::TLS_HOST_WITHOUT_RULE,
            Severity::Warning,
            message,
            vec![ingress_ref(ingress).with_field(format!("spec.tls[{t}].hosts[{h}]"))],
            format!("add a rule with host {tls_host:?}, or remove it from spec.tls[{t}].hosts"),
        ));
    }
}

/// A rule host that no TLS entry covers while the same Ingress terminates TLS for other hosts.
/// A TLS entry without hosts covers every host (the API's default), so it silences this check.
fn check_hosts_without_tls(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    let tls = &ingress.spec.tls;
    if tls.is_empty() || tls.iter().any(|t| t.hosts.is_empty()) {
        return;
    }
    let covered: Vec<&str> = tls_hosts(ingress).map(|(_, _, h)| h).collect();
    let covered_index = HostIndex::new(&covered);
    let mut seen: hashbrown::HashSet<&str> = hashbrown::HashSet::new();
    for (i, host) in rule_hosts(ingress) {
        if seen.contains(host) || covered_index.overlaps(host) {
            continue;
        }
        seen.insert(host);
        out.push(diagnostic(
            code::HOST_WITHOUT_TLS,
            Severity::Warning,
            format!(
                "{}: spec.rules[{i}].host: {host:?} has no TLS entry while this Ingress terminates TLS for {}; \
                 HTTPS requests for it get the controller's default certificate, and plain HTTP is not redirected",
                ingress_label(ingress),
                host_list(&covered),
            ),
            vec![ingress_ref(ingress).with_field(format!("spec.rules[{i}].host"))],
            format!(
                "add {host:?} to spec.tls[].hosts with a certificate for it, or move the rule to an Ingress without TLS"
            ),
        ));
    }
}

/// A TLS entry without `secretName`: the controller serves its default certificate.
fn check_tls_secrets(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    for (t, tls) in ingress.spec.tls.iter().enumerate() {
        if tls.secret_name.as_deref().is_some_and(|s| !s.is_empty()) {
            continue;
        }
        let hosts = if tls.hosts.is_empty() { String::from("every host") } else { tls.hosts.join(", ") };
        out.push(diagnostic(
            code::TLS_WITHOUT_SECRET,
            Severity::Note,
            format!(
                "{}: spec.tls[{t}] has no secretName: HTTPS for {hosts} is answered with the controller's default \
                 certificate (ingress-nginx: --default-ssl-certificate, else a self-signed one)",
                ingress_label(ingress),
            ),
            vec![ingress_ref(ingress).with_field(format!("spec.tls[{t}].secretName"))],
            format!(
                "set spec.tls[{t}].secretName to a kubernetes.io/tls Secret in namespace {}, unless the default certificate is meant",
                namespace(ingress)
            ),
        ));
    }
}

/// Does a TLS host cover a rule host (or the other way round)? Equal, or one is a wildcard whose
/// `*` covers the first label of the other: `*.foo.com` and `a.foo.com` overlap.
/// At most this many hosts are listed in a message (a message stays a line, whatever the input).
const MAX_LISTED_HOSTS: usize = 10;

/// `a, b, c` or `a, b, c and 12 more`.
fn host_list(hosts: &[&str]) -> String {
    let mut text = hosts.iter().take(MAX_LISTED_HOSTS).copied().collect::<Vec<_>>().join(", ");
    if hosts.len() > MAX_LISTED_HOSTS {
        text.push_str(&format!(" and {} more", hosts.len() - MAX_LISTED_HOSTS));
    }
    text
}

/// A set of hosts answering `hosts_overlap` against all of them with a few hash lookups.
struct HostIndex {
    /// Every host, lowercased.
    hosts: hashbrown::HashSet<String>,
    /// `foo.com` for each `*.foo.com`.
    wildcard_suffixes: hashbrown::HashSet<String>,
    /// What each non-wildcard host would be covered by: `foo.com` for `bar.foo.com`.
    covered_suffixes: hashbrown::HashSet<String>,
}

impl HostIndex {
    fn new(hosts: &[&str]) -> Self {
        let mut index = HostIndex {
            hosts: hashbrown::HashSet::new(),
            wildcard_suffixes: hashbrown::HashSet::new(),
            covered_suffixes: hashbrown::HashSet::new(),
        };
        for h in hosts {
            index.hosts.insert(h.to_ascii_lowercase());
            match h.strip_prefix("*.") {
                Some(suffix) => {
                    index.wildcard_suffixes.insert(suffix.to_string());
                }
                None => {
                    if let Some(s) = wildcard_suffix(h.as_bytes()) {
                        index.covered_suffixes.insert(String::from_utf8_lossy(s).into_owned());
                    }
                }
            }
        }
        index
    }

    /// `hosts_overlap(host, h)` for some `h` of the set.
    fn overlaps(&self, host: &str) -> bool {
        if self.hosts.contains(&host.to_ascii_lowercase()) {
            return true;
        }
        match host.strip_prefix("*.") {
            Some(suffix) => self.covered_suffixes.contains(suffix),
            None => wildcard_suffix(host.as_bytes())
                .is_some_and(|s| core::str::from_utf8(s).is_ok_and(|s| self.wildcard_suffixes.contains(s))),
        }
    }
}

#[cfg(test)]
fn hosts_overlap(a: &str, b: &str) -> bool {
    let covers = |wild: &str, host: &str| {
        wild.strip_prefix("*.").is_some_and(|suffix| {
            !host.starts_with("*.") && wildcard_suffix(host.as_bytes()) == Some(suffix.as_bytes())
        })
    };
    a.eq_ignore_ascii_case(b) || covers(a, b) || covers(b, a)
}

/// A valid IngressClass name close to `value`: lowercase, runs of other characters as `-`.
fn class_name_like(value: &str) -> String {
    let mut name = String::new();
    for c in value.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() || c == '.' {
            name.push(c);
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let name: String = name.chars().take(253).collect();
    if name.is_empty() { String::from("default") } else { name }
}

// ---------------------------------------------------------------------------------------------
// Annotations

/// Annotations under the ingress-nginx prefix: unknown keys (with the closest known key), keys
/// only recent releases know and keys the controller no longer reads; misspelt keys under another
/// controller's or tool's prefix; keys whose prefix is a misspelling of the ingress-nginx prefix.
fn check_annotations(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    for key in ingress.metadata.annotations.keys() {
        if let Some(name) = key.strip_prefix(NGINX_PREFIX) {
            match annotations::nginx_annotation(name) {
                Some(known) if known.removed.is_some() => out.push(removed_annotation(ingress, key, known)),
                Some(known) if known.is_recent() => out.push(newer_release_annotation(ingress, key, known)),
                Some(_) => {}
                None => out.push(unknown_annotation(ingress, key, name)),
            }
        } else if let Some((prefix, name)) = controllers::prefix_of(key) {
            if let Some(d) = other_controller_typo(ingress, key, prefix, name) {
                out.push(d);
            }
        } else if let Some(rest) = annotations::misspelled_nginx_prefix(key) {
            out.push(misspelled_prefix(ingress, key, rest));
        }
    }
}

fn annotation_ref(ingress: &Ingress, key: &str) -> ObjectRef {
    ingress_ref(ingress).with_field(format!("metadata.annotations[{key}]"))
}

fn unknown_annotation(ingress: &Ingress, key: &str, name: &str) -> Diagnostic {
    let suggestion = annotations::closest_nginx_annotation(name);
    let mut message = format!(
        "{}: metadata.annotations[{key}]: ingress-nginx has no annotation {name:?} and ignores it",
        ingress_label(ingress)
    );
    let fix = match suggestion {
        Some(s) => {
            message.push_str(&format!("; did you mean {NGINX_PREFIX}{}?", s.name));
            if s.is_recent() {
                message.push_str(&format!(" (read since controller {})", s.since_text()));
            }
            format!("rename the annotation to {NGINX_PREFIX}{}", s.name)
        }
        None => String::from("remove the annotation, or use a key from the ingress-nginx annotation reference"),
    };
    diagnostic(code::UNKNOWN_ANNOTATION, Severity::Warning, message, vec![annotation_ref(ingress, key)], fix)
}

fn newer_release_annotation(ingress: &Ingress, key: &str, known: &annotations::NginxAnnotation) -> Diagnostic {
    diagnostic(
        code::NEWER_RELEASE_ANNOTATION,
        Severity::Note,
        format!(
            "{}: metadata.annotations[{key}] is read by ingress-nginx since controller {}; older releases ignore it",
            ingress_label(ingress),
            known.since_text()
        ),
        vec![annotation_ref(ingress, key)],
        format!("check that the cluster runs ingress-nginx controller {} or newer", known.since_text()),
    )
}

fn removed_annotation(ingress: &Ingress, key: &str, known: &annotations::NginxAnnotation) -> Diagnostic {
    let removed = known.removed.unwrap_or("");
    diagnostic(
        code::REMOVED_ANNOTATION,
        Severity::Warning,
        format!(
            "{}: metadata.annotations[{key}]: ingress-nginx controller v{removed} and later no longer read it \
             (it was read from {} on); they ignore it",
            ingress_label(ingress),
            known.since_text()
        ),
        vec![annotation_ref(ingress, key)],
        format!("remove the annotation, or keep it only for controllers older than v{removed}"),
    )
}

/// A key under another controller's (or tool's) prefix that is one typo away from one of its keys.
fn other_controller_typo(
    ingress: &Ingress,
    key: &str,
    prefix: &controllers::AnnotationPrefix,
    name: &str,
) -> Option<Diagnostic> {
    if prefix.knows(name) {
        return None;
    }
    let suggestion = prefix.closest(name)?;
    Some(diagnostic(
        code::UNKNOWN_ANNOTATION,
        Severity::Warning,
        format!(
            "{}: metadata.annotations[{key}]: {} documents no annotation {name:?}; did you mean {}{suggestion}?",
            ingress_label(ingress),
            prefix.owner,
            prefix.prefix
        ),
        vec![annotation_ref(ingress, key)],
        format!("rename the annotation to {}{suggestion}", prefix.prefix),
    ))
}

fn misspelled_prefix(ingress: &Ingress, key: &str, rest: &str) -> Diagnostic {
    let name = match annotations::nginx_annotation(rest) {
        Some(_) => rest,
        None => annotations::closest_nginx_annotation(rest).map_or(rest, |a| a.name),
    };
    let corrected = format!("{NGINX_PREFIX}{name}");
    diagnostic(
        code::MISSPELLED_ANNOTATION_PREFIX,
        Severity::Warning,
        format!(
            "{}: metadata.annotations[{key}]: the prefix is not {NGINX_PREFIX}, so ingress-nginx silently ignores it; \
             did you mean {corrected}?",
            ingress_label(ingress)
        ),
        vec![annotation_ref(ingress, key)],
        format!("rename the annotation to {corrected}"),
    )
}

// ---------------------------------------------------------------------------------------------
// Paths

/// Characters that make a path look like a regular expression (or a glob).
const REGEX_CHARS: &[char] = &['(', ')', '[', ']', '*', '+', '?', '^', '$', '|', '{', '}', '\\'];

/// `path.contains(REGEX_CHARS)`, a byte at a time (a `&[char]` pattern costs a search per char).
fn looks_like_regex(path: &str) -> bool {
    path.bytes()
        .any(|b| matches!(b, b'(' | b')' | b'[' | b']' | b'*' | b'+' | b'?' | b'^' | b'$' | b'|' | b'{' | b'}' | b'\\'))
}

/// A regex-looking path under `Exact` or `Prefix`, where the specification matches it literally.
fn check_regex_paths(ingress: &Ingress, regex_hosts: &[&str], out: &mut Vec<Diagnostic>) {
    for (field, host, path) in paths(ingress) {
        let Some(path_type @ (PathType::Exact | PathType::Prefix)) =
            path.path_type.as_deref().and_then(PathType::parse)
        else {
            continue;
        };
        let Some(text) = path.path.as_deref().filter(|p| looks_like_regex(p)) else { continue };
        if super::idioms::is_glob_path(text) {
            continue; // GKE's and ALB's `/*`: glob-path names it
        }
        let mut message = format!(
            "{}: {field}.path: {text:?} looks like a regular expression, but pathType {path_type} matches it \
             literally (requests must contain those characters); ingress-nginx's admission webhook rejects it \
             when strict path validation is on (\"path {text} cannot be used with pathType {path_type}\")",
            ingress_label(ingress),
        );
        if regex_hosts.contains(&host) {
            message.push_str(&format!(
                "; ingress-nginx reads it as a regex here only because use-regex or rewrite-target is set for host {}",
                display_host(host)
            ));
        }
        out.push(diagnostic(
            code::REGEX_PATH_LITERAL,
            Severity::Warning,
            message,
            vec![ingress_ref(ingress).with_field(format!("{field}.path"))],
            format!(
                "use pathType: ImplementationSpecific with {NGINX_PREFIX}use-regex: \"true\" (ingress-nginx), \
                 or a plain {path_type} path such as {:?}",
                literal_prefix(text)
            ),
        ));
    }
}

/// The hosts (`""` for host-less rules) on which ingress-nginx turns every path into a regex:
/// some Ingress with a rule for the host sets `use-regex: "true"` or a `rewrite-target`.
fn regex_hosts<'a>(ingresses: &[&'a Ingress]) -> Vec<&'a str> {
    let mut hosts = Vec::new();
    for ingress in ingresses {
        let a = &ingress.metadata.annotations;
        let use_regex = a.get(&format!("{NGINX_PREFIX}use-regex")).is_some_and(|v| v == "true");
        if use_regex || a.contains_key(&format!("{NGINX_PREFIX}rewrite-target")) {
            hosts.extend(rules(ingress).map(|(_, r)| r.host.as_deref().unwrap_or("")));
        }
    }
    hosts
}

/// The literal part of a regex-looking path, a plain prefix to offer instead: up to the first regex
/// character (without the character a quantifier applies to), without a trailing `/`.
/// `/api/(.*)` gives `/api`, `/foo/.*` gives `/foo`, `/*` gives `/`.
fn literal_prefix(path: &str) -> &str {
    let Some(at) = path.find(REGEX_CHARS) else { return path };
    let mut head = &path[..at];
    if path[at..].starts_with(['?', '*', '+', '{']) {
        head = head.char_indices().last().map_or(head, |(i, _)| &head[..i]);
    }
    let head = head.trim_end_matches('/');
    if head.is_empty() { "/" } else { head }
}

fn display_host(host: &str) -> &str {
    if host.is_empty() { "(any host)" } else { host }
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
        assert!(hosts_overlap("*.foo.com", "a.foo.com"));
        assert!(hosts_overlap("a.foo.com", "*.foo.com"));
        assert!(!hosts_overlap("*.foo.com", "foo.com"));
        assert!(!hosts_overlap("*.foo.com", "a.b.foo.com"));
        assert!(hosts_overlap("Foo.com", "foo.com"));
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
