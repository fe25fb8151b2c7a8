//! The 9×9 grid: cells, units, printing and rule checks.
//!
//! Cells are numbered `0..81` in row-major order (`r1c1` is 0, `r1c9` is 8, `r9c9` is 80). A cell holds a digit
//! `1..=9`, or `0` when it is empty.

use std::fmt;

/// The number of cells in a grid.
pub const CELLS: usize = 81;

/// One cell of the grid, `r1c1` to `r9c9`; it prints as `r4c2` (row 4, column 2, both counted from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row` and `col`, both counted from 0.
    ///
    /// # Panics
    /// If `row` or `col` is 9 or more.
    #[must_use]
    pub const fn new(row: usize, col: usize) -> Cell {
        assert!(row < 9 && col < 9, "row and column must be below 9");
        Cell((row * 9 + col) as u8)
    }

    /// The cell with row-major index `index` (`0..81`).
    ///
    /// # Panics
    /// If `index` is 81 or more.
    #[must_use]
    pub const fn from_index(index: usize) -> Cell {
        assert!(index < CELLS, "cell index must be below 81");
        Cell(index as u8)
    }

    /// Every cell, in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// The row-major index, `0..81`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, counted from 0.
    #[must_use]
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// The column, counted from 0.
    #[must_use]
    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// The box, counted from 0 in row-major order (box 0 is the top left, box 8 the bottom right).
    #[must_use]
    pub const fn box_index(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// Whether `self` and `other` are different cells that share a row, a column or a box.
    #[must_use]
    pub const fn sees(self, other: Cell) -> bool {
        self.0 != other.0
            && (self.row() == other.row()
                || self.col() == other.col()
                || self.box_index() == other.box_index())
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A row, a column or a box: the 27 units that must each hold every digit once. Indices count from 0; the
/// display counts from 1 ("row 4", "column 2", "box 9").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// A row, 0 at the top.
    Row(u8),
    /// A column, 0 at the left.
    Column(u8),
    /// A box, 0 at the top left, numbered row by row.
    Box(u8),
}

impl Unit {
    /// The 27 units: rows 0–8, then columns 0–8, then boxes 0–8.
    pub fn all() -> impl Iterator<Item = Unit> {
        (0..9)
            .map(Unit::Row)
            .chain((0..9).map(Unit::Column))
            .chain((0..9).map(Unit::Box))
    }

    /// The nine cells of the unit, in row-major order.
    ///
    /// # Panics
    /// If the unit's index is 9 or more.
    #[must_use]
    pub fn cells(self) -> [Cell; 9] {
        let mut out = [Cell(0); 9];
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = match self {
                Unit::Row(r) => Cell::new(r as usize, k),
                Unit::Column(c) => Cell::new(k, c as usize),
                Unit::Box(b) => {
                    let b = b as usize;
                    Cell::new((b / 3) * 3 + k / 3, (b % 3) * 3 + k % 3)
                }
            };
        }
        out
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Two cells of one unit holding the same digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// The earlier cell in row-major order.
    pub first: Cell,
    /// The later cell in row-major order.
    pub second: Cell,
    /// The unit both cells are in (a row if they share one, else a column, else a box).
    pub unit: Unit,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {} repeats the {} at {} in {}",
            self.digit, self.second, self.digit, self.first, self.unit
        )
    }
}

/// A 9×9 sudoku grid: each cell empty (`0`) or holding a digit `1..=9`.
///
/// A `Grid` may hold repeated digits (a player's mistake, for example); [`Grid::first_conflict`] finds them, the
/// parser rejects them, and the solver reports no solution for them.
///
/// It prints as the 81-character line (`{}`) or as a 9-line block with separators (`{:#}`); see
/// [`Grid::to_line`] and [`Grid::to_block`]. It parses from either format (see [`Grid::parse`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    cells: [u8; CELLS],
}

impl Default for Grid {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// Why [`Grid::from_digits`] rejected an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GridError {
    /// A value above 9.
    BadValue {
        /// Where.
        cell: Cell,
        /// The value found.
        value: u8,
    },
    /// A digit repeated in a unit.
    Conflict(Conflict),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::BadValue { cell, value } => {
                write!(
                    f,
                    "{cell} holds {value}; a cell holds 0 (empty) or a digit 1 to 9"
                )
            }
            GridError::Conflict(c) => c.fmt(f),
        }
    }
}

impl std::error::Error for GridError {}

impl Grid {
    /// The grid with every cell empty.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// A grid from 81 values in row-major order, `0` for empty. Rejects values above 9 and repeated digits.
    ///
    /// # Errors
    /// [`GridError::BadValue`] for a value above 9, [`GridError::Conflict`] for a digit repeated in a unit.
    pub fn from_digits(digits: [u8; CELLS]) -> Result<Grid, GridError> {
        let grid = Grid::from_digits_allow_conflicts(digits)?;
        match grid.first_conflict() {
            Some(c) => Err(GridError::Conflict(c)),
            None => Ok(grid),
        }
    }

    /// A grid from 81 values in row-major order, `0` for empty, keeping repeated digits. Rejects only values
    /// above 9.
    ///
    /// # Errors
    /// [`GridError::BadValue`] for a value above 9.
    pub fn from_digits_allow_conflicts(digits: [u8; CELLS]) -> Result<Grid, GridError> {
        if let Some(i) = digits.iter().position(|&v| v > 9) {
            return Err(GridError::BadValue {
                cell: Cell::from_index(i),
                value: digits[i],
            });
        }
        Ok(Grid { cells: digits })
    }

