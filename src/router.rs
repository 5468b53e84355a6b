//! The public face of the compiled table: build with [`compile`], then [`Router::route`].

use alloc::string::String;
use alloc::vec::Vec;

use crate::decision::{Decision, WeightedBackend};
#[cfg(feature = "lint")]
use crate::diagnostics::Diagnostic;
use crate::explain::{self, Explanation, TableView};
use crate::input::Input;
use crate::model::Object;
use crate::normalize::{self, MAX_NORMALIZED_PATH, PathNormalization};
use crate::options::{CompileOptions, Profile};
use crate::request::Request;
use crate::table;

/// A compiled routing table. Opaque: build it with [`compile`], ask it with [`route`](Self::route)
/// (fast, allocation-free), [`explain`](Self::explain) (why, for people) and
/// [`table`](Self::table) (the whole table as data).
#[derive(Clone, Debug)]
pub struct Router {
    engine: Engine,
}

/// The routing engine of the profile compiled for.
// The spec table is the hot path and stays inline (no extra indirection per lookup).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Engine {
    Spec {
        table: table::Table,
        normalization: PathNormalization,
    },
    /// Boxed: the nginx engine is much larger than the spec table's handle.
    #[cfg(feature = "nginx")]
    Nginx(alloc::boxed::Box<crate::nginx::Engine>),
    /// The Gateway API: the input's Gateway API objects, for the Gateway the options choose.
    #[cfg(feature = "gateway")]
    Gateway {
        router: alloc::boxed::Box<crate::gateway::GatewayRouter>,
        options: CompileOptions,
    },
}

/// Why an input cannot be compiled into a [`Router`] ([`compile`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileError {
    /// The input needs an engine this build lacks (Gateway API objects without the `gateway`
    /// feature).
    Missing(crate::Engine),
    /// The input routes through the Gateway API and no Gateway takes requests: none in the
    /// input, several and the `gateway` option names none, or the one named is not there.
    NoGateway(String),
}

impl core::fmt::Display for CompileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CompileError::Missing(engine) => crate::Missing(*engine).fmt(f),
            CompileError::NoGateway(why) => f.write_str(why),
        }
    }
}

impl core::error::Error for CompileError {}

/// Whether `input` routes through its Gateway API objects rather than its Ingresses: when the
/// options' `gateway` names a Gateway, or when the input has a Gateway and no Ingress.
pub(crate) fn routes_gateway_api(input: &Input, options: &CompileOptions) -> bool {
    let kind =
        |v: &crate::input::SourcedValue| v.value.get("kind").and_then(serde_json::Value::as_str) == Some("Gateway");
    let ingress = input.objects.iter().any(|o| matches!(o.object, Object::Ingress(_)));
    options.gateway.is_some() || input.gateway_api.iter().any(kind) && !ingress
}

/// Compiles whatever `input` holds into one [`Router`]: its Gateway API objects when it routes
/// through them (the options' `gateway` names a Gateway, or the input has a Gateway and no
/// Ingress), else its Ingresses: the table only, as fast as it can be built (a proxy pushing a new
/// configuration pays for nothing else). Invalid Ingresses, and Ingresses of another class, are
/// left out on their own (see [`TableView::excluded`]); the others still route. [`Router::lint`]
/// says what is wrong with the input. Every home calls this; none decides the engine itself.
///
/// The table's hashes are keyed by a seed from the operating system, so that nobody who writes
/// an Ingress can make its keys collide. Needs the `std` feature; without it, call
/// [`compile_seeded`] with randomness at hand (the browser's crypto, the proxy's clock).
#[cfg(feature = "std")]
pub fn compile(input: &Input, options: &CompileOptions) -> Result<Router, CompileError> {
    compile_seeded(input, options, os_seed())
}

