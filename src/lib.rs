//! Kubernetes Ingress routing semantics: compile Ingress objects once, route requests many times,
//! explain every decision.
//!
//! ```
//! use ingress_router::{compile, input, CompileOptions, Request, Via};
//! let text = r#"{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
//!   "metadata": {"name": "shop", "namespace": "default"},
//!   "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [
//!     {"path": "/cart", "pathType": "Prefix",
//!      "backend": {"service": {"name": "cart-api", "port": {"number": 80}}}}]}}]}}"#;
//! let input = input::parse("shop.json", text).unwrap();
//! let router = compile(&input, &CompileOptions::default()).unwrap(); // the table only
//! assert!(router.lint(&input).is_empty());                     // diagnostics, when wanted
//! let decision = router.route(&Request::new("Shop.Example.com:443", "/cart/items?id=1"));
//! assert_eq!(decision.via(), Via::Rule);
//! let backend = decision.backend().unwrap();
//! assert_eq!((backend.namespace(), backend.to_string().as_str()), ("default", "cart-api:80"));
//! ```
//!
//! [`compile`] builds the one [`Router`] from whatever a manifest set holds: its Gateway API
//! objects when [`CompileOptions::gateway`] names a Gateway or it has a Gateway and no Ingress
//! (the `gateway` feature), else its Ingresses. Every home routes, explains,
//! tests and lints through that one router and its one [`Decision`].
//!
//! ```
//! use ingress_router::{compile, input, CompileOptions, Request, Via};
//! let yaml = r#"
//! apiVersion: gateway.networking.k8s.io/v1
//! kind: Gateway
//! metadata: {name: public, namespace: infra}
//! spec:
//!   gatewayClassName: eg
//!   listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
//! ---
//! apiVersion: gateway.networking.k8s.io/v1
//! kind: HTTPRoute
//! metadata: {name: shop, namespace: shop}
//! spec:
//!   parentRefs: [{name: public, namespace: infra}]
//!   rules: [{matches: [{method: POST, path: {value: /cart}}], backendRefs: [{name: cart, port: 8080}]}]
//! "#;
//! let router = compile(&input::parse("all.yaml", yaml).unwrap(), &CompileOptions::default()).unwrap();
//! let post = Request::from_url("http://shop.example.com/cart/1").unwrap().with_method("POST");
//! let decision = router.route(&post);
//! assert_eq!((decision.via(), decision.status(), decision.to_string()), (Via::Rule, 200, "shop/cart:8080".into()));
//! assert_eq!(decision.view(&post).gateway.unwrap().listener.as_deref(), Some("http"));
//! let get = Request::from_url("http://shop.example.com/cart/1").unwrap();
//! assert_eq!((router.route(&get).via(), router.route(&get).status()), (Via::None, 404));
//! ```
//!
//! [`compile`] builds a [`Router`]; [`Router::route`] answers a [`Decision`] without allocating;
//! [`Router::explain`] says why, step by step; [`Router::table`] shows the whole table;
//! [`Router::lint`] lists what is wrong with the input. [`views::validation_report`] says what the
//! apiserver would reject, [`status`] what a controller writes back. [`input::parse`] reads YAML
//! (with `yaml`) or JSON manifests into the [`Input`](input::Input) every call takes.
//!
//! # Features
//!
//! - `std` (default): `std`'s error types and [`compile`] (seeded from the OS). Without it the
//!   crate is `no_std` + `alloc` (for `wasm32-unknown-unknown` and proxy-wasm).
//! - `yaml` (default; turns on `std`): YAML input (multi-document streams, `kubectl` output), the
//!   line and column of fields ([`position`], [`views`]), tests files ([`tests_file`]). Without it
//!   input is JSON only, and YAML text is refused with
//!   [`YamlUnsupported`](input::InputErrorKind::YamlUnsupported).
//! - `lint` (default): [`Router::lint`], the warnings and notes around the table (Services and
//!   ports, classes, TLS, annotations). Without it a router still compiles, routes and reports
//!   the Ingresses it leaves out ([`Router::table`]).
//! - `gateway` (default): the Gateway API (through [`compile`]): GatewayClass, Gateway, HTTPRoute and
//!   ReferenceGrant routed, explained, validated (schema and CEL) and given status, and
//!   [`migrate()`] (with `nginx` and `yaml`). Without it Gateway API objects are kept as read and
//!   neither routed nor validated, and a home says which engine the build lacks ([`Engine`]).
//! - `cli`: the `ingress-router` command (`cargo install --path . --features cli`); turns on
//!   `nginx` and `gateway`. Plain `cargo test` in the repository turns it on too.
//! - `nginx`: [`Profile::IngressNginx`], routing as the ingress-nginx controller did (nginx
//!   locations, regex paths, rewrites, redirects, canaries), and [`diff()`] (with `yaml`), the
//!   requests two profiles answer differently. Needs `std`. It brings the regex engine (a DFA
//!   within [`RegexLimits`]), which the Gateway API's `RegularExpression` matches use too. A host
//!   whose server has regex locations tries them in order, as nginx does: the one exception to "a
//!   few probes", bounded by that host's regex locations and the request's regex budget.
//!
//! # Semantics
//!
//! ## Which Ingresses take part
//!
//! With [`CompileOptions::ingress_class`] `C`: those whose `spec.ingressClassName` is `C`, or with
//! the deprecated `kubernetes.io/ingress.class: C` annotation, or with no class when `C` is the
//! default IngressClass; without it, every Ingress. An Ingress the apiserver would reject is left
//! out on its own ([`TableView::excluded`]).
//!
//! ## Hosts
//!
//! The request host loses its port, one trailing dot and its case. Tiers, first non-empty wins:
//! rules with exactly that host; then wildcard rules (`*.foo.com` covers exactly one label); then
//! host-less rules. There is no fall-through to a lower tier once a tier is chosen.
//!
//! ```
//! # use ingress_router::{compile, input, CompileOptions, Request};
//! let yaml = r#"
//! apiVersion: networking.k8s.io/v1
//! kind: Ingress
//! metadata: {name: hosts, namespace: default}
//! spec:
//!   rules:
//!   - host: foo.com
//!     http: {paths: [{path: /a, pathType: Prefix, backend: {service: {name: exact, port: {number: 80}}}}]}
//!   - host: "*.foo.com"
//!     http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: wildcard, port: {number: 80}}}}]}
//!   - http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: any, port: {number: 80}}}}]}
//! "#;
//! let router = compile(&input::parse("hosts.yaml", yaml).unwrap(), &CompileOptions::default()).unwrap();
//! let backend = |host, path| router.route(&Request::new(host, path)).to_string();
//! assert_eq!(backend("FOO.com.:8443", "/a"), "exact:80");
//! assert_eq!(backend("bar.foo.com", "/"), "wildcard:80");
//! assert_eq!(backend("a.bar.foo.com", "/"), "any:80"); // one label only
//! assert_eq!(backend("foo.com", "/b"), "404"); // the exact tier was chosen: no fall-through
//! ```
//!
//! ## Paths
//!
//! Query and fragment are ignored; matching is case-sensitive. `Exact` matches byte for byte;
//! `Prefix` element-wise (`/aaa/bbb` matches `/aaa/bbb/ccc`, not `/aaa/bbbxyz`; `/foo/` matches
//! `/foo`); `ImplementationSpecific` as [`CompileOptions::implementation_specific`] says (like
//! `Prefix` by default). `Prefix /` matches every path.
//!
//! ```
//! # use ingress_router::{compile, input, CompileOptions, Request};
//! let yaml = r#"
//! apiVersion: networking.k8s.io/v1
//! kind: Ingress
//! metadata: {name: paths, namespace: default}
//! spec:
//!   rules:
//!   - http:
//!       paths:
//!       - {path: /aaa/bbb, pathType: Prefix, backend: {service: {name: prefix, port: {number: 80}}}}
//!       - {path: /foo/, pathType: Prefix, backend: {service: {name: foo, port: {number: 80}}}}
//!       - {path: /exact, pathType: Exact, backend: {service: {name: exact, port: {number: 80}}}}
//! "#;
//! let router = compile(&input::parse("paths.yaml", yaml).unwrap(), &CompileOptions::default()).unwrap();
//! let backend = |path| router.route(&Request::new("example.com", path)).to_string();
//! assert_eq!(backend("/aaa/bbb/ccc?q=1"), "prefix:80");
//! assert_eq!(backend("/aaa/bbbxyz"), "404");
//! assert_eq!(backend("/foo"), "foo:80");
//! assert_eq!(backend("/exact"), "exact:80");
//! assert_eq!(backend("/exact/"), "404");
//! ```
//!
//! ## Precedence
//!
//! Among the matching paths of the chosen host tier: 1. the longest match; 2. `Exact` over
//! `Prefix` over `ImplementationSpecific`; 3. the longer path as written (`/foo/` over `/foo`);
//! 4. the older Ingress (`creationTimestamp`, then the string `namespace/name`; objects without a
//! timestamp count as newest); 5. the order inside the Ingress. The same host, path and pathType
//! declared twice is a conflict: the winner is kept, the other is shadowed
//! ([`StandingView::Shadowed`], and a `duplicate-path` diagnostic).
//!
//! ```
//! # use ingress_router::{compile, input, CompileOptions, Request};
//! let yaml = r#"
//! apiVersion: networking.k8s.io/v1
//! kind: Ingress
//! metadata: {name: shop, namespace: default}
//! spec:
//!   rules:
//!   - http:
//!       paths:
//!       - {path: /, pathType: Prefix, backend: {service: {name: root, port: {number: 80}}}}
//!       - {path: /foo, pathType: Prefix, backend: {service: {name: foo-prefix, port: {number: 80}}}}
//!       - {path: /foo, pathType: Exact, backend: {service: {name: foo-exact, port: {number: 80}}}}
//!       - {path: /foo/, pathType: Prefix, backend: {service: {name: foo-slash, port: {number: 80}}}}
//! "#;
//! let router = compile(&input::parse("shop.yaml", yaml).unwrap(), &CompileOptions::default()).unwrap();
//! let backend = |path| router.route(&Request::new("example.com", path)).to_string();
//! // 1. The longest matching path wins.
//! assert_eq!(backend("/foo/bar"), "foo-slash:80");
//! // 2. At equal length, Exact beats Prefix.
//! assert_eq!(backend("/foo"), "foo-exact:80");
//! // 3. Then the longer raw path: Prefix /foo/ beats Prefix /foo (both cover /foo/...).
//! assert_eq!(backend("/foo/"), "foo-slash:80");
//! // Nothing longer matches: the root prefix.
//! assert_eq!(backend("/bar"), "root:80");
//! ```
//!
//! ## Default backend
//!
//! When no path matches: the `defaultBackend` of the oldest Ingress with a rule for the chosen
//! host that declares one, else of the oldest Ingress that declares one, else
//! [`CompileOptions::default_backend`], else 404 ([`Via::None`]).
//!
//! ## Proxy path normalisation
//!
//! The specification routes the raw path. [`CompileOptions::normalize_path`],
//! [`merge_slashes`](CompileOptions::merge_slashes) and
//! [`escaped_slashes`](CompileOptions::escaped_slashes) route it as Envoy would after its own
//! normalisation, inside [`Router::route`] (without allocating); a request the proxy refuses is a
//! [`Via::Rejected`] decision with the [`Rejection`]'s HTTP status.
//!
//! ## Validation and status
//!
//! [`views::validation_report`] reports what the apiserver would reject, in its exact format;
//! [`status`] computes the `status.loadBalancer` a controller writes, and the `kubectl` views.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

