//! The compiled routing table behind [`crate::Router`]: built once by [`build`], then asked by
//! `Table::route` (in `table::lookup`) many times.
//!
//! Layout: the request host picks one host table through the host index (exact hosts, and wildcard
//! hosts keyed by everything after their `*.`), else the host-less table. Every path of every
//! table is stored in one path index under (its table, its match key: the path without one
//! trailing `/` for element-wise prefixes), with the winner precomputed for three situations: the
//! request path equals the key, continues it with `/`, or continues it with anything else. A lookup
//! (`table::lookup`) tries the request's prefixes from the longest, only at lengths some key has, so it
//! costs a few hash probes whatever the number of rules (at most one per `/` of the request path,
//! plus two), and never allocates. The exception is a host with a string prefix
//! (`implementationSpecific: string-prefix`): a string prefix can end at any byte, so every
//! distinct key length of that host up to the request path's length is probed, at most
//! min(distinct key lengths, path length + 1) probes.
//!
//! The hashes are keyed by a per-table seed ([`compile_seeded`](crate::compile_seeded); [`compile`](crate::compile) takes one from the
//! operating system), so keys that collide cannot be computed offline, and should they collide
//! anyway, the index moves to an ordered fallback (at most `log2(keys) + 1` comparisons a
//! probe) instead of scanning.
//!
//! Precedence among matching paths is the crate documentation's [Precedence](crate#precedence)
//! section (stated there as tests); [`precedence_key`] is its one implementation.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::borrow::Borrow;
use core::cmp::Reverse;

use serde::Serialize;

use crate::class::{self, Admission, Participation};
use hashbrown::HashMap;

use crate::hash::KeyHasher;
use crate::host::{RuleHost, Tier};
use crate::index::KeyIndex;
use crate::model::{Ingress, IngressBackend, Object};
use crate::options::CompileOptions;
use crate::path::{self, MatchKind, PathType};
use crate::validation;

#[cfg(feature = "table-file")]
pub(crate) mod file;
mod lookup;

use lookup::{EXACT_HOSTS, HostLookup, NONE, Slots, WILDCARD_HOSTS, Winner, key_bit};

/// An Ingress that takes part in the table. Its position in
/// [`TableView::ingresses`](crate::TableView::ingresses) is its age rank (oldest first), which is
/// precedence key 4.
///
/// Laid out so that a decision, which reads the namespace and the name, reads one cache line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
#[repr(C, align(64))]
pub struct IngressInfo {
    pub namespace: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    pub participation: Participation,
}

impl IngressInfo {
    /// `namespace/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

/// An Ingress left out of the table, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExcludedIngress {
    pub namespace: String,
    pub name: String,
    /// Why, in words (`is of class "other"`, `invalid: ...`).
    pub reason: String,
    #[serde(skip)]
    pub(crate) cause: Exclusion,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<validation::FieldError>,
}

impl ExcludedIngress {
    /// Whether it is left out because the apiserver would reject it (not for its class). A table
    /// loaded from a file knows this, not the field errors.
    pub fn is_invalid(&self) -> bool {
        self.cause == Exclusion::Invalid
    }
}

/// Why an Ingress is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exclusion {
    /// Of a class that is not served.
    NotServed,
    /// The apiserver would reject it.
    Invalid,
}

/// Whether a path can be chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Standing {
    /// Some request chooses it.
    Active,
    /// Another declaration of the same host, path and pathType wins (a conflict).
    Shadowed { by: usize },
    /// Another path with the same match key always beats it.
    Unreachable { by: usize },
}

/// One compiled path of one rule.
///
/// Laid out for the lookup's decision, which reads the first cache line (host, path, place,
/// pathType) and the backend's line: two lines of a route instead of the four or five a
/// compiler-ordered, unaligned route spans (measured in BENCHMARKS.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[repr(C, align(64))]
pub struct Route {
    /// The rule host as written (`""` for a host-less rule).
    pub host: String,
    /// The rule path as written (`""` when absent).
    pub path: String,
    /// 32 bits, so that the decision's fields fit one line (inputs are at most 32 MiB).
    pub rule_index: u32,
    pub path_index: u32,
    pub path_type: PathType,
    pub match_kind: MatchKind,
    pub backend: IngressBackend,
    /// Index into [`Table::ingresses`].
    pub ingress: usize,
    pub standing: Standing,
}

impl Route {
    /// Precedence key 1: the length of the path that must match.
    pub fn effective_len(&self) -> usize {
        path::match_key(self.match_kind, &self.path).len()
    }

