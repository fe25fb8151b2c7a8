//! A Mouse & Cats game in progress: the player's moves, the engine's answers, hints and "who wins", undo and redo.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mousecats::search::{Score, SearchResult};
use mousecats::solve::MAX_TABLE_SIZE;
use mousecats::tt::{TableConfig, TableStats};
use mousecats::{
    AnyEngine, BoardSize, Coord, Rule, Side, SizedMove, SizedPosition, Solution, Value,
};

use super::advice::{advice, how_won, plural_s};
use super::engine::{Purpose, Thought, Want, engine_for, think};
use super::options::{has_table, level_label, rule_label_for};
use super::view::{EngineView, MouseView, ScoreView, TablesView};
use super::{MouseError, MouseOptions};
use crate::game::{GameSession, Refusal};
use crate::history::History;
use crate::text::{capitalise, plural};
use crate::work::{Outcome, Pending, submit};
use crate::{Env, GameKind, Message, NextAction};

/// A Mouse & Cats game in progress against the engine.
pub struct MouseSession {
    pub(super) env: Env,
    pub(super) opts: MouseOptions,
    pub(super) start: SizedPosition,
    /// The move list at each point where the player is to move (undo goes back one such point).
    pub(super) hist: History<Vec<SizedMove>>,
    pub(super) game: mousecats::Game<SizedPosition>,
    pub(super) engine: Option<AnyEngine>,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) thinking: Option<Pending<Thought>>,
    /// A time limit for each engine move (none: the level's depth alone).
    pub(super) time_limit: Option<Duration>,
    pub(super) solving: Option<Pending<Arc<Solution>>>,
    pub(super) want: Option<Want>,
    /// The last search, shown in the panel.
    pub(super) last_search: Option<SearchResult<SizedMove>>,
    /// The tables' counters since the game started.
    pub(super) table_stats: TableStats,
    pub(super) hint: Option<SizedMove>,
    pub(super) panel: bool,
    pub(super) dirty: bool,
    /// A message from the engine's move made while the session was being built (with a runner that works at
    /// once), handed out by the next [`MouseSession::poll`] or [`MouseSession::settle`].
    pub(super) news: Option<Message>,
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

    pub(super) fn with_moves(
        opts: MouseOptions,
        moves: Vec<SizedMove>,
        env: &Env,
    ) -> Result<MouseSession, MouseError> {
        opts.check()?;
        let start = opts.start()?;
        let game = replay(&start, opts.rule, &moves).map_err(MouseError::Illegal)?;
        let engine = engine_for(opts.size, opts.rule)?;
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
            "Game over: {how}. The {} win{}!",
            winner,
            if winner == Side::Mouse { "s" } else { "" }
        );
        let msg = if winner == self.opts.player {
            Message::good(text)
        } else {
            Message::warn(text)
        };
        msg.then(&[NextAction::NewGame, NextAction::Undo])
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
            let result = think(&mut engine, &pos, level, depth, time);
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
                if let Ok(e) = engine_for(self.opts.size, self.opts.rule) {
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
            Score::Win(n) => format!("the {} win{} in {}", turn, plural_s(turn), plural(n, "ply")),
            Score::Loss(n) => {
                let w = turn.opponent();
                format!("the {w} win{} in {}", plural_s(w), plural(n, "ply"))
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

    /// The player plays `mv` (an 8x8 [`Move`](mousecats::Move) or a [`SizedMove`]); the engine answers (at once with a
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

    /// Take back the player's last move (and the engine's answer; the engine stops thinking).
    ///
    /// # Errors
    /// None: a game can always step back (the type is every game's undo, [`GameSession::undo`]).
    pub fn undo(&mut self) -> Result<Message, MouseError> {
        self.news = None;
        self.stop_thinking();
        Ok(if self.hist.undo() {
            self.sync_from_history();
            Message::info("Took back your last move")
        } else {
            self.after_change();
            Message::info("Nothing to undo")
        })
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
                    "With best play from here the {winner} win{} in {} ({you}).",
                    plural_s(winner),
                    plural(value.plies(), "ply")
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
                    Value::Win(n) => format!("it keeps your win (in {})", plural(n, "ply")),
                    Value::Loss(n) => format!(
                        "you cannot win against best play; it holds out longest ({})",
                        plural(n, "ply")
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
        self.view_of(&self.game, true)
    }

    /// The game as it stood after its first `ply` moves, for a replay of its move list: the board then, the side
    /// to move then and the moves until then; nothing is played or searched (the engine does not answer), no
    /// hint is shown, and the engine's last search and undo and redo are the game's own.
    ///
    /// # Errors
    /// `ply` past the moves played, saying how many there are.
    pub fn view_at(&self, ply: usize) -> Result<MouseView, String> {
        let played = self.game.moves();
        let first = played.get(..ply).ok_or_else(|| {
            format!(
                "there is no move {ply}: the game has {} played",
                plural(played.len() as u64, "move")
            )
        })?;
        let game = replay(&self.start, self.opts.rule, first)?;
        Ok(self.view_of(&game, false))
    }

    /// The view of `game` (this game, or its first moves in a replay, when not `live`).
    fn view_of(&self, game: &mousecats::Game<SizedPosition>, live: bool) -> MouseView {
        let pos = game.position();
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
            moves: game.moves().iter().map(ToString::to_string).collect(),
            legal: game.legal_moves().iter().map(ToString::to_string).collect(),
            winner: game.winner().map(|w| w.to_string()),
            thinking: live && self.thinking.is_some(),
            hint: self.hint.filter(|_| live).map(|m| m.to_string()),
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
            hash: format!("{:016X}", pos.zobrist_hash()),
            lock: format!("{:08X}", pos.zobrist_lock()),
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
}

/// Play `moves` from `start`, checking each.
pub(super) fn replay(
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

impl Refusal for MouseError {
    fn message(&self) -> Message {
        MouseError::message(self)
    }
}

impl GameSession for MouseSession {
    const KIND: GameKind = GameKind::Mouse;
    type View = MouseView;
    type Error = MouseError;

    fn to_state(&self) -> serde_json::Value {
        MouseSession::to_state(self)
    }
    fn from_state(state: &serde_json::Value, env: &Env) -> Result<Self, String> {
        MouseSession::from_state(state, env)
    }
    fn view(&self) -> MouseView {
        MouseSession::view(self)
    }
    fn view_at(&self, ply: usize) -> Option<Result<MouseView, String>> {
        Some(MouseSession::view_at(self, ply))
    }
    fn standing(&self) -> Option<Message> {
        self.winner().map(|w| self.game_over_message(w))
    }
    fn in_play(&self) -> bool {
        !self.moves().is_empty() && !self.is_over()
    }
    fn new_game(&mut self) -> Result<Message, MouseError> {
        Ok(MouseSession::new_game(self))
    }
    fn undo(&mut self) -> Result<Message, MouseError> {
        MouseSession::undo(self)
    }
    fn redo(&mut self) -> Result<Message, MouseError> {
        MouseSession::redo(self)
    }
    fn hint(&mut self) -> Result<Message, MouseError> {
        Ok(MouseSession::hint(self))
    }
    fn poll(&mut self) -> Option<Result<Message, MouseError>> {
        MouseSession::poll(self).map(Ok)
    }
    /// Waits for all of it: the engine's search is bounded by [`MouseSession::set_time_limit`], not `limit`.
    fn settle(&mut self, _limit: Option<Duration>) -> Option<Result<Message, MouseError>> {
        MouseSession::settle(self).map(Ok)
    }
    fn busy(&self) -> bool {
        MouseSession::busy(self)
    }
    fn unsaved(&self) -> bool {
        MouseSession::unsaved(self)
    }
    fn mark_saved(&mut self) {
        MouseSession::mark_saved(self);
    }
}
