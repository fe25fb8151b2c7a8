//! Chains: forcing chains (a candidate whose assumption leads to its own negation) and multiple forcing chains
//! (all candidates of a cell, or all places of a digit in a house, leading to the same conclusion).
//!
//! The implications are Sudoku Explainer's static ones. A candidate "on" turns off the other candidates of its
//! cell and the same digit in its peers; a candidate "off" turns on the other candidate of a bivalue cell and the
//! other place of a digit that has two places left in a house. Links within a cell are "Y" links; a chain without
//! them stays on one digit (an X-chain, SE 6.6) and is rated below mixed chains (7.0). A chain's rating grows with
//! its number of nodes as in SE: 0.1 more each time the length passes 4, 6, 8, 12, 16, 24, 32, ...
//!
//! Every search is a breadth-first search over the 729 candidates in both polarities, so the chains found are the
//! shortest ones.

// Per-digit and per-house arrays are indexed in parallel; index loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::state::Candidates;
use super::step::{Candidate, ChainNode, Rating, Step, Technique, TechniqueSet};
use super::tables::{CellSet, Cells, Digits, HOUSE, PEERS, bit, digit_bit};

/// Number of candidates (cell, digit) of a grid.
const NODES: usize = 729;

/// SE's length bonus, in tenths, for a chain (or set of branches) of `complexity` nodes.
pub(crate) fn length_bonus(complexity: usize) -> u8 {
    let length = complexity.saturating_sub(2);
    let mut ceil = 4usize;
    let mut odd = false;
    let mut added = 0u8;
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The implication graph of a state.
struct Graph<'a> {
    s: &'a Candidates,
    /// For each digit (index `d - 1`) and cell, the other place of the digit in each house of the cell that has
    /// exactly two places for it.
    strong: Box<[[CellSet; 81]; 9]>,
    /// Cells with exactly two candidates.
    bivalue: CellSet,
}

/// Whether a set has exactly two members (without a population count, which is slow on baseline x86-64).
#[inline]
fn two(m: u128) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

impl<'a> Graph<'a> {
    fn new(s: &'a Candidates) -> Self {
        let mut strong = Box::new([[0u128; 81]; 9]);
        for d in 1..=9u8 {
            let pos = s.positions(d);
            for &house in &HOUSE {
                let m = pos & house;
                if two(m) {
                    let a = m.trailing_zeros() as usize;
                    let b = (m & (m - 1)).trailing_zeros() as usize;
                    strong[usize::from(d - 1)][a] |= bit(b);
                    strong[usize::from(d - 1)][b] |= bit(a);
                }
            }
        }
        let mut bivalue = 0u128;
        for c in Cells(s.unsolved()) {
            if two(u128::from(s.candidates(c))) {
                bivalue |= bit(c);
            }
        }
        Self { s, strong, bivalue }
    }
}

/// A node: candidate index `cell * 9 + d - 1` and polarity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    cand: u16,
    on: bool,
}

impl Node {
    fn new(cell: usize, d: u8, on: bool) -> Self {
        Self {
            cand: (cell * 9 + usize::from(d - 1)) as u16,
            on,
        }
    }
    fn cell(self) -> usize {
        usize::from(self.cand) / 9
    }
    fn digit(self) -> u8 {
        (self.cand % 9) as u8 + 1
    }
    fn chain_node(self) -> ChainNode {
        ChainNode {
            candidate: Candidate::new(self.cell(), self.digit()),
            on: self.on,
        }
    }
}

/// The consequences of one assumption: nodes reached, with their distance (1 for the assumption itself).
struct Closure {
    on: [CellSet; 9],
    off: [CellSet; 9],
    level_on: [u8; NODES],
    level_off: [u8; NODES],
}

impl Closure {
    fn new() -> Self {
        Self {
            on: [0; 9],
            off: [0; 9],
            level_on: [0; NODES],
            level_off: [0; NODES],
        }
    }

    fn level(&self, n: Node) -> u8 {
        if n.on {
            self.level_on[usize::from(n.cand)]
        } else {
            self.level_off[usize::from(n.cand)]
        }
    }
}

/// Which links a search may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Links {
    /// Links within a cell (Y links).
    y: bool,
    /// Strong links within a house (X links, "off" to "on").
    x: bool,
}

const X: Links = Links { y: false, x: true };
const Y: Links = Links { y: true, x: false };
const XY: Links = Links { y: true, x: true };

