//! `/api/sudoku/...`: reading, solving, rating, hints and new puzzles.
//!
//! A puzzle is an 81-character line (`.`, `0`, `_`, `-` or `*` for an empty cell) or a 9-line block; errors
//! name the line, the column and the cells. Cells are named `r4c2`.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use sudoku::classic::{self, ClassicError, ClassicOptions};
use sudoku::generate::{self, Difficulty, GenerateOptions, Symmetry};
use sudoku::logic::tables::cell_name;
use sudoku::rate::{self, Verdict};
use sudoku::rng::Rng;
use sudoku::{Grid, SolveError};
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, ApiResult, Body};
use crate::answers::sudoku::{HintAnswer, StepInfo};

/// The sudoku routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/sudoku/parse", post(parse))
        .route("/sudoku/solve", post(solve))
        .route("/sudoku/rate", post(rate_puzzle))
        .route("/sudoku/hint", post(hint))
        .route("/sudoku/generate", post(generate_puzzle))
        .route("/sudoku/classic", post(classic_puzzle))
}

/// A puzzle.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// An 81-character line or a 9-line block.
    #[schema(
        example = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )]
    pub puzzle: String,
}

/// A puzzle to rate.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RateRequest {
    /// An 81-character line or a 9-line block.
    pub puzzle: String,
    /// Keep every step of the logical solution.
    #[serde(default)]
    pub explain: bool,
}

/// A puzzle and the player's grid.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The puzzle's clues.
    pub puzzle: String,
    /// The grid as it stands (the clues and the player's digits); the puzzle itself when absent.
    #[serde(default)]
    pub grid: Option<String>,
}

/// What to generate.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// `beginner`, `easy`, `medium` (default), `hard` or `expert`.
    #[serde(default)]
    pub difficulty: Option<String>,
    /// Symmetry of the clues: `none`, `180` (default), `90`, `mirror`, `diagonal`.
    #[serde(default)]
    pub symmetry: Option<String>,
    /// A seed to make the same puzzle again (random when absent).
    #[serde(default, deserialize_with = "super::fields::seed")]
    #[schema(value_type = Option<String>, example = "42")]
    pub seed: Option<u64>,
}

/// A classic shuffled puzzle.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassicRequest {
    /// Cells to hide, 0-64 (default 27).
    #[serde(default)]
    pub hide: Option<i64>,
    /// Hide cells only while the solution stays unique.
    #[serde(default)]
    pub unique: bool,
    /// A seed (random when absent).
    #[serde(default, deserialize_with = "super::fields::seed")]
    #[schema(value_type = Option<String>, example = "42")]
    pub seed: Option<u64>,
}

/// A puzzle as read.
#[derive(Debug, Serialize, ToSchema)]
pub struct Parsed {
    /// The 81-character line (`.` for empty).
    pub puzzle: String,
    /// Clues.
    pub clues: usize,
    /// The 9-line block.
    pub block: String,
}

/// A solution, or why there is none.
#[derive(Debug, Serialize, ToSchema)]
pub struct Solved {
    /// The puzzle.
    pub puzzle: String,
    /// `solved`, `no_solution` or `not_unique`.
    pub status: String,
    /// The solution (for `not_unique`: one of them).
    pub solution: Option<String>,
}

/// A rating.
#[derive(Debug, Serialize, ToSchema)]
pub struct Rated {
    /// The puzzle.
    pub puzzle: String,
    /// `rated`, `needs_guessing`, `no_solution` or `not_unique`.
    pub status: String,
    /// Rating on Sudoku Explainer's scale, when solved by logic.
    pub rating: Option<f64>,
    /// The hardest technique, or `needs guessing`.
    pub grade: String,
    /// The level (`beginner` ... `expert`), when solved by logic.
    pub difficulty: Option<String>,
    /// The highest step rating reached, solved or not.
    pub rating_reached: f64,
    /// Steps taken.
    pub step_count: usize,
    /// The steps, when asked.
    pub steps: Option<Vec<StepInfo>>,
    /// The contradiction found, for a puzzle without solution.
    pub conflict: Option<String>,
}

/// A new puzzle.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewPuzzle {
    /// The clues, 81 characters.
    pub puzzle: String,
    /// Its solution.
    pub solution: String,
    /// Clues.
    pub clues: usize,
    /// Rating (generated puzzles).
    pub rating: Option<f64>,
    /// Level (generated puzzles).
    pub difficulty: Option<String>,
    /// Hardest technique (generated puzzles).
    pub technique: Option<String>,
    /// Whether the solution is known to be unique (`null`: not checked, classic mode).
    pub unique: Option<bool>,
    /// The seed that makes this puzzle again, as a decimal string (a 64-bit number does not survive JavaScript).
    #[serde(serialize_with = "super::fields::seed_text")]
    #[schema(value_type = String, example = "42")]
    pub seed: u64,
}

fn parse_grid(field: &str, text: &str) -> Result<Grid, ApiError> {
    Grid::parse(text).map_err(|e| ApiError::bad(format!("{field}: {e}")))
}

