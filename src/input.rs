//! Reading objects from YAML or JSON text.
//!
//! Accepted shapes: a single object, a multi-document YAML stream (`---`), a `kind: List` (what
//! `kubectl get ingress,service,ingressclass -A -o yaml` prints), or a JSON array of objects.
//! Objects of other kinds are skipped with a note. Errors name the source, the document and,
//! where known, the line, column and field path; they never panic.
//!
//! The apiserver's decoder is followed where it decides what loads: `null` is empty, a value of
//! the wrong type fails its object with Go's message and fields it does not know are recorded
//! (`validate` reports them); Ingresses of API versions no longer served are left out and recorded;
//! a Helm or Go template is refused as such.
//! [`parse_all`] goes on after a document that cannot be read; [`parse`] stops at the first.

// Parse errors are rare, carry the whole location, and never sit on a hot path.
#![allow(clippy::result_large_err)]

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde_json::Value;

use crate::model::{Object, read};
use crate::schema::DecodeError;

#[cfg(feature = "yaml")]
mod keys;
mod template;
mod unserved;

#[cfg(feature = "yaml")]
pub(crate) use unserved::v1_replacement;
pub(crate) use unserved::{UnknownFields, Unserved};

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
    /// The path of `field` of this object inside its document (`items[3].spec...` in a List).
    pub(crate) fn document_path(&self, field: &str) -> String {
        match (self.item, field.is_empty()) {
            (None, _) => field.to_string(),
            (Some(i), true) => format!("items[{i}]"),
            (Some(i), false) => format!("items[{i}].{field}"),
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
pub(crate) struct SourcedObject {
    pub object: Object,
    pub origin: Origin,
}

/// Compiling an input reads its objects where they are (a copy would double the memory a proxy
/// holds while it configures).
impl core::borrow::Borrow<Object> for SourcedObject {
    fn borrow(&self) -> &Object {
        &self.object
    }
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
#[derive(Clone, Debug, Default)]
pub struct Input {
    pub(crate) objects: Vec<SourcedObject>,
    pub notes: Vec<InputNote>,
    /// Documents that could not be read ([`parse_all`] goes on with the next document; [`parse`]
    /// returns the first of them instead).
    pub errors: Vec<InputError>,
    /// Objects of a served kind with fields the apiserver's strict decoding rejects; the objects
    /// themselves are in `objects` (routing ignores unknown fields, `validate` reports them).
    pub(crate) unknown_fields: Vec<UnknownFields>,
    /// Ingresses and IngressClasses of an API version no apiserver serves any more: left out.
    pub(crate) unserved: Vec<Unserved>,
    /// Gateway API objects (`gateway.networking.k8s.io`) and Namespaces, as read: the Gateway API
    /// part of [`compile`](crate::compile) reads them; the Ingress table leaves them out.
    pub(crate) gateway_api: Vec<SourcedValue>,
    /// The sources' names in the order they were read (objects of several sources are listed in
    /// input order by them).
    pub(crate) sources: Vec<String>,
}

/// An object kept as read, and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SourcedValue {
    pub value: Value,
    pub origin: Origin,
}

impl core::borrow::Borrow<Value> for SourcedValue {
    fn borrow(&self) -> &Value {
        &self.value
    }
}

/// What was read, whatever the sources' bookkeeping: the same objects, notes and errors are the
/// same input (an edited workspace and a read from scratch compare equal).
impl PartialEq for Input {
    fn eq(&self, other: &Input) -> bool {
        (&self.objects, &self.notes, &self.errors, &self.unknown_fields, &self.unserved, &self.gateway_api)
            == (&other.objects, &other.notes, &other.errors, &other.unknown_fields, &other.unserved, &other.gateway_api)
    }
}

impl Input {
    /// The objects read, without their origins: what [`compile`](crate::compile) and
    /// [`Router::lint`](crate::Router::lint) take.
    pub(crate) fn to_objects(&self) -> Vec<Object> {
        self.objects.iter().map(|o| o.object.clone()).collect()
    }

    /// How many objects were read (every kind, the Gateway API's included).
    pub fn len(&self) -> usize {
        self.objects.len() + self.gateway_api.len()
    }

    /// Whether no object was read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kind of every object read: the Ingresses, IngressClasses and Services in input order,
    /// then the Gateway API objects (and Namespaces) in input order.
    ///
    /// ```
    /// let text = r#"[{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}},
    ///               {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"}}]"#;
    /// let input = ingress_router::input::parse("all.json", text).unwrap();
    /// assert_eq!(input.kinds().collect::<Vec<_>>(), ["Service", "HTTPRoute"]);
    /// ```
    pub fn kinds(&self) -> impl Iterator<Item = &str> {
        let gateway_api = self.gateway_api.iter().map(|v| v.value.get("kind").and_then(Value::as_str).unwrap_or(""));
        self.objects.iter().map(|o| o.object.kind()).chain(gateway_api)
    }

    /// Adds everything from `other` (several files make one input).
    pub fn extend(&mut self, other: Input) {
        self.objects.extend(other.objects);
        self.notes.extend(other.notes);
        self.errors.extend(other.errors);
        self.unknown_fields.extend(other.unknown_fields);
        self.unserved.extend(other.unserved);
        self.gateway_api.extend(other.gateway_api);
        for source in other.sources {
            if !self.sources.contains(&source) {
                self.sources.push(source);
            }
        }
    }

    /// An input of `sources` (names, in the order read) holding these objects.
    #[cfg(feature = "cli")]
    pub(crate) fn of(objects: Vec<SourcedObject>, gateway_api: Vec<SourcedValue>, sources: Vec<String>) -> Input {
        Input { objects, gateway_api, sources, ..Input::default() }
    }

    /// The objects alone, in input order (the crate's tests build tables from them).
    #[cfg(test)]
    pub(crate) fn into_objects(self) -> Vec<Object> {
        self.objects.into_iter().map(|o| o.object).collect()
    }

    /// The position of `source` among the sources read (`usize::MAX` when unknown).
    pub(crate) fn source_index(&self, source: &str) -> usize {
        self.sources.iter().position(|s| s == source).unwrap_or(usize::MAX)
    }
}

/// Why an input could not be read; [`as_str`](Self::as_str) is the stable name every home uses
/// (the CLI's `--json` errors, the npm package's `IngressRouterError.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The text is not valid YAML or JSON.
    Syntax,
    /// A document is valid YAML/JSON but not a Kubernetes object of the right shape.
    Shape,
    /// The input is larger than the configured limit.
    TooLarge,
    /// YAML input was given to a build without the `yaml` feature (JSON only).
    YamlUnsupported,
    /// A Helm or Go template (`{{ .Values.x }}`): it must be rendered first.
    Template,
    /// A field holds a value of the wrong type: the apiserver's decoder refuses the object.
    Type,
    /// The file or folder could not be read at all (the CLI reads files; the core never does).
    Unreadable,
}

impl InputErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            InputErrorKind::Syntax => "syntax",
            InputErrorKind::Shape => "shape",
            InputErrorKind::TooLarge => "too-large",
            InputErrorKind::YamlUnsupported => "yaml-unsupported",
            InputErrorKind::Template => "template",
            InputErrorKind::Type => "type",
            InputErrorKind::Unreadable => "unreadable",
        }
    }
}

