//! `Workspace`: reading a stream again after an edit gives exactly what reading it from scratch
//! gives (the input, the router's answers and table, the diagnostics, the validation report), for
//! random edit sequences: add, remove and change a document, change the order, change creation
//! timestamps, restyle a document (the same objects in another text).

use ingress_router::compile_seeded;
use ingress_router::input::{self, Input};
use ingress_router::options::ImplementationSpecific;
use ingress_router::views;
use ingress_router::{CompileOptions, Request, Workspace};
use proptest::prelude::*;

const SOURCE: &str = "edit.yaml";

/// One document of the stream, as data, so that an edit can change one part of it.
#[derive(Clone, Debug)]
enum Doc {
    Ingress {
        name: u8,
        namespace: u8,
        host: Option<u8>,
        paths: Vec<(u8, u8, u8)>,
        timestamp: Option<u8>,
        flow: bool,
        class: Option<u8>,
        /// Indices into `EXTRAS`: annotations, TLS and regex-looking paths, for lint's checks.
        extras: Vec<u8>,
    },
    Service {
        name: u8,
        ports: Vec<u8>,
    },
    Class {
        name: u8,
        default: bool,
    },
    /// Anything else a stream holds: comments, empty documents, errors, other kinds, lists.
    Other(u8),
}

/// What an Ingress may add for lint: annotations (canary, regexes for its hosts, the legacy class,
/// a misspelt key, an ALB action), TLS, and paths that look like regexes or globs (the last).
const EXTRAS: &[&str] = &[
    "nginx.ingress.kubernetes.io/canary: \"true\", nginx.ingress.kubernetes.io/canary-weight: \"10\"",
    "nginx.ingress.kubernetes.io/use-regex: \"true\"",
    "nginx.ingress.kubernetes.io/rewrite-target: /",
    "kubernetes.io/ingress.class: class1",
    "nginx.ingress.kubernetes.io/rewrite-targt: /",
    "alb.ingress.kubernetes.io/actions.s1: '{\"type\": \"fixed-response\"}'",
    "tls",
    "regex paths",
];

const OTHERS: &[&str] = &[
    "# only a comment\n",
    "",
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n",
    "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: bad, namespace: a}\nspec:\n  rules:\n  - http: {paths: [{path: /x, pathType: Wrong, backend: {service: {name: s1, port: {number: 80}}}}]}\n",
    "kind: 3\n",
    "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: typed}\nspec: {rules: 5}\n",
    "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: unknown}\nspec:\n  rulez: []\n  defaultBackend: {service: {name: s2, port: {number: 80}}}\n",
    "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: old}\nspec:\n  backend: {serviceName: s1, servicePort: 80}\n",
    "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s3, namespace: b}\n  spec: {ports: [{port: 80}]}\n- kind: 4\n",
    "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: snippet\n  namespace: a\n  annotations:\n    nginx.ingress.kubernetes.io/configuration-snippet: |+\n      more_set_headers \"x: y\";\n\n\n",
    "- just\n- a list\n",
    "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: cut, namespace: a\n",
    "a: [1, 2\n",
    "a: 1\n...\n# ended\n",
    "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: dflt, namespace: b, creationTimestamp: \"2020-01-01T00:00:00Z\"}\nspec:\n  defaultBackend: {service: {name: s1, port: {name: http}}}\n",
    "{? [a]: b}\n",
];

