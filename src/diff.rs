//! [`diff()`]: the requests whose answers differ between the `spec` and `ingress-nginx` profiles,
//! found from the rules themselves. Every path gives probe URLs (at it, under it, beside it, its
//! case variant, its trailing-slash twin, and for regex paths an example the regex matches), every
//! host its root, and a host no rule names; each probe is routed by both profiles and the
//! differences are grouped by host and rule, each with an example URL, both answers and the reason.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

use crate::decision::Via;
use crate::input::Input;
use crate::model::{Ingress, Object};
use crate::options::{CompileOptions, Profile};
use crate::request::{Request, RequestSpec, Scheme};
use crate::router::{Router, compile_objects as compile};
use crate::tests_file::{self, TestsFile};

/// One request to try, and the rule it was derived from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Probe {
    pub host: String,
    pub https: bool,
    /// Path and query.
    pub target: String,
    /// `namespace/name spec.rules[i].http.paths[j] (path pathType)`, or `namespace/name host root`.
    pub rule: String,
    /// Why this URL: `at`, `under`, `beside`, `case`, `slash`, `regex`, `root`, `default`.
    pub kind: &'static str,
}

impl Probe {
    pub fn url(&self) -> String {
        format!("{}://{}{}", if self.https { "https" } else { "http" }, self.host, self.target)
    }

    /// The probe as a request, scheme and all.
    pub fn request(&self) -> RequestSpec {
        RequestSpec::url(self.url())
    }
}

/// One profile's answer to a probe.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Outcome {
    /// `svc:80`, `404`, `redirect 301 http://host/x/`, `split(a:80 90, b:80 10)`, `400`; with ` (upstream path /y)`
    /// when ingress-nginx rewrites the path.
    pub answer: String,
    /// What decided, in that profile's words.
    pub reason: String,
}

/// A probe the two profiles answer differently.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Difference {
    pub probe: Probe,
    pub from: Outcome,
    pub to: Outcome,
}

/// The differences of one rule on one host.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct DiffGroup {
    pub host: String,
    pub rule: String,
    pub differences: Vec<Difference>,
}

/// All probes and the differences, grouped by host then rule.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct DiffReport {
    pub from: Profile,
    pub to: Profile,
    pub probes: usize,
    /// Sorted by host, then rule.
    pub groups: Vec<DiffGroup>,
    /// Every probe with the `from` profile's answer (for `--tests`).
    #[serde(skip)]
    pub pinned: TestsFile,
}

impl DiffReport {
    pub fn differences(&self) -> usize {
        self.groups.iter().map(|g| g.differences.len()).sum()
    }

    /// `N of M probe requests answer differently (R rules on H hosts)`.
    pub fn summary(&self) -> String {
        let hosts: Vec<&String> = self.groups.iter().map(|g| &g.host).collect();
        let mut distinct = hosts.clone();
        distinct.dedup();
        format!(
            "{} of {} probe requests answer differently between {} and {} ({} rule(s) on {} host(s))",
            self.differences(),
            self.probes,
            self.from.as_str(),
            self.to.as_str(),
            self.groups.len(),
            distinct.len()
        )
    }

    /// A tests file pinning the `from` profile's answers to every probe.
    pub fn tests_file(&self) -> String {
        let comment = format!(
            "Written by `ingress-router diff`: the {} profile's answers, to pin before migrating.",
            self.from.as_str()
        );
        tests_file::write(&self.pinned, &comment)
    }
}

