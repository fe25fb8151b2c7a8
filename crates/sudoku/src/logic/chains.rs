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
//! shortest ones. The searches of one kind run from all their starts at once ([`Bfs`]): each candidate and
//! polarity holds the set of starts that reach it (one bit per start), and a level is computed for every start
//! together; they stop at the shortest length that can still beat the best chain found so far. Among chains of the
//! same rating and length the first start (cell order, then digit, "on" before "off") wins, as a search from one
//! start after the other would find. X-cycles and X-chains stay on one digit, so a digit whose places did not
//! change since a search in vain is not searched again; Y-cycles are remembered while the bivalue cells stay the
//! same.

// Per-digit and per-house arrays are indexed in parallel; index loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::Finder;
use super::state::Candidates;
use super::step::{Candidate, ChainNode, Rating, Step, Technique, TechniqueSet};
use super::tables::{
    ALL_CELLS, CELL_HOUSES, CellSet, Cells, Digits, HOUSE, HOUSE_CELLS, PEERS, bit, digit_bit,
};

/// Number of candidates (cell, digit) of a grid.
const NODES: usize = 729;

/// SE's length bonus, in tenths, for a chain (or set of branches) of `complexity` nodes.
pub(crate) const fn length_bonus(complexity: usize) -> u8 {
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
        let mut bivalue = 0u128;
        for c in Cells(s.unsolved()) {
            if two(u128::from(s.candidates(c))) {
                bivalue |= bit(c);
            }
        }
        Self { s, bivalue }
    }

    /// The strong partners of digit `d` in `cell`: its other place in each house of the cell that has exactly two
    /// places for it.
    fn strong(&self, d: u8, cell: usize) -> CellSet {
        let pos = self.s.positions(d);
        let mut out = 0;
        for &h in &CELL_HOUSES[cell] {
            let m = pos & HOUSE[usize::from(h)];
            if two(m) && m & bit(cell) != 0 {
                out |= m;
            }
        }
        out & !bit(cell)
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

/// No node.
const NONE: u16 = u16::MAX;

/// The links of one kind of chains over a [`Net`].
#[derive(Clone, Copy)]
struct Adjacency<'a> {
    net: &'a Net,
    links: Links,
}

impl Adjacency<'_> {
    /// Whether one of the partners of node `v` is in `set`.
    fn partner_in<const W: usize>(&self, v: usize, set: &Set<W>) -> bool {
        (self.links.x
            && self
                .net
                .strongs(v)
                .iter()
                .any(|&u| has(set, usize::from(u))))
            || (self.links.y
                && self.net.other[v] != NONE
                && has(set, usize::from(self.net.other[v])))
    }
}

/// The candidates of a state as numbered nodes (cell by cell, each cell's digits in order), with their links as
/// node lists: the network the bit-parallel searches run on. Rebuilt for each state, in the same memory.
#[derive(Default)]
pub(crate) struct Net {
    /// Node of each candidate (`cell * 9 + d - 1`); only the entries of the state's candidates are meaningful.
    index: Vec<u16>,
    /// Candidate (`cell * 9 + d - 1`) of each node.
    cand: Vec<u16>,
    /// The nodes of each node's cell: `first..end`.
    mates: Vec<(u16, u16)>,
    /// The other node of a bivalue cell, [`NONE`] in other cells.
    other: Vec<u16>,
    /// For each node, the other nodes of its cell then the same digit in its peer cells (its weak links):
    /// `peer[weak_at[v]..weak_at[v + 1]]`, the peers from `peer_at[v]` on.
    weak_at: Vec<u32>,
    peer_at: Vec<u32>,
    peer: Vec<u16>,
    /// For each node, its strong partners (the same digit's only other place in a house): `strong[strong_at[v]..]`.
    strong_at: Vec<u32>,
    strong: Vec<u16>,
    /// For each node of a bivalue cell, the cell's other node then the same digit in its peer bivalue cells:
    /// `bpeer[bpeer_at[v]..bpeer_at[v + 1]]`.
    bpeer_at: Vec<u32>,
    bpeer: Vec<u16>,
    /// Every node.
    all: Vec<u16>,
    /// The nodes with a partner for links within houses, within cells, and both.
    live: [Vec<u16>; 3],
    /// The number of nodes.
    n: usize,
    /// The length of each list of `live`.
    live_len: [usize; 3],
}

