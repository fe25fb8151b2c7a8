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

use super::Finder;
use super::basic::Scope;
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
        Self { s, strong }
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
    /// A given node; the result is its level.
    Reach(Node),
    /// The way back to the (on) start, closing a loop of at least four nodes; the result is the loop's node count.
    Loop,
}

/// No node.
const NONE: u16 = u16::MAX;

/// The candidates of a state as numbered nodes (cell by cell, each cell's digits in order), with their links as
/// node lists: the network the bit-parallel searches run on.
struct Net {
    /// Node of each candidate (`cell * 9 + d - 1`), [`NONE`] when it is not a candidate.
    index: [u16; NODES],
    /// Candidate (`cell * 9 + d - 1`) of each node.
    cand: Vec<u16>,
    /// The nodes of the same digit in a peer cell (weak links through a house):
    /// `peer[peer_at[v]..peer_at[v + 1]]`.
    peer_at: Vec<u32>,
    peer: Vec<u16>,
    /// Strong partners: the nodes of the same digit that are its only other place in a house, as `peer`.
    strong_at: Vec<u32>,
    strong: Vec<u16>,
    /// The nodes of each node's cell: `first..end`.
    mates: Vec<(u16, u16)>,
    /// The other node of a bivalue cell, [`NONE`] in other cells.
    other: Vec<u16>,
    /// The nodes in digit order (then cell order).
    by_digit: Vec<u16>,
}

impl Net {
    fn new(g: &Graph) -> Self {
        let s = g.s;
        let mut index = [NONE; NODES];
        let mut cand = Vec::with_capacity(256);
        let mut mates = Vec::with_capacity(256);
        for c in Cells(s.unsolved()) {
            let first = cand.len() as u16;
            for d in Digits(s.candidates(c)) {
                let k = c * 9 + usize::from(d - 1);
                index[k] = cand.len() as u16;
                cand.push(k as u16);
            }
            let end = cand.len() as u16;
            for _ in first..end {
                mates.push((first, end));
            }
        }
        let n = cand.len();
        let mut peer_at = Vec::with_capacity(n + 1);
        let mut peer = Vec::with_capacity(n * 8);
        let mut strong_at = Vec::with_capacity(n + 1);
        let mut strong = Vec::with_capacity(n * 2);
        let mut other = vec![NONE; n];
        for (v, &k) in cand.iter().enumerate() {
            let (c, di) = (usize::from(k) / 9, usize::from(k) % 9);
            let pos = s.positions(di as u8 + 1);
            peer_at.push(peer.len() as u32);
            for p in Cells(PEERS[c] & pos) {
                peer.push(index[p * 9 + di]);
            }
            strong_at.push(strong.len() as u32);
            for p in Cells(g.strong[di][c]) {
                strong.push(index[p * 9 + di]);
            }
            let (first, end) = mates[v];
            if end - first == 2 {
                other[v] = if usize::from(first) == v {
                    end - 1
                } else {
                    first
                };
            }
        }
        peer_at.push(peer.len() as u32);
        strong_at.push(strong.len() as u32);
        let mut by_digit = Vec::with_capacity(n);
        for d in 1..=9u8 {
            for c in Cells(s.positions(d)) {
                by_digit.push(index[c * 9 + usize::from(d - 1)]);
            }
        }
        Self {
            index,
            cand,
            peer_at,
            peer,
            strong_at,
            strong,
            mates,
            other,
            by_digit,
        }
    }

    fn len(&self) -> usize {
        self.cand.len()
    }

    fn peers(&self, v: usize) -> &[u16] {
        &self.peer[self.peer_at[v] as usize..self.peer_at[v + 1] as usize]
    }

    fn strongs(&self, v: usize) -> &[u16] {
        &self.strong[self.strong_at[v] as usize..self.strong_at[v + 1] as usize]
    }

