//! A Mouse & Cats game in progress: the player against the engine at levels 1 to 10 (10 is perfect play from the
//! exact solution), a hint and "who wins from here", undo and redo, and what the engine's panel shows (score,
//! principal variation, nodes, the position's hash and lock, the tables' counters).
//!
//! Every even board from 4x4 to 16x16 can be played ([`MouseOptions::size`], 8x8 by default), under every rule
//! (far row, escape, region), from any free dark square for the mouse, either side first. On boards whose whole
//! exact table is kept (up to 10x10, [`MAX_TABLE_SIZE`]) the hint and "who wins" come from the exact solution
//! and level 10 plays perfectly; on bigger boards there is no exact value: the hint and "who wins" come from an
//! engine search at the game's level (the messages say so, and [`MouseView::exact`] is false), and the levels
//! are 1 to 9.
//!
//! The rules, the engine and the exact solution are the `mousecats` crate's. The engine thinks in a task for
//! the [`Env`]'s runner (so a screen keeps drawing), within the session's time limit if one is set; the exact
//! solution is solved once per board size and rule and kept in the `Env`'s [`MouseSolutions`]. On 8x8 the
//! engine is the classic 8x8 one (the general one searches 8x8 move for move and node for node alike, only
//! slower); positions and moves are the general [`SizedPosition`] and [`SizedMove`] on every board.
//!
//! How a front end drives it: each action ([`MouseSession::play`], [`MouseSession::undo`],
//! [`MouseSession::hint`], ...) returns the message to show, or a [`MouseError`] whose message says why it was
//! refused. When the engine's answer or the solution is not ready yet ([`MouseSession::busy`]), a screen calls
//! [`MouseSession::poll`] on its timer and a server calls [`MouseSession::settle`] (inside its blocking pool,
//! with `Env::mouse_time_limit` or [`MouseSession::set_time_limit`] bounding the engine). [`MouseSession::view`] is the whole state for
//! drawing (serializable, so a web page can be sent it as JSON); [`MouseSession::save`] and
//! [`crate::Session::load`] move the game through the shared save format. The session is `Send`.
//!
//! ```
//! use play::Env;
//! use play::mouse::{MouseOptions, MouseSession};
//! use mousecats::{BoardSize, Rule, Side};
//!
//! // The cats at level 10 (perfect play) against a mouse that always plays the first legal move.
//! let env = Env::blocking();
//! let mut game = MouseSession::new(MouseOptions { level: 10, ..MouseOptions::default() }, &env)?;
//! while !game.is_over() {
//!     let mv = game.legal_moves()[0];
//!     game.play(mv)?; // the engine answers at once with a blocking runner
//! }
//! assert_eq!(game.view().winner, Some("cats".to_string()));
//!
//! // A 6x6 board under gilith/solve's region rule: there the mouse wins from the start.
//! let six = MouseOptions { rule: Rule::Region, ..MouseOptions::for_size(BoardSize::new(6)?) };
//! let mut game = MouseSession::new(six, &env)?;
//! assert_eq!(game.who_wins().text, "With best play from here the mouse wins in 21 plies (you win).");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mousecats::search::{Engine, EngineConfig, Iteration, Level, Score, SearchResult};
use mousecats::solve::MAX_TABLE_SIZE;
use mousecats::tt::{TableConfig, TableStats};
use mousecats::{
    BoardPosition, BoardSize, Coord, Move, Position, Rule, Side, SizedMove, SizedPosition,
    Solution, SolveError, Square, Value,
};
use serde::{Deserialize, Serialize};

use crate::history::History;
use crate::options::{Choice, value_of};
use crate::save::{SaveFile, field, history_steps};
use crate::work::{Outcome, Pending, submit};
use crate::{Env, GameKind, Message, Tone};

/// The squares where the mouse may start on 8x8 (the dark squares of row 1); [`mouse_starts`] for any board.
pub const MOUSE_STARTS: [&str; 4] = ["A1", "C1", "E1", "G1"];

/// The board sizes a menu offers (every size can be played; these fit a terminal of 80x24).
pub const MENU_SIZES: [u8; 5] = [4, 6, 8, 10, 12];

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "The board is a chessboard; pieces stand only on the dark squares (A1 is dark, bottom left). One mouse (M) \
     starts on row 1, four cats (C) on B8, D8, F8 and H8. Other boards, from 4x4 to 12x12 here, have N/2 cats \
     on the dark squares of row N.",
    "The mouse moves one square diagonally in any direction. A cat moves one square diagonally forward only, \
     towards row 1. The square moved to must be empty; nobody jumps or captures.",
    "The mouse wins by reaching the far row (row 8 on 8x8). A side that cannot move loses: a trapped mouse means \
     the cats win. Under the escape rule the mouse also wins once it stands on a row no lower than every cat; \
     under the region rule, once it stands on a square no cat can ever reach beside another such square. Cats \
     only move forward, so a game never ends in a draw (on 8x8 it lasts at most 57 plies).",
    "With best play the cats win on 8x8 from every start. The engine's levels 1 to 9 search 2 to 18 plies \
     ahead; level 10 knows the exact value of every position (on boards up to 10x10, where the whole exact \
     table is kept; beyond, hints come from the engine's search and no exact value is shown). The panel shows \
     the engine's score (from its own side), its principal variation (PV) and the nodes searched, the \
     position's Zobrist hash and lock, and what the hash tables did: a collision is caught when the lock of a \
     stored entry does not match the position's.",
];

/// The options of a game. In a save file the board size is written only when it is not 8x8 and the far-row
/// rule keeps the first release's name `row8` on 8x8, so an 8x8 game saves exactly as it always did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "SavedOptions", try_from = "SavedOptions")]
pub struct MouseOptions {
    /// The side the player plays.
    pub player: Side,
    /// The engine's level, 1 to 10 (1 to 9 beyond [`MAX_TABLE_SIZE`]).
    pub level: u8,
    /// The board.
    pub size: BoardSize,
    /// The mouse's start square: a free dark square of the board.
    pub mouse_start: Coord,
    /// The side that moves first.
    pub first: Side,
    /// The end-of-game rule.
    pub rule: Rule,
}

impl Default for MouseOptions {
    /// The mouse against the engine at level 5 on 8x8, from E1, the mouse first, the row 8 rule.
    fn default() -> MouseOptions {
        MouseOptions {
            player: Side::Mouse,
            level: 5,
            size: BoardSize::EIGHT,
            mouse_start: Coord::from(Square::E1),
            first: Side::Mouse,
            rule: Rule::FarRow,
        }
    }
}

/// [`MouseOptions`] as a save file holds them.
#[derive(Serialize, Deserialize)]
struct SavedOptions {
    #[serde(with = "text_form")]
    player: Side,
    level: u8,
    /// N; absent on 8x8 (and in every save written before other boards could be played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<u32>,
    /// Absent (in a new game's options): the board's default square.
    #[serde(default)]
    mouse_start: Option<String>,
    #[serde(with = "text_form")]
    first: Side,
    rule: String,
}

impl From<MouseOptions> for SavedOptions {
    fn from(o: MouseOptions) -> SavedOptions {
        let eight = o.size == BoardSize::EIGHT;
        SavedOptions {
            player: o.player,
            level: o.level,
            size: (!eight).then_some(u32::from(o.size.n())),
            mouse_start: Some(o.mouse_start.to_string()),
            first: o.first,
            // The first release wrote `row8`; it stays the 8x8 name.
            rule: match o.rule {
                Rule::FarRow if eight => "row8".to_string(),
                other => other.name().to_string(),
            },
        }
    }
}

