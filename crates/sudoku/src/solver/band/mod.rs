//! The fast solver: band-oriented bitsets, permutation tables for locked candidates, bit-sliced naked singles,
//! and a depth-first search that copies a 128-byte state per guess.
//!
//! # Representation
//! For each band `b` (three rows) and digit `d`, one 27-bit word `f[9b + d]` holds the cells of the band where
//! `d` may still go, row by row (bit `9r + c` for row `r` of the band, column `c`). The nine words of a band are
//! contiguous, so updates across digits are branch-free loops the compiler vectorizes.
//!
//! # Reasoning
//! - **Band permutation.** In a band, a digit occupies exactly one *minirow* (three cells of a row inside a box)
//!   per row and per box, so its minirows form one of six permutations. A table maps the 9-bit set of occupied
//!   minirows to the union of the permutations still possible; masking with it performs pointing and claiming
//!   (locked candidates) for rows and boxes, and finds hidden singles in boxes and rows.
//! - **Stack permutation.** The same holds for minicolumns in a stack (columns × bands), with the same table;
//!   this covers locked candidates and hidden singles for columns.
//! - **Placement.** A row of a band-digit word with a single cell places the digit: the cell is removed from
//!   the other digits, and its column from the other bands.
//! - **Naked singles** and empty cells are found by bit-sliced counting over the nine digit words of a band.
//! - **Guessing** picks a cell with the fewest candidates (a bivalue cell when there is one), tries one digit on
//!   a copy of the state and the rest on the state itself. The first guess weighs the cells (see
//!   [`State::pick_cell`]); later guesses take the first bivalue cell until the search meets its first dead
//!   end (a puzzle with many solutions is often solved by a dive, where weighing the cells would cost more than
//!   it saves), and weigh them again from then on, which keeps the trees of hard puzzles small.
//!
//! # Files
//! `tables` (the constant tables), `isa` (the operations with a hand-vectorized version, and their portable
//! version), `avx2` (that version for x86_64), `state` (the search state and its propagation), and here the
//! search itself with its dispatch to the copy for this processor. Every function of the search's hot path is
//! `#[inline(always)]` and generic over the [`Isa`], so that each copy is compiled whole with its own
//! target features; the split into files does not change the code (measured in `docs/experiments/sudoku.md`).

// Bands, digits and cells index several parallel arrays at once here; index loops read better than zips.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
mod avx2;
mod isa;
mod state;
mod tables;
#[cfg(test)]
mod tests;

use std::mem::MaybeUninit;

use crate::grid::{CELLS, Grid};

#[cfg(target_arch = "x86_64")]
use avx2::Avx2;
use isa::{Isa, Portable};
use state::State;
use tables::ROW_BOX;

/// Count the solutions of `grid` up to `limit`, keeping the first one found; also the number of guesses.
///
/// On x86_64 processors with AVX2, BMI1/2, POPCNT and LZCNT (detected at run time, once), the search runs in a
/// copy compiled for them; elsewhere in the portable copy. Both come from the same source.
pub(crate) fn count(grid: &Grid, limit: u64) -> (u64, Option<Grid>, u64) {
    let (n, first, _, guesses) = dispatch(grid, limit, Keep::First);
    (n, first.map(|s| s.solution()), guesses)
}

/// [`count`] without building any solution: the count and the number of guesses.
pub(crate) fn count_only(grid: &Grid, limit: u64) -> (u64, u64) {
    let (n, _, _, guesses) = dispatch(grid, limit, Keep::None);
    (n, guesses)
}

