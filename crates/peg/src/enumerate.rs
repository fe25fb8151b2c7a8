//! The fast level-by-level enumeration.
//!
//! Each level (all positions with the same number of pegs) is stored as normal forms (the smallest image under
//! the symmetry group) with two path counters: the *class total* of the full tree (the number of move sequences
//! from the start to any position of the class) and the normal-tree count. Levels are kept in the crate's
//! private `level` module's format: normal forms turned into evenly spread *mixed keys* by a bijection, split
//! into partitions of consecutive mixed keys, each partition sorted and byte-packed (about 11 bytes a class at
//! the widest English levels, 41 MB for its 3.6 million classes).
//!
//! The next level is built in rounds of about 3 million successors:
//!
//! 1. *expand* (both cores, work-stealing over blocks of 64 source classes): for each class, its images are
//!    computed once; its legal moves are found per direction of moves; each gives a successor whose images are
//!    the class's images XOR the move's precomputed images, and whose normal form is their minimum (eight
//!    successors at a time on AVX-512). Successors of one class that fall in the same class are merged (class
//!    total times multiplicity for the full tree, once for the normal tree). The class's two counters go to
//!    the round's table of source counters, and each successor becomes an 8-byte *record* (its key inside its
//!    partition, and the index of those counters) in the buffer of its partition;
//! 2. *merge* (both cores, over partitions): each partition's open-addressing table, about 400 KiB, is read
//!    into the core's cache, then the partition's records are added into it.
//!
//! When every source has been expanded, each table is sorted (it is nearly sorted already: its home slots
//! increase with the key) and frozen. Tables, buffers and counter tables are kept from level to level. A count
//! that never looks at its levels (the whole table) skips the freeze while the memory limit leaves room: the
//! next step expands the level straight from its tables, slot by slot, which takes about twice the memory of
//! a frozen level.
//!
//! Counters are `u64`; a level where a class's sum overflows is rebuilt with `u128` counters (on the English
//! board, the levels of 4 pegs and fewer; the level totals, summed in `u128`, pass 2^64 from 9 pegs down).
//! Every addition is checked. Memory is bounded: before each level the memory it needs is
//! estimated and compared with the limit ([`Options::max_memory`]); the check is repeated after every round
//! with the tables' real size.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use crate::count::{Count, CountError, Level, add};
use crate::counter::{Counter, NoCount, SrcIndex};
use crate::kernel::{Kernel, LANES, MOVE_WORDS, MoveId};
use crate::level::{
    BLOCK, Frozen, INIT_LOAD, KeyFilter, Layout, Mixer, PART_TARGET, Part, Pool, Rec, Slot, Table,
    TableKey,
};
use crate::position::Position;
use crate::problem::{Finish, Problem};

/// Which counter type levels start with (the default, `u64`, is what a user wants; the others exist to test the
/// overflow path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CounterWidth {
    /// `u64`, rebuilt as `u128` on overflow.
    #[default]
    U64,
    /// `u16`, rebuilt as `u128` on overflow (for tests: overflows early and often).
    U16,
    /// `u128` from the start.
    U128,
}

/// A finished level, as reported to the progress callback.
pub type Progress<'a> = &'a (dyn Fn(&Level) + Sync);

/// Measurements of one level step, as reported to the [`Options::stats`] callback: for people tuning the
/// engine (the command line prints them with `PEG_DEBUG=1`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepStats {
    /// Pegs of the level expanded (the source level).
    pub pegs: u32,
    /// Classes of the source level.
    pub sources: u64,
    /// Records written for the next level (one per distinct successor class of each source class).
    pub records: u64,
    /// Classes of the next level.
    pub next_classes: u64,
    /// The size the next level was expected to have (its tables were sized for it).
    pub expected: u64,
    /// Rounds the next level was built in.
    pub rounds: u32,
    /// Seconds (wall) spent expanding sources into records.
    pub expand_secs: f64,
    /// Seconds (wall) spent adding records into the tables.
    pub merge_secs: f64,
    /// Seconds (wall) spent freezing the tables into the stored next level.
    pub freeze_secs: f64,
    /// Seconds (wall) of the whole step.
    pub total_secs: f64,
    /// Bytes of the next level: frozen, or its tables when it was left in them.
    pub next_bytes: u64,
    /// Whether the next level was left in the tables its records were merged into, not frozen (a count
    /// that never looks at its levels does this while the memory limit leaves room; the next step reads the
    /// tables directly, or freezes them first when the memory is short).
    pub left_in_tables: bool,
    /// The memory the step was estimated to need (when a memory limit was set).
    pub estimate_bytes: Option<u64>,
    /// Whether the next level had to be built with 128-bit counters after a narrow counter overflowed.
    pub rebuilt_wide: bool,
}

/// A callback given the measurements of each level step.
pub type StatsSink<'a> = &'a (dyn Fn(&StepStats) + Sync);

/// Settings of an enumeration.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Stop before a level whose estimated memory would pass this many bytes.
    pub max_memory: Option<u64>,
    /// Enumerate only this many levels (from the start down).
    pub max_levels: Option<usize>,
    /// Called after each level.
    pub progress: Option<Progress<'a>>,
    /// Called after each level step with its measurements (for tuning; none are gathered without it).
    pub stats: Option<StatsSink<'a>>,
    /// Checked between rounds; when set, the enumeration stops with [`CountError::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
    /// Use the portable kernel even when the CPU has AVX-512.
    pub portable: bool,
    /// Counter width to start each level with.
    pub counter_width: CounterWidth,
}

impl std::fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("max_memory", &self.max_memory)
            .field("max_levels", &self.max_levels)
            .field("portable", &self.portable)
            .field("counter_width", &self.counter_width)
            .finish_non_exhaustive()
    }
}

/// A stored level, with narrow or wide counters.
pub(crate) enum AnyFrozen<N> {
    Narrow(Frozen<N>),
    Wide(Frozen<u128>),
}

impl<N: Counter> AnyFrozen<N> {
    pub fn len(&self) -> usize {
        match self {
            AnyFrozen::Narrow(s) => s.len(),
            AnyFrozen::Wide(s) => s.len(),
        }
    }
    pub fn bytes(&self) -> u64 {
        match self {
            AnyFrozen::Narrow(s) => s.bytes(),
            AnyFrozen::Wide(s) => s.bytes(),
        }
    }
}

/// A level still in the tables the merge filled (not frozen): what a walk that only counts expands next.
pub(crate) struct Tables<K, C> {
    layout: Layout,
    tables: Vec<Table<K, C>>,
}

impl<K: TableKey, C: Counter> Tables<K, C> {
    fn len(&self) -> usize {
        self.tables.iter().map(Table::len).sum()
    }
    fn bytes(&self) -> u64 {
        self.tables.iter().map(Table::bytes).sum()
    }
    /// Give the tables' memory back to the pool.
    fn recycle(self, pool: &Pool<K, C>) {
        self.tables.into_par_iter().for_each(|t| t.recycle(pool));
    }
    /// Freeze into a stored level.
    fn freeze(self, pool: &Pool<K, C>) -> Frozen<C> {
        freeze(self.layout, self.tables, pool)
    }
}

/// A level in tables, with narrow or wide counters.
pub(crate) enum AnyTables<K, N> {
    Narrow(Tables<K, N>),
    Wide(Tables<K, u128>),
}

impl<K: TableKey, N: Counter> AnyTables<K, N> {
    fn len(&self) -> usize {
        match self {
            AnyTables::Narrow(t) => t.len(),
            AnyTables::Wide(t) => t.len(),
        }
    }
    fn bytes(&self) -> u64 {
        match self {
            AnyTables::Narrow(t) => t.bytes(),
            AnyTables::Wide(t) => t.bytes(),
        }
    }
}

