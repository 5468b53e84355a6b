//! The writer half of `migrate`: the Gateway API objects that replace an ingress-nginx estate.
//!
//! It reads the nginx configuration the ingress-nginx profile compiles (servers, their locations
//! in nginx's order, canaries, redirects), not the Ingresses themselves, so that each location
//! becomes the rule that answers as the location did: the host-wide `use-regex`, the `Prefix` /
//! `ImplementationSpecific` split into nginx locations, the server defaults and the canary merge
//! are the profile's decisions, made once. What the Gateway API cannot say is a [`Note`].

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::model::{IngressBackend, Object};
use crate::nginx::annotations::PREFIX;
use crate::nginx::location::{Location, Modifier, Origin};
use crate::nginx::server::{CATCH_ALL, Server};
use crate::nginx::{self, Conf};
use crate::options::CompileOptions;

const GATEWAY_API: &str = "gateway.networking.k8s.io/v1";
const REFERENCE_GRANT_API: &str = "gateway.networking.k8s.io/v1beta1";
/// The catch-all HTTPS listener's name (with `default_certificate`).
const DEFAULT_HTTPS_LISTENER: &str = "https";

/// The Gateway written when no `--gateway` is given.
pub(crate) const DEFAULT_GATEWAY: (&str, &str) = ("ingress-nginx", "ingress-nginx");
/// The `gatewayClassName` written when none is given: NGINX Gateway Fabric's default class.
pub(crate) const DEFAULT_GATEWAY_CLASS: &str = "nginx";

/// The Gateway's note on the HTTPS ingress-nginx served with its default certificate.
pub(crate) const HTTPS_WITHOUT_TLS: &str = "hosts without tls over HTTPS";

/// What became of one Ingress's annotation or part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Carried over: the output answers as ingress-nginx did.
    Translated,
    /// Carried over where the Gateway API can say it; the rest is said in the note.
    Partly,
    /// The Gateway API (or this tool) has no way to say it: left out, and why.
    NotExpressible,
    /// The Ingress itself is not migrated (another class, invalid, a canary without its main Ingress).
    LeftOut,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Translated => "translated",
            Outcome::Partly => "partly",
            Outcome::NotExpressible => "not expressible",
            Outcome::LeftOut => "left out",
        }
    }
}

/// One line of the report: an Ingress, an annotation (or field), what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Note {
    /// `namespace/name`; empty for the Gateway.
    pub ingress: String,
    /// The annotation's full name, or the field (`spec.tls[0]`, `spec.rules[1].http.paths[0]`).
    pub what: String,
    pub outcome: Outcome,
    /// What it became, or why not.
    pub detail: String,
    /// The host (as the Ingress names it, `*.` wildcards included) whose requests it concerns, when
    /// it concerns one host rather than the Ingress's rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// The objects written and the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Translation {
    /// The Gateway (unless an existing one was named), ReferenceGrants, then the routes.
    pub objects: Vec<Value>,
    /// The Gateway's `namespace/name`.
    pub gateway: String,
    /// Whether the Gateway is in `objects` (it is not when an existing one was named).
    pub gateway_written: bool,
    /// By Ingress, then annotation.
    pub notes: Vec<Note>,
}

impl Translation {
    /// The objects as one YAML stream (`---` between them).
    pub fn yaml(&self) -> String {
        let mut out = String::new();
        for (i, object) in self.objects.iter().enumerate() {
            if i > 0 {
                out.push_str("---\n");
            }
            out.push_str(&crate::yaml::write(object, FIELD_ORDER));
        }
        out
    }
}

/// Keys in the order a person writes them.
const FIELD_ORDER: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "name",
    "namespace",
    "annotations",
    "spec",
    "gatewayClassName",
    "parentRefs",
    "sectionName",
    "hostnames",
    "listeners",
    "hostname",
    "port",
    "protocol",
    "tls",
    "allowedRoutes",
    "from",
    "to",
    "rules",
    "matches",
    "path",
    "method",
    "headers",
    "type",
    "value",
    "filters",
    "backendRefs",
    "weight",
];

/// What `migrate` writes beyond what the Ingresses say (the same JSON in every home).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[non_exhaustive]
pub struct MigrateOptions {
    /// The `gatewayClassName` of the Gateway written.
    pub gateway_class: String,
    /// The Secret (`namespace/name`) ingress-nginx serves hosts without `tls` with over HTTPS
    /// (its `--default-ssl-certificate`): an HTTPS listener for every host then uses it.
    pub default_certificate: Option<String>,
}

impl Default for MigrateOptions {
    fn default() -> Self {
        MigrateOptions { gateway_class: DEFAULT_GATEWAY_CLASS.to_string(), default_certificate: None }
    }
}

/// Writes the Gateway API objects for the Ingresses of `objects` that ingress-nginx (with
/// `options`' class and default backend) serves. `gateway`: an existing Gateway `namespace/name`
/// to attach to (not written), else [`DEFAULT_GATEWAY`] is written as `migrate` says.
pub(crate) fn translate(
    objects: &[Object],
    options: &CompileOptions,
    gateway: Option<(&str, &str)>,
    migrate: &MigrateOptions,
) -> Translation {
    let nginx_options = nginx::Options {
        ingress_class: options.ingress_class.clone(),
        default_backend: options.default_backend.clone(),
        regex_limits: options.regex_limits,
    };
    let (conf, issues) = nginx::build(objects, &nginx_options);
    let mut by_name: BTreeMap<(&str, &str), &crate::model::Ingress> = BTreeMap::new();
    let mut services = BTreeMap::new();
    for o in objects {
        match o {
            Object::Ingress(i) => {
                by_name.insert((i.metadata.namespace_or_default(), i.metadata.name.as_str()), i);
            }
            Object::Service(svc) => {
                services.entry((svc.metadata.namespace_or_default(), svc.metadata.name.as_str())).or_insert(svc);
            }
            Object::IngressClass(_) => {}
        }
    }
    let ingress_objects =
        conf.ingresses.iter().map(|r| by_name.get(&(r.namespace.as_str(), r.name.as_str())).copied()).collect();
    let mut servers_of = vec![0; conf.ingresses.len()];
    for server in &conf.servers {
        let mut seen = BTreeSet::new();
        for l in &server.locations.list {
            if let Origin::Path { ingress, .. } | Origin::ServerDefault { ingress: Some(ingress) } = l.origin
                && seen.insert(ingress)
            {
                servers_of[ingress] += 1;
            }
        }
    }
    let mut writer = Writer {
        objects,
        conf: &conf,
        ingress_objects,
        services,
        servers_of,
        gateway: gateway.unwrap_or(DEFAULT_GATEWAY),
        existing_gateway: gateway.is_some(),
        notes: Vec::new(),
        routes: Vec::new(),
        grants: BTreeSet::new(),
        route_namespaces: BTreeSet::new(),
        https_listeners: BTreeMap::new(),
        default_certificate: migrate
            .default_certificate
            .as_deref()
            .map(|c| c.split_once('/').map_or(("default", c), |(ns, n)| (ns, n)))
            .map(|(ns, n)| (ns.to_string(), n.to_string())),
    };
    writer.left_out(&issues);
    writer.annotations();
    writer.https_listeners();
    for server in &conf.servers {
        writer.server(server);
    }
    for (name, to) in conf.www_redirects() {
        writer.www_redirect(name, to);
    }
    writer.finish(&migrate.gateway_class)
}

