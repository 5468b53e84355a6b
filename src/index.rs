//! Byte-string keys in one flat hash table, for the lookups of [`crate::table`].
//!
//! Every key carries a small number, its *space* (the host table a path key belongs to, or the
//! tier of a host key), so that all the path keys of all hosts share one table: a probe finds the
//! bucket and compares in place, with no second-level map to reach first. An entry is one cache
//! line and holds keys of up to [`INLINE`] bytes itself (most hosts and paths); longer keys live
//! in one arena.

use alloc::vec::Vec;
use core::fmt;

use hashbrown::HashTable;

use crate::hash::{key_hash, load, load8};

/// Keys up to this length are stored in their entry.
pub(crate) const INLINE: usize = 24;

/// One key and its value: a cache line when `V` has at most 24 bytes.
#[derive(Clone, Debug)]
#[repr(align(64))]
struct Entry<V> {
    /// [`key_hash`] of the key: probes compare it before the bytes, and growing needs no rehash.
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
    entries: HashTable<Entry<V>>,
    arena: Vec<u8>,
}

impl<V> Default for KeyIndex<V> {
    fn default() -> Self {
        KeyIndex { entries: HashTable::new(), arena: Vec::new() }
    }
}

impl<V> fmt::Debug for KeyIndex<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyIndex").field("keys", &self.entries.len()).field("arena", &self.arena.len()).finish()
    }
}

impl<V> KeyIndex<V> {
    /// The value stored under `key` in `space`; `hash` is `key_hash(space, key)`.
    #[inline]
    pub(crate) fn get_hashed(&self, hash: u64, space: u32, key: &[u8]) -> Option<&V> {
        self.entries.find(hash, |e| e.holds(hash, space, key, &self.arena)).map(|e| &e.value)
    }

    /// The value stored under `key` in `space`.
    #[inline]
    pub(crate) fn get(&self, space: u32, key: &[u8]) -> Option<&V> {
        self.get_hashed(key_hash(space, key), space, key)
    }

    /// The value under `key` in `space`, inserted by `new` when absent. `None` only when the keys
    /// would pass 4 GiB, which inputs (at most 32 MiB) never come near.
    pub(crate) fn get_or_insert_with(&mut self, space: u32, key: &[u8], new: impl FnOnce() -> V) -> Option<&mut V> {
        let KeyIndex { entries, arena } = self;
        let hash = key_hash(space, key);
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

    /// Frees unused capacity once building is done.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit(|e| e.hash);
        self.arena.shrink_to_fit();
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
        assert!(!index.arena.is_empty() && index.arena.len() < 5000 * 60);
    }

    #[test]
    fn entries_are_one_cache_line() {
        assert_eq!(core::mem::size_of::<Entry<[u32; 6]>>(), 64);
    }
}
