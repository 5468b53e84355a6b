//! What the apiserver answers when a Gateway API object is created, with its exact messages:
//! GatewayClass, Gateway, HTTPRoute and ReferenceGrant of the standard-channel CRDs at
//! v1.6.1 (`v1` and `v1beta1`).
//!
//! A custom resource is checked by the apiextensions-apiserver (audited at Kubernetes v1.36.3,
//! `k8s.io/apiextensions-apiserver` v0.36.3, `k8s.io/kube-openapi`, apimachinery v0.36.3), in
//! this order (`customResourceStrategy.Validate`):
//! 1. the defaults of the schema are applied, and `null`s without a default dropped
//!    (`structuraldefaulting`);
//! 2. `metadata` as for every object (`ValidateObjectMetaAccessor`, names `NameIsDNSSubdomain`);
//! 3. the OpenAPI schema (`ValidateCustomResource` → kube-openapi's validator, converted by
//!    `kubeOpenAPIResultToFieldErrors`): per field its type, the `oneOf` (a Gateway address of
//!    type `IPAddress` must be an IP), then `maxLength`, `minLength`,
//!    `pattern` (the first that fails), `minimum`, `maximum`, the items then `minItems`,
//!    `maxItems`, the `enum`, then an object's properties and its `required` ones. Messages:
//!    `Required value`; `Unsupported value: "X": supported values: "A", "B"`; `Too long: may not
//!    be more than 253 bytes`; `Too many: 17: must have at most 16 items`; otherwise `Invalid
//!    value: <v>: <path> in body should match '<pattern>'` (kube-openapi's own sentence);
//! 4. `x-kubernetes-list-type` `set` and `map` (`Duplicate value: {"name":"a"}`);
//! 5. the CEL rules (`x-kubernetes-validations`), only when nothing above is "blocking"
//!    (`hasBlockingErr`: required, enum, too long, too many, wrong type); otherwise the single
//!    `<nil>: Invalid value: null: some validation rules were not checked ...`. A rule's error on
//!    an object or a list omits the value: `spec.rules[0]: Invalid value: RequestRedirect filter
//!    must not be used together with backendRefs` (Kubernetes before 1.32 printed `"object"`
//!    there).
//!
//! Go visits an object's properties in map order (random); here they come in the CRD's
//! alphabetical order, so a list of several errors is one of the orders the apiserver may give.
//! Fields the schema does not declare are listed apart ([`GatewayValidation::unknown_fields`]):
//! `kubectl`'s default strict field validation refuses the object for them before validating
//! (apiextensions' pruning, paths sorted). Not checked: `metadata` beyond name, namespace, labels
//! and annotations, and update-only rules.
//!
//! One departure, for inputs built to hurt: the items of a list longer than its `maxItems` (and
//! the values of a map over its `maxProperties`) are not looked into. The object is refused for
//! that length whatever they hold (`Too many`, which also stops the CEL rules), and a route of
//! 100 000 matches then costs no more than counting them; the apiserver would list their errors
//! too. [`oversize`] finds such a list alone, before anything is read.

mod cel;
mod patterns;
mod schema;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use self::schema::{ListType, Schema, Type};
use crate::validation::{self, ErrorType, FieldError};

/// The API group of every kind here.
pub const GROUP: &str = "gateway.networking.k8s.io";

/// The apiserver's verdict on one Gateway API object.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GatewayValidation {
    /// `GatewayClass`, `Gateway`, `HTTPRoute` or `ReferenceGrant`.
    pub kind: &'static str,
    /// `None` for the cluster-scoped GatewayClass; otherwise the request's (`default` when unset).
    pub namespace: Option<String>,
    pub name: String,
    /// The API version (`v1` or `v1beta1`).
    pub version: &'static str,
    /// Empty when the object is accepted.
    pub errors: Vec<FieldError>,
    /// Fields the CRD's schema does not declare, sorted as the apiserver sorts them. With
    /// `kubectl`'s default strict field validation they refuse the object before any validation
    /// ([`strict_decoding_error`](Self::strict_decoding_error)); without it the apiserver drops
    /// them and `errors` stands.
    pub unknown_fields: Vec<UnknownField>,
}

