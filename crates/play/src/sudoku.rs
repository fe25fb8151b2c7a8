//! A sudoku in progress: graded puzzles from the generator or the classic ZX-81 shuffle, digits and pencil
//! marks with undo and redo, conflicts, mistakes counted, hints from the logical solver that explain themselves,
//! check, show the solution, a timer.
//!
//! Every rule lives in the `sudoku` crate: the generator makes the puzzle, the solver decides whether the entries
//! still lead to a solution, the logical solver finds and explains hints (the same hint as `boardlab sudoku
//! hint` for the same grid: both ask [`sudoku::rate::hint_from`]). This module keeps the player's grid and marks.
//!
//! ```
//! use play::Env;
//! use play::sudoku::{Setup, SudokuSession};
//!
//! let mut game = SudokuSession::new(Setup::default(), &Env::blocking())?;
//! while game.end().is_none() {
//!     game.hint()?; // show the next step...
//!     game.apply_hint()?; // ...and carry it out (a medium puzzle never needs guessing)
//! }
//! assert!(game.view().cells_left == 0);
//! # Ok::<(), play::sudoku::SudokuError>(())
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sudoku::Grid;
use sudoku::classic::{self, ClassicOptions};
use sudoku::generate::{self, Difficulty, GenerateOptions, Symmetry};
use sudoku::logic::Candidates;
use sudoku::logic::tables::{PEERS, bit, cell_name, house_name};
use sudoku::rate::{self, Hint as EngineHint};
use sudoku::rng::Rng;

use crate::clock::{Stopwatch, format_duration};
use crate::history::History;
use crate::options::{Choice, value_of};
use crate::save::{SaveFile, field};
use crate::text::plural;
use crate::work::{Outcome, Pending, submit};
use crate::{Env, GameKind, Message, Tone};

/// The numbers of cells the classic mode can hide (the ZX-81 hid 27).
pub const CLASSIC_HIDE: [usize; 4] = [27, 36, 45, 54];

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "Fill every empty cell with a digit from 1 to 9 so that each row, each column and each of the nine 3x3 \
     boxes holds every digit exactly once. The clues (bold) cannot be changed.",
    "Cells are named r<row>c<column>: r3c5 is row 3, column 5; rows are numbered down the left, columns along \
     the top. Pencil marks note the digits a cell may still take; a fills them all in, and entering a digit \
     removes it from the marks of its row, column and box.",
    "A mistake is counted when a digit you enter clashes with the same digit in its row, column or box, and when \
     a check (k) finds an entry the solution does not have there (each wrong entry once): typing a digit never \
     tells you by itself whether it is right. Graded puzzles have exactly one solution and never need guessing; classic puzzles, made the ZX-81 way, may have several, and \
     any grid that keeps the rules counts as solved.",
];

/// How puzzles are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The graded generator: unique puzzles at a difficulty.
    Graded,
    /// The classic method: a valid grid shuffled, cells hidden.
    Classic,
}

/// Everything that decides the next puzzle (saved as it is).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Graded or classic.
    pub mode: Mode,
    /// The level of graded puzzles (a [`Difficulty`] name).
    pub difficulty: String,
    /// The symmetry of graded puzzles' clues (a [`Symmetry`] name).
    pub symmetry: String,
    /// How many cells the classic mode hides.
    pub hide: usize,
    /// Whether the classic mode keeps the solution unique.
    #[serde(default)]
    pub unique: bool,
    /// The generator's seed.
    pub seed: u64,
    /// The number of the next puzzle under that seed.
    pub index: u64,
}

impl Default for Setup {
    /// A medium graded puzzle with the half-turn symmetry, seed 1.
    fn default() -> Setup {
        Setup {
            mode: Mode::Graded,
            difficulty: Difficulty::Medium.name().to_string(),
            symmetry: Symmetry::Rotate180.name().to_string(),
            hide: CLASSIC_HIDE[0],
            unique: false,
            seed: 1,
            index: 0,
        }
    }
}

impl Setup {
    /// The setup the options `choices` describe (as returned by [`choices`], possibly changed), with `seed`.
    ///
    /// # Errors
    /// [`SudokuError::Setup`] when a value is not one the generator knows.
    pub fn from_choices(choices: &[Choice], seed: u64) -> Result<Setup, SudokuError> {
        let get =
            |label: &str, default: &str| value_of(choices, label).unwrap_or(default).to_string();
        let mode = if get("Puzzles", "graded") == "classic" {
            Mode::Classic
        } else {
            Mode::Graded
        };
        let setup = Setup {
            mode,
            difficulty: get("Difficulty", "medium"),
            symmetry: get("Symmetry", "180"),
            hide: get("Hidden cells", "27").parse().unwrap_or(27),
            unique: get("Unique", "no") == "yes",
            seed,
            index: 0,
        };
        setup.check()?;
        Ok(setup)
    }

