//! `boardlab mouse ...`: Mouse & Cats (Fox and Hounds), on every even board size from 4x4 to 16x16
//! (`--size N`, 8x8 by default).
//!
//! - `solve`: the exact value of a start position and statistics of the whole state space, level by level;
//! - `analyse`: search a position, with the exact value beside it;
//! - `perft`: count move sequences;
//! - `play`: a line-based game against the engine;
//! - `show`: print a position in both notations with its hash, lock and status.

mod analyse;
pub mod play;
mod solve;

use crate::outln;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail};
use clap::{Args, Subcommand};
use mousecats::perft::PerftOptions;
use mousecats::search::MAX_DEPTH;
use mousecats::{
    AnyPosition, BoardPosition, BoardSize, Level, Rule, Side, SizedPosition, with_position,
};
use serde::Serialize;

use crate::answers::mouse::perft;
pub use crate::answers::mouse::{plies, value_phrase, winner_phrase};
use crate::output::Output;
pub use ::play::text::group_thousands as commas;

/// Arguments of `boardlab mouse`.
#[derive(Debug, Args)]
pub struct MouseArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: MouseCommand,
}

/// The `boardlab mouse` verbs.
#[derive(Debug, Subcommand)]
pub enum MouseCommand {
    /// Solve every state of a board exactly, level by level; print the start's value and the figures.
    Solve(SolveArgs),
    /// Search a position: best move, score, principal variation, nodes, tables; and its exact value.
    #[command(alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Count the move sequences of exactly D plies from a position (the start by default).
    Perft(PerftArgs),
    /// Play a game against the engine in the terminal, one line per move.
    Play(PlayArgs),
    /// Print a position as a diagram and in one-line notation, with its hash, lock and status.
    Show(ShowArgs),
}

/// Settings of the start position, shared by `solve` and `play`.
#[derive(Debug, Args, Clone)]
pub struct StartArgs {
    /// The board: N x N, N even from 4 to 16 (`10` or `10x10`).
    #[arg(
        long,
        value_name = "N",
        default_value = "8",
        allow_negative_numbers = true
    )]
    pub size: String,
    /// The mouse's start square, a free dark square (default: the board's, as in gilith/solve: C1 on
    /// 4x4 and 6x6, E1 on 8x8 and 10x10, G1 on 12x12 and 14x14, I1 on 16x16).
    #[arg(long, value_name = "SQ")]
    pub mouse: Option<String>,
    /// The cats move first (the mouse does by default).
    #[arg(long)]
    pub cats_first: bool,
    /// When the mouse wins: `far-row` (on reaching row N; `row8` on 8x8), `escape` (also once no cat is
    /// above it) or `region` (once it stands where no cat can ever reach, beside another such square).
    #[arg(long, value_name = "RULE", default_value = "far-row")]
    pub rule: String,
}

/// A start, checked: the board, the position and the rule.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// The board.
    pub size: BoardSize,
    /// The start position.
    pub position: SizedPosition,
    /// The rule.
    pub rule: Rule,
}

impl StartArgs {
    /// The start position and rule.
    pub fn parse(&self) -> anyhow::Result<Start> {
        let size = parse_size(&self.size)?;
        let rule = parse_rule_for(&self.rule, size)?;
        let mouse = match &self.mouse {
            Some(text) => size.parse_dark(text).map_err(|e| anyhow!("--mouse: {e}"))?,
            None => size.default_mouse(),
        };
        let first = if self.cats_first {
            Side::Cats
        } else {
            Side::Mouse
        };
        let position =
            SizedPosition::start_with(size, mouse, first).map_err(|e| anyhow!("--mouse: {e}"))?;
        Ok(Start {
            size,
            position,
            rule,
        })
    }
}

/// Parse `--size`.
pub fn parse_size(s: &str) -> anyhow::Result<BoardSize> {
    s.parse::<BoardSize>().map_err(|e| anyhow!("--size: {e}"))
}

/// Parse an optional `--size`.
pub fn parse_size_opt(s: Option<&str>) -> anyhow::Result<Option<BoardSize>> {
    s.map(parse_size).transpose()
}

/// Arguments of `boardlab mouse solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Solve on one thread only (the default uses all cores).
    #[arg(long)]
    single_thread: bool,
    /// The most memory the solve may take (for example 512M or 16G; a bare number is in MiB). Default: what
    /// the system has available. A board that needs more is refused with the figure it would need.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::peg::parse_size)]
    max_memory: Option<u64>,
}

