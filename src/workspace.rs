//! Reading a YAML stream again after an edit, reusing the documents whose text did not change.
//!
//! An editor changes one document at a time. [`Workspace::update`] splits the new text into its
//! documents where the YAML reader does (a `---` line at column 0), reads only the documents whose
//! text it has not read before, and puts the result together with the document numbers and line
//! numbers of the whole text: the [`Input`] is exactly [`input::parse_all`]'s for the same text.
//! [`Workspace::compile`] then builds the table from it and lints it, reusing what lint found in
//! each document that did not change (see [Lint](#lint)).
//!
//! ```
//! use ingress_router::{input, CompileOptions, Request, workspace::Workspace};
//! let doc = |name: &str, path: &str| format!(
//!     "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {{name: {name}}}\nspec:\n  rules:\n  - http:\n      paths:\n      - {{path: {path}, pathType: Prefix, backend: {{service: {{name: {name}, port: {{number: 80}}}}}}}}\n");
//! let mut workspace = Workspace::new("shop.yaml");
//! let text = format!("{}---\n{}", doc("cart", "/cart"), doc("web", "/"));
//! assert_eq!(workspace.update(&text), &input::parse_all("shop.yaml", &text));
//! assert_eq!(workspace.documents_read(), Some(2));
//!
//! let edited = format!("{}---\n{}", doc("cart", "/basket"), doc("web", "/"));
//! assert_eq!(workspace.update(&edited), &input::parse_all("shop.yaml", &edited));
//! assert_eq!(workspace.documents_read(), Some(1)); // the second document was not read again
//! let (router, diagnostics) = workspace.compile(&CompileOptions::default(), 7).unwrap();
//! assert_eq!(router.route(&Request::new("example.com", "/basket/1")).to_string(), "cart:80");
//! assert!(diagnostics.is_empty());
//! ```
//!
//! # Why the result equals a reading from scratch
//!
//! The YAML reader (saphyr-parser's scanner, as libyaml's) ends a document at every `---` at
//! column 0 followed by a space, a tab or a line break: between two such lines its state starts
//! afresh, so a document's objects, notes and errors depend on its own text only; they are cached
//! by that text, numbered from 1 and from line 1, and renumbered by the documents and lines before
//! them. A text where that is not certain is read whole, as [`input::parse_all`] reads it: JSON, a
//! text over the size limit or over `MAX_SPLIT_BYTES` (2 MiB), a template, line breaks other than `\n`
//! (YAML readers also break lines at `\r`, libyaml at NEL, LS and PS), a byte-order mark past the
//! start, a directive (`%` at column 0),
//! a document with a syntax error (it ends the stream, and its message may depend on what
//! follows), and collections nested too deep. A text with only comments before its first `---`
//! counts no document there, as the reader does.
//!
//! # Lint
//!
//! Lint's checks of one Ingress alone (the legacy class annotation, TLS, annotations,
//! regex-looking paths, globs, ALB actions) are kept per document, with the options they ran
//! with, and reused while the document's text is the same (or its objects are: an edit in a
//! comment). The checks that read other objects run again on each compile: IngressClasses, regex
//! hosts and canaries across Ingresses, and what the table tells (duplicate and unreachable
//! paths). The Service checks on a document's backends are reused only when all they read is
//! the same: the input's Services, which of the document's Ingresses take part, and enough of
//! the did-you-mean budget the documents before it leave. The findings are then ordered as
//! [`Router::lint`] orders them, so the result is exactly its result.

use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use hashbrown::HashMap;

use crate::diagnostics::{self, Diagnostic, Memo, Parts};
use crate::input::{self, Input};
use crate::model::{Object, Service};
use crate::options::CompileOptions;
use crate::router::{CompileError, Router, compile_objects_seeded};

/// Texts longer than this are read whole: the positions of errors come from a reading bounded in
/// values and key bytes ([`position`](crate::position)), which a text this short cannot reach, so
/// reading its documents one by one locates them alike.
pub(crate) const MAX_SPLIT_BYTES: usize = 2 * 1024 * 1024;

/// A YAML stream read again and again as it is edited: see the [module](self) documentation.
#[derive(Debug, Default)]
pub struct Workspace {
    source: String,
    max_bytes: usize,
    /// Each document read, by its text (numbered from document 1 and line 1).
    documents: HashMap<Arc<str>, Arc<Document>>,
    input: Input,
    /// Documents the last update read (the others came from `documents`); `None` when it read
    /// the text whole.
    read: Option<usize>,
    /// The documents of the last update, in order; `None` when it read the text whole.
    order: Option<Vec<(Arc<str>, Arc<Document>)>>,
    /// The documents last linted, in order, and what lint found in each, by text.
    lint_order: Vec<(Arc<str>, Arc<Document>)>,
    memos: HashMap<Arc<str>, Memo>,
    /// The Services last linted, and a number that changes when they do.
    services: (Vec<Service>, u64),
    /// The objects and options last linted when the text was read whole, and what lint found.
    linted: Option<(Vec<Object>, CompileOptions, Vec<Diagnostic>)>,
}

