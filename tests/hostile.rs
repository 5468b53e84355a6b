//! Inputs built to hurt: each is refused with a clear error, or handled correctly, within bounded
//! time and memory, and never panics.
//!
//! No test measures time (CI machines are noisy). Each is built so that an unbounded
//! implementation would hang or run out of memory instead (an alias bomb that expands to hundreds
//! of millions of nodes, nesting a recursive parser would overflow the stack on, lookups that would
//! scan megabytes per request), which CI notices. Each test names the bound it guards.

mod reference_matcher;

use ingress_router::input::{self, DEFAULT_MAX_INPUT_BYTES, InputError, InputErrorKind};
use ingress_router::options::ImplementationSpecific;
use ingress_router::testing::InputObjects;
use ingress_router::testing::LintObjects;
use ingress_router::testing::compile_objects as compile;
use ingress_router::testing::model::*;
use ingress_router::{CompileOptions, Request, Router, Via};
use reference_matcher::{IsMode, path, reference_route, svc};

fn ingress(name: &str, rules: Vec<(Option<&str>, Vec<HttpIngressPath>)>) -> Ingress {
    Ingress {
        api_version: "networking.k8s.io/v1".into(),
        kind: "Ingress".into(),
        metadata: ObjectMeta { name: name.into(), namespace: Some("default".into()), ..Default::default() },
        spec: IngressSpec {
            rules: Some(
                rules
                    .into_iter()
                    .map(|(host, paths)| IngressRule {
                        host: host.map(Into::into),
                        http: Some(HttpIngressRuleValue { paths }),
                    })
                    .collect(),
            ),
            ..Default::default()
        },
        status: None,
    }
}

fn router_with(ingresses: &[Ingress], mode: ImplementationSpecific) -> Router {
    let objects: Vec<Object> = ingresses.iter().cloned().map(Object::Ingress).collect();
    let router = compile(&objects, &CompileOptions::default().with_implementation_specific(mode));
    assert!(router.table().excluded.is_empty(), "test Ingresses must be valid: {:?}", router.table().excluded);
    router
}

fn router(ingresses: &[Ingress]) -> Router {
    router_with(ingresses, ImplementationSpecific::Prefix)
}

fn label(router: &Router, host: &[u8], target: &[u8]) -> String {
    router.route(&Request::from_bytes(host, target)).to_string()
}

fn parse_err(text: &str) -> InputError {
    match input::parse("hostile.yaml", text) {
        Ok(i) => panic!("expected an error, parsed {} objects", i.len()),
        Err(e) => e,
    }
}

// --- YAML aliases -----------------------------------------------------------------------------

/// "Billion laughs": nine levels of nine aliases would expand to 9^9 (387 million) strings.
/// serde_norway counts alias expansions and stops: a syntax error, not an OOM.
#[test]
fn yaml_alias_bomb_is_refused() {
    let mut bomb = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        bomb.push_str(&format!("{}: &{} [{refs}]\n", w[1], w[1]));
    }
    let err = parse_err(&bomb);
    assert_eq!(err.kind, InputErrorKind::Syntax);
    assert_eq!(err.document, Some(1));
    assert!(err.message.contains("repetition limit exceeded"), "{err}");
    assert!(err.to_string().starts_with("hostile.yaml: document 1"), "{err}");

    // The same bomb hidden inside an Ingress's annotations (nested anchors of mappings).
    let mut k8s = String::from(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: bomb\n  labels:\n    l0: &l0 {k: v}\n",
    );
    for level in 1..10 {
        let refs: Vec<String> = (0..10).map(|j| format!("k{j}: *l{}", level - 1)).collect();
        k8s.push_str(&format!("    l{level}: &l{level} {{{}}}\n", refs.join(", ")));
    }
    k8s.push_str("  annotations: *l9\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n");
    let err = parse_err(&k8s);
    assert_eq!(err.kind, InputErrorKind::Syntax);
    assert!(err.message.contains("repetition limit exceeded"), "{err}");
}

/// Aliases as people use them (one backend written once) still work.
#[test]
fn yaml_aliases_in_moderation_are_read() {
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: shop}\nspec:\n  rules:\n  - http:\n      paths:\n      - {path: /a, pathType: Prefix, backend: &web {service: {name: web, port: {number: 80}}}}\n      - {path: /b, pathType: Prefix, backend: *web}\n";
    let objects = input::parse("aliases.yaml", text).unwrap().into_objects();
    let router = compile(&objects, &CompileOptions::default());
    assert_eq!(router.route(&Request::new("x", "/b/1")).to_string(), "web:80");
}

// --- Deep nesting -----------------------------------------------------------------------------

/// 100 000 `[` (and `{"a":`) in JSON: serde_json stops at its recursion limit (128) with an
/// error naming it; no stack overflow.
#[test]
fn deeply_nested_json_is_refused_with_a_recursion_error() {
    for text in ["[".repeat(100_000), "[".repeat(100_000) + &"]".repeat(100_000), "{\"a\":".repeat(100_000)] {
        let err = parse_err(&text);
        assert_eq!(err.kind, InputErrorKind::Syntax);
        assert!(err.message.contains("recursion limit exceeded"), "{err}");
        assert_eq!(err.line, Some(1));
        assert!(err.column.is_some_and(|c| c < 1000), "{err}");
    }
}