    /// The chain node of node `v` with polarity `on`.
    fn node(&self, v: usize, on: bool) -> Node {
        Node {
            cand: self.cand[v],
            on,
        }
    }
}

/// A set of nodes of a [`Net`] (searches from them, one bit each): `W` words of 128 bits.
type Set<const W: usize> = [u128; W];

#[inline]
fn has<const W: usize>(set: &Set<W>, v: usize) -> bool {
    set[v / 128] >> (v % 128) & 1 != 0
}

#[inline]
fn or_into<const W: usize>(acc: &mut Set<W>, x: &Set<W>) {
    for w in 0..W {
        acc[w] |= x[w];
    }
}

/// Breadth-first searches from many starts at once, one level at a time: for each node and polarity, the set of
/// starts that reach it. The levels are those of a search from each start alone (the start is level 1; "on"
/// nodes are at odd levels, "off" nodes at even ones).
struct Bfs<const W: usize> {
    /// The level last computed (at most 255, as the searches of one start).
    level: usize,
    /// For each node, the starts reaching it for the first time at the last level.
    front: Vec<Set<W>>,
    back: Vec<Set<W>>,
    /// For each node, the starts that reached it "on" / "off" so far.
    seen_on: Vec<Set<W>>,
    seen_off: Vec<Set<W>>,
    /// With `keep`, every level's `front`, one after the other (level 1 first).
    history: Vec<Set<W>>,
    keep: bool,
    /// The nodes the search may reach (in node order); the others stay empty.
    active: Vec<u16>,
}

impl<const W: usize> Bfs<W> {
    /// Searches from each node of `starts` assumed "on", through the nodes of `active` only.
    fn new(net: &Net, starts: impl Iterator<Item = usize>, active: Vec<u16>, keep: bool) -> Self {
        let n = net.len();
        let mut front = vec![[0u128; W]; n];
        for v in starts {
            front[v][v / 128] |= 1u128 << (v % 128);
        }
        let mut history = Vec::new();
        if keep {
            history.extend_from_slice(&front);
        }
        Self {
            level: 1,
            seen_on: front.clone(),
            seen_off: vec![[0u128; W]; n],
            back: vec![[0u128; W]; n],
            front,
            history,
            keep,
            active,
        }
    }

    /// Compute the next level with the given links. For loops (`loops` given), the level-2 step skips the links
    /// that would close a loop straight back to the start, and from level 5 on the starts reached "on" again are
    /// pushed to `loops`, in node order. Returns whether any node was reached for the first time.
    fn step(&mut self, net: &Net, links: Links, mut loops: Option<&mut Vec<u16>>) -> bool {
        self.level += 1;
        let level = self.level;
        let mut any = 0u128;
        if level.is_multiple_of(2) {
            // "On" nodes turn off the same digit in their peers and, with Y links, the other digits of their cell.
            for &v in &self.active {
                let v = usize::from(v);
                let mut acc = [0u128; W];
                for &u in net.peers(v) {
                    or_into(&mut acc, &self.front[usize::from(u)]);
                }
                if links.y {
                    let (first, end) = net.mates[v];
                    for u in usize::from(first)..usize::from(end) {
                        if u != v {
                            or_into(&mut acc, &self.front[u]);
                        }
                    }
                }
                if level == 2 && loops.is_some() {
                    // A loop leaves its start by another way than the one that closes it.
                    if links.x {
                        for &u in net.strongs(v) {
                            let u = usize::from(u);
                            acc[u / 128] &= !(1u128 << (u % 128));
                        }
                    }
                    let o = net.other[v];
                    if links.y && o != NONE {
                        let o = usize::from(o);
                        acc[o / 128] &= !(1u128 << (o % 128));
                    }
                }
                let seen = &mut self.seen_off[v];
                for w in 0..W {
                    acc[w] &= !seen[w];
                    seen[w] |= acc[w];
                    any |= acc[w];
                }
                self.back[v] = acc;
            }
        } else {
            // "Off" nodes turn on their strong partners and, with Y links, the other digit of a bivalue cell.
            for &v in &self.active {
                let v = usize::from(v);
                let mut acc = [0u128; W];
                if links.x {
                    for &u in net.strongs(v) {
                        or_into(&mut acc, &self.front[usize::from(u)]);
                    }
                }
                let o = net.other[v];
                if links.y && o != NONE {
                    or_into(&mut acc, &self.front[usize::from(o)]);
                }
                if level >= 5
                    && let Some(l) = loops.as_deref_mut()
                    && has(&acc, v)
                {
                    l.push(v as u16);
                }
                let seen = &mut self.seen_on[v];
                for w in 0..W {
                    acc[w] &= !seen[w];
                    seen[w] |= acc[w];
                    any |= acc[w];
                }
                self.back[v] = acc;
            }
        }
        std::mem::swap(&mut self.front, &mut self.back);
        if self.keep {
            self.history.extend_from_slice(&self.front);
        }
        any != 0
    }

