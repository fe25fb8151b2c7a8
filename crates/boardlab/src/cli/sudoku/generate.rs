//! `boardlab sudoku generate [--difficulty D] [--count N] [--symmetry S] [--seed X] [--classic [--hide N]
//! [--unique]] [--threads N]`.
//!
//! Puzzle `i` of a run is made from its own random stream derived from the seed and `i`, so a seed gives the same
//! puzzles whatever the number of threads.

use std::io::{self, BufWriter, Write};
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use sudoku::classic::{self, ClassicOptions};
use sudoku::generate::{self, Difficulty, GenerateOptions, Symmetry};
use sudoku::rng::Rng;

use crate::output::Output;

/// Arguments of `boardlab sudoku generate`.
#[derive(Debug, Args)]
#[command(after_help = "\
Levels, by the rater's grade (the hardest technique needed, on Sudoku Explainer's scale):
  beginner  1.0-1.6  full houses and hidden singles only, at least 36 clues
  easy      1.7-2.5  naked singles, and locked candidates or hidden pairs that reveal a single at once
  medium    2.6-3.5  pointing, claiming, naked and hidden pairs, X-Wing
  hard      3.6-4.4  triples, Swordfish, skyscraper, kites, turbot fish, XY- and XYZ-Wing
  expert    4.5+     quads, Jellyfish, chains; never guessing
Every generated puzzle is solvable by the rater's logic, so its solution is unique.

--classic shuffles a built-in grid with moves that keep it valid (relabelled digits, rows within bands, columns \
within stacks, bands, stacks, transposition, rotation) and hides --hide cells at random, as the 1 KB ZX-81 \
Sudoku did; such a puzzle is marked 'possibly not unique' unless --unique is given.

Output: one puzzle per line (81 characters, '.' for an empty cell), followed by its rating and level.")]
pub struct GenerateArgs {
    /// Target level: beginner, easy, medium, hard or expert.
    #[arg(long, short = 'd', default_value = "medium", value_parser = parse_difficulty, conflicts_with = "classic")]
    pub difficulty: Difficulty,

    /// How many puzzles.
    #[arg(long, short = 'n', default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub count: u64,

    /// Symmetry of the clue pattern: none, 180, 90, mirror or diagonal.
    #[arg(long, short = 's', default_value = "180", value_parser = parse_symmetry, conflicts_with = "classic")]
    pub symmetry: Symmetry,

    /// Seed for reproducible output [default: from the clock; printed on stderr].
    #[arg(long)]
    pub seed: Option<u64>,

    /// The classic method: shuffle a built-in grid and hide cells at random.
    #[arg(long)]
    pub classic: bool,

    /// With --classic, the number of cells to hide, 0 to 64 (a puzzle keeps at least 17 clues).
    #[arg(long, default_value_t = 27, requires = "classic", value_parser = clap::value_parser!(u8).range(0..=sudoku::classic::MAX_HIDE as i64))]
    pub hide: u8,

    /// With --classic, only hide cells while the solution stays unique.
    #[arg(long, requires = "classic")]
    pub unique: bool,

    /// Worker threads [default: the number of cores].
    #[arg(long, short = 't', value_parser = crate::cli::parse_threads)]
    pub threads: Option<NonZeroUsize>,
}

fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    s.parse().map_err(|e: generate::UnknownName| e.to_string())
}

fn parse_symmetry(s: &str) -> Result<Symmetry, String> {
    s.parse().map_err(|e: generate::UnknownName| e.to_string())
}

/// One generated puzzle, for JSON.
#[derive(Debug, Serialize)]
struct JsonPuzzle {
    index: u64,
    puzzle: String,
    solution: String,
    clues: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hardest: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    symmetry: Option<&'static str>,
    /// Always true for rated puzzles; for classic ones, whether uniqueness was checked.
    unique: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    base_grid: Option<usize>,
}

#[derive(Debug, Serialize)]
struct JsonOutput<'a> {
    #[serde(serialize_with = "crate::output::decimal")]
    seed: u64,
    method: &'a str,
    puzzles: Vec<JsonPuzzle>,
    seconds: f64,
    puzzles_per_second: f64,
    threads: usize,
}

