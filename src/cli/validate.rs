//! `ingress-router validate`: the apiserver's answer for every Ingress and IngressClass, each
//! error pointed at its line and column, then the warnings and notes of compiling the input.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use ingress_router::ImplementationSpecific;
use ingress_router::input::{Origin, SourcedObject};
use ingress_router::model::{Ingress, Object};
use ingress_router::position::{Position, Positions};
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
}

#[derive(Serialize)]
struct Report<'a> {
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

pub fn run(args: &ValidateArgs) -> Result<i32, Failure> {
    let loaded = load::load(&args.files)?;
    let stored = if args.update.is_empty() { None } else { Some(load::load(&args.update)?) };
    if !loaded.objects.iter().any(|o| matches!(o.object, Object::Ingress(_) | Object::IngressClass(_))) {
        return Err(Failure(format!(
            "{}: no Ingress or IngressClass (apiVersion: networking.k8s.io/v1) in the input, nothing to validate",
            loaded.names()
        )));
    }
    let old_ingresses: Vec<&Ingress> = stored.iter().flat_map(|s| s.objects.iter()).filter_map(ingress).collect();
    let mut locator = Locator::new(&loaded);
    let checked: Vec<Checked> = loaded.objects.iter().filter_map(|o| check(o, &old_ingresses, &mut locator)).collect();
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
    };
    let text = if args.json {
        show::json(&Report { objects: &checked, diagnostics: &diagnostics, summary: &summary })
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
    })
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
