//! Save files: what the page exports the terminal opens and the other way round, unusable files refused with
//! the reason, and a long game that never outgrows a request.

use super::*;

/// The save file a session answers is the terminal's: an export opens in the terminal (its own loader), and a
/// file the terminal wrote imports into the page, for all three games, with nothing lost either way.
#[tokio::test]
async fn saves_move_between_the_page_and_the_terminal_both_ways() {
    use boardlab::tui::theme::Theme;
    use boardlab::tui::{App, Config};
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        theme: Theme::mono(),
        clock: play::Clock::manual(),
        save_dir: dir.path().join("saves"),
        seed: Some(1),
    };
    let env = play::Env::blocking();

    // Page -> terminal.
    let mouse = act(
        &app,
        "mouse",
        &Value::Null,
        json!({"new": {"player": "cats", "level": 2, "mouse_start": "C1", "first": "mouse", "rule": "escape"}}),
    )
    .await;
    assert_eq!(mouse["view"]["moves"].as_array().map(Vec::len), Some(1));
    let mut peg = act(
        &app,
        "peg",
        &Value::Null,
        json!({"new": {"board": "triangle", "finish": "13"}}),
    )
    .await;
    peg = act(&app, "peg", &peg["save"], json!({"jump": "4-1"})).await;
    let mut sudoku = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"difficulty": "easy", "seed": 3}}),
    )
    .await;
    let empty = sudoku["view"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .position(|d| d == 0)
        .unwrap();
    sudoku = act(
        &app,
        "sudoku",
        &sudoku["save"],
        json!({"mark": {"cell": empty, "digit": 7, "kind": "centre"}}),
    )
    .await;
    sudoku = act(&app, "sudoku", &sudoku["save"], json!("hint")).await;
    for (name, answer) in [("mouse", &mouse), ("peg", &peg), ("sudoku", &sudoku)] {
        let path = dir.path().join(format!("{name}.json"));
        // The page's export is the save as pretty JSON.
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&answer["save"]).unwrap(),
        )
        .unwrap();
        let loaded = App::load(cfg.clone(), &path);
        assert!(
            loaded.is_ok(),
            "{name}: {:?}",
            loaded.err().map(|e| e.to_string())
        );
        let save = boardlab::tui::save::read(&path).unwrap();
        {
            // The terminal's session holds exactly the page's game.
            let session = play::Session::load(&save, &env).unwrap();
            let mut back = session.save().state;
            let mut sent = answer["save"]["state"].clone();
            for s in [&mut back, &mut sent] {
                if let Some(o) = s.as_object_mut() {
                    o.remove("elapsed_ms");
                }
            }
            assert_eq!(back, sent, "{name}");
        }
    }
    assert_eq!(
        sudoku["save"]["state"]["board"]["centre"][empty],
        json!(1 << 6)
    );
    assert_eq!(sudoku["save"]["state"]["hint"], true);

    // Terminal -> page: the files the terminal's first release wrote (kept as the play crate's fixtures).
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../play/tests/fixtures");
    for (file, game) in [
        ("mouse-v1", "mouse"),
        ("mouse-cats-escape-v1", "mouse"),
        ("peg-v1", "peg"),
        ("peg-triangle-v1", "peg"),
        ("sudoku-v1", "sudoku"),
        ("sudoku-classic-revealed-v1", "sudoku"),
    ] {
        let text = std::fs::read_to_string(format!("{fixtures}/{file}.json")).unwrap();
        let file_save: Value = serde_json::from_str(&text).unwrap();
        let v = act(&app, game, &file_save, json!("view")).await;
        let mut back = v["save"]["state"].clone();
        let mut want = file_save["state"].clone();
        // A sudoku's first saves kept whole grids in the undo and redo lists; today's keep the cells each step
        // changed. Those lists are compared by what undo and redo do, below; the rest as it was.
        let history = ["undo", "redo"];
        for s in [&mut back, &mut want] {
            if let Some(o) = s.as_object_mut() {
                o.remove("elapsed_ms");
                if game == "sudoku" {
                    for key in history {
                        o.remove(key);
                    }
                }
            }
        }
        assert_eq!(
            back, want,
            "{file}: the page keeps the terminal's game as it was"
        );
        if game == "sudoku" {
            let grids = |key: &str| file_save["state"][key].as_array().unwrap().clone();
            let (undo, redo) = (grids("undo"), grids("redo"));
            for (key, list) in [("undo", &undo), ("redo", &redo)] {
                assert_eq!(
                    v["save"]["state"][key].as_array().map(Vec::len),
                    Some(list.len()),
                    "{file}: one step per grid of its {key} list"
                );
            }
            if v["view"]["end"].is_null() {
                // Undo walks back through the file's grids, newest first, and then has nothing left…
                let mut s = v.clone();
                for (i, grid) in undo.iter().rev().enumerate() {
                    assert_eq!(s["view"]["can_undo"], true, "{file}: undo {i}");
                    s = act(&app, game, &s["save"], json!("undo")).await;
                    assert_eq!(&s["save"]["state"]["board"], grid, "{file}: undo {i}");
                }
                assert_eq!(s["view"]["can_undo"], false, "{file}");
                // …and redo walks forward again to the game as saved, then through the file's redo grids.
                for i in 0..undo.len() {
                    s = act(&app, game, &s["save"], json!("redo")).await;
                    let grid = undo.get(i + 1).unwrap_or(&file_save["state"]["board"]);
                    assert_eq!(&s["save"]["state"]["board"], grid, "{file}: redo {i}");
                }
                for (i, grid) in redo.iter().rev().enumerate() {
                    s = act(&app, game, &s["save"], json!("redo")).await;
                    assert_eq!(
                        &s["save"]["state"]["board"], grid,
                        "{file}: redo beyond {i}"
                    );
                }
                assert_eq!(s["view"]["can_redo"], false, "{file}");
            }
        }
        let moves = &v["view"]["moves"];
        match file {
            "mouse-v1" => assert_eq!(moves.as_array().map(Vec::len), Some(2)),
            "peg-triangle-v1" => {
                assert_eq!(moves.as_array().map(Vec::len), Some(2));
                assert_eq!(v["view"]["finish"], "13");
            }
            "sudoku-v1" => assert_eq!(v["view"]["hints"], 1),
            "sudoku-classic-revealed-v1" => assert_eq!(v["view"]["end"], "revealed"),
            _ => {}
        }
    }
}

