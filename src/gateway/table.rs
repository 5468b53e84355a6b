//! The compiled table: per listener of the chosen Gateway, the candidates (route, rule, match) of
//! its attached routes, filed under their intersected hostnames (exact, wildcard suffix, `*`) and
//! sorted by [`Key`]. A lookup lowercases the host into a stack buffer, then tries the exact entry,
//! the wildcard entries of the host's suffixes from the longest (one hash probe per label), and `*`:
//! the first candidate whose conditions hold wins ([`Entry`]: large entries are indexed by path).
//! Only the host's candidates are tried, and the lookup allocates nothing.

use alloc::string::String;
use alloc::vec::Vec;

use hashbrown::HashMap;

use super::attach::{self, NotAttached};
use super::backends::{self, Backend};
use super::filters::{self, RuleAction};
use super::hostname;
use super::matching;
use super::model::{Gateway, Objects, PathMatchType};
use super::precedence::{Key, RouteRank};
use super::regex::{Compiler, Fuel, MatchRegexes, RegexOrder};
use super::request::GatewayRequest;

/// The longest hostname (RFC 1123): a longer host matches only `*` entries.
const MAX_HOST: usize = 253;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub route: u32,
    pub rule: u32,
    pub match_index: u32,
    pub key: Key,
}

#[derive(Clone, Debug, Default)]
pub struct CompiledListener {
    /// Every route of the input: its intersected hostnames on this listener, or why it is not
    /// attached.
    pub attachment: Vec<Result<Vec<String>, NotAttached>>,
    exact: HashMap<String, Entry>,
    /// Keyed by the suffix after `*` (`.example.com`).
    wildcard: HashMap<String, Entry>,
    any: Entry,
}

/// The first candidate of `list` that `ok` accepts; `path_known`: the list is the exact-path
/// index's entry for the request's path, so `ok` need not compare the path again.
fn first_in<'a>(
    list: Option<&'a Vec<Candidate>>,
    path_known: bool,
    ok: &impl Fn(&Candidate, bool) -> bool,
) -> Option<&'a Candidate> {
    list.and_then(|l| l.iter().find(|c| ok(c, path_known)))
}

/// Up to this many candidates, an entry is tried in order; above, through its path index.
const LINEAR: usize = 8;

/// The candidates of one hostname entry: all of them in precedence order, and, for entries with
/// more than [`LINEAR`], an index by path so that only candidates whose path can match are tried.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    all: Vec<Candidate>,
    /// `Exact` matches by their path.
    exact: HashMap<String, Vec<Candidate>>,
    /// `PathPrefix` matches by their prefix without one trailing `/`: a request path probes each
    /// of its element boundaries, longest first (a longer such prefix is always a longer value).
    prefix: HashMap<String, Vec<Candidate>>,
    /// `RegularExpression` matches, tried in order.
    regex: Vec<Candidate>,
    /// Whether regexes rank before prefixes ([`RegexOrder::EnvoyGateway`]).
    regex_first: bool,
    /// Whether GRPCRoute matches are among the candidates: they rank by service and method
    /// characters, so the first candidate of each index (exact, prefix, regex) is compared by key.
    grpc: bool,
}

impl Entry {
    fn push(&mut self, candidate: Candidate) {
        self.all.push(candidate);
    }

    fn index(&mut self, objects: &Objects, order: RegexOrder) {
        let all = &self.all;
        let sorted = super::sorted_positions(all.len(), &|a, b| all[a].key.cmp(&all[b].key));
        self.all = sorted.into_iter().map(|i| self.all[i]).collect();
        self.regex_first = order == RegexOrder::EnvoyGateway;
        self.grpc = self.all.iter().any(|c| c.key.is_grpc());
        if self.all.len() <= LINEAR {
            return;
        }
        for c in &self.all {
            let path =
                &objects.routes[c.route as usize].spec.rules[c.rule as usize].matches[c.match_index as usize].path;
            match path.kind {
                PathMatchType::Exact => self.exact.entry(path.value.clone()).or_default().push(*c),
                PathMatchType::PathPrefix => {
                    let prefix = path.value.strip_suffix('/').unwrap_or(&path.value);
                    self.prefix.entry(String::from(prefix)).or_default().push(*c);
                }
                PathMatchType::RegularExpression => self.regex.push(*c),
            }
        }
    }

