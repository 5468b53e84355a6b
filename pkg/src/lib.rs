//! The wasm-bindgen adapter behind the `ingress-router` npm package: JavaScript values in, the
//! core's own views out, serialised with serde-wasm-bindgen. Conversions only; every call into the
//! core is in `engine`. The JavaScript entries (`pkg/js/`) initialise the module and register the
//! error class; `pkg/index.d.ts` types what these functions return.

// A failure ends the call and is converted to a JavaScript error at once: its size never matters.
#![allow(clippy::result_large_err)]

mod engine;
mod error;

use std::cell::RefCell;
use std::collections::BTreeMap;

use ingress_router::Router as CoreRouter;
use ingress_router::diagnostics::Diagnostic;
use ingress_router::input::Input;
use ingress_router::model::Object;
use ingress_router::{CompileOptions, Request};
use js_sys::JsString;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use error::Failure;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Registers the class thrown errors are made with (the entry's `IngressRouterError`).
#[wasm_bindgen(js_name = setErrorClass)]
pub fn set_error_class(class: js_sys::Function) {
    error::set_class(class);
}

#[wasm_bindgen]
pub fn version() -> String {
    engine::version().into()
}

/// A compiled routing table.
#[wasm_bindgen]
pub struct Router {
    router: CoreRouter,
    diagnostics: Vec<Diagnostic>,
    /// Each distinct decision, converted to a frozen JavaScript object the first time it is
    /// answered and shared afterwards (converting costs far more than routing).
    decisions: RefCell<Vec<Option<JsValue>>>,
}

impl Router {
    fn new(router: CoreRouter, diagnostics: Vec<Diagnostic>) -> Self {
        let decisions = RefCell::new(vec![None; engine::answers(&router)]);
        Router { router, diagnostics, decisions }
    }

    fn decide(&self, request: &Request<'_>) -> Result<JsValue, Failure> {
        let mut decisions = self.decisions.borrow_mut();
        let (slot, view) = engine::route(&self.router, request, |slot| decisions[slot].is_some());
        if let Some(view) = view {
            let value = to_js(&view)?;
            deep_freeze(&value);
            decisions[slot] = Some(value);
        }
        Ok(decisions[slot].clone().unwrap_or(JsValue::NULL))
    }
}

fn deep_freeze(value: &JsValue) {
    if let Some(object) = value.dyn_ref::<js_sys::Object>() {
        for child in js_sys::Object::values(object).iter() {
            deep_freeze(&child);
        }
        js_sys::Object::freeze(object);
    }
}

#[wasm_bindgen]
impl Router {
    /// Which backend serves `request` (`{host, path, method?, headers?}` or a URL).
    pub fn route(&self, request: JsValue) -> Result<JsValue, JsValue> {
        let owned = RequestInput::from_js(&request)?;
        let headers = owned.header_refs();
        Ok(self.decide(&owned.request(&headers)?)?)
    }

    /// `route({host, path})` without reading the object from Rust (the entry's fast path).
    #[wasm_bindgen(js_name = routeParts)]
    pub fn route_parts(&self, host: &str, path: &str) -> Result<JsValue, JsValue> {
        Ok(self.decide(&Request::new(host, path))?)
    }

    /// The whole decision, step by step (`explain --json`).
    pub fn explain(&self, request: JsValue) -> Result<JsValue, JsValue> {
        let owned = RequestInput::from_js(&request)?;
        let headers = owned.header_refs();
        Ok(to_js(&engine::explain(&self.router, &owned.request(&headers)?))?)
    }

    /// The compiled table (`table --json`).
    pub fn table(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&engine::table(&self.router))?)
    }

    /// What compiling found wrong or worth knowing.
    #[wasm_bindgen(getter)]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.diagnostics)?)
    }
}

