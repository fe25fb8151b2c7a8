//! The indicator behind a peg game: whether one peg can still be left from a position, and how, answered at
//! once from what is known and otherwise worked out in the background on the `Env`'s runner (a complete table,
//! or a search shared by every game of the `Env` that asks about the position).

use std::collections::HashMap;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use peg::count::CountError;
use peg::enumerate::Options as CountOptions;
use peg::{Board, Finish, Finishable, Move, Position, Problem};
use serde::Serialize;

use super::PegTables;
use super::search::{Ended, Search, SearchKey, key_of};
use super::tables::{TableKey, TableResult, TableSlot};
use crate::Env;
use crate::text::group_thousands;
use crate::work::{Outcome, Pending, panic_message, submit};

/// Where the runner works inline (so that an action waits for the search), the positions the solver may
/// examine for one position before the indicator says "not known" (each [`PegSession::show_solution`] on such
/// a position allows as many again, four times over). A runner of its own searches until the answer comes.
///
/// [`PegSession::show_solution`]: super::PegSession::show_solution
const SEARCH_CAP: u64 = 40_000_000;
/// While the complete table is being built, the search of one position stops after this many positions and the
/// indicator waits for the table instead: on two cores the two would only slow each other down.
const SEARCH_WHILE_BUILDING: u64 = 2_000_000;
/// How often [`Oracle::wait`] looks again at a search under way on another thread.
const WAIT_STEP: Duration = Duration::from_millis(50);
/// Complete tables are built only for boards up to this many holes…
const TABLE_MAX_HOLES: usize = 36;
/// …and only while the enumeration's estimate stays under this much memory (the English standard game needs
/// about 50 MB once built).
const TABLE_MEMORY: u64 = 256 << 20;

/// Why one peg can no longer be left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Why {
    /// The position class differs from that of every allowed finish: no sequence of jumps can get there.
    Class,
    /// One peg is left, but not on the finish hole.
    WrongHole,
    /// No jump is left.
    Stuck,
    /// An earlier position of this game was already lost.
    Earlier,
    /// The complete table of finishable positions says so.
    Table,
    /// The solver searched every way on.
    Search,
}

impl Why {
    /// A few words, for a panel.
    pub fn short(self) -> &'static str {
        match self {
            Why::Class => "position class",
            Why::WrongHole => "the last peg is not on the finish",
            Why::Stuck => "no jump left",
            Why::Earlier => "lost earlier",
            Why::Table => "by the complete table",
            Why::Search => "the solver tried every way on",
        }
    }
}

/// What is known about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// One peg can still be left: here is a way (empty when the position is already finished).
    Possible(Arc<[Move]>),
    /// It cannot.
    Impossible(Why),
}

/// The indicator's answer for the current position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Known.
    Known(Verdict),
    /// The solver is working on it.
    Checking,
    /// The solver gave up (its node budget or its memory was spent).
    GaveUp {
        /// Positions examined for this position.
        nodes: u64,
        /// True when it stopped at its memory limit rather than its node budget.
        memory: bool,
    },
}

/// The state of the complete table.
#[derive(Debug)]
enum TableState {
    /// Not built for this game, and why.
    Skipped(String),
    /// This game's task is to build it (unless another game's task already does).
    Building(Pending<Built>, TableSlot),
    /// Another game's task builds it: handed over when built, no worker held meanwhile.
    Waiting(Pending<TableResult>),
    /// Built.
    Ready(Arc<Finishable>),
    /// No table, and why ("too big here", "its build was stopped ...").
    Failed(String),
}

/// What a game's build task did.
#[derive(Debug)]
enum Built {
    /// It built the table (or found why there is none).
    Here(TableResult),
    /// Another game's task builds it: this one ended at once.
    Elsewhere,
}

/// Answers "can one peg still be left from here, and how" for one game, without ever making the caller wait.
pub struct Oracle {
    env: Env,
    board: Board,
    finish: Finish,
    finish_classes: Vec<u8>,
    known: HashMap<u64, Verdict>,
    table: TableState,
    /// The search of the last position asked about that no table answers.
    watching: Option<(SearchKey, Arc<Search>)>,
    /// The positions a search may examine where the runner works inline.
    cap: u64,
}

