//! boardlab's sudoku solver behind a C ABI, for programs in other languages: count the solutions of a puzzle up
//! to a limit, and find one.
//!
//! The crate builds `libboardlab_sudoku.a` (static) and `libboardlab_sudoku.so` (shared); the C declarations
//! are in `include/boardlab_sudoku.h` beside this crate's `Cargo.toml`. A puzzle is 81 bytes in row-major
//! order: `'1'..='9'` for a clue, `'.'` or `'0'` for an empty cell.
//!
//! ```c
//! #include "boardlab_sudoku.h"
//!
//! char solution[81];
//! size_t guesses;
//! size_t n = boardlab_sudoku_solve(puzzle, 2, solution, &guesses);
//! if (n == 1) { /* unique: `solution` holds it */ }
//! else if (n == BOARDLAB_SUDOKU_INVALID) { int at = boardlab_sudoku_check(puzzle); /* the bad byte */ }
//! ```
//!
//! The same functions are callable from Rust (they are what the C functions run), which is how this crate's
//! own unit tests drive them; the integration test compiles a C program against the header and the static
//! library and runs it.
//!
//! # Safety
//! Every pointer argument may be null (the functions then report an invalid puzzle, or skip that output);
//! otherwise a puzzle pointer must point to at least 81 readable bytes, a solution pointer to at least 81
//! writable bytes, and a guess-count pointer to a writable `size_t`. The puzzle and the solution may be the
//! same buffer. The functions keep no state between calls and may run on any number of threads at once.

use std::ffi::{c_char, c_int};

use sudoku::CELLS;

/// What the counting functions return for a puzzle that cannot be read (a null pointer, or a byte that is not
/// a digit or `'.'`): `SIZE_MAX`, `BOARDLAB_SUDOKU_INVALID` in the header.
pub const INVALID: usize = usize::MAX;

/// The 81 cells of an ASCII puzzle as values `0..=9`, or the index of the first byte that is not `'0'..='9'`
/// or `'.'`.
fn digits_of(bytes: &[u8; CELLS]) -> Result<[u8; CELLS], usize> {
    let mut out = [0u8; CELLS];
    let mut bad = false;
    for (o, &b) in out.iter_mut().zip(bytes) {
        let v = b.wrapping_sub(b'0');
        bad |= v > 9 && b != b'.';
        *o = if v > 9 { 0 } else { v };
    }
    if bad {
        Err(bytes
            .iter()
            .position(|&b| !(b.is_ascii_digit() || b == b'.'))
            .unwrap_or(0))
    } else {
        Ok(out)
    }
}

/// Copies the 81 bytes at `puzzle` (null gives `None`).
///
/// # Safety
/// `puzzle` is null or points to at least 81 readable bytes.
unsafe fn read_puzzle(puzzle: *const c_char) -> Option<[u8; CELLS]> {
    if puzzle.is_null() {
        return None;
    }
    let mut bytes = [0u8; CELLS];
    // SAFETY: the caller guarantees 81 readable bytes at `puzzle`; `bytes` is a distinct local.
    unsafe { std::ptr::copy_nonoverlapping(puzzle.cast::<u8>(), bytes.as_mut_ptr(), CELLS) };
    Some(bytes)
}

/// The number of solutions of the 81-byte `puzzle`, counting no further than `limit`; [`INVALID`] when it
/// cannot be read. See `boardlab_sudoku_count` in the header.
///
/// # Safety
/// `puzzle` is null or points to at least 81 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardlab_sudoku_count(puzzle: *const c_char, limit: usize) -> usize {
    // SAFETY: forwarded from the caller; null outputs are skipped.
    unsafe { boardlab_sudoku_solve(puzzle, limit, std::ptr::null_mut(), std::ptr::null_mut()) }
}

