//! Nishio and dynamic forcing chains, following Sudoku Explainer's propagation and its way of counting a chain.
//!
//! A chain starts from one assumption (a candidate "on", or "off") and propagates. An "on" candidate turns off
//! the other candidates of its cell and the same digit in its row, column and box. An "off" candidate turns on the
//! last candidate of its cell and the last place of its digit in a box, row or column. In a *dynamic* chain every
//! candidate turned off is taken out of the grid for the rest of the chain, so later "last candidate" and "last
//! place" tests see the grid as the chain has left it; the candidates whose removal made a cell or a place the
//! last one become further causes of what follows ("hidden" causes). Propagation takes every "on" consequence
//! first, and the "off" ones one at a time in the order they were found; each candidate keeps the causes it was
//! first found with.
//!
//! A chain is counted as SE counts it: the number of distinct candidates among the conclusion and all its causes,
//! down to the assumption. The rating is the technique's base plus SE's length bonus for that count (0.1 more each
//! time the count less two passes 4, 6, 8, 12, 16, 24, 32, ...); for a step made of several chains, the counts are
//! added.
//!
//! What each kind looks for, in SE's order of cells (row by row) and digits:
//! - **Nishio** (7.5): chains on one digit only (no links within a cell), dynamic; a candidate whose "on" leads
//!   to a contradiction goes, one whose "off" does is placed.
//! - **Dynamic** (8.5): both kinds of links, dynamic, from every candidate of every cell with two or more: a
//!   contradiction from "on" or "off"; for cells with three or more candidates, what follows from both "on" and
//!   "off" of a candidate; what follows from every place of the digit in a box, row or column with two or more
//!   places (from the first of them); what follows from every candidate of the cell.
//! - **Dynamic (+)** (9.0): as dynamic, but when propagation stops, locked candidates, hidden and naked pairs and
//!   X-wings that the chain has made appear in the grid add their eliminations (caused by the removals they rest
//!   on), and propagation goes on.
//!
//! Of all the steps one kind finds, the one with the smallest count is taken; among equals, double-implication
//! steps, then cell, then region, then contradictions; among those, the first found.

use super::state::Candidates;
use super::step::{Candidate, ChainNode, Rating, Step, Technique};
use super::tables::{CellSet, Cells, Digits, HOUSE, HOUSE_CELLS, bit};
use super::unique::house_of;

/// A potential: `(cell * 9 + digit - 1) * 2 + on`.
type Pot = u16;

const NONE: u32 = u32::MAX;
const POTS: usize = 81 * 9 * 2;

#[inline]
fn pot(cell: usize, d: u8, on: bool) -> Pot {
    ((cell * 9 + usize::from(d - 1)) * 2 + usize::from(on)) as Pot
}
#[inline]
fn pcell(p: Pot) -> usize {
    usize::from(p) / 18
}
#[inline]
fn pdigit(p: Pot) -> u8 {
    ((usize::from(p) / 2) % 9) as u8 + 1
}
#[inline]
fn pon(p: Pot) -> bool {
    p & 1 == 1
}
#[inline]
fn dbit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The potentials one propagation reached, with the causes each was first found with, in the order found.
#[derive(Clone)]
pub(crate) struct Run {
    slot: Vec<u32>,
    entries: Vec<(Pot, u32, u32)>,
    parents: Vec<Pot>,
    on_order: Vec<u32>,
    off_order: Vec<u32>,
}

impl Default for Run {
    fn default() -> Self {
        Self {
            slot: vec![NONE; POTS],
            entries: Vec::new(),
            parents: Vec::new(),
            on_order: Vec::new(),
            off_order: Vec::new(),
        }
    }
}

impl Run {
    fn clear(&mut self) {
        for e in &self.entries {
            self.slot[usize::from(e.0)] = NONE;
        }
        self.entries.clear();
        self.parents.clear();
        self.on_order.clear();
        self.off_order.clear();
    }

