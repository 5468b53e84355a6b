//! The keyed hash of the lookup keys, and a request path scanned once for a lookup.
//!
//! A lookup probes several prefixes of one request path (the whole path, then the part before each
//! `/`). The hash is built so that every prefix's hash comes out of one pass: it chains 8-byte
//! words, so the state after each whole word is kept, and the hash of any prefix is that state
//! finished with the prefix's last, partial word. The same pass finds where the path ends (`?` or
//! `#`), eight bytes at a time, and keeps the words, so that slashes are looked for only as far
//! as the lookup goes. Probing a prefix then costs one multiply and no further pass over the bytes.
//!
//! ```text
//! state[0] = k.start              state[w + 1] = fold(state[w] ^ word[w], k.mix)
//! hash(space, key) = fold(state[len / 8] ^ (word[len / 8] with its first len % 8 bytes), k.finish ^ len)
//!                    ^ fold(space ^ k.space, k.mix)
//! ```
//!
//! `fold` is [`folded_multiply`] (the 128-bit product folded to 64 bits; on wasm, two 32-bit
//! products). `k` ([`KeyHasher`]) is four constants drawn from the table's seed.
//!
//! Why a collision depends on the seed (HashDoS): the seed is in the chain from its first step
//! and in every multiplier, not XORed onto a fixed hash at the end (which keeps every collision a
//! collision). Every `fold` takes a secret-dependent state and a secret multiplier, so whether two
//! keys meet is an equation in the seed, as in foldhash and wyhash, on which this is modelled:
//! keys found to collide under one seed collide under another only by chance (about 2^-64), and
//! without the seed they cannot be computed offline. A 64x64->64 multiply would not do: `x * k`
//! and `(x ^ 2^63) * k` differ in bit 63 alone for every odd `k`, a difference an attacker can
//! cancel in the next word whatever the seed; `fold` keeps the high half of the product, where
//! every bit of both inputs lands. Should hashes collide anyway (a leaked seed), the index bounds
//! the damage (`crate::index`).
//!
//! The space enters last, so that the scan does not wait for the host lookup that tells it:
//! the processor runs both at once.

/// Paths up to this length are scanned into [`Scanned`]; longer ones take the plain route.
pub(crate) const SCAN_LEN: usize = 64;

const WORDS: usize = SCAN_LEN / 8;
/// Every byte 1, and every byte's high bit: the constants of the word-at-a-time byte tests.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The 128-bit product of `a` and `b`, high half folded into the low half: every input bit
/// reaches the middle and top bits the hash table uses.
#[cfg(not(target_family = "wasm"))]
#[inline(always)]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

/// On wasm the 128-bit product is a library call: two 32x32->64 products instead, the low half
/// of each operand by the high half of the other, one rotated so that its high bits meet the
/// other's low bits (foldhash's fold for such targets). Every input bit still reaches the
/// result's upper half. Measured in BENCHMARKS.md ("wasm32"): a third less time hashing on
/// wasm32, 8-13% more natively, hence only here.
#[cfg(target_family = "wasm")]
#[inline(always)]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let (a_low, a_high) = (a & 0xffff_ffff, a >> 32);
    let (b_low, b_high) = (b & 0xffff_ffff, b >> 32);
    (a_low * b_high) ^ (a_high * b_low).rotate_right(32)
}

/// The constants of the keyed hash of one compiled table, drawn from its seed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyHasher {
    start: u64,
    mix: u64,
    finish: u64,
    space: u64,
}

impl KeyHasher {
    /// Four independent-looking constants out of `seed` (splitmix64 steps): seeds that differ in
    /// one bit give unrelated constants.
    pub(crate) fn new(seed: u64) -> KeyHasher {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        // The multipliers get the lowest and highest bit of each 32-bit half set: a multiplier
        // with a (nearly) zero or even half would drop input bits; the chance of drawing one is
        // negligible, but the bits cost nothing.
        const HALVES: u64 = 1 | 1 << 31 | 1 << 32 | 1 << 63;
        let (start, mix, finish, space) = (next(), next(), next(), next());
        KeyHasher { start, mix: mix | HALVES, finish: finish | HALVES, space }
    }

