//! A sudoku in progress: the player's actions on the grid, the timer, and the view a front end draws.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sudoku::Grid;
use sudoku::logic::Candidates;
use sudoku::logic::tables::{PEERS, bit, cell_name};

use super::SudokuError;
use super::board::{Board, conflicts, parse_rcv, shared_house};
use super::hint::{Hint, HintKind};
use super::puzzle::Puzzle;
use super::setup::Setup;
use super::steps::Steps;
use crate::clock::{Stopwatch, format_duration};
use crate::game::{GameSession, Refusal};
use crate::text::plural;
use crate::work::{Outcome, Pending, submit};
use crate::{Env, GameKind, Message, NextAction};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// The player filled the grid correctly.
    Solved,
    /// The player asked to see the solution.
    Revealed,
}

/// A direction to move the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// One row up (wrapping).
    Up,
    /// One row down (wrapping).
    Down,
    /// One column left (wrapping).
    Left,
    /// One column right (wrapping).
    Right,
    /// The first column of the row.
    Home,
    /// The last column of the row.
    End,
}

/// A sudoku in progress.
#[derive(Debug)]
pub struct SudokuSession {
    pub(super) env: Env,
    pub(super) setup: Setup,
    pub(super) puzzle: Option<Puzzle>,
    pub(super) making: Option<Pending<Result<Puzzle, SudokuError>>>,
    /// What to tell the player about a puzzle made at once, until [`SudokuSession::poll`] takes it.
    pub(super) news: Option<Result<Message, SudokuError>>,
    pub(super) hist: Steps,
    pub(super) cursor: usize,
    pub(super) pencil: bool,
    pub(super) show_conflicts: bool,
    pub(super) mistakes: u32,
    /// The wrong entries (cell, digit) already counted as mistakes, so that a check counts each only once.
    pub(super) counted: Vec<(usize, u8)>,
    pub(super) hints: u32,
    pub(super) hint: Option<Hint>,
    /// Entries flagged wrong by the last check (cleared by the next change).
    pub(super) flagged: Vec<usize>,
    pub(super) end: Option<End>,
    pub(super) watch: Stopwatch,
    pub(super) paused: bool,
    pub(super) dirty: bool,
}

/// What a front end draws: the whole state of a sudoku, read-only and serializable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SudokuView {
    /// The options of this game and the next.
    pub setup: Setup,
    /// "medium puzzle", "classic puzzle (27 hidden)".
    pub describe: String,
    /// True while a puzzle is being made.
    pub making: bool,
    /// True once there is a puzzle to play (false while the first is being made, or when it could not be made;
    /// nothing below is meaningful then).
    pub ready: bool,
    /// The puzzle's label, e.g. "medium · SE 3.2 · 26 clues".
    pub label: String,
    /// Whether the puzzle has exactly one solution (false also while it is being made).
    pub unique: bool,
    /// The clues, row by row, 0 for an empty cell.
    pub givens: Vec<u8>,
    /// The digits in the grid, clues included.
    pub values: Vec<u8>,
    /// The pencil marks of each cell (bit `d - 1` for digit `d`).
    pub marks: Vec<u16>,
    /// The centre marks of each cell (bit `d - 1` for digit `d`).
    pub centre: Vec<u16>,
    /// The cursor's cell (0..81).
    pub cursor: usize,
    /// Digits go in as pencil marks.
    pub pencil: bool,
    /// Conflicts are to be shown.
    pub show_conflicts: bool,
    /// Cells whose digit repeats in their row, column or box.
    pub conflicts: Vec<usize>,
    /// Entries marked wrong by the last check.
    pub flagged: Vec<usize>,
    /// The hint shown, if any.
    pub hint: Option<Hint>,
    /// How the game ended, if it has.
    pub end: Option<End>,
    /// Empty cells.
    pub cells_left: usize,
    /// Mistakes made.
    pub mistakes: u32,
    /// Hints taken.
    pub hints: u32,
    /// Time played, in milliseconds.
    pub elapsed_ms: u64,
    /// Whether the timer runs.
    pub running: bool,
    /// Whether undo would do something.
    pub can_undo: bool,
    /// Whether redo would do something.
    pub can_redo: bool,
}

