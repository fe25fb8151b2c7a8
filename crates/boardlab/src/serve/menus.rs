//! `/api/menus`: every new-game menu of every game and the games' rules, as `play::menus` defines them.
//!
//! The web page builds its menus from this answer (board sizes and their default starts, levels, rules,
//! difficulties, peg boards and their standard vacancies), so no game rule is written in JavaScript.

use std::sync::{Arc, OnceLock};

use axum::Json;
use axum::Router;
use axum::routing::get;
use play::menus::Menus;

use super::AppState;

/// The menus route.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new().route("/menus", get(menus))
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
