//! Reading objects from YAML or JSON text.
//!
//! Accepted shapes: a single object, a multi-document YAML stream (`---`), a `kind: List` (what
//! `kubectl get ingress,service,ingressclass -A -o yaml` prints), or a JSON array of objects.
//! Objects of other kinds are skipped with a note. Errors name the source, the document and,
//! where known, the line, column and field path; they never panic.

// Parse errors are rare, carry the whole location, and never sit on a hot path.
#![allow(clippy::result_large_err)]

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::model::{Ingress, IngressClass, Object, Service};

/// Inputs larger than this are refused before parsing (bounded memory for hostile input).
pub const DEFAULT_MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;

/// Where an object came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Origin {
    /// The source's name (a file path, or `<stdin>`, or what the caller passed).
    pub source: String,
    /// 1-based document number in a multi-document stream.
    pub document: usize,
    /// 0-based index in a `kind: List` (or JSON array), when the object came from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
}

impl Origin {
    /// The field-path prefix of this object inside its document (`items[3].`), for position lookups.
    pub fn path_prefix(&self) -> String {
        match self.item {
            Some(i) => format!("items[{i}]"),
            None => String::new(),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document {}", self.source, self.document)?;
        if let Some(i) = self.item {
            write!(f, ", item {i}")?;
        }
        Ok(())
    }
}

/// An object and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct SourcedObject {
    pub object: Object,
    pub origin: Origin,
}

/// A note about the input that is not an error (for example a skipped object of another kind).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InputNote {
    pub origin: Origin,
    pub message: String,
}

impl fmt::Display for InputNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.origin, self.message)
    }
}

/// What `parse` read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    pub objects: Vec<SourcedObject>,
    pub notes: Vec<InputNote>,
}

impl Input {
    /// Adds everything from `other` (several files make one input).
    pub fn extend(&mut self, other: Input) {
        self.objects.extend(other.objects);
        self.notes.extend(other.notes);
    }

    /// The objects alone, in input order.
    pub fn into_objects(self) -> Vec<Object> {
        self.objects.into_iter().map(|o| o.object).collect()
    }
}

/// Why an input could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The text is not valid YAML or JSON.
    Syntax,
    /// A document is valid YAML/JSON but not a Kubernetes object of the right shape.
    Shape,
    /// The input is larger than the configured limit.
    TooLarge,
    /// YAML input was given but the `yaml` feature is off.
    YamlUnsupported,
}

/// A parse error, naming the source, the document and (when known) the line, column and field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub kind: InputErrorKind,
    pub source: String,
    /// 1-based document number, when the error is inside one.
    pub document: Option<usize>,
    /// 1-based line and column.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// Field path inside the object (`spec.rules[0].host`), when known.
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let Some(d) = self.document {
            write!(f, ": document {d}")?;
        }
        if let Some(l) = self.line {
            write!(f, ", line {l}")?;
            if let Some(c) = self.column {
                write!(f, ", column {c}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for InputError {}

impl InputError {
    fn new(kind: InputErrorKind, source: &str, message: impl Into<String>) -> Self {
        InputError {
            kind,
            source: source.to_string(),
            document: None,
            line: None,
            column: None,
            field: None,
            message: message.into(),
        }
    }
}

/// Parses YAML or JSON text (detected by its first character) into objects.
///
/// `source` names the text in messages (usually a file name).
pub fn parse(source: &str, text: &str) -> Result<Input, InputError> {
    parse_with_limit(source, text, DEFAULT_MAX_INPUT_BYTES)
}

/// [`parse`] with an explicit size limit in bytes.
pub fn parse_with_limit(source: &str, text: &str, max_bytes: usize) -> Result<Input, InputError> {
    if text.len() > max_bytes {
        return Err(InputError::new(
            InputErrorKind::TooLarge,
            source,
            format!("input is {} bytes, more than the limit of {} bytes", text.len(), max_bytes),
        ));
    }
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('{') || body.starts_with('[') { parse_json(source, text) } else { parse_yaml(source, text) }
}

/// Parses JSON text: one object, an array of objects, or a `kind: List`. Works without `std`.
pub fn parse_json(source: &str, text: &str) -> Result<Input, InputError> {
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        let mut err = InputError::new(InputErrorKind::Syntax, source, json_message(&e));
        err.document = Some(1);
        err.line = Some(e.line());
        err.column = Some(e.column());
        err
    })?;
    let mut input = Input::default();
    match value {
        Value::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                add_value(&mut input, source, 1, Some(i), item)?;
            }
        }
        other => add_document(&mut input, source, 1, other)?,
    }
    Ok(input)
}

/// serde_json's message without its own " at line L column C" suffix (we print those ourselves).
fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

/// Parses a YAML stream of one or more documents.
#[cfg(feature = "yaml")]
pub fn parse_yaml(source: &str, text: &str) -> Result<Input, InputError> {
    use serde::Deserialize;
    if let Some((line, column)) = nesting_too_deep(text, MAX_YAML_DEPTH) {
        let mut err = InputError::new(
            InputErrorKind::Syntax,
            source,
            format!("recursion limit exceeded: collections nested more than {MAX_YAML_DEPTH} deep"),
        );
        err.line = Some(line);
        err.column = Some(column);
        return Err(err);
    }
    let mut input = Input::default();
    for (index, document) in serde_norway::Deserializer::from_str(text).enumerate() {
        let number = index + 1;
        let yaml = serde_norway::Value::deserialize(document).map_err(|e| {
            let mut err = InputError::new(InputErrorKind::Syntax, source, yaml_message(&e));
            err.document = Some(number);
            if let Some(loc) = e.location() {
                err.line = Some(loc.line());
                err.column = Some(loc.column());
            }
            err
        })?;
        if yaml.is_null() {
            continue; // an empty document, as between `---` separators
        }
        let value = serde_json::to_value(&yaml).map_err(|e| {
            let mut err =
                InputError::new(InputErrorKind::Shape, source, format!("cannot be read as a Kubernetes object: {e}"));
            err.document = Some(number);
            err
        })?;
        add_document(&mut input, source, number, value)?;
    }
    Ok(input)
}

