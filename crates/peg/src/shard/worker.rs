//! One worker's settings, and what every step of its run shares: which partitions it owns, its rounds, and
//! the agreements with the other workers.

use super::error::ShardError;
use super::figures::{ShardStep, WorkerFigures};
use super::wire::{Note, NoteBody, Shape, Transport};
use crate::kernel::Kernel;
use crate::level::{Layout, Mixer, PART_TARGET, TableKey};
use crate::step::{CounterWidth, Progress, key_pbits, round_records, round_within};

/// The fewest records a worker expands per exchange (each exchange waits for every worker).
const MIN_ROUND_RECORDS: usize = 1 << 16;

/// Classes a worker builds per record of its round, at least: rounds of a quarter of the classes cost the
/// English board 20% more CPU than its fixed rounds, half the classes about 8%.
const CLASSES_PER_ROUND_RECORD: usize = 2;

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

/// What every step of one worker's run shares.
pub(super) struct Sh<'a> {
    pub(super) k: &'a Kernel,
    pub(super) mixer: Mixer,
    pub(super) me: usize,
    pub(super) opts: &'a ShardOptions<'a>,
    /// The positions of the first level.
    pub(super) starts: Vec<u64>,
    /// The normal form of the finish position, when the finish is a hole.
    pub(super) finish_key: Option<u64>,
}

impl Sh<'_> {
    pub(super) fn workers(&self) -> usize {
        self.opts.shape.workers()
    }

    pub(super) fn process(&self) -> usize {
        self.opts.shape.process_of(self.me)
    }

    pub(super) fn bits(&self) -> u32 {
        self.k.holes as u32
    }

    /// The partitions of a level of about `expected` classes: as the engine's, but at least 16 per worker (so
    /// that the shares are within a few percent of each other), and small enough for 32-bit keys.
    pub(super) fn layout<K: TableKey>(&self, expected: usize) -> Layout {
        let bits = self.bits();
        let share_pbits = (self.workers() * 16).next_power_of_two().trailing_zeros();
        Layout::for_size(
            bits,
            expected,
            PART_TARGET,
            key_pbits::<K>(bits).max(share_pbits),
        )
    }

    /// The partitions worker `w` owns.
    pub(super) fn owned(&self, layout: &Layout, w: usize) -> (usize, usize) {
        let (n, p) = (layout.parts(), self.workers());
        (w * n / p, (w + 1) * n / p)
    }

    /// The owner of every partition of `layout`.
    pub(super) fn owners(&self, layout: &Layout) -> Vec<u32> {
        let mut o = vec![0u32; layout.parts()];
        for w in 0..self.workers() {
            let (lo, hi) = self.owned(layout, w);
            o[lo..hi].fill(w as u32);
        }
        o
    }

    /// Records this worker expands per exchange: the engine's round shared by all the workers (a round's
    /// records are copied several times on their way to another process: rounds of the engine's size on
    /// every worker made the cluster's memory per class held 1.6 times the engine's).
    pub(super) fn round<K: TableKey>(&self) -> usize {
        if self.opts.round_records > 0 {
            self.opts.round_records
        } else {
            (round_records::<K>() / self.workers().max(1)).max(MIN_ROUND_RECORDS)
        }
    }

    /// Records this worker expands per exchange in a step from its share of `sources` classes to a next level
    /// of about `expected` classes: [`Sh::round`], but no more than half the classes it builds and than its
    /// sources can give. On a small board the fixed round took more memory than the level: on the English
    /// board each process's round buffers held about as much as its tables.
    pub(super) fn round_for<K: TableKey>(&self, expected: usize, sources: usize) -> usize {
        if self.opts.round_records > 0 {
            return self.opts.round_records;
        }
        let built = expected / self.workers().max(1) + 1;
        let level = (built / CLASSES_PER_ROUND_RECORD).max(MIN_ROUND_RECORDS);
        round_within(self.round::<K>().min(level), sources)
    }

    /// The fewest records this worker expands per exchange where its memory limit has no room for more.
    pub(super) fn least_round(&self) -> usize {
        if self.opts.round_records > 0 {
            self.opts.round_records
        } else {
            MIN_ROUND_RECORDS
        }
    }

    /// All workers' notes, by worker, after checking that they are all at the same point.
    pub(super) fn gather<T: Transport + ?Sized>(
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
