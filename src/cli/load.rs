//! Reading manifests and requests, and putting the command-line flags over a tests file's `options:`.

// A file that cannot be read is rare and carries its whole place.
#![allow(clippy::result_large_err)]

use std::fmt::Display;
use std::io::Read;
use std::path::{Path, PathBuf};

use std::sync::Mutex;

use crate::input::{self, Input, InputError, InputErrorKind, SourcedObject, UnknownFields, Unserved};
use crate::model::Object;
use crate::{CompileOptions, Router};
use serde::Serialize;

use super::{Common, Failure};

/// The tests file's options (or the defaults), replaced by `--options`, with the other
/// command-line flags over them.
pub fn options(common: &Common, file: &CompileOptions) -> CompileOptions {
    let mut options = common.options.clone().unwrap_or_else(|| file.clone());
    if let Some(class) = &common.ingress_class {
        options.ingress_class = Some(class.clone());
    }
    options.implementation_specific = common.implementation_specific.unwrap_or(options.implementation_specific);
    options.profile = common.profile.unwrap_or(options.profile);
    options.normalize_path |= common.normalize_path;
    options.merge_slashes |= common.merge_slashes;
    options.escaped_slashes = common.escaped_slashes.unwrap_or(options.escaped_slashes);
    options
}

/// Compiles the manifests read (by [`load`]) and reports the diagnostics on stderr.
/// The one router of whatever the input holds (the core chooses: its Gateway API objects when
/// `gateway`, `--gateway` or the options name a Gateway, or when it has a Gateway and no
/// Ingress; else its Ingresses), with its diagnostics on stderr.
pub fn router(
    loaded: &Loaded,
    common: &Common,
    file: &CompileOptions,
    gateway: Option<&str>,
) -> Result<Router, Failure> {
    let mut options = options(common, file);
    if let Some(gateway) = gateway {
        options.gateway = Some(gateway.into());
    }
    compile(loaded, &options)
}

/// [`router`] with the options given whole.
pub fn compile(loaded: &Loaded, options: &CompileOptions) -> Result<Router, Failure> {
    let input = loaded.input();
    let has_gateway = input.gateway_api.iter().any(|g| g.value.get("kind").and_then(|k| k.as_str()) == Some("Gateway"));
    if options.gateway.is_none() && !has_gateway {
        loaded.require_ingress("nothing to route")?;
    }
    let router = crate::compile(&input, options).map_err(|e| Failure(format!("{}: {e}", loaded.names())))?;
    if options.gateway.is_none() && has_gateway && router.table().gateway.is_none() {
        stderr(&"note: the input also holds Gateway API objects: --gateway NAMESPACE/NAME routes through them");
    }
    for diagnostic in &router.lint_of(&loaded.objects()) {
        stderr(diagnostic);
    }
    Ok(router)
}

/// The router of a table file (`ingress-router compile`) when `-f` names one, alone and without
/// compile options; `None` when `-f` names manifests.
pub fn table_file(common: &Common, gateway: Option<&str>) -> Result<Option<Router>, Failure> {
    let is_table = |path: &Path| {
        let mut head = [0u8; 8];
        std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
            && &head == crate::table::file::MAGIC
    };
    let Some(table) = common.files.iter().find(|p| p.as_os_str() != "-" && p.is_file() && is_table(p)) else {
        return Ok(None);
    };
    let name = table.display();
    if common.files.len() > 1 {
        return Err(Failure(format!("{name} is a table file: give it alone (-f once), not with manifests")));
    }
    let options = common.options.is_some()
        || common.ingress_class.is_some()
        || common.implementation_specific.is_some()
        || common.profile.is_some()
        || common.normalize_path
        || common.merge_slashes
        || common.escaped_slashes.is_some()
        || gateway.is_some();
    if options {
        return Err(Failure(format!(
            "{name} is a table file: its options were fixed by `ingress-router compile`; give them there"
        )));
    }
    let bytes = std::fs::read(table).map_err(|e| Failure(format!("{name}: {e}")))?;
    crate::load_table(&bytes).map(Some).map_err(|e| Failure(format!("{name}: {e}")))
}

pub fn stderr(line: &dyn Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// One file (or stdin) as read: its name in messages and its text, kept to point at lines later.
pub struct Source {
    pub name: String,
    pub text: String,
}

/// Everything `-f` named: the objects with where they came from, and the text of every source.
pub struct Loaded {
    pub objects: Vec<SourcedObject>,
    pub sources: Vec<Source>,
    /// What could not be read (a file, a folder, a document), each already reported on stderr.
    pub problems: Vec<InputError>,
    /// Objects with fields the apiserver's strict decoding rejects (routing ignores the fields).
    pub unknown_fields: Vec<UnknownFields>,
    /// Ingresses and IngressClasses of API versions no apiserver serves: left out.
    pub unserved: Vec<Unserved>,
    /// Gateway API objects and Namespaces, as read (`--gateway` routes with them).
    pub gateway_api: Vec<crate::input::SourcedValue>,
}

impl Loaded {
    /// The objects alone, in input order.
    pub fn objects(&self) -> Vec<Object> {
        self.objects.iter().map(|o| o.object.clone()).collect()
    }

    /// Bad input unless there is an Ingress: `why` ends the message (`nothing to route`).
    pub fn require_ingress(&self, why: &str) -> Result<(), Failure> {
        if self.objects.iter().any(|o| matches!(o.object, Object::Ingress(_))) {
            return Ok(());
        }
        Err(Failure(format!(
            "{}: no Ingress (kind: Ingress, apiVersion: networking.k8s.io/v1) in the input, {why}",
            self.names()
        )))
    }

    /// What was read, as the core's one input.
    pub fn input(&self) -> Input {
        let sources = self.sources.iter().map(|s| s.name.clone()).collect();
        Input::of(self.objects.clone(), self.gateway_api.clone(), sources)
    }

    /// The sources' names, for messages.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.sources.iter().map(|s| s.name.as_str()).collect();
        if names.is_empty() { String::from("(nothing could be read)") } else { names.join(", ") }
    }
}