/// One document's text as read on its own.
#[derive(Debug)]
struct Document {
    input: Input,
    /// How many documents the reader counts in this text.
    documents: usize,
    /// A syntax error ended the reading.
    unreadable: bool,
}

impl Workspace {
    /// A workspace for the text of `source` (the name errors and origins carry), with the
    /// default size limit.
    pub fn new(source: &str) -> Self {
        Self::with_limit(source, input::DEFAULT_MAX_INPUT_BYTES)
    }

    /// [`new`](Self::new) with an explicit size limit in bytes.
    pub fn with_limit(source: &str, max_bytes: usize) -> Self {
        Workspace { source: source.into(), max_bytes, ..Workspace::default() }
    }

    /// Reads `text`, the new version of the whole stream: the same [`Input`] as
    /// [`input::parse_all_with_limit`], reading again only the documents whose text is new.
    pub fn update(&mut self, text: &str) -> &Input {
        match self.read_split(text) {
            Some(input) => self.input = input,
            None => {
                self.input = input::parse_all_with_limit(&self.source, text, self.max_bytes);
                self.read = None;
                self.order = None;
            }
        }
        &self.input
    }

    /// What the last [`update`](Self::update) read.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// How many documents the last [`update`](Self::update) read (the others were reused);
    /// `None` when it read the text whole.
    pub fn documents_read(&self) -> Option<usize> {
        self.read
    }

    /// Compiles the objects of the last [`update`](Self::update), with `seed` as
    /// [`compile_seeded`](crate::compile_seeded): the router and its [`lint`](Router::lint), reusing what lint found in
    /// the documents that did not change (see [Lint](self#lint)). A text read whole is linted
    /// whole, or not again when its objects and options are those last linted.
    ///
    /// Input that routes through its Gateway API objects compiles as
    /// [`compile_seeded`](crate::compile_seeded) compiles it, and is linted whole.
    pub fn compile(&mut self, options: &CompileOptions, seed: u64) -> Result<(Router, Vec<Diagnostic>), CompileError> {
        let objects: Vec<Object> = self.input.objects.iter().map(|o| o.object.clone()).collect();
        if crate::router::routes_gateway_api(&self.input, options) {
            let router = crate::compile_seeded(&self.input, options, seed)?;
            let diagnostics = router.lint_of(&objects);
            return Ok((router, diagnostics));
        }
        let router = compile_objects_seeded(&objects, options, seed);
        let Some(order) = self.order.clone() else {
            self.memos.clear();
            self.lint_order.clear();
            if let Some((linted, linted_options, diagnostics)) = &self.linted
                && *linted == objects
                && linted_options == options
            {
                return Ok((router, diagnostics.clone()));
            }
            let diagnostics = router.lint_of(&objects);
            self.linted = Some((objects, options.clone(), diagnostics.clone()));
            return Ok((router, diagnostics));
        };
        self.linted = None;
        let services = self.services_generation(&objects);
        let mut memos: Vec<Memo> = Vec::with_capacity(order.len());
        let mut slots: HashMap<&Arc<str>, usize> = HashMap::with_capacity(order.len());
        let mut parts = Vec::with_capacity(order.len());
        let mut start = 0;
        for (i, (text, document)) in order.iter().enumerate() {
            let slot = *slots.entry(text).or_insert_with(|| {
                memos.push(self.memo(text, document, i));
                memos.len() - 1
            });
            let end = start + document.input.objects.len();
            parts.push((start..end, slot));
            start = end;
        }
        let diagnostics = router.lint_with(&objects, |options| {
            diagnostics::lint_parts(&objects, options, &Parts { services, parts: &parts, keep: true }, &mut memos)
        });
        self.memos =
            slots.into_iter().map(|(text, slot)| (Arc::clone(text), std::mem::take(&mut memos[slot]))).collect();
        self.lint_order = order;
        Ok((router, diagnostics))
    }

    /// The memo of the `i`th document: its text's, or, after an edit that left its objects as
    /// they were (a comment, spacing), the memo of the document last linted in its place.
    fn memo(&mut self, text: &Arc<str>, document: &Document, i: usize) -> Memo {
        if let Some(memo) = self.memos.remove(text) {
            return memo;
        }
        let Some((before, linted)) = self.lint_order.get(i) else { return Memo::default() };
        let same = |a: &Input, b: &Input| {
            a.objects.len() == b.objects.len() && a.objects.iter().zip(&b.objects).all(|(a, b)| a.object == b.object)
        };
        if same(&linted.input, &document.input)
            && let Some(memo) = self.memos.remove(before)
        {
            return memo;
        }
        Memo::default()
    }

    /// A number that changes whenever the Services among `objects` do.
    fn services_generation(&mut self, objects: &[Object]) -> u64 {
        let services = objects.iter().filter_map(|o| match o {
            Object::Service(s) => Some(s),
            _ => None,
        });
        let (last, generation) = &mut self.services;
        if !services.clone().eq(last.iter()) {
            *last = services.cloned().collect();
            *generation += 1;
        }
        *generation
    }