    #[inline]
    fn has(&self, p: Pot) -> bool {
        self.slot[usize::from(p)] != NONE
    }

    fn add(&mut self, p: Pot, parents: &[Pot]) {
        let i = self.entries.len() as u32;
        let a = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.entries.push((p, a, self.parents.len() as u32));
        self.slot[usize::from(p)] = i;
        if pon(p) {
            self.on_order.push(i);
        } else {
            self.off_order.push(i);
        }
    }

    fn parents_of(&self, p: Pot) -> &[Pot] {
        match self.slot[usize::from(p)] {
            NONE => &[],
            i => {
                let (_, a, b) = self.entries[i as usize];
                &self.parents[a as usize..b as usize]
            }
        }
    }

    /// SE's count of a conclusion: it and its distinct causes. `root` gives the conclusion's own causes when it is
    /// not (or not in this form) in the run.
    fn count(
        &self,
        p: Pot,
        root: Option<&[Pot]>,
        seen: &mut Vec<bool>,
        stack: &mut Vec<Pot>,
    ) -> usize {
        seen.clear();
        seen.resize(POTS, false);
        stack.clear();
        seen[usize::from(p)] = true;
        let mut n = 1;
        let first = root.unwrap_or_else(|| self.parents_of(p));
        for &q in first {
            if !seen[usize::from(q)] {
                seen[usize::from(q)] = true;
                n += 1;
                stack.push(q);
            }
        }
        while let Some(q) = stack.pop() {
            for &r in self.parents_of(q) {
                if !seen[usize::from(r)] {
                    seen[usize::from(r)] = true;
                    n += 1;
                    stack.push(r);
                }
            }
        }
        n
    }

    /// The chain from the assumption to `p` along first causes, assumption first.
    fn path(&self, p: Pot) -> Vec<Pot> {
        let mut v = vec![p];
        let mut q = p;
        while let Some(&r) = self.parents_of(q).first() {
            if v.contains(&r) {
                break;
            }
            v.push(r);
            q = r;
        }
        v.reverse();
        v
    }
}

/// A contradiction: the "on" and "off" forms of one candidate, one of them new (with its own causes).
struct Absurd {
    on: Pot,
    off: Pot,
    /// Which of the two is new (`true`: the on), and its causes.
    new_on: bool,
    causes: Vec<Pot>,
}

/// Which propagation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Nishio,
    Dynamic,
    DynamicPlus,
}

/// The engine: the grid as a chain leaves it, the grid at the start, and scratch memory.
pub(crate) struct Engine {
    cur: [u16; 81],
    src: [u16; 81],
    /// Each digit's places in `cur` and in `src`.
    pos: [CellSet; 9],
    src_pos: [CellSet; 9],
    mode: Mode,
    /// How many times each digit is placed (for SE's X-wing condition).
    placed: [usize; 10],
    /// What an "off" potential turns on: each with its causes, `causes[from..to]`.
    make: Vec<(Pot, u32, u32)>,
    causes: Vec<Pot>,
    offs: Vec<Pot>,
}

impl Engine {
    fn new(s: &Candidates, mode: Mode) -> Self {
        let mut src = [0u16; 81];
        for (c, m) in src.iter_mut().enumerate() {
            *m = s.candidates(c);
        }
        let mut placed = [0usize; 10];
        for c in 0..81 {
            placed[usize::from(s.value(c))] += 1;
        }
        let src_pos: [CellSet; 9] = std::array::from_fn(|d| s.positions(d as u8 + 1));
        Self {
            cur: src,
            src,
            pos: src_pos,
            src_pos,
            mode,
            placed,
            make: Vec::new(),
            causes: Vec::new(),
            offs: Vec::new(),
        }
    }

    #[inline]
    fn y(&self) -> bool {
        self.mode != Mode::Nishio
    }

