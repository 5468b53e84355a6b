//! From Ingress objects to nginx servers and locations, step by step as the controller does
//! (`internal/ingress/controller/controller.go`: `createUpstreams`, `createServers`,
//! `getBackendServers`, `mergeAlternativeBackends`; `location.go`: `updateServerLocations`;
//! `template.go`: `buildLocation`, `enforceRegexModifier`).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use hashbrown::HashMap;

use super::annotations::{self, Annotations};
use super::canary::Canary;
use super::location::{Location, Locations, Modifier, Origin, Settings};
use super::regex::Compiler;
use super::server::{CATCH_ALL, Names, Server};
use super::{Conf, IngressRef, Issue, Options};
use crate::class::{self, Admission};
use crate::diagnostics::Code;
use crate::model::{Ingress, IngressBackend, Object};
use crate::options::RegexLimits;
use crate::path::PathType;
use crate::validation;

/// An upstream: one Service port of one namespace (`upstreamName`: `namespace-name-port`).
struct Upstream {
    backend: IngressBackend,
    /// Created first by a canary Ingress: no location may use it (`NoServer`).
    no_server: bool,
    /// Canaries merged into it, in merge order; the balancer only uses the first.
    alternatives: Vec<usize>,
    /// Deleted by `mergeAlternativeBackends` (a canary path that matched no location).
    deleted: bool,
}

/// A canary path's place: host, path as written, pathType.
type Place = (String, String, PathType);

struct Build<'a> {
    ingresses: Vec<(&'a Ingress, Annotations)>,
    upstreams: HashMap<String, Upstream>,
    servers: HashMap<String, Vec<Location>>,
    aliases: HashMap<String, Vec<String>>,
    tls: HashMap<String, bool>,
    canaries: Vec<Canary>,
    issues: Vec<Issue>,
    default_backend: Option<IngressBackend>,
    /// `namespace/name` of every Service in the input, with its first port; `None` without Services.
    services: Option<HashMap<String, Option<i64>>>,
    /// Hosts with a location from an Ingress with `from-to-www-redirect`.
    www: Vec<String>,
    regex_limits: RegexLimits,
    regexes: Compiler,
}

pub fn build(objects: &[Object], options: &Options) -> (Conf, Vec<Issue>) {
    let mut issues = Vec::new();
    let mut taking_part: Vec<&Ingress> = Vec::new();
    for (ingress, admission) in class::admit(objects, options.ingress_class.as_deref()) {
        match admission {
            Admission::Admitted(_) => taking_part.push(ingress),
            Admission::NotServed(reason) => issues.push(Issue::for_ingress(
                Code::NotServed,
                ingress,
                String::new(),
                format!("not served: it {reason}"),
            )),
            Admission::Invalid(errors) => {
                let message = validation::invalid_message("Ingress.networking.k8s.io", &ingress.metadata.name, &errors);
                let field = errors.first().map(|e| e.field.clone()).unwrap_or_default();
                issues.push(Issue::for_ingress(Code::InvalidIngress, ingress, field, message));
            }
        }
    }
    // `sortIngressSlice`: creationTimestamp (none is Go's zero time: oldest), then, on a tie,
    // `namespace/name` in *descending* order (`return in > jn`).
    taking_part.sort_by(|a, b| {
        let (ta, tb) = (a.metadata.creation_timestamp.as_deref(), b.metadata.creation_timestamp.as_deref());
        ta.unwrap_or("").cmp(tb.unwrap_or("")).then_with(|| key(b).cmp(&key(a)))
    });
    let ingresses = taking_part.into_iter().map(|i| (i, annotations::parse(i, &mut issues))).collect();
    let mut build = Build {
        ingresses,
        upstreams: HashMap::new(),
        servers: HashMap::new(),
        aliases: HashMap::new(),
        tls: HashMap::new(),
        canaries: Vec::new(),
        issues,
        default_backend: options.default_backend.clone(),
        services: services(objects),
        www: Vec::new(),
        regex_limits: options.regex_limits,
        regexes: Compiler::new(&options.regex_limits),
    };
    build.create_upstreams();
    build.create_servers();
    build.add_locations();
    build.merge_canaries();
    build.finish()
}