impl TryFrom<SavedOptions> for MouseOptions {
    type Error = String;

    fn try_from(s: SavedOptions) -> Result<MouseOptions, String> {
        let size = match s.size {
            Some(n) => BoardSize::new(n).map_err(|e| e.to_string())?,
            None => BoardSize::EIGHT,
        };
        Ok(MouseOptions {
            player: s.player,
            level: s.level,
            size,
            mouse_start: match s.mouse_start {
                Some(text) => text
                    .parse()
                    .map_err(|e: mousecats::SquareError| e.to_string())?,
                None => size.default_mouse(),
            },
            first: s.first,
            rule: Rule::parse_for(&s.rule, size).map_err(|e| e.to_string())?,
        })
    }
}

impl MouseOptions {
    /// The default options on `size`: the mouse on the board's default square
    /// ([`BoardSize::default_mouse`]), the rest as [`MouseOptions::default`].
    pub fn for_size(size: BoardSize) -> MouseOptions {
        MouseOptions {
            size,
            mouse_start: size.default_mouse(),
            ..MouseOptions::default()
        }
    }

    /// The options `choices` describe (as returned by [`choices`], possibly changed).
    ///
    /// # Errors
    /// [`MouseError::Setup`] naming the value that is not a side, a level, a board, a square or a rule.
    pub fn from_choices(choices: &[Choice]) -> Result<MouseOptions, MouseError> {
        let get =
            |label: &str, default: &str| value_of(choices, label).unwrap_or(default).to_string();
        let setup = |e: String| MouseError::Setup(e);
        let side = |s: String| s.parse::<Side>().map_err(|e| setup(e.to_string()));
        let size: BoardSize = get("Board", "8x8")
            .parse()
            .map_err(|e: mousecats::ParseError| setup(e.to_string()))?;
        let level: u8 = get("Level", "5")
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| setup("the level is not a number".into()))?;
        let rule_text = get("Rule", "row 8");
        let rule = match Rule::ALL
            .into_iter()
            .find(|&r| rule_label_for(r, size) == rule_text)
        {
            Some(r) => r,
            None => Rule::parse_for(&rule_text.replace(' ', ""), size)
                .map_err(|e| setup(e.to_string()))?,
        };
        let opts = MouseOptions {
            player: side(get("Play as", "mouse"))?,
            level,
            size,
            mouse_start: get("Mouse starts", &size.default_mouse().to_string())
                .parse()
                .map_err(|e: mousecats::SquareError| setup(e.to_string()))?,
            first: side(get("First move", "mouse"))?,
            rule,
        };
        opts.check()?;
        Ok(opts)
    }

    /// Check the level (level 10 needs the board's exact table) and the start.
    ///
    /// # Errors
    /// [`MouseError::Setup`]: a level out of range, level 10 beyond [`MAX_TABLE_SIZE`], a start square that
    /// is not the mouse's.
    pub fn check(&self) -> Result<(), MouseError> {
        let level = self.engine_level()?;
        if level.depth().is_none() && !has_table(self.size) {
            return Err(MouseError::Setup(format!(
                "level 10 plays from the exact table, which is kept for boards up to {MAX_TABLE_SIZE}; on {} pick a level from 1 to 9",
                self.size
            )));
        }
        self.start()?;
        Ok(())
    }

    fn engine_level(&self) -> Result<Level, MouseError> {
        Level::new(self.level).map_err(|e| MouseError::Setup(e.to_string()))
    }

    fn start(&self) -> Result<SizedPosition, MouseError> {
        SizedPosition::start_with(self.size, self.mouse_start, self.first)
            .map_err(|e| MouseError::Setup(e.to_string()))
    }

    /// The side the engine plays.
    pub fn engine_side(&self) -> Side {
        self.player.opponent()
    }
}

/// Whether the whole exact table of `size` is kept (hints and level 10 from the exact solution).
pub fn has_table(size: BoardSize) -> bool {
    size <= MAX_TABLE_SIZE
}

/// "4 (8 plies)", "10 (perfect)".
pub fn level_label(level: u8) -> String {
    match Level::new(level).ok().and_then(Level::depth) {
        Some(d) => format!("{level} ({d} plies)"),
        None => format!("{level} (perfect)"),
    }
}

/// A rule as a menu and a heading name it on 8x8: "row 8", "escape", "region".
pub fn rule_label(rule: Rule) -> &'static str {
    match rule {
        Rule::FarRow => "row 8",
        Rule::Escape => "escape",
        Rule::Region => "region",
    }
}

/// A rule as a menu and a heading name it on `size`: "row 10", "escape", "region".
pub fn rule_label_for(rule: Rule, size: BoardSize) -> String {
    match rule {
        Rule::FarRow => format!("row {}", size.n()),
        other => rule_label(other).to_string(),
    }
}

/// The dark squares of row 1 of `size`, where a menu lets the mouse start: A1, C1, E1, ...
pub fn mouse_starts(size: BoardSize) -> Vec<Coord> {
    (0..size.n())
        .step_by(2)
        .filter_map(|f| Coord::new(f, 0))
        .collect()
}

/// The options of a game, with their default values, for a menu (8x8; [`refresh`] fits them to another
/// board when the "Board" option changes).
pub fn choices() -> Vec<Choice> {
    let mut c = vec![
        Choice::new(
            "Play as",
            vec!["mouse".into(), "cats".into()],
            0,
            "The side you play; the engine plays the other. With best play the cats win from every 8x8 start.",
        ),
        Choice::new(
            "Level",
            (1..=Level::PERFECT.number()).map(level_label).collect(),
            4,
            "Levels 1 to 9 search 2 to 18 plies with alpha-beta and hash tables; level 10 plays perfectly \
             from the exact solution of the whole game (boards up to 10x10).",
        ),
        Choice::new(
            "Mouse starts",
            MOUSE_STARTS.iter().map(ToString::to_string).collect(),
            2,
            "The mouse's square on row 1 (E1 is the classic start).",
        ),
        Choice::new(
            "First move",
            vec!["mouse".into(), "cats".into()],
            0,
            "Which side moves first.",
        ),
        Choice::new(
            "Rule",
            Rule::ALL.map(|r| rule_label(r).to_string()).to_vec(),
            0,
            "row N: the mouse wins on reaching the far row. escape: it also wins as soon as it stands level \
             with or above every cat. region: it also wins once it stands where no cat can ever reach, beside \
             another such square (gilith/solve's rule).",
        ),
        Choice::new(
            "Board",
            MENU_SIZES.iter().map(|&n| format!("{n}x{n}")).collect(),
            2,
            "The board: N/2 cats on row N. The whole exact table (hints, level 10) is kept up to 10x10; on \
             12x12 the hints come from the engine's search.",
        ),
    ];
    refresh(&mut c);
    c
}

