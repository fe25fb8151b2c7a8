//! The memoised perft within a memory bound and with a stop flag: the same counts as without a bound, and a
//! prompt stop.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use mousecats::perft::{PerftError, PerftOptions, perft_divide_with, perft_with};
use mousecats::{BoardSize, Position, Rule, SizedPosition, perft, perft_divide, perft_memo};

#[test]
fn a_bounded_table_gives_the_same_counts() {
    let start = Position::start();
    // Once the table is full, new counts overwrite old ones: exact, slower the smaller the table.
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
fn a_table_far_smaller_than_the_tree_overwrites_and_counts_the_same() {
    // 1 MiB holds about 17,000 slots, far fewer than the positions of depth 20 on 8x8, so counts are
    // overwritten many times over (about three times as slow as unbounded here, the same count).
    let start = Position::start();
    let opts = PerftOptions {
        max_memory: 1 << 20,
        cancel: None,
    };
    for (rule, depth) in [(Rule::FarRow, 20), (Rule::Escape, 18)] {
        assert_eq!(
            perft_with(&start, depth, rule, &opts).ok(),
            perft_memo(&start, depth, rule),
            "{rule}, depth {depth}"
        );
    }
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
