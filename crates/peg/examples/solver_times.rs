//! Worst-case timing of solver questions on random English positions, with the search alone and with the
//! complete table (a development check; figures for the issue come from the benches).
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use peg::{Board, Finish, Position, Solver};

fn main() {
    let b = Board::english();
    let d4 = b.parse_hole("d4").unwrap();
    let t = Instant::now();
    let mut complete = Solver::complete(&b, Finish::Hole(d4), 1 << 30).unwrap();
    println!("complete table built in {:?}", t.elapsed());
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut worst, mut total, n) = (0.0f64, 0.0, 20000);
    let mut yes = 0;
    for i in 0..n {
        let pos = if i % 2 == 0 {
            let mut pos = b.default_start();
            for _ in 0..rnd() % 31 {
                let moves = b.legal_moves(pos);
                if moves.is_empty() {
                    break;
                }
                pos = pos.apply(moves[(rnd() % moves.len() as u64) as usize]);
            }
            pos
        } else {
            Position::from_bits(rnd() & b.full().bits())
        };
        let t = Instant::now();
        let r = complete.solve(pos).unwrap();
        let e = t.elapsed().as_secs_f64();
        yes += usize::from(r.is_some());
        total += e;
        worst = worst.max(e);
    }
    println!(
        "complete table: {n} questions ({yes} finishable), mean {:.1} us, worst {:.1} us",
        total / n as f64 * 1e6,
        worst * 1e6
    );
}