impl Net {
    /// The network of the state of `g`, reusing this one's memory.
    fn rebuild(&mut self, g: &Graph) {
        let s = g.s;
        if self.index.len() < NODES {
            // Room for every candidate of a grid.
            self.index.resize(NODES, NONE);
            for v in [&mut self.cand, &mut self.other, &mut self.all] {
                v.resize(NODES, 0);
            }
            for v in &mut self.live {
                v.resize(NODES, 0);
            }
            self.mates.resize(NODES, (0, 0));
            for v in [
                &mut self.weak_at,
                &mut self.peer_at,
                &mut self.strong_at,
                &mut self.bpeer_at,
            ] {
                v.resize(NODES + 1, 0);
            }
        }
        let mut n = 0usize;
        for c in Cells(s.unsolved()) {
            let m = s.candidates(c);
            let first = n as u16;
            let end = first + super::basic::pop9(m) as u16;
            let bivalue = end - first == 2;
            for d in Digits(m) {
                let v = n as u16;
                let di = usize::from(d - 1);
                let k = c * 9 + di;
                self.index[k] = v;
                self.cand[n] = k as u16;
                self.mates[n] = (first, end);
                self.other[n] = if !bivalue {
                    NONE
                } else if v == first {
                    end - 1
                } else {
                    first
                };
                n += 1;
            }
        }
        self.n = n;
        // Room for the links (each node has at most 8 mates, 20 peers and 3 strong partners, and the weak links
        // are written one place past the last kept); along a solve the number of nodes only goes down.
        if self.peer.len() <= n * 28 {
            self.peer.resize(n * 28 + 1, 0);
            self.bpeer.resize(n * 21 + 1, 0);
            self.strong.resize(n * 3, 0);
        }
        // The links, from slices held in locals (with the vectors' headers behind `self`, every write would
        // make the compiler load them again).
        let (cand, other, mates, index) = (
            &self.cand[..n],
            &self.other[..n],
            &self.mates[..n],
            &self.index[..],
        );
        let bivalue = g.bivalue;
        let (peer, bpeer, strong) = (
            &mut self.peer[..],
            &mut self.bpeer[..],
            &mut self.strong[..],
        );
        let (weak_at, peer_at, strong_at, bpeer_at) = (
            &mut self.weak_at[..=n],
            &mut self.peer_at[..=n],
            &mut self.strong_at[..=n],
            &mut self.bpeer_at[..=n],
        );
        let all = &mut self.all[..n];
        let [l0, l1, l2] = &mut self.live;
        let (l0, l1, l2) = (&mut l0[..n], &mut l1[..n], &mut l2[..n]);
        let (mut np, mut ns, mut nb) = (0usize, 0usize, 0usize);
        let mut nl = [0usize; 3];
        for v in 0..n {
            let v16 = v as u16;
            let k = usize::from(cand[v]);
            let (c, di) = (k / 9, k % 9);
            let [r, col, b] = CELL_HOUSES[c];
            let in_bivalue = other[v] != NONE;
            weak_at[v] = np as u32;
            let (first, end) = mates[v];
            for u in first..end {
                peer[np] = u;
                np += usize::from(u != v16);
            }
            peer_at[v] = np as u32;
            strong_at[v] = ns as u32;
            bpeer_at[v] = nb as u32;
            bpeer[nb] = other[v];
            nb += usize::from(in_bivalue);
            let strong_from = ns;
            let pos = s.positions(di as u8 + 1);
            // The peers, and those in bivalue cells (each written, and kept by moving on: no branch to mispredict).
            let mut m = PEERS[c] & pos;
            while m != 0 {
                let p = m.trailing_zeros() as usize;
                m &= m - 1;
                let u = index[p * 9 + di];
                peer[np] = u;
                np += 1;
                bpeer[nb] = u;
                nb += usize::from(in_bivalue & (bivalue >> p & 1 != 0));
            }
            // The other place of each of its houses with two places for the digit.
            let mut sp = 0u128;
            for h in [r, col, b] {
                let mh = pos & HOUSE[usize::from(h)];
                sp |= mh & 0u128.wrapping_sub(u128::from(two(mh)));
            }
            for p in Cells(sp & !bit(c)) {
                strong[ns] = index[p * 9 + di];
                ns += 1;
            }
            let x = ns > strong_from;
            all[v] = v16;
            l0[nl[0]] = v16;
            nl[0] += usize::from(x);
            l1[nl[1]] = v16;
            nl[1] += usize::from(in_bivalue);
            l2[nl[2]] = v16;
            nl[2] += usize::from(x | in_bivalue);
        }
        weak_at[n] = np as u32;
        strong_at[n] = ns as u32;
        bpeer_at[n] = nb as u32;
        self.live_len = nl;
    }

