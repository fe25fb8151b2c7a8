//! Single chains: X-cycles and Y-cycles, X-chains, mixed cycles and forcing chains (a candidate whose assumption
//! leads to its own negation), the best of them found by [`unary`].

use crate::logic::Finder;
use crate::logic::step::{Candidate, Rating, Technique, TechniqueSet};
use crate::logic::tables::{CellSet, Cells, PEERS, bit, digit_bit};

use super::bfs::{Bfs, Buffers, path_avoiding, sets_mut};
use super::graph::{BITS, Graph, Links, NODES, Net, Node, Set, Word, X, XY, Y, has};
use super::length::{chain_rating, longest_useful};

/// The best single chain found: rating, complexity, technique, start node, links, and for a loop its nodes.
pub(super) struct Unary {
    pub(super) rating: Rating,
    pub(super) complexity: usize,
    pub(super) technique: Technique,
    pub(super) start: Node,
    pub(super) links: Links,
    /// For a loop: the nodes (from the start, not repeating it) and the eliminations.
    pub(super) cycle: Option<Cycle>,
}

/// A loop's nodes (from the start, not repeating it) and its eliminations.
type Cycle = (Vec<Node>, Vec<Candidate>);

/// The loop through `start` closing at the shortest distance, with its eliminations: a candidate outside the
/// loop's cells that sees an "on" node and an "off" node of its digit is false whichever way round the loop holds.
fn cycle_nodes(g: &Graph, start: Node, links: Links, queue: &mut Vec<(u16, u16)>) -> Option<Cycle> {
    let s = g.s;
    let (sc, sd) = (start.cell(), start.digit());
    // The "off" nodes that turn the start back on.
    let mut closers: Vec<Node> = Vec::new();
    if links.x {
        for p in Cells(g.strong(sd, sc)) {
            closers.push(Node::new(p, sd, false));
        }
    }
    if links.y {
        let m = s.candidates(sc);
        if crate::logic::basic::pop9(m) == 2 {
            closers.push(Node::new(
                sc,
                (m & !digit_bit(sd)).trailing_zeros() as u8 + 1,
                false,
            ));
        }
    }
    let mut best: Option<Vec<Node>> = None;
    for &n in &closers {
        let p = path_avoiding(g, start, n, links, &closers, queue);
        if p.len() >= 4 && p.last() == Some(&n) && best.as_ref().is_none_or(|b| p.len() < b.len()) {
            best = Some(p);
        }
    }
    let nodes = best?;
    let mut cells: CellSet = 0;
    let mut seen_on = [0u128; 9];
    let mut seen_off = [0u128; 9];
    for n in &nodes {
        cells |= bit(n.cell());
        let d = usize::from(n.digit() - 1);
        if n.on {
            seen_on[d] |= PEERS[n.cell()];
        } else {
            seen_off[d] |= PEERS[n.cell()];
        }
    }
    let mut elim = Vec::new();
    for d in 0..9 {
        for c in Cells(s.positions(d as u8 + 1) & seen_on[d] & seen_off[d] & !cells) {
            elim.push(Candidate::new(c, d as u8 + 1));
        }
    }
    if elim.is_empty() {
        None
    } else {
        Some((nodes, elim))
    }
}

