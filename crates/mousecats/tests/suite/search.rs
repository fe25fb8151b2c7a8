//! The alpha-beta engine and its tables.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::OnceLock;
use std::time::Duration;

use mousecats::solve::INDEX_LEN;
use mousecats::{
    Engine, EngineConfig, Level, Position, Rule, Score, Solution, TableConfig, Value,
    state_position,
};
use proptest::prelude::*;

fn solved() -> &'static Solution {
    static S: OnceLock<Solution> = OnceLock::new();
    S.get_or_init(|| Solution::solve(Rule::FarRow))
}

fn engine(tables: Option<TableConfig>) -> Engine {
    Engine::new(EngineConfig {
        rule: Rule::FarRow,
        tables,
    })
    .unwrap()
}

fn check_legal(p: &Position, result: &mousecats::SearchResult) {
    match p.outcome(Rule::FarRow) {
        Some(_) => assert!(result.best_move.is_none() && result.pv.is_empty(), "{p}"),
        None => {
            let best = result.best_move.expect("a move when the game is not over");
            assert!(p.legal_moves(Rule::FarRow).contains(&best), "{p}: {best}");
            assert_eq!(result.pv.first(), Some(&best));
            let mut q = *p;
            for &m in &result.pv {
                q = q.play(m, Rule::FarRow).unwrap();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn search_returns_legal_moves(
        index in 0usize..INDEX_LEN,
        depth in 1u8..7,
        index_bits in 8u8..12,
        lock_bits in 0u8..=32,
        verify in any::<bool>(),
        use_tables in any::<bool>(),
    ) {
        let Some(p) = state_position(index) else { return Ok(()) };
        let tables = use_tables.then_some(TableConfig { index_bits, lock_bits, verify });
        let mut e = engine(tables);
        // Search a few related positions so the small tables fill up and collide.
        for q in std::iter::once(p).chain(p.moves().iter().map(|&m| p.make_move(m))) {
            let r = e.search(&q, depth, None);
            check_legal(&q, &r);
        }
    }

    #[test]
    fn short_wins_and_losses_are_found_exactly(index in 0usize..INDEX_LEN, use_tables in any::<bool>()) {
        let Some(p) = state_position(index) else { return Ok(()) };
        let exact = solved().value(&p);
        prop_assume!(exact.plies() <= 9);
        let mut e = engine(use_tables.then(TableConfig::default));
        let r = e.search(&p, exact.plies().max(1), None);
        prop_assert_eq!(r.score, Score::from(exact), "{}", p);
        if exact.plies() > 0 {
            // The move found keeps the exact value.
            let keep = solved().value_keeping_moves(&p);
            prop_assert!(keep.contains(&r.best_move.unwrap()), "{} {:?}", p, r.best_move);
        }
    }
}

#[test]
fn short_results_are_common_enough_to_test() {
    // The property above skips positions decided only after more than 9 plies; make sure plenty remain.
    let n = (0..INDEX_LEN)
        .step_by(101)
        .filter_map(|i| solved().value_at(i))
        .filter(|v| v.plies() <= 9)
        .count();
    assert!(n > 2_000, "{n}");
}

#[test]
fn small_table_without_lock_has_false_hits_and_a_wide_lock_has_none() {
    let start = Position::start();
    let run = |lock_bits| {
        let mut e = engine(Some(TableConfig {
            index_bits: 8,
            lock_bits,
            verify: true,
        }));
        let r = e.search(&start, 12, None);
        check_legal(&start, &r);
        r.table_stats
    };
    let none = run(0);
    assert!(none.false_hits > 0, "{none:?}");
    assert_eq!(none.lock_mismatches, 0, "no lock, nothing detected");
    let wide = run(32);
    assert_eq!(wide.false_hits, 0, "{wide:?}");
    assert!(wide.lock_mismatches > 0, "{wide:?}");
    assert!(wide.collisions > 0, "{wide:?}");
    for s in [none, wide] {
        assert_eq!(s.probes, s.hits + s.empty + s.lock_mismatches);
        assert!(s.stores > 0);
    }
    // The C64 set-up: 8 index bits, an 8-bit lock.
    let c64 = run(8);
    assert!(c64.lock_mismatches > 0);
}

#[test]
fn tables_cut_the_depth_12_search_by_at_least_half() {
    let start = Position::start();
    let without = engine(None).search(&start, 12, None);
    let with = engine(Some(TableConfig::default())).search(&start, 12, None);
    assert!(
        with.nodes * 2 <= without.nodes,
        "with tables {} nodes, without {}",
        with.nodes,
        without.nodes
    );
    check_legal(&start, &with);
    check_legal(&start, &without);
}

#[test]
fn time_limit_stops_the_search() {
    let start = Position::start();
    let mut e = engine(Some(TableConfig::default()));
    let r = e.search(&start, 64, Some(Duration::from_millis(30)));
    assert!(r.stopped);
    assert!(r.depth >= 1 && r.depth < 64);
    check_legal(&start, &r);
    assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
}

#[test]
fn stop_handle_stops_the_search() {
    let start = Position::start();
    let mut e = engine(Some(TableConfig::default()));
    let stop = e.stop_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let r = e.search(&start, 64, None);
    t.join().unwrap();
    assert!(r.stopped);
    check_legal(&start, &r);
}

/// A stop set before the search starts is not lost: the search stops at its first check of the flag after
/// depth 1 (with a legal move; the flag is checked every 4,096 nodes, counting the root), and so does the next, until the flag
/// is cleared.
#[test]
fn a_stop_set_before_the_search_stops_it_until_cleared() {
    let start = Position::start();
    let mut e = engine(Some(TableConfig::default()));
    e.stop_handle()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = e.search(&start, 20, None);
    assert!(r.stopped);
    assert!(r.depth >= 1 && r.depth < 20, "depth {}", r.depth);
    assert!(r.nodes <= 4097, "{} nodes", r.nodes);
    check_legal(&start, &r);
    let r = e.search(&start, 20, None);
    assert!(r.stopped && r.nodes <= 4097, "the flag stays set");
    e.clear_stop();
    let r = e.search(&start, 6, None);
    assert!(!r.stopped);
    assert_eq!(r.depth, 6);
}

#[test]
fn levels() {
    assert!(Level::new(0).is_err());
    assert!(Level::new(11).is_err());
    assert_eq!(Level::new(1).unwrap().depth(), Some(2));
    assert_eq!(Level::new(9).unwrap().depth(), Some(18));
    assert_eq!(Level::PERFECT.depth(), None);
    let mut e = engine(None);
    let start = Position::start();
    let r = e.think(&start, Level::PERFECT, None);
    assert!(r.perfect);
    assert_eq!(r.score, Score::Loss(44));
    assert_eq!(r.pv.len(), 44);
    assert!(
        solved()
            .value_keeping_moves(&start)
            .contains(&r.best_move.unwrap())
    );
    let r = e.think(&start, Level::new(2).unwrap(), None);
    assert_eq!(r.depth, 4);
    check_legal(&start, &r);
}

#[test]
fn finished_games() {
    let p: Position = "mouse=B8 cats=A1,C1,E1,G1 turn=cats".parse().unwrap();
    let r = engine(None).search(&p, 5, None);
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Loss(0));
    assert_eq!(solved().value(&p), Value::Loss(0));
    let p: Position = "mouse=A1 cats=B2,C3,H8,F8 turn=mouse".parse().unwrap();
    let r = engine(None).search(&p, 5, None);
    assert_eq!((r.best_move, r.score), (None, Score::Loss(0)));
}

#[test]
fn perfect_cats_beat_the_searching_mouse_at_every_level() {
    // The cats win the start; the perfect cats must beat the mouse searching at any level.
    let solution = solved();
    for level in [1u8, 3, 5] {
        let mut mouse = engine(Some(TableConfig::default()));
        let mut p = Position::start();
        while p.outcome(Rule::FarRow).is_none() {
            let mv = match p.turn() {
                mousecats::Side::Mouse => mouse
                    .think(&p, Level::new(level).unwrap(), None)
                    .best_move
                    .unwrap(),
                mousecats::Side::Cats => solution.best_move(&p).unwrap(),
            };
            p = p.play(mv, Rule::FarRow).unwrap();
        }
        assert_eq!(
            p.outcome(Rule::FarRow),
            Some(mousecats::Side::Cats),
            "level {level}"
        );
    }
}

#[test]
fn searching_cats_beat_the_perfect_mouse_from_level_5() {
    // A quality check of the evaluation: the default level already holds the cats' win against a
    // mouse that always makes the longest defence.
    let solution = solved();
    for level in [5u8, 7, 9] {
        let mut cats = engine(Some(TableConfig::default()));
        let mut p = Position::start();
        while p.outcome(Rule::FarRow).is_none() {
            let mv = match p.turn() {
                mousecats::Side::Cats => cats
                    .think(&p, Level::new(level).unwrap(), None)
                    .best_move
                    .unwrap(),
                mousecats::Side::Mouse => solution.best_move(&p).unwrap(),
            };
            p = p.play(mv, Rule::FarRow).unwrap();
        }
        assert_eq!(
            p.outcome(Rule::FarRow),
            Some(mousecats::Side::Cats),
            "level {level}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whole random games, one engine (and its tables) kept across the game as in `play`: every move the
    /// engine returns is legal and its principal variation can be played.
    #[test]
    fn search_is_legal_along_random_games(
        choices in proptest::collection::vec(0usize..8, 0..60),
        cats_first in any::<bool>(),
        mouse in 0u8..4,
        index_bits in 8u8..11,
        lock_bits in prop_oneof![Just(0u8), Just(8), Just(32)],
        depth in 1u8..9,
        escape in any::<bool>(),
    ) {
        let rule = if escape { Rule::Escape } else { Rule::FarRow };
        let first = if cats_first { mousecats::Side::Cats } else { mousecats::Side::Mouse };
        let mut p = Position::start_with(mousecats::Square::from_dark_index(mouse), first).unwrap();
        let mut e = Engine::new(EngineConfig {
            rule,
            tables: Some(TableConfig { index_bits, lock_bits, verify: false }),
        })
        .unwrap();
        for c in choices {
            let r = e.search(&p, depth, None);
            let moves = p.legal_moves(rule);
            if moves.is_empty() {
                prop_assert!(r.best_move.is_none());
                break;
            }
            let best = r.best_move.unwrap();
            prop_assert!(moves.contains(&best), "{} {}", p, best);
            let mut q = p;
            for &m in &r.pv {
                q = q.play(m, rule).unwrap();
            }
            p = p.make_move(moves[c % moves.len()]);
        }
    }
}

#[test]
fn iterations_are_reported() {
    let start = Position::start();
    let r = engine(Some(TableConfig::default())).search(&start, 8, None);
    let depths: Vec<u8> = r.iterations.iter().map(|i| i.depth).collect();
    assert_eq!(depths, (1..=8).collect::<Vec<u8>>());
    let last = r.iterations.last().unwrap();
    assert_eq!(
        (last.score, &last.pv, last.nodes),
        (r.score, &r.pv, r.nodes)
    );
    assert!(r.iterations.windows(2).all(|w| w[0].nodes < w[1].nodes));
}
