//! What the Kubernetes apiserver would reject, with its exact messages (the crate documentation's
//! [Validation and status](crate#validation-and-status) section).
//!
//! This module mirrors `kubernetes/kubernetes` `pkg/apis/networking/validation/validation.go`
//! (Ingress and IngressClass), the parts of apimachinery's `ValidateObjectMeta` that apply to the
//! fields this project reads, and the string checks of `k8s.io/apimachinery/pkg/util/validation`
//! and `k8s.io/apimachinery/pkg/api/validate/content`. Each function names the Go function it
//! mirrors; errors come out in the same order as the apiserver's, and [`FieldError`]'s `Display`
//! is `field.Error.Error()` byte for byte.
//!
//! What the apiserver does before validating, and that this module therefore assumes:
//! - the namespace of an Ingress comes from the request (`kubectl` uses `default` when the object
//!   names none), and a cluster-scoped IngressClass has its namespace cleared;
//! - `metadata.generation`, `resourceVersion`, `uid` and `creationTimestamp` are the server's to
//!   set, so they are not checked on create; on update, an absent one is carried over from the old
//!   object (as `kubectl apply` does) and only an explicitly different `uid`/`creationTimestamp`
//!   is reported as immutable;
//! - IngressClass `spec.parameters.scope` defaults to `Cluster` (`SetDefaults_IngressClass`).
//!
//! Feature gates are at their defaults (`RelaxedServiceNameValidation` off). The crate is `no_std`:
//! every check here is hand-written (no regex engine).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use crate::model::{
    HttpIngressPath, HttpIngressRuleValue, Ingress, IngressBackend, IngressClass, IngressClassParameters,
    IngressClassSpec, IngressRule, IngressSpec, LEGACY_CLASS_ANNOTATION, ObjectMeta, TypedLocalObjectReference,
};

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/// Which request is validated: the apiserver's rules differ between create and update.
#[derive(Clone, Copy, Debug)]
pub enum Operation<'a> {
    /// `ValidateIngressCreate`.
    Create,
    /// `ValidateIngressUpdate`: `old` is the stored object being replaced.
    Update { old: &'a Ingress },
}

/// `field.ErrorType`: why a field is invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorType {
    Invalid,
    Required,
    NotSupported,
    Forbidden,
    TooLong,
    TooMany,
    Duplicate,
    NotFound,
    Internal,
}

impl ErrorType {
    /// The Go constant's value, as it appears in a `Status`'s causes (`FieldValueInvalid`).
    pub fn go_name(self) -> &'static str {
        match self {
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Internal => "InternalError",
        }
    }

    /// `ErrorType.String()`: the words in the message (`Invalid value`).
    pub fn description(self) -> &'static str {
        match self {
            ErrorType::Invalid => "Invalid value",
            ErrorType::Required => "Required value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::NotFound => "Not found",
            ErrorType::Internal => "Internal error",
        }
    }

    /// Types whose message never shows the bad value (`ErrorBody`).
    fn omits_value(self) -> bool {
        matches!(self, ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::Internal)
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl Serialize for ErrorType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.go_name())
    }
}

/// `field.Error`: one invalid field.
///
/// `bad_value` is `None` for the types whose message does not show a value (`Required`,
/// `Forbidden`, `TooLong`, `Internal`); `Some(Value::Null)` is a Go `nil` (rendered `null`).
/// Serializes as `{"type", "field", "badValue"?, "detail", "message"}`, the shape of the
/// project's test cases, with `message` the apiserver's text.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub error_type: ErrorType,
    pub field: String,
    pub bad_value: Option<Value>,
    pub detail: String,
}

