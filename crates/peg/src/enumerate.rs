//! The fast level-by-level enumeration.
//!
//! Each level (all positions with the same number of pegs) is stored as normal forms (the smallest image under
//! the symmetry group) with two path counters: the *class total* of the full tree (the number of move sequences
//! from the start to any position of the class) and the normal-tree count. The next level is built in rounds:
//!
//! 1. *expand* (parallel over chunks of the source level): for each position, its images are computed once; each
//!    legal move gives a successor whose images are the position's images XOR the move's precomputed images, and
//!    whose normal form is their minimum. Successors of one position are sorted so that moves reaching the same
//!    class are merged (class total times multiplicity for the full tree, once for the normal tree), then each is
//!    emitted as a record into one of `2^p` partitions chosen by a hash of its key;
//! 2. *merge* (parallel over partitions): each partition's records are added into that partition's open-addressing
//!    table, small enough to stay in the CPU's cache.
//!
//! Counters are `u64` and a level whose sums overflow is rebuilt with `u128` counters (see [`crate::counter`]).
//! Memory is bounded: rounds are sized to a record budget, and before each level the memory it needs is
//! estimated and compared with the limit ([`Options::max_memory`]).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::count::{Count, CountError, Level, add};
use crate::counter::Counter;
use crate::kernel::{Isa, Kernel, LANES, Portable};
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

/// Settings of an enumeration.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Stop before a level whose estimated memory would pass this many bytes.
    pub max_memory: Option<u64>,
    /// Enumerate only this many levels (from the start down).
    pub max_levels: Option<usize>,
    /// Called after each level.
    pub progress: Option<Progress<'a>>,
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

/// One stored position: normal form and its two counters.
#[derive(Clone, Copy, Default, Debug)]
#[repr(C)]
pub(crate) struct Slot<C> {
    pub key: u64,
    pub full: C,
    pub norm: C,
}

/// A level: partitions of slots (empty keys are 0, never a position with a peg).
pub(crate) struct Store<C> {
    pub parts: Vec<Vec<Slot<C>>>,
}

impl<C: Counter> Store<C> {
    fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }
    fn bytes(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| (p.capacity() * std::mem::size_of::<Slot<C>>()) as u64)
            .sum()
    }
}

enum AnyStore<N> {
    Narrow(Store<N>),
    Wide(Store<u128>),
}

impl<N: Counter> AnyStore<N> {
    fn len(&self) -> usize {
        match self {
            AnyStore::Narrow(s) => s.len(),
            AnyStore::Wide(s) => s.len(),
        }
    }
    fn bytes(&self) -> u64 {
        match self {
            AnyStore::Narrow(s) => s.bytes(),
            AnyStore::Wide(s) => s.bytes(),
        }
    }
}

