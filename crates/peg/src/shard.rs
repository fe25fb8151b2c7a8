//! The level-by-level enumeration split among workers that own parts of each level and exchange records: the
//! engine side of a cluster run (the `peg-cluster` crate runs it over timely dataflow; this module has no
//! network or thread code of its own).
//!
//! Each level is split by *mixed key* (the level's partitions, see [`crate::enumerate`], are ranges of mixed
//! keys): worker `w` of `P` owns the partitions `w * n / P .. (w + 1) * n / P` of the level's `n`, so every
//! class has one owner, found from its key alone. A level step, on every worker in lockstep:
//!
//! 1. in *rounds*, the worker expands a slice of its share with the engine's own kernels (the same expansion,
//!    statistics and counters as the single-machine engine: [`crate::enumerate`]'s code, called here), which
//!    writes each successor as a record (its key, and the index of its counters) into the buffer of its
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

use std::any::Any;
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::board::Symmetry;
use crate::count::{Count, CountError, Level, add};
use crate::counter::{Counter, NoCount, SrcIndex};
use crate::enumerate::{
    Acc, BASE_BYTES, CounterWidth, Ctx, NARROW_KEY_BITS, Progress, StepError, Worker, block_len,
    estimate, expand_dispatch, next_pegs, round_records,
};
use crate::kernel::Kernel;
use crate::level::{
    BLOCK, INIT_LOAD, Layout, Mixer, PART_TARGET, Part, Pool, Rec, Table, TableKey,
};
use crate::position::Position;
use crate::problem::{Finish, Problem};

/// What went wrong in a transport (a connection lost, a peer gone): a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TransportError(pub String);

/// How the workers of a distributed enumeration reach each other. Every worker calls the two methods the same
/// number of times, in the same order (the enumeration is in lockstep); each call returns when every worker
/// has made it.
pub trait Transport {
    /// Send each parcel to its worker ([`Parcel::to`]); return the parcels sent to this worker in this call
    /// (one from every worker, the worker itself included), in any order.
    ///
    /// # Errors
    /// When a worker cannot be reached any more.
    fn exchange(&mut self, parcels: Vec<Parcel>) -> Result<Vec<Parcel>, TransportError>;

    /// Send `note` to every worker; return the notes of all workers (this one's included), in any order.
    ///
    /// # Errors
    /// When a worker cannot be reached any more.
    fn all_gather(&mut self, note: Note) -> Result<Vec<Note>, TransportError>;
}

/// How many processes, and how many workers each: worker `w` runs in process `w / per_process`. Workers of one
/// process hand each other records as they are; to another process they are byte-packed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Number of processes.
    pub processes: usize,
    /// Workers per process.
    pub per_process: usize,
}

impl Shape {
    /// Number of workers.
    pub fn workers(&self) -> usize {
        self.processes * self.per_process
    }

    /// The process of worker `w`.
    pub fn process_of(&self, w: usize) -> usize {
        w / self.per_process.max(1)
    }
}

/// One worker's records for another, in one exchange. Parcels between workers of one process carry the
/// buffers themselves; between processes, a byte string (which is what [`Serialize`] writes).
pub struct Parcel {
    to: u32,
    from: u32,
    /// Bit 0: the sender has more sources to expand in this level; bit 1: the sender's step failed.
    flags: u8,
    body: Body,
}

enum Body {
    Empty,
    Local(Arc<dyn Any + Send + Sync>),
    Wire(Vec<u8>),
}

const MORE: u8 = 1;
const FAILED: u8 = 2;

impl Parcel {
    /// The worker it is for.
    pub fn to(&self) -> usize {
        self.to as usize
    }

    /// The worker it is from.
    pub fn from(&self) -> usize {
        self.from as usize
    }

    /// Bytes it takes between processes (0 for a parcel between workers of one process).
    pub fn wire_bytes(&self) -> usize {
        match &self.body {
            Body::Wire(b) => b.len(),
            _ => 0,
        }
    }
}

impl Clone for Parcel {
    fn clone(&self) -> Parcel {
        Parcel {
            to: self.to,
            from: self.from,
            flags: self.flags,
            body: match &self.body {
                Body::Empty => Body::Empty,
                Body::Local(a) => Body::Local(Arc::clone(a)),
                Body::Wire(b) => Body::Wire(b.clone()),
            },
        }
    }
}

impl std::fmt::Debug for Parcel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = match &self.body {
            Body::Empty => "empty".to_string(),
            Body::Local(_) => "local".to_string(),
            Body::Wire(b) => format!("{} bytes", b.len()),
        };
        f.debug_struct("Parcel")
            .field("to", &self.to)
            .field("from", &self.from)
            .field("flags", &self.flags)
            .field("body", &body)
            .finish()
    }
}

/// A byte string serialized as one (so that binary formats copy it in one go).
struct ByteStr<'a>(&'a [u8]);

impl Serialize for ByteStr<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// The owned counterpart of [`ByteStr`].
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ByteBuf, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<ByteBuf, A::Error> {
                let mut v = Vec::with_capacity(a.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(b) = a.next_element::<u8>()? {
                    v.push(b);
                }
                Ok(ByteBuf(v))
            }
        }
        d.deserialize_byte_buf(V)
    }
}

/// Body kinds on the wire.
const KIND_EMPTY: u8 = 0;
const KIND_WIRE: u8 = 1;
/// A parcel between workers of one process that was serialized all the same (a transport that does not keep
/// them in the process): the receiver reports it.
const KIND_LOCAL: u8 = 2;

impl Serialize for Parcel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let (kind, bytes): (u8, &[u8]) = match &self.body {
            Body::Empty => (KIND_EMPTY, &[]),
            Body::Wire(b) => (KIND_WIRE, b),
            Body::Local(_) => (KIND_LOCAL, &[]),
        };
        let mut t = s.serialize_tuple(5)?;
        t.serialize_element(&self.to)?;
        t.serialize_element(&self.from)?;
        t.serialize_element(&self.flags)?;
        t.serialize_element(&kind)?;
        t.serialize_element(&ByteStr(bytes))?;
        t.end()
    }
}

impl<'de> Deserialize<'de> for Parcel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Parcel, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Parcel;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a parcel")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Parcel, A::Error> {
                use serde::de::Error;
                let missing = || A::Error::custom("a parcel ended early");
                let to: u32 = a.next_element()?.ok_or_else(missing)?;
                let from: u32 = a.next_element()?.ok_or_else(missing)?;
                let flags: u8 = a.next_element()?.ok_or_else(missing)?;
                let kind: u8 = a.next_element()?.ok_or_else(missing)?;
                let bytes: ByteBuf = a.next_element()?.ok_or_else(missing)?;
                let body = match kind {
                    KIND_EMPTY => Body::Empty,
                    KIND_WIRE => Body::Wire(bytes.0),
                    KIND_LOCAL => {
                        return Err(A::Error::custom(
                            "a parcel between workers of one process was sent between processes",
                        ));
                    }
                    k => return Err(A::Error::custom(format!("unknown parcel kind {k}"))),
                };
                Ok(Parcel {
                    to,
                    from,
                    flags,
                    body,
                })
            }
        }
        d.deserialize_tuple(5, V)
    }
}

/// A small message every worker sends to every other at the points where they must agree (the start and the
/// end of each level step, checkpoints, the final figures).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Note {
    from: u32,
    body: NoteBody,
}

impl Note {
    /// The worker it is from.
    pub fn from(&self) -> usize {
        self.from as usize
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
enum NoteBody {
    /// Whether the worker could read its share of a checkpoint (an error message if not).
    Loaded(Option<String>),
    /// A level step is about to start: the memory the worker expects it to need and its process's limit.
    Start { needed: u64, limit: Option<u64> },
    /// A level step ended: the statistics of the worker's share of the level expanded, the classes of its
    /// share of the next level, and whether (and how) its step failed.
    End {
        acc: Acc,
        next_len: u64,
        failure: Failure,
    },
    /// The worker saved its share in a checkpoint (or why it could not).
    Saved(Result<SavedShare, String>),
    /// Worker 0 recorded the checkpoint (or why it could not).
    Committed(Option<String>),
    /// The worker's figures, at the end.
    Figures(WorkerFigures),
    /// Positions and classes of the worker's share of a level that can still finish.
    Found { positions: u64, classes: u64 },
}

impl NoteBody {
    fn name(&self) -> &'static str {
        match self {
            NoteBody::Loaded(_) => "loaded",
            NoteBody::Start { .. } => "start",
            NoteBody::End { .. } => "end",
            NoteBody::Saved(_) => "saved",
            NoteBody::Committed(_) => "committed",
            NoteBody::Figures(_) => "figures",
            NoteBody::Found { .. } => "found",
        }
    }
}

/// How a worker's level step failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Failure {
    None,
    /// A narrow counter overflowed: the level is rebuilt with 128-bit counters.
    Narrow,
    /// The worker's memory passed its part of the process's limit; the bytes it expects the process to need.
    Memory {
        needed: u64,
    },
    /// A 128-bit counter overflowed.
    Overflow {
        pegs: u32,
    },
}

