//! The rater against qqwing's levels: qqwing's "simple" and "easy" puzzles never need more than singles, its
//! "intermediate" ones never more than pairs and locked candidates (whole files from `../shared`, skipped with a
//! notice when absent).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test

mod common;

use sudoku::logic::{self, Candidates, Options, Technique, TechniqueSet};

fn solved_with(p: &[u8; 81], set: TechniqueSet) -> bool {
    let opts = Options {
        techniques: set,
        ..Options::default()
    };
    logic::solve(Candidates::from_values(p).expect("valid clues"), &opts).is_solved()
}

#[test]
fn simple_and_easy_need_only_singles() {
    for level in ["simple", "easy"] {
        let Some(ps) = common::puzzles(&format!("generated/qqwing_{level}_1000.txt"), usize::MAX)
        else {
            return;
        };
        assert_eq!(ps.len(), 1000);
        for p in &ps {
            assert!(
                solved_with(p, TechniqueSet::SINGLES),
                "qqwing {level} {} needs more than singles",
                common::to_line(p)
            );
        }
    }
}

#[test]
fn intermediate_needs_at_most_pairs_and_locked_candidates() {
    let set = TechniqueSet::SINGLES
        .with(Technique::Pointing)
        .with(Technique::Claiming)
        .with(Technique::NakedPair)
        .with(Technique::HiddenPair);
    let Some(ps) = common::puzzles("generated/qqwing_intermediate_1000.txt", usize::MAX) else {
        return;
    };
    assert_eq!(ps.len(), 1000);
    let mut beyond_singles = 0;
    for p in &ps {
        assert!(
            solved_with(p, set),
            "qqwing intermediate {} needs more than pairs",
            common::to_line(p)
        );
        if !solved_with(p, TechniqueSet::SINGLES) {
            beyond_singles += 1;
        }
    }
    // qqwing's intermediate level is defined by needing more than singles; the rater must see that too.
    assert!(
        beyond_singles > 900,
        "only {beyond_singles} intermediate puzzles need more than singles"
    );
}

#[test]
fn expert_puzzles_need_more_than_intermediate_techniques() {
    let set = TechniqueSet::SINGLES
        .with(Technique::Pointing)
        .with(Technique::Claiming)
        .with(Technique::NakedPair)
        .with(Technique::HiddenPair);
    let Some(ps) = common::puzzles("generated/qqwing_expert_1000.txt", usize::MAX) else {
        return;
    };
    let harder = ps.iter().filter(|p| !solved_with(p, set)).count();
    assert!(
        harder > 950,
        "only {harder} of the qqwing expert puzzles need more than pairs"
    );
}
