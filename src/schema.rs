//! The shape of the objects as the apiserver decodes them: every field it knows, with its Go type,
//! for the two checks its decoder makes before any validation.
//!
//! - A value of the wrong JSON type fails the decode with Go's `encoding/json` message (the
//!   apiserver decodes with `sigs.k8s.io/json`, a fork of it), e.g. `json: cannot unmarshal string
//!   into Go struct field ServiceBackendPort.spec.rules.http.paths.backend.service.port.number of
//!   type int32`: the struct that holds the field, the JSON names from the object's root without
//!   list indexes, and the Go type.
//! - With strict field validation (kubectl's default since 1.27, `--validate=strict`) a field the
//!   schema does not know fails the request: `strict decoding error: unknown field
//!   "spec.rules[0].http.paths[0].backend.serviceName"` (`sigs.k8s.io/json`'s strict path, with
//!   list indexes), every unknown field listed, comma-separated.
//!
//! kubectl prints either after `Error from server (BadRequest): error when creating "FILE": Ingress
//! in version "v1" cannot be handled as a Ingress: ` (see [`cannot_be_handled`]). Subtrees the
//! project does not read (`managedFields`, `ownerReferences`, a Service's `sessionAffinityConfig`)
//! are [`Shape::Any`]: accepted as they are.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

/// What a field holds, and so which JSON values decode into it.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    String,
    Int32,
    Int64,
    Bool,
    /// `metav1.Time`: a string (its own `UnmarshalJSON`, whence a different message).
    Time,
    /// `intstr.IntOrString`: a number or a string.
    IntOrString,
    /// `map[string]string`.
    StringMap,
    /// `[]string`.
    StringList,
    /// `v1.<Struct>` (or a pointer to it).
    Object(&'static Struct),
    /// `[]v1.<Struct>`.
    List(&'static Struct),
    /// Not modelled: anything is accepted.
    Any,
}

/// A Go struct: its name and its fields by JSON name.
#[derive(Debug)]
pub struct Struct {
    pub go: &'static str,
    pub fields: &'static [(&'static str, Shape)],
}

impl Shape {
    /// The Go type as `encoding/json` prints it (`int32`, `[]v1.IngressRule`, `v1.IngressSpec`).
    pub fn go_type(self) -> String {
        match self {
            Shape::String | Shape::Time => String::from("string"),
            Shape::Int32 => String::from("int32"),
            Shape::Int64 => String::from("int64"),
            Shape::Bool => String::from("bool"),
            Shape::IntOrString => String::from("intstr.IntOrString"),
            Shape::StringMap => String::from("map[string]string"),
            Shape::StringList => String::from("[]string"),
            Shape::Object(s) => format!("v1.{}", s.go),
            Shape::List(s) => format!("[]v1.{}", s.go),
            Shape::Any => String::from("interface {}"),
        }
    }
}

/// What the decoder found wrong with one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A value of the wrong type: the field (with indexes, to point at it) and Go's message.
    Type { field: String, message: String },
    /// Fields the schema does not know (with indexes), in the order met.
    Unknown(Vec<String>),
}

/// The schema of a served kind (`Ingress`, `IngressClass`, `Service`), `None` for others.
pub fn schema(kind: &str) -> Option<&'static Struct> {
    match kind {
        "Ingress" => Some(&INGRESS),
        "IngressClass" => Some(&INGRESS_CLASS),
        "Service" => Some(&SERVICE),
        _ => None,
    }
}

/// Decodes `value` against `schema` as the apiserver would: the first type error (which ends the
/// decode), else every unknown field; `None` when it decodes cleanly.
pub fn check(schema: &'static Struct, value: &Value) -> Option<DecodeError> {
    let mut walk = Walk { unknown: Vec::new(), type_error: None };
    walk.object(schema, value, &mut String::new(), &mut String::new());
    match (walk.type_error, walk.unknown.is_empty()) {
        (Some(e), _) => Some(e),
        (None, false) => Some(DecodeError::Unknown(walk.unknown)),
        (None, true) => None,
    }
}