impl SudokuSession {
    /// A new game: the puzzle `setup` describes is made on `env`'s runner (at once with [`Env::blocking`];
    /// else collect it with [`SudokuSession::poll`]). A generator that fails is reported by that message
    /// (here, with a blocking runner, as the error).
    ///
    /// # Errors
    /// [`SudokuError::Setup`] for a setup that [`Setup::check`] refuses.
    pub fn new(setup: Setup, env: &Env) -> Result<SudokuSession, SudokuError> {
        setup.check()?;
        let mut s = SudokuSession::empty(setup, env);
        s.generate();
        if let Some(Err(e)) = &s.news {
            return Err(e.clone());
        }
        Ok(s)
    }

    /// A new game of a given puzzle; the next "new game" makes one as `setup` says.
    ///
    /// # Errors
    /// [`SudokuError::Setup`] for a setup that [`Setup::check`] refuses.
    pub fn with_puzzle(
        setup: Setup,
        puzzle: Puzzle,
        env: &Env,
    ) -> Result<SudokuSession, SudokuError> {
        setup.check()?;
        let mut s = SudokuSession::empty(setup, env);
        s.begin(puzzle);
        Ok(s)
    }

    pub(super) fn empty(setup: Setup, env: &Env) -> SudokuSession {
        SudokuSession {
            env: env.clone(),
            setup,
            puzzle: None,
            making: None,
            news: None,
            hist: Steps::new(Board::of([0; 81])),
            cursor: 40,
            pencil: false,
            show_conflicts: true,
            mistakes: 0,
            counted: Vec::new(),
            hints: 0,
            hint: None,
            flagged: Vec::new(),
            end: None,
            watch: Stopwatch::running(Duration::ZERO, env.clock.now()),
            paused: false,
            dirty: false,
        }
    }

    /// Start making the puzzle of the current setup.
    pub(super) fn generate(&mut self) {
        let setup = self.setup.clone();
        self.puzzle = None;
        self.hint = None;
        self.news = None;
        let stop = self.env.stop.clone();
        let pending = submit(&*self.env.runner, move || {
            Puzzle::make_until(&setup, stop.as_deref())
        });
        // A runner that works at once (or a fast thread) has the puzzle ready already.
        match pending.poll() {
            Some(outcome) => self.news = Some(self.collect(outcome)),
            None => self.making = Some(pending),
        }
    }

    /// Give up this puzzle and start making the next one with the same options. With [`Env::blocking`] the
    /// puzzle is there when this returns, and the message says so; else the message says it is being made, and
    /// it arrives at a later [`SudokuSession::poll`].
    ///
    /// # Errors
    /// With a runner that works at once: the puzzle could not be made.
    pub fn new_game(&mut self) -> Result<Message, SudokuError> {
        self.generate();
        self.news.take().unwrap_or_else(|| {
            Ok(Message::info(format!(
                "Making a {}…",
                self.setup.describe()
            )))
        })
    }

    /// Collect a finished puzzle: what to tell the player, if a puzzle came (a new game) or could not be made
    /// (the error).
    pub fn poll(&mut self) -> Option<Result<Message, SudokuError>> {
        if let Some(news) = self.news.take() {
            return Some(news);
        }
        let outcome = self.making.as_ref()?.poll()?;
        Some(self.collect(outcome))
    }

    /// Wait for the puzzle being made, if any, and collect it (as [`SudokuSession::poll`]).
    pub fn wait(&mut self) -> Option<Result<Message, SudokuError>> {
        if let Some(news) = self.news.take() {
            return Some(news);
        }
        let outcome = self.making.as_ref()?.wait();
        Some(self.collect(outcome))
    }

    /// Whether a puzzle is being made.
    pub fn busy(&self) -> bool {
        self.making.is_some()
    }

    fn collect(
        &mut self,
        outcome: Outcome<Result<Puzzle, SudokuError>>,
    ) -> Result<Message, SudokuError> {
        self.making = None;
        match outcome {
            Outcome::Done(Ok(p)) => {
                self.begin(p);
                Ok(
                    Message::info(format!("A new {}. Fill the grid.", self.setup.describe()))
                        .then(&[NextAction::Rules]),
                )
            }
            Outcome::Done(Err(e)) => Err(e),
            Outcome::Failed(why) => Err(SudokuError::GeneratorFailed(why)),
        }
    }

