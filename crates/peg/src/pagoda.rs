//! Pagoda functions found for a problem, to prune the walks of the finishable set.
//!
//! A *pagoda function* gives each hole a weight such that no jump increases the total weight of the pegs
//! (`w(from) + w(over) >= w(to)` for every jump). So a position whose pegs weigh less than a one-peg finish
//! cannot reach it, and a position whose pegs weigh more than the start cannot be reached from it. Any pagoda
//! is a sound test; some rule out many positions, most rule out few. [`search`] tries every pagoda with small
//! integer weights that are the same on each orbit of a symmetry group (so that the test holds on normal
//! forms), and keeps the one that rules out the most positions of a sample.

use crate::board::{Board, Symmetry};
use rayon::prelude::*;

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
    /// Positions of the sample it ruled out (for a further test of [`search_more`]: of those the tests before
    /// it kept).
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
    let (orbit, norbits) = orbits(n, group);
    // The widest range of weights whose every combination is at most `MAX_COMBINATIONS` (more orbits: fewer
    // values each); none at all past that.
    let range = (1..=3i64)
        .rev()
        .find(|r| ((2 * r + 1) as f64).powi(norbits as i32) <= MAX_COMBINATIONS as f64)?;
    let step = (sample.len() / SCORED).max(1);
    let sample: Vec<u64> = sample.iter().step_by(step).copied().collect();
    let mut best: Option<(usize, Vec<i64>)> = None;
    each_pagoda(
        board,
        &orbit,
        norbits,
        range,
        &sample,
        MAX_NODES,
        |w, weights| {
            let limit = limit_of(side, w, &orbit, finish, start);
            let pruned = weights
                .iter()
                .filter(|&&x| rules_out(side, i64::from(x), limit))
                .count();
            if best.as_ref().is_none_or(|b| pruned > b.0) {
                best = Some((pruned, w.to_vec()));
            }
        },
    );
    let (pruned, w) = best?;
    if pruned * 64 < sample.len() {
        return None;
    }
    let weights: Vec<i64> = (0..n).map(|h| w[orbit[h]]).collect();
    Some(found(side, weights, finish, start, pruned))
}

/// The weight of the pegs of position `p` with hole weights `weights`.
fn weight_of(weights: &[i64], p: u64) -> i64 {
    (0..weights.len())
        .filter(|&h| p >> h & 1 == 1)
        .map(|h| weights[h])
        .sum()
}

/// The test of the pagoda with hole weights `weights` for `side`, as [`Found`] holds it.
fn found(side: Side, weights: Vec<i64>, finish: &[usize], start: u64, pruned: usize) -> Found {
    match side {
        Side::Forward => Found {
            limit: finish.iter().map(|&h| weights[h]).min().unwrap_or(0),
            weights,
            pruned,
        },
        Side::Backward => {
            let at_start = weight_of(&weights, start);
            Found {
                weights: weights.iter().map(|&x| -x).collect(),
                limit: -at_start,
                pruned,
            }
        }
    }
}

/// The orbits of `group` on `n` holes: each hole's orbit, and how many orbits.
fn orbits(n: usize, group: &[Symmetry]) -> (Vec<usize>, usize) {
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
    (orbit, norbits)
}

/// The limit of the pagoda with orbit weights `w` for `side`: forward, the weight of the lightest finish
/// hole; backward, the weight of the start.
fn limit_of(side: Side, w: &[i64], orbit: &[usize], finish: &[usize], start: u64) -> i64 {
    match side {
        Side::Forward => finish.iter().map(|&h| w[orbit[h]]).min().unwrap_or(0),
        Side::Backward => (0..orbit.len())
            .filter(|&h| start >> h & 1 == 1)
            .map(|h| w[orbit[h]])
            .sum(),
    }
}

/// Whether a position of weight `x` is ruled out by a pagoda of limit `limit` on `side`.
fn rules_out(side: Side, x: i64, limit: i64) -> bool {
    match side {
        Side::Forward => x < limit,
        Side::Backward => x > limit,
    }
}

