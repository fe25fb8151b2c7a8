//! The solver: counts solutions up to a limit, and finds the unique solution.
//!
//! ```
//! use sudoku::{Grid, SolveError};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......".parse()?;
//! let solution = puzzle.solve()?;
//! assert!(solution.check_solution_of(&puzzle).is_ok());
//! assert_eq!(puzzle.count_solutions(2), 1);
//!
//! // The empty grid has billions of solutions: counting stops at the limit.
//! assert_eq!(Grid::EMPTY.count_solutions(1000), 1000);
//! assert_eq!(Grid::EMPTY.solve(), Err(SolveError::MultipleSolutions));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod band;
pub mod reference;

use std::fmt;

use crate::grid::{CELLS, Grid};

/// Why [`Grid::solve`] found no unique solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolveError {
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has more than one solution.
    MultipleSolutions,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SolveError::NoSolution => "no solution",
            SolveError::MultipleSolutions => "more than one solution",
        })
    }
}

impl std::error::Error for SolveError {}

/// The result of [`count_solutions_with_first`]: how many solutions (up to the limit) and the first one found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counted {
    /// `min(number of solutions, limit)`.
    pub count: u64,
    /// The first solution found, if any.
    pub first: Option<Grid>,
}

/// A solution of `grid` other than `avoid` (which must be one of its solutions), if it has another: whether a
/// puzzle whose solution is known is unique, usually faster than counting to two.
pub(crate) fn other_solution(grid: &Grid, avoid: &[u8; 81]) -> Option<Grid> {
    band::other_solution(grid, avoid)
}

/// Statistics of one search (see [`count_solutions_with_stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SearchStats {
    /// Guesses made: each time the search tried one digit in a cell and kept the others for later.
    pub guesses: u64,
}

/// Like [`count_solutions_with_first`], also returning statistics of the search.
#[must_use]
pub fn count_solutions_with_stats(grid: &Grid, limit: u64) -> (Counted, SearchStats) {
    let (count, first, guesses) = band::count(grid, limit);
    (Counted { count, first }, SearchStats { guesses })
}

/// The number of solutions of `grid`, counting no further than `limit`: `0`, `1`, …, or `limit` meaning "at
/// least `limit`". A limit of 0 returns 0 without searching. A grid with a repeated digit has no solution.
#[must_use]
pub fn count_solutions(grid: &Grid, limit: u64) -> u64 {
    band::count_only(grid, limit).0
}

/// Like [`count_solutions`], also returning statistics of the search; no solution is built (for a caller that
/// wants only the count, as fast as it can be had).
#[must_use]
pub fn count_solutions_only_with_stats(grid: &Grid, limit: u64) -> (u64, SearchStats) {
    let (count, guesses) = band::count_only(grid, limit);
    (count, SearchStats { guesses })
}

/// Counts the solutions of a puzzle given as 81 ASCII bytes in row-major order (`'1'..='9'` a clue, `'0'` or
/// `'.'` an empty cell) up to `limit`, as [`count_solutions`] does, without building a [`Grid`]: the quickest way
/// in from text (the C interface uses it). When `first` is given, the first solution found (the one
/// [`count_solutions_with_first`] finds) is written to it as 81 ASCII digits; it is left untouched when there is
/// none. Returns the count and the statistics of the search, or `None` when a byte is anything else.
///
/// ```
/// let puzzle = b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// let mut solution = [0u8; 81];
/// let (count, _) = sudoku::solver::count_solutions_ascii(puzzle, 2, Some(&mut solution)).unwrap();
/// assert_eq!(count, 1);
/// assert_eq!(&solution[..9], b"417369825");
/// assert_eq!(sudoku::solver::count_solutions_ascii(&[b'x'; 81], 2, None), None);
/// ```
#[must_use]
pub fn count_solutions_ascii(
    puzzle: &[u8; CELLS],
    limit: u64,
    first: Option<&mut [u8; CELLS]>,
) -> Option<(u64, SearchStats)> {
    band::count_ascii(puzzle, limit, first).map(|(count, guesses)| (count, SearchStats { guesses }))
}

/// Like [`count_solutions`], also returning the first solution found (the one [`first_solution`] returns).
#[must_use]
pub fn count_solutions_with_first(grid: &Grid, limit: u64) -> Counted {
    let (count, first, _) = band::count(grid, limit);
    Counted { count, first }
}

/// The unique solution of `grid`.
///
/// # Errors
/// [`SolveError::NoSolution`] or [`SolveError::MultipleSolutions`].
pub fn solve(grid: &Grid) -> Result<Grid, SolveError> {
    match count_solutions_with_first(grid, 2) {
        Counted {
            count: 1,
            first: Some(g),
        } => Ok(g),
        Counted { count: 0, .. } => Err(SolveError::NoSolution),
        _ => Err(SolveError::MultipleSolutions),
    }
}

/// One solution of `grid` (the first the search meets), whether or not it is unique; `None` if it has none.
#[must_use]
pub fn first_solution(grid: &Grid) -> Option<Grid> {
    count_solutions_with_first(grid, 1).first
}

impl Grid {
    /// See [`count_solutions`].
    #[must_use]
    pub fn count_solutions(&self, limit: u64) -> u64 {
        count_solutions(self, limit)
    }

    /// See [`solve`].
    ///
    /// # Errors
    /// [`SolveError::NoSolution`] or [`SolveError::MultipleSolutions`].
    pub fn solve(&self) -> Result<Grid, SolveError> {
        solve(self)
    }

    /// See [`first_solution`].
    #[must_use]
    pub fn first_solution(&self) -> Option<Grid> {
        first_solution(self)
    }

    /// Whether the grid has exactly one solution.
    #[must_use]
    pub fn has_unique_solution(&self) -> bool {
        count_solutions(self, 2) == 1
    }
}
