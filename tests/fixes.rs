//! Every suggested fix must itself pass `validate`: each diagnostic's fix is applied to its input
//! as a user would (by the words of the fix), then the result is validated as the apiserver would
//! and linted again: no apiserver error, and the diagnostic is gone.

use ingress_router::testing::InputObjects;
use ingress_router::testing::LintObjects;
use ingress_router::testing::compile_objects as compile;
use ingress_router::testing::model::Object;
use ingress_router::testing::validation::{self, Operation};
use ingress_router::{Code, Diagnostic};
use ingress_router::{CompileOptions, input};
use serde_json::{Value, json};

/// The inputs: each shows one or more diagnostics that carry a mechanical fix.
const CASES: &[&str] = &[
    // deprecated-class-annotation, movable value
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a, annotations: {kubernetes.io/ingress.class: nginx}}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n",
    // deprecated-class-annotation whose value is no valid class name (the fix the tool used to get wrong)
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a, annotations: {kubernetes.io/ingress.class: Nginx_Internal}}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n",
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a, annotations: {kubernetes.io/ingress.class: 'nginx public'}}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n",
    // unknown-ingress-class with a suggestion
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a}\nspec: {ingressClassName: ngnix, defaultBackend: {service: {name: web, port: {number: 80}}}}\n---\nkind: IngressClass\napiVersion: networking.k8s.io/v1\nmetadata: {name: nginx}\nspec: {controller: k8s.io/ingress-nginx}\n",
    // unknown-annotation, misspelled prefix, removed annotation, another controller's typo
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a, annotations: {nginx.ingress.kubernetes.io/ssl-redirectt: 'false', ngnix.ingress.kubernetes.io/proxy-body-size: 8m, nginx.ingress.kubernetes.io/enable-influxdb: 'true', alb.ingress.kubernetes.io/healthcheck-pth: /healthz}}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}\n",
    // regex-path-literal and glob-path
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a}\nspec:\n  rules:\n  - http:\n      paths:\n      - {path: '/api/(.*)', pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}\n      - {path: '/static/*', pathType: ImplementationSpecific, backend: {service: {name: web, port: {number: 80}}}}\n",
    // missing-service (suggested), missing-port-name (suggested), missing-port-number (suggested)
    "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: a}\nspec:\n  rules:\n  - http:\n      paths:\n      - {path: /a, pathType: Prefix, backend: {service: {name: wbe, port: {number: 80}}}}\n      - {path: /b, pathType: Prefix, backend: {service: {name: web, port: {name: htpp}}}}\n      - {path: /c, pathType: Prefix, backend: {service: {name: web, port: {number: 8080}}}}\n---\nkind: Service\napiVersion: v1\nmetadata: {name: web}\nspec: {ports: [{name: http, port: 80, targetPort: 8080}]}\n",
];

fn values(yaml: &str) -> Vec<Value> {
    let parsed = input::parse("case.yaml", yaml).expect("case parses");
    parsed.into_objects().iter().map(|o| serde_json::to_value(o).unwrap()).collect()
}

fn objects(values: &[Value]) -> Vec<Object> {
    let text = serde_json::to_string(values).unwrap();
    input::parse("fixed.json", &text).expect("fixed input parses").into_objects()
}

fn lint_all(objects: &[Object]) -> Vec<Diagnostic> {
    compile(objects, &CompileOptions::default()).lint_objects(objects)
}

/// Where a field path points, created on the way (`spec.rules[0].http.paths[1].path`).
fn slot<'v>(value: &'v mut Value, path: &str) -> &'v mut Value {
    let mut current = value;
    for part in path.split('.') {
        let (key, index) = match part.split_once('[') {
            Some((k, rest)) => (k, Some(rest.trim_end_matches(']').parse::<usize>().unwrap())),
            None => (part, None),
        };
        current = current.as_object_mut().unwrap().entry(key).or_insert(json!({}));
        if let Some(i) = index {
            current = &mut current[i];
        }
    }
    current
}

fn quoted(text: &str) -> String {
    text.split('"').nth(1).unwrap_or_else(|| panic!("no quoted value in {text:?}")).to_string()
}

fn annotations(v: &mut Value) -> &mut serde_json::Map<String, Value> {
    slot(v, "metadata.annotations").as_object_mut().unwrap()
}

