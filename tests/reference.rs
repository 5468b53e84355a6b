//! Property test: the compiled router decides exactly as a naive reference matcher written
//! straight from the crate documentation's Semantics section (`tests/reference_matcher/mod.rs`), on random rule sets
//! and requests, in each ImplementationSpecific mode; and `explain()` agrees with `route()`.

mod reference_matcher;

use ingress_router::options::ImplementationSpecific;
use ingress_router::testing::compile_objects as compile;
use ingress_router::testing::compile_objects_seeded as compile_seeded;
use ingress_router::testing::model::{Ingress, Object};
use ingress_router::{CompileOptions, Request};
use proptest::prelude::*;
use reference_matcher::*;

fn library_mode(mode: IsMode) -> ImplementationSpecific {
    match mode {
        IsMode::Prefix => ImplementationSpecific::Prefix,
        IsMode::Exact => ImplementationSpecific::Exact,
        IsMode::StringPrefix => ImplementationSpecific::StringPrefix,
    }
}

fn backend_strategy() -> impl Strategy<Value = GenBackend> {
    prop_oneof![
        6 => (1u16..=65535).prop_map(GenBackend::Number),
        1 => Just(GenBackend::Named),
        1 => Just(GenBackend::Resource),
    ]
}

fn path_strategy() -> impl Strategy<Value = GenPath> {
    (
        0usize..3,
        prop::collection::vec(0..PATH_ELEMENTS.len(), 0..4),
        any::<bool>(),
        prop_oneof![6 => Just(0usize), 2 => Just(1usize), 1 => Just(2usize), 1 => Just(3usize)],
        backend_strategy(),
    )
        .prop_map(|(path_type, elements, trailing_slash, odd, backend)| GenPath {
            path_type,
            elements,
            trailing_slash,
            odd,
            backend,
        })
}

fn rule_strategy() -> impl Strategy<Value = GenRule> {
    (0..RULE_HOSTS.len(), prop::option::weighted(0.9, prop::collection::vec(path_strategy(), 1..6)))
        .prop_map(|(host, paths)| GenRule { host, paths })
}

fn ingress_strategy() -> impl Strategy<Value = GenIngress> {
    (
        0..NAMESPACES.len(),
        0..NAMES.len(),
        prop::option::of(0..TIMESTAMPS.len()),
        prop::option::weighted(0.3, backend_strategy()),
        prop::collection::vec(rule_strategy(), 0..4),
    )
        .prop_map(|(namespace, name, timestamp, default_backend, rules)| GenIngress {
            namespace,
            name,
            timestamp,
            default_backend,
            rules,
        })
}

fn case_strategy() -> impl Strategy<Value = GenCase> {
    (prop::collection::vec(ingress_strategy(), 1..5), prop::bool::weighted(0.3))
        .prop_map(|(ingresses, configured_default)| GenCase { ingresses, configured_default })
}