/// A route's parent: the Gateway's HTTP listener, or its HTTPS listener for a host.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Http,
    Https,
}

struct Writer<'a> {
    objects: &'a [Object],
    conf: &'a Conf,
    /// `conf.ingresses[i]`'s object (looked up once: every lookup below is by index).
    ingress_objects: Vec<Option<&'a crate::model::Ingress>>,
    /// Services by (namespace, name).
    services: BTreeMap<(&'a str, &'a str), &'a crate::model::Service>,
    /// How many servers have locations of each Ingress (a route's name says its host when several).
    servers_of: Vec<usize>,
    gateway: (&'a str, &'a str),
    existing_gateway: bool,
    notes: Vec<Note>,
    routes: Vec<Value>,
    /// (namespace granting, kind from, namespace from, kind to).
    grants: BTreeSet<(String, &'static str, String, &'static str)>,
    route_namespaces: BTreeSet<String>,
    /// By server hostname: the listener's name and its certificate (namespace, Secret name).
    https_listeners: BTreeMap<String, (String, Option<(String, String)>)>,
    /// ingress-nginx's default certificate: the catch-all HTTPS listener's.
    default_certificate: Option<(String, String)>,
}

/// One rule of a route, for each side.
struct RulePair {
    rule: Value,
    /// The HTTPS listener has the rule (else only the HTTP listener's redirect answers).
    on_https: bool,
    /// On the HTTP listener the rule's matches redirect to https instead (`ssl-redirect`).
    http_redirect: bool,
}

impl RulePair {
    fn both(rule: Value) -> RulePair {
        RulePair { rule, on_https: true, http_redirect: false }
    }

    fn new(rule: Value, http_redirect: bool) -> RulePair {
        RulePair { rule, on_https: true, http_redirect }
    }

    fn https(&self) -> Option<Value> {
        self.on_https.then(|| self.rule.clone())
    }

    fn http(&self) -> Value {
        match self.http_redirect {
            false => self.rule.clone(),
            true => json!({"matches": self.rule["matches"], "filters": [{"type": "RequestRedirect",
                "requestRedirect": {"scheme": "https", "statusCode": 308}}]}),
        }
    }
}

impl<'a> Writer<'a> {
    fn note(&mut self, ingress: &str, what: impl Into<String>, outcome: Outcome, detail: impl Into<String>) {
        self.notes.push(Note {
            ingress: ingress.to_string(),
            what: what.into(),
            outcome,
            detail: detail.into(),
            host: None,
        });
    }

    /// Marks the last note as concerning `host`'s requests.
    fn host_note(&mut self, host: &str) {
        if let Some(n) = self.notes.last_mut() {
            n.host = Some(host.to_string());
        }
    }

    fn ingress_key(&self, index: usize) -> String {
        self.conf.ingress_key(index)
    }

    fn ingress_namespace(&self, index: usize) -> &str {
        &self.conf.ingresses[index].namespace
    }

    /// Every Ingress the controller does not serve, and why.
    fn left_out(&mut self, issues: &[nginx::Issue]) {
        let taken: BTreeSet<String> = (0..self.conf.ingresses.len()).map(|i| self.ingress_key(i)).collect();
        for o in self.objects {
            let Object::Ingress(ingress) = o else { continue };
            let key = format!("{}/{}", ingress.metadata.namespace_or_default(), ingress.metadata.name);
            if taken.contains(&key) {
                continue;
            }
            let why = issues
                .iter()
                .find(|i| i.ingress.as_deref() == Some(key.as_str()))
                .map_or_else(|| String::from("not of the ingress-nginx class being migrated"), |i| i.message.clone());
            self.note(
                &key,
                "Ingress",
                Outcome::LeftOut,
                format!("ingress-nginx does not serve it ({why}): nothing written"),
            );
        }
        for (i, ingress) in self.conf.ingresses.iter().enumerate() {
            if ingress.canary && !self.conf.canaries.iter().any(|c| c.ingress == i && !c.deleted) {
                let key = self.ingress_key(i);
                self.note(
                    &key,
                    format!("{PREFIX}canary"),
                    Outcome::LeftOut,
                    "a canary Ingress with no main Ingress for its host and path: ingress-nginx serves nothing from it, \
                     so nothing is written",
                );
            }
        }
    }

    /// One note per ingress-nginx annotation of every served Ingress.
    fn annotations(&mut self) {
        for i in 0..self.conf.ingresses.len() {
            let key = self.ingress_key(i);
            let Some(ingress) = self.find_ingress(i) else { continue };
            let annotations: Vec<(String, String)> = ingress
                .metadata
                .annotations
                .iter()
                .filter_map(|(k, v)| Some((k.strip_prefix(PREFIX)?.to_string(), v.clone())))
                .collect();
            for (name, value) in annotations {
                let (outcome, detail) = annotation_outcome(&name, &value);
                self.note(&key, format!("{PREFIX}{name}"), outcome, detail);
            }
        }
    }

