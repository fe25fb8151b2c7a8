//! `/api/menus`: every new-game menu of every game and the games' rules, as `play::menus` defines them.
//!
//! The web page builds its menus from this answer (board sizes and their default starts, levels, rules,
//! difficulties, peg boards and their standard vacancies), so no game rule is written in JavaScript.

use std::sync::{Arc, OnceLock};

use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::routing::get;
use play::menus::{Daily, Menus};
use serde::Deserialize;

use super::AppState;
use super::error::{ApiError, ApiResult};

/// The menus routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/menus", get(menus))
        .route("/daily", get(daily))
}

/// Which day.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyQuery {
    /// `YYYY-MM-DD`: the player's own date.
    pub date: String,
}

/// The daily puzzles of a date (`?date=2026-11-28`, the player's own date): the seed, difficulty and symmetry of
/// the daily sudoku, the board and start of the daily peg game. The same date gives the same puzzles everywhere.
#[utoipa::path(get, path = "/api/daily", tag = "server", params(("date" = String, Query, description = "YYYY-MM-DD")),
    responses((status = 200, description = "The daily puzzles (play::menus::Daily)", content_type = "application/json"),
              (status = 400, description = "No date, or not a date", body = super::error::ErrorBody)))]
pub async fn daily(q: Result<Query<DailyQuery>, QueryRejection>) -> ApiResult<Daily> {
    let Query(q) = q.map_err(ApiError::from)?;
    Daily::of(&q.date)
        .map(Json)
        .map_err(|e| ApiError::bad(format!("date: {e}")))
}

/// The menus, built once (they depend on nothing but the program).
fn built() -> &'static Menus {
    static MENUS: OnceLock<Menus> = OnceLock::new();
    MENUS.get_or_init(Menus::new)
}

/// Every game's name, description and rules text, and the choices of its new-game menu: the Mouse & Cats boards
/// (each with its start squares, default start, levels and rule names), the peg boards (each with its standard
/// vacancy and an example jump), the sudoku modes, difficulties, symmetries and classic sizes.
#[utoipa::path(get, path = "/api/menus", tag = "server",
    responses((status = 200, description = "The games' menus and rules (play::menus::Menus)", content_type = "application/json")))]
pub async fn menus() -> Json<&'static Menus> {
    Json(built())
}
