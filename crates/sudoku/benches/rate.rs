//! Rater throughput on the qqwing sets of `../shared/sudoku-data/generated` (1000 puzzles each): puzzles per
//! second, each puzzle rated from its clues to the end (or until stuck); on one thread, and on all cores (rayon).

#![allow(clippy::unwrap_used, clippy::expect_used)] // bench code: a failed unwrap is a broken bench

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use sudoku::logic::{self, Candidates, Options};

fn load(name: &str) -> Option<Vec<[u8; 81]>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/sudoku-data/generated")
        .join(name);
    let text = std::fs::read_to_string(p).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && l.len() >= 81)
            .map(|l| {
                let mut v = [0u8; 81];
                for (x, ch) in v.iter_mut().zip(l.bytes()) {
                    *x = if (b'1'..=b'9').contains(&ch) {
                        ch - b'0'
                    } else {
                        0
                    };
                }
                v
            })
            .collect(),
    )
}

fn rate(c: &mut Criterion) {
    let mut group = c.benchmark_group("rate");
    for level in ["simple", "easy", "intermediate", "expert"] {
        let Some(puzzles) = load(&format!("qqwing_{level}_1000.txt")) else {
            eprintln!("skipped: ../shared/sudoku-data is absent");
            return;
        };
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(format!("qqwing_{level}"), |b| {
            b.iter(|| {
                let mut solved = 0;
                for p in &puzzles {
                    let out =
                        logic::solve(Candidates::from_values(p).unwrap(), &Options::default());
                    solved += usize::from(out.is_solved());
                }
                black_box(solved)
            })
        });
        group.bench_function(format!("qqwing_{level}_all_cores"), |b| {
            b.iter(|| {
                let solved: usize = puzzles
                    .par_iter()
                    .map(|p| {
                        usize::from(
                            logic::solve(Candidates::from_values(p).unwrap(), &Options::default())
                                .is_solved(),
                        )
                    })
                    .sum();
                black_box(solved)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = rate
}
criterion_main!(benches);
