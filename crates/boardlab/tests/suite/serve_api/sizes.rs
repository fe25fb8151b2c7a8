//! Mouse & Cats on other board sizes and rules: the position, perft and session routes.

use super::*;

/// Other board sizes on the position and perft routes: the legal moves agree with a one-ply count, a count
/// is the sum of its divide, and a size or a rule that does not fit is refused by name.
#[tokio::test]
async fn mouse_position_and_perft_on_other_board_sizes() {
    let app = app();
    for size in ["4", "6", "10x10", "16"] {
        let (s, p) = post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "size": size}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{size}: {p}");
        let n: u32 = size.split('x').next().unwrap().parse().unwrap();
        assert_eq!(p["size"], format!("{n}x{n}"));
        assert_eq!(
            p["cats"].as_array().map(Vec::len),
            Some(n as usize / 2),
            "{p}"
        );
        let legal = p["legal_moves"].as_array().map(Vec::len).unwrap_or(0);
        assert!(legal > 0, "{p}");
        let (s, c) = post(
            &app,
            "/api/mouse/perft",
            json!({"size": size, "depth": 1, "rule": "far-row"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{c}");
        assert_eq!(c["count"], legal.to_string(), "{size}");
        let (s, d) = post(
            &app,
            "/api/mouse/perft",
            json!({"size": size, "depth": 4, "divide": true, "rule": "region"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{d}");
        let sum: u128 = d["divide"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["count"].as_str().unwrap().parse::<u128>().unwrap())
            .sum();
        assert_eq!(d["count"], sum.to_string(), "{size}");
    }
    // 8x8 through the sized path gives the classic count (perft 4 from the start: the same as without size).
    let (_, a) = post(&app, "/api/mouse/perft", json!({"depth": 4})).await;
    let (_, b) = post(&app, "/api/mouse/perft", json!({"depth": 4, "size": "8"})).await;
    assert_eq!(a["count"], b["count"]);
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "size": "7"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "size",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/perft",
            json!({"size": "6", "depth": 2, "rule": "row8"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "rule",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "mouse=K1 cats=B6,D6,F6 turn=mouse", "size": "6"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "K1",
    );
}

/// A new mouse game on another board and under another rule: the 6x6 region game is the mouse's (21 plies,
/// gilith/solve's value), a 12x12 game says no exact value is available, and a bad size, rule or square is a
/// 400 naming it.
#[tokio::test]
async fn mouse_session_on_other_board_sizes_and_rules() {
    let app = app();
    let six =
        json!({"player": "mouse", "level": 10, "size": 6, "first": "mouse", "rule": "region"});
    let v = act(&app, "mouse", &Value::Null, json!({"new": six})).await;
    assert_eq!(v["view"]["size"], 6);
    assert_eq!(v["view"]["exact"], true);
    assert_eq!(v["view"]["mouse"], "C1", "the board's default start");
    assert_eq!(v["view"]["cats"], json!(["B6", "D6", "F6"]));
    assert_eq!(v["save"]["state"]["options"]["size"], 6);
    assert_eq!(v["save"]["state"]["options"]["rule"], "region");
    let who = act(&app, "mouse", &v["save"], json!("who")).await;
    assert_eq!(
        who["message"],
        "With best play from here the mouse wins in 21 plies (you win)."
    );
    // The mouse follows the hints against perfect cats and wins in 21 plies.
    let mut save = v["save"].clone();
    for _ in 0..11 {
        let hint = act(&app, "mouse", &save, json!("hint")).await;
        let mv = hint["view"]["hint"].as_str().expect("a hint").to_string();
        let next = act(&app, "mouse", &hint["save"], json!({"move": mv})).await;
        save = next["save"].clone();
        if !next["view"]["winner"].is_null() {
            assert_eq!(next["view"]["winner"], "mouse");
            break;
        }
    }
    assert_eq!(save["state"]["moves"].as_array().map(Vec::len), Some(21));

    // 12x12: no exact value; the hint is searched and says so.
    let twelve = json!({"player": "mouse", "level": 2, "size": 12, "mouse_start": "G1", "first": "mouse", "rule": "far-row"});
    let v = act(&app, "mouse", &Value::Null, json!({"new": twelve})).await;
    assert_eq!(
        (v["view"]["size"].clone(), v["view"]["exact"].clone()),
        (json!(12), json!(false))
    );
    let hint = act(&app, "mouse", &v["save"], json!("hint")).await;
    assert!(
        hint["view"]["hint"]
            .as_str()
            .unwrap_or("")
            .starts_with("G1-"),
        "{hint}"
    );
    assert!(
        hint["message"]
            .as_str()
            .unwrap_or("")
            .contains("no exact value is available on 12x12"),
        "{}",
        hint["message"]
    );
    let mv = hint["view"]["hint"].as_str().unwrap().to_string();
    let after = act(&app, "mouse", &hint["save"], json!({"move": mv})).await;
    assert_eq!(after["view"]["moves"].as_array().map(Vec::len), Some(2));

    // Bad sizes, rules and squares: 400s that name them.
    let new = |o: Value| json!({"new": o});
    for (opts, needle) in [
        (
            json!({"player": "mouse", "level": 5, "size": 7, "first": "mouse", "rule": "far-row"}),
            "bad board size '7'",
        ),
        (
            json!({"player": "mouse", "level": 5, "size": 18, "first": "mouse", "rule": "far-row"}),
            "bad board size '18'",
        ),
        (
            json!({"player": "mouse", "level": 5, "size": 10, "first": "mouse", "rule": "row8"}),
            "row8",
        ),
        (
            json!({"player": "mouse", "level": 5, "size": 6, "first": "mouse", "rule": "sideways"}),
            "sideways",
        ),
        (
            json!({"player": "mouse", "level": 5, "size": 6, "mouse_start": "G1", "first": "mouse", "rule": "escape"}),
            "G1 is off the 6x6 board",
        ),
        (
            json!({"player": "mouse", "level": 5, "size": 6, "mouse_start": "B6", "first": "mouse", "rule": "escape"}),
            "B6",
        ),
        (
            json!({"player": "mouse", "level": 10, "size": 12, "first": "mouse", "rule": "escape"}),
            "level 10",
        ),
    ] {
        assert_error(
            refused(&app, "mouse", &Value::Null, new(opts)).await,
            StatusCode::BAD_REQUEST,
            needle,
        );
    }
    assert_error(
        refused(&app, "mouse", &save, json!({"move": "C1-G5"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over",
    );
    let fresh = act(&app, "mouse", &Value::Null, json!({"new": {"player": "mouse", "level": 1, "size": 4, "first": "mouse", "rule": "far-row"}})).await;
    assert_error(
        refused(&app, "mouse", &fresh["save"], json!({"move": "C1-E3"})).await,
        StatusCode::BAD_REQUEST,
        "E3 is off the 4x4 board",
    );
}
