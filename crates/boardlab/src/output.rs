//! Where results, logs and progress go.
//!
//! Results go to stdout: human text, or with `--json` a JSON document and nothing else.
//! Progress bars and logs go to stderr, and only when stderr is a terminal.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Serialize, Serializer};

/// Writes an integer that can pass 2^53 (a perft or path count, a 64-bit seed) as a JSON string of decimal
/// digits: most JSON readers (jq, JavaScript) read every JSON number as a 64-bit float, which would round it.
/// Use it as `#[serde(serialize_with = "boardlab::output::decimal")]`.
///
/// # Errors
/// Only those of the serializer.
pub fn decimal<T: std::fmt::Display, S: Serializer>(
    n: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(n)
}

/// `println!` for results on stdout that returns the write's error instead of panicking, so that a closed pipe
/// (`boardlab peg board | head -1`) ends the command through [`is_broken_pipe`] like any other error:
/// `outln!("{x}")?;`.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}

/// `print!` for results on stdout (the start of a line that [`outln!`] ends), returning the write's error as
/// [`outln!`] does: `out!("{x:>4}")?;`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)
    }};
}

/// `eprintln!` that cannot panic: a line on stderr, dropped when stderr is closed or full (`2>/dev/full`). What
/// goes to stderr is a message for a person; losing it must not turn a result into a crash, and the exit status
/// still tells.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Whether an error comes from writing to a closed pipe (stdout read by `head`, say). `main` then exits at once,
/// quietly and with status 0, as Unix filters do: the reader has all it wanted. Every command uses this one
/// mechanism: results are written with [`outln!`] and [`out!`] or through a writer, and the error is passed up.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// The global output settings of one run.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    /// `--json` was given.
    pub json: bool,
    /// stderr is a terminal, so progress bars and logs may be shown there.
    pub stderr_tty: bool,
}

impl Output {
    /// Settings for this process.
    pub fn new(json: bool) -> Self {
        Self {
            json,
            stderr_tty: std::io::stderr().is_terminal(),
        }
    }

    /// Print `value` as pretty JSON on stdout, followed by a newline.
    pub fn print_json<T: Serialize>(&self, value: &T) -> anyhow::Result<()> {
        let mut stdout = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut stdout, value)?;
        writeln!(stdout)?;
        Ok(())
    }

    /// A progress bar on stderr with `len` steps, hidden unless stderr is a terminal.
    pub fn progress(&self, len: u64, message: &str) -> ProgressBar {
        if !self.stderr_tty {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new(len);
        if let Ok(style) =
            ProgressStyle::with_template("{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({eta})")
        {
            bar.set_style(style);
        }
        bar.set_message(message.to_string());
        bar
    }

    /// A spinner on stderr with a message (for work of unknown length), hidden unless stderr is a terminal.
    pub fn spinner(&self, message: &str) -> ProgressBar {
        if !self.stderr_tty {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
            bar.set_style(style);
        }
        bar.set_message(message.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    }

    /// A log line on stderr, only when stderr is a terminal.
    pub fn log(&self, line: &str) {
        if self.stderr_tty {
            crate::errln!("{line}");
        }
    }
}
