//! The finishable set's walks over dense bit sets, one bit per position of a level's *layer*.
//!
//! The walks of [`Finishable::build`](crate::Finishable::build) keep keys only (no counters). On boards of up
//! to [`MAX_HOLES`] holes, the positions a level can hold are few enough to be numbered densely: a level of a
//! walk holds positions with the same number of pegs `k` and the same position class `c` (play keeps the
//! class, and the symmetries used keep it on the positions of a walk, see [`meet`]), and these positions, its
//! *layer*, are numbered in increasing order of their bits by their *rank*. On the English board the widest
//! layer, 16 pegs of one class, has about C(33, 16) / 16 = 73 million positions: a bit set of 9 MB.
//!
//! So a step of a walk is: for each class of the level, its successors' normal forms, each ranked (two table
//! lookups and an add: the rank of the high bits' prefix in the layer, plus the rank of the low 16 bits among
//! the values with their number of pegs and class) and its bit set in the next level's bit set (the bit's
//! word asked for from memory some successors ahead, and only written when the bit is not set already: most
//! successors are repeats). The next level is then the bit set read in order: its ranks, increasing. There is
//! no record written and read back, no table, no sort; duplicates cost one cached read each. A level kept is a
//! list of ranks (4 bytes a class), and a level intersected with another is the AND of their bit sets.
//!
//! Boards with more holes, layers too big for the memory allowed, or a start whose class the walk cannot
//! keep, use the general walks of [`crate::enumerate`] ([`meet`] returns `None`).
//!
//! The solution counts over a finishable set found this way are counted here too ([`count_paths`]): level by
//! level from the start, each finishable position pulls the paths of the finishable positions one jump above
//! it, looked up by rank in a bit set of the level above (no records, no sorting, no table of counters). For a
//! self-dual problem (the start is the full board less the finish hole) only down to the middle: below it, the
//! paths to the finish from the complements are pushed up from the middle instead.

use std::borrow::Cow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::board::Board;
use crate::count::{CountError, add};
use crate::enumerate::Options;
use crate::kernel::{Kernel, LANES, MOVE_WORDS};
use crate::level::{prefetch, prefetch_write};
use crate::position::Position;
use crate::problem::{Finish, Problem};

/// Boards with at most this many holes may use the dense walks (the prefix table has `2^(holes - 16)`
/// entries of 4 bytes: 1 MiB at 34 holes).
pub(crate) const MAX_HOLES: u32 = 34;
/// Low bits of a position ranked by one table.
const LO_MAX: u32 = 16;
/// Position classes are bytes.
const STATES: usize = 256;
/// The largest layer the dense walks take, in bits (a bit set of 128 MiB).
const MAX_LAYER_BITS: u64 = 1 << 30;
/// Ranks of a level per task.
const CHUNK: usize = 8192;
/// Words of a bit set per task when it is read.
const WORD_CHUNK: usize = 4096;
/// Positions of a level whose jumps' origins [`count_paths`] looks up together.
const PULL: usize = 256;
/// Successors waiting for their bit set's word to come from memory.
const RING: usize = 16;

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
    fn new(board: &Board) -> Ranks {
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
    fn layer_len(&self, pegs: u32, state: u8) -> u64 {
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
struct Layer<'r> {
    r: &'r Ranks,
    pegs: u32,
    state: u8,
    /// `cum[h]`: positions of the layer below the prefix `h << lo_bits` (one entry more at the end).
    cum: &'r [u32],
}

/// The prefix table of the layer of `pegs` pegs and class `state` (`cum` of [`Layer`]), or `None` when the
/// layer has more than [`MAX_LAYER_BITS`] positions.
fn prefix_table(r: &Ranks, pegs: u32, state: u8) -> Option<Vec<u32>> {
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
    fn len(&self) -> u64 {
        u64::from(self.cum.last().copied().unwrap_or(0))
    }

    /// The rank of `x`, a position of the layer.
    #[inline(always)]
    fn rank(&self, x: u64) -> u32 {
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
    fn keys<'a>(&'a self, ranks: &'a [u32]) -> Keys<'a> {
        Keys {
            layer: self,
            h: ranks.first().map_or(0, |&r| self.prefix(r)),
            ranks: ranks.iter(),
        }
    }
}

/// The positions of increasing ranks of a layer (the prefix walked forward).
struct Keys<'a> {
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
struct Bits {
    words: Vec<AtomicU64>,
}

impl Bits {
    /// A bit set of `bits` bits, all clear.
    fn new(bits: u64) -> Bits {
        let words: Vec<AtomicU64> = (0..bits.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        let bits = Bits { words };
        // The zeroed memory comes from the system untouched: write it now, so that the walks' first reads of
        // a word do not map a shared zero page that their first write must then copy (a fault and a flush of
        // the other threads' address translations, per page).
        bits.clear();
        bits
    }

    fn bytes(&self) -> u64 {
        (self.words.capacity() * 8) as u64
    }

    /// Clear every bit.
    fn clear(&self) {
        self.words
            .par_chunks(512)
            .for_each(|c| c.iter().for_each(|w| w.store(0, Ordering::Relaxed)));
    }

    /// Set the bits of `ranks`.
    fn set_all(&self, ranks: &[u32]) {
        let words = &self.words;
        ranks.par_chunks(CHUNK).for_each(|c| {
            for &r in c {
                words[(r >> 6) as usize].fetch_or(1 << (r & 63), Ordering::Relaxed);
            }
        });
    }

    /// The ranks of the bits set (in increasing order) in the first `len` bits, and in `and` when given; both
    /// are left clear. Two passes: the bits counted per chunk of words, then written straight to their place.
    fn take(&self, len: u64, and: Option<&Bits>) -> Vec<u32> {
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

/// Sets the bits of positions in a layer's bit set, each word asked for [`RING`] positions before it is
/// written; with a second bit set `only`, only the bits set in it (the word of `only` is the one asked for:
/// most positions are not in it, and those are dropped after one read). With `record`, the positions kept are
/// also listed, by the position they were found from (see [`Jumps`]).
struct Sink<'a> {
    layer: &'a Layer<'a>,
    bits: &'a Bits,
    only: Option<&'a Bits>,
    /// Positions waiting for their word, each with the index (in its chunk) of the position it was found from.
    ring: [(u32, u32); RING],
    next: usize,
    /// Positions pushed.
    count: u64,
    /// The index (in the chunk) of the position whose successors are being pushed.
    from: u32,
    /// When recording: the ranks kept, in the order they were pushed.
    record: Option<Vec<u32>>,
    /// When recording: per position of the chunk, how many of its successors were kept.
    kept: Vec<u32>,
}

impl<'a> Sink<'a> {
    fn new(layer: &'a Layer<'a>, bits: &'a Bits, only: Option<&'a Bits>) -> Sink<'a> {
        Sink {
            layer,
            bits,
            only,
            ring: [(u32::MAX, 0); RING],
            next: 0,
            count: 0,
            from: 0,
            record: None,
            kept: Vec::new(),
        }
    }

    /// A sink that also lists the ranks kept, for the `sources` positions of a chunk.
    fn recording(
        layer: &'a Layer<'a>,
        bits: &'a Bits,
        only: Option<&'a Bits>,
        sources: usize,
    ) -> Sink<'a> {
        Sink {
            record: Some(Vec::with_capacity(sources * 8)),
            kept: vec![0; sources],
            ..Sink::new(layer, bits, only)
        }
    }

    /// The jumps recorded (after [`Sink::flush`]).
    fn jumps(self) -> ChunkJumps {
        let mut ends = self.kept;
        let mut at = 0;
        for e in &mut ends {
            at += *e;
            *e = at;
        }
        let mut ranks = self.record.unwrap_or_default();
        ranks.shrink_to_fit();
        ChunkJumps { ranks, ends }
    }

    #[inline(always)]
    fn push(&mut self, x: u64) {
        let r = self.layer.rank(x);
        let first = self.only.unwrap_or(self.bits);
        prefetch_write(&first.words[(r >> 6) as usize] as *const AtomicU64);
        let old = std::mem::replace(&mut self.ring[self.next], (r, self.from));
        self.next = (self.next + 1) % RING;
        self.count += 1;
        if old.0 != u32::MAX {
            self.set(old);
        }
    }

    #[inline(always)]
    fn set(&mut self, (r, from): (u32, u32)) {
        let i = (r >> 6) as usize;
        let b = 1u64 << (r & 63);
        if let Some(o) = self.only
            && o.words[i].load(Ordering::Relaxed) & b == 0
        {
            return;
        }
        if let Some(rec) = &mut self.record {
            rec.push(r);
            if let Some(k) = self.kept.get_mut(from as usize) {
                *k += 1;
            }
        }
        let w = &self.bits.words[i];
        // Most successors are repeats: read first, write only a new bit.
        if w.load(Ordering::Relaxed) & b == 0 {
            w.fetch_or(b, Ordering::Relaxed);
        }
    }

    fn flush(&mut self) {
        // Oldest first, so that the ranks recorded stay in the order they were pushed.
        for i in 0..RING {
            let e = std::mem::replace(&mut self.ring[(self.next + i) % RING], (u32::MAX, 0));
            if e.0 != u32::MAX {
                self.set(e);
            }
        }
    }
}

/// The jumps a step of a walk found between two levels of a finishable set, for [`count_paths`]: for each
/// position of the level the step started from (in order), the ranks of the successors it kept, in the layer of
/// the level the step built (repeats included: each is a jump). Kept as the step found them, by chunks of
/// [`CHUNK`] positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Jumps {
    chunks: Vec<ChunkJumps>,
}

/// The jumps of [`CHUNK`] positions (fewer in the last chunk).
#[derive(Debug, Clone, Default)]
struct ChunkJumps {
    /// The ranks, position after position.
    ranks: Vec<u32>,
    /// `ends[i]`: where the ranks of the chunk's position `i` end in `ranks`.
    ends: Vec<u32>,
}

impl Jumps {
    pub(crate) fn bytes(&self) -> u64 {
        self.chunks
            .iter()
            .map(|c| (c.ranks.capacity() * 4 + c.ends.capacity() * 4) as u64)
            .sum()
    }

    /// Whether these are the jumps of a level of `len` positions.
    fn fits(&self, len: usize) -> bool {
        self.chunks.len() == len.div_ceil(CHUNK)
            && self
                .chunks
                .iter()
                .enumerate()
                .all(|(i, c)| c.ends.len() == (len - i * CHUNK).min(CHUNK))
    }
}

impl ChunkJumps {
    /// The ranks of position `i` of the chunk.
    fn of(&self, i: usize) -> &[u32] {
        let lo = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.ranks[lo..self.ends[i] as usize]
    }
}

/// What a step keeps of the successors it finds.
#[derive(Clone, Copy)]
enum Filter<'a> {
    /// Those in this level.
    Level(&'a Level),
    /// Those whose bits are set in the step's second bit set already.
    Loaded,
}

/// A level of a dense walk: the ranks of its positions (normal forms) in the layer of `pegs` pegs, increasing.
struct Level {
    pegs: u32,
    ranks: Vec<u32>,
}

impl Level {
    fn empty(pegs: u32) -> Level {
        Level {
            pegs,
            ranks: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.ranks.len()
    }

    fn bytes(&self) -> u64 {
        (self.ranks.capacity() * 4) as u64
    }
}

/// For each position of `keys`, `f(position, successors)`: its successors by `k`'s moves (jumps, or jumps taken
/// back), normalized, those `k`'s pagoda tests keep.
fn each_successors<F: FnMut(u64, &[u64])>(
    k: &Kernel,
    portable: bool,
    keys: impl Iterator<Item = u64>,
    mut f: F,
) {
    #[cfg(target_arch = "x86_64")]
    if !portable && k.dirs.len() <= 8 && k.byte_moves() && crate::kernel::has_avx512() {
        // SAFETY: `has_avx512` checked that the CPU has the features `each_successors_avx512` is compiled for.
        unsafe { each_successors_avx512(k, keys, &mut f) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if !portable && k.avx2_ok() && k.dgroups <= 2 {
        // SAFETY: `avx2_ok` checked that the CPU has the features `each_successors_avx2` is compiled for.
        unsafe { each_successors_avx2(k, keys, &mut f) };
        return;
    }
    let _ = portable;
    let mut vals = Vec::with_capacity(MOVE_WORDS * 64);
    for key in keys {
        let mut imgs = [[0u64; LANES]; 2];
        for (row, im) in imgs.iter_mut().enumerate().take(k.rows) {
            *im = k.images_portable(key, row);
        }
        let slacks = k.prune.as_ref().map(|p| p.slacks(key));
        vals.clear();
        for (wi, &word) in k.legal_portable(key).iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(slacks), Some(p)) = (&slacks, &k.prune)
                    && !p.keeps(slacks, j)
                {
                    continue;
                }
                vals.push(k.min_successor(&imgs, j));
            }
        }
        f(key, &vals);
    }
}

/// [`each_successors`] with the AVX2 kernel (as the general walks' `expand_avx2`, without counters).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn each_successors_avx2<F: FnMut(u64, &[u64])>(
    k: &Kernel,
    keys: impl Iterator<Item = u64>,
    f: &mut F,
) {
    use crate::kernel::avx2;
    let mut vals = [0u64; 256 + 4];
    let mut moves = [0u8; 256 + 8];
    let mut legal = [0u64; 8];
    for key in keys {
        let im = avx2::images_legal(k, key, &mut legal);
        let n = avx2::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals);
        f(key, &vals[..n]);
    }
}

