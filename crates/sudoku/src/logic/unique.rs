//! Uniqueness techniques: unique rectangles and loops (types 1 to 4) and the bivalue universal grave (BUG, types 1
//! to 4). Both rest on the puzzle having one solution: a pattern that would allow two solutions (a "deadly
//! pattern") cannot be what is left, so whatever would leave it is false.
//!
//! Sudoku Explainer's search is mirrored, since the first pattern it finds decides its next step:
//! - **Loops** grow from every cell with exactly two candidates {a, b}, through cells holding both a and b, each step
//!   moving within a box, row or column (never the same kind of house twice in a row), until they come back to the
//!   start after at least four cells. At most two cells may hold more than a and b, unless all the extra digits are
//!   one digit (then any number may). A loop is a deadly pattern when every house it touches holds exactly two of its
//!   cells, one at an odd and one at an even place. Type 1: one cell has extras, so it loses a and b. Type 2: the
//!   extras are one digit, which goes from every cell seeing all the cells with extras. Type 3: two cells with
//!   extras share a house, where the extras form a naked set with other cells (or a and b a hidden set), which
//!   eliminates as a naked or hidden set does. Type 4: two cells with extras share a house where one of a, b has no
//!   other place, so the other digit goes from both. All loops found are rated, and the easiest (then the lowest
//!   type, then the first found) is the step. Rating: 4.5 for a rectangle, 4.6 for a loop of 6 cells, 4.7 for 8, 5.0
//!   for 10 or more; a naked type 3 adds 0.1 per cell of the naked set beyond one, a hidden type 3 0.1 per digit
//!   beyond two.
//! - **BUG**: the houses are scanned (boxes, then rows, then columns; digits in order) for digits with neither zero
//!   nor two places. Where exactly one of those places is a cell with three or more candidates, that cell and digit
//!   are a BUG candidate. With them (and, when every such digit is the same, all the cells of three or more holding
//!   it) removed, every cell must have two candidates and every digit two places per house. Type 1 (one BUG cell,
//!   5.6): the cell keeps only its BUG digits. Type 2 (one BUG digit, 5.7): it goes from the cells seeing every BUG
//!   cell. Type 4 (two BUG cells sharing a house and one other common digit, 5.7): each loses what is neither its BUG
//!   digit nor that common digit. Type 3 (5.7 plus 0.1 per cell of the naked set beyond two): the BUG digits form a
//!   naked set with other cells of a house all BUG cells share.

use super::state::Candidates;
use super::step::{Candidate, Rating, Step, Technique};
use super::tables::{
    CellSet, Cells, Digits, HOUSE, HOUSE_CELLS, PEERS, bit, box_of, col_of, row_of,
};

/// The house of kind `t` (0 box, 1 row, 2 column: Sudoku Explainer's order) holding `cell`.
#[inline]
pub(crate) fn house_of(t: usize, cell: usize) -> usize {
    match t {
        0 => 18 + box_of(cell),
        1 => row_of(cell),
        _ => 9 + col_of(cell),
    }
}

/// The number of digits of a digit mask (by table: baseline x86-64 has no instruction for it).
#[inline]
fn pop(m: u16) -> u32 {
    super::basic::pop9(m) as u32
}

/// The longest loop that can be a deadly pattern: each of its cells touches three houses, each touched twice.
const MAX_LOOP: usize = 18;

/// A unique loop step found: its rating (tenths), type, and what it removes.
struct Found {
    rating: u8,
    kind: u8,
    cells: Vec<u8>,
    digits: u16,
    elim: Vec<Candidate>,
    house: Option<usize>,
}

/// The deadly loops found from each start cell, with what they were found from: the pair of digits, the cells
/// that could be in a deadly loop of that pair (see `loop_core`) and their candidates. The search from a cell
/// depends on nothing else, so while those stay the same its loops are taken from here.
pub(crate) struct LoopMemo {
    by_start: Vec<Option<LoopsFrom>>,
    /// For each pair of digits: the cells holding both at the last search, and their loop core.
    cores: [(CellSet, CellSet); 36],
}