fn line(d: &[u8; 81]) -> String {
    d.iter()
        .map(|&x| if x == 0 { '.' } else { char::from(b'0' + x) })
        .collect()
}

/// Read a puzzle: its line, its block, its clues; a mistake is named by line, column and cell.
#[utoipa::path(post, path = "/api/sudoku/parse", tag = "sudoku", request_body = PuzzleRequest,
    responses((status = 200, body = Parsed),
              (status = 400, description = "The puzzle cannot be read (line, column, cells named)", body = super::error::ErrorBody)))]
pub async fn parse(Body(req): Body<PuzzleRequest>) -> ApiResult<Parsed> {
    let g = parse_grid("puzzle", &req.puzzle)?;
    Ok(Json(Parsed {
        puzzle: g.to_line(),
        clues: g.filled(),
        block: g.to_block(),
    }))
}

/// Solve a puzzle: its solution, or that it has none or more than one.
#[utoipa::path(post, path = "/api/sudoku/solve", tag = "sudoku", request_body = PuzzleRequest,
    responses((status = 200, body = Solved),
              (status = 400, description = "The puzzle cannot be read", body = super::error::ErrorBody)))]
pub async fn solve(
    State(state): State<Arc<AppState>>,
    Body(req): Body<PuzzleRequest>,
) -> ApiResult<Solved> {
    let g = parse_grid("puzzle", &req.puzzle)?;
    let answer = state
        .jobs
        // The fast solver takes well under a millisecond (its cancel check is the pool's, before it starts).
        .run_quick("solve", move |_| {
            let (status, solution) = match g.solve() {
                Ok(s) => ("solved", Some(s.to_line())),
                Err(SolveError::NoSolution) => ("no_solution", None),
                Err(SolveError::MultipleSolutions) => {
                    ("not_unique", g.first_solution().map(|s| s.to_line()))
                }
            };
            Ok(Solved {
                puzzle: g.to_line(),
                status: status.to_string(),
                solution,
            })
        })
        .await?;
    Ok(Json(answer))
}

/// Rate a puzzle with the logical solver (Sudoku Explainer's scale); with `explain`, every step.
#[utoipa::path(post, path = "/api/sudoku/rate", tag = "sudoku", request_body = RateRequest,
    responses((status = 200, body = Rated),
              (status = 400, description = "The puzzle cannot be read", body = super::error::ErrorBody),
              (status = 503, description = "Busy", body = super::error::ErrorBody)))]
pub async fn rate_puzzle(
    State(state): State<Arc<AppState>>,
    Body(req): Body<RateRequest>,
) -> ApiResult<Rated> {
    let g = parse_grid("puzzle", &req.puzzle)?;
    let explain = req.explain;
    let answer = state
        .jobs
        .run("rate", move |cancel| {
            let r = rate::rate_until(&g, explain, cancel.flag())
                .map_err(|_| ApiError::unavailable("rate: stopped at the time limit"))?;
            Ok(Rated {
                puzzle: g.to_line(),
                status: r.verdict.id().to_string(),
                rating: r.rating.map(|x| x.value()),
                grade: r.grade().to_string(),
                difficulty: r.difficulty().map(|d| d.name().to_string()),
                rating_reached: r.reached.value(),
                step_count: r.step_count,
                steps: explain.then(|| r.steps.iter().map(StepInfo::new).collect()),
                conflict: (r.verdict == Verdict::NoSolution)
                    .then(|| r.conflict.map(|c| c.to_string()))
                    .flatten(),
            })
        })
        .await?;
    Ok(Json(answer))
}

/// The next logical step for a player's grid, explained, with the cells to highlight; or the first wrong
/// entry.
#[utoipa::path(post, path = "/api/sudoku/hint", tag = "sudoku", request_body = HintRequest,
    responses((status = 200, body = HintAnswer),
              (status = 400, description = "A grid that cannot be read, or that does not keep the puzzle's clues", body = super::error::ErrorBody),
              (status = 503, description = "Busy", body = super::error::ErrorBody)))]
pub async fn hint(
    State(state): State<Arc<AppState>>,
    Body(req): Body<HintRequest>,
) -> ApiResult<HintAnswer> {
    let puzzle = parse_grid("puzzle", &req.puzzle)?;
    let current = match &req.grid {
        Some(g) => {
            let grid = Grid::from_digits_allow_conflicts(*parse_digits("grid", g)?)
                .map_err(|e| ApiError::bad(format!("grid: {e}")))?;
            for (i, (&p, &c)) in puzzle.digits().iter().zip(grid.digits().iter()).enumerate() {
                if p != 0 && p != c {
                    return Err(ApiError::bad(format!(
                        "grid: {} holds the clue {p} in the puzzle, not {}",
                        cell_name(i),
                        if c == 0 {
                            "an empty cell".to_string()
                        } else {
                            c.to_string()
                        }
                    )));
                }
            }
            grid
        }
        None => puzzle,
    };
    let answer = state
        .jobs
        // One logical step: at most about 150 ms on the hardest puzzles (its cancel check is the pool's, before
        // it starts).
        .run_quick("hint", move |_| {
            // The one hint (the session's and `boardlab sudoku hint`'s), without pencil marks.
            let givens = puzzle.digits();
            let h = play::sudoku::hint(givens, current.digits(), &[0; 81]);
            Ok(HintAnswer::new(givens, &h))
        })
        .await?;
    Ok(Json(answer))
}