/// Deepest nesting the YAML reader accepts: serde_norway's own recursion limit.
#[cfg(feature = "yaml")]
pub const MAX_YAML_DEPTH: usize = 128;

/// Where collections first nest deeper than `limit` (1-based line and column), read with
/// saphyr-parser's event parser in linear time. serde_norway applies the same limit only after
/// libyaml has scanned the whole document, and libyaml's scan is quadratic in the depth of flow
/// collections (`{a: {a: …` takes a minute for 400 KB). A syntax error saphyr reports for
/// another reason ends the check (serde_norway then reports its own message); saphyr refuses flow
/// nesting deeper than 255 itself, which counts as too deep.
#[cfg(feature = "yaml")]
fn nesting_too_deep(text: &str, limit: usize) -> Option<(usize, usize)> {
    use saphyr_parser::{Event, Parser};
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    while let Some(next) = parser.next_event() {
        match next {
            Ok((Event::MappingStart(..) | Event::SequenceStart(..), span)) => {
                depth += 1;
                if depth > limit {
                    return Some((span.start.line(), span.start.col() + 1));
                }
            }
            Ok((Event::MappingEnd | Event::SequenceEnd, _)) => depth = depth.saturating_sub(1),
            Ok(_) => {}
            Err(e) if e.info().contains("recursion limit") => {
                return Some((e.marker().line(), e.marker().col() + 1));
            }
            Err(_) => return None,
        }
    }
    None
}

/// serde_norway's message without its own location suffix.
#[cfg(feature = "yaml")]
fn yaml_message(e: &serde_norway::Error) -> String {
    let full = e.to_string();
    match full.find(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

#[cfg(not(feature = "yaml"))]
pub fn parse_yaml(source: &str, _text: &str) -> Result<Input, InputError> {
    Err(InputError::new(
        InputErrorKind::YamlUnsupported,
        source,
        "YAML input needs the `yaml` feature of ingress-router; give JSON instead",
    ))
}

fn add_document(input: &mut Input, source: &str, document: usize, value: Value) -> Result<(), InputError> {
    // `items:` left empty (null) or absent is an empty list, as the apiserver reads it.
    let is_list = value.get("kind").and_then(Value::as_str).is_some_and(|k| k == "List" || k.ends_with("List"))
        && value.get("items").is_none_or(|items| items.is_array() || items.is_null());
    if is_list {
        let Value::Object(mut map) = value else { return Ok(()) };
        if let Some(Value::Array(items)) = map.remove("items") {
            for (i, item) in items.into_iter().enumerate() {
                add_value(input, source, document, Some(i), item)?;
            }
        }
        return Ok(());
    }
    add_value(input, source, document, None, value)
}

fn add_value(
    input: &mut Input,
    source: &str,
    document: usize,
    item: Option<usize>,
    value: Value,
) -> Result<(), InputError> {
    let origin = Origin { source: source.to_string(), document, item };
    let shape_error = |message: String, field: Option<String>| InputError {
        kind: InputErrorKind::Shape,
        source: source.to_string(),
        document: Some(document),
        line: None,
        column: None,
        field,
        message,
    };
    let Value::Object(map) = &value else {
        return Err(shape_error(
            format!(
                "{}expected a Kubernetes object (a mapping with `kind`), found {}",
                item_prefix(item),
                type_name(&value)
            ),
            None,
        ));
    };
    let kind = match map.get("kind") {
        Some(Value::String(k)) => k.clone(),
        Some(other) => {
            return Err(shape_error(
                format!("{}`kind` must be a string, found {}", item_prefix(item), type_name(other)),
                Some(String::from("kind")),
            ));
        }
        None => {
            return Err(shape_error(
                format!("{}object has no `kind` (is this a Kubernetes manifest?)", item_prefix(item)),
                None,
            ));
        }
    };
    let api_version = map.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let name = map.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("").to_string();
    let object = match (kind.as_str(), api_version) {
        ("Ingress", "networking.k8s.io/v1" | "") => Object::Ingress(typed::<Ingress>(value, &shape_error, item)?),
        ("IngressClass", "networking.k8s.io/v1" | "") => {
            Object::IngressClass(typed::<IngressClass>(value, &shape_error, item)?)
        }
        ("Service", "v1" | "") => Object::Service(typed::<Service>(value, &shape_error, item)?),
        ("Ingress" | "IngressClass", other) => {
            input.notes.push(InputNote {
                origin,
                message: format!(
                    "skipped {kind} {name:?}: apiVersion {other:?} is not served (use networking.k8s.io/v1)"
                ),
            });
            return Ok(());
        }
        _ => {
            input.notes.push(InputNote {
                origin,
                message: format!("skipped {kind} {name:?}: not an Ingress, IngressClass or Service"),
            });
            return Ok(());
        }
    };
    input.objects.push(SourcedObject { object, origin });
    Ok(())
}

fn typed<T: DeserializeOwned>(
    value: Value,
    shape_error: &dyn Fn(String, Option<String>) -> InputError,
    item: Option<usize>,
) -> Result<T, InputError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { None } else { Some(path) };
        shape_error(format!("{}{}", item_prefix(item), e.into_inner()), field)
    })
}

fn item_prefix(item: Option<usize>) -> String {
    match item {
        Some(i) => format!("items[{i}]: "),
        None => String::new(),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a sequence",
        Value::Object(_) => "a mapping",
    }
}
