//! The larger wings of Sudoku Explainer's default set: WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-Wing. Each is an almost
//! locked set of 3, 4, 5 or 6 cells that all see each other (two or more candidates each, one digit more than cells
//! between them) and a bivalue cell {x, z} outside it, both of whose digits are among the set's.
//!
//! When every cell of the set holding x sees the bivalue cell, x is "restricted": x is in the bivalue cell or in the
//! set, so z is either in the bivalue cell or locked in the set, and z goes from every cell seeing the bivalue cell
//! and all the set's cells holding z. When z is restricted too (a double link), the set is locked whatever happens:
//! each of its other digits goes from the cells seeing all the set's cells holding it, and x and z go as z does in
//! the single case. Ratings (SE): WXYZ 5.5, or 5.6 when the set's largest cell has three candidates; VWXYZ 6.2 plus
//! 0.1 for a largest cell of two or four candidates, 0.2 for three; UVWXYZ 6.6; TUVWXYZ 7.5. Among several of one
//! kind, the easiest, then the one with the most eliminations, then the largest of SE's names (double link, largest
//! cell, total size) comes first.

use super::state::Candidates;
use super::step::{Candidate, Rating, Step, Technique};
use super::tables::{ALL_CELLS, CellSet, Cells, Digits, HOUSE, HOUSE_CELLS, PEERS, bit, box_of};

struct Wing {
    rating: u8,
    count: usize,
    suffix: String,
    cells: Vec<usize>,
    elim: Vec<Candidate>,
    digits: u16,
}

/// The cells seeing every cell of `cells` that holds `d` (all cells when none does).
fn seeing(s: &Candidates, cells: &[usize], d: u8) -> CellSet {
    let mut v = ALL_CELLS;
    for &c in cells {
        if s.has(c, d) {
            v &= PEERS[c];
        }
    }
    v
}

/// The technique of a wing whose set has `n` cells.
fn technique(n: usize) -> Technique {
    match n {
        3 => Technique::WXYZWing,
        4 => Technique::VWXYZWing,
        5 => Technique::UVWXYZWing,
        _ => Technique::TUVWXYZWing,
    }
}

/// SE's rating of a wing with `n` cells whose largest cell has `biggest` candidates.
fn rating(n: usize, biggest: u32) -> u8 {
    let b = biggest as i32;
    match n {
        3 => (55 + (1 - (3 - b).abs())).max(55) as u8,
        4 => (62 + (2 - (3 - b).abs())).max(62) as u8,
        5 => 66,
        _ => 75,
    }
}

/// The almost locked sets of each house and size found by earlier searches, with the candidates of the house's cells
/// they were found from: they depend on nothing else.
pub(crate) struct WingMemo {
    /// Index `(n - 3) * 27 + house`.
    sets: Vec<Option<HouseSets>>,
}

/// One house's sets of one size: the candidates of its cells, and each set (its cells, the first `n` of the
/// array, and its digits) in SE's order.
struct HouseSets {
    key: [u16; 9],
    /// Each set: its cells (the first `n`), its digits, and its cells as a set.
    sets: Vec<([u8; 6], u16, CellSet)>,
}

impl Default for WingMemo {
    fn default() -> Self {
        Self {
            sets: (0..4 * 27).map(|_| None).collect(),
        }
    }
}

/// The wing of `n` cells (3 to 6) SE would take, if any. `changed` holds the cells whose candidates changed since
/// this search last found nothing (all cells the first time): a wing whose cells all kept their candidates had no
/// eliminations then and has none now (the cells it would eliminate from only lose candidates), so only wings with a
/// changed cell are looked at; the easiest of those is the easiest of all.
pub(crate) fn wing(
    s: &Candidates,
    step: &mut Step,
    n: usize,
    changed: CellSet,
    memo: &mut WingMemo,
) -> bool {
    let mut best: Option<Wing> = None;
    let mut set = Vec::with_capacity(n);
    let empty = s.unsolved();
    // A new wing has a changed cell in its set, or a changed bivalue cell as its pincer, which sees a cell of the
    // set: so its set has a cell in `hot`.
    let mut hot = changed;
    for c in Cells(changed & empty) {
        if pop(s.candidates(c)) == 2 {
            hot |= PEERS[c];
        }
    }
    let bivalue = Cells(empty)
        .filter(|&c| pop(s.candidates(c)) == 2)
        .fold(0, |a, c| a | bit(c));
    let search = Search { s, n };
    // Cells that all see each other share a house. A set inside one box and one line is looked at in its box.
    let mut fits = Vec::with_capacity(9);
    for h in 0..27 {
        if HOUSE[h] & hot == 0 {
            continue;
        }
        let key: [u16; 9] = std::array::from_fn(|i| s.candidates(usize::from(HOUSE_CELLS[h][i])));
        let slot = &mut memo.sets[(n - 3) * 27 + h];
        if slot.as_ref().is_none_or(|e| e.key != key) {
            fits.clear();
            fits.extend(HOUSE_CELLS[h].iter().map(|&c| usize::from(c)).filter(|&c| {
                let k = pop(s.candidates(c)) as usize;
                (2..=n + 1).contains(&k)
            }));
            // The set list of the house's last search, emptied, holds the new one.
            let mut sets = slot.take().map(|e| e.sets).unwrap_or_default();
            sets.clear();
            set.clear();
            if fits.len() >= n {
                search.grow(&fits, 0, h >= 18, &mut set, 0, &mut sets);
            }
            *slot = Some(HouseSets { key, sets });
        }
        let Some(entry) = slot.as_ref() else {
            continue;
        };
        for &(cells, union, mask) in &entry.sets {
            if mask & hot == 0 {
                continue;
            }
            set.clear();
            set.extend(cells[..n].iter().map(|&k| usize::from(k)));
            pincers(s, &set, union, changed, bivalue, &mut best);
        }
    }
    let Some(w) = best else {
        return false;
    };
    step.start(technique(n));
    step.rating = Rating(w.rating);
    step.cells = w.cells.iter().map(|&c| c as u8).collect();
    step.digits = w.digits;
    for &c in &w.cells {
        for d in Digits(s.candidates(c)) {
            step.highlights.push(Candidate::new(c, d));
        }
    }
    step.eliminations = w.elim;
    true
}