/// [`each_successors`] with the AVX-512 kernel: the images with one bit-shuffle instruction each, the legal
/// moves of a direction with two, their indices with one compress instruction, eight successors' normal forms
/// at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl,avx512vbmi2,avx512bitalg,popcnt,bmi1,bmi2"
)]
fn each_successors_avx512<F: FnMut(u64, &[u64])>(
    k: &Kernel,
    keys: impl Iterator<Item = u64>,
    f: &mut F,
) {
    use crate::kernel::avx512;
    use std::arch::x86_64::_mm512_set1_epi64;
    let mut vals = [0u64; 256 + 8];
    let mut moves = [0u8; 256 + 64];
    let mut legal = [0u64; 8];
    for key in keys {
        let kv = _mm512_set1_epi64(key as i64);
        let (im, _) = avx512::images(k, kv);
        avx512::legal_masks(k, key, kv, &mut legal);
        let n = avx512::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals);
        f(key, &vals[..n]);
    }
}

/// The dense walks of one problem: made by [`prepare`], used by [`meet`].
pub(crate) struct Dense<'a> {
    ranks: Ranks,
    state: u8,
    full: u64,
    /// Whether the start is the full board less the finish hole.
    self_dual: bool,
    portable: bool,
    cancel: Option<&'a AtomicBool>,
    max_memory: Option<u64>,
    /// The bit set a step builds, and the one it is intersected with.
    out: Bits,
    and: Bits,
    /// Prefix tables of the layers (`cum` of [`Layer`]), by pegs; `None` for layers too big.
    tables: Vec<Option<Vec<u32>>>,
    stats: Option<crate::enumerate::StatsSink<'a>>,
}

/// Why a dense walk stopped: an error to report, or a reason to use the general walks instead.
enum Stop {
    Error(CountError),
    Fallback,
}

