//! A plain, independent solver kept as a reference: per-cell candidate masks, naked and hidden singles, and
//! guessing on the cell with the fewest candidates. It shares no code with the fast solver, so tests compare the
//! two. It is correct but several times slower; use [`crate::solver`] for real work.

use crate::grid::{CELLS, Grid};

/// The 20 peers of each cell (same row, column or box).
const PEERS: [[u8; 20]; CELLS] = peers();

/// The 27 units (rows, columns, boxes) as cell lists.
const UNITS: [[u8; 9]; 27] = units();

const fn units() -> [[u8; 9]; 27] {
    let mut u = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            u[i][k] = (i * 9 + k) as u8;
            u[9 + i][k] = (k * 9 + i) as u8;
            u[18 + i][k] = (((i / 3) * 3 + k / 3) * 9 + (i % 3) * 3 + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    u
}

const fn peers() -> [[u8; 20]; CELLS] {
    let mut p = [[0u8; 20]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (r, col, b) = (c / 9, c % 9, (c / 27) * 3 + (c % 9) / 3);
        let mut n = 0;
        let mut o = 0;
        while o < CELLS {
            let (r2, c2, b2) = (o / 9, o % 9, (o / 27) * 3 + (o % 9) / 3);
            if o != c && (r2 == r || c2 == col || b2 == b) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
}

const ALL: u16 = 0x1FF;

#[derive(Clone, Copy)]
struct State {
    /// Candidate digits of each cell, bit `d-1` for digit `d`.
    cand: [u16; CELLS],
    /// Cells already assigned (their peers are cleared of the digit).
    done: [bool; CELLS],
}

impl State {
    /// The state for `grid`, or `None` if its clues contradict each other.
    fn new(grid: &Grid) -> Option<State> {
        let mut s = State {
            cand: [ALL; CELLS],
            done: [false; CELLS],
        };
        for (i, &v) in grid.digits().iter().enumerate() {
            if v != 0 && !s.assign(i, v) {
                return None;
            }
        }
        Some(s)
    }

    /// Place digit `d` in `cell` and propagate naked singles. `false` on a contradiction.
    fn assign(&mut self, cell: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        if self.cand[cell] & bit == 0 {
            return false;
        }
        let mut stack = [(0u8, 0u8); CELLS];
        let mut top = 0;
        stack[top] = (cell as u8, d);
        top += 1;
        while top > 0 {
            top -= 1;
            let (c, d) = stack[top];
            let c = c as usize;
            let bit = 1u16 << (d - 1);
            if self.done[c] {
                if self.cand[c] != bit {
                    return false;
                }
                continue;
            }
            if self.cand[c] & bit == 0 {
                return false;
            }
            self.cand[c] = bit;
            self.done[c] = true;
            for &p in &PEERS[c] {
                let p = p as usize;
                if self.cand[p] & bit != 0 {
                    if self.done[p] {
                        return false;
                    }
                    self.cand[p] &= !bit;
                    let left = self.cand[p];
                    if left == 0 {
                        return false;
                    }
                    if left.count_ones() == 1 && top < CELLS {
                        stack[top] = (p as u8, left.trailing_zeros() as u8 + 1);
                        top += 1;
                    }
                }
            }
        }
        true
    }

    /// Apply hidden singles until none is left. `false` on a contradiction.
    fn hidden_singles(&mut self) -> bool {
        loop {
            let mut progress = false;
            for unit in &UNITS {
                let mut once = 0u16;
                let mut twice = 0u16;
                for &c in unit {
                    let m = self.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if once != ALL {
                    return false;
                }
                let mut singles = once & !twice;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    for &c in unit {
                        let c = c as usize;
                        if self.cand[c] & bit != 0 && !self.done[c] {
                            if !self.assign(c, bit.trailing_zeros() as u8 + 1) {
                                return false;
                            }
                            progress = true;
                        }
                    }
                }
            }
            if !progress {
                return true;
            }
        }
    }
}

/// Depth-first search: adds solutions to `count` up to `limit`, keeping the first one.
fn search(mut s: State, limit: u64, count: &mut u64, first: &mut Option<Grid>) {
    if !s.hidden_singles() {
        return;
    }
    // The open cell with the fewest candidates.
    let mut best = usize::MAX;
    let mut best_n = 10;
    for c in 0..CELLS {
        if !s.done[c] {
            let n = s.cand[c].count_ones();
            if n < best_n {
                best_n = n;
                best = c;
            }
        }
    }
    if best == usize::MAX {
        *count += 1;
        if first.is_none() {
            let mut digits = [0u8; CELLS];
            for (d, m) in digits.iter_mut().zip(s.cand.iter()) {
                *d = m.trailing_zeros() as u8 + 1;
            }
            *first = Grid::from_digits(digits).ok();
        }
        return;
    }
    let mut m = s.cand[best];
    while m != 0 {
        let d = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let mut next = s;
        if next.assign(best, d) {
            search(next, limit, count, first);
            if *count >= limit {
                return;
            }
        }
    }
}

/// The number of solutions of `grid`, counting no further than `limit`, and the first solution found.
#[must_use]
pub fn count_solutions_with_first(grid: &Grid, limit: u64) -> (u64, Option<Grid>) {
    let mut count = 0;
    let mut first = None;
    if limit == 0 {
        return (0, None);
    }
    if let Some(s) = State::new(grid) {
        search(s, limit, &mut count, &mut first);
    }
    (count, first)
}

/// The number of solutions of `grid`, counting no further than `limit` (so `min(solutions, limit)`).
#[must_use]
pub fn count_solutions(grid: &Grid, limit: u64) -> u64 {
    count_solutions_with_first(grid, limit).0
}
