//! `ingress-router validate`: the apiserver's answer for every Ingress and IngressClass, each
//! error pointed at its line and column, then the warnings and notes of compiling the input.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use ingress_router::ImplementationSpecific;
use ingress_router::input::{self, Origin, SourcedObject, Unserved};
use ingress_router::model::{Ingress, Object};
use ingress_router::position::{Position, Positions};
use ingress_router::schema::{self, DecodeError};
use ingress_router::validation::{self, FieldError, Operation};
use ingress_router::{Code, Diagnostic, ObjectRef, Severity};
use ingress_router::{CompileOptions, Profile, compile};
use serde::Serialize;

use super::load::{self, Loaded};
use super::{Common, Failure, show};

const INGRESS: &str = "Ingress.networking.k8s.io";
const INGRESS_CLASS: &str = "IngressClass.networking.k8s.io";

#[derive(Args)]
pub struct ValidateArgs {
    /// Manifests: a file, or a folder (every *.yaml, *.yml, *.json inside, recursively); `-` reads stdin. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// The stored versions (`kubectl get -o yaml`): an Ingress found there by namespace and name is
    /// validated as an update of it, the others as creates. Repeatable.
    #[arg(long, value_name = "OLD_FILE")]
    update: Vec<PathBuf>,
    /// Warnings fail too (exit 1).
    #[arg(long)]
    strict: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// The served IngressClass, for the warnings and notes (default: every Ingress takes part).
    #[arg(long, value_name = "NAME")]
    ingress_class: Option<String>,
    /// How ImplementationSpecific paths match, for the warnings: prefix, exact or string-prefix [default: prefix].
    #[arg(long, value_name = "MODE")]
    implementation_specific: Option<ImplementationSpecific>,
    /// Routing profile, for the warnings [default: spec].
    #[arg(long, value_name = "PROFILE")]
    profile: Option<Profile>,
}

/// One validated object.
#[derive(Serialize)]
struct Checked {
    kind: &'static str,
    namespace: Option<String>,
    name: String,
    /// `create`, or `update` when `--update` holds the stored version.
    operation: &'static str,
    origin: Origin,
    valid: bool,
    /// The apiserver's whole answer (`invalid_message`), `null` when valid.
    message: Option<String>,
    errors: Vec<Located>,
    /// Fields the apiserver's strict decoding rejects (the object is then refused before validation).
    #[serde(rename = "unknownFields", skip_serializing_if = "Vec::is_empty")]
    unknown_fields: Vec<UnknownField>,
    /// For an object of an API version no longer served: each old field and its v1 form.
    #[serde(rename = "v1Changes", skip_serializing_if = "Vec::is_empty")]
    v1_changes: Vec<String>,
}

/// A field unknown to the schema, where it is, and what it became in v1 when it is a v1beta1 field.
#[derive(Serialize)]
struct UnknownField {
    field: String,
    #[serde(flatten)]
    at: Option<Position>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
}

/// What an unknown field most likely meant: its v1 name (a v1beta1 field), or a known sibling.
fn hint(kind: &str, field: &str) -> Option<String> {
    if let Some(v1) = input::v1_replacement(field) {
        return Some(v1.to_string());
    }
    let known = schema::closest_field(schema::schema(kind)?, field)?;
    Some(format!("did you mean {known:?}?"))
}

/// A `FieldError` (its JSON: `type`, `field`, `badValue`, `detail`, `message`) with `line` and
/// `column` in its source when known.
#[derive(Serialize)]
struct Located {
    #[serde(flatten)]
    error: FieldError,
    #[serde(flatten)]
    at: Option<Position>,
}

#[derive(Serialize)]
struct Summary {
    objects: usize,
    valid: usize,
    invalid: usize,
    warnings: usize,
    notes: usize,
    /// Files or documents that could not be read (exit code 2).
    #[serde(rename = "inputErrors")]
    input_errors: usize,
}

#[derive(Serialize)]
struct Report<'a> {
    /// Inputs that could not be read (each with file, line, column, message), also on stderr.
    #[serde(rename = "inputErrors")]
    input_errors: &'a [load::Problem],
    objects: &'a [Checked],
    diagnostics: &'a [Diagnostic],
    summary: &'a Summary,
}

/// Line and column lookups, reading each source's positions only when first asked.
struct Locator<'a> {
    loaded: &'a Loaded,
    read: HashMap<&'a str, Positions>,
}

impl<'a> Locator<'a> {
    fn new(loaded: &'a Loaded) -> Self {
        Locator { loaded, read: HashMap::new() }
    }

    /// Where `field` (an apiserver field path, empty for the object itself) of the object from `origin` is.
    fn locate(&mut self, origin: &'a Origin, field: &str) -> Option<Position> {
        let source = origin.source.as_str();
        if !self.read.contains_key(source) {
            self.read.insert(source, Positions::new(self.loaded.text(source)?));
        }
        let prefix = origin.path_prefix();
        let path = match (prefix.is_empty(), field.is_empty()) {
            (true, _) => field.to_string(),
            (false, true) => prefix,
            (false, false) => format!("{prefix}.{field}"),
        };
        self.read[source].locate(origin.document, &path)
    }

