//! Rating puzzles and giving hints: the logical solver's verdict in a user's terms.
//!
//! A puzzle's grade is the hardest technique the logical solver needs (see [`crate::logic`]), with its rating
//! on Sudoku Explainer's scale; "needs guessing" is the grade beyond the last technique. Only when the logic gets
//! stuck is the solution counted, to tell "needs guessing" from "more than one solution".
//!
//! ```
//! use sudoku::Grid;
//! use sudoku::rate::{self, Verdict};
//!
//! let puzzle: Grid = "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.".parse()?;
//! let report = rate::rate(&puzzle, true);
//! assert_eq!(report.verdict, Verdict::Solved);
//! println!("{} {}", report.rating.unwrap(), report.grade());
//! println!("first step: {}", report.steps[0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::sync::atomic::AtomicBool;

use crate::generate::Difficulty;
use crate::grid::Grid;
use crate::logic::{self, Candidates, Conflict, Options, Rating, Status, Step, Technique};
use crate::stop::{Check, Never, Stopped};

/// How the rater's attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Solved by logic alone, and the solution is unique (proven by the logic, or counted when a step assumed it).
    Solved,
    /// The logic got stuck; the puzzle has exactly one solution, but the rest needs guessing.
    NeedsGuessing,
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has more than one solution.
    NotUnique,
}

impl Verdict {
    /// A stable identifier for machine-readable output.
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Solved => "rated",
            Verdict::NeedsGuessing => "needs_guessing",
            Verdict::NoSolution => "no_solution",
            Verdict::NotUnique => "not_unique",
        }
    }
}

/// A puzzle's grade: the hardest technique needed, or guessing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// Nothing to do: the grid is already full.
    Nothing,
    /// The hardest technique used.
    Technique(Technique),
    /// Beyond the last technique.
    NeedsGuessing,
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Grade::Nothing => f.write_str("nothing to solve"),
            Grade::Technique(t) => f.write_str(&t.name().to_lowercase()),
            Grade::NeedsGuessing => f.write_str("needs guessing"),
        }
    }
}

/// The rater's report on one puzzle.
#[derive(Debug, Clone)]
pub struct Report {
    /// How it ended.
    pub verdict: Verdict,
    /// The rating (the highest step rating) when solved by logic; `None` otherwise.
    pub rating: Option<Rating>,
    /// The hardest technique used (also when the logic got stuck: the hardest before that point).
    pub hardest: Option<Technique>,
    /// The highest step rating reached, solved or not.
    pub reached: Rating,
    /// Number of steps (each single counts as one).
    pub step_count: usize,
    /// The steps, when asked for.
    pub steps: Vec<Step>,
    /// Where the logic found a contradiction, for a grid without solution.
    pub conflict: Option<Conflict>,
}

impl Report {
    /// The grade.
    pub fn grade(&self) -> Grade {
        match (self.verdict, self.hardest) {
            (Verdict::Solved, Some(t)) => Grade::Technique(t),
            (Verdict::Solved, None) => Grade::Nothing,
            _ => Grade::NeedsGuessing,
        }
    }

    /// The generator level the rating falls in, for a puzzle solved by logic.
    pub fn difficulty(&self) -> Option<Difficulty> {
        self.rating.map(Difficulty::of)
    }
}

/// The logic state of a grid's digits. Fails on a repeated digit.
pub fn candidates(grid: &Grid) -> Result<Candidates, Conflict> {
    Candidates::from_values(grid.digits())
}

/// Rate a puzzle; with `explain`, keep every step.
pub fn rate(grid: &Grid, explain: bool) -> Report {
    let Ok(report) = rate_checked(grid, explain, Never);
    report
}

/// [`rate`] that looks at `stop` before every step of the logical solve and ends with [`Stopped`] once it is
/// raised (see [`crate::stop`]): the hardest puzzles take a second or more to rate, and no step of them more
/// than about 150 ms (measured on the forum's 375 hardest).
///
/// # Errors
/// [`Stopped`] when `stop` was raised before the rating was done.
pub fn rate_until(grid: &Grid, explain: bool, stop: &AtomicBool) -> Result<Report, Stopped> {
    rate_checked(grid, explain, stop)
}

