//! `/api/peg/session`: a peg solitaire game in progress, as `play::PegSession` plays it (with its live "one peg
//! can still be left" indicator).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use play::peg::{PegError, PegSession};
use play::{Env, Message};
use serde::Deserialize;
use serde_json::Value;

use super::{MARGIN, Route, SessionAnswer, SessionRequest, arg, handle, time_left};
use crate::serve::AppState;
use crate::serve::error::{ApiError, ApiResult, Body};
use crate::serve::jobs::Cancel;
use crate::serve::peg::ProblemSpec;

/// The longest a request waits for the indicator's answer (a search, a table being built) or for a question
/// waiting on it: past it the view says "checking" with the search's progress and `waiting`, the work goes on
/// in the background (shared by every later request about the position), and the page asks again.
const ANSWER_WAIT: Duration = Duration::from_secs(1);

/// A jump between two holes by number (as `view.holes` lists them).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HoleJump {
    from: usize,
    to: usize,
}

/// A peg solitaire game. Actions: `{"new": {"board": "english", "start": ["d4"], "finish": "d4"}}` (or a
/// `layout` and `lattice` in place of `board`), `{"jump": "d2-d4"}` (or `{"jump": {"from": 4, "to": 16}}` by
/// hole number), `"undo"`, `"redo"`, `"restart"`, `"solution"` or `"hint"` (a way to finish from here, in
/// `view.solution`), `"step"` (play the next jump of that way), `"view"`, `{"at": 3}` (the position after the
/// first 3 jumps, for a replay: the view then, with the save sent unchanged). Every answer's `view.indicator` says
/// whether one peg (on the finish) can still be left: `possible`, `impossible` (and why), or `checking` /
/// `unknown` when the server could not tell within its time. The game is `play`'s `PegSession`, as in the
/// terminal.
#[utoipa::path(post, path = "/api/peg/session", tag = "peg", request_body = super::SessionRequest,
    responses((status = 200, body = super::SessionAnswer),
              (status = 400, description = "A damaged save, a malformed action, an unknown board or hole (named)", body = crate::serve::error::ErrorBody),
              (status = 422, description = "An illegal jump (the holes named), or the game over", body = crate::serve::error::ErrorBody)))]
pub async fn peg_session(
    State(app): State<Arc<AppState>>,
    Body(req): Body<SessionRequest>,
) -> ApiResult<SessionAnswer> {
    handle::<PegSession>(app, req).await
}

impl Route for PegSession {
    type New = ProblemSpec;
    const ACTIONS: &'static str = "new, jump, undo, redo, restart, solution, hint, step, view, at";

    /// The peg sessions' environment: its tables outlive the request that started them.
    fn env(app: &AppState) -> Env {
        app.peg_env.clone()
    }

    fn start(spec: ProblemSpec, env: &Env) -> Result<(Self, Message), ApiError> {
        let problem = spec.setup().map_err(|e| e.context("new"))?.problem;
        let s = PegSession::new(problem, env).map_err(|e| error("new", &e))?;
        let msg = s.opening();
        Ok((s, msg))
    }

    fn act(&mut self, name: &str, a: &Value) -> Option<Result<Message, ApiError>> {
        let e = |err: PegError| error(name, &err);
        Some(match name {
            "jump" => match a {
                Value::String(text) => self.play_text(text).map_err(e),
                other => {
                    arg::<HoleJump>(other, "jump").and_then(|j| self.jump(j.from, j.to).map_err(e))
                }
            },
            "restart" => Ok(self.restart()),
            "solution" => Ok(self.show_solution()),
            "step" => self.step().map_err(e),
            _ => return None,
        })
    }

    /// No request waits for the answer longer than about a second, a question about the solution neither.
    fn wait(_name: &str, cancel: &Cancel) -> Duration {
        time_left(cancel.remaining(), MARGIN).min(ANSWER_WAIT)
    }

    fn refused(action: &str, e: &PegError) -> ApiError {
        error(action, e)
    }
}

/// A session's refusal as an API error: the action's name, then the session's sentence (which names the holes).
fn error(action: &str, e: &PegError) -> ApiError {
    match e {
        PegError::Setup(_) | PegError::Typed(_) | PegError::NoHole { .. } => {
            ApiError::bad(format!("{action}: {e}"))
        }
        PegError::Over => ApiError::unprocessable(format!(
            "{action}: the game is over (no jump is left); undo, restart or start a new game"
        )),
        _ => ApiError::unprocessable(format!("{action}: {e}")),
    }
}