/// Compiles manifests (YAML or JSON text, an object, or an array of objects).
#[wasm_bindgen]
pub fn compile(manifests: JsValue, options: JsValue) -> Result<Router, JsValue> {
    let options: CompileOptionsInput = from_js_options(&options)?;
    let (input, _) = read_manifests(&manifests)?;
    let objects = objects(&input);
    let (router, diagnostics) = engine::compile(&objects, &options.build()?);
    Ok(Router::new(router, diagnostics))
}

/// The apiserver's answer for every Ingress and IngressClass, then the diagnostics (`validate --json`).
#[wasm_bindgen]
pub fn validate(manifests: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let options: ValidateOptionsInput = from_js_options(&options)?;
    let (input, text) = read_manifests(&manifests)?;
    let stored = match &options.update {
        update if update.is_null() || update.is_undefined() => Vec::new(),
        update => objects(&read_manifests(update)?.0),
    };
    let compile = engine::compile_options(
        options.ingress_class.clone(),
        options.implementation_specific.as_deref(),
        options.profile.as_deref(),
    )?;
    let report = engine::validate(&input, &text, &stored, &compile, options.strict.unwrap_or(false));
    Ok(to_js(&report)?)
}

/// The status a controller publishing `publish_service` writes into each Ingress (`status --json`).
#[wasm_bindgen(js_name = ingressStatus)]
pub fn ingress_status(manifests: JsValue, publish_service: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let publish = string_argument(&publish_service, "publishService")?;
    let options: StatusOptionsInput = from_js_options(&options)?;
    let (input, _) = read_manifests(&manifests)?;
    let view = engine::ingress_status(&objects(&input), options.ingress_class.as_deref(), &publish)?;
    Ok(to_js(&view)?)
}

/// A Service's spec and status (`status --service --json`).
#[wasm_bindgen(js_name = serviceStatus)]
pub fn service_status(manifests: JsValue, service: JsValue) -> Result<JsValue, JsValue> {
    let service = string_argument(&service, "service")?;
    let (input, _) = read_manifests(&manifests)?;
    Ok(to_js(&engine::service_status(&objects(&input), &service)?)?)
}

// ------------------------------------------------------------------------------------------------
// Conversions
// ------------------------------------------------------------------------------------------------

/// Outputs as plain JavaScript objects, the shape of the CLI's `--json` (absent `Option`s: `null`).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Failure> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| Failure::new("internal", format!("cannot convert the result to JavaScript: {e}")))
}

fn describe(value: &JsValue) -> String {
    if value.is_null() { "null".into() } else { value.js_typeof().as_string().unwrap_or_default() }
}

/// The manifests read, and the text line numbers refer to (empty when they were given as objects).
fn read_manifests(value: &JsValue) -> Result<(Input, String), Failure> {
    if let Some(s) = value.dyn_ref::<JsString>() {
        let text = bounded_text(s)?;
        return Ok((engine::parse(&text)?, text));
    }
    if value.is_object() {
        // JSON.stringify walks the objects in JavaScript: cycles and absurd depth end there as a
        // clean exception instead of overflowing the wasm stack.
        let json = js_sys::JSON::stringify(value).ok().filter(|s| s.is_string()).ok_or_else(|| {
            Failure::new(
                "argument",
                "manifests: the objects cannot be written as JSON (a cycle, a BigInt, or nesting too deep)",
            )
        })?;
        return Ok((engine::parse(&bounded_text(&json)?)?, String::new()));
    }
    Err(Failure::new(
        "argument",
        format!("manifests must be YAML or JSON text, an object or an array of objects, not {}", describe(value)),
    ))
}

/// The string, refused before it is copied into wasm memory when it is surely over the input limit
/// (a UTF-16 unit is at least one UTF-8 byte).
fn bounded_text(s: &JsString) -> Result<String, Failure> {
    if s.length() as usize > engine::MAX_INPUT_BYTES {
        return Err(Failure::new(
            "too-large",
            format!(
                "{}: input is {} characters, more than the limit of {} bytes",
                engine::SOURCE,
                s.length(),
                engine::MAX_INPUT_BYTES
            ),
        ));
    }
    Ok(String::from(s))
}

