//! A Mouse & Cats game in progress: the player against the engine at levels 1 to 10 (10 is perfect play from the
//! exact solution), a hint and "who wins from here" from the exact solution, undo and redo, and what the
//! engine's panel shows (score, principal variation, nodes, the position's hash and lock, the tables' counters).
//!
//! The rules, the engine and the exact solution are the `mousecats` crate's. The engine thinks in a task for
//! the [`Env`]'s runner (so a screen keeps drawing), within the session's time limit if one is set; the exact
//! solution is solved once per rule and kept in the `Env`'s [`MouseSolutions`].
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
//! use mousecats::Side;
//!
//! // The cats at level 10 (perfect play) against a mouse that always plays the first legal move.
//! let env = Env::blocking();
//! let mut game = MouseSession::new(MouseOptions { level: 10, ..MouseOptions::default() }, &env)?;
//! while !game.is_over() {
//!     let mv = game.legal_moves()[0];
//!     game.play(mv)?; // the engine answers at once with a blocking runner
//! }
//! assert_eq!(game.view().winner, Some("cats".to_string()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mousecats::search::{Engine, EngineConfig, Level, Score, SearchResult};
use mousecats::tt::{TableConfig, TableStats};
use mousecats::{BoardPosition, Move, Position, Rule, Side, Solution, Square, Value};
use serde::{Deserialize, Serialize};

use crate::history::History;
use crate::options::{Choice, value_of};
use crate::save::{SaveFile, field, history_steps};
use crate::work::{Outcome, Pending, submit};
use crate::{Env, GameKind, Message, Tone};

/// How often a stop request is repeated while waiting for the engine to stop.
const STOP_POLL: Duration = Duration::from_millis(5);

/// The squares where the mouse may start (the dark squares of row 1).
pub const MOUSE_STARTS: [&str; 4] = ["A1", "C1", "E1", "G1"];

/// The rules, as paragraphs of plain text.
pub const RULES: &[&str] = &[
    "The board is a chessboard; pieces stand only on the dark squares (A1 is dark, bottom left). One mouse (M) \
     starts on row 1, four cats (C) on B8, D8, F8 and H8.",
    "The mouse moves one square diagonally in any direction. A cat moves one square diagonally forward only, \
     towards row 1. The square moved to must be empty; nobody jumps or captures.",
    "The mouse wins by reaching row 8. A side that cannot move loses: a trapped mouse means the cats win. Under \
     the escape rule the mouse also wins once it stands on a row no lower than every cat. Cats only move \
     forward, so a game lasts at most 57 plies and never ends in a draw.",
    "With best play the cats always win. The engine's levels 1 to 9 search 2 to 18 plies ahead; level 10 knows \
     the exact value of every position. The panel shows the engine's score (from its own side), its principal \
     variation (PV) and the nodes searched, the position's Zobrist hash and lock, and what the hash tables did: \
     a collision is caught when the lock of a stored entry does not match the position's.",
];

/// The options of a game, saved as they are (new options get a `#[serde(default)]`, so older saves load).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MouseOptions {
    /// The side the player plays.
    #[serde(with = "text_form")]
    pub player: Side,
    /// The engine's level, 1 to 10.
    pub level: u8,
    /// The mouse's start square.
    #[serde(with = "text_form")]
    pub mouse_start: Square,
    /// The side that moves first.
    #[serde(with = "text_form")]
    pub first: Side,
    /// The end-of-game rule.
    #[serde(with = "rule_name")]
    pub rule: Rule,
}

impl Default for MouseOptions {
    /// The mouse against the engine at level 5, from E1, the mouse first, the row 8 rule.
    fn default() -> MouseOptions {
        MouseOptions {
            player: Side::Mouse,
            level: 5,
            mouse_start: Square::E1,
            first: Side::Mouse,
            rule: Rule::FarRow,
        }
    }
}

