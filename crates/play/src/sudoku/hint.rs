//! Hints: the one answer to "what next?" about a sudoku grid, asked by the session, `boardlab sudoku hint` and
//! `/api/sudoku/hint` alike ([`hint`], [`Puzzle::hint`]): a wrong entry first, then pencil marks that rule out
//! a cell's digit, then the logical solver's next step, each put in one sentence with the cells it involves.

use serde::Serialize;
use sudoku::Grid;
use sudoku::logic::tables::cell_name;
use sudoku::logic::{Candidates, Step};
use sudoku::rate::{self, Hint as EngineHint};

use super::puzzle::{Puzzle, no_solution_reason};

/// What a hint is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HintKind {
    /// The next logical step.
    Step,
    /// Every cell is filled.
    Solved,
    /// No logical step applies: the rest needs guessing, or the grid has more than one solution.
    Stuck,
    /// The grid has no solution (a repeated digit, or a wrong entry of a puzzle whose solution is not unique).
    NoSolution,
    /// An entry differs from the puzzle's solution.
    Mistake,
    /// The player's pencil marks rule out the digit that belongs in a cell.
    Marks,
}

impl HintKind {
    /// Its name in answers: `step`, `solved`, `stuck`, `no_solution`, `mistake`, `marks`.
    pub fn id(self) -> &'static str {
        match self {
            HintKind::Step => "step",
            HintKind::Solved => "solved",
            HintKind::Stuck => "stuck",
            HintKind::NoSolution => "no_solution",
            HintKind::Mistake => "mistake",
            HintKind::Marks => "marks",
        }
    }
}

/// A hint: what it asks the player to look at, and what applying it would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// What it is about.
    pub kind: HintKind,
    /// The sentence.
    pub text: String,
    /// The cells of the pattern (for a mistake or wrong marks: the cell).
    pub pattern: Vec<usize>,
    /// The cells that change (placements and eliminations).
    pub targets: Vec<usize>,
    /// Digits to place, (cell, digit).
    pub place: Vec<(usize, u8)>,
    /// Pencil marks to remove, (cell, digit).
    pub remove: Vec<(usize, u8)>,
    /// The candidates the step's pattern is made of, (cell, digit): drawn highlighted.
    pub highlight: Vec<(usize, u8)>,
    /// The candidates of the step's cells (the pattern's and the targets') in the grid it was read from, (cell,
    /// bit `d - 1` for digit `d`): drawn for the hint even in a cell where the player has no pencil marks.
    pub candidates: Vec<(usize, u16)>,
    /// The logical solver's step, for [`HintKind::Step`].
    #[serde(skip)]
    pub step: Option<Step>,
}

impl Hint {
    /// A hint that only points at cells.
    fn pointing(kind: HintKind, text: String, pattern: Vec<usize>) -> Hint {
        Hint {
            kind,
            text,
            pattern,
            targets: Vec::new(),
            place: Vec::new(),
            remove: Vec::new(),
            highlight: Vec::new(),
            candidates: Vec::new(),
            step: None,
        }
    }

    /// Whether applying it changes the grid.
    pub fn applicable(&self) -> bool {
        !self.place.is_empty() || !self.remove.is_empty()
    }

    /// The cell it points at, for a mistake or wrong marks.
    pub fn cell(&self) -> Option<usize> {
        match self.kind {
            HintKind::Mistake | HintKind::Marks => self.pattern.first().copied(),
            _ => None,
        }
    }
}

/// The hint for a grid: `givens` are the puzzle's clues, `values` the digits in the grid (clues included),
/// `marks` the player's pencil marks (bit `d - 1` for digit `d`; all zero for none). The puzzle is solved first:
/// clues with no solution get a [`HintKind::NoSolution`] naming the entries to blame; else the answer is
/// [`Puzzle::hint`]'s.
pub fn hint(givens: &[u8; 81], values: &[u8; 81], marks: &[u16; 81]) -> Hint {
    let grid = match Grid::from_digits(*givens) {
        Ok(g) => g,
        Err(e) => {
            return Hint::pointing(
                HintKind::NoSolution,
                sentence(&format!("the grid has no solution: {e}")),
                Vec::new(),
            );
        }
    };
    match Puzzle::from_givens(*givens, "") {
        Ok(puzzle) => puzzle.hint(values, marks),
        Err(_) => Hint::pointing(
            HintKind::NoSolution,
            sentence(&no_solution_reason(&grid)),
            Vec::new(),
        ),
    }
}

/// Whether `marks` are complete: every empty cell has marks (the player filled them in, or asked for them all).
/// Only complete marks can be wrong ([`HintKind::Marks`]); until then a cell's marks are notes, which a hint reads
/// only where they keep the cell's digit (see [`Puzzle::hint`]) and never calls wrong.
pub fn marks_complete(values: &[u8; 81], marks: &[u16; 81]) -> bool {
    (0..81).all(|c| values[c] != 0 || marks[c] != 0)
}