/// Fit the options to the board chosen: the mouse's start squares (the old one kept if the board has it, else
/// the board's default), the far-row rule's name, and the levels (no level 10 without the exact table).
pub fn refresh(choices: &mut [Choice]) {
    let Some(size) = value_of(choices, "Board").and_then(|v| v.parse::<BoardSize>().ok()) else {
        return;
    };
    for c in choices.iter_mut() {
        match c.label.as_str() {
            "Mouse starts" => {
                let old = c.value().to_string();
                let starts = mouse_starts(size);
                c.selected = starts
                    .iter()
                    .position(|s| s.to_string() == old)
                    .or_else(|| starts.iter().position(|&s| s == size.default_mouse()))
                    .unwrap_or(0);
                c.values = starts.iter().map(ToString::to_string).collect();
            }
            "Rule" => {
                c.values = Rule::ALL.map(|r| rule_label_for(r, size)).to_vec();
            }
            "Level" => {
                let top = if has_table(size) {
                    Level::PERFECT.number()
                } else {
                    Level::PERFECT.number() - 1
                };
                c.values = (1..=top).map(level_label).collect();
                c.selected = c.selected.min(c.values.len() - 1);
            }
            _ => {}
        }
    }
}

/// The exact solutions of the game, one per board size and rule, solved once and shared by every session of an
/// [`Env`]. Only boards up to [`MAX_TABLE_SIZE`] have one.
#[derive(Clone, Default)]
pub struct MouseSolutions {
    solved: Arc<Mutex<HashMap<(BoardSize, Rule), SolutionCell>>>,
}

/// One solution, solved at most once.
type SolutionCell = Arc<OnceLock<Arc<Solution>>>;

impl MouseSolutions {
    /// An empty cache.
    pub fn new() -> MouseSolutions {
        MouseSolutions::default()
    }

    fn cell(&self, size: BoardSize, rule: Rule) -> SolutionCell {
        match self.solved.lock() {
            Ok(mut map) => Arc::clone(map.entry((size, rule)).or_default()),
            // A poisoned lock only means another thread panicked while holding it: solve privately.
            Err(_) => Arc::new(OnceLock::new()),
        }
    }

    /// The 8x8 solution for `rule` if it is solved already.
    pub fn get(&self, rule: Rule) -> Option<Arc<Solution>> {
        self.get_for(BoardSize::EIGHT, rule)
    }

    /// The 8x8 solution for `rule`, solving it now if needed (a few milliseconds; blocks).
    pub fn get_or_solve(&self, rule: Rule) -> Arc<Solution> {
        match self.get_or_solve_for(BoardSize::EIGHT, rule) {
            Ok(s) => s,
            // 8x8 always has a table.
            Err(_) => Arc::new(Solution::solve(rule)),
        }
    }

    /// The solution of `size` for `rule` if it is solved already.
    pub fn get_for(&self, size: BoardSize, rule: Rule) -> Option<Arc<Solution>> {
        if !has_table(size) {
            return None;
        }
        self.cell(size, rule).get().cloned()
    }

    /// The solution of `size` for `rule`, solving it now if needed (blocks: milliseconds up to 8x8, about a
    /// quarter of a second and 210 MB on 10x10).
    ///
    /// # Errors
    /// [`SolveError::TableTooLarge`] beyond [`MAX_TABLE_SIZE`], where no whole table is kept.
    pub fn get_or_solve_for(
        &self,
        size: BoardSize,
        rule: Rule,
    ) -> Result<Arc<Solution>, SolveError> {
        if !has_table(size) {
            // The error says how much the table would take.
            return Solution::solve_size(size, rule, true).map(Arc::new);
        }
        Ok(Arc::clone(self.cell(size, rule).get_or_init(|| {
            #[allow(clippy::expect_used)]
            // The size was checked above: every board up to MAX_TABLE_SIZE has a table.
            Arc::new(Solution::solve_size(size, rule, true).expect("a board with a table"))
        })))
    }
}

impl fmt::Debug for MouseSolutions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MouseSolutions")
    }
}

/// Why an action was refused. Each message is one line and names the move or the square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MouseError {
    /// The options name something that is not there.
    #[error("{0}")]
    Setup(String),
    /// The game is over.
    #[error("The game is over: n starts a new one, u takes moves back")]
    Over,
    /// The engine is thinking.
    #[error("Wait a moment: the engine is thinking")]
    Thinking,
    /// It is the engine's move.
    #[error("It is the {0}' move")]
    NotYourTurn(Side),
    /// Text that is not a move.
    #[error("\"{0}\" is not a move: type the two squares, e.g. E1F2 or e1-f2")]
    Typed(String),
    /// A move with a square off the board (the move and the square named).
    #[error("{0}")]
    OffBoard(String),
    /// A move that is not legal here (the rules' reason).
    #[error("{0}")]
    Illegal(String),
}

impl MouseError {
    /// How the message should be taken.
    pub fn tone(&self) -> Tone {
        match self {
            MouseError::Over | MouseError::Thinking | MouseError::NotYourTurn(_) => Tone::Warn,
            _ => Tone::Error,
        }
    }

    /// The error as a message to show.
    pub fn message(&self) -> Message {
        Message::new(self.to_string(), self.tone())
    }
}

/// The engine of a session: the classic 8x8 one on 8x8 (it searches exactly as the general one, faster), the
/// general one on every other board.
enum AnyEngine {
    Eight(Box<Engine<Position>>),
    Sized(Box<Engine<SizedPosition>>),
}

impl AnyEngine {
    fn new(size: BoardSize, rule: Rule) -> Result<AnyEngine, MouseError> {
        let config = EngineConfig {
            rule,
            tables: Some(TableConfig::default()),
        };
        let setup = |e: mousecats::SettingError| MouseError::Setup(e.to_string());
        Ok(if size == BoardSize::EIGHT {
            AnyEngine::Eight(Box::new(Engine::new(config).map_err(setup)?))
        } else {
            AnyEngine::Sized(Box::new(Engine::new(config).map_err(setup)?))
        })
    }

    fn stop_handle(&self) -> Arc<AtomicBool> {
        match self {
            AnyEngine::Eight(e) => e.stop_handle(),
            AnyEngine::Sized(e) => e.stop_handle(),
        }
    }

    fn clear_tables(&mut self) {
        match self {
            AnyEngine::Eight(e) => e.clear_tables(),
            AnyEngine::Sized(e) => e.clear_tables(),
        }
    }

    fn set_solution(&mut self, solution: Arc<Solution>) {
        match self {
            AnyEngine::Eight(e) => e.set_solution(solution),
            AnyEngine::Sized(e) => e.set_solution(solution),
        }
    }

    fn clear_stop(&mut self) {
        match self {
            AnyEngine::Eight(e) => e.clear_stop(),
            AnyEngine::Sized(e) => e.clear_stop(),
        }
    }

    /// Think at `level` (`depth`: search that many plies instead).
    fn think(
        &mut self,
        pos: &SizedPosition,
        level: Level,
        depth: Option<u8>,
        time: Option<Duration>,
    ) -> SearchResult<SizedMove> {
        match self {
            AnyEngine::Eight(e) => match Position::try_from(*pos) {
                Ok(p) => widen(match depth {
                    Some(d) => e.search(&p, d, time),
                    None => e.think(&p, level, time),
                }),
                // Never: an 8x8 session has 8x8 positions; an empty answer is reported as no move.
                Err(_) => widen(SearchResult {
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
                }),
            },
            AnyEngine::Sized(e) => match depth {
                Some(d) => e.search(pos, d, time),
                None => e.think(pos, level, time),
            },
        }
    }
}

