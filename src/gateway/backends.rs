//! A rule's backendRefs resolved once at compile time (`HTTPBackendRef`'s invalid cases, and
//! ReferenceGrant for cross-namespace references), and the weighted pick among them.

use alloc::string::String;

use serde::Serialize;

use super::model::{GROUP, HttpBackendRef, HttpRoute, Objects};

/// Why a backendRef is invalid (the `ResolvedRefs: False` reasons); its share of the traffic is
/// answered 500.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason")]
pub enum Invalid {
    /// Not a core `Service` (`InvalidKind`).
    InvalidKind { group: String, kind: String },
    /// Another namespace, no ReferenceGrant there allows it (`RefNotPermitted`).
    RefNotPermitted,
    /// No such Service in the input (`BackendNotFound`).
    BackendNotFound,
    /// A Service reference without a port (the CRD's CEL rule "Must have port for Service
    /// reference"), or a port the Service does not declare (`BackendNotFound`).
    PortNotFound,
}

/// One backendRef of a rule, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Backend {
    pub namespace: String,
    pub name: String,
    pub port: Option<u16>,
    pub weight: u32,
    /// `None`: valid.
    pub invalid: Option<Invalid>,
    /// Its index in the rule's `backendRefs` (its backend-level filters are there).
    pub index: usize,
}

/// Whether the input's Services are checked: `None` (the default) checks them when the input holds
/// at least one Service, and assumes every referenced Service and port exists otherwise.
pub fn resolve(
    objects: &Objects,
    route: &HttpRoute,
    backend: &HttpBackendRef,
    index: usize,
    check_services: bool,
) -> Backend {
    let namespace = backend.namespace.clone().unwrap_or_else(|| route.metadata.namespace.clone());
    let invalid = problem(objects, route, backend, &namespace, check_services);
    Backend { namespace, name: backend.name.clone(), port: backend.port, weight: backend.weight, invalid, index }
}

fn problem(
    objects: &Objects,
    route: &HttpRoute,
    backend: &HttpBackendRef,
    namespace: &str,
    check_services: bool,
) -> Option<Invalid> {
    if !backend.group.is_empty() || backend.kind != "Service" {
        return Some(Invalid::InvalidKind { group: backend.group.clone(), kind: backend.kind.clone() });
    }
    if *namespace != route.metadata.namespace && !granted(objects, &route.metadata.namespace, namespace, &backend.name)
    {
        return Some(Invalid::RefNotPermitted);
    }
    let Some(port) = backend.port else { return Some(Invalid::PortNotFound) };
    if check_services {
        let service =
            objects.services.iter().find(|s| s.metadata.namespace == namespace && s.metadata.name == backend.name);
        match service {
            None => return Some(Invalid::BackendNotFound),
            Some(s) if !s.spec.ports.iter().any(|p| p.port == port) => return Some(Invalid::PortNotFound),
            Some(_) => {}
        }
    }
    None
}

/// Whether a ReferenceGrant in `to_namespace` lets HTTPRoutes of `from_namespace` refer to the
/// Service `name` (a `to` without a name covers every Service of its namespace).
pub fn granted(objects: &Objects, from_namespace: &str, to_namespace: &str, name: &str) -> bool {
    objects.grants.iter().filter(|g| g.metadata.namespace == to_namespace).any(|g| {
        g.spec.from.iter().any(|f| f.group == GROUP && f.kind == "HTTPRoute" && f.namespace == from_namespace)
            && g.spec
                .to
                .iter()
                .any(|t| t.group.is_empty() && t.kind == "Service" && t.name.as_deref().is_none_or(|n| n == name))
    })
}

/// The backend a request goes to, `random` uniform in `[0, 2^64)`: each backend with probability
/// weight / total; weight 0 never; an invalid backend is picked for its share (and answers 500).
/// `None` when every weight is 0.
pub fn pick(backends: &[Backend], random: u64) -> Option<&Backend> {
    let total: u64 = backends.iter().map(|b| u64::from(b.weight)).sum();
    // `random` scaled from [0, 2^64) to [0, total): no modulo bias, whatever the total.
    let mut point = ((u128::from(random) * u128::from(total)) >> 64) as u64;
    for backend in backends {
        if point < u64::from(backend.weight) {
            return Some(backend);
        }
        point -= u64::from(backend.weight);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn backend(name: &str, weight: u32) -> Backend {
        Backend { namespace: "ns".to_string(), name: name.to_string(), port: Some(80), weight, invalid: None, index: 0 }
    }

    #[test]
    fn picks_by_weight_never_weight_zero() {
        let backends = vec![backend("a", 1), backend("zero", 0), backend("b", 3)];
        assert_eq!(pick(&backends, 0).unwrap().name, "a");
        assert_eq!(pick(&backends, u64::MAX / 4 - 1).unwrap().name, "a");
        assert_eq!(pick(&backends, u64::MAX / 4 + 1).unwrap().name, "b");
        assert_eq!(pick(&backends, u64::MAX).unwrap().name, "b");
        assert!(pick(&[backend("z", 0)], 5).is_none());
        assert!(pick(&[], 5).is_none());
    }
}