    /// The JSON-pointer-like field of this path in its Ingress.
    pub fn field(&self) -> String {
        format!("spec.rules[{}].http.paths[{}]", self.rule_index, self.path_index)
    }
}

/// The precedence keys of a route, in order, as one sort key (smaller is stronger): the longer
/// path that must match, Exact before Prefix before ImplementationSpecific, the longer raw
/// path, the older Ingress, then declaration order.
fn precedence_key(r: &Route) -> (Reverse<usize>, u8, Reverse<usize>, usize, u32, u32) {
    (Reverse(r.effective_len()), r.path_type.rank(), Reverse(r.path.len()), r.ingress, r.rule_index, r.path_index)
}

/// A declared `defaultBackend` (or the configured one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefaultBackend {
    /// Index into [`Table::ingresses`]; `None` for the configured default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ingress: Option<usize>,
    pub backend: IngressBackend,
}

/// The paths of one host (or of the host-less rules), for views. The lookup itself goes through
/// the host index and the path index (`table::lookup`).
#[derive(Clone, Debug)]
pub struct HostTable {
    /// The rule host (`*.foo.com` for wildcards, `""` for host-less).
    pub host: String,
    pub tier: Tier,
    /// Routes in precedence order.
    pub routes: Vec<usize>,
    /// The Ingresses with a rule for this host, oldest first.
    pub ingresses: Vec<usize>,
    /// Index into [`Table::defaults`].
    pub default: Option<usize>,
    /// Distinct key lengths, longest first, and whether a string prefix has that length (only
    /// filled when a string prefix exists: then every length must be tried).
    lengths: Vec<(usize, bool)>,
    /// Bit `n`: some key of length `n` has an `equal` / `boundary` winner (only filled when some
    /// key is 64 bytes or longer; [`HostLookup`] covers the shorter ones).
    long_equal_lens: Vec<u64>,
    long_boundary_lens: Vec<u64>,
}

impl HostTable {
    fn new(host: String, tier: Tier) -> Self {
        HostTable {
            host,
            tier,
            routes: Vec::new(),
            ingresses: Vec::new(),
            default: None,
            lengths: Vec::new(),
            long_equal_lens: Vec::new(),
            long_boundary_lens: Vec::new(),
        }
    }
}

fn has_len(bits: &[u64], len: usize) -> bool {
    bits.get(len / 64).is_some_and(|w| w & (1 << (len % 64)) != 0)
}

fn set_len(bits: &mut Vec<u64>, len: usize) {
    if bits.len() <= len / 64 {
        bits.resize(len / 64 + 1, 0);
    }
    bits[len / 64] |= 1 << (len % 64);
}

pub use crate::decision::Via;
use crate::decision::{self, BackendRef, IngressRef, MatchedRule};

/// The result of [`Table::route`]: borrowed from the router, built without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Found<'r> {
    pub via: Via,
    pub backend: Option<&'r IngressBackend>,
    /// The winning path, when `via` is `Rule`.
    pub route: Option<&'r Route>,
    /// The Ingress the answer comes from (the rule's, or the defaultBackend's).
    pub ingress: Option<&'r IngressInfo>,
    /// The host table chosen, if any host tier matched.
    pub host_table: Option<&'r HostTable>,
    /// What answered, numbered: the route's index, or `routes.len()` plus the default's index.
    pub answer: Option<usize>,
}

impl<'r> Found<'r> {
    /// The crate's decision for this lookup.
    // Inlined into `Router::route`: the hot path returns the decision without a call.
    #[inline(always)]
    pub(crate) fn decision(&self) -> decision::Decision<'r> {
        let ingress = self.ingress.map(|i| IngressRef { namespace: &i.namespace, name: &i.name });
        let backend = self.backend.and_then(|b| BackendRef::new(ingress.map_or("", |i| i.namespace), b));
        let matched = self.route.zip(ingress).map(|(r, ingress)| MatchedRule {
            ingress,
            host: &r.host,
            path: &r.path,
            path_type: r.path_type,
            rule_index: r.rule_index as usize,
            path_index: r.path_index as usize,
        });
        let mut decision = decision::Decision::proxied(self.via, backend, matched, None, None, self.answer);
        if self.via == Via::DefaultBackend {
            decision.default_from = ingress;
        }
        decision
    }
}

