//! Whole games through the session route, the save the only state: each game played to its end, pasted
//! puzzles and layouts, saved setups checked on loading.

use super::*;

#[tokio::test]
async fn mouse_session_plays_a_whole_game_against_perfect_play() {
    let app = app();
    let opts = json!({"player": "mouse", "level": 10, "mouse_start": "E1", "first": "mouse", "rule": "row8"});
    let mut v = act(&app, "mouse", &Value::Null, json!({"new": opts})).await;
    assert_eq!(
        v["save"]["state"]["options"], opts,
        "the options as the terminal saves them"
    );
    let mut plies = 0;
    while v["view"]["winner"].is_null() {
        // The engine answers in the same reply: it is always the player's move here.
        assert_eq!(v["view"]["turn"], "mouse", "{}", v["view"]);
        let mv = v["view"]["legal"][0].as_str().expect("a move").to_string();
        v = act(&app, "mouse", &v["save"], json!({"move": mv})).await;
        plies += 1;
        assert!(plies <= 29, "a game lasts at most 57 plies");
        if v["view"]["winner"].is_null() {
            assert_eq!(
                v["view"]["engine"]["perfect"], true,
                "level 10 plays from the solution"
            );
        }
    }
    assert_eq!(v["view"]["winner"], "cats", "perfect cats beat this mouse");
    assert_eq!(v["tone"], "warn", "{}", v["message"]);
    assert!(
        v["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("Game over: "),
        "{}",
        v["message"]
    );
    let n = v["save"]["state"]["moves"].as_array().map_or(0, Vec::len);
    assert!(
        n == 2 * plies || n == 2 * plies - 1,
        "{n} plies for {plies} moves"
    );
    // Undo takes back the mouse's move and the cats' answer; redo replays them.
    let st = v["save"].clone();
    let u = act(&app, "mouse", &st, json!("undo")).await;
    assert!(u["view"]["winner"].is_null());
    let r = act(&app, "mouse", &u["save"], json!("redo")).await;
    assert_eq!(r["save"]["state"]["moves"], v["save"]["state"]["moves"]);
    // The hint and "who wins" come from the exact solution: from the start the cats win in 44 plies.
    let fresh = act(&app, "mouse", &Value::Null, json!({"new": opts})).await;
    let fresh = fresh["save"].clone();
    let who = act(&app, "mouse", &fresh, json!("who")).await;
    assert!(
        who["message"]
            .as_str()
            .unwrap_or("")
            .contains("the cats win in 44 plies"),
        "{}",
        who["message"]
    );
    let hint = act(&app, "mouse", &fresh, json!("hint")).await;
    let hinted = hint["view"]["hint"]
        .as_str()
        .expect("a hinted move")
        .to_string();
    assert!(
        hint["view"]["legal"]
            .as_array()
            .unwrap()
            .contains(&json!(hinted)),
        "{hint}"
    );
    // The engine moves first when it is first: the player's cats see the mouse's first move.
    let cats = act(
        &app,
        "mouse",
        &Value::Null,
        json!({"new": {"player": "cats", "level": 3, "mouse_start": "C1", "first": "mouse", "rule": "escape"}}),
    )
    .await;
    assert_eq!(cats["view"]["moves"].as_array().map(Vec::len), Some(1));
    assert_eq!(cats["view"]["turn"], "cats");

    // Bad actions and damaged saves.
    assert_error(
        refused(&app, "mouse", &st, json!({"move": "E1-F2"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over",
    );
    assert_error(
        refused(&app, "mouse", &fresh, json!({"move": "E1-E3"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "E1",
    );
    assert_error(
        refused(&app, "mouse", &fresh, json!({"move": "E1-I9"})).await,
        StatusCode::BAD_REQUEST,
        "E1-I9",
    );
    assert_error(
        refused(&app, "mouse", &fresh, json!({"move": "B8-A7"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "B8",
    );
    assert_error(
        refused(&app, "mouse", &fresh, json!("fly")).await,
        StatusCode::BAD_REQUEST,
        "fly",
    );
    assert_error(
        refused(&app, "mouse", &Value::Null, json!({"new": {"player": "dog", "level": 5, "mouse_start": "E1", "first": "mouse", "rule": "row8"}})).await,
        StatusCode::BAD_REQUEST,
        "dog",
    );
    assert_error(
        refused(&app, "mouse", &Value::Null, json!({"new": {"player": "mouse", "level": 11, "mouse_start": "E1", "first": "mouse", "rule": "row8"}})).await,
        StatusCode::BAD_REQUEST,
        "level",
    );
    assert_error(
        post(&app, "/api/mouse/session", json!({"action": "undo"})).await,
        StatusCode::BAD_REQUEST,
        "save",
    );
    let mut damaged = fresh.clone();
    damaged["state"]["moves"] = json!(["e1e3"]);
    assert_error(
        refused(&app, "mouse", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "move 1",
    );
    let mut damaged = fresh.clone();
    damaged["state"]["options"]["level"] = json!(12);
    assert_error(
        refused(&app, "mouse", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "level",
    );
    let mut damaged = fresh.clone();
    damaged["state"]["options"]["mouse_start"] = json!("B1");
    assert_error(
        refused(&app, "mouse", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "B1",
    );
}

#[tokio::test]
async fn peg_session_is_finished_by_showing_a_solution() {
    let app = app();
    let mut v = act(
        &app,
        "peg",
        &Value::Null,
        json!({"new": {"board": "triangle", "start": ["1"]}}),
    )
    .await;
    assert_eq!(v["view"]["indicator"]["state"], "possible", "{v}");
    // The jumps a front end offers when a peg is picked up: 4-1 and 6-1 from the top vacancy.
    let legal: Vec<&str> = v["view"]["legal"]
        .as_array()
        .expect("legal jumps")
        .iter()
        .map(|j| j["text"].as_str().expect("text"))
        .collect();
    assert_eq!(legal.len(), 2, "{legal:?}");
    assert!(
        legal.contains(&"4-1") && legal.contains(&"6-1"),
        "{legal:?}"
    );
    v = act(&app, "peg", &v["save"], json!({"jump": "4-1"})).await;
    v = act(&app, "peg", &v["save"], json!("solution")).await;
    let n = v["view"]["solution"]
        .as_array()
        .map(Vec::len)
        .expect("a solution");
    assert_eq!(n, 12, "13 pegs left: 12 jumps to one");
    for _ in 0..n {
        v = act(&app, "peg", &v["save"], json!("step")).await;
    }
    assert_eq!(v["view"]["solved"], true);
    assert_eq!(v["view"]["pegs"], 1);
    assert_eq!(v["tone"], "good");
    // Once over, a jump is refused as such.
    let last = v["view"]["moves"][11]["text"]
        .as_str()
        .expect("a jump")
        .to_string();
    assert_error(
        refused(&app, "peg", &v["save"], json!({"jump": last})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "",
    );
    // The English board: a finish of another position class than the start's is ruled out at once.
    let c4 = act(
        &app,
        "peg",
        &Value::Null,
        json!({"new": {"board": "english", "finish": "c4"}}),
    )
    .await;
    assert_eq!(c4["view"]["indicator"]["state"], "impossible", "{c4}");
    assert_eq!(c4["view"]["indicator"]["why"], "class");
    assert_eq!(c4["tone"], "warn", "the opening says so: {}", c4["message"]);
    // Otherwise the search answers, or the complete table once the server has built it (in the background: on
    // a busy machine the first answers may still be "checking").
    let mut w = act(
        &app,
        "peg",
        &Value::Null,
        json!({"new": {"board": "english"}}),
    )
    .await;
    for j in ["d2-d4", "d5-d3", "d7-d5"] {
        w = act(&app, "peg", &w["save"], json!({"jump": j})).await;
    }
    let state = w["view"]["indicator"]["state"].as_str().unwrap_or("");
    assert!(
        ["possible", "impossible", "checking"].contains(&state),
        "{state}"
    );
    let undone = act(&app, "peg", &w["save"], json!("undo")).await;
    assert_eq!(undone["view"]["moves"].as_array().map(Vec::len), Some(2));
    let save = w["save"].clone();
    assert_error(
        refused(&app, "peg", &save, json!({"jump": "a1-a3"})).await,
        StatusCode::BAD_REQUEST,
        "\"a1\"",
    );
    assert_error(
        refused(&app, "peg", &save, json!({"jump": "c1-c3"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "c1-c3",
    );
    assert_error(
        refused(&app, "peg", &save, json!({"jump": {"from": 99, "to": 0}})).await,
        StatusCode::BAD_REQUEST,
        "no hole 99",
    );
    assert_error(
        refused(&app, "peg", &save, json!({"jump": "d4"})).await,
        StatusCode::BAD_REQUEST,
        "\"d4\" is not a jump",
    );
    assert_error(
        refused(&app, "peg", &Value::Null, json!({"new": {"board": "moon"}})).await,
        StatusCode::BAD_REQUEST,
        "moon",
    );
    assert_error(
        refused(
            &app,
            "peg",
            &Value::Null,
            json!({"new": {"board": "english", "start": ["z9"]}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "z9",
    );
    let mut damaged = save.clone();
    damaged["state"]["moves"] = json!(["d2-d4", "d2-d4"]);
    assert_error(
        refused(&app, "peg", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "jump 2",
    );
    let mut damaged = save.clone();
    damaged["state"]["board"] = json!("moon");
    assert_error(
        refused(&app, "peg", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "moon",
    );
}

#[tokio::test]
async fn sudoku_session_is_finished_by_typing_digits_with_a_hint_applied() {
    let app = app();
    let mut v = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"difficulty": "beginner", "seed": 5}}),
    )
    .await;
    let solution: Vec<u8> = v["save"]["state"]["puzzle"]["solution"]
        .as_str()
        .expect("s")
        .bytes()
        .map(|b| b - b'0')
        .collect();
    assert_eq!(solution.len(), 81);
    // Applying before asking is refused; a hint is shown, then applied: its digit is the solution's.
    assert_error(
        refused(&app, "sudoku", &v["save"], json!("apply")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no hint is shown",
    );
    let hint = act(&app, "sudoku", &v["save"], json!("hint")).await;
    assert_eq!(hint["view"]["hints"], 1);
    let place = &hint["view"]["hint"]["place"][0];
    let (cell, digit) = (
        place[0].as_u64().expect("cell") as usize,
        place[1].as_u64().expect("digit"),
    );
    assert_eq!(u64::from(solution[cell]), digit);
    assert_eq!(hint["message"], hint["view"]["hint"]["text"]);
    let applied = act(&app, "sudoku", &hint["save"], json!("apply")).await;
    assert_eq!(applied["view"]["values"][cell].as_u64(), Some(digit));
    assert_eq!(applied["view"]["hints"], 1, "applying is not another hint");
    assert!(applied["view"]["hint"].is_null());
    v = applied;
    let values = |v: &Value| -> Vec<u8> {
        v["view"]["values"]
            .as_array()
            .expect("values")
            .iter()
            .map(|x| x.as_u64().expect("digit") as u8)
            .collect()
    };
    // One wrong digit first: a mistake, then overwritten.
    let empty = values(&v)
        .iter()
        .position(|&d| d == 0)
        .expect("an empty cell");
    let bad = solution[empty] % 9 + 1;
    v = act(
        &app,
        "sudoku",
        &v["save"],
        json!({"digit": {"cell": empty, "digit": bad}}),
    )
    .await;
    assert_eq!(v["view"]["mistakes"], 1);
    // Centre marks are kept in the save file (format version 2) and drawn from the view.
    let other = values(&v)
        .iter()
        .enumerate()
        .position(|(i, &d)| d == 0 && i != empty)
        .expect("another empty cell");
    v = act(
        &app,
        "sudoku",
        &v["save"],
        json!({"mark": {"cell": other, "digit": 3, "kind": "centre"}}),
    )
    .await;
    assert_eq!(v["view"]["centre"][other], 4);
    assert_eq!(v["save"]["state"]["board"]["centre"][other], 4);
    assert_eq!(
        v["message"],
        format!("Centre mark 3 added to {}", cell_name(other))
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &v["save"],
            json!({"mark": {"cell": empty, "digit": 3, "kind": "centre"}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!("{} holds a digit", cell_name(empty)),
    );
    for (i, d) in values(&v).into_iter().enumerate() {
        if d == 0 || i == empty {
            v = act(
                &app,
                "sudoku",
                &v["save"],
                json!({"digit": {"cell": i, "digit": solution[i]}}),
            )
            .await;
        }
    }
    assert_eq!(v["view"]["end"], "solved", "{}", v["message"]);
    assert_eq!(v["view"]["cells_left"], 0);
    assert_eq!(v["tone"], "good");
    let done = v["save"].clone();

    let fresh = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"difficulty": "easy", "seed": 9}}),
    )
    .await;
    let fresh = fresh["save"].clone();
    // A seed is a string, as on every route (a number is still read): the same puzzle either way.
    let by_text = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"difficulty": "easy", "seed": "9"}}),
    )
    .await;
    assert_eq!(by_text["save"]["state"]["puzzle"], fresh["state"]["puzzle"]);
    assert_error(
        refused(
            &app,
            "sudoku",
            &Value::Null,
            json!({"new": {"seed": "nine"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "the seed \"nine\" is not a whole number",
    );
    // A digit placed takes its pencil marks out of its row, column and box, unless `"tidy": false`.
    let marked = act(&app, "sudoku", &fresh, json!("auto")).await;
    let fsol = fresh["state"]["puzzle"]["solution"]
        .as_str()
        .expect("s")
        .as_bytes()
        .to_vec();
    let (at, peer) = (0..81)
        .filter(|&c| marked["view"]["values"][c] == 0)
        .find_map(|c| {
            let bit = 1u64 << (fsol[c] - b'1');
            (0..81)
                .find(|&o| {
                    o != c
                        && (o / 9 == c / 9
                            || o % 9 == c % 9
                            || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3))
                        && marked["view"]["marks"][o].as_u64().expect("marks") & bit != 0
                })
                .map(|o| (c, o))
        })
        .expect("a peer with the digit among its marks");
    let digit = fsol[at] - b'0';
    let bit = 1u64 << (digit - 1);
    let kept = act(
        &app,
        "sudoku",
        &marked["save"],
        json!({"digit": {"cell": at, "digit": digit, "tidy": false}}),
    )
    .await;
    assert_eq!(kept["view"]["marks"][peer].as_u64().expect("m") & bit, bit);
    assert_eq!(kept["view"]["marks"][at], 0);
    for tidy in [
        json!({"cell": at, "digit": digit}),
        json!({"cell": at, "digit": digit, "tidy": true}),
    ] {
        let tidied = act(&app, "sudoku", &marked["save"], json!({ "digit": tidy })).await;
        assert_eq!(
            tidied["view"]["marks"][peer].as_u64().expect("m") & bit,
            0,
            "{tidy}"
        );
    }
    let clue = fresh["state"]["puzzle"]["givens"]
        .as_str()
        .expect("g")
        .find(|c| c != '.')
        .expect("a clue");
    assert_error(
        refused(
            &app,
            "sudoku",
            &fresh,
            json!({"digit": {"cell": clue, "digit": 1}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!("{} is a clue", cell_name(clue)),
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &fresh,
            json!({"digit": {"cell": 81, "digit": 1}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "no cell 81",
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &fresh,
            json!({"digit": {"cell": 3, "digit": 10}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "10 is not a digit",
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &fresh,
            json!({"mark": {"cell": 3, "digit": 1, "kind": "side"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "side",
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &done,
            json!({"digit": {"cell": clue, "digit": 1}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over",
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &Value::Null,
            json!({"new": {"puzzle": "12"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "new.puzzle",
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &Value::Null,
            json!({"new": {"difficulty": "insane"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "insane",
    );
    assert_error(
        refused(
            &app,
            "sudoku",
            &Value::Null,
            json!({"new": {"mode": "classic", "hide": 70}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hide",
    );
    let mut damaged = fresh.clone();
    damaged["state"]["board"]["values"] = json!("9".repeat(81));
    assert_error(
        refused(&app, "sudoku", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "was changed",
    );
    let mut damaged = fresh.clone();
    damaged["state"]["cursor"] = json!(99);
    assert_error(
        refused(&app, "sudoku", &damaged, json!("view")).await,
        StatusCode::BAD_REQUEST,
        "cursor",
    );
}

/// A save whose classic setup hides more than the one range allows is refused on loading, in the generator's
/// words; one saved while its puzzle was being made, whose puzzle cannot be made, says why at once instead of
/// "still being made" forever.
#[tokio::test]
async fn a_saved_classic_setup_is_checked_on_loading() {
    let app = app();
    let v = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"mode": "classic", "hide": 27, "seed": 1}}),
    )
    .await;
    let mut save = v["save"].clone();
    save["state"]["puzzle"] = Value::Null;
    save["state"]["setup"]["hide"] = json!(64);
    save["state"]["setup"]["unique"] = json!(true);
    assert_error(
        refused(&app, "sudoku", &save, json!("view")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unique",
    );
    for hide in [65, 81, 1_000_000] {
        save["state"]["setup"]["hide"] = json!(hide);
        assert_error(
            refused(&app, "sudoku", &save, json!("view")).await,
            StatusCode::BAD_REQUEST,
            &format!("cannot hide {hide} cells: a puzzle keeps at least 17 clues, so at most 64"),
        );
    }
    // In range and possible: the puzzle is made on loading and the game goes on.
    save["state"]["setup"]["hide"] = json!(30);
    let v = act(&app, "sudoku", &save, json!("view")).await;
    assert_eq!(v["view"]["ready"], true, "{}", v["view"]);
}

#[tokio::test]
async fn a_pasted_sudoku_and_a_pasted_peg_layout_are_played_and_saved() {
    let app = app();
    // Project Euler 96, grid 1 (a unique solution), as 9 lines.
    let lines = "003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300";
    let v = act(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"puzzle": lines}}),
    )
    .await;
    assert_eq!(v["view"]["label"], "pasted · 32 clues");
    assert_eq!(v["view"]["unique"], true);
    assert_eq!(v["view"]["givens"][2], 3);
    // Two 1s in the first row: refused, naming a cell of the clash.
    let (status, e) = refused(
        &app,
        "sudoku",
        &Value::Null,
        json!({"new": {"puzzle": "11".to_string() + &".".repeat(79)}}),
    )
    .await;
    assert!(status.is_client_error(), "{status} {e}");
    let msg = e["error"].as_str().expect("an error");
    assert!(
        msg.starts_with("new.puzzle: ") && msg.contains("r1c"),
        "{msg}"
    );
    // A pasted peg layout: saved with its layout, so the terminal can load it.
    let layout = "oooo\no.oo\noooo";
    let p = act(
        &app,
        "peg",
        &Value::Null,
        json!({"new": {"layout": layout, "lattice": "square"}}),
    )
    .await;
    assert_eq!(p["save"]["state"]["layout"], "oooo\noooo\noooo\n");
    assert_eq!(p["save"]["state"]["lattice"], "square");
    assert_eq!(p["view"]["pegs"], 11);
    let jump = p["view"]["legal"][0]["text"]
        .as_str()
        .expect("a jump")
        .to_string();
    let q = act(&app, "peg", &p["save"], json!({"jump": jump})).await;
    assert_eq!(q["view"]["pegs"], 10);
    assert_error(
        refused(
            &app,
            "peg",
            &Value::Null,
            json!({"new": {"layout": "oxo", "lattice": "square"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "layout",
    );
}
