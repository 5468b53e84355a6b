//! The calls that read manifests (YAML or JSON text, objects): compiling, validating, status,
//! tests files, the Gateway API's status and migration. The `compiler` feature: the package's
//! route-only module, which loads precompiled tables, is built without it.

use ingress_router::input::Input;
use ingress_router::views::ValidationReport;
use ingress_router::{CompileOptions, Diagnostic, RequestSpec};
use js_sys::JsString;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::Failure;
use crate::{Router, describe, engine, gateway, request_spec, seed, to_js};

/// What a router was compiled from: `validate()` reports on it without reading again.
pub struct Source {
    pub(crate) diagnostics: Vec<Diagnostic>,
    input: Input,
    text: String,
}

fn compiled(router: ingress_router::Router, diagnostics: Vec<Diagnostic>, input: Input, text: String) -> Router {
    Router::new(router, Some(Source { diagnostics, input, text }))
}

#[wasm_bindgen]
impl Router {
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
        let source = self.source.as_ref().ok_or_else(crate::no_manifests)?;
        let report = engine::validation(&source.input, &source.text, &update, source.diagnostics.clone());
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
}

/// Compiles manifests (YAML or JSON text, an object, or an array of objects).
#[wasm_bindgen]
pub fn compile(manifests: JsValue, options: JsValue) -> Result<Router, JsValue> {
    let options = compile_options(&options)?;
    let (input, text) = read_manifests(&manifests)?;
    let (router, diagnostics) = engine::compile(&input, &options, seed()?)?;
    Ok(compiled(router, diagnostics, input, text))
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
            return Ok(compiled(router, diagnostics, input, text));
        };
        let text = bounded_text(s)?;
        let (input, router, diagnostics) = engine::update(&mut self.workspace, &text, &self.options, seed()?)?;
        Ok(compiled(router, diagnostics, input, text))
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