impl FieldError {
    /// `field.Error.ErrorBody()`: the message without the field path.
    pub fn body(&self) -> String {
        let mut s = String::from(self.error_type.description());
        if !self.error_type.omits_value() {
            if let Some(value) = &self.bad_value {
                s.push_str(": ");
                s.push_str(&render_bad_value(value));
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl core::error::Error for FieldError {}

impl fmt::Display for FieldError {
    /// `field.Error.Error()`: `<field>: <body>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl Serialize for FieldError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = if self.bad_value.is_some() { 5 } else { 4 };
        let mut s = serializer.serialize_struct("FieldError", fields)?;
        s.serialize_field("type", &self.error_type)?;
        s.serialize_field("field", &self.field)?;
        if let Some(value) = &self.bad_value {
            s.serialize_field("badValue", value)?;
        }
        s.serialize_field("detail", &self.detail)?;
        s.serialize_field("message", &self.to_string())?;
        s.end()
    }
}

/// Validates an Ingress as the apiserver does on create (`ValidateIngressCreate`) or update
/// (`ValidateIngressUpdate`). An empty list means the object is accepted.
pub fn validate_ingress(ingress: &Ingress, op: Operation<'_>) -> Vec<FieldError> {
    match op {
        Operation::Create => validate_ingress_create(ingress),
        Operation::Update { old } => validate_ingress_update(ingress, old),
    }
}

/// Validates an IngressClass as the apiserver does on create (`ValidateIngressClass`).
pub fn validate_ingress_class(class: &IngressClass) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&class.metadata, false, name_is_dns_subdomain, &FieldPath::new("metadata"));
    errs.extend(validate_ingress_class_spec(&class.spec, &FieldPath::new("spec")));
    errs
}

/// The apiserver's answer for an invalid object (`apierrors.NewInvalid` with an aggregate):
/// `Ingress.networking.k8s.io "test" is invalid: <msg>`, or `[<m1>, <m2>]` for several distinct
/// messages (repeated messages are shown once, as `ErrorList.ToAggregate` does).
pub fn invalid_message(kind_group: &str, name: &str, errors: &[FieldError]) -> String {
    let mut messages: Vec<String> = Vec::with_capacity(errors.len());
    for e in errors {
        let m = e.to_string();
        if !messages.contains(&m) {
            messages.push(m);
        }
    }
    let head = format!("{} {} is invalid", kind_group, go_quote(name));
    match messages.len() {
        0 => head,
        1 => format!("{head}: {}", messages[0]),
        _ => format!("{head}: [{}]", messages.join(", ")),
    }
}

// ---------------------------------------------------------------------------------------------
// Field paths and error constructors (field.Path, field.Invalid, ...)
// ---------------------------------------------------------------------------------------------

/// `field.Path`: a chain of borrowed segments, rendered only when an error is reported.
#[derive(Clone, Copy, Debug)]
struct FieldPath<'a> {
    parent: Option<&'a FieldPath<'a>>,
    segment: Segment<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Segment<'a> {
    Name(&'a str),
    Index(usize),
}

impl<'a> FieldPath<'a> {
    fn new(name: &'a str) -> FieldPath<'a> {
        FieldPath { parent: None, segment: Segment::Name(name) }
    }

    /// `Path.Child`.
    fn child<'b>(&'b self, name: &'b str) -> FieldPath<'b> {
        FieldPath { parent: Some(self), segment: Segment::Name(name) }
    }

    /// `Path.Index`.
    fn index(&self, i: usize) -> FieldPath<'_> {
        FieldPath { parent: Some(self), segment: Segment::Index(i) }
    }

    fn render(&self) -> String {
        let mut out = self.parent.map_or_else(String::new, FieldPath::render);
        match self.segment {
            Segment::Name(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
        out
    }
}

fn error(error_type: ErrorType, path: &FieldPath, bad_value: Option<Value>, detail: &str) -> FieldError {
    FieldError { error_type, field: path.render(), bad_value, detail: detail.to_string() }
}

/// `field.Invalid`.
fn invalid(path: &FieldPath, value: impl Into<Value>, detail: &str) -> FieldError {
    error(ErrorType::Invalid, path, Some(value.into()), detail)
}

/// `field.Required`.
fn required(path: &FieldPath, detail: &str) -> FieldError {
    error(ErrorType::Required, path, None, detail)
}

/// `field.Forbidden`.
fn forbidden(path: &FieldPath, detail: &str) -> FieldError {
    error(ErrorType::Forbidden, path, None, detail)
}

/// `field.NotSupported`: `supported values: "A", "B"`.
fn not_supported(path: &FieldPath, value: &str, supported: &[&str]) -> FieldError {
    let quoted: Vec<String> = supported.iter().map(|v| go_quote(v)).collect();
    let detail = if quoted.is_empty() { String::new() } else { format!("supported values: {}", quoted.join(", ")) };
    error(ErrorType::NotSupported, path, Some(Value::from(value)), &detail)
}

/// `field.TooLong` (its value is never shown).
fn too_long(path: &FieldPath, max_bytes: usize) -> FieldError {
    let unit = if max_bytes == 1 { "byte" } else { "bytes" };
    error(ErrorType::TooLong, path, None, &format!("may not be more than {max_bytes} {unit}"))
}

/// One `field.Invalid` per message of a string check.
fn invalid_each(path: &FieldPath, value: &str, messages: Vec<String>) -> Vec<FieldError> {
    messages.iter().map(|m| invalid(path, value, m)).collect()
}

// ---------------------------------------------------------------------------------------------
// Ingress (pkg/apis/networking/validation/validation.go)
// ---------------------------------------------------------------------------------------------

/// `IngressValidationOptions`: what an update may keep from the old object.
#[derive(Clone, Copy, Debug, Default)]
struct IngressOptions {
    allow_invalid_secret_name: bool,
    allow_invalid_wildcard_host_rule: bool,
    allow_relaxed_service_name: bool,
}

const SUPPORTED_PATH_TYPES: [&str; 3] = ["Exact", "ImplementationSpecific", "Prefix"];
const INVALID_PATH_SEQUENCES: [&str; 5] = ["//", "/./", "/../", "%2f", "%2F"];
const INVALID_PATH_SUFFIXES: [&str; 2] = ["/..", "/."];

/// `ValidateIngressCreate`: the common rules, then the class annotation must agree with
/// `ingressClassName`.
fn validate_ingress_create(ingress: &Ingress) -> Vec<FieldError> {
    let mut errs = validate_ingress_common(ingress, IngressOptions::default());
    let annotation = ingress.metadata.annotations.get(LEGACY_CLASS_ANNOTATION);
    if let (Some(annotation), Some(class_name)) = (annotation, &ingress.spec.ingress_class_name) {
        if annotation != class_name {
            // The Go code builds this path without `metadata.`.
            let annotations = FieldPath::new("annotations");
            let path = annotations.child(LEGACY_CLASS_ANNOTATION);
            errs.push(invalid(&path, annotation.as_str(), "must match `ingressClassName` when both are specified"));
        }
    }
    errs
}

/// `ValidateIngressUpdate`: metadata update rules, then the common rules, relaxed for what the
/// old object already had.
fn validate_ingress_update(ingress: &Ingress, old: &Ingress) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&ingress.metadata, &old.metadata, &FieldPath::new("metadata"));
    let opts = IngressOptions {
        allow_invalid_secret_name: allow_invalid_secret_name(old),
        allow_invalid_wildcard_host_rule: allow_invalid_wildcard_host_rule(old),
        allow_relaxed_service_name: allow_relaxed_service_name_validation(old),
    };
    errs.extend(validate_ingress_common(ingress, opts));
    errs
}

/// `validateIngress`: metadata, then spec.
fn validate_ingress_common(ingress: &Ingress, opts: IngressOptions) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&ingress.metadata, true, name_is_dns_subdomain, &FieldPath::new("metadata"));
    errs.extend(validate_ingress_spec(&ingress.spec, &FieldPath::new("spec"), opts));
    errs
}

