//! The exact solutions of Mouse & Cats, solved once per board and rule and shared by the sessions of an `Env`.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use mousecats::{BoardSize, Rule, Solution, SolveError};

use super::options::has_table;
use crate::budget::{Charge, MemoryBudget};

/// The exact solutions of the game, one per board size and rule, solved once and shared by every session of an
/// [`Env`](crate::Env), within the memory budget they were given (the least recently used go first). Only boards
/// up to [`MAX_TABLE_SIZE`](mousecats::solve::MAX_TABLE_SIZE) have one.
#[derive(Clone, Default)]
pub struct MouseSolutions {
    solved: Solved,
    budget: MemoryBudget,
}

/// One solution, solved at most once.
type SolutionCell = Arc<OnceLock<Arc<Solution>>>;

/// A solution kept, and once solved its share of the budget.
#[derive(Default)]
struct Kept {
    cell: SolutionCell,
    charge: Option<Charge>,
}

type Solved = Arc<Mutex<HashMap<(BoardSize, Rule), Kept>>>;

/// A lock whose holder cannot leave the map half-changed: a panic elsewhere does not make it unusable.
fn lock(
    m: &Mutex<HashMap<(BoardSize, Rule), Kept>>,
) -> MutexGuard<'_, HashMap<(BoardSize, Rule), Kept>> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl MouseSolutions {
    /// An empty cache.
    pub fn new() -> MouseSolutions {
        MouseSolutions::default()
    }

    /// An empty cache whose solutions are charged to `budget`.
    pub fn with_budget(budget: MemoryBudget) -> MouseSolutions {
        MouseSolutions {
            solved: Solved::default(),
            budget,
        }
    }

    fn cell(&self, size: BoardSize, rule: Rule) -> SolutionCell {
        let mut map = lock(&self.solved);
        let kept = map.entry((size, rule)).or_default();
        if let Some(c) = &kept.charge {
            c.touch();
        }
        Arc::clone(&kept.cell)
    }

    /// Charge the solution just solved in `cell` to the budget (and let it go if it alone is larger than the
    /// budget, or the budget evicted it meanwhile).
    fn charge(&self, key: (BoardSize, Rule), cell: &SolutionCell, bytes: u64) {
        let fresh = |map: &HashMap<(BoardSize, Rule), Kept>| {
            map.get(&key)
                .is_some_and(|k| Arc::ptr_eq(&k.cell, cell) && k.charge.is_none())
        };
        if !fresh(&lock(&self.solved)) {
            return;
        }
        let (weak, target) = (Arc::downgrade(&self.solved), Arc::downgrade(cell));
        let charge = self.budget.charge("mouse solutions", bytes, move || {
            if let Some(solved) = weak.upgrade() {
                let mut map = lock(&solved);
                if map
                    .get(&key)
                    .is_some_and(|k| Arc::as_ptr(&k.cell) == target.as_ptr())
                {
                    map.remove(&key);
                }
            }
        });
        let mut map = lock(&self.solved);
        if !fresh(&map) {
            return;
        }
        match charge {
            Some(c) if !c.is_evicted() => {
                if let Some(k) = map.get_mut(&key) {
                    k.charge = Some(c);
                }
            }
            _ => {
                map.remove(&key);
            }
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
        let cell = self.cell(size, rule);
        let solution = Arc::clone(cell.get_or_init(|| {
            #[allow(clippy::expect_used)]
            // The size was checked above: every board up to MAX_TABLE_SIZE has a table.
            Arc::new(Solution::solve_size(size, rule, true).expect("a board with a table"))
        }));
        let bytes = u64::try_from(solution.memory_bytes()).unwrap_or(u64::MAX);
        self.charge((size, rule), &cell, bytes);
        Ok(solution)
    }
}

impl fmt::Debug for MouseSolutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MouseSolutions")
    }
}