    fn find_ingress(&self, index: usize) -> Option<&'a crate::model::Ingress> {
        self.ingress_objects[index]
    }

    /// An HTTPS listener for every server with TLS, with the certificate an Ingress names for it.
    fn https_listeners(&mut self) {
        // Each host's first Secret, in the order ingress-nginx took the Ingresses (`_`: a `tls`
        // entry without hosts).
        let mut secrets: BTreeMap<String, (String, String)> = BTreeMap::new();
        for (i, ingress) in self.ingress_objects.iter().enumerate() {
            let Some(ingress) = ingress else { continue };
            for tls in &ingress.spec.tls {
                let Some(secret) = &tls.secret_name else { continue };
                let hosts: Vec<String> = match tls.hosts.is_empty() {
                    true => vec![CATCH_ALL.to_string()],
                    false => tls.hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
                };
                for host in hosts {
                    secrets.entry(host).or_insert_with(|| (self.ingress_namespace(i).to_string(), secret.clone()));
                }
            }
        }
        // A Gateway holds at most 64 listeners: the HTTP one, the default certificate's, and one
        // for each TLS host while there is room.
        let room = MAX_LISTENERS - 1 - usize::from(self.default_certificate.is_some());
        for server in &self.conf.servers {
            if !server.tls || self.https_listeners.contains_key(&server.hostname) {
                continue;
            }
            if self.https_listeners.len() == room {
                let detail = match self.default_certificate {
                    Some(_) => {
                        "the Gateway has no room for its own HTTPS listener (64 listeners at most): it is served \
                                by the default certificate's listener; give its certificate a Gateway of its own (or a \
                                ListenerSet)"
                    }
                    None => {
                        "the Gateway has no room for its HTTPS listener (64 listeners at most): give it a Gateway \
                             of its own (or a ListenerSet)"
                    }
                };
                self.notes.push(Note {
                    ingress: String::new(),
                    what: format!("host {}", server.hostname),
                    outcome: Outcome::Partly,
                    detail: detail.to_string(),
                    host: Some(server.hostname.clone()),
                });
                continue;
            }
            let certificate = secrets.get(&server.hostname.to_ascii_lowercase()).cloned();
            let name = listener_name("https", &server.hostname, self.https_listeners.len() + 1);
            self.https_listeners.insert(server.hostname.clone(), (name, certificate));
        }
    }

    fn parent(&self, side: Side, hostname: &str) -> Value {
        let mut parent = Map::new();
        parent.insert("name".into(), json!(self.gateway.1));
        parent.insert("namespace".into(), json!(self.gateway.0));
        match (self.existing_gateway, side) {
            // An existing Gateway's listener names are its own: its ports say which.
            (true, Side::Http) => drop(parent.insert("port".into(), json!(80))),
            (true, Side::Https) => drop(parent.insert("port".into(), json!(443))),
            (false, Side::Http) => drop(parent.insert("sectionName".into(), json!("http"))),
            (false, Side::Https) => {
                let name = self.https_listeners.get(hostname).map_or(DEFAULT_HTTPS_LISTENER, |(n, _)| n.as_str());
                parent.insert("sectionName".into(), json!(name));
            }
        }
        Value::Object(parent)
    }

    /// The parentRefs of a route that HTTP and HTTPS answer alike: the HTTP listener and the
    /// host's HTTPS listener, if any; an existing Gateway's every listener its hostnames meet.
    fn parents_both(&self, hostname: &str, https: bool) -> Vec<Value> {
        if self.existing_gateway {
            return vec![json!({"name": self.gateway.1, "namespace": self.gateway.0})];
        }
        let mut parents = vec![self.parent(Side::Http, hostname)];
        if https {
            parents.push(self.parent(Side::Https, hostname));
        }
        parents
    }

    /// The routes of one server: one per Ingress with locations in it.
    fn server(&mut self, server: &Server) {
        let mut by_ingress: BTreeMap<usize, Vec<&Location>> = BTreeMap::new();
        for loc in &server.locations.list {
            let ingress = match loc.origin {
                Origin::Path { ingress, .. } => ingress,
                // The server's `location /` answers with its Ingress's backend, or redirects as
                // that Ingress's annotations say; else the controller's 404.
                Origin::ServerDefault { ingress: Some(ingress) }
                    if loc.backend.is_some() || loc.settings.redirect.is_some() || redirects_http(server, loc) =>
                {
                    ingress
                }
                // The controller's own default backend: the Gateway's 404.
                Origin::ServerDefault { .. } => continue,
            };
            by_ingress.entry(ingress).or_default().push(loc);
        }
        let app_root = server.app_root.as_ref().and_then(|(root, l)| match server.locations.list[*l].origin {
            Origin::Path { ingress, .. } | Origin::ServerDefault { ingress: Some(ingress) } => Some((root, ingress)),
            Origin::ServerDefault { ingress: None } => None,
        });
        let facts = ServerFacts::of(server);
        for (ingress, locations) in by_ingress {
            let key = self.ingress_key(ingress);
            if server.hostname.starts_with("*.") {
                self.note(
                    &key,
                    format!("host {}", server.hostname),
                    Outcome::Partly,
                    "ingress-nginx's wildcard host covers exactly one label; a Gateway API wildcard hostname covers \
                     one or more",
                );
                self.host_note(&server.hostname);
            }
            let mut rules: Vec<RulePair> = Vec::new();
            if let Some((root, _)) = app_root.filter(|(_, i)| *i == ingress) {
                let redirect = json!({"type": "RequestRedirect", "requestRedirect": {
                    "path": {"type": "ReplaceFullPath", "replaceFullPath": root}, "statusCode": 302}});
                rules.push(RulePair::both(
                    json!({"matches": [{"path": {"type": "Exact", "value": "/"}}], "filters": [redirect]}),
                ));
                self.note(
                    &key,
                    format!("{PREFIX}app-root"),
                    Outcome::Partly,
                    format!(
                        "/ redirects (302) to {root}; ingress-nginx's redirect drops the request's query, a \
                         RequestRedirect keeps it"
                    ),
                );
            }
            for loc in &locations {
                self.location(server, &facts, ingress, loc, &mut rules);
                if let Some(rule) = auto_redirect(&facts, loc) {
                    rules.push(RulePair::both(rule));
                }
            }
            if rules.is_empty() {
                continue;
            }
            let grpc = self.find_ingress(ingress).is_some_and(|i| {
                i.metadata
                    .annotations
                    .get(&format!("{PREFIX}backend-protocol"))
                    .is_some_and(|p| matches!(p.trim().to_ascii_uppercase().as_str(), "GRPC" | "GRPCS"))
            });
            let rules = if grpc { self.grpc_rules(&key, rules) } else { rules };
            self.push_routes(server, ingress, grpc, rules);
        }
    }

    /// The rules of one location: its own, and a canary's before it.
    fn location(
        &mut self,
        server: &Server,
        facts: &ServerFacts,
        ingress: usize,
        loc: &Location,
        rules: &mut Vec<RulePair>,
    ) {
        let key = self.ingress_key(ingress);
        let namespace = self.ingress_namespace(ingress).to_string();
        let s = &loc.settings;
        let mut filters: Vec<Value> = Vec::new();
        let prefix_rewrite = prefix_rewrite(facts, loc);
        let matches = match &prefix_rewrite {
            Some((prefix, replacement)) => {
                filters.push(json!({"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch",
                    "replacePrefixMatch": replacement}}}));
                self.note(
                    &key,
                    format!("{PREFIX}rewrite-target"),
                    Outcome::Partly,
                    format!(
                        "{} with {}: a PathPrefix {prefix} match with URLRewrite ReplacePrefixMatch {replacement}; \
                         ingress-nginx matched it case-insensitively, the PathPrefix matches case-sensitively",
                        loc.path,
                        s.rewrite_target.as_deref().unwrap_or_default()
                    ),
                );
                vec![json!({"path": {"type": "PathPrefix", "value": prefix}})]
            }
            None => match self.matches(server, &key, loc) {
                Some(m) => m,
                None => return,
            },
        };
        if let Some(r) = &s.redirect {
            match redirect_filter(&r.url, r.code) {
                Ok(filter) => {
                    rules.push(RulePair::both(json!({"matches": matches, "filters": [filter]})));
                    if !r.url.contains('?') {
                        // `return` drops the request's query; RequestRedirect keeps it.
                        self.note(
                            &key,
                            format!("{PREFIX}{}", r.annotation),
                            Outcome::Partly,
                            "ingress-nginx's `return` drops the request's query string; a RequestRedirect keeps it",
                        );
                    }
                }
                Err(why) => self.note(&key, format!("{PREFIX}{}", r.annotation), Outcome::NotExpressible, why),
            }
            return;
        }
        if prefix_rewrite.is_none()
            && let Some(rewrite) = self.rewrite(&key, loc)
        {
            filters.push(rewrite);
        }
        if let Some(vhost) =
            self.find_ingress(ingress).and_then(|i| i.metadata.annotations.get(&format!("{PREFIX}upstream-vhost")))
        {
            merge_rewrite(&mut filters, "hostname", json!(vhost.trim()));
        }
        if let Some(prefix) =
            self.find_ingress(ingress).and_then(|i| i.metadata.annotations.get(&format!("{PREFIX}x-forwarded-prefix")))
        {
            filters.push(json!({"type": "RequestHeaderModifier",
                "requestHeaderModifier": {"set": [{"name": "X-Forwarded-Prefix", "value": prefix.trim()}]}}));
        }
        let http = redirects_http(server, loc);
        if http && !s.preserve_trailing_slash {
            self.note(
                &key,
                format!("{PREFIX}{}", if s.force_ssl_redirect { "force-ssl-redirect" } else { "ssl-redirect" }),
                Outcome::Partly,
                "HTTP requests redirect to https (308); ingress-nginx also drops a trailing '/' of the path \
                 (preserve-trailing-slash is false), which a RequestRedirect keeps",
            );
            self.host_note(&server.hostname);
        }
        let Some(backend) = loc.backend.as_ref() else {
            // Only the HTTP side answers (with its redirect); HTTPS has no rule: 404 as before.
            if http {
                rules.push(RulePair { rule: json!({"matches": matches}), on_https: false, http_redirect: true });
            }
            return;
        };
        let Some(primary) = self.backend_ref(&key, &namespace, backend) else { return };
        let rule = |matches: &[Value], backends: Vec<Value>| {
            let mut rule = json!({"matches": matches, "backendRefs": backends});
            if !filters.is_empty() {
                rule["filters"] = json!(filters);
            }
            rule
        };
        let canary = loc.canary.map(|c| &self.conf.canaries[c]).filter(|c| !c.deleted);
        let Some(canary) = canary else {
            rules.push(RulePair::new(rule(&matches, vec![primary]), http));
            return;
        };
        let canary_key = self.ingress_key(canary.ingress);
        let canary_namespace = self.ingress_namespace(canary.ingress).to_string();
        let Some(canary_ref) = self.backend_ref(&canary_key, &canary_namespace, &canary.backend) else {
            rules.push(RulePair::new(rule(&matches, vec![primary]), http));
            return;
        };
        let with_header = |header: Value| -> Vec<Value> {
            matches
                .iter()
                .map(|m| {
                    let mut m = m.clone();
                    m["headers"] = json!([header.clone()]);
                    m
                })
                .collect()
        };
        let later = canary.cookie.is_some() || canary.weight > 0;
        if let Some(header) = &canary.header {
            if let Some(Ok(_)) = &canary.header_pattern {
                let pattern = self.find_ingress(canary.ingress).and_then(|i| {
                    i.metadata
                        .annotations
                        .get(&format!("{PREFIX}canary-by-header-pattern"))
                        .map(|p| p.trim().to_string())
                });
                if let Some(pattern) = pattern {
                    let m = with_header(json!({"type": "RegularExpression", "name": header, "value": pattern}));
                    rules.push(RulePair::new(rule(&m, vec![canary_ref.clone()]), http));
                }
            } else {
                let value = canary.header_value.clone().unwrap_or_else(|| "always".into());
                let m = with_header(json!({"name": header, "value": value}));
                rules.push(RulePair::new(rule(&m, vec![canary_ref.clone()]), http));
            }
            if canary.header_value.is_none() && canary.header_pattern.is_none() && later {
                let m = with_header(json!({"name": header, "value": "never"}));
                rules.push(RulePair::new(rule(&m, vec![primary.clone()]), http));
            }
        }
        if let Some(cookie) = &canary.cookie {
            let escaped = regex_escape(cookie);
            let always = format!("^(.*;\\s*)?{escaped}=always(;.*)?$");
            let m = with_header(json!({"type": "RegularExpression", "name": "cookie", "value": always}));
            rules.push(RulePair::new(rule(&m, vec![canary_ref.clone()]), http));
            if canary.weight > 0 {
                let never = format!("^(.*;\\s*)?{escaped}=never(;.*)?$");
                let m = with_header(json!({"type": "RegularExpression", "name": "cookie", "value": never}));
                rules.push(RulePair::new(rule(&m, vec![primary.clone()]), http));
            }
        }
        let backends = if canary.weight >= canary.weight_total {
            vec![canary_ref]
        } else if canary.weight > 0 {
            let mut p = primary;
            p["weight"] = json!(canary.weight_total - canary.weight);
            let mut c = canary_ref;
            c["weight"] = json!(canary.weight);
            vec![p, c]
        } else {
            vec![primary]
        };
        rules.push(RulePair::new(rule(&matches, backends), http));
    }

    /// The matches that select what `loc` selects, or `None` (noted) when none can.
    fn matches(&mut self, server: &Server, key: &str, loc: &Location) -> Option<Vec<Value>> {
        let path = loc.path.as_str();
        let exact = |p: &str| json!({"path": {"type": "Exact", "value": p}});
        let prefix = |p: &str| json!({"path": {"type": "PathPrefix", "value": p}});
        let regex = |p: String| json!({"path": {"type": "RegularExpression", "value": p}});
        Some(match loc.modifier {
            Modifier::Exact => vec![exact(path)],
            Modifier::Prefix if path == "/" => vec![prefix("/")],
            // `location /p/`: the segment prefix `/p`, and `/p` itself, which nginx would redirect
            // to `/p/` unless an exact location has it (then that rule wins).
            Modifier::Prefix if path.ends_with('/') => vec![prefix(path.trim_end_matches('/'))],
            // `location /p`: any path that starts with those characters (`/px` too).
            Modifier::Prefix => {
                vec![prefix(path), regex(format!("{}[^/].*", regex_escape(path)))]
            }
            Modifier::Regex => {
                // `~* "^p"`: case-insensitive, anchored at the start only.
                if server.enforce_regex && loc.settings.rewrite_target.is_none() && !loc.settings.use_regex {
                    self.note(
                        key,
                        format!("spec path {path}"),
                        Outcome::Translated,
                        "another Ingress's use-regex or rewrite-target makes ingress-nginx match this path as a \
                         case-insensitive regex prefix: written as such",
                    );
                }
                vec![regex(format!("(?i){path}.*"))]
            }
        })
    }

    /// The `URLRewrite` filter for a location's `rewrite-target`, when the Gateway API can say it.
    fn rewrite(&mut self, key: &str, loc: &Location) -> Option<Value> {
        if !loc.needs_rewrite() {
            return None;
        }
        let target = loc.settings.rewrite_target.as_deref()?;
        let what = format!("{PREFIX}rewrite-target");
        if !target.contains('$') {
            self.note(
                key,
                &what,
                Outcome::Translated,
                format!("URLRewrite ReplaceFullPath {target} on path {}", loc.path),
            );
            return Some(
                json!({"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath", "replaceFullPath": target}}}),
            );
        }
        self.note(
            key,
            &what,
            Outcome::NotExpressible,
            format!(
                "rewrite-target {target} takes capture groups from the regex {}: the Gateway API's URLRewrite replaces a \
                 whole path or a PathPrefix only",
                loc.path
            ),
        );
        None
    }

    /// A Service backend as a backendRef, its port a number (a named port is looked up in the
    /// Service); `None` (noted) when it cannot be one.
    fn backend_ref(&mut self, key: &str, namespace: &str, backend: &IngressBackend) -> Option<Value> {
        let Some(service) = &backend.service else {
            self.note(
                key,
                "backend.resource",
                Outcome::NotExpressible,
                "a resource backend: ingress-nginx serves it from its default backend; no backendRef is written",
            );
            return None;
        };
        let port = service.port.as_ref();
        let number = match (port.and_then(|p| p.number), port.and_then(|p| p.name.as_deref())) {
            (Some(n), _) => Some(n),
            (None, Some(name)) => self.named_port(namespace, &service.name, name),
            (None, None) => None,
        };
        let Some(number) = number else {
            self.note(
                key,
                format!("backend {}", service.name),
                Outcome::NotExpressible,
                format!(
                    "the Service port {:?} is not in the input's Service {namespace}/{}: a backendRef needs the port \
                     number",
                    port.and_then(|p| p.name.clone()).unwrap_or_default(),
                    service.name
                ),
            );
            return None;
        };
        if !self.services.is_empty() && !self.services.contains_key(&(namespace, service.name.as_str())) {
            self.note(
                key,
                format!("backend {}", service.name),
                Outcome::Partly,
                format!(
                    "the Service {namespace}/{} is not in the input (which holds Services): the Gateway answers 500 \
                     for a backend it cannot resolve",
                    service.name
                ),
            );
        }
        Some(json!({"name": service.name, "namespace": namespace, "port": number}))
    }

    fn named_port(&self, namespace: &str, service: &str, port: &str) -> Option<i64> {
        let service = self.services.get(&(namespace, service))?;
        service.spec.ports.iter().find(|p| p.name.as_deref() == Some(port)).map(|p| p.port)
    }

    /// GRPCRoute rules from the HTTP rules of a `backend-protocol: GRPC` Ingress: a path `/` is
    /// every call, `/pkg.Service` a service, `/pkg.Service/Method` one method.
    fn grpc_rules(&mut self, key: &str, rules: Vec<RulePair>) -> Vec<RulePair> {
        let what = format!("{PREFIX}backend-protocol");
        let mut out = Vec::new();
        for mut pair in rules {
            let rule = &mut pair.rule;
            let matches: Vec<Value> = rule["matches"].as_array().cloned().unwrap_or_default();
            let mut grpc_matches = Vec::new();
            let mut every_call = false;
            for m in &matches {
                let path = m["path"]["value"].as_str().unwrap_or("/");
                let kind = m["path"]["type"].as_str().unwrap_or("PathPrefix");
                let parts: Vec<&str> = path.trim_matches('/').split('/').filter(|p| !p.is_empty()).collect();
                match (kind, parts.as_slice()) {
                    ("PathPrefix", []) => every_call = true,
                    ("PathPrefix" | "Exact", [service]) => {
                        grpc_matches.push(json!({"method": {"type": "Exact", "service": service}}))
                    }
                    ("Exact" | "PathPrefix", [service, method]) => {
                        grpc_matches.push(json!({"method": {"type": "Exact", "service": service, "method": method}}))
                    }
                    _ => self.note(
                        key,
                        &what,
                        Outcome::NotExpressible,
                        format!("the path {path} ({kind}) names no gRPC service or method: left out of the GRPCRoute"),
                    ),
                }
            }
            if !every_call && grpc_matches.is_empty() {
                continue;
            }
            if every_call {
                rule.as_object_mut().map(|r| r.remove("matches"));
            } else {
                rule["matches"] = json!(grpc_matches);
            }
            if rule.get("filters").is_some() || pair.http_redirect {
                self.note(
                    key,
                    &what,
                    Outcome::NotExpressible,
                    "redirects and rewrites do not apply to gRPC calls: left out",
                );
                rule.as_object_mut().map(|r| r.remove("filters"));
            }
            if rule.get("backendRefs").is_some() {
                out.push(RulePair::both(pair.rule));
            }
        }
        out
    }

    /// The route(s) of one Ingress on one server: one when HTTP and HTTPS answer alike, else one
    /// for each listener.
    fn push_routes(&mut self, server: &Server, ingress: usize, grpc: bool, rules: Vec<RulePair>) {
        let r = &self.conf.ingresses[ingress];
        let (namespace, ingress_name) = (r.namespace.clone(), r.name.clone());
        let servers_of_ingress = self.servers_of[ingress];
        let name = if servers_of_ingress > 1 {
            dns_name(&format!("{ingress_name}-{}", host_slug(&server.hostname)))
        } else {
            ingress_name
        };
        let mut hostnames: Vec<String> = Vec::new();
        if server.hostname != CATCH_ALL {
            hostnames.push(server.hostname.clone());
            hostnames.extend(server.aliases.iter().cloned());
        }
        let https_listener = self.https_listeners.contains_key(&server.hostname) || self.default_certificate.is_some();
        let split = rules.iter().any(|p| p.http_redirect);
        let kind = if grpc { "GRPCRoute" } else { "HTTPRoute" };
        // One route, or several when the rules pass a route's limits (16 rules, 64 matches a
        // rule, 128 in all): a lookup ranks each match on its own, so the split changes nothing.
        let route = |name: &str, parents: Vec<Value>, rules: Vec<Value>| -> Vec<Value> {
            within_route_limits(merged(rules, &namespace))
                .into_iter()
                .enumerate()
                .map(|(i, rules)| {
                    let name = if i == 0 { name.to_string() } else { dns_name(&format!("{name}-{}", i + 1)) };
                    let mut spec = json!({"parentRefs": parents, "rules": rules});
                    if !hostnames.is_empty() {
                        spec["hostnames"] = json!(hostnames);
                    }
                    json!({"apiVersion": GATEWAY_API, "kind": kind,
                           "metadata": {"name": name, "namespace": namespace}, "spec": spec})
                })
                .collect()
        };
        let before = self.routes.len();
        let http: Vec<Value> = rules.iter().map(RulePair::http).collect();
        if split && https_listener {
            let https: Vec<Value> = rules.iter().filter_map(RulePair::https).collect();
            let https_parent = self.parent(Side::Https, &server.hostname);
            let http_parent = self.parent(Side::Http, &server.hostname);
            if !https.is_empty() {
                self.routes.extend(route(&name, vec![https_parent], https));
            }
            self.routes.extend(route(&dns_name(&format!("{name}-http")), vec![http_parent], http));
        } else {
            let parents = self.parents_both(&server.hostname, https_listener);
            self.routes.extend(route(&name, parents, http));
        }
        self.route_namespaces.insert(namespace.clone());
        // Backends in other namespaces (a canary's) need their namespace's grant.
        let targets: Vec<String> = self.routes[before..]
            .iter()
            .flat_map(|r| r["spec"]["rules"].as_array().cloned().unwrap_or_default())
            .flat_map(|rule| rule["backendRefs"].as_array().cloned().unwrap_or_default())
            .filter_map(|b| b["namespace"].as_str().map(str::to_string))
            .filter(|ns| *ns != namespace)
            .collect();
        for target in targets {
            self.grants.insert((target, kind, namespace.clone(), "Service"));
        }
    }

    /// `from-to-www-redirect`: the other name redirects every request to the server's host.
    fn www_redirect(&mut self, name: &str, to: &Server) {
        let Some(ingress) = to.locations.list.iter().find_map(|l| match l.origin {
            Origin::Path { ingress, .. } | Origin::ServerDefault { ingress: Some(ingress) } => Some(ingress),
            Origin::ServerDefault { ingress: None } => None,
        }) else {
            return;
        };
        let key = self.ingress_key(ingress);
        let namespace = self.ingress_namespace(ingress).to_string();
        let route_name = dns_name(&format!("{}-www-redirect", self.conf.ingresses[ingress].name));
        let https = self.https_listeners.contains_key(&to.hostname) || self.default_certificate.is_some();
        let parents = self.parents_both(&to.hostname, https);
        let redirect =
            json!({"type": "RequestRedirect", "requestRedirect": {"hostname": to.hostname, "statusCode": 308}});
        self.routes.push(json!({"apiVersion": GATEWAY_API, "kind": "HTTPRoute",
            "metadata": {"name": route_name, "namespace": namespace},
            "spec": {"parentRefs": parents, "hostnames": [name], "rules": [{"filters": [redirect]}]}}));
        self.route_namespaces.insert(namespace);
        self.note(
            &key,
            format!("{PREFIX}from-to-www-redirect {name}"),
            Outcome::Partly,
            format!(
                "{name} redirects (308) to {}; ingress-nginx also drops a trailing '/' of the path, which a \
                 RequestRedirect keeps",
                to.hostname
            ),
        );
        self.host_note(name);
    }

    fn finish(mut self, gateway_class: &str) -> Translation {
        let (gw_namespace, gw_name) = self.gateway;
        let mut objects = Vec::new();
        if !self.existing_gateway {
            let namespaces = match self.route_namespaces.iter().all(|n| n == gw_namespace) {
                true => json!({"from": "Same"}),
                false => json!({"from": "Selector", "selector": {"matchExpressions": [{
                    "key": "kubernetes.io/metadata.name", "operator": "In",
                    "values": self.route_namespaces.iter().collect::<Vec<_>>()}]}}),
            };
            let mut listeners = vec![
                json!({"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": namespaces.clone()}}),
            ];
            for (hostname, (name, certificate)) in &self.https_listeners {
                let mut listener = json!({"name": name, "port": 443, "protocol": "HTTPS",
                    "tls": {"mode": "Terminate"}, "allowedRoutes": {"namespaces": namespaces.clone()}});
                if hostname != CATCH_ALL {
                    listener["hostname"] = json!(hostname);
                }
                match certificate {
                    Some((namespace, secret)) => {
                        listener["tls"]["certificateRefs"] =
                            json!([{"kind": "Secret", "name": secret, "namespace": namespace}]);
                        if namespace != gw_namespace {
                            self.grants.insert((namespace.clone(), "Gateway", gw_namespace.to_string(), "Secret"));
                        }
                    }
                    None => self.notes.push(Note {
                        ingress: String::new(),
                        what: format!("listener {name}"),
                        outcome: Outcome::Partly,
                        detail: format!("no Ingress names a Secret for {hostname}: add its certificateRefs"),
                        host: Some(hostname.clone()),
                    }),
                }
                listeners.push(listener);
            }
            let without_tls: Vec<&str> = self
                .conf
                .servers
                .iter()
                .filter(|s| !self.https_listeners.contains_key(&s.hostname) && s.hostname != CATCH_ALL)
                .map(|s| s.hostname.as_str())
                .collect();
            match &self.default_certificate {
                Some((namespace, secret)) => {
                    listeners.push(json!({"name": DEFAULT_HTTPS_LISTENER, "port": 443, "protocol": "HTTPS",
                        "tls": {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": secret, "namespace": namespace}]},
                        "allowedRoutes": {"namespaces": namespaces.clone()}}));
                    if namespace != gw_namespace {
                        self.grants.insert((namespace.clone(), "Gateway", gw_namespace.to_string(), "Secret"));
                    }
                }
                None if !without_tls.is_empty() => self.notes.push(Note {
                    ingress: String::new(),
                    what: HTTPS_WITHOUT_TLS.to_string(),
                    outcome: Outcome::Partly,
                    detail: format!(
                        "ingress-nginx also serves HTTPS on hosts no Ingress gives a certificate ({}), with its \
                         default certificate; the Gateway has no HTTPS listener for them (give the default \
                         certificate's Secret, namespace/name, to write one)",
                        without_tls.join(", ")
                    ),
                    host: None,
                }),
                None => {}
            }
            objects.push(json!({"apiVersion": GATEWAY_API, "kind": "Gateway",
                "metadata": {"name": gw_name, "namespace": gw_namespace},
                "spec": {"gatewayClassName": gateway_class, "listeners": listeners}}));
        }
        let mut grants: BTreeMap<(String, &str, String), Vec<&str>> = BTreeMap::new();
        for (namespace, from_kind, from_namespace, to_kind) in &self.grants {
            grants.entry((namespace.clone(), *from_kind, from_namespace.clone())).or_default().push(to_kind);
        }
        for ((namespace, from_kind, from_namespace), to) in grants {
            let name = dns_name(&format!("from-{}-{from_namespace}", from_kind.to_ascii_lowercase()));
            let group =
                if from_kind == "Gateway" || from_kind.ends_with("Route") { "gateway.networking.k8s.io" } else { "" };
            objects.push(json!({"apiVersion": REFERENCE_GRANT_API, "kind": "ReferenceGrant",
                "metadata": {"name": name, "namespace": namespace},
                "spec": {"from": [{"group": group, "kind": from_kind, "namespace": from_namespace}],
                         "to": to.iter().map(|k| json!({"group": "", "kind": k})).collect::<Vec<_>>()}}));
        }
        objects.extend(self.routes);
        self.notes.sort_by(|a, b| (&a.ingress, &a.what).cmp(&(&b.ingress, &b.what)));
        self.notes.dedup();
        // An annotation's general note gives way to what its rules say in particular.
        let particular: BTreeSet<(String, String)> = self
            .notes
            .iter()
            .filter(|n| n.outcome != Outcome::Translated)
            .map(|n| (n.ingress.clone(), n.what.clone()))
            .collect();
        self.notes
            .retain(|n| n.outcome != Outcome::Translated || !particular.contains(&(n.ingress.clone(), n.what.clone())));
        Translation {
            objects,
            gateway: format!("{gw_namespace}/{gw_name}"),
            gateway_written: !self.existing_gateway,
            notes: self.notes,
        }
    }
}

