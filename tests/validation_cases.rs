//! Validation against the project's cases (`tests/cases/{invalid,valid}.json`, see
//! `tests/cases/README.md`) and the rules the cases do not cover.
//!
//! A missing or empty case file fails the test: it never passes by checking nothing.

use ingress_router::testing::model::{Ingress, IngressClass};
use ingress_router::testing::validation::{
    FieldError, Operation, invalid_message, validate_ingress, validate_ingress_class,
};
use serde_json::{Value, json};

const KIND: &str = "Ingress.networking.k8s.io";

fn load_cases(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/cases/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} holds no cases");
    cases
}

fn ingress(value: &Value) -> Ingress {
    serde_json::from_value(value.clone()).expect("case ingress parses")
}

/// An error as the cases write it: `badValue` only when the message shows a value.
fn as_case(e: &FieldError) -> Value {
    let mut v = json!({
        "type": e.error_type.go_name(),
        "field": e.field,
        "detail": e.detail,
        "message": e.to_string(),
    });
    if let Some(bad) = &e.bad_value {
        v["badValue"] = bad.clone();
    }
    v
}

fn expected_error(e: &Value) -> Value {
    let mut v = json!({
        "type": e["type"],
        "field": e["field"],
        "detail": e["detail"],
        "message": e["message"],
    });
    if let Some(bad) = e.get("badValue") {
        v["badValue"] = bad.clone();
    }
    v
}

