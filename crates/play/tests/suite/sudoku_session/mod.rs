//! Sudoku sessions driven with no terminal: whole games, undo and redo, the save format both ways, and every bad
//! input answered with an error value.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use play::sudoku::{Direction, End, HintKind, Mode, Puzzle, Setup, SudokuError, SudokuSession};
use play::{Clock, Env, Inline, SaveFile, Session, Tone};
use proptest::prelude::*;

/// A change to a saved state, making it damaged.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// A blocking environment with a manual clock (so saves compare equal).
fn env() -> (Env, Clock) {
    let clock = Clock::manual();
    (Env::new(Arc::new(Inline), clock.clone()), clock)
}

/// Project Euler 96's first grid: a fixed puzzle whatever the generator does.
const FIXED: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

fn fixed(env: &Env) -> SudokuSession {
    let grid: sudoku::Grid = FIXED.parse().unwrap();
    let puzzle = Puzzle::from_givens(*grid.digits(), "Project Euler 96, grid 1").unwrap();
    assert!(puzzle.unique);
    SudokuSession::with_puzzle(Setup::default(), puzzle, env).unwrap()
}

#[test]
fn a_generated_puzzle_is_finished_with_hints() {
    let (env, clock) = env();
    let mut s = SudokuSession::new(Setup::default(), &env).unwrap();
    let news = s.poll().unwrap().unwrap();
    assert_eq!(news.text, "A new medium puzzle. Fill the grid.");
    let solution = s.puzzle().unwrap().solution;
    let mut taken = 0;
    while s.end().is_none() {
        clock.advance(std::time::Duration::from_secs(3));
        s.hint().unwrap();
        taken += 1;
        assert!(
            s.shown_hint().unwrap().applicable(),
            "a medium puzzle never needs guessing"
        );
        let msg = s.apply_hint().unwrap();
        assert!(taken < 400, "no progress");
        if s.end().is_some() {
            assert_eq!(msg.tone, Tone::Good);
            assert!(
                msg.text.starts_with(&format!(
                    "Solved in {}",
                    play::clock::format_duration(s.elapsed())
                )),
                "{}",
                msg.text
            );
            assert!(
                msg.text.contains(&format!("0 mistakes and {taken} hints")),
                "{}",
                msg.text
            );
        }
    }
    let v = s.view();
    assert_eq!(v.end, Some(End::Solved));
    assert_eq!(v.values, solution.to_vec());
    assert_eq!((v.cells_left, v.mistakes, v.hints), (0, 0, taken));
    assert!(!v.running, "the timer stops at the end");
    // Nothing more can be played; a new game can.
    assert_eq!(s.enter(0, 1), Err(SudokuError::Over(End::Solved)));
    assert_eq!(s.hint(), Err(SudokuError::Over(End::Solved)));
    let msg = s.new_game().unwrap();
    assert!(msg.text.starts_with("A new medium puzzle"), "{}", msg.text);
    assert_eq!(s.view().hints, 0);
    assert_eq!(s.setup().index, 2, "the next puzzle of the seed");
}

/// With the environment's stop flag raised (a server's request past its deadline) no puzzle is made, in either
/// mode: the new game is refused with "stopped", never handed an empty or half-made grid. Lowered, the same
/// setup makes its puzzle.
#[test]
fn a_raised_stop_flag_makes_no_puzzle() {
    let (mut env, _) = env();
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
    env.stop = Some(Arc::clone(&flag));
    let classic = Setup {
        mode: Mode::Classic,
        hide: 40,
        unique: true,
        ..Setup::default()
    };
    for setup in [Setup::default(), classic] {
        let err = SudokuSession::new(setup.clone(), &env).unwrap_err();
        assert_eq!(err, SudokuError::Stopped);
        assert_eq!(
            err.to_string(),
            "No puzzle: making it was stopped before it finished (it took too long)"
        );
        assert_eq!(
            Puzzle::make_until(&setup, Some(&flag)),
            Err(SudokuError::Stopped)
        );
        flag.store(false, std::sync::atomic::Ordering::Relaxed);
        let mut s = SudokuSession::new(setup.clone(), &env).unwrap();
        assert_eq!(s.puzzle(), Puzzle::make(&setup).ok().as_ref());
        assert!(s.poll().unwrap().is_ok());
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn digits_mistakes_and_the_win_by_typing() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    let empty: Vec<usize> = (0..81).filter(|&c| s.view().givens[c] == 0).collect();
    // A wrong digit that clashes with nothing is not counted when typed (the counter would give the answer
    // away); a check finds it and counts it, once.
    let givens = s.view().givens;
    let peers = |c: usize, o: usize| {
        o != c && (o / 9 == c / 9 || o % 9 == c % 9 || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3))
    };
    let (c, wrong) = empty
        .iter()
        .find_map(|&c| {
            (1..=9u8)
                .find(|&d| d != sol[c] && (0..81).all(|o| !peers(c, o) || givens[o] != d))
                .map(|d| (c, d))
        })
        .unwrap();
    let m = s.enter(c, wrong).unwrap();
    assert_eq!(m.text, format!("{wrong} in {}", cell(c)));
    assert_eq!(s.view().mistakes, 0);
    let m = s.check().unwrap();
    assert!(
        m.text.starts_with("Check: 1 entry wrong (marked)"),
        "{}",
        m.text
    );
    assert_eq!(s.view().mistakes, 1);
    s.check().unwrap();
    assert_eq!(s.view().mistakes, 1, "a check counts each wrong entry once");
    // A clash is counted at once, and names the other cell and the house.
    assert_eq!(s.enter(c, 0).unwrap().text, format!("{} erased", cell(c)));
    assert_eq!(
        s.enter(c, 0).unwrap().text,
        format!("{} is already empty", cell(c))
    );
    // r1c1 is empty; 3 is a clue in r1c3.
    let m = s.enter(0, 3).unwrap();
    assert_eq!(m.text, "3 in r1c1 clashes with the 3 in r1c3 (row 1)");
    assert_eq!(m.tone, Tone::Warn);
    assert_eq!(s.view().conflicts, vec![0, 2]);
    assert_eq!(s.view().mistakes, 2);
    // Typed entries fill the rest.
    for &c in &empty {
        let m = s
            .type_entry(&format!("r{}c{} {}", c / 9 + 1, c % 9 + 1, sol[c]))
            .unwrap();
        assert_eq!(s.cursor(), c);
        if c == *empty.last().unwrap() {
            assert_eq!(m.text, "Solved in 0:00 with 2 mistakes and 0 hints!");
        }
    }
    assert_eq!(s.end(), Some(End::Solved));
}

