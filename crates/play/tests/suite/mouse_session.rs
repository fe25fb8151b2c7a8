//! Mouse & Cats sessions driven with no terminal: whole games against the engine, the exact solution's answers
//! (hint, who wins), the end of a game and how it is told, undo and redo, a stale engine result dropped, the save
//! format both ways (with the files the terminal wrote before the session layer existed), and every bad input
//! answered with an error value.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use mousecats::{Game, Position, Rule, Side, SizedMove, SizedPosition, Solution, Square};
use play::NextAction;
use play::mouse::{MouseError, MouseOptions, MouseSession, ScoreView};
use play::{Env, GameKind, Runner, SaveFile, Session, Task, Tone};
use proptest::prelude::*;

/// One blocking environment for the whole file, so the exact solutions are solved once per rule.
fn env() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(Env::blocking)
}

/// The exact solution of `rule`, from the shared environment's cache.
fn solution(rule: Rule) -> Arc<Solution> {
    env().mouse_solutions.get_or_solve(rule)
}

fn opts(player: Side, level: u8) -> MouseOptions {
    MouseOptions {
        player,
        level,
        ..MouseOptions::default()
    }
}

fn mv(text: &str) -> SizedMove {
    text.parse().unwrap()
}

/// Play the player's side with the exact solution's best moves until the game ends.
fn play_out(s: &mut MouseSession) {
    let sol = solution(s.options().rule);
    for _ in 0..60 {
        if s.is_over() {
            return;
        }
        let m = sol
            .best_move(s.position())
            .expect("a move while the game is on");
        s.play(m).unwrap();
    }
    panic!("the game did not end: {:?}", s.moves());
}

#[test]
fn who_wins_from_the_start_is_the_exact_solutions_verdict() {
    // The published result of the game: from the classic start the cats win, in 44 plies with best play.
    let mut s = MouseSession::new(MouseOptions::default(), env()).unwrap();
    assert_eq!(
        s.opening().text,
        "You are the mouse. Reach row 8 past the cats."
    );
    let m = s.who_wins();
    assert_eq!(
        m.text,
        "With best play from here the cats win in 44 plies (you lose)."
    );
    assert_eq!(m.tone, Tone::Warn);
    // The same question as the cats, after the engine's mouse moved first (at once with a blocking runner).
    let mut c = MouseSession::new(opts(Side::Cats, 10), env()).unwrap();
    assert_eq!(c.moves().len(), 1, "the engine's mouse moved first");
    // Its move is news for the first poll, once.
    assert_eq!(
        c.poll().map(|m| m.text),
        Some(format!("The mouse plays {}.", c.moves()[0]))
    );
    assert_eq!(c.poll(), None);
    let m = c.who_wins();
    assert_eq!(
        m.text,
        "With best play from here the cats win in 43 plies (you win)."
    );
    assert_eq!(m.tone, Tone::Good);
}

#[test]
fn the_hint_is_the_exact_solutions_best_move() {
    let mut s = MouseSession::new(opts(Side::Mouse, 3), env()).unwrap();
    let best = solution(Rule::FarRow)
        .best_move(&SizedPosition::from(Position::start()))
        .unwrap();
    let m = s.hint();
    assert_eq!(
        m.text,
        format!("Hint: {best}: you cannot win against best play; it holds out longest (44 plies).")
    );
    assert_eq!(s.hint_move(), Some(best));
    assert_eq!(s.view().hint, Some(best.to_string()));
    assert_eq!(s.view().legal, ["E1-F2", "E1-D2"]);
    // Playing clears it.
    s.play(best).unwrap();
    assert_eq!(s.hint_move(), None);
}

