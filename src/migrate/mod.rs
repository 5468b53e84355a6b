//! [`migrate()`]: a migration proven per request. The Ingresses, routed as a profile routes them
//! (ingress-nginx by default), against the Gateway API objects meant to replace them, on one probe
//! set generated from both sides: every declared path with its neighbours and near misses, regex
//! examples, trailing-slash twins, case variants, hosts one and two labels under each wildcard,
//! header, cookie, method and query matches. Each probe is answered by both; the requests whose
//! answer differs (status, backend, split, redirect location, upstream path) are grouped by
//! [`Cause`](crate::migrate::Cause), named in the words of the ingress-nginx behaviours a migrating team trips on.

mod translate;

#[cfg(feature = "cli")]
pub(crate) use translate::DEFAULT_GATEWAY_CLASS;
pub(crate) use translate::translate;
pub use translate::{MigrateOptions, Note, Outcome, Translation};

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use hashbrown::{HashMap, HashSet};
use serde::Serialize;

use crate::decision::{BackendRef, ServicePort, Via};
use crate::diff::{self, Probe};
use crate::gateway::model::{PathMatchType, ValueMatchType};
use crate::gateway::{self, GatewayOptions, GatewayRequest, GatewayRouter, Objects};
use crate::input::Input;
use crate::model::{Ingress, Object};
use crate::nginx::annotations::PREFIX;
use crate::options::{CompileOptions, Profile};
use crate::request::{Request, RequestSpec, Scheme};
use crate::router::{Router, compile_objects as compile};
use crate::tests_file::{self, TestsFile};

/// One request both sides answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MigrationProbe {
    pub method: String,
    pub url: String,
    /// Request headers (a canary's header or cookie, a header match's value).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
    /// Why this URL: `at`, `under`, `beside`, `case`, `slash`, `regex`, `root`, `default`,
    /// `wildcard`, `canary`, `match`.
    pub kind: &'static str,
    /// The Ingress path or HTTPRoute rule it was derived from.
    pub from: String,
}

/// One side's answer, in the terms both APIs share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Answer {
    /// The HTTP status the proxy answers (200 when forwarded).
    pub status: u16,
    /// `namespace/name:port` of the one backend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// `namespace/name:port` with its share in percent, when several backends split the traffic.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<(String, u32)>,
    /// The `Location` of a redirect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    /// The path the backend receives, when forwarded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_path: Option<String>,
    /// The rule that decided (`namespace/name ...`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What decided, in that side's words.
    pub reason: String,
}

impl Answer {
    /// One line: `200 shop/cart:80 (upstream /x)`, `301 -> https://...`, `404`.
    pub fn summary(&self) -> String {
        let mut out = format!("{}", self.status);
        if let Some(b) = &self.backend {
            out.push_str(&format!(" {b}"));
        }
        if !self.split.is_empty() {
            let parts: Vec<String> = self.split.iter().map(|(b, w)| format!("{b} {w}%")).collect();
            out.push_str(&format!(" split({})", parts.join(", ")));
        }
        if let Some(r) = &self.redirect {
            out.push_str(&format!(" -> {r}"));
        }
        if let Some(p) = &self.upstream_path {
            out.push_str(&format!(" (upstream path {p})"));
        }
        out
    }

    /// Whether both answer alike: everything but the rule and the reason.
    fn same_as(&self, other: &Answer) -> bool {
        let location = |a: &Answer| a.redirect.as_deref().map(same_url);
        (self.status, &self.backend, &self.split, location(self), &self.upstream_path)
            == (other.status, &other.backend, &other.split, location(other), &other.upstream_path)
    }
}

/// A redirect location as a browser follows it: scheme and host in lower case, the scheme's
/// default port left out, an empty path as `/` (`http://h:80` and `http://H/` are one URL).
fn same_url(location: &str) -> String {
    let Some((scheme, rest)) = location.split_once("://") else { return location.to_string() };
    let scheme = scheme.to_ascii_lowercase();
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, target) = rest.split_at(end);
    let mut authority = authority.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => Some(":80"),
        "https" => Some(":443"),
        _ => None,
    };
    if let Some(port) = default_port
        && authority.ends_with(port)
    {
        authority.truncate(authority.len() - port.len());
    }
    let slash = if target.starts_with('/') { "" } else { "/" };
    format!("{scheme}://{authority}{slash}{target}")
}

/// Why the two sides answer a request differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Cause {
    /// ingress-nginx sends plain HTTP on a TLS host to HTTPS (`ssl-redirect`, on by default).
    SslRedirect,
    /// ingress-nginx answers `www.<host>` (or `<host>` without `www.`) with a redirect to the host.
    WwwRedirect,
    /// ingress-nginx serves HTTPS on every host, with its default certificate where no Ingress
    /// names one; a Gateway serves HTTPS only where a listener terminates TLS.
    HttpsDefaultCertificate,
    /// The same redirect but for the query: ingress-nginx's `return` drops it, a RequestRedirect
    /// keeps it.
    RedirectQuery,
    /// ingress-nginx answers `/foo` with a 301 to `/foo/` when only `/foo/` is declared.
    TrailingSlashRedirect,
    /// A Gateway API `*.` hostname covers any number of labels; an Ingress `*.` only one.
    WildcardDepth,
    /// ingress-nginx regex locations are case-insensitive (`~*`).
    RegexCaseInsensitive,
    /// `use-regex` (or `rewrite-target`) on one Ingress turns every path of its host into a regex.
    UseRegexWholeHost,
    /// `rewrite-target` turns on regex matching even without `use-regex`.
    RewriteTargetImpliesRegex,
    /// ingress-nginx regex locations are anchored at the start only: they match as prefixes.
    RegexPrefix,
    /// A `rewrite-target` with capture groups (`$1`) that the HTTPRoute does not reproduce.
    RewriteCaptureDropped,
    /// The backend receives another path.
    UpstreamPath,
    /// A canary (by header, cookie or weight) answers differently from the route's weights or matches.
    Canary,
    /// One side has no rule for the host at all.
    HostMissing,
    /// The Gateway has no listener for the request's scheme and port (HTTPS on 443, say).
    ListenerMissing,
    /// Another rule wins, or none.
    DifferentRule,
}