/// `ValidateIngressSpec`.
fn validate_ingress_spec(spec: &IngressSpec, path: &FieldPath, opts: IngressOptions) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let rules = spec.rules.as_deref().unwrap_or(&[]);
    if rules.is_empty() && spec.default_backend.is_none() {
        // The bad value is `spec.rules` itself: `null` when absent, `[]` when empty.
        let value = if spec.rules.is_some() { Value::Array(Vec::new()) } else { Value::Null };
        errs.push(invalid(path, value, "either `defaultBackend` or `rules` must be specified"));
    }
    if let Some(backend) = &spec.default_backend {
        errs.extend(validate_ingress_backend(backend, &path.child("defaultBackend"), opts));
    }
    if !rules.is_empty() {
        errs.extend(validate_ingress_rules(rules, &path.child("rules"), opts));
    }
    if !spec.tls.is_empty() {
        errs.extend(validate_ingress_tls(spec, &path.child("tls"), opts));
    }
    if let Some(class_name) = &spec.ingress_class_name {
        errs.extend(invalid_each(&path.child("ingressClassName"), class_name, name_is_dns_subdomain(class_name)));
    }
    errs
}

/// `validateIngressTLS`: hosts are (wildcard) DNS subdomains (IP addresses are not checked here),
/// secret names are Secret names unless the old object already had an invalid one.
fn validate_ingress_tls(spec: &IngressSpec, path: &FieldPath, opts: IngressOptions) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (tls_index, tls) in spec.tls.iter().enumerate() {
        let tls_path = path.index(tls_index);
        for (i, host) in tls.hosts.iter().enumerate() {
            let hosts_path = tls_path.child("hosts");
            let host_path = hosts_path.index(i);
            let messages =
                if host.contains('*') { is_wildcard_dns1123_subdomain(host) } else { is_dns1123_subdomain(host) };
            errs.extend(invalid_each(&host_path, host, messages));
        }
        if !opts.allow_invalid_secret_name {
            let secret = tls.secret_name.as_deref().unwrap_or("");
            errs.extend(invalid_each(&tls_path.child("secretName"), secret, validate_tls_secret_name(secret)));
        }
    }
    errs
}

/// `validateTLSSecretName`: empty is allowed, otherwise a Secret name (DNS subdomain).
fn validate_tls_secret_name(name: &str) -> Vec<String> {
    if name.is_empty() { Vec::new() } else { name_is_dns_subdomain(name) }
}

/// `validateIngressRules`: hosts, then each rule's paths (skipped for wildcard-host rules when an
/// update keeps an old invalid one).
fn validate_ingress_rules(rules: &[IngressRule], path: &FieldPath, opts: IngressOptions) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = path.index(i);
        let host = rule.host.as_deref().unwrap_or("");
        let mut wildcard_host = false;
        if !host.is_empty() {
            let host_path = rule_path.child("host");
            if parse_ip_sloppy(host) {
                errs.push(invalid(&host_path, host, "must be a DNS name, not an IP address"));
            }
            if host.contains('*') {
                errs.extend(invalid_each(&host_path, host, is_wildcard_dns1123_subdomain(host)));
                wildcard_host = true;
            } else {
                errs.extend(invalid_each(&host_path, host, is_dns1123_subdomain(host)));
            }
        }
        if !wildcard_host || !opts.allow_invalid_wildcard_host_rule {
            errs.extend(validate_ingress_rule_value(rule, &rule_path, opts));
        }
    }
    errs
}

/// `validateIngressRuleValue`.
fn validate_ingress_rule_value(rule: &IngressRule, path: &FieldPath, opts: IngressOptions) -> Vec<FieldError> {
    match &rule.http {
        Some(http) => validate_http_ingress_rule_value(http, &path.child("http"), opts),
        None => Vec::new(),
    }
}