/// The digits of a grid that may hold conflicting entries (a player's grid): 81 cells, digits or an empty mark.
fn parse_digits(field: &str, text: &str) -> Result<Box<[u8; 81]>, ApiError> {
    let t = text.trim();
    let mut d = Box::new([0u8; 81]);
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 81 {
        return Err(ApiError::bad(format!(
            "{field}: {} cells; a grid line has 81",
            chars.len()
        )));
    }
    for (i, ch) in chars.into_iter().enumerate() {
        d[i] = match ch {
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' | '_' | '-' | '*' => 0,
            other => {
                return Err(ApiError::bad(format!(
                    "{field}: column {}: unknown character {other:?} at {} (use 1-9, or . for an empty cell)",
                    i + 1,
                    cell_name(i)
                )));
            }
        };
    }
    Ok(d)
}

/// A new unique puzzle of a level, rated, with a symmetric clue pattern.
#[utoipa::path(post, path = "/api/sudoku/generate", tag = "sudoku", request_body = GenerateRequest,
    responses((status = 200, body = NewPuzzle),
              (status = 400, description = "An unknown difficulty or symmetry", body = super::error::ErrorBody),
              (status = 503, description = "Busy, or no answer within the time limit", body = super::error::ErrorBody)))]
pub async fn generate_puzzle(
    State(state): State<Arc<AppState>>,
    Body(req): Body<GenerateRequest>,
) -> ApiResult<NewPuzzle> {
    let difficulty: Difficulty = match &req.difficulty {
        Some(d) => d
            .parse()
            .map_err(|e| ApiError::bad(format!("difficulty: {e}")))?,
        None => Difficulty::default(),
    };
    let symmetry: Symmetry = match &req.symmetry {
        Some(s) => s
            .parse()
            .map_err(|e| ApiError::bad(format!("symmetry: {e}")))?,
        None => Symmetry::default(),
    };
    let seed = req.seed.unwrap_or_else(sudoku::rng::clock_seed);
    let answer = state
        .jobs
        .run("generate", move |cancel| {
            let g = generate::generate_until(
                &GenerateOptions {
                    difficulty,
                    symmetry,
                },
                &mut Rng::for_item(seed, 0),
                Some(cancel.flag()),
            )
            .map_err(|e| ApiError::unprocessable(format!("generate: {e}")))?
            .ok_or_else(|| ApiError::unavailable("generate: stopped at the time limit"))?;
            Ok(NewPuzzle {
                puzzle: line(&g.puzzle),
                solution: line(&g.solution),
                clues: g.clues,
                rating: Some(g.rating.value()),
                difficulty: Some(g.difficulty.name().to_string()),
                technique: g.hardest.map(|t| t.name().to_string()),
                unique: Some(true),
                seed,
            })
        })
        .await?;
    Ok(Json(answer))
}

/// The ZX-81 method: a built-in grid shuffled by validity-keeping moves, with cells hidden at random.
#[utoipa::path(post, path = "/api/sudoku/classic", tag = "sudoku", request_body = ClassicRequest,
    responses((status = 200, body = NewPuzzle),
              (status = 400, description = "A count of hidden cells out of range", body = super::error::ErrorBody),
              (status = 422, description = "That many cells cannot be hidden with a unique solution", body = super::error::ErrorBody)))]
pub async fn classic_puzzle(
    State(state): State<Arc<AppState>>,
    Body(req): Body<ClassicRequest>,
) -> ApiResult<NewPuzzle> {
    let hide = req.hide.unwrap_or(27);
    if !(0..=classic::MAX_HIDE as i64).contains(&hide) {
        return Err(ApiError::bad(format!(
            "hide must be between 0 and {}, got {hide}",
            classic::MAX_HIDE
        )));
    }
    let unique = req.unique;
    let seed = req.seed.unwrap_or_else(sudoku::rng::clock_seed);
    let answer = state
        .jobs
        .run("classic", move |cancel| {
            let mut rng = Rng::for_item(seed, 0);
            let c = classic::classic_until(
                &ClassicOptions {
                    hide: hide as usize,
                    unique,
                },
                &mut rng,
                cancel.flag(),
            )
            .map_err(|e| match e {
                ClassicError::Stopped => {
                    ApiError::unavailable("classic: stopped at the time limit")
                }
                e => ApiError::unprocessable(format!("classic: {e}")),
            })?;
            Ok(NewPuzzle {
                puzzle: line(&c.puzzle),
                solution: line(&c.solution),
                clues: c.puzzle.iter().filter(|&&d| d != 0).count(),
                rating: None,
                difficulty: None,
                technique: None,
                unique: c.unique,
                seed,
            })
        })
        .await?;
    Ok(Json(answer))
}