fn request_strategy() -> impl Strategy<Value = GenRequest> {
    (
        0..REQUEST_HOSTS.len(),
        any::<u8>(),
        prop::collection::vec(0..PATH_ELEMENTS.len() + REQUEST_EXTRA_ELEMENTS.len(), 0..5),
        any::<u8>(),
        prop_oneof![10 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
    )
        .prop_map(|(host, host_style, elements, path_style, shape)| GenRequest {
            host,
            host_style,
            elements,
            path_style,
            shape,
        })
}

/// Requests aimed at the rules: each rule path (and its host) is also requested as is, with
/// a trailing slash, and with one more element, so that matches are common.
fn aimed_requests(ingresses: &[Ingress]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for ing in ingresses {
        for rule in ing.spec.rules.iter().flatten() {
            let host = rule.host.as_deref().unwrap_or("anything.example.org").replace('*', "w");
            for p in rule.http.iter().flat_map(|h| h.paths.iter()) {
                // Request targets start with `/` (origin form); see `prefix_root_and_relative_request_paths`.
                let path = p.path.clone().unwrap_or_default();
                let path = if path.is_empty() { String::from("/") } else { path };
                out.push((host.as_bytes().to_vec(), path.as_bytes().to_vec()));
                out.push((host.as_bytes().to_vec(), format!("{path}/").into_bytes()));
                out.push((host.to_uppercase().into_bytes(), format!("{path}b?x").into_bytes()));
                out.push((host.as_bytes().to_vec(), format!("{path}/c").into_bytes()));
            }
        }
    }
    out
}

/// Compiles `ingresses` in `mode` and checks every request against the reference.
fn check(
    ingresses: &[Ingress],
    case: &GenCase,
    mode: IsMode,
    requests: &[(Vec<u8>, Vec<u8>)],
) -> Result<(), TestCaseError> {
    let objects: Vec<Object> = ingresses.iter().cloned().map(Object::Ingress).collect();
    let fallback = configured_default(case);
    let mut options = CompileOptions::default().with_implementation_specific(library_mode(mode));
    options.default_backend = fallback.clone();
    let router = compile(&objects, &options);
    // The generated Ingresses are valid: none may be left out (this also checks the generator
    // once the real validation lands).
    prop_assert!(
        router.table().excluded.is_empty(),
        "generated Ingresses were excluded: {:?}",
        router.table().excluded
    );
    for (host, path) in requests {
        let request = Request::from_bytes(host, path);
        let view = router.route(&request).view(&request);
        let want = reference_route(ingresses, mode, fallback.as_ref(), host, path);
        let got = RefDecision::of(&view);
        prop_assert_eq!(
            &got,
            &want,
            "mode {:?}, request host {:?} path {:?}\ningresses: {}",
            mode,
            String::from_utf8_lossy(host),
            String::from_utf8_lossy(path),
            serde_json::to_string(ingresses).unwrap()
        );
        let explained = router.explain(&request);
        prop_assert_eq!(&explained.decision, &view, "explain() disagrees with route()");
    }
    Ok(())
}

proptest! {
    // 512 cases x 3 modes x ~40 requests (random and aimed at the rules): about 75 000 decisions,
    // under 15 s in debug. No regression files: a failure prints its minimal case.
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(512)
    })]

    #[test]
    fn router_agrees_with_reference(case in case_strategy(), requests in prop::collection::vec(request_strategy(), 1..12)) {
        let ingresses = build_ingresses(&case);
        let mut all: Vec<(Vec<u8>, Vec<u8>)> = requests.iter().map(render_request).collect();
        all.extend(aimed_requests(&ingresses));
        for mode in IS_MODES {
            check(&ingresses, &case, mode, &all)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(256)
    })]

    /// The seed of the table's hashes changes no decision: the same manifests compiled under two
    /// random seeds route and explain every request alike (in each ImplementationSpecific mode).
    #[test]
    fn routing_is_the_same_whatever_the_seed(
        case in case_strategy(),
        requests in prop::collection::vec(request_strategy(), 1..12),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        prop_assume!(seeds.0 != seeds.1);
        let ingresses = build_ingresses(&case);
        let objects: Vec<Object> = ingresses.iter().cloned().map(Object::Ingress).collect();
        let mut all: Vec<(Vec<u8>, Vec<u8>)> = requests.iter().map(render_request).collect();
        all.extend(aimed_requests(&ingresses));
        for mode in IS_MODES {
            let mut options = CompileOptions::default().with_implementation_specific(library_mode(mode));
            options.default_backend = configured_default(&case);
            let a = compile_seeded(&objects, &options, seeds.0);
            let b = compile_seeded(&objects, &options, seeds.1);
            for (host, path) in &all {
                let request = Request::from_bytes(host, path);
                let (ra, rb) = (a.route(&request), b.route(&request));
                prop_assert_eq!(ra.view(&request), rb.view(&request), "route, mode {:?}, {:?} {:?}", mode, host, path);
                prop_assert_eq!(ra.matched(), rb.matched());
                // The whole explanation: winner, candidates, the key that decided, the reasons.
                prop_assert_eq!(a.explain(&request), b.explain(&request), "explain, mode {:?}", mode);
            }
        }
    }
}

/// The reference itself, on the examples the crate documentation gives (so a reference bug cannot hide a
/// library bug behind agreement).
#[test]
fn reference_follows_the_documented_examples() {
    use ingress_router::testing::model::*;
    let ingress = |name: &str, ts: Option<&str>, host: Option<&str>, paths: Vec<HttpIngressPath>| Ingress {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: Some("default".into()),
            creation_timestamp: ts.map(Into::into),
            ..Default::default()
        },
        spec: IngressSpec {
            rules: Some(vec![IngressRule { host: host.map(Into::into), http: Some(HttpIngressRuleValue { paths }) }]),
            ..Default::default()
        },
        ..Default::default()
    };
    let set = vec![
        ingress(
            "shop",
            None,
            None,
            vec![
                path("/", "Prefix", "root"),
                path("/foo", "Prefix", "foo-prefix"),
                path("/foo", "Exact", "foo-exact"),
                path("/foo/", "Prefix", "foo-slash"),
                path("/aaa/bbb", "Prefix", "aaa-bbb"),
                path("/str", "ImplementationSpecific", "str"),
            ],
        ),
        ingress("wild", None, Some("*.foo.com"), vec![path("/only", "Exact", "wild-only")]),
        ingress("old", Some("2020-01-01T00:00:00Z"), None, vec![path("/dup", "Prefix", "dup-old")]),
        ingress("new", Some("2021-01-01T00:00:00Z"), None, vec![path("/dup", "Prefix", "dup-new")]),
        ingress("aaa-unborn", None, None, vec![path("/dup", "Prefix", "dup-unborn")]),
    ];
    let route =
        |mode, host: &str, path: &str| reference_route(&set, mode, None, host.as_bytes(), path.as_bytes()).backend;
    let spec = IsMode::Prefix;
    assert_eq!(route(spec, "x.com", "/foo/bar"), "foo-slash:80");
    assert_eq!(route(spec, "x.com", "/foo"), "foo-exact:80");
    assert_eq!(route(spec, "x.com", "/foo/"), "foo-slash:80");
    assert_eq!(route(spec, "x.com", "/bar"), "root:80");
    assert_eq!(route(spec, "x.com", "/aaa/bbb/"), "aaa-bbb:80");
    assert_eq!(route(spec, "x.com", "/aaa/bbb/ccc"), "aaa-bbb:80");
    assert_eq!(route(spec, "x.com", "/aaa/bbbxyz"), "root:80");
    assert_eq!(route(spec, "x.com", "/str/x"), "str:80");
    assert_eq!(route(spec, "x.com", "/strx"), "root:80");
    assert_eq!(route(IsMode::StringPrefix, "x.com", "/strx"), "str:80");
    assert_eq!(route(IsMode::Exact, "x.com", "/str/x"), "root:80");
    // Wildcards cover one label; no fall-through from the wildcard tier to host-less rules.
    assert_eq!(route(spec, "Bar.Foo.COM.:443", "/only"), "wild-only:80");
    assert_eq!(route(spec, "bar.foo.com", "/foo"), "404");
    assert_eq!(route(spec, "a.bar.foo.com", "/foo"), "foo-exact:80");
    assert_eq!(route(spec, "foo.com", "/foo"), "foo-exact:80");
    // Key 4: the older Ingress; one without a creationTimestamp is the newest.
    assert_eq!(route(spec, "x.com", "/dup/x"), "dup-old:80");
    // Query and fragment are not part of the matched path.
    assert_eq!(route(spec, "x.com", "/foo?x=/foo/"), "foo-exact:80");
    assert_eq!(route(spec, "x.com", "/foo#/bar"), "foo-exact:80");
}

