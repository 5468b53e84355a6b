//! Diagnostics about Gateway API objects ([`GatewayRouter::lint`]), in the catalogue the Ingress
//! lint uses ([`Code`]): routes that attach nowhere and why, route hostnames no listener serves,
//! backendRefs not permitted or not found, conflicted listeners, and route matches that never win.
//!
//! Nothing here decides anew: attachment is [`status::parent_acceptance`] (the route status's
//! `Accepted` condition), listener conflicts [`status::conflict`] (the listener status's
//! `Conflicted`), backends are the router's own resolution (ReferenceGrants, and Services as
//! [`GatewayOptions::check_services`](super::GatewayOptions::check_services) decided), and shadowed
//! matches are read off the listener tables routing uses, in precedence order.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use hashbrown::HashMap;

use super::backends::Invalid;
use super::model::{GROUP, Gateway, HttpRoute, HttpRouteMatch, Listener, Objects};
use super::table::{self, Candidate};
use super::{GatewayRouter, hostname, status};
use crate::diagnostics::{Code, Diagnostic, ObjectRef, Severity};

/// Every diagnostic about `router`'s objects (all Gateways of the input, not only the one chosen),
/// in the Ingress lint's order: by first object (kind, namespace, name, field), then code.
pub(crate) fn lint(router: &GatewayRouter) -> Vec<Diagnostic> {
    let objects = &router.objects;
    let mut out = Vec::new();
    listener_conflicts(objects, &mut out);
    attachment(objects, &mut out);
    backends(router, &mut out);
    shadowed(router, &mut out);
    out.sort_by(crate::diagnostics::order);
    out
}

fn diagnostic(code: Code, severity: Severity, message: String, objects: Vec<ObjectRef>, fix: &str) -> Diagnostic {
    Diagnostic { code, severity, message, objects, fix: fix.to_string() }
}

fn gateway_ref(gateway: &Gateway) -> ObjectRef {
    ObjectRef::gateway(&gateway.metadata.namespace, &gateway.metadata.name)
}

fn route_ref(route: &HttpRoute) -> ObjectRef {
    ObjectRef::route(route.kind.as_str(), &route.metadata.namespace, &route.metadata.name)
}

fn key(namespace: &str, name: &str) -> String {
    super::attach::key_of(namespace, name)
}

/// `listener-conflict`: each listener the Gateway status marks `Conflicted`.
fn listener_conflicts(objects: &Objects, out: &mut Vec<Diagnostic>) {
    for gateway in &objects.gateways {
        for (l, listener) in gateway.spec.listeners.iter().enumerate() {
            let Some((reason, message)) = status::conflict(gateway, l) else { continue };
            let fix = match reason {
                "ProtocolConflict" => "give the listeners on one port the same protocol, or move one to another port",
                _ => "give each listener on one port and protocol its own hostname, or merge them into one",
            };
            out.push(diagnostic(
                Code::ListenerConflict,
                Severity::Error,
                format!(
                    "listener {} of Gateway {} conflicts ({reason}): {message}; a controller neither accepts nor \
                     programs it",
                    listener.name,
                    key(&gateway.metadata.namespace, &gateway.metadata.name)
                ),
                vec![gateway_ref(gateway).with_field(format!("spec.listeners[{l}]"))],
                fix,
            ));
        }
    }
}

/// `route-parent-missing`, `route-not-attached` per parentRef naming a Gateway, then
/// `hostname-no-listener` over the listeners the route attaches to.
fn attachment(objects: &Objects, out: &mut Vec<Diagnostic>) {
    let mut gateways: BTreeMap<(&str, &str), &Gateway> = BTreeMap::new();
    for g in &objects.gateways {
        gateways.entry((g.metadata.namespace.as_str(), g.metadata.name.as_str())).or_insert(g);
    }
    let conflicts = super::attach::KindConflicts::new(objects);
    for (r, route) in objects.routes.iter().enumerate() {
        let this = alloc::format!("{} {}", route.kind.as_str(), key(&route.metadata.namespace, &route.metadata.name));
        let mut attached: Vec<(&Gateway, &Listener)> = Vec::new();
        for (i, parent) in route.spec.parent_refs.iter().enumerate() {
            if parent.group != GROUP || parent.kind != "Gateway" {
                continue;
            }
            let namespace = parent.namespace.as_deref().unwrap_or(&route.metadata.namespace);
            let named = key(namespace, &parent.name);
            let field = format!("spec.parentRefs[{i}]");
            let Some(&gateway) = gateways.get(&(namespace, parent.name.as_str())) else {
                out.push(diagnostic(
                    Code::RouteParentMissing,
                    Severity::Note,
                    format!(
                        "{this} names Gateway {named} as its parent, which is not in the input: the \
                         route attaches nowhere through this parentRef"
                    ),
                    vec![route_ref(route).with_field(field)],
                    "add the Gateway to the input, or correct the parentRef's name and namespace",
                ));
                continue;
            };
            match status::parent_acceptance(objects, &conflicts, r, gateway, parent) {
                Ok(listeners) => attached.extend(listeners.into_iter().map(|l| (gateway, l))),
                Err((reason, message)) => {
                    let fix = match reason {
                        "NoMatchingParent" => {
                            "make the parentRef's sectionName and port name a listener of the Gateway"
                        }
                        "NotAllowedByListeners" => {
                            "allow the route's namespace in a listener's allowedRoutes, or move the route to a \
                             namespace it allows"
                        }
                        "Conflicted" => {
                            "give the HTTPRoute and the GRPCRoute different hostnames, or attach them to different \
                             listeners"
                        }
                        _ => "add a route hostname the listener's hostname covers, or widen the listener's hostname",
                    };
                    out.push(diagnostic(
                        Code::RouteNotAttached,
                        Severity::Warning,
                        format!("{this} attaches to no listener of Gateway {named} ({reason}): {message}"),
                        vec![route_ref(route).with_field(field), gateway_ref(gateway)],
                        fix,
                    ));
                }
            }
        }
        hostnames_without_listener(route, &attached, out);
    }
}

