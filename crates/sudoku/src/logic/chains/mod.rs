//! Chains: forcing chains (a candidate whose assumption leads to its own negation) and multiple forcing chains
//! (all candidates of a cell, or all places of a digit in a house, leading to the same conclusion).
//!
//! The implications are Sudoku Explainer's static ones. A candidate "on" turns off the other candidates of its
//! cell and the same digit in its peers; a candidate "off" turns on the other candidate of a bivalue cell and the
//! other place of a digit that has two places left in a house. Links within a cell are "Y" links; a chain without
//! them stays on one digit (an X-chain, SE 6.6) and is rated below mixed chains (7.0). A chain's rating grows with
//! its number of nodes as in SE: 0.1 more each time the length passes 4, 6, 8, 12, 16, 24, 32, ...
//!
//! Every search is a breadth-first search over the candidates in both polarities, so the chains found are the
//! shortest ones. The searches of one kind run from all their starts at once ([`Bfs`](bfs::Bfs)): each candidate and
//! polarity holds the set of starts that reach it (one bit per start), and a level is computed for every start
//! together; they stop at the shortest length that can still beat the best chain found so far. Among chains of the
//! same rating and length the first start (cell order, then digit, "on" before "off") wins, as a search from one
//! start after the other would find. X-cycles and X-chains stay on one digit, so a digit whose places did not
//! change since a search in vain is not searched again; Y-cycles are remembered while the bivalue cells stay the
//! same.
//!
//! The parts: `graph` (the candidates as numbered nodes and their links), `bfs` (the searches from many starts
//! at once, and the path of one chain), `length` (SE's rating of a chain by its length), `unary` (cycles and
//! single forcing chains), `multiple` (cell and region forcing chains); this module picks the easiest step and
//! writes it out.

// Per-digit and per-house arrays are indexed in parallel; index loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::Finder;
use super::state::Candidates;
use super::step::{Candidate, Rating, Step, Technique, TechniqueSet};
use super::tables::digit_bit;

/// Calls `$f::<W>($args)` with `W` the number of words a set of `$n` nodes needs (a power of two).
macro_rules! by_width {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match $n.div_ceil(super::graph::BITS) {
            0 | 1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 | 4 => $f::<4>($($arg),*),
            5..=8 => $f::<8>($($arg),*),
            _ => $f::<16>($($arg),*),
        }
    };
}

mod bfs;
mod graph;
mod length;
mod multiple;
mod unary;

pub(crate) use bfs::Buffers;
use bfs::path;
pub(crate) use graph::Net;
use graph::{Graph, Node, XY};
pub(crate) use length::length_bonus;
use multiple::multiple;
use unary::{Unary, unary};

/// The easiest chain step rated at most `max`.
/// With `explain`, the step gets its chain (the implications, for explanation and highlighting); without, only what
/// it places or eliminates.
pub(crate) fn find(
    s: &Candidates,
    step: &mut Step,
    max: Rating,
    allowed: TechniqueSet,
    finder: &mut Finder,
) -> bool {
    if Technique::XCycle.base_rating() > max {
        return false;
    }
    let g = Graph::new(s);
    let mut net = std::mem::take(&mut finder.net);
    net.rebuild(&g);
    let mut queue = std::mem::take(&mut finder.buffers.queue);
    let found = find_in(&g, &net, step, max, allowed, finder, &mut queue);
    finder.buffers.queue = queue;
    finder.net = net;
    found
}

/// [`find`] on the network of the state.
fn find_in(
    g: &Graph,
    net: &Net,
    step: &mut Step,
    max: Rating,
    allowed: TechniqueSet,
    finder: &mut Finder,
    queue: &mut Vec<(u16, u16)>,
) -> bool {
    let s = g.s;
    let explain = finder.explain;
    if let Some(u) = unary(g, net, max, allowed, finder, queue) {
        return unary_step(g, step, explain, u, queue);
    }
    if Technique::TUVWXYZWing.base_rating() <= max && allowed.contains(Technique::TUVWXYZWing) {
        let slot = Technique::TUVWXYZWing as usize;
        let changed = finder.scope(slot).cells;
        let found = super::wings::wing(s, step, 6, changed, &mut finder.wings);
        finder.searched(slot, found);
        if found {
            return step.rating <= max;
        }
    }
    if let Some(found) = dynamic(s, step, max, allowed, finder, super::dynamic::Mode::Nishio) {
        return found;
    }
    if multiple_step(g, net, step, max, allowed, finder, queue) {
        return true;
    }
    if let Some(found) = dynamic(s, step, max, allowed, finder, super::dynamic::Mode::Dynamic) {
        return found;
    }
    dynamic(
        s,
        step,
        max,
        allowed,
        finder,
        super::dynamic::Mode::DynamicPlus,
    )
    .unwrap_or(false)
}

