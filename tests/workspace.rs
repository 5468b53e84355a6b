//! `Workspace`: reading a stream again after an edit gives exactly what reading it from scratch
//! gives (the input, the router's answers and table, the diagnostics, the validation report), for
//! random edit sequences: add, remove and change a document, change the order, change creation
//! timestamps.

use ingress_router::input::{self, Input};
use ingress_router::views::{self, Locator, Validated};
use ingress_router::{CompileOptions, ImplementationSpecific, Request, Workspace, compile_seeded};
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
            Doc::Ingress { name, namespace, host, paths, timestamp, flow, class } => {
                let mut meta = format!("name: ing{name}, namespace: ns{namespace}");
                if let Some(t) = timestamp {
                    meta.push_str(&format!(", creationTimestamp: \"2024-01-0{}T00:00:00Z\"", t % 9 + 1));
                }
                let mut out = format!("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{{meta}}}\nspec:\n");
                if let Some(c) = class {
                    out.push_str(&format!("  ingressClassName: class{c}\n"));
                }
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
              proptest::option::of(0..4u8), any::<bool>(), proptest::option::weighted(0.2, 0..2u8))
            .prop_map(|(name, namespace, host, paths, timestamp, flow, class)| Doc::Ingress { name, namespace, host, paths, timestamp, flow, class }),
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
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<prop::sample::Index>().prop_map(|i| i.index(1 << 16));
    prop_oneof![
        3 => (at.clone(), doc()).prop_map(|(i, d)| Edit::Add(i, d)),
        2 => at.clone().prop_map(Edit::Remove),
        3 => (at.clone(), doc()).prop_map(|(i, d)| Edit::Change(i, d)),
        2 => (at.clone(), at.clone()).prop_map(|(a, b)| Edit::Move(a, b)),
        3 => (at.clone(), proptest::option::of(0..4u8)).prop_map(|(i, t)| Edit::Timestamp(i, t)),
        1 => at.prop_map(Edit::Comment),
        1 => proptest::option::of(0..3u8).prop_map(Edit::Head),
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
    let objects = fresh.clone().into_objects();
    let router = compile_seeded(&objects, options, 1);
    let diagnostics = router.lint(&objects);
    let (ws_router, ws_diagnostics) = workspace.compile(options, 2);
    assert_eq!(ws_diagnostics, diagnostics, "the diagnostics of:\n{text}");
    assert_eq!(ws_router.table(), router.table());
    for request in requests() {
        assert_eq!(ws_router.route(&request).view(), router.route(&request).view());
    }
    let report = |input: &Input, diagnostics| {
        let mut locator = Locator::new([(SOURCE, text)]);
        views::validation_report(Validated::from(input), &[], diagnostics, &mut |o, f| locator.locate(o, f))
    };
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