impl fmt::Debug for Oracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Oracle")
            .field("board", &self.board.name())
            .field("finish", &self.finish)
            .field("known", &self.known.len())
            .field("table", &self.table_note())
            .finish_non_exhaustive()
    }
}

impl Oracle {
    /// An oracle for games on `board` from `start` to `finish`; starts building the complete table (or takes it
    /// from `env`'s [`PegTables`](super::PegTables)) where that is cheap enough. The table holds the positions reachable from
    /// `start` that can still finish, so the positions asked about must be those of games played from `start`.
    pub fn new(board: &Board, start: Position, finish: Finish, env: &Env) -> Oracle {
        let table = if !finish.allows(board, start) {
            TableState::Skipped(String::new())
        } else if board.holes() > TABLE_MAX_HOLES {
            TableState::Skipped(format!(
                "no complete table for {} holes: the search answers",
                board.holes()
            ))
        } else {
            let hole = match finish {
                Finish::Hole(h) => Some(h),
                Finish::Anywhere => None,
            };
            let key: TableKey = (
                board.name().to_string(),
                board.moves().len(),
                start.bits(),
                hole,
            );
            match env.peg_tables.cell(&key) {
                None => TableState::Skipped("no complete table here: the search answers".into()),
                Some(slot) => match slot.cell.get() {
                    Some(Ok(t)) => TableState::Ready(Arc::clone(t)),
                    Some(Err(why)) => TableState::Failed(why.clone()),
                    None => {
                        let board = board.clone();
                        let tables = env.peg_tables.clone();
                        let own = slot.clone();
                        TableState::Building(
                            submit(&*env.runner, move || {
                                build_once(&own, &key, &tables, || {
                                    build_table(&board, start, finish, &own.stop, &tables)
                                })
                            }),
                            slot,
                        )
                    }
                },
            }
        };
        Oracle {
            env: env.clone(),
            board: board.clone(),
            finish,
            finish_classes: finish.classes(board),
            known: HashMap::new(),
            table,
            watching: None,
            cap: SEARCH_CAP,
        }
    }

    /// The answer for the last position of `line` (the positions of the game from its start), from what is
    /// known now. Cheap: lookups only.
    pub fn answer(&self, line: &[Position]) -> Answer {
        let Some(&pos) = line.last() else {
            return Answer::Checking;
        };
        if let Some(v) = self.quick(pos) {
            return Answer::Known(v);
        }
        // A position after a lost one is lost too.
        if self.lost_before(line) {
            return Answer::Known(Verdict::Impossible(Why::Earlier));
        }
        let Some(search) = self.search_of(pos) else {
            return Answer::Checking;
        };
        match search.ended() {
            Some(Ended::Way(moves)) => Answer::Known(Verdict::Possible(Arc::clone(moves))),
            Some(Ended::NoWay) => Answer::Known(Verdict::Impossible(Why::Search)),
            // While the table is being built, a search that stopped at its short budget waits for the table.
            Some(Ended::GaveUp { memory: false }) if self.building() => Answer::Checking,
            Some(&Ended::GaveUp { memory }) => Answer::GaveUp {
                nodes: search.nodes(),
                memory,
            },
            Some(Ended::Dropped) | None => Answer::Checking,
        }
    }

    /// Whether a position of `line` before its last is known to be lost.
    fn lost_before(&self, line: &[Position]) -> bool {
        line.split_last().is_some_and(|(_, before)| {
            before
                .iter()
                .any(|p| matches!(self.known.get(&p.bits()), Some(Verdict::Impossible(_))))
        })
    }

    /// Positions the search for the last position of `line` has examined so far (0 when none is known).
    pub fn progress(&self, line: &[Position]) -> u64 {
        line.last()
            .and_then(|&p| self.search_of(p))
            .map_or(0, |s| s.nodes())
    }

    fn key(&self, pos: Position) -> SearchKey {
        key_of(&self.board, self.finish, pos)
    }

