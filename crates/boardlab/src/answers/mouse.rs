//! Mouse & Cats answers: a position's analysis, perft counts, exact values, scores, the tables' figures.

use mousecats::perft::{PerftError, PerftOptions, perft_divide_with, perft_with};
use mousecats::{BoardPosition, Level, Rule, Score, SearchResult, Side, Value};
use serde::Serialize;
use utoipa::ToSchema;

/// The winner's name in a sentence: "the mouse wins", "the cats win".
pub fn winner_phrase(side: Side) -> &'static str {
    match side {
        Side::Mouse => "the mouse wins",
        Side::Cats => "the cats win",
    }
}

/// `1 ply`, `2 plies`.
pub fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// A game-theoretic value in words, seen from the side to move: "the cats win in 12 plies".
pub fn value_phrase(v: Value, to_move: Side) -> String {
    let w = v.winner(to_move);
    if v.plies() == 0 {
        format!("the game is over: {}", winner_phrase(w))
    } else {
        format!("{} in {}", winner_phrase(w), plies(u32::from(v.plies())))
    }
}

/// A value from the exact solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ExactValue {
    /// `mouse` or `cats`.
    pub winner: String,
    /// Plies to the end with best play by both sides (0: the game is over).
    pub plies: u8,
    /// In words.
    pub text: String,
    /// The moves that keep the value (in an analysis; absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_keeping_moves: Option<Vec<String>>,
}

impl ExactValue {
    /// `v` seen from `to_move`.
    pub fn new(v: Value, to_move: Side) -> ExactValue {
        ExactValue {
            winner: v.winner(to_move).to_string(),
            plies: v.plies(),
            text: value_phrase(v, to_move),
            value_keeping_moves: None,
        }
    }
}

/// A score, as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
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

impl ScoreInfo {
    /// `s` seen from `to_move`.
    pub fn new(s: Score, to_move: Side) -> ScoreInfo {
        let (kind, value) = match s {
            Score::Win(n) => ("win", i32::from(n)),
            Score::Loss(n) => ("loss", i32::from(n)),
            Score::Eval(v) => ("eval", v),
        };
        ScoreInfo {
            kind: kind.to_string(),
            value,
            text: match s {
                Score::Win(n) => format!("{} in {}", winner_phrase(to_move), plies(n.into())),
                Score::Loss(n) => format!(
                    "{} in {}",
                    winner_phrase(to_move.opponent()),
                    plies(n.into())
                ),
                Score::Eval(v) => format!("{v:+} for the {to_move}"),
            },
            for_mouse: mouse_score_text(s, to_move),
        }
    }
}

/// A score from the mouse's point of view: `+60`, `mouse wins in 9`, `cats win in 12`.
pub fn mouse_score_text(s: Score, to_move: Side) -> String {
    match s.for_mouse(to_move) {
        Score::Win(n) => format!("mouse wins in {n}"),
        Score::Loss(n) => format!("cats win in {n}"),
        Score::Eval(v) => format!("{v:+}"),
    }
}

/// One finished depth of the iterative deepening.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
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
    /// verify their hits).
    pub fn new<P: BoardPosition>(
        tables: &mousecats::TranspositionTables<P>,
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

/// The engine's analysis of a position (`boardlab mouse analyse --json`, `/api/mouse/analyse`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Analysis {
    /// N, of the N x N board.
    pub size: u8,
    /// The position.
    pub position: String,
    /// Hash, 16 hex digits.
    pub hash: String,
    /// Lock, 8 hex digits.
    pub lock: String,
    /// The rule.
    pub rule: String,
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
    /// The tables, when asked for (none for level 10, which uses none).
    pub tables: Option<TableInfo>,
    /// The exact value and the moves that keep it; `null` where the whole table is not kept (beyond 10x10)
    /// or it was not asked for.
    pub exact: Option<ExactValue>,
}

impl Analysis {
    /// The analysis of `pos` under `rule` from the search `result` (at `level`, if one was asked for), with the
    /// tables' figures and the exact value and its moves, where known.
    pub fn new<P: BoardPosition>(
        pos: &P,
        rule: Rule,
        level: Option<Level>,
        result: &SearchResult<P::Move>,
        tables: Option<TableInfo>,
        exact: Option<(Value, Vec<P::Move>)>,
    ) -> Analysis {
        let to_move = pos.turn();
        Analysis {
            size: pos.board_size().n(),
            position: pos.to_string(),
            hash: format!("{:016x}", pos.zobrist_hash()),
            lock: format!("{:08x}", pos.zobrist_lock()),
            rule: rule.to_string(),
            turn: to_move.to_string(),
            game_over: pos.outcome(rule).map(|w| w.to_string()),
            level: level.map(Level::number),
            depth: result.depth,
            perfect: result.perfect,
            best_move: result.best_move.map(|m| m.to_string()),
            score: ScoreInfo::new(result.score, to_move),
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
                    score: ScoreInfo::new(it.score, to_move),
                    nodes: it.nodes,
                    elapsed_ms: it.elapsed.as_secs_f64() * 1000.0,
                    pv: moves_text(&it.pv),
                })
                .collect(),
            tables,
            exact: exact.map(|(v, keep)| ExactValue {
                value_keeping_moves: Some(moves_text(&keep)),
                ..ExactValue::new(v, to_move)
            }),
        }
    }
}

/// Moves as text.
pub fn moves_text<M: ToString>(moves: &[M]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// A perft count (`boardlab mouse perft --json`, `/api/mouse/perft`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PerftAnswer {
    /// N, of the N x N board.
    pub size: u8,
    /// The position.
    pub position: String,
    /// The rule.
    pub rule: String,
    /// Plies.
    pub depth: u32,
    /// Move sequences of exactly `depth` plies, as a decimal string (it can pass 2^53).
    #[serde(serialize_with = "crate::output::decimal")]
    #[schema(value_type = String, example = "344")]
    pub count: u128,
    /// Per first move, when asked.
    pub divide: Option<Vec<DivideEntry>>,
    /// Milliseconds.
    pub elapsed_ms: f64,
}

/// A first move and its count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct DivideEntry {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its count, a decimal string.
    #[serde(serialize_with = "crate::output::decimal")]
    #[schema(value_type = String)]
    pub count: u128,
}

/// Count the move sequences of exactly `depth` plies from `pos` under `rule` (and after each first move, with
/// `divide`), within `opts` (the memory of the table of counted positions, a stop flag).
///
/// # Errors
/// [`PerftError::Overflow`] when a count does not fit in 128 bits, [`PerftError::Cancelled`] when stopped.
pub fn perft<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
    divide: bool,
    opts: &PerftOptions<'_>,
) -> Result<PerftAnswer, PerftError> {
    let t0 = std::time::Instant::now();
    let count = if depth <= 6 {
        u128::from(mousecats::perft(pos, depth, rule))
    } else {
        perft_with(pos, depth, rule, opts)?
    };
    let divide = if divide {
        let list = perft_divide_with(pos, depth, rule, opts)?;
        Some(
            list.into_iter()
                .map(|(m, c)| DivideEntry {
                    mv: m.to_string(),
                    count: c,
                })
                .collect(),
        )
    } else {
        None
    };
    Ok(PerftAnswer {
        size: pos.board_size().n(),
        position: pos.to_string(),
        rule: rule.to_string(),
        depth,
        count,
        divide,
        elapsed_ms: t0.elapsed().as_secs_f64() * 1000.0,
    })
}
