//! Listeners and attachment: which listener a request arrives at, and which routes attach to it
//! (`ParentReference`, `Listener.AllowedRoutes`, hostname intersection).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use hashbrown::HashMap;
use serde::Serialize;

use super::hostname;
use super::model::{FromNamespaces, GROUP, Gateway, HttpRoute, Listener, Objects, ParentReference, RouteType};

/// Why a route does not attach to a listener (the reasons a controller writes in
/// `status.parents[].conditions` `Accepted: False`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum NotAttached {
    /// No parentRef names this Gateway (group `gateway.networking.k8s.io`, kind `Gateway`,
    /// namespace, name): not a route of this Gateway at all.
    NotAParent,
    /// `sectionName` names another listener (`NoMatchingParent`).
    SectionName { section_name: String },
    /// `port` is another listener's port (`NoMatchingParent`).
    Port { port: u16 },
    /// `allowedRoutes.kinds` leaves the route's kind out, or the protocol carries no such routes
    /// (`NotAllowedByListeners`).
    KindNotAllowed,
    /// `allowedRoutes.namespaces` leaves the route's namespace out (`NotAllowedByListeners`).
    NamespaceNotAllowed { from: FromNamespaces },
    /// No route hostname intersects the listener's (`NoMatchingListenerHostname`).
    NoMatchingListenerHostname,
    /// An older route of the other kind (HTTPRoute, GRPCRoute) on the listener shares a hostname
    /// with it: the specification accepts exactly one of the two, the older (creationTimestamp,
    /// then `namespace/name`).
    KindConflict { route: String },
}

impl NotAttached {
    /// How far the parentRef got: the reason of the parentRef that got farthest is reported.
    pub(crate) fn depth(&self) -> u8 {
        match self {
            NotAttached::NotAParent => 0,
            NotAttached::SectionName { .. } | NotAttached::Port { .. } => 1,
            NotAttached::KindNotAllowed => 2,
            NotAttached::NamespaceNotAllowed { .. } => 3,
            NotAttached::NoMatchingListenerHostname => 4,
            NotAttached::KindConflict { .. } => 5,
        }
    }
}

impl core::fmt::Display for NotAttached {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NotAttached::NotAParent => f.write_str("no parentRef names this Gateway"),
            NotAttached::SectionName { section_name } => {
                write!(f, "its parentRef names listener {section_name}, not this one (sectionName)")
            }
            NotAttached::Port { port } => write!(f, "its parentRef names port {port}, not this listener's"),
            NotAttached::KindNotAllowed => {
                f.write_str("the listener does not allow this kind of route (allowedRoutes.kinds or its protocol)")
            }
            NotAttached::NamespaceNotAllowed { from } => {
                write!(f, "the listener's allowedRoutes.namespaces (from: {from:?}) leaves the route's namespace out")
            }
            NotAttached::NoMatchingListenerHostname => {
                f.write_str("none of its hostnames intersects the listener's hostname")
            }
            NotAttached::KindConflict { route } => write!(
                f,
                "{route}, older, is attached to the listener with a hostname in common, and routes of the two kinds \
                 do not share a hostname"
            ),
        }
    }
}

/// Whether a listener takes routes of `kind`: protocol `HTTP` or `HTTPS` (TLS terminated, then
/// HTTP, gRPC included), and `allowedRoutes.kinds` empty (HTTPRoute and GRPCRoute) or naming it
/// (group `gateway.networking.k8s.io`).
pub fn allows(listener: &Listener, kind: RouteType) -> bool {
    matches!(listener.protocol.as_str(), "HTTP" | "HTTPS")
        && (listener.allowed_routes.kinds.is_empty()
            || listener.allowed_routes.kinds.iter().any(|k| k.group == GROUP && k.kind == kind.as_str()))
}

/// Whether a listener takes any route this core routes (HTTPRoute or GRPCRoute).
pub fn serves_routes(listener: &Listener) -> bool {
    allows(listener, RouteType::Http) || allows(listener, RouteType::Grpc)
}

