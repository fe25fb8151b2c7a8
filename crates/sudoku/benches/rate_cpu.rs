//! A quick, load-tolerant measure for tuning the rater: rates each qqwing set of `../shared/sudoku-data/generated`
//! on one thread and reports puzzles per second of this thread's CPU time (from `/proc/thread-self/schedstat`, so
//! other processes on a busy machine matter less than for wall time). The criterion bench `rate` gives the figures
//! of record. Skips sets that are absent. Usage: `cargo bench -p sudoku --bench rate_cpu [-- SUBSTRING]`.

use std::path::PathBuf;
use std::time::Instant;

use sudoku::logic::{self, Candidates, Options};

fn load(name: &str) -> Option<Vec<Candidates>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/sudoku-data/generated")
        .join(name);
    let Ok(text) = std::fs::read_to_string(&p) else {
        eprintln!("NOTICE: skipping {name}: not found at {}", p.display());
        return None;
    };
    let mut out = Vec::new();
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
    {
        let mut v = [0u8; 81];
        for (x, ch) in v.iter_mut().zip(l.bytes()) {
            *x = if (b'1'..=b'9').contains(&ch) {
                ch - b'0'
            } else {
                0
            };
        }
        if let Ok(s) = Candidates::from_values(&v) {
            out.push(s);
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
    for level in ["simple", "easy", "intermediate", "expert"] {
        if !filter.is_empty() && !filter.iter().any(|f| level.contains(f.as_str())) {
            continue;
        }
        let Some(puzzles) = load(&format!("qqwing_{level}_1000.txt")) else {
            continue;
        };
        let mut best_cpu = f64::MAX;
        let mut best_wall = f64::MAX;
        let mut solved = 0;
        // The best of several rounds: at least 3, and enough for about two seconds.
        let mut rounds = 0;
        let started = Instant::now();
        while rounds < 3 || (rounds < 40 && started.elapsed().as_secs_f64() < 2.0) {
            rounds += 1;
            let (c0, w0) = (cpu_ns(), Instant::now());
            solved = 0;
            for p in &puzzles {
                let out = logic::solve(std::hint::black_box(p.clone()), &Options::default());
                solved += usize::from(out.is_solved());
            }
            let wall = w0.elapsed().as_secs_f64();
            best_wall = best_wall.min(wall);
            if let (Some(a), Some(b)) = (c0, cpu_ns()) {
                best_cpu = best_cpu.min((b - a) as f64 * 1e-9);
            }
        }
        let n = puzzles.len() as f64;
        println!(
            "qqwing_{level:13} {:>9.0} puzzles/s (cpu) {:>9.0} puzzles/s (wall)  {solved} solved",
            n / best_cpu,
            n / best_wall,
        );
    }
}
