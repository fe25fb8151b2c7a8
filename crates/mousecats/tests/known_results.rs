//! The published results: perft from the start and the value of the start positions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use mousecats::{Position, Rule, Side, Solution, Square, Value, perft, perft_memo};

#[test]
fn perft_from_the_start() {
    let start = Position::start();
    let got: Vec<u64> = (1..=4).map(|d| perft(&start, d, Rule::Row8)).collect();
    assert_eq!(got, [2, 14, 56, 344]);
    assert_eq!(perft(&start, 0, Rule::Row8), 1);
}

#[test]
fn memoised_perft_agrees_with_plain_perft() {
    let start = Position::start();
    for d in 0..=10 {
        assert_eq!(
            perft_memo(&start, d, Rule::Row8),
            Some(u128::from(perft(&start, d, Rule::Row8))),
            "depth {d}"
        );
    }
}

#[test]
fn cats_win_the_standard_start_in_44_plies() {
    let solution = Solution::solve(Rule::Row8);
    assert_eq!(solution.value(&Position::start()), Value::Loss(44));
}

#[test]
fn cats_win_with_the_mouse_anywhere_on_row_1() {
    let solution = Solution::solve(Rule::Row8);
    for sq in ["A1", "C1", "E1", "G1"] {
        let mouse: Square = sq.parse().unwrap();
        let p = Position::start_with(mouse, Side::Mouse).unwrap();
        let v = solution.value(&p);
        assert_eq!(v.winner(Side::Mouse), Side::Cats, "mouse on {sq}: {v}");
        eprintln!("mouse {sq}: {v}");
    }
}
