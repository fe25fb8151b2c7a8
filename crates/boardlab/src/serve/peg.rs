//! `/api/peg/...`: peg solitaire boards, jumps, solutions and level-by-level counts.
//!
//! A problem is a built-in board (`english`, `french`, `triangle`, `diamond`, `wiegleb`) or a pasted ASCII
//! layout, the start's empty holes and the finish hole (anywhere when absent). A position is the list of the
//! holes holding a peg, by name (`d4`; `1`..`15` on the triangle); a jump is `FROM-TO`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use peg::enumerate::{self, Options};
use peg::{
    Board, CountError, Finish, Game, Lattice, Position, Problem, SolveError, Solver, SolverOptions,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, ApiResult, Body};
use super::jobs::Cancel;

/// The peg routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/peg/boards", get(boards))
        .route("/peg/board", post(board))
        .route("/peg/moves", post(moves))
        .route("/peg/jump", post(jump))
        .route("/peg/solve", post(solve))
        .route("/peg/count", post(count))
}

/// The largest board the server counts (the English board's 33 holes take about 2 s; the French board's 37
/// already have billions of positions).
const MAX_COUNT_HOLES: usize = 36;
/// Memory a count may use on the server.
const COUNT_MEMORY: u64 = 1 << 30;
/// Positions a solver examines between looks at the request's deadline.
const SOLVE_SLICE: u64 = 1_000_000;
/// Solvers kept (per board and finish) and counts kept.
const KEEP_SOLVERS: usize = 8;
const KEEP_COUNTS: usize = 16;

/// Solvers and counts kept between requests (a solver's first question builds its table of positions near the
/// finish; keeping it makes the next questions on that board fast). Both are charged to the server's memory
/// budget (a count, a few kilobytes, as "peg counts").
#[derive(Debug, Default)]
pub struct Caches {
    solvers: Arc<Mutex<Vec<KeptSolver>>>,
    counts: Arc<Mutex<Vec<KeptCount>>>,
    budget: play::MemoryBudget,
    next_solver: AtomicU64,
    next_count: AtomicU64,
}

/// A count kept: its key, a number of its own, and its share of the budget.
#[derive(Debug)]
struct KeptCount {
    key: String,
    serial: u64,
    answer: Arc<CountAnswer>,
    charge: play::Charge,
}

/// A solver kept: its key, a number of its own, and its share of the budget.
#[derive(Debug)]
struct KeptSolver {
    key: String,
    serial: u64,
    solver: Solver,
    _charge: play::Charge,
}

impl Caches {
    /// Empty caches whose solvers are charged to `budget`.
    pub fn new(budget: play::MemoryBudget) -> Caches {
        Caches {
            budget,
            ..Caches::default()
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves only a cache behind: its contents are still usable.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Which board, start and finish.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// A built-in board (default `english`). Not with `layout`.
    #[serde(default)]
    #[schema(example = "english")]
    pub board: Option<String>,
    /// An ASCII layout: `o` a peg, `.` an empty hole, space or `_` no hole, `#` comment lines.
    #[serde(default)]
    pub layout: Option<String>,
    /// The layout's lattice: `square` (default) or `triangular`.
    #[serde(default)]
    pub lattice: Option<String>,
    /// The start's empty holes (default: the board's standard vacancy, or the layout's empty holes).
    #[serde(default)]
    pub start: Option<Vec<String>>,
    /// The hole the last peg must end on (anywhere when absent).
    #[serde(default)]
    pub finish: Option<String>,
}

/// A problem alone.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProblemRequest {
    /// The problem.
    #[serde(default)]
    pub problem: ProblemSpec,
}

/// A problem and a position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The problem.
    #[serde(default)]
    pub problem: ProblemSpec,
    /// The holes with a peg (the problem's start when absent).
    #[serde(default)]
    pub pegs: Option<Vec<String>>,
}

/// A problem, a position and a jump.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JumpRequest {
    /// The problem.
    #[serde(default)]
    pub problem: ProblemSpec,
    /// The holes with a peg (the problem's start when absent).
    #[serde(default)]
    pub pegs: Option<Vec<String>>,
    /// The jump, `FROM-TO`.
    #[schema(example = "d2-d4")]
    pub jump: String,
}

