//! The peg solitaire screen: every built-in board drawn with its hole names, jumps by cursor or typed, a live
//! indicator that says whether one peg can still be left (on the finish hole, if one was chosen), a solution
//! from the current position played step by step or automatically, undo, redo, restart, save and resume.
//!
//! The rules, the boards, the solver and the tables of finishable positions are the `peg` crate's; this module
//! keeps the jump list, the cursor and what is shown. The indicator is the [`Oracle`]: it answers at once from
//! what it knows (the position class, answers already found, a complete table once built) and otherwise asks
//! the solver in short slices on a background thread, so the screen never waits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use peg::enumerate::Options as CountOptions;
use peg::{
    Board, Finish, FinishTable, Lattice, Move, NameError, Position, SolveError, Solver,
    SolverOptions,
};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::job::{Job, Outcome};
use super::screen::{Choice, Config, GameScreen, Handled};
use super::theme::Theme;
use super::ui::{KeyHelp, Prompt, PromptEvent, Status, Tone, key_lines};
use play::GameKind;
use play::History;
use play::save::field;
use play::text::group_thousands as group;

/// The built-in boards, in the order of the title screen's option.
const BOARDS: [&str; 5] = ["english", "french", "triangle", "diamond", "wiegleb"];

/// Positions the solver examines in one background slice (a few tens of milliseconds): the longest a new
/// position waits behind a search of an old one.
const SLICE_NODES: u64 = 200_000;
/// Positions the solver may examine for one position before the indicator says "not known" (each `h` on such
/// a position allows as many again, four times over).
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
/// Time between two jumps when the solution plays itself.
const AUTO_STEP: Duration = Duration::from_millis(500);

/// Why one peg can no longer be left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// A complete table of finishable positions, shared between games (and threads) with the same board, finish
/// and position class: a new game of the same kind finds it ready.
type TableCell = Arc<OnceLock<Result<Arc<FinishTable>, String>>>;

/// (board, finish hole, position class for a one-peg-anywhere table).
type TableKey = (String, Option<usize>, Option<u8>);

/// The tables built or being built, newest last; only the last few are kept (games on screen keep theirs).
static TABLES: Mutex<Vec<(TableKey, TableCell)>> = Mutex::new(Vec::new());
const TABLES_KEPT: usize = 2;

fn table_cell(key: &TableKey) -> TableCell {
    let Ok(mut tables) = TABLES.lock() else {
        // A poisoned lock only means another thread panicked while holding it: build a private table.
        return Arc::new(OnceLock::new());
    };
    if let Some(i) = tables.iter().position(|(k, _)| k == key) {
        let entry = tables.remove(i);
        let cell = Arc::clone(&entry.1);
        tables.push(entry);
        return cell;
    }
    let cell: TableCell = Arc::new(OnceLock::new());
    tables.push((key.clone(), Arc::clone(&cell)));
    while tables.len() > TABLES_KEPT {
        tables.remove(0);
    }
    cell
}

/// The state of the complete table.
#[derive(Debug)]
enum TableState {
    /// Not built for this game, and why.
    Skipped(String),
    /// Being built on a background thread.
    Building(Job<Result<Arc<FinishTable>, String>>),
    /// Built.
    Ready(Arc<FinishTable>),
    /// The build stopped (at its memory limit).
    Failed,
}

/// What a search slice hands back.
struct Searched {
    solver: Solver,
    pos: Position,
    result: Result<Option<Vec<Move>>, SolveError>,
}

/// Answers "can one peg still be left from here, and how" for one game, without ever making the screen wait.
pub struct Oracle {
    board: Board,
    finish: Finish,
    finish_classes: Vec<u8>,
    known: HashMap<u64, Verdict>,
    table: TableState,
    solver: Option<Solver>,
    search: Option<Job<Searched>>,
    /// Positions examined so far for a position without an answer, and the budget allowed for it.
    spent: HashMap<u64, (u64, u64)>,
    /// Positions whose search stopped at the memory limit.
    out_of_memory: Vec<u64>,
}