impl fmt::Display for InputErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for InputErrorKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A parse error, naming the source, the document and (when known) the line, column and field.
///
/// Serialised as every home reports it: `{kind, source, document?, line?, column?, field?,
/// message}` (`message` without the location, which the other fields hold).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InputError {
    pub kind: InputErrorKind,
    /// The file (or `<input>`, `<stdin>`) the text came from.
    pub source: String,
    /// 1-based document number, when the error is inside one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<usize>,
    /// 1-based line and column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// Field path inside the object (`spec.rules[0].host`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
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

impl core::error::Error for InputError {}

impl InputError {
    /// An error about the whole of `source` (add the place with the `at_*` methods).
    pub fn new(kind: InputErrorKind, source: &str, message: impl Into<String>) -> Self {
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

    /// At 1-based `line` and `column` of the source.
    pub fn at_line(mut self, line: usize, column: usize) -> Self {
        (self.line, self.column) = (Some(line), Some(column));
        self
    }

    /// About `field` (a path such as `tests[0].request`).
    pub fn at_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
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
    let mut input = parse_all_with_limit(source, text, max_bytes);
    match input.errors.is_empty() {
        true => Ok(input),
        false => Err(input.errors.swap_remove(0)),
    }
}

/// Reads everything that can be read: a document that cannot be read is recorded in
/// [`Input::errors`] (with its line and column where known) and the next one is read; a syntax
/// error, a template or an input over the size limit ends the text.
pub fn parse_all(source: &str, text: &str) -> Input {
    parse_all_with_limit(source, text, DEFAULT_MAX_INPUT_BYTES)
}

/// [`parse_all`] with an explicit size limit in bytes.
pub fn parse_all_with_limit(source: &str, text: &str, max_bytes: usize) -> Input {
    let mut input = Input { sources: vec![source.to_string()], ..Input::default() };
    if text.len() > max_bytes {
        input.errors.push(InputError::new(
            InputErrorKind::TooLarge,
            source,
            format!("input is {} bytes, more than the limit of {} bytes", text.len(), max_bytes),
        ));
        return input;
    }
    if let Some(error) = template_error(source, text) {
        input.errors.push(error);
        return input;
    }
    let body = text.trim_start_matches('\u{feff}').trim_start();
    let read = if body.starts_with('{') || body.starts_with('[') {
        parse_json_into(&mut input, source, text)
    } else {
        parse_yaml_into(&mut input, source, text)
    };
    if let Err(e) = read {
        input.errors.push(e);
    }
    locate_errors(&mut input.errors, text);
    input
}

/// The first Helm or Go template action in `text`, as the error [`parse_all`] gives.
pub(crate) fn template_error(source: &str, text: &str) -> Option<InputError> {
    template::find(source, text)
}

/// Fills in the line and column of errors that name a field (yaml feature: positions are read
/// from the text only when some error needs them).
#[cfg(feature = "yaml")]
pub(crate) fn locate_errors(errors: &mut [InputError], text: &str) {
    if !errors.iter().any(|e| e.line.is_none() && e.field.is_some()) {
        return;
    }
    let positions = crate::position::Positions::new(text);
    for e in errors.iter_mut().filter(|e| e.line.is_none()) {
        let (Some(document), Some(field)) = (e.document, e.field.as_deref()) else { continue };
        if let Some(at) = positions.locate(document, field) {
            e.line = Some(at.line);
            e.column = Some(at.column);
        }
    }
}

#[cfg(not(feature = "yaml"))]
fn locate_errors(_errors: &mut [InputError], _text: &str) {}

/// Reads JSON into `input`; an object that cannot be read goes to `input.errors`, a syntax error
/// is returned.
fn parse_json_into(input: &mut Input, source: &str, text: &str) -> Result<(), InputError> {
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        let mut err = InputError::new(InputErrorKind::Syntax, source, json_message(&e));
        err.document = Some(1);
        err.line = Some(e.line());
        err.column = Some(e.column());
        err
    })?;
    match value {
        Value::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                let result = add_value(input, source, 1, Some(i), item);
                record(input, result);
            }
        }
        other => add_document(input, source, 1, other),
    }
    Ok(())
}