/// A field the schema does not declare, and the declared sibling most likely meant.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownField {
    /// Its path as the apiserver prints it (`spec.rules[0].backendRef`).
    pub field: String,
    pub did_you_mean: Option<&'static str>,
}

impl GatewayValidation {
    /// Accepted: no error, and no unknown field (kubectl validates strictly by default).
    #[cfg(test)]
    pub(crate) fn is_valid(&self) -> bool {
        self.errors.is_empty() && self.unknown_fields.is_empty()
    }

    /// The apiserver's answer when refused: the strict decoding error when a field is unknown,
    /// otherwise `HTTPRoute.gateway.networking.k8s.io "name" is invalid: <error>` (several
    /// distinct errors in `[...]`).
    pub fn message(&self) -> Option<String> {
        if let Some(strict) = self.strict_decoding_error() {
            return Some(strict);
        }
        (!self.errors.is_empty())
            .then(|| validation::invalid_message(&format!("{}.{GROUP}", self.kind), &self.name, &self.errors))
    }

    /// `HTTPRoute in version "v1" cannot be handled as a HTTPRoute: strict decoding error:
    /// unknown field "spec.foo"` (the `BadRequest` of a strict create), when a field is unknown.
    pub fn strict_decoding_error(&self) -> Option<String> {
        if self.unknown_fields.is_empty() {
            return None;
        }
        let list: Vec<String> = self.unknown_fields.iter().map(|f| format!("unknown field {:?}", f.field)).collect();
        Some(format!(
            "{kind} in version {version:?} cannot be handled as a {kind}: strict decoding error: {}",
            list.join(", "),
            kind = self.kind,
            version = self.version
        ))
    }
}

/// The schema of a kind this module validates, and whether it is namespaced; `None` for other
/// kinds and API versions (`gateway.networking.k8s.io/v1` and `/v1beta1` are served).
fn schema_of(value: &Value) -> Option<(&'static str, &'static str, &'static Schema, bool)> {
    let api_version = value.get("apiVersion").and_then(Value::as_str)?;
    let version = match api_version.strip_prefix(GROUP)?.strip_prefix('/')? {
        "v1" => "v1",
        "v1beta1" => "v1beta1",
        _ => return None,
    };
    let (kind, schema, namespaced) = match value.get("kind").and_then(Value::as_str)? {
        "GatewayClass" => ("GatewayClass", &schema::GATEWAY_CLASS, false),
        "Gateway" => ("Gateway", &schema::GATEWAY, true),
        "HTTPRoute" => ("HTTPRoute", &schema::HTTP_ROUTE, true),
        // Served as v1 only (v1alpha2 is the experimental channel's).
        "GRPCRoute" if version == "v1" => ("GRPCRoute", &schema::GRPC_ROUTE, true),
        "ReferenceGrant" => ("ReferenceGrant", &schema::REFERENCE_GRANT, true),
        _ => return None,
    };
    Some((kind, version, schema, namespaced))
}

