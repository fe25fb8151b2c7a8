//! The engine behind a session, and what its background task is asked and hands back.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mousecats::search::{Engine, EngineConfig, Iteration, Level, Score, SearchResult};
use mousecats::tt::{TableConfig, TableStats};
use mousecats::{BoardSize, Move, Position, Rule, SizedMove, SizedPosition, Solution};

use super::MouseError;

/// The engine of a session: the classic 8x8 one on 8x8 (it searches exactly as the general one, faster), the
/// general one on every other board.
pub(super) enum AnyEngine {
    Eight(Box<Engine<Position>>),
    Sized(Box<Engine<SizedPosition>>),
}

impl AnyEngine {
    pub(super) fn new(size: BoardSize, rule: Rule) -> Result<AnyEngine, MouseError> {
        let config = EngineConfig {
            rule,
            tables: Some(TableConfig::default()),
        };
        let setup = |e: mousecats::SettingError| MouseError::Setup(e.to_string());
        Ok(if size == BoardSize::EIGHT {
            AnyEngine::Eight(Box::new(Engine::new(config).map_err(setup)?))
        } else {
            AnyEngine::Sized(Box::new(Engine::new(config).map_err(setup)?))
        })
    }

    pub(super) fn stop_handle(&self) -> Arc<AtomicBool> {
        match self {
            AnyEngine::Eight(e) => e.stop_handle(),
            AnyEngine::Sized(e) => e.stop_handle(),
        }
    }

    pub(super) fn clear_tables(&mut self) {
        match self {
            AnyEngine::Eight(e) => e.clear_tables(),
            AnyEngine::Sized(e) => e.clear_tables(),
        }
    }

    pub(super) fn set_solution(&mut self, solution: Arc<Solution>) {
        match self {
            AnyEngine::Eight(e) => e.set_solution(solution),
            AnyEngine::Sized(e) => e.set_solution(solution),
        }
    }

    pub(super) fn clear_stop(&mut self) {
        match self {
            AnyEngine::Eight(e) => e.clear_stop(),
            AnyEngine::Sized(e) => e.clear_stop(),
        }
    }

    /// Think at `level` (`depth`: search that many plies instead).
    pub(super) fn think(
        &mut self,
        pos: &SizedPosition,
        level: Level,
        depth: Option<u8>,
        time: Option<Duration>,
    ) -> SearchResult<SizedMove> {
        match self {
            AnyEngine::Eight(e) => match Position::try_from(*pos) {
                Ok(p) => widen(match depth {
                    Some(d) => e.search(&p, d, time),
                    None => e.think(&p, level, time),
                }),
                // Never: an 8x8 session has 8x8 positions; an empty answer is reported as no move.
                Err(_) => widen(SearchResult {
                    best_move: None,
                    score: Score::Eval(0),
                    pv: Vec::new(),
                    depth: 0,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    table_stats: TableStats::default(),
                    perfect: false,
                    stopped: false,
                    iterations: Vec::new(),
                }),
            },
            AnyEngine::Sized(e) => match depth {
                Some(d) => e.search(pos, d, time),
                None => e.think(pos, level, time),
            },
        }
    }
}

/// An 8x8 search result in the general move type.
fn widen(r: SearchResult<Move>) -> SearchResult<SizedMove> {
    let moves = |pv: Vec<Move>| {
        pv.into_iter()
            .map(<SizedMove as From<Move>>::from)
            .collect()
    };
    SearchResult {
        best_move: r.best_move.map(<SizedMove as From<Move>>::from),
        score: r.score,
        pv: moves(r.pv),
        depth: r.depth,
        nodes: r.nodes,
        elapsed: r.elapsed,
        table_stats: r.table_stats,
        perfect: r.perfect,
        stopped: r.stopped,
        iterations: r
            .iterations
            .into_iter()
            .map(|i| Iteration {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                elapsed: i.elapsed,
                pv: moves(i.pv),
            })
            .collect(),
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