/// What a search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// The whole closure.
    All,
    /// A given node; the result is its level.
    Reach(Node),
    /// The way back to the (on) start, closing a loop of at least four nodes; the result is the loop's node count.
    Loop,
}

/// The whole consequences of every candidate assumed true (with both kinds of links), computed once per step
/// and shared by forcing chains and multiple forcing chains.
struct Closures {
    index: [u16; NODES],
    list: Vec<Closure>,
}

impl Closures {
    fn compute(g: &Graph) -> Self {
        let s = g.s;
        let mut index = [u16::MAX; NODES];
        let mut list: Vec<Closure> = Vec::new();
        for c in Cells(s.unsolved()) {
            for d in Digits(s.candidates(c)) {
                let mut cl = Closure::new();
                search(g, Node::new(c, d, true), XY, Goal::All, u8::MAX, &mut cl);
                index[c * 9 + usize::from(d - 1)] = list.len() as u16;
                list.push(cl);
            }
        }
        Self { index, list }
    }

    fn of(&self, n: Node) -> &Closure {
        &self.list[usize::from(self.index[usize::from(n.cand)])]
    }
}

/// [`search`] restricted to X links (one digit): the same levels, on one pair of cell sets.
fn search_x(g: &Graph, start: Node, goal: Goal, max_level: u8) -> Option<u8> {
    let (sc, d) = (start.cell(), start.digit());
    let di = usize::from(d - 1);
    let pos = g.s.positions(d);
    let strong = &g.strong[di];
    let mut on = 0u128;
    let mut off = 0u128;
    let mut frontier = bit(sc);
    if start.on {
        on = frontier;
    } else {
        off = frontier;
    }
    let target = match goal {
        Goal::Reach(t) => Some(t),
        _ => None,
    };
    let mut level = 1u8;
    let mut on_turn = start.on;
    loop {
        if level >= max_level {
            return None;
        }
        level += 1;
        let mut new = 0u128;
        if on_turn {
            for c in Cells(frontier) {
                new |= PEERS[c] & pos;
            }
            if goal == Goal::Loop && level == 2 {
                new &= !strong[sc];
            }
            new &= !off;
            off |= new;
        } else {
            for c in Cells(frontier) {
                new |= strong[c];
            }
            if goal == Goal::Loop && level >= 5 && new & bit(sc) != 0 {
                return Some(level - 1);
            }
            new &= !on;
            on |= new;
        }
        if let Some(t) = target
            && t.on != on_turn
            && new & bit(t.cell()) != 0
        {
            return Some(level);
        }
        if new == 0 {
            return None;
        }
        frontier = new;
        on_turn = !on_turn;
    }
}

