//! Line and column of fields in YAML or JSON text, to point validation errors at the source.
//!
//! [`views::validation_report`](crate::views::validation_report) finds each invalid field of an
//! object in the text it was read from. Inside, a text's positions are read once with `saphyr-parser`'s event parser and records where
//! each value starts, keyed by document (1-based) and field path (`spec.rules[0].http.paths[0].path`,
//! `items[3].spec.rules[0].host` inside a `kind: List`). JSON is read as the flow YAML it is.
//!
//! Bounded for hostile input: aliases are recorded where they stand and never expanded, at most
//! a million values and 8 MiB of distinct key text are kept, and nesting deeper than 512 levels is
//! walked without being recorded. A syntax error ends the reading; what was
//! read before it stays available.

use alloc::boxed::Box;
use alloc::vec::Vec;

use hashbrown::HashMap;
use saphyr_parser::{Event, Marker, Parser};
use serde::Serialize;

/// Most values recorded (beyond them, lookups fall back to the closest recorded ancestor).
pub(crate) const MAX_NODES: usize = 1 << 20;
/// Most bytes of distinct mapping-key text kept.
pub(crate) const MAX_KEY_BYTES: usize = 8 << 20;
/// Deepest nesting recorded.
pub(crate) const MAX_DEPTH: usize = 512;

/// A place in the text: 1-based line and 1-based column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// The positions of the values of a YAML or JSON text.
#[derive(Clone, Debug, Default)]
pub(crate) struct Positions {
    nodes: Vec<Node>,
    /// (parent node, segment) → child node.
    children: HashMap<(u32, Segment), u32>,
    /// Interned mapping keys.
    keys: HashMap<Box<str>, u32>,
    key_bytes: usize,
    /// Root node of each document (`NONE` when the document has no recorded root).
    documents: Vec<u32>,
    limits: Limits,
}

/// The bounds of one reading (the `MAX_*` constants, smaller in tests).
#[derive(Clone, Copy, Debug, Default)]
struct Limits {
    nodes: usize,
    key_bytes: usize,
    depth: usize,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    line: u32,
    column: u32,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Scalar,
    Mapping,
    Sequence,
}

/// One step of a path: a mapping key (interned) or a sequence index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Segment {
    Key(u32),
    Index(u32),
}

impl Positions {
    /// Reads `text` (YAML, multi-document YAML, or JSON). Never panics; on a syntax error keeps
    /// what was read before it.
    pub(crate) fn new(text: &str) -> Positions {
        Positions::read(text, Limits { nodes: MAX_NODES, key_bytes: MAX_KEY_BYTES, depth: MAX_DEPTH })
    }

    fn read(text: &str, limits: Limits) -> Positions {
        let mut builder = Builder { out: Positions { limits, ..Positions::default() }, stack: Vec::new(), skip: 0 };
        let mut parser = Parser::new_from_str(text);
        while let Some(Ok((event, span))) = parser.next_event() {
            builder.event(event, span.start);
        }
        builder.out
    }

    /// Number of documents read.
    #[cfg(test)]
    fn documents(&self) -> usize {
        self.documents.len()
    }

    /// Position of the value at `path` in `document` (1-based). When the field is absent, the
    /// closest ancestor that exists, so that a `Required value` error still points somewhere
    /// useful. An empty path is the document's root. `None` only when the document is unknown.
    ///
    /// Paths are written as the apiserver writes field paths: `spec.rules[0].host`. Keys that
    /// contain dots (`kubernetes.io/ingress.class`) are found too, and `items[N]` also matches
    /// the N-th element of a document that is a plain sequence (a JSON array of objects). Go's
    /// `annotations.<key>` path (which lacks `metadata.`) is looked up under `metadata`.
    pub(crate) fn locate(&self, document: usize, path: &str) -> Option<Position> {
        let root = *self.documents.get(document.checked_sub(1)?)?;
        if root == NONE {
            return None;
        }
        let segments = parse_path(path);
        let mut current = root;
        let mut i = 0;
        while i < segments.len() {
            match self.step(current, &segments, i) {
                Some((next, consumed)) => {
                    current = next;
                    i += consumed;
                }
                None => break,
            }
        }
        Some(self.position(current))
    }