/// Deep YAML block nesting (`- - - …`, indented mappings) and flow nesting spread over lines:
/// serde_norway stops at its recursion limit (128) with an error naming it.
#[test]
fn deeply_nested_yaml_is_refused_with_a_recursion_error() {
    let mut mappings = String::new();
    for depth in 0..1_000 {
        mappings.push_str(&" ".repeat(depth));
        mappings.push_str("k:\n");
    }
    let texts = [
        format!("{}x\n", "- ".repeat(100_000)),
        format!("---\n{}", "[\n".repeat(100_000)),
        format!("---\n{}", "[a,\n".repeat(100_000)),
        mappings,
        // Short enough that even a scan quadratic in the depth ends (see the ignored test below).
        format!("---\n{}", "[".repeat(1_000)),
    ];
    for text in &texts {
        let err = parse_err(text);
        assert_eq!(err.kind, InputErrorKind::Syntax, "{err}");
        assert!(err.message.contains("recursion limit exceeded"), "{err}");
        assert!(err.line.is_some(), "{err}");
    }
}

/// Guards the one-pass nesting check (the stream used to be parsed twice when it has more than
/// 128 flow collections): a later document nested too deep still refuses the whole stream, naming
/// the limit and where, with nothing of the stream kept; also after a document the reader stops
/// at (an alias bomb, which ends the reading), and in the `Workspace`, which reads documents one
/// by one.
#[test]
fn a_stream_nested_too_deep_anywhere_is_refused_whole_in_one_pass() {
    let good = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n";
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for w in ["a", "b", "c", "d", "e", "f", "g", "h", "i"].windows(2) {
        bomb.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], vec![format!("*{}", w[0]); 9].join(",")));
    }
    let deep = format!("{}1{}\n", "[".repeat(200), "]".repeat(200));
    for (text, line) in [(format!("{good}---\n{deep}"), 6), (format!("{good}---\n{bomb}---\n{deep}"), 16)] {
        let input = input::parse_all("deep.yaml", &text);
        assert_eq!(input.len(), 0, "nothing of the stream is kept");
        let [err] = &input.errors[..] else { panic!("one error: {:?}", input.errors) };
        assert_eq!(err.kind, InputErrorKind::Syntax, "{err}");
        assert_eq!(err.message, "recursion limit exceeded: collections nested more than 128 deep");
        assert_eq!((err.line, err.column, err.document), (Some(line), Some(129), None), "{err}");

        let mut workspace = ingress_router::Workspace::new("deep.yaml");
        workspace.update(&text);
        assert_eq!(workspace.input().errors, input.errors, "the workspace reads it as a whole");
        assert_eq!(workspace.input().len(), 0);
    }
    // Within the limit, every document is read.
    let within = format!("{good}---\n{}1{}\n---\n{good}", "[".repeat(128), "]".repeat(128));
    let input = input::parse_all("deep.yaml", &within);
    assert_eq!((input.len(), input.errors.len()), (2, 1), "{:?}", input.errors);
}

/// Library issue (reported): flow collections nested on one line (`{a: {a: …`) or closed by `:`
/// on each line (`{a:\n{a:\n…`) make the YAML scan quadratic in the nesting depth before
/// serde_norway's recursion limit applies (the simple-key walk of unsafe-libyaml-norway's scanner
/// visits every open flow level for every token): 390 KB take 64 s in release, 32 MiB (the input
/// limit) would take months. `input::parse_yaml` should refuse nesting deeper than the recursion
/// limit before handing the text to serde_norway (saphyr-parser, already a dependency, does so in
/// linear time).
#[test]
fn deep_yaml_flow_nesting_is_refused_in_linear_time() {
    for text in [format!("a: {}", "{a: ".repeat(100_000)), format!("---\n{}", "{a:\n".repeat(100_000))] {
        let err = parse_err(&text);
        assert_eq!(err.kind, InputErrorKind::Syntax, "{err}");
        assert!(err.message.contains("recursion limit exceeded"), "{err}");
    }
}

// --- Size -------------------------------------------------------------------------------------

fn ingress_json(i: usize) -> String {
    format!(
        r#"{{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{{"name":"ing-{i}","namespace":"default","annotations":{{"note":"{pad}"}}}},"spec":{{"rules":[{{"host":"h{i}.example.com","http":{{"paths":[{{"path":"/p{i}","pathType":"Prefix","backend":{{"service":{{"name":"s{i}","port":{{"number":80}}}}}}}}]}}}}]}}}}"#,
        pad = "x".repeat(200)
    )
}

/// About 10 MB of valid Ingresses (a JSON array, and a YAML stream): read, compiled and routed.
#[test]
fn ten_megabytes_of_ingresses_are_read_and_routed() {
    let n = 25_000;
    let mut json = String::from("[");
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&ingress_json(i));
    }
    json.push(']');
    assert!(json.len() > 10_000_000, "{} bytes", json.len());
    let objects = input::parse("big.json", &json).unwrap().into_objects();
    assert_eq!(objects.len(), n);
    let router = compile(&objects, &CompileOptions::default());
    let diagnostics = router.lint_objects(&objects);
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.first());
    assert_eq!(path_count(&router), n);
    assert_eq!(label(&router, b"H777.example.com:443", b"/p777/x"), "s777:80");
    assert_eq!(label(&router, b"h777.example.com", b"/p778"), "404");

    // The same objects as a multi-document YAML stream (JSON is YAML; one document each).
    let yaml: String = (0..n / 5).map(|i| format!("---\n{}\n", ingress_json(i))).collect();
    let objects = input::parse("big.yaml", &yaml).unwrap().into_objects();
    assert_eq!(objects.len(), n / 5);
}

