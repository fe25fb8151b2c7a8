//! Errors: every message is one line that says what was wrong and where.

use thiserror::Error;

use crate::board::Square;
use crate::position::Move;

/// A square name that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SquareError {
    /// Not a square name A1..H8.
    #[error("unknown square '{0}' (squares are A1..H8)")]
    Unknown(String),
    /// A light square, where no piece may stand.
    #[error("{0} is a light square (pieces stand only on dark squares such as A1, C1, B2)")]
    Light(Square),
}

/// Something that could not be parsed: a position, a move, a side, a rule, a setting.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A bad square name or a light square.
    #[error(transparent)]
    Square(#[from] SquareError),
    /// The cats' list did not name exactly four squares.
    #[error("expected 4 cats, found {0}")]
    CatCount(usize),
    /// No mouse given.
    #[error("no mouse given")]
    NoMouse,
    /// More than one mouse in a diagram.
    #[error("more than one mouse (at {0} and {1})")]
    TwoMice(Square, Square),
    /// Two pieces named on one square.
    #[error("two pieces on {0}")]
    Occupied(Square),
    /// A side name other than mouse or cats.
    #[error("unknown side '{0}' (expected mouse or cats)")]
    Side(String),
    /// A rule name other than row8 or escape.
    #[error("unknown rule '{0}' (expected row8 or escape)")]
    Rule(String),
    /// A key in `key=value` notation that is not mouse, cats or turn.
    #[error("unknown field '{0}' (expected mouse=, cats= and turn=)")]
    UnknownField(String),
    /// A field given twice.
    #[error("field '{0}' given twice")]
    DuplicateField(String),
    /// A word without `=` in `key=value` notation.
    #[error("expected key=value, found '{0}'")]
    NotKeyValue(String),
    /// A malformed line of an 8-line diagram.
    #[error("diagram line {line}, column {column}: {message}")]
    Diagram {
        /// 1-based line number in the text.
        line: usize,
        /// 1-based column (character) number.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// A diagram that did not have 8 board lines.
    #[error("a diagram needs 8 board lines (row 8 first), found {0}")]
    DiagramRows(usize),
    /// A malformed move.
    #[error("bad move '{0}' (write moves as E1-F2 or e1f2)")]
    Move(String),
    /// Empty input.
    #[error("empty position")]
    Empty,
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The game is already over.
    #[error("the game is over: the {0} won")]
    GameOver(crate::board::Side),
    /// The move's source square does not hold a piece of the side to move.
    #[error("{mv}: no {side} piece on {from}")]
    NotYourPiece {
        /// The move.
        mv: Move,
        /// The side to move.
        side: crate::board::Side,
        /// Its source square.
        from: Square,
    },
    /// The piece cannot go there.
    #[error("{mv} is not a legal {side} move here (legal: {legal})")]
    Illegal {
        /// The move.
        mv: Move,
        /// The side to move.
        side: crate::board::Side,
        /// The legal moves, space-separated.
        legal: String,
    },
}

/// A setting out of range (table size, lock width, depth, level).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingError {
    /// A value outside its allowed range.
    #[error("{name} must be between {min} and {max}, got {value}")]
    OutOfRange {
        /// The setting.
        name: &'static str,
        /// The smallest allowed value.
        min: i64,
        /// The largest allowed value.
        max: i64,
        /// The value given.
        value: i64,
    },
}
