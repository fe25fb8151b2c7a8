//! Pagoda functions found for a problem, to prune the walks of the finishable set.
//!
//! A *pagoda function* gives each hole a weight such that no jump increases the total weight of the pegs
//! (`w(from) + w(over) >= w(to)` for every jump). So a position whose pegs weigh less than a one-peg finish
//! cannot reach it, and a position whose pegs weigh more than the start cannot be reached from it. Any pagoda
//! is a sound test; some rule out many positions, most rule out few. [`search`] tries every pagoda with small
//! integer weights that are the same on each orbit of a symmetry group (so that the test holds on normal
//! forms), and keeps the one that rules out the most positions of a sample.

use crate::board::{Board, Symmetry};

/// Which side of a meeting a pagoda prunes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Forward walks: positions whose pegs weigh less than the lightest finish hole cannot finish.
    Forward,
    /// Backward walks: positions whose pegs weigh more than the start cannot be reached from it.
    Backward,
}

/// A pagoda and its test: keep a position when `sign * weight(pegs) >= limit`, where the weights returned
/// already carry the sign (see [`crate::kernel::Prune`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub weights: Vec<i64>,
    pub limit: i64,
    /// Positions of the sample it ruled out.
    pub pruned: usize,
}

/// Most nodes of the search over weightings (each assigns a weight to one more orbit).
const MAX_NODES: usize = 4_000_000;

/// Most weightings the search may have to look at (7^7: the English board's seven orbits with weights in
/// -3..=3).
const MAX_COMBINATIONS: u64 = 823_543;

/// Positions of the sample a weighting is scored on.
const SCORED: usize = 1024;

/// The best pagoda for `side` with weights in `-range..=range` constant on the orbits of `group`, scored on
/// `sample` (positions). `finish` are the finish holes (forward) and `start` the start (backward). `None` when
/// none rules out at least one position in 64 of the sample.
pub(crate) fn search(
    board: &Board,
    group: &[Symmetry],
    side: Side,
    finish: &[usize],
    start: u64,
    sample: &[u64],
) -> Option<Found> {
    let n = board.holes();
    // Orbits of the group on the holes.
    let mut orbit = vec![usize::MAX; n];
    let mut norbits = 0;
    for h in 0..n {
        if orbit[h] != usize::MAX {
            continue;
        }
        for g in group {
            orbit[g.map_hole(h)] = norbits;
        }
        orbit[h] = norbits;
        norbits += 1;
    }
    // The widest range of weights whose every combination is at most `MAX_COMBINATIONS` (more orbits: fewer
    // values each); none at all past that.
    let range = (1..=3i64)
        .rev()
        .find(|r| ((2 * r + 1) as f64).powi(norbits as i32) <= MAX_COMBINATIONS as f64)?;
    // Constraints `w[a] + w[b] - w[c] >= 0` over orbits, each checked once its three orbits have weights:
    // by the largest of them in the order weights are given.
    let mut checks: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); norbits];
    for m in board.moves() {
        let c = (orbit[m.from()], orbit[m.over()], orbit[m.to()]);
        let last = c.0.max(c.1).max(c.2);
        if !checks[last].contains(&c) {
            checks[last].push(c);
        }
    }
    // The sample as peg counts per orbit, and the counts of the start.
    let counts = |pos: u64| -> Vec<i64> {
        let mut c = vec![0i64; norbits];
        for (h, &o) in orbit.iter().enumerate() {
            c[o] += (pos >> h & 1) as i64;
        }
        c
    };
    let step = (sample.len() / SCORED).max(1);
    let sample: Vec<Vec<i64>> = sample.iter().step_by(step).map(|&p| counts(p)).collect();
    // `by_orbit[o][i]`: the pegs of sample position `i` on orbit `o`.
    let by_orbit: Vec<Vec<i64>> = (0..norbits)
        .map(|o| sample.iter().map(|c| c[o]).collect())
        .collect();
    let start_counts = counts(start);
    let mut best: Option<(usize, Vec<i64>)> = None;
    let mut w = vec![0i64; norbits];
    let mut nodes = 0usize;
    let mut stack = vec![(0usize, -range - 1)];
    // `partial[o + 1][i]`: the weight of sample position `i` on the orbits up to `o`, with the weights given.
    let mut partial = vec![vec![0i64; sample.len()]; norbits + 1];
    // Depth-first over the orbits' weights.
    while let Some(&mut (o, ref mut v)) = stack.last_mut() {
        *v += 1;
        if *v > range {
            stack.pop();
            continue;
        }
        nodes += 1;
        if nodes > MAX_NODES {
            break;
        }
        w[o] = *v;
        if !checks[o].iter().all(|&(a, b, c)| w[a] + w[b] - w[c] >= 0) {
            continue;
        }
        let (done, rest) = partial.split_at_mut(o + 1);
        for ((p, &q), &c) in rest[0].iter_mut().zip(&done[o]).zip(&by_orbit[o]) {
            *p = q + c * w[o];
        }
        if o + 1 < norbits {
            stack.push((o + 1, -range - 1));
            continue;
        }
        // A pagoda: score it.
        let weights = &partial[norbits];
        let pruned = match side {
            Side::Forward => {
                let limit = finish.iter().map(|&h| w[orbit[h]]).min().unwrap_or(0);
                weights.iter().filter(|&&x| x < limit).count()
            }
            Side::Backward => {
                let limit: i64 = start_counts.iter().zip(&w).map(|(a, b)| a * b).sum();
                weights.iter().filter(|&&x| x > limit).count()
            }
        };
        if best.as_ref().is_none_or(|b| pruned > b.0) {
            best = Some((pruned, w.clone()));
        }
    }
    let (pruned, w) = best?;
    if pruned * 64 < sample.len() {
        return None;
    }
    let weights: Vec<i64> = (0..n).map(|h| w[orbit[h]]).collect();
    Some(match side {
        Side::Forward => Found {
            limit: finish.iter().map(|&h| weights[h]).min().unwrap_or(0),
            weights,
            pruned,
        },
        Side::Backward => {
            let at_start: i64 = (0..n)
                .filter(|&h| start >> h & 1 == 1)
                .map(|h| weights[h])
                .sum();
            Found {
                weights: weights.iter().map(|&x| -x).collect(),
                limit: -at_start,
                pruned,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Every pagoda found is one (no jump increases the weight of the pegs) with the same weight on each orbit
    /// of the group, and the limit is the finish's weight. (That its test never rules out a position that can
    /// still finish is checked through the finishable sets, against exhaustive search, in `tests/`.)
    #[test]
    fn found_pagodas_are_sound() {
        let b = Board::english();
        let d4 = b.parse_hole("d4").unwrap();
        let group = b.stabilizer(Position::EMPTY.with_peg(d4));
        // A sample of positions with few pegs far from the centre.
        let sample: Vec<u64> = (0..4096u64)
            .map(|i| {
                let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x1234_5678;
                x ^= x >> 29;
                x & b.full().bits() & (x >> 7 | x >> 13)
            })
            .collect();
        let f = search(
            &b,
            &group,
            Side::Forward,
            &[d4],
            b.default_start().bits(),
            &sample,
        )
        .unwrap();
        for m in b.moves() {
            assert!(f.weights[m.from()] + f.weights[m.over()] >= f.weights[m.to()]);
        }
        assert_eq!(f.limit, f.weights[d4]);
        for g in &group {
            for h in 0..b.holes() {
                assert_eq!(f.weights[h], f.weights[g.map_hole(h)]);
            }
        }
        assert!(f.pruned > 0);
    }
}