    /// Check the names and numbers.
    ///
    /// # Errors
    /// [`SudokuError::Setup`] naming the unknown difficulty or symmetry.
    pub fn check(&self) -> Result<(), SudokuError> {
        self.difficulty_level()?;
        self.symmetry_kind()?;
        Ok(())
    }

    fn difficulty_level(&self) -> Result<Difficulty, SudokuError> {
        self.difficulty
            .parse()
            .map_err(|e: generate::UnknownName| SudokuError::Setup(e.to_string()))
    }

    fn symmetry_kind(&self) -> Result<Symmetry, SudokuError> {
        self.symmetry
            .parse()
            .map_err(|e: generate::UnknownName| SudokuError::Setup(e.to_string()))
    }

    /// "medium puzzle" or "classic puzzle (27 hidden)".
    pub fn describe(&self) -> String {
        match self.mode {
            Mode::Graded => format!("{} puzzle", self.difficulty),
            Mode::Classic => format!("classic puzzle ({} hidden)", self.hide),
        }
    }
}

/// The options of a sudoku, with their default values, for a menu.
pub fn choices() -> Vec<Choice> {
    vec![
        Choice::new(
            "Puzzles",
            vec!["graded".into(), "classic".into()],
            0,
            "graded: puzzles made to a difficulty, rated on Sudoku Explainer's scale, each with exactly one \
             solution. classic: the ZX-81 way, a valid grid shuffled (digits relabelled; rows, columns, bands \
             and stacks swapped; turned) and then cells hidden.",
        ),
        Choice::new(
            "Difficulty",
            Difficulty::ALL
                .iter()
                .map(|d| d.name().to_string())
                .collect(),
            2,
            "For graded puzzles. Beginner needs only singles; easy up to naked singles; medium locked \
             candidates, pairs and X-Wings; hard triples, Swordfish, XY-Wings; expert chains (never \
             guessing).",
        ),
        Choice::new(
            "Symmetry",
            Symmetry::ALL.iter().map(|s| s.name().to_string()).collect(),
            1,
            "For graded puzzles: the symmetry of the pattern of clues (180 is the newspaper half turn).",
        ),
        Choice::new(
            "Hidden cells",
            CLASSIC_HIDE.iter().map(ToString::to_string).collect(),
            0,
            "For classic puzzles: how many cells are hidden (the ZX-81 hid 27).",
        ),
        Choice::new(
            "Unique",
            vec!["no".into(), "yes".into()],
            0,
            "For classic puzzles: no hides cells at random, as the ZX-81 did, so a puzzle may have several \
             solutions (any grid that keeps the rules wins); yes hides only cells that keep the solution \
             unique.",
        ),
    ]
}

/// A puzzle and what is known about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The clues, row by row, `0` for an empty cell.
    #[serde(with = "digits81")]
    pub givens: [u8; 81],
    /// A solution: the unique one, or for a classic puzzle that may have several, the grid it was made from.
    #[serde(with = "digits81")]
    pub solution: [u8; 81],
    /// Whether the solution is known to be the only one.
    pub unique: bool,
    /// How it is described, e.g. "medium · SE 3.2 · 26 clues".
    pub label: String,
}

impl Puzzle {
    /// Make the puzzle `setup` describes (this is the work a new game hands to the runner).
    ///
    /// # Errors
    /// The generator's message, or [`SudokuError::Setup`] for a setup that [`Setup::check`] refuses.
    pub fn make(setup: &Setup) -> Result<Puzzle, SudokuError> {
        let failed = |e: String| SudokuError::NoPuzzle(e);
        match setup.mode {
            Mode::Graded => {
                let opts = GenerateOptions {
                    difficulty: setup.difficulty_level()?,
                    symmetry: setup.symmetry_kind()?,
                };
                let g = generate::generate(&opts, setup.seed, setup.index)
                    .map_err(|e| failed(e.to_string()))?;
                Ok(Puzzle {
                    givens: g.puzzle,
                    solution: g.solution,
                    unique: true,
                    label: format!(
                        "{} · SE {} · {} clues",
                        g.difficulty.name(),
                        g.rating,
                        g.clues
                    ),
                })
            }
            Mode::Classic => {
                let opts = ClassicOptions {
                    hide: setup.hide,
                    unique: setup.unique,
                };
                let mut rng = Rng::for_item(setup.seed, setup.index);
                let c = classic::classic(&opts, &mut rng).map_err(|e| failed(e.to_string()))?;
                let unique = match c.unique {
                    Some(u) => u,
                    None => Grid::from_digits(c.puzzle).is_ok_and(|g| g.count_solutions(2) == 1),
                };
                Ok(Puzzle {
                    givens: c.puzzle,
                    solution: c.solution,
                    unique,
                    label: format!("classic · {} clues", 81 - setup.hide),
                })
            }
        }
    }

