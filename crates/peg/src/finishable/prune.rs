//! The pagoda tests that prune the walks of the finishable set, checked against random games.

use crate::board::{Board, Symmetry};
use crate::count::CountError;
use crate::kernel::{Kernel, MAX_TESTS};
use crate::pagoda::Side;
use crate::problem::{Finish, Problem};

/// The walks' kernels with the pagoda tests found for the problem: forward, against positions that cannot
/// finish; backward (unless the backward side is the forward one complemented), against positions that cannot
/// be reached from the start. Each pagoda is scored on a sample of positions halfway between the start and the
/// finish, from random games (forward from the start, or backward from the finish).
pub(super) fn pruned(
    problem: &Problem,
    group: &[Symmetry],
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
) -> Result<(Kernel, Kernel), CountError> {
    let board = problem.board();
    let start = problem.start().bits();
    let (mut f, mut r) = (kf.clone(), kr.clone());
    if holes.is_empty() {
        return Ok((f, r));
    }
    let middle = problem.start().pegs().div_ceil(2);
    // Weights the same on each orbit of `group`; when it has too many orbits for the search (a start that
    // no symmetry but the identity fixes has one per hole), or none of those rules out enough, weights the
    // same on each orbit of all the board's symmetries (which are constant on the orbits of `group` too).
    let search = |side: Side, sample: &[u64]| {
        crate::pagoda::search(board, group, side, holes, start, sample).or_else(|| {
            (group.len() < board.symmetries().len())
                .then(|| {
                    crate::pagoda::search(board, board.symmetries(), side, holes, start, sample)
                })
                .flatten()
        })
    };
    // The best pagoda, then those that rule out the most of what the tests so far keep (see
    // `crate::pagoda::search_more`).
    let tests_with_more = |first: crate::pagoda::Found, side: Side, sample: &[u64]| {
        let more = crate::pagoda::search_more(
            board,
            group,
            side,
            (holes, start),
            sample,
            std::slice::from_ref(&first),
            MAX_TESTS,
        );
        std::iter::once(first)
            .chain(more)
            .map(|t| (t.weights, t.limit))
            .collect::<Vec<_>>()
    };
    let fwd_sample = random_games(board, &[start], middle, false);
    if let Some(p) = search(Side::Forward, &fwd_sample) {
        f.set_prune(board, &tests_with_more(p, Side::Forward, &fwd_sample));
    }
    let full = board.full().bits();
    let self_dual = matches!(problem.finish(), Finish::Hole(h) if start == full ^ 1u64 << h);
    if !self_dual {
        let finishes: Vec<u64> = holes.iter().map(|&h| 1u64 << h).collect();
        let bwd_sample = random_games(board, &finishes, middle, true);
        if let Some(p) = search(Side::Backward, &bwd_sample) {
            r.set_prune(board, &tests_with_more(p, Side::Backward, &bwd_sample));
        }
    }
    Ok((f, r))
}

/// Games played at random from `starts` (jumps, or jumps taken back with `reverse`) until the position has
/// `pegs` pegs or no jump is left: the positions they end on (a sample for the pagoda search).
fn random_games(board: &Board, starts: &[u64], pegs_at: u32, reverse: bool) -> Vec<u64> {
    const GAMES: u64 = 1024;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // Per move: the holes that must hold pegs and the one that must be empty (jumps taken back: the other way
    // round), and the holes a jump flips.
    let rules: Vec<(u64, u64, u64)> = board
        .moves()
        .iter()
        .map(|m| {
            let (from, over, to) = (1u64 << m.from(), 1u64 << m.over(), 1u64 << m.to());
            let flip = from | over | to;
            if reverse {
                (to, from | over, flip)
            } else {
                (from | over, to, flip)
            }
        })
        .collect();
    let mut legal = Vec::with_capacity(rules.len());
    (0..GAMES)
        .map(|i| {
            let mut pos = starts[(i as usize) % starts.len()];
            loop {
                let pegs = pos.count_ones();
                let done = if reverse {
                    pegs >= pegs_at
                } else {
                    pegs <= pegs_at
                };
                legal.clear();
                legal.extend(
                    rules
                        .iter()
                        .filter(|&&(full, empty, _)| pos & full == full && pos & empty == 0)
                        .map(|r| r.2),
                );
                if done || legal.is_empty() {
                    return pos;
                }
                pos ^= legal[(rand() % legal.len() as u64) as usize];
            }
        })
        .collect()
}
