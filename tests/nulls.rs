//! The apiserver reads `null`, an empty value and a missing field alike for every optional field
//! (`annotations:` with nothing under it, `labels: null`, `rules: null`, ...). Every field of every
//! kind the model reads is set to each of the three in turn; the input must load, as the object it was.

use ingress_router::input;
use ingress_router::testing::InputObjects;
use ingress_router::testing::model::Object;
use serde_json::{Value, json};

fn ingress() -> Value {
    json!({
        "apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
        "metadata": {"name": "web", "namespace": "shop", "uid": "u", "resourceVersion": "1", "generation": 1,
                     "creationTimestamp": "2024-01-01T00:00:00Z", "labels": {"app": "web"},
                     "annotations": {"nginx.ingress.kubernetes.io/ssl-redirect": "false"}},
        "spec": {
            "ingressClassName": "nginx",
            "defaultBackend": {"service": {"name": "web", "port": {"number": 80}}},
            "tls": [{"hosts": ["shop.example.com"], "secretName": "tls"}],
            "rules": [{"host": "shop.example.com", "http": {"paths": [
                {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"name": "http"}}}},
                {"path": "/r", "pathType": "Exact", "backend": {"resource": {"apiGroup": "k8s.example.com", "kind": "Bucket", "name": "b"}}}
            ]}}]
        },
        "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.1", "hostname": "lb", "ports": [{"port": 80, "protocol": "TCP", "error": "e"}]}]}}
    })
}

fn service() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "web", "namespace": "shop", "labels": {"a": "b"}, "annotations": {"x": "y"}},
        "spec": {"type": "LoadBalancer", "selector": {"app": "web"}, "clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"],
                 "externalIPs": ["198.51.100.1"], "loadBalancerIP": "198.51.100.2", "externalName": "x.example.com",
                 "ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP", "nodePort": 30080, "appProtocol": "http"}]},
        "status": {"loadBalancer": {"ingress": [{"ip": "198.51.100.3", "ipMode": "VIP", "ports": [{"port": 80}]}]},
                   "conditions": [{"type": "Ready", "status": "True", "observedGeneration": 1, "lastTransitionTime": "t", "reason": "r", "message": "m"}]}
    })
}

fn ingress_class() -> Value {
    json!({
        "apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
        "metadata": {"name": "nginx", "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"}},
        "spec": {"controller": "k8s.io/ingress-nginx",
                 "parameters": {"apiGroup": "k8s.example.com", "kind": "Params", "name": "p", "scope": "Namespace", "namespace": "ns"}}
    })
}