/// What becomes of one ingress-nginx annotation (`name` without the prefix).
fn annotation_outcome(name: &str, value: &str) -> (Outcome, String) {
    let translated = |what: &str| (Outcome::Translated, String::from(what));
    let not = |why: &str| (Outcome::NotExpressible, String::from(why));
    match name {
        "use-regex" => translated("the host's paths become case-insensitive RegularExpression prefix matches"),
        "rewrite-target" => (Outcome::Translated, String::from("URLRewrite on the rules it applies to")),
        "app-root" => translated("an Exact / rule with a RequestRedirect (302) to the app root"),
        "permanent-redirect" | "temporal-redirect" | "permanent-redirect-code" | "temporal-redirect-code" => {
            translated("RequestRedirect filters with the code")
        }
        "ssl-redirect" | "force-ssl-redirect" => {
            translated("the HTTP listener's rules redirect to https (308); the HTTPS listener's forward")
        }
        "preserve-trailing-slash" => (
            Outcome::Partly,
            String::from(
                "a RequestRedirect keeps the trailing '/' whatever this says; ingress-nginx drops it unless true",
            ),
        ),
        "from-to-www-redirect" => translated("an HTTPRoute for the other name with a RequestRedirect (308)"),
        "server-alias" => translated("the aliases are hostnames of the routes"),
        "default-backend" => {
            translated("the backend used where the path's Service has no endpoints, as ingress-nginx chose it")
        }
        "canary"
        | "canary-by-header"
        | "canary-by-header-value"
        | "canary-by-header-pattern"
        | "canary-by-cookie"
        | "canary-weight"
        | "canary-weight-total" => {
            translated("rules with header (cookie) matches for the canary, and backendRef weights for the split")
        }
        "upstream-vhost" => translated("URLRewrite hostname"),
        "x-forwarded-prefix" => translated("a RequestHeaderModifier that sets X-Forwarded-Prefix"),
        "backend-protocol" => match value.trim().to_ascii_uppercase().as_str() {
            "GRPC" | "GRPCS" => translated("GRPCRoutes for the Ingress's paths"),
            "HTTP" => translated("the default"),
            _ => not(
                "the upstream protocol is the Service's appProtocol or a BackendTLSPolicy in the Gateway API: not written",
            ),
        },
        _ if name.starts_with("auth-") => {
            not("authentication has no Gateway API filter: use the implementation's policy")
        }
        _ if name.starts_with("limit-") || name.starts_with("global-rate-limit") => {
            not("rate limits have no Gateway API filter: use the implementation's policy")
        }
        _ if name.ends_with("snippet") => not("nginx snippets are nginx configuration: the Gateway API has none"),
        _ if name.starts_with("affinity") || name.starts_with("session-cookie") => {
            not("session affinity is not in the Gateway API's standard channel (SessionPersistence is experimental)")
        }
        _ if name.contains("cors") => not("CORS is not a filter this tool writes (HTTPCORSFilter is experimental)"),
        _ if name.ends_with("source-range") => not("client IP access lists have no Gateway API field"),
        _ if name.starts_with("proxy-") => {
            not("proxy buffer, body and timeout settings are the implementation's policy")
        }
        "ssl-passthrough" => not("TLS passthrough is a TLSRoute on a TLS listener: not written"),
        _ if name.starts_with("mirror") => not("mirroring is not written (a RequestMirror filter can carry it)"),
        _ => not("no Gateway API field or filter carries it"),
    }
}

