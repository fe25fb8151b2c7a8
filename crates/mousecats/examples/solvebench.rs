#![allow(missing_docs, clippy::unwrap_used)]
use mousecats::{Position, Rule, Solution, perft, perft_memo, reachable_positions};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args[1].as_str();
    let n: usize = args[2].parse().unwrap();
    let mut acc = 0u64;
    for _ in 0..n {
        match what {
            "solve1" => acc += Solution::solve_with(Rule::FarRow, false).memory_bytes() as u64,
            "solve2" => acc += Solution::solve_with(Rule::FarRow, true).memory_bytes() as u64,
            "escape" => acc += Solution::solve_with(Rule::Escape, true).memory_bytes() as u64,
            "reach" => acc += reachable_positions(&Position::start(), Rule::FarRow),
            "perft" => acc += perft(&Position::start(), 9, Rule::FarRow),
            "memo" => acc += perft_memo(&Position::start(), 57, Rule::FarRow).unwrap() as u64,
            _ => panic!(),
        }
    }
    println!("{acc}");
}