/// An 8x8 search result in the general move type.
fn widen(r: SearchResult<Move>) -> SearchResult<SizedMove> {
    let moves = |pv: Vec<Move>| {
        pv.into_iter()
            .map(<SizedMove as From<Move>>::from)
            .collect()
    };
    SearchResult {
        best_move: r.best_move.map(<SizedMove as From<Move>>::from),
        score: r.score,
        pv: moves(r.pv),
        depth: r.depth,
        nodes: r.nodes,
        elapsed: r.elapsed,
        table_stats: r.table_stats,
        perfect: r.perfect,
        stopped: r.stopped,
        iterations: r
            .iterations
            .into_iter()
            .map(|i| Iteration {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                elapsed: i.elapsed,
                pv: moves(i.pv),
            })
            .collect(),
    }
}

/// What the engine task was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Its move, to be played.
    Move,
    /// A question the exact solution cannot answer on this board (bigger than [`MAX_TABLE_SIZE`]).
    Ask(Want),
}

/// What the engine task hands back.
struct Thought {
    engine: AnyEngine,
    result: SearchResult<SizedMove>,
    /// The move list it thought about (to check it still applies).
    moves: Vec<SizedMove>,
    purpose: Purpose,
}

/// A question waiting for the exact solution (or, without one, for the engine's search).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Hint,
    WhoWins,
}

/// The engine's last search, for a panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EngineView {
    /// The side the engine plays.
    pub side: String,
    /// Its score from its own side: `win`, `loss` (in `plies`) or `eval` (`value`).
    pub score: ScoreView,
    /// The principal variation, compact (`e1f2`).
    pub pv: Vec<String>,
    /// The depth searched (the plies to the end for perfect play).
    pub depth: u8,
    /// Positions searched.
    pub nodes: u64,
    /// Whether the move came from the exact solution.
    pub perfect: bool,
}

/// An engine score from the engine's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ScoreView {
    /// The engine wins in this many plies.
    Win {
        /// Plies.
        plies: u8,
    },
    /// The engine loses in this many plies.
    Loss {
        /// Plies.
        plies: u8,
    },
    /// A heuristic evaluation, positive good for the engine.
    Eval {
        /// The value.
        value: i32,
    },
}

/// The hash tables' settings and counters since the game started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TablesView {
    /// Each of the two tables has 2^`index_bits` entries.
    pub index_bits: u8,
    /// Bits of the lock stored and checked.
    pub lock_bits: u8,
    /// Lookups.
    pub probes: u64,
    /// Lookups that found the position.
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Stores over another position's entry.
    pub collisions: u64,
    /// Lookups that found another position's entry and saw it by its lock.
    pub lock_mismatches: u64,
}

/// What a front end draws: the whole state of a Mouse & Cats game, read-only and serializable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MouseView {
    /// The options.
    pub options: MouseOptions,
    /// N, of the N x N board (files A.., rows 1..N).
    pub size: u8,
    /// The rule as a heading names it: "row 10", "escape", "region".
    pub rule_text: String,
    /// Whether the exact solution of this board is kept (boards up to 10x10): hints and "who wins" are exact.
    /// When false they come from the engine's search, and a front end says that no exact value is available.
    pub exact: bool,
    /// "5 (10 plies)".
    pub level_text: String,
    /// The mouse's square (`E1`).
    pub mouse: String,
    /// The cats' squares.
    pub cats: Vec<String>,
    /// The side to move.
    pub turn: String,
    /// The moves played (`E1-F2`).
    pub moves: Vec<String>,
    /// The legal moves of the side to move (`E1-F2`; none once the game is over).
    pub legal: Vec<String>,
    /// The winner, once the game is over.
    pub winner: Option<String>,
    /// Whether the engine is thinking.
    pub thinking: bool,
    /// The move hinted at, if a hint is shown.
    pub hint: Option<String>,
    /// The engine's last search.
    pub engine: Option<EngineView>,
    /// The position's Zobrist hash, 16 hex digits.
    pub hash: String,
    /// The position's lock, 8 hex digits.
    pub lock: String,
    /// The hash tables.
    pub tables: TablesView,
    /// Whether the engine panel is to be shown.
    pub panel: bool,
    /// Whether undo would do something.
    pub can_undo: bool,
    /// Whether redo would do something.
    pub can_redo: bool,
}

/// A Mouse & Cats game in progress against the engine.
pub struct MouseSession {
    env: Env,
    opts: MouseOptions,
    start: SizedPosition,
    /// The move list at each point where the player is to move (undo goes back one such point).
    hist: History<Vec<SizedMove>>,
    game: mousecats::Game<SizedPosition>,
    engine: Option<AnyEngine>,
    stop: Arc<AtomicBool>,
    thinking: Option<Pending<Thought>>,
    /// A time limit for each engine move (none: the level's depth alone).
    time_limit: Option<Duration>,
    solving: Option<Pending<Arc<Solution>>>,
    want: Option<Want>,
    /// The last search, shown in the panel.
    last_search: Option<SearchResult<SizedMove>>,
    /// The tables' counters since the game started.
    table_stats: TableStats,
    hint: Option<SizedMove>,
    panel: bool,
    dirty: bool,
    /// A message from the engine's move made while the session was being built (with a runner that works at
    /// once), handed out by the next [`MouseSession::poll`] or [`MouseSession::settle`].
    news: Option<Message>,
}

impl fmt::Debug for MouseSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MouseSession")
            .field("opts", &self.opts)
            .field("moves", &self.game.moves())
            .finish_non_exhaustive()
    }
}

impl MouseSession {
    /// A new game. When the engine moves first it starts thinking (with [`Env::blocking`], it has moved when
    /// this returns).
    ///
    /// # Errors
    /// [`MouseError::Setup`] for options that [`MouseOptions::check`] refuses.
    pub fn new(opts: MouseOptions, env: &Env) -> Result<MouseSession, MouseError> {
        MouseSession::with_moves(opts, Vec::new(), env)
    }

    fn with_moves(
        opts: MouseOptions,
        moves: Vec<SizedMove>,
        env: &Env,
    ) -> Result<MouseSession, MouseError> {
        opts.check()?;
        let start = opts.start()?;
        let game = replay(&start, opts.rule, &moves).map_err(MouseError::Illegal)?;
        let engine = AnyEngine::new(opts.size, opts.rule)?;
        let stop = engine.stop_handle();
        let mut s = MouseSession {
            env: env.clone(),
            opts,
            start,
            hist: History::new(moves),
            game,
            engine: Some(engine),
            stop,
            thinking: None,
            time_limit: env.mouse_time_limit,
            solving: None,
            want: None,
            last_search: None,
            table_stats: TableStats::default(),
            hint: None,
            panel: true,
            dirty: false,
            news: None,
        };
        // The exact solution takes a moment up to 8x8; it is ready long before the first hint is asked for.
        // The 10x10 one takes about a quarter of a second and 210 MB: it is solved when first needed.
        if opts.size <= BoardSize::EIGHT {
            s.solve_in_background();
        }
        // When the engine moves first, its move (now or later) is news for the first poll, whatever the runner.
        s.news = s.after_change();
        Ok(s)
    }

