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

// Bands, digits and cells index several parallel arrays at once here; index loops read better than zips.
#![allow(clippy::needless_range_loop)]

use std::mem::MaybeUninit;

use crate::grid::{CELLS, Grid};

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// Replicates a 9-bit column set over the three rows of a band.
const COLS_TO_BAND: u32 = 1 | (1 << 9) | (1 << 18);

/// The six permutations of three rows onto three boxes, as 9-bit minirow sets (bit `3r + k`).
const PERMS: [u16; 6] = {
    let sigma: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u16; 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            out[p] |= 1 << (3 * r + sigma[p][r]);
            r += 1;
        }
        p += 1;
    }
    out
};

/// For a 9-bit set of occupied minirows (or minicolumns), the union of the permutations inside it.
static PERM_ALLOWED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut p = 0;
        while p < 6 {
            if occ as u16 & PERMS[p] == PERMS[p] {
                t[occ] |= PERMS[p];
            }
            p += 1;
        }
        occ += 1;
    }
    t
};

/// For a 9-bit set of occupied minirows (or minicolumns), the minirows every permutation inside it uses.
static PERM_FORCED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut acc = 0x1FFu16;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            if occ as u16 & PERMS[p] == PERMS[p] {
                acc &= PERMS[p];
                any = true;
            }
            p += 1;
        }
        t[occ] = if any { acc } else { 0 };
        occ += 1;
    }
    t
};

/// For minirow `m` (bit `3r + k`), the other minirows of its row and box.
static MINIROW_RIVALS: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut m = 0;
    while m < 9 {
        let (r, k) = (m / 3, m % 3);
        t[m] = ((0b111 << (3 * r)) | (0b1001001 << k)) & !(1 << m);
        m += 1;
    }
    t
};

/// [`PERM_ALLOWED`] expanded to cells: bit `3r + k` becomes the three cells of minirow `(r, k)`.
static PERM_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let a = PERM_ALLOWED[occ] as u32;
        let mut m = 0;
        let mut i = 0;
        while i < 9 {
            if a & (1 << i) != 0 {
                let (r, k) = (i / 3, i % 3);
                m |= 7 << (9 * r + 3 * k);
            }
            i += 1;
        }
        t[occ] = m;
        occ += 1;
    }
    t
};

/// For a 9-bit row, its occupied boxes (3 bits).
static ROW_BOXES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if v & (7 << (3 * k)) != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// For each cell of a band, the cells of its row and box (itself included).
static ROW_BOX: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut c = 0;
    while c < 27 {
        let (r, col) = (c / 9, c % 9);
        t[c] = (0x1FF << (9 * r)) | ((7 << (3 * (col / 3))) * COLS_TO_BAND);
        c += 1;
    }
    t
};

/// For a set of minirows (bit `3r + k`, those of a digit's clues in a band): the cells of their rows and
/// boxes (low 27 bits), and in the top four bits how many minirows there are when no two share a row or a box,
/// else 15 (the clues of a digit, one a minirow, are fine when their count is this).
static CLUE_SHADOW: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cells = 0u32;
        let (mut rows, mut boxes, mut n) = (0u32, 0u32, 0u32);
        let mut ok = true;
        let mut i = 0;
        while i < 9 {
            if m & (1 << i) != 0 {
                let (r, k) = (i / 3, i % 3);
                ok &= rows & (1 << r) == 0 && boxes & (1 << k) == 0;
                rows |= 1 << r;
                boxes |= 1 << k;
                n += 1;
                cells |= (0x1FF << (9 * r)) | ((7 << (3 * k)) * COLS_TO_BAND);
            }
            i += 1;
        }
        t[m] = cells | if ok { n } else { 15 } << 28;
        m += 1;
    }
    t
};

/// Occupied minirows of a band-digit word (bit `3r + k`).
#[inline(always)]
fn minirows(w: u32) -> usize {
    ROW_BOXES[(w & 0x1FF) as usize] as usize
        | (ROW_BOXES[((w >> 9) & 0x1FF) as usize] as usize) << 3
        | (ROW_BOXES[(w >> 18) as usize] as usize) << 6
}

/// The cells of `w` that are alone in their row.
#[inline(always)]
fn lone_in_row(w: u32) -> u32 {
    let mut out = 0;
    let mut r = 0;
    while r < 3 {
        let v = (w >> (9 * r)) & 0x1FF;
        if v & v.wrapping_sub(1) == 0 {
            out |= v << (9 * r);
        }
        r += 1;
    }
    out
}

/// Columns (9 bits) where `w` has a candidate.
#[inline(always)]
fn columns(w: u32) -> u32 {
    (w | (w >> 9) | (w >> 18)) & 0x1FF
}

/// The few operations with a hand-vectorized version, chosen per copy of the search.
trait Isa {
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

/// For each band-digit index `9b + d`, `(b, d)`.
static BAND_DIGIT: [(u8, u8); 27] = {
    let mut t = [(0u8, 0u8); 27];
    let mut i = 0;
    while i < 27 {
        t[i] = ((i / 9) as u8, (i % 9) as u8);
        i += 1;
    }
    t
};

/// For each band, the other two.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// For each cell of a band, the cells of its column in the band.
static COLUMN: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut c = 0;
    while c < 27 {
        t[c] = COLS_TO_BAND << (c % 9);
        c += 1;
    }
    t
};

/// For each cell of a band, its column in the other two bands, in the layout of the words [`State::pick_cell`]
/// builds (the first other band in the low 32 bits, the second above).
static COLUMN_FAR: [u64; 27] = {
    let mut t = [0u64; 27];
    let mut c = 0;
    while c < 27 {
        let col = (COLS_TO_BAND << (c % 9)) as u64;
        t[c] = col | col << 32;
        c += 1;
    }
    t
};

/// The columns of stack `s` in the three bands, in the layout of [`Isa::stack_minicols`].
const STACK_COLS: [u32; 3] = [0x001C_0E07, 0x00E0_7038, 0x0703_81C0];

/// Plain Rust, for every processor.
struct Portable;

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

