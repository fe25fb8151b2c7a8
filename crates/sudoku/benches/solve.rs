//! Solving whole data files, single thread: with a uniqueness check (counting up to 2 solutions, group
//! `count_to_2`) and stopping at the first solution (group `first_solution`), on the sets of the side-by-side
//! comparison with tdoku in the README.
//!
//! Reads `../shared/sudoku-data` beside the repository and skips (with a notice) when it is absent. Throughput
//! is in puzzles per second ("elem/s"). Run with `cargo bench -p sudoku --bench solve`; pass a filter such as
//! `17_clue` to run one set.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku::{Grid, PuzzleReader};

/// (bench name, file)
const SETS: &[(&str, &str)] = &[
    ("17_clue", "puzzles2_17_clue"),
    ("top1465", "puzzles3_magictour_top1465"),
    ("forum_hardest_1905_11+", "puzzles5_forum_hardest_1905_11+"),
    ("forum_hardest_1106", "puzzles6_forum_hardest_1106"),
    ("serg_benchmark", "puzzles7_serg_benchmark"),
    ("unbiased_first1000", "puzzles1_unbiased_first1000"),
    ("norvig_top95", "norvig_top95.txt"),
];

fn load(file: &str) -> Option<Vec<Grid>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sudoku-data");
    let text = match std::fs::read_to_string(dir.join(file)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "NOTICE: skipping {file}: cannot read it in {} ({e})",
                dir.display()
            );
            return None;
        }
    };
    let mut reader = PuzzleReader::new();
    let mut out = Vec::new();
    for line in text.lines() {
        for read in reader.read_line(line) {
            match read {
                Ok(p) => out.push(p.grid),
                Err(e) => {
                    eprintln!("NOTICE: skipping {file}: {e}");
                    return None;
                }
            }
        }
    }
    Some(out)
}

fn solve_sets(c: &mut Criterion) {
    let sets: Vec<(&str, Vec<Grid>)> = SETS
        .iter()
        .filter_map(|&(name, file)| Some((name, load(file)?)))
        .collect();
    for (group_name, limit) in [("count_to_2", 2), ("first_solution", 1)] {
        let mut group = c.benchmark_group(group_name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(5));
        for (name, puzzles) in &sets {
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            group.bench_function(*name, |b| {
                b.iter(|| {
                    let mut total = 0u64;
                    for p in puzzles {
                        total += sudoku::count_solutions(black_box(p), limit);
                    }
                    black_box(total)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solve_sets);
criterion_main!(benches);
