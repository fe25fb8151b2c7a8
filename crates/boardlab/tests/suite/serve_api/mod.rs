//! `boardlab serve`'s API, route by route: the answers, and for each bad input the status, the one-line JSON
//! error naming what was wrong, and no panic. The router is driven in-process (no socket).
//!
//! One module per kind of question: `routes` (the engine routes, pages, limits), `sessions` (whole games
//! through the session route), `saves` (save files between the page and the terminal, long games), `sizes`
//! (Mouse & Cats on other boards and rules).

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

mod routes;
mod saves;
mod sessions;
mod sizes;
