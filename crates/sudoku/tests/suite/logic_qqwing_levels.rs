//! The rater against qqwing's levels: qqwing's "simple" and "easy" puzzles never need more than singles, its
//! "intermediate" ones never more than pairs and locked candidates. On the repository's own qqwing sets
//! (`tests/data/qqwing_<level>_40.txt`, each puzzle's uniqueness checked here by the reference solver), and on
//! the whole files of `../shared` in `#[ignore]`d tests that `.ci/run` runs where that data exists.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test

use crate::common;

use sudoku::logic::{self, Candidates, Options, Technique, TechniqueSet};

fn solved_with(p: &[u8; 81], set: TechniqueSet) -> bool {
    let opts = Options {
        techniques: set,
        ..Options::default()
    };
    logic::solve(Candidates::from_values(p).expect("valid clues"), &opts).is_solved()
}

/// The puzzles of qqwing's `level`: the repository's 40 (checked unique by the reference solver), or the 1000 of
/// `../shared` (`None` with a notice when absent).
fn set(level: &str, shared: bool) -> Option<Vec<[u8; 81]>> {
    if shared {
        let ps = common::puzzles(&format!("generated/qqwing_{level}_1000.txt"), usize::MAX)?;
        assert_eq!(ps.len(), 1000);
        return Some(ps);
    }
    let ps = common::repo_puzzles(&format!("qqwing_{level}_40.txt"), usize::MAX);
    assert_eq!(ps.len(), 40);
    for p in &ps {
        assert_eq!(common::reference_count(p, 2).0, 1, "{}", common::to_line(p));
    }
    Some(ps)
}

#[test]
fn simple_and_easy_need_only_singles() {
    simple_and_easy(false);
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_simple_and_easy_need_only_singles() {
    simple_and_easy(true);
}

fn simple_and_easy(shared: bool) {
    for level in ["simple", "easy"] {
        let Some(ps) = set(level, shared) else {
            return;
        };
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
    intermediate(false);
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_intermediate_needs_at_most_pairs_and_locked_candidates() {
    intermediate(true);
}

fn intermediate(shared: bool) {
    let techniques = TechniqueSet::SINGLES
        .with(Technique::Pointing)
        .with(Technique::Claiming)
        .with(Technique::NakedPair)
        .with(Technique::HiddenPair);
    let Some(ps) = set("intermediate", shared) else {
        return;
    };
    let mut beyond_singles = 0;
    for p in &ps {
        assert!(
            solved_with(p, techniques),
            "qqwing intermediate {} needs more than pairs",
            common::to_line(p)
        );
        if !solved_with(p, TechniqueSet::SINGLES) {
            beyond_singles += 1;
        }
    }
    // qqwing's intermediate level is defined by needing more than singles; the rater must see that too.
    assert!(
        beyond_singles * 10 > ps.len() * 9,
        "only {beyond_singles} of {} intermediate puzzles need more than singles",
        ps.len()
    );
}

#[test]
fn expert_puzzles_need_more_than_intermediate_techniques() {
    expert(false);
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_expert_puzzles_need_more_than_intermediate_techniques() {
    expert(true);
}

fn expert(shared: bool) {
    let techniques = TechniqueSet::SINGLES
        .with(Technique::Pointing)
        .with(Technique::Claiming)
        .with(Technique::NakedPair)
        .with(Technique::HiddenPair);
    let Some(ps) = set("expert", shared) else {
        return;
    };
    let harder = ps.iter().filter(|p| !solved_with(p, techniques)).count();
    assert!(
        harder * 100 > ps.len() * 95,
        "only {harder} of the {} qqwing expert puzzles need more than pairs",
        ps.len()
    );
}
