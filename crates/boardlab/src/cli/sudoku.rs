//! `boardlab sudoku ...`.

use std::process::ExitCode;

use clap::Args;

use crate::output::Output;

/// Arguments of `boardlab sudoku`.
#[derive(Debug, Args)]
pub struct SudokuArgs {}

/// Run `boardlab sudoku ...`.
pub fn run(_args: SudokuArgs, _out: &Output) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`boardlab sudoku` is not implemented yet")
}