    /// With `keep`: the level at which start `s` reached node `v` with polarity `on`, 0 if never.
    fn level_of(&self, n: usize, s: usize, v: usize, on: bool) -> usize {
        let levels = self.history.len() / n.max(1);
        let first = if on { 1 } else { 2 };
        (first..=levels)
            .step_by(2)
            .find(|&l| has(&self.history[(l - 1) * n + v], s))
            .unwrap_or(0)
    }
}

/// A breadth-first search from `start` over X links (one digit), stopping when the goal is met (the result is its
/// level; for a loop, the loop's node count) or the search passes `max_level`.
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

/// The shortest implication path from `start` to `target` (both included) using `links`.
fn path(g: &Graph, start: Node, target: Node, links: Links) -> Vec<Node> {
    path_avoiding(g, start, target, links, &[])
}

/// Like [`path`], without the steps from `start` straight to any of `skip`.
fn path_avoiding(g: &Graph, start: Node, target: Node, links: Links, skip: &[Node]) -> Vec<Node> {
    const UNSEEN: u16 = u16::MAX;
    const ROOT: u16 = u16::MAX - 1;
    let s = g.s;
    let idx = |n: Node| usize::from(n.cand) * 2 + usize::from(n.on);
    let node = |i: usize| Node {
        cand: (i / 2) as u16,
        on: i % 2 == 1,
    };
    // Breadth first, each node's successors in a fixed order: for an "on" node the other digits of its cell,
    // then its peers; for an "off" node the other digit of a bivalue cell, then its strong partners.
    let mut parent = [UNSEEN; NODES * 2];
    let mut queue = [0u16; NODES * 2];
    parent[idx(start)] = ROOT;
    queue[0] = idx(start) as u16;
    let (mut head, mut tail) = (0usize, 1usize);
    let mut found = false;
    while head < tail {
        let i = usize::from(queue[head]);
        head += 1;
        let n = node(i);
        if n == target {
            found = true;
            break;
        }
        let mut visit = |m: Node| {
            if n == start && skip.contains(&m) {
                return;
            }
            let j = idx(m);
            if parent[j] == UNSEEN {
                parent[j] = i as u16;
                queue[tail] = j as u16;
                tail += 1;
            }
        };
        let (c, d) = (n.cell(), n.digit());
        if n.on {
            if links.y {
                for e in Digits(s.candidates(c) & !digit_bit(d)) {
                    visit(Node::new(c, e, false));
                }
            }
            for p in Cells(PEERS[c] & s.positions(d)) {
                visit(Node::new(p, d, false));
            }
        } else {
            if links.y {
                let m = s.candidates(c);
                if m.count_ones() == 2 {
                    visit(Node::new(
                        c,
                        (m & !digit_bit(d)).trailing_zeros() as u8 + 1,
                        true,
                    ));
                }
            }
            if links.x {
                for p in Cells(g.strong[usize::from(d - 1)][c]) {
                    visit(Node::new(p, d, true));
                }
            }
        }
    }
    if !found {
        return vec![start, target];
    }
    let mut out = vec![target];
    let mut i = idx(target);
    while parent[i] != ROOT {
        i = usize::from(parent[i]);
        out.push(node(i));
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
    cycle: Option<Cycle>,
}

/// A loop's nodes (from the start, not repeating it) and its eliminations.
type Cycle = (Vec<Node>, Vec<Candidate>);

/// The loop through `start` closing at the shortest distance, with its eliminations: a candidate outside the
/// loop's cells that sees an "on" node and an "off" node of its digit is false whichever way round the loop holds.
fn cycle_nodes(g: &Graph, start: Node, links: Links) -> Option<Cycle> {
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

/// Calls `$f::<W>($args)` with `W` the number of 128-bit words a set of `$n` nodes needs.
macro_rules! by_width {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match $n.div_ceil(128) {
            0 | 1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            _ => $f::<6>($($arg),*),
        }
    };
}

/// The longest chain of a technique with base rating `base` worth finding: rated at most `max`, and better than
/// `best` (rating, then length), the best chain found so far. 0 when none is.
fn longest_useful(base: Rating, max: Rating, best: Option<(Rating, usize)>) -> usize {
    let mut k = 0;
    while k < usize::from(u8::MAX) - 1 {
        let next = k + 1;
        let r = Rating(base.0.saturating_add(length_bonus(next)));
        if r > max || best.is_some_and(|b| (r, next) >= b) {
            break;
        }
        k = next;
    }
    k
}

/// The shortest loop of at most `kmax` nodes through a start ("on"), among all nodes (or the nodes of bivalue
/// cells) as starts, whose loop has eliminations: (length, start, loop). Among loops of the same length, the
/// first start in node order wins; a start whose shortest loop eliminates nothing is not taken further.
fn shortest_loop<const W: usize>(
    g: &Graph,
    net: &Net,
    links: Links,
    bivalue_only: bool,
    kmax: usize,
) -> Option<(usize, Node, Cycle)> {
    let n = net.len();
    // With Y links only, "off" nodes lead on only in bivalue cells: the search stays in them.
    let active: Vec<u16> = (0..n as u16)
        .filter(|&v| !bivalue_only || net.other[usize::from(v)] != NONE)
        .collect();
    let mut bfs = Bfs::<W>::new(
        net,
        active.iter().map(|&v| usize::from(v)),
        active.clone(),
        false,
    );
    let mut done = vec![false; n];
    let mut looped = Vec::new();
    // A loop back to the start at level L has L - 1 nodes.
    while bfs.level <= kmax {
        looped.clear();
        let any = bfs.step(net, links, Some(&mut looped));
        for &v in &looped {
            let v = usize::from(v);
            if std::mem::replace(&mut done[v], true) {
                continue;
            }
            let start = net.node(v, true);
            if let Some(cycle) = cycle_nodes(g, start, links) {
                return Some((bfs.level - 1, start, cycle));
            }
        }
        if !any {
            break;
        }
    }
    None
}

/// The shortest forcing chain (both kinds of links) of at most `kmax` nodes: (length, start). A start "on" that
/// reaches its own "off" (at its level), or a start "off" one of whose partners, assumed "on", reaches it "on"
/// (one more than that level). Among chains of the same length, the first start wins (node order, "on" first).
fn shortest_forcing_chain<const W: usize>(net: &Net, kmax: usize) -> Option<(usize, Node)> {
    let n = net.len();
    let mut bfs = Bfs::<W>::new(net, 0..n, (0..n as u16).collect(), false);
    let mut kmax = kmax;
    let mut best: Option<(usize, usize)> = None;
    let mut consider = |k: usize, idx: usize, kmax: &mut usize| {
        if best.is_none_or(|b| (k, idx) < b) {
            best = Some((k, idx));
            *kmax = (*kmax).min(k);
        }
    };
    while bfs.level < kmax {
        let any = bfs.step(net, XY, None);
        let l = bfs.level;
        if l.is_multiple_of(2) {
            for v in 0..n {
                if has(&bfs.front[v], v) {
                    consider(l, 2 * v, &mut kmax);
                }
            }
        } else if l < kmax {
            for v in 0..n {
                let f = &bfs.front[v];
                let o = net.other[v];
                if net.strongs(v).iter().any(|&u| has(f, usize::from(u)))
                    || (o != NONE && has(f, usize::from(o)))
                {
                    consider(l + 1, 2 * v + 1, &mut kmax);
                }
            }
        }
        if !any {
            break;
        }
    }
    best.map(|(k, idx)| (k, net.node(idx / 2, idx % 2 == 0)))
}

/// Loops and forcing chains, easiest first: X-cycles and Y-cycles (6.5), X-chains (6.6), mixed cycles and
/// forcing chains (7.0), each plus its length bonus.
fn unary(
    g: &Graph,
    net: &mut Option<Net>,
    max: Rating,
    allowed: TechniqueSet,
    finder: &mut Finder,
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
        if links.y {
            // Y-cycles, forcing chains and mixed cycles: bit-parallel searches from every start at once.
            let kmax = longest_useful(base, max, best.as_ref().map(|b| (b.rating, b.complexity)));
            if kmax == 0 {
                continue;
            }
            let net = net.get_or_insert_with(|| Net::new(g));
            let found = if is_loop {
                by_width!(
                    net.len(),
                    shortest_loop(g, net, links, t == Technique::YCycle, kmax)
                )
                .map(|(k, start, cycle)| (k, start, Some(cycle)))
            } else {
                by_width!(net.len(), shortest_forcing_chain(net, kmax))
                    .map(|(k, start)| (k, start, None))
            };
            if let Some((k, start, cycle)) = found {
                best = Some(Unary {
                    rating: Rating(base.0 + length_bonus(k)),
                    complexity: k,
                    technique: t,
                    start,
                    links,
                    cycle,
                });
            }
            continue;
        }
        // X-cycles and X-chains: one search per start, on one digit. A digit whose places did not change since a
        // search in vain up to at least this length has none.
        let slot = t as usize;
        let mut kmax = longest_useful(base, max, best.as_ref().map(|b| (b.rating, b.complexity)));
        if kmax == 0 {
            continue;
        }
        let digits = if kmax <= finder.clean_upto[slot] {
            finder.dirty[slot].digits
        } else {
            0x1ff
        };
        let searched = kmax;
        let mut found_any = false;
        for c in Cells(s.unsolved()) {
            for d in Digits(s.candidates(c) & digits) {
                for on in [true, false] {
                    if is_loop && !on {
                        continue;
                    }
                    let start = Node::new(c, d, on);
                    // A loop back to the start at level L has L - 1 nodes; a chain reaching its end at level L, L.
                    let found = if is_loop {
                        search_x(g, start, Goal::Loop, (kmax + 1) as u8)
                    } else {
                        search_x(g, start, Goal::Reach(Node { on: !on, ..start }), kmax as u8)
                    };
                    let Some(l) = found else {
                        continue;
                    };
                    let k = usize::from(l);
                    let cycle = if is_loop {
                        match cycle_nodes(g, start, links) {
                            Some(found) => Some(found),
                            None => continue,
                        }
                    } else {
                        None
                    };
                    best = Some(Unary {
                        rating: Rating(base.0 + length_bonus(k)),
                        complexity: k,
                        technique: t,
                        start,
                        links,
                        cycle,
                    });
                    found_any = true;
                    // Only a shorter chain is better.
                    kmax = k - 1;
                }
            }
        }
        if found_any {
            finder.dirty[slot] = Scope::ALL;
            finder.clean_upto[slot] = 0;
        } else {
            finder.dirty[slot] = Scope::NONE;
            finder.clean_upto[slot] = searched;
        }
    }
    best
}

