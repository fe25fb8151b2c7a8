//! The reference enumeration against published figures (early levels of the English board, the whole triangle)
//! and against brute force without symmetry.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::{Board, Finish, Problem, reference};

/// English board, standard start: positions up to symmetry by number of pegs, from 32 down to 1
/// (G. Bell, Durango Bill; the table).
pub const ENGLISH_CLASSES: [u64; 32] = [
    1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312, 89927, 229614, 517854, 1022224, 1753737, 2598215,
    3312423, 3626632, 3413313, 2765623, 1930324, 1160977, 600372, 265865, 100565, 32250, 8688,
    1917, 348, 50, 7, 2,
];

#[test]
fn english_early_levels_match_published_classes() {
    let p = Problem::standard(Board::english());
    let c = reference::count(&p, Some(11)).unwrap();
    let got: Vec<u64> = c.levels.iter().map(|l| l.classes).collect();
    assert_eq!(got, ENGLISH_CLASSES[..11]);
    assert_eq!(c.levels[0].pegs, 32);
    assert_eq!(c.symmetries, 8);
}

/// Jaap Scherphuis's table for the 15-hole triangle from a corner vacancy: reachable positions (all) after
/// 0..13 jumps, 3016 in all.
#[test]
fn triangle_corner_start_matches_published_positions() {
    let p = Problem::standard(Board::builtin("triangle").unwrap());
    let c = reference::count(&p, None).unwrap();
    let got: Vec<u64> = c.levels.iter().map(|l| l.positions).collect();
    assert_eq!(
        got,
        [1, 2, 8, 35, 122, 293, 530, 679, 623, 414, 212, 75, 18, 4]
    );
    assert_eq!(c.totals.positions, 3016);
    assert_eq!(c.symmetries, 2);
}

#[test]
fn triangle_path_counts_match_brute_force() {
    for start in ["1", "2", "4", "5"] {
        let p = Problem::from_names(Board::builtin("triangle").unwrap(), &[start], None).unwrap();
        let c = reference::count(&p, None).unwrap();
        let (solutions, games) = reference::brute_force_paths(&p);
        assert_eq!(c.totals.solutions_full, solutions, "start {start}");
        assert_eq!(c.totals.games_full, games, "start {start}");
        eprintln!("start {start}: {} solutions, {} games", solutions, games);
    }
    let p = Problem::from_names(Board::builtin("triangle").unwrap(), &["1"], Some("13")).unwrap();
    let c = reference::count(&p, None).unwrap();
    let (solutions, _) = reference::brute_force_paths(&p);
    assert_eq!(c.totals.solutions_full, solutions);
    assert!(solutions > 0);
    let _ = Finish::Anywhere;
}
