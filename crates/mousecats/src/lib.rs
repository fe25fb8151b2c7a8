#![doc = include_str!("../README.md")]

pub mod any;
pub mod board;
pub mod board_position;
pub mod error;
pub mod eval;
pub mod game;
pub mod layout;
mod notation;
pub mod perft;
pub mod position;
pub mod search;
pub mod size;
pub mod sized;
pub mod solve;
pub mod tt;
mod word;
pub mod zobrist;

pub use any::{AnyEngine, AnyPosition};
pub use board::{Bitboard, Side, Square};
pub use board_position::BoardPosition;
pub use error::{MoveError, ParseError, SettingError, SquareError};
pub use game::Game;
pub use layout::Layout;
pub use perft::{
    PerftError, PerftOptions, perft, perft_divide, perft_divide_with, perft_memo, perft_with,
};
pub use position::{Move, MoveList, Position, Rule};
pub use search::{Engine, EngineConfig, Iteration, Level, Score, SearchResult};
pub use size::{BoardSize, Coord};
pub use sized::{SizedMove, SizedMoveList, SizedPosition};
pub use solve::{
    LayerOptions, LayerReport, SideCounts, Solution, SolveCounts, SolveError, SolveProgress, Value,
    layered_memory_bytes, reachable_positions, solve_layers, state_index, state_position,
};
pub use tt::{Bound, TableConfig, TableStats, TranspositionTables};
