//! Views for adapters that return data rather than print it: the `validate --json` report (the
//! CLI and the npm package), and the status report with the `kubectl get ingress` rows. The
//! adapters serialise them as they are, so every home of the engine gives one schema.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use crate::diagnostics::{Code, Diagnostic, Severity};
#[cfg(feature = "gateway")]
use crate::gateway::validation as gateway_validation;
use crate::input::{self, Origin, SourcedObject, SourcedValue, UnknownFields, Unserved};
use crate::model::{Ingress, Object};
use crate::position::{Position, Positions};
use crate::schema::{self, DecodeError};
use crate::validation::{self, FieldError, Operation};

// ------------------------------------------------------------------------------------------------
// Places

/// Finds fields of objects in the texts they were read from (each text read once, when first
/// asked). `texts` names each source as [`Origin::source`] does.
pub(crate) struct Locator<'t> {
    texts: Vec<(&'t str, &'t str)>,
    read: Vec<Option<Positions>>,
}

impl<'t> Locator<'t> {
    pub(crate) fn new(texts: impl IntoIterator<Item = (&'t str, &'t str)>) -> Self {
        let texts: Vec<_> = texts.into_iter().collect();
        let read = texts.iter().map(|_| None).collect();
        Locator { texts, read }
    }

    /// Where `field` (an apiserver field path such as `spec.rules[0].host`; empty for the object
    /// itself) of the object read from `origin` is; `None` when its text is not one of these.
    pub(crate) fn locate(&mut self, origin: &Origin, field: &str) -> Option<Position> {
        let i = self.texts.iter().position(|(source, _)| *source == origin.source)?;
        let text = self.texts[i].1;
        let positions = self.read[i].get_or_insert_with(|| Positions::new(text));
        positions.locate(origin.document, &origin.document_path(field))
    }
}

// ------------------------------------------------------------------------------------------------
// Validation

/// What `validate --json` prints (the CLI adds the inputs it could not read): every Ingress and
/// IngressClass, then every GatewayClass, Gateway, HTTPRoute and ReferenceGrant, with the
/// apiserver's answer and each error's place, then the diagnostics and a summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ValidationReport {
    pub(crate) objects: Vec<CheckedObject>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) summary: Summary,
}

impl ValidationReport {
    /// No invalid object (and, when strict, no warning either): the CLI's exit code 0.
    pub fn passes(&self, strict: bool) -> bool {
        self.summary.invalid == 0 && !(strict && self.summary.warnings > 0)
    }
}

/// One validated object.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub(crate) struct CheckedObject {
    /// `Ingress`, `IngressClass` (or `Service`, refused for an unknown field).
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
    /// Fields the apiserver's strict decoding rejects (the object is then refused before validation).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown_fields: Vec<UnknownField>,
    /// For an object of an API version no longer served: each old field and its v1 form.
    #[serde(rename = "v1Changes", skip_serializing_if = "Vec::is_empty")]
    pub v1_changes: Vec<String>,
}

/// A [`FieldError`] (`type`, `field`, `badValue`, `detail`, `message`) with its line and column
/// in the source, when known.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub(crate) struct LocatedError {
    #[serde(flatten)]
    pub error: FieldError,
    #[serde(flatten)]
    pub at: Option<Position>,
}

/// A field unknown to the schema, where it is, and what it became in v1 when it is a v1beta1 field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub(crate) struct UnknownField {
    pub field: String,
    #[serde(flatten)]
    pub at: Option<Position>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub(crate) struct Summary {
    pub objects: usize,
    pub valid: usize,
    pub invalid: usize,
    pub warnings: usize,
    pub notes: usize,
    /// Files or documents that could not be read.
    #[serde(rename = "inputErrors")]
    pub input_errors: usize,
}

/// What is validated: the objects read, those refused by strict decoding, those of unserved API
/// versions, the Gateway API objects (GatewayClass, Gateway, HTTPRoute, ReferenceGrant; others
/// there are left out), and how many inputs could not be read at all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Validated<'a> {
    pub objects: &'a [SourcedObject],
    pub unknown_fields: &'a [UnknownFields],
    pub unserved: &'a [Unserved],
    #[cfg_attr(not(feature = "gateway"), allow(dead_code))]
    pub gateway_api: &'a [SourcedValue],
    pub input_errors: usize,
}

impl<'a> From<&'a input::Input> for Validated<'a> {
    fn from(input: &'a input::Input) -> Self {
        Validated {
            objects: &input.objects,
            unknown_fields: &input.unknown_fields,
            unserved: &input.unserved,
            gateway_api: &input.gateway_api,
            input_errors: input.errors.len(),
        }
    }
}

