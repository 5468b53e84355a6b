//! Diagnostics: warnings and notes about the input, each with a stable code, the objects
//! involved and a one-line fix.
//!
//! [`compile`](crate::table::compile) reports what it finds while building the table (invalid
//! Ingresses, classes not served, duplicate and unreachable paths, default-backend conflicts);
//! [`lint`] adds what is wrong around the table: Services and ports behind backends,
//! IngressClasses, TLS, controller annotations and regex-looking paths ([`code`] lists them all).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::Serialize;

pub mod annotations;
mod checks;
pub mod controllers;
pub mod idioms;

pub use checks::lint;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The object is rejected (the apiserver would refuse it) and left out of the table.
    Error,
    /// Traffic does not go where the author most likely meant.
    Warning,
    /// Worth knowing; nothing is wrong.
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// An object a diagnostic is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectRef {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
    /// Field path inside the object, when the diagnostic is about one field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl ObjectRef {
    pub fn ingress(namespace: &str, name: &str) -> Self {
        ObjectRef { kind: "Ingress", namespace: Some(namespace.into()), name: name.into(), field: None }
    }

    pub fn service(namespace: &str, name: &str) -> Self {
        ObjectRef { kind: "Service", namespace: Some(namespace.into()), name: name.into(), field: None }
    }

    /// IngressClasses are cluster-scoped: no namespace.
    pub fn ingress_class(name: &str) -> Self {
        ObjectRef { kind: "IngressClass", namespace: None, name: name.into(), field: None }
    }

    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{} {}/{}", self.kind, ns, self.name)?,
            None => write!(f, "{} {}", self.kind, self.name)?,
        }
        if let Some(field) = &self.field {
            write!(f, " ({field})")?;
        }
        Ok(())
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable, kebab-case (`duplicate-path`); tools and tests match on it.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The objects involved, the one to change first.
    pub objects: Vec<ObjectRef>,
    /// What to do about it, in one line.
    pub fix: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.severity.as_str(), self.code, self.message)?;
        if !self.fix.is_empty() {
            write!(f, "\n  fix: {}", self.fix)?;
        }
        Ok(())
    }
}

/// Stable codes: those the compiler itself emits, then those of [`lint`].
pub mod code {
    /// The Ingress fails validation and is left out.
    pub const INVALID_INGRESS: &str = "invalid-ingress";
    /// The Ingress belongs to a class that is not served.
    pub const NOT_SERVED: &str = "class-not-served";
    /// Two declarations of the same host + path + pathType.
    pub const DUPLICATE_PATH: &str = "duplicate-path";
    /// A path that another path always beats.
    pub const UNREACHABLE_PATH: &str = "unreachable-path";
    /// Several Ingresses declare a `defaultBackend` for the same requests.
    pub const DEFAULT_BACKEND_CONFLICT: &str = "default-backend-conflict";

    // Emitted by `lint`.
    /// A backend names a Service that is not in the input (in the Ingress's namespace).
    pub const MISSING_SERVICE: &str = "missing-service";
    /// A backend names a port (`port.name`) the Service does not define.
    pub const MISSING_PORT_NAME: &str = "missing-port-name";
    /// A backend names a port number (`port.number`) the Service does not expose.
    pub const MISSING_PORT_NUMBER: &str = "missing-port-number";
    /// A backend's Service has no ports.
    pub const SERVICE_WITHOUT_PORTS: &str = "service-without-ports";
    /// A backend is an ExternalName Service: some controllers support it, others do not.
    pub const EXTERNAL_NAME_BACKEND: &str = "external-name-backend";
    /// `spec.ingressClassName` names a class no IngressClass in the input defines.
    pub const UNKNOWN_INGRESS_CLASS: &str = "unknown-ingress-class";
    /// More than one IngressClass is marked as the cluster default.
    pub const MULTIPLE_DEFAULT_CLASSES: &str = "multiple-default-classes";
    /// The deprecated `kubernetes.io/ingress.class` annotation.
    pub const DEPRECATED_CLASS_ANNOTATION: &str = "deprecated-class-annotation";
    /// A `spec.tls[].hosts[]` entry that no rule host of the same Ingress matches.
    pub const TLS_HOST_WITHOUT_RULE: &str = "tls-host-without-rule";
    /// A rule host without TLS while the same Ingress terminates TLS for other hosts.
    pub const HOST_WITHOUT_TLS: &str = "host-without-tls";
    /// A TLS entry without `secretName`: the controller's default certificate answers.
    pub const TLS_WITHOUT_SECRET: &str = "tls-without-secret";
    /// An annotation under a controller prefix that the controller does not know.
    pub const UNKNOWN_ANNOTATION: &str = "unknown-annotation";
    /// An annotation only newer controller releases know.
    pub const NEWER_RELEASE_ANNOTATION: &str = "newer-release-annotation";
    /// An ingress-nginx annotation that current controller releases no longer read.
    pub const REMOVED_ANNOTATION: &str = "removed-annotation";
    /// An annotation whose prefix is a misspelling of a controller's prefix: silently ignored.
    pub const MISSPELLED_ANNOTATION_PREFIX: &str = "misspelled-annotation-prefix";
    /// A regex-looking path under `Exact` or `Prefix`, which match it literally.
    pub const REGEX_PATH_LITERAL: &str = "regex-path-literal";
    /// ingress-nginx `use-regex`/`rewrite-target`: every path of the host is a case-insensitive regex there.
    pub const NGINX_REGEX_HOST: &str = "nginx-regex-host";
    /// An ingress-nginx canary Ingress: a traffic split there, an ordinary competing Ingress under the spec.
    pub const NGINX_CANARY: &str = "nginx-canary";
    /// A `/*` path: a wildcard for GKE and ALB, a literal `*` under the spec.
    pub const GLOB_PATH: &str = "glob-path";
    /// An ALB `actions.*`/`conditions.*` annotation: routing outside the Ingress spec.
    pub const ALB_ACTION_ANNOTATION: &str = "alb-action-annotation";
}
