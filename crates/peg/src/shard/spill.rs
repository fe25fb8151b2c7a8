//! The cluster run with its levels spilled: each worker keeps its share of a level as buckets in a
//! [`LevelStore`] of its own (files on its machine), and builds its share of the next level in passes, as the
//! single-machine spilling run does ([`crate::spill`]), in lockstep with the other workers.
//!
//! A pass builds a range of the next level's partitions (pass `j` of `p`: the `j`-th `p`-th of them), split
//! among the workers as a whole level is: every worker streams its whole share from its store, bucket by
//! bucket, through the engine's round driver, and the exchange keeps the records of the pass's partitions
//! only, each sent to the worker that owns it in this pass. At the end of a pass the workers agree on it (a
//! counter that overflowed anywhere: the step again with 128-bit counters; a memory limit passed), and each
//! freezes its tables and writes them to its store as one bucket. A worker's share of a level is then one
//! bucket per pass, each a range of partitions; memory holds one bucket of the level expanded, the tables of
//! one pass and a round's buffers, whatever the size of the levels. The number of passes is the most any
//! worker needs for its memory limit.
//!
//! The stores are the checkpoint: once every worker has written its buckets of the next level, worker 0's
//! store records the [`State`] and every bucket (its [`LevelStore::commit`]), then every other worker's
//! store drops its buckets of the level before (its own `commit`). A run stopped at any moment resumes from
//! the level recorded last, with the same shape.

use std::time::Instant;

use super::error::ShardError;
use super::figures::{ShardOutput, ShardStep, WorkerFigures};
use super::share::ShareLevel;
use super::step::{Traffic, Verdict, agree_end, build_with, owned_in};
use super::wire::{NoteBody, Transport};
use super::worker::{Sh, ShardOptions};
use crate::count::CountError;
use crate::counter::Counter;
use crate::kernel::Kernel;
use crate::level::{INIT_LOAD, Layout, PART_TARGET, Part, Pool, Rec, TableKey};
use crate::problem::{Finish, Problem};
use crate::shard::SavedShare;
use crate::spill::{Bucket, LevelStore, Stored, read_bucket};
use crate::step::{
    Acc, BASE_BYTES, CounterWidth, Ctx, NARROW_KEY_BITS, Source, State, key_pbits, next_pegs,
};

/// Run this worker's part of the enumeration of `problem` with its levels in `store` (its own: each worker
/// writes and reads only its buckets), from the start or from `resume` (what worker 0's store recorded last,
/// read back; every worker is given the same). Every worker of `opts.shape` calls it with the same problem
/// and options (but `worker`, `max_memory` and the callbacks). The memory limit decides the passes of each
/// step.
///
/// With a finish hole, the solutions are those that end on it, and the positions that can still finish are
/// counted as the single-machine spilling count does: worker 0 builds the finishable set in memory (a small
/// part of the table, within its process's memory limit) once the levels are done, and tells the others.
///
/// # Errors
/// See [`ShardError`]; a store that cannot write or read its buckets, or has too little free space, is
/// [`ShardError::Checkpoint`] (with the worker and the message).
pub fn count_spilled<T: Transport + ?Sized>(
    problem: &Problem,
    opts: &ShardOptions<'_>,
    net: &mut T,
    store: &mut dyn LevelStore,
    resume: Option<Stored>,
) -> Result<ShardOutput, ShardError> {
    if opts.shape.workers() == 0 || opts.worker >= opts.shape.workers() {
        return Err(ShardError::Unsupported(format!(
            "worker {} of {} does not exist",
            opts.worker,
            opts.shape.workers()
        )));
    }
    let board = problem.board();
    let k = Kernel::new(board, problem.group());
    let sh = Sh {
        k: &k,
        mixer: crate::level::Mixer::new(k.holes as u32),
        me: opts.worker,
        opts,
        starts: vec![problem.start().bits()],
        finish_key: match problem.finish() {
            Finish::Anywhere => None,
            Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
        },
    };
    let mut figures = WorkerFigures {
        worker: opts.worker as u32,
        process: opts.shape.process_of(opts.worker) as u32,
        ..WorkerFigures::default()
    };
    let wide_keys = k.holes as u32 > NARROW_KEY_BITS;
    let run = match (opts.counter_width, wide_keys) {
        (CounterWidth::U64, false) => run_spilled::<u64, u32, T>,
        (CounterWidth::U64, true) => run_spilled::<u64, u64, T>,
        (CounterWidth::U16, false) => run_spilled::<u16, u32, T>,
        (CounterWidth::U16, true) => run_spilled::<u16, u64, T>,
        (CounterWidth::U128, false) => run_spilled::<u128, u32, T>,
        (CounterWidth::U128, true) => run_spilled::<u128, u64, T>,
    };
    let resumed_from = resume.as_ref().map(|s| s.state.pegs);
    let st = run(&sh, net, store, resume, &mut figures)?;
    let found = finishable(&sh, net, problem)?;
    super::close_run(&sh, net, st, found.as_deref(), figures, resumed_from)
}

