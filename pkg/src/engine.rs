//! The calls into the core: one `Router` whatever the manifests hold (Ingresses with either
//! profile, or the Gateway API); `gateway.rs` has the Gateway API's own status and migration.

#[cfg(feature = "compiler")]
use ingress_router::input::{self, Input};
use ingress_router::options::RequestSpecError;
#[cfg(feature = "compiler")]
use ingress_router::status::{self, NoAddress, ServiceView, StatusView};
#[cfg(feature = "compiler")]
use ingress_router::tests_file::{self, TestsFile, TestsReport};
#[cfg(feature = "compiler")]
use ingress_router::views::{self, ValidationReport};
#[cfg(feature = "compiler")]
use ingress_router::{CompileOptions, Diagnostic, RequestSpec, Workspace};
use ingress_router::{DecisionView, Explanation, Request, Router, TableView};

#[cfg(feature = "compiler")]
use serde::Deserialize;

use crate::error::Failure;

/// The source name input errors carry (the package reads no files).
#[cfg(feature = "compiler")]
pub const SOURCE: &str = "<input>";

#[cfg(feature = "compiler")]
/// Largest input accepted, in bytes (the core's own limit).
pub const MAX_INPUT_BYTES: usize = input::DEFAULT_MAX_INPUT_BYTES;

#[cfg(feature = "compiler")]
pub fn parse(text: &str) -> Result<Input, Failure> {
    Ok(input::parse(SOURCE, text)?)
}

#[cfg(feature = "compiler")]
/// The options as JSON text, read by the core's own `Deserialize` (camelCase names, a misspelt
/// name is an error).
pub fn compile_options(json: &str) -> Result<CompileOptions, Failure> {
    // Through `Value`, as the manifests are read: one set of `Deserialize` code in the .wasm.
    serde_json::from_str::<serde_json::Value>(json)
        .and_then(CompileOptions::deserialize)
        .map_err(|e| Failure::new("options", format!("options: {e}")).or_engine())
}

#[cfg(feature = "compiler")]
/// Compiles with `seed` (from the platform's crypto: the core cannot reach it without `std`'s OS)
/// whatever `input` holds, as the core chooses.
pub fn compile(input: &Input, options: &CompileOptions, seed: u64) -> Result<(Router, Vec<Diagnostic>), Failure> {
    let router = ingress_router::compile_seeded(input, options, seed).map_err(compile_failure)?;
    let diagnostics = router.lint(input);
    Ok((router, diagnostics))
}

#[cfg(feature = "compiler")]
/// An input the core cannot compile: the `engine` kind when this module lacks the engine it needs.
fn compile_failure(e: ingress_router::CompileError) -> Failure {
    Failure::new("options", format!("{SOURCE}: {e}")).or_engine()
}

#[cfg(feature = "compiler")]
/// A workspace for text read again after each edit (see [`update`]).
pub fn workspace() -> Workspace {
    Workspace::new(SOURCE)
}

#[cfg(feature = "compiler")]
/// Reads `text`, reusing the documents `workspace` read before whose text did not change: the
/// same input as [`parse`] (the first unreadable document is the error), then compiles it with
/// `seed`, reusing what lint found in each document that did not change.
pub fn update(
    workspace: &mut Workspace,
    text: &str,
    options: &CompileOptions,
    seed: u64,
) -> Result<(Input, Router, Vec<Diagnostic>), Failure> {
    let input = workspace.update(text);
    if let Some(error) = input.errors.first() {
        return Err(error.clone().into());
    }
    let input = input.clone();
    let (router, diagnostics) = workspace.compile(options, seed).map_err(compile_failure)?;
    Ok((input, router, diagnostics))
}

#[cfg(feature = "tables")]
/// Loads a precompiled table with `seed` (a fresh one, as compiling takes).
pub fn load_table(bytes: &[u8], seed: u64) -> Result<Router, Failure> {
    ingress_router::load_table_seeded(bytes, seed).map_err(|e| Failure::new("table", format!("table: {e}")))
}