#[test]
fn a_game_against_perfect_play_ends_with_the_mouse_trapped_after_44_plies() {
    let mut s = MouseSession::new(opts(Side::Mouse, 10), env()).unwrap();
    play_out(&mut s);
    assert_eq!(s.winner(), Some(Side::Cats));
    assert_eq!(
        s.moves().len(),
        44,
        "best play on both sides takes 44 plies"
    );
    let m = s.game_over_message(Side::Cats);
    assert_eq!(m.text, "Game over: the mouse is trapped. The cats win!");
    // What the player can do next is data, not a key.
    assert_eq!(m.next, [NextAction::NewGame, NextAction::Undo]);
    assert_eq!(m.tone, Tone::Warn);
    let v = s.view();
    assert_eq!(v.winner.as_deref(), Some("cats"));
    let e = v.engine.expect("the engine's last search");
    assert!(e.perfect);
    assert_eq!(e.side, "cats");
    // The trapped mouse has no move, so the position itself says the game is over.
    assert!(s.legal_moves().is_empty() && v.legal.is_empty());
    // Every move replays legally from the start.
    let mut g = Game::new(SizedPosition::from(Position::start()), Rule::FarRow);
    for m in s.moves() {
        g.play(*m).unwrap();
    }
    assert_eq!(g.position(), s.position());
    // After the end: no more moves, no hint, but undo works.
    assert_eq!(s.play(mv("a1b2")), Err(MouseError::Over));
    assert_eq!(s.hint().text, "The game is over.");
    s.undo().unwrap();
    assert!(!s.is_over());
    assert!(s.moves().len() < 44);
}

/// A replay (issue 37): the position after each of the first moves of a finished game, replayed move by move
/// here with the engine crate's own game, and nothing played or searched meanwhile.
#[test]
fn a_finished_game_is_replayed_move_by_move() {
    let mut s = MouseSession::new(opts(Side::Mouse, 10), env()).unwrap();
    play_out(&mut s);
    let before = s.save();
    let moves = s.moves().to_vec();
    let mut g = Game::new(SizedPosition::from(Position::start()), Rule::FarRow);
    for k in 0..=moves.len() {
        let v = s.view_at(k).unwrap();
        let pos = g.position();
        assert_eq!(v.mouse, pos.mouse().to_string(), "after {k} moves");
        let cats: Vec<String> = pos.cat_squares().iter().map(|c| c.to_string()).collect();
        assert_eq!(v.cats, cats);
        assert_eq!(v.turn, pos.turn().to_string());
        assert_eq!(v.moves.len(), k);
        assert_eq!(v.legal.len(), g.legal_moves().len());
        assert_eq!(
            v.winner.is_some(),
            k == moves.len(),
            "only the whole game is won"
        );
        assert!(!v.thinking && v.hint.is_none());
        if let Some(&m) = moves.get(k) {
            g.play(m).unwrap();
        }
    }
    assert_eq!(s.view_at(moves.len()).unwrap().mouse, s.view().mouse);
    assert_eq!(
        s.view_at(moves.len() + 1).unwrap_err(),
        "there is no move 45: the game has 44 moves played"
    );
    assert_eq!(s.save(), before, "a replay changes nothing");
}

#[test]
fn the_cats_win_against_the_engines_mouse() {
    // Playing the cats with the exact solution beats the engine's mouse at any level; here level 3, from C1
    // under the escape rule.
    let o = MouseOptions {
        player: Side::Cats,
        level: 3,
        mouse_start: Square::C1.into(),
        first: Side::Mouse,
        rule: Rule::Escape,
        ..MouseOptions::default()
    };
    let mut s = MouseSession::new(o, env()).unwrap();
    play_out(&mut s);
    assert_eq!(s.winner(), Some(Side::Cats));
    let m = s.game_over_message(Side::Cats);
    assert_eq!(m.text, "Game over: the mouse is trapped. The cats win!");
    assert_eq!(m.tone, Tone::Good);
    let e = s.view().engine.unwrap();
    assert!(!e.perfect && e.depth >= 1 && e.nodes > 0);
    assert!(matches!(
        e.score,
        ScoreView::Loss { .. } | ScoreView::Eval { .. }
    ));
}

/// A finished game in which the mouse, playing the exact solution, won against cats that always play their
/// first (or last) legal move: the moves.
fn a_mouse_win(rule: Rule, cats_last: bool) -> Vec<SizedMove> {
    let sol = solution(rule);
    let mut g = Game::new(SizedPosition::from(Position::start()), rule);
    while !g.is_over() {
        let m = match g.position().turn() {
            Side::Mouse => sol.best_move(g.position()).unwrap(),
            Side::Cats => {
                let legal = g.legal_moves();
                legal[if cats_last { legal.len() - 1 } else { 0 }]
            }
        };
        g.play(m).unwrap();
    }
    assert_eq!(g.winner(), Some(Side::Mouse), "{rule:?}: {:?}", g.moves());
    g.moves().to_vec()
}