impl Dense<'_> {
    /// The layer of `pegs` pegs.
    fn layer(&self, pegs: u32) -> Result<Layer<'_>, Stop> {
        let cum = self
            .tables
            .get(pegs as usize)
            .and_then(Option::as_deref)
            .ok_or(Stop::Fallback)?;
        Ok(Layer {
            r: &self.ranks,
            pegs,
            state: self.state,
            cum,
        })
    }

    fn check(&self, held: u64) -> Result<(), Stop> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Stop::Error(CountError::Cancelled));
        }
        let used = held + self.out.bytes() + self.and.bytes() + self.table_bytes() + (4 << 20);
        if self.max_memory.is_some_and(|m| used > m) {
            return Err(Stop::Fallback);
        }
        Ok(())
    }

    /// Bytes of the prefix tables.
    fn table_bytes(&self) -> u64 {
        self.tables
            .iter()
            .flatten()
            .map(|t| t.capacity() as u64 * 4)
            .sum()
    }

    /// The successors of `from` by `k`'s moves, normalized; with `and`, only those in it.
    fn step(&self, k: &Kernel, from: &Level, and: Option<Filter<'_>>) -> Result<Level, Stop> {
        Ok(self.step_with(k, from, and, false)?.0)
    }

    /// [`Dense::step`]; with `record`, also the successors kept of each position of `from`.
    fn step_with(
        &self,
        k: &Kernel,
        from: &Level,
        and: Option<Filter<'_>>,
        record: bool,
    ) -> Result<(Level, Option<Jumps>), Stop> {
        let pegs = if k.reverse {
            from.pegs + 1
        } else {
            from.pegs.saturating_sub(1)
        };
        if from.len() == 0 || pegs == 0 || pegs as usize > k.holes {
            if let Some(Filter::Loaded) = and {
                self.and.clear();
            }
            let jumps = record.then(|| Jumps {
                chunks: from
                    .ranks
                    .chunks(CHUNK)
                    .map(|c| ChunkJumps {
                        ranks: Vec::new(),
                        ends: vec![0; c.len()],
                    })
                    .collect(),
            });
            return Ok((Level::empty(pegs), jumps));
        }
        let src = self.layer(from.pegs)?;
        let dst = self.layer(pegs)?;
        let len = dst.len();
        if let Some(Filter::Level(a)) = and {
            self.and.set_all(&a.ranks);
        }
        let (out, portable) = (&self.out, self.portable);
        let only = and.map(|_| &self.and);
        let t = std::time::Instant::now();
        let chunks: Vec<(u64, Option<ChunkJumps>)> = from
            .ranks
            .par_chunks(CHUNK)
            .map(|c| {
                let mut sink = if record {
                    Sink::recording(&dst, out, only, c.len())
                } else {
                    Sink::new(&dst, out, only)
                };
                each_successors(k, portable, src.keys(c), |_, succ| {
                    for &v in succ {
                        sink.push(v);
                    }
                    sink.from += 1;
                });
                sink.flush();
                (sink.count, record.then(|| sink.jumps()))
            })
            .collect();
        let records = chunks.iter().map(|c| c.0).sum();
        let jumps = record.then(|| Jumps {
            chunks: chunks.into_iter().filter_map(|c| c.1).collect(),
        });
        let expand_secs = t.elapsed().as_secs_f64();
        let ranks = self.out.take(len, and.map(|_| &self.and));
        if let Some(stats) = self.stats {
            let total_secs = t.elapsed().as_secs_f64();
            stats(&crate::enumerate::StepStats {
                pegs: from.pegs,
                sources: from.len() as u64,
                records,
                next_classes: ranks.len() as u64,
                rounds: 1,
                expand_secs,
                merge_secs: total_secs - expand_secs,
                total_secs,
                next_bytes: (ranks.len() * 4) as u64,
                ..Default::default()
            });
        }
        Ok((Level { pegs, ranks }, jumps))
    }

    /// The normal forms (under `k`'s group) of the complements of `from`'s positions, as a level.
    fn complements(&self, k: &Kernel, from: &Level) -> Result<Level, Stop> {
        let pegs = k.holes as u32 - from.pegs;
        let len = self.layer(pegs)?.len();
        self.complement_bits(k, from, &self.out)?;
        Ok(Level {
            pegs,
            ranks: self.out.take(len, None),
        })
    }

    /// Sets in `bits` the bits of the normal forms (under `k`'s group) of the complements of `from`'s
    /// positions.
    fn complement_bits(&self, k: &Kernel, from: &Level, bits: &Bits) -> Result<(), Stop> {
        let pegs = k.holes as u32 - from.pegs;
        let src = self.layer(from.pegs)?;
        let dst = self.layer(pegs)?;
        let full = self.full;
        from.ranks.par_chunks(CHUNK).for_each(|c| {
            let mut sink = Sink::new(&dst, bits, None);
            for x in src.keys(c) {
                sink.push(full ^ k.max_image(x));
            }
            sink.flush();
        });
        Ok(())
    }

    /// The ranks in both `a` and `b` (same number of pegs).
    fn intersect(a: &Level, b: &Level) -> Level {
        let mut out = Vec::new();
        let mut it = b.ranks.iter().peekable();
        for &r in &a.ranks {
            while it.next_if(|&&x| x < r).is_some() {}
            if it.peek() == Some(&&r) {
                out.push(r);
            }
        }
        Level {
            pegs: a.pegs,
            ranks: out,
        }
    }

    /// The positions of a level, in increasing order.
    fn keys(&self, level: &Level) -> Result<Vec<u64>, Stop> {
        if level.len() == 0 {
            return Ok(Vec::new());
        }
        let layer = self.layer(level.pegs)?;
        let mut keys = vec![0u64; level.len()];
        keys.par_chunks_mut(CHUNK)
            .zip(level.ranks.par_chunks(CHUNK))
            .for_each(|(out, c)| {
                for (o, x) in out.iter_mut().zip(layer.keys(c)) {
                    *o = x;
                }
            });
        Ok(keys)
    }
}

fn held(levels: &[Option<Level>]) -> u64 {
    levels.iter().flatten().map(Level::bytes).sum()
}

/// The tables and bit sets of the dense walks of `problem` towards `holes`, made before its kernels are (they
/// do not depend on the pagoda tests: the two are made side by side). `None` when the dense walks cannot be
/// used (see the [module documentation](self)) or would need more memory than `opts` allows.
pub(crate) fn prepare<'a>(
    problem: &Problem,
    holes: &[usize],
    opts: &Options<'a>,
) -> Option<Dense<'a>> {
    let board = problem.board();
    let n = board.holes();
    if n as u32 > MAX_HOLES || holes.is_empty() {
        return None;
    }
    let full = board.full().bits();
    let start = problem.start();
    let state = board.position_class(start);
    let self_dual = match problem.finish() {
        Finish::Hole(h) => start.bits() == full ^ 1u64 << h,
        Finish::Anywhere => false,
    };
    if self_dual && board.position_class(board.full()) != 0 {
        return None;
    }
    let ranks = Ranks::new(board);
    // The widest layer the walks may use, two bit sets of it.
    let widest = (1..=start.pegs())
        .map(|p| ranks.layer_len(p, state))
        .max()
        .unwrap_or(0);
    if widest > MAX_LAYER_BITS || opts.max_memory.is_some_and(|m| widest / 4 > m / 2) {
        return None;
    }
    // A self-dual problem's walks use only the layers from the middle up (see `walks`).
    let tables = (0..=n as u32)
        .into_par_iter()
        .map(|p| {
            if self_dual && (p as usize) < n / 2 {
                None
            } else {
                prefix_table(&ranks, p, state)
            }
        })
        .collect();
    Some(Dense {
        ranks,
        state,
        full,
        self_dual,
        portable: opts.portable,
        cancel: opts.cancel,
        max_memory: opts.max_memory,
        out: Bits::new(widest),
        and: Bits::new(widest),
        tables,
        stats: opts.stats,
    })
}

/// What [`meet`] finds: the finishable levels (see there), and with `record`, the jumps the walks found between
/// them, by the number of pegs of the level they start from (see [`Jumps`]; only for some levels).
pub(crate) type Met = (Vec<Option<Vec<u64>>>, Vec<Option<Jumps>>);