/// The level a step expands: stored, or still in its tables.
#[derive(Clone, Copy)]
pub(crate) enum Source<'s, K, C> {
    Frozen(&'s Frozen<C>),
    Tables(&'s Tables<K, C>),
}

impl<K: TableKey, C: Counter> Source<'_, K, C> {
    fn len(&self) -> usize {
        match self {
            Source::Frozen(f) => f.len(),
            Source::Tables(t) => t.len(),
        }
    }
    fn bytes(&self) -> u64 {
        match self {
            Source::Frozen(f) => f.bytes(),
            Source::Tables(t) => t.bytes(),
        }
    }
    /// Every block, in order: (partition, block).
    fn blocks(&self) -> Vec<(usize, usize)> {
        let counts: Vec<usize> = match self {
            Source::Frozen(f) => f.parts.iter().map(Part::blocks).collect(),
            Source::Tables(t) => t.tables.iter().map(Table::blocks).collect(),
        };
        counts
            .into_iter()
            .enumerate()
            .flat_map(|(q, n)| (0..n).map(move |b| (q, b)))
            .collect()
    }
    /// About how many classes block `b` of partition `q` holds (exactly, for a stored level; on average, for
    /// tables).
    fn block_len(&self, q: usize, b: usize) -> usize {
        match self {
            Source::Frozen(f) => block_len(&f.parts[q], b),
            Source::Tables(t) => {
                let t = &t.tables[q];
                (t.len() + t.blocks() / 2) / t.blocks().max(1)
            }
        }
    }
    /// Expand blocks `from..to` of partition `q`.
    fn expand(
        &self,
        portable: bool,
        ctx: &Ctx<'_>,
        q: usize,
        from: usize,
        to: usize,
        w: &mut Worker<K, impl Counter>,
    ) -> Result<(), StepError> {
        match self {
            Source::Frozen(f) => {
                let reader = f.parts[q].reader(f.layout.base(q), from, to);
                expand_dispatch(portable, ctx, reader, w)
            }
            Source::Tables(t) => {
                let reader = t.tables[q].reader(t.layout.base(q), from, to);
                expand_dispatch(portable, ctx, reader, w)
            }
        }
    }
}

/// Statistics of a level gathered while expanding it.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Acc {
    pub positions: u64,
    pub classes: u64,
    pub paths_full: u128,
    pub paths_normal: u128,
    pub dead: u64,
    pub dead_classes: u64,
    pub games_full: u128,
    pub games_normal: u128,
    pub sol_full: u128,
    pub sol_normal: u128,
    pub records: u64,
}

impl Acc {
    pub fn merge(self, o: Acc, pegs: u32) -> Result<Acc, CountError> {
        Ok(Acc {
            positions: self.positions + o.positions,
            classes: self.classes + o.classes,
            paths_full: add(self.paths_full, o.paths_full, pegs)?,
            paths_normal: add(self.paths_normal, o.paths_normal, pegs)?,
            dead: self.dead + o.dead,
            dead_classes: self.dead_classes + o.dead_classes,
            games_full: add(self.games_full, o.games_full, pegs)?,
            games_normal: add(self.games_normal, o.games_normal, pegs)?,
            sol_full: add(self.sol_full, o.sol_full, pegs)?,
            sol_normal: add(self.sol_normal, o.sol_normal, pegs)?,
            records: self.records + o.records,
        })
    }
}

/// Why a step stopped.
pub(crate) enum StepError {
    /// A narrow counter overflowed: rebuild the level with wide counters.
    Narrow,
    /// A final error.
    Fatal(CountError),
}

impl From<CountError> for StepError {
    fn from(e: CountError) -> Self {
        StepError::Fatal(e)
    }
}

/// One thread's output of a round: records by target partition, the counters they add (one entry per source
/// class with successors, and one more for each successor reached by several moves), and statistics.
pub(crate) struct Worker<K, D: Counter> {
    pub bufs: Vec<Vec<Rec<K, D::Src>>>,
    pub srcs: Vec<[D; 2]>,
    pub acc: Acc,
    /// Successors waiting for their filter bit (see [`Worker::emit`]): a ring of (mixed key, source).
    pending: [(u64, u32); PENDING],
    /// The index of the oldest entry of `pending`.
    oldest: usize,
}

/// How many successors a worker keeps waiting for their filter bits to come from memory.
const PENDING: usize = 32;

impl<K: TableKey, D: Counter> Worker<K, D> {
    /// A worker with these buffers and no successor waiting (for expansions without a filter, as a cluster
    /// worker's).
    pub(crate) fn with_buffers(bufs: Vec<Vec<Rec<K, D::Src>>>, srcs: Vec<[D; 2]>) -> Worker<K, D> {
        Worker {
            bufs,
            srcs,
            acc: Acc::default(),
            pending: [(u64::MAX, 0); PENDING],
            oldest: 0,
        }
    }

    /// Add counters to the table of source counters; their index.
    #[inline(always)]
    fn source(&mut self, full: D, norm: D) -> u32 {
        let i = self.srcs.len() as u32;
        self.srcs.push([full, norm]);
        i
    }

    /// Add a record for partition `q`, asking the CPU for the buffer's next cache line (the buffers are far
    /// bigger than the caches, and a store that misses the cache holds up the stores after it).
    #[inline(always)]
    fn push(&mut self, q: usize, r: Rec<K, D::Src>) {
        let b = &mut self.bufs[q];
        let ahead = b
            .as_ptr()
            .wrapping_add(b.len() + 128 / std::mem::size_of::<Rec<K, D::Src>>());
        crate::level::prefetch_write(ahead);
        if b.len() == b.capacity() {
            // This thread took more of the round than its share: grow by a quarter, not double.
            b.reserve_exact(b.capacity() / 4 + 64);
        }
        b.push(r);
    }

    /// Emit successor `v` (a normal form) with the counters at `src`.
    #[inline(always)]
    fn emit(&mut self, ctx: &Ctx<'_>, v: u64, src: u32) {
        let h = ctx.mixer.mix(v);
        if let Some(f) = ctx.filter {
            // The filter's bits are far bigger than the caches: ask for this one now, and test the successor
            // queued `PENDING` successors ago (the empty places of the ring hold `u64::MAX`).
            f.prefetch(h);
            let i = self.oldest;
            let (old, old_src) = self.pending[i];
            self.pending[i] = (h, src);
            self.oldest = (i + 1) % PENDING;
            if old != u64::MAX && f.may_hold(old) {
                self.push_key(ctx, old, old_src);
            }
            return;
        }
        self.push_key(ctx, h, src);
    }

    /// Test the successors still waiting for their filter bits.
    fn flush(&mut self, ctx: &Ctx<'_>) {
        let Some(f) = ctx.filter else {
            return;
        };
        for i in 0..PENDING {
            let (h, src) = std::mem::replace(&mut self.pending[i], (u64::MAX, 0));
            if h != u64::MAX && f.may_hold(h) {
                self.push_key(ctx, h, src);
            }
        }
        self.oldest = 0;
    }

    /// Add the record of the successor with mixed key `h`.
    #[inline(always)]
    fn push_key(&mut self, ctx: &Ctx<'_>, h: u64, src: u32) {
        if let Some(i) = ctx.buffer_of(h) {
            self.push(
                i,
                Rec {
                    key: K::store(h, &ctx.out),
                    src: D::Src::new(src),
                },
            );
        }
    }

    pub fn bytes(&self) -> u64 {
        let n: usize = self.bufs.iter().map(Vec::capacity).sum();
        (n * std::mem::size_of::<Rec<K, D::Src>>()
            + self.srcs.capacity() * std::mem::size_of::<[D; 2]>()) as u64
    }
}

/// Context of one level step.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub k: &'a Kernel,
    pub mixer: Mixer,
    pub pegs: u32,
    /// Normal form of the finish position (when the finish is a hole).
    pub finish_key: Option<u64>,
    /// Partitions of the level being built.
    pub out: Layout,
    /// Whether to build the next level (false for the last level: statistics only).
    pub emit: bool,
    /// When set, only the successors it may hold are kept (see [`KeyFilter`]).
    pub filter: Option<&'a KeyFilter>,
    /// The partitions of `out` this step builds, `first..first + parts`: the records of the others are
    /// dropped, and a worker's buffer `i` holds the records of partition `first + i` (a whole level in one
    /// pass: `0..out.parts()`; a level built in several passes by key range, as a spilling store does:
    /// one range a pass).
    pub first: usize,
    /// Number of partitions built (see `first`).
    pub parts: usize,
}