/// Attaches route `r` (of `objects.routes`) to listener `l` of `gateway`: `Ok` with the
/// intersected hostnames (`*` for "every hostname"), or the reason of the parentRef that got
/// farthest; the kinds' hostname conflicts as `conflicts` decided them.
pub(crate) fn attach(
    objects: &Objects,
    conflicts: &KindConflicts,
    gateway: &Gateway,
    l: usize,
    r: usize,
) -> Result<Vec<String>, NotAttached> {
    let hostnames = attach_alone(objects, gateway, &gateway.spec.listeners[l], &objects.routes[r])?;
    match conflicts.older(gateway, l, r) {
        Some(older) => Err(older),
        None => Ok(hostnames),
    }
}

/// [`attach`] without the other kind's routes.
fn attach_alone(
    objects: &Objects,
    gateway: &Gateway,
    listener: &Listener,
    route: &HttpRoute,
) -> Result<Vec<String>, NotAttached> {
    let mut reason = NotAttached::NotAParent;
    for parent in route.spec.parent_refs.iter().filter(|p| names_gateway(p, gateway)) {
        match attach_parent_alone(objects, gateway, listener, route, parent) {
            Ok(hostnames) => return Ok(hostnames),
            Err(r) if r.depth() > reason.depth() => reason = r,
            Err(_) => {}
        }
    }
    Err(reason)
}

/// Whether `parent` names `gateway` (group `gateway.networking.k8s.io`, kind `Gateway`, its
/// namespace, which [`Objects::from_values`] filled in, and its name).
pub fn names_gateway(parent: &ParentReference, gateway: &Gateway) -> bool {
    parent.group == GROUP
        && parent.kind == "Gateway"
        && parent.name == gateway.metadata.name
        && parent.namespace.as_deref() == Some(gateway.metadata.namespace.as_str())
}

/// Attaches route `r` through one of its parentRefs (which names `gateway`) to listener `l`: the
/// intersected hostnames, or why not. The route status reports this per parentRef.
pub(crate) fn attach_parent(
    objects: &Objects,
    conflicts: &KindConflicts,
    gateway: &Gateway,
    l: usize,
    r: usize,
    parent: &ParentReference,
) -> Result<Vec<String>, NotAttached> {
    let hostnames = attach_parent_alone(objects, gateway, &gateway.spec.listeners[l], &objects.routes[r], parent)?;
    match conflicts.older(gateway, l, r) {
        Some(older) => Err(older),
        None => Ok(hostnames),
    }
}

/// [`attach_parent`] without the other kind's routes: the intersected hostnames, or why not.
fn attach_parent_alone(
    objects: &Objects,
    gateway: &Gateway,
    listener: &Listener,
    route: &HttpRoute,
    parent: &ParentReference,
) -> Result<Vec<String>, NotAttached> {
    if let Some(section_name) = &parent.section_name
        && *section_name != listener.name
    {
        return Err(NotAttached::SectionName { section_name: section_name.clone() });
    }
    if let Some(port) = parent.port
        && port != listener.port
    {
        return Err(NotAttached::Port { port });
    }
    if !allows(listener, route.kind) {
        return Err(NotAttached::KindNotAllowed);
    }
    let namespaces = &listener.allowed_routes.namespaces;
    let allowed = match namespaces.from {
        FromNamespaces::All => true,
        FromNamespaces::Same => route.metadata.namespace == gateway.metadata.namespace,
        // A Selector without a selector selects nothing (the CRD's CEL rule requires one).
        FromNamespaces::Selector => namespaces
            .selector
            .as_ref()
            .is_some_and(|s| s.matches(&objects.namespace_labels(&route.metadata.namespace))),
        FromNamespaces::None => false,
    };
    if !allowed {
        return Err(NotAttached::NamespaceNotAllowed { from: namespaces.from });
    }
    let listener_hostname = listener.hostname.as_deref();
    let intersected: Vec<String> = if route.spec.hostnames.is_empty() {
        alloc::vec![listener_hostname.unwrap_or("*").to_ascii_lowercase()]
    } else {
        route
            .spec
            .hostnames
            .iter()
            .filter_map(|h| hostname::intersect(listener_hostname, h))
            .map(str::to_ascii_lowercase)
            .collect()
    };
    if intersected.is_empty() {
        return Err(NotAttached::NoMatchingListenerHostname);
    }
    Ok(intersected)
}

/// A route's place in the conflict order: the oldest (`creationTimestamp`, none the newest), then
/// `namespace/name`.
fn age(r: &HttpRoute) -> (bool, &str, &str, &str) {
    let ts = r.metadata.creation_timestamp.as_deref();
    (ts.is_none(), ts.unwrap_or(""), r.metadata.namespace.as_str(), r.metadata.name.as_str())
}

