//! The exact solution: consistent with its own successors in every state, equal to a plain minimax near
//! the end of the game, and the same whether solved on one thread or many.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashSet;
use std::sync::OnceLock;

use common::{Lcg, Plain};
use mousecats::solve::{INDEX_LEN, STATES, STATES_PER_SIDE};
use mousecats::{Position, Rule, Side, Solution, Value, reachable_positions, state_position};
use proptest::prelude::*;

/// Every state's value follows from its successors' values and the rules (the plain reference decides
/// when a game is over). Since no position repeats, this fixes every value: the table is exactly right
/// if the move generation is.
fn check_every_state(solution: &Solution, rule: Rule) {
    let mut checked = 0;
    for i in 0..INDEX_LEN {
        let Some(p) = state_position(i) else {
            assert_eq!(solution.value_at(i), None);
            continue;
        };
        checked += 1;
        let v = solution.value_at(i).unwrap();
        let plain = Plain::from(&p);
        let expected = match plain.mouse_won(rule) {
            Some(mouse_won) => {
                if mouse_won == (p.turn() == Side::Mouse) {
                    Value::Win(0)
                } else {
                    Value::Loss(0)
                }
            }
            None => {
                let children: Vec<Value> = p
                    .moves()
                    .iter()
                    .map(|&m| solution.value(&p.make_move(m)))
                    .collect();
                let fastest_win = children
                    .iter()
                    .filter_map(|c| match c {
                        Value::Loss(k) => Some(k + 1),
                        Value::Win(_) => None,
                    })
                    .min();
                match fastest_win {
                    Some(n) => Value::Win(n),
                    None => Value::Loss(children.iter().map(|c| c.plies() + 1).max().unwrap()),
                }
            }
        };
        assert_eq!(v, expected, "{p} under {rule}");
    }
    assert_eq!(checked, STATES);
}

#[test]
fn every_state_is_consistent_row8() {
    check_every_state(&Solution::solve(Rule::FarRow), Rule::FarRow);
}

#[test]
fn every_state_is_consistent_escape() {
    check_every_state(&Solution::solve(Rule::Escape), Rule::Escape);
}

#[test]
fn every_state_is_consistent_region() {
    check_every_state(&Solution::solve(Rule::Region), Rule::Region);
}

#[test]
fn parallel_and_single_threaded_solves_agree() {
    let a = Solution::solve_with(Rule::FarRow, true);
    let b = Solution::solve_with(Rule::FarRow, false);
    for i in 0..INDEX_LEN {
        assert_eq!(a.value_at(i), b.value_at(i));
    }
    let c = a.counts();
    assert_eq!(
        c.mouse_to_move.wins + c.mouse_to_move.losses,
        STATES_PER_SIDE as u64
    );
    assert_eq!(
        c.cats_to_move.wins + c.cats_to_move.losses,
        STATES_PER_SIDE as u64
    );
    assert_eq!(c, b.counts());
}

#[test]
fn the_escape_rule_only_helps_the_mouse() {
    let row8 = Solution::solve(Rule::FarRow);
    let escape = Solution::solve(Rule::Escape);
    for i in 0..INDEX_LEN {
        let Some(p) = state_position(i) else { continue };
        let w8 = row8.value_at(i).unwrap().winner(p.turn());
        let we = escape.value_at(i).unwrap().winner(p.turn());
        if w8 == Side::Mouse {
            assert_eq!(we, Side::Mouse, "{p}");
        }
    }
}

#[test]
fn perfect_line_from_the_start_lasts_44_plies_and_the_cats_win() {
    let solution = Solution::solve(Rule::FarRow);
    let start = Position::start();
    let line = solution.perfect_line(&start);
    assert_eq!(line.len(), 44);
    let mut p = start;
    for m in &line {
        p = p.play(*m, Rule::FarRow).unwrap();
    }
    assert_eq!(p.outcome(Rule::FarRow), Some(Side::Cats));
    // Every value-keeping move keeps the value, and the others do not.
    let v = solution.value(&start);
    let keep = solution.value_keeping_moves(&start);
    for (m, after) in solution.moves_with_values(&start) {
        assert_eq!(keep.contains(&m), after == v, "{m}");
    }
}

