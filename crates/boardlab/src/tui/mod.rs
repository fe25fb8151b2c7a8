//! The full-screen terminal interface (ratatui + crossterm).

use std::process::ExitCode;

use clap::{Args, ValueEnum};

/// Which game `boardlab play` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Game {
    /// Mouse & Cats.
    Mouse,
    /// Peg solitaire.
    Peg,
    /// Sudoku.
    Sudoku,
}

/// Arguments of `boardlab play`.
#[derive(Debug, Default, Args)]
pub struct PlayArgs {
    /// The game to open; the title screen when absent.
    pub game: Option<Game>,
}

/// Open the terminal interface.
pub fn run(_args: PlayArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the terminal interface is not implemented yet")
}