/// Breadth-first search from `start` using `links`. Stops early when the goal is met or the search passes
/// `max_level`.
fn search(
    g: &Graph,
    start: Node,
    links: Links,
    goal: Goal,
    max_level: u8,
    out: &mut Closure,
) -> Option<u8> {
    let y = links.y;
    let s = g.s;
    // Levels are only kept for whole closures (multiple forcing chains need them for every node).
    let levels = goal == Goal::All;
    out.on = [0; 9];
    out.off = [0; 9];
    if levels {
        out.level_on = [0; NODES];
        out.level_off = [0; NODES];
    }
    let mut fr_on = [0u128; 9];
    let mut fr_off = [0u128; 9];
    let (sc, sd) = (start.cell(), usize::from(start.digit() - 1));
    if start.on {
        fr_on[sd] = bit(sc);
        out.on[sd] = bit(sc);
        out.level_on[usize::from(start.cand)] = 1;
    } else {
        fr_off[sd] = bit(sc);
        out.off[sd] = bit(sc);
        out.level_off[usize::from(start.cand)] = 1;
    }
    let mut level = 1u8;
    let mut on_turn = start.on;
    loop {
        if level >= max_level {
            return None;
        }
        level += 1;
        let mut any = false;
        if on_turn {
            // On nodes turn off their peers' copies of the digit and, with Y links, their cell's other digits.
            let mut new = [0u128; 9];
            for d in 0..9 {
                for c in Cells(fr_on[d]) {
                    new[d] |= PEERS[c] & s.positions(d as u8 + 1);
                    if y {
                        for e in Digits(s.candidates(c) & !(1 << d)) {
                            new[usize::from(e - 1)] |= bit(c);
                        }
                    }
                }
            }
            if goal == Goal::Loop && level == 2 {
                // A loop must leave the start by another way than the one that closes it: the partners whose
                // "off" turns the start back on are not reached straight from it.
                if links.x {
                    new[sd] &= !g.strong[sd][sc];
                }
                let m = s.candidates(sc);
                if y && g.bivalue & bit(sc) != 0 {
                    new[(m & !(1 << sd)).trailing_zeros() as usize] &= !bit(sc);
                }
            }
            for d in 0..9 {
                new[d] &= !out.off[d];
                out.off[d] |= new[d];
                if levels {
                    for c in Cells(new[d]) {
                        out.level_off[c * 9 + d] = level;
                    }
                }
                any |= new[d] != 0;
            }
            fr_off = new;
            fr_on = [0; 9];
        } else {
            // Off nodes turn on the other place of a bilocal digit and, with Y links, a bivalue cell's other digit.
            let mut new = [0u128; 9];
            for d in 0..9 {
                for c in Cells(fr_off[d]) {
                    if links.x {
                        new[d] |= g.strong[d][c];
                    }
                    if y {
                        let m = s.candidates(c);
                        if g.bivalue & bit(c) != 0 {
                            let e = (m & !(1 << d)).trailing_zeros() as usize;
                            new[e] |= bit(c);
                        }
                    }
                }
            }
            if goal == Goal::Loop && level >= 5 && new[sd] & bit(sc) != 0 {
                return Some(level - 1);
            }
            for d in 0..9 {
                new[d] &= !out.on[d];
                out.on[d] |= new[d];
                if levels {
                    for c in Cells(new[d]) {
                        out.level_on[c * 9 + d] = level;
                    }
                }
                any |= new[d] != 0;
            }
            fr_on = new;
            fr_off = [0; 9];
        }
        if let Goal::Reach(t) = goal {
            let set = if t.on { &out.on } else { &out.off };
            if set[usize::from(t.digit() - 1)] & bit(t.cell()) != 0 {
                return Some(level);
            }
        }
        if !any {
            return None;
        }
        on_turn = !on_turn;
    }
}

/// The shortest implication path from `start` to `target` (both included) using `links`.
fn path(g: &Graph, start: Node, target: Node, links: Links) -> Vec<Node> {
    path_avoiding(g, start, target, links, &[])
}

/// Like [`path`], without the steps from `start` straight to any of `skip`.
fn path_avoiding(g: &Graph, start: Node, target: Node, links: Links, skip: &[Node]) -> Vec<Node> {
    let y = links.y;
    let s = g.s;
    let idx = |n: Node| usize::from(n.cand) * 2 + usize::from(n.on);
    let mut parent = vec![u16::MAX; NODES * 2];
    let mut seen = vec![false; NODES * 2];
    let mut queue = std::collections::VecDeque::new();
    seen[idx(start)] = true;
    queue.push_back(start);
    let mut found = false;
    while let Some(n) = queue.pop_front() {
        if n == target {
            found = true;
            break;
        }
        let (c, d) = (n.cell(), n.digit());
        let mut next: Vec<Node> = Vec::new();
        if n.on {
            if y {
                for e in Digits(s.candidates(c) & !digit_bit(d)) {
                    next.push(Node::new(c, e, false));
                }
            }
            for p in Cells(PEERS[c] & s.positions(d)) {
                next.push(Node::new(p, d, false));
            }
        } else {
            if y {
                let m = s.candidates(c);
                if m.count_ones() == 2 {
                    next.push(Node::new(
                        c,
                        (m & !digit_bit(d)).trailing_zeros() as u8 + 1,
                        true,
                    ));
                }
            }
            if links.x {
                for p in Cells(g.strong[usize::from(d - 1)][c]) {
                    next.push(Node::new(p, d, true));
                }
            }
        }
        for m in next {
            if n == start && skip.contains(&m) {
                continue;
            }
            if !seen[idx(m)] {
                seen[idx(m)] = true;
                parent[idx(m)] = idx(n) as u16;
                queue.push_back(m);
            }
        }
    }
    if !found {
        return vec![start, target];
    }
    let mut out = vec![target];
    let mut i = idx(target);
    while parent[i] != u16::MAX {
        i = usize::from(parent[i]);
        out.push(Node {
            cand: (i / 2) as u16,
            on: i % 2 == 1,
        });
    }
    out.reverse();
    out
}

