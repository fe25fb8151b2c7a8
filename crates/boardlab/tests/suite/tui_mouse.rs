//! The Mouse & Cats screen, driven key by key on a test terminal.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tui_common::{Harness, config};
use boardlab::tui::App;
use mousecats::{Move, Position, Rule, Side, Solution};
use play::GameKind;
use ratatui::style::Modifier;

/// The position on screen, rebuilt with the library from the moves the screen reports.
fn position(h: &Harness) -> Position {
    let state = h.app.game().unwrap().save_state(h.app.config());
    let opts = &state["options"];
    let start = Position::start_with(
        opts["mouse_start"].as_str().unwrap().parse().unwrap(),
        opts["first"].as_str().unwrap().parse().unwrap(),
    )
    .unwrap();
    let mut g = mousecats::Game::new(start, opts["rule"].as_str().unwrap().parse().unwrap());
    for m in state["moves"].as_array().unwrap() {
        g.play(m.as_str().unwrap().parse().unwrap()).unwrap();
    }
    *g.position()
}

/// The screen with the engine's figures (which change whenever the engine is tuned) replaced by `~`, for
/// snapshots; the figures themselves are checked against the library in `the_panel_shows_the_engines_figures`.
fn redacted(h: &Harness) -> String {
    const LABELS: [&str; 7] = [
        "Score   ", "PV      ", "Search  ", "Tables  ", "Probes  ", "Stores  ", "Caught  ",
    ];
    h.screen()
        .lines()
        .map(|line| {
            for label in LABELS {
                if let Some(i) = line.find(label) {
                    if line[i + label.len()..].starts_with("no search yet") {
                        return line.to_string();
                    }
                    return format!("{}{label}~", &line[..i]);
                }
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Start a game from the title screen as the mouse or the cats, with the level moved on `level_steps` places
/// from the default 5 (wrapping after 10).
fn start_with(play_as_cats: bool, level_steps: usize) -> Harness {
    let mut h = Harness::title();
    h.select("Play as");
    if play_as_cats {
        h.keys("<Right>");
    }
    h.select("Level");
    for _ in 0..level_steps {
        h.keys("<Right>");
    }
    h.keys("<Enter>");
    h
}

#[test]
fn new_game() {
    let h = Harness::game(GameKind::Mouse);
    insta::assert_snapshot!(redacted(&h));
    assert!(h.shows("Turn    the mouse (you)"));
}

#[test]
fn a_move_by_cursor_and_the_engines_answer() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys("<Enter>");
    assert!(
        h.shows("E1 picked up: it can go to D2 or F2"),
        "{}",
        h.screen()
    );
    insta::assert_snapshot!("picked_up", redacted(&h));
    // The cursor (reversed in monochrome) is on E1, the mouse's square.
    let reversed =
        |h: &Harness, x: u16, y: u16| h.buffer()[(x, y)].modifier.contains(Modifier::REVERSED);
    // E1: file 4, row 1; the board's squares start at column 4, row 1 of the board at screen line 19.
    assert!(reversed(&h, 4 + 4 * 5, 19));
    assert!(!reversed(&h, 4 + 5 * 5, 17));
    // Up to E2 (a light square), right to F2, put the mouse down.
    h.keys("<Up><Right>");
    assert!(reversed(&h, 4 + 5 * 5, 17), "the cursor is on F2 now");
    h.keys("<Enter>");
    let pos = position(&h);
    assert_eq!(pos.mouse().to_string(), "F2");
    assert_eq!(pos.turn(), Side::Mouse, "the engine answered");
    assert!(h.shows("Moves   2 · last "));
    assert!(h.shows("Search  depth 10 ·"), "{}", h.screen());
    assert!(h.shows("PV      "));
    insta::assert_snapshot!("after_the_engines_answer", redacted(&h));
    // The hash and lock shown are the position's.
    assert!(h.shows(&format!("Hash    {:016X}", pos.zobrist_hash())));
    assert!(h.shows(&format!("Lock    {:08X}", pos.zobrist_lock())));
}

#[test]
fn the_panel_shows_the_engines_figures() {
    use mousecats::search::{Engine, EngineConfig, Level, Score};
    use mousecats::tt::TableConfig;
    let mut h = Harness::game(GameKind::Mouse);
    h.keys(":e1f2<Enter>");
    // The same search by the library, with a fresh engine like the screen's.
    let mut engine = Engine::new(EngineConfig {
        rule: Rule::FarRow,
        tables: Some(TableConfig::default()),
    })
    .unwrap();
    let after: Position = "mouse=F2 cats=B8,D8,F8,H8 turn=cats".parse().unwrap();
    let r = engine.think(&after, Level::new(5).unwrap(), None);
    let group = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        h.shows(&format!(
            "Search  depth {} · {} nodes",
            r.depth,
            group(r.nodes)
        )),
        "{}",
        h.screen()
    );
    let pv: Vec<String> = r.pv.iter().take(4).map(|m| m.to_compact()).collect();
    assert!(
        h.shows(&format!("PV      {}", pv.join(" "))),
        "{}",
        h.screen()
    );
    if let Score::Eval(e) = r.score {
        assert!(
            h.shows(&format!("Score   {e:+} for the cats")),
            "{}",
            h.screen()
        );
    }
    let st = r.table_stats;
    assert!(h.shows(&format!(
        "Probes  {} · hits {}",
        group(st.probes),
        group(st.hits)
    )));
    assert!(h.shows(&format!(
        "Stores  {} · overwrites {}",
        group(st.stores),
        group(st.collisions)
    )));
    assert!(h.shows(&format!(
        "Caught  {} by the lock",
        group(st.lock_mismatches)
    )));
    let tc = TableConfig::default();
    assert!(h.shows(&format!(
        "Tables  2 × 2^{}, {}-bit lock",
        tc.index_bits, tc.lock_bits
    )));
    assert!(h.shows(&format!("last {}", r.best_move.unwrap())));
}

#[test]
fn a_square_without_a_piece_of_yours_or_an_illegal_target_is_refused() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys("<Up><Enter>");
    assert!(h.shows("Put the cursor on the mouse and press Enter to pick it up"));
    h.keys("<Down><Enter><Up><Up><Enter>");
    assert!(
        h.shows("E1-E3 is not a legal mouse move here"),
        "{}",
        h.screen()
    );
    assert_eq!(position(&h), Position::start());
    h.keys("<Esc>");
    assert!(h.shows("Put down"));
}

#[test]
fn typed_moves_are_checked() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys(":zz<Enter>");
    assert!(
        h.shows("\"zz\" is not a move: type the two squares, e.g. E1F2 or e1-f2"),
        "{}",
        h.screen()
    );
    h.keys("b8a7<Enter>");
    assert!(h.shows("no mouse piece on B8"), "{}", h.screen());
    h.keys("e1e2<Enter>");
    assert!(
        h.shows("E1-E2 is not a legal mouse move here (legal: E1-F2 E1-D2)"),
        "{}",
        h.screen()
    );
    h.keys("E1-D2<Enter>");
    assert!(!h.shows("Move:"), "the prompt closes after a good move");
    assert_eq!(position(&h).mouse().to_string(), "D2");
}