fn cell(c: usize) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

#[test]
fn undo_and_redo_walk_through_changes() {
    let (env, _) = env();
    let mut s = fixed(&env);
    assert_eq!(s.undo().unwrap().text, "Nothing to undo");
    s.enter(0, 4).unwrap();
    s.toggle_mark(1, 5).unwrap();
    s.toggle_mark(1, 7).unwrap();
    assert_eq!(s.view().marks[1], (1 << 4) | (1 << 6));
    assert!(s.view().can_undo && !s.view().can_redo);
    s.undo().unwrap();
    assert_eq!(s.view().marks[1], 1 << 4);
    s.undo().unwrap();
    s.undo().unwrap();
    assert_eq!(s.view().values[0], 0);
    assert_eq!(s.undo().unwrap().text, "Nothing to undo");
    assert_eq!(s.redo().unwrap().text, "Redone");
    assert_eq!(s.view().values[0], 4);
    // A new change drops what could be redone.
    s.enter(9, 0).unwrap_err();
    s.enter(10, 2).unwrap();
    assert!(!s.view().can_redo);
    assert_eq!(s.redo().unwrap().text, "Nothing to redo");
    // Automatic marks are one step, and a digit takes its value out of its peers' marks.
    s.fill_marks().unwrap();
    assert_eq!(
        s.fill_marks().unwrap().text,
        "The pencil marks are already complete"
    );
    let before = s.view().marks[1];
    assert!(before & (1 << 3) == 0, "4 is in r1c1 already");
    s.undo().unwrap();
    assert_eq!(s.view().marks[3], 0);
}

#[test]
fn a_hint_for_a_wrong_entry_and_the_check() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    let c = (0..81).find(|&c| s.view().givens[c] == 0).unwrap();
    let wrong = (1..=9).find(|&d| d != sol[c]).unwrap();
    s.enter(c, wrong).unwrap();
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(
        h.text,
        format!(
            "The {wrong} in {} is wrong: the solution has another digit there.",
            cell(c)
        )
    );
    assert!(!h.applicable());
    assert_eq!(
        s.apply_hint().unwrap().text,
        "This hint has nothing to apply"
    );
    assert_eq!(s.apply_hint(), Err(SudokuError::NoHint));
    let m = s.check().unwrap();
    assert_eq!(m.tone, Tone::Warn);
    assert!(m.text.starts_with("Check: 1 entry wrong"), "{}", m.text);
    assert!(s.view().flagged.contains(&c));
    s.enter(c, 0).unwrap();
    assert!(s.view().flagged.is_empty(), "a change clears the flags");
    assert_eq!(s.check().unwrap().tone, Tone::Good);
}