/// A built-in board in the list.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoardSummary {
    /// Its name.
    pub name: String,
    /// One line about it.
    pub description: String,
    /// `square` or `triangular`.
    pub lattice: String,
    /// Holes.
    pub holes: usize,
    /// Symmetries.
    pub symmetries: usize,
    /// The standard vacancy.
    pub standard_vacancy: String,
}

/// One hole, where to draw it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Hole {
    /// Its name.
    pub name: String,
    /// Layout column (text column; on the triangular lattice holes of a row are two apart).
    pub x: i32,
    /// Layout line, 0 at the top.
    pub y: i32,
}

/// A board and a problem on it, with what a view needs to draw it.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoardInfo {
    /// The board's name.
    pub name: String,
    /// `square` or `triangular`.
    pub lattice: String,
    /// Layout width in text columns.
    pub width: i32,
    /// Layout height in lines.
    pub height: i32,
    /// The holes, by index.
    pub holes: Vec<Hole>,
    /// Jumps on the board.
    pub jumps: usize,
    /// Symmetries of the board.
    pub symmetries: usize,
    /// Symmetries that fix the start (used by counts).
    pub start_symmetries: usize,
    /// The board's standard vacancy.
    pub standard_vacancy: String,
    /// The start's pegs.
    pub start: Vec<String>,
    /// The start's empty holes.
    pub vacancies: Vec<String>,
    /// The finish hole, when there is one.
    pub finish: Option<String>,
    /// The start drawn as a layout.
    pub layout: String,
}

/// A position and its legal jumps.
#[derive(Debug, Serialize, ToSchema)]
pub struct PegPosition {
    /// The holes with a peg.
    pub pegs: Vec<String>,
    /// How many.
    pub pegs_left: u32,
    /// The legal jumps, `FROM-TO`.
    pub legal_jumps: Vec<String>,
    /// One peg left, on the finish if there is one.
    pub finished: bool,
    /// No jump left.
    pub over: bool,
    /// The position drawn as a layout.
    pub layout: String,
}

/// The position after a jump.
#[derive(Debug, Serialize, ToSchema)]
pub struct JumpAnswer {
    /// The jump.
    pub jump: String,
    /// The hole jumped over (its peg removed).
    pub over: String,
    /// The position after it.
    pub after: PegPosition,
}

/// A solution from a position, or the proof that there is none.
#[derive(Debug, Serialize, ToSchema)]
pub struct SolveAnswer {
    /// Whether the finish can still be reached.
    pub solvable: bool,
    /// The jumps to it (empty when none).
    pub solution: Vec<String>,
    /// Positions the search examined for this question.
    pub nodes: u64,
    /// Milliseconds.
    pub elapsed_ms: f64,
}

/// One level of a count. Path counts are decimal strings (they pass 2^53).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CountLevel {
    /// Pegs.
    pub pegs: u32,
    /// Reachable positions with this many pegs.
    pub positions: u64,
    /// Up to symmetry.
    pub classes: u64,
    /// Paths from the start, full game tree.
    pub paths_full: String,
    /// Paths from the start, normal tree.
    pub paths_normal: String,
    /// Dead ends.
    pub dead_ends: u64,
    /// Dead ends up to symmetry.
    pub dead_end_classes: u64,
    /// Positions from which the finish hole can still be reached (with a finish hole).
    pub finishable: Option<u64>,
}

/// A whole count.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CountAnswer {
    /// The board.
    pub board: String,
    /// Holes.
    pub holes: usize,
    /// The start's empty holes.
    pub vacancies: Vec<String>,
    /// The finish hole.
    pub finish: Option<String>,
    /// Symmetries used.
    pub symmetries: usize,
    /// Levels, from the start down.
    pub levels: Vec<CountLevel>,
    /// Reachable positions.
    pub positions: u64,
    /// Up to symmetry.
    pub classes: u64,
    /// Complete games (paths to a dead end), full tree, decimal string.
    pub games_full: String,
    /// Complete games, normal tree.
    pub games_normal: String,
    /// Solutions, full tree.
    pub solutions_full: String,
    /// Solutions, normal tree.
    pub solutions_normal: String,
    /// Milliseconds the count took (when it was counted for this request; 0 when it came from the cache).
    pub elapsed_ms: f64,
    /// Whether it came from the server's cache.
    pub cached: bool,
}

/// A problem read from a request.
pub(crate) struct Setup {
    pub(crate) problem: Problem,
    /// A key naming the board (layout and lattice) for caches.
    pub(crate) board_key: String,
}

