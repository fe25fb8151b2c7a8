//! `boardlab`: one binary over the three engine crates.
//!
//! `boardlab` alone opens the terminal interface; `boardlab <game> <verb>` runs a tool.
//! A global `--json` puts machine-readable results on stdout and nothing else there.

use std::io::Write;
use std::process::ExitCode;

use boardlab::args::{Cli, Command};
use boardlab::output::Output;
use boardlab::{cli, serve, tui};
use clap::Parser;

/// One error line on stderr. A closed stderr must not turn an error into a panic: the exit status still tells.
fn error_line(msg: &str) {
    let _ = writeln!(std::io::stderr(), "boardlab: error: {msg}");
}

fn main() -> ExitCode {
    fixed_mmap_threshold();
    let cli = Cli::parse();
    let out = Output::new(cli.json);
    if cli.json && matches!(cli.command, None | Some(Command::Play(_))) {
        // The terminal interface has no machine-readable output; accepting the flag would silently ignore it.
        error_line(
            "--json is for the tools (boardlab <game> <verb>); the terminal interface has no JSON output",
        );
        return ExitCode::FAILURE;
    }
    // rayon sizes its pool from RAYON_NUM_THREADS: the same bound as --threads, or a machine can be swamped.
    if let Some(v) = std::env::var_os("RAYON_NUM_THREADS") {
        let v = v.to_string_lossy();
        // rayon reads 0 (and an unset variable) as "one per core".
        if v.trim() != "0"
            && let Err(e) = cli::parse_threads(&v)
        {
            error_line(&format!("RAYON_NUM_THREADS: {e}"));
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        None => tui::run(tui::PlayArgs::default()),
        Some(Command::Play(args)) => tui::run(args),
        Some(Command::Mouse(args)) => cli::mouse::run(args, &out),
        Some(Command::Peg(args)) => cli::peg::run(args, &out),
        Some(Command::Sudoku(args)) => cli::sudoku::run(args, &out),
        Some(Command::Serve(args)) => serve::run(&args),
    };
    match result {
        Ok(code) => code,
        // The reader of stdout went away (`boardlab ... | head -1`): it has what it wanted; stop quietly.
        Err(err) if boardlab::output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // One line on stderr: the error and its causes, joined.
            let msg = err
                .chain()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(": ");
            error_line(&msg);
            ExitCode::FAILURE
        }
    }
}

/// Serve every allocation of 64 KiB or more with its own mapping, given back to the system when freed.
///
/// glibc starts with that rule at 128 KiB but raises the threshold each time such a block is freed (up to 32
/// MiB), and from then on the peg enumeration's partition tables and frozen levels come from the heap, where
/// freed and live blocks interleave: the French board from c2 peaked 18% above the memory estimate that
/// `--max-memory` is checked against (22.4 GiB against 19,498 MiB), from the centre 6% above it. With the
/// threshold fixed, the centre's peak is 3% below its estimate.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fixed_mmap_threshold() {
    // SAFETY: `mallopt` changes a parameter of the allocator and nothing else; it runs before any other thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 10);
    }
}

/// Elsewhere the system's allocator keeps its own rules.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fixed_mmap_threshold() {}
