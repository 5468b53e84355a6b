//! YAML text to JSON values, read with saphyr-parser's events: the parser that already gives every
//! field's line and column ([`crate::position`]), so that a build carries one YAML parser, not two.
//!
//! The values are the ones serde_norway (libyaml) gave before, as `serde_json::to_value` of a
//! `serde_norway::Value` (the differential test in `yaml/tests.rs` compares the two): YAML 1.2
//! core-schema scalars as serde_norway resolves them (`yes`/`on` are strings, `0x1f` and `0o17`
//! integers, `.inf` a float that JSON holds as null, leading-zero digits strings), quoted scalars
//! strings, `!!str`/`!!int`/`!!bool`/`!!float`/`!!null` applied, a local tag `!t x` as `{"!t": x}`,
//! `<<` an ordinary key, duplicate keys an error, an empty document null. A document's events are
//! read first and then decoded as serde_norway decodes its own: aliases re-read the anchored
//! events, bounded by the same limits (collections nest at most 128 deep, aliases are followed at
//! most 100 times per event) and with the same messages, so hostile input ends in an error.
//! One departure: an integer beyond 64 bits is a float, as JSON's reader and kubectl's make of it
//! (serde_norway refused the document), so that the object's reader names the field and range.

use std::borrow::Cow;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use core::hash::{BuildHasher, Hash, Hasher};

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span, Tag};
use serde_json::{Map, Number, Value};

/// Deepest nesting of collections a document may have (serde_norway's recursion limit).
pub(crate) const MAX_DEPTH: u8 = 128;

/// Why a document cannot be read, and where (1-based line and column) when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub message: String,
    pub place: Option<(usize, usize)>,
}

impl YamlError {
    fn at(message: impl Into<String>, span: Span) -> Self {
        YamlError { message: message.into(), place: Some((span.start.line(), span.start.col() + 1)) }
    }

    fn scan(e: &ScanError) -> Self {
        // libyaml leaves an unknown alias to its reader, which says only this.
        let message = match e.info() {
            "while parsing node, found unknown anchor" => "unknown anchor",
            info => info,
        };
        YamlError { message: message.to_string(), place: Some((e.marker().line(), e.marker().col() + 1)) }
    }
}

/// A YAML value before it becomes JSON: keys may be any value, and tags are kept, as in
/// serde_norway's `Value` (duplicate keys are found by this value, and JSON's key rules apply after).
#[derive(Clone, Debug)]
pub(crate) enum Yaml {
    Null,
    Bool(bool),
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer.
    NegInt(i64),
    Float(f64),
    String(String),
    Sequence(Vec<Yaml>),
    Mapping(Vec<(Yaml, Yaml)>),
    Tagged(String, Box<Yaml>),
}

impl PartialEq for Yaml {
    fn eq(&self, other: &Yaml) -> bool {
        match (self, other) {
            (Yaml::Null, Yaml::Null) => true,
            (Yaml::Bool(a), Yaml::Bool(b)) => a == b,
            (Yaml::PosInt(a), Yaml::PosInt(b)) => a == b,
            (Yaml::NegInt(a), Yaml::NegInt(b)) => a == b,
            // YAML has one NaN.
            (Yaml::Float(a), Yaml::Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Yaml::String(a), Yaml::String(b)) => a == b,
            (Yaml::Sequence(a), Yaml::Sequence(b)) => a == b,
            // Mappings are equal as maps, whatever their order (serde_norway's `Mapping`).
            (Yaml::Mapping(a), Yaml::Mapping(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.iter().any(|(k2, v2)| k == k2 && v == v2))
            }
            (Yaml::Tagged(t, a), Yaml::Tagged(t2, b)) => t == t2 && a == b,
            _ => false,
        }
    }
}

impl Hash for Yaml {
    fn hash<H: Hasher>(&self, state: &mut H) {
        core::mem::discriminant(self).hash(state);
        match self {
            Yaml::Null | Yaml::Float(_) => {}
            Yaml::Bool(b) => b.hash(state),
            Yaml::PosInt(u) => u.hash(state),
            Yaml::NegInt(i) => i.hash(state),
            Yaml::String(s) => s.hash(state),
            Yaml::Sequence(items) => items.hash(state),
            // Order-free equality: only the length hashes.
            Yaml::Mapping(entries) => entries.len().hash(state),
            Yaml::Tagged(tag, value) => {
                tag.hash(state);
                value.hash(state);
            }
        }
    }
}