/// The compiled table.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// The Ingresses taking part, oldest first.
    pub ingresses: Vec<IngressInfo>,
    /// The Ingresses left out, with the reason.
    pub excluded: Vec<ExcludedIngress>,
    /// Every compiled path.
    pub routes: Vec<Route>,
    /// Host tables: exact hosts, then wildcards, then the host-less table, each sorted by host.
    pub hosts: Vec<HostTable>,
    /// Declared default backends, oldest Ingress first, then the configured one.
    pub defaults: Vec<DefaultBackend>,
    /// The default used when no host tier matches.
    pub default: Option<usize>,
    pub options: CompileOptions,
    /// Exact hosts and wildcard suffixes (spaces [`EXACT_HOSTS`] and [`WILDCARD_HOSTS`]) to
    /// their table.
    host_index: KeyIndex<u32>,
    /// The lookup data of each host table, by table.
    host_lookups: Vec<HostLookup>,
    /// The host-less table.
    any_host: Option<u32>,
    /// The match keys of every host table, each in the space of its table.
    path_index: KeyIndex<Slots>,
}

/// Compiles objects into a [`Table`]. Invalid Ingresses, and Ingresses of another class, are
/// left out on their own (each in [`Table::excluded`]); the others still route.
///
/// The table's hashes are keyed by `seed`. Routing is the same whatever the seed; the seed only
/// decides which keys could collide, so it must be unpredictable to whoever writes the Ingresses
/// (a fixed seed lets them compute colliding paths offline).
///
/// `objects`: [`Object`]s, or an input's own (compiling an input borrows them, not copies them).
pub fn build<O: Borrow<Object>>(objects: &[O], options: &CompileOptions, seed: u64) -> Table {
    let mut taking_part: Vec<(&Ingress, Participation)> = Vec::new();
    let mut excluded = Vec::new();
    for (ingress, admission) in class::admit(objects, options.ingress_class.as_deref()) {
        let exclude = |reason: String, cause, errors| ExcludedIngress {
            namespace: ingress.metadata.namespace_or_default().into(),
            name: ingress.metadata.name.clone(),
            reason,
            cause,
            errors,
        };
        match admission {
            Admission::Admitted(participation) => taking_part.push((ingress, participation)),
            Admission::NotServed(reason) => excluded.push(exclude(reason, Exclusion::NotServed, Vec::new())),
            Admission::Invalid(errors) => excluded.push(exclude(
                String::from("invalid: the apiserver would reject it"),
                Exclusion::Invalid,
                errors,
            )),
        }
    }
    // Age order is precedence key 4: creationTimestamp (objects without one count as newest), then namespace/name.
    taking_part.sort_by(|(a, _), (b, _)| {
        let ta = a.metadata.creation_timestamp.as_deref();
        let tb = b.metadata.creation_timestamp.as_deref();
        ta.is_none().cmp(&tb.is_none()).then(ta.cmp(&tb)).then_with(|| age_key(&a.metadata).cmp(age_key(&b.metadata)))
    });

    let mut builder = Builder {
        router: Table { excluded, ..Table::seeded(options.clone(), seed) },
        table_of_host: HashMap::new(),
        any_host: None,
    };
    // Routes are large: growing the vector path by path would copy them over and over.
    let paths = |i: &Ingress| {
        i.spec.rules.iter().flatten().filter_map(|r| r.http.as_ref()).map(|h| h.paths.len()).sum::<usize>()
    };
    builder.router.routes.reserve_exact(taking_part.iter().map(|(i, _)| paths(i)).sum());
    for (index, (ingress, participation)) in taking_part.into_iter().enumerate() {
        builder.add_ingress(index, ingress, participation);
    }
    builder.finish();
    builder.router
}

/// `namespace/name` as one string, byte by byte (precedence key 4 breaks creationTimestamp ties by
/// it, as ingress-nginx does): `team-b/web` sorts before `team/web` (`-` < `/`), which comparing
/// the namespace and the name separately gets wrong.
fn age_key(meta: &crate::model::ObjectMeta) -> impl Iterator<Item = u8> + '_ {
    meta.namespace_or_default().bytes().chain(core::iter::once(b'/')).chain(meta.name.bytes())
}

struct Builder<'a> {
    router: Table,
    /// Host table by (tier, host) while Ingresses are added; the final index is built by `finish`.
    table_of_host: HashMap<(Tier, &'a str), usize>,
    any_host: Option<usize>,
}

impl<'a> Builder<'a> {
    fn host_table(&mut self, host: &'a str) -> usize {
        let hosts = &mut self.router.hosts;
        let tier = match RuleHost::parse(host) {
            RuleHost::Any => {
                return *self.any_host.get_or_insert_with(|| {
                    hosts.push(HostTable::new(String::new(), Tier::Any));
                    hosts.len() - 1
                });
            }
            RuleHost::Exact(_) => Tier::Exact,
            RuleHost::Wildcard(_) => Tier::Wildcard,
        };
        *self.table_of_host.entry((tier, host)).or_insert_with(|| {
            hosts.push(HostTable::new(host.to_string(), tier));
            hosts.len() - 1
        })
    }

