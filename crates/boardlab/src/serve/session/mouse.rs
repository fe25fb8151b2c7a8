//! `/api/mouse/session`: a Mouse & Cats game against the engine, as `play::MouseSession` plays it.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use play::mouse::{MouseError, MouseOptions, MouseSession};
use play::{Env, GameKind, Message};
use serde_json::Value;

use super::{SessionAnswer, SessionRequest, Start, action, arg, damaged, time_left};
use crate::serve::AppState;
use crate::serve::error::{ApiError, ApiResult, Body};
use crate::serve::jobs::Cancel;

/// The time kept back from the request's limit to answer in (the engine thinks within the rest).
const MARGIN: Duration = Duration::from_millis(500);

/// A Mouse & Cats game against the engine. Actions: `{"new": {"player": "mouse", "level": 5, "mouse_start":
/// "E1", "first": "mouse", "rule": "row8"}}` (the options as the save file writes them; the engine moves at once
/// when it is first; `"size": 6` for another board, even from 4 to 16, with its rule `far-row`, `escape` or
/// `region` and `mouse_start` a free dark square of it, the board's default when absent; level 10 up to 10x10;
/// a bad size, rule or square is a 400 naming it), `{"move": "E1-F2"}` (your move; the engine's answer comes in the same reply, and
/// `view.engine` shows its search), `"undo"` (your last move and the engine's answer), `"redo"`, `"hint"` (the
/// best move from the exact solution, in `view.hint`; on boards beyond 10x10, where `view.exact` is false, from
/// a search, and the message says no exact value is available), `"who"` (who wins from here with best play, and
/// in how many plies), `"view"`. The game is `play`'s `MouseSession`, as in the terminal.
#[utoipa::path(post, path = "/api/mouse/session", tag = "mouse", request_body = super::SessionRequest,
    responses((status = 200, body = super::SessionAnswer),
              (status = 400, description = "A damaged save, a malformed action or options (the square or the value named)", body = crate::serve::error::ErrorBody),
              (status = 422, description = "An illegal move (the squares named), not your turn, or the game over", body = crate::serve::error::ErrorBody)))]
pub async fn mouse_session(
    State(app): State<Arc<AppState>>,
    Body(req): Body<SessionRequest>,
) -> ApiResult<SessionAnswer> {
    let (name, a) = action(&req.action)?;
    let env = app.env.clone();
    let start = Start::of(&name, &a, req.save, GameKind::Mouse, |a| arg(a, "new"))?;
    let answer = app
        .jobs
        .run("mouse", move |cancel| run(&env, start, &name, &a, cancel))
        .await?;
    Ok(Json(answer))
}

/// Run one action on the game; the engine thinks within the request's time.
fn run(
    env: &Env,
    start: Start<MouseOptions>,
    name: &str,
    a: &Value,
    cancel: &Cancel,
) -> Result<SessionAnswer, ApiError> {
    let limit = Some(time_left(cancel.remaining(), MARGIN));
    let (mut s, msg) = match start {
        Start::New(opts) => {
            // When the engine moves first it thinks here, within the environment's time limit for the engine.
            let mut s = MouseSession::new(opts, env).map_err(|e| error("new", &e))?;
            let msg = s.settle().unwrap_or_else(|| s.opening());
            (s, msg)
        }
        Start::Saved(save) => {
            let s = MouseSession::from_state(&save.state, env)
                .map_err(|reason| damaged(GameKind::Mouse, reason))?;
            (s, Message::info(""))
        }
    };
    s.set_time_limit(limit);
    let e = |err: MouseError| error(name, &err);
    let msg = match name {
        "new" => msg,
        "view" => match s.winner() {
            Some(w) => s.game_over_message(w),
            None => msg,
        },
        "move" => {
            let text: String = arg(a, "move")?;
            s.play_text(&text).map_err(e)?
        }
        "undo" => s.undo(),
        "redo" => s.redo().map_err(e)?,
        "hint" => s.hint(),
        "who" => s.who_wins(),
        other => {
            return Err(ApiError::bad(format!(
                "action: unknown mouse action \"{other}\" (new, move, undo, redo, hint, who, view)"
            )));
        }
    };
    let msg = s.settle().unwrap_or(msg);
    Ok(SessionAnswer::new(&s.save(), &s.view(), &msg, Value::Null))
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