fn objects(input: &Input) -> Vec<Object> {
    input.objects.iter().map(|o| o.object.clone()).collect()
}

fn string_argument(value: &JsValue, name: &str) -> Result<String, Failure> {
    value.as_string().ok_or_else(|| {
        Failure::new("argument", format!("{name} must be a string \"<namespace>/<name>\", not {}", describe(value)))
    })
}

/// Options by name; a misspelt name is an error, not silently ignored (serde-wasm-bindgen reads
/// only the fields it knows, so the names are checked here).
fn from_js_options<T: for<'de> Deserialize<'de> + Default + Fields>(value: &JsValue) -> Result<T, Failure> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if !value.is_object() {
        return Err(Failure::new("options", format!("options must be an object, not {}", describe(value))));
    }
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !T::FIELDS.contains(&key.as_str()) {
            return Err(Failure::new(
                "options",
                format!("options: unknown option {key:?}, expected one of: {}", T::FIELDS.join(", ")),
            ));
        }
    }
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| Failure::new("options", format!("options: {e}")))
}

/// The option names a call takes.
trait Fields {
    const FIELDS: &'static [&'static str];
}

impl Fields for CompileOptionsInput {
    const FIELDS: &'static [&'static str] = &["ingressClass", "implementationSpecific", "profile"];
}

impl Fields for ValidateOptionsInput {
    const FIELDS: &'static [&'static str] = &["strict", "update", "ingressClass", "implementationSpecific", "profile"];
}

impl Fields for StatusOptionsInput {
    const FIELDS: &'static [&'static str] = &["ingressClass"];
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CompileOptionsInput {
    ingress_class: Option<String>,
    implementation_specific: Option<String>,
    profile: Option<String>,
}

impl CompileOptionsInput {
    fn build(&self) -> Result<CompileOptions, Failure> {
        engine::compile_options(
            self.ingress_class.clone(),
            self.implementation_specific.as_deref(),
            self.profile.as_deref(),
        )
    }
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ValidateOptionsInput {
    strict: Option<bool>,
    /// The stored versions: Ingresses found there are validated as updates.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    update: JsValue,
    ingress_class: Option<String>,
    implementation_specific: Option<String>,
    profile: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatusOptionsInput {
    ingress_class: Option<String>,
}

/// A request as JavaScript gives it: a URL, or its parts (other fields are ignored: checking names
/// on every lookup would cost more than the lookup).
enum RequestInput {
    Url(String),
    Parts(RequestParts),
}

#[derive(Deserialize)]
struct RequestParts {
    host: String,
    path: String,
    method: Option<String>,
    headers: Option<BTreeMap<String, String>>,
}

impl RequestInput {
    fn from_js(value: &JsValue) -> Result<Self, Failure> {
        if let Some(url) = value.as_string() {
            return Ok(RequestInput::Url(url));
        }
        if !value.is_object() {
            return Err(Failure::new(
                "request",
                format!("request must be a URL string or {{host, path, method?, headers?}}, not {}", describe(value)),
            ));
        }
        serde_wasm_bindgen::from_value(value.clone())
            .map(RequestInput::Parts)
            .map_err(|e| Failure::new("request", format!("request: {e}")))
    }

    fn header_refs(&self) -> Vec<(&str, &str)> {
        match self {
            RequestInput::Parts(RequestParts { headers: Some(h), .. }) => {
                h.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
            }
            _ => Vec::new(),
        }
    }

    fn request<'a>(&'a self, headers: &'a [(&'a str, &'a str)]) -> Result<Request<'a>, Failure> {
        Ok(match self {
            RequestInput::Url(url) => engine::url(url)?,
            RequestInput::Parts(p) => {
                let request = Request::new(&p.host, &p.path).with_headers(headers);
                match &p.method {
                    Some(method) => request.with_method(method),
                    None => request,
                }
            }
        })
    }
}
