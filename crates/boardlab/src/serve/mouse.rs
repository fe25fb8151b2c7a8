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
use mousecats::perft::{perft, perft_divide, perft_memo};
use mousecats::search::{Engine, EngineConfig, Level, MAX_DEPTH, Score};
use mousecats::tt::TableConfig;
use mousecats::{
    BoardPosition, BoardSize, Move, Position, Rule, Side, SizedPosition, Solution, Square, Value,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, ApiResult, Body};
use crate::cli::mouse::{AnyPosition, with_position};

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
    #[serde(default)]
    #[schema(example = "6")]
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
    #[serde(default)]
    #[schema(example = "6")]
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

/// A value from the exact solution.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExactValue {
    /// `mouse` or `cats`.
    pub winner: String,
    /// Plies to the end with best play by both sides (0: the game is over).
    pub plies: u8,
    /// In words.
    pub text: String,
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

/// A score, as the engine sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreInfo {
    /// `eval` (units, positive good for the side to move), `win` or `loss` (plies, for the side to move).
    pub kind: String,
    /// The number.
    pub value: i32,
    /// In words, for the side to move.
    pub text: String,
    /// From the mouse's point of view (`+60`, `mouse wins in 9`, `cats win in 12`).
    pub for_mouse: String,
}

/// One finished depth of the iterative deepening.
#[derive(Debug, Serialize, ToSchema)]
pub struct IterationInfo {
    /// Depth.
    pub depth: u8,
    /// Score.
    pub score: ScoreInfo,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub elapsed_ms: f64,
    /// Principal variation.
    pub pv: Vec<String>,
}

/// What the transposition tables did.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableInfo {
    /// 2^bits entries per side to move.
    pub index_bits: u8,
    /// Lock bits.
    pub lock_bits: u8,
    /// Whether false hits are counted.
    pub verify: bool,
    /// Entries in all.
    pub entries: usize,
    /// Entries in use.
    pub used_entries: usize,
    /// Bytes.
    pub bytes: usize,
    /// Probes.
    pub probes: u64,
    /// Hits.
    pub hits: u64,
    /// Probes of an empty entry.
    pub empty: u64,
    /// Probes whose lock did not match: collisions detected.
    pub lock_mismatches: u64,
    /// Hits on another position that the lock let through (only with `verify`).
    pub false_hits: Option<u64>,
    /// Stores.
    pub stores: u64,
    /// Stores over another position (collisions).
    pub collisions: u64,
}

impl TableInfo {
    /// The figures of `tables` after a search whose counters are `stats` (`false_hits` only when the tables
    /// verify their hits). The CLI's `mouse analyse --json` reports the same object.
    pub fn new<P: mousecats::BoardPosition>(
        tables: &mousecats::tt::TranspositionTables<P>,
        stats: &mousecats::TableStats,
    ) -> TableInfo {
        let config = tables.config();
        TableInfo {
            index_bits: config.index_bits,
            lock_bits: config.lock_bits,
            verify: config.verify,
            entries: tables.capacity(),
            used_entries: tables.used_entries(),
            bytes: tables.memory_bytes(),
            probes: stats.probes,
            hits: stats.hits,
            empty: stats.empty,
            lock_mismatches: stats.lock_mismatches,
            false_hits: config.verify.then_some(stats.false_hits),
            stores: stats.stores,
            collisions: stats.collisions,
        }
    }
}

/// The engine's analysis of a position.
#[derive(Debug, Serialize, ToSchema)]
pub struct Analysis {
    /// The position.
    pub position: String,
    /// Hash, 16 hex digits.
    pub hash: String,
    /// Lock, 8 hex digits.
    pub lock: String,
    /// Side to move.
    pub turn: String,
    /// Winner, when the game is over.
    pub game_over: Option<String>,
    /// Level asked for.
    pub level: Option<u8>,
    /// Depth reached (plies to the end for level 10).
    pub depth: u8,
    /// The move came from the exact solution.
    pub perfect: bool,
    /// The move to play.
    pub best_move: Option<String>,
    /// The score.
    pub score: ScoreInfo,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds.
    pub elapsed_ms: f64,
    /// Nodes per second.
    pub nodes_per_second: f64,
    /// The time limit cut the search short.
    pub stopped_by_time: bool,
    /// Each finished depth.
    pub iterations: Vec<IterationInfo>,
    /// The tables (none for level 10, which uses none).
    pub tables: Option<TableInfo>,
    /// The exact value.
    pub exact: ExactValue,
}

