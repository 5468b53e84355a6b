//! Diagnostics: warnings and notes about the input, each with a stable code, the objects
//! involved and a one-line fix.
//!
//! [`build`](crate::table::build) reports what it finds while building the table (invalid
//! Ingresses, classes not served, duplicate and unreachable paths, default-backend conflicts);
//! [`lint`] adds what is wrong around the table: Services and ports behind backends,
//! IngressClasses, TLS, controller annotations and regex-looking paths ([`Code`] lists them all).
//! With the `gateway` feature, `gateway::GatewayRouter::lint` reports
//! on Gateway API objects in the same catalogue (`route-not-attached`, `route-parent-missing`,
//! `hostname-no-listener`, `backend-not-permitted`, `backend-not-found`, `listener-conflict`,
//! `rule-shadowed`).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::Serialize;

#[cfg(feature = "lint")]
pub mod annotations;
#[cfg(feature = "lint")]
mod checks;
#[cfg(feature = "lint")]
mod controllers;
#[cfg(feature = "lint")]
mod idioms;
#[cfg(feature = "lint")]
mod table;

/// The order diagnostics are listed in (first object, then code): the Gateway API's lint too.
#[cfg(all(feature = "lint", feature = "gateway"))]
pub(crate) use checks::compare as order;
#[cfg(feature = "lint")]
pub use checks::lint;
/// For the `Workspace`, which lints document by document.
#[cfg(all(feature = "lint", feature = "yaml"))]
pub(crate) use checks::{Memo, Parts, lint_parts};

