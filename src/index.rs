//! Byte-string keys in one flat hash table, for the lookups of [`crate::table`].
//!
//! Every key carries a small number, its *space* (the host table a path key belongs to, or the
//! tier of a host key), so that all the path keys of all hosts share one table: a probe finds the
//! bucket and compares in place, with no second-level map to reach first. An entry is one cache
//! line and holds keys of up to [`INLINE`] bytes itself (most hosts and paths); longer keys live
//! in one arena.
//!
//! The hash is keyed by the table's seed ([`KeyHasher`]), so colliding keys cannot be computed
//! without it. Should hashes collide all the same (a weak or leaked seed), the index does not
//! become a scan: an insert that has to compare more than [`MAX_COMPARED`] entries moves every
//! key into an ordered index, where a probe costs at most `log2(keys) + 1` key comparisons
//! whatever the hashes. By chance (an unknown seed) that never happens.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use hashbrown::HashTable;

use crate::hash::{KeyHasher, load, load8};

/// The most entries an insert compares before the index leaves hashing: a probe with a keyed
/// hash compares one or two.
pub(crate) const MAX_COMPARED: usize = 16;

/// Testing only: the key comparisons (hash-table entries compared, ordered-index steps) made on
/// this thread, so that tests bound work rather than time.
#[cfg(feature = "test-hash-collisions")]
pub mod comparisons {
    use core::cell::Cell;

    std::thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    /// The comparisons made on this thread so far.
    pub fn count() -> u64 {
        COUNT.with(Cell::get)
    }

    pub(crate) fn add(n: u64) {
        COUNT.with(|c| c.set(c.get() + n));
    }
}

#[cfg(feature = "test-hash-collisions")]
#[inline(always)]
fn counted(n: u64) {
    comparisons::add(n);
}

#[cfg(not(feature = "test-hash-collisions"))]
#[inline(always)]
fn counted(_: u64) {}

/// Keys up to this length are stored in their entry.
pub(crate) const INLINE: usize = 24;

/// One key and its value: a cache line when `V` has at most 24 bytes.
#[derive(Clone, Debug)]
#[repr(align(64))]
struct Entry<V> {
    /// [`KeyHasher::key_hash`] of the key: probes compare it before the bytes, and growing needs no rehash.
    hash: u64,
    space: u32,
    len: u32,
    /// The key, zero-padded, when it has at most [`INLINE`] bytes; else its start in the arena,
    /// in the first 4 bytes.
    key: [u8; INLINE],
    value: V,
}

impl<V> Entry<V> {
    #[inline(always)]
    fn key<'a>(&'a self, arena: &'a [u8]) -> &'a [u8] {
        let len = self.len as usize;
        if len <= INLINE {
            &self.key[..len]
        } else {
            let start = u32::from_le_bytes([self.key[0], self.key[1], self.key[2], self.key[3]]) as usize;
            arena.get(start..start + len).unwrap_or_default()
        }
    }

    #[inline(always)]
    fn holds(&self, hash: u64, space: u32, key: &[u8], arena: &[u8]) -> bool {
        self.hash == hash && self.space == space && self.len as usize == key.len() && same(self.key(arena), key)
    }
}

/// `a == b` for slices of equal length, inline: keys are short, and a call to `memcmp` costs
/// more than comparing them word by word.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    if n < 8 {
        return load(a) == load(b);
    }
    // Whole words, then the last 8 bytes (overlapping the last word when `n` is no multiple of 8).
    let mut at = 0;
    while at + 8 < n {
        if load8(&a[at..]) != load8(&b[at..]) {
            return false;
        }
        at += 8;
    }
    load8(&a[n - 8..]) == load8(&b[n - 8..])
}

/// A map from (space, bytes) to `V`.
#[derive(Clone)]
pub(crate) struct KeyIndex<V> {
    hasher: KeyHasher,
    entries: HashTable<Entry<V>>,
    arena: Vec<u8>,
    /// Every key, once hashes have collided too often; `entries` is then empty.
    ordered: Option<Ordered<V>>,
}

/// The keys by (space, bytes): a map while the table is built, a sorted array once built.
#[derive(Clone)]
enum Ordered<V> {
    Building(BTreeMap<u32, BTreeMap<Box<[u8]>, V>>),
    Built(Vec<(u32, Box<[u8]>, V)>),
}

impl<V> fmt::Debug for KeyIndex<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyIndex")
            .field("keys", &self.entries.len())
            .field("arena", &self.arena.len())
            .field("ordered", &self.ordered.is_some())
            .finish()
    }
}

