//! `boardlab sudoku ...`: one module per verb.

pub mod solve;

use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::output::Output;

/// Arguments of `boardlab sudoku`.
#[derive(Debug, Args)]
pub struct SudokuArgs {
    /// What to do.
    #[command(subcommand)]
    pub verb: SudokuVerb,
}

/// The verbs of `boardlab sudoku`.
#[derive(Debug, Subcommand)]
pub enum SudokuVerb {
    /// Solve puzzles (or count their solutions), streaming: one result line per puzzle, in input order.
    Solve(solve::SolveArgs),
}

/// Run `boardlab sudoku ...`.
pub fn run(args: SudokuArgs, out: &Output) -> anyhow::Result<ExitCode> {
    match args.verb {
        SudokuVerb::Solve(a) => solve::run(a, out),
    }
}
