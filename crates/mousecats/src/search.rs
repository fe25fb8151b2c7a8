//! The alpha-beta engine: negamax with principal-variation search, iterative deepening, the
//! transposition tables' move tried first, the positional evaluation at the leaves, an optional time
//! limit, and the exact solution for the top level.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::error::SettingError;
use crate::eval::MAX_EVAL;
use crate::position::{Move, Position, Rule};
use crate::size::BoardSize;
use crate::solve::{MAX_TABLE_SIZE, Solution, Value};
use crate::tt::{Bound, TableConfig, TableStats, TranspositionTables};

/// The score of a win in 0 plies; a win in `n` plies scores `WIN_SCORE - n`.
pub const WIN_SCORE: i32 = 10_000;
/// The deepest search allowed, in plies (a game on 8x8 lasts at most 57).
pub const MAX_DEPTH: u8 = 64;
const MAX_PLY: usize = MAX_DEPTH as usize + 2;
const INF: i32 = 30_000;
/// The tables are used at nodes with at least this much depth left.
const MIN_TABLE_DEPTH: i32 = 1;
/// Scores beyond this are wins or losses.
const WIN_BOUND: i32 = WIN_SCORE - 200;

/// A search score, from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Score {
    /// The side to move wins in this many plies (proven by the search or the exact table).
    Win(u8),
    /// The side to move loses in this many plies.
    Loss(u8),
    /// A heuristic evaluation: positive is good for the side to move.
    Eval(i32),
}

impl Score {
    /// From the search's integer score.
    pub fn from_raw(s: i32) -> Score {
        if s > WIN_BOUND {
            Score::Win((WIN_SCORE - s).clamp(0, 255) as u8)
        } else if s < -WIN_BOUND {
            Score::Loss((WIN_SCORE + s).clamp(0, 255) as u8)
        } else {
            Score::Eval(s)
        }
    }

    /// The search's integer score.
    pub fn raw(self) -> i32 {
        match self {
            Score::Win(n) => WIN_SCORE - i32::from(n),
            Score::Loss(n) => -WIN_SCORE + i32::from(n),
            Score::Eval(s) => s,
        }
    }

    /// The same score seen by the mouse, when `to_move` is to move.
    pub fn for_mouse(self, to_move: Side) -> Score {
        match to_move {
            Side::Mouse => self,
            Side::Cats => match self {
                Score::Win(n) => Score::Loss(n),
                Score::Loss(n) => Score::Win(n),
                Score::Eval(s) => Score::Eval(-s),
            },
        }
    }
}

impl From<Value> for Score {
    fn from(v: Value) -> Score {
        match v {
            Value::Win(n) => Score::Win(n),
            Value::Loss(n) => Score::Loss(n),
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
            Score::Eval(s) => write!(f, "{s:+}"),
        }
    }
}

/// A play level, 1 to 10: levels 1 to 9 search 2 x level plies; level 10 plays perfectly from the exact
/// solution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The perfect level.
    pub const PERFECT: Level = Level(10);

    /// A level, checked.
    pub fn new(n: u8) -> Result<Level, SettingError> {
        if (1..=10).contains(&n) {
            Ok(Level(n))
        } else {
            Err(SettingError::OutOfRange {
                name: "level",
                min: 1,
                max: 10,
                value: n.into(),
            })
        }
    }

    /// The number, 1 to 10.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The search depth in plies, or `None` for the perfect level.
    pub fn depth(self) -> Option<u8> {
        if self.0 >= 10 { None } else { Some(2 * self.0) }
    }
}

impl Default for Level {
    /// Level 5: a 10-ply search.
    fn default() -> Level {
        Level(5)
    }
}

/// Check a search depth (1 to [`MAX_DEPTH`]).
pub fn check_depth(depth: i64) -> Result<u8, SettingError> {
    if (1..=i64::from(MAX_DEPTH)).contains(&depth) {
        Ok(depth as u8)
    } else {
        Err(SettingError::OutOfRange {
            name: "depth",
            min: 1,
            max: MAX_DEPTH.into(),
            value: depth,
        })
    }
}

/// Settings of an [`Engine`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineConfig {
    /// The end-of-game rule.
    pub rule: Rule,
    /// The transposition tables, or `None` to search without them.
    pub tables: Option<TableConfig>,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            rule: Rule::FarRow,
            tables: Some(TableConfig::default()),
        }
    }
}