/// `hostname-no-listener`: the route's hostnames that intersect no hostname of the listeners it
/// attaches to (when it attaches to none, `route-not-attached` says so instead).
fn hostnames_without_listener(route: &HttpRoute, attached: &[(&Gateway, &Listener)], out: &mut Vec<Diagnostic>) {
    if attached.is_empty() {
        return;
    }
    let unserved: Vec<(usize, &str)> = route
        .spec
        .hostnames
        .iter()
        .enumerate()
        .filter(|(_, h)| !attached.iter().any(|(_, l)| hostname::intersect(l.hostname.as_deref(), h).is_some()))
        .map(|(k, h)| (k, h.as_str()))
        .collect();
    if unserved.is_empty() {
        return;
    }
    let mut listeners: Vec<String> = Vec::new();
    let mut gateways: Vec<ObjectRef> = Vec::new();
    for (gateway, listener) in attached {
        let text = format!(
            "{} listener {} ({})",
            key(&gateway.metadata.namespace, &gateway.metadata.name),
            listener.name,
            listener.hostname.as_deref().unwrap_or("*")
        );
        if !listeners.contains(&text) {
            listeners.push(text);
        }
        let g = gateway_ref(gateway);
        if !gateways.contains(&g) {
            gateways.push(g);
        }
    }
    let names: Vec<&str> = unserved.iter().map(|(_, h)| *h).collect();
    let mut objects: Vec<ObjectRef> =
        unserved.iter().map(|(k, _)| route_ref(route).with_field(format!("spec.hostnames[{k}]"))).collect();
    objects.extend(gateways);
    out.push(diagnostic(
        Code::HostnameNoListener,
        Severity::Warning,
        format!(
            "{} {}: hostname(s) {} intersect no hostname of the listeners it attaches to ({}): requests for \
             them never reach the route",
            route.kind.as_str(),
            key(&route.metadata.namespace, &route.metadata.name),
            names.join(", "),
            listeners.join(", ")
        ),
        objects,
        "remove those hostnames from the route, or add a listener whose hostname covers them",
    ));
}

/// `backend-not-permitted` and `backend-not-found`: the backendRefs the router resolved invalid.
fn backends(router: &GatewayRouter, out: &mut Vec<Diagnostic>) {
    let objects = &router.objects;
    for (route, compiled) in objects.routes.iter().zip(&router.routes) {
        let this = alloc::format!("{} {}", route.kind.as_str(), key(&route.metadata.namespace, &route.metadata.name));
        for (r, rule) in compiled.rules.iter().enumerate() {
            for backend in &rule.backends {
                let Some(invalid) = &backend.invalid else { continue };
                let field = format!("spec.rules[{r}].backendRefs[{}]", backend.index);
                let (ns, name) = (backend.namespace.as_str(), backend.name.as_str());
                let target = key(ns, name);
                let objects_of = || vec![route_ref(route).with_field(field.clone()), ObjectRef::service(ns, name)];
                let (code, severity, message, fix) = match invalid {
                    Invalid::RefNotPermitted => (
                        Code::BackendNotPermitted,
                        Severity::Error,
                        format!(
                            "{this} refers to Service {target} in another namespace, and no ReferenceGrant \
                             in namespace {ns} allows it (RefNotPermitted): its share of requests is answered 500"
                        ),
                        format!(
                            "write a ReferenceGrant in namespace {ns}: from group {GROUP} kind {} namespace \
                             {}, to group \"\" kind Service name {name}",
                            route.kind.as_str(),
                            route.metadata.namespace
                        ),
                    ),
                    Invalid::BackendNotFound => (
                        Code::BackendNotFound,
                        Severity::Warning,
                        format!(
                            "{this} refers to Service {target}, which is not in the input \
                             (BackendNotFound): its share of requests is answered 500"
                        ),
                        String::from("add the Service, or correct the backendRef's name and namespace"),
                    ),
                    Invalid::PortNotFound => {
                        let (what, fix) = match backend.port {
                            None => (String::from("gives no port"), String::from("give the backendRef a port")),
                            Some(port) => {
                                let service = objects
                                    .services
                                    .iter()
                                    .find(|s| s.metadata.namespace == ns && s.metadata.name == name);
                                let ports: Vec<String> = service
                                    .into_iter()
                                    .flat_map(|s| &s.spec.ports)
                                    .map(|p| p.port.to_string())
                                    .collect();
                                (
                                    format!("names port {port}, which Service {target} does not have (ports: {})", {
                                        if ports.is_empty() { String::from("none") } else { ports.join(", ") }
                                    }),
                                    format!("use one of the Service's ports, or add port {port} to the Service"),
                                )
                            }
                        };
                        (
                            Code::BackendNotFound,
                            Severity::Warning,
                            format!(
                                "{this}'s backendRef to Service {target} {what} (BackendNotFound): its \
                                 share of requests is answered 500"
                            ),
                            fix,
                        )
                    }
                    Invalid::InvalidKind { .. } => continue,
                };
                out.push(diagnostic(code, severity, message, objects_of(), &fix));
            }
        }
    }
}

