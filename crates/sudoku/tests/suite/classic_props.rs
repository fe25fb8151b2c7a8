//! The classic method: every transform keeps a grid valid, and the puzzles hide the asked number of cells.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use sudoku::Grid;
use sudoku::classic::{
    self, BASE_GRIDS, ClassicError, ClassicOptions, Transform, base_grid, random_transforms,
};
use sudoku::rng::Rng;

fn valid_full(g: &[u8; 81]) -> bool {
    Grid::from_digits(*g).is_ok_and(|g| g.is_solved())
}

fn perm3() -> impl Strategy<Value = [u8; 3]> {
    Just([0u8, 1, 2])
        .prop_shuffle()
        .prop_map(|v| [v[0], v[1], v[2]])
}

fn transform() -> impl Strategy<Value = Transform> {
    prop_oneof![
        Just((1u8..=9).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(|v| {
                let mut m = [0u8; 9];
                m.copy_from_slice(&v);
                Transform::Relabel(m)
            }),
        (0u8..3, perm3()).prop_map(|(band, perm)| Transform::RowsInBand { band, perm }),
        (0u8..3, perm3()).prop_map(|(stack, perm)| Transform::ColumnsInStack { stack, perm }),
        perm3().prop_map(Transform::Bands),
        perm3().prop_map(Transform::Stacks),
        Just(Transform::Transpose),
        (0u8..4).prop_map(Transform::Rotate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_transform_keeps_every_base_grid_valid(base in 0usize..BASE_GRIDS.len(), ts in prop::collection::vec(transform(), 1..12)) {
        let mut g = base_grid(base);
        for t in ts {
            let before = g;
            g = t.apply(&g);
            prop_assert!(valid_full(&g), "{t:?} broke the grid");
            // Transforms move cells, never change how many of each digit there are.
            let count = |x: &[u8; 81], d: u8| x.iter().filter(|&&v| v == d).count();
            for d in 1..=9 {
                prop_assert_eq!(count(&before, d), 9);
                prop_assert_eq!(count(&g, d), 9);
            }
        }
    }

    #[test]
    fn transforms_keep_puzzles_consistent(seed in any::<u64>()) {
        // A transform applied to a puzzle and to its solution keeps the solution a solution.
        let mut rng = Rng::new(seed);
        let sol = base_grid(rng.below(BASE_GRIDS.len() as u32) as usize);
        let mut puzzle = sol;
        for cell in puzzle.iter_mut() {
            if rng.below(3) == 0 {
                *cell = 0;
            }
        }
        for t in random_transforms(&mut rng) {
            let (p2, s2) = (t.apply(&puzzle), t.apply(&sol));
            prop_assert!(valid_full(&s2));
            let p = Grid::from_digits(p2).unwrap();
            prop_assert!(Grid::from_digits(s2).unwrap().check_solution_of(&p).is_ok());
        }
    }

    #[test]
    fn classic_hides_exactly_n_cells(seed in any::<u64>(), hide in 0usize..=classic::MAX_HIDE) {
        let c = classic::classic(&ClassicOptions { hide, unique: false }, &mut Rng::new(seed)).unwrap();
        prop_assert_eq!(c.puzzle.iter().filter(|&&d| d == 0).count(), hide);
        prop_assert!(valid_full(&c.solution));
        prop_assert_eq!(c.unique, None);
        for i in 0..81 {
            prop_assert!(c.puzzle[i] == 0 || c.puzzle[i] == c.solution[i]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn classic_unique_is_unique(seed in any::<u64>(), hide in 20usize..=50) {
        let c = classic::classic(&ClassicOptions { hide, unique: true }, &mut Rng::new(seed)).unwrap();
        prop_assert_eq!(c.puzzle.iter().filter(|&&d| d == 0).count(), hide);
        prop_assert_eq!(Grid::from_digits(c.puzzle).unwrap().count_solutions(2), 1);
        prop_assert_eq!(c.unique, Some(true));
    }
}

#[test]
fn impossible_requests_are_errors() {
    let mut rng = Rng::new(5);
    assert_eq!(
        classic::classic(
            &ClassicOptions {
                hide: 82,
                unique: false
            },
            &mut rng
        ),
        Err(ClassicError::TooMany { hide: 82 })
    );
    // A puzzle keeps at least 17 clues (none with 16 has a unique solution): 65 is refused whatever asked.
    for unique in [false, true] {
        assert_eq!(
            classic::classic(&ClassicOptions { hide: 65, unique }, &mut rng),
            Err(ClassicError::TooMany { hide: 65 })
        );
    }
    // Within the range, uniqueness can still be out of reach.
    assert!(matches!(
        classic::classic(
            &ClassicOptions {
                hide: 64,
                unique: true
            },
            &mut rng
        ),
        Err(ClassicError::NotUnique { hide: 64, .. })
    ));
}