    /// Follows `segments[i..]` one step from `node`: the child and how many segments it used.
    fn step(&self, node: u32, segments: &[PathSegment<'_>], i: usize) -> Option<(u32, usize)> {
        match segments[i] {
            PathSegment::Index(n) => self.child(node, Segment::Index(u32::try_from(n).ok()?)).map(|c| (c, 1)),
            PathSegment::Key(key) => {
                if let Some(found) = self.key_step(node, segments, i) {
                    return Some(found);
                }
                let is_root = i == 0;
                // A JSON array of objects: `items[N]` is the root's N-th element.
                if is_root && key == "items" && self.nodes[node as usize].kind == Kind::Sequence {
                    if let Some(&PathSegment::Index(n)) = segments.get(i + 1) {
                        return self.child(node, Segment::Index(u32::try_from(n).ok()?)).map(|c| (c, 2));
                    }
                }
                // ValidateIngressCreate's `annotations.<key>` path lacks `metadata.` (at an
                // object's top, which is the root or a `kind: List` item).
                if key == "annotations" {
                    let metadata = self.key_child(node, "metadata")?;
                    return self.key_step(metadata, segments, i);
                }
                None
            }
        }
    }

    /// A key step, trying keys that contain dots (`a.b.c` as `a`, `a.b`, `a.b.c`) shortest first.
    fn key_step(&self, node: u32, segments: &[PathSegment<'_>], i: usize) -> Option<(u32, usize)> {
        let PathSegment::Key(first) = segments[i] else { return None };
        if let Some(child) = self.key_child(node, first) {
            return Some((child, 1));
        }
        let mut joined = alloc::string::String::from(first);
        for (extra, segment) in segments[i + 1..].iter().enumerate() {
            let PathSegment::Key(next) = segment else { break };
            joined.push('.');
            joined.push_str(next);
            if let Some(child) = self.key_child(node, &joined) {
                return Some((child, extra + 2));
            }
        }
        None
    }

    fn key_child(&self, node: u32, key: &str) -> Option<u32> {
        let id = *self.keys.get(key)?;
        self.child(node, Segment::Key(id))
    }

    fn child(&self, node: u32, segment: Segment) -> Option<u32> {
        self.children.get(&(node, segment)).copied()
    }

    fn position(&self, node: u32) -> Position {
        let n = self.nodes[node as usize];
        Position { line: n.line as usize, column: n.column as usize }
    }
}

/// A step of a queried path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PathSegment<'a> {
    Key(&'a str),
    Index(usize),
}

/// Splits `spec.rules[0].host` into `spec`, `rules`, `0`, `host`; `[name]` is a key.
fn parse_path(path: &str) -> Vec<PathSegment<'_>> {
    let mut segments = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let Some(end) = after.find(']') else {
                segments.push(PathSegment::Key(after));
                break;
            };
            let inner = &after[..end];
            segments.push(match inner.parse::<usize>() {
                Ok(n) => PathSegment::Index(n),
                Err(_) => PathSegment::Key(inner),
            });
            rest = after[end + 1..].strip_prefix('.').unwrap_or(&after[end + 1..]);
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            if end > 0 {
                segments.push(PathSegment::Key(&rest[..end]));
            }
            rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
        }
    }
    segments
}

/// Where the walk is inside a collection.
#[derive(Debug)]
enum Frame {
    /// Expecting a key (`None`) or the value of the recorded key (`Some`), or the value of a key
    /// that is not recorded (`Some(None)`).
    Mapping {
        node: u32,
        pending: Option<Option<(u32, Position)>>,
    },
    Sequence {
        node: u32,
        next: u32,
    },
}

struct Builder {
    out: Positions,
    stack: Vec<Frame>,
    /// Depth inside a collection that is walked without being recorded.
    skip: usize,
}

impl Builder {
    fn event(&mut self, event: Event<'_>, start: Marker) {
        let at = Position { line: start.line(), column: start.col() + 1 };
        match event {
            Event::DocumentStart(_) => {
                self.out.documents.push(NONE);
                self.stack.clear();
                self.skip = 0;
            }
            Event::Scalar(text, ..) => self.value(Kind::Scalar, Some(&text), at),
            Event::Alias(_) => self.value(Kind::Scalar, None, at),
            Event::MappingStart(..) => self.value(Kind::Mapping, None, at),
            Event::SequenceStart(..) => self.value(Kind::Sequence, None, at),
            Event::MappingEnd | Event::SequenceEnd => {
                if self.skip > 0 {
                    self.skip -= 1;
                } else {
                    self.stack.pop();
                }
            }
            _ => {}
        }
    }