impl Doc {
    fn text(&self) -> String {
        match self {
            Doc::Ingress { name, namespace, host, paths, timestamp, flow, class, extras } => {
                let extra = |i: usize| extras.iter().any(|&e| usize::from(e) % EXTRAS.len() == i);
                let mut meta = format!("name: ing{name}, namespace: ns{namespace}");
                if let Some(t) = timestamp {
                    meta.push_str(&format!(", creationTimestamp: \"2024-01-0{}T00:00:00Z\"", t % 9 + 1));
                }
                let annotations: Vec<&str> = (0..EXTRAS.len() - 2).filter(|&i| extra(i)).map(|i| EXTRAS[i]).collect();
                if !annotations.is_empty() {
                    meta.push_str(&format!(", annotations: {{{}}}", annotations.join(", ")));
                }
                let mut out = format!("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{{meta}}}\nspec:\n");
                if let Some(c) = class {
                    out.push_str(&format!("  ingressClassName: class{c}\n"));
                }
                if extra(EXTRAS.len() - 2) {
                    out.push_str("  tls:\n  - hosts: [h0.example.com, other.example.com]\n");
                }
                let regex = extra(EXTRAS.len() - 1);
                out.push_str("  rules:\n");
                match host {
                    Some(h) => out.push_str(&format!("  - host: h{h}.example.com\n    http:\n      paths:\n")),
                    None => out.push_str("  - http:\n      paths:\n"),
                }
                if paths.is_empty() {
                    out.push_str("      []\n");
                }
                for (path, kind, service) in paths {
                    let kind = ["Prefix", "Exact", "ImplementationSpecific"][usize::from(kind % 3)];
                    let path = match (regex, path % 2) {
                        (false, _) => format!("{path}"),
                        (true, 0) => format!("{path}/*"),
                        (true, _) => format!("{path}(.*)"),
                    };
                    if *flow {
                        out.push_str(&format!(
                            "      - {{path: /p{path}, pathType: {kind}, backend: {{service: {{name: s{service}, port: {{number: 80}}}}}}}}\n"
                        ));
                    } else {
                        out.push_str(&format!(
                            "      - path: /p{path}\n        pathType: {kind}\n        backend:\n          service:\n            name: s{service}\n            port:\n              number: 80\n"
                        ));
                    }
                }
                out
            }
            Doc::Service { name, ports } => {
                let ports: Vec<String> =
                    ports.iter().map(|p| format!("{{name: p{p}, port: {}}}", 80 + u16::from(*p))).collect();
                format!(
                    "apiVersion: v1\nkind: Service\nmetadata: {{name: s{name}, namespace: ns0}}\nspec: {{ports: [{}]}}\n",
                    ports.join(", ")
                )
            }
            Doc::Class { name, default } => format!(
                "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: class{name}\n  annotations: {{ingressclass.kubernetes.io/is-default-class: \"{default}\"}}\nspec: {{controller: k8s.io/ingress-nginx}}\n"
            ),
            Doc::Other(i) => OTHERS[usize::from(*i) % OTHERS.len()].to_string(),
        }
    }
}

fn doc() -> impl Strategy<Value = Doc> {
    prop_oneof![
        4 => (0..4u8, 0..2u8, proptest::option::of(0..3u8), proptest::collection::vec((0..5u8, 0..3u8, 0..4u8), 0..4),
              proptest::option::of(0..4u8), any::<bool>(), proptest::option::weighted(0.2, 0..2u8),
              proptest::collection::vec(0..EXTRAS.len() as u8, 0..3))
            .prop_map(|(name, namespace, host, paths, timestamp, flow, class, extras)| Doc::Ingress { name, namespace, host, paths, timestamp, flow, class, extras }),
        1 => (0..4u8, proptest::collection::vec(0..3u8, 0..3)).prop_map(|(name, ports)| Doc::Service { name, ports }),
        1 => (0..2u8, any::<bool>()).prop_map(|(name, default)| Doc::Class { name, default }),
        2 => (0..OTHERS.len() as u8).prop_map(Doc::Other),
    ]
}