/// Compares two profiles on every probe derived from `objects` (compiled with `options`, the
/// profile set to each side): the requests whose answers differ, grouped by host and rule.
///
/// ```
/// use ingress_router::{diff, input, CompileOptions, Profile};
/// let yaml = r#"
/// apiVersion: networking.k8s.io/v1
/// kind: Ingress
/// metadata:
///   name: api
///   annotations: {nginx.ingress.kubernetes.io/use-regex: "true"}
/// spec:
///   rules:
///   - host: api.example.com
///     http:
///       paths:
///       - {path: /v1/.*, pathType: ImplementationSpecific, backend: {service: {name: v1, port: {number: 80}}}}
/// "#;
/// let input = input::parse("api.yaml", yaml).unwrap();
/// let report = diff(&input, &CompileOptions::default(), Profile::IngressNginx, Profile::Spec);
/// assert!(report.differences() > 0); // the spec matches `/v1/.*` literally
/// let first = &report.groups[0].differences[0];
/// assert_eq!(first.from.answer, "v1:80");
/// ```
pub fn diff(input: &Input, options: &CompileOptions, from: Profile, to: Profile) -> DiffReport {
    diff_objects(&input.to_objects(), options, from, to)
}

/// [`diff`] for the objects of an input.
pub(crate) fn diff_objects(objects: &[Object], options: &CompileOptions, from: Profile, to: Profile) -> DiffReport {
    let from_router = compile(objects, &options.clone().with_profile(from));
    let to_router = compile(objects, &options.clone().with_profile(to));
    let probes = probes(objects);
    let requests = probes.iter().map(|p| (Some(format!("{} {} ({})", p.kind, p.url(), p.rule)), p.request())).collect();
    // Probes are well-formed URLs: pinning them cannot fail.
    let pinned = tests_file::pin(&from_router, requests).unwrap_or_default();
    let mut report = DiffReport { from, to, probes: probes.len(), groups: Vec::new(), pinned };
    let mut groups: BTreeMap<(String, String), Vec<Difference>> = BTreeMap::new();
    for probe in probes {
        let (a, b) = (outcome(&from_router, &probe), outcome(&to_router, &probe));
        if a.answer != b.answer {
            let key = (probe.host.clone(), probe.rule.clone());
            groups.entry(key).or_default().push(Difference { probe, from: a, to: b });
        }
    }
    report.groups =
        groups.into_iter().map(|((host, rule), differences)| DiffGroup { host, rule, differences }).collect();
    report
}

fn outcome(router: &Router, probe: &Probe) -> Outcome {
    let scheme = if probe.https { Scheme::Https } else { Scheme::Http };
    let request = Request::new(&probe.host, &probe.target).with_scheme(scheme);
    let d = router.route(&request);
    let mut answer = d.to_string();
    let path = crate::nginx::uri::split_target(probe.target.as_bytes()).0;
    if let Some(upstream) = d.upstream_path()
        && upstream.split('?').next() != core::str::from_utf8(path).ok()
    {
        answer.push_str(&format!(" (upstream path {upstream})"));
    }
    let reason = match router.options().profile {
        Profile::Spec => match (d.via(), d.matched()) {
            (Via::Rule, Some(m)) => format!(
                "{} {} of {} is the longest match (element-wise prefixes, case-sensitive)",
                m.path_type.as_str(),
                m.path,
                m.ingress
            ),
            (Via::DefaultBackend, _) => String::from("no path matches: the defaultBackend answers"),
            (Via::Rejected, _) => d.rejection().map(|r| r.to_string()).unwrap_or_default(),
            _ => String::from("no path matches and there is no defaultBackend: 404"),
        },
        Profile::IngressNginx => router.nginx_rule(&request).unwrap_or_default(),
    };
    Outcome { answer, reason }
}

