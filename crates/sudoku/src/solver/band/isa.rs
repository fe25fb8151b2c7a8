//! The few operations with a hand-vectorized version ([`Isa`]), and their portable version.

use super::tables::{lone_in_row, minirows};
use crate::grid::CELLS;

/// The few operations with a hand-vectorized version, chosen per copy of the search.
pub(super) trait Isa {
    /// In `f[base..base + 9]` (the nine digits of a band), remove `cells` from every word but `f[base + d]`;
    /// returns the set of digits whose word changed.
    fn clear_other_digits(f: &mut [u32; 27], base: usize, d: usize, cells: u32) -> u32;

    /// Occupied minirows of a band-digit word (bit `3r + k`).
    fn minirows(w: u32) -> usize;

    /// The cells of `w` that are alone in their row; every row of `w` must have a cell.
    fn lone_in_row(w: u32) -> u32;

    /// Over the nine digits of a band (`f[base..base + 9]`): the cells with at least one candidate, and those
    /// with at least two.
    fn candidate_counts(f: &[u32; 27], base: usize) -> (u32, u32);

    /// From the columns of a digit in the three bands (`c_0 | c_1 << 9 | c_2 << 18`, 9 bits each), the
    /// minicolumns of stack `s`: bit `3b + k` for band `b` and column `3s + k`.
    fn stack_minicols(cols: u32, s: usize) -> usize;

    /// The clues of an ASCII puzzle (81 bytes, then `'.'`): bit `c` of word `9b + d` for cell `c` of band `b`
    /// holding digit `d + 1`; `None` when a byte is not `'0'..='9'` or `'.'`.
    fn clue_masks(padded: &[u8; 96]) -> Option<[u32; 27]>;

    /// Over the nine digits of a band (`f[base..base + 9]`): the cells with exactly two candidates.
    fn two_candidates(f: &[u32; 27], base: usize) -> u32;

    /// For each digit `d`, the words `f[base1 + d]` (low 32 bits) and `f[base2 + d]` (high 32 bits) side by
    /// side.
    fn side_by_side(f: &[u32; 27], base1: usize, base2: usize) -> [u64; 9];

    /// The digits (bit `d`) whose word `f[base + d]` has cell `c`.
    fn cell_digits(f: &[u32; 27], base: usize, c: usize) -> u32;

    /// The inverse of [`Isa::stack_minicols`]: a 9-bit minicolumn set of stack `s` spread back onto the
    /// columns of the three bands.
    fn stack_spread(m: u32, s: usize) -> u32;
}

/// Plain Rust, for every processor.
pub(super) struct Portable;

impl Isa for Portable {
    #[inline(always)]
    fn clear_other_digits(f: &mut [u32; 27], base: usize, d: usize, cells: u32) -> u32 {
        let mut changed = 0u32;
        for d2 in 0..9 {
            let keep = if d2 == d { u32::MAX } else { !cells };
            let old = f[base + d2];
            let w = old & keep;
            f[base + d2] = w;
            changed |= ((w != old) as u32) << d2;
        }
        changed
    }

    #[inline(always)]
    fn minirows(w: u32) -> usize {
        minirows(w)
    }

    #[inline(always)]
    fn lone_in_row(w: u32) -> u32 {
        lone_in_row(w)
    }

    #[inline(always)]
    fn candidate_counts(f: &[u32; 27], base: usize) -> (u32, u32) {
        let mut ones = 0u32;
        let mut twos = 0u32;
        for d in 0..9 {
            let x = f[base + d];
            twos |= ones & x;
            ones |= x;
        }
        (ones, twos)
    }

    #[inline(always)]
    fn side_by_side(f: &[u32; 27], base1: usize, base2: usize) -> [u64; 9] {
        std::array::from_fn(|d| u64::from(f[base1 + d]) | u64::from(f[base2 + d]) << 32)
    }

    #[inline(always)]
    fn two_candidates(f: &[u32; 27], base: usize) -> u32 {
        let mut ones = 0u32;
        let mut twos = 0u32;
        let mut threes = 0u32;
        for d in 0..9 {
            let x = f[base + d];
            threes |= twos & x;
            twos |= ones & x;
            ones |= x;
        }
        twos & !threes
    }

    #[inline(always)]
    fn stack_minicols(cols: u32, s: usize) -> usize {
        let sh = 3 * s;
        (((cols >> sh) & 7) | (((cols >> (9 + sh)) & 7) << 3) | (((cols >> (18 + sh)) & 7) << 6))
            as usize
    }

    #[inline(always)]
    fn clue_masks(padded: &[u8; 96]) -> Option<[u32; 27]> {
        let mut has = [0u32; 27];
        let mut bad = false;
        for (i, &byte) in padded[..CELLS].iter().enumerate() {
            let v = byte.wrapping_sub(b'0');
            bad |= v > 9 && byte != b'.';
            if (1..=9).contains(&v) {
                has[9 * (i / 27) + usize::from(v) - 1] |= 1 << (i % 27);
            }
        }
        (!bad).then_some(has)
    }

    #[inline(always)]
    fn cell_digits(f: &[u32; 27], base: usize, c: usize) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((f[base + d] >> c) & 1) << d;
        }
        m
    }

    #[inline(always)]
    fn stack_spread(m: u32, s: usize) -> u32 {
        let sh = 3 * s;
        ((m & 7) << sh) | (((m >> 3) & 7) << (9 + sh)) | (((m >> 6) & 7) << (18 + sh))
    }
}
