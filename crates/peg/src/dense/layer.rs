//! Layers: the positions a level of a walk can hold (one number of pegs, one position class), numbered
//! densely by rank, and the bit sets over them.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::board::Board;
use crate::position::Position;

/// Ranks of a level per task.
pub(super) const CHUNK: usize = 8192;

/// Words of a bit set per task when it is read.
pub(super) const WORD_CHUNK: usize = 4096;

/// Boards with at most this many holes may use the dense walks (the prefix table has `2^(holes - 16)`
/// entries of 4 bytes: 1 MiB at 34 holes).
pub(crate) const MAX_HOLES: u32 = 34;

/// Low bits of a position ranked by one table.
const LO_MAX: u32 = 16;

/// Position classes are bytes.
const STATES: usize = 256;

/// The largest layer the dense walks take, in bits (a bit set of 128 MiB).
pub(super) const MAX_LAYER_BITS: u64 = 1 << 30;

/// The tables that rank positions of a board inside their layer (see the [module documentation](self)).
pub(crate) struct Ranks {
    lo_bits: u32,
    /// `lo_rank[l]`: how many values below `l` (of `lo_bits` bits) have its number of pegs and its class.
    lo_rank: Vec<u16>,
    /// `lo_off[pegs * STATES + class]`: where the values with that number of pegs and class start in
    /// `lo_list` (one entry more at the end).
    lo_off: Vec<u32>,
    /// The values of `lo_bits` bits, by number of pegs, class, and value.
    lo_list: Vec<u16>,
    /// `lo_state[l]`: the class of the position `l` (for debug checks).
    lo_state: Vec<u8>,
    /// `hi_state[h]`: the class of the position `h << lo_bits`.
    hi_state: Vec<u8>,
    /// `hi_hist[pegs * STATES + class]`: how many prefixes have that number of pegs and class.
    hi_hist: Vec<u64>,
}

impl Ranks {
    /// The tables of `board` (which must have at most [`MAX_HOLES`] holes).
    pub(super) fn new(board: &Board) -> Ranks {
        let n = board.holes() as u32;
        let lo_bits = n.min(LO_MAX);
        let hi_bits = n - lo_bits;
        // The class is linear (each of its bits is a parity of pegs on a set of holes): the class of a position
        // is the XOR of the classes of its low and high parts.
        let class = |x: u64| board.position_class(Position::from_bits(x));
        let lo_n = 1usize << lo_bits;
        let idx = |l: usize, s: u8| l.count_ones() as usize * STATES + usize::from(s);
        let lo_state: Vec<u8> = (0..lo_n).map(|l| class(l as u64)).collect();
        let mut count = vec![0u32; (lo_bits as usize + 1) * STATES];
        let mut lo_rank = vec![0u16; lo_n];
        for (l, r) in lo_rank.iter_mut().enumerate() {
            let c = idx(l, lo_state[l]);
            // At most C(16, 8) values share a number of pegs: below 2^16.
            *r = count[c] as u16;
            count[c] += 1;
        }
        let mut lo_off = vec![0u32; count.len() + 1];
        for i in 0..count.len() {
            lo_off[i + 1] = lo_off[i] + count[i];
        }
        let mut lo_list = vec![0u16; lo_n];
        for l in 0..lo_n {
            let c = idx(l, lo_state[l]);
            lo_list[(lo_off[c] + u32::from(lo_rank[l])) as usize] = l as u16;
        }
        let hi_state: Vec<u8> = (0..1usize << hi_bits)
            .map(|h| class((h as u64) << lo_bits))
            .collect();
        let mut hi_hist = vec![0u64; (hi_bits as usize + 1) * STATES];
        for (h, &s) in hi_state.iter().enumerate() {
            hi_hist[idx(h, s)] += 1;
        }
        Ranks {
            lo_bits,
            lo_rank,
            lo_off,
            lo_list,
            lo_state,
            hi_state,
            hi_hist,
        }
    }

    /// Values of the low bits with `pegs` pegs and class `state`.
    fn lo_count(&self, pegs: u32, state: u8) -> u64 {
        if pegs > self.lo_bits {
            return 0;
        }
        let c = pegs as usize * STATES + usize::from(state);
        u64::from(self.lo_off[c + 1] - self.lo_off[c])
    }

    /// Positions with `pegs` pegs and class `state`: the size of their layer.
    pub(super) fn layer_len(&self, pegs: u32, state: u8) -> u64 {
        let hi_pegs = self.hi_hist.len() / STATES;
        (0..hi_pegs.min(pegs as usize + 1))
            .flat_map(|a| (0..STATES).map(move |s| (a, s)))
            .map(|(a, s)| {
                let n = self.hi_hist[a * STATES + s];
                if n == 0 {
                    0
                } else {
                    n * self.lo_count(pegs - a as u32, state ^ s as u8)
                }
            })
            .sum()
    }
}

/// The positions with one number of pegs and one class, numbered in increasing order.
pub(super) struct Layer<'r> {
    pub(super) r: &'r Ranks,
    pub(super) pegs: u32,
    pub(super) state: u8,
    /// `cum[h]`: positions of the layer below the prefix `h << lo_bits` (one entry more at the end).
    pub(super) cum: &'r [u32],
}

/// The prefix table of the layer of `pegs` pegs and class `state` (`cum` of [`Layer`]), or `None` when the
/// layer has more than [`MAX_LAYER_BITS`] positions.
pub(super) fn prefix_table(r: &Ranks, pegs: u32, state: u8) -> Option<Vec<u32>> {
    if r.layer_len(pegs, state) > MAX_LAYER_BITS {
        return None;
    }
    let mut cum = Vec::with_capacity(r.hi_state.len() + 1);
    let mut total = 0u32;
    cum.push(0);
    for (h, &s) in r.hi_state.iter().enumerate() {
        let a = h.count_ones();
        if a <= pegs {
            // Below `MAX_LAYER_BITS` (checked above): no overflow.
            total += r.lo_count(pegs - a, state ^ s) as u32;
        }
        cum.push(total);
    }
    Some(cum)
}

