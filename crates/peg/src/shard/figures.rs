//! The measurements of a worker's steps and run, and the result of a run.

use serde::{Deserialize, Serialize};

use crate::count::Count;

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
    /// This worker's estimate of the memory the step needs, bytes (its part of its process's memory limit).
    pub estimate: u64,
    /// Records this worker expanded per exchange.
    pub round_records: u64,
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
    /// The largest of its memory estimates of a step (bytes): its part of the smallest memory limit its
    /// process can run with.
    #[serde(default)]
    pub estimate_max: u64,
    /// Figures of the whole process, given by the first worker of each process (see
    /// [`ShardOptions::figures`](crate::shard::ShardOptions::figures)): peak memory (bytes).
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