/// The finishable set of `problem` by meeting in the middle (as the general `meet` of
/// [`crate::finishable`]: the same steps, the same pagoda tests in `kf` and `kr`, with dense walks), with the
/// tables and bit sets `d` that [`prepare`] made for the problem and `holes`, as levels indexed by pegs, each
/// the normal forms (under `kf`'s group) of its positions in increasing order. When the start is the full
/// board less the finish hole, the levels below the middle are `None`: each is the complements of the level
/// of as many pegs as it has holes (see [`crate::finishable`]). `None` when the walks would need more memory
/// than the options given to [`prepare`] allow.
///
/// Every position of a walk has the start's class, and so do its images under the symmetries of `kf`'s group:
/// a forward position is the start XOR a sum of jumps' holes, its image the start's image (the start itself:
/// the group fixes it) XOR a sum of jumps' holes (a symmetry maps a jump onto a jump), and a jump's holes have
/// class 0 (play keeps the class); a backward position is a finish hole XOR jumps', and the group maps the finish
/// holes (all of the start's class) onto themselves. The complements used when the start is the full board
/// less the finish hole have the class of the full board XORed with the start's: checked by [`prepare`].
///
/// With `record`, the jumps of the steps outwards to the start are kept too (each is between two finishable
/// positions: the step keeps only the reachable positions with a jump into the level below it), for
/// [`count_paths`].
pub(crate) fn meet(
    d: Dense<'_>,
    problem: &Problem,
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
    record: bool,
) -> Option<Result<Met, CountError>> {
    let n = problem.board().holes();
    let mut jumps: Vec<Option<Jumps>> = Vec::new();
    if record {
        jumps.resize_with(n + 1, || None);
    }
    match walks(&d, problem, kf, kr, holes, d.self_dual, &mut jumps) {
        Ok(found) => {
            let mut levels = Vec::with_capacity(n + 1);
            for l in &found {
                match l {
                    Some(l) => match d.keys(l) {
                        Ok(k) => levels.push(Some(k)),
                        Err(Stop::Fallback) => return None,
                        Err(Stop::Error(e)) => return Some(Err(e)),
                    },
                    None => levels.push(None),
                }
            }
            Some(Ok((levels, jumps)))
        }
        Err(Stop::Fallback) => None,
        Err(Stop::Error(e)) => Some(Err(e)),
    }
}

/// The walks of [`meet`]: the finishable levels, indexed by pegs. When `jumps` has slots (one per number of
/// pegs), the jumps of the steps outwards to the start are kept there, by the pegs of the level they end on.
fn walks(
    d: &Dense<'_>,
    problem: &Problem,
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
    self_dual: bool,
    jumps: &mut [Option<Jumps>],
) -> Result<Vec<Option<Level>>, Stop> {
    let n = problem.board().holes();
    // The jumps are kept when there are slots for them (and while the memory allows).
    let mut record = !jumps.is_empty();
    let start = problem.start();
    let s = start.pegs() as usize;
    let mut found: Vec<Level> = (0..=n as u32).map(Level::empty).collect();
    let mut fwd_levels: Vec<Option<Level>> = (0..=n).map(|_| None).collect();
    let mut bwd_levels: Vec<Option<Level>> = (0..=n).map(|_| None).collect();
    let first = |d: &Dense<'_>, k: &Kernel, keys: &[u64]| -> Result<Level, Stop> {
        let pegs = keys.first().map_or(0, |x| x.count_ones());
        let layer = d.layer(pegs)?;
        let mut ranks: Vec<u32> = keys.iter().map(|&x| layer.rank(k.normalize(x).0)).collect();
        ranks.sort_unstable();
        ranks.dedup();
        Ok(Level { pegs, ranks })
    };
    let mut fwd = first(d, kf, &[start.bits()])?;
    let m;
    if self_dual {
        m = n / 2;
        let partner = n - m;
        while fwd.pegs as usize > partner {
            if fwd.len() == 0 {
                return Ok(found.into_iter().map(Some).collect());
            }
            d.check(held(&fwd_levels) + fwd.bytes())?;
            let next = d.step(kf, &fwd, None)?;
            let pegs = fwd.pegs as usize;
            fwd_levels[pegs] = Some(std::mem::replace(&mut fwd, next));
        }
        if fwd.pegs as usize != partner || fwd.len() == 0 {
            return Ok(found.into_iter().map(Some).collect());
        }
        d.check(held(&fwd_levels) + fwd.bytes())?;
        if partner == m {
            let comp = d.complements(kf, &fwd)?;
            found[m] = Dense::intersect(&fwd, &comp);
            fwd_levels[m] = Some(fwd);
        } else {
            // The complements go straight into the bit set the step intersects with.
            d.complement_bits(kf, &fwd, &d.and)?;
            found[m] = d.step(kf, &fwd, Some(Filter::Loaded))?;
            found[partner] = d.complements(kf, &found[m])?;
            fwd_levels[partner] = Some(fwd);
        }
    } else {
        let finishes: Vec<u64> = holes.iter().map(|&h| 1u64 << h).collect();
        let mut bwd = first(d, kr, &finishes)?;
        while fwd.pegs > bwd.pegs + 1 {
            if fwd.len() == 0 || bwd.len() == 0 {
                return Ok(found.into_iter().map(Some).collect());
            }
            d.check(held(&fwd_levels) + held(&bwd_levels) + fwd.bytes() + bwd.bytes())?;
            if fwd.len() <= bwd.len() {
                let next = d.step(kf, &fwd, None)?;
                let pegs = fwd.pegs as usize;
                fwd_levels[pegs] = Some(std::mem::replace(&mut fwd, next));
            } else {
                let next = d.step(kr, &bwd, None)?;
                let pegs = bwd.pegs as usize;
                bwd_levels[pegs] = Some(std::mem::replace(&mut bwd, next));
            }
        }
        if fwd.len() == 0 || bwd.len() == 0 {
            return Ok(found.into_iter().map(Some).collect());
        }
        d.check(held(&fwd_levels) + held(&bwd_levels) + fwd.bytes() + bwd.bytes())?;
        if fwd.pegs == bwd.pegs {
            // A start with one peg.
            m = fwd.pegs as usize;
            found[m] = Dense::intersect(&fwd, &bwd);
            fwd_levels[m] = Some(fwd);
            bwd_levels[m] = Some(bwd);
        } else if fwd.len() <= bwd.len() {
            m = bwd.pegs as usize;
            found[m] = d.step(kf, &fwd, Some(Filter::Level(&bwd)))?;
            let p = fwd.pegs as usize;
            fwd_levels[p] = Some(fwd);
            bwd_levels[m] = Some(bwd);
        } else {
            m = fwd.pegs as usize;
            found[m] = d.step(kr, &bwd, Some(Filter::Level(&fwd)))?;
            let p = bwd.pegs as usize;
            bwd_levels[p] = Some(bwd);
            fwd_levels[m] = Some(fwd);
        }
    }
    // Outwards to the start: the reachable positions with a jump into the finishable ones one peg fewer (with
    // `jumps`, those jumps are kept: every one is between two finishable positions).
    let first_up = if self_dual { n - m + 1 } else { m + 1 };
    for k in first_up..=s {
        let Some(reach) = fwd_levels[k].take() else {
            break;
        };
        let held_now = held(&fwd_levels) + held(&bwd_levels) + reach.bytes();
        if record {
            let kept: u64 = jumps.iter().flatten().map(Jumps::bytes).sum();
            // What this step would keep (room for eight jumps a position, as `Sink::recording` reserves), and
            // room left for the counts' lookup table ([`Indexed`]: 16 bytes a word of the widest bit set).
            let next = found[k - 1].len() as u64 * 9 * 4;
            let count = 2 * d.out.bytes();
            if d.check(held_now + kept + next + count).is_err() {
                // Too little memory to keep them: the counts will list the jumps again instead.
                jumps.iter_mut().for_each(|j| *j = None);
                record = false;
            }
        }
        d.check(held_now)?;
        let (level, j) = d.step_with(kr, &found[k - 1], Some(Filter::Level(&reach)), record)?;
        found[k] = level;
        if let (Some(slot), Some(j)) = (jumps.get_mut(k - 1), j) {
            *slot = Some(j);
        }
    }
    if self_dual {
        // Below the middle: the complements of the levels above it, left to the caller.
        return Ok(found
            .into_iter()
            .enumerate()
            .map(|(k, l)| (k >= m || k == 0).then_some(l))
            .collect());
    }
    // Outwards to the finish.
    for k in (1..m).rev() {
        let Some(back) = bwd_levels[k].take() else {
            break;
        };
        d.check(held(&fwd_levels) + held(&bwd_levels) + back.bytes())?;
        found[k] = d.step(kf, &found[k + 1], Some(Filter::Level(&back)))?;
    }
    Ok(found.into_iter().map(Some).collect())
}