/// A worker's share of a checkpoint, as its [`Checkpoint`] saved it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedShare {
    /// The worker.
    pub worker: u32,
    /// Classes in the share.
    pub classes: u64,
    /// Bytes written.
    pub bytes: u64,
    /// A checksum of the bytes (the checkpoint's choice), checked when the share is read back.
    pub checksum: u64,
    /// Where it was written (a file name, for the manifest).
    pub name: String,
}

/// A worker's share of a level, to be saved by a [`Checkpoint`].
pub trait ShareData {
    /// Classes in the share.
    fn classes(&self) -> u64;
    /// Write the share (a format [`Resume`] reads back).
    ///
    /// # Errors
    /// The writer's errors.
    fn write_to(&self, w: &mut dyn Write) -> std::io::Result<()>;
}

/// Where the workers of a run save their shares after each level, so that a run stopped by a lost process can
/// start again from the last level saved.
pub trait Checkpoint {
    /// Save this worker's share of the level with `pegs` pegs (the next level to expand).
    ///
    /// # Errors
    /// A message saying what could not be written.
    fn save(&mut self, pegs: u32, share: &dyn ShareData) -> Result<SavedShare, String>;

    /// On worker 0, once every worker has saved its share: record the state of the run (this completes the
    /// checkpoint of the level).
    ///
    /// # Errors
    /// A message saying what could not be written.
    fn commit(&mut self, state: &State, shares: &[SavedShare]) -> Result<(), String>;
}

/// Where a run stands after a level: what a checkpoint records besides the shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Pegs of the next level to expand (whose shares are saved).
    pub pegs: u32,
    /// Whether that level has 128-bit counters.
    pub wide: bool,
    /// The table rows of the levels expanded so far.
    pub levels: Vec<Level>,
    /// Solutions found so far, full tree.
    pub solutions_full: u128,
    /// Solutions found so far, normal tree.
    pub solutions_normal: u128,
    /// Classes of every level so far, the next one included (for the size estimates).
    pub sizes: Vec<u64>,
}

/// Where to start a run from: a checkpoint's state and this worker's share of its level.
pub struct Resume<'a> {
    /// The state recorded.
    pub state: State,
    /// This worker's share, as [`ShareData::write_to`] wrote it.
    pub share: &'a mut dyn Read,
}

/// Measurements of one worker's level step (for a log of the run).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ShardStep {
    /// Pegs of the level expanded.
    pub pegs: u32,
    /// Classes of the whole level, and of this worker's share.
    pub classes: u64,
    /// Classes of this worker's share of the level expanded.
    pub share: u64,
    /// Classes of this worker's share of the next level.
    pub next_share: u64,
    /// Records this worker sent (to itself included), and received.
    pub records_sent: u64,
    /// Records received.
    pub records_received: u64,
    /// Bytes this worker sent to, and received from, other processes.
    pub wire_sent: u64,
    /// Bytes received from other processes.
    pub wire_received: u64,
    /// Exchanges of the step.
    pub rounds: u32,
    /// Whether the level was rebuilt with 128-bit counters.
    pub rebuilt_wide: bool,
    /// Seconds expanding, merging, waiting in exchanges, freezing, and in all.
    pub expand_secs: f64,
    /// Seconds merging records into tables.
    pub merge_secs: f64,
    /// Seconds in exchanges (sending, waiting, receiving).
    pub exchange_secs: f64,
    /// Seconds freezing tables.
    pub freeze_secs: f64,
    /// Seconds of the whole step.
    pub total_secs: f64,
}

/// A worker's figures over a whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerFigures {
    /// The worker.
    pub worker: u32,
    /// Its process.
    pub process: u32,
    /// Classes of its largest share of a level.
    pub classes_held_max: u64,
    /// Classes of its shares of all levels.
    pub classes_held: u64,
    /// Records it sent (to itself included).
    pub records_sent: u64,
    /// Of those, to workers of other processes.
    pub records_sent_remote: u64,
    /// Records it received.
    pub records_received: u64,
    /// Of those, from workers of other processes.
    pub records_received_remote: u64,
    /// Bytes of the parcels it sent to other processes.
    pub wire_sent: u64,
    /// Bytes of the parcels it received from other processes.
    pub wire_received: u64,
    /// Exchanges.
    pub rounds: u64,
    /// Seconds expanding.
    pub expand_secs: f64,
    /// Seconds merging.
    pub merge_secs: f64,
    /// Seconds in exchanges and agreements (including waiting for the others).
    pub exchange_secs: f64,
    /// Seconds saving checkpoints.
    pub checkpoint_secs: f64,
    /// Figures of the whole process, given by the first worker of each process (see
    /// [`ShardOptions::figures`]): peak memory (bytes).
    pub process_peak_memory: u64,
    /// CPU seconds of the process.
    pub process_cpu_secs: f64,
    /// Bytes the process sent to other processes.
    pub process_bytes_sent: u64,
    /// Bytes the process received from other processes.
    pub process_bytes_received: u64,
}

/// The result of a worker's run: the table (the same on every worker) and every worker's figures.
#[derive(Debug, Clone)]
pub struct ShardOutput {
    /// The table.
    pub count: Count,
    /// The figures of every worker, by worker.
    pub figures: Vec<WorkerFigures>,
    /// The checkpoint level the run started from (its number of pegs), if it resumed.
    pub resumed_from: Option<u32>,
}

/// Why a worker's run stopped (every worker stops with the same error, but for the transport's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// The enumeration's own error (a counter past 2^128).
    #[error(transparent)]
    Count(#[from] CountError),
    /// A process would pass its memory limit.
    #[error(
        "stopped before the level with {pegs} pegs: process {process} would need about {} of memory and its limit is {} \
         (the levels before it had {} up to symmetry; raise the limit with --max-memory, \
         or spread the run over more processes)",
        crate::count::fmt_bytes(*.needed), crate::count::fmt_bytes(*.limit),
        crate::count::positions(*.classes_so_far)
    )]
    Memory {
        /// The process.
        process: usize,
        /// The level that was not built.
        pegs: u32,
        /// Estimated bytes the process needs for it.
        needed: u64,
        /// The process's limit.
        limit: u64,
        /// Classes enumerated before stopping.
        classes_so_far: u64,
    },
    /// A worker could not reach the others.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// A worker could not save or commit its checkpoint.
    #[error("checkpoint not written by worker {worker} (process {process}): {message}")]
    Checkpoint {
        /// The worker.
        worker: usize,
        /// Its process.
        process: usize,
        /// What went wrong.
        message: String,
    },
    /// A worker could not read its share of the checkpoint it was asked to resume from.
    #[error("cannot resume: worker {worker} (process {process}): {message}")]
    Resume {
        /// The worker.
        worker: usize,
        /// Its process.
        process: usize,
        /// What went wrong.
        message: String,
    },
    /// The problem is one this engine does not run.
    #[error("{0}")]
    Unsupported(String),
    /// The workers fell out of step (a bug, or workers of different versions).
    #[error("the workers fell out of step: {0}")]
    Protocol(String),
}

/// Settings of one worker's run.
#[derive(Clone, Copy)]
pub struct ShardOptions<'a> {
    /// This worker's index, `0..shape.workers()`.
    pub worker: usize,
    /// Processes and workers.
    pub shape: Shape,
    /// The memory limit of this worker's process.
    pub max_memory: Option<u64>,
    /// Enumerate only this many levels (from the start down).
    pub max_levels: Option<usize>,
    /// Called after each level with its row (on every worker).
    pub progress: Option<Progress<'a>>,
    /// Called after each level step with this worker's measurements.
    pub stats: Option<&'a dyn Fn(&ShardStep)>,
    /// Use the portable kernel even when the CPU has AVX-512.
    pub portable: bool,
    /// Counter width to start each level with.
    pub counter_width: CounterWidth,
    /// Records a worker expands per exchange (0: the engine's round, shared by the process's workers).
    pub round_records: usize,
    /// Called with this worker's figures at the end, before they are sent to the others (to add the figures
    /// of its process).
    pub figures: Option<&'a dyn Fn(&mut WorkerFigures)>,
}

impl<'a> ShardOptions<'a> {
    /// Options for worker `worker` of `shape`, with everything else as by default.
    pub fn new(worker: usize, shape: Shape) -> ShardOptions<'a> {
        ShardOptions {
            worker,
            shape,
            max_memory: None,
            max_levels: None,
            progress: None,
            stats: None,
            portable: false,
            counter_width: CounterWidth::U64,
            round_records: 0,
            figures: None,
        }
    }
}