fn one_path_ingress(namespace: &str, name: &str, ts: Option<&str>, path: &str, path_type: &str, svc: &str) -> Ingress {
    use ingress_router::testing::model::*;
    Ingress {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: Some(namespace.into()),
            creation_timestamp: ts.map(Into::into),
            ..Default::default()
        },
        spec: IngressSpec {
            rules: Some(vec![IngressRule {
                host: None,
                http: Some(HttpIngressRuleValue { paths: vec![reference_matcher::path(path, path_type, svc)] }),
            }]),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Regression (found by `router_agrees_with_reference`): precedence key 4 breaks creationTimestamp
/// ties by `namespace/name` as one string (the crate documentation, section Precedence; ingress-nginx's sortIngressSlice
/// compares `fmt.Sprintf("%v/%v", ns, name)` too). `team-b/web` sorts before `team/web` because
/// `-` (0x2D) < `/` (0x2F); comparing namespace then name as a pair gives the opposite order.
/// Guards `table::compile`'s age sort.
#[test]
fn age_ties_compare_namespace_slash_name_as_one_string() {
    let ts = Some("2024-01-01T00:00:00Z");
    let set = vec![
        one_path_ingress("team", "web", ts, "/dup", "Prefix", "team-web"),
        one_path_ingress("team-b", "web", ts, "/dup", "Prefix", "team-b-web"),
    ];
    let want = reference_route(&set, IsMode::Prefix, None, b"example.com", b"/dup").backend;
    assert_eq!(want, "team-b-web:80", "the reference orders by the string namespace/name");
    let objects: Vec<Object> = set.into_iter().map(Object::Ingress).collect();
    let router = compile(&objects, &CompileOptions::default());
    let decision = router.route(&Request::new("example.com", "/dup"));
    assert_eq!(
        decision.to_string(),
        want,
        "library bug: src/table.rs compile() sorts same-age Ingresses by (namespace, name) instead of the string `namespace/name`"
    );
    assert_eq!(router.table().ingresses[0].key(), "team-b/web", "age rank 0 is the older Ingress");
}

/// Spec question (found by the property test, then kept out of its generator): the crate
/// documentation (section Paths) says Prefix `p == "/"` matches every request path, but the library's element-wise
/// prefix only matches paths that are empty or start with `/`, so a request target such as `*`
/// (`OPTIONS * HTTP/1.1`) or a relative path given through `Request::from_bytes` gets the default
/// backend instead of the `/` rule. Either the library (`HostTable::lookup` / `path::matches`:
/// an empty element-prefix key of a path `/` matches everything) or the crate documentation (request paths not
/// starting with `/` match no element-wise prefix) should change; this test states the current text.
#[test]
// Guards the crate documentation, section Paths: `Prefix /` matches every request path, with or without a leading `/`.
fn prefix_root_matches_request_paths_without_leading_slash() {
    let set = vec![one_path_ingress("default", "root", None, "/", "Prefix", "root")];
    let objects: Vec<Object> = set.iter().cloned().map(Object::Ingress).collect();
    let router = compile(&objects, &CompileOptions::default());
    for target in ["*", "b", "b?x"] {
        let want = reference_route(&set, IsMode::Prefix, None, b"example.com", target.as_bytes()).backend;
        assert_eq!(want, "root:80");
        assert_eq!(router.route(&Request::new("example.com", target)).to_string(), want, "target {target:?}");
    }
}
