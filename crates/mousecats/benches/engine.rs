//! Benchmarks of the issues' targets: the exact solve (8x8, and other board sizes level by level),
//! alpha-beta nodes per second, and how much the transposition tables cut the nodes of a depth-12 search
//! from the start. Run with `cargo bench -p mousecats --bench engine`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use mousecats::{
    BoardSize, Engine, EngineConfig, LayerOptions, Position, Rule, SizedPosition, Solution,
    TableConfig, perft, perft_memo, reachable_positions, solve_layers,
};

fn engine(tables: Option<TableConfig>) -> Engine<Position> {
    Engine::new(EngineConfig {
        rule: Rule::FarRow,
        tables,
    })
    .unwrap()
}

fn solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(30);
    g.throughput(Throughput::Elements(mousecats::solve::STATES as u64));
    g.bench_function("all_states_parallel", |b| {
        b.iter(|| black_box(Solution::solve_with(Rule::FarRow, true)))
    });
    g.bench_function("all_states_single_thread", |b| {
        b.iter(|| black_box(Solution::solve_with(Rule::FarRow, false)))
    });
    g.bench_function("all_states_escape_rule", |b| {
        b.iter(|| black_box(Solution::solve_with(Rule::Escape, true)))
    });
    g.finish();
    let mut g = c.benchmark_group("reachable");
    g.bench_function("from_start", |b| {
        b.iter(|| black_box(reachable_positions(&Position::start(), Rule::FarRow)))
    });
    g.finish();
}

/// Whole boards solved level by level under gilith/solve's region rule: the value of the start, every
/// state's count and the reachable positions (`mouse solve --size N --rule region`).
fn solve_sizes(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve_sizes");
    g.sample_size(10);
    for n in [6, 8, 10] {
        let start = SizedPosition::start(BoardSize::new(n).unwrap());
        let options = LayerOptions {
            parallel: true,
            ..LayerOptions::default()
        };
        g.throughput(Throughput::Elements(
            mousecats::Layout::of(start.size()).states() as u64,
        ));
        g.bench_function(format!("{n}x{n}_region"), |b| {
            b.iter(|| black_box(solve_layers(&start, Rule::Region, &options).map(|r| r.value)))
        });
    }
    g.finish();
}

/// A fresh engine per iteration (made outside the timing), searching `pos` to `depth`; throughput is in
/// nodes, so criterion prints nodes per second.
fn bench_search(
    c: &mut Criterion,
    group: &str,
    name: &str,
    pos: Position,
    depth: u8,
    tables: Option<TableConfig>,
) {
    let nodes = engine(tables).search(&pos, depth, None).nodes;
    eprintln!("{group}/{name}: {nodes} nodes per search");
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(name, |b| {
        b.iter_batched_ref(
            || engine(tables),
            |e| {
                let r = e.search(&pos, depth, None);
                assert_eq!(r.nodes, nodes);
                black_box(r.best_move)
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

fn alphabeta(c: &mut Criterion) {
    let start = Position::start();
    // Ply 8 of a perfect game (the cats win in 36 more plies).
    let middle: Position = "mouse=G5 cats=C5,E7,D8,H8 turn=mouse".parse().unwrap();
    let t18 = Some(TableConfig::default());
    bench_search(
        c,
        "alphabeta_nps",
        "start_depth16_no_tables",
        start,
        16,
        None,
    );
    bench_search(
        c,
        "alphabeta_nps",
        "middle_depth14_no_tables",
        middle,
        14,
        None,
    );
    bench_search(
        c,
        "alphabeta_nps",
        "start_depth28_tables_2^18",
        start,
        28,
        t18,
    );
    bench_search(
        c,
        "alphabeta_nps",
        "middle_depth24_tables_2^18",
        middle,
        24,
        t18,
    );
    bench_search(
        c,
        "alphabeta_nps",
        "start_depth24_tables_c64",
        start,
        24,
        Some(TableConfig::C64),
    );
}

fn table_cut(c: &mut Criterion) {
    let start = Position::start();
    let without = engine(None).search(&start, 12, None).nodes;
    let with = engine(Some(TableConfig::default()))
        .search(&start, 12, None)
        .nodes;
    eprintln!(
        "tables_cut/depth12: {with} nodes with tables, {without} without: {:.1}% fewer",
        100.0 * (1.0 - with as f64 / without as f64)
    );
    bench_search(c, "tables_cut", "depth12_without_tables", start, 12, None);
    bench_search(
        c,
        "tables_cut",
        "depth12_with_tables_2^18",
        start,
        12,
        Some(TableConfig::default()),
    );
}

fn perft_bench(c: &mut Criterion) {
    let start = Position::start();
    let mut g = c.benchmark_group("perft");
    g.sample_size(20);
    g.bench_function("plain_depth9", |b| {
        b.iter(|| black_box(perft(&start, 9, Rule::FarRow)))
    });
    g.bench_function("memo_depth57_whole_tree", |b| {
        b.iter(|| black_box(perft_memo(&start, 57, Rule::FarRow)))
    });
    g.finish();
}

criterion_group!(
    benches,
    solve,
    alphabeta,
    table_cut,
    perft_bench,
    solve_sizes
);
criterion_main!(benches);