impl MouseOptions {
    /// The options `choices` describe (as returned by [`choices`], possibly changed).
    ///
    /// # Errors
    /// [`MouseError::Setup`] naming the value that is not a side, a level, a square or a rule.
    pub fn from_choices(choices: &[Choice]) -> Result<MouseOptions, MouseError> {
        let get =
            |label: &str, default: &str| value_of(choices, label).unwrap_or(default).to_string();
        let setup = |e: String| MouseError::Setup(e);
        let side = |s: String| s.parse::<Side>().map_err(|e| setup(e.to_string()));
        let level: u8 = get("Level", "5")
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| setup("the level is not a number".into()))?;
        let opts = MouseOptions {
            player: side(get("Play as", "mouse"))?,
            level,
            mouse_start: get("Mouse starts", "E1")
                .parse()
                .map_err(|e: mousecats::SquareError| setup(e.to_string()))?,
            first: side(get("First move", "mouse"))?,
            rule: get("Rule", "row 8")
                .replace(' ', "")
                .parse()
                .map_err(|e: mousecats::ParseError| setup(e.to_string()))?,
        };
        opts.check()?;
        Ok(opts)
    }

    /// Check the level and the start.
    ///
    /// # Errors
    /// [`MouseError::Setup`]: a level out of range, a start square that is not the mouse's.
    pub fn check(&self) -> Result<(), MouseError> {
        self.engine_level()?;
        self.start()?;
        Ok(())
    }

    fn engine_level(&self) -> Result<Level, MouseError> {
        Level::new(self.level).map_err(|e| MouseError::Setup(e.to_string()))
    }

    fn start(&self) -> Result<Position, MouseError> {
        Position::start_with(self.mouse_start, self.first)
            .map_err(|e| MouseError::Setup(e.to_string()))
    }

    /// The side the engine plays.
    pub fn engine_side(&self) -> Side {
        self.player.opponent()
    }
}

/// "4 (8 plies)", "10 (perfect)".
pub fn level_label(level: u8) -> String {
    match Level::new(level).ok().and_then(Level::depth) {
        Some(d) => format!("{level} ({d} plies)"),
        None => format!("{level} (perfect)"),
    }
}

/// A rule as a menu and a heading name it: "row 8", "escape", "region".
pub fn rule_label(rule: Rule) -> &'static str {
    match rule {
        Rule::FarRow => "row 8",
        Rule::Escape => "escape",
        Rule::Region => "region",
    }
}

/// The options of a game, with their default values, for a menu.
pub fn choices() -> Vec<Choice> {
    vec![
        Choice::new(
            "Play as",
            vec!["mouse".into(), "cats".into()],
            0,
            "The side you play; the engine plays the other. With best play the cats win from every start.",
        ),
        Choice::new(
            "Level",
            (1..=Level::PERFECT.number()).map(level_label).collect(),
            4,
            "Levels 1 to 9 search 2 to 18 plies with alpha-beta and hash tables; level 10 plays perfectly \
             from the exact solution of the whole game.",
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
            [Rule::FarRow, Rule::Escape]
                .map(|r| rule_label(r).to_string())
                .to_vec(),
            0,
            "row 8: the mouse wins on reaching row 8. escape: it also wins as soon as it stands level with or \
             above every cat, since the cats can no longer stop it.",
        ),
    ]
}

/// The exact solutions of the game, one per rule, solved once and shared by every session of an [`Env`].
#[derive(Clone, Default)]
pub struct MouseSolutions {
    solved: Arc<Mutex<HashMap<Rule, SolutionCell>>>,
}

/// One rule's solution, solved at most once.
type SolutionCell = Arc<OnceLock<Arc<Solution>>>;

impl MouseSolutions {
    /// An empty cache.
    pub fn new() -> MouseSolutions {
        MouseSolutions::default()
    }

    fn cell(&self, rule: Rule) -> SolutionCell {
        match self.solved.lock() {
            Ok(mut map) => Arc::clone(map.entry(rule).or_default()),
            // A poisoned lock only means another thread panicked while holding it: solve privately.
            Err(_) => Arc::new(OnceLock::new()),
        }
    }

    /// The solution for `rule` if it is solved already.
    pub fn get(&self, rule: Rule) -> Option<Arc<Solution>> {
        self.cell(rule).get().cloned()
    }