/// One document of a stream: its events (anchors resolved to the index of the anchored event),
/// and the syntax error that ended it early, if one did.
struct Document<'a> {
    events: Vec<(Event<'a>, Span)>,
    anchors: hashbrown::HashMap<usize, usize>,
    error: Option<YamlError>,
}

/// The documents of a YAML stream, one by one, as serde_norway's `Deserializer` iterates them: an
/// empty stream is one empty document, and the first syntax error is the last item.
pub(crate) struct Documents<'a> {
    text: &'a str,
    parser: Option<Parser<'a, saphyr_parser::StrInput<'a>>>,
    count: usize,
    /// Whether collections nested deeper than [`MAX_DEPTH`] anywhere in the stream refuse the
    /// whole stream (see [`Documents::nested_too_deep`]), and the current nesting.
    whole_stream_depth: bool,
    depth: usize,
    /// The stream nests deeper than [`MAX_DEPTH`]: the last item is the error saying where.
    pub(crate) too_deep: bool,
}

/// Reads `text` as a stream of YAML documents.
pub(crate) fn documents(text: &str) -> Documents<'_> {
    Documents {
        text,
        parser: Some(Parser::new_from_str(text)),
        count: 0,
        whole_stream_depth: false,
        depth: 0,
        too_deep: false,
    }
}

/// Reads `text` as a stream of YAML documents that is refused whole when its collections nest
/// deeper than [`MAX_DEPTH`] anywhere before its first syntax error: the events are counted as
/// they are read (one pass), and after a document the reader cannot decode, the rest of the
/// stream is still scanned for that nesting (without decoding).
pub(crate) fn documents_depth_checked(text: &str) -> Documents<'_> {
    Documents { whole_stream_depth: true, ..documents(text) }
}

impl Documents<'_> {
    /// Counts one event's nesting (when the whole stream's depth is checked): where it goes
    /// deeper than the limit (1-based line and column), if it does.
    fn nest(&mut self, event: &Event<'_>, span: &Span) -> Option<(usize, usize)> {
        if !self.whole_stream_depth {
            return None;
        }
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                self.depth += 1;
                if self.depth > usize::from(MAX_DEPTH) {
                    return Some((span.start.line(), span.start.col() + 1));
                }
            }
            Event::MappingEnd | Event::SequenceEnd => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        None
    }

    /// Ends the stream as nested too deep at `place`.
    fn nested_too_deep(&mut self, place: (usize, usize)) -> Option<Result<Yaml, YamlError>> {
        self.parser = None;
        self.too_deep = true;
        Some(Err(YamlError {
            message: alloc::format!("recursion limit exceeded: collections nested more than {MAX_DEPTH} deep"),
            place: Some(place),
        }))
    }

    /// Whether the rest of the stream, not decoded, nests too deep before a syntax error.
    fn rest_too_deep(&mut self) -> Option<(usize, usize)> {
        if !self.whole_stream_depth {
            return None;
        }
        while let Some(next) = self.parser.as_mut()?.next_event() {
            match next {
                Ok((event, span)) => {
                    if let Some(place) = self.nest(&event, &span) {
                        return Some(place);
                    }
                }
                Err(e) => return recursion_limit(&e),
            }
        }
        None
    }
}

/// saphyr refuses flow nesting deeper than 255 itself: deeper than the limit too.
fn recursion_limit(e: &ScanError) -> Option<(usize, usize)> {
    e.info().contains("recursion limit").then(|| (e.marker().line(), e.marker().col() + 1))
}