    /// The input read document by document, or `None` when `text` must be read whole.
    fn read_split(&mut self, text: &str) -> Option<Input> {
        if text.len() > self.max_bytes.min(MAX_SPLIT_BYTES) || !splittable(text) {
            return None;
        }
        let body = text.trim_start_matches('\u{feff}').trim_start();
        if body.starts_with('{') || body.starts_with('[') || input::template_error(&self.source, text).is_some() {
            return None;
        }
        let starts = document_starts(text)?;
        let mut documents = HashMap::with_capacity(starts.len());
        let mut parts = Vec::with_capacity(starts.len());
        let mut read = 0;
        for (i, &(start, line)) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(text.len(), |&(next, _)| next);
            let part = &text[start..end];
            let (key, document) = match documents.get_key_value(part).or_else(|| self.documents.get_key_value(part)) {
                Some((key, document)) => (Arc::clone(key), Arc::clone(document)),
                None => {
                    read += 1;
                    (Arc::from(part), Arc::new(Document::read(&self.source, part)))
                }
            };
            if document.unreadable {
                return None;
            }
            documents.entry(Arc::clone(&key)).or_insert_with(|| Arc::clone(&document));
            parts.push((document, part, line, key));
        }
        let mut input = Input::default();
        let mut before = 0;
        for (document, _, line, _) in &parts {
            renumbered(&mut input, &document.input, before, *line);
            before += document.documents;
        }
        self.order = Some(parts.into_iter().map(|(document, _, _, key)| (key, document)).collect());
        self.documents = documents;
        self.read = Some(read);
        Some(input)
    }
}

impl Document {
    fn read(source: &str, text: &str) -> Document {
        let mut input = Input::default();
        let (documents, unreadable) = match input::read_yaml_documents(&mut input, source, text) {
            // An empty stream is one empty document to the reader, but counts none before a `---`.
            Ok(1) if input.objects.is_empty() && input.errors.is_empty() && only_comments(text) => (0, false),
            Ok(documents) => (documents, false),
            Err(_) => (0, true),
        };
        input::locate_errors(&mut input.errors, text);
        Document { input, documents, unreadable }
    }
}

/// Adds `part` (read on its own) to `input`, after `documents` documents and `lines` lines.
fn renumbered(input: &mut Input, part: &Input, documents: usize, lines: usize) {
    let origin = |o: &input::Origin| input::Origin { document: o.document + documents, ..o.clone() };
    input.objects.extend(
        part.objects.iter().map(|o| input::SourcedObject { object: o.object.clone(), origin: origin(&o.origin) }),
    );
    input
        .notes
        .extend(part.notes.iter().map(|n| input::InputNote { origin: origin(&n.origin), message: n.message.clone() }));
    input.errors.extend(part.errors.iter().map(|e| {
        let mut e = e.clone();
        e.document = e.document.map(|d| d + documents);
        e.line = e.line.map(|l| l + lines);
        e
    }));
    input
        .unknown_fields
        .extend(part.unknown_fields.iter().map(|u| input::UnknownFields { origin: origin(&u.origin), ..u.clone() }));
    input.unserved.extend(part.unserved.iter().map(|u| input::Unserved { origin: origin(&u.origin), ..u.clone() }));
    input
        .gateway_api
        .extend(part.gateway_api.iter().map(|g| input::SourcedValue { origin: origin(&g.origin), ..g.clone() }));
}

/// Whether libyaml breaks lines only where `str::lines` does not differ from `\n` alone, and no
/// directive or stray byte-order mark could change where documents start.
fn splittable(text: &str) -> bool {
    let after_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Byte searches: a search for a set of chars decodes every char.
    memchr::memchr2(b'\r', 0, after_bom.as_bytes()).is_none()
        && ['\u{85}', '\u{2028}', '\u{2029}', '\u{feff}'].iter().all(|c| !after_bom.contains(*c))
}

/// The byte offset and 0-based line of each document's text: the first from 0, the others from
/// each `---` line. `None` when a line starts a directive (`%`).
fn document_starts(text: &str) -> Option<Vec<(usize, usize)>> {
    let mut starts = vec![(0, 0)];
    let (mut at, mut line) = (0, 0);
    loop {
        let rest = &text.as_bytes()[at..];
        if rest.first() == Some(&b'%') {
            return None;
        }
        if at > 0 && rest.starts_with(b"---") && matches!(rest.get(3), None | Some(b' ' | b'\t' | b'\n')) {
            starts.push((at, line));
        }
        match memchr::memchr(b'\n', rest) {
            Some(end) => {
                at += end + 1;
                line += 1;
            }
            None => return Some(starts),
        }
    }
}

/// Only blank lines and comments.
fn only_comments(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim_start_matches([' ', '\t']);
        l.is_empty() || l.starts_with('#')
    })
}
