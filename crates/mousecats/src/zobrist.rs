//! Zobrist keys: the 64-bit hash and the independent 32-bit lock.
//!
//! Both are XORs of random numbers, one per (piece kind, square) and one for "cats to move". The random
//! numbers come from SplitMix64 with fixed seeds, generated at compile time, so every build and every run
//! hashes the same way. Cats are interchangeable: a position's cats are a set, and the hash XORs one
//! number per occupied cat square, so which cat stands where cannot change it.
//!
//! The hash picks the table slot; the lock, drawn from separate tables with a different seed, is stored
//! in the slot and checked on a probe to detect two positions that share a slot.

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn keys64(seed: u64) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = seed;
    let mut i = 0;
    while i < 64 {
        let (ns, v) = splitmix64(s);
        s = ns;
        t[i] = v;
        i += 1;
    }
    t
}

const fn keys32(seed: u64) -> [u32; 64] {
    let k = keys64(seed);
    let mut t = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (k[i] >> 32) as u32;
        i += 1;
    }
    t
}

/// Hash key of the mouse on each square.
pub const MOUSE_HASH: [u64; 64] = keys64(0x4D4F_5553_4531_3938); // "MOUSE198"
/// Hash key of a cat on each square.
pub const CAT_HASH: [u64; 64] = keys64(0x4341_5453_3139_3834); // "CATS1984"
/// Hash key XORed in when the cats are to move.
pub const CATS_TO_MOVE_HASH: u64 = splitmix64(0x5455_524E_0000_0001).1;

/// Lock key of the mouse on each square (independent of the hash keys).
pub const MOUSE_LOCK: [u32; 64] = keys32(0x4C4F_434B_4D4F_5553); // "LOCKMOUS"
/// Lock key of a cat on each square.
pub const CAT_LOCK: [u32; 64] = keys32(0x4C4F_434B_4341_5453); // "LOCKCATS"
/// Lock key XORed in when the cats are to move.
pub const CATS_TO_MOVE_LOCK: u32 = (splitmix64(0x4C4F_434B_5455_524E).1 >> 32) as u32;

/// The keys of a board of another size than 8x8, one per dark square, from seeds that depend on the size:
/// the same in every build and every run.
pub(crate) struct SizeKeys {
    pub mouse_hash: [u64; 128],
    pub cat_hash: [u64; 128],
    pub cats_to_move_hash: u64,
    pub mouse_lock: [u32; 128],
    pub cat_lock: [u32; 128],
    pub cats_to_move_lock: u32,
}

impl SizeKeys {
    pub(crate) fn new(n: u8) -> SizeKeys {
        let salt = u64::from(n) << 56;
        let table = |seed: u64| {
            let mut t = [0u64; 128];
            let mut s = seed ^ salt;
            for v in t.iter_mut() {
                let (ns, k) = splitmix64(s);
                s = ns;
                *v = k;
            }
            t
        };
        let high = |t: [u64; 128]| t.map(|k| (k >> 32) as u32);
        SizeKeys {
            mouse_hash: table(0x4D4F_5553_4531_3938),
            cat_hash: table(0x4341_5453_3139_3834),
            cats_to_move_hash: splitmix64(0x5455_524E_0000_0001 ^ salt).1,
            mouse_lock: high(table(0x4C4F_434B_4D4F_5553)),
            cat_lock: high(table(0x4C4F_434B_4341_5453)),
            cats_to_move_lock: (splitmix64(0x4C4F_434B_5455_524E ^ salt).1 >> 32) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = MOUSE_HASH.iter().chain(CAT_HASH.iter()).copied().collect();
        all.push(CATS_TO_MOVE_HASH);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 129);
        let mut locks: Vec<u32> = MOUSE_LOCK.iter().chain(CAT_LOCK.iter()).copied().collect();
        locks.push(CATS_TO_MOVE_LOCK);
        locks.sort_unstable();
        locks.dedup();
        assert_eq!(locks.len(), 129);
    }

    #[test]
    fn every_size_has_its_own_distinct_keys() {
        let mut all = Vec::new();
        for n in [4u8, 6, 10, 12, 14, 16] {
            let k = SizeKeys::new(n);
            let d = usize::from(n) * usize::from(n) / 2;
            all.extend_from_slice(&k.mouse_hash[..d]);
            all.extend_from_slice(&k.cat_hash[..d]);
            all.push(k.cats_to_move_hash);
            // Reproducible.
            assert_eq!(SizeKeys::new(n).cat_hash, k.cat_hash);
        }
        let len = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), len);
    }
}
