//! A puzzle: its clues and a solution, made by the generator or the classic shuffle, or pasted by the player and
//! checked.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use sudoku::Grid;
use sudoku::classic::{self, ClassicError, ClassicOptions};
use sudoku::generate::{self, GenerateOptions};
use sudoku::logic::tables::cell_name;
use sudoku::rng::Rng;

use super::SudokuError;
use super::board::digits81;
use super::setup::{Mode, Setup};

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
        Puzzle::make_until(setup, None)
    }

    /// [`Puzzle::make`] that stops once `stop` is raised (the generator and the classic method look at it
    /// between their steps).
    ///
    /// # Errors
    /// As [`Puzzle::make`], and [`SudokuError::Stopped`] when `stop` was raised before the puzzle was made.
    pub fn make_until(setup: &Setup, stop: Option<&AtomicBool>) -> Result<Puzzle, SudokuError> {
        let failed = |e: String| SudokuError::NoPuzzle(e);
        match setup.mode {
            Mode::Graded => {
                let opts = GenerateOptions {
                    difficulty: setup.difficulty_level()?,
                    symmetry: setup.symmetry_kind()?,
                };
                let mut rng = Rng::for_item(setup.seed, setup.index);
                let g = generate::generate_until(&opts, &mut rng, stop)
                    .map_err(|e| failed(e.to_string()))?
                    .ok_or(SudokuError::Stopped)?;
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
                let c = match stop {
                    None => classic::classic(&opts, &mut rng),
                    Some(flag) => classic::classic_until(&opts, &mut rng, flag),
                }
                .map_err(|e| match e {
                    ClassicError::Stopped => SudokuError::Stopped,
                    e => failed(e.to_string()),
                })?;
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

    /// A puzzle pasted by the player (as [`Puzzle::from_text`] reads and checks it), labelled with its clues:
    /// "pasted · 32 clues", with " · more than one solution" when it has several.
    ///
    /// # Errors
    /// As [`Puzzle::from_text`].
    pub fn pasted(text: &str) -> Result<Puzzle, SudokuError> {
        let p = Puzzle::from_text(text, "")?;
        let clues = p.givens.iter().filter(|&&d| d != 0).count();
        let label = format!(
            "pasted · {clues} clues{}",
            if p.unique {
                ""
            } else {
                " · more than one solution"
            }
        );
        Ok(Puzzle { label, ..p })
    }

    /// Check a puzzle read from a save.
    pub(super) fn check(&self) -> Result<(), String> {
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
