//! The finishable set and the solution counts over it ([`peg::Finishable`]) against a plain exhaustive search
//! (every reachable position, no symmetry, and whether it can still finish) and against the slow reference
//! enumeration's solution counts, on small boards with every start and finish; on the English board against the
//! published figures.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeSet, HashMap, HashSet};

use peg::enumerate::Options;
use peg::{Board, Finish, Finishable, FinishableLevel, Lattice, Position, Problem, reference};

/// Every position reachable from the start, by number of pegs (no symmetry).
fn reachable(problem: &Problem) -> Vec<Vec<Position>> {
    let board = problem.board();
    let mut levels = vec![Vec::new(); board.holes() + 1];
    let mut level: HashSet<Position> = HashSet::from([problem.start()]);
    while !level.is_empty() {
        let pegs = level.iter().next().unwrap().pegs() as usize;
        let mut next = HashSet::new();
        for &p in &level {
            for m in board.legal_moves(p) {
                next.insert(p.apply(m));
            }
        }
        levels[pegs] = level.into_iter().collect();
        level = next;
    }
    levels
}

fn reaches(problem: &Problem, pos: Position, memo: &mut HashMap<Position, bool>) -> bool {
    if pos.pegs() == 1 {
        return problem.finish().is_finished(pos);
    }
    if let Some(&r) = memo.get(&pos) {
        return r;
    }
    let r = problem
        .board()
        .legal_moves(pos)
        .into_iter()
        .any(|m| reaches(problem, pos.apply(m), memo));
    memo.insert(pos, r);
    r
}

/// The finishable set by exhaustive search: per level from the start's pegs down to one, and the set itself.
fn exhaustive(problem: &Problem) -> (Vec<FinishableLevel>, HashSet<Position>) {
    let levels = reachable(problem);
    let mut memo = HashMap::new();
    let mut rows = Vec::new();
    let mut set = HashSet::new();
    for pegs in (1..=problem.start().pegs()).rev() {
        let good: Vec<Position> = levels[pegs as usize]
            .iter()
            .copied()
            .filter(|&p| reaches(problem, p, &mut memo))
            .collect();
        let classes: BTreeSet<Position> = good.iter().map(|&p| problem.normalize(p)).collect();
        rows.push(FinishableLevel {
            pegs,
            positions: good.len() as u64,
            classes: classes.len() as u64,
        });
        set.extend(good);
    }
    (rows, set)
}

/// The paths from the start into each level's finishable positions (from the start's pegs down to one), by a
/// plain count over the set (`set`, from [`exhaustive`]): in the full tree over positions (every jump), in the
/// normal tree over the problem's classes (one branch for each distinct class), the latter only when every
/// class is finishable in all of its positions or in none (otherwise `None`).
fn paths_into_set(problem: &Problem, set: &HashSet<Position>) -> Vec<(u128, Option<u128>)> {
    let board = problem.board();
    let uniform = set
        .iter()
        .all(|&p| problem.group().iter().all(|g| set.contains(&g.apply(p))));
    let start = problem.start();
    let mut positions: HashMap<Position, u128> = HashMap::new();
    let mut classes: HashMap<Position, u128> = HashMap::new();
    if set.contains(&start) {
        positions.insert(start, 1);
        classes.insert(problem.normalize(start), 1);
    }
    let mut out = Vec::new();
    for _ in 1..=start.pegs() {
        out.push((
            positions.values().sum(),
            uniform.then(|| classes.values().sum()),
        ));
        let mut next = HashMap::new();
        for (&p, &c) in &positions {
            for m in board.legal_moves(p) {
                let q = p.apply(m);
                if set.contains(&q) {
                    *next.entry(q).or_insert(0) += c;
                }
            }
        }
        let mut next_classes = HashMap::new();
        for (&r, &c) in &classes {
            let distinct: BTreeSet<Position> = board
                .legal_moves(r)
                .into_iter()
                .map(|m| problem.normalize(r.apply(m)))
                .filter(|q| set.contains(q))
                .collect();
            for q in distinct {
                *next_classes.entry(q).or_insert(0) += c;
            }
        }
        positions = next;
        classes = next_classes;
    }
    out
}

fn replay(mut pos: Position, moves: &[peg::Move]) -> Position {
    for &m in moves {
        assert!(m.is_legal(pos));
        pos = pos.apply(m);
    }
    pos
}

