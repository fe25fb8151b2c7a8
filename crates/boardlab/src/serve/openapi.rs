//! The OpenAPI document of `/api/`, generated from the handlers' annotations.

use axum::Json;
use utoipa::OpenApi;

use super::{error, jobs, menus, mouse, peg, session, sudoku};

/// The API's description.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "boardlab",
        description = "Mouse & Cats, peg solitaire and sudoku: moves, hints, engine analysis, solving, rating, \
                       generating and counting. Every error is `{\"error\": \"...\"}` with a 4xx status naming \
                       what was wrong (a 503 when the server is busy or a job passed its time limit). Counts that \
                       can pass 2^53 are decimal strings."
    ),
    paths(
        super::status,
        document,
        menus::menus, menus::daily,
        mouse::position, mouse::play_move, mouse::hint, mouse::analyse, mouse::map, mouse::run_perft,
        peg::boards, peg::board, peg::moves, peg::jump, peg::solve, peg::count,
        sudoku::parse, sudoku::solve, sudoku::rate_puzzle, sudoku::hint, sudoku::generate_puzzle,
        sudoku::classic_puzzle,
        session::mouse::mouse_session, session::peg::peg_session, session::sudoku::sudoku_session,
    ),
    components(schemas(error::ErrorBody, jobs::JobStats, super::CacheStatus, super::CacheUse)),
    tags(
        (name = "server", description = "The server itself"),
        (name = "mouse", description = "Mouse & Cats (Fox and Hounds)"),
        (name = "peg", description = "Peg solitaire"),
        (name = "sudoku", description = "Sudoku"),
    )
)]
pub struct ApiDoc;

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "server",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", content_type = "application/json")))]
pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
