//! A peg solitaire game in progress: jumps with undo, redo and restart, the live indicator that says whether
//! one peg can still be left (on the finish hole, if one was chosen), and a solution from the current position.
//!
//! The rules, the boards, the solver and the tables of finishable positions are the `peg` crate's. The
//! indicator is the [`Oracle`]: it answers at once from what it knows (the position class, answers already
//! found, a complete table once built) and otherwise asks the solver in short slices, each a task for the
//! [`Env`]'s runner, so a screen never waits. Complete tables are shared between games through the `Env`'s
//! [`PegTables`].
//!
//! ```
//! use play::Env;
//! use play::peg::{Answer, PegSession};
//! use peg::{Board, Problem};
//!
//! let env = Env::blocking();
//! let mut game = PegSession::new(Problem::standard(Board::builtin("triangle")?), &env)?;
//! game.play_text("4-1")?;
//! // Show me a solution from here, and play it to the end.
//! game.settle(None);
//! assert!(matches!(game.answer(), Answer::Known(play::peg::Verdict::Possible(_))));
//! while !game.is_over() {
//!     game.step()?;
//! }
//! assert!(game.view().solved);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use peg::enumerate::Options as CountOptions;
use peg::{
    Board, Finish, Finishable, Lattice, Move, NameError, Position, Problem, SolveError, Solver,
    SolverOptions,
};
use serde::Serialize;

use crate::history::History;
use crate::options::{Choice, value_of};
use crate::save::{SaveFile, field, history_steps};
use crate::text::{group_thousands, plural};
use crate::work::{Outcome, Pending, submit};
use crate::{Env, GameKind, Message, Tone};

/// The built-in boards, in the order of the options.
pub const BOARDS: [&str; 5] = ["english", "french", "triangle", "diamond", "wiegleb"];

/// Positions the solver examines in one background slice (a few tens of milliseconds): the longest a new
/// position waits behind a search of an old one.
const SLICE_NODES: u64 = 200_000;
/// Positions the solver may examine for one position before the indicator says "not known" (each
/// [`PegSession::show_solution`] on such a position allows as many again, four times over).
const SEARCH_CAP: u64 = 40_000_000;
/// While the complete table is being built, the search of one position stops after this many positions and the
/// indicator waits for the table instead: on two cores the two would only slow each other down.
const SEARCH_WHILE_BUILDING: u64 = 2_000_000;
/// The memory the solver's table of dead positions may use.
const SOLVER_MEMORY: u64 = 512 << 20;
/// Complete tables are built only for boards up to this many holes…
const TABLE_MAX_HOLES: usize = 36;
/// …and only while the enumeration's estimate stays under this much memory (the English standard game needs
/// about 50 MB once built).
const TABLE_MEMORY: u64 = 256 << 20;

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "The board is full of pegs but for one empty hole. A move is a jump: a peg jumps over a neighbouring peg, in \
     a straight line, into the empty hole just behind it, and the peg jumped over is taken off. On square boards \
     the jumps go along rows and columns (never diagonally); on the triangle along its three directions.",
    "Every jump takes one peg off. The aim is to leave a single peg, on the finish hole if one was chosen (the \
     classic English game starts and ends in the centre, d4). The game is over when no jump is left: with one \
     peg the puzzle is solved, with more you are stuck.",
    "Holes are named by column letter and row number (row 1 at the top; the English centre is d4), and numbered \
     1 to 15 row by row on the triangle.",
    "The indicator on the right says whether one peg can still be left from the position on the board. Some \
     starts can never end with one peg (the French board and the diamond from the centre): their position \
     class, an invariant of play found by de Bruijn and Conway, differs from that of every single peg. It \
     answers from the position class, from a complete table of finishable positions where one can be built \
     (the English board and the triangle), or from a search with a pagoda function and a table of dead \
     positions; h shows a solution from here.",
];

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

/// A complete table of finishable positions (the positions reachable from the start from which the finish can
/// still be reached: [`Finishable`]), shared between games (and threads) with the same board, start and finish: a
/// new game of the same kind finds it ready.
type TableCell = Arc<OnceLock<Result<Arc<Finishable>, String>>>;

/// (board, its jumps, the start's pegs, the finish hole or `None` for anywhere).
type TableKey = (String, usize, u64, Option<usize>);

/// The complete tables of finishable positions built (or being built) for peg games, newest last, shared by
/// every session of an [`Env`]. Only the last few are kept (games in progress keep theirs).
#[derive(Clone)]
pub struct PegTables {
    tables: Arc<Mutex<Vec<(TableKey, TableCell)>>>,
    kept: usize,
}

impl PegTables {
    /// A cache that keeps the last `kept` tables. With 0 no table is built at all: the solver answers every
    /// question (for a server that cannot afford a second of table building in a request).
    pub fn new(kept: usize) -> PegTables {
        PegTables {
            tables: Arc::new(Mutex::new(Vec::new())),
            kept,
        }
    }

