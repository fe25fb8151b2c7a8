//! Generator throughput: graded unique puzzles per second at each level, on all cores (rayon), 180° symmetry.
//! Each iteration makes a fresh batch (new seed), so the figure is an average over many puzzles. Only real puzzles
//! count: a slot whose `generate` fails (no puzzle within the generator's budget) tries the next index of its slot
//! until it gets one, so the time of failures is paid and nothing is counted for them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // bench code: a failed unwrap is a broken bench

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use sudoku::generate::{Difficulty, GenerateOptions, Symmetry, generate};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    let seed = AtomicU64::new(1);
    for level in Difficulty::ALL {
        let batch: u64 = if level == Difficulty::Expert { 16 } else { 256 };
        group.throughput(Throughput::Elements(batch));
        group.bench_function(format!("{level}_180_all_cores"), |b| {
            b.iter(|| {
                let s = seed.fetch_add(1, Ordering::Relaxed);
                let opts = GenerateOptions {
                    difficulty: level,
                    symmetry: Symmetry::Rotate180,
                };
                let clues: usize = (0..batch)
                    .into_par_iter()
                    .map(|i| {
                        (0..8)
                            .find_map(|k| generate(&opts, s, i + k * batch).ok())
                            .expect("eight failures in a row: the generator is broken")
                            .clues
                    })
                    .sum();
                black_box(clues)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