    /// A value starts at `at`: record it under its parent and enter it when it is a collection.
    fn value(&mut self, kind: Kind, text: Option<&str>, at: Position) {
        let collection = kind != Kind::Scalar;
        if self.skip > 0 {
            self.skip += usize::from(collection);
            return;
        }
        let node = match self.stack.last_mut() {
            None => {
                let node = self.out.add_node(kind, at);
                if let Some(root) = self.out.documents.last_mut() {
                    if *root == NONE {
                        *root = node;
                    }
                }
                node
            }
            Some(Frame::Mapping { node: parent, pending }) => match pending.take() {
                None => {
                    // A key: remember it; a complex (collection) key is walked and forgotten.
                    let key = text.filter(|_| !collection).and_then(|t| self.out.intern(t));
                    *pending = Some(key.map(|k| (k, at)));
                    if collection {
                        self.skip = 1;
                    }
                    return;
                }
                Some(None) => NONE,
                Some(Some((key, key_at))) => {
                    let parent = *parent;
                    // Collections point at their key's line, scalars at the value itself.
                    let position = if collection { key_at } else { at };
                    self.out.add_child(parent, Segment::Key(key), kind, position)
                }
            },
            Some(Frame::Sequence { node: parent, next }) => {
                let (parent, index) = (*parent, *next);
                *next = next.saturating_add(1);
                self.out.add_child(parent, Segment::Index(index), kind, at)
            }
        };
        if collection {
            if node == NONE || self.stack.len() >= self.out.limits.depth {
                self.skip = 1;
            } else if kind == Kind::Mapping {
                self.stack.push(Frame::Mapping { node, pending: None });
            } else {
                self.stack.push(Frame::Sequence { node, next: 0 });
            }
        }
    }
}

impl Positions {
    fn add_node(&mut self, kind: Kind, at: Position) -> u32 {
        if self.nodes.len() >= self.limits.nodes {
            return NONE;
        }
        let line = u32::try_from(at.line).unwrap_or(u32::MAX);
        let column = u32::try_from(at.column).unwrap_or(u32::MAX);
        self.nodes.push(Node { line, column, kind });
        (self.nodes.len() - 1) as u32
    }

    /// Records a child; a repeated key keeps its first position.
    fn add_child(&mut self, parent: u32, segment: Segment, kind: Kind, at: Position) -> u32 {
        if parent == NONE || self.children.contains_key(&(parent, segment)) {
            return NONE;
        }
        let node = self.add_node(kind, at);
        if node != NONE {
            self.children.insert((parent, segment), node);
        }
        node
    }

