//! A sudoku in progress: graded puzzles from the generator or the classic ZX-81 shuffle, digits and pencil
//! marks with undo and redo, conflicts, mistakes counted, hints from the logical solver that explain themselves,
//! check, show the solution, a timer.
//!
//! Every rule lives in the `sudoku` crate: the generator makes the puzzle, the solver decides whether the entries
//! still lead to a solution, the logical solver finds and explains hints (the same hint as `boardlab sudoku
//! hint` for the same grid: all three ask [`hint`]). This module keeps the player's grid and marks.
//!
//! ```
//! use play::Env;
//! use play::sudoku::{Setup, SudokuSession};
//!
//! let mut game = SudokuSession::new(Setup::default(), &Env::blocking())?;
//! while game.end().is_none() {
//!     game.hint()?; // show the next step...
//!     game.apply_hint()?; // ...and carry it out (a medium puzzle never needs guessing)
//! }
//! assert!(game.view().cells_left == 0);
//! # Ok::<(), play::sudoku::SudokuError>(())
//! ```

mod board;
mod error;
mod hint;
mod puzzle;
mod session;
mod setup;
mod state;
mod steps;

pub use board::{conflicts, parse_rcv};
pub use error::SudokuError;
pub use hint::{Hint, HintKind, hint, marks_complete};
pub use puzzle::{Puzzle, no_solution_reason};
pub use session::{Direction, End, SudokuSession, SudokuView};
pub use setup::{CLASSIC_HIDE, MAX_HIDE, Mode, Setup, choices};

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "Fill every empty cell with a digit from 1 to 9 so that each row, each column and each of the nine 3x3 \
     boxes holds every digit exactly once. The clues (bold) cannot be changed.",
    "Cells are named r<row>c<column>: r3c5 is row 3, column 5; rows are numbered down the left, columns along \
     the top. Pencil marks note the digits a cell may still take; they can be filled in all at once, and entering a digit \
     removes it from the marks of its row, column and box.",
    "A mistake is counted when a digit you enter clashes with the same digit in its row, column or box, and when \
     a check finds an entry the solution does not have there (each wrong entry once): typing a digit never \
     tells you by itself whether it is right. Graded puzzles have exactly one solution and never need guessing; classic puzzles, made the ZX-81 way, may have several, and \
     any grid that keeps the rules counts as solved.",
];
