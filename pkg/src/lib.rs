//! The wasm-bindgen adapter behind the `ingress-router` npm package: JavaScript values in, the
//! core's own views out, serialised with serde-wasm-bindgen. Conversions only; every call into the
//! core is in `engine`. The JavaScript entries (`pkg/js/`) initialise the module and register the
//! error class; `pkg/index.d.ts` types what these functions return.

// A failure ends the call and is converted to a JavaScript error at once: its size never matters.
#![allow(clippy::result_large_err)]

// Each module of the package makes routers: by compiling, by loading tables, or both.
#[cfg(not(any(feature = "compiler", feature = "tables")))]
compile_error!("build ingress-router-wasm with `compiler`, `tables` or both (the default has both)");

mod engine;
mod error;
#[cfg(feature = "compiler")]
mod gateway;
#[cfg(feature = "compiler")]
mod manifests;

#[cfg(feature = "compiler")]
pub use manifests::{compile, run_tests, validate};

use std::cell::RefCell;

use ingress_router::{Request, RequestFields, RequestSpec, Router as CoreRouter, Scheme};
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

/// What `routeRequestScratch`'s `flags` say the scratch buffer holds, and the request's scheme and
/// port (the entry's fast path for every request object: `pkg/js/api.js`, `#routeFields`). The
/// buffer holds, one after the other: the URL or the host, the path, the method, the gRPC call
/// (each when its flag is set), then the headers, each as its name's length and its value's (two
/// bytes each, little-endian), the name and the value.
mod fields {
    pub const URL: u32 = 1;
    pub const PATH: u32 = 2;
    pub const METHOD: u32 = 4;
    pub const GRPC: u32 = 8;
    pub const HTTP: u32 = 16;
    pub const HTTPS: u32 = 32;
    pub const PORT: u32 = 64;
    /// Every flag: any other bit is a layout this module does not know.
    pub const ALL: u32 = 127;
}

/// The most headers the fast path reads (on the stack, not allocated); a request with more takes
/// the general path.
const MAX_SCRATCH_HEADERS: usize = 32;

/// The next `length` bytes of `rest`, when they are there and UTF-8.
fn take<'b>(rest: &mut &'b [u8], length: usize) -> Option<&'b str> {
    let (head, tail) = rest.split_at_checked(length)?;
    *rest = tail;
    std::str::from_utf8(head).ok()
}

/// [`take`] of a field the flags say is there (`Some(None)` for one that is not, with no bytes).
fn optional<'b>(rest: &mut &'b [u8], present: bool, length: usize) -> Option<Option<&'b str>> {
    if present { take(rest, length).map(Some) } else { (length == 0).then_some(None) }
}