/// Issue 37, defect 4: marks that are not filled in everywhere, and leave out a cell's digit, are notes, not
/// candidates: a hint still gives the next step (the one the grid's digits alone give), and says marks are wrong
/// only once every empty cell
/// has marks and a cell's marks rule out its digit. Only a step counts as a hint taken; a wrong entry a hint
/// points at counts once as a mistake, as a check counts it.
#[test]
fn partial_marks_still_get_a_step_and_only_steps_count() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    // r1c1: a corner mark that is not its digit, and two centre marks.
    let c = 0;
    assert_eq!(s.view().givens[c], 0);
    let others: Vec<u8> = (1..=9).filter(|&d| d != sol[c]).collect();
    s.toggle_mark(c, others[0]).unwrap();
    s.toggle_centre_mark(c, others[1]).unwrap();
    s.toggle_centre_mark(c, others[2]).unwrap();
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(h.kind, HintKind::Step, "{}", h.text);
    // The step the digits alone give (as `boardlab sudoku hint` and the API give it).
    let values: [u8; 81] = s.view().values.try_into().unwrap();
    let plain = play::sudoku::hint(&values, &values, &[0; 81]);
    assert_eq!(h.text, plain.text);
    assert!(h.applicable());
    assert_eq!(s.view().hints, 1);
    // Every cell's marks filled in, then the solution's digit taken out of r1c1's: now the marks are wrong.
    s.fill_marks().unwrap();
    if s.view().marks[c] & (1 << (sol[c] - 1)) != 0 {
        s.toggle_mark(c, sol[c]).unwrap();
    }
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(h.kind, HintKind::Marks);
    assert_eq!(
        h.text,
        "Your pencil marks in r1c1 leave out the digit that belongs there; filling the marks again puts it back."
    );
    assert_eq!(h.cell(), Some(c));
    assert_eq!(s.view().hints, 1, "pointing at marks is not a hint taken");
    // With the digit back, the marks are candidates: the step reads them.
    s.toggle_mark(c, sol[c]).unwrap();
    s.hint().unwrap();
    assert_eq!(s.shown_hint().unwrap().kind, HintKind::Step);
    assert_eq!(s.view().hints, 2);
    // A wrong digit that clashes with nothing: the hint names it, counts it as one mistake, and no hint.
    let (cell, wrong) = (0..81)
        .filter(|&c| s.view().values[c] == 0)
        .find_map(|c| {
            let v = s.view().values;
            let peers = |d: u8| {
                (0..81).any(|o| {
                    o != c
                        && v[o] == d
                        && (o / 9 == c / 9
                            || o % 9 == c % 9
                            || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3))
                })
            };
            (1..=9).find(|&d| d != sol[c] && !peers(d)).map(|d| (c, d))
        })
        .unwrap();
    s.enter(cell, wrong).unwrap();
    assert_eq!(s.view().mistakes, 0);
    s.hint().unwrap();
    let h = s.shown_hint().unwrap().clone();
    assert_eq!(h.kind, HintKind::Mistake);
    assert_eq!(h.cell(), Some(cell));
    assert_eq!((s.view().hints, s.view().mistakes), (2, 1));
    s.check().unwrap();
    s.hint().unwrap();
    assert_eq!((s.view().hints, s.view().mistakes), (2, 1), "counted once");
}

#[test]
fn revealing_ends_the_game() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    s.reveal().unwrap();
    assert_eq!(s.end(), Some(End::Revealed));
    assert_eq!(s.view().values, sol.to_vec());
    assert_eq!(s.reveal(), Err(SudokuError::Over(End::Revealed)));
    let over = s.undo().unwrap_err();
    assert_eq!(over.to_string(), "The solution is shown.");
    assert_eq!(
        over.message().next,
        [play::NextAction::NewGame, play::NextAction::Leave]
    );
}

