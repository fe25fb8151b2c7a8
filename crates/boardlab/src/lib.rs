//! The `boardlab` application: command-line tools and the terminal interface over the engine crates
//! [`mousecats`], [`peg`] and [`sudoku`]. The binary (`src/main.rs`) only parses arguments and dispatches here;
//! tests drive these modules directly (for example the terminal screens through ratatui's `TestBackend`).

// Not `forbid(unsafe_code)`: the cluster's parent installs a signal handler and passes signals on to its
// processes (`cli::peg::cluster`), and the server reads its open-file limit (`serve::listen`), each an `unsafe`
// libc call with its SAFETY comment.

pub mod answers;
pub mod args;
pub mod cli;
pub mod files;
pub mod output;
pub mod serve;
pub mod tui;
