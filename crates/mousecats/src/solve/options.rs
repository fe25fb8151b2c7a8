//! The settings of the level-by-level work (the solve and the count of reachable positions), and what it
//! reports as it goes.

/// Where a level-by-level computation has got to, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// `"solve"` while the values are computed (lowest level first), `"reach"` while the positions
    /// reachable from the start are counted (from the start's level down).
    pub phase: &'static str,
    /// Levels finished in this phase.
    pub levels_done: usize,
    /// Levels this phase will do.
    pub levels: usize,
    /// Cat sets finished in this phase.
    pub sets_done: u64,
    /// Cat sets this phase will do.
    pub sets: u64,
}

/// Settings of [`solve_layers`](super::solve_layers).
#[derive(Clone, Copy, Default)]
pub struct LayerOptions<'a> {
    /// Solve each level's sets on rayon's threads.
    pub parallel: bool,
    /// Refuse to start if the solve would need more bytes than this.
    pub memory_limit: Option<u64>,
    /// Called after every level.
    pub progress: Option<&'a (dyn Fn(&SolveProgress) + Sync)>,
}

impl std::fmt::Debug for LayerOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LayerOptions")
            .field("parallel", &self.parallel)
            .field("memory_limit", &self.memory_limit)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}