/// Every pagoda with weights in `-range..=range` (`range` at most 3) constant on the orbits `orbit`
/// (`norbits` of them), depth first over the orbits' weights, at most `max_nodes` nodes: `visit` gets its
/// weights by orbit and the weights of the positions of `sample`.
fn each_pagoda(
    board: &Board,
    orbit: &[usize],
    norbits: usize,
    range: i64,
    sample: &[u64],
    max_nodes: usize,
    mut visit: impl FnMut(&[i64], &[i16]),
) {
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
    // `by_orbit[o][i]`: the pegs of sample position `i` on orbit `o`.
    let by_orbit: Vec<Vec<i16>> = (0..norbits)
        .map(|o| {
            sample
                .iter()
                .map(|&p| {
                    (0..orbit.len())
                        .filter(|&h| orbit[h] == o && p >> h & 1 == 1)
                        .count() as i16
                })
                .collect()
        })
        .collect();
    let mut w = vec![0i64; norbits];
    let mut nodes = 0usize;
    let mut stack = vec![(0usize, -range - 1)];
    // `partial[o + 1][i]`: the weight of sample position `i` on the orbits up to `o`, with the weights given.
    // (At most 64 holes and weights at most 3 in size: the sums fit in 16 bits.)
    let mut partial = vec![vec![0i16; sample.len()]; norbits + 1];
    while let Some(&mut (o, ref mut v)) = stack.last_mut() {
        *v += 1;
        if *v > range {
            stack.pop();
            continue;
        }
        nodes += 1;
        if nodes > max_nodes {
            break;
        }
        w[o] = *v;
        if !checks[o].iter().all(|&(a, b, c)| w[a] + w[b] - w[c] >= 0) {
            continue;
        }
        let (done, rest) = partial.split_at_mut(o + 1);
        let wo = w[o] as i16;
        for ((p, &q), &c) in rest[0].iter_mut().zip(&done[o]).zip(&by_orbit[o]) {
            *p = q + c * wo;
        }
        if o + 1 < norbits {
            stack.push((o + 1, -range - 1));
            continue;
        }
        visit(&w, &partial[norbits]);
    }
}

/// Positions of the sample the further pagodas of [`search_more`] are scored on.
const MORE_SCORED: usize = 128;

/// Nodes of the search over one family of [`search_more`].
const MORE_NODES: usize = 1_000_000;

/// Most orbits of a family of [`search_more`] (the English board's subgroups of half its symmetries have 9 to
/// 12).
const MORE_ORBITS: usize = 14;

/// Candidates per family of [`search_more`] kept for the greedy choice: those that rule out the most.
const MORE_KEPT: usize = 64;

/// Weights of the further pagodas of [`search_more`]: `-2..=2`.
const MORE_RANGE: i64 = 2;

