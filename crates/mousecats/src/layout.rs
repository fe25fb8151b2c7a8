//! The perfect index of the cats' sets on a board of any size, level by level.
//!
//! A cat move takes one cat one row down, so the sum of the cats' rows (the *level* of a set) falls by
//! exactly one with every cat move and never rises. The solver and the reachability count work one level
//! at a time, so the sets are numbered within their level: the *rank* of a set is its position among the
//! sets of its level in colex order (the highest dark square first, then the next, …). With
//! `count(i, c, s)`, the number of sets of `i` dark squares below dark index `c` whose rows add up to `s`,
//! the rank of the set `c_1 < … < c_k` is `Σ_j count(j, c_j, s_j)` where `s_j` is the row sum of
//! `c_1 … c_j`: one table lookup per cat, no search, no hashing. The sets of all levels together, lowest
//! level first, are numbered by `level_start[level] + rank`; on 8x8 this is exactly the numbering of the
//! classic solver (colex order, stably sorted by level).

use std::sync::OnceLock;

use crate::size::{BoardSize, Geometry};
use crate::word::Word;

/// The numbering of cat sets for one board size.
#[derive(Debug)]
pub struct Layout {
    size: BoardSize,
    /// Cats, N/2.
    k: usize,
    /// Dark squares.
    d: usize,
    /// Levels: row sums 0 ..= K (N - 1).
    levels: usize,
    /// `count(i, c, s)` at `(i * (d + 1) + c) * levels + s`.
    count: Vec<u64>,
    /// Sets per level.
    level_len: Vec<u64>,
    /// Sets in all lower levels.
    level_start: Vec<u64>,
    /// The sets of each level in rank order, kept for the small boards (8x8 and below) where they are
    /// few and every solve walks them.
    small_sets: OnceLock<Vec<Vec<u32>>>,
    /// On the small boards, a faster way to the same ranks: the colex rank of a set among all sets (a sum
    /// of binomial coefficients, no row sums) looked up in a table of ranks within levels.
    small_colex: OnceLock<SmallColex>,
}

/// Ranks through colex order, for boards of up to 32 dark squares (8x8 and below).
#[derive(Debug)]
pub(crate) struct SmallColex {
    /// `binom[c * 8 + i]` = C(c, i + 1).
    pub binom: Vec<u32>,
    /// The rank within its level of the set with each colex rank.
    pub rank_of_colex: Vec<u32>,
}