/// Validates one object as the apiserver does on create; `None` when it is not a GatewayClass,
/// Gateway, HTTPRoute or ReferenceGrant of a served version.
///
/// ```text
/// use ingress_router::gateway::validation::validate;
/// let route = serde_json::json!({
///     "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"},
///     "spec": {"rules": [{"matches": [{"path": {"type": "PathPrefix", "value": "foo"}}]}]}});
/// let verdict = validate(&route).unwrap();
/// assert_eq!(verdict.errors[0].to_string(), "spec.rules[0].matches[0].path: Invalid value: \
///     value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']");
/// ```
pub fn validate(value: &Value) -> Option<GatewayValidation> {
    let (kind, version, schema, namespaced) = schema_of(value)?;
    let mut unknown_fields = Vec::new();
    find_unknown_fields(value, Some(schema), &mut String::new(), &mut unknown_fields);
    let sorted =
        super::sorted_positions(unknown_fields.len(), &|a, b| unknown_fields[a].field.cmp(&unknown_fields[b].field));
    let unknown_fields: Vec<UnknownField> = sorted.into_iter().map(|i| unknown_fields[i].clone()).collect();
    // The schema declares `spec` alone at the top (`metadata` is checked apart): only it is
    // copied to take the defaults, not the annotations and status an object may carry.
    let spec_schema = schema.props.iter().find(|(name, _)| *name == "spec").map(|(_, s)| *s);
    let spec = value.get("spec").map(|spec| match spec_schema {
        Some(s) if has_oversize(spec, s) => bounded_copy(spec, s),
        _ => spec.clone(),
    });
    let mut object = Value::Object(spec.into_iter().map(|spec| ("spec".to_string(), spec)).collect());
    apply_defaults(&mut object, schema);
    let metadata: crate::model::ObjectMeta =
        value.get("metadata").and_then(|m| crate::model::read::object_meta(&mut m.clone()).ok()).unwrap_or_default();
    let mut errors = validation::validate_object_meta_of_custom_resource(&metadata, namespaced);
    check_schema(&object, schema, &mut String::new(), &mut errors);
    check_list_types(&object, schema, &mut String::new(), &mut errors);
    if errors.iter().any(blocking) {
        errors.push(FieldError {
            error_type: ErrorType::Invalid,
            field: "<nil>".to_string(),
            bad_value: Some(Value::Null),
            detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation".to_string(),
        });
    } else {
        check_rules(&object, schema, &mut String::new(), &mut errors);
    }
    let namespace = namespaced.then(|| match metadata.namespace.as_deref() {
        Some(ns) if !ns.is_empty() => ns.to_string(),
        _ => "default".to_string(),
    });
    Some(GatewayValidation { kind, namespace, name: metadata.name, version, errors, unknown_fields })
}

/// The first list (or map) of a GatewayClass, Gateway, HTTPRoute or ReferenceGrant longer than
/// its CRD allows (`maxItems`, `maxProperties`: at most 16 rules, 64 matches per rule, 64
/// listeners, ...), found by counting, without reading anything else: such an object is refused
/// before anything is built from it, and what it holds costs no more than its length.
///
/// ```text
/// use ingress_router::gateway::validation::oversize;
/// let matches = vec![serde_json::json!({}); 100_000];
/// let route = serde_json::json!({
///     "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"},
///     "spec": {"rules": [{"matches": matches}]}});
/// assert_eq!(oversize(&route).unwrap().to_string(),
///     "spec.rules[0].matches: Too many: 100000: must have at most 64 items");
/// ```
pub fn oversize(value: &Value) -> Option<FieldError> {
    let (_, _, schema, _) = schema_of(value)?;
    // Counting first, without naming paths: nearly every object has no such list.
    has_oversize(value, schema).then(|| first_oversize(value, schema, &mut String::new())).flatten()
}

/// Whether [`first_oversize`] finds a list, without building its path.
fn has_oversize(value: &Value, schema: &Schema) -> bool {
    match value {
        Value::Array(list) if matches!(schema.ty, Type::Array) => {
            too_long(schema, list) || schema.items.is_some_and(|items| list.iter().any(|v| has_oversize(v, items)))
        }
        Value::Object(map) if matches!(schema.ty, Type::Object) => {
            too_many_props(schema, map) || present(schema, map).any(|(_, prop, v)| has_oversize(v, prop))
        }
        _ => false,
    }
}

/// A copy of `value` without the items of its lists over their `maxItems` (nulls in their place:
/// only their number is read), to apply the defaults to.
fn bounded_copy(value: &Value, schema: &Schema) -> Value {
    match value {
        Value::Array(list) if too_long(schema, list) => Value::Array(alloc::vec![Value::Null; list.len()]),
        Value::Array(list) => match schema.items {
            Some(items) => list.iter().map(|item| bounded_copy(item, items)).collect(),
            None => value.clone(),
        },
        Value::Object(map) => {
            let schema_of = |key: &str| schema.props.iter().find(|(name, _)| *name == key).map(|(_, s)| *s);
            let copy = |(key, v): (&String, &Value)| match schema_of(key) {
                Some(prop) => (key.clone(), bounded_copy(v, prop)),
                None => (key.clone(), v.clone()),
            };
            Value::Object(map.iter().map(copy).collect())
        }
        _ => value.clone(),
    }
}

