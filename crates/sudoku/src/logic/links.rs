//! Chains of strong links on one digit: the turbot-fish family (two links) and its longer forms (three and four
//! links), plain or grouped, as Sudoku Explainer's serate build finds and rates them.
//!
//! A *strong link* is a house where the digit has exactly two places, or where its places fall into two groups
//! (one of which must hold it). A chain joins `n` strong links in different houses end to end: the second end of
//! each link and the first end of the next lie in one house (a weak link: at most one of them holds the digit).
//! Then one of the chain's two outer ends holds the digit, and it leaves every cell that sees both. When the two
//! outer ends also share a house the chain closes into a loop, and every weak link of the loop holds the digit
//! once, so it leaves the cells that see both ends of any weak link.
//!
//! What counts as a link, and how the search chooses, follows SE (the rating depends on both):
//!
//! - A house is a link when it holds two to six places of the digit. Two places make a plain link, except in a
//!   box where they share a row or column (that link belongs to the line). More places make a *grouped* link
//!   when they lie in two groups: in a line, in two of its three boxes (each box's places a group); in a box,
//!   on the row and the column through one cell (an empty rectangle: the column's places against the row's,
//!   the crossing cell counted with a group of two, or a single place against the whole other line of the box
//!   through the crossing cell), and failing that, with four places or more, in two of its rows or columns. SE
//!   takes the first such arrangement in a fixed order (crossing cells in reading order, then pairs of rows,
//!   then pairs of columns); a square of four places is a link both ways, rows and columns.
//! - The links of a chain have no place in common; consecutive ends must lie in one house, checked as a
//!   column first, then a row, then a box, and for a chain (not a loop) the candidates of the link houses and of
//!   those joining houses are not eliminated.
//! - Ratings: two links 4.0, three 5.4, four 5.8; plus 0.3 when any link is grouped, and otherwise 0.1 when a
//!   box is one of the links and 0.1 when both a row and a column are.
//! - Among all the chains of one length SE takes the easiest, then the one with the most eliminations (a
//!   loop's eliminations counted once per weak link that makes them), then the lowest "suffix" (the number of
//!   grouped links followed by the kinds of the links, read in the direction that gives the smaller string,
//!   rows and columns swapped when that is smaller), then the first found: by the kinds of the links, the
//!   digit, the houses, and the order of the links along the chain.
//! - A loop is reported only in one of its readings: starting at the link in the first house (boxes, then
//!   rows, then columns), from that link's first end, and read so that the list of links is the smaller of
//!   it and its reverse. A loop with no such reading is not reported at all, as in SE.
//! - SE searches two links right after the hidden triple, three after the hidden quad and four after the BUG;
//!   its five- and six-link searches are off by default, and here.
//!
//! One departure: where a box holds three places in an L (a single place in the column and one in the row
//! through the crossing cell, which holds the third), SE links the two single places as if the crossing cell
//! were empty, which can make a wrong elimination; here each single place is linked to the other line through
//! the crossing cell.

use super::state::Candidates;
use super::step::{Candidate, ChainNode, Rating, Step, Technique, TechniqueSet};
use super::tables::{CELL_HOUSES, CellSet, Cells, HOUSE, HOUSE_CELLS, PEERS, bit, digit_bit};

/// One strong link of a digit.
#[derive(Clone, Copy, Debug, Default)]
struct Link {
    /// The house (0-8 rows, 9-17 columns, 18-26 boxes).
    house: u8,
    /// SE's kind: 0 box, 1 row, 2 column.
    kind: u8,
    /// The house's number within its kind.
    index: u8,
    /// Which of SE's readings of the house this is (0 or 1).
    variant: u8,
    /// Whether a side holds more than one place.
    grouped: bool,
    /// The two sides: one of them holds the digit.
    sides: [CellSet; 2],
    /// The digit's places in the house.
    places: CellSet,
}

