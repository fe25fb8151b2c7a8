//! The level-by-level enumeration with its levels kept in a [`LevelStore`] (for example files on disk)
//! instead of memory, so that a board whose levels do not fit in memory can be counted within a memory limit.
//!
//! A level in the store is a list of *buckets*: ranges of consecutive partitions (ranges of mixed keys, see
//! [`crate::enumerate`]), each frozen and written on its own. A level step builds the next level in one or
//! more *passes*, one bucket each: a pass creates the tables of its bucket's partitions only, streams the
//! whole current level from the store (bucket by bucket) through the engine's own expansion, keeps the
//! records of its partitions, freezes the tables and writes them to the store as one bucket of the next
//! level. Memory then holds one bucket of the level expanded, one bucket's tables and a round's buffers,
//! whatever the size of the levels: the number of passes is chosen before each step from the memory limit.
//! Each pass expands the whole current level again; the statistics of the level come from the first pass.
//!
//! The store is also the checkpoint: once every bucket of the next level is written, the store records the
//! [`State`] (the rows so far) and drops the level before; a run stopped at any moment resumes from the last
//! level recorded ([`count`] with the state the store read back).
//!
//! This module has no file code: the `peg-cluster` crate's `store` module keeps a [`LevelStore`] in a
//! directory.

use std::io::{Read, Write};

use crate::count::{Count, CountError, Level};
use crate::counter::Counter;
use crate::kernel::Kernel;
use crate::level::{INIT_LOAD, Layout, PART_TARGET, Part, Pool, Rec, Slot, TableKey};
use crate::problem::{Finish, Problem};
use crate::shard::{SavedShare, ShareData};
use crate::step::{
    BASE_BYTES, Builder, CounterWidth, Ctx, Options, Source, State, StepError, fit_round,
    key_pbits, narrow_keys, next_pegs, round_bytes, round_records, round_records_for,
    round_records_least, round_within, sized_classes,
};

/// Where a spilling enumeration keeps its levels: each level as numbered buckets, written once and read any
/// number of times, and, after each level, the state of the run.
pub trait LevelStore {
    /// Write bucket `bucket` of the level with `pegs` pegs (replacing one of that name left by a run that
    /// stopped before recording its level).
    ///
    /// # Errors
    /// A message saying what could not be written (one line, with the path).
    fn put(&mut self, pegs: u32, bucket: usize, data: &dyn ShareData)
    -> Result<SavedShare, String>;

    /// Read bucket `bucket` of the level the last [`LevelStore::commit`] recorded (`buckets` as it gave them).
    ///
    /// # Errors
    /// It cannot be read, or it is not what was written.
    fn get(&mut self, saved: &SavedShare) -> Result<Box<dyn Read + '_>, String>;

    /// Every bucket of the level `state.pegs` is written (`buckets`, in key order): record the state of the
    /// run (this completes the checkpoint of the level) and drop the buckets of the level before.
    ///
    /// # Errors
    /// A message saying what could not be written.
    fn commit(&mut self, state: &State, buckets: &[SavedShare]) -> Result<(), String>;

    /// Bytes free where the store writes, when it can tell: a step whose next level would not fit stops
    /// before it starts.
    fn free_bytes(&self) -> Option<u64> {
        None
    }

    /// Where the store writes, in words (for messages).
    fn place(&self) -> String;
}

/// Where a spilling run stands: the state and the buckets of the level recorded last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The state of the run.
    pub state: State,
    /// The buckets of its level, in key order.
    pub buckets: Vec<SavedShare>,
}

/// Why a spilling enumeration stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpillError {
    /// The enumeration's own error (an overflow, the memory limit even for one partition a pass, a cancel).
    #[error(transparent)]
    Count(#[from] CountError),
    /// The store could not write or read (the message says what and where).
    #[error("{0}")]
    Store(String),
    /// The file system has less free space than the next level needs.
    #[error(
        "{place} has {} free, and the level with {pegs} pegs needs about {} more \
         (the levels so far are kept there: free some space and run the same command again)",
        crate::count::fmt_bytes(*.free), crate::count::fmt_bytes(*.needed)
    )]
    Disk {
        /// Where the store writes.
        place: String,
        /// The level that was not started.
        pegs: u32,
        /// Bytes it needs (an estimate).
        needed: u64,
        /// Bytes free.
        free: u64,
    },
    /// What the store holds is not a run of this problem (the message says what differs).
    #[error("{0}")]
    Mismatch(String),
}

