//! Controller idioms the specification does not know: Ingresses written for one controller's
//! reading of a field or annotation, which the specification (and so this tool) routes otherwise.
//! Each is named with what the controller does, what the specification does instead, and what to do.
//!
//! - ingress-nginx `use-regex`/`rewrite-target`: every path of the host becomes a case-insensitive
//!   regular expression (`location ~* "^<path>"`), on every Ingress with a rule for that host.
//! - ingress-nginx canaries (`canary: "true"`): a second Ingress for the same host and path that
//!   takes a share of the traffic by weight, header or cookie.
//! - GKE and the AWS Load Balancer Controller read a trailing `/*` as "any path below".
//! - ALB `actions.<name>` and `conditions.<name>` annotations route by themselves.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::annotations::NGINX_PREFIX;
use super::controllers::ALB_PREFIX;
use super::{Diagnostic, ObjectRef, Severity, code};
use crate::model::{HttpIngressPath, Ingress, Object};
use crate::path::{ImplementationSpecific, PathType};

/// The idiom checks that read several Ingresses, over the Ingresses that take part; `mode` is how
/// ImplementationSpecific is routed.
pub(super) fn check_across(served: &[&Ingress], mode: ImplementationSpecific, out: &mut Vec<Diagnostic>) {
    check_nginx_regex_hosts(served, mode, out);
    for ingress in served {
        check_canary(ingress, served, out);
    }
}

/// The idiom checks on one Ingress that takes part, which read nothing else.
pub(super) fn check_own(ingress: &Ingress, mode: ImplementationSpecific, out: &mut Vec<Diagnostic>) {
    check_glob_paths(ingress, mode, out);
    check_alb_actions(ingress, out);
}

/// A path ending in `/*` with no other pattern character: GKE's and ALB's "everything below".
pub(super) fn is_glob_path(path: &str) -> bool {
    path.strip_suffix("/*")
        .is_some_and(|head| !head.contains(['*', '(', ')', '[', ']', '?', '+', '^', '$', '|', '{', '}', '\\']))
}

/// A backend `{name: N, port: {name: use-annotation}}` with an `actions.N` ALB annotation: the
/// controller answers with the action, there is no Service N.
pub(super) fn is_alb_action_backend(ingress: &Ingress, backend: &crate::model::IngressServiceBackend) -> bool {
    backend.port.as_ref().and_then(|p| p.name.as_deref()) == Some("use-annotation")
        && ingress.metadata.annotations.contains_key(&format!("{ALB_PREFIX}actions.{}", backend.name))
}

/// `canary: "true"` (ingress-nginx reads the value as a boolean).
pub fn is_canary(ingress: &Ingress) -> bool {
    ingress.metadata.annotations.get(&format!("{NGINX_PREFIX}canary")).is_some_and(|v| v == "true")
}