impl Ctx<'_> {
    /// The buffer of the record of mixed key `h`, when its partition is built in this pass.
    #[inline(always)]
    pub(crate) fn buffer_of(&self, h: u64) -> Option<usize> {
        let i = self.out.part(h).wrapping_sub(self.first);
        (i < self.parts).then_some(i)
    }
}

/// Expand source classes: statistics and records for the next level, into the worker's buffers. The
/// portable version, in plain Rust.
#[inline(always)]
fn expand<K: TableKey, S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    let k = ctx.k;
    let rows = k.rows;
    let mut acc = w.acc;
    let mut succ = [0u64; MOVE_WORDS * 64];
    for (h, full, norm) in src {
        let key = ctx.mixer.unmix(h);
        let mut imgs = [[0u64; LANES]; 2];
        let mut fixed = 0usize;
        for (row, im) in imgs.iter_mut().enumerate().take(rows) {
            *im = k.images_portable(key, row);
            for (lane, &img) in im.iter().enumerate() {
                fixed += usize::from(img == key && row * LANES + lane < k.group_size);
            }
        }
        let size = u64::from(k.class_sizes[fixed]);
        let tw = full.to_u128();
        let nw = norm.to_u128();
        let legal = k.legal_portable(key);
        let dead = legal.iter().all(|&l| l == 0);
        tally(ctx, &mut acc, key, size, tw, nw, dead)?;
        if dead || !ctx.emit {
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        let slacks = k.prune.as_ref().map(|p| p.slacks(key));
        let mut n = 0;
        for (wi, &word) in legal.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(slacks), Some(p)) = (&slacks, &k.prune)
                    && !p.keeps(slacks, j)
                {
                    continue;
                }
                succ[n] = k.min_successor(&imgs, j);
                n += 1;
            }
        }
        if n == 0 {
            continue;
        }
        acc.records += emit_sorted(ctx, w, &mut succ[..n], td, nd)?;
    }
    w.acc = acc;
    Ok(())
}

