//! Reading typed objects straight from a `serde_json::Value`: the helpers every reader shares
//! (fields, strings, integers, lists, maps, defaults), and the error that names the field.
//!
//! serde's derived `Deserialize` through `serde_json::from_value` does the same with a visitor per
//! type and field, monomorphised for every deserializer, and a clone of the whole object first;
//! in the WebAssembly modules (`make size`, twiggy before wasm-opt) that generic code weighed more
//! than the routing itself. The readers keep the derive's rules: unknown fields are ignored, an
//! absent field takes its default, integers must be whole and in range; but a list is never read
//! as a struct (the derive reads one positionally, which no Kubernetes client writes). How `null`
//! reads is each reader's choice, as the types' serde attributes chose it: the Ingress model's
//! readers ([`model`](crate::model)) read it as empty, the Gateway API's as "absent" for an
//! optional field and an error for any other.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, Value};

/// Why an object could not be read: where, and what was wrong there.
#[derive(Debug)]
pub struct Error {
    /// Innermost step first: each reader adds its field or item on the way out.
    path: Vec<Step>,
    message: String,
}

#[derive(Debug)]
enum Step {
    Field(&'static str),
    Item(usize),
    Key(String),
}

impl Error {
    pub(crate) fn new(message: String) -> Error {
        Error { path: Vec::new(), message }
    }

    pub(crate) fn expected(what: &str, found: &Value) -> Error {
        Error::new(format!("expected {what}, found {}", Found(found)))
    }

    pub(crate) fn in_field(mut self, name: &'static str) -> Error {
        self.path.push(Step::Field(name));
        self
    }

    pub(crate) fn in_item(mut self, index: usize) -> Error {
        self.path.push(Step::Item(index));
        self
    }

    fn in_key(mut self, key: &str) -> Error {
        self.path.push(Step::Key(key.to_string()));
        self
    }
}

impl fmt::Display for Error {
    /// `spec.rules[0].backendRefs[1].port: expected an integer from 0 to 65535, found 70000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.path.iter().rev().enumerate() {
            match step {
                Step::Field(name) if i == 0 => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Item(index) => write!(f, "[{index}]")?,
                Step::Key(key) => write!(f, "[{key:?}]")?,
            }
        }
        if !self.path.is_empty() {
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// A value as an error names it: its type, and the value itself when it is short.
struct Found<'a>(&'a Value);

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => write!(f, "{n}"),
            Value::String(s) if s.len() <= 64 => write!(f, "the string {s:?}"),
            Value::String(_) => f.write_str("a string"),
            Value::Array(_) => f.write_str("a list"),
            Value::Object(_) => f.write_str("a map"),
        }
    }
}

pub(crate) type Fields = Map<String, Value>;

// Readers that borrow the value (the Gateway API's: the caller keeps its values, and status reads
// the same objects again); only the `gateway` feature has them.

#[cfg(feature = "gateway")]
pub(crate) type Read<T> = fn(&Value) -> Result<T, Error>;

#[cfg(feature = "gateway")]
pub(crate) fn fields(value: &Value) -> Result<&Fields, Error> {
    value.as_object().ok_or_else(|| Error::expected("a map", value))
}

/// A field without a default (`null` is there, and read as a value).
#[cfg(feature = "gateway")]
pub(crate) fn required<T>(fields: &Fields, name: &'static str, read: Read<T>) -> Result<T, Error> {
    match fields.get(name) {
        Some(value) => read(value).map_err(|e| e.in_field(name)),
        None => Err(Error::new(format!("missing field `{name}`"))),
    }
}

/// A field with a default: `None` when absent (the caller fills in the default); `null` is read
/// as a value, an error for every type here.
#[cfg(feature = "gateway")]
pub(crate) fn defaulted<T>(fields: &Fields, name: &'static str, read: Read<T>) -> Result<Option<T>, Error> {
    fields.get(name).map(|value| read(value).map_err(|e| e.in_field(name))).transpose()
}

/// An `Option` field: absent and `null` are `None`.
#[cfg(feature = "gateway")]
pub(crate) fn optional<T>(fields: &Fields, name: &'static str, read: Read<T>) -> Result<Option<T>, Error> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => read(value).map(Some).map_err(|e| e.in_field(name)),
    }
}

/// A list field, empty when absent.
#[cfg(feature = "gateway")]
pub(crate) fn list<T>(fields: &Fields, name: &'static str, read: Read<T>) -> Result<Vec<T>, Error> {
    match fields.get(name) {
        Some(value) => items(value, read).map_err(|e| e.in_field(name)),
        None => Ok(Vec::new()),
    }
}

#[cfg(feature = "gateway")]
pub(crate) fn items<T>(value: &Value, read: Read<T>) -> Result<Vec<T>, Error> {
    let items = value.as_array().ok_or_else(|| Error::expected("a list", value))?;
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        out.push(read(item).map_err(|e| e.in_item(index))?);
    }
    Ok(out)
}

#[cfg(feature = "gateway")]
pub(crate) fn string(value: &Value) -> Result<String, Error> {
    value.as_str().map(str::to_string).ok_or_else(|| Error::expected("a string", value))
}

