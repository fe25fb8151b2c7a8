//! `/api/mouse/...`: Mouse & Cats positions, moves, the engine and the exact solution.
//!
//! Positions are written as on the command line: `mouse=E1 cats=B8,D8,F8,H8 turn=mouse`, an 8-line diagram,
//! or `start`. Moves as `E1-F2` or `e1f2`. The rule is `row8` (the default) or `escape`.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use mousecats::perft::{PerftError, PerftOptions};
use mousecats::search::{Engine, EngineConfig, Level, MAX_DEPTH};
use mousecats::tt::TableConfig;
use mousecats::{
    AnyPosition, BoardPosition, BoardSize, Move, Position, Rule, Square, with_position,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, ApiResult, Body};
use crate::answers::mouse::{
    Analysis, ExactValue, PerftAnswer, TableInfo, moves_text, perft as count_perft,
};

/// The memory one perft job's table of counted positions may take; once full, new counts overwrite old ones
/// (slower, the same count). The whole 8x8 tree (depth 57) fits.
const PERFT_MEMORY: usize = 128 << 20;

/// The mouse routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/mouse/position", post(position))
        .route("/mouse/move", post(play_move))
        .route("/mouse/hint", post(hint))
        .route("/mouse/analyse", post(analyse))
        .route("/mouse/map", post(map))
        .route("/mouse/perft", post(run_perft))
}

/// A position and the rule.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// `mouse=E1 cats=B8,D8,F8,H8 turn=mouse`, an 8-line diagram, or `start`.
    #[schema(example = "mouse=E1 cats=B8,D8,F8,H8 turn=mouse")]
    pub position: String,
    /// `row8` (default) or `escape`.
    #[serde(default)]
    pub rule: Option<String>,
    /// The board, `N` or `NxN` (even, 4 to 16) for `/api/mouse/position`; 8x8 by default, or the position's
    /// own (`size=N` or its diagram's). The other routes read 8x8 positions.
    #[serde(default, deserialize_with = "super::fields::size")]
    #[schema(value_type = Option<String>, example = "6")]
    pub size: Option<String>,
}

/// A position, the rule and a move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The position before the move.
    #[schema(example = "start")]
    pub position: String,
    /// `row8` (default) or `escape`.
    #[serde(default)]
    pub rule: Option<String>,
    /// The move: `E1-F2` or `e1f2`.
    #[serde(rename = "move")]
    #[schema(example = "E1-F2")]
    pub mv: String,
}

/// What the engine should do.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The position.
    #[schema(example = "mouse=C3 cats=B4,D4,A1,E1 turn=cats")]
    pub position: String,
    /// `row8` (default) or `escape`.
    #[serde(default)]
    pub rule: Option<String>,
    /// Play level 1-10 (1-9 search 2 x level plies; 10 is perfect play). Not with `depth`.
    #[serde(default)]
    pub level: Option<i64>,
    /// Search depth in plies, 1-64 (default 12 when no level is given).
    #[serde(default)]
    pub depth: Option<i64>,
    /// Stop the search after this many milliseconds (1-60000; the server's time limit also applies).
    #[serde(default)]
    pub time_ms: Option<i64>,
    /// Table size: 2^bits entries per side to move, 8-22 (default 18).
    #[serde(default)]
    pub tt_bits: Option<i64>,
    /// Lock width in bits, 0-32 (default 32; 8 with `tt_bits` 8 is the C64 set-up).
    #[serde(default)]
    pub lock_bits: Option<i64>,
    /// Keep each entry's exact position to count the false hits the lock let through.
    #[serde(default)]
    pub verify: bool,
}

/// What to count.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PerftRequest {
    /// The position (the start when absent).
    #[serde(default)]
    pub position: Option<String>,
    /// `row8` (default) or `escape`.
    #[serde(default)]
    pub rule: Option<String>,
    /// Plies, 0-64.
    #[schema(example = 8)]
    pub depth: i64,
    /// The board, `N` or `NxN` (even, 4 to 16); 8x8 by default, or the position's own.
    #[serde(default, deserialize_with = "super::fields::size")]
    #[schema(value_type = Option<String>, example = "6")]
    pub size: Option<String>,
    /// Also count after each first move.
    #[serde(default)]
    pub divide: bool,
}