/// [`compile`] with the seed of the table's hashes given. Routing is the same whatever the seed;
/// the seed only decides which keys could collide, so it must be unpredictable to whoever writes
/// the Ingresses (a fixed seed lets them compute colliding paths offline).
pub fn compile_seeded(input: &Input, options: &CompileOptions, seed: u64) -> Result<Router, CompileError> {
    // The input's objects are read where they are: a copy would double what a proxy holds at
    // once while it configures (the filter's memory per worker is its high-water mark).
    if !routes_gateway_api(input, options) {
        return Ok(match options.profile {
            Profile::Spec => Router { engine: spec_engine(&input.objects, options, seed) },
            #[cfg(feature = "nginx")]
            Profile::IngressNginx => compile_objects_seeded(&input.to_objects(), options, seed),
        });
    }
    #[cfg(feature = "gateway")]
    {
        use crate::gateway;
        let router =
            gateway::compile(&gateway::Objects::from_held(&input.gateway_api, &input.objects), &options.into());
        let names = || {
            let names: Vec<String> = router
                .objects()
                .gateways
                .iter()
                .map(|g| alloc::format!("{}/{}", g.metadata.namespace, g.metadata.name))
                .collect();
            names.join(", ")
        };
        match router.no_gateway() {
            Some(gateway::NoGateway::NotFound { gateway }) if !router.objects().gateways.is_empty() => {
                Err(CompileError::NoGateway(alloc::format!(
                    "gateway {gateway}: no such Gateway; the input's Gateways: {}",
                    names()
                )))
            }
            Some(gateway::NoGateway::NotFound { gateway }) => Err(CompileError::NoGateway(alloc::format!(
                "gateway {gateway}: no Gateway in the input: give the Gateway API objects (gateway.networking.k8s.io)"
            ))),
            Some(gateway::NoGateway::Ambiguous { gateways }) => Err(CompileError::NoGateway(alloc::format!(
                "the input has several Gateways ({}): name one with the `gateway` option (the CLI's --gateway \
                 NAMESPACE/NAME)",
                gateways.join(", ")
            ))),
            Some(why) => Err(CompileError::NoGateway(alloc::string::ToString::to_string(why))),
            None => Ok(Router {
                engine: Engine::Gateway { router: alloc::boxed::Box::new(router), options: options.clone() },
            }),
        }
    }
    #[cfg(not(feature = "gateway"))]
    {
        let _ = seed;
        Err(CompileError::Missing(crate::Engine::GatewayApi))
    }
}

/// Compiles Ingresses, IngressClasses and Services into a [`Router`] (what [`compile`] does with an
/// input that routes through its Ingresses).
// The CLI's, diff's and migrate's (a table from the objects they derive), and the tests'.
#[cfg(all(feature = "std", any(test, feature = "testing", feature = "cli", all(feature = "nginx", feature = "yaml"))))]
pub fn compile_objects(objects: &[Object], options: &CompileOptions) -> Router {
    compile_objects_seeded(objects, options, os_seed())
}

/// [`compile_objects`] with the seed of the table's hashes given.
#[cfg_attr(not(any(feature = "nginx", feature = "yaml", feature = "testing")), allow(dead_code))]
pub fn compile_objects_seeded(objects: &[Object], options: &CompileOptions, seed: u64) -> Router {
    let engine = match options.profile {
        Profile::Spec => spec_engine(objects, options, seed),
        // nginx's own tables (server names, locations) are keyed by the engine, not by `seed`.
        #[cfg(feature = "nginx")]
        Profile::IngressNginx => Engine::Nginx(alloc::boxed::Box::new(crate::nginx::Engine::new(objects, options))),
    };
    Router { engine }
}

fn spec_engine<O: core::borrow::Borrow<Object>>(objects: &[O], options: &CompileOptions, seed: u64) -> Engine {
    Engine::Spec { table: table::build(objects, options, seed), normalization: PathNormalization::of(options) }
}

