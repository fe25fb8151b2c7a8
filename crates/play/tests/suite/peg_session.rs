//! Peg solitaire sessions driven with no terminal: games finished with "show me a solution", undo, redo and
//! restart, the indicator from the table and from the search, the save format both ways, and every bad input
//! answered with an error value.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, OnceLock};

use peg::{Board, Finish, Lattice, Move, Position, Problem, Solver};
use play::peg::{Answer, Indicator, Oracle, PegError, PegSession, Verdict, Why};
use play::{Clock, Env, GameKind, Inline, PegTables, SaveFile, Session, Tone};
use proptest::prelude::*;

/// A change to a saved state, making it damaged.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// An environment without complete tables: the solver answers (fast on the triangle and for short games).
fn env() -> Env {
    let mut env = Env::new(Arc::new(Inline), Clock::manual());
    env.peg_tables = PegTables::new(0);
    env
}

/// One environment with a table cache for the tests of this file that use complete tables (on the triangle
/// only: an English table costs seconds, and the terminal's tests build those).
fn shared() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Env::new(Arc::new(Inline), Clock::manual());
        env.peg_tables = PegTables::new(4);
        env
    })
}

fn problem(board: &str, start: &[&str], finish: Option<&str>) -> Problem {
    Problem::from_names(Board::builtin(board).unwrap(), start, finish).unwrap()
}

/// Play the shown solution to the end; the number of jumps played.
fn finish_with_the_solution(s: &mut PegSession) -> usize {
    let m = s.show_solution();
    assert!(m.text.starts_with("A solution from here in "), "{}", m.text);
    let mut n = 0;
    while !s.is_over() {
        s.step().unwrap();
        n += 1;
        assert!(n <= 64, "no end");
    }
    n
}

/// A replay (issue 37): the position after each of the first jumps of a finished game, as the engine crate's
/// positions give it, with no solution shown and nothing changed.
#[test]
fn a_finished_game_is_replayed_jump_by_jump() {
    let env = env();
    let mut s = PegSession::new(problem("triangle", &[], None), &env).unwrap();
    let n = finish_with_the_solution(&mut s);
    let before = s.save();
    let jumps = s.played().to_vec();
    assert_eq!(jumps.len(), n);
    let mut pos = s.problem().start();
    for k in 0..=n {
        let v = s.view_at(k).unwrap();
        assert_eq!(v.pegs, pos.pegs(), "after {k} jumps");
        for (h, hole) in v.holes.iter().enumerate() {
            assert_eq!(
                hole.peg,
                pos.has_peg(h),
                "hole {} after {k} jumps",
                hole.name
            );
        }
        assert_eq!(v.moves.len(), k);
        assert_eq!(v.over, k == n);
        assert_eq!(v.why_text, "", "a solution's positions can all finish");
        assert!(v.solution.is_none() && !v.waiting);
        if let Some(&m) = jumps.get(k) {
            pos = pos.apply(m);
        }
    }
    assert_eq!(s.view_at(n).unwrap().holes, s.view().holes);
    assert_eq!(
        s.view_at(n + 1).unwrap_err(),
        format!("there is no jump {}: the game has {n} jumps played", n + 1)
    );
    assert_eq!(s.save(), before, "a replay changes nothing");
}

#[test]
fn the_english_game_to_the_centre_is_finished_with_show_me_a_solution() {
    let env = env();
    let mut s = PegSession::new(problem("english", &[], Some("d4")), &env).unwrap();
    assert_eq!(
        s.opening().text,
        "Jump a peg over a neighbour into an empty hole. Leave one peg on d4."
    );
    // Without a table the solver answers, at once with a blocking runner.
    assert_eq!(
        s.view().table_note,
        "no complete table here: the search answers"
    );
    s.play_text("d2-d4").unwrap();
    s.play_text("f3d3").unwrap();
    assert_eq!(s.view().indicator, Indicator::Possible);
    assert_eq!(finish_with_the_solution(&mut s), 29);
    let v = s.view();
    assert!(v.over && v.solved);
    assert_eq!(v.pegs, 1);
    assert!(v.holes[Board::english().parse_hole("d4").unwrap()].peg);
    let done = s.game_over_message();
    assert_eq!(done.text, "Solved! One peg left, on the finish hole d4.");
    assert_eq!(done.next, [play::NextAction::NewGame]);
    // Every jump replays legally from the start.
    let mut g = peg::Game::new(Board::english(), Board::english().default_start());
    for j in &v.moves {
        g.play_str(&j.text).unwrap();
    }
    assert_eq!(g.position(), s.position());
}