mod class;
/// The `ingress-router` command (the `cli` feature): the binary is `std::process::exit(cli::main())`.
#[cfg(feature = "cli")]
pub mod cli;
mod cluster;
/// The parts of a [`Decision`]: the backend, the split, the redirect, the rule that matched, what a
/// proxy changes on the forwarded request, and their serialised views.
pub mod decision;
mod diagnostics;
/// The requests two profiles answer differently, and why ([`diff()`]).
#[cfg(all(feature = "nginx", feature = "yaml"))]
pub mod diff;
mod engines;
#[cfg(any(feature = "nginx", feature = "gateway"))]
mod escape;
/// The parts of an [`Explanation`] and a [`TableView`]: each host step, candidate and path, and
/// the Ingresses left out.
pub mod explain;
#[cfg(feature = "gateway")]
pub(crate) mod gateway;
mod hash;
mod host;
mod index;
pub mod input;
/// A migration proven per request: Ingresses against the HTTPRoutes replacing them ([`migrate()`]).
#[cfg(all(feature = "nginx", feature = "yaml", feature = "gateway"))]
pub mod migrate;
pub(crate) mod model;
#[cfg(feature = "nginx")]
mod nginx;
mod normalize;
/// The parts of [`CompileOptions`]: each option's values and limits, cluster names, and the error
/// of a value no option has.
pub mod options;
mod path;
#[cfg(feature = "yaml")]
pub mod position;
mod read;
#[cfg(feature = "nginx")]
mod regex;
mod request;
mod router;
mod schema;
#[cfg(any(feature = "lint", feature = "yaml"))]
mod spelling;
pub mod status;
mod table;
#[cfg(feature = "yaml")]
pub mod tests_file;
mod url;
// The IngressClass checks and the apiserver's whole message are `validate --json`'s (`yaml`); the
// table validates Ingresses in every build.
#[cfg_attr(not(feature = "yaml"), allow(dead_code))]
pub(crate) mod validation;
#[cfg(feature = "yaml")]
pub mod views;
#[cfg(feature = "yaml")]
pub mod workspace;
#[cfg(feature = "yaml")]
mod yaml;