    /// What an "on" potential turns off: its cell's other candidates, then the digit in its box, row, column.
    fn on_to_off(&self, p: Pot, out: &mut Vec<Pot>) {
        out.clear();
        let (cell, d) = (pcell(p), pdigit(p));
        if self.y() {
            for v in Digits(self.cur[cell] & !dbit(d)) {
                out.push(pot(cell, v, false));
            }
        }
        let places = self.pos[usize::from(d - 1)];
        let mut added = bit(cell);
        for t in 0..3 {
            let hit = HOUSE[house_of(t, cell)] & places & !added;
            for c in Cells(hit) {
                out.push(pot(c, d, false));
            }
            added |= hit;
        }
    }

    /// What an "off" potential turns on (with causes), before it is taken out of the grid.
    fn off_to_on(&mut self, p: Pot) {
        self.make.clear();
        self.causes.clear();
        let (cell, d) = (pcell(p), pdigit(p));
        if self.y() {
            let m = self.cur[cell];
            if super::basic::pop9(m) == 2 {
                let other = (m & !dbit(d)).trailing_zeros() as u8 + 1;
                if m & dbit(d) != 0 {
                    let from = self.causes.len() as u32;
                    self.causes.push(p);
                    for v in Digits(self.src[cell] & !m) {
                        self.causes.push(pot(cell, v, false));
                    }
                    self.make
                        .push((pot(cell, other, true), from, self.causes.len() as u32));
                }
            }
        }
        let di = usize::from(d - 1);
        let (places, gone) = (self.pos[di], self.src_pos[di] & !self.pos[di]);
        for t in 0..3 {
            let h = house_of(t, cell);
            let others = HOUSE[h] & places & !bit(cell);
            if super::tables::single(others) {
                let q = pot(others.trailing_zeros() as usize, d, true);
                if self.make.iter().any(|&(x, _, _)| x == q) {
                    continue;
                }
                let from = self.causes.len() as u32;
                self.causes.push(p);
                for c in Cells(HOUSE[h] & gone) {
                    self.causes.push(pot(c, d, false));
                }
                self.make.push((q, from, self.causes.len() as u32));
            }
        }
    }

    /// Propagate from what `run` holds; `None`, or the first contradiction. The grid is restored afterwards.
    fn propagate(&mut self, run: &mut Run) -> Option<Absurd> {
        let mut on_at = 0;
        let mut off_at = 0;
        let mut offs = std::mem::take(&mut self.offs);
        let result = loop {
            if on_at < run.on_order.len() {
                let p = run.entries[run.on_order[on_at] as usize].0;
                on_at += 1;
                self.on_to_off(p, &mut offs);
                let mut found = None;
                for &q in &offs {
                    if run.has(q ^ 1) {
                        found = Some(Absurd {
                            on: q ^ 1,
                            off: q,
                            new_on: false,
                            causes: vec![p],
                        });
                        break;
                    }
                    if !run.has(q) {
                        run.add(q, &[p]);
                    }
                }
                if let Some(a) = found {
                    break Some(a);
                }
                continue;
            }
            if off_at < run.off_order.len() {
                let p = run.entries[run.off_order[off_at] as usize].0;
                off_at += 1;
                self.off_to_on(p);
                // Every kind here is dynamic: what goes off leaves the grid for the rest of the chain.
                self.cur[pcell(p)] &= !dbit(pdigit(p));
                self.pos[usize::from(pdigit(p) - 1)] &= !bit(pcell(p));
                let mut found = None;
                for &(q, from, to) in &self.make {
                    let causes = &self.causes[from as usize..to as usize];
                    if run.has(q ^ 1) {
                        found = Some(Absurd {
                            on: q,
                            off: q ^ 1,
                            new_on: true,
                            causes: causes.to_vec(),
                        });
                        break;
                    }
                    if !run.has(q) {
                        run.add(q, causes);
                    }
                }
                if let Some(a) = found {
                    break Some(a);
                }
                continue;
            }
            if self.mode == Mode::DynamicPlus {
                let mut more = Vec::new();
                self.advanced(&mut more);
                let mut added = false;
                for (q, causes) in more {
                    if !run.has(q) {
                        run.add(q, &causes);
                        added = true;
                    }
                }
                if added {
                    continue;
                }
            }
            break None;
        };
        self.offs = offs;
        self.cur = self.src;
        self.pos = self.src_pos;
        result
    }
}

