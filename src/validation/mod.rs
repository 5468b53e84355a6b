//! What the Kubernetes apiserver would reject, with its exact messages (the crate documentation's
//! [Validation and status](crate#validation-and-status) section).
//!
//! This module mirrors `kubernetes/kubernetes` `pkg/apis/networking/validation/validation.go`
//! (Ingress and IngressClass), the parts of apimachinery's `ValidateObjectMeta` that apply to the
//! fields this project reads, and (in `formats`) the string checks of
//! `k8s.io/apimachinery/pkg/util/validation` and `k8s.io/apimachinery/pkg/api/validate/content`.
//! Each function names the Go function it mirrors; errors come out in the same order as the
//! apiserver's, and [`FieldError`]'s `Display` is `field.Error.Error()` byte for byte.
//!
//! Audited against **Kubernetes v1.36.3**: every message and detail is the one that release
//! prints (apimachinery at its `kubernetes-1.36.3` tag, `validation.go` as released in v1.36).
//! Messages differ between releases (1.34 dropped details such as "kind is required"), so a
//! change of release means a new audit.
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
//! Feature gates are at their v1.36 defaults: `RelaxedServiceNameValidation` is beta and on, so
//! backend service names are DNS-1123 labels (`NameIsDNSLabel`), not DNS-1035 ones. The crate is
//! `no_std`: every check here is hand-written (no regex engine).

mod formats;
mod render;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use self::formats::{
    is_dns1123_subdomain, is_domain_prefixed_path, is_path_segment_name, is_qualified_name, is_valid_label_value,
    is_valid_port_name, is_valid_port_num, is_wildcard_dns1123_subdomain, name_is_dns_label, name_is_dns_subdomain,
    parse_ip_sloppy,
};
pub(crate) use self::render::go_quote;
use self::render::{go_json, render_bad_value};
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
    /// `ValidateIngressUpdate`: `old` is the stored object being replaced (`validate --json`'s).
    #[cfg_attr(not(feature = "yaml"), allow(dead_code))]
    Update { old: &'a Ingress },
}

/// `field.ErrorType`: why a field is invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorType {
    Invalid,
    /// A value of the wrong JSON type (custom resources: `field.TypeInvalid`).
    TypeInvalid,
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
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
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
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
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
                // `ErrorBody` uses `%q` only for a Go `string`; a named string type falls through
                // to `json.Marshal`, which escapes `<`, `>` and `&`.
                let shown = if self.value_is_named_string() { go_json(value) } else { render_bad_value(value) };
                s.push_str(&shown);
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl FieldError {
    /// The fields whose Go value has a named string type: `networking.PathType` and `types.UID`.
    fn value_is_named_string(&self) -> bool {
        self.field.ends_with(".pathType") || self.field == "metadata.uid"
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

#[cfg(feature = "gateway")]
/// `ValidateObjectMetaAccessor` for a custom resource (`NameIsDNSSubdomain`), as far as the
/// model reads metadata: name, namespace (namespaced kinds), labels and annotations.
pub(crate) fn validate_object_meta_of_custom_resource(meta: &ObjectMeta, namespaced: bool) -> Vec<FieldError> {
    validate_object_meta(meta, namespaced, name_is_dns_subdomain, &FieldPath::new("metadata"))
}

#[cfg(feature = "gateway")]
/// `netutils.ParseIPSloppy(s) != nil` (kube-openapi's `ipv4` and `ipv6` formats build on it).
pub(crate) fn parses_as_ip(s: &str) -> bool {
    parse_ip_sloppy(s)
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
        errs.extend(validate_ingress_backend(backend, &path.child("defaultBackend")));
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
            errs.extend(validate_ingress_rule_value(rule, &rule_path));
        }
    }
    errs
}

/// `validateIngressRuleValue`.
fn validate_ingress_rule_value(rule: &IngressRule, path: &FieldPath) -> Vec<FieldError> {
    match &rule.http {
        Some(http) => validate_http_ingress_rule_value(http, &path.child("http")),
        None => Vec::new(),
    }
}

/// `validateHTTPIngressRuleValue`: at least one path, each valid.
fn validate_http_ingress_rule_value(http: &HttpIngressRuleValue, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let paths_path = path.child("paths");
    if http.paths.is_empty() {
        errs.push(required(&paths_path, ""));
    }
    for (i, p) in http.paths.iter().enumerate() {
        errs.extend(validate_http_ingress_path(p, &paths_path.index(i)));
    }
    errs
}

/// `validateHTTPIngressPath`: `pathType` is required (and stops the checks when missing); `Exact`
/// and `Prefix` paths are absolute and free of dot segments and encoded slashes;
/// `ImplementationSpecific` ones only need to be absolute when not empty.
fn validate_http_ingress_path(p: &HttpIngressPath, path: &FieldPath) -> Vec<FieldError> {
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
    errs.extend(validate_ingress_backend(&p.backend, &path.child("backend")));
    errs
}

/// `validateIngressBackend`: exactly one of `service` / `resource`; a service has a valid name and
/// exactly one of port name / number.
fn validate_ingress_backend(backend: &IngressBackend, path: &FieldPath) -> Vec<FieldError> {
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
                // `allowRelaxedServiceNameValidation` is true whenever its gate is on (the v1.36
                // default), so the name is checked with `NameIsDNSLabel`, on create and update.
                errs.extend(invalid_each(&name_path, &service.name, name_is_dns_label(&service.name)));
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
            && !validate_ingress_rule_value(rule, &FieldPath::new("")).is_empty()
    })
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
// For the rest of the crate
// ---------------------------------------------------------------------------------------------

/// `ValidateIngressClassName` (`NameIsDNSSubdomain`): why `name` cannot be an IngressClass name
/// or a `spec.ingressClassName`, empty when it can. For fixes that suggest a class name.
#[cfg(feature = "lint")]
pub(crate) fn ingress_class_name_errors(name: &str) -> Vec<String> {
    name_is_dns_subdomain(name)
}