/// One finished depth of the iterative deepening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<M = Move> {
    /// The depth searched.
    pub depth: u8,
    /// The score found, from the side to move's point of view.
    pub score: Score,
    /// Nodes visited so far in this search (all depths up to this one).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation at this depth.
    pub pv: Vec<M>,
}

/// What one search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M = Move> {
    /// The move to play; `None` when the game is already over.
    pub best_move: Option<M>,
    /// The score, from the side to move's point of view.
    pub score: Score,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// The last depth searched to the end (for the perfect level: the plies to the end of the game).
    pub depth: u8,
    /// Positions visited (every call of the search, leaves included).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// What the tables did during this search (zero without tables).
    pub table_stats: TableStats,
    /// The move came from the exact solution (the perfect level).
    pub perfect: bool,
    /// The time limit or a stop request cut the search short (the result is from the last full depth).
    pub stopped: bool,
    /// Each finished depth of the iterative deepening, shallowest first (empty for the perfect level and
    /// for a finished game).
    pub iterations: Vec<Iteration<M>>,
}

impl<M> SearchResult<M> {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }

    /// The same result with every move converted by `f` (an 8x8 result in the general move type, say).
    pub fn map_moves<N>(self, f: impl Fn(M) -> N) -> SearchResult<N> {
        let list = |pv: Vec<M>| pv.into_iter().map(&f).collect();
        SearchResult {
            best_move: self.best_move.map(&f),
            score: self.score,
            pv: list(self.pv),
            depth: self.depth,
            nodes: self.nodes,
            elapsed: self.elapsed,
            table_stats: self.table_stats,
            perfect: self.perfect,
            stopped: self.stopped,
            iterations: self
                .iterations
                .into_iter()
                .map(|i| Iteration {
                    depth: i.depth,
                    score: i.score,
                    nodes: i.nodes,
                    elapsed: i.elapsed,
                    pv: list(i.pv),
                })
                .collect(),
        }
    }
}

/// The alpha-beta engine, for positions of type `P`: the classic 8x8 [`Position`] (the default) or
/// [`SizedPosition`](crate::SizedPosition) on any board. It keeps its transposition tables between
/// searches (as the C64 program did); [`Engine::clear_tables`] empties them.
///
/// ```
/// use mousecats::{Position, search::{Engine, EngineConfig, Level}};
/// let mut engine = Engine::new(EngineConfig::default()).unwrap();
/// let result = engine.think(&Position::start(), Level::new(3).unwrap(), None);
/// let best = result.best_move.unwrap();
/// assert!(Position::start().moves().contains(&best));
/// assert_eq!(result.pv[0], best);
/// ```
pub struct Engine<P: BoardPosition = Position> {
    rule: Rule,
    tables: Option<TranspositionTables<P>>,
    solution: Option<Arc<Solution>>,
    stop: Arc<AtomicBool>,
    // Search state.
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    may_stop: bool,
    pv: Vec<[P::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    root_first: Option<P::Move>,
}

impl<P: BoardPosition> std::fmt::Debug for Engine<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("rule", &self.rule)
            .field("tables", &self.tables)
            .field("solved", &self.solution.is_some())
            .finish()
    }
}

impl Engine<Position> {
    /// The exact 8x8 solution for the engine's rule: the one given to [`Engine::set_solution`], else the
    /// process-wide [`Solution::cached`] one (solved on first use, in a few milliseconds).
    pub fn solution(&mut self) -> Arc<Solution> {
        let rule = self.rule;
        Arc::clone(self.solution.get_or_insert_with(|| Solution::cached(rule)))
    }
}

impl<P: BoardPosition> Engine<P> {
    /// An engine with `config`.
    ///
    /// # Errors
    /// A [`SettingError`] if the table settings are out of range.
    pub fn new(config: EngineConfig) -> Result<Engine<P>, SettingError> {
        if let Some(c) = &config.tables {
            c.validate()?;
        }
        Ok(Engine::with_checked(
            config,
            Arc::new(AtomicBool::new(false)),
        ))
    }

