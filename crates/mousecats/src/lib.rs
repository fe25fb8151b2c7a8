#![doc = include_str!("../README.md")]

pub mod board;
pub mod error;
pub mod eval;
pub mod game;
pub mod perft;
pub mod position;
pub mod search;
pub mod solve;
pub mod tt;
pub mod zobrist;

pub use board::{Bitboard, Side, Square};
pub use error::{MoveError, ParseError, SettingError, SquareError};
pub use game::Game;
pub use perft::{perft, perft_divide, perft_memo};
pub use position::{Move, MoveList, Position, Rule};
pub use search::{Engine, EngineConfig, Iteration, Level, Score, SearchResult};
pub use solve::{
    SideCounts, Solution, SolveCounts, Value, reachable_positions, state_index, state_position,
};
pub use tt::{Bound, TableConfig, TableStats, TranspositionTables};