/// What the rules of one location need to know of the server's other locations, found once per
/// server (asking each location's question of every other would be quadratic in its paths).
struct ServerFacts<'s> {
    /// The paths of its exact and prefix locations.
    static_paths: BTreeSet<&'s str>,
    /// How many of its regex locations have a backend.
    regexes_with_backend: usize,
}

impl<'s> ServerFacts<'s> {
    fn of(server: &'s Server) -> Self {
        let list = &server.locations.list;
        ServerFacts {
            static_paths: list.iter().filter(|l| l.modifier != Modifier::Regex).map(|l| l.path.as_str()).collect(),
            regexes_with_backend: list.iter().filter(|l| l.modifier == Modifier::Regex && l.backend.is_some()).count(),
        }
    }
}

/// `rewrite-target X/$2` on a regex path `P(/|$)(.*)` (the usual "strip the prefix"), where `P`
/// is plain text and no other regex location of the server competes: the PathPrefix `P` and the
/// `ReplacePrefixMatch` replacement `X` (without its trailing `/` unless it is `/`).
fn prefix_rewrite(facts: &ServerFacts, loc: &Location) -> Option<(String, String)> {
    if loc.modifier != Modifier::Regex || !loc.needs_rewrite() {
        return None;
    }
    let prefix = loc.path.strip_suffix("(/|$)(.*)")?;
    let replacement = loc.settings.rewrite_target.as_deref()?.strip_suffix("$2")?;
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/-_~".contains(c));
    if !plain(prefix) || !prefix.starts_with('/') || !replacement.ends_with('/') || !plain(replacement) {
        return None;
    }
    // The server's own `location /` without a backend answers 404 either way: it does not compete.
    if facts.regexes_with_backend > usize::from(loc.backend.is_some()) {
        return None;
    }
    let replacement = if replacement == "/" { replacement } else { replacement.trim_end_matches('/') };
    Some((prefix.to_string(), replacement.to_string()))
}