impl ProblemSpec {
    pub(crate) fn setup(&self) -> Result<Setup, ApiError> {
        let (board, drawn) = match (&self.board, &self.layout) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad("problem: give board or layout, not both"));
            }
            (_, Some(layout)) => {
                let lattice = match self
                    .lattice
                    .as_deref()
                    .map(str::to_ascii_lowercase)
                    .as_deref()
                {
                    None | Some("square") => Lattice::Square,
                    Some("triangular") => Lattice::Triangular,
                    Some(other) => {
                        return Err(ApiError::bad(format!(
                            "problem.lattice: unknown lattice \"{other}\" (square or triangular)"
                        )));
                    }
                };
                let (b, pos) = Board::from_layout(layout, lattice, "pasted")
                    .map_err(|e| ApiError::bad(format!("problem.layout: {e}")))?;
                (b, Some(pos))
            }
            (name, None) => {
                if self.lattice.is_some() {
                    return Err(ApiError::bad(
                        "problem.lattice goes with a layout, not a built-in board",
                    ));
                }
                let b = Board::builtin(name.as_deref().unwrap_or("english"))
                    .map_err(|e| ApiError::bad(format!("problem.board: {e}")))?;
                (b, None)
            }
        };
        let vacancies = self.start.as_deref().unwrap_or_default();
        let start = Problem::start_of(&board, drawn, vacancies)
            .map_err(|e| ApiError::bad(format!("problem.start: {e}")))?;
        let finish = match &self.finish {
            None => Finish::Anywhere,
            Some(f) if f.trim().is_empty() || f.eq_ignore_ascii_case("anywhere") => {
                Finish::Anywhere
            }
            Some(f) => Finish::Hole(
                board
                    .parse_hole(f)
                    .map_err(|e| ApiError::bad(format!("problem.finish: {e}")))?,
            ),
        };
        let board_key = format!("{}|{}", board.lattice(), board.layout_string(board.full()));
        let problem = Problem::new(board, start, finish)
            .map_err(|e| ApiError::bad(format!("problem.start: {e}")))?;
        Ok(Setup { problem, board_key })
    }
}

fn parse_pegs(board: &Board, pegs: &[String]) -> Result<Position, ApiError> {
    let mut pos = Position::EMPTY;
    for name in pegs {
        let h = board
            .parse_hole(name)
            .map_err(|e| ApiError::bad(format!("pegs: {e}")))?;
        if pos.has_peg(h) {
            return Err(ApiError::bad(format!(
                "pegs: hole {} is named twice",
                board.hole_name(h)
            )));
        }
        pos = pos.with_peg(h);
    }
    if pos.pegs() == 0 {
        return Err(ApiError::bad("pegs: the position has no peg"));
    }
    Ok(pos)
}

fn names(board: &Board, pos: Position) -> Vec<String> {
    pos.holes()
        .map(|h| board.hole_name(h).to_string())
        .collect()
}

fn finish_name(board: &Board, finish: Finish) -> Option<String> {
    match finish {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(board.hole_name(h).to_string()),
    }
}

fn position_view(problem: &Problem, pos: Position) -> PegPosition {
    let b = problem.board();
    let legal = b.legal_moves(pos);
    PegPosition {
        pegs: names(b, pos),
        pegs_left: pos.pegs(),
        legal_jumps: legal.iter().map(|&m| b.format_move(m)).collect(),
        finished: problem.finish().is_finished(pos),
        over: legal.is_empty(),
        layout: b.layout_string(pos),
    }
}

pub(crate) fn board_info(problem: &Problem) -> BoardInfo {
    let b = problem.board();
    let (width, height) = b.size();
    let start = problem.start();
    BoardInfo {
        name: b.name().to_string(),
        lattice: b.lattice().to_string(),
        width,
        height,
        holes: (0..b.holes())
            .map(|h| {
                let (x, y) = b.cell(h);
                Hole {
                    name: b.hole_name(h).to_string(),
                    x,
                    y,
                }
            })
            .collect(),
        jumps: b.moves().len(),
        symmetries: b.symmetries().len(),
        start_symmetries: problem.group().len(),
        standard_vacancy: b.hole_name(b.default_vacancy()).to_string(),
        start: names(b, start),
        vacancies: (0..b.holes())
            .filter(|&h| !start.has_peg(h))
            .map(|h| b.hole_name(h).to_string())
            .collect(),
        finish: finish_name(b, problem.finish()),
        layout: b.layout_string(start),
    }
}

