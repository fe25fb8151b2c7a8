//! The memoised perft within a memory bound and with a stop flag: the same counts as without a bound, and a
//! prompt stop.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use mousecats::perft::{PerftError, PerftOptions, perft_divide_with, perft_with};
use mousecats::{BoardSize, Position, Rule, SizedPosition, perft, perft_divide, perft_memo};

#[test]
fn a_bounded_table_gives_the_same_counts() {
    let start = Position::start();
    // Once the table is full the count goes on without remembering more positions: exact, but as slow as
    // plain recursion below the positions kept, so each bound counts to a depth it can still reach quickly.
    for (max_memory, deep) in [(0, 8), (64 << 10, 10), (256 << 10, 12), (1 << 20, 14)] {
        let opts = PerftOptions {
            max_memory,
            cancel: None,
        };
        for depth in [0, 3, 5, 7] {
            assert_eq!(
                perft_with(&start, depth, Rule::FarRow, &opts),
                Ok(u128::from(perft(&start, depth, Rule::FarRow))),
                "depth {depth}, {max_memory} bytes"
            );
        }
        assert_eq!(
            perft_with(&start, deep, Rule::FarRow, &opts).ok(),
            perft_memo(&start, deep, Rule::FarRow),
            "depth {deep}, {max_memory} bytes"
        );
        assert_eq!(
            perft_divide_with(&start, deep, Rule::Escape, &opts).ok(),
            perft_divide(&start, deep, Rule::Escape),
            "divide, depth {deep}, {max_memory} bytes"
        );
    }
    let six = SizedPosition::start(BoardSize::new(6).expect("6x6"));
    let small = PerftOptions {
        max_memory: 1 << 20,
        cancel: None,
    };
    assert_eq!(
        perft_with(&six, 12, Rule::FarRow, &small).ok(),
        perft_memo(&six, 12, Rule::FarRow)
    );
}

#[test]
fn a_set_flag_stops_the_count_at_once() {
    let stop = AtomicBool::new(true);
    let opts = PerftOptions {
        max_memory: 1 << 20,
        cancel: Some(&stop),
    };
    let ten = SizedPosition::start(BoardSize::new(10).expect("10x10"));
    let t = Instant::now();
    assert_eq!(
        perft_with(&ten, 64, Rule::FarRow, &opts),
        Err(PerftError::Cancelled)
    );
    assert!(t.elapsed() < Duration::from_secs(1));
    // Set from another thread while it runs.
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            perft_with(
                &ten,
                64,
                Rule::FarRow,
                &PerftOptions {
                    max_memory: 1 << 20,
                    cancel: Some(&stop),
                },
            )
        });
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(h.join().expect("join"), Err(PerftError::Cancelled));
        assert!(t.elapsed() < Duration::from_secs(1));
    });
}