/// `Ingress in version "v1" cannot be handled as a Ingress: ` + the decode error, as kubectl shows
/// it after `Error from server (BadRequest): error when creating "FILE": `.
pub fn cannot_be_handled(kind: &str, error: &DecodeError) -> String {
    let detail = match error {
        DecodeError::Type { message, .. } => message.clone(),
        DecodeError::Unknown(fields) => {
            let list: Vec<String> = fields.iter().map(|f| format!("unknown field {f:?}")).collect();
            format!("strict decoding error: {}", list.join(", "))
        }
    };
    format!("{kind} in version \"v1\" cannot be handled as a {kind}: {detail}")
}

#[cfg(feature = "yaml")]
/// The known field closest to an unknown one, among its siblings: `spec.rules[0].http.paths[0].pathtype`
/// gives `pathType`. Case differences always count as close; otherwise a small edit distance.
pub fn closest_field(schema: &'static Struct, field: &str) -> Option<&'static str> {
    let mut current = schema;
    let mut segments = field.split('.').peekable();
    while let Some(segment) = segments.next() {
        let name = segment.split('[').next().unwrap_or(segment);
        if segments.peek().is_none() {
            let names = current.fields.iter().map(|(n, _)| *n);
            if let Some(same) = current.fields.iter().map(|(n, _)| *n).find(|n| n.eq_ignore_ascii_case(name)) {
                return Some(same);
            }
            return crate::spelling::closest(name, names);
        }
        current = match current.fields.iter().find(|(n, _)| *n == name)?.1 {
            Shape::Object(s) | Shape::List(s) => s,
            _ => return None,
        };
    }
    None
}

struct Walk {
    unknown: Vec<String>,
    type_error: Option<DecodeError>,
}

impl Walk {
    /// `strict` is the path with indexes (`spec.rules[0].host`), `go` without (`spec.rules.host`).
    fn object(&mut self, schema: &'static Struct, value: &Value, strict: &mut String, go: &mut String) {
        let Value::Object(map) = value else { return };
        for (key, child) in map {
            if self.type_error.is_some() {
                return;
            }
            let (strict_len, go_len) = (strict.len(), go.len());
            push_key(strict, key);
            push_key(go, key);
            match schema.fields.iter().find(|(name, _)| name == key) {
                Some(&(_, shape)) => self.value(schema, shape, child, strict, go),
                None => self.unknown.push(strict.clone()),
            }
            strict.truncate(strict_len);
            go.truncate(go_len);
        }
    }

    /// A field's value; `parent` is the struct that holds the field, for Go's message.
    fn value(&mut self, parent: &Struct, shape: Shape, value: &Value, strict: &mut String, go: &mut String) {
        if value.is_null() {
            return; // null decodes into every type as its zero value
        }
        let fits = match (shape, value) {
            (Shape::Any, _) => true,
            (Shape::String | Shape::Time, Value::String(_)) => true,
            (Shape::Bool, Value::Bool(_)) => true,
            (Shape::Int32, Value::Number(n)) => n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            (Shape::Int64, Value::Number(n)) => n.as_i64().is_some(),
            (Shape::IntOrString, Value::String(_)) => true,
            (Shape::IntOrString, Value::Number(n)) => n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            (Shape::StringMap, Value::Object(map)) => {
                if map.values().any(|v| !v.is_null() && !v.is_string()) {
                    let bad = map.values().find(|v| !v.is_null() && !v.is_string()).unwrap_or(value);
                    let at = map.iter().find(|(_, v)| !v.is_null() && !v.is_string()).map(|(k, _)| k);
                    if let Some(k) = at {
                        push_key(strict, k);
                    }
                    self.mismatch(parent, "string", bad, strict, go);
                    return;
                }
                true
            }
            (Shape::StringList, Value::Array(items)) => {
                if let Some(i) = items.iter().position(|v| !v.is_null() && !v.is_string()) {
                    strict.push_str(&format!("[{i}]"));
                    self.mismatch(parent, "string", &items[i], strict, go);
                    return;
                }
                true
            }
            (Shape::Object(s), Value::Object(_)) => {
                self.object(s, value, strict, go);
                true
            }
            (Shape::List(s), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if self.type_error.is_some() {
                        break;
                    }
                    let len = strict.len();
                    strict.push_str(&format!("[{i}]"));
                    match item {
                        Value::Null => {}
                        Value::Object(_) => self.object(s, item, strict, go),
                        other => {
                            let go_type = format!("v1.{}", s.go);
                            self.mismatch(parent, &go_type, other, strict, go);
                        }
                    }
                    strict.truncate(len);
                }
                true
            }
            _ => false,
        };
        if !fits {
            if let Shape::Time = shape {
                // metav1.Time unmarshals through a string of its own: Go names no struct field.
                self.type_error = Some(DecodeError::Type {
                    field: strict.clone(),
                    message: format!("json: cannot unmarshal {} into Go value of type string", json_kind(value, false)),
                });
                return;
            }
            self.mismatch(parent, &shape.go_type(), value, strict, go);
        }
    }

    fn mismatch(&mut self, parent: &Struct, go_type: &str, value: &Value, strict: &str, go: &str) {
        if self.type_error.is_none() {
            self.type_error = Some(DecodeError::Type {
                field: String::from(strict),
                message: format!(
                    "json: cannot unmarshal {} into Go struct field {}.{go} of type {go_type}",
                    json_kind(value, matches!(go_type, "int32" | "int64" | "intstr.IntOrString")),
                    parent.go
                ),
            });
        }
    }
}

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

