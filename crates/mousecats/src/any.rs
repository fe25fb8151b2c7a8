//! Any board, each in the fastest type for it: the classic 8x8 [`Position`] with its hand-tuned bitboards on
//! 8x8, the general [`SizedPosition`] on every other even size. The choice between the two is made here, once:
//! a program holds an [`AnyPosition`] or an [`AnyEngine`] and never picks a type itself.
//!
//! ```
//! use mousecats::{AnyEngine, AnyPosition, BoardSize, EngineConfig, Level, SizedPosition, with_position};
//!
//! // Generic code runs on the position in its own type.
//! let pos = AnyPosition::start(BoardSize::new(6)?);
//! let moves = with_position!(pos, |p| mousecats::perft(&p, 3, mousecats::Rule::FarRow));
//! assert!(moves > 0);
//!
//! // The engine takes a position of any board and answers in the general move type.
//! let mut engine = AnyEngine::new(BoardSize::EIGHT, EngineConfig::default())?;
//! let result = engine.think(&SizedPosition::start(BoardSize::EIGHT), Level::new(3)?, None);
//! assert!(result.best_move.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board_position::BoardPosition;
use crate::error::{ParseError, SettingError};
use crate::position::{Move, Position};
use crate::search::{Engine, EngineConfig, Level, SearchResult};
use crate::size::BoardSize;
use crate::sized::{SizedMove, SizedPosition};
use crate::solve::Solution;
use crate::tt::TableStats;

/// A position on any board, held in the fastest type for its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// An 8x8 position.
    Eight(Position),
    /// A position on another board.
    Sized(SizedPosition),
}

impl AnyPosition {
    /// The classic type on 8x8, the general one otherwise.
    pub fn new(p: SizedPosition) -> AnyPosition {
        match Position::try_from(p) {
            Ok(eight) => AnyPosition::Eight(eight),
            Err(_) => AnyPosition::Sized(p),
        }
    }

    /// The start of `size`: the mouse on the board's default square, the mouse to move.
    pub fn start(size: BoardSize) -> AnyPosition {
        AnyPosition::new(SizedPosition::start(size))
    }

    /// Read a position (notation or diagram) for a board of `size` if given, else of the text's own size
    /// (see [`SizedPosition::parse`]).
    ///
    /// # Errors
    /// A [`ParseError`] naming the problem and where.
    pub fn parse(text: &str, size: Option<BoardSize>) -> Result<AnyPosition, ParseError> {
        SizedPosition::parse(text, size).map(AnyPosition::new)
    }

    /// The position in the general type.
    pub fn sized(&self) -> SizedPosition {
        match self {
            AnyPosition::Eight(p) => SizedPosition::from(*p),
            AnyPosition::Sized(p) => *p,
        }
    }

    /// The board.
    pub fn board_size(&self) -> BoardSize {
        crate::with_position!(self, |p| p.board_size())
    }
}

impl From<SizedPosition> for AnyPosition {
    fn from(p: SizedPosition) -> AnyPosition {
        AnyPosition::new(p)
    }
}

impl From<Position> for AnyPosition {
    fn from(p: Position) -> AnyPosition {
        AnyPosition::Eight(p)
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::with_position!(self, |p| fmt::Display::fmt(p, f))
    }
}

/// Run `$body` with `$p` bound to the position inside an [`AnyPosition`], in its own type (so that generic
/// code over [`BoardPosition`] is compiled for each and the 8x8 one keeps its fast move generation).
///
/// ```
/// use mousecats::{AnyPosition, BoardPosition, with_position};
/// let pos = AnyPosition::parse("start", None)?;
/// assert_eq!(with_position!(pos, |p| p.legal_moves(mousecats::Rule::FarRow).len()), 2);
/// # Ok::<(), mousecats::ParseError>(())
/// ```
#[macro_export]
macro_rules! with_position {
    ($any:expr, |$p:ident| $body:expr) => {
        match $any {
            $crate::AnyPosition::Eight($p) => $body,
            $crate::AnyPosition::Sized($p) => $body,
        }
    };
}

