//! The pages, scripts and stylesheets, compiled into the binary from `crates/boardlab/web/`.
//!
//! A request names an asset; it is looked up in a fixed table, never on the file system. Every page path is
//! the same `index.html`: the page's script draws the screen the path names.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::AppState;

/// One embedded file.
struct Asset {
    name: &'static str,
    mime: &'static str,
    body: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $mime:literal) => {
        Asset {
            name: $name,
            mime: $mime,
            body: include_bytes!(concat!("../../web/", $name)),
        }
    };
}

/// Every file under `/assets/`.
const ASSETS: &[Asset] = &[
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("api.js", "text/javascript; charset=utf-8"),
    asset!("store.js", "text/javascript; charset=utf-8"),
    asset!("ui.js", "text/javascript; charset=utf-8"),
    asset!("title.js", "text/javascript; charset=utf-8"),
    asset!("game.js", "text/javascript; charset=utf-8"),
    asset!("help.js", "text/javascript; charset=utf-8"),
    asset!("settings.js", "text/javascript; charset=utf-8"),
    asset!("stats.js", "text/javascript; charset=utf-8"),
    asset!("replay.js", "text/javascript; charset=utf-8"),
    asset!("mouse.js", "text/javascript; charset=utf-8"),
    asset!("peg.js", "text/javascript; charset=utf-8"),
    asset!("sudoku.js", "text/javascript; charset=utf-8"),
    asset!("icon.svg", "image/svg+xml"),
];

const INDEX: &[u8] = include_bytes!("../../web/index.html");

/// The page paths (each answers `index.html`).
pub const PAGES: &[&str] = &[
    "/",
    "/mouse",
    "/peg",
    "/peg/analysis",
    "/sudoku",
    "/stats",
    "/rules/mouse",
    "/rules/peg",
    "/rules/sudoku",
];

/// The routes of the pages and assets.
pub fn routes() -> Router<Arc<AppState>> {
    let mut r = Router::new();
    for p in PAGES {
        r = r.route(p, get(index));
    }
    r.route("/assets/{*name}", get(asset))
        .route("/favicon.ico", get(favicon))
        .fallback(not_found)
}

fn respond(mime: &'static str, body: &'static [u8], cache: &'static str) -> Response {
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'",
        ),
    );
    res
}

async fn index() -> Response {
    respond("text/html; charset=utf-8", INDEX, "no-cache")
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(a) => respond(a.mime, a.body, "no-cache"),
        None => (StatusCode::NOT_FOUND, format!("no asset named {name}")).into_response(),
    }
}

async fn favicon() -> Response {
    match ASSETS.iter().find(|a| a.name == "icon.svg") {
        Some(a) => respond(a.mime, a.body, "max-age=86400"),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such page; the games are at /").into_response()
}

/// The names of the embedded assets (for tests).
pub fn asset_names() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|a| a.name)
}