    /// An engine with `config`, whose table settings were validated, stopped by `stop`.
    pub(crate) fn with_checked(config: EngineConfig, stop: Arc<AtomicBool>) -> Engine<P> {
        Engine {
            rule: config.rule,
            tables: config.tables.map(TranspositionTables::with_checked),
            solution: None,
            stop,
            nodes: 0,
            deadline: None,
            stopped: false,
            may_stop: false,
            pv: vec![[P::NULL_MOVE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            root_first: None,
        }
    }

    /// The end-of-game rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The transposition tables, if the engine has them.
    pub fn tables(&self) -> Option<&TranspositionTables<P>> {
        self.tables.as_ref()
    }

    /// The tables' counters since they were created or cleared.
    pub fn table_stats(&self) -> TableStats {
        self.tables
            .as_ref()
            .map(TranspositionTables::stats)
            .unwrap_or_default()
    }

    /// Empty the tables and zero their counters.
    pub fn clear_tables(&mut self) {
        if let Some(t) = self.tables.as_mut() {
            t.clear();
        }
    }

    /// A flag that, once set, stops the current search (from another thread) at the next check; the
    /// search then returns its last full depth (depth 1 always completes, so there is a move). A search
    /// does not clear it: a stop set before a search starts (say, while the task that will run it waits
    /// for a thread) stops that search too, and every later one, until the owner clears it with
    /// [`Engine::clear_stop`] once it has its engine back.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Clear the stop flag (see [`Engine::stop_handle`]), so that the next search runs to its depth.
    pub fn clear_stop(&mut self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// Use an already computed exact solution (it must be for the engine's rule, else it is ignored).
    pub fn set_solution(&mut self, solution: Arc<Solution>) {
        if solution.rule() == self.rule {
            self.solution = Some(solution);
        }
    }

    /// The exact solution of `size` for the engine's rule: the one given to [`Engine::set_solution`] if
    /// it is of that size, else the process-wide [`Solution::cached_size`] one; `None` beyond
    /// [`MAX_TABLE_SIZE`], where no whole table is kept.
    pub fn solution_for(&mut self, size: BoardSize) -> Option<Arc<Solution>> {
        if let Some(s) = &self.solution
            && s.size() == size
        {
            return Some(Arc::clone(s));
        }
        let s = Solution::cached_size(size, self.rule).ok()?;
        self.solution = Some(Arc::clone(&s));
        Some(s)
    }

    /// Choose a move at `level`, within `time` if given. Level 10 plays perfectly from the exact table;
    /// on boards beyond [`MAX_TABLE_SIZE`], which have none, it searches as level 9 does.
    pub fn think(
        &mut self,
        pos: &P,
        level: Level,
        time: Option<Duration>,
    ) -> SearchResult<P::Move> {
        match level.depth() {
            Some(depth) => self.search(pos, depth, time),
            None if pos.board_size() <= MAX_TABLE_SIZE => self.perfect(pos),
            None => self.search(pos, 18, time),
        }
    }

    /// The perfect move from the exact solution (on boards beyond [`MAX_TABLE_SIZE`]: a level 9 search).
    pub fn perfect(&mut self, pos: &P) -> SearchResult<P::Move> {
        let t0 = Instant::now();
        let Some(solution) = self.solution_for(pos.board_size()) else {
            return self.search(pos, 18, None);
        };
        let value = solution.value(pos);
        let pv = solution.perfect_line(pos);
        SearchResult {
            best_move: pv.first().copied(),
            score: value.into(),
            depth: value.plies(),
            pv,
            nodes: 0,
            elapsed: t0.elapsed(),
            table_stats: TableStats::default(),
            perfect: true,
            stopped: false,
            iterations: Vec::new(),
        }
    }

    /// Search `pos` by iterative deepening to `depth` plies (clamped to 1..=[`MAX_DEPTH`]), within `time`
    /// if given. Stops early once a win or loss is proven. The move returned is always legal.
    pub fn search(&mut self, pos: &P, depth: u8, time: Option<Duration>) -> SearchResult<P::Move> {
        let t0 = Instant::now();
        let depth = depth.clamp(1, MAX_DEPTH);
        let before = self.table_stats();
        self.nodes = 0;
        self.deadline = time.map(|t| t0 + t);
        self.stopped = false;
        self.root_first = None;

        let mut result = SearchResult {
            best_move: None,
            score: Score::Eval(0),
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            table_stats: TableStats::default(),
            perfect: false,
            stopped: false,
            iterations: Vec::new(),
        };

        if pos.outcome(self.rule).is_some() {
            self.nodes = 1;
            result.score = Score::from_raw(self.terminal_score(pos, 0));
        } else {
            for d in 1..=depth {
                // Depth 1 always completes, so there is always a move.
                self.may_stop = d > 1;
                let score = self.negamax(pos, i32::from(d), 0, -INF, INF);
                if self.stopped {
                    result.stopped = true;
                    break;
                }
                let pv: Vec<P::Move> = self.pv[0][..self.pv_len[0]].to_vec();
                result.best_move = pv.first().copied();
                result.pv = pv;
                result.score = Score::from_raw(score);
                result.depth = d;
                result.iterations.push(Iteration {
                    depth: d,
                    score: result.score,
                    nodes: self.nodes,
                    elapsed: t0.elapsed(),
                    pv: result.pv.clone(),
                });
                self.root_first = result.best_move;
                // A proven result cannot change with more depth.
                if matches!(result.score, Score::Win(n) | Score::Loss(n) if n <= d) {
                    break;
                }
            }
            // Keep only the legal prefix of the principal variation (it always is, but be safe).
            let mut p = *pos;
            let mut keep = 0;
            for &m in &result.pv {
                if p.outcome(self.rule).is_some() || !p.is_move(m) {
                    break;
                }
                p = p.make_move(m);
                keep += 1;
            }
            result.pv.truncate(keep);
            if result.best_move != result.pv.first().copied() {
                result.best_move = pos.legal_moves(self.rule).first().copied();
                result.pv = result.best_move.into_iter().collect();
            }
        }
        result.nodes = self.nodes;
        result.elapsed = t0.elapsed();
        result.table_stats = self.table_stats().since(&before);
        result
    }

    /// The score of a finished game at `ply` from the side to move's view.
    #[inline]
    fn terminal_score(&self, pos: &P, ply: usize) -> i32 {
        let win = WIN_SCORE - ply as i32;
        match pos.outcome(self.rule) {
            Some(w) if w == pos.turn() => win,
            _ => -win,
        }
    }

    #[inline]
    fn poll(&mut self) {
        if !self.may_stop {
            return;
        }
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
    }

    fn negamax(&mut self, pos: &P, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if self.nodes & 0xFFF == 0 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        if pos.mouse_has_won(self.rule) {
            let win = WIN_SCORE - ply as i32;
            return if pos.turn() == Side::Mouse { win } else { -win };
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            if !pos.has_moves() {
                return -(WIN_SCORE - ply as i32);
            }
            return pos.evaluate();
        }

        let pv_node = beta - alpha > 1;
        let moves = pos.moves();
        let n = moves.len();
        if n == 0 {
            return -(WIN_SCORE - ply as i32);
        }
        let mut first: Option<usize> = if ply == 0 {
            self.root_first
                .and_then(|f| moves.iter().position(|&m| m == f))
        } else {
            None
        };
        let use_table = depth >= MIN_TABLE_DEPTH;
        if use_table
            && let Some(t) = self.tables.as_mut()
            && let Some(e) = t.probe_raw(pos)
        {
            if first.is_none() {
                first = e.best.map(usize::from).filter(|&i| i < n);
            }
            if !pv_node && i32::from(e.depth) >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // The children will look themselves up: start fetching their slots now.
        if depth > MIN_TABLE_DEPTH
            && let Some(t) = self.tables.as_ref()
        {
            let side = pos.turn().opponent();
            for &m in moves.iter() {
                t.prefetch(pos.hash_after(m), side);
            }
        }

        let mut order: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
        if let Some(k) = first {
            order[..=k].rotate_right(1);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_index = order[0];
        for (i, &k) in order[..n].iter().enumerate() {
            let m = moves[usize::from(k)];
            let child = pos.make_move(m);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                if s > alpha && s < beta && pv_node {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_index = k;
                if score > alpha {
                    alpha = score;
                    // The principal variation: this move, then the child's.
                    let len = self.pv_len[ply + 1];
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][0] = m;
                    head[ply][1..=len].copy_from_slice(&tail[0][..len]);
                    self.pv_len[ply] = len + 1;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        if use_table && let Some(t) = self.tables.as_mut() {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            t.store_raw(
                pos,
                Some(best_index),
                to_table(best, ply),
                depth as u8,
                bound,
            );
        }
        best
    }
}

/// Win scores are stored relative to the stored position, not the root.
#[inline]
fn to_table(s: i32, ply: usize) -> i16 {
    let p = ply as i32;
    let v = if s > WIN_BOUND {
        s + p
    } else if s < -WIN_BOUND {
        s - p
    } else {
        s
    };
    v.clamp(-INF, INF) as i16
}

#[inline]
fn from_table(s: i16, ply: usize) -> i32 {
    let s = i32::from(s);
    let p = ply as i32;
    if s > WIN_BOUND {
        s - p
    } else if s < -WIN_BOUND {
        s + p
    } else {
        s
    }
}

const _: () = assert!(MAX_EVAL < WIN_BOUND);

/// An engine can be moved to a worker thread (a user interface searches in the background).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Engine>();
    send::<SearchResult>();
    send::<Solution>();
};