#[test]
fn every_bad_input_is_an_error_value() {
    let (env, _) = env();
    let mut s = fixed(&env);
    assert_eq!(s.enter(81, 1), Err(SudokuError::NoCell(81)));
    assert_eq!(s.enter(usize::MAX, 1), Err(SudokuError::NoCell(usize::MAX)));
    assert_eq!(s.enter(0, 10), Err(SudokuError::NoDigit(10)));
    assert_eq!(s.toggle_mark(0, 0), Err(SudokuError::NoDigit(0)));
    assert_eq!(s.toggle_mark(200, 1), Err(SudokuError::NoCell(200)));
    let e = s.enter(2, 5).unwrap_err();
    assert_eq!(e, SudokuError::Clue(2));
    assert_eq!(e.to_string(), "r1c3 is a clue; it cannot be changed");
    assert_eq!(e.tone(), Tone::Warn);
    assert_eq!(
        s.toggle_mark(2, 5).unwrap_err().to_string(),
        "r1c3 holds a digit; erase it before pencilling"
    );
    for (text, want) in [
        ("", "has 0 digits"),
        ("12", "has 2 digits"),
        ("0 1 1", "rows are numbered 1 to 9"),
        ("1 0 1", "columns are numbered 1 to 9"),
        ("x", "is not \"row column value\""),
        ("1 3 5", "r1c3 is a clue"),
    ] {
        let e = s.type_entry(text).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
    assert_eq!(s.set_cursor(81), Err(SudokuError::NoCell(81)));
    s.set_cursor(80).unwrap();
    s.move_cursor(Direction::Right);
    assert_eq!(s.cursor(), 72, "the cursor wraps along the row");
    s.move_cursor(Direction::Down);
    assert_eq!(s.cursor(), 0, "and down the column");
    // A repeated digit stops the automatic marks.
    s.enter(0, 3).unwrap();
    assert_eq!(s.fill_marks(), Err(SudokuError::Repeated));
    // Setups the generator does not know.
    let bad = Setup {
        difficulty: "impossible".into(),
        ..Setup::default()
    };
    let e = SudokuSession::new(bad, &env).unwrap_err().to_string();
    assert!(e.contains("impossible"), "{e}");
    let too_many = Setup {
        mode: Mode::Classic,
        hide: 90,
        ..Setup::default()
    };
    let e = SudokuSession::new(too_many, &env).unwrap_err().to_string();
    // Refused by the setup's check, in the one range every front end takes (0 to 64).
    assert_eq!(
        e,
        "cannot hide 90 cells: a puzzle keeps at least 17 clues, so at most 64 cells are hidden"
    );
    // A pasted puzzle without a solution, or with a repeated clue.
    let mut clash = [0u8; 81];
    clash[0] = 1;
    clash[1] = 1;
    assert!(matches!(
        Puzzle::from_givens(clash, "x"),
        Err(SudokuError::BadPuzzle(_))
    ));
}

#[test]
fn saves_round_trip_through_text_and_values() {
    let (env, clock) = env();
    let mut s = fixed(&env);
    s.enter(0, 4).unwrap();
    s.toggle_mark(1, 5).unwrap();
    s.undo().unwrap();
    s.hint().unwrap();
    s.toggle_pencil();
    clock.advance(std::time::Duration::from_millis(61_500));
    let state = s.to_state();
    let save = SaveFile::parse(&s.save().to_text()).unwrap();
    assert_eq!(save.state, state);
    let Session::Sudoku(back) = Session::load(&save, &env).unwrap() else {
        panic!("not a sudoku")
    };
    assert_eq!(back.to_state(), state);
    let v = back.view();
    assert_eq!(v.elapsed_ms, 61_500);
    assert!(v.pencil && v.can_undo && v.can_redo);
    assert_eq!(v.hints, 1);
    // The same through a JSON value, as a web page keeps it.
    let again = SaveFile::from_value(s.save().to_value()).unwrap();
    assert_eq!(again, s.save());
}

#[test]
fn damaged_saves_are_refused_with_the_reason() {
    let (env, _) = env();
    let mut s = fixed(&env);
    s.enter(0, 4).unwrap();
    s.undo().unwrap();
    let good = s.to_state();
    let with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut j = good.clone();
        edit(&mut j);
        SudokuSession::from_state(&j, &env)
            .err()
            .unwrap_or_default()
    };
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|j| j["board"]["values"] = "1".repeat(81).into()),
            "the grid: the clue in r1c3 was changed",
        ),
        (
            // A whole grid, as saves before format version 4 wrote the history.
            Box::new(|j| {
                j["redo"][0] = serde_json::json!({"values": "1".repeat(81), "marks": vec![0; 81]})
            }),
            "redo step 1: the clue in r1c3 was changed",
        ),
        (
            Box::new(|j| j["redo"][0] = serde_json::json!([2, 1, 0, 0])),
            "redo step 1: the clue in r1c3 was changed",
        ),
        (
            Box::new(|j| j["redo"][0] = serde_json::json!([0, 12, 0, 0])),
            "redo step 1: r1c1 holds 12",
        ),
        (
            Box::new(|j| j["redo"][0] = serde_json::json!([81, 1, 0, 0])),
            "redo step 1: changed cell 1: 81 is not a cell (0 to 80)",
        ),
        (
            Box::new(|j| j["redo"][0] = serde_json::json!([1, 1, 0, 0, 0, 1, 0, 0])),
            "redo step 1: changed cell 2: cell 0 comes after cell 1",
        ),
        (
            Box::new(|j| j["redo"][0] = serde_json::json!([0, 1, 0])),
            "redo step 1: has 3 numbers",
        ),
        (
            Box::new(|j| j["redo"][0] = serde_json::json!("r1c1")),
            "redo step 1: is neither a grid nor a list of changed cells",
        ),
        (
            Box::new(|j| j["puzzle"]["givens"] = "12".into()),
            "a grid has 81 cells, this one 2",
        ),
        (
            Box::new(|j| j["board"]["values"] = format!("x{}", ".".repeat(80)).into()),
            "cell 1 holds 'x'",
        ),
        (
            Box::new(|j| j["cursor"] = 99.into()),
            "the cursor is at cell 99",
        ),
        (
            Box::new(|j| j["cursor"] = (-1).into()),
            "the field \"cursor\" is wrong",
        ),
        (
            Box::new(|j| {
                j.as_object_mut().unwrap().remove("mistakes");
            }),
            "the field \"mistakes\" is missing",
        ),
        (
            Box::new(|j| j["setup"]["difficulty"] = "impossible".into()),
            "unknown value `impossible`",
        ),
        (
            Box::new(|j| j["board"]["marks"][3] = 1000.into()),
            "the pencil marks of r1c4 are out of range",
        ),
        (
            Box::new(|j| j["board"]["marks"] = serde_json::json!([1, 2])),
            "81 pencil-mark entries expected, found 2",
        ),
        (
            Box::new(|j| j["puzzle"]["solution"] = ".".repeat(81).into()),
            "the solution is not a complete valid grid",
        ),
        (
            Box::new(|j| j["end"] = "won".into()),
            "the field \"end\" is wrong",
        ),
        (
            Box::new(|j| j["end"] = "solved".into()),
            "the game is marked solved, but r1c1 is empty",
        ),
        (
            Box::new(|j| j["counted"] = serde_json::json!([[81, 1]])),
            "the field \"counted\" is wrong: (81, 1)",
        ),
        (
            Box::new(|j| *j = serde_json::json!(null)),
            "the field \"setup\" is missing",
        ),
        (
            Box::new(|j| *j = serde_json::json!([1])),
            "the field \"setup\" is missing",
        ),
    ];
    for (edit, want) in cases {
        let e = with(&*edit);
        assert!(e.contains(want), "{e:?} lacks {want:?}");
    }
}