    /// The nodes with a partner (the only ones a loop passes through, or whose "off" leads on) for `links`.
    fn live_nodes(&self, links: Links) -> &[u16] {
        let i = match (links.x, links.y) {
            (true, false) => 0,
            (false, _) => 1,
            (true, true) => 2,
        };
        &self.live[i][..self.live_len[i]]
    }

    /// The number of nodes.
    fn len(&self) -> usize {
        self.n
    }

    /// Every node, in order.
    fn all(&self) -> &[u16] {
        &self.all[..self.n]
    }

    /// The same digit in the peer cells of node `v`.
    #[inline]
    fn peers(&self, v: usize) -> &[u16] {
        &self.peer[self.peer_at[v] as usize..self.weak_at[v + 1] as usize]
    }

    /// The nodes node `v` turns off: the other nodes of its cell, then the same digit in its peer cells.
    #[inline]
    fn weak(&self, v: usize) -> &[u16] {
        &self.peer[self.weak_at[v] as usize..self.weak_at[v + 1] as usize]
    }

    /// For a node of a bivalue cell, the nodes it turns off in bivalue cells: its cell's other node, then the
    /// same digit in its peer bivalue cells.
    #[inline]
    fn bivalue_weak(&self, v: usize) -> &[u16] {
        &self.bpeer[self.bpeer_at[v] as usize..self.bpeer_at[v + 1] as usize]
    }

    /// The strong partners (same digit) of node `v`.
    #[inline]
    fn strongs(&self, v: usize) -> &[u16] {
        &self.strong[self.strong_at[v] as usize..self.strong_at[v + 1] as usize]
    }

    /// The links of a kind of search.
    fn adjacency(&self, links: Links) -> Adjacency<'_> {
        Adjacency { net: self, links }
    }

    /// The digit (1..=9) of node `v`.
    fn digit(&self, v: usize) -> u8 {
        (self.cand[v] % 9) as u8 + 1
    }

    /// The chain node of node `v` with polarity `on`.
    fn node(&self, v: usize, on: bool) -> Node {
        Node {
            cand: self.cand[v],
            on,
        }
    }
}

/// A word of a node set.
type Word = u64;

/// The bits of a [`Word`].
const BITS: usize = Word::BITS as usize;

/// A set of nodes of a [`Net`] (searches from them, one bit each): `W` words.
type Set<const W: usize> = [Word; W];

#[inline]
fn has<const W: usize>(set: &Set<W>, v: usize) -> bool {
    set[(v / BITS) % W] >> (v % BITS) & 1 != 0
}

#[inline]
fn or_into<const W: usize>(acc: &mut Set<W>, x: &Set<W>) {
    for w in 0..W {
        acc[w] |= x[w];
    }
}