/// The best step found so far: its count, SE's sort key, and how to report it.
#[derive(Clone)]
struct Best {
    count: usize,
    key: u8,
    kind: u8,
    target: Pot,
    chain: Vec<Pot>,
    cells: Vec<u8>,
    house: Option<usize>,
    digits: u16,
}

/// Reusable memory of the searches, and each digit's Nishio result with what it was found from.
#[derive(Default)]
pub(crate) struct Memory {
    values: Vec<Run>,
    off: Run,
    /// The dynamic kinds: every candidate's "on" propagation (in cell order, then digit), with its contradiction;
    /// each is read as a cell's chain, a region's chain and a contradiction.
    on_runs: Vec<Run>,
    on_absurd: Vec<Option<Absurd>>,
    /// Per digit: its places and the cells among them with no other candidate, and its best Nishio step (SE's
    /// place in the search: cell, kind). A Nishio chain stays on its digit, so nothing else changes it.
    nishio: [Option<NishioMemo>; 9],
}

/// One digit's Nishio result: its places, the cells among them with no other candidate, and its best step with
/// that step's cell.
type NishioMemo = (CellSet, CellSet, Option<(Best, usize)>);

/// The easiest Nishio or dynamic forcing chain step.
pub(crate) fn find(s: &Candidates, step: &mut Step, mode: Mode, memory: &mut Memory) -> bool {
    if memory.values.len() < 9 {
        memory.values.resize_with(9, Run::default);
    }
    let best = if mode == Mode::Nishio {
        let mut best: Option<(Best, usize, u8)> = None;
        for d in 1..=9u8 {
            let places = s.positions(d);
            let lone = Cells(places)
                .filter(|&c| super::basic::pop9(s.candidates(c)) < 2)
                .fold(0, |a, c| a | bit(c));
            let di = usize::from(d - 1);
            let fresh = matches!(&memory.nishio[di], Some((p, l, _)) if *p == places && *l == lone);
            if !fresh {
                let found = search(s, mode, memory, Some(d)).map(|b| {
                    let cell = pcell(b.target);
                    (b, cell)
                });
                memory.nishio[di] = Some((places, lone, found));
            }
            if let Some((_, _, Some((b, cell)))) = &memory.nishio[di] {
                // SE's order among equals: cell, then digit, then contradiction from "on" before "off".
                let key = (b.count, b.key, *cell, d, b.kind);
                if best
                    .as_ref()
                    .is_none_or(|(x, xc, xd)| key < (x.count, x.key, *xc, *xd, x.kind))
                {
                    best = Some((b.clone(), *cell, d));
                }
            }
        }
        best.map(|(b, _, _)| b)
    } else {
        search(s, mode, memory, None)
    };
    let Some(b) = best else {
        return false;
    };
    fill(step, mode, b);
    true
}