#[test]
fn invalid_cases() {
    let cases = load_cases("invalid.json");
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let new = ingress(&case["ingress"]);
        let old = case.get("old_ingress").map(ingress);
        let op = match (case["operation"].as_str(), &old) {
            (Some("update"), Some(old)) => Operation::Update { old },
            (Some("update"), None) => panic!("{id}: update case without old_ingress"),
            _ => Operation::Create,
        };
        let errors = validate_ingress(&new, op);
        let got: Vec<Value> = errors.iter().map(as_case).collect();
        let want: Vec<Value> = case["expect_errors"].as_array().unwrap().iter().map(expected_error).collect();
        if got != want {
            failures.push(format!(
                "{id}: errors differ\n  want: {}\n  got:  {}",
                serde_json::to_string_pretty(&want).unwrap(),
                serde_json::to_string_pretty(&got).unwrap()
            ));
            continue;
        }
        let message = invalid_message(KIND, &new.metadata.name, &errors);
        if message != case["status_message"].as_str().unwrap() {
            failures
                .push(format!("{id}: status message differs\n  want: {}\n  got:  {message}", case["status_message"]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} invalid cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{} invalid cases matched", cases.len());
}

#[test]
fn valid_cases() {
    let cases = load_cases("valid.json");
    let mut failures = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        let errors = validate_ingress(&ingress(&case["ingress"]), Operation::Create);
        if !errors.is_empty() {
            let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
            failures.push(format!("{id}: expected no errors, got {messages:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} valid cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    eprintln!("{} valid cases accepted", cases.len());
}

// ---------------------------------------------------------------------------------------------
// Rules beyond the case files
// ---------------------------------------------------------------------------------------------

/// A valid Ingress with one rule and one path, to be altered by each test.
fn base() -> Value {
    json!({
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": {"name": "test", "namespace": "default"},
        "spec": {
            "rules": [{
                "host": "foo.bar.com",
                "http": {"paths": [{
                    "path": "/foo",
                    "pathType": "Prefix",
                    "backend": {"service": {"name": "svc", "port": {"number": 80}}}
                }]}
            }]
        }
    })
}

fn messages_for(value: &Value, op: Operation<'_>) -> Vec<String> {
    validate_ingress(&ingress(value), op).iter().map(ToString::to_string).collect()
}

fn create_messages(value: &Value) -> Vec<String> {
    messages_for(value, Operation::Create)
}

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD_MSG: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

#[test]
fn base_is_valid() {
    assert_eq!(create_messages(&base()), Vec::<String>::new());
}

#[test]
fn wildcard_host_is_valid() {
    let mut v = base();
    v["spec"]["rules"][0]["host"] = json!("*.example.com");
    assert_eq!(create_messages(&v), Vec::<String>::new());
}

#[test]
fn wildcard_in_the_middle_is_invalid() {
    let mut v = base();
    v["spec"]["rules"][0]["host"] = json!("foo.*.com");
    assert_eq!(create_messages(&v), vec![format!("spec.rules[0].host: Invalid value: \"foo.*.com\": {WILDCARD_MSG}")]);
}

#[test]
fn ipv6_host_is_rejected_twice() {
    let mut v = base();
    v["spec"]["rules"][0]["host"] = json!("::1");
    assert_eq!(
        create_messages(&v),
        vec![
            "spec.rules[0].host: Invalid value: \"::1\": must be a DNS name, not an IP address".to_string(),
            format!("spec.rules[0].host: Invalid value: \"::1\": {SUBDOMAIN_MSG}"),
        ]
    );
}

#[test]
fn exact_path_with_double_slash() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["path"] = json!("/foo//bar/.");
    v["spec"]["rules"][0]["http"]["paths"][0]["pathType"] = json!("Exact");
    assert_eq!(
        create_messages(&v),
        vec![
            "spec.rules[0].http.paths[0].path: Invalid value: \"/foo//bar/.\": must not contain '//'",
            "spec.rules[0].http.paths[0].path: Invalid value: \"/foo//bar/.\": cannot end with '/.'",
        ]
    );
}

#[test]
fn empty_prefix_path_is_not_absolute() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0].as_object_mut().unwrap().remove("path");
    assert_eq!(
        create_messages(&v),
        vec!["spec.rules[0].http.paths[0].path: Invalid value: \"\": must be an absolute path"]
    );
}

#[test]
fn missing_path_type_stops_the_path_checks() {
    let mut v = base();
    let p = &mut v["spec"]["rules"][0]["http"]["paths"][0];
    p.as_object_mut().unwrap().remove("pathType");
    p["path"] = json!("relative");
    p["backend"] = json!({});
    assert_eq!(
        create_messages(&v),
        vec!["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"]
    );
}

#[test]
fn empty_paths_list_is_required() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"] = json!([]);
    assert_eq!(create_messages(&v), vec!["spec.rules[0].http.paths: Required value"]);
}

#[test]
fn empty_rules_list_renders_as_empty_array() {
    let mut v = base();
    v["spec"]["rules"] = json!([]);
    assert_eq!(
        create_messages(&v),
        vec!["spec: Invalid value: []: either `defaultBackend` or `rules` must be specified"]
    );
}

#[test]
fn backend_needs_service_or_resource() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"] = json!({});
    assert_eq!(
        create_messages(&v),
        vec!["spec.rules[0].http.paths[0].backend: Invalid value: \"\": resource or service backend is required"]
    );
}

#[test]
fn port_name_and_number_together() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["port"] = json!({"name": "http", "number": 80});
    assert_eq!(
        create_messages(&v),
        vec!["spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both port name & port number"]
    );
}

#[test]
fn port_name_without_letters() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["port"] = json!({"name": "8080"});
    assert_eq!(
        create_messages(&v),
        vec![
            "spec.rules[0].http.paths[0].backend.service.port.name: Invalid value: \"8080\": must contain at least one letter (a-z)"
        ]
    );
}

#[test]
fn negative_port_number() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["port"] = json!({"number": -1});
    assert_eq!(
        create_messages(&v),
        vec![
            "spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: -1: must be between 1 and 65535, inclusive"
        ]
    );
}