/// For a box: the cells (box positions) off the row and column through each crossing cell, and the two groups
/// (the column's cells, the row's cells); then pairs of rows and pairs of columns (the row or column left out,
/// the two kept).
const BOX_SHAPES: [(u16, u16, u16); 15] = {
    let mut t = [(0u16, 0u16, 0u16); 15];
    let mut e = 0;
    while e < 9 {
        let (r, c) = (e / 3, e % 3);
        let row = 0b111u16 << (3 * r);
        let col = 0b001_001_001u16 << c;
        let heart = 1u16 << e;
        t[e] = (0x1ff & !(row | col), col & !heart, row & !heart);
        e += 1;
    }
    let rows = [0b111u16, 0b111 << 3, 0b111 << 6];
    let cols = [0b001_001_001u16, 0b010_010_010, 0b100_100_100];
    // Left out: row 3, row 2, row 1; column 3, column 2, column 1.
    t[9] = (rows[2], rows[0], rows[1]);
    t[10] = (rows[1], rows[0], rows[2]);
    t[11] = (rows[0], rows[1], rows[2]);
    t[12] = (cols[2], cols[0], cols[1]);
    t[13] = (cols[1], cols[0], cols[2]);
    t[14] = (cols[0], cols[1], cols[2]);
    t
};

/// For a line: the box segment left out, and the two kept.
const LINE_SHAPES: [(u16, u16, u16); 3] = [
    (0b111, 0b111 << 3, 0b111 << 6),
    (0b111 << 3, 0b111, 0b111 << 6),
    (0b111 << 6, 0b111, 0b111 << 3),
];

/// The cells of house `h` at the positions of `local`.
fn cells_of(h: usize, local: u16) -> CellSet {
    let mut set = 0;
    let mut m = local;
    while m != 0 {
        set |= bit(usize::from(HOUSE_CELLS[h][m.trailing_zeros() as usize]));
        m &= m - 1;
    }
    set
}

/// The lowest and the second lowest position of a mask.
fn first_two(m: u16) -> (u16, u16) {
    let a = m & m.wrapping_neg();
    let rest = m & !a;
    (a, rest & rest.wrapping_neg())
}

/// The strong links of a digit whose places are `pos`, pushed onto `out`.
fn links_of(pos: CellSet, out: &mut Vec<Link>) {
    out.clear();
    // Each house's places as positions within it (bit `i` for its `i`th cell in reading order).
    let mut locals = [0u16; 27];
    for r in 0..9 {
        let row = ((pos >> (9 * r)) & 0x1ff) as u16;
        locals[r] = row;
        let mut m = row;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            locals[9 + c] |= 1 << r;
        }
    }
    for b in 0..9 {
        let base = (b / 3) * 27 + (b % 3) * 3;
        let third = |k: usize| ((pos >> (base + 9 * k)) & 0b111) as u16;
        locals[18 + b] = third(0) | third(1) << 3 | third(2) << 6;
    }
    for kind in 0..3u8 {
        for index in 0..9u8 {
            let h = match kind {
                0 => 18 + usize::from(index),
                1 => usize::from(index),
                _ => 9 + usize::from(index),
            };
            let local = locals[h];
            let n = super::basic::pop9(local) as u32;
            if !(2..=6).contains(&n) {
                continue;
            }
            let places = pos & HOUSE[h];
            let mut link = Link {
                house: h as u8,
                kind,
                index,
                variant: 0,
                grouped: n > 2,
                sides: [0; 2],
                places,
            };
            if n == 2 {
                let (a, b) = first_two(local);
                let (a, b) = (a.trailing_zeros(), b.trailing_zeros());
                if kind == 0 && (a / 3 == b / 3 || a % 3 == b % 3) {
                    continue;
                }
                link.sides = [cells_of(h, 1 << a), cells_of(h, 1 << b)];
                out.push(link);
                continue;
            }
            // The first arrangement in two groups, in SE's order.
            let shapes: &[(u16, u16, u16)] = if kind == 0 {
                if n >= 4 {
                    &BOX_SHAPES
                } else {
                    &BOX_SHAPES[..9]
                }
            } else {
                &LINE_SHAPES
            };
            let Some((e, &(_, g1, g2))) = shapes
                .iter()
                .enumerate()
                .find(|(_, (off, _, _))| local & off == 0)
            else {
                continue;
            };
            let (b1, b2) = (local & g1, local & g2);
            if b1 == 0 || b2 == 0 {
                continue;
            }
            let (n1, n2) = (super::basic::pop9(b1) as u32, super::basic::pop9(b2) as u32);
            if kind == 0 && e < 9 {
                let heart = 1u16 << e;
                if n1 == 1 || n2 == 1 {
                    // A single place against the other line through the crossing cell (the crossing cell
                    // counted whether or not it holds the digit).
                    if n1 == 1 {
                        link.sides = [cells_of(h, b1), cells_of(h, b2 | heart)];
                        out.push(link);
                    }
                    if n2 == 1 {
                        link.variant = 1;
                        link.sides = [cells_of(h, b2), cells_of(h, b1 | heart)];
                        out.push(link);
                    }
                } else {
                    let hp = local & heart;
                    link.sides = [cells_of(h, b1 | hp), cells_of(h, b2 | hp)];
                    out.push(link);
                }
            } else if kind != 0 && (n1 == 1 || n2 == 1) {
                if n1 == 1 {
                    link.sides = [cells_of(h, b1), cells_of(h, b2)];
                } else {
                    link.variant = 1;
                    link.sides = [cells_of(h, b2), cells_of(h, b1)];
                }
                out.push(link);
            } else {
                link.sides = [cells_of(h, b1), cells_of(h, b2)];
                out.push(link);
                // A square of four places: also its other pair of lines.
                if kind == 0 && n == 4 && n1 == 2 && n2 == 2 {
                    let ((p1, p3), (p2, p4)) = (first_two(b1), first_two(b2));
                    let same_line = |a: u16, b: u16| {
                        let (a, b) = (a.trailing_zeros(), b.trailing_zeros());
                        a / 3 == b / 3 || a % 3 == b % 3
                    };
                    if same_line(p1, p2) && same_line(p3, p4) {
                        link.variant = 1;
                        link.sides = [cells_of(h, p1 | p2), cells_of(h, p3 | p4)];
                        out.push(link);
                    }
                }
            }
        }
    }
}

