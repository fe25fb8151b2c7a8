//! `/api/{game}/session`: a game in progress, carried by the page as the save file the terminal writes.
//!
//! The page holds the game as a versioned save file (`play::save`: `{"format": "boardlab-save", "version": 4,
//! "game": ..., "state": ...}`), exactly what the terminal writes and `boardlab play --load FILE` reads. Each
//! request sends that file and one action; the answer is the new save file, the session's view to draw, and a
//! message for the player. Nothing is kept on the server between requests, so a server restart loses nothing.
//!
//! The games themselves are `play`'s sessions (the same code the terminal drives): the server turns a request
//! into one of their actions, runs it on the blocking pool, and serializes their view. It decides nothing about
//! a game. One handler (`handle`) serves the three games through `play::GameSession`; each game's module says
//! only what is its own (`Route`): its new-game options, the actions only it has, and how its refusals answer.

pub mod mouse;
pub mod peg;
pub mod sudoku;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::post;
use play::{Env, GameKind, GameSession, Message, NextAction, SaveFile, Tone};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, ApiResult};
use super::jobs::Cancel;

/// The session routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/mouse/session", post(mouse::mouse_session))
        .route("/peg/session", post(peg::peg_session))
        .route("/sudoku/session", post(sudoku::sudoku_session))
}

/// What the one session handler needs to know of a game beyond [`GameSession`].
pub(crate) trait Route: GameSession + 'static {
    /// The options of `{"new": {...}}`.
    type New: DeserializeOwned + Send + 'static;
    /// Every action's name, for the answer to an unknown one: "new, move, undo, ...".
    const ACTIONS: &'static str;
    /// The environment of this game's sessions.
    fn env(app: &AppState) -> Env;
    /// A new game as the request's options say, with its first message (the engine has moved, the puzzle is
    /// made).
    fn start(new: Self::New, env: &Env) -> Result<(Self, Message), ApiError>;
    /// Bound the work of this request by the time it has left (before the action).
    fn bound(&mut self, _cancel: &Cancel) {}
    /// Run action `name` with argument `arg` if it is one only this game has (or one it answers its own way);
    /// `None` for the others.
    fn act(&mut self, name: &str, arg: &Value) -> Option<Result<Message, ApiError>>;
    /// How long the answer may wait for background work after action `name`.
    fn wait(_name: &str, cancel: &Cancel) -> Duration {
        time_left(cancel.remaining(), MARGIN)
    }
    /// A refusal of action `action` as an API error: 400 for input that is wrong in itself, 422 for an action
    /// the game refuses as it stands.
    fn refused(action: &str, e: &Self::Error) -> ApiError;
}

/// The time kept back from the request's limit to answer in.
const MARGIN: Duration = Duration::from_millis(500);

/// The one session handler: read the action, load the game (or start one), run the action on the blocking
/// pool, and answer with the new save, the view and the message.
pub(crate) async fn handle<G: Route>(
    app: Arc<AppState>,
    req: SessionRequest,
) -> ApiResult<SessionAnswer> {
    let (name, a) = action(&req.action)?;
    let env = G::env(&app);
    let start = Start::of(&name, &a, req.save, G::KIND, |a| arg::<G::New>(a, "new"))?;
    let answer = app
        .jobs
        .run(G::KIND.key(), move |cancel| {
            // The work of this action (a sudoku being made) stops with the request.
            let env = Env {
                stop: Some(cancel.shared_flag()),
                ..env
            };
            run::<G>(&env, start, &name, &a, cancel)
        })
        .await?;
    Ok(axum::Json(answer))
}

/// Run one action on the game, then let its background work answer within the time left. The action `{"at": k}`
/// of a game with a move list answers the game as it stood after its first `k` moves (the view to draw in a
/// replay) and the save sent, unchanged.
fn run<G: Route>(
    env: &Env,
    start: Start<G::New>,
    name: &str,
    a: &Value,
    cancel: &Cancel,
) -> Result<SessionAnswer, ApiError> {
    let (mut s, first) = match start {
        Start::New(new) => G::start(new, env)?,
        Start::Saved(save) => {
            let s = G::from_state(&save.state, env).map_err(|reason| damaged(G::KIND, reason))?;
            (s, Message::info(""))
        }
    };
    s.bound(cancel);
    // A replay: the game as it stood after its first moves, answered with the game sent, unchanged.
    if name == "at" {
        let ply = arg::<usize>(a, "at")?;
        let view = s
            .view_at(ply)
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "at: a {} game has no move list to replay",
                    G::KIND.key()
                ))
            })?
            .map_err(|e| ApiError::bad(format!("at: {e}")))?;
        return Ok(SessionAnswer::new(
            &s.save(),
            &view,
            &Message::info(""),
            Value::Null,
        ));
    }
    let refused = |e: G::Error| G::refused(name, &e);
    let msg = match s.act(name, a) {
        Some(done) => done?,
        None => match name {
            "new" => first,
            "view" => s.standing().unwrap_or(first),
            "undo" => s.undo().map_err(refused)?,
            "redo" => s.redo().map_err(refused)?,
            "hint" => s.hint().map_err(refused)?,
            other => {
                return Err(ApiError::bad(format!(
                    "action: unknown {} action \"{other}\" ({})",
                    G::KIND.key(),
                    G::ACTIONS
                )));
            }
        },
    };
    let msg = match s.settle(Some(G::wait(name, cancel))) {
        Some(news) => news.map_err(refused)?,
        None => msg,
    };
    Ok(SessionAnswer::new(&s.save(), &s.view(), &msg, Value::Null))
}