    /// The first candidate, in precedence order, that `ok` accepts (its second argument: the
    /// path is known to match, so `ok` need not compare it).
    fn find(&self, path: &str, ok: impl Fn(&Candidate, bool) -> bool) -> Option<&Candidate> {
        if self.all.len() <= LINEAR {
            return self.all.iter().find(|c| ok(c, false));
        }
        if self.grpc {
            return self.find_by_key(path, ok);
        }
        if let Some(c) = first_in(self.exact.get(path), true, &ok) {
            return Some(c);
        }
        if self.regex_first
            && let Some(c) = self.regex.iter().find(|c| ok(c, false))
        {
            return Some(c);
        }
        if !self.prefix.is_empty() {
            let boundaries = path.rmatch_indices('/').map(|(i, _)| &path[..i]);
            for prefix in core::iter::once(path).chain(boundaries) {
                if let Some(c) = first_in(self.prefix.get(prefix), false, &ok) {
                    return Some(c);
                }
            }
        }
        if !self.regex_first {
            return self.regex.iter().find(|c| ok(c, false));
        }
        None
    }

    /// The first candidate `ok` accepts in each index, the smallest key of them: each index is in
    /// key order, and a longer matching prefix is a longer service (GRPCRoute) or path.
    fn find_by_key(&self, path: &str, ok: impl Fn(&Candidate, bool) -> bool) -> Option<&Candidate> {
        let exact = first_in(self.exact.get(path), true, &ok);
        let boundaries = path.rmatch_indices('/').map(|(i, _)| &path[..i]);
        let prefix = match self.prefix.is_empty() {
            true => None,
            false => core::iter::once(path).chain(boundaries).find_map(|p| first_in(self.prefix.get(p), false, &ok)),
        };
        let regex = self.regex.iter().find(|c| ok(c, false));
        [exact, prefix, regex].into_iter().flatten().min_by_key(|c| c.key)
    }
}

#[derive(Clone, Debug)]
pub struct CompiledRule {
    pub action: RuleAction,
    pub backends: Vec<Backend>,
    /// One per match of the rule.
    pub regexes: Vec<MatchRegexes>,
}

#[derive(Clone, Debug)]
pub struct CompiledRoute {
    pub rank: RouteRank,
    pub rules: Vec<CompiledRule>,
}

/// The ranks of every route: age (`creationTimestamp`, none = newest, equal ones tie) and
/// `namespace/name`.
pub fn ranks(objects: &Objects) -> Vec<RouteRank> {
    let n = objects.routes.len();
    let age_key = |i: usize| {
        let ts = objects.routes[i].metadata.creation_timestamp.as_deref();
        (ts.is_none(), ts.unwrap_or(""))
    };
    let by_age = super::sorted_positions(n, &|a, b| age_key(a).cmp(&age_key(b)));
    let name_key = |i: usize| (&objects.routes[i].metadata.namespace, &objects.routes[i].metadata.name);
    let by_name = super::sorted_positions(n, &|a, b| name_key(a).cmp(&name_key(b)));
    let mut ranks: Vec<RouteRank> = objects
        .routes
        .iter()
        .map(|r| RouteRank { age: 0, name: 0, grpc: r.kind == super::model::RouteType::Grpc })
        .collect();
    let mut rank = 0;
    for (pos, &i) in by_age.iter().enumerate() {
        if pos > 0 && age_key(by_age[pos - 1]) != age_key(i) {
            rank = pos as u64;
        }
        ranks[i].age = rank;
    }
    for (pos, &i) in by_name.iter().enumerate() {
        ranks[i].name = pos as u64;
    }
    ranks
}

pub fn compile_routes(objects: &Objects, check_services: bool, regexes: &Compiler) -> Vec<CompiledRoute> {
    let refs = backends::Refs::new(objects);
    ranks(objects)
        .into_iter()
        .zip(&objects.routes)
        .map(|(rank, route)| CompiledRoute {
            rank,
            rules: route
                .spec
                .rules
                .iter()
                .map(|rule| CompiledRule {
                    action: filters::action(rule),
                    backends: rule
                        .backend_refs
                        .iter()
                        .enumerate()
                        .map(|(i, b)| backends::resolve(&refs, route, b, i, check_services))
                        .collect(),
                    regexes: rule.matches.iter().map(|m| MatchRegexes::compile(m, regexes)).collect(),
                })
                .collect(),
        })
        .collect()
}

