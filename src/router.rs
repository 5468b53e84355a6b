//! The public face of the compiled table: build with [`compile`], then [`Router::route`].

use alloc::string::String;
use alloc::vec::Vec;

use crate::decision::Decision;
use crate::diagnostics::Diagnostic;
use crate::explain::{self, Explanation, TableView};
use crate::model::Object;
use crate::normalize::{self, MAX_NORMALIZED_PATH, PathNormalization};
use crate::options::CompileOptions;
use crate::request::Request;
use crate::table;

/// A compiled routing table. Opaque: build it with [`compile`], ask it with [`route`](Self::route)
/// (fast, allocation-free), [`explain`](Self::explain) (why, for people) and
/// [`table`](Self::table) (the whole table as data).
#[derive(Clone, Debug)]
pub struct Router {
    table: table::Router,
    normalization: PathNormalization,
}

/// Compiles objects into a [`Router`]: the table only, as fast as it can be built (a proxy pushing
/// a new configuration pays for nothing else). Invalid Ingresses, and Ingresses of another class,
/// are left out on their own (see [`TableView::excluded`]); the others still route.
/// [`Router::lint`] says what is wrong with the input.
///
/// The table's hashes are keyed by a seed from the operating system, so that nobody who writes
/// an Ingress can make its keys collide. Needs the `std` feature; without it, call
/// [`compile_seeded`] with randomness at hand (the browser's crypto, the proxy's clock).
#[cfg(feature = "std")]
pub fn compile(objects: &[Object], options: &CompileOptions) -> Router {
    compile_seeded(objects, options, os_seed())
}

/// [`compile`] with the seed of the table's hashes given. Routing is the same whatever the seed;
/// the seed only decides which keys could collide, so it must be unpredictable to whoever writes
/// the Ingresses (a fixed seed lets them compute colliding paths offline).
pub fn compile_seeded(objects: &[Object], options: &CompileOptions, seed: u64) -> Router {
    Router { table: table::compile(objects, options, seed), normalization: PathNormalization::of(options) }
}

/// A fresh 64-bit seed: std's `RandomState` keys come from the operating system, once per
/// thread, and change with every `RandomState` made.
#[cfg(feature = "std")]
fn os_seed() -> u64 {
    use core::hash::{BuildHasher, Hasher};
    let mut hasher = std::hash::RandomState::new().build_hasher();
    hasher.write_u64(0x6b65_7965_645f_7461);
    hasher.finish()
}

impl Router {
    /// Routes one request: never allocates, and costs a few hash probes whatever the size of the
    /// table. With proxy normalisation on, a path that needs it is normalised on the stack first,
    /// and a path the proxy refuses is a [`Via::Rejected`](crate::Via::Rejected) decision.
    pub fn route<'r>(&'r self, request: &Request<'_>) -> Decision<'r> {
        if self.normalization.is_on() && self.normalization.may_change(request.path) {
            return self.route_normalized(request);
        }
        Decision::of(&self.table.route(request))
    }

    /// Out of line: the buffer is only set up for the paths that need it.
    #[inline(never)]
    fn route_normalized<'r>(&'r self, request: &Request<'_>) -> Decision<'r> {
        let mut buf = [0u8; MAX_NORMALIZED_PATH];
        match normalize::normalize(request.path, &self.normalization, &mut buf) {
            Ok(path) => Decision::of(&self.table.route(&Request::from_bytes(request.host, path))),
            Err(rejection) => Decision::rejected(rejection),
        }
    }

    /// How many fixed answers [`Decision::answer_index`] numbers: 404, one per path, one per
    /// default backend.
    pub fn answer_count(&self) -> usize {
        1 + self.table.routes.len() + self.table.defaults.len()
    }

    /// How `request` is routed, step by step. Allocates freely: this is for people, not the hot path.
    pub fn explain(&self, request: &Request<'_>) -> Explanation {
        let mut buf = [0u8; MAX_NORMALIZED_PATH];
        match normalize::normalize(request.path, &self.normalization, &mut buf) {
            Err(rejection) => explain::rejected(request, rejection),
            Ok(path) if path != crate::path::request_path(request.path) => {
                let mut explanation = self.table.explain(&Request::from_bytes(request.host, path));
                explanation.path = String::from_utf8_lossy(request.path).into_owned();
                explanation.normalized_path = Some(String::from_utf8_lossy(path).into_owned());
                explanation
            }
            Ok(_) => self.table.explain(request),
        }
    }

    /// Testing only (the `test-hash-collisions` feature): have the host index and the path index
    /// left hashing for their ordered fallback?
    #[cfg(feature = "test-hash-collisions")]
    #[doc(hidden)]
    pub fn indexes_ordered(&self) -> (bool, bool) {
        self.table.indexes_ordered()
    }

    /// The compiled table as data: every host, its paths in precedence order, the defaults, and
    /// the Ingresses taking part or left out.
    pub fn table(&self) -> TableView {
        self.table.table()
    }

    /// The diagnostics about the `objects` this router was compiled from: Ingresses left out,
    /// shadowed and unreachable paths, default-backend conflicts, then the warnings and notes about
    /// everything around the table (Services and ports, IngressClasses, TLS, annotations).
    ///
    /// ```
    /// use ingress_router::{compile, input, Code, CompileOptions};
    /// let yaml = r#"
    /// apiVersion: networking.k8s.io/v1
    /// kind: Ingress
    /// metadata:
    ///   name: web
    ///   namespace: shop
    ///   annotations: {nginx.ingress.kubernetes.io/rewrite-targt: /}
    /// spec:
    ///   rules:
    ///   - host: shop.example.com
    ///     http:
    ///       paths:
    ///       - {path: /, pathType: Prefix, backend: {service: {name: cart, port: {name: http}}}}
    /// ---
    /// apiVersion: v1
    /// kind: Service
    /// metadata: {name: cart, namespace: shop}
    /// spec: {ports: [{name: web, port: 80}]}
    /// "#;
    /// let objects = input::parse("shop.yaml", yaml).unwrap().into_objects();
    /// let diagnostics = compile(&objects, &CompileOptions::default()).lint(&objects);
    /// let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    /// assert_eq!(codes, [Code::UnknownAnnotation, Code::MissingPortName]);
    /// assert!(diagnostics[0].message.contains("did you mean nginx.ingress.kubernetes.io/rewrite-target?"));
    /// ```
    pub fn lint(&self, objects: &[Object]) -> Vec<Diagnostic> {
        crate::diagnostics::all(objects, &self.table)
    }

    /// The options the table was compiled with.
    pub fn options(&self) -> &CompileOptions {
        &self.table.options
    }
}
