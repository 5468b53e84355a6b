//! The wasm-bindgen adapter behind the `ingress-router` npm package: JavaScript values in, the
//! core's own views out, serialised with serde-wasm-bindgen. Conversions only; every call into the
//! core is in `engine`. The JavaScript entries (`pkg/js/`) initialise the module and register the
//! error class; `pkg/index.d.ts` types what these functions return.

// A failure ends the call and is converted to a JavaScript error at once: its size never matters.
#![allow(clippy::result_large_err)]

mod engine;
mod error;
mod gateway;

use std::cell::RefCell;

use ingress_router::input::Input;
use ingress_router::views::ValidationReport;
use ingress_router::{CompileOptions, Diagnostic, Request, RequestSpec, Router as CoreRouter};
use js_sys::JsString;
use serde::Serialize;
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

/// A Rust panic on purpose (a wasm trap), for the test build only: `pkg/test/trap.mjs` checks that
/// the JavaScript layer turns it into an error and instantiates the module again.
#[cfg(feature = "test-trap")]
#[wasm_bindgen(js_name = __panicForTest)]
pub fn panic_for_test() {
    panic!("a panic on purpose (the test-trap feature)");
}

/// Bytes the entry writes a request's strings into for `routeScratch` and `routeUrlScratch`: the
/// fast paths then pass no string through the glue (no allocation, copy and free per call). Longer
/// requests, and those that are not ASCII, go through the glue as before.
const SCRATCH_BYTES: usize = 4096;

thread_local! {
    /// Allocated once and never resized: its address (`scratch()`) stays valid for the instance's life.
    static SCRATCH: RefCell<Box<[u8]>> = RefCell::new(vec![0; SCRATCH_BYTES].into_boxed_slice());
}

/// Where the scratch buffer is in the module's memory and its length in bytes, `[pointer, length]`.
#[wasm_bindgen]
pub fn scratch() -> Vec<u32> {
    SCRATCH.with_borrow_mut(|bytes| {
        // A wasm32 address fits in a u32; elsewhere (native test builds) the value is never used.
        vec![bytes.as_mut_ptr() as usize as u32, bytes.len() as u32]
    })
}

/// The first `lengths` strings in the scratch buffer, one after the other, when they are UTF-8.
fn scratch_strings<const N: usize, T>(lengths: [usize; N], f: impl FnOnce([&str; N]) -> T) -> Option<T> {
    SCRATCH.with_borrow(|bytes| {
        let mut rest: &[u8] = bytes;
        let mut strings = [""; N];
        for (string, length) in strings.iter_mut().zip(lengths) {
            let (head, tail) = rest.split_at_checked(length)?;
            *string = std::str::from_utf8(head).ok()?;
            rest = tail;
        }
        Some(f(strings))
    })
}

/// A compiled routing table.
#[wasm_bindgen]
pub struct Router {
    router: CoreRouter,
    diagnostics: Vec<Diagnostic>,
    /// The manifests as read, and their text: `validate()` reports on them without reading again.
    input: Input,
    text: String,
    /// Each distinct decision, converted to a frozen JavaScript object the first time it is
    /// answered and shared afterwards (converting costs far more than routing).
    decisions: RefCell<Vec<Option<JsValue>>>,
}

impl Router {
    fn new(router: CoreRouter, diagnostics: Vec<Diagnostic>, input: Input, text: String) -> Self {
        let decisions = RefCell::new(vec![None; engine::answers(&router)]);
        Router { router, diagnostics, input, text, decisions }
    }

    fn decide(&self, request: &Request<'_>) -> Result<JsValue, Failure> {
        let mut decisions = self.decisions.borrow_mut();
        let (slot, view) =
            engine::route(&self.router, request, |slot| decisions.get(slot).is_some_and(Option::is_some));
        let Some(view) = view else {
            return Ok(slot.and_then(|s| decisions.get(s)).cloned().flatten().unwrap_or(JsValue::NULL));
        };
        let value = to_js(&view)?;
        deep_freeze(&value);
        if let Some(cached) = slot.and_then(|s| decisions.get_mut(s)) {
            *cached = Some(value.clone());
        }
        Ok(value)
    }
}