/// Loads a precompiled table ([`Router::to_table_file`]): the router routes, explains and lists its
/// table as the one compiled did, without the compiler (the YAML reader, validation, lint). A
/// table of another format version, or a damaged one, is refused with the reason.
///
/// The hashes are keyed by a fresh seed from the operating system, as [`compile`]'s. Needs the
/// `std` feature; without it, call [`load_table_seeded`].
///
/// ```
/// use ingress_router::{compile, input, load_table, CompileOptions, Request, Via};
/// let text = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "shop"},
///   "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [{"path": "/cart",
///     "pathType": "Prefix", "backend": {"service": {"name": "cart-api", "port": {"number": 80}}}}]}}]}}"#;
/// let compiled = compile(&input::parse("shop.json", text)?, &CompileOptions::default())?;
/// let bytes = compiled.to_table_file()?; // `ingress-router compile -o table.bin`
/// let router = load_table(&bytes)?;      // where only routing is wanted
/// let decision = router.route(&Request::new("shop.example.com", "/cart/items"));
/// assert_eq!((decision.via(), decision.to_string()), (Via::Rule, "cart-api:80".into()));
/// assert!(load_table(&bytes[..bytes.len() - 1]).is_err()); // a truncated table is refused
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(all(feature = "table-file", feature = "std"))]
pub fn load_table(bytes: &[u8]) -> Result<Router, TableFileError> {
    load_table_seeded(bytes, os_seed())
}

/// [`load_table`] with the seed of the table's hashes given (see [`compile_seeded`]).
#[cfg(feature = "table-file")]
pub fn load_table_seeded(bytes: &[u8], seed: u64) -> Result<Router, TableFileError> {
    let table = table::Table::from_file(bytes, seed)?;
    let normalization = PathNormalization::of(&table.options);
    Ok(Router { engine: Engine::Spec { table, normalization } })
}