/// Measurements of one spilling step, for a log.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SpillStep {
    /// Pegs of the level expanded.
    pub pegs: u32,
    /// Its classes.
    pub classes: u64,
    /// Passes over it (buckets of the next level).
    pub passes: usize,
    /// Records a round of a pass was given (at most): as many as the classes a pass builds, or fewer where
    /// the memory limit had no room for rounds that big.
    pub round_records: u64,
    /// Classes of the next level.
    pub next_classes: u64,
    /// Bytes written for the next level.
    pub bytes_written: u64,
    /// Memory the step was planned to need.
    pub planned_bytes: u64,
    /// The most memory the step was seen to hold, as the memory limit counts it (the bucket being expanded,
    /// the tables, the round buffers' capacity, the arrays kept for reuse), measured after each bucket fed
    /// and after each freeze; at most `planned_bytes` when the plan is right.
    pub held_bytes: u64,
    /// Whether a counter passed 64 bits and the step was planned and built again with 128-bit counters.
    pub rebuilt_wide: bool,
    /// Times a pass held more than its plan allowed and the rest of the step was planned again, with smaller
    /// rounds or more passes (that pass built again): 0 when the plan was right.
    pub replans: u32,
    /// The factor the step's memory estimate was scaled by: 1, or more where a pass of this step or of the
    /// step before held more than its estimate (what it held over what was planned, and a twentieth more).
    pub plan_scale: f64,
    /// The most memory a round's record buffers held over the memory of the round's records (at most: a
    /// round may fill less): 1.25 where the threads took even shares of every round, more where one took
    /// more (its buffers grow). The next step's plan counts its rounds' buffers so.
    pub record_buffers: f64,
    /// Records added into tables, over every pass.
    pub records: u64,
    /// Seconds expanding, merging, and in all.
    pub expand_secs: f64,
    /// Seconds merging.
    pub merge_secs: f64,
    /// Seconds in all.
    pub total_secs: f64,
}

impl SpillStep {
    /// Nanoseconds of merging a record (wall time, every thread).
    pub fn merge_ns_per_record(&self) -> f64 {
        self.merge_secs * 1e9 / self.records.max(1) as f64
    }
}

/// Options of a spilling run besides the enumeration's: where each step's figures go.
pub type SpillLog<'a> = &'a (dyn Fn(&SpillStep) + Sync);

const BUCKET_MAGIC: &[u8; 8] = b"PEGBKT01";

/// Partitions `first..first + parts.len()` of a level, as a bucket is written.
pub(crate) struct Bucket<'a, C> {
    pub(crate) layout: Layout,
    pub(crate) first: usize,
    pub(crate) parts: &'a [Part<C>],
    pub(crate) wide: bool,
}

impl<C: Counter> ShareData for Bucket<'_, C> {
    fn classes(&self) -> u64 {
        self.parts.iter().map(|p| p.len() as u64).sum()
    }
    fn write_to(&self, w: &mut dyn Write) -> std::io::Result<()> {
        w.write_all(BUCKET_MAGIC)?;
        w.write_all(&[u8::from(self.wide), std::mem::size_of::<C>() as u8])?;
        w.write_all(&self.layout.bits().to_le_bytes())?;
        w.write_all(&self.layout.pbits().to_le_bytes())?;
        w.write_all(&(self.first as u64).to_le_bytes())?;
        w.write_all(&(self.parts.len() as u64).to_le_bytes())?;
        for p in self.parts {
            p.write_to(w)?;
        }
        Ok(())
    }
}

/// A bucket read back: partitions `first..first + parts.len()` of a level of partitions `layout`.
pub(crate) struct ReadBucket<C> {
    pub(crate) layout: Layout,
    pub(crate) first: usize,
    pub(crate) parts: Vec<Part<C>>,
}