impl Cause {
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::SslRedirect => "ssl-redirect",
            Cause::WwwRedirect => "from-to-www-redirect",
            Cause::HttpsDefaultCertificate => "https-default-certificate",
            Cause::RedirectQuery => "redirect-query",
            Cause::TrailingSlashRedirect => "trailing-slash-redirect",
            Cause::WildcardDepth => "wildcard-depth",
            Cause::RegexCaseInsensitive => "regex-case-insensitive",
            Cause::UseRegexWholeHost => "use-regex-whole-host",
            Cause::RewriteTargetImpliesRegex => "rewrite-target-implies-regex",
            Cause::RegexPrefix => "regex-prefix",
            Cause::RewriteCaptureDropped => "rewrite-capture-dropped",
            Cause::UpstreamPath => "upstream-path",
            Cause::Canary => "canary",
            Cause::HostMissing => "host-missing",
            Cause::ListenerMissing => "listener-missing",
            Cause::DifferentRule => "different-rule",
        }
    }

    /// The behaviour, in a migrating team's words.
    pub fn title(self) -> &'static str {
        match self {
            Cause::SslRedirect => "ingress-nginx redirected HTTP to HTTPS on hosts with TLS (ssl-redirect)",
            Cause::WwwRedirect => "ingress-nginx redirected the www (or bare) name to the host (from-to-www-redirect)",
            Cause::HttpsDefaultCertificate => {
                "ingress-nginx served HTTPS on a host without tls, with its default certificate"
            }
            Cause::RedirectQuery => "the redirect drops the request's query on one side and keeps it on the other",
            Cause::TrailingSlashRedirect => {
                "ingress-nginx redirected a path without its trailing slash to the declared path with it (301)"
            }
            Cause::WildcardDepth => {
                "a Gateway API wildcard hostname covers several labels; the Ingress wildcard covered exactly one"
            }
            Cause::RegexCaseInsensitive => "ingress-nginx regex paths matched case-insensitively",
            Cause::UseRegexWholeHost => {
                "use-regex on one Ingress made every path of the host a regex, those of other Ingresses included"
            }
            Cause::RewriteTargetImpliesRegex => "rewrite-target made ingress-nginx match the paths as regexes",
            Cause::RegexPrefix => "ingress-nginx regex paths matched as prefixes (anchored at the start only)",
            Cause::RewriteCaptureDropped => "a rewrite-target with capture groups was not carried over",
            Cause::UpstreamPath => "the backend receives another path",
            Cause::Canary => "a canary Ingress (by header, cookie or weight) routes differently now",
            Cause::HostMissing => "a host is served on one side only",
            Cause::ListenerMissing => "the Gateway has no listener for the request's scheme and port",
            Cause::DifferentRule => "another rule wins",
        }
    }

    /// What to write in the HTTPRoute to keep the old answer, when there is a usual fix.
    pub fn advice(self) -> &'static str {
        match self {
            Cause::SslRedirect => {
                "add a rule on the HTTP listener with a RequestRedirect filter (scheme: https, statusCode: 308)"
            }
            Cause::WwwRedirect => {
                "add an HTTPRoute for the other name with a RequestRedirect filter (hostname: the host, statusCode: 308)"
            }
            Cause::HttpsDefaultCertificate => {
                "add an HTTPS listener (port 443) with a certificate for the host, if clients reach it over HTTPS"
            }
            Cause::RedirectQuery => {
                "a RequestRedirect always keeps the query; if the target must not see it, redirect with a URL the \
                 backend answers instead"
            }
            Cause::TrailingSlashRedirect => {
                "add an Exact match for the path without the slash with a RequestRedirect (path ReplaceFullPath to the slashed path, statusCode: 301)"
            }
            Cause::WildcardDepth => {
                "list the deeper hostnames the Ingress did not serve elsewhere, or accept the wider match"
            }
            Cause::RegexCaseInsensitive => {
                "use a RegularExpression match with (?i), or list the case variants clients send"
            }
            Cause::UseRegexWholeHost => {
                "write the affected paths as RegularExpression matches (prefix, case-insensitive), or accept exact semantics"
            }
            Cause::RewriteTargetImpliesRegex => {
                "use a RegularExpression match where the old path relied on regex meaning"
            }
            Cause::RegexPrefix => "end the RegularExpression with .* (or use PathPrefix) to keep prefix matching",
            Cause::RewriteCaptureDropped => {
                "use a URLRewrite filter (ReplacePrefixMatch) or an implementation's regex rewrite for the captured part"
            }
            Cause::UpstreamPath => "check the URLRewrite filters of the rule",
            Cause::Canary => "use a header or cookie match for the canary rule, and backendRef weights for the split",
            Cause::HostMissing => "add the hostname to an HTTPRoute (and a listener that allows it)",
            Cause::ListenerMissing => {
                "add the listener (an HTTPS listener on 443 with the TLS certificate, for example)"
            }
            Cause::DifferentRule => "compare the two rules below",
        }
    }
}

/// A request the two sides answer differently.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MigrationDifference {
    pub probe: MigrationProbe,
    pub ingress: Answer,
    pub gateway: Answer,
}

/// The differences of one cause.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct CauseGroup {
    pub cause: Cause,
    pub title: &'static str,
    pub advice: &'static str,
    pub differences: Vec<MigrationDifference>,
}

/// Every probe's outcome: the differences grouped by cause, and the agreed answers.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MigrationReport {
    /// The Ingress side's profile.
    pub from: Profile,
    /// The Gateway the requests arrive at (`namespace/name`), when one is chosen.
    pub gateway: Option<String>,
    pub probes: usize,
    /// In [`Cause`] order.
    pub causes: Vec<CauseGroup>,
    /// Probes both sides answer alike, with that answer (what a tests file pins).
    #[serde(skip)]
    pub agreed: Vec<(MigrationProbe, Answer)>,
    /// The agreed probes as a tests file for the Gateway API objects: what pins the new routing.
    #[serde(skip)]
    pub pinned: TestsFile,
    /// Why no Gateway takes the probes (none in the input, several and none chosen, the chosen
    /// one missing): nothing was compared, and saying "404" to every probe would lie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_gateway: Option<String>,
    /// Ingresses the Ingress side leaves out (another class, invalid), with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// Objects of the input this comparison cannot route (TLSRoute, TCPRoute, ...), with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_compared: Vec<String>,
    /// What else the reader should know (an object given twice: the last one is compared).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl MigrationReport {
    pub fn differences(&self) -> usize {
        self.causes.iter().map(|c| c.differences.len()).sum()
    }

    /// [`pinned`](Self::pinned) as YAML, with a comment saying where it came from.
    pub fn tests_file(&self) -> String {
        let comment = format!(
            "Written by `ingress-router diff --to gateway-api`: the {} requests the Ingresses ({}) and the\nGateway API objects answer alike, pinned for the Gateway API routing.",
            self.agreed.len(),
            self.from.as_str()
        );
        tests_file::write(&self.pinned, &comment)
    }

    /// `N of M probe requests answer differently (causes: a, b)`.
    pub fn summary(&self) -> String {
        let causes: Vec<&str> = self.causes.iter().map(|c| c.cause.as_str()).collect();
        let mut out = format!(
            "{} of {} probe requests answer differently between the Ingresses ({}) and the Gateway API objects",
            self.differences(),
            self.probes,
            self.from.as_str()
        );
        if !causes.is_empty() {
            out.push_str(&format!(" (causes: {})", causes.join(", ")));
        }
        out
    }
}