    /// The first message of a game.
    pub fn opening(&self) -> Message {
        Message::info(format!(
            "You are the {}. {}",
            self.opts.player,
            if self.opts.player == Side::Mouse {
                format!("Reach row {} past the cats.", self.opts.size.n())
            } else {
                "Trap the mouse before it gets past you.".to_string()
            }
        ))
    }

    /// Whether this board's exact solution is kept (hints, "who wins" and level 10 are exact).
    pub fn exact(&self) -> bool {
        has_table(self.opts.size)
    }

    fn solve_in_background(&mut self) {
        let (size, rule) = (self.opts.size, self.opts.rule);
        if !has_table(size)
            || self.env.mouse_solutions.get_for(size, rule).is_some()
            || self.solving.is_some()
        {
            return;
        }
        let cache = self.env.mouse_solutions.clone();
        self.solving = Some(submit(&*self.env.runner, move || {
            match cache.get_or_solve_for(size, rule) {
                Ok(s) => s,
                // Never: the size has a table (checked above).
                Err(e) => panic!("{e}"),
            }
        }));
    }

    /// The options.
    pub fn options(&self) -> &MouseOptions {
        &self.opts
    }

    /// The board.
    pub fn size(&self) -> BoardSize {
        self.opts.size
    }

    /// Limit the time of each engine move (a server's per-request limit); `None`: the level's depth alone. A new
    /// session starts with the [`Env`]'s `mouse_time_limit`, which also bounds an engine move made while it is
    /// built.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    /// The current position.
    pub fn position(&self) -> &SizedPosition {
        self.game.position()
    }

    /// The moves played.
    pub fn moves(&self) -> &[SizedMove] {
        self.game.moves()
    }

