//! The sudoku screen: graded puzzles from the generator, or the classic ZX-81 shuffle; digits by cursor or typed
//! as "row column value"; pencil marks with an automatic fill; conflicts; hints from the logical solver with their
//! cells highlighted; check, show the solution, a timer, cells left and mistakes.
//!
//! Every rule lives in the `sudoku` crate: the generator makes the puzzle, the solver decides whether the entries
//! still lead to a solution, the logical solver finds and explains hints. This module only keeps the player's
//! grid and marks.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use serde::{Deserialize, Serialize};
use sudoku::Grid;
use sudoku::classic::{self, ClassicOptions};
use sudoku::generate::{self, Difficulty, GenerateOptions, Symmetry};
use sudoku::logic::{self, Candidates};
use sudoku::rng::Rng;

use super::Game;
use super::clock::{Stopwatch, format_duration};
use super::history::History;
use super::job::{Job, Outcome};
use super::save::field;
use super::screen::{Choice, Config, GameScreen, Handled};
use super::theme::Theme;
use super::ui::{KeyHelp, Prompt, PromptEvent, Status, key_lines};

/// Cells hidden by the classic mode (the ZX-81 hid 27).
const CLASSIC_HIDE: [usize; 4] = [27, 36, 45, 54];
/// The width of the panel beside the grid.
const PANEL_WIDTH: u16 = 29;

/// How puzzles are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The graded generator: unique puzzles at a difficulty.
    Graded,
    /// The classic method: a valid grid shuffled, cells hidden.
    Classic,
}

/// Everything that decides the next puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Graded or classic.
    pub mode: Mode,
    /// The level of graded puzzles.
    pub difficulty: String,
    /// The symmetry of graded puzzles' clues.
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

impl Setup {
    fn difficulty(&self) -> Result<Difficulty, String> {
        self.difficulty
            .parse()
            .map_err(|e: generate::UnknownName| e.to_string())
    }
    fn symmetry(&self) -> Result<Symmetry, String> {
        self.symmetry
            .parse()
            .map_err(|e: generate::UnknownName| e.to_string())
    }
    /// "medium puzzle" or "classic puzzle (27 hidden)".
    fn describe(&self) -> String {
        match self.mode {
            Mode::Graded => format!("{} puzzle", self.difficulty),
            Mode::Classic => format!("classic puzzle ({} hidden)", self.hide),
        }
    }
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
    /// How it is described on screen, e.g. "medium · SE 3.2".
    pub label: String,
}

/// The undoable part of the game: the digits in the grid (clues included) and the pencil marks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Board {
    #[serde(with = "digits81")]
    values: [u8; 81],
    #[serde(with = "marks81")]
    marks: [u16; 81],
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum End {
    /// The player filled the grid correctly.
    Solved,
    /// The player asked to see the solution.
    Revealed,
}

/// A question waiting for y or n.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    NewGame,
    ShowSolution,
}

/// What a hint asks the player to look at, and what pressing h again would do.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hint {
    /// The sentence.
    text: String,
    /// The cells of the pattern.
    pattern: Vec<usize>,
    /// The cells that change (placements and eliminations).
    targets: Vec<usize>,
    /// Digits to place, (cell, digit).
    place: Vec<(usize, u8)>,
    /// Pencil marks to remove, (cell, digit).
    remove: Vec<(usize, u8)>,
}

/// The sudoku screen.
pub struct SudokuScreen {
    setup: Setup,
    puzzle: Option<Puzzle>,
    job: Option<Job<Result<Puzzle, String>>>,
    hist: History<Board>,
    cursor: usize,
    pencil: bool,
    conflicts_on: bool,
    mistakes: u32,
    hints: u32,
    hint: Option<Hint>,
    /// Entries flagged wrong by the last check (cleared by the next change).
    flagged: Vec<usize>,
    end: Option<End>,
    watch: Stopwatch,
    covered: bool,
    prompt: Option<Prompt>,
    /// The result of the last entry typed at the prompt, shown on the prompt line.
    prompt_result: Option<Status>,
    ask: Option<Ask>,
    status: Option<Status>,
    unsaved: bool,
}

/// The options of the title screen.
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

/// A seed from the clock, for games without `--seed`.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos as u64) ^ (u64::from(std::process::id()) << 32)
}

/// Start a new game from the title screen's options.
pub fn start(choices: &[Choice], cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    let get = |label: &str, default: &str| {
        choices
            .iter()
            .find(|c| c.label == label)
            .map(|c| c.value().to_string())
            .unwrap_or_else(|| default.to_string())
    };
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
        seed: cfg.seed.unwrap_or_else(fresh_seed),
        index: 0,
    };
    setup.difficulty()?;
    setup.symmetry()?;
    let mut screen = SudokuScreen::empty(setup, cfg);
    screen.generate();
    Ok(Box::new(screen))
}

