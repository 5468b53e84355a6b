//! `ingress-router validate`: the apiserver's answer for every Ingress and IngressClass, and
//! every GatewayClass, Gateway, HTTPRoute and ReferenceGrant (their CRDs' schema and CEL rules),
//! each error pointed at its line and column, then the warnings and notes of compiling the input.

use std::fmt::Write;
use std::path::PathBuf;

use crate::gateway::validation as gateway_validation;
use crate::input::{Origin, SourcedObject};
use crate::model::{Ingress, Object};
use crate::position::Position;
use crate::router::compile_objects;
use crate::views::Locator;
use crate::views::{self, CheckedObject, LocatedError, Validated, ValidationReport};
use crate::{CompileOptions, ImplementationSpecific, ObjectRef, Profile};
use clap::Args;
use serde::Serialize;

use super::load::{self, Loaded};
use super::{Common, Failure, show};

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
    /// Compile options as JSON (`{"ingressClass": "nginx"}`), for the warnings; the flags above override them.
    #[arg(long, value_name = "JSON", value_parser = super::compile_options)]
    options: Option<CompileOptions>,
}

#[derive(Serialize)]
struct Report<'a> {
    /// Inputs that could not be read (each with file, line, column, message), also on stderr.
    #[serde(rename = "inputErrors")]
    input_errors: &'a [crate::input::InputError],
    #[serde(flatten)]
    report: &'a ValidationReport,
}

/// Line and column lookups in the sources read, and `file:line:column` for messages.
struct Places<'a> {
    loaded: &'a Loaded,
    locator: Locator<'a>,
}

impl<'a> Places<'a> {
    fn new(loaded: &'a Loaded) -> Self {
        Places { loaded, locator: Locator::new(loaded.sources.iter().map(|s| (s.name.as_str(), s.text.as_str()))) }
    }

    fn locate(&mut self, origin: &Origin, field: &str) -> Option<Position> {
        self.locator.locate(origin, field)
    }

    /// `file:line:column` (or the file alone when the position is unknown).
    fn place(&mut self, origin: &Origin, field: &str) -> String {
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
    let served = loaded.objects.iter().any(|o| matches!(o.object, Object::Ingress(_) | Object::IngressClass(_)))
        || loaded.gateway_api.iter().any(|g| gateway_validation::validate(&g.value).is_some());
    if !served && loaded.unserved.is_empty() {
        return Err(Failure(format!(
            "{}: no Ingress or IngressClass (apiVersion: networking.k8s.io/v1), nor GatewayClass, Gateway, HTTPRoute or ReferenceGrant (gateway.networking.k8s.io/v1), in the input, nothing to validate",
            loaded.names()
        )));
    }
    let old_ingresses: Vec<&Ingress> = stored.iter().flat_map(|s| s.objects.iter()).filter_map(ingress).collect();
    unmatched_notes(&old_ingresses, &loaded);
    let common = Common {
        files: args.files.clone(),
        ingress_class: args.ingress_class.clone(),
        implementation_specific: args.implementation_specific,
        profile: args.profile,
        normalize_path: false,
        merge_slashes: false,
        escaped_slashes: None,
        options: args.options.clone(),
    };
    let options = load::options(&common, &CompileOptions::default());
    let objects = loaded.objects();
    let diagnostics = compile_objects(&objects, &options).lint_of(&objects);
    let validated = Validated {
        objects: &loaded.objects,
        unknown_fields: &loaded.unknown_fields,
        unserved: &loaded.unserved,
        gateway_api: &loaded.gateway_api,
        input_errors: loaded.problems.len(),
    };
    let mut locator = Places::new(&loaded);
    let report =
        views::report_of(validated, &old_ingresses, diagnostics, &mut |origin, field| locator.locate(origin, field));
    let text = if args.json {
        show::json(&Report { input_errors: &loaded.problems, report: &report })
    } else {
        render(&report, &mut locator)
    };
    super::print(&text);
    Ok(i32::from(!report.passes(args.strict)))
}

fn ingress(o: &SourcedObject) -> Option<&Ingress> {
    match &o.object {
        Object::Ingress(i) => Some(i),
        _ => None,
    }
}

/// The lines under an object refused before validation: each unknown field, or the v1 mapping.
fn render_refused<'a>(out: &mut String, c: &CheckedObject, locator: &mut Places<'a>) {
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
        if !loaded.objects.iter().filter_map(ingress).any(|i| {
            i.metadata.name == o.metadata.name && i.metadata.namespace_or_default() == o.metadata.namespace_or_default()
        }) {
            let meta = &o.metadata;
            load::stderr(&format_args!(
                "note: --update: Ingress {}/{} is not in the input (nothing to validate as its update)",
                meta.namespace_or_default(),
                meta.name
            ));
        }
    }
}

fn render(report: &ValidationReport, locator: &mut Places<'_>) -> String {
    let (checked, diagnostics, summary) = (&report.objects, &report.diagnostics, &report.summary);
    let mut out = String::new();
    for c in checked {
        let Some(message) = &c.message else { continue };
        let _ = writeln!(out, "{message}");
        render_refused(&mut out, c, locator);
        for LocatedError { error, at, .. } in &c.errors {
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
