//! Objects the apiserver refuses before validation: Ingresses of API versions it no longer serves,
//! and fields its strict decoding does not know. Both are kept apart from the objects, with what
//! kubectl prints for them and how to write them for `networking.k8s.io/v1`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::Origin;

/// An Ingress or IngressClass of an API version no apiserver serves (`extensions/v1beta1` and
/// `networking.k8s.io/v1beta1` were removed in Kubernetes 1.22): left out of the input.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Unserved {
    pub origin: Origin,
    pub kind: String,
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub name: String,
    /// As written in the file (kubectl prints `""` when it is absent).
    pub namespace: Option<String>,
    /// Each v1beta1 field of the object and what it became in v1 (`field: old → new`).
    pub changes: Vec<String>,
}

impl Unserved {
    /// The object, when `kind` is an Ingress or IngressClass of a version other than `networking.k8s.io/v1`.
    pub(super) fn find(kind: &str, api_version: &str, value: &Value, origin: &Origin) -> Option<Unserved> {
        if !matches!(kind, "Ingress" | "IngressClass") || matches!(api_version, "networking.k8s.io/v1" | "") {
            return None;
        }
        let meta = value.get("metadata");
        let text = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_str).map(String::from);
        let mut changes = Vec::new();
        if kind == "Ingress" {
            v1beta1_changes(value, &mut changes);
        }
        Some(Unserved {
            origin: origin.clone(),
            kind: kind.to_string(),
            api_version: api_version.to_string(),
            name: text("name").unwrap_or_default(),
            namespace: text("namespace"),
            changes,
        })
    }

    /// What `kubectl apply -f FILE` prints (kubectl 1.22 and later, against any apiserver since 1.22).
    #[cfg(any(feature = "yaml", test))]
    pub fn kubectl_message(&self) -> String {
        format!(
            "error: resource mapping not found for name: {:?} namespace: {:?} from {:?}: no matches for kind {:?} in version {:?}\nensure CRDs are installed first",
            self.name,
            self.namespace.as_deref().unwrap_or(""),
            self.origin.source,
            self.kind,
            self.api_version
        )
    }

    /// How to write it for v1, in one line.
    pub fn fix(&self) -> String {
        let mut fix = String::from("set apiVersion: networking.k8s.io/v1");
        if self.kind == "Ingress" {
            fix.push_str(
                "; in v1 `backend.serviceName`/`servicePort` became `backend.service.name`/`service.port.number` \
                 (or `service.port.name`), `spec.backend` became `spec.defaultBackend`, and every path needs a \
                 `pathType` (v1beta1 defaulted it to ImplementationSpecific)",
            );
        }
        fix
    }

    /// The note `route`/`table` print: the object is left out, and why.
    pub fn note(&self) -> String {
        format!(
            "left out {} {:?}: apiVersion {} is not served by any Kubernetes since 1.22 (kubectl apply says: no matches \
             for kind {:?} in version {:?}); {}",
            self.kind,
            self.name,
            self.api_version,
            self.kind,
            self.api_version,
            self.fix()
        )
    }
}

/// The v1beta1 fields of an Ingress and their v1 form.
fn v1beta1_changes(value: &Value, out: &mut Vec<String>) {
    let Some(spec) = value.get("spec") else { return };
    if let Some(backend) = spec.get("backend") {
        out.push(format!("spec.backend → spec.defaultBackend{}", backend_change(backend)));
    }
    let Some(Value::Array(rules)) = spec.get("rules") else { return };
    for (i, rule) in rules.iter().enumerate() {
        let Some(Value::Array(paths)) = rule.get("http").and_then(|h| h.get("paths")) else { continue };
        for (j, path) in paths.iter().enumerate() {
            let at = format!("spec.rules[{i}].http.paths[{j}]");
            if let Some(backend) = path.get("backend") {
                let change = backend_change(backend);
                if !change.is_empty() {
                    out.push(format!("{at}.backend{change}"));
                }
            }
            if path.get("pathType").is_none_or(Value::is_null) {
                out.push(format!("{at}.pathType: required in v1 (v1beta1 defaulted it to ImplementationSpecific)"));
            }
        }
    }
}