    /// The legal moves now.
    pub fn legal_moves(&self) -> Vec<SizedMove> {
        self.game.legal_moves().iter().copied().collect()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Side> {
        self.game.winner()
    }

    /// Whether the engine is thinking (about its move, or about a hint on a board without an exact table).
    pub fn thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The move hinted at, if a hint is shown.
    pub fn hint_move(&self) -> Option<SizedMove> {
        self.hint
    }

    /// Forget the hint shown.
    pub fn clear_hint(&mut self) {
        self.hint = None;
    }

    /// Whether `sq` holds a piece of the player's side.
    pub fn is_players(&self, sq: Coord) -> bool {
        let pos = self.position();
        match self.opts.player {
            Side::Mouse => pos.mouse() == sq,
            Side::Cats => pos.has_cat(sq),
        }
    }

    /// A square of the player's side (where a cursor starts).
    pub fn home_square(&self) -> Coord {
        let pos = self.position();
        match self.opts.player {
            Side::Mouse => pos.mouse(),
            Side::Cats => pos.cat_squares().first().copied().unwrap_or(pos.mouse()),
        }
    }

    /// Where the piece on `from` can go, in square order (row 1 first, file A first).
    pub fn targets(&self, from: Coord) -> Vec<Coord> {
        self.game
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect::<std::collections::BTreeSet<Coord>>()
            .into_iter()
            .collect()
    }

    /// After any change of the move list: the end, or the engine's turn to think. The game-over message, if
    /// the game ended.
    fn after_change(&mut self) -> Option<Message> {
        if let Some(winner) = self.game.winner() {
            return Some(self.game_over_message(winner));
        }
        if self.position().turn() == self.opts.engine_side() && self.thinking.is_none() {
            return self.think(Purpose::Move);
        }
        None
    }

    /// The message of a finished game.
    pub fn game_over_message(&self, winner: Side) -> Message {
        let how = how_won(self.position(), self.opts.rule, winner);
        let text = format!(
            "Game over: {how}. The {} win{}! n: new game, u: undo.",
            winner,
            if winner == Side::Mouse { "s" } else { "" }
        );
        if winner == self.opts.player {
            Message::good(text)
        } else {
            Message::warn(text)
        }
    }

    /// Start the engine on the current position, for its move or for a question; with a runner that works at
    /// once, its answer is taken now (the message).
    fn think(&mut self, purpose: Purpose) -> Option<Message> {
        let mut engine = self.engine.take()?;
        let Ok(level) = self.opts.engine_level() else {
            self.engine = Some(engine);
            return None;
        };
        let pos = *self.position();
        let moves = self.game.moves().to_vec();
        let (cache, size, rule, time) = (
            self.env.mouse_solutions.clone(),
            self.opts.size,
            self.opts.rule,
            self.time_limit,
        );
        // A question is answered by a search at the game's level (level 10 is only offered with a table).
        let depth = match purpose {
            Purpose::Move => None,
            Purpose::Ask(_) => Some(level.depth().unwrap_or(18)),
        };
        let pending = submit(&*self.env.runner, move || {
            if purpose == Purpose::Move && level.depth().is_none() {
                // Perfect play: the exact solution from the caller's cache, never a process-wide one.
                if let Ok(solution) = cache.get_or_solve_for(size, rule) {
                    engine.set_solution(solution);
                }
            }
            let result = engine.think(&pos, level, depth, time);
            Thought {
                engine,
                result,
                moves,
                purpose,
            }
        });
        match pending.poll() {
            Some(outcome) => self.take_thought(outcome),
            None => {
                self.thinking = Some(pending);
                None
            }
        }
    }

    /// Take the engine's answer: the message to show.
    fn take_thought(&mut self, outcome: Outcome<Thought>) -> Option<Message> {
        self.thinking = None;
        let t = match outcome {
            Outcome::Done(t) => t,
            Outcome::Failed(why) => {
                // A fresh engine, so the game can go on.
                if let Ok(e) = AnyEngine::new(self.opts.size, self.opts.rule) {
                    self.stop = e.stop_handle();
                    self.engine = Some(e);
                }
                return Some(Message::error(format!("The engine failed: {why}")));
            }
        };
        self.table_stats = self.table_stats.plus(&t.result.table_stats);
        self.engine = Some(t.engine);
        if t.moves != self.game.moves() {
            // The game moved on (undo, new game) while the engine was thinking.
            return None;
        }
        if let Purpose::Ask(want) = t.purpose {
            return Some(self.searched_answer(want, &t.result));
        }
        let Some(mv) = t.result.best_move else {
            self.last_search = Some(t.result);
            return None;
        };
        match self.game.play(mv) {
            Ok(()) => {
                *self.hist.present_mut() = self.game.moves().to_vec();
                self.last_search = Some(t.result);
                self.hint = None;
                let msg = Message::info(match self.opts.engine_side() {
                    Side::Mouse => format!("The mouse plays {mv}."),
                    Side::Cats => format!("The cats play {mv}."),
                });
                Some(self.after_change().unwrap_or(msg))
            }
            Err(e) => Some(Message::error(format!(
                "The engine chose an illegal move: {e}"
            ))),
        }
    }

    /// The answer to a question from a search, on a board without an exact table: it says so.
    fn searched_answer(&mut self, want: Want, r: &SearchResult<SizedMove>) -> Message {
        let turn = self.position().turn();
        let says = match r.score {
            Score::Win(n) => format!("the {} win{} in {n} plies", turn, plural_s(turn)),
            Score::Loss(n) => {
                let w = turn.opponent();
                format!("the {w} win{} in {n} plies", plural_s(w))
            }
            Score::Eval(v) => format!(
                "no forced win within {} plies; it scores {v:+} for the {turn}",
                r.depth
            ),
        };
        // "an 8-ply", "an 18-ply", "a 10-ply".
        let article = if matches!(r.depth, 8 | 11 | 18) || (80..90).contains(&r.depth) {
            "an"
        } else {
            "a"
        };
        let search = format!("{article} {}-ply search", r.depth);
        let no_exact = format!(
            "no exact value is available on {} (the exact table is kept up to {MAX_TABLE_SIZE})",
            self.opts.size
        );
        match want {
            Want::Hint => match r.best_move {
                Some(mv) => {
                    self.hint = Some(mv);
                    Message::info(format!("Hint: {mv} ({search}: {says}; {no_exact})."))
                }
                None => Message::info("There is no move to hint at."),
            },
            Want::WhoWins => Message::info(format!(
                "{}. {} says: {says}.",
                capitalise(&no_exact),
                capitalise(&search)
            )),
        }
    }

    /// Stop the engine if it is thinking, and wait for it to hand the engine back; its result is dropped (the
    /// game is about to change under it).
    fn stop_thinking(&mut self) {
        if let Some(job) = self.thinking.take() {
            // The flag stays set until the engine is back (a search does not clear it), so a stop set before
            // the task began stops its search too.
            self.stop.store(true, Ordering::Relaxed);
            let outcome = job.wait();
            match outcome {
                Outcome::Done(mut t) => {
                    t.engine.clear_stop();
                    self.table_stats = self.table_stats.plus(&t.result.table_stats);
                    self.engine = Some(t.engine);
                }
                failed => {
                    self.take_thought(failed);
                }
            }
        }
    }

    /// The player plays `mv` (an 8x8 [`Move`] or a [`SizedMove`]); the engine answers (at once with a
    /// blocking runner, else at a later [`MouseSession::poll`]).
    ///
    /// # Errors
    /// The game is over, the engine is thinking, it is not the player's move, a square is off the board, the
    /// move is illegal.
    pub fn play(&mut self, mv: impl Into<SizedMove>) -> Result<Message, MouseError> {
        let mv: SizedMove = mv.into();
        // An action answers for itself: older news is not shown after it.
        self.news = None;
        if self.game.is_over() {
            return Err(MouseError::Over);
        }
        if self.thinking.is_some() {
            return Err(MouseError::Thinking);
        }
        if self.position().turn() != self.opts.player {
            return Err(MouseError::NotYourTurn(self.position().turn()));
        }
        let size = self.opts.size;
        if let Some(off) = [mv.from(), mv.to()]
            .into_iter()
            .find(|&c| !size.contains(c))
        {
            return Err(MouseError::OffBoard(format!(
                "{mv}: {off} is off the {size} board (its squares are A1..{})",
                size.last_square()
            )));
        }
        self.game
            .play(mv)
            .map_err(|e| MouseError::Illegal(e.to_string()))?;
        self.hist.push(self.game.moves().to_vec());
        self.dirty = true;
        self.hint = None;
        let msg = Message::info(format!("You play {mv}."));
        Ok(self.after_change().unwrap_or(msg))
    }

    /// Play a move typed as text: `E1F2`, `e1-f2`.
    ///
    /// # Errors
    /// [`MouseError::Typed`] for text that is not a move; then as [`MouseSession::play`].
    pub fn play_text(&mut self, text: &str) -> Result<Message, MouseError> {
        let mv = MouseSession::parse_move(text)?;
        self.play(mv)
    }

    /// A move typed as text: `E1F2`, `e1-f2`, `J10-K11` (whether it is legal is not checked here).
    ///
    /// # Errors
    /// [`MouseError::Typed`] for text that is not a move.
    pub fn parse_move(text: &str) -> Result<SizedMove, MouseError> {
        text.parse::<SizedMove>()
            .map_err(|_| MouseError::Typed(text.trim().to_string()))
    }

    /// Rebuild the game from the move list the history now shows.
    fn sync_from_history(&mut self) {
        // Every list in the history was checked when it was played or loaded.
        if let Ok(g) = replay(&self.start, self.opts.rule, self.hist.present()) {
            self.game = g;
        }
        self.hint = None;
        self.last_search = None;
        self.dirty = true;
        self.after_change();
    }

    /// Take back the player's last move (and the engine's answer).
    pub fn undo(&mut self) -> Message {
        self.news = None;
        self.stop_thinking();
        if self.hist.undo() {
            self.sync_from_history();
            Message::info("Took back your last move")
        } else {
            self.after_change();
            Message::info("Nothing to undo")
        }
    }

    /// Play the move taken back again.
    ///
    /// # Errors
    /// [`MouseError::Thinking`] while the engine thinks.
    pub fn redo(&mut self) -> Result<Message, MouseError> {
        self.news = None;
        if self.thinking.is_some() {
            return Err(MouseError::Thinking);
        }
        Ok(if self.hist.redo() {
            self.sync_from_history();
            Message::info("Replayed the move")
        } else {
            Message::info("Nothing to redo")
        })
    }

    /// A new game with the same options.
    pub fn new_game(&mut self) -> Message {
        self.news = None;
        self.stop_thinking();
        self.hist.reset(Vec::new());
        self.game = mousecats::Game::new(self.start, self.opts.rule);
        if let Some(e) = self.engine.as_mut() {
            e.clear_tables();
        }
        self.table_stats = TableStats::default();
        self.last_search = None;
        self.hint = None;
        self.dirty = false;
        self.after_change()
            .unwrap_or_else(|| Message::info("A new game."))
    }

    /// Change sides with the engine: the game goes on from where it is (when it is now the engine's move, it
    /// thinks), and undo starts again from here (it goes back over the moves of the side now played).
    pub fn swap_sides(&mut self) -> Message {
        self.news = None;
        self.stop_thinking();
        self.opts.player = self.opts.player.opponent();
        self.hist.reset(self.game.moves().to_vec());
        self.last_search = None;
        self.dirty = true;
        self.hint = None;
        let msg = Message::info(format!(
            "You now play the {}; the engine plays the {}.",
            self.opts.player,
            self.opts.engine_side()
        ));
        self.after_change().unwrap_or(msg)
    }

    /// A hint for the player's move: from the exact solution (when the solution is not ready, the hint comes
    /// with a later [`MouseSession::poll`]); on a board without an exact table, from an engine search at the
    /// game's level, saying that no exact value is available.
    pub fn hint(&mut self) -> Message {
        self.ask(Want::Hint)
    }

    /// Who wins from here with best play, and in how many plies (when the solution is not ready, the answer
    /// comes with a later [`MouseSession::poll`]). On a board without an exact table: that no exact value is
    /// available, and what an engine search says.
    pub fn who_wins(&mut self) -> Message {
        self.ask(Want::WhoWins)
    }

    fn ask(&mut self, want: Want) -> Message {
        self.news = None;
        if !self.exact() {
            return self.ask_engine(want);
        }
        let Some(sol) = self
            .env
            .mouse_solutions
            .get_for(self.opts.size, self.opts.rule)
        else {
            self.want = Some(want);
            self.solve_in_background();
            return match self.poll_solution() {
                Some(msg) => msg,
                None => Message::info("Working it out…"),
            };
        };
        let pos = *self.position();
        if self.game.is_over() {
            return Message::info("The game is over.");
        }
        match want {
            Want::WhoWins => {
                let value = sol.value(&pos);
                let winner = value.winner(pos.turn());
                let you = if winner == self.opts.player {
                    "you win"
                } else {
                    "you lose"
                };
                let text = format!(
                    "With best play from here the {winner} win{} in {} plies ({you}).",
                    plural_s(winner),
                    value.plies()
                );
                if winner == self.opts.player {
                    Message::good(text)
                } else {
                    Message::warn(text)
                }
            }
            Want::Hint => {
                if pos.turn() != self.opts.player {
                    return Message::info("Hints are for your own move.");
                }
                let Some(advice) = advice(&sol, &pos) else {
                    return Message::info("There is no move to hint at.");
                };
                let mv = advice.best;
                let why = match advice.value {
                    Value::Win(n) => format!("it keeps your win (in {n} plies)"),
                    Value::Loss(n) => format!(
                        "you cannot win against best play; it holds out longest ({n} plies)"
                    ),
                };
                self.hint = Some(mv);
                Message::info(format!("Hint: {mv}: {why}."))
            }
        }
    }

    /// A question on a board without an exact table: the engine searches.
    fn ask_engine(&mut self, want: Want) -> Message {
        if self.game.is_over() {
            return Message::info("The game is over.");
        }
        if want == Want::Hint && self.position().turn() != self.opts.player {
            return Message::info("Hints are for your own move.");
        }
        if self.thinking.is_some() {
            return MouseError::Thinking.message();
        }
        match self.think(Purpose::Ask(want)) {
            Some(msg) => msg,
            None if self.thinking.is_some() => Message::info(format!(
                "Searching (no exact value is available on {})…",
                self.opts.size
            )),
            None => Message::error("The engine is not available"),
        }
    }

    /// Collect the solution if it was being solved, and answer a question waiting for it.
    fn poll_solution(&mut self) -> Option<Message> {
        let outcome = self.solving.as_ref()?.poll()?;
        self.solving = None;
        let want = self.want.take()?;
        Some(match outcome {
            Outcome::Done(_) => self.ask(want),
            // The cache stays empty: the next question tries again.
            Outcome::Failed(why) => Message::error(format!("The exact solution failed: {why}")),
        })
    }

    /// Collect finished background work (the exact solution, the engine's move or search): the message to
    /// show, if one came. Call it regularly while [`MouseSession::busy`].
    pub fn poll(&mut self) -> Option<Message> {
        let mut msg = self.poll_solution().or(self.news.take());
        if let Some(outcome) = self.thinking.as_ref().and_then(Pending::poll) {
            msg = self.take_thought(outcome).or(msg);
        }
        msg
    }

    /// Block until the background work is done (the solution solved, the engine's move played): the last
    /// message, if any. This is the call for a server's blocking pool (the engine's time is bounded by
    /// [`MouseSession::set_time_limit`]).
    pub fn settle(&mut self) -> Option<Message> {
        let mut msg = self.news.take();
        if let Some(job) = self.solving.take() {
            let outcome = job.wait();
            if let Some(want) = self.want.take() {
                msg = Some(match outcome {
                    Outcome::Done(_) => self.ask(want),
                    Outcome::Failed(why) => {
                        Message::error(format!("The exact solution failed: {why}"))
                    }
                });
            }
        }
        while let Some(job) = self.thinking.take() {
            let outcome = job.wait();
            msg = self.take_thought(outcome).or(msg);
        }
        msg
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        self.thinking.is_some() || self.solving.is_some()
    }

    /// Show or hide the engine panel (a setting kept in the save).
    pub fn toggle_panel(&mut self) {
        self.panel = !self.panel;
    }

    /// Whether the engine panel is shown.
    pub fn panel(&self) -> bool {
        self.panel
    }

    /// Whether something changed since the start or the last [`MouseSession::mark_saved`] (and the game is
    /// on).
    pub fn unsaved(&self) -> bool {
        self.dirty && !self.game.is_over()
    }

    /// Note that the game was just saved.
    pub fn mark_saved(&mut self) {
        self.dirty = false;
    }

    /// The engine's last search (for the panel; the CLI prints its depth, score and nodes).
    pub fn last_search(&self) -> Option<&SearchResult<SizedMove>> {
        self.last_search.as_ref()
    }

    /// The whole state, for drawing.
    pub fn view(&self) -> MouseView {
        let pos = self.position();
        let tc = TableConfig::default();
        let st = &self.table_stats;
        MouseView {
            options: self.opts,
            size: self.opts.size.n(),
            rule_text: rule_label_for(self.opts.rule, self.opts.size),
            exact: self.exact(),
            level_text: level_label(self.opts.level),
            mouse: pos.mouse().to_string(),
            cats: pos.cat_squares().iter().map(|s| s.to_string()).collect(),
            turn: pos.turn().to_string(),
            moves: self.game.moves().iter().map(ToString::to_string).collect(),
            legal: self
                .game
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect(),
            winner: self.game.winner().map(|w| w.to_string()),
            thinking: self.thinking.is_some(),
            hint: self.hint.map(|m| m.to_string()),
            engine: self.last_search.as_ref().map(|r| EngineView {
                side: self.opts.engine_side().to_string(),
                score: match r.score {
                    Score::Win(plies) => ScoreView::Win { plies },
                    Score::Loss(plies) => ScoreView::Loss { plies },
                    Score::Eval(value) => ScoreView::Eval { value },
                },
                pv: r.pv.iter().map(|m| m.to_compact()).collect(),
                depth: r.depth,
                nodes: r.nodes,
                perfect: r.perfect,
            }),
            hash: format!("{:016X}", pos.hash()),
            lock: format!("{:08X}", pos.lock()),
            tables: TablesView {
                index_bits: tc.index_bits,
                lock_bits: tc.lock_bits,
                probes: st.probes,
                hits: st.hits,
                stores: st.stores,
                collisions: st.collisions,
                lock_mismatches: st.lock_mismatches,
            },
            panel: self.panel,
            can_undo: self.hist.can_undo(),
            can_redo: self.hist.can_redo(),
        }
    }

    /// The game's state for a save file (the `state` of a [`SaveFile`]).
    pub fn to_state(&self) -> serde_json::Value {
        let list = |moves: &[SizedMove]| moves.iter().map(|m| m.to_compact()).collect::<Vec<_>>();
        serde_json::json!({
            "options": self.opts,
            "moves": list(self.hist.present()),
            "undo": self.hist.past().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "redo": self.hist.future().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "panel": self.panel,
        })
    }

    /// The game as a save file.
    pub fn save(&self) -> SaveFile {
        SaveFile::new(GameKind::Mouse, self.to_state())
    }

    /// Rebuild a saved game from its state, replaying every move list of the game and its history. When it is
    /// the engine's move it starts thinking.
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the move.
    pub fn from_state(state: &serde_json::Value, env: &Env) -> Result<MouseSession, String> {
        let opts: MouseOptions = field(state, "options")?;
        opts.check().map_err(|e| e.to_string())?;
        let start = opts.start().map_err(|e| e.to_string())?;
        let parse = |what: &str, list: Vec<String>| -> Result<Vec<SizedMove>, String> {
            list.iter()
                .enumerate()
                .map(|(i, m)| {
                    m.parse::<SizedMove>()
                        .map_err(|_| format!("{what}: move {} \"{m}\" is not a move", i + 1))
                })
                .collect()
        };
        let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<SizedMove>, String> {
            let moves = parse(what, list)?;
            replay(&start, opts.rule, &moves).map_err(|e| format!("{what}: {e}"))?;
            Ok(moves)
        };
        // The game's own moves are named by their number alone: "move 2 (H8-H1): ...".
        let moves = parse("the moves", field(state, "moves")?)?;
        replay(&start, opts.rule, &moves)?;
        let (past, future) = history_steps(state, parse_list)?;
        let panel: bool = field(state, "panel")?;
        let mut s =
            MouseSession::with_moves(opts, moves.clone(), env).map_err(|e| e.to_string())?;
        s.hist = History::from_parts(past, s.game.moves().to_vec(), future);
        s.panel = panel;
        Ok(s)
    }
}

/// "s" after a side's name in "the mouse wins", none in "the cats win".
fn plural_s(side: Side) -> &'static str {
    if side == Side::Mouse { "s" } else { "" }
}