    /// `file:line:column` (or the file alone when the position is unknown).
    fn place(&mut self, origin: &'a Origin, field: &str) -> String {
        match self.locate(origin, field) {
            Some(p) => format!("{}:{}:{}", origin.source, p.line, p.column),
            None => origin.source.clone(),
        }
    }
}

impl ValidateArgs {
    pub fn json(&self) -> bool {
        self.json
    }
}

pub fn run(args: &ValidateArgs) -> Result<i32, Failure> {
    let loaded = load::load_with(&args.files, false)?;
    let stored = if args.update.is_empty() { None } else { Some(load::load(&args.update)?) };
    let served = loaded.objects.iter().any(|o| matches!(o.object, Object::Ingress(_) | Object::IngressClass(_)));
    if !served && loaded.unserved.is_empty() {
        return Err(Failure(format!(
            "{}: no Ingress or IngressClass (apiVersion: networking.k8s.io/v1) in the input, nothing to validate",
            loaded.names()
        )));
    }
    let old_ingresses: Vec<&Ingress> = stored.iter().flat_map(|s| s.objects.iter()).filter_map(ingress).collect();
    let mut locator = Locator::new(&loaded);
    let mut checked: Vec<Checked> =
        loaded.objects.iter().filter_map(|o| check(o, &old_ingresses, &mut locator)).collect();
    strict_decoding(&mut checked, &loaded, &mut locator);
    checked.extend(loaded.unserved.iter().map(unserved));
    unmatched_notes(&old_ingresses, &loaded);

    let common = Common {
        files: args.files.clone(),
        ingress_class: args.ingress_class.clone(),
        implementation_specific: args.implementation_specific,
        profile: args.profile,
        normalize_path: false,
        merge_slashes: false,
        escaped_slashes: None,
    };
    let options = load::options(&common, &CompileOptions::default());
    let objects = loaded.objects();
    let diagnostics = compile(&objects, &options).lint(&objects);
    // The invalid Ingresses are reported above, each with every error and its place.
    let diagnostics: Vec<Diagnostic> = diagnostics.into_iter().filter(|d| d.code != Code::InvalidIngress).collect();

    let invalid = checked.iter().filter(|c| !c.valid).count();
    // No other diagnostic is an error today; one would fail like a warning under --strict.
    let notes = diagnostics.iter().filter(|d| d.severity == Severity::Note).count();
    let summary = Summary {
        objects: checked.len(),
        valid: checked.len() - invalid,
        invalid,
        warnings: diagnostics.len() - notes,
        notes,
        input_errors: loaded.problems.len(),
    };
    let text = if args.json {
        show::json(&Report {
            input_errors: &loaded.problems,
            objects: &checked,
            diagnostics: &diagnostics,
            summary: &summary,
        })
    } else {
        render(&checked, &diagnostics, &summary, &mut locator)
    };
    super::print(&text);
    Ok(i32::from(summary.invalid > 0 || (args.strict && summary.warnings > 0)))
}

fn ingress(o: &SourcedObject) -> Option<&Ingress> {
    match &o.object {
        Object::Ingress(i) => Some(i),
        _ => None,
    }
}

fn same_ingress(a: &Ingress, b: &Ingress) -> bool {
    a.metadata.name == b.metadata.name && a.metadata.namespace_or_default() == b.metadata.namespace_or_default()
}