/// A position with everything a board view needs.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionInfo {
    /// One-line notation.
    pub position: String,
    /// The 8-line diagram.
    pub diagram: String,
    /// The mouse's square.
    pub mouse: String,
    /// The cats' squares.
    pub cats: Vec<String>,
    /// `mouse` or `cats`.
    pub turn: String,
    /// The rule.
    pub rule: String,
    /// The Zobrist hash, 16 hex digits.
    pub hash: String,
    /// The 32-bit lock, 8 hex digits.
    pub lock: String,
    /// The winner when the game is over.
    pub winner: Option<String>,
    /// The legal moves (none when the game is over).
    pub legal_moves: Vec<String>,
    /// The board, `8x8` or another even size.
    pub size: String,
}

/// The position after a move.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveAnswer {
    /// The move as played (`E1-F2`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it.
    pub after: PositionInfo,
}

/// A move with the exact value it leads to.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveValue {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who wins after it, and in how many plies counted from before it.
    pub value: ExactValue,
    /// Whether it keeps the position's value (a best move).
    pub best: bool,
}

/// The exact solution's answer for a position: who wins from here, and the best move.
#[derive(Debug, Serialize, ToSchema)]
pub struct HintAnswer {
    /// The position.
    pub position: String,
    /// Who wins from here with best play by both sides.
    pub value: ExactValue,
    /// A best move (none when the game is over).
    pub best_move: Option<String>,
    /// Every legal move with its value.
    pub moves: Vec<MoveValue>,
    /// The best line to the end.
    pub perfect_line: Vec<String>,
}

/// One square of the exact-solution picture.
#[derive(Debug, Serialize, ToSchema)]
pub struct MapSquare {
    /// The square.
    pub square: String,
    /// Who would win with the mouse here (same cats, same side to move), and in how many plies.
    pub value: ExactValue,
}

/// The exact-solution picture for the cats of a position.
#[derive(Debug, Serialize, ToSchema)]
pub struct MapAnswer {
    /// The cats' squares.
    pub cats: Vec<String>,
    /// The side to move in every square's position.
    pub turn: String,
    /// Every dark square without a cat.
    pub squares: Vec<MapSquare>,
}

/// Parse the rule, `row8` when absent.
pub fn parse_rule(rule: Option<&str>) -> Result<Rule, ApiError> {
    match rule {
        None => Ok(Rule::FarRow),
        Some(r) => r
            .parse::<Rule>()
            .map_err(|e| ApiError::bad(format!("rule: {e}"))),
    }
}

/// Parse a position (`start` is the standard start).
pub fn parse_position(text: &str) -> Result<Position, ApiError> {
    text.parse::<Position>()
        .map_err(|e| ApiError::bad(format!("position: {e}")))
}

fn parse_int(name: &str, v: i64, min: i64, max: i64) -> Result<i64, ApiError> {
    if (min..=max).contains(&v) {
        Ok(v)
    } else {
        Err(ApiError::bad(format!(
            "{name} must be between {min} and {max}, got {v}"
        )))
    }
}

/// Everything about a position, on any board.
pub fn info(any: &AnyPosition, rule: Rule) -> PositionInfo {
    let sized = any.sized();
    with_position!(any, |pos| PositionInfo {
        position: pos.to_string(),
        diagram: pos.diagram(),
        mouse: sized.mouse().to_string(),
        cats: sized
            .cat_squares()
            .iter()
            .map(ToString::to_string)
            .collect(),
        turn: pos.turn().to_string(),
        rule: rule.to_string(),
        hash: format!("{:016x}", pos.zobrist_hash()),
        lock: format!("{:08x}", pos.zobrist_lock()),
        winner: pos.outcome(rule).map(|w| w.to_string()),
        legal_moves: pos
            .legal_moves(rule)
            .iter()
            .map(ToString::to_string)
            .collect(),
        size: pos.board_size().to_string(),
    })
}

/// A position of any board size (`size` when given, else the text's own, else 8x8) and its rule (checked
/// against the board: `row8` names the far row of 8x8 only).
fn sized_position(
    text: Option<&str>,
    size: Option<&str>,
    rule: Option<&str>,
) -> Result<(AnyPosition, Rule), ApiError> {
    let size = size
        .map(|s| {
            s.parse::<BoardSize>()
                .map_err(|e| ApiError::bad(format!("size: {e}")))
        })
        .transpose()?;
    let pos = match text {
        Some(t) => {
            AnyPosition::parse(t, size).map_err(|e| ApiError::bad(format!("position: {e}")))?
        }
        None => AnyPosition::start(size.unwrap_or_default()),
    };
    let rule = match rule {
        None => Rule::FarRow,
        Some(r) => {
            Rule::parse_for(r, pos.board_size()).map_err(|e| ApiError::bad(format!("rule: {e}")))?
        }
    };
    Ok((pos, rule))
}

