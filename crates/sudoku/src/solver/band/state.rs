//! The search state (128 bytes, copied on each guess): placing, propagation to a fixed point, and the choice
//! of the cell to guess on.

use super::isa::{Isa, Portable};
use super::tables::{
    BAND, BAND_DIGIT, CLUE_SHADOW, COLS_TO_BAND, COLUMN, COLUMN_FAR, MINIROW_RIVALS, OTHER_BANDS,
    PERM_ALLOWED, PERM_CELLS, PERM_FORCED, ROW_BOX, columns,
};
use crate::grid::{CELLS, Grid};

/// Extra weight in the guess score for an elimination that leaves a cell with one candidate.
pub(super) const WEIGHT: u32 = 3;

/// Whether propagation counts digits per minirow when asked to count (only the uniqueness check of
/// [`other_solution`](super::other_solution) asks: the counting search [`count_impl`](super::count_impl) never
/// does, as on the benchmark sets the counts cost more than the guesses they save).
pub(super) const MINIROWS: bool = true;

/// Whether propagation counts digits per minicolumn when asked to count (see [`MINIROWS`]).
pub(super) const MINICOLS: bool = true;

/// The search state: 128 bytes, copied on each guess.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct State {
    /// Candidates: `f[9b + d]` for band `b` and digit `d` (0-based).
    pub(super) f: [u32; 27],
    /// Cells not yet placed, per band.
    pub(super) unsolved: [u32; 3],
    /// Band-digit words to re-examine (bit `9b + d`).
    pub(super) dirty: u32,
    /// Digits whose stacks to re-examine (bit `d`).
    pub(super) vdirty: u32,
}

impl State {
    /// The state for `grid`'s clues (not yet propagated); `None` when a digit repeats in a row or a box.
    /// Inlined into each copy of the search, which builds it with its own target features.
    #[inline(always)]
    pub(super) fn new(grid: &Grid) -> Option<State> {
        let mut has = [0u32; 27];
        for (i, &v) in grid.digits().iter().enumerate() {
            if v != 0 {
                has[9 * (i / 27) + v as usize - 1] |= 1 << (i % 27);
            }
        }
        State::from_clues::<Portable>(&has)
    }

    /// The state for the clues `has[9b + d]` (the cells of band `b` that hold digit `d`; no cell in two words),
    /// not yet propagated; `None` when a digit repeats in a row or a box. A digit repeated in a column is left
    /// to the propagation, which finds that it has no room.
    #[inline(always)]
    pub(super) fn from_clues<I: Isa>(has: &[u32; 27]) -> Option<State> {
        let mut s = State {
            f: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: (1 << 27) - 1,
            vdirty: 0x1FF,
        };
        let mut bad = false;
        // The columns of each digit's clues, per band.
        let mut cols = [0u32; 27];
        for j in 0..27 {
            cols[j] = columns(has[j]);
        }
        for b in 0..3 {
            let mut clues = 0;
            for d in 0..9 {
                clues |= has[9 * b + d];
            }
            // The clues are placed: they leave the cells to solve.
            s.unsolved[b] = BAND & !clues;
            let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
            for d in 0..9 {
                let cells = has[9 * b + d];
                // A clue cell loses the other digits; the rows and boxes of a digit's clues lose it, and so do
                // their columns in the other bands. A clue with the same digit in its column elsewhere loses its
                // own digit: a cell without candidates, which propagation finds.
                let shadow = CLUE_SHADOW[I::minirows(cells)];
                bad |= cells.count_ones() != shadow >> 28;
                let far = (cols[9 * b1 + d] | cols[9 * b2 + d]) * COLS_TO_BAND;
                s.f[9 * b + d] = ((BAND & !clues & !shadow) | cells) & !far;
            }
        }
        (!bad).then_some(s)
    }