/// Run this worker's part of the enumeration of `problem`; every worker of `opts.shape` must call it with the
/// same problem and options (but `worker`, `max_memory` and the callbacks), with transports that reach each
/// other. With `checkpoint`, each level is saved; with `resume`, the run starts from a saved level.
///
/// With a finish hole, the positions that can still finish are counted as the single-machine engine counts
/// them: from the complements of the reachable levels when the finish is the start's vacancy, else from a
/// table of the positions that can reach the finish (a distributed enumeration of jumps taken back, whose
/// levels each worker keeps its share of), matched level by level with the reachable positions by sending
/// each key to its owner.
///
/// # Errors
/// See [`ShardError`]. Checkpoints with a finish hole are not supported.
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
    if let Finish::Hole(h) = problem.finish()
        && opts.max_levels.is_none()
        && (checkpoint.is_some() || resume.is_some())
    {
        return Err(ShardError::Unsupported(format!(
            "checkpoints of a count with a finish hole ({}) are not supported yet: leave out --finish or \
             --checkpoint",
            board.hole_name(h)
        )));
    }
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
    // What to count besides the enumeration (the engine's choices, in the same order).
    let mut plan = match problem.finish() {
        Finish::Hole(h) if opts.max_levels.is_none() => {
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
    let (mut st, resumed_from) = run(&sh, net, checkpoint, resume, &mut plan, &mut figures)?;
    if let Some(found) = plan.found() {
        for l in &mut st.levels {
            let (a, c) = found
                .iter()
                .find(|f| f.0 == l.pegs)
                .map_or((0, 0), |f| (f.1, f.2));
            l.finishable = Some(a);
            l.finishable_classes = Some(c);
        }
    }
    if let Some(hook) = opts.figures {
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
        k.group_size,
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

/// What every step of one worker's run shares.
struct Sh<'a> {
    k: &'a Kernel,
    mixer: Mixer,
    me: usize,
    opts: &'a ShardOptions<'a>,
    /// The positions of the first level.
    starts: Vec<u64>,
    /// The normal form of the finish position, when the finish is a hole.
    finish_key: Option<u64>,
}

impl Sh<'_> {
    fn workers(&self) -> usize {
        self.opts.shape.workers()
    }

    fn process(&self) -> usize {
        self.opts.shape.process_of(self.me)
    }

    fn bits(&self) -> u32 {
        self.k.holes as u32
    }

    /// The partitions of a level of about `expected` classes: as the engine's, but at least 16 per worker (so
    /// that the shares are within a few percent of each other), and small enough for 32-bit keys.
    fn layout<K: TableKey>(&self, expected: usize) -> Layout {
        let bits = self.bits();
        let key_pbits = if K::fits(64) {
            0
        } else {
            bits.saturating_sub(31)
        };
        let share_pbits = (self.workers() * 16).next_power_of_two().trailing_zeros();
        Layout::for_size(bits, expected, PART_TARGET, key_pbits.max(share_pbits))
    }

    /// The partitions worker `w` owns.
    fn owned(&self, layout: &Layout, w: usize) -> (usize, usize) {
        let (n, p) = (layout.parts(), self.workers());
        (w * n / p, (w + 1) * n / p)
    }

    /// The owner of every partition of `layout`.
    fn owners(&self, layout: &Layout) -> Vec<u32> {
        let mut o = vec![0u32; layout.parts()];
        for w in 0..self.workers() {
            let (lo, hi) = self.owned(layout, w);
            o[lo..hi].fill(w as u32);
        }
        o
    }

    /// Records this worker expands per exchange.
    fn round<K: TableKey>(&self) -> usize {
        if self.opts.round_records > 0 {
            self.opts.round_records
        } else {
            (round_records::<K>() / self.opts.shape.per_process.max(1)).max(1 << 16)
        }
    }

    /// All workers' notes, by worker, after checking that they are all at the same point.
    fn gather<T: Transport + ?Sized>(
        &self,
        net: &mut T,
        body: NoteBody,
    ) -> Result<Vec<NoteBody>, ShardError> {
        let name = body.name();
        let mut notes = net.all_gather(Note {
            from: self.me as u32,
            body,
        })?;
        notes.sort_by_key(|n| n.from);
        let ok = notes.len() == self.workers()
            && notes.iter().enumerate().all(|(i, n)| n.from as usize == i)
            && notes.iter().all(|n| n.body.name() == name);
        if !ok {
            let got: Vec<String> = notes
                .iter()
                .map(|n| format!("{}:{}", n.from, n.body.name()))
                .collect();
            return Err(ShardError::Protocol(format!(
                "worker {} expected a '{name}' note from each of {} workers, got [{}]",
                self.me,
                self.workers(),
                got.join(", ")
            )));
        }
        Ok(notes.into_iter().map(|n| n.body).collect())
    }
}

/// One worker's share of a level: partitions `first..first + parts.len()` of `layout`.
struct ShareLevel<C> {
    layout: Layout,
    first: usize,
    parts: Vec<Part<C>>,
}

impl<C: Counter> ShareLevel<C> {
    fn len(&self) -> usize {
        self.parts.iter().map(Part::len).sum()
    }

    fn bytes(&self) -> u64 {
        self.parts.iter().map(Part::bytes).sum::<u64>()
            + (self.parts.capacity() * std::mem::size_of::<Part<C>>()) as u64
    }

    /// Every block, in key order: (index in `parts`, block).
    fn blocks(&self) -> Vec<(usize, usize)> {
        self.parts
            .iter()
            .enumerate()
            .flat_map(|(i, p)| (0..p.blocks()).map(move |b| (i, b)))
            .collect()
    }

    /// The share of the first level: the starts' classes, each on the worker that owns its key.
    fn start(sh: &Sh<'_>, layout: Layout) -> ShareLevel<C> {
        let one = C::from_u128(1).unwrap_or_default();
        let mut slots: Vec<crate::level::Slot<C>> = sh
            .starts
            .iter()
            .map(|&s| crate::level::Slot {
                h: sh.mixer.mix(sh.k.normalize(s).0),
                full: one,
                norm: one,
            })
            .collect();
        slots.sort_unstable_by_key(|e| e.h);
        slots.dedup_by_key(|e| e.h);
        let (lo, hi) = sh.owned(&layout, sh.me);
        let parts = (lo..hi)
            .map(|q| {
                let mine: Vec<_> = slots
                    .iter()
                    .filter(|e| layout.part(e.h) == q)
                    .copied()
                    .collect();
                Part::encode(&mine, &layout)
            })
            .collect();
        ShareLevel {
            layout,
            first: lo,
            parts,
        }
    }

    /// The mixed keys, in increasing order.
    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.parts.iter().enumerate().flat_map(|(i, p)| {
            p.reader(self.layout.base(self.first + i), 0, p.blocks())
                .map(|e| e.0)
        })
    }

    /// The same share without counters.
    fn keys_only(&self) -> ShareLevel<NoCount> {
        let parts = self
            .parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let base = self.layout.base(self.first + i);
                let keys: Vec<u64> = p.reader(base, 0, p.blocks()).map(|e| e.0 - base).collect();
                Part::encode_by(keys.len(), |j| (keys[j], NoCount, NoCount))
            })
            .collect();
        ShareLevel {
            layout: self.layout,
            first: self.first,
            parts,
        }
    }

    /// Write the share: a header, then each partition.
    fn write(&self, wide: bool, w: &mut dyn Write) -> std::io::Result<()> {
        w.write_all(SHARE_MAGIC)?;
        w.write_all(&[u8::from(wide), std::mem::size_of::<C>() as u8])?;
        w.write_all(&self.layout.bits().to_le_bytes())?;
        w.write_all(&self.layout.pbits().to_le_bytes())?;
        w.write_all(&(self.first as u64).to_le_bytes())?;
        w.write_all(&(self.parts.len() as u64).to_le_bytes())?;
        for p in &self.parts {
            p.write_to(w)?;
        }
        Ok(())
    }

    /// Read a share written by [`ShareLevel::write`] for worker `me` (checking that it is its share).
    fn read(sh: &Sh<'_>, r: &mut dyn Read) -> Result<(bool, ShareLevel<C>), String> {
        let io = |e: std::io::Error| format!("the share cannot be read: {e}");
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(io)?;
        if &magic != SHARE_MAGIC {
            return Err("the share file is not a boardlab level share".to_string());
        }
        let mut b2 = [0u8; 2];
        r.read_exact(&mut b2).map_err(io)?;
        let wide = b2[0] == 1;
        let mut b4 = [0u8; 4];
        r.read_exact(&mut b4).map_err(io)?;
        let bits = u32::from_le_bytes(b4);
        r.read_exact(&mut b4).map_err(io)?;
        let pbits = u32::from_le_bytes(b4);
        let mut b8 = [0u8; 8];
        r.read_exact(&mut b8).map_err(io)?;
        let first = u64::from_le_bytes(b8);
        r.read_exact(&mut b8).map_err(io)?;
        let n = u64::from_le_bytes(b8);
        let layout = Layout::from_pbits(bits, pbits)
            .filter(|_| bits == sh.bits())
            .ok_or_else(|| "the share is of another board".to_string())?;
        let (lo, hi) = sh.owned(&layout, sh.me);
        if first != lo as u64 || n != (hi - lo) as u64 {
            return Err(format!(
                "the share holds partitions {first}..{} of {}, but this worker owns {lo}..{hi} \
                 (a checkpoint of a run with another number of workers?)",
                first + n,
                layout.parts()
            ));
        }
        let expect = if wide { 16 } else { std::mem::size_of::<C>() };
        if usize::from(b2[1]) != expect {
            return Err("the share's counters are of another width".to_string());
        }
        let shift = bits - pbits;
        let parts = (lo..hi)
            .map(|_| Part::read_from(r, shift))
            .collect::<std::io::Result<Vec<Part<C>>>>()
            .map_err(|e| format!("the share is damaged: {e}"))?;
        Ok((
            wide,
            ShareLevel {
                layout,
                first: lo,
                parts,
            },
        ))
    }
}