pub(crate) fn deep_freeze(value: &JsValue) {
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
        Ok(with_request(&request, |request| self.decide(request))??)
    }

    /// `route({host, path})` without reading the object from Rust (the entry's fast path).
    /// The answer slot `{host, path}` gets (`Decision::answer_slot`), `-1` when its decision
    /// depends on the request: the entry keeps one frozen decision per slot, so a repeated answer
    /// crosses the boundary as a number instead of an object.
    #[wasm_bindgen(js_name = routeSlot)]
    pub fn route_slot(&self, host: &str, path: &str) -> i32 {
        engine::slot(&self.router, &Request::new(host, path)).map_or(-1, |s| s as i32)
    }

    /// [`route_slot`](Self::route_slot) of the host and path the entry wrote into the scratch
    /// buffer (`host_len` bytes, then `path_len`); `-1` (ask `routeParts`) when they are not there.
    #[wasm_bindgen(js_name = routeScratch)]
    pub fn route_scratch(&self, host_len: usize, path_len: usize) -> i32 {
        scratch_strings([host_len, path_len], |[host, path]| self.route_slot(host, path)).unwrap_or(-1)
    }

    #[wasm_bindgen(js_name = routeParts)]
    pub fn route_parts(&self, host: &str, path: &str) -> Result<JsValue, JsValue> {
        Ok(self.decide(&Request::new(host, path))?)
    }

    /// `route(url)` for a URL string without reading it as a request object (the entry's fast
    /// path): its answer slot as [`route_slot`](Self::route_slot) gives it, or `-2` when the core
    /// cannot read the URL (the entry then takes the general path, whose error says why).
    #[wasm_bindgen(js_name = routeUrlSlot)]
    pub fn route_url_slot(&self, url: &str) -> i32 {
        match Request::from_url(url) {
            Ok(request) => engine::slot(&self.router, &request).map_or(-1, |s| s as i32),
            Err(_) => -2,
        }
    }

    /// [`route_url_slot`](Self::route_url_slot) of the URL the entry wrote into the scratch buffer
    /// (`len` bytes); `-2` (the general path) when it is not there.
    #[wasm_bindgen(js_name = routeUrlScratch)]
    pub fn route_url_scratch(&self, len: usize) -> i32 {
        scratch_strings([len], |[url]| self.route_url_slot(url)).unwrap_or(-2)
    }

    #[wasm_bindgen(js_name = routeUrl)]
    pub fn route_url(&self, url: &str) -> Result<JsValue, JsValue> {
        let request = Request::from_url(url).map_err(|e| Failure::new("argument", format!("bad URL {url:?}: {e}")))?;
        Ok(self.decide(&request)?)
    }

    /// The whole decision, step by step (`explain --json`).
    pub fn explain(&self, request: JsValue) -> Result<JsValue, JsValue> {
        let explanation = with_request(&request, |request| engine::explain(&self.router, request))?;
        Ok(to_js(&explanation)?)
    }

    /// The compiled table (`table --json`).
    pub fn table(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&engine::table(&self.router))?)
    }

    /// `validate()` of the manifests and options this router was compiled from, without reading
    /// them again; `options` holds only `strict` and `update`.
    pub fn validate(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let (strict, update, rest) = validation_options(&options)?;
        if let Some(key) = rest.first() {
            return Err(Failure::new(
                "options",
                format!("options: unknown option {key:?}: a router validates with the options it was compiled with; expected strict or update"),
            )
            .into());
        }
        let report = engine::validation(&self.input, &self.text, &update, self.diagnostics.clone());
        Ok(to_js(&Validation { input_errors: [], ok: report.passes(strict), report })?)
    }

    /// A tests file (YAML text) pinning this router's answers to `requests` (each a request or
    /// `{name, request}`), with this router's options; `comment` (optional) goes on top.
    #[wasm_bindgen(js_name = writeTests)]
    pub fn write_tests(&self, requests: JsValue, comment: JsValue) -> Result<String, JsValue> {
        let requests = named_requests(&requests)?;
        let comment = comment.as_string().unwrap_or_default();
        Ok(engine::write_tests(&self.router, requests, &comment)?)
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
    let options = compile_options(&options)?;
    let (input, text) = read_manifests(&manifests)?;
    let (router, diagnostics) = engine::compile(&input, &options, seed()?)?;
    Ok(Router::new(router, diagnostics, input, text))
}