/// Whether ingress-nginx answers `loc` on plain HTTP with a redirect to https (`ssl-redirect` on
/// a host with TLS, `force-ssl-redirect` anywhere), before it looks at the backend.
fn redirects_http(server: &Server, loc: &Location) -> bool {
    let s = &loc.settings;
    s.redirect.is_none() && (s.force_ssl_redirect || (s.ssl_redirect && server.tls))
}

/// Rules that differ in their matches only become one rule with all of them (the Gateway API
/// ranks each match on its own, so nothing changes but the reading); an `Exact /p` beside a
/// `PathPrefix /p` with the same conditions goes (the prefix covers it); backendRefs in the
/// route's own namespace leave it unsaid.
fn merged(rules: Vec<Value>, namespace: &str) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    // A rule without its matches, as text: the rules that differ in their matches only share it.
    let mut by_rest: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen_matches: Vec<BTreeSet<String>> = Vec::new();
    for mut rule in rules {
        if let Some(refs) = rule.get_mut("backendRefs").and_then(Value::as_array_mut) {
            for r in refs {
                if r["namespace"] == namespace {
                    r.as_object_mut().map(|o| o.remove("namespace"));
                }
            }
        }
        let Some(matches) = rule.as_object_mut().and_then(|o| o.remove("matches")).and_then(|m| match m {
            Value::Array(list) => Some(list),
            _ => None,
        }) else {
            out.push(rule);
            seen_matches.push(BTreeSet::new());
            continue;
        };
        let at = *by_rest.entry(rule.to_string()).or_insert_with(|| {
            rule["matches"] = json!([]);
            out.push(rule);
            seen_matches.push(BTreeSet::new());
            out.len() - 1
        });
        if let Some(list) = out[at]["matches"].as_array_mut() {
            for m in matches {
                if seen_matches[at].insert(m.to_string()) {
                    list.push(m);
                }
            }
        }
    }
    for rule in &mut out {
        let Some(list) = rule.get_mut("matches").and_then(Value::as_array_mut) else { continue };
        let condition = |m: &Value| {
            format!("{}|{}", m["path"]["value"], m.get("headers").map(Value::to_string).unwrap_or_default())
        };
        let prefixes: BTreeSet<String> =
            list.iter().filter(|m| m["path"]["type"] == "PathPrefix").map(condition).collect();
        list.retain(|m| m["path"]["type"] != "Exact" || !prefixes.contains(&condition(m)));
    }
    out
}

