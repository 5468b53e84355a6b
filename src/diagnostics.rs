//! Diagnostics: warnings and notes about the input, each with a stable code, the objects
//! involved and a one-line fix.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::Serialize;

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

/// Codes of the diagnostics the compiler itself emits.
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
}