/// Probe requests for every path and host of `objects`, without duplicates.
pub(crate) fn probes(objects: &[Object]) -> Vec<Probe> {
    let mut out: Vec<Probe> = Vec::new();
    // Each request once: a set, not a scan of the probes so far (10 000 paths make 50 000).
    let mut seen = hashbrown::HashSet::new();
    let mut push = |p: Probe| {
        if seen.insert((p.host.clone(), p.target.clone(), p.https)) {
            out.push(p);
        }
    };
    let ingresses: Vec<&Ingress> =
        objects.iter().filter_map(|o| if let Object::Ingress(i) = o { Some(i) } else { None }).collect();
    // nginx redirects http to https on a host any Ingress has TLS for: probe those over https.
    let tls_hosts: hashbrown::HashSet<&str> =
        ingresses.iter().flat_map(|i| &i.spec.tls).flat_map(|t| &t.hosts).map(String::as_str).collect();
    let tls = |host: &str| tls_hosts.contains(host);
    for ingress in &ingresses {
        let key = format!("{}/{}", ingress.metadata.namespace_or_default(), ingress.metadata.name);
        let aliases = ingress.metadata.annotations.get(&format!("{}server-alias", crate::nginx::annotations::PREFIX));
        for (r, rule) in ingress.spec.rules.iter().flatten().enumerate() {
            let rule_host = rule.host.as_deref().unwrap_or("");
            let tls = !rule_host.is_empty() && tls(rule_host);
            let mut hosts = example_hosts(rule_host);
            hosts.extend(
                aliases
                    .iter()
                    .flat_map(|a| a.split(','))
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty() && !a.contains(['*', '~'])),
            );
            let www =
                ingress.metadata.annotations.get(&format!("{}from-to-www-redirect", crate::nginx::annotations::PREFIX));
            if www.is_some_and(|v| v == "true") && !rule_host.is_empty() && !rule_host.starts_with('*') {
                hosts.push(match rule_host.strip_prefix("www.") {
                    Some(bare) => bare.to_string(),
                    None => format!("www.{rule_host}"),
                });
            }
            for host in hosts {
                push(Probe {
                    host: host.clone(),
                    https: tls,
                    target: "/".into(),
                    rule: format!("{key} host {}", or_any(rule_host)),
                    kind: "root",
                });
                if tls {
                    push(Probe {
                        host: host.clone(),
                        https: false,
                        target: "/".into(),
                        rule: format!("{key} host {} (http)", or_any(rule_host)),
                        kind: "root",
                    });
                }
                for (p, path) in rule.http.iter().flat_map(|h| h.paths.iter().enumerate()) {
                    let raw = path.path.as_deref().unwrap_or("/");
                    let rule_name = format!(
                        "{key} spec.rules[{r}].http.paths[{p}] ({raw} {})",
                        path.path_type.as_deref().unwrap_or("ImplementationSpecific")
                    );
                    for (kind, target) in path_probes(raw) {
                        push(Probe { host: host.clone(), https: tls, target, rule: rule_name.clone(), kind });
                    }
                }
            }
        }
    }
    // A host no rule names: the default backends answer it (an Ingress's `defaultBackend` in the
    // spec, the catch-all server in nginx), also where no Ingress has rules at all.
    if !ingresses.is_empty() {
        push(Probe {
            host: "unknown-host.example".into(),
            https: false,
            target: "/".into(),
            rule: "any other host (default backend)".into(),
            kind: "default",
        });
    }
    out
}

fn or_any(host: &str) -> &str {
    if host.is_empty() { "(any)" } else { host }
}

/// Hosts that reach a rule host: itself; for `*.foo.com` one label, two labels and the bare domain.
pub(crate) fn example_hosts(host: &str) -> Vec<String> {
    match host.strip_prefix("*.") {
        Some(suffix) => alloc::vec![format!("probe.{suffix}"), format!("a.probe.{suffix}"), suffix.to_string()],
        None if host.is_empty() => alloc::vec![String::from("unknown-host.example")],
        None => alloc::vec![host.to_string()],
    }
}

const REGEX_CHARS: &[char] = &['^', '$', '[', ']', '(', ')', '{', '}', '*', '+', '?', '|', '\\', '.'];