/// Read a bucket written by [`Bucket`]'s [`ShareData::write_to`], of a board of `bits` holes, with counters
/// of the width `wide` says.
pub(crate) fn read_bucket<C: Counter>(
    r: &mut dyn Read,
    bits: u32,
    wide: bool,
) -> Result<ReadBucket<C>, String> {
    let io = |e: std::io::Error| format!("a stored bucket cannot be read: {e}");
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic).map_err(io)?;
    if &magic != BUCKET_MAGIC {
        return Err("a stored bucket is not a boardlab level bucket".to_string());
    }
    let mut b2 = [0u8; 2];
    r.read_exact(&mut b2).map_err(io)?;
    let mut b4 = [0u8; 4];
    r.read_exact(&mut b4).map_err(io)?;
    let lbits = u32::from_le_bytes(b4);
    r.read_exact(&mut b4).map_err(io)?;
    let pbits = u32::from_le_bytes(b4);
    let mut b8 = [0u8; 8];
    r.read_exact(&mut b8).map_err(io)?;
    let first = u64::from_le_bytes(b8);
    r.read_exact(&mut b8).map_err(io)?;
    let n = u64::from_le_bytes(b8);
    let layout = Layout::from_pbits(lbits, pbits)
        .filter(|_| lbits == bits)
        .ok_or_else(|| "a stored bucket is of another board".to_string())?;
    if (b2[0] == 1) != wide || usize::from(b2[1]) != std::mem::size_of::<C>() {
        return Err("a stored bucket's counters are not of the width its state says".to_string());
    }
    let nparts = layout.parts() as u64;
    if first > nparts || n > nparts - first {
        return Err("a stored bucket's partitions are out of range".to_string());
    }
    let (first, n) = (first as usize, n as usize);
    let shift = layout.bits() - layout.pbits();
    let mut parts: Vec<Part<C>> = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(
            Part::read_from(r, shift).map_err(|e| format!("a stored bucket is damaged: {e}"))?,
        );
    }
    let mut rest = [0u8; 1];
    match r.read(&mut rest) {
        Ok(0) => {}
        Ok(_) => return Err("a stored bucket has bytes after its end".to_string()),
        Err(e) => return Err(io(e)),
    }
    Ok(ReadBucket {
        layout,
        first,
        parts,
    })
}

/// Count the problem level by level with its levels in `store`: from the start, or from `resume` (what the
/// store recorded last, of this problem). The same [`Count`] as [`crate::enumerate::count`]. The memory limit
/// ([`Options::max_memory`]) decides the passes of each step; without one, every step is one pass.
///
/// # Errors
/// The enumeration's errors, the store's (a write or read that failed, a full disk), and a stored state that
/// is not of this problem.
pub fn count(
    problem: &Problem,
    opts: &Options<'_>,
    store: &mut dyn LevelStore,
    resume: Option<Stored>,
    log: Option<SpillLog<'_>>,
) -> Result<Count, SpillError> {
    let board = problem.board();
    let k = Kernel::new(board, problem.group());
    let finish_key = match problem.finish() {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
    };
    let run = |store: &mut dyn LevelStore, resume| match (opts.counter_width, narrow_keys(&k)) {
        (CounterWidth::U64, true) => {
            run::<u64, u32>(&k, problem, finish_key, opts, store, resume, log)
        }
        (CounterWidth::U64, false) => {
            run::<u64, u64>(&k, problem, finish_key, opts, store, resume, log)
        }
        (CounterWidth::U16, true) => {
            run::<u16, u32>(&k, problem, finish_key, opts, store, resume, log)
        }
        (CounterWidth::U16, false) => {
            run::<u16, u64>(&k, problem, finish_key, opts, store, resume, log)
        }
        (CounterWidth::U128, true) => {
            run::<u128, u32>(&k, problem, finish_key, opts, store, resume, log)
        }
        (CounterWidth::U128, false) => {
            run::<u128, u64>(&k, problem, finish_key, opts, store, resume, log)
        }
    };
    let (mut levels, sf, sn) = run(store, resume)?;
    // As the in-memory count: the finishable set's rows (built in memory: a small part of the table).
    if let Some(rows) = crate::enumerate::finishable_rows(problem, opts)? {
        crate::enumerate::fill_finishable(&mut levels, &rows);
    }
    Ok(Count::from_levels(k.group_size, levels, sf, sn)?)
}

/// The stored level being expanded: its buckets and counter width.
struct Current {
    wide: bool,
    buckets: Vec<SavedShare>,
}

