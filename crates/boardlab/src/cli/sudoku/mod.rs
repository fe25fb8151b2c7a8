//! `boardlab sudoku ...`: one module per verb.

pub mod generate;
pub mod hint;
mod input;
pub mod rate;
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
    /// Generate puzzles of a given level (or by the classic shuffle method).
    Generate(generate::GenerateArgs),
    /// Rate puzzles: the hardest technique each needs and its rating; --explain prints the steps.
    Rate(rate::RateArgs),
    /// The next logical step from a grid, explained.
    Hint(hint::HintArgs),
}

/// Run `boardlab sudoku ...`.
pub fn run(args: SudokuArgs, out: &Output) -> anyhow::Result<ExitCode> {
    match args.verb {
        SudokuVerb::Solve(a) => solve::run(a, out),
        SudokuVerb::Generate(a) => generate::run(a, out),
        SudokuVerb::Rate(a) => rate::run(a, out),
        SudokuVerb::Hint(a) => hint::run(a, out),
    }
}
