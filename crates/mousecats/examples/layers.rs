//! Solve one board level by level and print the figures: `cargo run --release -p mousecats --example
//! layers -- 10 region`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use mousecats::{BoardSize, LayerOptions, Rule, SizedPosition, solve_layers};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: BoardSize = args.get(1).map_or("8", String::as_str).parse().unwrap();
    let rule: Rule = args
        .get(2)
        .map_or("region", String::as_str)
        .parse()
        .unwrap();
    let start = SizedPosition::start(size);
    let progress = |p: &mousecats::SolveProgress| {
        eprint!("\r{} {}/{}   ", p.phase, p.levels_done, p.levels);
    };
    let r = solve_layers(
        &start,
        rule,
        &LayerOptions {
            parallel: true,
            memory_limit: None,
            progress: Some(&progress),
        },
    )
    .unwrap();
    eprintln!();
    println!(
        "{size} {rule}: {} ({}), reachable {}, states {}, counts {:?}, peak {} B, solve {:?}, reach {:?}",
        r.value,
        r.value.winner(start.turn()),
        r.reachable,
        r.states,
        r.counts,
        r.peak_bytes,
        r.solve_time,
        r.reach_time
    );
}
