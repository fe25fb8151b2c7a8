//! `boardlab peg ...`: peg solitaire boards, level-by-level enumeration, solutions.

use crate::{out, outln};
mod cluster;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use peg::enumerate::{self, Options};
use peg::{Board, Count, Finish, Lattice, Position, Problem, Solver, SolverOptions};
use serde::Serialize;

use crate::output::Output;
use play::text::group_thousands as sep;

/// Arguments of `boardlab peg`.
#[derive(Debug, Args)]
pub struct PegArgs {
    #[command(subcommand)]
    command: PegCommand,
}

#[derive(Debug, Subcommand)]
enum PegCommand {
    /// List the built-in boards.
    Boards,
    /// Print a board with its hole names, jumps, symmetries and standard start.
    Board(BoardArgs),
    /// Enumerate every reachable position level by level, with exact path counts in both trees.
    Count(CountArgs),
    /// The solution counts alone, in the full and the normal tree, counted over the positions that can still
    /// finish (much faster than the whole table), with those positions level by level.
    Solutions(FinishArgs),
    /// The positions reachable from the start from which the finish can still be reached, level by level.
    Finishable(FinishArgs),
    /// Find one solution (a jump sequence to a single peg), or show that there is none.
    Solve(SolveArgs),
}

/// Which board, and the start position.
#[derive(Debug, Args)]
struct BoardSel {
    /// Built-in board: english (the default), french, triangle, diamond, wiegleb.
    #[arg(long, value_name = "NAME", conflicts_with = "layout")]
    board: Option<String>,
    /// A board from an ASCII layout file: 'o' a hole with a peg, '.' an empty hole, ' ' or '_' no hole.
    #[arg(long, value_name = "FILE")]
    layout: Option<PathBuf>,
    /// The lattice of the layout file (only with --layout: a built-in board has its own).
    #[arg(long, value_enum, value_name = "LATTICE")]
    lattice: Option<LatticeArg>,
    /// Holes left empty at the start, all others filled (several allowed: `--start d4 c1` or `--start d4,c1`).
    /// Default: the layout's empty holes, or the board's standard vacancy (the centre; the triangle's top).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_name = "HOLE")]
    start: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LatticeArg {
    /// Square lattice: jumps along rows and columns.
    Square,
    /// Triangular lattice: rows offset by one character, six jump directions.
    Triangular,
}

#[derive(Debug, Args)]
struct BoardArgs {
    #[command(flatten)]
    sel: BoardSel,
}

#[derive(Debug, Args)]
struct CountArgs {
    #[command(flatten)]
    sel: BoardSel,
    /// Count solutions ending with the last peg on this hole (default: on any hole).
    #[arg(long, value_name = "HOLE")]
    finish: Option<String>,
    /// Stop with a message instead of using more memory than this (for example 512M or 4G; a bare number is in
    /// MiB). Default: 80% of the memory available.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
    /// Enumerate only the first N levels (from the start down).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    levels: Option<u32>,
    /// Keep the levels in this directory instead of memory, so that a board whose levels do not fit in
    /// --max-memory can still be counted: each level is built in as many passes over the one before as the
    /// memory limit needs. The directory is also the checkpoint: the same command run again resumes from
    /// the last level saved. Before each level the free space is checked against the level's estimate. With
    /// the cluster options each process keeps its own share there (process 0 the record of the run).
    #[arg(long, value_name = "DIR")]
    spill: Option<PathBuf>,
    #[command(flatten)]
    cluster: cluster::ClusterArgs,
}

#[derive(Debug, Args)]
struct FinishArgs {
    #[command(flatten)]
    sel: BoardSel,
    /// The hole the last peg must end on (default: any hole).
    #[arg(long, value_name = "HOLE")]
    finish: Option<String>,
    /// Stop with a message instead of using more memory than this (for example 512M or 4G; a bare number is in
    /// MiB). Default: 80% of the memory available.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    sel: BoardSel,
    /// The hole the last peg must end on (default: any hole).
    #[arg(long, value_name = "HOLE")]
    finish: Option<String>,
    /// Print the board after every jump.
    #[arg(long)]
    show: bool,
    /// Give up instead of using more memory than this (for example 512M or 4G). Default: 80% of the memory
    /// available.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
    /// Give up when the search has run this long without an answer (for example 30s, 5m or 2h; a bare number is
    /// seconds). Default: no limit. Every stage of the search (and of the complete enumeration that decides
    /// boards of up to 36 holes) stops within milliseconds of it.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    time_limit: Option<Duration>,
}

/// A duration as the user would write it: `90s`, `2.5m`, `1.2h`.
fn humantime(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 120.0 {
        format!("{}s", trim_float(secs))
    } else if secs < 7200.0 {
        format!("{}m", trim_float(secs / 60.0))
    } else {
        format!("{}h", trim_float(secs / 3600.0))
    }
}

/// A number with at most one decimal, without a trailing `.0`.
fn trim_float(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Parse a duration such as `30`, `30s`, `1.5m` or `2h`.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, scale) = match t.char_indices().last() {
        Some((i, 's')) => (&t[..i], 1.0),
        Some((i, 'm')) => (&t[..i], 60.0),
        Some((i, 'h')) => (&t[..i], 3600.0),
        _ => (t, 1.0),
    };
    match num.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x * scale < 1e9 => {
            Ok(Duration::from_secs_f64(x * scale))
        }
        _ => Err(format!(
            "'{s}' is not a duration: give a positive number of seconds, or one ending in s, m or h (30s, 5m, 2h)"
        )),
    }
}