fn first_oversize(value: &Value, schema: &Schema, path: &mut String) -> Option<FieldError> {
    match value {
        Value::Array(list) if matches!(schema.ty, Type::Array) => {
            if let Some(max) = schema.max_items.filter(|&max| list.len() > max) {
                return Some(too_many(path, list.len(), max));
            }
            let items = schema.items?;
            list.iter().enumerate().find_map(|(i, item)| with_index(path, i, |path| first_oversize(item, items, path)))
        }
        Value::Object(map) if matches!(schema.ty, Type::Object) => {
            if let Some(max) = schema.max_props.filter(|&max| map.len() > max) {
                return Some(too_many(path, map.len(), max));
            }
            // Maps of strings (`values`) hold no lists.
            present(schema, map)
                .find_map(|(name, prop, v)| with_child(path, name, |path| first_oversize(v, prop, path)))
        }
        _ => None,
    }
}

// ------------------------------------------------------------------------------------------------
// Unknown fields (apiextensions `pruning.PruneWithOptions` with `TrackUnknownFieldPaths`, as a
// strict create decodes a custom resource)

/// Fields of the object that the schema does not declare: a key of a mapping is unknown unless
/// the schema there declares it as a property or has `additionalProperties` (a mapping where
/// the schema expects no object has only unknown keys). At the root, `apiVersion`, `kind` and
/// `metadata` are the object's own, and `status` (not validated here) is left alone.
fn find_unknown_fields(value: &Value, schema: Option<&Schema>, path: &mut String, found: &mut Vec<UnknownField>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if path.is_empty() && matches!(key.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
                    continue;
                }
                let declared = schema.and_then(|s| s.props.iter().find(|(name, _)| name == key).map(|(_, p)| *p));
                match (declared, schema.and_then(|s| s.values)) {
                    (Some(prop), _) | (None, Some(prop)) => {
                        with_child(path, key, |path| find_unknown_fields(v, Some(prop), path, found))
                    }
                    (None, None) => {
                        let siblings = schema.map_or(&[][..], |s| s.props).iter().map(|(name, _)| *name);
                        found.push(UnknownField { field: child(path, key), did_you_mean: closest(key, siblings) });
                    }
                }
            }
        }
        Value::Array(list) if !schema.is_some_and(|s| too_long(s, list)) => {
            for (i, item) in list.iter().enumerate() {
                with_index(path, i, |path| find_unknown_fields(item, schema.and_then(|s| s.items), path, found));
            }
        }
        _ => {}
    }
}

/// The declared name most likely meant: the same ignoring case, else the closest spelling.
fn closest<'a>(key: &str, names: impl Iterator<Item = &'a str> + Clone) -> Option<&'a str> {
    if let Some(same) = names.clone().find(|n| n.eq_ignore_ascii_case(key)) {
        return Some(same);
    }
    closest_spelling(key, names)
}

#[cfg(any(feature = "lint", feature = "yaml"))]
fn closest_spelling<'a>(key: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    crate::spelling::closest(key, names)
}

/// Without the spelling tables only a difference of case is suggested.
#[cfg(not(any(feature = "lint", feature = "yaml")))]
fn closest_spelling<'a>(_key: &str, _names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    None
}

/// `hasBlockingErr`: errors after which the CEL rules are not evaluated.
fn blocking(e: &FieldError) -> bool {
    matches!(
        e.error_type,
        ErrorType::NotSupported
            | ErrorType::Required
            | ErrorType::TooLong
            | ErrorType::TooMany
            | ErrorType::TypeInvalid
    )
}

// ------------------------------------------------------------------------------------------------
// Defaults (`structuraldefaulting.Default` and `PruneNonNullableNullsWithoutDefaults`)

