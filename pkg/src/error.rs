//! Errors thrown to JavaScript: instances of the package's `IngressRouterError` class (registered
//! once at start by the JavaScript entry), with a `kind` and, for input errors, where.

use std::cell::RefCell;

use ingress_router::input::{InputError, InputErrorKind};
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

/// What went wrong, and where when it is about the input.
#[derive(Debug, Default, Serialize)]
pub struct Failure {
    /// `syntax`, `shape`, `too-large` (the manifests); `argument`, `options`, `request`, `url`
    /// (the other arguments); `not-found` (a named object is not in the input).
    pub kind: &'static str,
    #[serde(skip)]
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl Failure {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Failure { kind, message: message.into(), ..Failure::default() }
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        let kind = match e.kind {
            InputErrorKind::Syntax => "syntax",
            InputErrorKind::TooLarge => "too-large",
            InputErrorKind::Template => "template",
            InputErrorKind::Type => "type",
            _ => "shape",
        };
        Failure {
            kind,
            message: e.to_string(),
            source: Some(e.source),
            document: e.document,
            line: e.line,
            column: e.column,
            field: e.field,
        }
    }
}

impl From<Failure> for JsValue {
    fn from(failure: Failure) -> JsValue {
        let details = serde_wasm_bindgen::to_value(&failure).unwrap_or(JsValue::UNDEFINED);
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