/// Validates one Ingress (as an update when its stored version is in `old`) or IngressClass.
fn check<'a>(object: &'a SourcedObject, old: &[&Ingress], locator: &mut Locator<'a>) -> Option<Checked> {
    let (kind, namespace, name, operation, errors) = match &object.object {
        Object::Ingress(i) => {
            let (operation, op) = match old.iter().find(|o| same_ingress(o, i)) {
                Some(old) => ("update", Operation::Update { old }),
                None => ("create", Operation::Create),
            };
            let namespace = Some(i.metadata.namespace_or_default().to_string());
            (INGRESS, namespace, &i.metadata.name, operation, validation::validate_ingress(i, op))
        }
        // The library has no IngressClass update rules (`spec.controller` is immutable): create rules.
        Object::IngressClass(c) => {
            (INGRESS_CLASS, None, &c.metadata.name, "create", validation::validate_ingress_class(c))
        }
        Object::Service(_) => return None,
    };
    let message = (!errors.is_empty()).then(|| validation::invalid_message(kind, name, &errors));
    let errors =
        errors.into_iter().map(|error| Located { at: locator.locate(&object.origin, &error.field), error }).collect();
    Some(Checked {
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

// ---------------------------------------------------------------------------------------------
// Refused before validation: unknown fields (strict decoding) and unserved API versions

/// Objects with fields the schema does not know are refused by the apiserver's strict decoding
/// (kubectl's default `--validate=strict`) before any validation: their answer replaces the
/// validation's. Fields are listed in the order of the file, as the decoder meets them.
fn strict_decoding<'a>(checked: &mut Vec<Checked>, loaded: &'a Loaded, locator: &mut Locator<'a>) {
    for unknown in &loaded.unknown_fields {
        if !checked.iter().any(|c| c.origin == unknown.origin) {
            // A Service is not validated, but the apiserver refuses it all the same.
            checked.push(Checked {
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
        let origin = &loaded.objects.iter().find(|o| o.origin == unknown.origin).map(|o| &o.origin);
        let Some(origin) = origin else { continue };
        let mut fields: Vec<UnknownField> = unknown
            .fields
            .iter()
            .map(|f| UnknownField { field: f.clone(), at: locator.locate(origin, f), hint: hint(unknown.kind, f) })
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
fn unserved(u: &Unserved) -> Checked {
    Checked {
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

/// The lines under an object refused before validation: each unknown field, or the v1 mapping.
fn render_refused<'a>(out: &mut String, c: &Checked, locator: &mut Locator<'a>) {
    let place = |at: &Option<Position>| match at {
        Some(at) => format!("{}:{}:{}", c.origin.source, at.line, at.column),
        None => c.origin.source.clone(),
    };
    for f in &c.unknown_fields {
        let _ = write!(out, "  {}: unknown field {:?}", place(&f.at), f.field);
        let _ = match &f.hint {
            Some(hint) => writeln!(out, ": {hint}"),
            None => writeln!(out),
        };
    }
    let loaded: &'a Loaded = locator.loaded;
    if let Some(u) = loaded.unserved.iter().find(|u| u.origin == c.origin) {
        let origin = &u.origin;
        let at = locator.locate(origin, "apiVersion");
        let _ = writeln!(
            out,
            "  {}: apiVersion: served versions: networking.k8s.io/v1 (since Kubernetes 1.19; the only one since 1.22)",
            place(&at)
        );
        for change in &c.v1_changes {
            let field = change.split([' ', ':']).next().unwrap_or("");
            let _ = writeln!(out, "  {}: {change}", place(&locator.locate(origin, field)));
        }
        let _ = writeln!(out, "  fix: {}", unserved_fix(c.kind));
    }
}

fn unserved_fix(kind: &str) -> String {
    let mut fix = String::from("set apiVersion: networking.k8s.io/v1");
    if kind == "Ingress" {
        fix.push_str(" and rewrite each backend as `service: {name: NAME, port: {number: PORT}}`, `spec.backend` as `spec.defaultBackend`, and give every path a pathType");
    }
    fix
}

/// A stored Ingress that no Ingress of the input replaces is most likely a misspelt name.
fn unmatched_notes(old: &[&Ingress], loaded: &Loaded) {
    for o in old {
        if !loaded.objects.iter().filter_map(ingress).any(|i| same_ingress(i, o)) {
            let meta = &o.metadata;
            load::stderr(&format_args!(
                "note: --update: Ingress {}/{} is not in the input (nothing to validate as its update)",
                meta.namespace_or_default(),
                meta.name
            ));
        }
    }
}

fn render(checked: &[Checked], diagnostics: &[Diagnostic], summary: &Summary, locator: &mut Locator<'_>) -> String {
    let mut out = String::new();
    for c in checked {
        let Some(message) = &c.message else { continue };
        let _ = writeln!(out, "{message}");
        render_refused(&mut out, c, locator);
        for Located { error, at } in &c.errors {
            let _ = match at {
                Some(at) => writeln!(out, "  {}:{}:{}: {error}", c.origin.source, at.line, at.column),
                None => writeln!(out, "  {}: {error}", c.origin.source),
            };
        }
        out.push('\n');
    }
    for d in diagnostics {
        let _ = writeln!(out, "{}[{}]: {}", d.severity.as_str(), d.code, d.message);
        if let Some(origin) = d.objects.first().and_then(|r| find(&locator.loaded.objects, r)) {
            let field = d.objects[0].field.as_deref().unwrap_or("");
            let _ = writeln!(out, "  --> {}", locator.place(origin, field));
        }
        if !d.fix.is_empty() {
            let _ = writeln!(out, "  fix: {}", d.fix);
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{}: {} invalid, {}, {}",
        count(summary.objects, "object"),
        summary.invalid,
        count(summary.warnings, "warning"),
        count(summary.notes, "note")
    );
    if summary.input_errors > 0 {
        out.pop();
        let _ = writeln!(out, "; {} could not be read (see above)", count(summary.input_errors, "input"));
    }
    out
}

/// Where the object a diagnostic names came from.
fn find<'a>(objects: &'a [SourcedObject], r: &ObjectRef) -> Option<&'a Origin> {
    let namespace = r.namespace.as_deref();
    objects
        .iter()
        .find(|o| match &o.object {
            Object::Ingress(i) => {
                r.kind == "Ingress" && i.metadata.name == r.name && Some(i.metadata.namespace_or_default()) == namespace
            }
            Object::Service(s) => {
                r.kind == "Service" && s.metadata.name == r.name && Some(s.metadata.namespace_or_default()) == namespace
            }
            Object::IngressClass(c) => r.kind == "IngressClass" && c.metadata.name == r.name,
        })
        .map(|o| &o.origin)
}

fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}
