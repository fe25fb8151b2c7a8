//! `boardlab peg ...`.

use std::process::ExitCode;

use clap::Args;

use crate::output::Output;

/// Arguments of `boardlab peg`.
#[derive(Debug, Args)]
pub struct PegArgs {}

/// Run `boardlab peg ...`.
pub fn run(_args: PegArgs, _out: &Output) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`boardlab peg` is not implemented yet")
}