/// A game's save file and one action on it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionRequest {
    /// The game as its save file (the terminal's format, as the last answer gave it); absent for `new`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub save: Option<Value>,
    /// The action: `{"new": {...}}`, `{"jump": "d2-d4"}`, `"undo"`, ... (see each route).
    #[schema(value_type = Object)]
    pub action: Value,
}

/// The answer to an action.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionAnswer {
    /// The game's new save file: keep it, send it with the next action, or export it for the terminal.
    #[schema(value_type = Object)]
    pub save: Value,
    /// What to draw: the game session's view.
    #[schema(value_type = Object)]
    pub view: Value,
    /// A line for the player.
    pub message: String,
    /// `info`, `good`, `warn` or `error`.
    pub tone: String,
    /// Extra results of the action (the engine's analysis), or null.
    #[schema(value_type = Object)]
    pub extra: Value,
    /// What the player can do next, for buttons: `{"action": "new_game", "label": "new game"}` (actions:
    /// `new_game`, `undo`, `restart`, `leave`, `rules`, `fill_marks`, `digit_mode`, `pencil_mode`,
    /// `play_solution`, `play_all`). The message names no key.
    pub next: Vec<NextStep>,
}

/// One thing the player can do next.
#[derive(Debug, Serialize, ToSchema)]
pub struct NextStep {
    /// The action, e.g. `new_game`.
    #[schema(value_type = String)]
    pub action: NextAction,
    /// What it does, in a few words.
    pub label: &'static str,
}

impl SessionAnswer {
    /// The answer with `save`, the view `view` and the message `msg`.
    pub(crate) fn new(save: &SaveFile, view: &impl Serialize, msg: &Message, extra: Value) -> Self {
        SessionAnswer {
            save: save.to_value(),
            // A view is plain data: serializing it cannot fail.
            view: serde_json::to_value(view).unwrap_or(Value::Null),
            message: msg.text.clone(),
            tone: tone_name(msg.tone).to_string(),
            extra,
            next: msg
                .next
                .iter()
                .map(|&action| NextStep {
                    action,
                    label: action.label(),
                })
                .collect(),
        }
    }
}

/// The name of a tone in answers.
pub(crate) fn tone_name(t: Tone) -> &'static str {
    match t {
        Tone::Info => "info",
        Tone::Good => "good",
        Tone::Warn => "warn",
        Tone::Error => "error",
    }
}

/// The action's name and argument: `"undo"` or `{"jump": "d2-d4"}`.
pub(crate) fn action(v: &Value) -> Result<(String, Value), ApiError> {
    match v {
        Value::String(s) => Ok((s.clone(), Value::Null)),
        Value::Object(m) if m.len() == 1 => {
            let (k, a) = m
                .iter()
                .next()
                .ok_or_else(|| ApiError::bad("action: empty"))?;
            Ok((k.clone(), a.clone()))
        }
        _ => Err(ApiError::bad(
            "action: write it as a name (\"undo\") or an object with one key ({\"jump\": \"d2-d4\"})",
        )),
    }
}

/// The argument of action `what`, typed.
pub(crate) fn arg<T: serde::de::DeserializeOwned>(a: &Value, what: &str) -> Result<T, ApiError> {
    serde_json::from_value(a.clone()).map_err(|e| ApiError::bad(format!("action {what}: {e}")))
}

/// Where the game of a request comes from: a new game's options, or the save file the request sent.
pub(crate) enum Start<N> {
    /// Action `new`, with its options.
    New(N),
    /// Any other action, on this game.
    Saved(SaveFile),
}

impl<N> Start<N> {
    /// The game of a request for the action `name` with argument `a`: for `new`, the options `new` reads
    /// from `a`; for any other action, the request's save file, which must hold a game of `game`.
    pub(crate) fn of(
        name: &str,
        a: &Value,
        save: Option<Value>,
        game: GameKind,
        new: impl FnOnce(&Value) -> Result<N, ApiError>,
    ) -> Result<Self, ApiError> {
        if name == "new" {
            new(a).map(Start::New)
        } else {
            load_save(save, game).map(Start::Saved)
        }
    }
}

/// The request's save file, checked: present, a boardlab save of a version this program reads, of `game`.
pub(crate) fn load_save(save: Option<Value>, game: GameKind) -> Result<SaveFile, ApiError> {
    let value = save.ok_or_else(|| {
        ApiError::bad(
            "save: this action needs the game's save file (only \"new\" starts without one)",
        )
    })?;
    let save = SaveFile::from_value(value).map_err(|e| ApiError::bad(format!("save: {e}")))?;
    let kind = save
        .kind()
        .map_err(|e| ApiError::bad(format!("save: {e}")))?;
    if kind != game {
        return Err(ApiError::bad(format!(
            "save: the file holds a {} game, not {}; open it on the {} page",
            kind.name(),
            game.name(),
            kind.key()
        )));
    }
    Ok(save)
}

/// The 400 of a save whose game state a session refused.
pub(crate) fn damaged(game: GameKind, reason: String) -> ApiError {
    ApiError::bad(format!(
        "save: {}",
        play::SaveError::Damaged { game, reason }
    ))
}

/// What is left of the request's time for waiting on an answer, keeping `margin` to answer in.
pub(crate) fn time_left(remaining: Duration, margin: Duration) -> Duration {
    remaining.saturating_sub(margin)
}