const SHARE_MAGIC: &[u8; 8] = b"PEGSHR01";

/// A share of narrow or wide counters.
enum AnyShare<N> {
    Narrow(ShareLevel<N>),
    Wide(ShareLevel<u128>),
}

impl<N: Counter> AnyShare<N> {
    fn keys(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self {
            AnyShare::Narrow(s) => Box::new(s.keys()),
            AnyShare::Wide(s) => Box::new(s.keys()),
        }
    }
    fn layout(&self) -> Layout {
        match self {
            AnyShare::Narrow(s) => s.layout,
            AnyShare::Wide(s) => s.layout,
        }
    }
    fn keys_only(&self) -> ShareLevel<NoCount> {
        match self {
            AnyShare::Narrow(s) => s.keys_only(),
            AnyShare::Wide(s) => s.keys_only(),
        }
    }
    fn len(&self) -> usize {
        match self {
            AnyShare::Narrow(s) => s.len(),
            AnyShare::Wide(s) => s.len(),
        }
    }
    fn bytes(&self) -> u64 {
        match self {
            AnyShare::Narrow(s) => s.bytes(),
            AnyShare::Wide(s) => s.bytes(),
        }
    }
    fn is_wide(&self) -> bool {
        matches!(self, AnyShare::Wide(_))
    }
}

impl<N: Counter> ShareData for AnyShare<N> {
    fn classes(&self) -> u64 {
        self.len() as u64
    }
    fn write_to(&self, w: &mut dyn Write) -> std::io::Result<()> {
        match self {
            AnyShare::Narrow(s) => s.write(false, w),
            AnyShare::Wide(s) => s.write(true, w),
        }
    }
}

/// Read a worker's share of a checkpoint.
fn read_share<N: Counter>(
    sh: &Sh<'_>,
    wide: bool,
    r: &mut dyn Read,
) -> Result<AnyShare<N>, String> {
    let share = if wide {
        let (w, s) = ShareLevel::<u128>::read(sh, r)?;
        if !w {
            return Err("the share has narrow counters, the checkpoint says wide".to_string());
        }
        AnyShare::Wide(s)
    } else {
        let (w, s) = ShareLevel::<N>::read(sh, r)?;
        if w {
            return Err("the share has wide counters, the checkpoint says narrow".to_string());
        }
        AnyShare::Narrow(s)
    };
    // Nothing may follow.
    let mut rest = [0u8; 1];
    match r.read(&mut rest) {
        Ok(0) => Ok(share),
        Ok(_) => Err("the share file has bytes after its end".to_string()),
        Err(e) => Err(format!("the share cannot be read: {e}")),
    }
}

/// Records received from one worker: its counters, and the records of each partition.
type Received<K, D> = (Arc<Vec<[D; 2]>>, Vec<Vec<Rec<K, <D as Counter>::Src>>>);

/// The buffers sent to a worker of the same process.
struct LocalBody<K, D: Counter> {
    srcs: Arc<Vec<[D; 2]>>,
    recs: Vec<Vec<Rec<K, D::Src>>>,
}

/// Counters of a step's records and bytes.
#[derive(Default, Clone, Copy)]
struct Traffic {
    sent: u64,
    sent_remote: u64,
    received: u64,
    received_remote: u64,
    wire_sent: u64,
    wire_received: u64,
    rounds: u32,
    expand_secs: f64,
    merge_secs: f64,
    exchange_secs: f64,
}

/// The result of one worker's build of a level step.
struct Built<K, D> {
    acc: Acc,
    tables: Vec<Table<K, D>>,
    failure: Failure,
}

/// Byte-pack the records of partitions `recs` for a worker of another process, with the counters they use
/// (renumbered).
fn encode<K: TableKey, D: Counter>(
    recs: &[Vec<Rec<K, D::Src>>],
    srcs: &[[D; 2]],
    remap: &mut Vec<u32>,
) -> Vec<u8> {
    let kb = std::mem::size_of::<K>();
    let cb = std::mem::size_of::<D>();
    let n: usize = recs.iter().map(Vec::len).sum();
    remap.clear();
    remap.resize(srcs.len(), u32::MAX);
    let mut used: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(10 + recs.len() * 4 + n * (kb + 4) + n / 2 * cb * 2);
    out.push(kb as u8);
    out.push(cb as u8);
    out.extend_from_slice(&(recs.len() as u32).to_le_bytes());
    for part in recs {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        for r in part {
            let s = r.src.get() as usize;
            let i = match remap.get(s) {
                Some(&i) if i != u32::MAX => i,
                _ => {
                    let i = used.len() as u32;
                    used.push(r.src.get());
                    if let Some(m) = remap.get_mut(s) {
                        *m = i;
                    }
                    i
                }
            };
            out.extend_from_slice(&r.key.bits().to_le_bytes()[..kb]);
            out.extend_from_slice(&i.to_le_bytes());
        }
    }
    out.extend_from_slice(&(used.len() as u32).to_le_bytes());
    for &s in &used {
        let c = srcs.get(s as usize).copied().unwrap_or_default();
        out.extend_from_slice(&c[0].to_u128().to_le_bytes()[..cb]);
        out.extend_from_slice(&c[1].to_u128().to_le_bytes()[..cb]);
    }
    out
}

/// Read bytes packed by [`encode`]: the records of each partition, and their counters.
#[allow(clippy::type_complexity)]
fn decode<K: TableKey, D: Counter>(
    bytes: &[u8],
    (layout, first, parts): (&Layout, usize, usize),
    pool: &Pool<K, D>,
) -> Result<(Vec<[D; 2]>, Vec<Vec<Rec<K, D::Src>>>), String> {
    let kb = std::mem::size_of::<K>();
    let cb = std::mem::size_of::<D>();
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let s = bytes
            .get(at..at + n)
            .ok_or_else(|| "a parcel ended early".to_string())?;
        at += n;
        Ok(s)
    };
    let head = take(2)?;
    if usize::from(head[0]) != kb || usize::from(head[1]) != cb {
        return Err(
            "a parcel's records are of another kind (workers of different versions?)".into(),
        );
    }
    let u32_at = |s: &[u8]| -> u32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&s[..4]);
        u32::from_le_bytes(b)
    };
    let np = u32_at(take(4)?) as usize;
    if np != parts {
        return Err(format!(
            "a parcel has records of {np} partitions where {parts} were expected"
        ));
    }
    let mut recs = Vec::with_capacity(np);
    for i in 0..np {
        let n = u32_at(take(4)?) as usize;
        let raw = take(n * (kb + 4))?;
        let mut v = pool.take_buf(n);
        for r in raw.chunks_exact(kb + 4) {
            let mut kbuf = [0u8; 8];
            kbuf[..kb].copy_from_slice(&r[..kb]);
            let key = K::from_bits(u64::from_le_bytes(kbuf));
            if !key.valid(layout, first + i) {
                return Err(format!(
                    "a parcel's record for partition {} has a key outside it",
                    first + i
                ));
            }
            v.push(Rec {
                key,
                src: D::Src::new(u32_at(&r[kb..])),
            });
        }
        recs.push(v);
    }
    let ns = u32_at(take(4)?) as usize;
    let raw = take(ns * 2 * cb)?;
    let mut srcs = pool.take_srcs(ns);
    let counter = |s: &[u8]| -> Result<D, String> {
        let mut b = [0u8; 16];
        b[..cb].copy_from_slice(s);
        D::from_u128(u128::from_le_bytes(b))
            .ok_or_else(|| "a parcel's counter is too big".to_string())
    };
    if cb == 0 {
        srcs.resize(ns, [D::default(); 2]);
    } else {
        for c in raw.chunks_exact(2 * cb) {
            srcs.push([counter(&c[..cb])?, counter(&c[cb..])?]);
        }
    }
    // (Records without counters carry no index: they refer to nothing.)
    let counted = std::mem::size_of::<D::Src>() > 0;
    if counted && recs.iter().flatten().any(|r| r.src.get() as usize >= ns) {
        return Err("a parcel's record refers to counters it does not have".to_string());
    }
    if at != bytes.len() {
        return Err("a parcel has bytes after its end".to_string());
    }
    Ok((srcs, recs))
}