    fn add_ingress(&mut self, index: usize, ingress: &'a Ingress, participation: Participation) {
        let meta = &ingress.metadata;
        self.router.ingresses.push(IngressInfo {
            namespace: meta.namespace_or_default().to_string(),
            name: meta.name.clone(),
            creation_timestamp: meta.creation_timestamp.clone(),
            participation,
        });
        if let Some(backend) = &ingress.spec.default_backend {
            self.router.defaults.push(DefaultBackend { ingress: Some(index), backend: backend.clone() });
        }
        let mode = self.router.options.implementation_specific;
        for (rule_index, rule) in ingress.spec.rules.iter().flatten().enumerate() {
            let host = rule.host.as_deref().unwrap_or("");
            let table = self.host_table(host);
            if self.router.hosts[table].ingresses.last() != Some(&index) {
                self.router.hosts[table].ingresses.push(index);
            }
            for (path_index, p) in rule.http.iter().flat_map(|h| h.paths.iter()).enumerate() {
                // Validation has checked pathType; unknown ones never reach here.
                let Some(path_type) = p.path_type.as_deref().and_then(PathType::parse) else { continue };
                let route = self.router.routes.len();
                self.router.routes.push(Route {
                    ingress: index,
                    // Fewer than 2^32 rules and paths: inputs are at most 32 MiB.
                    rule_index: rule_index as u32,
                    path_index: path_index as u32,
                    host: host.to_string(),
                    path: p.path.clone().unwrap_or_default(),
                    path_type,
                    match_kind: MatchKind::of(path_type, mode),
                    backend: p.backend.clone(),
                    standing: Standing::Active,
                });
                self.router.hosts[table].routes.push(route);
            }
        }
    }

    fn finish(&mut self) {
        let router = &mut self.router;
        // A configured default that names nothing would answer with nothing: left out.
        if let Some(backend) =
            router.options.default_backend.as_ref().filter(|b| b.service.is_some() || b.resource.is_some())
        {
            router.defaults.push(DefaultBackend { ingress: None, backend: backend.clone() });
        }
        router.index();
    }
}

impl Table {
    /// Everything a lookup reads that follows from the table's data: the host tables in their
    /// order, each one's routes in precedence order with their standing and default, the host and
    /// path indexes. Compiling and loading a precompiled table ([`file`](mod@file)) both end here, so a
    /// loaded table routes as the compiled one did.
    fn index(&mut self) {
        // Exact hosts, then wildcards, then host-less; by host inside a tier (stable views).
        self.hosts.sort_by(|a, b| a.tier.cmp(&b.tier).then_with(|| a.host.cmp(&b.host)));

        // The defaultBackend each Ingress declares, by age rank: one pass, not tables x defaults x Ingresses.
        let mut default_of: Vec<Option<usize>> = vec![None; self.ingresses.len()];
        for (d, default) in self.defaults.iter().enumerate() {
            if let Some(i) = default.ingress {
                default_of[i].get_or_insert(d);
            }
        }
        let routes = &mut self.routes;
        for (index, table) in self.hosts.iter_mut().enumerate() {
            // Precedence keys computed once per route, not once per comparison.
            table.routes.sort_by_cached_key(|&r| precedence_key(&routes[r]));
            // The oldest Ingress with a rule for this host that declares a defaultBackend
            // (`table.ingresses` is oldest first).
            table.default = table.ingresses.iter().find_map(|&i| default_of[i]);
            let space = index as u32;
            self.host_lookups.push(build_slots(space, table, routes, &mut self.path_index));
            let (tier, key) = match RuleHost::parse(&table.host) {
                RuleHost::Any => {
                    self.any_host = Some(space);
                    continue;
                }
                RuleHost::Exact(h) => (EXACT_HOSTS, h),
                RuleHost::Wildcard(suffix) => (WILDCARD_HOSTS, suffix),
            };
            self.host_index.get_or_insert_with(tier, key.as_bytes(), || space);
        }
        self.host_index.shrink_to_fit();
        self.path_index.shrink_to_fit();
        self.default = (!self.defaults.is_empty()).then_some(0);
    }