/// Make the puzzle `setup` describes (runs on a job thread).
fn make_puzzle(setup: &Setup) -> Result<Puzzle, String> {
    match setup.mode {
        Mode::Graded => {
            let opts = GenerateOptions {
                difficulty: setup.difficulty()?,
                symmetry: setup.symmetry()?,
            };
            let g =
                generate::generate(&opts, setup.seed, setup.index).map_err(|e| e.to_string())?;
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
            let c = classic::classic(&opts, &mut rng).map_err(|e| e.to_string())?;
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

impl SudokuScreen {
    fn empty(setup: Setup, cfg: &Config) -> SudokuScreen {
        SudokuScreen {
            setup,
            puzzle: None,
            job: None,
            hist: History::new(Board {
                values: [0; 81],
                marks: [0; 81],
            }),
            cursor: 40,
            pencil: false,
            conflicts_on: true,
            mistakes: 0,
            hints: 0,
            hint: None,
            flagged: Vec::new(),
            end: None,
            watch: Stopwatch::running(Duration::ZERO, cfg.clock.now()),
            covered: false,
            prompt: None,
            prompt_result: None,
            ask: None,
            status: None,
            unsaved: false,
        }
    }

    /// Start generating the puzzle of the current setup in the background.
    fn generate(&mut self) {
        let setup = self.setup.clone();
        self.puzzle = None;
        self.status = Some(Status::info(format!("Making a {}…", setup.describe())));
        self.job = Some(Job::spawn(move || make_puzzle(&setup)));
    }

    /// Begin playing `puzzle`.
    fn begin(&mut self, puzzle: Puzzle, cfg: &Config) {
        self.hist.reset(Board {
            values: puzzle.givens,
            marks: [0; 81],
        });
        self.status = Some(Status::info(format!(
            "A new {}. Fill the grid; ? shows the rules.",
            self.setup.describe()
        )));
        self.puzzle = Some(puzzle);
        self.cursor = 40;
        self.mistakes = 0;
        self.hints = 0;
        self.hint = None;
        self.flagged.clear();
        self.end = None;
        self.unsaved = false;
        self.watch = Stopwatch::running(Duration::ZERO, cfg.clock.now());
        if self.covered {
            self.watch.pause(cfg.clock.now());
        }
        self.setup.index += 1;
    }

    fn collect(&mut self, outcome: Outcome<Result<Puzzle, String>>, cfg: &Config) {
        self.job = None;
        match outcome {
            Outcome::Done(Ok(p)) => self.begin(p, cfg),
            Outcome::Done(Err(e)) => self.status = Some(Status::error(format!("No puzzle: {e}"))),
            Outcome::Failed => {
                let why = super::job::take_panic_message().unwrap_or_else(|| "it stopped".into());
                self.status = Some(Status::error(format!("The generator failed: {why}")));
            }
        }
    }

    fn board(&self) -> &Board {
        self.hist.present()
    }

    fn is_given(&self, cell: usize) -> bool {
        self.puzzle.as_ref().is_some_and(|p| p.givens[cell] != 0)
    }

    /// Empty cells.
    fn cells_left(&self) -> usize {
        self.board().values.iter().filter(|&&v| v == 0).count()
    }

    /// Cells whose digit repeats in their row, column or box.
    fn conflicts(values: &[u8; 81]) -> Vec<usize> {
        (0..81)
            .filter(|&c| {
                let v = values[c];
                v != 0 && (0..81).any(|o| o != c && values[o] == v && sees(c, o))
            })
            .collect()
    }

    /// Whether the clues with these entries still have a solution.
    fn solvable(values: &[u8; 81]) -> bool {
        match Grid::from_digits(*values) {
            Ok(g) => g.count_solutions(1) > 0,
            Err(_) => false,
        }
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
            self.unsaved = true;
            self.hint = None;
            self.flagged.clear();
        }
    }

    /// Put `digit` (0 erases) in `cell`, as the player's move. Returns a message for the status line.
    fn enter(&mut self, cell: usize, digit: u8, cfg: &Config) -> Status {
        let name = cell_name(cell);
        if self.is_given(cell) {
            return Status::warn(format!("{name} is a clue; it cannot be changed"));
        }
        let mut next = self.board().clone();
        if digit == 0 {
            if next.values[cell] == 0 && next.marks[cell] == 0 {
                return Status::info(format!("{name} is already empty"));
            }
            if next.values[cell] != 0 {
                next.values[cell] = 0;
            } else {
                next.marks[cell] = 0;
            }
            self.change(next);
            return Status::info(format!("{name} erased"));
        }
        if next.values[cell] == digit {
            return Status::info(format!("{name} already holds {digit}"));
        }
        let before_ok = self.puzzle.as_ref().is_some_and(|p| {
            if p.unique {
                true
            } else {
                Self::solvable(&next.values)
            }
        });
        next.values[cell] = digit;
        next.marks[cell] = 0;
        // The digit is no longer a candidate for the cell's row, column and box.
        let bit = 1u16 << (digit - 1);
        for other in 0..81 {
            if sees(cell, other) {
                next.marks[other] &= !bit;
            }
        }
        let clash = (0..81).find(|&o| sees(cell, o) && next.values[o] == digit);
        let wrong = match &self.puzzle {
            Some(p) if p.unique => p.solution[cell] != digit,
            Some(_) => clash.is_some() || (before_ok && !Self::solvable(&next.values)),
            None => false,
        };
        let values = next.values;
        self.change(next);
        if wrong {
            self.mistakes += 1;
        }
        if values.iter().all(|&v| v != 0)
            && Self::conflicts(&values).is_empty()
            && self.wrong_entries().is_empty()
        {
            self.end = Some(End::Solved);
            self.watch.pause(cfg.clock.now());
            let t = format_duration(self.watch.elapsed(cfg.clock.now()));
            return Status::good(format!(
                "Solved in {t} with {} and {}! n for a new puzzle.",
                plural(self.mistakes, "mistake"),
                plural(self.hints, "hint")
            ));
        }
        match clash {
            Some(o) => Status::warn(format!(
                "{digit} in {name} clashes with the {digit} in {} ({})",
                cell_name(o),
                shared_house(cell, o)
            )),
            None => Status::info(format!("{digit} in {name}")),
        }
    }

    /// Toggle pencil mark `digit` in `cell`.
    fn toggle_mark(&mut self, cell: usize, digit: u8) -> Status {
        let name = cell_name(cell);
        if self.board().values[cell] != 0 {
            return Status::warn(format!("{name} holds a digit; erase it before pencilling"));
        }
        let mut next = self.board().clone();
        next.marks[cell] ^= 1 << (digit - 1);
        let on = next.marks[cell] & (1 << (digit - 1)) != 0;
        self.change(next);
        Status::info(format!(
            "Pencil mark {digit} {} {name}",
            if on { "added to" } else { "removed from" }
        ))
    }

    /// Fill every empty cell's pencil marks with the digits its row, column and box still allow.
    fn auto_marks(&mut self) -> Status {
        let mut next = self.board().clone();
        match Candidates::from_values(&next.values) {
            Ok(state) => {
                for cell in 0..81 {
                    next.marks[cell] = if next.values[cell] == 0 {
                        state.candidates(cell)
                    } else {
                        0
                    };
                }
            }
            Err(_) => {
                return Status::warn(
                    "The grid has a repeated digit; fix the conflict before filling the marks",
                );
            }
        }
        if next == *self.board() {
            return Status::info("The pencil marks are already complete");
        }
        self.change(next);
        Status::info("Pencil marks filled in for every empty cell")
    }

    /// Work out the next hint.
    fn find_hint(&self) -> Hint {
        let board = self.board();
        if let Some(&c) = self.wrong_entries().first() {
            return Hint {
                text: format!(
                    "The {} in {} is wrong: the solution has another digit there. Erase it (0) or undo.",
                    board.values[c],
                    cell_name(c)
                ),
                pattern: vec![c],
                targets: Vec::new(),
                place: Vec::new(),
                remove: Vec::new(),
            };
        }
        if let Some(p) = &self.puzzle
            && p.unique
            && let Some(c) = (0..81).find(|&c| {
                board.values[c] == 0
                    && board.marks[c] != 0
                    && board.marks[c] & (1 << (p.solution[c] - 1)) == 0
            })
        {
            return Hint {
                text: format!(
                    "Your pencil marks in {} leave out the digit that belongs there; a refills every cell's marks.",
                    cell_name(c)
                ),
                pattern: vec![c],
                targets: Vec::new(),
                place: Vec::new(),
                remove: Vec::new(),
            };
        }
        // The player's marks where there are some, every possible digit elsewhere.
        let mut marks = board.marks;
        for m in marks.iter_mut() {
            if *m == 0 {
                *m = 0x1ff;
            }
        }
        let state = match Candidates::from_pencil_marks(&board.values, &marks) {
            Ok(s) => s,
            Err(c) => {
                return Hint {
                    text: format!(
                        "{} has no possible digit left: something above is wrong. Undo, or press k to check.",
                        cell_name(c.cell)
                    ),
                    pattern: vec![c.cell],
                    targets: Vec::new(),
                    place: Vec::new(),
                    remove: Vec::new(),
                };
            }
        };
        match logic::hint(&state) {
            Some(step) => {
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
            None => Hint {
                text: "No logical step is left from here: the rest needs guessing (or the grid is complete)."
                    .into(),
                pattern: Vec::new(),
                targets: Vec::new(),
                place: Vec::new(),
                remove: Vec::new(),
            },
        }
    }

    /// Carry out the hint on screen (h pressed again).
    fn apply_hint(&mut self, hint: &Hint, cfg: &Config) -> Status {
        if hint.place.is_empty() && hint.remove.is_empty() {
            return Status::info("This hint has nothing to apply");
        }
        let mut next = self.board().clone();
        if !hint.remove.is_empty() {
            // Pencil marks are removed; cells without marks first get every digit still allowed.
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
        let mut last = Status::info(format!(
            "Hint applied: {} pencil mark{} removed",
            hint.remove.len(),
            if hint.remove.len() == 1 { "" } else { "s" }
        ));
        for &(c, d) in &hint.place {
            last = self.enter(c, d, cfg);
        }
        last
    }

    fn reveal(&mut self, cfg: &Config) {
        let Some(p) = &self.puzzle else {
            return;
        };
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
        let next = Board {
            values: solution,
            marks: [0; 81],
        };
        self.change(next);
        self.end = Some(End::Revealed);
        self.watch.pause(cfg.clock.now());
        self.status = Some(Status::info("The solution is shown. n for a new puzzle."));
    }

    fn check(&mut self) -> Status {
        let values = self.board().values;
        let clashes = Self::conflicts(&values);
        let wrong = self.wrong_entries();
        let left = self.cells_left();
        self.flagged = wrong.clone();
        for c in &clashes {
            if !self.flagged.contains(c) && !self.is_given(*c) {
                self.flagged.push(*c);
            }
        }
        if wrong.is_empty() && clashes.is_empty() {
            Status::good(format!(
                "Everything so far is right; {} to go",
                plural(u32::try_from(left).unwrap_or(u32::MAX), "cell")
            ))
        } else {
            let mut parts = Vec::new();
            if !wrong.is_empty() {
                parts.push(format!(
                    "{} wrong",
                    plural(u32::try_from(wrong.len()).unwrap_or(0), "entry")
                ));
            }
            if !clashes.is_empty() {
                parts.push(format!(
                    "{} in conflict",
                    plural(u32::try_from(clashes.len()).unwrap_or(0), "cell")
                ));
            }
            Status::warn(format!(
                "Check: {} (marked); {left} cells left",
                parts.join(", ")
            ))
        }
    }

    /// Handle the "row column value" entry.
    fn typed(&mut self, text: &str, cfg: &Config) -> Status {
        match parse_rcv(text) {
            Ok((r, c, v)) => {
                let cell = r * 9 + c;
                self.cursor = cell;
                self.enter(cell, v, cfg)
            }
            Err(e) => Status::error(e),
        }
    }

    fn ended_key(&mut self, key: KeyEvent) -> Handled {
        match key.code {
            KeyCode::Char('n') | KeyCode::Char('N') => {
                self.generate();
                Handled::Yes
            }
            KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down => {
                self.move_cursor(key.code);
                Handled::Yes
            }
            KeyCode::Char(c) if c.is_ascii_digit() || "pahkvcur:".contains(c) => {
                self.status = Some(Status::info(match self.end {
                    Some(End::Solved) => {
                        "The puzzle is solved. n for a new one, q for the title screen."
                    }
                    _ => "The solution is shown. n for a new puzzle, q for the title screen.",
                }));
                Handled::Yes
            }
            _ => Handled::No,
        }
    }

    fn move_cursor(&mut self, code: KeyCode) {
        let (r, c) = (self.cursor / 9, self.cursor % 9);
        let (r, c) = match code {
            KeyCode::Up => ((r + 8) % 9, c),
            KeyCode::Down => ((r + 1) % 9, c),
            KeyCode::Left => (r, (c + 8) % 9),
            KeyCode::Right => (r, (c + 1) % 9),
            KeyCode::Home => (r, 0),
            KeyCode::End => (r, 8),
            _ => (r, c),
        };
        self.cursor = r * 9 + c;
    }

    /// The panel's status lines (puzzle, time, counts, modes, cursor cell).
    fn panel_status(&self, cfg: &Config) -> Vec<Line<'static>> {
        let t = &cfg.theme;
        let Some(p) = &self.puzzle else {
            return Vec::new();
        };
        let row = |label: &str, value: String, style: Style| {
            Line::from(vec![
                Span::styled(format!("{label:<11}"), t.dim),
                Span::styled(value, style),
            ])
        };
        let now = cfg.clock.now();
        let time = format_duration(self.watch.elapsed(now));
        let (state, state_style) = match self.end {
            Some(End::Solved) => ("solved!", t.good),
            Some(End::Revealed) => ("solution shown", t.warn),
            None if !self.watch.is_running() => ("paused", t.dim),
            None => ("playing", t.text),
        };
        let b = self.board();
        let cell = self.cursor;
        let what = if p.givens[cell] != 0 {
            format!("clue {}", b.values[cell])
        } else if b.values[cell] != 0 {
            format!("your {}", b.values[cell])
        } else if b.marks[cell] != 0 {
            format!("marks {}", digits_text(b.marks[cell]))
        } else {
            "empty".to_string()
        };
        vec![
            Line::styled(p.label.clone(), t.title),
            row("Time", time, t.text),
            row("State", state.into(), state_style),
            row("Cells left", self.cells_left().to_string(), t.text),
            row(
                "Mistakes",
                self.mistakes.to_string(),
                if self.mistakes > 0 { t.bad } else { t.text },
            ),
            row("Hints", self.hints.to_string(), t.text),
            row(
                "Entry",
                if self.pencil {
                    "pencil marks"
                } else {
                    "digits"
                }
                .into(),
                t.text,
            ),
            row(
                "Conflicts",
                if self.conflicts_on {
                    "shown"
                } else {
                    "not shown"
                }
                .into(),
                t.text,
            ),
            Line::from(vec![
                Span::styled(format!("{:<11}", cell_name(cell)), t.key),
                Span::styled(what, t.text),
            ]),
        ]
    }

    fn short_keys(&self) -> Vec<KeyHelp> {
        vec![
            ("←↑↓→", "move"),
            ("1-9", if self.pencil { "mark" } else { "digit" }),
            ("0", "erase"),
            ("p", "pencil"),
            ("a", "all marks"),
            ("c", "conflicts"),
            ("h", "hint"),
            ("k", "check"),
            ("v", "solution"),
            (":", "row col value"),
            ("u/r", "undo/redo"),
            ("n", "new"),
            ("s", "save"),
            ("?", "help"),
            ("q", "leave"),
        ]
    }

    fn render_grid(&self, frame: &mut Frame, x0: u16, y0: u16, geo: Geometry, cfg: &Config) {
        let t = &cfg.theme;
        let buf = frame.buffer_mut();
        let area = buf.area;
        let mut put = |x: u16, y: u16, s: &str, style: Style| {
            if y < area.bottom() && x < area.right() {
                buf.set_string(x, y, s, style);
            }
        };
        let border = t.dim;
        let (w, h) = (geo.cell_w, geo.cell_h);
        // Horizontal borders, with the column numbers in the top one.
        for band in 0..4u16 {
            let (l, m, r) = match band {
                0 => ('┌', '┬', '┐'),
                3 => ('└', '┴', '┘'),
                _ => ('├', '┼', '┤'),
            };
            let mut line = String::new();
            line.push(l);
            for stack in 0..3 {
                for k in 0..3 {
                    let col = stack * 3 + k + 1;
                    let half = usize::from(w / 2);
                    if band == 0 {
                        line.push_str(&"─".repeat(half));
                        line.push_str(&col.to_string());
                        line.push_str(&"─".repeat(usize::from(w) - half - 1));
                    } else {
                        line.push_str(&"─".repeat(usize::from(w)));
                    }
                }
                line.push(if stack == 2 { r } else { m });
            }
            put(x0 + 2, y0 + band * (3 * h + 1), &line, border);
        }
        let values = &self.board().values;
        let marks = &self.board().marks;
        let conflicts = if self.conflicts_on {
            Self::conflicts(values)
        } else {
            Vec::new()
        };
        let p = self.puzzle.as_ref();
        let cursor_digit = values[self.cursor];
        for r in 0..9u16 {
            let y = y0 + 1 + r * h + r / 3;
            put(x0, y + (h - 1) / 2, &format!("{}", r + 1), border);
            for c in 0..9u16 {
                let x = x0 + 3 + c * w + c / 3;
                for dy in 0..h {
                    if c % 3 == 0 {
                        put(x - 1, y + dy, "│", border);
                    }
                    if c == 8 {
                        put(x + w, y + dy, "│", border);
                    }
                }
                let cell = usize::from(r * 9 + c);
                let v = values[cell];
                let given = p.is_some_and(|p| p.givens[cell] != 0);
                // A checkerboard of two shades keeps neighbouring cells' pencil marks apart.
                let bg = if (r + c) % 2 == 1 { t.shaded } else { t.plain };
                // A highlight sets both colours (and wins over the digit's), keeping the digit's attributes.
                let mut highlight = None;
                if let Some(hint) = &self.hint {
                    if hint.pattern.contains(&cell) {
                        highlight = Some(t.hint);
                    } else if hint.targets.contains(&cell) {
                        highlight = Some(t.target);
                    }
                }
                if cell == self.cursor {
                    highlight = Some(t.cursor);
                }
                let mut fg = if given { t.given } else { t.entered };
                if v != 0 && (conflicts.contains(&cell) || self.flagged.contains(&cell)) {
                    fg = t.bad;
                }
                if v != 0 && v == cursor_digit && cell != self.cursor && t.colour {
                    fg = fg.add_modifier(Modifier::UNDERLINED);
                }
                let blank = " ".repeat(usize::from(w));
                let mut rows = vec![blank.clone(); usize::from(h)];
                let style = if v != 0 {
                    let mut mid: Vec<char> = blank.chars().collect();
                    mid[usize::from(w / 2)] = char::from(b'0' + v);
                    rows[usize::from((h - 1) / 2)] = mid.into_iter().collect();
                    bg.patch(fg)
                } else {
                    let m = marks[cell];
                    let digit = |d: u8| {
                        if m & (1 << (d - 1)) != 0 {
                            char::from(b'0' + d)
                        } else {
                            ' '
                        }
                    };
                    if h >= 3 {
                        // " 1 2 3 " / " 4 5 6 " / " 7 8 9 "
                        for (k, row) in rows.iter_mut().enumerate().take(3) {
                            let mut line: Vec<char> = blank.chars().collect();
                            for j in 0..3u8 {
                                let pos = usize::from(w / 2) - 2 + 2 * usize::from(j);
                                line[pos] = digit(k as u8 * 3 + j + 1);
                            }
                            *row = line.into_iter().collect();
                        }
                    } else {
                        // "12345" / "6789 "
                        rows[0] = (1..=5).map(digit).collect();
                        rows[1] = (6..=9).map(digit).chain(std::iter::once(' ')).collect();
                    }
                    bg.patch(t.pencil)
                };
                let style = match highlight {
                    Some(hl) => style.patch(hl),
                    None => style,
                };
                for (dy, row) in rows.iter().enumerate() {
                    put(x, y + dy as u16, row, style);
                }
            }
        }
    }
}

/// The size of the drawn grid: cells of 5x2 characters in an 80x24 terminal, 7x3 (room for pencil marks in a
/// 3x3 block) from 99x33 up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Geometry {
    cell_w: u16,
    cell_h: u16,
}

impl Geometry {
    const SMALL: Geometry = Geometry {
        cell_w: 5,
        cell_h: 2,
    };
    const LARGE: Geometry = Geometry {
        cell_w: 7,
        cell_h: 3,
    };

    /// The largest geometry that fits `area` with a panel of `PANEL_WIDTH` beside it.
    fn fitting(area: Rect) -> Geometry {
        let large = Geometry::LARGE;
        if area.width >= large.width() + 1 + PANEL_WIDTH && area.height >= large.height() {
            large
        } else {
            Geometry::SMALL
        }
    }

    /// Width: row labels, four borders, nine cells.
    fn width(self) -> u16 {
        2 + 4 + 9 * self.cell_w
    }

    /// Height: four borders, nine cells.
    fn height(self) -> u16 {
        4 + 9 * self.cell_h
    }
}

impl GameScreen for SudokuScreen {
    fn game(&self) -> Game {
        Game::Sudoku
    }

    fn heading(&self) -> String {
        match self.setup.mode {
            Mode::Graded => format!(
                "{} · {} symmetry",
                self.setup.difficulty, self.setup.symmetry
            ),
            Mode::Classic => format!(
                "classic · {} hidden{}",
                self.setup.hide,
                match &self.puzzle {
                    Some(p) if p.unique => " · one solution",
                    Some(_) => " · several solutions",
                    None => "",
                }
            ),
        }
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let geo = Geometry::fitting(area);
        let (gw, gh) = (geo.width(), geo.height());
        let total_w = (gw + 1 + PANEL_WIDTH).min(area.width);
        let x0 = area.x + (area.width - total_w) / 2;
        let y0 = area.y + area.height.saturating_sub(gh) / 2;
        let panel = Rect {
            x: x0 + gw + 1,
            y: y0,
            width: area.right().saturating_sub(x0 + gw + 1),
            height: gh.min(area.bottom() - y0),
        };
        if self.puzzle.is_some() {
            self.render_grid(frame, x0, y0, geo, cfg);
        } else {
            let msg = Paragraph::new(vec![
                Line::raw(""),
                Line::styled(
                    format!("Making a {}…", self.setup.describe()),
                    cfg.theme.title,
                ),
            ]);
            frame.render_widget(
                msg,
                Rect {
                    x: x0,
                    width: gw,
                    ..area
                },
            );
        }
        if self.puzzle.is_none() {
            return;
        }
        // The panel: status at the top, keys at the bottom, the hint in between.
        let t = &cfg.theme;
        let status = self.panel_status(cfg);
        let keys = key_lines(&self.short_keys(), panel.width.saturating_sub(1), t);
        let top_h = u16::try_from(status.len()).unwrap_or(0).min(panel.height);
        let keys_h = u16::try_from(keys.len())
            .unwrap_or(0)
            .min(panel.height.saturating_sub(top_h));
        let top = Rect {
            height: top_h,
            ..panel
        };
        let bottom = Rect {
            y: panel.bottom() - keys_h,
            height: keys_h,
            ..panel
        };
        let middle = Rect {
            y: top.bottom() + 1,
            height: bottom.y.saturating_sub(top.bottom() + 2),
            ..panel
        };
        frame.render_widget(Paragraph::new(status), top);
        frame.render_widget(Paragraph::new(keys), bottom);
        if let Some(h) = &self.hint {
            let mut spans = vec![
                Span::styled("Hint:", t.hint),
                Span::raw(" "),
                Span::raw(h.text.clone()),
            ];
            if !h.place.is_empty() || !h.remove.is_empty() {
                spans.push(Span::styled(" Press h again to apply it.", t.dim));
            }
            frame.render_widget(
                Paragraph::new(Line::from(spans)).wrap(Wrap { trim: true }),
                middle,
            );
        }
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
                        let result = self.typed(&text, cfg);
                        self.status = Some(result.clone());
                        self.prompt_result = Some(result);
                        if self.end.is_some() {
                            self.prompt = None;
                        }
                    }
                }
            }
            return Handled::Yes;
        }
        if let Some(ask) = self.ask.take() {
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                match ask {
                    Ask::NewGame => self.generate(),
                    Ask::ShowSolution => self.reveal(cfg),
                }
            } else {
                self.status = Some(Status::info("Carry on"));
            }
            return Handled::Yes;
        }
        if self.puzzle.is_none() {
            return Handled::No;
        }
        if self.end.is_some() {
            return self.ended_key(key);
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            || key.modifiers.contains(KeyModifiers::ALT)
        {
            return Handled::No;
        }
        let status = match key.code {
            KeyCode::Up
            | KeyCode::Down
            | KeyCode::Left
            | KeyCode::Right
            | KeyCode::Home
            | KeyCode::End => {
                self.move_cursor(key.code);
                return Handled::Yes;
            }
            KeyCode::Char(ch @ '1'..='9') => {
                let d = ch as u8 - b'0';
                if self.pencil {
                    self.toggle_mark(self.cursor, d)
                } else {
                    self.enter(self.cursor, d, cfg)
                }
            }
            KeyCode::Char('0')
            | KeyCode::Char('.')
            | KeyCode::Char(' ')
            | KeyCode::Delete
            | KeyCode::Backspace => self.enter(self.cursor, 0, cfg),
            KeyCode::Char('p') | KeyCode::Char('P') => {
                self.pencil = !self.pencil;
                Status::info(if self.pencil {
                    "Pencil mode: digits now toggle pencil marks (p for digits)"
                } else {
                    "Digit mode: digits now fill cells (p for pencil marks)"
                })
            }
            KeyCode::Char('a') | KeyCode::Char('A') => self.auto_marks(),
            KeyCode::Char('c') | KeyCode::Char('C') => {
                self.conflicts_on = !self.conflicts_on;
                Status::info(if self.conflicts_on {
                    "Conflicting digits are highlighted"
                } else {
                    "Conflicts are no longer highlighted"
                })
            }
            KeyCode::Char('h') | KeyCode::Char('H') => match self.hint.take() {
                Some(h) => self.apply_hint(&h, cfg),
                None => {
                    let h = self.find_hint();
                    self.hints += 1;
                    self.unsaved = true;
                    let s = Status::info("Hint shown on the right; its cells are highlighted");
                    self.hint = Some(h);
                    s
                }
            },
            KeyCode::Char('k') | KeyCode::Char('K') => self.check(),
            KeyCode::Char('v') | KeyCode::Char('V') => {
                self.ask = Some(Ask::ShowSolution);
                Status::warn("Show the solution and end this game? y/n")
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                self.ask = Some(Ask::NewGame);
                Status::warn("Give up this puzzle and start a new one? y/n")
            }
            KeyCode::Char('u') | KeyCode::Char('U') => {
                if self.hist.undo() {
                    self.hint = None;
                    self.flagged.clear();
                    self.unsaved = true;
                    Status::info("Undone")
                } else {
                    Status::info("Nothing to undo")
                }
            }
            KeyCode::Char('r') | KeyCode::Char('R') => {
                if self.hist.redo() {
                    self.hint = None;
                    self.flagged.clear();
                    self.unsaved = true;
                    Status::info("Redone")
                } else {
                    Status::info("Nothing to redo")
                }
            }
            KeyCode::Char(':') | KeyCode::Enter | KeyCode::Char('t') | KeyCode::Char('T') => {
                self.prompt = Some(Prompt::new(
                    "Row column value",
                    "3 5 7 puts 7 in r3c5; 3 5 0 erases",
                ));
                return Handled::Yes;
            }
            _ => return Handled::No,
        };
        self.status = Some(status);
        Handled::Yes
    }

    fn capturing(&self) -> bool {
        self.prompt.is_some() || self.ask.is_some()
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
        if let Some(outcome) = self.job.as_ref().and_then(Job::poll) {
            self.collect(outcome, cfg);
        }
    }

    fn busy(&self) -> bool {
        self.job.is_some()
    }

    fn wait(&mut self, cfg: &Config) {
        if let Some(job) = self.job.take() {
            let outcome = job.wait();
            self.collect(outcome, cfg);
        }
    }

    fn rules(&self) -> Vec<Line<'static>> {
        rules()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        vec![
            ("←↑↓→", "move the cursor"),
            (
                "1-9",
                "put the digit in the cursor's cell (a pencil mark in pencil mode)",
            ),
            (
                "0 Del",
                "erase the cell (its digit, or else its pencil marks)",
            ),
            (
                ": Enter",
                "type \"row column value\", the ZX-81 way: 3 5 7 puts 7 in r3c5",
            ),
            ("p", "switch between digits and pencil marks"),
            ("a", "fill every empty cell's pencil marks automatically"),
            ("c", "highlight conflicting digits, or stop"),
            (
                "h",
                "hint: the next logical step, explained; h again applies it",
            ),
            (
                "k",
                "check the grid: wrong entries and conflicts are marked",
            ),
            ("v", "show the solution (ends the game)"),
            ("u / r", "undo / redo"),
            ("n", "a new puzzle with the same options"),
        ]
    }

    fn save_state(&self, cfg: &Config) -> serde_json::Value {
        let elapsed =
            u64::try_from(self.watch.elapsed(cfg.clock.now()).as_millis()).unwrap_or(u64::MAX);
        serde_json::json!({
            "setup": self.setup,
            "puzzle": self.puzzle,
            "board": self.hist.present(),
            "undo": self.hist.past(),
            "redo": self.hist.future(),
            "cursor": self.cursor,
            "pencil": self.pencil,
            "conflicts": self.conflicts_on,
            "mistakes": self.mistakes,
            "hints": self.hints,
            "end": self.end,
            "elapsed_ms": elapsed,
        })
    }

    fn unsaved(&self) -> bool {
        self.unsaved && self.end.is_none()
    }

    fn mark_saved(&mut self) {
        self.unsaved = false;
    }

    fn set_covered(&mut self, covered: bool, cfg: &Config) {
        self.covered = covered;
        let now = cfg.clock.now();
        if covered {
            self.watch.pause(now);
        } else if self.end.is_none() && self.puzzle.is_some() {
            self.watch.resume(now);
        }
    }
}

