//! What the web page relies on from the API: the menus route (generated from `play::menus`), one board-size type
//! on every Mouse & Cats route, seeds as strings both ways, a JSON error body for every error status, and the
//! positions of a replay.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly on purpose

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use boardlab::serve::{Limits, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

fn app() -> Router {
    router(Limits {
        workers: 2,
        queue: 16,
        time_limit: Duration::from_secs(30),
    })
}

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = app.clone().oneshot(req).await.expect("an answer");
    let status = res.status();
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.to_str().unwrap_or("").starts_with("application/json"));
    let bytes = res.into_body().collect().await.expect("a body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    assert!(json, "{status}: a JSON body, got {text:?}");
    (status, serde_json::from_str(&text).expect("JSON"))
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    send(app, req).await
}

async fn get(app: &Router, path: &str) -> (StatusCode, Value) {
    send(
        app,
        Request::get(path).body(Body::empty()).expect("request"),
    )
    .await
}

#[tokio::test]
async fn the_menus_come_from_play() {
    let app = app();
    let (s, v) = get(&app, "/api/menus").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v, serde_json::to_value(play::menus::Menus::new()).unwrap());
    let boards = v["mouse"]["boards"].as_array().unwrap();
    let six = boards.iter().find(|b| b["size"] == 6).unwrap();
    assert_eq!(six["default_start"], "C1");
    assert_eq!(six["rules"][0]["label"], "Row 6");
    let twelve = boards.iter().find(|b| b["size"] == 12).unwrap();
    assert_eq!(twelve["levels"].as_array().unwrap().len(), 9);
    let tri = v["peg"]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "triangle")
        .unwrap();
    assert_eq!(tri["standard_vacancy"], "1");
    // The rules are the terminal's paragraphs.
    assert_eq!(
        v["games"][1]["rules"][0].as_str().unwrap(),
        play::GameKind::Peg.rules()[0]
    );
    // A new game with each board's default start, first level and second rule is taken by the session.
    for b in boards {
        {
            let level: u8 = b["levels"][0]["value"].as_str().unwrap().parse().unwrap();
            let (s, ans) = post(
                &app,
                "/api/mouse/session",
                json!({"action": {"new": {"player": "mouse", "level": level, "size": b["size"],
                    "mouse_start": b["default_start"], "first": "mouse", "rule": b["rules"][1]["value"]}}}),
            )
            .await;
            assert_eq!(s, StatusCode::OK, "{b}: {ans}");
            assert_eq!(ans["view"]["mouse"], b["default_start"]);
        }
    }
}

#[tokio::test]
async fn a_board_size_is_a_number_or_a_string_on_every_mouse_route() {
    let app = app();
    for size in [json!(6), json!("6"), json!("6x6")] {
        let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 3, "size": size})).await;
        assert_eq!(s, StatusCode::OK, "{size}: {v}");
        let (s2, p) = post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "size": size}),
        )
        .await;
        assert_eq!(s2, StatusCode::OK, "{size}: {p}");
        assert_eq!(p["size"], "6x6");
    }
    let (_, a) = post(&app, "/api/mouse/perft", json!({"depth": 4, "size": 6})).await;
    let (_, b) = post(&app, "/api/mouse/perft", json!({"depth": 4, "size": "6x6"})).await;
    assert_eq!(a["nodes"], b["nodes"]);
    let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 3, "size": 7})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains('7'), "{v}");
    let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 3, "size": [6]})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("board size"), "{v}");
}