/// Kubernetes v1.36 turned `RelaxedServiceNameValidation` on (beta): service names are DNS-1123
/// labels, so a leading digit is accepted, on create as on update.
#[test]
fn service_name_must_be_dns1123_label() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["name"] = json!("1-svc");
    assert_eq!(create_messages(&v), Vec::<String>::new());
    let old = ingress(&base());
    assert_eq!(messages_for(&v, Operation::Update { old: &old }), Vec::<String>::new());
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["name"] = json!("Svc_1");
    assert_eq!(
        create_messages(&v),
        vec![format!(
            "spec.rules[0].http.paths[0].backend.service.name: Invalid value: \"Svc_1\": {DNS1123_LABEL_MSG}"
        )]
    );
}

/// No detail since Kubernetes 1.34 (kubernetes/kubernetes#132472 dropped "kind is required" and
/// "name is required" as redundant); v1.36.3 prints the bare `Required value`.
#[test]
fn resource_backend_kind_and_name_required() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"] = json!({"resource": {"apiGroup": "k8s.example.com"}});
    assert_eq!(
        create_messages(&v),
        vec![
            "spec.rules[0].http.paths[0].backend.resource.kind: Required value",
            "spec.rules[0].http.paths[0].backend.resource.name: Required value",
        ]
    );
    v["spec"]["defaultBackend"] = json!({"resource": {"kind": "", "name": "b"}});
    v["spec"]["rules"] = json!([]);
    let errors = validate_ingress(&ingress(&v), Operation::Create);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].detail, "");
    assert_eq!(errors[0].to_string(), "spec.defaultBackend.resource.kind: Required value");
}

#[test]
fn resource_backend_dot_name() {
    let mut v = base();
    v["spec"]["defaultBackend"] = json!({"resource": {"kind": "Bucket", "name": ".."}});
    v["spec"]["rules"] = json!([]);
    assert_eq!(create_messages(&v), vec!["spec.defaultBackend.resource.name: Invalid value: \"..\": may not be '..'"]);
}

#[test]
fn tls_hosts_and_secret_name() {
    let mut v = base();
    v["spec"]["tls"] = json!([
        {"hosts": ["*.example.com", "Bad.com", "1.2.3.4"], "secretName": "Secret_1"},
        {"hosts": ["*"]}
    ]);
    assert_eq!(
        create_messages(&v),
        vec![
            format!("spec.tls[0].hosts[1]: Invalid value: \"Bad.com\": {SUBDOMAIN_MSG}"),
            format!("spec.tls[0].secretName: Invalid value: \"Secret_1\": {SUBDOMAIN_MSG}"),
            format!("spec.tls[1].hosts[0]: Invalid value: \"*\": {WILDCARD_MSG}"),
        ]
    );
}

#[test]
fn class_annotation_must_match_class_name_on_create_only() {
    let mut v = base();
    v["metadata"]["annotations"] = json!({"kubernetes.io/ingress.class": "nginx"});
    v["spec"]["ingressClassName"] = json!("haproxy");
    let expected = "annotations.kubernetes.io/ingress.class: Invalid value: \"nginx\": must match `ingressClassName` when both are specified";
    assert_eq!(create_messages(&v), vec![expected]);
    let old = ingress(&v);
    assert_eq!(messages_for(&v, Operation::Update { old: &old }), Vec::<String>::new());
}

#[test]
fn metadata_name_missing_or_invalid() {
    let mut v = base();
    v["metadata"]["name"] = json!("");
    assert_eq!(create_messages(&v), vec!["metadata.name: Required value: name or generateName is required"]);
    v["metadata"]["name"] = json!("Test_1");
    assert_eq!(create_messages(&v), vec![format!("metadata.name: Invalid value: \"Test_1\": {SUBDOMAIN_MSG}")]);
    let errors = validate_ingress(&ingress(&v), Operation::Create);
    assert_eq!(
        invalid_message(KIND, "Test_1", &errors),
        format!(
            "Ingress.networking.k8s.io \"Test_1\" is invalid: metadata.name: Invalid value: \"Test_1\": {SUBDOMAIN_MSG}"
        )
    );
}