/// [`attach`] for every route of `objects` on one `listener`, the kinds' hostname conflicts
/// decided for all at once (the compiled table's way).
pub(crate) fn attach_all(
    objects: &Objects,
    gateway: &Gateway,
    listener: &Listener,
) -> Vec<Result<Vec<String>, NotAttached>> {
    let mut attachments: Vec<Result<Vec<String>, NotAttached>> =
        objects.routes.iter().map(|route| attach_alone(objects, gateway, listener, route)).collect();
    if objects.mixed_route_kinds {
        let attached: Vec<(usize, &[String])> =
            attachments.iter().enumerate().filter_map(|(r, a)| Some((r, a.as_deref().ok()?))).collect();
        for (r, older) in kind_losers(&objects.routes, &attached) {
            attachments[r] = Err(conflict_with(&objects.routes[older]));
        }
    }
    attachments
}

/// The kinds' hostname conflicts ([`NotAttached::KindConflict`]) on every listener of every
/// Gateway, decided once per listener: route status, listener status and lint then ask route by
/// route in constant time (a route-by-route sweep would be quadratic in the routes).
pub(crate) struct KindConflicts<'o> {
    /// By Gateway (namespace, name), listener and route position: the older route of the other
    /// kind it loses to.
    older: HashMap<(&'o str, &'o str, usize, usize), usize>,
    routes: &'o [HttpRoute],
}

impl<'o> KindConflicts<'o> {
    pub(crate) fn new(objects: &'o Objects) -> Self {
        let mut conflicts = KindConflicts { older: HashMap::new(), routes: &objects.routes };
        if !objects.mixed_route_kinds {
            return conflicts;
        }
        // Only routes with a parentRef naming a Gateway can attach to its listeners.
        let mut routes_of: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (r, route) in objects.routes.iter().enumerate() {
            for parent in route.spec.parent_refs.iter().filter(|p| p.group == GROUP && p.kind == "Gateway") {
                let Some(namespace) = parent.namespace.as_deref() else { continue };
                let list = routes_of.entry((namespace, parent.name.as_str())).or_default();
                if list.last() != Some(&r) {
                    list.push(r);
                }
            }
        }
        for gateway in &objects.gateways {
            let key = (gateway.metadata.namespace.as_str(), gateway.metadata.name.as_str());
            // Status and lint take the first Gateway of a name; so does this.
            let Some(candidates) = routes_of.remove(&key) else { continue };
            for (l, listener) in gateway.spec.listeners.iter().enumerate() {
                let alone: Vec<(usize, Vec<String>)> = candidates
                    .iter()
                    .filter_map(|&r| Some((r, attach_alone(objects, gateway, listener, &objects.routes[r]).ok()?)))
                    .collect();
                let attached: Vec<(usize, &[String])> = alone.iter().map(|(r, h)| (*r, h.as_slice())).collect();
                for (r, older) in kind_losers(&objects.routes, &attached) {
                    conflicts.older.insert((key.0, key.1, l, r), older);
                }
            }
        }
        conflicts
    }

    /// Why route `r` does not attach to listener `l` of `gateway` for an older route of the other
    /// kind, if it does not.
    fn older(&self, gateway: &Gateway, l: usize, r: usize) -> Option<NotAttached> {
        let key = (gateway.metadata.namespace.as_str(), gateway.metadata.name.as_str(), l, r);
        self.older.get(&key).map(|&older| conflict_with(&self.routes[older]))
    }
}

fn conflict_with(older: &HttpRoute) -> NotAttached {
    let route = alloc::format!("{} {}", older.kind.as_str(), key_of(&older.metadata.namespace, &older.metadata.name));
    NotAttached::KindConflict { route }
}