#[cfg(feature = "table-file")]
pub use table::file::TableFileError;

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
    /// The table as a precompiled table file, for [`load_table`]: a versioned binary format
    /// (the README's "Precompiled tables"). Only the spec profile's Ingress table is written;
    /// the ingress-nginx profile and the Gateway API are refused.
    #[cfg(feature = "table-file")]
    pub fn to_table_file(&self) -> Result<Vec<u8>, TableFileError> {
        match &self.engine {
            Engine::Spec { table, .. } => Ok(table.to_file()),
            #[cfg(feature = "nginx")]
            Engine::Nginx(_) => Err(TableFileError::Unsupported("the ingress-nginx profile")),
            #[cfg(feature = "gateway")]
            Engine::Gateway { .. } => Err(TableFileError::Unsupported("a Gateway API router")),
        }
    }

    /// Routes one request: never allocates, and costs a few hash probes whatever the size of the
    /// table. With proxy normalisation on, a path that needs it is normalised on the stack first,
    /// and a path the proxy refuses is a [`Via::Rejected`](crate::Via::Rejected) decision.
    ///
    /// The ingress-nginx profile reads the request's scheme and headers too. It allocates only
    /// what it must write from the request (a redirect's `Location`, a rewritten path, a path it
    /// percent-decodes), and a host whose server has regex locations tries them in order, as
    /// nginx does: the one exception to "a few probes", bounded by that server's regex locations.
    pub fn route<'r>(&'r self, request: &Request<'_>) -> Decision<'r> {
        match &self.engine {
            Engine::Spec { table, normalization } => {
                if normalization.is_on() && normalization.may_change(request.path) {
                    return route_normalized(table, normalization, request);
                }
                table.route(request).decision()
            }
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => engine.route(request),
            #[cfg(feature = "gateway")]
            Engine::Gateway { router, .. } => crate::gateway::glue::route(router, request),
        }
    }

    /// How `request` is routed, step by step. Allocates freely: this is for people, not the hot path.
    ///
    /// With the ingress-nginx profile, [`Explanation::decided_by`] names the nginx rule that
    /// decided (e.g. "regex location ~* ^/api/.* is the first matching regex location ...") and
    /// [`Explanation::steps`] lists the server, the location, the rule and the rewrite.
    pub fn explain(&self, request: &Request<'_>) -> Explanation {
        let (table, normalization) = match &self.engine {
            Engine::Spec { table, normalization } => (table, normalization),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => return engine.explain(request),
            #[cfg(feature = "gateway")]
            Engine::Gateway { router, .. } => return crate::gateway::glue::explain(router, request),
        };
        let mut buf = [0u8; MAX_NORMALIZED_PATH];
        match normalize::normalize(request.path, normalization, &mut buf) {
            Err(rejection) => explain::rejected(request, rejection),
            Ok(path) if path != crate::path::request_path(request.path) => {
                let mut explanation = table.explain(&Request::from_bytes(request.host, path));
                explanation.path = String::from_utf8_lossy(request.path).into_owned();
                explanation.normalized_path = Some(String::from_utf8_lossy(path).into_owned());
                explanation
            }
            Ok(_) => table.explain(request),
        }
    }

    /// With the ingress-nginx profile, [`Explanation::decided_by`] alone: `diff` and `migrate` ask
    /// it for every probe, and a whole explanation judges every location of the configuration
    /// (probes × locations).
    #[cfg(all(feature = "nginx", feature = "yaml"))]
    pub(crate) fn nginx_rule(&self, request: &Request<'_>) -> Option<String> {
        match &self.engine {
            Engine::Nginx(engine) => Some(engine.rule(request)),
            _ => self.explain(request).decided_by,
        }
    }

    /// Testing only (the `test-hash-collisions` feature): have the host index and the path index
    /// left hashing for their ordered fallback?
    #[cfg(feature = "test-hash-collisions")]
    #[doc(hidden)]
    pub fn indexes_ordered(&self) -> (bool, bool) {
        match &self.engine {
            Engine::Spec { table, .. } => table.indexes_ordered(),
            _ => (false, false),
        }
    }

    /// The compiled table as data: every host, its paths in precedence order, the defaults, and
    /// the Ingresses taking part or left out.
    ///
    /// With the ingress-nginx profile: one host per nginx `server` (its `server_name` and
    /// aliases; the catch-all `_` has the host-less tier), in nginx.conf's order, each with its
    /// locations in the order nginx tries them; a path is written as nginx.conf has it
    /// (`= /p`, `/p/`, `~* "^/p"`) and its `matchKind` is `exact` for `=`, else `string-prefix`
    /// (nginx prefixes are string prefixes and its regexes are anchored at the start).
    pub fn table(&self) -> TableView {
        match &self.engine {
            Engine::Spec { table, .. } => table.table(),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => engine.table(),
            #[cfg(feature = "gateway")]
            Engine::Gateway { router, .. } => crate::gateway::glue::table(router),
        }
    }

    /// [`table`](Self::table) without its hosts and their paths (`hosts` is empty): which
    /// Ingresses take part, which are left out and why, the default backend, the Gateway API's
    /// listeners and routes. What a proxy reads at every configuration: the paths' view of a large
    /// table is about as large as the table itself, and a WebAssembly heap keeps its high-water
    /// mark. (With the ingress-nginx profile it is built whole first, then its hosts dropped.)
    pub fn table_summary(&self) -> TableView {
        match &self.engine {
            Engine::Spec { table, .. } => table.summary(),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => TableView { hosts: Vec::new(), ..engine.table() },
            #[cfg(feature = "gateway")]
            Engine::Gateway { router, .. } => crate::gateway::glue::table(router),
        }
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
    /// let input = input::parse("shop.yaml", yaml).unwrap();
    /// let diagnostics = compile(&input, &CompileOptions::default()).unwrap().lint(&input);
    /// let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    /// assert_eq!(codes, [Code::UnknownAnnotation, Code::MissingPortName]);
    /// assert!(diagnostics[0].message.contains("did you mean nginx.ingress.kubernetes.io/rewrite-target?"));
    /// ```
    ///
    /// With the ingress-nginx profile: what the controller would log, refuse or ignore while
    /// writing nginx.conf (the `nginx-*` codes, and Ingresses left out), then the same warnings
    /// and notes about everything around the table; the spec table's shadowed and unreachable
    /// paths are not reported, since nginx chooses among paths otherwise.
    #[cfg(feature = "lint")]
    pub fn lint(&self, input: &Input) -> Vec<Diagnostic> {
        self.lint_of(&input.to_objects())
    }

    /// [`lint`](Self::lint) for the objects of an input.
    #[cfg(feature = "lint")]
    pub(crate) fn lint_of(&self, objects: &[Object]) -> Vec<Diagnostic> {
        self.lint_with(objects, |options| crate::diagnostics::lint(objects, options))
    }

    /// [`lint`](Self::lint) with `lint` in place of [`diagnostics::lint`](crate::diagnostics::lint)
    /// (given the options this router was compiled with): a [`Workspace`](crate::Workspace)'s,
    /// which reuses what it found in documents that did not change.
    #[cfg(feature = "lint")]
    pub(crate) fn lint_with(
        &self,
        objects: &[Object],
        lint: impl FnOnce(&crate::options::CompileOptions) -> Vec<Diagnostic>,
    ) -> Vec<Diagnostic> {
        let (mut diagnostics, options) = match &self.engine {
            Engine::Spec { table, .. } => (crate::diagnostics::of_table(objects, table), &table.options),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => (engine.diagnostics().collect::<Vec<Diagnostic>>(), &engine.options),
            #[cfg(feature = "gateway")]
            Engine::Gateway { router, options } => (crate::gateway::glue::lint(router), options),
        };
        diagnostics.extend(lint(options));
        diagnostics
    }

    /// How many answers the table has (see [`Decision::answer`]). With the ingress-nginx profile,
    /// each location's backend and each canary's backend on a location is an answer; a redirect
    /// is not, and a split names the answer of each side ([`WeightedBackend::answer`](crate::WeightedBackend::answer)).
    pub fn answer_count(&self) -> usize {
        match &self.engine {
            Engine::Spec { table, .. } => table.routes.len() + table.defaults.len(),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => engine.answer_count(),
            #[cfg(feature = "gateway")]
            Engine::Gateway { .. } => 0,
        }
    }

    /// How many [`Decision::answer_slot`]s this router's decisions use: the 404 and each answer.
    pub fn answer_slots(&self) -> usize {
        1 + self.answer_count()
    }

    /// The request headers this table's decisions read, lower-case: a proxy fetches these and
    /// no others for [`Request::with_headers`]. None with the spec profile; with ingress-nginx,
    /// the canaries' `canary-by-header` names, and `cookie` when a canary reads a cookie.
    pub fn header_names(&self) -> Vec<String> {
        match &self.engine {
            Engine::Spec { .. } => Vec::new(),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => engine.header_names(),
            #[cfg(feature = "gateway")]
            Engine::Gateway { router, .. } => router.header_names(),
        }
    }

    /// Whether this table's decisions read the request's method ([`Request::with_method`]): the
    /// Gateway API's method matches. A proxy that pays for reading it skips it when not.
    pub fn reads_method(&self) -> bool {
        match &self.engine {
            #[cfg(feature = "gateway")]
            Engine::Gateway { .. } => true,
            _ => false,
        }
    }

    /// Every backend this router's decisions may send a request to, each once, with its answer
    /// number when the table numbers it ([`Decision::answer`]): what a proxy renders once when it
    /// configures (a cluster name per backend), then finds per request by the
    /// [`Decision::target`]'s answer, else by its backend. A Gateway API backendRef that cannot
    /// serve is not listed (its share is answered 500).
    pub fn targets(&self) -> Vec<crate::Target<'_>> {
        #[cfg(feature = "gateway")]
        if let Engine::Gateway { router, .. } = &self.engine {
            return crate::gateway::glue::targets(router);
        }
        (0..self.answer_count())
            .filter_map(|a| {
                let backend = self.answer(a)?.backend()?;
                Some(crate::Target { backend, answer: Some(a), invalid: false, index: 0 })
            })
            .collect()
    }

    /// Whether this table's decisions may read the request's scheme ([`Request::with_scheme`]): a
    /// proxy that learns the scheme only at a cost (reading `x-forwarded-proto`) skips it when not.
    /// `false` with the spec profile; `true` with ingress-nginx, whose TLS redirects read it, and
    /// the redirects that write it into `Location` (`app-root`, the trailing-slash 301,
    /// `from-to-www-redirect`).
    pub fn reads_scheme(&self) -> bool {
        match &self.engine {
            Engine::Spec { .. } => false,
            #[cfg(feature = "nginx")]
            Engine::Nginx(_) => true,
            // Listeners are chosen by protocol; redirects write the scheme.
            #[cfg(feature = "gateway")]
            Engine::Gateway { .. } => true,
        }
    }

    /// The decision of a request answered by `answer` ([`Decision::answer`]), for rendering
    /// per-answer data ahead of time; `None` when `answer` is not below
    /// [`answer_count`](Self::answer_count). With the ingress-nginx profile, what depends on the
    /// request (a rewritten path, a split's weights) is not part of an answer.
    ///
    /// ```
    /// use ingress_router::{compile, input, CompileOptions, Request};
    /// let yaml = r#"
    /// apiVersion: networking.k8s.io/v1
    /// kind: Ingress
    /// metadata: {name: shop, namespace: shop}
    /// spec:
    ///   defaultBackend: {service: {name: web, port: {number: 80}}}
    ///   rules:
    ///   - http: {paths: [{path: /cart, pathType: Prefix, backend: {service: {name: cart, port: {number: 80}}}}]}
    /// "#;
    /// let router = compile(&input::parse("shop.yaml", yaml).unwrap(), &CompileOptions::default()).unwrap();
    /// let names: Vec<String> =
    ///     (0..router.answer_count()).map(|a| router.answer(a).unwrap().backend().unwrap().to_string()).collect();
    /// assert_eq!(names, ["cart:80", "web:80"]);
    /// let decision = router.route(&Request::new("example.com", "/cart/1"));
    /// assert_eq!(router.answer(decision.answer().unwrap()), Some(decision));
    /// assert_eq!(router.route(&Request::new("example.com", "/")).answer(), Some(1));
    /// ```
    pub fn answer(&self, answer: usize) -> Option<Decision<'_>> {
        match &self.engine {
            Engine::Spec { table, .. } => table.answer(answer).map(|raw| raw.decision()),
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => engine.answer(answer),
            #[cfg(feature = "gateway")]
            Engine::Gateway { .. } => None,
        }
    }

    /// The options the table was compiled with.
    pub fn options(&self) -> &CompileOptions {
        match &self.engine {
            Engine::Spec { table, .. } => &table.options,
            #[cfg(feature = "nginx")]
            Engine::Nginx(engine) => &engine.options,
            #[cfg(feature = "gateway")]
            Engine::Gateway { options, .. } => options,
        }
    }

    /// The Gateway API router inside, when this router routes the Gateway API.
    #[cfg(feature = "gateway")]
    #[cfg_attr(not(feature = "yaml"), allow(dead_code))]
    pub(crate) fn gateway(&self) -> Option<&crate::gateway::GatewayRouter> {
        match &self.engine {
            Engine::Gateway { router, .. } => Some(router),
            _ => None,
        }
    }
}

