//! Constant tables: houses, peers and bit masks over the 81 cells.
//!
//! Cells are numbered `0..81` row by row (`r * 9 + c`). Houses are numbered `0..27`: rows `0..9`, columns `9..18`,
//! boxes `18..27` (boxes numbered row by row from the top left).

/// A set of cells: bit `i` is cell `i`.
pub type CellSet = u128;

/// All 81 cells.
pub const ALL_CELLS: CellSet = (1u128 << 81) - 1;

/// The row of a cell.
#[inline]
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// The column of a cell.
#[inline]
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// The box of a cell (0..9, row by row).
#[inline]
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

const fn build_house_cells() -> [[u8; 9]; 27] {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            t[i][j] = (i * 9 + j) as u8;
            t[9 + i][j] = (j * 9 + i) as u8;
            t[18 + i][j] = ((i / 3) * 27 + (i % 3) * 3 + (j / 3) * 9 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    t
}

/// The nine cells of each house, in reading order.
pub const HOUSE_CELLS: [[u8; 9]; 27] = build_house_cells();

const fn build_house_masks() -> [CellSet; 27] {
    let mut t = [0u128; 27];
    let mut h = 0;
    while h < 27 {
        let mut j = 0;
        while j < 9 {
            t[h] |= 1u128 << HOUSE_CELLS[h][j];
            j += 1;
        }
        h += 1;
    }
    t
}

/// The cells of each house as a cell set.
pub const HOUSE: [CellSet; 27] = build_house_masks();

const fn build_cell_houses() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = [row_of(c) as u8, 9 + col_of(c) as u8, 18 + box_of(c) as u8];
        c += 1;
    }
    t
}

/// The row, column and box house of each cell.
pub const CELL_HOUSES: [[u8; 3]; 81] = build_cell_houses();

const fn build_peers() -> [CellSet; 81] {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let h = CELL_HOUSES[c];
        t[c] = (HOUSE[h[0] as usize] | HOUSE[h[1] as usize] | HOUSE[h[2] as usize]) & !(1u128 << c);
        c += 1;
    }
    t
}

/// The 20 peers of each cell (same row, column or box, not the cell itself).
pub const PEERS: [CellSet; 81] = build_peers();

/// The set holding one cell.
#[inline]
pub const fn bit(cell: usize) -> CellSet {
    1u128 << cell
}

/// Iterator over the cells of a set, in increasing order.
#[derive(Debug, Clone, Copy)]
pub struct Cells(pub CellSet);

impl Iterator for Cells {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let c = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(c)
        }
    }
}

/// Iterator over the digits (1..=9) of a candidate mask (bit `d - 1` is digit `d`).
#[derive(Debug, Clone, Copy)]
pub struct Digits(pub u16);

impl Iterator for Digits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let d = self.0.trailing_zeros() as u8 + 1;
            self.0 &= self.0 - 1;
            Some(d)
        }
    }
}

/// The mask of one digit (1..=9).
#[inline]
pub const fn digit_bit(d: u8) -> u16 {
    1u16 << (d - 1)
}

/// Whether a cell set holds exactly one cell.
#[inline]
pub const fn single(set: CellSet) -> bool {
    set != 0 && set & (set - 1) == 0
}

/// The name of a cell, `r4c2` style (1-based).
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row_of(cell) + 1, col_of(cell) + 1)
}

/// The name of a house: `row 4`, `column 2`, `box 5` (1-based).
pub fn house_name(house: usize) -> String {
    match house {
        0..=8 => format!("row {}", house + 1),
        9..=17 => format!("column {}", house - 8),
        _ => format!("box {}", house - 17),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn houses_and_peers_are_consistent() {
        for house in HOUSE {
            assert_eq!(house.count_ones(), 9);
        }
        for c in 0..81 {
            assert_eq!(PEERS[c].count_ones(), 20);
            for &h in &CELL_HOUSES[c] {
                assert!(HOUSE[h as usize] & bit(c) != 0);
            }
        }
        assert_eq!(box_of(40), 4);
        assert_eq!(box_of(80), 8);
        assert_eq!(HOUSE_CELLS[18 + 4][0], 30);
        assert_eq!(cell_name(0), "r1c1");
        assert_eq!(house_name(26), "box 9");
    }
}