/// A perfect count.
#[derive(Debug, Serialize, ToSchema)]
pub struct PerftAnswer {
    /// The position.
    pub position: String,
    /// The rule.
    pub rule: String,
    /// Plies.
    pub depth: u32,
    /// Move sequences of exactly `depth` plies, as a decimal string (it can pass 2^53).
    #[schema(example = "344")]
    pub count: String,
    /// Per first move, when asked.
    pub divide: Option<Vec<DivideEntry>>,
    /// Milliseconds.
    pub elapsed_ms: f64,
}

/// A first move and its count.
#[derive(Debug, Serialize, ToSchema)]
pub struct DivideEntry {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its count, a decimal string.
    pub count: String,
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

/// Everything about a position.
pub fn info(pos: &Position, rule: Rule) -> PositionInfo {
    PositionInfo {
        position: pos.to_string(),
        diagram: pos.diagram(),
        mouse: pos.mouse().to_string(),
        cats: pos.cat_squares().iter().map(ToString::to_string).collect(),
        turn: pos.turn().to_string(),
        rule: rule.to_string(),
        hash: format!("{:016x}", pos.hash()),
        lock: format!("{:08x}", pos.lock()),
        winner: pos.outcome(rule).map(|w| w.to_string()),
        legal_moves: pos
            .legal_moves(rule)
            .iter()
            .map(ToString::to_string)
            .collect(),
        size: pos.board_size().to_string(),
    }
}

/// Everything about a position on another board than 8x8.
fn sized_info(pos: &SizedPosition, rule: Rule) -> PositionInfo {
    PositionInfo {
        position: pos.to_string(),
        diagram: pos.diagram(),
        mouse: pos.mouse().to_string(),
        cats: pos.cat_squares().iter().map(ToString::to_string).collect(),
        turn: pos.turn().to_string(),
        rule: rule.to_string(),
        hash: format!("{:016x}", pos.compute_hash()),
        lock: format!("{:08x}", pos.compute_lock()),
        winner: pos.outcome(rule).map(|w| w.to_string()),
        legal_moves: pos
            .legal_moves(rule)
            .iter()
            .map(ToString::to_string)
            .collect(),
        size: pos.board_size().to_string(),
    }
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
            SizedPosition::parse(t, size).map_err(|e| ApiError::bad(format!("position: {e}")))?
        }
        None => SizedPosition::start(size.unwrap_or_default()),
    };
    let any = AnyPosition::new(pos);
    let board = with_position!(any, |p| p.board_size());
    let rule = match rule {
        None => Rule::FarRow,
        Some(r) => Rule::parse_for(r, board).map_err(|e| ApiError::bad(format!("rule: {e}")))?,
    };
    Ok((any, rule))
}

fn winner_phrase(side: Side) -> &'static str {
    match side {
        Side::Mouse => "the mouse wins",
        Side::Cats => "the cats win",
    }
}

/// A value seen from `to_move`, in words.
pub fn exact(v: Value, to_move: Side) -> ExactValue {
    let w = v.winner(to_move);
    ExactValue {
        winner: w.to_string(),
        plies: v.plies(),
        text: if v.plies() == 0 {
            format!("the game is over: {}", winner_phrase(w))
        } else {
            format!("{} in {} plies", winner_phrase(w), v.plies())
        },
    }
}

/// A score for the API, seen from `to_move`.
pub fn score_info(s: Score, to_move: Side) -> ScoreInfo {
    let (kind, value) = match s {
        Score::Win(n) => ("win", i32::from(n)),
        Score::Loss(n) => ("loss", i32::from(n)),
        Score::Eval(v) => ("eval", v),
    };
    ScoreInfo {
        kind: kind.to_string(),
        value,
        text: match s {
            Score::Win(n) => format!("{} in {n} plies", winner_phrase(to_move)),
            Score::Loss(n) => format!("{} in {n} plies", winner_phrase(to_move.opponent())),
            Score::Eval(v) => format!("{v:+} for the {to_move}"),
        },
        for_mouse: match s.for_mouse(to_move) {
            Score::Win(n) => format!("mouse wins in {n}"),
            Score::Loss(n) => format!("cats win in {n}"),
            Score::Eval(v) => format!("{v:+}"),
        },
    }
}

fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// Read a position and play a move on it.
#[utoipa::path(post, path = "/api/mouse/position", tag = "mouse", request_body = PositionRequest,
    responses((status = 200, body = PositionInfo),
              (status = 400, description = "A malformed position or rule", body = super::error::ErrorBody)))]
