//! What a front end draws of a Mouse & Cats game.

use serde::Serialize;

use super::MouseOptions;

/// The engine's last search, for a panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EngineView {
    /// The side the engine plays.
    pub side: String,
    /// Its score from its own side: `win`, `loss` (in `plies`) or `eval` (`value`).
    pub score: ScoreView,
    /// The principal variation, compact (`e1f2`).
    pub pv: Vec<String>,
    /// The depth searched (the plies to the end for perfect play).
    pub depth: u8,
    /// Positions searched.
    pub nodes: u64,
    /// Whether the move came from the exact solution.
    pub perfect: bool,
}

/// An engine score from the engine's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ScoreView {
    /// The engine wins in this many plies.
    Win {
        /// Plies.
        plies: u8,
    },
    /// The engine loses in this many plies.
    Loss {
        /// Plies.
        plies: u8,
    },
    /// A heuristic evaluation, positive good for the engine.
    Eval {
        /// The value.
        value: i32,
    },
}

/// The hash tables' settings and counters since the game started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TablesView {
    /// Each of the two tables has 2^`index_bits` entries.
    pub index_bits: u8,
    /// Bits of the lock stored and checked.
    pub lock_bits: u8,
    /// Lookups.
    pub probes: u64,
    /// Lookups that found the position.
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Stores over another position's entry.
    pub collisions: u64,
    /// Lookups that found another position's entry and saw it by its lock.
    pub lock_mismatches: u64,
}

/// What a front end draws: the whole state of a Mouse & Cats game, read-only and serializable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MouseView {
    /// The options.
    pub options: MouseOptions,
    /// N, of the N x N board (files A.., rows 1..N).
    pub size: u8,
    /// The rule as a heading names it: "row 10", "escape", "region".
    pub rule_text: String,
    /// Whether the exact solution of this board is kept (boards up to 10x10): hints and "who wins" are exact.
    /// When false they come from the engine's search, and a front end says that no exact value is available.
    pub exact: bool,
    /// "5 (10 plies)".
    pub level_text: String,
    /// The mouse's square (`E1`).
    pub mouse: String,
    /// The cats' squares.
    pub cats: Vec<String>,
    /// The side to move.
    pub turn: String,
    /// The moves played (`E1-F2`).
    pub moves: Vec<String>,
    /// The legal moves of the side to move (`E1-F2`; none once the game is over).
    pub legal: Vec<String>,
    /// The winner, once the game is over.
    pub winner: Option<String>,
    /// Whether the engine is thinking.
    pub thinking: bool,
    /// The move hinted at, if a hint is shown.
    pub hint: Option<String>,
    /// The engine's last search.
    pub engine: Option<EngineView>,
    /// The position's Zobrist hash, 16 hex digits.
    pub hash: String,
    /// The position's lock, 8 hex digits.
    pub lock: String,
    /// The hash tables.
    pub tables: TablesView,
    /// Whether the engine panel is to be shown.
    pub panel: bool,
    /// Whether undo would do something.
    pub can_undo: bool,
    /// Whether redo would do something.
    pub can_redo: bool,
}