impl Iterator for Documents<'_> {
    /// The document's value (null for an empty one), or why it cannot be read.
    type Item = Result<Yaml, YamlError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.parser.as_ref()?;
        let first = self.count == 0;
        self.count += 1;
        let mut document = Document { events: Vec::new(), anchors: hashbrown::HashMap::new(), error: None };
        while let Some(parser) = self.parser.as_mut() {
            let (event, span) = match parser.next_event() {
                Some(Ok(next)) => next,
                Some(Err(e)) => {
                    if self.whole_stream_depth
                        && let Some(place) = recursion_limit(&e)
                    {
                        return self.nested_too_deep(place);
                    }
                    // A syntax error ends the stream.
                    document.error = Some(YamlError::scan(&e));
                    self.parser = None;
                    break;
                }
                None => {
                    self.parser = None;
                    if first {
                        break;
                    }
                    return None;
                }
            };
            if let Some(place) = self.nest(&event, &span) {
                return self.nested_too_deep(place);
            }
            match event {
                Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => continue,
                Event::StreamEnd => {
                    self.parser = None;
                    if first {
                        break;
                    }
                    return None;
                }
                Event::DocumentEnd => break,
                Event::Scalar(_, _, anchor, _) | Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _)
                    if anchor > 0 =>
                {
                    document.anchors.insert(anchor, document.events.len());
                    document.events.push((event, span));
                }
                event => document.events.push((event, span)),
            }
        }
        let result = decode(&document, self.text);
        if result.is_err() {
            // The reader stops at the first error, as serde_norway's callers did; nesting too deep
            // further on still refuses the whole stream.
            if let Some(place) = self.rest_too_deep() {
                return self.nested_too_deep(place);
            }
            self.parser = None;
        }
        Some(result)
    }
}

/// Where a value sits in its document, for messages (serde_norway's `Path`: `spec.rules[0].host`).
#[derive(Clone, Copy)]
enum Path<'p> {
    Root,
    Seq { parent: &'p Path<'p>, index: usize },
    Map { parent: &'p Path<'p>, key: &'p str },
    Unknown { parent: &'p Path<'p> },
}

impl core::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let parent = |f: &mut core::fmt::Formatter<'_>, parent: &Path<'_>| match parent {
            Path::Root => Ok(()),
            path => write!(f, "{path}."),
        };
        match self {
            Path::Root => f.write_str("."),
            Path::Seq { parent, index } => write!(f, "{parent}[{index}]"),
            Path::Map { parent: p, key } => {
                parent(f, p)?;
                f.write_str(key)
            }
            Path::Unknown { parent: p } => {
                parent(f, p)?;
                f.write_str("?")
            }
        }
    }
}

fn decode(document: &Document<'_>, text: &str) -> Result<Yaml, YamlError> {
    if document.events.is_empty() && document.error.is_none() {
        return Ok(Yaml::Null); // an empty stream
    }
    let unterminated = (!text.ends_with(['\n', '\r'])).then(|| text.chars().count());
    let mut reader = Reader { document, text, unterminated, jumps: 0 };
    let mut pos = 0;
    let value = reader.node(&mut pos, &Path::Root, MAX_DEPTH, false)?;
    match &document.error {
        Some(e) => Err(e.clone()),
        None => Ok(value),
    }
}

struct Reader<'d, 'a> {
    document: &'d Document<'a>,
    text: &'d str,
    /// The text's length in characters when it does not end with a line break (see `node`).
    unterminated: Option<usize>,
    jumps: usize,
}