fn apply_defaults(value: &mut Value, schema: &Schema) {
    match value {
        Value::Object(map) => {
            for (name, prop) in schema.props {
                // One lookup for a field present, two for one absent with a default.
                let child = match map.get_mut(*name) {
                    Some(child) if !child.is_null() => child,
                    present => match prop.default.and_then(default_value) {
                        Some(default) => match present {
                            Some(child) => {
                                *child = default;
                                child
                            }
                            None => map.entry(*name).or_insert(default),
                        },
                        None => {
                            if present.is_some() {
                                map.remove(*name);
                            }
                            continue;
                        }
                    },
                };
                apply_defaults(child, prop);
            }
            if let Some(values) = schema.values.filter(|_| !too_many_props(schema, map)) {
                for child in map.values_mut() {
                    apply_defaults(child, values);
                }
            }
        }
        Value::Array(list) if !too_long(schema, list) => {
            if let Some(items) = schema.items {
                for item in list {
                    apply_defaults(item, items);
                }
            }
        }
        _ => {}
    }
}

/// A schema's `default`: most are a plain string or number, read without the JSON parser (every
/// absent field of every item would otherwise parse its default again).
fn default_value(text: &str) -> Option<Value> {
    if let Some(plain) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).filter(|t| !t.contains(['"', '\\'])) {
        return Some(Value::from(plain));
    }
    if let Ok(n) = text.parse::<i64>() {
        return Some(Value::from(n));
    }
    serde_json::from_str(text).ok()
}

// ------------------------------------------------------------------------------------------------
// Field paths: kube-openapi's names (`spec.rules[0].matches`, map values `.key`), which
// `field.Path.Child` keeps as one segment.

fn child(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// Runs `f` with `.name` appended to `path`, then takes it off: one buffer for the whole walk
/// instead of a string per field (most fields have no error to name).
fn with_child<R>(path: &mut String, name: &str, f: impl FnOnce(&mut String) -> R) -> R {
    let len = path.len();
    if len > 0 {
        path.push('.');
    }
    path.push_str(name);
    let result = f(path);
    path.truncate(len);
    result
}

/// [`with_child`] for `[i]`.
fn with_index<R>(path: &mut String, i: usize, f: impl FnOnce(&mut String) -> R) -> R {
    let len = path.len();
    path.push('[');
    // The digits without `fmt` (one per item of every list walked).
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = i;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[at..].iter().for_each(|&d| path.push(char::from(d)));
    path.push(']');
    let result = f(path);
    path.truncate(len);
    result
}

/// Up to this many properties (every node of the CRDs' schemas), a node's fields are found in one
/// pass over its map.
const FEW_PROPS: usize = 8;

/// The schema's properties that `map` holds, in the schema's order, with their values: the map is
/// read once and each key compared with the property names (lengths first), instead of a tree
/// search per property, most of them absent, each comparing bytes at every step.
fn present<'v>(
    schema: &Schema,
    map: &'v Map<String, Value>,
) -> impl Iterator<Item = (&'static str, &'static Schema, &'v Value)> + use<'v> {
    let props = schema.props;
    let mut found: [Option<&Value>; FEW_PROPS] = [None; FEW_PROPS];
    for (key, value) in map {
        if let Some(i) = props.iter().position(|(name, _)| *name == key.as_str())
            && i < FEW_PROPS
        {
            found[i] = Some(value);
        }
    }
    props.iter().enumerate().filter_map(move |(i, &(name, prop))| {
        let value = if i < FEW_PROPS { found[i] } else { map.get(name) };
        value.map(|v| (name, prop, v))
    })
}

/// Whether a list is longer than its `maxItems`: its items are then not looked into (the object
/// is refused for its length whatever they hold), so that a list of 100 000 items costs no more
/// than counting them.
fn too_long(schema: &Schema, list: &[Value]) -> bool {
    schema.max_items.is_some_and(|max| list.len() > max)
}

/// [`too_long`] for a map's `maxProperties`.
fn too_many_props(schema: &Schema, map: &Map<String, Value>) -> bool {
    schema.max_props.is_some_and(|max| map.len() > max)
}

fn invalid(path: &str, value: Value, detail: String) -> FieldError {
    FieldError { error_type: ErrorType::Invalid, field: path.to_string(), bad_value: Some(value), detail }
}

// ------------------------------------------------------------------------------------------------
// The OpenAPI schema (kube-openapi `SchemaValidator`)

/// The JSON type kube-openapi sees (`schemaInfoForType`), and whether it is `expected`
/// (an integral number is accepted as an integer).
fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(value: &Value, expected: Type) -> bool {
    match (expected, value) {
        (Type::Integer, Value::Number(n)) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f % 1.0 == 0.0),
        _ => type_of(value) == expected.name(),
    }
}