/// The houses holding every cell of `cells` (bit `h` for house `h`).
fn houses_of(cells: CellSet) -> u32 {
    Cells(cells).fold((1 << 27) - 1, |acc, c| {
        let [r, col, b] = CELL_HOUSES[c];
        acc & (1 << r | 1 << col | 1 << b)
    })
}

/// The house SE names among `houses` (a set of houses holding two groups): a column, then a row, then a box.
fn pick_house(houses: u32) -> Option<u8> {
    const COLUMNS: u32 = 0x1ff << 9;
    const ROWS: u32 = 0x1ff;
    [COLUMNS, ROWS, !(COLUMNS | ROWS)]
        .into_iter()
        .map(|m| houses & m)
        .find(|&m| m != 0)
        .map(|m| m.trailing_zeros() as u8)
}

/// The cells that see every cell of `group`.
fn seeing(group: CellSet) -> CellSet {
    Cells(group).fold(!0, |acc, c| acc & PEERS[c])
}

/// Whether `q` (single digits) reads no later than its reverse.
fn is_lex(q: &[u8]) -> bool {
    q.iter().cmp(q.iter().rev()) != std::cmp::Ordering::Greater
}

/// SE's name of a sequence of link kinds (the part of its suffix after the number of grouped links), in the
/// first `set.len()` entries (at most four).
fn line_name(set: &[u8]) -> [u8; 4] {
    let n = set.len();
    let mut out = [0u8; 4];
    let any_row = set.contains(&1);
    if !any_row {
        for (o, &k) in out.iter_mut().zip(set) {
            *o = if k == 2 { 1 } else { k };
        }
        return out;
    }
    let swap = |k: u8| match k {
        1 => 2,
        2 => 1,
        k => k,
    };
    let (mut current, mut reversed) = ([0u8; 4], [0u8; 4]);
    for (i, &k) in set.iter().enumerate() {
        current[i] = swap(k);
        reversed[n - 1 - i] = swap(k);
    }
    let swapped = if reversed[..n] > current[..n] {
        current
    } else {
        reversed
    };
    if set > &swapped[..n] {
        swapped
    } else {
        out[..n].copy_from_slice(set);
        out
    }
}