/// A Nishio or dynamic forcing chain step, when the technique is allowed and one is found: whether it is rated at
/// most `max`.
fn dynamic(
    s: &Candidates,
    step: &mut Step,
    max: Rating,
    allowed: TechniqueSet,
    finder: &mut Finder,
    mode: super::dynamic::Mode,
) -> Option<bool> {
    let t = match mode {
        super::dynamic::Mode::Nishio => Technique::NishioForcingChain,
        super::dynamic::Mode::Dynamic => Technique::DynamicForcingChains,
        super::dynamic::Mode::DynamicPlus => Technique::DynamicForcingChainsPlus,
    };
    if t.base_rating() > max || !allowed.contains(t) {
        return None;
    }
    super::dynamic::find(s, step, mode, &mut finder.dynamic).then_some(step.rating <= max)
}

/// The step of a forcing chain or cycle found by [`unary()`].
fn unary_step(
    g: &Graph,
    step: &mut Step,
    explain: bool,
    u: Unary,
    queue: &mut Vec<(u16, u16)>,
) -> bool {
    {
        step.start(u.technique);
        step.rating = u.rating;
        let start = u.start;
        if let Some((nodes, elim)) = u.cycle {
            fill_chain(step, &nodes);
            step.chain.push(start.chain_node());
            step.eliminations = elim;
            for n in &nodes {
                if !step.cells.contains(&(n.cell() as u8)) {
                    step.cells.push(n.cell() as u8);
                }
                step.digits |= digit_bit(n.digit());
            }
            return true;
        }
        let target = Node {
            on: !start.on,
            ..start
        };
        if explain {
            let nodes = path(g, start, target, u.links, queue);
            fill_chain(step, &nodes);
        }
        let cand = Candidate::new(start.cell(), start.digit());
        if start.on {
            step.eliminations.push(cand);
        } else {
            step.placements.push(cand);
        }
        step.cells.push(start.cell() as u8);
        step.digits = digit_bit(start.digit());
        true
    }
}

/// A cell or region forcing chains step (static), when one is found.
fn multiple_step(
    g: &Graph,
    net: &Net,
    step: &mut Step,
    max: Rating,
    allowed: TechniqueSet,
    finder: &mut Finder,
    queue: &mut Vec<(u16, u16)>,
) -> bool {
    let s = g.s;
    let explain = finder.explain;
    if let Some((r, _, t, branches, target, house)) =
        multiple(g, net, max, allowed, &mut finder.buffers)
    {
        step.start(t);
        step.rating = r;
        if explain {
            for &b in &branches {
                let nodes = path(g, b, target, XY, queue);
                fill_chain(step, &nodes);
            }
        }
        if t == Technique::CellForcingChains {
            step.cells.push(branches[0].cell() as u8);
            step.digits = s.candidates(branches[0].cell());
        } else {
            step.houses.push(house as u8);
            step.digits = digit_bit(branches[0].digit());
            for b in &branches {
                step.cells.push(b.cell() as u8);
            }
        }
        let cand = Candidate::new(target.cell(), target.digit());
        if target.on {
            step.placements.push(cand);
        } else {
            step.eliminations.push(cand);
        }
        return true;
    }
    false
}

fn fill_chain(step: &mut Step, nodes: &[Node]) {
    for n in nodes {
        step.chain.push(n.chain_node());
        let c = Candidate::new(n.cell(), n.digit());
        if !step.highlights.contains(&c) {
            step.highlights.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_grid_has_no_step_and_no_panic() {
        // Every cell full of candidates: the largest network there is (20 peers for every node).
        let mut step = Step::default();
        let found = crate::logic::find_step(
            &Candidates::new(),
            &mut step,
            Rating(u8::MAX),
            TechniqueSet::ALL,
        );
        assert!(!found);
    }

    #[test]
    fn length_bonus_follows_se_thresholds() {
        // Length = nodes - 2; +0.1 past 4, 6, 8, 12, 16, 24, 32.
        assert_eq!(length_bonus(4), 0);
        assert_eq!(length_bonus(6), 0);
        assert_eq!(length_bonus(7), 1);
        assert_eq!(length_bonus(8), 1);
        assert_eq!(length_bonus(9), 2);
        assert_eq!(length_bonus(10), 2);
        assert_eq!(length_bonus(11), 3);
        assert_eq!(length_bonus(14), 3);
        assert_eq!(length_bonus(15), 4);
        assert_eq!(length_bonus(18), 4);
        assert_eq!(length_bonus(19), 5);
        assert_eq!(length_bonus(26), 5);
        assert_eq!(length_bonus(27), 6);
        assert_eq!(length_bonus(34), 6);
        assert_eq!(length_bonus(35), 7);
    }
}
