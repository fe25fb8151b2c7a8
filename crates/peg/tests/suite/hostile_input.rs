//! Inputs found by fuzzing and by trying the tools as a new user: tiny and odd boards, long and odd names.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::enumerate::{self, Options};
use peg::{Board, Finish, Lattice, Problem, reference};

#[test]
fn reference_and_fast_agree_on_finishable_with_a_level_limit() {
    // The fuzz reproducer: a one-hole board, its peg on hole 0, finish on hole 0, two levels asked for. The
    // enumeration ends after one level; both engines must still leave the finishable counts out.
    let (board, start) = Board::from_layout("o", Lattice::Square, "o").unwrap();
    let p = Problem::new(board, start, Finish::Hole(0)).unwrap();
    for levels in [Some(1), Some(2), Some(5), None] {
        let slow = reference::count(&p, levels).unwrap();
        let opts = Options {
            max_levels: levels,
            ..Options::default()
        };
        let fast = enumerate::count(&p, &opts).unwrap();
        assert_eq!(fast, slow, "max_levels {levels:?}");
        assert_eq!(slow.levels[0].finishable.is_some(), levels.is_none());
    }
    // A board where the limit cuts the enumeration short, and one where it does not.
    let (board, start) = Board::from_layout("oo.o", Lattice::Square, "row").unwrap();
    let p = Problem::new(board, start, Finish::Hole(2)).unwrap();
    for levels in [Some(1), Some(2), Some(3), Some(9), None] {
        let opts = Options {
            max_levels: levels,
            ..Options::default()
        };
        assert_eq!(
            enumerate::count(&p, &opts).unwrap(),
            reference::count(&p, levels).unwrap(),
            "max_levels {levels:?}"
        );
    }
}

#[test]
fn hole_names_of_four_and_more_letters_are_read_back() {
    // Holes in columns 0..3 and around 18,278 (where names pass three letters: zzz is column 18,277).
    let mut line = String::from("ooo");
    line.push_str(&" ".repeat(18_277 - 3));
    line.push_str("ooo");
    let (board, _) = Board::from_layout(&line, Lattice::Square, "wide").unwrap();
    assert_eq!(
        board.hole_names(),
        ["a1", "b1", "c1", "zzz1", "aaaa1", "aaab1"]
    );
    for h in 0..board.holes() {
        assert_eq!(
            board.parse_hole(board.hole_name(h)).unwrap(),
            h,
            "{}",
            board.hole_name(h)
        );
        let upper = board.hole_name(h).to_ascii_uppercase();
        assert_eq!(board.parse_hole(&upper).unwrap(), h);
    }
    assert_eq!(
        board.format_move(board.parse_move("zzz1-aaab1").unwrap()),
        "zzz1-aaab1"
    );
    // Names far past any column, and absurd ones, are errors, not panics or wrong holes.
    for bad in [
        "aaac1",
        "zzzzzzzzzzzzzzzzzzzz1",
        "a99999999999999",
        "€1",
        "a1€",
    ] {
        assert!(board.parse_hole(bad).is_err(), "{bad}");
    }
}

#[test]
fn name_errors_quote_only_an_excerpt() {
    let b = Board::english();
    let long = "q".repeat(1_000_000);
    for e in [
        b.parse_hole(&long).unwrap_err().to_string(),
        b.parse_move(&long).unwrap_err().to_string(),
        Board::builtin(&long).unwrap_err().to_string(),
    ] {
        assert!(e.len() < 300, "{} bytes", e.len());
        assert!(e.contains("1000000 characters"), "{e}");
    }
}