impl<'r> Decision<'r> {
    /// The side of the [`split`](Decision::split) that `random` falls on: each side gets its
    /// `weight` out of the sum of the weights of all `u64` values (to within one value), so a
    /// uniform `random` sends it that share of requests, as ingress-nginx's balancer does with one
    /// draw per request. The caller brings the randomness: the core has no source of its own.
    /// `None` when the decision is not a split, or when every weight is zero.
    pub fn pick_side(&self, random: u64) -> Option<&WeightedBackend<'r>> {
        let sides = self.split()?;
        let total: u64 = sides.iter().map(|side| u64::from(side.weight)).sum();
        // `random` scaled from [0, 2^64) to [0, total): no modulo bias, whatever the total.
        let mut point = ((u128::from(random) * u128::from(total)) >> 64) as u64;
        for side in sides {
            if point < u64::from(side.weight) {
                return Some(side);
            }
            point -= u64::from(side.weight);
        }
        None
    }
}

/// Out of line: the buffer is only set up for the paths that need it.
#[inline(never)]
fn route_normalized<'r>(
    table: &'r table::Table,
    normalization: &PathNormalization,
    request: &Request<'_>,
) -> Decision<'r> {
    let mut buf = [0u8; MAX_NORMALIZED_PATH];
    match normalize::normalize(request.path, normalization, &mut buf) {
        Ok(path) => table.route(&Request::from_bytes(request.host, path)).decision(),
        Err(rejection) => Decision::rejected(rejection),
    }
}

