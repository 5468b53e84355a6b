//! The lookup: [`Table::route`] over the tables [`super::build`] built.
//!
//! The request host picks a host table through the host index (exact hosts, then wildcard
//! suffixes, then the host-less table). The path's prefixes are then probed in the path index,
//! longest first: the whole path, then the part before each `/`, only at lengths the table has
//! keys of (and, for paths up to 64 bytes, only when the table's Bloom filter allows). The first
//! winner found is the answer; no probe allocates.
//!
//! How many probes: one for the host (two for a wildcard or a host to normalise), then at most
//! one per `/` of the request path plus two (the whole path and the root), and only at lengths
//! the host table has keys of, so at most the number of distinct key lengths of that table. A
//! host table with a string prefix (`implementationSpecific: string-prefix`) is the exception:
//! a string prefix can end at any byte, so every distinct key length of the table up to the
//! request path's length is probed: at most min(distinct key lengths, path length + 1) probes,
//! which grows with the number of rules of different lengths on that host. Each probe costs one
//! multiply for paths up to 64 bytes, and hashes the prefix for longer ones.

use super::{Found, HostTable, Table, Via, has_len};
use crate::hash::Scanned;
use crate::host::{self, MAX_HOST_LEN};
use crate::path;
use crate::request::Request;

pub(super) const NONE: u32 = u32::MAX;

/// A route that wins a slot, with its Ingress, so that a hit never has to read the [`super::Route`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Winner {
    pub(super) route: u32,
    pub(super) ingress: u32,
}

impl Winner {
    pub(super) const EMPTY: Winner = Winner { route: NONE, ingress: NONE };

    pub(super) fn get(self) -> Option<Winner> {
        (self.route != NONE).then_some(self)
    }
}

/// The winners stored under one match key of one host table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots {
    /// The request path equals the key.
    pub(super) equal: Winner,
    /// The request path continues the key with `/`.
    pub(super) boundary: Winner,
    /// The request path continues the key with another byte (string prefixes only).
    pub(super) inside: Winner,
}

impl Slots {
    pub(super) const EMPTY: Slots = Slots { equal: Winner::EMPTY, boundary: Winner::EMPTY, inside: Winner::EMPTY };
}

/// What a lookup needs to know about a host table, in one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(super) struct HostLookup {
    /// Index into [`Table::hosts`]; also the space of its keys in the path index.
    pub(super) table: u32,
    /// Index into [`Table::defaults`], or `NONE`.
    pub(super) default: u32,
    /// Bit `n`: some key of length `n` (< 64) has an `equal` / `boundary` winner. Lengths
    /// without a bit are never probed.
    pub(super) equal_lens: u64,
    pub(super) boundary_lens: u64,
    /// Bloom filters of the hashes of the table's keys with an `equal` / a `boundary` winner,
    /// one bit per key: most prefixes of a request path that hold nothing for the probe are
    /// never probed.
    pub(super) equal_keys: [u64; 2],
    pub(super) boundary_keys: [u64; 2],
    /// Some key is 64 bytes or longer: `HostTable::long_*_lens` tell those lengths.
    pub(super) long_keys: bool,
    /// Some key is a string prefix: every key length is tried, through `HostTable::lengths`.
    pub(super) string_prefix: bool,
}

/// The bit of a [`HostLookup`] Bloom filter a key hash sets (0..128).
#[inline(always)]
pub(super) fn key_bit(hash: u64) -> usize {
    (hash >> 57) as usize
}

/// Might a key with this hash be in the Bloom filter?
#[inline(always)]
fn may_hold(filter: &[u64; 2], hash: u64) -> bool {
    let bit = key_bit(hash);
    filter[bit / 64] & (1 << (bit % 64)) != 0
}

/// The host index's spaces: exact hosts, and wildcard hosts keyed by what follows their `*.`.
pub(super) const EXACT_HOSTS: u32 = 0;
pub(super) const WILDCARD_HOSTS: u32 = 1;

