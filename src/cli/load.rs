//! Reading manifests and requests, and turning flags (and a tests file's `options:`) into options.

use std::fmt::Display;
use std::io::Read;
use std::path::{Path, PathBuf};

use ingress_router::input::{self, Input, SourcedObject};
use ingress_router::model::Object;
use ingress_router::normalize::{EscapedSlashes, PathNormalization, Rejected, normalize_path};
use ingress_router::path::ImplementationSpecific;
use ingress_router::{CompileOptions, Profile, Request, Router, compile};
use serde::{Deserialize, Deserializer};

use super::{Common, Failure};

/// A value given by name on the command line or in a tests file.
pub trait Flag: Sized {
    const EXPECTED: &'static str;
    fn parse(s: &str) -> Option<Self>;
}

impl Flag for ImplementationSpecific {
    const EXPECTED: &'static str = "prefix, exact or string-prefix";
    fn parse(s: &str) -> Option<Self> {
        ImplementationSpecific::parse(s)
    }
}

impl Flag for Profile {
    const EXPECTED: &'static str = "spec or ingress-nginx";
    fn parse(s: &str) -> Option<Self> {
        Profile::parse(s)
    }
}

impl Flag for EscapedSlashes {
    const EXPECTED: &'static str = "KEEP_UNCHANGED, UNESCAPE_AND_FORWARD, REJECT_REQUEST or UNESCAPE_AND_REDIRECT";
    fn parse(s: &str) -> Option<Self> {
        EscapedSlashes::parse(s)
    }
}

/// Parses a named value (clap's value parser).
pub fn flag<T: Flag>(s: &str) -> Result<T, String> {
    T::parse(s).ok_or_else(|| format!("expected {}", T::EXPECTED))
}

fn de_flag<'de, D: Deserializer<'de>, T: Flag>(d: D) -> Result<Option<T>, D::Error> {
    let s = String::deserialize(d)?;
    flag(&s).map(Some).map_err(|e| serde::de::Error::custom(format!("unknown value {s:?}: {e}")))
}

/// `options:` of a tests file; command-line flags win over them.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FileOptions {
    ingress_class: Option<String>,
    #[serde(default, deserialize_with = "de_flag")]
    implementation_specific: Option<ImplementationSpecific>,
    #[serde(default, deserialize_with = "de_flag")]
    profile: Option<Profile>,
    normalize_path: Option<bool>,
    merge_slashes: Option<bool>,
    #[serde(default, deserialize_with = "de_flag")]
    escaped_slashes: Option<EscapedSlashes>,
}

/// The compile options and proxy normalisation from the flags, then the tests file's options.
pub fn options(common: &Common, file: &FileOptions) -> (CompileOptions, PathNormalization) {
    let compile = CompileOptions {
        ingress_class: common.ingress_class.clone().or_else(|| file.ingress_class.clone()),
        implementation_specific: common.implementation_specific.or(file.implementation_specific).unwrap_or_default(),
        profile: common.profile.or(file.profile).unwrap_or_default(),
        ..CompileOptions::default()
    };
    let normalization = PathNormalization {
        normalize_path: common.normalize_path || file.normalize_path.unwrap_or(false),
        merge_slashes: common.merge_slashes || file.merge_slashes.unwrap_or(false),
        escaped_slashes: common.escaped_slashes.or(file.escaped_slashes).unwrap_or_default(),
    };
    (compile, normalization)
}

/// Reads the manifests, compiles them and reports notes and diagnostics on stderr.
pub fn router(common: &Common, file: &FileOptions) -> Result<(Router, PathNormalization), Failure> {
    let loaded = load(&common.files)?;
    loaded.require_ingress("nothing to route")?;
    let (options, normalization) = options(common, file);
    if options.profile == Profile::IngressNginx {
        return Err(Failure(String::from(
            "the ingress-nginx profile works with route, explain, table, test and diff so far",
        )));
    }
    let (router, diagnostics) = compile(&loaded.objects(), &options);
    for diagnostic in &diagnostics {
        stderr(diagnostic);
    }
    Ok((router, normalization))
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
        self.sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// Reads every file (folders expanded) and reports the input's notes on stderr.
pub fn load(files: &[PathBuf]) -> Result<Loaded, Failure> {
    let mut input = Input::default();
    let mut sources = Vec::new();
    for file in files {
        for path in expand(file)? {
            let (name, text) = read_text(&path)?;
            input.extend(input::parse(&name, &text).map_err(|e| Failure(e.to_string()))?);
            sources.push(Source { name, text });
        }
    }
    for note in &input.notes {
        stderr(&format_args!("note: {note}"));
    }
    Ok(Loaded { objects: input.objects, sources })
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

/// A request as given: host and path as received, and for profiles that use them, method and headers.
#[derive(Default)]
pub struct RequestSpec {
    pub host: String,
    pub path: String,
    pub method: Option<String>,
    pub headers: Vec<(String, String)>,
}

impl RequestSpec {
    /// From `URL` or `HOST PATH`.
    pub fn from_args(target: &str, path: Option<&str>) -> Result<Self, Failure> {
        match path {
            Some(path) => Ok(RequestSpec { host: target.into(), path: path.into(), ..Default::default() }),
            None => Self::from_url(target).map_err(Failure),
        }
    }

    pub fn from_url(url: &str) -> Result<Self, String> {
        let request = Request::from_url(url).map_err(|e| format!("bad URL {url:?}: {e}"))?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        Ok(RequestSpec { host: text(request.host), path: text(request.path), ..Default::default() })
    }

    /// The path the proxy routes on, or its refusal.
    pub fn normalized(&self, normalization: &PathNormalization) -> Result<Vec<u8>, Rejected> {
        normalize_path(self.path.as_bytes(), normalization)
    }

    pub fn header_refs(&self) -> Vec<(&str, &str)> {
        self.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }

    /// The request to route, with the (normalised) path.
    pub fn request<'a>(&'a self, path: &'a [u8], headers: &'a [(&'a str, &'a str)]) -> Request<'a> {
        let request = Request::from_bytes(self.host.as_bytes(), path).with_headers(headers);
        match &self.method {
            Some(method) => request.with_method(method),
            None => request,
        }
    }
}
