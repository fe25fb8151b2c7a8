//! Benchmarks of the peg solitaire engine: the whole English table, small boards, and solver questions.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use peg::enumerate::{self, Options};
use peg::{Board, Finish, Problem, Solver};

fn english_table(c: &mut Criterion) {
    let mut g = c.benchmark_group("enumerate");
    g.sample_size(10);
    // Every level, both path counts, dead ends (the benchmark).
    let p = Problem::standard(Board::english());
    g.bench_function("english_whole_table", |b| {
        b.iter(|| enumerate::count(&p, &Options::default()).unwrap())
    });
    // The same with the finish on the centre: also the positions that can still finish.
    let d4 = Problem::from_names(Board::english(), &[], Some("d4")).unwrap();
    g.bench_function("english_whole_table_finish_d4", |b| {
        b.iter(|| enumerate::count(&d4, &Options::default()).unwrap())
    });
    let t = Problem::standard(Board::builtin("triangle").unwrap());
    g.bench_function("triangle_whole_table", |b| {
        b.iter(|| enumerate::count(&t, &Options::default()).unwrap())
    });
    g.finish();
}

fn solver(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    let b = Board::english();
    let d4 = b.parse_hole("d4").unwrap();
    g.bench_function("english_central_game_fresh_solver", |bench| {
        bench.iter(|| {
            let mut s = Solver::new(&b, Finish::Hole(d4));
            s.solve(b.default_start()).unwrap().unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, english_table, solver);
criterion_main!(benches);