    /// The search of `pos`, the one this oracle watches or one another game started.
    fn search_of(&self, pos: Position) -> Option<Arc<Search>> {
        let key = self.key(pos);
        match &self.watching {
            Some((k, s)) if *k == key => Some(Arc::clone(s)),
            _ => self.env.peg_tables.searches.find(&key),
        }
    }

    /// What is known about `pos` without searching.
    fn quick(&self, pos: Position) -> Option<Verdict> {
        if self.finish.is_finished(pos) {
            return Some(Verdict::Possible(Arc::from(Vec::new())));
        }
        if pos.pegs() <= 1 {
            return Some(Verdict::Impossible(Why::WrongHole));
        }
        if !self
            .finish_classes
            .contains(&self.board.position_class(pos))
        {
            return Some(Verdict::Impossible(Why::Class));
        }
        if let Some(v) = self.known.get(&pos.bits()) {
            return Some(v.clone());
        }
        if !matches!(self.table, TableState::Ready(_))
            && let Some(moves) = self.env.peg_tables.searches.way(&self.key(pos))
        {
            return Some(Verdict::Possible(moves));
        }
        // Every position asked about is one of this game's, so reachable from the table's start: the table
        // holds it exactly when the finish can still be reached.
        if let TableState::Ready(t) = &self.table {
            return Some(match t.solve(pos) {
                Some(moves) => Verdict::Possible(Arc::from(moves)),
                None => Verdict::Impossible(Why::Table),
            });
        }
        if !self.board.has_move(pos) {
            return Some(Verdict::Impossible(Why::Stuck));
        }
        None
    }

    /// Remember the answer for the last position of `line` (and, for a way to finish, every position along it).
    fn remember(&mut self, line: &[Position]) {
        let Some(&pos) = line.last() else {
            return;
        };
        match self.answer(line) {
            Answer::Known(Verdict::Possible(path)) if !path.is_empty() => {
                self.learn_path(pos, &path);
            }
            Answer::Known(v @ Verdict::Impossible(Why::Table | Why::Earlier | Why::Search)) => {
                self.known.insert(pos.bits(), v);
            }
            _ => {}
        }
    }

    /// Remember that every position along `moves` from `pos` can finish, with the rest of the way.
    fn learn_path(&mut self, pos: Position, moves: &[Move]) {
        let mut p = pos;
        for (i, &m) in moves.iter().enumerate() {
            self.known
                .entry(p.bits())
                .or_insert_with(|| Verdict::Possible(Arc::from(&moves[i..])));
            p = p.apply(m);
        }
    }

    /// The first position of `line` known to be lost, by its index.
    pub fn first_lost(&self, line: &[Position]) -> Option<usize> {
        line.iter()
            .position(|p| matches!(self.known.get(&p.bits()), Some(Verdict::Impossible(_))))
    }

    /// Collect finished background work and start the next search slice for the last position of `line` if
    /// it is still open. Call it after every change and regularly.
    pub fn pump(&mut self, line: &[Position]) {
        self.poll_table();
        self.remember(line);
        self.start_search(line);
        // A runner that works at once has answered already.
        self.remember(line);
    }

    /// Whether the table is being built (by this game's task or another's).
    fn building(&self) -> bool {
        matches!(
            self.table,
            TableState::Building(..) | TableState::Waiting(_)
        )
    }

    /// Collect the table if its build has ended, without waiting.
    fn poll_table(&mut self) {
        self.wait_table(None);
    }

    /// Collect the table if its build ends within `limit` (`None`: only if it has ended already).
    fn wait_table(&mut self, limit: Option<Duration>) {
        match &self.table {
            TableState::Building(job, slot) => {
                let outcome = match limit {
                    Some(l) => job.wait_for(l),
                    None => job.poll(),
                };
                match outcome {
                    Some(Outcome::Done(Built::Here(built))) => {
                        self.take_table(Outcome::Done(built))
                    }
                    // Another game's task builds it: wait for it to be handed over, holding no worker.
                    Some(Outcome::Done(Built::Elsewhere)) => {
                        self.table = TableState::Waiting(slot.wait());
                        self.poll_table();
                    }
                    Some(Outcome::Failed(why)) => self.take_table(Outcome::Failed(why)),
                    None => {}
                }
            }
            TableState::Waiting(pending) => {
                let outcome = match limit {
                    Some(l) => pending.wait_for(l),
                    None => pending.poll(),
                };
                if let Some(outcome) = outcome {
                    self.take_table(outcome);
                }
            }
            _ => {}
        }
    }

