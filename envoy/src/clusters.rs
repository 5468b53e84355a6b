//! Envoy cluster names for backends, from the configured templates.
//!
//! `{namespace}/{service}:{port}` (the port as written in the Ingress: a number or a name) and
//! `{namespace}/resource/{apiGroup}/{kind}/{name}`. Names are rendered once, at configure time.

use ingress_router::{BackendRef, ServicePort};

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

/// The cluster of a backend: the service template for Service backends, the resource template
/// for resource backends. `None` for a kind of backend this filter does not know.
pub fn cluster_name(service: &Template, resource: &Template, backend: &BackendRef<'_>) -> Option<String> {
    let (template, svc, res) = match *backend {
        BackendRef::Service { name, port, .. } => (service, Some((name, port)), None),
        BackendRef::Resource { api_group, kind, name, .. } => (resource, None, Some((api_group, kind, name))),
        _ => return None,
    };
    let mut out = String::new();
    for part in &template.0 {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Namespace => out.push_str(backend.namespace()),
            Part::Service => out.push_str(svc.map_or("", |s| s.0)),
            Part::Port => match svc.and_then(|s| s.1) {
                Some(ServicePort::Number(n)) => out.push_str(&n.to_string()),
                Some(ServicePort::Name(name)) => out.push_str(name),
                None => {}
            },
            Part::ApiGroup => out.push_str(res.map_or("", |r| r.0)),
            Part::Kind => out.push_str(res.map_or("", |r| r.1)),
            Part::Name => out.push_str(res.map_or("", |r| r.2)),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DEFAULT_CLUSTER_TEMPLATE, DEFAULT_RESOURCE_CLUSTER_TEMPLATE};

    fn name(backend: BackendRef<'_>) -> String {
        let service = Template::service(DEFAULT_CLUSTER_TEMPLATE).unwrap();
        let resource = Template::resource(DEFAULT_RESOURCE_CLUSTER_TEMPLATE).unwrap();
        cluster_name(&service, &resource, &backend).unwrap()
    }

    fn service(port: Option<ServicePort<'static>>) -> BackendRef<'static> {
        BackendRef::Service { namespace: "shop", name: "cart", port }
    }

    #[test]
    fn defaults_keep_the_port_as_written() {
        assert_eq!(name(service(Some(ServicePort::Number(8080)))), "shop/cart:8080");
        assert_eq!(name(service(Some(ServicePort::Name("http")))), "shop/cart:http");
        let bucket = BackendRef::Resource {
            namespace: "shop",
            api_group: "k8s.example.com",
            kind: "StorageBucket",
            name: "assets",
        };
        assert_eq!(name(bucket), "shop/resource/k8s.example.com/StorageBucket/assets");
    }

    #[test]
    fn custom_templates() {
        let service_template = Template::service("outbound|{port}||{service}.{namespace}.svc.cluster.local").unwrap();
        let resource = Template::resource("res-{kind}-{name}").unwrap();
        let b = service(Some(ServicePort::Number(80)));
        assert_eq!(cluster_name(&service_template, &resource, &b).unwrap(), "outbound|80||cart.shop.svc.cluster.local");
    }

    #[test]
    fn bad_templates_are_named() {
        assert!(Template::service("{namespace}/{kind}").unwrap_err().contains("{kind}"));
        assert!(Template::resource("{service}").unwrap_err().contains("resourceClusterTemplate"));
        assert!(Template::service("{namespace").unwrap_err().contains("without"));
        assert!(Template::service("").unwrap_err().contains("empty"));
    }
}
