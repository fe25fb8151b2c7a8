//! The complete tables of finishable positions, shared between the peg games of an `Env`.

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use peg::Finishable;

use super::search::Searches;

/// A complete table of finishable positions (the positions reachable from the start from which the finish can
/// still be reached: [`Finishable`]), shared between games (and threads) with the same board, start and finish: a
/// new game of the same kind finds it ready.
pub(super) type TableCell = Arc<OnceLock<Result<Arc<Finishable>, String>>>;

/// (board, its jumps, the start's pegs, the finish hole or `None` for anywhere).
pub(super) type TableKey = (String, usize, u64, Option<usize>);

/// The complete tables of finishable positions built (or being built) for peg games, newest last, and the
/// searches of positions that no table answers, shared by every session of an [`Env`](crate::Env). Only the
/// last few tables are kept (games in progress keep theirs), and only a few searches go on at once.
#[derive(Clone)]
pub struct PegTables {
    tables: Arc<Mutex<Vec<(TableKey, TableCell)>>>,
    kept: usize,
    pub(super) searches: Searches,
}

impl PegTables {
    /// A cache that keeps the last `kept` tables. With 0 no table is built at all: the solver answers every
    /// question (for a server that cannot afford a second of table building in a request). Searches: as many
    /// under way at once as tables kept (at least one).
    pub fn new(kept: usize) -> PegTables {
        PegTables {
            tables: Arc::new(Mutex::new(Vec::new())),
            kept,
            searches: Searches::new(kept),
        }
    }

    /// The cell of `key`, made if needed; `None` when no table is to be built.
    pub(super) fn cell(&self, key: &TableKey) -> Option<TableCell> {
        if self.kept == 0 {
            return None;
        }
        let Ok(mut tables) = self.tables.lock() else {
            // A poisoned lock only means another thread panicked while holding it: build a private table.
            return Some(Arc::new(OnceLock::new()));
        };
        if let Some(i) = tables.iter().position(|(k, _)| k == key) {
            let entry = tables.remove(i);
            let cell = Arc::clone(&entry.1);
            tables.push(entry);
            return Some(cell);
        }
        let cell: TableCell = Arc::new(OnceLock::new());
        tables.push((key.clone(), Arc::clone(&cell)));
        while tables.len() > self.kept {
            tables.remove(0);
        }
        Some(cell)
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
