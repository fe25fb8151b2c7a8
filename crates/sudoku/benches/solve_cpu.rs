//! A quick, load-tolerant measure for tuning: solves each data file with a uniqueness check on one thread and
//! reports puzzles per second of this thread's CPU time (from `/proc/thread-self/schedstat`, so other processes
//! on a busy machine matter less than for wall time) and guesses per puzzle. The criterion bench `solve` gives
//! the figures of record. Skips files that are absent. Usage:
//! `cargo bench -p sudoku --bench solve_cpu [-- SUBSTRING]`.

use std::path::PathBuf;
use std::time::Instant;

use sudoku::{Grid, PuzzleReader};

const SETS: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "puzzles1_unbiased_first1000",
    "norvig_top95.txt",
];

fn load(file: &str) -> Option<Vec<Grid>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sudoku-data");
    let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
        eprintln!("NOTICE: skipping {file}: not found in {}", dir.display());
        return None;
    };
    let mut reader = PuzzleReader::new();
    let mut out = Vec::new();
    for line in text.lines() {
        for p in reader.read_line(line).flatten() {
            out.push(p.grid);
        }
    }
    Some(out)
}

/// This thread's CPU time in nanoseconds, if the kernel reports it.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for &file in SETS {
        if !filter.is_empty() && !filter.iter().any(|f| file.contains(f.as_str())) {
            continue;
        }
        let Some(puzzles) = load(file) else { continue };
        let mut best_cpu = f64::MAX;
        let mut best_wall = f64::MAX;
        let mut guesses = 0;
        // The best of several rounds: at least 5, and enough for about two seconds.
        let mut rounds = 0;
        let started = Instant::now();
        while rounds < 5 || (rounds < 40 && started.elapsed().as_secs_f64() < 2.0) {
            rounds += 1;
            let (c0, w0) = (cpu_ns(), Instant::now());
            guesses = 0;
            for p in &puzzles {
                let (_, stats) = sudoku::count_solutions_with_stats(std::hint::black_box(p), 2);
                guesses += stats.guesses;
            }
            let wall = w0.elapsed().as_secs_f64();
            best_wall = best_wall.min(wall);
            if let (Some(a), Some(b)) = (c0, cpu_ns()) {
                best_cpu = best_cpu.min((b - a) as f64 * 1e-9);
            }
        }
        let n = puzzles.len() as f64;
        println!(
            "{file:34} {:>9.0} puzzles/s (cpu) {:>9.0} puzzles/s (wall)  {:>7.2} guesses/puzzle",
            n / best_cpu,
            n / best_wall,
            guesses as f64 / n
        );
    }
}
