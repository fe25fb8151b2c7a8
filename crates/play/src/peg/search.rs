//! Searches of the positions that no table answers, shared between the peg games of an `Env` (through its
//! [`PegTables`](super::PegTables)).
//!
//! A search started for a position goes on as one background task until it answers, whichever game (or, on a
//! server, whichever request) asks about the position meanwhile, and every game that asks sees how far it got.
//! Its solver is kept for the next search on the same board, with the dead positions it learnt. A search that
//! nobody has asked about for a while stops, as does the oldest when too many are under way; asked again, its
//! position gets a new search. The ways found are remembered for every position along them.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use peg::{Board, Finish, Move, Position, SolveError, Solver, SolverOptions};

use crate::budget::{Charge, MemoryBudget};
use crate::work::Runner;

/// Positions the solver examines between two looks at whether the search is still wanted (a few tens of
/// milliseconds): the longest a search goes on after it was stopped.
const SLICE_NODES: u64 = 1_000_000;
/// The memory the solver's table of dead positions may use.
const SOLVER_MEMORY: u64 = 512 << 20;
/// A search without a budget stops when no game has asked about its position for this long.
const LEFT_ALONE: Duration = Duration::from_secs(20);
/// The most positions whose way to the finish is remembered (past it the memory starts again).
const WAYS_KEPT: usize = 100_000;

/// A search's position: (the board's name and layout, its number of jumps, the finish hole or `None` for
/// anywhere, the pegs).
pub(super) type SearchKey = (String, usize, Option<usize>, u64);
/// A solver's board and finish.
type SolverKey = (String, usize, Option<usize>);

/// The key of `pos` on `board` with `finish`.
pub(super) fn key_of(board: &Board, finish: Finish, pos: Position) -> SearchKey {
    let hole = match finish {
        Finish::Hole(h) => Some(h),
        Finish::Anywhere => None,
    };
    // The layout too: two pasted boards may share a name.
    let board_id = format!("{}\n{}", board.name(), board.layout_string(board.full()));
    (board_id, board.moves().len(), hole, pos.bits())
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Ended {
    /// A way to the finish.
    Way(Arc<[Move]>),
    /// There is none.
    NoWay,
    /// It spent its budget of positions, or its memory (`memory`).
    GaveUp {
        /// True when it stopped at its memory limit.
        memory: bool,
    },
    /// It was stopped: left alone, or pushed out by newer searches. Asked again, the position gets a new one.
    Dropped,
}

/// A search under way or ended.
pub(super) struct Search {
    /// Positions examined so far.
    nodes: AtomicU64,
    /// Positions it may examine (`None`: until it answers, its memory runs out, or it is left alone).
    budget: Option<u64>,
    /// Raised to stop it.
    stop: AtomicBool,
    /// The solver's own stop flag, once the task has its solver: raising it ends a slice within milliseconds.
    solver_stop: Mutex<Option<Arc<AtomicBool>>>,
    /// When a game last asked about it.
    asked: Mutex<Instant>,
    /// How it ended, once it has.
    ended: OnceLock<Ended>,
    /// Set with `ended`, and signalled, for those who wait.
    finished: Mutex<bool>,
    signal: Condvar,
}

impl Search {
    fn new(budget: Option<u64>) -> Search {
        Search {
            nodes: AtomicU64::new(0),
            budget,
            stop: AtomicBool::new(false),
            solver_stop: Mutex::new(None),
            asked: Mutex::new(Instant::now()),
            ended: OnceLock::new(),
            finished: Mutex::new(false),
            signal: Condvar::new(),
        }
    }

    /// Record how it ended and wake those who wait.
    fn end(&self, how: Ended) {
        let _ = self.ended.set(how);
        *lock(&self.finished) = true;
        self.signal.notify_all();
    }

    /// Wait at most `limit` for it to end.
    pub(super) fn wait_for(&self, limit: Duration) {
        let done = lock(&self.finished);
        if !*done {
            let _ = self.signal.wait_timeout(done, limit);
        }
    }

    /// Positions examined so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The positions it may examine.
    pub(super) fn budget(&self) -> Option<u64> {
        self.budget
    }

    /// How it ended, once it has.
    pub(super) fn ended(&self) -> Option<&Ended> {
        self.ended.get()
    }

    /// Stop it (within milliseconds).
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(flag) = lock(&self.solver_stop).as_ref() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    fn touch(&self) {
        *lock(&self.asked) = Instant::now();
    }

    fn left_alone(&self) -> bool {
        self.budget.is_none() && lock(&self.asked).elapsed() > LEFT_ALONE
    }
}

/// Ends its search as [`Ended::Dropped`] when dropped before the search ended (its task dropped unrun, or
/// its task stopped by a panic outside the solver).
struct EndIfDropped(Arc<Search>);

impl Drop for EndIfDropped {
    fn drop(&mut self) {
        if self.0.ended().is_none() {
            self.0.end(Ended::Dropped);
        }
    }
}

impl fmt::Debug for Search {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Search")
            .field("nodes", &self.nodes())
            .field("budget", &self.budget)
            .field("ended", &self.ended())
            .finish_non_exhaustive()
    }
}

