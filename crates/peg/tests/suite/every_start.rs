//! The solution counts from every start hole of the English board (one per orbit of its symmetries, seven in
//! all), finish anywhere and finish on the start hole: the counts over the finishable set alone ([`Finishable::solutions`], the set built by
//! [`Finishable::build_for_solutions`]) against the whole table's ([`enumerate::count`]). Two of the starts (c1, c2) have no symmetry but the identity: their whole
//! tables have about 190 million classes each, minutes and gigabytes on a small machine, so the test is
//! ignored by default (`cargo test --release -p peg --test suite every_start:: -- --ignored`); the measured figures are
//! in the README.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use peg::enumerate::{self, Options};
use peg::{Board, CountError, Finishable, Problem};

/// One start hole per orbit of the English board's symmetries.
const STARTS: [&str; 7] = ["d4", "d3", "c3", "d2", "c2", "d1", "c1"];

fn check(start: &str) {
    let p = Problem::from_names(Board::english(), &[start], None).unwrap();
    let opts = Options::default();
    let set = Finishable::build_for_solutions(&p, &opts).unwrap();
    let s = set.solutions(&opts).unwrap();
    let table = enumerate::count(&p, &opts).unwrap();
    eprintln!(
        "{start}: {} symmetries, {} solutions (full tree), {} (normal tree), finishable {} ({} classes), \
         table {} classes",
        s.symmetries,
        s.solutions_full,
        s.solutions_normal,
        set.positions(),
        set.classes(),
        table.totals.classes
    );
    assert_eq!(s.solutions_full, table.totals.solutions_full, "{start}");
    assert_eq!(s.solutions_normal, table.totals.solutions_normal, "{start}");
    assert!(s.solutions_full > 0, "{start}");
}

#[test]
#[ignore = "minutes and gigabytes: the whole tables of starts without symmetry"]
fn every_english_start_hole_against_the_whole_table() {
    for start in STARTS {
        check(start);
    }
}

/// Start and finish on the same hole (self-dual: the counts below the middle are pushed up from it, see
/// `crates/peg/src/dense/`): against the whole table's solutions to that hole, and against the same set's
/// counts pulled all the way down (a memory limit with no room for the push), every level. Whether the pulled
/// counts could be compared.
fn check_self_dual(hole: &str) -> bool {
    let p = Problem::from_names(Board::english(), &[hole], Some(hole)).unwrap();
    let opts = Options::default();
    let set = Finishable::build_for_solutions(&p, &opts).unwrap();
    let pushed = set.solutions(&opts).unwrap();
    // Sets of the general walks are never pushed, and their walk with counters needs more than this limit.
    let pulled = match set.solutions(&Options {
        max_memory: Some(set.bytes() + (8 << 20)),
        ..Options::default()
    }) {
        Ok(s) => Some(s),
        Err(CountError::MemoryLimit { .. }) => None,
        Err(e) => panic!("{hole}: {e}"),
    };
    let table = enumerate::count(&p, &opts).unwrap();
    eprintln!(
        "{hole} to {hole}: {} solutions (full tree), {} (normal tree), finishable {} classes, pulled too: {}",
        pushed.solutions_full,
        pushed.solutions_normal,
        set.classes(),
        pulled.is_some()
    );
    if let Some(pulled) = &pulled {
        assert_eq!(&pushed, pulled, "{hole}");
    }
    assert_eq!(pushed.solutions_full, table.totals.solutions_full, "{hole}");
    assert_eq!(
        pushed.solutions_normal, table.totals.solutions_normal,
        "{hole}"
    );
    assert!(pushed.solutions_full > 0, "{hole}");
    pulled.is_some()
}

#[test]
#[ignore = "minutes and gigabytes: the whole tables of starts without symmetry"]
fn every_english_start_hole_to_itself_against_the_whole_table() {
    let compared = STARTS.iter().filter(|h| check_self_dual(h)).count();
    // The centre's set is a dense one at least.
    assert!(compared > 0);
}