#[derive(Clone, Debug)]
enum Edit {
    Add(usize, Doc),
    Remove(usize),
    Change(usize, Doc),
    Move(usize, usize),
    /// A new creationTimestamp (or none) for an Ingress.
    Timestamp(usize, Option<u8>),
    /// A comment line typed into a document (changes its text and the lines after it).
    Comment(usize),
    /// The comment before the first `---`.
    Head(Option<u8>),
    /// An Ingress written in the other style (flow or block): the same objects, another text.
    Restyle(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<prop::sample::Index>().prop_map(|i| i.index(1 << 16));
    prop_oneof![
        3 => (at.clone(), doc()).prop_map(|(i, d)| Edit::Add(i, d)),
        2 => at.clone().prop_map(Edit::Remove),
        3 => (at.clone(), doc()).prop_map(|(i, d)| Edit::Change(i, d)),
        2 => (at.clone(), at.clone()).prop_map(|(a, b)| Edit::Move(a, b)),
        3 => (at.clone(), proptest::option::of(0..4u8)).prop_map(|(i, t)| Edit::Timestamp(i, t)),
        1 => at.clone().prop_map(Edit::Comment),
        1 => proptest::option::of(0..3u8).prop_map(Edit::Head),
        1 => at.prop_map(Edit::Restyle),
    ]
}

struct Stream {
    head: Option<u8>,
    docs: Vec<(Doc, usize)>,
}

impl Stream {
    fn apply(&mut self, edit: &Edit) {
        let n = self.docs.len();
        match edit.clone() {
            Edit::Add(i, d) => self.docs.insert(i % (n + 1), (d, 0)),
            Edit::Remove(i) if n > 0 => {
                self.docs.remove(i % n);
            }
            Edit::Change(i, d) if n > 0 => self.docs[i % n] = (d, 0),
            Edit::Move(a, b) if n > 0 => {
                let d = self.docs.remove(a % n);
                self.docs.insert(b % n, d);
            }
            Edit::Timestamp(i, t) if n > 0 => {
                if let (Doc::Ingress { timestamp, .. }, _) = &mut self.docs[i % n] {
                    *timestamp = t;
                }
            }
            Edit::Comment(i) if n > 0 => self.docs[i % n].1 += 1,
            Edit::Head(h) => self.head = h,
            Edit::Restyle(i) if n > 0 => {
                if let (Doc::Ingress { flow, .. }, _) = &mut self.docs[i % n] {
                    *flow = !*flow;
                }
            }
            _ => {}
        }
    }

    fn text(&self) -> String {
        let mut out = match self.head {
            Some(h) => "# head\n".repeat(usize::from(h) + 1) + "---\n",
            None => String::new(),
        };
        for (i, (doc, comments)) in self.docs.iter().enumerate() {
            if i > 0 {
                out.push_str(if i % 3 == 0 { "--- # next\n" } else { "---\n" });
            }
            out.push_str(&"# typed\n".repeat(*comments));
            out.push_str(&doc.text());
        }
        out
    }
}

fn requests() -> Vec<Request<'static>> {
    let hosts = ["h0.example.com", "h1.example.com", "h2.example.com", "other.example.com"];
    let paths = ["/", "/p0", "/p1/x", "/p2", "/p3/", "/p4/deep", "/x"];
    hosts.iter().flat_map(|h| paths.iter().map(move |p| Request::new(h, p))).collect()
}

/// Everything a user sees of `input` compiled with `options`, computed from scratch or from the
/// workspace's own parts.
fn check_equal(workspace: &mut Workspace, text: &str, options: &CompileOptions) {
    let fresh = input::parse_all(SOURCE, text);
    let incremental = workspace.update(text).clone();
    assert_eq!(incremental, fresh, "the input of:\n{text}");
    let router = compile_seeded(&fresh, options, 1).unwrap();
    let diagnostics = router.lint(&fresh);
    let (ws_router, ws_diagnostics) = workspace.compile(options, 2).unwrap();
    assert_eq!(ws_diagnostics, diagnostics, "the diagnostics of:\n{text}");
    assert_eq!(ws_router.table(), router.table());
    for request in requests() {
        assert_eq!(ws_router.route(&request).view(&request), router.route(&request).view(&request));
    }
    let report =
        |input: &Input, diagnostics| views::validation_report(input, &[(SOURCE, text)], &Input::default(), diagnostics);
    assert_eq!(report(&incremental, ws_diagnostics), report(&fresh, diagnostics));
}

