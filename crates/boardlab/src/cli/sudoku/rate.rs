//! `boardlab sudoku rate [FILE|-] [--explain] [--threads N]`: the grade and the rating of each puzzle, streaming.

use std::io::{self, BufWriter, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::input::{Input, Item, MAX_ERRORS_SHOWN};
use anyhow::Context;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use sudoku::rate::{self, Report, Verdict};

use crate::answers::sudoku::StepInfo;
use crate::output::Output;

/// Arguments of `boardlab sudoku rate`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: as for `solve` (81-character lines or 9-line blocks, '#' comments).

Output: for each puzzle, in input order: the puzzle, its rating on Sudoku Explainer's scale, its grade (the \
hardest technique needed) and its level (beginner, easy, medium, hard, expert); 'needs guessing' when the logic \
gets stuck on a puzzle with one solution, 'no solution' or 'more than one solution' otherwise, and 'error: line \
L, column C: ...' for a puzzle that could not be read. With --explain, each step follows, one per line.

Exit status: 0 when every puzzle was read, 1 otherwise (or when the input holds no puzzle).")]
pub struct RateArgs {
    /// The file to read; `-` or nothing reads standard input. A puzzle may also be given here directly, as an
    /// 81-character line.
    pub file: Option<PathBuf>,

    /// Print every step of the logical solution.
    #[arg(long, short = 'e')]
    pub explain: bool,

    /// Worker threads [default: the number of cores].
    #[arg(long, short = 't', value_parser = crate::cli::parse_threads)]
    pub threads: Option<NonZeroUsize>,
}

/// Puzzles rated per round.
const CHUNK: usize = 1024;
#[derive(Debug, Serialize)]
struct JsonResult {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grade: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    technique: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_reached: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<StepInfo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Debug, Default, Serialize)]
struct Summary {
    puzzles: u64,
    by_level: std::collections::BTreeMap<&'static str, u64>,
    needs_guessing: u64,
    no_solution: u64,
    not_unique: u64,
    invalid: u64,
    seconds: f64,
    puzzles_per_second: f64,
    threads: usize,
}