impl Layer<'_> {
    /// Number of positions.
    pub(super) fn len(&self) -> u64 {
        u64::from(self.cum.last().copied().unwrap_or(0))
    }

    /// The rank of `x`, a position of the layer.
    #[inline(always)]
    pub(super) fn rank(&self, x: u64) -> u32 {
        debug_assert_eq!(x.count_ones(), self.pegs);
        let lo = (x & ((1u64 << self.r.lo_bits) - 1)) as usize;
        debug_assert_eq!(
            self.r.hi_state[(x >> self.r.lo_bits) as usize] ^ self.r.lo_state[lo],
            self.state
        );
        self.cum[(x >> self.r.lo_bits) as usize] + u32::from(self.r.lo_rank[lo])
    }

    /// The last prefix whose first rank is at most `rank`.
    fn prefix(&self, rank: u32) -> usize {
        self.cum.partition_point(|&c| c <= rank).saturating_sub(1)
    }

    /// The positions of increasing ranks `ranks`.
    pub(super) fn keys<'a>(&'a self, ranks: &'a [u32]) -> Keys<'a> {
        Keys {
            layer: self,
            h: ranks.first().map_or(0, |&r| self.prefix(r)),
            ranks: ranks.iter(),
        }
    }
}

/// The positions of increasing ranks of a layer (the prefix walked forward).
pub(super) struct Keys<'a> {
    layer: &'a Layer<'a>,
    h: usize,
    ranks: std::slice::Iter<'a, u32>,
}

impl Iterator for Keys<'_> {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        let &r = self.ranks.next()?;
        let l = self.layer;
        while l.cum[self.h + 1] <= r {
            self.h += 1;
        }
        let h = self.h;
        let c =
            (l.pegs - h.count_ones()) as usize * STATES + usize::from(l.state ^ l.r.hi_state[h]);
        let lo = l.r.lo_list[(l.r.lo_off[c] + r - l.cum[h]) as usize];
        Some((h as u64) << l.r.lo_bits | u64::from(lo))
    }
}

/// A bit set over a layer, shared by the threads that set its bits.
pub(super) struct Bits {
    pub(super) words: Vec<AtomicU64>,
}

impl Bits {
    /// A bit set of `bits` bits, all clear.
    pub(super) fn new(bits: u64) -> Bits {
        let words: Vec<AtomicU64> = (0..bits.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        let bits = Bits { words };
        // The zeroed memory comes from the system untouched: write it now, so that the walks' first reads of
        // a word do not map a shared zero page that their first write must then copy (a fault and a flush of
        // the other threads' address translations, per page).
        bits.clear();
        bits
    }

    pub(super) fn bytes(&self) -> u64 {
        (self.words.capacity() * 8) as u64
    }

    /// Clear every bit.
    pub(super) fn clear(&self) {
        self.words
            .par_chunks(512)
            .for_each(|c| c.iter().for_each(|w| w.store(0, Ordering::Relaxed)));
    }

    /// Set the bits of `ranks`.
    pub(super) fn set_all(&self, ranks: &[u32]) {
        let words = &self.words;
        ranks.par_chunks(CHUNK).for_each(|c| {
            for &r in c {
                words[(r >> 6) as usize].fetch_or(1 << (r & 63), Ordering::Relaxed);
            }
        });
    }

    /// The ranks of the bits set (in increasing order) in the first `len` bits, and in `and` when given; both
    /// are left clear. Two passes: the bits counted per chunk of words, then written straight to their place.
    pub(super) fn take(&self, len: u64, and: Option<&Bits>) -> Vec<u32> {
        let n = (len.div_ceil(64) as usize).min(self.words.len());
        let words = &self.words[..n];
        let word = |i: usize| {
            let x = words[i].load(Ordering::Relaxed);
            match and.and_then(|o| o.words.get(i)) {
                Some(o) => x & o.load(Ordering::Relaxed),
                None => x,
            }
        };
        let counts: Vec<usize> = (0..n.div_ceil(WORD_CHUNK))
            .into_par_iter()
            .map(|c| {
                (c * WORD_CHUNK..((c + 1) * WORD_CHUNK).min(n))
                    .map(|i| word(i).count_ones() as usize)
                    .sum()
            })
            .collect();
        let total: usize = counts.iter().sum();
        let mut out = vec![0u32; total];
        let mut slices = Vec::with_capacity(counts.len());
        let mut rest = &mut out[..];
        for &c in &counts {
            let (a, b) = rest.split_at_mut(c);
            slices.push(a);
            rest = b;
        }
        slices.into_par_iter().enumerate().for_each(|(c, dst)| {
            let mut k = 0;
            let first = c * WORD_CHUNK;
            for (i, w) in words
                .iter()
                .enumerate()
                .take((first + WORD_CHUNK).min(n))
                .skip(first)
            {
                let mut x = word(i);
                w.store(0, Ordering::Relaxed);
                if let Some(o) = and.and_then(|o| o.words.get(i)) {
                    o.store(0, Ordering::Relaxed);
                }
                let at = (i * 64) as u32;
                while x != 0 {
                    dst[k] = at + x.trailing_zeros();
                    k += 1;
                    x &= x - 1;
                }
            }
        });
        // Bits of `and` past those of this set.
        if let Some(o) = and
            && o.words.len() > n
        {
            o.words[n..]
                .par_iter()
                .for_each(|w| w.store(0, Ordering::Relaxed));
        }
        out
    }
}