impl<V> Default for KeyIndex<V> {
    /// An empty index (seed 0: it holds nothing an attacker could aim at).
    fn default() -> Self {
        KeyIndex::new(KeyHasher::new(0))
    }
}

impl<V> KeyIndex<V> {
    pub(crate) fn new(hasher: KeyHasher) -> Self {
        KeyIndex { hasher, entries: HashTable::new(), arena: Vec::new(), ordered: None }
    }

    /// The hasher of the keys, for callers that hash (or scan) a key once for several probes.
    #[inline(always)]
    pub(crate) fn hasher(&self) -> &KeyHasher {
        &self.hasher
    }

    /// The value stored under `key` in `space`; `hash` is `self.hasher().key_hash(space, key)`.
    #[inline]
    pub(crate) fn get_hashed(&self, hash: u64, space: u32, key: &[u8]) -> Option<&V> {
        // The fallback is asked only on a miss: once ordered, `entries` is empty and misses.
        match self.entries.find(hash, |e| {
            counted(1);
            e.holds(hash, space, key, &self.arena)
        }) {
            Some(e) => Some(&e.value),
            None => self.ordered.as_ref()?.get(space, key),
        }
    }

    /// The value stored under `key` in `space`.
    #[inline]
    pub(crate) fn get(&self, space: u32, key: &[u8]) -> Option<&V> {
        self.get_hashed(self.hasher.key_hash(space, key), space, key)
    }

    /// The value under `key` in `space`, inserted by `new` when absent. `None` only when the keys
    /// would pass 4 GiB, which inputs (at most 32 MiB) never come near.
    pub(crate) fn get_or_insert_with(&mut self, space: u32, key: &[u8], new: impl FnOnce() -> V) -> Option<&mut V> {
        let hash = self.hasher.key_hash(space, key);
        if self.ordered.is_none() && self.probe_is_long(hash, space, key) {
            self.order();
        }
        if let Some(Ordered::Building(spaces)) = &mut self.ordered {
            let keys = spaces.entry(space).or_default();
            // A map of height h compares at most about 11h keys; counted as log2 of its size.
            counted(u64::from(usize::BITS - keys.len().leading_zeros()) + 1);
            if !keys.contains_key(key) {
                keys.insert(key.into(), new());
            }
            return keys.get_mut(key);
        }
        let KeyIndex { entries, arena, .. } = self;
        match entries.entry(hash, |e| e.holds(hash, space, key, arena), |e| e.hash) {
            hashbrown::hash_table::Entry::Occupied(o) => Some(&mut o.into_mut().value),
            hashbrown::hash_table::Entry::Vacant(v) => {
                let len = u32::try_from(key.len()).ok()?;
                let mut stored = [0u8; INLINE];
                if key.len() <= INLINE {
                    stored[..key.len()].copy_from_slice(key);
                } else {
                    let start = u32::try_from(arena.len()).ok().filter(|&start| start.checked_add(len).is_some())?;
                    stored[..4].copy_from_slice(&start.to_le_bytes());
                    arena.extend_from_slice(key);
                }
                Some(&mut v.insert(Entry { hash, space, len, key: stored, value: new() }).into_mut().value)
            }
        }
    }

    /// Would finding `key` (whose hash is `hash`) compare more than [`MAX_COMPARED`] entries? Counts the entries the
    /// hash table hands over for comparison (those that share the probe's 7-bit tag), stopping
    /// at the limit, so a check costs what the insert that follows costs.
    fn probe_is_long(&self, hash: u64, space: u32, key: &[u8]) -> bool {
        let mut compared = 0;
        self.entries.find(hash, |e| {
            compared += 1;
            compared > MAX_COMPARED || e.holds(hash, space, key, &self.arena)
        });
        counted(compared as u64);
        compared > MAX_COMPARED
    }

    /// Moves every key into the ordered index (once: an index already ordered stays as it is).
    fn order(&mut self) {
        if self.ordered.is_some() {
            return;
        }
        let mut spaces: BTreeMap<u32, BTreeMap<Box<[u8]>, V>> = BTreeMap::new();
        for e in core::mem::take(&mut self.entries) {
            let key: Box<[u8]> = e.key(&self.arena).into();
            spaces.entry(e.space).or_default().insert(key, e.value);
        }
        self.arena = Vec::new();
        self.ordered = Some(Ordered::Building(spaces));
    }