    /// A puzzle from its clues (a pasted grid), labelled `label`.
    ///
    /// # Errors
    /// [`SudokuError::BadPuzzle`] when a clue repeats in a house or the grid has no solution.
    pub fn from_givens(givens: [u8; 81], label: impl Into<String>) -> Result<Puzzle, SudokuError> {
        let bad = |e: String| SudokuError::BadPuzzle(e);
        let grid = Grid::from_digits(givens).map_err(|e| bad(e.to_string()))?;
        let solution = grid
            .first_solution()
            .ok_or_else(|| bad("it has no solution".into()))?;
        Ok(Puzzle {
            givens,
            solution: *solution.digits(),
            unique: grid.count_solutions(2) == 1,
            label: label.into(),
        })
    }

    /// A puzzle of the player's own, from text in any form `boardlab sudoku` reads (an 81-character line with
    /// `.` or `0` for an empty cell, or a block of 9 lines), checked as `boardlab sudoku hint` checks a grid: a
    /// repeated clue or a grid with no solution is refused with the cells to blame.
    ///
    /// # Errors
    /// [`SudokuError::BadPuzzle`] with the reason: the text is not a grid, a clue repeats in a house, the grid
    /// has no solution.
    pub fn from_text(text: &str, label: impl Into<String>) -> Result<Puzzle, SudokuError> {
        let grid = Grid::parse(text).map_err(|e| SudokuError::BadPuzzle(e.to_string()))?;
        if grid.first_conflict().is_none() && sudoku::solver::count_solutions(&grid, 1) == 0 {
            return Err(SudokuError::BadPuzzle(no_solution_reason(&grid)));
        }
        Puzzle::from_givens(*grid.digits(), label)
    }

    /// Check a puzzle read from a save.
    fn check(&self) -> Result<(), String> {
        let sol = Grid::from_digits(self.solution).map_err(|e| format!("the solution: {e}"))?;
        if !sol.is_solved() {
            return Err("the solution is not a complete valid grid".into());
        }
        Grid::from_digits(self.givens).map_err(|e| format!("the clues: {e}"))?;
        if let Some(c) =
            (0..81).find(|&c| self.givens[c] != 0 && self.givens[c] != self.solution[c])
        {
            return Err(format!(
                "the clue in {} disagrees with the solution",
                cell_name(c)
            ));
        }
        Ok(())
    }
}

/// The undoable part of the game: the digits in the grid (clues included), the pencil marks (the candidates
/// a player notes in a cell's corners) and the centre marks (notes of the player's own: which digits a pair or
/// a triple of cells shares, say; no rule reads them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Board {
    #[serde(with = "digits81")]
    values: [u8; 81],
    #[serde(with = "marks81")]
    marks: [u16; 81],
    /// Saved since format version 2, and only when a cell has one.
    #[serde(
        with = "marks81",
        default = "no_marks",
        skip_serializing_if = "no_mark_set"
    )]
    centre: [u16; 81],
}

fn no_marks() -> [u16; 81] {
    [0; 81]
}

fn no_mark_set(m: &[u16; 81]) -> bool {
    m.iter().all(|&x| x == 0)
}

impl Board {
    fn of(values: [u8; 81]) -> Board {
        Board {
            values,
            marks: [0; 81],
            centre: [0; 81],
        }
    }

    /// Check a board read from a save against its puzzle.
    fn check(&self, p: &Puzzle) -> Result<(), String> {
        if let Some(c) = (0..81).find(|&c| p.givens[c] != 0 && self.values[c] != p.givens[c]) {
            return Err(format!("the clue in {} was changed", cell_name(c)));
        }
        if let Some(c) = (0..81).find(|&c| self.values[c] > 9) {
            return Err(format!("{} holds {}", cell_name(c), self.values[c]));
        }
        if let Some(c) = (0..81).find(|&c| self.marks[c] > 0x1ff) {
            return Err(format!(
                "the pencil marks of {} are out of range",
                cell_name(c)
            ));
        }
        if let Some(c) = (0..81).find(|&c| self.centre[c] > 0x1ff) {
            return Err(format!(
                "the centre marks of {} are out of range",
                cell_name(c)
            ));
        }
        Ok(())
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// The player filled the grid correctly.
    Solved,
    /// The player asked to see the solution.
    Revealed,
}

/// A hint: what it asks the player to look at, and what applying it would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// The sentence.
    pub text: String,
    /// The cells of the pattern.
    pub pattern: Vec<usize>,
    /// The cells that change (placements and eliminations).
    pub targets: Vec<usize>,
    /// Digits to place, (cell, digit).
    pub place: Vec<(usize, u8)>,
    /// Pencil marks to remove, (cell, digit).
    pub remove: Vec<(usize, u8)>,
}