/// `validate --json` for `input`, read from `texts` (each source's name and text; a source not
/// among them gets no positions): every Ingress (as an update when `stored`, what the cluster
/// holds, has it) and
/// IngressClass checked as the apiserver checks it, every Gateway API object, each error with its
/// line and column, then `diagnostics` (those of compiling `input`) and a summary.
///
/// ```
/// use ingress_router::{CompileOptions, compile, input, views};
/// let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a}\nspec:\n  rules:\n  - host: BAD\n";
/// let read = input::parse("a.yaml", text).unwrap();
/// let diagnostics = compile(&read, &CompileOptions::default()).unwrap().lint(&read);
/// let stored = input::Input::default();
/// let report = views::validation_report(&read, &[("a.yaml", text)], &stored, diagnostics);
/// assert!(!report.passes(false));
/// let json = serde_json::to_value(&report).unwrap();
/// assert_eq!(json["objects"][0]["errors"][0]["field"], "spec.rules[0].host");
/// let error = &json["objects"][0]["errors"][0];
/// assert_eq!((&error["line"], &error["column"]), (&serde_json::json!(6), &serde_json::json!(11)));
/// ```
pub fn validation_report(
    input: &input::Input,
    texts: &[(&str, &str)],
    stored: &input::Input,
    diagnostics: Vec<Diagnostic>,
) -> ValidationReport {
    let stored: Vec<&Ingress> = stored
        .objects
        .iter()
        .filter_map(|o| match &o.object {
            Object::Ingress(i) => Some(i),
            _ => None,
        })
        .collect();
    let mut locator = Locator::new(texts.iter().copied());
    report_of(Validated::from(input), &stored, diagnostics, &mut |origin, field| locator.locate(origin, field))
}

/// [`validation_report`] with the diagnostics of compiling `input`'s Ingresses with `options` (and
/// the table's hashes seeded with `seed`): what `validate --json` prints for an input no router
/// was compiled from.
pub fn validate(
    input: &input::Input,
    texts: &[(&str, &str)],
    stored: &input::Input,
    options: &crate::CompileOptions,
    seed: u64,
) -> ValidationReport {
    let objects = input.to_objects();
    let diagnostics = crate::router::compile_objects_seeded(&objects, options, seed).lint_of(&objects);
    validation_report(input, texts, stored, diagnostics)
}

/// Validates every Ingress (as an update when `stored` holds it) and IngressClass, locating each
/// error with `locate` (an object's origin and an apiserver field path, empty for the object
/// itself). `diagnostics` are those of compiling the same objects; invalid Ingresses are
/// reported here with every error instead.
pub(crate) fn report_of(
    input: Validated<'_>,
    stored: &[&Ingress],
    diagnostics: Vec<Diagnostic>,
    locate: &mut dyn FnMut(&Origin, &str) -> Option<Position>,
) -> ValidationReport {
    let mut checked: Vec<CheckedObject> = input.objects.iter().filter_map(|o| check(o, stored, locate)).collect();
    strict_decoding(&mut checked, input, locate);
    checked.extend(input.unserved.iter().map(unserved));
    #[cfg(feature = "gateway")]
    checked.extend(input.gateway_api.iter().filter_map(|g| check_gateway_api(g, locate)));
    let diagnostics: Vec<Diagnostic> = diagnostics.into_iter().filter(|d| d.code != Code::InvalidIngress).collect();
    let invalid = checked.iter().filter(|c| !c.valid).count();
    // No other diagnostic is an error today; one would fail like a warning under strict.
    let notes = diagnostics.iter().filter(|d| d.severity == Severity::Note).count();
    let summary = Summary {
        objects: checked.len(),
        valid: checked.len() - invalid,
        invalid,
        warnings: diagnostics.len() - notes,
        notes,
        input_errors: input.input_errors,
    };
    ValidationReport { objects: checked, diagnostics, summary }
}

fn same_ingress(a: &Ingress, b: &Ingress) -> bool {
    a.metadata.name == b.metadata.name && a.metadata.namespace_or_default() == b.metadata.namespace_or_default()
}

const INGRESS: &str = "Ingress.networking.k8s.io";
const INGRESS_CLASS: &str = "IngressClass.networking.k8s.io";

fn check(
    object: &SourcedObject,
    stored: &[&Ingress],
    locate: &mut dyn FnMut(&Origin, &str) -> Option<Position>,
) -> Option<CheckedObject> {
    let (kind, namespace, name, operation, errors) = match &object.object {
        Object::Ingress(i) => {
            let (operation, op) = match stored.iter().find(|o| same_ingress(o, i)) {
                Some(old) => ("update", Operation::Update { old }),
                None => ("create", Operation::Create),
            };
            let namespace = Some(String::from(i.metadata.namespace_or_default()));
            (INGRESS, namespace, &i.metadata.name, operation, validation::validate_ingress(i, op))
        }
        // No IngressClass update rules (`spec.controller` is immutable): create rules.
        Object::IngressClass(c) => {
            (INGRESS_CLASS, None, &c.metadata.name, "create", validation::validate_ingress_class(c))
        }
        Object::Service(_) => return None,
    };
    let message = (!errors.is_empty()).then(|| validation::invalid_message(kind, name, &errors));
    let errors =
        errors.into_iter().map(|error| LocatedError { at: locate(&object.origin, &error.field), error }).collect();
    Some(CheckedObject {
        kind: kind.split('.').next().unwrap_or(kind),
        namespace,
        name: name.clone(),
        operation,
        origin: object.origin.clone(),
        valid: message.is_none(),
        message,
        errors,
        unknown_fields: Vec::new(),
        v1_changes: Vec::new(),
    })
}

