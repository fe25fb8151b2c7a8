//! The peg solitaire screen, driven key by key on a test terminal.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tui_common::{Harness, config};
use boardlab::tui::App;
use peg::{Board, Finish, Move, Position, Solver};
use play::GameKind;
use ratatui::style::Modifier;

/// The jumps on screen, as the screen saves them.
fn moves(h: &Harness) -> Vec<String> {
    let state = h.app.game().unwrap().save_state(h.app.config());
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The position on screen, rebuilt with the library from the saved board, start and jumps.
fn position(h: &Harness) -> (Board, Position) {
    let state = h.app.game().unwrap().save_state(h.app.config());
    let board = Board::builtin(state["board"].as_str().unwrap()).unwrap();
    let mut g = peg::Game::new(board.clone(), start_of(&board, &state));
    for m in moves(h) {
        g.play_str(&m).unwrap();
    }
    (board, g.position())
}

fn start_of(board: &Board, state: &serde_json::Value) -> Position {
    let mut p = board.full();
    for v in state["start"].as_array().unwrap() {
        p = p.without_peg(board.parse_hole(v.as_str().unwrap()).unwrap());
    }
    p
}

/// Type `jumps` (FROM-TO, space separated) at the jump prompt, one by one, then close the prompt.
fn type_jumps(h: &mut Harness, jumps: &[String]) {
    h.keys(":");
    for j in jumps {
        h.keys(&format!("{j}<Enter>"));
    }
    if h.app.game().unwrap().capturing() {
        h.keys("<Esc>");
    }
}

/// Screen x, y of the glyph of a hole of the English board (from the layout the snapshots show).
fn english_xy(name: &str) -> (u16, u16) {
    let b = Board::english();
    let (c, l) = b.cell(b.parse_hole(name).unwrap());
    (1 + 5 + 4 * c as u16, 3 + 2 + 2 * l as u16)
}

#[test]
fn the_english_start() {
    let h = Harness::game(GameKind::Peg);
    insta::assert_snapshot!(h.screen());
    assert!(h.shows("Peg solitaire · english · start d4 · finish anywhere"));
    assert!(h.shows("Pegs    32 left"));
    assert!(h.shows("✔ still possible"));
    // The complete table of the game: the classes from which the centre (1,679,072) or another
    // lone peg of its class can still be reached.
    assert!(
        h.shows("complete table: 1,679,073 classes"),
        "{}",
        h.screen()
    );
    // Pegs and the empty hole are different glyphs.
    let (x, y) = english_xy("d4");
    assert_eq!(h.buffer()[(x, y)].symbol(), "○");
    let (x, y) = english_xy("c4");
    assert_eq!(h.buffer()[(x, y)].symbol(), "●");
}

#[test]
fn the_triangle_from_the_title_screen() {
    let mut h = Harness::title();
    h.select("Peg solitaire");
    h.keys("<Down>");
    assert!(h.shows("▶ Board         ◀ english ▶"), "{}", h.screen());
    h.keys("<Right><Right>");
    assert!(h.shows("◀ triangle ▶"));
    // The start and finish options now name the triangle's holes.
    assert!(h.shows("Start         ◀ 1 (std) ▶"), "{}", h.screen());
    h.keys("<Enter>");
    insta::assert_snapshot!(h.screen());
    assert!(h.shows("Peg solitaire · triangle · start 1 · finish anywhere"));
    assert!(h.shows("Pegs    14 left"));
    assert!(h.shows("complete table: 390 classes"));
    // Holes 1..15 drawn as a triangle, each number under its hole.
    let screen = h.screen();
    let lines: Vec<&str> = screen.lines().collect();
    let row_of = |n: &str| {
        lines
            .iter()
            .position(|l| l.split_whitespace().take(5).any(|w| w == n))
            .unwrap()
    };
    assert!(row_of("1") < row_of("2") && row_of("2") < row_of("4"));
    assert!(row_of("4") < row_of("7") && row_of("7") < row_of("11"));
    assert_eq!(row_of("11"), row_of("15"));
    // A jump on the triangle, typed.
    h.keys(":4-1<Enter><Esc>");
    assert_eq!(moves(&h), vec!["4-1"]);
    assert!(
        h.shows("4-1: the peg on hole 2 is taken off."),
        "{}",
        h.screen()
    );
}

#[test]
fn a_jump_by_cursor_shows_the_targets_first() {
    let mut h = Harness::game(GameKind::Peg);
    // The cursor starts on the first peg that can jump: d2.
    let reversed = |h: &Harness, hole: &str| {
        let (x, y) = english_xy(hole);
        h.buffer()[(x, y)].modifier.contains(Modifier::REVERSED)
    };
    assert!(reversed(&h, "d2"));
    h.keys("<Enter>");
    assert!(h.shows("d2 chosen: it can jump to d4"), "{}", h.screen());
    let (x, y) = english_xy("d4");
    assert_eq!(h.buffer()[(x, y)].symbol(), "◎", "d4 is marked as a target");
    insta::assert_snapshot!("chosen", h.screen());
    h.keys("<Down>");
    assert!(reversed(&h, "d3"));
    h.keys("<Down>");
    assert!(reversed(&h, "d4"));
    h.keys("<Enter>");
    assert_eq!(moves(&h), vec!["d2-d4"]);
    assert!(h.shows("d2-d4: the peg on d3 is taken off."));
    assert!(h.shows("Pegs    31 left"));
    assert!(h.shows("Moves   1 made · last d2-d4"));
    insta::assert_snapshot!("after_a_jump", h.screen());
    // The cursor moves over holes only, wrapping round: left from c1 is e1.
    h.keys("<Up><Up><Up><Left>");
    assert!(reversed(&h, "c1"), "{}", h.screen());
    h.keys("<Left>");
    assert!(reversed(&h, "e1"));
}

#[test]
fn a_typed_jump() {
    let mut h = Harness::game(GameKind::Peg);
    h.keys(":");
    assert!(h.shows("Jump:"), "{}", h.screen());
    h.keys("d2d4<Enter>");
    // The prompt stays open for the next jump.
    h.keys("f3 d3<Enter>");
    assert_eq!(moves(&h), vec!["d2-d4", "f3-d3"]);
    insta::assert_snapshot!(h.screen());
    h.keys("<Esc>");
    assert!(!h.app.game().unwrap().capturing());
}

#[test]
fn illegal_jumps_are_explained() {
    let mut h = Harness::game(GameKind::Peg);
    let cases = [
        (
            "zz",
            "\"zz\" is not a jump: type two holes, e.g. d2-d4 or d2d4",
        ),
        (
            "d2-d5",
            "d2-d5 is not a jump: d2 and d5 are not two holes apart in a line",
        ),
        ("a1-a3", "there is no hole \"a1\" on the english board"),
        (
            "d4-d2",
            "Not a legal jump: d4-d2: there is no peg on d4 to jump with",
        ),
        ("d1-d3", "Not a legal jump: d1-d3: d3 is not empty"),
    ];
    for (typed, want) in cases {
        h.keys(&format!(":{typed}<Enter>"));
        assert!(h.shows(want), "{typed}: {}", h.screen());
        h.keys("<Esc>");
    }
    h.keys(":d2-d4<Enter>d1-d3<Enter>");
    assert!(
        h.shows("Not a legal jump: d1-d3: there is no peg on d2 to jump over"),
        "{}",
        h.screen()
    );
    insta::assert_snapshot!(h.screen());
    h.keys("<Esc>");
    assert_eq!(moves(&h), vec!["d2-d4"]);
    // By cursor: an empty hole, a peg that cannot jump, a target the chosen peg cannot reach.
    // The cursor is on d4, where the jump landed.
    h.keys("<Up><Enter>");
    assert!(
        h.shows("d3 is empty: put the cursor on a peg and press Enter"),
        "{}",
        h.screen()
    );
    h.keys("<Down><Down><Down><Enter>");
    assert!(h.shows("The peg on d6 cannot jump"), "{}", h.screen());
    // b3 can jump to d3; d2 (empty) is not its target.
    h.keys("<Up><Up><Up><Left><Left><Enter>");
    assert!(h.shows("b3 chosen: it can jump to d3"), "{}", h.screen());
    h.keys("<Right><Right><Up><Enter>");
    assert!(h.shows("b3 cannot jump to d2"), "{}", h.screen());
    h.keys("<Esc>");
    assert!(h.shows("Put down"));
    assert_eq!(moves(&h), vec!["d2-d4"]);
}

#[test]
fn undo_redo_and_restart() {
    let mut h = Harness::game(GameKind::Peg);
    type_jumps(&mut h, &["d2-d4".into(), "f3-d3".into(), "e1-e3".into()]);
    h.keys("uu");
    assert_eq!(moves(&h), vec!["d2-d4"]);
    assert!(h.shows("Took back the last jump"));
    h.keys("r");
    assert_eq!(moves(&h), vec!["d2-d4", "f3-d3"]);
    insta::assert_snapshot!(h.screen());
    h.keys("r");
    assert_eq!(moves(&h).len(), 3);
    h.keys("r");
    assert!(h.shows("Nothing to redo"));
    // Restart is a step of its own: undo brings the jumps back.
    h.keys("b");
    assert!(moves(&h).is_empty());
    assert!(h.shows("Back at the start"));
    assert!(h.shows("Pegs    32 left"));
    h.keys("u");
    assert_eq!(moves(&h).len(), 3);
    // A new jump after an undo drops the redo stack.
    h.keys("u:e5-e3<Enter><Esc>");
    assert_eq!(moves(&h), vec!["d2-d4", "f3-d3", "e5-e3"]);
    h.keys("r");
    assert!(h.shows("Nothing to redo"));
    h.keys("uuuu");
    assert!(h.shows("Nothing to undo"), "{}", h.screen());
}

/// The solver's solution from the standard start, checked by the library.
fn english_solution() -> Vec<String> {
    let b = Board::english();
    let d4 = b.parse_hole("d4").unwrap();
    let moves = Solver::new(&b, Finish::Hole(d4))
        .solve(b.default_start())
        .unwrap()
        .unwrap();
    moves.iter().map(|&m| b.format_move(m)).collect()
}

#[test]
fn a_solved_game() {
    let mut h = Harness::game(GameKind::Peg);
    let solution = english_solution();
    assert_eq!(solution.len(), 31);
    type_jumps(&mut h, &solution[..30]);
    assert!(h.shows("Pegs    2 left"));
    assert!(h.shows("✔ still possible"));
    type_jumps(&mut h, &solution[30..]);
    let (board, pos) = position(&h);
    assert_eq!(pos.pegs(), 1);
    assert!(pos.has_peg(board.parse_hole("d4").unwrap()));
    assert!(h.shows("Solved! One peg left, on d4."), "{}", h.screen());
    assert!(h.shows("Game over: solved"));
    insta::assert_snapshot!(h.screen());
    // Nothing is left to play; a finished game leaves without asking.
    h.keys("<Enter>");
    assert!(h.shows("The game is over"));
    h.keys("q");
    assert!(h.shows("Choose a game"), "{}", h.screen());
}

#[test]
fn the_solution_is_shown_and_played_step_by_step_and_by_itself() {
    let mut h = Harness::game(GameKind::Peg);
    h.keys("h");
    assert!(
        h.shows("A solution from here in 31 jumps: next "),
        "{}",
        h.screen()
    );
    assert!(h.shows("Solution from here: 31 jumps"));
    insta::assert_snapshot!("solution_shown", h.screen());
    h.keys("..");
    assert_eq!(moves(&h).len(), 2);
    assert!(h.shows("29 jumps to go"), "{}", h.screen());
    // Auto-play: one jump per half second of the (manual) clock; a key stops it.
    h.keys("a");
    assert!(h.shows("Playing the solution: any key stops"));
    h.advance(2);
    assert_eq!(moves(&h).len(), 6);
    h.keys("x");
    assert!(h.shows("Stopped."));
    h.advance(5);
    assert_eq!(moves(&h).len(), 6);
    h.keys("a");
    h.advance(60);
    let (_, pos) = position(&h);
    assert_eq!(pos.pegs(), 1);
    assert!(h.shows("Solved! One peg left"), "{}", h.screen());
    // Every jump is in the history.
    h.keys("u");
    assert_eq!(moves(&h).len(), 30);
}

#[test]
fn a_stuck_game_and_no_solution_from_there() {
    let mut h = Harness::game(GameKind::Peg);
    // Always the first legal jump: the library says where that gets stuck and when it was lost.
    let b = Board::english();
    let mut solver = Solver::new(&b, Finish::Anywhere);
    let mut p = b.default_start();
    let mut jumps: Vec<Move> = Vec::new();
    let mut lost_at = None;
    while let Some(&m) = b.legal_moves(p).first() {
        p = p.apply(m);
        jumps.push(m);
        if lost_at.is_none() && !solver.can_finish(p).unwrap() {
            lost_at = Some(jumps.len());
        }
    }
    let lost_at = lost_at.unwrap();
    assert!(p.pegs() > 1);
    let names: Vec<String> = jumps.iter().map(|&m| b.format_move(m)).collect();
    type_jumps(&mut h, &names[..lost_at - 1]);
    assert!(h.shows("✔ still possible"), "{}", h.screen());
    type_jumps(&mut h, &names[lost_at - 1..lost_at]);
    assert!(h.shows("✘ no longer possible"), "{}", h.screen());
    h.keys("h");
    assert!(h.shows("No solution from here: "), "{}", h.screen());
    type_jumps(&mut h, &names[lost_at..lost_at + 1]);
    assert!(
        h.shows(&format!("since move {lost_at}, {}", names[lost_at - 1])),
        "{}",
        h.screen()
    );
    type_jumps(&mut h, &names[lost_at + 1..]);
    assert!(
        h.shows(&format!("Stuck: no jump left, {} pegs remain.", p.pegs())),
        "{}",
        h.screen()
    );
    assert!(h.shows(&format!("Game over: stuck with {} pegs", p.pegs())));
    insta::assert_snapshot!(h.screen());
}

#[test]
fn a_finish_hole_of_another_class_and_the_french_centre() {
    // The French board from the centre: no single peg can ever be left (position class).
    let mut h = Harness::title();
    h.select("Peg solitaire");
    h.keys("<Down><Right>");
    assert!(h.shows("◀ french ▶"));
    assert!(h.shows("◀ d4 (std) ✘ ▶"), "{}", h.screen());
    h.keys("<Enter>");
    assert!(h.shows("✘ not possible"), "{}", h.screen());
    assert!(h.shows("from this start: position class"));
    assert!(h.shows("This start can never end with one peg anywhere (position class)"));
    h.keys("h");
    assert!(h.shows("No solution from here: the position class does not allow"));
    // The English board with the finish on c1 (not the centre's class).
    let mut h = Harness::title();
    h.select("Peg solitaire");
    h.keys("<Down><Down><Down><Right>");
    assert!(h.shows("◀ c1 ✘ ▶"), "{}", h.screen());
    h.keys("<Right><Right><Right><Right><Right><Right><Right><Right><Right><Right><Right>");
    h.keys("<Right><Right><Right><Right><Right>");
    assert!(h.shows("◀ d4 ▶"), "{}", h.screen());
    h.keys("<Enter>");
    assert!(h.shows("finish d4"));
    assert!(h.shows("Goal    one peg on d4"));
    assert!(h.shows("✔ still possible"));
    assert!(
        h.shows("complete table: 1,679,072 classes"),
        "{}",
        h.screen()
    );
}

#[test]
fn save_and_load() {
    let mut h = Harness::game(GameKind::Peg);
    type_jumps(&mut h, &["d2-d4".into(), "f3-d3".into(), "e1-e3".into()]);
    h.keys("u");
    h.keys("s");
    let path = h.save_dir().join("peg.json");
    assert!(h.shows("Saved to <TMP>/saves/peg.json"), "{}", h.screen());
    let text = std::fs::read_to_string(&path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["format"], "boardlab-save");
    assert_eq!(json["version"], play::save::VERSION);
    assert_eq!(json["game"], "peg");
    assert_eq!(json["state"]["board"], "english");
    assert_eq!(json["state"]["start"], serde_json::json!(["d4"]));
    assert_eq!(json["state"]["finish"], serde_json::Value::Null);
    assert_eq!(
        json["state"]["moves"],
        serde_json::json!(["d2-d4", "f3-d3"])
    );
    let saved = h.screen();
    // Leaving after a save does not ask; the title offers the save.
    h.keys("q");
    h.select("Resume saved Peg solitaire");
    h.keys("<Enter>");
    assert!(h.shows("Resumed <TMP>/saves/peg.json"), "{}", h.screen());
    let strip = |s: &str| s.lines().skip(1).take(22).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&h.screen()), strip(&saved));
    insta::assert_snapshot!(h.screen());
    // The history came back too.
    h.keys("r");
    assert_eq!(moves(&h), vec!["d2-d4", "f3-d3", "e1-e3"]);
    h.keys("uuu");
    assert!(moves(&h).is_empty());
    // The same file through --load, and a finish hole survives the round trip.
    let (cfg, _dir) = config();
    let app = App::load(cfg, &path).unwrap();
    assert_eq!(app.game().unwrap().game(), GameKind::Peg);
    let mut state = json["state"].clone();
    state["finish"] = "d4".into();
    state["board"] = "english".into();
    let (cfg, dir) = config();
    let file = dir.path().join("finish.json");
    std::fs::write(
        &file,
        serde_json::json!({"format": "boardlab-save", "version": 1, "game": "peg", "state": state})
            .to_string(),
    )
    .unwrap();
    let h = Harness::with(App::load(cfg, &file).unwrap(), dir);
    assert!(h.shows("finish d4"), "{}", h.screen());
    assert!(h.shows("Moves   2 made · last f3-d3"));
}

