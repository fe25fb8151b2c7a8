//! The slow, plainly written reference enumeration: hash maps of normal forms, symmetries applied hole by hole.
//! It exists to check the fast engine ([`crate::enumerate`]) on small boards and early levels; it computes the
//! same [`Count`].

use std::collections::{BTreeSet, HashMap};

use crate::count::{Count, CountError, Level, add};
use crate::position::Position;
use crate::problem::{Finish, Problem};

/// The whole table, plainly computed. With `max_levels`, only that many levels (from the start down) are
/// enumerated; totals then cover those levels only and the finishable counts are left out.
pub fn count(problem: &Problem, max_levels: Option<usize>) -> Result<Count, CountError> {
    let board = problem.board();
    let mut current: HashMap<Position, (u128, u128)> = HashMap::new();
    current.insert(problem.normalize(problem.start()), (1, 1));
    let mut levels = Vec::new();
    let mut all_levels: Vec<Vec<Position>> = Vec::new();
    let mut solutions = (0u128, 0u128);
    let limit = max_levels.unwrap_or(usize::MAX);
    while !current.is_empty() && levels.len() < limit {
        let pegs = current.keys().next().map(|p| p.pegs()).unwrap_or(0);
        let mut level = Level {
            pegs,
            ..Level::default()
        };
        let mut next: HashMap<Position, (u128, u128)> = HashMap::new();
        for (&r, &(t, n)) in &current {
            let size = problem.class_size(r);
            level.positions += size;
            level.classes += 1;
            level.paths_full = add(level.paths_full, t, pegs)?;
            level.paths_normal = add(level.paths_normal, n, pegs)?;
            let moves = board.legal_moves(r);
            if moves.is_empty() {
                level.dead_ends += size;
                level.dead_end_classes += 1;
                level.games_full = add(level.games_full, t, pegs)?;
                level.games_normal = add(level.games_normal, n, pegs)?;
            }
            let mut distinct = BTreeSet::new();
            for m in moves {
                let s = problem.normalize(r.apply(m));
                let e = next.entry(s).or_insert((0, 0));
                e.0 = add(e.0, t, pegs - 1)?;
                distinct.insert(s);
            }
            for s in distinct {
                let e = next.entry(s).or_insert((0, 0));
                e.1 = add(e.1, n, pegs - 1)?;
            }
            if pegs == 1 {
                match problem.finish() {
                    Finish::Anywhere => {
                        solutions.0 = add(solutions.0, t, 1)?;
                        solutions.1 = add(solutions.1, n, 1)?;
                    }
                    Finish::Hole(h) => {
                        if r == problem.normalize(Position::EMPTY.with_peg(h)) {
                            solutions.0 = add(solutions.0, t / size as u128, 1)?;
                            solutions.1 = add(solutions.1, n, 1)?;
                        }
                    }
                }
            }
        }
        all_levels.push(current.keys().copied().collect());
        levels.push(level);
        current = next;
    }
    // As documented (and as the fast engine does): with `max_levels` the finishable counts are left out, even
    // when the enumeration happens to end within that many levels.
    let complete = current.is_empty() && max_levels.is_none();
    if let (Finish::Hole(_), true) = (problem.finish(), complete) {
        let mut memo = HashMap::new();
        for (level, reps) in levels.iter_mut().zip(&all_levels) {
            let (mut all, mut classes) = (0u64, 0u64);
            for &r in reps {
                let images: BTreeSet<Position> =
                    problem.group().iter().map(|g| g.apply(r)).collect();
                let k = images
                    .iter()
                    .filter(|&&q| reaches(problem, q, &mut memo))
                    .count() as u64;
                all += k;
                classes += u64::from(k > 0);
            }
            level.finishable = Some(all);
            level.finishable_classes = Some(classes);
        }
    }
    Count::from_levels(problem.group().len(), levels, solutions.0, solutions.1)
}

/// Whether the finish can be reached from `pos` (plain depth-first search with a memo).
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

/// Count full-tree paths from `start` without any symmetry: (solutions to the finish, complete games).
/// Exponential; for tiny boards only (an independent check of the path counts).
pub fn brute_force_paths(problem: &Problem) -> (u128, u128) {
    fn go(
        problem: &Problem,
        pos: Position,
        memo: &mut HashMap<Position, (u128, u128)>,
    ) -> (u128, u128) {
        if let Some(&v) = memo.get(&pos) {
            return v;
        }
        let moves = problem.board().legal_moves(pos);
        let v = if moves.is_empty() {
            (u128::from(problem.finish().is_finished(pos)), 1)
        } else {
            let mut acc = (0, 0);
            for m in moves {
                let (s, g) = go(problem, pos.apply(m), memo);
                acc.0 += s;
                acc.1 += g;
            }
            acc
        };
        memo.insert(pos, v);
        v
    }
    go(problem, problem.start(), &mut HashMap::new())
}
