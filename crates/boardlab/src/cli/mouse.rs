//! `boardlab mouse ...`.

use std::process::ExitCode;

use clap::Args;

use crate::output::Output;

/// Arguments of `boardlab mouse`.
#[derive(Debug, Args)]
pub struct MouseArgs {}

/// Run `boardlab mouse ...`.
pub fn run(_args: MouseArgs, _out: &Output) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`boardlab mouse` is not implemented yet")
}