fn line(d: &[u8; 81]) -> String {
    d.iter()
        .map(|&x| if x == 0 { '.' } else { char::from(b'0' + x) })
        .collect()
}

/// Make puzzle `index` of the run.
fn make(args: &GenerateArgs, seed: u64, index: u64) -> anyhow::Result<JsonPuzzle> {
    if args.classic {
        let mut rng = Rng::for_item(seed, index);
        let opts = ClassicOptions {
            hide: usize::from(args.hide),
            unique: args.unique,
        };
        let c = classic::classic(&opts, &mut rng)?;
        return Ok(JsonPuzzle {
            index,
            puzzle: line(&c.puzzle),
            solution: line(&c.solution),
            clues: c.puzzle.iter().filter(|&&d| d != 0).count(),
            rating: None,
            difficulty: None,
            hardest: None,
            symmetry: None,
            unique: c.unique,
            base_grid: Some(c.base),
        });
    }
    let opts = GenerateOptions {
        difficulty: args.difficulty,
        symmetry: args.symmetry,
    };
    let g = generate::generate(&opts, seed, index)?;
    Ok(JsonPuzzle {
        index,
        puzzle: line(&g.puzzle),
        solution: line(&g.solution),
        clues: g.clues,
        rating: Some(g.rating.value()),
        difficulty: Some(g.difficulty.name()),
        hardest: g.hardest.map(|t| t.id()),
        symmetry: Some(args.symmetry.name()),
        unique: Some(true),
        base_grid: None,
    })
}

/// Run `boardlab sudoku generate`.
pub fn run(args: GenerateArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let seed = args.seed.unwrap_or_else(sudoku::rng::clock_seed);
    let threads = args
        .threads
        .map(NonZeroUsize::get)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the worker threads")?;
    let bar = out.progress(args.count, "generating");
    // Chunks keep the output flowing (and memory bounded) for large counts.
    const CHUNK: u64 = 4096;
    let stdout = io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    let mut all = Vec::new();
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let made: Vec<anyhow::Result<JsonPuzzle>> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    let r = make(&args, seed, i);
                    bar.inc(1);
                    r
                })
                .collect()
        });
        for p in made {
            let p = p?;
            if out.json {
                all.push(p);
            } else {
                let info = match (p.rating, p.difficulty, p.unique) {
                    (Some(r), Some(d), _) => format!(
                        "{r:.1} {d} {}",
                        p.hardest.map_or_else(String::new, |h| h.replace('_', "-"))
                    ),
                    (_, _, Some(true)) => format!("classic unique {} clues", p.clues),
                    _ => format!("classic possibly-not-unique {} clues", p.clues),
                };
                if let Err(e) = writeln!(w, "{} {}", p.puzzle, info.trim_end()) {
                    if e.kind() == io::ErrorKind::BrokenPipe {
                        return Ok(ExitCode::SUCCESS);
                    }
                    return Err(e).context("writing the puzzles");
                }
            }
        }
        start = end;
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 {
        args.count as f64 / seconds
    } else {
        0.0
    };
    let method = if args.classic { "classic" } else { "rated" };
    if out.json {
        drop(w);
        out.print_json(&JsonOutput {
            seed,
            method,
            puzzles: all,
            seconds,
            puzzles_per_second: rate,
            threads,
        })?;
    } else {
        match w.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
            r => r.context("writing the puzzles")?,
        }
    }
    let what = if args.classic {
        format!(
            "classic puzzle{} ({} hidden{})",
            plural(args.count),
            args.hide,
            if args.unique { ", unique" } else { "" }
        )
    } else {
        format!(
            "{} puzzle{} ({} symmetry)",
            args.difficulty,
            plural(args.count),
            args.symmetry
        )
    };
    crate::errln!(
        "boardlab: {} {what} in {seconds:.3} s: {rate:.0} puzzles/s on {threads} thread{}; seed {seed}",
        args.count,
        plural(threads as u64)
    );
    Ok(ExitCode::SUCCESS)
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
