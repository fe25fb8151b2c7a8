//! What can be wrong with a board layout, a hole name or a board name.

/// What is wrong with an ASCII layout. Lines and columns count from 1, columns in characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The text is empty or holds only blank and comment lines.
    #[error("the layout is empty")]
    Empty,
    /// The text has lines but no hole (`o` or `.`).
    #[error("the layout has no holes (use 'o' for a peg, '.' for an empty hole)")]
    NoHoles,
    /// A character that is not part of the format.
    #[error(
        "line {line}, column {column}: unknown character {ch:?} (use 'o' for a peg, '.' for an empty hole, ' ' or '_' for no hole)"
    )]
    UnknownChar {
        /// The offending character.
        ch: char,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
    },
    /// More than [`MAX_HOLES`](crate::board::MAX_HOLES) holes.
    #[error(
        "line {line}, column {column}: hole number {count} is one too many (a board has at most 64 holes)"
    )]
    TooManyHoles {
        /// The number of the first hole past the limit (65).
        count: usize,
        /// 1-based line of that hole.
        line: usize,
        /// 1-based column of that hole.
        column: usize,
    },
    /// A hole off the triangular lattice (its row offset does not match the first hole's).
    #[error(
        "line {line}, column {column}: hole is off the triangular lattice (holes in a row are two characters apart and neighbouring rows are offset by one)"
    )]
    OffLattice {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
}

/// At most the first 32 characters of a user's text, for an error message (a 10 MB word makes a short error).
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(32) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// A hole name that does not name a hole of the board, or a malformed move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// No hole has this name.
    #[error(
        "unknown hole {:?} on the {board} board (holes are named {range})",
        excerpt(name)
    )]
    UnknownHole {
        /// The name given.
        name: String,
        /// The board's name.
        board: String,
        /// A description of the naming scheme of that board.
        range: String,
    },
    /// Not of the form `FROM-TO`.
    #[error(
        "malformed move {:?}: write it as FROM-TO, for example {example}",
        excerpt(text)
    )]
    MalformedMove {
        /// The text given.
        text: String,
        /// An example move on this board.
        example: String,
    },
    /// The two holes are not two steps apart along a line with a hole between them.
    #[error(
        "{:?} is not a jump on this board: {from} and {to} are not two holes apart along a line",
        excerpt(text)
    )]
    NotAJump {
        /// The text given.
        text: String,
        /// The from hole's name.
        from: String,
        /// The to hole's name.
        to: String,
    },
}

/// An unknown built-in board name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown board {:?} (built-in boards: english, french, triangle, diamond, wiegleb)",
    excerpt(name)
)]
pub struct UnknownBoard {
    /// The name given.
    pub name: String,
}