/// AVX2: eight digits in one vector, the ninth alone. Only used by [`count_x86`], which runs only after the
/// processor was found to support AVX2.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx2 {
    #[inline(always)]
    fn clear_other_digits(f: &mut [u32; 27], base: usize, d: usize, cells: u32) -> u32 {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_loadu_si256,
            _mm256_movemask_ps, _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi32,
            _mm256_storeu_si256,
        };
        assert!(base <= 18);
        // SAFETY: `Avx2` is only used from `count_x86`, which is only called once AVX2 was detected; the eight
        // words at `base..base + 8` lie inside `f` (base <= 18, so base + 8 <= 26), and unaligned loads and
        // stores are used.
        let changed = unsafe {
            let p = f.as_mut_ptr().add(base).cast::<__m256i>();
            let old = _mm256_loadu_si256(p);
            let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            let mine = _mm256_cmpeq_epi32(lanes, _mm256_set1_epi32(d as i32));
            let keep = _mm256_or_si256(_mm256_set1_epi32(!cells as i32), mine);
            let w = _mm256_and_si256(old, keep);
            _mm256_storeu_si256(p, w);
            let same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(w, old))) as u32;
            !same & 0xFF
        };
        // The ninth digit, without a branch.
        let keep = if d == 8 { u32::MAX } else { !cells };
        let old = f[base + 8];
        let w = old & keep;
        f[base + 8] = w;
        changed | ((w != old) as u32) << 8
    }

    #[inline(always)]
    fn candidate_counts(f: &[u32; 27], base: usize) -> (u32, u32) {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_cvtsi256_si32, _mm256_loadu_si256, _mm256_or_si256,
            _mm256_permute2x128_si256, _mm256_shuffle_epi32,
        };
        assert!(base <= 18);
        // SAFETY: AVX2 was detected (as for `clear_other_digits`); the eight words at `base..base + 8` lie
        // inside `f`. The eight lanes are folded in halves three times, each fold keeping (at least one, at
        // least two) of the lanes it joins.
        let (o, t) = unsafe {
            let v = _mm256_loadu_si256(f.as_ptr().add(base).cast::<__m256i>());
            let h = _mm256_permute2x128_si256::<1>(v, v);
            let (o, t) = (_mm256_or_si256(v, h), _mm256_and_si256(v, h));
            let (o2, t2) = (
                _mm256_shuffle_epi32::<0b0100_1110>(o),
                _mm256_shuffle_epi32::<0b0100_1110>(t),
            );
            let (o, t) = (
                _mm256_or_si256(o, o2),
                _mm256_or_si256(_mm256_or_si256(t, t2), _mm256_and_si256(o, o2)),
            );
            let (o2, t2) = (
                _mm256_shuffle_epi32::<0b1011_0001>(o),
                _mm256_shuffle_epi32::<0b1011_0001>(t),
            );
            let (o, t) = (
                _mm256_or_si256(o, o2),
                _mm256_or_si256(_mm256_or_si256(t, t2), _mm256_and_si256(o, o2)),
            );
            (
                _mm256_cvtsi256_si32(o) as u32,
                _mm256_cvtsi256_si32(t) as u32,
            )
        };
        let x = f[base + 8];
        (o | x, t | (o & x))
    }

    #[inline(always)]
    fn side_by_side(f: &[u32; 27], base1: usize, base2: usize) -> [u64; 9] {
        use std::arch::x86_64::{
            __m256i, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_storeu_si256,
            _mm256_unpackhi_epi32, _mm256_unpacklo_epi32,
        };
        assert!(base1 <= 18 && base2 <= 18);
        let mut out = [0u64; 9];
        // SAFETY: as for `candidate_counts` (the eight words at each base lie inside `f`); the two stores
        // write `out[0..8]`. Interleaving the two halves gives digits (0, 1, 4, 5) and (2, 3, 6, 7); the lane
        // swaps put them in order.
        unsafe {
            let lo = _mm256_loadu_si256(f.as_ptr().add(base1).cast::<__m256i>());
            let hi = _mm256_loadu_si256(f.as_ptr().add(base2).cast::<__m256i>());
            let a = _mm256_unpacklo_epi32(lo, hi);
            let b = _mm256_unpackhi_epi32(lo, hi);
            let p = out.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(p, _mm256_permute2x128_si256::<0x20>(a, b));
            _mm256_storeu_si256(p.add(1), _mm256_permute2x128_si256::<0x31>(a, b));
        }
        out[8] = u64::from(f[base1 + 8]) | u64::from(f[base2 + 8]) << 32;
        out
    }

    #[inline(always)]
    fn two_candidates(f: &[u32; 27], base: usize) -> u32 {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_cvtsi256_si32, _mm256_loadu_si256, _mm256_or_si256,
            _mm256_permute2x128_si256, _mm256_shuffle_epi32,
        };
        assert!(base <= 18);
        // SAFETY: as for `candidate_counts`. The eight lanes are folded in halves three times, each fold
        // keeping (at least one, at least two, at least three) of the lanes it joins.
        let (o, t, r) = unsafe {
            let v = _mm256_loadu_si256(f.as_ptr().add(base).cast::<__m256i>());
            let h = _mm256_permute2x128_si256::<1>(v, v);
            let (o, t) = (_mm256_or_si256(v, h), _mm256_and_si256(v, h));
            let (o2, t2) = (
                _mm256_shuffle_epi32::<0b0100_1110>(o),
                _mm256_shuffle_epi32::<0b0100_1110>(t),
            );
            let r = _mm256_or_si256(_mm256_and_si256(t, o2), _mm256_and_si256(o, t2));
            let t = _mm256_or_si256(_mm256_or_si256(t, t2), _mm256_and_si256(o, o2));
            let o = _mm256_or_si256(o, o2);
            let (o2, t2, r2) = (
                _mm256_shuffle_epi32::<0b1011_0001>(o),
                _mm256_shuffle_epi32::<0b1011_0001>(t),
                _mm256_shuffle_epi32::<0b1011_0001>(r),
            );
            let r = _mm256_or_si256(
                _mm256_or_si256(r, r2),
                _mm256_or_si256(_mm256_and_si256(t, o2), _mm256_and_si256(o, t2)),
            );
            let t = _mm256_or_si256(_mm256_or_si256(t, t2), _mm256_and_si256(o, o2));
            let o = _mm256_or_si256(o, o2);
            (
                _mm256_cvtsi256_si32(o) as u32,
                _mm256_cvtsi256_si32(t) as u32,
                _mm256_cvtsi256_si32(r) as u32,
            )
        };
        let x = f[base + 8];
        (t | (o & x)) & !(r | (t & x))
    }

    #[inline(always)]
    fn minirows(w: u32) -> usize {
        // Fold each minirow onto its lowest bit, then gather those nine bits.
        let t = w | (w >> 1) | (w >> 2);
        // SAFETY: `Avx2` is only used from `count_x86`, which is only called once BMI2 was detected.
        // (Nine bits come out; the mask says so to the compiler, which then checks no table index.)
        (unsafe { std::arch::x86_64::_pext_u32(t, 0x0124_9249) } & 0x1FF) as usize
    }

    #[inline(always)]
    fn lone_in_row(w: u32) -> u32 {
        use std::arch::x86_64::{_pdep_u32, _pext_u32};
        // The three rows ten places apart, the tenth bit of each a gap.
        const ROWS: u32 = 0x1FF | 0x1FF << 10 | 0x1FF << 20;
        const LOW: u32 = 1 | 1 << 10 | 1 << 20;
        const GAP: u32 = 1 << 9 | 1 << 19 | 1 << 29;
        // SAFETY: as for `minirows`.
        let x = unsafe { _pdep_u32(w, ROWS) };
        // Each row without its lowest cell (no row is empty, so no borrow leaves a row); a row left with a
        // cell carries into its gap when all ones are added, and those rows are then cleared.
        let rest = x & x.wrapping_sub(LOW);
        let more = (rest + ROWS) & GAP;
        let lone = x & !(more - (more >> 9));
        // SAFETY: as for `minirows`.
        unsafe { _pext_u32(lone, ROWS) }
    }

    #[inline(always)]
    fn stack_minicols(cols: u32, s: usize) -> usize {
        // SAFETY: as for `minirows`.
        (unsafe { std::arch::x86_64::_pext_u32(cols, STACK_COLS[s]) } & 0x1FF) as usize
    }

    #[inline(always)]
    fn clue_masks(padded: &[u8; 96]) -> Option<[u32; 27]> {
        use std::arch::x86_64::{
            __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
            _mm256_or_si256, _mm256_set1_epi8, _mm256_sub_epi8,
        };
        // SAFETY: AVX2 was detected (as for `clear_other_digits`); the three loads read the 96 bytes of
        // `padded`, unaligned.
        unsafe {
            let p = padded.as_ptr().cast::<__m256i>();
            let v = [
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(p.add(2)),
            ];
            // Every byte '0'..='9' or '.': (byte - '0') unsigned at most 9, or '.'.
            let mut ok = u32::MAX;
            for x in v {
                let z = _mm256_sub_epi8(x, _mm256_set1_epi8(b'0' as i8));
                let digit = _mm256_cmpeq_epi8(_mm256_min_epu8(z, _mm256_set1_epi8(9)), z);
                let dot = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(b'.' as i8));
                ok &= _mm256_movemask_epi8(_mm256_or_si256(digit, dot)) as u32;
            }
            if ok != u32::MAX {
                return None;
            }
            let mut has = [0u32; 27];
            for d in 0..9 {
                let t = _mm256_set1_epi8((b'1' + d as u8) as i8);
                let m = v.map(|x| _mm256_movemask_epi8(_mm256_cmpeq_epi8(x, t)) as u32);
                // Cells 0..64 in one word, 64..96 in another.
                let lo = u64::from(m[0]) | u64::from(m[1]) << 32;
                has[d] = lo as u32 & BAND;
                has[9 + d] = (lo >> 27) as u32 & BAND;
                has[18 + d] = ((lo >> 54) as u32 | m[2] << 10) & BAND;
            }
            Some(has)
        }
    }

    #[inline(always)]
    fn cell_digits(f: &[u32; 27], base: usize, c: usize) -> u32 {
        use std::arch::x86_64::{
            __m256i, _mm_cvtsi32_si128, _mm256_castsi256_ps, _mm256_loadu_si256,
            _mm256_movemask_ps, _mm256_sll_epi32,
        };
        assert!(base <= 18 && c < 27);
        // SAFETY: as for `clear_other_digits`: AVX2 was detected, and the eight words at `base..base + 8` lie
        // inside `f`. Bit `c` of each word is moved to its sign bit, which the mask gathers.
        let low = unsafe {
            let v = _mm256_loadu_si256(f.as_ptr().add(base).cast::<__m256i>());
            let top = _mm256_sll_epi32(v, _mm_cvtsi32_si128(31 - c as i32));
            _mm256_movemask_ps(_mm256_castsi256_ps(top)) as u32
        };
        low | ((f[base + 8] >> c) & 1) << 8
    }

    #[inline(always)]
    fn stack_spread(m: u32, s: usize) -> u32 {
        // SAFETY: as for `minirows`.
        unsafe { std::arch::x86_64::_pdep_u32(m, STACK_COLS[s]) }
    }
}

