//! The classic method of the 1 KB ZX-81 Sudoku: take a valid grid, shuffle it with moves that keep it valid, and
//! hide some cells (27 by default).
//!
//! The shuffle relabels the digits, permutes the rows within each band and the columns within each stack,
//! permutes the bands and the stacks, and transposes and rotates the grid, all at random. Every one of these maps
//! a valid grid to a valid grid. The hidden cells are drawn at random, so the puzzle may have several solutions;
//! it is marked as such unless uniqueness is asked for, in which case cells are only hidden while the solution
//! stays unique.
//!
//! ```
//! use sudoku::classic::{self, ClassicOptions};
//! use sudoku::rng::Rng;
//!
//! let mut rng = Rng::new(1982);
//! let c = classic::classic(&ClassicOptions { hide: 27, unique: true }, &mut rng).unwrap();
//! assert_eq!(c.puzzle.iter().filter(|&&d| d == 0).count(), 27);
//! assert_eq!(c.unique, Some(true));
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::Grid;
use crate::rng::Rng;
use crate::stop::Stopped;

/// The built-in base grids, as 81-digit rows.
pub const BASE_GRIDS: [&str; 7] = [
    // The pattern grid: each row shifts the one above by three (or one, at a band boundary).
    "123456789456789123789123456234567891567891234891234567345678912678912345912345678",
    "319865427826147359574239186793456812241398765658712943437521698985674231162983574",
    "493567812851234967627891435372485196568129374149673258214356789936748521785912643",
    "674829531128345679953761284546197823831452796792638415467213958385974162219586347",
    "452698317976143258318572649693854172547219863821367594785921436269435781134786925",
    "261543897497862135385197642738951426914276583526384971659728314142639758873415269",
    "567843192934217568128659734692581347871432956453796821389124675216975483745368219",
];

/// The base grid number `i` as digits.
pub fn base_grid(i: usize) -> [u8; 81] {
    let mut g = [0u8; 81];
    for (x, ch) in g.iter_mut().zip(BASE_GRIDS[i % BASE_GRIDS.len()].bytes()) {
        *x = ch - b'0';
    }
    g
}

/// A move that keeps a grid valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transform {
    /// Digit `d` becomes `map[d - 1]` (a permutation of 1..=9).
    Relabel([u8; 9]),
    /// Within band `band` (0..3), row `i` of the band takes the old row `perm[i]`.
    RowsInBand {
        /// The band.
        band: u8,
        /// A permutation of 0..3.
        perm: [u8; 3],
    },
    /// Within stack `stack` (0..3), column `i` of the stack takes the old column `perm[i]`.
    ColumnsInStack {
        /// The stack.
        stack: u8,
        /// A permutation of 0..3.
        perm: [u8; 3],
    },
    /// Band `i` takes the old band `perm[i]`.
    Bands([u8; 3]),
    /// Stack `i` takes the old stack `perm[i]`.
    Stacks([u8; 3]),
    /// Rows become columns.
    Transpose,
    /// A quarter turn clockwise, this many times (0..4).
    Rotate(u8),
}

impl Transform {
    /// Apply to a grid (0 for empty cells stays 0).
    pub fn apply(self, g: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = match self {
                    Transform::Relabel(_) => (r, c),
                    Transform::RowsInBand { band, perm } => {
                        let b = usize::from(band);
                        if r / 3 == b {
                            (b * 3 + usize::from(perm[r % 3]), c)
                        } else {
                            (r, c)
                        }
                    }
                    Transform::ColumnsInStack { stack, perm } => {
                        let s = usize::from(stack);
                        if c / 3 == s {
                            (r, s * 3 + usize::from(perm[c % 3]))
                        } else {
                            (r, c)
                        }
                    }
                    Transform::Bands(perm) => (usize::from(perm[r / 3]) * 3 + r % 3, c),
                    Transform::Stacks(perm) => (r, usize::from(perm[c / 3]) * 3 + c % 3),
                    Transform::Transpose => (c, r),
                    Transform::Rotate(k) => {
                        let (mut rr, mut cc) = (r, c);
                        for _ in 0..k % 4 {
                            // Clockwise: the new (r, c) shows the old (8 - c, r).
                            (rr, cc) = (8 - cc, rr);
                        }
                        (rr, cc)
                    }
                };
                let d = g[sr * 9 + sc];
                out[r * 9 + c] = match self {
                    Transform::Relabel(map) if d != 0 => map[usize::from(d - 1)],
                    _ => d,
                };
            }
        }
        out
    }
}

fn perm3(rng: &mut Rng) -> [u8; 3] {
    let mut p = [0u8, 1, 2];
    rng.shuffle(&mut p);
    p
}

/// A random sequence of transforms covering every kind: relabelling, rows within each band, columns within each
/// stack, bands, stacks, an optional transposition and a rotation.
pub fn random_transforms(rng: &mut Rng) -> Vec<Transform> {
    let mut map = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut map);
    let mut v = vec![Transform::Relabel(map)];
    for band in 0..3 {
        v.push(Transform::RowsInBand {
            band,
            perm: perm3(rng),
        });
    }
    for stack in 0..3 {
        v.push(Transform::ColumnsInStack {
            stack,
            perm: perm3(rng),
        });
    }
    v.push(Transform::Bands(perm3(rng)));
    v.push(Transform::Stacks(perm3(rng)));
    if rng.coin() {
        v.push(Transform::Transpose);
    }
    v.push(Transform::Rotate(rng.below(4) as u8));
    v
}