#[cfg(feature = "gateway")]
pub(crate) fn string_or(fields: &Fields, name: &'static str, default: &str) -> Result<String, Error> {
    Ok(defaulted(fields, name, string)?.unwrap_or_else(|| default.to_string()))
}

#[cfg(feature = "gateway")]
pub(crate) fn port(value: &Value) -> Result<u16, Error> {
    value
        .as_u64()
        .and_then(|n| u16::try_from(n).ok())
        .ok_or_else(|| Error::expected("an integer from 0 to 65535", value))
}

#[cfg(feature = "gateway")]
pub(crate) fn uint32(value: &Value) -> Result<u32, Error> {
    value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| Error::expected("an integer from 0 to 4294967295", value))
}

#[cfg(feature = "gateway")]
pub(crate) fn int64(value: &Value) -> Result<i64, Error> {
    value.as_i64().ok_or_else(|| Error::expected(INT64, value))
}

/// What an `i64` field expects: a range, so that a huge, negative or fractional value's error
/// says what would fit.
const INT64: &str = "an integer from -9223372036854775808 to 9223372036854775807";

/// Any value, as it is.
#[cfg(feature = "gateway")]
pub(crate) fn any(value: &Value) -> Result<Value, Error> {
    Ok(value.clone())
}

/// A map of strings; a `null` value is an error.
#[cfg(feature = "gateway")]
pub(crate) fn string_map(value: &Value) -> Result<BTreeMap<String, String>, Error> {
    let mut out = BTreeMap::new();
    for (key, item) in fields(value)? {
        out.insert(key.clone(), string(item).map_err(|e| e.in_key(key))?);
    }
    Ok(out)
}

/// The position of a unit variant's name in `names`.
#[cfg(feature = "gateway")]
pub(crate) fn variant(value: &Value, names: &[&str]) -> Result<usize, Error> {
    let found = value.as_str().and_then(|s| names.iter().position(|n| *n == s));
    found.ok_or_else(|| {
        let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        Error::expected(&format!("one of {}", names.join(", ")), value)
    })
}

// Readers that take what they read out of the value (its strings, keys and lists move instead of
// being copied): the input's objects are read once and the values dropped, as serde's
// `from_value` consumed them. `null` reads as the apiserver reads it (the Ingress model's rules).

/// A reader that takes its value's contents, leaving empty values behind.
pub(crate) type Take<T> = fn(&mut Value) -> Result<T, Error>;

pub(crate) fn fields_mut(value: &mut Value) -> Result<&mut Fields, Error> {
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(Error::expected("a map", other)),
    }
}

/// An `Option` field: absent and `null` are `None`.
pub(crate) fn take_optional<T>(fields: &mut Fields, name: &'static str, read: Take<T>) -> Result<Option<T>, Error> {
    match fields.get_mut(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => read(value).map(Some).map_err(|e| e.in_field(name)),
    }
}

/// A field whose absence and `null` are its default (serde's `default` with the model's former
/// `null_as_default`).
pub(crate) fn take_or_default<T: Default>(fields: &mut Fields, name: &'static str, read: Take<T>) -> Result<T, Error> {
    Ok(take_optional(fields, name, read)?.unwrap_or_default())
}

/// A list field as the apiserver reads one: absent and `null` are empty, and a `null` item is the
/// item's zero value (Go decodes `[null]` into a zero value).
pub(crate) fn take_zero_list<T: Default>(
    fields: &mut Fields,
    name: &'static str,
    read: Take<T>,
) -> Result<Vec<T>, Error> {
    Ok(take_optional_zero_list(fields, name, read)?.unwrap_or_default())
}

/// [`take_zero_list`] that keeps absent and `null` (`None`) apart from `[]` (validation words them
/// differently).
pub(crate) fn take_optional_zero_list<T: Default>(
    fields: &mut Fields,
    name: &'static str,
    read: Take<T>,
) -> Result<Option<Vec<T>>, Error> {
    let items = match fields.get_mut(name) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(Error::expected("a list", other).in_field(name)),
    };
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.iter_mut().enumerate() {
        // `read` is the item type's own reader, which refuses `null`: here it is the zero value.
        out.push(match item {
            Value::Null => T::default(),
            item => read(item).map_err(|e| e.in_item(index).in_field(name))?,
        });
    }
    Ok(Some(out))
}

pub(crate) fn take_string(value: &mut Value) -> Result<String, Error> {
    match value {
        Value::String(s) => Ok(core::mem::take(s)),
        other => Err(Error::expected("a string", other)),
    }
}

pub(crate) fn take_int64(value: &mut Value) -> Result<i64, Error> {
    value.as_i64().ok_or_else(|| Error::expected(INT64, value))
}

/// Any value, as it is.
pub(crate) fn take_any(value: &mut Value) -> Result<Value, Error> {
    Ok(value.take())
}

/// A map of strings as the apiserver reads one: a `null` value is `""` (Go's JSON decoder stores
/// the zero value).
pub(crate) fn take_zero_string_map(value: &mut Value) -> Result<BTreeMap<String, String>, Error> {
    let mut out = BTreeMap::new();
    for (key, mut item) in core::mem::take(fields_mut(value)?) {
        let item = match item {
            Value::Null => String::new(),
            ref mut item => take_string(item).map_err(|e| e.in_key(&key))?,
        };
        out.insert(key, item);
    }
    Ok(out)
}