/// The CRD's limit on a Gateway's listeners.
const MAX_LISTENERS: usize = 64;

/// The CRD's limits on one route: rules, matches in a rule, matches in all its rules.
const MAX_RULES: usize = 16;
const MAX_RULE_MATCHES: usize = 64;
const MAX_ROUTE_MATCHES: usize = 128;

/// `rules` in groups one route can hold: a rule with more matches than a rule may have becomes
/// several, and the rules are packed in order.
fn within_route_limits(rules: Vec<Value>) -> Vec<Vec<Value>> {
    let mut pieces: Vec<Value> = Vec::new();
    for rule in rules {
        match rule["matches"].as_array() {
            Some(list) if list.len() > MAX_RULE_MATCHES => {
                for chunk in list.chunks(MAX_RULE_MATCHES) {
                    let mut piece = rule.clone();
                    piece["matches"] = json!(chunk);
                    pieces.push(piece);
                }
            }
            _ => pieces.push(rule),
        }
    }
    let mut routes: Vec<Vec<Value>> = vec![Vec::new()];
    let mut matches = 0;
    for piece in pieces {
        // A rule without matches has the one the API defaults.
        let n = piece["matches"].as_array().map_or(1, |m| m.len().max(1));
        let full = routes.last().is_some_and(|r| r.len() == MAX_RULES || matches + n > MAX_ROUTE_MATCHES);
        if full {
            routes.push(Vec::new());
            matches = 0;
        }
        matches += n;
        if let Some(last) = routes.last_mut() {
            last.push(piece);
        }
    }
    routes
}