struct LoopsFrom {
    pair: u16,
    cells: CellSet,
    masks: Vec<u16>,
    loops: Vec<Vec<u8>>,
    /// For each loop: its cells and the cells they see.
    reach: Vec<CellSet>,
}

impl Default for LoopMemo {
    fn default() -> Self {
        Self {
            by_start: (0..81).map(|_| None).collect(),
            cores: [(0, 0); 36],
        }
    }
}

/// Unique rectangles and loops: the easiest one (then the lowest type, then the first found).
///
/// `changed` holds the cells whose candidates changed since this search last found nothing (all cells the first
/// time, or after a find). A loop's type and eliminations depend only on the candidates of the cells its cells see
/// (and of its own cells), and a loop whose cells kept their candidates was found by that search too: so a loop
/// whose cells and their peers are outside `changed` still has nothing to eliminate, and is not looked at again.
pub(crate) fn unique_loops(
    s: &Candidates,
    step: &mut Step,
    changed: CellSet,
    memo: &mut LoopMemo,
) -> bool {
    let mut best: Option<Found> = None;
    let mut path = Vec::with_capacity(MAX_LOOP);
    let mut core_by_pair: [Option<CellSet>; 36] = [None; 36];
    for cell in Cells(s.unsolved()) {
        let m = s.candidates(cell);
        if pop(m) != 2 {
            continue;
        }
        let mut digits = Digits(m);
        let (Some(v1), Some(v2)) = (digits.next(), digits.next()) else {
            continue;
        };
        // Only cells with a partner holding the pair in each of their houses can be in a deadly loop, and the
        // search from a cell visits only those: its loops depend on their candidates alone.
        let core = *core_by_pair[pair_index(v1, v2)].get_or_insert_with(|| {
            // The core depends on the cells holding both digits alone: kept while they stay.
            let both = s.positions(v1) & s.positions(v2);
            let (was, core) = &mut memo.cores[pair_index(v1, v2)];
            if *was != both {
                *was = both;
                *core = loop_core(both);
            }
            *core
        });
        if core & bit(cell) == 0 {
            continue;
        }
        let fresh = match &memo.by_start[cell] {
            Some(e) => {
                e.pair == m
                    && e.cells == core
                    && Cells(core)
                        .zip(&e.masks)
                        .all(|(c, &k)| s.candidates(c) == k)
            }
            None => false,
        };
        if !fresh {
            let mut loops = Vec::new();
            // A loop through an earlier start cell of the same pair was found from there, in both directions,
            // which rate as every reading of it does; found again from here it would come later among equals and
            // never be taken. So the search from here leaves those cells out.
            let earlier = Cells(core & (bit(cell) - 1))
                .filter(|&c| s.candidates(c) == m)
                .fold(0, |a, c| a | bit(c));
            let start = Walk {
                s,
                pair: m,
                core: core & !earlier,
                start: cell,
            };
            start.grow(
                cell,
                &mut path,
                bit(cell),
                2,
                0,
                usize::MAX,
                [0, 0],
                &mut loops,
            );
            let reach = loops
                .iter()
                .map(|lp| {
                    lp.iter()
                        .fold(0, |a, &c| a | PEERS[usize::from(c)] | bit(usize::from(c)))
                })
                .collect();
            memo.by_start[cell] = Some(LoopsFrom {
                pair: m,
                cells: core,
                masks: Cells(core).map(|c| s.candidates(c)).collect(),
                loops,
                reach,
            });
        }
        let Some(entry) = &memo.by_start[cell] else {
            continue;
        };
        for (lp, &reach) in entry.loops.iter().zip(&entry.reach) {
            if reach & changed == 0 {
                continue;
            }
            let extra: Vec<usize> = lp
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| pop(s.candidates(c)) > 2)
                .collect();
            let mut consider = |f: Found| {
                if f.elim.is_empty() {
                    return;
                }
                if best
                    .as_ref()
                    .is_none_or(|b| (f.rating, f.kind) < (b.rating, b.kind))
                {
                    best = Some(f);
                }
            };
            let base = 45
                + if lp.len() >= 10 { 3 } else { 0 }
                + if lp.len() >= 8 {
                    2
                } else if lp.len() >= 6 {
                    1
                } else {
                    0
                };
            match extra.len() {
                0 => {}
                1 => consider(Found {
                    rating: base,
                    kind: 1,
                    cells: lp.clone(),
                    digits: m,
                    elim: Digits(m).map(|d| Candidate::new(extra[0], d)).collect(),
                    house: None,
                }),
                2 => {
                    let rest = (s.candidates(extra[0]) | s.candidates(extra[1])) & !m;
                    if pop(rest) == 1 {
                        consider(type2(s, lp, &extra, m, base));
                    } else if pop(rest) >= 2 {
                        type3(s, lp, extra[0], extra[1], m, rest, base, &mut consider);
                    }
                    if let Some(f) = type4(s, lp, extra[0], extra[1], m, base) {
                        consider(f);
                    }
                }
                _ => consider(type2(s, lp, &extra, m, base)),
            }
        }
    }
    let Some(f) = best else {
        return false;
    };
    step.start(Technique::UniqueRectangle);
    step.rating = Rating(f.rating);
    step.kind = f.kind;
    step.digits = f.digits;
    for &c in &f.cells {
        step.cells.push(c);
        for d in Digits(f.digits) {
            step.highlights.push(Candidate::new(usize::from(c), d));
        }
    }
    if let Some(h) = f.house {
        step.houses.push(h as u8);
    }
    step.eliminations = f.elim;
    true
}