    fn intern(&mut self, key: &str) -> Option<u32> {
        if let Some(&id) = self.keys.get(key) {
            return Some(id);
        }
        if self.key_bytes + key.len() > self.limits.key_bytes {
            return None;
        }
        self.key_bytes += key.len();
        let id = u32::try_from(self.keys.len()).ok()?;
        self.keys.insert(key.into(), id);
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    fn at(line: usize, column: usize) -> Option<Position> {
        Some(Position { line, column })
    }

    const INGRESS: &str = "\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: test
  annotations:
    kubernetes.io/ingress.class: nginx
spec:
  rules:
  - host: foo.bar.com
    http:
      paths:
      - path: /foo
        pathType: Prefix
        backend:
          service:
            name: svc
            port:
              number: 80
";

    #[test]
    fn nested_mappings() {
        let p = Positions::new(INGRESS);
        assert_eq!(p.documents(), 1);
        assert_eq!(p.locate(1, ""), at(1, 1));
        assert_eq!(p.locate(1, "metadata.name"), at(4, 9));
        assert_eq!(p.locate(1, "metadata"), at(3, 1));
        assert_eq!(p.locate(1, "kind"), at(2, 7));
    }

    #[test]
    fn sequences() {
        let p = Positions::new(INGRESS);
        assert_eq!(p.locate(1, "spec.rules[0].host"), at(9, 11));
        assert_eq!(p.locate(1, "spec.rules[0].http.paths[0].path"), at(12, 15));
        assert_eq!(p.locate(1, "spec.rules[0].http.paths[0].backend.service.port.number"), at(18, 23));
        assert_eq!(p.locate(1, "spec.rules[0].http.paths[0].backend"), at(14, 9));
    }

    #[test]
    fn dotted_keys_and_gos_annotation_path() {
        let p = Positions::new(INGRESS);
        assert_eq!(p.locate(1, "metadata.annotations.kubernetes.io/ingress.class"), at(6, 34));
        assert_eq!(p.locate(1, "annotations.kubernetes.io/ingress.class"), at(6, 34));
        assert_eq!(p.locate(1, "metadata.annotations[kubernetes.io/ingress.class]"), at(6, 34));
    }

    #[test]
    fn absent_field_falls_back_to_ancestor() {
        let p = Positions::new(INGRESS);
        // service.name exists; pathType's sibling `nothing` does not: the path entry is the answer.
        assert_eq!(p.locate(1, "spec.rules[0].http.paths[0].nothing"), at(12, 9));
        assert_eq!(p.locate(1, "spec.rules[0].http.paths[7].path"), at(11, 7));
        assert_eq!(p.locate(1, "spec.defaultBackend"), at(7, 1));
        assert_eq!(p.locate(1, "status.loadBalancer"), at(1, 1));
        assert_eq!(p.locate(2, "spec"), None);
        assert_eq!(p.locate(0, "spec"), None);
    }

    #[test]
    fn multiple_documents() {
        let text = "a: 1\n---\nkind: Service\nspec:\n  ports: []\n---\n# empty\n---\nb:\n  c: x\n";
        let p = Positions::new(text);
        assert_eq!(p.documents(), 4);
        assert_eq!(p.locate(1, "a"), at(1, 4));
        assert_eq!(p.locate(2, "spec.ports"), at(5, 3));
        // An empty document is a null where the next one starts.
        assert_eq!(p.locate(3, "a"), at(8, 1));
        assert_eq!(p.locate(4, "b.c"), at(10, 6));
    }

    #[test]
    fn list_items() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- kind: Ingress\n  spec:\n    rules:\n    - host: a.com\n- kind: Ingress\n  spec:\n    rules:\n    - host: b.com\n";
        let p = Positions::new(text);
        assert_eq!(p.locate(1, "items[0].spec.rules[0].host"), at(7, 13));
        assert_eq!(p.locate(1, "items[1].spec.rules[0].host"), at(11, 13));
        assert_eq!(p.locate(1, "items[1]"), at(8, 3));
        assert_eq!(p.locate(1, "items[1].spec.tls[0]"), at(9, 3));
        let text = "kind: List\nitems:\n- metadata:\n    annotations:\n      kubernetes.io/ingress.class: x\n";
        let p = Positions::new(text);
        assert_eq!(p.locate(1, "items[0].annotations.kubernetes.io/ingress.class"), at(5, 36));
    }

    #[test]
    fn json_input() {
        let text = "{\n  \"kind\": \"Ingress\",\n  \"spec\": {\n    \"rules\": [\n      {\"host\": \"Foo.com\"}\n    ]\n  }\n}\n";
        let p = Positions::new(text);
        assert_eq!(p.locate(1, "kind"), at(2, 11));
        assert_eq!(p.locate(1, "spec.rules[0].host"), at(5, 16));
        assert_eq!(p.locate(1, "spec.rules[0]"), at(5, 7));
    }

    #[test]
    fn json_array_items() {
        let text = "[\n {\"kind\": \"Ingress\"},\n {\"kind\": \"Ingress\", \"spec\": {}}\n]";
        let p = Positions::new(text);
        assert_eq!(p.locate(1, "items[1].spec"), at(3, 22));
        assert_eq!(p.locate(1, "[1].kind"), at(3, 11));
    }

    #[test]
    fn syntax_error_keeps_what_was_read() {
        let text = "a: 1\nb: [1, 2\nc: {\n";
        let p = Positions::new(text);
        assert_eq!(p.locate(1, "a"), at(1, 4));
    }