/// The best step of one kind; with `only`, from the candidates of that digit alone.
fn search(s: &Candidates, mode: Mode, memory: &mut Memory, only: Option<u8>) -> Option<Best> {
    let mut e = Engine::new(s, mode);
    let Memory {
        values,
        off,
        on_runs,
        on_absurd,
        ..
    } = memory;
    // The dynamic kinds read each candidate's "on" propagation up to four times (a cell's chains, the chains of
    // the regions it is a place of, and the contradiction): each is run once, before the search.
    let pre = mode != Mode::Nishio;
    let mut on_index = [u16::MAX; 81 * 9];
    if pre {
        let mut k = 0;
        for cell in Cells(s.unsolved()) {
            for d in Digits(s.candidates(cell)) {
                if on_runs.len() <= k {
                    on_runs.push(Run::default());
                    on_absurd.push(None);
                }
                let run = &mut on_runs[k];
                run.clear();
                run.add(pot(cell, d, true), &[]);
                on_absurd[k] = e.propagate(run);
                on_index[cell * 9 + usize::from(d - 1)] = k as u16;
                k += 1;
            }
        }
    }
    let mut best: Option<Best> = None;
    let (mut seen, mut stack) = (Vec::new(), Vec::new());
    macro_rules! consider {
        ($count:expr, $key:expr, $kind:expr, $target:expr, $chain:expr, $cells:expr, $house:expr, $digits:expr) => {{
            let (count, key): (usize, u8) = ($count, $key);
            if best
                .as_ref()
                .is_none_or(|b| (count, key) < (b.count, b.key))
            {
                best = Some(Best {
                    count,
                    key,
                    kind: $kind,
                    target: $target,
                    chain: $chain,
                    cells: $cells,
                    house: $house,
                    digits: $digits,
                });
            }
        }};
    }
    // An "on" conclusion is worth a step when its cell has other candidates.
    let worth = |q: Pot| !pon(q) || s.candidates(pcell(q)) & !dbit(pdigit(q)) != 0;
    for cell in Cells(s.unsolved()) {
        let m = s.candidates(cell);
        let card = super::basic::pop9(m) as u32;
        if card < 2 {
            continue;
        }
        let digits: Vec<u8> = Digits(m).collect();
        let base = if pre {
            usize::from(on_index[cell * 9 + usize::from(digits[0] - 1)])
        } else {
            0
        };
        for (vi, &d) in digits.iter().enumerate() {
            if only.is_some_and(|x| x != d) {
                continue;
            }
            let absurd = if pre {
                on_absurd[base + vi].take()
            } else {
                let run = &mut values[vi];
                run.clear();
                run.add(pot(cell, d, true), &[]);
                e.propagate(run)
            };
            let run: &Run = if pre {
                &on_runs[base + vi]
            } else {
                &values[vi]
            };
            if let Some(a) = absurd {
                let n = absurd_count(run, &a, &mut seen, &mut stack);
                consider!(
                    n,
                    7,
                    1,
                    pot(cell, d, false),
                    absurd_chain(run, &a),
                    vec![cell as u8],
                    None,
                    dbit(d)
                );
            }
            off.clear();
            off.add(pot(cell, d, false), &[]);
            if let Some(a) = e.propagate(off) {
                let n = absurd_count(off, &a, &mut seen, &mut stack);
                consider!(
                    n,
                    7,
                    2,
                    pot(cell, d, true),
                    absurd_chain(off, &a),
                    vec![cell as u8],
                    None,
                    dbit(d)
                );
            }
            if mode == Mode::Nishio {
                continue;
            }
            if card >= 3 {
                for &i in run.on_order.iter().chain(run.off_order.iter()) {
                    let q = run.entries[i as usize].0;
                    if off.has(q) && worth(q) {
                        let n = run.count(q, None, &mut seen, &mut stack)
                            + off.count(q, None, &mut seen, &mut stack);
                        if best.as_ref().is_none_or(|b| (n, 1) < (b.count, b.key)) {
                            let mut chain = run.path(q);
                            chain.extend(off.path(q));
                            consider!(n, 1, 3, q, chain, vec![cell as u8], None, dbit(d));
                        }
                    }
                }
            }
            // Every place of the digit in a house, from the first of them.
            for t in 0..3 {
                let h = house_of(t, cell);
                let places_of = s.positions(d) & HOUSE[h];
                if places_of & places_of.wrapping_sub(1) == 0 {
                    continue;
                }
                let first = HOUSE_CELLS[h]
                    .iter()
                    .map(|&c| usize::from(c))
                    .find(|&c| places_of & bit(c) != 0);
                if first != Some(cell) {
                    continue;
                }
                let others: Vec<usize> = HOUSE_CELLS[h]
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| c != cell && places_of & bit(c) != 0)
                    .collect();
                let places: Vec<&Run> = others
                    .iter()
                    .map(|&o| &on_runs[usize::from(on_index[o * 9 + usize::from(d - 1)])])
                    .collect();
                for &i in run.on_order.iter().chain(run.off_order.iter()) {
                    let q = run.entries[i as usize].0;
                    if !worth(q) || !places.iter().all(|r| r.has(q)) {
                        continue;
                    }
                    let mut n = run.count(q, None, &mut seen, &mut stack);
                    for r in &places {
                        n += r.count(q, None, &mut seen, &mut stack);
                    }
                    if best.as_ref().is_none_or(|b| (n, 6) < (b.count, b.key)) {
                        let mut chain = run.path(q);
                        for r in &places {
                            chain.extend(r.path(q));
                        }
                        let mut cells = vec![cell as u8];
                        cells.extend(others.iter().map(|&c| c as u8));
                        consider!(n, 6, 5, q, chain, cells, Some(h), dbit(d));
                    }
                }
            }
        }
        if mode == Mode::Nishio {
            continue;
        }
        // Every candidate of the cell.
        let k = digits.len();
        let values = &on_runs[base..base + k];
        let first = &values[0];
        for &i in first.on_order.iter().chain(first.off_order.iter()) {
            let q = first.entries[i as usize].0;
            if !worth(q) || !values[1..k].iter().all(|r| r.has(q)) {
                continue;
            }
            let mut n = 0;
            for r in &values[..k] {
                n += r.count(q, None, &mut seen, &mut stack);
            }
            if best.as_ref().is_none_or(|b| (n, 5) < (b.count, b.key)) {
                let mut chain = Vec::new();
                for r in &values[..k] {
                    chain.extend(r.path(q));
                }
                consider!(n, 5, 4, q, chain, vec![cell as u8], None, m);
            }
        }
    }
    best
}