    /// Place digit `d` in the cells `new` of band `b` (each alone in its row of `f[9b + d]`), marking what
    /// changed in `dirty` and `vdirty` (the caller's copies of [`State::dirty`] and [`State::vdirty`]).
    #[inline(always)]
    pub(super) fn place<I: Isa>(
        &mut self,
        d: usize,
        b: usize,
        new: u32,
        dirty: &mut u32,
        vdirty: &mut u32,
    ) {
        self.unsolved[b] &= !new;
        // The columns of the new cells, in the other bands.
        let cols = columns(new) * COLS_TO_BAND;
        for b2 in OTHER_BANDS[b] {
            let j = 9 * b2 + d;
            let old = self.f[j];
            let w = old & !cols;
            self.f[j] = w;
            *dirty |= ((w != old) as u32) << j;
        }
        // The new cells, for the other digits.
        let base = 9 * b;
        let changed = I::clear_other_digits(&mut self.f, base, d, new);
        *dirty |= changed << base;
        *vdirty |= changed | (1 << d);
    }

    /// Band permutations and placements until nothing is dirty. `false` on a contradiction (the state is
    /// then left half done: the search drops it).
    #[inline(always)]
    pub(super) fn settle_bands<I: Isa>(&mut self) -> bool {
        // The marks in locals, which the compiler keeps in registers.
        let mut dirty = self.dirty;
        let mut vdirty = self.vdirty;
        while dirty != 0 {
            let i = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let old = self.f[i];
            let w = old & PERM_CELLS[I::minirows(old)];
            if w == 0 {
                return false;
            }
            let (b, d) = BAND_DIGIT[i];
            let (b, d) = (usize::from(b), usize::from(d));
            self.f[i] = w;
            vdirty |= ((w != old) as u32) << d;
            let new = I::lone_in_row(w) & self.unsolved[b];
            if new != 0 {
                self.place::<I>(d, b, new, &mut dirty, &mut vdirty);
            }
        }
        self.dirty = 0;
        self.vdirty = vdirty;
        true
    }

    /// Stack permutations for the digits in `vdirty`. `false` on a contradiction.
    #[inline(always)]
    pub(super) fn settle_stacks<I: Isa>(&mut self) -> bool {
        let mut todo = self.vdirty;
        self.vdirty = 0;
        while todo != 0 {
            // (`vdirty` holds digits only: the bound spares the checks of the indices below.)
            let d = (todo.trailing_zeros() as usize).min(8);
            todo &= todo - 1;
            let cols =
                columns(self.f[d]) | columns(self.f[9 + d]) << 9 | columns(self.f[18 + d]) << 18;
            let mut allowed = 0u32;
            for s in 0..3 {
                let a = PERM_ALLOWED[I::stack_minicols(cols, s)] as u32;
                if a == 0 {
                    return false;
                }
                allowed |= I::stack_spread(a, s);
            }
            if allowed != cols {
                for b in 0..3 {
                    let a = (allowed >> (9 * b)) & 0x1FF;
                    if a != (cols >> (9 * b)) & 0x1FF {
                        let j = 9 * b + d;
                        self.f[j] &= a * COLS_TO_BAND;
                        self.dirty |= 1 << j;
                    }
                }
            }
        }
        true
    }

    /// Naked singles: restrict each cell with one candidate to it. Returns `None` on a contradiction (a cell
    /// without candidates, or two lone cells clashing), else whether anything changed.
    #[inline(always)]
    pub(super) fn naked_singles<I: Isa>(&mut self) -> Option<bool> {
        let mut changed = false;
        for b in 0..3 {
            let base = 9 * b;
            let (ones, twos) = I::candidate_counts(&self.f, base);
            if ones != BAND {
                return None;
            }
            let singles = ones & !twos & self.unsolved[b];
            if singles == 0 {
                continue;
            }
            changed = true;
            // Each single in turn (in cell order, so for each digit in cell order): its digit leaves the cell's
            // row and box; a single already gone from its only digit's word clashed with an earlier one.
            let mut left = singles;
            while left != 0 {
                let c = left.trailing_zeros() as usize;
                left &= left - 1;
                let bit = 1u32 << c;
                let j = base + I::cell_digits(&self.f, base, c).trailing_zeros() as usize % 9;
                if self.f[j] & bit == 0 {
                    return None;
                }
                self.f[j] &= !ROW_BOX[c] | bit;
                self.dirty |= 1 << j;
            }
        }
        Some(changed)
    }