#[test]
fn a_triangle_game_from_a_corner_to_a_hole() {
    let env = shared();
    let mut s = PegSession::new(problem("triangle", &["1"], Some("13")), env).unwrap();
    // The complete table was built at once (a blocking runner) and answers; a second game of the same kind
    // finds it in the environment's cache.
    let note = s.view().table_note;
    assert!(note.starts_with("complete table: "), "{note}");
    let again = PegSession::new(problem("triangle", &["1"], Some("13")), env).unwrap();
    assert_eq!(again.view().table_note, note);
    s.play_text("4 1").unwrap();
    let n = finish_with_the_solution(&mut s);
    assert_eq!(n + 1, 13, "a jump a peg, from 14 pegs to 1");
    assert!(s.view().solved);
}

#[test]
fn without_tables_the_search_answers() {
    // A cache that keeps no table: the solver answers everything, in slices.
    let env = env();
    let mut s = PegSession::new(problem("english", &[], None), &env).unwrap();
    assert_eq!(
        s.view().table_note,
        "no complete table here: the search answers"
    );
    s.settle(None);
    assert_eq!(s.view().indicator, Indicator::Possible);
    assert_eq!(finish_with_the_solution(&mut s), 31);
    assert!(s.view().solved);
}

#[test]
fn lost_positions_say_why_and_since_when() {
    let env = shared();
    let mut s = PegSession::new(problem("triangle", &["1"], None), env).unwrap();
    // Find, a jump at a time, a first jump after which one peg can no longer be left (by the table).
    let mut lost = false;
    'search: for _ in 0..4 {
        for mv in peg::Game::new(s.problem().board().clone(), s.position()).legal_moves() {
            s.play(mv).unwrap();
            if matches!(s.view().indicator, Indicator::Impossible { .. }) {
                lost = true;
                break 'search;
            }
            s.undo().unwrap();
        }
        // Every jump from here keeps a finish: take the first and look one further.
        let first = s.show_solution();
        assert!(first.text.starts_with("A solution"), "{}", first.text);
        s.step().unwrap();
    }
    assert!(lost, "no losing jump found");
    let v = s.view();
    let Indicator::Impossible { why, since } = v.indicator else {
        unreachable!()
    };
    assert_eq!(why, Why::Table);
    assert_eq!(since, Some(v.moves.len()), "lost since the last jump");
    // The reason in words, for a page that cannot call `Why::short`.
    assert_eq!(v.why_text, Why::Table.short());
    let m = s.show_solution();
    assert_eq!(
        m.text,
        "No solution from here: the complete table of finishable positions says so."
    );
    assert_eq!(m.tone, Tone::Warn);
    assert!(s.view().solution.is_none());
    // A step with no way on says so, and plays nothing.
    let n = s.played().len();
    assert!(s.step().unwrap().text.starts_with("No solution from here"));
    assert_eq!(s.played().len(), n);
    // Any jump on from here is lost because an earlier position was.
    if let Some(&mv) = peg::Game::new(s.problem().board().clone(), s.position())
        .legal_moves()
        .first()
    {
        s.play(mv).unwrap();
        if !s.is_over() {
            let Indicator::Impossible { since, .. } = s.view().indicator else {
                panic!("a position after a lost one is lost")
            };
            assert_eq!(since, Some(n), "still lost since the same jump");
        }
    }
}

