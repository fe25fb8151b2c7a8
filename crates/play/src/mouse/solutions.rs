//! The exact solutions of Mouse & Cats, solved once per board and rule and shared by the sessions of an `Env`.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use mousecats::{BoardSize, Rule, Solution, SolveError};

use super::options::has_table;

/// The exact solutions of the game, one per board size and rule, solved once and shared by every session of an
/// [`Env`](crate::Env). Only boards up to [`MAX_TABLE_SIZE`](mousecats::solve::MAX_TABLE_SIZE) have one.
#[derive(Clone, Default)]
pub struct MouseSolutions {
    solved: Arc<Mutex<HashMap<(BoardSize, Rule), SolutionCell>>>,
}

/// One solution, solved at most once.
type SolutionCell = Arc<OnceLock<Arc<Solution>>>;

impl MouseSolutions {
    /// An empty cache.
    pub fn new() -> MouseSolutions {
        MouseSolutions::default()
    }

    fn cell(&self, size: BoardSize, rule: Rule) -> SolutionCell {
        match self.solved.lock() {
            Ok(mut map) => Arc::clone(map.entry((size, rule)).or_default()),
            // A poisoned lock only means another thread panicked while holding it: solve privately.
            Err(_) => Arc::new(OnceLock::new()),
        }
    }

    /// The 8x8 solution for `rule` if it is solved already.
    pub fn get(&self, rule: Rule) -> Option<Arc<Solution>> {
        self.get_for(BoardSize::EIGHT, rule)
    }

    /// The 8x8 solution for `rule`, solving it now if needed (a few milliseconds; blocks).
    pub fn get_or_solve(&self, rule: Rule) -> Arc<Solution> {
        match self.get_or_solve_for(BoardSize::EIGHT, rule) {
            Ok(s) => s,
            // 8x8 always has a table.
            Err(_) => Arc::new(Solution::solve(rule)),
        }
    }

    /// The solution of `size` for `rule` if it is solved already.
    pub fn get_for(&self, size: BoardSize, rule: Rule) -> Option<Arc<Solution>> {
        if !has_table(size) {
            return None;
        }
        self.cell(size, rule).get().cloned()
    }

    /// The solution of `size` for `rule`, solving it now if needed (blocks: milliseconds up to 8x8, about a
    /// quarter of a second and 210 MB on 10x10).
    ///
    /// # Errors
    /// [`SolveError::TableTooLarge`] beyond [`MAX_TABLE_SIZE`](mousecats::solve::MAX_TABLE_SIZE), where no whole table is kept.
    pub fn get_or_solve_for(
        &self,
        size: BoardSize,
        rule: Rule,
    ) -> Result<Arc<Solution>, SolveError> {
        if !has_table(size) {
            // The error says how much the table would take.
            return Solution::solve_size(size, rule, true).map(Arc::new);
        }
        Ok(Arc::clone(self.cell(size, rule).get_or_init(|| {
            #[allow(clippy::expect_used)]
            // The size was checked above: every board up to MAX_TABLE_SIZE has a table.
            Arc::new(Solution::solve_size(size, rule, true).expect("a board with a table"))
        })))
    }
}

impl fmt::Debug for MouseSolutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MouseSolutions")
    }
}
