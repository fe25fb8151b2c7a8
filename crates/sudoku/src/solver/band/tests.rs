//! The integration tests reach only the copy chosen for this processor; these run every copy.

use super::tables::BAND;
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
                _ => panic!("puzzle {i}: a first solution without a last, or the other way round"),
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
            *w =
                ((x as u32 & (x >> 32) as u32) | ((x >> 40) as u32 * u32::from(x & 1 == 0))) & BAND;
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
                let (n, first, _, _) = count_impl::<Portable>(State::new(&h), limit, Keep::First);
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