// The crate root holds what every user touches; the parts of a decision, an explanation and the
// options live in their modules ([`decision`], [`explain`], [`options`]).
pub use decision::{Decision, DecisionView, Target, Via};
pub use diagnostics::{Code, Diagnostic, Severity};
pub use engines::Engine;
pub use explain::{Explanation, TableView};
pub use options::{CompileOptions, Profile};
pub use request::{Request, RequestFields, RequestSpec, Scheme, UrlError};
pub use router::{CompileError, Router, compile_seeded};

// Seeds from the OS, so it needs `std`; without it, callers use `compile_seeded`.
#[cfg(feature = "std")]
pub use router::compile;
#[cfg(all(feature = "table-file", feature = "std"))]
pub use router::load_table;
#[cfg(feature = "table-file")]
pub use router::{TableFileError, load_table_seeded};
#[cfg(feature = "yaml")]
pub use workspace::Workspace;

// The crate's own paths to the parts (users name them through their modules).
#[allow(unused_imports)]
pub(crate) use {
    class::Participation,
    cluster::{ClusterNames, TemplateError},
    decision::{
        BackendRef, IngressRef, MatchedRule, MatchedView, Redirect, RedirectView, Rejection, ServicePort,
        WeightedBackend, WeightedView,
    },
    diagnostics::ObjectRef,
    engines::Missing,
    explain::{Candidate, DefaultView, HostStep, HostView, PathRef, PathView, StandingView},
    host::Tier,
    normalize::MAX_NORMALIZED_PATH,
    options::{EscapedSlashes, ImplementationSpecific, RegexLimits, RegexOrder, UnknownValue},
    path::{MatchKind, PathType},
    request::RequestSpecError,
    table::{ExcludedIngress, IngressInfo},
};

