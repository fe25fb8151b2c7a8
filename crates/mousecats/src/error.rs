//! Errors: every message is one line that says what was wrong and where.

use thiserror::Error;

use crate::board::Square;
use crate::position::Move;
use crate::size::{BoardSize, Coord};

/// At most this many characters of a user's text are quoted back in an error message.
pub const EXCERPT_CHARS: usize = 32;

/// The start of `text` for quoting in an error message: the whole of it when it is short, otherwise its first
/// [`EXCERPT_CHARS`] characters, `…` and how many characters it has in all, so that a 10 MB line makes a
/// one-line error, not a 10 MB one.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(EXCERPT_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// A square name that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SquareError {
    /// Not a square name: a file letter and a row number such as E1.
    #[error("unknown square '{}' (a square is a file letter and a row number, such as E1)", excerpt(.0))]
    Unknown(String),
    /// A light square, where no piece may stand.
    #[error("{0} is a light square (pieces stand only on dark squares such as A1, C1, B2)")]
    Light(Coord),
    /// A square beyond the edge of the board.
    #[error("{square} is off the {size} board (its squares are A1..{last})", last = size.last_square())]
    OffBoard {
        /// The square.
        square: Coord,
        /// The board.
        size: BoardSize,
    },
}

impl SquareError {
    pub(crate) fn light(sq: Square) -> SquareError {
        SquareError::Light(sq.into())
    }
}

/// Something that could not be parsed: a position, a move, a side, a rule, a setting.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A bad square name or a light square.
    #[error(transparent)]
    Square(#[from] SquareError),
    /// The cats' list did not name exactly N/2 squares.
    #[error("expected {expected} cats, found {found} (the {size} board has {expected})")]
    CatCount {
        /// How many were given.
        found: usize,
        /// How many the board has.
        expected: usize,
        /// The board.
        size: BoardSize,
    },
    /// A board size that is odd or outside 4..=16.
    #[error("bad board size '{}' (the size is even, from 4 to 16, such as 8 or 10x10)", excerpt(.0))]
    Size(String),
    /// A position written for one board size where another was asked for.
    #[error("the position is for the {found} board, not {expected}")]
    SizeMismatch {
        /// The size the text gives.
        found: BoardSize,
        /// The size asked for.
        expected: BoardSize,
    },
    /// A rule name that exists, but not on this board (`row8` is the 8x8 name of `far-row`).
    #[error("rule '{rule}' is the 8x8 name of far-row; on the {size} board use far-row (the mouse must reach row {n})", n = size.n())]
    RuleForSize {
        /// The name given.
        rule: String,
        /// The board.
        size: BoardSize,
    },
    /// No mouse given.
    #[error("no mouse given")]
    NoMouse,
    /// More than one mouse in a diagram.
    #[error("more than one mouse (at {0} and {1})")]
    TwoMice(Coord, Coord),
    /// Two pieces named on one square.
    #[error("two pieces on {0}")]
    Occupied(Coord),
    /// A side name other than mouse or cats.
    #[error("unknown side '{}' (expected mouse or cats)", excerpt(.0))]
    Side(String),
    /// A rule name other than far-row (row8), escape or region.
    #[error("unknown rule '{}' (expected far-row, escape or region)", excerpt(.0))]
    Rule(String),
    /// A key in `key=value` notation that is not mouse, cats or turn.
    #[error("unknown field '{}' (expected mouse=, cats= and turn=)", excerpt(.0))]
    UnknownField(String),
    /// A field given twice.
    #[error("field '{0}' given twice")]
    DuplicateField(String),
    /// A word without `=` in `key=value` notation.
    #[error("expected key=value, found '{}'", excerpt(.0))]
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
    /// A diagram that did not have N board lines.
    #[error("a diagram of the {size} board needs {n} board lines (row {n} first), found {found}", n = size.n())]
    DiagramRows {
        /// Board lines found.
        found: usize,
        /// The board.
        size: BoardSize,
    },
    /// A malformed move.
    #[error("bad move '{}' (write moves as E1-F2 or e1f2)", excerpt(.0))]
    Move(String),
    /// Empty input.
    #[error("empty position")]
    Empty,
}

/// A move that is not legal in the position it was played in. `M` is the move type and `S` the square
/// type: [`Move`] and [`Square`] on the classic 8x8 board, [`SizedMove`](crate::SizedMove) and [`Coord`]
/// on the others.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError<M: std::fmt::Display = Move, S: std::fmt::Display = Square> {
    /// The game is already over.
    #[error("the game is over: the {0} won")]
    GameOver(crate::board::Side),
    /// The move starts on a light square, where no piece ever stands.
    #[error(
        "{mv}: {square} is a light square (pieces stand and move only on dark squares such as A1, C1, B2)"
    )]
    LightSquare {
        /// The move.
        mv: M,
        /// The light square it names.
        square: S,
    },
    /// The move's source square does not hold a piece of the side to move.
    #[error("{mv}: no {side} piece on {from}")]
    NotYourPiece {
        /// The move.
        mv: M,
        /// The side to move.
        side: crate::board::Side,
        /// Its source square.
        from: S,
    },
    /// The piece cannot go there.
    #[error("{mv} is not a legal {side} move here (legal: {legal})")]
    Illegal {
        /// The move.
        mv: M,
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