    fn take_table(&mut self, outcome: Outcome<TableResult>) {
        self.table = match outcome {
            Outcome::Done(Ok(t)) => {
                // From now on the table answers: forget the search's answers, so that the ways shown come
                // from one source.
                self.known.clear();
                TableState::Ready(t)
            }
            // The build stopped (its memory limit, the cache or the server stopping it), or died: the search
            // answers instead.
            Outcome::Done(Err(why)) => TableState::Failed(why),
            Outcome::Failed(why) => TableState::Failed(format!("its build failed: {why}")),
        };
    }

    /// Start the search of the last position of `line` unless the answer is known or a search of it goes on
    /// (or ended in a way that asking again does not change).
    fn start_search(&mut self, line: &[Position]) {
        let Some(&pos) = line.last() else {
            return;
        };
        let key = self.key(pos);
        if matches!(self.table, TableState::Ready(_)) {
            self.watching = None;
            return;
        }
        if self.quick(pos).is_some() || self.lost_before(line) {
            return;
        }
        let building = self.building();
        let budget = if building {
            Some(SEARCH_WHILE_BUILDING)
        } else if self.env.runner.works_inline() {
            Some(self.cap)
        } else {
            None
        };
        if let Some(s) = self.env.peg_tables.searches.find(&key) {
            let wider = match (s.budget(), budget) {
                (Some(had), Some(want)) => want > had,
                (Some(_), None) => true,
                (None, _) => false,
            };
            let again = match s.ended() {
                None | Some(Ended::Way(_) | Ended::NoWay) => false,
                Some(Ended::Dropped) => true,
                Some(Ended::GaveUp { memory }) => !memory && wider,
            };
            if !again {
                self.watching = Some((key, s));
                return;
            }
        }
        let s = self.env.peg_tables.searches.start(
            &*self.env.runner,
            &self.board,
            self.finish,
            pos,
            budget,
        );
        self.watching = Some((key, s));
    }

    /// Search `pos` again after its search gave up: four times as long where the runner works inline, and
    /// with an empty table of dead positions after the memory ran out.
    pub fn search_longer(&mut self, pos: Position) {
        let key = self.key(pos);
        if let Some(s) = self.search_of(pos) {
            self.cap = self.cap.max(s.nodes() + 4 * SEARCH_CAP);
        }
        self.env.peg_tables.searches.forget(&key);
        if self.watching.as_ref().is_some_and(|(k, _)| *k == key) {
            self.watching = None;
        }
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        self.watching
            .as_ref()
            .is_some_and(|(_, s)| s.ended().is_none())
            || self.building()
    }

    /// Wait at most `limit` for a piece of background work to finish (the search of the position watched, else
    /// the table) and collect it; at once when none is under way. The next [`Oracle::pump`] goes on from there.
    pub fn wait_a_little(&mut self, limit: Duration) {
        match &self.watching {
            Some((_, s)) if s.ended().is_none() => s.wait_for(limit),
            _ => self.wait_table(Some(limit)),
        }
    }

    /// Block until the table is built and the last position of `line` is answered, the search gave up, or
    /// (with a limit) the time is up; the search goes on in slices meanwhile.
    pub fn wait(&mut self, line: &[Position], limit: Option<Duration>) {
        let deadline = limit.map(|l| Instant::now() + l);
        loop {
            self.pump(line);
            let building = self.building();
            if !building && (self.answer(line) != Answer::Checking || !self.busy()) {
                break;
            }
            let step = match deadline {
                Some(d) if Instant::now() >= d => break,
                Some(d) => WAIT_STEP.min(d.saturating_duration_since(Instant::now())),
                None => WAIT_STEP,
            };
            // The table first (the search meanwhile goes on by itself), then the search.
            if building {
                self.wait_table(Some(step));
            } else if let Some((_, s)) = &self.watching {
                s.wait_for(step);
            }
        }
    }