/// The memory of the bit-parallel searches, kept from one search (and step) to the next.
#[derive(Default)]
pub(crate) struct Buffers {
    front_on: Vec<Word>,
    front_off: Vec<Word>,
    seen_on: Vec<Word>,
    seen_off: Vec<Word>,
    history: Vec<Word>,
    /// For the forcing chains: for each node, the nodes without a partner that its "on" turns off.
    dead_of: Vec<Word>,
    /// The queue of the single searches that rebuild a chain's path.
    queue: Vec<(u16, u16)>,
    /// Lists of nodes of some digits, for the searches on one digit at a time.
    digit_nodes: [Vec<u16>; 2],
}

/// The first `len` node sets of `W` words in `v`.
#[inline]
fn sets<const W: usize>(v: &[Word], len: usize) -> &[Set<W>] {
    v[..len * W].as_chunks::<W>().0
}

/// The first `len` node sets of `W` words in `v`, to change.
#[inline]
fn sets_mut<const W: usize>(v: &mut [Word], len: usize) -> &mut [Set<W>] {
    v[..len * W].as_chunks_mut::<W>().0
}

/// Breadth-first searches from many starts at once, one level at a time: for each node and polarity, the set of
/// starts that reach it. The levels are those of a search from each start alone (the starts are level 1, and
/// the polarity alternates from level to level).
///
/// Node sets are indexed modulo `64 * W` (a power of two no smaller than the number of nodes), which keeps the
/// inner loops free of bounds checks.
struct Bfs<'a, const W: usize> {
    adj: Adjacency<'a>,
    /// The number of nodes.
    n: usize,
    /// The level last computed (at most 255, as the searches of one start).
    level: usize,
    /// Whether the starts are assumed "on" (then "on" levels are odd).
    start_on: bool,
    /// For each node (`W` words each): the starts reaching it "on" / "off" for the first time at the last level of
    /// that polarity (`front_on`, `front_off`), the starts that reached it "on" / "off" so far (`seen_on`,
    /// `seen_off`); with `keep`, every level's new nodes, one level after the other (level 1 first, `n` sets a
    /// level) in `history`.
    buf: &'a mut Buffers,
    /// The nodes whose "off" / "on" the search computes; the others stay empty (but for the starts).
    off_nodes: &'a [u16],
    on_nodes: &'a [u16],
    keep: bool,
}

impl<'a, const W: usize> Bfs<'a, W> {
    const CAP: usize = BITS * W;

    /// Searches from each node of `starts` assumed `start_on`, over the `n` nodes of `adj`, computing only the
    /// "off" of `off_nodes` and the "on" of `on_nodes` (which hold the starts).
    #[allow(clippy::too_many_arguments)] // one search's parameters
    fn new(
        adj: Adjacency<'a>,
        n: usize,
        buf: &'a mut Buffers,
        starts: &[u16],
        start_on: bool,
        off_nodes: &'a [u16],
        on_nodes: &'a [u16],
        keep: bool,
    ) -> Self {
        let words = Self::CAP * W;
        for v in [
            &mut buf.front_on,
            &mut buf.front_off,
            &mut buf.seen_on,
            &mut buf.seen_off,
        ] {
            if v.len() < words {
                v.resize(words, 0);
            }
            v[..n * W].fill(0);
        }
        let (front, seen) = if start_on {
            (&mut buf.front_on, &mut buf.seen_on)
        } else {
            (&mut buf.front_off, &mut buf.seen_off)
        };
        for &v in starts {
            let v = usize::from(v);
            let i = (v % Self::CAP) * W + (v / BITS) % W;
            front[i] |= 1 << (v % BITS);
            seen[i] |= 1 << (v % BITS);
        }
        buf.history.clear();
        if keep {
            let first = if start_on {
                &buf.front_on
            } else {
                &buf.front_off
            };
            buf.history.extend_from_slice(&first[..n * W]);
        }
        Self {
            adj,
            n,
            level: 1,
            start_on,
            buf,
            off_nodes,
            on_nodes,
            keep,
        }
    }

    /// Whether the last level computed holds "on" nodes.
    fn on_level(&self) -> bool {
        (self.level % 2 == 1) == self.start_on
    }