/// The order in which SE's permutation generator (a countdown QuickPerm) produces the arrangements of `n` links.
fn quickperm(n: usize) -> Vec<[u8; 4]> {
    let mut q = [0u8, 1, 2, 3];
    let mut r = [0usize, 1, 2, 3, 4];
    r[n] = n;
    let mut out = vec![q];
    let mut s = 1;
    while s < n {
        r[s] -= 1;
        let t = if s % 2 == 1 { r[s] } else { 0 };
        q.swap(t, s);
        out.push(q);
        s = 1;
        while r[s] == 0 {
            r[s] = s;
            s += 1;
        }
    }
    out
}

/// A chain found, with SE's sort key.
#[derive(Clone, Copy, Debug)]
struct Found {
    rating: u8,
    count: u32,
    suffix: [u8; 5],
    /// The kinds of the links in SE's order of link-kind sets (last kind first).
    kinds: [u8; 4],
    digit: u8,
    /// (house number, reading) of the links in SE's recursion order.
    houses: [(u8, u8); 4],
    perm: u8,
    orient: u8,
    technique: Technique,
    n: usize,
    /// The links in chain order, each read from `sides[o]` to `sides[1 - o]`.
    links: [Link; 4],
    o: [u8; 4],
    ring: bool,
    victims: CellSet,
}

impl Found {
    /// Whether `self` comes before `other` in SE's sorted list.
    fn before(&self, other: &Found) -> bool {
        let a = (
            self.rating,
            std::cmp::Reverse(self.count),
            self.suffix,
            self.kinds,
            self.digit,
            self.houses,
            self.perm,
            self.orient,
        );
        let b = (
            other.rating,
            std::cmp::Reverse(other.count),
            other.suffix,
            other.kinds,
            other.digit,
            other.houses,
            other.perm,
            other.orient,
        );
        a < b
    }
}

/// The technique of a chain of `n` links.
fn technique_of(n: usize, grouped: bool, name: &[u8]) -> Technique {
    match n {
        2 if grouped => Technique::GroupedTurbotFish,
        2 if name.contains(&0) => Technique::TurbotFish,
        2 if name.contains(&2) => Technique::TwoStringKite,
        2 => Technique::Skyscraper,
        3 => Technique::ThreeStrongLinks,
        _ => Technique::FourStrongLinks,
    }
}

/// A digit's strong links, and which of their sides lie in one house.
struct Net {
    /// The digit's places the net was built for.
    pos: CellSet,
    links: Vec<Link>,
    /// For side `2 * l + s` (side `s` of link `l`): the houses holding all its cells.
    houses: Vec<u32>,
    /// For each side: the sides of other links, with no place in common, that one house holds with it.
    joined: Vec<u128>,
    /// For each side: the digit's places outside it that see all its cells.
    sees: Vec<CellSet>,
    /// For each link: SE's sort key (kind, then house number) as one number. The links are built in that order,
    /// so a link's key is above another's exactly when it comes later and is not another reading of its house.
    key: Vec<u8>,
    /// For each link: the sides of the links sharing a place with it (itself included).
    clash: Vec<u128>,
}

impl Default for Net {
    fn default() -> Self {
        Self {
            pos: u128::MAX,
            links: Vec::new(),
            houses: Vec::new(),
            joined: Vec::new(),
            sees: Vec::new(),
            key: Vec::new(),
            clash: Vec::new(),
        }
    }
}

impl Net {
    /// Rebuild for places `pos`.
    fn build(&mut self, pos: CellSet) {
        if self.pos == pos {
            return;
        }
        if self.links.capacity() == 0 {
            // At most two readings of each house: room for every link and side at once.
            self.links.reserve(54);
            self.key.reserve(54);
            self.clash.reserve(54);
            self.houses.reserve(108);
            self.joined.reserve(108);
            self.sees.reserve(108);
        }
        self.pos = pos;
        links_of(pos, &mut self.links);
        // At most 27 houses with two readings each: 108 sides, within a u128.
        self.houses.clear();
        self.sees.clear();
        self.key.clear();
        for l in &self.links {
            self.houses.push(houses_of(l.sides[0]));
            self.houses.push(houses_of(l.sides[1]));
            self.sees.push(pos & seeing(l.sides[0]) & !l.sides[0]);
            self.sees.push(pos & seeing(l.sides[1]) & !l.sides[1]);
            self.key.push(l.kind * 16 + l.index);
        }
        // The sides each house holds, and for each link the sides of the links sharing a place with it (itself
        // included).
        let mut in_house = [0u128; 27];
        for (b, &hs) in self.houses.iter().enumerate() {
            let mut hs = hs;
            while hs != 0 {
                in_house[hs.trailing_zeros() as usize] |= 1 << b;
                hs &= hs - 1;
            }
        }
        // For each place: the sides of the links holding it.
        let mut at = [0u128; 81];
        for (m, l) in self.links.iter().enumerate() {
            for c in Cells(l.places) {
                at[c] |= 0b11 << (2 * m);
            }
        }
        self.clash.clear();
        for l in &self.links {
            self.clash.push(Cells(l.places).fold(0, |a, c| a | at[c]));
        }
        self.joined.clear();
        for (a, &hs) in self.houses.iter().enumerate() {
            let clash = self.clash[a / 2];
            let mut m = 0u128;
            let mut hs = hs;
            while hs != 0 {
                m |= in_house[hs.trailing_zeros() as usize];
                hs &= hs - 1;
            }
            self.joined.push(m & !clash);
        }
    }
}

