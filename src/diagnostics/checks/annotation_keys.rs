//! Annotations: unknown ingress-nginx keys (with the closest known), keys of newer or removed releases, other controllers' typos, a misspelt prefix.

use super::*;

/// Annotations under the ingress-nginx prefix: unknown keys (with the closest known key), keys
/// only recent releases know and keys the controller no longer reads; misspelt keys under another
/// controller's or tool's prefix; keys whose prefix is a misspelling of the ingress-nginx prefix.
pub(super) fn check_annotations(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
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

pub(super) fn annotation_ref(ingress: &Ingress, key: &str) -> ObjectRef {
    ingress_ref(ingress).with_field(format!("metadata.annotations[{key}]"))
}

pub(super) fn unknown_annotation(ingress: &Ingress, key: &str, name: &str) -> Diagnostic {
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

pub(super) fn newer_release_annotation(
    ingress: &Ingress,
    key: &str,
    known: &annotations::NginxAnnotation,
) -> Diagnostic {
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

pub(super) fn removed_annotation(ingress: &Ingress, key: &str, known: &annotations::NginxAnnotation) -> Diagnostic {
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
pub(super) fn other_controller_typo(
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

pub(super) fn misspelled_prefix(ingress: &Ingress, key: &str, rest: &str) -> Diagnostic {
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