/// Pegs, positions and classes of a level's positions that can still finish.
pub(super) type FoundRow = (u32, u64, u64);

/// The positions that can still finish, (pegs, positions, classes) per level, when a finish hole asks for
/// them (and every level was counted): worker 0 finds them in memory, as the single-machine engine does, and
/// tells the others; its error is every worker's.
pub(super) fn finishable<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    problem: &Problem,
) -> Result<Option<Vec<FoundRow>>, ShardError> {
    if !matches!(problem.finish(), Finish::Hole(_)) || sh.opts.max_levels.is_some() {
        return Ok(None);
    }
    let mine = if sh.me == 0 {
        let opts = crate::step::Options {
            max_memory: sh.opts.max_memory,
            portable: sh.opts.portable,
            ..crate::step::Options::default()
        };
        match crate::enumerate::finishable_rows(problem, &opts) {
            Ok(rows) => Ok(rows
                .unwrap_or_default()
                .iter()
                .map(|r| (r.pegs, r.positions, r.classes))
                .collect()),
            Err(e) => Err(super::wire::CountFailure::from(&e)),
        }
    } else {
        Ok(Vec::new())
    };
    let notes = sh.gather(net, NoteBody::Finishable(mine))?;
    match notes.into_iter().next() {
        Some(NoteBody::Finishable(Ok(rows))) => Ok(Some(rows)),
        Some(NoteBody::Finishable(Err(e))) => Err(ShardError::Count(e.into())),
        _ => Err(ShardError::Protocol(
            "no count of the positions that can still finish from worker 0".to_string(),
        )),
    }
}

/// The error of a store on worker `w`.
fn store_error(sh: &Sh<'_>, w: usize, message: String) -> ShardError {
    ShardError::Checkpoint {
        worker: w,
        process: sh.opts.shape.process_of(w),
        message,
    }
}

/// Every worker's result of a store operation: the buckets saved (in worker order), or the first error.
fn agree_saved<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    mine: Result<SavedShare, String>,
) -> Result<Vec<SavedShare>, ShardError> {
    let notes = sh.gather(net, NoteBody::Saved(mine))?;
    let mut all = Vec::with_capacity(notes.len());
    for (w, n) in notes.into_iter().enumerate() {
        match n {
            NoteBody::Saved(Ok(s)) => all.push(s),
            NoteBody::Saved(Err(m)) => return Err(store_error(sh, w, m)),
            _ => {}
        }
    }
    Ok(all)
}

/// Worker 0's store records the state and the buckets of its level; then every other worker's store drops
/// what it no longer needs.
fn commit<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    store: &mut dyn LevelStore,
    st: &State,
    buckets: &[SavedShare],
) -> Result<(), ShardError> {
    let first = if sh.me == 0 {
        store.commit(st, buckets).err()
    } else {
        None
    };
    let notes = sh.gather(net, NoteBody::Committed(first))?;
    if let Some(NoteBody::Committed(Some(m))) = notes.into_iter().next() {
        return Err(store_error(sh, 0, m));
    }
    if sh.me != 0 {
        // Only files of the level before go: a failure here loses nothing recorded.
        let _ = store.commit(st, buckets);
    }
    Ok(())
}

/// The stored level being expanded: this worker's buckets and the counter width.
struct Current {
    wide: bool,
    mine: Vec<SavedShare>,
}

