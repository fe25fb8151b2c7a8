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
//! Counters are `u64` and a level whose sums overflow is rebuilt with `u128` counters.
//! Memory is bounded: rounds are sized to a record budget, and before each level the memory it needs is
//! estimated and compared with the limit ([`Options::max_memory`]).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::board::Symmetry;
use crate::count::{Count, CountError, Level, add};
use crate::counter::Counter;
use crate::finish::FinishTable;
use crate::kernel::{Isa, Kernel, LANES, Portable, min_successor};
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
    (key ^ key >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Hint the CPU to bring `x` into the cache.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never faults; the pointer comes from a reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (x as *const T).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The partition of a hashed key: the high 32 bits scaled to `nparts`.
#[inline(always)]
fn partition(h: u64, nparts: usize) -> usize {
    (((h >> 32) * nparts as u64) >> 32) as usize
}

/// An open-addressing table (linear probing) of one partition of the level being built.
struct Table<C> {
    slots: Vec<Slot<C>>,
    len: usize,
}

impl<C: Counter> Table<C> {
    fn new(expected: usize) -> Self {
        let cap = (expected * 4 / 3).max(16);
        Table {
            slots: vec![Slot::default(); cap],
            len: 0,
        }
    }

    /// The home slot of a hashed key: the low 32 bits scaled to the capacity.
    #[inline(always)]
    fn index(h: u64, cap: usize) -> usize {
        (((h & 0xFFFF_FFFF) * cap as u64) >> 32) as usize
    }

    /// Touch the table in order so that the random probes that follow hit the cache.
    fn warm(&self) {
        let mut x = 0u64;
        for s in self
            .slots
            .iter()
            .step_by(64 / std::mem::size_of::<Slot<C>>().min(64))
        {
            x ^= s.key;
        }
        std::hint::black_box(x);
    }

    /// Add counters to `key`; `None` on overflow.
    #[inline(always)]
    fn add(&mut self, key: u64, full: C, norm: C) -> Option<()> {
        let cap = self.slots.len();
        let mut i = Self::index(mix(key), cap);
        loop {
            let s = &mut self.slots[i];
            if s.key == key {
                s.full = s.full.add(full)?;
                s.norm = s.norm.add(norm)?;
                return Some(());
            }
            if s.key == 0 {
                *s = Slot { key, full, norm };
                self.len += 1;
                if self.len * 8 > cap * 7 {
                    self.grow();
                }
                return Some(());
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// Add a batch of records, prefetching the slots a few records ahead.
    #[inline(always)]
    fn add_all(&mut self, recs: &[Slot<C>]) -> Option<()> {
        const AHEAD: usize = 8;
        for (i, r) in recs.iter().enumerate() {
            if let Some(next) = recs.get(i + AHEAD) {
                let j = Self::index(mix(next.key), self.slots.len());
                prefetch(&self.slots[j]);
            }
            self.add(r.key, r.full, r.norm)?;
        }
        Some(())
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let cap = old.len() * 2;
        self.slots = vec![Slot::default(); cap];
        for s in old.into_iter().filter(|s| s.key != 0) {
            let mut i = Self::index(mix(s.key), cap);
            while self.slots[i].key != 0 {
                i += 1;
                if i == cap {
                    i = 0;
                }
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

/// One worker's output of a round: records by target partition, and statistics.
struct Worker<D> {
    bufs: Vec<Vec<Slot<D>>>,
    acc: Acc,
}

impl<D: Counter> Worker<D> {
    fn bytes(&self) -> u64 {
        self.bufs
            .iter()
            .map(|b| (b.capacity() * std::mem::size_of::<Slot<D>>()) as u64)
            .sum()
    }
}

/// Context of one level step.
struct Ctx<'a> {
    k: &'a Kernel,
    pegs: u32,
    /// Normal form of the finish position (when the finish is a hole).
    finish_key: Option<u64>,
    nparts: usize,
}

/// Expand source slots: statistics and records for the next level, into the worker's buffers.
#[inline(always)]
fn expand<I: Isa, S: Counter, D: Counter>(
    isa: I,
    ctx: &Ctx<'_>,
    slots: &[Slot<S>],
    w: &mut Worker<D>,
) -> Result<(), StepError> {
    let k = ctx.k;
    let pegs = ctx.pegs;
    let rows = k.rows;
    let mut acc = w.acc;
    let mut succ = [0u64; 512];
    for s in slots {
        let key = s.key;
        let mut imgs = [[0u64; LANES]; 2];
        let mut fixed = 0usize;
        for (row, im) in imgs.iter_mut().enumerate().take(rows) {
            *im = isa.images(k, key, row);
            for (lane, &img) in im.iter().enumerate() {
                fixed += usize::from(img == key && row * LANES + lane < k.group_size);
            }
        }
        let size = (k.group_size / fixed.max(1)) as u64;
        let tw = s.full.to_u128();
        let nw = s.norm.to_u128();
        acc.positions += size;
        acc.classes += 1;
        acc.paths_full = add(acc.paths_full, tw, pegs)?;
        acc.paths_normal = add(acc.paths_normal, nw, pegs)?;
        let legal = isa.legal(k, key);
        let mut vals = [0u64; 16];
        let mut mults = [0u64; 16];
        let nm = match isa.successors(k, &imgs, &legal, &mut vals, &mut mults) {
            Some(n) => n,
            None => {
                // More than 16 distinct successors: sort them all.
                let mut nm = 0;
                for (wi, &word) in legal.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let j = wi * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        succ[nm] = min_successor(isa, k, &imgs, j);
                        nm += 1;
                    }
                }
                succ[..nm].sort_unstable();
                usize::MAX - nm
            }
        };
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
        if nm < usize::MAX / 2 {
            acc.records += nm as u64;
            for i in 0..nm {
                emit(ctx, w, vals[i], td, nd, mults[i])?;
            }
        } else {
            let nm = usize::MAX - nm;
            let mut i = 0;
            while i < nm {
                let mut j = i + 1;
                while j < nm && succ[j] == succ[i] {
                    j += 1;
                }
                emit(ctx, w, succ[i], td, nd, (j - i) as u64)?;
                acc.records += 1;
                i = j;
            }
        }
    }
    w.acc = acc;
    Ok(())
}

/// Emit one record: successor `v` reached by `mult` moves from a position with counters `td`, `nd`.
#[inline(always)]
fn emit<D: Counter>(
    ctx: &Ctx<'_>,
    w: &mut Worker<D>,
    v: u64,
    td: D,
    nd: D,
    mult: u64,
) -> Result<(), StepError> {
    let full = if mult == 1 {
        td
    } else {
        td.mul(mult as u32).ok_or(StepError::Narrow)?
    };
    let p = partition(mix(v), ctx.nparts);
    w.bufs[p].push(Slot {
        key: v,
        full,
        norm: nd,
    });
    Ok(())
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg,avx512vl,popcnt,bmi1,bmi2")]
fn expand_avx512<S: Counter, D: Counter>(
    isa: crate::kernel::Avx512,
    ctx: &Ctx<'_>,
    slots: &[Slot<S>],
    w: &mut Worker<D>,
) -> Result<(), StepError> {
    expand(isa, ctx, slots, w)
}

fn expand_dispatch<S: Counter, D: Counter>(
    portable: bool,
    ctx: &Ctx<'_>,
    slots: &[Slot<S>],
    w: &mut Worker<D>,
) -> Result<(), StepError> {
    #[cfg(target_arch = "x86_64")]
    if !portable && let Some(isa) = crate::kernel::Avx512::detect() {
        // SAFETY: `detect` checked that the CPU has the features `expand_avx512` is compiled for.
        return unsafe { expand_avx512(isa, ctx, slots, w) };
    }
    let _ = portable;
    expand(Portable, ctx, slots, w)
}

/// Records per round (bounds the memory of one round's records).
const ROUND_RECORDS: usize = 3 << 20;
/// Target entries per partition table (a table of this many 24-byte slots at 3/4 load stays in L2).
const PART_TARGET: usize = 24 << 10;

/// Split the next `count` sources from the cursor `(part, offset)` into `n` groups of slices of about equal
/// size; advances the cursor.
fn take_sources<'a, S>(
    parts: &'a [Vec<Slot<S>>],
    cursor: &mut (usize, usize),
    count: usize,
    n: usize,
) -> Vec<Vec<&'a [Slot<S>]>> {
    let per = count.div_ceil(n).max(1);
    let mut groups = Vec::with_capacity(n);
    for _ in 0..n {
        let mut g = Vec::new();
        let mut need = per;
        while need > 0 && cursor.0 < parts.len() {
            let p = &parts[cursor.0];
            let take = need.min(p.len() - cursor.1);
            if take > 0 {
                g.push(&p[cursor.1..cursor.1 + take]);
            }
            need -= take;
            cursor.1 += take;
            if cursor.1 == p.len() {
                *cursor = (cursor.0 + 1, 0);
            }
        }
        groups.push(g);
    }
    groups
}

/// Build the next level from `src`. Returns the statistics of `src` and the new level.
fn step<S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: &Store<S>,
    expected: usize,
    opts: &Options<'_>,
) -> Result<(Acc, Store<D>), StepError> {
    let nparts = ctx.nparts;
    let mut tables: Vec<Table<D>> = (0..nparts).map(|_| Table::new(expected / nparts)).collect();
    let nworkers = rayon::current_num_threads().max(1);
    let mut workers: Vec<Worker<D>> = (0..nworkers)
        .map(|_| Worker {
            bufs: (0..nparts).map(|_| Vec::new()).collect(),
            acc: Acc::default(),
        })
        .collect();
    let total = src.len();
    let mut cursor = (0usize, 0usize);
    let mut consumed = 0usize;
    let mut per_source = 10.0f64;
    let src_bytes = src.bytes();
    let mut timing = (0.0f64, 0.0f64);
    while consumed < total {
        if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(CountError::Cancelled.into());
        }
        let count = ((ROUND_RECORDS as f64 / per_source) as usize)
            .max(1024)
            .min(total - consumed);
        let groups = take_sources(&src.parts, &mut cursor, count, nworkers);
        consumed += count;
        let before: u64 = workers.iter().map(|w| w.acc.records).sum();
        let t0 = std::time::Instant::now();
        workers
            .par_iter_mut()
            .zip(groups)
            .try_for_each(|(w, g)| -> Result<(), StepError> {
                for b in &mut w.bufs {
                    b.clear();
                }
                for slots in g {
                    expand_dispatch(opts.portable, ctx, slots, w)?;
                }
                Ok(())
            })?;
        let after: u64 = workers.iter().map(|w| w.acc.records).sum();
        per_source = ((after - before) as f64 / count as f64).max(0.25) * 1.05;
        let t1 = std::time::Instant::now();
        tables
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(p, table)| -> Option<()> {
                table.warm();
                for w in &workers {
                    table.add_all(&w.bufs[p])?;
                }
                Some(())
            })
            .ok_or(StepError::Narrow)?;
        timing.0 += (t1 - t0).as_secs_f64();
        timing.1 += t1.elapsed().as_secs_f64();
        if let Some(limit) = opts.max_memory {
            let table_bytes: u64 = tables.iter().map(Table::bytes).sum();
            let rec_bytes: u64 = workers.iter().map(Worker::bytes).sum();
            let used = src_bytes + table_bytes + rec_bytes;
            if used > limit {
                // Extrapolate the tables to the whole source.
                let needed = src_bytes
                    + rec_bytes
                    + (table_bytes as f64 * total as f64 / consumed.max(1) as f64) as u64;
                return Err(CountError::MemoryLimit {
                    pegs: ctx.pegs - 1,
                    needed,
                    limit,
                    classes_so_far: 0,
                }
                .into());
            }
        }
    }
    let mut acc = Acc::default();
    for w in &workers {
        acc = acc.merge(w.acc, ctx.pegs)?;
    }
    drop(workers);
    let t2 = std::time::Instant::now();
    let parts = tables.into_iter().map(Table::into_slots).collect();
    if std::env::var_os("PEG_DEBUG").is_some() {
        eprintln!(
            "  expand {:.3}s merge {:.3}s compact {:.3}s",
            timing.0,
            timing.1,
            t2.elapsed().as_secs_f64()
        );
    }
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
    let board = problem.board();
    let k = Kernel::new(board, problem.group());
    let finish_key = match problem.finish() {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
    };
    let starts = [problem.start().bits()];
    let Finish::Hole(h) = problem.finish() else {
        let (levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, &mut |_, _, _| Ok(()))?;
        return Count::from_levels(k.group_size, levels, sf, sn);
    };
    if opts.max_levels.is_some() {
        let (levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, &mut |_, _, _| Ok(()))?;
        return Count::from_levels(k.group_size, levels, sf, sn);
    }
    // With a finish hole: also count the reachable positions from which it can still be reached. The table of
    // positions that can reach it is built first, normalized with the symmetries fixing both start and finish;
    // each level of the enumeration is then matched against it.
    let both: Vec<Symmetry> = problem
        .group()
        .iter()
        .filter(|s| s.map_hole(h) == h)
        .cloned()
        .collect();
    let table = FinishTable::build_with_group(board, problem.finish(), &both, opts)?;
    let same = both.len() == problem.group().len();
    let bits = board.holes() as u32;
    let mut found: Vec<(u32, u64, u64)> = Vec::new();
    let opts2 = Options {
        max_memory: opts.max_memory.map(|m| m.saturating_sub(table.bytes())),
        ..*opts
    };
    let (mut levels, sf, sn) =
        run::<N>(&k, &starts, finish_key, &opts2, &mut |pegs, len, keys| {
            let Some(set) = table.level(pegs) else {
                found.push((pegs, 0, 0));
                return Ok(());
            };
            // (table key, class index, positions it stands for)
            let mut entries: Vec<(u64, u32, u32)> = Vec::with_capacity(len);
            for (idx, r) in keys.enumerate() {
                if same {
                    let size = k.class_size(r) as u32;
                    entries.push((table.key(Position::from_bits(r)), idx as u32, size));
                } else {
                    let mut images: Vec<u64> = k.images(r);
                    images.sort_unstable();
                    images.dedup();
                    for q in images {
                        entries.push((table.key(Position::from_bits(q)), idx as u32, 1));
                    }
                }
            }
            crate::finish::sort_entries(&mut entries, bits);
            let mut matched = vec![false; len];
            let (mut all, mut classes) = (0u64, 0u64);
            let mut it = set.iter().peekable();
            for &(c, idx, w) in &entries {
                while it.peek().is_some_and(|&t| t < c) {
                    it.next();
                }
                if it.peek() == Some(&c) {
                    all += u64::from(w);
                    if !matched[idx as usize] {
                        matched[idx as usize] = true;
                        classes += 1;
                    }
                }
            }
            found.push((pegs, all, classes));
            Ok(())
        })?;
    for l in &mut levels {
        if let Some(&(_, a, c)) = found.iter().find(|f| f.0 == l.pegs) {
            l.finishable = Some(a);
            l.finishable_classes = Some(c);
        }
    }
    Count::from_levels(k.group_size, levels, sf, sn)
}

/// A callback given each level before it is expanded: its number of pegs, its number of positions up to symmetry,
/// and its keys (normal forms) in no particular order.
pub(crate) type OnLevel<'a> =
    dyn FnMut(u32, usize, &mut dyn Iterator<Item = u64>) -> Result<(), CountError> + 'a;

fn keys_of<C: Counter>(s: &Store<C>) -> impl Iterator<Item = u64> + '_ {
    s.parts.iter().flat_map(|p| p.iter().map(|x| x.key))
}