/// A candidate's (route, rule, match).
type Site = (u32, u32, u32);

fn site(c: &Candidate) -> Site {
    (c.route, c.rule, c.match_index)
}

fn match_of(objects: &Objects, (route, rule, m): Site) -> &HttpRouteMatch {
    &objects.routes[route as usize].spec.rules[rule as usize].matches[m as usize]
}

/// `rule-shadowed`: a match that never wins because an identical match (path type and value,
/// method, headers, query parameters) ranks before it in the same hostname entry of a listener,
/// as the listener tables routing uses order them. Every Gateway of the input, every listener.
fn shadowed(router: &GatewayRouter, out: &mut Vec<Diagnostic>) {
    struct Found {
        winner: Site,
        winner_has: &'static str,
        places: BTreeSet<String>,
    }
    let objects = &router.objects;
    let mut found: BTreeMap<Site, Found> = BTreeMap::new();
    for gateway in &objects.gateways {
        for (l, listener) in gateway.spec.listeners.iter().enumerate() {
            let compiled = table::compile_listener(objects, gateway, l, &router.routes, router.regex_order);
            for (host, candidates) in compiled.entries() {
                // The first candidate of each distinct match, by path value.
                let mut firsts: HashMap<&str, Vec<&Candidate>> = HashMap::new();
                for c in candidates {
                    let matched = match_of(objects, site(c));
                    let list = firsts.entry(matched.path.value.as_str()).or_default();
                    let Some(winner) = list.iter().find(|w| match_of(objects, site(w)) == matched) else {
                        list.push(c);
                        continue;
                    };
                    let winner_has = winner.key.first_difference(&c.key).map_or("", |k| k.winner_has());
                    let place = format!(
                        "{host} on Gateway {} listener {}",
                        key(&gateway.metadata.namespace, &gateway.metadata.name),
                        listener.name
                    );
                    let entry = found.entry(site(c)).or_insert_with(|| Found {
                        winner: site(winner),
                        winner_has,
                        places: BTreeSet::new(),
                    });
                    // The same winner whatever the order entries are visited in.
                    if site(winner) < entry.winner {
                        entry.winner = site(winner);
                        entry.winner_has = winner_has;
                    }
                    entry.places.insert(place);
                }
            }
        }
    }
    for ((route, rule, m), f) in found {
        let loser = &objects.routes[route as usize];
        let (wr, wrule, wm) = f.winner;
        let winner = &objects.routes[wr as usize];
        let matched = match_of(objects, (route, rule, m));
        let mut conditions = match &matched.grpc {
            Some(grpc) => super::explain::grpc_method_text(grpc),
            None => format!("{:?} {}", matched.path.kind, matched.path.value),
        };
        if let Some(method) = &matched.method {
            conditions.push_str(&format!(", method {method}"));
        }
        if !matched.headers.is_empty() || !matched.query_params.is_empty() {
            conditions.push_str(&format!(
                ", {} header and {} query parameter match(es)",
                matched.headers.len(),
                matched.query_params.len()
            ));
        }
        let field = format!("spec.rules[{rule}].matches[{m}]");
        let winner_field = format!("spec.rules[{wrule}].matches[{wm}]");
        let places: Vec<String> = f.places.into_iter().collect();
        out.push(diagnostic(
            Code::RuleShadowed,
            Severity::Warning,
            format!(
                "{} {} {field} ({conditions}) never wins: {} {} {winner_field} has the same match and \
                 ranks first ({}) on {}",
                loser.kind.as_str(),
                key(&loser.metadata.namespace, &loser.metadata.name),
                winner.kind.as_str(),
                key(&winner.metadata.namespace, &winner.metadata.name),
                f.winner_has,
                places.join("; ")
            ),
            vec![route_ref(loser).with_field(field), route_ref(winner).with_field(winner_field)],
            "remove the duplicate match, or make it differ from the winner's (path, method, headers, query, hostnames)",
        ));
    }
}
