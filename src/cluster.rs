//! Envoy cluster names for backends ([`ClusterNames`]), shared by every adapter that names them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::decision::{BackendRef, ServicePort};

/// How each backend names its Envoy cluster: the one naming that `ingress-router envoy-config`
/// writes its clusters with and the Envoy filter routes to, so that the two always agree.
///
/// A Service backend is named by a template over `{namespace}`, `{service}` and `{port}` (the port
/// as the Ingress writes it: a number or a name), a resource backend by one over `{namespace}`,
/// `{apiGroup}`, `{kind}` and `{name}`; any other text is copied as it is. [`Default`] gives
/// [`SERVICE_DEFAULT`](Self::SERVICE_DEFAULT) and [`RESOURCE_DEFAULT`](Self::RESOURCE_DEFAULT).
///
/// ```
/// use ingress_router::decision::{BackendRef, ServicePort};
/// use ingress_router::options::ClusterNames;
/// let cart = BackendRef::Service { namespace: "shop", name: "cart", port: Some(ServicePort::Number(8080)) };
/// assert_eq!(ClusterNames::default().name(&cart), "shop/cart:8080");
///
/// let istio = ClusterNames::default().with_service_template("outbound|{port}||{service}.{namespace}.svc.cluster.local")?;
/// assert_eq!(istio.name(&cart), "outbound|8080||cart.shop.svc.cluster.local");
///
/// let bad = ClusterNames::default().with_service_template("{namespace}/{kind}").unwrap_err();
/// assert_eq!(bad.to_string(), r#"template "{namespace}/{kind}" names {kind}; it may use {namespace}, {service}, {port}"#);
/// # Ok::<(), ingress_router::options::TemplateError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterNames {
    service: Vec<Part>,
    resource: Vec<Part>,
}

impl ClusterNames {
    /// The default name of a Service backend's cluster.
    pub const SERVICE_DEFAULT: &'static str = "{namespace}/{service}:{port}";
    /// The default name of a resource backend's cluster.
    pub const RESOURCE_DEFAULT: &'static str = "{namespace}/resource/{apiGroup}/{kind}/{name}";

    /// Names Service backends by `template` instead.
    pub fn with_service_template(mut self, template: &str) -> Result<ClusterNames, TemplateError> {
        self.service = parse(template, SERVICE_FIELDS)?;
        Ok(self)
    }

    /// Names resource backends by `template` instead.
    pub fn with_resource_template(mut self, template: &str) -> Result<ClusterNames, TemplateError> {
        self.resource = parse(template, RESOURCE_FIELDS)?;
        Ok(self)
    }

    /// The cluster name of `backend`. A Service without a port (only a configured default backend
    /// can lack one) renders `{port}` as nothing.
    pub fn name(&self, backend: &BackendRef<'_>) -> String {
        let parts = match backend {
            BackendRef::Service { .. } => &self.service,
            BackendRef::Resource { .. } => &self.resource,
        };
        let mut out = String::new();
        for part in parts {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Field(field) => push_field(&mut out, *field, backend),
            }
        }
        out
    }
}

fn push_field(out: &mut String, field: Field, backend: &BackendRef<'_>) {
    match (field, *backend) {
        (Field::Namespace, _) => out.push_str(backend.namespace()),
        (Field::Service, BackendRef::Service { name, .. }) => out.push_str(name),
        // Writing to a String cannot fail.
        (Field::Port, BackendRef::Service { port: Some(ServicePort::Number(n)), .. }) => {
            let _ = write!(out, "{n}");
        }
        (Field::Port, BackendRef::Service { port: Some(ServicePort::Name(port)), .. }) => out.push_str(port),
        (Field::ApiGroup, BackendRef::Resource { api_group, .. }) => out.push_str(api_group),
        (Field::Kind, BackendRef::Resource { kind, .. }) => out.push_str(kind),
        (Field::Name, BackendRef::Resource { name, .. }) => out.push_str(name),
        // A Service without a port; parsing keeps every other pair out of the templates.
        _ => {}
    }
}

impl Default for ClusterNames {
    fn default() -> ClusterNames {
        // Both defaults are tested to parse.
        ClusterNames {
            service: parse(ClusterNames::SERVICE_DEFAULT, SERVICE_FIELDS).unwrap_or_default(),
            resource: parse(ClusterNames::RESOURCE_DEFAULT, RESOURCE_FIELDS).unwrap_or_default(),
        }
    }
}

