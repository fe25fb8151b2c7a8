//! The `boardlab` application: command-line tools and the terminal interface over the engine crates
//! [`mousecats`], [`peg`] and [`sudoku`]. The binary (`src/main.rs`) only parses arguments and dispatches here;
//! tests drive these modules directly (for example the terminal screens through ratatui's `TestBackend`).

#![forbid(unsafe_code)]

pub mod answers;
pub mod args;
pub mod cli;
pub mod files;
pub mod output;
pub mod serve;
pub mod tui;
