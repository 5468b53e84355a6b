//! Every call into the core, in one place: when the core's API changes, this file changes.

use ingress_router::diagnostics::Diagnostic;
use ingress_router::explain::{Explanation, TableView};
use ingress_router::input::{self, Input};
use ingress_router::model::{Ingress, IngressBackend, Object};
use ingress_router::path::ImplementationSpecific;
use ingress_router::status::{self, ServiceView};
use ingress_router::table::{Decision, Route};
use ingress_router::views::{self, RouteView, StatusView, ValidationReport};
use ingress_router::{CompileOptions, Profile, Request, Router, Via};

use crate::error::Failure;

/// The source name input errors carry (the package reads no files).
pub const SOURCE: &str = "<input>";

/// Largest input accepted, in bytes (the core's own limit).
pub const MAX_INPUT_BYTES: usize = input::DEFAULT_MAX_INPUT_BYTES;

pub fn parse(text: &str) -> Result<Input, Failure> {
    Ok(input::parse(SOURCE, text)?)
}

/// The options by name, as the CLI and the tests file spell them.
pub fn compile_options(
    ingress_class: Option<String>,
    implementation_specific: Option<&str>,
    profile: Option<&str>,
) -> Result<CompileOptions, Failure> {
    let mut options = CompileOptions { ingress_class, ..CompileOptions::default() };
    if let Some(mode) = implementation_specific {
        options.implementation_specific = ImplementationSpecific::parse(mode).ok_or_else(|| {
            Failure::new(
                "options",
                format!("options.implementationSpecific: unknown value {mode:?}: expected \"prefix\", \"exact\" or \"string-prefix\""),
            )
        })?;
    }
    if let Some(name) = profile {
        options.profile = Profile::parse(name).ok_or_else(|| {
            Failure::new("options", format!("options.profile: unknown value {name:?}: expected \"spec\""))
        })?;
    }
    Ok(options)
}

pub fn compile(objects: &[Object], options: &CompileOptions) -> (Router, Vec<Diagnostic>) {
    ingress_router::compile(objects, options)
}

/// The decision for `request`: which of the router's distinct answers it is (see [`answer`]), and
/// its view, built only when `known` says this answer has not been seen yet.
pub fn route<'r>(
    router: &'r Router,
    request: &Request<'_>,
    known: impl FnOnce(usize) -> bool,
) -> (usize, Option<RouteView<'r>>) {
    let decision = router.route(request);
    let slot = answer(router, &decision);
    (slot, (!known(slot)).then(|| decision.route_view()))
}

/// How many distinct answers a router gives: 404, one per path, one per default backend.
pub fn answers(router: &Router) -> usize {
    1 + router.routes.len() + router.defaults.len()
}

/// Which answer a decision is: 0 for 404, then the paths, then the default backends. A decision's
/// view depends on nothing else, so the bindings convert each answer to JavaScript once. Found by
/// the decision's place in the router's own vectors: constant time, no scan.
fn answer(router: &Router, decision: &Decision<'_>) -> usize {
    fn index_of<T>(items: &[T], item: *const u8) -> Option<usize> {
        let (base, at, size) = (items.as_ptr() as usize, item as usize, core::mem::size_of::<T>().max(1));
        (at >= base).then(|| (at - base) / size).filter(|&i| i < items.len())
    }
    let rule = decision.route.and_then(|r| index_of(&router.routes, (r as *const Route).cast()));
    let default = decision
        .backend
        .and_then(|b| index_of(&router.defaults, (b as *const IngressBackend).cast()))
        .filter(|&d| decision.backend.is_some_and(|b| core::ptr::eq(&router.defaults[d].backend, b)));
    match (decision.via, rule, default) {
        (Via::Rule, Some(r), _) => 1 + r,
        (Via::DefaultBackend, _, Some(d)) => 1 + router.routes.len() + d,
        _ => 0,
    }
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

pub fn validate(
    input: &Input,
    text: &str,
    stored: &[Object],
    options: &CompileOptions,
    strict: bool,
) -> ValidationReport {
    let objects: Vec<Object> = input.objects.iter().map(|o| o.object.clone()).collect();
    let (_, diagnostics) = compile(&objects, options);
    let stored: Vec<&Ingress> = stored
        .iter()
        .filter_map(|o| match o {
            Object::Ingress(i) => Some(i),
            _ => None,
        })
        .collect();
    views::validation_report(&input.objects, text, &stored, diagnostics, strict)
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