fn state(o: MouseOptions, moves: &[SizedMove]) -> serde_json::Value {
    serde_json::json!({
        "options": o,
        "moves": moves.iter().map(|m| m.to_compact()).collect::<Vec<_>>(),
        "undo": [],
        "redo": [],
        "panel": false,
    })
}

#[test]
fn how_the_mouse_won_is_told() {
    // Under row 8 the mouse wins by getting there.
    let moves = a_mouse_win(Rule::FarRow, false);
    let s = MouseSession::from_state(&state(opts(Side::Mouse, 4), &moves), env()).unwrap();
    assert_eq!(s.winner(), Some(Side::Mouse));
    assert_eq!(s.position().mouse().row(), 7);
    let m = s.game_over_message(Side::Mouse);
    assert_eq!(
        m.text,
        "Game over: the mouse reached row 8. The mouse wins!"
    );
    assert_eq!(m.tone, Tone::Good);
    assert!(!s.unsaved(), "a finished game has nothing to lose");
    // Under the escape rule the game ends earlier, when the mouse is past every cat.
    let o = MouseOptions {
        rule: Rule::Escape,
        ..opts(Side::Cats, 4)
    };
    let moves = a_mouse_win(Rule::Escape, true);
    let s = MouseSession::from_state(&state(o, &moves), env()).unwrap();
    assert_eq!(s.winner(), Some(Side::Mouse));
    assert!(
        s.position().mouse().row() < 7 && s.position().mouse_escaped(),
        "{:?} {:?}",
        s.position(),
        s.moves()
    );
    let m = s.game_over_message(Side::Mouse);
    assert_eq!(
        m.text,
        "Game over: the mouse got past every cat. The mouse wins!"
    );
    assert_eq!(m.tone, Tone::Warn, "the player, the cats, lost");
}

#[test]
fn undo_and_redo_go_back_and_forth_over_the_players_moves() {
    let mut s = MouseSession::new(opts(Side::Mouse, 2), env()).unwrap();
    assert_eq!(s.undo().unwrap().text, "Nothing to undo");
    s.play_text("e1f2").unwrap();
    let after_one = *s.position();
    let one = s.moves().to_vec();
    assert_eq!(one.len(), 2, "the player's move and the engine's answer");
    s.play_text("F2-E3").unwrap();
    let two = s.moves().to_vec();
    assert_eq!(two.len(), 4);
    assert!(s.view().can_undo && !s.view().can_redo);
    assert_eq!(s.undo().unwrap().text, "Took back your last move");
    assert_eq!(s.position(), &after_one);
    assert_eq!(s.undo().unwrap().text, "Took back your last move");
    assert_eq!(s.position(), &SizedPosition::from(Position::start()));
    assert!(s.moves().is_empty());
    assert!(!s.view().can_undo && s.view().can_redo);
    assert_eq!(s.redo().unwrap().text, "Replayed the move");
    assert_eq!(s.moves(), one.as_slice());
    s.redo().unwrap();
    assert_eq!(s.moves(), two.as_slice());
    assert_eq!(s.redo().unwrap().text, "Nothing to redo");
    // A new move after an undo drops what could have been redone.
    s.undo().unwrap();
    s.play_text("f2g3").unwrap();
    assert!(!s.view().can_redo);
    // A new game starts over with the same options.
    assert_eq!(s.new_game().text, "A new game.");
    assert!(s.moves().is_empty() && !s.view().can_undo);
}