/// The `spec.controller` of ingress-nginx's IngressClasses.
const INGRESS_NGINX_CONTROLLER: &str = "k8s.io/ingress-nginx";

/// `ingress-router migrate`: the Gateway API objects written for an ingress-nginx estate, and
/// the proof that they route as ingress-nginx did.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Conversion {
    pub translation: Translation,
    /// [`migrate()`] on the input's Ingresses against the objects written.
    pub proof: MigrationReport,
    /// For each difference of the proof, in cause order, the positions in the translation's
    /// notes of those that explain it (empty: the writer's fault, not the Gateway API's).
    pub explained_by: Vec<Vec<usize>>,
}

impl Conversion {
    /// Every difference the proof found that no note of the report explains: what the writer
    /// got wrong rather than what the Gateway API cannot say.
    pub fn unexplained(&self) -> Vec<&MigrationDifference> {
        self.explanations().into_iter().filter(|(_, notes)| notes.is_empty()).map(|(d, _)| d).collect()
    }

    /// Each difference (in cause order) with the report's notes that explain it
    /// ([`explained_by`](Self::explained_by)).
    pub fn explanations(&self) -> Vec<(&MigrationDifference, Vec<&Note>)> {
        let differences = self.proof.causes.iter().flat_map(|c| &c.differences);
        differences
            .zip(&self.explained_by)
            .map(|(d, notes)| (d, notes.iter().filter_map(|&n| self.translation.notes.get(n)).collect()))
            .collect()
    }
}

/// For each difference of `proof` (in cause order), the positions in `translation.notes` of the
/// notes that explain it: those (not translated) of the Ingress whose rule answered on the
/// ingress-nginx side or whose path the probe came from, those of the probe's host (a wildcard's
/// note covers the hosts under it), and for HTTPS the Gateway's note on hosts without `tls`.
fn explanation_indices(translation: &Translation, proof: &MigrationReport) -> Vec<Vec<usize>> {
    let mut by_ingress: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_host: HashMap<String, Vec<usize>> = HashMap::new();
    let mut https_notes: Vec<usize> = Vec::new();
    for (i, note) in translation.notes.iter().enumerate() {
        if note.outcome == Outcome::Translated {
            continue;
        }
        if let Some(host) = &note.host {
            by_host.entry(host.to_ascii_lowercase()).or_default().push(i);
        } else if note.what == translate::HTTPS_WITHOUT_TLS {
            https_notes.push(i);
        } else if !note.ingress.is_empty() {
            by_ingress.entry(note.ingress.as_str()).or_default().push(i);
        }
    }
    let ingress_of = |text: &str| text.split(' ').next().unwrap_or_default().to_string();
    proof
        .causes
        .iter()
        .flat_map(|c| &c.differences)
        .map(|d| {
            let mut notes: Vec<usize> = Vec::new();
            let rule = d.ingress.rule.as_deref().and_then(|r| r.strip_prefix("Ingress ")).map(ingress_of);
            for ingress in rule.into_iter().chain(core::iter::once(ingress_of(&d.probe.from))) {
                notes.extend(by_ingress.get(ingress.as_str()).into_iter().flatten());
            }
            let host = d.probe.url.split("://").nth(1).and_then(|r| r.split(['/', '?']).next()).unwrap_or_default();
            let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
            notes.extend(by_host.get(&host).into_iter().flatten());
            for (i, _) in host.match_indices('.') {
                notes.extend(by_host.get(&format!("*{}", &host[i..])).into_iter().flatten());
            }
            if d.probe.url.starts_with("https://") {
                notes.extend(&https_notes);
            }
            notes.sort_unstable();
            notes.dedup();
            notes
        })
        .collect()
}

/// Writes the Gateway API objects for the input's ingress-nginx Ingresses (an
/// existing Gateway when `options.gateway` names one) and proves them: [`migrate()`] on the
/// Ingresses against what was written.
pub fn convert(input: &Input, options: &CompileOptions, migrate_options: &MigrateOptions) -> Conversion {
    let ingresses: Vec<Object> = input.objects.iter().map(|o| o.object.clone()).collect();
    // Without a class named, the estate is ingress-nginx's: the class its controller owns, when
    // the input has exactly one such IngressClass (else every Ingress, as `route` takes them).
    let mut options = options.clone();
    if options.ingress_class.is_none() {
        let owned: Vec<&str> = ingresses
            .iter()
            .filter_map(|o| match o {
                Object::IngressClass(c) if c.spec.controller.as_deref() == Some(INGRESS_NGINX_CONTROLLER) => {
                    Some(c.metadata.name.as_str())
                }
                _ => None,
            })
            .collect();
        if let [class] = owned.as_slice() {
            options.ingress_class = Some(class.to_string());
        }
    }
    let options = &options;
    let named = options.gateway.as_deref().map(|g| g.split_once('/').unwrap_or(("default", g)));
    let translation = translate(&ingresses, options, named, migrate_options);
    let mut both = input.clone();
    // The proof sees the Ingress side, the Namespaces, the named Gateway and what was written.
    both.gateway_api.retain(|g| {
        let kind = g.value["kind"].as_str().unwrap_or_default();
        let meta = &g.value["metadata"];
        let namespace = meta["namespace"].as_str().unwrap_or("default");
        kind == "Namespace"
            || (kind == "Gateway" && named.is_some_and(|(ns, name)| ns == namespace && meta["name"] == name))
            || (kind == "GatewayClass")
    });
    let yaml = translation.yaml();
    // What was written reads back: a failure here is this writer's, said in the proof's words.
    match crate::input::parse_with_limit("migrate output", &yaml, yaml.len().saturating_add(1)) {
        Ok(written) => both.extend(written),
        Err(e) => both.errors.push(e),
    }
    let proof_options = options.clone().with_gateway(Some(translation.gateway.clone()));
    let proof = migrate(&both, &proof_options, Profile::IngressNginx);
    let explained_by = explanation_indices(&translation, &proof);
    Conversion { translation, proof, explained_by }
}