/// [`count`] for a puzzle of 81 ASCII bytes (`'1'..='9'` a clue, `'0'` or `'.'` an empty cell), read without a
/// [`Grid`]; writes the first solution found to `first` (as ASCII digits) when asked. `None` when a byte is
/// anything else.
pub(crate) fn count_ascii(
    puzzle: &[u8; CELLS],
    limit: u64,
    first: Option<&mut [u8; CELLS]>,
) -> Option<(u64, u64)> {
    let keep = if first.is_some() {
        Keep::First
    } else {
        Keep::None
    };
    let mut padded = [b'.'; 96];
    padded[..CELLS].copy_from_slice(puzzle);
    #[cfg(target_arch = "x86_64")]
    let (n, found, _, guesses) = if has_x86_features() {
        // SAFETY: the features this copy is compiled for were just detected on this processor.
        unsafe { count_ascii_x86(&padded, limit, keep) }?
    } else {
        count_ascii_impl::<Portable>(&padded, limit, keep)?
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (n, found, _, guesses) = count_ascii_impl::<Portable>(&padded, limit, keep)?;
    if let (Some(out), Some(s)) = (first, found) {
        s.write_ascii(out);
    }
    Some((n, guesses))
}

/// [`count_ascii_impl`] compiled for processors with AVX2, BMI1/2, POPCNT and LZCNT.
///
/// # Safety
/// The processor must support those features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn count_ascii_x86(padded: &[u8; 96], limit: u64, keep: Keep) -> Option<Searched> {
    count_ascii_impl::<Avx2>(padded, limit, keep)
}

/// Reads the clues of an ASCII puzzle (81 bytes, then `'.'`) and searches; `None` for a byte that is not a
/// digit or `'.'`.
#[inline(always)]
fn count_ascii_impl<I: Isa>(padded: &[u8; 96], limit: u64, keep: Keep) -> Option<Searched> {
    let has = I::clue_masks(padded)?;
    Some(count_impl::<I>(State::from_clues::<I>(&has), limit, keep))
}

/// What a search found: the count, the first and the last solution (as states; when `keep` asked for them),
/// and the number of guesses.
type Searched = (u64, Option<State>, Option<State>, u64);

/// Which solutions a search builds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// None.
    None,
    /// The first found.
    First,
    /// The first and the last found.
    #[cfg_attr(not(test), allow(dead_code))]
    FirstAndLast,
}

/// Whether this processor has what the `*_x86` copies are compiled for: AVX2, POPCNT, BMI1/2 and LZCNT.
#[cfg(target_arch = "x86_64")]
fn has_x86_features() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// [`count`], also keeping the last solution found (the `limit`-th when there are that many).
#[cfg(test)]
pub(crate) fn count_keep_last(grid: &Grid, limit: u64) -> (u64, Option<Grid>, Option<Grid>, u64) {
    let (n, first, last, guesses) = dispatch(grid, limit, Keep::FirstAndLast);
    (
        n,
        first.map(|s| s.solution()),
        last.map(|s| s.solution()),
        guesses,
    )
}

/// [`count_impl`] in the copy for this processor.
fn dispatch(grid: &Grid, limit: u64, keep: Keep) -> Searched {
    #[cfg(target_arch = "x86_64")]
    {
        if has_x86_features() {
            // SAFETY: the features this copy is compiled for were just detected on this processor.
            return unsafe { count_x86(grid, limit, keep) };
        }
    }
    count_impl::<Portable>(State::new(grid), limit, keep)
}

/// [`count_impl`] compiled for processors with AVX2, BMI1/2, POPCNT and LZCNT.
///
/// # Safety
/// The processor must support those features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn count_x86(grid: &Grid, limit: u64, keep: Keep) -> Searched {
    count_impl::<Avx2>(State::new(grid), limit, keep)
}

