//! The same question asked of the command line (`--json`) and of the HTTP API gets the same JSON: both print
//! the structs of `boardlab::answers`. Each question below is asked both ways and the answers compared, field
//! by field, with only the timings (which differ from run to run) taken out.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly on purpose

use std::process::Command;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use boardlab::serve::{Limits, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

fn cli(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .arg("--json")
        .args(args)
        .output()
        .expect("boardlab runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

async fn api(path: &str, body: Value) -> Value {
    let app = router(Limits {
        workers: 2,
        queue: 16,
        time_limit: Duration::from_secs(60),
    });
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

/// The answer without its timings (`elapsed_ms`, `nodes_per_second`), at every depth.
fn untimed(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "elapsed_ms" | "nodes_per_second"))
                .map(|(k, v)| (k.clone(), untimed(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(untimed).collect()),
        other => other.clone(),
    }
}

#[tokio::test]
async fn mouse_analysis_is_the_same_answer() {
    let pos = "mouse=C3 cats=B4,D4,A1,E1 turn=cats";
    let by_cli = cli(&["mouse", "analyse", pos, "--depth", "6", "--stats"]);
    let by_api = api("/api/mouse/analyse", json!({"position": pos, "depth": 6})).await;
    assert_eq!(untimed(&by_cli), untimed(&by_api));
    // Not a vacuous match: a real search with its tables and the exact value.
    assert_eq!(by_api["depth"], 6);
    assert!(by_api["nodes"].as_u64().unwrap() > 0);
    assert!(by_api["tables"]["probes"].as_u64().unwrap() > 0);
    assert!(by_api["exact"]["value_keeping_moves"].as_array().is_some());
}

#[tokio::test]
async fn perft_is_the_same_answer() {
    let by_cli = cli(&["mouse", "perft", "5", "--divide"]);
    let by_api = api("/api/mouse/perft", json!({"depth": 5, "divide": true})).await;
    assert_eq!(untimed(&by_cli), untimed(&by_api));
    let by_cli = cli(&["mouse", "perft", "4", "--size", "6"]);
    let by_api = api("/api/mouse/perft", json!({"depth": 4, "size": "6"})).await;
    assert_eq!(untimed(&by_cli), untimed(&by_api));
    assert_eq!(by_api["size"], 6);
    assert!(by_api["count"].as_str().unwrap().parse::<u64>().unwrap() > 0);
}

#[tokio::test]
async fn sudoku_rating_steps_are_the_same_answer() {
    // An easy puzzle (singles and pairs): every step of its logical solution.
    let puzzle =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let by_cli = cli(&["sudoku", "rate", "--explain", puzzle]);
    let by_api = api(
        "/api/sudoku/rate",
        json!({"puzzle": puzzle, "explain": true}),
    )
    .await;
    let steps = by_api["steps"].as_array().unwrap();
    assert!(steps.len() > 20, "{} steps", steps.len());
    let rated = &by_cli["results"][0];
    assert_eq!(rated["steps"], by_api["steps"]);
    assert_eq!(rated["rating"], by_api["rating"]);
}

#[tokio::test]
async fn sudoku_hints_are_the_same_answer() {
    // A puzzle: its first step; the solved grid: complete; an empty grid: stuck.
    let puzzle =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let solved = sudoku::Grid::parse(puzzle)
        .unwrap()
        .solve()
        .unwrap()
        .to_line();
    let empty = ".".repeat(81);
    for (grid, status) in [
        (puzzle, "step"),
        (solved.as_str(), "solved"),
        (empty.as_str(), "stuck"),
    ] {
        let by_cli = cli(&["sudoku", "hint", grid]);
        let by_api = api("/api/sudoku/hint", json!({"puzzle": grid})).await;
        assert_eq!(by_cli, by_api, "{grid}");
        assert_eq!(by_api["status"], status);
    }
}

/// What `boardlab play sudoku --puzzle` (the terminal) and `/api/sudoku/session` say about a pasted puzzle that
/// cannot be played: refused in the same cases, with the same sentence.
#[tokio::test]
async fn a_pasted_puzzle_is_refused_as_the_terminal_refuses_it() {
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let repeated = format!("44{}", &good[2..]);
    let unsolvable = format!("{}9", &good[..80]);
    let short = good[..40].to_string();
    for puzzle in [repeated, unsolvable, short] {
        let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(["play", "sudoku", "--puzzle", &puzzle])
            .output()
            .expect("boardlab runs");
        assert_eq!(out.status.code(), Some(1), "{puzzle}");
        let err = String::from_utf8(out.stderr).unwrap();
        let terminal = err
            .trim_end()
            .split_once("--puzzle: ")
            .map(|(_, s)| s.to_string())
            .unwrap_or_else(|| panic!("{err}"));
        let app = router(Limits {
            workers: 2,
            queue: 16,
            time_limit: Duration::from_secs(60),
        });
        let req = Request::post("/api/sudoku/session")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(
                json!({"action": {"new": {"puzzle": puzzle}}}).to_string(),
            ))
            .unwrap();
        let res = app.oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{puzzle}");
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            v["error"].as_str().unwrap(),
            format!("new.puzzle: {terminal}"),
            "{puzzle}"
        );
        assert!(
            terminal.starts_with("the puzzle cannot be played: "),
            "{terminal}"
        );
    }
    // And the good one is played by both (the terminal needs a terminal, which a test has not).
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["play", "sudoku", "--puzzle", good])
        .output()
        .expect("boardlab runs");
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"));
    let v = api(
        "/api/sudoku/session",
        json!({"action": {"new": {"puzzle": good}}}),
    )
    .await;
    assert_eq!(v["view"]["ready"], true);
}