/// How `encoding/json` names a JSON value in `cannot unmarshal X`: `number 1.5` for a number that
/// does not fit a numeric field (it quotes the literal), else the kind (`number` into a string).
fn json_kind(value: &Value, numeric_target: bool) -> String {
    match value {
        Value::String(_) => String::from("string"),
        Value::Number(n) if numeric_target => format!("number {n}"),
        Value::Number(_) => String::from("number"),
        Value::Bool(_) => String::from("bool"),
        Value::Array(_) => String::from("array"),
        Value::Object(_) => String::from("object"),
        Value::Null => String::from("null"),
    }
}

// ---------------------------------------------------------------------------------------------
// The schemas (k8s.io/api: networking/v1, core/v1, meta/v1)

const TYPE_META: [(&str, Shape); 2] = [("apiVersion", Shape::String), ("kind", Shape::String)];

static OBJECT_META: Struct = Struct {
    go: "ObjectMeta",
    fields: &[
        ("name", Shape::String),
        ("generateName", Shape::String),
        ("namespace", Shape::String),
        ("selfLink", Shape::String),
        ("uid", Shape::String),
        ("resourceVersion", Shape::String),
        ("generation", Shape::Int64),
        ("creationTimestamp", Shape::Time),
        ("deletionTimestamp", Shape::Time),
        ("deletionGracePeriodSeconds", Shape::Int64),
        ("labels", Shape::StringMap),
        ("annotations", Shape::StringMap),
        ("ownerReferences", Shape::Any),
        ("finalizers", Shape::StringList),
        ("managedFields", Shape::Any),
    ],
};

static INGRESS: Struct = Struct {
    go: "Ingress",
    fields: &[
        TYPE_META[0],
        TYPE_META[1],
        ("metadata", Shape::Object(&OBJECT_META)),
        ("spec", Shape::Object(&INGRESS_SPEC)),
        ("status", Shape::Object(&INGRESS_STATUS)),
    ],
};

static INGRESS_SPEC: Struct = Struct {
    go: "IngressSpec",
    fields: &[
        ("ingressClassName", Shape::String),
        ("defaultBackend", Shape::Object(&INGRESS_BACKEND)),
        ("tls", Shape::List(&INGRESS_TLS)),
        ("rules", Shape::List(&INGRESS_RULE)),
    ],
};

static INGRESS_TLS: Struct =
    Struct { go: "IngressTLS", fields: &[("hosts", Shape::StringList), ("secretName", Shape::String)] };

static INGRESS_RULE: Struct =
    Struct { go: "IngressRule", fields: &[("host", Shape::String), ("http", Shape::Object(&HTTP_RULE))] };

static HTTP_RULE: Struct = Struct { go: "HTTPIngressRuleValue", fields: &[("paths", Shape::List(&HTTP_PATH))] };

static HTTP_PATH: Struct = Struct {
    go: "HTTPIngressPath",
    fields: &[("path", Shape::String), ("pathType", Shape::String), ("backend", Shape::Object(&INGRESS_BACKEND))],
};

static INGRESS_BACKEND: Struct = Struct {
    go: "IngressBackend",
    fields: &[("service", Shape::Object(&SERVICE_BACKEND)), ("resource", Shape::Object(&LOCAL_OBJECT_REFERENCE))],
};