/// The text with its first letter in capitals.
fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// How a finished game was won, in words ("the mouse reached row 8", "the mouse is trapped"): the one
/// classification of the end of a game for the terminal, the web page and `boardlab mouse play`, on every board
/// size. `winner` is the game's winner under `rule` in `pos`.
pub fn how_won<P: BoardPosition>(pos: &P, rule: Rule, winner: Side) -> String {
    let far_row = pos.board_size().n();
    match winner {
        Side::Mouse if rule == Rule::Region && pos.mouse_has_won(Rule::Region) => {
            "the mouse got where no cat can reach".into()
        }
        Side::Mouse if pos.mouse_square().row() + 1 == far_row => {
            format!("the mouse reached row {far_row}")
        }
        Side::Mouse if rule == Rule::Escape && pos.mouse_has_won(Rule::Escape) => {
            "the mouse got past every cat".into()
        }
        Side::Mouse => "the cats cannot move".into(),
        Side::Cats => "the mouse is trapped".into(),
    }
}

/// What the exact solution advises in a position: a best move, every move that keeps the value, and the
/// value for the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advice<M> {
    /// The move a hint names (the first of `keeping`).
    pub best: M,
    /// Every move that keeps the value: for the winner the fastest wins, for the loser the longest defences.
    pub keeping: Vec<M>,
    /// The position's value for the side to move.
    pub value: Value,
}