/// A Gateway API object, validated as the apiserver validates its CRD on create.
#[cfg(feature = "gateway")]
fn check_gateway_api(
    object: &SourcedValue,
    locate: &mut dyn FnMut(&Origin, &str) -> Option<Position>,
) -> Option<CheckedObject> {
    let verdict = gateway_validation::validate(&object.value)?;
    // Strict field validation (kubectl's default) refuses unknown fields before validating.
    let (message, errors, unknown_fields) = match verdict.strict_decoding_error() {
        Some(strict) => {
            let fields = verdict.unknown_fields.iter().map(|f| UnknownField {
                field: f.field.clone(),
                at: locate(&object.origin, &f.field),
                hint: f.did_you_mean.map(|known| format!("did you mean {known:?}?")),
            });
            (Some(bad_request(&object.origin.source, &strict)), Vec::new(), fields.collect())
        }
        None => {
            let message = verdict.message();
            let errors = verdict
                .errors
                .into_iter()
                .map(|error| LocatedError { at: locate(&object.origin, &error.field), error })
                .collect();
            (message, errors, Vec::new())
        }
    };
    Some(CheckedObject {
        kind: verdict.kind,
        namespace: verdict.namespace,
        name: verdict.name,
        operation: "create",
        origin: object.origin.clone(),
        valid: message.is_none(),
        message,
        errors,
        unknown_fields,
        v1_changes: Vec::new(),
    })
}

/// What an unknown field most likely meant: its v1 name (a v1beta1 field), or a known sibling.
fn hint(kind: &str, field: &str) -> Option<String> {
    if let Some(v1) = input::v1_replacement(field) {
        return Some(v1.to_string());
    }
    let known = schema::closest_field(schema::schema(kind)?, field)?;
    Some(format!("did you mean {known:?}?"))
}

/// Objects with fields the schema does not know are refused by the apiserver's strict decoding
/// (kubectl's default `--validate=strict`) before any validation: their answer replaces the
/// validation's. Fields are listed in the order of the file, as the decoder meets them.
fn strict_decoding(
    checked: &mut Vec<CheckedObject>,
    input: Validated<'_>,
    locate: &mut dyn FnMut(&Origin, &str) -> Option<Position>,
) {
    for unknown in input.unknown_fields {
        if !checked.iter().any(|c| c.origin == unknown.origin) {
            // A Service is not validated, but the apiserver refuses it all the same.
            checked.push(CheckedObject {
                kind: unknown.kind,
                namespace: Some(unknown.namespace.clone().unwrap_or_else(|| String::from("default"))),
                name: unknown.name.clone(),
                operation: "create",
                origin: unknown.origin.clone(),
                valid: true,
                message: None,
                errors: Vec::new(),
                unknown_fields: Vec::new(),
                v1_changes: Vec::new(),
            });
        }
        let Some(c) = checked.iter_mut().find(|c| c.origin == unknown.origin) else { continue };
        if !input.objects.iter().any(|o| o.origin == unknown.origin) {
            continue;
        }
        let mut fields: Vec<UnknownField> = unknown
            .fields
            .iter()
            .map(|f| UnknownField { field: f.clone(), at: locate(&unknown.origin, f), hint: hint(unknown.kind, f) })
            .collect();
        fields.sort_by_key(|f| f.at.map(|p| (p.line, p.column)));
        let ordered = DecodeError::Unknown(fields.iter().map(|f| f.field.clone()).collect());
        c.message = Some(bad_request(&c.origin.source, &schema::cannot_be_handled(unknown.kind, &ordered)));
        c.valid = false;
        c.errors.clear();
        c.unknown_fields = fields;
    }
}

/// `Error from server (BadRequest): error when creating "FILE": <detail>`, as `kubectl apply`
/// prints a request the apiserver could not decode.
fn bad_request(file: &str, detail: &str) -> String {
    format!("Error from server (BadRequest): error when creating {file:?}: {detail}")
}

/// An Ingress (or IngressClass) of an API version no apiserver serves, as kubectl reports it.
fn unserved(u: &Unserved) -> CheckedObject {
    CheckedObject {
        kind: if u.kind == "Ingress" { "Ingress" } else { "IngressClass" },
        namespace: u.namespace.clone(),
        name: u.name.clone(),
        operation: "create",
        origin: u.origin.clone(),
        valid: false,
        message: Some(u.kubectl_message()),
        errors: Vec::new(),
        unknown_fields: Vec::new(),
        v1_changes: u.changes.clone(),
    }
}