/// Fill `step` with the step found.
fn fill(step: &mut Step, mode: Mode, b: Best) {
    let base = match mode {
        Mode::Nishio => Technique::NishioForcingChain,
        Mode::Dynamic => Technique::DynamicForcingChains,
        Mode::DynamicPlus => Technique::DynamicForcingChainsPlus,
    };
    step.start(base);
    step.rating = Rating(base.base_rating().0 + super::chains::length_bonus(b.count));
    step.kind = b.kind;
    step.cells = b.cells;
    step.digits = b.digits;
    if let Some(h) = b.house {
        step.houses.push(h as u8);
    }
    let (cell, d) = (pcell(b.target), pdigit(b.target));
    if pon(b.target) {
        step.placements.push(Candidate::new(cell, d));
    } else {
        step.eliminations.push(Candidate::new(cell, d));
    }
    for &p in &b.chain {
        let c = Candidate::new(pcell(p), pdigit(p));
        step.chain.push(ChainNode {
            candidate: c,
            on: pon(p),
        });
        if !step.highlights.contains(&c) {
            step.highlights.push(c);
        }
    }
}

/// SE's count of a contradiction: the causes of its "on" form plus those of its "off" form.
fn absurd_count(run: &Run, a: &Absurd, seen: &mut Vec<bool>, stack: &mut Vec<Pot>) -> usize {
    let on = run.count(a.on, a.new_on.then_some(&a.causes[..]), seen, stack);
    let off = run.count(a.off, (!a.new_on).then_some(&a.causes[..]), seen, stack);
    on + off
}