/// Build this worker's tables of the next level from its share `src`, exchanging records with the other
/// workers in rounds until none has sources left.
fn build<K: TableKey, S: Counter, D: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    ctx: &Ctx<'_>,
    src: &ShareLevel<S>,
    expected: usize,
    net: &mut T,
    pool: &Pool<K, D>,
    traffic: &mut Traffic,
) -> Result<Built<K, D>, ShardError> {
    let out = ctx.out;
    let nparts = out.parts();
    let workers = sh.workers();
    let (lo, hi) = sh.owned(&out, sh.me);
    let per_part = if ctx.emit {
        expected.div_ceil(nparts)
    } else {
        0
    };
    pool.trim(hi - lo, 2 * nparts, 4, 1);
    let mut tables: Vec<Table<K, D>> = (lo..hi).map(|_| Table::new(out, per_part, pool)).collect();
    let blocks = src.blocks();
    let round = sh.round::<K>();
    let (per_buf, per_srcs) = if ctx.emit {
        (round / nparts * 5 / 4 + 16, round / 6)
    } else {
        (0, 0)
    };
    let mut w: Worker<K, D> = Worker::with_buffers(
        (0..nparts).map(|_| pool.take_buf(per_buf)).collect(),
        pool.take_srcs(per_srcs),
    );
    let mut failure = Failure::None;
    let mut next = 0usize;
    let mut per_source = 10.0f64;
    let mut remap: Vec<u32> = Vec::new();
    let limit = sh
        .opts
        .max_memory
        .map(|m| m / sh.opts.shape.per_process.max(1) as u64);
    let my_process = sh.process();
    loop {
        // Expand a slice of the share.
        let t0 = Instant::now();
        let want = (round as f64 / per_source) as usize / BLOCK;
        let nb = want.clamp(1, blocks.len().saturating_sub(next).max(1));
        let range = &blocks[next.min(blocks.len())..(next + nb).min(blocks.len())];
        next += nb;
        let before = w.acc.records;
        if failure == Failure::None {
            let mut c = 0;
            while c < range.len() {
                let (i, b) = range[c];
                let mut e = c + 1;
                while e < range.len() && range[e].0 == i {
                    e += 1;
                }
                let reader = src.parts[i].reader(src.layout.base(src.first + i), b, b + (e - c));
                match expand_dispatch(sh.opts.portable, ctx, reader, &mut w) {
                    Ok(()) => {}
                    Err(StepError::Narrow) => {
                        failure = Failure::Narrow;
                        break;
                    }
                    Err(StepError::Fatal(CountError::Overflow { pegs })) => {
                        failure = Failure::Overflow { pegs };
                        break;
                    }
                    Err(StepError::Fatal(e)) => return Err(e.into()),
                }
                c = e;
            }
            let sources: usize = range
                .iter()
                .map(|&(i, b)| block_len(&src.parts[i], b))
                .sum();
            per_source = ((w.acc.records - before) as f64 / sources.max(1) as f64).max(0.25) * 1.05;
        }
        let more = failure == Failure::None && next < blocks.len();
        traffic.expand_secs += t0.elapsed().as_secs_f64();
        if !ctx.emit {
            // The last level: statistics only, no records to exchange.
            if more {
                continue;
            }
            break;
        }
        // One parcel to every worker (possibly empty): it carries this worker's flags.
        let flags = (u8::from(more) * MORE) | (u8::from(failure != Failure::None) * FAILED);
        let t1 = Instant::now();
        let srcs = Arc::new(std::mem::replace(&mut w.srcs, pool.take_srcs(per_srcs)));
        let mut parcels = Vec::with_capacity(workers);
        for d in 0..workers {
            let (dlo, dhi) = sh.owned(&out, d);
            let n: usize = w.bufs[dlo..dhi].iter().map(Vec::len).sum();
            traffic.sent += n as u64;
            let body = if n == 0 || failure != Failure::None {
                Body::Empty
            } else if sh.opts.shape.process_of(d) != my_process {
                traffic.sent_remote += n as u64;
                let bytes = encode(&w.bufs[dlo..dhi], &srcs, &mut remap);
                traffic.wire_sent += bytes.len() as u64;
                for b in &mut w.bufs[dlo..dhi] {
                    b.clear();
                }
                Body::Wire(bytes)
            } else {
                let recs: Vec<Vec<Rec<K, D::Src>>> = w.bufs[dlo..dhi]
                    .iter_mut()
                    .map(|b| std::mem::replace(b, pool.take_buf(per_buf)))
                    .collect();
                Body::Local(Arc::new(LocalBody {
                    srcs: Arc::clone(&srcs),
                    recs,
                }))
            };
            parcels.push(Parcel {
                to: d as u32,
                from: sh.me as u32,
                flags,
                body,
            });
        }
        for b in &mut w.bufs {
            b.clear();
        }
        if let Ok(v) = Arc::try_unwrap(srcs) {
            pool.give_srcs(v);
        }
        let got = net.exchange(parcels)?;
        traffic.rounds += 1;
        if got.len() != workers {
            return Err(ShardError::Protocol(format!(
                "worker {} received {} parcels in an exchange of {workers} workers",
                sh.me,
                got.len()
            )));
        }
        let any_more = got.iter().any(|p| p.flags & MORE != 0);
        let any_failed = got.iter().any(|p| p.flags & FAILED != 0);
        // Unpack what came.
        let mut bodies: Vec<Received<K, D>> = Vec::with_capacity(workers);
        for p in got {
            match p.body {
                Body::Empty => {}
                Body::Wire(bytes) => {
                    traffic.wire_received += bytes.len() as u64;
                    let (s, r) =
                        decode::<K, D>(&bytes, (&out, lo, hi - lo), pool).map_err(|e| {
                            ShardError::Protocol(format!("from worker {}: {e}", p.from))
                        })?;
                    let n: u64 = r.iter().map(|v| v.len() as u64).sum();
                    traffic.received_remote += n;
                    bodies.push((Arc::new(s), r));
                }
                Body::Local(a) => {
                    let body = a.downcast::<LocalBody<K, D>>().map_err(|_| {
                        ShardError::Protocol(format!(
                            "worker {} sent records of another kind",
                            p.from
                        ))
                    })?;
                    let body = Arc::try_unwrap(body).unwrap_or_else(|b| LocalBody {
                        srcs: Arc::clone(&b.srcs),
                        recs: b.recs.clone(),
                    });
                    if body.recs.len() != hi - lo {
                        return Err(ShardError::Protocol(format!(
                            "worker {} sent records of {} partitions where {} were expected",
                            p.from,
                            body.recs.len(),
                            hi - lo
                        )));
                    }
                    bodies.push((body.srcs, body.recs));
                }
            }
        }
        traffic.exchange_secs += t1.elapsed().as_secs_f64();
        // Add them into the tables, partition by partition (each table is read into the cache once).
        let t2 = Instant::now();
        let received: u64 = bodies
            .iter()
            .map(|(_, r)| r.iter().map(|v| v.len() as u64).sum::<u64>())
            .sum();
        traffic.received += received;
        if failure == Failure::None && !any_failed {
            'merge: for (i, t) in tables.iter_mut().enumerate() {
                if bodies.iter().all(|(_, r)| r[i].is_empty()) {
                    continue;
                }
                t.warm();
                for (s, r) in &bodies {
                    if t.add_recs(&r[i], s).is_none() {
                        failure = Failure::Narrow;
                        break 'merge;
                    }
                }
            }
        }
        for (s, recs) in bodies {
            for r in recs {
                pool.give_buf(r);
            }
            if let Ok(v) = Arc::try_unwrap(s) {
                pool.give_srcs(v);
            }
        }
        traffic.merge_secs += t2.elapsed().as_secs_f64();
        if let (Some(limit), Failure::None) = (limit, failure) {
            let table_bytes: u64 = tables.iter().map(Table::bytes).sum();
            let used = src.bytes() + table_bytes + w.bytes() + pool.bytes();
            if used > limit {
                let done = next.min(blocks.len()).max(1) as f64 / blocks.len().max(1) as f64;
                let needed =
                    src.bytes() + w.bytes() + pool.bytes() + (table_bytes as f64 / done) as u64;
                failure = Failure::Memory {
                    needed: needed.max(used) * sh.opts.shape.per_process.max(1) as u64,
                };
            }
        }
        if !any_more || any_failed {
            break;
        }
    }
    for b in w.bufs {
        pool.give_buf(b);
    }
    pool.give_srcs(w.srcs);
    Ok(Built {
        acc: w.acc,
        tables,
        failure,
    })
}

/// What the workers agreed at the end of a level step.
enum Verdict {
    /// The level's row statistics, summed over the workers, and the classes of the next level.
    Done(Acc, u64),
    /// Some narrow counter overflowed: build the level again with 128-bit counters.
    Narrow,
}