impl Oracle {
    /// An oracle for games on `board` from `start` to `finish`; starts building the complete table in the
    /// background where that is cheap enough.
    pub fn new(board: &Board, start: Position, finish: Finish) -> Oracle {
        let holes: Vec<usize> = match finish {
            Finish::Anywhere => (0..board.holes()).collect(),
            Finish::Hole(h) => vec![h],
        };
        let mut finish_classes: Vec<u8> = holes
            .iter()
            .map(|&h| board.position_class(Position::EMPTY.with_peg(h)))
            .collect();
        finish_classes.sort_unstable();
        finish_classes.dedup();
        let class_ok = finish_classes.contains(&board.position_class(start));
        let table = if !class_ok {
            TableState::Skipped(String::new())
        } else if board.holes() > TABLE_MAX_HOLES {
            TableState::Skipped(format!(
                "no complete table for {} holes: the search answers",
                board.holes()
            ))
        } else {
            let key: TableKey = match finish {
                Finish::Hole(h) => (board.name().to_string(), Some(h), None),
                Finish::Anywhere => (
                    board.name().to_string(),
                    None,
                    Some(board.position_class(start)),
                ),
            };
            let cell = table_cell(&key);
            match cell.get() {
                Some(Ok(t)) => TableState::Ready(Arc::clone(t)),
                Some(Err(_)) => TableState::Failed,
                None => {
                    let board = board.clone();
                    TableState::Building(Job::spawn(move || {
                        cell.get_or_init(|| build_table(&board, start, finish))
                            .clone()
                    }))
                }
            }
        };
        Oracle {
            board: board.clone(),
            finish,
            finish_classes,
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
    pub fn answer(&mut self, line: &[Position]) -> Answer {
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
            let v = Verdict::Impossible(Why::Earlier);
            self.known.insert(pos.bits(), v.clone());
            return Answer::Known(v);
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
    fn quick(&mut self, pos: Position) -> Option<Verdict> {
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
        if let TableState::Ready(t) = &self.table
            && t.covers(pos)
        {
            let v = match t.solve(pos) {
                Some(moves) => {
                    self.learn_path(pos, &moves);
                    Verdict::Possible(Arc::from(moves))
                }
                None => Verdict::Impossible(Why::Table),
            };
            self.known.insert(pos.bits(), v.clone());
            return Some(v);
        }
        if !self.board.has_move(pos) {
            return Some(Verdict::Impossible(Why::Stuck));
        }
        None
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

    /// Collect finished background work and start the next search slice for the last position of `line` if
    /// it is still open. Call it after every change and regularly.
    pub fn pump(&mut self, line: &[Position]) {
        if let TableState::Building(job) = &self.table
            && let Some(outcome) = job.poll()
        {
            self.take_table(outcome);
        }
        if let Some(outcome) = self.search.as_ref().and_then(Job::poll) {
            self.search = None;
            self.take_search(outcome);
        }
        self.start_search(line);
    }

    fn take_table(&mut self, outcome: Outcome<Result<Arc<FinishTable>, String>>) {
        self.table = match outcome {
            Outcome::Done(Ok(t)) => {
                // From now on the table answers: forget the search's answers, so that the ways shown come
                // from one source.
                self.known.clear();
                TableState::Ready(t)
            }
            Outcome::Done(Err(_)) => TableState::Failed,
            Outcome::Failed => {
                // The build panicked; its message is not needed, the search answers instead.
                let _ = super::job::take_panic_message();
                TableState::Failed
            }
        };
    }

    fn take_search(&mut self, outcome: Outcome<Searched>) {
        let Outcome::Done(s) = outcome else {
            // The solver died with its thread: a fresh one next time.
            return;
        };
        let key = s.pos.bits();
        match s.result {
            Ok(found) => {
                self.solver = Some(s.solver);
                if matches!(&self.table, TableState::Ready(t) if t.covers(s.pos)) {
                    return;
                }
                self.spent.remove(&key);
                match found {
                    Some(moves) => {
                        self.learn_path(s.pos, &moves);
                    }
                    None => {
                        self.known.insert(key, Verdict::Impossible(Why::Search));
                    }
                }
            }
            Err(SolveError::NodeLimit { nodes }) => {
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
        self.search = Some(Job::spawn(move || {
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

    /// Block until the table is built and the last position of `line` is answered (or the search gave up).
    pub fn wait(&mut self, line: &[Position]) {
        if let TableState::Building(job) = &self.table {
            let outcome = job.wait();
            self.take_table(outcome);
        }
        loop {
            if let Some(job) = self.search.take() {
                let outcome = job.wait();
                self.take_search(outcome);
            }
            self.start_search(line);
            if self.search.is_none() {
                break;
            }
        }
    }

    /// One line about the complete table, for the panel.
    pub fn table_note(&self) -> String {
        match &self.table {
            TableState::Skipped(why) => why.clone(),
            TableState::Building(_) => "building the complete table…".into(),
            TableState::Ready(t) => format!("complete table: {} classes", group(t.classes())),
            TableState::Failed => "no complete table (too big here): the search answers".into(),
        }
    }
}

/// Build the complete table for a game from `start` to `finish` (on a background thread).
fn build_table(board: &Board, start: Position, finish: Finish) -> Result<Arc<FinishTable>, String> {
    let opts = CountOptions {
        max_memory: Some(TABLE_MEMORY),
        ..CountOptions::default()
    };
    let table = match finish {
        Finish::Hole(h) => FinishTable::build(board, Finish::Hole(h), &opts),
        Finish::Anywhere => FinishTable::build_for_class(board, start, &opts),
    };
    table.map(Arc::new).map_err(|e| e.to_string())
}

/// A game's board, start and finish.
#[derive(Debug, Clone)]
struct Setup {
    board: Board,
    start: Position,
    finish: Finish,
}

impl Setup {
    fn vacancies(&self) -> Vec<String> {
        (0..self.board.holes())
            .filter(|&h| !self.start.has_peg(h))
            .map(|h| self.board.hole_name(h).to_string())
            .collect()
    }

    fn finish_name(&self) -> Option<&str> {
        match self.finish {
            Finish::Anywhere => None,
            Finish::Hole(h) => Some(self.board.hole_name(h)),
        }
    }

    fn start_text(&self) -> String {
        let v = self.vacancies();
        match v.len() {
            1 => format!("{} empty", v[0]),
            n if n <= 4 => format!("{} empty", v.join(" ")),
            n => format!("{n} holes empty"),
        }
    }

    fn finish_text(&self) -> String {
        match self.finish_name() {
            Some(h) => format!("one peg on {h}"),
            None => "one peg anywhere".into(),
        }
    }
}

/// Whether a single peg on some allowed hole has the class of `start` (else no game from it can end with one
/// peg, whatever is played).
fn class_allows(board: &Board, start: Position, finish: Option<usize>) -> bool {
    let c = board.position_class(start);
    match finish {
        Some(h) => board.position_class(Position::EMPTY.with_peg(h)) == c,
        None => (0..board.holes()).any(|h| board.position_class(Position::EMPTY.with_peg(h)) == c),
    }
}

/// The title screen's value for a built-in board.
fn board_label(name: &str) -> String {
    name.to_string()
}

/// The board named by the first word of a title-screen value.
fn board_of(value: &str) -> Board {
    value
        .split_whitespace()
        .next()
        .and_then(|n| Board::builtin(n).ok())
        .unwrap_or_else(Board::english)
}

/// The options of the title screen.
pub fn choices() -> Vec<Choice> {
    let mut c = vec![
        Choice::new(
            "Board",
            BOARDS.iter().map(|b| board_label(b)).collect(),
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
        if !class_allows(&board, board.full().without_peg(h), None) {
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
        if !class_allows(&board, start, Some(h)) {
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

/// Start a new game from the title screen's options.
pub fn start(choices: &[Choice], cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    let get = |label: &str| {
        choices
            .iter()
            .find(|c| c.label == label)
            .and_then(|c| c.value().split_whitespace().next().map(str::to_string))
    };
    let board_name = get("Board").unwrap_or_else(|| "english".into());
    let board = Board::builtin(&board_name).map_err(|e| e.to_string())?;
    let start = match get("Start") {
        Some(h) => board
            .full()
            .without_peg(board.parse_hole(&h).map_err(|e| e.to_string())?),
        None => board.default_start(),
    };
    let finish = match get("Finish").filter(|f| f != "any") {
        Some(h) => Finish::Hole(board.parse_hole(&h).map_err(|e| e.to_string())?),
        None => Finish::Anywhere,
    };
    let screen = PegScreen::new(
        Setup {
            board,
            start,
            finish,
        },
        Vec::new(),
        cfg,
    )?;
    Ok(Box::new(screen))
}

/// A question waiting for the indicator's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// Show the solution from here.
    Show,
    /// Play its next jump.
    Step,
}

/// The peg solitaire screen.
pub struct PegScreen {
    setup: Setup,
    /// The jumps played, at every step (undo goes back one jump; a restart is a step too).
    hist: History<Vec<Move>>,
    game: peg::Game,
    oracle: Oracle,
    cursor: usize,
    selected: Option<usize>,
    /// Whether the solution from the current position is shown.
    show: bool,
    /// Auto-play: when the last jump was played.
    auto: Option<Duration>,
    want: Option<Want>,
    prompt: Option<Prompt>,
    prompt_result: Option<Status>,
    ask_new: bool,
    status: Option<Status>,
    unsaved: bool,
}

impl PegScreen {
    fn new(setup: Setup, moves: Vec<Move>, _cfg: &Config) -> Result<PegScreen, String> {
        if setup.start.pegs() == 0 {
            return Err("the start position has no peg".into());
        }
        let game = replay(&setup, &moves)?;
        let oracle = Oracle::new(&setup.board, setup.start, setup.finish);
        let mut s = PegScreen {
            cursor: 0,
            setup,
            hist: History::new(moves),
            game,
            oracle,
            selected: None,
            show: false,
            auto: None,
            want: None,
            prompt: None,
            prompt_result: None,
            ask_new: false,
            status: None,
            unsaved: false,
        };
        s.cursor = s.game.played().last().map_or_else(|| s.home(), |m| m.to());
        s.status = Some(s.opening());
        s.after_change();
        Ok(s)
    }

    /// The first message of a game.
    fn opening(&self) -> Status {
        let b = &self.setup.board;
        if !class_allows(b, self.setup.start, self.finish_hole()) {
            return Status::warn(format!(
                "This start can never end with {} (position class): try another.",
                self.setup.finish_text()
            ));
        }
        Status::info(format!(
            "Jump a peg over a neighbour into an empty hole. Leave {}.",
            self.setup.finish_text()
        ))
    }

    fn finish_hole(&self) -> Option<usize> {
        match self.setup.finish {
            Finish::Hole(h) => Some(h),
            Finish::Anywhere => None,
        }
    }

    fn board(&self) -> &Board {
        &self.setup.board
    }

    fn pos(&self) -> Position {
        self.game.position()
    }

    /// The positions of the game from the start to now.
    fn line(&self) -> Vec<Position> {
        let mut p = self.setup.start;
        let mut line = vec![p];
        for &m in self.game.played() {
            p = p.apply(m);
            line.push(p);
        }
        line
    }

    /// Where the cursor starts: the first peg that can jump, else the first hole.
    fn home(&self) -> usize {
        self.game.legal_moves().first().map_or(0, |m| m.from())
    }

    fn answer(&mut self) -> Answer {
        let line = self.line();
        self.oracle.answer(&line)
    }

    /// After every change of the position: ask the indicator, answer waiting questions, announce the end.
    fn after_change(&mut self) {
        self.selected = None;
        let line = self.line();
        self.oracle.pump(&line);
        self.answer_wanted();
        if self.game.is_over() {
            self.auto = None;
            self.status = Some(self.game_over_status());
        }
    }

    fn game_over_status(&self) -> Status {
        let pos = self.pos();
        let b = self.board();
        if pos.pegs() == 1 {
            let at = pos.holes().next().map(|h| b.hole_name(h)).unwrap_or("?");
            return match self.finish_hole() {
                None => Status::good(format!(
                    "Solved! One peg left, on {at}. n: new game, b: play again."
                )),
                Some(h) if pos.has_peg(h) => Status::good(format!(
                    "Solved! One peg left, on the finish hole {at}. n: new game."
                )),
                Some(h) => Status::warn(format!(
                    "One peg left, on {at}, but not on the finish hole {}. u: undo, b: restart.",
                    b.hole_name(h)
                )),
            };
        }
        Status::warn(format!(
            "Stuck: no jump left, {} pegs remain. u: undo, b: restart, n: new game.",
            pos.pegs()
        ))
    }

    /// A question asked while the answer was not known: answer it now if it is.
    fn answer_wanted(&mut self) {
        let Some(want) = self.want else {
            return;
        };
        match self.answer() {
            Answer::Checking => {}
            answer => {
                self.want = None;
                let status = match want {
                    Want::Show => self.show_solution(answer),
                    Want::Step => self.step(answer),
                };
                self.status = Some(status);
            }
        }
    }

    /// `h`: show the solution from here (or say there is none).
    fn show_solution(&mut self, answer: Answer) -> Status {
        match answer {
            Answer::Known(Verdict::Possible(path)) => {
                self.show = true;
                match path.first() {
                    Some(&m) => Status::info(format!(
                        "A solution from here in {}: next {}. . plays it, a plays them all.",
                        plural(path.len(), "jump"),
                        self.board().format_move(m)
                    )),
                    None => Status::good("Solved: one peg left."),
                }
            }
            Answer::Known(Verdict::Impossible(why)) => {
                self.show = false;
                Status::warn(format!("No solution from here: {}.", self.why_text(why)))
            }
            Answer::Checking => {
                self.want = Some(Want::Show);
                Status::info("Looking for a solution…")
            }
            Answer::GaveUp { nodes, .. } => {
                self.oracle.search_longer(self.pos());
                self.want = Some(Want::Show);
                let line = self.line();
                self.oracle.pump(&line);
                Status::info(format!(
                    "No answer after {} positions; searching longer…",
                    group(nodes)
                ))
            }
        }
    }

    /// `.`: play the next jump of the solution from here.
    fn step(&mut self, answer: Answer) -> Status {
        if self.game.is_over() {
            self.auto = None;
            return self.game_over_status();
        }
        match answer {
            Answer::Known(Verdict::Possible(path)) => match path.first() {
                Some(&m) => {
                    self.show = true;
                    let left = path.len() - 1;
                    let status = self.play(m);
                    if status.tone == Tone::Error || self.game.is_over() {
                        return self.status.clone().unwrap_or(status);
                    }
                    Status::info(format!(
                        "Solution: {}; {} to go.",
                        self.board().format_move(m),
                        plural(left, "jump")
                    ))
                }
                None => Status::good("Solved: one peg left."),
            },
            other => {
                self.auto = None;
                let s = self.show_solution(other);
                if self.want == Some(Want::Show) {
                    self.want = Some(Want::Step);
                }
                s
            }
        }
    }

    fn why_text(&self, why: Why) -> String {
        match why {
            Why::Class => format!(
                "the position class does not allow {} from here",
                self.setup.finish_text()
            ),
            Why::WrongHole => "the last peg is not on the finish hole".into(),
            Why::Stuck => "no jump is left".into(),
            Why::Earlier => "an earlier position of this game was already lost".into(),
            Why::Table => "the complete table of finishable positions says so".into(),
            Why::Search => "the solver tried every way on".into(),
        }
    }

    /// Play a jump.
    fn play(&mut self, mv: Move) -> Status {
        if let Err(e) = self.game.check(mv) {
            return Status::error(format!("Not a legal jump: {e}"));
        }
        if self.game.is_over() {
            return Status::warn(
                "The game is over: u takes jumps back, b restarts, n is a new game",
            );
        }
        match self.game.play(mv) {
            Ok(()) => {
                self.hist.push(self.game.played().to_vec());
                self.unsaved = true;
                self.cursor = mv.to();
                let status = Status::info(format!(
                    "{}: the peg on {} is taken off.",
                    self.board().format_move(mv),
                    self.board().hole_name(mv.over())
                ));
                self.status = Some(status.clone());
                self.after_change();
                self.status.clone().unwrap_or(status)
            }
            Err(e) => Status::error(format!("Not a legal jump: {e}")),
        }
    }

    /// Rebuild the game from the jump list the history now shows.
    fn sync_from_history(&mut self) {
        match replay(&self.setup, self.hist.present()) {
            Ok(g) => self.game = g,
            Err(e) => self.status = Some(Status::error(e)),
        }
        self.unsaved = true;
        self.auto = None;
        self.cursor = self
            .game
            .played()
            .last()
            .map_or_else(|| self.home(), |m| m.to());
        self.after_change();
    }

    fn new_game(&mut self) {
        self.hist.reset(Vec::new());
        self.game = peg::Game::new(self.setup.board.clone(), self.setup.start);
        self.unsaved = false;
        self.show = false;
        self.auto = None;
        self.want = None;
        self.cursor = self.home();
        self.status = Some(Status::info("A new game."));
        self.after_change();
        if !self.game.is_over() {
            self.status = Some(self.opening());
        }
    }

    fn cursor_move(&mut self, code: KeyCode) {
        self.cursor = step_cursor(self.board(), self.cursor, code);
    }

    /// Enter or Space on the cursor's hole: choose a peg, jump to a target, or put the peg down.
    fn select(&mut self) -> Status {
        let h = self.cursor;
        let name = self.board().hole_name(h).to_string();
        if self.game.is_over() {
            return Status::warn(
                "The game is over: u takes jumps back, b restarts, n is a new game",
            );
        }
        if self.pos().has_peg(h) {
            if self.selected == Some(h) {
                self.selected = None;
                return Status::info(format!("{name} put down"));
            }
            let targets = self.targets(h);
            if targets.is_empty() {
                self.selected = None;
                return Status::warn(format!(
                    "The peg on {name} cannot jump: it needs a neighbouring peg with an empty hole behind it"
                ));
            }
            self.selected = Some(h);
            let list: Vec<&str> = targets.iter().map(|&t| self.board().hole_name(t)).collect();
            return Status::info(format!(
                "{name} chosen: it can jump to {}",
                list.join(" or ")
            ));
        }
        match self.selected {
            Some(from) => {
                let mv = self
                    .board()
                    .moves()
                    .iter()
                    .copied()
                    .find(|m| m.from() == from && m.to() == h);
                match mv {
                    Some(mv) => self.play(mv),
                    None => Status::error(format!(
                        "{} cannot jump to {name}: a jump goes over one neighbouring peg in a straight line",
                        self.board().hole_name(from)
                    )),
                }
            }
            None => Status::info(format!(
                "{name} is empty: put the cursor on a peg and press Enter to choose it"
            )),
        }
    }

    /// The holes the peg on `from` can jump to.
    fn targets(&self, from: usize) -> Vec<usize> {
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

    fn typed(&mut self, text: &str) -> Status {
        match parse_jump(self.board(), text) {
            Ok(mv) => self.play(mv),
            Err(e) => Status::error(e),
        }
    }

    /// The hole drawn at screen cell (x, y) offsets: where each hole's glyph goes.
    fn geometry(&self) -> Geometry {
        Geometry::of(self.board())
    }

    fn render_board(&mut self, frame: &mut Frame, x0: u16, y0: u16, t: &Theme) {
        let geo = self.geometry();
        let board = self.setup.board.clone();
        let pos = self.pos();
        let targets = self.selected.map(|s| self.targets(s)).unwrap_or_default();
        let next = if self.show {
            match self.answer() {
                Answer::Known(Verdict::Possible(p)) => p.first().copied(),
                _ => None,
            }
        } else {
            None
        };
        let last = self.game.played().last().copied();
        let buf = frame.buffer_mut();
        let area = buf.area;
        let mut put = |x: u16, y: u16, s: &str, style: Style| {
            if y < area.bottom() && x < area.right() {
                buf.set_string(x, y, s, style);
            }
        };
        let (w, h) = board.size();
        // Names: letters and numbers around a square board; each hole's number under it on the triangle.
        if board.lattice() == Lattice::Square {
            for c in 0..w {
                let letter = column_name(&board, c);
                let x = x0 + geo.glyph_x(c);
                put(x, y0, &letter, t.dim);
                put(x, y0 + geo.height - 1, &letter, t.dim);
            }
            for l in 0..h {
                let y = y0 + geo.glyph_y(l);
                put(x0, y, &format!("{:>2}", l + 1), t.dim);
                put(x0 + geo.width - 2, y, &format!("{}", l + 1), t.dim);
            }
        }
        for hole in 0..board.holes() {
            let (c, l) = board.cell(hole);
            let x = x0 + geo.glyph_x(c);
            let y = y0 + geo.glyph_y(l);
            let peg = pos.has_peg(hole);
            let is_target = targets.contains(&hole);
            let hinted = next.is_some_and(|m| m.from() == hole || m.to() == hole);
            let glyph = if peg {
                "●"
            } else if is_target {
                "◎"
            } else {
                "○"
            };
            let (open, close) = if self.cursor == hole {
                ("[", "]")
            } else if self.selected == Some(hole) {
                ("(", ")")
            } else if hinted {
                ("<", ">")
            } else {
                (" ", " ")
            };
            let mut style = if peg { t.peg } else { t.hole };
            if last.is_some_and(|m| m.to() == hole) {
                style = style.patch(t.last_move);
            }
            if is_target {
                style = style.patch(t.target);
            }
            if hinted {
                style = style.patch(t.hint);
            }
            if self.selected == Some(hole) {
                style = style.patch(t.selected);
            }
            if self.cursor == hole {
                style = style.patch(t.cursor);
            }
            put(x - 1, y, &format!("{open}{glyph}{close}"), style);
            if board.lattice() == Lattice::Triangular {
                let name = board.hole_name(hole);
                let nx = x - u16::try_from(name.len().saturating_sub(1) / 2).unwrap_or(0);
                put(nx, y + 1, name, t.dim);
            }
        }
        put(
            x0,
            y0 + geo.height,
            "● peg  ○ empty  ◎ can jump here",
            t.dim,
        );
    }

    fn panel_lines(&mut self, t: &Theme) -> Vec<Line<'static>> {
        let row = |label: &str, value: String, style: Style| {
            Line::from(vec![
                Span::styled(format!("{label:<8}"), t.dim),
                Span::styled(value, style),
            ])
        };
        let mut lines = Vec::new();
        let b = self.setup.board.clone();
        lines.push(row(
            "Board",
            Board::builtin_description(b.name())
                .unwrap_or(b.name())
                .to_string(),
            t.text,
        ));
        lines.push(row("Start", self.setup.start_text(), t.text));
        lines.push(row("Goal", self.setup.finish_text(), t.text));
        let answer = self.answer();
        let pos = self.pos();
        lines.push(row("Pegs", format!("{} left", pos.pegs()), t.text));
        let played = self.game.played().to_vec();
        lines.push(row(
            "Moves",
            format!(
                "{} made{}",
                played.len(),
                played
                    .last()
                    .map(|&m| format!(" · last {}", b.format_move(m)))
                    .unwrap_or_default()
            ),
            t.text,
        ));
        lines.push(Line::raw(""));
        let (text, style) = if self.game.is_over() {
            let won = match self.finish_hole() {
                _ if pos.pegs() != 1 => false,
                Some(h) => pos.has_peg(h),
                None => true,
            };
            if won {
                ("Game over: solved".to_string(), t.good)
            } else {
                (
                    format!(
                        "Game over: stuck with {}",
                        plural(pos.pegs() as usize, "peg")
                    ),
                    t.bad,
                )
            }
        } else {
            lines.push(Line::styled(
                match self.setup.finish_name() {
                    Some(h) => format!("A one-peg finish on {h} is"),
                    None => "A one-peg finish is".to_string(),
                },
                t.dim,
            ));
            match &answer {
                Answer::Known(Verdict::Possible(_)) => ("✔ still possible".to_string(), t.good),
                Answer::Known(Verdict::Impossible(_)) if played.is_empty() => {
                    ("✘ not possible".to_string(), t.bad)
                }
                Answer::Known(Verdict::Impossible(_)) => {
                    ("✘ no longer possible".to_string(), t.bad)
                }
                Answer::Checking => ("… being checked".to_string(), t.warn),
                Answer::GaveUp { .. } => ("? not known".to_string(), t.warn),
            }
        };
        lines.push(Line::styled(text, style));
        let detail = match &answer {
            Answer::Known(Verdict::Impossible(why)) => {
                // The first position of this game known to be lost.
                let line = self.line();
                let first = line.iter().position(|p| {
                    matches!(
                        self.oracle.known.get(&p.bits()),
                        Some(Verdict::Impossible(_))
                    )
                });
                match first {
                    Some(i) if i > 0 && i + 1 < line.len() => format!(
                        "since move {i}, {}",
                        played
                            .get(i - 1)
                            .map(|&m| b.format_move(m))
                            .unwrap_or_default()
                    ),
                    _ if played.is_empty() => format!("from this start: {}", self.why_short(*why)),
                    _ => self.why_short(*why),
                }
            }
            Answer::Known(Verdict::Possible(_)) | Answer::Checking => String::new(),
            Answer::GaveUp { nodes, memory } => format!(
                "{} after {} positions; h searches longer",
                if *memory { "memory full" } else { "gave up" },
                group(*nodes)
            ),
        };
        if !detail.is_empty() && !self.game.is_over() {
            lines.push(Line::styled(format!("  {detail}"), t.dim));
        }
        let note = self.oracle.table_note();
        if !self.game.is_over() && !note.is_empty() {
            lines.push(Line::styled(format!("  {note}"), t.dim));
        }
        if self.show
            && let Answer::Known(Verdict::Possible(path)) = &answer
            && !path.is_empty()
        {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                format!("Solution from here: {}", plural(path.len(), "jump")),
                t.title,
            ));
            let shown: Vec<String> = path.iter().take(6).map(|&m| b.format_move(m)).collect();
            let more = if path.len() > 6 { " …" } else { "" };
            lines.push(Line::from(vec![
                Span::styled(shown.first().cloned().unwrap_or_default(), t.hint),
                Span::raw(format!(
                    " {}{more}",
                    shown.get(1..).unwrap_or_default().join(" ")
                )),
            ]));
            if self.auto.is_some() {
                lines.push(Line::styled("playing… any key stops", t.warn));
            }
        }
        lines
    }

    fn why_short(&self, why: Why) -> String {
        match why {
            Why::Class => "position class".into(),
            Why::WrongHole => "the last peg is not on the finish".into(),
            Why::Stuck => "no jump left".into(),
            Why::Earlier => "lost earlier".into(),
            Why::Table => "by the complete table".into(),
            Why::Search => "the solver tried every way on".into(),
        }
    }

    fn short_keys(&self) -> Vec<KeyHelp> {
        vec![
            ("←↑↓→", "move"),
            ("Enter", "choose/jump"),
            (":", "type a jump"),
            ("h", "solution"),
            (".", "step"),
            ("a", "auto-play"),
            ("u/r", "undo/redo"),
            ("b", "restart"),
            ("n", "new"),
            ("s", "save"),
            ("?", "help"),
            ("q", "leave"),
        ]
    }
}

/// Where things go on screen for a board.
#[derive(Debug, Clone, Copy)]
struct Geometry {
    lattice: Lattice,
    width: u16,
    height: u16,
}

impl Geometry {
    fn of(board: &Board) -> Geometry {
        let (w, h) = board.size();
        let (w, h) = (
            u16::try_from(w.max(0)).unwrap_or(0),
            u16::try_from(h.max(0)).unwrap_or(0),
        );
        match board.lattice() {
            // Row numbers, a blank line or column between them and the holes, a hole every 4 columns and 2
            // lines.
            Lattice::Square => Geometry {
                lattice: Lattice::Square,
                width: 4 + 4 * w + 2,
                height: 2 * h + 3,
            },
            // Holes 3 columns per layout column (6 apart in a row), 3 lines per row: the hole, its number, a
            // blank line.
            Lattice::Triangular => Geometry {
                lattice: Lattice::Triangular,
                width: 3 * w + 3,
                height: 3 * h,
            },
        }
    }

    /// Screen column of the glyph of layout column `c`, from the board's left edge.
    fn glyph_x(&self, c: i32) -> u16 {
        let c = u16::try_from(c.max(0)).unwrap_or(0);
        match self.lattice {
            Lattice::Square => 5 + 4 * c,
            Lattice::Triangular => 2 + 3 * c,
        }
    }

    /// Screen line of the glyph of layout line `l`, from the board's top edge.
    fn glyph_y(&self, l: i32) -> u16 {
        let l = u16::try_from(l.max(0)).unwrap_or(0);
        match self.lattice {
            Lattice::Square => 2 + 2 * l,
            Lattice::Triangular => 3 * l,
        }
    }
}

/// The letters of layout column `c` on a square board (from the names of its holes).
fn column_name(board: &Board, c: i32) -> String {
    (0..board.holes())
        .find(|&h| board.cell(h).0 == c)
        .map(|h| {
            board
                .hole_name(h)
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect()
        })
        .unwrap_or_default()
}

/// The hole the cursor goes to from `from` with an arrow key: along the row for ← and →, along the column (the
/// next row on the triangle) for ↑ and ↓, wrapping round on square boards.
pub fn step_cursor(board: &Board, from: usize, code: KeyCode) -> usize {
    let (c, l) = board.cell(from);
    let holes = 0..board.holes();
    let cycle = |mut line: Vec<(i32, usize)>, forward: bool| {
        line.sort_unstable();
        let n = line.len();
        match line.iter().position(|&(_, h)| h == from) {
            Some(i) if n > 0 => {
                line[if forward {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                }]
                .1
            }
            _ => from,
        }
    };
    match code {
        KeyCode::Left | KeyCode::Right => cycle(
            holes
                .filter(|&h| board.cell(h).1 == l)
                .map(|h| (board.cell(h).0, h))
                .collect(),
            code == KeyCode::Right,
        ),
        KeyCode::Up | KeyCode::Down => match board.lattice() {
            Lattice::Square => cycle(
                holes
                    .filter(|&h| board.cell(h).0 == c)
                    .map(|h| (board.cell(h).1, h))
                    .collect(),
                code == KeyCode::Down,
            ),
            Lattice::Triangular => {
                let target = if code == KeyCode::Up { l - 1 } else { l + 1 };
                holes
                    .filter(|&h| board.cell(h).1 == target)
                    .min_by_key(|&h| ((board.cell(h).0 - c).abs(), board.cell(h).0))
                    .unwrap_or(from)
            }
        },
        _ => from,
    }
}

/// Parse a typed jump: `d2-d4`, `d2d4`, `d2 d4` (on the triangle `4-1` or `4 1`). Errors are short enough for
/// the prompt line.
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

/// Play `moves` from the setup's start, checking each.
fn replay(setup: &Setup, moves: &[Move]) -> Result<peg::Game, String> {
    let mut g = peg::Game::new(setup.board.clone(), setup.start);
    for (i, &m) in moves.iter().enumerate() {
        g.play(m).map_err(|e| format!("jump {}: {e}", i + 1))?;
    }
    Ok(g)
}

/// "1 jump", "2 jumps".
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

impl GameScreen for PegScreen {
    fn game(&self) -> GameKind {
        GameKind::Peg
    }

    fn heading(&self) -> String {
        format!(
            "{} · start {} · {}",
            self.setup.board.name(),
            self.setup.vacancies().join(" "),
            match self.setup.finish_name() {
                Some(h) => format!("finish {h}"),
                None => "finish anywhere".into(),
            }
        )
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let t = &cfg.theme;
        let geo = self.geometry();
        // The board and its legend (a line below it) centred in the height.
        let y0 = area.y + area.height.saturating_sub(geo.height + 1) / 2;
        let x0 = area.x + 1;
        self.render_board(frame, x0, y0, t);
        let px = x0 + geo.width.max(32) + 2;
        let panel = Rect {
            x: px,
            y: area.y,
            width: area.right().saturating_sub(px),
            height: area.height,
        };
        let keys = key_lines(&self.short_keys(), panel.width.saturating_sub(1), t);
        let keys_h = u16::try_from(keys.len()).unwrap_or(0).min(panel.height);
        let top = Rect {
            height: panel.height.saturating_sub(keys_h + 1),
            ..panel
        };
        let bottom = Rect {
            y: panel.bottom() - keys_h,
            height: keys_h,
            ..panel
        };
        let lines = self.panel_lines(t);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), top);
        frame.render_widget(Paragraph::new(keys), bottom);
    }

    fn handle_key(&mut self, key: KeyEvent, cfg: &Config) -> Handled {
        if let Some(prompt) = self.prompt.as_mut() {
            match prompt.handle(key) {
                PromptEvent::Editing => {}
                PromptEvent::Cancel => self.prompt = None,
                PromptEvent::Submit(text) => {
                    if text.trim().is_empty() {
                        self.prompt = None;
                    } else {
                        let result = self.typed(&text);
                        if self.game.is_over() {
                            self.prompt = None;
                        } else {
                            // The prompt stays open for the next jump, with this one's result in it.
                            self.prompt_result = Some(result.clone());
                        }
                        self.status = Some(result);
                    }
                }
            }
            return Handled::Yes;
        }
        if self.auto.take().is_some() {
            self.status = Some(Status::info("Stopped. a plays on, . plays one jump."));
            return Handled::Yes;
        }
        if self.ask_new {
            self.ask_new = false;
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.new_game();
            } else {
                self.status = Some(Status::info("Carry on"));
            }
            return Handled::Yes;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            || key.modifiers.contains(KeyModifiers::ALT)
        {
            return Handled::No;
        }
        let status = match key.code {
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                self.cursor_move(key.code);
                return Handled::Yes;
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.select(),
            KeyCode::Esc if self.selected.is_some() || self.show => {
                self.selected = None;
                self.show = false;
                Status::info("Put down")
            }
            KeyCode::Char(':') | KeyCode::Char('m') | KeyCode::Char('M') => {
                self.prompt = Some(Prompt::new("Jump", "d2-d4 or d2d4"));
                self.prompt_result = None;
                self.selected = None;
                return Handled::Yes;
            }
            KeyCode::Char('h') | KeyCode::Char('H') => {
                if self.show && self.want.is_none() {
                    self.show = false;
                    Status::info("Solution hidden")
                } else {
                    let a = self.answer();
                    self.show_solution(a)
                }
            }
            KeyCode::Char('.') | KeyCode::Char('>') => {
                let a = self.answer();
                self.step(a)
            }
            KeyCode::Char('a') | KeyCode::Char('A') => {
                if self.game.is_over() {
                    self.game_over_status()
                } else {
                    match self.answer() {
                        Answer::Known(Verdict::Possible(_)) => {
                            self.show = true;
                            self.auto = Some(cfg.clock.now());
                            Status::info("Playing the solution: any key stops")
                        }
                        other => self.show_solution(other),
                    }
                }
            }
            KeyCode::Char('u') | KeyCode::Char('U') => {
                if self.hist.undo() {
                    self.sync_from_history();
                    Status::info("Took back the last jump")
                } else {
                    Status::info("Nothing to undo")
                }
            }
            KeyCode::Char('r') | KeyCode::Char('R') => {
                if self.hist.redo() {
                    self.sync_from_history();
                    Status::info("Replayed the jump")
                } else {
                    Status::info("Nothing to redo")
                }
            }
            KeyCode::Char('b') | KeyCode::Char('B') => {
                if self.game.played().is_empty() {
                    Status::info("Already at the start")
                } else {
                    self.hist.push(Vec::new());
                    self.sync_from_history();
                    Status::info("Back at the start (u brings the jumps back)")
                }
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                if self.game.played().is_empty() || self.game.is_over() {
                    self.new_game();
                    return Handled::Yes;
                }
                self.ask_new = true;
                Status::warn("Give up this game and start a new one? y/n")
            }
            _ => return Handled::No,
        };
        self.status = Some(status);
        Handled::Yes
    }

    fn capturing(&self) -> bool {
        self.prompt.is_some() || self.ask_new
    }

    fn status(&self) -> Option<Status> {
        self.status.clone()
    }

    fn footer(&self, theme: &Theme) -> Option<Line<'static>> {
        self.prompt
            .as_ref()
            .map(|p| p.line(theme, self.prompt_result.as_ref()))
    }

    fn tick(&mut self, cfg: &Config) {
        let line = self.line();
        self.oracle.pump(&line);
        self.answer_wanted();
        // Auto-play: one jump per step of time, catching up if ticks were late.
        while let Some(last) = self.auto {
            let now = cfg.clock.now();
            if now.saturating_sub(last) < AUTO_STEP {
                break;
            }
            match self.answer() {
                Answer::Known(Verdict::Possible(path)) if !path.is_empty() => {
                    self.auto = Some(last + AUTO_STEP);
                    let a = self.answer();
                    let s = self.step(a);
                    if !self.game.is_over() {
                        self.status = Some(s);
                    }
                }
                Answer::Checking => break,
                _ => {
                    self.auto = None;
                }
            }
        }
    }

    fn busy(&self) -> bool {
        self.oracle.busy()
    }

    fn wait(&mut self, cfg: &Config) {
        let line = self.line();
        self.oracle.wait(&line);
        self.tick(cfg);
    }

    fn rules(&self) -> Vec<Line<'static>> {
        rules()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        vec![
            ("←↑↓→", "move the cursor from hole to hole"),
            (
                "Enter Space",
                "choose the peg under the cursor (its targets are marked ◎), then the hole to jump to",
            ),
            ("Esc", "put the chosen peg down; hide the solution"),
            (
                ": m",
                "type a jump: d2-d4, d2d4 or d2 d4 (4-1 on the triangle)",
            ),
            (
                "h",
                "show a solution from here (or say there is none); again to hide it",
            ),
            (". >", "play the next jump of the solution"),
            (
                "a",
                "play the solution by itself, a jump every half second; any key stops",
            ),
            ("u / r", "take back the last jump / play it again"),
            ("b", "back to the start (undo brings the jumps back)"),
            ("n", "a new game on the same board"),
        ]
    }

    fn save_state(&self, _cfg: &Config) -> serde_json::Value {
        let b = &self.setup.board;
        let list = |moves: &[Move]| moves.iter().map(|&m| b.format_move(m)).collect::<Vec<_>>();
        serde_json::json!({
            "board": b.name(),
            "start": self.setup.vacancies(),
            "finish": self.setup.finish_name(),
            "moves": list(self.hist.present()),
            "undo": self.hist.past().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "redo": self.hist.future().iter().map(|m| list(m)).collect::<Vec<_>>(),
        })
    }

    fn unsaved(&self) -> bool {
        self.unsaved && !self.game.is_over()
    }

    fn mark_saved(&mut self) {
        self.unsaved = false;
    }

    fn set_covered(&mut self, covered: bool, _cfg: &Config) {
        if covered {
            self.auto = None;
        }
    }
}

/// The rules for the help screen.
pub fn rules() -> Vec<Line<'static>> {
    vec![
        Line::raw(
            "The board is full of pegs but for one empty hole. A move is a jump: a peg jumps over a neighbouring \
             peg, in a straight line, into the empty hole just behind it, and the peg jumped over is taken off. \
             On square boards the jumps go along rows and columns (never diagonally); on the triangle along \
             its three directions.",
        ),
        Line::raw(""),
        Line::raw(
            "Every jump takes one peg off. The aim is to leave a single peg, on the finish hole if one was \
             chosen (the classic English game starts and ends in the centre, d4). The game is over when no \
             jump is left: with one peg the puzzle is solved, with more you are stuck.",
        ),
        Line::raw(""),
        Line::raw(
            "Holes are named by column letter and row number (row 1 at the top; the English centre is d4), \
             and numbered 1 to 15 row by row on the triangle.",
        ),
        Line::raw(""),
        Line::raw(
            "The indicator on the right says whether one peg can still be left from the position on the board. \
             Some starts can never end with one peg (the French board and the diamond from the centre): their \
             position class, an invariant of play found by de Bruijn and Conway, differs from that of every \
             single peg. It answers from the position class, from a complete table of finishable positions \
             where one can be built (the English board and the triangle), or from a search with a pagoda \
             function and a table of dead positions; h shows a solution from here.",
        ),
    ]
}

/// Rebuild a saved game.
pub fn load(state: &serde_json::Value, cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    let name: String = field(state, "board")?;
    let board = Board::builtin(&name).map_err(|e| format!("the board: {e}"))?;
    let vacancies: Vec<String> = field(state, "start")?;
    if vacancies.is_empty() {
        return Err("the start: no hole is empty, so no jump can be made".into());
    }
    let mut start = board.full();
    for v in &vacancies {
        let h = board.parse_hole(v).map_err(|e| format!("the start: {e}"))?;
        if !start.has_peg(h) {
            return Err(format!(
                "the start: hole {} is named twice",
                board.hole_name(h)
            ));
        }
        start = start.without_peg(h);
    }
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
    let setup = Setup {
        board,
        start,
        finish,
    };
    let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<Move>, String> {
        let moves = list
            .iter()
            .enumerate()
            .map(|(i, m)| {
                setup
                    .board
                    .parse_move(m)
                    .map_err(|e| format!("{what}: jump {}: {e}", i + 1))
            })
            .collect::<Result<Vec<Move>, String>>()?;
        replay(&setup, &moves).map_err(|e| format!("{what}: {e}"))?;
        Ok(moves)
    };
    let moves = parse_list("the moves", field(state, "moves")?)?;
    let undo: Vec<Vec<String>> = field(state, "undo")?;
    let redo: Vec<Vec<String>> = field(state, "redo")?;
    let mut past = Vec::new();
    for (i, l) in undo.into_iter().enumerate() {
        past.push(parse_list(&format!("undo step {}", i + 1), l)?);
    }
    let mut future = Vec::new();
    for (i, l) in redo.into_iter().enumerate() {
        future.push(parse_list(&format!("redo step {}", i + 1), l)?);
    }
    let mut s = PegScreen::new(setup, moves.clone(), cfg)?;
    s.hist = History::from_parts(past, moves, future);
    if !s.game.is_over() {
        s.status = Some(Status::info("Welcome back."));
    }
    Ok(Box::new(s))
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

    /// On a board without a complete table the indicator's answers come from the position class and from the
    /// solver on the background thread; they are checked here against the rules.
    #[test]
    fn the_search_answers_where_there_is_no_table() {
        let b = Board::builtin("french").unwrap();
        let start = b.full().without_peg(b.parse_hole("d2").unwrap());
        let mut o = Oracle::new(&b, start, Finish::Anywhere);
        assert!(o.table_note().contains("no complete table for 37 holes"));
        // A position known to finish: one peg on d6 (the class of the d2 start) with jumps taken back.
        let mut p = Position::EMPTY.with_peg(b.parse_hole("d6").unwrap());
        assert_eq!(b.position_class(p), b.position_class(start));
        for _ in 0..10 {
            let back = b
                .moves()
                .iter()
                .copied()
                .find(|m| m.is_undoable(p))
                .unwrap();
            p = p.undo(back);
        }
        assert_eq!(p.pegs(), 11);
        let line = [start, p];
        o.wait(&line);
        match o.answer(&line) {
            Answer::Known(Verdict::Possible(path)) => {
                let end = path.iter().fold(p, |q, &m| {
                    assert!(m.is_legal(q));
                    q.apply(m)
                });
                assert_eq!(end.pegs(), 1);
            }
            other => panic!("{other:?}"),
        }
        // Every position along that way is known now.
        let next = match o.answer(&line) {
            Answer::Known(Verdict::Possible(path)) => p.apply(path[0]),
            _ => unreachable!(),
        };
        assert!(matches!(
            o.answer(&[next]),
            Answer::Known(Verdict::Possible(_))
        ));
        // Pegs that can jump but never come together: the search proves it, as the library's solver does.
        let h = |n: &str| b.parse_hole(n).unwrap();
        let apart = Position::EMPTY
            .with_peg(h("a3"))
            .with_peg(h("b3"))
            .with_peg(h("g5"))
            .with_peg(h("c7"));
        assert!(!Solver::new(&b, Finish::Anywhere).can_finish(apart).unwrap());
        o.wait(&[apart]);
        assert!(matches!(
            o.answer(&[apart]),
            Answer::Known(Verdict::Impossible(Why::Search | Why::Class))
        ));
        // No jump left.
        let stuck = Position::EMPTY.with_peg(h("a3")).with_peg(h("g5"));
        assert!(matches!(
            o.answer(&[apart, stuck]),
            Answer::Known(Verdict::Impossible(Why::Stuck | Why::Class))
        ));
        // The French centre start: the class settles it, with no table and no search.
        let centre = Oracle::new(&b, b.default_start(), Finish::Anywhere);
        assert!(!centre.busy());
        let mut centre = centre;
        assert_eq!(
            centre.answer(&[b.default_start()]),
            Answer::Known(Verdict::Impossible(Why::Class))
        );
    }

    #[test]
    fn the_cursor_walks_over_holes_only() {
        let b = Board::english();
        let h = |n: &str| b.parse_hole(n).unwrap();
        assert_eq!(step_cursor(&b, h("c1"), KeyCode::Left), h("e1"));
        assert_eq!(step_cursor(&b, h("e1"), KeyCode::Right), h("c1"));
        assert_eq!(step_cursor(&b, h("a3"), KeyCode::Up), h("a5"));
        assert_eq!(step_cursor(&b, h("d4"), KeyCode::Up), h("d3"));
        assert_eq!(step_cursor(&b, h("d7"), KeyCode::Down), h("d1"));
        let t = Board::builtin("triangle").unwrap();
        let n = |s: &str| t.parse_hole(s).unwrap();
        assert_eq!(step_cursor(&t, n("1"), KeyCode::Down), n("2"));
        assert_eq!(step_cursor(&t, n("5"), KeyCode::Up), n("2"));
        assert_eq!(step_cursor(&t, n("1"), KeyCode::Up), n("1"));
        assert_eq!(step_cursor(&t, n("11"), KeyCode::Down), n("11"));
        assert_eq!(step_cursor(&t, n("4"), KeyCode::Right), n("5"));
        assert_eq!(step_cursor(&t, n("6"), KeyCode::Right), n("4"));
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
            let ok = class_allows(&b, b.default_start(), Some(h));
            assert_eq!(!ok, c[2].values[h + 1].ends_with('✘'));
        }
    }
}