/// The rules for the help screen.
pub fn rules() -> Vec<Line<'static>> {
    vec![
        Line::raw(
            "Fill every empty cell with a digit from 1 to 9 so that each row, each column and each of the nine \
             3x3 boxes holds every digit exactly once. The clues (bold) cannot be changed.",
        ),
        Line::raw(""),
        Line::raw(
            "Cells are named r<row>c<column>: r3c5 is row 3, column 5; rows are numbered down the left, columns \
             along the top. Pencil marks note the digits a cell may still take; a fills them all in, and \
             entering a digit removes it from the marks of its row, column and box.",
        ),
        Line::raw(""),
        Line::raw(
            "A mistake is counted whenever a digit is entered that the solution does not have there. Graded \
             puzzles have exactly one solution and never need guessing; classic puzzles, made the ZX-81 way, \
             may have several, and any grid that keeps the rules counts as solved.",
        ),
    ]
}

/// Rebuild a saved game.
pub fn load(state: &serde_json::Value, cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    let setup: Setup = field(state, "setup")?;
    setup.difficulty()?;
    setup.symmetry()?;
    let puzzle: Puzzle = field(state, "puzzle")?;
    check_puzzle(&puzzle)?;
    let board: Board = field(state, "board")?;
    let undo: Vec<Board> = field(state, "undo")?;
    let redo: Vec<Board> = field(state, "redo")?;
    for (i, b) in std::iter::once(&board)
        .chain(&undo)
        .chain(&redo)
        .enumerate()
    {
        check_board(b, &puzzle).map_err(|e| {
            if i == 0 {
                format!("the grid: {e}")
            } else {
                format!("undo step {i}: {e}")
            }
        })?;
    }
    let cursor: usize = field(state, "cursor")?;
    if cursor >= 81 {
        return Err(format!("the cursor is at cell {cursor}; cells are 0 to 80"));
    }
    let end: Option<End> = field(state, "end")?;
    let elapsed: u64 = field(state, "elapsed_ms")?;
    let mut s = SudokuScreen::empty(setup, cfg);
    s.puzzle = Some(puzzle);
    s.hist = History::from_parts(undo, board, redo);
    s.cursor = cursor;
    s.pencil = field(state, "pencil")?;
    s.conflicts_on = field(state, "conflicts")?;
    s.mistakes = field(state, "mistakes")?;
    s.hints = field(state, "hints")?;
    s.end = end;
    s.watch = Stopwatch::running(Duration::from_millis(elapsed), cfg.clock.now());
    if s.end.is_some() {
        s.watch.pause(cfg.clock.now());
    }
    s.status = Some(Status::info("Welcome back"));
    Ok(Box::new(s))
}