#[test]
fn hint_and_who_wins_come_from_the_exact_solution() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys("w");
    assert!(
        h.shows("With best play from here the cats win in 44 plies (you lose)."),
        "{}",
        h.screen()
    );
    h.keys("h");
    let sol = Solution::solve(Rule::FarRow);
    let best = sol.best_move(&Position::start()).unwrap();
    assert!(
        h.shows(&format!(
            "Hint: {best}: you cannot win against best play; it holds out longest (44 plies)."
        )),
        "{}",
        h.screen()
    );
    insta::assert_snapshot!(redacted(&h));
    // Enter picks up the hinted piece (the cursor is on it).
    h.keys("<Enter>");
    assert!(h.shows("E1 picked up"));
}

#[test]
fn the_panel_can_be_hidden() {
    let mut h = Harness::game(GameKind::Mouse);
    assert!(h.shows("Hash "));
    h.keys("i");
    assert!(!h.shows("Hash "));
    assert!(h.shows("(i shows the engine panel)"));
    h.keys("i");
    assert!(h.shows("Hash "));
}

#[test]
fn undo_takes_back_the_players_move_and_the_answer() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys("u");
    assert!(h.shows("Nothing to undo"));
    h.keys(":e1f2<Enter>");
    let after_one = position(&h);
    h.keys(":f2e3<Enter>");
    assert!(h.shows("Moves   4"));
    h.keys("u");
    assert!(h.shows("Moves   2"));
    assert_eq!(position(&h), after_one);
    h.keys("u");
    assert!(h.shows("Moves   0"));
    assert_eq!(position(&h), Position::start());
    h.keys("r");
    assert_eq!(position(&h), after_one);
    h.keys("r");
    assert!(h.shows("Moves   4"));
    h.keys("r");
    assert!(h.shows("Nothing to redo"));
}