/// Every input of this run that could not be read: the command's exit code is then at least 2 (the
/// worst result wins), while the readable rest was still processed.
static PROBLEMS: Mutex<Vec<InputError>> = Mutex::new(Vec::new());

/// Whether some input of this run could not be read.
pub fn had_problems() -> bool {
    PROBLEMS.lock().is_ok_and(|p| !p.is_empty())
}

/// What `--json` prints when the command fails: `error` (the first input that could not be read,
/// else the failure itself) and `errors` (every input that could not be read, then the failure).
/// Each is an [`InputError`] as the core serialises it; the failure is `{kind: "failure", message}`.
#[derive(Serialize)]
pub struct JsonFailure {
    error: JsonError,
    errors: Vec<JsonError>,
}

#[derive(Clone, Serialize)]
#[serde(untagged)]
enum JsonError {
    Input(InputError),
    Failure { kind: &'static str, message: String },
}

pub fn json_failure(message: &str) -> JsonFailure {
    let mut errors: Vec<JsonError> =
        PROBLEMS.lock().map(|p| p.iter().cloned().map(JsonError::Input).collect()).unwrap_or_default();
    let failure = JsonError::Failure { kind: "failure", message: message.into() };
    let error = errors.first().cloned().unwrap_or_else(|| failure.clone());
    errors.push(failure);
    JsonFailure { error, errors }
}

/// Reads every file (folders expanded) and reports the input's notes and problems on stderr.
/// A file, folder or document that cannot be read is reported and the others are still read.
pub fn load(files: &[PathBuf]) -> Result<Loaded, Failure> {
    load_with(files, true)
}

/// [`load`]; `note_unserved`: print a warning for each left-out v1beta1 object (`validate` reports
/// them itself, as errors).
pub fn load_with(files: &[PathBuf], note_unserved: bool) -> Result<Loaded, Failure> {
    let mut input = Input::default();
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    for file in files {
        let paths = match expand(file) {
            Ok(paths) => paths,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        for path in paths {
            match read_source(&path) {
                Ok((name, text)) => {
                    input.extend(input::parse_all(&name, &text));
                    sources.push(Source { name, text });
                }
                Err(problem) => problems.push(problem),
            }
        }
    }
    problems.extend(input.errors.iter().cloned());
    for problem in &problems {
        stderr(&format_args!("error: {problem}"));
    }
    for note in &input.notes {
        let unserved = input.unserved.iter().any(|u| u.origin == note.origin);
        match (unserved, note_unserved) {
            (false, _) => stderr(&format_args!("note: {note}")),
            (true, true) => stderr(&format_args!("warning: {note}")),
            (true, false) => {}
        }
    }
    if let Ok(mut all) = PROBLEMS.lock() {
        all.extend(problems.iter().cloned());
    }
    Ok(Loaded {
        objects: input.objects,
        sources,
        problems,
        unknown_fields: input.unknown_fields,
        unserved: input.unserved,
        gateway_api: input.gateway_api,
    })
}

/// A file or folder that cannot be read.
fn unreadable(path: &Path, message: String) -> InputError {
    InputError::new(InputErrorKind::Unreadable, &path.display().to_string(), message)
}

/// A file stands for itself; a folder for every `*.yaml`, `*.yml` and `*.json` inside, recursively, sorted.
fn expand(path: &Path) -> Result<Vec<PathBuf>, InputError> {
    if path == Path::new("-") || !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).map_err(|e| unreadable(&folder, format!("cannot read folder: {e}")))?;
        for entry in entries {
            let entry = entry.map_err(|e| unreadable(&folder, format!("cannot read folder: {e}")))?;
            let p = entry.path();
            if p.is_dir() {
                folders.push(p);
            } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "yaml" | "yml" | "json")) {
                found.push(p);
            }
        }
    }
    if found.is_empty() {
        return Err(unreadable(path, String::from("no *.yaml, *.yml or *.json file in this folder")));
    }
    found.sort();
    Ok(found)
}

/// Reads a file (`-`: stdin) and names it for messages.
pub fn read_text(path: &Path) -> Result<(String, String), Failure> {
    read_source(path).map_err(|e| Failure(e.to_string()))
}

fn read_source(path: &Path) -> Result<(String, String), InputError> {
    let name = if path == Path::new("-") { String::from("<stdin>") } else { path.display().to_string() };
    let mut text = String::new();
    let read = if path == Path::new("-") {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    match read {
        Ok(()) => Ok((name, text)),
        Err(e) => Err(InputError::new(InputErrorKind::Unreadable, &name, format!("cannot read: {e}"))),
    }
}