/// The decision for `request`: its answer slot ([`ingress_router::Decision::answer_slot`]; `None`
/// when it depends on the request), and its view, built only when `known` says this slot has not
/// been converted yet.
pub fn route(
    router: &Router,
    request: &Request<'_>,
    known: impl FnOnce(usize) -> bool,
) -> (Option<usize>, Option<DecisionView>) {
    let decision = router.route(request);
    let slot = answer_slot(router, &decision, request);
    let cached = slot.is_some_and(known);
    (slot, (!cached).then(|| decision.view(request)))
}

/// The answer slot of `request`'s decision (`None`: it depends on the request).
pub fn slot(router: &Router, request: &Request<'_>) -> Option<usize> {
    answer_slot(router, &router.route(request), request)
}

/// The decision's answer slot ([`ingress_router::Decision::answer_slot`]), a gRPC call's in a
/// second set after the others: its view names the gRPC status its client reads
/// (`DecisionView::grpc_status`), so it cannot share the object another request with the same
/// answer gets.
fn answer_slot(router: &Router, decision: &ingress_router::Decision<'_>, request: &Request<'_>) -> Option<usize> {
    let slot = decision.answer_slot()?;
    Some(if request.is_grpc() { router.answer_slots() + slot } else { slot })
}

/// How many answer slots the adapter uses for a router: the core's, twice (gRPC calls' own).
pub fn answers(router: &Router) -> usize {
    2 * router.answer_slots()
}

pub fn explain(router: &Router, request: &Request<'_>) -> Explanation {
    router.explain(request)
}

pub fn table(router: &Router) -> TableView {
    router.table()
}

/// A request that cannot be routed: `url` for a URL that cannot be read, else `request`.
pub fn request_failure(e: RequestSpecError) -> Failure {
    let kind = if matches!(e, RequestSpecError::Url(..)) { "url" } else { "request" };
    Failure::new(kind, format!("request: {e}"))
}

#[cfg(feature = "compiler")]
/// The source name of a tests file given as text.
const TESTS_SOURCE: &str = "<tests>";

#[cfg(feature = "compiler")]
pub fn read_tests(text: &str) -> Result<TestsFile, Failure> {
    tests_file::parse(TESTS_SOURCE, text).map_err(|e| Failure::from(e).or_engine())
}

#[cfg(feature = "compiler")]
pub fn run_tests(router: &Router, file: &TestsFile) -> TestsReport {
    tests_file::run(router, file)
}

#[cfg(feature = "compiler")]
pub fn write_tests(
    router: &Router,
    requests: Vec<(Option<String>, RequestSpec)>,
    comment: &str,
) -> Result<String, Failure> {
    let file = tests_file::pin(router, requests)?;
    Ok(tests_file::write(&file, comment))
}

#[cfg(feature = "compiler")]
/// `validate --json` for `input` read from `text` (empty when given as objects: no positions).
pub fn validate(input: &Input, text: &str, stored: &Input, options: &CompileOptions, seed: u64) -> ValidationReport {
    views::validate(input, &[(SOURCE, text)], stored, options, seed)
}

#[cfg(feature = "compiler")]
/// `validate --json` for `input` whose table's `diagnostics` are known (a compiled router's).
pub fn validation(input: &Input, text: &str, stored: &Input, diagnostics: Vec<Diagnostic>) -> ValidationReport {
    views::validation_report(input, &[(SOURCE, text)], stored, diagnostics)
}

#[cfg(feature = "compiler")]
pub fn ingress_status(input: &Input, class: Option<&str>, publish_service: &str) -> Result<StatusView, Failure> {
    status::ingress(input, class, publish_service).map_err(|_| {
        Failure::new("argument", format!("publishService {publish_service:?}: expected \"<namespace>/<name>\""))
    })
}

#[cfg(feature = "compiler")]
pub fn service_status(input: &Input, service: &str) -> Result<ServiceView, Failure> {
    status::service(input, service).map_err(|e| match e {
        NoAddress::PublishServiceMissing { service } => {
            Failure::new("not-found", format!("{SOURCE}: no Service {service} in the input"))
        }
        _ => Failure::new("argument", format!("service {service:?}: expected \"<namespace>/<name>\"")),
    })
}

pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