    /// Give up this game (or the puzzle being made) and play `puzzle`, one of the player's own (see
    /// [`Puzzle::from_text`]); the next new game is made as the setup says.
    pub fn play_puzzle(&mut self, puzzle: Puzzle) -> Message {
        self.making = None;
        self.news = None;
        let index = self.setup.index;
        let label = puzzle.label.clone();
        self.begin(puzzle);
        self.setup.index = index;
        self.dirty = true;
        Message::info(format!("{label}. Fill the grid.")).then(&[NextAction::Rules])
    }

    /// Begin playing `puzzle`.
    fn begin(&mut self, puzzle: Puzzle) {
        self.hist.reset(Board::of(puzzle.givens));
        self.puzzle = Some(puzzle);
        self.cursor = 40;
        self.mistakes = 0;
        self.counted.clear();
        self.hints = 0;
        self.hint = None;
        self.flagged.clear();
        self.end = None;
        self.dirty = false;
        let now = self.env.clock.now();
        self.watch = Stopwatch::running(Duration::ZERO, now);
        if self.paused {
            self.watch.pause(now);
        }
        self.setup.index += 1;
    }

    fn board(&self) -> &Board {
        self.hist.present()
    }

    fn is_given(&self, cell: usize) -> bool {
        self.puzzle.as_ref().is_some_and(|p| p.givens[cell] != 0)
    }

    /// The puzzle being played, and that the game is still on.
    fn playing(&self) -> Result<&Puzzle, SudokuError> {
        if let Some(end) = self.end {
            return Err(SudokuError::Over(end));
        }
        self.puzzle.as_ref().ok_or(SudokuError::Making)
    }

    fn cells_left(&self) -> usize {
        self.board().values.iter().filter(|&&v| v == 0).count()
    }

    /// The entries that are wrong ([`Puzzle::wrong_entries`]).
    fn wrong_entries(&self) -> Vec<usize> {
        self.puzzle
            .as_ref()
            .map_or_else(Vec::new, |p| p.wrong_entries(&self.board().values))
    }

    /// Record a new board as one undoable step.
    fn change(&mut self, next: Board) {
        if next != *self.board() {
            self.hist.push(next);
            self.dirty = true;
            self.hint = None;
            self.flagged.clear();
        }
    }

    /// Put `digit` in `cell` (0..81, row by row), or erase the cell with digit 0 (its digit, else its pencil
    /// marks). A digit that clashes with the same digit in its row, column or box counts as a mistake (one the
    /// solution does not have there counts only when [`SudokuSession::check`] finds it); filling the grid
    /// correctly ends the game.
    ///
    /// # Errors
    /// The game is over or not started, the cell or digit is out of range, the cell holds a clue.
    pub fn enter(&mut self, cell: usize, digit: u8) -> Result<Message, SudokuError> {
        self.enter_with(cell, digit, true)
    }