/// The search of one digit.
struct Search<'a> {
    n: usize,
    digit: u8,
    links: &'a [Link],
    houses: &'a [u32],
    joined: &'a [u128],
    sees: &'a [CellSet],
    key: &'a [u8],
    clash: &'a [u128],
    perms: &'a [[u8; 4]],
    allowed: TechniqueSet,
    chain: [(usize, u8); 4],
    best: Option<Found>,
}

impl Search<'_> {
    /// Extend the chain's first `depth` links. `open` holds the places a chain (not a loop) through them can
    /// still eliminate: those that see the start outside the links' houses; `ring` whether they can still be
    /// read as SE reads a loop (from the link with the smallest key, first side first). A chain that can be
    /// neither is not followed, nor one whose last link's key is below its first's (SE reads it the other way).
    fn extend(&mut self, depth: usize, banned: u128, open: CellSet, ring: bool) {
        if depth == self.n {
            self.evaluate();
            return;
        }
        let (prev, po) = self.chain[depth - 1];
        let from = 2 * prev + usize::from(1 - po);
        let first = self.chain[0].0;
        let first_key = self.key[first];
        let last = depth + 1 == self.n;
        let mut next = self.joined[from] & !banned;
        if last {
            // The sides of the links after the first (by key; its other reading shares its places).
            next &= u128::MAX << (2 * first + 2);
        }
        while next != 0 {
            let t = next.trailing_zeros() as usize;
            next &= next - 1;
            let m = t / 2;
            let key = self.key[m];
            let open2 = open & !HOUSE[usize::from(self.links[m].house)];
            let ring2 = ring && key > first_key;
            if last {
                let end = 2 * m + 1 - t % 2;
                if !ring2 && open2 & self.sees[end] == 0 {
                    continue;
                }
            } else if open2 == 0 && !ring2 {
                continue;
            }
            self.chain[depth] = (m, (t % 2) as u8);
            self.extend(depth + 1, banned | self.clash[m], open2, ring2);
        }
    }

    fn evaluate(&mut self) {
        let n = self.n;
        // SE's positions: the links sorted by kind, then house number (distinct houses: no ties).
        let key = |w: usize| self.key[self.chain[w].0];
        let mut q = [0u8; 4];
        let mut order = [0usize; 4];
        for (w, qw) in q[..n].iter_mut().enumerate() {
            let p = (0..n).filter(|&v| key(v) < key(w)).count();
            *qw = p as u8;
            order[p] = w;
        }
        if !is_lex(&q[..n]) {
            return;
        }
        let o: [u8; 4] = std::array::from_fn(|w| if w < n { self.chain[w].1 } else { 0 });
        // Side `s` of the chain's link `w`, as an index into the net's per-side tables.
        let side = |w: usize, s: u8| 2 * self.chain[w].0 + usize::from(s);
        let start = side(0, o[0]);
        let end = side(n - 1, 1 - o[n - 1]);
        let link_cells = (0..n).fold(0, |a, w| {
            a | HOUSE[usize::from(self.links[self.chain[w].0].house)]
        });
        let ring = self.houses[start] & self.houses[end] != 0;
        let (victims, count) = if ring {
            if q[0] != 0 || o[0] != 0 {
                return;
            }
            let mut all = 0;
            let mut count = 0;
            let mut add = |a: usize, b: usize| {
                let v = self.sees[a] & self.sees[b] & !link_cells;
                all |= v;
                count += v.count_ones();
            };
            add(start, end);
            for w in 0..n - 1 {
                add(side(w, 1 - o[w]), side(w + 1, o[w + 1]));
            }
            (all, count)
        } else {
            let mut v = self.sees[start] & self.sees[end] & !link_cells;
            if v == 0 {
                return;
            }
            for w in 0..n - 1 {
                if let Some(h) =
                    pick_house(self.houses[side(w, 1 - o[w])] & self.houses[side(w + 1, o[w + 1])])
                {
                    v &= !HOUSE[usize::from(h)];
                }
            }
            (v, v.count_ones())
        };
        if victims == 0 {
            return;
        }
        let links: [Link; 4] = std::array::from_fn(|w| {
            if w < n {
                self.links[self.chain[w].0]
            } else {
                Link::default()
            }
        });
        let grouped = links[..n].iter().filter(|l| l.grouped).count();
        let mut in_chain = [0u8; 4];
        for (k, l) in in_chain.iter_mut().zip(&links[..n]) {
            *k = l.kind;
        }
        if !is_lex(&in_chain[..n]) {
            in_chain[..n].reverse();
        }
        let name = line_name(&in_chain[..n]);
        let name = &name[..n];
        let base = match n {
            2 => 40,
            3 => 54,
            _ => 58,
        };
        let rating = if grouped > 0 {
            base + 3
        } else {
            base + u8::from(name.contains(&0)) + u8::from(name.contains(&2))
        };
        let technique = technique_of(n, grouped > 0, name);
        if !self.allowed.contains(technique) {
            return;
        }
        let mut suffix = [u8::MAX; 5];
        suffix[0] = grouped as u8;
        suffix[1..=n].copy_from_slice(name);
        let mut kinds = [0u8; 4];
        for (i, &w) in order[..n].iter().rev().enumerate() {
            kinds[i] = links[w].kind;
        }
        let mut houses = [(0u8, 0u8); 4];
        for (p, &w) in order[..n].iter().enumerate() {
            houses[p] = (links[w].index, links[w].variant);
        }
        let perm = self
            .perms
            .iter()
            .position(|p| p[..n] == q[..n])
            .unwrap_or(usize::MAX) as u8;
        let orient = (0..n).fold(0u8, |a, w| (a << 1) | o[w]);
        let found = Found {
            rating,
            count,
            suffix,
            kinds,
            digit: self.digit,
            houses,
            perm,
            orient,
            technique,
            n,
            links,
            o,
            ring,
            victims,
        };
        if self.best.as_ref().is_none_or(|b| found.before(b)) {
            self.best = Some(found);
        }
    }
}