    /// What sets the hashes of one space's keys apart from another's.
    #[inline(always)]
    pub(crate) fn space_mix(&self, space: u32) -> u64 {
        folded_multiply(u64::from(space) ^ self.space, self.mix)
    }

    #[inline(always)]
    fn mix(&self, state: u64, word: u64) -> u64 {
        folded_multiply(state ^ word, self.mix)
    }

    #[cfg(not(feature = "test-hash-collisions"))]
    #[inline(always)]
    fn finish(&self, state: u64, partial: u64, len: usize) -> u64 {
        folded_multiply(state ^ partial, self.finish ^ len as u64)
    }

    /// Testing only (the `test-hash-collisions` feature): every key of a space hashes alike, so
    /// that tests can show what the index does when hashes collide.
    #[cfg(feature = "test-hash-collisions")]
    #[inline(always)]
    fn finish(&self, _state: u64, _partial: u64, _len: usize) -> u64 {
        self.finish
    }

    /// The hash of `key` in `space`, as the path and host indexes store it.
    pub(crate) fn key_hash(&self, space: u32, key: &[u8]) -> u64 {
        let mut state = self.start;
        let mut at = 0;
        while at + 8 <= key.len() {
            state = self.mix(state, load8(&key[at..]));
            at += 8;
        }
        self.finish(state, load_last(key, key.len() - at), key.len()) ^ self.space_mix(space)
    }
}

/// The first 8 bytes as a little-endian word (`bytes` has at least 8).
#[inline(always)]
pub(crate) fn load8(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

/// Up to 8 bytes as a little-endian word, zero-padded, without a byte-at-a-time copy: two
/// overlapping loads (their common bytes agree, so or-ing them is exact).
#[inline(always)]
pub(crate) fn load(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 8 {
        load8(bytes)
    } else if n >= 4 {
        let low = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let high = u32::from_le_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]);
        u64::from(low) | (u64::from(high) << (8 * (n - 4)))
    } else if n > 0 {
        u64::from(bytes[0]) | (u64::from(bytes[n / 2]) << (8 * (n / 2))) | (u64::from(bytes[n - 1]) << (8 * (n - 1)))
    } else {
        0
    }
}

/// The last `n` (< 8) bytes of `bytes` as a word, zero-padded.
#[inline(always)]
fn load_last(bytes: &[u8], n: usize) -> u64 {
    if bytes.len() >= 8 {
        // The last 8 bytes, shifted down (`n` is 0 only when there is nothing left).
        if n == 0 { 0 } else { load8(&bytes[bytes.len() - 8..]) >> (8 * (8 - n)) }
    } else {
        load(&bytes[bytes.len() - n..])
    }
}

/// The first `n` bytes (`n` < 8) of a word; the rest zero.
#[inline(always)]
fn low_bytes(word: u64, n: usize) -> u64 {
    word & ((1u64 << (8 * n as u32)).wrapping_sub(1))
}

/// The high bit of every byte of `word` equal to `byte`, and no other bit.
#[inline(always)]
fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    !(((x & !HIGH) + !HIGH) | x) & HIGH
}

/// Nonzero when some byte of `word` equals `byte`; the lowest high bit set marks the first.
#[inline(always)]
pub(crate) fn has_byte(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGH
}

/// A request path up to [`SCAN_LEN`] bytes, scanned for a lookup; the host table enters only in
/// [`Scanned::prefix_hash`].
pub(crate) struct Scanned {
    /// The path's length without its query or fragment.
    pub(crate) len: usize,
    /// `states[w]`: the hash state after `w` whole words.
    states: [u64; WORDS + 1],
    /// The path as words, zero past `len`.
    words: [u64; WORDS + 1],
}

impl Scanned {
    pub(crate) const EMPTY: Scanned = Scanned { len: 0, states: [0; WORDS + 1], words: [0; WORDS + 1] };