/// One 10 MB string scalar in YAML and in JSON: read, kept whole.
#[test]
fn a_ten_megabyte_string_is_read() {
    let big = "y".repeat(10 * 1024 * 1024);
    for text in [
        format!(
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: big\n  annotations:\n    a: {big}\n"
        ),
        format!(
            r#"{{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{{"name":"big","annotations":{{"a":"{big}"}}}}}}"#
        ),
    ] {
        let objects = input::parse("big", &text).unwrap().into_objects();
        assert_eq!(objects[0].metadata().annotations["a"].len(), big.len());
    }
}

/// Inputs over the limit are refused before any parsing, naming both sizes.
#[test]
fn inputs_over_the_limit_are_refused_as_too_large() {
    let text = "#".repeat(DEFAULT_MAX_INPUT_BYTES + 1);
    let err = parse_err(&text);
    assert_eq!(err.kind, InputErrorKind::TooLarge);
    assert!(err.message.contains(&format!("{} bytes", DEFAULT_MAX_INPUT_BYTES + 1)), "{err}");
    assert!(err.message.contains(&format!("limit of {DEFAULT_MAX_INPUT_BYTES} bytes")), "{err}");
    // A 1 MB input of `[` (a parse bomb) under a 64 KB limit never reaches the parser.
    let err = input::parse_with_limit("small-limit.json", &"[".repeat(1 << 20), 64 * 1024).unwrap_err();
    assert_eq!(err.kind, InputErrorKind::TooLarge);
    // Exactly at the limit is allowed.
    let at_limit = format!("{}\n{}", "# padding", "#".repeat(100));
    assert!(input::parse_with_limit("at-limit.yaml", &at_limit, at_limit.len()).is_ok());
}

/// A million empty YAML documents: read as nothing, in linear time.
#[test]
fn a_million_empty_yaml_documents_are_read_as_nothing() {
    let text = "---\n".repeat(1_000_000);
    let input = input::parse("empty-docs.yaml", &text).unwrap();
    assert!(input.is_empty() && input.notes.is_empty());
}

// --- Many paths -------------------------------------------------------------------------------

/// 100 000 paths in one Ingress: compiles, and routes like the reference matcher.
#[test]
fn a_hundred_thousand_paths_in_one_ingress() {
    let mut paths = vec![path("/", "Prefix", "root")];
    for i in 0..100_000 {
        let t = match i % 3 {
            0 => "Prefix",
            1 => "Exact",
            _ => "ImplementationSpecific",
        };
        paths.push(path(&format!("/p{i}"), t, &format!("s{i}")));
    }
    let set = vec![ingress("big", vec![(None, paths)])];
    let router = router(&set);
    assert_eq!(path_count(&router), 100_001);
    assert_eq!(label(&router, b"x", b"/p99999"), "s99999:80");
    assert_eq!(label(&router, b"x", b"/p3/a"), "s3:80"); // Prefix
    assert_eq!(label(&router, b"x", b"/p4/a"), "root:80"); // Exact
    assert_eq!(label(&router, b"x", b"/p5/a"), "s5:80"); // ImplementationSpecific as Prefix
    assert_eq!(label(&router, b"x", b"/p100000"), "root:80");
    for target in ["/p0", "/p1", "/p1/", "/p2/x", "/p12", "/p123/", "/p99998/x", "/q", "", "/p"] {
        let want = reference_route(&set, IsMode::Prefix, None, b"x", target.as_bytes()).backend;
        assert_eq!(label(&router, b"x", target.as_bytes()), want, "{target}");
    }
}

/// 100 000 paths across 10 000 Ingresses on 1 000 exact hosts, 100 wildcards and host-less
/// rules: compiles, and routes like the reference matcher.
#[test]
fn a_hundred_thousand_paths_across_many_ingresses() {
    let hosts: Vec<String> = (0..1_000).map(|h| format!("h{h}.example.com")).collect();
    let wildcards: Vec<String> = (0..100).map(|w| format!("*.w{w}.example.com")).collect();
    let mut set = Vec::new();
    for i in 0..10_000 {
        let host = match i % 3 {
            0 => Some(hosts[i % 1_000].as_str()),
            1 => Some(wildcards[i % 100].as_str()),
            _ => None,
        };
        let paths = (0..10)
            .map(|k| path(&format!("/a{}/b{k}", i % 50), ["Prefix", "Exact"][k % 2], &format!("s{i}-{k}")))
            .collect();
        let mut ing = ingress(&format!("ing-{i:05}"), vec![(host, paths)]);
        ing.metadata.creation_timestamp = Some(format!("2024-01-01T00:{:02}:00Z", i % 60));
        set.push(ing);
    }
    let router = router(&set);
    assert_eq!(path_count(&router), 100_000);
    for (host, target) in [
        ("h0.example.com", "/a0/b0/x"),
        ("H3.example.com:80", "/a3/b1"),
        ("x.w1.example.com", "/a1/b2"),
        ("x.y.w1.example.com", "/a1/b2"),
        ("nowhere", "/a2/b0"),
        ("nowhere", "/a2/b1/"),
        ("h999.example.com", "/a49/b9"),
    ] {
        let want = reference_route(&set, IsMode::Prefix, None, host.as_bytes(), target.as_bytes());
        let got = router.route(&Request::new(host, target)).view(&Request::new(host, target));
        assert_eq!(got.label, want.backend, "{host}{target}");
        assert_eq!(got.via.as_str(), want.via, "{host}{target}");
    }
}

