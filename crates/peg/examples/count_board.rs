//! Count a built-in board from its standard start and print the table, the time and the memory (a quick check
//! while developing; the benchmark is `benches/enumerate.rs`). Set `PEG_DEBUG=1` for per-level phase timings.
//!
//! `cargo run --release -p peg --example count_board -- english [--finish d4] [--levels N]`
#![allow(clippy::unwrap_used)]

use std::time::Instant;

fn rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<u64>().ok())
            })
        })
        .unwrap_or(0)
        / 1024
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board = peg::Board::builtin(args.get(1).map_or("english", String::as_str)).unwrap();
    let finish = args
        .iter()
        .position(|a| a == "--finish")
        .map(|i| args[i + 1].as_str());
    let p = peg::Problem::from_names(board, &[], finish).unwrap();
    let levels = args
        .iter()
        .position(|a| a == "--levels")
        .map(|i| args[i + 1].parse::<usize>().unwrap());
    let t = Instant::now();
    let progress = |l: &peg::Level| {
        eprintln!(
            "{:>2} pegs: {:>9} classes, {:>7.3}s, RSS {} MiB",
            l.pegs,
            l.classes,
            t.elapsed().as_secs_f64(),
            rss_mib()
        );
    };
    let stats = |s: &peg::enumerate::StepStats| {
        eprintln!(
            "   {} pegs: {} sources, {} records, {} rounds: expand {:.3}s merge {:.3}s ({:.1} ns a record) freeze {:.3}s total {:.3}s",
            s.pegs,
            s.sources,
            s.records,
            s.rounds,
            s.expand_secs,
            s.merge_secs,
            s.merge_secs * 1e9 / s.records.max(1) as f64,
            s.freeze_secs,
            s.total_secs
        );
    };
    let debug = std::env::var_os("PEG_DEBUG").is_some();
    let opts = peg::enumerate::Options {
        progress: Some(&progress),
        stats: debug.then_some(&stats as &(dyn Fn(&peg::enumerate::StepStats) + Sync)),
        max_levels: levels,
        ..peg::enumerate::Options::default()
    };
    let c = peg::enumerate::count(&p, &opts).unwrap();
    let el = t.elapsed();
    for l in &c.levels {
        println!(
            "{:>2} {:>10} {:>10} {:>28} {:>28} {:>9} {:?}",
            l.pegs,
            l.positions,
            l.classes,
            l.paths_full,
            l.paths_normal,
            l.dead_end_classes,
            l.finishable_classes
        );
    }
    println!("{:?}", c.totals);
    println!("time {el:?}");
}