#[test]
fn a_damaged_peg_save_is_refused() {
    let mut h = Harness::game(GameKind::Peg);
    h.keys(":d2-d4<Enter><Esc>s");
    let path = h.save_dir().join("peg.json");
    let good: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (cfg, _dir) = config();
    let try_with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut j = good.clone();
        edit(&mut j);
        std::fs::write(&path, serde_json::to_string(&j).unwrap()).unwrap();
        App::load(cfg.clone(), &path)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|j| j["state"]["board"] = "hexagon".into()),
            "the saved Peg solitaire game is damaged: the board: unknown board \"hexagon\"",
        ),
        (
            Box::new(|j| j["state"]["start"] = serde_json::json!(["z9"])),
            "the start: unknown hole \"z9\" on the english board",
        ),
        (
            Box::new(|j| j["state"]["start"] = serde_json::json!(["d4", "d4"])),
            "the start: hole d4 is named twice",
        ),
        (
            Box::new(|j| j["state"]["start"] = serde_json::json!([])),
            "the start: no hole is empty",
        ),
        (
            Box::new(|j| j["state"]["finish"] = "q1".into()),
            "the finish: unknown hole \"q1\"",
        ),
        (
            Box::new(|j| j["state"]["moves"] = serde_json::json!(["d2-d4", "d2-d4"])),
            "the moves: jump 2: d2-d4: there is no peg on d2 to jump with",
        ),
        (
            Box::new(|j| j["state"]["moves"] = serde_json::json!(["d2d5"])),
            "the moves: jump 1: malformed move \"d2d5\"",
        ),
        (
            Box::new(|j| j["state"]["redo"] = serde_json::json!([["d4-d2"]])),
            "redo step 1: jump 1: d4-d2: there is no peg on d4",
        ),
        (
            Box::new(|j| j["state"]["moves"] = 7.into()),
            "the field \"moves\" is wrong",
        ),
        (
            Box::new(|j| {
                j["state"].as_object_mut().unwrap().remove("undo");
            }),
            "the field \"undo\" is missing",
        ),
        (
            Box::new(|j| j["state"] = serde_json::json!("peg")),
            "the field \"board\" is missing",
        ),
    ];
    for (edit, want) in cases {
        let e = try_with(&*edit);
        assert!(e.contains(want), "{e:?} lacks {want:?}");
        assert!(e.contains("peg.json"), "{e}");
    }
    // A sudoku state in a peg save.
    let e = try_with(&|j| j["state"] = serde_json::json!({"grid": "123"}));
    assert!(e.contains("damaged"), "{e}");
    // On the title screen the same file gives the message, not a crash.
    h.keys("q");
    h.select("Resume saved Peg solitaire");
    h.keys("<Enter>");
    // (The message is longer than the line; the file's name and the start of the reason show.)
    assert!(
        h.shows("/saves/peg.json: the saved Peg solitaire game is damaged"),
        "{}",
        h.screen()
    );
    assert!(h.shows("Choose a game"));
}

