//! Views for adapters that return data rather than print it (the npm package): a decision with its
//! backend as the Kubernetes object, the `validate --json` report, and the status report with the
//! `kubectl get ingress` rows. The adapters serialise them as they are, so every home of the engine
//! gives one schema.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Severity, code};
use crate::explain::MatchedView;
use crate::input::{Origin, SourcedObject};
use crate::model::{Ingress, IngressBackend, Object};
use crate::position::{Position, Positions};
use crate::status::{IngressRow, StatusReport, ingress_rows_after};
use crate::table::{Decision, IngressInfo, Via};
use crate::validation::{self, FieldError, Operation};

/// A [`Decision`] with its backend as written in the Ingress (`{service: {name, port}}` or
/// `{resource: {apiGroup, kind, name}}`), `null` for 404.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteView<'r> {
    pub backend: Option<&'r IngressBackend>,
    pub via: Via,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<MatchedView>,
    /// `namespace/name` of the Ingress whose defaultBackend answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_from: Option<String>,
}

impl<'r> Decision<'r> {
    pub fn route_view(&self) -> RouteView<'r> {
        RouteView {
            backend: self.backend,
            via: self.via,
            matched: self.route.zip(self.ingress).map(|(r, i)| MatchedView {
                ingress: i.key(),
                host: r.host.clone(),
                path: r.path.clone(),
                path_type: r.path_type,
                field: r.field(),
            }),
            default_from: if self.via == Via::DefaultBackend { self.ingress.map(IngressInfo::key) } else { None },
        }
    }
}

/// What `validate --json` prints: every Ingress and IngressClass with the apiserver's answer and
/// each error's place, then the diagnostics, a summary, and whether the input passes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidationReport {
    pub objects: Vec<CheckedObject>,
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Summary,
    /// No invalid object (and, when strict, no warning either): the CLI's exit code 0.
    pub ok: bool,
}

/// One validated object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckedObject {
    /// `Ingress` or `IngressClass`.
    pub kind: &'static str,
    pub namespace: Option<String>,
    pub name: String,
    /// `create`, or `update` when the stored version was given.
    pub operation: &'static str,
    pub origin: Origin,
    pub valid: bool,
    /// The apiserver's whole answer, `None` when valid.
    pub message: Option<String>,
    pub errors: Vec<LocatedError>,
}

/// A [`FieldError`] with its line and column in the source, when known.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocatedError {
    #[serde(flatten)]
    pub error: FieldError,
    #[serde(flatten)]
    pub at: Option<Position>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub objects: usize,
    pub valid: usize,
    pub invalid: usize,
    pub warnings: usize,
    pub notes: usize,
}

/// Validates every Ingress (as an update when `stored` holds it) and IngressClass of `objects`,
/// locating each error in `text` (the source the objects were read from). `diagnostics` are those
/// of compiling the same objects; invalid Ingresses are reported here with every error instead.
pub fn validation_report(
    objects: &[SourcedObject],
    text: &str,
    stored: &[&Ingress],
    diagnostics: Vec<Diagnostic>,
    strict: bool,
) -> ValidationReport {
    let positions = Positions::new(text);
    let checked: Vec<CheckedObject> = objects.iter().filter_map(|o| check(o, stored, &positions)).collect();
    let diagnostics: Vec<Diagnostic> = diagnostics.into_iter().filter(|d| d.code != code::INVALID_INGRESS).collect();
    let invalid = checked.iter().filter(|c| !c.valid).count();
    let notes = diagnostics.iter().filter(|d| d.severity == Severity::Note).count();
    let summary = Summary {
        objects: checked.len(),
        valid: checked.len() - invalid,
        invalid,
        warnings: diagnostics.len() - notes,
        notes,
    };
    let ok = summary.invalid == 0 && !(strict && summary.warnings > 0);
    ValidationReport { objects: checked, diagnostics, summary, ok }
}

fn check(object: &SourcedObject, stored: &[&Ingress], positions: &Positions) -> Option<CheckedObject> {
    let (kind, namespace, name, operation, errors) = match &object.object {
        Object::Ingress(i) => {
            let same = |o: &&&Ingress| {
                o.metadata.name == i.metadata.name
                    && o.metadata.namespace_or_default() == i.metadata.namespace_or_default()
            };
            let (operation, op) = match stored.iter().find(same) {
                Some(old) => ("update", Operation::Update { old }),
                None => ("create", Operation::Create),
            };
            let namespace = Some(String::from(i.metadata.namespace_or_default()));
            ("Ingress", namespace, &i.metadata.name, operation, validation::validate_ingress(i, op))
        }
        Object::IngressClass(c) => {
            ("IngressClass", None, &c.metadata.name, "create", validation::validate_ingress_class(c))
        }
        Object::Service(_) => return None,
    };
    let group = if kind == "Ingress" { "Ingress.networking.k8s.io" } else { "IngressClass.networking.k8s.io" };
    let message = (!errors.is_empty()).then(|| validation::invalid_message(group, name, &errors));
    let prefix = object.origin.path_prefix();
    let errors = errors
        .into_iter()
        .map(|error| {
            let path = match (prefix.is_empty(), error.field.is_empty()) {
                (true, _) => error.field.clone(),
                (false, true) => prefix.clone(),
                (false, false) => alloc::format!("{prefix}.{}", error.field),
            };
            LocatedError { at: positions.locate(object.origin.document, &path), error }
        })
        .collect();
    Some(CheckedObject {
        kind,
        namespace,
        name: name.clone(),
        operation,
        origin: object.origin.clone(),
        valid: message.is_none(),
        message,
        errors,
    })
}

/// What `status --json` prints, and the `kubectl get ingress` rows once the statuses are written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusView {
    #[serde(flatten)]
    pub report: StatusReport,
    pub rows: Vec<IngressRow>,
}

impl StatusView {
    /// `report` must have been computed from `objects`.
    pub fn new(objects: &[Object], report: StatusReport) -> Self {
        StatusView { rows: ingress_rows_after(objects, &report), report }
    }
}
