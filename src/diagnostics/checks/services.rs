//! The Services behind backends: missing, ExternalName, without ports, port names and numbers.

use super::*;

/// One backend of an Ingress: `spec.defaultBackend` or a rule path's.
pub(super) struct BackendSite<'a> {
    pub(super) ingress: &'a Ingress,
    /// `spec.defaultBackend` or `spec.rules[i].http.paths[j].backend`.
    pub(super) field: String,
    pub(super) service: Option<&'a IngressServiceBackend>,
}

impl BackendSite<'_> {
    /// `Ingress ns/name: <field>.service.<suffix>`, the head of every backend message.
    fn at(&self, suffix: &str) -> String {
        format!("{}: {}.service.{suffix}", ingress_label(self.ingress), self.field)
    }

    fn object(&self, suffix: &str) -> ObjectRef {
        ingress_ref(self.ingress).with_field(format!("{}.service.{suffix}", self.field))
    }

    fn port_name(&self) -> Option<&str> {
        self.service.and_then(|s| s.port.as_ref()).and_then(|p| p.name.as_deref()).filter(|n| !n.is_empty())
    }

    fn port_number(&self) -> Option<i64> {
        self.service.and_then(|s| s.port.as_ref()).and_then(|p| p.number).filter(|&n| n != 0)
    }
}

pub(super) type ServiceCheck = fn(&BackendSite<'_>, Option<&Service>, &mut ServiceIndex<'_>) -> Option<Diagnostic>;

/// The checks run on every Service backend, with the Service it names (when the input has it).
pub(super) const SERVICE_CHECKS: [ServiceCheck; 5] =
    [check_missing_service, check_external_name, check_service_without_ports, check_port_name, check_port_number];

/// The backend names a Service that is not in the input (in the Ingress's namespace).
pub(super) fn check_missing_service(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    services: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let backend = site.service?;
    if target.is_some() || crate::diagnostics::idioms::is_alb_action_backend(site.ingress, backend) {
        return None; // an ALB action is no Service: alb-action-annotation names it
    }
    let namespace = namespace(site.ingress);
    let mut message = format!(
        "{}: Service {namespace}/{} is not in the input, so requests routed here fail (ingress-nginx answers 503)",
        site.at("name"),
        backend.name
    );
    let same_namespace = services.names_by_namespace.get(namespace).map_or(&[][..], Vec::as_slice);
    let suggestion = if same_namespace.len() > MAX_SUGGESTIONS {
        None
    } else if services.suggestions_left > 0 {
        services.suggestions_left -= 1;
        crate::spelling::closest(&backend.name, same_namespace.iter().copied())
    } else {
        services.starved = true;
        None
    };
    if let Some(s) = suggestion {
        message.push_str(&format!("; did you mean Service {namespace}/{s}?"));
    }
    let elsewhere: Vec<&str> = services
        .namespaces_by_name
        .get(backend.name.as_str())
        .into_iter()
        .flatten()
        .copied()
        .filter(|&ns| ns != namespace)
        .take(10)
        .collect();
    if !elsewhere.is_empty() {
        message.push_str(&format!(
            "; a Service of that name exists in namespace {}, but an Ingress only reaches Services in its own namespace",
            elsewhere.join(", ")
        ));
    }
    let fix = match suggestion {
        Some(s) => format!("set {}.service.name to {s:?}, or create Service {namespace}/{}", site.field, backend.name),
        None => format!("create Service {namespace}/{}, or correct {}.service.name", backend.name, site.field),
    };
    Some(diagnostic(code::MISSING_SERVICE, Severity::Warning, message, vec![site.object("name")], fix))
}

/// The backend is an ExternalName Service: some controllers proxy to the external name, others refuse it.
pub(super) fn check_external_name(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    _: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let service = target.filter(|s| is_external_name(s))?;
    let external = service.spec.external_name.as_deref().unwrap_or("");
    Some(diagnostic(
        code::EXTERNAL_NAME_BACKEND,
        Severity::Warning,
        format!(
            "{}: Service {} is of type ExternalName ({external:?}); ingress-nginx proxies to that name, \
             but other controllers refuse ExternalName backends or need them enabled (Contour turns them off by default)",
            site.at("name"),
            service_label(service),
        ),
        vec![site.object("name"), service_ref(service).with_field("spec.externalName")],
        String::from("make sure the controller supports ExternalName backends, or route to a ClusterIP Service"),
    ))
}