    /// [`SudokuSession::enter`], where `tidy` says whether a digit placed takes its pencil marks out of the
    /// cell's row, column and box (a player's setting, on by default; off, the marks stay as the player left
    /// them).
    ///
    /// # Errors
    /// As [`SudokuSession::enter`].
    pub fn enter_with(
        &mut self,
        cell: usize,
        digit: u8,
        tidy: bool,
    ) -> Result<Message, SudokuError> {
        let p = self.playing()?;
        if cell >= 81 {
            return Err(SudokuError::NoCell(cell));
        }
        if digit > 9 {
            return Err(SudokuError::NoDigit(digit));
        }
        if p.givens[cell] != 0 {
            return Err(SudokuError::Clue(cell));
        }
        let name = cell_name(cell);
        let mut next = self.board().clone();
        if digit == 0 {
            if next.values[cell] == 0 && next.marks[cell] == 0 && next.centre[cell] == 0 {
                return Ok(Message::info(format!("{name} is already empty")));
            }
            if next.values[cell] != 0 {
                next.values[cell] = 0;
            } else {
                next.marks[cell] = 0;
                next.centre[cell] = 0;
            }
            self.change(next);
            return Ok(Message::info(format!("{name} erased")));
        }
        if next.values[cell] == digit {
            return Ok(Message::info(format!("{name} already holds {digit}")));
        }
        next.values[cell] = digit;
        next.marks[cell] = 0;
        next.centre[cell] = 0;
        // The digit is no longer a candidate for the cell's row, column and box.
        let peers = PEERS[cell];
        if tidy {
            for other in (0..81).filter(|&o| peers & bit(o) != 0) {
                next.marks[other] &= !(1 << (digit - 1));
                next.centre[other] &= !(1 << (digit - 1));
            }
        }
        let clash = (0..81).find(|&o| peers & bit(o) != 0 && next.values[o] == digit);
        let values = next.values;
        self.change(next);
        // A clash is in plain sight: it counts at once. A digit that only the solution refuses counts when a
        // check finds it, so that the counter never gives the answer away.
        if clash.is_some() {
            self.count_mistake(cell, digit);
        }
        if values.iter().all(|&v| v != 0)
            && conflicts(&values).is_empty()
            && self.wrong_entries().is_empty()
        {
            self.end = Some(End::Solved);
            let now = self.env.clock.now();
            self.watch.pause(now);
            let t = format_duration(self.watch.elapsed(now));
            return Ok(Message::good(format!(
                "Solved in {t} with {} and {}!",
                plural(self.mistakes, "mistake"),
                plural(self.hints, "hint")
            ))
            .then(&[NextAction::NewGame]));
        }
        Ok(match clash {
            Some(o) => Message::warn(format!(
                "{digit} in {name} clashes with the {digit} in {} ({})",
                cell_name(o),
                shared_house(cell, o)
            )),
            None => Message::info(format!("{digit} in {name}")),
        })
    }

    /// Add or remove pencil mark `digit` (1..=9) in `cell`.
    ///
    /// # Errors
    /// The game is over or not started, the cell or digit is out of range, the cell holds a digit.
    pub fn toggle_mark(&mut self, cell: usize, digit: u8) -> Result<Message, SudokuError> {
        self.playing()?;
        if cell >= 81 {
            return Err(SudokuError::NoCell(cell));
        }
        if !(1..=9).contains(&digit) {
            return Err(SudokuError::NoDigit(digit));
        }
        if self.board().values[cell] != 0 {
            return Err(SudokuError::HoldsDigit(cell));
        }
        let mut next = self.board().clone();
        next.marks[cell] ^= 1 << (digit - 1);
        let on = next.marks[cell] & (1 << (digit - 1)) != 0;
        self.change(next);
        Ok(Message::info(format!(
            "Pencil mark {digit} {} {}",
            if on { "added to" } else { "removed from" },
            cell_name(cell)
        )))
    }

    /// Add or remove centre mark `digit` (1..=9) in `cell`. Centre marks are the player's notes: no hint reads
    /// them, and entering a digit clears them from the cell and the digit from its row, column and box, as it
    /// does pencil marks.
    ///
    /// # Errors
    /// The game is over or not started, the cell or digit is out of range, the cell holds a digit.
    pub fn toggle_centre_mark(&mut self, cell: usize, digit: u8) -> Result<Message, SudokuError> {
        self.playing()?;
        if cell >= 81 {
            return Err(SudokuError::NoCell(cell));
        }
        if !(1..=9).contains(&digit) {
            return Err(SudokuError::NoDigit(digit));
        }
        if self.board().values[cell] != 0 {
            return Err(SudokuError::HoldsDigit(cell));
        }
        let mut next = self.board().clone();
        next.centre[cell] ^= 1 << (digit - 1);
        let on = next.centre[cell] & (1 << (digit - 1)) != 0;
        self.change(next);
        Ok(Message::info(format!(
            "Centre mark {digit} {} {}",
            if on { "added to" } else { "removed from" },
            cell_name(cell)
        )))
    }