fn run_spilled<N: Counter, K: TableKey, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    store: &mut dyn LevelStore,
    resume: Option<Stored>,
    figures: &mut WorkerFigures,
) -> Result<State, ShardError> {
    let k = sh.k;
    let bits = k.holes as u32;
    let (mut st, mut cur) = match resume {
        Some(s) => {
            let all: u64 = s.buckets.iter().map(|b| b.classes).sum();
            if all != s.state.sizes.last().copied().unwrap_or(0) {
                return Err(ShardError::Resume {
                    worker: sh.me,
                    process: sh.process(),
                    message: format!(
                        "{}: the stored level's buckets do not add up to its size",
                        store.place()
                    ),
                });
            }
            let mine = s
                .buckets
                .iter()
                .filter(|b| b.worker as usize == sh.me)
                .cloned()
                .collect();
            let cur = Current {
                wide: s.state.wide,
                mine,
            };
            (s.state, cur)
        }
        None => {
            let layout = sh.layout::<K>(1);
            let share = ShareLevel::<N>::start(sh, layout);
            let st = State::start(
                problem_pegs(sh),
                sh.starts
                    .iter()
                    .map(|&s| k.normalize(s).0)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len() as u64,
            );
            let saved = store
                .put(
                    st.pegs,
                    0,
                    &Bucket {
                        layout: share.layout,
                        first: share.first,
                        parts: &share.parts,
                        wide: false,
                    },
                )
                .map(|mut s| {
                    s.worker = sh.me as u32;
                    s
                });
            let all = agree_saved(sh, net, saved)?;
            commit(sh, net, store, &st, &all)?;
            let mine = all
                .into_iter()
                .filter(|b| b.worker as usize == sh.me)
                .collect();
            (st, Current { wide: false, mine })
        }
    };
    let pool: Pool<K, N> = Pool::new();
    let wide_pool: Pool<K, u128> = Pool::new();
    let mut classes_so_far: u64 = st.levels.iter().map(|l| l.classes).sum();
    while st.goes_on(sh.opts.max_levels) {
        let t = Instant::now();
        let pegs = st.pegs;
        let last = st.last(k, sh.opts.max_levels);
        let expected = st.expected(last);
        let total = st.sizes.last().copied().unwrap_or(0);
        let plan = plan_step::<K>(sh, store, &cur, (pegs, expected), last);
        let passes = agree_plan(sh, net, plan, pegs, classes_so_far + total)?;
        let min_pbits = key_pbits::<K>(bits).max(
            (sh.workers() * 16 * passes)
                .next_power_of_two()
                .trailing_zeros(),
        );
        let out = Layout::for_size(bits, expected, PART_TARGET, min_pbits);
        let mut traffic = Traffic::default();
        let share_len: u64 = cur.mine.iter().map(|b| b.classes).sum();
        let so_far = classes_so_far + total;
        let done = if cur.wide {
            step_passes::<K, u128, u128, T>(
                sh,
                net,
                store,
                &cur,
                (pegs, expected, out, passes, last),
                true,
                &wide_pool,
                &mut traffic,
                so_far,
            )?
            .map(|d| (d, true))
        } else {
            match step_passes::<K, N, N, T>(
                sh,
                net,
                store,
                &cur,
                (pegs, expected, out, passes, last),
                false,
                &pool,
                &mut traffic,
                so_far,
            )? {
                Some(d) => Some((d, false)),
                None => step_passes::<K, N, u128, T>(
                    sh,
                    net,
                    store,
                    &cur,
                    (pegs, expected, out, passes, last),
                    true,
                    &wide_pool,
                    &mut traffic,
                    so_far,
                )?
                .map(|d| (d, true)),
            }
        };
        let ((acc, saved), wide) = done.ok_or(CountError::Overflow {
            pegs: next_pegs(k, pegs),
        })?;
        if acc.classes != total {
            return Err(ShardError::Protocol(format!(
                "the level with {pegs} pegs has {total} classes, but the workers expanded {}",
                acc.classes
            )));
        }
        let next: u64 = saved.iter().map(|b| b.classes).sum();
        classes_so_far += acc.classes;
        st.advance(k, &acc, if last { 0 } else { next }, wide)?;
        figures.classes_held_max = figures.classes_held_max.max(share_len);
        figures.classes_held += share_len;
        figures.records_sent += traffic.sent;
        figures.records_sent_remote += traffic.sent_remote;
        figures.records_received += traffic.received;
        figures.records_received_remote += traffic.received_remote;
        figures.wire_sent += traffic.wire_sent;
        figures.wire_received += traffic.wire_received;
        figures.rounds += u64::from(traffic.rounds);
        figures.expand_secs += traffic.expand_secs;
        figures.merge_secs += traffic.merge_secs;
        figures.exchange_secs += traffic.exchange_secs;
        if !last && next > 0 {
            let tc = Instant::now();
            commit(sh, net, store, &st, &saved)?;
            figures.checkpoint_secs += tc.elapsed().as_secs_f64();
        }
        let mine: Vec<SavedShare> = saved
            .into_iter()
            .filter(|b| b.worker as usize == sh.me)
            .collect();
        if let Some(p) = sh.opts.progress
            && let Some(row) = st.levels.last()
        {
            p(row);
        }
        if let Some(sink) = sh.opts.stats {
            sink(&ShardStep {
                pegs,
                classes: total,
                share: share_len,
                next_share: mine.iter().map(|b| b.classes).sum(),
                records_sent: traffic.sent,
                records_received: traffic.received,
                wire_sent: traffic.wire_sent,
                wire_received: traffic.wire_received,
                rounds: traffic.rounds,
                rebuilt_wide: wide && !cur.wide,
                expand_secs: traffic.expand_secs,
                merge_secs: traffic.merge_secs,
                exchange_secs: traffic.exchange_secs,
                freeze_secs: 0.0,
                total_secs: t.elapsed().as_secs_f64(),
                estimate: 0,
                round_records: spill_round::<K>(sh) as u64,
            });
        }
        cur = Current { wide, mine };
    }
    Ok(st)
}

