//! The indicator behind a peg game: whether one peg can still be left from a position, and how, answered at
//! once from what is known and otherwise worked out in the background on the `Env`'s runner (a complete table,
//! or a search shared by every game of the `Env` that asks about the position).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use peg::enumerate::Options as CountOptions;
use peg::{Board, Finish, Finishable, Move, Position, Problem};
use serde::Serialize;

use super::search::{Ended, Search, SearchKey, key_of};
use super::tables::TableKey;
use crate::Env;
use crate::text::group_thousands;
use crate::work::{Outcome, Pending, submit};

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
    /// Being built.
    Building(Pending<Result<Arc<Finishable>, String>>),
    /// Built.
    Ready(Arc<Finishable>),
    /// The build stopped (at its memory limit).
    Failed,
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
                Some((cell, stop)) => match cell.get() {
                    Some(Ok(t)) => TableState::Ready(Arc::clone(t)),
                    Some(Err(_)) => TableState::Failed,
                    None => {
                        let board = board.clone();
                        let tables = env.peg_tables.clone();
                        TableState::Building(submit(&*env.runner, move || {
                            let built = cell
                                .get_or_init(|| build_table(&board, start, finish, &stop))
                                .clone();
                            if let Ok(t) = &built {
                                tables.charge(&key, &cell, t.bytes());
                            }
                            built
                        }))
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
            Some(Ended::GaveUp { memory: false })
                if matches!(self.table, TableState::Building(_)) =>
            {
                Answer::Checking
            }
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
        if let TableState::Building(job) = &self.table
            && let Some(outcome) = job.poll()
        {
            self.take_table(outcome);
        }
        self.remember(line);
        self.start_search(line);
        // A runner that works at once has answered already.
        self.remember(line);
    }

    fn take_table(&mut self, outcome: Outcome<Result<Arc<Finishable>, String>>) {
        self.table = match outcome {
            Outcome::Done(Ok(t)) => {
                // From now on the table answers: forget the search's answers, so that the ways shown come
                // from one source.
                self.known.clear();
                TableState::Ready(t)
            }
            // The build stopped at its memory limit, or died: the search answers instead.
            Outcome::Done(Err(_)) | Outcome::Failed(_) => TableState::Failed,
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
        let building = matches!(self.table, TableState::Building(_));
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
            || matches!(self.table, TableState::Building(_))
    }

    /// Wait at most `limit` for a piece of background work to finish (the search of the position watched, else
    /// the table) and collect it; at once when none is under way. The next [`Oracle::pump`] goes on from there.
    pub fn wait_a_little(&mut self, limit: Duration) {
        match &self.watching {
            Some((_, s)) if s.ended().is_none() => s.wait_for(limit),
            _ => {
                if let TableState::Building(job) = &self.table
                    && let Some(outcome) = job.wait_for(limit)
                {
                    self.take_table(outcome);
                }
            }
        }
    }

    /// Block until the table is built and the last position of `line` is answered, the search gave up, or
    /// (with a limit) the time is up; the search goes on in slices meanwhile.
    pub fn wait(&mut self, line: &[Position], limit: Option<Duration>) {
        let deadline = limit.map(|l| Instant::now() + l);
        loop {
            self.pump(line);
            let building = matches!(self.table, TableState::Building(_));
            if !building && (self.answer(line) != Answer::Checking || !self.busy()) {
                break;
            }
            let step = match deadline {
                Some(d) if Instant::now() >= d => break,
                Some(d) => WAIT_STEP.min(d.saturating_duration_since(Instant::now())),
                None => WAIT_STEP,
            };
            // The table first (the search meanwhile goes on by itself), then the search.
            let outcome = match &self.table {
                TableState::Building(job) => job.wait_for(step),
                _ => {
                    if let Some((_, s)) = &self.watching {
                        s.wait_for(step);
                    }
                    None
                }
            };
            if let Some(outcome) = outcome {
                self.take_table(outcome);
            }
        }
    }

    /// One line about the complete table, for a panel.
    pub fn table_note(&self) -> String {
        match &self.table {
            TableState::Skipped(why) => why.clone(),
            TableState::Building(_) => "building the complete table…".into(),
            TableState::Ready(t) => {
                format!("complete table: {} classes", group_thousands(t.classes()))
            }
            TableState::Failed => "no complete table (too big here): the search answers".into(),
        }
    }
}

/// Build the complete table for a game from `start` to `finish`: the positions reachable from `start` from
/// which `finish` can still be reached (found by meeting in the middle; on the English board from the centre to
/// the centre 1,679,072 classes, a fraction of a second).
/// A raised `stop` ends it within a level.
fn build_table(
    board: &Board,
    start: Position,
    finish: Finish,
    stop: &AtomicBool,
) -> Result<Arc<Finishable>, String> {
    let opts = CountOptions {
        max_memory: Some(TABLE_MEMORY),
        cancel: Some(stop),
        ..CountOptions::default()
    };
    let problem = Problem::new(board.clone(), start, finish).map_err(|e| e.to_string())?;
    Finishable::build(&problem, &opts)
        .map(Arc::new)
        .map_err(|e| e.to_string())
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
    /// turn, stops at once (before, it ran its full course for a table nobody could find any more).
    #[test]
    fn a_table_left_out_of_the_list_is_not_built() {
        let runner = Arc::new(ByHand::default());
        let mut env = Env::new(Arc::clone(&runner) as Arc<dyn Runner>, Clock::system());
        env.peg_tables = PegTables::new(1);
        let first = triangle_from(&env, "1");
        let TableState::Building(first_build) = &first.table else {
            panic!("the first game's table is being built: {first:?}");
        };
        // A second game from another start takes the one place in the list.
        let second = triangle_from(&env, "4");
        assert!(matches!(second.table, TableState::Building(_)));
        let tasks: Vec<Task> = std::mem::take(&mut *runner.0.lock().unwrap());
        assert_eq!(tasks.len(), 2);
        let mut tasks = tasks.into_iter();
        let first_task = tasks.next().unwrap();
        first_task();
        match first_build.poll() {
            Some(Outcome::Done(Err(e))) => assert!(e.contains("cancel"), "{e}"),
            Some(Outcome::Done(Ok(_))) => {
                panic!("the first table was built although nobody can use it")
            }
            Some(Outcome::Failed(e)) => panic!("the build failed: {e}"),
            None => panic!("no outcome after the task ran"),
        }
        // The table still in the list is built, and a game from its start finds it ready.
        let second_task = tasks.next().unwrap();
        second_task();
        let again = triangle_from(&env, "4");
        assert!(matches!(again.table, TableState::Ready(_)), "{again:?}");
        // After `stop` a new table's build stops at once too.
        env.peg_tables.stop();
        let third = triangle_from(&env, "6");
        assert!(matches!(third.table, TableState::Building(_)));
        let task = runner.0.lock().unwrap().pop().unwrap();
        task();
        let TableState::Building(third_build) = &third.table else {
            unreachable!()
        };
        assert!(
            matches!(third_build.poll(), Some(Outcome::Done(Err(_)))),
            "built after the stop"
        );
    }
}