impl<'d, 'a> Reader<'d, 'a> {
    fn next(&self, pos: &mut usize) -> Result<&'d (Event<'a>, Span), YamlError> {
        let next = self.peek(*pos)?;
        *pos += 1;
        Ok(next)
    }

    fn peek(&self, pos: usize) -> Result<&'d (Event<'a>, Span), YamlError> {
        self.document.events.get(pos).ok_or_else(|| match &self.document.error {
            Some(e) => e.clone(),
            None => YamlError { message: String::from("EOF while parsing a value"), place: None },
        })
    }

    /// The node at `pos`, `depth` more collections allowed; `tagged` when its tag was already taken
    /// as a local tag (`{"!t": …}`).
    fn node(&mut self, pos: &mut usize, path: &Path<'_>, depth: u8, tagged: bool) -> Result<Yaml, YamlError> {
        let (event, span) = self.next(pos)?;
        let message = |message: String| {
            let message = match path {
                Path::Root => message,
                path => format!("{path}: {message}"),
            };
            YamlError::at(message, *span)
        };
        let local = |tag: &Option<Cow<'_, Tag>>| match tagged {
            true => None,
            false => tag.as_deref().and_then(local_tag),
        };
        match event {
            Event::Alias(anchor) => {
                self.jumps += 1;
                if self.jumps > self.document.events.len() * 100 {
                    return Err(YamlError { message: String::from("repetition limit exceeded"), place: None });
                }
                let mut at = self.document.anchors.get(anchor).copied().unwrap_or(usize::MAX);
                self.node(&mut at, path, depth, false)
            }
            Event::Scalar(_, _, _, tag) | Event::SequenceStart(_, tag) | Event::MappingStart(_, tag)
                if local(tag).is_some() =>
            {
                let tag = local(tag).unwrap_or_default();
                *pos -= 1;
                let value = self.node(pos, path, depth, true)?;
                Ok(Yaml::Tagged(tag, Box::new(value)))
            }
            Event::Scalar(text, style, _, tag) => {
                let tag = if tagged { None } else { tag.as_deref() };
                let mut text = text.as_ref();
                // A block scalar that ends the text without a line break: saphyr adds the line
                // break its chomping keeps; libyaml, which finds none, does not.
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                    && self.unterminated == Some(span.end.index())
                {
                    text = text.strip_suffix('\n').unwrap_or(text);
                }
                scalar(text, *style, tag).map_err(message)
            }
            Event::SequenceStart(..) => {
                let Some(depth) = depth.checked_sub(1) else {
                    return Err(YamlError::at("recursion limit exceeded", *span));
                };
                let mut items = Vec::new();
                loop {
                    if let (Event::SequenceEnd, _) = self.peek(*pos)? {
                        *pos += 1;
                        return Ok(Yaml::Sequence(items));
                    }
                    let index = items.len();
                    items.push(self.node(pos, &Path::Seq { parent: path, index }, depth, false)?);
                }
            }
            Event::MappingStart(..) => {
                let Some(depth) = depth.checked_sub(1) else {
                    return Err(YamlError::at("recursion limit exceeded", *span));
                };
                let hasher = hashbrown::DefaultHashBuilder::default();
                let mut seen = hashbrown::HashTable::<usize>::new();
                let mut entries: Vec<(Yaml, Yaml)> = Vec::new();
                loop {
                    let key_name = match self.peek(*pos)? {
                        (Event::MappingEnd, _) => {
                            *pos += 1;
                            return Ok(Yaml::Mapping(entries));
                        }
                        (Event::Scalar(text, ScalarStyle::Plain, 0, None), key_span) if text.is_empty() => {
                            if let Some(e) = implicit_empty_key(self.text, *key_span) {
                                return Err(e);
                            }
                            Some("")
                        }
                        (Event::Scalar(text, ..), _) => Some(text.as_ref()),
                        _ => None,
                    };
                    let key = self.node(pos, path, depth, false)?;
                    let hash = hasher.hash_one(&key);
                    if seen.find(hash, |&i| entries[i].0 == key).is_some() {
                        return Err(message(duplicate_message(&key)));
                    }
                    let value = match key_name {
                        Some(key) => self.node(pos, &Path::Map { parent: path, key }, depth, false)?,
                        None => self.node(pos, &Path::Unknown { parent: path }, depth, false)?,
                    };
                    seen.insert_unique(hash, entries.len(), |&i| hasher.hash_one(&entries[i].0));
                    entries.push((key, value));
                }
            }
            // Ends are read by their collections; a stray one cannot come from the parser.
            Event::SequenceEnd | Event::MappingEnd | Event::StreamStart | Event::StreamEnd => {
                Err(YamlError::at("unexpected end of a collection", *span))
            }
            Event::DocumentStart(_) | Event::DocumentEnd | Event::Nothing => Ok(Yaml::Null),
        }
    }
}

/// libyaml refuses a mapping entry that starts with `:` (no key, and no `?` before it), which
/// saphyr reads as an empty key: the same error, at the `:`.
fn implicit_empty_key(text: &str, span: Span) -> Option<YamlError> {
    let (line, col) = (span.start.line(), span.start.col());
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let at = line_start + text.get(line_start..)?.chars().take(col).map(char::len_utf8).sum::<usize>();
    if text.as_bytes().get(at) != Some(&b':') {
        return None;
    }
    let before = text[..at].trim_end_matches([' ', '\t', '\r', '\n']);
    let message = match before.as_bytes().last() {
        Some(b'?') => return None,
        Some(b'{' | b'[' | b',') => "did not find expected node content",
        // libyaml names the mapping when its error is at the very start.
        _ if (line, col) == (1, 0) => "did not find expected key, while parsing a block mapping",
        _ => "did not find expected key",
    };
    Some(YamlError::at(message, span))
}