/// The pegs of the starts.
fn problem_pegs(sh: &Sh<'_>) -> u32 {
    sh.starts.first().map_or(0, |s| s.count_ones())
}

/// What a worker needs for a step: the passes (or the memory one pass would need at the most passes), and
/// whether its store has the room for its share of the next level.
struct Plan {
    passes: Result<usize, u64>,
    disk: Option<String>,
}

/// The most passes a step may have.
const MAX_PASSES: usize = 1 << 12;

/// Bytes of a round's buffers per record of the round, with counters `D`: about six copies of a round's
/// records between processes, three within one (the in-memory path's `memory_needed` counts them as measured
/// since, the worker's own buffers and the copies of the records sent to other processes: less).
fn round_record_bytes<K: TableKey, D: Counter>(sh: &Sh<'_>) -> u64 {
    let copies = if sh.opts.shape.processes > 1 { 6 } else { 3 };
    copies
        * (std::mem::size_of::<Rec<K>>() as u64 * 5 / 4 + 2 * std::mem::size_of::<D>() as u64 / 4)
}

/// Records a worker expands per exchange in a spilling step: the cluster's round, or fewer when the memory
/// limit is small (a round's buffers take at most a quarter of the worker's part of it).
fn spill_round<K: TableKey>(sh: &Sh<'_>) -> usize {
    let r = sh.round::<K>();
    match sh.opts.max_memory {
        Some(limit) => {
            let per_worker = limit / sh.opts.shape.per_process.max(1) as u64;
            let fit = per_worker / 4 / round_record_bytes::<K, u128>(sh);
            r.min(fit as usize).max(1 << 16)
        }
        None => r,
    }
}

/// The memory a pass needs on this worker for `classes` classes of the next level, with buckets of at most
/// `src_bytes` bytes of the level expanded stored at `per_class` bytes a class.
fn pass_bytes<K: TableKey, D: Counter>(
    sh: &Sh<'_>,
    classes: usize,
    src_bytes: u64,
    per_class: f64,
) -> u64 {
    let slot = std::mem::size_of::<K>() + 2 * std::mem::size_of::<D>();
    let tables = (classes as f64 / INIT_LOAD * 1.07) as u64 * slot as u64;
    let bufs = spill_round::<K>(sh) as u64 * round_record_bytes::<K, D>(sh);
    // Building: a bucket read while the one before it is freed, the tables, a round's buffers; freezing: the
    // tables and the bucket frozen from them.
    let building = 2 * src_bytes + tables + bufs;
    let freezing = tables + (classes as f64 * per_class) as u64;
    let per_process = sh.opts.shape.per_process.max(1) as u64;
    building.max(freezing) / 20 * 21 + BASE_BYTES / per_process
}