#[test]
fn namespace_defaults_and_must_be_a_label() {
    let mut v = base();
    v["metadata"].as_object_mut().unwrap().remove("namespace");
    assert_eq!(create_messages(&v), Vec::<String>::new());
    v["metadata"]["namespace"] = json!("my.ns");
    assert_eq!(create_messages(&v), vec!["metadata.namespace: Invalid value: \"my.ns\": must not contain dots"]);
}

#[test]
fn annotation_and_label_keys() {
    let mut v = base();
    v["metadata"]["annotations"] = json!({"Example.COM/Key": "x", "bad key": "y"});
    v["metadata"]["labels"] = json!({"app": "bad value!"});
    assert_eq!(
        create_messages(&v),
        vec![
            "metadata.labels: Invalid value: \"bad value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            "metadata.annotations: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ]
    );
}

#[test]
fn annotations_too_large() {
    let mut v = base();
    v["metadata"]["annotations"] = json!({"big": "x".repeat(256 * 1024)});
    assert_eq!(create_messages(&v), vec!["metadata.annotations: Too long: may not be more than 262144 bytes"]);
}

#[test]
fn update_keeps_an_invalid_secret_name_the_old_object_had() {
    let mut old = base();
    old["spec"]["tls"] = json!([{"hosts": ["foo.bar.com"], "secretName": "Old_Secret"}]);
    let mut new = old.clone();
    new["spec"]["tls"][0]["secretName"] = json!("New_Secret");
    assert_eq!(create_messages(&new).len(), 1);
    let old = ingress(&old);
    assert_eq!(messages_for(&new, Operation::Update { old: &old }), Vec::<String>::new());
    // An old object with valid secret names allows nothing.
    let valid_old = ingress(&base());
    assert_eq!(messages_for(&new, Operation::Update { old: &valid_old }).len(), 1);
}

#[test]
fn update_keeps_invalid_paths_under_a_wildcard_host() {
    let mut old = base();
    old["spec"]["rules"][0]["host"] = json!("*.foo.com");
    old["spec"]["rules"][0]["http"]["paths"][0]["path"] = json!("foo");
    let new = old.clone();
    assert_eq!(
        create_messages(&new),
        vec!["spec.rules[0].http.paths[0].path: Invalid value: \"foo\": must be an absolute path"]
    );
    let old = ingress(&old);
    assert_eq!(messages_for(&new, Operation::Update { old: &old }), Vec::<String>::new());
    // Not for rules whose host has no wildcard.
    let mut plain = new.clone();
    plain["spec"]["rules"][0]["host"] = json!("foo.com");
    assert_eq!(messages_for(&plain, Operation::Update { old: &old }).len(), 1);
}

#[test]
fn update_metadata_is_immutable() {
    let old = base();
    let mut new = base();
    new["metadata"]["name"] = json!("other");
    new["metadata"]["namespace"] = json!("prod");
    let old = ingress(&old);
    assert_eq!(
        messages_for(&new, Operation::Update { old: &old }),
        vec![
            "metadata.name: Invalid value: \"other\": field is immutable",
            "metadata.namespace: Invalid value: \"prod\": field is immutable",
        ]
    );
}

#[test]
fn aggregate_message_drops_repeats() {
    let mut new = base();
    new["metadata"]["labels"] = json!({"a/b/c": "x"});
    let old = ingress(&base());
    let errors = validate_ingress(&ingress(&new), Operation::Update { old: &old });
    // The update checks metadata labels twice, as the apiserver does; the message shows it once.
    assert_eq!(errors.len(), 2);
    let message = invalid_message(KIND, "test", &errors);
    assert!(message.starts_with(
        "Ingress.networking.k8s.io \"test\" is invalid: metadata.labels: Invalid value: \"a/b/c\": a valid label key"
    ));
    assert!(!message.contains("is invalid: ["));
}

