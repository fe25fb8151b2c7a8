//! Why a worker's run stopped.

use crate::count::CountError;

/// What went wrong in a transport (a connection lost, a peer gone): a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TransportError(pub String);

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