    /// Compute the next level. For loops (`loops` given, starts "on"), the level-2 step skips the links straight
    /// back from the start's partners, and from level 5 on the starts reached "on" again are pushed to `loops`,
    /// in the order of `on_nodes`. Returns whether any node was reached for the first time.
    fn step(&mut self, loops: Option<&mut Vec<u16>>) -> bool {
        match (self.adj.links.x, self.adj.links.y) {
            (true, true) => self.step_with::<true, true>(loops),
            (true, false) => self.step_with::<true, false>(loops),
            _ => self.step_with::<false, true>(loops),
        }
    }

    /// [`Bfs::step`] with the kinds of links fixed at compile time: `LX` links within houses, `LY` within cells.
    fn step_with<const LX: bool, const LY: bool>(
        &mut self,
        mut loops: Option<&mut Vec<u16>>,
    ) -> bool {
        let cap = Self::CAP;
        self.level += 1;
        let level = self.level;
        let net = self.adj.net;
        let links = Links { x: LX, y: LY };
        let on_level = self.on_level();
        let (n, keep, start_on) = (self.n, self.keep, self.start_on);
        let (off_nodes, on_nodes) = (self.off_nodes, self.on_nodes);
        let buf = &mut *self.buf;
        let mut any: Word = 0;
        if !on_level {
            // "On" nodes turn off their weak neighbours.
            let src = sets::<W>(&buf.front_on, cap);
            let dst = sets_mut::<W>(&mut buf.front_off, cap);
            let seen = sets_mut::<W>(&mut buf.seen_off, cap);
            let exclude = level == 2 && loops.is_some();
            for &v in off_nodes {
                let v = usize::from(v);
                let mut acc: Set<W> = [0; W];
                // Without links through houses only bivalue cells are ever "on" (the starts and their partners).
                let weak = match (LX, LY) {
                    (true, true) => net.weak(v),
                    (true, false) => net.peers(v),
                    _ => net.bivalue_weak(v),
                };
                for &u in weak {
                    or_into(&mut acc, &src[usize::from(u) % cap]);
                }
                if exclude {
                    // A loop leaves its start by another way than the one that closes it.
                    if links.x {
                        for &u in net.strongs(v) {
                            let u = usize::from(u);
                            acc[(u / BITS) % W] &= !(1 << (u % BITS));
                        }
                    }
                    let o = net.other[v];
                    if links.y && o != NONE {
                        let o = usize::from(o);
                        acc[(o / BITS) % W] &= !(1 << (o % BITS));
                    }
                }
                let v = v % cap;
                // Word by word (a whole-array copy would store the words one way and load them another, which
                // stalls).
                for w in 0..W {
                    let a = acc[w] & !seen[v][w];
                    seen[v][w] |= a;
                    any |= a;
                    dst[v][w] = a;
                }
            }
        } else {
            // "Off" nodes turn on their partners.
            if level <= 3 && start_on {
                // The starts' own level is over.
                buf.front_on[..n * W].fill(0);
            }
            let src = sets::<W>(&buf.front_off, cap);
            let dst = sets_mut::<W>(&mut buf.front_on, cap);
            let seen = sets_mut::<W>(&mut buf.seen_on, cap);
            let check = level >= 5 && loops.is_some();
            for &v in on_nodes {
                let v = usize::from(v);
                let mut acc: Set<W> = [0; W];
                if links.x {
                    for &u in net.strongs(v) {
                        or_into(&mut acc, &src[usize::from(u) % cap]);
                    }
                }
                let o = net.other[v];
                if links.y && o != NONE {
                    or_into(&mut acc, &src[usize::from(o) % cap]);
                }
                if check
                    && has(&acc, v)
                    && let Some(l) = loops.as_deref_mut()
                {
                    l.push(v as u16);
                }
                let v = v % cap;
                // Word by word (a whole-array copy would store the words one way and load them another, which
                // stalls).
                for w in 0..W {
                    let a = acc[w] & !seen[v][w];
                    seen[v][w] |= a;
                    any |= a;
                    dst[v][w] = a;
                }
            }
        }
        if keep {
            let front = if on_level {
                &buf.front_on
            } else {
                &buf.front_off
            };
            buf.history.extend_from_slice(&front[..n * W]);
        }
        any != 0
    }