/// Further pagoda tests for `side` (`finish` holes and `start` as for [`search`]), found greedily after
/// `first` (tests as [`search`] gives them): each time the pagoda that rules out the most positions of `sample`
/// that the tests so far keep. The candidates come in families, one per subgroup of half the board's
/// symmetries (with at most [`MORE_ORBITS`] orbits): the pagodas with weights in `-2..=2` that are the same on
/// each of its orbits. A candidate stands for its images under `group` (the symmetries of the walks), each a
/// test, so that the tests together give a class the same answer whichever of its positions is tested; each
/// image is a pagoda with its own limit, so each test is sound on its own. At most `max` tests in all (with
/// `first`); none is added once the best would rule out fewer than one position in 64 of the sample.
pub(crate) fn search_more(
    board: &Board,
    group: &[Symmetry],
    side: Side,
    (finish, start): (&[usize], u64),
    sample: &[u64],
    first: &[Found],
    max: usize,
) -> Vec<Found> {
    let n = board.holes();
    // The sample positions the first tests keep.
    let kept: Vec<u64> = sample
        .iter()
        .copied()
        .filter(|&p| first.iter().all(|t| weight_of(&t.weights, p) >= t.limit))
        .collect();
    let step = (kept.len() / MORE_SCORED).max(1);
    let kept: Vec<u64> = kept.into_iter().step_by(step).take(MORE_SCORED).collect();
    if kept.len() < 64 {
        return Vec::new();
    }
    // The families: per subgroup of half the board's symmetries, its orbits and one symmetry of `group` per
    // image of its pagodas (those with too many orbits to search are left out).
    let families: Vec<(Vec<usize>, usize, Vec<&Symmetry>)> = half_subgroups(board.symmetries())
        .into_iter()
        .filter(|sub| orbits(n, sub).1 <= MORE_ORBITS)
        .map(|sub| {
            let (orbit, norbits) = orbits(n, &sub);
            let mut images: Vec<(Vec<usize>, &Symmetry)> = Vec::new();
            for g in group {
                let o: Vec<usize> = (0..n).map(|h| orbit[g.map_hole(h)]).collect();
                if !images.iter().any(|(x, _)| *x == o) {
                    images.push((o, g));
                }
            }
            (orbit, norbits, images.into_iter().map(|(_, g)| g).collect())
        })
        .collect();
    let words = kept.len().div_ceil(64);
    // Per family, the candidates that rule out enough of the sample: orbit weights and the positions ruled
    // out by one of their images (a bit set). The weight of position `p` under the image `w(g(h))` of the
    // pagoda `w` is the weight of `g(p)` under `w`: each family scores the images of the sample.
    let candidates: Vec<(usize, Vec<i64>, Vec<u64>)> = families
        .par_iter()
        .enumerate()
        .flat_map_iter(|(f, (orbit, norbits, images))| {
            let moved: Vec<u64> = images
                .iter()
                .flat_map(|g| kept.iter().map(|&p| apply(g, p)))
                .collect();
            // The `MORE_KEPT` candidates that rule out the most positions (any image), then their bit sets.
            let mut top: Vec<(usize, Vec<i64>)> = Vec::new();
            let mut floor = kept.len().div_ceil(64);
            let mut scratch = vec![0u8; kept.len()];
            each_pagoda(
                board,
                orbit,
                *norbits,
                MORE_RANGE,
                &moved,
                MORE_NODES,
                |w, weights| {
                    let limit = limit_of(side, w, orbit, finish, start);
                    let count = ruled_out(side, weights, limit, &mut scratch);
                    if count >= floor {
                        top.push((count, w.to_vec()));
                        if top.len() >= 2 * MORE_KEPT {
                            top.sort_by_key(|t| std::cmp::Reverse(t.0));
                            top.truncate(MORE_KEPT);
                            floor = floor.max(top[MORE_KEPT - 1].0);
                        }
                    }
                },
            );
            top.sort_by_key(|t| std::cmp::Reverse(t.0));
            top.truncate(MORE_KEPT);
            top.into_iter()
                .map(|(_, w)| {
                    let limit = limit_of(side, &w, orbit, finish, start);
                    let by_hole: Vec<i64> = orbit.iter().map(|&o| w[o]).collect();
                    let weights: Vec<i16> = moved
                        .iter()
                        .map(|&p| weight_of(&by_hole, p) as i16)
                        .collect();
                    let mut bits = vec![0u64; words];
                    ruled_out(side, &weights, limit, &mut scratch);
                    for (j, &r) in scratch.iter().enumerate() {
                        bits[j / 64] |= u64::from(r) << (j % 64);
                    }
                    (f, w, bits)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut tests = Vec::new();
    let mut covered = vec![0u64; words];
    let mut room = max.saturating_sub(first.len());
    loop {
        let best = candidates
            .iter()
            .filter(|(f, _, _)| families[*f].2.len() <= room)
            .map(|c| {
                let gain: u32 =
                    c.2.iter()
                        .zip(&covered)
                        .map(|(a, b)| (a & !b).count_ones())
                        .sum();
                (gain, c)
            })
            .max_by_key(|(gain, _)| *gain);
        let Some((gain, (f, w, bits))) = best else {
            break;
        };
        if (gain as usize) * 64 < kept.len() {
            break;
        }
        for (c, b) in covered.iter_mut().zip(bits) {
            *c |= b;
        }
        let (orbit, _, images) = &families[*f];
        for g in images {
            let weights: Vec<i64> = (0..n).map(|h| w[orbit[g.map_hole(h)]]).collect();
            let t = found(side, weights, finish, start, gain as usize);
            // Images of a pagoda whose weights happen to be the same are one test.
            if !tests
                .iter()
                .chain(first)
                .any(|u: &Found| u.weights == t.weights)
            {
                tests.push(t);
                room -= 1;
            }
        }
    }
    tests
}

/// Per position of a sample of `out.len()` (whose images follow each other in `weights`, as many each),
/// whether a pagoda of limit `limit` on `side` rules out one of its images: into `out` (1 or 0); the number
/// ruled out.
fn ruled_out(side: Side, weights: &[i16], limit: i64, out: &mut [u8]) -> usize {
    // Forward: ruled out below the limit; backward: above it (the same test on the weights negated).
    let (sign, limit) = match side {
        Side::Forward => (1i16, limit),
        Side::Backward => (-1i16, -limit),
    };
    let limit = limit.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
    out.fill(0);
    for image in weights.chunks_exact(out.len()) {
        for (o, &x) in out.iter_mut().zip(image) {
            *o |= u8::from(x * sign < limit);
        }
    }
    out.iter().map(|&o| usize::from(o)).sum()
}

/// The image of position `p` under `g`.
fn apply(g: &Symmetry, p: u64) -> u64 {
    g.apply(crate::position::Position::from_bits(p)).bits()
}

/// The subgroups of `group` of half its size that two of its symmetries generate (for the groups of the
/// built-in boards, all of them).
fn half_subgroups(group: &[Symmetry]) -> Vec<Vec<Symmetry>> {
    let mut out: Vec<Vec<Symmetry>> = Vec::new();
    if !group.len().is_multiple_of(2) {
        return out;
    }
    for a in group {
        for b in group {
            let mut sub: Vec<Symmetry> = vec![a.compose(&a.inverse())];
            let mut i = 0;
            // The closure of {a, b} under composition.
            while i < sub.len() && sub.len() <= group.len() / 2 {
                for g in [a, b] {
                    let x = sub[i].compose(g);
                    if !sub.contains(&x) {
                        sub.push(x);
                    }
                }
                i += 1;
            }
            if sub.len() == group.len() / 2 {
                sub.sort_by(|x, y| x.perm().cmp(y.perm()));
                if !out.contains(&sub) {
                    out.push(sub);
                }
            }
        }
    }
    out
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

    /// The further pagodas found for the English board to the centre and from c3 to c3: each is a pagoda
    /// (with its weights as the tests carry them: forward, the weights themselves; backward, negated) whose
    /// limit is the finish's
    /// (forward) or the start's (backward) weight; together with the first they are closed under the group
    /// (so a class gets the same answer whichever position is tested); they fit in one `Prune`; and together
    /// they rule out more than a tenth of the sample positions the first keeps.
    #[test]
    fn more_pagodas_are_sound_closed_and_useful() {
        let b = Board::english();
        let n = b.holes();
        // The centre to itself (all eight symmetries), and c3 to itself (only the diagonal reflection fixes
        // it: the families come from the board's symmetries, the images from the problem's).
        for (hole, side) in [
            ("d4", Side::Forward),
            ("d4", Side::Backward),
            ("c3", Side::Forward),
        ] {
            let end = b.parse_hole(hole).unwrap();
            let start = b.full().bits() ^ 1u64 << end;
            let group = b.stabilizer(Position::EMPTY.with_peg(end));
            // Positions of random games half way (taken back from the finish for the backward side).
            let sample: Vec<u64> = {
                let mut x = 0x2545_F491_4F6C_DD1Du64;
                (0..1024)
                    .map(|_| {
                        let mut pos = if side == Side::Forward {
                            start
                        } else {
                            1u64 << end
                        };
                        while pos.count_ones() != 16 {
                            let legal: Vec<_> = b
                                .moves()
                                .iter()
                                .filter(|m| {
                                    let (f, o, t) = (m.from(), m.over(), m.to());
                                    let (full, empty) = if side == Side::Forward {
                                        ((1u64 << f) | (1u64 << o), 1u64 << t)
                                    } else {
                                        (1u64 << t, (1u64 << f) | (1u64 << o))
                                    };
                                    pos & full == full && pos & empty == 0
                                })
                                .collect();
                            if legal.is_empty() {
                                break;
                            }
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            let m = legal[(x % legal.len() as u64) as usize];
                            pos ^= (1u64 << m.from()) | (1u64 << m.over()) | (1u64 << m.to());
                        }
                        pos
                    })
                    .collect()
            };
            // As `crate::finishable` does: orbits of the whole board when the group's are too many.
            let first = search(&b, &group, side, &[end], start, &sample)
                .or_else(|| search(&b, b.symmetries(), side, &[end], start, &sample))
                .unwrap();
            let more = search_more(
                &b,
                &group,
                side,
                (&[end], start),
                &sample,
                std::slice::from_ref(&first),
                8,
            );
            assert!(
                more.len() >= 2 && more.len() < 8,
                "{side:?}: {} tests",
                more.len()
            );
            let all: Vec<&Found> = std::iter::once(&first).chain(&more).collect();
            let mut kept: Vec<u64> = sample
                .iter()
                .copied()
                .filter(|&p| weight_of(&first.weights, p) >= first.limit)
                .collect();
            for t in &more {
                // A pagoda: no jump adds weight (forward), or none takes weight away (backward, negated).
                let sign = if side == Side::Forward { 1 } else { -1 };
                for m in b.moves() {
                    assert!(
                        sign * (t.weights[m.from()] + t.weights[m.over()] - t.weights[m.to()]) >= 0
                    );
                }
                let limit = match side {
                    Side::Forward => t.weights[end],
                    Side::Backward => weight_of(&t.weights, start),
                };
                assert_eq!(t.limit, limit);
                for g in &group {
                    let image: Vec<i64> = (0..n).map(|h| t.weights[g.map_hole(h)]).collect();
                    assert!(
                        all.iter().any(|u| u.weights == image),
                        "{side:?}: an image is missing"
                    );
                }
                kept.retain(|&p| weight_of(&t.weights, p) >= t.limit);
            }
            // The tests after the first rule out some of what the first keeps.
            let kept_by_first = sample
                .iter()
                .filter(|&&p| weight_of(&first.weights, p) >= first.limit)
                .count();
            assert!(
                kept.len() * 10 < kept_by_first * 9,
                "{side:?}: {} of {kept_by_first}",
                kept.len()
            );
        }
    }
}