#[allow(clippy::too_many_arguments)]
fn run<N: Counter, K: TableKey>(
    k: &Kernel,
    problem: &Problem,
    finish_key: Option<u64>,
    opts: &Options<'_>,
    store: &mut dyn LevelStore,
    resume: Option<Stored>,
    log: Option<SpillLog<'_>>,
) -> Result<(Vec<Level>, u128, u128), SpillError> {
    let bits = k.holes as u32;
    let min_pbits = key_pbits::<K>(bits);
    let (mut st, mut cur) = match resume {
        Some(s) => {
            if s.buckets.iter().map(|b| b.classes).sum::<u64>()
                != s.state.sizes.last().copied().unwrap_or(0)
            {
                return Err(SpillError::Mismatch(format!(
                    "{}: the stored level's buckets do not add up to its size",
                    store.place()
                )));
            }
            let cur = Current {
                wide: s.state.wide,
                buckets: s.buckets,
            };
            (s.state, cur)
        }
        None => {
            let start = problem.start().bits();
            let one = N::from_u128(1).ok_or(CountError::Overflow { pegs: 0 })?;
            let mixer = crate::level::Mixer::new(bits);
            let first = crate::level::Frozen::from_entries(
                bits,
                vec![Slot {
                    h: mixer.mix(k.normalize(start).0),
                    full: one,
                    norm: one,
                }],
            );
            // Counters that start at 128 bits (a test's choice) make the first level wide.
            let wide = std::mem::size_of::<N>() == 16;
            let mut st = State::start(start.count_ones(), first.len() as u64);
            st.wide = wide;
            let saved = store
                .put(
                    st.pegs,
                    0,
                    &Bucket {
                        layout: first.layout,
                        first: 0,
                        parts: &first.parts,
                        wide,
                    },
                )
                .map_err(SpillError::Store)?;
            store
                .commit(&st, std::slice::from_ref(&saved))
                .map_err(SpillError::Store)?;
            (
                st,
                Current {
                    wide,
                    buckets: vec![saved],
                },
            )
        }
    };
    let pool: Pool<K, N> = Pool::new();
    let wide_pool: Pool<K, u128> = Pool::new();
    // Records per class of the level expanded last (every successor, whichever pass kept it): how many
    // sources a round of a pass covers. Unknown at the start of a run or a resume.
    let mut records_per_source: Option<f64> = None;
    // The scale of the last step's estimates (see [`SpillStep::plan_scale`]).
    let mut plan_scale = 1.0;
    // The record buffers' share of the last step (see [`SpillStep::record_buffers`]).
    let mut record_buffers = None;
    while st.goes_on(opts.max_levels) {
        let t = std::time::Instant::now();
        let pegs = st.pegs;
        let last = st.last(k, opts.max_levels);
        let expected = st.expected(last);
        let out = Layout::for_size(bits, expected, PART_TARGET, min_pbits);
        let sources = st.sizes.last().copied().unwrap_or(0);
        // Disk: the next level takes about as many bytes a class as this one (a little more as counters grow).
        let stored: u64 = cur.buckets.iter().map(|b| b.bytes).sum();
        if !last && let Some(free) = store.free_bytes() {
            let per_class = stored as f64 / sources.max(1) as f64;
            let needed = (expected as f64 * per_class * 1.15) as u64 + (64 << 20);
            if needed > free {
                return Err(SpillError::Disk {
                    place: store.place(),
                    pegs: next_pegs(k, pegs),
                    needed,
                    free,
                });
            }
        }
        let wide_src = cur.wide;
        let mut step = SpillStep {
            pegs,
            classes: sources,
            ..SpillStep::default()
        };
        // Classes known if the step stops: the levels expanded, and the one being expanded.
        let known = st.levels.iter().map(|l| l.classes).sum::<u64>() + sources;
        let plan = Plan {
            out,
            expected,
            last,
            records_per_source,
            correction: plan_scale,
            record_buffers,
        };
        let result = if wide_src {
            step_with::<K, u128, u128>(
                k, finish_key, opts, store, &cur, &plan, &wide_pool, 0, &mut step,
            )
            .map(|r| (r, true))
        } else {
            match step_with::<K, N, N>(k, finish_key, opts, store, &cur, &plan, &pool, 0, &mut step)
            {
                Ok(r) => Ok((r, false)),
                // A counter passed the narrow width: the whole step again with wide counters, planned for
                // them, after giving back what the narrow attempt kept (its tables' and buffers' arrays).
                Err(StepFail::Narrow) => {
                    pool.trim(0, 0, 0, 0);
                    let narrow = pool.bytes();
                    step.records = 0;
                    step.held_bytes = 0;
                    step.replans = 0;
                    step.rebuilt_wide = true;
                    step_with::<K, N, u128>(
                        k, finish_key, opts, store, &cur, &plan, &wide_pool, narrow, &mut step,
                    )
                    .map(|r| (r, true))
                }
                Err(e) => Err(e),
            }
        };
        let ((acc, saved), wide) = result.map_err(|e| match e {
            StepFail::Narrow => SpillError::Count(CountError::Overflow {
                pegs: next_pegs(k, pegs),
            }),
            StepFail::Spill(SpillError::Count(e)) => {
                SpillError::Count(e.with_classes_so_far(known))
            }
            StepFail::Spill(e) => e,
        })?;
        if !last {
            records_per_source = Some(acc.records as f64 / sources.max(1) as f64);
            plan_scale = step.plan_scale;
            record_buffers = Some(step.record_buffers);
        }
        let next: u64 = saved.iter().map(|b| b.classes).sum();
        st.advance(k, &acc, next, wide)?;
        if let Some(p) = opts.progress
            && let Some(l) = st.levels.last()
        {
            p(l);
        }
        store.commit(&st, &saved).map_err(SpillError::Store)?;
        step.next_classes = next;
        step.bytes_written = saved.iter().map(|b| b.bytes).sum();
        step.total_secs = t.elapsed().as_secs_f64();
        if let Some(f) = log {
            f(&step);
        }
        cur = Current {
            wide,
            buckets: saved,
        };
    }
    Ok((st.levels, st.solutions_full, st.solutions_normal))
}