impl Hint {
    /// A hint that only points at cells.
    fn pointing(text: String, pattern: Vec<usize>) -> Hint {
        Hint {
            text,
            pattern,
            targets: Vec::new(),
            place: Vec::new(),
            remove: Vec::new(),
        }
    }

    /// Whether applying it changes the grid.
    pub fn applicable(&self) -> bool {
        !self.place.is_empty() || !self.remove.is_empty()
    }
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

/// Why an action was refused. Each message is one line and names the cell or the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SudokuError {
    /// The options name something the generator does not know.
    #[error("{0}")]
    Setup(String),
    /// The puzzle could not be made (the generator's message).
    #[error("No puzzle: {0}")]
    NoPuzzle(String),
    /// The generator stopped without a puzzle (it panicked: its message).
    #[error("The generator failed: {0}")]
    GeneratorFailed(String),
    /// A pasted puzzle cannot be played.
    #[error("the puzzle cannot be played: {0}")]
    BadPuzzle(String),
    /// The puzzle is still being made.
    #[error("The puzzle is still being made")]
    Making,
    /// The game is over.
    #[error("{}", match .0 {
        End::Solved => "The puzzle is solved. n for a new one, q for the title screen.",
        End::Revealed => "The solution is shown. n for a new puzzle, q for the title screen.",
    })]
    Over(End),
    /// A cell number out of range.
    #[error("there is no cell {0}: cells are numbered 0 to 80, row by row")]
    NoCell(usize),
    /// A digit out of range.
    #[error("{0} is not a digit from 1 to 9")]
    NoDigit(u8),
    /// The cell holds a clue.
    #[error("{} is a clue; it cannot be changed", cell_name(*.0))]
    Clue(usize),
    /// A pencil mark in a cell that holds a digit.
    #[error("{} holds a digit; erase it before pencilling", cell_name(*.0))]
    HoldsDigit(usize),
    /// Automatic marks with a digit repeated in a house.
    #[error("The grid has a repeated digit; fix the conflict before filling the marks")]
    Repeated,
    /// A typed "row column value" that cannot be read.
    #[error("{0}")]
    Typed(String),
    /// "apply the hint" with no hint shown.
    #[error("No hint is shown: ask for one first")]
    NoHint,
}

impl SudokuError {
    /// How the message should be taken.
    pub fn tone(&self) -> Tone {
        match self {
            SudokuError::Over(_) | SudokuError::Making | SudokuError::NoHint => Tone::Info,
            SudokuError::Clue(_) | SudokuError::HoldsDigit(_) | SudokuError::Repeated => Tone::Warn,
            _ => Tone::Error,
        }
    }

    /// The error as a message to show.
    pub fn message(&self) -> Message {
        Message::new(self.to_string(), self.tone())
    }
}

/// A sudoku in progress.
#[derive(Debug)]
pub struct SudokuSession {
    env: Env,
    setup: Setup,
    puzzle: Option<Puzzle>,
    making: Option<Pending<Result<Puzzle, SudokuError>>>,
    /// What to tell the player about a puzzle made at once, until [`SudokuSession::poll`] takes it.
    news: Option<Result<Message, SudokuError>>,
    hist: History<Board>,
    cursor: usize,
    pencil: bool,
    show_conflicts: bool,
    mistakes: u32,
    /// The wrong entries (cell, digit) already counted as mistakes, so that a check counts each only once.
    counted: Vec<(usize, u8)>,
    hints: u32,
    hint: Option<Hint>,
    /// Entries flagged wrong by the last check (cleared by the next change).
    flagged: Vec<usize>,
    end: Option<End>,
    watch: Stopwatch,
    paused: bool,
    dirty: bool,
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

