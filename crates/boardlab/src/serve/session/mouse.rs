//! `/api/mouse/session`: a Mouse & Cats game against the engine, as `play::MouseSession` plays it.

use std::sync::Arc;

use axum::extract::State;
use play::mouse::{MouseError, MouseOptions, MouseSession};
use play::{Env, Message};
use serde_json::Value;

use super::{MARGIN, Route, SessionAnswer, SessionRequest, arg, handle, time_left};
use crate::serve::AppState;
use crate::serve::error::{ApiError, ApiResult, Body};
use crate::serve::jobs::Cancel;

/// A Mouse & Cats game against the engine. Actions: `{"new": {"player": "mouse", "level": 5, "mouse_start":
/// "E1", "first": "mouse", "rule": "row8"}}` (the options as the save file writes them; the engine moves at once
/// when it is first; `"size": 6` for another board, even from 4 to 16, with its rule `far-row`, `escape` or
/// `region` and `mouse_start` a free dark square of it, the board's default when absent; level 10 up to 10x10;
/// a bad size, rule or square is a 400 naming it), `{"move": "E1-F2"}` (your move; the engine's answer comes in the same reply, and
/// `view.engine` shows its search), `"undo"` (your last move and the engine's answer), `"redo"`, `"hint"` (the
/// best move from the exact solution, in `view.hint`; on boards beyond 10x10, where `view.exact` is false, from
/// a search, and the message says no exact value is available), `"who"` (who wins from here with best play, and
/// in how many plies), `"view"`, `{"at": 3}` (the position after the first 3 moves, for a replay: the view then,
/// with the save sent unchanged). The game is `play`'s `MouseSession`, as in the terminal.
#[utoipa::path(post, path = "/api/mouse/session", tag = "mouse", request_body = super::SessionRequest,
    responses((status = 200, body = super::SessionAnswer),
              (status = 400, description = "A damaged save, a malformed action or options (the square or the value named)", body = crate::serve::error::ErrorBody),
              (status = 422, description = "An illegal move (the squares named), not your turn, or the game over", body = crate::serve::error::ErrorBody)))]
pub async fn mouse_session(
    State(app): State<Arc<AppState>>,
    Body(req): Body<SessionRequest>,
) -> ApiResult<SessionAnswer> {
    handle::<MouseSession>(app, req).await
}

impl Route for MouseSession {
    type New = MouseOptions;
    const ACTIONS: &'static str = "new, move, undo, redo, hint, who, view, at";

    fn env(app: &AppState) -> Env {
        app.env.clone()
    }

    fn start(opts: MouseOptions, env: &Env) -> Result<(Self, Message), ApiError> {
        // When the engine moves first it thinks here, within the environment's time limit for the engine.
        let mut s = MouseSession::new(opts, env).map_err(|e| error("new", &e))?;
        let msg = s.settle().unwrap_or_else(|| s.opening());
        Ok((s, msg))
    }

    /// The engine thinks within the request's time.
    fn bound(&mut self, cancel: &Cancel) {
        self.set_time_limit(Some(time_left(cancel.remaining(), MARGIN)));
    }

    fn act(&mut self, name: &str, a: &Value) -> Option<Result<Message, ApiError>> {
        match name {
            "move" => Some(
                arg::<String>(a, "move")
                    .and_then(|text| self.play_text(&text).map_err(|e| error(name, &e))),
            ),
            "who" => Some(Ok(self.who_wins())),
            _ => None,
        }
    }

    fn refused(action: &str, e: &MouseError) -> ApiError {
        error(action, e)
    }
}

/// A session's refusal as an API error: the action's name, then the session's sentence (which names the move).
fn error(action: &str, e: &MouseError) -> ApiError {
    match e {
        MouseError::Setup(_) | MouseError::Typed(_) | MouseError::OffBoard(_) => {
            ApiError::bad(format!("{action}: {e}"))
        }
        MouseError::Over => ApiError::unprocessable(format!(
            "{action}: the game is over; undo, or start a new game"
        )),
        MouseError::NotYourTurn(side) => ApiError::unprocessable(format!(
            "{action}: it is not your turn: the {side} (the engine) are to move"
        )),
        _ => ApiError::unprocessable(format!("{action}: {e}")),
    }
}