/// The statistics of one source class (and, at the last peg, its solutions); `true` when it is a dead end.
#[inline(always)]
fn tally(
    ctx: &Ctx<'_>,
    acc: &mut Acc,
    key: u64,
    size: u64,
    tw: u128,
    nw: u128,
    dead: bool,
) -> Result<(), CountError> {
    let pegs = ctx.pegs;
    acc.positions += size;
    acc.classes += 1;
    acc.paths_full = add(acc.paths_full, tw, pegs)?;
    acc.paths_normal = add(acc.paths_normal, nw, pegs)?;
    if dead {
        acc.dead += size;
        acc.dead_classes += 1;
        acc.games_full = add(acc.games_full, tw, pegs)?;
        acc.games_normal = add(acc.games_normal, nw, pegs)?;
        if pegs == 1 && !ctx.k.reverse {
            match ctx.finish_key {
                None => {
                    acc.sol_full = add(acc.sol_full, tw, 1)?;
                    acc.sol_normal = add(acc.sol_normal, nw, 1)?;
                }
                Some(f) if f == key => {
                    acc.sol_full = add(acc.sol_full, tw / u128::from(size), 1)?;
                    acc.sol_normal = add(acc.sol_normal, nw, 1)?;
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Emit the distinct successors among `succ` (normal forms, sorted here) of a class with counters `td`, `nd`:
/// a successor reached by several moves adds the full-tree count that many times. Returns the number of
/// records.
#[inline(always)]
fn emit_sorted<K: TableKey, D: Counter>(
    ctx: &Ctx<'_>,
    w: &mut Worker<K, D>,
    succ: &mut [u64],
    td: D,
    nd: D,
) -> Result<u64, StepError> {
    succ.sort_unstable();
    let one = w.source(td, nd);
    let mut records = 0;
    let mut i = 0;
    while i < succ.len() {
        let mut j = i + 1;
        while j < succ.len() && succ[j] == succ[i] {
            j += 1;
        }
        let src = if j - i == 1 {
            one
        } else {
            let full = td.mul((j - i) as u32).ok_or(StepError::Narrow)?;
            w.source(full, nd)
        };
        w.emit(ctx, succ[i], src);
        records += 1;
        i = j;
    }
    Ok(records)
}

/// [`expand`] hand-written for AVX-512: the images of a class with one bit-shuffle instruction each; eight
/// successors' normal forms at a time (the XOR of the class's images with the moves' images, then a
/// transposing reduction to the minimum of each); their mixed keys with vector multiplications; repeats among
/// up to 16 successors found with one conflict-detection instruction on 32-bit fingerprints (a fingerprint
/// repeat sends the class to the exact path, which sorts).
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl,avx512vbmi2,avx512bitalg,avx512vpopcntdq,popcnt,bmi1,bmi2"
)]
fn expand_avx512<K: TableKey, S: Counter, D: Counter, M: MoveId>(
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    use std::arch::x86_64::*;

    use crate::kernel::avx512;
    let k = ctx.k;
    let ones = _mm512_set1_epi64(-1);
    let mut acc = w.acc;
    let mut moves = [M::default(); MOVE_WORDS * 64 + 64];
    let mut vals = [0u64; 400];
    let mut hs = [0u64; 16];
    for (h, full, norm) in src {
        let key = ctx.mixer.unmix(h);
        let kv = _mm512_set1_epi64(key as i64);
        let (im, fixed) = avx512::images(k, kv);
        let size = u64::from(k.class_sizes[fixed as usize]);
        let tw = full.to_u128();
        let nw = norm.to_u128();
        let n = avx512::legal_moves_as(k, key, kv, &mut moves);
        tally(ctx, &mut acc, key, size, tw, nw, n == 0)?;
        if n == 0 || !ctx.emit {
            continue;
        }
        let n = k.prune_moves(key, &mut moves, n);
        if n == 0 {
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        // Normal forms of the successors, eight at a time: lane `i` of the result is the successor by move
        // `moves[g + i]` (all ones past the moves).
        if n > 2 * LANES {
            for g in (0..n).step_by(LANES) {
                let v = avx512::successors8(k, &im, &moves[g..n.min(g + LANES)]);
                // SAFETY: `vals` has room for 8 values from any group start below the number of moves.
                unsafe { _mm512_storeu_si512(vals.as_mut_ptr().add(g).cast(), v) };
            }
            acc.records += emit_sorted(ctx, w, &mut vals[..n], td, nd)?;
            continue;
        }
        let v0 = avx512::successors8(k, &im, &moves[..n.min(LANES)]);
        let v1 = if n > LANES {
            avx512::successors8(k, &im, &moves[LANES..n])
        } else {
            ones
        };
        {
            let h0 = ctx.mixer.mix8(v0);
            let h1 = ctx.mixer.mix8(v1);
            let f = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(_mm512_cvtepi64_epi32(h0)),
                _mm512_cvtepi64_epi32(h1),
            );
            let valid = (0xFFFFu32 >> (16 - n)) as u16;
            if !avx512::near_symmetric(k, &im, kv)
                || _mm512_test_epi32_mask(_mm512_maskz_conflict_epi32(valid, f), ones) == 0
            {
                // SAFETY: `hs` holds 16 values: two unaligned stores of 8 at offsets 0 and 8 fill it exactly.
                unsafe {
                    _mm512_storeu_si512(hs.as_mut_ptr().cast(), h0);
                    _mm512_storeu_si512(hs.as_mut_ptr().add(LANES).cast(), h1);
                }
                let src = w.source(td, nd);
                for &hv in &hs[..n] {
                    if ctx.filter.is_some() {
                        // Through the filter's queue (the key is mixed again: this path is rare).
                        w.emit(ctx, ctx.mixer.unmix(hv), src);
                        continue;
                    }
                    w.push_key(ctx, hv, src);
                }
                acc.records += n as u64;
                continue;
            }
        }
        // Two fingerprints are equal: sort the successors to find repeats.
        // SAFETY: `vals` holds at least 16 values.
        unsafe {
            _mm512_storeu_si512(vals.as_mut_ptr().cast(), v0);
            _mm512_storeu_si512(vals.as_mut_ptr().add(LANES).cast(), v1);
        }
        acc.records += emit_sorted(ctx, w, &mut vals[..n], td, nd)?;
    }
    w.acc = acc;
    Ok(())
}

/// [`expand`] hand-written for AVX2 (CPUs without AVX-512). Per class: its images and the neighbour bits of
/// its holes, one cache line of a table per four bits of the position (one pass over them for both on the
/// square lattice); then its successors straight from the bit masks of legal moves, four at a time (the XOR
/// of the class's images with the move's, each reduced to its minimum in one transposing step). A class that
/// no symmetry but the identity brings within six holes of itself cannot reach one class by two jumps, so its
/// successors are emitted as they come, unsorted; keys-only levels (no counters) never sort.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn expand_avx2<K: TableKey, S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    use crate::kernel::avx2;
    let k = ctx.k;
    let keys_only = std::mem::size_of::<D>() == 0;
    let ndirs = k.dirs.len();
    let mut acc = w.acc;
    let mut vals = [0u64; 256 + 4];
    let mut moves = [0u8; 256 + 8];
    let mut legal = [0u64; 8];
    for (h, full, norm) in src {
        let key = ctx.mixer.unmix(h);
        let im = avx2::images_legal(k, key, &mut legal);
        let dead = legal[..ndirs].iter().all(|&l| l == 0);
        let (tw, nw) = (full.to_u128(), norm.to_u128());
        if keys_only {
            acc.classes += 1;
        } else {
            let fixed = avx2::fixed(k, &im, key);
            let size = u64::from(k.class_sizes[fixed as usize]);
            tally(ctx, &mut acc, key, size, tw, nw, dead)?;
        }
        if dead || !ctx.emit {
            continue;
        }
        // The successors' normal forms, without those the pruning test drops.
        let n = avx2::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals);
        if n == 0 {
            continue;
        }
        if keys_only {
            for &v in &vals[..n] {
                w.emit(ctx, v, 0);
            }
            acc.records += n as u64;
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        if avx2::near_symmetric(k, &im, key) {
            acc.records += emit_sorted(ctx, w, &mut vals[..n], td, nd)?;
            continue;
        }
        let src = w.source(td, nd);
        for &v in &vals[..n] {
            w.emit(ctx, v, src);
        }
        acc.records += n as u64;
    }
    w.acc = acc;
    Ok(())
}

pub(crate) fn expand_dispatch<K: TableKey, S: Counter, D: Counter>(
    portable: bool,
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    #[cfg(target_arch = "x86_64")]
    if !portable && crate::kernel::has_avx512() {
        // SAFETY: `has_avx512` checked that the CPU has the features `expand_avx512` is compiled for.
        return unsafe {
            if ctx.k.byte_moves() {
                expand_avx512::<K, S, D, u8>(ctx, src, w)
            } else {
                expand_avx512::<K, S, D, u32>(ctx, src, w)
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    if !portable && ctx.k.avx2_ok() && ctx.k.dgroups <= 2 {
        // SAFETY: `avx2_ok` checked that the CPU has the features `expand_avx2` is compiled for.
        return unsafe { expand_avx2(ctx, src, w) };
    }
    let _ = portable;
    expand(ctx, src, w)
}

/// Bytes of records per round, over all threads: about 3 million 8-byte records. Smaller rounds read every
/// table once more per round; bigger ones spread their records and source counters beyond the caches (on
/// the English board, rounds of 24 MiB are about 10% faster than rounds of 6 or 96 MiB).
const ROUND_BYTES: usize = 24 << 20;
/// Source blocks per task of the expand phase.
const TASK_BLOCKS: usize = 8;
/// Boards with at most this many holes keep 32-bit keys in tables and records (their partitions are made
/// small enough); bigger ones keep whole mixed keys.
pub(crate) const NARROW_KEY_BITS: u32 = 39;

/// Memory of the program itself, besides the levels, tables and buffers (code, thread stacks, allocator).
pub(crate) const BASE_BYTES: u64 = 16 << 20;

/// Records per round with keys of type `K`.
pub(crate) fn round_records<K: TableKey>() -> usize {
    ROUND_BYTES / std::mem::size_of::<Rec<K>>()
}

/// Classes of the tables being built per record of a round, at least. Each round reads every table it adds
/// to ([`Table::warm`]); with rounds of a fixed size, a level of `n` classes reads `n / round` times its
/// tables per record, so the merge's cost per record grew with the level (on the diamond, 50 ns a record
/// building 1.8 million classes, 384 ns building 64 million). Rounds of at least a quarter of the classes
/// being built keep that cost flat (measured: 90 to 97 ns from 5 to 64 million classes).
const CLASSES_PER_ROUND_RECORD: usize = 4;

/// Records per round for tables of about `classes` classes in all.
pub(crate) fn round_records_for<K: TableKey>(classes: usize) -> usize {
    round_records::<K>().max(classes / CLASSES_PER_ROUND_RECORD)
}

/// Bytes of a round's buffers for tables of about `classes` classes: records (with a quarter of slack) and
/// source counters.
pub(crate) fn round_bytes<K: TableKey>(counter: usize, classes: usize) -> u64 {
    let recs = round_records_for::<K>(classes);
    (recs * std::mem::size_of::<Rec<K>>() * 5 / 4 + recs / 4 * 2 * counter) as u64
}

/// A level built with narrow or wide counters.
enum AnyBuilt<K, N> {
    Narrow(Built<K, N>),
    Wide(Built<K, u128>),
}

/// The tables of a level being built, the statistics of its source level, and the step's timings.
pub(crate) struct Built<K, D> {
    pub acc: Acc,
    pub tables: Vec<Table<K, D>>,
    /// Seconds spent expanding and merging, and the number of rounds.
    pub expand_secs: f64,
    pub merge_secs: f64,
    pub rounds: u32,
}

impl<K: TableKey, D: Counter> Built<K, D> {
    /// Freeze the tables (sorted, packed) into the next level; the source level's statistics. The timings of
    /// the step go into `step`.
    fn freeze(self, out: Layout, pool: &Pool<K, D>, step: &mut StepStats) -> (Acc, Frozen<D>) {
        step.expand_secs = self.expand_secs;
        step.merge_secs = self.merge_secs;
        step.rounds = self.rounds;
        let t = std::time::Instant::now();
        let next = freeze(out, self.tables, pool);
        step.freeze_secs += t.elapsed().as_secs_f64();
        (self.acc, next)
    }

    /// The tables as they are (not frozen), as the next level; the source level's statistics.
    fn keep(self, out: Layout, step: &mut StepStats) -> (Acc, Tables<K, D>) {
        step.expand_secs = self.expand_secs;
        step.merge_secs = self.merge_secs;
        step.rounds = self.rounds;
        let tables = Tables {
            layout: out,
            tables: self.tables,
        };
        (self.acc, tables)
    }
}

/// Expand `src` into tables for the next level (the partitions `ctx` builds), in one pass.
fn build<K: TableKey, S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: Source<'_, K, S>,
    expected: usize,
    opts: &Options<'_>,
    pool: &Pool<K, D>,
) -> Result<Built<K, D>, StepError> {
    let mut b = Builder::new(ctx, expected, pool);
    b.feed(ctx, src, opts, 0)?;
    b.finish()
}

/// The tables of the partitions a pass builds (`ctx.first..ctx.first + ctx.parts` of the next level), filled
/// from one or more source levels or parts of one ([`Builder::feed`]): a level built in one go is fed its
/// whole source once; a spilling store feeds it the source level one stored bucket at a time.
pub(crate) struct Builder<'p, K: TableKey, D: Counter> {
    tables: Vec<Table<K, D>>,
    workers: Vec<Mutex<Worker<K, D>>>,
    pool: &'p Pool<K, D>,
    nthreads: usize,
    /// Seconds expanding, seconds merging, and rounds.
    timing: (f64, f64),
    rounds: u32,
    /// Records added so far (for the estimate of records per source).
    records: u64,
    per_source: f64,
    /// Pegs of the source level (for errors).
    pegs: u32,
    /// Classes expected in the partitions built.
    expected: usize,
}

impl<'p, K: TableKey, D: Counter> Builder<'p, K, D> {
    /// Empty tables for the partitions `ctx` builds, for a next level of about `expected` classes in all.
    pub(crate) fn new(ctx: &Ctx<'_>, expected: usize, pool: &'p Pool<K, D>) -> Builder<'p, K, D> {
        let out = ctx.out;
        let nparts = ctx.parts;
        let per_part = if ctx.emit {
            expected.div_ceil(out.parts())
        } else {
            0
        };
        let nthreads = rayon::current_num_threads().max(1);
        pool.trim(nparts, nparts * nthreads, nthreads, nthreads);
        // On both cores: arrays taken from the pool may have to grow, and fresh memory is zeroed.
        let tables: Vec<Table<K, D>> = (0..nparts)
            .into_par_iter()
            .map(|_| Table::new(out, per_part, pool))
            .collect();
        let workers = (0..nthreads)
            .map(|_| Mutex::new(Worker::with_buffers(Vec::new(), Vec::new())))
            .collect();
        Builder {
            tables,
            workers,
            pool,
            nthreads,
            timing: (0.0, 0.0),
            rounds: 0,
            records: 0,
            per_source: 10.0,
            pegs: ctx.pegs,
            expected: per_part * nparts,
        }
    }

    /// Records added so far.
    pub(crate) fn records(&self) -> u64 {
        self.records
    }

    /// Expand `src` and add its records into the tables, in rounds. `held` counts memory held besides the
    /// source, the tables and the pool, for the memory limit.
    pub(crate) fn feed<S: Counter>(
        &mut self,
        ctx: &Ctx<'_>,
        src: Source<'_, K, S>,
        opts: &Options<'_>,
        held: u64,
    ) -> Result<(), StepError> {
        let nparts = ctx.parts;
        let nthreads = self.nthreads;
        let pool = self.pool;
        let total = src.len();
        let round = round_records_for::<K>(self.expected).min(total * 12 + 1024);
        let (per_buf, per_srcs) = if ctx.emit {
            (
                round / nthreads / nparts.max(1) * 5 / 4 + 16,
                round / nthreads / 6,
            )
        } else {
            (0, 0)
        };
        for m in &mut self.workers {
            let w = m.get_mut().unwrap_or_else(PoisonError::into_inner);
            if w.bufs.len() != nparts {
                w.bufs = (0..nparts).map(|_| pool.take_buf(per_buf)).collect();
                w.srcs = pool.take_srcs(per_srcs);
            }
        }
        let tables = &mut self.tables;
        // Every block of the source level, in key order: (partition, block).
        let blocks = src.blocks();
        // Classes a block holds on average (fewer than `BLOCK` in tables, which have empty slots).
        let per_block = (total as f64 / blocks.len().max(1) as f64).max(1.0);
        let mut next = 0usize;
        let mut consumed = 0usize;
        while next < blocks.len() {
            if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(CountError::Cancelled.into());
            }
            let want = (round as f64 / self.per_source / per_block) as usize;
            let nb = want.clamp(1, blocks.len() - next);
            let range = &blocks[next..next + nb];
            next += nb;
            let t0 = std::time::Instant::now();
            let workers = &self.workers;
            let task = |chunk: &[(usize, usize)]| -> Result<(), StepError> {
                let i = rayon::current_thread_index().unwrap_or(0) % nthreads;
                let mut w = workers[i].lock().unwrap_or_else(PoisonError::into_inner);
                let mut c = 0;
                while c < chunk.len() {
                    // Consecutive blocks of one partition are read in one go.
                    let (q, b) = chunk[c];
                    let mut e = c + 1;
                    while e < chunk.len() && chunk[e].0 == q {
                        e += 1;
                    }
                    src.expand(opts.portable, ctx, q, b, b + (e - c), &mut w)?;
                    w.flush(ctx);
                    c = e;
                }
                Ok(())
            };
            if nthreads == 1 {
                range.chunks(TASK_BLOCKS).try_for_each(task)?;
            } else {
                range.par_chunks(TASK_BLOCKS).try_for_each(task)?;
            }
            let t1 = std::time::Instant::now();
            let views: Vec<&Worker<K, D>> = self
                .workers
                .iter_mut()
                .map(|m| &*m.get_mut().unwrap_or_else(PoisonError::into_inner))
                .collect();
            let sources: usize = range.iter().map(|&(q, b)| src.block_len(q, b)).sum();
            consumed += sources;
            // The records kept in this pass (those of the partitions it builds).
            let now: u64 = views
                .iter()
                .map(|w| w.bufs.iter().map(Vec::len).sum::<usize>() as u64)
                .sum();
            self.per_source = (now as f64 / sources.max(1) as f64).max(0.25) * 1.05;
            self.records += now;
            if ctx.emit {
                let merge = |(q, t): (usize, &mut Table<K, D>)| merge_part(t, &views, q);
                if nthreads == 1 {
                    tables.iter_mut().enumerate().try_for_each(merge)
                } else {
                    tables.par_iter_mut().enumerate().try_for_each(merge)
                }
                .ok_or(StepError::Narrow)?;
            }
            let buf_bytes: u64 = views.iter().map(|w| w.bytes()).sum();
            drop(views);
            for m in &mut self.workers {
                let w = m.get_mut().unwrap_or_else(PoisonError::into_inner);
                for b in &mut w.bufs {
                    b.clear();
                }
                w.srcs.clear();
            }
            self.timing.0 += (t1 - t0).as_secs_f64();
            self.timing.1 += t1.elapsed().as_secs_f64();
            self.rounds += 1;
            if let Some(limit) = opts.max_memory {
                let table_bytes: u64 = tables.iter().map(Table::bytes).sum();
                let used = src.bytes() + table_bytes + buf_bytes + pool.bytes() + held;
                if used > limit {
                    // The tables so far, extrapolated to the whole source level.
                    let needed = src.bytes()
                        + buf_bytes
                        + pool.bytes()
                        + held
                        + (table_bytes as f64 * total as f64 / consumed.max(1) as f64) as u64;
                    return Err(CountError::MemoryLimit {
                        pegs: next_pegs(ctx.k, ctx.pegs),
                        needed: needed.max(used),
                        limit,
                        classes_so_far: 0,
                    }
                    .into());
                }
            }
        }
        Ok(())
    }

    /// The tables, the statistics of everything fed, and the timings; the buffers go back to the pool.
    pub(crate) fn finish(self) -> Result<Built<K, D>, StepError> {
        let mut acc = Acc::default();
        for m in self.workers {
            let w = m.into_inner().unwrap_or_else(PoisonError::into_inner);
            acc = acc.merge(w.acc, self.pegs)?;
            for b in w.bufs {
                self.pool.give_buf(b);
            }
            self.pool.give_srcs(w.srcs);
        }
        Ok(Built {
            acc,
            tables: self.tables,
            expand_secs: self.timing.0,
            merge_secs: self.timing.1,
            rounds: self.rounds,
        })
    }
}

/// Add one round's records of partition `q` into its table.
fn merge_part<K: TableKey, D: Counter>(
    t: &mut Table<K, D>,
    views: &[&Worker<K, D>],
    q: usize,
) -> Option<()> {
    let n: usize = views.iter().map(|w| w.bufs[q].len()).sum();
    if n > 0 {
        if warm_worth(t, n) {
            t.warm();
        }
        for w in views {
            t.add_recs(&w.bufs[q], &w.srcs)?;
        }
    }
    Some(())
}

/// Whether reading a table into the cache before adding `n` records to it pays: when the records touch at
/// least half as many cache lines at random as the table has (a round's records over a table far bigger
/// than they are would read all of it for a few of its lines).
fn warm_worth<K: TableKey, D: Counter>(t: &Table<K, D>, n: usize) -> bool {
    2 * n as u64 >= t.bytes() / 64
}

/// Number of entries of block `b` of a partition.
pub(crate) fn block_len<C: Counter>(p: &Part<C>, b: usize) -> usize {
    (p.len() - b * BLOCK).min(BLOCK)
}

/// Sort and freeze the tables of a built level.
fn freeze<K: TableKey, D: Counter>(
    out: Layout,
    tables: Vec<Table<K, D>>,
    pool: &Pool<K, D>,
) -> Frozen<D> {
    let parts = tables
        .into_par_iter()
        .enumerate()
        .map(|(q, t)| t.freeze(q, &out, pool))
        .collect();
    Frozen { layout: out, parts }
}

/// The number of pegs of the level after one with `pegs` pegs.
pub(crate) fn next_pegs(k: &Kernel, pegs: u32) -> u32 {
    if k.reverse {
        pegs + 1
    } else {
        pegs.saturating_sub(1)
    }
}

/// Enumerate the problem level by level with the fast engine.
pub fn count(problem: &Problem, opts: &Options<'_>) -> Result<Count, CountError> {
    match opts.counter_width {
        CounterWidth::U64 => count_with::<u64>(problem, opts),
        CounterWidth::U16 => count_with::<u16>(problem, opts),
        CounterWidth::U128 => count_with::<u128>(problem, opts),
    }
}

fn count_with<N: Counter>(problem: &Problem, opts: &Options<'_>) -> Result<Count, CountError> {
    let board = problem.board();
    let k = Kernel::new(board, problem.group());
    let finish_key = match problem.finish() {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
    };
    let starts = [problem.start().bits()];
    let Finish::Hole(h) = problem.finish() else {
        let (levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, None)?;
        return Count::from_levels(k.group_size, levels, sf, sn);
    };
    if opts.max_levels.is_some() {
        let (levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, None)?;
        return Count::from_levels(k.group_size, levels, sf, sn);
    }
    if board.position_class(problem.start()) != board.position_class(Position::EMPTY.with_peg(h)) {
        // Play keeps the position class: no reachable position can finish on `h`.
        let (mut levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, None)?;
        for l in &mut levels {
            l.finishable = Some(0);
            l.finishable_classes = Some(0);
        }
        return Count::from_levels(k.group_size, levels, sf, sn);
    }
    // With a finish hole: also the reachable positions from which it can still be reached, level by level.
    // That is the problem's finishable set ([`crate::Finishable`]), found first by meeting in the middle (a
    // small part of the cost of the table), and dropped before the table is built.
    let rows = crate::finishable::Finishable::build(problem, opts)?
        .levels()
        .to_vec();
    let (mut levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, None)?;
    for l in &mut levels {
        let row = rows.iter().find(|r| r.pegs == l.pegs);
        l.finishable = Some(row.map_or(0, |r| r.positions));
        l.finishable_classes = Some(row.map_or(0, |r| r.classes));
    }
    Count::from_levels(k.group_size, levels, sf, sn)
}

/// A callback given each level before it is expanded: its number of pegs and the level.
pub(crate) type OnLevel<'a, N> = dyn FnMut(u32, &AnyFrozen<N>) -> Result<(), CountError> + 'a;

/// The expected size of the next level from the sizes so far: the last growth ratio, corrected by how it
/// changed from the one before.
pub(crate) fn estimate(hist: &[usize]) -> usize {
    let n = hist.len();
    let cur = hist[n - 1] as f64;
    if n < 2 {
        return (cur * 8.0) as usize + 16;
    }
    let r1 = cur / hist[n - 2].max(1) as f64;
    let r = if n >= 3 {
        let r0 = hist[n - 2] as f64 / hist[n - 3].max(1) as f64;
        (r1 * r1 / r0).clamp(r1 * 0.6, r1 * 1.4)
    } else {
        r1
    };
    (cur * r * 1.03) as usize + 16
}

/// Enumerate level by level from `starts` (positions with the same number of pegs), normalized with the
/// kernel's group, with the kernel's jumps (forward, or taken back), giving each level to `on_level` (when
/// there is one) before it is expanded. Returns the levels and the solution counts.
pub(crate) fn run<N: Counter>(
    k: &Kernel,
    starts: &[u64],
    finish_key: Option<u64>,
    opts: &Options<'_>,
    on_level: Option<&mut OnLevel<'_, N>>,
) -> Result<(Vec<Level>, u128, u128), CountError> {
    if narrow_keys(k) {
        run_with::<N, u32>(k, starts, finish_key, opts, on_level)
    } else {
        run_with::<N, u64>(k, starts, finish_key, opts, on_level)
    }
}

/// Whether a board's levels are built with 32-bit keys in tables and records (see [`NARROW_KEY_BITS`]).
pub(crate) fn narrow_keys(k: &Kernel) -> bool {
    k.holes as u32 <= NARROW_KEY_BITS
}

fn run_with<N: Counter, K: TableKey>(
    k: &Kernel,
    starts: &[u64],
    finish_key: Option<u64>,
    opts: &Options<'_>,
    mut on_level: Option<&mut OnLevel<'_, N>>,
) -> Result<(Vec<Level>, u128, u128), CountError> {
    let mut walk = Walk::<N, K>::new(k, starts, finish_key)?;
    if on_level.is_none() {
        // Nothing looks at the levels: each is expanded straight from the tables it was merged into.
        walk.leave_unfrozen();
    }
    let mut levels: Vec<Level> = Vec::new();
    let (mut sol_full, mut sol_normal) = (0u128, 0u128);
    let limit = opts.max_levels.unwrap_or(usize::MAX);
    while walk.len() > 0 && levels.len() < limit {
        if let Some(f) = on_level.as_deref_mut() {
            f(walk.pegs(), walk.level())?;
        }
        let last = levels.len() + 1 == limit || walk.at_end();
        let step = walk.step(opts, !last, false)?;
        sol_full = add(sol_full, step.sol_full, step.level.pegs)?;
        sol_normal = add(sol_normal, step.sol_normal, step.level.pegs)?;
        if let Some(p) = opts.progress {
            p(&step.level);
        }
        levels.push(step.level);
    }
    Ok((levels, sol_full, sol_normal))
}

/// What one [`Walk::step`] found: the statistics of the level expanded, its solutions (at one peg), and the
/// level itself when it was asked for.
pub(crate) struct Stepped<N> {
    pub level: Level,
    pub sol_full: u128,
    pub sol_normal: u128,
    pub source: Option<AnyFrozen<N>>,
}

/// A level-by-level enumeration, one level at a time: the current level (classes and their counters), and
/// the memory kept from level to level. [`Walk::step`] expands the current level into the next. Forward
/// (jumps) or backward (jumps taken back) as the kernel says.
pub(crate) struct Walk<'a, N: Counter, K: TableKey> {
    k: &'a Kernel,
    mixer: Mixer,
    /// With 32-bit keys, a key's bits inside its partition must fit: at least this many partition bits.
    min_pbits: u32,
    finish_key: Option<u64>,
    pegs: u32,
    level: AnyFrozen<N>,
    /// The current level when it was left in its tables (`level` is then empty).
    tables: Option<AnyTables<K, N>>,
    /// Whether each level built is left in its tables (see [`Walk::leave_unfrozen`]).
    unfrozen: bool,
    /// The sizes of the levels so far (for the estimate of the next).
    hist: Vec<usize>,
    /// Classes of the last level built per class expanded, when the level was then replaced by a part of it
    /// ([`Walk::set_level`]): the estimate of the next level for a walk whose levels are cut down.
    growth: Option<f64>,
    restricted: bool,
    classes_so_far: u64,
    pool: Pool<K, N>,
    wide_pool: Pool<K, u128>,
}

