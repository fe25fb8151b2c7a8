//! A sudoku's undo and redo: the grid now, and each step as the cells it changed, within a bound.
//!
//! A step keeps, for each cell it changed, the exclusive or of the old and the new digit, pencil marks and
//! centre marks: applied to the grid after the step it gives the grid before, and the other way round, so
//! one list serves undo and redo. A step costs what it changed (an entry a few cells, a filled set of pencil
//! marks the empty cells), not a whole grid, and the steps kept hold at most [`MAX_CELLS`] changed cells
//! (the oldest are forgotten first), so a game of any length saves to a file of bounded size, which the
//! web page can send with every action.

use serde_json::Value;

use super::board::Board;

/// The most changed cells the undo and redo steps hold together. A changed cell takes at most 14 bytes of
/// a save ("80,9,511,511,"), so the history stays under 40 KiB, and a whole save under the web server's
/// 64 KiB limit on a request.
pub const MAX_CELLS: usize = 2_500;

/// One cell changed by a step: the exclusive or of its old and new contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CellChange {
    cell: u8,
    value: u8,
    marks: u16,
    centre: u16,
}

/// One step: the cells it changed, in increasing order, at least one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Step(Vec<CellChange>);

impl Step {
    /// The step from `a` to `b` (and back); `None` when they are the same.
    pub(super) fn between(a: &Board, b: &Board) -> Option<Step> {
        let changes: Vec<CellChange> = (0..81)
            .filter_map(|c| {
                let change = CellChange {
                    cell: c as u8,
                    value: a.values[c] ^ b.values[c],
                    marks: a.marks[c] ^ b.marks[c],
                    centre: a.centre[c] ^ b.centre[c],
                };
                (change.value != 0 || change.marks != 0 || change.centre != 0).then_some(change)
            })
            .collect();
        (!changes.is_empty()).then_some(Step(changes))
    }

    /// Walk the step over `board`: forward if `board` is the grid before it, back if it is the grid after.
    pub(super) fn apply(&self, board: &mut Board) {
        for ch in &self.0 {
            let c = usize::from(ch.cell);
            board.values[c] ^= ch.value;
            board.marks[c] ^= ch.marks;
            board.centre[c] ^= ch.centre;
        }
    }

    /// The cells it changed, in increasing order.
    pub(super) fn changed(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        self.0.iter().map(|ch| usize::from(ch.cell))
    }

    /// How many cells it changed.
    fn cells(&self) -> usize {
        self.0.len()
    }

    /// The step in a save: a flat list of numbers, four per changed cell (the cell 0-80, then the exclusive
    /// or of its digits, of its pencil marks and of its centre marks).
    pub(super) fn to_value(&self) -> Value {
        Value::Array(
            self.0
                .iter()
                .flat_map(|ch| [u16::from(ch.cell), u16::from(ch.value), ch.marks, ch.centre])
                .map(Value::from)
                .collect(),
        )
    }

    /// Read a step written by [`Step::to_value`].
    ///
    /// # Errors
    /// A reason without the step's place (the caller adds it).
    pub(super) fn from_value(v: &Value) -> Result<Step, String> {
        let Value::Array(items) = v else {
            return Err("is neither a grid nor a list of changed cells".into());
        };
        if items.is_empty() || items.len() % 4 != 0 {
            return Err(format!(
                "has {} numbers; a step is four per changed cell (cell, digit, pencil marks, centre marks), at least one cell",
                items.len()
            ));
        }
        let mut changes = Vec::with_capacity(items.len() / 4);
        for (i, four) in items.chunks(4).enumerate() {
            let n = |k: usize, max: u64, what: &str| -> Result<u16, String> {
                four[k]
                    .as_u64()
                    .filter(|&x| x <= max)
                    .map(|x| x as u16)
                    .ok_or_else(|| {
                        format!(
                            "changed cell {}: {} is not a {what} (0 to {max})",
                            i + 1,
                            four[k]
                        )
                    })
            };
            let ch = CellChange {
                cell: n(0, 80, "cell")? as u8,
                value: n(1, 15, "change of a digit")? as u8,
                marks: n(2, 0x1ff, "change of pencil marks")?,
                centre: n(3, 0x1ff, "change of centre marks")?,
            };
            if let Some(last) = changes.last().map(|c: &CellChange| c.cell)
                && ch.cell <= last
            {
                return Err(format!(
                    "changed cell {}: cell {} comes after cell {last}; cells are listed once, in increasing order",
                    i + 1,
                    ch.cell
                ));
            }
            changes.push(ch);
        }
        Ok(Step(changes))
    }
}

/// The grid now, with the steps that undo walks back through and those that redo walks forward through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Steps {
    present: Board,
    /// Oldest first.
    undo: Vec<Step>,
    /// The next one last.
    redo: Vec<Step>,
    /// The changed cells of all the steps kept.
    cells: usize,
}

impl Steps {
    /// `present`, with nothing to undo or redo.
    pub(super) fn new(present: Board) -> Steps {
        Steps {
            present,
            undo: Vec::new(),
            redo: Vec::new(),
            cells: 0,
        }
    }

    /// Rebuild from saved parts (each step already checked to lead to a valid grid); the oldest steps past
    /// the bound are dropped.
    pub(super) fn from_parts(present: Board, undo: Vec<Step>, redo: Vec<Step>) -> Steps {
        let cells = undo.iter().chain(&redo).map(Step::cells).sum();
        let mut s = Steps {
            present,
            undo,
            redo,
            cells,
        };
        s.trim();
        s
    }

    /// The grid now.
    pub(super) fn present(&self) -> &Board {
        &self.present
    }

    /// The steps undo walks back through, oldest first.
    pub(super) fn undo_steps(&self) -> &[Step] {
        &self.undo
    }

    /// The steps redo walks forward through, the next one last.
    pub(super) fn redo_steps(&self) -> &[Step] {
        &self.redo
    }

    /// Make `next` the grid now, as one step that can be undone; the redo steps are dropped. Nothing happens
    /// when `next` is the grid now.
    pub(super) fn push(&mut self, next: Board) {
        let Some(step) = Step::between(&self.present, &next) else {
            return;
        };
        self.cells -= self.redo.iter().map(Step::cells).sum::<usize>();
        self.redo.clear();
        self.cells += step.cells();
        self.undo.push(step);
        self.present = next;
        self.trim();
    }

    /// Forget the oldest undo steps until the bound holds (the newest step is always kept).
    fn trim(&mut self) {
        if self.cells <= MAX_CELLS {
            return;
        }
        let mut drop = 0;
        while self.cells > MAX_CELLS && drop + 1 < self.undo.len() {
            self.cells -= self.undo[drop].cells();
            drop += 1;
        }
        self.undo.drain(..drop);
        while self.cells > MAX_CELLS && !self.redo.is_empty() {
            // Only a saved file can hold more redo steps than the bound: the farthest go first.
            self.cells -= self.redo.remove(0).cells();
        }
    }

    /// Step back; false when there is nothing to undo.
    pub(super) fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(step) => {
                step.apply(&mut self.present);
                self.redo.push(step);
                true
            }
            None => false,
        }
    }

    /// Step forward again; false when there is nothing to redo.
    pub(super) fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(step) => {
                step.apply(&mut self.present);
                self.undo.push(step);
                true
            }
            None => false,
        }
    }

    /// Whether undo would do something.
    pub(super) fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether redo would do something.
    pub(super) fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forget every step and start again from `present`.
    pub(super) fn reset(&mut self, present: Board) {
        *self = Steps::new(present);
    }
}
