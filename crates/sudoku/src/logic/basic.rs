//! The techniques short of chains: singles, locked candidates, naked and hidden subsets, fish and wings.
//!
//! Each finder looks at a [`Candidates`] state and, when its pattern is present and makes progress, fills a
//! [`Step`] and returns `true`. Houses are searched in Sudoku Explainer's order (boxes, then columns, then rows) so
//! that the first step found is the one SE would report.

// Per-digit and per-house arrays are indexed in parallel; index loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::state::Candidates;
use super::step::{Candidate, Step, Technique};
use super::tables::{CellSet, Cells, Digits, HOUSE, HOUSE_CELLS, PEERS, bit, digit_bit, single};

/// Houses in Sudoku Explainer's search order: boxes, columns, rows.
pub(crate) const SE_HOUSE_ORDER: [u8; 27] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7,
    8,
];

const ALL_DIGITS: u16 = 0x1ff;

/// Where a finder has to look: the digits and cells that changed since it last searched the whole grid in vain.
///
/// A locked candidate or fish depends only on the places of its digit, a naked or hidden subset only on
/// the candidates of its house's cells, and a wing only on its three cells' candidates (its eliminations can only
/// shrink while they stay the same). So a pattern that was absent can only appear where something changed: the
/// finders skip the digits, houses and cells outside the scope, and find the same first instance as a whole search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scope {
    /// Digits whose places changed (bit `d - 1`).
    pub(crate) digits: u16,
    /// Cells whose candidates changed.
    pub(crate) cells: CellSet,
}

impl Scope {
    /// The whole grid.
    pub(crate) const ALL: Scope = Scope {
        digits: ALL_DIGITS,
        cells: super::tables::ALL_CELLS,
    };
    /// Nowhere.
    pub(crate) const NONE: Scope = Scope {
        digits: 0,
        cells: 0,
    };

    /// This scope and `other`'s.
    pub(crate) fn union(self, other: Scope) -> Scope {
        Scope {
            digits: self.digits | other.digits,
            cells: self.cells | other.cells,
        }
    }

    #[inline]
    fn digit(self, d: u8) -> bool {
        self.digits & digit_bit(d) != 0
    }

    #[inline]
    fn house(self, h: usize) -> bool {
        self.cells & HOUSE[h] != 0
    }
}

/// Every full house (the last empty cell of a house). Several placements, `houses` parallel to `placements`.
pub(crate) fn full_houses(s: &Candidates, step: &mut Step) -> bool {
    step.start(Technique::FullHouse);
    for &h in &SE_HOUSE_ORDER {
        let h = usize::from(h);
        let empty = s.unsolved() & HOUSE[h];
        if single(empty) {
            let cell = empty.trailing_zeros() as usize;
            let missing = !s.placed_in(h) & ALL_DIGITS;
            if single9(missing) {
                push_single(step, cell, missing.trailing_zeros() as u8 + 1, h);
            }
        }
    }
    !step.placements.is_empty()
}

/// Every hidden single in a box (`line == false`) or in a row or column (`line == true`).
pub(crate) fn hidden_singles(s: &Candidates, step: &mut Step, line: bool) -> bool {
    step.start(if line {
        Technique::HiddenSingleLine
    } else {
        Technique::HiddenSingleBox
    });
    let houses = if line {
        &SE_HOUSE_ORDER[9..]
    } else {
        &SE_HOUSE_ORDER[..9]
    };
    for &h in houses {
        let h = usize::from(h);
        for d in Digits(!s.placed_in(h) & ALL_DIGITS) {
            let m = s.positions(d) & HOUSE[h];
            if single(m) {
                push_single(step, m.trailing_zeros() as usize, d, h);
            }
        }
    }
    !step.placements.is_empty()
}

/// Every naked single.
pub(crate) fn naked_singles(s: &Candidates, step: &mut Step) -> bool {
    step.start(Technique::NakedSingle);
    for cell in Cells(s.unsolved()) {
        let m = s.candidates(cell);
        if single9(m) {
            push_single(step, cell, m.trailing_zeros() as u8 + 1, 0);
        }
    }
    !step.placements.is_empty()
}

fn push_single(step: &mut Step, cell: usize, d: u8, house: usize) {
    if step
        .placements
        .iter()
        .any(|p| usize::from(p.cell) == cell && p.digit == d)
    {
        return;
    }
    step.placements.push(Candidate::new(cell, d));
    step.houses.push(house as u8);
}