/// Manifests compiled again after each edit: a document whose text did not change is not read,
/// validated or linted again, and each [`update`](Workspace::update) gives the router `compile`
/// gives for the same manifests and options.
#[wasm_bindgen]
pub struct Workspace {
    workspace: ingress_router::Workspace,
    options: CompileOptions,
}

#[wasm_bindgen]
impl Workspace {
    /// A workspace compiling with `options` (those of `compile`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Workspace, JsValue> {
        Ok(Workspace { workspace: engine::workspace(), options: compile_options(&options)? })
    }

    /// The router for `manifests`, the whole new text (or objects, compiled as `compile` does).
    pub fn update(&mut self, manifests: JsValue) -> Result<Router, JsValue> {
        let Some(s) = manifests.dyn_ref::<JsString>() else {
            let (input, text) = read_manifests(&manifests)?;
            let (router, diagnostics) = engine::compile(&input, &self.options, seed()?)?;
            return Ok(Router::new(router, diagnostics, input, text));
        };
        let text = bounded_text(s)?;
        let (input, router, diagnostics) = engine::update(&mut self.workspace, &text, &self.options, seed()?)?;
        Ok(Router::new(router, diagnostics, input, text))
    }
}

/// The apiserver's answer for every Ingress and IngressClass, then the diagnostics (`validate --json`).
#[wasm_bindgen]
pub fn validate(manifests: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let (strict, update, rest) = validation_options(&options)?;
    // The rest are compile options.
    let compile = if options.is_object() {
        let rest_object = js_sys::Object::new();
        for key in &rest {
            let value = js_sys::Reflect::get(&options, &key.into()).unwrap_or(JsValue::UNDEFINED);
            let _ = js_sys::Reflect::set(&rest_object, &key.into(), &value);
        }
        compile_options(&rest_object.into())?
    } else {
        compile_options(&options)?
    };
    let (input, text) = read_manifests(&manifests)?;
    gateway::check(&input, &compile)?;
    let report = engine::validate(&input, &text, &update, &compile, seed()?);
    Ok(to_js(&Validation { input_errors: [], ok: report.passes(strict), report })?)
}

/// `validate`'s own options: `strict` (a boolean), `update` (the stored objects, read as
/// manifests), and the names of the other keys.
fn validation_options(options: &JsValue) -> Result<(bool, Input, Vec<String>), Failure> {
    if !options.is_object() {
        return Ok((false, Input::default(), Vec::new()));
    }
    let get = |name: &str| js_sys::Reflect::get(options, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let (strict, update) = (get("strict"), get("update"));
    let strict = match strict.as_bool() {
        Some(strict) => strict,
        None if strict.is_undefined() => false,
        None => {
            return Err(Failure::new(
                "options",
                format!("options.strict must be a boolean, not {}", describe(&strict)),
            ));
        }
    };
    let stored = if update.is_null() || update.is_undefined() { Input::default() } else { read_manifests(&update)?.0 };
    let rest = js_sys::Object::keys(options.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|key| key.as_string())
        .filter(|key| key != "strict" && key != "update")
        .collect();
    Ok((strict, stored, rest))
}

/// `validate --json`, and whether it passes (the CLI's exit code 0).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Validation {
    /// Always empty: unreadable input is thrown instead (the CLI's schema keeps the field).
    input_errors: [(); 0],
    #[serde(flatten)]
    report: ValidationReport,
    ok: bool,
}