/// Library issue (reported): `Router::explain` tests every candidate for membership in the
/// chosen host table with `Vec::contains`, quadratic in the table size (100 000 paths: 48 s in a
/// debug build, 2.2 s in release; 200 000: 6.7 s in release).
#[test]
fn explain_is_linear_in_the_number_of_paths() {
    let paths = (0..100_000).map(|i| path(&format!("/p{i}"), "Prefix", &format!("s{i}"))).collect();
    let router = router(&[ingress("big", vec![(None, paths)])]);
    let explanation = router.explain(&Request::new("x", "/p77/x"));
    assert_eq!(explanation.candidates.len(), 100_000);
    assert_eq!(explanation.candidates.iter().filter(|c| c.matched).count(), 1);
    assert_eq!(explanation.decision.label, "s77:80");
}

/// Library issue (reported): `compile` finds each host table's defaultBackend by scanning every
/// declared defaultBackend and, for each, the table's Ingress list: tables x defaults x Ingresses
/// (100 000 Ingresses with their own host and defaultBackend, about 30 MB of YAML: 22 s in
/// release, far longer in debug; 200 000: 85 s).
#[test]
fn many_ingresses_with_default_backends_compile_in_linear_time() {
    let set: Vec<Ingress> = (0..100_000)
        .map(|i| {
            let host = format!("h{i}.example.com");
            let mut ing = ingress(
                &format!("ing-{i:06}"),
                vec![(Some(host.as_str()), vec![path("/app", "Prefix", &format!("s{i}"))])],
            );
            ing.spec.default_backend = Some(svc(&format!("d{i}")));
            ing
        })
        .collect();
    let router = router(&set);
    assert_eq!(router.table().hosts.len(), 100_000);
    assert_eq!(label(&router, b"h77777.example.com", b"/app/x"), "s77777:80");
    // Each host gets its own Ingress's defaultBackend, not the oldest one's.
    assert_eq!(label(&router, b"h77777.example.com", b"/x"), "d77777:80");
    // A host no rule names gets the oldest declared one.
    assert_eq!(label(&router, b"nowhere.example.com", b"/x"), "d0:80");
}

// --- Hostile requests -------------------------------------------------------------------------

fn long_request_table() -> Vec<Ingress> {
    vec![ingress(
        "long",
        vec![
            (Some("example.com"), vec![path("/", "Prefix", "exact-host")]),
            (Some("*.example.com"), vec![path("/", "Prefix", "wildcard")]),
            (
                None,
                vec![
                    path("/", "Prefix", "root"),
                    path("/a", "Exact", "a-exact"),
                    path("/a/a/a", "Prefix", "a3"),
                    path("/a/b", "Prefix", "ab"),
                    path("/a/a/a/a/a/a/a/a/a/a", "Exact", "a10-exact"),
                    path("/aa", "ImplementationSpecific", "aa-is"),
                ],
            ),
        ],
    )]
}

/// A 10 000-character host and a 1 MB path: answered correctly; the lookup probes only the key
/// lengths the table has (a handful), not every prefix of the path.
#[test]
fn very_long_hosts_and_paths_are_routed() {
    let set = long_request_table();
    let router = router(&set);
    let long_path = "/a".repeat(512 * 1024);
    assert_eq!(long_path.len(), 1 << 20);
    let long_host = "h".repeat(10_000);
    assert_eq!(label(&router, long_host.as_bytes(), long_path.as_bytes()), "a3:80");
    assert_eq!(label(&router, b"example.com", long_path.as_bytes()), "exact-host:80");
    assert_eq!(label(&router, long_host.as_bytes(), format!("{long_path}?{long_path}").as_bytes()), "a3:80");
    assert_eq!(label(&router, long_host.as_bytes(), format!("/b{long_path}").as_bytes()), "root:80");
    // A 10 000-character first label before a wildcard's suffix. The crate docs say `*` covers one
    // label of any length; the library stops matching rule hosts for request hosts longer than 256
    // bytes (a valid DNS name has at most 253 characters and 63 per label) and falls to the
    // host-less rules. Reported as a spec question; this asserts the documented library choice.
    let long_label_host = format!("{long_host}.example.com");
    assert_eq!(label(&router, long_label_host.as_bytes(), b"/a"), "a-exact:80");
    // The longest host that still matches a rule host: 256 bytes after normalisation.
    let limit_host = format!("{}.example.com.:443", "h".repeat(256 - ".example.com".len()));
    assert_eq!(label(&router, limit_host.as_bytes(), b"/a"), "wildcard:80");
    for (host, target) in
        [(long_host.as_bytes(), long_path.as_bytes()), (b"example.com".as_slice(), b"/a/a/a/a/a/a/a/a/a/a".as_slice())]
    {
        let want = reference_route(&set, IsMode::Prefix, None, host, target).backend;
        assert_eq!(label(&router, host, target), want);
    }
    // explain() on a 1 MB path does not panic and agrees with route().
    let explanation = router.explain(&Request::from_bytes(long_host.as_bytes(), long_path.as_bytes()));
    assert_eq!(explanation.decision.label, "a3:80");
    assert_eq!(explanation.matched_path.len(), long_path.len());
    assert_eq!(explanation.normalized_host, None, "a 10 000-character host cannot equal a rule host");
}

