//! Move generation and hashing, checked against the plain reference in `common`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::Plain;
use mousecats::solve::INDEX_LEN;
use mousecats::{Position, Rule, Side, Square, perft, state_position};
use proptest::prelude::*;

/// Play `choices` (each taken modulo the number of legal moves) from `start` until the game ends.
fn walk(start: Position, choices: &[usize], rule: Rule) -> Vec<Position> {
    let mut out = vec![start];
    let mut p = start;
    for &c in choices {
        let moves = p.legal_moves(rule);
        if moves.is_empty() {
            break;
        }
        p = p.make_move(moves[c % moves.len()]);
        out.push(p);
    }
    out
}

fn same_moves(p: &Position) {
    let mut ours: Vec<(u8, u8)> = p
        .moves()
        .iter()
        .map(|m| (m.from().index(), m.to().index()))
        .collect();
    let mut plain: Vec<(u8, u8)> = Plain::from(p)
        .moves()
        .into_iter()
        .map(|((f0, r0), (f1, r1))| ((r0 * 8 + f0) as u8, (r1 * 8 + f1) as u8))
        .collect();
    ours.sort_unstable();
    plain.sort_unstable();
    assert_eq!(ours, plain, "{p}");
    for m in p.moves().iter() {
        assert!(p.is_move(*m));
    }
}

#[test]
fn perft_matches_the_reference_from_the_start() {
    let start = Position::start();
    let plain = Plain::from(&start);
    for d in 0..=8 {
        assert_eq!(
            perft(&start, d, Rule::FarRow),
            plain.perft(d, Rule::FarRow),
            "depth {d}"
        );
    }
    // Cats first, the mouse elsewhere on row 1, the escape rule.
    for (sq, side, rule) in [
        ("A1", Side::Cats, Rule::FarRow),
        ("G1", Side::Mouse, Rule::Escape),
        ("C1", Side::Cats, Rule::Escape),
    ] {
        let p = Position::start_with(sq.parse().unwrap(), side).unwrap();
        for d in 0..=7 {
            assert_eq!(
                perft(&p, d, rule),
                Plain::from(&p).perft(d, rule),
                "{p} depth {d} {rule}"
            );
        }
    }
}

#[test]
fn swapping_cats_keeps_hash_and_lock() {
    let cats: [Square; 4] = ["A3", "C5", "F6", "H8"].map(|s| s.parse().unwrap());
    let mouse: Square = "D2".parse().unwrap();
    let base = Position::new(mouse, &cats, Side::Cats).unwrap();
    // Every order of the same four cats.
    let orders = [
        [0, 1, 2, 3],
        [3, 2, 1, 0],
        [1, 0, 3, 2],
        [2, 3, 0, 1],
        [0, 2, 1, 3],
    ];
    for o in orders {
        let p = Position::new(mouse, &o.map(|i| cats[i]), Side::Cats).unwrap();
        assert_eq!(
            (p.zobrist_hash(), p.zobrist_lock()),
            (base.zobrist_hash(), base.zobrist_lock())
        );
    }
    // Two games that end with the same squares held by different cats: the cat from D8 ends on D6 and
    // the one from F8 on E7 in one game, the other way round in the other.
    let p = Position::start().make_move("E1-F2".parse().unwrap());
    let play = |p: Position, moves: &[&str]| {
        moves
            .iter()
            .fold(p, |q, m| q.play(m.parse().unwrap(), Rule::FarRow).unwrap())
    };
    let a = play(p, &["D8-E7", "F2-G3", "E7-D6", "G3-H4", "F8-E7"]);
    let b = play(p, &["F8-E7", "F2-G3", "E7-D6", "G3-H4", "D8-E7"]);
    assert_eq!(a, b);
    assert_eq!(
        (a.zobrist_hash(), a.zobrist_lock()),
        (b.zobrist_hash(), b.zobrist_lock())
    );
    // Different positions hash differently here.
    assert_ne!(a.zobrist_hash(), p.zobrist_hash());
    assert_ne!(a.with_turn(Side::Cats).zobrist_hash(), a.zobrist_hash());
    assert_ne!(a.with_turn(Side::Cats).zobrist_lock(), a.zobrist_lock());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn incremental_hash_equals_recomputed(
        mouse in 0usize..4,
        cats_first in any::<bool>(),
        choices in proptest::collection::vec(0usize..8, 0..60),
    ) {
        let start = Position::start_with(
            Square::from_dark_index(mouse as u8),
            if cats_first { Side::Cats } else { Side::Mouse },
        ).unwrap();
        for p in walk(start, &choices, Rule::FarRow) {
            prop_assert_eq!(p.zobrist_hash(), p.compute_hash());
            prop_assert_eq!(p.zobrist_lock(), p.compute_lock());
            same_moves(&p);
            // Parsing the printed position gives it back, hash included.
            let q: Position = p.to_string().parse().unwrap();
            prop_assert_eq!(q, p);
            let d: Position = p.diagram().parse().unwrap();
            prop_assert_eq!(d, p);
        }
    }

    #[test]
    fn any_state_matches_the_reference(index in 0usize..INDEX_LEN, rule in prop_oneof![Just(Rule::FarRow), Just(Rule::Escape)]) {
        let Some(p) = state_position(index) else { return Ok(()) };
        same_moves(&p);
        let plain = Plain::from(&p);
        let expected = plain.mouse_won(rule).map(|m| if m { Side::Mouse } else { Side::Cats });
        prop_assert_eq!(p.outcome(rule), expected);
        prop_assert_eq!(perft(&p, 3, rule), plain.perft(3, rule));
        prop_assert_eq!(p.zobrist_hash(), p.compute_hash());
    }
}
