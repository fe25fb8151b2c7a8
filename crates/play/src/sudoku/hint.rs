//! Hints: the logical solver's next step for a grid with pencil marks, put in words with the cells it involves.

use serde::Serialize;
use sudoku::logic::Candidates;
use sudoku::logic::tables::cell_name;
use sudoku::rate::{self, Hint as EngineHint};

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
    pub(super) fn pointing(text: String, pattern: Vec<usize>) -> Hint {
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