/// A request path of 100 000 slashes: only what covers `//…` matches.
#[test]
fn a_path_of_a_hundred_thousand_slashes() {
    let slashes = "/".repeat(100_000);
    let set = vec![ingress(
        "slashes",
        vec![(
            None,
            vec![
                path("/", "Prefix", "root"),
                path("/", "Exact", "root-exact"),
                path("/a", "Prefix", "a"),
                path("//", "ImplementationSpecific", "double"),
            ],
        )],
    )];
    for (mode, reference_mode, want) in [
        (ImplementationSpecific::Prefix, IsMode::Prefix, "double:80"),
        (ImplementationSpecific::Exact, IsMode::Exact, "root:80"),
        (ImplementationSpecific::StringPrefix, IsMode::StringPrefix, "double:80"),
    ] {
        let router = router_with(&set, mode);
        assert_eq!(label(&router, b"x", slashes.as_bytes()), want, "{mode:?}");
        assert_eq!(reference_route(&set, reference_mode, None, b"x", slashes.as_bytes()).backend, want, "{mode:?}");
        let explanation = router.explain(&Request::new("x", &slashes));
        assert_eq!(explanation.decision.label, want);
    }
}

/// Bytes that are not UTF-8 in the host and the path are routed as bytes; explain() shows them
/// with U+FFFD and agrees with route().
#[test]
fn invalid_utf8_in_host_and_path() {
    let set = vec![ingress(
        "utf8",
        vec![
            (Some("*.example.com"), vec![path("/caf\u{e9}", "Prefix", "cafe"), path("/", "Prefix", "wild-root")]),
            (None, vec![path("/", "Prefix", "root")]),
        ],
    )];
    let router = router(&set);
    let cases: [(&[u8], &[u8], &str); 6] = [
        (b"\xff\xfe.example.com", b"/caf\xc3\xa9/\xff", "cafe:80"),
        (b"\xff\xfe.example.com", b"/caf\xe9", "wild-root:80"),
        (b"\xff\xfe.example.com:\xff", b"/caf\xc3", "wild-root:80"),
        (b"example.com\xff", b"/caf\xc3\xa9", "root:80"),
        (b"\xc3\xa9.EXAMPLE.com", b"/\xff?\xfe", "wild-root:80"),
        (b"\x00\x01.example.com", b"/caf\xc3\xa9#\xff", "cafe:80"),
    ];
    for (host, target, want) in cases {
        assert_eq!(label(&router, host, target), want, "{host:?} {target:?}");
        assert_eq!(reference_route(&set, IsMode::Prefix, None, host, target).backend, want);
        let request = Request::from_bytes(host, target);
        let explanation = router.explain(&request);
        assert_eq!(explanation.decision, router.route(&request).view(&request));
    }
    let explanation = router.explain(&Request::from_bytes(b"\xff.example.com", b"/\xff"));
    assert_eq!(explanation.host, "\u{fffd}.example.com");
    assert_eq!(explanation.matched_path, "/\u{fffd}");
}

/// Empty host and empty path: the host-less rules answer; Prefix `/` covers the empty path,
/// Exact `/` does not.
#[test]
fn empty_host_and_path() {
    let with_hostless = vec![ingress(
        "e",
        vec![
            (Some("example.com"), vec![path("/", "Prefix", "host")]),
            (None, vec![path("/", "Exact", "exact-root"), path("/", "Prefix", "root")]),
        ],
    )];
    let router1 = router(&with_hostless);
    assert_eq!(label(&router1, b"", b""), "root:80");
    assert_eq!(label(&router1, b"", b"/"), "exact-root:80");
    assert_eq!(label(&router1, b"", b"?x"), "root:80");
    let only_hosts = vec![ingress("h", vec![(Some("example.com"), vec![path("/", "Prefix", "host")])])];
    let router2 = router(&only_hosts);
    let decision = router2.route(&Request::new("", ""));
    assert_eq!((decision.via(), decision.to_string()), (Via::None, String::from("404")));
    let explanation = router2.explain(&Request::new("", ""));
    assert_eq!(explanation.tier, None);
    assert!(explanation.tier_reason.contains("(empty)"), "{}", explanation.tier_reason);
    // An empty table answers 404 to anything.
    let empty = router(&[]);
    assert_eq!(label(&empty, b"", b""), "404");
    assert_eq!(empty.explain(&Request::new("", "")).decision.via, Via::None);
}

/// Malformed `Host` headers: no panic; the port is cut at the first `:` (an unclosed `[` keeps
/// everything), and the answer is the reference's.
#[test]
fn malformed_host_headers() {
    let set = vec![ingress(
        "hosts",
        vec![
            (Some("a"), vec![path("/", "Prefix", "a")]),
            (Some("example.com"), vec![path("/", "Prefix", "example")]),
            (Some("*.example.com"), vec![path("/", "Prefix", "wild")]),
            (None, vec![path("/", "Prefix", "any")]),
        ],
    )];
    let router = router(&set);
    let cases: &[(&str, &str)] = &[
        ("[::1", "any"),
        ("[::1]:80", "any"),
        ("[::1]junk", "any"),
        ("[", "any"),
        ("]", "any"),
        (":80", "any"),
        (":", "any"),
        ("a:b:c", "a"),
        ("A:", "a"),
        ("a.", "a"),
        ("a..", "any"),
        (".", "any"),
        ("..", "any"),
        ("example.com:", "example"),
        ("example.com:99999999999999999999", "example"),
        ("example.com.:-1", "example"),
        (".example.com", "any"),
        ("x.example.com", "wild"),
        ("x..example.com", "any"),
        (" example.com", "any"),
        ("exa mple.com", "any"),
        ("example.com\r\nHost: a", "any"),
        ("\0", "any"),
        ("*.example.com", "wild"),
        ("*", "any"),
        ("@example.com", "any"),
        ("@x.example.com", "wild"),
    ];
    for &(host, want) in cases {
        assert_eq!(label(&router, host.as_bytes(), b"/"), format!("{want}:80"), "host {host:?}");
        assert_eq!(
            reference_route(&set, IsMode::Prefix, None, host.as_bytes(), b"/").backend,
            format!("{want}:80"),
            "reference, host {host:?}"
        );
        let explanation = router.explain(&Request::new(host, "/"));
        assert_eq!(explanation.decision.label, format!("{want}:80"));
    }
}