/// Tell the others how the step went; decide together.
#[allow(clippy::too_many_arguments)]
fn agree_end<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    mine: (Acc, u64, Failure),
    pegs: u32,
    wide: bool,
    limits: &[Option<u64>],
    classes_so_far: u64,
) -> Result<Verdict, ShardError> {
    let (acc, next_len, failure) = mine;
    let notes = sh.gather(
        net,
        NoteBody::End {
            acc,
            next_len,
            failure,
        },
    )?;
    let mut total = Acc::default();
    let mut next = 0u64;
    let mut narrow = false;
    let mut memory: Option<(usize, u64)> = None;
    for (w, n) in notes.iter().enumerate() {
        let NoteBody::End {
            acc,
            next_len,
            failure,
        } = n
        else {
            continue;
        };
        match *failure {
            Failure::None => {}
            Failure::Narrow => narrow = true,
            Failure::Overflow { pegs } => return Err(CountError::Overflow { pegs }.into()),
            Failure::Memory { needed } => {
                if memory.is_none_or(|(_, m)| needed > m) {
                    memory = Some((sh.opts.shape.process_of(w), needed));
                }
            }
        }
        total = total.merge(*acc, pegs)?;
        next += next_len;
    }
    if let Some((process, needed)) = memory {
        return Err(ShardError::Memory {
            process,
            pegs: next_pegs(sh.k, pegs),
            needed,
            limit: limits.get(process).copied().flatten().unwrap_or(0),
            classes_so_far,
        });
    }
    if narrow {
        if wide {
            return Err(CountError::Overflow {
                pegs: next_pegs(sh.k, pegs),
            }
            .into());
        }
        return Ok(Verdict::Narrow);
    }
    Ok(Verdict::Done(total, next))
}

/// One level step with 128-bit counters from the share `src` (narrow or already wide): build, then conclude;
/// an overflow even at 128 bits is the error [`CountError::Overflow`]. `limits` are the processes' memory
/// limits and the number of classes so far, as [`conclude`] takes them.
#[allow(clippy::too_many_arguments)]
fn step_wide<K: TableKey, S: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    ctx: &Ctx<'_>,
    src: &ShareLevel<S>,
    expected: usize,
    net: &mut T,
    wide_pool: &Pool<K, u128>,
    traffic: &mut Traffic,
    (limits, so_far): (&[Option<u64>], u64),
    freeze_secs: &mut f64,
) -> Result<(Acc, u64, ShareLevel<u128>), ShardError> {
    let b = build::<K, S, u128, T>(sh, ctx, src, expected, net, wide_pool, traffic)?;
    let conclusion = conclude(
        sh,
        net,
        ctx,
        b,
        wide_pool,
        true,
        limits,
        so_far,
        freeze_secs,
    )?;
    conclusion.ok_or_else(|| {
        CountError::Overflow {
            pegs: next_pegs(ctx.k, ctx.pegs),
        }
        .into()
    })
}