#[test]
fn undo_redo_and_restart() {
    let env = env();
    let mut s = PegSession::new(problem("english", &[], None), &env).unwrap();
    assert_eq!(s.undo().unwrap().text, "Nothing to undo");
    assert_eq!(s.restart().text, "Already at the start");
    s.play_text("d2-d4").unwrap();
    s.play_text("f3-d3").unwrap();
    assert_eq!(s.undo().unwrap().text, "Took back the last jump");
    assert_eq!(s.played().len(), 1);
    assert_eq!(s.redo().unwrap().text, "Played the jump again");
    assert_eq!(s.played().len(), 2);
    assert_eq!(s.redo().unwrap().text, "Nothing to redo");
    let back = s.restart();
    assert_eq!(back.text, "Back at the start");
    assert_eq!(back.next, [play::NextAction::Undo]);
    assert!(s.played().is_empty());
    assert_eq!(s.undo().unwrap().text, "Brought back 2 jumps");
    assert_eq!(s.played().len(), 2, "undo brings the jumps back");
    // A new jump drops what could be redone.
    s.undo().unwrap();
    s.play_text("d5-d3").unwrap();
    assert!(!s.view().can_redo);
    // A new game forgets the history.
    assert_eq!(
        s.new_game().text,
        "Jump a peg over a neighbour into an empty hole. Leave one peg anywhere."
    );
    assert!(!s.view().can_undo);
}

#[test]
fn every_bad_input_is_an_error_value() {
    let env = env();
    let mut s = PegSession::new(problem("english", &[], None), &env).unwrap();
    let b = Board::english();
    let h = |n: &str| b.parse_hole(n).unwrap();
    for (text, want) in [
        ("", "\"\" is not a jump: type two holes, e.g. "),
        ("d2", "\"d2\" is not a jump"),
        ("z9-d4", "there is no hole \"z9\" on the english board"),
        ("d2-d5", "not two holes apart"),
        ("d1-d3", "Not a legal jump: d1-d3: d3 is not empty"),
        (
            "d4-d2",
            "Not a legal jump: d4-d2: there is no peg on d4 to jump with",
        ),
        ("b4-d4", ""),
        (
            "a4-c4",
            "Not a legal jump: a4-c4: there is no peg on b4 to jump over",
        ),
    ] {
        match s.play_text(text) {
            Ok(_) => assert!(want.is_empty(), "{text:?} was played"),
            Err(e) => assert!(
                e.to_string().contains(want) && !want.is_empty(),
                "{text:?}: {e}"
            ),
        }
    }
    assert_eq!(
        s.jump(h("a3"), h("a4")).unwrap_err().to_string(),
        "a3 cannot jump to a4: a jump goes over one neighbouring peg in a straight line"
    );
    assert!(matches!(
        s.jump(33, 0),
        Err(PegError::NoHole { hole: 33, .. })
    ));
    assert!(matches!(
        s.jump(usize::MAX, 0),
        Err(PegError::NoHole { .. })
    ));
    // A jump made up of hole numbers the board does not have.
    for mv in [
        Move::new(60, 61, 62),
        Move::new(0, 1, 2),
        Move::new(200, 1, 2),
    ] {
        assert!(matches!(s.play(mv), Err(PegError::Illegal(_))), "{mv:?}");
    }
    // A finished game takes no more jumps.
    let mut t = PegSession::new(problem("triangle", &["1"], None), &env).unwrap();
    finish_with_the_solution(&mut t);
    let e = t.play_text("4-1").unwrap_err();
    assert!(matches!(e, PegError::Illegal(_) | PegError::Over), "{e:?}");
    assert_eq!(
        e.tone(),
        if e == PegError::Over {
            Tone::Warn
        } else {
            Tone::Error
        }
    );
}

#[test]
fn a_start_that_can_never_finish_says_so_at_once() {
    let env = env();
    let s = PegSession::new(Problem::standard(Board::builtin("french").unwrap()), &env).unwrap();
    assert!(
        !s.busy(),
        "no table and no search for a start of the wrong class"
    );
    assert_eq!(
        s.opening().text,
        "This start can never end with one peg anywhere (position class): try another."
    );
    assert_eq!(
        s.view().indicator,
        Indicator::Impossible {
            why: Why::Class,
            since: None
        }
    );
    assert!(!s.view().class_allows);
}

