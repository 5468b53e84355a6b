//! Reading manifests and requests, and putting the command-line flags over a tests file's `options:`.

use std::fmt::Display;
use std::io::Read;
use std::path::{Path, PathBuf};

use std::sync::Mutex;

use ingress_router::input::{self, Input, InputError, SourcedObject, UnknownFields, Unserved};
use ingress_router::model::Object;
use ingress_router::{CompileOptions, Request, Router, Scheme, compile};
use serde::Serialize;

use super::{Common, Failure};

/// The tests file's options (or the defaults), with the command-line flags over them.
pub fn options(common: &Common, file: &CompileOptions) -> CompileOptions {
    let mut options = file.clone();
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

/// Reads the manifests, compiles them and reports notes and diagnostics on stderr.
pub fn router(common: &Common, file: &CompileOptions) -> Result<Router, Failure> {
    let loaded = load(&common.files)?;
    loaded.require_ingress("nothing to route")?;
    let options = options(common, file);
    let objects = loaded.objects();
    let router = compile(&objects, &options);
    for diagnostic in &router.lint(&objects) {
        stderr(diagnostic);
    }
    Ok(router)
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
    pub problems: Vec<Problem>,
    /// Objects with fields the apiserver's strict decoding rejects (routing ignores the fields).
    pub unknown_fields: Vec<UnknownFields>,
    /// Ingresses and IngressClasses of API versions no apiserver serves: left out.
    pub unserved: Vec<Unserved>,
}

impl Loaded {
    /// The objects alone, in input order.
    pub fn objects(&self) -> Vec<Object> {
        self.objects.iter().map(|o| o.object.clone()).collect()
    }

    /// The text an object came from (`Origin::source` names it).
    pub fn text(&self, source: &str) -> Option<&str> {
        self.sources.iter().find(|s| s.name == source).map(|s| s.text.as_str())
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

    /// The sources' names, for messages.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.sources.iter().map(|s| s.name.as_str()).collect();
        if names.is_empty() { String::from("(nothing could be read)") } else { names.join(", ") }
    }
}

/// An input that could not be read, located as precisely as known: what `--json` prints as an error object.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    /// Empty for a failure that is no one file's (omitted from JSON then).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub message: String,
}

impl Problem {
    fn from_input(e: &InputError) -> Problem {
        Problem {
            file: e.source.clone(),
            document: e.document,
            line: e.line,
            column: e.column,
            field: e.field.clone(),
            message: e.message.clone(),
        }
    }

    fn file(file: String, message: String) -> Problem {
        Problem { file, document: None, line: None, column: None, field: None, message }
    }
}

impl Display for Problem {
    /// As [`InputError`] shows itself: `file: document D, line L, column C: field: message`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.document.is_none() && self.line.is_none() && self.message.starts_with(&self.file) {
            return f.write_str(&self.message); // file-level messages name their file first
        }
        f.write_str(&self.file)?;
        if let Some(d) = self.document {
            write!(f, ": document {d}")?;
        }
        if let Some(l) = self.line {
            write!(f, ", line {l}")?;
            if let Some(c) = self.column {
                write!(f, ", column {c}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every input of this run that could not be read: the command's exit code is then at least 2 (the
/// worst result wins), while the readable rest was still processed.
static PROBLEMS: Mutex<Vec<Problem>> = Mutex::new(Vec::new());

/// Whether some input of this run could not be read.
pub fn had_problems() -> bool {
    PROBLEMS.lock().is_ok_and(|p| !p.is_empty())
}

/// What `--json` prints when the command fails: `error` (the first input that could not be read,
/// with its file, line and column, else the failure itself) and `errors` (every one of them, then
/// the failure).
#[derive(Serialize)]
pub struct JsonFailure {
    error: Problem,
    errors: Vec<Problem>,
}

pub fn json_failure(message: &str) -> JsonFailure {
    let mut errors = PROBLEMS.lock().map(|p| p.clone()).unwrap_or_default();
    let failure =
        Problem { file: String::new(), document: None, line: None, column: None, field: None, message: message.into() };
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
            Err(Failure(message)) => {
                problems.push(Problem::file(file.display().to_string(), message));
                continue;
            }
        };
        for path in paths {
            match read_text(&path) {
                Ok((name, text)) => {
                    input.extend(input::parse_all(&name, &text));
                    sources.push(Source { name, text });
                }
                Err(Failure(message)) => problems.push(Problem::file(path.display().to_string(), message)),
            }
        }
    }
    problems.extend(input.errors.iter().map(Problem::from_input));
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
    })
}

/// A file stands for itself; a folder for every `*.yaml`, `*.yml` and `*.json` inside, recursively, sorted.
fn expand(path: &Path) -> Result<Vec<PathBuf>, Failure> {
    if path == Path::new("-") || !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .map_err(|e| Failure(format!("{}: cannot read folder: {e}", folder.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| Failure(format!("{}: cannot read folder: {e}", folder.display())))?;
            let p = entry.path();
            if p.is_dir() {
                folders.push(p);
            } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "yaml" | "yml" | "json")) {
                found.push(p);
            }
        }
    }
    if found.is_empty() {
        return Err(Failure(format!("{}: no *.yaml, *.yml or *.json file in this folder", path.display())));
    }
    found.sort();
    Ok(found)
}

/// Reads a file (`-`: stdin) and names it for messages.
pub fn read_text(path: &Path) -> Result<(String, String), Failure> {
    if path == Path::new("-") {
        let name = String::from("<stdin>");
        let mut text = String::new();
        return match std::io::stdin().read_to_string(&mut text) {
            Ok(_) => Ok((name, text)),
            Err(e) => Err(Failure(format!("{name}: cannot read: {e}"))),
        };
    }
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((name, text)),
        Err(e) => Err(Failure(format!("{name}: cannot read: {e}"))),
    }
}

/// A request as given: host and path as received, the scheme, and headers (`-H`, or a tests
/// file's `headers`).
#[derive(Default)]
pub struct RequestSpec {
    pub host: String,
    pub path: String,
    pub scheme: Scheme,
    pub headers: Vec<(String, String)>,
}

impl RequestSpec {
    /// From `URL` or `HOST PATH`.
    pub fn from_args(target: &str, path: Option<&str>) -> Result<Self, Failure> {
        match path {
            Some(path) => Ok(RequestSpec { host: target.into(), path: path.into(), ..RequestSpec::default() }),
            None => Self::from_url(target).map_err(Failure),
        }
    }

    pub fn from_url(url: &str) -> Result<Self, String> {
        let request = Request::from_url(url).map_err(|e| format!("bad URL {url:?}: {e}"))?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        Ok(RequestSpec {
            host: text(request.host),
            path: text(request.path),
            scheme: request.scheme,
            headers: Vec::new(),
        })
    }

    /// Adds `Name: value` headers as given on the command line.
    pub fn with_header_args(mut self, headers: &[String]) -> Result<Self, Failure> {
        for h in headers {
            let (name, value) =
                h.split_once(':').ok_or_else(|| Failure(format!("bad header {h:?}: write it as 'Name: value'")))?;
            self.headers.push((name.trim().into(), value.trim().into()));
        }
        Ok(self)
    }

    /// The headers as the borrowed pairs a [`Request`] holds.
    pub fn header_refs(&self) -> Vec<(&str, &str)> {
        self.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect()
    }

    pub fn request<'a>(&'a self, headers: &'a [(&'a str, &'a str)]) -> Request<'a> {
        Request::new(&self.host, &self.path).with_scheme(self.scheme).with_headers(headers)
    }
}
