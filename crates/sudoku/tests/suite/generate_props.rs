//! Generated puzzles, over random seeds: unique (by the independent solver), with the asked symmetry, and rated
//! within the asked level.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use sudoku::Grid;
use sudoku::generate::{Difficulty, GenerateOptions, Symmetry, generate};
use sudoku::rate::{self, Verdict};

fn check(level: Difficulty, symmetry: Symmetry, seed: u64, index: u64) {
    let g = generate(
        &GenerateOptions {
            difficulty: level,
            symmetry,
        },
        seed,
        index,
    )
    .unwrap();
    let grid = Grid::from_digits(g.puzzle).unwrap();
    assert_eq!(grid.count_solutions(2), 1, "{} not unique", grid.to_line());
    let sol = Grid::from_digits(g.solution).unwrap();
    assert!(sol.check_solution_of(&grid).is_ok());
    assert!(
        symmetry.holds_for(&g.puzzle),
        "{} lacks {symmetry} symmetry",
        grid.to_line()
    );
    assert_eq!(g.clues, g.puzzle.iter().filter(|&&d| d != 0).count());
    assert!(g.clues >= level.min_clues());
    let r = rate::rate(&grid, false);
    assert_eq!(r.verdict, Verdict::Solved);
    assert_eq!(r.rating, Some(g.rating));
    let (lo, hi) = level.range();
    assert!(
        g.rating >= lo && g.rating <= hi,
        "{} rated {} for {level}",
        grid.to_line(),
        g.rating
    );
    assert_eq!(r.difficulty(), Some(level));
    // Deterministic.
    assert_eq!(
        generate(
            &GenerateOptions {
                difficulty: level,
                symmetry
            },
            seed,
            index
        )
        .unwrap(),
        g
    );
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    prop::sample::select(Symmetry::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn beginner_to_hard(seed in any::<u64>(), sym in symmetry(), level in 0usize..4) {
        check(Difficulty::ALL[level], sym, seed, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    #[test]
    fn expert(seed in any::<u64>(), sym in symmetry()) {
        check(Difficulty::Expert, sym, seed, 1);
    }
}

#[test]
fn seeds_and_indexes_give_different_puzzles() {
    let opts = GenerateOptions::default();
    let a = generate(&opts, 1, 0).unwrap();
    let b = generate(&opts, 1, 1).unwrap();
    let c = generate(&opts, 2, 0).unwrap();
    assert_ne!(a.puzzle, b.puzzle);
    assert_ne!(a.puzzle, c.puzzle);
}