/// The best chain of `n` links of digit `d` (SE's first after sorting), on the digit's net.
fn best_of_digit(
    net: &Net,
    d: u8,
    n: usize,
    allowed: TechniqueSet,
    perms: &[[u8; 4]],
) -> Option<Found> {
    if net.links.len() < n {
        return None;
    }
    let mut search = Search {
        n,
        digit: d,
        links: &net.links,
        houses: &net.houses,
        joined: &net.joined,
        sees: &net.sees,
        key: &net.key,
        clash: &net.clash,
        perms,
        allowed,
        chain: [(0, 0); 4],
        best: None,
    };
    for l in 0..net.links.len() {
        let link = &net.links[l];
        for o in 0..2u8 {
            let open = net.sees[2 * l + usize::from(o)] & !HOUSE[usize::from(link.house)];
            if open == 0 && o != 0 {
                continue;
            }
            search.chain[0] = (l, o);
            search.extend(1, net.clash[l], open, o == 0);
        }
    }
    search.best
}

/// Each digit's best chain of each length, kept while the digit's places stay.
pub(crate) struct LinksMemo {
    allowed: [Option<TechniqueSet>; 3],
    places: [[CellSet; 9]; 3],
    best: [[Option<Found>; 9]; 3],
    nets: [Net; 9],
    /// SE's order of arrangements of two, three and four links.
    perms: [Vec<[u8; 4]>; 3],
}