fn run_edits(start: Vec<Doc>, edits: &[Edit], options: &CompileOptions) {
    let mut stream = Stream { head: None, docs: start.into_iter().map(|d| (d, 0)).collect() };
    let mut workspace = Workspace::new(SOURCE);
    check_equal(&mut workspace, &stream.text(), options);
    for edit in edits {
        stream.apply(edit);
        check_equal(&mut workspace, &stream.text(), options);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn edits_give_what_a_compile_from_scratch_gives(
        start in proptest::collection::vec(doc(), 0..6),
        edits in proptest::collection::vec(edit(), 1..12),
        class in any::<bool>(),
    ) {
        let mut options = CompileOptions::default();
        if class {
            options.ingress_class = Some("class0".into());
            options.implementation_specific = ImplementationSpecific::Exact;
        }
        run_edits(start, &edits, &options);
    }
}

#[cfg(feature = "nginx")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The ingress-nginx profile: its own table and diagnostics.
    #[test]
    fn edits_give_what_a_compile_from_scratch_gives_with_ingress_nginx(
        start in proptest::collection::vec(doc(), 0..6),
        edits in proptest::collection::vec(edit(), 1..8),
    ) {
        run_edits(start, &edits, &CompileOptions::default().with_profile(ingress_router::Profile::IngressNginx));
    }
}

fn thousand_paths() -> String {
    let mut docs = Vec::new();
    for h in 0..10 {
        let paths: Vec<String> = (0..100)
            .map(|p| format!("      - {{path: /svc{p}/v{}, pathType: Prefix, backend: {{service: {{name: svc-{h}-{p}, port: {{number: 80}}}}}}}}", p % 4))
            .collect();
        docs.push(format!(
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: app-{h}, namespace: bench}}\nspec:\n  rules:\n  - host: h{h}.example.com\n    http:\n      paths:\n{}",
            paths.join("\n")
        ));
    }
    format!("# 1 000 paths\n{}\n", docs.join("\n---\n"))
}

#[test]
fn an_edit_reads_only_the_document_it_changed() {
    let text = thousand_paths();
    let mut workspace = Workspace::new(SOURCE);
    workspace.update(&text);
    assert_eq!(workspace.documents_read(), Some(10));
    // Flow style: more than 128 flow collections, so the nesting check runs, per document.
    let edited = text.replacen("/svc41/v1", "/svc41/v2", 3);
    assert_eq!(workspace.update(&edited), &input::parse_all(SOURCE, &edited));
    assert_eq!(workspace.documents_read(), Some(3));
    let typed = edited.replacen("# 1 000", "# 1 000x", 1);
    assert_eq!(workspace.update(&typed), &input::parse_all(SOURCE, &typed));
    assert_eq!(workspace.documents_read(), Some(1));
    assert_eq!(workspace.update(&typed), &input::parse_all(SOURCE, &typed));
    assert_eq!(workspace.documents_read(), Some(0));
}

#[test]
fn texts_the_reader_could_split_otherwise_are_read_whole() {
    let doc = "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}\n";
    for text in [
        format!("{doc}---\r\n{doc}"),
        format!("%YAML 1.2\n---\n{doc}"),
        format!("{doc}---\n{doc}\u{85}---\n{doc}"),
        format!("[{doc}]"),
        format!("{doc}---\nbad: [\n---\n{doc}"),
        format!("{doc}---\nname: {{{{ .Values.name }}}}\n"),
    ] {
        let mut workspace = Workspace::new(SOURCE);
        assert_eq!(workspace.update(&text), &input::parse_all(SOURCE, &text), "{text:?}");
        assert_eq!(workspace.documents_read(), None, "{text:?}");
    }
    let mut workspace = Workspace::with_limit(SOURCE, 10);
    assert_eq!(workspace.update(doc), &input::parse_all_with_limit(SOURCE, doc, 10));
}

fn ingress(name: &str, annotations: &str, paths: &[(&str, &str)]) -> String {
    let paths: Vec<String> = paths
        .iter()
        .map(|(path, service)| {
            format!("      - {{path: {path}, pathType: Prefix, backend: {{service: {{name: {service}, port: {{number: 80}}}}}}}}")
        })
        .collect();
    format!(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: {name}, namespace: shop, annotations: {{{annotations}}}}}\nspec:\n  rules:\n  - host: shop.example.com\n    http:\n      paths:\n{}\n",
        paths.join("\n")
    )
}