#[test]
fn help_has_the_rules_and_keys() {
    let mut h = Harness::game(GameKind::Peg);
    h.keys("?");
    assert!(h.shows("Peg solitaire: the rules"), "{}", h.screen());
    assert!(h.shows("jumps over a neighbouring"), "{}", h.screen());
    h.keys("<PgDn><PgDn>");
    assert!(h.shows("type a jump"), "{}", h.screen());
    h.keys("<Esc>");
    assert!(h.shows("Pegs    32 left"));
}

#[test]
fn a_new_game_asks_first() {
    let mut h = Harness::game(GameKind::Peg);
    h.keys(":d2-d4<Enter><Esc>n");
    assert!(h.shows("Give up this game and start a new one? y/n"));
    h.keys("n");
    assert_eq!(moves(&h).len(), 1);
    h.keys("ny");
    assert!(moves(&h).is_empty());
    assert!(h.shows("Pegs    32 left"));
    h.keys("u");
    assert!(h.shows("Nothing to undo"));
}

/// How long the indicator takes to answer on the English board, from the key press to a known answer:
/// `cargo test -p boardlab --test suite -- --ignored --nocapture indicator_latency`.
#[test]
#[ignore = "a measurement, not a check: prints timings"]
fn indicator_latency() {
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    use std::time::{Duration, Instant};
    let b = Board::english();
    let solution = english_solution();
    // A game that goes wrong: the first legal jump each time.
    let mut p = b.default_start();
    let mut greedy = Vec::new();
    while let Some(&m) = b.legal_moves(p).first() {
        p = p.apply(m);
        greedy.push(b.format_move(m));
    }
    // The first game runs while the complete table is being built; the second finds it ready.
    // PEG_LATENCY_SOLUTION_FIRST=1 swaps them.
    let mut games = [("first legal jump", &greedy), ("solution", &solution)];
    if std::env::var_os("PEG_LATENCY_SOLUTION_FIRST").is_some() {
        games.reverse();
    }
    for (label, jumps) in games {
        // Fresh app: the complete table is built in the background while the game goes on.
        let (cfg, _dir) = config();
        let mut app = App::new_game(cfg, GameKind::Peg);
        let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
        let shows = |term: &ratatui::Terminal<ratatui::backend::TestBackend>, s: &str| {
            crate::tui_common::buffer_text(term.backend().buffer()).contains(s)
        };
        let t0 = Instant::now();
        let key = |c: char| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        let mut times = Vec::new();
        let wait = |app: &mut App, term: &mut ratatui::Terminal<ratatui::backend::TestBackend>| {
            let start = Instant::now();
            loop {
                app.tick();
                term.draw(|f| app.render(f)).unwrap();
                if !shows(term, "… being checked") {
                    return start.elapsed();
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        };
        times.push((0, wait(&mut app, &mut term), shows(&term, "✔")));
        for (i, j) in jumps.iter().enumerate() {
            app.handle_event(key(':'));
            for c in j.chars() {
                app.handle_event(key(c));
            }
            app.handle_event(Event::Key(KeyEvent::new(
                KeyCode::Enter,
                KeyModifiers::NONE,
            )));
            app.handle_event(Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
            times.push((i + 1, wait(&mut app, &mut term), shows(&term, "✔")));
        }
        println!(
            "{label} ({} s since the start of the game):",
            t0.elapsed().as_secs_f32()
        );
        for (n, d, possible) in times {
            println!(
                "  after {n:>2} jumps: {:>10.3} ms  {}",
                d.as_secs_f64() * 1e3,
                if possible {
                    "possible"
                } else {
                    "not possible / over"
                }
            );
        }
    }
}

#[test]
fn the_diamond_fits_with_its_names() {
    let mut h = Harness::title();
    h.select("Peg solitaire");
    h.keys("<Down><Right><Right><Right>");
    assert!(h.shows("◀ diamond ▶"));
    assert!(h.shows("◀ e5 (std) ✘ ▶"), "{}", h.screen());
    h.keys("<Enter>");
    let screen = h.screen();
    assert!(
        screen.contains("Peg solitaire · diamond · start e5"),
        "{screen}"
    );
    assert!(
        screen.contains("      a   b   c   d   e   f   g   h   i"),
        "{screen}"
    );
    let first = screen.lines().position(|l| l.starts_with("  1 ")).unwrap();
    let last = screen.lines().position(|l| l.starts_with("  9 ")).unwrap();
    assert_eq!(last - first, 16, "nine rows two lines apart");
    assert!(screen.contains("Pegs    40 left"));
    assert!(screen.contains("✘ not possible"));
    // Wider than 80 columns is never drawn.
    assert!(screen.lines().all(|l| l.chars().count() <= 80));
    // A jump on the diamond: e3 over e4 into e5.
    h.keys(":e3e5<Enter><Esc>");
    assert_eq!(moves(&h), vec!["e3-e5"]);
    assert!(h.shows("✘ no longer possible"));
}