/// Why a step stopped: a narrow counter overflowed (build the step again wide), or a final error.
enum StepFail {
    Narrow,
    Spill(SpillError),
}

impl From<StepError> for StepFail {
    fn from(e: StepError) -> Self {
        match e {
            StepError::Narrow => StepFail::Narrow,
            StepError::Fatal(e) => StepFail::Spill(SpillError::Count(e)),
        }
    }
}

impl From<CountError> for StepFail {
    fn from(e: CountError) -> Self {
        StepFail::Spill(SpillError::Count(e))
    }
}

/// What a level step is built for: the next level's layout and expected size, whether it is the last, the
/// records per class of the level expanded before (when known), and the scale of the step before's estimate.
struct Plan {
    out: Layout,
    expected: usize,
    last: bool,
    records_per_source: Option<f64>,
    correction: f64,
    record_buffers: Option<f64>,
}

/// Records per source class assumed when the step before was not seen (the first step of a run or of a
/// resume): fewer than any board's widest levels give, so that the round's source counters are not
/// underestimated.
const RECORDS_PER_SOURCE_UNKNOWN: f64 = 4.0;

/// The record buffers' memory over a round's records assumed when the step before was not seen: the round
/// driver gives each thread buffers a quarter over an even share, and a thread that takes more grows its own
/// (docs/experiments/peg.md has the shares measured on the diamond).
const RECORD_BUFFERS_UNKNOWN: f64 = 1.5;

/// Source classes a round of `round` records may expand, in a pass of `passes` over a level whose buckets
/// have at most `src_classes` classes, each source class giving about `per_source` records over all passes: a
/// round takes source classes until the records its pass keeps fill it, about `per_source / passes` a class
/// (at least a quarter, as the round driver assumes), and never more than a bucket; a tenth more for
/// successors reached by several moves. The round driver stops a round there ([`Builder::limit_sources`]),
/// where a part of the level gives its pass fewer records than the average: each class expanded takes an
/// entry in the round's source counters whether or not its records are kept.
fn round_sources(round: usize, passes: usize, per_source: f64, src_classes: u64) -> usize {
    let kept = (per_source / passes as f64).max(0.25);
    let round = round_within(round, src_classes as usize);
    ((round as f64 / kept).min(src_classes as f64) * 1.1) as usize
}

/// The memory a pass needs for a bucket of `classes` classes of the next level built in rounds of `round`
/// records, with buckets of the level expanded of at most `src_bytes` bytes and `src_classes` classes, one
/// pass of `passes`, each source class giving about `per_source` records over all passes, the record buffers
/// taking `buf_share` times the memory of a round's records.
#[allow(clippy::too_many_arguments)]
fn pass_bytes<K: TableKey, D: Counter>(
    classes: usize,
    src_bytes: u64,
    src_classes: u64,
    per_class: f64,
    sources: u64,
    round: usize,
    passes: usize,
    per_source: f64,
    buf_share: f64,
) -> u64 {
    let slot = std::mem::size_of::<K>() + 2 * std::mem::size_of::<D>();
    let tables = (classes as f64 / INIT_LOAD * 1.07) as u64 * slot as u64;
    // The frozen bucket's arrays (an eighth over their size, as the pool gives them), kept for the next pass.
    let frozen = (classes as f64 * per_class * 1.125) as u64;
    // A round's record buffers (`buf_share` times its records; smaller for a small level, as
    // `Builder::feed` makes them).
    let counter = std::mem::size_of::<D>();
    let rec = std::mem::size_of::<Rec<K>>() as f64;
    let recs = ((round as f64 * rec * buf_share) as u64)
        .min(round_bytes::<K>(0, round_within(round, sources as usize)) + (1 << 20));
    // A round's source counters: its source classes at most, with a quarter more for a thread that took more
    // than its share.
    let entries = round_sources(round, passes, per_source, src_classes) as u64;
    let srcs = entries / 4 * 5 * 2 * counter as u64;
    // The bucket being expanded (one at a time: each is dropped before the next is read), the tables, the
    // bucket frozen from them (while the tables are freed one by one), a round's buffers; 5% for the
    // allocator, and the program itself.
    (src_bytes + tables + frozen + recs + srcs) / 20 * 21 + BASE_BYTES
}