/// Arguments of `boardlab mouse analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The position: `mouse=E1 cats=B8,D8,F8,H8 turn=mouse`, an 8-line diagram, `start`, or `-` to read
    /// it from standard input.
    #[arg(value_name = "POSITION")]
    position: String,
    /// Play level 1-10 (levels 1-9 search 2 x level plies; 10 is perfect play from the exact table).
    #[arg(long, value_name = "N")]
    level: Option<String>,
    /// Search depth in plies, 1-64 (default 12).
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    depth: Option<String>,
    /// Stop the search after this many seconds (the last full depth counts).
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    time: Option<String>,
    /// Show the transposition tables' counters.
    #[arg(long)]
    stats: bool,
    /// Table size: 2^BITS entries per side to move, 8-28.
    #[arg(
        long,
        value_name = "BITS",
        default_value = "18",
        conflicts_with = "no_tables"
    )]
    tt_bits: String,
    /// Lock width in bits, 0-32 (`--tt-bits 8 --lock-bits 8` is the C64 set-up).
    #[arg(
        long,
        value_name = "BITS",
        default_value = "32",
        conflicts_with = "no_tables"
    )]
    lock_bits: String,
    /// Keep the exact position beside each table entry and count false hits.
    #[arg(long)]
    verify: bool,
    /// Search without transposition tables.
    #[arg(long)]
    no_tables: bool,
    /// Do not work out the exact value (on 10x10 the whole table takes about a quarter of a second and 210 MB).
    #[arg(long)]
    no_exact: bool,
    /// Refuse tables bigger than this (for example 512M or 4G; a bare number is in MiB). Default: 80% of the
    /// memory available.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::peg::parse_size)]
    max_memory: Option<u64>,
    /// When the mouse wins: `far-row` (`row8` on 8x8), `escape` or `region`.
    #[arg(long, value_name = "RULE", default_value = "far-row")]
    rule: String,
    /// The board, N x N (even, 4 to 16); by default the position's own (`size=N` or its diagram's
    /// rows), else 8.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    size: Option<String>,
}

/// Arguments of `boardlab mouse perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The number of plies, 0-64.
    #[arg(value_name = "D", allow_negative_numbers = true)]
    depth: String,
    /// The position (notation, diagram, `start` or `-` for standard input); the start by default.
    #[arg(value_name = "POSITION")]
    position: Option<String>,
    /// Also print the count after each first move.
    #[arg(long)]
    divide: bool,
    /// When the mouse wins: `far-row` (`row8` on 8x8), `escape` or `region`.
    #[arg(long, value_name = "RULE", default_value = "far-row")]
    rule: String,
    /// The board, N x N (even, 4 to 16); by default the position's own, else 8.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    size: Option<String>,
    /// The most memory the table of positions already counted may take (for example 512M or 4G; a bare
    /// number is in MiB); once it is full, new counts overwrite old ones and positions lost are counted
    /// again (slower, the same answer). Default: 80% of the memory available.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::peg::parse_size)]
    max_memory: Option<u64>,
}

/// Arguments of `boardlab mouse play`.
#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// Your side: `mouse` or `cats`.
    #[arg(long = "as", value_name = "SIDE", default_value = "mouse")]
    pub side: String,
    /// The engine's level, 1-10 (10 plays perfectly).
    #[arg(long, value_name = "N", default_value = "5")]
    pub level: String,
    /// Limit the engine's thinking time per move, in seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<String>,
    /// The start position.
    #[command(flatten)]
    pub start: StartArgs,
}

/// Arguments of `boardlab mouse show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position (notation, diagram, `start` or `-` for standard input).
    #[arg(value_name = "POSITION")]
    position: String,
    /// When the mouse wins: `far-row` (`row8` on 8x8), `escape` or `region`.
    #[arg(long, value_name = "RULE", default_value = "far-row")]
    rule: String,
    /// The board, N x N (even, 4 to 16); by default the position's own, else 8.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    size: Option<String>,
}

/// Run `boardlab mouse ...`.
pub fn run(args: MouseArgs, out: &Output) -> anyhow::Result<ExitCode> {
    match args.command {
        MouseCommand::Solve(a) => solve::run(&a.start, a.single_thread, a.max_memory, out),
        MouseCommand::Analyse(a) => analyse::run(&a, out),
        MouseCommand::Perft(a) => run_perft(&a, out),
        MouseCommand::Play(a) => {
            if out.json {
                bail!("`mouse play` is interactive and has no --json output");
            }
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut output = std::io::stdout().lock();
            play::run_session(&a, &mut input, &mut output)?;
            Ok(ExitCode::SUCCESS)
        }
        MouseCommand::Show(a) => run_show(&a, out),
    }
}

/// Parse a rule name for a board of `size`.
pub fn parse_rule_for(s: &str, size: BoardSize) -> anyhow::Result<Rule> {
    Rule::parse_for(s, size).map_err(|e| anyhow!("--rule: {e}"))
}

/// The most a position read from standard input may hold: a diagram with comments is a few hundred bytes.
pub const POSITION_MAX_BYTES: u64 = 64 << 10;

/// Parse a position argument for the board `size` if given; `-` reads standard input.
pub fn parse_position(arg: &str, size: Option<BoardSize>) -> anyhow::Result<AnyPosition> {
    let text = if arg.trim() == "-" {
        crate::files::read_stdin("a position", POSITION_MAX_BYTES)?
    } else {
        arg.to_string()
    };
    AnyPosition::parse(&text, size).map_err(|e| anyhow!("bad position: {e}"))
}

