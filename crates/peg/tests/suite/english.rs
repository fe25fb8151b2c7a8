//! The whole English board from the standard start against the published figures (OEIS A112737, A112738;
//! G. Bell; Durango Bill).
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::enumerate::{self, Options};
use peg::{Board, CountError, Problem};

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

/// The whole table, with the finish on the centre (the positions that can still finish are the complements of
/// the reachable ones, matched level against level): about two seconds in the test profile. It must also fit
/// in the 256 MiB the issue allows, by the engine's own memory accounting (which stops before a level that
/// would need more). Timed by the `enumerate` bench.
#[test]
fn whole_english_table_matches_published_figures() {
    let p = Problem::from_names(Board::english(), &[], Some("d4")).unwrap();
    let left = std::sync::Mutex::new(Vec::new());
    let sink = |s: &enumerate::StepStats| left.lock().unwrap().push(s.left_in_tables);
    let opts = Options {
        max_memory: Some(256 << 20),
        stats: Some(&sink),
        ..Options::default()
    };
    let c = enumerate::count(&p, &opts).unwrap();
    let classes: Vec<u64> = c.levels.iter().map(|l| l.classes).collect();
    assert_eq!(classes, CLASSES);
    // The levels are expanded straight from their tables while the limit leaves room for them, and frozen
    // (half the memory) where it does not.
    let left = left.into_inner().unwrap();
    assert!(
        left.iter().any(|&l| l) && left.iter().any(|&l| !l),
        "{left:?}"
    );
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
    // Level totals pass 2^64 at 9 pegs (single classes at 4 pegs, where the levels switch to u128 counters).
    let nine = c.levels.iter().find(|l| l.pegs == 9).unwrap();
    assert_eq!(nine.paths_full, 18_534_301_625_596_903_968);
    assert!(nine.paths_full > u128::from(u64::MAX));
}

/// With too little memory the enumeration stops before the level that would not fit, saying how much it would
/// need (an estimate that must not be far off: the whole table needs about 200 MiB).
#[test]
fn english_stops_before_a_level_that_needs_more_memory() {
    let p = Problem::standard(Board::english());
    let limit = 120u64 << 20;
    let opts = Options {
        max_memory: Some(limit),
        ..Options::default()
    };
    match enumerate::count(&p, &opts) {
        Err(CountError::MemoryLimit {
            pegs,
            needed,
            limit: l,
            classes_so_far,
        }) => {
            assert_eq!(l, limit);
            assert!(needed > limit && needed < 2 * limit, "needed {needed}");
            assert!((16..=20).contains(&pegs), "pegs {pegs}");
            // Every level before the one that stopped was enumerated.
            let done = CLASSES[..(32 - pegs) as usize].iter().sum::<u64>();
            assert_eq!(classes_so_far, done);
        }
        other => panic!("expected a memory limit error, got {other:?}"),
    }
}

/// A bigger board (the French one from its centre: 374 million classes, about 2.6 GB) stops early under a small
/// limit, with a message that says how much the next level would need.
#[test]
fn french_board_stops_with_a_clear_message() {
    let p = Problem::standard(Board::builtin("french").unwrap());
    let opts = Options {
        max_memory: Some(100 << 20),
        ..Options::default()
    };
    let e = enumerate::count(&p, &opts).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("stopped before the level with") && text.contains("the limit is 100 MiB"),
        "{text}"
    );
    assert!(matches!(e, CountError::MemoryLimit { needed, .. } if needed > 100 << 20));
}
