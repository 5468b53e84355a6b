//! A rule's backendRefs resolved once at compile time (`HTTPBackendRef`'s invalid cases, and
//! ReferenceGrant for cross-namespace references), and the weighted pick among them.

use alloc::string::String;
use alloc::vec::Vec;

use hashbrown::HashMap;
use serde::Serialize;

use super::model::{GROUP, HttpBackendRef, HttpRoute, Objects, ReferenceGrant, Service};

/// Why a backendRef is invalid (the `ResolvedRefs: False` reasons); its share of the traffic is
/// answered 500.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason")]
// The variants are the specification's reason names (`InvalidKind`, ...).
#[allow(clippy::enum_variant_names)]
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

/// The Services (the first of each `namespace/name`) and the ReferenceGrants (by namespace) of an
/// input, looked up once per backendRef: resolving every backendRef of 10 000 routes is then
/// linear, not backendRefs × Services.
pub struct Refs<'a> {
    services: HashMap<(&'a str, &'a str), &'a Service>,
    grants: HashMap<&'a str, Vec<&'a ReferenceGrant>>,
}

impl<'a> Refs<'a> {
    pub fn new(objects: &'a Objects) -> Self {
        let mut services = HashMap::new();
        for s in &objects.services {
            services.entry((s.metadata.namespace.as_str(), s.metadata.name.as_str())).or_insert(s);
        }
        let mut grants: HashMap<&str, Vec<&ReferenceGrant>> = HashMap::new();
        for g in &objects.grants {
            grants.entry(g.metadata.namespace.as_str()).or_default().push(g);
        }
        Refs { services, grants }
    }

    /// Whether a ReferenceGrant in `to_namespace` lets routes of `kind` (`HTTPRoute`, `GRPCRoute`)
    /// in `from_namespace` refer to the Service `name` (a `to` without a name covers every Service
    /// of its namespace).
    pub fn granted(&self, kind: &str, from_namespace: &str, to_namespace: &str, name: &str) -> bool {
        self.grants.get(to_namespace).into_iter().flatten().any(|g| {
            g.spec.from.iter().any(|f| f.group == GROUP && f.kind == kind && f.namespace == from_namespace)
                && g.spec
                    .to
                    .iter()
                    .any(|t| t.group.is_empty() && t.kind == "Service" && t.name.as_deref().is_none_or(|n| n == name))
        })
    }
}

/// Whether the input's Services are checked: `None` (the default) checks them when the input holds
/// at least one Service, and assumes every referenced Service and port exists otherwise.
pub fn resolve(
    refs: &Refs<'_>,
    route: &HttpRoute,
    backend: &HttpBackendRef,
    index: usize,
    check_services: bool,
) -> Backend {
    let namespace = backend.namespace.clone().unwrap_or_else(|| route.metadata.namespace.clone());
    let invalid = problem(refs, route, backend, &namespace, check_services);
    Backend { namespace, name: backend.name.clone(), port: backend.port, weight: backend.weight, invalid, index }
}

fn problem(
    refs: &Refs<'_>,
    route: &HttpRoute,
    backend: &HttpBackendRef,
    namespace: &str,
    check_services: bool,
) -> Option<Invalid> {
    if !backend.group.is_empty() || backend.kind != "Service" {
        return Some(Invalid::InvalidKind { group: backend.group.clone(), kind: backend.kind.clone() });
    }
    if *namespace != route.metadata.namespace
        && !refs.granted(route.kind.as_str(), &route.metadata.namespace, namespace, &backend.name)
    {
        return Some(Invalid::RefNotPermitted);
    }
    let Some(port) = backend.port else { return Some(Invalid::PortNotFound) };
    if check_services {
        match refs.services.get(&(namespace, backend.name.as_str())) {
            None => return Some(Invalid::BackendNotFound),
            Some(s) if !s.spec.ports.iter().any(|p| p.port == port) => return Some(Invalid::PortNotFound),
            Some(_) => {}
        }
    }
    None
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
