//! `boardlab mouse solve`.

use std::process::ExitCode;
use std::time::Instant;

use mousecats::solve::{CAT_SETS, MOUSE_SQUARES, STATES};
use mousecats::{SideCounts, Solution, reachable_positions};
use serde::Serialize;

use super::{StartArgs, commas, millis, value_phrase, winner_phrase};
use crate::output::Output;

#[derive(Serialize)]
struct SideJson {
    mouse_wins: u64,
    cats_win: u64,
    longest_game_plies: u8,
}

#[derive(Serialize)]
struct SolveJson {
    start: String,
    rule: String,
    first: String,
    winner: String,
    plies: u8,
    value_keeping_moves: Vec<String>,
    reachable_positions: u64,
    states: usize,
    mouse_to_move: SideJson,
    cats_to_move: SideJson,
    solve_ms: f64,
    reachable_ms: f64,
    table_bytes: usize,
    peak_rss_bytes: Option<u64>,
    threads: usize,
}

/// The process's peak resident memory, from `/proc/self/status` (Linux only).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn run(start: &StartArgs, single_thread: bool, out: &Output) -> anyhow::Result<ExitCode> {
    let (pos, rule) = start.parse()?;
    let t0 = Instant::now();
    let solution = Solution::solve_with(rule, !single_thread);
    let solve_time = t0.elapsed();
    let t1 = Instant::now();
    let reachable = reachable_positions(&pos, rule);
    let reachable_time = t1.elapsed();
    let value = solution.value(&pos);
    let winner = value.winner(pos.turn());
    let keep: Vec<String> = solution
        .value_keeping_moves(&pos)
        .iter()
        .map(ToString::to_string)
        .collect();
    let counts = solution.counts();
    let threads = if single_thread {
        1
    } else {
        rayon::current_num_threads()
    };
    // From each side-to-move's counts, who wins.
    let split = |c: &SideCounts, mouse_to_move: bool| -> (u64, u64) {
        if mouse_to_move {
            (c.wins, c.losses)
        } else {
            (c.losses, c.wins)
        }
    };
    let (mm, mc) = split(&counts.mouse_to_move, true);
    let (cm, cc) = split(&counts.cats_to_move, false);

    if out.json {
        out.print_json(&SolveJson {
            start: pos.to_string(),
            rule: rule.to_string(),
            first: pos.turn().to_string(),
            winner: winner.to_string(),
            plies: value.plies(),
            value_keeping_moves: keep,
            reachable_positions: reachable,
            states: STATES,
            mouse_to_move: SideJson {
                mouse_wins: mm,
                cats_win: mc,
                longest_game_plies: counts.mouse_to_move.longest,
            },
            cats_to_move: SideJson {
                mouse_wins: cm,
                cats_win: cc,
                longest_game_plies: counts.cats_to_move.longest,
            },
            solve_ms: solve_time.as_secs_f64() * 1000.0,
            reachable_ms: reachable_time.as_secs_f64() * 1000.0,
            table_bytes: solution.memory_bytes(),
            peak_rss_bytes: peak_rss(),
            threads,
        })?;
        return Ok(ExitCode::SUCCESS);
    }

    println!(
        "Mouse & Cats, {rule} rule: mouse on {}, {} to move first",
        pos.mouse(),
        pos.turn()
    );
    println!(
        "value: {} (perfect play by both sides)",
        value_phrase(value, pos.turn())
    );
    if !keep.is_empty() {
        println!("value-keeping first moves: {}", keep.join(" "));
    }
    println!(
        "positions reachable from the start: {}",
        commas(reachable as u128)
    );
    println!(
        "states: {} ({} cat sets x {} mouse squares x 2 sides to move)",
        commas(STATES as u128),
        commas(CAT_SETS as u128),
        MOUSE_SQUARES
    );
    println!(
        "  mouse to move: {} {}, {} {} (longest game {} plies)",
        winner_phrase(mousecats::Side::Mouse),
        commas(mm),
        winner_phrase(mousecats::Side::Cats),
        commas(mc),
        counts.mouse_to_move.longest
    );
    println!(
        "  cats to move:  {} {}, {} {} (longest game {} plies)",
        winner_phrase(mousecats::Side::Mouse),
        commas(cm),
        winner_phrase(mousecats::Side::Cats),
        commas(cc),
        counts.cats_to_move.longest
    );
    println!(
        "solved in {} on {} thread{} (table {} bytes); reachable positions counted in {}",
        millis(solve_time),
        threads,
        if threads == 1 { "" } else { "s" },
        commas(solution.memory_bytes() as u128),
        millis(reachable_time)
    );
    if let Some(rss) = peak_rss() {
        println!(
            "peak memory of this process: {:.1} MiB",
            rss as f64 / 1048576.0
        );
    }
    Ok(ExitCode::SUCCESS)
}