/// The best single chain found: rating, complexity, technique, start node, links, and for a loop its nodes.
struct Unary {
    rating: Rating,
    complexity: usize,
    technique: Technique,
    start: Node,
    links: Links,
    /// For a loop: the nodes (from the start, not repeating it) and the eliminations.
    cycle: Option<(Vec<Node>, Vec<Candidate>)>,
}

/// The loop through `start` closing at the shortest distance, with its eliminations: a candidate outside the
/// loop's cells that sees an "on" node and an "off" node of its digit is false whichever way round the loop holds.
fn cycle_nodes(g: &Graph, start: Node, links: Links) -> Option<(Vec<Node>, Vec<Candidate>)> {
    let s = g.s;
    let (sc, sd) = (start.cell(), start.digit());
    // The "off" nodes that turn the start back on.
    let mut closers: Vec<Node> = Vec::new();
    if links.x {
        for p in Cells(g.strong[usize::from(sd - 1)][sc]) {
            closers.push(Node::new(p, sd, false));
        }
    }
    if links.y {
        let m = s.candidates(sc);
        if m.count_ones() == 2 {
            closers.push(Node::new(
                sc,
                (m & !digit_bit(sd)).trailing_zeros() as u8 + 1,
                false,
            ));
        }
    }
    let mut best: Option<Vec<Node>> = None;
    for &n in &closers {
        let p = path_avoiding(g, start, n, links, &closers);
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

/// The strong partners of a candidate: the candidates that turn on when it turns off.
fn partners<'g>(g: &'g Graph<'_>, n: Node) -> impl Iterator<Item = Node> + 'g {
    let (c, d) = (n.cell(), n.digit());
    let m = g.s.candidates(c);
    let bivalue = (m.count_ones() == 2)
        .then(|| Node::new(c, (m & !digit_bit(d)).trailing_zeros() as u8 + 1, true));
    Cells(g.strong[usize::from(d - 1)][c])
        .map(move |p| Node::new(p, d, true))
        .chain(bivalue)
}

/// A mixed forcing chain from `start`, read off the shared closures: the level of the start's negation in its
/// closure (a contradiction), or the way back to an "off" start through one of its partners.
fn from_closures(g: &Graph, cls: &Closures, start: Node) -> Option<u8> {
    let neg = Node {
        on: !start.on,
        ..start
    };
    let level = if start.on {
        cls.of(start).level(neg)
    } else {
        partners(g, start)
            .map(|p| cls.of(p).level(neg))
            .filter(|&l| l > 0)
            .min()
            .map_or(0, |l| l + 1)
    };
    (level > 0).then_some(level)
}

/// Loops and forcing chains, easiest first: X-cycles and Y-cycles (6.5), X-chains (6.6), mixed cycles and
/// forcing chains (7.0), each plus its length bonus.
fn unary(
    g: &Graph,
    max: Rating,
    allowed: TechniqueSet,
    scratch: &mut Closure,
    closures: &mut Option<Closures>,
) -> Option<Unary> {
    let s = g.s;
    let mut best: Option<Unary> = None;
    let modes = [
        (Technique::XCycle, X, true),
        (Technique::YCycle, Y, true),
        (Technique::XChain, X, false),
        (Technique::ForcingChain, XY, false),
        (Technique::MixedCycle, XY, true),
    ];
    for (t, links, is_loop) in modes {
        let base = t.base_rating();
        if !allowed.contains(t) || base > max {
            continue;
        }
        if best.as_ref().is_some_and(|b| b.rating <= base) {
            continue;
        }
        if links == XY && closures.is_none() {
            *closures = Some(Closures::compute(g));
        }
        for c in Cells(s.unsolved()) {
            let m = s.candidates(c);
            if t == Technique::YCycle && m.count_ones() != 2 {
                continue;
            }
            for d in Digits(m) {
                for on in [true, false] {
                    if is_loop && !on {
                        continue;
                    }
                    let start = Node::new(c, d, on);
                    // A longer chain than the best of the same base can only rate the same or higher.
                    let limit = match &best {
                        Some(b) if b.rating.0 - length_bonus(b.complexity) == base.0 => {
                            b.complexity as u8 + 1
                        }
                        _ => u8::MAX,
                    };
                    let goal = if is_loop {
                        Goal::Loop
                    } else {
                        Goal::Reach(Node { on: !on, ..start })
                    };
                    let found = match closures.as_ref() {
                        Some(cls) if links == XY && !is_loop => from_closures(g, cls, start),
                        _ if links == X => search_x(g, start, goal, limit),
                        _ => search(g, start, links, goal, limit, scratch),
                    };
                    let Some(l) = found else {
                        continue;
                    };
                    let k = usize::from(l);
                    let r = Rating(base.0 + length_bonus(k));
                    if r > max
                        || best
                            .as_ref()
                            .is_some_and(|b| (r, k) >= (b.rating, b.complexity))
                    {
                        continue;
                    }
                    let cycle = if is_loop {
                        match cycle_nodes(g, start, links) {
                            Some(found) => Some(found),
                            None => continue,
                        }
                    } else {
                        None
                    };
                    best = Some(Unary {
                        rating: r,
                        complexity: k,
                        technique: t,
                        start,
                        links,
                        cycle,
                    });
                }
            }
        }
    }
    best
}

/// The best multiple forcing chain: (rating, complexity, technique, branch starts, conclusion).
type Multiple = (Rating, usize, Technique, Vec<Node>, Node, usize);

/// Cell and region forcing chains: every branch leads to the same conclusion.
fn multiple(
    g: &Graph,
    max: Rating,
    allowed: TechniqueSet,
    closures: &mut Option<Closures>,
) -> Option<Multiple> {
    let s = g.s;
    let base = Technique::CellForcingChains.base_rating();
    let cell_ok = allowed.contains(Technique::CellForcingChains);
    let region_ok = allowed.contains(Technique::RegionForcingChains);
    if base > max || !(cell_ok || region_ok) {
        return None;
    }
    let closures: &Closures = closures.get_or_insert_with(|| Closures::compute(g));
    let mut best: Option<Multiple> = None;
    let consider = |t: Technique, branches: &[Node], house: usize, best: &mut Option<Multiple>| {
        let cls: Vec<&Closure> = branches.iter().map(|&n| closures.of(n)).collect();
        for on in [true, false] {
            let mut common = [0u128; 9];
            for d in 0..9 {
                common[d] = cls
                    .iter()
                    .fold(!0u128, |a, cl| a & if on { cl.on[d] } else { cl.off[d] });
            }
            for d in 0..9 {
                for c in Cells(common[d]) {
                    let target = Node::new(c, d as u8 + 1, on);
                    let k: usize = cls.iter().map(|cl| usize::from(cl.level(target))).sum();
                    let r = Rating(base.0 + length_bonus(k));
                    if r <= max && best.as_ref().is_none_or(|b| (r, k) < (b.0, b.1)) {
                        *best = Some((r, k, t, branches.to_vec(), target, house));
                    }
                }
            }
        }
    };
    if cell_ok {
        for c in Cells(s.unsolved()) {
            let m = s.candidates(c);
            if m.count_ones() < 3 {
                continue;
            }
            let branches: Vec<Node> = Digits(m).map(|d| Node::new(c, d, true)).collect();
            consider(Technique::CellForcingChains, &branches, 0, &mut best);
        }
    }
    if region_ok {
        for (h, &house) in HOUSE.iter().enumerate() {
            for d in 1..=9u8 {
                let m = s.positions(d) & house;
                if m.count_ones() < 2 {
                    continue;
                }
                let branches: Vec<Node> = Cells(m).map(|c| Node::new(c, d, true)).collect();
                consider(Technique::RegionForcingChains, &branches, h, &mut best);
            }
        }
    }
    best
}

/// The easiest chain step rated at most `max`.
pub(crate) fn find(s: &Candidates, step: &mut Step, max: Rating, allowed: TechniqueSet) -> bool {
    if Technique::XCycle.base_rating() > max {
        return false;
    }
    let g = Graph::new(s);
    let mut scratch = Box::new(Closure::new());
    let mut closures: Option<Closures> = None;
    if let Some(u) = unary(&g, max, allowed, &mut scratch, &mut closures) {
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
        let nodes = path(&g, start, target, u.links);
        fill_chain(step, &nodes);
        let cand = Candidate::new(start.cell(), start.digit());
        if start.on {
            step.eliminations.push(cand);
        } else {
            step.placements.push(cand);
        }
        step.cells.push(start.cell() as u8);
        step.digits = digit_bit(start.digit());
        return true;
    }
    if let Some((r, _, t, branches, target, house)) = multiple(&g, max, allowed, &mut closures) {
        step.start(t);
        step.rating = r;
        for &b in &branches {
            let nodes = path(&g, b, target, XY);
            fill_chain(step, &nodes);
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
