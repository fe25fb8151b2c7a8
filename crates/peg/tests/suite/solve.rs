//! The solver against the plain exhaustive reference enumeration: on random small positions of several boards, with the finish
//! anywhere or on a given hole, it must say "solvable" exactly when the exhaustive search does (its pruning,
//! position classes, pagodas and tables, may cut only hopeless branches), and every path it gives must be legal and
//! end on the finish.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::{Board, Finish, Position, Problem, Solver, SolverOptions, reference};
use proptest::prelude::*;

/// Whether `pos` can be played down to one peg (on `finish`, if given), by the crate's slow reference enumeration
/// (every position reachable from `pos`, level by level).
fn exhaustive(b: &Board, pos: Position, finish: Finish) -> bool {
    let p = Problem::new(b.clone(), pos, finish).unwrap();
    reference::count(&p, None).unwrap().totals.solutions_full > 0
}

fn check(b: &Board, pos: Position, finish: Finish, table_entries: usize) {
    let options = SolverOptions {
        table_entries,
        ..SolverOptions::default()
    };
    let mut s = Solver::with_options(b, finish, options);
    let want = exhaustive(b, pos, finish);
    let got = s.solve(pos).unwrap();
    assert_eq!(
        got.is_some(),
        want,
        "{} {finish:?} from\n{}",
        b.name(),
        b.render(pos)
    );
    if let Some(path) = got {
        let mut p = pos;
        for m in path {
            assert!(m.is_legal(p));
            p = p.apply(m);
        }
        assert_eq!(p.pegs(), 1);
        if let Finish::Hole(h) = finish {
            assert_eq!(p, Position::EMPTY.with_peg(h));
        }
    }
    // Asked again (the dead positions now known), the same answer.
    assert_eq!(s.solve(pos).unwrap().is_some(), want);
}

/// A position of `b` with the pegs of `bits` that fall on holes (at least one).
fn position(b: &Board, bits: u64) -> Position {
    let p = Position::from_bits(bits & b.full().bits());
    if p.pegs() == 0 {
        Position::EMPTY.with_peg(0)
    } else {
        p
    }
}

/// A position reached from one peg on `end` by `undos` random backward jumps (choices from `seed`): solvable by
/// construction, with the finish on `end`; a little noise (`flip`, one hole) makes some of them unsolvable.
fn backward(b: &Board, end: usize, undos: usize, mut seed: u64, flip: Option<usize>) -> Position {
    let mut pos = Position::EMPTY.with_peg(end);
    for _ in 0..undos {
        let moves: Vec<_> = b.moves().iter().filter(|m| m.is_undoable(pos)).collect();
        if moves.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        pos = pos.undo(*moves[(seed >> 33) as usize % moves.len()]);
    }
    match flip {
        Some(h) if pos.pegs() > 1 || !pos.has_peg(h % b.holes()) => {
            let h = h % b.holes();
            if pos.has_peg(h) {
                pos.without_peg(h)
            } else {
                pos.with_peg(h)
            }
        }
        _ => pos,
    }
}

fn sparse_bits() -> impl Strategy<Value = u64> {
    // About a quarter of the holes filled: mostly positions with jumps, some solvable, most not.
    (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn english_positions_agree_with_exhaustive_search(bits in sparse_bits(), hole in 0usize..33, anywhere: bool) {
        let b = Board::english();
        let pos = position(&b, bits);
        let finish = if anywhere { Finish::Anywhere } else { Finish::Hole(hole) };
        // Without the backward table, so the pagodas and the depth-first search decide; then with a small one.
        check(&b, pos, finish, 0);
        check(&b, pos, finish, 2_000);
    }

    #[test]
    fn diamond_and_triangle_positions_agree_with_exhaustive_search(
        bits in sparse_bits(),
        hole in 0usize..41,
        anywhere: bool,
        diamond: bool,
    ) {
        let b = Board::builtin(if diamond { "diamond" } else { "triangle" }).unwrap();
        let pos = position(&b, bits);
        let finish = if anywhere { Finish::Anywhere } else { Finish::Hole(hole % b.holes()) };
        check(&b, pos, finish, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn backward_played_positions_agree_with_exhaustive_search(
        board in 0usize..3,
        end in 0usize..64,
        undos in 4usize..13,
        seed: u64,
        flip in proptest::option::of(0usize..64),
        anywhere: bool,
    ) {
        let b = Board::builtin(["english", "diamond", "wiegleb"][board]).unwrap();
        let end = end % b.holes();
        let pos = backward(&b, end, undos, seed, flip);
        let finish = if anywhere { Finish::Anywhere } else { Finish::Hole(end) };
        check(&b, pos, finish, 0);
        check(&b, pos, finish, 2_000);
    }
}
