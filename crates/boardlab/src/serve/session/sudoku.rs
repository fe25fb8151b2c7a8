//! `/api/sudoku/session`: a sudoku in progress, as `play::SudokuSession` plays it.

use std::sync::Arc;

use axum::extract::State;
use play::sudoku::{End, Mode, Puzzle, Setup, SudokuError, SudokuSession};
use play::{Env, Message};
use serde::Deserialize;
use serde_json::Value;

use super::{Route, SessionAnswer, SessionRequest, arg, handle};
use crate::serve::AppState;
use crate::serve::error::{ApiError, ApiResult, Body};

/// What a new sudoku should be.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SudokuNew {
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    difficulty: Option<String>,
    #[serde(default)]
    symmetry: Option<String>,
    #[serde(default)]
    hide: Option<usize>,
    #[serde(default)]
    unique: bool,
    /// A seed as a decimal string (a number is still read), as every route takes one.
    #[serde(default, deserialize_with = "crate::serve::fields::seed")]
    seed: Option<u64>,
    #[serde(default)]
    puzzle: Option<String>,
}

/// A cell and a digit (and for a pencil mark, its kind).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CellDigit {
    cell: usize,
    digit: u8,
    #[serde(default)]
    kind: Option<String>,
    /// For a digit: whether it takes its pencil marks out of its row, column and box (by default it does).
    #[serde(default)]
    tidy: Option<bool>,
}

/// A sudoku game. Actions: `{"new": {"mode": "graded", "difficulty": "easy", "symmetry": "180", "seed": "1"}}`,
/// `{"new": {"mode": "classic", "hide": 27, "unique": false}}`, `{"new": {"puzzle": "81 characters or 9
/// lines"}}`, `{"digit": {"cell": 0, "digit": 5}}` (0 erases; `"tidy": false` leaves the digit's pencil marks in its
/// houses), `{"mark": {"cell": 0, "digit": 5, "kind":
/// "corner"}}` (or `centre`), `"auto"` (every empty cell's candidates as corner marks), `"hint"` (the next
/// logical step, in `view.hint`), `"apply"` (carry out the hint shown), `"check"`, `"reveal"`, `{"conflicts":
/// false}`, `"undo"`, `"redo"`, `"view"`. Cells are 0-80, row by row. The game is `play`'s `SudokuSession`, as
/// in the terminal.
#[utoipa::path(post, path = "/api/sudoku/session", tag = "sudoku", request_body = super::SessionRequest,
    responses((status = 200, body = super::SessionAnswer),
              (status = 400, description = "A damaged save, a malformed action, a cell or digit out of range, or a pasted puzzle that cannot be read or played (refused as the terminal refuses it)", body = crate::serve::error::ErrorBody),
              (status = 422, description = "A digit in a clue cell, a mark in a cell that holds a digit, no hint to apply, or the game over", body = crate::serve::error::ErrorBody)))]
pub async fn sudoku_session(
    State(app): State<Arc<AppState>>,
    Body(req): Body<SessionRequest>,
) -> ApiResult<SessionAnswer> {
    handle::<SudokuSession>(app, req).await
}

/// A new game as `n` says, and its first message.
fn new_game(n: SudokuNew, env: &Env) -> Result<(SudokuSession, Message), ApiError> {
    if let Some(text) = n.puzzle {
        // Read and checked as the terminal checks a puzzle of the player's own, refused with its sentence.
        let puzzle =
            Puzzle::pasted(&text).map_err(|e| ApiError::bad(format!("new.puzzle: {e}")))?;
        let setup = Setup {
            seed: sudoku::rng::clock_seed(),
            ..Setup::default()
        };
        let s = SudokuSession::with_puzzle(setup, puzzle, env).map_err(|e| error("new", &e))?;
        let msg = Message::info(format!("A pasted puzzle: {}.", s.view().label));
        return Ok((s, msg));
    }
    let mode = match n.mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("graded") => Mode::Graded,
        Some("classic") => Mode::Classic,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "new.mode: unknown mode \"{other}\" (graded or classic)"
            )));
        }
    };
    let defaults = Setup::default();
    let setup = Setup {
        mode,
        difficulty: n.difficulty.unwrap_or(defaults.difficulty),
        symmetry: n.symmetry.unwrap_or(defaults.symmetry),
        hide: n.hide.unwrap_or(defaults.hide),
        unique: n.unique,
        seed: n.seed.unwrap_or_else(sudoku::rng::clock_seed),
        index: 0,
    };
    let mut s = SudokuSession::new(setup, env).map_err(|e| error("new", &e))?;
    let msg = match s.poll() {
        Some(Ok(m)) => m,
        Some(Err(e)) => return Err(error("new", &e)),
        None => Message::info(format!("A new {}.", s.setup().describe())),
    };
    Ok((s, msg))
}

