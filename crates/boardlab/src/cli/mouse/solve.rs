//! `boardlab mouse solve`: the whole board solved level by level (two levels in memory), the start's
//! value and the figures of every state.

use crate::outln;
use std::process::ExitCode;

use anyhow::{anyhow, bail};
use mousecats::solve::human_bytes;
use mousecats::{
    LayerOptions, Side, SideCounts, SolveProgress, layered_memory_bytes, solve_layers,
};
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
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    winner: String,
    plies: u8,
}

#[derive(Serialize)]
struct SolveJson {
    size: u8,
    start: String,
    rule: String,
    first: String,
    winner: String,
    plies: u8,
    value_keeping_moves: Vec<String>,
    first_moves: Vec<MoveJson>,
    reachable_positions: u64,
    states: u128,
    cat_sets: u64,
    mouse_squares: u8,
    levels: usize,
    widest_level_sets: u64,
    mouse_to_move: SideJson,
    cats_to_move: SideJson,
    solve_ms: f64,
    reachable_ms: f64,
    memory_bytes: u64,
    peak_rss_bytes: Option<u64>,
    threads: usize,
}

/// The process's peak resident memory, from `/proc/self/status` (Linux only).
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The memory the system has available, from `/proc/meminfo` (Linux only).
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn run(
    start: &StartArgs,
    single_thread: bool,
    max_memory: Option<u64>,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let s = start.parse()?;
    let (pos, rule, size) = (s.position, s.rule, s.size);
    let limit = match max_memory {
        Some(m) => Some(m),
        None => available_memory(),
    };
    let needed = layered_memory_bytes(size);
    if let Some(limit) = limit
        && needed > limit
    {
        let widest = mousecats::Layout::of(size).widest_level();
        bail!(
            "solving the {size} board needs about {} of memory (its widest level has {} cat sets), more than the {} {}; the mousecats README says how its levels would be spread over a cluster",
            human_bytes(needed),
            commas(widest),
            human_bytes(limit),
            if max_memory.is_some() {
                "allowed by --max-memory"
            } else {
                "available"
            }
        );
    }
    let layout = mousecats::Layout::of(size);
    let bar = out.progress(2 * layout.sets(), &format!("solving {size}"));
    let reach_start = layout.sets();
    let progress = |p: &SolveProgress| {
        let done = if p.phase == "solve" {
            p.sets_done
        } else {
            reach_start + p.sets_done * layout.sets() / p.sets.max(1)
        };
        bar.set_position(done);
        bar.set_message(format!(
            "{size} {}: level {}/{}",
            if p.phase == "solve" {
                "solving"
            } else {
                "counting reachable positions"
            },
            p.levels_done,
            p.levels
        ));
    };
    let run = || {
        solve_layers(
            &pos,
            rule,
            &LayerOptions {
                parallel: !single_thread,
                memory_limit: None,
                progress: Some(&progress),
            },
        )
    };
    let report = run().map_err(|e| anyhow!("{e}"))?;
    bar.finish_and_clear();
    let value = report.value;
    let winner = value.winner(pos.turn());
    let best = report
        .first_moves
        .iter()
        .map(|&(_, v)| v)
        .max_by_key(|v| match v {
            mousecats::Value::Win(n) => (1, -i32::from(*n)),
            mousecats::Value::Loss(n) => (0, i32::from(*n)),
        });
    let keep: Vec<String> = report
        .first_moves
        .iter()
        .filter(|&&(_, v)| Some(v) == best)
        .map(|(m, _)| m.to_string())
        .collect();
    let threads = if single_thread {
        1
    } else {
        rayon::current_num_threads()
    };
    let counts = report.counts;
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
    let mouse_squares = size.dark_squares() - size.cats();

    if out.json {
        out.print_json(&SolveJson {
            size: size.n(),
            start: pos.to_string(),
            rule: rule.to_string(),
            first: pos.turn().to_string(),
            winner: winner.to_string(),
            plies: value.plies(),
            value_keeping_moves: keep,
            first_moves: report
                .first_moves
                .iter()
                .map(|&(m, v)| MoveJson {
                    mv: m.to_string(),
                    winner: v.winner(pos.turn()).to_string(),
                    plies: v.plies(),
                })
                .collect(),
            reachable_positions: report.reachable,
            states: report.states,
            cat_sets: report.sets,
            mouse_squares,
            levels: report.levels,
            widest_level_sets: report.widest_level,
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
            solve_ms: report.solve_time.as_secs_f64() * 1000.0,
            reachable_ms: report.reach_time.as_secs_f64() * 1000.0,
            memory_bytes: report.peak_bytes,
            peak_rss_bytes: peak_rss(),
            threads,
        })?;
        return Ok(ExitCode::SUCCESS);
    }

    outln!(
        "Mouse & Cats on {size}, {rule} rule: mouse on {}, {} to move first",
        pos.mouse(),
        pos.turn()
    )?;
    outln!(
        "value: {} (perfect play by both sides)",
        value_phrase(value, pos.turn())
    )?;
    if !keep.is_empty() {
        outln!("value-keeping first moves: {}", keep.join(" "))?;
    }
    outln!(
        "positions reachable from the start: {}",
        commas(report.reachable)
    )?;
    outln!(
        "states: {} ({} cat sets x {} mouse squares x 2 sides to move), in {} levels of the cats' row sum, the widest {} sets",
        commas(report.states),
        commas(report.sets),
        mouse_squares,
        report.levels,
        commas(report.widest_level)
    )?;
    outln!(
        "  mouse to move: {} {}, {} {} (longest game {} plies)",
        winner_phrase(Side::Mouse),
        commas(mm),
        winner_phrase(Side::Cats),
        commas(mc),
        counts.mouse_to_move.longest
    )?;
    outln!(
        "  cats to move:  {} {}, {} {} (longest game {} plies)",
        winner_phrase(Side::Mouse),
        commas(cm),
        winner_phrase(Side::Cats),
        commas(cc),
        counts.cats_to_move.longest
    )?;
    outln!(
        "solved in {} on {} thread{}; reachable positions counted in {}",
        millis(report.solve_time),
        threads,
        if threads == 1 { "" } else { "s" },
        millis(report.reach_time)
    )?;
    outln!(
        "memory: {} for two levels at a time{}",
        human_bytes(report.peak_bytes),
        peak_rss().map_or(String::new(), |r| format!(
            ", {} at the peak for the whole process",
            human_bytes(r)
        ))
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use crate::cli::peg::parse_size;

    /// `--max-memory` reads the same in `mouse solve` as in `mouse analyse`, `mouse perft` and `peg`: a bare
    /// number is in MiB.
    #[test]
    fn memory_amounts() {
        assert_eq!(parse_size("16G").ok(), Some(16 << 30));
        assert_eq!(parse_size("500m").ok(), Some(500 << 20));
        assert_eq!(parse_size("1.5GiB").ok(), Some(3 << 29));
        assert_eq!(parse_size("1").ok(), Some(1 << 20));
        assert_eq!(parse_size("4096B").ok(), Some(4096));
        for bad in ["", "G", "-1G", "0", "lots", "1e30T", "é", "nanG"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