/// Every path below the root of `value` (object keys and array indexes), parents first.
fn paths(value: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                at.push(Step::Key(k.clone()));
                out.push(at.clone());
                paths(v, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Step::Index(i));
                out.push(at.clone());
                paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

#[derive(Clone, Copy, Debug)]
enum Variant {
    Null,
    Empty,
    Missing,
}

/// `value` with the field at `path` set to null, to the empty value of its type, or removed.
fn with(value: &Value, path: &[Step], variant: Variant) -> Value {
    let mut out = value.clone();
    let (last, parents) = path.split_last().unwrap();
    let mut parent = &mut out;
    for step in parents {
        parent = match step {
            Step::Key(k) => parent.get_mut(k.as_str()).unwrap(),
            Step::Index(i) => parent.get_mut(*i).unwrap(),
        };
    }
    let slot = match last {
        Step::Key(k) => parent.get_mut(k.as_str()).unwrap(),
        Step::Index(i) => parent.get_mut(*i).unwrap(),
    };
    let empty = match &*slot {
        Value::Object(_) => json!({}),
        Value::Array(_) => json!([]),
        Value::String(_) => json!(""),
        Value::Number(_) => json!(0),
        other => other.clone(),
    };
    match variant {
        Variant::Null => *slot = Value::Null,
        Variant::Empty => *slot = empty,
        Variant::Missing => match (last, parent) {
            (Step::Key(k), Value::Object(map)) => {
                map.remove(k.as_str());
            }
            (Step::Index(i), Value::Array(items)) => {
                items.remove(*i);
            }
            _ => unreachable!(),
        },
    }
    out
}

/// Fields whose value decides what the object is: without them it is not this kind any more.
fn identifies_kind(path: &[Step]) -> bool {
    matches!(path, [Step::Key(k)] if k == "kind" || k == "apiVersion")
}

fn check(object: Value, kind: &str) {
    let mut all = Vec::new();
    paths(&object, &mut Vec::new(), &mut all);
    let mut tried = 0;
    for path in all.iter().filter(|p| !identifies_kind(p)) {
        for variant in [Variant::Null, Variant::Empty, Variant::Missing] {
            let changed = with(&object, path, variant);
            for text in [changed.to_string(), yaml(&changed)] {
                let loaded =
                    input::parse("x", &text).unwrap_or_else(|e| panic!("{kind} {path:?} {variant:?}: {e}\n{text}"));
                assert_eq!(loaded.len(), 1, "{kind} {path:?} {variant:?}: {:?}", loaded.notes);
                assert_eq!(loaded.kinds().next(), Some(kind));
            }
            tried += 1;
        }
    }
    assert!(tried > 30, "{kind}: only {tried} variants");
}

/// Block YAML as people write it: a `null` is an empty value (`annotations:` and nothing under it).
fn yaml(value: &Value) -> String {
    fn write(value: &Value, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        match value {
            Value::Object(map) if !map.is_empty() => {
                for (k, v) in map {
                    out.push_str(&format!("{pad}{k:?}:"));
                    scalar_or_nested(v, indent, out);
                }
            }
            Value::Array(items) if !items.is_empty() => {
                for v in items {
                    out.push_str(&format!("{pad}-"));
                    scalar_or_nested(v, indent, out);
                }
            }
            other => out.push_str(&format!("{pad}{other}\n")),
        }
    }
    fn scalar_or_nested(v: &Value, indent: usize, out: &mut String) {
        match v {
            Value::Null => out.push('\n'), // `key:` and nothing after it
            Value::Object(m) if !m.is_empty() => {
                out.push('\n');
                write(v, indent + 2, out);
            }
            Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                write(v, indent + 2, out);
            }
            other => out.push_str(&format!(" {other}\n")),
        }
    }
    let mut out = String::new();
    write(value, 0, &mut out);
    out
}

#[test]
fn every_ingress_field_null_empty_or_missing() {
    check(ingress(), "Ingress");
}

#[test]
fn every_service_field_null_empty_or_missing() {
    check(service(), "Service");
}

#[test]
fn every_ingress_class_field_null_empty_or_missing() {
    check(ingress_class(), "IngressClass");
}

#[test]
fn list_with_null_parts() {
    for text in [
        "apiVersion: v1\nkind: List\nitems:\n",
        "apiVersion: v1\nkind: List\nitems: null\nmetadata:\n",
        "apiVersion: v1\nkind: List\n",
        "apiVersion: v1\nkind: List\nitems: []\nmetadata: {resourceVersion: \"\"}\n",
    ] {
        let loaded = input::parse("x", text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(loaded.is_empty() && loaded.notes.is_empty(), "{text}: {loaded:?}");
    }
    let list = json!({"apiVersion": "v1", "kind": "List", "items": [ingress(), service(), ingress_class()]});
    let mut all = Vec::new();
    paths(&list, &mut Vec::new(), &mut all);
    for path in
        all.iter().filter(|p| p.len() > 2 && !matches!(p[2], Step::Key(ref k) if k == "kind" || k == "apiVersion"))
    {
        let changed = with(&list, path, Variant::Null);
        let loaded = input::parse("x", &yaml(&changed)).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert_eq!(loaded.len(), 3, "{path:?}");
    }
}

#[test]
fn the_issue_examples_load_as_empty() {
    let text = "\
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations:
  labels: null
spec:
  rules: null
  tls:
---
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
spec:
  selector:
  ports:
  - port: 80
";
    let loaded = input::parse("x.yaml", text).unwrap();
    let objects = loaded.into_objects();
    let Object::Ingress(ingress) = &objects[0] else { panic!() };
    assert!(ingress.metadata.annotations.is_empty() && ingress.metadata.labels.is_empty());
    assert_eq!(ingress.spec.rules, None);
    let Object::Service(service) = &objects[1] else { panic!() };
    assert!(service.metadata.annotations.is_empty() && service.spec.selector.is_empty());
    // A null annotation value is "" (Go's JSON decoder stores the zero value).
    let text = "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata:\n  name: a\n  annotations:\n    x:\n";
    let Object::Ingress(i) = &input::parse("x", text).unwrap().into_objects()[0] else { panic!() };
    assert_eq!(i.metadata.annotations.get("x").map(String::as_str), Some(""));
}
