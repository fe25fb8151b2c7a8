//! The level-by-level enumeration split among workers that own parts of each level and exchange records: the
//! engine side of a cluster run (the `peg-cluster` crate runs it over timely dataflow; this module has no
//! network or thread code of its own).
//!
//! Each level is split by *mixed key* (the level's partitions, see [`crate::enumerate`], are ranges of mixed
//! keys): worker `w` of `P` owns the partitions `w * n / P .. (w + 1) * n / P` of the level's `n`, so every
//! class has one owner, found from its key alone. A level step, on every worker in lockstep:
//!
//! 1. in *rounds*, the worker expands a slice of its share with the engine's own round driver (the same
//!    expansion, statistics and counters as the single-machine engine; the exchange is where its records go),
//!    which writes each successor as a record (its key, and the index of its counters) into the buffer of its
//!    partition; the buffers of each owner's partitions go to that owner in one [`Parcel`] (as they are to a
//!    worker of the same process, byte-packed to one in another: [`Transport::exchange`]);
//! 2. each owner adds the records it received into its partitions' tables (the engine's tables);
//! 3. when no worker has sources left, each freezes its tables into its share of the next level, and the
//!    workers tell each other ([`Transport::all_gather`]) the statistics of the level they expanded, so that
//!    every worker builds the same table row; the sums are checked, as in the engine.
//!
//! Every decision that must be the same everywhere is taken from what all workers said: the expected size of
//! the next level (its partitions), whether a level must be rebuilt with 128-bit counters (some counter
//! overflowed on some worker), whether a process would pass its memory limit, whether a checkpoint was written.
//! So every worker stops with the same error, at the same point.
//!
//! Checkpoints ([`Checkpoint`]): after each level, each worker saves its share of the next level, and worker 0
//! records the [`State`] (the rows so far) once every share is saved; [`Resume`] starts from there.

mod checkpoint;
mod error;
mod figures;
mod finish;
mod records;
mod run;
mod share;
mod spill;
mod step;
mod wire;
mod worker;

use crate::board::Symmetry;
use crate::count::Count;
use crate::counter::NoCount;
use crate::finishable::FinishableLevel;
use crate::kernel::Kernel;
use crate::level::Mixer;
use crate::position::Position;
use crate::problem::{Finish, Problem};
use crate::step::{CounterWidth, NARROW_KEY_BITS};
use finish::{FinishPlan, Keep};
use run::run_with;
use spill::FoundRow;
use wire::NoteBody;
use worker::Sh;

pub use crate::step::State;
pub use checkpoint::{Checkpoint, Resume, SavedShare, ShareData};
pub use error::{ShardError, TransportError};
pub use figures::{ShardOutput, ShardStep, WorkerFigures};
pub use spill::count_spilled;
pub use wire::{Note, Parcel, Shape, Transport};
pub use worker::ShardOptions;

