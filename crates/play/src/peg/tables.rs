//! The complete tables of finishable positions, shared between the peg games of an `Env`.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use peg::Finishable;

use super::search::Searches;
use crate::budget::{Charge, MemoryBudget};
use crate::work::{Pending, handed_over};

/// A complete table of finishable positions (the positions reachable from the start from which the finish can
/// still be reached: [`Finishable`]), shared between games (and threads) with the same board, start and finish: a
/// new game of the same kind finds it ready.
pub(super) type TableCell = Arc<OnceLock<TableResult>>;

/// (board, its jumps, the start's pegs, the finish hole or `None` for anywhere).
pub(super) type TableKey = (String, usize, u64, Option<usize>);

/// What a game needs to have a table built, or to wait for it: its cell, the flag its build polls, and the claim
/// that one build task (the first to run) takes, so that the others end at once instead of holding a worker while
/// they wait for the same table.
#[derive(Clone)]
pub(super) struct TableSlot {
    pub(super) cell: TableCell,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) claimed: Arc<AtomicBool>,
    waiters: Waiters,
}

/// The games waiting for a table that another game's task builds.
type Waiters = Arc<Mutex<Vec<Sender<Result<TableResult, String>>>>>;

/// A built table, or why there is none (a sentence: "too big here").
pub(super) type TableResult = Result<Arc<Finishable>, String>;