/// Enumerate level by level from `starts` (positions with the same number of pegs), normalized with the
/// kernel's group. Returns the levels and the solution counts.
pub(crate) fn run<N: Counter>(
    k: &Kernel,
    starts: &[u64],
    finish_key: Option<u64>,
    opts: &Options<'_>,
    on_level: &mut OnLevel<'_>,
) -> Result<(Vec<Level>, u128, u128), CountError> {
    let one = N::from_u128(1).ok_or(CountError::Overflow { pegs: 0 })?;
    let mut first: Vec<u64> = starts.iter().map(|&s| k.normalize(s).0).collect();
    first.sort_unstable();
    first.dedup();
    let mut pegs = starts.first().map_or(0, |s| s.count_ones());
    let mut store: AnyStore<N> = AnyStore::Narrow(Store {
        parts: vec![
            first
                .into_iter()
                .map(|key| Slot {
                    key,
                    full: one,
                    norm: one,
                })
                .collect(),
        ],
    });
    let mut levels: Vec<Level> = Vec::new();
    let (mut sol_full, mut sol_normal) = (0u128, 0u128);
    let mut prev_len = 1usize;
    let limit = opts.max_levels.unwrap_or(usize::MAX);
    let mut classes_so_far = 0u64;
    while store.len() > 0 && levels.len() < limit {
        match &store {
            AnyStore::Narrow(s) => on_level(pegs, s.len(), &mut keys_of(s))?,
            AnyStore::Wide(s) => on_level(pegs, s.len(), &mut keys_of(s))?,
        }
        let len = store.len();
        let growth = len as f64 / prev_len.max(1) as f64;
        let expected = ((len as f64 * growth * 1.05) as usize).max(16);
        let nparts = expected.div_ceil(PART_TARGET).max(1);
        let ctx = Ctx {
            k,
            pegs,
            finish_key,
            nparts,
        };
        let last = levels.len() + 1 == limit || pegs == 1;
        let expected = if last { 0 } else { expected };
        if let Some(limit) = opts.max_memory {
            let slot = if matches!(store, AnyStore::Wide(_)) {
                40
            } else {
                8 + 2 * std::mem::size_of::<N>()
            };
            let needed = store.bytes()
                + (expected * slot * 4 / 3) as u64
                + (ROUND_RECORDS * slot * 5 / 4) as u64;
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
            AnyStore::Narrow(src) => match step::<N, N>(&ctx, &src, expected, opts) {
                Ok((acc, next)) => (acc, AnyStore::Narrow(next)),
                Err(StepError::Narrow) => {
                    let src = convert(src);
                    let (acc, next) = step_wide(&ctx, &src, expected, opts)
                        .map_err(|e| fix_mem(e, classes_so_far))?;
                    (acc, AnyStore::Wide(next))
                }
                Err(StepError::Fatal(e)) => return Err(fix_mem(e, classes_so_far)),
            },
            AnyStore::Wide(src) => {
                let (acc, next) = step_wide(&ctx, &src, expected, opts)
                    .map_err(|e| fix_mem(e, classes_so_far))?;
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
        if std::env::var_os("PEG_DEBUG").is_some() {
            eprintln!(
                "level {pegs}: {} classes, {} records",
                acc.classes, acc.records
            );
        }
        sol_full = add(sol_full, acc.sol_full, pegs)?;
        sol_normal = add(sol_normal, acc.sol_normal, pegs)?;
        if let Some(p) = opts.progress {
            p(&level);
        }
        levels.push(level);
        prev_len = src_len;
        store = next;
        pegs = pegs.saturating_sub(1);
    }
    Ok((levels, sol_full, sol_normal))
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

fn step_wide(
    ctx: &Ctx<'_>,
    src: &Store<u128>,
    expected: usize,
    opts: &Options<'_>,
) -> Result<(Acc, Store<u128>), CountError> {
    match step::<u128, u128>(ctx, src, expected, opts) {
        Ok(x) => Ok(x),
        Err(StepError::Narrow) => Err(CountError::Overflow { pegs: ctx.pegs - 1 }),
        Err(StepError::Fatal(e)) => Err(e),
    }
}