    /// The solution for `rule`, solving it now if needed (about a tenth of a second; blocks).
    pub fn get_or_solve(&self, rule: Rule) -> Arc<Solution> {
        Arc::clone(
            self.cell(rule)
                .get_or_init(|| Arc::new(Solution::solve(rule))),
        )
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

/// What the engine task hands back.
struct Thought {
    engine: Engine,
    result: SearchResult,
    /// The move list it thought about (to check it still applies).
    moves: Vec<Move>,
}

/// A question waiting for the exact solution.
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
    start: Position,
    /// The move list at each point where the player is to move (undo goes back one such point).
    hist: History<Vec<Move>>,
    game: mousecats::Game,
    engine: Option<Engine>,
    stop: Arc<AtomicBool>,
    thinking: Option<Pending<Thought>>,
    /// A time limit for each engine move (none: the level's depth alone).
    time_limit: Option<Duration>,
    solving: Option<Pending<Arc<Solution>>>,
    want: Option<Want>,
    /// The last search, shown in the panel.
    last_search: Option<SearchResult>,
    /// The tables' counters since the game started.
    table_stats: TableStats,
    hint: Option<Move>,
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

fn new_engine(rule: Rule) -> Result<Engine, MouseError> {
    Engine::new(EngineConfig {
        rule,
        tables: Some(TableConfig::default()),
    })
    .map_err(|e| MouseError::Setup(e.to_string()))
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
        moves: Vec<Move>,
        env: &Env,
    ) -> Result<MouseSession, MouseError> {
        opts.check()?;
        let start = opts.start()?;
        let game = replay(&start, opts.rule, &moves).map_err(MouseError::Illegal)?;
        let engine = new_engine(opts.rule)?;
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
        // The exact solution takes a moment; it is ready long before the first hint is asked for.
        s.solve_in_background();
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
                "Reach row 8 past the cats."
            } else {
                "Trap the mouse before it gets past you."
            }
        ))
    }

    fn solve_in_background(&mut self) {
        if self.env.mouse_solutions.get(self.opts.rule).is_some() || self.solving.is_some() {
            return;
        }
        let (cache, rule) = (self.env.mouse_solutions.clone(), self.opts.rule);
        self.solving = Some(submit(&*self.env.runner, move || cache.get_or_solve(rule)));
    }

    /// The options.
    pub fn options(&self) -> &MouseOptions {
        &self.opts
    }

    /// Limit the time of each engine move (a server's per-request limit); `None`: the level's depth alone. A new
    /// session starts with the [`Env`]'s `mouse_time_limit`, which also bounds an engine move made while it is
    /// built.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The legal moves now.
    pub fn legal_moves(&self) -> Vec<Move> {
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

    /// Whether the engine is thinking.
    pub fn thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The move hinted at, if a hint is shown.
    pub fn hint_move(&self) -> Option<Move> {
        self.hint
    }

    /// Forget the hint shown.
    pub fn clear_hint(&mut self) {
        self.hint = None;
    }

    /// Whether `sq` holds a piece of the player's side.
    pub fn is_players(&self, sq: Square) -> bool {
        let pos = self.position();
        match self.opts.player {
            Side::Mouse => pos.mouse() == sq,
            Side::Cats => pos.cats().contains(sq),
        }
    }

    /// A square of the player's side (where a cursor starts).
    pub fn home_square(&self) -> Square {
        let pos = self.position();
        match self.opts.player {
            Side::Mouse => pos.mouse(),
            Side::Cats => pos.cats().first().unwrap_or(Square::E1),
        }
    }

    /// Where the piece on `from` can go.
    pub fn targets(&self, from: Square) -> Vec<Square> {
        self.game
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect::<std::collections::BTreeSet<Square>>()
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
            return self.think();
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

    /// Start the engine on the current position; with a runner that works at once, its move is played now
    /// (the message).
    fn think(&mut self) -> Option<Message> {
        let mut engine = self.engine.take()?;
        let Ok(level) = self.opts.engine_level() else {
            self.engine = Some(engine);
            return None;
        };
        let pos = *self.position();
        let moves = self.game.moves().to_vec();
        let (cache, rule, time) = (
            self.env.mouse_solutions.clone(),
            self.opts.rule,
            self.time_limit,
        );
        let pending = submit(&*self.env.runner, move || {
            if level.depth().is_none() {
                // Perfect play: the exact solution from the caller's cache, never a process-wide one.
                engine.set_solution(cache.get_or_solve(rule));
            }
            let result = engine.think(&pos, level, time);
            Thought {
                engine,
                result,
                moves,
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
                if let Ok(e) = new_engine(self.opts.rule) {
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

    /// Stop the engine if it is thinking, and wait for it to hand the engine back; its result is dropped (the
    /// game is about to change under it).
    fn stop_thinking(&mut self) {
        if let Some(job) = self.thinking.take() {
            // The engine clears its stop flag when a search starts: a stop set before the task began would be
            // lost, so it is set again until the task ends.
            let outcome = loop {
                self.stop.store(true, Ordering::Relaxed);
                if let Some(outcome) = job.wait_for(STOP_POLL) {
                    break outcome;
                }
            };
            match outcome {
                Outcome::Done(t) => {
                    self.table_stats = self.table_stats.plus(&t.result.table_stats);
                    self.engine = Some(t.engine);
                }
                failed => {
                    self.take_thought(failed);
                }
            }
        }
    }

    /// The player plays `mv`; the engine answers (at once with a blocking runner, else at a later
    /// [`MouseSession::poll`]).
    ///
    /// # Errors
    /// The game is over, the engine is thinking, it is not the player's move, the move is illegal.
    pub fn play(&mut self, mv: Move) -> Result<Message, MouseError> {
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

    /// A move typed as text: `E1F2`, `e1-f2` (whether it is legal is not checked here).
    ///
    /// # Errors
    /// [`MouseError::Typed`] for text that is not a move.
    pub fn parse_move(text: &str) -> Result<Move, MouseError> {
        text.parse::<Move>()
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

    /// A hint for the player's move, from the exact solution. When the solution is not ready, the hint comes
    /// with a later [`MouseSession::poll`].
    pub fn hint(&mut self) -> Message {
        self.ask(Want::Hint)
    }

    /// Who wins from here with best play, and in how many plies. When the solution is not ready, the answer
    /// comes with a later [`MouseSession::poll`].
    pub fn who_wins(&mut self) -> Message {
        self.ask(Want::WhoWins)
    }

    fn ask(&mut self, want: Want) -> Message {
        self.news = None;
        let Some(sol) = self.env.mouse_solutions.get(self.opts.rule) else {
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
                    if winner == Side::Mouse { "s" } else { "" },
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

    /// Collect finished background work (the exact solution, the engine's move): the message to show, if one
    /// came. Call it regularly while [`MouseSession::busy`].
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

    /// The whole state, for drawing.
    pub fn view(&self) -> MouseView {
        let pos = self.position();
        let tc = TableConfig::default();
        let st = &self.table_stats;
        MouseView {
            options: self.opts,
            level_text: level_label(self.opts.level),
            mouse: pos.mouse().to_string(),
            cats: pos.cats().squares().map(|s| s.to_string()).collect(),
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
        let list = |moves: &[Move]| moves.iter().map(|m| m.to_compact()).collect::<Vec<_>>();
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
        let parse = |what: &str, list: Vec<String>| -> Result<Vec<Move>, String> {
            list.iter()
                .enumerate()
                .map(|(i, m)| {
                    m.parse::<Move>()
                        .map_err(|_| format!("{what}: move {} \"{m}\" is not a move", i + 1))
                })
                .collect()
        };
        let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<Move>, String> {
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
fn replay(start: &Position, rule: Rule, moves: &[Move]) -> Result<mousecats::Game, String> {
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

/// Rules as "row8" / "escape" / "region" in save files: the far-row rule keeps the name the first release
/// wrote (the board is 8x8), so a save stays readable by it; any name the rule parses from is read.
mod rule_name {
    use mousecats::Rule;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Rule, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match v {
            Rule::FarRow => "row8",
            other => other.name(),
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rule, D::Error> {
        super::text_form::deserialize(d)
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
}