/// The whole tag, as libyaml gives it (`!t`, `tag:yaml.org,2002:str`).
fn full_tag(tag: &Tag) -> String {
    format!("{}{}", tag.handle, tag.suffix)
}

/// A local tag (`!t`) as serde_norway names it in a value (`!t`; a lone `!` is `!!`), or `None`
/// for the others (`!!str` is `tag:yaml.org,2002:str`).
fn local_tag(tag: &Tag) -> Option<String> {
    let full = full_tag(tag);
    let rest = full.strip_prefix('!')?;
    let name = if rest.is_empty() { full.as_str() } else { rest };
    let unbanged = match name.strip_prefix('!') {
        Some("") | None => name,
        Some(unbanged) => unbanged,
    };
    Some(format!("!{unbanged}"))
}

const CORE: &str = "tag:yaml.org,2002:";

/// A scalar's value: plain scalars resolved by the YAML 1.2 core schema as serde_norway does,
/// the others strings, `!!bool`/`!!int`/`!!float`/`!!null` checked.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Yaml, String> {
    let invalid = |expected: &str| format!("invalid value: string {text:?}, expected {expected}");
    if let Some(tag) = tag {
        let full = full_tag(tag);
        match full.strip_prefix(CORE) {
            Some("bool") => return parse_bool(text).map(Yaml::Bool).ok_or_else(|| invalid("a boolean")),
            Some("int") => {
                return match int(text) {
                    Some(result) => result,
                    None => Err(invalid("an integer")),
                };
            }
            Some("float") => return parse_f64(text).map(Yaml::Float).ok_or_else(|| invalid("a float")),
            Some("null") => return parse_null(text).then_some(Yaml::Null).ok_or_else(|| invalid("null")),
            _ if full.starts_with('!') && style == ScalarStyle::Plain => return plain(text),
            _ => return Ok(Yaml::String(text.to_string())),
        }
    }
    match style {
        ScalarStyle::Plain => plain(text),
        _ => Ok(Yaml::String(text.to_string())),
    }
}

fn plain(text: &str) -> Result<Yaml, String> {
    if text.is_empty() || parse_null(text) {
        return Ok(Yaml::Null);
    }
    if let Some(b) = parse_bool(text) {
        return Ok(Yaml::Bool(b));
    }
    // Most scalars are words: a number (and `.inf`, `.nan`) starts with a digit or `.` after one
    // sign; Rust's own `inf` and `nan` are not YAML's and stay strings below too.
    if !matches!(text.strip_prefix(['+', '-']).unwrap_or(text).as_bytes().first(), Some(b'0'..=b'9' | b'.')) {
        return Ok(Yaml::String(text.to_string()));
    }
    if let Some(result) = int(text) {
        return result;
    }
    if !digits_but_not_number(text)
        && let Some(f) = parse_f64(text)
    {
        return Ok(Yaml::Float(f));
    }
    Ok(Yaml::String(text.to_string()))
}

fn parse_null(text: &str) -> bool {
    matches!(text, "null" | "Null" | "NULL" | "~")
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// An integer (decimal, `0x`, `0o`, `0b`, signed): `None` if `text` is not one. One that does not
/// fit 64 bits is a float, as JSON's reader and kubectl's YAML reader make of it, so that the
/// object's reader refuses it naming the field and its range; serde_norway refused the whole
/// document instead ("invalid type: integer ... as u128", which named neither).
fn int(text: &str) -> Option<Result<Yaml, String>> {
    if let Some(u) = parse_unsigned_int(text, u64::from_str_radix) {
        return Some(Ok(Yaml::PosInt(u)));
    }
    if let Some(i) = parse_negative_int(text, i64::from_str_radix) {
        return Some(Ok(if i < 0 { Yaml::NegInt(i) } else { Yaml::PosInt(i as u64) }));
    }
    if let Some(u) = parse_unsigned_int(text, u128::from_str_radix) {
        return Some(Ok(Yaml::Float(u as f64)));
    }
    if let Some(i) = parse_negative_int(text, i128::from_str_radix) {
        return Some(Ok(Yaml::Float(i as f64)));
    }
    None
}

type Radix<T> = fn(&str, u32) -> Result<T, core::num::ParseIntError>;

const RADIXES: [(&str, u32); 3] = [("0x", 16), ("0o", 8), ("0b", 2)];

fn parse_unsigned_int<T>(text: &str, from_str_radix: Radix<T>) -> Option<T> {
    let unpositive = text.strip_prefix('+').unwrap_or(text);
    for (prefix, radix) in RADIXES {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(int) = from_str_radix(rest, radix) {
                return Some(int);
            }
        }
    }
    if unpositive.starts_with(['+', '-']) || digits_but_not_number(text) {
        return None;
    }
    from_str_radix(unpositive, 10).ok()
}