fn services(objects: &[Object]) -> Option<HashMap<String, Option<i64>>> {
    let services: HashMap<String, Option<i64>> = objects
        .iter()
        .filter_map(|o| if let Object::Service(s) = o { Some(s) } else { None })
        .map(|s| {
            (format!("{}/{}", s.metadata.namespace_or_default(), s.metadata.name), s.spec.ports.first().map(|p| p.port))
        })
        .collect();
    (!services.is_empty()).then_some(services)
}

fn key(i: &Ingress) -> String {
    format!("{}/{}", i.metadata.namespace_or_default(), i.metadata.name)
}

/// `upstreamName`: `namespace-service-port` (the port number, else its name); `None` for a
/// resource backend, which ingress-nginx skips.
fn upstream_name(namespace: &str, backend: &IngressBackend) -> Option<String> {
    let service = backend.service.as_ref()?;
    let port = service.port.as_ref();
    Some(match (port.and_then(|p| p.number).filter(|n| *n > 0), port.and_then(|p| p.name.as_deref())) {
        (Some(n), _) => format!("{namespace}-{}-{n}", service.name),
        (None, Some(name)) if !name.is_empty() => format!("{namespace}-{}-{name}", service.name),
        _ => format!("{namespace}-INVALID"),
    })
}

fn settings(a: &Annotations) -> Settings {
    Settings {
        rewrite_target: a.rewrite_target.clone(),
        use_regex: a.use_regex,
        redirect: a.redirect.clone(),
        ssl_redirect: a.ssl_redirect,
        force_ssl_redirect: a.force_ssl_redirect,
        preserve_trailing_slash: a.preserve_trailing_slash,
        app_root: a.app_root.clone(),
        default_backend: a.default_backend.clone(),
    }
}

fn root_location(
    backend: Option<IngressBackend>,
    upstream: Option<String>,
    ingress: Option<usize>,
    settings: Settings,
) -> Location {
    Location {
        path: String::from("/"),
        modifier: Modifier::Prefix,
        regex: None,
        origin: Origin::ServerDefault { ingress },
        backend,
        upstream,
        settings,
        canary: None,
        fallback_for: None,
    }
}

/// `SetDefaultNGINXPathType`: an absent or `ImplementationSpecific` pathType is `Prefix`.
/// The docs describe ImplementationSpecific as a plain string prefix in ingress-nginx, but the
/// controller's code has rewritten it to `Prefix` since 2020: the engine follows the code.
fn nginx_path_type(raw: Option<&str>) -> PathType {
    match raw.and_then(PathType::parse) {
        Some(PathType::Exact) => PathType::Exact,
        _ => PathType::Prefix,
    }
}