impl Table {
    /// Routes a request. Never allocates; costs a few hash probes whatever the table's size (at
    /// most one per `/` of the request path plus two, on lengths the host table has keys of;
    /// with string prefixes, one per distinct key length of the host table up to the path's
    /// length: see the module documentation).
    pub fn route<'r>(&'r self, request: &Request<'_>) -> Found<'r> {
        let host = self.host_lookup(request.host);
        // Independent of the host lookup: runs while the host index is still being read.
        let mut scanned = Scanned::EMPTY;
        let short = scanned.scan(request.path, self.path_index.hasher());
        if let Some(winner) = host.and_then(|h| self.lookup(h, request.path, short.then_some(&scanned))) {
            let route = &self.routes[winner.route as usize];
            return Found {
                via: Via::Rule,
                backend: Some(&route.backend),
                route: Some(route),
                ingress: self.ingresses.get(winner.ingress as usize),
                host_table: host.and_then(|h| self.hosts.get(h.table as usize)),
                answer: Some(winner.route as usize),
            };
        }
        let declared = host.map(|h| h.default).filter(|&d| d != NONE).map(|d| d as usize);
        let index = declared.or(self.default).filter(|&d| d < self.defaults.len());
        let default = index.map(|d| &self.defaults[d]);
        Found {
            via: if default.is_some() { Via::DefaultBackend } else { Via::None },
            backend: default.map(|d| &d.backend),
            route: None,
            ingress: default.and_then(|d| d.ingress).map(|i| &self.ingresses[i]),
            host_table: host.and_then(|h| self.hosts.get(h.table as usize)),
            answer: index.map(|d| self.routes.len() + d),
        }
    }