fn plan_step<K: TableKey>(
    sh: &Sh<'_>,
    store: &dyn LevelStore,
    cur: &Current,
    (pegs, expected): (u32, usize),
    last: bool,
) -> Plan {
    let src_bytes = cur.mine.iter().map(|b| b.bytes).max().unwrap_or(0);
    let sources: u64 = cur.mine.iter().map(|b| b.classes).sum();
    let stored: u64 = cur.mine.iter().map(|b| b.bytes).sum();
    let per_class = (stored as f64 / sources.max(1) as f64).max(4.0) * 1.1;
    let mine = expected / sh.workers() + 1;
    let disk = match store.free_bytes() {
        Some(free) if !last => {
            let needed = (mine as f64 * per_class * 1.05) as u64 + (64 << 20);
            (needed > free).then(|| {
                format!(
                    "{} has {} free, and its share of the level with {} pegs needs about {} more (the levels so \
                     far are kept there: free some space and run the same command again)",
                    store.place(),
                    crate::count::fmt_bytes(free),
                    next_pegs(sh.k, pegs),
                    crate::count::fmt_bytes(needed)
                )
            })
        }
        _ => None,
    };
    let per_process = sh.opts.shape.per_process.max(1) as u64;
    let passes = match sh.opts.max_memory {
        _ if last => Ok(1),
        None => Ok(1),
        Some(limit) => {
            let limit = limit / per_process;
            let wide = cur.wide;
            let need = |p: usize| {
                if wide {
                    pass_bytes::<K, u128>(sh, mine.div_ceil(p), src_bytes, per_class)
                } else {
                    pass_bytes::<K, u64>(sh, mine.div_ceil(p), src_bytes, per_class)
                }
            };
            let mut p = 1usize;
            while p < MAX_PASSES && need(p) > limit {
                p *= 2;
            }
            if need(p) > limit {
                Err(need(p) * per_process)
            } else {
                Ok(p)
            }
        }
    };
    Plan { passes, disk }
}

/// Tell the others what this worker needs for the step; decide together: the most passes any worker needs.
fn agree_plan<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    plan: Plan,
    pegs: u32,
    classes_so_far: u64,
) -> Result<usize, ShardError> {
    let (passes, needed) = match plan.passes {
        Ok(p) => (p as u64, 0),
        Err(n) => (0, n),
    };
    let notes = sh.gather(
        net,
        NoteBody::Plan {
            passes,
            needed,
            disk: plan.disk,
        },
    )?;
    let mut most = 1usize;
    for (w, n) in notes.into_iter().enumerate() {
        if let NoteBody::Plan {
            passes,
            needed,
            disk,
        } = n
        {
            if let Some(m) = disk {
                return Err(store_error(sh, w, m));
            }
            if passes == 0 {
                let process = sh.opts.shape.process_of(w);
                return Err(ShardError::Memory {
                    process,
                    pegs: next_pegs(sh.k, pegs),
                    needed,
                    limit: sh.opts.max_memory.unwrap_or(0),
                    classes_so_far,
                });
            }
            most = most.max(passes as usize);
        }
    }
    Ok(most)
}

