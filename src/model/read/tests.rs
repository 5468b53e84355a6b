//! The readers on every map in the repository's manifests, test cases and examples, and on random
//! values shaped like each object, with every field absent, `null`, of its type or of another.
//!
//! Until the model's derived `Deserialize` was removed, these tests held the readers against it
//! (commit 89834a1, "the differential tests"): the same object where the derive read one, an error
//! where it failed (the one difference: the derive reads a struct from a list, positionally). Now
//! they check what holds of the readers alone: what one reads, `Serialize` writes back as a value
//! it reads to the same object; what it refuses, its error names the field; and the types'
//! `Deserialize` is their reader.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Debug;

use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::*;
use crate::read::Take;

fn reads_back<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &Value, read: Take<T>) -> Result<(), String> {
    let first = read(&mut value.clone());
    let deserialized = serde_json::from_value::<T>(value.clone());
    if first.as_ref().ok() != deserialized.as_ref().ok() {
        return Err(format!("{value}\n  Deserialize: {deserialized:?}\n  reader: {first:?}"));
    }
    match first {
        Ok(object) => {
            let written = serde_json::to_value(&object).map_err(|e| format!("{value}: cannot be written: {e}"))?;
            match read(&mut written.clone()) {
                Ok(again) if again == object => Ok(()),
                again => Err(format!("{value}\n  read: {object:?}\n  written: {written}\n  read again: {again:?}")),
            }
        }
        Err(e) if value.is_object() && !e.to_string().contains(": expected ") => {
            Err(format!("{value}: the error names no field: {e}"))
        }
        Err(_) => Ok(()),
    }
}

#[cfg(feature = "std")]
fn reads_back_as_every_object(value: &Value) -> Result<(), String> {
    reads_back(value, ingress)?;
    reads_back(value, ingress_class)?;
    reads_back(value, service)?;
    reads_back(value, object_meta)?;
    reads_back(value, condition)
}

#[test]
fn errors_name_the_field_and_what_was_expected() {
    let error = |mut v: Value| ingress(&mut v).unwrap_err().to_string();
    assert_eq!(
        error(
            json!({"spec": {"rules": [{}, {"http": {"paths": [{}, {"backend": {"service": {"port": {"number": 1.5}}}}]}}]}})
        ),
        "spec.rules[1].http.paths[1].backend.service.port.number: expected an integer from -9223372036854775808 to 9223372036854775807, found 1.5"
    );
    // Beyond 64 bits (2^64, as JSON and YAML read it: a float), in every integer field.
    let huge: Value = serde_json::from_str("18446744073709551616").unwrap();
    let range = "expected an integer from -9223372036854775808 to 9223372036854775807, found 1.8446744073709552e+19";
    let number = json!({"spec": {"defaultBackend": {"service": {"port": {"number": huge}}}}});
    assert_eq!(error(number), format!("spec.defaultBackend.service.port.number: {range}"));
    assert_eq!(error(json!({"metadata": {"generation": huge}})), format!("metadata.generation: {range}"));
    let lb = json!({"loadBalancer": {"ingress": [{"ports": [{"port": huge}]}]}});
    assert_eq!(error(json!({"status": lb})), format!("status.loadBalancer.ingress[0].ports[0].port: {range}"));
    let service_error = |mut v: Value| service(&mut v).unwrap_err().to_string();
    for field in ["port", "nodePort"] {
        let v = json!({"spec": {"ports": [{field: huge}]}});
        assert_eq!(service_error(v), format!("spec.ports[0].{field}: {range}"));
    }
    let mut v = json!({"status": {"conditions": [{"observedGeneration": -1.5}]}});
    assert!(
        service(&mut v)
            .unwrap_err()
            .to_string()
            .starts_with("status.conditions[0].observedGeneration: expected an integer from")
    );
    assert_eq!(
        error(json!({"spec": {"tls": [{"hosts": [null, 3]}]}})),
        "spec.tls[0].hosts[1]: expected a string, found 3"
    );
    assert_eq!(
        error(json!({"metadata": {"annotations": {"a": null, "b": ["x"]}}})),
        "metadata.annotations[\"b\"]: expected a string, found a list"
    );
    assert_eq!(error(json!({"spec": {"rules": {}}})), "spec.rules: expected a list, found a map");
    assert_eq!(error(json!({"spec": []})), "spec: expected a map, found a list");
    assert_eq!(error(json!("Ingress")), "expected a map, found the string \"Ingress\"");
}