/// On a board without a complete table the indicator's answers come from the position class and from the
/// solver; they are checked here against the rules.
#[test]
fn the_search_answers_where_there_is_no_table() {
    let env = env();
    let b = Board::builtin("french").unwrap();
    let start = b.full().without_peg(b.parse_hole("d2").unwrap());
    let mut o = Oracle::new(&b, start, Finish::Anywhere, &env);
    assert!(o.table_note().contains("no complete table for 37 holes"));
    // A position known to finish: one peg on d6 (the class of the d2 start) with jumps taken back.
    let mut p = Position::EMPTY.with_peg(b.parse_hole("d6").unwrap());
    assert_eq!(b.position_class(p), b.position_class(start));
    for _ in 0..10 {
        let back = b
            .moves()
            .iter()
            .copied()
            .find(|m| m.is_undoable(p))
            .unwrap();
        p = p.undo(back);
    }
    assert_eq!(p.pegs(), 11);
    let line = [start, p];
    o.wait(&line, None);
    let path = match o.answer(&line) {
        Answer::Known(Verdict::Possible(path)) => path,
        other => panic!("{other:?}"),
    };
    let end = path.iter().fold(p, |q, &m| {
        assert!(m.is_legal(q));
        q.apply(m)
    });
    assert_eq!(end.pegs(), 1);
    // Every position along that way is known now.
    assert!(matches!(
        o.answer(&[p.apply(path[0])]),
        Answer::Known(Verdict::Possible(_))
    ));
    // Pegs that can jump but never come together: the search proves it, as the library's solver does.
    let h = |n: &str| b.parse_hole(n).unwrap();
    let apart = Position::EMPTY
        .with_peg(h("a3"))
        .with_peg(h("b3"))
        .with_peg(h("g5"))
        .with_peg(h("c7"));
    assert!(!Solver::new(&b, Finish::Anywhere).can_finish(apart).unwrap());
    o.wait(&[apart], None);
    assert!(matches!(
        o.answer(&[apart]),
        Answer::Known(Verdict::Impossible(Why::Search | Why::Class))
    ));
    // No jump left.
    let stuck = Position::EMPTY.with_peg(h("a3")).with_peg(h("g5"));
    assert!(matches!(
        o.answer(&[apart, stuck]),
        Answer::Known(Verdict::Impossible(Why::Stuck | Why::Class))
    ));
}

#[test]
fn saves_round_trip_and_keep_the_history() {
    let env = env();
    let mut s = PegSession::new(problem("triangle", &["1"], Some("13")), &env).unwrap();
    s.play_text("4-1").unwrap();
    s.play_text("6-4").unwrap();
    s.undo().unwrap();
    let save = SaveFile::parse(&s.save().to_text()).unwrap();
    assert_eq!(save.state, s.to_state());
    let Session::Peg(back) = Session::load(&save, &env).unwrap() else {
        panic!("not a peg game")
    };
    assert_eq!(back.to_state(), s.to_state());
    assert_eq!(back.played(), s.played());
    assert!(back.view().can_undo && back.view().can_redo);
}

#[test]
fn a_board_from_a_layout_is_saved_with_its_layout() {
    let env = env();
    let text = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
    let (board, start) = Board::from_layout(text, Lattice::Square, "mine").unwrap();
    let mut s =
        PegSession::new(Problem::new(board, start, Finish::Anywhere).unwrap(), &env).unwrap();
    s.play_text("d2-d4").unwrap();
    let state = s.to_state();
    assert_eq!(state["board"], "mine");
    assert_eq!(state["lattice"], "square");
    assert!(state["layout"].as_str().unwrap().contains("ooooooo"));
    let back = PegSession::from_state(&state, &env).unwrap();
    assert_eq!(back.to_state(), state);
    assert_eq!(back.position(), s.position());
    // The built-in boards are saved by name only, as the first release did.
    let english = PegSession::new(Problem::standard(Board::english()), &env).unwrap();
    assert!(english.to_state().get("layout").is_none());
}