/// nginx's `auto_redirect`: a URI naming a prefix location `/p/` without its slash is answered
/// 301 to `/p/` (query kept) when no location is named `/p`: an Exact rule that says so.
fn auto_redirect(facts: &ServerFacts, loc: &Location) -> Option<Value> {
    if loc.modifier != Modifier::Prefix || loc.path == "/" || !loc.path.ends_with('/') {
        return None;
    }
    let bare = loc.path.trim_end_matches('/');
    if facts.static_paths.contains(bare) {
        return None;
    }
    Some(json!({"matches": [{"path": {"type": "Exact", "value": bare}}], "filters": [{"type": "RequestRedirect",
        "requestRedirect": {"path": {"type": "ReplaceFullPath", "replaceFullPath": loc.path}, "statusCode": 301}}]}))
}

/// A RequestRedirect filter for `return <code> <url>`.
fn redirect_filter(url: &str, code: u16) -> Result<Value, String> {
    if !matches!(code, 301 | 302 | 303 | 307 | 308) {
        return Err(format!("status {code}: a RequestRedirect answers 301, 302, 303, 307 or 308 only"));
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(format!("{url} is not an absolute URL"));
    };
    if url.contains('?') {
        return Err(format!("{url} has a query: a RequestRedirect cannot set one"));
    }
    let (authority, path) = rest.find('/').map_or((rest, None), |i| (&rest[..i], Some(&rest[i..])));
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if p.parse::<u16>().is_ok() => (h, p.parse::<u16>().ok()),
        _ => (authority, None),
    };
    let mut redirect = json!({"scheme": scheme.to_ascii_lowercase(), "hostname": host, "statusCode": code});
    if let Some(port) = port {
        redirect["port"] = json!(port);
    }
    redirect["path"] = json!({"type": "ReplaceFullPath", "replaceFullPath": path.unwrap_or("/")});
    Ok(json!({"type": "RequestRedirect", "requestRedirect": redirect}))
}

/// Adds `field` to the rule's URLRewrite filter (written if there is none).
fn merge_rewrite(filters: &mut Vec<Value>, field: &str, value: Value) {
    if let Some(f) = filters.iter_mut().find(|f| f["type"] == "URLRewrite") {
        f["urlRewrite"][field] = value;
    } else {
        filters.push(json!({"type": "URLRewrite", "urlRewrite": {field: value}}));
    }
}

/// `s` with the characters a regex reads specially escaped.
fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `https-shop-example-com` for `shop.example.com` (a listener name is a DNS label); the `n`th
/// listener's number keeps a shortened name unique.
fn listener_name(prefix: &str, hostname: &str, n: usize) -> String {
    let slug = host_slug(hostname);
    let name = format!("{prefix}-{slug}");
    // A listener name is at most 253 characters; a DNS label at most 63 reads better.
    if name.len() <= 63 { name } else { format!("{}-{n}", name[..50].trim_end_matches('-')) }
}

fn host_slug(hostname: &str) -> String {
    if hostname == CATCH_ALL {
        return String::from("default");
    }
    let slug: String = hostname
        .to_ascii_lowercase()
        .replace("*.", "wildcard.")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    slug.trim_matches('-').to_string()
}

/// A name within the 253 characters of a DNS subdomain.
fn dns_name(name: &str) -> String {
    let name = name.to_ascii_lowercase();
    if name.len() <= 253 { name } else { name[..253].trim_end_matches(['-', '.']).to_string() }
}