impl Route for SudokuSession {
    type New = SudokuNew;
    const ACTIONS: &'static str =
        "new, digit, mark, auto, hint, apply, check, reveal, conflicts, undo, redo, view";

    fn env(app: &AppState) -> Env {
        app.env.clone()
    }

    fn start(n: SudokuNew, env: &Env) -> Result<(Self, Message), ApiError> {
        new_game(n, env)
    }

    fn act(&mut self, name: &str, a: &Value) -> Option<Result<Message, ApiError>> {
        let e = |err: SudokuError| error(name, &err);
        Some(match name {
            "digit" => arg::<CellDigit>(a, "digit").and_then(|cd| {
                if cd.kind.is_some() {
                    return Err(ApiError::bad(
                        "action digit: a digit has no kind (marks do: {\"mark\": {...}})",
                    ));
                }
                self.enter_with(cd.cell, cd.digit, cd.tidy.unwrap_or(true))
                    .map_err(e)
            }),
            "mark" => arg::<CellDigit>(a, "mark").and_then(|cd| match cd.kind.as_deref() {
                None | Some("corner") => self.toggle_mark(cd.cell, cd.digit).map_err(e),
                Some("centre" | "center") => self.toggle_centre_mark(cd.cell, cd.digit).map_err(e),
                Some(other) => Err(ApiError::bad(format!(
                    "action mark: unknown kind \"{other}\" (corner or centre)"
                ))),
            }),
            "auto" => self.fill_marks().map_err(e),
            // The hint's sentence is the message (the view carries its cells).
            "hint" => match self.hint() {
                Ok(_) => Ok(match self.shown_hint() {
                    Some(h) => Message::info(h.text.clone()),
                    None => Message::info("No hint"),
                }),
                Err(err) => Err(e(err)),
            },
            "apply" => self.apply_hint().map_err(e),
            "check" => self.check().map_err(e),
            "reveal" => self.reveal().map_err(e),
            "conflicts" => arg::<bool>(a, "conflicts").map(|on| {
                if self.view().show_conflicts == on {
                    Message::info(if on {
                        "Conflicting digits are highlighted"
                    } else {
                        "Conflicts are no longer highlighted"
                    })
                } else {
                    self.toggle_conflicts()
                }
            }),
            _ => return None,
        })
    }

    fn refused(action: &str, e: &SudokuError) -> ApiError {
        error(action, e)
    }
}

/// A session's refusal as an API error: the action's name, then the session's sentence (which names the cell
/// or the digit). Out-of-range input is a 400; an action the game refuses as it stands is a 422.
fn error(action: &str, e: &SudokuError) -> ApiError {
    match e {
        SudokuError::NoCell(_)
        | SudokuError::NoDigit(_)
        | SudokuError::Typed(_)
        | SudokuError::Setup(_) => ApiError::bad(format!("{action}: {e}")),
        SudokuError::Over(end) => ApiError::unprocessable(format!(
            "{action}: the game is over ({}); start a new one",
            match end {
                End::Solved => "the puzzle is solved",
                End::Revealed => "the solution is shown",
            }
        )),
        SudokuError::GeneratorFailed(_) => ApiError::internal(format!("{action}: {e}")),
        SudokuError::Stopped => ApiError::unavailable(format!("{action}: {e}")),
        _ => ApiError::unprocessable(format!("{action}: {e}")),
    }
}
