//! Where a level-by-level run stands after a level: the rows so far, the solutions, the size of every level.
//! A cluster's checkpoint and a spilling store record it; the run loops of both advance it.

use super::expand::Acc;
use super::plan::{at_end, estimate, next_pegs};
use crate::count::{CountError, Level, add};
use crate::finishable::FinishableLevel;
use crate::kernel::Kernel;

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
    /// With a finish hole, when a cluster run with checkpoints found them before its first level: the
    /// positions that can still finish, level by level (so that a resumed run reads them instead of finding
    /// them again). `None` otherwise.
    pub finishable: Option<Vec<FinishableLevel>>,
}

impl State {
    /// The state before the first level, of `classes` classes with `pegs` pegs.
    pub(crate) fn start(pegs: u32, classes: u64) -> State {
        State {
            pegs,
            wide: false,
            levels: Vec::new(),
            solutions_full: 0,
            solutions_normal: 0,
            sizes: vec![classes],
            finishable: None,
        }
    }

    /// Whether a level is left to expand (within the first `max_levels`, when given).
    pub(crate) fn goes_on(&self, max_levels: Option<usize>) -> bool {
        self.sizes.last().is_some_and(|&n| n > 0)
            && self.levels.len() < max_levels.unwrap_or(usize::MAX)
    }

    /// Whether the level to expand is the last: the last asked for, or the last a run can have.
    pub(crate) fn last(&self, k: &Kernel, max_levels: Option<usize>) -> bool {
        self.levels.len() + 1 == max_levels.unwrap_or(usize::MAX) || at_end(k, self.pegs)
    }

    /// The expected size of the next level (none after the last).
    pub(crate) fn expected(&self, last: bool) -> usize {
        if last {
            return 0;
        }
        let hist: Vec<usize> = self.sizes.iter().map(|&s| s as usize).collect();
        estimate(&hist)
    }

    /// The level expanded had the statistics `acc`, and the next level has `next` classes (with 128-bit
    /// counters when `wide`): its row, its solutions, and the next level to expand.
    ///
    /// # Errors
    /// The solutions passing 2^128.
    pub(crate) fn advance(
        &mut self,
        k: &Kernel,
        acc: &Acc,
        next: u64,
        wide: bool,
    ) -> Result<(), CountError> {
        let pegs = self.pegs;
        self.solutions_full = add(self.solutions_full, acc.sol_full, pegs)?;
        self.solutions_normal = add(self.solutions_normal, acc.sol_normal, pegs)?;
        self.levels.push(acc.row(pegs));
        self.pegs = next_pegs(k, pegs);
        self.sizes.push(next);
        self.wide = wide;
        Ok(())
    }
}