// --- Colliding hashes ---------------------------------------------------------------------------

/// HashDoS with the seed known (or weak): 20 000 `Prefix` paths in one Ingress whose hashes all
/// collide, beside other hosts. Built with `--features test-hash-collisions` (`make test` runs it
/// so), which makes every key of a host table hash alike and counts key comparisons; in a normal
/// build the test is left out. The bounds, counted rather than timed:
/// - compile: at most 2 x 17 + log2(keys) + 1 comparisons per key inserted (the hash table
///   compares at most 16 entries before the index moves to its ordered fallback), where a hash
///   table would compare n^2 / 2 = 200 million;
/// - a lookup: at most log2(keys) + 1 comparisons per probe, and at most one probe per slash of
///   the request path plus two (the whole path and the root), whatever the table's size.
#[cfg(feature = "test-hash-collisions")]
#[test]
fn colliding_hashes_degrade_gracefully() {
    use ingress_router::key_comparisons;
    let n = 20_000;
    let colliding = (0..n).map(|i| path(&format!("/c/{i:05}/x"), "Prefix", &format!("c{i}"))).collect();
    let mut rules = vec![(Some("victim.example.com"), colliding)];
    let others: Vec<String> = (0..40).map(|h| format!("h{h}.example.com")).collect();
    for host in &others {
        rules.push((Some(host.as_str()), vec![path("/", "Prefix", "other-root"), path("/api", "Prefix", "other-api")]));
    }
    let set = vec![ingress("collide", rules)];
    let keys = n + 2 * others.len() + others.len() + 1;
    let log2_keys = (usize::BITS - keys.leading_zeros()) as u64;

    let before = key_comparisons::count();
    let router = router(&set);
    let compile_work = key_comparisons::count() - before;
    assert!(router.indexes_ordered().1, "20 000 colliding paths must move the path index to its fallback");
    let per_key = 2 * 17 + log2_keys + 1;
    assert!(
        compile_work <= keys as u64 * per_key,
        "compile compared {compile_work} keys, more than {per_key} per key for {keys} keys"
    );

    let mut checked = 0;
    for (host, target, want) in [
        ("victim.example.com", String::from("/c/12345/x"), "c12345:80"),
        ("victim.example.com", String::from("/c/00000/x/deeper/still?q=/c/1"), "c0:80"),
        ("victim.example.com", String::from("/c/19999/xy"), "404"),
        ("victim.example.com", format!("/c/07777/x/{}", "a/".repeat(100)), "c7777:80"),
        ("h7.example.com", String::from("/api/v1"), "other-api:80"),
        ("h39.example.com", String::from("/c/12345/x"), "other-root:80"),
        ("nowhere.example.com", String::from("/c/12345/x"), "404"),
    ] {
        let slashes = target.split(['?', '#']).next().unwrap_or("").matches('/').count() as u64;
        let before = key_comparisons::count();
        let got = label(&router, host.as_bytes(), target.as_bytes());
        let work = key_comparisons::count() - before;
        assert_eq!(got, want, "{host} {target}");
        let probes = slashes + 2 + 1; // the host probe too
        assert!(work <= probes * (log2_keys + 1), "{host} {target}: {work} comparisons for at most {probes} probes");
        checked += 1;
    }
    assert_eq!(checked, 7);
}

// --- Lint diagnostics on large inputs ----------------------------------------------------------

/// Library issue (reported): the TLS lint checks compare every TLS host with every rule host and
/// list *all* hosts of the Ingress in each message: one Ingress with 40 000 rule hosts and
/// 40 000 TLS hosts (about 2 MB of YAML) made `compile` build tens of GB of messages (OOM);
/// 10 000 of each already give 3.6 GB.
#[test]
fn many_rule_and_tls_hosts_lint_in_bounded_time_and_memory() {
    use ingress_router::Code;
    let n = 50_000;
    let hosts: Vec<String> = (0..n).map(|i| format!("h{i}.example.com")).collect();
    let mut big = ingress("tls", hosts.iter().map(|h| (Some(h.as_str()), vec![path("/", "Prefix", "web")])).collect());
    big.spec.tls = vec![IngressTls {
        hosts: (0..n).map(|i| format!("t{i}.example.com")).chain([String::from("*.example.com")]).collect(),
        secret_name: Some("cert".into()),
    }];
    let objects = [Object::Ingress(big)];
    let router = compile(&objects, &CompileOptions::default());
    let diagnostics = router.lint_objects(&objects);
    assert_eq!(label(&router, b"h7.example.com", b"/"), "web:80");
    // `*.example.com` covers every rule host, so only the t*.example.com entries serve nothing.
    let unserved = diagnostics.iter().filter(|d| d.code == Code::TlsHostWithoutRule).count();
    assert_eq!(unserved, n);
    assert!(diagnostics.iter().all(|d| d.message.len() < 4096), "messages must not list every host");
}

