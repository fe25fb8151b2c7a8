//! An approximate set of mixed keys.

use super::part::Frozen;
use crate::bytes::{prefetch, prefetch_write};
use crate::counter::Counter;

/// A set of mixed keys, approximately: one bit per value of a key's top bits. It holds every key put in, and
/// some others (about one in sixteen of the keys not put in, with sixteen bits a key); a level built through
/// it ([`crate::step::Walk::step_filtered`]) is then intersected with the exact set. Bits are set with
/// atomic operations, so that keys can be put in from several threads.
pub(crate) struct KeyFilter {
    bits: Vec<std::sync::atomic::AtomicU64>,
    /// A key's bit is its top bits: the key shifted right by this many.
    shift: u32,
}

impl KeyFilter {
    /// A filter for about `n` keys of `key_bits` bits (exact when it can have a bit for every key).
    pub fn new(n: usize, key_bits: u32) -> KeyFilter {
        let want = (n.max(1) * 16).next_power_of_two().trailing_zeros().max(6);
        let fb = want.min(key_bits.max(6));
        let words = 1usize << (fb - 6);
        KeyFilter {
            bits: (0..words)
                .map(|_| std::sync::atomic::AtomicU64::new(0))
                .collect(),
            shift: key_bits.saturating_sub(fb),
        }
    }

    /// Put in the mixed key `h`.
    #[inline]
    pub fn insert(&self, h: u64) {
        let i = (h >> self.shift) as usize;
        if let Some(w) = self.bits.get(i >> 6) {
            w.fetch_or(1 << (i & 63), std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Ask the CPU to bring the bit of the mixed key `h` into the cache, to be set.
    #[inline(always)]
    pub fn prefetch_insert(&self, h: u64) {
        let i = (h >> self.shift) as usize;
        if let Some(w) = self.bits.get(i >> 6) {
            prefetch_write(w as *const std::sync::atomic::AtomicU64);
        }
    }

    /// Ask the CPU to bring the bit of the mixed key `h` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, h: u64) {
        let i = (h >> self.shift) as usize;
        if let Some(w) = self.bits.get(i >> 6) {
            prefetch(w);
        }
    }

    /// Whether the mixed key `h` may have been put in (`false`: certainly not).
    #[inline(always)]
    pub fn may_hold(&self, h: u64) -> bool {
        let i = (h >> self.shift) as usize;
        self.bits
            .get(i >> 6)
            .is_some_and(|w| w.load(std::sync::atomic::Ordering::Relaxed) >> (i & 63) & 1 == 1)
    }

    /// A filter holding the keys of a level (parallel over its partitions).
    pub fn of_level<C: Counter>(level: &Frozen<C>, key_bits: u32) -> KeyFilter {
        use rayon::prelude::*;
        let f = KeyFilter::new(level.len(), key_bits);
        level.parts.par_iter().enumerate().for_each(|(q, p)| {
            for (h, _, _) in p.reader(level.layout.base(q), 0, p.blocks()) {
                f.insert(h);
            }
        });
        f
    }
}
