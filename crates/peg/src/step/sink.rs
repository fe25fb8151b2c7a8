//! Where the records of a level step go, round by round ([`Sink`]), and the sink of a level built in this
//! process ([`LocalTables`]).

use rayon::prelude::*;

use super::expand::{StepError, Worker};
use crate::counter::Counter;
use crate::level::{Table, TableKey};

/// Why a round driver stopped: the step's own error (a counter overflow, the memory limit, a cancel), or its
/// sink's (a cluster's transport).
pub(crate) enum Stop<E> {
    Step(StepError),
    Sink(E),
}

impl<E> From<StepError> for Stop<E> {
    fn from(e: StepError) -> Self {
        Stop::Step(e)
    }
}

/// Where the records of a level step go, round by round: the driver ([`Rounds::feed`]) expands a slice of
/// the source level into its workers' buffers (buffer `i` holds the records of partition `ctx.first + i`),
/// then gives them to the sink, which adds them into the tables of their partitions: in this process
/// ([`LocalTables`]: a whole level in memory, or the partitions of one pass of a spilling store), or in the
/// cluster worker that owns them (the exchange of `crate::shard`).
pub(crate) trait Sink<K: TableKey, D: Counter> {
    /// The sink's own error.
    type Error;
    /// Whether the workers of a step go on after one of them failed until all know of it (a cluster in
    /// lockstep), rather than stopping at once.
    const LOCKSTEP: bool = false;
    /// Take the round's records out of the workers' buffers (what is left in them is dropped afterwards).
    /// `more` says whether this side has sources left; `failure` why its step failed, if it did (a sink may
    /// set it: a counter that overflowed while adding). Returns whether another round follows.
    ///
    /// # Errors
    /// A counter that overflowed (a sink that is not in lockstep), or the sink's own error.
    fn round(
        &mut self,
        workers: &mut [&mut Worker<K, D>],
        more: bool,
        failure: &mut Option<StepError>,
    ) -> Result<bool, Stop<Self::Error>>;
    /// Bytes of the sink's tables (for the memory limit).
    fn bytes(&self) -> u64;
}

/// The tables of the partitions a step builds in this process (a whole level, or the partitions of one pass
/// of a spilling store): the [`Sink`] of a level built in memory.
pub(crate) struct LocalTables<K, D> {
    pub tables: Vec<Table<K, D>>,
    /// Whether the tables are filled in parallel, on rayon's threads.
    pub parallel: bool,
}

impl<K: TableKey, D: Counter> Sink<K, D> for LocalTables<K, D> {
    type Error = std::convert::Infallible;

    fn round(
        &mut self,
        workers: &mut [&mut Worker<K, D>],
        more: bool,
        _: &mut Option<StepError>,
    ) -> Result<bool, Stop<Self::Error>> {
        let views: Vec<&Worker<K, D>> = workers.iter().map(|w| &**w).collect();
        let merge = |(q, t): (usize, &mut Table<K, D>)| merge_part(t, &views, q);
        if self.parallel {
            self.tables.par_iter_mut().enumerate().try_for_each(merge)
        } else {
            self.tables.iter_mut().enumerate().try_for_each(merge)
        }
        .ok_or(Stop::Step(StepError::Narrow))?;
        Ok(more)
    }

    fn bytes(&self) -> u64 {
        self.tables.iter().map(Table::bytes).sum()
    }
}

/// Add one round's records of partition `q` into its table.
fn merge_part<K: TableKey, D: Counter>(
    t: &mut Table<K, D>,
    views: &[&Worker<K, D>],
    q: usize,
) -> Option<()> {
    let n: usize = views.iter().map(|w| w.bufs[q].len()).sum();
    if n > 0 {
        if warm_worth(t, n) {
            t.warm();
        }
        for w in views {
            t.add_recs(&w.bufs[q], &w.srcs)?;
        }
    }
    Some(())
}

/// Whether reading a table into the cache before adding `n` records to it pays: when the records touch at
/// least half as many cache lines at random as the table has (a round's records over a table far bigger
/// than they are would read all of it for a few of its lines).
pub(crate) fn warm_worth<K: TableKey, D: Counter>(t: &Table<K, D>, n: usize) -> bool {
    2 * n as u64 >= t.bytes() / 64
}