/// The search from `start` (`None`: clues that repeat a digit, no solution); always inlined into its callers so
/// that each gets a copy built for its target features. Only the solutions `keep` asks for are kept; the others
/// are returned as `None`.
#[inline(always)]
fn count_impl<I: Isa>(start: Option<State>, limit: u64, keep: Keep) -> Searched {
    let Some(mut cur) = start else {
        return (0, None, None, 0);
    };
    if limit == 0 {
        return (0, None, None, 0);
    }
    let mut guesses = 0u64;
    let mut count = 0u64;
    let mut first = None;
    let mut last = None;
    // Pending alternatives: at most one per guess on the current path, and a path has at most 81 guesses.
    let mut stack = [const { MaybeUninit::<State>::uninit() }; CELLS + 1];
    let mut depth = 0usize;
    // Whether the search has met a dead end (a contradiction): until then it guesses on the first cell with
    // two candidates (but for its first guess), after that on the best one (see the module's docs).
    let mut dead_end = false;
    loop {
        let consistent = cur.propagate::<I>(false);
        dead_end |= !consistent;
        if consistent {
            if cur.is_solved() {
                count += 1;
                if count == 1 {
                    if keep != Keep::None {
                        first = Some(cur);
                    }
                } else if keep == Keep::FirstAndLast {
                    last = Some(cur);
                }
                if count >= limit {
                    break;
                }
            } else {
                let (b, c) = if dead_end || guesses == 0 {
                    cur.pick_cell::<I>()
                } else {
                    cur.first_pair_cell::<I>()
                };
                let bit = 1u32 << c;
                // The lowest candidate digit of the cell (9: none).
                let d = (I::cell_digits(&cur.f, 9 * b, c) | 1 << 9).trailing_zeros() as usize;
                if d < 9 && depth < stack.len() {
                    guesses += 1;
                    let j = 9 * b + d;
                    // The alternative: every other digit in this cell.
                    let mut alt = cur;
                    alt.f[j] &= !bit;
                    alt.dirty |= 1 << j;
                    alt.vdirty |= 1 << d;
                    stack[depth].write(alt);
                    depth += 1;
                    // This branch: the digit goes here.
                    cur.f[j] &= !ROW_BOX[c] | bit;
                    cur.dirty |= 1 << j;
                    continue;
                }
            }
        }
        if depth == 0 {
            break;
        }
        depth -= 1;
        // SAFETY: every slot below `depth` was written by the push above before `depth` grew past it.
        cur = unsafe { stack[depth].assume_init_read() };
    }
    (count, first, last.or(first), guesses)
}

/// A solution of `grid` other than `avoid` (itself a solution of `grid`), if there is one: the uniqueness check
/// of a puzzle whose solution is known. Each guess tries the digits other than `avoid`'s first, so a second
/// solution is usually met before `avoid`, and the search stops at it.
pub(crate) fn other_solution(grid: &Grid, avoid: &[u8; CELLS]) -> Option<Grid> {
    #[cfg(target_arch = "x86_64")]
    {
        if has_x86_features() {
            // SAFETY: the features this copy is compiled for were just detected on this processor.
            return unsafe { other_x86(grid, avoid) };
        }
    }
    other_impl::<Portable>(grid, avoid)
}

/// [`other_impl`] compiled for processors with AVX2, BMI1/2, POPCNT and LZCNT.
///
/// # Safety
/// The processor must support those features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn other_x86(grid: &Grid, avoid: &[u8; CELLS]) -> Option<Grid> {
    other_impl::<Avx2>(grid, avoid)
}

/// The search of [`other_solution`]; always inlined into its callers, as [`count_impl`].
#[inline(always)]
fn other_impl<I: Isa>(grid: &Grid, avoid: &[u8; CELLS]) -> Option<Grid> {
    let mut stack = [const { MaybeUninit::<State>::uninit() }; CELLS + 1];
    let mut depth = 0usize;
    let mut cur = State::new(grid)?;
    loop {
        if cur.propagate::<I>(true) {
            if cur.is_solved() {
                let g = cur.solution();
                if g.digits() != avoid {
                    return Some(g);
                }
            } else {
                let (b, c) = cur.pick_cell::<I>();
                let bit = 1u32 << c;
                // `avoid`'s digit, when it is still a candidate; otherwise the lowest candidate.
                let a = usize::from(avoid[27 * b + c]).wrapping_sub(1);
                let d = if a < 9 && cur.f[9 * b + a] & bit != 0 {
                    a
                } else {
                    (0..9).find(|&d| cur.f[9 * b + d] & bit != 0).unwrap_or(9)
                };
                if d < 9 && depth < stack.len() {
                    let j = 9 * b + d;
                    // Later: the digit goes here.
                    let mut later = cur;
                    later.f[j] &= !ROW_BOX[c] | bit;
                    later.dirty |= 1 << j;
                    stack[depth].write(later);
                    depth += 1;
                    // First: every other digit in this cell.
                    cur.f[j] &= !bit;
                    cur.dirty |= 1 << j;
                    cur.vdirty |= 1 << d;
                    continue;
                }
            }
        }
        if depth == 0 {
            return None;
        }
        depth -= 1;
        // SAFETY: every slot below `depth` was written by the push above before `depth` grew past it.
        cur = unsafe { stack[depth].assume_init_read() };
    }
}