#[test]
fn saves_round_trip_with_the_history() {
    let mut s = MouseSession::new(opts(Side::Mouse, 2), env()).unwrap();
    s.play_text("e1d2").unwrap();
    s.play_text("d2c3").unwrap();
    s.undo().unwrap();
    s.toggle_panel();
    assert!(s.unsaved());
    let save = s.save();
    let text = save.to_text();
    let back = SaveFile::parse(&text).unwrap();
    assert_eq!(back, save);
    let Session::Mouse(t) = Session::load(&back, env()).unwrap() else {
        panic!("not a mouse game")
    };
    assert_eq!(t.to_state(), s.to_state());
    assert_eq!(t.moves(), s.moves());
    assert_eq!(t.position(), s.position());
    assert!(!t.panel());
    let (a, b) = (t.view(), s.view());
    assert_eq!((a.can_undo, a.can_redo), (b.can_undo, b.can_redo));
    assert!(b.can_undo && b.can_redo);
    // The loaded game goes on like the original.
    let mut t = t;
    t.redo().unwrap();
    s.redo().unwrap();
    assert_eq!(t.moves(), s.moves());
}

/// Saves written by the terminal before the session layer existed still load, and save again unchanged.
#[test]
fn saves_of_the_first_release_load() {
    for name in ["mouse-v1", "mouse-cats-escape-v1"] {
        let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let save = SaveFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(save.kind(), Ok(GameKind::Mouse));
        let session = Session::load(&save, env()).unwrap();
        assert_eq!(session.save(), save, "{name}");
        let Session::Mouse(s) = session else {
            panic!("{name}: not a mouse game")
        };
        let v = s.view();
        match name {
            "mouse-v1" => {
                assert_eq!(v.moves, ["E1-F2", "H8-G7"]);
                assert_eq!(s.options(), &MouseOptions::default());
                assert_eq!(v.turn, "mouse");
                assert!(v.can_undo && !v.can_redo);
            }
            _ => {
                assert_eq!(v.moves, ["C1-D2", "B8-A7", "D2-E3"]);
                assert_eq!(
                    (s.options().player, s.options().rule, s.options().level),
                    (Side::Cats, Rule::Escape, 3)
                );
                assert_eq!(v.mouse, "E3");
                assert_eq!(v.turn, "cats");
            }
        }
    }
}

#[test]
fn every_bad_input_is_an_error_value() {
    let mut s = MouseSession::new(MouseOptions::default(), env()).unwrap();
    let e = s.play_text("zz").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"zz\" is not a move: type the two squares, e.g. E1F2 or e1-f2"
    );
    assert_eq!(e.tone(), Tone::Error);
    let e = s.play_text("b8a7").unwrap_err();
    assert!(e.to_string().contains("no mouse piece on B8"), "{e}");
    let e = s.play_text("e1e2").unwrap_err();
    assert_eq!(
        e.to_string(),
        "E1-E2 is not a legal mouse move here (legal: E1-F2 E1-D2)"
    );
    assert!(s.moves().is_empty(), "nothing was played");
    for (o, want) in [
        (
            MouseOptions {
                level: 11,
                ..MouseOptions::default()
            },
            "level must be between 1 and 10, got 11",
        ),
        (
            MouseOptions {
                level: 0,
                ..MouseOptions::default()
            },
            "level must be between 1 and 10, got 0",
        ),
        (
            MouseOptions {
                mouse_start: Square::B8.into(),
                ..MouseOptions::default()
            },
            "two pieces on B8",
        ),
    ] {
        let e = MouseSession::new(o, env()).unwrap_err();
        assert!(e.to_string().contains(want), "{e} lacks {want}");
    }
}

