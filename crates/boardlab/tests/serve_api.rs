//! `boardlab serve`'s API, route by route: the answers, and for each bad input the status, the one-line JSON
//! error naming what was wrong, and no panic. The router is driven in-process (no socket).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly on purpose

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use boardlab::serve::{BODY_LIMIT, Limits, router};
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

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, Value, String) {
    let res = app
        .clone()
        .oneshot(req)
        .await
        .expect("the router answers every request");
    let status = res.status();
    let ctype = res
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or("").to_string())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.expect("a body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let v = if ctype.starts_with("application/json") {
        serde_json::from_str(&text).expect("JSON answers parse")
    } else {
        Value::Null
    };
    (status, v, text)
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    let (s, v, _) = send(app, req).await;
    (s, v)
}

async fn get(app: &Router, path: &str) -> (StatusCode, Value, String) {
    send(
        app,
        Request::get(path).body(Body::empty()).expect("request"),
    )
    .await
}

/// A 4xx answer with a one-line error that mentions `needle`.
#[track_caller]
fn assert_error(got: (StatusCode, Value), status: StatusCode, needle: &str) {
    let (s, v) = got;
    assert_eq!(s, status, "status for {v}");
    let msg = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("an error message in {v}"));
    assert!(!msg.contains('\n'), "one line: {msg}");
    assert!(
        msg.to_lowercase().contains(&needle.to_lowercase()),
        "the error {msg:?} names {needle:?}"
    );
    assert_eq!(
        v.as_object().map(|o| o.len()),
        Some(1),
        "only the error field: {v}"
    );
}