static SERVICE_BACKEND: Struct = Struct {
    go: "IngressServiceBackend",
    fields: &[("name", Shape::String), ("port", Shape::Object(&SERVICE_BACKEND_PORT))],
};

static SERVICE_BACKEND_PORT: Struct =
    Struct { go: "ServiceBackendPort", fields: &[("name", Shape::String), ("number", Shape::Int32)] };

static LOCAL_OBJECT_REFERENCE: Struct = Struct {
    go: "TypedLocalObjectReference",
    fields: &[("apiGroup", Shape::String), ("kind", Shape::String), ("name", Shape::String)],
};

static INGRESS_STATUS: Struct =
    Struct { go: "IngressStatus", fields: &[("loadBalancer", Shape::Object(&INGRESS_LB_STATUS))] };

static INGRESS_LB_STATUS: Struct =
    Struct { go: "IngressLoadBalancerStatus", fields: &[("ingress", Shape::List(&INGRESS_LB_INGRESS))] };

static INGRESS_LB_INGRESS: Struct = Struct {
    go: "IngressLoadBalancerIngress",
    fields: &[("ip", Shape::String), ("hostname", Shape::String), ("ports", Shape::List(&INGRESS_PORT_STATUS))],
};

static INGRESS_PORT_STATUS: Struct = Struct {
    go: "IngressPortStatus",
    fields: &[("port", Shape::Int32), ("protocol", Shape::String), ("error", Shape::String)],
};

static INGRESS_CLASS: Struct = Struct {
    go: "IngressClass",
    fields: &[
        TYPE_META[0],
        TYPE_META[1],
        ("metadata", Shape::Object(&OBJECT_META)),
        ("spec", Shape::Object(&INGRESS_CLASS_SPEC)),
    ],
};

static INGRESS_CLASS_SPEC: Struct = Struct {
    go: "IngressClassSpec",
    fields: &[("controller", Shape::String), ("parameters", Shape::Object(&INGRESS_CLASS_PARAMETERS))],
};

static INGRESS_CLASS_PARAMETERS: Struct = Struct {
    go: "IngressClassParametersReference",
    fields: &[
        ("apiGroup", Shape::String),
        ("kind", Shape::String),
        ("name", Shape::String),
        ("scope", Shape::String),
        ("namespace", Shape::String),
    ],
};

static SERVICE: Struct = Struct {
    go: "Service",
    fields: &[
        TYPE_META[0],
        TYPE_META[1],
        ("metadata", Shape::Object(&OBJECT_META)),
        ("spec", Shape::Object(&SERVICE_SPEC)),
        ("status", Shape::Object(&SERVICE_STATUS)),
    ],
};

static SERVICE_SPEC: Struct = Struct {
    go: "ServiceSpec",
    fields: &[
        ("ports", Shape::List(&SERVICE_PORT)),
        ("selector", Shape::StringMap),
        ("clusterIP", Shape::String),
        ("clusterIPs", Shape::StringList),
        ("type", Shape::String),
        ("externalIPs", Shape::StringList),
        ("sessionAffinity", Shape::String),
        ("loadBalancerIP", Shape::String),
        ("loadBalancerSourceRanges", Shape::StringList),
        ("externalName", Shape::String),
        ("externalTrafficPolicy", Shape::String),
        ("healthCheckNodePort", Shape::Int32),
        ("publishNotReadyAddresses", Shape::Bool),
        ("sessionAffinityConfig", Shape::Any),
        ("ipFamilies", Shape::StringList),
        ("ipFamilyPolicy", Shape::String),
        ("allocateLoadBalancerNodePorts", Shape::Bool),
        ("loadBalancerClass", Shape::String),
        ("internalTrafficPolicy", Shape::String),
        ("trafficDistribution", Shape::String),
    ],
};

static SERVICE_PORT: Struct = Struct {
    go: "ServicePort",
    fields: &[
        ("name", Shape::String),
        ("protocol", Shape::String),
        ("appProtocol", Shape::String),
        ("port", Shape::Int32),
        ("targetPort", Shape::IntOrString),
        ("nodePort", Shape::Int32),
    ],
};

