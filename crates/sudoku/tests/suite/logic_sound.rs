//! Every logical step checked against the true solution: no elimination removes the solution's digit, no
//! placement puts a wrong one. On the repository's own sets (`tests/data`: qqwing's levels and the crate's own
//! expert puzzles), and on the shared data sets in `#[ignore]`d tests that `.ci/run` runs where they exist.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test

use crate::common;

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
    qqwing_sets(false);
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_steps_agree_with_the_solution_on_qqwing_sets() {
    qqwing_sets(true);
}

fn qqwing_sets(shared: bool) {
    for level in ["simple", "easy", "intermediate", "expert"] {
        let ps = if shared {
            let Some(ps) = common::puzzles(&format!("generated/qqwing_{level}_1000.txt"), 150)
            else {
                return;
            };
            ps
        } else {
            common::repo_puzzles(&format!("qqwing_{level}_40.txt"), usize::MAX)
        };
        assert!(!ps.is_empty());
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
fn steps_agree_with_the_solution_on_hard_puzzles() {
    // The crate's own expert puzzles (SE 4.5 and up: quads, fish, chains).
    let ps = common::repo_puzzles("own_expert_20.txt", usize::MAX);
    assert_eq!(ps.len(), 20);
    for p in &ps {
        check_puzzle(p);
    }
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_steps_agree_with_the_solution_on_hard_sets() {
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