/// The built-in boards.
#[utoipa::path(get, path = "/api/peg/boards", tag = "peg",
    responses((status = 200, body = Vec<BoardSummary>)))]
pub async fn boards() -> ApiResult<Vec<BoardSummary>> {
    let mut out = Vec::new();
    for name in peg::board::builtin_names() {
        let b = Board::builtin(name).map_err(|e| ApiError::internal(e.to_string()))?;
        out.push(BoardSummary {
            name: name.to_string(),
            description: Board::builtin_description(name).unwrap_or("").to_string(),
            lattice: b.lattice().to_string(),
            holes: b.holes(),
            symmetries: b.symmetries().len(),
            standard_vacancy: b.hole_name(b.default_vacancy()).to_string(),
        });
    }
    Ok(Json(out))
}

/// A board and a problem on it: the holes and where to draw them, the start, the finish.
#[utoipa::path(post, path = "/api/peg/board", tag = "peg", request_body = ProblemRequest,
    responses((status = 200, body = BoardInfo),
              (status = 400, description = "An unknown board, a bad layout (line and column named) or hole", body = super::error::ErrorBody)))]
pub async fn board(Body(req): Body<ProblemRequest>) -> ApiResult<BoardInfo> {
    let s = req.problem.setup()?;
    Ok(Json(board_info(&s.problem)))
}

/// A position's legal jumps, pegs left and whether it is finished or stuck.
#[utoipa::path(post, path = "/api/peg/moves", tag = "peg", request_body = PositionRequest,
    responses((status = 200, body = PegPosition),
              (status = 400, description = "A bad problem or hole name", body = super::error::ErrorBody)))]
pub async fn moves(Body(req): Body<PositionRequest>) -> ApiResult<PegPosition> {
    let s = req.problem.setup()?;
    let pos = match &req.pegs {
        Some(p) => parse_pegs(s.problem.board(), p)?,
        None => s.problem.start(),
    };
    Ok(Json(position_view(&s.problem, pos)))
}

/// Play a jump (checked) and answer the new position.
#[utoipa::path(post, path = "/api/peg/jump", tag = "peg", request_body = JumpRequest,
    responses((status = 200, body = JumpAnswer),
              (status = 400, description = "A bad problem, hole name or malformed jump", body = super::error::ErrorBody),
              (status = 422, description = "An illegal jump (the hole is named)", body = super::error::ErrorBody)))]
pub async fn jump(Body(req): Body<JumpRequest>) -> ApiResult<JumpAnswer> {
    let s = req.problem.setup()?;
    let b = s.problem.board();
    let pos = match &req.pegs {
        Some(p) => parse_pegs(b, p)?,
        None => s.problem.start(),
    };
    let mut game = Game::new(b.clone(), pos);
    let mv = game.play_str(&req.jump).map_err(|e| match e {
        peg::MoveError::Name(n) => ApiError::bad(format!("jump: {n}")),
        other => ApiError::unprocessable(format!("jump: {other}")),
    })?;
    Ok(Json(JumpAnswer {
        jump: b.format_move(mv),
        over: b.hole_name(mv.over()).to_string(),
        after: position_view(&s.problem, game.position()),
    }))
}

/// Take a kept solver for this board and finish, or make one.
pub(crate) fn take_solver(caches: &Caches, key: &str, board: &Board, finish: Finish) -> Solver {
    let mut list = lock(&caches.solvers);
    if let Some(i) = list.iter().position(|k| k.key == key) {
        return list.swap_remove(i).solver;
    }
    drop(list);
    Solver::with_options(
        board,
        finish,
        SolverOptions {
            max_memory: 512 << 20,
            max_nodes: Some(SOLVE_SLICE),
            ..SolverOptions::default()
        },
    )
}

pub(crate) fn keep_solver(caches: &Caches, key: String, solver: Solver) {
    let serial = caches.next_solver.fetch_add(1, Ordering::Relaxed);
    let weak = Arc::downgrade(&caches.solvers);
    // Charged before the list is locked: the evictions it makes take the list's lock.
    let Some(charge) = caches
        .budget
        .charge("peg solvers", solver.memory_bytes(), move || {
            if let Some(list) = weak.upgrade() {
                lock(&list).retain(|k| k.serial != serial);
            }
        })
    else {
        return;
    };
    let mut list = lock(&caches.solvers);
    if charge.is_evicted() {
        return;
    }
    if list.len() >= KEEP_SOLVERS {
        list.remove(0);
    }
    list.push(KeptSolver {
        key,
        serial,
        solver,
        _charge: charge,
    });
}