#[tokio::test]
async fn pages_and_assets_are_embedded_and_nothing_else_is_served() {
    let app = app();
    for page in boardlab::serve::assets::PAGES {
        let (s, _, text) = get(&app, page).await;
        assert_eq!(s, StatusCode::OK, "{page}");
        assert!(text.contains("/assets/app.js"), "{page} is the page");
    }
    for name in boardlab::serve::assets::asset_names() {
        let (s, _, text) = get(&app, &format!("/assets/{name}")).await;
        assert_eq!(s, StatusCode::OK, "{name}");
        assert!(!text.is_empty(), "{name} is not empty");
    }
    for path in [
        "/assets/../Cargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/src/main.rs",
        "/assets//etc/passwd",
        "/etc/passwd",
        "/nope",
    ] {
        let (s, _, text) = get(&app, path).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
        assert!(
            !text.contains("[package]") && !text.contains("root:"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn openapi_lists_every_route_and_status_reports_the_pool() {
    let app = app();
    let (s, doc, _) = get(&app, "/api/openapi.json").await;
    assert_eq!(s, StatusCode::OK);
    let paths = doc["paths"].as_object().expect("paths");
    for p in [
        "/api/status",
        "/api/openapi.json",
        "/api/mouse/position",
        "/api/mouse/move",
        "/api/mouse/hint",
        "/api/mouse/analyse",
        "/api/mouse/map",
        "/api/mouse/perft",
        "/api/mouse/session",
        "/api/peg/boards",
        "/api/peg/board",
        "/api/peg/moves",
        "/api/peg/jump",
        "/api/peg/solve",
        "/api/peg/count",
        "/api/peg/session",
        "/api/sudoku/parse",
        "/api/sudoku/solve",
        "/api/sudoku/rate",
        "/api/sudoku/hint",
        "/api/sudoku/generate",
        "/api/sudoku/classic",
        "/api/sudoku/session",
    ] {
        assert!(paths.contains_key(p), "{p} is documented");
    }
    let (s, st, _) = get(&app, "/api/status").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(st["jobs"]["workers"], 2);
    assert_eq!(st["jobs"]["queue"], 16);
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let app = app();
    let (s, v, _) = get(&app, "/api/nothing-here").await;
    assert_error((s, v), StatusCode::NOT_FOUND, "/api/nothing-here");
    // Not JSON, wrong content type, unknown field, wrong type, oversized body.
    let raw = |body: &str, ctype: &str| {
        Request::post("/api/mouse/position")
            .header(header::CONTENT_TYPE, ctype)
            .body(Body::from(body.to_string()))
            .expect("request")
    };
    let (s, v, _) = send(&app, raw("{not json", "application/json")).await;
    assert_error((s, v), StatusCode::BAD_REQUEST, "not valid JSON");
    let (s, v, _) = send(&app, raw("{}", "text/plain")).await;
    assert_error((s, v), StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type");
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "colour": 1}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "colour",
    );
    assert_error(
        post(&app, "/api/mouse/position", json!({"position": 7})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "position",
    );
    let big = json!({"puzzle": "x".repeat(100_000)});
    assert_error(
        post(&app, "/api/sudoku/parse", big).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "limit",
    );
    let (s, v, _) = send(
        &app,
        Request::get("/api/mouse/move")
            .body(Body::empty())
            .expect("r"),
    )
    .await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{v}");
}

#[tokio::test]
async fn mouse_routes() {
    let app = app();
    let (s, v) = post(&app, "/api/mouse/position", json!({"position": "start"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["legal_moves"], json!(["E1-F2", "E1-D2"]));
    assert_eq!(v["turn"], "mouse");

    let (s, v) = post(
        &app,
        "/api/mouse/move",
        json!({"position": "start", "move": "e1f2"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["after"]["position"],
        "mouse=F2 cats=B8,D8,F8,H8 turn=cats"
    );

    // The published value: the cats win in 44 plies from the standard start.
    let (s, v) = post(&app, "/api/mouse/hint", json!({"position": "start"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["value"]["winner"], "cats");
    assert_eq!(v["value"]["plies"], 44);
    assert_eq!(v["perfect_line"].as_array().map(Vec::len), Some(44));

    let (s, v) = post(
        &app,
        "/api/mouse/analyse",
        json!({"position": "mouse=C3 cats=B4,D4,A1,E1 turn=cats", "depth": 8}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["exact"]["winner"], "mouse");
    assert_eq!(v["exact"]["plies"], 10);
    assert!(v["tables"]["probes"].as_u64().is_some_and(|p| p > 0), "{v}");
    let (s, v) = post(
        &app,
        "/api/mouse/analyse",
        json!({"position": "start", "level": 10}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["perfect"], true);

    // The picture: from the start every free dark square is a cats' win for the mouse to move.
    let (s, v) = post(&app, "/api/mouse/map", json!({"position": "start"})).await;
    assert_eq!(s, StatusCode::OK);
    let squares = v["squares"].as_array().expect("squares");
    assert_eq!(squares.len(), 28);
    let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 4})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["count"], "344");
    let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 57})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["count"], "1199724195561122105890373964934848");

    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "mouse=I9 cats=B8,D8,F8,H8"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "I9",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "mouse=E1 cats=B8,D8,F8"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "4 cats",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "rule": "chess"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "chess",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/move",
            json!({"position": "start", "move": "E1-E2"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "E1-E2",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/move",
            json!({"position": "start", "move": "B8-A7"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "B8",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/move",
            json!({"position": "start", "move": "hello"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hello",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "level": 11}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "level",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "level": 0}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "level",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "depth": 65}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "depth",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "level": 3, "depth": 3}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "not both",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "tt_bits": 30}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "tt_bits",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "time_ms": -5}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "time_ms",
    );
    assert_error(
        post(&app, "/api/mouse/perft", json!({"depth": 65})).await,
        StatusCode::BAD_REQUEST,
        "depth",
    );
    assert_error(
        post(&app, "/api/mouse/map", json!({"position": ""})).await,
        StatusCode::BAD_REQUEST,
        "position",
    );
}

#[tokio::test]
async fn peg_routes() {
    let app = app();
    let (s, v, _) = get(&app, "/api/peg/boards").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v.as_array().map(Vec::len), Some(5));
    let (s, v) = post(
        &app,
        "/api/peg/board",
        json!({"problem": {"board": "english"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["holes"].as_array().map(Vec::len), Some(33));
    assert_eq!(v["vacancies"], json!(["d4"]));
    assert_eq!(v["symmetries"], 8);
    let (s, v) = post(&app, "/api/peg/moves", json!({"problem": {}})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["legal_jumps"],
        json!(["d2-d4", "b4-d4", "f4-d4", "d6-d4"])
    );
    let (s, v) = post(
        &app,
        "/api/peg/jump",
        json!({"problem": {"board": "triangle"}, "jump": "4-1"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["over"], "2");
    assert_eq!(v["after"]["pegs_left"], 13);

    // A solution from the English start, replayed here: 31 jumps to one peg on d4.
    let (s, v) = post(&app, "/api/peg/solve", json!({"problem": {"finish": "d4"}})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["solvable"], true);
    let path: Vec<String> = serde_json::from_value(v["solution"].clone()).expect("jumps");
    assert_eq!(path.len(), 31);
    let mut pegs: Option<Value> = None;
    for j in &path {
        let body = match &pegs {
            Some(p) => json!({"problem": {"finish": "d4"}, "pegs": p, "jump": j}),
            None => json!({"problem": {"finish": "d4"}, "jump": j}),
        };
        let (s, v) = post(&app, "/api/peg/jump", body).await;
        assert_eq!(s, StatusCode::OK, "{j}: {v}");
        pegs = Some(v["after"]["pegs"].clone());
    }
    assert_eq!(pegs, Some(json!(["d4"])));
    // The French board from its centre has no one-peg finish (position class).
    let (s, v) = post(
        &app,
        "/api/peg/solve",
        json!({"problem": {"board": "french"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["solvable"], false);

    // The triangle, counted, against the peg crate's slow reference enumeration.
    let (s, v) = post(
        &app,
        "/api/peg/count",
        json!({"problem": {"board": "triangle"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let problem = peg::Problem::standard(peg::Board::builtin("triangle").expect("board"));
    let reference = peg::reference::count(&problem, None).expect("the reference count");
    assert_eq!(v["positions"].as_u64(), Some(reference.totals.positions));
    assert_eq!(
        v["solutions_full"],
        reference.totals.solutions_full.to_string()
    );
    assert_eq!(
        v["levels"].as_array().map(Vec::len),
        Some(reference.levels.len())
    );
    let (s, v) = post(
        &app,
        "/api/peg/count",
        json!({"problem": {"board": "triangle"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["cached"], true);

    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"board": "hexagon"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hexagon",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"layout": "ooo\noxo\nooo"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "line 2, column 2",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"layout": "ooo", "lattice": "hex"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hex",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"start": ["z9"]}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "z9",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"start": ["d4", "d4"]}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "twice",
    );
    assert_error(
        post(&app, "/api/peg/board", json!({"problem": {"finish": "q1"}})).await,
        StatusCode::BAD_REQUEST,
        "q1",
    );
    assert_error(
        post(&app, "/api/peg/moves", json!({"pegs": ["d4", "x1"]})).await,
        StatusCode::BAD_REQUEST,
        "x1",
    );
    assert_error(
        post(&app, "/api/peg/moves", json!({"pegs": []})).await,
        StatusCode::BAD_REQUEST,
        "no peg",
    );
    assert_error(
        post(&app, "/api/peg/jump", json!({"jump": "d1-d3"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "d3",
    );
    assert_error(
        post(&app, "/api/peg/jump", json!({"jump": "d2-d5"})).await,
        StatusCode::BAD_REQUEST,
        "d2-d5",
    );
    assert_error(
        post(&app, "/api/peg/jump", json!({"jump": "jump!"})).await,
        StatusCode::BAD_REQUEST,
        "malformed",
    );
    assert_error(
        post(
            &app,
            "/api/peg/count",
            json!({"problem": {"board": "wiegleb"}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too big",
    );
}

#[tokio::test]
async fn sudoku_routes() {
    let app = app();
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let sol = "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    let (s, v) = post(&app, "/api/sudoku/parse", json!({"puzzle": p})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["clues"], 17);
    let (s, v) = post(&app, "/api/sudoku/solve", json!({"puzzle": p})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["solution"], sol);
    let (s, v) = post(&app, "/api/sudoku/solve", json!({"puzzle": ".".repeat(81)})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "not_unique");
    let easy = ".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.";
    let (s, v) = post(
        &app,
        "/api/sudoku/rate",
        json!({"puzzle": easy, "explain": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["rating"], 2.6);
    assert_eq!(v["difficulty"], "medium");
    let (s, v) = post(&app, "/api/sudoku/hint", json!({"puzzle": easy})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["step"]["text"],
        "Hidden single: 2 can only go in r3c3 within box 1"
    );
    assert_eq!(v["step"]["cells"], json!([20]));
    // A wrong entry is named instead of a step.
    let mut wrong: Vec<char> = easy.chars().collect();
    wrong[0] = '9';
    let wrong: String = wrong.into_iter().collect();
    let (s, v) = post(
        &app,
        "/api/sudoku/hint",
        json!({"puzzle": easy, "grid": wrong}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "mistake");
    assert_eq!(
        v["message"],
        "The 9 in r1c1 is wrong: the solution has another digit there."
    );
    assert_eq!(v["cell"], 0);
    // The generator with a seed gives a unique puzzle of the level (as `boardlab sudoku generate` does).
    let (s, v) = post(
        &app,
        "/api/sudoku/generate",
        json!({"difficulty": "easy", "seed": 7}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["difficulty"], "easy");
    let puzzle = v["puzzle"].as_str().expect("puzzle").to_string();
    let (_, solved) = post(&app, "/api/sudoku/solve", json!({"puzzle": puzzle})).await;
    assert_eq!(solved["status"], "solved");
    assert_eq!(solved["solution"], v["solution"]);
    let (s, v) = post(
        &app,
        "/api/sudoku/classic",
        json!({"hide": 30, "seed": 1981}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["clues"], 51);

    assert_error(
        post(&app, "/api/sudoku/parse", json!({"puzzle": "44"})).await,
        StatusCode::BAD_REQUEST,
        "column",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/parse",
            json!({"puzzle": format!("44{}", ".".repeat(79))}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "r1c2",
    );
    assert_error(
        post(&app, "/api/sudoku/solve", json!({"puzzle": "x".repeat(81)})).await,
        StatusCode::BAD_REQUEST,
        "column 1",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/hint",
            json!({"puzzle": easy, "grid": "12"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "81",
    );
    let mut changed: Vec<char> = easy.chars().collect();
    changed[1] = '5';
    let changed: String = changed.into_iter().collect();
    assert_error(
        post(
            &app,
            "/api/sudoku/hint",
            json!({"puzzle": easy, "grid": changed}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "r1c2",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/generate",
            json!({"difficulty": "impossible"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "impossible",
    );
    assert_error(
        post(&app, "/api/sudoku/generate", json!({"symmetry": "spiral"})).await,
        StatusCode::BAD_REQUEST,
        "spiral",
    );
    assert_error(
        post(&app, "/api/sudoku/classic", json!({"hide": 99})).await,
        StatusCode::BAD_REQUEST,
        "hide",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/classic",
            json!({"hide": 64, "unique": true, "seed": 1}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unique",
    );
}

/// One action on a game held as its save file (null for `new`); the answer must be a 200.
async fn act(app: &Router, game: &str, save: &Value, action: Value) -> Value {
    let (s, v) = post(
        app,
        &format!("/api/{game}/session"),
        json!({"save": save, "action": action}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{action}: {v}");
    assert_eq!(v["save"]["format"], "boardlab-save");
    assert_eq!(v["save"]["version"], play::save::VERSION);
    assert_eq!(v["save"]["game"], game);
    v
}

/// The same action, expected to be refused.
async fn refused(app: &Router, game: &str, save: &Value, action: Value) -> (StatusCode, Value) {
    post(
        app,
        &format!("/api/{game}/session"),
        json!({"save": save, "action": action}),
    )
    .await
}

/// A sudoku cell's name, as every message writes it.
fn cell_name(i: usize) -> String {
    format!("r{}c{}", i / 9 + 1, i % 9 + 1)
}

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

#[tokio::test]
async fn a_full_queue_answers_503_and_a_slow_job_passes_its_time_limit() {
    // One worker, no queue: while one search runs, the next heavy request (a rating; lookups such as a
    // solve have a lane of their own) is turned away at once.
    let app = router(Limits {
        workers: 1,
        queue: 0,
        time_limit: Duration::from_secs(30),
    });
    let slow = json!({"position": "start", "depth": 64, "time_ms": 1500, "tt_bits": 8});
    let a = tokio::spawn({
        let app = app.clone();
        let slow = slow.clone();
        async move { post(&app, "/api/mouse/analyse", slow).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_error(
        post(&app, "/api/sudoku/rate", json!({"puzzle": ".".repeat(81)})).await,
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
    );
    let (s, _) = a.await.expect("the first request finishes");
    assert_eq!(s, StatusCode::OK);
    let (_, st, _) = get(&app, "/api/status").await;
    assert_eq!(st["jobs"]["rejected"], 1);

    // A count that cannot finish within a 300 ms limit is answered 503 and stops.
    let app = router(Limits {
        workers: 1,
        queue: 4,
        time_limit: Duration::from_millis(300),
    });
    assert_error(
        post(
            &app,
            "/api/peg/count",
            json!({"problem": {"board": "english"}}),
        )
        .await,
        StatusCode::SERVICE_UNAVAILABLE,
        "time limit",
    );
}

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
        let body = serde_json::to_vec(&json!({"save": v["save"], "action": action})).expect("json");
        largest = largest.max(body.len());
        assert!(body.len() < BODY_LIMIT, "action {i}: {} bytes", body.len());
        let (s, w) = refused(&app, "sudoku", &v["save"], action).await;
        match s {
            StatusCode::OK => v = w,
            // A mark in a cell that holds a digit: refused, the game goes on from the same save.
            StatusCode::UNPROCESSABLE_ENTITY => {}
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