/// Library issue (reported): for each backend whose Service is missing, the lint scans every
/// Service and computes an edit distance to every Service name of the namespace (did-you-mean):
/// 8 000 missing backends among 8 000 Services took 108 s in release, 20 000 take hours.
#[test]
fn many_missing_services_lint_in_bounded_time() {
    use ingress_router::Code;
    let n = 20_000;
    let mut objects: Vec<Object> = (0..n)
        .map(|i| {
            Object::Service(Service {
                metadata: ObjectMeta {
                    name: format!("service-{i:06}"),
                    namespace: Some("default".into()),
                    ..Default::default()
                },
                spec: ServiceSpec { ports: vec![ServicePort { port: 80, ..Default::default() }], ..Default::default() },
                ..Default::default()
            })
        })
        .collect();
    let paths = (0..n).map(|i| path(&format!("/p{i}"), "Prefix", &format!("servise-{i:06}"))).collect();
    objects.push(Object::Ingress(ingress("missing", vec![(None, paths)])));
    let router = compile(&objects, &CompileOptions::default());
    let diagnostics = router.lint_objects(&objects);
    assert_eq!(label(&router, b"x", b"/p7/x"), "servise-000007:80");
    assert_eq!(diagnostics.iter().filter(|d| d.code == Code::MissingService).count(), n);
}

/// Keys and request paths on both sides of 64 bytes, where the lookup changes strategy (paths up
/// to 64 bytes are scanned a word at a time and filtered by 64-bit length masks; longer ones
/// and longer keys take another route): every answer agrees with the reference matcher. Also
/// guards the long-key length filter: a table with one long key and a request of 100 000
/// slashes is answered (it once probed every slash past 63).
#[test]
fn keys_and_paths_around_64_bytes() {
    let key = |len: usize| format!("/{}", "k".repeat(len - 1));
    let mut paths = vec![path("/", "Prefix", "root")];
    for len in [7, 8, 9, 62, 63, 64, 65, 66, 127, 128] {
        paths.push(path(&key(len), "Prefix", &format!("p{len}")));
        paths.push(path(&format!("{}/e", key(len)), "Exact", &format!("e{len}")));
    }
    let set = vec![ingress("long", vec![(Some("example.com"), paths)])];
    let router = router(&set);
    let mut checked = 0;
    for len in [7, 8, 9, 62, 63, 64, 65, 66, 127, 128] {
        let k = key(len);
        for suffix in ["", "/", "/e", "/e/", "/e?q", "e", "/x/y", "?a/b", "#/e", "/e#x", "/k"] {
            for target in [format!("{k}{suffix}"), format!("{k}{suffix}{}", "/z".repeat(40))] {
                let want = reference_route(&set, IsMode::Prefix, None, b"example.com", target.as_bytes()).backend;
                assert_eq!(label(&router, b"example.com", target.as_bytes()), want, "{target}");
                checked += 1;
            }
        }
        // Every cut of the key's deeper path, byte by byte across the word and 64-byte edges.
        let deep = format!("{k}/e/{}", "w".repeat(70));
        for end in 0..=deep.len() {
            let target = &deep.as_bytes()[..end];
            let want = reference_route(&set, IsMode::Prefix, None, b"example.com", target).backend;
            assert_eq!(label(&router, b"example.com", target), want, "{}", String::from_utf8_lossy(target));
            checked += 1;
        }
    }
    assert!(checked > 1000);
    let slashes = "/".repeat(100_000);
    assert_eq!(label(&router, b"example.com", slashes.as_bytes()), "root:80");
}

/// The number of paths in the compiled table.
fn path_count(router: &Router) -> usize {
    router.table().hosts.iter().map(|h| h.paths.len()).sum()
}