impl Default for LinksMemo {
    fn default() -> Self {
        Self {
            allowed: [None; 3],
            places: [[u128::MAX; 9]; 3],
            best: [[None; 9]; 3],
            nets: Default::default(),
            perms: [quickperm(2), quickperm(3), quickperm(4)],
        }
    }
}

/// The techniques of chains of `n` links.
pub(crate) fn techniques(n: usize) -> &'static [Technique] {
    match n {
        2 => &[
            Technique::Skyscraper,
            Technique::TwoStringKite,
            Technique::TurbotFish,
            Technique::GroupedTurbotFish,
        ],
        3 => &[Technique::ThreeStrongLinks],
        _ => &[Technique::FourStrongLinks],
    }
}

/// SE's chain of `n` strong links (2 to 4) on the grid, if any: fills `step` and returns whether there is one.
pub(crate) fn strong_links(
    s: &Candidates,
    step: &mut Step,
    n: usize,
    allowed: TechniqueSet,
    memo: &mut LinksMemo,
) -> bool {
    let slot = n - 2;
    if memo.allowed[slot] != Some(allowed) {
        memo.allowed[slot] = Some(allowed);
        memo.places[slot] = [u128::MAX; 9];
    }
    let mut best: Option<Found> = None;
    for d in 1..=9u8 {
        let di = usize::from(d - 1);
        let pos = s.positions(d);
        if memo.places[slot][di] != pos {
            memo.places[slot][di] = pos;
            // The links of a chain hold two places each or more, none in common, and what it eliminates is a
            // place outside them: with fewer places there is no chain, and no net to build.
            memo.best[slot][di] = if (pos.count_ones() as usize) < 2 * n + 1 {
                None
            } else {
                memo.nets[di].build(pos);
                best_of_digit(&memo.nets[di], d, n, allowed, &memo.perms[slot])
            };
        }
        if let Some(f) = &memo.best[slot][di]
            && best.as_ref().is_none_or(|b| f.before(b))
        {
            best = Some(*f);
        }
    }
    let Some(f) = best else {
        return false;
    };
    fill(s, step, &f);
    true
}

/// The step of a chain found.
fn fill(s: &Candidates, step: &mut Step, f: &Found) {
    let d = f.digit;
    step.start(f.technique);
    step.rating = Rating(f.rating);
    step.digits = digit_bit(d);
    let pos = s.positions(d);
    for w in 0..f.n {
        let l = &f.links[w];
        step.houses.push(l.house);
        for (k, on) in [(f.o[w], false), (1 - f.o[w], true)] {
            for c in Cells(l.sides[usize::from(k)]) {
                step.cells.push(c as u8);
                step.chain.push(ChainNode {
                    candidate: Candidate::new(c, d),
                    on,
                });
                if pos & bit(c) != 0 {
                    step.highlights.push(Candidate::new(c, d));
                }
            }
        }
    }
    // A loop's mark: its first house again.
    if f.ring {
        step.houses.push(f.links[0].house);
    }
    for c in Cells(f.victims) {
        step.eliminations.push(Candidate::new(c, d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quickperm_order_is_ses() {
        let p: Vec<[u8; 3]> = quickperm(3).iter().map(|q| [q[0], q[1], q[2]]).collect();
        assert_eq!(
            p,
            vec![
                [0, 1, 2],
                [1, 0, 2],
                [2, 0, 1],
                [0, 2, 1],
                [1, 2, 0],
                [2, 1, 0]
            ]
        );
        assert_eq!(quickperm(4).len(), 24);
        assert_eq!(quickperm(2), vec![[0, 1, 2, 3], [1, 0, 2, 3]]);
    }

    #[test]
    fn line_names_as_se() {
        assert_eq!(line_name(&[1, 1, 1])[..3], [1, 1, 1]);
        assert_eq!(line_name(&[2, 2, 2])[..3], [1, 1, 1]);
        assert_eq!(line_name(&[0, 1, 1])[..3], [0, 1, 1]);
        assert_eq!(line_name(&[0, 2, 2])[..3], [0, 1, 1]);
        assert_eq!(line_name(&[1, 2])[..2], [1, 2]);
        assert_eq!(line_name(&[2, 1, 1, 2]), [1, 2, 2, 1]);
    }
}