/// What the table tells about `objects` compiled into `router` (Ingresses left out, shadowed and
/// unreachable paths, default-backend conflicts): the diagnostics before [`lint`]'s.
#[cfg(feature = "lint")]
pub(crate) fn of_table(objects: &[crate::model::Object], router: &crate::table::Table) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    table::report(router, &mut diagnostics);
    idioms::explain_canaries(&mut diagnostics, objects);
    diagnostics
}

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

    /// A Gateway API Gateway.
    pub fn gateway(namespace: &str, name: &str) -> Self {
        ObjectRef { kind: "Gateway", namespace: Some(namespace.into()), name: name.into(), field: None }
    }

    /// A Gateway API HTTPRoute.
    #[cfg(test)]
    pub fn http_route(namespace: &str, name: &str) -> Self {
        Self::route("HTTPRoute", namespace, name)
    }

    /// A Gateway API route of `kind` (`HTTPRoute`, `GRPCRoute`).
    #[cfg(any(test, all(feature = "gateway", feature = "lint")))]
    pub(crate) fn route(kind: &'static str, namespace: &str, name: &str) -> Self {
        ObjectRef { kind, namespace: Some(namespace.into()), name: name.into(), field: None }
    }

    /// A Gateway API ReferenceGrant (one to write, when a diagnostic's fix asks for it).
    pub fn reference_grant(namespace: &str, name: &str) -> Self {
        ObjectRef { kind: "ReferenceGrant", namespace: Some(namespace.into()), name: name.into(), field: None }
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
#[non_exhaustive]
pub struct Diagnostic {
    pub code: Code,
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

/// What a diagnostic is about: a stable name (`duplicate-path`) that tools and tests match on.
/// Serialised as [`as_str`](Code::as_str).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// The Ingress fails validation and is left out.
    InvalidIngress,
    /// The Ingress belongs to a class that is not served.
    NotServed,
    /// Two declarations of the same host + path + pathType.
    DuplicatePath,
    /// A path that another path always beats.
    UnreachablePath,
    /// Several Ingresses declare a `defaultBackend` for the same requests.
    DefaultBackendConflict,
    /// A backend names a Service that is not in the input (in the Ingress's namespace).
    MissingService,
    /// A backend names a port (`port.name`) the Service does not define.
    MissingPortName,
    /// A backend names a port number (`port.number`) the Service does not expose.
    MissingPortNumber,
    /// A backend's Service has no ports.
    ServiceWithoutPorts,
    /// A backend is an ExternalName Service: some controllers support it, others do not.
    ExternalNameBackend,
    /// `spec.ingressClassName` names a class no IngressClass in the input defines.
    UnknownIngressClass,
    /// More than one IngressClass is marked as the cluster default.
    MultipleDefaultClasses,
    /// The deprecated `kubernetes.io/ingress.class` annotation.
    DeprecatedClassAnnotation,
    /// A `spec.tls[].hosts[]` entry that no rule host of the same Ingress matches.
    TlsHostWithoutRule,
    /// A rule host without TLS while the same Ingress terminates TLS for other hosts.
    HostWithoutTls,
    /// A TLS entry without `secretName`: the controller's default certificate answers.
    TlsWithoutSecret,
    /// An annotation under a controller prefix that the controller does not know.
    UnknownAnnotation,
    /// An annotation only newer controller releases know.
    NewerReleaseAnnotation,
    /// An ingress-nginx annotation that current controller releases no longer read.
    RemovedAnnotation,
    /// An annotation whose prefix is a misspelling of a controller's prefix: silently ignored.
    MisspelledAnnotationPrefix,
    /// A regex-looking path under `Exact` or `Prefix`, which match it literally.
    RegexPathLiteral,
    /// ingress-nginx `use-regex`/`rewrite-target`: every path of the host is a case-insensitive regex there.
    NginxRegexHost,
    /// An ingress-nginx canary Ingress: a traffic split there, an ordinary competing Ingress under the spec.
    NginxCanary,
    /// A `/*` path: a wildcard for GKE and ALB, a literal `*` under the spec.
    GlobPath,
    /// An ALB `actions.*`/`conditions.*` annotation: routing outside the Ingress spec.
    AlbActionAnnotation,
    /// The ingress-nginx profile: the controller ignores an annotation (a bad value, a canary's
    /// own routing annotations, a `default-backend` Service not in the input, a refused alias).
    NginxIgnoredAnnotation,
    /// The ingress-nginx profile: the controller writes no location for a path (a resource
    /// backend, a location another Ingress already has, a regex nginx refuses).
    NginxSkippedPath,
    /// The ingress-nginx profile: a canary that can take no traffic (no such host or location).
    NginxInertCanary,
    /// A Gateway API object that cannot be read (the apiserver would refuse it) is left out.
    InvalidGatewayObject,
    /// Gateway API: an HTTPRoute parentRef names a Gateway of the input but attaches to none of
    /// its listeners (`NoMatchingParent`, `NotAllowedByListeners`, `NoMatchingListenerHostname`).
    RouteNotAttached,
    /// Gateway API: an HTTPRoute parentRef names a Gateway that is not in the input.
    RouteParentMissing,
    /// Gateway API: route hostnames that intersect no hostname of the listeners the route
    /// attaches to (the route serves the others only).
    HostnameNoListener,
    /// Gateway API: a backendRef to another namespace that no ReferenceGrant there allows.
    BackendNotPermitted,
    /// Gateway API: a backendRef's Service, or its port, is not in the input.
    BackendNotFound,
    /// Gateway API: listeners of one Gateway that conflict (the same port and protocol with the
    /// same hostname, or the same port with different protocols).
    ListenerConflict,
    /// Gateway API: a route match that never wins, because a match of higher precedence with the
    /// same conditions is served on the same hostname and listener.
    RuleShadowed,
}

impl Code {
    /// The stable, kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidIngress => "invalid-ingress",
            Code::NotServed => "class-not-served",
            Code::DuplicatePath => "duplicate-path",
            Code::UnreachablePath => "unreachable-path",
            Code::DefaultBackendConflict => "default-backend-conflict",
            Code::MissingService => "missing-service",
            Code::MissingPortName => "missing-port-name",
            Code::MissingPortNumber => "missing-port-number",
            Code::ServiceWithoutPorts => "service-without-ports",
            Code::ExternalNameBackend => "external-name-backend",
            Code::UnknownIngressClass => "unknown-ingress-class",
            Code::MultipleDefaultClasses => "multiple-default-classes",
            Code::DeprecatedClassAnnotation => "deprecated-class-annotation",
            Code::TlsHostWithoutRule => "tls-host-without-rule",
            Code::HostWithoutTls => "host-without-tls",
            Code::TlsWithoutSecret => "tls-without-secret",
            Code::UnknownAnnotation => "unknown-annotation",
            Code::NewerReleaseAnnotation => "newer-release-annotation",
            Code::MisspelledAnnotationPrefix => "misspelled-annotation-prefix",
            Code::RemovedAnnotation => "removed-annotation",
            Code::RegexPathLiteral => "regex-path-literal",
            Code::NginxRegexHost => "nginx-regex-host",
            Code::NginxCanary => "nginx-canary",
            Code::GlobPath => "glob-path",
            Code::AlbActionAnnotation => "alb-action-annotation",
            Code::NginxIgnoredAnnotation => "nginx-ignored-annotation",
            Code::NginxSkippedPath => "nginx-skipped-path",
            Code::NginxInertCanary => "nginx-inert-canary",
            Code::InvalidGatewayObject => "invalid-gateway-object",
            Code::RouteNotAttached => "route-not-attached",
            Code::RouteParentMissing => "route-parent-missing",
            Code::HostnameNoListener => "hostname-no-listener",
            Code::BackendNotPermitted => "backend-not-permitted",
            Code::BackendNotFound => "backend-not-found",
            Code::ListenerConflict => "listener-conflict",
            Code::RuleShadowed => "rule-shadowed",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The codes by their old constant names, for the checks that emit them.
#[cfg(feature = "lint")]
pub(crate) mod code {
    use super::Code;

    pub(crate) const INVALID_INGRESS: Code = Code::InvalidIngress;
    pub(crate) const NOT_SERVED: Code = Code::NotServed;
    pub(crate) const DUPLICATE_PATH: Code = Code::DuplicatePath;
    pub(crate) const UNREACHABLE_PATH: Code = Code::UnreachablePath;
    pub(crate) const DEFAULT_BACKEND_CONFLICT: Code = Code::DefaultBackendConflict;
    pub(crate) const MISSING_SERVICE: Code = Code::MissingService;
    pub(crate) const MISSING_PORT_NAME: Code = Code::MissingPortName;
    pub(crate) const MISSING_PORT_NUMBER: Code = Code::MissingPortNumber;
    pub(crate) const SERVICE_WITHOUT_PORTS: Code = Code::ServiceWithoutPorts;
    pub(crate) const EXTERNAL_NAME_BACKEND: Code = Code::ExternalNameBackend;
    pub(crate) const UNKNOWN_INGRESS_CLASS: Code = Code::UnknownIngressClass;
    pub(crate) const MULTIPLE_DEFAULT_CLASSES: Code = Code::MultipleDefaultClasses;
    pub(crate) const DEPRECATED_CLASS_ANNOTATION: Code = Code::DeprecatedClassAnnotation;
    pub(crate) const TLS_HOST_WITHOUT_RULE: Code = Code::TlsHostWithoutRule;
    pub(crate) const HOST_WITHOUT_TLS: Code = Code::HostWithoutTls;
    pub(crate) const TLS_WITHOUT_SECRET: Code = Code::TlsWithoutSecret;
    pub(crate) const UNKNOWN_ANNOTATION: Code = Code::UnknownAnnotation;
    pub(crate) const NEWER_RELEASE_ANNOTATION: Code = Code::NewerReleaseAnnotation;
    pub(crate) const MISSPELLED_ANNOTATION_PREFIX: Code = Code::MisspelledAnnotationPrefix;
    pub(crate) const REMOVED_ANNOTATION: Code = Code::RemovedAnnotation;
    pub(crate) const REGEX_PATH_LITERAL: Code = Code::RegexPathLiteral;
    pub(crate) const NGINX_REGEX_HOST: Code = Code::NginxRegexHost;
    pub(crate) const NGINX_CANARY: Code = Code::NginxCanary;
    pub(crate) const GLOB_PATH: Code = Code::GlobPath;
    pub(crate) const ALB_ACTION_ANNOTATION: Code = Code::AlbActionAnnotation;
}