#[test]
fn damaged_saves_are_refused_with_the_reason() {
    let mut s = MouseSession::new(MouseOptions::default(), env()).unwrap();
    s.play_text("e1f2").unwrap();
    let good = s.to_state();
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|j| j["moves"][1] = "h8h1".into()),
            "move 2 (H8-H1): H8-H1 is not a legal cats move here",
        ),
        (
            Box::new(|j| j["moves"][0] = "x9".into()),
            "the moves: move 1 \"x9\" is not a move",
        ),
        (
            Box::new(|j| j["undo"][0] = serde_json::json!(["e1e2"])),
            "undo step 1: move 1 (E1-E2)",
        ),
        (
            Box::new(|j| j["redo"] = serde_json::json!([["zz"]])),
            "redo step 1: move 1 \"zz\" is not a move",
        ),
        (
            Box::new(|j| j["options"]["level"] = 11.into()),
            "level must be between 1 and 10, got 11",
        ),
        (
            Box::new(|j| j["options"]["mouse_start"] = "E2".into()),
            "E2",
        ),
        (
            Box::new(|j| j["options"]["rule"] = "row9".into()),
            "unknown rule 'row9'",
        ),
        (
            Box::new(|j| j["options"]["player"] = "dog".into()),
            "unknown side 'dog'",
        ),
        (Box::new(|j| j["panel"] = "yes".into()), "panel"),
        (
            Box::new(|j| {
                j.as_object_mut().unwrap().remove("moves");
            }),
            "moves",
        ),
        (Box::new(|j| *j = serde_json::json!(42)), ""),
    ];
    for (edit, want) in cases {
        let mut j = good.clone();
        edit(&mut j);
        let e = MouseSession::from_state(&j, env()).unwrap_err();
        assert!(e.contains(want), "{e:?} lacks {want:?}");
        assert!(!e.contains('\n'), "one line: {e:?}");
        // Through the save envelope, the reason is named with the game.
        let save = SaveFile::new(GameKind::Mouse, j);
        let e = Session::load(&save, env()).unwrap_err().to_string();
        assert!(
            e.starts_with("the saved Mouse & Cats game is damaged: "),
            "{e}"
        );
    }
}

/// A runner that runs each task on a thread of its own once the gate opens.
#[derive(Clone, Default)]
struct Gated {
    gate: Arc<(Mutex<bool>, Condvar)>,
}

impl Gated {
    fn open(&self) {
        let (lock, cv) = &*self.gate;
        *lock.lock().unwrap() = true;
        cv.notify_all();
    }
}

impl Runner for Gated {
    fn run(&self, task: Task) {
        let gate = Arc::clone(&self.gate);
        std::thread::spawn(move || {
            let (lock, cv) = &*gate;
            let mut open = lock.lock().unwrap();
            while !*open {
                open = cv.wait(open).unwrap();
            }
            drop(open);
            task();
        });
    }
}

#[test]
fn a_result_for_a_position_taken_back_is_dropped() {
    let gated = Gated::default();
    let env = Env::new(Arc::new(gated.clone()), play::Clock::system());
    let mut s = MouseSession::new(opts(Side::Mouse, 4), &env).unwrap();
    assert!(s.busy(), "the exact solution is being solved");
    assert_eq!(s.play_text("e1f2").unwrap().text, "You play E1-F2.");
    assert!(s.thinking() && s.view().thinking);
    // While the engine thinks, the player waits.
    assert_eq!(s.play_text("f2g3"), Err(MouseError::Thinking));
    assert_eq!(s.redo(), Err(MouseError::Thinking));
    assert_eq!(s.poll(), None, "nothing has run yet");
    // Undo while it thinks: the engine is stopped, and its move (for the position after E1-F2) is dropped.
    let opener = gated.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        opener.open();
    });
    assert_eq!(s.undo().unwrap().text, "Took back your last move");
    t.join().unwrap();
    assert!(!s.thinking());
    assert!(s.moves().is_empty(), "{:?}", s.moves());
    assert_eq!(s.position(), &SizedPosition::from(Position::start()));
    assert_eq!(s.view().engine, None);
    s.settle();
    assert!(s.moves().is_empty() && !s.busy());
    // The engine came back and plays on: its answer comes with poll (here: settle, which waits for it).
    let first = s.play_text("e1d2").unwrap();
    assert!(s.thinking() || s.moves().len() == 2);
    // The answer came at once (the thread was quick) or comes now.
    let m = s.settle().unwrap_or(first);
    assert!(m.text.starts_with("The cats play "), "{}", m.text);
    assert_eq!(s.moves().len(), 2);
    assert_eq!(s.moves()[0], mv("e1d2"));
    assert!(s.view().engine.is_some());
}

#[test]
fn a_question_asked_before_the_solution_is_ready_is_answered_when_it_is() {
    let gated = Gated::default();
    let env = Env::new(Arc::new(gated.clone()), play::Clock::system());
    let mut s = MouseSession::new(MouseOptions::default(), &env).unwrap();
    assert_eq!(s.who_wins().text, "Working it out…");
    gated.open();
    let m = s.settle().unwrap();
    assert_eq!(
        m.text,
        "With best play from here the cats win in 44 plies (you lose)."
    );
    // The solution is now in the environment's cache: the next answer is immediate.
    assert!(env.mouse_solutions.get(Rule::FarRow).is_some());
    assert!(s.hint().text.starts_with("Hint: "));
}