/// Applies `d.fix` to the object it names first, as a reader of the fix would.
fn apply(d: &Diagnostic, values: &mut Vec<Value>) {
    let target = &d.objects[0];
    let i = values
        .iter()
        .position(|v| v["kind"] == target.kind && v["metadata"]["name"] == target.name.as_str())
        .expect("the diagnostic names an object of the input");
    let field = target.field.clone().unwrap_or_default();
    let key = field.strip_prefix("metadata.annotations[").map(|k| k.trim_end_matches(']').to_string());
    let fix = d.fix.as_str();
    match d.code {
        Code::DeprecatedClassAnnotation if fix.starts_with("create an IngressClass") => {
            let name = quoted(fix);
            values.push(json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
                               "metadata": {"name": name}, "spec": {"controller": "example.com/ingress-controller"}}));
            annotations(&mut values[i]).remove(key.as_deref().unwrap());
            *slot(&mut values[i], "spec.ingressClassName") = json!(name);
        }
        Code::DeprecatedClassAnnotation => {
            let value = fix.strip_prefix("set spec.ingressClassName: ").unwrap().split(' ').next().unwrap().to_string();
            annotations(&mut values[i]).remove(key.as_deref().unwrap());
            *slot(&mut values[i], "spec.ingressClassName") = json!(value);
        }
        Code::UnknownIngressClass => *slot(&mut values[i], "spec.ingressClassName") = json!(quoted(fix)),
        Code::UnknownAnnotation | Code::MisspelledAnnotationPrefix => {
            let new = fix.strip_prefix("rename the annotation to ").unwrap().to_string();
            let map = annotations(&mut values[i]);
            let value = map.remove(key.as_deref().unwrap()).unwrap();
            map.insert(new, value);
        }
        Code::RemovedAnnotation => {
            annotations(&mut values[i]).remove(key.as_deref().unwrap());
        }
        Code::RegexPathLiteral => {
            let plain = fix.rsplit("such as ").next().map(quoted_or_plain).unwrap();
            *slot(&mut values[i], &field) = json!(plain);
        }
        Code::GlobPath => {
            let rest = fix.strip_prefix("write path: ").unwrap();
            let path = rest.split(' ').next().unwrap();
            *slot(&mut values[i], &field) = json!(path);
            let path_type = format!("{}.pathType", field.strip_suffix(".path").unwrap());
            *slot(&mut values[i], &path_type) = json!("Prefix");
        }
        Code::MissingService => {
            let at = fix.strip_prefix("set ").unwrap().split(' ').next().unwrap();
            *slot(&mut values[i], at) = json!(quoted(fix));
        }
        Code::MissingPortName => {
            let at = fix.strip_prefix("set ").unwrap().split(' ').next().unwrap();
            *slot(&mut values[i], at) = json!({"name": quoted(fix)});
        }
        Code::MissingPortNumber => {
            let at = fix.strip_prefix("set ").unwrap().split(' ').next().unwrap();
            let n: i64 = fix.rsplit(' ').next().unwrap().parse().unwrap();
            *slot(&mut values[i], at) = json!(n);
        }
        other => panic!("no mechanical fix for {other}: {fix}"),
    }
}

fn quoted_or_plain(text: &str) -> String {
    if text.contains('"') { quoted(text) } else { text.trim().to_string() }
}

const FIXABLE: &[Code] = &[
    Code::DeprecatedClassAnnotation,
    Code::UnknownIngressClass,
    Code::UnknownAnnotation,
    Code::MisspelledAnnotationPrefix,
    Code::RemovedAnnotation,
    Code::RegexPathLiteral,
    Code::GlobPath,
    Code::MissingService,
    Code::MissingPortName,
    Code::MissingPortNumber,
];

fn validation_errors(objects: &[Object]) -> Vec<String> {
    let mut errors = Vec::new();
    for o in objects {
        let found = match o {
            Object::Ingress(i) => validation::validate_ingress(i, Operation::Create),
            Object::IngressClass(c) => validation::validate_ingress_class(c),
            Object::Service(_) => Vec::new(),
        };
        errors.extend(found.iter().map(|e| format!("{} {}: {e}", o.kind(), o.metadata().name)));
    }
    errors
}

#[test]
fn every_fix_validates_and_clears_its_diagnostic() {
    let mut seen = Vec::new();
    for case in CASES {
        let original = values(case);
        assert!(validation_errors(&objects(&original)).is_empty(), "the case itself is valid: {case}");
        let diagnostics = lint_all(&objects(&original));
        let fixable: Vec<&Diagnostic> = diagnostics.iter().filter(|d| FIXABLE.contains(&d.code)).collect();
        assert!(!fixable.is_empty(), "no fixable diagnostic for {case}: {diagnostics:#?}");
        for d in fixable {
            let mut fixed = original.clone();
            apply(d, &mut fixed);
            let fixed_objects = objects(&fixed);
            let errors = validation_errors(&fixed_objects);
            assert!(
                errors.is_empty(),
                "fix {:?} of {} gives an object the apiserver rejects: {errors:?}",
                d.fix,
                d.code
            );
            let again = lint_all(&fixed_objects);
            assert!(
                !again.iter().any(|x| x.code == d.code && x.objects[0] == d.objects[0]),
                "fix {:?} does not clear {}: {again:#?}",
                d.fix,
                d.code
            );
            seen.push(d.code);
        }
    }
    for code in FIXABLE {
        assert!(seen.contains(code), "no case exercises the fix of {code}");
    }
}