    /// The nodes reached "on" (`on`) or "off" for the first time at the last level of that polarity.
    fn front_of(&self, on: bool) -> &[Set<W>] {
        let v = if on {
            &self.buf.front_on
        } else {
            &self.buf.front_off
        };
        sets::<W>(v, Self::CAP)
    }

    /// The nodes reached for the first time at the last level.
    fn front(&self) -> &[Set<W>] {
        let v = if self.on_level() {
            &self.buf.front_on
        } else {
            &self.buf.front_off
        };
        sets::<W>(v, Self::CAP)
    }

    /// The starts that reached each node "on" / "off".
    fn seen(&self, on: bool) -> &[Set<W>] {
        let v = if on {
            &self.buf.seen_on
        } else {
            &self.buf.seen_off
        };
        sets::<W>(v, Self::CAP)
    }

    /// With `keep` (and starts "on"): the level at which start `s` reached node `v` with polarity `on`, 0 if
    /// never.
    fn level_of(&self, s: usize, v: usize, on: bool) -> usize {
        let per_level = self.n * W;
        let levels = self.buf.history.len() / per_level.max(1);
        let first = if on { 1 } else { 2 };
        let word = (s / BITS) % W;
        (first..=levels)
            .step_by(2)
            .find(|&l| self.buf.history[(l - 1) * per_level + v * W + word] >> (s % BITS) & 1 != 0)
            .unwrap_or(0)
    }
}

/// The shortest implication path from `start` to `target` (both included) using `links`.
fn path(
    g: &Graph,
    start: Node,
    target: Node,
    links: Links,
    queue: &mut Vec<(u16, u16)>,
) -> Vec<Node> {
    path_avoiding(g, start, target, links, &[], queue)
}

/// Like [`path`], without the steps from `start` straight to any of `skip`. `queue` is scratch space.
fn path_avoiding(
    g: &Graph,
    start: Node,
    target: Node,
    links: Links,
    skip: &[Node],
    queue: &mut Vec<(u16, u16)>,
) -> Vec<Node> {
    const ROOT: u16 = u16::MAX;
    let s = g.s;
    let idx = |n: Node| usize::from(n.cand) * 2 + usize::from(n.on);
    let node = |i: usize| Node {
        cand: (i / 2) as u16,
        on: i % 2 == 1,
    };
    // Without X links an "off" node leads on only in a bivalue cell: the others are dead ends, left out (they
    // would never be anyone's parent, so the path found is the same).
    let peer_cells = if links.x { ALL_CELLS } else { g.bivalue };
    // Breadth first, each node's successors in a fixed order: for an "on" node the other digits of its cell,
    // then its peers; for an "off" node the other digit of a bivalue cell, then its strong partners. The queue
    // holds (node, position of its parent in the queue).
    let mut seen = [0u64; (NODES * 2).div_ceil(64)];
    let mark = |seen: &mut [u64; (NODES * 2).div_ceil(64)], i: usize| {
        let fresh = seen[i / 64] >> (i % 64) & 1 == 0;
        seen[i / 64] |= 1 << (i % 64);
        fresh
    };
    queue.clear();
    mark(&mut seen, idx(start));
    queue.push((idx(start) as u16, ROOT));
    let mut head = 0usize;
    let mut found = None;
    while head < queue.len() {
        let i = usize::from(queue[head].0);
        let here = head as u16;
        head += 1;
        let n = node(i);
        if n == target {
            found = Some(here);
            break;
        }
        let mut visit = |m: Node| {
            if n == start && skip.contains(&m) {
                return;
            }
            let j = idx(m);
            if mark(&mut seen, j) {
                queue.push((j as u16, here));
            }
        };
        let (c, d) = (n.cell(), n.digit());
        if n.on {
            if links.y {
                for e in Digits(s.candidates(c) & !digit_bit(d)) {
                    visit(Node::new(c, e, false));
                }
            }
            for p in Cells(PEERS[c] & s.positions(d) & peer_cells) {
                visit(Node::new(p, d, false));
            }
        } else {
            if links.y {
                let m = s.candidates(c);
                if super::basic::pop9(m) == 2 {
                    visit(Node::new(
                        c,
                        (m & !digit_bit(d)).trailing_zeros() as u8 + 1,
                        true,
                    ));
                }
            }
            if links.x {
                for p in Cells(g.strong(d, c)) {
                    visit(Node::new(p, d, true));
                }
            }
        }
    }
    let Some(mut at) = found else {
        return vec![start, target];
    };
    let mut out = Vec::new();
    loop {
        let (i, parent) = queue[usize::from(at)];
        out.push(node(usize::from(i)));
        if parent == ROOT {
            break;
        }
        at = parent;
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
        if super::basic::pop9(m) == 2 {
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

/// Calls `$f::<W>($args)` with `W` the number of words a set of `$n` nodes needs (a power of two).
macro_rules! by_width {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match $n.div_ceil(BITS) {
            0 | 1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 | 4 => $f::<4>($($arg),*),
            5..=8 => $f::<8>($($arg),*),
            _ => $f::<16>($($arg),*),
        }
    };
}

/// SE's length bonus (see [`length_bonus`]) for every chain length up to 255.
const LENGTH_BONUS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = length_bonus(k);
        k += 1;
    }
    t
};