impl Build<'_> {
    fn is_canary(&self, i: usize) -> bool {
        self.ingresses[i].1.canary.is_some()
    }

    fn namespace(&self, i: usize) -> &str {
        self.ingresses[i].0.metadata.namespace_or_default()
    }

    fn issue(&mut self, code: Code, i: usize, field: String, message: String) {
        let issue = Issue::for_ingress(code, self.ingresses[i].0, field, message);
        self.issues.push(issue);
    }

    /// `createUpstreams`: the first Ingress naming a Service port creates its upstream.
    fn create_upstreams(&mut self) {
        for i in 0..self.ingresses.len() {
            let ingress = self.ingresses[i].0;
            let canary = self.is_canary(i);
            let namespace = self.namespace(i).to_string();
            let defaults = ingress.spec.default_backend.iter();
            let paths = ingress.spec.rules.iter().flatten().filter_map(|r| r.http.as_ref()).flat_map(|h| &h.paths);
            for backend in defaults.chain(paths.map(|p| &p.backend)) {
                let Some(name) = upstream_name(&namespace, backend) else { continue };
                self.upstreams.entry(name).or_insert_with(|| Upstream {
                    backend: backend.clone(),
                    no_server: canary,
                    alternatives: Vec::new(),
                    deleted: false,
                });
            }
        }
    }

    /// `createServers`: one server per host (the first Ingress naming it sets its `location /`,
    /// aliases, TLS); the catch-all `_` always exists.
    fn create_servers(&mut self) {
        let default = self.default_backend.clone();
        self.servers.insert(CATCH_ALL.into(), vec![root_location(default.clone(), None, None, Settings::default())]);
        for i in 0..self.ingresses.len() {
            if self.is_canary(i) {
                continue;
            }
            let (ingress, ann) = (self.ingresses[i].0, &self.ingresses[i].1);
            let namespace = self.namespace(i).to_string();
            // The Ingress's `defaultBackend` is the default of every server it creates.
            let own_default = ingress.spec.default_backend.as_ref().filter(|b| b.service.is_some());
            let (backend, upstream) = match own_default {
                Some(b) => (Some(b.clone()), upstream_name(&namespace, b)),
                None => (default.clone(), None),
            };
            let rules = ingress.spec.rules.as_deref().unwrap_or_default();
            if own_default.is_some() && rules.is_empty() {
                let root = &mut self.servers.get_mut(CATCH_ALL).expect("catch-all exists")[0];
                if matches!(root.origin, Origin::ServerDefault { ingress: None }) {
                    // "TODO: Redirect and rewrite can affect the catch all behavior, skip for now":
                    // the catch-all keeps no redirect or rewrite settings.
                    *root = root_location(backend.clone(), upstream.clone(), Some(i), Settings::default());
                }
            }
            let s = settings(ann);
            for rule in rules {
                let host = rule.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(CATCH_ALL).to_string();
                self.servers
                    .entry(host)
                    .or_insert_with(|| vec![root_location(backend.clone(), upstream.clone(), Some(i), s.clone())]);
            }
        }
        // Aliases: the first Ingress of a host with any; TLS: any Ingress listing the host.
        for i in 0..self.ingresses.len() {
            if self.is_canary(i) {
                continue;
            }
            let (ingress, ann) = (self.ingresses[i].0, &self.ingresses[i].1);
            for rule in ingress.spec.rules.iter().flatten() {
                let host = rule.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(CATCH_ALL);
                let aliases = self.aliases.entry(host.into()).or_default();
                if aliases.is_empty() {
                    aliases.clone_from(&ann.aliases);
                }
                // Without Secrets, a `tls` entry listing the host (or listing none) counts as a certificate.
                let listed = ingress.spec.tls.iter().any(|t| t.hosts.is_empty() || t.hosts.iter().any(|h| h == host));
                *self.tls.entry(host.into()).or_default() |= listed;
            }
        }
    }

    /// `getBackendServers`: a location per path; the same path with the same type twice keeps the
    /// first (older) Ingress's; a path `/` replaces the server's default `location /`.
    fn add_locations(&mut self) {
        for i in 0..self.ingresses.len() {
            let ingress = self.ingresses[i].0;
            let namespace = self.namespace(i).to_string();
            for (r, rule) in ingress.spec.rules.iter().flatten().enumerate() {
                let host = rule.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(CATCH_ALL);
                let host = if self.servers.contains_key(host) { host } else { CATCH_ALL };
                let Some(http) = &rule.http else { continue };
                for (p, path) in http.paths.iter().enumerate() {
                    let field = format!("spec.rules[{r}].http.paths[{p}]");
                    let Some(upstream) = upstream_name(&namespace, &path.backend) else {
                        let msg = String::from(
                            "ingress-nginx skips paths with a resource backend: requests go to the default backend",
                        );
                        self.issue(Code::NginxSkippedPath, i, field, msg);
                        continue;
                    };
                    if self.upstreams[&upstream].no_server {
                        if !self.is_canary(i) {
                            let msg = format!(
                                "Service port {upstream} was first named by a canary Ingress: ingress-nginx creates no location for this path"
                            );
                            self.issue(Code::NginxSkippedPath, i, field, msg);
                        }
                        continue;
                    }
                    if self.ingresses[i].1.from_to_www && !self.www.iter().any(|h| h == host) {
                        self.www.push(host.to_string());
                    }
                    let nginx_path = path.path.as_deref().filter(|p| !p.is_empty()).unwrap_or("/").to_string();
                    let path_type = nginx_path_type(path.path_type.as_deref());
                    let settings = settings(&self.ingresses[i].1);
                    let origin = Origin::Path {
                        ingress: i,
                        rule: r,
                        path: p,
                        path_type,
                        declared: path.path_type.as_deref().and_then(PathType::parse).unwrap_or(path_type),
                        ingress_path: path.path.clone().unwrap_or_default(),
                    };
                    let locations = self.servers.get_mut(host).expect("server exists");
                    let same = locations.iter_mut().find(|l| l.path == nginx_path);
                    let same_type = same.filter(|l| location_path_type(l) == path_type);
                    match same_type {
                        Some(l) if matches!(l.origin, Origin::ServerDefault { .. }) => {
                            l.backend = Some(path.backend.clone());
                            l.upstream = Some(upstream);
                            l.origin = origin;
                            l.settings = settings;
                        }
                        Some(l) => {
                            let winner = match l.origin {
                                Origin::Path { ingress, .. } => key(self.ingresses[ingress].0),
                                Origin::ServerDefault { .. } => String::from("the server default"),
                            };
                            let msg = format!(
                                "{host} {nginx_path} ({}) is already a location of {winner}, which is older: this path is ignored",
                                path_type.as_str()
                            );
                            self.issue(Code::NginxSkippedPath, i, field, msg);
                        }
                        None => locations.push(Location {
                            path: nginx_path,
                            modifier: if path_type == PathType::Exact { Modifier::Exact } else { Modifier::Prefix },
                            regex: None,
                            origin,
                            backend: Some(path.backend.clone()),
                            upstream: Some(upstream),
                            settings,
                            canary: None,
                            fallback_for: None,
                        }),
                    }
                }
            }
        }
    }

    /// `mergeAlternativeBackends`: a canary's backend becomes an alternative of the upstream of
    /// every location with the same host, path and pathType (so of every other location using
    /// that upstream too). A canary path matching no location deletes the canary's upstream.
    fn merge_canaries(&mut self) {
        if (0..self.ingresses.len()).all(|i| self.is_canary(i)) {
            return;
        }
        for i in 0..self.ingresses.len() {
            let Some(rules) = self.ingresses[i].1.canary.clone() else { continue };
            let ingress = self.ingresses[i].0;
            let namespace = self.namespace(i).to_string();
            let ignored: Vec<&str> = [
                "rewrite-target",
                "use-regex",
                "app-root",
                "permanent-redirect",
                "temporal-redirect",
                "server-alias",
                "ssl-redirect",
                "force-ssl-redirect",
            ]
            .into_iter()
            .filter(|a| ingress.metadata.annotations.contains_key(&format!("{}{a}", annotations::PREFIX)))
            .collect();
            if !ignored.is_empty() {
                let msg = format!(
                    "a canary Ingress only adds a backend to existing locations: ingress-nginx ignores its {}",
                    ignored.join(", ")
                );
                self.issue(Code::NginxIgnoredAnnotation, i, String::from("metadata.annotations"), msg);
            }
            let mut wanted: Vec<(String, Option<Place>, String)> = Vec::new();
            if let Some(b) = &ingress.spec.default_backend
                && let Some(u) = upstream_name(&namespace, b)
            {
                wanted.push((u, None, String::from("spec.defaultBackend")));
            }
            for (r, rule) in ingress.spec.rules.iter().flatten().enumerate() {
                let host = rule.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(CATCH_ALL);
                for (p, path) in rule.http.iter().flat_map(|h| h.paths.iter().enumerate()) {
                    let Some(u) = upstream_name(&namespace, &path.backend) else { continue };
                    let target = (
                        host.into(),
                        path.path.clone().unwrap_or_default(),
                        nginx_path_type(path.path_type.as_deref()),
                    );
                    wanted.push((u, Some(target), format!("spec.rules[{r}].http.paths[{p}]")));
                }
            }
            for (alt, target, field) in wanted {
                if self.upstreams.get(&alt).is_none_or(|u| u.deleted) {
                    continue;
                }
                let host = target.as_ref().map_or(CATCH_ALL, |t| t.0.as_str()).to_string();
                let Some(locations) = self.servers.get(&host) else {
                    let msg = format!(
                        "canary for host {host}: no Ingress defines that host, so there is nothing to add a canary to"
                    );
                    self.issue(Code::NginxInertCanary, i, field, msg);
                    continue;
                };
                let mut merged_into = Vec::new();
                let mut alt_equals_primary = false;
                for loc in locations {
                    let Some(primary) = &loc.upstream else { continue };
                    if *primary == alt {
                        alt_equals_primary = true;
                        break;
                    }
                    let same_place =
                        target.as_ref().is_none_or(|(_, p, t)| loc.path == *p && location_path_type(loc) == *t);
                    if same_place && !self.upstreams[primary].no_server {
                        merged_into.push(primary.clone());
                    }
                }
                if merged_into.is_empty() {
                    if !alt_equals_primary {
                        self.upstreams.get_mut(&alt).expect("exists").deleted = true;
                        let msg = format!(
                            "canary backend {alt} matches no location with the same host, path and pathType: ingress-nginx deletes it, so this canary takes no traffic"
                        );
                        self.issue(Code::NginxInertCanary, i, field, msg);
                    }
                    continue;
                }
                let canary = match self
                    .canaries
                    .iter()
                    .position(|c| c.ingress == i && upstream_name(&namespace, &c.backend).as_deref() == Some(&alt))
                {
                    Some(c) => c,
                    None => {
                        self.canaries.push(Canary::new(i, self.upstreams[&alt].backend.clone(), &rules, &self.regexes));
                        self.canaries.len() - 1
                    }
                };
                for primary in merged_into {
                    let alternatives = &mut self.upstreams.get_mut(&primary).expect("exists").alternatives;
                    if !alternatives.contains(&canary) {
                        alternatives.push(canary);
                    }
                }
            }
        }
        for c in &mut self.canaries {
            let namespace = self.ingresses[c.ingress].0.metadata.namespace_or_default();
            c.deleted = upstream_name(namespace, &c.backend).is_some_and(|u| self.upstreams[&u].deleted);
        }
    }

    fn finish(mut self) -> (Conf, Vec<Issue>) {
        let mut servers: Vec<Server> = Vec::new();
        let mut hosts: Vec<String> = self.servers.keys().cloned().collect();
        hosts.sort();
        for host in hosts {
            let mut list = self.servers.remove(&host).expect("listed");
            // The sort of `getBackendServers`: by path descending, then (stable) by length descending.
            list.sort_by(|a, b| b.path.cmp(&a.path));
            list.sort_by_key(|l| core::cmp::Reverse(l.path.len()));
            let mut list = split_prefixes(list);
            let enforce_regex = list.iter().any(|l| l.needs_rewrite() || l.settings.use_regex);
            for l in &mut list {
                if enforce_regex {
                    l.modifier = Modifier::Regex;
                }
                l.canary = l
                    .upstream
                    .as_ref()
                    .and_then(|u| self.upstreams.get(u))
                    .and_then(|u| u.alternatives.first().copied());
            }
            self.fall_back(&mut list);
            let app_root = list.iter().enumerate().find_map(|(i, l)| l.settings.app_root.clone().map(|r| (r, i)));
            let (locations, refused) = Locations::new(list, &self.regexes);
            for r in refused {
                let loc = &locations.list[r.index];
                let (ingress, field) = match &loc.origin {
                    Origin::Path { ingress, rule, path, .. } => {
                        (Some(*ingress), format!("spec.rules[{rule}].http.paths[{path}].path"))
                    }
                    Origin::ServerDefault { ingress } => (*ingress, String::new()),
                };
                let message = format!("server {host}: location {}: {}", loc.nginx_syntax(), r.reason);
                match ingress {
                    Some(i) => self.issue(Code::NginxSkippedPath, i, field, message),
                    None => self.issues.push(Issue { code: Code::NginxSkippedPath, ingress: None, field, message }),
                }
            }
            servers.push(Server {
                aliases: Vec::new(),
                tls: self.tls.get(&host).copied().unwrap_or(false),
                hostname: host,
                locations,
                enforce_regex,
                app_root,
            });
        }
        // Aliases that name the host itself or another server are dropped (`createServers`).
        let names: Vec<String> = servers.iter().map(|s| s.hostname.clone()).collect();
        for server in &mut servers {
            let mut aliases = self.aliases.remove(&server.hostname).unwrap_or_default();
            aliases.retain(|a| !names.contains(a));
            server.aliases = aliases;
        }
        let (names, bad) = Names::new(&servers, &self.regexes);
        for b in bad {
            let message = format!("server {}: server-alias {:?}: {}", servers[b.server].hostname, b.name, b.reason);
            self.issues.push(Issue {
                code: Code::NginxIgnoredAnnotation,
                ingress: None,
                field: String::from("metadata.annotations[nginx.ingress.kubernetes.io/server-alias]"),
                message,
            });
        }
        let ingresses = self
            .ingresses
            .iter()
            .map(|(i, a)| IngressRef {
                namespace: i.metadata.namespace_or_default().into(),
                name: i.metadata.name.clone(),
                canary: a.canary.is_some(),
            })
            .collect();
        // `BuildRedirects`: a server for `www.<host>` (or `<host>` without `www.`) that redirects,
        // unless a server of that name exists. Written before the other servers: it wins a name.
        let mut www_redirects = HashMap::new();
        let mut hosts: Vec<&String> = self.www.iter().collect();
        hosts.sort();
        for to in hosts {
            let from = match to.strip_prefix("www.") {
                Some(bare) => bare.to_string(),
                None => format!("www.{to}"),
            };
            let Some(target) = servers.iter().position(|s| s.hostname == *to) else { continue };
            if servers.iter().any(|s| s.hostname == from) {
                let message = format!("from-to-www-redirect for {to}: a server {from} exists, so no redirect is made");
                self.issues.push(Issue {
                    code: Code::NginxIgnoredAnnotation,
                    ingress: None,
                    field: String::new(),
                    message,
                });
                continue;
            }
            www_redirects.entry(from).or_insert(target);
        }
        let router = Conf {
            ingresses,
            servers,
            names,
            canaries: self.canaries,
            www_redirects,
            regex_scan: self.regex_limits.scan,
        };
        (router, self.issues)
    }
}