/// Where locked candidates are, for one state: for pointing along box columns, pointing along box rows, claiming in
/// columns and claiming in rows (in that order), and each digit, the boxes or lines (bit `i` for box or line `i`)
/// whose places of the digit lie in one line or box and leave places outside it. The four kinds of
/// [`locked`] search only there.
pub(crate) struct LockedSites([[u16; 9]; 4]);

impl LockedSites {
    /// The sites of the state whose house views are `views`, for the digits in `digits` (bit `d - 1`; the other
    /// digits get none: [`locked`] looks only at the digits of its scope).
    pub(crate) fn new(views: &[HouseView; 27], digits: u16) -> Self {
        let mut t = [[0u16; 9]; 4];
        for di in 0..9 {
            if digits & 1 << di == 0 {
                continue;
            }
            let hp = |h: usize| views[h].pos[di];
            for i in 0..9 {
                let (band, stack) = (i / 3, i % 3);
                let m = hp(18 + i);
                if m & m.wrapping_sub(1) != 0 {
                    let k = STRIDE3_OF[usize::from(m)];
                    if k != u8::MAX
                        && hp(9 + stack * 3 + usize::from(k)) & !(0o7 << (3 * band)) != 0
                    {
                        t[0][di] |= 1 << i;
                    }
                    let k = TRIPLE_OF[usize::from(m)];
                    if k != u8::MAX && hp(band * 3 + usize::from(k)) & !(0o7 << (3 * stack)) != 0 {
                        t[1][di] |= 1 << i;
                    }
                }
                let (q, k) = (i / 3, i % 3);
                for (kind, line) in [(2, 9 + i), (3, i)] {
                    let m = hp(line);
                    if m & m.wrapping_sub(1) == 0 {
                        continue;
                    }
                    let c = TRIPLE_OF[usize::from(m)];
                    if c == u8::MAX {
                        continue;
                    }
                    let c = usize::from(c);
                    let (b, inbox) = if kind == 2 {
                        (18 + c * 3 + q, 0o111 << k)
                    } else {
                        (18 + q * 3 + c, 0o7 << (3 * k))
                    };
                    if hp(b) & !inbox != 0 {
                        t[kind][di] |= 1 << i;
                    }
                }
            }
        }
        LockedSites(t)
    }
}

/// The three boxes (as houses 18..27) crossing each line house 0..18.
const LINE_BOXES: [[usize; 3]; 18] = {
    let mut t = [[0usize; 3]; 18];
    let mut l = 0;
    while l < 18 {
        t[l] = if l < 9 {
            let b0 = (l / 3) * 3;
            [18 + b0, 19 + b0, 20 + b0]
        } else {
            let b = (l - 9) / 3;
            [18 + b, 21 + b, 24 + b]
        };
        l += 1;
    }
    t
};

/// The two lines parallel to each line house 0..18 in the same band or stack.
const PARALLEL_LINES: [[usize; 2]; 18] = {
    let mut t = [[0usize; 2]; 18];
    let mut l = 0;
    while l < 18 {
        let (base, i) = if l < 9 { (0, l) } else { (9, l - 9) };
        let b = (i / 3) * 3;
        let mut k = 0;
        let mut j = b;
        while j < b + 3 {
            if j != i {
                t[l][k] = base + j;
                k += 1;
            }
            j += 1;
        }
        l += 1;
    }
    t
};

