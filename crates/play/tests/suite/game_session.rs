//! The three games through the one session shape, `play::GameSession`, as a front end that treats them alike
//! drives them: a step played, undone and redone through the trait; the save written and read back through it;
//! the question before a new game; and a new game that starts again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use mousecats::{BoardSize, Side};
use peg::{Board, Problem};
use play::mouse::{MouseOptions, MouseSession};
use play::peg::PegSession;
use play::sudoku::{Puzzle, Setup, SudokuSession};
use play::{Clock, Env, GameKind, GameSession, Inline, PegTables, Tone};

/// A blocking environment with a manual clock (so that saves compare equal) and no peg tables (the search
/// answers on the triangle at once).
fn env() -> Env {
    let mut env = Env::new(Arc::new(Inline), Clock::manual());
    env.peg_tables = PegTables::new(0);
    env
}

/// What every game must do through the trait, after the caller played one step in `s` (from a fresh game).
fn shared_shape<G: GameSession>(mut s: G, env: &Env) {
    assert!(
        s.in_play(),
        "a step was played: a new game would give it up"
    );
    assert!(s.unsaved());
    // The blocking environment has done the work; settling collects it.
    assert!(s.settle(None).is_none_or(|m| m.is_ok()));
    assert!(!s.busy());
    let played = s.to_state();
    // Undo and redo: one type in every game, and the same state back.
    let back = s.undo().unwrap();
    assert_ne!(back.tone, Tone::Error, "{}", back.text);
    assert_ne!(s.to_state(), played);
    // After the only step is undone nothing is lost, but a sudoku's puzzle.
    assert_eq!(s.in_play(), G::KIND == GameKind::Sudoku);
    let again = s.redo().unwrap();
    assert_ne!(again.tone, Tone::Error, "{}", again.text);
    assert_eq!(s.to_state(), played);
    assert_eq!(s.redo().unwrap().text, "Nothing to redo");
    // The save: of this game, and read back to the same state and view.
    let save = s.save();
    assert_eq!(save.kind().unwrap(), G::KIND);
    let loaded = G::from_state(&save.state, env).unwrap();
    assert_eq!(loaded.to_state(), played);
    // (The Mouse & Cats engine's hash-table counters are the running engine's, not the game's: not saved.)
    let view = |g: &G| {
        let mut v = serde_json::to_value(g.view()).unwrap();
        if let Some(o) = v.as_object_mut() {
            o.remove("tables");
        }
        v
    };
    assert_eq!(view(&loaded), view(&s));
    // A hint answers with a message; background work has nothing left to say.
    let hint = s.hint().unwrap();
    assert!(!hint.text.is_empty());
    assert!(s.settle(None).is_none_or(|m| m.is_ok()));
    // A new game with the same options: nothing played in it yet.
    s.new_game().unwrap();
    while s.settle(None).is_some() {}
    assert_eq!(s.in_play(), G::KIND == GameKind::Sudoku);
}

#[test]
fn mouse_through_the_shared_shape() {
    let env = env();
    // 6x6: its exact solution (for the hint) is solved in a moment.
    let opts = MouseOptions {
        player: Side::Mouse,
        level: 2,
        ..MouseOptions::for_size(BoardSize::new(6).unwrap())
    };
    let mut s = MouseSession::new(opts, &env).unwrap();
    assert!(!s.in_play());
    assert_eq!(s.standing(), None);
    let first = s.legal_moves()[0];
    s.play(first).unwrap();
    assert_eq!(s.moves().len(), 2, "the engine answered at once");
    shared_shape(s, &env);
}

#[test]
fn peg_through_the_shared_shape() {
    let env = env();
    let board = Board::builtin("triangle").unwrap();
    let problem = Problem::from_names(board, &["1"], None).unwrap();
    let mut s = PegSession::new(problem, &env).unwrap();
    assert!(!s.in_play());
    assert_eq!(s.standing(), None);
    s.play_text("4-1").unwrap();
    shared_shape(s, &env);
}

#[test]
fn sudoku_through_the_shared_shape() {
    let env = env();
    let grid: sudoku::Grid =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
            .parse()
            .unwrap();
    let puzzle = Puzzle::from_givens(*grid.digits(), "Project Euler 96, grid 1").unwrap();
    let solution = puzzle.solution;
    let mut s = SudokuSession::with_puzzle(Setup::default(), puzzle, &env).unwrap();
    // A sudoku's puzzle is given up by a new game from the start; a resumed one opens quietly.
    assert!(s.in_play());
    assert_eq!(s.standing(), None);
    s.enter(0, solution[0]).unwrap();
    shared_shape(s, &env);
}