fn record(input: &mut Input, result: Result<(), InputError>) {
    if let Err(e) = result {
        input.errors.push(e);
    }
}

/// serde_json's message without its own " at line L column C" suffix (we print those ourselves).
fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

/// Reads a YAML stream into `input`; a document that cannot be read as an object goes to
/// `input.errors`, a syntax error (which ends the stream) is returned.
#[cfg(feature = "yaml")]
fn parse_yaml_into(input: &mut Input, source: &str, text: &str) -> Result<(), InputError> {
    // Too deep a nesting is refused for the whole stream, naming the limit: nothing of the stream
    // is kept. Flow nesting is at most the number of `[` and `{` in the text: most manifests
    // (block style) are read as they are; deep block nesting is refused by the reader itself.
    let whole_stream_depth = text.bytes().filter(|b| matches!(b, b'[' | b'{')).count() > MAX_YAML_DEPTH;
    read_yaml_stream(input, source, text, whole_stream_depth).map(|_| ())
}

/// Reads the documents of a YAML stream into `input`: how many documents the reader went
/// through, empty ones included (an empty stream counts as one empty document), or the syntax
/// error that ends the stream. A stream whose collections nest deeper than [`MAX_YAML_DEPTH`]
/// before its first syntax error is refused whole, `input` left as it was.
#[cfg(feature = "yaml")]
pub(crate) fn read_yaml_documents(input: &mut Input, source: &str, text: &str) -> Result<usize, InputError> {
    read_yaml_stream(input, source, text, true)
}