/// The two chains of a contradiction, each from the assumption.
fn absurd_chain(run: &Run, a: &Absurd) -> Vec<Pot> {
    let mut out = Vec::new();
    for (p, new) in [(a.on, a.new_on), (a.off, !a.new_on)] {
        if new {
            let mut v = a.causes.first().map_or_else(Vec::new, |&c| run.path(c));
            v.push(p);
            out.extend(v);
        } else {
            out.extend(run.path(p));
        }
    }
    out
}

/// The house of SE's kind `t` (0 box, 1 row, 2 column) numbered `i`.
fn house(t: usize, i: usize) -> usize {
    match t {
        0 => 18 + i,
        1 => i,
        _ => 9 + i,
    }
}

/// Java's order of a small hash map keyed by cell: by the cell's low four bits, then as inserted.
fn hash_order(v: &mut [(usize, u8)]) {
    v.sort_by_key(|&(c, _)| c & 15);
}

impl Engine {
    /// Dynamic (+): the eliminations of the first of locked candidates, hidden pairs, naked pairs and X-wings (SE's
    /// order) that the chain's grid shows and that rest on candidates the chain took out; those are their causes.
    fn advanced(&self, out: &mut Vec<(Pot, Vec<Pot>)>) {
        let has = |c: usize, d: u8| self.cur[c] & dbit(d) != 0;
        let had = |c: usize, d: u8| self.src[c] & dbit(d) != 0;
        let emit =
            |out: &mut Vec<(Pot, Vec<Pot>)>, mut elim: Vec<(usize, u8)>, causes: Vec<Pot>| {
                if causes.is_empty() || elim.is_empty() {
                    return;
                }
                hash_order(&mut elim);
                for (c, d) in elim {
                    out.push((pot(c, d, false), causes.clone()));
                }
            };
        // Locked candidates: (box, column), (box, row), (column, box), (row, box).
        for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
            for d in 1..=9u8 {
                for i1 in 0..9 {
                    let r1 = house(t1, i1);
                    let places: super::tables::CellSet = HOUSE_CELLS[r1]
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|&c| has(c, d))
                        .fold(0, |a, c| a | bit(c));
                    if places & places.wrapping_sub(1) == 0 {
                        continue;
                    }
                    for i2 in 0..9 {
                        let r2 = house(t2, i2);
                        if HOUSE[r1] & HOUSE[r2] == 0 || places & !HOUSE[r2] != 0 {
                            continue;
                        }
                        let elim: Vec<(usize, u8)> = HOUSE_CELLS[r2]
                            .iter()
                            .map(|&c| usize::from(c))
                            .filter(|&c| HOUSE[r1] & bit(c) == 0 && has(c, d))
                            .map(|c| (c, d))
                            .collect();
                        if elim.is_empty() {
                            continue;
                        }
                        let causes: Vec<Pot> = HOUSE_CELLS[r1]
                            .iter()
                            .map(|&c| usize::from(c))
                            .filter(|&c| had(c, d) && !has(c, d) && HOUSE[r2] & bit(c) == 0)
                            .map(|c| pot(c, d, false))
                            .collect();
                        emit(out, elim, causes);
                    }
                }
            }
        }
        if !out.is_empty() {
            return;
        }
        let empty_in = |h: usize| {
            HOUSE_CELLS[h]
                .iter()
                .filter(|&&c| self.src[usize::from(c)] != 0)
                .count()
        };
        // Hidden pairs: boxes, columns, rows.
        for t in [0, 2, 1] {
            for i in 0..9 {
                let h = house(t, i);
                if empty_in(h) <= 4 {
                    continue;
                }
                super::unique::combinations(9, 2, |mask| {
                    let values = (mask as u16) & 0x1ff;
                    let mut union: super::tables::CellSet = 0;
                    for v in Digits(values) {
                        let p: super::tables::CellSet = HOUSE_CELLS[h]
                            .iter()
                            .map(|&c| usize::from(c))
                            .filter(|&c| has(c, v))
                            .fold(0, |a, c| a | bit(c));
                        if p.count_ones() <= 1 {
                            return;
                        }
                        union |= p;
                    }
                    if union.count_ones() != 2 {
                        return;
                    }
                    let mut elim = Vec::new();
                    for c in Cells(union) {
                        for v in Digits(self.cur[c] & !values) {
                            elim.push((c, v));
                        }
                    }
                    if elim.is_empty() {
                        return;
                    }
                    let mut causes = Vec::new();
                    for &c in &HOUSE_CELLS[h] {
                        let c = usize::from(c);
                        if union & bit(c) == 0 {
                            for v in Digits(values & self.src[c]) {
                                causes.push(pot(c, v, false));
                            }
                        }
                    }
                    emit(out, elim, causes);
                });
            }
        }
        if !out.is_empty() {
            return;
        }
        // Naked pairs: boxes, columns, rows.
        for t in [0, 2, 1] {
            for i in 0..9 {
                let h = house(t, i);
                if empty_in(h) < 4 {
                    continue;
                }
                super::unique::combinations(9, 2, |mask| {
                    let cells: Vec<usize> = (0..9)
                        .filter(|&k| mask & (1 << k) != 0)
                        .map(|k| usize::from(HOUSE_CELLS[h][k]))
                        .collect();
                    if cells.iter().any(|&c| self.cur[c].count_ones() <= 1) {
                        return;
                    }
                    let union = cells.iter().fold(0u16, |a, &c| a | self.cur[c]);
                    if union.count_ones() != 2 {
                        return;
                    }
                    let elim: Vec<(usize, u8)> = HOUSE_CELLS[h]
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|c| !cells.contains(c))
                        .flat_map(|c| Digits(self.cur[c] & union).map(move |v| (c, v)))
                        .collect();
                    if elim.is_empty() {
                        return;
                    }
                    let mut causes = Vec::new();
                    for &c in &cells {
                        for v in Digits(self.src[c] & !union) {
                            causes.push(pot(c, v, false));
                        }
                    }
                    emit(out, elim, causes);
                });
            }
        }
        if !out.is_empty() {
            return;
        }
        // X-wings: base columns then base rows.
        for (tb, tc) in [(2, 1), (1, 2)] {
            super::unique::combinations(9, 2, |mask| {
                let bases: Vec<usize> = (0..9).filter(|&k| mask & (1 << k) != 0).collect();
                for d in 1..=9u8 {
                    if self.placed[usize::from(d)] + 4 > 9 {
                        continue;
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for &b in &bases {
                        let mut p = 0u16;
                        for (j, &c) in HOUSE_CELLS[house(tb, b)].iter().enumerate() {
                            if has(usize::from(c), d) {
                                p |= 1 << j;
                            }
                        }
                        if p.count_ones() <= 1 {
                            ok = false;
                        }
                        union |= p;
                    }
                    if !ok || union.count_ones() != 2 {
                        continue;
                    }
                    let covers: Vec<usize> = (0..9).filter(|&k| union & (1 << k) != 0).collect();
                    let mut elim = Vec::new();
                    for &cv in &covers {
                        for (j, &c) in HOUSE_CELLS[house(tc, cv)].iter().enumerate() {
                            if !bases.contains(&j) && has(usize::from(c), d) {
                                elim.push((usize::from(c), d));
                            }
                        }
                    }
                    if elim.is_empty() {
                        continue;
                    }
                    let cover_cells = covers.iter().fold(0u128, |a, &cv| a | HOUSE[house(tc, cv)]);
                    let mut causes = Vec::new();
                    for &b in &bases {
                        for &c in &HOUSE_CELLS[house(tb, b)] {
                            let c = usize::from(c);
                            if had(c, d) && !has(c, d) && cover_cells & bit(c) == 0 {
                                causes.push(pot(c, d, false));
                            }
                        }
                    }
                    emit(out, elim, causes);
                }
            });
        }
    }
}