#[test]
fn field_error_serializes_like_the_cases() {
    let mut v = base();
    v["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["name"] = json!("");
    let errors = validate_ingress(&ingress(&v), Operation::Create);
    assert_eq!(
        serde_json::to_value(&errors).unwrap(),
        json!([{
            "type": "FieldValueRequired",
            "field": "spec.rules[0].http.paths[0].backend.service.name",
            "detail": "",
            "message": "spec.rules[0].http.paths[0].backend.service.name: Required value"
        }])
    );
}

// ---------------------------------------------------------------------------------------------
// IngressClass
// ---------------------------------------------------------------------------------------------

fn class(value: Value) -> IngressClass {
    serde_json::from_value(value).expect("class parses")
}

fn class_messages(value: Value) -> Vec<String> {
    validate_ingress_class(&class(value)).iter().map(ToString::to_string).collect()
}

#[test]
fn ingress_class_valid() {
    let v = json!({"metadata": {"name": "nginx"}, "spec": {"controller": "k8s.io/ingress-nginx",
        "parameters": {"apiGroup": "k8s.example.com", "kind": "Params", "name": "p", "scope": "Namespace", "namespace": "ns"}}});
    assert_eq!(class_messages(v), Vec::<String>::new());
}

#[test]
fn ingress_class_controller_required() {
    assert_eq!(class_messages(json!({"metadata": {"name": "nginx"}})), vec!["spec.controller: Required value"]);
}

#[test]
fn ingress_class_controller_domain_prefixed() {
    assert_eq!(
        class_messages(json!({"metadata": {"name": "nginx"}, "spec": {"controller": "nginx"}})),
        vec!["spec.controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\")"]
    );
    assert_eq!(
        class_messages(json!({"metadata": {"name": "nginx"}, "spec": {"controller": "Acme.io/a b"}})),
        vec![
            format!("spec.controller: Invalid value: \"Acme.io\": {SUBDOMAIN_MSG}"),
            "spec.controller: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')".to_string(),
        ]
    );
}

#[test]
fn ingress_class_controller_too_long() {
    let controller = format!("example.com/{}", "a".repeat(250));
    assert_eq!(
        class_messages(json!({"metadata": {"name": "nginx"}, "spec": {"controller": controller}})),
        vec!["spec.controller: Too long: may not be more than 250 bytes"]
    );
}

#[test]
fn ingress_class_parameters_scope() {
    let spec = |params: Value| json!({"metadata": {"name": "c"}, "spec": {"controller": "example.com/c", "parameters": params}});
    assert_eq!(
        class_messages(spec(json!({"kind": "K", "name": "n", "scope": "Namespace"}))),
        vec!["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]
    );
    assert_eq!(
        class_messages(spec(json!({"kind": "K", "name": "n", "scope": "Cluster", "namespace": "ns"}))),
        vec!["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]
    );
    // The apiserver defaults a missing scope to Cluster.
    assert_eq!(
        class_messages(spec(json!({"kind": "K", "name": "n", "namespace": "ns"}))),
        vec!["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]
    );
    assert_eq!(
        class_messages(spec(json!({"kind": "", "name": "n", "scope": "cluster"}))),
        vec![
            "spec.parameters.kind: Required value",
            "spec.parameters.scope: Unsupported value: \"cluster\": supported values: \"Cluster\", \"Namespace\"",
        ]
    );
    assert_eq!(
        class_messages(spec(json!({"kind": "K", "name": "n", "scope": "Namespace", "namespace": "Bad_NS"}))).len(),
        1
    );
}

#[test]
fn ingress_class_name_must_be_a_subdomain() {
    assert_eq!(
        class_messages(json!({"metadata": {"name": "Nginx"}, "spec": {"controller": "example.com/c"}})),
        vec![format!("metadata.name: Invalid value: \"Nginx\": {SUBDOMAIN_MSG}")]
    );
}
