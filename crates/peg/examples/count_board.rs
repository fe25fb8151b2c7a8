//! Count a built-in board from its standard start and print the table and the time (a quick check while
//! developing; the benchmark is `benches/enumerate.rs`). Set `PEG_DEBUG=1` for per-level phase timings.
//!
//! `cargo run --release -p peg --example count_board -- english`
#![allow(clippy::unwrap_used)]

use std::time::Instant;

fn main() {
    let board = std::env::args().nth(1).unwrap_or_else(|| "english".into());
    let p = peg::Problem::standard(peg::Board::builtin(&board).unwrap());
    let t = Instant::now();
    let c = peg::enumerate::count(&p, &peg::enumerate::Options::default()).unwrap();
    let el = t.elapsed();
    for l in &c.levels {
        println!(
            "{:>2} {:>10} {:>10} {:>28} {:>28} {:>9}",
            l.pegs, l.positions, l.classes, l.paths_full, l.paths_normal, l.dead_end_classes
        );
    }
    println!("{:?}", c.totals);
    println!("time {el:?}");
}