/// Whether a shortest loop of `k` nodes through bivalue cells from `start` ("on") might eliminate something: `false`
/// only when no such loop can. A loop of four nodes is two cells holding the same pair in a house, of six nodes a
/// triangle of bivalue cells {a,b}, {a,x}, {x,b} seeing each other; a loop eliminates the digit of each link from
/// the cells (outside the loop) that see both ends of the link. Longer loops are not looked at (`true`).
fn y_loop_may_eliminate(g: &Graph, start: Node, k: usize) -> bool {
    let s = g.s;
    let (c1, a) = (start.cell(), start.digit());
    let pair = s.candidates(c1);
    let b = (pair & !digit_bit(a)).trailing_zeros() as u8 + 1;
    let common = |p: usize, q: usize| PEERS[p] & PEERS[q];
    match k {
        4 => Cells(g.bivalue & PEERS[c1])
            .filter(|&c2| s.candidates(c2) == pair)
            .any(|c2| (s.positions(a) | s.positions(b)) & common(c1, c2) != 0),
        6 => Cells(g.bivalue & PEERS[c1] & s.positions(a)).any(|c2| {
            let m2 = s.candidates(c2);
            let x = (m2 & !digit_bit(a)).trailing_zeros() as u8 + 1;
            if x == b {
                return true;
            }
            Cells(g.bivalue & PEERS[c1] & PEERS[c2])
                .filter(|&c3| s.candidates(c3) == digit_bit(x) | digit_bit(b))
                .any(|c3| {
                    let cells = bit(c1) | bit(c2) | bit(c3);
                    (s.positions(a) & common(c1, c2)
                        | s.positions(x) & common(c2, c3)
                        | s.positions(b) & common(c3, c1))
                        & !cells
                        != 0
                })
        }),
        _ => true,
    }
}

/// The shortest loop of at most `kmax` nodes through a start ("on") of `starts` (in node order), following
/// `links`, whose loop has eliminations: (length, start, loop). Among loops of the same length, the first start
/// wins; a start whose shortest loop eliminates nothing is not taken further. The search runs through `nodes`
/// (which hold every node that has a partner, the only ones a loop can pass through). The loops shorter than
/// `min_k` are known to eliminate nothing (see [`unary`]).
#[allow(clippy::too_many_arguments)] // one search's parameters
fn shortest_loop<const W: usize>(
    g: &Graph,
    net: &Net,
    links: Links,
    starts: &[u16],
    nodes: &[u16],
    kmax: usize,
    min_k: usize,
    queue: &mut Vec<(u16, u16)>,
    buf: &mut Buffers,
) -> Option<(usize, Node, Cycle)> {
    // Loops have an even number of nodes (they close at an "on" level).
    let min_k = min_k.saturating_add(1) & !1;
    if min_k > kmax {
        return None;
    }
    let mut left = starts.len();
    let mut bfs = Bfs::<W>::new(
        net.adjacency(links),
        net.len(),
        buf,
        starts,
        true,
        nodes,
        nodes,
        false,
    );
    let mut done = [0 as Word; NODES.div_ceil(BITS)];
    let mut looped = Vec::new();
    // A loop back to the start at level L (odd: an "on" level) has L - 1 nodes; the last level worth computing is
    // the last odd one up to kmax + 1.
    let last = if (kmax + 1) % 2 == 1 { kmax + 1 } else { kmax };
    while bfs.level < last && left > 0 {
        looped.clear();
        let any = bfs.step(Some(&mut looped));
        for &v in &looped {
            let v = usize::from(v);
            if done[v / BITS] >> (v % BITS) & 1 != 0 {
                continue;
            }
            done[v / BITS] |= 1 << (v % BITS);
            left -= 1;
            let start = net.node(v, true);
            if bfs.level - 1 < min_k
                || (links == Y && !y_loop_may_eliminate(g, start, bfs.level - 1))
            {
                continue;
            }
            if let Some(cycle) = cycle_nodes(g, start, links, queue) {
                // The loop rebuilt is a shortest one, as the search's.
                debug_assert_eq!(cycle.0.len(), bfs.level - 1);
                return Some((bfs.level - 1, start, cycle));
            }
        }
        if !any {
            break;
        }
    }
    None
}