#[cfg(test)]
mod summary_tests {
    use super::*;
    use crate::input;
    use alloc::vec;

    /// Two Ingresses (one invalid, left out) with a default backend, and a Gateway with a route.
    const INGRESSES: &str = r#"[
      {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "web", "namespace": "shop"},
       "spec": {"defaultBackend": {"service": {"name": "fallback", "port": {"number": 80}}},
                "rules": [{"host": "shop.example.com", "http": {"paths": [
                  {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}},
      {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "bad", "namespace": "shop"},
       "spec": {"rules": [{"host": "bad.example.com", "http": {"paths": [
                  {"path": "no-slash", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}}]}}]}}
    ]"#;

    #[cfg(feature = "gateway")]
    const GATEWAY: &str = r#"[
      {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "public", "namespace": "infra"},
       "spec": {"gatewayClassName": "envoy", "listeners": [{"name": "http", "protocol": "HTTP", "port": 80,
                "allowedRoutes": {"namespaces": {"from": "All"}}}]}},
      {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "shop", "namespace": "shop"},
       "spec": {"parentRefs": [{"name": "public", "namespace": "infra"}], "hostnames": ["shop.example.com"],
                "rules": [{"backendRefs": [{"name": "web", "port": 80}]}]}}
    ]"#;

    /// The summary is the whole view less its hosts, whatever the engine.
    #[test]
    fn summary_is_the_table_without_its_hosts() {
        let mut cases = vec![(INGRESSES, CompileOptions::default())];
        #[cfg(feature = "gateway")]
        cases.push((GATEWAY, CompileOptions::default()));
        #[cfg(feature = "nginx")]
        cases.push((INGRESSES, CompileOptions::default().with_profile(Profile::IngressNginx)));
        for (text, options) in cases {
            let input = input::parse("t.json", text).unwrap();
            let router = compile_seeded(&input, &options, 1).unwrap();
            let whole = router.table();
            let summary = router.table_summary();
            assert!(summary.hosts.is_empty());
            assert_eq!(summary, TableView { hosts: Vec::new(), ..whole.clone() });
            #[cfg(feature = "gateway")]
            let has_gateway = whole.gateway.is_some();
            #[cfg(not(feature = "gateway"))]
            let has_gateway = false;
            assert!(!whole.hosts.is_empty() || has_gateway, "the case has paths to leave out");
        }
        // The invalid Ingress is in the summary, the valid one takes part, the default backend shows.
        let router =
            compile_seeded(&input::parse("t.json", INGRESSES).unwrap(), &CompileOptions::default(), 1).unwrap();
        let summary = router.table_summary();
        assert_eq!((summary.ingresses.len(), summary.excluded.len()), (1, 1));
        assert!(summary.default_backend.is_some());
    }
}