#[tokio::test]
async fn seeds_are_strings_both_ways() {
    let app = app();
    let big = "1182642394280105928";
    let (s, a) = post(
        &app,
        "/api/sudoku/generate",
        json!({"difficulty": "easy", "seed": big}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["seed"], big, "the seed comes back as the same string");
    // The seed the answer gave makes the same puzzle again, and so does the seed as a number.
    let (_, b) = post(
        &app,
        "/api/sudoku/generate",
        json!({"difficulty": "easy", "seed": a["seed"]}),
    )
    .await;
    assert_eq!(a["puzzle"], b["puzzle"]);
    let n: u64 = big.parse().unwrap();
    let (_, c) = post(
        &app,
        "/api/sudoku/generate",
        json!({"difficulty": "easy", "seed": n}),
    )
    .await;
    assert_eq!(a["puzzle"], c["puzzle"]);
    // A seed never given comes back as a string too.
    let (_, d) = post(&app, "/api/sudoku/classic", json!({"hide": 20})).await;
    assert!(d["seed"].as_str().unwrap().parse::<u64>().is_ok(), "{d}");
    let (s, e) = post(&app, "/api/sudoku/classic", json!({"seed": "twelve"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("twelve"), "{e}");
}

#[tokio::test]
async fn every_error_status_has_a_json_body() {
    let app = app();
    let (s, v) = get(&app, "/api/mouse/perft").await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    let msg = v["error"].as_str().unwrap();
    assert!(
        msg.contains("/api/mouse/perft") && msg.contains("POST"),
        "{msg}"
    );
    let (s, v) = post(&app, "/api/menus", json!({})).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(v["error"].as_str().unwrap().contains("/api/menus"), "{v}");
    let (s, v) = get(&app, "/api/nothing/here").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
}

#[tokio::test]
async fn the_daily_puzzles_follow_the_date() {
    let app = app();
    let (s, v) = get(&app, "/api/daily?date=2026-11-28").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v,
        serde_json::to_value(play::menus::Daily::of("2026-11-28").unwrap()).unwrap()
    );
    // The seed is a string, as every seed the API sends (issue 37, defect 5).
    assert_eq!(v["sudoku_seed"], "20261128");
    // The daily sudoku is the generator's puzzle of that seed: the same in two sessions.
    let new = json!({"action": {"new": {"mode": "graded", "difficulty": v["sudoku_difficulty"],
        "symmetry": v["sudoku_symmetry"], "seed": v["sudoku_seed"]}}});
    let (_, a) = post(&app, "/api/sudoku/session", new.clone()).await;
    let (_, b) = post(&app, "/api/sudoku/session", new).await;
    assert_eq!(
        a["save"]["state"]["puzzle"]["givens"],
        b["save"]["state"]["puzzle"]["givens"]
    );
    // The daily peg game starts.
    let (s, p) = post(
        &app,
        "/api/peg/session",
        json!({"action": {"new": {"board": v["peg_board"], "start": [v["peg_start"]]}}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{p}");
    for bad in [
        "/api/daily?date=2026-02-30",
        "/api/daily",
        "/api/daily?day=1",
    ] {
        let (s, v) = get(&app, bad).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
        assert!(v["error"].is_string());
    }
}

/// A replay (issue 37): `{"at": k}` answers the game as it stood after its first k moves, and the save sent,
/// unchanged; the page cuts no move list and swaps no side itself.
#[tokio::test]
async fn a_replay_is_the_servers_answer() {
    let app = app();
    // Peg: two jumps on the triangle.
    let (s, mut a) = post(
        &app,
        "/api/peg/session",
        json!({"action": {"new": {"board": "triangle"}}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    for jump in ["4-1", "6-4"] {
        let (s, next) = post(
            &app,
            "/api/peg/session",
            json!({"save": a["save"], "action": {"jump": jump}}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{next}");
        a = next;
    }
    for (k, pegs) in [(0, 14), (1, 13), (2, 12)] {
        let (s, r) = post(
            &app,
            "/api/peg/session",
            json!({"save": a["save"], "action": {"at": k}}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{r}");
        assert_eq!(r["view"]["pegs"], pegs, "after {k} jumps");
        assert_eq!(r["view"]["moves"].as_array().unwrap().len(), k);
        assert_eq!(r["save"], a["save"], "the save comes back unchanged");
    }
    let (s, r) = post(
        &app,
        "/api/peg/session",
        json!({"save": a["save"], "action": {"at": 3}}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(
        r["error"],
        "at: there is no jump 3: the game has 2 jumps played"
    );
    // Mouse & Cats: after the mouse's first move the cats are to move, and the engine does not answer.
    let (s, m) = post(
        &app,
        "/api/mouse/session",
        json!({"action": {"new": {"player": "mouse", "level": 1, "first": "mouse", "rule": "far-row"}}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{m}");
    let (s, m) = post(
        &app,
        "/api/mouse/session",
        json!({"save": m["save"], "action": {"move": "E1-F2"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{m}");
    assert_eq!(m["view"]["moves"].as_array().unwrap().len(), 2, "{m}");
    let (s, r) = post(
        &app,
        "/api/mouse/session",
        json!({"save": m["save"], "action": {"at": 1}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["view"]["mouse"], "F2");
    assert_eq!(r["view"]["turn"], "cats");
    assert_eq!(r["view"]["moves"], json!(["E1-F2"]));
    assert_eq!(r["save"], m["save"]);
    // A sudoku has no move list to replay.
    let (_, z) = post(
        &app,
        "/api/sudoku/session",
        json!({"action": {"new": {"difficulty": "easy", "seed": "1"}}}),
    )
    .await;
    let (s, r) = post(
        &app,
        "/api/sudoku/session",
        json!({"save": z["save"], "action": {"at": 0}}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(r["error"], "at: a sudoku game has no move list to replay");
}