/// Routes every probe derived from both sides through the Ingresses of `ingresses` (compiled with
/// `options`, profile `from`) and through the Gateway API objects `gateway_api` (as
/// the input keeps them; the Services of
/// `ingresses` join them) compiled with `gateway_options`, and groups the requests whose answers
/// differ by cause.
///
/// ```
/// use ingress_router::{input, migrate, CompileOptions, Profile};
/// let yaml = r#"
/// apiVersion: networking.k8s.io/v1
/// kind: Ingress
/// metadata: {name: docs, namespace: web}
/// spec:
///   rules:
///   - host: docs.example.com
///     http: {paths: [{path: /guide/, pathType: Prefix, backend: {service: {name: docs, port: {number: 80}}}}]}
/// ---
/// apiVersion: gateway.networking.k8s.io/v1
/// kind: Gateway
/// metadata: {name: public, namespace: web}
/// spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}
/// ---
/// apiVersion: gateway.networking.k8s.io/v1
/// kind: HTTPRoute
/// metadata: {name: docs, namespace: web}
/// spec:
///   parentRefs: [{name: public}]
///   hostnames: [docs.example.com]
///   rules: [{matches: [{path: {value: /guide/}}], backendRefs: [{name: docs, port: 80}]}]
/// "#;
/// let input = input::parse("all.yaml", yaml).unwrap();
/// let report = migrate(&input, &CompileOptions::default(), Profile::IngressNginx);
/// // ingress-nginx answers `/guide` with a redirect to `/guide/`; the HTTPRoute forwards it.
/// let slash = report.causes.iter().find(|c| c.cause.as_str() == "trailing-slash-redirect").unwrap();
/// assert_eq!(slash.differences[0].ingress.redirect.as_deref(), Some("http://docs.example.com/guide/"));
/// // And it served HTTPS on the host (its default certificate); the Gateway has no HTTPS listener.
/// assert!(report.causes.iter().any(|c| c.cause.as_str() == "https-default-certificate"));
/// ```
pub fn migrate(input: &Input, options: &CompileOptions, from: Profile) -> MigrationReport {
    let mut warnings = Vec::new();
    let ingresses = last_applied(
        input.objects.iter().map(|o| o.object.clone()).collect(),
        |o| (o.kind().to_string(), o.metadata().namespace_or_default().to_string(), o.metadata().name.clone()),
        &mut warnings,
    );
    let ingresses: &[Object] = &ingresses;
    let gateway_api = last_applied(
        input.gateway_api.iter().map(|g| g.value.clone()).collect(),
        |v| {
            let text = |p: &str| v.pointer(p).and_then(serde_json::Value::as_str).unwrap_or_default().to_string();
            (text("/kind"), text("/metadata/namespace"), text("/metadata/name"))
        },
        &mut warnings,
    );
    let not_compared: Vec<String> = gateway_api
        .iter()
        .filter_map(|v| {
            let kind = v["kind"].as_str().unwrap_or_default();
            let routed = ["Gateway", "GatewayClass", "HTTPRoute", "GRPCRoute", "ReferenceGrant", "Namespace"];
            (!routed.contains(&kind)).then(|| {
                let meta = &v["metadata"];
                format!(
                    "{kind} {}/{}: not compared (only HTTPRoutes and GRPCRoutes are routed here)",
                    meta["namespace"].as_str().unwrap_or("default"),
                    meta["name"].as_str().unwrap_or_default()
                )
            })
        })
        .collect();
    let objects = &Objects::from_input(&gateway_api, ingresses);
    let mut ingress_options = options.clone().with_profile(from);
    ingress_options.gateway = None;
    let router = compile(ingresses, &ingress_options);
    let gateway = gateway::compile(objects, &GatewayOptions::from(options));
    let left_out: Vec<String> =
        router.table().excluded.iter().map(|e| format!("Ingress {}/{}: {}", e.namespace, e.name, e.reason)).collect();
    if let Some(why) = gateway.no_gateway() {
        return MigrationReport {
            from,
            gateway: None,
            probes: 0,
            causes: Vec::new(),
            agreed: Vec::new(),
            pinned: TestsFile::default(),
            no_gateway: Some(why.to_string()),
            left_out,
            not_compared,
            warnings,
        };
    }
    let facts = Facts::of(ingresses, objects, from);
    let probes = probes(ingresses, objects, &gateway);
    let mut groups: BTreeMap<Cause, Vec<MigrationDifference>> = BTreeMap::new();
    let mut agreed = Vec::new();
    for probe in &probes {
        let (a, b) = (ingress_answer(&router, ingresses, probe), gateway_answer(&gateway, probe));
        if a.same_as(&b) {
            agreed.push((probe.clone(), a));
        } else {
            let cause = facts.cause(probe, &a, &b);
            groups.entry(cause).or_default().push(MigrationDifference { probe: probe.clone(), ingress: a, gateway: b });
        }
    }
    let requests = agreed
        .iter()
        .map(|(probe, _)| (Some(format!("{} {} ({})", probe.kind, probe.url, probe.from)), probe.request()))
        .collect();
    // Probes are well-formed URLs: pinning them cannot fail.
    let pin_options = CompileOptions { gateway: Some(gateway.gateway_name()), ..CompileOptions::default() };
    let route = |r: &crate::Request<'_>| gateway::glue::route(&gateway, r).view(r);
    let pinned = tests_file::pin_by(requests, route, pin_options).unwrap_or_default();
    MigrationReport {
        from,
        gateway: gateway.gateway().map(|_| gateway.gateway_name()),
        pinned,
        probes: probes.len(),
        causes: groups
            .into_iter()
            .map(|(cause, differences)| CauseGroup { cause, title: cause.title(), advice: cause.advice(), differences })
            .collect(),
        agreed,
        no_gateway: None,
        left_out,
        not_compared,
        warnings,
    }
}