/// Extra weight in the guess score for an elimination that leaves a cell with one candidate.
const WEIGHT: u32 = 3;

/// Whether propagation counts digits per minirow when asked to count (only the uniqueness check of
/// [`other_solution`] asks: the counting search [`count_impl`] never does, as on the benchmark sets the counts
/// cost more than the guesses they save).
const MINIROWS: bool = true;

/// Whether propagation counts digits per minicolumn when asked to count (see [`MINIROWS`]).
const MINICOLS: bool = true;

/// The search state: 128 bytes, copied on each guess.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct State {
    /// Candidates: `f[9b + d]` for band `b` and digit `d` (0-based).
    f: [u32; 27],
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
    /// Band-digit words to re-examine (bit `9b + d`).
    dirty: u32,
    /// Digits whose stacks to re-examine (bit `d`).
    vdirty: u32,
}

impl State {
    /// The state for `grid`'s clues (not yet propagated); `None` when a digit repeats in a row or a box.
    /// Inlined into each copy of the search, which builds it with its own target features.
    #[inline(always)]
    fn new(grid: &Grid) -> Option<State> {
        let mut has = [0u32; 27];
        for (i, &v) in grid.digits().iter().enumerate() {
            if v != 0 {
                has[9 * (i / 27) + v as usize - 1] |= 1 << (i % 27);
            }
        }
        State::from_clues::<Portable>(&has)
    }

    /// The state for the clues `has[9b + d]` (the cells of band `b` that hold digit `d`; no cell in two words),
    /// not yet propagated; `None` when a digit repeats in a row or a box. A digit repeated in a column is left
    /// to the propagation, which finds that it has no room.
    #[inline(always)]
    fn from_clues<I: Isa>(has: &[u32; 27]) -> Option<State> {
        let mut s = State {
            f: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: (1 << 27) - 1,
            vdirty: 0x1FF,
        };
        let mut bad = false;
        // The columns of each digit's clues, per band.
        let mut cols = [0u32; 27];
        for j in 0..27 {
            cols[j] = columns(has[j]);
        }
        for b in 0..3 {
            let mut clues = 0;
            for d in 0..9 {
                clues |= has[9 * b + d];
            }
            // The clues are placed: they leave the cells to solve.
            s.unsolved[b] = BAND & !clues;
            let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
            for d in 0..9 {
                let cells = has[9 * b + d];
                // A clue cell loses the other digits; the rows and boxes of a digit's clues lose it, and so do
                // their columns in the other bands. A clue with the same digit in its column elsewhere loses its
                // own digit: a cell without candidates, which propagation finds.
                let shadow = CLUE_SHADOW[I::minirows(cells)];
                bad |= cells.count_ones() != shadow >> 28;
                let far = (cols[9 * b1 + d] | cols[9 * b2 + d]) * COLS_TO_BAND;
                s.f[9 * b + d] = ((BAND & !clues & !shadow) | cells) & !far;
            }
        }
        (!bad).then_some(s)
    }

