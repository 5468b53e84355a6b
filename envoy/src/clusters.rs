//! Envoy cluster names for backends, from the configured templates.
//!
//! `{namespace}/{service}:{port}` (the port as written in the Ingress: a number or a name) and
//! `{namespace}/resource/{apiGroup}/{kind}/{name}`. Names are rendered once, at configure time.

use ingress_router::model::IngressBackend;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Namespace,
    Service,
    Port,
    ApiGroup,
    Kind,
    Name,
}

/// A parsed template.
#[derive(Clone, Debug)]
pub struct Template(Vec<Part>);

const SERVICE_FIELDS: &[&str] = &["namespace", "service", "port"];
const RESOURCE_FIELDS: &[&str] = &["namespace", "apiGroup", "kind", "name"];

impl Template {
    pub fn service(text: &str) -> Result<Template, String> {
        Template::parse("clusterTemplate", text, SERVICE_FIELDS)
    }

    pub fn resource(text: &str) -> Result<Template, String> {
        Template::parse("resourceClusterTemplate", text, RESOURCE_FIELDS)
    }

    fn parse(key: &str, text: &str, allowed: &[&str]) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].into()));
            }
            let Some(close) = rest[open..].find('}') else {
                return Err(format!("plugin configuration: {key} {text:?} has a '{{' without '}}'"));
            };
            let field = &rest[open + 1..open + close];
            if !allowed.contains(&field) {
                return Err(format!(
                    "plugin configuration: {key} {text:?} names {{{field}}}; it may use {}",
                    allowed.iter().map(|f| format!("{{{f}}}")).collect::<Vec<_>>().join(", ")
                ));
            }
            parts.push(match field {
                "namespace" => Part::Namespace,
                "service" => Part::Service,
                "port" => Part::Port,
                "apiGroup" => Part::ApiGroup,
                "kind" => Part::Kind,
                _ => Part::Name,
            });
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.into()));
        }
        if parts.is_empty() {
            return Err(format!("plugin configuration: {key} is empty"));
        }
        Ok(Template(parts))
    }
}

/// The cluster of a backend of an Ingress in `namespace`: the service template for Service
/// backends, the resource template for resource backends.
pub fn cluster_name(service: &Template, resource: &Template, namespace: &str, backend: &IngressBackend) -> String {
    let mut out = String::new();
    let (template, svc, res) = match (&backend.service, &backend.resource) {
        (Some(s), _) => (service, Some(s), None),
        (None, r) => (resource, None, r.as_ref()),
    };
    for part in &template.0 {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Namespace => out.push_str(namespace),
            Part::Service => out.push_str(svc.map_or("", |s| &s.name)),
            Part::Port => {
                let port = svc.and_then(|s| s.port.as_ref());
                match (port.and_then(|p| p.number).filter(|&n| n != 0), port.and_then(|p| p.name.as_deref())) {
                    (Some(n), _) => out.push_str(&n.to_string()),
                    (None, Some(name)) => out.push_str(name),
                    (None, None) => {}
                }
            }
            Part::ApiGroup => out.push_str(res.and_then(|r| r.api_group.as_deref()).unwrap_or("")),
            Part::Kind => out.push_str(res.map_or("", |r| &r.kind)),
            Part::Name => out.push_str(res.map_or("", |r| &r.name)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DEFAULT_CLUSTER_TEMPLATE, DEFAULT_RESOURCE_CLUSTER_TEMPLATE};

    fn backend(json: &str) -> IngressBackend {
        serde_json::from_str(json).unwrap()
    }

    fn name(json: &str) -> String {
        let service = Template::service(DEFAULT_CLUSTER_TEMPLATE).unwrap();
        let resource = Template::resource(DEFAULT_RESOURCE_CLUSTER_TEMPLATE).unwrap();
        cluster_name(&service, &resource, "shop", &backend(json))
    }

    #[test]
    fn defaults_keep_the_port_as_written() {
        assert_eq!(name(r#"{"service": {"name": "cart", "port": {"number": 8080}}}"#), "shop/cart:8080");
        assert_eq!(name(r#"{"service": {"name": "cart", "port": {"name": "http"}}}"#), "shop/cart:http");
        assert_eq!(
            name(r#"{"resource": {"apiGroup": "k8s.example.com", "kind": "StorageBucket", "name": "assets"}}"#),
            "shop/resource/k8s.example.com/StorageBucket/assets"
        );
    }

    #[test]
    fn custom_templates() {
        let service = Template::service("outbound|{port}||{service}.{namespace}.svc.cluster.local").unwrap();
        let resource = Template::resource("res-{kind}-{name}").unwrap();
        let b = backend(r#"{"service": {"name": "cart", "port": {"number": 80}}}"#);
        assert_eq!(cluster_name(&service, &resource, "shop", &b), "outbound|80||cart.shop.svc.cluster.local");
    }

    #[test]
    fn bad_templates_are_named() {
        assert!(Template::service("{namespace}/{kind}").unwrap_err().contains("{kind}"));
        assert!(Template::resource("{service}").unwrap_err().contains("resourceClusterTemplate"));
        assert!(Template::service("{namespace").unwrap_err().contains("without"));
        assert!(Template::service("").unwrap_err().contains("empty"));
    }
}