    /// Minirow counting: a minirow (three cells of a row in a box) holds exactly three digits. With `P` the
    /// digits that can still go there and `F` those the band permutations force there: `|P| = 3` forces every
    /// digit of `P` in; `|F| = 3` removes the others. Returns `None` on a contradiction, else whether anything
    /// changed.
    #[inline(always)]
    pub(super) fn minirow_counts<I: Isa>(&mut self) -> Option<bool> {
        let mut occ = [0u32; 9];
        let mut forced = [0u32; 9];
        let (mut p1, mut p2, mut p3, mut p4) = (0u32, 0u32, 0u32, 0u32);
        let (mut q1, mut q2, mut q3, mut q4) = (0u32, 0u32, 0u32, 0u32);
        for d in 0..9 {
            let mut o = 0u32;
            let mut fo = 0u32;
            for b in 0..3 {
                let m = I::minirows(self.f[9 * b + d]);
                o |= (m as u32) << (9 * b);
                fo |= (PERM_FORCED[m] as u32) << (9 * b);
            }
            occ[d] = o;
            forced[d] = fo;
            p4 |= p3 & o;
            p3 |= p2 & o;
            p2 |= p1 & o;
            p1 |= o;
            q4 |= q3 & fo;
            q3 |= q2 & fo;
            q2 |= q1 & fo;
            q1 |= fo;
        }
        if p3 != BAND || q4 != 0 {
            return None;
        }
        let remove_others = q3 & p4;
        let force_all = p3 & !p4 & !q3;
        if remove_others | force_all == 0 {
            return Some(false);
        }
        for d in 0..9 {
            let free = occ[d] & !forced[d];
            let remove = remove_others & free;
            let force = force_all & free;
            if remove | force == 0 {
                continue;
            }
            for b in 0..3 {
                let rem9 = (remove >> (9 * b)) & 0x1FF;
                let mut frc9 = (force >> (9 * b)) & 0x1FF;
                if rem9 | frc9 == 0 {
                    continue;
                }
                let mut o = ((occ[d] >> (9 * b)) & 0x1FF) & !rem9;
                while frc9 != 0 {
                    let m = frc9.trailing_zeros() as usize;
                    frc9 &= frc9 - 1;
                    o &= !(MINIROW_RIVALS[m] as u32);
                }
                let j = 9 * b + d;
                self.f[j] &= PERM_CELLS[o as usize];
                self.dirty |= 1 << j;
                self.vdirty |= 1 << d;
            }
        }
        Some(true)
    }