    /// Scans `target` (a path with an optional query or fragment). False when the path itself
    /// is longer than [`SCAN_LEN`] bytes. (Fills `self` in place: the struct is too large to
    /// move around on every lookup.)
    #[inline(always)]
    pub(crate) fn scan(&mut self, target: &[u8], k: &KeyHasher) -> bool {
        let mut state = k.start;
        let whole = target.len().min(SCAN_LEN) / 8;
        for w in 0..whole {
            let word = load8(&target[8 * w..]);
            // The cheap zero-byte test is exact up to the first match, which is all that counts.
            if has_byte(word, b'?') | has_byte(word, b'#') != 0 {
                self.cut(w, word, 8, state);
                return true;
            }
            self.words[w] = word;
            self.states[w] = state;
            state = k.mix(state, word);
        }
        let rest = target.len() - 8 * whole;
        if whole == WORDS && rest > 0 && !matches!(target[SCAN_LEN], b'?' | b'#') {
            return false;
        }
        // The last, partial word (or none: `rest` 0, or a cut right at 64 bytes).
        let rest = if whole == WORDS { 0 } else { rest };
        self.cut(whole, load_last(target, rest), rest, state);
        true
    }

    /// Ends the scan in word `w`, of which `valid` bytes are the target's, at its first `?` or
    /// `#` if any.
    #[inline(always)]
    fn cut(&mut self, w: usize, word: u64, valid: usize, state: u64) {
        let stops = (bytes_equal(word, b'?') | bytes_equal(word, b'#')) & low_bytes_mask(valid);
        let end = if stops != 0 { (stops.trailing_zeros() / 8) as usize } else { valid };
        self.words[w] = low_bytes(word, end);
        self.states[w] = state;
        self.len = 8 * w + end;
    }

    /// The positions of the path's slashes, last first. Found only as they are asked for: a
    /// lookup usually stops at the first or second.
    #[inline(always)]
    pub(crate) fn slashes(&self) -> Slashes<'_> {
        Slashes { words: &self.words[..=self.len / 8], marks: 0 }
    }

    /// The hash of the path's first `len` bytes (`len` <= `self.len`) in the space `space_mix`
    /// stands for ([`KeyHasher::space_mix`]), as [`KeyHasher::key_hash`] gives it; `k` is the
    /// hasher the path was scanned with.
    #[inline(always)]
    pub(crate) fn prefix_hash(&self, len: usize, space_mix: u64, k: &KeyHasher) -> u64 {
        let w = len / 8;
        k.finish(self.states[w], low_bytes(self.words[w], len % 8), len) ^ space_mix
    }
}

/// The slash positions of a [`Scanned`] path, last first.
pub(crate) struct Slashes<'a> {
    /// The words not yet searched.
    words: &'a [u64],
    /// The `/` marks (high bits) of the word after `words` not yet returned.
    marks: u64,
}

impl Iterator for Slashes<'_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.marks == 0 {
            let (&word, rest) = self.words.split_last()?;
            self.words = rest;
            self.marks = bytes_equal(word, b'/');
        }
        let top = (u64::BITS - 1 - self.marks.leading_zeros()) as usize;
        self.marks &= !(1 << top);
        Some(8 * self.words.len() + top / 8)
    }
}