/// Run this worker's part of the enumeration of `problem`; every worker of `opts.shape` must call it with the
/// same problem and options (but `worker`, `max_memory` and the callbacks), with transports that reach each
/// other. With `checkpoint`, each level is saved; with `resume`, the run starts from a saved level.
///
/// With a finish hole, the positions that can still finish are counted as the single-machine engine counts
/// them: from the complements of the reachable levels when the finish is the start's vacancy, else from a
/// table of the positions that can reach the finish (a distributed enumeration of jumps taken back, whose
/// levels each worker keeps its share of), matched level by level with the reachable positions by sending
/// each key to its owner. With checkpoints (or resuming), they are counted instead as the spilling run
/// counts them ([`count_spilled`]): worker 0 finds them in memory before the first level (within its
/// process's memory limit; they are dropped before the levels grow) and tells the others, and every
/// checkpoint's [`State::finishable`] records them, so that a resumed run reads them back (a checkpoint
/// without them, of a run of the first levels only, has them found again).
///
/// # Errors
/// See [`ShardError`].
pub fn count<T: Transport + ?Sized>(
    problem: &Problem,
    opts: &ShardOptions<'_>,
    net: &mut T,
    checkpoint: Option<&mut dyn Checkpoint>,
    resume: Option<Resume<'_>>,
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
    let finish_key = match problem.finish() {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
    };
    let sh = Sh {
        k: &k,
        mixer: Mixer::new(k.holes as u32),
        me: opts.worker,
        opts,
        starts: vec![problem.start().bits()],
        finish_key,
    };
    let mut figures = WorkerFigures {
        worker: opts.worker as u32,
        process: opts.shape.process_of(opts.worker) as u32,
        ..WorkerFigures::default()
    };
    let width = opts.counter_width;
    let wide = k.holes as u32 > NARROW_KEY_BITS;
    // With checkpoints and a finish hole: the positions that can still finish, found once (or read back
    // from the checkpoint resumed), and recorded in every checkpoint.
    let saved = checkpoint.is_some() || resume.is_some();
    let rows: Option<Vec<FoundRow>> = match problem.finish() {
        Finish::Hole(_) if saved && opts.max_levels.is_none() => {
            match resume.as_ref().and_then(|r| r.state.finishable.as_ref()) {
                Some(kept) => Some(
                    kept.iter()
                        .map(|r| (r.pegs, r.positions, r.classes))
                        .collect(),
                ),
                None => spill::finishable(&sh, net, problem)?,
            }
        }
        _ => None,
    };
    let (mut with_rows, checkpoint) = match (&rows, checkpoint) {
        (Some(r), Some(inner)) => (
            Some(WithRows {
                inner,
                rows: r
                    .iter()
                    .map(|&(pegs, positions, classes)| FinishableLevel {
                        pegs,
                        positions,
                        classes,
                    })
                    .collect(),
            }),
            None,
        ),
        (_, inner) => (None, inner),
    };
    // What to count besides the enumeration (the engine's choices, in the same order).
    let mut plan = match problem.finish() {
        Finish::Hole(h) if opts.max_levels.is_none() && rows.is_none() => {
            let single = Position::EMPTY.with_peg(h);
            if board.position_class(problem.start()) != board.position_class(single) {
                FinishPlan::Zero
            } else if problem.group().iter().all(|s| s.map_hole(h) == h)
                && problem.start().bits() == board.full().bits() ^ 1 << h
            {
                FinishPlan::SelfDual {
                    kept: Vec::new(),
                    full: board.full().bits(),
                    found: Vec::new(),
                }
            } else {
                let both: Vec<Symmetry> = problem
                    .group()
                    .iter()
                    .filter(|s| s.map_hole(h) == h)
                    .cloned()
                    .collect();
                let same = both.len() == problem.group().len();
                let rk = Kernel::new_reverse(board, &both);
                let rsh = Sh {
                    k: &rk,
                    mixer: sh.mixer,
                    me: opts.worker,
                    opts: &ShardOptions {
                        max_levels: None,
                        progress: None,
                        stats: None,
                        counter_width: CounterWidth::U64,
                        ..*opts
                    },
                    starts: vec![1u64 << h],
                    finish_key: None,
                };
                let mut keep = Keep { levels: Vec::new() };
                if wide {
                    run_with::<NoCount, u64, T, Keep>(
                        &rsh,
                        net,
                        None,
                        None,
                        &mut keep,
                        &mut figures,
                    )?;
                } else {
                    run_with::<NoCount, u32, T, Keep>(
                        &rsh,
                        net,
                        None,
                        None,
                        &mut keep,
                        &mut figures,
                    )?;
                }
                FinishPlan::Table {
                    levels: keep.levels,
                    same,
                    tk: Box::new(Kernel::new(board, &both)),
                    found: Vec::new(),
                }
            }
        }
        _ => FinishPlan::None,
    };
    let run = match (width, wide) {
        (CounterWidth::U64, false) => run_with::<u64, u32, T, FinishPlan>,
        (CounterWidth::U64, true) => run_with::<u64, u64, T, FinishPlan>,
        (CounterWidth::U16, false) => run_with::<u16, u32, T, FinishPlan>,
        (CounterWidth::U16, true) => run_with::<u16, u64, T, FinishPlan>,
        (CounterWidth::U128, false) => run_with::<u128, u32, T, FinishPlan>,
        (CounterWidth::U128, true) => run_with::<u128, u64, T, FinishPlan>,
    };
    let checkpoint: Option<&mut dyn Checkpoint> = match with_rows.as_mut() {
        Some(w) => Some(w),
        None => checkpoint.map(|c| c as &mut dyn Checkpoint),
    };
    let (st, resumed_from) = run(&sh, net, checkpoint, resume, &mut plan, &mut figures)?;
    let found = rows.as_deref().or(plan.found());
    close_run(&sh, net, st, found, figures, resumed_from)
}

/// A checkpoint whose states record the positions that can still finish (found before the first level).
struct WithRows<'a> {
    inner: &'a mut dyn Checkpoint,
    rows: Vec<FinishableLevel>,
}

impl Checkpoint for WithRows<'_> {
    fn save(&mut self, pegs: u32, share: &dyn ShareData) -> Result<SavedShare, String> {
        self.inner.save(pegs, share)
    }

    fn commit(&mut self, state: &State, shares: &[SavedShare]) -> Result<(), String> {
        let state = State {
            finishable: Some(self.rows.clone()),
            ..state.clone()
        };
        self.inner.commit(&state, shares)
    }
}

/// The end of a worker's run, in memory or spilled: the finishable figures (where a finish hole was asked for)
/// put into the levels, every worker's figures gathered, and the count.
fn close_run<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    mut st: State,
    found: Option<&[(u32, u64, u64)]>,
    mut figures: WorkerFigures,
    resumed_from: Option<u32>,
) -> Result<ShardOutput, ShardError> {
    if let Some(found) = found {
        for l in &mut st.levels {
            let (a, c) = found
                .iter()
                .find(|f| f.0 == l.pegs)
                .map_or((0, 0), |f| (f.1, f.2));
            l.finishable = Some(a);
            l.finishable_classes = Some(c);
        }
    }
    if let Some(hook) = sh.opts.figures {
        hook(&mut figures);
    }
    let notes = sh.gather(net, NoteBody::Figures(figures))?;
    let figures = notes
        .into_iter()
        .filter_map(|n| match n {
            NoteBody::Figures(f) => Some(f),
            _ => None,
        })
        .collect();
    let count = Count::from_levels(
        sh.k.group_size,
        st.levels,
        st.solutions_full,
        st.solutions_normal,
    )?;
    Ok(ShardOutput {
        count,
        figures,
        resumed_from,
    })
}