pub(crate) use crate::files::parse_size;

/// 80% of the memory the system says is available (from /proc/meminfo), or 4 GiB when unknown.
pub(crate) fn default_memory_limit() -> u64 {
    let avail = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<u64>().ok())
            })
    });
    match avail {
        Some(kb) => kb * 1024 / 10 * 8,
        None => 4 << 30,
    }
}

/// The most a layout file may hold (a board has at most 64 holes; comments make up the rest).
pub const LAYOUT_MAX_BYTES: u64 = 1 << 20;

/// The board and start position chosen on the command line.
fn load(sel: &BoardSel) -> anyhow::Result<(Board, Position)> {
    let (board, drawn) = match (&sel.layout, &sel.board) {
        (Some(path), _) => {
            let text = crate::files::read_file(path, "a layout file", LAYOUT_MAX_BYTES)?;
            let lattice = match sel.lattice {
                None | Some(LatticeArg::Square) => Lattice::Square,
                Some(LatticeArg::Triangular) => Lattice::Triangular,
            };
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "layout".to_string());
            let (board, pos) = Board::from_layout(&text, lattice, &name)
                .with_context(|| format!("layout file {}", path.display()))?;
            (board, Some(pos))
        }
        (None, name) => {
            let name = name.as_deref().unwrap_or("english");
            if sel.lattice.is_some() {
                bail!(
                    "--lattice is for a --layout file; the built-in board {name} has its own lattice"
                );
            }
            (Board::builtin(name)?, None)
        }
    };
    let start = Problem::start_of(&board, drawn, &sel.start).context("--start")?;
    Ok((board, start))
}

fn finish_of(board: &Board, finish: Option<&str>) -> anyhow::Result<Finish> {
    Ok(match finish {
        Some(f) => Finish::Hole(board.parse_hole(f)?),
        None => Finish::Anywhere,
    })
}

/// Run `boardlab peg ...`.
pub fn run(args: PegArgs, out: &Output) -> anyhow::Result<ExitCode> {
    match args.command {
        PegCommand::Boards => boards(out),
        PegCommand::Board(a) => board(a, out),
        PegCommand::Count(a) => count(a, out),
        PegCommand::Solutions(a) => finishable(a, out, true),
        PegCommand::Finishable(a) => finishable(a, out, false),
        PegCommand::Solve(a) => solve(a, out),
    }
}

fn vacancies(board: &Board, pos: Position) -> Vec<String> {
    (0..board.holes())
        .filter(|&h| !pos.has_peg(h))
        .map(|h| board.hole_name(h).to_string())
        .collect()
}

fn describe_start(board: &Board, pos: Position) -> String {
    let v = vacancies(board, pos);
    match v.len() {
        0 => "full board".to_string(),
        1 => format!("vacancy at {}", v[0]),
        n if n <= 6 => format!("vacancies at {}", v.join(" ")),
        n => format!("{} pegs, {n} empty holes", pos.pegs()),
    }
}