#[cfg(test)]
thread_local! {
    /// A test's fraction of the memory a pass is planned to need (1 in every run): a plan that falls short.
    static PLAN_SHARE: std::cell::Cell<f64> = const { std::cell::Cell::new(1.0) };
}

/// The memory a pass is planned to need, `bytes` (a test may take a fraction of it, to see what a plan that
/// falls short does).
fn plan_short(bytes: u64) -> u64 {
    #[cfg(test)]
    {
        (bytes as f64 * PLAN_SHARE.with(std::cell::Cell::get)) as u64
    }
    #[cfg(not(test))]
    {
        bytes
    }
}

/// One level step in passes: the statistics of the level expanded and the buckets of the next, written.
/// `held` counts memory held besides (the arrays another pool kept).
#[allow(clippy::too_many_arguments)]
fn step_with<K: TableKey, S: Counter, D: Counter>(
    k: &Kernel,
    finish_key: Option<u64>,
    opts: &Options<'_>,
    store: &mut dyn LevelStore,
    cur: &Current,
    plan: &Plan,
    pool: &Pool<K, D>,
    held: u64,
    step: &mut SpillStep,
) -> Result<(crate::step::Acc, Vec<SavedShare>), StepFail> {
    let Plan {
        out,
        expected,
        last,
        records_per_source,
        correction,
        record_buffers,
    } = *plan;
    // The record buffers' memory over a round's records: a twentieth over the step before's, and at least
    // what even shares of every round take.
    let buf_share = record_buffers.map_or(RECORD_BUFFERS_UNKNOWN, |f| (f * 1.05).clamp(1.25, 2.5));
    let bits = k.holes as u32;
    let pegs = step.pegs;
    let src_bytes = cur.buckets.iter().map(|b| b.bytes).max().unwrap_or(0);
    let src_classes = cur.buckets.iter().map(|b| b.classes).max().unwrap_or(0);
    let sources: u64 = cur.buckets.iter().map(|b| b.classes).sum();
    let stored: u64 = cur.buckets.iter().map(|b| b.bytes).sum();
    // Bytes a class of the next level takes frozen: as this level's, a fifth more as counters grow (and a
    // quarter more again where they are rebuilt at 128 bits: a stored counter takes the bytes its value needs).
    let widen = if std::mem::size_of::<D>() > std::mem::size_of::<S>() {
        1.25
    } else {
        1.0
    };
    let per_class = (stored as f64 / sources.max(1) as f64).max(4.0) * 1.2 * widen;
    let per_source = records_per_source.unwrap_or(RECORDS_PER_SOURCE_UNKNOWN);
    let nparts = out.parts();
    // Classes a pass builds (each builds as many partitions), with `passes` passes.
    let classes_of = |passes: usize| sized_classes(out, nparts / passes, expected);
    // The memory a pass of `passes` passes in rounds of `round` records needs, its estimate scaled by `corr`
    // (above 1 once a pass of the step or the one before held more than its estimate).
    let need = |passes: usize, round: usize, corr: f64| {
        held + plan_short(
            (corr
                * pass_bytes::<K, D>(
                    classes_of(passes),
                    src_bytes,
                    src_classes,
                    per_class,
                    sources,
                    round,
                    passes,
                    per_source,
                    buf_share,
                ) as f64) as u64,
        )
    };
    // The biggest round a pass of `passes` passes can have within the limit, from as big as the classes it
    // builds down to `least` of those.
    let fit = |passes: usize, least: fn(usize) -> usize, limit: u64, corr: f64| {
        let classes = classes_of(passes);
        fit_round(round_records_for::<K>(classes), least(classes), |r| {
            need(passes, r, corr) <= limit
        })
    };
    // The fewest passes from `p` up that fit the memory limit with rounds of at least a quarter of the
    // classes a pass builds (each pass expands the whole level again: that costs more than smaller rounds),
    // the biggest rounds those passes have room for, and rounds down to the fixed size of a round where one
    // partition a pass needs it.
    let plan_from = |mut p: usize, limit: u64, corr: f64| loop {
        if let Some(r) = fit(p, round_records_least::<K>, limit, corr) {
            return Ok((p, r));
        }
        if p >= nparts {
            return match fit(p, |_| round_records::<K>(), limit, corr) {
                Some(r) => Ok((p, r)),
                None => Err(StepFail::Spill(SpillError::Count(
                    CountError::MemoryLimit {
                        pegs: next_pegs(k, pegs),
                        needed: need(p, round_records::<K>(), corr),
                        limit,
                        // (Filled in by the caller.)
                        classes_so_far: 0,
                    },
                ))),
            };
        }
        p = (p * 2).min(nparts);
    };
    let mut corr = correction.max(1.0);
    let (mut passes, mut round) = if last {
        (1, round_records::<K>())
    } else if let Some(limit) = opts.max_memory {
        plan_from(1, limit, corr)?
    } else {
        (1, round_records_for::<K>(classes_of(1)))
    };
    step.round_records = round as u64;
    step.plan_scale = corr;
    step.planned_bytes = if last {
        held + 2 * src_bytes + BASE_BYTES
    } else {
        need(passes, round, corr)
    };
    // A pass is checked against what the plan allows itself (the limit less the program and the allocator's
    // share), so that a pass whose estimate was short is built again in smaller passes before the process
    // holds more than the limit.
    let checked = Options {
        max_memory: opts
            .max_memory
            .map(|m| m.saturating_sub(BASE_BYTES) / 21 * 20),
        ..*opts
    };
    let mixer = crate::level::Mixer::new(bits);
    let mut acc = None;
    let mut saved = Vec::with_capacity(passes);
    // Partitions built so far: each pass builds the next `nparts / passes` of them.
    let mut first = 0;
    loop {
        let end = if last {
            0
        } else {
            (first + nparts / passes).min(nparts)
        };
        let ctx = Ctx {
            k,
            mixer,
            pegs,
            finish_key,
            out,
            emit: !last,
            filter: None,
            first,
            parts: end - first,
        };
        let mut builder = Builder::<K, D>::new(&ctx, expected, round, pool);
        if !last {
            builder.limit_sources(round_sources(round, passes, per_source, src_classes));
        }
        let mut over = None;
        for b in &cur.buckets {
            let mut r = store
                .get(b)
                .map_err(|e| StepFail::Spill(SpillError::Store(e)))?;
            let piece = read_bucket::<S>(&mut *r, bits, cur.wide)
                .map_err(|e| StepFail::Spill(SpillError::Store(format!("{}: {e}", b.name))))?;
            drop(r);
            let src = Source::Parts {
                layout: piece.layout,
                first: piece.first,
                parts: &piece.parts,
            };
            match builder.feed(&ctx, src, &checked, held) {
                Ok(()) => {}
                Err(StepError::Fatal(e @ CountError::MemoryLimit { .. })) => {
                    over = Some(e);
                    break;
                }
                Err(e) => return Err(e.into()),
            }
            let now = held + src.bytes() + builder.bytes() + pool.bytes();
            step.held_bytes = step.held_bytes.max(now);
            drop(piece);
        }
        if let Some(e) = over {
            // The pass held more than the limit (its estimate was short: the records a class gives this
            // pass, or the frozen bucket's bytes, were more than the level before suggested): its tables
            // are dropped, and the rest of the level is built in passes of half as many partitions each.
            drop(builder);
            let limit = opts.max_memory.unwrap_or(u64::MAX);
            if last || passes >= nparts {
                // In the words of the limit given: what the pass held, with the program's and the
                // allocator's share.
                let e = match e {
                    CountError::MemoryLimit {
                        pegs,
                        needed,
                        classes_so_far,
                        ..
                    } => CountError::MemoryLimit {
                        pegs,
                        needed: needed / 20 * 21 + BASE_BYTES,
                        limit,
                        classes_so_far,
                    },
                    e => e,
                };
                return Err(StepFail::Spill(SpillError::Count(e)));
            }
            // The estimate scaled by what the pass was seen to need (a twentieth more), and the fewest passes
            // from these up with the biggest rounds that fit: smaller rounds in as many passes where they
            // have room (each pass expands the whole level again).
            if let CountError::MemoryLimit { needed, .. } = e {
                let planned =
                    (need(passes, round, corr) - held).saturating_sub(BASE_BYTES) / 21 * 20;
                corr *= (needed as f64 / planned.max(1) as f64).max(1.0) * 1.05;
            }
            (passes, round) = plan_from(passes, limit, corr)?;
            step.plan_scale = corr;
            step.round_records = round as u64;
            step.replans += 1;
            continue;
        }
        let peak = builder.peak_buffers();
        step.record_buffers = step
            .record_buffers
            .max(peak as f64 / (round as f64 * std::mem::size_of::<Rec<K>>() as f64));
        step.records += builder.records();
        let built = builder.finish()?;
        step.expand_secs += built.expand_secs;
        step.merge_secs += built.merge_secs;
        if acc.is_none() {
            acc = Some(built.acc);
        }
        if last {
            step.passes = 1;
            break;
        }
        let parts: Vec<Part<D>> = {
            use rayon::prelude::*;
            built
                .tables
                .into_par_iter()
                .enumerate()
                .map(|(i, t)| t.freeze(first + i, &out, pool))
                .collect()
        };
        // The bucket frozen, the tables' arrays given back to the pool.
        let now = held + parts.iter().map(Part::bytes).sum::<u64>() + pool.bytes();
        step.held_bytes = step.held_bytes.max(now);
        let bucket = Bucket {
            layout: out,
            first,
            parts: &parts,
            wide: std::mem::size_of::<D>() == 16,
        };
        let s = store
            .put(next_pegs(k, pegs), saved.len(), &bucket)
            .map_err(|e| StepFail::Spill(SpillError::Store(e)))?;
        saved.push(s);
        pool.recycle_parts(parts);
        step.passes = saved.len();
        first = end;
        if first >= nparts {
            break;
        }
    }
    Ok((acc.unwrap_or_default(), saved))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::Read;

    use super::*;
    use crate::board::Board;

    /// Levels kept in memory.
    #[derive(Default)]
    struct MemStore(HashMap<String, Vec<u8>>);

    impl LevelStore for MemStore {
        fn put(
            &mut self,
            pegs: u32,
            bucket: usize,
            data: &dyn ShareData,
        ) -> Result<SavedShare, String> {
            let mut bytes = Vec::new();
            data.write_to(&mut bytes).map_err(|e| e.to_string())?;
            let name = format!("level-{pegs}-{bucket}");
            let saved = SavedShare {
                worker: bucket as u32,
                classes: data.classes(),
                bytes: bytes.len() as u64,
                checksum: 0,
                name: name.clone(),
            };
            self.0.insert(name, bytes);
            Ok(saved)
        }
        fn get(&mut self, saved: &SavedShare) -> Result<Box<dyn Read + '_>, String> {
            let b = self.0.get(&saved.name).ok_or("missing bucket")?;
            Ok(Box::new(&b[..]))
        }
        fn commit(&mut self, _: &State, _: &[SavedShare]) -> Result<(), String> {
            Ok(())
        }
        fn place(&self) -> String {
            "memory".to_string()
        }
    }

    /// A pass whose plan falls short of what it holds is dropped and its step goes on in passes of fewer
    /// partitions: with every plan at half of what a pass needs, the French board's first 14 levels under
    /// 90 MiB complete with the in-memory engine's count, some step is planned again, and no step is seen
    /// holding more than the limit; at full plans none is planned again.
    #[test]
    fn a_pass_over_its_plan_is_built_again_in_smaller_passes() {
        let p = Problem::standard(Board::builtin("french").expect("a built-in board"));
        let levels = 14;
        let limit = 90u64 << 20;
        let want = crate::enumerate::count(
            &p,
            &Options {
                max_levels: Some(levels),
                ..Options::default()
            },
        )
        .expect("the in-memory count");
        for share in [1.0, 0.5] {
            PLAN_SHARE.with(|c| c.set(share));
            let steps = std::sync::Mutex::new(Vec::new());
            let log = |s: &SpillStep| steps.lock().expect("the log").push(*s);
            let opts = Options {
                max_levels: Some(levels),
                max_memory: Some(limit),
                ..Options::default()
            };
            let got = count(&p, &opts, &mut MemStore::default(), None, Some(&log));
            PLAN_SHARE.with(|c| c.set(1.0));
            assert_eq!(got, Ok(want.clone()), "plans at {share}");
            let steps = steps.into_inner().expect("the log");
            let replans: u32 = steps.iter().map(|s| s.replans).sum();
            if share < 1.0 {
                assert!(replans > 0, "{steps:?}");
            } else {
                assert_eq!(replans, 0, "{steps:?}");
            }
            for s in &steps {
                assert!(s.held_bytes <= limit, "plans at {share}: {s:?}");
            }
        }
    }
}