fn check_schema(value: &Value, schema: &Schema, path: &mut String, errors: &mut Vec<FieldError>) {
    if !type_matches(value, schema.ty) {
        let actual = type_of(value);
        errors.push(FieldError {
            error_type: ErrorType::TypeInvalid,
            field: path.clone(),
            bad_value: Some(Value::from(actual)),
            detail: format!("{path} in body must be of type {}: \"{actual}\"", schema.ty.name()),
        });
        return;
    }
    match value {
        Value::String(s) => check_string(s, schema, path, errors),
        Value::Number(n) => check_number(value, n.as_f64().unwrap_or(0.0), schema, path, errors),
        Value::Array(list) => {
            if let Some(items) = schema.items.filter(|_| !too_long(schema, list)) {
                for (i, item) in list.iter().enumerate() {
                    with_index(path, i, |path| check_schema(item, items, path, errors));
                }
            }
            if let Some(min) = schema.min_items.filter(|&min| list.len() < min) {
                errors.push(invalid(
                    path,
                    Value::from(list.len()),
                    format!("{path} in body should have at least {min} items"),
                ));
            }
            if let Some(max) = schema.max_items.filter(|&max| list.len() > max) {
                errors.push(too_many(path, list.len(), max));
            }
        }
        Value::Object(map) => check_object(map, schema, path, errors),
        _ => {}
    }
}

fn too_many(path: &str, actual: usize, max: usize) -> FieldError {
    let unit = if max == 1 { "item" } else { "items" };
    FieldError {
        error_type: ErrorType::TooMany,
        field: path.to_string(),
        bad_value: Some(Value::from(actual)),
        detail: format!("must have at most {max} {unit}"),
    }
}

/// `stringValidator` (the first of maxLength, minLength, pattern that fails), then the enum.
fn check_string(s: &str, schema: &Schema, path: &str, errors: &mut Vec<FieldError>) {
    let length = s.chars().count();
    if let Some(max) = schema.max_len.filter(|&max| length > max) {
        let unit = if max == 1 { "byte" } else { "bytes" };
        errors.push(FieldError {
            error_type: ErrorType::TooLong,
            field: path.to_string(),
            bad_value: None,
            detail: format!("may not be more than {max} {unit}"),
        });
    } else if let Some(min) = schema.min_len.filter(|&min| length < min) {
        errors.push(invalid(path, Value::from(s), format!("{path} in body should be at least {min} chars long")));
    } else if let Some(pattern) = schema.pattern.filter(|p| !(p.matches)(s)) {
        errors.push(invalid(path, Value::from(s), format!("{path} in body should match '{}'", pattern.text)));
    }
    if !schema.enum_str.is_empty() && !schema.enum_str.contains(&s) {
        errors.push(not_supported(path, Value::from(s), schema.enum_str.iter().map(|v| (*v).to_string()).collect()));
    }
}

/// `numberValidator` (minimum, then maximum), then the enum.
fn check_number(value: &Value, n: f64, schema: &Schema, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(min) = schema.minimum.filter(|&min| n < min as f64) {
        errors.push(invalid(path, value.clone(), format!("{path} in body should be greater than or equal to {min}")));
    }
    if let Some(max) = schema.maximum.filter(|&max| n > max as f64) {
        errors.push(invalid(path, value.clone(), format!("{path} in body should be less than or equal to {max}")));
    }
    if !schema.enum_int.is_empty() && !schema.enum_int.iter().any(|&v| v as f64 == n) {
        errors.push(not_supported(path, value.clone(), schema.enum_int.iter().map(i64::to_string).collect()));
    }
}