/// Makes duplicate and unreachable reports that involve an ingress-nginx canary say so: for
/// ingress-nginx the two Ingresses are one route whose traffic is split, not a conflict.
pub fn explain_canaries(diagnostics: &mut [Diagnostic], objects: &[Object]) {
    let canaries: Vec<&Ingress> = objects
        .iter()
        .filter_map(|o| match o {
            Object::Ingress(i) if is_canary(i) => Some(i),
            _ => None,
        })
        .collect();
    if canaries.is_empty() {
        return;
    }
    for d in diagnostics.iter_mut().filter(|d| d.code == code::DUPLICATE_PATH || d.code == code::UNREACHABLE_PATH) {
        let canary = d.objects.iter().find(|r| {
            r.kind == "Ingress"
                && canaries.iter().any(|c| c.metadata.name == r.name && Some(namespace(c)) == r.namespace.as_deref())
        });
        if let Some(c) = canary {
            let sentence = format!(
                "; Ingress {}/{} is an ingress-nginx canary ({NGINX_PREFIX}canary: \"true\"): ingress-nginx sends it a \
                 share of this host and path's traffic (by weight, header or cookie) instead of treating it as a \
                 duplicate; under the specification it is an ordinary competing Ingress and never receives these requests.",
                c.namespace.as_deref().unwrap_or("default"),
                c.name
            );
            d.message.push_str(&sentence);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ingress-nginx regex hosts

/// Each Ingress that turns on regex matching for its hosts, with every path that is then read
/// differently: the host's paths in every Ingress.
fn check_nginx_regex_hosts(served: &[&Ingress], mode: ImplementationSpecific, out: &mut Vec<Diagnostic>) {
    for trigger in served {
        let Some(annotation) = regex_trigger(trigger) else { continue };
        let hosts: Vec<&str> = rules(trigger).map(|(_, host, _)| host).collect();
        for &host in dedup(&hosts).iter() {
            let mut affected = Vec::new();
            for ingress in served {
                for (field, h, path) in paths(ingress) {
                    if h == host {
                        affected.push((*ingress, field, path));
                    }
                }
            }
            if affected.is_empty() {
                continue;
            }
            let regex_looking: Vec<_> = affected.iter().filter(|(_, _, p)| looks_like_regex(text(p))).collect();
            // What a plain path turns into, shown on the first path that does not already look like a regex.
            let example = affected.iter().map(|(_, _, p)| text(p)).find(|p| !looks_like_regex(p));
            let consequence = match example {
                Some(p) => format!(
                    " (location ~* \"^{p}\"): {p:?} then also matches {:?} and {:?}",
                    format!("{p}more"),
                    upper(p)
                ),
                None => String::new(),
            };
            let ingresses = count_ingresses(&affected);
            let mut message = format!(
                "Ingress {}/{}: metadata.annotations[{NGINX_PREFIX}{annotation}] makes ingress-nginx match every path of \
                 {} ({} path{} in {} Ingress{}) as a case-insensitive regular expression anchored at the \
                 start{consequence}; the specification matches paths as written (Exact, element-wise Prefix, \
                 ImplementationSpecific routed here as {})",
                namespace(trigger),
                trigger.metadata.name,
                display_host(host),
                affected.len(),
                plural(affected.len()),
                ingresses,
                if ingresses == 1 { "" } else { "es" },
                mode_name(mode),
            );
            if !regex_looking.is_empty() {
                let list: Vec<String> = regex_looking
                    .iter()
                    .map(|(i, f, p)| format!("{:?} ({}/{} {f})", text(p), namespace(i), i.metadata.name))
                    .collect();
                message.push_str(&format!(
                    "; these paths are regular expressions for ingress-nginx and literal text for the specification: {}",
                    list.join(", ")
                ));
            }
            let mut objects =
                vec![ingress_ref(trigger).with_field(format!("metadata.annotations[{NGINX_PREFIX}{annotation}]"))];
            for (i, f, _) in &regex_looking {
                objects.push(ingress_ref(i).with_field(format!("{f}.path")));
            }
            out.push(Diagnostic {
                code: code::NGINX_REGEX_HOST,
                severity: Severity::Warning,
                message,
                objects,
                fix: String::from(
                    "to route the same under ingress-nginx and the specification, write plain Prefix or Exact paths \
                     and drop use-regex (move a rewrite-target Ingress to its own host); otherwise test these routes \
                     against ingress-nginx itself: the specification's answer differs",
                ),
            });
        }
    }
}

/// `use-regex` or `rewrite-target`: the annotation (without the prefix) that turns regex matching on.
fn regex_trigger(ingress: &Ingress) -> Option<&'static str> {
    let a = &ingress.metadata.annotations;
    if a.get(&format!("{NGINX_PREFIX}use-regex")).is_some_and(|v| v == "true") {
        Some("use-regex")
    } else if a.contains_key(&format!("{NGINX_PREFIX}rewrite-target")) {
        Some("rewrite-target")
    } else {
        None
    }
}

fn count_ingresses(affected: &[(&Ingress, PathField, &HttpIngressPath)]) -> usize {
    let mut names: Vec<(&str, &str)> =
        affected.iter().map(|(i, _, _)| (namespace(i), i.metadata.name.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

fn upper(path: &str) -> String {
    path.to_ascii_uppercase()
}

fn looks_like_regex(path: &str) -> bool {
    path.bytes()
        .any(|b| matches!(b, b'(' | b')' | b'[' | b']' | b'*' | b'+' | b'?' | b'^' | b'$' | b'|' | b'{' | b'}' | b'\\'))
}

// ---------------------------------------------------------------------------------------------
// ingress-nginx canaries

/// A canary Ingress: for ingress-nginx a traffic split with the main Ingress of the same host and
/// path; for the specification an ordinary Ingress that competes with it.
fn check_canary(ingress: &Ingress, served: &[&Ingress], out: &mut Vec<Diagnostic>) {
    if !is_canary(ingress) {
        return;
    }
    let a = &ingress.metadata.annotations;
    let how: Vec<String> = ["canary-weight", "canary-by-header", "canary-by-cookie"]
        .iter()
        .filter_map(|k| a.get(&format!("{NGINX_PREFIX}{k}")).map(|v| format!("{k}: {v:?}")))
        .collect();
    let how = if how.is_empty() {
        String::from("no canary-weight/by-header/by-cookie set: no traffic")
    } else {
        how.join(", ")
    };
    let mains: Vec<String> = served
        .iter()
        .filter(|o| !is_canary(o) && shares_a_path(o, ingress))
        .map(|o| format!("{}/{}", namespace(o), o.metadata.name))
        .collect();
    let main = if mains.is_empty() {
        String::from(
            "no main Ingress with the same host and path in the input (ingress-nginx ignores a canary without one)",
        )
    } else {
        format!("main Ingress {}", mains.join(", "))
    };
    out.push(Diagnostic {
        code: code::NGINX_CANARY,
        severity: Severity::Warning,
        message: format!(
            "Ingress {}/{}: {NGINX_PREFIX}canary: \"true\" ({how}; {main}): ingress-nginx splits the traffic of its \
             hosts and paths with the main Ingress; under the specification it is an ordinary Ingress that competes \
             for the same host and path, and the older of the two receives every request",
            namespace(ingress),
            ingress.metadata.name
        ),
        objects: vec![ingress_ref(ingress).with_field(format!("metadata.annotations[{NGINX_PREFIX}canary]"))],
        fix: String::from(
            "expect the specification's answer (and other controllers') to ignore the canary split; test the split \
             against ingress-nginx, or use a controller-neutral split (Gateway API HTTPRoute backendRefs weights)",
        ),
    });
}

fn shares_a_path(a: &Ingress, b: &Ingress) -> bool {
    paths(a).any(|(_, ha, pa)| paths(b).any(|(_, hb, pb)| ha.eq_ignore_ascii_case(hb) && text(pa) == text(pb)))
}

// ---------------------------------------------------------------------------------------------
// GKE and ALB `/*`

fn check_glob_paths(ingress: &Ingress, mode: ImplementationSpecific, out: &mut Vec<Diagnostic>) {
    for (field, _, path) in paths(ingress) {
        let p = text(path);
        if !is_glob_path(p) {
            continue;
        }
        let head = p.strip_suffix("/*").filter(|h| !h.is_empty()).unwrap_or("/");
        let path_type = path.path_type.as_deref().and_then(PathType::parse);
        let how = match path_type {
            Some(PathType::ImplementationSpecific) => {
                format!("ImplementationSpecific, routed here as {}", mode_name(mode))
            }
            Some(t) => format!("{t}"),
            None => String::from("no pathType"),
        };
        out.push(Diagnostic {
            code: code::GLOB_PATH,
            severity: Severity::Warning,
            message: format!(
                "Ingress {}/{}: {field}.path: {p:?} is a wildcard for {} (every path below {head}); the specification \
                 matches the `*` literally ({how}), so only request paths that contain {p:?} match",
                namespace(ingress),
                ingress.metadata.name,
                glob_controller(ingress),
            ),
            objects: vec![ingress_ref(ingress).with_field(format!("{field}.path"))],
            fix: format!(
                "write path: {head} with pathType: Prefix (GKE and ALB both read it as every path below {head})"
            ),
        });
    }
}

/// Who reads `/*` as a wildcard, from the Ingress's class and annotations.
fn glob_controller(ingress: &Ingress) -> &'static str {
    let class = ingress
        .spec
        .ingress_class_name
        .as_deref()
        .or(ingress.metadata.annotations.get(crate::model::LEGACY_CLASS_ANNOTATION).map(String::as_str))
        .unwrap_or("");
    let keys = || ingress.metadata.annotations.keys();
    if class == "alb" || keys().any(|k| k.starts_with(ALB_PREFIX)) {
        "the AWS Load Balancer Controller"
    } else if class.starts_with("gce")
        || keys().any(|k| {
            k.starts_with("kubernetes.io/ingress.global-static-ip-name")
                || k.starts_with("networking.gke.io/")
                || k.starts_with("ingress.gcp.kubernetes.io/")
        })
    {
        "the GKE Ingress controller"
    } else {
        "GKE and the AWS Load Balancer Controller"
    }
}

// ---------------------------------------------------------------------------------------------
// ALB actions and conditions

fn check_alb_actions(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
    for (key, value) in &ingress.metadata.annotations {
        let Some(rest) = key.strip_prefix(ALB_PREFIX) else { continue };
        let (kind, name) = match rest.split_once('.') {
            Some(("actions", name)) if !name.is_empty() => ("actions", name),
            Some(("conditions", name)) if !name.is_empty() => ("conditions", name),
            _ => continue,
        };
        let used: Vec<String> = backends(ingress)
            .filter(|(_, b)| b.service.as_ref().is_some_and(|s| s.name == name))
            .map(|(f, _)| f)
            .collect();
        let action_type = serde_json::from_str::<serde_json::Value>(value)
            .ok()
            .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(String::from));
        let what = match (kind, action_type.as_deref()) {
            ("actions", Some(t)) => format!("the ALB action {name:?} (type {t}) answers these requests"),
            ("actions", None) => format!("the ALB action {name:?} answers these requests"),
            _ => format!(
                "ALB routes to this backend only when the extra conditions {name:?} (host, header, query, method or source IP) also match"
            ),
        };
        let sites = if used.is_empty() {
            format!("no backend names service {name:?} (port name use-annotation), so the annotation has no effect")
        } else {
            format!("used by {}", used.join(", "))
        };
        let spec = if kind == "actions" {
            format!(
                "the specification routes them to Service {name:?} port \"use-annotation\", which is no Service port"
            )
        } else {
            String::from("the specification ignores the conditions and routes every request of the path there")
        };
        let mut objects = vec![ingress_ref(ingress).with_field(format!("metadata.annotations[{key}]"))];
        objects.extend(used.iter().map(|f| ingress_ref(ingress).with_field(format!("{f}.service.name"))));
        out.push(Diagnostic {
            code: code::ALB_ACTION_ANNOTATION,
            severity: Severity::Warning,
            message: format!(
                "Ingress {}/{}: metadata.annotations[{key}]: {what} ({sites}); {spec}",
                namespace(ingress),
                ingress.metadata.name
            ),
            objects,
            fix: String::from(
                "read these routes as the AWS Load Balancer Controller's, not the specification's; test them against \
                 the controller (or express them as plain Service backends to keep them portable)",
            ),
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// The `--implementation-specific` value.
fn mode_name(mode: ImplementationSpecific) -> &'static str {
    match mode {
        ImplementationSpecific::Prefix => "prefix",
        ImplementationSpecific::Exact => "exact",
        ImplementationSpecific::StringPrefix => "string-prefix",
    }
}

fn namespace(ingress: &Ingress) -> &str {
    ingress.metadata.namespace_or_default()
}

fn ingress_ref(ingress: &Ingress) -> ObjectRef {
    ObjectRef::ingress(namespace(ingress), &ingress.metadata.name)
}

/// `host example.com`, or `the host-less rules`.
fn display_host(host: &str) -> String {
    if host.is_empty() { String::from("the host-less rules") } else { format!("host {host}") }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn text(path: &HttpIngressPath) -> &str {
    path.path.as_deref().unwrap_or("")
}

fn dedup<'a>(hosts: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for h in hosts {
        if !out.contains(h) {
            out.push(h);
        }
    }
    out
}

/// `spec.rules[i].http.paths[j]`, formatted when shown.
#[derive(Clone, Copy)]
struct PathField(usize, usize);

impl core::fmt::Display for PathField {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "spec.rules[{}].http.paths[{}]", self.0, self.1)
    }
}

fn rules(ingress: &Ingress) -> impl Iterator<Item = (usize, &str, &crate::model::IngressRule)> {
    ingress.spec.rules.iter().flatten().enumerate().map(|(i, r)| (i, r.host.as_deref().unwrap_or(""), r))
}

fn paths(ingress: &Ingress) -> impl Iterator<Item = (PathField, &str, &HttpIngressPath)> {
    rules(ingress).flat_map(|(i, host, rule)| {
        rule.http.iter().flat_map(|h| h.paths.iter().enumerate()).map(move |(j, p)| (PathField(i, j), host, p))
    })
}

/// Every backend with its field: `spec.defaultBackend` and each path's.
fn backends(ingress: &Ingress) -> impl Iterator<Item = (String, &crate::model::IngressBackend)> {
    let default = ingress.spec.default_backend.iter().map(|b| (String::from("spec.defaultBackend"), b));
    default.chain(paths(ingress).map(|(f, _, p)| (format!("{f}.backend"), &p.backend)))
}