    /// Minicolumn counting, the same reasoning as [`State::minirow_counts`] for three cells of a column in a box,
    /// with the stack permutations deciding which digits are forced.
    #[inline(always)]
    pub(super) fn minicolumn_counts<I: Isa>(&mut self) -> Option<bool> {
        let mut occ = [0u32; 9];
        let mut forced = [0u32; 9];
        let (mut p1, mut p2, mut p3, mut p4) = (0u32, 0u32, 0u32, 0u32);
        let (mut q1, mut q2, mut q3, mut q4) = (0u32, 0u32, 0u32, 0u32);
        for d in 0..9 {
            let o =
                columns(self.f[d]) | columns(self.f[9 + d]) << 9 | columns(self.f[18 + d]) << 18;
            let mut fo = 0u32;
            for st in 0..3 {
                fo |= I::stack_spread(PERM_FORCED[I::stack_minicols(o, st)] as u32, st);
            }
            occ[d] = o;
            forced[d] = fo;
            p4 |= p3 & o;
            p3 |= p2 & o;
            p2 |= p1 & o;
            p1 |= o;
            q4 |= q3 & fo;
            q3 |= q2 & fo;
            q2 |= q1 & fo;
            q1 |= fo;
        }
        if p3 != BAND || q4 != 0 {
            return None;
        }
        let remove_others = q3 & p4;
        let force_all = p3 & !p4 & !q3;
        if remove_others | force_all == 0 {
            return Some(false);
        }
        for d in 0..9 {
            let free = occ[d] & !forced[d];
            let remove = remove_others & free;
            let force = force_all & free;
            if remove | force == 0 {
                continue;
            }
            // Per band, the columns to clear.
            let mut clear = [0u32; 3];
            for b in 0..3 {
                clear[b] |= (remove >> (9 * b)) & 0x1FF;
                let mut frc = (force >> (9 * b)) & 0x1FF;
                while frc != 0 {
                    let col = frc.trailing_zeros();
                    frc &= frc - 1;
                    // The other columns of its stack in this band, and this column in the other bands.
                    clear[b] |= (7 << (3 * (col / 3))) & !(1 << col);
                    for (b2, cl) in clear.iter_mut().enumerate() {
                        if b2 != b {
                            *cl |= 1 << col;
                        }
                    }
                }
            }
            for (b, cl) in clear.iter().enumerate() {
                if *cl != 0 {
                    let j = 9 * b + d;
                    self.f[j] &= !(cl * COLS_TO_BAND);
                    self.dirty |= 1 << j;
                    self.vdirty |= 1 << d;
                }
            }
        }
        Some(true)
    }

