//! The hand-vectorized operations for x86_64 processors with AVX2, BMI1/2, POPCNT and LZCNT.

use super::isa::Isa;
use super::tables::{BAND, STACK_COLS};

/// AVX2: eight digits in one vector, the ninth alone. Only used by [`count_x86`](super::count_x86), which runs
/// only after the processor was found to support AVX2.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx2;

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