/// The best multiple forcing chain: (rating, complexity, technique, branch starts, conclusion, house).
type Multiple = (Rating, usize, Technique, Vec<Node>, Node, usize);

/// Cell and region forcing chains: every branch leads to the same conclusion.
fn multiple(
    g: &Graph,
    net: &mut Option<Net>,
    max: Rating,
    allowed: TechniqueSet,
) -> Option<Multiple> {
    let base = Technique::CellForcingChains.base_rating();
    let cell_ok = allowed.contains(Technique::CellForcingChains);
    let region_ok = allowed.contains(Technique::RegionForcingChains);
    if base > max || !(cell_ok || region_ok) {
        return None;
    }
    let net = net.get_or_insert_with(|| Net::new(g));
    by_width!(net.len(), multiple_w(g, net, max, cell_ok, region_ok))
}

fn multiple_w<const W: usize>(
    g: &Graph,
    net: &Net,
    max: Rating,
    cell_ok: bool,
    region_ok: bool,
) -> Option<Multiple> {
    let s = g.s;
    let n = net.len();
    let base = Technique::CellForcingChains.base_rating();
    // The whole consequences of every candidate assumed true, with every level kept.
    let mut bfs = Bfs::<W>::new(net, 0..n, (0..n as u16).collect(), true);
    while bfs.level < usize::from(u8::MAX) && bfs.step(net, XY, None) {}
    let mut best: Option<Multiple> = None;
    let mut consider = |t: Technique, branches: &[usize], house: usize| {
        let mut set = [0u128; W];
        for &b in branches {
            set[b / 128] |= 1u128 << (b % 128);
        }
        for on in [true, false] {
            let seen = if on { &bfs.seen_on } else { &bfs.seen_off };
            for &v in &net.by_digit {
                let v = usize::from(v);
                if (0..W).any(|w| seen[v][w] & set[w] != set[w]) {
                    continue;
                }
                let k: usize = branches.iter().map(|&b| bfs.level_of(n, b, v, on)).sum();
                let r = Rating(base.0.saturating_add(length_bonus(k)));
                if r <= max && best.as_ref().is_none_or(|b| (r, k) < (b.0, b.1)) {
                    let starts = branches.iter().map(|&b| net.node(b, true)).collect();
                    best = Some((r, k, t, starts, net.node(v, on), house));
                }
            }
        }
    };
    if cell_ok {
        let mut v = 0;
        while v < n {
            let (first, end) = net.mates[v];
            let (first, end) = (usize::from(first), usize::from(end));
            if end - first >= 3 {
                let branches: Vec<usize> = (first..end).collect();
                consider(Technique::CellForcingChains, &branches, 0);
            }
            v = end;
        }
    }
    if region_ok {
        for (h, &house) in HOUSE.iter().enumerate() {
            for d in 1..=9u8 {
                let m = s.positions(d) & house;
                if m.count_ones() < 2 {
                    continue;
                }
                let branches: Vec<usize> = Cells(m)
                    .map(|c| usize::from(net.index[c * 9 + usize::from(d - 1)]))
                    .collect();
                consider(Technique::RegionForcingChains, &branches, h);
            }
        }
    }
    best
}

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
    let explain = finder.explain;
    let g = Graph::new(s);
    let mut net: Option<Net> = None;
    if let Some(u) = unary(&g, &mut net, max, allowed, finder) {
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
            let nodes = path(&g, start, target, u.links);
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
        return true;
    }
    if let Some((r, _, t, branches, target, house)) = multiple(&g, &mut net, max, allowed) {
        step.start(t);
        step.rating = r;
        if explain {
            for &b in &branches {
                let nodes = path(&g, b, target, XY);
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
