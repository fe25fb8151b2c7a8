//! `boardlab mouse ...`: Mouse & Cats (Fox and Hounds).
//!
//! - `solve`: the exact value of a start position and statistics of the whole state space;
//! - `analyse`: search a position, with the exact value beside it;
//! - `perft`: count move sequences;
//! - `play`: a line-based game against the engine;
//! - `show`: print a position in both notations with its hash, lock and status.

mod analyse;
pub mod play;
mod solve;

use std::io::Read;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use clap::{Args, Subcommand};
use mousecats::perft::{perft, perft_divide, perft_memo};
use mousecats::search::MAX_DEPTH;
use mousecats::{Level, Position, Rule, Side, Square};
use serde::Serialize;

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
    /// Solve all 2,013,760 states exactly; print the start's value and the win/loss counts.
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
    /// The mouse's start square (a free dark square; row 1 is usual).
    #[arg(long, value_name = "SQ", default_value = "E1")]
    pub mouse: String,
    /// The cats move first (the mouse does by default).
    #[arg(long)]
    pub cats_first: bool,
    /// When the mouse wins: `row8` (on reaching row 8) or `escape` (also once no cat is above it).
    #[arg(long, value_name = "RULE", default_value = "row8")]
    pub rule: String,
}

impl StartArgs {
    /// The start position and rule.
    pub fn parse(&self) -> anyhow::Result<(Position, Rule)> {
        let rule = parse_rule(&self.rule)?;
        let mouse = Square::parse_dark(&self.mouse).map_err(|e| anyhow!("--mouse: {e}"))?;
        let first = if self.cats_first {
            Side::Cats
        } else {
            Side::Mouse
        };
        let start = Position::start_with(mouse, first).map_err(|e| anyhow!("--mouse: {e}"))?;
        Ok((start, rule))
    }
}

/// Arguments of `boardlab mouse solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Solve on one thread only (the default uses all cores).
    #[arg(long)]
    single_thread: bool,
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
    #[arg(long, value_name = "BITS", default_value = "18")]
    tt_bits: String,
    /// Lock width in bits, 0-32 (`--tt-bits 8 --lock-bits 8` is the C64 set-up).
    #[arg(long, value_name = "BITS", default_value = "32")]
    lock_bits: String,
    /// Keep the exact position beside each table entry and count false hits.
    #[arg(long)]
    verify: bool,
    /// Search without transposition tables.
    #[arg(long)]
    no_tables: bool,
    /// When the mouse wins: `row8` or `escape`.
    #[arg(long, value_name = "RULE", default_value = "row8")]
    rule: String,
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
    /// When the mouse wins: `row8` or `escape`.
    #[arg(long, value_name = "RULE", default_value = "row8")]
    rule: String,
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
    /// When the mouse wins: `row8` or `escape`.
    #[arg(long, value_name = "RULE", default_value = "row8")]
    rule: String,
}

/// Run `boardlab mouse ...`.
pub fn run(args: MouseArgs, out: &Output) -> anyhow::Result<ExitCode> {
    match args.command {
        MouseCommand::Solve(a) => solve::run(&a.start, a.single_thread, out),
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

/// Parse `row8` or `escape`.
pub fn parse_rule(s: &str) -> anyhow::Result<Rule> {
    s.parse::<Rule>().map_err(|e| anyhow!("--rule: {e}"))
}

/// Parse a position argument; `-` reads standard input.
pub fn parse_position(arg: &str) -> anyhow::Result<Position> {
    let text = if arg.trim() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading the position from standard input")?;
        s
    } else {
        arg.to_string()
    };
    text.parse::<Position>()
        .map_err(|e| anyhow!("bad position: {e}"))
}

/// Parse a whole number in `min..=max` for option `name`.
pub fn parse_int(name: &str, s: &str, min: i64, max: i64) -> anyhow::Result<i64> {
    let v: i64 = s
        .trim()
        .parse()
        .map_err(|_| anyhow!("{name}: '{s}' is not a whole number"))?;
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
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| anyhow!("--time: '{s}' is not a number of seconds"))?;
    if !(v > 0.0 && v <= 86_400.0) {
        bail!("--time must be more than 0 and at most 86400 seconds, got {s}");
    }
    Ok(Duration::from_secs_f64(v))
}