/// The number of digits of a digit mask (by table: baseline x86-64 has no instruction for it).
#[inline]
fn pop(m: u16) -> u32 {
    super::basic::pop9(m) as u32
}

/// One search for the almost locked sets of `n` cells in a house.
struct Search<'a> {
    s: &'a Candidates,
    n: usize,
}

impl Search<'_> {
    /// Grow sets of cells of one house (`fits`, its cells that can be in a set, in increasing order) from its
    /// `from`th, with at most `n + 1` digits; those of `n` cells and `n + 1` digits go to `out`. Each set is found
    /// once: a line's sets inside one box are left to the box.
    fn grow(
        &self,
        fits: &[usize],
        from: usize,
        in_box: bool,
        set: &mut Vec<usize>,
        union: u16,
        out: &mut Vec<([u8; 6], u16, CellSet)>,
    ) {
        let n = self.n;
        for (i, &c) in fits.iter().enumerate().skip(from) {
            if fits.len() - i < n - set.len() {
                return;
            }
            let u = union | self.s.candidates(c);
            if pop(u) as usize > n + 1 {
                continue;
            }
            set.push(c);
            if set.len() == n {
                if pop(u) as usize == n + 1
                    && (in_box || !set.iter().all(|&k| box_of(k) == box_of(set[0])))
                {
                    let mut cells = [0u8; 6];
                    let mut mask = 0;
                    for (x, &k) in cells.iter_mut().zip(set.iter()) {
                        *x = k as u8;
                        mask |= bit(k);
                    }
                    out.push((cells, u, mask));
                }
            } else {
                self.grow(fits, i + 1, in_box, set, u, out);
            }
            set.pop();
        }
    }
}

/// Every bivalue cell completing the set `als` (digits `union`) into a wing.
fn pincers(
    s: &Candidates,
    als: &[usize],
    union: u16,
    changed: CellSet,
    bivalue: CellSet,
    best: &mut Option<Wing>,
) {
    // The pincer: a bivalue cell within the set's digits.
    let mut inside = bivalue;
    for d in Digits(0x1ff & !union) {
        inside &= !s.positions(d);
    }
    let seen = als.iter().fold(0, |a, &c| a | PEERS[c]);
    if inside & seen == 0 {
        return;
    }
    let n = als.len();
    let mut range: CellSet = 0;
    let mut mine: CellSet = 0;
    let mut biggest = 0;
    let mut size = 0;
    for &c in als {
        range |= PEERS[c];
        mine |= bit(c);
        let k = pop(s.candidates(c));
        biggest = biggest.max(k);
        size += k;
    }
    // Without a changed cell in the set, only a changed bivalue cell can make a new wing.
    let ys = if mine & changed == 0 {
        changed
    } else {
        ALL_CELLS
    };
    for y in Cells(range & !mine & inside & ys) {
        let my = s.candidates(y);
        if pop(my) != 2 || my & union != my {
            continue;
        }
        let mut it = Digits(my);
        let (Some(x), Some(z)) = (it.next(), it.next()) else {
            continue;
        };
        let restricted = |d: u8| mine & s.positions(d) & !PEERS[y] == 0;
        let (rx, rz) = (restricted(x), restricted(z));
        if !rx && !rz {
            continue;
        }
        let double = rx && rz;
        // The eliminated digit of a single link: the one that is not restricted.
        let out = if double || rx { z } else { x };
        let all = mine | bit(y);
        let count = |d: u8, v: CellSet| (v & !all & s.positions(d)).count_ones();
        let mut elim = Vec::new();
        let mut push = |d: u8, v: CellSet| {
            for k in Cells(v & !all & s.positions(d)) {
                elim.push(Candidate::new(k, d));
            }
        };
        let mut weak = false;
        let mut strong_x = false;
        if double {
            for w in Digits(union & !my) {
                let v = seeing(s, als, w);
                weak |= count(w, v) > 0;
                push(w, v);
            }
            let v = PEERS[y] & seeing(s, als, x);
            strong_x = count(x, v) > 0;
            push(x, v);
        }
        let v = PEERS[y] & seeing(s, als, out);
        let strong_z = count(out, v) > 0;
        push(out, v);
        if elim.is_empty() {
            continue;
        }
        // SE names a double link only where it removes more than a single link would.
        let named_double = double && (weak || (strong_z && strong_x));
        let suffix = format!("{}{}{}", if named_double { 2 } else { 1 }, biggest, size);
        let mut cells = als.to_vec();
        cells.push(y);
        let w = Wing {
            rating: rating(n, biggest),
            count: elim.len(),
            suffix,
            cells,
            elim,
            digits: union,
        };
        // SE's choice; among equals, the first in SE's order (sets in increasing order of their cells, then the
        // pincer), which the search by house does not follow, so it is compared here.
        let better = match best.as_ref() {
            None => true,
            Some(b) => {
                (
                    w.rating,
                    std::cmp::Reverse(w.count),
                    std::cmp::Reverse(&w.suffix),
                    &w.cells,
                ) < (
                    b.rating,
                    std::cmp::Reverse(b.count),
                    std::cmp::Reverse(&b.suffix),
                    &b.cells,
                )
            }
        };
        if better {
            *best = Some(w);
        }
    }
}
