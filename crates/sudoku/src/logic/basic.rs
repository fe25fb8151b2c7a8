//! The techniques short of chains: singles, locked candidates, naked and hidden subsets, fish and wings.
//!
//! Each finder looks at a [`Candidates`] state and, when its pattern is present and makes progress, fills a
//! [`Step`] and returns `true`. Houses are searched in Sudoku Explainer's order (boxes, then columns, then rows) so
//! that the first step found is the one SE would report.

use super::state::Candidates;
use super::step::{Candidate, Step, Technique, TechniqueSet};
use super::tables::{CellSet, Cells, Digits, HOUSE, HOUSE_CELLS, PEERS, bit, digit_bit, single};

/// Houses in Sudoku Explainer's search order: boxes, columns, rows.
pub(crate) const SE_HOUSE_ORDER: [u8; 27] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7,
    8,
];

const ALL_DIGITS: u16 = 0x1ff;

/// Every full house (the last empty cell of a house). Several placements, `houses` parallel to `placements`.
pub(crate) fn full_houses(s: &Candidates, step: &mut Step) -> bool {
    step.start(Technique::FullHouse);
    for &h in &SE_HOUSE_ORDER {
        let h = usize::from(h);
        let empty = s.unsolved() & HOUSE[h];
        if single(empty) {
            let cell = empty.trailing_zeros() as usize;
            let missing = !s.placed_in(h) & ALL_DIGITS;
            if missing.count_ones() == 1 {
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
        if m.count_ones() == 1 {
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

/// The rows and columns crossing box `b` (0..9), as house numbers: columns first, then rows.
fn lines_of_box(b: usize) -> [usize; 6] {
    let r0 = (b / 3) * 3;
    let c0 = (b % 3) * 3;
    [9 + c0, 10 + c0, 11 + c0, r0, r0 + 1, r0 + 2]
}

/// The boxes (as houses 18..27) crossing line house `l`, other than box house `not`.
fn other_boxes_on_line(l: usize, not: usize) -> impl Iterator<Item = usize> {
    let boxes: [usize; 3] = if l < 9 {
        let b0 = (l / 3) * 3;
        [18 + b0, 19 + b0, 20 + b0]
    } else {
        let c = l - 9;
        let b = c / 3;
        [18 + b, 21 + b, 24 + b]
    };
    boxes.into_iter().filter(move |&b| b != not)
}

/// The lines parallel to line house `l` crossing the same box (other than `l`).
fn parallel_lines_in_band(l: usize) -> [usize; 2] {
    let (base, i) = if l < 9 { (0, l) } else { (9, l - 9) };
    let b = (i / 3) * 3;
    let others: Vec<usize> = (b..b + 3).filter(|&j| j != i).map(|j| base + j).collect();
    [others[0], others[1]]
}

/// Locked candidates. `pointing`: a digit confined to one line within a box; otherwise confined to one box within
/// a line. `direct`: only report those whose eliminations leave a hidden single in a house of the first kind
/// (the step then places that single and eliminates nothing, as SE does); otherwise report the first with
/// eliminations.
pub(crate) fn locked(s: &Candidates, step: &mut Step, pointing: bool, direct: bool) -> bool {
    // SE scans (box, column), (box, row) for pointing and (column, box), (row, box) for claiming.
    for pass in 0..2 {
        for d in 1..=9u8 {
            let pos = s.positions(d);
            for i in 0..9 {
                let (h1, candidates_h2): (usize, [usize; 3]) = if pointing {
                    let b = 18 + i;
                    let l = lines_of_box(i);
                    (
                        b,
                        if pass == 0 {
                            [l[0], l[1], l[2]]
                        } else {
                            [l[3], l[4], l[5]]
                        },
                    )
                } else {
                    let l = if pass == 0 { 9 + i } else { i };
                    let bs: Vec<usize> = other_boxes_on_line(l, 99).collect();
                    (l, [bs[0], bs[1], bs[2]])
                };
                let m = pos & HOUSE[h1];
                if m.count_ones() < 2 {
                    continue;
                }
                for h2 in candidates_h2 {
                    if m & !HOUSE[h2] != 0 {
                        continue;
                    }
                    let elim = pos & HOUSE[h2] & !HOUSE[h1];
                    if elim == 0 {
                        continue;
                    }
                    if direct {
                        // Houses of h1's kind crossing h2, other than h1.
                        let thirds: [usize; 2] = if pointing {
                            let v: Vec<usize> = other_boxes_on_line(h2, h1).collect();
                            [v[0], v[1]]
                        } else {
                            parallel_lines_in_band(h1)
                        };
                        // For claiming, the parallel lines must cross h2 (the box): lines in the same band do.
                        for h3 in thirds {
                            let p3 = pos & HOUSE[h3];
                            if p3.count_ones() > 1 && single(p3 & !elim) {
                                let t = if pointing {
                                    Technique::DirectPointing
                                } else {
                                    Technique::DirectClaiming
                                };
                                step.start(t);
                                fill_locked(step, d, h1, h2, m);
                                step.houses.push(h3 as u8);
                                step.placements.push(Candidate::new(
                                    (p3 & !elim).trailing_zeros() as usize,
                                    d,
                                ));
                                return true;
                            }
                        }
                    } else {
                        step.start(if pointing {
                            Technique::Pointing
                        } else {
                            Technique::Claiming
                        });
                        fill_locked(step, d, h1, h2, m);
                        for c in Cells(elim) {
                            step.eliminations.push(Candidate::new(c, d));
                        }
                        return true;
                    }
                }
            }
        }
    }
    false
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
struct HouseView {
    cells: [u8; 9],
    n: usize,
    pos: [u16; 9],
}

fn house_view(s: &Candidates, h: usize) -> HouseView {
    let mut v = HouseView {
        cells: [0; 9],
        n: 0,
        pos: [0; 9],
    };
    for (i, &c) in HOUSE_CELLS[h].iter().enumerate() {
        let m = s.candidates(usize::from(c));
        if m != 0 {
            v.cells[v.n] = i as u8;
            v.n += 1;
            for d in Digits(m) {
                v.pos[usize::from(d - 1)] |= 1 << i;
            }
        }
    }
    v
}

/// Calls `f` with every `k`-subset of `items` (given as indexes into `items`) whose masks' union has at most `k`
/// bits, stopping when `f` returns `true`.
fn subsets(items: &[u16], k: usize, f: &mut impl FnMut(&[usize], u16) -> bool) -> bool {
    fn rec(
        items: &[u16],
        k: usize,
        start: usize,
        chosen: &mut [usize; 4],
        depth: usize,
        union: u16,
        f: &mut impl FnMut(&[usize], u16) -> bool,
    ) -> bool {
        if depth == k {
            return f(&chosen[..k], union);
        }
        for i in start..items.len() {
            if items.len() - i < k - depth {
                break;
            }
            let u = union | items[i];
            if u.count_ones() as usize > k {
                continue;
            }
            chosen[depth] = i;
            if rec(items, k, i + 1, chosen, depth + 1, u, f) {
                return true;
            }
        }
        false
    }
    let mut chosen = [0usize; 4];
    rec(items, k, 0, &mut chosen, 0, 0, f)
}

/// Naked subsets of size `k` (2..=4): `k` cells of a house holding `k` digits between them.
pub(crate) fn naked_subset(s: &Candidates, step: &mut Step, k: usize) -> bool {
    let t = match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    for &h in &SE_HOUSE_ORDER {
        let h = usize::from(h);
        let v = house_view(s, h);
        if v.n < 2 * k {
            continue;
        }
        // Candidate cells: 2..=k candidates.
        let mut idx = [0usize; 9];
        let mut masks = [0u16; 9];
        let mut n = 0;
        for &i in &v.cells[..v.n] {
            let m = s.candidates(usize::from(HOUSE_CELLS[h][usize::from(i)]));
            if (2..=k as u32).contains(&m.count_ones()) {
                idx[n] = usize::from(i);
                masks[n] = m;
                n += 1;
            }
        }
        let found = subsets(&masks[..n], k, &mut |chosen, union| {
            if union.count_ones() as usize != k {
                return false;
            }
            let mut members = 0u16;
            for &j in chosen {
                members |= 1 << idx[j];
            }
            let mut any = false;
            for &i in &v.cells[..v.n] {
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
            for &i in &v.cells[..v.n] {
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
pub(crate) fn hidden_subset(s: &Candidates, step: &mut Step, k: usize, direct: bool) -> bool {
    let t = match (k, direct) {
        (2, true) => Technique::DirectHiddenPair,
        (3, true) => Technique::DirectHiddenTriple,
        (2, false) => Technique::HiddenPair,
        (3, false) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    for &h in &SE_HOUSE_ORDER {
        let h = usize::from(h);
        let v = house_view(s, h);
        if (direct && v.n <= k) || (!direct && v.n <= 2 * k) {
            continue;
        }
        let mut digs = [0u8; 9];
        let mut masks = [0u16; 9];
        let mut n = 0;
        for d in 1..=9u8 {
            let m = v.pos[usize::from(d - 1)];
            if m != 0 && m.count_ones() as usize <= k {
                digs[n] = d;
                masks[n] = m;
                n += 1;
            }
        }
        let found = subsets(&masks[..n], k, &mut |chosen, union| {
            if union.count_ones() as usize != k {
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
                    if pe.count_ones() > 1 && (pe & !union).count_ones() == 1 {
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
pub(crate) fn fish(s: &Candidates, step: &mut Step, k: usize) -> bool {
    let t = match k {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for d in 1..=9u8 {
        let pos = s.positions(d);
        for rows_base in [true, false] {
            // For each base line, the positions across it (columns for rows, rows for columns).
            let mut lines = [0usize; 9];
            let mut masks = [0u16; 9];
            let mut n = 0;
            for i in 0..9 {
                let mut m = 0u16;
                for j in 0..9 {
                    let c = if rows_base { i * 9 + j } else { j * 9 + i };
                    if pos & bit(c) != 0 {
                        m |= 1 << j;
                    }
                }
                if (2..=k as u32).contains(&m.count_ones()) {
                    lines[n] = i;
                    masks[n] = m;
                    n += 1;
                }
            }
            let found = subsets(&masks[..n], k, &mut |chosen, union| {
                if union.count_ones() as usize != k {
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
        if s.candidates(c).count_ones() == 2 {
            bv |= bit(c);
        }
    }
    bv
}

/// XY-Wing: pivot {x,y}, pincers {x,z} and {y,z} seeing the pivot; z goes from cells seeing both pincers.
pub(crate) fn xy_wing(s: &Candidates, step: &mut Step) -> bool {
    let bv = bivalue_cells(s);
    for p in Cells(bv) {
        let pm = s.candidates(p);
        let wings = bv & PEERS[p];
        for a in Cells(wings) {
            let am = s.candidates(a);
            let shared = am & pm;
            if shared.count_ones() != 1 {
                continue;
            }
            let z = am & !pm;
            let need = (pm & !shared) | z;
            for b in Cells(wings & !bit(a)) {
                // Each pair of pincers once (the roles are symmetric).
                if b < a || s.candidates(b) != need {
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
pub(crate) fn xyz_wing(s: &Candidates, step: &mut Step) -> bool {
    let bv = bivalue_cells(s);
    for p in Cells(s.unsolved()) {
        let pm = s.candidates(p);
        if pm.count_ones() != 3 {
            continue;
        }
        let wings = bv & PEERS[p];
        for a in Cells(wings) {
            let am = s.candidates(a);
            if am & !pm != 0 {
                continue;
            }
            for b in Cells(wings & !bit(a)) {
                if b < a {
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

/// The house (row, column or box, in that order) two distinct cells share, if any.
fn shared_house(a: usize, b: usize) -> Option<usize> {
    use super::tables::{box_of, col_of, row_of};
    if col_of(a) == col_of(b) {
        Some(9 + col_of(a))
    } else if row_of(a) == row_of(b) {
        Some(row_of(a))
    } else if box_of(a) == box_of(b) {
        Some(18 + box_of(a))
    } else {
        None
    }
}

/// A turbot-fish pattern: technique, elimination count, digit, cells (start, bridge, bridge, end), houses (base,
/// cover), eliminations.
type TurbotFound = (Technique, u32, u8, [usize; 4], [usize; 2], CellSet);

/// The turbot-fish family on one digit: a strong link in a line (the base) and a strong link in another house (the
/// cover) with one end of each seeing the other; the digit is then in one of the two far ends, and leaves the cells
/// seeing both. Skyscraper (two parallel lines, SE 4.0), 2-String Kite (a column and a row, 4.1), Turbot Fish (a line
/// and a box, 4.2) and Empty Rectangle (a line and a box whose candidates lie on one row and one column, 4.2), the
/// easiest first and, among equals, the one with the most eliminations.
pub(crate) fn turbot(s: &Candidates, step: &mut Step, allowed: TechniqueSet) -> bool {
    // (base kind, cover kind): 0 rows, 1 columns, 2 boxes.
    const SETS: [(usize, usize, Technique); 5] = [
        (0, 0, Technique::Skyscraper),
        (1, 1, Technique::Skyscraper),
        (1, 0, Technique::TwoStringKite),
        (0, 2, Technique::TurbotFish),
        (1, 2, Technique::TurbotFish),
    ];
    let mut best: Option<TurbotFound> = None;
    for &(bk, ck, tech) in &SETS {
        let wanted = allowed.contains(tech)
            || (tech == Technique::TurbotFish && allowed.contains(Technique::EmptyRectangle));
        if !wanted {
            continue;
        }
        if let Some((t, ..)) = best
            && t.base_rating() <= tech.base_rating()
            && tech != Technique::TurbotFish
        {
            break;
        }
        for d in 1..=9u8 {
            let pos = s.positions(d);
            for bi in 0..9 {
                let base = bk * 9 + bi;
                let bm = pos & HOUSE[base];
                if bm.count_ones() != 2 {
                    continue;
                }
                let b0 = bm.trailing_zeros() as usize;
                let b1 = (bm & (bm - 1)).trailing_zeros() as usize;
                let start_ci = if bk == ck { bi + 1 } else { 0 };
                for ci in start_ci..9 {
                    let cover = ck * 9 + ci;
                    let cm = pos & HOUSE[cover];
                    let n = cm.count_ones();
                    // Cover cells: the two ends, or for an empty rectangle the heart twice.
                    let mut ends: Option<[usize; 2]> = None;
                    let mut er = false;
                    if n == 2 {
                        ends = Some([
                            cm.trailing_zeros() as usize,
                            (cm & (cm - 1)).trailing_zeros() as usize,
                        ]);
                    } else if ck == 2 && (3..6).contains(&n) {
                        for &heart in &HOUSE_CELLS[cover] {
                            let heart = usize::from(heart);
                            let cross = (HOUSE[super::tables::row_of(heart)]
                                | HOUSE[9 + super::tables::col_of(heart)])
                                & HOUSE[cover];
                            if cm & !cross == 0 {
                                ends = Some([heart, heart]);
                                er = true;
                                break;
                            }
                        }
                    }
                    let Some(cends) = ends else { continue };
                    if b0 == cends[0] || b0 == cends[1] || b1 == cends[0] || b1 == cends[1] {
                        continue;
                    }
                    if er && (HOUSE[cover] & (bit(b0) | bit(b1))) != 0 {
                        continue;
                    }
                    for (start, bridge1) in [(b0, b1), (b1, b0)] {
                        for j in 0..(if er { 1 } else { 2 }) {
                            let bridge2 = cends[j];
                            let end = cends[1 - j];
                            let Some(share) = shared_house(bridge1, bridge2) else {
                                continue;
                            };
                            if share == base || share == cover {
                                continue;
                            }
                            let mut victims =
                                pos & PEERS[start] & PEERS[end] & !bit(start) & !bit(end);
                            if er {
                                victims &= !HOUSE[cover] & !HOUSE[base];
                            }
                            if victims == 0 {
                                continue;
                            }
                            let t = if er { Technique::EmptyRectangle } else { tech };
                            if !allowed.contains(t) {
                                continue;
                            }
                            let count = victims.count_ones();
                            let better = match best {
                                None => true,
                                Some((bt, bc, ..)) => {
                                    t.base_rating() < bt.base_rating()
                                        || (t.base_rating() == bt.base_rating() && count > bc)
                                }
                            };
                            if better {
                                best = Some((
                                    t,
                                    count,
                                    d,
                                    [start, bridge1, bridge2, end],
                                    [base, cover],
                                    victims,
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    let Some((t, _, d, cells, houses, victims)) = best else {
        return false;
    };
    step.start(t);
    step.digits = digit_bit(d);
    step.houses.extend(houses.iter().map(|&h| h as u8));
    for (i, &c) in cells.iter().enumerate() {
        if i == 3 && t == Technique::EmptyRectangle {
            break;
        }
        step.cells.push(c as u8);
    }
    if t == Technique::EmptyRectangle {
        for c in Cells(s.positions(d) & (HOUSE[houses[1]] | bit(cells[0]) | bit(cells[1]))) {
            step.highlights.push(Candidate::new(c, d));
        }
    } else {
        for &c in &cells {
            step.highlights.push(Candidate::new(c, d));
        }
    }
    for c in Cells(victims) {
        step.eliminations.push(Candidate::new(c, d));
    }
    true
}