impl Build<'_> {
    /// The `default-backend` annotation: when a location's Service has no endpoints (here: the
    /// input has Services, not this one), ingress-nginx sends to the annotation's Service (its
    /// first port) instead (`getBackendServers`, "custom-default-backend-").
    fn fall_back(&mut self, list: &mut [Location]) {
        let Some(services) = &self.services else { return };
        let mut issues = Vec::new();
        for l in list.iter_mut() {
            let (Some(backend), Origin::Path { ingress, rule, path, .. }) = (&l.backend, &l.origin) else { continue };
            let namespace = self.ingresses[*ingress].0.metadata.namespace_or_default();
            let Some(service) = backend.service.as_ref().map(|s| format!("{namespace}/{}", s.name)) else { continue };
            if services.contains_key(&service) {
                continue;
            }
            let field = format!("spec.rules[{rule}].http.paths[{path}]");
            let Some(name) = &l.settings.default_backend else {
                issues.push((
                    *ingress,
                    field,
                    format!(
                        "Service {service} is not in the input: ingress-nginx answers 503 while it has no endpoints"
                    ),
                ));
                continue;
            };
            match services.get(&format!("{namespace}/{name}")) {
                Some(port) => {
                    let fallback = IngressBackend {
                        service: Some(crate::model::IngressServiceBackend {
                            name: name.clone(),
                            port: Some(crate::model::ServiceBackendPort { name: None, number: *port }),
                        }),
                        resource: None,
                    };
                    l.backend = Some(fallback);
                    l.canary = None;
                    l.fallback_for = Some(service);
                }
                None => issues.push((
                    *ingress,
                    field,
                    format!(
                        "default-backend Service {namespace}/{name} is not in the input: the annotation is ignored"
                    ),
                )),
            }
        }
        for (i, field, message) in issues {
            self.issue(Code::NginxIgnoredAnnotation, i, field, message);
        }
    }
}

/// The pathType a location stands for (the exact half of a split Prefix stays `Exact`).
fn location_path_type(l: &Location) -> PathType {
    match &l.origin {
        Origin::Path { path_type, .. } => *path_type,
        Origin::ServerDefault { .. } => PathType::Prefix,
    }
}

/// `updateServerLocations`: a `Prefix /p` (not `/`, not regex or rewrite) becomes `location /p/`
/// followed by `location = /p`, unless an `Exact /p` exists (then only `/p/`).
fn split_prefixes(list: Vec<Location>) -> Vec<Location> {
    let exact: Vec<String> = list.iter().filter(|l| l.modifier == Modifier::Exact).map(|l| l.path.clone()).collect();
    let mut out = Vec::with_capacity(list.len() * 2);
    for mut l in list {
        if l.path == "/" || l.modifier != Modifier::Prefix || l.needs_rewrite() || l.settings.use_regex {
            out.push(l);
            continue;
        }
        let original = l.path.clone();
        if !l.path.ends_with('/') {
            l.path.push('/');
        }
        let exact_copy =
            (!exact.contains(&original)).then(|| Location { path: original, modifier: Modifier::Exact, ..l.clone() });
        out.push(l);
        out.extend(exact_copy);
    }
    out
}