/// Compiles `docs` (joined into one stream) in `workspace` and from scratch; the diagnostics must
/// be the same. Returns them.
fn lint_both(workspace: &mut Workspace, docs: &[&str], options: &CompileOptions) -> Vec<ingress_router::Diagnostic> {
    let text = docs.join("---\n");
    workspace.update(&text);
    let input = input::parse_all(SOURCE, &text);
    let fresh = compile_seeded(&input, options, 1).unwrap().lint(&input);
    let (_, diagnostics) = workspace.compile(options, 1).unwrap();
    assert_eq!(diagnostics, fresh, "the diagnostics of:\n{text}");
    diagnostics
}

fn has(diagnostics: &[ingress_router::Diagnostic], code: ingress_router::Code, text: &str) -> bool {
    diagnostics.iter().any(|d| d.code == code && d.message.contains(text))
}

/// What lint found in a document that did not change is reused only while what it read is the
/// same: a Service, an IngressClass or another Ingress's annotation in another document changes
/// the findings about it.
#[test]
fn findings_about_an_unchanged_document_follow_the_others() {
    use ingress_router::Code;
    let cart = ingress("cart", "", &[("/cart", "cart"), ("/api(.*)", "api")]);
    let service = |ports: &str| {
        format!(
            "apiVersion: v1\nkind: Service\nmetadata: {{name: cart, namespace: shop}}\nspec: {{ports: [{ports}]}}\n"
        )
    };
    let regex = ingress("regex", "nginx.ingress.kubernetes.io/use-regex: \"true\"", &[("/x", "x")]);
    let other = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n";
    let options = CompileOptions::default();
    let mut workspace = Workspace::new(SOURCE);

    let found = lint_both(&mut workspace, &[&cart, other], &options);
    assert!(!has(&found, Code::MissingService, "cart")); // no Service in the input: not checked

    // A Service added in the other document: cart's backends are checked against it.
    let found = lint_both(&mut workspace, &[&cart, &service("{port: 8080}")], &options);
    assert_eq!(workspace.documents_read(), Some(1));
    assert!(has(&found, Code::MissingPortNumber, "does not expose port 80"));
    assert!(has(&found, Code::MissingService, "Service shop/api is not in the input"));
    let found = lint_both(&mut workspace, &[&cart, &service("{port: 80}")], &options);
    assert!(!has(&found, Code::MissingPortNumber, ""));

    // Another Ingress turns regexes on for the host: cart's regex-looking path says so.
    let note = "ingress-nginx reads it as a regex here only because";
    let found = lint_both(&mut workspace, &[&cart, &service("{port: 80}"), &regex], &options);
    assert!(has(&found, Code::RegexPathLiteral, note));
    let found = lint_both(&mut workspace, &[&cart, &service("{port: 80}"), other], &options);
    assert!(has(&found, Code::RegexPathLiteral, "/api(.*)") && !has(&found, Code::RegexPathLiteral, note));

    // An IngressClass makes cart (no class) take part or not for the served class.
    let mut served = CompileOptions::default();
    served.ingress_class = Some("nginx".into());
    let class = |default: bool| {
        format!(
            "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\n  annotations: {{ingressclass.kubernetes.io/is-default-class: \"{default}\"}}\nspec: {{controller: k8s.io/ingress-nginx}}\n"
        )
    };
    let found = lint_both(&mut workspace, &[&cart, &service("{port: 8080}"), &class(true)], &served);
    assert!(has(&found, Code::MissingPortNumber, "") && has(&found, Code::RegexPathLiteral, ""));
    let found = lint_both(&mut workspace, &[&cart, &service("{port: 8080}"), &class(false)], &served);
    assert!(!has(&found, Code::MissingPortNumber, "") && !has(&found, Code::RegexPathLiteral, ""));
    lint_both(&mut workspace, &[&cart, &service("{port: 8080}"), &class(true)], &served);
}