#[inline(always)]
fn mix(key: u64) -> u64 {
    (key ^ key >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[inline(always)]
fn partition(h: u64, pbits: u32) -> usize {
    if pbits == 0 { 0 } else { (h >> (64 - pbits)) as usize }
}

/// An open-addressing table of one partition of the level being built.
struct Table<C> {
    slots: Vec<Slot<C>>,
    len: usize,
    bits: u32,
    pbits: u32,
}

impl<C: Counter> Table<C> {
    fn new(expected: usize, pbits: u32) -> Self {
        let cap = (expected * 10 / 7).next_power_of_two().max(16);
        Table {
            slots: vec![Slot::default(); cap],
            len: 0,
            bits: cap.trailing_zeros(),
            pbits,
        }
    }

    #[inline(always)]
    fn index(&self, h: u64) -> usize {
        ((h << self.pbits) >> (64 - self.bits)) as usize
    }

    /// Add counters to `key`; `None` on overflow.
    #[inline(always)]
    fn add(&mut self, key: u64, full: C, norm: C) -> Option<()> {
        let mask = self.slots.len() - 1;
        let mut i = self.index(mix(key));
        loop {
            // Indices are masked to the table length (a power of two).
            let s = &mut self.slots[i];
            if s.key == key {
                s.full = s.full.add(full)?;
                s.norm = s.norm.add(norm)?;
                return Some(());
            }
            if s.key == 0 {
                *s = Slot { key, full, norm };
                self.len += 1;
                if self.len * 5 > self.slots.len() * 4 {
                    self.grow();
                }
                return Some(());
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.bits += 1;
        self.slots = vec![Slot::default(); 1 << self.bits];
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.key != 0) {
            let mut i = self.index(mix(s.key));
            while self.slots[i].key != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }

    fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<Slot<C>>()) as u64
    }

    /// The filled slots, compacted in place and shrunk.
    fn into_slots(self) -> Vec<Slot<C>> {
        let mut v = self.slots;
        v.retain(|s| s.key != 0);
        v.shrink_to_fit();
        v
    }
}

/// Statistics of a level gathered while expanding it.
#[derive(Default, Clone, Copy)]
struct Acc {
    positions: u64,
    classes: u64,
    paths_full: u128,
    paths_normal: u128,
    dead: u64,
    dead_classes: u64,
    games_full: u128,
    games_normal: u128,
    sol_full: u128,
    sol_normal: u128,
    records: u64,
}

impl Acc {
    fn merge(self, o: Acc, pegs: u32) -> Result<Acc, CountError> {
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
enum StepError {
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

/// The records of one chunk, grouped by target partition.
struct ChunkOut<D> {
    recs: Vec<Slot<D>>,
    offsets: Vec<u32>,
    acc: Acc,
}

/// Per-thread scratch space for expanding chunks.
struct Scratch<D> {
    recs: Vec<Slot<D>>,
    parts: Vec<u16>,
}

/// Context of one level step.
struct Ctx<'a> {
    k: &'a Kernel,
    pegs: u32,
    /// Normal form of the finish position (when the finish is a hole).
    finish_key: Option<u64>,
    pbits: u32,
}

/// Expand a chunk of source slots: statistics and records for the next level.
#[inline(always)]
fn expand<I: Isa, S: Counter, D: Counter>(
    isa: I,
    ctx: &Ctx<'_>,
    slots: &[Slot<S>],
    scratch: &mut Scratch<D>,
) -> Result<ChunkOut<D>, StepError> {
    let k = ctx.k;
    let pegs = ctx.pegs;
    let rows = k.rows;
    let nparts = 1usize << ctx.pbits;
    let mut acc = Acc::default();
    let mut moves = [0u16; 512];
    let mut succ = [0u64; 512];
    scratch.recs.clear();
    scratch.parts.clear();
    let mut hist = vec![0u32; nparts];
    for s in slots {
        if s.key == 0 {
            continue;
        }
        let key = s.key;
        let t = s.full;
        let n = s.norm;
        let mut imgs = [[0u64; LANES]; 2];
        let mut fixed = 0usize;
        for (row, im) in imgs.iter_mut().enumerate().take(rows) {
            *im = isa.images(k, key, row);
            for (lane, &img) in im.iter().enumerate() {
                fixed += usize::from(img == key && row * LANES + lane < k.group_size);
            }
        }
        let size = (k.group_size / fixed.max(1)) as u64;
        let tw = t.to_u128();
        let nw = n.to_u128();
        acc.positions += size;
        acc.classes += 1;
        acc.paths_full = add(acc.paths_full, tw, pegs)?;
        acc.paths_normal = add(acc.paths_normal, nw, pegs)?;
        // Legal moves.
        let mut nm = 0usize;
        for (j, (&need, &to)) in k.need.iter().zip(&k.to).enumerate() {
            moves[nm] = j as u16;
            nm += usize::from(key & need == need && key & to == 0);
        }
        if nm == 0 {
            acc.dead += size;
            acc.dead_classes += 1;
            acc.games_full = add(acc.games_full, tw, pegs)?;
            acc.games_normal = add(acc.games_normal, nw, pegs)?;
            if pegs == 1 {
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
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        for (i, &j) in moves[..nm].iter().enumerate() {
            let j = j as usize;
            let mut best = isa.min_xor(&imgs[0], &k.move_images[j * rows]);
            if rows > 1 {
                best = best.min(isa.min_xor(&imgs[1], &k.move_images[j * rows + 1]));
            }
            succ[i] = best;
        }
        // Insertion sort: a position has few moves.
        for i in 1..nm {
            let v = succ[i];
            let mut j = i;
            while j > 0 && succ[j - 1] > v {
                succ[j] = succ[j - 1];
                j -= 1;
            }
            succ[j] = v;
        }
        let mut i = 0;
        while i < nm {
            let v = succ[i];
            let mut j = i + 1;
            while j < nm && succ[j] == v {
                j += 1;
            }
            let full = td.mul((j - i) as u32).ok_or(StepError::Narrow)?;
            let p = partition(mix(v), ctx.pbits);
            hist[p] += 1;
            scratch.parts.push(p as u16);
            scratch.recs.push(Slot { key: v, full, norm: nd });
            i = j;
        }
    }
    acc.records = scratch.recs.len() as u64;
    // Group the records by partition (counting sort).
    let mut offsets = Vec::with_capacity(nparts + 1);
    let mut sum = 0u32;
    offsets.push(0);
    for h in &mut hist {
        let c = *h;
        *h = sum;
        sum += c;
        offsets.push(sum);
    }
    let mut recs = vec![Slot::default(); scratch.recs.len()];
    for (r, &p) in scratch.recs.iter().zip(&scratch.parts) {
        let p = p as usize;
        recs[hist[p] as usize] = *r;
        hist[p] += 1;
    }
    Ok(ChunkOut { recs, offsets, acc })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg,avx512vl,popcnt,bmi1,bmi2")]
fn expand_avx512<S: Counter, D: Counter>(
    isa: crate::kernel::Avx512,
    ctx: &Ctx<'_>,
    slots: &[Slot<S>],
    scratch: &mut Scratch<D>,
) -> Result<ChunkOut<D>, StepError> {
    expand(isa, ctx, slots, scratch)
}

fn expand_dispatch<S: Counter, D: Counter>(
    portable: bool,
    ctx: &Ctx<'_>,
    slots: &[Slot<S>],
    scratch: &mut Scratch<D>,
) -> Result<ChunkOut<D>, StepError> {
    #[cfg(target_arch = "x86_64")]
    if !portable && let Some(isa) = crate::kernel::Avx512::detect() {
        // SAFETY: `detect` checked that the CPU has the features `expand_avx512` is compiled for.
        return unsafe { expand_avx512(isa, ctx, slots, scratch) };
    }
    let _ = portable;
    expand(Portable, ctx, slots, scratch)
}

/// Sources per chunk.
const CHUNK: usize = 8192;
/// Records per round (bounds the memory of one round's records).
const ROUND_RECORDS: usize = 2 << 20;
/// Target entries per partition table (keeps a table in the CPU's L2 cache).
const PART_TARGET: usize = 16 << 10;

/// Build the next level from `src`. Returns the statistics of `src` and the new level.
fn step<S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: &Store<S>,
    expected: usize,
    opts: &Options<'_>,
    other_bytes: u64,
) -> Result<(Acc, Store<D>), StepError> {
    let pbits = ctx.pbits;
    let nparts = 1usize << pbits;
    let mut tables: Vec<Table<D>> = (0..nparts).map(|_| Table::new(expected / nparts, pbits)).collect();
    // Chunks of the source.
    let mut chunks: Vec<&[Slot<S>]> = Vec::new();
    for p in &src.parts {
        chunks.extend(p.chunks(CHUNK));
    }
    let mut acc = Acc::default();
    let mut ci = 0;
    let mut per_source = 12.0f64;
    let src_bytes = src.bytes();
    while ci < chunks.len() {
        if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(CountError::Cancelled.into());
        }
        // Take chunks until the estimated records fill a round.
        let mut end = ci;
        let mut est = 0.0;
        while end < chunks.len() && (end == ci || est < ROUND_RECORDS as f64) {
            est += chunks[end].len() as f64 * per_source;
            end += 1;
        }
        let outs: Vec<Result<ChunkOut<D>, StepError>> = chunks[ci..end]
            .par_iter()
            .map_init(
                || Scratch {
                    recs: Vec::new(),
                    parts: Vec::new(),
                },
                |scratch, slots| expand_dispatch(opts.portable, ctx, slots, scratch),
            )
            .collect();
        let outs: Vec<ChunkOut<D>> = outs.into_iter().collect::<Result<_, _>>()?;
        let mut sources = 0usize;
        for c in &chunks[ci..end] {
            sources += c.len();
        }
        let mut records = 0u64;
        for o in &outs {
            acc = acc.merge(o.acc, ctx.pegs)?;
            records += o.acc.records;
        }
        if sources > 0 {
            per_source = (records as f64 / sources as f64).max(0.5) * 1.05;
        }
        // Merge into the partition tables.
        tables
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(p, table)| -> Option<()> {
                for o in &outs {
                    let (a, b) = (o.offsets[p] as usize, o.offsets[p + 1] as usize);
                    for r in &o.recs[a..b] {
                        table.add(r.key, r.full, r.norm)?;
                    }
                }
                Some(())
            })
            .ok_or(StepError::Narrow)?;
        let rec_bytes: u64 = outs
            .iter()
            .map(|o| (o.recs.capacity() * std::mem::size_of::<Slot<D>>()) as u64)
            .sum();
        drop(outs);
        if let Some(limit) = opts.max_memory {
            let table_bytes: u64 = tables.iter().map(Table::bytes).sum();
            let used = other_bytes + src_bytes + table_bytes + rec_bytes;
            if used > limit {
                // Extrapolate the tables to the whole source.
                let done: usize = chunks[..end].iter().map(|c| c.len()).sum();
                let total: usize = chunks.iter().map(|c| c.len()).sum();
                let needed = other_bytes
                    + src_bytes
                    + rec_bytes
                    + (table_bytes as f64 * total as f64 / done.max(1) as f64) as u64;
                return Err(CountError::MemoryLimit {
                    pegs: ctx.pegs - 1,
                    needed,
                    limit,
                    classes_so_far: 0,
                }
                .into());
            }
        }
        ci = end;
    }
    let parts = tables.into_iter().map(Table::into_slots).collect();
    Ok((acc, Store { parts }))
}

fn convert<S: Counter>(s: Store<S>) -> Store<u128> {
    Store {
        parts: s
            .parts
            .into_iter()
            .map(|p| {
                p.into_iter()
                    .map(|x| Slot {
                        key: x.key,
                        full: x.full.to_u128(),
                        norm: x.norm.to_u128(),
                    })
                    .collect()
            })
            .collect(),
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
    let k = Kernel::new(problem.board(), problem.group());
    let start = k.normalize(problem.start().bits()).0;
    let finish_key = match problem.finish() {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
    };
    let one = N::from_u128(1).ok_or(CountError::Overflow { pegs: 0 })?;
    let mut store: AnyStore<N> = AnyStore::Narrow(Store {
        parts: vec![vec![Slot {
            key: start,
            full: one,
            norm: one,
        }]],
    });
    let mut levels: Vec<Level> = Vec::new();
    let mut pegs = problem.start().pegs();
    let (mut sol_full, mut sol_normal) = (0u128, 0u128);
    let mut prev_len = 1usize;
    let limit = opts.max_levels.unwrap_or(usize::MAX);
    let mut classes_so_far = 0u64;
    while store.len() > 0 && levels.len() < limit {
        let len = store.len();
        let growth = (len as f64 / prev_len.max(1) as f64).max(1.0);
        let expected = ((len as f64 * growth) as usize).max(16);
        let pbits = (expected / PART_TARGET).max(1).next_power_of_two().trailing_zeros().min(14);
        let ctx = Ctx {
            k: &k,
            pegs,
            finish_key,
            pbits,
        };
        let last = levels.len() + 1 == limit || pegs == 1;
        let expected = if last { 0 } else { expected };
        if let Some(limit) = opts.max_memory {
            let slot = if matches!(store, AnyStore::Wide(_)) { 40 } else { 24 };
            let needed = store.bytes() + (expected * slot * 10 / 7) as u64 + (ROUND_RECORDS * slot * 2) as u64;
            if needed > limit {
                return Err(CountError::MemoryLimit {
                    pegs: pegs - 1,
                    needed,
                    limit,
                    classes_so_far,
                });
            }
        }
        let src_len = len;
        let (acc, next) = match store {
            AnyStore::Narrow(src) => match step::<N, N>(&ctx, &src, expected, opts, 0) {
                Ok((acc, next)) => (acc, AnyStore::Narrow(next)),
                Err(StepError::Narrow) => {
                    let src = convert(src);
                    let (acc, next) = step_wide(&ctx, &src, expected, opts)?;
                    (acc, AnyStore::Wide(next))
                }
                Err(StepError::Fatal(e)) => return Err(fix_mem(e, classes_so_far)),
            },
            AnyStore::Wide(src) => {
                let (acc, next) = step_wide(&ctx, &src, expected, opts)?;
                (acc, AnyStore::Wide(next))
            }
        };
        let level = Level {
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
        classes_so_far += acc.classes;
        if std::env::var_os("PEG_DEBUG").is_some() { eprintln!("level {pegs}: {} classes, {} records", acc.classes, acc.records); }
        sol_full = add(sol_full, acc.sol_full, pegs)?;
        sol_normal = add(sol_normal, acc.sol_normal, pegs)?;
        if let Some(p) = opts.progress {
            p(&level);
        }
        levels.push(level);
        prev_len = src_len;
        store = next;
        pegs -= 1;
    }
    Count::from_levels(k.group_size, levels, sol_full, sol_normal)
}

fn fix_mem(e: CountError, classes: u64) -> CountError {
    match e {
        CountError::MemoryLimit {
            pegs, needed, limit, ..
        } => CountError::MemoryLimit {
            pegs,
            needed,
            limit,
            classes_so_far: classes,
        },
        e => e,
    }
}

fn step_wide(
    ctx: &Ctx<'_>,
    src: &Store<u128>,
    expected: usize,
    opts: &Options<'_>,
) -> Result<(Acc, Store<u128>), CountError> {
    match step::<u128, u128>(ctx, src, expected, opts, 0) {
        Ok(x) => Ok(x),
        Err(StepError::Narrow) => Err(CountError::Overflow { pegs: ctx.pegs - 1 }),
        Err(StepError::Fatal(e)) => Err(e),
    }
}