/// The request the entry wrote into the scratch buffer (see [`fields`]): `None` when the lengths
/// run past the buffer, a string is not UTF-8, the flags are not a layout this module reads, a
/// header name is there twice, or there are more than [`MAX_SCRATCH_HEADERS`] headers. The
/// headers are sorted by name, as a [`RequestSpec`]'s map holds them. Allocates nothing.
fn scratch_fields<T>(
    flags: u32,
    [target, path, method, grpc, headers]: [usize; 5],
    port: u32,
    f: impl FnOnce(&RequestFields<'_>) -> T,
) -> Option<T> {
    use fields::*;
    if flags & !ALL != 0 || flags & (HTTP | HTTPS) == HTTP | HTTPS {
        return None;
    }
    let port = if flags & PORT != 0 { Some(u16::try_from(port).ok()?) } else { None };
    let scheme = match flags & (HTTP | HTTPS) {
        HTTP => Some(Scheme::Http),
        HTTPS => Some(Scheme::Https),
        _ => None,
    };
    SCRATCH.with_borrow(|bytes| {
        let mut rest: &[u8] = bytes;
        let target = take(&mut rest, target)?;
        let path = optional(&mut rest, flags & PATH != 0, path)?;
        let method = optional(&mut rest, flags & METHOD != 0, method)?;
        let grpc = optional(&mut rest, flags & GRPC != 0, grpc)?;
        let (mut region, _) = rest.split_at_checked(headers)?;
        let mut pairs = [("", ""); MAX_SCRATCH_HEADERS];
        let mut count = 0;
        while !region.is_empty() {
            let (lengths, tail) = region.split_at_checked(4)?;
            region = tail;
            let name = take(&mut region, usize::from(u16::from_le_bytes([lengths[0], lengths[1]])))?;
            let value = take(&mut region, usize::from(u16::from_le_bytes([lengths[2], lengths[3]])))?;
            *pairs.get_mut(count)? = (name, value);
            count += 1;
        }
        let pairs = &mut pairs[..count];
        pairs.sort_unstable_by(|a, b| a.0.cmp(b.0));
        if pairs.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        let (url, host) = if flags & URL != 0 { (Some(target), None) } else { (None, Some(target)) };
        Some(f(&RequestFields { url, host, path, method, scheme, headers: pairs, port, grpc }))
    })
}

/// A compiled routing table.
#[wasm_bindgen]
pub struct Router {
    router: CoreRouter,
    /// The manifests it was compiled from (`None`: loaded from a table file).
    #[cfg(feature = "compiler")]
    source: Option<manifests::Source>,
    /// Each distinct decision, converted to a frozen JavaScript object the first time it is
    /// answered and shared afterwards (converting costs far more than routing).
    decisions: RefCell<Vec<Option<JsValue>>>,
}

impl Router {
    fn new(router: CoreRouter, #[cfg(feature = "compiler")] source: Option<manifests::Source>) -> Self {
        let decisions = RefCell::new(vec![None; engine::answers(&router)]);
        Router {
            router,
            #[cfg(feature = "compiler")]
            source,
            decisions,
        }
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

    /// Any request object, as the entry wrote it into the scratch buffer (`flags`, the lengths of
    /// its URL or host, path, method, gRPC call and headers, and its port: see [`fields`]): its
    /// answer slot as [`route_slot`](Self::route_slot) gives it, `-1` when its decision depends on
    /// the request (ask [`route_request_scratch_view`](Self::route_request_scratch_view)), or
    /// `-2` when it is not there or the core refuses it: the entry then takes the general path,
    /// whose error says why.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = routeRequestScratch)]
    pub fn route_request_scratch(
        &self,
        flags: u32,
        target: usize,
        path: usize,
        method: usize,
        grpc: usize,
        headers: usize,
        port: u32,
    ) -> i32 {
        scratch_fields(flags, [target, path, method, grpc, headers], port, |fields| {
            fields.with(|request| engine::slot(&self.router, request).map_or(-1, |s| s as i32)).unwrap_or(-2)
        })
        .unwrap_or(-2)
    }

    /// The decision for the request [`route_request_scratch`](Self::route_request_scratch) read
    /// (the same arguments, the buffer unchanged since): the object `route()` answers, shared per
    /// answer slot; `undefined` when the request is not there or the core refuses it.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = routeRequestScratchView)]
    pub fn route_request_scratch_view(
        &self,
        flags: u32,
        target: usize,
        path: usize,
        method: usize,
        grpc: usize,
        headers: usize,
        port: u32,
    ) -> Result<JsValue, JsValue> {
        match scratch_fields(flags, [target, path, method, grpc, headers], port, |fields| {
            fields.with(|request| self.decide(request))
        }) {
            Some(Ok(decided)) => Ok(decided?),
            _ => Ok(JsValue::UNDEFINED),
        }
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

    /// The table as a table file (`ingress-router compile -o`), for `loadTable`: the spec
    /// profile's Ingress table only (the ingress-nginx profile and the Gateway API are refused).
    #[cfg(all(feature = "tables", feature = "compiler"))]
    #[wasm_bindgen(js_name = toTable)]
    pub fn to_table(&self) -> Result<Vec<u8>, JsValue> {
        Ok(self.router.to_table_file().map_err(|e| Failure::new("table", format!("table: {e}")))?)
    }

    /// What compiling found wrong or worth knowing (none for a table loaded from a file).
    #[wasm_bindgen(getter)]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        #[cfg(feature = "compiler")]
        if let Some(source) = &self.source {
            return Ok(to_js(&source.diagnostics)?);
        }
        Ok(js_sys::Array::new().into())
    }

    /// The compiled table (`table --json`).
    pub fn table(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&engine::table(&self.router))?)
    }
}

/// `validate()` of a router loaded from a table file.
fn no_manifests() -> Failure {
    Failure::new("argument", "this router was loaded from a table file: it has no manifests to validate")
}

/// The route-only module's answers to the calls that need what it lacks.
#[cfg(not(feature = "compiler"))]
#[wasm_bindgen]
impl Router {
    pub fn validate(&self, _options: JsValue) -> Result<JsValue, JsValue> {
        Err(no_manifests().into())
    }

    #[wasm_bindgen(js_name = writeTests)]
    pub fn write_tests(&self, _requests: JsValue, _comment: JsValue) -> Result<String, JsValue> {
        Err(Failure::new("engine", "writeTests() writes YAML, which the route-only module lacks: use the main entry")
            .into())
    }
}

/// Loads a precompiled table (`ingress-router compile -o table.bin`, or `Router.toTable()`): a
/// router that routes, explains and lists its table as the compiled one did, without compiling.
/// A table of another format version, or a damaged one, is refused with the reason.
#[cfg(feature = "tables")]
#[wasm_bindgen(js_name = loadTable)]
pub fn load_table(bytes: &[u8]) -> Result<Router, JsValue> {
    let router = engine::load_table(bytes, seed()?)?;
    Ok(Router::new(
        router,
        #[cfg(feature = "compiler")]
        None,
    ))
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