/// `validateHTTPIngressRuleValue`: at least one path, each valid.
fn validate_http_ingress_rule_value(
    http: &HttpIngressRuleValue,
    path: &FieldPath,
    opts: IngressOptions,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let paths_path = path.child("paths");
    if http.paths.is_empty() {
        errs.push(required(&paths_path, ""));
    }
    for (i, p) in http.paths.iter().enumerate() {
        errs.extend(validate_http_ingress_path(p, &paths_path.index(i), opts));
    }
    errs
}

/// `validateHTTPIngressPath`: `pathType` is required (and stops the checks when missing); `Exact`
/// and `Prefix` paths are absolute and free of dot segments and encoded slashes;
/// `ImplementationSpecific` ones only need to be absolute when not empty.
fn validate_http_ingress_path(p: &HttpIngressPath, path: &FieldPath, opts: IngressOptions) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(path_type) = p.path_type.as_deref() else {
        errs.push(required(&path.child("pathType"), "pathType must be specified"));
        return errs;
    };
    let value = p.path.as_deref().unwrap_or("");
    let value_path = path.child("path");
    match path_type {
        "Exact" | "Prefix" => {
            if !value.starts_with('/') {
                errs.push(invalid(&value_path, value, "must be an absolute path"));
            }
            if !value.is_empty() {
                for seq in INVALID_PATH_SEQUENCES {
                    // Needles this short: comparing windows (first byte first) beats the setup of
                    // `str::contains`'s searcher.
                    let seq_bytes = seq.as_bytes();
                    if value.as_bytes().windows(seq.len()).any(|w| w[0] == seq_bytes[0] && w == seq_bytes) {
                        errs.push(invalid(&value_path, value, &format!("must not contain '{seq}'")));
                    }
                }
                for suffix in INVALID_PATH_SUFFIXES {
                    if value.ends_with(suffix) {
                        errs.push(invalid(&value_path, value, &format!("cannot end with '{suffix}'")));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !value.is_empty() && !value.starts_with('/') {
                errs.push(invalid(&value_path, value, "must be an absolute path"));
            }
        }
        other => errs.push(not_supported(&path.child("pathType"), other, &SUPPORTED_PATH_TYPES)),
    }
    errs.extend(validate_ingress_backend(&p.backend, &path.child("backend"), opts));
    errs
}

/// `validateIngressBackend`: exactly one of `service` / `resource`; a service has a valid name and
/// exactly one of port name / number.
fn validate_ingress_backend(backend: &IngressBackend, path: &FieldPath, opts: IngressOptions) -> Vec<FieldError> {
    let mut errs = Vec::new();
    match (&backend.service, &backend.resource) {
        (Some(_), Some(_)) => errs.push(invalid(path, "", "cannot set both resource and service backends")),
        (None, Some(resource)) => {
            errs.extend(validate_ingress_typed_local_object_reference(resource, &path.child("resource")));
        }
        (Some(service), None) => {
            let service_path = path.child("service");
            let name_path = service_path.child("name");
            if service.name.is_empty() {
                errs.push(required(&name_path, ""));
            } else {
                let messages = if opts.allow_relaxed_service_name {
                    name_is_dns_label(&service.name)
                } else {
                    name_is_dns1035_label(&service.name)
                };
                errs.extend(invalid_each(&name_path, &service.name, messages));
            }
            let port = service.port.as_ref();
            let port_name = port.and_then(|p| p.name.as_deref()).unwrap_or("");
            let port_number = port.and_then(|p| p.number).unwrap_or(0);
            let port_path = service_path.child("port");
            match (!port_name.is_empty(), port_number != 0) {
                (true, true) => errs.push(invalid(path, "", "cannot set both port name & port number")),
                (true, false) => {
                    errs.extend(invalid_each(&port_path.child("name"), port_name, is_valid_port_name(port_name)));
                }
                (false, true) => {
                    let number_path = port_path.child("number");
                    errs.extend(
                        is_valid_port_num(port_number).into_iter().map(|m| invalid(&number_path, port_number, &m)),
                    );
                }
                (false, false) => errs.push(required(path, "port name or number is required")),
            }
        }
        (None, None) => errs.push(invalid(path, "", "resource or service backend is required")),
    }
    errs
}

/// `validateIngressTypedLocalObjectReference`: optional DNS-subdomain `apiGroup`, required `kind`
/// and `name` that can be path segments.
fn validate_ingress_typed_local_object_reference(r: &TypedLocalObjectReference, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(group) = &r.api_group {
        errs.extend(invalid_each(&path.child("apiGroup"), group, is_dns1123_subdomain(group)));
    }
    errs.extend(validate_required_path_segment(&r.kind, &path.child("kind")));
    errs.extend(validate_required_path_segment(&r.name, &path.child("name")));
    errs
}

/// The `kind` / `name` pattern shared by resource backends and class parameters.
fn validate_required_path_segment(value: &str, path: &FieldPath) -> Vec<FieldError> {
    if value.is_empty() {
        return alloc::vec![required(path, "")];
    }
    invalid_each(path, value, is_path_segment_name(value))
}

/// `allowInvalidSecretName`: the old object had an invalid TLS secret name.
fn allow_invalid_secret_name(old: &Ingress) -> bool {
    old.spec.tls.iter().any(|tls| !validate_tls_secret_name(tls.secret_name.as_deref().unwrap_or("")).is_empty())
}

/// `allowInvalidWildcardHostRule`: the old object had a wildcard-host rule with invalid paths.
fn allow_invalid_wildcard_host_rule(old: &Ingress) -> bool {
    old.spec.rules.iter().flatten().any(|rule| {
        rule.host.as_deref().unwrap_or("").contains('*')
            && !validate_ingress_rule_value(rule, &FieldPath::new(""), IngressOptions::default()).is_empty()
    })
}

/// `allowRelaxedServiceNameValidation` (feature gate off): the old object had a service name that
/// is a DNS-1123 label but not a DNS-1035 one (such as `1-svc`).
fn allow_relaxed_service_name_validation(old: &Ingress) -> bool {
    let relaxed_only = |name: &str| name_is_dns_label(name).is_empty() && !name_is_dns1035_label(name).is_empty();
    let default_backend = old.spec.default_backend.as_ref().and_then(|b| b.service.as_ref());
    if default_backend.is_some_and(|s| relaxed_only(&s.name)) {
        return true;
    }
    old.spec
        .rules
        .iter()
        .flatten()
        .filter_map(|rule| rule.http.as_ref())
        .flat_map(|http| http.paths.iter())
        .filter_map(|p| p.backend.service.as_ref())
        .any(|s| relaxed_only(&s.name))
}

// ---------------------------------------------------------------------------------------------
// IngressClass
// ---------------------------------------------------------------------------------------------

const MAX_LEN_INGRESS_CLASS_CONTROLLER: usize = 250;
const SUPPORTED_PARAMETER_SCOPES: [&str; 2] = ["Cluster", "Namespace"];

/// `validateIngressClassSpec`: a required domain-prefixed controller of at most 250 bytes, and
/// valid parameters.
fn validate_ingress_class_spec(spec: &IngressClassSpec, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let controller = spec.controller.as_deref().unwrap_or("");
    let controller_path = path.child("controller");
    if controller.is_empty() {
        errs.push(required(&controller_path, ""));
    } else {
        if controller.len() > MAX_LEN_INGRESS_CLASS_CONTROLLER {
            errs.push(too_long(&controller_path, MAX_LEN_INGRESS_CLASS_CONTROLLER));
        }
        errs.extend(is_domain_prefixed_path(&controller_path, controller));
    }
    if let Some(params) = &spec.parameters {
        errs.extend(validate_ingress_class_parameters_reference(params, &path.child("parameters")));
    }
    errs
}

/// `validateIngressClassParametersReference`, after `SetDefaults_IngressClass` (scope `Cluster`
/// when unset): `Namespace` scope needs a namespace, `Cluster` scope forbids one.
fn validate_ingress_class_parameters_reference(params: &IngressClassParameters, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(group) = &params.api_group {
        errs.extend(invalid_each(&path.child("apiGroup"), group, is_dns1123_subdomain(group)));
    }
    errs.extend(validate_required_path_segment(&params.kind, &path.child("kind")));
    errs.extend(validate_required_path_segment(&params.name, &path.child("name")));

    let scope = params.scope.as_deref().unwrap_or("Cluster");
    let namespace_path = path.child("namespace");
    match scope {
        "Namespace" => match &params.namespace {
            None => errs.push(required(&namespace_path, "`parameters.scope` is set to 'Namespace'")),
            Some(ns) => errs.extend(invalid_each(&namespace_path, ns, name_is_dns_label(ns))),
        },
        "Cluster" => {
            if params.namespace.is_some() {
                errs.push(forbidden(&namespace_path, "`parameters.scope` is set to 'Cluster'"));
            }
        }
        other => errs.push(not_supported(&path.child("scope"), other, &SUPPORTED_PARAMETER_SCOPES)),
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// ObjectMeta (apimachinery pkg/api/validation/objectmeta.go)
// ---------------------------------------------------------------------------------------------

/// Total size of annotation keys and values (`TotalAnnotationSizeLimitB`).
const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;
const FIELD_IMMUTABLE: &str = "field is immutable";

/// `ValidateObjectMetaAccessor` for the fields the model has: name, namespace, labels,
/// annotations. Maps are checked in key order (Go's order is random).
fn validate_object_meta(
    meta: &ObjectMeta,
    namespaced: bool,
    name_fn: fn(&str) -> Vec<String>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name_path = path.child("name");
    if meta.name.is_empty() {
        errs.push(required(&name_path, "name or generateName is required"));
    } else {
        errs.extend(invalid_each(&name_path, &meta.name, name_fn(&meta.name)));
    }
    if namespaced {
        let namespace = request_namespace(meta);
        errs.extend(invalid_each(&path.child("namespace"), namespace, name_is_dns_label(namespace)));
    }
    errs.extend(validate_labels(&meta.labels, &path.child("labels")));
    errs.extend(validate_annotations(&meta.annotations, &path.child("annotations")));
    errs
}

/// The namespace the request would target: the object's, or `default` (kubectl's choice).
fn request_namespace(meta: &ObjectMeta) -> &str {
    match meta.namespace.as_deref() {
        Some(ns) if !ns.is_empty() => ns,
        _ => "default",
    }
}

/// `ValidateObjectMetaAccessorUpdate` for the fields the model has.
fn validate_object_meta_update(new: &ObjectMeta, old: &ObjectMeta, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if new.name != old.name {
        errs.push(invalid(&path.child("name"), new.name.as_str(), FIELD_IMMUTABLE));
    }
    let (new_ns, old_ns) = (request_namespace(new), request_namespace(old));
    if new_ns != old_ns {
        errs.push(invalid(&path.child("namespace"), new_ns, FIELD_IMMUTABLE));
    }
    for (field, new_value, old_value) in
        [("uid", &new.uid, &old.uid), ("creationTimestamp", &new.creation_timestamp, &old.creation_timestamp)]
    {
        if let (Some(n), Some(o)) = (new_value, old_value) {
            if n != o {
                errs.push(invalid(&path.child(field), n.as_str(), FIELD_IMMUTABLE));
            }
        }
    }
    errs.extend(validate_labels(&new.labels, &path.child("labels")));
    errs.extend(validate_annotations(&new.annotations, &path.child("annotations")));
    errs
}

/// `v1validation.ValidateLabels`: keys are qualified names, values label values.
fn validate_labels(labels: &BTreeMap<String, String>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (key, value) in labels {
        errs.extend(invalid_each(path, key, is_qualified_name(key)));
        errs.extend(invalid_each(path, value, is_valid_label_value(value)));
    }
    errs
}

/// `ValidateAnnotations`: keys are qualified names (case-insensitively), total size at most
/// 256 KiB.
fn validate_annotations(annotations: &BTreeMap<String, String>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for key in annotations.keys() {
        errs.extend(invalid_each(path, key, is_qualified_name(&key.to_ascii_lowercase())));
    }
    let total: usize = annotations.iter().map(|(k, v)| k.len() + v.len()).sum();
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errs.push(too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// Name checks (apimachinery pkg/api/validation/generic.go)
// ---------------------------------------------------------------------------------------------

/// `ValidateIngressClassName` (`NameIsDNSSubdomain`): why `name` cannot be an IngressClass name
/// or a `spec.ingressClassName`, empty when it can. For fixes that suggest a class name.
pub fn ingress_class_name_errors(name: &str) -> Vec<String> {
    name_is_dns_subdomain(name)
}

/// `NameIsDNSSubdomain` (Ingress, IngressClass, Secret names, `ingressClassName`).
fn name_is_dns_subdomain(name: &str) -> Vec<String> {
    is_dns1123_subdomain(name)
}

/// `NameIsDNSLabel` (namespaces, relaxed service names).
fn name_is_dns_label(name: &str) -> Vec<String> {
    is_dns1123_label(name)
}

/// `NameIsDNS1035Label` (`ValidateServiceName`).
fn name_is_dns1035_label(name: &str) -> Vec<String> {
    is_dns1035_label(name)
}

// ---------------------------------------------------------------------------------------------
// String formats (apimachinery pkg/util/validation and pkg/api/validate/content)
// ---------------------------------------------------------------------------------------------

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX: usize = 63;
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX: usize = 253;
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_MAX: usize = 63;
const WILDCARD_DNS1123_SUBDOMAIN_FMT: &str = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_DNS1123_SUBDOMAIN_ERR: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX: usize = 63;
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX: usize = 63;
const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const PORT_NAME_MAX: usize = 15;

/// `validation.MaxLenError` (util/validation: hosts, names, port names).
fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `content.MaxLenError` (label keys and values, and the DNS prefix of a label key).
fn content_max_len_error(length: usize) -> String {
    format!("must be no more than {length} bytes")
}

/// `validation.EmptyError`.
const EMPTY_ERROR: &str = "must be non-empty";

/// `validation.RegexError`: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')`.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    let mut s = String::from(msg);
    if examples.is_empty() {
        let _ = write!(s, " (regex used for validation is '{re}')");
        return s;
    }
    s.push_str(" (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        let _ = write!(s, "'{example}', ");
    }
    let _ = write!(s, "regex used for validation is '{re}')");
    s
}

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// Matches `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            is_lower_alnum(first) && is_lower_alnum(last) && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// Matches the DNS-1123 subdomain format: labels joined by dots.
fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// Matches `[a-z]([-a-z0-9]*[a-z0-9])?`.
fn matches_dns1035_label(s: &str) -> bool {
    matches_dns1123_label(s) && s.as_bytes()[0].is_ascii_lowercase()
}

/// Matches `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
fn matches_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `IsDNS1123Label`.
fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// `IsDNS1123Subdomain` (util/validation).
fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    dns1123_subdomain_errors(value, max_len_error)
}

/// The DNS-1123 subdomain check with a given wording of the length error.
fn dns1123_subdomain_errors(value: &str, max_len: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len(DNS1123_SUBDOMAIN_MAX));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `IsDNS1035Label`.
fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1035_LABEL_MAX {
        errs.push(max_len_error(DNS1035_LABEL_MAX));
    }
    if !matches_dns1035_label(value) {
        errs.push(regex_error(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, &["my-name", "abc-123"]));
    }
    errs
}

/// `IsWildcardDNS1123Subdomain`: `*.` then a DNS-1123 subdomain.
fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    let matches = value.strip_prefix("*.").is_some_and(matches_dns1123_subdomain);
    if !matches {
        errs.push(regex_error(WILDCARD_DNS1123_SUBDOMAIN_ERR, WILDCARD_DNS1123_SUBDOMAIN_FMT, &["*.example.com"]));
    }
    errs
}

/// `IsQualifiedName` = `content.IsLabelKey`: an optional DNS-subdomain prefix and `/`, then a
/// name of at most 63 alphanumerics, `-`, `_`, `.`.
fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {EMPTY_ERROR}"));
            } else {
                let messages = dns1123_subdomain_errors(prefix, content_max_len_error);
                errs.extend(messages.into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {EMPTY_ERROR}"));
    } else if name.len() > LABEL_KEY_MAX {
        errs.push(format!("name part {}", content_max_len_error(LABEL_KEY_MAX)));
    }
    if !matches_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `IsValidLabelValue` = `content.IsLabelValue`: empty, or a label-key name of at most 63.
fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(content_max_len_error(LABEL_VALUE_MAX));
    }
    if !value.is_empty() && !matches_label_key_name(value) {
        errs.push(regex_error(LABEL_VALUE_ERR, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// `IsValidPortNum`.
fn is_valid_port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        alloc::vec!["must be between 1 and 65535, inclusive".to_string()]
    }
}

/// `IsValidPortName`: an IANA service name (at most 15 of `[-a-z0-9]`, at least one letter, no
/// `--`, no hyphen at either end).
fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let b = port.as_bytes();
    if b.len() > PORT_NAME_MAX {
        errs.push(max_len_error(PORT_NAME_MAX));
    }
    if b.is_empty() || !b.iter().all(|&c| is_lower_alnum(c) || c == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string());
    }
    if !b.iter().any(u8::is_ascii_lowercase) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if b.first() == Some(&b'-') || b.last() == Some(&b'-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// `content.IsPathSegmentName`: not `.` or `..`, no `/` or `%`.
fn is_path_segment_name(name: &str) -> Vec<String> {
    for illegal in [".", ".."] {
        if name == illegal {
            return alloc::vec![format!("may not be '{illegal}'")];
        }
    }
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(**illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// `IsDomainPrefixedPath`: `<DNS subdomain>/<HTTP path characters>` (IngressClass controller).
fn is_domain_prefixed_path(path: &FieldPath, value: &str) -> Vec<FieldError> {
    if value.is_empty() {
        return alloc::vec![required(path, "")];
    }
    let Some((host, rest)) = value.split_once('/').filter(|(h, r)| !h.is_empty() && !r.is_empty()) else {
        return alloc::vec![invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")")];
    };
    let mut errs = invalid_each(path, host, is_dns1123_subdomain(host));
    let http_path_char = |c: u8| c.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&c);
    if !rest.bytes().all(http_path_char) {
        errs.push(invalid(path, rest, &regex_error("Invalid path", HTTP_PATH_FMT, &[])));
    }
    errs
}

/// `netutils.ParseIPSloppy(s) != nil`: an IPv4 address (leading zeros allowed) or an IPv6 one.
fn parse_ip_sloppy(s: &str) -> bool {
    is_ipv4_sloppy(s) || (s.contains(':') && parse_ipv6_sloppy(s))
}

/// Go's pre-1.17 `parseIPv4`: four decimal parts of at most 255, leading zeros allowed.
fn is_ipv4_sloppy(s: &str) -> bool {
    let mut parts = 0;
    for part in s.split('.') {
        parts += 1;
        if parts > 4 || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        // Go's dtoi gives up past 0xFFFFFF; any value above 255 is rejected either way.
        let value = part.bytes().try_fold(0u32, |n, b| {
            let n = n * 10 + u32::from(b - b'0');
            (n <= 0xFF).then_some(n)
        });
        if value.is_none() {
            return false;
        }
    }
    parts == 4
}

/// Go's `parseIPv6`: hex groups with one optional `::`, optionally ending in an IPv4 address.
fn parse_ipv6_sloppy(s: &str) -> bool {
    let (head, tail) = match s.find("::") {
        Some(at) => (&s[..at], Some(&s[at + 2..])),
        None => (s, None),
    };
    let count_groups = |part: &str, may_end_ipv4: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let groups: Vec<&str> = part.split(':').collect();
        let mut count = 0;
        for (i, g) in groups.iter().enumerate() {
            let last = i + 1 == groups.len();
            if last && may_end_ipv4 && g.contains('.') {
                if !is_ipv4_sloppy(g) {
                    return None;
                }
                count += 2;
            } else if g.is_empty() || g.len() > 4 || !g.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            } else {
                count += 1;
            }
        }
        Some(count)
    };
    match tail {
        None => count_groups(head, true) == Some(8),
        Some(tail) => {
            if tail.contains("::") {
                return false;
            }
            match (count_groups(head, false), count_groups(tail, true)) {
                (Some(h), Some(t)) => h + t < 8,
                _ => false,
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering bad values as Go does (`ErrorBody`)
// ---------------------------------------------------------------------------------------------

/// A bad value in a message: strings as Go's `%q`, numbers and booleans bare, anything else as
/// `json.Marshal` writes it (`null`, `[]`).
fn render_bad_value(value: &Value) -> String {
    match value {
        Value::String(s) => go_quote(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => go_json(other),
    }
}

/// `json.Marshal`: compact JSON with Go's HTML-safe escapes.
fn go_json(value: &Value) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Go's `strconv.Quote`: double quotes, with `\"`, `\\`, C escapes, and `\x`/`\u`/`\U` escapes
/// for characters Go does not consider printable.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`, approximated without Unicode tables: everything but controls,
/// separators other than the ASCII space, common format characters, private-use characters and
/// non-characters.
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let format_chars = matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE0001 | 0xE0020..=0xE007F);
    let private_use = matches!(u, 0xE000..=0xF8FF | 0xF0000..=0x10FFFF);
    let non_character = matches!(u, 0xFDD0..=0xFDEF) || (u & 0xFFFE) == 0xFFFE;
    !(format_chars || private_use || non_character)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quote_escapes_like_strconv_quote() {
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("tab\there\n"), r#""tab\there\n""#);
        assert_eq!(go_quote("\u{1}\u{7f}"), r#""\x01\x7f""#);
        assert_eq!(go_quote("héllo 世界"), "\"héllo 世界\"");
        assert_eq!(go_quote("\u{a0}\u{200b}\u{feff}"), r#""\u00a0\u200b\ufeff""#);
        assert_eq!(go_quote("\u{f0000}"), r#""\U000f0000""#);
    }

    #[test]
    fn bad_values_render_as_go_does() {
        assert_eq!(render_bad_value(&Value::Null), "null");
        assert_eq!(render_bad_value(&Value::Array(Vec::new())), "[]");
        assert_eq!(render_bad_value(&Value::from(70000)), "70000");
        assert_eq!(render_bad_value(&Value::from("<a&b>")), "\"<a&b>\"");
        assert_eq!(render_bad_value(&serde_json::json!(["<"])), "[\"\\u003c\"]");
    }

    #[test]
    fn regex_error_has_gos_double_space() {
        assert_eq!(
            is_dns1123_label("Foo"),
            alloc::vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
                    .to_string()
            ]
        );
        assert_eq!(is_dns1123_label("a.b"), alloc::vec!["must not contain dots".to_string()]);
    }

    #[test]
    fn dns_formats() {
        for ok in ["a", "a-b", "1a", "a.b.c", "0-0.x"] {
            assert!(is_dns1123_subdomain(ok).is_empty(), "{ok}");
        }
        for bad in ["", "-a", "a-", "a..b", ".a", "a.", "A", "a_b", "a:80"] {
            assert!(!is_dns1123_subdomain(bad).is_empty(), "{bad}");
        }
        assert!(is_dns1035_label("abc-123").is_empty());
        assert!(!is_dns1035_label("1abc").is_empty());
        assert!(is_wildcard_dns1123_subdomain("*.example.com").is_empty());
        for bad in ["*", "*.", "**.a", "*.*.a", "a.*.b", "*a.b"] {
            assert!(!is_wildcard_dns1123_subdomain(bad).is_empty(), "{bad}");
        }
    }

    #[test]
    fn ip_addresses() {
        for ip in [
            "1.2.3.4",
            "192.168.001.1",
            "::1",
            "::",
            "fe80::1",
            "2001:db8::8:800:200c:417a",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:7:8",
        ] {
            assert!(parse_ip_sloppy(ip), "{ip}");
        }
        for not_ip in [
            "1.2.3",
            "1.2.3.256",
            "a.b.c.d",
            "1.2.3.4.5",
            "1:2:3",
            ":::",
            "1::2::3",
            "fe80::1%eth0",
            "example.com",
            "12345::",
        ] {
            assert!(!parse_ip_sloppy(not_ip), "{not_ip}");
        }
    }

    #[test]
    fn port_names() {
        assert!(is_valid_port_name("http").is_empty());
        assert!(is_valid_port_name("h-2").is_empty());
        assert_eq!(is_valid_port_name("123"), alloc::vec!["must contain at least one letter (a-z)".to_string()]);
        assert_eq!(is_valid_port_name("-http").len(), 1);
        assert_eq!(
            is_valid_port_name(""),
            alloc::vec![
                "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
                "must contain at least one letter (a-z)".to_string()
            ]
        );
    }

    #[test]
    fn qualified_names() {
        assert!(is_qualified_name("kubernetes.io/ingress.class").is_empty());
        assert!(is_qualified_name("app").is_empty());
        assert_eq!(is_qualified_name("/a"), alloc::vec!["prefix part must be non-empty".to_string()]);
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert_eq!(is_qualified_name("a/").len(), 2);
    }
}
