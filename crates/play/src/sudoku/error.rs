//! Why a sudoku action was refused.

use sudoku::logic::tables::cell_name;

use super::session::End;
use crate::{Message, NextAction, Tone};

/// Why an action was refused. Each message is one line and names the cell or the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SudokuError {
    /// The options name something the generator does not know.
    #[error("{0}")]
    Setup(String),
    /// The puzzle could not be made (the generator's message).
    #[error("No puzzle: {0}")]
    NoPuzzle(String),
    /// The puzzle was not made: its work was stopped from outside (the [`crate::Env`]'s `stop` flag, raised
    /// when a server's request ran out of time).
    #[error("No puzzle: making it was stopped before it finished (it took too long)")]
    Stopped,
    /// The generator stopped without a puzzle (it panicked: its message).
    #[error("The generator failed: {0}")]
    GeneratorFailed(String),
    /// A pasted puzzle cannot be played.
    #[error("the puzzle cannot be played: {0}")]
    BadPuzzle(String),
    /// The puzzle is still being made.
    #[error("The puzzle is still being made")]
    Making,
    /// The game is over.
    #[error("{}", match .0 {
        End::Solved => "The puzzle is solved.",
        End::Revealed => "The solution is shown.",
    })]
    Over(End),
    /// A cell number out of range.
    #[error("there is no cell {0}: cells are numbered 0 to 80, row by row")]
    NoCell(usize),
    /// A digit out of range.
    #[error("{0} is not a digit from 1 to 9")]
    NoDigit(u8),
    /// The cell holds a clue.
    #[error("{} is a clue; it cannot be changed", cell_name(*.0))]
    Clue(usize),
    /// A pencil mark in a cell that holds a digit.
    #[error("{} holds a digit; erase it before pencilling", cell_name(*.0))]
    HoldsDigit(usize),
    /// Automatic marks with a digit repeated in a house.
    #[error("The grid has a repeated digit; fix the conflict before filling the marks")]
    Repeated,
    /// A typed "row column value" that cannot be read.
    #[error("{0}")]
    Typed(String),
    /// "apply the hint" with no hint shown.
    #[error("No hint is shown: ask for one first")]
    NoHint,
}

impl SudokuError {
    /// How the message should be taken.
    pub fn tone(&self) -> Tone {
        match self {
            SudokuError::Over(_) | SudokuError::Making | SudokuError::NoHint => Tone::Info,
            SudokuError::Clue(_) | SudokuError::HoldsDigit(_) | SudokuError::Repeated => Tone::Warn,
            _ => Tone::Error,
        }
    }

    /// The error as a message to show.
    pub fn message(&self) -> Message {
        let next: &[NextAction] = match self {
            SudokuError::Over(_) => &[NextAction::NewGame, NextAction::Leave],
            _ => &[],
        };
        Message::new(self.to_string(), self.tone()).then(next)
    }
}
