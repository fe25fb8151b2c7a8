//! Sudoku saves: text and values both ways, damaged and old saves, random play round-tripped, and long games
//! that never outgrow their save.

use play::sudoku::{End, Mode, SudokuSession};
use play::{SaveFile, Session};
use proptest::prelude::*;

use super::{Edit, env, fixed};

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