/// The shortest chain following `links` of at most `kmax` nodes from `starts` (every node of some digits):
/// (length, start). A start "on" that reaches its own "off" (at its level), or a start "off" one of whose
/// partners, assumed "on", reaches it "on" (one more than that level). Among chains of the same length, the first
/// start wins (node order, "on" first). `live` holds the starts with a partner. Also returns a bound: every chain
/// from a start "on" (to its own "off") has at least that many nodes (`usize::MAX` when there is none).
///
/// One search from every start assumed "on" finds both kinds: a start "off" turns on its partners and nothing
/// else, so what it reaches after that is what its partners reach, one level later.
fn shortest_chain<const W: usize>(
    net: &Net,
    links: Links,
    starts: &[u16],
    live: &[u16],
    kmax: usize,
    buf: &mut Buffers,
) -> (Option<(usize, Node)>, usize) {
    let n = net.len();
    let adj = net.adjacency(links);
    // The "off" of a node without a partner leads nowhere: the search leaves them out, and finds when such a start
    // reaches its own "off" from the "on" of its weak neighbours. Only nodes with a partner are ever reached "on"
    // (but for the starts): for each of them, the nodes without a partner it turns off.
    let mut dead_of = std::mem::take(&mut buf.dead_of);
    dead_of.clear();
    dead_of.resize(n * W, 0);
    let dead = sets_mut::<W>(&mut dead_of, n);
    let mut is_live = [0 as Word; NODES.div_ceil(BITS)];
    for &v in live {
        is_live[usize::from(v) / BITS] |= 1 << (usize::from(v) % BITS);
    }
    // Without branches (which would mispredict): every start marks its weak neighbours, with no bit when it has a
    // partner; nodes without a partner have no "on" to look at.
    for &v in starts {
        let v = usize::from(v);
        let b = (!is_live[v / BITS] >> (v % BITS) & 1) << (v % BITS);
        let w = (v / BITS) % W;
        let weak = if links.y { net.weak(v) } else { net.peers(v) };
        for &u in weak {
            dead[usize::from(u)][w] |= b;
        }
    }
    let dead: &[Set<W>] = dead;
    let mut bfs = Bfs::<W>::new(adj, n, buf, starts, true, live, live, false);
    let mut kmax = kmax;
    let mut best: Option<(usize, usize)> = None;
    // The shortest chain seen from a start "on", better than the best or not.
    let mut on_min = usize::MAX;
    let mut exhausted = false;
    let mut consider = |k: usize, idx: usize, kmax: &mut usize| {
        if idx.is_multiple_of(2) {
            on_min = on_min.min(k);
        }
        if best.is_none_or(|b| (k, idx) < b) {
            best = Some((k, idx));
            *kmax = (*kmax).min(k);
        }
    };
    while bfs.level < kmax {
        let any = bfs.step(None);
        let l = bfs.level;
        if !bfs.on_level() {
            let off = bfs.front_of(false);
            for &v in live {
                let v = usize::from(v);
                if has(&off[v % Bfs::<W>::CAP], v) {
                    consider(l, 2 * v, &mut kmax);
                }
            }
        } else if l < kmax {
            let front = bfs.front();
            for &v in live {
                let v = usize::from(v);
                let f = &front[v % Bfs::<W>::CAP];
                if adj.partner_in(v, f) {
                    consider(l + 1, 2 * v + 1, &mut kmax);
                }
                // The starts without a partner this node turns off, reaching their own "off" at the next level.
                for w in 0..W {
                    let mut m = f[w] & dead[v][w];
                    while m != 0 {
                        let start = w * BITS + m.trailing_zeros() as usize;
                        m &= m - 1;
                        consider(l + 1, 2 * start, &mut kmax);
                    }
                }
            }
        }
        if !any {
            exhausted = true;
            break;
        }
    }
    // Every chain from a start "on" up to the last level was seen (its last step at an "off" level, or, from a
    // start without a partner, at the "on" level before); after a level that reached nothing new, every chain.
    let on_bound = if exhausted {
        on_min
    } else {
        on_min.min(bfs.level + 1)
    };
    buf.dead_of = dead_of;
    (
        best.map(|(k, idx)| (k, net.node(idx / 2, idx % 2 == 0))),
        on_bound,
    )
}

