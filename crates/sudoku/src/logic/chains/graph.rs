//! The implication graph of a state and its network of numbered nodes ([`Net`]): the nodes, their links, which
//! links a search may use, and the bit sets of nodes the searches work on.

use crate::logic::state::Candidates;
use crate::logic::step::{Candidate, ChainNode};
use crate::logic::tables::{CELL_HOUSES, CellSet, Cells, Digits, HOUSE, PEERS, bit};

/// Number of candidates (cell, digit) of a grid.
pub(super) const NODES: usize = 729;

/// The implication graph of a state.
pub(super) struct Graph<'a> {
    pub(super) s: &'a Candidates,
    /// Cells with exactly two candidates.
    pub(super) bivalue: CellSet,
}

/// Whether a set has exactly two members (without a population count, which is slow on baseline x86-64).
#[inline]
pub(super) fn two(m: u128) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

impl<'a> Graph<'a> {
    pub(super) fn new(s: &'a Candidates) -> Self {
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
    pub(super) fn strong(&self, d: u8, cell: usize) -> CellSet {
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
pub(super) struct Node {
    pub(super) cand: u16,
    pub(super) on: bool,
}

impl Node {
    pub(super) fn new(cell: usize, d: u8, on: bool) -> Self {
        Self {
            cand: (cell * 9 + usize::from(d - 1)) as u16,
            on,
        }
    }
    pub(super) fn cell(self) -> usize {
        usize::from(self.cand) / 9
    }
    pub(super) fn digit(self) -> u8 {
        (self.cand % 9) as u8 + 1
    }
    pub(super) fn chain_node(self) -> ChainNode {
        ChainNode {
            candidate: Candidate::new(self.cell(), self.digit()),
            on: self.on,
        }
    }
}

/// Which links a search may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Links {
    /// Links within a cell (Y links).
    pub(super) y: bool,
    /// Strong links within a house (X links, "off" to "on").
    pub(super) x: bool,
}

pub(super) const X: Links = Links { y: false, x: true };
pub(super) const Y: Links = Links { y: true, x: false };
pub(super) const XY: Links = Links { y: true, x: true };

/// No node.
pub(super) const NONE: u16 = u16::MAX;

/// The links of one kind of chains over a [`Net`].
#[derive(Clone, Copy)]
pub(super) struct Adjacency<'a> {
    pub(super) net: &'a Net,
    pub(super) links: Links,
}

impl Adjacency<'_> {
    /// Whether one of the partners of node `v` is in `set`.
    pub(super) fn partner_in<const W: usize>(&self, v: usize, set: &Set<W>) -> bool {
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
    pub(super) index: Vec<u16>,
    /// Candidate (`cell * 9 + d - 1`) of each node.
    pub(super) cand: Vec<u16>,
    /// The nodes of each node's cell: `first..end`.
    pub(super) mates: Vec<(u16, u16)>,
    /// The other node of a bivalue cell, [`NONE`] in other cells.
    pub(super) other: Vec<u16>,
    /// For each node, the other nodes of its cell then the same digit in its peer cells (its weak links):
    /// `peer[weak_at[v]..weak_at[v + 1]]`, the peers from `peer_at[v]` on.
    weak_at: Vec<u32>,
    peer_at: Vec<u32>,
    peer: Vec<u16>,
    /// For each node, its strong partners (the same digit's only other place in a house): `strong[strong_at[v]..]`.
    strong_at: Vec<u32>,
    pub(super) strong: Vec<u16>,
    /// For each node of a bivalue cell, the cell's other node then the same digit in its peer bivalue cells:
    /// `bpeer[bpeer_at[v]..bpeer_at[v + 1]]`.
    bpeer_at: Vec<u32>,
    bpeer: Vec<u16>,
    /// Every node.
    pub(super) all: Vec<u16>,
    /// The nodes with a partner for links within houses, within cells, and both.
    pub(super) live: [Vec<u16>; 3],
    /// The number of nodes.
    pub(super) n: usize,
    /// The length of each list of `live`.
    live_len: [usize; 3],
}

impl Net {
    /// The network of the state of `g`, reusing this one's memory.
    pub(super) fn rebuild(&mut self, g: &Graph) {
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
            let end = first + crate::logic::basic::pop9(m) as u16;
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
    pub(super) fn live_nodes(&self, links: Links) -> &[u16] {
        let i = match (links.x, links.y) {
            (true, false) => 0,
            (false, _) => 1,
            (true, true) => 2,
        };
        &self.live[i][..self.live_len[i]]
    }

    /// The number of nodes.
    pub(super) fn len(&self) -> usize {
        self.n
    }

    /// Every node, in order.
    pub(super) fn all(&self) -> &[u16] {
        &self.all[..self.n]
    }

    /// The same digit in the peer cells of node `v`.
    #[inline]
    pub(super) fn peers(&self, v: usize) -> &[u16] {
        &self.peer[self.peer_at[v] as usize..self.weak_at[v + 1] as usize]
    }

    /// The nodes node `v` turns off: the other nodes of its cell, then the same digit in its peer cells.
    #[inline]
    pub(super) fn weak(&self, v: usize) -> &[u16] {
        &self.peer[self.weak_at[v] as usize..self.weak_at[v + 1] as usize]
    }

    /// For a node of a bivalue cell, the nodes it turns off in bivalue cells: its cell's other node, then the
    /// same digit in its peer bivalue cells.
    #[inline]
    pub(super) fn bivalue_weak(&self, v: usize) -> &[u16] {
        &self.bpeer[self.bpeer_at[v] as usize..self.bpeer_at[v + 1] as usize]
    }

    /// The strong partners (same digit) of node `v`.
    #[inline]
    pub(super) fn strongs(&self, v: usize) -> &[u16] {
        &self.strong[self.strong_at[v] as usize..self.strong_at[v + 1] as usize]
    }

    /// The links of a kind of search.
    pub(super) fn adjacency(&self, links: Links) -> Adjacency<'_> {
        Adjacency { net: self, links }
    }

    /// The digit (1..=9) of node `v`.
    pub(super) fn digit(&self, v: usize) -> u8 {
        (self.cand[v] % 9) as u8 + 1
    }

    /// The chain node of node `v` with polarity `on`.
    pub(super) fn node(&self, v: usize, on: bool) -> Node {
        Node {
            cand: self.cand[v],
            on,
        }
    }
}

/// A word of a node set.
pub(super) type Word = u64;

/// The bits of a [`Word`].
pub(super) const BITS: usize = Word::BITS as usize;

/// A set of nodes of a [`Net`] (searches from them, one bit each): `W` words.
pub(super) type Set<const W: usize> = [Word; W];

#[inline]
pub(super) fn has<const W: usize>(set: &Set<W>, v: usize) -> bool {
    set[(v / BITS) % W] >> (v % BITS) & 1 != 0
}

#[inline]
pub(super) fn or_into<const W: usize>(acc: &mut Set<W>, x: &Set<W>) {
    for w in 0..W {
        acc[w] |= x[w];
    }
}