fn check_puzzle(p: &Puzzle) -> Result<(), String> {
    let sol = Grid::from_digits(p.solution).map_err(|e| format!("the solution: {e}"))?;
    if !sol.is_solved() {
        return Err("the solution is not a complete valid grid".into());
    }
    Grid::from_digits(p.givens).map_err(|e| format!("the clues: {e}"))?;
    if let Some(c) = (0..81).find(|&c| p.givens[c] != 0 && p.givens[c] != p.solution[c]) {
        return Err(format!(
            "the clue in {} disagrees with the solution",
            cell_name(c)
        ));
    }
    Ok(())
}

fn check_board(b: &Board, p: &Puzzle) -> Result<(), String> {
    if let Some(c) = (0..81).find(|&c| p.givens[c] != 0 && b.values[c] != p.givens[c]) {
        return Err(format!("the clue in {} was changed", cell_name(c)));
    }
    if let Some(c) = (0..81).find(|&c| b.values[c] > 9) {
        return Err(format!("{} holds {}", cell_name(c), b.values[c]));
    }
    if let Some(c) = (0..81).find(|&c| b.marks[c] > 0x1ff) {
        return Err(format!(
            "the pencil marks of {} are out of range",
            cell_name(c)
        ));
    }
    Ok(())
}

/// Parse "row column value": three digits, with or without separators ("357", "3 5 7", "3,5,7", "r3c5=7",
/// "r3c5 7"). Value 0 erases.
pub fn parse_rcv(text: &str) -> Result<(usize, usize, u8), String> {
    let t = text.trim();
    let digits: Vec<char> = t.chars().filter(|c| c.is_ascii_digit()).collect();
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
    if digits.len() != 3 {
        return Err(format!(
            "\"{t}\" has {} digit{}; type three: row, column, value (e.g. 3 5 7; value 0 erases)",
            digits.len(),
            if digits.len() == 1 { "" } else { "s" }
        ));
    }
    let n = |c: char| c as u8 - b'0';
    let (r, c, v) = (n(digits[0]), n(digits[1]), n(digits[2]));
    if r == 0 {
        return Err("rows are numbered 1 to 9".into());
    }
    if c == 0 {
        return Err("columns are numbered 1 to 9".into());
    }
    Ok((usize::from(r - 1), usize::from(c - 1), v))
}

