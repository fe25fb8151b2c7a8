//! The memoised perft within a memory bound and with a stop flag: the same counts as without a bound, and a
//! prompt stop.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use mousecats::perft::{PerftError, PerftOptions, perft_divide_with, perft_with};
use mousecats::{BoardSize, Position, Rule, SizedPosition, perft, perft_divide, perft_memo};

#[test]
fn a_bounded_table_gives_the_same_counts() {
    let start = Position::start();
    for max_memory in [0, 1 << 10, 1 << 16, 1 << 20] {
        let opts = PerftOptions {
            max_memory,
            cancel: None,
        };
        for depth in [0, 3, 5, 7, 9] {
            assert_eq!(
                perft_with(&start, depth, Rule::FarRow, &opts),
                Ok(u128::from(perft(&start, depth, Rule::FarRow))),
                "depth {depth}, {max_memory} bytes"
            );
        }
        for depth in [14, 20] {
            assert_eq!(
                perft_with(&start, depth, Rule::FarRow, &opts).ok(),
                perft_memo(&start, depth, Rule::FarRow),
                "depth {depth}, {max_memory} bytes"
            );
        }
        assert_eq!(
            perft_divide_with(&start, 12, Rule::Escape, &opts).ok(),
            perft_divide(&start, 12, Rule::Escape),
        );
    }
    let six = SizedPosition::start(BoardSize::new(6).expect("6x6"));
    let small = PerftOptions {
        max_memory: 4096,
        cancel: None,
    };
    assert_eq!(
        perft_with(&six, 16, Rule::FarRow, &small).ok(),
        perft_memo(&six, 16, Rule::FarRow)
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