fn check(problem: &Problem) {
    let label = format!(
        "{} start {:#x} finish {:?}",
        problem.board().name(),
        problem.start().bits(),
        problem.finish()
    );
    let f = Finishable::build(problem, &Options::default()).unwrap();
    let (rows, set) = exhaustive(problem);
    assert_eq!(f.levels(), &rows[..], "{label}");
    // Every reachable position is answered right, and a solution from a finishable one ends on the finish.
    for level in reachable(problem) {
        for p in level {
            assert_eq!(f.contains(p), set.contains(&p), "{label} {:#x}", p.bits());
            if let Some(moves) = f.solve(p) {
                assert!(problem.finish().is_finished(replay(p, &moves)), "{label}");
            } else {
                assert!(!set.contains(&p), "{label}");
            }
        }
    }
    let s = f.solutions(&Options::default()).unwrap();
    // The same counts from the set built keeping its walks' jumps.
    let kept = Finishable::build_for_solutions(problem, &Options::default()).unwrap();
    assert_eq!(kept.levels(), f.levels(), "{label}");
    assert_eq!(kept.solutions(&Options::default()).unwrap(), s, "{label}");
    let slow = reference::count(problem, None).unwrap();
    assert_eq!(
        (s.solutions_full, s.solutions_normal),
        (slow.totals.solutions_full, slow.totals.solutions_normal),
        "{label}"
    );
    assert_eq!(s.finishable_classes, f.classes());
    assert_eq!(s.finishable, f.positions());
    if let Finish::Hole(_) = problem.finish() {
        let fin: Vec<u64> = slow.levels.iter().map(|l| l.finishable.unwrap()).collect();
        let fin_classes: Vec<u64> = slow
            .levels
            .iter()
            .map(|l| l.finishable_classes.unwrap())
            .collect();
        let n = fin.len();
        let got: Vec<u64> = s.levels[..n].iter().map(|l| l.positions).collect();
        let got_classes: Vec<u64> = s.levels[..n].iter().map(|l| l.classes).collect();
        assert_eq!((got, got_classes), (fin, fin_classes), "{label}");
    }
    // Every level's paths, against the plain count over the set.
    let want = paths_into_set(problem, &set);
    assert_eq!(s.levels.len(), want.len(), "{label}");
    for (l, &(full, normal)) in s.levels.iter().zip(&want) {
        assert_eq!(l.paths_full, full, "{label}, {} pegs", l.pegs);
        if let Some(normal) = normal {
            assert_eq!(l.paths_normal, normal, "{label}, {} pegs", l.pegs);
        }
    }
    // The full-tree paths into the finishable positions of a level add up, level by level, from the paths of
    // the level above (each finishable position has a finishable successor): never fewer below than above.
    for w in s.levels.windows(2) {
        assert!(
            w[1].paths_full >= w[0].paths_full || w[1].positions == 0,
            "{label}"
        );
    }
}

#[test]
fn triangle_every_start_and_finish() {
    let b = Board::builtin("triangle").unwrap();
    for v in 0..b.holes() {
        let start = b.full().without_peg(v);
        check(&Problem::new(b.clone(), start, Finish::Anywhere).unwrap());
        for h in 0..b.holes() {
            check(&Problem::new(b.clone(), start, Finish::Hole(h)).unwrap());
        }
    }
}

#[test]
fn starts_with_fewer_symmetries_and_other_boards() {
    let t = Board::builtin("triangle").unwrap();
    for (a, c) in [(0, 14), (0, 4), (3, 12)] {
        let start = t.full().without_peg(a).without_peg(c);
        check(&Problem::new(t.clone(), start, Finish::Anywhere).unwrap());
        for h in [0, 4, 7, 12] {
            check(&Problem::new(t.clone(), start, Finish::Hole(h)).unwrap());
        }
    }
    // A hexagon of 19 holes on the triangular lattice (12 symmetries: two rows of lanes), and a small square
    // board with a hole-less corner.
    let (hex, _) = Board::from_layout(
        "  o o o\n o o o o\no o o o o\n o o o o\n  o o o\n",
        Lattice::Triangular,
        "hex19",
    )
    .unwrap();
    for v in [0, 4, 9] {
        let start = hex.full().without_peg(v);
        check(&Problem::new(hex.clone(), start, Finish::Anywhere).unwrap());
        check(&Problem::new(hex.clone(), start, Finish::Hole(v)).unwrap());
        check(&Problem::new(hex.clone(), start, Finish::Hole(18 - v)).unwrap());
    }
    // A board of an even number of holes: a self-dual problem's middle level is its own complement.
    let (r12, _) = Board::from_layout("oooo\noooo\noooo\n", Lattice::Square, "rect12").unwrap();
    for h in 0..r12.holes() {
        let start = r12.full().without_peg(h);
        check(&Problem::new(r12.clone(), start, Finish::Hole(h)).unwrap());
    }
    let (sq, pos) =
        Board::from_layout(" ooo\noooo\noo.o\noooo\n", Lattice::Square, "square15").unwrap();
    check(&Problem::new(sq.clone(), pos, Finish::Anywhere).unwrap());
    for h in 0..sq.holes() {
        check(&Problem::new(sq.clone(), pos, Finish::Hole(h)).unwrap());
    }
}

