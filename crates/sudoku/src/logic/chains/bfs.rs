//! Breadth-first searches from many starts at once over a [`Net`](super::graph::Net) ([`Bfs`]), their memory
//! ([`Buffers`]), and the single searches that rebuild one chain's path.

use crate::logic::tables::{ALL_CELLS, Cells, Digits, PEERS, digit_bit};

use super::graph::{Adjacency, BITS, Graph, Links, NODES, NONE, Node, Set, Word, has, or_into};

/// The memory of the bit-parallel searches, kept from one search (and step) to the next.
#[derive(Default)]
pub(crate) struct Buffers {
    front_on: Vec<Word>,
    front_off: Vec<Word>,
    seen_on: Vec<Word>,
    seen_off: Vec<Word>,
    history: Vec<Word>,
    /// For the forcing chains: for each node, the nodes without a partner that its "on" turns off.
    pub(super) dead_of: Vec<Word>,
    /// The queue of the single searches that rebuild a chain's path.
    pub(super) queue: Vec<(u16, u16)>,
    /// Lists of nodes of some digits, for the searches on one digit at a time.
    pub(super) digit_nodes: [Vec<u16>; 2],
}

/// The first `len` node sets of `W` words in `v`.
#[inline]
fn sets<const W: usize>(v: &[Word], len: usize) -> &[Set<W>] {
    v[..len * W].as_chunks::<W>().0
}

/// The first `len` node sets of `W` words in `v`, to change.
#[inline]
pub(super) fn sets_mut<const W: usize>(v: &mut [Word], len: usize) -> &mut [Set<W>] {
    v[..len * W].as_chunks_mut::<W>().0
}

/// Breadth-first searches from many starts at once, one level at a time: for each node and polarity, the set of
/// starts that reach it. The levels are those of a search from each start alone (the starts are level 1, and
/// the polarity alternates from level to level).
///
/// Node sets are indexed modulo `64 * W` (a power of two no smaller than the number of nodes), which keeps the
/// inner loops free of bounds checks.
pub(super) struct Bfs<'a, const W: usize> {
    adj: Adjacency<'a>,
    /// The number of nodes.
    pub(super) n: usize,
    /// The level last computed (at most 255, as the searches of one start).
    pub(super) level: usize,
    /// Whether the starts are assumed "on" (then "on" levels are odd).
    start_on: bool,
    /// For each node (`W` words each): the starts reaching it "on" / "off" for the first time at the last level of
    /// that polarity (`front_on`, `front_off`), the starts that reached it "on" / "off" so far (`seen_on`,
    /// `seen_off`); with `keep`, every level's new nodes, one level after the other (level 1 first, `n` sets a
    /// level) in `history`.
    pub(super) buf: &'a mut Buffers,
    /// The nodes whose "off" / "on" the search computes; the others stay empty (but for the starts).
    off_nodes: &'a [u16],
    on_nodes: &'a [u16],
    keep: bool,
}

impl<'a, const W: usize> Bfs<'a, W> {
    pub(super) const CAP: usize = BITS * W;

    /// Searches from each node of `starts` assumed `start_on`, over the `n` nodes of `adj`, computing only the
    /// "off" of `off_nodes` and the "on" of `on_nodes` (which hold the starts).
    #[allow(clippy::too_many_arguments)] // one search's parameters
    pub(super) fn new(
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
    pub(super) fn on_level(&self) -> bool {
        (self.level % 2 == 1) == self.start_on
    }

    /// Compute the next level. For loops (`loops` given, starts "on"), the level-2 step skips the links straight
    /// back from the start's partners, and from level 5 on the starts reached "on" again are pushed to `loops`,
    /// in the order of `on_nodes`. Returns whether any node was reached for the first time.
    pub(super) fn step(&mut self, loops: Option<&mut Vec<u16>>) -> bool {
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
    pub(super) fn front_of(&self, on: bool) -> &[Set<W>] {
        let v = if on {
            &self.buf.front_on
        } else {
            &self.buf.front_off
        };
        sets::<W>(v, Self::CAP)
    }

    /// The nodes reached for the first time at the last level.
    pub(super) fn front(&self) -> &[Set<W>] {
        let v = if self.on_level() {
            &self.buf.front_on
        } else {
            &self.buf.front_off
        };
        sets::<W>(v, Self::CAP)
    }

    /// The starts that reached each node "on" / "off".
    pub(super) fn seen(&self, on: bool) -> &[Set<W>] {
        let v = if on {
            &self.buf.seen_on
        } else {
            &self.buf.seen_off
        };
        sets::<W>(v, Self::CAP)
    }

    /// With `keep` (and starts "on"): the level at which start `s` reached node `v` with polarity `on`, 0 if
    /// never.
    pub(super) fn level_of(&self, s: usize, v: usize, on: bool) -> usize {
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
pub(super) fn path(
    g: &Graph,
    start: Node,
    target: Node,
    links: Links,
    queue: &mut Vec<(u16, u16)>,
) -> Vec<Node> {
    path_avoiding(g, start, target, links, &[], queue)
}

/// Like [`path`], without the steps from `start` straight to any of `skip`. `queue` is scratch space.
pub(super) fn path_avoiding(
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
                if crate::logic::basic::pop9(m) == 2 {
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