/// A lock whose holder cannot leave the data half-changed: a panic elsewhere does not make it unusable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[derive(Default)]
struct Inner {
    /// The searches, the newest last.
    searches: Vec<(SearchKey, Arc<Search>)>,
    /// Solvers not in use, with what they learnt, the newest last.
    solvers: Vec<KeptSolver>,
    /// The number of the next solver kept.
    next_solver: u64,
    /// The rest of a way to the finish, for every position along a way found.
    ways: HashMap<SearchKey, Arc<[Move]>>,
}

/// A solver kept between searches: its board and finish, a number of its own, and its share of the budget.
struct KeptSolver {
    key: SolverKey,
    serial: u64,
    solver: Solver,
    _charge: Option<Charge>,
}

/// The searches of the peg games of an `Env`.
#[derive(Clone)]
pub(super) struct Searches {
    inner: Arc<Mutex<Inner>>,
    /// How many searches may be under way at once.
    running: usize,
    /// What the solvers kept are charged to.
    budget: MemoryBudget,
    /// Raised by [`Searches::stop`]: every search ends, and later ones at once.
    stopped: Arc<AtomicBool>,
}

impl Searches {
    /// Room for `running` searches under way at once (at least one), the solvers kept charged to `budget`.
    pub(super) fn new(running: usize, budget: MemoryBudget) -> Searches {
        Searches {
            inner: Arc::new(Mutex::new(Inner::default())),
            running: running.max(1),
            budget,
            stopped: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stop every search under way (within milliseconds) and every later one at once.
    pub(super) fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        for (_, s) in &lock(&self.inner).searches {
            s.halt();
        }
    }

    /// The rest of a way to the finish from the position of `key`, if a search found one through it.
    pub(super) fn way(&self, key: &SearchKey) -> Option<Arc<[Move]>> {
        lock(&self.inner).ways.get(key).cloned()
    }

    /// The search of the position of `key` (under way or ended), if there is one; counts as asking about it.
    pub(super) fn find(&self, key: &SearchKey) -> Option<Arc<Search>> {
        let inner = lock(&self.inner);
        let s = inner
            .searches
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, s)| Arc::clone(s))?;
        s.touch();
        Some(s)
    }

    /// Forget how the search of `key` ended (so that asking again starts a new one).
    pub(super) fn forget(&self, key: &SearchKey) {
        lock(&self.inner)
            .searches
            .retain(|(k, s)| k != key || s.ended().is_none());
    }

    /// Start a search of `pos` on `board` towards `finish` on `runner`, examining at most `budget` positions
    /// (`None`: until it answers). It replaces any earlier search of the position; the oldest searches under
    /// way beyond the room are stopped.
    pub(super) fn start(
        &self,
        runner: &dyn Runner,
        board: &Board,
        finish: Finish,
        pos: Position,
        budget: Option<u64>,
    ) -> Arc<Search> {
        let key = key_of(board, finish, pos);
        let search = Arc::new(Search::new(budget));
        {
            let mut inner = lock(&self.inner);
            inner.searches.retain(|(k, s)| {
                if *k == key {
                    s.halt();
                }
                *k != key
            });
            inner.searches.push((key.clone(), Arc::clone(&search)));
            // Stop the oldest under way beyond the room, and keep only a few ended ones.
            let under_way = inner
                .searches
                .iter()
                .filter(|(_, s)| s.ended().is_none())
                .count();
            let ended = inner.searches.len() - under_way;
            let (mut stop, mut drop) = (
                under_way.saturating_sub(self.running),
                ended.saturating_sub(4 * self.running),
            );
            inner.searches.retain(|(_, s)| {
                let surplus = if s.ended().is_none() {
                    &mut stop
                } else {
                    &mut drop
                };
                if *surplus == 0 {
                    return true;
                }
                *surplus -= 1;
                s.halt();
                false
            });
        }
        let me = self.clone();
        let (board, task_search) = (board.clone(), Arc::clone(&search));
        // A runner may drop the task without running it (a server whose pool is full): the search then ends
        // as dropped, so that the next game to ask starts a new one instead of waiting for it for ever.
        let guard = EndIfDropped(Arc::clone(&search));
        runner.run_waited_for(Box::new(move || {
            let _guard = guard;
            me.run(&board, finish, pos, key, &task_search);
        }));
        search
    }

    /// The task of a search: the solver in slices until it answers or is stopped.
    fn run(&self, board: &Board, finish: Finish, pos: Position, key: SearchKey, search: &Search) {
        let skey: SolverKey = (key.0.clone(), key.1, key.2);
        let mut solver = self.take_solver(&skey).unwrap_or_else(|| {
            Solver::with_options(
                board,
                finish,
                SolverOptions {
                    max_memory: SOLVER_MEMORY,
                    max_nodes: Some(SLICE_NODES),
                    ..SolverOptions::default()
                },
            )
        });
        let flag = solver.stop_handle();
        *lock(&search.solver_stop) = Some(Arc::clone(&flag));
        let ended = loop {
            if search.stop.load(Ordering::Relaxed)
                || self.stopped.load(Ordering::Relaxed)
                || search.left_alone()
            {
                break Ended::Dropped;
            }
            let before = solver.nodes();
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| solver.solve(pos)));
            let spent = solver.nodes().saturating_sub(before);
            let nodes = search.nodes.fetch_add(spent, Ordering::Relaxed) + spent;
            match result {
                Ok(Ok(Some(moves))) => break Ended::Way(Arc::from(moves)),
                Ok(Ok(None)) => break Ended::NoWay,
                Ok(Err(SolveError::NodeLimit { .. })) => {
                    if search.budget.is_some_and(|b| nodes >= b) {
                        break Ended::GaveUp { memory: false };
                    }
                }
                Ok(Err(SolveError::Stopped { .. })) => break Ended::Dropped,
                Ok(Err(SolveError::MemoryLimit { .. })) => {
                    // Its table of dead positions is full: the next search starts with an empty one.
                    search.end(Ended::GaveUp { memory: true });
                    return;
                }
                // The solver broke: a fresh one next time.
                Err(_) => {
                    search.end(Ended::GaveUp { memory: false });
                    return;
                }
            }
        };
        flag.store(false, Ordering::Relaxed);
        let mut inner = lock(&self.inner);
        if let Ended::Way(moves) = &ended {
            if inner.ways.len() + moves.len() > WAYS_KEPT {
                inner.ways.clear();
            }
            let mut p = pos;
            for (i, &m) in moves.iter().enumerate() {
                inner
                    .ways
                    .entry((key.0.clone(), key.1, key.2, p.bits()))
                    .or_insert_with(|| Arc::from(&moves[i..]));
                p = p.apply(m);
            }
        }
        inner.solvers.retain(|k| k.key != skey);
        let serial = inner.next_solver;
        inner.next_solver += 1;
        drop(inner);
        // Kept within the budget (charged without the lock: the evictions it makes take it).
        let weak = Arc::downgrade(&self.inner);
        let charge = self
            .budget
            .charge("peg solvers", solver.memory_bytes(), move || {
                if let Some(inner) = weak.upgrade() {
                    lock(&inner).solvers.retain(|k| k.serial != serial);
                }
            });
        let mut inner = lock(&self.inner);
        if charge.as_ref().is_some_and(|c| !c.is_evicted()) {
            inner.solvers.retain(|k| k.key != skey);
            inner.solvers.push(KeptSolver {
                key: skey,
                serial,
                solver,
                _charge: charge,
            });
        }
        let room = self.running;
        let extra = inner.solvers.len().saturating_sub(room);
        inner.solvers.drain(..extra);
        drop(inner);
        search.end(ended);
    }

    fn take_solver(&self, skey: &SolverKey) -> Option<Solver> {
        let mut inner = lock(&self.inner);
        let i = inner.solvers.iter().position(|k| k.key == *skey)?;
        Some(inner.solvers.remove(i).solver)
    }
}

impl fmt::Debug for Searches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searches")
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::{Inline, Task};

    /// A runner with no room: it drops every task unrun.
    struct Full;

    impl Runner for Full {
        fn run(&self, _task: Task) {}
    }

    #[test]
    fn a_search_whose_task_is_dropped_ends_and_the_next_ask_starts_again() {
        let board = Board::english();
        let start = board.default_start();
        let searches = Searches::new(2, MemoryBudget::unlimited());
        let dropped = searches.start(&Full, &board, Finish::Anywhere, start, None);
        assert_eq!(dropped.ended(), Some(&Ended::Dropped));
        // Waiting for it returns at once.
        let t = Instant::now();
        dropped.wait_for(Duration::from_secs(5));
        assert!(t.elapsed() < Duration::from_secs(1));
        let again = searches.start(&Inline, &board, Finish::Anywhere, start, Some(50_000_000));
        let Some(Ended::Way(moves)) = again.ended() else {
            panic!("the search ran: {again:?}");
        };
        assert_eq!(moves.len(), 31);
    }
}