pub fn compile_listener(
    objects: &Objects,
    gateway: &Gateway,
    listener: usize,
    routes: &[CompiledRoute],
    order: RegexOrder,
) -> CompiledListener {
    let listener = &gateway.spec.listeners[listener];
    let mut compiled = CompiledListener::default();
    for (r, attachment) in attach::attach_all(objects, gateway, listener).into_iter().enumerate() {
        let route = &objects.routes[r];
        if let Ok(hostnames) = &attachment {
            let mut seen: Vec<&str> = Vec::new();
            for hostname in hostnames {
                if seen.contains(&hostname.as_str()) {
                    continue;
                }
                seen.push(hostname);
                let list = if hostname == "*" {
                    &mut compiled.any
                } else if let Some(suffix) = hostname.strip_prefix('*') {
                    compiled.wildcard.entry(String::from(suffix)).or_default()
                } else {
                    compiled.exact.entry(hostname.clone()).or_default()
                };
                for (i, rule) in route.spec.rules.iter().enumerate() {
                    for (m, matched) in rule.matches.iter().enumerate() {
                        let key = Key::new(hostname, matched, routes[r].rank, i, m, order);
                        list.push(Candidate { route: r as u32, rule: i as u32, match_index: m as u32, key });
                    }
                }
            }
        }
        compiled.attachment.push(attachment);
    }
    let entries =
        compiled.exact.values_mut().chain(compiled.wildcard.values_mut()).chain(core::iter::once(&mut compiled.any));
    for entry in entries {
        entry.index(objects, order);
    }
    compiled
}

impl CompiledListener {
    /// Every hostname entry (its intersected hostname: precise, `*.suffix` or `*`) with its
    /// candidates in precedence order, in no particular order of entries.
    #[cfg(feature = "lint")]
    pub(crate) fn entries(&self) -> impl Iterator<Item = (String, &[Candidate])> {
        let exact = self.exact.iter().map(|(h, e)| (h.clone(), e.all.as_slice()));
        let wildcard = self.wildcard.iter().map(|(s, e)| (alloc::format!("*{s}"), e.all.as_slice()));
        let any = core::iter::once((String::from("*"), self.any.all.as_slice()));
        exact.chain(wildcard).chain(any)
    }

    /// The winning candidate for `request`, if any.
    pub fn lookup(
        &self,
        objects: &Objects,
        routes: &[CompiledRoute],
        request: &GatewayRequest<'_>,
        fuel: &Fuel,
    ) -> Option<&Candidate> {
        let host = hostname::request_host(request.host);
        let (path, query) = (request.path_only(), request.query());
        let ok = |c: &Candidate, path_known: bool| {
            let (r, i, m) = (c.route as usize, c.rule as usize, c.match_index as usize);
            let regexes = &routes[r].rules[i].regexes[m];
            let matched = &objects.routes[r].spec.rules[i].matches[m];
            match path_known {
                true => matching::check_beyond_path(matched, regexes, request, query, fuel).is_ok(),
                false => matching::check_split(matched, regexes, request, path, query, fuel).is_ok(),
            }
        };
        let mut buf = [0u8; MAX_HOST];
        if host.len() <= MAX_HOST {
            let lower = &mut buf[..host.len()];
            lower.copy_from_slice(host.as_bytes());
            lower.make_ascii_lowercase();
            // ASCII lowercasing keeps UTF-8 valid.
            let lower = core::str::from_utf8(lower).unwrap_or("");
            if let Some(found) = self.exact.get(lower).and_then(|e| e.find(path, ok)) {
                return Some(found);
            }
            if !self.wildcard.is_empty() {
                // `*.suffix` needs at least one label before the suffix: dots after the first byte.
                for (i, _) in lower.match_indices('.').filter(|(i, _)| *i > 0) {
                    if let Some(found) = self.wildcard.get(&lower[i..]).and_then(|e| e.find(path, ok)) {
                        return Some(found);
                    }
                }
            }
        }
        self.any.find(path, ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn route(name: &str, ns: &str, ts: Option<&str>) -> serde_json::Value {
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
               "metadata": {"name": name, "namespace": ns, "creationTimestamp": ts},
               "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}]}})
    }

    #[test]
    fn ranks_by_age_then_name() {
        let o = Objects::from_values(&[
            route("b", "x", Some("2021-01-01T00:00:00Z")),
            route("a", "x", None),
            route("c", "a", Some("2021-01-01T00:00:00Z")),
            route("d", "x", Some("2020-01-01T00:00:00Z")),
        ]);
        let ranks = ranks(&o);
        let ages: Vec<u64> = ranks.iter().map(|r| r.age).collect();
        let names: Vec<u64> = ranks.iter().map(|r| r.name).collect();
        assert_eq!(ages, [1, 3, 1, 0]); // equal timestamps tie; none is the newest
        assert_eq!(names, [2, 1, 0, 3]); // a/c, x/a, x/b, x/d
    }

    #[test]
    fn entries_by_intersected_hostname() {
        let mut values = vec![json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
            "metadata": {"name": "gw", "namespace": "infra"},
            "spec": {"gatewayClassName": "c", "listeners": [{"name": "l", "port": 80, "protocol": "HTTP",
                "allowedRoutes": {"namespaces": {"from": "All"}}}]}})];
        let mut with_hosts = route("h", "x", None);
        with_hosts["spec"]["hostnames"] = json!(["Foo.example.com", "*.example.com", "foo.example.com"]);
        values.push(with_hosts);
        values.push(route("any", "x", None));
        let o = Objects::from_values(&values);
        let routes = compile_routes(&o, false, &Compiler::new(&crate::RegexLimits::default()));
        let l = compile_listener(&o, &o.gateways[0], 0, &routes, RegexOrder::EnvoyGateway);
        assert_eq!(l.exact.keys().collect::<Vec<_>>(), ["foo.example.com"]);
        assert_eq!(l.exact["foo.example.com"].all.len(), 1, "a hostname written twice is one entry");
        assert_eq!(l.wildcard.keys().collect::<Vec<_>>(), [".example.com"]);
        assert_eq!(l.any.all.len(), 1);
        let pick =
            |host| l.lookup(&o, &routes, &GatewayRequest::new(host, "/"), &Fuel::new(usize::MAX)).map(|c| c.route);
        assert_eq!(pick("FOO.example.com."), Some(0));
        assert_eq!(pick("a.b.example.com"), Some(0));
        assert_eq!(pick("example.com"), Some(1));
        let long = "a.".repeat(200) + "example.com";
        assert_eq!(pick(&long), Some(1), "a host longer than 253 bytes only reaches `*`");
    }