/// The routes among `attached` (position in `routes`, intersected hostnames on one listener) that
/// an older route of the other kind with a hostname in common keeps off the listener, each with
/// the oldest such route: in time linear in the routes and their hostnames.
fn kind_losers(routes: &[HttpRoute], attached: &[(usize, &[String])]) -> Vec<(usize, usize)> {
    // Oldest first; routes of one age are checked together, then recorded (none is older than another).
    let order =
        super::sorted_positions(attached.len(), &|a, b| age(&routes[attached[a].0]).cmp(&age(&routes[attached[b].0])));
    let mut seen = [HostIndex::default(), HostIndex::default()];
    let kind = |a: usize| usize::from(routes[attached[a].0].kind == RouteType::Grpc);
    let mut losers: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let same_age = |a: usize| age(&routes[attached[a].0]) == age(&routes[attached[order[start]].0]);
        let end = start + order[start..].iter().take_while(|&&a| same_age(a)).count();
        for &a in &order[start..end] {
            let other = &seen[1 - kind(a)];
            if let Some(older) = attached[a].1.iter().filter_map(|h| other.older(h)).min() {
                losers.push((attached[a].0, attached[order[older]].0));
            }
        }
        for (p, &a) in order.iter().enumerate().take(end).skip(start) {
            for h in attached[a].1 {
                seen[kind(a)].insert(h, p);
            }
        }
        start = end;
    }
    losers
}

/// The suffixes of `s` that start at a `.` after its first byte (`.b.c`, `.c` of `a.b.c`).
fn label_suffixes(s: &str) -> impl Iterator<Item = &str> {
    s.match_indices('.').filter(|(i, _)| *i > 0).map(move |(i, _)| &s[i..])
}

/// The hostnames (intersected, lower case) of the routes of one kind seen so far, each with the
/// conflict-order position of the first route that had it: which of them a hostname meets.
#[derive(Default)]
struct HostIndex {
    /// The first route of all (a hostname `*` meets every one).
    first: Option<usize>,
    /// `*`: every hostname.
    any: Option<usize>,
    exact: HashMap<String, usize>,
    /// A wildcard's suffix (`.example.com` for `*.example.com`).
    wild: HashMap<String, usize>,
    /// Every suffix at a label boundary (`.b.c` and `.c` of `a.b.c`; `.b.c` and `.c` of
    /// `*.b.c`): what a wildcard with that suffix meets.
    covered: HashMap<String, usize>,
}

impl HostIndex {
    fn insert(&mut self, hostname: &str, p: usize) {
        self.first.get_or_insert(p);
        match hostname.strip_prefix('*') {
            Some("") => {
                self.any.get_or_insert(p);
            }
            Some(suffix) => {
                self.wild.entry(String::from(suffix)).or_insert(p);
                self.covered.entry(String::from(suffix)).or_insert(p);
                for s in label_suffixes(suffix) {
                    self.covered.entry(String::from(s)).or_insert(p);
                }
            }
            None => {
                self.exact.entry(String::from(hostname)).or_insert(p);
                for s in label_suffixes(hostname) {
                    self.covered.entry(String::from(s)).or_insert(p);
                }
            }
        }
    }

    /// The first (oldest) route seen whose hostnames meet `hostname`.
    fn older(&self, hostname: &str) -> Option<usize> {
        let mut found: Vec<usize> = self.any.into_iter().collect();
        match hostname.strip_prefix('*') {
            Some("") => found.extend(self.first),
            Some(suffix) => {
                found.extend(self.covered.get(suffix));
                found.extend(self.wild.get(suffix));
                found.extend(label_suffixes(suffix).filter_map(|s| self.wild.get(s)));
            }
            None => {
                found.extend(self.exact.get(hostname));
                found.extend(label_suffixes(hostname).filter_map(|s| self.wild.get(s)));
            }
        }
        found.into_iter().min()
    }
}

/// Why no listener took a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "camelCase")]
pub enum NoListener {
    /// No route-serving listener on that port for that scheme (`HTTP` for http, `HTTPS` for
    /// https).
    NoListenerOnPort { port: u16 },
    /// Listeners on the port, none whose hostname matches the request's host.
    NoListenerForHost,
}