/// A game saved while its puzzle was being made (no puzzle yet) loads, and makes its puzzle as a new game does;
/// counters saved at their maximum stay there instead of wrapping to zero; the mistakes a check counted are
/// kept by a save, so a check after loading does not count them again.
#[test]
fn saves_without_a_puzzle_counters_at_their_maximum_and_counted_mistakes() {
    let (env, _) = env();
    let mut state = fixed(&env).to_state();
    state["puzzle"] = serde_json::Value::Null;
    let mut s = SudokuSession::from_state(&state, &env).unwrap();
    let news = s.poll().unwrap().unwrap();
    assert!(
        news.text.starts_with("A new medium puzzle"),
        "{}",
        news.text
    );
    assert!(s.view().ready);
    // Both counters at u32::MAX.
    let mut state = fixed(&env).to_state();
    state["mistakes"] = u32::MAX.into();
    state["hints"] = u32::MAX.into();
    let mut s = SudokuSession::from_state(&state, &env).unwrap();
    s.enter(0, 3).unwrap(); // clashes with the clue 3 in r1c3
    s.hint().unwrap();
    assert_eq!((s.view().mistakes, s.view().hints), (u32::MAX, u32::MAX));
    // A wrong entry counted by a check stays counted once across a save.
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    let c = (0..81).find(|&c| s.view().givens[c] == 0).unwrap();
    let d = if sol[c] == 9 { 1 } else { sol[c] + 1 };
    s.enter(c, d).unwrap();
    s.check().unwrap();
    let counted = s.view().mistakes;
    assert!(counted >= 1);
    let mut back = SudokuSession::from_state(&s.to_state(), &env).unwrap();
    back.check().unwrap();
    assert_eq!(back.view().mistakes, counted);
}

/// Saves written by the terminal before the session layer existed still load, and save again unchanged.
#[test]
fn saves_of_the_first_release_load() {
    let (env, _) = env();
    for name in ["sudoku-v1", "sudoku-classic-revealed-v1"] {
        let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let save = SaveFile::parse(&text).unwrap();
        let session = Session::load(&save, &env).unwrap();
        // The same game, its history now written as steps (`a_history_of_whole_grids_becomes_steps`).
        let mut again = session.save();
        let mut expected = save.clone();
        for part in ["undo", "redo"] {
            again.state[part] = serde_json::Value::Null;
            expected.state[part] = serde_json::Value::Null;
        }
        assert_eq!(again, expected, "{name}");
        let Session::Sudoku(s) = session else {
            panic!("{name}: not a sudoku")
        };
        let v = s.view();
        match name {
            "sudoku-v1" => {
                assert_eq!((v.hints, v.mistakes, v.elapsed_ms), (1, 0, 65_000));
                assert!(v.can_undo && v.can_redo && v.end.is_none());
            }
            _ => {
                assert_eq!(v.end, Some(End::Revealed));
                assert_eq!(v.setup.mode, Mode::Classic);
                assert_eq!(v.cells_left, 0);
            }
        }
    }
}

/// A few random actions of every kind, with any cell and digit numbers.
#[derive(Debug, Clone)]
enum Action {
    Enter(usize, u8),
    Mark(usize, u8),
    Fill,
    Hint,
    Apply,
    Check,
    Undo,
    Redo,
    Type(String),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (0usize..90, 0u8..12).prop_map(|(c, d)| Action::Enter(c, d)),
        2 => (0usize..90, 0u8..12).prop_map(|(c, d)| Action::Mark(c, d)),
        1 => Just(Action::Fill),
        1 => Just(Action::Hint),
        1 => Just(Action::Apply),
        1 => Just(Action::Check),
        2 => Just(Action::Undo),
        1 => Just(Action::Redo),
        1 => "[0-9rc ,=x]{0,7}".prop_map(Action::Type),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever is played, nothing panics, the clues stay, and the game saves and loads to the same state.
    #[test]
    fn random_play_keeps_the_clues_and_round_trips(actions in proptest::collection::vec(action(), 1..40)) {
        let (env, _) = env();
        let mut s = fixed(&env);
        let givens = s.view().givens;
        for a in actions {
            let _ = match a {
                Action::Enter(c, d) => s.enter(c, d),
                Action::Mark(c, d) => s.toggle_mark(c, d),
                Action::Fill => s.fill_marks(),
                Action::Hint => s.hint(),
                Action::Apply => s.apply_hint(),
                Action::Check => s.check(),
                Action::Undo => s.undo(),
                Action::Redo => s.redo(),
                Action::Type(t) => s.type_entry(&t),
            };
            let v = s.view();
            for (c, &g) in givens.iter().enumerate() {
                if g != 0 {
                    prop_assert_eq!(v.values[c], g);
                }
            }
        }
        let state = s.to_state();
        let back = SudokuSession::from_state(&state, &env).unwrap();
        prop_assert_eq!(back.to_state(), state);
    }
}