/// Play the player's side with the exact solution's moves until the game ends; the final screen.
fn play_out(h: &mut Harness, sol: &Solution) -> String {
    for _ in 0..60 {
        if h.shows("Game over") {
            return h.screen();
        }
        let pos = position(h);
        let mv: Move = sol.best_move(&pos).expect("a move while the game is on");
        h.keys(&format!(":{}<Enter>", mv.to_compact()));
    }
    panic!("the game did not end:\n{}", h.screen());
}

#[test]
fn a_loss_against_perfect_play() {
    // The mouse, against level 10: the cats win whatever the mouse does.
    let mut h = start_with(false, 5);
    assert!(h.shows("level 10"), "{}", h.screen());
    let sol = Solution::solve(Rule::FarRow);
    let screen = play_out(&mut h, &sol);
    assert!(
        screen.contains("Game over: the mouse is trapped. The cats win! n: new game, u: undo."),
        "{screen}"
    );
    assert!(
        screen.contains("Moves   44"),
        "perfect play on both sides takes 44 plies: {screen}"
    );
    insta::assert_snapshot!(redacted(&h));
    // The game can be taken back after it ended, and a new one started.
    h.keys("u");
    assert!(!h.shows("Game over"));
    h.keys("n");
    assert!(h.shows("Give up this game and start a new one? y/n"));
    h.keys("y");
    assert!(h.shows("Moves   0"));
}

#[test]
fn a_win_as_the_cats() {
    // The cats, with perfect moves, against the engine's mouse at level 1 (it moves first).
    let mut h = start_with(true, 6);
    assert!(h.shows("you: cats · level 1"), "{}", h.screen());
    assert_eq!(
        position(&h).turn(),
        Side::Cats,
        "the engine's mouse moved first"
    );
    let sol = Solution::solve(Rule::FarRow);
    let screen = play_out(&mut h, &sol);
    assert!(
        screen.contains("Game over: the mouse is trapped. The cats win!"),
        "{screen}"
    );
    assert!(screen.contains("Turn    over: the cats won"));
    insta::assert_snapshot!(redacted(&h));
}