/// `field.NotSupported`: the supported values quoted (`strconv.Quote`), numbers as JSON.
fn not_supported(path: &str, value: Value, supported: Vec<String>) -> FieldError {
    let quoted: Vec<String> = supported.iter().map(|v| validation::go_quote(v)).collect();
    FieldError {
        error_type: ErrorType::NotSupported,
        field: path.to_string(),
        bad_value: Some(value),
        detail: format!("supported values: {}", quoted.join(", ")),
    }
}

/// `objectValidator`: maxProperties, the map's values, the properties, then the required ones
/// (after the `oneOf`, as kube-openapi's `schemaPropsValidator` runs first).
fn check_object(map: &Map<String, Value>, schema: &Schema, path: &mut String, errors: &mut Vec<FieldError>) {
    if let Some(one_of) = schema.one_of {
        one_of(map, path, errors);
    }
    if let Some(max) = schema.max_props.filter(|&max| map.len() > max) {
        errors.push(too_many(path, map.len(), max));
    }
    if let Some(values) = schema.values.filter(|_| !too_many_props(schema, map)) {
        for (key, value) in map {
            with_child(path, key, |path| check_schema(value, values, path, errors));
        }
    }
    for (name, prop, value) in present(schema, map) {
        with_child(path, name, |path| check_schema(value, prop, path, errors));
    }
    for name in schema.required {
        if !map.contains_key(*name) {
            errors.push(FieldError {
                error_type: ErrorType::Required,
                field: child(path, name),
                bad_value: None,
                detail: String::new(),
            });
        }
    }
}

/// `GatewaySpecAddress`'s `oneOf`: `{type: enum [IPAddress], value: anyOf [format ipv4, format
/// ipv6]}` or `{type: not enum [IPAddress]}`. Only an `IPAddress` whose value is neither fails
/// both; kube-openapi then reports the `oneOf`, and the failures of the alternative that matched
/// most (the first: its type matched), which are the `anyOf` and its first failure. Its composite
/// errors are not field errors: `kubeOpenAPIResultToFieldErrors` makes them `field.Invalid(nil,
/// "", ...)`. (The exact list follows kube-openapi's `MatchCount` choice; the Gateway API's CEL
/// tests confirm the `ipv4` message.)
pub(crate) fn address_value_is_an_ip(address: &Map<String, Value>, path: &str, errors: &mut Vec<FieldError>) {
    let Some(Value::String(value)) = address.get("value") else { return };
    if address.get("type").and_then(Value::as_str) != Some("IPAddress") {
        return;
    }
    // kube-openapi's `isIPv4` (a parsed IP with a `.`) or govalidator's `IsIPv6` (with a `:`):
    // every parsed IP has one or the other.
    if validation::parses_as_ip(value) {
        return;
    }
    let composite = |detail: String| invalid("<nil>", Value::from(""), detail);
    let value_path = child(path, "value");
    errors.push(composite(format!(
        "{} must validate one and only one schema (oneOf). Found none valid",
        validation::go_quote(path)
    )));
    errors.push(composite(format!("{} must validate at least one schema (anyOf)", validation::go_quote(&value_path))));
    errors.push(FieldError {
        error_type: ErrorType::TypeInvalid,
        field: value_path.clone(),
        bad_value: Some(Value::from(value.as_str())),
        detail: format!("{value_path} in body must be of type ipv4: {}", validation::go_quote(value)),
    });
}

// ------------------------------------------------------------------------------------------------
// `x-kubernetes-list-type` (apiextensions `listtype.ValidateListSetsAndMaps`)