/// A duration in milliseconds with one decimal.
pub fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// The winner's name in a sentence.
pub fn winner_phrase(side: Side) -> &'static str {
    match side {
        Side::Mouse => "the mouse wins",
        Side::Cats => "the cats win",
    }
}

/// A game-theoretic value in words, seen from the side to move.
pub fn value_phrase(v: mousecats::Value, to_move: Side) -> String {
    let w = v.winner(to_move);
    if v.plies() == 0 {
        format!("the game is over: {}", winner_phrase(w))
    } else {
        format!("{} in {} plies", winner_phrase(w), v.plies())
    }
}

#[derive(Serialize)]
struct PerftJson {
    position: String,
    rule: String,
    depth: u32,
    count: u128,
    divide: Option<Vec<DivideJson>>,
    elapsed_ms: f64,
}

#[derive(Serialize)]
struct DivideJson {
    #[serde(rename = "move")]
    mv: String,
    count: u128,
}

fn run_perft(a: &PerftArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let depth = parse_int("perft depth", &a.depth, 0, i64::from(MAX_DEPTH))? as u32;
    let pos = match &a.position {
        Some(p) => parse_position(p)?,
        None => Position::start(),
    };
    let rule = parse_rule(&a.rule)?;
    let t0 = Instant::now();
    let count = if depth <= 6 {
        Some(u128::from(perft(&pos, depth, rule)))
    } else {
        perft_memo(&pos, depth, rule)
    }
    .ok_or_else(|| anyhow!("perft {depth}: the count does not fit in 128 bits"))?;
    let divide = if a.divide {
        Some(
            perft_divide(&pos, depth, rule)
                .ok_or_else(|| anyhow!("perft {depth}: the count does not fit in 128 bits"))?,
        )
    } else {
        None
    };
    let elapsed = t0.elapsed();
    if out.json {
        out.print_json(&PerftJson {
            position: pos.to_string(),
            rule: rule.to_string(),
            depth,
            count,
            divide: divide.map(|d| {
                d.into_iter()
                    .map(|(m, c)| DivideJson {
                        mv: m.to_string(),
                        count: c,
                    })
                    .collect()
            }),
            elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        })?;
    } else {
        if let Some(d) = &divide {
            for (m, c) in d {
                println!("{m}: {}", commas(*c));
            }
        }
        println!(
            "perft {depth}: {} ({} rule, from {pos}) in {}",
            commas(count),
            rule,
            millis(elapsed)
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct ShowJson {
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
    let pos = parse_position(&a.position)?;
    let rule = parse_rule(&a.rule)?;
    let winner = pos.outcome(rule);
    let moves: Vec<String> = pos
        .legal_moves(rule)
        .iter()
        .map(ToString::to_string)
        .collect();
    if out.json {
        out.print_json(&ShowJson {
            position: pos.to_string(),
            diagram: pos.diagram(),
            hash: format!("{:016x}", pos.hash()),
            lock: format!("{:08x}", pos.lock()),
            rule: rule.to_string(),
            turn: pos.turn().to_string(),
            winner: winner.map(|w| w.to_string()),
            legal_moves: moves,
        })?;
    } else {
        println!("{}", pos.diagram());
        println!("{pos}");
        println!("hash {:016x}  lock {:08x}", pos.hash(), pos.lock());
        match winner {
            Some(w) => println!("game over: {}", winner_phrase(w)),
            None => println!("{} to move: {}", pos.turn(), moves.join(" ")),
        }
    }
    Ok(ExitCode::SUCCESS)
}