/// Freeze this worker's tables into its share of the next level (unless its step failed) and agree with the
/// others on the step: the summed statistics, the next level's size and the share, or `None` when the level
/// must be built again with 128-bit counters.
#[allow(clippy::too_many_arguments)]
fn conclude<K: TableKey, D: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    ctx: &Ctx<'_>,
    built: Built<K, D>,
    pool: &Pool<K, D>,
    wide: bool,
    limits: &[Option<u64>],
    classes_so_far: u64,
    freeze_secs: &mut f64,
) -> Result<Option<(Acc, u64, ShareLevel<D>)>, ShardError> {
    let out = ctx.out;
    let (lo, _) = sh.owned(&out, sh.me);
    let t = Instant::now();
    let share = (built.failure == Failure::None).then(|| ShareLevel {
        layout: out,
        first: lo,
        parts: built
            .tables
            .into_iter()
            .enumerate()
            .map(|(i, t)| t.freeze(lo + i, &out, pool))
            .collect(),
    });
    *freeze_secs += t.elapsed().as_secs_f64();
    let next_len = share.as_ref().map_or(0, |s| s.len() as u64);
    let verdict = agree_end(
        sh,
        net,
        (built.acc, next_len, built.failure),
        ctx.pegs,
        wide,
        limits,
        classes_so_far,
    );
    match verdict {
        Ok(Verdict::Done(acc, next)) => match share {
            Some(s) => Ok(Some((acc, next, s))),
            None => Err(ShardError::Protocol(
                "a worker's step failed but the others did not hear of it".to_string(),
            )),
        },
        Ok(Verdict::Narrow) => {
            if let Some(s) = share {
                pool.recycle_parts(s.parts);
            }
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The memory this worker expects the next step to need (as the engine estimates it, for its share).
fn memory_needed<K: TableKey, N: Counter>(
    sh: &Sh<'_>,
    level: &AnyShare<N>,
    expected: usize,
    last: bool,
    pools: (&Pool<K, N>, &Pool<K, u128>),
) -> u64 {
    let (slot, counter) = if level.is_wide() {
        (std::mem::size_of::<K>() + 32, 16)
    } else {
        (
            std::mem::size_of::<K>() + 2 * std::mem::size_of::<N>(),
            std::mem::size_of::<N>(),
        )
    };
    let mine = expected / sh.workers() + 1;
    let tables = (mine as f64 / INIT_LOAD * 1.07) as u64 * slot as u64;
    let r = sh.round::<K>() as u64;
    // This worker's own records and counters, the ones it receives, and their packed copies.
    let bufs = if last {
        0
    } else {
        3 * (r * std::mem::size_of::<Rec<K>>() as u64 * 5 / 4 + r / 4 * 2 * counter as u64)
    };
    let (held_t, held_b) = pools.0.held();
    let (wide_t, wide_b) = pools.1.held();
    let per_class = if level.len() == 0 {
        12.0
    } else {
        level.bytes() as f64 / level.len() as f64
    };
    let frozen = level.bytes().max((mine as f64 * per_class) as u64);
    let per_process = sh.opts.shape.per_process.max(1) as u64;
    (frozen + (held_t + wide_t).max(tables) + (held_b + wide_b).max(bufs)) / 20 * 21
        + BASE_BYTES / per_process
}

/// Give the memory of a share no longer needed to the pool of its counter type.
fn recycle<K: TableKey, N: Counter>(level: AnyShare<N>, pool: &Pool<K, N>, wide: &Pool<K, u128>) {
    match level {
        AnyShare::Narrow(s) => pool.recycle_parts(s.parts),
        AnyShare::Wide(s) => wide.recycle_parts(s.parts),
    }
}

/// One worker's level-by-level enumeration (from the starts of `sh`, or from `resume`), calling `hook` with
/// each level before it is expanded. Returns the state at the end and the level it resumed from.
fn run_with<N: Counter, K: TableKey, T: Transport + ?Sized, H: LevelHook<N>>(
    sh: &Sh<'_>,
    net: &mut T,
    mut checkpoint: Option<&mut dyn Checkpoint>,
    resume: Option<Resume<'_>>,
    hook: &mut H,
    figures: &mut WorkerFigures,
) -> Result<(State, Option<u32>), ShardError> {
    let k = sh.k;
    let shape = sh.opts.shape;
    let pool: Pool<K, N> = Pool::new();
    let wide_pool: Pool<K, u128> = Pool::new();
    let (mut st, mut level, resumed_from) = match resume {
        Some(r) => {
            let loaded = read_share::<N>(sh, r.state.wide, r.share);
            let notes = sh.gather(net, NoteBody::Loaded(loaded.as_ref().err().cloned()))?;
            for (w, n) in notes.iter().enumerate() {
                if let NoteBody::Loaded(Some(m)) = n {
                    return Err(ShardError::Resume {
                        worker: w,
                        process: shape.process_of(w),
                        message: m.clone(),
                    });
                }
            }
            let share = loaded.map_err(|m| ShardError::Resume {
                worker: sh.me,
                process: sh.process(),
                message: m,
            })?;
            if r.state.sizes.is_empty() {
                return Err(ShardError::Resume {
                    worker: sh.me,
                    process: sh.process(),
                    message: "the checkpoint's state has no level sizes".to_string(),
                });
            }
            let from = r.state.pegs;
            (r.state, share, Some(from))
        }
        None => {
            let layout = sh.layout::<K>(sh.starts.len());
            let share = AnyShare::Narrow(ShareLevel::<N>::start(sh, layout));
            let mut keys: Vec<u64> = sh.starts.iter().map(|&s| sh.k.normalize(s).0).collect();
            keys.sort_unstable();
            keys.dedup();
            let st = State {
                pegs: sh.starts.first().map_or(0, |s| s.count_ones()),
                wide: false,
                levels: Vec::new(),
                solutions_full: 0,
                solutions_normal: 0,
                sizes: vec![keys.len() as u64],
            };
            (st, share, None)
        }
    };
    let limit = sh.opts.max_levels.unwrap_or(usize::MAX);
    let mut limits: Vec<Option<u64>> = vec![None; shape.processes];
    let mut classes_so_far: u64 = st.levels.iter().map(|l| l.classes).sum();
    while st.sizes.last().is_some_and(|&n| n > 0) && st.levels.len() < limit {
        let t = Instant::now();
        let pegs = st.pegs;
        hook.level(sh, net, pegs, &level)?;
        let total = st.sizes.last().copied().unwrap_or(0);
        let last = st.levels.len() + 1 == limit
            || (!k.reverse && pegs <= 1)
            || (k.reverse && pegs as usize >= k.holes);
        let hist: Vec<usize> = st.sizes.iter().map(|&s| s as usize).collect();
        let expected = if last { 0 } else { estimate(&hist) };
        let ctx = Ctx {
            k,
            mixer: sh.mixer,
            pegs,
            finish_key: sh.finish_key,
            out: sh.layout::<K>(expected),
            emit: !last,
            filter: None,
            first: 0,
            parts: 0,
        };
        let ctx = Ctx {
            parts: ctx.out.parts(),
            ..ctx
        };
        // Memory: every process's workers' estimates against its limit.
        let needed =
            memory_needed::<K, N>(sh, &level, expected, last, (&pool, &wide_pool)) + hook.bytes();
        let notes = sh.gather(
            net,
            NoteBody::Start {
                needed,
                limit: sh.opts.max_memory,
            },
        )?;
        let mut sums = vec![0u64; shape.processes];
        for (w, n) in notes.iter().enumerate() {
            if let NoteBody::Start { needed, limit } = n {
                let p = shape.process_of(w);
                sums[p] += needed;
                if w % shape.per_process.max(1) == 0 {
                    limits[p] = *limit;
                }
            }
        }
        for (p, &sum) in sums.iter().enumerate() {
            if let Some(l) = limits[p]
                && sum > l
            {
                return Err(ShardError::Memory {
                    process: p,
                    pegs: next_pegs(k, pegs),
                    needed: sum,
                    limit: l,
                    classes_so_far: classes_so_far + total,
                });
            }
        }
        let mut traffic = Traffic::default();
        let mut freeze_secs = 0.0;
        let so_far = classes_so_far + total;
        let share_len = level.len() as u64;
        let (acc, next_total, next, rebuilt) = match &level {
            AnyShare::Narrow(src) => {
                let b = build::<K, N, N, T>(sh, &ctx, src, expected, net, &pool, &mut traffic)?;
                match conclude(
                    sh,
                    net,
                    &ctx,
                    b,
                    &pool,
                    false,
                    &limits,
                    so_far,
                    &mut freeze_secs,
                )? {
                    Some((acc, n, s)) => (acc, n, AnyShare::Narrow(s), false),
                    None => {
                        let (acc, n, s) = step_wide::<K, N, T>(
                            sh,
                            &ctx,
                            src,
                            expected,
                            net,
                            &wide_pool,
                            &mut traffic,
                            (&limits, so_far),
                            &mut freeze_secs,
                        )?;
                        (acc, n, AnyShare::Wide(s), true)
                    }
                }
            }
            AnyShare::Wide(src) => {
                let (acc, n, s) = step_wide::<K, u128, T>(
                    sh,
                    &ctx,
                    src,
                    expected,
                    net,
                    &wide_pool,
                    &mut traffic,
                    (&limits, so_far),
                    &mut freeze_secs,
                )?;
                (acc, n, AnyShare::Wide(s), false)
            }
        };
        if acc.classes != total {
            return Err(ShardError::Protocol(format!(
                "the level with {pegs} pegs has {total} classes, but the workers expanded {}",
                acc.classes
            )));
        }
        recycle(std::mem::replace(&mut level, next), &pool, &wide_pool);
        let row = Level {
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
        st.solutions_full = add(st.solutions_full, acc.sol_full, pegs)?;
        st.solutions_normal = add(st.solutions_normal, acc.sol_normal, pegs)?;
        st.levels.push(row);
        st.pegs = next_pegs(k, pegs);
        st.sizes.push(if last { 0 } else { next_total });
        st.wide = level.is_wide();
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
                next_share: level.len() as u64,
                records_sent: traffic.sent,
                records_received: traffic.received,
                wire_sent: traffic.wire_sent,
                wire_received: traffic.wire_received,
                rounds: traffic.rounds,
                rebuilt_wide: rebuilt,
                expand_secs: traffic.expand_secs,
                merge_secs: traffic.merge_secs,
                exchange_secs: traffic.exchange_secs,
                freeze_secs,
                total_secs: t.elapsed().as_secs_f64(),
            });
        }
        // Save the next level (not after the last one: there is none).
        if let Some(cp) = checkpoint.as_deref_mut()
            && !last
            && next_total > 0
        {
            let tc = Instant::now();
            save(sh, net, cp, &st, &level)?;
            figures.checkpoint_secs += tc.elapsed().as_secs_f64();
        }
    }
    hook.end();
    Ok((st, resumed_from))
}

/// Every worker saves its share; then worker 0 records the state; every worker learns whether all went well.
fn save<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    cp: &mut dyn Checkpoint,
    st: &State,
    share: &dyn ShareData,
) -> Result<(), ShardError> {
    let shape = sh.opts.shape;
    let saved = cp.save(st.pegs, share).map(|mut s| {
        s.worker = sh.me as u32;
        s
    });
    let notes = sh.gather(net, NoteBody::Saved(saved))?;
    let mut shares = Vec::with_capacity(notes.len());
    for (w, n) in notes.into_iter().enumerate() {
        match n {
            NoteBody::Saved(Ok(s)) => shares.push(s),
            NoteBody::Saved(Err(message)) => {
                return Err(ShardError::Checkpoint {
                    worker: w,
                    process: shape.process_of(w),
                    message,
                });
            }
            _ => {}
        }
    }
    let committed = if sh.me == 0 {
        cp.commit(st, &shares).err()
    } else {
        None
    };
    let notes = sh.gather(net, NoteBody::Committed(committed))?;
    if let Some(NoteBody::Committed(Some(message))) = notes.into_iter().next() {
        return Err(ShardError::Checkpoint {
            worker: 0,
            process: 0,
            message,
        });
    }
    Ok(())
}

/// What a run does with each level before it is expanded, besides expanding it.
trait LevelHook<N: Counter> {
    /// The level with `pegs` pegs (this worker's share of it), before it is expanded.
    fn level<T: Transport + ?Sized>(
        &mut self,
        sh: &Sh<'_>,
        net: &mut T,
        pegs: u32,
        level: &AnyShare<N>,
    ) -> Result<(), ShardError>;
    /// Bytes held (for the memory estimates).
    fn bytes(&self) -> u64;
    /// The run ended.
    fn end(&mut self);
}

/// Keeps every level, keys only (the levels of a finish table).
struct Keep {
    levels: Vec<Option<ShareLevel<NoCount>>>,
}

impl LevelHook<NoCount> for Keep {
    fn level<T: Transport + ?Sized>(
        &mut self,
        _: &Sh<'_>,
        _: &mut T,
        pegs: u32,
        level: &AnyShare<NoCount>,
    ) -> Result<(), ShardError> {
        let p = pegs as usize;
        if self.levels.len() <= p {
            self.levels.resize_with(p + 1, || None);
        }
        self.levels[p] = Some(level.keys_only());
        Ok(())
    }
    fn bytes(&self) -> u64 {
        self.levels.iter().flatten().map(ShareLevel::bytes).sum()
    }
    fn end(&mut self) {}
}

/// How the positions that can still finish are counted (see [`count`]).
enum FinishPlan {
    /// Not at all (no finish hole, or only some levels).
    None,
    /// None can: the finish is in another position class than the start.
    Zero,
    /// From the complements of the partner levels: the keys of the levels waiting for their partner.
    SelfDual {
        kept: Vec<Option<ShareLevel<NoCount>>>,
        full: u64,
        found: Vec<(u32, u64, u64)>,
    },
    /// From the finish table (this worker's share of each of its levels, normalized with the symmetries
    /// fixing both start and finish, `tk`'s group; `same` when that is the whole group of the count).
    Table {
        levels: Vec<Option<ShareLevel<NoCount>>>,
        same: bool,
        tk: Box<Kernel>,
        found: Vec<(u32, u64, u64)>,
    },
}

impl FinishPlan {
    /// (pegs, positions, classes) per level, when finishable positions are counted.
    fn found(&self) -> Option<&[(u32, u64, u64)]> {
        match self {
            FinishPlan::None => None,
            FinishPlan::Zero => Some(&[]),
            FinishPlan::SelfDual { found, .. } | FinishPlan::Table { found, .. } => Some(found),
        }
    }
}

