//! The finishable set and the solution counts of a built-in board from its standard start (a quick check while
//! developing; `boardlab peg solutions` is the command).
//!
//! `cargo run --release -p peg --example solutions -- english [--finish d4] [--start c1] [--set-only]
//! [--no-jumps]` (`--no-jumps`: the set built without the jumps kept for the counts)
#![allow(clippy::unwrap_used)]

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board = peg::Board::builtin(args.get(1).map_or("english", String::as_str)).unwrap();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].as_str())
    };
    let starts: Vec<&str> = opt("--start").into_iter().collect();
    let p = peg::Problem::from_names(board, &starts, opt("--finish")).unwrap();
    let stats = |s: &peg::enumerate::StepStats| {
        eprintln!(
            "   {} pegs: {} sources, {} records, next {} (expected {}), {} rounds: expand {:.3}s merge {:.3}s freeze {:.3}s total {:.3}s",
            s.pegs,
            s.sources,
            s.records,
            s.next_classes,
            s.expected,
            s.rounds,
            s.expand_secs,
            s.merge_secs,
            s.freeze_secs,
            s.total_secs
        );
    };
    let debug = std::env::var_os("PEG_DEBUG").is_some();
    let opts = peg::enumerate::Options {
        stats: debug.then_some(&stats as &(dyn Fn(&peg::enumerate::StepStats) + Sync)),
        ..peg::enumerate::Options::default()
    };
    let t = Instant::now();
    let f = if args.iter().any(|a| a == "--set-only" || a == "--no-jumps") {
        peg::Finishable::build(&p, &opts).unwrap()
    } else {
        peg::Finishable::build_for_solutions(&p, &opts).unwrap()
    };
    let t1 = t.elapsed();
    for l in f.levels() {
        eprintln!(
            "{:>2} pegs: {:>9} positions {:>8} classes",
            l.pegs, l.positions, l.classes
        );
    }
    eprintln!(
        "finishable: {} positions, {} classes, {} bytes; {:.3}s",
        f.positions(),
        f.classes(),
        f.bytes(),
        t1.as_secs_f64()
    );
    if args.iter().any(|a| a == "--set-only") {
        return;
    }
    let s = f.solutions(&opts).unwrap();
    eprintln!(
        "solutions: {} full, {} normal; counting {:.3}s, total {:.3}s",
        s.solutions_full,
        s.solutions_normal,
        (t.elapsed() - t1).as_secs_f64(),
        t.elapsed().as_secs_f64()
    );
}
