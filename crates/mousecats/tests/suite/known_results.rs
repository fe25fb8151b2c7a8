//! The published results: perft from the start and the value of the start positions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use mousecats::{Position, Rule, Side, Solution, Square, Value, perft, perft_memo};

#[test]
fn perft_from_the_start() {
    let start = Position::start();
    let got: Vec<u64> = (1..=4).map(|d| perft(&start, d, Rule::FarRow)).collect();
    assert_eq!(got, [2, 14, 56, 344]);
    assert_eq!(perft(&start, 0, Rule::FarRow), 1);
}

#[test]
fn memoised_perft_agrees_with_plain_perft() {
    let start = Position::start();
    for d in 0..=10 {
        assert_eq!(
            perft_memo(&start, d, Rule::FarRow),
            Some(u128::from(perft(&start, d, Rule::FarRow))),
            "depth {d}"
        );
    }
}

#[test]
fn cats_win_the_standard_start_in_44_plies() {
    let solution = Solution::solve(Rule::FarRow);
    assert_eq!(solution.value(&Position::start()), Value::Loss(44));
}

#[test]
fn cats_win_the_standard_start_in_44_plies_under_the_region_rule_too() {
    // gilith/solve's published 8x8 value (its rule is the region rule).
    let solution = Solution::solve(Rule::Region);
    assert_eq!(solution.value(&Position::start()), Value::Loss(44));
    assert_eq!(
        mousecats::reachable_positions(&Position::start(), Rule::Region),
        709_868
    );
}

#[test]
fn cats_win_with_the_mouse_anywhere_on_row_1() {
    let solution = Solution::solve(Rule::FarRow);
    for sq in ["A1", "C1", "E1", "G1"] {
        let mouse: Square = sq.parse().unwrap();
        let p = Position::start_with(mouse, Side::Mouse).unwrap();
        let v = solution.value(&p);
        assert_eq!(v.winner(Side::Mouse), Side::Cats, "mouse on {sq}: {v}");
        eprintln!("mouse {sq}: {v}");
    }
}

#[test]
fn alpha_beta_proves_the_44_ply_win_on_its_own() {
    // Independent of the exact solver: iterative deepening with the tables finds the cats' forced win
    // and stops at the depth that proves it.
    let mut engine = mousecats::Engine::new(mousecats::EngineConfig {
        rule: Rule::FarRow,
        tables: Some(mousecats::TableConfig {
            index_bits: 22,
            lock_bits: 32,
            verify: false,
        }),
    })
    .unwrap();
    let r = engine.search(&Position::start(), 64, None);
    assert_eq!(r.score, mousecats::Score::Loss(44));
    assert_eq!(r.depth, 44);
    assert_eq!(r.pv.len(), 44);
}