#[cfg(feature = "yaml")]
fn read_yaml_stream(
    input: &mut Input,
    source: &str,
    text: &str,
    whole_stream_depth: bool,
) -> Result<usize, InputError> {
    let before = Lengths::of(input);
    let mut stream =
        if whole_stream_depth { crate::yaml::documents_depth_checked(text) } else { crate::yaml::documents(text) };
    let mut documents = 0;
    while let Some(document) = stream.next() {
        documents += 1;
        let number = documents;
        let yaml = match document {
            Ok(yaml) => yaml,
            Err(e) => {
                // Nested too deep: the whole stream is refused, not one document.
                if stream.too_deep {
                    before.restore(input);
                }
                let mut err = InputError::new(InputErrorKind::Syntax, source, e.message);
                err.document = (!stream.too_deep).then_some(number);
                if let Some((line, column)) = e.place {
                    err.line = Some(line);
                    err.column = Some(column);
                }
                return Err(err);
            }
        };
        if yaml.is_null() {
            continue; // an empty document, as between `---` separators
        }
        let value = match yaml.into_json() {
            Ok(value) => value,
            Err(e) => {
                let mut err = InputError::new(
                    InputErrorKind::Shape,
                    source,
                    format!("cannot be read as a Kubernetes object: {e}"),
                );
                err.document = Some(number);
                if let Some((line, column, field)) = keys::first_complex_key(text, number) {
                    // kubectl fails the same way, converting the file to JSON.
                    err.message = String::from(
                        "error converting YAML to JSON: invalid map key (a sequence or mapping used as a key); keys must be strings",
                    );
                    (err.line, err.column) = (Some(line), Some(column));
                    err.field = (!field.is_empty()).then_some(field);
                }
                input.errors.push(err);
                continue;
            }
        };
        add_document(input, source, number, value);
    }
    Ok(documents)
}

/// Deepest nesting the YAML reader accepts (serde_norway's recursion limit, kept by `yaml`).
#[cfg(feature = "yaml")]
const MAX_YAML_DEPTH: usize = crate::yaml::MAX_DEPTH as usize;

/// How long each of an [`Input`]'s lists was, to put it back as it was.
#[cfg(feature = "yaml")]
struct Lengths([usize; 6]);

#[cfg(feature = "yaml")]
impl Lengths {
    fn of(input: &Input) -> Lengths {
        Lengths([
            input.objects.len(),
            input.notes.len(),
            input.errors.len(),
            input.unknown_fields.len(),
            input.unserved.len(),
            input.gateway_api.len(),
        ])
    }

    fn restore(&self, input: &mut Input) {
        let [objects, notes, errors, unknown_fields, unserved, gateway_api] = self.0;
        input.objects.truncate(objects);
        input.notes.truncate(notes);
        input.errors.truncate(errors);
        input.unknown_fields.truncate(unknown_fields);
        input.unserved.truncate(unserved);
        input.gateway_api.truncate(gateway_api);
    }
}

#[cfg(not(feature = "yaml"))]
fn parse_yaml_into(_input: &mut Input, source: &str, _text: &str) -> Result<(), InputError> {
    Err(yaml_unsupported(source))
}

#[cfg(not(feature = "yaml"))]
fn yaml_unsupported(source: &str) -> InputError {
    InputError::new(
        InputErrorKind::YamlUnsupported,
        source,
        "YAML input needs the `yaml` feature of ingress-router (this build reads JSON only); give JSON instead",
    )
}