/// A runner that never runs anything (its tasks are dropped): the session reports a failed engine and the game
/// can still be taken back.
struct Dropping;

impl Runner for Dropping {
    fn run(&self, _task: Task) {}
}

#[test]
fn a_failed_engine_is_reported_and_the_game_goes_on() {
    let env = Env::new(Arc::new(Dropping), play::Clock::system());
    // The cats against the engine's mouse, which moves first and fails.
    let mut s = MouseSession::new(opts(Side::Cats, 2), &env).unwrap();
    assert!(!s.thinking());
    assert!(s.moves().is_empty());
    assert_eq!(
        s.play_text("b8a7"),
        Err(MouseError::NotYourTurn(Side::Mouse))
    );
    // The solution failed too: a question says so.
    let m = s.who_wins();
    assert_eq!(m.tone, Tone::Error, "{}", m.text);
    assert!(
        m.text.starts_with("The exact solution failed: "),
        "{}",
        m.text
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random typed text never panics; every game reached replays from the start and saves and loads to the
    /// same state.
    #[test]
    fn random_input_is_answered_and_the_game_round_trips(
        inputs in proptest::collection::vec("[a-hA-H1-9 -]{0,6}|[a-h][1-8][a-h][1-8]", 1..30)
    ) {
        let mut s = MouseSession::new(opts(Side::Mouse, 1), env()).unwrap();
        for (i, text) in inputs.iter().enumerate() {
            let _ = s.play_text(text);
            if i % 5 == 4 {
                s.undo().unwrap();
            }
            if i % 7 == 6 {
                let _ = s.redo();
            }
        }
        let mut g = Game::new(SizedPosition::from(Position::start()), Rule::FarRow);
        for m in s.moves() {
            g.play(*m).unwrap();
        }
        prop_assert_eq!(g.position(), s.position());
        let t = MouseSession::from_state(&s.to_state(), env()).unwrap();
        prop_assert_eq!(t.to_state(), s.to_state());
    }
}

#[test]
fn the_end_is_told_on_every_board_size() {
    use mousecats::{BoardPosition, BoardSize, SizedPosition};
    use play::mouse::how_won;
    let six = BoardSize::new(6).unwrap();
    let p = SizedPosition::parse_text("mouse=B6 cats=A1,C1,E1 turn=cats", Some(six)).unwrap();
    assert_eq!(p.outcome(Rule::FarRow), Some(Side::Mouse));
    assert_eq!(
        how_won(&p, Rule::FarRow, Side::Mouse),
        "the mouse reached row 6"
    );
    let p = SizedPosition::parse_text("mouse=C3 cats=A1,C1,E1 turn=cats", Some(six)).unwrap();
    assert_eq!(p.outcome(Rule::Escape), Some(Side::Mouse));
    assert_eq!(
        how_won(&p, Rule::Escape, Side::Mouse),
        "the mouse got past every cat"
    );
    assert_eq!(
        how_won(&p, Rule::Region, Side::Mouse),
        "the mouse got where no cat can reach"
    );
    assert_eq!(p.outcome(Rule::Region), Some(Side::Mouse));
}

/// A server keeps sessions behind a lock and hands them between threads.
#[test]
fn sessions_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<MouseSession>();
    send::<play::PegSession>();
    send::<play::SudokuSession>();
    send::<Session>();
    send::<Env>();
}

#[test]
fn the_environments_time_limit_bounds_the_engine_from_the_first_move() {
    // A server's bound: the engine's mouse at level 9 (an 18-ply search) moves first, within a millisecond,
    // so its search stops at a shallower depth.
    let mut env = Env::blocking();
    env.mouse_time_limit = Some(Duration::from_millis(1));
    let s = MouseSession::new(opts(Side::Cats, 9), &env).unwrap();
    assert_eq!(s.moves().len(), 1);
    let e = s.view().engine.unwrap();
    assert!(!e.perfect);
    assert!(e.depth >= 1 && e.depth < 18, "depth {}", e.depth);
}