/// Centre marks (save format version 2): toggled, cleared by a digit in the cell and from its row, column and
/// box, erased, undone, saved and loaded; a version-1 save (no centre marks) loads with none.
#[test]
fn centre_marks_are_kept_cleared_and_saved() {
    let (env, _) = env();
    let mut s = fixed(&env);
    // r1c1 is empty in the fixed puzzle; r1c2 too; r9c1 shares the column with r1c1.
    assert_eq!(s.view().givens[0], 0);
    let m = s.toggle_centre_mark(0, 4).unwrap();
    assert_eq!(m.text, "Centre mark 4 added to r1c1");
    s.toggle_centre_mark(0, 5).unwrap();
    s.toggle_centre_mark(1, 4).unwrap();
    s.toggle_centre_mark(1, 5).unwrap();
    s.toggle_mark(1, 4).unwrap();
    let v = s.view();
    assert_eq!(v.centre[0], 0b11000);
    assert_eq!(v.centre[1], 0b11000);
    assert_eq!(v.marks[1], 0b01000);
    assert_eq!(v.marks[0], 0, "corner and centre marks are apart");
    // Saved and loaded through the envelope.
    let save = SaveFile::parse(&s.save().to_text()).unwrap();
    assert_eq!(save.version, play::save::VERSION);
    assert_eq!(save.state["board"]["centre"][0], serde_json::json!(0b11000));
    let Session::Sudoku(mut back) = Session::load(&save, &env).unwrap() else {
        panic!("not a sudoku")
    };
    assert_eq!(back.view().centre, v.centre);
    // A 4 in r1c1 clears its centre marks and the 4 from r1c2's (same row), corner and centre alike.
    back.enter(0, 4).unwrap();
    let w = back.view();
    assert_eq!((w.centre[0], w.centre[1], w.marks[1]), (0, 0b10000, 0));
    // Erasing an empty cell takes its centre marks too; undo brings them back.
    back.undo().unwrap();
    back.enter(1, 0).unwrap();
    assert_eq!(back.view().centre[1], 0);
    assert_eq!(back.view().marks[1], 0);
    back.undo().unwrap();
    assert_eq!(back.view().centre[1], 0b11000);
    // Bad input is an error value naming the cell or the digit.
    assert_eq!(back.toggle_centre_mark(81, 1), Err(SudokuError::NoCell(81)));
    assert_eq!(back.toggle_centre_mark(0, 0), Err(SudokuError::NoDigit(0)));
    assert_eq!(
        back.toggle_centre_mark(2, 1),
        Err(SudokuError::HoldsDigit(2))
    );
    // A damaged centre mark is refused with the cell.
    let mut state = back.to_state();
    state["board"]["centre"][10] = serde_json::json!(1024);
    let e = SudokuSession::from_state(&state, &env).unwrap_err();
    assert_eq!(e, "the grid: the centre marks of r2c2 are out of range");
    // A version-1 save without centre marks loads with none, and saves without the field.
    let mut v1 = s.save().to_value();
    v1["version"] = serde_json::json!(1);
    v1["state"]["board"]
        .as_object_mut()
        .unwrap()
        .remove("centre");
    let old = SaveFile::from_value(v1).unwrap();
    let Session::Sudoku(o) = Session::load(&old, &env).unwrap() else {
        panic!("not a sudoku")
    };
    assert!(o.view().centre.iter().all(|&m| m == 0));
    assert!(o.to_state()["board"].get("centre").is_none());
}