/// The backend's Service defines no ports: there is nowhere to send traffic.
pub(super) fn check_service_without_ports(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    _: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let service = target.filter(|s| !is_external_name(s) && s.spec.ports.is_empty())?;
    Some(diagnostic(
        code::SERVICE_WITHOUT_PORTS,
        Severity::Warning,
        format!(
            "{}: Service {} defines no ports (spec.ports is empty), so the backend has no port to send requests to",
            site.at("name"),
            service_label(service),
        ),
        vec![site.object("name"), service_ref(service).with_field("spec.ports")],
        format!("add the port the backend uses to spec.ports of Service {}", service_label(service)),
    ))
}

/// The backend names a port (`port.name`) that the Service does not define in `spec.ports[].name`.
pub(super) fn check_port_name(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    _: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let service = target.filter(|s| !is_external_name(s) && !s.spec.ports.is_empty())?;
    let wanted = site.port_name()?;
    let ports = &service.spec.ports;
    if ports.iter().any(|p| p.name.as_deref() == Some(wanted)) {
        return None;
    }
    let mut message = format!(
        "{}: Service {} has no port named {wanted:?} (its ports: {})",
        site.at("port.name"),
        service_label(service),
        list_ports(ports),
    );
    // A container port name is the classic mix-up: the Ingress names the Service's port.
    let by_target = ports.iter().find(|p| p.target_port.as_ref().and_then(|t| t.as_str()) == Some(wanted));
    let suggestion = by_target.or_else(|| {
        let close = crate::spelling::closest(wanted, ports.iter().filter_map(|p| p.name.as_deref()))?;
        ports.iter().find(|p| p.name.as_deref() == Some(close))
    });
    if let Some(p) = by_target {
        message.push_str(&format!(
            "; {wanted:?} is the targetPort (a container port) of its port {}: an Ingress names the Service's own port",
            port_label(p)
        ));
    }
    let fix = match suggestion {
        Some(p) => format!("set {}.service.port to {}", site.field, port_reference(p)),
        None => format!(
            "name one of the Service's ports in {}.service.port, or add a port named {wanted:?} to the Service",
            site.field
        ),
    };
    Some(diagnostic(
        code::MISSING_PORT_NAME,
        Severity::Warning,
        message,
        vec![site.object("port.name"), service_ref(service).with_field("spec.ports")],
        fix,
    ))
}

/// The backend names a port number (`port.number`) that the Service does not expose in `spec.ports[].port`.
pub(super) fn check_port_number(
    site: &BackendSite<'_>,
    target: Option<&Service>,
    _: &mut ServiceIndex<'_>,
) -> Option<Diagnostic> {
    let service = target.filter(|s| !is_external_name(s) && !s.spec.ports.is_empty())?;
    let wanted = site.port_number()?;
    let ports = &service.spec.ports;
    if ports.iter().any(|p| p.port == wanted) {
        return None;
    }
    let mut message = format!(
        "{}: Service {} does not expose port {wanted} (its ports: {})",
        site.at("port.number"),
        service_label(service),
        list_ports(ports),
    );
    let by_target = ports.iter().find(|p| p.target_port.as_ref().and_then(|t| t.as_i64()) == Some(wanted));
    if let Some(p) = by_target {
        message.push_str(&format!(
            "; {wanted} is the targetPort (the container port) of its port {}: an Ingress names the Service's own port",
            port_label(p)
        ));
    }
    let fix = match (by_target, ports.len()) {
        (Some(p), _) => format!("set {}.service.port.number to {}", site.field, p.port),
        (None, 1) => format!("set {}.service.port.number to {}", site.field, ports[0].port),
        (None, _) => format!(
            "use one of the Service's ports in {}.service.port, or expose port {wanted} on the Service",
            site.field
        ),
    };
    Some(diagnostic(
        code::MISSING_PORT_NUMBER,
        Severity::Warning,
        message,
        vec![site.object("port.number"), service_ref(service).with_field("spec.ports")],
        fix,
    ))
}

pub(super) fn is_external_name(service: &Service) -> bool {
    service.spec.service_type() == "ExternalName"
}

/// `80 (http), 443`: a Service's ports as the messages list them.
pub(super) fn list_ports(ports: &[ServicePort]) -> String {
    ports.iter().map(port_label).collect::<Vec<_>>().join(", ")
}

pub(super) fn port_label(port: &ServicePort) -> String {
    match port.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("{} ({name})", port.port),
        None => port.port.to_string(),
    }
}

/// How a backend should name this port: by name when it has one, else by number.
pub(super) fn port_reference(port: &ServicePort) -> String {
    match port.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("name: {name:?} (port {})", port.port),
        None => format!("number: {}", port.port),
    }
}
