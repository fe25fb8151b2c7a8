//! The `boardlab <game> <verb>` tools: thin layers over the engine crates.

pub mod mouse;
pub mod peg;
pub mod sudoku;