/// URLs around one path: at, under, beside, case variant, trailing-slash twin, regex corners.
pub(crate) fn path_probes(raw: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let regex = raw.contains(|c| REGEX_CHARS.contains(&c) && c != '.') || raw.contains(".*") || raw.contains(".+");
    let at = if regex { regex_example(raw) } else { raw.to_string() };
    let at = if at.starts_with('/') { at } else { format!("/{at}") };
    let stem = at.trim_end_matches('/');
    out.push(("at", at.clone()));
    out.push(("under", format!("{stem}/x")));
    if !stem.is_empty() {
        out.push(("beside", format!("{stem}x")));
        out.push(("slash", if at.ends_with('/') { stem.to_string() } else { format!("{at}/") }));
    }
    if at.chars().any(|c| c.is_ascii_lowercase()) {
        out.push(("case", at.to_ascii_uppercase()));
    }
    if regex {
        // The literal part before the first regex character: what a spec controller matches on.
        let literal: String = raw.chars().take_while(|c| !REGEX_CHARS.contains(c)).collect();
        if !literal.is_empty() {
            out.push(("regex", literal.clone()));
            out.push(("regex", format!("{literal}{}", if literal.ends_with('/') { "zz" } else { "/zz" })));
        }
        out.push(("regex", raw.to_string()));
    }
    out
}

/// A path the regex `^raw` (most likely) matches: one pass, first alternatives, one repetition.
pub(crate) fn regex_example(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::new();
    // Where the last single item (character, class, escape) starts in `out`, for `{n}`.
    let mut last_start = 0;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '^' | ')' | '*' | '+' | '?' => {}
            '$' => break,
            '\\' => {
                last_start = out.len();
                match chars.get(i + 1) {
                    Some('d') => out.push('1'),
                    Some('w') => out.push('a'),
                    Some('s') | None => {}
                    Some(&other) => out.push(other),
                }
                i += 1;
            }
            '[' => {
                last_start = out.len();
                let end = chars[i + 1..].iter().position(|&c| c == ']').map_or(chars.len(), |p| i + 1 + p);
                out.push(match chars.get(i + 1) {
                    Some('^') | Some(']') | None => 'z',
                    Some(&first) => first,
                });
                i = end;
            }
            '(' => {
                if chars.get(i + 1) == Some(&'?') {
                    // `(?:...)` or `(?<name>...)`: skip the group's header.
                    while i < chars.len() && !matches!(chars[i], ':' | '>') {
                        i += 1;
                    }
                }
            }
            '|' => {
                // Keep the first alternative: skip to the end of the group.
                let mut level = 0usize;
                while i + 1 < chars.len() {
                    i += 1;
                    match chars[i] {
                        '\\' => i += 1,
                        '(' => level += 1,
                        ')' if level == 0 => break,
                        ')' => level -= 1,
                        _ => {}
                    }
                }
            }
            '.' => {
                last_start = out.len();
                out.push('x');
            }
            '{' => {
                let end = chars[i..].iter().position(|&c| c == '}').map_or(chars.len(), |p| i + p);
                let digits: String = chars[i + 1..end].iter().take_while(|c| c.is_ascii_digit()).collect();
                let piece = out[last_start..].to_string();
                for _ in 1..digits.parse::<usize>().unwrap_or(1).min(16) {
                    out.push_str(&piece);
                }
                i = end;
            }
            c => {
                last_start = out.len();
                out.push(c);
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_examples() {
        assert_eq!(regex_example("/api(/|$)(.*)"), "/api/x");
        assert_eq!(regex_example("/id/[0-9]{3}$"), "/id/000");
        assert_eq!(regex_example("/foo/bar/(.+)"), "/foo/bar/x");
        assert_eq!(regex_example("/v\\d+/users"), "/v1/users");
        assert_eq!(regex_example("/(?:a|b)/c"), "/a/c");
    }

    #[test]
    fn probes_around_a_path() {
        let kinds: Vec<String> = path_probes("/api").into_iter().map(|(k, t)| format!("{k} {t}")).collect();
        assert_eq!(kinds, ["at /api", "under /api/x", "beside /apix", "slash /api/", "case /API"]);
    }
}