/// Parse the position and the rule of `analyse`, `perft` and `show`: the rule is checked against the
/// position's board.
fn position_and_rule(
    text: Option<&str>,
    size: Option<&str>,
    rule: &str,
) -> anyhow::Result<(AnyPosition, Rule)> {
    let size = parse_size_opt(size)?;
    let pos = match text {
        Some(t) => parse_position(t, size)?,
        None => AnyPosition::start(size.unwrap_or_default()),
    };
    Ok((pos, parse_rule_for(rule, pos.board_size())?))
}

/// Refuse level 10 (perfect play) on a board whose whole table is not kept.
pub fn check_level_for(level: Level, size: BoardSize) -> anyhow::Result<()> {
    if level.depth().is_none() && size > mousecats::solve::MAX_TABLE_SIZE {
        bail!(
            "--level 10 plays from the exact table, which is kept for boards up to 10x10; on {size} pick a level from 1 to 9"
        );
    }
    Ok(())
}

/// Parse a whole number in `min..=max` for option `name`.
pub fn parse_int(name: &str, s: &str, min: i64, max: i64) -> anyhow::Result<i64> {
    let t = s.trim();
    let v: i64 = match t.parse() {
        Ok(v) => v,
        Err(e)
            if matches!(
                e.kind(),
                std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow
            ) =>
        {
            bail!(
                "{name} must be between {min} and {max}, got {}",
                crate::cli::short(t)
            )
        }
        Err(_) => bail!("{name}: '{}' is not a whole number", crate::cli::short(t)),
    };
    if !(min..=max).contains(&v) {
        bail!("{name} must be between {min} and {max}, got {v}");
    }
    Ok(v)
}

/// Parse a level 1-10.
pub fn parse_level(s: &str) -> anyhow::Result<Level> {
    let n = parse_int("--level", s, 1, 10)?;
    Ok(Level::new(n as u8)?)
}

/// Parse a time limit in seconds.
pub fn parse_time(s: &str) -> anyhow::Result<Duration> {
    let v: f64 = s.trim().parse().map_err(|_| {
        anyhow!(
            "--time: '{}' is not a number of seconds",
            crate::cli::short(s)
        )
    })?;
    if !(v > 0.0 && v <= 86_400.0) {
        bail!(
            "--time must be more than 0 and at most 86400 seconds, got {}",
            crate::cli::short(s)
        );
    }
    Ok(Duration::from_secs_f64(v))
}

/// A duration in milliseconds with one decimal.
pub fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn run_perft(a: &PerftArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let depth = parse_int("perft depth", &a.depth, 0, i64::from(MAX_DEPTH))? as u32;
    let (pos, rule) = position_and_rule(a.position.as_deref(), a.size.as_deref(), &a.rule)?;
    let max_memory = a
        .max_memory
        .unwrap_or_else(crate::cli::peg::default_memory_limit);
    let opts = PerftOptions {
        max_memory: usize::try_from(max_memory).unwrap_or(usize::MAX),
        cancel: None,
    };
    with_position!(pos, |p| perft_of(&p, depth, rule, a.divide, &opts, out))
}

fn perft_of<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
    divide: bool,
    opts: &PerftOptions<'_>,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let answer =
        perft(pos, depth, rule, divide, opts).map_err(|e| anyhow!("perft {depth}: {e}"))?;
    if out.json {
        out.print_json(&answer)?;
    } else {
        if let Some(d) = &answer.divide {
            for e in d {
                outln!("{}: {}", e.mv, commas(e.count))?;
            }
        }
        outln!(
            "perft {depth}: {} ({} rule, from {pos}) in {:.1} ms",
            commas(answer.count),
            rule,
            answer.elapsed_ms
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct ShowJson {
    size: u8,
    position: String,
    diagram: String,
    hash: String,
    lock: String,
    rule: String,
    turn: String,
    winner: Option<String>,
    legal_moves: Vec<String>,
}

fn run_show(a: &ShowArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let (pos, rule) = position_and_rule(Some(&a.position), a.size.as_deref(), &a.rule)?;
    with_position!(pos, |p| show(&p, rule, out))
}

fn show<P: BoardPosition>(pos: &P, rule: Rule, out: &Output) -> anyhow::Result<ExitCode> {
    let winner = pos.outcome(rule);
    let moves: Vec<String> = pos
        .legal_moves(rule)
        .iter()
        .map(ToString::to_string)
        .collect();
    if out.json {
        out.print_json(&ShowJson {
            size: pos.board_size().n(),
            position: pos.to_string(),
            diagram: pos.diagram(),
            hash: format!("{:016x}", pos.zobrist_hash()),
            lock: format!("{:08x}", pos.zobrist_lock()),
            rule: rule.to_string(),
            turn: pos.turn().to_string(),
            winner: winner.map(|w| w.to_string()),
            legal_moves: moves,
        })?;
    } else {
        outln!("{}", pos.diagram())?;
        outln!("{pos}")?;
        outln!(
            "hash {:016x}  lock {:08x}",
            pos.zobrist_hash(),
            pos.zobrist_lock()
        )?;
        match winner {
            Some(w) => outln!("game over: {}", winner_phrase(w))?,
            None => outln!("{} to move: {}", pos.turn(), moves.join(" "))?,
        }
    }
    Ok(ExitCode::SUCCESS)
}