/// A level of a finishable set for [`count_paths`]: its positions' ranks as a bit set over their layer, each
/// word beside the number of bits set before it (one cache line for both), so that a position's index in the
/// level is one lookup.
struct Indexed {
    /// `(word, bits set in the words before it)`.
    blocks: Vec<(u64, u64)>,
}

impl Indexed {
    /// The bit set of `ranks` (increasing) over a layer of `len` positions, in the buffer of `self` (whose
    /// blocks are all clear): only the blocks of `ranks` are written.
    fn fill(&mut self, ranks: impl Iterator<Item = u32>, len: u64) {
        let n = len.div_ceil(64) as usize;
        if self.blocks.len() < n {
            self.blocks.resize(n, (0, 0));
        }
        for (i, r) in ranks.enumerate() {
            let b = &mut self.blocks[(r >> 6) as usize];
            if b.0 == 0 {
                // The first rank of the block: the number of ranks before it.
                b.1 = i as u64;
            }
            b.0 |= 1 << (r & 63);
        }
    }

    /// Clear the blocks of `ranks` (those [`Indexed::fill`] was given).
    fn clear(&mut self, ranks: impl Iterator<Item = u32>) {
        for r in ranks {
            self.blocks[(r >> 6) as usize] = (0, 0);
        }
    }

    /// Ask for the block of rank `r` from memory.
    #[inline(always)]
    fn prefetch(&self, r: u32) {
        prefetch(&self.blocks[(r >> 6) as usize]);
    }

    /// The index in the level of the position of rank `r`, or `none` when it is not in the level (without a
    /// branch: whether a position is in the level is a coin toss the CPU cannot predict).
    #[inline(always)]
    fn index_or(&self, r: u32, none: usize) -> usize {
        let (word, before) = self.blocks[(r >> 6) as usize];
        let b = r & 63;
        let j = (before + u64::from((word & ((1u64 << b) - 1)).count_ones())) as usize;
        let hit = word >> b & 1 == 1;
        std::hint::select_unpredictable(hit, j, none)
    }
}