    /// Has the index left hashing (hashes collided too often)?
    #[cfg(any(test, feature = "test-hash-collisions"))]
    pub(crate) fn is_ordered(&self) -> bool {
        self.ordered.is_some()
    }

    /// Frees unused capacity once building is done.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit(|e| e.hash);
        self.arena.shrink_to_fit();
        if let Some(Ordered::Building(spaces)) = self.ordered.take() {
            let built = spaces.into_iter().flat_map(|(space, keys)| keys.into_iter().map(move |(k, v)| (space, k, v)));
            self.ordered = Some(Ordered::Built(built.collect()));
        }
    }
}

impl<V> Ordered<V> {
    /// At most `log2(keys) + 1` comparisons once built.
    fn get(&self, space: u32, key: &[u8]) -> Option<&V> {
        match self {
            Ordered::Building(spaces) => spaces.get(&space)?.get(key),
            Ordered::Built(sorted) => {
                let at = sorted
                    .binary_search_by(|(s, k, _)| {
                        counted(1);
                        s.cmp(&space).then_with(|| (**k).cmp(key))
                    })
                    .ok()?;
                Some(&sorted[at].2)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_keep_equal_keys_apart() {
        let mut index = KeyIndex::default();
        *index.get_or_insert_with(0, b"/api", || 0).unwrap() += 1;
        *index.get_or_insert_with(1, b"/api", || 10).unwrap() += 1;
        *index.get_or_insert_with(0, b"/api", || 0).unwrap() += 1;
        *index.get_or_insert_with(0, b"", || 7).unwrap() += 0;
        assert_eq!(index.get(0, b"/api"), Some(&2));
        assert_eq!(index.get(1, b"/api"), Some(&11));
        assert_eq!(index.get(0, b""), Some(&7));
        assert_eq!(index.get(2, b"/api"), None);
        assert_eq!(index.get(0, b"/ap"), None);
    }

    /// Guards both storages: keys in the entry (up to `INLINE` bytes) and in the arena.
    #[test]
    fn survives_growth_with_inline_and_arena_keys() {
        let key = |i: u32| alloc::format!("/k/{i}/{}", "x".repeat(i as usize % 40));
        let mut index = KeyIndex::default();
        for i in 0..5000u32 {
            *index.get_or_insert_with(i % 7, key(i).as_bytes(), || i).unwrap() += 0;
        }
        index.shrink_to_fit();
        for i in 0..5000u32 {
            let k = key(i);
            assert_eq!(index.get(i % 7, k.as_bytes()), Some(&i));
            assert_eq!(index.get(i % 7 + 1, k.as_bytes()), None);
            assert_eq!(index.get(i % 7, &k.as_bytes()[..k.len() - 1]), None);
        }
        // With every hash alike (`test-hash-collisions`) the keys have moved to the ordered index.
        if !cfg!(feature = "test-hash-collisions") {
            assert!(!index.arena.is_empty() && index.arena.len() < 5000 * 60);
        }
    }

    /// Guards the fallback when hashes collide: the ordered index holds what the hash table held,
    /// keeps accepting keys, and answers the same once built.
    #[test]
    fn ordered_index_answers_as_the_hash_table() {
        let key = |i: u32| alloc::format!("/k/{i}/{}", "x".repeat(i as usize % 40));
        let mut index = KeyIndex::new(KeyHasher::new(42));
        for i in 0..3000u32 {
            if i == 1000 {
                // With every hash alike the long probes have ordered it already.
                assert!(!index.is_ordered() || cfg!(feature = "test-hash-collisions"));
                index.order();
            }
            *index.get_or_insert_with(i % 7, key(i).as_bytes(), || i).unwrap() += 0;
            *index.get_or_insert_with(i % 7, key(i).as_bytes(), || 0).unwrap() += 1;
        }
        assert_eq!(index.get(3, key(1003).as_bytes()), None, "1003 is in space 2");
        index.shrink_to_fit();
        assert!(index.is_ordered());
        for i in 0..3000u32 {
            let k = key(i);
            assert_eq!(index.get(i % 7, k.as_bytes()), Some(&(i + 1)));
            assert_eq!(index.get(i % 7 + 1, k.as_bytes()), None);
            assert_eq!(index.get(i % 7, &k.as_bytes()[..k.len() - 1]), None);
        }
    }

    #[test]
    fn entries_are_one_cache_line() {
        assert_eq!(core::mem::size_of::<Entry<[u32; 6]>>(), 64);
    }
}
