//! The whole English board from the standard start against the published figures (OEIS A112737, A112738;
//! G. Bell; Durango Bill).
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::enumerate::{self, Options};
use peg::{Board, Problem};

/// Positions up to symmetry by number of pegs, from 32 down to 1.
const CLASSES: [u64; 32] = [
    1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312, 89927, 229614, 517854, 1022224, 1753737, 2598215,
    3312423, 3626632, 3413313, 2765623, 1930324, 1160977, 600372, 265865, 100565, 32250, 8688,
    1917, 348, 50, 7, 2,
];

/// Positions up to symmetry from which one peg on the centre can still be reached, from 32 pegs down to 1
/// (OEIS A112738).
const FINISHABLE: [u64; 32] = [
    1, 1, 2, 8, 38, 164, 635, 2089, 6174, 16020, 35749, 68326, 112788, 162319, 204992, 230230,
    230230, 204992, 162319, 112788, 68326, 35749, 16020, 6174, 2089, 635, 164, 38, 8, 2, 1, 1,
];

/// The first levels (32 down to 19 pegs, 1.9 million classes) against the published figures: always run.
#[test]
fn english_first_levels_match_published_figures() {
    let p = Problem::standard(Board::english());
    let opts = Options {
        max_levels: Some(14),
        ..Options::default()
    };
    let c = enumerate::count(&p, &opts).unwrap();
    let classes: Vec<u64> = c.levels.iter().map(|l| l.classes).collect();
    assert_eq!(classes, CLASSES[..14]);
}

/// The whole table (two full enumerations: the table of positions that can reach the centre, then the
/// forward one). Run with `cargo test -p peg --test english -- --ignored`; timed by the `enumerate` bench.
#[test]
#[ignore = "whole English enumeration: several seconds; run with --ignored"]
fn whole_english_table_matches_published_figures() {
    let p = Problem::from_names(Board::english(), &[], Some("d4")).unwrap();
    let c = enumerate::count(&p, &Options::default()).unwrap();
    let classes: Vec<u64> = c.levels.iter().map(|l| l.classes).collect();
    assert_eq!(classes, CLASSES);
    assert_eq!(c.totals.classes, 23_475_688);
    assert_eq!(c.totals.positions, 187_636_299);
    assert_eq!(c.totals.games_full, 577_116_156_815_309_849_672);
    assert_eq!(c.totals.solutions_full, 40_861_647_040_079_968);
    assert_eq!(c.totals.solutions_normal, 4_750_671_971_732_176);
    let finishable: Vec<u64> = c
        .levels
        .iter()
        .map(|l| l.finishable_classes.unwrap())
        .collect();
    assert_eq!(finishable, FINISHABLE);
    assert_eq!(c.totals.finishable_classes, Some(1_679_072));
}