impl<'a, N: Counter, K: TableKey> Walk<'a, N, K> {
    /// A walk from the positions `starts` (all with the same number of pegs), each with path counts of one.
    pub fn new(
        k: &'a Kernel,
        starts: &[u64],
        finish_key: Option<u64>,
    ) -> Result<Walk<'a, N, K>, CountError> {
        let mixer = Mixer::new(k.holes as u32);
        let one = N::from_u128(1).ok_or(CountError::Overflow { pegs: 0 })?;
        let first: Vec<Slot<N>> = starts
            .iter()
            .map(|&s| Slot {
                h: mixer.mix(k.normalize(s).0),
                full: one,
                norm: one,
            })
            .collect();
        let pegs = starts.first().map_or(0, |s| s.count_ones());
        let level = Frozen::from_entries(k.holes as u32, first);
        Ok(Walk::from_level(k, level, pegs, finish_key))
    }

    /// A walk from a stored level (normalized with the kernel's group) of positions with `pegs` pegs.
    pub fn from_level(
        k: &'a Kernel,
        level: Frozen<N>,
        pegs: u32,
        finish_key: Option<u64>,
    ) -> Walk<'a, N, K> {
        let bits = k.holes as u32;
        let min_pbits = if K::fits(64) {
            0
        } else {
            bits.saturating_sub(31)
        };
        Walk {
            k,
            mixer: Mixer::new(bits),
            min_pbits,
            finish_key,
            pegs,
            level: AnyFrozen::Narrow(level),
            tables: None,
            unfrozen: false,
            hist: Vec::new(),
            growth: None,
            restricted: false,
            classes_so_far: 0,
            pool: Pool::new(),
            wide_pool: Pool::new(),
        }
    }

    /// Number of pegs of the current level.
    pub fn pegs(&self) -> u32 {
        self.pegs
    }

    /// Leave each level built in the tables its records were merged into, instead of freezing it (sorted,
    /// packed): for a walk that only expands each level into the next, and never asks for [`Walk::level`].
    /// The next step reads the tables directly; they take about twice the memory of a frozen level.
    pub fn leave_unfrozen(&mut self) {
        self.unfrozen = true;
    }

    /// Freeze the current level if it was left in its tables; the seconds it took.
    fn settle(&mut self) -> f64 {
        let start = std::time::Instant::now();
        match self.tables.take() {
            Some(AnyTables::Narrow(t)) => self.level = AnyFrozen::Narrow(t.freeze(&self.pool)),
            Some(AnyTables::Wide(t)) => self.level = AnyFrozen::Wide(t.freeze(&self.wide_pool)),
            None => {}
        }
        start.elapsed().as_secs_f64()
    }

    /// The current level (frozen: not for a walk that leaves its levels unfrozen).
    pub fn level(&self) -> &AnyFrozen<N> {
        debug_assert!(self.tables.is_none(), "the level was left in its tables");
        &self.level
    }

    /// Number of classes of the current level.
    pub fn len(&self) -> usize {
        self.tables
            .as_ref()
            .map_or_else(|| self.level.len(), AnyTables::len)
    }

    /// Bytes of the current level.
    fn level_bytes(&self) -> u64 {
        self.tables
            .as_ref()
            .map_or_else(|| self.level.bytes(), AnyTables::bytes)
    }

    /// The current level, ending the walk.
    pub fn into_level(mut self) -> AnyFrozen<N> {
        self.settle();
        self.level
    }

    /// Replace the current level (for example by a part of it), keeping the walk's memory.
    pub fn set_level(&mut self, level: AnyFrozen<N>) {
        self.restricted = true;
        self.recycle_tables();
        let old = std::mem::replace(&mut self.level, level);
        recycle(old, &self.pool, &self.wide_pool);
    }

    /// Give the tables of the current level, if it was left in them, back to the pools.
    fn recycle_tables(&mut self) {
        match self.tables.take() {
            Some(AnyTables::Narrow(t)) => t.recycle(&self.pool),
            Some(AnyTables::Wide(t)) => t.recycle(&self.wide_pool),
            None => {}
        }
    }

    /// Bytes held by the walk: the current level and the memory kept for the levels to come.
    pub fn bytes(&self) -> u64 {
        self.level_bytes() + self.pool.bytes() + self.wide_pool.bytes()
    }

    /// Whether the current level is the last one a walk can have (one peg forward, a full board backward).
    pub fn at_end(&self) -> bool {
        (!self.k.reverse && self.pegs <= 1)
            || (self.k.reverse && self.pegs as usize >= self.k.holes)
    }

    /// The memory a step needs (an estimate), for a next level of about `expected` classes.
    fn step_bytes(&self, expected: usize, last: bool) -> u64 {
        let wide = matches!(self.tables, Some(AnyTables::Wide(_)))
            || matches!(self.level, AnyFrozen::Wide(_));
        let (slot, counter) = match wide {
            false => (
                std::mem::size_of::<K>() + 2 * std::mem::size_of::<N>(),
                std::mem::size_of::<N>(),
            ),
            true => (std::mem::size_of::<K>() + 32, 16),
        };
        // While the next level is built: this level, the tables (with their spare slots) and a round's
        // buffers; while it is frozen, the frozen next level (about as many bytes a class as this one)
        // instead of this level. Memory kept from the level before counts where it is more than they need;
        // then 5% for the allocator and a few MiB for the program itself (measured on the English board: the
        // peaks come within 3% below the estimates). A level left in its tables counts as its tables, and
        // so does the next level (it is left in its tables too, or frozen into less): there the English
        // peaks come 6-8% below the estimates.
        let tables = (expected as f64 / INIT_LOAD * 1.07) as u64 * slot as u64;
        let bufs = if last {
            0
        } else {
            round_bytes::<K>(counter, expected)
        };
        let (held_t, held_b) = self.pool.held();
        let (wide_t, wide_b) = self.wide_pool.held();
        let level_bytes = self.level_bytes();
        let per_class = level_bytes as f64 / self.len().max(1) as f64;
        let frozen = level_bytes.max((expected as f64 * per_class) as u64);
        (frozen + (held_t + wide_t).max(tables) + (held_b + wide_b).max(bufs)) / 20 * 21
            + BASE_BYTES
    }

    /// Expand the current level: its statistics, and (with `emit`) the next level, which becomes the current
    /// one. With `keep`, the level expanded is handed back instead of being recycled.
    pub fn step(
        &mut self,
        opts: &Options<'_>,
        emit: bool,
        keep: bool,
    ) -> Result<Stepped<N>, CountError> {
        self.step_filtered(opts, emit, keep, None)
    }

    /// [`Walk::step`], keeping of the next level only the classes `filter` may hold (and a few more: it is a
    /// filter; the caller intersects the level with what it stands for).
    pub fn step_filtered(
        &mut self,
        opts: &Options<'_>,
        emit: bool,
        keep: bool,
        filter: Option<&KeyFilter>,
    ) -> Result<Stepped<N>, CountError> {
        // A level handed back, or filtered, is frozen first.
        let settled = if keep || filter.is_some() {
            self.settle()
        } else {
            0.0
        };
        let k = self.k;
        let pegs = self.pegs;
        let bits = k.holes as u32;
        let sources = self.len();
        self.hist.push(sources);
        let last = !emit;
        let expected = match (last, self.restricted, self.growth) {
            (true, _, _) => 0,
            // A level cut down grows like the one before it did before it was cut.
            (false, true, Some(g)) => (sources as f64 * g * 1.05) as usize + 16,
            _ => estimate(&self.hist),
        };
        let ctx = Ctx {
            k,
            mixer: self.mixer,
            pegs,
            finish_key: self.finish_key,
            out: Layout::for_size(bits, expected, PART_TARGET, self.min_pbits),
            emit,
            filter,
            first: 0,
            parts: 0,
        };
        let ctx = Ctx {
            parts: ctx.out.parts(),
            ..ctx
        };
        let mut step = StepStats {
            pegs,
            sources: sources as u64,
            expected: expected as u64,
            freeze_secs: settled,
            ..StepStats::default()
        };
        if let Some(limit) = opts.max_memory {
            let mut needed = self.step_bytes(expected, last);
            if needed > limit && self.tables.is_some() {
                // Frozen, the level takes about half the memory of its tables.
                step.freeze_secs += self.settle();
                // The pools now hold the arrays of two levels of tables: one is all the step needs.
                let nthreads = rayon::current_num_threads().max(1);
                let nparts = ctx.out.parts();
                self.pool
                    .trim(nparts, nparts * nthreads, nthreads, nthreads);
                self.wide_pool
                    .trim(nparts, nparts * nthreads, nthreads, nthreads);
                needed = self.step_bytes(expected, last);
            }
            step.estimate_bytes = Some(needed);
            if needed > limit {
                return Err(CountError::MemoryLimit {
                    pegs: next_pegs(k, pegs),
                    needed,
                    limit,
                    classes_so_far: self.classes_so_far + sources as u64,
                });
            }
        }
        let t = std::time::Instant::now();
        // Classes known when a step stops: the levels expanded, and the one being expanded.
        let known = self.classes_so_far + sources as u64;
        let fix = |e: StepError| match e {
            StepError::Narrow => CountError::Overflow {
                pegs: next_pegs(k, pegs),
            },
            StepError::Fatal(e) => fix_mem(e, known),
        };
        let (pool, wide_pool) = (&self.pool, &self.wide_pool);
        // The source level: narrow counters (`Ok`) or wide ones (`Err`).
        let source = match (&self.tables, &self.level) {
            (Some(AnyTables::Narrow(t)), _) => Ok(Source::Tables(t)),
            (Some(AnyTables::Wide(t)), _) => Err(Source::Tables(t)),
            (None, AnyFrozen::Narrow(f)) => Ok(Source::Frozen(f)),
            (None, AnyFrozen::Wide(f)) => Err(Source::Frozen(f)),
        };
        let built = match source {
            Ok(src) => match build::<K, N, N>(&ctx, src, expected, opts, pool) {
                Ok(b) => AnyBuilt::Narrow(b),
                Err(StepError::Narrow) => {
                    step.rebuilt_wide = true;
                    AnyBuilt::Wide(
                        build::<K, N, u128>(&ctx, src, expected, opts, wide_pool).map_err(fix)?,
                    )
                }
                Err(e) => return Err(fix(e)),
            },
            Err(src) => AnyBuilt::Wide(
                build::<K, u128, u128>(&ctx, src, expected, opts, wide_pool).map_err(fix)?,
            ),
        };
        // The level expanded is given back (or recycled) before the next is frozen, so that freezing can
        // reuse its memory.
        self.recycle_tables();
        let empty = AnyFrozen::Narrow(Frozen::empty(bits));
        let source = std::mem::replace(&mut self.level, empty);
        let source = if keep {
            Some(source)
        } else {
            recycle(source, &self.pool, &self.wide_pool);
            None
        };
        let unfrozen = self.unfrozen && !keep && filter.is_none();
        let acc = match built {
            AnyBuilt::Narrow(b) if unfrozen => {
                let (acc, next) = b.keep(ctx.out, &mut step);
                self.tables = Some(AnyTables::Narrow(next));
                acc
            }
            AnyBuilt::Wide(b) if unfrozen => {
                let (acc, next) = b.keep(ctx.out, &mut step);
                self.tables = Some(AnyTables::Wide(next));
                acc
            }
            AnyBuilt::Narrow(b) => {
                let (acc, next) = b.freeze(ctx.out, &self.pool, &mut step);
                self.level = AnyFrozen::Narrow(next);
                acc
            }
            AnyBuilt::Wide(b) => {
                let (acc, next) = b.freeze(ctx.out, &self.wide_pool, &mut step);
                self.level = AnyFrozen::Wide(next);
                acc
            }
        };
        self.restricted = false;
        self.growth = Some(self.len() as f64 / sources.max(1) as f64);
        let stats = Level {
            pegs,
            positions: acc.positions,
            classes: acc.classes,
            paths_full: acc.paths_full,
            paths_normal: acc.paths_normal,
            dead_ends: acc.dead,
            dead_end_classes: acc.dead_classes,
            games_full: acc.games_full,
            games_normal: acc.games_normal,
            finishable: None,
            finishable_classes: None,
        };
        self.classes_so_far += acc.classes;
        if let Some(sink) = opts.stats {
            step.records = acc.records;
            step.next_classes = self.len() as u64;
            step.next_bytes = self.level_bytes();
            step.left_in_tables = self.tables.is_some();
            step.total_secs = t.elapsed().as_secs_f64();
            sink(&step);
        }
        self.pegs = next_pegs(k, pegs);
        Ok(Stepped {
            level: stats,
            sol_full: acc.sol_full,
            sol_normal: acc.sol_normal,
            source,
        })
    }
}