impl Layout {
    /// The layout of `size`, built once per process.
    pub fn of(size: BoardSize) -> &'static Layout {
        static ALL: [OnceLock<Layout>; 7] = [const { OnceLock::new() }; 7];
        ALL[size.ordinal()].get_or_init(|| Layout::build(size))
    }

    fn build(size: BoardSize) -> Layout {
        let geo = size.geometry();
        let k = usize::from(size.cats());
        let d = usize::from(size.dark_squares());
        let levels = k * (usize::from(size.n()) - 1) + 1;
        let mut count = vec![0u64; (k + 1) * (d + 1) * levels];
        let at = |i: usize, c: usize, s: usize| (i * (d + 1) + c) * levels + s;
        for c in 0..=d {
            count[at(0, c, 0)] = 1;
        }
        for i in 1..=k {
            for c in 0..d {
                let row = usize::from(geo.row[c]);
                for s in 0..levels {
                    let without = count[at(i, c, s)];
                    let with = if s >= row {
                        count[at(i - 1, c, s - row)]
                    } else {
                        0
                    };
                    count[at(i, c + 1, s)] = without + with;
                }
            }
        }
        let level_len: Vec<u64> = (0..levels).map(|s| count[at(k, d, s)]).collect();
        let mut level_start = vec![0u64; levels + 1];
        for s in 0..levels {
            level_start[s + 1] = level_start[s] + level_len[s];
        }
        Layout {
            size,
            k,
            d,
            levels,
            count,
            level_len,
            level_start,
            small_sets: OnceLock::new(),
            small_colex: OnceLock::new(),
        }
    }

    /// The colex tables of a board with at most 32 dark squares.
    pub(crate) fn small_colex(&self) -> Option<&SmallColex> {
        if self.d > 32 {
            return None;
        }
        Some(self.small_colex.get_or_init(|| {
            let d = self.d;
            let mut binom = vec![0u32; 33 * 8];
            for c in 0..=d {
                for i in 0..8 {
                    // C(c, i + 1), exactly; 0 when c < i + 1.
                    let k = i as u64 + 1;
                    let mut v: u64 = 1;
                    for j in 0..k {
                        v = v * (c as u64).saturating_sub(j) / (j + 1);
                    }
                    binom[c * 8 + i] = v as u32;
                }
            }
            let mut rank_of_colex = vec![0u32; self.sets() as usize];
            for level in 0..self.levels {
                let mut r = 0u32;
                self.for_each_set(level, |set| {
                    let mut colex = 0usize;
                    let mut rest = set;
                    let mut i = 0;
                    while rest != 0 {
                        colex += binom[rest.trailing_zeros() as usize * 8 + i] as usize;
                        rest &= rest - 1;
                        i += 1;
                    }
                    rank_of_colex[colex] = r;
                    r += 1;
                });
            }
            SmallColex {
                binom,
                rank_of_colex,
            }
        }))
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The number of levels, K (N - 1) + 1 (row sums from 0 to K (N - 1)).
    pub fn levels(&self) -> usize {
        self.levels
    }

    /// Sets of `level` cats' row sum.
    pub fn level_len(&self, level: usize) -> u64 {
        self.level_len[level]
    }

    /// The number of sets in all levels below `level`.
    pub fn level_start(&self, level: usize) -> u64 {
        self.level_start[level]
    }

    /// All cat sets, C(N²/2, N/2).
    pub fn sets(&self) -> u64 {
        self.level_start[self.levels]
    }

    /// The largest level.
    pub fn widest_level(&self) -> u64 {
        self.level_len.iter().copied().max().unwrap_or(0)
    }

    /// States: sets × free squares for the mouse × 2 sides to move.
    pub fn states(&self) -> u128 {
        u128::from(self.sets()) * (self.d - self.k) as u128 * 2
    }

    #[inline(always)]
    fn at(&self, i: usize, c: usize, s: usize) -> usize {
        (i * (self.d + 1) + c) * self.levels + s
    }

    /// The level (row sum) of a set of dark squares.
    #[inline]
    pub fn level_of(&self, set: u128) -> usize {
        let geo = self.size.geometry();
        let mut s = 0usize;
        let mut rest = set;
        while rest != 0 {
            s += usize::from(geo.row[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        s
    }

    /// The rank of a set of exactly N/2 dark squares within its level.
    #[inline]
    pub fn rank(&self, set: u128) -> u64 {
        self.rank_in(self.size.geometry(), set)
    }

    #[inline(always)]
    pub(crate) fn rank_in(&self, geo: &Geometry, set: u128) -> u64 {
        let mut r = 0;
        let mut s = 0usize;
        let mut rest = set;
        let mut i = 1;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            s += usize::from(geo.row[c]);
            r += self.count[self.at(i, c, s)];
            i += 1;
        }
        r
    }

    /// The counting table, `count(i, c, s)` at `(i * (N²/2 + 1) + c) * levels + s`.
    pub(crate) fn count_table(&self) -> &[u64] {
        &self.count
    }

    /// The set of `level` with rank `rank`, or `None` if there is none.
    pub fn unrank(&self, level: usize, rank: u64) -> Option<u128> {
        if level >= self.levels || rank >= self.level_len[level] {
            return None;
        }
        let geo = self.size.geometry();
        let mut set = 0u128;
        let mut r = rank;
        let mut s = level;
        let mut limit = self.d;
        for i in (1..=self.k).rev() {
            // The largest c below `limit` with count(i, c, s) <= r.
            let mut c = limit - 1;
            loop {
                let below = self.count[self.at(i, c, s)];
                let row = usize::from(geo.row[c]);
                if below <= r && row <= s && self.count[self.at(i - 1, c, s - row)] > r - below {
                    r -= below;
                    s -= row;
                    set |= 1 << c;
                    limit = c;
                    break;
                }
                if c == 0 {
                    return None;
                }
                c -= 1;
            }
        }
        Some(set)
    }

    /// Call `f` with every set of `level` in rank order.
    pub fn for_each_set(&self, level: usize, mut f: impl FnMut(u128)) {
        if level < self.levels {
            self.walk(self.size.geometry(), self.k, self.d, level, 0, &mut f);
        }
    }

    /// The sets of `i` more dark squares below `limit` with row sum `s`, added to `prefix`, in colex order.
    fn walk(
        &self,
        geo: &Geometry,
        i: usize,
        limit: usize,
        s: usize,
        prefix: u128,
        f: &mut impl FnMut(u128),
    ) {
        if i == 0 {
            if s == 0 {
                f(prefix);
            }
            return;
        }
        for c in (i - 1)..limit {
            let row = usize::from(geo.row[c]);
            if row > s {
                break;
            }
            if self.count[self.at(i - 1, c, s - row)] > 0 {
                self.walk(geo, i - 1, c, s - row, prefix | 1 << c, f);
            }
        }
    }

    /// The sets of `level` in rank order.
    pub fn level_sets(&self, level: usize) -> Vec<u128> {
        let mut v = Vec::with_capacity(self.level_len.get(level).map_or(0, |&n| n as usize));
        self.for_each_set(level, |s| v.push(s));
        v
    }

    /// The sets of every level, kept (only for boards up to 8x8, whose sets fit 32 bits).
    pub(crate) fn small_level_sets(&self) -> Option<&[Vec<u32>]> {
        if self.d > 32 {
            return None;
        }
        Some(self.small_sets.get_or_init(|| {
            (0..self.levels)
                .map(|l| self.level_sets(l).into_iter().map(|s| s as u32).collect())
                .collect()
        }))
    }
}

/// The rank of a set of exactly `H` cats on a board with `H` dark squares per row and `D` in all: the
/// same as [`Layout::rank`], with the sizes known at compile time (the loop unrolled, the index arithmetic
/// folded) and through the colex tables on the small boards.
#[inline(always)]
pub(crate) fn rank_const<const H: usize, const D: usize, W: Word>(
    count: &[u64],
    small: Option<&SmallColex>,
    set: W,
) -> usize {
    let mut rest = set;
    if D <= 32
        && let Some(t) = small
    {
        let mut colex = 0usize;
        for i in 0..H {
            let c = rest.tz() as usize;
            rest = rest.clear_lowest();
            colex += t.binom.get(c * 8 + i).copied().unwrap_or(0) as usize;
        }
        return t.rank_of_colex.get(colex).copied().unwrap_or(0) as usize;
    }
    let levels = H * (2 * H - 1) + 1;
    let mut r = 0u64;
    let mut s = 0usize;
    for i in 1..=H {
        let c = rest.tz() as usize;
        rest = rest.clear_lowest();
        s += c / H;
        r += count
            .get((i * (D + 1) + c) * levels + s)
            .copied()
            .unwrap_or(0);
    }
    r as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binom(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |c, j| c * (n - j) / (j + 1))
    }

    #[test]
    fn ranks_are_a_bijection_on_small_boards() {
        for n in [4, 6, 8] {
            let size = BoardSize::new(n).unwrap();
            let layout = Layout::of(size);
            let d = u64::from(size.dark_squares());
            let k = u64::from(size.cats());
            assert_eq!(layout.sets(), binom(d, k), "{size}");
            for level in 0..layout.levels() {
                let mut next = 0;
                layout.for_each_set(level, |set| {
                    assert_eq!(set.count_ones() as u64, k);
                    assert_eq!(layout.level_of(set), level);
                    assert_eq!(layout.rank(set), next, "{size} level {level}");
                    assert_eq!(layout.unrank(level, next), Some(set));
                    next += 1;
                });
                assert_eq!(next, layout.level_len(level));
                assert_eq!(layout.unrank(level, next), None);
            }
        }
    }

    #[test]
    fn large_boards_count_every_set() {
        for n in [10, 12, 14, 16] {
            let size = BoardSize::new(n).unwrap();
            let layout = Layout::of(size);
            let d = u64::from(size.dark_squares());
            let k = u64::from(size.cats());
            assert_eq!(u128::from(layout.sets()), {
                // C(d, k) may pass 2^64 only beyond 16x16; compute in u128.
                let mut c: u128 = 1;
                for j in 0..u128::from(k) {
                    c = c * (u128::from(d) - j) / (j + 1);
                }
                c
            });
            // Spot checks: unrank then rank.
            for level in [
                0,
                layout.levels() / 3,
                layout.levels() / 2,
                layout.levels() - 1,
            ] {
                let len = layout.level_len(level);
                for r in [0, len / 7, len / 2, len.saturating_sub(1)] {
                    let set = layout.unrank(level, r).unwrap();
                    assert_eq!(layout.rank(set), r);
                    assert_eq!(layout.level_of(set), level);
                }
            }
        }
    }
}
