//! Checkpoints: where the workers save their shares after each level, and the state a run resumes from.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};

use crate::step::State;

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

/// Where to start a run from: a checkpoint's state and this worker's share of its level.
pub struct Resume<'a> {
    /// The state recorded.
    pub state: State,
    /// This worker's share, as [`ShareData::write_to`] wrote it.
    pub share: &'a mut dyn Read,
}