impl<N: Counter> LevelHook<N> for FinishPlan {
    fn level<T: Transport + ?Sized>(
        &mut self,
        sh: &Sh<'_>,
        net: &mut T,
        pegs: u32,
        level: &AnyShare<N>,
    ) -> Result<(), ShardError> {
        match self {
            FinishPlan::None | FinishPlan::Zero => Ok(()),
            FinishPlan::SelfDual { kept, full, found } => {
                let partner = sh.k.holes as u32 - pegs;
                if pegs > partner {
                    let p = pegs as usize;
                    if kept.len() <= p {
                        kept.resize_with(p + 1, || None);
                    }
                    kept[p] = Some(level.keys_only());
                    return Ok(());
                }
                let dual_mixer = Mixer::new(sh.k.holes as u32);
                let complement =
                    |h: u64| crate::finishable::complement(sh.k, &dual_mixer, *full, h);
                let own = pegs == partner;
                let there = kept.get_mut(partner as usize).and_then(Option::take);
                // The complements of the partner level, each sent to its owner in this level.
                let comps: Vec<(u64, u64)> = match (&there, own) {
                    (_, true) => level.keys().map(|h| (complement(h), 0)).collect(),
                    (Some(t), false) => t.keys().map(|h| (complement(h), 0)).collect(),
                    (None, false) => Vec::new(),
                };
                let got = route(sh, net, &level.layout(), comps)?;
                let mine = merge_count(level.keys(), &got, |h, _| {
                    sh.k.class_size(sh.mixer.unmix(h))
                });
                let (a, c) = sum_found(sh, net, mine)?;
                found.push((pegs, a, c));
                if !own {
                    // Complementing is a bijection between the two sets matched (and keeps class sizes).
                    found.push((partner, a, c));
                }
                Ok(())
            }
            FinishPlan::Table {
                levels,
                same,
                tk,
                found,
            } => {
                let set = levels.get_mut(pegs as usize).and_then(Option::take);
                let mine = if *same {
                    // This level's keys, each sent to its owner in the table's level (same normal forms).
                    match &set {
                        Some(t) => {
                            let got =
                                route(sh, net, &t.layout, level.keys().map(|h| (h, 0)).collect())?;
                            merge_count(t.keys(), &got, |h, _| sh.k.class_size(sh.mixer.unmix(h)))
                        }
                        None => {
                            // Every worker has no share of a level the table does not reach.
                            (0, 0)
                        }
                    }
                } else {
                    // The table's classes, turned into this level's normal forms (with their sizes under the
                    // table's group), each sent to its owner in this level.
                    let items: Vec<(u64, u64)> = set
                        .as_ref()
                        .map(|t| {
                            t.keys()
                                .map(|y| {
                                    let pos = sh.mixer.unmix(y);
                                    (sh.mixer.mix(sh.k.normalize(pos).0), tk.class_size(pos))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let got = route(sh, net, &level.layout(), items)?;
                    merge_count(level.keys(), &got, |_, sizes| sizes)
                };
                let (a, c) = sum_found(sh, net, mine)?;
                found.push((pegs, a, c));
                Ok(())
            }
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            FinishPlan::SelfDual { kept, .. } => kept.iter().flatten().map(ShareLevel::bytes).sum(),
            FinishPlan::Table { levels, .. } => {
                levels.iter().flatten().map(ShareLevel::bytes).sum()
            }
            _ => 0,
        }
    }

    fn end(&mut self) {
        if let FinishPlan::SelfDual { kept, found, .. } = self {
            // Levels whose partner never came (the enumeration ended before it): none of their positions
            // can finish.
            for (pegs, l) in kept.iter_mut().enumerate() {
                if l.take().is_some() {
                    found.push((pegs as u32, 0, 0));
                }
            }
        }
    }
}

/// Every worker's (positions, classes), summed.
fn sum_found<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    mine: (u64, u64),
) -> Result<(u64, u64), ShardError> {
    let notes = sh.gather(
        net,
        NoteBody::Found {
            positions: mine.0,
            classes: mine.1,
        },
    )?;
    Ok(notes.iter().fold((0, 0), |acc, n| match n {
        NoteBody::Found { positions, classes } => (acc.0 + positions, acc.1 + classes),
        _ => acc,
    }))
}

/// Of `keys` (increasing), those among `items` (sorted by key): (sum of `size(key, summed payloads)`, number
/// of keys found).
fn merge_count(
    keys: impl Iterator<Item = u64>,
    items: &[(u64, u64)],
    size: impl Fn(u64, u64) -> u64,
) -> (u64, u64) {
    let (mut all, mut classes) = (0u64, 0u64);
    let mut i = 0;
    for h in keys {
        while i < items.len() && items[i].0 < h {
            i += 1;
        }
        let mut sum = 0u64;
        let mut hit = false;
        while i < items.len() && items[i].0 == h {
            sum += items[i].1;
            hit = true;
            i += 1;
        }
        if hit {
            all += size(h, sum);
            classes += 1;
        }
    }
    (all, classes)
}

/// Keys sent between workers of one process.
struct LocalKeys(Vec<(u64, u64)>);

/// Send each (mixed key, payload) to the worker that owns the key in `layout`; the items this worker
/// received, sorted by key.
fn route<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    layout: &Layout,
    items: Vec<(u64, u64)>,
) -> Result<Vec<(u64, u64)>, ShardError> {
    let owners = sh.owners(layout);
    let workers = sh.workers();
    let mut to: Vec<Vec<(u64, u64)>> = vec![Vec::new(); workers];
    for it in items {
        to[owners[layout.part(it.0)] as usize].push(it);
    }
    let me = sh.process();
    let parcels = to
        .into_iter()
        .enumerate()
        .map(|(d, v)| Parcel {
            to: d as u32,
            from: sh.me as u32,
            flags: 0,
            body: if v.is_empty() {
                Body::Empty
            } else if sh.opts.shape.process_of(d) != me {
                let mut b = Vec::with_capacity(8 + v.len() * 16);
                b.extend_from_slice(&(v.len() as u64).to_le_bytes());
                for (k, p) in &v {
                    b.extend_from_slice(&k.to_le_bytes());
                    b.extend_from_slice(&p.to_le_bytes());
                }
                Body::Wire(b)
            } else {
                Body::Local(Arc::new(LocalKeys(v)))
            },
        })
        .collect();
    let got = net.exchange(parcels)?;
    let mut out = Vec::new();
    for p in got {
        match p.body {
            Body::Empty => {}
            Body::Local(a) => {
                let v = a.downcast::<LocalKeys>().map_err(|_| {
                    ShardError::Protocol(format!("worker {} sent keys of another kind", p.from))
                })?;
                out.extend_from_slice(&v.0);
            }
            Body::Wire(b) => {
                let bad =
                    || ShardError::Protocol(format!("worker {} sent a damaged key list", p.from));
                let word = |i: usize| -> Result<u64, ShardError> {
                    let mut a = [0u8; 8];
                    a.copy_from_slice(b.get(i..i + 8).ok_or_else(bad)?);
                    Ok(u64::from_le_bytes(a))
                };
                let n = word(0)? as usize;
                if b.len() != 8 + n * 16 {
                    return Err(bad());
                }
                for j in 0..n {
                    out.push((word(8 + 16 * j)?, word(16 + 16 * j)?));
                }
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of two partitions packed for another worker, unpacked: the same records; with a key
    /// changed to one outside its partition (or the empty key), refused with a message, not added.
    fn parcel_keys_are_checked<K: TableKey>() {
        let layout = Layout::for_size(33, 100_000, 4000, 8);
        let pool: Pool<K, u64> = Pool::new();
        let first = 5;
        let recs: Vec<Vec<Rec<K>>> = (first..first + 2)
            .map(|q| {
                (1..4u64)
                    .map(|j| Rec {
                        key: K::store(layout.base(q) + j * 1000, &layout),
                        src: j as u32 - 1,
                    })
                    .collect()
            })
            .collect();
        let srcs = vec![[1u64, 1], [2, 2], [3, 3]];
        let bytes = encode::<K, u64>(&recs, &srcs, &mut Vec::new());
        let (_, got) = decode::<K, u64>(&bytes, (&layout, first, 2), &pool).unwrap();
        assert_eq!(got, recs);
        // The first record's key: after the 2 bytes of widths, the partition count and the first
        // partition's record count.
        let kb = std::mem::size_of::<K>();
        for bad in [0u64, u64::MAX >> (64 - 8 * kb as u32)] {
            let mut b = bytes.clone();
            b[10..10 + kb].copy_from_slice(&bad.to_le_bytes()[..kb]);
            let e = decode::<K, u64>(&b, (&layout, first, 2), &pool).unwrap_err();
            assert!(e.contains("partition 5 has a key outside it"), "{e}");
        }
        // Whole mixed keys name their partition: the same bytes read as other partitions are refused.
        if kb == 8 {
            assert!(decode::<K, u64>(&bytes, (&layout, first + 1, 2), &pool).is_err());
        }
    }

    #[test]
    fn parcels_with_keys_outside_their_partitions_are_refused() {
        parcel_keys_are_checked::<u32>();
        parcel_keys_are_checked::<u64>();
    }
}