/// `items` with only the last of each key (`kind`, `namespace`, `name`): what a cluster holds
/// after applying them in order. Each key given more than once gets a warning.
fn last_applied<T>(items: Vec<T>, key: impl Fn(&T) -> (String, String, String), warnings: &mut Vec<String>) -> Vec<T> {
    let mut last: HashMap<(String, String, String), usize> = HashMap::new();
    let mut counts: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let k = key(item);
        *counts.entry(k.clone()).or_default() += 1;
        last.insert(k, i);
    }
    for ((kind, namespace, name), n) in counts.into_iter().filter(|(_, n)| *n > 1) {
        let namespace = if namespace.is_empty() { String::new() } else { format!("{namespace}/") };
        warnings.push(format!(
            "{kind} {namespace}{name} is given {n} times: the last one is compared, as a cluster keeps the last one \
             applied"
        ));
    }
    items.into_iter().enumerate().filter(|(i, item)| last.get(&key(item)) == Some(i)).map(|(_, item)| item).collect()
}

/// The probe set: the Ingress side's (as [`diff`](crate::diff()) derives it), canaries, and the
/// Gateway API side's (each route hostname, wildcard depths, each match with its method, headers
/// and query).
fn probes(ingresses: &[Object], objects: &Objects, gateway: &GatewayRouter) -> Vec<MigrationProbe> {
    let mut out: Vec<MigrationProbe> = Vec::new();
    // Each request once: a set, not a scan of the probes so far (50 000 probes for 10 000 routes).
    let mut seen = HashSet::new();
    let mut push = |p: MigrationProbe| {
        if seen.insert((p.url.clone(), p.method.clone(), p.headers.clone())) {
            out.push(p);
        }
    };
    // A gRPC backend (`backend-protocol: GRPC` or `GRPCS`) takes gRPC calls only: its paths are
    // probed with gRPC calls (below), not with plain requests.
    let grpc = |i: &Ingress| {
        annotation(i, "backend-protocol")
            .is_some_and(|p| p.eq_ignore_ascii_case("grpc") || p.eq_ignore_ascii_case("grpcs"))
    };
    let grpc_keys: Vec<String> = ingresses
        .iter()
        .filter_map(as_ingress)
        .filter(|i| grpc(i))
        .map(|i| format!("{}/{} ", i.metadata.namespace_or_default(), i.metadata.name))
        .collect();
    for p in diff::probes(ingresses) {
        if grpc_keys.iter().any(|k| p.rule.starts_with(k.as_str())) {
            continue;
        }
        let probe = from_probe(&p);
        let (scheme, host, target) = parts(&probe.url);
        // A regex example is often upper-case (`/[A-Z]{3}`): its lower-case twin tests the case.
        let lower = (p.kind == "at" && target.chars().any(|c| c.is_ascii_uppercase())).then(|| MigrationProbe {
            url: format!("{scheme}://{host}{}", target.to_ascii_lowercase()),
            kind: "case",
            ..probe.clone()
        });
        // Each declared path also with a query (redirects keep or drop it) and over HTTPS
        // (ingress-nginx serves every host on 443).
        let twins = (p.kind == "at" || p.kind == "root").then(|| {
            let separator = if target.contains('?') { '&' } else { '?' };
            let query = MigrationProbe {
                url: format!("{scheme}://{host}{target}{separator}probe=1"),
                kind: "query",
                ..probe.clone()
            };
            let https = (scheme == "http").then(|| MigrationProbe {
                url: format!("https://{host}{target}"),
                kind: "https",
                ..probe.clone()
            });
            (query, https)
        });
        push(probe);
        if let Some(lower) = lower {
            push(lower);
        }
        if let Some((query, https)) = twins {
            push(query);
            if let Some(https) = https {
                push(https);
            }
        }
    }
    // Each path of a gRPC backend: a gRPC call (POST, the gRPC content type) at `/SERVICE/METHOD`
    // under the path.
    for ingress in ingresses.iter().filter_map(as_ingress).filter(|i| grpc(i)) {
        for p in
            diff::probes(&[Object::Ingress(ingress.clone())]).into_iter().filter(|p| matches!(p.kind, "at" | "root"))
        {
            let mut probe = from_probe(&p);
            let (scheme, host, target) = parts(&probe.url);
            let path = target.split('?').next().unwrap_or("/");
            let call = match path.trim_matches('/').split('/').filter(|s| !s.is_empty()).count() {
                0 => String::from("/grpc.probe.Service/Call"),
                1 => format!("{}/Call", path.trim_end_matches('/')),
                _ => path.to_string(),
            };
            probe.url = format!("{scheme}://{host}{call}");
            probe.method = "POST".into();
            probe.headers = alloc::vec![("content-type".into(), "application/grpc".into())];
            probe.kind = "grpc";
            push(probe);
        }
    }
    // `from-to-www-redirect`: the other name of each host.
    for ingress in
        ingresses.iter().filter_map(as_ingress).filter(|i| annotation(i, "from-to-www-redirect") == Some("true"))
    {
        for host in Facts::hosts(ingress).filter(|h| !h.is_empty() && !h.starts_with('*')) {
            let other = match host.strip_prefix("www.") {
                Some(bare) => bare.to_string(),
                None => format!("www.{host}"),
            };
            let from =
                format!("{}/{} from-to-www-redirect", ingress.metadata.namespace_or_default(), ingress.metadata.name);
            for target in ["/", "/x/", "/x?probe=1"] {
                push(MigrationProbe {
                    method: "GET".into(),
                    url: format!("http://{other}{target}"),
                    headers: Vec::new(),
                    kind: "www",
                    from: from.clone(),
                });
            }
        }
    }
    for ingress in ingresses.iter().filter_map(as_ingress) {
        for (name, value) in canary_headers(ingress) {
            for p in diff::probes(&[Object::Ingress(ingress.clone())])
                .into_iter()
                .filter(|p| matches!(p.kind, "at" | "root"))
            {
                let mut probe = from_probe(&p);
                probe.kind = "canary";
                probe.headers = alloc::vec![(name.clone(), value.clone())];
                push(probe);
            }
        }
    }
    // The scheme a route's requests arrive with: http when the Gateway listens for it.
    let https_only = gateway
        .objects()
        .gateways
        .iter()
        .all(|g| g.spec.listeners.iter().all(|l| l.protocol.eq_ignore_ascii_case("HTTPS")));
    let scheme = if https_only && !objects.gateways.is_empty() { "https" } else { "http" };
    for route in &objects.routes {
        let key = format!("{}/{}", route.metadata.namespace, route.metadata.name);
        let mut hosts: Vec<String> = route.spec.hostnames.iter().flat_map(|h| diff::example_hosts(h)).collect();
        if hosts.is_empty() {
            let listener_hosts = objects
                .gateways
                .iter()
                .flat_map(|g| g.spec.listeners.iter())
                .filter_map(|l| l.hostname.as_deref())
                .flat_map(diff::example_hosts);
            hosts.extend(listener_hosts);
        }
        if hosts.is_empty() {
            hosts.push("unknown-host.example".into());
        }
        for (r, rule) in route.spec.rules.iter().enumerate() {
            for (m, matched) in rule.matches.iter().enumerate() {
                let raw = &matched.path.value;
                let targets = match (&matched.grpc, matched.path.kind) {
                    // A GRPCRoute match: the one call it names (`/SERVICE/METHOD`, a part not given
                    // standing for any: `Call`, `grpc.probe.Service`).
                    (Some(grpc), _) => {
                        let part = |p: &Option<String>, any: &str| match (grpc.kind, p.as_deref()) {
                            (ValueMatchType::Exact, Some(p)) if !p.is_empty() => p.to_string(),
                            (ValueMatchType::RegularExpression, Some(p)) if !p.is_empty() => diff::regex_example(p),
                            _ => any.to_string(),
                        };
                        alloc::vec![(
                            "grpc",
                            format!("/{}/{}", part(&grpc.service, "grpc.probe.Service"), part(&grpc.method, "Call"))
                        )]
                    }
                    (None, PathMatchType::RegularExpression) => {
                        alloc::vec![
                            ("regex", diff::regex_example(raw)),
                            ("case", diff::regex_example(raw).to_ascii_uppercase())
                        ]
                    }
                    (None, _) => diff::path_probes(raw),
                };
                let headers: Vec<(String, String)> = matched
                    .headers
                    .iter()
                    .map(|h| {
                        let value = match h.kind {
                            ValueMatchType::Exact => h.value.clone(),
                            ValueMatchType::RegularExpression => diff::regex_example(&h.value),
                        };
                        (h.name.clone(), value)
                    })
                    .collect();
                let query: Vec<String> = matched
                    .query_params
                    .iter()
                    .map(|q| match q.kind {
                        ValueMatchType::Exact => format!("{}={}", q.name, q.value),
                        ValueMatchType::RegularExpression => format!("{}={}", q.name, diff::regex_example(&q.value)),
                    })
                    .collect();
                let mut headers = headers;
                let method = match route.kind {
                    // A gRPC call: POST with the gRPC content type.
                    crate::gateway::model::RouteType::Grpc => {
                        headers.push(("content-type".into(), "application/grpc".into()));
                        "POST".into()
                    }
                    crate::gateway::model::RouteType::Http => matched.method.clone().unwrap_or_else(|| "GET".into()),
                };
                let from = format!("{} {key} rules[{r}].matches[{m}]", route.kind.as_str());
                for host in &hosts {
                    let kind_of_host =
                        if host.split('.').count() > 2 && route.spec.hostnames.iter().any(|h| h.starts_with("*.")) {
                            Some("wildcard")
                        } else {
                            None
                        };
                    for (kind, target) in &targets {
                        let target = if query.is_empty() {
                            target.clone()
                        } else {
                            format!("{target}{}{}", if target.contains('?') { "&" } else { "?" }, query.join("&"))
                        };
                        push(MigrationProbe {
                            method: method.clone(),
                            url: format!("{scheme}://{host}{target}"),
                            headers: headers.clone(),
                            kind: kind_of_host.unwrap_or(kind),
                            from: from.clone(),
                        });
                    }
                    // The same request without the route's conditions: what the old side did with it.
                    if !headers.is_empty() || !query.is_empty() || method != "GET" {
                        let (_, target) = &targets[0];
                        push(MigrationProbe {
                            method: "GET".into(),
                            url: format!("{scheme}://{host}{target}"),
                            headers: Vec::new(),
                            kind: "match",
                            from: from.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

impl MigrationProbe {
    /// The probe as a tests file's request.
    pub fn request(&self) -> RequestSpec {
        let mut spec = RequestSpec::url(self.url.clone());
        spec.method = Some(self.method.clone());
        spec.headers = self.headers.iter().cloned().collect();
        spec
    }
}

fn from_probe(p: &Probe) -> MigrationProbe {
    MigrationProbe { method: "GET".into(), url: p.url(), headers: Vec::new(), kind: p.kind, from: p.rule.clone() }
}

fn as_ingress(o: &Object) -> Option<&Ingress> {
    if let Object::Ingress(i) = o { Some(i) } else { None }
}

fn annotation<'a>(ingress: &'a Ingress, name: &str) -> Option<&'a str> {
    ingress.metadata.annotations.get(&format!("{PREFIX}{name}")).map(String::as_str)
}

/// The headers that send a request to a canary Ingress: its header (`always`, or its value) and
/// its cookie (`always`).
fn canary_headers(ingress: &Ingress) -> Vec<(String, String)> {
    if annotation(ingress, "canary") != Some("true") {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(header) = annotation(ingress, "canary-by-header") {
        let value = annotation(ingress, "canary-by-header-value").unwrap_or("always");
        out.push((header.to_string(), value.to_string()));
    }
    if let Some(cookie) = annotation(ingress, "canary-by-cookie") {
        out.push(("cookie".to_string(), format!("{cookie}=always")));
    }
    out
}

/// Splits `url` into scheme, host and target.
fn parts(url: &str) -> (&str, &str, &str) {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let (host, target) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    (scheme, host, target)
}

fn path_of(target: &str) -> &str {
    target.split('?').next().unwrap_or(target)
}

fn ingress_answer(router: &Router, objects: &[Object], probe: &MigrationProbe) -> Answer {
    let (scheme, host, target) = parts(&probe.url);
    let headers: Vec<(&str, &str)> = probe.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let scheme = if scheme == "https" { Scheme::Https } else { Scheme::Http };
    let request = Request::new(host, target).with_scheme(scheme).with_headers(&headers);
    let d = router.route(&request);
    let backend = |b: BackendRef<'_>| match b {
        BackendRef::Service { namespace, name, port } => {
            let port = match port {
                Some(ServicePort::Number(n)) => n.to_string(),
                Some(ServicePort::Name(p)) => {
                    service_port(objects, namespace, name, p).unwrap_or_else(|| p.to_string())
                }
                None => String::new(),
            };
            format!("{namespace}/{name}:{port}")
        }
        BackendRef::Resource { namespace, api_group, kind, name } => format!("{namespace}/{api_group}/{kind}/{name}"),
    };
    let mut answer = Answer {
        status: 404,
        backend: None,
        split: Vec::new(),
        redirect: None,
        upstream_path: None,
        rule: d.matched().map(|m| {
            format!(
                "Ingress {} host {} path {} ({})",
                m.ingress,
                if m.host.is_empty() { "(any)" } else { m.host },
                m.path,
                m.path_type.as_str()
            )
        }),
        reason: String::new(),
    };
    match d.via() {
        Via::Rule | Via::DefaultBackend => {
            answer.status = 200;
            if let Some(split) = d.split() {
                answer.split = shares(split.iter().map(|w| (backend(w.backend), w.weight)).collect());
            } else {
                answer.backend = d.backend().map(backend);
            }
            let upstream = d.upstream_path().unwrap_or(target);
            answer.upstream_path = Some(path_of(upstream).to_string());
        }
        Via::Redirect => {
            if let Some(r) = d.redirect() {
                answer.status = r.status;
                answer.redirect = Some(r.location.to_string());
            }
        }
        Via::Rejected => answer.status = 400,
        _ => {}
    }
    answer.reason = match router.options().profile {
        Profile::IngressNginx => router.nginx_rule(&request).unwrap_or_default(),
        Profile::Spec => match (d.via(), d.matched()) {
            (Via::Rule, Some(m)) => format!("{} {} is the longest match", m.path_type.as_str(), m.path),
            (Via::DefaultBackend, _) => "no path matches: the defaultBackend answers".into(),
            (Via::Rejected, _) => d.rejection().map(|r| r.to_string()).unwrap_or_default(),
            _ => "no path matches and there is no defaultBackend: 404".into(),
        },
    };
    answer
}

/// A named Service port's number, from the Services of the input.
fn service_port(objects: &[Object], namespace: &str, name: &str, port: &str) -> Option<String> {
    objects.iter().find_map(|o| match o {
        Object::Service(s) if s.metadata.name == name && s.metadata.namespace_or_default() == namespace => {
            s.spec.ports.iter().find(|p| p.name.as_deref() == Some(port)).map(|p| p.port.to_string())
        }
        _ => None,
    })
}

/// Weights as percentages (rounded), so that 90/10 and 9/1 compare equal.
fn shares(weights: Vec<(String, u32)>) -> Vec<(String, u32)> {
    let total: u64 = weights.iter().map(|(_, w)| u64::from(*w)).sum();
    let mut out: Vec<(String, u32)> = weights
        .into_iter()
        .filter(|(_, w)| *w > 0)
        .map(|(b, w)| (b, (u64::from(w) * 100 + total / 2).checked_div(total).unwrap_or(0) as u32))
        .collect();
    out.sort();
    out
}

fn gateway_answer(router: &GatewayRouter, probe: &MigrationProbe) -> Answer {
    let (scheme, host, target) = parts(&probe.url);
    let headers: Vec<(&str, &str)> = probe.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let request =
        GatewayRequest::new(host, target).with_scheme(scheme).with_method(&probe.method).with_headers(&headers);
    let view = router.route(&request).view(&request);
    let parts = view.gateway.as_ref();
    let forwarded = view.status == 200;
    let split = view.split.as_deref().unwrap_or_default();
    Answer {
        status: view.status,
        // One backend: the label is `namespace/name:port`.
        backend: view.backend.as_ref().filter(|_| split.is_empty()).map(|_| view.label.clone()),
        split: shares(split.iter().map(|s| (s.label.clone(), s.weight)).collect()),
        redirect: view.redirect.as_ref().map(|r| r.location.clone()),
        upstream_path: match forwarded {
            true => parts.and_then(|g| g.upstream.as_ref()).map(|u| path_of(&u.path).to_string()),
            false => None,
        },
        rule: parts.and_then(|g| {
            let route = g.route.as_ref()?;
            Some(format!("HTTPRoute {route} rules[{}].matches[{}]", g.rule.unwrap_or(0), g.match_index.unwrap_or(0)))
        }),
        reason: match parts.and_then(|g| g.route.as_ref()) {
            Some(_) => format!("{} (listener {})", view.via, parts.and_then(|g| g.listener.as_deref()).unwrap_or("?")),
            None => format!("{}: no attached rule matches", view.via),
        },
    }
}

/// What the Ingresses and the routes say about hosts, read once into sets: each differing probe
/// asks about its host with a few hash probes, not a scan of every Ingress and route.
struct Facts<'a> {
    ingresses: Vec<&'a Ingress>,
    /// The Ingresses (positions) with a rule for each host, and for each wildcard's suffix (`*.x`
    /// under `x`).
    by_host: HashMap<&'a str, Vec<usize>>,
    by_wildcard: HashMap<&'a str, Vec<usize>>,
    /// Whether some Ingress rule has no host (it takes every host).
    ingress_any_host: bool,
    /// The routes' hostnames in lower case, the suffixes after their `*` and those suffixes'
    /// lengths, and whether some route has none.
    route_hosts: HashSet<String>,
    route_suffixes: HashSet<&'a str>,
    suffix_lengths: Vec<usize>,
    route_any_host: bool,
    /// The hosts some Ingress names under `tls` (lower case).
    tls_hosts: HashSet<String>,
    /// Whether the Ingresses route as ingress-nginx does: its behaviours (regex locations,
    /// rewrite-target, canaries, the default certificate) explain differences only then; under
    /// the spec profile its annotations mean nothing.
    nginx: bool,
}

impl<'a> Facts<'a> {
    fn of(objects: &'a [Object], gateway: &'a Objects, from: Profile) -> Self {
        let ingresses: Vec<&Ingress> = objects.iter().filter_map(as_ingress).collect();
        let (mut by_host, mut by_wildcard) = (HashMap::new(), HashMap::new());
        let mut ingress_any_host = false;
        for (i, ingress) in ingresses.iter().enumerate() {
            for host in Self::hosts(ingress) {
                ingress_any_host |= host.is_empty();
                let list: &mut Vec<usize> = by_host.entry(host).or_default();
                if list.last() != Some(&i) {
                    list.push(i);
                }
                if let Some(suffix) = host.strip_prefix("*.") {
                    let list: &mut Vec<usize> = by_wildcard.entry(suffix).or_default();
                    if list.last() != Some(&i) {
                        list.push(i);
                    }
                }
            }
        }
        let routes = &gateway.routes;
        let mut route_hosts = HashSet::new();
        let mut route_suffixes = HashSet::new();
        for h in routes.iter().flat_map(|r| &r.spec.hostnames) {
            match h.strip_prefix('*') {
                Some(suffix) => {
                    route_suffixes.insert(suffix);
                }
                None => {
                    route_hosts.insert(h.to_ascii_lowercase());
                }
            }
        }
        let tls_hosts =
            ingresses.iter().flat_map(|i| &i.spec.tls).flat_map(|t| &t.hosts).map(|h| h.to_ascii_lowercase()).collect();
        let mut suffix_lengths: Vec<usize> = route_suffixes.iter().map(|s| s.len()).collect();
        suffix_lengths.sort_unstable();
        suffix_lengths.dedup();
        Facts {
            ingresses,
            by_host,
            by_wildcard,
            ingress_any_host,
            route_hosts,
            route_suffixes,
            suffix_lengths,
            route_any_host: routes.iter().any(|r| r.spec.hostnames.is_empty()),
            tls_hosts,
            nginx: from == Profile::IngressNginx,
        }
    }

    fn hosts(ingress: &Ingress) -> impl Iterator<Item = &str> {
        ingress.spec.rules.iter().flatten().map(|r| r.host.as_deref().unwrap_or(""))
    }

    /// The Ingresses with a rule for `host` (exactly, or by a one-label wildcard), in input order.
    fn on_host(&self, host: &str) -> Vec<&'a Ingress> {
        let mut found: Vec<usize> = self.by_host.get(host).cloned().unwrap_or_default();
        // `*.x` covers `label.x` (one label, not empty).
        if let Some((label, rest)) = host.split_once('.')
            && !label.is_empty()
        {
            found.extend(self.by_wildcard.get(rest).into_iter().flatten());
        }
        found.sort_unstable();
        found.dedup();
        found.into_iter().map(|i| self.ingresses[i]).collect()
    }

    fn regex_annotated(ingress: &Ingress) -> bool {
        annotation(ingress, "use-regex") == Some("true") || annotation(ingress, "rewrite-target").is_some()
    }

    /// The first cause that explains the difference, most specific first.
    fn cause(&self, probe: &MigrationProbe, ingress: &Answer, gateway: &Answer) -> Cause {
        let (scheme, host, target) = parts(&probe.url);
        let path = path_of(target);
        if let Some(location) = &ingress.redirect {
            let to_host =
                location.split("://").nth(1).and_then(|r| r.split(['/', ':', '?']).next()).unwrap_or_default();
            let www = |a: &str, b: &str| a.strip_prefix("www.").is_some_and(|a| a.eq_ignore_ascii_case(b));
            if www(host, to_host) || www(to_host, host) {
                return Cause::WwwRedirect;
            }
            let without_query = |l: &str| same_url(l.split('?').next().unwrap_or(l));
            if let Some(other) = &gateway.redirect
                && ingress.status == gateway.status
                && without_query(location) == without_query(other)
            {
                return Cause::RedirectQuery;
            }
            if scheme == "http" && location.starts_with("https://") && location[8..].starts_with(host) {
                return Cause::SslRedirect;
            }
            if location.ends_with(&format!("{path}/")) && gateway.redirect.is_none() {
                return Cause::TrailingSlashRedirect;
            }
        }
        if gateway.reason.starts_with(Via::NoListener.as_str()) && ingress.status != 404 {
            if self.nginx && scheme == "https" && !self.tls_hosts.contains(&host.to_ascii_lowercase()) {
                return Cause::HttpsDefaultCertificate;
            }
            return Cause::ListenerMissing;
        }
        // A wildcard `*.x` whose `x` the host ends with after two labels or more.
        let deep_wildcard = host
            .match_indices('.')
            .any(|(i, _)| host[..i].contains('.') && self.by_wildcard.contains_key(&host[i + 1..]));
        if deep_wildcard && ingress.status == 404 {
            return Cause::WildcardDepth;
        }
        let on_host = self.on_host(host);
        let ingress_serves = !on_host.is_empty() || self.ingress_any_host;
        if ingress_serves != self.gateway_serves(host) {
            return Cause::HostMissing;
        }
        if self.nginx
            && (!probe.headers.is_empty() && probe.kind == "canary"
                || !ingress.split.is_empty()
                || !gateway.split.is_empty())
        {
            return Cause::Canary;
        }
        let regex_host = self.nginx && on_host.iter().any(|i| Self::regex_annotated(i));
        let matched_differently = ingress.status != gateway.status || ingress.backend != gateway.backend;
        if regex_host && matched_differently {
            let winner = ingress.rule.as_deref().and_then(|r| {
                on_host.iter().find(|i| {
                    r.starts_with(&format!("Ingress {}/{} ", i.metadata.namespace_or_default(), i.metadata.name))
                })
            });
            return match winner {
                Some(w) if !Self::regex_annotated(w) => Cause::UseRegexWholeHost,
                _ if probe.kind == "case" => Cause::RegexCaseInsensitive,
                Some(w) if annotation(w, "use-regex") != Some("true") => Cause::RewriteTargetImpliesRegex,
                _ => Cause::RegexPrefix,
            };
        }
        if ingress.status == gateway.status
            && ingress.backend == gateway.backend
            && ingress.upstream_path != gateway.upstream_path
        {
            let captures =
                self.nginx && on_host.iter().any(|i| annotation(i, "rewrite-target").is_some_and(|t| t.contains('$')));
            return if captures { Cause::RewriteCaptureDropped } else { Cause::UpstreamPath };
        }
        Cause::DifferentRule
    }

    /// Whether some HTTPRoute takes `host`: it has no hostnames, one equal to the host (ignoring
    /// case), or a `*` whose suffix ends the host after at least one byte.
    fn gateway_serves(&self, host: &str) -> bool {
        self.route_any_host
            || self.route_hosts.contains(&host.to_ascii_lowercase())
            || self.suffix_lengths.iter().filter(|&&n| n < host.len()).any(|&n| {
                host.is_char_boundary(host.len() - n) && self.route_suffixes.contains(&host[host.len() - n..])
            })
    }
}