/// The most cells the classic method hides: a sudoku keeps at least 17 clues, and every front end (the command
/// line, the server, a loaded game) takes the same range, 0 to this.
pub const MAX_HIDE: usize = 64;

/// What to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassicOptions {
    /// Cells to hide (the ZX-81 hid 27).
    pub hide: usize,
    /// Only hide cells while the solution stays unique.
    pub unique: bool,
}

impl Default for ClassicOptions {
    fn default() -> Self {
        Self {
            hide: 27,
            unique: false,
        }
    }
}

/// A classic puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classic {
    /// The clues (0 = hidden).
    pub puzzle: [u8; 81],
    /// The shuffled grid the clues come from (a solution; the only one when `unique` is `Some(true)`).
    pub solution: [u8; 81],
    /// Which built-in base grid was shuffled.
    pub base: usize,
    /// `Some(true)` when uniqueness was asked for (and so checked); `None`: not checked, possibly not unique.
    pub unique: Option<bool>,
}

/// The classic method could not hide that many cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassicError {
    /// More than [`MAX_HIDE`] cells.
    TooMany {
        /// Asked for.
        hide: usize,
    },
    /// Uniqueness asked for, and no attempt could hide that many cells.
    NotUnique {
        /// Asked for.
        hide: usize,
        /// The most cells hidden with a unique solution.
        best: usize,
    },
    /// The stop flag of [`classic_until`] was raised before the puzzle was made.
    Stopped,
}

impl fmt::Display for ClassicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassicError::TooMany { hide } => write!(
                f,
                "cannot hide {hide} cells: a puzzle keeps at least 17 clues, so at most {MAX_HIDE} cells are hidden"
            ),
            ClassicError::NotUnique { hide, best } => write!(
                f,
                "cannot hide {hide} cells and keep the solution unique (the most reached was {best}; a unique \
                 puzzle keeps at least 17 clues, and shuffled puzzles rarely get below about 24)"
            ),
            ClassicError::Stopped => f.write_str(&Stopped.to_string()),
        }
    }
}

impl std::error::Error for ClassicError {}

/// Shuffled grids tried before giving up on a unique puzzle.
const UNIQUE_ATTEMPTS: usize = 20;

/// Make a classic puzzle.
///
/// # Errors
/// [`ClassicError::TooMany`] past [`MAX_HIDE`]; [`ClassicError::NotUnique`] when uniqueness was asked for and no
/// shuffled grid tried kept it with that many cells hidden.
pub fn classic(opts: &ClassicOptions, rng: &mut Rng) -> Result<Classic, ClassicError> {
    classic_checked(opts, rng, || false)
}

/// [`classic`] that looks at `stop` before every grid and every cell it tries to hide (with uniqueness asked
/// for, up to 20 grids and 81 solution counts each), and ends with [`ClassicError::Stopped`] once it is raised;
/// `rng` has then moved on by an unspecified amount.
///
/// # Errors
/// As [`classic`], and [`ClassicError::Stopped`].
pub fn classic_until(
    opts: &ClassicOptions,
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Result<Classic, ClassicError> {
    classic_checked(opts, rng, || stop.load(Ordering::Relaxed))
}

/// [`classic`], stopping when `stopped` says so.
fn classic_checked(
    opts: &ClassicOptions,
    rng: &mut Rng,
    stopped: impl Fn() -> bool,
) -> Result<Classic, ClassicError> {
    if opts.hide > MAX_HIDE {
        return Err(ClassicError::TooMany { hide: opts.hide });
    }
    let mut best = 0;
    for _ in 0..(if opts.unique { UNIQUE_ATTEMPTS } else { 1 }) {
        if stopped() {
            return Err(ClassicError::Stopped);
        }
        let base = rng.below(BASE_GRIDS.len() as u32) as usize;
        let mut grid = base_grid(base);
        for t in random_transforms(rng) {
            grid = t.apply(&grid);
        }
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        let mut puzzle = grid;
        if !opts.unique {
            for &c in &cells[..opts.hide] {
                puzzle[c] = 0;
            }
            return Ok(Classic {
                puzzle,
                solution: grid,
                base,
                unique: None,
            });
        }
        let mut hidden = 0;
        for &c in &cells {
            if hidden == opts.hide {
                break;
            }
            if stopped() {
                return Err(ClassicError::Stopped);
            }
            puzzle[c] = 0;
            let unique =
                Grid::from_digits(puzzle).is_ok_and(|g| crate::solver::count_solutions(&g, 2) == 1);
            if unique {
                hidden += 1;
            } else {
                puzzle[c] = grid[c];
            }
        }
        best = best.max(hidden);
        if hidden == opts.hide {
            return Ok(Classic {
                puzzle,
                solution: grid,
                base,
                unique: Some(true),
            });
        }
    }
    Err(ClassicError::NotUnique {
        hide: opts.hide,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_grids_are_valid() {
        for i in 0..BASE_GRIDS.len() {
            let g = base_grid(i);
            assert!(
                crate::logic::Candidates::from_values(&g).is_ok_and(|s| s.is_solved()),
                "base grid {i}"
            );
        }
    }

    #[test]
    fn rotation_four_times_is_identity_and_transpose_is_an_involution() {
        let g = base_grid(1);
        assert_eq!(Transform::Rotate(4).apply(&g), g);
        assert_eq!(
            Transform::Rotate(1).apply(&Transform::Rotate(3).apply(&g)),
            g
        );
        assert_eq!(
            Transform::Transpose.apply(&Transform::Transpose.apply(&g)),
            g
        );
        // A quarter turn moves the top-left corner to the top-right.
        assert_eq!(Transform::Rotate(1).apply(&g)[8], g[0]);
    }
}
