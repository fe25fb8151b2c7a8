//! The command line of the `boardlab` binary: its clap definition, which `src/main.rs` parses and dispatches, and
//! from which the command reference (`docs/cli.md`) and the man pages (`docs/man/`) are generated
//! (`tests/suite/cli_reference.rs` checks that the committed copies are current).

use clap::{Parser, Subcommand};

use crate::{cli, serve, tui};

/// Mouse & Cats, peg solitaire and sudoku: exact engines, fast tools and terminal play.
#[derive(Debug, Parser)]
#[command(name = "boardlab", version, about, propagate_version = true)]
pub struct Cli {
    /// Print machine-readable JSON on stdout (and nothing else there).
    #[arg(long, global = true)]
    pub json: bool,

    /// The tool to run; none opens the terminal interface.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands: one per game, the terminal interface and the web server.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Mouse & Cats (Fox and Hounds): solve, analyse, perft, play, show.
    Mouse(cli::mouse::MouseArgs),
    /// Peg solitaire: boards, board, count, solutions, finishable, solve.
    Peg(cli::peg::PegArgs),
    /// Sudoku: solve, generate, rate, hint.
    Sudoku(cli::sudoku::SudokuArgs),
    /// Open the full-screen terminal interface, optionally straight into one game.
    Play(tui::PlayArgs),
    /// Serve the games, their engines and their analysis as a local web app.
    Serve(serve::ServeArgs),
}