/// The index (0..36) of the pair of digits `a < b`.
fn pair_index(a: u8, b: u8) -> usize {
    let (a, b) = (usize::from(a - 1), usize::from(b - 1));
    a * (17 - a) / 2 + b - a - 1
}

/// The cells of `both` (the cells holding a pair of digits) that could be in a deadly loop of that pair: each
/// such cell has another loop cell in its box, its row and its column, so cells without a partner in `both` in
/// each of their houses go, until every cell left has one.
fn loop_core(both: CellSet) -> CellSet {
    let mut core = both;
    loop {
        let mut next = core;
        for c in Cells(core) {
            for t in 0..3 {
                if HOUSE[house_of(t, c)] & core & !bit(c) == 0 {
                    next &= !bit(c);
                    break;
                }
            }
        }
        if next == core {
            return core;
        }
        core = next;
    }
}

/// One search for loops of a pair from a start cell, through the cells of `core` only.
struct Walk<'a> {
    s: &'a Candidates,
    pair: u16,
    core: CellSet,
    start: usize,
}

impl Walk<'_> {
    /// Grow loops from `cell` (Sudoku Explainer's search, depth first), collecting the closed ones. `sides` are
    /// the houses touched by the cells at even and at odd places: a path touching a house twice from places of
    /// the same parity can never close into a deadly pattern, so it is not grown further (the loops found are the
    /// same). Only cells of the core are visited, in SE's order: a deadly loop never leaves it, so the deadly
    /// loops found, and their order, are those of the search through every cell holding the pair.
    #[allow(clippy::too_many_arguments)]
    fn grow(
        &self,
        cell: usize,
        path: &mut Vec<u8>,
        on_path: CellSet,
        allowed: i32,
        extras: u16,
        last: usize,
        mut sides: [u32; 2],
        out: &mut Vec<Vec<u8>>,
    ) {
        let side = &mut sides[path.len() % 2];
        for t in 0..3 {
            let h = 1u32 << house_of(t, cell);
            if *side & h != 0 {
                return;
            }
            *side |= h;
        }
        path.push(cell as u8);
        if path.len() <= MAX_LOOP {
            for t in 0..3 {
                if t == last {
                    continue;
                }
                for next in Cells(HOUSE[house_of(t, cell)] & self.core) {
                    if next == self.start && path.len() >= 4 {
                        if deadly(path) {
                            out.push(path.clone());
                        }
                    } else if on_path & bit(next) == 0 {
                        let m = self.s.candidates(next);
                        let ex = (extras | m) & !self.pair;
                        let n = pop(m);
                        if n == 2 || pop(ex) == 1 || allowed > 0 {
                            let a = if n > 2 { allowed - 1 } else { allowed };
                            self.grow(next, path, on_path | bit(next), a, ex, t, sides, out);
                        }
                    }
                }
            }
        }
        path.pop();
    }
}