fn board(n: u32) -> mousecats::BoardSize {
    mousecats::BoardSize::new(n).unwrap()
}

/// gilith/solve's published value: on 6x6 under the region rule, the mouse moving first from C1 wins in 21
/// plies. A session plays it out: the player's mouse on the exact solution's hints against perfect cats.
#[test]
fn a_6x6_region_game_is_won_by_the_hinted_mouse_in_21_plies() {
    let o = MouseOptions {
        level: 10,
        rule: Rule::Region,
        ..MouseOptions::for_size(board(6))
    };
    assert_eq!(o.mouse_start.to_string(), "C1");
    let mut s = MouseSession::new(o, env()).unwrap();
    assert_eq!(
        s.opening().text,
        "You are the mouse. Reach row 6 past the cats."
    );
    let v = s.view();
    assert_eq!((v.size, v.exact, v.rule_text.as_str()), (6, true, "region"));
    assert_eq!(v.cats, ["B6", "D6", "F6"]);
    assert_eq!(
        s.who_wins().text,
        "With best play from here the mouse wins in 21 plies (you win)."
    );
    let sol = env()
        .mouse_solutions
        .get_or_solve_for(board(6), Rule::Region)
        .unwrap();
    while !s.is_over() {
        let m = s.hint();
        let hinted = s.hint_move().unwrap();
        assert!(
            m.text
                .starts_with(&format!("Hint: {hinted}: it keeps your win")),
            "{}",
            m.text
        );
        assert!(sol.value_keeping_moves(s.position()).contains(&hinted));
        if s.moves().len() == 20 {
            // One ply from the end, in the singular (issue 37, defect 11).
            assert_eq!(
                m.text,
                format!("Hint: {hinted}: it keeps your win (in 1 ply).")
            );
            assert_eq!(
                s.who_wins().text,
                "With best play from here the mouse wins in 1 ply (you win)."
            );
        }
        s.play(hinted).unwrap();
    }
    assert_eq!(s.winner(), Some(Side::Mouse));
    assert_eq!(s.moves().len(), 21, "{:?}", s.moves());
    assert!(s.view().engine.unwrap().perfect);
    assert_eq!(
        s.game_over_message(Side::Mouse).text,
        "Game over: the mouse got where no cat can reach. The mouse wins!"
    );
}

/// The 4x4 board: the cats win in 8 plies (gilith/solve), whichever side the player takes; the cats may move
/// first and the mouse start elsewhere.
#[test]
fn small_boards_take_every_option() {
    let o = MouseOptions {
        player: Side::Cats,
        level: 10,
        rule: Rule::Region,
        ..MouseOptions::for_size(board(4))
    };
    let mut s = MouseSession::new(o, env()).unwrap();
    assert_eq!(s.moves().len(), 1, "the engine's mouse moved first");
    assert_eq!(
        s.who_wins().text,
        "With best play from here the cats win in 7 plies (you win)."
    );
    let o = MouseOptions {
        first: Side::Cats,
        mouse_start: "A1".parse().unwrap(),
        level: 3,
        rule: Rule::Escape,
        ..MouseOptions::for_size(board(4))
    };
    let s = MouseSession::new(o, env()).unwrap();
    assert_eq!(s.moves().len(), 1, "the engine's cats moved first");
    assert_eq!(s.position().mouse().to_string(), "A1");
    assert_eq!(s.position().turn(), Side::Mouse);
}

