//! `/api/peg/session`: a peg solitaire game in progress, as `play::PegSession` plays it (with its live "one peg
//! can still be left" indicator).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use play::peg::{Answer, PegError, PegSession};
use play::{Env, GameKind, Message};
use serde::Deserialize;
use serde_json::Value;

use super::{SessionAnswer, SessionRequest, Start, action, arg, damaged, time_left};
use crate::serve::AppState;
use crate::serve::error::{ApiError, ApiResult, Body};
use crate::serve::jobs::Cancel;
use crate::serve::peg::ProblemSpec;

/// The longest the live indicator may search for one answer (past it the view says "checking": not known yet).
const INDICATOR_WAIT: Duration = Duration::from_secs(3);
/// How often a waiting request looks at the session's background work.
const POLL_EVERY: Duration = Duration::from_millis(5);
/// The time kept back from the request's limit to answer in.
const MARGIN: Duration = Duration::from_millis(500);

/// A jump between two holes by number (as `view.holes` lists them).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HoleJump {
    from: usize,
    to: usize,
}

/// A peg solitaire game. Actions: `{"new": {"board": "english", "start": ["d4"], "finish": "d4"}}` (or a
/// `layout` and `lattice` in place of `board`), `{"jump": "d2-d4"}` (or `{"jump": {"from": 4, "to": 16}}` by
/// hole number), `"undo"`, `"redo"`, `"restart"`, `"solution"` (a way to finish from here, in
/// `view.solution`), `"step"` (play the next jump of that way), `"view"`. Every answer's `view.indicator` says
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
    let (name, a) = action(&req.action)?;
    let env = app.peg_env.clone();
    let start = Start::of(&name, &a, req.save, GameKind::Peg, |a| {
        let spec: ProblemSpec = arg(a, "new")?;
        Ok(spec.setup().map_err(|e| e.context("new"))?.problem)
    })?;
    let answer = app
        .jobs
        .run("peg", move |cancel| run(&env, start, &name, &a, cancel))
        .await?;
    Ok(Json(answer))
}

/// Run one action on the game, then let the indicator answer for the new position within the time left.
fn run(
    env: &Env,
    start: Start<peg::Problem>,
    name: &str,
    a: &Value,
    cancel: &Cancel,
) -> Result<SessionAnswer, ApiError> {
    let mut s = match start {
        Start::New(problem) => PegSession::new(problem, env).map_err(|e| error("new", &e))?,
        Start::Saved(save) => PegSession::from_state(&save.state, env)
            .map_err(|reason| damaged(GameKind::Peg, reason))?,
    };
    let e = |err: PegError| error(name, &err);
    let msg = match name {
        "new" => s.opening(),
        "view" => {
            if s.is_over() {
                s.game_over_message()
            } else {
                Message::info("")
            }
        }
        "jump" => match a {
            Value::String(text) => s.play_text(text).map_err(e)?,
            other => {
                let j: HoleJump = arg(other, "jump")?;
                s.jump(j.from, j.to).map_err(e)?
            }
        },
        "undo" => s.undo(),
        "redo" => s.redo(),
        "restart" => s.restart(),
        "solution" => s.show_solution(),
        "step" => s.step().map_err(e)?,
        other => {
            return Err(ApiError::bad(format!(
                "action: unknown peg action \"{other}\" (new, jump, undo, redo, restart, solution, step, view)"
            )));
        }
    };
    // A question about the solution may wait the whole request; the indicator alone, a few seconds.
    let wait = if matches!(name, "solution" | "step") {
        time_left(cancel.remaining(), MARGIN)
    } else {
        time_left(cancel.remaining(), MARGIN).min(INDICATOR_WAIT)
    };
    let msg = settle(&mut s, wait).unwrap_or(msg);
    Ok(SessionAnswer::new(&s.save(), &s.view(), &msg, Value::Null))
}

/// Let the session's background work (the indicator's search, a table being built) answer for the current
/// position and any question waiting on it, for at most `wait`; the message of an answered question.
fn settle(s: &mut PegSession, wait: Duration) -> Option<Message> {
    let deadline = Instant::now() + wait;
    let mut msg = None;
    loop {
        if let Some(m) = s.poll() {
            msg = Some(m);
        }
        let settled = !matches!(s.answer(), Answer::Checking) && !s.waiting();
        if settled || Instant::now() >= deadline {
            return msg;
        }
        std::thread::sleep(POLL_EVERY);
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