    /// The cell of `key`, made if needed; `None` when no table is to be built.
    fn cell(&self, key: &TableKey) -> Option<TableCell> {
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

/// What a search slice hands back.
struct Searched {
    solver: Solver,
    pos: Position,
    result: Result<Option<Vec<Move>>, SolveError>,
}

/// Answers "can one peg still be left from here, and how" for one game, without ever making the caller wait.
pub struct Oracle {
    env: Env,
    board: Board,
    finish: Finish,
    finish_classes: Vec<u8>,
    known: HashMap<u64, Verdict>,
    table: TableState,
    solver: Option<Solver>,
    search: Option<Pending<Searched>>,
    /// Positions examined so far for a position without an answer, and the budget allowed for it.
    spent: HashMap<u64, (u64, u64)>,
    /// Positions whose search stopped at the memory limit.
    out_of_memory: Vec<u64>,
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
    /// from `env`'s [`PegTables`]) where that is cheap enough. The table holds the positions reachable from
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
                Some(cell) => match cell.get() {
                    Some(Ok(t)) => TableState::Ready(Arc::clone(t)),
                    Some(Err(_)) => TableState::Failed,
                    None => {
                        let board = board.clone();
                        TableState::Building(submit(&*env.runner, move || {
                            cell.get_or_init(|| build_table(&board, start, finish))
                                .clone()
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
            solver: None,
            search: None,
            spent: HashMap::new(),
            out_of_memory: Vec::new(),
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
        if line[..line.len() - 1]
            .iter()
            .any(|p| matches!(self.known.get(&p.bits()), Some(Verdict::Impossible(_))))
        {
            return Answer::Known(Verdict::Impossible(Why::Earlier));
        }
        let key = pos.bits();
        match self.spent.get(&key) {
            Some(&(nodes, cap)) if nodes >= cap => Answer::GaveUp {
                nodes,
                memory: self.out_of_memory.contains(&key),
            },
            _ => Answer::Checking,
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
            Answer::Known(v @ Verdict::Impossible(Why::Table | Why::Earlier)) => {
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
        if let Some(outcome) = self.search.as_ref().and_then(Pending::poll) {
            self.search = None;
            self.take_search(outcome);
        }
        self.remember(line);
        self.start_search(line);
        // A runner that works at once has answered already.
        if let Some(outcome) = self.search.as_ref().and_then(Pending::poll) {
            self.search = None;
            self.take_search(outcome);
            self.remember(line);
        }
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

    fn take_search(&mut self, outcome: Outcome<Searched>) {
        let Outcome::Done(s) = outcome else {
            // The solver died with its task: a fresh one next time.
            return;
        };
        let key = s.pos.bits();
        match s.result {
            Ok(found) => {
                self.solver = Some(s.solver);
                if matches!(&self.table, TableState::Ready(_)) {
                    return;
                }
                self.spent.remove(&key);
                match found {
                    Some(moves) => self.learn_path(s.pos, &moves),
                    None => {
                        self.known.insert(key, Verdict::Impossible(Why::Search));
                    }
                }
            }
            // The interface never raises the stop flag; were it raised, the solver would be kept as after a budget.
            Err(SolveError::NodeLimit { nodes } | SolveError::Stopped { nodes }) => {
                self.solver = Some(s.solver);
                let e = self.spent.entry(key).or_insert((0, SEARCH_CAP));
                e.0 += nodes;
            }
            Err(SolveError::MemoryLimit { .. }) => {
                // Its table of dead positions is full: start again with an empty one, and give this position up.
                let e = self.spent.entry(key).or_insert((0, SEARCH_CAP));
                e.0 = e.0.max(e.1);
                self.out_of_memory.push(key);
            }
        }
    }

    fn start_search(&mut self, line: &[Position]) {
        if self.search.is_some() {
            return;
        }
        let Some(&pos) = line.last() else {
            return;
        };
        if self.answer(line) != Answer::Checking {
            return;
        }
        if matches!(self.table, TableState::Building(_))
            && self
                .spent
                .get(&pos.bits())
                .is_some_and(|&(nodes, _)| nodes >= SEARCH_WHILE_BUILDING)
        {
            return;
        }
        let solver = self.solver.take();
        let (board, finish) = (self.board.clone(), self.finish);
        self.search = Some(submit(&*self.env.runner, move || {
            let mut solver = solver.unwrap_or_else(|| {
                Solver::with_options(
                    &board,
                    finish,
                    SolverOptions {
                        max_memory: SOLVER_MEMORY,
                        max_nodes: Some(SLICE_NODES),
                        ..SolverOptions::default()
                    },
                )
            });
            let result = solver.solve(pos);
            Searched {
                solver,
                pos,
                result,
            }
        }));
    }

    /// Allow the search of `pos` as much again (after it gave up).
    pub fn search_longer(&mut self, pos: Position) {
        let key = pos.bits();
        self.out_of_memory.retain(|&k| k != key);
        if let Some(e) = self.spent.get_mut(&key) {
            e.1 = e.0 + 4 * SEARCH_CAP;
        }
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        self.search.is_some() || matches!(self.table, TableState::Building(_))
    }

    /// Block until the table is built and the last position of `line` is answered, the search gave up, or
    /// (with a limit) the time is up; the search goes on in slices meanwhile.
    pub fn wait(&mut self, line: &[Position], limit: Option<Duration>) {
        let deadline = limit.map(|l| Instant::now() + l);
        if let TableState::Building(job) = &self.table {
            let outcome = job.wait();
            self.take_table(outcome);
        }
        loop {
            if let Some(job) = self.search.take() {
                let outcome = job.wait();
                self.take_search(outcome);
            }
            self.remember(line);
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            self.start_search(line);
            if self.search.is_none() {
                break;
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
fn build_table(board: &Board, start: Position, finish: Finish) -> Result<Arc<Finishable>, String> {
    let opts = CountOptions {
        max_memory: Some(TABLE_MEMORY),
        ..CountOptions::default()
    };
    let problem = Problem::new(board.clone(), start, finish).map_err(|e| e.to_string())?;
    Finishable::build(&problem, &opts)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// The options of a peg game, with their default values, for a menu. The start and finish values of a board's
/// holes are marked ✘ where the position class rules out a one-peg finish.
pub fn choices() -> Vec<Choice> {
    let mut c = vec![
        Choice::new(
            "Board",
            BOARDS.iter().map(ToString::to_string).collect(),
            0,
            "english: the 33-hole cross; french: the European 37-hole board; triangle: 15 holes, six jump \
             directions; diamond: 41 holes; wiegleb: Wiegleb's 45-hole board.",
        ),
        Choice::new(
            "Start",
            Vec::new(),
            0,
            "The hole left empty at the start; std is the board's standard vacancy (the centre, or the \
             triangle's top). ✘: no game from there can end with one peg (its position class), as on the \
             French board and the diamond from the centre.",
        ),
        Choice::new(
            "Finish",
            Vec::new(),
            0,
            "Where the last peg must stand: any hole, or one chosen hole. ✘: the chosen start can never end \
             with one peg on that hole (position class).",
        ),
    ];
    refresh(&mut c);
    c
}

/// The board named by the first word of an option's value.
fn board_of(value: &str) -> Board {
    value
        .split_whitespace()
        .next()
        .and_then(|n| Board::builtin(n).ok())
        .unwrap_or_else(Board::english)
}

/// Rebuild the start and finish values for the board chosen, keeping the holes chosen where the board has them.
pub fn refresh(choices: &mut [Choice]) {
    let [board_c, start_c, finish_c] = choices else {
        return;
    };
    let board = board_of(board_c.value());
    let first_word = |c: &Choice| c.value().split_whitespace().next().map(str::to_string);
    // A standard start stays the standard start of the new board; another hole is kept where the board has it.
    let old_start = first_word(start_c).filter(|_| !start_c.value().contains("(std)"));
    let old_finish = first_word(finish_c);
    let std = board.default_vacancy();
    let mut starts = Vec::new();
    for h in 0..board.holes() {
        let mut v = board.hole_name(h).to_string();
        if h == std {
            v.push_str(" (std)");
        }
        if !Finish::Anywhere.allows(&board, board.full().without_peg(h)) {
            v.push_str(" ✘");
        }
        starts.push(v);
    }
    let start_sel = old_start
        .and_then(|n| board.parse_hole(&n).ok())
        .unwrap_or(std);
    start_c.values = starts;
    start_c.selected = start_sel;
    let start = board.full().without_peg(start_sel);
    let mut finishes = vec!["any hole".to_string()];
    for h in 0..board.holes() {
        let mut v = board.hole_name(h).to_string();
        if !Finish::Hole(h).allows(&board, start) {
            v.push_str(" ✘");
        }
        finishes.push(v);
    }
    let finish_sel = old_finish
        .filter(|n| n != "any")
        .and_then(|n| board.parse_hole(&n).ok())
        .map_or(0, |h| h + 1);
    finish_c.values = finishes;
    finish_c.selected = finish_sel;
}

/// The problem the options `choices` describe (as returned by [`choices`], possibly changed).
///
/// # Errors
/// [`PegError::Setup`] naming an unknown board or hole.
pub fn problem_from_choices(choices: &[Choice]) -> Result<Problem, PegError> {
    let get = |label: &str| {
        value_of(choices, label).and_then(|v| v.split_whitespace().next().map(str::to_string))
    };
    let setup = |e: String| PegError::Setup(e);
    let board_name = get("Board").unwrap_or_else(|| "english".into());
    let board = Board::builtin(&board_name).map_err(|e| setup(e.to_string()))?;
    let start = match get("Start") {
        Some(h) => board
            .full()
            .without_peg(board.parse_hole(&h).map_err(|e| setup(e.to_string()))?),
        None => board.default_start(),
    };
    let finish = match get("Finish").filter(|f| f != "any") {
        Some(h) => Finish::Hole(board.parse_hole(&h).map_err(|e| setup(e.to_string()))?),
        None => Finish::Anywhere,
    };
    Problem::new(board, start, finish).map_err(|e| setup(e.to_string()))
}

/// Why an action was refused. Each message is one line and names the hole or the jump.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PegError {
    /// The options name something that is not there.
    #[error("{0}")]
    Setup(String),
    /// The game is over.
    #[error("The game is over: u takes jumps back, b restarts, n is a new game")]
    Over,
    /// Text that is not a jump (see [`parse_jump`]).
    #[error("{0}")]
    Typed(String),
    /// A jump that is not legal here.
    #[error("Not a legal jump: {0}")]
    Illegal(String),
    /// Two holes that no jump joins.
    #[error("{from} cannot jump to {to}: a jump goes over one neighbouring peg in a straight line")]
    NotAJump {
        /// The hole jumped from.
        from: String,
        /// The hole jumped to.
        to: String,
    },
    /// A hole number past the board.
    #[error("there is no hole {hole}: the {board} board has holes 0 to {last}")]
    NoHole {
        /// The number given.
        hole: usize,
        /// The board.
        board: String,
        /// Its last hole number.
        last: usize,
    },
    /// "Play the next jump of the solution" when there is no way to finish.
    #[error("{0}")]
    NoSolution(String),
}

impl PegError {
    /// How the message should be taken.
    pub fn tone(&self) -> Tone {
        match self {
            PegError::Over | PegError::NoSolution(_) => Tone::Warn,
            _ => Tone::Error,
        }
    }

    /// The error as a message to show.
    pub fn message(&self) -> Message {
        Message::new(self.to_string(), self.tone())
    }
}

/// A question waiting for the indicator's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// Show the solution from here.
    Show,
    /// Play its next jump.
    Step,
}

/// A jump, for drawing: holes by number, and as the board writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Jump {
    /// The hole jumped from.
    pub from: usize,
    /// The hole jumped over (its peg is taken off).
    pub over: usize,
    /// The hole jumped to.
    pub to: usize,
    /// `d2-d4`.
    pub text: String,
}

/// A hole of the board, for drawing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hole {
    /// Its name (`d4`, or `1` to `15` on the triangle).
    pub name: String,
    /// Its layout column.
    pub column: i32,
    /// Its layout line.
    pub line: i32,
    /// Whether a peg stands on it.
    pub peg: bool,
}

/// The indicator: can one peg still be left?
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Indicator {
    /// Yes (the way is [`PegView::solution`] when shown).
    Possible,
    /// No, and why.
    Impossible {
        /// Why.
        why: Why,
        /// The number of the first jump after which one peg could no longer be left (0: not from the start),
        /// when known.
        since: Option<usize>,
    },
    /// The solver is working on it.
    Checking,
    /// The solver gave up.
    Unknown {
        /// Positions examined.
        nodes: u64,
        /// True when it stopped at its memory limit.
        memory: bool,
    },
}

/// What a front end draws: the whole state of a peg game, read-only and serializable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PegView {
    /// The board's name.
    pub board: String,
    /// The board described, e.g. "the English 33-hole cross".
    pub description: String,
    /// `square` or `triangular`.
    pub lattice: Lattice,
    /// The board's size in layout columns and lines.
    pub size: (i32, i32),
    /// The holes, with the pegs on them now.
    pub holes: Vec<Hole>,
    /// The holes empty at the start.
    pub start: Vec<String>,
    /// "d4 empty", "5 holes empty".
    pub start_text: String,
    /// The finish hole, if one was chosen.
    pub finish: Option<String>,
    /// "one peg on d4", "one peg anywhere".
    pub finish_text: String,
    /// Whether the start's position class allows the finish at all.
    pub class_allows: bool,
    /// Pegs on the board.
    pub pegs: u32,
    /// The jumps played.
    pub moves: Vec<Jump>,
    /// The jumps that can be played now (what a front end shows when a peg is picked up).
    pub legal: Vec<Jump>,
    /// Whether no jump is left.
    pub over: bool,
    /// Whether the game is over with one peg on the finish (or anywhere when there is no finish hole).
    pub solved: bool,
    /// The indicator for the current position.
    pub indicator: Indicator,
    /// The way to finish from here, when it is shown and known.
    pub solution: Option<Vec<Jump>>,
    /// Whether the solution is to be shown.
    pub show_solution: bool,
    /// Whether a question (show the solution, play its next jump) waits for the indicator.
    pub waiting: bool,
    /// One line about the complete table of finishable positions.
    pub table_note: String,
    /// Whether undo would do something.
    pub can_undo: bool,
    /// Whether redo would do something.
    pub can_redo: bool,
}

/// A peg solitaire game in progress.
#[derive(Debug)]
pub struct PegSession {
    problem: Problem,
    /// The jumps played, at every step (undo goes back one jump; a restart is a step too).
    hist: History<Vec<Move>>,
    game: peg::Game,
    oracle: Oracle,
    /// Whether the solution from the current position is shown.
    show: bool,
    want: Option<Want>,
    dirty: bool,
}

impl PegSession {
    /// A new game of `problem`.
    ///
    /// # Errors
    /// [`PegError::Setup`] when the start has no peg.
    pub fn new(problem: Problem, env: &Env) -> Result<PegSession, PegError> {
        PegSession::with_moves(problem, Vec::new(), env)
    }

    fn with_moves(problem: Problem, moves: Vec<Move>, env: &Env) -> Result<PegSession, PegError> {
        if problem.start().pegs() == 0 {
            return Err(PegError::Setup("the start position has no peg".into()));
        }
        let game = replay(&problem, &moves).map_err(PegError::Illegal)?;
        let oracle = Oracle::new(problem.board(), problem.start(), problem.finish(), env);
        let mut s = PegSession {
            problem,
            hist: History::new(moves),
            game,
            oracle,
            show: false,
            want: None,
            dirty: false,
        };
        s.after_change();
        Ok(s)
    }

    /// The first message of a game: the aim, or that the start can never finish.
    pub fn opening(&self) -> Message {
        if !self.problem.class_allows_finish() {
            return Message::warn(format!(
                "This start can never end with {} (position class): try another.",
                self.finish_text()
            ));
        }
        Message::info(format!(
            "Jump a peg over a neighbour into an empty hole. Leave {}.",
            self.finish_text()
        ))
    }

    fn board(&self) -> &Board {
        self.problem.board()
    }

    /// The problem: board, start, finish.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// The jumps played.
    pub fn played(&self) -> &[Move] {
        self.game.played()
    }

    /// Whether no jump is left.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The positions of the game from the start to now.
    fn line(&self) -> Vec<Position> {
        let mut p = self.problem.start();
        let mut line = vec![p];
        for &m in self.game.played() {
            p = p.apply(m);
            line.push(p);
        }
        line
    }

    /// The indicator's answer for the current position.
    pub fn answer(&self) -> Answer {
        self.oracle.answer(&self.line())
    }

    /// The holes the peg on `from` can jump to.
    pub fn targets(&self, from: usize) -> Vec<usize> {
        let mut t: Vec<usize> = self
            .game
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// The first peg that can jump, else the first hole (where a cursor starts).
    pub fn first_movable(&self) -> usize {
        self.game.legal_moves().first().map_or(0, |m| m.from())
    }

    /// After every change of the position: ask the indicator, answer waiting questions, announce the end. The
    /// message to show instead of the action's, if any.
    fn after_change(&mut self) -> Option<Message> {
        let line = self.line();
        self.oracle.pump(&line);
        let mut msg = self.answer_wanted();
        if self.game.is_over() {
            msg = Some(self.game_over_message());
        }
        msg
    }

    /// The message of a finished game: solved, on the wrong hole, or stuck.
    pub fn game_over_message(&self) -> Message {
        let pos = self.position();
        let b = self.board();
        if pos.pegs() == 1 {
            let at = pos.holes().next().map(|h| b.hole_name(h)).unwrap_or("?");
            return match self.problem.finish() {
                Finish::Anywhere => Message::good(format!(
                    "Solved! One peg left, on {at}. n: new game, b: play again."
                )),
                Finish::Hole(h) if pos.has_peg(h) => Message::good(format!(
                    "Solved! One peg left, on the finish hole {at}. n: new game."
                )),
                Finish::Hole(h) => Message::warn(format!(
                    "One peg left, on {at}, but not on the finish hole {}. u: undo, b: restart.",
                    b.hole_name(h)
                )),
            };
        }
        Message::warn(format!(
            "Stuck: no jump left, {} pegs remain. u: undo, b: restart, n: new game.",
            pos.pegs()
        ))
    }

    /// A question asked while the answer was not known: answer it now if it is.
    fn answer_wanted(&mut self) -> Option<Message> {
        let want = self.want?;
        match self.answer() {
            Answer::Checking => None,
            answer => {
                self.want = None;
                Some(match want {
                    Want::Show => self.show_answer(answer),
                    Want::Step => self.step_with(answer).unwrap_or_else(|e| e.message()),
                })
            }
        }
    }

    /// Show a solution from here (or say there is none). When the indicator does not know yet, the answer
    /// comes with a later [`PegSession::poll`].
    pub fn show_solution(&mut self) -> Message {
        let a = self.answer();
        self.show_answer(a)
    }

    fn show_answer(&mut self, answer: Answer) -> Message {
        match answer {
            Answer::Known(Verdict::Possible(path)) => {
                self.show = true;
                match path.first() {
                    Some(&m) => Message::info(format!(
                        "A solution from here in {}: next {}. . plays it, a plays them all.",
                        plural(path.len() as u64, "jump"),
                        self.board().format_move(m)
                    )),
                    None => Message::good("Solved: one peg left."),
                }
            }
            Answer::Known(Verdict::Impossible(why)) => {
                self.show = false;
                Message::warn(format!("No solution from here: {}.", self.why_text(why)))
            }
            Answer::Checking => {
                self.want = Some(Want::Show);
                Message::info("Looking for a solution…")
            }
            Answer::GaveUp { nodes, .. } => {
                self.oracle.search_longer(self.position());
                self.want = Some(Want::Show);
                let line = self.line();
                self.oracle.pump(&line);
                Message::info(format!(
                    "No answer after {} positions; searching longer…",
                    group_thousands(nodes)
                ))
            }
        }
    }

    /// Hide the solution, or show it again.
    pub fn set_solution_shown(&mut self, shown: bool) {
        self.show = shown;
    }

    /// Whether the solution is shown.
    pub fn solution_shown(&self) -> bool {
        self.show
    }

    /// Whether a question waits for the indicator's answer.
    pub fn waiting(&self) -> bool {
        self.want.is_some()
    }

    /// Play the next jump of the solution from here. When the indicator does not know yet, the jump is
    /// played with a later [`PegSession::poll`].
    ///
    /// # Errors
    /// [`PegError::Over`] when no jump is left.
    pub fn step(&mut self) -> Result<Message, PegError> {
        let a = self.answer();
        self.step_with(a)
    }

    fn step_with(&mut self, answer: Answer) -> Result<Message, PegError> {
        if self.game.is_over() {
            return Ok(self.game_over_message());
        }
        match answer {
            Answer::Known(Verdict::Possible(path)) => match path.first() {
                Some(&m) => {
                    self.show = true;
                    let left = path.len() - 1;
                    let msg = self.play(m)?;
                    if self.game.is_over() {
                        return Ok(msg);
                    }
                    Ok(Message::info(format!(
                        "Solution: {}; {} to go.",
                        self.board().format_move(m),
                        plural(left as u64, "jump")
                    )))
                }
                None => Ok(Message::good("Solved: one peg left.")),
            },
            other => {
                let msg = self.show_answer(other);
                if self.want == Some(Want::Show) {
                    self.want = Some(Want::Step);
                }
                Ok(msg)
            }
        }
    }

    fn why_text(&self, why: Why) -> String {
        match why {
            Why::Class => format!(
                "the position class does not allow {} from here",
                self.finish_text()
            ),
            Why::WrongHole => "the last peg is not on the finish hole".into(),
            Why::Stuck => "no jump is left".into(),
            Why::Earlier => "an earlier position of this game was already lost".into(),
            Why::Table => "the complete table of finishable positions says so".into(),
            Why::Search => "the solver tried every way on".into(),
        }
    }

    /// Play a jump.
    ///
    /// # Errors
    /// [`PegError::Illegal`] with the reason; [`PegError::Over`] when no jump is left.
    pub fn play(&mut self, mv: Move) -> Result<Message, PegError> {
        if mv.from() >= self.board().holes()
            || mv.over() >= self.board().holes()
            || mv.to() >= self.board().holes()
            || !self.board().moves().contains(&mv)
        {
            return Err(PegError::Illegal("no such jump on this board".into()));
        }
        self.game
            .check(mv)
            .map_err(|e| PegError::Illegal(e.to_string()))?;
        if self.game.is_over() {
            return Err(PegError::Over);
        }
        self.game
            .play(mv)
            .map_err(|e| PegError::Illegal(e.to_string()))?;
        self.hist.push(self.game.played().to_vec());
        self.dirty = true;
        let msg = Message::info(format!(
            "{}: the peg on {} is taken off.",
            self.board().format_move(mv),
            self.board().hole_name(mv.over())
        ));
        Ok(self.after_change().unwrap_or(msg))
    }

    /// Play a jump typed as text: `d2-d4`, `d2d4`, `d2 d4` (on the triangle `4-1` or `4 1`).
    ///
    /// # Errors
    /// [`PegError::Typed`] for text that is not a jump; then as [`PegSession::play`].
    pub fn play_text(&mut self, text: &str) -> Result<Message, PegError> {
        let mv = parse_jump(self.board(), text).map_err(PegError::Typed)?;
        self.play(mv)
    }

    /// Jump from hole `from` to hole `to` (by number, as [`PegView::holes`] lists them).
    ///
    /// # Errors
    /// [`PegError::NoHole`] for a number past the board, [`PegError::NotAJump`] for two holes no jump joins;
    /// then as [`PegSession::play`].
    pub fn jump(&mut self, from: usize, to: usize) -> Result<Message, PegError> {
        let b = self.board();
        if let Some(&hole) = [from, to].iter().find(|&&h| h >= b.holes()) {
            return Err(PegError::NoHole {
                hole,
                board: b.name().to_string(),
                last: b.holes() - 1,
            });
        }
        match b
            .moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to)
        {
            Some(mv) => self.play(mv),
            None => Err(PegError::NotAJump {
                from: b.hole_name(from).to_string(),
                to: b.hole_name(to).to_string(),
            }),
        }
    }

    /// Rebuild the game from the jump list the history now shows.
    fn sync_from_history(&mut self) {
        // Every list in the history was checked when it was played or loaded.
        if let Ok(g) = replay(&self.problem, self.hist.present()) {
            self.game = g;
        }
        self.dirty = true;
        self.after_change();
    }

    /// Take back the last jump.
    pub fn undo(&mut self) -> Message {
        let before = self.hist.present().len();
        if self.hist.undo() {
            self.sync_from_history();
            Message::info(step_message(before, self.hist.present().len()))
        } else {
            Message::info("Nothing to undo")
        }
    }

    /// Play the last jump taken back again.
    pub fn redo(&mut self) -> Message {
        let before = self.hist.present().len();
        if self.hist.redo() {
            self.sync_from_history();
            Message::info(step_message(before, self.hist.present().len()))
        } else {
            Message::info("Nothing to redo")
        }
    }

    /// Back to the start (one step: undo brings the jumps back).
    pub fn restart(&mut self) -> Message {
        if self.game.played().is_empty() {
            Message::info("Already at the start")
        } else {
            self.hist.push(Vec::new());
            self.sync_from_history();
            Message::info("Back at the start (u brings the jumps back)")
        }
    }

    /// A new game of the same problem (the history is forgotten).
    pub fn new_game(&mut self) -> Message {
        self.hist.reset(Vec::new());
        self.game = peg::Game::new(self.board().clone(), self.problem.start());
        self.dirty = false;
        self.show = false;
        self.want = None;
        let msg = self.after_change();
        if self.game.is_over() {
            msg.unwrap_or_else(|| Message::info("A new game."))
        } else {
            self.opening()
        }
    }

    /// Collect finished background work, start the next search slice, and answer a waiting question: the
    /// message to show, if one came. Call it regularly while [`PegSession::busy`].
    pub fn poll(&mut self) -> Option<Message> {
        let line = self.line();
        self.oracle.pump(&line);
        self.answer_wanted()
    }

    /// Block until the indicator has answered for the current position (or its search gave up, or `limit` is
    /// up), then answer a waiting question: the message, if any. This is the call for a server's blocking pool.
    pub fn settle(&mut self, limit: Option<Duration>) -> Option<Message> {
        let line = self.line();
        self.oracle.wait(&line, limit);
        self.poll()
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        self.oracle.busy()
    }

    /// "d4 empty", "d4 e5 empty", "5 holes empty".
    pub fn start_text(&self) -> String {
        let v = self.vacancies();
        match v.len() {
            1 => format!("{} empty", v[0]),
            n if n <= 4 => format!("{} empty", v.join(" ")),
            n => format!("{n} holes empty"),
        }
    }

    /// "one peg on d4", "one peg anywhere".
    pub fn finish_text(&self) -> String {
        match self.finish_name() {
            Some(h) => format!("one peg on {h}"),
            None => "one peg anywhere".into(),
        }
    }

    /// The holes empty at the start.
    pub fn vacancies(&self) -> Vec<String> {
        let b = self.board();
        (0..b.holes())
            .filter(|&h| !self.problem.start().has_peg(h))
            .map(|h| b.hole_name(h).to_string())
            .collect()
    }

    fn finish_name(&self) -> Option<&str> {
        match self.problem.finish() {
            Finish::Anywhere => None,
            Finish::Hole(h) => Some(self.board().hole_name(h)),
        }
    }

    /// Whether something changed since the start or the last [`PegSession::mark_saved`] (and the game is on).
    pub fn unsaved(&self) -> bool {
        self.dirty && !self.game.is_over()
    }

    /// Note that the game was just saved.
    pub fn mark_saved(&mut self) {
        self.dirty = false;
    }

    /// A jump for drawing.
    fn jump_view(&self, m: Move) -> Jump {
        Jump {
            from: m.from(),
            over: m.over(),
            to: m.to(),
            text: self.board().format_move(m),
        }
    }

    /// The whole state, for drawing.
    pub fn view(&self) -> PegView {
        let b = self.board();
        let pos = self.position();
        let line = self.line();
        let answer = self.oracle.answer(&line);
        let indicator = match &answer {
            Answer::Known(Verdict::Possible(_)) => Indicator::Possible,
            Answer::Known(Verdict::Impossible(why)) => Indicator::Impossible {
                why: *why,
                since: self.oracle.first_lost(&line),
            },
            Answer::Checking => Indicator::Checking,
            Answer::GaveUp { nodes, memory } => Indicator::Unknown {
                nodes: *nodes,
                memory: *memory,
            },
        };
        let solution = match &answer {
            Answer::Known(Verdict::Possible(path)) if self.show => {
                Some(path.iter().map(|&m| self.jump_view(m)).collect())
            }
            _ => None,
        };
        let over = self.game.is_over();
        let solved = over
            && pos.pegs() == 1
            && match self.problem.finish() {
                Finish::Hole(h) => pos.has_peg(h),
                Finish::Anywhere => true,
            };
        PegView {
            board: b.name().to_string(),
            description: Board::builtin_description(b.name())
                .unwrap_or(b.name())
                .to_string(),
            lattice: b.lattice(),
            size: b.size(),
            holes: (0..b.holes())
                .map(|h| Hole {
                    name: b.hole_name(h).to_string(),
                    column: b.cell(h).0,
                    line: b.cell(h).1,
                    peg: pos.has_peg(h),
                })
                .collect(),
            start: self.vacancies(),
            start_text: self.start_text(),
            finish: self.finish_name().map(str::to_string),
            finish_text: self.finish_text(),
            class_allows: self.problem.class_allows_finish(),
            pegs: pos.pegs(),
            moves: self
                .game
                .played()
                .iter()
                .map(|&m| self.jump_view(m))
                .collect(),
            legal: self
                .game
                .legal_moves()
                .iter()
                .map(|&m| self.jump_view(m))
                .collect(),
            over,
            solved,
            indicator,
            solution,
            show_solution: self.show,
            waiting: self.want.is_some(),
            table_note: self.oracle.table_note(),
            can_undo: self.hist.can_undo(),
            can_redo: self.hist.can_redo(),
        }
    }

    /// The game's state for a save file (the `state` of a [`SaveFile`]). A board that is not built in is saved
    /// with its layout.
    pub fn to_state(&self) -> serde_json::Value {
        let b = self.board();
        let list = |moves: &[Move]| moves.iter().map(|&m| b.format_move(m)).collect::<Vec<_>>();
        let mut state = serde_json::json!({
            "board": b.name(),
            "start": self.vacancies(),
            "finish": self.finish_name(),
            "moves": list(self.hist.present()),
            "undo": self.hist.past().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "redo": self.hist.future().iter().map(|m| list(m)).collect::<Vec<_>>(),
        });
        let builtin = Board::builtin(b.name()).is_ok_and(|bb| {
            bb.lattice() == b.lattice() && bb.layout_string(bb.full()) == b.layout_string(b.full())
        });
        if !builtin && let Some(obj) = state.as_object_mut() {
            obj.insert("layout".into(), b.layout_string(b.full()).into());
            obj.insert(
                "lattice".into(),
                serde_json::to_value(b.lattice()).unwrap_or_default(),
            );
        }
        state
    }

    /// The game as a save file.
    pub fn save(&self) -> SaveFile {
        SaveFile::new(GameKind::Peg, self.to_state())
    }

    /// Rebuild a saved game from its state, replaying every jump list of the game and its history.
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the jump.
    pub fn from_state(state: &serde_json::Value, env: &Env) -> Result<PegSession, String> {
        let name: String = field(state, "board")?;
        let board = match state.get("layout") {
            None | Some(serde_json::Value::Null) => {
                Board::builtin(&name).map_err(|e| format!("the board: {e}"))?
            }
            Some(_) => {
                let layout: String = field(state, "layout")?;
                let lattice: String = field(state, "lattice")?;
                let lattice = match lattice.as_str() {
                    "square" => Lattice::Square,
                    "triangular" => Lattice::Triangular,
                    other => {
                        return Err(format!(
                            "the lattice \"{other}\" is neither \"square\" nor \"triangular\""
                        ));
                    }
                };
                Board::from_layout(&layout, lattice, &name)
                    .map_err(|e| format!("the layout: {e}"))?
                    .0
            }
        };
        let vacancies: Vec<String> = field(state, "start")?;
        if vacancies.is_empty() {
            return Err("the start: no hole is empty, so no jump can be made".into());
        }
        let start = Problem::start_with_vacancies(&board, &vacancies)
            .map_err(|e| format!("the start: {e}"))?;
        if start.pegs() == 0 {
            return Err("the start: every hole is empty".into());
        }
        let finish: Option<String> = field(state, "finish")?;
        let finish = match finish {
            Some(f) => Finish::Hole(
                board
                    .parse_hole(&f)
                    .map_err(|e| format!("the finish: {e}"))?,
            ),
            None => Finish::Anywhere,
        };
        let problem = Problem::new(board, start, finish).map_err(|e| e.to_string())?;
        let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<Move>, String> {
            let moves = list
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    problem
                        .board()
                        .parse_move(m)
                        .map_err(|e| format!("{what}: jump {}: {e}", i + 1))
                })
                .collect::<Result<Vec<Move>, String>>()?;
            replay(&problem, &moves).map_err(|e| format!("{what}: {e}"))?;
            Ok(moves)
        };
        let moves = parse_list("the moves", field(state, "moves")?)?;
        let (past, future) = history_steps(state, parse_list)?;
        let mut s =
            PegSession::with_moves(problem, moves.clone(), env).map_err(|e| e.to_string())?;
        s.hist = History::from_parts(past, moves, future);
        Ok(s)
    }
}

/// What an undo or redo step did to the jumps played: one taken back or played again, or (across a restart)
/// many at once.
fn step_message(before: usize, after: usize) -> String {
    match after.cmp(&before) {
        std::cmp::Ordering::Less if before - after == 1 => "Took back the last jump".into(),
        std::cmp::Ordering::Less => format!("Took back {} jumps", before - after),
        std::cmp::Ordering::Greater if after - before == 1 => "Played the jump again".into(),
        std::cmp::Ordering::Greater => format!("Brought back {} jumps", after - before),
        std::cmp::Ordering::Equal => "No jump changed".into(),
    }
}

/// Play `moves` from the problem's start, checking each.
fn replay(problem: &Problem, moves: &[Move]) -> Result<peg::Game, String> {
    let mut g = peg::Game::new(problem.board().clone(), problem.start());
    for (i, &m) in moves.iter().enumerate() {
        g.play(m).map_err(|e| format!("jump {}: {e}", i + 1))?;
    }
    Ok(g)
}

/// Parse a typed jump: `d2-d4`, `d2d4`, `d2 d4` (on the triangle `4-1` or `4 1`). Errors are short enough for
/// a prompt line.
///
/// # Errors
/// A one-line reason: not two holes, a hole not on the board, two holes that are not a jump apart.
pub fn parse_jump(board: &Board, text: &str) -> Result<Move, String> {
    let t = text.trim();
    let not_a_jump = || {
        format!(
            "\"{t}\" is not a jump: type two holes, e.g. {}",
            example(board)
        )
    };
    let joined = if t.contains('-') {
        t.to_string()
    } else {
        let words: Vec<&str> = t.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        match words.as_slice() {
            [a, b] => format!("{a}-{b}"),
            [one] if board.lattice() == Lattice::Square => {
                // d2d4: the second hole starts at the first letter after a digit.
                let chars: Vec<char> = one.chars().collect();
                let split = (1..chars.len())
                    .find(|&i| chars[i].is_ascii_alphabetic() && chars[i - 1].is_ascii_digit());
                match split {
                    Some(i) => format!(
                        "{}-{}",
                        chars[..i].iter().collect::<String>(),
                        chars[i..].iter().collect::<String>()
                    ),
                    None => return Err(not_a_jump()),
                }
            }
            _ => return Err(not_a_jump()),
        }
    };
    board.parse_move(&joined).map_err(|e| match e {
        NameError::UnknownHole { name, board, .. } => {
            format!("there is no hole \"{}\" on the {board} board", name.trim())
        }
        NameError::MalformedMove { .. } => not_a_jump(),
        NameError::NotAJump { from, to, .. } => {
            format!("{from}-{to} is not a jump: {from} and {to} are not two holes apart in a line")
        }
    })
}

/// An example of a typed jump on `board`.
fn example(board: &Board) -> String {
    match board.lattice() {
        Lattice::Square => {
            let m = board
                .legal_moves(board.default_start())
                .first()
                .copied()
                .or_else(|| board.moves().first().copied());
            match m {
                Some(m) => {
                    let (a, b) = (board.hole_name(m.from()), board.hole_name(m.to()));
                    format!("{a}-{b} or {a}{b}")
                }
                None => "d2-d4".into(),
            }
        }
        Lattice::Triangular => "4-1 or 4 1".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_jumps_in_every_form() {
        let b = Board::english();
        let want = b.parse_move("d2-d4").unwrap();
        for t in ["d2-d4", "d2d4", "D2D4", " d2 d4 ", "d2,d4", "d2 - d4"] {
            assert_eq!(parse_jump(&b, t), Ok(want), "{t}");
        }
        let e = parse_jump(&b, "d2").unwrap_err();
        assert!(e.contains("\"d2\" is not a jump"), "{e}");
        let e = parse_jump(&b, "d2-d5").unwrap_err();
        assert!(e.contains("not two holes apart"), "{e}");
        let e = parse_jump(&b, "a1-a3").unwrap_err();
        assert!(e.contains("there is no hole \"a1\""), "{e}");
        let t = Board::builtin("triangle").unwrap();
        assert_eq!(parse_jump(&t, "4 1"), Ok(t.parse_move("4-1").unwrap()));
        assert!(parse_jump(&t, "41").is_err());
    }

    #[test]
    fn options_follow_the_board() {
        let mut c = choices();
        assert_eq!(c[1].value(), "d4 (std)");
        assert_eq!(c[2].value(), "any hole");
        // French: the centre start is marked impossible, and so are finishes of another class.
        c[0].selected = 1;
        refresh(&mut c);
        assert_eq!(c[1].value(), "d4 (std) ✘");
        // Wiegleb: the standard start is its own centre, e5.
        c[0].selected = 4;
        refresh(&mut c);
        assert_eq!(c[1].value(), "e5 (std)");
        // Another start is kept where the new board has that hole.
        c[1].selected = Board::builtin("wiegleb").unwrap().parse_hole("d4").unwrap();
        c[0].selected = 0;
        refresh(&mut c);
        assert_eq!(c[1].value(), "d4 (std)");
        c[1].selected = Board::english().parse_hole("c1").unwrap();
        c[0].selected = 1;
        refresh(&mut c);
        assert_eq!(c[1].value(), "c1");
        // Triangle: holes 1..15, the top by default.
        c[0].selected = 2;
        refresh(&mut c);
        assert_eq!(c[1].value(), "1 (std)");
        assert_eq!(c[1].values.len(), 15);
        assert_eq!(c[2].values.len(), 16);
        // A finish of another class than the start's is marked.
        let b = Board::builtin("triangle").unwrap();
        for h in 0..15 {
            let ok = Finish::Hole(h).allows(&b, b.default_start());
            assert_eq!(!ok, c[2].values[h + 1].ends_with('✘'));
        }
        assert_eq!(problem_from_choices(&c).unwrap().start(), b.default_start());
    }
}
