//! The settings of an enumeration and the measurements it reports.

use std::sync::atomic::AtomicBool;

use crate::count::Level;

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

/// Measurements of one level step, as reported to the [`Options::stats`] callback: for people tuning the
/// engine (the command line prints them with `PEG_DEBUG=1`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepStats {
    /// Pegs of the level expanded (the source level).
    pub pegs: u32,
    /// Classes of the source level.
    pub sources: u64,
    /// Records written for the next level (one per distinct successor class of each source class).
    pub records: u64,
    /// Classes of the next level.
    pub next_classes: u64,
    /// The size the next level was expected to have (its tables were sized for it).
    pub expected: u64,
    /// Rounds the next level was built in.
    pub rounds: u32,
    /// Records a round was given (about): as many as the classes being built, or fewer where the memory
    /// limit had no room for rounds that big.
    pub round_records: u64,
    /// Seconds (wall) spent expanding sources into records.
    pub expand_secs: f64,
    /// Seconds (wall) spent adding records into the tables.
    pub merge_secs: f64,
    /// Seconds (wall) spent freezing the tables into the stored next level.
    pub freeze_secs: f64,
    /// Seconds (wall) of the whole step.
    pub total_secs: f64,
    /// Bytes of the next level: frozen, or its tables when it was left in them.
    pub next_bytes: u64,
    /// Whether the next level was left in the tables its records were merged into, not frozen (a count
    /// that never looks at its levels does this while the memory limit leaves room; the next step reads the
    /// tables directly, or freezes them first when the memory is short).
    pub left_in_tables: bool,
    /// The memory the step was estimated to need (when a memory limit was set).
    pub estimate_bytes: Option<u64>,
    /// Whether the next level had to be built with 128-bit counters after a narrow counter overflowed.
    pub rebuilt_wide: bool,
}

/// A callback given the measurements of each level step.
pub type StatsSink<'a> = &'a (dyn Fn(&StepStats) + Sync);

/// Settings of an enumeration.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Stop before a level whose estimated memory would pass this many bytes.
    pub max_memory: Option<u64>,
    /// Enumerate only this many levels (from the start down).
    pub max_levels: Option<usize>,
    /// Called after each level.
    pub progress: Option<Progress<'a>>,
    /// Called after each level step with its measurements (for tuning; none are gathered without it).
    pub stats: Option<StatsSink<'a>>,
    /// Checked between rounds; when set, the enumeration stops with [`CountError::Cancelled`](crate::CountError::Cancelled).
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