/// The listener a request arrives at: port and protocol, then the most specific hostname that
/// matches the host (exact, then the longest wildcard, then none); at equal specificity, the first
/// in `spec.listeners`.
pub fn select_listener(gateway: &Gateway, port: u16, https: bool, host: &str) -> Result<usize, NoListener> {
    let protocol = if https { "HTTPS" } else { "HTTP" };
    let mut best: Option<(usize, (usize, usize))> = None;
    let mut on_port = false;
    for (i, listener) in gateway.spec.listeners.iter().enumerate() {
        if listener.port != port || listener.protocol != protocol || !serves_routes(listener) {
            continue;
        }
        on_port = true;
        let pattern = listener.hostname.as_deref().unwrap_or("*");
        if !hostname::matches(pattern, host) {
            continue;
        }
        let specificity = hostname::specificity(pattern);
        if best.is_none_or(|(_, s)| specificity > s) {
            best = Some((i, specificity));
        }
    }
    match best {
        Some((i, _)) => Ok(i),
        None if on_port => Err(NoListener::NoListenerForHost),
        None => Err(NoListener::NoListenerOnPort { port }),
    }
}

/// `namespace/name`.
pub fn key_of(namespace: &str, name: &str) -> String {
    let mut key = namespace.to_string();
    key.push('/');
    key.push_str(name);
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn objects(listeners: serde_json::Value, route_spec: serde_json::Value, route_ns: &str) -> Objects {
        Objects::from_values(&[
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
                   "metadata": {"name": "gw", "namespace": "infra"}, "spec": {"gatewayClassName": "c", "listeners": listeners}}),
            json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
                   "metadata": {"name": "r", "namespace": route_ns}, "spec": route_spec}),
        ])
    }

    #[test]
    fn listeners_by_port_protocol_and_most_specific_hostname() {
        let o = objects(
            json!([
                {"name": "any", "port": 80, "protocol": "HTTP"},
                {"name": "wild", "port": 80, "protocol": "HTTP", "hostname": "*.example.com"},
                {"name": "tls", "port": 443, "protocol": "HTTPS"},
                {"name": "tcp", "port": 9000, "protocol": "TCP"}
            ]),
            json!({}),
            "infra",
        );
        let gw = &o.gateways[0];
        assert_eq!(select_listener(gw, 80, false, "a.example.com"), Ok(1));
        assert_eq!(select_listener(gw, 80, false, "example.com"), Ok(0));
        assert_eq!(select_listener(gw, 443, true, "example.com"), Ok(2));
        assert_eq!(select_listener(gw, 443, false, "example.com"), Err(NoListener::NoListenerOnPort { port: 443 }));
        assert_eq!(select_listener(gw, 9000, false, "x"), Err(NoListener::NoListenerOnPort { port: 9000 }));
    }

    #[test]
    fn attachment_reasons_report_the_farthest_parent_ref() {
        let listeners = json!([{"name": "l", "port": 80, "protocol": "HTTP", "hostname": "*.example.com"}]);
        let reason = |spec: serde_json::Value, ns: &str| {
            let o = objects(listeners.clone(), spec, ns);
            attach(&o, &KindConflicts::new(&o), &o.gateways[0], 0, 0)
        };
        let parent = |extra: serde_json::Value| {
            let mut p = json!({"name": "gw", "namespace": "infra"});
            p.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            p
        };
        assert_eq!(reason(json!({"parentRefs": [{"name": "gw"}]}), "apps"), Err(NotAttached::NotAParent));
        assert_eq!(
            reason(json!({"parentRefs": [parent(json!({"sectionName": "x"}))]}), "infra"),
            Err(NotAttached::SectionName { section_name: "x".into() })
        );
        assert_eq!(
            reason(json!({"parentRefs": [parent(json!({"port": 81}))]}), "infra"),
            Err(NotAttached::Port { port: 81 })
        );
        assert_eq!(
            reason(json!({"parentRefs": [parent(json!({}))]}), "apps"),
            Err(NotAttached::NamespaceNotAllowed { from: FromNamespaces::Same })
        );
        // The farthest of two parentRefs is reported.
        assert_eq!(
            reason(
                json!({"parentRefs": [parent(json!({"port": 81})), parent(json!({}))], "hostnames": ["a.org"]}),
                "infra"
            ),
            Err(NotAttached::NoMatchingListenerHostname)
        );
        assert_eq!(
            reason(
                json!({"parentRefs": [parent(json!({"sectionName": "l", "port": 80}))], "hostnames": ["A.Example.com", "x.org"]}),
                "infra"
            ),
            Ok(alloc::vec!["a.example.com".to_string()])
        );
        assert_eq!(
            reason(json!({"parentRefs": [parent(json!({}))]}), "infra"),
            Ok(alloc::vec!["*.example.com".to_string()])
        );
    }
}