    /// The decision a request answered by `answer` gets (see [`Found::answer`]), without its
    /// host table.
    pub fn answer(&self, answer: usize) -> Option<Found<'_>> {
        if let Some(route) = self.routes.get(answer) {
            return Some(Found {
                via: Via::Rule,
                backend: Some(&route.backend),
                route: Some(route),
                ingress: self.ingresses.get(route.ingress),
                host_table: None,
                answer: Some(answer),
            });
        }
        let default = self.defaults.get(answer - self.routes.len())?;
        Some(Found {
            via: Via::DefaultBackend,
            backend: Some(&default.backend),
            route: None,
            ingress: default.ingress.and_then(|i| self.ingresses.get(i)),
            host_table: None,
            answer: Some(answer),
        })
    }

    #[inline]
    fn host_lookup(&self, raw_host: &[u8]) -> Option<&HostLookup> {
        self.host_table_of(raw_host).and_then(|t| self.host_lookups.get(t as usize))
    }

    #[inline]
    fn host_table_of(&self, raw_host: &[u8]) -> Option<u32> {
        // Rule hosts are normal (validation admits only lower-case DNS names), so a Host header
        // equal to one is normal too: a hit here needs no normalisation and no check.
        if let Some(&table) = self.host_index.get(EXACT_HOSTS, raw_host) {
            return Some(table);
        }
        if host::is_normal(raw_host) {
            return self.wildcard_or_any(raw_host);
        }
        // Most hosts are short: a small buffer is cheaper to clear.
        const SHORT_HOST: usize = 64;
        let normal = if raw_host.len() <= SHORT_HOST {
            host::normalize_into(raw_host, &mut [0u8; SHORT_HOST]).map(|h| self.normal_host_table(h))
        } else {
            host::normalize_into(raw_host, &mut [0u8; MAX_HOST_LEN]).map(|h| self.normal_host_table(h))
        };
        // `None`: too long for any rule host.
        normal.unwrap_or(self.any_host)
    }

    /// The table of a normalised request host.
    fn normal_host_table(&self, host: &[u8]) -> Option<u32> {
        self.host_index.get(EXACT_HOSTS, host).copied().or_else(|| self.wildcard_or_any(host))
    }

    /// The table of a normal request host that is no exact rule host.
    #[inline]
    fn wildcard_or_any(&self, host: &[u8]) -> Option<u32> {
        host::wildcard_suffix(host).and_then(|s| self.host_index.get(WILDCARD_HOSTS, s)).copied().or(self.any_host)
    }

    /// The best route of a host table for a request target (a path with an optional query or
    /// fragment): the whole path, then its prefixes ending before each `/`, longest first,
    /// probing only lengths some key has. `scanned`: the target scanned, when its path is short
    /// enough.
    #[inline]
    fn lookup(&self, host: &HostLookup, target: &[u8], scanned: Option<&Scanned>) -> Option<Winner> {
        if host.string_prefix {
            return match scanned {
                Some(scanned) => self.lookup_by_lengths(host, &target[..scanned.len], Some(scanned)),
                None => self.lookup_by_lengths(host, path::request_path(target), None),
            };
        }
        match scanned {
            Some(scanned) => self.lookup_scanned(host, &target[..scanned.len], scanned),
            None => self.lookup_long(host, path::request_path(target)),
        }
    }

    /// Could a key of this length hold an `equal` winner?
    #[inline(always)]
    fn may_equal(&self, host: &HostLookup, len: usize) -> bool {
        self.has_key_len(host, len, host.equal_lens, |t| &t.long_equal_lens)
    }

    /// Could a key of this length hold a `boundary` winner?
    #[inline(always)]
    fn may_bound(&self, host: &HostLookup, len: usize) -> bool {
        self.has_key_len(host, len, host.boundary_lens, |t| &t.long_boundary_lens)
    }

    /// Does the length filter (`lens` below 64 bytes, `long_lens` of the table from 64 on) have
    /// this length?
    #[inline(always)]
    fn has_key_len(&self, host: &HostLookup, len: usize, lens: u64, long_lens: fn(&HostTable) -> &[u64]) -> bool {
        if len < 64 {
            lens & (1 << len) != 0
        } else {
            host.long_keys && self.hosts.get(host.table as usize).is_some_and(|t| has_len(long_lens(t), len))
        }
    }

    /// [`Self::lookup`] for a path of at most [`crate::hash::SCAN_LEN`] bytes, scanned once.
    #[inline]
    fn lookup_scanned(&self, host: &HostLookup, path: &[u8], scanned: &Scanned) -> Option<Winner> {
        let hasher = self.path_index.hasher();
        let space_mix = hasher.space_mix(host.table);
        let probe = |len: usize, filter: &[u64; 2]| {
            let hash = scanned.prefix_hash(len, space_mix, hasher);
            if !may_hold(filter, hash) {
                return None;
            }
            self.path_index.get_hashed(hash, host.table, &path[..len])
        };
        if self.may_equal(host, path.len()) {
            if let Some(found) = probe(path.len(), &host.equal_keys).and_then(|s| s.equal.get()) {
                return Some(found);
            }
        }
        let mut first_slash = path.len();
        for slash in scanned.slashes() {
            first_slash = slash;
            if self.may_bound(host, slash) {
                if let Some(found) = probe(slash, &host.boundary_keys).and_then(|s| s.boundary.get()) {
                    return Some(found);
                }
            }
        }
        // Key "" (the root prefix `/`) covers every path, even one without a leading slash.
        if first_slash != 0 && self.may_bound(host, 0) {
            return probe(0, &host.boundary_keys).and_then(|s| s.boundary.get());
        }
        None
    }

    /// [`Self::lookup`] for a path longer than [`crate::hash::SCAN_LEN`] bytes (`path` already cut).
    fn lookup_long(&self, host: &HostLookup, path: &[u8]) -> Option<Winner> {
        let probe = |key: &[u8]| self.path_index.get(host.table, key);
        if self.may_equal(host, path.len()) {
            if let Some(found) = probe(path).and_then(|s| s.equal.get()) {
                return Some(found);
            }
        }
        let mut end = path.len();
        while let Some(slash) = path::last_slash(&path[..end]) {
            if self.may_bound(host, slash) {
                if let Some(found) = probe(&path[..slash]).and_then(|s| s.boundary.get()) {
                    return Some(found);
                }
            }
            end = slash;
        }
        if end != 0 && self.may_bound(host, 0) {
            return probe(b"").and_then(|s| s.boundary.get());
        }
        None
    }

    /// [`Self::lookup`] when string prefixes exist: a string prefix matches at any byte, so
    /// every key length of the table up to the path's length is tried, longest first (those where
    /// the path has no `/` only when a string prefix has that length). At most one probe per
    /// distinct key length of the table, and never more than the path's length plus one.
    /// `scanned`: the path scanned, when short enough (a probe then hashes nothing again).
    fn lookup_by_lengths(&self, host: &HostLookup, path: &[u8], scanned: Option<&Scanned>) -> Option<Winner> {
        let lengths = &self.hosts.get(host.table as usize)?.lengths;
        let hasher = self.path_index.hasher();
        let space_mix = hasher.space_mix(host.table);
        let start = lengths.partition_point(|&(len, _)| len > path.len());
        for &(len, has_inside) in &lengths[start..] {
            let pick: fn(&Slots) -> Winner = if len == path.len() {
                |s| s.equal
            } else if len == 0 || path[len] == b'/' {
                // Key "" is the root prefix `/` (or an empty path): it covers every path.
                |s| s.boundary
            } else if has_inside {
                |s| s.inside
            } else {
                continue;
            };
            let key = &path[..len];
            let hash = match scanned {
                Some(scanned) => scanned.prefix_hash(len, space_mix, hasher),
                None => hasher.key_hash(host.table, key),
            };
            if let Some(found) = self.path_index.get_hashed(hash, host.table, key).and_then(|s| pick(s).get()) {
                return Some(found);
            }
        }
        None
    }
}