#[test]
fn save_and_load() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys(":e1f2<Enter>:f2g3<Enter>u");
    h.keys("s");
    assert!(h.shows("Saved to <TMP>/saves/mouse.json"));
    let before = h.screen();
    let path = h.save_dir().join("mouse.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(json["game"], "mouse");
    assert_eq!(json["state"]["options"]["level"], 5);
    assert_eq!(json["state"]["moves"].as_array().unwrap().len(), 2);
    assert_eq!(json["state"]["redo"].as_array().unwrap().len(), 1);
    h.keys("q");
    h.select("Resume saved Mouse & Cats");
    h.keys("<Enter>");
    assert!(h.shows("Resumed <TMP>/saves/mouse.json"));
    let body = |s: &str| s.lines().skip(1).take(22).collect::<Vec<_>>().join("\n");
    // The engine panel's last search is not saved; the board and the rest are the same.
    let board = |s: &str| {
        s.lines()
            .skip(1)
            .take(22)
            .map(|l| l.chars().take(48).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(board(&h.screen()), board(&before));
    assert!(body(&h.screen()).contains("Moves   2"));
    h.keys("r");
    assert!(h.shows("Moves   4"), "redo survived the save");
    insta::assert_snapshot!(redacted(&h));

    let (cfg, _d) = config();
    assert!(App::load(cfg, &path).is_ok());
}

#[test]
fn a_damaged_mouse_save_is_refused() {
    let mut h = Harness::game(GameKind::Mouse);
    h.keys(":e1f2<Enter>s");
    let path = h.save_dir().join("mouse.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (cfg, _d) = config();
    let try_with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut j = json.clone();
        edit(&mut j);
        std::fs::write(&path, serde_json::to_string(&j).unwrap()).unwrap();
        App::load(cfg.clone(), &path)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let e = try_with(&|j| j["state"]["moves"][1] = "h8h1".into());
    assert!(
        e.contains("the saved Mouse & Cats game is damaged: move 2 (H8-H1)"),
        "{e}"
    );
    let e = try_with(&|j| j["state"]["moves"][0] = "x9".into());
    assert!(e.contains("the moves: move 1 \"x9\" is not a move"), "{e}");
    let e = try_with(&|j| j["state"]["options"]["level"] = 11.into());
    assert!(e.contains("level must be between 1 and 10, got 11"), "{e}");
    let e = try_with(&|j| j["state"]["options"]["mouse_start"] = "E2".into());
    assert!(e.contains("damaged"), "{e}");
    let e = try_with(&|j| j["state"]["options"]["player"] = "dog".into());
    assert!(e.contains("the field \"options\" is wrong"), "{e}");
}

/// Start a game on another board from the title screen: the "Board" option moved `steps` places right (from
/// 8x8: 10x10, 12x12, then 4x4, 6x6), the mouse's start moved by the keys `start` (a start the new board has
/// is kept: E1 up to 12x12; passing 4x4 makes it C1, that board's default), and the rule `rule_steps` places on.
fn start_on_board(steps: usize, start: &str, rule_steps: usize) -> Harness {
    let mut h = Harness::title();
    h.select("Board");
    for _ in 0..steps {
        h.keys("<Right>");
    }
    h.select("Mouse starts");
    h.keys(start);
    h.select("Rule");
    for _ in 0..rule_steps {
        h.keys("<Right>");
    }
    h.keys("<Enter>");
    h
}

/// A 6x6 game under the region rule, chosen on the title screen: the board in full cells, the exact solution's
/// hint and verdict (the mouse wins in 21 plies, gilith/solve's value), a move by cursor.
#[test]
fn a_6x6_game() {
    let mut title = Harness::title();
    title.select("Board");
    title.keys("<Left>");
    assert!(title.shows("Board         ◀ 6x6 ▶"), "{}", title.screen());
    // E1 is on the 6x6 board too: the start stays (on 4x4 it would be the board's default, C1).
    assert!(title.shows("Mouse starts  ◀ E1 ▶"), "{}", title.screen());
    title.select("Rule");
    assert!(title.shows("Rule          ◀ row 6 ▶"), "{}", title.screen());
    let mut h = start_on_board(4, "", 2);
    assert!(h.shows("level 5 · 6x6 · region"), "{}", h.screen());
    assert!(h.shows("Board   6x6 · exact solution"), "{}", h.screen());
    h.keys("w");
    assert!(
        h.shows("With best play from here the mouse wins in 21 plies (you win)."),
        "{}",
        h.screen()
    );
    insta::assert_snapshot!("six_by_six", redacted(&h));
    h.keys("h");
    assert!(h.shows("Hint: "), "{}", h.screen());
    h.keys("<Enter><Up><Right><Enter>");
    let state = h.app.game().unwrap().save_state(h.app.config());
    assert_eq!(state["options"]["size"], 6);
    assert_eq!(state["moves"][0], "c1d2");
    assert_eq!(
        state["moves"].as_array().unwrap().len(),
        2,
        "the engine answered"
    );
}

/// A 12x12 game: compact cells so that it fits 80x24, every square labelled, the hint from a search, and the
/// screen saying that no exact value is available.
#[test]
fn a_12x12_game_fits_80x24() {
    let mut title = Harness::title();
    title.select("Board");
    title.keys("<Right><Right>");
    assert!(title.shows("Board         ◀ 12x12 ▶"), "{}", title.screen());
    title.select("Level");
    assert!(
        title.shows("Level         ◀ 5 (10 plies) ▶"),
        "{}",
        title.screen()
    );
    let mut h = start_on_board(2, "<Right>", 0);
    assert!(h.shows("level 5 · 12x12 · row 12"), "{}", h.screen());
    assert!(h.shows("Board   12x12 · no exact value"), "{}", h.screen());
    let screen = h.screen();
    // Both edges of the board: files A to L, rows 1 to 12, the six cats and the mouse on G1.
    assert!(
        screen.contains(" A  B  C  D  E  F  G  H  I  J  K  L "),
        "{screen}"
    );
    assert!(
        screen.contains(" 12│    C     C     C     C     C     C │ 12"),
        "{screen}"
    );
    assert!(
        screen.contains("  1│ ·     ·     ·     M     ·     ·    │ 1"),
        "{screen}"
    );
    insta::assert_snapshot!("twelve_by_twelve", redacted(&h));
    h.keys("w");
    assert!(
        h.shows("No exact value is available on 12x12"),
        "{}",
        h.screen()
    );
    h.keys("h");
    assert!(h.shows("Hint: G1-"), "{}", h.screen());
    assert!(h.shows("-ply search"), "{}", h.screen());
}