#[test]
fn null_reads_as_the_zero_value() {
    let read = ingress(&mut json!({"metadata": null, "spec": {"tls": [null, {"hosts": [null]}], "rules": [null, {"http": {"paths": [null]}}]},
                               "status": null}))
    .unwrap();
    assert_eq!(read.spec.tls, [IngressTls::default(), IngressTls { hosts: ["".into()].into(), secret_name: None }]);
    let rules = read.spec.rules.unwrap();
    assert_eq!(rules[1].http.as_ref().unwrap().paths, [HttpIngressPath::default()]);
    assert_eq!((rules[0].clone(), read.status), (IngressRule::default(), None));
    assert_eq!(ingress(&mut json!({"spec": {"rules": null}})).unwrap().spec.rules, None);
    assert_eq!(ingress(&mut json!({"spec": {"rules": []}})).unwrap().spec.rules, Some(Vec::new()));
    let meta = object_meta(&mut json!({"name": null, "labels": {"a": null}, "annotations": null})).unwrap();
    assert_eq!((meta.name.as_str(), meta.labels["a"].as_str(), meta.annotations.len()), ("", "", 0));
}

/// Every map in the repository's manifests, test cases and examples, read as each object.
#[cfg(feature = "std")]
#[test]
fn the_repository_s_objects_read_and_read_back() {
    extern crate std;
    use std::path::Path;

    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("node_modules") {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "json" || e == "yaml" || e == "yml") {
                out.push(path);
            }
        }
    }
    fn maps<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
        match value {
            Value::Object(map) => {
                out.push(value);
                map.values().for_each(|v| maps(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| maps(v, out)),
            _ => {}
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in ["tests", "examples", "pkg/test", "pkg/tests", "envoy/tests", "web/gallery"] {
        files(&root.join(dir), &mut paths);
    }
    let (mut documents, mut objects) = (Vec::new(), 0);
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        if path.extension().is_some_and(|e| e == "json") {
            documents.extend(serde_json::from_str::<Value>(&text).ok());
        } else {
            for document in serde_norway::Deserializer::from_str(&text) {
                // A file the tests use for its bad YAML reads up to its error.
                match serde::Deserialize::deserialize(document) {
                    Ok(value) => documents.push(value),
                    Err(_) => break,
                }
            }
        }
    }
    let mut failures = Vec::new();
    for document in &documents {
        let mut found = Vec::new();
        maps(document, &mut found);
        objects += found.iter().filter(|m| m.get("kind").is_some()).count();
        failures.extend(found.into_iter().filter_map(|m| reads_back_as_every_object(m).err()));
    }
    assert!(paths.len() > 50 && objects > 500, "{} files, {objects} objects", paths.len());
    assert!(failures.is_empty(), "{} failures, the first:\n{}", failures.len(), failures[0]);
}

/// The shape of an object's fields, for values that follow it, or not, at each field.
#[derive(Debug)]
enum Shape {
    Str,
    Int,
    Any,
    Map,
    List(&'static Shape),
    Obj(&'static [(&'static str, &'static Shape)]),
}

use Shape::{Any, Int, List, Map, Obj, Str};

static META: Shape = Obj(&[
    ("name", &Str),
    ("namespace", &Str),
    ("uid", &Str),
    ("resourceVersion", &Str),
    ("generation", &Int),
    ("creationTimestamp", &Str),
    ("labels", &Map),
    ("annotations", &Map),
]);
static BACKEND: Shape = Obj(&[
    ("service", &Obj(&[("name", &Str), ("port", &Obj(&[("name", &Str), ("number", &Int)]))])),
    ("resource", &Obj(&[("apiGroup", &Str), ("kind", &Str), ("name", &Str)])),
]);
static PATH: Shape = Obj(&[("path", &Str), ("pathType", &Str), ("backend", &BACKEND)]);
static RULE: Shape = Obj(&[("host", &Str), ("http", &Obj(&[("paths", &List(&PATH))]))]);
static LB_INGRESS: Shape = Obj(&[
    ("ip", &Str),
    ("hostname", &Str),
    ("ipMode", &Str),
    ("ports", &List(&Obj(&[("port", &Int), ("protocol", &Str), ("error", &Str)]))),
]);
static INGRESS: Shape = Obj(&[
    ("apiVersion", &Str),
    ("kind", &Str),
    ("metadata", &META),
    (
        "spec",
        &Obj(&[
            ("ingressClassName", &Str),
            ("defaultBackend", &BACKEND),
            ("tls", &List(&Obj(&[("hosts", &List(&Str)), ("secretName", &Str)]))),
            ("rules", &List(&RULE)),
        ]),
    ),
    ("status", &Obj(&[("loadBalancer", &Obj(&[("ingress", &List(&LB_INGRESS))]))])),
]);
static CLASS: Shape = Obj(&[
    ("apiVersion", &Str),
    ("kind", &Str),
    ("metadata", &META),
    (
        "spec",
        &Obj(&[
            ("controller", &Str),
            (
                "parameters",
                &Obj(&[("apiGroup", &Str), ("kind", &Str), ("name", &Str), ("scope", &Str), ("namespace", &Str)]),
            ),
        ]),
    ),
]);
static CONDITION: Shape = Obj(&[
    ("type", &Str),
    ("status", &Str),
    ("observedGeneration", &Int),
    ("lastTransitionTime", &Str),
    ("reason", &Str),
    ("message", &Str),
]);
static SERVICE: Shape = Obj(&[
    ("apiVersion", &Str),
    ("kind", &Str),
    ("metadata", &META),
    (
        "spec",
        &Obj(&[
            ("type", &Str),
            ("selector", &Map),
            (
                "ports",
                &List(&Obj(&[
                    ("name", &Str),
                    ("port", &Int),
                    ("targetPort", &Any),
                    ("protocol", &Str),
                    ("nodePort", &Int),
                    ("appProtocol", &Str),
                ])),
            ),
            ("clusterIP", &Str),
            ("clusterIPs", &List(&Str)),
            ("externalName", &Str),
            ("externalIPs", &List(&Str)),
            ("loadBalancerIP", &Str),
        ]),
    ),
    ("status", &Obj(&[("loadBalancer", &Obj(&[("ingress", &List(&LB_INGRESS))])), ("conditions", &List(&CONDITION))])),
]);

/// A value of another type than the field's.
fn wrong() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(json!(true)),
        Just(json!(7)),
        Just(json!(-1.5)),
        Just(json!("x")),
        Just(json!([])),
        Just(json!(["a", null])),
        Just(json!({})),
        Just(json!({"k": 1})),
    ]
    .boxed()
}

fn string() -> BoxedStrategy<Value> {
    prop_oneof![Just(json!("")), "[a-z/.:-]{1,8}".prop_map(Value::from)].boxed()
}

fn integer() -> BoxedStrategy<Value> {
    prop_oneof![
        (-3i64..70_000).prop_map(Value::from),
        proptest::arbitrary::any::<i64>().prop_map(Value::from),
        Just(json!(i64::MAX as u64 + 1)),
        Just(json!(u64::MAX)),
        Just(json!(80.0)),
        Just(json!(0.5)),
        Just(json!(-0.0)),
    ]
    .boxed()
}

/// A value for `shape`: mostly of its type, sometimes `null` or of another type.
fn shaped(shape: &'static Shape) -> BoxedStrategy<Value> {
    let right = match shape {
        Str => string(),
        Int => integer(),
        Any => prop_oneof![string(), integer(), wrong()].boxed(),
        Map => {
            let item = prop_oneof![4 => string(), 1 => Just(Value::Null), 1 => wrong()];
            proptest::collection::btree_map("[a-z]{1,3}", item, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect()))
                .boxed()
        }
        List(item) => proptest::collection::vec(shaped(item), 0..3).prop_map(Value::Array).boxed(),
        Obj(fields) => {
            let fields: Vec<_> = fields
                .iter()
                .map(|(name, field)| proptest::option::weighted(0.6, shaped(field)).prop_map(move |v| (*name, v)))
                .collect();
            (fields, proptest::option::weighted(0.2, string()))
                .prop_map(|(fields, unknown)| {
                    let mut map: serde_json::Map<String, Value> =
                        fields.into_iter().filter_map(|(name, v)| Some((name.to_string(), v?))).collect();
                    if let Some(unknown) = unknown {
                        map.insert("unknownField".to_string(), unknown);
                    }
                    Value::Object(map)
                })
                .boxed()
        }
    };
    prop_oneof![8 => right, 1 => Just(Value::Null), 1 => wrong()].boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn random_ingresses_read_back(value in shaped(&INGRESS)) {
        reads_back(&value, ingress).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_classes_read_back(value in shaped(&CLASS)) {
        reads_back(&value, ingress_class).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_services_read_back(value in shaped(&SERVICE)) {
        reads_back(&value, service).map_err(TestCaseError::fail)?;
    }
}