/// Whether two different cells share a row, column or box.
fn sees(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

/// The house two cells share, for messages.
fn shared_house(a: usize, b: usize) -> String {
    if a / 9 == b / 9 {
        format!("row {}", a / 9 + 1)
    } else if a % 9 == b % 9 {
        format!("column {}", a % 9 + 1)
    } else {
        format!("box {}", (a / 27) * 3 + a % 9 / 3 + 1)
    }
}

/// `r3c5`.
fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// "1 4 7" from a mark mask.
fn digits_text(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << (d - 1)) != 0)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// "1 mistake", "2 mistakes".
fn plural(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else if let Some(stem) = what.strip_suffix('y') {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {what}s")
    }
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
    }

    #[test]
    fn peers_and_houses() {
        assert!(sees(0, 8));
        assert!(sees(0, 72));
        assert!(sees(0, 20));
        assert!(!sees(0, 0));
        assert!(!sees(0, 30));
        assert_eq!(shared_house(0, 8), "row 1");
        assert_eq!(shared_house(0, 72), "column 1");
        assert_eq!(shared_house(0, 20), "box 1");
        assert_eq!(shared_house(80, 60), "box 9");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "entry"), "1 entry");
        assert_eq!(plural(2, "entry"), "2 entries");
        assert_eq!(plural(0, "hint"), "0 hints");
    }
}