/// Whether every house a loop touches holds two of its cells, one at an odd and one at an even place.
fn deadly(lp: &[u8]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    for (i, &c) in lp.iter().enumerate() {
        for t in 0..3 {
            let h = 1u32 << house_of(t, usize::from(c));
            let side = if i % 2 == 1 { &mut odd } else { &mut even };
            if *side & h != 0 {
                return false;
            }
            *side |= h;
        }
    }
    odd == even
}

fn type2(s: &Candidates, lp: &[u8], extra: &[usize], pair: u16, base: u8) -> Found {
    let rest = s.candidates(extra[0]) & !pair;
    let d = rest.trailing_zeros() as u8 + 1;
    let mut seen = super::tables::ALL_CELLS;
    let mut mine: CellSet = 0;
    for &c in extra {
        seen &= PEERS[c];
        mine |= bit(c);
    }
    let elim = Cells(seen & !mine & s.positions(d))
        .map(|c| Candidate::new(c, d))
        .collect();
    Found {
        rating: base,
        kind: 2,
        cells: lp.to_vec(),
        digits: pair,
        elim,
        house: None,
    }
}

/// Sudoku Explainer's combinations of `k` out of `n` (as bit masks, in increasing order).
pub(crate) fn combinations(n: usize, k: usize, mut f: impl FnMut(u32)) {
    if k > n {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let mut v: u32 = (1 << k) - 1;
    let limit: u32 = 1 << n;
    while v < limit {
        f(v);
        let low = v & v.wrapping_neg();
        let ripple = v + low;
        v = ripple | (((v ^ ripple) >> 2) / low);
    }
}

#[allow(clippy::too_many_arguments)]
fn type3(
    s: &Candidates,
    lp: &[u8],
    c1: usize,
    c2: usize,
    pair: u16,
    extra: u16,
    base: u8,
    consider: &mut impl FnMut(Found),
) {
    let mut rem_digits = [0u8; 9];
    let mut n_rem = 0;
    for d in Digits(0x1ff & !pair & !extra) {
        rem_digits[n_rem] = d;
        n_rem += 1;
    }
    let rem = &rem_digits[..n_rem];
    for degree in 2..=7usize {
        for t in 0..3 {
            let h = house_of(t, c1);
            if h != house_of(t, c2) {
                continue;
            }
            let empty = (s.unsolved() & HOUSE[h]).count_ones() as usize;
            let cells = &HOUSE_CELLS[h];
            let i1 = cells
                .iter()
                .position(|&c| usize::from(c) == c1)
                .unwrap_or(0);
            let i2 = cells
                .iter()
                .position(|&c| usize::from(c) == c2)
                .unwrap_or(0);
            // Naked sets: c1 (standing for both, with the extras) and degree - 1 other cells.
            if degree * 2 <= empty && degree >= pop(extra) as usize {
                // SE runs through every combination of the house's cells in increasing order and keeps those with
                // c1, without c2 and with two or more candidates in each cell: the same, in the same order, as
                // c1 with the combinations of the other cells that have two or more.
                let mut others = [0usize; 9];
                let mut n_others = 0;
                for (i, &c) in cells.iter().enumerate() {
                    if i != i1 && i != i2 && pop(s.candidates(usize::from(c))) >= 2 {
                        others[n_others] = i;
                        n_others += 1;
                    }
                }
                combinations(n_others, degree - 1, |sub| {
                    let mut mask = 1u32 << i1;
                    for (k, &i) in others[..n_others].iter().enumerate() {
                        if sub & (1 << k) != 0 {
                            mask |= 1 << i;
                        }
                    }
                    let mut naked = extra & s.candidates(c1) & s.candidates(c2);
                    let mut union = 0u16;
                    let mut ok = true;
                    let mut others: CellSet = 0;
                    for (i, &cell) in cells.iter().enumerate() {
                        if mask & (1 << i) == 0 {
                            continue;
                        }
                        let m = if i == i1 {
                            extra
                        } else {
                            let c = usize::from(cell);
                            others |= bit(c);
                            let m = s.candidates(c);
                            naked |= m;
                            m
                        };
                        if pop(m) <= 1 {
                            ok = false;
                        }
                        union |= m;
                    }
                    if pop(naked) as usize != degree || !ok || pop(union) as usize != degree {
                        return;
                    }
                    let mut elim = Vec::new();
                    for &c in cells {
                        let c = usize::from(c);
                        if others & bit(c) != 0 || c == c1 || c == c2 {
                            continue;
                        }
                        for d in Digits(union & s.candidates(c)) {
                            elim.push(Candidate::new(c, d));
                        }
                    }
                    if elim.is_empty() {
                        return;
                    }
                    consider(Found {
                        rating: base + (pop(union) as u8 - 1),
                        kind: 3,
                        cells: lp.to_vec(),
                        digits: pair,
                        elim,
                        house: Some(h),
                    });
                });
            }
            // Hidden sets: a and b with degree - 2 other digits, on degree cells of the house (c2 left out).
            if degree * 2 < empty && degree - 2 <= rem.len() {
                combinations(rem.len(), degree - 2, |mask| {
                    let mut values = 0u16;
                    for (i, &d) in rem.iter().enumerate() {
                        if mask & (1 << i) != 0 {
                            values |= 1 << (d - 1);
                        }
                    }
                    values |= pair;
                    let mut union: CellSet = 0;
                    for d in Digits(values) {
                        let p = s.positions(d) & HOUSE[h] & !bit(c2);
                        if p == 0 {
                            return;
                        }
                        union |= p;
                    }
                    if union.count_ones() as usize != degree {
                        return;
                    }
                    let mut elim = Vec::new();
                    let mut positions = 0;
                    for c in Cells(union & !bit(c1) & !bit(c2)) {
                        positions += 1;
                        for d in Digits(s.candidates(c) & !values) {
                            elim.push(Candidate::new(c, d));
                        }
                    }
                    if elim.is_empty() {
                        return;
                    }
                    consider(Found {
                        rating: base + (positions as u8).saturating_sub(1),
                        kind: 3,
                        cells: lp.to_vec(),
                        digits: pair,
                        elim,
                        house: Some(h),
                    });
                });
            }
        }
    }
}

fn type4(s: &Candidates, lp: &[u8], c1: usize, c2: usize, pair: u16, base: u8) -> Option<Found> {
    let mut digits = Digits(pair);
    let (v1, v2) = (digits.next()?, digits.next()?);
    let (mut r1, mut r2) = (None, None);
    for t in 0..3 {
        let h = house_of(t, c1);
        if h != house_of(t, c2) {
            continue;
        }
        let others = HOUSE[h] & !bit(c1) & !bit(c2);
        if s.positions(v1) & others == 0 {
            r1 = Some(h);
        }
        if s.positions(v2) & others == 0 {
            r2 = Some(h);
        }
    }
    let (h, rem) = match (r1, r2) {
        (Some(h), _) => (h, v2),
        (None, Some(h)) => (h, v1),
        _ => return None,
    };
    Some(Found {
        rating: base,
        kind: 4,
        cells: lp.to_vec(),
        digits: pair,
        elim: vec![Candidate::new(c1, rem), Candidate::new(c2, rem)],
        house: Some(h),
    })
}

/// The bivalue universal grave, types 1 to 4, as Sudoku Explainer finds it.
pub(crate) fn bug(s: &Candidates, step: &mut Step) -> bool {
    let mut temp = s.clone();
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<CellSet> = None;
    let mut all_extra: Option<CellSet> = None;
    let mut only_value = 0u8;
    let mut one_value = true;
    // The cells with three or more candidates.
    let mut wide: CellSet = 0;
    for c in Cells(s.unsolved()) {
        let m = s.candidates(c);
        let rest = m & m.wrapping_sub(1);
        if rest & rest.wrapping_sub(1) != 0 {
            wide |= bit(c);
        }
    }
    let note = |cell: usize,
                d: u8,
                counted: bool,
                bug_cells: &mut Vec<usize>,
                bug_values: &mut [u16; 81],
                all_values: &mut u16,
                temp: &mut Candidates,
                common: &mut Option<CellSet>|
     -> bool {
        if !bug_cells.contains(&cell) {
            bug_cells.push(cell);
        }
        bug_values[cell] |= 1 << (d - 1);
        // The cells added at the end (every extra being one digit) do not count their digit (as in SE).
        if counted {
            *all_values |= 1 << (d - 1);
        }
        temp.eliminate(cell, d);
        let mut c = common.map_or(PEERS[cell], |c| c & PEERS[cell]);
        for &b in bug_cells.iter() {
            c &= !bit(b);
        }
        *common = Some(c);
        // Not a BUG of types 1 to 3 (and so of none).
        !(bug_cells.len() > 1 && pop(*all_values) > 1 && c == 0)
    };
    for t in 0..3 {
        for i in 0..9 {
            let h = match t {
                0 => 18 + i,
                1 => i,
                _ => 9 + i,
            };
            for d in 1..=9u8 {
                let places = s.positions(d) & HOUSE[h];
                // No place, or two (without a bit count: there is no instruction for it on baseline x86-64).
                let rest = places & places.wrapping_sub(1);
                if places == 0 || (rest != 0 && rest & rest.wrapping_sub(1) == 0) {
                    continue;
                }
                let new = places & wide;
                match all_extra {
                    None => {
                        all_extra = Some(new);
                        only_value = d;
                    }
                    Some(ref mut set) if one_value => {
                        if only_value == d {
                            *set |= new;
                        } else {
                            one_value = false;
                        }
                    }
                    _ => {}
                }
                if new != 0
                    && new & (new - 1) == 0
                    && !note(
                        new.trailing_zeros() as usize,
                        d,
                        true,
                        &mut bug_cells,
                        &mut bug_values,
                        &mut all_values,
                        &mut temp,
                        &mut common,
                    )
                {
                    return false;
                }
                if new == 0 {
                    return false;
                }
            }
        }
    }
    if one_value
        && let Some(set) = all_extra
        && set.count_ones() as usize > bug_cells.len()
    {
        let mut rest = set;
        for &b in &bug_cells {
            rest &= !bit(b);
        }
        for c in Cells(rest) {
            if !note(
                c,
                only_value,
                false,
                &mut bug_cells,
                &mut bug_values,
                &mut all_values,
                &mut temp,
                &mut common,
            ) {
                return false;
            }
        }
    }
    // What is left must be a deadly pattern: two candidates in every cell, two places for every digit in a house.
    for c in Cells(temp.unsolved()) {
        if pop(temp.candidates(c)) != 2 {
            return false;
        }
    }
    for house in &HOUSE {
        for d in 1..=9u8 {
            let n = (temp.positions(d) & house).count_ones();
            if n != 0 && n != 2 {
                return false;
            }
        }
    }
    if bug_cells.is_empty() {
        return false;
    }
    let common = common.unwrap_or(0);
    let mut found: Option<(u8, u8, Vec<Candidate>, Option<usize>)> = None;
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let elim = Digits(s.candidates(c) & !all_values)
            .map(|d| Candidate::new(c, d))
            .collect();
        found = Some((56, 1, elim, None));
    } else if pop(all_values) == 1 {
        let d = all_values.trailing_zeros() as u8 + 1;
        let elim: Vec<Candidate> = Cells(common & s.positions(d))
            .map(|c| Candidate::new(c, d))
            .collect();
        if !elim.is_empty() {
            found = Some((57, 2, elim, None));
        } else if bug_cells.len() == 2 {
            found = bug4(s, &bug_cells, &bug_values, all_values);
        }
    } else if common != 0 {
        if bug_cells.len() == 2 {
            found = bug4(s, &bug_cells, &bug_values, all_values);
        }
        if found.is_none() {
            found = bug3(s, &bug_cells, all_values, common);
        }
    }
    let Some((rating, kind, elim, house)) = found else {
        return false;
    };
    step.start(Technique::Bug);
    step.rating = Rating(rating);
    step.kind = kind;
    step.digits = all_values;
    for &c in &bug_cells {
        step.cells.push(c as u8);
        for d in Digits(bug_values[c]) {
            step.highlights.push(Candidate::new(c, d));
        }
    }
    if let Some(h) = house {
        step.houses.push(h as u8);
    }
    step.eliminations = elim;
    true
}

