//! Every logical step checked against the true solution: no elimination removes the solution's digit, no
//! placement puts a wrong one. Puzzles from the shared data sets (skipped with a notice when absent).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test

mod common;

use sudoku::logic::{self, Candidates, Options, Status};

fn check_puzzle(p: &[u8; 81]) -> Status {
    let (n, sol) = common::reference_count(p, 2);
    assert_eq!(n, 1, "test puzzle {} should be unique", common::to_line(p));
    let sol = sol.expect("solution");
    let out = logic::solve(
        Candidates::from_values(p).expect("valid clues"),
        &Options {
            record: true,
            ..Options::default()
        },
    );
    for step in &out.steps {
        for e in &step.eliminations {
            assert_ne!(
                sol[usize::from(e.cell)],
                e.digit,
                "{}: step `{step}` eliminates the solution digit",
                common::to_line(p)
            );
        }
        for pl in &step.placements {
            assert_eq!(
                sol[usize::from(pl.cell)],
                pl.digit,
                "{}: step `{step}` places a wrong digit",
                common::to_line(p)
            );
        }
        assert!(!step.to_string().is_empty());
    }
    if out.is_solved() {
        assert_eq!(out.state.values(), sol);
    }
    out.status
}

#[test]
fn steps_agree_with_the_solution_on_qqwing_sets() {
    for level in ["simple", "easy", "intermediate", "expert"] {
        let Some(ps) = common::puzzles(&format!("generated/qqwing_{level}_1000.txt"), 150) else {
            return;
        };
        for p in &ps {
            let status = check_puzzle(p);
            if level != "expert" {
                assert_eq!(
                    status,
                    Status::Solved,
                    "{level} puzzle {} not solved by logic",
                    common::to_line(p)
                );
            }
        }
    }
}

#[test]
fn steps_agree_with_the_solution_on_hard_sets() {
    for (file, n) in [
        ("puzzles3_magictour_top1465", 25),
        ("puzzles2_17_clue", 25),
        ("norvig_top95.txt", 15),
    ] {
        let Some(ps) = common::puzzles(file, n) else {
            return;
        };
        for p in &ps {
            check_puzzle(p);
        }
    }
}