impl Puzzle {
    /// The hint for the grid `values` with pencil marks `marks` (see [`hint`]): the first wrong entry; then, when
    /// the marks are complete ([`marks_complete`]) and the solution unique, the first cell whose marks rule out
    /// its digit; then the logical solver's next step from the digits and the marks. Marks that are not complete
    /// are read only in the cells where they keep the solution's digit (eliminations the player or an applied
    /// hint made); elsewhere they are notes, and the cell counts as unmarked.
    pub fn hint(&self, values: &[u8; 81], marks: &[u16; 81]) -> Hint {
        if let Some(&c) = self.wrong_entries(values).first() {
            return Hint::pointing(
                HintKind::Mistake,
                format!(
                    "The {} in {} is wrong: the solution has another digit there.",
                    values[c],
                    cell_name(c)
                ),
                vec![c],
            );
        }
        let complete = marks_complete(values, marks);
        if complete
            && self.unique
            && let Some(c) =
                (0..81).find(|&c| values[c] == 0 && marks[c] & (1 << (self.solution[c] - 1)) == 0)
        {
            return Hint::pointing(
                HintKind::Marks,
                format!(
                    "Your pencil marks in {} leave out the digit that belongs there; filling the marks again puts it back.",
                    cell_name(c)
                ),
                vec![c],
            );
        }
        let read = if complete {
            *marks
        } else {
            std::array::from_fn(|c| {
                let keeps = self.solution[c] != 0 && marks[c] & (1 << (self.solution[c] - 1)) != 0;
                if keeps { marks[c] } else { 0 }
            })
        };
        hint_for_marks(values, &read)
    }

    /// The entries that are wrong: against the unique solution, or for a puzzle with several solutions whose
    /// entries no longer lead to any, against the grid it was made from.
    pub fn wrong_entries(&self, values: &[u8; 81]) -> Vec<usize> {
        if !self.unique && solvable(values) {
            return Vec::new();
        }
        (0..81)
            .filter(|&c| self.givens[c] == 0 && values[c] != 0 && values[c] != self.solution[c])
            .collect()
    }
}

/// Whether a grid keeps the rules and has a solution.
fn solvable(values: &[u8; 81]) -> bool {
    Grid::from_digits(*values).is_ok_and(|g| g.count_solutions(1) > 0)
}

/// The logical solver's next step for a grid with pencil marks (a cell without marks counts as every digit), and
/// the candidates it was read from.
fn next_step(values: &[u8; 81], marks: &[u16; 81]) -> (EngineHint, Option<Candidates>) {
    let mut all = *marks;
    for m in all.iter_mut() {
        if *m == 0 {
            *m = 0x1ff;
        }
    }
    match Candidates::from_pencil_marks(values, &all) {
        Ok(state) => (rate::hint_from(&state), Some(state)),
        Err(c) => (EngineHint::Contradiction(c), None),
    }
}

/// The next logical step for a grid with pencil marks, put in words with the cells it involves.
fn hint_for_marks(values: &[u8; 81], marks: &[u16; 81]) -> Hint {
    let (next, state) = next_step(values, marks);
    match next {
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
            let highlight = step
                .highlights
                .iter()
                .map(|h| (usize::from(h.cell), h.digit))
                .collect();
            let mut cells: Vec<usize> = pattern.iter().chain(&targets).copied().collect();
            cells.sort_unstable();
            let candidates = state
                .map(|st| {
                    cells
                        .iter()
                        .filter(|&&c| values[c] == 0)
                        .map(|&c| (c, st.candidates(c)))
                        .collect()
                })
                .unwrap_or_default();
            Hint {
                kind: HintKind::Step,
                text: format!("{step}."),
                pattern,
                targets,
                place,
                remove,
                highlight,
                candidates,
                step: Some(step),
            }
        }
        EngineHint::Solved => {
            Hint::pointing(HintKind::Solved, "The grid is complete.".into(), Vec::new())
        }
        EngineHint::Stuck => Hint::pointing(
            HintKind::Stuck,
            "No logical step is left from here: the rest needs guessing, or the grid has more than one \
             solution."
                .into(),
            Vec::new(),
        ),
        EngineHint::Contradiction(c) => contradiction(c),
        // Only `rate::hint_for` reports mistakes; `Puzzle::hint` looks for them itself first.
        EngineHint::Mistake { cell, digit } => Hint::pointing(
            HintKind::Mistake,
            format!(
                "The {digit} in {} is wrong: the solution has another digit there.",
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
    Hint::pointing(HintKind::NoSolution, text, vec![c.cell])
}

/// `reason` as a sentence: a capital first letter and a full stop.
fn sentence(reason: &str) -> String {
    let mut chars = reason.chars();
    let mut s: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}