static SERVICE_STATUS: Struct = Struct {
    go: "ServiceStatus",
    fields: &[("loadBalancer", Shape::Object(&SERVICE_LB_STATUS)), ("conditions", Shape::Any)],
};

static SERVICE_LB_STATUS: Struct =
    Struct { go: "LoadBalancerStatus", fields: &[("ingress", Shape::List(&SERVICE_LB_INGRESS))] };

static SERVICE_LB_INGRESS: Struct = Struct {
    go: "LoadBalancerIngress",
    fields: &[("ip", Shape::String), ("hostname", Shape::String), ("ipMode", Shape::String), ("ports", Shape::Any)],
};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ingress_with_port(port: Value) -> Value {
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "a"},
               "spec": {"rules": [{"http": {"paths": [{"path": "/", "pathType": "Prefix",
                        "backend": {"service": {"name": "s", "port": port}}}]}}]}})
    }

    #[test]
    fn type_errors_in_go_words() {
        let e = check(&INGRESS, &ingress_with_port(json!({"number": "<service-port>"}))).unwrap();
        assert_eq!(
            e,
            DecodeError::Type {
                field: "spec.rules[0].http.paths[0].backend.service.port.number".into(),
                message: "json: cannot unmarshal string into Go struct field ServiceBackendPort.spec.rules.http.paths.backend.service.port.number of type int32".into(),
            }
        );
        let e = check(&INGRESS, &ingress_with_port(json!({"number": 1.5}))).unwrap();
        assert!(matches!(e, DecodeError::Type { message, .. } if message.contains("cannot unmarshal number 1.5 into")));
        let e = check(&INGRESS, &json!({"metadata": {"annotations": {"a": 1}}})).unwrap();
        assert_eq!(
            e,
            DecodeError::Type {
                field: "metadata.annotations.a".into(),
                message:
                    "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string"
                        .into(),
            }
        );
        let e = check(&INGRESS, &json!({"spec": {"rules": ["x"]}})).unwrap();
        assert!(
            matches!(e, DecodeError::Type { message, .. } if message.ends_with("IngressSpec.spec.rules of type v1.IngressRule"))
        );
        let e = check(&INGRESS, &json!({"spec": {"rules": {"host": "x"}}})).unwrap();
        assert!(
            matches!(e, DecodeError::Type { message, .. } if message.ends_with("cannot unmarshal object into Go struct field IngressSpec.spec.rules of type []v1.IngressRule"))
        );
    }

    #[test]
    fn unknown_fields_with_indexes() {
        let e = check(&INGRESS, &ingress_with_port(json!({"number": 80, "numbr": 80}))).unwrap();
        assert_eq!(
            e,
            DecodeError::Unknown(alloc::vec!["spec.rules[0].http.paths[0].backend.service.port.numbr".into()])
        );
        assert_eq!(
            cannot_be_handled("Ingress", &e),
            "Ingress in version \"v1\" cannot be handled as a Ingress: strict decoding error: unknown field \"spec.rules[0].http.paths[0].backend.service.port.numbr\""
        );
        // A type error wins: the decode stops there.
        let both = json!({"spec": {"x": 1, "ingressClassName": 5}});
        assert!(matches!(check(&INGRESS, &both), Some(DecodeError::Type { .. })));
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn closest_known_field() {
        assert_eq!(closest_field(&INGRESS, "spec.rules[0].http.paths[0].pathtype"), Some("pathType"));
        assert_eq!(closest_field(&INGRESS, "spec.ingresClassName"), Some("ingressClassName"));
        assert_eq!(closest_field(&INGRESS, "spec.rules[0].http.paths[0].backend.serviceName"), None);
        assert_eq!(closest_field(&SERVICE, "spec.prots"), Some("ports"));
    }

    #[test]
    fn nulls_and_unmodelled_subtrees_decode() {
        let dump = json!({"metadata": {"managedFields": [{"manager": "kubectl", "fieldsV1": {"f:spec": {}}}],
                          "annotations": null, "labels": {"a": null}}, "spec": {"rules": [null], "tls": null}});
        assert_eq!(check(&INGRESS, &dump), None);
        let svc =
            json!({"spec": {"ports": [{"port": 80, "targetPort": "http"}], "sessionAffinityConfig": {"clientIP": {}}}});
        assert_eq!(check(&SERVICE, &svc), None);
    }
}