fn parse_negative_int<T>(text: &str, from_str_radix: Radix<T>) -> Option<T> {
    for (prefix, radix) in RADIXES {
        if let Some(rest) = text.strip_prefix('-').and_then(|t| t.strip_prefix(prefix))
            && let Ok(int) = from_str_radix(&format!("-{rest}"), radix)
        {
            return Some(int);
        }
    }
    if digits_but_not_number(text) {
        return None;
    }
    from_str_radix(text, 10).ok()
}

fn parse_f64(text: &str) -> Option<f64> {
    let unpositive = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    if let ".inf" | ".Inf" | ".INF" = unpositive {
        return Some(f64::INFINITY);
    }
    if let "-.inf" | "-.Inf" | "-.INF" = text {
        return Some(f64::NEG_INFINITY);
    }
    if let ".nan" | ".NaN" | ".NAN" = text {
        return Some(f64::NAN);
    }
    unpositive.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Leading zeros before digits make a string in YAML 1.2 (`0123`).
fn digits_but_not_number(text: &str) -> bool {
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    text.len() > 1 && text.starts_with('0') && text[1..].bytes().all(|b| b.is_ascii_digit())
}

fn duplicate_message(key: &Yaml) -> String {
    match key {
        Yaml::Null => String::from("duplicate entry with null key"),
        Yaml::Bool(b) => format!("duplicate entry with key `{b}`"),
        Yaml::PosInt(u) => format!("duplicate entry with key {u}"),
        Yaml::NegInt(i) => format!("duplicate entry with key {i}"),
        Yaml::Float(f) => format!("duplicate entry with key {}", float_text(*f)),
        Yaml::String(s) => format!("duplicate entry with key {s:?}"),
        Yaml::Sequence(_) | Yaml::Mapping(_) | Yaml::Tagged(..) => String::from("duplicate entry in YAML map"),
    }
}

/// A float as serde_norway prints one (`.inf`, `.nan`, else the shortest form that reads back).
fn float_text(f: f64) -> String {
    match Number::from_f64(f) {
        Some(n) => n.to_string(),
        None if f.is_nan() => String::from(".nan"),
        None if f > 0.0 => String::from(".inf"),
        None => String::from("-.inf"),
    }
}

impl Yaml {
    /// Whether the value is null under its tags (`~`, `!t ~`): an empty document, to the reader.
    pub(crate) fn is_null(&self) -> bool {
        match self {
            Yaml::Null => true,
            Yaml::Tagged(_, value) => value.is_null(),
            _ => false,
        }
    }

    /// The value as JSON, as `serde_json::to_value` gives it: non-finite floats become null,
    /// integer, boolean and float keys strings, a tagged value `{"!t": value}`. Other keys (null,
    /// collections) are errors, serde_json's messages.
    pub(crate) fn into_json(self) -> Result<Value, String> {
        Ok(match self {
            Yaml::Null => Value::Null,
            Yaml::Bool(b) => Value::Bool(b),
            Yaml::PosInt(u) => Value::Number(u.into()),
            Yaml::NegInt(i) => Value::Number(i.into()),
            Yaml::Float(f) => Value::from(f),
            Yaml::String(s) => Value::String(s),
            Yaml::Sequence(items) => {
                Value::Array(items.into_iter().map(Yaml::into_json).collect::<Result<Vec<_>, _>>()?)
            }
            Yaml::Mapping(entries) => {
                let mut map = Map::new();
                for (key, value) in entries {
                    let key = key.into_key()?;
                    map.insert(key, value.into_json()?);
                }
                Value::Object(map)
            }
            Yaml::Tagged(tag, value) => {
                let mut map = Map::new();
                map.insert(tag, value.into_json()?);
                Value::Object(map)
            }
        })
    }

    fn into_key(self) -> Result<String, String> {
        match self {
            Yaml::String(s) => Ok(s),
            Yaml::Bool(b) => Ok(b.to_string()),
            Yaml::PosInt(u) => Ok(u.to_string()),
            Yaml::NegInt(i) => Ok(i.to_string()),
            Yaml::Float(f) => match Number::from_f64(f) {
                Some(n) => Ok(n.to_string()),
                None => Err(String::from("float key must be finite (got NaN or +/-inf)")),
            },
            Yaml::Null | Yaml::Sequence(_) | Yaml::Mapping(_) | Yaml::Tagged(..) => {
                Err(String::from("key must be a string"))
            }
        }
    }
}

/// `value` as block YAML (`key: value` lines, `- ` items), keys in `order`'s order (then the
/// others as the map holds them). A string is written plain only when every YAML 1.1 and 1.2
/// reader takes it back as that string; the others are double-quoted, with escapes.
pub(crate) fn write(value: &Value, order: &[&str]) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_map(map, order, 0, &mut out),
        Value::Array(items) if !items.is_empty() => write_items(items, order, 0, &mut out),
        scalar => {
            write_scalar(scalar, &mut out);
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, n: usize) {
    out.extend(core::iter::repeat_n(' ', n));
}

/// Entries at `at` spaces; the caller has written the indentation of the first line.
fn write_map(map: &Map<String, Value>, order: &[&str], at: usize, out: &mut String) {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_by_key(|k| order.iter().position(|o| o == k).unwrap_or(order.len()));
    for (i, key) in keys.into_iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        write_string(key, out);
        out.push(':');
        write_value(&map[key], order, at, true, out);
    }
}