/// Give the memory of a level no longer needed to the pool of its counter type.
fn recycle<K: TableKey, N: Counter>(level: AnyFrozen<N>, pool: &Pool<K, N>, wide: &Pool<K, u128>) {
    match level {
        AnyFrozen::Narrow(f) => pool.recycle(f),
        AnyFrozen::Wide(f) => wide.recycle(f),
    }
}

fn fix_mem(e: CountError, classes: u64) -> CountError {
    match e {
        CountError::MemoryLimit {
            pegs,
            needed,
            limit,
            ..
        } => CountError::MemoryLimit {
            pegs,
            needed,
            limit,
            classes_so_far: classes,
        },
        e => e,
    }
}

/// Keys-only enumeration, for the finish tables.
pub(crate) type KeyLevel = Frozen<NoCount>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::sync::atomic::AtomicUsize;

    /// What `run` gives: the levels and the two solution counts.
    type Run = (Vec<Level>, u128, u128);

    /// `run` with each level left in its tables (nothing looks at the levels) and with each level frozen
    /// (a callback looks at them): the levels and solution counts, and how many steps left their level in
    /// its tables.
    fn both_ways<N: Counter>(p: &Problem, levels: Option<usize>) -> (Run, Run, usize) {
        let k = Kernel::new(p.board(), p.group());
        let starts = [p.start().bits()];
        let left = AtomicUsize::new(0);
        let sink = |s: &StepStats| {
            left.fetch_add(usize::from(s.left_in_tables), Ordering::Relaxed);
        };
        let opts = Options {
            max_levels: levels,
            stats: Some(&sink),
            ..Options::default()
        };
        let unfrozen = run::<N>(&k, &starts, None, &opts, None).unwrap();
        let left_unfrozen = left.swap(0, Ordering::Relaxed);
        let mut seen = 0;
        let frozen = run::<N>(
            &k,
            &starts,
            None,
            &opts,
            Some(&mut |_, _| {
                seen += 1;
                Ok(())
            }),
        )
        .unwrap();
        assert_eq!(seen, frozen.0.len());
        assert_eq!(
            left.load(Ordering::Relaxed),
            0,
            "a level looked at was left in its tables"
        );
        (unfrozen, frozen, left_unfrozen)
    }

    /// Levels expanded straight from their tables count exactly as frozen ones: 32-bit keys (triangle,
    /// English) and whole keys (diamond), `u64` counters and `u16` ones (which overflow within a few levels:
    /// those levels are rebuilt with `u128` counters from a source level still in its tables, and the levels
    /// after are left in wide tables).
    #[test]
    fn levels_left_in_tables_count_as_frozen_ones() {
        for (name, levels) in [
            ("triangle", None),
            ("english", Some(13)),
            ("diamond", Some(8)),
        ] {
            let p = Problem::standard(Board::builtin(name).unwrap());
            let (unfrozen, frozen, left) = both_ways::<u64>(&p, levels);
            assert_eq!(unfrozen, frozen, "{name}");
            assert!(
                left + 2 >= unfrozen.0.len(),
                "{name}: {left} levels left in tables"
            );
            let (narrow, frozen16, left16) = both_ways::<u16>(&p, levels);
            assert_eq!(narrow, frozen16, "{name}, u16");
            assert_eq!(narrow, unfrozen, "{name}, u16 against u64");
            assert!(left16 + 2 >= unfrozen.0.len(), "{name}, u16: {left16}");
            assert!(
                narrow.0.iter().any(|l| l.paths_full > u128::from(u16::MAX)),
                "{name}: the u16 counters never overflowed"
            );
        }
    }
}