/// A template [`ClusterNames`] refuses. `Display` quotes it and says why, e.g.
/// `template "{namespace}/{kind}" names {kind}; it may use {namespace}, {service}, {port}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    template: String,
    problem: Problem,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Problem {
    Empty,
    Unclosed,
    UnknownField { field: String, allowed: &'static [Field] },
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "template {:?} ", self.template)?;
        match &self.problem {
            Problem::Empty => f.write_str("is empty"),
            Problem::Unclosed => f.write_str("has a '{' without '}'"),
            Problem::UnknownField { field, allowed } => {
                write!(f, "names {{{field}}}; it may use ")?;
                for (i, allowed) in allowed.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    write!(f, "{comma}{{{}}}", allowed.name())?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for TemplateError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Namespace,
    Service,
    Port,
    ApiGroup,
    Kind,
    Name,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Namespace => "namespace",
            Field::Service => "service",
            Field::Port => "port",
            Field::ApiGroup => "apiGroup",
            Field::Kind => "kind",
            Field::Name => "name",
        }
    }
}

const SERVICE_FIELDS: &[Field] = &[Field::Namespace, Field::Service, Field::Port];
const RESOURCE_FIELDS: &[Field] = &[Field::Namespace, Field::ApiGroup, Field::Kind, Field::Name];

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Field(Field),
}

fn parse(template: &str, allowed: &'static [Field]) -> Result<Vec<Part>, TemplateError> {
    let error = |problem| TemplateError { template: template.into(), problem };
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(Part::Text(rest[..open].into()));
        }
        let Some(close) = rest[open..].find('}') else {
            return Err(error(Problem::Unclosed));
        };
        let field = &rest[open + 1..open + close];
        let Some(&known) = allowed.iter().find(|f| f.name() == field) else {
            return Err(error(Problem::UnknownField { field: field.into(), allowed }));
        };
        parts.push(Part::Field(known));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Text(rest.into()));
    }
    if parts.is_empty() {
        return Err(error(Problem::Empty));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn service(port: Option<ServicePort<'static>>) -> BackendRef<'static> {
        BackendRef::Service { namespace: "shop", name: "cart", port }
    }

    const BUCKET: BackendRef<'static> =
        BackendRef::Resource { namespace: "shop", api_group: "k8s.example.com", kind: "StorageBucket", name: "assets" };

    #[test]
    fn defaults_parse() {
        assert!(parse(ClusterNames::SERVICE_DEFAULT, SERVICE_FIELDS).is_ok());
        assert!(parse(ClusterNames::RESOURCE_DEFAULT, RESOURCE_FIELDS).is_ok());
    }

    #[test]
    fn defaults_keep_the_port_as_written() {
        let names = ClusterNames::default();
        assert_eq!(names.name(&service(Some(ServicePort::Number(8080)))), "shop/cart:8080");
        assert_eq!(names.name(&service(Some(ServicePort::Name("http")))), "shop/cart:http");
        assert_eq!(names.name(&service(None)), "shop/cart:");
        assert_eq!(names.name(&BUCKET), "shop/resource/k8s.example.com/StorageBucket/assets");
    }

    #[test]
    fn custom_templates() {
        let names = ClusterNames::default()
            .with_service_template("outbound|{port}||{service}.{namespace}.svc.cluster.local")
            .unwrap()
            .with_resource_template("res-{kind}-{name}")
            .unwrap();
        let b = service(Some(ServicePort::Number(80)));
        assert_eq!(names.name(&b), "outbound|80||cart.shop.svc.cluster.local");
        assert_eq!(names.name(&BUCKET), "res-StorageBucket-assets");
        // Each template is replaced on its own.
        let resource_only = ClusterNames::default().with_resource_template("{name}").unwrap();
        assert_eq!(resource_only.name(&b), "shop/cart:80");
        assert_eq!(resource_only.name(&BUCKET), "assets");
    }

    #[test]
    fn bad_templates_are_named() {
        let service = |t: &str| ClusterNames::default().with_service_template(t).unwrap_err().to_string();
        let resource = |t: &str| ClusterNames::default().with_resource_template(t).unwrap_err().to_string();
        assert_eq!(
            service("{namespace}/{kind}"),
            r#"template "{namespace}/{kind}" names {kind}; it may use {namespace}, {service}, {port}"#
        );
        assert_eq!(
            resource("{service}"),
            r#"template "{service}" names {service}; it may use {namespace}, {apiGroup}, {kind}, {name}"#
        );
        assert_eq!(service("{namespace"), r#"template "{namespace" has a '{' without '}'"#);
        assert_eq!(service(""), r#"template "" is empty"#);
        assert_eq!(service("{}"), r#"template "{}" names {}; it may use {namespace}, {service}, {port}"#);
    }
}