type BugFound = Option<(u8, u8, Vec<Candidate>, Option<usize>)>;

fn shared_house(t: usize, cells: &[usize]) -> Option<usize> {
    let h = house_of(t, *cells.first()?);
    cells.iter().all(|&c| house_of(t, c) == h).then_some(h)
}

fn bug4(s: &Candidates, cells: &[usize], values: &[u16; 81], all: u16) -> BugFound {
    let (c1, c2) = (cells[0], cells[1]);
    let common = s.candidates(c1) & s.candidates(c2) & !all;
    if pop(common) != 1 {
        return None;
    }
    let d = common.trailing_zeros() as u8 + 1;
    for t in 0..3 {
        if let Some(h) = shared_house(t, cells) {
            let mut elim = Vec::new();
            for c in [c1, c2] {
                for e in Digits(s.candidates(c) & !values[c] & !common) {
                    elim.push(Candidate::new(c, e));
                }
            }
            let _ = d;
            // SE would report a step removing nothing (and take it again and again); none is taken here.
            return (!elim.is_empty()).then_some((57, 4, elim, Some(h)));
        }
    }
    None
}

fn bug3(s: &Candidates, cells: &[usize], all: u16, common: CellSet) -> BugFound {
    for degree in 2..=6usize {
        for t in 0..3 {
            let Some(h) = shared_house(t, cells) else {
                continue;
            };
            let region: Vec<usize> = Cells(common & HOUSE[h]).collect();
            if region.len() < degree {
                continue;
            }
            let mut found: BugFound = None;
            combinations(region.len(), degree - 1, |mask| {
                if found.is_some() {
                    return;
                }
                let mut union = 0u16;
                let mut ok = pop(all) >= 2;
                let mut naked: CellSet = 0;
                for (i, &c) in region.iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        let m = s.candidates(c);
                        ok &= pop(m) >= 2;
                        union |= m;
                        naked |= bit(c);
                    }
                }
                if pop(union) as usize != degree || !ok || pop(union | all) as usize != degree {
                    return;
                }
                let set = union | all;
                let mut elim = Vec::new();
                for &c in &region {
                    if naked & bit(c) != 0 || cells.contains(&c) {
                        continue;
                    }
                    for d in Digits(s.candidates(c) & set) {
                        elim.push(Candidate::new(c, d));
                    }
                }
                if !elim.is_empty() {
                    found = Some((57 + (pop(set) as u8 - 1), 3, elim, Some(h)));
                }
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