    /// Propagate to a fixed point. `false` on a contradiction.
    #[inline(always)]
    pub(super) fn propagate<I: Isa>(&mut self, counts: bool) -> bool {
        loop {
            if !self.settle_bands::<I>() {
                return false;
            }
            // Every cell placed without a contradiction is a solution: each placement took its cell from the
            // other digits and its column from the other bands, and every word it changed passed the band
            // permutations (one cell per row and box, then one per row as every cell has one digit), so the
            // rest of the propagation would find nothing.
            if self.is_solved() {
                return true;
            }
            match self.naked_singles::<I>() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.vdirty != 0 {
                if !self.settle_stacks::<I>() {
                    return false;
                }
                if self.dirty != 0 {
                    continue;
                }
            }
            match if MINIROWS && counts {
                self.minirow_counts::<I>()
            } else {
                Some(false)
            } {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match if MINICOLS && counts {
                self.minicolumn_counts::<I>()
            } else {
                Some(false)
            } {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            return true;
        }
    }

    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The solution of a solved state as 81 ASCII digits.
    pub(super) fn write_ascii(&self, out: &mut [u8; CELLS]) {
        for b in 0..3 {
            for d in 0..9 {
                let mut w = self.f[9 * b + d];
                while w != 0 {
                    let c = w.trailing_zeros() as usize;
                    w &= w - 1;
                    out[27 * b + c] = b'1' + d as u8;
                }
            }
        }
    }

    /// The grid of a solved state.
    pub(super) fn solution(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for b in 0..3 {
            for d in 0..9 {
                let mut w = self.f[9 * b + d];
                while w != 0 {
                    let c = w.trailing_zeros() as usize;
                    w &= w - 1;
                    cells[27 * b + c] = d as u8 + 1;
                }
            }
        }
        Grid::from_raw(cells)
    }

    /// The unsolved cell to guess on, as (band, cell in band): the cell with two candidates whose placements
    /// eliminate the most candidates among its peers (both branches then propagate far), an elimination that
    /// leaves a peer with a single candidate counting [`WEIGHT`] more; without such a cell, a cell with the
    /// fewest candidates. Ties go to the first such cell in band order.
    #[inline(always)]
    pub(super) fn pick_cell<I: Isa>(&self) -> (usize, usize) {
        // Cells with exactly two candidates, per band.
        let mut pair = [0u32; 3];
        for (b, p) in pair.iter_mut().enumerate() {
            *p = I::two_candidates(&self.f, 9 * b) & self.unsolved[b];
        }
        // The best cell as one key, compared without branches: the score above the cell's place, which is
        // stored so that the first cell in band order wins a tie.
        let mut best = 0u32;
        for b in 0..3 {
            let mut pairs = pair[b];
            if pairs == 0 {
                continue;
            }
            let [b1, b2] = OTHER_BANDS[b];
            // The cells with two candidates: in this band twice (for the cell's two digits, 32 bits apart),
            // and in the other two bands in the layout of `far`.
            let near_pairs = u64::from(pair[b]) * (1 | 1 << 32);
            let far_pairs = u64::from(pair[b1]) | u64::from(pair[b2]) << 32;
            let fb = &self.f[9 * b..9 * b + 9];
            // Each digit's words in the other two bands side by side (the first in the low 32 bits, the
            // second above): a cell's column there is one mask away.
            let farb = I::side_by_side(&self.f, 9 * b1, 9 * b2);
            while pairs != 0 {
                let c = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                // The cell's column in the other two bands, and its row and box in this band.
                let col = COLUMN_FAR[c];
                let peers = ROW_BOX[c];
                // The cell's two digits.
                let digits = I::cell_digits(&self.f, 9 * b, c);
                let d1 = (digits.trailing_zeros() as usize).min(8);
                let d2 = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
                // Each digit's peers of the cell: in this band the two digits 32 bits apart; in the other bands
                // the second digit one place above the first (a column's cells are nine places apart).
                let near = u64::from(fb[d1] & peers) | u64::from(fb[d2] & peers) << 32;
                let far = (farb[d1] & col) | (farb[d2] & col) << 1;
                let far_w = far & ((far_pairs & col) * 3);
                let weighted = (near & near_pairs).count_ones() + far_w.count_ones();
                // The cell itself is among `peers` for both digits and is weighted (it has two candidates).
                let score =
                    near.count_ones() + far.count_ones() + WEIGHT * weighted - 2 * (1 + WEIGHT);
                best = best.max(score << 16 | (0xFFFF - (b << 5 | c)) as u32);
            }
        }
        if best >> 16 != 0 {
            let place = 0xFFFF - (best & 0xFFFF) as usize;
            return (place >> 5, place & 31);
        }
        self.fewest_candidates::<I>()
    }

    /// The first unsolved cell with two candidates in band order, as (band, cell in band); without one, the
    /// cell [`State::fewest_candidates`] picks. The search's cheap choice after its first guess, until it meets
    /// a dead end.
    #[inline(always)]
    pub(super) fn first_pair_cell<I: Isa>(&self) -> (usize, usize) {
        for b in 0..3 {
            let pairs = I::two_candidates(&self.f, 9 * b) & self.unsolved[b];
            if pairs != 0 {
                return (b, pairs.trailing_zeros() as usize);
            }
        }
        self.fewest_candidates::<I>()
    }

    /// [`State::pick_cell`] written plainly (one peer and one digit at a time), to check it.
    #[cfg(test)]
    pub(super) fn pick_cell_slow(&self) -> (usize, usize) {
        // Cells with exactly two candidates, per band.
        let mut pair = [0u32; 3];
        for (b, p) in pair.iter_mut().enumerate() {
            let mut ones = 0u32;
            let mut twos = 0u32;
            let mut threes = 0u32;
            for d in 0..9 {
                let x = self.f[9 * b + d];
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            *p = twos & !threes & self.unsolved[b];
        }
        let mut best = None;
        let mut best_score = 0u32;
        for b in 0..3 {
            let mut pairs = pair[b];
            while pairs != 0 {
                let c = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let mut score = 0;
                let col = (1u32 << (c % 9)) * COLS_TO_BAND;
                for d in 0..9 {
                    let w = self.f[9 * b + d];
                    if w & (1 << c) != 0 {
                        let near = w & ROW_BOX[c] & !(1 << c);
                        score += near.count_ones() + WEIGHT * (near & pair[b]).count_ones();
                        for b2 in 0..3 {
                            if b2 != b {
                                let far = self.f[9 * b2 + d] & col;
                                score += far.count_ones() + WEIGHT * (far & pair[b2]).count_ones();
                            }
                        }
                    }
                }
                if score > best_score {
                    best_score = score;
                    best = Some((b, c));
                }
            }
        }
        if let Some(cell) = best {
            return cell;
        }
        self.fewest_candidates_slow()
    }

    /// The unsolved cell with the fewest candidates (used when no cell with two candidates scores), as (band,
    /// cell in band); among those, the one whose placements remove the most candidates from its peers, and
    /// among those the first. Only the cells with two candidates, or else three, or else all are looked at: the
    /// fewest are among them.
    ///
    /// Inlined, so that it is compiled for the search's target features (its popcounts above all).
    #[inline(always)]
    pub(super) fn fewest_candidates<I: Isa>(&self) -> (usize, usize) {
        // Per band: the unsolved cells with at most two candidates, with exactly three, and all.
        let mut sets = [[0u32; 3]; 3];
        for b in 0..3 {
            let (mut ones, mut twos, mut threes, mut fours) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[9 * b + d];
                fours |= threes & x;
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            let u = self.unsolved[b];
            sets[0][b] = u & !threes;
            sets[1][b] = u & threes & !fours;
            sets[2][b] = u;
        }
        let look = sets
            .into_iter()
            .find(|s| s[0] | s[1] | s[2] != 0)
            .unwrap_or_default();
        let mut best = (0, 0);
        let mut best_key = (u32::MAX, 0u32);
        for b in 0..3 {
            let mut u = look[b];
            while u != 0 {
                let c = u.trailing_zeros() as usize;
                u &= u - 1;
                let col = COLUMN[c];
                let peers = ROW_BOX[c] & !(1 << c);
                let [b1, b2] = OTHER_BANDS[b];
                let mut digits = I::cell_digits(&self.f, 9 * b, c);
                let n = digits.count_ones();
                let mut score = 0;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let far = (self.f[9 * b1 + d] & col) | (self.f[9 * b2 + d] & col) << 1;
                    score += (self.f[9 * b + d] & peers).count_ones() + far.count_ones();
                }
                if n < best_key.0 || (n == best_key.0 && score > best_key.1) {
                    best_key = (n, score);
                    best = (b, c);
                }
            }
        }
        best
    }

    /// [`State::fewest_candidates`] written plainly (every unsolved cell, one digit at a time), to check it.
    #[cfg(test)]
    pub(super) fn fewest_candidates_slow(&self) -> (usize, usize) {
        let mut best = (0, 0);
        let mut best_key = (u32::MAX, 0u32);
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let c = u.trailing_zeros() as usize;
                u &= u - 1;
                let col = (1u32 << (c % 9)) * COLS_TO_BAND;
                let mut n = 0;
                let mut score = 0;
                for d in 0..9 {
                    let w = self.f[9 * b + d];
                    if w & (1 << c) != 0 {
                        n += 1;
                        score += (w & ROW_BOX[c] & !(1 << c)).count_ones();
                        for b2 in 0..3 {
                            if b2 != b {
                                score += (self.f[9 * b2 + d] & col).count_ones();
                            }
                        }
                    }
                }
                if n < best_key.0 || (n == best_key.0 && score > best_key.1) {
                    best_key = (n, score);
                    best = (b, c);
                }
            }
        }
        best
    }
}
