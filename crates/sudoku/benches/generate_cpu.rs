//! A quick, load-tolerant measure for tuning the generator: makes puzzles of each level (180° symmetry) on one
//! thread and reports puzzles per second of this thread's CPU time (from `/proc/thread-self/schedstat`), with the
//! grids and removal passes each puzzle took. The criterion bench `generate` gives the figures of record (both
//! cores). Usage: `cargo bench -p sudoku --bench generate_cpu [-- LEVEL] [--count N] [--symmetry S]`.

use std::time::Instant;

use sudoku::generate::{Difficulty, GenerateOptions, Symmetry, generate};

/// This thread's CPU time in nanoseconds, if the kernel reports it.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut count = 400u64;
    let mut symmetry = Symmetry::Rotate180;
    let mut filter = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--count" => {
                count = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(count);
                i += 1;
            }
            "--symmetry" => {
                symmetry = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(symmetry);
                i += 1;
            }
            a if a.starts_with("--") => {}
            a => filter.push(a.to_string()),
        }
        i += 1;
    }
    for level in Difficulty::ALL {
        if !filter.is_empty() && !filter.iter().any(|f| level.name().contains(f.as_str())) {
            continue;
        }
        let n = if level == Difficulty::Expert {
            (count / 8).max(1)
        } else {
            count
        };
        let opts = GenerateOptions {
            difficulty: level,
            symmetry,
        };
        let (c0, w0) = (cpu_ns(), Instant::now());
        let (mut made, mut failed, mut grids, mut passes, mut clues) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        for index in 0..n {
            match generate(&opts, 7, index) {
                Ok(g) => {
                    made += 1;
                    grids += u64::from(g.grids);
                    passes += u64::from(g.passes);
                    clues += g.clues as u64;
                }
                Err(_) => failed += 1,
            }
        }
        let wall = w0.elapsed().as_secs_f64();
        let cpu = match (c0, cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
            _ => wall,
        };
        let per = |x: u64| x as f64 / made.max(1) as f64;
        println!(
            "{:9} {symmetry:>8} {:>8.0} puzzles/s (cpu) {:>8.0} (wall)  {made} made, {failed} failed, {:.2} grids, \
             {:.2} passes, {:.1} clues per puzzle",
            level.name(),
            made as f64 / cpu,
            made as f64 / wall,
            per(grids),
            per(passes),
            per(clues),
        );
    }
}