/// 12x12 has no exact table: level 10 is refused, the hint and "who wins" come from a search and say that no
/// exact value is available; the engine plays; the game saves with its size and loads back.
#[test]
fn a_12x12_game_says_plainly_that_no_exact_value_is_available() {
    let twelve = MouseOptions::for_size(board(12));
    let e = MouseSession::new(
        MouseOptions {
            level: 10,
            ..twelve
        },
        env(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "level 10 plays from the exact table, which is kept for boards up to 10x10; on 12x12 pick a level from 1 to 9"
    );
    let mut s = MouseSession::new(MouseOptions { level: 2, ..twelve }, env()).unwrap();
    let v = s.view();
    assert!(!v.exact);
    assert_eq!((v.size, v.mouse.as_str()), (12, "G1"));
    assert_eq!(v.cats, ["B12", "D12", "F12", "H12", "J12", "L12"]);
    let m = s.hint();
    let hinted = s.hint_move().expect("a hint from the search");
    assert!(s.legal_moves().contains(&hinted));
    assert!(
        m.text.starts_with(&format!("Hint: {hinted} (a ")) && m.text.contains("-ply search: "),
        "{}",
        m.text
    );
    assert!(
        m.text
            .contains("no exact value is available on 12x12 (the exact table is kept up to 10x10)"),
        "{}",
        m.text
    );
    let w = s.who_wins().text;
    assert!(w.starts_with("No exact value is available on 12x12"), "{w}");
    assert!(w.contains("-ply search says: "), "{w}");
    // Off-board squares are named.
    assert_eq!(
        s.play_text("g1m2").unwrap_err().to_string(),
        "G1-M2: M2 is off the 12x12 board (its squares are A1..L12)"
    );
    s.play(hinted).unwrap();
    assert_eq!(s.moves().len(), 2, "the engine's cats answered");
    let save = s.save();
    assert_eq!(save.version, play::save::VERSION);
    assert_eq!(save.state["options"]["size"], 12);
    assert_eq!(save.state["options"]["rule"], "far-row");
    let back = SaveFile::parse(&save.to_text()).unwrap();
    let Session::Mouse(t) = Session::load(&back, env()).unwrap() else {
        panic!("not a mouse game")
    };
    assert_eq!(t.to_state(), s.to_state());
    assert_eq!(t.position(), s.position());
    assert_eq!(t.size(), board(12));
}

#[test]
fn bad_sizes_rules_and_squares_in_saves_are_refused() {
    let s = MouseSession::new(MouseOptions::for_size(board(6)), env()).unwrap();
    let good = s.to_state();
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|j| j["options"]["size"] = 7.into()),
            "bad board size '7'",
        ),
        (
            Box::new(|j| j["options"]["size"] = 18.into()),
            "bad board size '18'",
        ),
        (
            Box::new(|j| j["options"]["rule"] = "row8".into()),
            "rule 'row8' is the 8x8 name of far-row",
        ),
        (
            Box::new(|j| j["options"]["mouse_start"] = "G1".into()),
            "G1 is off the 6x6 board",
        ),
        (
            Box::new(|j| j["moves"] = serde_json::json!(["c1d2", "h8g7"])),
            "move 2 (H8-G7)",
        ),
    ];
    for (edit, want) in cases {
        let mut j = good.clone();
        edit(&mut j);
        let e = MouseSession::from_state(&j, env()).unwrap_err();
        assert!(e.contains(want), "{e:?} lacks {want:?}");
        assert!(!e.contains('\n'), "one line: {e:?}");
    }
    // The 8x8 default game still names the off-board square.
    let mut s = MouseSession::new(MouseOptions::default(), env()).unwrap();
    assert_eq!(
        s.play_text("e1i2").unwrap_err().to_string(),
        "E1-I2: I2 is off the 8x8 board (its squares are A1..H8)"
    );
}

/// A save written by this release (format version 3) of a 6x6 game under the region rule loads and saves
/// again unchanged.
#[test]
fn a_version_3_save_of_a_6x6_game_loads() {
    let path = format!(
        "{}/tests/fixtures/mouse-6x6-region-v3.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let save = SaveFile::parse(&text).unwrap();
    let Session::Mouse(s) = Session::load(&save, env()).unwrap() else {
        panic!("not a mouse game")
    };
    assert_eq!(s.save(), save);
    // Written back compact (since format version 4), the same value.
    let back = s.save().to_text();
    assert!(!back.contains('\n'));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&back).unwrap()["state"],
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["state"]
    );
    let o = s.options();
    assert_eq!(
        (o.size.n(), o.rule, o.player, o.level),
        (6, Rule::Region, Side::Mouse, 4)
    );
    assert_eq!(s.view().moves, ["C1-D2", "B6-C5"]);
}