/// Keep a count for later requests, charged to the budget (at most [`KEEP_COUNTS`], the oldest going first).
fn keep_count(caches: &Caches, key: String, answer: CountAnswer) {
    let serial = caches.next_count.fetch_add(1, Ordering::Relaxed);
    let weak = Arc::downgrade(&caches.counts);
    // Charged before the list is locked: the evictions it makes take the list's lock.
    let Some(charge) = caches
        .budget
        .charge("peg counts", count_bytes(&answer), move || {
            if let Some(list) = weak.upgrade() {
                lock(&list).retain(|k| k.serial != serial);
            }
        })
    else {
        return;
    };
    let mut list = lock(&caches.counts);
    if charge.is_evicted() {
        return;
    }
    if list.len() >= KEEP_COUNTS {
        list.remove(0);
    }
    list.push(KeptCount {
        key,
        serial,
        answer: Arc::new(answer),
        charge,
    });
}

/// The memory a kept count takes: the answer, its levels and its strings.
fn count_bytes(a: &CountAnswer) -> u64 {
    let strings = |v: &[&String]| v.iter().map(|s| s.capacity()).sum::<usize>();
    let level_strings: usize = a
        .levels
        .iter()
        .map(|l| strings(&[&l.paths_full, &l.paths_normal]))
        .sum();
    let bytes = std::mem::size_of::<KeptCount>()
        + std::mem::size_of::<CountAnswer>()
        + a.levels.capacity() * std::mem::size_of::<CountLevel>()
        + level_strings
        + a.vacancies.capacity() * std::mem::size_of::<String>()
        + a.vacancies.iter().map(String::capacity).sum::<usize>()
        + a.finish.as_ref().map_or(0, String::capacity)
        + strings(&[
            &a.board,
            &a.games_full,
            &a.games_normal,
            &a.solutions_full,
            &a.solutions_normal,
        ]);
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

/// Solve from `pos` in slices, looking at the deadline between them.
fn solve_in_slices(
    solver: &mut Solver,
    pos: Position,
    cancel: &Cancel,
) -> Result<Option<Vec<peg::Move>>, ApiError> {
    let first = solver.nodes();
    loop {
        match solver.solve(pos) {
            Ok(r) => return Ok(r),
            Err(SolveError::NodeLimit { .. }) if !cancel.is_cancelled() => {}
            Err(SolveError::NodeLimit { .. } | SolveError::Stopped { .. }) => {
                return Err(ApiError::unavailable(format!(
                    "solve: no answer within the server's time limit: the search examined {} positions",
                    solver.nodes().saturating_sub(first)
                )));
            }
            Err(e @ SolveError::MemoryLimit { .. }) => {
                return Err(ApiError::unprocessable(format!("solve: {e}")));
            }
        }
    }
}

/// Whether one peg (on the finish) can still be reached from a position, and a way to get there.
#[utoipa::path(post, path = "/api/peg/solve", tag = "peg", request_body = PositionRequest,
    responses((status = 200, body = SolveAnswer),
              (status = 400, description = "A bad problem or hole name", body = super::error::ErrorBody),
              (status = 503, description = "Busy, or no answer within the time limit", body = super::error::ErrorBody)))]
pub async fn solve(
    State(state): State<Arc<AppState>>,
    Body(req): Body<PositionRequest>,
) -> ApiResult<SolveAnswer> {
    let s = req.problem.setup()?;
    let pos = match &req.pegs {
        Some(p) => parse_pegs(s.problem.board(), p)?,
        None => s.problem.start(),
    };
    let st = Arc::clone(&state);
    let answer = state
        .jobs
        .run("solve", move |cancel| {
            let t0 = std::time::Instant::now();
            let finish = s.problem.finish();
            let key = format!("{}|{:?}", s.board_key, finish);
            let board = s.problem.board();
            let mut solver = take_solver(&st.peg, &key, board, finish);
            let before = solver.nodes();
            let result = solve_in_slices(&mut solver, pos, cancel);
            let nodes = solver.nodes().saturating_sub(before);
            keep_solver(&st.peg, key, solver);
            let path = result?;
            Ok(SolveAnswer {
                solvable: path.is_some(),
                solution: path
                    .unwrap_or_default()
                    .iter()
                    .map(|&m| board.format_move(m))
                    .collect(),
                nodes,
                elapsed_ms: t0.elapsed().as_secs_f64() * 1000.0,
            })
        })
        .await?;
    Ok(Json(answer))
}