pub async fn position(Body(req): Body<PositionRequest>) -> ApiResult<PositionInfo> {
    if req.size.is_none() {
        let rule = parse_rule(req.rule.as_deref())?;
        let pos = parse_position(&req.position)?;
        return Ok(Json(info(&pos, rule)));
    }
    let (any, rule) = sized_position(
        Some(&req.position),
        req.size.as_deref(),
        req.rule.as_deref(),
    )?;
    Ok(Json(match any {
        AnyPosition::Eight(p) => info(&p, rule),
        AnyPosition::Sized(p) => sized_info(&p, rule),
    }))
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
        after: info(&after, rule),
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
    let answer = state
        .jobs
        .run("hint", move |_| {
            let solution = Solution::cached(rule);
            let value = solution.value(&pos);
            let keep = solution.value_keeping_moves(&pos);
            let moves = solution
                .moves_with_values(&pos)
                .into_iter()
                .map(|(m, v)| MoveValue {
                    mv: m.to_string(),
                    value: exact(v, pos.turn()),
                    best: keep.contains(&m),
                })
                .collect();
            Ok(HintAnswer {
                position: pos.to_string(),
                value: exact(value, pos.turn()),
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
            let exact_value = engine.solution().value(&pos);
            let tables = (!result.perfect)
                .then(|| engine.tables())
                .flatten()
                .map(|t| TableInfo::new(t, &result.table_stats));
            Ok(Analysis {
                position: pos.to_string(),
                hash: format!("{:016x}", pos.hash()),
                lock: format!("{:08x}", pos.lock()),
                turn: pos.turn().to_string(),
                game_over: pos.outcome(rule).map(|w| w.to_string()),
                level: level.map(Level::number),
                depth: result.depth,
                perfect: result.perfect,
                best_move: result.best_move.map(|m| m.to_string()),
                score: score_info(result.score, pos.turn()),
                pv: moves_text(&result.pv),
                nodes: result.nodes,
                elapsed_ms: result.elapsed.as_secs_f64() * 1000.0,
                nodes_per_second: result.nodes_per_second(),
                stopped_by_time: result.stopped,
                iterations: result
                    .iterations
                    .iter()
                    .map(|it| IterationInfo {
                        depth: it.depth,
                        score: score_info(it.score, pos.turn()),
                        nodes: it.nodes,
                        elapsed_ms: it.elapsed.as_secs_f64() * 1000.0,
                        pv: moves_text(&it.pv),
                    })
                    .collect(),
                tables,
                exact: exact(exact_value, pos.turn()),
            })
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
    let answer = state
        .jobs
        .run("map", move |_| {
            let solution = Solution::cached(rule);
            let cats = pos.cat_squares();
            let squares = Square::dark_squares()
                .filter(|sq| !pos.cats().contains(*sq))
                .filter_map(|sq| {
                    let p = Position::new(sq, &cats, pos.turn()).ok()?;
                    Some(MapSquare {
                        square: sq.to_string(),
                        value: exact(solution.value(&p), p.turn()),
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
        (AnyPosition::Eight(pos), rule)
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
        .run("perft", move |_| {
            let t0 = std::time::Instant::now();
            let too_big = || {
                ApiError::unprocessable(format!(
                    "perft {depth}: the count does not fit in 128 bits"
                ))
            };
            let count = with_position!(pos, |p| if depth <= 6 {
                Some(u128::from(perft(&p, depth, rule)))
            } else {
                perft_memo(&p, depth, rule)
            })
            .ok_or_else(too_big)?;
            let divide = if divide {
                let list: Vec<(String, u128)> =
                    with_position!(pos, |p| perft_divide(&p, depth, rule)
                        .map(|d| d.into_iter().map(|(m, c)| (m.to_string(), c)).collect()))
                    .ok_or_else(too_big)?;
                Some(
                    list.into_iter()
                        .map(|(mv, c)| DivideEntry {
                            mv,
                            count: c.to_string(),
                        })
                        .collect(),
                )
            } else {
                None
            };
            Ok(PerftAnswer {
                position: with_position!(pos, |p| p.to_string()),
                rule: rule.to_string(),
                depth,
                count: count.to_string(),
                divide,
                elapsed_ms: t0.elapsed().as_secs_f64() * 1000.0,
            })
        })
        .await?;
    Ok(Json(answer))
}