#[test]
fn damaged_saves_are_refused_with_the_reason() {
    let env = env();
    let mut s = PegSession::new(problem("english", &[], None), &env).unwrap();
    s.play_text("d2-d4").unwrap();
    s.play_text("f3-d3").unwrap();
    s.undo().unwrap();
    let good = s.to_state();
    let with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut j = good.clone();
        edit(&mut j);
        PegSession::from_state(&j, &env).err().unwrap_or_default()
    };
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|j| j["board"] = "hexagon".into()), "the board: "),
        (
            Box::new(|j| j["start"] = serde_json::json!(["z9"])),
            "the start: unknown hole \"z9\"",
        ),
        (
            Box::new(|j| j["start"] = serde_json::json!(["d4", "d4"])),
            "the start: hole d4 is named twice",
        ),
        (
            Box::new(|j| j["start"] = serde_json::json!([])),
            "the start: no hole is empty",
        ),
        (Box::new(|j| j["finish"] = "q7".into()), "the finish: "),
        (
            Box::new(|j| j["moves"] = serde_json::json!(["d2-d4", "d2-d4"])),
            "the moves: jump 2: d2-d4: there is no peg on d2",
        ),
        (
            Box::new(|j| j["redo"] = serde_json::json!([["d1-d3"]])),
            "redo step 1: jump 1: d1-d3",
        ),
        (
            Box::new(|j| j["undo"] = serde_json::json!([["x"]])),
            "undo step 1: jump 1: ",
        ),
        (
            Box::new(|j| j["moves"] = 5.into()),
            "the field \"moves\" is wrong",
        ),
        (
            Box::new(|j| {
                j.as_object_mut().unwrap().remove("redo");
            }),
            "the field \"redo\" is missing",
        ),
        (
            Box::new(|j| {
                j["layout"] = "o.o\n".into();
                j["lattice"] = "hexagonal".into();
            }),
            "the lattice \"hexagonal\"",
        ),
        (
            Box::new(|j| *j = serde_json::json!("peg")),
            "the field \"board\" is missing",
        ),
    ];
    for (edit, want) in cases {
        let e = with(&*edit);
        assert!(e.contains(want), "{e:?} lacks {want:?}");
    }
}

/// Saves written by the terminal before the session layer existed still load, and save again unchanged.
#[test]
fn saves_of_the_first_release_load() {
    for name in ["peg-v1", "peg-triangle-v1"] {
        let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let save = SaveFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(save.kind(), Ok(GameKind::Peg));
        let session = Session::load(&save, &env()).unwrap();
        assert_eq!(session.save(), save, "{name}");
        let Session::Peg(s) = session else {
            panic!("{name}: not a peg game")
        };
        let v = s.view();
        match name {
            "peg-v1" => {
                assert_eq!(v.moves.len(), 2);
                assert_eq!(v.pegs, 30);
                assert!(v.can_undo && v.can_redo);
                assert_eq!(v.indicator, Indicator::Possible);
            }
            _ => {
                assert_eq!(v.board, "triangle");
                assert_eq!(v.finish.as_deref(), Some("13"));
                assert_eq!(v.pegs, 12);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random typed text and hole numbers never panic; every position reached is the replay of the jumps
    /// played, and the game saves and loads to the same state.
    #[test]
    fn random_input_is_answered_and_the_game_round_trips(
        inputs in proptest::collection::vec(
            prop_oneof![
                (0usize..40, 0usize..40).prop_map(|(a, b)| (a, b, String::new())),
                "[a-h0-9 ,-]{0,6}".prop_map(|t| (0, 0, t)),
            ],
            1..30,
        )
    ) {
        let env = env();
        let mut s = PegSession::new(problem("triangle", &["5"], None), &env).unwrap();
        for (a, b, text) in inputs {
            let _ = if text.is_empty() { s.jump(a, b) } else { s.play_text(&text) };
            if a % 7 == 3 {
                s.undo().unwrap();
            }
        }
        let mut g = peg::Game::new(s.problem().board().clone(), s.problem().start());
        for &m in s.played() {
            prop_assert!(g.play(m).is_ok());
        }
        prop_assert_eq!(g.position(), s.position());
        let state = s.to_state();
        let back = PegSession::from_state(&state, &env).unwrap();
        prop_assert_eq!(back.to_state(), state);
    }
}