    /// An empty table whose hashes are keyed by `seed`.
    fn seeded(options: CompileOptions, seed: u64) -> Table {
        Table {
            options,
            host_index: KeyIndex::new(KeyHasher::new(seed)),
            path_index: KeyIndex::new(KeyHasher::new(seed ^ 0x7061_7468_735f_6b65)),
            ..Table::default()
        }
    }
}

/// Enters the match keys of host table `space` into the path index from its routes (already in
/// precedence order), marks routes that win no slot as shadowed or unreachable, and returns what
/// a lookup needs to know about the table.
fn build_slots(space: u32, table: &mut HostTable, routes: &mut [Route], index: &mut KeyIndex<Slots>) -> HostLookup {
    let mut lookup = HostLookup {
        table: space,
        default: table.default.map_or(NONE, |d| d as u32),
        equal_lens: 0,
        boundary_lens: 0,
        equal_keys: [0; 2],
        boundary_keys: [0; 2],
        long_keys: false,
        string_prefix: false,
    };
    let mut lengths: Vec<(usize, bool)> = Vec::new();
    for &r in &table.routes {
        let (kind, key_len) = (routes[r].match_kind, path::match_key(routes[r].match_kind, &routes[r].path).len());
        let key = &routes[r].path.as_bytes()[..key_len];
        // `None` only past 4 GiB of keys, which no input reaches.
        let Some(slots) = index.get_or_insert_with(space, key, || Slots::EMPTY) else { continue };
        let id = Winner { route: r as u32, ingress: routes[r].ingress as u32 };
        let mut won = false;
        let mut take = |slot: &mut Winner| {
            if slot.route == NONE {
                *slot = id;
                won = true;
            }
        };
        take(&mut slots.equal);
        // The slot only this kind of path can win; whoever holds it is what beats this path.
        let own_slot = match kind {
            MatchKind::Exact => slots.equal,
            MatchKind::ElementPrefix => {
                take(&mut slots.boundary);
                slots.boundary
            }
            MatchKind::StringPrefix => {
                take(&mut slots.boundary);
                take(&mut slots.inside);
                slots.inside
            }
        };
        if !won {
            let by = own_slot.route as usize;
            let duplicate = routes[by].path == routes[r].path && routes[by].path_type == routes[r].path_type;
            routes[r].standing = if duplicate { Standing::Shadowed { by } } else { Standing::Unreachable { by } };
        }
        let bit = key_bit(index.hasher().key_hash(space, key));
        let boundary = kind != MatchKind::Exact;
        lookup.equal_keys[bit / 64] |= 1 << (bit % 64);
        lookup.boundary_keys[bit / 64] |= u64::from(boundary) << (bit % 64);
        if key_len < 64 {
            lookup.equal_lens |= 1 << key_len;
            lookup.boundary_lens |= u64::from(boundary) << key_len;
        } else {
            lookup.long_keys = true;
            set_len(&mut table.long_equal_lens, key_len);
            if boundary {
                set_len(&mut table.long_boundary_lens, key_len);
            }
        }
        lengths.push((key_len, kind == MatchKind::StringPrefix));
    }
    lookup.string_prefix = lengths.iter().any(|&(_, s)| s);
    if lookup.string_prefix {
        // Longest first; one entry per length, flagged when any string prefix has it.
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths.dedup_by_key(|(len, _)| *len);
        table.lengths = lengths;
    }
    lookup
}

pub(crate) fn display_path(path: &str) -> &str {
    if path.is_empty() { "\"\"" } else { path }
}

impl Table {
    /// Testing only (the `test-hash-collisions` feature): have the host index and the path index
    /// left hashing for their ordered fallback?
    #[cfg(feature = "test-hash-collisions")]
    #[doc(hidden)]
    pub fn indexes_ordered(&self) -> (bool, bool) {
        (self.host_index.is_ordered(), self.path_index.is_ordered())
    }
}

#[cfg(test)]
mod tests {
    use super::{IngressInfo, Route};
    use core::mem::{align_of, offset_of, size_of};

    /// Guards the layout the decision relies on: what it reads of a route besides the backend
    /// sits in the route's first cache line.
    #[test]
    fn a_decision_reads_one_line_of_a_route_besides_its_backend() {
        assert_eq!(align_of::<Route>(), 64);
        assert!(offset_of!(Route, match_kind) < 64 && offset_of!(Route, path_type) < 64);
        assert_eq!(offset_of!(Route, backend), 64);
        assert_eq!(size_of::<Route>(), 256);
    }

    #[test]
    fn a_decision_reads_one_line_of_an_ingress() {
        assert_eq!(align_of::<IngressInfo>(), 64);
        assert_eq!(offset_of!(IngressInfo, name), 24);
    }
}
