//! The pencil-mark state of a grid: placed digits and, for each empty cell, the digits still possible.
//!
//! Two views are kept in step: a 9-bit candidate mask per cell, and for each digit the set of cells where it is
//! still possible (an 81-bit set). Placing a digit removes it from the cell's peers.

use std::fmt;

use super::tables::{
    ALL_CELLS, CELL_HOUSES, CellSet, Cells, Digits, HOUSE, PEERS, bit, cell_name, digit_bit,
};

/// A clue or entry that repeats a digit already in one of its houses, or a cell left without candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// The cell (0..81) where the conflict shows.
    pub cell: usize,
    /// The digit (1..=9) that cannot go there, or 0 when the cell has no candidate left.
    pub digit: u8,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digit == 0 {
            write!(f, "{} has no possible digit", cell_name(self.cell))
        } else {
            write!(
                f,
                "{} cannot be {}: a peer already holds it",
                cell_name(self.cell),
                self.digit
            )
        }
    }
}

impl std::error::Error for Conflict {}

/// Placed digits and candidates of a (partly solved) grid.
#[derive(Clone, PartialEq, Eq)]
pub struct Candidates {
    /// Candidate mask per cell (bit `d - 1` for digit `d`); 0 for a placed cell.
    cand: [u16; 81],
    /// Placed digit per cell, 0 when empty.
    value: [u8; 81],
    /// For each digit (index `d - 1`), the empty cells where it is still a candidate.
    pos: [CellSet; 9],
    /// Digits placed in each house (bit `d - 1`).
    placed: [u16; 27],
    /// Empty cells.
    unsolved: CellSet,
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..9 {
            for c in 0..9 {
                let i = r * 9 + c;
                if self.value[i] != 0 {
                    write!(f, "{:<10}", self.value[i])?;
                } else {
                    let s: String = Digits(self.cand[i]).map(|d| char::from(b'0' + d)).collect();
                    write!(f, "{:<10}", format!("[{s}]"))?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Default for Candidates {
    fn default() -> Self {
        Self::new()
    }
}

impl Candidates {
    /// An empty grid: every digit possible everywhere.
    pub fn new() -> Self {
        Self {
            cand: [0x1ff; 81],
            value: [0; 81],
            pos: [ALL_CELLS; 9],
            placed: [0; 27],
            unsolved: ALL_CELLS,
        }
    }

    /// The state after placing the given digits (0 = empty cell, 1..=9 = digit; other values are treated as
    /// empty). Fails on the first digit that repeats one in a row, column or box.
    pub fn from_values(values: &[u8; 81]) -> Result<Self, Conflict> {
        // The digits of each house first (the first repeat, in cell order, is the conflict), then every empty
        // cell's candidates at once.
        let mut placed = [0u16; 27];
        let mut value = [0u8; 81];
        let mut unsolved = ALL_CELLS;
        for (cell, &d) in values.iter().enumerate() {
            if (1..=9).contains(&d) {
                let b = digit_bit(d);
                let h = CELL_HOUSES[cell];
                if (placed[usize::from(h[0])]
                    | placed[usize::from(h[1])]
                    | placed[usize::from(h[2])])
                    & b
                    != 0
                {
                    return Err(Conflict { cell, digit: d });
                }
                for &x in &h {
                    placed[usize::from(x)] |= b;
                }
                value[cell] = d;
                unsolved &= !bit(cell);
            }
        }
        let mut cand = [0u16; 81];
        let mut pos = [0u128; 9];
        for cell in Cells(unsolved) {
            let h = CELL_HOUSES[cell];
            let m = !(placed[usize::from(h[0])]
                | placed[usize::from(h[1])]
                | placed[usize::from(h[2])])
                & 0x1ff;
            cand[cell] = m;
            for d in Digits(m) {
                pos[usize::from(d - 1)] |= bit(cell);
            }
        }
        Ok(Self {
            cand,
            value,
            pos,
            placed,
            unsolved,
        })
    }

    /// The state given placed digits and, for each empty cell, a candidate mask (bit `d - 1` for digit `d`), as a
    /// player's pencil marks. Candidates that a placed peer rules out are removed. Fails when a placed digit
    /// repeats or an empty cell is left without candidates.
    pub fn from_pencil_marks(values: &[u8; 81], marks: &[u16; 81]) -> Result<Self, Conflict> {
        let mut s = Self::from_values(values)?;
        for cell in Cells(s.unsolved) {
            let remove = s.cand[cell] & !marks[cell];
            for d in Digits(remove) {
                s.eliminate(cell, d);
            }
            if s.cand[cell] == 0 {
                return Err(Conflict { cell, digit: 0 });
            }
        }
        Ok(s)
    }

    /// The digit placed in a cell, 0 if it is empty.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// All placed digits (0 for empty cells).
    pub fn values(&self) -> [u8; 81] {
        self.value
    }

    /// The candidate mask of a cell (bit `d - 1` for digit `d`); 0 for a placed cell.
    #[inline]
    pub fn candidates(&self, cell: usize) -> u16 {
        self.cand[cell]
    }

    /// Whether `d` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cand[cell] & digit_bit(d) != 0
    }

    /// The empty cells where digit `d` is still possible.
    #[inline]
    pub fn positions(&self, d: u8) -> CellSet {
        self.pos[usize::from(d - 1)]
    }

    /// The digits placed in a house (bit `d - 1`).
    #[inline]
    pub fn placed_in(&self, house: usize) -> u16 {
        self.placed[house]
    }

    /// The empty cells.
    #[inline]
    pub fn unsolved(&self) -> CellSet {
        self.unsolved
    }

    /// Whether every cell holds a digit.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.unsolved == 0
    }

    /// Number of candidates left over all empty cells.
    pub fn candidate_count(&self) -> u32 {
        self.pos.iter().map(|p| p.count_ones()).sum()
    }

    /// Place `d` in `cell` and remove it from the cell's peers. The caller makes sure `d` is a candidate.
    pub fn place(&mut self, cell: usize, d: u8) {
        debug_assert!(self.cand[cell] & digit_bit(d) != 0);
        let b = bit(cell);
        for e in Digits(self.cand[cell]) {
            self.pos[usize::from(e - 1)] &= !b;
        }
        self.cand[cell] = 0;
        self.value[cell] = d;
        self.unsolved &= !b;
        for &h in &CELL_HOUSES[cell] {
            self.placed[usize::from(h)] |= digit_bit(d);
        }
        let di = usize::from(d - 1);
        let hit = self.pos[di] & PEERS[cell];
        self.pos[di] &= !hit;
        let m = !digit_bit(d);
        for p in Cells(hit) {
            self.cand[p] &= m;
        }
    }

    /// Remove candidate `d` from `cell`. Returns whether it was there.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, d: u8) -> bool {
        let m = digit_bit(d);
        if self.cand[cell] & m == 0 {
            return false;
        }
        self.cand[cell] &= !m;
        self.pos[usize::from(d - 1)] &= !bit(cell);
        true
    }

    /// The first contradiction in the state, if any: an empty cell without candidates, or a house where a digit is
    /// neither placed nor possible.
    pub fn contradiction(&self) -> Option<Conflict> {
        let any = self.pos.iter().fold(0u128, |a, p| a | p);
        let dead = self.unsolved & !any;
        if dead != 0 {
            return Some(Conflict {
                cell: dead.trailing_zeros() as usize,
                digit: 0,
            });
        }
        for (h, &house) in HOUSE.iter().enumerate() {
            let missing = !self.placed[h] & 0x1ff;
            for d in Digits(missing) {
                if self.pos[usize::from(d - 1)] & house == 0 {
                    let cell = (house & self.unsolved).trailing_zeros() as usize;
                    return Some(Conflict {
                        cell: cell.min(80),
                        digit: d,
                    });
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_updates_both_views() {
        let mut s = Candidates::new();
        s.place(0, 5);
        assert_eq!(s.value(0), 5);
        assert_eq!(s.candidates(0), 0);
        assert!(!s.has(1, 5));
        assert!(!s.has(9, 5));
        assert!(!s.has(10, 5));
        assert!(s.has(40, 5));
        assert_eq!(s.positions(5).count_ones(), 81 - 21);
        assert_eq!(s.positions(4).count_ones(), 80);
        assert!(s.contradiction().is_none());
    }

    #[test]
    fn repeated_clue_is_a_conflict() {
        let mut v = [0u8; 81];
        v[0] = 3;
        v[8] = 3;
        assert_eq!(
            Candidates::from_values(&v),
            Err(Conflict { cell: 8, digit: 3 })
        );
    }
}