/// The status a controller publishing `publish_service` writes into each Ingress (`status --json`).
#[wasm_bindgen(js_name = ingressStatus)]
pub fn ingress_status(manifests: JsValue, publish_service: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let publish = string_argument(&publish_service, "publishService")?;
    let class = status_class(&options)?;
    let (input, _) = read_manifests(&manifests)?;
    let view = engine::ingress_status(&input, class.as_deref(), &publish)?;
    Ok(to_js(&view)?)
}

/// A Service's spec and status (`status --service --json`).
#[wasm_bindgen(js_name = serviceStatus)]
pub fn service_status(manifests: JsValue, service: JsValue) -> Result<JsValue, JsValue> {
    let service = string_argument(&service, "service")?;
    let (input, _) = read_manifests(&manifests)?;
    Ok(to_js(&engine::service_status(&input, &service)?)?)
}

// ------------------------------------------------------------------------------------------------
// Conversions
// ------------------------------------------------------------------------------------------------

/// Outputs as plain JavaScript objects, the shape of the CLI's `--json` (absent `Option`s: `null`).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Failure> {
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

fn string_argument(value: &JsValue, name: &str) -> Result<String, Failure> {
    value.as_string().ok_or_else(|| {
        Failure::new("argument", format!("{name} must be a string \"<namespace>/<name>\", not {}", describe(value)))
    })
}

/// The compile options, read by the core through JSON (`deny_unknown_fields` applies there; a
/// misspelt name is an error, not silently ignored).
fn compile_options(value: &JsValue) -> Result<CompileOptions, Failure> {
    if value.is_undefined() || value.is_null() {
        return Ok(CompileOptions::default());
    }
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(Failure::new("options", format!("options must be an object, not {}", describe(value))));
    }
    let json = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Failure::new("options", "options cannot be written as JSON"))?;
    engine::compile_options(&json)
}

/// `ingressStatus`'s options: only the class.
fn status_class(value: &JsValue) -> Result<Option<String>, Failure> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() {
        return Err(Failure::new("options", format!("options must be an object, not {}", describe(value))));
    }
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if key != "ingressClass" {
            return Err(Failure::new("options", format!("options: unknown option {key:?}, expected ingressClass")));
        }
    }
    let class = js_sys::Reflect::get(value, &"ingressClass".into()).unwrap_or(JsValue::UNDEFINED);
    match class.as_string() {
        Some(class) => Ok(Some(class)),
        None if class.is_undefined() || class.is_null() => Ok(None),
        None => {
            Err(Failure::new("options", format!("options.ingressClass must be a string, not {}", describe(&class))))
        }
    }
}

/// A fresh seed for the table's hashes, from the platform's `crypto.getRandomValues` (browsers,
/// Node 19+; Node 18's entry installs `webcrypto` there).
fn seed() -> Result<u64, Failure> {
    let missing = || Failure::new("environment", "globalThis.crypto.getRandomValues is not available");
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).map_err(|_| missing())?;
    let get = js_sys::Reflect::get(&crypto, &"getRandomValues".into()).map_err(|_| missing())?;
    let get = get.dyn_into::<js_sys::Function>().map_err(|_| missing())?;
    let bytes = js_sys::Uint8Array::new_with_length(8);
    get.call1(&crypto, &bytes).map_err(|_| missing())?;
    let mut seed = [0u8; 8];
    bytes.copy_to(&mut seed);
    Ok(u64::from_le_bytes(seed))
}