    /// Place digit `d` in the cells `new` of band `b` (each alone in its row of `f[9b + d]`), marking what
    /// changed in `dirty` and `vdirty` (the caller's copies of [`State::dirty`] and [`State::vdirty`]).
    #[inline(always)]
    fn place<I: Isa>(&mut self, d: usize, b: usize, new: u32, dirty: &mut u32, vdirty: &mut u32) {
        self.unsolved[b] &= !new;
        // The columns of the new cells, in the other bands.
        let cols = columns(new) * COLS_TO_BAND;
        for b2 in OTHER_BANDS[b] {
            let j = 9 * b2 + d;
            let old = self.f[j];
            let w = old & !cols;
            self.f[j] = w;
            *dirty |= ((w != old) as u32) << j;
        }
        // The new cells, for the other digits.
        let base = 9 * b;
        let changed = I::clear_other_digits(&mut self.f, base, d, new);
        *dirty |= changed << base;
        *vdirty |= changed | (1 << d);
    }

    /// Band permutations and placements until nothing is dirty. `false` on a contradiction (the state is
    /// then left half done: the search drops it).
    #[inline(always)]
    fn settle_bands<I: Isa>(&mut self) -> bool {
        // The marks in locals, which the compiler keeps in registers.
        let mut dirty = self.dirty;
        let mut vdirty = self.vdirty;
        while dirty != 0 {
            let i = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let old = self.f[i];
            let w = old & PERM_CELLS[I::minirows(old)];
            if w == 0 {
                return false;
            }
            let (b, d) = BAND_DIGIT[i];
            let (b, d) = (usize::from(b), usize::from(d));
            self.f[i] = w;
            vdirty |= ((w != old) as u32) << d;
            let new = I::lone_in_row(w) & self.unsolved[b];
            if new != 0 {
                self.place::<I>(d, b, new, &mut dirty, &mut vdirty);
            }
        }
        self.dirty = 0;
        self.vdirty = vdirty;
        true
    }

    /// Stack permutations for the digits in `vdirty`. `false` on a contradiction.
    #[inline(always)]
    fn settle_stacks<I: Isa>(&mut self) -> bool {
        let mut todo = self.vdirty;
        self.vdirty = 0;
        while todo != 0 {
            // (`vdirty` holds digits only: the bound spares the checks of the indices below.)
            let d = (todo.trailing_zeros() as usize).min(8);
            todo &= todo - 1;
            let cols =
                columns(self.f[d]) | columns(self.f[9 + d]) << 9 | columns(self.f[18 + d]) << 18;
            let mut allowed = 0u32;
            for s in 0..3 {
                let a = PERM_ALLOWED[I::stack_minicols(cols, s)] as u32;
                if a == 0 {
                    return false;
                }
                allowed |= I::stack_spread(a, s);
            }
            if allowed != cols {
                for b in 0..3 {
                    let a = (allowed >> (9 * b)) & 0x1FF;
                    if a != (cols >> (9 * b)) & 0x1FF {
                        let j = 9 * b + d;
                        self.f[j] &= a * COLS_TO_BAND;
                        self.dirty |= 1 << j;
                    }
                }
            }
        }
        true
    }

    /// Naked singles: restrict each cell with one candidate to it. Returns `None` on a contradiction (a cell
    /// without candidates, or two lone cells clashing), else whether anything changed.
    #[inline(always)]
    fn naked_singles<I: Isa>(&mut self) -> Option<bool> {
        let mut changed = false;
        for b in 0..3 {
            let base = 9 * b;
            let (ones, twos) = I::candidate_counts(&self.f, base);
            if ones != BAND {
                return None;
            }
            let singles = ones & !twos & self.unsolved[b];
            if singles == 0 {
                continue;
            }
            changed = true;
            // Each single in turn (in cell order, so for each digit in cell order): its digit leaves the cell's
            // row and box; a single already gone from its only digit's word clashed with an earlier one.
            let mut left = singles;
            while left != 0 {
                let c = left.trailing_zeros() as usize;
                left &= left - 1;
                let bit = 1u32 << c;
                let j = base + I::cell_digits(&self.f, base, c).trailing_zeros() as usize % 9;
                if self.f[j] & bit == 0 {
                    return None;
                }
                self.f[j] &= !ROW_BOX[c] | bit;
                self.dirty |= 1 << j;
            }
        }
        Some(changed)
    }

    /// Minirow counting: a minirow (three cells of a row in a box) holds exactly three digits. With `P` the
    /// digits that can still go there and `F` those the band permutations force there: `|P| = 3` forces every
    /// digit of `P` in; `|F| = 3` removes the others. Returns `None` on a contradiction, else whether anything
    /// changed.
    #[inline(always)]
    fn minirow_counts<I: Isa>(&mut self) -> Option<bool> {
        let mut occ = [0u32; 9];
        let mut forced = [0u32; 9];
        let (mut p1, mut p2, mut p3, mut p4) = (0u32, 0u32, 0u32, 0u32);
        let (mut q1, mut q2, mut q3, mut q4) = (0u32, 0u32, 0u32, 0u32);
        for d in 0..9 {
            let mut o = 0u32;
            let mut fo = 0u32;
            for b in 0..3 {
                let m = I::minirows(self.f[9 * b + d]);
                o |= (m as u32) << (9 * b);
                fo |= (PERM_FORCED[m] as u32) << (9 * b);
            }
            occ[d] = o;
            forced[d] = fo;
            p4 |= p3 & o;
            p3 |= p2 & o;
            p2 |= p1 & o;
            p1 |= o;
            q4 |= q3 & fo;
            q3 |= q2 & fo;
            q2 |= q1 & fo;
            q1 |= fo;
        }
        if p3 != BAND || q4 != 0 {
            return None;
        }
        let remove_others = q3 & p4;
        let force_all = p3 & !p4 & !q3;
        if remove_others | force_all == 0 {
            return Some(false);
        }
        for d in 0..9 {
            let free = occ[d] & !forced[d];
            let remove = remove_others & free;
            let force = force_all & free;
            if remove | force == 0 {
                continue;
            }
            for b in 0..3 {
                let rem9 = (remove >> (9 * b)) & 0x1FF;
                let mut frc9 = (force >> (9 * b)) & 0x1FF;
                if rem9 | frc9 == 0 {
                    continue;
                }
                let mut o = ((occ[d] >> (9 * b)) & 0x1FF) & !rem9;
                while frc9 != 0 {
                    let m = frc9.trailing_zeros() as usize;
                    frc9 &= frc9 - 1;
                    o &= !(MINIROW_RIVALS[m] as u32);
                }
                let j = 9 * b + d;
                self.f[j] &= PERM_CELLS[o as usize];
                self.dirty |= 1 << j;
                self.vdirty |= 1 << d;
            }
        }
        Some(true)
    }