/// Count every position reachable from the start, level by level, with exact path counts. Boards the server
/// cannot count within its memory and time limits (the French board, the diamond, Wiegleb's) are refused.
#[utoipa::path(post, path = "/api/peg/count", tag = "peg", request_body = ProblemRequest,
    responses((status = 200, body = CountAnswer),
              (status = 400, description = "A bad problem", body = super::error::ErrorBody),
              (status = 422, description = "Too big to count on the server", body = super::error::ErrorBody),
              (status = 503, description = "Busy, or no answer within the time limit", body = super::error::ErrorBody)))]
pub async fn count(
    State(state): State<Arc<AppState>>,
    Body(req): Body<ProblemRequest>,
) -> ApiResult<CountAnswer> {
    let s = req.problem.setup()?;
    let b = s.problem.board();
    let key = format!(
        "{}|{:x}|{:?}",
        s.board_key,
        s.problem.start().bits(),
        s.problem.finish()
    );
    if let Some(kept) = lock(&state.peg.counts).iter().find(|k| k.key == key) {
        kept.charge.touch();
        let mut c = CountAnswer::clone(&kept.answer);
        c.cached = true;
        c.elapsed_ms = 0.0;
        return Ok(Json(c));
    }
    if b.holes() > MAX_COUNT_HOLES {
        return Err(ApiError::unprocessable(format!(
            "count: the {} board has {} holes, too big to count on the server in a few seconds (it counts boards \
             of at most {MAX_COUNT_HOLES} holes); use `boardlab peg count` on the command line",
            b.name(),
            b.holes()
        )));
    }
    let st = Arc::clone(&state);
    let answer = state
        .jobs
        .run("count", move |cancel| {
            let t0 = std::time::Instant::now();
            let problem = &s.problem;
            let b = problem.board();
            let opts = Options {
                max_memory: Some(COUNT_MEMORY),
                cancel: Some(cancel.flag()),
                ..Options::default()
            };
            let c = enumerate::count(problem, &opts).map_err(|e| match e {
                CountError::MemoryLimit { pegs, needed, .. } => ApiError::unprocessable(format!(
                    "count: too big to count on the server: the level with {pegs} pegs would need about {} of \
                     memory, more than the server's limit of {} (use `boardlab peg count` on the command line)",
                    peg::count::fmt_bytes(needed),
                    peg::count::fmt_bytes(COUNT_MEMORY)
                )),
                CountError::Cancelled => ApiError::unavailable(
                    "count: no answer within the server's time limit (use `boardlab peg count` on the command line)",
                ),
                other => ApiError::unprocessable(format!("count: {other}")),
            })?;
            let start = problem.start();
            let answer = CountAnswer {
                board: b.name().to_string(),
                holes: b.holes(),
                vacancies: (0..b.holes())
                    .filter(|&h| !start.has_peg(h))
                    .map(|h| b.hole_name(h).to_string())
                    .collect(),
                finish: finish_name(b, problem.finish()),
                symmetries: c.symmetries,
                levels: c
                    .levels
                    .iter()
                    .map(|l| CountLevel {
                        pegs: l.pegs,
                        positions: l.positions,
                        classes: l.classes,
                        paths_full: l.paths_full.to_string(),
                        paths_normal: l.paths_normal.to_string(),
                        dead_ends: l.dead_ends,
                        dead_end_classes: l.dead_end_classes,
                        finishable: l.finishable,
                    })
                    .collect(),
                positions: c.totals.positions,
                classes: c.totals.classes,
                games_full: c.totals.games_full.to_string(),
                games_normal: c.totals.games_normal.to_string(),
                solutions_full: c.totals.solutions_full.to_string(),
                solutions_normal: c.totals.solutions_normal.to_string(),
                elapsed_ms: t0.elapsed().as_secs_f64() * 1000.0,
                cached: false,
            };
            keep_count(&st.peg, key, answer.clone());
            Ok(answer)
        })
        .await?;
    Ok(Json(answer))
}