/// Run `boardlab sudoku rate`.
pub fn run(args: RateArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let mut input = Input::open(args.file.as_deref())?;
    let name = input.name.clone();
    let threads = args
        .threads
        .map(NonZeroUsize::get)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the worker threads")?;
    let stdout = io::stdout();
    let mut w = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut summary = Summary {
        threads,
        ..Summary::default()
    };
    let mut errors_shown = 0usize;
    let mut first = true;
    if out.json && broken(w.write_all(b"{\"results\": [\n"))? {
        return Ok(ExitCode::SUCCESS);
    }
    let mut items = Vec::with_capacity(CHUNK);
    loop {
        input.fill(&mut items, CHUNK)?;
        if items.is_empty() {
            break;
        }
        let reports: Vec<Option<Report>> = pool.install(|| {
            items
                .par_iter()
                .map(|it| match it {
                    Item::Puzzle { grid, .. } => Some(rate::rate(grid, args.explain)),
                    Item::Bad { .. } => None,
                })
                .collect()
        });
        for (item, report) in items.iter().zip(reports) {
            let text = match item {
                Item::Puzzle { line, grid } => {
                    let Some(r) = report else { continue };
                    summary.puzzles += 1;
                    match r.verdict {
                        Verdict::Solved => {
                            *summary
                                .by_level
                                .entry(r.difficulty().map_or("none", |d| d.name()))
                                .or_insert(0) += 1;
                        }
                        Verdict::NeedsGuessing => summary.needs_guessing += 1,
                        Verdict::NoSolution => summary.no_solution += 1,
                        Verdict::NotUnique => summary.not_unique += 1,
                    }
                    if out.json {
                        let j = JsonResult {
                            line: *line,
                            puzzle: Some(grid.to_line()),
                            status: r.verdict.id(),
                            rating: r.rating.map(|x| x.value()),
                            grade: matches!(r.verdict, Verdict::Solved | Verdict::NeedsGuessing)
                                .then(|| r.grade().to_string()),
                            technique: r
                                .hardest
                                .filter(|_| r.verdict == Verdict::Solved)
                                .map(|t| t.id()),
                            difficulty: r.difficulty().map(|d| d.name()),
                            rating_reached: (r.verdict == Verdict::NeedsGuessing)
                                .then(|| r.reached.value()),
                            steps: args
                                .explain
                                .then(|| r.steps.iter().map(StepInfo::new).collect()),
                            column: None,
                            error: None,
                        };
                        serde_json::to_string(&j)?
                    } else {
                        let mut s = format!("{}  {}", grid.to_line(), verdict_text(&r));
                        if args.explain {
                            for step in &r.steps {
                                s.push_str(&format!("\n  {}  {}", step.rating, step));
                            }
                        }
                        s
                    }
                }
                Item::Bad {
                    line,
                    column,
                    message,
                } => {
                    summary.invalid += 1;
                    if errors_shown < MAX_ERRORS_SHOWN {
                        crate::errln!("boardlab: error: {name}: {message}");
                    }
                    errors_shown += 1;
                    if out.json {
                        let j = JsonResult {
                            line: *line,
                            puzzle: None,
                            status: "error",
                            rating: None,
                            grade: None,
                            technique: None,
                            difficulty: None,
                            rating_reached: None,
                            steps: None,
                            column: Some(*column),
                            error: Some(message.clone()),
                        };
                        serde_json::to_string(&j)?
                    } else {
                        format!("error: {message}")
                    }
                }
            };
            let sep: &[u8] = if out.json && !first { b",\n" } else { b"" };
            first = false;
            if broken(w.write_all(sep))? || broken(w.write_all(text.as_bytes()))? {
                return Ok(ExitCode::SUCCESS);
            }
            if !out.json && broken(w.write_all(b"\n"))? {
                return Ok(ExitCode::SUCCESS);
            }
        }
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
    summary.seconds = started.elapsed().as_secs_f64();
    summary.puzzles_per_second = if summary.seconds > 0.0 {
        summary.puzzles as f64 / summary.seconds
    } else {
        0.0
    };
    if out.json {
        let tail = serde_json::to_string(&summary)?;
        if broken(w.write_all(format!("\n],\n\"summary\": {tail}}}\n").as_bytes()))? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if broken(w.flush())? {
        return Ok(ExitCode::SUCCESS);
    }
    if !empty {
        let levels: Vec<String> = summary
            .by_level
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        crate::errln!(
            "boardlab: {} puzzle{} rated in {:.3} s: {:.0} puzzles/s on {} thread{}; {}; needs guessing {}, no \
             solution {}, more than one solution {}; {} could not be read",
            summary.puzzles,
            if summary.puzzles == 1 { "" } else { "s" },
            summary.seconds,
            summary.puzzles_per_second,
            threads,
            if threads == 1 { "" } else { "s" },
            if levels.is_empty() {
                "none rated".to_string()
            } else {
                levels.join(", ")
            },
            summary.needs_guessing,
            summary.no_solution,
            summary.not_unique,
            summary.invalid
        );
    }
    Ok(if empty || summary.invalid > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The verdict as text: "2.6 pointing (medium)", "needs guessing (stuck after 4.2)", "no solution".
pub fn verdict_text(r: &Report) -> String {
    match r.verdict {
        Verdict::Solved => match (r.rating, r.difficulty()) {
            (Some(x), Some(d)) if r.hardest.is_some() => format!("{x}  {} ({d})", r.grade()),
            _ => "0.0  nothing to solve".to_string(),
        },
        Verdict::NeedsGuessing => format!("-  needs guessing (stuck after {})", r.reached),
        Verdict::NoSolution => "-  no solution".to_string(),
        Verdict::NotUnique => "-  more than one solution".to_string(),
    }
}

/// Whether a write failed because stdout was closed; other errors are returned.
fn broken(r: io::Result<()>) -> anyhow::Result<bool> {
    match r {
        Ok(()) => Ok(false),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(e).context("writing the results"),
    }
}