impl fmt::Debug for TableSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableSlot")
            .field("built", &self.cell.get().is_some())
            .field("claimed", &self.claimed.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl TableSlot {
    /// The table once it is built, without a task of its own (so without a worker held while it waits): at once
    /// when it is there already, else when the task that builds it hands it over ([`TableSlot::finished`]).
    pub(super) fn wait(&self) -> Pending<TableResult> {
        let (tx, pending) = handed_over();
        let mut waiters = self.waiters.lock().unwrap_or_else(PoisonError::into_inner);
        // Under the waiters' lock: the builder sets the cell before it takes the lock to hand it over.
        match self.cell.get() {
            Some(built) => {
                let _ = tx.send(Ok(built.clone()));
            }
            None => waiters.push(tx),
        }
        pending
    }

    /// Hand the outcome of this table's build to every game waiting for it (`Err`: the build failed, its
    /// message).
    pub(super) fn finished(&self, outcome: &Result<TableResult, String>) {
        let waiting =
            std::mem::take(&mut *self.waiters.lock().unwrap_or_else(PoisonError::into_inner));
        for tx in waiting {
            // A game that stopped waiting has dropped its end.
            let _ = tx.send(outcome.clone());
        }
    }
}

/// A table kept: its key, its slot, and once built its share of the memory budget.
struct Kept {
    key: TableKey,
    cell: TableCell,
    stop: Arc<AtomicBool>,
    claimed: Arc<AtomicBool>,
    waiters: Waiters,
    charge: Option<Charge>,
}

impl Kept {
    /// Let the table go from the list: a build still under way or waiting for its turn stops (nobody could
    /// find its table any more).
    fn forget(self) {
        if self.cell.get().is_none() {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

type Tables = Arc<Mutex<Vec<Kept>>>;

/// A lock whose holder cannot leave the list half-changed: a panic elsewhere does not make it unusable.
fn lock(m: &Mutex<Vec<Kept>>) -> MutexGuard<'_, Vec<Kept>> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The complete tables of finishable positions built (or being built) for peg games, newest last, and the
/// searches of positions that no table answers, shared by every session of an [`Env`](crate::Env). Only the
/// last few tables are kept (games in progress keep theirs), within the memory budget they were given (the
/// least recently used go first), and only a few searches go on at once.
#[derive(Clone)]
pub struct PegTables {
    tables: Tables,
    kept: usize,
    budget: MemoryBudget,
    /// Raised by [`PegTables::stop`]: no new build starts (the builds under way are stopped by their flags).
    stopped: Arc<AtomicBool>,
    pub(super) searches: Searches,
}

impl PegTables {
    /// A cache that keeps the last `kept` tables. With 0 no table is built at all: the solver answers every
    /// question (for a server that cannot afford a second of table building in a request). Searches: as many
    /// under way at once as tables kept (at least one).
    pub fn new(kept: usize) -> PegTables {
        PegTables::with_budget(kept, MemoryBudget::unlimited())
    }

    /// [`PegTables::new`], with the tables built and the solvers kept charged to `budget`.
    pub fn with_budget(kept: usize, budget: MemoryBudget) -> PegTables {
        PegTables {
            tables: Arc::new(Mutex::new(Vec::new())),
            kept,
            searches: Searches::new(kept, budget.clone()),
            budget,
            stopped: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stop every table build and search under way within milliseconds, and every later one at once (a server
    /// shutting down). The games then answer as they do without them.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        for k in lock(&self.tables).iter() {
            k.stop.store(true, Ordering::SeqCst);
        }
        self.searches.stop();
    }

    /// Whether [`PegTables::stop`] was called (a build stopped then was stopped for that, not to make room).
    pub(super) fn stopping(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// The slot of `key`, made if needed: its cell, the flag its build polls (raised when the table leaves the
    /// list before it is built, or at [`PegTables::stop`]) and its build's claim; `None` when no table is to be
    /// built.
    pub(super) fn cell(&self, key: &TableKey) -> Option<TableSlot> {
        if self.kept == 0 {
            return None;
        }
        let mut tables = lock(&self.tables);
        if let Some(i) = tables.iter().position(|k| k.key == *key) {
            let entry = tables.remove(i);
            let found = TableSlot {
                cell: Arc::clone(&entry.cell),
                stop: Arc::clone(&entry.stop),
                claimed: Arc::clone(&entry.claimed),
                waiters: Arc::clone(&entry.waiters),
            };
            if let Some(c) = &entry.charge {
                c.touch();
            }
            tables.push(entry);
            return Some(found);
        }
        let cell: TableCell = Arc::new(OnceLock::new());
        // Made after the stop (the flag is read under the list's lock, as `stop` raises the flags).
        let stop = Arc::new(AtomicBool::new(self.stopped.load(Ordering::SeqCst)));
        let claimed = Arc::new(AtomicBool::new(false));
        let waiters = Waiters::default();
        tables.push(Kept {
            key: key.clone(),
            cell: Arc::clone(&cell),
            stop: Arc::clone(&stop),
            claimed: Arc::clone(&claimed),
            waiters: Arc::clone(&waiters),
            charge: None,
        });
        while tables.len() > self.kept {
            tables.remove(0).forget();
        }
        Some(TableSlot {
            cell,
            stop,
            claimed,
            waiters,
        })
    }

    /// Charge the table of `key` just built in `cell` to the budget (and let it go if it alone is larger than
    /// the budget, or the budget evicted it meanwhile).
    pub(super) fn charge(&self, key: &TableKey, cell: &TableCell, bytes: u64) {
        let same = |k: &Kept| k.key == *key && Arc::ptr_eq(&k.cell, cell);
        if !lock(&self.tables)
            .iter()
            .any(|k| same(k) && k.charge.is_none())
        {
            return;
        }
        let weak = Arc::downgrade(&self.tables);
        let (evict_key, evict_cell) = (key.clone(), Arc::downgrade(cell));
        let charge = self.budget.charge("peg tables", bytes, move || {
            if let Some(tables) = weak.upgrade() {
                lock(&tables).retain(|k| {
                    !(k.key == evict_key && Arc::as_ptr(&k.cell) == evict_cell.as_ptr())
                });
            }
        });
        let mut tables = lock(&self.tables);
        let Some(i) = tables.iter().position(|k| same(k) && k.charge.is_none()) else {
            return;
        };
        match charge {
            Some(c) if !c.is_evicted() => tables[i].charge = Some(c),
            _ => tables.remove(i).forget(),
        }
    }
}

impl Default for PegTables {
    /// The last two tables kept.
    fn default() -> PegTables {
        PegTables::new(2)
    }
}

impl fmt::Debug for PegTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PegTables")
            .field("kept", &self.kept)
            .finish_non_exhaustive()
    }
}