#[tokio::test]
async fn save_files_that_cannot_be_used_are_refused_with_the_reason() {
    let app = app();
    let peg = act(
        &app,
        "peg",
        &Value::Null,
        json!({"new": {"board": "triangle"}}),
    )
    .await;
    let mut future = peg["save"].clone();
    future["version"] = json!(9);
    assert_error(
        refused(&app, "peg", &future, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "version 9",
    );
    assert_error(
        refused(&app, "sudoku", &peg["save"], json!("view")).await,
        StatusCode::BAD_REQUEST,
        "holds a Peg solitaire game",
    );
    assert_error(
        refused(&app, "peg", &json!({"format": "zip"}), json!("view")).await,
        StatusCode::BAD_REQUEST,
        "not a boardlab save file",
    );
    assert_error(
        refused(&app, "peg", &peg["save"], json!(["undo"])).await,
        StatusCode::BAD_REQUEST,
        "action",
    );
    assert_error(
        post(
            &app,
            "/api/peg/session",
            json!({"state": {}, "action": "view"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "state",
    );
}

/// A long web game never outgrows the request that carries it: 10,000 actions, each sent with the save the
/// last one answered, every body within the server's limit, and undo still works at the end.
#[tokio::test]
async fn ten_thousand_sudoku_actions_fit_in_a_request() {
    const FIXED: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    let app = app();
    let mut v = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"puzzle": FIXED}}),
    )
    .await;
    let empty: Vec<usize> = FIXED
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'0')
        .map(|(i, _)| i)
        .collect();
    let mut largest = 0;
    let mut x: u64 = 11;
    for i in 0..10_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let cell = empty[(x % empty.len() as u64) as usize];
        let digit = (x >> 20) % 9 + 1;
        let action = match i % 8 {
            0 => json!({"digit": {"cell": cell, "digit": digit}}),
            1 => json!({"digit": {"cell": cell, "digit": 0}}),
            2 => json!({"mark": {"cell": cell, "digit": digit, "kind": "centre"}}),
            _ => json!({"mark": {"cell": cell, "digit": digit, "kind": "corner"}}),
        };
        // The bytes measured are the bytes sent (the save moved into the request, not copied: the loop's
        // cost is the server's).
        let mut body = json!({"save": v["save"].take(), "action": action});
        let bytes = serde_json::to_vec(&body).expect("json");
        largest = largest.max(bytes.len());
        assert!(
            bytes.len() < BODY_LIMIT,
            "action {i}: {} bytes",
            bytes.len()
        );
        let req = Request::post("/api/sudoku/session")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(bytes))
            .expect("request");
        let (s, w, _) = send(&app, req).await;
        match s {
            StatusCode::OK => v = w,
            // A mark in a cell that holds a digit: refused, the game goes on from the same save.
            StatusCode::UNPROCESSABLE_ENTITY => v["save"] = body["save"].take(),
            _ => panic!("action {i}: {s} {w}"),
        }
    }
    eprintln!("the largest request of 10,000 sudoku actions: {largest} bytes");
    let before = v["view"]["values"].clone();
    for _ in 0..100 {
        v = act(&app, "sudoku", &v["save"], json!("undo")).await;
    }
    assert_eq!(v["view"]["can_undo"], true);
    for _ in 0..100 {
        v = act(&app, "sudoku", &v["save"], json!("redo")).await;
    }
    assert_eq!(v["view"]["values"], before);
}