    /// Minicolumn counting, the same reasoning as [`State::minirow_counts`] for three cells of a column in a box,
    /// with the stack permutations deciding which digits are forced.
    #[inline(always)]
    fn minicolumn_counts<I: Isa>(&mut self) -> Option<bool> {
        let mut occ = [0u32; 9];
        let mut forced = [0u32; 9];
        let (mut p1, mut p2, mut p3, mut p4) = (0u32, 0u32, 0u32, 0u32);
        let (mut q1, mut q2, mut q3, mut q4) = (0u32, 0u32, 0u32, 0u32);
        for d in 0..9 {
            let o =
                columns(self.f[d]) | columns(self.f[9 + d]) << 9 | columns(self.f[18 + d]) << 18;
            let mut fo = 0u32;
            for st in 0..3 {
                fo |= I::stack_spread(PERM_FORCED[I::stack_minicols(o, st)] as u32, st);
            }
            occ[d] = o;
            forced[d] = fo;
            p4 |= p3 & o;
            p3 |= p2 & o;
            p2 |= p1 & o;
            p1 |= o;
            q4 |= q3 & fo;
            q3 |= q2 & fo;
            q2 |= q1 & fo;
            q1 |= fo;
        }
        if p3 != BAND || q4 != 0 {
            return None;
        }
        let remove_others = q3 & p4;
        let force_all = p3 & !p4 & !q3;
        if remove_others | force_all == 0 {
            return Some(false);
        }
        for d in 0..9 {
            let free = occ[d] & !forced[d];
            let remove = remove_others & free;
            let force = force_all & free;
            if remove | force == 0 {
                continue;
            }
            // Per band, the columns to clear.
            let mut clear = [0u32; 3];
            for b in 0..3 {
                clear[b] |= (remove >> (9 * b)) & 0x1FF;
                let mut frc = (force >> (9 * b)) & 0x1FF;
                while frc != 0 {
                    let col = frc.trailing_zeros();
                    frc &= frc - 1;
                    // The other columns of its stack in this band, and this column in the other bands.
                    clear[b] |= (7 << (3 * (col / 3))) & !(1 << col);
                    for (b2, cl) in clear.iter_mut().enumerate() {
                        if b2 != b {
                            *cl |= 1 << col;
                        }
                    }
                }
            }
            for (b, cl) in clear.iter().enumerate() {
                if *cl != 0 {
                    let j = 9 * b + d;
                    self.f[j] &= !(cl * COLS_TO_BAND);
                    self.dirty |= 1 << j;
                    self.vdirty |= 1 << d;
                }
            }
        }
        Some(true)
    }

