//! IngressClasses: more than one default, unknown classes, the legacy class annotation.

use super::*;

/// More than one IngressClass is marked as the cluster default.
pub(super) fn check_default_classes(classes: &[&IngressClass], out: &mut Vec<Diagnostic>) {
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
pub(super) fn check_unknown_class(
    ingress: &Ingress,
    classes: &[&IngressClass],
    served: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
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
pub(super) fn check_legacy_class_annotation(ingress: &Ingress, out: &mut Vec<Diagnostic>) {
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

/// A valid IngressClass name close to `value`: lowercase, runs of other characters as `-`.
pub(super) fn class_name_like(value: &str) -> String {
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
