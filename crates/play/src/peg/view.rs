//! What a front end draws of a peg game.

use peg::Lattice;
use serde::Serialize;

use super::oracle::Why;

/// A jump, for drawing: holes by number, and as the board writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Jump {
    /// The hole jumped from.
    pub from: usize,
    /// The hole jumped over (its peg is taken off).
    pub over: usize,
    /// The hole jumped to.
    pub to: usize,
    /// `d2-d4`.
    pub text: String,
}

/// A hole of the board, for drawing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hole {
    /// Its name (`d4`, or `1` to `15` on the triangle).
    pub name: String,
    /// Its layout column.
    pub column: i32,
    /// Its layout line.
    pub line: i32,
    /// Whether a peg stands on it.
    pub peg: bool,
}

/// The indicator: can one peg still be left?
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum Indicator {
    /// Yes (the way is [`PegView::solution`] when shown).
    Possible,
    /// No, and why.
    Impossible {
        /// Why.
        why: Why,
        /// The number of the first jump after which one peg could no longer be left (0: not from the start),
        /// when known.
        since: Option<usize>,
    },
    /// The solver is working on it (or a complete table is being built).
    Checking {
        /// Positions the search of this position has examined so far (0 while none has begun).
        nodes: u64,
    },
    /// The solver gave up.
    Unknown {
        /// Positions examined.
        nodes: u64,
        /// True when it stopped at its memory limit.
        memory: bool,
    },
}

/// What a front end draws: the whole state of a peg game, read-only and serializable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PegView {
    /// The board's name.
    pub board: String,
    /// The board described, e.g. "the English 33-hole cross".
    pub description: String,
    /// `square` or `triangular`.
    pub lattice: Lattice,
    /// The board's size in layout columns and lines.
    pub size: (i32, i32),
    /// The holes, with the pegs on them now.
    pub holes: Vec<Hole>,
    /// The holes empty at the start.
    pub start: Vec<String>,
    /// "d4 empty", "5 holes empty".
    pub start_text: String,
    /// The finish hole, if one was chosen.
    pub finish: Option<String>,
    /// "one peg on d4", "one peg anywhere".
    pub finish_text: String,
    /// Whether the start's position class allows the finish at all.
    pub class_allows: bool,
    /// Pegs on the board.
    pub pegs: u32,
    /// The jumps played.
    pub moves: Vec<Jump>,
    /// The jumps that can be played now (what a front end shows when a peg is picked up).
    pub legal: Vec<Jump>,
    /// Whether no jump is left.
    pub over: bool,
    /// Whether the game is over with one peg on the finish (or anywhere when there is no finish hole).
    pub solved: bool,
    /// The indicator for the current position.
    pub indicator: Indicator,
    /// Why one peg can no longer be left, in a few words ([`Why::short`]), when it cannot; else empty.
    pub why_text: String,
    /// The way to finish from here, when it is shown and known.
    pub solution: Option<Vec<Jump>>,
    /// Whether the solution is to be shown.
    pub show_solution: bool,
    /// Whether a question (show the solution, play its next jump) waits for the indicator.
    pub waiting: bool,
    /// One line about the complete table of finishable positions.
    pub table_note: String,
    /// Whether undo would do something.
    pub can_undo: bool,
    /// Whether redo would do something.
    pub can_redo: bool,
}
