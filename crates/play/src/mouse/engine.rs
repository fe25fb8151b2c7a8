//! The engine behind a session, and what its background task is asked and hands back.

use std::time::Duration;

use mousecats::search::{EngineConfig, Level, SearchResult};
use mousecats::tt::TableConfig;
use mousecats::{AnyEngine, BoardSize, Rule, SizedMove, SizedPosition};

use super::MouseError;

/// The engine of a session (the `mousecats` crate chooses the 8x8 or the general engine for the board), with
/// the session's rule and tables.
pub(super) fn engine_for(size: BoardSize, rule: Rule) -> Result<AnyEngine, MouseError> {
    let config = EngineConfig {
        rule,
        tables: Some(TableConfig::default()),
    };
    AnyEngine::new(size, config).map_err(|e| MouseError::Setup(e.to_string()))
}

/// Think at `level` (`depth`: search that many plies instead).
pub(super) fn think(
    engine: &mut AnyEngine,
    pos: &SizedPosition,
    level: Level,
    depth: Option<u8>,
    time: Option<Duration>,
) -> SearchResult<SizedMove> {
    match depth {
        Some(d) => engine.search(pos, d, time),
        None => engine.think(pos, level, time),
    }
}

/// What the engine task was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    /// Its move, to be played.
    Move,
    /// A question the exact solution cannot answer on this board (bigger than [`MAX_TABLE_SIZE`]).
    Ask(Want),
}

/// What the engine task hands back.
pub(super) struct Thought {
    pub(super) engine: AnyEngine,
    pub(super) result: SearchResult<SizedMove>,
    /// The move list it thought about (to check it still applies).
    pub(super) moves: Vec<SizedMove>,
    pub(super) purpose: Purpose,
}

/// A question waiting for the exact solution (or, without one, for the engine's search).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    Hint,
    WhoWins,
}