#[derive(Serialize)]
struct BoardJson {
    name: String,
    lattice: Lattice,
    holes: usize,
    jumps: usize,
    symmetries: usize,
    standard_vacancy: String,
    hole_names: Vec<String>,
    start: Vec<String>,
    layout: String,
}

fn boards(out: &Output) -> anyhow::Result<ExitCode> {
    let mut list = Vec::new();
    for name in peg::board::builtin_names() {
        let b = Board::builtin(name)?;
        list.push((name, b, Board::builtin_description(name).unwrap_or("")));
    }
    if out.json {
        #[derive(Serialize)]
        struct Item<'a> {
            name: &'a str,
            description: &'a str,
            lattice: Lattice,
            holes: usize,
            jumps: usize,
            symmetries: usize,
            standard_vacancy: &'a str,
        }
        let items: Vec<Item<'_>> = list
            .iter()
            .map(|(name, b, d)| Item {
                name,
                description: d,
                lattice: b.lattice(),
                holes: b.holes(),
                jumps: b.moves().len(),
                symmetries: b.symmetries().len(),
                standard_vacancy: b.hole_name(b.default_vacancy()),
            })
            .collect();
        out.print_json(&items)?;
    } else {
        outln!(
            "{:<10} {:>5} {:>5} {:>10}  description",
            "board",
            "holes",
            "jumps",
            "symmetries"
        )?;
        for (name, b, d) in &list {
            outln!(
                "{:<10} {:>5} {:>5} {:>10}  {d} (standard vacancy {})",
                name,
                b.holes(),
                b.moves().len(),
                b.symmetries().len(),
                b.hole_name(b.default_vacancy())
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn board(a: BoardArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let (b, start) = load(&a.sel)?;
    if out.json {
        out.print_json(&BoardJson {
            name: b.name().to_string(),
            lattice: b.lattice(),
            holes: b.holes(),
            jumps: b.moves().len(),
            symmetries: b.symmetries().len(),
            standard_vacancy: b.hole_name(b.default_vacancy()).to_string(),
            hole_names: b.hole_names().to_vec(),
            start: vacancies(&b, start),
            layout: b.layout_string(start),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} board: {} holes on the {} lattice, {} jumps, {} symmetries",
        b.name(),
        b.holes(),
        b.lattice(),
        b.moves().len(),
        b.symmetries().len()
    )?;
    outln!("standard vacancy: {}", b.hole_name(b.default_vacancy()))?;
    outln!("\nhole names:\n{}", b.render_names())?;
    outln!(
        "start ({}):\n{}",
        describe_start(&b, start),
        b.render(start)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// With `PEG_DEBUG` set: the measurements of each level step on stderr, with the process's peak memory so far.
fn print_step_stats(s: &enumerate::StepStats) {
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|st| {
            st.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_default();
    let estimate = s
        .estimate_bytes
        .map_or(String::new(), |b| format!(", estimate {} MiB", b >> 20));
    crate::errln!(
        "level {}: {} classes, {} records in {} rounds of up to {}, next {} (expected {}), {} bytes ({}){}{}",
        s.pegs,
        s.sources,
        s.records,
        s.rounds,
        s.round_records,
        s.next_classes,
        s.expected,
        s.next_bytes,
        if s.left_in_tables {
            "in its tables"
        } else {
            "frozen"
        },
        estimate,
        if s.rebuilt_wide {
            ", rebuilt with u128 counters"
        } else {
            ""
        }
    );
    crate::errln!(
        "  expand {:.3}s merge {:.3}s freeze {:.3}s other {:.3}s total {:.3}s; peak memory so far {peak}",
        s.expand_secs,
        s.merge_secs,
        s.freeze_secs,
        (s.total_secs - s.expand_secs - s.merge_secs - s.freeze_secs).max(0.0),
        s.total_secs
    );
}

#[derive(Serialize)]
struct CountJson<'a> {
    board: &'a str,
    holes: usize,
    start: Vec<String>,
    finish: Option<&'a str>,
    #[serde(flatten)]
    count: &'a Count,
    /// On the cluster: every process's figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    cluster: Option<cluster::ClusterJson<'a>>,
}

fn count(a: CountArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let (board, start) = load(&a.sel)?;
    let finish = finish_of(&board, a.finish.as_deref())?;
    let problem = Problem::new(board, start, finish)?;
    let levels = a.levels.map(|l| l as usize);
    if a.spill.is_some() && a.cluster.checkpoints() {
        bail!(
            "--spill and --checkpoint do not go together (the spill directory is the checkpoint)"
        );
    }
    if a.cluster.wanted() {
        // Per process: as given; by default each machine's own, shared by the processes started here.
        let memory = a.max_memory.or_else(|| Some(default_memory_limit()));
        let local_default = a.max_memory.is_none().then(default_memory_limit);
        let limits = (memory, local_default);
        return match cluster::count(
            &a.cluster,
            &problem,
            limits,
            levels,
            a.spill.as_deref(),
            out,
        )? {
            Some((c, outcome)) => report(out, &problem, &c, Some(&outcome)),
            None => Ok(ExitCode::SUCCESS),
        };
    }
    a.cluster.check_unused()?;
    if let Some(dir) = &a.spill {
        return spill(&a, dir, &problem, levels, out);
    }
    let start = problem.start();
    let bar = out.progress(u64::from(start.pegs()), "counting");
    let progress = |l: &peg::Level| {
        bar.set_message(format!(
            "{} pegs: {} positions up to symmetry",
            l.pegs,
            sep(u128::from(l.classes))
        ));
        bar.inc(1);
    };
    let debug = std::env::var_os("PEG_DEBUG").is_some();
    let opts = Options {
        max_memory: Some(a.max_memory.unwrap_or_else(default_memory_limit)),
        progress: Some(&progress),
        stats: debug.then_some(&print_step_stats as &(dyn Fn(&enumerate::StepStats) + Sync)),
        max_levels: levels,
        ..Options::default()
    };
    let c = enumerate::count(&problem, &opts)?;
    bar.finish_and_clear();
    report(out, &problem, &c, None)
}

/// `peg count --spill DIR`: the count with its levels in a directory (resuming what it holds).
fn spill(
    a: &CountArgs,
    dir: &std::path::Path,
    problem: &Problem,
    levels: Option<usize>,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let binary = peg_cluster::binary_hash().map_err(anyhow::Error::msg)?;
    let mut text = cluster::problem_text(problem);
    if let Some(l) = levels {
        text.push_str(&format!(", first {l} levels"));
    }
    let (mut store, resume) =
        peg_cluster::store::DirStore::open(dir, &text, &binary).map_err(anyhow::Error::msg)?;
    let bar = out.progress(u64::from(problem.start().pegs()), "counting");
    if let Some(r) = &resume {
        bar.inc(r.state.levels.len() as u64);
    }
    let progress = |l: &peg::Level| {
        bar.set_message(format!(
            "{} pegs: {} positions up to symmetry",
            l.pegs,
            sep(u128::from(l.classes))
        ));
        bar.inc(1);
    };
    let debug = std::env::var_os("PEG_DEBUG").is_some();
    let log = |s: &peg::spill::SpillStep| {
        eprintln!(
            "peg spill: {} pegs, {} classes, {} pass(es) in rounds of up to {} records, next {} classes, {} bytes \
             written, planned {} MiB, held {} MiB, planned again {} time(s): expand {:.2} s merge {:.2} s \
             ({:.1} ns a record) total {:.2} s",
            s.pegs,
            s.classes,
            s.passes,
            s.round_records,
            s.next_classes,
            s.bytes_written,
            s.planned_bytes >> 20,
            s.held_bytes >> 20,
            s.replans,
            s.expand_secs,
            s.merge_secs,
            s.merge_ns_per_record(),
            s.total_secs
        );
    };
    let opts = Options {
        max_memory: Some(a.max_memory.unwrap_or_else(default_memory_limit)),
        progress: Some(&progress),
        stats: None,
        max_levels: levels,
        ..Options::default()
    };
    let log: &(dyn Fn(&peg::spill::SpillStep) + Sync) = &log;
    let c = peg::spill::count(problem, &opts, &mut store, resume, debug.then_some(log))?;
    bar.finish_and_clear();
    report(out, problem, &c, None)
}

/// Print a table: as text, or as JSON (with the cluster's figures, from a cluster run).
fn report(
    out: &Output,
    problem: &Problem,
    c: &Count,
    outcome: Option<&peg_cluster::Outcome>,
) -> anyhow::Result<ExitCode> {
    let (b, start, finish) = (problem.board(), problem.start(), problem.finish());
    let finish_name = match finish {
        Finish::Hole(h) => Some(b.hole_name(h)),
        Finish::Anywhere => None,
    };
    if out.json {
        out.print_json(&CountJson {
            board: b.name(),
            holes: b.holes(),
            start: vacancies(b, start),
            finish: finish_name,
            count: c,
            cluster: outcome.map(cluster::figures_json),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} board, {}, finish {}; {} symmetries fix the start",
        b.name(),
        describe_start(b, start),
        finish_name.unwrap_or("anywhere"),
        c.symmetries
    )?;
    let with_fin = c.levels.iter().any(|l| l.finishable.is_some());
    out!(
        "{:>4} {:>12} {:>12} {:>28} {:>28} {:>12} {:>12}",
        "pegs",
        "positions",
        "up to sym",
        "paths (full tree)",
        "paths (normal tree)",
        "dead ends",
        "up to sym"
    )?;
    if with_fin {
        out!(" {:>12} {:>12}", "finishable", "up to sym")?;
    }
    outln!()?;
    for l in &c.levels {
        out!(
            "{:>4} {:>12} {:>12} {:>28} {:>28} {:>12} {:>12}",
            l.pegs,
            l.positions,
            l.classes,
            l.paths_full,
            l.paths_normal,
            l.dead_ends,
            l.dead_end_classes
        )?;
        if let (Some(f), Some(fc)) = (l.finishable, l.finishable_classes) {
            out!(" {f:>12} {fc:>12}")?;
        }
        outln!()?;
    }
    let t = &c.totals;
    outln!()?;
    outln!(
        "reachable positions: {} ({} up to symmetry)",
        sep(u128::from(t.positions)),
        sep(u128::from(t.classes))
    )?;
    outln!(
        "complete games (paths to a dead end): {} in the full tree, {} in the normal tree",
        sep(t.games_full),
        sep(t.games_normal)
    )?;
    outln!(
        "solutions (one peg {}): {} in the full tree, {} in the normal tree",
        finish_name
            .map(|h| format!("on {h}"))
            .unwrap_or_else(|| "anywhere".to_string()),
        sep(t.solutions_full),
        sep(t.solutions_normal)
    )?;
    if let (Some(f), Some(fc), Some(h)) = (t.finishable, t.finishable_classes, finish_name) {
        outln!(
            "reachable positions from which one peg on {h} can still be reached: {} ({} up to symmetry)",
            sep(u128::from(f)),
            sep(u128::from(fc))
        )?;
    }
    if let Some(o) = outcome {
        cluster::print_figures(o);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct FinishableJson<'a> {
    board: &'a str,
    holes: usize,
    start: Vec<String>,
    finish: Option<&'a str>,
    /// Whether the start's position class allows the finish (when false, the set is empty for that reason).
    class_allows_finish: bool,
    /// The board's symmetries that fix the start (the classes' group).
    symmetries: usize,
    /// Finishable positions over all levels.
    finishable: u64,
    /// The same up to symmetry.
    finishable_classes: u64,
    levels: &'a [peg::FinishableLevel],
}

#[derive(Serialize)]
struct SolutionsJson<'a> {
    board: &'a str,
    holes: usize,
    start: Vec<String>,
    finish: Option<&'a str>,
    /// Whether the start's position class allows the finish (when false, every count is zero for that reason).
    class_allows_finish: bool,
    #[serde(flatten)]
    solutions: &'a peg::Solutions,
}

/// `peg solutions` (with `counts`) and `peg finishable`.
fn finishable(a: FinishArgs, out: &Output, counts: bool) -> anyhow::Result<ExitCode> {
    let (board, start) = load(&a.sel)?;
    let finish = finish_of(&board, a.finish.as_deref())?;
    let problem = Problem::new(board, start, finish)?;
    let b = problem.board();
    let debug = std::env::var_os("PEG_DEBUG").is_some();
    let opts = Options {
        max_memory: Some(a.max_memory.unwrap_or_else(default_memory_limit)),
        stats: debug.then_some(&print_step_stats as &(dyn Fn(&enumerate::StepStats) + Sync)),
        ..Options::default()
    };
    let spinner = out.spinner("finding the positions that can still finish");
    // The solution counts go faster when the set keeps the jumps its walks found.
    let set = if counts {
        peg::Finishable::build_for_solutions(&problem, &opts)?
    } else {
        peg::Finishable::build(&problem, &opts)?
    };
    let solutions = if counts {
        spinner.set_message("counting the paths over them");
        Some(set.solutions(&opts)?)
    } else {
        None
    };
    spinner.finish_and_clear();
    let finish_name = match finish {
        Finish::Hole(h) => Some(b.hole_name(h)),
        Finish::Anywhere => None,
    };
    let target = finish_name
        .map(|h| format!("on {h}"))
        .unwrap_or_else(|| "anywhere".to_string());
    if out.json {
        match &solutions {
            Some(s) => out.print_json(&SolutionsJson {
                board: b.name(),
                holes: b.holes(),
                start: vacancies(b, start),
                finish: finish_name,
                class_allows_finish: problem.class_allows_finish(),
                solutions: s,
            })?,
            None => out.print_json(&FinishableJson {
                board: b.name(),
                holes: b.holes(),
                start: vacancies(b, start),
                finish: finish_name,
                class_allows_finish: problem.class_allows_finish(),
                symmetries: problem.group().len(),
                finishable: set.positions(),
                finishable_classes: set.classes(),
                levels: set.levels(),
            })?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} board, {}, finish {}; {} symmetries fix the start",
        b.name(),
        describe_start(b, start),
        finish_name.unwrap_or("anywhere"),
        problem.group().len()
    )?;
    let mut header = format!("{:>4} {:>12} {:>12}", "pegs", "finishable", "up to sym");
    if solutions.is_some() {
        header += &format!(" {:>28} {:>28}", "paths (full tree)", "paths (normal tree)");
    }
    outln!("{header}")?;
    match &solutions {
        Some(s) => {
            for l in &s.levels {
                outln!(
                    "{:>4} {:>12} {:>12} {:>28} {:>28}",
                    l.pegs,
                    l.positions,
                    l.classes,
                    l.paths_full,
                    l.paths_normal
                )?;
            }
        }
        None => {
            for l in set.levels() {
                outln!("{:>4} {:>12} {:>12}", l.pegs, l.positions, l.classes)?;
            }
        }
    }
    outln!()?;
    outln!(
        "reachable positions from which one peg {target} can still be reached: {} ({} up to symmetry)",
        sep(u128::from(set.positions())),
        sep(u128::from(set.classes()))
    )?;
    if let Some(s) = &solutions {
        outln!(
            "solutions (one peg {target}): {} in the full tree, {} in the normal tree",
            sep(s.solutions_full),
            sep(s.solutions_normal)
        )?;
    }
    if !problem.class_allows_finish() {
        outln!(
            "(one peg {target} cannot be reached from this start: play keeps the position class, and no \
             one-peg position {target} is in the start's class)"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct SolveJson<'a> {
    board: &'a str,
    start: Vec<String>,
    finish: Option<&'a str>,
    solvable: bool,
    moves: Vec<String>,
    /// The board after each move, in the layout format.
    positions: Vec<String>,
}

/// Positions the depth-first search of `peg solve` examines before it turns to the finishable set of the game
/// (on boards of up to 36 holes), and then per slice of the search on bigger boards.
const SOLVE_SLICE: u64 = 3_000_000;

fn solve(a: SolveArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let (board, start) = load(&a.sel)?;
    let finish = finish_of(&board, a.finish.as_deref())?;
    let max_memory = a.max_memory.unwrap_or_else(default_memory_limit);
    // First a depth-first search with a budget; if it runs out, the finishable set of the game (the positions
    // reachable from the start that can still finish) where that is feasible (up to 36 holes), else the search
    // without a budget.
    let options = SolverOptions {
        max_memory,
        max_nodes: Some(SOLVE_SLICE),
        ..SolverOptions::default()
    };
    let mut solver = Solver::with_options(&board, finish, options);
    // The time limit is a timer that raises the solver's stop flag, which every stage looks at within
    // milliseconds: the beam searches, the depth-first search, and the building of a complete table.
    let stop = solver.stop_handle();
    if let Some(limit) = a.time_limit {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
    }
    let out_of_time = |solver: &Solver| {
        let limit = a.time_limit.map_or_else(String::new, humantime);
        if solver.nodes() == 0 {
            return anyhow::anyhow!(
                "no answer within the time limit of {limit}: the solver was still building its tables; give it \
                 more time with --time-limit"
            );
        }
        anyhow::anyhow!(
            "no answer within the time limit of {limit}: the search examined {} positions and knows {} dead \
             ones; give it more time with --time-limit",
            sep(u128::from(solver.nodes())),
            sep(solver.dead_positions() as u128)
        )
    };
    let result = match solver.solve(start) {
        Err(peg::SolveError::Stopped { .. }) => return Err(out_of_time(&solver)),
        Err(peg::SolveError::NodeLimit { .. }) if board.holes() <= 36 => {
            out.log(
                "the first search budget is spent; finding every position of the game that can still finish",
            );
            let problem = Problem::new(board.clone(), start, finish)?;
            let opts = Options {
                max_memory: Some(max_memory),
                cancel: Some(&stop),
                ..Options::default()
            };
            match peg::Finishable::build(&problem, &opts) {
                Ok(set) => set.solve(start),
                Err(peg::CountError::Cancelled) => return Err(out_of_time(&solver)),
                Err(e) => return Err(e.into()),
            }
        }
        Err(peg::SolveError::NodeLimit { .. }) => {
            out.log(match a.time_limit {
                Some(_) => "the first search budget is spent; searching on until the time limit",
                None => "the first search budget is spent; searching on without a limit",
            });
            // The same solver, in slices: the positions it found dead and its failed beam searches are kept
            // from one slice to the next, and the spinner tells how far it got.
            let spinner = out.spinner("searching");
            loop {
                match solver.solve(start) {
                    Err(peg::SolveError::NodeLimit { .. }) => spinner.set_message(format!(
                        "searching: {} positions examined, {} known dead",
                        sep(u128::from(solver.nodes())),
                        sep(solver.dead_positions() as u128)
                    )),
                    Err(peg::SolveError::Stopped { .. }) => {
                        spinner.finish_and_clear();
                        return Err(out_of_time(&solver));
                    }
                    r => {
                        spinner.finish_and_clear();
                        break r?;
                    }
                }
            }
        }
        r => r?,
    };
    let finish_name = match finish {
        Finish::Hole(h) => Some(board.hole_name(h)),
        Finish::Anywhere => None,
    };
    let moves = result.unwrap_or_default();
    let mut positions = Vec::new();
    let mut pos = start;
    for &m in &moves {
        pos = pos.apply(m);
        positions.push(pos);
    }
    if out.json {
        out.print_json(&SolveJson {
            board: board.name(),
            start: vacancies(&board, start),
            finish: finish_name,
            solvable: !moves.is_empty() || start.pegs() == 1 && finish.is_finished(start),
            moves: moves.iter().map(|&m| board.format_move(m)).collect(),
            positions: positions.iter().map(|&p| board.layout_string(p)).collect(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    if moves.is_empty() {
        if start.pegs() == 1 && finish.is_finished(start) {
            outln!("Already solved: one peg left.")?;
        } else {
            outln!(
                "No solution: one peg {} cannot be reached from this start ({}).",
                finish_name
                    .map(|h| format!("on {h}"))
                    .unwrap_or_else(|| "anywhere".to_string()),
                describe_start(&board, start)
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if a.show {
        outln!(
            "start ({}):\n{}",
            describe_start(&board, start),
            board.render(start)
        )?;
        for (i, (&m, &p)) in moves.iter().zip(&positions).enumerate() {
            outln!("{}. {}\n{}", i + 1, board.format_move(m), board.render(p))?;
        }
    }
    outln!("{}", board.format_moves(&moves))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("300"), Ok(300 << 20));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5X").is_err());
        assert!(parse_size("0").is_err());
    }
}
