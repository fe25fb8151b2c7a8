//! Long work stops when its flag is raised: the rater, the logical solver, the classic method and the graded
//! generator end with "stopped" (no answer, never a wrong one), and with the flag down they answer exactly as the
//! variants without a flag.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use sudoku::Grid;
use sudoku::classic::{self, ClassicError, ClassicOptions};
use sudoku::generate::{self, Difficulty, GenerateOptions, Symmetry};
use sudoku::logic::{self, Candidates, Options};
use sudoku::rate::{self, Verdict};
use sudoku::rng::Rng;
use sudoku::stop::Stopped;

/// One of the forum's hardest puzzles: SE 10.0 (dynamic forcing chains), a second or more of rating in
/// hundreds of steps.
const HARDEST: &str =
    "1.......2....1..3...5..34....2..1..4....8.7..6..9.......1..5.4.8.....5..9...6....";
const EASY: &str =
    "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.";

fn grid(s: &str) -> Grid {
    s.parse().unwrap()
}

#[test]
fn a_raised_flag_stops_rating_and_solving_before_the_first_step() {
    let up = AtomicBool::new(true);
    for p in [EASY, HARDEST] {
        assert_eq!(rate::rate_until(&grid(p), true, &up).err(), Some(Stopped));
        let state = Candidates::from_values(grid(p).digits()).unwrap();
        assert_eq!(
            logic::solve_until(state, &Options::default(), &up).err(),
            Some(Stopped)
        );
    }
    assert_eq!(
        Stopped.to_string(),
        "stopped before it finished, as asked",
        "one clear line"
    );
}

#[test]
fn with_the_flag_down_the_answers_are_the_same() {
    let down = AtomicBool::new(false);
    let g = grid(EASY);
    let with = rate::rate_until(&g, true, &down).unwrap();
    let without = rate::rate(&g, true);
    assert_eq!(with.verdict, Verdict::Solved);
    assert_eq!(
        (with.verdict, with.rating, with.hardest, with.step_count),
        (
            without.verdict,
            without.rating,
            without.hardest,
            without.step_count
        )
    );
    assert_eq!(with.steps, without.steps);
    let opts = ClassicOptions {
        hide: 50,
        unique: true,
    };
    assert_eq!(
        classic::classic_until(&opts, &mut Rng::new(7), &down),
        classic::classic(&opts, &mut Rng::new(7))
    );
    let opts = GenerateOptions {
        difficulty: Difficulty::Hard,
        symmetry: Symmetry::Rotate180,
    };
    assert_eq!(
        generate::generate_until(&opts, &mut Rng::for_item(3, 0), Some(&down)).unwrap(),
        Some(generate::generate(&opts, 3, 0).unwrap())
    );
}

/// A flag raised by another thread while the hardest puzzle is being rated ends the rating with `Stopped`:
/// the rating takes a second or more, the flag is raised after a few milliseconds, and the rater looks at it
/// before every step.
#[test]
fn a_flag_raised_during_a_long_rating_stops_it_with_stopped() {
    let flag = Arc::new(AtomicBool::new(false));
    let raiser = {
        let flag = Arc::clone(&flag);
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let out = rate::rate_until(&grid(HARDEST), true, &flag);
    raiser.join().unwrap();
    assert_eq!(out.err(), Some(Stopped));
}

#[test]
fn the_classic_method_and_the_generator_stop_on_their_flag() {
    let up = AtomicBool::new(true);
    for unique in [false, true] {
        let opts = ClassicOptions { hide: 40, unique };
        assert_eq!(
            classic::classic_until(&opts, &mut Rng::new(1), &up),
            Err(ClassicError::Stopped)
        );
    }
    assert_eq!(
        ClassicError::Stopped.to_string(),
        Stopped.to_string(),
        "the same words for the same thing"
    );
    // A bad count is still refused as such, stopped or not.
    assert_eq!(
        classic::classic_until(
            &ClassicOptions {
                hide: 65,
                unique: false
            },
            &mut Rng::new(1),
            &up
        ),
        Err(ClassicError::TooMany { hide: 65 })
    );
    let opts = GenerateOptions {
        difficulty: Difficulty::Expert,
        symmetry: Symmetry::None,
    };
    assert_eq!(
        generate::generate_until(&opts, &mut Rng::new(1), Some(&up)),
        Ok(None)
    );
}