fn plain_reachable(start: &Position, rule: Rule) -> u64 {
    type Key = ((i32, i32), Vec<(i32, i32)>, bool);
    let mut seen: HashSet<Key> = HashSet::new();
    let key = |p: &Plain| {
        let mut c = p.cats.clone();
        c.sort_unstable();
        (p.mouse, c, p.mouse_to_move)
    };
    let first = Plain::from(start);
    seen.insert(key(&first));
    let mut stack = vec![first];
    while let Some(p) = stack.pop() {
        if p.mouse_won(rule).is_some() {
            continue;
        }
        for m in p.moves() {
            let q = p.play(m);
            if seen.insert(key(&q)) {
                stack.push(q);
            }
        }
    }
    seen.len() as u64
}

#[test]
fn reachable_count_matches_a_plain_search() {
    let start = Position::start();
    assert_eq!(
        reachable_positions(&start, Rule::FarRow),
        plain_reachable(&start, Rule::FarRow)
    );
    let other = Position::start_with("C1".parse().unwrap(), Side::Cats).unwrap();
    assert_eq!(
        reachable_positions(&other, Rule::Escape),
        plain_reachable(&other, Rule::Escape)
    );
    // From a finished game nothing else is reachable.
    let over: Position = "mouse=D4 cats=A3,C3,E3,G3".parse().unwrap();
    assert_eq!(reachable_positions(&over, Rule::Escape), 1);
    assert_eq!(
        reachable_positions(&over, Rule::FarRow),
        plain_reachable(&over, Rule::FarRow)
    );
}

fn solved(rule: Rule) -> &'static Solution {
    static ALL: [OnceLock<Solution>; 3] = [const { OnceLock::new() }; 3];
    let i = Rule::ALL.iter().position(|&r| r == rule).unwrap();
    ALL[i].get_or_init(|| Solution::solve(rule))
}

/// Near the end of random games, the table agrees with a plain minimax that looks `LIMIT` plies ahead:
/// where the minimax decides the game, the values are equal; where it cannot, the table says the game
/// lasts longer than that.
const LIMIT: u32 = 7;

fn agrees_with_minimax(solution: &Solution, p: &Position, rule: Rule) {
    let exact = solution.value(p);
    match Plain::from(p).value_within(LIMIT, rule) {
        Some((win, plies)) => {
            let v = if win {
                Value::Win(plies as u8)
            } else {
                Value::Loss(plies as u8)
            };
            assert_eq!(exact, v, "{p} {rule}");
        }
        None => assert!(u32::from(exact.plies()) > LIMIT, "{p} {rule}: {exact}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn table_agrees_with_plain_minimax_near_the_end(seed in any::<u64>(), back in 1usize..14, escape in any::<bool>()) {
        let rule = if escape { Rule::Escape } else { Rule::FarRow };
        let solution = solved(rule);
        // A random game from a random row-1 start.
        let mut rng = Lcg(seed);
        let mouse = mousecats::Square::from_dark_index(rng.below(4) as u8);
        let first = if rng.below(2) == 0 { Side::Mouse } else { Side::Cats };
        let mut p = Position::start_with(mouse, first).unwrap();
        let mut game = vec![p];
        loop {
            let moves = p.legal_moves(rule);
            if moves.is_empty() { break; }
            p = p.make_move(moves[rng.below(moves.len())]);
            game.push(p);
        }
        let at = game.len().saturating_sub(back);
        agrees_with_minimax(solution, &game[at], rule);
    }

    #[test]
    fn table_agrees_with_plain_minimax_anywhere(index in 0usize..INDEX_LEN) {
        prop_assume!(state_position(index).is_some());
        agrees_with_minimax(solved(Rule::FarRow), &state_position(index).unwrap(), Rule::FarRow);
    }
}

#[test]
fn minimax_comparison_mostly_decides() {
    // The comparison above is only worth something if the plain minimax decides most of the positions
    // it is given: check that on fixed random games.
    let solution = solved(Rule::FarRow);
    let mut rng = Lcg(7);
    let (mut decided, mut total) = (0, 0);
    for _ in 0..60 {
        let mut p = Position::start();
        let mut game = vec![p];
        loop {
            let moves = p.legal_moves(Rule::FarRow);
            if moves.is_empty() {
                break;
            }
            p = p.make_move(moves[rng.below(moves.len())]);
            game.push(p);
        }
        let q = game[game.len().saturating_sub(1 + rng.below(8))];
        agrees_with_minimax(solution, &q, Rule::FarRow);
        total += 1;
        decided += usize::from(Plain::from(&q).value_within(LIMIT, Rule::FarRow).is_some());
    }
    assert!(decided * 2 > total, "{decided} of {total}");
}