    /// One line about the complete table, for a panel.
    pub fn table_note(&self) -> String {
        match &self.table {
            TableState::Skipped(why) => why.clone(),
            TableState::Building(..) | TableState::Waiting(_) => {
                "building the complete table…".into()
            }
            TableState::Ready(t) => {
                format!("complete table: {} classes", group_thousands(t.classes()))
            }
            TableState::Failed(why) => format!("no complete table ({why}): the search answers"),
        }
    }
}

/// Build the complete table for a game from `start` to `finish`: the positions reachable from `start` from
/// which `finish` can still be reached (found by meeting in the middle; on the English board from the centre to
/// the centre 1,679,072 classes, a fraction of a second).
/// A raised `stop` ends it within a level. Why there is no table is said as the player reads it: "too big here",
/// or that its build was stopped, and why.
fn build_table(
    board: &Board,
    start: Position,
    finish: Finish,
    stop: &AtomicBool,
    tables: &PegTables,
) -> TableResult {
    let opts = CountOptions {
        max_memory: Some(TABLE_MEMORY),
        cancel: Some(stop),
        ..CountOptions::default()
    };
    let problem = Problem::new(board.clone(), start, finish).map_err(|e| e.to_string())?;
    Finishable::build(&problem, &opts)
        .map(Arc::new)
        .map_err(|e| match e {
            CountError::MemoryLimit { .. } => "too big here".to_string(),
            CountError::Cancelled if tables.stopping() => {
                "its build was stopped: the program is stopping".to_string()
            }
            CountError::Cancelled => {
                "its build was stopped to make room for the tables of other games".to_string()
            }
            other => other.to_string(),
        })
}

