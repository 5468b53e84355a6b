//! The diagnostics the compiled table itself tells: Ingresses left out, paths shadowed or
//! unreachable, competing default backends.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::{Diagnostic, ObjectRef, Severity, code};
use crate::table::{DefaultBackend, Exclusion, IngressInfo, Standing, Table, display_path};
use crate::validation;

pub(crate) fn report(router: &Table, diagnostics: &mut Vec<Diagnostic>) {
    report_excluded(router, diagnostics);
    report_standing(router, diagnostics);
    report_default_conflicts(router, diagnostics);
}

fn object_ref(ingress: &IngressInfo) -> ObjectRef {
    ObjectRef::ingress(&ingress.namespace, &ingress.name)
}

fn report_excluded(router: &Table, diagnostics: &mut Vec<Diagnostic>) {
    for excluded in &router.excluded {
        let (namespace, name) = (&excluded.namespace, &excluded.name);
        diagnostics.push(match excluded.cause {
            Exclusion::NotServed => Diagnostic {
                code: code::NOT_SERVED,
                severity: Severity::Note,
                message: format!("Ingress {namespace}/{name} is not served: it {}", excluded.reason),
                objects: vec![ObjectRef::ingress(namespace, name)],
                fix: String::from("set spec.ingressClassName to the served class if this Ingress should route"),
            },
            Exclusion::Invalid => Diagnostic {
                code: code::INVALID_INGRESS,
                severity: Severity::Error,
                message: validation::invalid_message("Ingress.networking.k8s.io", name, &excluded.errors),
                objects: vec![
                    ObjectRef::ingress(namespace, name)
                        .with_field(excluded.errors.first().map(|e| e.field.clone()).unwrap_or_default()),
                ],
                fix: String::from("correct the fields named above; the apiserver would reject this Ingress"),
            },
        });
    }
}

fn report_standing(router: &Table, diagnostics: &mut Vec<Diagnostic>) {
    for route in &router.routes {
        let (by, shadowed) = match route.standing {
            Standing::Active => continue,
            Standing::Shadowed { by } => (by, true),
            Standing::Unreachable { by } => (by, false),
        };
        let winner = &router.routes[by];
        let loser_ing = &router.ingresses[route.ingress];
        let winner_ing = &router.ingresses[winner.ingress];
        let host = if route.host.is_empty() { String::from("(any host)") } else { route.host.clone() };
        let why = if winner.ingress != route.ingress {
            format!("Ingress {} is older", winner_ing.key())
        } else {
            String::from("it comes first in the same Ingress")
        };
        let objects =
            vec![object_ref(loser_ing).with_field(route.field()), object_ref(winner_ing).with_field(winner.field())];
        diagnostics.push(if shadowed {
            Diagnostic {
                code: code::DUPLICATE_PATH,
                severity: Severity::Warning,
                message: format!(
                    "{host} {} {} is declared by {} ({}) and {} ({}); {} wins because {why}, the other is shadowed",
                    route.path_type,
                    display_path(&route.path),
                    winner_ing.key(),
                    winner.field(),
                    loser_ing.key(),
                    route.field(),
                    winner_ing.key(),
                ),
                objects,
                fix: String::from("remove the duplicate path, or give it another host or path"),
            }
        } else {
            Diagnostic {
                code: code::UNREACHABLE_PATH,
                severity: Severity::Warning,
                message: format!(
                    "{host} {} {} in {} ({}) can never be chosen: {} {} in {} ({}) matches the same requests and takes precedence",
                    route.path_type,
                    display_path(&route.path),
                    loser_ing.key(),
                    route.field(),
                    winner.path_type,
                    display_path(&winner.path),
                    winner_ing.key(),
                    winner.field(),
                ),
                objects,
                fix: String::from("remove the unreachable path or change its path or pathType"),
            }
        });
    }
}

fn report_default_conflicts(router: &Table, diagnostics: &mut Vec<Diagnostic>) {
    let declared: Vec<&DefaultBackend> = router.defaults.iter().filter(|d| d.ingress.is_some()).collect();
    if declared.len() < 2 {
        return;
    }
    let name = |d: &DefaultBackend| router.ingresses[d.ingress.unwrap_or(0)].key();
    let others: Vec<String> = declared[1..].iter().map(|d| format!("{} ({})", name(d), d.backend)).collect();
    diagnostics.push(Diagnostic {
        code: code::DEFAULT_BACKEND_CONFLICT,
        severity: Severity::Warning,
        message: format!(
            "{} Ingresses declare a defaultBackend; requests no rule matches go to the oldest, {} ({}), \
             except on hosts whose own Ingress declares one; also declared: {}",
            declared.len(),
            name(declared[0]),
            declared[0].backend,
            others.join(", "),
        ),
        objects: declared
            .iter()
            .map(|d| object_ref(&router.ingresses[d.ingress.unwrap_or(0)]).with_field("spec.defaultBackend"))
            .collect(),
        fix: String::from("declare spec.defaultBackend in one Ingress only"),
    });
}