/// The crate's internals for its own tests, benchmarks and fuzz targets (the `testing` feature):
/// the Kubernetes model, tables compiled from objects, the apiserver's validation and the Gateway
/// API engine the one `Router` wraps. Not part of the API: it changes whenever the crate does.
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod testing {
    #[cfg(feature = "gateway")]
    pub use crate::gateway::{GatewayOptions, GatewayRequest, Objects, RegexOrder, compile};
    #[cfg(feature = "std")]
    pub use crate::router::compile_objects;
    pub use crate::router::compile_objects_seeded;

    /// The Kubernetes objects the crate reads.
    pub mod model {
        pub use crate::model::*;
    }

    /// The apiserver's validation.
    pub mod validation {
        pub use crate::validation::{
            ErrorType, FieldError, Operation, invalid_message, validate_ingress, validate_ingress_class,
        };
    }

    /// An input's objects, as the tables compiled from objects take them.
    pub trait InputObjects {
        /// The Ingresses, IngressClasses and Services, in input order.
        fn into_objects(self) -> alloc::vec::Vec<crate::model::Object>;
    }

    impl InputObjects for crate::input::Input {
        fn into_objects(self) -> alloc::vec::Vec<crate::model::Object> {
            self.to_objects()
        }
    }

    /// What [`Router::lint`](crate::Router::lint) says, for objects rather than an input.
    #[cfg(feature = "lint")]
    pub trait LintObjects {
        fn lint_objects(&self, objects: &[crate::model::Object]) -> alloc::vec::Vec<crate::Diagnostic>;
    }

    #[cfg(feature = "lint")]
    impl LintObjects for crate::Router {
        fn lint_objects(&self, objects: &[crate::model::Object]) -> alloc::vec::Vec<crate::Diagnostic> {
            self.lint_of(objects)
        }
    }
}

/// Testing only (the `test-hash-collisions` feature): key comparisons counted per thread.
#[cfg(feature = "test-hash-collisions")]
#[doc(hidden)]
pub use index::comparisons as key_comparisons;

/// [`diff()`]: the requests two profiles answer differently (a migration off ingress-nginx).
#[cfg(all(feature = "nginx", feature = "yaml"))]
pub use diff::diff;
#[cfg(all(feature = "nginx", feature = "yaml", feature = "gateway"))]
pub use migrate::migrate;
