//! Every call into the core, in one place: when the core's API changes, this file changes.

use ingress_router::input::{self, Input};
use ingress_router::model::{Ingress, Object};
use ingress_router::position::Positions;
use ingress_router::status::{self, ServiceView};
use ingress_router::views::{self, RouteView, StatusView, Validated, ValidationReport};
use ingress_router::{CompileOptions, Diagnostic, Explanation, Request, Router, TableView, Via};

use serde::Deserialize;

use crate::error::Failure;

/// The source name input errors carry (the package reads no files).
pub const SOURCE: &str = "<input>";

/// Largest input accepted, in bytes (the core's own limit).
pub const MAX_INPUT_BYTES: usize = input::DEFAULT_MAX_INPUT_BYTES;

pub fn parse(text: &str) -> Result<Input, Failure> {
    Ok(input::parse(SOURCE, text)?)
}

/// The options as JSON text, read by the core's own `Deserialize` (camelCase names, a misspelt
/// name is an error).
pub fn compile_options(json: &str) -> Result<CompileOptions, Failure> {
    // Through `Value`, as the manifests are read: one set of `Deserialize` code in the .wasm.
    serde_json::from_str::<serde_json::Value>(json)
        .and_then(CompileOptions::deserialize)
        .map_err(|e| Failure::new("options", format!("options: {e}")))
}

/// Compiles with `seed` (from the platform's crypto: the core cannot reach it without `std`'s OS).
pub fn compile(objects: &[Object], options: &CompileOptions, seed: u64) -> (Router, Vec<Diagnostic>) {
    let router = ingress_router::compile_seeded(objects, options, seed);
    let diagnostics = router.lint(objects);
    (router, diagnostics)
}

/// The decision for `request`: which of the router's fixed answers it is ([`answers`]; `None`
/// when it depends on the request), and its view, built only when `known` says this answer has
/// not been converted yet.
pub fn route<'r>(
    router: &'r Router,
    request: &Request<'_>,
    known: impl FnOnce(usize) -> bool,
) -> (Option<usize>, Option<RouteView<'r>>) {
    let decision = router.route(request);
    // Slot 0 is the one 404; the router's numbered answers follow. Anything else (a rejection, an
    // ingress-nginx redirect, split or rewritten path) depends on the request and is converted
    // each time.
    let slot = match decision.answer() {
        Some(answer) if decision.upstream_path().is_none() => Some(1 + answer),
        None if decision.via() == Via::None => Some(0),
        _ => None,
    };
    let cached = slot.is_some_and(known);
    (slot, (!cached).then(|| RouteView::new(&decision)))
}

/// How many fixed answers a router gives.
pub fn answers(router: &Router) -> usize {
    1 + router.answer_count()
}

pub fn explain(router: &Router, request: &Request<'_>) -> Explanation {
    router.explain(request)
}

pub fn table(router: &Router) -> TableView {
    router.table()
}

pub fn url(url: &str) -> Result<Request<'_>, Failure> {
    Request::from_url(url).map_err(|e| Failure::new("url", format!("bad URL {url:?}: {e}")))
}

/// `validate --json` for `input` read from `text` (empty when given as objects: no positions).
pub fn validate(input: &Input, text: &str, stored: &[Object], options: &CompileOptions, seed: u64) -> ValidationReport {
    let objects: Vec<Object> = input.objects.iter().map(|o| o.object.clone()).collect();
    let (_, diagnostics) = compile(&objects, options, seed);
    validation(input, text, stored, diagnostics)
}

/// `validate --json` for `input` whose table's `diagnostics` are known (a compiled router's).
pub fn validation(input: &Input, text: &str, stored: &[Object], diagnostics: Vec<Diagnostic>) -> ValidationReport {
    let stored: Vec<&Ingress> = stored
        .iter()
        .filter_map(|o| match o {
            Object::Ingress(i) => Some(i),
            _ => None,
        })
        .collect();
    let positions = Positions::new(text);
    views::validation_report(Validated::from(input), &stored, diagnostics, &mut |origin, field| {
        positions.locate(origin.document, &views::document_path(origin, field))
    })
}

pub fn ingress_status(objects: &[Object], class: Option<&str>, publish_service: &str) -> Result<StatusView, Failure> {
    status::parse_publish_service(publish_service).map_err(|_| {
        Failure::new("argument", format!("publishService {publish_service:?}: expected \"<namespace>/<name>\""))
    })?;
    Ok(StatusView::new(objects, status::ingress_status(objects, class, publish_service)))
}

pub fn service_status(objects: &[Object], service: &str) -> Result<ServiceView, Failure> {
    let (namespace, name) = status::parse_publish_service(service)
        .map_err(|_| Failure::new("argument", format!("service {service:?}: expected \"<namespace>/<name>\"")))?;
    let found = status::find_service(objects, namespace, name)
        .ok_or_else(|| Failure::new("not-found", format!("{SOURCE}: no Service {namespace}/{name} in the input")))?;
    Ok(status::service_view(found))
}

pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