/// One level step in passes with counters `D` (`wide`: the 128-bit counters of a level past 2^64 paths, as the
/// state records it): the statistics of the level expanded (summed over the
/// workers) and every worker's buckets of the next level, written; `None` when a narrow counter overflowed
/// somewhere (the step is built again with 128-bit counters).
#[allow(clippy::too_many_arguments)]
fn step_passes<K: TableKey, S: Counter, D: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    store: &mut dyn LevelStore,
    cur: &Current,
    (pegs, expected, out, passes, last): (u32, usize, Layout, usize, bool),
    wide: bool,
    pool: &Pool<K, D>,
    traffic: &mut Traffic,
    classes_so_far: u64,
) -> Result<Option<(Acc, Vec<SavedShare>)>, ShardError> {
    let k = sh.k;
    let bits = k.holes as u32;
    let nparts = out.parts();
    let workers = sh.workers();
    let mut first_acc = None;
    let mut saved = Vec::new();
    let limits = vec![sh.opts.max_memory; sh.opts.shape.processes];
    for pass in 0..passes {
        let (a, b) = if last {
            (0, 0)
        } else {
            (pass * nparts / passes, (pass + 1) * nparts / passes)
        };
        let ctx = Ctx {
            k,
            mixer: sh.mixer,
            pegs,
            finish_key: sh.finish_key,
            out,
            emit: !last,
            filter: None,
            first: a,
            parts: b - a,
        };
        let mut read_error: Option<String> = None;
        let sizes = (expected, spill_round::<K>(sh));
        let built = build_with::<K, D, T, _>(
            sh,
            &ctx,
            sizes,
            net,
            pool,
            traffic,
            |rounds, sink, checks, round| {
                let n = cur.mine.len();
                for (i, b) in cur.mine.iter().enumerate() {
                    if rounds.ended() {
                        break;
                    }
                    let more = i + 1 < n;
                    let piece = match store.get(b) {
                        Ok(mut r) => read_bucket::<S>(&mut *r, bits, cur.wide)
                            .map_err(|e| format!("{}: {e}", b.name)),
                        Err(e) => Err(e),
                    };
                    match piece {
                        Ok(piece) => {
                            let src = Source::Parts {
                                layout: piece.layout,
                                first: piece.first,
                                parts: &piece.parts,
                            };
                            rounds.feed(&ctx, src, sink, checks, round, more)?;
                        }
                        Err(e) => {
                            read_error = Some(e);
                            break;
                        }
                    }
                }
                if !rounds.ended() {
                    // Nothing (more) to expand here: go on in step with the others until they are done.
                    let none: Source<'_, K, S> = Source::Parts {
                        layout: out,
                        first: 0,
                        parts: &[],
                    };
                    rounds.feed(&ctx, none, sink, checks, round, false)?;
                }
                Ok(())
            },
        )?;
        let ok = built.failure == super::wire::Failure::None;
        let next_len: u64 = if ok {
            built.tables.iter().map(|t| t.len() as u64).sum()
        } else {
            0
        };
        let verdict = agree_end(
            sh,
            net,
            (built.acc, next_len, built.failure),
            ctx.pegs,
            std::mem::size_of::<D>() == 16,
            &limits,
            classes_so_far,
        )?;
        let acc = match verdict {
            Verdict::Done(acc, _) => acc,
            Verdict::Narrow => {
                for t in built.tables {
                    t.recycle(pool);
                }
                return Ok(None);
            }
        };
        if first_acc.is_none() {
            first_acc = Some(acc);
        }
        if last {
            // A read that failed: every worker stops with it.
            let read = match read_error {
                Some(e) => Err(e),
                None => Ok(SavedShare {
                    worker: sh.me as u32,
                    classes: 0,
                    bytes: 0,
                    checksum: 0,
                    name: String::new(),
                }),
            };
            agree_saved(sh, net, read)?;
            break;
        }
        let (lo, _) = owned_in(a, b, sh.me, workers);
        let parts: Vec<Part<D>> = built
            .tables
            .into_iter()
            .enumerate()
            .map(|(i, t)| t.freeze(lo + i, &out, pool))
            .collect();
        let mine = match read_error {
            Some(e) => Err(e),
            None => store
                .put(
                    next_pegs(k, ctx.pegs),
                    pass,
                    &Bucket {
                        layout: out,
                        first: lo,
                        parts: &parts,
                        wide,
                    },
                )
                .map(|mut s| {
                    s.worker = sh.me as u32;
                    s
                }),
        };
        pool.recycle_parts(parts);
        saved.extend(agree_saved(sh, net, mine)?);
    }
    // Each worker's buckets together, in key order within each worker.
    saved.sort_by_key(|s| s.worker);
    Ok(Some((first_acc.unwrap_or_default(), saved)))
}