    #[test]
    fn aliases_are_not_expanded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..30 {
            text.push_str(&format!(
                "a{i}: &a{i} [*a{j}, *a{j}, *a{j}, *a{j}, *a{j}, *a{j}, *a{j}, *a{j}, *a{j}, *a{j}]\n",
                j = i - 1
            ));
        }
        let p = Positions::new(&text);
        assert!(p.nodes.len() < 400, "{} nodes", p.nodes.len());
        assert_eq!(p.locate(1, "a29[3]"), at(30, 30));
        assert_eq!(p.locate(1, "a29[3][0]"), at(30, 30));
    }

    #[test]
    fn deep_nesting_and_many_values_stay_bounded() {
        // Block sequences nested 2000 deep (saphyr itself refuses flow nesting past 255).
        let deep = format!("{}x\n", "- ".repeat(2000));
        let p = Positions::new(&deep);
        assert_eq!(p.nodes.len(), MAX_DEPTH + 1);
        assert_eq!(p.locate(1, "[0][0]"), at(1, 5));
        let limits = Limits { nodes: 1000, key_bytes: 10, depth: 4 };
        let wide = format!("[{}0]", "0,".repeat(2000));
        let p = Positions::read(&wide, limits);
        assert_eq!(p.nodes.len(), 1000);
        assert_eq!(p.locate(1, "[5]"), at(1, 12));
        assert_eq!(p.locate(1, "[1500]"), at(1, 1));
        // Keys beyond the key budget are not recorded; their values fall back to the parent.
        let p = Positions::read("m:\n  short: 1\n  a-rather-long-key: 2\n", limits);
        assert_eq!(p.locate(1, "m.short"), at(2, 10));
        assert_eq!(p.locate(1, "m.a-rather-long-key"), at(1, 1));
    }

    #[test]
    fn complex_keys_are_skipped() {
        let text = "? [a, b]\n: value\nplain: 1\n";
        let p = Positions::new(text);
        assert_eq!(p.locate(1, "plain"), at(3, 8));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Arbitrary YAML-looking text never panics, and every recorded document answers.
        #[test]
        fn never_panics(text in "[-a-z0-9:{}\\[\\],&*!|>'\"#?. \n]{0,200}") {
            let p = Positions::new(&text);
            for d in 1..=p.documents() {
                let _ = p.locate(d, "a.b[0].c");
            }
        }
    }

    #[test]
    fn path_parsing() {
        use PathSegment::{Index, Key};
        assert_eq!(parse_path("spec.rules[0].host"), alloc::vec![Key("spec"), Key("rules"), Index(0), Key("host")]);
        assert_eq!(parse_path("items[3]"), alloc::vec![Key("items"), Index(3)]);
        assert_eq!(parse_path("[1][2].a"), alloc::vec![Index(1), Index(2), Key("a")]);
        assert_eq!(
            parse_path("labels[app.kubernetes.io/name]"),
            alloc::vec![Key("labels"), Key("app.kubernetes.io/name")]
        );
        assert_eq!(parse_path(""), alloc::vec![]);
    }
}

#[cfg(test)]
mod size_check {
    use super::*;
    use alloc::string::String;

    /// A large `kind: List` is read whole: its last item's fields are found. (How long and how much
    /// memory a 10 MB input takes is a benchmark's question, not a test's.)
    #[test]
    fn a_large_list_is_read_to_its_end() {
        let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
        let mut i = 0;
        while text.len() < 1 << 20 {
            text.push_str(&alloc::format!(
                "- apiVersion: networking.k8s.io/v1\n  kind: Ingress\n  metadata:\n    name: ing-{i}\n    namespace: default\n  spec:\n    rules:\n    - host: h{i}.example.com\n      http:\n        paths:\n        - path: /p{i}\n          pathType: Prefix\n          backend:\n            service:\n              name: svc-{i}\n              port:\n                number: 80\n"
            ));
            i += 1;
        }
        let p = Positions::new(&text);
        let last = p.locate(1, &alloc::format!("items[{}].spec.rules[0].host", i - 1)).unwrap();
        assert_eq!(last.line, text.lines().count() - 9); // `- host:` is the 8th of an item's 17 lines
        assert_eq!(last.column, 13);
    }
}