/// Build the table of `slot` with `build`, unless another game's task has claimed it (then end at once: that
/// game's task hands the table over to every game waiting for it). The table built is charged to the budget and
/// handed over; a build that panics hands its message over and gives up its claim, so that a later game tries
/// again.
fn build_once(
    slot: &TableSlot,
    key: &TableKey,
    tables: &PegTables,
    build: impl FnOnce() -> TableResult,
) -> Built {
    if slot.claimed.swap(true, Ordering::SeqCst) {
        return Built::Elsewhere;
    }
    match catch_unwind(AssertUnwindSafe(|| slot.cell.get_or_init(build).clone())) {
        Ok(built) => {
            if let Ok(t) = &built {
                tables.charge(key, &slot.cell, t.bytes());
            }
            slot.finished(&Ok(built.clone()));
            Built::Here(built)
        }
        Err(payload) => {
            let why = panic_message(payload);
            slot.claimed.store(false, Ordering::SeqCst);
            slot.finished(&Err(why.clone()));
            // The game whose task this was hears it as the others do.
            resume_unwind(Box::new(why))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::work::{Runner, Task};
    use crate::{Clock, PegTables};

    /// A runner that keeps its tasks for the test to run by hand.
    #[derive(Default)]
    struct ByHand(Mutex<Vec<Task>>);

    impl Runner for ByHand {
        fn run(&self, task: Task) {
            self.0.lock().unwrap().push(task);
        }
    }

    fn triangle_from(env: &Env, hole: &str) -> Oracle {
        let board = Board::builtin("triangle").unwrap();
        let start = Problem::start_with_vacancies(&board, &[hole]).unwrap();
        Oracle::new(&board, start, Finish::Anywhere, env)
    }

    /// A table pushed out of the list before it was built is not built at all: its build, still waiting for its
    /// turn, stops at once (before, it ran its full course for a table nobody could find any more), and the game
    /// says why it has no table (before: "too big here").
    #[test]
    fn a_table_left_out_of_the_list_is_not_built() {
        let runner = Arc::new(ByHand::default());
        let mut env = Env::new(Arc::clone(&runner) as Arc<dyn Runner>, Clock::system());
        env.peg_tables = PegTables::new(1);
        let mut first = triangle_from(&env, "1");
        assert!(
            matches!(first.table, TableState::Building(..)),
            "the first game's table is being built: {first:?}"
        );
        // A second game from another start takes the one place in the list.
        let second = triangle_from(&env, "4");
        assert!(matches!(second.table, TableState::Building(..)));
        let tasks: Vec<Task> = std::mem::take(&mut *runner.0.lock().unwrap());
        assert_eq!(tasks.len(), 2);
        let mut tasks = tasks.into_iter();
        let first_task = tasks.next().unwrap();
        first_task();
        first.poll_table();
        match &first.table {
            TableState::Failed(why) => assert_eq!(
                why,
                "its build was stopped to make room for the tables of other games"
            ),
            other => panic!("the first table was built although nobody can use it: {other:?}"),
        }
        assert_eq!(
            first.table_note(),
            "no complete table (its build was stopped to make room for the tables of other games): the \
             search answers"
        );
        // The table still in the list is built, and a game from its start finds it ready.
        let second_task = tasks.next().unwrap();
        second_task();
        let again = triangle_from(&env, "4");
        assert!(matches!(again.table, TableState::Ready(_)), "{again:?}");
        // After `stop` a new table's build stops at once too, and says so.
        env.peg_tables.stop();
        let mut third = triangle_from(&env, "6");
        assert!(matches!(third.table, TableState::Building(..)));
        let task = runner.0.lock().unwrap().pop().unwrap();
        task();
        third.poll_table();
        assert_eq!(
            third.table_note(),
            "no complete table (its build was stopped: the program is stopping): the search answers"
        );
    }

    /// A second game asking for a table whose build is under way joins that build: its own task ends at once
    /// (before, it held a worker, blocked until the first build was done), and the table is handed over to it
    /// when built. Here the second task runs in the middle of the first one's build.
    #[test]
    fn a_second_game_joins_the_build_under_way() {
        let tables = PegTables::new(2);
        let board = Board::builtin("triangle").unwrap();
        let start = Problem::start_with_vacancies(&board, &["1"]).unwrap();
        let key: TableKey = (
            board.name().to_string(),
            board.moves().len(),
            start.bits(),
            None,
        );
        let slot = tables.cell(&key).unwrap();
        let mut joined = None;
        let built = build_once(&slot, &key, &tables, || {
            // Meanwhile a second game asks for the same table.
            let again = tables.cell(&key).unwrap();
            assert!(Arc::ptr_eq(&again.cell, &slot.cell));
            let task = build_once(&again, &key, &tables, || panic!("the table built twice"));
            assert!(matches!(task, Built::Elsewhere), "{task:?}");
            let waiting = again.wait();
            assert!(waiting.poll().is_none(), "handed over before it is built");
            joined = Some(waiting);
            build_table(&board, start, Finish::Anywhere, &slot.stop, &tables)
        });
        let Built::Here(Ok(table)) = built else {
            panic!("the first task builds the table: {built:?}")
        };
        match joined.unwrap().poll() {
            Some(Outcome::Done(Ok(t))) => assert!(Arc::ptr_eq(&t, &table)),
            other => panic!("the table is handed over when built: {other:?}"),
        }
        // Through the games: with a runner that keeps its tasks, the second game's task ends at once and the
        // game gets the table the first game's task built.
        let runner = Arc::new(ByHand::default());
        let mut env = Env::new(Arc::clone(&runner) as Arc<dyn Runner>, Clock::system());
        env.peg_tables = PegTables::new(2);
        let mut a = triangle_from(&env, "4");
        let mut b = triangle_from(&env, "4");
        let tasks: Vec<Task> = std::mem::take(&mut *runner.0.lock().unwrap());
        assert_eq!(tasks.len(), 2);
        for t in tasks {
            t();
        }
        a.poll_table();
        b.poll_table();
        assert!(matches!(a.table, TableState::Ready(_)), "{a:?}");
        assert!(matches!(b.table, TableState::Ready(_)), "{b:?}");
    }
}