/// Locked candidates. `pointing`: a digit confined to one line within a box; otherwise confined to one box within
/// a line. `direct`: only report those whose eliminations leave a hidden single in a house of the first kind
/// (the step then places that single and eliminates nothing, as SE does); otherwise report the first with
/// eliminations.
pub(crate) fn locked(
    s: &Candidates,
    views: &[HouseView; 27],
    sites: &LockedSites,
    step: &mut Step,
    pointing: bool,
    direct: bool,
    scope: Scope,
) -> bool {
    const ROW_CHUNK: u16 = 0o7;
    const COL_CHUNK: u16 = 0o111;
    // SE scans (box, column), (box, row) for pointing and (column, box), (row, box) for claiming.
    for pass in 0..2 {
        for d in 1..=9u8 {
            if !scope.digit(d) {
                continue;
            }
            let di = usize::from(d - 1);
            let hp = |h: usize| views[h].pos[di];
            for i in Cells(u128::from(sites.0[2 * usize::from(!pointing) + pass][di])) {
                if pointing {
                    let b = 18 + i;
                    let m = hp(b);
                    if m & m.wrapping_sub(1) == 0 {
                        continue;
                    }
                    let (band, stack) = (i / 3, i % 3);
                    // The column (pass 0) or row (pass 1) of the box that holds all the places, if any.
                    let k = if pass == 0 {
                        STRIDE3_OF[usize::from(m)]
                    } else {
                        TRIPLE_OF[usize::from(m)]
                    };
                    if let Some(k) = (k != u8::MAX).then_some(usize::from(k)) {
                        // pass 0: along column k of the box; pass 1: along row k.
                        let (chunk, line) = if pass == 0 {
                            (COL_CHUNK << k, 9 + stack * 3 + k)
                        } else {
                            (ROW_CHUNK << (3 * k), band * 3 + k)
                        };
                        // The line's places outside the box (line-local indexes).
                        let outside = if pass == 0 {
                            hp(line) & !(0o7 << (3 * band))
                        } else {
                            hp(line) & !(0o7 << (3 * stack))
                        };
                        if outside == 0 {
                            continue;
                        }
                        if direct {
                            for &b3 in &LINE_BOXES[line] {
                                if b3 == b {
                                    continue;
                                }
                                let m3 = hp(b3);
                                if m3 & m3.wrapping_sub(1) != 0 && single9(m3 & !chunk) {
                                    let cell = usize::from(
                                        HOUSE_CELLS[b3][(m3 & !chunk).trailing_zeros() as usize],
                                    );
                                    fill_locked_direct(
                                        s,
                                        step,
                                        Technique::DirectPointing,
                                        d,
                                        b,
                                        line,
                                        b3,
                                        cell,
                                    );
                                    return true;
                                }
                            }
                        } else {
                            fill_locked_plain(s, step, Technique::Pointing, d, b, line);
                            return true;
                        }
                    }
                } else {
                    let line = if pass == 0 { 9 + i } else { i };
                    let m = hp(line);
                    if m & m.wrapping_sub(1) == 0 {
                        continue;
                    }
                    let (q, k) = (i / 3, i % 3);
                    // The box (the line's chunk of three) that holds all the places, if any.
                    let chunk_i = TRIPLE_OF[usize::from(m)];
                    if let Some(chunk_i) = (chunk_i != u8::MAX).then_some(usize::from(chunk_i)) {
                        let chunk = 0o7 << (3 * chunk_i);
                        // The box crossed, and the line's chunk within it (box-local).
                        let (b, inbox) = if pass == 0 {
                            (18 + chunk_i * 3 + q, COL_CHUNK << k)
                        } else {
                            (18 + q * 3 + chunk_i, ROW_CHUNK << (3 * k))
                        };
                        if hp(b) & !inbox == 0 {
                            continue;
                        }
                        if direct {
                            for &l3 in &PARALLEL_LINES[line] {
                                let m3 = hp(l3);
                                if m3 & m3.wrapping_sub(1) != 0 && single9(m3 & !chunk) {
                                    let cell = usize::from(
                                        HOUSE_CELLS[l3][(m3 & !chunk).trailing_zeros() as usize],
                                    );
                                    fill_locked_direct(
                                        s,
                                        step,
                                        Technique::DirectClaiming,
                                        d,
                                        line,
                                        b,
                                        l3,
                                        cell,
                                    );
                                    return true;
                                }
                            }
                        } else {
                            fill_locked_plain(s, step, Technique::Claiming, d, line, b);
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

#[allow(clippy::too_many_arguments)] // one step's description
fn fill_locked_direct(
    s: &Candidates,
    step: &mut Step,
    t: Technique,
    d: u8,
    h1: usize,
    h2: usize,
    h3: usize,
    cell: usize,
) {
    step.start(t);
    fill_locked(step, d, h1, h2, s.positions(d) & HOUSE[h1]);
    step.houses.push(h3 as u8);
    step.placements.push(Candidate::new(cell, d));
}

fn fill_locked_plain(s: &Candidates, step: &mut Step, t: Technique, d: u8, h1: usize, h2: usize) {
    let pos = s.positions(d);
    step.start(t);
    fill_locked(step, d, h1, h2, pos & HOUSE[h1]);
    for c in Cells(pos & HOUSE[h2] & !HOUSE[h1]) {
        step.eliminations.push(Candidate::new(c, d));
    }
}

fn fill_locked(step: &mut Step, d: u8, h1: usize, h2: usize, m: CellSet) {
    step.digits = digit_bit(d);
    step.houses.push(h1 as u8);
    step.houses.push(h2 as u8);
    for c in Cells(m) {
        step.cells.push(c as u8);
        step.highlights.push(Candidate::new(c, d));
    }
}

/// The empty cells of a house (in house order) and their candidate masks, and for each digit its positions in
/// the house as a 9-bit mask of house indexes.
#[derive(Clone, Copy)]
pub(crate) struct HouseView {
    pos: [u16; 9],
}

impl HouseView {
    /// The empty cells of the house (house indexes) with their number.
    #[inline]
    fn empty(&self) -> (u16, usize) {
        let m = self.pos.iter().fold(0, |a, &p| a | p);
        (m, pop9(m))
    }

    /// The digits (bit `d - 1`) with 1 to `k` places in the house.
    #[inline]
    fn few(&self, k: usize) -> u16 {
        let mut out = 0;
        for (d, &m) in self.pos.iter().enumerate() {
            let p = pop9(m);
            out |= u16::from((1..=k).contains(&p)) << d;
        }
        out
    }
}

/// The house indexes of a 9-bit mask, in order, and their number.
#[inline]
fn indexes(mut m: u16) -> ([u8; 9], usize) {
    let mut out = [0u8; 9];
    let mut n = 0;
    while m != 0 {
        out[n] = m.trailing_zeros() as u8;
        n += 1;
        m &= m - 1;
    }
    (out, n)
}

/// The views of all 27 houses, built from the digits' position sets.
pub(crate) fn house_views(s: &Candidates) -> [HouseView; 27] {
    // Column c's cells, shifted to column 0, are the bits 9 * r; multiplying by the sum of 2^(8j) for j in 1..=9
    // moves bit 9 * r to 72 + r (for j = 9 - r), and no two products share a bit, so nothing carries.
    const COLUMN: u128 = {
        let mut m = 0u128;
        let mut r = 0;
        while r < 9 {
            m |= 1 << (9 * r);
            r += 1;
        }
        m
    };
    const GATHER: u128 = {
        let mut m = 0u128;
        let mut j = 1;
        while j <= 9 {
            m |= 1 << (8 * j);
            j += 1;
        }
        m
    };
    let mut views = [HouseView { pos: [0; 9] }; 27];
    for d in 0..9 {
        let pos = s.positions(d as u8 + 1);
        for r in 0..9 {
            views[r].pos[d] = ((pos >> (9 * r)) & 0x1ff) as u16;
        }
        for c in 0..9 {
            let x = (pos >> c) & COLUMN;
            views[9 + c].pos[d] = ((x.wrapping_mul(GATHER) >> 72) & 0x1ff) as u16;
        }
        for b in 0..9 {
            let x = pos >> (27 * (b / 3) + 3 * (b % 3));
            views[18 + b].pos[d] = ((x & 0o7) | ((x >> 6) & 0o70) | ((x >> 12) & 0o700)) as u16;
        }
    }
    views
}

/// Calls `f` with every `k`-subset (`k` in 2..=4) of `items` (given as indexes into `items`, in lexicographic
/// order) whose masks' union has at most `k` bits, stopping when `f` returns `true`. The masks have nine bits.
fn subsets(items: &[u16], k: usize, f: &mut impl FnMut(&[usize], u16) -> bool) -> bool {
    let n = items.len();
    let fits = |m: u16| usize::from(POP9[usize::from(m & 0x1ff)]) <= k;
    debug_assert!(items.iter().all(|&m| m < 0x200));
    for a in 0..(n + 1).saturating_sub(k) {
        let ua = items[a];
        if !fits(ua) {
            continue;
        }
        for b in a + 1..(n + 2).saturating_sub(k) {
            let ub = ua | items[b];
            if !fits(ub) {
                continue;
            }
            if k == 2 {
                if f(&[a, b], ub) {
                    return true;
                }
                continue;
            }
            for c in b + 1..(n + 3).saturating_sub(k) {
                let uc = ub | items[c];
                if !fits(uc) {
                    continue;
                }
                if k == 3 {
                    if f(&[a, b, c], uc) {
                        return true;
                    }
                    continue;
                }
                for d in c + 1..n {
                    let ud = uc | items[d];
                    if fits(ud) && f(&[a, b, c, d], ud) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Naked subsets of size `k` (2..=4): `k` cells of a house holding `k` digits between them.
pub(crate) fn naked_subset(
    s: &Candidates,
    views: &[HouseView; 27],
    step: &mut Step,
    k: usize,
    scope: Scope,
) -> bool {
    let t = match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    for &h in &SE_HOUSE_ORDER {
        let h = usize::from(h);
        if !scope.house(h) {
            continue;
        }
        let v = &views[h];
        let (empty, n_empty) = v.empty();
        if n_empty < 2 * k {
            continue;
        }
        let (cells, n_cells) = indexes(empty);
        let cells = &cells[..n_cells];
        // Candidate cells: 2..=k candidates.
        let mut idx = [0usize; 9];
        let mut masks = [0u16; 9];
        let mut n = 0;
        for &i in cells {
            let m = s.candidates(usize::from(HOUSE_CELLS[h][usize::from(i)]));
            if (2..=k).contains(&pop9(m)) {
                idx[n] = usize::from(i);
                masks[n] = m;
                n += 1;
            }
        }
        let found = subsets(&masks[..n], k, &mut |chosen, union| {
            if pop9(union) != k {
                return false;
            }
            let mut members = 0u16;
            for &j in chosen {
                members |= 1 << idx[j];
            }
            let mut any = false;
            for &i in cells {
                if members & (1 << i) != 0 {
                    continue;
                }
                let c = usize::from(HOUSE_CELLS[h][usize::from(i)]);
                if s.candidates(c) & union != 0 {
                    any = true;
                    break;
                }
            }
            if !any {
                return false;
            }
            step.start(t);
            step.houses.push(h as u8);
            step.digits = union;
            for &j in chosen {
                let c = usize::from(HOUSE_CELLS[h][idx[j]]);
                step.cells.push(c as u8);
                for d in Digits(s.candidates(c)) {
                    step.highlights.push(Candidate::new(c, d));
                }
            }
            for &i in cells {
                if members & (1 << i) != 0 {
                    continue;
                }
                let c = usize::from(HOUSE_CELLS[h][usize::from(i)]);
                for d in Digits(s.candidates(c) & union) {
                    step.eliminations.push(Candidate::new(c, d));
                }
            }
            true
        });
        if found {
            return true;
        }
    }
    false
}

/// Hidden subsets of size `k` (2..=4): `k` digits confined to the same `k` cells of a house. With `direct`, only
/// those whose eliminations leave a hidden single in the house (the step places it, as SE does).
pub(crate) fn hidden_subset(
    s: &Candidates,
    views: &[HouseView; 27],
    step: &mut Step,
    k: usize,
    direct: bool,
    scope: Scope,
) -> bool {
    let t = match (k, direct) {
        (2, true) => Technique::DirectHiddenPair,
        (3, true) => Technique::DirectHiddenTriple,
        (2, false) => Technique::HiddenPair,
        (3, false) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    for &h in &SE_HOUSE_ORDER {
        let h = usize::from(h);
        if !scope.house(h) {
            continue;
        }
        let v = &views[h];
        let (_, n_empty) = v.empty();
        if (direct && n_empty <= k) || (!direct && n_empty <= 2 * k) {
            continue;
        }
        let mut digs = [0u8; 9];
        let mut masks = [0u16; 9];
        let mut n = 0;
        for d in Digits(v.few(k)) {
            digs[n] = d;
            masks[n] = v.pos[usize::from(d - 1)];
            n += 1;
        }
        if n < k {
            continue;
        }
        let found = subsets(&masks[..n], k, &mut |chosen, union| {
            if pop9(union) != k {
                return false;
            }
            let mut dm = 0u16;
            for &j in chosen {
                dm |= digit_bit(digs[j]);
            }
            if direct {
                for e in 1..=9u8 {
                    if dm & digit_bit(e) != 0 {
                        continue;
                    }
                    let pe = v.pos[usize::from(e - 1)];
                    if pe & pe.wrapping_sub(1) != 0 && single9(pe & !union) {
                        let i = (pe & !union).trailing_zeros() as usize;
                        fill_hidden(s, step, t, h, union, dm, false);
                        step.placements
                            .push(Candidate::new(usize::from(HOUSE_CELLS[h][i]), e));
                        return true;
                    }
                }
                false
            } else {
                let mut any = false;
                for i in Cells(u128::from(union)) {
                    if s.candidates(usize::from(HOUSE_CELLS[h][i])) & !dm != 0 {
                        any = true;
                    }
                }
                if !any {
                    return false;
                }
                fill_hidden(s, step, t, h, union, dm, true);
                true
            }
        });
        if found {
            return true;
        }
    }
    false
}

fn fill_hidden(
    s: &Candidates,
    step: &mut Step,
    t: Technique,
    h: usize,
    union: u16,
    dm: u16,
    eliminate: bool,
) {
    step.start(t);
    step.houses.push(h as u8);
    step.digits = dm;
    for i in Cells(u128::from(union)) {
        let c = usize::from(HOUSE_CELLS[h][i]);
        step.cells.push(c as u8);
        let m = s.candidates(c);
        for d in Digits(m & dm) {
            step.highlights.push(Candidate::new(c, d));
        }
        if eliminate {
            for d in Digits(m & !dm) {
                step.eliminations.push(Candidate::new(c, d));
            }
        }
    }
}

/// Basic fish of size `k` (2 X-Wing, 3 Swordfish, 4 Jellyfish) on rows or columns.
pub(crate) fn fish(
    s: &Candidates,
    views: &[HouseView; 27],
    step: &mut Step,
    k: usize,
    scope: Scope,
) -> bool {
    let t = match k {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for d in 1..=9u8 {
        if !scope.digit(d) {
            continue;
        }
        let pos = s.positions(d);
        for rows_base in [true, false] {
            // For each base line, the positions across it (columns for rows, rows for columns).
            let off = if rows_base { 0 } else { 9 };
            let all: [u16; 9] = std::array::from_fn(|i| views[off + i].pos[usize::from(d - 1)]);
            let mut lines = [0usize; 9];
            let mut masks = [0u16; 9];
            let mut n = 0;
            for (i, &m) in all.iter().enumerate() {
                if (2..=k).contains(&pop9(m)) {
                    lines[n] = i;
                    masks[n] = m;
                    n += 1;
                }
            }
            if n < k {
                continue;
            }
            let found = subsets(&masks[..n], k, &mut |chosen, union| {
                if pop9(union) != k {
                    return false;
                }
                let mut base: CellSet = 0;
                for &j in chosen {
                    base |= HOUSE[if rows_base { lines[j] } else { 9 + lines[j] }];
                }
                let mut cover: CellSet = 0;
                for j in Cells(u128::from(union)) {
                    cover |= HOUSE[if rows_base { 9 + j } else { j }];
                }
                let elim = pos & cover & !base;
                if elim == 0 {
                    return false;
                }
                step.start(t);
                step.digits = digit_bit(d);
                for &j in chosen {
                    step.houses
                        .push(if rows_base { lines[j] } else { 9 + lines[j] } as u8);
                }
                for j in Cells(u128::from(union)) {
                    step.houses.push(if rows_base { 9 + j } else { j } as u8);
                }
                for c in Cells(pos & base & cover) {
                    step.cells.push(c as u8);
                    step.highlights.push(Candidate::new(c, d));
                }
                for c in Cells(elim) {
                    step.eliminations.push(Candidate::new(c, d));
                }
                true
            });
            if found {
                return true;
            }
        }
    }
    false
}

fn bivalue_cells(s: &Candidates) -> CellSet {
    let mut bv = 0u128;
    for c in Cells(s.unsolved()) {
        if pop9(s.candidates(c)) == 2 {
            bv |= bit(c);
        }
    }
    bv
}

/// XY-Wing: pivot {x,y}, pincers {x,z} and {y,z} seeing the pivot; z goes from cells seeing both pincers.
pub(crate) fn xy_wing(s: &Candidates, step: &mut Step, scope: Scope) -> bool {
    let bv = bivalue_cells(s);
    for p in Cells(bv) {
        let pm = s.candidates(p);
        let wings = bv & PEERS[p];
        // One of the three cells must have changed.
        let p_changed = scope.cells & bit(p) != 0;
        if !p_changed && wings & scope.cells == 0 {
            continue;
        }
        for a in Cells(wings) {
            let am = s.candidates(a);
            let shared = am & pm;
            if !single9(shared) {
                continue;
            }
            let z = am & !pm;
            let need = (pm & !shared) | z;
            let a_changed = p_changed || scope.cells & bit(a) != 0;
            for b in Cells(wings & !bit(a)) {
                // Each pair of pincers once (the roles are symmetric).
                if b < a || s.candidates(b) != need || !(a_changed || scope.cells & bit(b) != 0) {
                    continue;
                }
                let zd = z.trailing_zeros() as u8 + 1;
                let elim = s.positions(zd) & PEERS[a] & PEERS[b] & !bit(p);
                if elim == 0 {
                    continue;
                }
                fill_wing(s, step, Technique::XYWing, [p, a, b], zd, elim);
                return true;
            }
        }
    }
    false
}

/// XYZ-Wing: pivot {x,y,z}, pincers {x,z} and {y,z} seeing the pivot; z goes from cells seeing all three.
pub(crate) fn xyz_wing(s: &Candidates, step: &mut Step, scope: Scope) -> bool {
    let bv = bivalue_cells(s);
    for p in Cells(s.unsolved()) {
        let pm = s.candidates(p);
        if pop9(pm) != 3 {
            continue;
        }
        let wings = bv & PEERS[p];
        // One of the three cells must have changed.
        let p_changed = scope.cells & bit(p) != 0;
        if !p_changed && wings & scope.cells == 0 {
            continue;
        }
        for a in Cells(wings) {
            let am = s.candidates(a);
            if am & !pm != 0 {
                continue;
            }
            let a_changed = p_changed || scope.cells & bit(a) != 0;
            for b in Cells(wings & !bit(a)) {
                if b < a || !(a_changed || scope.cells & bit(b) != 0) {
                    continue;
                }
                let bm = s.candidates(b);
                if bm & !pm != 0 || bm == am {
                    continue;
                }
                let z = am & bm;
                let zd = z.trailing_zeros() as u8 + 1;
                let elim = s.positions(zd) & PEERS[p] & PEERS[a] & PEERS[b];
                if elim == 0 {
                    continue;
                }
                fill_wing(s, step, Technique::XYZWing, [p, a, b], zd, elim);
                return true;
            }
        }
    }
    false
}

fn fill_wing(
    s: &Candidates,
    step: &mut Step,
    t: Technique,
    cells: [usize; 3],
    z: u8,
    elim: CellSet,
) {
    step.start(t);
    step.digits = digit_bit(z);
    for c in cells {
        step.cells.push(c as u8);
        for d in Digits(s.candidates(c)) {
            step.highlights.push(Candidate::new(c, d));
        }
    }
    for c in Cells(elim) {
        step.eliminations.push(Candidate::new(c, z));
    }
}

/// For a 9-bit mask, the `i` (0..3) with every bit among bits `3i..3i + 3` (a row of a box, or a line's part in
/// one box), `u8::MAX` when there is none (or the mask is empty).
const TRIPLE_OF: [u8; 512] = {
    let mut t = [u8::MAX; 512];
    let mut m = 1;
    while m < 512 {
        let mut i = 0;
        while i < 3 {
            if m & !(0o7 << (3 * i)) == 0 {
                t[m] = i as u8;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// For a 9-bit mask, the `k` (0..3) with every bit among bits `k`, `k + 3`, `k + 6` (a column of a box), `u8::MAX`
/// when there is none (or the mask is empty).
const STRIDE3_OF: [u8; 512] = {
    let mut t = [u8::MAX; 512];
    let mut m = 1;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            if m & !(0o111 << k) == 0 {
                t[m] = k as u8;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// The number of bits of a 9-bit mask.
#[inline]
pub(crate) fn pop9(m: u16) -> usize {
    usize::from(POP9[usize::from(m & 0x1ff)])
}

/// Whether a mask has exactly one bit.
#[inline]
pub(crate) fn single9(m: u16) -> bool {
    m != 0 && m & (m - 1) == 0
}

/// The number of digits in a 9-bit mask.
pub(crate) const POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};