/// The engine for a board of any size: the classic 8x8 engine for 8x8 positions (it searches exactly as the
/// general one, move for move and node for node, only faster), the general one for every other board.
/// Positions go in and moves come out in the general types. The engine for the board it was made for is made
/// at once; the other only if a position of the other kind is asked about (with the same settings, stop flag
/// and solution).
pub struct AnyEngine {
    config: EngineConfig,
    stop: Arc<AtomicBool>,
    solution: Option<Arc<Solution>>,
    eight: Option<Box<Engine<Position>>>,
    general: Option<Box<Engine<SizedPosition>>>,
}

impl fmt::Debug for AnyEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyEngine")
            .field("config", &self.config)
            .field("eight", &self.eight)
            .field("general", &self.general)
            .finish_non_exhaustive()
    }
}

impl AnyEngine {
    /// An engine with `config` for positions on `size`.
    ///
    /// # Errors
    /// A [`SettingError`] if the table settings are out of range.
    pub fn new(size: BoardSize, config: EngineConfig) -> Result<AnyEngine, SettingError> {
        if let Some(c) = &config.tables {
            c.validate()?;
        }
        let mut e = AnyEngine {
            config,
            stop: Arc::new(AtomicBool::new(false)),
            solution: None,
            eight: None,
            general: None,
        };
        if size == BoardSize::EIGHT {
            e.eight();
        } else {
            e.general();
        }
        Ok(e)
    }

    fn eight(&mut self) -> &mut Engine<Position> {
        let (config, stop, solution) = (self.config, &self.stop, &self.solution);
        self.eight.get_or_insert_with(|| {
            let mut e = Engine::with_checked(config, Arc::clone(stop));
            if let Some(s) = solution {
                e.set_solution(Arc::clone(s));
            }
            Box::new(e)
        })
    }

    fn general(&mut self) -> &mut Engine<SizedPosition> {
        let (config, stop, solution) = (self.config, &self.stop, &self.solution);
        self.general.get_or_insert_with(|| {
            let mut e = Engine::with_checked(config, Arc::clone(stop));
            if let Some(s) = solution {
                e.set_solution(Arc::clone(s));
            }
            Box::new(e)
        })
    }

    /// Choose a move at `level`, within `time` if given (as [`Engine::think`]).
    pub fn think(
        &mut self,
        pos: &SizedPosition,
        level: Level,
        time: Option<Duration>,
    ) -> SearchResult<SizedMove> {
        match AnyPosition::new(*pos) {
            AnyPosition::Eight(p) => self
                .eight()
                .think(&p, level, time)
                .map_moves(<SizedMove as From<Move>>::from),
            AnyPosition::Sized(p) => self.general().think(&p, level, time),
        }
    }

    /// Search `pos` to `depth` plies, within `time` if given (as [`Engine::search`]).
    pub fn search(
        &mut self,
        pos: &SizedPosition,
        depth: u8,
        time: Option<Duration>,
    ) -> SearchResult<SizedMove> {
        match AnyPosition::new(*pos) {
            AnyPosition::Eight(p) => self
                .eight()
                .search(&p, depth, time)
                .map_moves(<SizedMove as From<Move>>::from),
            AnyPosition::Sized(p) => self.general().search(&p, depth, time),
        }
    }

    /// A flag that stops the current search (see [`Engine::stop_handle`]).
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Clear the stop flag (see [`Engine::clear_stop`]).
    pub fn clear_stop(&mut self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// Empty the tables and zero their counters.
    pub fn clear_tables(&mut self) {
        if let Some(e) = self.eight.as_mut() {
            e.clear_tables();
        }
        if let Some(e) = self.general.as_mut() {
            e.clear_tables();
        }
    }

    /// Use an already computed exact solution (see [`Engine::set_solution`]).
    pub fn set_solution(&mut self, solution: Arc<Solution>) {
        if let Some(e) = self.eight.as_mut() {
            e.set_solution(Arc::clone(&solution));
        }
        if let Some(e) = self.general.as_mut() {
            e.set_solution(Arc::clone(&solution));
        }
        self.solution = Some(solution);
    }

    /// The tables' counters since they were created or cleared.
    pub fn table_stats(&self) -> TableStats {
        let eight = self
            .eight
            .as_ref()
            .map(|e| e.table_stats())
            .unwrap_or_default();
        let general = self
            .general
            .as_ref()
            .map(|e| e.table_stats())
            .unwrap_or_default();
        eight.plus(&general)
    }
}