/// Read a position and play a move on it.
#[utoipa::path(post, path = "/api/mouse/position", tag = "mouse", request_body = PositionRequest,
    responses((status = 200, body = PositionInfo),
              (status = 400, description = "A malformed position or rule", body = super::error::ErrorBody)))]
pub async fn position(Body(req): Body<PositionRequest>) -> ApiResult<PositionInfo> {
    if req.size.is_none() {
        let rule = parse_rule(req.rule.as_deref())?;
        let pos = parse_position(&req.position)?;
        return Ok(Json(info(&AnyPosition::from(pos), rule)));
    }
    let (any, rule) = sized_position(
        Some(&req.position),
        req.size.as_deref(),
        req.rule.as_deref(),
    )?;
    Ok(Json(info(&any, rule)))
}

/// Play a move (checked against the rules) and answer the new position.
#[utoipa::path(post, path = "/api/mouse/move", tag = "mouse", request_body = MoveRequest,
    responses((status = 200, body = MoveAnswer),
              (status = 400, description = "A malformed position, rule or move", body = super::error::ErrorBody),
              (status = 422, description = "An illegal move, or the game is over", body = super::error::ErrorBody)))]
pub async fn play_move(Body(req): Body<MoveRequest>) -> ApiResult<MoveAnswer> {
    let rule = parse_rule(req.rule.as_deref())?;
    let pos = parse_position(&req.position)?;
    let mv: Move = req
        .mv
        .parse()
        .map_err(|e| ApiError::bad(format!("move: {e}")))?;
    let after = pos
        .play(mv, rule)
        .map_err(|e| ApiError::unprocessable(format!("move: {e}")))?;
    Ok(Json(MoveAnswer {
        mv: mv.to_string(),
        after: info(&AnyPosition::from(after), rule),
    }))
}

/// Who wins from here with perfect play, in how many plies, and the best move (from the exact solution).
#[utoipa::path(post, path = "/api/mouse/hint", tag = "mouse", request_body = PositionRequest,
    responses((status = 200, body = HintAnswer),
              (status = 400, description = "A malformed position or rule", body = super::error::ErrorBody),
              (status = 503, description = "Busy", body = super::error::ErrorBody)))]
pub async fn hint(
    State(state): State<Arc<AppState>>,
    Body(req): Body<PositionRequest>,
) -> ApiResult<HintAnswer> {
    let rule = parse_rule(req.rule.as_deref())?;
    let pos = parse_position(&req.position)?;
    let solutions = state.env.mouse_solutions.clone();
    let answer = state
        .jobs
        .run_quick("hint", move |_| {
            let solution = solutions.get_or_solve(rule);
            let value = solution.value(&pos);
            let keep = solution.value_keeping_moves(&pos);
            let moves = solution
                .moves_with_values(&pos)
                .into_iter()
                .map(|(m, v)| MoveValue {
                    mv: m.to_string(),
                    value: ExactValue::new(v, pos.turn()),
                    best: keep.contains(&m),
                })
                .collect();
            Ok(HintAnswer {
                position: pos.to_string(),
                value: ExactValue::new(value, pos.turn()),
                best_move: keep.first().map(ToString::to_string),
                moves,
                perfect_line: moves_text(&solution.perfect_line(&pos)),
            })
        })
        .await?;
    Ok(Json(answer))
}

/// Search a position with the alpha-beta engine (or play perfectly at level 10): best move, score, principal
/// variation, nodes, the tables' statistics, and the exact value beside it.
#[utoipa::path(post, path = "/api/mouse/analyse", tag = "mouse", request_body = AnalyseRequest,
    responses((status = 200, body = Analysis),
              (status = 400, description = "A malformed position, or a setting out of range", body = super::error::ErrorBody),
              (status = 503, description = "Busy, or no answer within the time limit", body = super::error::ErrorBody)))]