/// The ingress-nginx profile writes `Location` headers and upstream paths from the client's
/// target and host and from annotations: what RFC 3986 does not allow there is percent-encoded
/// (no `"`, `<` or space reaches a header or a page), valid escapes stay as written, and a `%`
/// or `?` that a rewrite capture took from the decoded URI stays literal (`%25`, `%3F`), so that
/// `/%252e%252e` cannot reach the upstream as `/%2e%2e`.
#[cfg(feature = "nginx")]
#[test]
fn nginx_redirects_and_rewrites_percent_encode_what_they_write() {
    use ingress_router::{Profile, Scheme};
    let annotated = |name: &str, host: &str, p: HttpIngressPath, pairs: &[(&str, &str)]| {
        let mut i = ingress(name, vec![(Some(host).filter(|h| !h.is_empty()), vec![p])]);
        for (k, v) in pairs {
            i.metadata.annotations.insert(format!("nginx.ingress.kubernetes.io/{k}"), (*v).into());
        }
        i
    };
    let ingresses = [
        annotated("ssl", "ssl.example.com", path("/", "Prefix", "web"), &[("force-ssl-redirect", "true")]),
        annotated(
            "rw",
            "rw.example.com",
            path("/api/(.*)", "ImplementationSpecific", "api"),
            &[("rewrite-target", "/$1")],
        ),
        annotated("root", "", path("/", "Prefix", "web"), &[("app-root", "/app")]),
        annotated("www", "www.example.com", path("/", "Prefix", "web"), &[("from-to-www-redirect", "true")]),
        annotated(
            "moved",
            "moved.example.com",
            path("/", "Prefix", "web"),
            &[("permanent-redirect", "https://new.example.com/a?b=c")],
        ),
    ];
    let objects: Vec<Object> = ingresses.iter().cloned().map(Object::Ingress).collect();
    let router = compile(&objects, &CompileOptions::default().with_profile(Profile::IngressNginx));
    let location = |host: &[u8], target: &[u8]| {
        let d = router.route(&Request::from_bytes(host, target));
        d.redirect().map(|r| r.location.to_string())
    };
    assert_eq!(
        location(b"ssl.example.com", b"/\"><img src=x onerror=alert(1)>?q=<x>").as_deref(),
        Some("https://ssl.example.com/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E?q=%3Cx%3E")
    );
    assert_eq!(
        location(b"ssl.example.com", b"/caf\xc3\xa9/%2F\xff").as_deref(),
        Some("https://ssl.example.com/caf%C3%A9/%2F%FF")
    );
    assert_eq!(location(b"example.com", b"/a b").as_deref(), Some("http://www.example.com:80/a%20b"));
    // The catch-all server (no host) has app-root: the client's Host goes into the Location.
    assert_eq!(location(b"x\"<y", b"/").as_deref(), Some("http://x%22%3Cy/app"));
    assert_eq!(location(b"a.com@evil.com", b"/").as_deref(), Some("http://a.com%40evil.com/app"));
    assert_eq!(location(b"[::1]:8080", b"/").as_deref(), Some("http://[::1]:8080/app"));
    assert_eq!(location(b"moved.example.com", b"/x").as_deref(), Some("https://new.example.com/a?b=c"));
    let upstream = |target: &[u8]| {
        let request = Request::from_bytes(b"rw.example.com", target).with_scheme(Scheme::Https);
        router.route(&request).upstream_path().map(String::from)
    };
    assert_eq!(upstream(b"/api/%3Cb%3E%20x?q=\"").as_deref(), Some("/%3Cb%3E%20x?q=%22"));
    assert_eq!(upstream(b"/api/%252e%252e/admin").as_deref(), Some("/%252e%252e/admin"));
    assert_eq!(upstream(b"/api/a%3Fb?c").as_deref(), Some("/a%3Fb?c"), "a decoded ? is not a query");
    assert_eq!(upstream(b"/api/a%2Fb").as_deref(), Some("/a/b"), "nginx decodes %2F in $uri: the capture is a /");
}

/// Integers no 64-bit reader keeps (2^64, below -2^63; in YAML, which used to refuse the whole
/// document with "invalid type: integer ... as u128") and fractions in an Ingress's integer
/// fields: the document is read and the Ingress refused as the apiserver refuses it, naming the
/// field and its type (`int32`, whose range the validation states next); a Service's likewise.
#[test]
fn out_of_range_integers_name_their_field() {
    for number in ["18446744073709551616", "-9223372036854775809", "340282366920938463463374607431768211455", "1.5"] {
        let ingress = format!(
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: web}}\nspec:\n  \
             defaultBackend:\n    service: {{name: web, port: {{number: {number}}}}}\n"
        );
        let service =
            format!("apiVersion: v1\nkind: Service\nmetadata: {{name: web}}\nspec:\n  ports: [{{port: {number}}}]\n");
        for (text, field, line) in
            [(ingress, "spec.defaultBackend.service.port.number", 6), (service, "spec.ports[0].port", 5)]
        {
            // The one object of the input is refused: the input is an error, at the field.
            let e = parse_err(&text);
            assert_eq!(e.field.as_deref(), Some(field), "{number}: {e}");
            assert!(e.message.contains("of type int32") && !e.message.contains("u128"), "{number}: {e}");
            assert_eq!((e.document, e.line), (Some(1), Some(line)), "{e}");
        }
    }
    // In range for its type but not for the field: the apiserver's range.
    let text = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  defaultBackend:\n    service: {name: web, port: {number: 70000}}\n";
    let objects = input::parse("big.yaml", text).unwrap().into_objects();
    let router = compile(&objects, &CompileOptions::default());
    let excluded = &router.table().excluded;
    assert!(excluded.iter().any(|x| format!("{x:?}").contains("must be between 1 and 65535")), "{excluded:?}");
}

/// ingress-nginx reads `canary-weight` with Go's `strconv.Atoi`: a value beyond 64 bits is
/// dropped (weight 0) and the warning names the annotation and the range it would need.
#[cfg(feature = "nginx")]
#[test]
fn an_out_of_range_canary_weight_names_its_range() {
    use ingress_router::{Code, Profile};
    let mut canary = ingress("canary", vec![(Some("a.example.com"), vec![path("/", "Prefix", "new")])]);
    for (k, v) in [("canary", "true"), ("canary-weight", "18446744073709551616")] {
        canary.metadata.annotations.insert(format!("nginx.ingress.kubernetes.io/{k}"), v.into());
    }
    let main = ingress("main", vec![(Some("a.example.com"), vec![path("/", "Prefix", "web")])]);
    let objects = vec![Object::Ingress(main), Object::Ingress(canary)];
    let router = compile(&objects, &CompileOptions::default().with_profile(Profile::IngressNginx));
    let lint = router.lint_objects(&objects);
    let warning = lint.iter().find(|d| d.code == Code::NginxIgnoredAnnotation).expect("a warning");
    assert!(
        warning.message.contains("canary-weight")
            && warning.message.contains("not an integer from -9223372036854775808 to 9223372036854775807"),
        "{warning}"
    );
    assert_eq!(label(&router, b"a.example.com", b"/"), "web:80");
}
