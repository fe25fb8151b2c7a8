//! A Mouse & Cats game in progress: the player against the engine at levels 1 to 10 (10 is perfect play from the
//! exact solution), a hint and "who wins from here", undo and redo, and what the engine's panel shows (score,
//! principal variation, nodes, the position's hash and lock, the tables' counters).
//!
//! Every even board from 4x4 to 16x16 can be played ([`MouseOptions::size`], 8x8 by default), under every rule
//! (far row, escape, region), from any free dark square for the mouse, either side first. On boards whose whole
//! exact table is kept (up to 10x10, [`MAX_TABLE_SIZE`](mousecats::solve::MAX_TABLE_SIZE)) the hint and "who wins" come from the exact solution
//! and level 10 plays perfectly; on bigger boards there is no exact value: the hint and "who wins" come from an
//! engine search at the game's level (the messages say so, and [`MouseView::exact`] is false), and the levels
//! are 1 to 9.
//!
//! The rules, the engine and the exact solution are the `mousecats` crate's. The engine thinks in a task for
//! the [`Env`](crate::Env)'s runner (so a screen keeps drawing), within the session's time limit if one is set; the exact
//! solution is solved once per board size and rule and kept in the `Env`'s [`MouseSolutions`]. On 8x8 the
//! engine is the classic 8x8 one (the general one searches 8x8 move for move and node for node alike, only
//! slower); positions and moves are the general [`SizedPosition`](mousecats::SizedPosition) and [`SizedMove`](mousecats::SizedMove) on every board.
//!
//! How a front end drives it: each action ([`MouseSession::play`], [`MouseSession::undo`],
//! [`MouseSession::hint`], ...) returns the message to show, or a [`MouseError`] whose message says why it was
//! refused. When the engine's answer or the solution is not ready yet ([`MouseSession::busy`]), a screen calls
//! [`MouseSession::poll`] on its timer and a server calls [`MouseSession::settle`] (inside its blocking pool,
//! with `Env::mouse_time_limit` or [`MouseSession::set_time_limit`] bounding the engine). [`MouseSession::view`] is the whole state for
//! drawing (serializable, so a web page can be sent it as JSON); [`MouseSession::save`] and
//! [`crate::Session::load`] move the game through the shared save format. The session is `Send`.
//!
//! ```
//! use play::Env;
//! use play::mouse::{MouseOptions, MouseSession};
//! use mousecats::{BoardSize, Rule, Side};
//!
//! // The cats at level 10 (perfect play) against a mouse that always plays the first legal move.
//! let env = Env::blocking();
//! let mut game = MouseSession::new(MouseOptions { level: 10, ..MouseOptions::default() }, &env)?;
//! while !game.is_over() {
//!     let mv = game.legal_moves()[0];
//!     game.play(mv)?; // the engine answers at once with a blocking runner
//! }
//! assert_eq!(game.view().winner, Some("cats".to_string()));
//!
//! // A 6x6 board under gilith/solve's region rule: there the mouse wins from the start.
//! let six = MouseOptions { rule: Rule::Region, ..MouseOptions::for_size(BoardSize::new(6)?) };
//! let mut game = MouseSession::new(six, &env)?;
//! assert_eq!(game.who_wins().text, "With best play from here the mouse wins in 21 plies (you win).");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod advice;
mod engine;
mod error;
mod options;
mod session;
mod solutions;
mod state;
mod view;

pub use advice::{Advice, advice, how_won};
pub use error::MouseError;
pub use options::{
    MENU_SIZES, MOUSE_STARTS, MouseOptions, choices, has_table, level_label, mouse_starts, refresh,
    rule_label, rule_label_for,
};
pub use session::MouseSession;
pub use solutions::MouseSolutions;
pub use view::{EngineView, MouseView, ScoreView, TablesView};

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "The board is a chessboard; pieces stand only on the dark squares (A1 is dark, bottom left). One mouse (M) \
     starts on row 1, four cats (C) on B8, D8, F8 and H8. Other boards, from 4x4 to 12x12 here, have N/2 cats \
     on the dark squares of row N.",
    "The mouse moves one square diagonally in any direction. A cat moves one square diagonally forward only, \
     towards row 1. The square moved to must be empty; nobody jumps or captures.",
    "The mouse wins by reaching the far row (row 8 on 8x8). A side that cannot move loses: a trapped mouse means \
     the cats win. Under the escape rule the mouse also wins once it stands on a row no lower than every cat; \
     under the region rule, once it stands on a square no cat can ever reach beside another such square. Cats \
     only move forward, so a game never ends in a draw (on 8x8 it lasts at most 57 plies).",
    "With best play the cats win on 8x8 from every start. The engine's levels 1 to 9 search 2 to 18 plies \
     ahead; level 10 knows the exact value of every position (on boards up to 10x10, where the whole exact \
     table is kept; beyond, hints come from the engine's search and no exact value is shown). The panel shows \
     the engine's score (from its own side), its principal variation (PV) and the nodes searched, the \
     position's Zobrist hash and lock, and what the hash tables did: a collision is caught when the lock of a \
     stored entry does not match the position's.",
];