/// [`rate`] with `check` before every step.
fn rate_checked<C: Check>(grid: &Grid, explain: bool, check: C) -> Result<Report, C::Error> {
    let state = match candidates(grid) {
        Ok(s) => s,
        Err(c) => {
            return Ok(Report {
                verdict: Verdict::NoSolution,
                rating: None,
                hardest: None,
                reached: Rating(0),
                step_count: 0,
                steps: Vec::new(),
                conflict: Some(c),
            });
        }
    };
    let out = logic::solve_checked(
        state,
        &Options {
            record: explain,
            ..Options::default()
        },
        check,
    )?;
    let (verdict, conflict) = match out.status {
        // A step that assumed one solution proves nothing about it: count them.
        Status::Solved if out.assumed_unique => match crate::solver::count_solutions(grid, 2) {
            0 => (Verdict::NoSolution, None),
            1 => (Verdict::Solved, None),
            _ => (Verdict::NotUnique, None),
        },
        Status::Solved => (Verdict::Solved, None),
        Status::Contradiction(c) => (Verdict::NoSolution, Some(c)),
        Status::Stuck => match crate::solver::count_solutions(grid, 2) {
            0 => (Verdict::NoSolution, None),
            1 => (Verdict::NeedsGuessing, None),
            _ => (Verdict::NotUnique, None),
        },
    };
    Ok(Report {
        verdict,
        rating: (verdict == Verdict::Solved).then_some(out.rating),
        hardest: out.hardest,
        reached: out.rating,
        step_count: out.step_count,
        steps: out.steps,
        conflict,
    })
}

/// What [`hint`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// The next logical step.
    Step(Step),
    /// Every cell is filled.
    Solved,
    /// No technique applies: only guessing is left (or the grid has several solutions).
    Stuck,
    /// The grid has no solution: a digit repeats, or the candidates run out (a wrong entry).
    Contradiction(Conflict),
    /// An entry differs from the puzzle's solution (only from [`hint_for`]).
    Mistake {
        /// The cell (0..81).
        cell: usize,
        /// The wrong digit there.
        digit: u8,
    },
}

/// The next logical step from a grid (a puzzle, or a puzzle with some cells filled in).
pub fn hint(grid: &Grid) -> Hint {
    match candidates(grid) {
        Ok(s) => hint_from(&s),
        Err(c) => Hint::Contradiction(c),
    }
}

/// The next logical step from a pencil-mark state (see [`Candidates::from_pencil_marks`]).
pub fn hint_from(state: &Candidates) -> Hint {
    if state.is_solved() {
        return Hint::Solved;
    }
    if let Some(c) = state.contradiction() {
        return Hint::Contradiction(c);
    }
    match logic::hint(state) {
        Some(step) => Hint::Step(step),
        None => Hint::Stuck,
    }
}

/// The next step for a player: `current` is `puzzle` with the player's entries. When the puzzle has a unique
/// solution and an entry disagrees with it, the first such entry is reported instead of a step, since steps
/// taken from a wrong entry would mislead.
pub fn hint_for(puzzle: &Grid, current: &Grid) -> Hint {
    if let Ok(solution) = crate::solver::solve(puzzle) {
        let sol = solution.digits();
        for (cell, (&d, &s)) in current.digits().iter().zip(sol.iter()).enumerate() {
            if d != 0 && d != s {
                return Hint::Mistake { cell, digit: d };
            }
        }
    }
    hint(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> Grid {
        match s.parse() {
            Ok(g) => g,
            Err(e) => panic!("bad test grid: {e}"),
        }
    }

    #[test]
    fn verdicts() {
        let easy = grid(
            "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.",
        );
        let r = rate(&easy, false);
        assert_eq!(r.verdict, Verdict::Solved);
        assert!(r.rating.is_some_and(|x| x <= Rating(25)));
        // Two clues only: many solutions.
        let sparse = grid(
            "1.......................................................................2........",
        );
        assert_eq!(rate(&sparse, false).verdict, Verdict::NotUnique);
        // A row with eight distinct digits and a column blocking the ninth: no solution.
        let dead = grid(
            "12345678.........9...............................................................",
        );
        assert_eq!(rate(&dead, false).verdict, Verdict::NoSolution);
    }

    #[test]
    fn hints() {
        let easy = grid(
            "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.",
        );
        let Hint::Step(step) = hint(&easy) else {
            panic!("a step expected")
        };
        assert_eq!(step.placements.len(), 1);
        let sol = crate::solver::solve(&easy).ok().map(|g| *g.digits());
        let p = step.placements[0];
        assert_eq!(sol.map(|s| s[usize::from(p.cell)]), Some(p.digit));
        // A wrong entry is reported as such.
        let mut wrong = *easy.digits();
        let cell = wrong.iter().position(|&d| d == 0).unwrap_or(0);
        let right = sol.map_or(0, |s| s[cell]);
        wrong[cell] = if right == 9 { 8 } else { right + 1 };
        if let Ok(current) = Grid::from_digits(wrong) {
            assert_eq!(
                hint_for(&easy, &current),
                Hint::Mistake {
                    cell,
                    digit: wrong[cell]
                }
            );
        }
        let solved = crate::solver::solve(&easy).unwrap_or(easy);
        assert_eq!(hint(&solved), Hint::Solved);
    }
}