/// A request as JavaScript gives it: a URL string, or the core's [`RequestSpec`] (`{url}` or
/// `{host, path}`, with `scheme`, `method` and `headers`), exactly as a tests file writes it. An
/// optional property that is `undefined` is the same as a missing one.
fn request_spec(value: &JsValue) -> Result<RequestSpec, Failure> {
    if let Some(url) = value.as_string() {
        return Ok(RequestSpec::url(url));
    }
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(Failure::new(
            "request",
            format!(
                "request must be a URL string or {{url | host, path, scheme?, method?, headers?}}, not {}",
                describe(value)
            ),
        ));
    }
    // Read as the JSON every home reads (`JSON.stringify` drops `undefined` properties, and the
    // core's `deny_unknown_fields` applies: a misspelt `pth` is an error, not a silent `/`).
    let json = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Failure::new("request", "request cannot be written as JSON"))?;
    // No position: the JSON is ours, not the caller's text.
    serde_json::from_str(&json).map_err(|e| {
        let e = e.to_string();
        Failure::new("request", format!("request: {}", e.find(" at line ").map_or(e.as_str(), |at| &e[..at])))
    })
}

/// Calls `f` with the core's request for `value`.
fn with_request<T>(value: &JsValue, f: impl FnOnce(&Request<'_>) -> T) -> Result<T, Failure> {
    request_spec(value)?.with(f).map_err(engine::request_failure)
}

/// `requests` for `writeTests`: an array whose items are requests or `{name, request}`.
fn named_requests(value: &JsValue) -> Result<Vec<(Option<String>, RequestSpec)>, Failure> {
    let array = value
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(|| Failure::new("argument", format!("requests must be an array, not {}", describe(value))))?;
    let mut out = Vec::with_capacity(array.length() as usize);
    for (i, item) in array.iter().enumerate() {
        let request = js_sys::Reflect::get(&item, &"request".into()).unwrap_or(JsValue::UNDEFINED);
        let at = |e: Failure| Failure { message: format!("requests[{i}]: {}", e.message), ..e };
        if item.is_object() && !request.is_undefined() {
            let name = js_sys::Reflect::get(&item, &"name".into()).ok().and_then(|n| n.as_string());
            out.push((name, request_spec(&request).map_err(at)?));
        } else {
            out.push((None, request_spec(&item).map_err(at)?));
        }
    }
    Ok(out)
}

/// Runs a tests file (YAML or JSON text) against `manifests`, compiled with the file's options:
/// the report `ingress-router test --json` prints.
#[wasm_bindgen(js_name = runTests)]
pub fn run_tests(manifests: JsValue, tests: JsValue) -> Result<JsValue, JsValue> {
    let file = engine::read_tests(&text_argument(&tests, "tests")?)?;
    let (input, _) = read_manifests(&manifests)?;
    let (router, _) = engine::compile(&input, &file.options, seed()?)?;
    Ok(to_js(&engine::run_tests(&router, &file))?)
}

/// The core's one status call (`status --json`): what the controllers write into every Ingress,
/// GatewayClass, Gateway and HTTPRoute, in input order. `options`: `{controllerName?,
/// transitionTime?, ingressClass?, publishService?}`.
#[wasm_bindgen(js_name = gatewayStatus)]
pub fn gateway_status(manifests: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    #[cfg(not(feature = "engines"))]
    {
        let _ = (manifests, options);
        Err(gateway::missing(ingress_router::Engine::GatewayApi).into())
    }
    #[cfg(feature = "engines")]
    {
        let (input, _) = read_manifests(&manifests)?;
        let get = |name: &str| {
            if options.is_object() {
                js_sys::Reflect::get(&options, &name.into()).ok().and_then(|v| v.as_string())
            } else {
                None
            }
        };
        let mut status_options = ingress_router::status::StatusOptions::default();
        status_options.controller_name = get("controllerName");
        status_options.transition_time = get("transitionTime");
        status_options.ingress_class = get("ingressClass");
        status_options.publish_service = get("publishService");
        Ok(gateway::status(&input, &status_options)?)
    }
}

/// The requests whose answer changes from the Ingresses to the Gateway API objects of the same
/// manifests (`diff --to gateway-api --json`), with `tests`: the agreed answers as a tests file.
/// `options`: `from` (`"ingress-nginx"`, the default, or `"spec"`: how the Ingresses route), and the
/// compile options (`gateway`, `ingressClass`, ...).
#[wasm_bindgen]
pub fn migrate(manifests: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    #[cfg(not(feature = "engines"))]
    {
        let _ = (manifests, options);
        Err(gateway::missing(ingress_router::Engine::GatewayApi).into())
    }
    #[cfg(feature = "engines")]
    {
        let mut from = ingress_router::Profile::IngressNginx;
        let mut rest = options.clone();
        if options.is_object() && !js_sys::Array::is_array(&options) {
            let copy = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
            let value = js_sys::Reflect::get(&copy, &"from".into()).unwrap_or(JsValue::UNDEFINED);
            if !value.is_undefined() {
                let name = value.as_string().unwrap_or_default();
                from = name.parse().map_err(|e| Failure::new("options", format!("options.from: {e}")))?;
                let _ = js_sys::Reflect::delete_property(&copy, &"from".into());
            }
            rest = copy.into();
        }
        let options = compile_options(&rest)?;
        let (input, _) = read_manifests(&manifests)?;
        Ok(gateway::migrate(&input, &options, from)?)
    }
}

/// `ingress-router migrate --json`: the Gateway API objects written for the ingress-nginx
/// Ingresses of `manifests` (`yaml`, `objects`, the report's `notes`) and their `proof` (the
/// comparison `migrate()` makes, on the Ingresses and what was written). `options`: the compile
/// options (`ingressClass`, `gateway`: an existing Gateway of the manifests to attach to), and
/// `gatewayClass`, `defaultCertificate` (`namespace/name`).
#[wasm_bindgen]
pub fn convert(manifests: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    #[cfg(not(feature = "engines"))]
    {
        let _ = (manifests, options);
        Err(gateway::missing(ingress_router::Engine::GatewayApi).into())
    }
    #[cfg(feature = "engines")]
    {
        let mut migrate_options = serde_json::Map::new();
        let mut rest = options.clone();
        if options.is_object() && !js_sys::Array::is_array(&options) {
            let copy = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
            for key in ["gatewayClass", "defaultCertificate"] {
                let value = js_sys::Reflect::get(&copy, &key.into()).unwrap_or(JsValue::UNDEFINED);
                if value.is_undefined() {
                    continue;
                }
                let text = value
                    .as_string()
                    .ok_or_else(|| Failure::new("options", format!("options.{key} must be a string")))?;
                migrate_options.insert(key.into(), text.into());
                let _ = js_sys::Reflect::delete_property(&copy, &key.into());
            }
            rest = copy.into();
        }
        let migrate_options: ingress_router::migrate::MigrateOptions =
            serde_json::from_value(serde_json::Value::Object(migrate_options))
                .map_err(|e| Failure::new("options", format!("options: {e}")))?;
        let options = compile_options(&rest)?;
        let (input, _) = read_manifests(&manifests)?;
        Ok(gateway::convert(&input, &options, &migrate_options)?)
    }
}

/// Reads a tests file (YAML or JSON text) into `{options, tests: [{name?, request, expect}]}`.
#[wasm_bindgen(js_name = readTests)]
pub fn read_tests(tests: JsValue) -> Result<JsValue, JsValue> {
    Ok(to_js(&engine::read_tests(&text_argument(&tests, "tests")?)?)?)
}

fn text_argument(value: &JsValue, name: &str) -> Result<String, Failure> {
    match value.dyn_ref::<JsString>() {
        Some(s) => bounded_text(s),
        None => Err(Failure::new("argument", format!("{name} must be YAML or JSON text, not {}", describe(value)))),
    }
}
