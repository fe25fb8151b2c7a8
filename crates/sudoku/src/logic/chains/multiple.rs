//! Cell and region forcing chains (static): every candidate of a cell, or every place of a digit in a house,
//! leads to the same conclusion.

use crate::logic::step::{Rating, Technique, TechniqueSet};
use crate::logic::tables::{Cells, HOUSE, HOUSE_CELLS, bit};

use super::bfs::{Bfs, Buffers};
use super::graph::{Graph, Net, Node, XY};
use super::length::chain_rating;

/// The best multiple forcing chain: (rating, complexity, technique, branch starts, conclusion, house).
type Multiple = (Rating, usize, Technique, Vec<Node>, Node, usize);

/// Cell and region forcing chains: every branch leads to the same conclusion.
pub(super) fn multiple(
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
                if first.is_none_or(|c| crate::logic::basic::pop9(s.candidates(c)) < 3) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