/// The rating of a chain of technique base `base` and `k` nodes.
fn chain_rating(base: Rating, k: usize) -> Rating {
    Rating(base.0.saturating_add(LENGTH_BONUS[k.min(255)]))
}

/// The longest chain of a technique with base rating `base` worth finding: rated at most `max`, and better than
/// `best` (rating, then length), the best chain found so far. 0 when none is. (Both conditions hold for every
/// length up to some point, so the answer is found by bisection.)
fn longest_useful(base: Rating, max: Rating, best: Option<(Rating, usize)>) -> usize {
    let ok = |k: usize| {
        let r = chain_rating(base, k);
        r <= max && best.is_none_or(|b| (r, k) < b)
    };
    let (mut lo, mut hi) = (0usize, 254usize);
    if ok(hi) {
        return hi;
    }
    // ok(lo) (or lo == 0) and !ok(hi).
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
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
fn unary(
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

/// The best multiple forcing chain: (rating, complexity, technique, branch starts, conclusion, house).
type Multiple = (Rating, usize, Technique, Vec<Node>, Node, usize);

/// Cell and region forcing chains: every branch leads to the same conclusion.
fn multiple(
    g: &Graph,
    net: &Net,
    max: Rating,
    allowed: TechniqueSet,
    buf: &mut Buffers,
) -> Option<Multiple> {
    let base = Technique::CellForcingChains.base_rating();
    let cell_ok = allowed.contains(Technique::CellForcingChains);
    let region_ok = allowed.contains(Technique::RegionForcingChains);
    if base > max || !(cell_ok || region_ok) {
        return None;
    }
    by_width!(net.len(), multiple_w(g, net, max, cell_ok, region_ok, buf))
}

fn multiple_w<const W: usize>(
    g: &Graph,
    net: &Net,
    max: Rating,
    cell_ok: bool,
    region_ok: bool,
    buf: &mut Buffers,
) -> Option<Multiple> {
    let s = g.s;
    let n = net.len();
    let base = Technique::CellForcingChains.base_rating();
    let adj = net.adjacency(XY);
    let (all, live) = (net.all(), net.live_nodes(XY));
    // The whole consequences of every candidate assumed true, with every level kept.
    let mut bfs = Bfs::<W>::new(adj, n, buf, all, true, all, live, true);
    while bfs.level < usize::from(u8::MAX) && bfs.step(None) {}
    // For each start, the nodes it reaches "on" and "off" (the searches' results turned around).
    let words = n.div_ceil(64);
    let mut reach_on = vec![0u64; n * words];
    let mut reach_off = vec![0u64; n * words];
    let cap = Bfs::<W>::CAP;
    for (reach, seen) in [
        (&mut reach_on, bfs.seen(true)),
        (&mut reach_off, bfs.seen(false)),
    ] {
        // 64 nodes by 64 starts at a time.
        for vb in 0..words {
            for sb in 0..words {
                let mut block = [0u64; 64];
                for (i, row) in block.iter_mut().enumerate() {
                    let v = vb * 64 + i;
                    if v < n {
                        *row = seen[v % cap][sb % W];
                    }
                }
                transpose64(&mut block);
                for (j, &row) in block.iter().enumerate() {
                    let start = sb * 64 + j;
                    if start < n {
                        reach[start * words + vb] = row;
                    }
                }
            }
        }
    }
    // Where each node comes in digit order (then cell order).
    let mut rank = vec![0u16; n];
    let mut i = 0;
    for d in 1..=9u8 {
        for c in Cells(s.positions(d)) {
            rank[usize::from(net.index[c * 9 + usize::from(d - 1)])] = i;
            i += 1;
        }
    }
    let mut best: Option<Multiple> = None;
    let mut common = vec![0u64; words];
    let mut consider = |t: Technique, branches: &[usize], house: usize| {
        // Every branch has at least one node: a chain no shorter than the best cannot beat it (with the same
        // base, a longer chain is rated no lower).
        if best.as_ref().is_some_and(|b| branches.len() >= b.1) {
            return;
        }
        for on in [true, false] {
            let reach = if on { &reach_on } else { &reach_off };
            common.fill(!0);
            for &b in branches {
                for (c, &r) in common.iter_mut().zip(&reach[b * words..(b + 1) * words]) {
                    *c &= r;
                }
            }
            // The common conclusion of the shortest branches, the first in digit order (then cell order) among
            // equals: with the same base, a shorter chain is rated no higher, so only a shorter one than the best
            // beats it (the sums stop as soon as they cannot).
            let limit = best.as_ref().map_or(usize::MAX, |b| b.1);
            let mut pick: Option<(usize, u16, usize)> = None;
            for (w, &word) in common.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let v = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    let bound = pick.map_or(limit, |p| limit.min(p.0 + 1));
                    let mut k = 0;
                    for &b in branches {
                        k += bfs.level_of(b, v, on);
                        if k >= bound {
                            break;
                        }
                    }
                    if k < bound && pick.is_none_or(|p| (k, rank[v]) < (p.0, p.1)) {
                        pick = Some((k, rank[v], v));
                    }
                }
            }
            if let Some((k, _, v)) = pick {
                let r = chain_rating(base, k);
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
                if m & m.wrapping_sub(1) == 0 {
                    continue;
                }
                // SE starts a region's chains from its first place, and only from cells with three candidates or
                // more (bivalue cells are left to the simpler chains).
                let first = HOUSE_CELLS[h]
                    .iter()
                    .map(|&c| usize::from(c))
                    .find(|&c| m & bit(c) != 0);
                if first.is_none_or(|c| super::basic::pop9(s.candidates(c)) < 3) {
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

/// Turns a 64 × 64 bit matrix around: bit `c` of row `r` goes to bit `r` of row `c`. Blocks of half the size
/// trade places across the diagonal, then their halves within them, and so on.
fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    // The columns of the first half of each block of 2j.
    let mut m: u64 = 0x0000_0000_ffff_ffff;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            // The next row with bit j clear.
            k = ((k | j) + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
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

/// The step of a forcing chain or cycle found by [`unary`].
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
        let found = super::super::find_step(
            &Candidates::new(),
            &mut step,
            Rating(u8::MAX),
            TechniqueSet::ALL,
        );
        assert!(!found);
    }

    #[test]
    fn transpose64_turns_the_matrix_around() {
        // A pseudo-random matrix (xorshift), checked bit by bit.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut a = [0u64; 64];
        for row in &mut a {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *row = x;
        }
        let mut t = a;
        transpose64(&mut t);
        for r in 0..64 {
            for c in 0..64 {
                assert_eq!(a[r] >> c & 1, t[c] >> r & 1, "row {r} column {c}");
            }
        }
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