/// The nodes of `list` whose digit is in `digits`: the list itself when that is every digit, else `out` filled
/// with them.
fn of_digits<'a>(net: &Net, list: &'a [u16], digits: u16, out: &'a mut Vec<u16>) -> &'a [u16] {
    if digits == 0x1ff {
        list
    } else {
        out.clear();
        out.extend(
            list.iter()
                .copied()
                .filter(|&v| digits & digit_bit(net.digit(usize::from(v))) != 0),
        );
        out
    }
}

/// Loops and forcing chains, easiest first: X-cycles and Y-cycles (6.5), X-chains (6.6), mixed cycles and
/// forcing chains (7.0), each plus its length bonus. The best is the lowest rated, then the shortest, then the
/// first found (technique in this order, then start in node order).
pub(super) fn unary(
    g: &Graph,
    net: &Net,
    max: Rating,
    allowed: TechniqueSet,
    finder: &mut Finder,
    queue: &mut Vec<(u16, u16)>,
) -> Option<Unary> {
    let mut best: Option<Unary> = None;
    let modes = [
        (Technique::XCycle, X, true),
        (Technique::YCycle, Y, true),
        (Technique::XChain, X, false),
        (Technique::ForcingChain, XY, false),
        (Technique::MixedCycle, XY, true),
    ];
    let n = net.len();
    // X-chains come first: an X-cycle that eliminates a candidate makes an X-chain from that candidate (assumed
    // "on", it turns off the loop's node it sees, which turns on the loop's nodes the other way round up to the
    // other node it sees, which turns it off) of at most two nodes more than the loop. So without X-chains the
    // X-cycles need no search. The search looks as far as it would with nothing found before it; the
    // chains longer than the best found by then are dropped.
    let x_chains = {
        let t = Technique::XChain;
        let kmax = longest_useful(t.base_rating(), max, None);
        (allowed.contains(t) && t.base_rating() <= max && kmax > 0).then(|| {
            let slot = t as usize;
            // One digit at a time: a digit whose places did not change since a search in vain up to at least
            // this length has none.
            let digits = if kmax <= finder.clean_upto[slot] {
                finder.scope(slot).digits
            } else {
                0x1ff
            };
            let [mut a, mut b] = std::mem::take(&mut finder.buffers.digit_nodes);
            let (nodes, live) = (
                of_digits(net, net.all(), digits, &mut a),
                of_digits(net, net.live_nodes(X), digits, &mut b),
            );
            let (found, _) = by_width!(
                n,
                shortest_chain(net, X, nodes, live, kmax, &mut finder.buffers)
            );
            finder.buffers.digit_nodes = [a, b];
            finder.searched(slot, found.is_some());
            finder.clean_upto[slot] = if found.is_some() { 0 } else { kmax };
            (kmax, found)
        })
    };
    // Then, unless an X-chain is found (which often makes them useless), the forcing chains, as far as they would
    // look with nothing found before them. A cycle (Y or mixed) that eliminates a candidate makes a forcing chain
    // from that candidate assumed "on" of at most two nodes more than the cycle (as for X-cycles above), so the
    // cycles shorter than the shortest such chain less two eliminate nothing and need no look.
    let forcing = {
        let t = Technique::ForcingChain;
        // Forcing chains have an even number of nodes.
        let kmax = longest_useful(t.base_rating(), max, None) & !1;
        (allowed.contains(t)
            && t.base_rating() <= max
            && kmax > 0
            && x_chains.is_none_or(|(_, found)| found.is_none()))
        .then(|| {
            let (all, live) = (net.all(), net.live_nodes(XY));
            by_width!(
                n,
                shortest_chain(net, XY, all, live, kmax, &mut finder.buffers)
            )
        })
    };
    // The shortest cycle worth rebuilding, from the forcing chains searched so far.
    let mut min_cycle = forcing.map_or(0, |(_, on_bound)| on_bound.saturating_sub(2));
    for (t, links, is_loop) in modes {
        let base = t.base_rating();
        if !allowed.contains(t) || base > max {
            continue;
        }
        if best.as_ref().is_some_and(|b| b.rating <= base) {
            continue;
        }
        let kmax = longest_useful(base, max, best.as_ref().map(|b| (b.rating, b.complexity)));
        if kmax == 0 {
            continue;
        }
        let found = if links == X && !is_loop {
            // Searched first (below); the chains longer than this search allows are no better than the best.
            x_chains
                .and_then(|(_, found)| found)
                .filter(|&(k, _)| k <= kmax)
                .map(|(k, start)| (k, start, None))
        } else if links == X {
            let slot = t as usize;
            if x_chains
                .is_some_and(|(upto, found)| found.is_none() && upto >= (kmax + 2).min(X_CHAIN_MAX))
            {
                // No X-chain, hence no X-cycle that eliminates anything.
                finder.searched(slot, false);
                finder.clean_upto[slot] = kmax;
                None
            } else {
                // One digit at a time: a digit whose places did not change since a search in vain up to at least
                // this length has none.
                let digits = if kmax <= finder.clean_upto[slot] {
                    finder.scope(slot).digits
                } else {
                    0x1ff
                };
                let [mut a, b] = std::mem::take(&mut finder.buffers.digit_nodes);
                let live = of_digits(net, net.live_nodes(links), digits, &mut a);
                let found = by_width!(
                    n,
                    shortest_loop(
                        g,
                        net,
                        links,
                        live,
                        live,
                        kmax,
                        0,
                        queue,
                        &mut finder.buffers
                    )
                )
                .map(|(k, start, cycle)| (k, start, Some(cycle)));
                finder.buffers.digit_nodes = [a, b];
                if found.is_some() {
                    finder.searched(slot, true);
                    finder.clean_upto[slot] = 0;
                } else {
                    finder.searched(slot, false);
                    finder.clean_upto[slot] = kmax;
                }
                found
            }
        } else if links == Y {
            // Y-cycles stay in bivalue cells: with the same bivalue cells (hence the same two digits in each) as
            // at a search in vain up to at least this length, the loops are the same and their eliminations
            // can only be fewer.
            if finder
                .y_cycles_in_vain
                .is_some_and(|(cells, upto)| cells == g.bivalue && kmax <= upto)
            {
                None
            } else {
                let live = net.live_nodes(links);
                let found = by_width!(
                    n,
                    shortest_loop(
                        g,
                        net,
                        links,
                        live,
                        live,
                        kmax,
                        min_cycle,
                        queue,
                        &mut finder.buffers
                    )
                )
                .map(|(k, start, cycle)| (k, start, Some(cycle)));
                finder.y_cycles_in_vain = found.is_none().then_some((g.bivalue, kmax));
                found
            }
        } else if is_loop {
            // Mixed cycles pass only through nodes with a partner.
            let live = net.live_nodes(links);
            by_width!(
                n,
                shortest_loop(
                    g,
                    net,
                    links,
                    live,
                    live,
                    kmax,
                    min_cycle,
                    queue,
                    &mut finder.buffers
                )
            )
            .map(|(k, start, cycle)| (k, start, Some(cycle)))
        } else if let Some((found, _)) = forcing {
            // Searched first (above); the chains longer than this search allows are no better than the best.
            found
                .filter(|&(k, _)| k <= kmax)
                .map(|(k, start)| (k, start, None))
        } else {
            // Forcing chains have an even number of nodes.
            let (all, live) = (net.all(), net.live_nodes(XY));
            let (found, on_bound) = by_width!(
                n,
                shortest_chain(net, XY, all, live, kmax & !1, &mut finder.buffers)
            );
            min_cycle = on_bound.saturating_sub(2);
            found.map(|(k, start)| (k, start, None))
        };
        if let Some((k, start, cycle)) = found {
            best = Some(Unary {
                rating: chain_rating(base, k),
                complexity: k,
                technique: t,
                start,
                links,
                cycle,
            });
        }
    }
    best
}

/// A chain length no X-chain reaches: a shortest one passes each of its digit's places at most once "on" and once
/// "off".
const X_CHAIN_MAX: usize = 2 * 81;