/// Only so many missing Services get a did-you-mean, in the order of the input: an edit in the
/// first document changes which backends of the last one get one.
#[test]
fn the_did_you_mean_budget_follows_the_documents_before() {
    let backends = |doc: usize, n: usize| -> Vec<(String, String)> {
        (0..n).map(|p| (format!("/d{doc}p{p}"), format!("card-{doc}-{p}"))).collect()
    };
    let doc = |doc: usize, n: usize| {
        let paths = backends(doc, n);
        let paths: Vec<(&str, &str)> = paths.iter().map(|(p, s)| (p.as_str(), s.as_str())).collect();
        ingress(&format!("app{doc}"), "", &paths)
    };
    let service =
        "apiVersion: v1\nkind: Service\nmetadata: {name: card-2-9, namespace: shop}\nspec: {ports: [{port: 80}]}\n";
    let mut workspace = Workspace::new(SOURCE);
    let options = CompileOptions::default();
    // The third document's missing Services, with a did-you-mean (card-2-9 is one edit away).
    let suggested = |found: &[ingress_router::Diagnostic]| {
        found
            .iter()
            .filter(|d| d.message.starts_with("Ingress shop/app2:") && d.message.contains("did you mean"))
            .count()
    };
    // 1 009 missing Services: the third document's nine come after the first thousand.
    let found = lint_both(&mut workspace, &[&doc(0, 500), &doc(1, 500), &doc(2, 10), service], &options);
    assert_eq!(suggested(&found), 0);
    // The first document loses 20 backends: the third one's get theirs.
    let found = lint_both(&mut workspace, &[&doc(0, 480), &doc(1, 500), &doc(2, 10), service], &options);
    assert_eq!(suggested(&found), 9);
    assert_eq!(workspace.documents_read(), Some(1));
    let found = lint_both(&mut workspace, &[&doc(0, 500), &doc(1, 500), &doc(2, 10), service], &options);
    assert_eq!(suggested(&found), 0);
}

/// Gateway API documents are read incrementally too: an edit to one HTTPRoute reads that document
/// alone, and the workspace routes, explains and lints as a compile of the whole text does.
#[test]
fn gateway_api_edits_read_only_the_document_that_changed() {
    let gateway = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: infra}\nspec:\n  gatewayClassName: eg\n  listeners:\n  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}\n";
    let route = |name: &str, path: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  parentRefs: [{{name: gw, namespace: infra}}]\n  hostnames: [shop.example.com]\n  rules:\n  - matches: [{{path: {{type: PathPrefix, value: {path}}}}}]\n    backendRefs: [{{name: {name}, port: 80}}]\n"
        )
    };
    let mut workspace = Workspace::new(SOURCE);
    let text = format!("{gateway}---\n{}---\n{}", route("cart", "/cart"), route("web", "/"));
    assert_eq!(workspace.update(&text), &input::parse_all(SOURCE, &text));
    assert_eq!(workspace.documents_read(), Some(3));
    let edited = format!("{gateway}---\n{}---\n{}", route("cart", "/basket"), route("web", "/"));
    assert_eq!(workspace.update(&edited), &input::parse_all(SOURCE, &edited));
    assert_eq!(workspace.documents_read(), Some(1), "only the edited HTTPRoute is read again");
    let (router, diagnostics) = workspace.compile(&CompileOptions::default(), 7).unwrap();
    let scratch =
        ingress_router::compile_seeded(&input::parse_all(SOURCE, &edited), &CompileOptions::default(), 7).unwrap();
    for path in ["/basket/1", "/cart", "/"] {
        let request = Request::new("shop.example.com", path);
        assert_eq!(router.route(&request).to_string(), scratch.route(&request).to_string(), "{path}");
        assert_eq!(router.route(&request).view(&request), scratch.route(&request).view(&request), "{path}");
    }
    assert_eq!(router.route(&Request::new("shop.example.com", "/basket/1")).to_string(), "shop/cart:80");
    assert_eq!(diagnostics, scratch.lint(&input::parse_all(SOURCE, &edited)));
}