/// `: serviceName: web, servicePort: 80 → service: {name: web, port: {number: 80}}`, or empty.
fn backend_change(backend: &Value) -> String {
    let name = backend.get("serviceName");
    let port = backend.get("servicePort");
    if name.is_none() && port.is_none() {
        return String::new();
    }
    let name_text = name.and_then(Value::as_str).unwrap_or("");
    let port_text = match port {
        Some(Value::Number(n)) => format!("number: {n}"),
        Some(Value::String(s)) => match s.parse::<u32>() {
            Ok(n) => format!("number: {n}"),
            Err(_) => format!("name: {s}"),
        },
        _ => String::from("number: ..."),
    };
    format!(": serviceName/servicePort → service: {{name: {name_text}, port: {{{port_text}}}}}")
}

/// An object with fields the apiserver's strict decoding does not know (`kubectl apply`'s default,
/// `--validate=strict`, refuses it); routing reads the object and ignores them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct UnknownFields {
    pub origin: Origin,
    pub kind: &'static str,
    pub namespace: Option<String>,
    pub name: String,
    /// Field paths with list indexes (`spec.rules[0].http.paths[0].backend.serviceName`).
    pub fields: Vec<String>,
}

/// What a well-known field of an older API became in `networking.k8s.io/v1`, for an unknown field.
#[cfg(feature = "yaml")]
pub(crate) fn v1_replacement(field: &str) -> Option<&'static str> {
    let last = field.rsplit('.').next().unwrap_or(field);
    match last {
        "serviceName" => Some("it is `service.name` in networking.k8s.io/v1 (v1beta1's serviceName)"),
        "servicePort" => Some(
            "it is `service.port.number` (or `service.port.name` for a named port) in networking.k8s.io/v1 (v1beta1's servicePort)",
        ),
        "backend" if field == "spec.backend" => {
            Some("it is `spec.defaultBackend` in networking.k8s.io/v1 (v1beta1's spec.backend)")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn origin() -> Origin {
        Origin { source: "old.yaml".into(), document: 1, item: None }
    }

    #[test]
    fn kubectl_words_and_v1_mapping() {
        let v = json!({"apiVersion": "extensions/v1beta1", "kind": "Ingress", "metadata": {"name": "web"},
            "spec": {"backend": {"serviceName": "d", "servicePort": 80},
                     "rules": [{"http": {"paths": [{"path": "/", "backend": {"serviceName": "web", "servicePort": "http"}}]}}]}});
        let u = Unserved::find("Ingress", "extensions/v1beta1", &v, &origin()).unwrap();
        assert_eq!(
            u.kubectl_message(),
            "error: resource mapping not found for name: \"web\" namespace: \"\" from \"old.yaml\": no matches for kind \"Ingress\" in version \"extensions/v1beta1\"\nensure CRDs are installed first"
        );
        assert_eq!(
            u.changes,
            [
                "spec.backend → spec.defaultBackend: serviceName/servicePort → service: {name: d, port: {number: 80}}",
                "spec.rules[0].http.paths[0].backend: serviceName/servicePort → service: {name: web, port: {name: http}}",
                "spec.rules[0].http.paths[0].pathType: required in v1 (v1beta1 defaulted it to ImplementationSpecific)",
            ]
        );
        assert!(Unserved::find("Ingress", "networking.k8s.io/v1", &v, &origin()).is_none());
        assert!(Unserved::find("Service", "v1beta1", &v, &origin()).is_none());
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn replacements() {
        assert!(v1_replacement("spec.rules[0].http.paths[0].backend.serviceName").unwrap().contains("service.name"));
        assert!(v1_replacement("spec.backend").unwrap().contains("defaultBackend"));
        assert!(v1_replacement("spec.rules[0].http.paths[0].backend").is_none());
        assert!(v1_replacement("spec.rules[0].hots").is_none());
    }
}