    /// Propagate to a fixed point. `false` on a contradiction.
    #[inline(always)]
    fn propagate<I: Isa>(&mut self, counts: bool) -> bool {
        loop {
            if !self.settle_bands::<I>() {
                return false;
            }
            // Every cell placed without a contradiction is a solution: each placement took its cell from the
            // other digits and its column from the other bands, and every word it changed passed the band
            // permutations (one cell per row and box, then one per row as every cell has one digit), so the
            // rest of the propagation would find nothing.
            if self.is_solved() {
                return true;
            }
            match self.naked_singles::<I>() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.vdirty != 0 {
                if !self.settle_stacks::<I>() {
                    return false;
                }
                if self.dirty != 0 {
                    continue;
                }
            }
            match if MINIROWS && counts {
                self.minirow_counts::<I>()
            } else {
                Some(false)
            } {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match if MINICOLS && counts {
                self.minicolumn_counts::<I>()
            } else {
                Some(false)
            } {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            return true;
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The solution of a solved state as 81 ASCII digits.
    fn write_ascii(&self, out: &mut [u8; CELLS]) {
        for b in 0..3 {
            for d in 0..9 {
                let mut w = self.f[9 * b + d];
                while w != 0 {
                    let c = w.trailing_zeros() as usize;
                    w &= w - 1;
                    out[27 * b + c] = b'1' + d as u8;
                }
            }
        }
    }

    /// The grid of a solved state.
    fn solution(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for b in 0..3 {
            for d in 0..9 {
                let mut w = self.f[9 * b + d];
                while w != 0 {
                    let c = w.trailing_zeros() as usize;
                    w &= w - 1;
                    cells[27 * b + c] = d as u8 + 1;
                }
            }
        }
        Grid::from_raw(cells)
    }

    /// The unsolved cell to guess on, as (band, cell in band): the cell with two candidates whose placements
    /// eliminate the most candidates among its peers (both branches then propagate far), an elimination that
    /// leaves a peer with a single candidate counting [`WEIGHT`] more; without such a cell, a cell with the
    /// fewest candidates. Ties go to the first such cell in band order.
    #[inline(always)]
    fn pick_cell<I: Isa>(&self) -> (usize, usize) {
        // Cells with exactly two candidates, per band.
        let mut pair = [0u32; 3];
        for (b, p) in pair.iter_mut().enumerate() {
            *p = I::two_candidates(&self.f, 9 * b) & self.unsolved[b];
        }
        // The best cell as one key, compared without branches: the score above the cell's place, which is
        // stored so that the first cell in band order wins a tie.
        let mut best = 0u32;
        for b in 0..3 {
            let mut pairs = pair[b];
            if pairs == 0 {
                continue;
            }
            let [b1, b2] = OTHER_BANDS[b];
            // The cells with two candidates: in this band twice (for the cell's two digits, 32 bits apart),
            // and in the other two bands in the layout of `far`.
            let near_pairs = u64::from(pair[b]) * (1 | 1 << 32);
            let far_pairs = u64::from(pair[b1]) | u64::from(pair[b2]) << 32;
            let fb = &self.f[9 * b..9 * b + 9];
            // Each digit's words in the other two bands side by side (the first in the low 32 bits, the
            // second above): a cell's column there is one mask away.
            let farb = I::side_by_side(&self.f, 9 * b1, 9 * b2);
            while pairs != 0 {
                let c = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                // The cell's column in the other two bands, and its row and box in this band.
                let col = COLUMN_FAR[c];
                let peers = ROW_BOX[c];
                // The cell's two digits.
                let digits = I::cell_digits(&self.f, 9 * b, c);
                let d1 = (digits.trailing_zeros() as usize).min(8);
                let d2 = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
                // Each digit's peers of the cell: in this band the two digits 32 bits apart; in the other bands
                // the second digit one place above the first (a column's cells are nine places apart).
                let near = u64::from(fb[d1] & peers) | u64::from(fb[d2] & peers) << 32;
                let far = (farb[d1] & col) | (farb[d2] & col) << 1;
                let far_w = far & ((far_pairs & col) * 3);
                let weighted = (near & near_pairs).count_ones() + far_w.count_ones();
                // The cell itself is among `peers` for both digits and is weighted (it has two candidates).
                let score =
                    near.count_ones() + far.count_ones() + WEIGHT * weighted - 2 * (1 + WEIGHT);
                best = best.max(score << 16 | (0xFFFF - (b << 5 | c)) as u32);
            }
        }
        if best >> 16 != 0 {
            let place = 0xFFFF - (best & 0xFFFF) as usize;
            return (place >> 5, place & 31);
        }
        self.fewest_candidates::<I>()
    }

    /// The first unsolved cell with two candidates in band order, as (band, cell in band); without one, the
    /// cell [`State::fewest_candidates`] picks. The search's cheap choice after its first guess, until it meets
    /// a dead end.
    #[inline(always)]
    fn first_pair_cell<I: Isa>(&self) -> (usize, usize) {
        for b in 0..3 {
            let pairs = I::two_candidates(&self.f, 9 * b) & self.unsolved[b];
            if pairs != 0 {
                return (b, pairs.trailing_zeros() as usize);
            }
        }
        self.fewest_candidates::<I>()
    }

    /// [`State::pick_cell`] written plainly (one peer and one digit at a time), to check it.
    #[cfg(test)]
    fn pick_cell_slow(&self) -> (usize, usize) {
        // Cells with exactly two candidates, per band.
        let mut pair = [0u32; 3];
        for (b, p) in pair.iter_mut().enumerate() {
            let mut ones = 0u32;
            let mut twos = 0u32;
            let mut threes = 0u32;
            for d in 0..9 {
                let x = self.f[9 * b + d];
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            *p = twos & !threes & self.unsolved[b];
        }
        let mut best = None;
        let mut best_score = 0u32;
        for b in 0..3 {
            let mut pairs = pair[b];
            while pairs != 0 {
                let c = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let mut score = 0;
                let col = (1u32 << (c % 9)) * COLS_TO_BAND;
                for d in 0..9 {
                    let w = self.f[9 * b + d];
                    if w & (1 << c) != 0 {
                        let near = w & ROW_BOX[c] & !(1 << c);
                        score += near.count_ones() + WEIGHT * (near & pair[b]).count_ones();
                        for b2 in 0..3 {
                            if b2 != b {
                                let far = self.f[9 * b2 + d] & col;
                                score += far.count_ones() + WEIGHT * (far & pair[b2]).count_ones();
                            }
                        }
                    }
                }
                if score > best_score {
                    best_score = score;
                    best = Some((b, c));
                }
            }
        }
        if let Some(cell) = best {
            return cell;
        }
        self.fewest_candidates_slow()
    }

    /// The unsolved cell with the fewest candidates (used when no cell with two candidates scores), as (band,
    /// cell in band); among those, the one whose placements remove the most candidates from its peers, and
    /// among those the first. Only the cells with two candidates, or else three, or else all are looked at: the
    /// fewest are among them.
    ///
    /// Inlined, so that it is compiled for the search's target features (its popcounts above all).
    #[inline(always)]
    fn fewest_candidates<I: Isa>(&self) -> (usize, usize) {
        // Per band: the unsolved cells with at most two candidates, with exactly three, and all.
        let mut sets = [[0u32; 3]; 3];
        for b in 0..3 {
            let (mut ones, mut twos, mut threes, mut fours) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[9 * b + d];
                fours |= threes & x;
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            let u = self.unsolved[b];
            sets[0][b] = u & !threes;
            sets[1][b] = u & threes & !fours;
            sets[2][b] = u;
        }
        let look = sets
            .into_iter()
            .find(|s| s[0] | s[1] | s[2] != 0)
            .unwrap_or_default();
        let mut best = (0, 0);
        let mut best_key = (u32::MAX, 0u32);
        for b in 0..3 {
            let mut u = look[b];
            while u != 0 {
                let c = u.trailing_zeros() as usize;
                u &= u - 1;
                let col = COLUMN[c];
                let peers = ROW_BOX[c] & !(1 << c);
                let [b1, b2] = OTHER_BANDS[b];
                let mut digits = I::cell_digits(&self.f, 9 * b, c);
                let n = digits.count_ones();
                let mut score = 0;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let far = (self.f[9 * b1 + d] & col) | (self.f[9 * b2 + d] & col) << 1;
                    score += (self.f[9 * b + d] & peers).count_ones() + far.count_ones();
                }
                if n < best_key.0 || (n == best_key.0 && score > best_key.1) {
                    best_key = (n, score);
                    best = (b, c);
                }
            }
        }
        best
    }

    /// [`State::fewest_candidates`] written plainly (every unsolved cell, one digit at a time), to check it.
    #[cfg(test)]
    fn fewest_candidates_slow(&self) -> (usize, usize) {
        let mut best = (0, 0);
        let mut best_key = (u32::MAX, 0u32);
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let c = u.trailing_zeros() as usize;
                u &= u - 1;
                let col = (1u32 << (c % 9)) * COLS_TO_BAND;
                let mut n = 0;
                let mut score = 0;
                for d in 0..9 {
                    let w = self.f[9 * b + d];
                    if w & (1 << c) != 0 {
                        n += 1;
                        score += (w & ROW_BOX[c] & !(1 << c)).count_ones();
                        for b2 in 0..3 {
                            if b2 != b {
                                score += (self.f[9 * b2 + d] & col).count_ones();
                            }
                        }
                    }
                }
                if n < best_key.0 || (n == best_key.0 && score > best_key.1) {
                    best_key = (n, score);
                    best = (b, c);
                }
            }
        }
        best
    }
}

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

#[cfg(test)]
mod tests {
    //! The integration tests reach only the copy chosen for this processor; these run every copy.

    use super::*;
    use crate::solver::reference;

    /// Clue sets from a seed: about `fill` percent of the cells of a random solved grid, plus some noise.
    fn puzzles(n: usize) -> Vec<Grid> {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        while out.len() < n {
            // A random solved grid: a few random clues, completed by the reference solver.
            let mut g = Grid::EMPTY;
            for _ in 0..11 {
                let c = (next() % 81) as usize;
                let v = (next() % 9 + 1) as u8;
                let mut cells = *g.digits();
                cells[c] = v;
                let h = Grid::from_raw(cells);
                if h.first_conflict().is_none() {
                    g = h;
                }
            }
            let Some(full) = reference::count_solutions_with_first(&g, 1).1 else {
                continue;
            };
            let keep = 17 + (next() % 30) as usize;
            let mut cells = [0u8; CELLS];
            for _ in 0..keep {
                let c = (next() % 81) as usize;
                cells[c] = full.digits()[c];
            }
            // Now and then a wrong clue, for puzzles without a solution.
            if next() % 4 == 0 {
                let c = (next() % 81) as usize;
                cells[c] = (next() % 9 + 1) as u8;
            }
            out.push(Grid::from_raw(cells));
        }
        out
    }

    fn check<F: Fn(&Grid, u64) -> (u64, Option<Grid>, Option<Grid>, u64)>(count: F) {
        for (i, g) in puzzles(400).iter().enumerate() {
            for limit in [1, 2, 7] {
                let (n, first, last, _) = count(g, limit);
                let (n_ref, _) = reference::count_solutions_with_first(g, limit);
                assert_eq!(n, n_ref, "puzzle {i} {g} limit {limit}");
                match (first, last) {
                    (Some(f), Some(l)) => {
                        assert_eq!(f.check_solution_of(g), Ok(()));
                        assert_eq!(l.check_solution_of(g), Ok(()));
                        // The last differs from the first exactly when more than one was found.
                        assert_eq!(f != l, n >= 2, "puzzle {i} {g} limit {limit}");
                    }
                    (None, None) => assert_eq!(n, 0),
                    _ => panic!(
                        "puzzle {i}: a first solution without a last, or the other way round"
                    ),
                }
            }
        }
    }

    #[test]
    fn portable_copy_agrees_with_reference() {
        check(|g, limit| {
            let (n, first, last, guesses) =
                count_impl::<Portable>(State::new(g), limit, Keep::FirstAndLast);
            (
                n,
                first.map(|s| s.solution()),
                last.map(|s| s.solution()),
                guesses,
            )
        });
    }

    fn check_other<F: Fn(&Grid, &[u8; CELLS]) -> Option<Grid>>(other: F) {
        let mut seen = [0usize; 2];
        let mut grids = puzzles(400);
        // With more clues, more puzzles with one solution: each solution found, with about 40 of its cells kept.
        for k in 0..grids.len() {
            if let (_, Some(full)) = reference::count_solutions_with_first(&grids[k], 1) {
                let mut cells = *full.digits();
                for (c, v) in cells.iter_mut().enumerate() {
                    if (c * 7 + k) % 2 == 0 {
                        *v = 0;
                    }
                }
                grids.push(Grid::from_raw(cells));
            }
        }
        for (i, g) in grids.iter().enumerate() {
            let (n, first) = reference::count_solutions_with_first(g, 2);
            let Some(first) = first else { continue };
            match other(g, first.digits()) {
                Some(o) => {
                    assert_eq!(o.check_solution_of(g), Ok(()), "puzzle {i} {g}");
                    assert_ne!(o, first, "puzzle {i} {g}");
                    assert_eq!(n, 2, "puzzle {i} {g}");
                }
                None => assert_eq!(n, 1, "puzzle {i} {g}"),
            }
            seen[usize::from(n == 2)] += 1;
        }
        // Both kinds were met.
        assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
    }

    #[test]
    fn other_solution_agrees_with_reference() {
        check_other(other_impl::<Portable>);
        check_other(other_solution);
    }

    #[test]
    fn ascii_input_agrees_with_grid_input() {
        let mut grids = puzzles(400);
        // Repeated digits in a row, a box, a minirow and a column.
        for (a, b) in [(0, 8), (0, 20), (0, 1), (4, 76)] {
            let mut cells = [0u8; CELLS];
            cells[a] = 5;
            cells[b] = 5;
            grids.push(Grid::from_raw(cells));
        }
        for g in &grids {
            let mut ascii = [b'.'; CELLS];
            for (a, &v) in ascii.iter_mut().zip(g.digits()) {
                if v != 0 {
                    *a = b'0' + v;
                }
            }
            let mut padded = [b'.'; 96];
            padded[..CELLS].copy_from_slice(&ascii);
            for limit in [1, 2, 5] {
                let (n, first, guesses) = count(g, limit);
                let mut out = [0u8; CELLS];
                assert_eq!(
                    count_ascii(&ascii, limit, Some(&mut out)),
                    Some((n, guesses)),
                    "{g}"
                );
                match first {
                    Some(f) => assert_eq!(Grid::parse(std::str::from_utf8(&out).unwrap()), Ok(f)),
                    None => assert_eq!(out, [0u8; CELLS]),
                }
                let (n2, first2, _, guesses2) =
                    count_ascii_impl::<Portable>(&padded, limit, Keep::First).unwrap();
                assert_eq!(
                    (n2, first2.map(|s| s.solution()), guesses2),
                    (n, first, guesses)
                );
            }
        }
        // Zeros read as empty cells; anything else is refused, by both copies.
        let mut zeros = [b'0'; 96];
        zeros[CELLS..].fill(b'.');
        assert_eq!(
            count_ascii_impl::<Portable>(&zeros, 3, Keep::None).map(|r| r.0),
            Some(3)
        );
        for (i, bad) in [
            (0, b'a'),
            (40, b'/'),
            (80, b':'),
            (17, 0u8),
            (63, b' '),
            (64, 0xFF),
        ] {
            let mut p = [b'.'; CELLS];
            p[i] = bad;
            assert_eq!(count_ascii(&p, 2, None), None, "{i} {bad}");
            let mut padded = [b'.'; 96];
            padded[..CELLS].copy_from_slice(&p);
            assert!(count_ascii_impl::<Portable>(&padded, 2, Keep::None).is_none());
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_operations_agree_with_portable() {
        if !has_x86_features() {
            return;
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let mut f = [0u32; 27];
            for w in &mut f {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Sparse and dense words both.
                *w = ((x as u32 & (x >> 32) as u32) | ((x >> 40) as u32 * u32::from(x & 1 == 0)))
                    & BAND;
            }
            for base in [0, 9, 18] {
                assert_eq!(
                    Avx2::candidate_counts(&f, base),
                    Portable::candidate_counts(&f, base),
                    "{f:?}"
                );
                for base2 in [0, 9, 18] {
                    assert_eq!(
                        Avx2::side_by_side(&f, base, base2),
                        Portable::side_by_side(&f, base, base2)
                    );
                }
                assert_eq!(
                    Avx2::two_candidates(&f, base),
                    Portable::two_candidates(&f, base),
                    "{f:?}"
                );
                for c in 0..27 {
                    assert_eq!(
                        Avx2::cell_digits(&f, base, c),
                        Portable::cell_digits(&f, base, c)
                    );
                }
            }
            for &w in &f {
                // `lone_in_row` asks for a cell in every row.
                let w = w | 1 << (w % 9) | 1 << (9 + w % 7) | 1 << (18 + w % 5);
                assert_eq!(Avx2::lone_in_row(w), Portable::lone_in_row(w), "{w:#x}");
            }
        }
        // Every word with one cell in each row, and with one row full.
        for a in 0..9 {
            for b in 0..9 {
                for c in 0..9 {
                    let w = 1 << a | 1 << (9 + b) | 1 << (18 + c);
                    assert_eq!(Avx2::lone_in_row(w), w);
                    assert_eq!(Avx2::lone_in_row(w | 0x1FF << 9), w & !(0x1FF << 9));
                }
            }
        }
    }

    /// Propagation reaches a fixed point: with every word and stack marked again, nothing more is found (every
    /// change marks what it can affect), with and without the minirow and minicolumn counts.
    #[test]
    fn propagation_reaches_a_fixed_point() {
        let mut checked = 0;
        for g in &puzzles(300) {
            for counts in [true, false] {
                let Some(mut s) = State::new(g) else { continue };
                while s.propagate::<Portable>(counts) {
                    let mut again = s;
                    again.dirty = (1 << 27) - 1;
                    again.vdirty = 0x1FF;
                    assert!(again.propagate::<Portable>(counts), "{g}");
                    assert_eq!(again.f, s.f, "{g}");
                    checked += 1;
                    if s.is_solved() {
                        break;
                    }
                    let (b, c) = s.pick_cell::<Portable>();
                    guess_first(&mut s, b, c);
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Guess the first candidate digit of cell `c` of band `b` (place it, as the search's first branch does).
    fn guess_first(s: &mut State, b: usize, c: usize) {
        let d = (0..9)
            .find(|&d| s.f[9 * b + d] & (1 << c) != 0)
            .unwrap_or(0);
        s.f[9 * b + d] &= !ROW_BOX[c] | 1 << c;
        s.dirty |= 1 << (9 * b + d);
    }

    /// Along a search path of each puzzle (the first digit of each guess), `pick` chooses the cell that
    /// [`State::pick_cell_slow`] chooses.
    fn check_pick(pick: impl Fn(&State) -> (usize, usize)) {
        let mut picks = 0;
        for g in puzzles(300).iter().chain([Grid::EMPTY].iter()) {
            let Some(mut s) = State::new(g) else {
                continue;
            };
            while s.propagate::<Portable>(true) && !s.is_solved() {
                let (b, c) = s.pick_cell_slow();
                assert_eq!(pick(&s), (b, c), "{g}");
                picks += 1;
                guess_first(&mut s, b, c);
            }
        }
        assert!(picks > 300, "{picks}");
    }

    #[test]
    fn pick_cell_agrees_with_plain_version() {
        check_pick(|s| s.pick_cell::<Portable>());
        #[cfg(target_arch = "x86_64")]
        if has_x86_features() {
            /// # Safety
            /// AVX2 and BMI2 must be present.
            #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
            unsafe fn pick_x86(s: &State) -> (usize, usize) {
                s.pick_cell::<Avx2>()
            }
            // SAFETY: the features were just detected.
            check_pick(|s| unsafe { pick_x86(s) });
        }
    }

    /// [`State::first_pair_cell`] written plainly: the first unsolved cell in band order with two candidates,
    /// else the cell [`State::fewest_candidates_slow`] picks.
    fn first_pair_cell_slow(s: &State) -> (usize, usize) {
        for b in 0..3 {
            for c in 0..27 {
                let n = (0..9).filter(|&d| s.f[9 * b + d] & (1 << c) != 0).count();
                if s.unsolved[b] & (1 << c) != 0 && n == 2 {
                    return (b, c);
                }
            }
        }
        s.fewest_candidates_slow()
    }

    #[test]
    fn first_pair_cell_agrees_with_plain_version() {
        let mut picks = 0;
        for g in puzzles(300).iter().chain([Grid::EMPTY].iter()) {
            let Some(mut s) = State::new(g) else {
                continue;
            };
            while s.propagate::<Portable>(false) && !s.is_solved() {
                let (b, c) = first_pair_cell_slow(&s);
                assert_eq!(s.first_pair_cell::<Portable>(), (b, c), "{g}");
                #[cfg(target_arch = "x86_64")]
                if has_x86_features() {
                    /// # Safety
                    /// AVX2 and BMI2 must be present.
                    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
                    unsafe fn first_x86(s: &State) -> (usize, usize) {
                        s.first_pair_cell::<Avx2>()
                    }
                    // SAFETY: the features were just detected.
                    assert_eq!(unsafe { first_x86(&s) }, (b, c), "{g}");
                }
                picks += 1;
                guess_first(&mut s, b, c);
            }
        }
        assert!(picks > 300, "{picks}");
    }

    #[test]
    fn full_and_nearly_full_grids_agree_with_reference() {
        // Solved grids, and solved grids with two cells of a row swapped (the row stays right, their columns
        // and maybe boxes repeat a digit), with a few cells then emptied: the propagation places every cell
        // and must still reject the wrong ones.
        let mut x = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut checked = 0;
        for g in puzzles(60) {
            let Some(full) = reference::count_solutions_with_first(&g, 1).1 else {
                continue;
            };
            for variant in 0..6 {
                let mut cells = *full.digits();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if variant % 2 == 1 {
                    let r = (x % 9) as usize;
                    let (a, b) = (((x >> 8) % 9) as usize, ((x >> 16) % 9) as usize);
                    cells.swap(9 * r + a, 9 * r + b);
                }
                for k in 0..variant / 2 * 3 {
                    cells[((x >> (20 + 6 * k)) % 81) as usize] = 0;
                }
                let h = Grid::from_raw(cells);
                for limit in [1, 2] {
                    let n_ref = reference::count_solutions(&h, limit);
                    let (n, first, _, _) =
                        count_impl::<Portable>(State::new(&h), limit, Keep::First);
                    assert_eq!(n, n_ref, "{h} limit {limit}");
                    assert_eq!(count_keep_last(&h, limit).0, n_ref, "{h} limit {limit}");
                    if let Some(f) = first {
                        assert_eq!(f.solution().check_solution_of(&h), Ok(()));
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 300);
    }

    #[test]
    fn dispatched_copy_agrees_with_reference() {
        check(count_keep_last);
        let g = &puzzles(1)[0];
        assert_eq!(count(g, 2).0, count_keep_last(g, 2).0);
    }
}