/// The high bits of the first `n` bytes (`n` <= 8).
#[inline(always)]
fn low_bytes_mask(n: usize) -> u64 {
    if n >= 8 { HIGH } else { HIGH & ((1u64 << (8 * n as u32)) - 1) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn cut(target: &[u8]) -> &[u8] {
        let end = target.iter().position(|&b| b == b'?' || b == b'#').unwrap_or(target.len());
        &target[..end]
    }

    /// Guards the one-pass scan: every prefix hash equals the key hash of that prefix, and the
    /// cut and the slashes are those a byte-at-a-time scan finds.
    fn check(target: &[u8]) {
        let path = cut(target);
        let k = KeyHasher::new(0x1234_5678);
        let mut s = Scanned::EMPTY;
        if !s.scan(target, &k) {
            assert!(path.len() > SCAN_LEN, "{target:?}");
            return;
        }
        assert_eq!(s.len, path.len(), "{target:?}");
        let slashes: Vec<usize> = s.slashes().collect();
        let expected: Vec<usize> = (0..path.len()).rev().filter(|&i| path[i] == b'/').collect();
        assert_eq!(slashes, expected, "{target:?}");
        for len in 0..=path.len() {
            assert_eq!(s.prefix_hash(len, k.space_mix(7), &k), k.key_hash(7, &path[..len]), "{target:?} at {len}");
        }
    }

    #[test]
    fn prefixes_hash_as_keys() {
        let samples: [&[u8]; 12] = [
            b"",
            b"/",
            b"/a",
            b"/api/v1/users",
            b"/api/v1/users?id=1/2",
            b"/api#frag/x",
            b"?q",
            b"/12345678",
            b"/1234567/",
            b"/aaaaaaa/bbbbbbb/ccccccc/ddddddd/eeeeeee/fffffff/ggggggg/hhhhhhh",
            b"/aaaaaaa/bbbbbbb/ccccccc/ddddddd/eeeeeee/fffffff/ggggggg/hhhhhhh/",
            b"/aaaaaaa/bbbbbbb/ccccccc/ddddddd/eeeeeee/fffffff/ggggggg/hhhhhh?x=/////",
        ];
        for t in samples {
            check(t);
        }
        // Every length and cut position around the word boundaries, with NUL and high bytes.
        for len in 0..=70usize {
            for stop in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
                let mut t: Vec<u8> = (0..len).map(|i| [b'/', b'a', 0, 0xff, b'/', b'z', b'.'][i % 7]).collect();
                if let Some(at) = stop.filter(|&at| at < len) {
                    t[at] = if at % 2 == 0 { b'?' } else { b'#' };
                }
                check(&t);
            }
        }
    }

    #[test]
    fn loads_are_little_endian_and_zero_padded() {
        let bytes: Vec<u8> = (1..=16).collect();
        for n in 0..=8 {
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(load(&bytes[..n]), u64::from_le_bytes(padded), "{n}");
        }
        for len in 0..=16 {
            for n in 0..=(len % 8) {
                let mut padded = [0u8; 8];
                padded[..n].copy_from_slice(&bytes[len - n..len]);
                assert_eq!(load_last(&bytes[..len], n), u64::from_le_bytes(padded), "{len} {n}");
            }
        }
    }

    #[cfg(not(feature = "test-hash-collisions"))]
    #[test]
    fn spaces_and_lengths_change_the_hash() {
        let k = KeyHasher::new(0);
        assert_ne!(k.key_hash(0, b"/api"), k.key_hash(1, b"/api"));
        assert_ne!(k.key_hash(0, b"/a"), k.key_hash(0, b"/a\0"));
        assert_ne!(k.key_hash(0, b""), k.key_hash(0, b"\0"));
    }

    /// Guards the seeding: the same keys hash differently under different seeds (every key, and
    /// their differences too, so that a collision under one seed is none under another), and the
    /// same under the same seed.
    #[cfg(not(feature = "test-hash-collisions"))]
    #[test]
    fn seeds_change_every_hash() {
        let keys: [&[u8]; 6] = [b"", b"/", b"/api", b"/api/v1/users", b"example.com", &[b'x'; 40]];
        let seeds = [0u64, 1, 2, 1 << 63, 0x243f_6a88_85a3_08d3];
        for key in keys {
            for (i, &a) in seeds.iter().enumerate() {
                assert_eq!(KeyHasher::new(a).key_hash(3, key), KeyHasher::new(a).key_hash(3, key));
                for &b in &seeds[i + 1..] {
                    let (ka, kb) = (KeyHasher::new(a), KeyHasher::new(b));
                    assert_ne!(ka.key_hash(3, key), kb.key_hash(3, key), "{key:?} under seeds {a} and {b}");
                    // Not a fixed hash with the seed XORed on: the difference of two keys' hashes
                    // changes with the seed as well.
                    let diff = |k: &KeyHasher| k.key_hash(3, key) ^ k.key_hash(3, b"/other");
                    assert_ne!(diff(&ka), diff(&kb), "{key:?} under seeds {a} and {b}");
                }
            }
        }
    }
}