    /// An entry above [`LINEAR`] candidates answers through its path index as it would in order.
    #[test]
    fn indexed_entries_keep_the_order() {
        let mut rules = Vec::new();
        for j in 0..6 {
            rules.push(json!({"matches": [{"path": {"value": format!("/p{j}")}}]}));
        }
        rules.push(json!({"matches": [{"path": {"type": "Exact", "value": "/a/b"}}]}));
        rules.push(json!({"matches": [{"path": {"value": "/a/"}}]}));
        rules.push(json!({"matches": [{"path": {"value": "/a/b"}, "method": "POST"}]}));
        rules.push(json!({"matches": [{"path": {"value": "/"}}]}));
        rules.push(json!({"matches": [{"path": {"type": "RegularExpression", "value": "/a/.*"}}]}));
        let mut r = route("r", "x", None);
        r["spec"]["rules"] = json!(rules);
        let gateway = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
            "metadata": {"name": "gw", "namespace": "infra"},
            "spec": {"gatewayClassName": "c", "listeners": [{"name": "l", "port": 80, "protocol": "HTTP",
                "allowedRoutes": {"namespaces": {"from": "All"}}}]}});
        let o = Objects::from_values(&[gateway, r]);
        let routes = compile_routes(&o, false, &Compiler::new(&crate::RegexLimits::default()));
        let l = compile_listener(&o, &o.gateways[0], 0, &routes, RegexOrder::Istio);
        assert!(l.any.all.len() > LINEAR && !l.any.prefix.is_empty());
        let rule = |method, path| {
            l.lookup(&o, &routes, &GatewayRequest::new("h", path).with_method(method), &Fuel::new(usize::MAX))
                .map(|c| c.rule)
        };
        assert_eq!(rule("GET", "/a/b"), Some(6)); // Exact
        assert_eq!(rule("POST", "/a/b/c"), Some(8)); // the longer prefix, its method
        assert_eq!(rule("GET", "/a/b/c"), Some(7)); // `/a/`: a prefix of /a/b/c
        assert_eq!(rule("GET", "/a"), Some(7));
        assert_eq!(rule("GET", "/p3/x"), Some(3));
        assert_eq!(rule("GET", "/q"), Some(9)); // `/`
    }
}