fn check_list_types(value: &Value, schema: &Schema, path: &mut String, errors: &mut Vec<FieldError>) {
    match value {
        Value::Array(list) if !too_long(schema, list) => {
            if !list.is_empty() && matches!(schema.ty, Type::Array) {
                match schema.list {
                    ListType::Atomic => {}
                    ListType::Set => duplicates(list.iter().cloned(), path, errors),
                    ListType::Map(key) => {
                        // An item without the key counts as the key `{}` (all such items are equal).
                        let keys = list.iter().map(|item| match item.get(key) {
                            Some(k) => Value::Object(Map::from_iter([(key.to_string(), k.clone())])),
                            None => Value::Object(Map::new()),
                        });
                        duplicates(keys, path, errors);
                    }
                }
            }
            if let Some(items) = schema.items {
                for (i, item) in list.iter().enumerate() {
                    with_index(path, i, |path| check_list_types(item, items, path, errors));
                }
            }
        }
        Value::Object(map) => {
            for (name, prop, v) in present(schema, map) {
                with_child(path, name, |path| check_list_types(v, prop, path, errors));
            }
        }
        _ => {}
    }
}

/// `field.Duplicate` at the second appearance of each repeated value.
fn duplicates(values: impl Iterator<Item = Value>, path: &str, errors: &mut Vec<FieldError>) {
    let mut seen: Vec<(Value, usize)> = Vec::new();
    for (i, v) in values.enumerate() {
        match seen.iter_mut().find(|(s, _)| *s == v) {
            Some((_, times)) => {
                *times += 1;
                if *times == 2 {
                    errors.push(FieldError {
                        error_type: ErrorType::Duplicate,
                        field: index(path, i),
                        bad_value: Some(v),
                        detail: String::new(),
                    });
                }
            }
            None => seen.push((v, 1)),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// CEL rules (apiextensions `cel.Validator`: a node's rules, then its children)

fn check_rules(value: &Value, schema: &Schema, path: &mut String, errors: &mut Vec<FieldError>) {
    for rule in schema.rules {
        match (rule.check)(value) {
            Ok(true) => {}
            // The value of an object or a list is omitted (`field.OmitValueType`).
            Ok(false) => errors.push(FieldError {
                error_type: ErrorType::Invalid,
                field: path.clone(),
                bad_value: None,
                detail: rule.message.to_string(),
            }),
            Err(e) => errors.push(invalid(
                path,
                Value::from(schema.ty.name()),
                format!("{e} evaluating rule: {}", rule.message.trim()),
            )),
        }
    }
    match value {
        Value::Array(list) => {
            if let Some(items) = schema.items {
                for (i, item) in list.iter().enumerate() {
                    with_index(path, i, |path| check_rules(item, items, path, errors));
                }
            }
        }
        Value::Object(map) => {
            for (name, prop, v) in present(schema, map) {
                with_child(path, name, |path| check_rules(v, prop, path, errors));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(value: Value) -> Vec<String> {
        validate(&value).unwrap().errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn other_kinds_and_versions_are_not_validated() {
        assert!(validate(&json!({"apiVersion": "v1", "kind": "Service"})).is_none());
        assert!(validate(&json!({"apiVersion": "gateway.networking.k8s.io/v1alpha2", "kind": "HTTPRoute"})).is_none());
        assert!(validate(&json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "TLSRoute"})).is_none());
        // GRPCRoute is served as v1 only.
        assert!(validate(&json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "GRPCRoute"})).is_none());
    }

    #[test]
    fn defaults_apply_before_the_rules() {
        let route = json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "HTTPRoute",
            "metadata": {"name": "r"}, "spec": {"rules": [{"matches": [{"path": {"value": "x y"}}]}]}});
        assert_eq!(
            errors(route),
            [
                "spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
                "spec.rules[0].matches[0].path: Invalid value: must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']"
            ]
        );
    }

    #[test]
    fn a_missing_key_read_by_cel_is_an_evaluation_error() {
        let gateway = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
            "metadata": {"name": "g"}, "spec": {"gatewayClassName": "c",
            "listeners": [{"name": "https", "port": 443, "protocol": "HTTPS", "tls": {}}]}});
        assert_eq!(
            errors(gateway),
            [
                "spec.listeners[0].tls: Invalid value: \"object\": no such key: certificateRefs evaluating rule: certificateRefs or options must be specified when mode is Terminate"
            ]
        );
    }
}
