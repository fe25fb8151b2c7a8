//! `boardlab sudoku solve [FILE|-] [--count [--limit N]] [--threads N] [--strict]`.
//!
//! Streams puzzles from a file or stdin in chunks, solves each chunk (in parallel with `--threads`), and writes
//! one result per puzzle in input order, so memory stays constant however long the input is. A summary with the
//! rate goes on stderr.

use std::io::{self, BufWriter, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use sudoku::Counted;

use super::input::{Input, Item, MAX_ERRORS_SHOWN};

use crate::output::Output;
use play::text::group_thousands;

/// Arguments of `boardlab sudoku solve`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: one puzzle per line (81 cells; '.', '0', '_', '-' or '*' for an empty cell; anything after the first \
word is ignored), or 9-line blocks with optional '|', '-', '+' separators; lines starting with '#' are comments.

Output: for each puzzle, in input order, its solution, 'no solution', 'more than one solution', or \
'error: line L, column C: ...' for a puzzle that could not be read. With --count, the number of solutions, \
written 'N+' when counting stopped at the limit.

Exit status: 0 when every puzzle was read; 1 when some could not be read (or the input held none), and with \
--strict also when some puzzle has no solution or more than one.")]
pub struct SolveArgs {
    /// The file to read; `-` or nothing reads standard input. A puzzle may also be given here directly, as an
    /// 81-character line.
    pub file: Option<PathBuf>,

    /// Print the number of solutions of each puzzle instead of its solution.
    #[arg(long)]
    pub count: bool,

    /// With --count, stop counting at this many solutions.
    #[arg(long, default_value_t = 2, requires = "count", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Worker threads [default: the number of cores].
    #[arg(long, short = 't', value_parser = crate::cli::parse_threads)]
    pub threads: Option<NonZeroUsize>,

    /// Exit non-zero when a puzzle has no solution or more than one.
    #[arg(long)]
    pub strict: bool,
}

/// Puzzles read, solved and written per round.
const CHUNK: usize = 8192;

/// One result, in order.
enum Outcome {
    Counted(Counted),
    Bad,
}

/// Tallies for the summary.
#[derive(Debug, Default, Serialize)]
struct Summary {
    /// Puzzles read and solved.
    puzzles: u64,
    /// With exactly one solution.
    unique: u64,
    /// With no solution.
    no_solution: u64,
    /// With more than one solution.
    multiple: u64,
    /// With at least one solution, when counting stopped at 1 (`--count --limit 1`).
    solvable: u64,
    /// Could not be read.
    invalid: u64,
    /// Wall time in seconds, reading and writing included.
    seconds: f64,
    /// Puzzles per second.
    puzzles_per_second: f64,
    /// Worker threads.
    threads: usize,
}

/// JSON form of one result.
#[derive(Serialize)]
struct JsonResult<'a> {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_least: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn solve_item(item: &Item, limit: u64) -> Outcome {
    match item {
        Item::Puzzle { grid, .. } => {
            Outcome::Counted(sudoku::count_solutions_with_first(grid, limit))
        }
        Item::Bad { .. } => Outcome::Bad,
    }
}