/// The exact solution's advice in `pos` (any board size the solution is for), or `None` when the game is
/// over: the one hint of the terminal, the web page and `boardlab mouse play`.
///
/// # Panics
/// If `pos` is on another board size than `sol` (as [`Solution::value`]).
pub fn advice<P: BoardPosition>(sol: &Solution, pos: &P) -> Option<Advice<P::Move>> {
    let keeping = sol.value_keeping_moves(pos);
    let best = *keeping.first()?;
    Some(Advice {
        best,
        keeping,
        value: sol.value(pos),
    })
}

/// Play `moves` from `start`, checking each.
fn replay(
    start: &SizedPosition,
    rule: Rule,
    moves: &[SizedMove],
) -> Result<mousecats::Game<SizedPosition>, String> {
    let mut g = mousecats::Game::new(*start, rule);
    for (i, &m) in moves.iter().enumerate() {
        g.play(m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(g)
}

/// Sides ("mouse", "cats") and squares ("E1") in save files: as they print and parse.
mod text_form {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr<Err: Display>,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(|e: T::Err| D::Error::custom(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_labels() {
        assert_eq!(level_label(1), "1 (2 plies)");
        assert_eq!(level_label(9), "9 (18 plies)");
        assert_eq!(level_label(10), "10 (perfect)");
    }

    #[test]
    fn options_from_the_menu() {
        let mut c = choices();
        assert_eq!(MouseOptions::from_choices(&c), Ok(MouseOptions::default()));
        c[0].selected = 1;
        c[1].selected = 9;
        c[4].selected = 1;
        let o = MouseOptions::from_choices(&c).unwrap();
        assert_eq!((o.player, o.level, o.rule), (Side::Cats, 10, Rule::Escape));
        c[1].values[9] = "eleven".into();
        assert!(MouseOptions::from_choices(&c).is_err());
    }

    #[test]
    fn the_menu_fits_the_board() {
        let mut c = choices();
        let board = c.iter().position(|c| c.label == "Board").unwrap();
        // 12x12: no level 10 (no exact table), row 12, the mouse's default start G1.
        c[board].selected = MENU_SIZES.iter().position(|&n| n == 12).unwrap();
        c[1].selected = 9;
        c[2].selected = 2; // E1 on 8x8
        refresh(&mut c);
        assert_eq!(c[1].values.len(), 9);
        assert_eq!(c[1].selected, 8);
        assert_eq!(c[2].values, ["A1", "C1", "E1", "G1", "I1", "K1"]);
        assert_eq!(c[2].value(), "E1", "a start the new board has is kept");
        assert_eq!(c[4].values, ["row 12", "escape", "region"]);
        c[4].selected = 0;
        let o = MouseOptions::from_choices(&c).unwrap();
        assert_eq!(o.size, BoardSize::new(12).unwrap());
        assert_eq!(
            (o.level, o.rule, o.mouse_start.to_string()),
            (9, Rule::FarRow, "E1".into())
        );
        // 4x4: the start E1 is not there; the board's default C1 is taken.
        c[board].selected = 0;
        refresh(&mut c);
        assert_eq!(c[2].values, ["A1", "C1"]);
        assert_eq!(c[2].value(), "C1");
        assert_eq!(c[1].values.len(), 10);
        c[4].selected = 2;
        let o = MouseOptions::from_choices(&c).unwrap();
        assert_eq!((o.size.n(), o.rule), (4, Rule::Region));
    }

    #[test]
    fn options_save_as_the_first_release_did_on_8x8() {
        let o = MouseOptions::default();
        let j = serde_json::to_value(o).unwrap();
        assert_eq!(
            j,
            serde_json::json!({"first": "mouse", "level": 5, "mouse_start": "E1", "player": "mouse", "rule": "row8"})
        );
        let ten = MouseOptions {
            rule: Rule::FarRow,
            ..MouseOptions::for_size(BoardSize::new(10).unwrap())
        };
        let j = serde_json::to_value(ten).unwrap();
        assert_eq!(j["size"], 10);
        assert_eq!(j["rule"], "far-row");
        assert_eq!(serde_json::from_value::<MouseOptions>(j).unwrap(), ten);
        // Bad sizes and the 8x8 rule name on another board are refused with a reason.
        for (edit, want) in [
            (serde_json::json!({"size": 9}), "bad board size '9'"),
            (serde_json::json!({"size": 10, "rule": "row8"}), "row8"),
            (
                serde_json::json!({"size": 6, "rule": "far-row", "mouse_start": "G1"}),
                "G1 is off the 6x6 board",
            ),
        ] {
            let mut j = serde_json::to_value(MouseOptions::default()).unwrap();
            for (k, v) in edit.as_object().unwrap() {
                j[k] = v.clone();
            }
            let e = serde_json::from_value::<MouseOptions>(j)
                .map(|o| o.check().map_err(|e| e.to_string()))
                .map_err(|e| e.to_string());
            let text = match e {
                Err(e) | Ok(Err(e)) => e,
                Ok(Ok(())) => String::new(),
            };
            assert!(text.contains(want), "{text:?} lacks {want:?}");
        }
    }
}
