//! Which Ingresses take part: the served IngressClass (the crate documentation's
//! [Which Ingresses take part](crate#which-ingresses-take-part) section).

use alloc::string::String;
use alloc::vec::Vec;
use core::borrow::Borrow;

use serde::Serialize;

use crate::model::{Ingress, IngressClass, LEGACY_CLASS_ANNOTATION, Object};
use crate::validation;

/// Why an Ingress takes part in the table, or why not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Participation {
    /// No class is served: every Ingress takes part.
    AllClasses,
    /// `spec.ingressClassName` names the served class.
    ClassName,
    /// The deprecated `kubernetes.io/ingress.class` annotation names the served class.
    LegacyAnnotation,
    /// The Ingress names no class and the served class is the cluster default.
    DefaultClass,
    /// The Ingress belongs to another class.
    OtherClass { class: String },
    /// The Ingress names a class that no IngressClass in the input defines.
    UnknownClass { class: String },
    /// The Ingress names no class and the served class is not the cluster default.
    NoClass,
}

impl Participation {
    pub fn takes_part(&self) -> bool {
        matches!(
            self,
            Participation::AllClasses
                | Participation::ClassName
                | Participation::LegacyAnnotation
                | Participation::DefaultClass
        )
    }

    /// Why the Ingress is left out, in words; `None` when it takes part.
    pub fn reason(&self, served: &str) -> Option<String> {
        use alloc::format;
        match self {
            Participation::OtherClass { class } => {
                Some(format!("belongs to IngressClass {class:?}, not the served class {served:?}"))
            }
            Participation::UnknownClass { class } => {
                Some(format!("names IngressClass {class:?}, which no IngressClass in the input defines"))
            }
            Participation::NoClass => Some(format!(
                "names no IngressClass and {served:?} is not the default class \
                 (annotation ingressclass.kubernetes.io/is-default-class: \"true\")"
            )),
            _ => None,
        }
    }
}

/// The IngressClass objects of the input, which [`participation`] decides with.
/// Generic over how the objects are held ([`Object`]s, or an input's own, which compiling borrows
/// rather than copies).
pub(crate) fn ingress_classes<O: Borrow<Object>>(objects: &[O]) -> Vec<&IngressClass> {
    objects
        .iter()
        .filter_map(|o| match o.borrow() {
            Object::IngressClass(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// Whether an Ingress takes part in a table, as a controller decides: first its class, then
/// whether the apiserver would have accepted it.
pub(crate) enum Admission {
    Admitted(Participation),
    /// Of a class that is not served: why, in words (`is of class "other"`).
    NotServed(String),
    /// The apiserver would reject it: every error.
    Invalid(Vec<validation::FieldError>),
}

/// Every Ingress of `objects` in input order, with its [`Admission`] when `served` is the served
/// class (`None`: every class). Both profiles admit Ingresses through this one function.
pub(crate) fn admit<'a, O: Borrow<Object>>(objects: &'a [O], served: Option<&str>) -> Vec<(&'a Ingress, Admission)> {
    let classes = ingress_classes(objects);
    objects
        .iter()
        .filter_map(|o| if let Object::Ingress(i) = o.borrow() { Some(i) } else { None })
        .map(|ingress| {
            let participation = participation(ingress, served, &classes);
            if let Some(reason) = served.and_then(|c| participation.reason(c)) {
                return (ingress, Admission::NotServed(reason));
            }
            let errors = validation::validate_ingress(ingress, validation::Operation::Create);
            let admission =
                if errors.is_empty() { Admission::Admitted(participation) } else { Admission::Invalid(errors) };
            (ingress, admission)
        })
        .collect()
}

/// Decides whether `ingress` takes part when `served` is the served class (`None`: all classes).
///
/// `classes` are the IngressClass objects of the input. When the input has none, the served class
/// is assumed to exist (users often paste Ingresses alone) and is not the default.
pub fn participation(ingress: &Ingress, served: Option<&str>, classes: &[&IngressClass]) -> Participation {
    let Some(served) = served else {
        return Participation::AllClasses;
    };
    let known = |name: &str| classes.is_empty() || classes.iter().any(|c| c.metadata.name == name);
    if let Some(name) = ingress.spec.ingress_class_name.as_deref() {
        return if name != served {
            Participation::OtherClass { class: name.into() }
        } else if !known(name) {
            Participation::UnknownClass { class: name.into() }
        } else {
            Participation::ClassName
        };
    }
    if let Some(name) = ingress.metadata.annotations.get(LEGACY_CLASS_ANNOTATION) {
        return if name != served {
            Participation::OtherClass { class: name.clone() }
        } else {
            Participation::LegacyAnnotation
        };
    }
    let served_is_default = classes.iter().any(|c| c.metadata.name == served && c.is_default());
    if served_is_default { Participation::DefaultClass } else { Participation::NoClass }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DEFAULT_CLASS_ANNOTATION, ObjectMeta};

    fn ingress(class: Option<&str>, annotation: Option<&str>) -> Ingress {
        let mut i = Ingress::default();
        i.spec.ingress_class_name = class.map(Into::into);
        if let Some(a) = annotation {
            i.metadata.annotations.insert(LEGACY_CLASS_ANNOTATION.into(), a.into());
        }
        i
    }

    fn class(name: &str, default: bool) -> IngressClass {
        let mut meta = ObjectMeta { name: name.into(), ..Default::default() };
        if default {
            meta.annotations.insert(DEFAULT_CLASS_ANNOTATION.into(), "true".into());
        }
        IngressClass { metadata: meta, ..Default::default() }
    }

    #[test]
    fn no_served_class_takes_everything() {
        assert!(participation(&ingress(Some("other"), None), None, &[]).takes_part());
    }

    #[test]
    fn class_name_must_equal_served() {
        let nginx = class("nginx", false);
        assert_eq!(participation(&ingress(Some("nginx"), None), Some("nginx"), &[&nginx]), Participation::ClassName);
        assert_eq!(
            participation(&ingress(Some("traefik"), None), Some("nginx"), &[&nginx]),
            Participation::OtherClass { class: "traefik".into() }
        );
    }

    #[test]
    fn class_without_ingressclass_object_is_unknown() {
        let other = class("traefik", false);
        assert_eq!(
            participation(&ingress(Some("nginx"), None), Some("nginx"), &[&other]),
            Participation::UnknownClass { class: "nginx".into() }
        );
    }

    #[test]
    fn legacy_annotation_is_accepted() {
        assert_eq!(participation(&ingress(None, Some("nginx")), Some("nginx"), &[]), Participation::LegacyAnnotation);
    }

    #[test]
    fn classless_ingress_needs_default_class() {
        assert_eq!(
            participation(&ingress(None, None), Some("nginx"), &[&class("nginx", false)]),
            Participation::NoClass
        );
        assert_eq!(
            participation(&ingress(None, None), Some("nginx"), &[&class("nginx", true)]),
            Participation::DefaultClass
        );
    }
}