/// Where the jumps into a chunk of a level start from, for [`each_origins`].
#[derive(Clone, Copy)]
enum Origins<'a> {
    /// Kept by the walks: all from the level above.
    Kept(&'a ChunkJumps),
    /// Listed again from the chunk's positions (jumps taken back): some from outside the level above.
    Listed(&'a [u64]),
}

/// For each position `i` of a chunk of a level (in order), `visit(i, origins)` with the indices in the level
/// above (`ix`, over the layer `above`) of the positions its jumps start from, one for each jump (those outside
/// the level above left out). A few hundred positions at a time: their origins' blocks of `ix` are asked for
/// from memory first.
fn each_origins(
    src: Origins<'_>,
    ix: &Indexed,
    above: &Layer<'_>,
    kr: &Kernel,
    portable: bool,
    mut visit: impl FnMut(usize, &[usize]) -> Result<(), CountError>,
) -> Result<(), CountError> {
    // At most `MOVE_WORDS * 64` jumps into a position.
    let mut hits = [0usize; MOVE_WORDS * 64];
    match src {
        Origins::Kept(j) => {
            let len = j.ends.len();
            for i0 in (0..len).step_by(PULL) {
                let i1 = (i0 + PULL).min(len);
                let lo = if i0 == 0 { 0 } else { j.ends[i0 - 1] as usize };
                for &r in &j.ranks[lo..j.ends[i1 - 1] as usize] {
                    ix.prefetch(r);
                }
                for i in i0..i1 {
                    let mut k = 0;
                    for &r in j.of(i) {
                        let o = ix.index_or(r, usize::MAX);
                        debug_assert_ne!(o, usize::MAX, "a jump kept from outside the level above");
                        hits[k % hits.len()] = o;
                        k += 1;
                    }
                    visit(i, &hits[..k.min(hits.len())])?;
                }
            }
        }
        Origins::Listed(c) => {
            let mut ranks = Vec::new();
            let mut ends = Vec::new();
            let mut i = 0;
            // Two passes: the origins ranked (their blocks asked for), then looked up.
            for sub in c.chunks(PULL) {
                ranks.clear();
                ends.clear();
                each_successors(kr, portable, sub.iter().copied(), |_, preds| {
                    for &p in preds {
                        let r = above.rank(p);
                        ix.prefetch(r);
                        ranks.push(r);
                    }
                    ends.push(ranks.len());
                });
                let mut lo = 0;
                for &hi in &ends {
                    // The origins in the level above, without a branch each.
                    let mut k = 0;
                    for &r in &ranks[lo..hi] {
                        let o = ix.index_or(r, usize::MAX);
                        hits[k % hits.len()] = o;
                        k += usize::from(o != usize::MAX);
                    }
                    visit(i, &hits[..k.min(hits.len())])?;
                    lo = hi;
                    i += 1;
                }
            }
        }
    }
    Ok(())
}

/// Counters of [`push_up`], the full tree's and the normal tree's for each class, in two 64-bit halves: the high
/// halves are left out (half the memory) while no count can pass 2^64.
#[derive(Default)]
struct Split {
    lo: Vec<[u64; 2]>,
    /// Empty, or as long as `lo`.
    hi: Vec<[u64; 2]>,
}

/// A class's two counts from their low and high halves.
#[inline(always)]
fn join_halves(lo: [u64; 2], hi: [u64; 2]) -> [u128; 2] {
    [
        u128::from(hi[0]) << 64 | u128::from(lo[0]),
        u128::from(hi[1]) << 64 | u128::from(lo[1]),
    ]
}

/// A class's two counts as their low and high halves.
#[inline(always)]
fn split_halves(v: [u128; 2]) -> ([u64; 2], [u64; 2]) {
    (
        [v[0] as u64, v[1] as u64],
        [(v[0] >> 64) as u64, (v[1] >> 64) as u64],
    )
}

impl Split {
    /// The counts `v`, split.
    fn from(v: Vec<[u128; 2]>) -> Split {
        let wide = v.iter().any(|c| (c[0] | c[1]) >> 64 != 0);
        Split {
            lo: v.iter().map(|&c| split_halves(c).0).collect(),
            hi: if wide {
                v.iter().map(|&c| split_halves(c).1).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// `len` counters at zero, with their high halves when `wide`.
    fn reset(&mut self, len: usize, wide: bool) {
        self.lo.clear();
        self.lo.resize(len, [0, 0]);
        self.hi.clear();
        if wide {
            self.hi.resize(len, [0, 0]);
        }
    }

    /// The counts of class `i`.
    #[inline(always)]
    fn get(&self, i: usize) -> [u128; 2] {
        join_halves(self.lo[i], self.hi.get(i).copied().unwrap_or_default())
    }

    /// Add `v` to count `t` (0: full tree, 1: normal tree) of class `i`.
    #[inline(always)]
    fn add(&mut self, i: usize, t: usize, v: u128, pegs: u32) -> Result<(), CountError> {
        let (l, carry) = self.lo[i][t].overflowing_add(v as u64);
        self.lo[i][t] = l;
        let high = (v >> 64) as u64;
        match self.hi.get_mut(i) {
            Some(h) => {
                h[t] = h[t]
                    .checked_add(high)
                    .and_then(|x| x.checked_add(u64::from(carry)))
                    .ok_or(CountError::Overflow { pegs })?;
            }
            // Without high halves no count passes 2^64 (see `push_up`): kept as a check.
            None if carry || high != 0 => return Err(CountError::Overflow { pegs }),
            None => {}
        }
        Ok(())
    }
}

/// The counts of the classes from `i0` on (their low halves `lo`, their high halves `hi` when kept) plus those
/// of `parts`, written back; the largest count and the sums of both trees'.
fn sum_chunk(
    i0: usize,
    lo: &mut [[u64; 2]],
    mut hi: Option<&mut [[u64; 2]]>,
    parts: &[Split],
    pegs: u32,
) -> Result<(u128, u128, u128), CountError> {
    let (mut big, mut f, mut normal) = (0u128, 0u128, 0u128);
    for (j, l) in lo.iter_mut().enumerate() {
        let mut v = join_halves(*l, hi.as_deref().map_or([0, 0], |h| h[j]));
        for p in parts {
            let w = p.get(i0 + j);
            v = [add(v[0], w[0], pegs)?, add(v[1], w[1], pegs)?];
        }
        let (low, high) = split_halves(v);
        *l = low;
        match hi.as_deref_mut() {
            Some(h) => h[j] = high,
            // As in `Split::add`.
            None if (v[0] | v[1]) >> 64 != 0 => return Err(CountError::Overflow { pegs }),
            None => {}
        }
        big = big.max(v[0]).max(v[1]);
        f = add(f, v[0], pegs)?;
        normal = add(normal, v[1], pegs)?;
    }
    Ok((big, f, normal))
}

/// The middle of a self-dual problem for [`push_up`]: its number of pegs, its positions and their paths
/// from the start (positions-paths and the normal tree's, as [`count_paths`] pulls them).
struct Middle<'k> {
    m: u32,
    keys: &'k [u64],
    paths: &'k [[u128; 2]],
}

/// The rows of [`count_paths`] below the middle of a self-dual problem (see `dual` there), appended to `out`
/// from `mid.m - 1` pegs down to one. `None` when a layer's tables are missing.
#[allow(clippy::too_many_arguments)]
fn push_up<'a, 'r>(
    board: &Board,
    mid: Middle<'_>,
    out: &mut Vec<(u128, u128)>,
    index: &mut Indexed,
    layer: &dyn Fn(u32) -> Option<Layer<'r>>,
    (kf, kr): (&Kernel, &Kernel),
    levels: &(dyn Fn(u32) -> Cow<'a, [u64]> + Sync),
    jumps: &(dyn Fn(u32) -> Option<&'a Jumps> + Sync),
    opts: &Options<'_>,
) -> Option<Result<(), CountError>> {
    let n = board.holes() as u32;
    let m = mid.m;
    if mid.keys.is_empty() {
        out.extend((1..m).map(|_| (0, 0)));
        return Some(Ok(()));
    }
    let full = board.full().bits();
    // The level of `n - m` pegs: each class's paths to the finish are the paths from the start into its
    // complement's class, in the middle.
    let l0 = n - m;
    let middle = layer(m)?;
    let ranks: Vec<u32> = mid.keys.par_iter().map(|&x| middle.rank(x)).collect();
    index.fill(ranks.iter().copied(), middle.len());
    let first = levels(l0);
    let mut g = vec![[0u128; 2]; first.len()];
    let init = first
        .par_chunks(PULL)
        .zip(g.par_chunks_mut(PULL))
        .try_for_each(|(c, out)| {
            // The complements' ranks first (their blocks of the index asked for), then their places.
            let mut found = [(0u32, 0u64); PULL];
            for (e, &x) in found.iter_mut().zip(c) {
                let (max, size) = kf.max_image_and_size(x);
                let r = middle.rank(full ^ max);
                index.prefetch(r);
                *e = (r, size);
            }
            for (o, &(r, size)) in out.iter_mut().zip(&found) {
                let c = index.index_or(r, usize::MAX);
                debug_assert_ne!(
                    c,
                    usize::MAX,
                    "the complement of a finishable position is finishable"
                );
                let [f, normal] = mid.paths.get(c).copied().unwrap_or_default();
                let f = f
                    .checked_mul(u128::from(size))
                    .ok_or(CountError::Overflow { pegs: m })?;
                *o = [f, normal];
            }
            Ok(())
        });
    index.clear(ranks.iter().copied());
    if let Err(e) = init {
        return Some(Err(e));
    }
    debug_assert_eq!(
        g.iter()
            .fold((0u128, 0u128), |s, a| (s.0 + a[0], s.1 + a[1])),
        out.last().copied().unwrap_or_default(),
        "the middle's paths from the start, and to the finish from its complements"
    );
    let mut largest = g.par_iter().map(|a| a[0].max(a[1])).max().unwrap_or(0);
    let mut g = Split::from(g);
    // A class one peg above gets at most this many pushes (one for each jump from one of its positions).
    let pushes = (kf.group_size * board.moves().len()) as u128;
    // Each thread's counters of the level above, with the level they were last cleared for.
    let mut accs: Vec<Mutex<(u32, Split)>> = (0..rayon::current_num_threads())
        .map(|_| Mutex::new((u32::MAX, Split::default())))
        .collect();
    let mut here = first;
    for level in l0..n - 1 {
        if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Err(CountError::Cancelled));
        }
        // The row these counts give.
        let pegs = n - (level + 1);
        let up = layer(level + 1)?;
        let above = levels(level + 1);
        let ranks: Vec<u32> = above.par_iter().map(|&x| up.rank(x)).collect();
        index.fill(ranks.iter().copied(), up.len());
        let known = jumps(level).filter(|j| j.fits(here.len()));
        // The counters of the level above fit in 64 bits when all of their pushes do.
        let wide = largest.saturating_mul(pushes) > u128::from(u64::MAX);
        let (ix, accs_ref, gr, portable, len) = (&*index, &accs, &g, opts.portable, above.len());
        let pushed = here.par_chunks(CHUNK).enumerate().try_for_each(|(ci, c)| {
            let src = match known.and_then(|j| j.chunks.get(ci)) {
                Some(j) => Origins::Kept(j),
                None => Origins::Listed(c),
            };
            let t = rayon::current_thread_index().unwrap_or(0) % accs_ref.len();
            let mut guard = accs_ref[t]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (cleared, acc) = &mut *guard;
            if *cleared != level {
                acc.reset(len, wide);
                *cleared = level;
            }
            let mut distinct = Vec::with_capacity(MOVE_WORDS * 64);
            each_origins(src, ix, &up, kr, portable, |i, origins| {
                let [f, normal] = gr.get(ci * CHUNK + i);
                distinct.clear();
                for &k in origins {
                    acc.add(k, 0, f, pegs)?;
                    if !distinct.contains(&k) {
                        distinct.push(k);
                        acc.add(k, 1, normal, pegs)?;
                    }
                }
                Ok(())
            })
        });
        if let Err(e) = pushed {
            return Some(Err(e));
        }
        // The threads' counters added up in the buffers of one of them (the sums fit as each part does: the
        // bound on the pushes holds for all of them together); the buffers (and the level's own) are given
        // back to be cleared and used again.
        let mut rest: Vec<Split> = accs
            .iter_mut()
            .map(|a| {
                a.get_mut()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            })
            .filter(|a| a.0 == level)
            .map(|a| std::mem::take(&mut a.1))
            .collect();
        let mut next = rest.pop().unwrap_or_else(|| {
            let mut z = Split::default();
            z.reset(len, wide);
            z
        });
        // Per chunk: the largest count and the row's sums.
        let parts = &rest;
        let summed: Result<Vec<(u128, u128, u128)>, CountError> = if next.hi.is_empty() {
            next.lo
                .par_chunks_mut(CHUNK)
                .enumerate()
                .map(|(ci, lo)| sum_chunk(ci * CHUNK, lo, None, parts, pegs))
                .collect()
        } else {
            next.lo
                .par_chunks_mut(CHUNK)
                .zip(next.hi.par_chunks_mut(CHUNK))
                .enumerate()
                .map(|(ci, (lo, hi))| sum_chunk(ci * CHUNK, lo, Some(hi), parts, pegs))
                .collect()
        };
        let summed = match summed {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        largest = summed.iter().map(|s| s.0).max().unwrap_or(0);
        let row = summed.iter().try_fold((0u128, 0u128), |r, s| {
            Ok((add(r.0, s.1, pegs)?, add(r.1, s.2, pegs)?))
        });
        match row {
            Ok(r) => out.push(r),
            Err(e) => return Some(Err(e)),
        }
        rest.push(std::mem::take(&mut g));
        for a in &mut accs {
            let a = a
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if a.1.lo.capacity() == 0
                && let Some(buf) = rest.pop()
            {
                *a = (u32::MAX, buf);
            }
        }
        index.clear(ranks.iter().copied());
        g = next;
        here = above;
    }
    Some(Ok(()))
}

/// A position's paths pulled from the level above: the sum of the paths (in `from`) of the jumps' origins at
/// `origins` (indices in the level above; those past its end add nothing), every jump in the full tree, each
/// class above once in the normal tree (`distinct` is scratch space).
#[inline(always)]
fn add_origins(
    origins: impl Iterator<Item = usize>,
    from: &[[u128; 2]],
    distinct: &mut Vec<usize>,
    pegs: u32,
) -> Result<[u128; 2], CountError> {
    distinct.clear();
    let (mut f, mut n) = (0u128, 0u128);
    for k in origins {
        if let Some(p) = from.get(k) {
            f = add(f, p[0], pegs)?;
            if !distinct.contains(&k) {
                distinct.push(k);
                n = add(n, p[1], pegs)?;
            }
        }
    }
    Ok([f, n])
}

/// The paths from the start into a finishable set's levels, in both trees, counted over the set alone: from the
/// start's number of pegs down to one, the full tree's and the normal tree's paths into each level's positions.
///
/// `levels(pegs)` gives the finishable positions with `pegs` pegs as normal forms under the group of `kf` (the
/// forward kernel, without pagoda tests) and `kr` (the backward one, the same group), in increasing order; the group
/// must be the problem's (so that its classes are the normal tree's nodes). The counts are pulled, one level
/// from the one above it, every position on its own (so threads share nothing they write): a position `y`'s
/// positions-paths (paths into one position of its class: the same for each) are the sum, over the jumps into
/// `y` (its moves taken back), of the positions-paths of the position the jump starts from, and its class's
/// normal-tree paths the sum over the distinct classes those positions are in. A position the jump starts from
/// that is not finishable was not reached from the start (it has a jump into a finishable position): it adds
/// nothing. A class's full-tree paths are its positions-paths times its size.
///
/// `jumps(pegs)`, when the walks kept them (see [`meet`]), gives the jumps into the positions with `pegs` pegs
/// from those with one peg more, all of them between finishable positions: those levels are pulled from the
/// jumps kept, without listing and ranking the jumps taken back again (and without looking up the origins that
/// are not finishable, about half of them on the English board).
///
/// `dual`, for a self-dual problem (the start is the full board less the finish hole), is its middle `m` and
/// the bytes the caller holds: the levels below the middle are the complements of those above it (see
/// [`meet`]), and their counts are not pulled when the memory limit of `opts` leaves room for what the push
/// needs (each thread's counters, 32 bytes a class of the widest level, and the level's own).
/// A position `x`'s paths to the finish are the paths from the start to its complement (the complements of a
/// game's positions, in the reverse order, are a game from the start to the complement of `x`), so the paths
/// into the level of `k < m` pegs are the paths to the finish from the level of `n - k` (`n` holes), whose
/// positions are finishable too. Those are known at the level of `n - m` pegs from the paths into the middle,
/// and are pushed up one level at a time along the jumps into each level (kept or listed, the same jumps
/// the pull goes down): per class `C`, the full tree's paths from all of its positions to the finish, `G(C)`,
/// and the normal tree's from the class, `g(C)`. A class `C` one peg above a position `y` of class `D` gets
/// `G(D)` once for every jump into `y` from a position of `C` (these jumps, counted for each of `D`'s
/// positions, are all the jumps from `C`'s positions into `D`'s), and `g(D)` once. Each thread adds into its own
/// counters, summed at the end of each level. The level of `n - k` then gives the row of `k`: the sums of `G`
/// and of `g` over its classes.
///
/// `None` when the dense tables cannot be used (the board has more than [`MAX_HOLES`] holes, a layer is too
/// big) or the bit sets would pass the memory limit of `opts`: the caller counts another way.
pub(crate) fn count_paths<'a>(
    board: &Board,
    start: Position,
    (kf, kr): (&Kernel, &Kernel),
    levels: &(dyn Fn(u32) -> Cow<'a, [u64]> + Sync),
    jumps: &(dyn Fn(u32) -> Option<&'a Jumps> + Sync),
    dual: Option<(u32, u64)>,
    opts: &Options<'_>,
) -> Option<Result<Vec<(u128, u128)>, CountError>> {
    let n = board.holes();
    if n as u32 > MAX_HOLES {
        return None;
    }
    let state = board.position_class(start);
    let ranks = Ranks::new(board);
    let s = start.pegs();
    let widest = (1..=s)
        .map(|p| ranks.layer_len(p, state))
        .max()
        .unwrap_or(0);
    // The bit set and the counts before each word of the widest layer.
    if widest > MAX_LAYER_BITS
        || opts
            .max_memory
            .is_some_and(|m| widest / 8 + widest / 16 > m / 2)
    {
        return None;
    }
    // A self-dual problem is pulled down to its middle only: below it, the paths into a level are those from
    // the complements of its positions to the finish, pushed up from the middle (see `dual` above), when
    // there is room for the threads' counters.
    let dual = dual.filter(|&(m, _)| m > 1 && m < s).and_then(|(m, held)| {
        let threads = rayon::current_num_threads() as u64;
        let w = (m..=s).map(|p| levels(p).len() as u64).max().unwrap_or(0);
        let need = held + (threads + 1) * w * 32 + widest / 4;
        opts.max_memory.is_none_or(|max| need <= max).then_some(m)
    });
    let lowest = dual.unwrap_or(1);
    // The layers of the levels counted (for a push, from its middle up).
    let tables: Vec<Option<Vec<u32>>> = (0..=s)
        .into_par_iter()
        .map(|p| {
            if p < lowest {
                None
            } else {
                prefix_table(&ranks, p, state)
            }
        })
        .collect();
    let layer = |pegs: u32| {
        tables[pegs as usize].as_deref().map(|cum| Layer {
            r: &ranks,
            pegs,
            state,
            cum,
        })
    };
    let mut out = Vec::with_capacity(s as usize);
    let mut keys = levels(s);
    // Per position of the level: paths into one position of its class (full tree), into its class (normal).
    let mut paths: Vec<[u128; 2]> = vec![[1, 1]; keys.len()];
    let total = |keys: &[u64], paths: &[[u128; 2]], pegs: u32| {
        keys.par_iter()
            .zip(paths)
            .map(|(&x, &[f, n])| {
                let f = f
                    .checked_mul(u128::from(kf.class_size(x)))
                    .ok_or(CountError::Overflow { pegs })?;
                Ok((f, n))
            })
            .try_reduce(
                || (0, 0),
                |a, b| Ok((add(a.0, b.0, pegs)?, add(a.1, b.1, pegs)?)),
            )
    };
    match total(&keys, &paths, s) {
        Ok(t) => out.push(t),
        Err(e) => return Some(Err(e)),
    }
    let mut index = Indexed { blocks: Vec::new() };
    for pegs in (lowest..s).rev() {
        if keys.is_empty() {
            out.push((0, 0));
            paths.clear();
            continue;
        }
        if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Err(CountError::Cancelled));
        }
        let above = layer(pegs + 1)?;
        // The level above's ranks, found on every thread.
        let ranks: Vec<u32> = keys.par_iter().map(|&x| above.rank(x)).collect();
        index.fill(ranks.iter().copied(), above.len());
        let next = levels(pegs);
        let mut next_paths = vec![[0u128; 2]; next.len()];
        let (ix, from_paths, portable) = (&index, &paths, opts.portable);
        // The jumps into the level above found by the walks, when they kept them: no successors to list.
        let known = jumps(pegs).filter(|j| j.fits(next.len()));
        let pulled = next
            .par_chunks(CHUNK)
            .zip(next_paths.par_chunks_mut(CHUNK))
            .enumerate()
            .try_for_each(|(ci, (c, out))| {
                let src = match known.and_then(|j| j.chunks.get(ci)) {
                    Some(j) => Origins::Kept(j),
                    None => Origins::Listed(c),
                };
                let mut distinct = Vec::with_capacity(MOVE_WORDS * 64);
                each_origins(src, ix, &above, kr, portable, |i, origins| {
                    out[i] = add_origins(origins.iter().copied(), from_paths, &mut distinct, pegs)?;
                    Ok(())
                })
            });
        if let Err(e) = pulled {
            return Some(Err(e));
        }
        match total(&next, &next_paths, pegs) {
            Ok(t) => out.push(t),
            Err(e) => return Some(Err(e)),
        }
        index.clear(ranks.iter().copied());
        keys = next;
        paths = next_paths;
    }
    if let Some(m) = dual {
        let mid = Middle {
            m,
            keys: &keys,
            paths: &paths,
        };
        if let Err(e) = push_up(
            board,
            mid,
            &mut out,
            &mut index,
            &layer,
            (kf, kr),
            levels,
            jumps,
            opts,
        )? {
            return Some(Err(e));
        }
    }
    Some(Ok(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Split counters add with carries into their high halves, sum parts, and refuse to pass 2^64 without
    /// high halves or 2^128 with them.
    #[test]
    fn split_counters_add_past_64_bits() {
        let big = u128::from(u64::MAX) - 5;
        let mut a = Split::default();
        a.reset(3, true);
        for _ in 0..1000 {
            a.add(1, 0, big, 7).unwrap();
            a.add(1, 1, 3, 7).unwrap();
        }
        a.add(2, 0, 1 << 100, 7).unwrap();
        assert_eq!(a.get(1), [1000 * big, 3000]);
        assert_eq!(a.get(2), [1 << 100, 0]);
        assert!(a.add(2, 0, u128::MAX, 7).is_err());
        let mut n = Split::default();
        n.reset(3, false);
        n.add(0, 0, big, 7).unwrap();
        assert_eq!(n.get(0), [big, 0]);
        assert!(n.add(0, 0, 10, 7).is_err(), "past 2^64 without high halves");
        assert!(n.add(1, 1, 1 << 64, 7).is_err());
        let s = Split::from(vec![[1, 2], [u128::from(u64::MAX) + 1, 4], [5, 6]]);
        assert_eq!((s.get(1), s.hi.len()), ([1 << 64, 4], 3));
        // Summing: `lo`/`hi` of a wide split plus another part.
        let (mut lo, mut hi) = (s.lo.clone(), s.hi.clone());
        let r = sum_chunk(0, &mut lo, Some(&mut hi), std::slice::from_ref(&s), 7).unwrap();
        let want = [[2u128, 4], [2 << 64, 8], [10, 12]];
        for (j, w) in want.iter().enumerate() {
            assert_eq!(u128::from(hi[j][0]) << 64 | u128::from(lo[j][0]), w[0]);
            assert_eq!(u128::from(hi[j][1]) << 64 | u128::from(lo[j][1]), w[1]);
        }
        assert_eq!(r, (2 << 64, 12 + (2 << 64), 24));
        let mut lo = vec![[u64::MAX, 0]];
        assert!(sum_chunk(0, &mut lo, None, &[Split::from(vec![[1, 0]])], 7).is_err());
    }

    /// A level's index gives each position of the level its place, and every other rank `none`.
    #[test]
    fn indexed_finds_the_positions_of_its_level() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let len = 50_000u64;
        let mut ranks: Vec<u32> = (0..3_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % len) as u32
            })
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        let mut ix = Indexed { blocks: Vec::new() };
        for round in 0..2 {
            // The second round checks that `clear` left the blocks clear.
            let level: Vec<u32> = ranks
                .iter()
                .copied()
                .skip(round)
                .step_by(round + 1)
                .collect();
            ix.fill(level.iter().copied(), len);
            for r in 0..len as u32 {
                let want = level.binary_search(&r).ok().unwrap_or(usize::MAX);
                assert_eq!(ix.index_or(r, usize::MAX), want, "{r}");
            }
            ix.clear(level.iter().copied());
        }
    }

    /// Every position of a layer, by brute force, in increasing order.
    fn layer_positions(board: &Board, pegs: u32, state: u8) -> Vec<u64> {
        let n = board.holes() as u32;
        (0u64..1 << n)
            .filter(|&x| {
                x.count_ones() == pegs && board.position_class(Position::from_bits(x)) == state
            })
            .collect()
    }

    #[test]
    fn ranks_number_a_layer_in_order_and_back() {
        for name in ["triangle", "english"] {
            let b = Board::builtin(name).unwrap();
            let r = Ranks::new(&b);
            let n = b.holes() as u32;
            // Small boards: every layer; the English board: a few layers of few pegs (2^33 positions in all).
            let pegs: Vec<u32> = if n <= 16 {
                (0..=n).collect()
            } else {
                vec![1, 2, 3, n - 2, n - 1]
            };
            for &p in &pegs {
                for state in 0..16u8 {
                    let want: Vec<u64> = if n <= 16 || p <= 3 {
                        layer_positions_small(&b, p, state)
                    } else {
                        // The complements of the layer of n - p pegs, class of the full board XOR state.
                        let c = b.position_class(b.full()) ^ state;
                        let mut v: Vec<u64> = layer_positions_small(&b, n - p, c)
                            .iter()
                            .map(|&x| b.full().bits() ^ x)
                            .collect();
                        v.sort_unstable();
                        v
                    };
                    let cum = prefix_table(&r, p, state).unwrap();
                    let layer = Layer {
                        r: &r,
                        pegs: p,
                        state,
                        cum: &cum,
                    };
                    assert_eq!(
                        layer.len(),
                        want.len() as u64,
                        "{name} {p} pegs class {state}"
                    );
                    assert_eq!(r.layer_len(p, state), want.len() as u64);
                    let ranks: Vec<u32> = want.iter().map(|&x| layer.rank(x)).collect();
                    assert!(ranks.iter().enumerate().all(|(i, &x)| x as usize == i));
                    let back: Vec<u64> = layer.keys(&ranks).collect();
                    assert_eq!(back, want);
                }
            }
        }
    }

    /// The positions of a layer with few pegs (or of a small board), by brute force over subsets of holes.
    fn layer_positions_small(board: &Board, pegs: u32, state: u8) -> Vec<u64> {
        let n = board.holes() as u32;
        if n <= 16 {
            return layer_positions(board, pegs, state);
        }
        let mut out = Vec::new();
        let mut pick = |x: u64| {
            if board.position_class(Position::from_bits(x)) == state {
                out.push(x);
            }
        };
        match pegs {
            0 => pick(0),
            1 => (0..n).for_each(|a| pick(1 << a)),
            2 => (0..n).for_each(|a| (0..a).for_each(|b| pick(1 << a | 1 << b))),
            3 => (0..n).for_each(|a| {
                (0..a).for_each(|b| (0..b).for_each(|c| pick(1 << a | 1 << b | 1 << c)))
            }),
            _ => unreachable!("only layers of at most three pegs"),
        }
        out.sort_unstable();
        out
    }
}