    fn empty(setup: Setup, env: &Env) -> SudokuSession {
        SudokuSession {
            env: env.clone(),
            setup,
            puzzle: None,
            making: None,
            news: None,
            hist: History::new(Board::of([0; 81])),
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
    fn generate(&mut self) {
        let setup = self.setup.clone();
        self.puzzle = None;
        self.hint = None;
        self.news = None;
        let pending = submit(&*self.env.runner, move || Puzzle::make(&setup));
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
                Ok(Message::info(format!(
                    "A new {}. Fill the grid; ? shows the rules.",
                    self.setup.describe()
                )))
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
        Message::info(format!("{label}. Fill the grid; ? shows the rules."))
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

    /// Whether the clues with these entries still have a solution.
    fn solvable(values: &[u8; 81]) -> bool {
        Grid::from_digits(*values).is_ok_and(|g| g.count_solutions(1) > 0)
    }

    /// The entries that are wrong: against the unique solution, or for a classic puzzle whose entries no longer
    /// lead to any solution, against the grid it was made from.
    fn wrong_entries(&self) -> Vec<usize> {
        let Some(p) = &self.puzzle else {
            return Vec::new();
        };
        let values = &self.board().values;
        if !p.unique && Self::solvable(values) {
            return Vec::new();
        }
        (0..81)
            .filter(|&c| p.givens[c] == 0 && values[c] != 0 && values[c] != p.solution[c])
            .collect()
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
        for other in (0..81).filter(|&o| peers & bit(o) != 0) {
            next.marks[other] &= !(1 << (digit - 1));
            next.centre[other] &= !(1 << (digit - 1));
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
                "Solved in {t} with {} and {}! n for a new puzzle.",
                plural(self.mistakes, "mistake"),
                plural(self.hints, "hint")
            )));
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

    /// Show the next hint (it counts as one): a wrong entry first, then pencil marks that leave out the
    /// solution's digit, then the next logical step from the grid and the marks, explained.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn hint(&mut self) -> Result<Message, SudokuError> {
        self.playing()?;
        let h = self.find_hint();
        self.hints = self.hints.saturating_add(1);
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
    fn find_hint(&self) -> Hint {
        let board = self.board();
        if let Some(&c) = self.wrong_entries().first() {
            return Hint::pointing(
                format!(
                    "The {} in {} is wrong: the solution has another digit there. Erase it or undo.",
                    board.values[c],
                    cell_name(c)
                ),
                vec![c],
            );
        }
        if let Some(p) = &self.puzzle
            && p.unique
            && let Some(c) = (0..81).find(|&c| {
                board.values[c] == 0
                    && board.marks[c] != 0
                    && board.marks[c] & (1 << (p.solution[c] - 1)) == 0
            })
        {
            return Hint::pointing(
                format!(
                    "Your pencil marks in {} leave out the digit that belongs there; a refills every cell's marks.",
                    cell_name(c)
                ),
                vec![c],
            );
        }
        hint_for_marks(&board.values, &board.marks)
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
        Ok(Message::info("The solution is shown. n for a new puzzle."))
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
        Message::info(if self.pencil {
            "Pencil mode: digits now toggle pencil marks (p for digits)"
        } else {
            "Digit mode: digits now fill cells (p for pencil marks)"
        })
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

    /// The game's state for a save file (the `state` of a [`SaveFile`]).
    pub fn to_state(&self) -> serde_json::Value {
        let mut state = serde_json::json!({
            "setup": self.setup,
            "puzzle": self.puzzle,
            "board": self.hist.present(),
            "undo": self.hist.past(),
            "redo": self.hist.future(),
            "cursor": self.cursor,
            "pencil": self.pencil,
            "conflicts": self.show_conflicts,
            "mistakes": self.mistakes,
            "hints": self.hints,
            "end": self.end,
            "elapsed_ms": u64::try_from(self.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        // Since format version 2, and only while a hint is shown (so a game without one saves as before).
        if self.hint.is_some()
            && let Some(obj) = state.as_object_mut()
        {
            obj.insert("hint".into(), true.into());
        }
        // Written only when there is something in it, so that a save of the first release saves back unchanged.
        if !self.counted.is_empty()
            && let Some(obj) = state.as_object_mut()
        {
            obj.insert("counted".into(), serde_json::json!(self.counted));
        }
        state
    }

    /// The game as a save file.
    pub fn save(&self) -> SaveFile {
        SaveFile::new(GameKind::Sudoku, self.to_state())
    }

    /// Rebuild a saved game from its state, checking everything: the setup, the puzzle against its solution,
    /// every grid of the undo and redo history against the clues.
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the cell.
    pub fn from_state(state: &serde_json::Value, env: &Env) -> Result<SudokuSession, String> {
        let setup: Setup = field(state, "setup")?;
        setup.check().map_err(|e| e.to_string())?;
        // A game saved while its puzzle was still being made has no puzzle yet: nothing was played, so it
        // resumes by making one, as a new game does.
        let puzzle: Option<Puzzle> = field(state, "puzzle")?;
        let Some(puzzle) = puzzle else {
            let mut s = SudokuSession::empty(setup, env);
            s.generate();
            return Ok(s);
        };
        puzzle.check()?;
        let board: Board = field(state, "board")?;
        board.check(&puzzle).map_err(|e| format!("the grid: {e}"))?;
        let undo: Vec<Board> = field(state, "undo")?;
        for (i, b) in undo.iter().enumerate() {
            b.check(&puzzle)
                .map_err(|e| format!("undo step {}: {e}", i + 1))?;
        }
        let redo: Vec<Board> = field(state, "redo")?;
        for (i, b) in redo.iter().enumerate() {
            b.check(&puzzle)
                .map_err(|e| format!("redo step {}: {e}", i + 1))?;
        }
        let cursor: usize = field(state, "cursor")?;
        if cursor >= 81 {
            return Err(format!("the cursor is at cell {cursor}; cells are 0 to 80"));
        }
        let end: Option<End> = field(state, "end")?;
        if let Some(end) = end {
            let what = match end {
                End::Solved => "solved",
                End::Revealed => "revealed",
            };
            if let Some(c) = board.values.iter().position(|&v| v == 0) {
                return Err(format!(
                    "the game is marked {what}, but {} is empty",
                    cell_name(c)
                ));
            }
            if let Some(&c) = conflicts(&board.values).first() {
                return Err(format!(
                    "the game is marked {what}, but {} clashes with another cell",
                    cell_name(c)
                ));
            }
            if puzzle.unique
                && let Some(c) = (0..81).find(|&c| board.values[c] != puzzle.solution[c])
            {
                return Err(format!(
                    "the game is marked {what}, but {} is not the solution's digit",
                    cell_name(c)
                ));
            }
        }
        let elapsed: u64 = field(state, "elapsed_ms")?;
        let mut s = SudokuSession::empty(setup, env);
        s.puzzle = Some(puzzle);
        s.hist = History::from_parts(undo, board, redo);
        s.cursor = cursor;
        s.pencil = field(state, "pencil")?;
        s.show_conflicts = field(state, "conflicts")?;
        s.mistakes = field(state, "mistakes")?;
        // Saves written before mistakes were counted at checks have no list: their counter stands as it is.
        if state.get("counted").is_some() {
            let counted: Vec<(usize, u8)> = field(state, "counted")?;
            if let Some(&(c, d)) = counted
                .iter()
                .find(|&&(c, d)| c >= 81 || !(1..=9).contains(&d))
            {
                return Err(format!(
                    "the field \"counted\" is wrong: ({c}, {d}) is not a cell 0-80 and a digit 1-9"
                ));
            }
            s.counted = counted;
        }
        s.hints = field(state, "hints")?;
        s.end = end;
        // Since format version 2: a hint shown when the game was saved is shown again (it is worked out from
        // the grid and the marks, so it is the same hint, and it is not counted twice).
        let hint: Option<bool> = state
            .get("hint")
            .map(|v| serde_json::from_value(v.clone()))
            .transpose()
            .map_err(|e| format!("the field \"hint\" is wrong: {e}"))?;
        if hint == Some(true) && s.end.is_none() {
            s.hint = Some(s.find_hint());
        }
        let now = env.clock.now();
        s.watch = Stopwatch::running(Duration::from_millis(elapsed), now);
        if s.end.is_some() {
            s.watch.pause(now);
        }
        Ok(s)
    }
}

/// Why a grid without a repeated digit has no solution: the entries whose removal alone makes it solvable
/// (one of them is wrong; when only one of them leaves a grid with exactly one solution, that one), or, when
/// no single entry is to blame, just that.
pub fn no_solution_reason(grid: &Grid) -> String {
    // For each entry: the number of solutions (0, 1 or 2 for "more") of the grid without it.
    let counts: Vec<(usize, u64)> = (0..81)
        .filter(|&cell| grid.digits()[cell] != 0)
        .map(|cell| {
            let mut without = *grid.digits();
            without[cell] = 0;
            let n = Grid::from_digits_allow_conflicts(without)
                .map_or(0, |g| sudoku::solver::count_solutions(&g, 2));
            (cell, n)
        })
        .filter(|&(_, n)| n > 0)
        .collect();
    let name = |cell: usize| format!("{} in {}", grid.digits()[cell], cell_name(cell));
    let unique: Vec<usize> = counts.iter().filter(|c| c.1 == 1).map(|c| c.0).collect();
    if let [one] = unique.as_slice() {
        return format!(
            "the grid has no solution: the {} is wrong (without it the grid has exactly one solution)",
            name(*one)
        );
    }
    let blamed: Vec<String> = counts.iter().map(|c| name(c.0)).collect();
    match blamed.as_slice() {
        [] => "the grid has no solution, and no single entry is to blame (several are wrong)"
            .to_string(),
        [one] => format!(
            "the grid has no solution: the {one} is wrong (without it the grid can be solved)"
        ),
        many if many.len() <= 9 => format!(
            "the grid has no solution: one of these entries is wrong (without any one of them it can be \
             solved): {}",
            many.join(", ")
        ),
        many => format!(
            "the grid has no solution: an entry is wrong ({} entries could be: without any one of them it can \
             be solved)",
            many.len()
        ),
    }
}

/// The logical solver's next step for a grid with pencil marks (a cell without marks counts as every digit):
/// the one question behind the terminal's hint ([`hint_for_marks`]) and `boardlab sudoku hint` (which asks it
/// with no marks), so both give the same step for the same grid.
pub fn next_step(values: &[u8; 81], marks: &[u16; 81]) -> EngineHint {
    let mut all = *marks;
    for m in all.iter_mut() {
        if *m == 0 {
            *m = 0x1ff;
        }
    }
    match Candidates::from_pencil_marks(values, &all) {
        Ok(state) => rate::hint_from(&state),
        Err(c) => EngineHint::Contradiction(c),
    }
}

/// The next logical step for a grid with pencil marks (a cell without marks counts as every digit), as a hint
/// to show: [`next_step`] put in words, with the cells it involves.
pub fn hint_for_marks(values: &[u8; 81], marks: &[u16; 81]) -> Hint {
    match next_step(values, marks) {
        EngineHint::Step(step) => {
            let place: Vec<(usize, u8)> = step
                .placements
                .iter()
                .map(|p| (usize::from(p.cell), p.digit))
                .collect();
            let remove: Vec<(usize, u8)> = step
                .eliminations
                .iter()
                .map(|e| (usize::from(e.cell), e.digit))
                .collect();
            let mut targets: Vec<usize> = place.iter().chain(&remove).map(|&(c, _)| c).collect();
            targets.sort_unstable();
            targets.dedup();
            let mut pattern: Vec<usize> = step
                .cells
                .iter()
                .map(|&c| usize::from(c))
                .chain(step.highlights.iter().map(|h| usize::from(h.cell)))
                .filter(|c| !targets.contains(c))
                .collect();
            pattern.sort_unstable();
            pattern.dedup();
            Hint {
                text: format!("{step}."),
                pattern,
                targets,
                place,
                remove,
            }
        }
        EngineHint::Solved => Hint::pointing("The grid is complete.".into(), Vec::new()),
        EngineHint::Stuck => Hint::pointing(
            "No logical step is left from here: the rest needs guessing (or the grid is complete)."
                .into(),
            Vec::new(),
        ),
        EngineHint::Contradiction(c) => contradiction(c),
        // Only `rate::hint_for` reports mistakes; the session looks for them itself first.
        EngineHint::Mistake { cell, digit } => Hint::pointing(
            format!(
                "The {digit} in {} is wrong: the solution has another digit there. Erase it or undo.",
                cell_name(cell)
            ),
            vec![cell],
        ),
    }
}

/// A hint about a grid that has no solution any more.
fn contradiction(c: sudoku::logic::Conflict) -> Hint {
    let text = if c.digit == 0 {
        format!(
            "{} has no possible digit left: something above is wrong. Undo, or check the grid for mistakes.",
            cell_name(c.cell)
        )
    } else {
        format!(
            "{} cannot be {}: a peer already holds it. Something above is wrong: undo, or check the grid for mistakes.",
            cell_name(c.cell),
            c.digit
        )
    };
    Hint::pointing(text, vec![c.cell])
}

/// Cells whose digit repeats in their row, column or box.
pub fn conflicts(values: &[u8; 81]) -> Vec<usize> {
    (0..81)
        .filter(|&c| {
            let v = values[c];
            v != 0 && (0..81).any(|o| PEERS[c] & bit(o) != 0 && values[o] == v)
        })
        .collect()
}

/// The house two cells that see each other share, for messages ("row 1", "column 3", "box 9").
fn shared_house(a: usize, b: usize) -> String {
    use sudoku::logic::tables::CELL_HOUSES;
    CELL_HOUSES[a]
        .iter()
        .find(|h| CELL_HOUSES[b].contains(h))
        .map_or_else(String::new, |&h| house_name(usize::from(h)))
}

/// Parse "row column value": three digits, with or without separators ("357", "3 5 7", "3,5,7", "r3c5=7",
/// "r3c5 7"). Value 0 erases. Returns the 0-based row and column and the value.
///
/// # Errors
/// A one-line reason: not three digits, a row or column 0, other letters.
pub fn parse_rcv(text: &str) -> Result<(usize, usize, u8), String> {
    let t = text.trim();
    let digits: Vec<u8> = t
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let others: String = t
        .chars()
        .filter(|c| !c.is_ascii_digit() && !c.is_whitespace() && !",;=-/".contains(*c))
        .collect::<String>()
        .to_ascii_lowercase();
    if !(others.is_empty() || others == "rc") {
        return Err(format!(
            "\"{t}\" is not \"row column value\": type three digits, e.g. 3 5 7 puts 7 in row 3, column 5"
        ));
    }
    // A '-' joins two digits (3-5-7); anywhere else it would read as a minus sign, and -1 is no row.
    let chars: Vec<char> = t.chars().collect();
    let joined = |i: usize| {
        i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())
    };
    if let Some(i) = (0..chars.len()).find(|&i| chars[i] == '-' && !joined(i)) {
        return Err(format!(
            "\"{t}\" has a minus sign at character {}: rows, columns and values are 1 to 9 (0 erases)",
            i + 1
        ));
    }
    let [r, c, v] = digits[..] else {
        return Err(format!(
            "\"{t}\" has {}; type three: row, column, value (e.g. 3 5 7; value 0 erases)",
            plural(digits.len() as u64, "digit")
        ));
    };
    if r == 0 {
        return Err("rows are numbered 1 to 9".into());
    }
    if c == 0 {
        return Err("columns are numbered 1 to 9".into());
    }
    Ok((usize::from(r - 1), usize::from(c - 1), v))
}

/// 81 cells as an 81-character string of digits, `.` for empty.
mod digits81 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &[u8; 81], s: S) -> Result<S::Ok, S::Error> {
        let text: String = v
            .iter()
            .map(|&d| {
                if d == 0 {
                    '.'
                } else {
                    char::from(b'0' + d.min(9))
                }
            })
            .collect();
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 81], D::Error> {
        let text = String::deserialize(d)?;
        let mut out = [0u8; 81];
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 81 {
            return Err(D::Error::custom(format!(
                "a grid has 81 cells, this one {}",
                chars.len()
            )));
        }
        for (i, ch) in chars.into_iter().enumerate() {
            out[i] = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u8 - b'0',
                _ => {
                    return Err(D::Error::custom(format!(
                        "cell {} holds '{ch}'; expected a digit or '.'",
                        i + 1
                    )));
                }
            };
        }
        Ok(out)
    }
}

/// 81 pencil-mark masks as a list of numbers.
mod marks81 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &[u16; 81], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u16; 81], D::Error> {
        let v = Vec::<u16>::deserialize(d)?;
        <[u16; 81]>::try_from(v.as_slice()).map_err(|_| {
            D::Error::custom(format!(
                "81 pencil-mark entries expected, found {}",
                v.len()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rcv_entries_parse_in_every_usual_form() {
        for t in ["357", "3 5 7", "3,5,7", "r3c5=7", "R3C5 7", " 3-5-7 "] {
            assert_eq!(parse_rcv(t), Ok((2, 4, 7)), "{t}");
        }
        assert_eq!(parse_rcv("350"), Ok((2, 4, 0)));
        assert!(parse_rcv("35").unwrap_err().contains("has 2 digits"));
        assert!(parse_rcv("3").unwrap_err().contains("has 1 digit;"));
        assert!(parse_rcv("3577").unwrap_err().contains("has 4 digits"));
        assert!(
            parse_rcv("057")
                .unwrap_err()
                .contains("rows are numbered 1 to 9")
        );
        assert!(
            parse_rcv("307")
                .unwrap_err()
                .contains("columns are numbered 1 to 9")
        );
        assert!(
            parse_rcv("x y z")
                .unwrap_err()
                .contains("is not \"row column value\"")
        );
        assert!(parse_rcv("").unwrap_err().contains("has 0 digits"));
        assert!(parse_rcv("３５７").is_err());
        for t in ["-1 2 3", "1 -2 3", "1 2 -3", "- 1 2 3", "1 2 3-"] {
            let e = parse_rcv(t).unwrap_err();
            assert!(e.contains("has a minus sign"), "{t}: {e}");
        }
    }

    #[test]
    fn houses_shared_by_two_cells() {
        assert_eq!(shared_house(0, 8), "row 1");
        assert_eq!(shared_house(0, 72), "column 1");
        assert_eq!(shared_house(0, 20), "box 1");
        assert_eq!(shared_house(80, 60), "box 9");
    }

    #[test]
    fn conflicts_are_repeated_digits_of_a_house() {
        let mut v = [0u8; 81];
        v[0] = 5;
        v[80] = 5;
        assert!(conflicts(&v).is_empty());
        v[8] = 5;
        assert_eq!(conflicts(&v), vec![0, 8, 80]);
    }
}