    /// Fill every empty cell's pencil marks with the digits its row, column and box still allow.
    ///
    /// # Errors
    /// The game is over or not started; a digit repeats in a house.
    pub fn fill_marks(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        let mut next = self.board().clone();
        let state = Candidates::from_values(&next.values).map_err(|_| SudokuError::Repeated)?;
        for cell in 0..81 {
            next.marks[cell] = if next.values[cell] == 0 {
                state.candidates(cell)
            } else {
                0
            };
        }
        if next == *self.board() {
            return Ok(Message::info("The pencil marks are already complete"));
        }
        self.change(next);
        Ok(Message::info("Pencil marks filled in for every empty cell"))
    }

    /// A typed "row column value" entry (see [`parse_rcv`]): the cursor goes to the cell and the digit in.
    ///
    /// # Errors
    /// [`SudokuError::Typed`] when the text cannot be read; then as [`SudokuSession::enter`].
    pub fn type_entry(&mut self, text: &str) -> Result<Message, SudokuError> {
        self.playing()?;
        let (r, c, v) = parse_rcv(text).map_err(SudokuError::Typed)?;
        let cell = r * 9 + c;
        self.cursor = cell;
        self.enter(cell, v)
    }

    /// Show the next hint ([`Puzzle::hint`]): a wrong entry first, then complete pencil marks that rule out the
    /// solution's digit, then the next logical step from the grid and the marks, explained. Only a step counts as
    /// a hint taken; a wrong entry it points at counts as a mistake, as a check would count it.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn hint(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        let h = self.find_hint();
        match h.kind {
            HintKind::Step => self.hints = self.hints.saturating_add(1),
            HintKind::Mistake => {
                if let Some(c) = h.cell() {
                    self.count_mistake(c, self.board().values[c]);
                }
            }
            _ => {}
        }
        self.dirty = true;
        self.hint = Some(h);
        Ok(Message::info(
            "Hint shown on the right; its cells are highlighted",
        ))
    }

    /// Carry out the hint shown: remove its pencil marks (a cell without marks first gets every digit still
    /// allowed) and place its digits. The hint is gone afterwards.
    ///
    /// # Errors
    /// The game is over or not started; no hint is shown.
    pub fn apply_hint(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        let hint = self.hint.take().ok_or(SudokuError::NoHint)?;
        if !hint.applicable() {
            return Ok(Message::info("This hint has nothing to apply"));
        }
        let mut next = self.board().clone();
        if !hint.remove.is_empty() {
            if let Ok(state) = Candidates::from_values(&next.values) {
                for &(c, _) in &hint.remove {
                    if next.marks[c] == 0 && next.values[c] == 0 {
                        next.marks[c] = state.candidates(c);
                    }
                }
            }
            for &(c, d) in &hint.remove {
                next.marks[c] &= !(1 << (d - 1));
            }
            self.change(next);
        }
        let mut last = Message::info(format!(
            "Hint applied: {} removed",
            plural(hint.remove.len() as u64, "pencil mark")
        ));
        for &(c, d) in &hint.place {
            if self.end.is_some() {
                break;
            }
            last = self.enter(c, d)?;
        }
        Ok(last)
    }

    /// Work out the next hint.
    pub(super) fn find_hint(&self) -> Hint {
        let board = self.board();
        match &self.puzzle {
            Some(p) => p.hint(&board.values, &board.marks),
            None => super::hint::hint(&board.values, &board.values, &board.marks),
        }
    }

    /// Check the grid: the wrong entries and the conflicts are flagged until the next change.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn check(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        let values = self.board().values;
        let clashes = conflicts(&values);
        let wrong = self.wrong_entries();
        let left = self.cells_left();
        for &c in &wrong {
            self.count_mistake(c, values[c]);
        }
        self.flagged = wrong.clone();
        for c in &clashes {
            if !self.flagged.contains(c) && !self.is_given(*c) {
                self.flagged.push(*c);
            }
        }
        Ok(if wrong.is_empty() && clashes.is_empty() {
            Message::good(format!(
                "Everything so far is right; {} to go",
                plural(left as u64, "cell")
            ))
        } else {
            let mut parts = Vec::new();
            if !wrong.is_empty() {
                parts.push(format!("{} wrong", plural(wrong.len() as u64, "entry")));
            }
            if !clashes.is_empty() {
                parts.push(format!(
                    "{} in conflict",
                    plural(clashes.len() as u64, "cell")
                ));
            }
            Message::warn(format!(
                "Check: {} (marked); {left} cells left",
                parts.join(", ")
            ))
        })
    }

    /// Show the solution (a solution that keeps the entries, for a classic puzzle that has several); this ends
    /// the game.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn reveal(&mut self) -> Result<Message, SudokuError> {
        let p = self.playing()?;
        let values = &self.board().values;
        let solution = if p.unique {
            p.solution
        } else {
            Grid::from_digits(*values)
                .ok()
                .and_then(|g| g.first_solution())
                .map(|g| *g.digits())
                .unwrap_or(p.solution)
        };
        self.change(Board::of(solution));
        self.end = Some(End::Revealed);
        self.watch.pause(self.env.clock.now());
        Ok(Message::info("The solution is shown.").then(&[NextAction::NewGame]))
    }

    /// Take back the last change of the grid or the marks.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn undo(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        Ok(if self.hist.undo() {
            self.after_step();
            Message::info("Undone")
        } else {
            Message::info("Nothing to undo")
        })
    }

    /// Make the last change taken back again.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn redo(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        Ok(if self.hist.redo() {
            self.after_step();
            Message::info("Redone")
        } else {
            Message::info("Nothing to redo")
        })
    }

    /// Count `digit` in `cell` as a mistake, once: the counter stops at its maximum rather than wrapping.
    fn count_mistake(&mut self, cell: usize, digit: u8) {
        if !self.counted.contains(&(cell, digit)) {
            self.counted.push((cell, digit));
            self.mistakes = self.mistakes.saturating_add(1);
            self.dirty = true;
        }
    }

    fn after_step(&mut self) {
        self.hint = None;
        self.flagged.clear();
        self.dirty = true;
    }

    /// Switch between entering digits and pencil marks.
    pub fn toggle_pencil(&mut self) -> Message {
        self.pencil = !self.pencil;
        if self.pencil {
            Message::info("Pencil mode: digits now toggle pencil marks")
                .then(&[NextAction::DigitMode])
        } else {
            Message::info("Digit mode: digits now fill cells").then(&[NextAction::PencilMode])
        }
    }

    /// Show conflicting digits, or stop.
    pub fn toggle_conflicts(&mut self) -> Message {
        self.show_conflicts = !self.show_conflicts;
        Message::info(if self.show_conflicts {
            "Conflicting digits are highlighted"
        } else {
            "Conflicts are no longer highlighted"
        })
    }

    /// Put the cursor on `cell`.
    ///
    /// # Errors
    /// [`SudokuError::NoCell`] past cell 80.
    pub fn set_cursor(&mut self, cell: usize) -> Result<(), SudokuError> {
        if cell >= 81 {
            return Err(SudokuError::NoCell(cell));
        }
        self.cursor = cell;
        Ok(())
    }

    /// Move the cursor.
    pub fn move_cursor(&mut self, dir: Direction) {
        let (r, c) = (self.cursor / 9, self.cursor % 9);
        let (r, c) = match dir {
            Direction::Up => ((r + 8) % 9, c),
            Direction::Down => ((r + 1) % 9, c),
            Direction::Left => (r, (c + 8) % 9),
            Direction::Right => (r, (c + 1) % 9),
            Direction::Home => (r, 0),
            Direction::End => (r, 8),
        };
        self.cursor = r * 9 + c;
    }

    /// Put the digit (or with pencil mode on, the pencil mark) in the cursor's cell.
    ///
    /// # Errors
    /// As [`SudokuSession::enter`] and [`SudokuSession::toggle_mark`].
    pub fn enter_at_cursor(&mut self, digit: u8) -> Result<Message, SudokuError> {
        if self.pencil && digit != 0 {
            self.toggle_mark(self.cursor, digit)
        } else {
            self.enter(self.cursor, digit)
        }
    }

    /// Stop the timer (the game is covered by a help screen, a question) or let it run again.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        let now = self.env.clock.now();
        if paused {
            self.watch.pause(now);
        } else if self.end.is_none() && self.puzzle.is_some() {
            self.watch.resume(now);
        }
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The options of this game and the next.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The puzzle, once made.
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.puzzle.as_ref()
    }

    /// The hint shown, if any.
    pub fn shown_hint(&self) -> Option<&Hint> {
        self.hint.as_ref()
    }

    /// The cursor's cell.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Whether digits go in as pencil marks.
    pub fn pencil(&self) -> bool {
        self.pencil
    }

    /// Time played.
    pub fn elapsed(&self) -> Duration {
        self.watch.elapsed(self.env.clock.now())
    }

    /// Whether something changed since the start or the last [`SudokuSession::mark_saved`] (and the game is on).
    pub fn unsaved(&self) -> bool {
        self.dirty && self.end.is_none()
    }

    /// Note that the game was just saved.
    pub fn mark_saved(&mut self) {
        self.dirty = false;
    }

    /// The whole state, for drawing.
    pub fn view(&self) -> SudokuView {
        let b = self.board();
        let p = self.puzzle.as_ref();
        SudokuView {
            setup: self.setup.clone(),
            describe: self.setup.describe(),
            making: self.making.is_some(),
            ready: self.puzzle.is_some(),
            label: p.map(|p| p.label.clone()).unwrap_or_default(),
            unique: p.is_some_and(|p| p.unique),
            givens: p.map_or_else(|| vec![0; 81], |p| p.givens.to_vec()),
            values: b.values.to_vec(),
            marks: b.marks.to_vec(),
            centre: b.centre.to_vec(),
            cursor: self.cursor,
            pencil: self.pencil,
            show_conflicts: self.show_conflicts,
            conflicts: conflicts(&b.values),
            flagged: self.flagged.clone(),
            hint: self.hint.clone(),
            end: self.end,
            cells_left: self.cells_left(),
            mistakes: self.mistakes,
            hints: self.hints,
            elapsed_ms: u64::try_from(self.elapsed().as_millis()).unwrap_or(u64::MAX),
            running: self.watch.is_running(),
            can_undo: self.hist.can_undo(),
            can_redo: self.hist.can_redo(),
        }
    }
}

