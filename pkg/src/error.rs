//! Errors thrown to JavaScript: instances of the package's `IngressRouterError` class (registered
//! once at start by the JavaScript entry), with a `kind` and, for input errors, where.

use std::cell::RefCell;

use ingress_router::input::InputError;
use js_sys::{Array, Function, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

thread_local! {
    static CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// The class errors are constructed with: `new Class(message, details)`.
pub fn set_class(class: Function) {
    CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// What went wrong: the core's [`InputError`] when it is about the input (its `kind`, `source`,
/// `document`, `line`, `column`, `field`, as the CLI's `--json` errors), else one of the
/// package's own kinds: `argument`, `options`, `request`, `url` (the other arguments),
/// `not-found` (a named object is not in the input), `environment`, `internal`.
#[derive(Debug)]
pub struct Failure {
    pub kind: &'static str,
    /// The whole message (an input error's with its place first, as the CLI prints it).
    pub message: String,
    pub input: Option<InputError>,
}

impl Failure {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Failure { kind, message: message.into(), input: None }
    }

    /// This failure, or the `engine` kind when it says that this build lacks an engine (the
    /// options or a tests file named the ingress-nginx profile).
    pub fn or_engine(self) -> Self {
        match ingress_router::Engine::in_message(&self.message) {
            Some(_) => Failure { kind: "engine", input: None, ..self },
            None => self,
        }
    }

    /// The error's own fields for JavaScript: the input error as the core serialises it (without
    /// its bare `message`: the JavaScript error's `message` is the whole line), else the kind.
    fn details(&self) -> JsValue {
        let details = match &self.input {
            Some(input) => serde_wasm_bindgen::to_value(input).unwrap_or(JsValue::UNDEFINED),
            None => serde_wasm_bindgen::to_value(&Kind { kind: self.kind }).unwrap_or(JsValue::UNDEFINED),
        };
        if details.is_object() {
            let _ = Reflect::delete_property(details.unchecked_ref::<js_sys::Object>(), &"message".into());
        }
        details
    }
}

#[derive(Serialize)]
struct Kind {
    kind: &'static str,
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure { kind: e.kind.as_str(), message: e.to_string(), input: Some(e) }
    }
}

impl From<Failure> for JsValue {
    fn from(failure: Failure) -> JsValue {
        let details = failure.details();
        let message = JsValue::from_str(&failure.message);
        let class = CLASS.with(|c| c.borrow().clone());
        if let Some(class) = class {
            if let Ok(error) = Reflect::construct(&class, &Array::of2(&message, &details)) {
                return error;
            }
        }
        // Without the entry's class (the raw bindings used directly): a plain Error with the same fields.
        let error = js_sys::Error::new(&failure.message);
        error.set_name("IngressRouterError");
        if let Some(details) = details.dyn_ref::<js_sys::Object>() {
            js_sys::Object::assign(&error, details);
        }
        error.into()
    }
}