/// The player's setting "remove a placed digit from the pencil marks of its row, column and box" (issue 37):
/// on (`enter`, and `enter_with(.., true)`), the digit leaves every peer's corner and centre marks and nothing
/// else changes; off, every other cell's marks stay as they were. Either way the cell's own marks go.
#[test]
fn a_placed_digit_tidies_its_peers_marks_only_when_asked() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let sol = s.puzzle().unwrap().solution;
    s.fill_marks().unwrap();
    let sees = |a: usize, b: usize| {
        a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
    };
    // An empty at whose digit is a corner mark of a peer; a centre mark of that digit in another empty peer.
    let (at, peer) = (0..81)
        .filter(|&c| s.view().givens[c] == 0)
        .find_map(|c| {
            let d = sol[c];
            (0..81)
                .find(|&o| sees(c, o) && s.view().marks[o] & (1 << (d - 1)) != 0)
                .map(|o| (c, o))
        })
        .expect("a peer with the digit among its marks");
    let digit = sol[at];
    let bitd = 1u16 << (digit - 1);
    let centre_peer = (0..81)
        .find(|&o| o != peer && sees(at, o) && s.view().values[o] == 0)
        .expect("another empty peer");
    if s.view().centre[centre_peer] & bitd == 0 {
        s.toggle_centre_mark(centre_peer, digit).unwrap();
    }
    let before = s.view();
    assert!(before.marks[at] != 0, "the at has marks of its own");

    // Off: only the at itself changes.
    s.enter_with(at, digit, false).unwrap();
    let off = s.view();
    assert_eq!(
        (off.values[at], off.marks[at], off.centre[at]),
        (digit, 0, 0)
    );
    for o in (0..81).filter(|&o| o != at) {
        assert_eq!(
            (off.marks[o], off.centre[o]),
            (before.marks[o], before.centre[o]),
            "{} kept its marks",
            cell(o)
        );
    }
    assert!(off.marks[peer] & bitd != 0 && off.centre[centre_peer] & bitd != 0);

    // On: the digit leaves exactly its peers' marks.
    s.undo().unwrap();
    assert_eq!(s.view().marks, before.marks);
    s.enter_with(at, digit, true).unwrap();
    let on = s.view();
    assert_eq!((on.values[at], on.marks[at], on.centre[at]), (digit, 0, 0));
    for o in (0..81).filter(|&o| o != at) {
        let keep = if sees(at, o) { !bitd } else { u16::MAX };
        assert_eq!(
            (on.marks[o], on.centre[o]),
            (before.marks[o] & keep, before.centre[o] & keep),
            "{}",
            cell(o)
        );
    }
    assert!(on.marks[peer] & bitd == 0 && on.centre[centre_peer] & bitd == 0);

    // `enter` is the setting on.
    s.undo().unwrap();
    s.enter(at, digit).unwrap();
    assert_eq!((s.view().marks, s.view().centre), (on.marks, on.centre));
}

/// A hint drawn on the candidates (issue 37): the naked pair 4 8 in r8c1 and r9c3 of a grid without pencil marks.
/// The hint names the pattern's candidates and gives every cell of the step its candidates, which are, with no
/// marks, the digits its row, column and box leave (counted here the slow way).
#[test]
fn a_hint_carries_its_patterns_candidates_and_its_cells_candidates() {
    let text = "..9341.6.3476592811562879436..92531.531764829.92813.56915478632.6359217....136.9.";
    let values: [u8; 81] = std::array::from_fn(|i| {
        text.as_bytes()[i]
            .checked_sub(b'0')
            .filter(|d| (1..=9).contains(d))
            .unwrap_or(0)
    });
    let h = play::sudoku::hint(&values, &values, &[0; 81]);
    assert_eq!(h.kind, HintKind::Step);
    assert!(
        h.text
            .starts_with("Naked pair: in box 7, r8c1 and r9c3 hold only 4 and 8"),
        "{}",
        h.text
    );
    let (r8c1, r9c3) = (63, 74);
    let mut lit = h.highlight.clone();
    lit.sort_unstable();
    assert_eq!(lit, [(r8c1, 4), (r8c1, 8), (r9c3, 4), (r9c3, 8)]);
    let left = |c: usize| -> u16 {
        let seen = (0..81)
            .filter(|&o| {
                o / 9 == c / 9 || o % 9 == c % 9 || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3)
            })
            .fold(0u16, |m, o| {
                if values[o] == 0 {
                    m
                } else {
                    m | 1 << (values[o] - 1)
                }
            });
        0x1ff & !seen
    };
    let mut cells: Vec<usize> = h.pattern.iter().chain(&h.targets).copied().collect();
    cells.sort_unstable();
    assert_eq!(
        h.candidates.iter().map(|&(c, _)| c).collect::<Vec<_>>(),
        cells
    );
    for &(c, mask) in &h.candidates {
        assert_eq!(mask, left(c), "{}", cell(c));
    }
    for &(c, d) in h.highlight.iter().chain(&h.remove) {
        let mask = h.candidates.iter().find(|x| x.0 == c).map(|x| x.1).unwrap();
        assert!(
            mask & 1 << (d - 1) != 0,
            "{d} is a candidate of {}",
            cell(c)
        );
    }
    assert!(!h.remove.is_empty());
    assert!(h.remove.iter().all(|&(_, d)| d == 4 || d == 8));
    // A hint that only points at a cell carries neither.
    let mut wrong = values;
    wrong[0] = 1;
    let m = play::sudoku::hint(&values, &wrong, &[0; 81]);
    assert!(m.highlight.is_empty() && m.candidates.is_empty(), "{m:?}");
}

/// A hint shown when the game is saved is shown again when it is loaded, and applying it then does what it
/// would have done (the web server answers each request from the saved state).
#[test]
fn a_shown_hint_survives_a_save() {
    let (env, _) = env();
    let mut s = fixed(&env);
    s.hint().unwrap();
    let shown = s.shown_hint().cloned().unwrap();
    assert!(shown.applicable());
    let state = s.to_state();
    assert_eq!(state["hint"], serde_json::json!(true));
    let mut back = SudokuSession::from_state(&state, &env).unwrap();
    assert_eq!(back.shown_hint(), Some(&shown));
    assert_eq!(back.view().hints, 1, "not counted twice");
    s.apply_hint().unwrap();
    back.apply_hint().unwrap();
    assert_eq!(back.to_state(), s.to_state());
    assert!(back.to_state().get("hint").is_none());
    // With no hint shown, applying one is refused.
    assert_eq!(back.apply_hint(), Err(SudokuError::NoHint));
}