impl Refusal for SudokuError {
    fn message(&self) -> Message {
        SudokuError::message(self)
    }
}

impl GameSession for SudokuSession {
    const KIND: GameKind = GameKind::Sudoku;
    type View = SudokuView;
    type Error = SudokuError;

    fn to_state(&self) -> serde_json::Value {
        SudokuSession::to_state(self)
    }
    fn from_state(state: &serde_json::Value, env: &Env) -> Result<Self, String> {
        SudokuSession::from_state(state, env)
    }
    fn view(&self) -> SudokuView {
        SudokuSession::view(self)
    }
    /// Nothing: a sudoku says how it ended when it ends (with the time), and a resumed one opens quietly.
    fn standing(&self) -> Option<Message> {
        None
    }
    fn in_play(&self) -> bool {
        self.puzzle.is_some() && self.end.is_none()
    }
    fn new_game(&mut self) -> Result<Message, SudokuError> {
        SudokuSession::new_game(self)
    }
    fn undo(&mut self) -> Result<Message, SudokuError> {
        SudokuSession::undo(self)
    }
    fn redo(&mut self) -> Result<Message, SudokuError> {
        SudokuSession::redo(self)
    }
    fn hint(&mut self) -> Result<Message, SudokuError> {
        SudokuSession::hint(self)
    }
    fn poll(&mut self) -> Option<Result<Message, SudokuError>> {
        SudokuSession::poll(self)
    }
    /// Waits for the puzzle being made, however long that takes: it takes milliseconds, and stops when the
    /// [`Env`]'s `stop` flag is raised.
    fn settle(&mut self, _limit: Option<Duration>) -> Option<Result<Message, SudokuError>> {
        self.wait()
    }
    fn busy(&self) -> bool {
        SudokuSession::busy(self)
    }
    fn unsaved(&self) -> bool {
        SudokuSession::unsaved(self)
    }
    fn mark_saved(&mut self) {
        SudokuSession::mark_saved(self);
    }
}
