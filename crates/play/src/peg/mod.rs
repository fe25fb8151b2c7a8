//! A peg solitaire game in progress: jumps with undo, redo and restart, the live indicator that says whether
//! one peg can still be left (on the finish hole, if one was chosen), and a solution from the current position.
//!
//! The rules, the boards, the solver and the tables of finishable positions are the `peg` crate's. The
//! indicator is the [`Oracle`]: it answers at once from what it knows (the position class, answers already
//! found, a complete table once built) and otherwise asks the solver in short slices, each a task for the
//! [`Env`](crate::Env)'s runner, so a screen never waits. Complete tables are shared between games through the `Env`'s
//! [`PegTables`].
//!
//! ```
//! use play::Env;
//! use play::peg::{Answer, PegSession};
//! use peg::{Board, Problem};
//!
//! let env = Env::blocking();
//! let mut game = PegSession::new(Problem::standard(Board::builtin("triangle")?), &env)?;
//! game.play_text("4-1")?;
//! // Show me a solution from here, and play it to the end.
//! game.settle(None);
//! assert!(matches!(game.answer(), Answer::Known(play::peg::Verdict::Possible(_))));
//! while !game.is_over() {
//!     game.step()?;
//! }
//! assert!(game.view().solved);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod jumps;
mod options;
mod oracle;
mod search;
mod session;
mod state;
mod tables;
mod view;

pub use error::PegError;
pub use jumps::parse_jump;
pub use options::{choices, problem_from_choices, refresh};
pub use oracle::{Answer, Oracle, Verdict, Why};
pub use session::PegSession;
pub use tables::PegTables;
pub use view::{Hole, Indicator, Jump, PegView};

/// The built-in boards, in the order of the options.
pub const BOARDS: [&str; 5] = ["english", "french", "triangle", "diamond", "wiegleb"];

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "The board is full of pegs but for one empty hole. A move is a jump: a peg jumps over a neighbouring peg, in \
     a straight line, into the empty hole just behind it, and the peg jumped over is taken off. On square boards \
     the jumps go along rows and columns (never diagonally); on the triangle along its three directions.",
    "Every jump takes one peg off. The aim is to leave a single peg, on the finish hole if one was chosen (the \
     classic English game starts and ends in the centre, d4). The game is over when no jump is left: with one \
     peg the puzzle is solved, with more you are stuck.",
    "Holes are named by column letter and row number (row 1 at the top; the English centre is d4), and numbered \
     1 to 15 row by row on the triangle.",
    "The indicator on the right says whether one peg can still be left from the position on the board. Some \
     starts can never end with one peg (the French board and the diamond from the centre): their position \
     class, an invariant of play found by de Bruijn and Conway, differs from that of every single peg. It \
     answers from the position class, from a complete table of finishable positions where one can be built \
     (the English board and the triangle), or from a search with a pagoda function and a table of dead \
     positions. A solution from the position on the board can be shown at any time.",
];