/// Counts the solutions of `puzzle` up to `limit` like [`boardlab_sudoku_count`], writes the first solution
/// found to `solution` (81 bytes `'1'..='9'`, no NUL) when there is one and `solution` is not null, and the
/// number of guesses to `guesses` when it is not null.
///
/// # Safety
/// `puzzle` is null or points to at least 81 readable bytes; `solution` is null or points to at least 81
/// writable bytes (it may be `puzzle` itself); `guesses` is null or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardlab_sudoku_solve(
    puzzle: *const c_char,
    limit: usize,
    solution: *mut c_char,
    guesses: *mut usize,
) -> usize {
    // SAFETY: forwarded from the caller.
    let Some(bytes) = (unsafe { read_puzzle(puzzle) }) else {
        return INVALID;
    };
    // A limit of SIZE_MAX counts to one less, so that a count never reads as INVALID.
    let limit = limit.min(INVALID - 1) as u64;
    let mut out = [0u8; CELLS];
    let want = !solution.is_null();
    let Some((count, stats)) =
        sudoku::solver::count_solutions_ascii(&bytes, limit, want.then_some(&mut out))
    else {
        return INVALID;
    };
    if want && count > 0 {
        // SAFETY: the caller guarantees 81 writable bytes at `solution`; the puzzle was copied out before.
        unsafe { std::ptr::copy_nonoverlapping(out.as_ptr(), solution.cast::<u8>(), CELLS) };
    }
    if !guesses.is_null() {
        // SAFETY: the caller guarantees a writable size_t at `guesses`.
        unsafe { guesses.write(usize::try_from(stats.guesses).unwrap_or(usize::MAX)) };
    }
    // The count is at most the limit, which fits a usize.
    usize::try_from(count).unwrap_or(INVALID - 1)
}

/// Where `puzzle` cannot be read: the index of the first byte that is neither a digit nor `'.'`, `-1` when all
/// 81 are fine, `-2` for a null pointer.
///
/// # Safety
/// `puzzle` is null or points to at least 81 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boardlab_sudoku_check(puzzle: *const c_char) -> c_int {
    // SAFETY: forwarded from the caller.
    match unsafe { read_puzzle(puzzle) } {
        None => -2,
        Some(bytes) => match digits_of(&bytes) {
            Ok(_) => -1,
            // At most 80.
            Err(i) => i as c_int,
        },
    }
}

#[cfg(test)]
mod tests {
    // Test code: a failed unwrap is a failed test.
    #![allow(clippy::unwrap_used)]

    use super::*;

    const NORVIG_HARD: &[u8; 81] =
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const NORVIG_HARD_SOLUTION: &[u8; 81] =
        b"417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    fn solve(p: &[u8], limit: usize) -> (usize, Option<[u8; 81]>, usize) {
        let mut sol = [b'x'; 81];
        let mut guesses = usize::MAX;
        let n = unsafe {
            boardlab_sudoku_solve(
                p.as_ptr().cast(),
                limit,
                sol.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        (n, (sol[0] != b'x').then_some(sol), guesses)
    }

    #[test]
    fn solves_and_counts() {
        let (n, sol, _) = solve(NORVIG_HARD, 2);
        assert_eq!(n, 1);
        assert_eq!(&sol.unwrap(), NORVIG_HARD_SOLUTION);
        // Zeros for empty cells read the same.
        let zeros: Vec<u8> = NORVIG_HARD
            .iter()
            .map(|&b| if b == b'.' { b'0' } else { b })
            .collect();
        assert_eq!(solve(&zeros, 2).1.unwrap(), *NORVIG_HARD_SOLUTION);
        let empty = [b'.'; 81];
        assert_eq!(
            unsafe { boardlab_sudoku_count(empty.as_ptr().cast(), 100) },
            100
        );
        assert_eq!(
            unsafe { boardlab_sudoku_count(empty.as_ptr().cast(), 0) },
            0
        );
        // A repeated clue: no solution, and the solution buffer untouched.
        let mut twice = *NORVIG_HARD;
        twice[1] = b'4';
        assert_eq!(solve(&twice, 2), (0, None, 0));
        // In place.
        let mut buf = *NORVIG_HARD;
        let p = buf.as_mut_ptr().cast::<c_char>();
        assert_eq!(
            unsafe { boardlab_sudoku_solve(p, 1, p, std::ptr::null_mut()) },
            1
        );
        assert_eq!(&buf, NORVIG_HARD_SOLUTION);
    }

    #[test]
    fn bad_input_is_reported_not_read_past() {
        let mut bad = *NORVIG_HARD;
        bad[40] = b'x';
        let (n, sol, guesses) = solve(&bad, 2);
        assert_eq!((n, sol, guesses), (INVALID, None, usize::MAX));
        assert_eq!(unsafe { boardlab_sudoku_check(bad.as_ptr().cast()) }, 40);
        assert_eq!(
            unsafe { boardlab_sudoku_check(NORVIG_HARD.as_ptr().cast()) },
            -1
        );
        assert_eq!(unsafe { boardlab_sudoku_check(std::ptr::null()) }, -2);
        assert_eq!(
            unsafe { boardlab_sudoku_count(std::ptr::null(), 2) },
            INVALID
        );
        // A limit of SIZE_MAX never returns INVALID for a readable puzzle.
        assert_eq!(
            unsafe { boardlab_sudoku_count(NORVIG_HARD.as_ptr().cast(), usize::MAX) },
            1
        );
    }
}