    /// A grid from values the caller guarantees are `0..=9`.
    pub(crate) const fn from_raw(cells: [u8; CELLS]) -> Grid {
        Grid { cells }
    }

    /// The 81 values in row-major order, `0` for empty.
    #[must_use]
    pub const fn digits(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of `cell`: `0` when empty, else its digit.
    #[must_use]
    pub const fn get(&self, cell: Cell) -> u8 {
        self.cells[cell.index()]
    }

    /// Set `cell` to `value` (`0` empties it). Repeated digits are allowed here; see [`Grid::first_conflict`].
    ///
    /// # Panics
    /// If `value` is above 9.
    pub fn set(&mut self, cell: Cell, value: u8) {
        assert!(value <= 9, "a cell holds 0 (empty) or a digit 1 to 9");
        self.cells[cell.index()] = value;
    }

    /// The number of filled cells (clues, for a puzzle).
    #[must_use]
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a digit.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of cells, in row-major order of the later cell, that hold the same digit in one unit.
    #[must_use]
    pub fn first_conflict(&self) -> Option<Conflict> {
        // For each unit and digit, the first cell seen holding that digit.
        let mut seen = [[u8::MAX; 10]; 27];
        for cell in Cell::all() {
            let d = self.get(cell) as usize;
            if d == 0 {
                continue;
            }
            let units = [
                Unit::Row(cell.row() as u8),
                Unit::Column(cell.col() as u8),
                Unit::Box(cell.box_index() as u8),
            ];
            for (k, unit) in units.into_iter().enumerate() {
                let slot = &mut seen[k * 9 + unit_index(unit)][d];
                if *slot != u8::MAX {
                    return Some(Conflict {
                        digit: d as u8,
                        first: Cell(*slot),
                        second: cell,
                        unit,
                    });
                }
            }
            for (k, unit) in units.into_iter().enumerate() {
                seen[k * 9 + unit_index(unit)][d] = cell.0;
            }
        }
        None
    }

    /// Whether the grid is full and every unit holds each digit once.
    #[must_use]
    pub fn is_solved(&self) -> bool {
        self.is_full() && self.first_conflict().is_none()
    }

    /// Check that `self` is a solution of `puzzle`: full, following the rules, and keeping every clue.
    ///
    /// # Errors
    /// The first problem found: an empty cell, a changed clue, or a repeated digit.
    pub fn check_solution_of(&self, puzzle: &Grid) -> Result<(), SolutionError> {
        if let Some(i) = self.cells.iter().position(|&v| v == 0) {
            return Err(SolutionError::Empty(Cell::from_index(i)));
        }
        for cell in Cell::all() {
            let clue = puzzle.get(cell);
            if clue != 0 && clue != self.get(cell) {
                return Err(SolutionError::ClueChanged {
                    cell,
                    clue,
                    found: self.get(cell),
                });
            }
        }
        match self.first_conflict() {
            Some(c) => Err(SolutionError::Conflict(c)),
            None => Ok(()),
        }
    }

    /// The 81-character line, `.` for an empty cell.
    #[must_use]
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
            .collect()
    }

    /// The 9-line block with `|` between stacks and `------+-------+------` between bands, `.` for an empty
    /// cell; each line ends with a newline. [`Grid::parse`] reads it back.
    #[must_use]
    pub fn to_block(&self) -> String {
        let mut s = String::with_capacity(22 * 11);
        for r in 0..9 {
            if r == 3 || r == 6 {
                s.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    s.push_str(" |");
                }
                if c != 0 {
                    s.push(' ');
                }
                let v = self.cells[r * 9 + c];
                s.push(if v == 0 { '.' } else { char::from(b'0' + v) });
            }
            s.push('\n');
        }
        s
    }
}

/// Index of a unit within its kind.
fn unit_index(unit: Unit) -> usize {
    match unit {
        Unit::Row(i) | Unit::Column(i) | Unit::Box(i) => i as usize,
    }
}

impl std::ops::Index<Cell> for Grid {
    type Output = u8;
    fn index(&self, cell: Cell) -> &u8 {
        &self.cells[cell.index()]
    }
}

impl fmt::Display for Grid {
    /// `{}` prints the 81-character line, `{:#}` the 9-line block.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str(&self.to_block())
        } else {
            f.write_str(&self.to_line())
        }
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

/// Why a grid is not a solution of a puzzle (see [`Grid::check_solution_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolutionError {
    /// The cell is empty.
    Empty(Cell),
    /// The cell holds another digit than the puzzle's clue.
    ClueChanged {
        /// Where.
        cell: Cell,
        /// The puzzle's clue.
        clue: u8,
        /// The digit in the solution.
        found: u8,
    },
    /// A digit repeats in a unit.
    Conflict(Conflict),
}

impl fmt::Display for SolutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolutionError::Empty(cell) => write!(f, "{cell} is empty"),
            SolutionError::ClueChanged { cell, clue, found } => {
                write!(f, "{cell} holds {found} but the clue there is {clue}")
            }
            SolutionError::Conflict(c) => c.fmt(f),
        }
    }
}

impl std::error::Error for SolutionError {}