pub async fn analyse(
    State(state): State<Arc<AppState>>,
    Body(req): Body<AnalyseRequest>,
) -> ApiResult<Analysis> {
    let rule = parse_rule(req.rule.as_deref())?;
    let pos = parse_position(&req.position)?;
    if req.level.is_some() && req.depth.is_some() {
        return Err(ApiError::bad("give level or depth, not both"));
    }
    let level = match req.level {
        Some(l) => Some(
            Level::new(parse_int("level", l, 1, 10)? as u8)
                .map_err(|e| ApiError::bad(format!("level: {e}")))?,
        ),
        None => None,
    };
    let depth = match req.depth {
        Some(d) => parse_int("depth", d, 1, i64::from(MAX_DEPTH))? as u8,
        None => 12,
    };
    let time = match req.time_ms {
        Some(t) => Some(Duration::from_millis(
            parse_int("time_ms", t, 1, 60_000)? as u64
        )),
        None => None,
    };
    let tables = TableConfig {
        index_bits: parse_int("tt_bits", req.tt_bits.unwrap_or(18), 8, 22)? as u8,
        lock_bits: parse_int("lock_bits", req.lock_bits.unwrap_or(32), 0, 32)? as u8,
        verify: req.verify,
    };
    let answer = state
        .jobs
        .run("analysis", move |cancel| {
            let mut engine = Engine::new(EngineConfig {
                rule,
                tables: Some(tables),
            })
            .map_err(|e| ApiError::bad(e.to_string()))?;
            // The request's deadline bounds the search too (its last full depth is the answer).
            let left = cancel.remaining();
            let time = Some(time.map_or(left, |t| t.min(left)));
            let result = match level {
                Some(l) => engine.think(&pos, l, time),
                None => engine.search(&pos, depth, time),
            };
            let solution = engine.solution();
            let exact = (solution.value(&pos), solution.value_keeping_moves(&pos));
            let tables = (!result.perfect)
                .then(|| engine.tables())
                .flatten()
                .map(|t| TableInfo::new(t, &result.table_stats));
            Ok(Analysis::new(
                &pos,
                rule,
                level,
                &result,
                tables,
                Some(exact),
            ))
        })
        .await?;
    Ok(Json(answer))
}

/// The exact-solution picture: for the cats and side to move of a position, who wins if the mouse stood on
/// each free dark square, and in how many plies.
#[utoipa::path(post, path = "/api/mouse/map", tag = "mouse", request_body = PositionRequest,
    responses((status = 200, body = MapAnswer),
              (status = 400, description = "A malformed position or rule", body = super::error::ErrorBody)))]
pub async fn map(
    State(state): State<Arc<AppState>>,
    Body(req): Body<PositionRequest>,
) -> ApiResult<MapAnswer> {
    let rule = parse_rule(req.rule.as_deref())?;
    let pos = parse_position(&req.position)?;
    let solutions = state.env.mouse_solutions.clone();
    let answer = state
        .jobs
        .run_quick("map", move |_| {
            let solution = solutions.get_or_solve(rule);
            let cats = pos.cat_squares();
            let squares = Square::dark_squares()
                .filter(|sq| !pos.cats().contains(*sq))
                .filter_map(|sq| {
                    let p = Position::new(sq, &cats, pos.turn()).ok()?;
                    Some(MapSquare {
                        square: sq.to_string(),
                        value: ExactValue::new(solution.value(&p), p.turn()),
                    })
                })
                .collect();
            Ok(MapAnswer {
                cats: cats.iter().map(ToString::to_string).collect(),
                turn: pos.turn().to_string(),
                squares,
            })
        })
        .await?;
    Ok(Json(answer))
}

/// Count the move sequences of exactly `depth` plies (a sequence stops where the game ends).
#[utoipa::path(post, path = "/api/mouse/perft", tag = "mouse", request_body = PerftRequest,
    responses((status = 200, body = PerftAnswer),
              (status = 400, description = "A malformed position, or a depth out of range", body = super::error::ErrorBody),
              (status = 503, description = "Busy, or no answer within the time limit", body = super::error::ErrorBody)))]
pub async fn run_perft(
    State(state): State<Arc<AppState>>,
    Body(req): Body<PerftRequest>,
) -> ApiResult<PerftAnswer> {
    let (pos, rule) = if req.size.is_none() {
        let rule = parse_rule(req.rule.as_deref())?;
        let pos = match &req.position {
            Some(p) => parse_position(p)?,
            None => Position::start(),
        };
        (AnyPosition::from(pos), rule)
    } else {
        sized_position(
            req.position.as_deref(),
            req.size.as_deref(),
            req.rule.as_deref(),
        )?
    };
    let depth = parse_int("depth", req.depth, 0, i64::from(MAX_DEPTH))? as u32;
    let divide = req.divide;
    let answer = state
        .jobs
        .run("perft", move |cancel| {
            let opts = PerftOptions {
                max_memory: PERFT_MEMORY,
                cancel: Some(cancel.flag()),
            };
            with_position!(pos, |p| count_perft(&p, depth, rule, divide, &opts)).map_err(
                |e| match e {
                    PerftError::Overflow => ApiError::unprocessable(format!(
                        "perft {depth}: the count does not fit in 128 bits"
                    )),
                    PerftError::Cancelled => {
                        ApiError::unavailable(format!("perft {depth}: stopped at the time limit"))
                    }
                },
            )
        })
        .await?;
    Ok(Json(answer))
}