/// Items at `at` spaces; the caller has written the indentation of the first line.
fn write_items(items: &[Value], order: &[&str], at: usize, out: &mut String) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        out.push('-');
        write_value(item, order, at, false, out);
    }
}

/// A value after `key:` or `-`, its block (if any) under `at`.
fn write_value(value: &Value, order: &[&str], at: usize, in_map: bool, out: &mut String) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            if in_map {
                out.push('\n');
                indent(out, at + 2);
            } else {
                out.push(' ');
            }
            write_map(map, order, at + 2, out);
        }
        Value::Array(items) if !items.is_empty() => {
            // A mapping's sequence is not indented (as kubectl and libyaml write it).
            let inner = if in_map { at } else { at + 2 };
            if in_map {
                out.push('\n');
                indent(out, inner);
            } else {
                out.push(' ');
            }
            write_items(items, order, inner, out);
        }
        scalar => {
            out.push(' ');
            write_scalar(scalar, out);
            out.push('\n');
        }
    }
}

fn write_scalar(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => write_string(s, out),
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
        other => out.push_str(&other.to_string()), // null, booleans and numbers as JSON writes them
    }
}

fn write_string(s: &str, out: &mut String) {
    if is_plain_safe(s) {
        out.push_str(s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_printable(c) => out.push(c),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
}

/// Characters written as they are: YAML's printable ones, less those some readers take as line
/// breaks (NEL, LS, PS) and the byte-order mark.
fn is_printable(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// Whether `s` reads back as this string when written plain, in block context, by YAML 1.1 and
/// 1.2 readers alike: no indicator first, nothing a reader resolves to null, a boolean or a
/// number (`on`, `yes`, `~`, `1e3`, `0x1`, `1_000`, `12:30`, dates all start with a digit or are
/// listed), no `: ` or ` #`, no space at either end, printable characters only.
fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    const YAML_11_WORDS: [&str; 12] = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "=", "<<"];
    !(first.is_ascii_digit()
        || "-?:,[]{}#&*!|>'\"%@`+. \t".contains(first)
        || YAML_11_WORDS.iter().any(|w| w.eq_ignore_ascii_case(s))
        || s.ends_with([' ', '\t', ':'])
        || s.contains(": ")
        || s.contains(" #")
        || s.contains(":\t")
        || s.contains("\t#")
        || s.chars().any(|c| c == '\t' || !is_printable(c))
        || !matches!(plain(s), Ok(Yaml::String(_))))
}

#[cfg(test)]
mod tests;