#[test]
fn a_start_that_is_already_one_peg() {
    let b = Board::builtin("triangle").unwrap();
    let one = Position::EMPTY.with_peg(4);
    let p = Problem::new(b.clone(), one, Finish::Hole(4)).unwrap();
    let f = Finishable::build(&p, &Options::default()).unwrap();
    assert_eq!(
        f.levels(),
        &[FinishableLevel {
            pegs: 1,
            positions: 1,
            classes: 1
        }]
    );
    let s = f.solutions(&Options::default()).unwrap();
    assert_eq!((s.solutions_full, s.solutions_normal), (1, 1));
    let p = Problem::new(b, one, Finish::Hole(0)).unwrap();
    let s = Finishable::build(&p, &Options::default())
        .unwrap()
        .solutions(&Options::default())
        .unwrap();
    assert_eq!(
        (s.solutions_full, s.solutions_normal, s.finishable),
        (0, 0, 0)
    );
}

/// Positions up to symmetry from which one peg on the centre can still be reached, from 32 pegs down to 1
/// (OEIS A112738).
const FINISHABLE: [u64; 32] = [
    1, 1, 2, 8, 38, 164, 635, 2089, 6174, 16020, 35749, 68326, 112788, 162319, 204992, 230230,
    230230, 204992, 162319, 112788, 68326, 35749, 16020, 6174, 2089, 635, 164, 38, 8, 2, 1, 1,
];

/// The English central game: the finishable set level by level (OEIS A112738), 1,679,072 classes, and the
/// solution counts of the full and the normal tree (G. Bell; Durango Bill).
#[test]
fn english_central_game_matches_published_figures() {
    let p = Problem::from_names(Board::english(), &[], Some("d4")).unwrap();
    let f = Finishable::build(&p, &Options::default()).unwrap();
    let classes: Vec<u64> = f.levels().iter().map(|l| l.classes).collect();
    assert_eq!(classes, FINISHABLE);
    assert_eq!(f.classes(), 1_679_072);
    assert!(f.contains(p.start()));
    let s = f.solutions(&Options::default()).unwrap();
    assert_eq!(s.solutions_full, 40_861_647_040_079_968);
    assert_eq!(s.solutions_normal, 4_750_671_971_732_176);
    assert_eq!(s.levels[0].paths_full, 1);
    // Counted again from the jumps the walks kept: the same figures, level by level.
    let kept = Finishable::build_for_solutions(&p, &Options::default()).unwrap();
    assert!(kept.bytes() > f.bytes());
    assert_eq!(kept.solutions(&Options::default()).unwrap(), s);
    let moves = f.solve(p.start()).unwrap();
    assert_eq!(replay(p.start(), &moves), Position::EMPTY.with_peg(16));
}

/// With too little memory to keep the walks' jumps, `build_for_solutions` gives them up (rather than the dense
/// walks): the same set and counts, the memory of a plain `build`.
#[test]
fn jumps_are_given_up_when_memory_is_short() {
    let p = Problem::from_names(Board::english(), &[], Some("d4")).unwrap();
    let mut dropped = false;
    let mut kept = false;
    // On the English board the set alone fits in 52 MB, with its jumps and room for the counts in 96 MB.
    for mb in [52u64, 60, 96] {
        let opts = Options {
            max_memory: Some(mb << 20),
            ..Options::default()
        };
        let (Ok(plain), Ok(with)) = (
            Finishable::build(&p, &opts),
            Finishable::build_for_solutions(&p, &opts),
        ) else {
            continue;
        };
        assert_eq!(with.levels(), plain.levels());
        let s = with.solutions(&Options::default()).unwrap();
        assert_eq!(s.solutions_full, 40_861_647_040_079_968);
        assert_eq!(s.solutions_normal, 4_750_671_971_732_176);
        dropped |= with.bytes() == plain.bytes();
        kept |= with.bytes() > plain.bytes();
    }
    assert!(dropped && kept, "dropped {dropped} kept {kept}");
}

#[test]
fn the_counts_below_the_middle_are_the_same_pulled_or_pushed() {
    // Self-dual: below its middle, the counts are pushed up from it when the memory limit leaves room for
    // the threads' counters (on two threads about 67 MB here: the set with its jumps, 27 MB, the counters,
    // 22 MB, and the index of the widest layer, 18 MB), and pulled down otherwise (40 MB: the bit sets'
    // check of the pull still passes).
    let p = Problem::from_names(Board::english(), &[], Some("d4")).unwrap();
    let f = Finishable::build_for_solutions(&p, &Options::default()).unwrap();
    let pushed = f.solutions(&Options::default()).unwrap();
    let pulled = f
        .solutions(&Options {
            max_memory: Some(40 << 20),
            ..Options::default()
        })
        .unwrap();
    assert_eq!(pushed, pulled);
    assert_eq!(pushed.solutions_full, 40_861_647_040_079_968);
    assert_eq!(pushed.solutions_normal, 4_750_671_971_732_176);
}