/// Run `boardlab sudoku solve`.
pub fn run(args: SolveArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let mut input = Input::open(args.file.as_deref())?;
    let name = input.name.clone();
    let threads = args
        .threads
        .map(NonZeroUsize::get)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let pool = if threads > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .context("starting the worker threads")?,
        )
    } else {
        None
    };
    let limit = if args.count { args.limit } else { 2 };

    let stdout = io::stdout();
    let mut w = BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut summary = Summary {
        threads,
        ..Summary::default()
    };
    let mut errors_shown = 0usize;
    let mut first_json = true;

    let mut current = Vec::with_capacity(CHUNK);
    let mut next = Vec::with_capacity(CHUNK);
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(CHUNK);
    input.fill(&mut current, CHUNK)?;
    if out.json && write_all(&mut w, b"{\"results\": [\n")? {
        return Ok(ExitCode::SUCCESS);
    }
    while !current.is_empty() {
        // Solve this chunk while the next one is read.
        let read_result = match &pool {
            Some(pool) => pool.install(|| {
                rayon::join(
                    || {
                        current
                            .par_iter()
                            .map(|item| solve_item(item, limit))
                            .collect_into_vec(&mut outcomes)
                    },
                    || input.fill(&mut next, CHUNK),
                )
                .1
            }),
            None => {
                outcomes.clear();
                outcomes.extend(current.iter().map(|item| solve_item(item, limit)));
                input.fill(&mut next, CHUNK)
            }
        };
        for (item, outcome) in current.iter().zip(outcomes.iter()) {
            let broken = write_result(
                &mut w,
                out.json,
                args.count,
                limit,
                item,
                outcome,
                &mut summary,
                &mut first_json,
            )?;
            if broken {
                return Ok(ExitCode::SUCCESS);
            }
            if let Item::Bad { message, .. } = item {
                if errors_shown < MAX_ERRORS_SHOWN {
                    crate::errln!("boardlab: error: {name}: {message}");
                }
                errors_shown += 1;
            }
        }
        read_result?;
        std::mem::swap(&mut current, &mut next);
    }

    let empty = summary.puzzles == 0 && summary.invalid == 0;
    if empty {
        let err = input.no_puzzle();
        crate::errln!("boardlab: error: {name}: {err}");
    }
    if errors_shown > MAX_ERRORS_SHOWN {
        crate::errln!(
            "boardlab: error: {name}: {} more puzzles could not be read",
            errors_shown - MAX_ERRORS_SHOWN
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    summary.seconds = seconds;
    summary.puzzles_per_second = if seconds > 0.0 {
        summary.puzzles as f64 / seconds
    } else {
        0.0
    };
    if out.json {
        let tail = serde_json::to_string(&summary)?;
        if write_all(&mut w, format!("\n],\n\"summary\": {tail}}}\n").as_bytes())? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    match w.flush() {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        r => r.context("writing the results")?,
    }
    if !empty {
        print_summary(&summary, args.count.then_some(limit));
    }
    let failed = empty
        || summary.invalid > 0
        || (args.strict && (summary.no_solution > 0 || summary.multiple > 0));
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The summary line on stderr.
fn print_summary(summary: &Summary, count_limit: Option<u64>) {
    let threads = summary.threads;
    crate::errln!(
        "boardlab: {} puzzle{} in {:.3} s: {} puzzles/s on {} thread{}; {} with one solution, {} with none, {} with \
         more than one{}; {} could not be read",
        summary.puzzles,
        if summary.puzzles == 1 { "" } else { "s" },
        summary.seconds,
        group_thousands(summary.puzzles_per_second.round() as u64),
        threads,
        if threads == 1 { "" } else { "s" },
        summary.unique,
        summary.no_solution,
        summary.multiple,
        match count_limit {
            Some(1) => format!(
                ", {} with at least one (counting up to 1)",
                summary.solvable
            ),
            Some(limit) if limit != 2 => format!(" (counting up to {limit})"),
            _ => String::new(),
        },
        summary.invalid,
    );
}

/// Write one result; returns true when stdout was closed (broken pipe).
#[allow(clippy::too_many_arguments)]
fn write_result(
    w: &mut impl Write,
    json: bool,
    count_mode: bool,
    limit: u64,
    item: &Item,
    outcome: &Outcome,
    summary: &mut Summary,
    first_json: &mut bool,
) -> anyhow::Result<bool> {
    // The most common line, a unique solution in plain text, goes out without building a string.
    if !json
        && !count_mode
        && let (Item::Puzzle { .. }, Outcome::Counted(c)) = (item, outcome)
        && c.count == 1
        && limit != 1
        && let Some(s) = c.first
    {
        summary.puzzles += 1;
        summary.unique += 1;
        let mut bytes = [b'\n'; 82];
        for (b, &v) in bytes.iter_mut().zip(s.digits()) {
            *b = b'0' + v;
        }
        return write_all(w, &bytes);
    }
    let mut line = String::with_capacity(96);
    let json_value;
    match (item, outcome) {
        (Item::Puzzle { line: at, grid }, Outcome::Counted(c)) => {
            summary.puzzles += 1;
            let status = match c.count {
                // Counting stopped at 1: solvable, uniqueness unknown.
                1 if limit == 1 => {
                    summary.solvable += 1;
                    "has_solution"
                }
                0 => {
                    summary.no_solution += 1;
                    "no_solution"
                }
                1 => {
                    summary.unique += 1;
                    "solved"
                }
                _ => {
                    summary.multiple += 1;
                    "multiple_solutions"
                }
            };
            if json {
                json_value = Some(JsonResult {
                    line: *at,
                    puzzle: Some(grid.to_line()),
                    status,
                    solution: match (c.count, c.first) {
                        (1, Some(s)) => Some(s.to_line()),
                        _ => None,
                    },
                    count: count_mode.then_some(c.count),
                    at_least: count_mode.then_some(c.count >= limit),
                    column: None,
                    error: None,
                });
            } else {
                json_value = None;
                if count_mode {
                    line.push_str(&c.count.to_string());
                    if c.count >= limit {
                        line.push('+');
                    }
                } else {
                    match (c.count, c.first) {
                        (1, Some(s)) => line.push_str(&s.to_line()),
                        (0, _) => line.push_str("no solution"),
                        _ => line.push_str("more than one solution"),
                    }
                }
            }
        }
        (
            Item::Bad {
                line: at,
                column,
                message,
            },
            _,
        ) => {
            summary.invalid += 1;
            if json {
                json_value = Some(JsonResult {
                    line: *at,
                    puzzle: None,
                    status: "invalid",
                    solution: None,
                    count: None,
                    at_least: None,
                    column: Some(*column),
                    error: Some(message.clone()),
                });
            } else {
                json_value = None;
                line.push_str("error: ");
                line.push_str(message);
            }
        }
        (Item::Puzzle { .. }, Outcome::Bad) => {
            anyhow::bail!("internal error: a puzzle without its result")
        }
    }
    if let Some(v) = json_value {
        if !*first_json {
            line.push_str(",\n");
        }
        *first_json = false;
        line.push_str(&serde_json::to_string(&v)?);
    } else {
        line.push('\n');
    }
    write_all(w, line.as_bytes())
}

/// Write bytes; returns true when stdout was closed (broken pipe).
fn write_all(w: &mut impl Write, bytes: &[u8]) -> anyhow::Result<bool> {
    match w.write_all(bytes) {
        Ok(()) => Ok(false),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(e).context("writing the results"),
    }
}