fn add_document(input: &mut Input, source: &str, document: usize, value: Value) {
    // `items:` left empty (null) or absent is an empty list, as the apiserver reads it.
    let is_list = value.get("kind").and_then(Value::as_str).is_some_and(|k| k == "List" || k.ends_with("List"))
        && value.get("items").is_none_or(|items| items.is_array() || items.is_null());
    if is_list {
        let Value::Object(mut map) = value else { return };
        if let Some(Value::Array(items)) = map.remove("items") {
            for (i, item) in items.into_iter().enumerate() {
                let result = add_value(input, source, document, Some(i), item);
                record(input, result);
            }
        }
        return;
    }
    let result = add_value(input, source, document, None, value);
    record(input, result);
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
    if let Some(unserved) = Unserved::find(&kind, api_version, &value, &origin) {
        input.notes.push(InputNote { origin, message: unserved.note() });
        input.unserved.push(unserved);
        return Ok(());
    }
    match decode_check(&kind, api_version, &value) {
        Some(error @ DecodeError::Type { .. }) => {
            let DecodeError::Type { field, .. } = &error else { unreachable!() };
            let field = origin.document_path(field);
            let mut err = shape_error(crate::schema::cannot_be_handled(&kind, &error), Some(field));
            err.kind = InputErrorKind::Type;
            return Err(err);
        }
        Some(DecodeError::Unknown(fields)) => input.unknown_fields.push(UnknownFields {
            origin: origin.clone(),
            kind: match kind.as_str() {
                "Ingress" => "Ingress",
                "Service" => "Service",
                _ => "IngressClass",
            },
            namespace: map.get("metadata").and_then(|m| m.get("namespace")).and_then(Value::as_str).map(String::from),
            name: name.clone(),
            fields,
        }),
        None => {}
    }
    let object = match (kind.as_str(), api_version) {
        ("Ingress", "networking.k8s.io/v1" | "") => Object::Ingress(typed(value, read::ingress, &shape_error, item)?),
        ("IngressClass", "networking.k8s.io/v1" | "") => {
            Object::IngressClass(typed(value, read::ingress_class, &shape_error, item)?)
        }
        ("Service", "v1" | "") => Object::Service(typed(value, read::service, &shape_error, item)?),
        _ if api_version.starts_with("gateway.networking.k8s.io/") => {
            input.gateway_api.push(SourcedValue { value, origin });
            return Ok(());
        }
        // Read, not skipped: its labels choose the routes a Gateway listener allows (`allowedRoutes`).
        ("Namespace", "v1") => {
            input.gateway_api.push(SourcedValue { value, origin });
            return Ok(());
        }
        _ => {
            input.notes.push(InputNote {
                origin,
                message: format!(
                    "skipped {kind} {name:?}: not a kind routing reads (Ingress, IngressClass, Service, Namespace, \
                     and the Gateway API's)"
                ),
            });
            return Ok(());
        }
    };
    input.objects.push(SourcedObject { object, origin });
    Ok(())
}

/// The apiserver decoder's verdict on an object of a served kind and version.
fn decode_check(kind: &str, api_version: &str, value: &Value) -> Option<DecodeError> {
    let served = matches!(
        (kind, api_version),
        ("Ingress" | "IngressClass", "networking.k8s.io/v1" | "") | ("Service", "v1" | "")
    );
    crate::schema::schema(kind).filter(|_| served).and_then(|schema| crate::schema::check(schema, value))
}

/// The object `read` reads from `value`; an error names the field (`items[3]: spec.rules: ...`).
fn typed<T>(
    mut value: Value,
    read: crate::read::Take<T>,
    shape_error: &dyn Fn(String, Option<String>) -> InputError,
    item: Option<usize>,
) -> Result<T, InputError> {
    // `schema::check` has already refused every value of the wrong type, naming its field: what
    // is left for the reader is rare (a number out of range), and its error names the field too.
    read(&mut value).map_err(|e| shape_error(format!("{}{e}", item_prefix(item)), None))
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

/// A build without `yaml` reads JSON and refuses YAML text by its kind (`make test-nostd` runs these).
#[cfg(all(test, not(feature = "yaml")))]
mod without_yaml {
    use super::*;

    #[test]
    fn json_reads_yaml_is_refused() {
        let json = r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}}"#;
        assert_eq!(parse("a.json", json).unwrap().objects.len(), 1);
        let e = parse("a.yaml", "apiVersion: v1\nkind: Service\n").unwrap_err();
        assert_eq!((e.kind, e.kind.as_str()), (InputErrorKind::YamlUnsupported, "yaml-unsupported"));
        assert!(e.message.contains("`yaml` feature") && e.message.contains("give JSON"), "{e}");
    }
}

#[cfg(test)]
mod kinds {
    use super::*;

    /// Regression (issue 30): a Namespace is read (the Gateway API's `allowedRoutes` selectors read
    /// its labels), so no "skipped" note names it; another kind is skipped with a note that says
    /// which kinds are read.
    #[test]
    fn a_namespace_is_read_and_other_kinds_are_skipped_once() {
        let text = r#"[{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "apps", "labels": {"team": "a"}}},
                       {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}]"#;
        let input = parse("all.json", text).unwrap();
        assert_eq!(input.kinds().collect::<Vec<_>>(), ["Namespace"]);
        let notes: Vec<&str> = input.notes.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(
            notes,
            ["skipped ConfigMap \"c\": not a kind routing reads (Ingress, IngressClass, Service, Namespace, and the \
              Gateway API's)"]
        );
    }
}
