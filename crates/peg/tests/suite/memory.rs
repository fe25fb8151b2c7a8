//! Counts under a memory limit that binds the merge's rounds: where the limit has no room for rounds as big
//! as the level being built, the rounds shrink (down to a quarter of the level first), and the count is the
//! same.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;

use peg::enumerate::{self, Options, StepStats};
use peg::{Board, Count, Problem};

/// Levels of the French board counted: the last step builds the level with 22 pegs (11.8 million classes).
const LEVELS: usize = 15;

/// A limit between what those levels need with rounds of a quarter of the level being built (here the fixed
/// 3 million records: the smallest limit that passes is about 530 MiB) and with rounds as big as the level
/// (about 644 MiB, were the rounds never cut), on this 2-core host.
const LIMIT: u64 = 590 << 20;

/// The count of the French board's first levels under `max_memory`, and every step's figures.
fn count(max_memory: Option<u64>) -> (Count, Vec<StepStats>) {
    let p = Problem::standard(Board::builtin("french").unwrap());
    let steps = Mutex::new(Vec::new());
    let sink = |s: &StepStats| steps.lock().unwrap().push(*s);
    let opts = Options {
        max_levels: Some(LEVELS),
        max_memory,
        stats: Some(&sink),
        ..Options::default()
    };
    let c = enumerate::count(&p, &opts).unwrap();
    (c, steps.into_inner().unwrap())
}

/// Under the limit, the count completes and equals the count without one; its rounds are smaller than the
/// level built where the limit binds (and a quarter of it at least: the limit leaves room for that), and
/// without a limit every round is as big as the level built.
#[test]
fn count_under_a_limit_that_binds_the_rounds_equals_the_unlimited_count() {
    let (want, free) = count(None);
    let (got, bound) = count(Some(LIMIT));
    assert_eq!(got, want);
    assert_eq!(want.levels.len(), LEVELS);
    // A step's rounds can give no more records than about 12 a source class.
    let level = |s: &StepStats| s.expected.min(s.sources * 12 + 1024);
    for s in &free {
        assert!(
            s.round_records >= level(s),
            "no limit, {} pegs: {s:?}",
            s.pegs
        );
    }
    assert!(
        bound.iter().any(|s| s.round_records < level(s)),
        "the limit never bound the rounds: {bound:?}"
    );
    for s in &bound {
        assert!(s.round_records * 4 >= level(s), "{} pegs: {s:?}", s.pegs);
        assert!(s.estimate_bytes.unwrap() <= LIMIT, "{} pegs: {s:?}", s.pegs);
    }
}
