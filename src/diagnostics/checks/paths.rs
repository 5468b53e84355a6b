//! Paths that look like regular expressions or globs.

use super::*;

/// Characters that make a path look like a regular expression (or a glob).
pub(super) const REGEX_CHARS: &[char] = &['(', ')', '[', ']', '*', '+', '?', '^', '$', '|', '{', '}', '\\'];

/// `path.contains(REGEX_CHARS)`, a byte at a time (a `&[char]` pattern costs a search per char).
pub(super) fn looks_like_regex(path: &str) -> bool {
    path.bytes()
        .any(|b| matches!(b, b'(' | b')' | b'[' | b']' | b'*' | b'+' | b'?' | b'^' | b'$' | b'|' | b'{' | b'}' | b'\\'))
}

/// A regex-looking path under `Exact` or `Prefix`, where the specification matches it literally.
/// Each finding's rule host goes to `hosts` with its place in `out`: whether ingress-nginx reads
/// the path as a regex there depends on the other Ingresses ([`regex_host_note`]).
pub(super) fn check_regex_paths(ingress: &Ingress, out: &mut Vec<Diagnostic>, hosts: &mut Vec<(usize, String)>) {
    for (field, host, path) in paths(ingress) {
        let Some(path_type @ (PathType::Exact | PathType::Prefix)) =
            path.path_type.as_deref().and_then(PathType::parse)
        else {
            continue;
        };
        let Some(text) = path.path.as_deref().filter(|p| looks_like_regex(p)) else { continue };
        if crate::diagnostics::idioms::is_glob_path(text) {
            continue; // GKE's and ALB's `/*`: glob-path names it
        }
        let message = format!(
            "{}: {field}.path: {text:?} looks like a regular expression, but pathType {path_type} matches it \
             literally (requests must contain those characters); ingress-nginx's admission webhook rejects it \
             when strict path validation is on (\"path {text} cannot be used with pathType {path_type}\")",
            ingress_label(ingress),
        );
        hosts.push((out.len(), String::from(host)));
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

/// What a regex-path-literal finding adds when its rule host is one of [`regex_hosts`].
pub(super) fn regex_host_note(host: &str) -> String {
    format!(
        "; ingress-nginx reads it as a regex here only because use-regex or rewrite-target is set for host {}",
        display_host(host)
    )
}

/// The hosts (`""` for host-less rules) on which ingress-nginx turns every path into a regex:
/// some Ingress with a rule for the host sets `use-regex: "true"` or a `rewrite-target`.
pub(super) fn regex_hosts<'a>(ingresses: &[&'a Ingress]) -> Vec<&'a str> {
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
pub(super) fn literal_prefix(path: &str) -> &str {
    let Some(at) = path.find(REGEX_CHARS) else { return path };
    let mut head = &path[..at];
    if path[at..].starts_with(['?', '*', '+', '{']) {
        head = head.char_indices().last().map_or(head, |(i, _)| &head[..i]);
    }
    let head = head.trim_end_matches('/');
    if head.is_empty() { "/" } else { head }
}

pub(super) fn display_host(host: &str) -> &str {
    if host.is_empty() { "(any host)" } else { host }
}