/// A long game never outgrows its save: after 10,000 actions (marks, digits, erasures, filled marks, undos
/// and redos) the save stays small, loads again, and undo walks back through every step it kept (the
/// oldest are forgotten past the bound), each grid exactly as it was played.
#[test]
fn ten_thousand_actions_save_load_and_undo() {
    let (env, _) = env();
    let mut s = fixed(&env);
    let empty: Vec<usize> = (0..81).filter(|&c| s.view().givens[c] == 0).collect();
    // The grids after each change, the newest last (those an undo can return to).
    let mut grids = vec![(s.view().values, s.view().marks, s.view().centre)];
    let mut x: u64 = 7;
    for i in 0..10_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let cell = empty[(x % empty.len() as u64) as usize];
        let digit = (x >> 20) as u8 % 9 + 1;
        let before = s.view();
        match i % 10 {
            0..=4 if before.values[cell] == 0 => {
                s.toggle_mark(cell, digit).unwrap();
            }
            5 if before.values[cell] == 0 => {
                s.toggle_centre_mark(cell, digit).unwrap();
            }
            6 => {
                s.enter(cell, digit).unwrap();
            }
            7 => {
                s.enter(cell, 0).unwrap();
            }
            8 if i % 500 == 8 => {
                // Refused while two digits clash in a house.
                s.fill_marks().ok();
            }
            9 if i % 7 == 0 => {
                // Back and forth: the grid is as it was.
                s.undo().unwrap();
                s.redo().unwrap();
            }
            _ => {
                s.toggle_mark(empty[0], digit).ok();
            }
        }
        let v = s.view();
        if (&v.values, &v.marks, &v.centre) != (&before.values, &before.marks, &before.centre) {
            grids.push((v.values, v.marks, v.centre));
        }
        assert!(s.end().is_none(), "random digits do not finish the grid");
    }
    let text = s.save().to_text();
    assert!(!text.contains('\n'), "a save is written compact");
    assert!(
        text.len() < 48 << 10,
        "the save of 10,000 actions is {} bytes",
        text.len()
    );
    let save = SaveFile::parse(&text).unwrap();
    let Session::Sudoku(mut back) = Session::load(&save, &env).unwrap() else {
        panic!("not a sudoku")
    };
    assert_eq!(back.save(), s.save());
    let mut undone = 0;
    while back.view().can_undo {
        let v = back.view();
        assert_eq!(
            (v.values, v.marks, v.centre),
            grids.pop().unwrap(),
            "after {undone} undos"
        );
        back.undo().unwrap();
        undone += 1;
    }
    assert_eq!(
        {
            let v = back.view();
            (v.values, v.marks, v.centre)
        },
        grids.pop().unwrap()
    );
    assert!(undone >= 100, "only {undone} steps kept");
    eprintln!(
        "10,000 actions: a save of {} bytes, {undone} steps kept to undo",
        text.len()
    );
    // And redo walks forward again to where the game was.
    while back.view().can_redo {
        back.redo().unwrap();
    }
    assert_eq!(back.view().values, s.view().values);
    assert_eq!(back.view().marks, s.view().marks);
}

/// Saves of the format before steps (whole grids in the undo and redo lists) load, and their history becomes
/// steps that undo and redo to the very same grids.
#[test]
fn a_history_of_whole_grids_becomes_steps() {
    let (env, _) = env();
    let path = format!(
        "{}/tests/fixtures/sudoku-v1.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let save = SaveFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let Session::Sudoku(mut s) = Session::load(&save, &env).unwrap() else {
        panic!("not a sudoku")
    };
    let grid = |b: &serde_json::Value| b["values"].as_str().unwrap().to_string();
    let digits = |v: &play::sudoku::SudokuView| -> String {
        v.values
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect()
    };
    let undo = save.state["undo"].as_array().unwrap().clone();
    let redo = save.state["redo"].as_array().unwrap().clone();
    assert!(!undo.is_empty() && !redo.is_empty());
    let saved = s.save();
    assert!(saved.state["undo"][0].is_array(), "{}", saved.state["undo"]);
    for b in undo.iter().rev() {
        s.undo().unwrap();
        assert_eq!(digits(&s.view()), grid(b));
        assert_eq!(
            s.view().marks,
            serde_json::from_value::<Vec<u16>>(b["marks"].clone()).unwrap()
        );
    }
    assert!(!s.view().can_undo);
    for _ in &undo {
        s.redo().unwrap();
    }
    for b in redo.iter().rev() {
        s.redo().unwrap();
        assert_eq!(digits(&s.view()), grid(b));
    }
    assert!(!s.view().can_redo);
}
