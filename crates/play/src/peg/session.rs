//! A peg solitaire game in progress: jumps with undo, redo and restart, the indicator, and a solution from here.

use std::time::{Duration, Instant};

use peg::{Board, Finish, Move, Position, Problem};

use super::PegError;
use super::jumps::parse_jump;
use super::oracle::{Answer, Oracle, Verdict, Why};
use super::view::{Hole, Indicator, Jump, PegView};
use crate::game::{GameSession, Refusal};
use crate::history::History;
use crate::text::{group_thousands, plural};
use crate::{Env, GameKind, Message, NextAction};

/// How long [`PegSession::settle`] waits on one piece of work before it looks at the game again.
const WAIT_SLICE: Duration = Duration::from_millis(5);

/// A question waiting for the indicator's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    /// Show the solution from here.
    Show,
    /// Play its next jump.
    Step,
}

/// A peg solitaire game in progress.
#[derive(Debug)]
pub struct PegSession {
    pub(super) problem: Problem,
    /// The jumps played, at every step (undo goes back one jump; a restart is a step too).
    pub(super) hist: History<Vec<Move>>,
    pub(super) game: peg::Game,
    pub(super) oracle: Oracle,
    /// Whether the solution from the current position is shown.
    pub(super) show: bool,
    pub(super) want: Option<Want>,
    pub(super) dirty: bool,
}

impl PegSession {
    /// A new game of `problem`.
    ///
    /// # Errors
    /// [`PegError::Setup`] when the start has no peg.
    pub fn new(problem: Problem, env: &Env) -> Result<PegSession, PegError> {
        PegSession::with_moves(problem, Vec::new(), env)
    }

    pub(super) fn with_moves(
        problem: Problem,
        moves: Vec<Move>,
        env: &Env,
    ) -> Result<PegSession, PegError> {
        if problem.start().pegs() == 0 {
            return Err(PegError::Setup("the start position has no peg".into()));
        }
        let game = replay(&problem, &moves).map_err(PegError::Illegal)?;
        let oracle = Oracle::new(problem.board(), problem.start(), problem.finish(), env);
        let mut s = PegSession {
            problem,
            hist: History::new(moves),
            game,
            oracle,
            show: false,
            want: None,
            dirty: false,
        };
        s.after_change();
        Ok(s)
    }

    /// The first message of a game: the aim, or that the start can never finish.
    pub fn opening(&self) -> Message {
        if !self.problem.class_allows_finish() {
            return Message::warn(format!(
                "This start can never end with {} (position class): try another.",
                self.finish_text()
            ));
        }
        Message::info(format!(
            "Jump a peg over a neighbour into an empty hole. Leave {}.",
            self.finish_text()
        ))
    }

    pub(super) fn board(&self) -> &Board {
        self.problem.board()
    }

    /// The problem: board, start, finish.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// The jumps played.
    pub fn played(&self) -> &[Move] {
        self.game.played()
    }

    /// Whether no jump is left.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The positions of the game from the start to now.
    fn line(&self) -> Vec<Position> {
        self.line_of(&self.game)
    }

    /// The positions of `game` (this game's start and some of its jumps) from the start.
    fn line_of(&self, game: &peg::Game) -> Vec<Position> {
        let mut p = self.problem.start();
        let mut line = vec![p];
        for &m in game.played() {
            p = p.apply(m);
            line.push(p);
        }
        line
    }

    /// The indicator's answer for the current position.
    pub fn answer(&self) -> Answer {
        self.oracle.answer(&self.line())
    }

    /// The holes the peg on `from` can jump to.
    pub fn targets(&self, from: usize) -> Vec<usize> {
        let mut t: Vec<usize> = self
            .game
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// The first peg that can jump, else the first hole (where a cursor starts).
    pub fn first_movable(&self) -> usize {
        self.game.legal_moves().first().map_or(0, |m| m.from())
    }

    /// After every change of the position: ask the indicator, answer waiting questions, announce the end. The
    /// message to show instead of the action's, if any.
    fn after_change(&mut self) -> Option<Message> {
        let line = self.line();
        self.oracle.pump(&line);
        let mut msg = self.answer_wanted();
        if self.game.is_over() {
            msg = Some(self.game_over_message());
        }
        msg
    }

    /// The message of a finished game: solved, on the wrong hole, or stuck.
    pub fn game_over_message(&self) -> Message {
        let pos = self.position();
        let b = self.board();
        if pos.pegs() == 1 {
            let at = pos.holes().next().map(|h| b.hole_name(h)).unwrap_or("?");
            return match self.problem.finish() {
                Finish::Anywhere => {
                    Message::good(format!("Solved! One peg left, on {}.", hole_words(at)))
                        .then(&[NextAction::NewGame, NextAction::Restart])
                }
                Finish::Hole(h) if pos.has_peg(h) => {
                    Message::good(format!("Solved! One peg left, on the finish hole {at}."))
                        .then(&[NextAction::NewGame])
                }
                Finish::Hole(h) => Message::warn(format!(
                    "One peg left, on {}, but not on the finish hole {}.",
                    hole_words(at),
                    b.hole_name(h)
                ))
                .then(&[NextAction::Undo, NextAction::Restart]),
            };
        }
        Message::warn(format!("Stuck: no jump left, {} pegs remain.", pos.pegs())).then(&[
            NextAction::Undo,
            NextAction::Restart,
            NextAction::NewGame,
        ])
    }

    /// A question asked while the answer was not known: answer it now if it is.
    fn answer_wanted(&mut self) -> Option<Message> {
        let want = self.want?;
        match self.answer() {
            Answer::Checking => None,
            answer => {
                self.want = None;
                Some(match want {
                    Want::Show => self.show_answer(answer),
                    Want::Step => self.step_with(answer).unwrap_or_else(|e| e.message()),
                })
            }
        }
    }

    /// Show a solution from here (or say there is none). When the indicator does not know yet, the answer
    /// comes with a later [`PegSession::poll`].
    pub fn show_solution(&mut self) -> Message {
        let a = self.answer();
        self.show_answer(a)
    }

    fn show_answer(&mut self, answer: Answer) -> Message {
        match answer {
            Answer::Known(Verdict::Possible(path)) => {
                self.show = true;
                match path.first() {
                    Some(&m) => Message::info(format!(
                        "A solution from here in {}: next {}.",
                        plural(path.len() as u64, "jump"),
                        self.board().format_move(m)
                    ))
                    .then(&[NextAction::PlaySolution, NextAction::PlayAll]),
                    None => Message::good("Solved: one peg left."),
                }
            }
            Answer::Known(Verdict::Impossible(why)) => {
                self.show = false;
                Message::warn(format!("No solution from here: {}.", self.why_text(why)))
            }
            Answer::Checking => {
                self.want = Some(Want::Show);
                Message::info("Looking for a solution…")
            }
            Answer::GaveUp { nodes, .. } => {
                self.oracle.search_longer(self.position());
                self.want = Some(Want::Show);
                let line = self.line();
                self.oracle.pump(&line);
                Message::info(format!(
                    "No answer after {} positions; searching longer…",
                    group_thousands(nodes)
                ))
            }
        }
    }

    /// Hide the solution, or show it again.
    pub fn set_solution_shown(&mut self, shown: bool) {
        self.show = shown;
    }

    /// Whether the solution is shown.
    pub fn solution_shown(&self) -> bool {
        self.show
    }

    /// Whether a question waits for the indicator's answer.
    pub fn waiting(&self) -> bool {
        self.want.is_some()
    }

    /// Play the next jump of the solution from here. When the indicator does not know yet, the jump is
    /// played with a later [`PegSession::poll`].
    ///
    /// # Errors
    /// [`PegError::Over`] when no jump is left.
    pub fn step(&mut self) -> Result<Message, PegError> {
        let a = self.answer();
        self.step_with(a)
    }

    fn step_with(&mut self, answer: Answer) -> Result<Message, PegError> {
        if self.game.is_over() {
            return Ok(self.game_over_message());
        }
        match answer {
            Answer::Known(Verdict::Possible(path)) => match path.first() {
                Some(&m) => {
                    self.show = true;
                    let left = path.len() - 1;
                    let msg = self.play(m)?;
                    if self.game.is_over() {
                        return Ok(msg);
                    }
                    Ok(Message::info(format!(
                        "Solution: {}; {} to go.",
                        self.board().format_move(m),
                        plural(left as u64, "jump")
                    )))
                }
                None => Ok(Message::good("Solved: one peg left.")),
            },
            other => {
                let msg = self.show_answer(other);
                if self.want == Some(Want::Show) {
                    self.want = Some(Want::Step);
                }
                Ok(msg)
            }
        }
    }

    fn why_text(&self, why: Why) -> String {
        match why {
            Why::Class => format!(
                "the position class does not allow {} from here",
                self.finish_text()
            ),
            Why::WrongHole => "the last peg is not on the finish hole".into(),
            Why::Stuck => "no jump is left".into(),
            Why::Earlier => "an earlier position of this game was already lost".into(),
            Why::Table => "the complete table of finishable positions says so".into(),
            Why::Search => "the solver tried every way on".into(),
        }
    }

    /// Play a jump.
    ///
    /// # Errors
    /// [`PegError::Illegal`] with the reason; [`PegError::Over`] when no jump is left.
    pub fn play(&mut self, mv: Move) -> Result<Message, PegError> {
        if mv.from() >= self.board().holes()
            || mv.over() >= self.board().holes()
            || mv.to() >= self.board().holes()
            || !self.board().moves().contains(&mv)
        {
            return Err(PegError::Illegal("no such jump on this board".into()));
        }
        self.game
            .check(mv)
            .map_err(|e| PegError::Illegal(e.to_string()))?;
        if self.game.is_over() {
            return Err(PegError::Over);
        }
        self.game
            .play(mv)
            .map_err(|e| PegError::Illegal(e.to_string()))?;
        self.hist.push(self.game.played().to_vec());
        self.dirty = true;
        let msg = Message::info(format!(
            "{}: the peg on {} is taken off.",
            self.board().format_move(mv),
            hole_words(self.board().hole_name(mv.over()))
        ));
        Ok(self.after_change().unwrap_or(msg))
    }

    /// Play a jump typed as text: `d2-d4`, `d2d4`, `d2 d4` (on the triangle `4-1` or `4 1`).
    ///
    /// # Errors
    /// [`PegError::Typed`] for text that is not a jump; then as [`PegSession::play`].
    pub fn play_text(&mut self, text: &str) -> Result<Message, PegError> {
        let mv = parse_jump(self.board(), text).map_err(PegError::Typed)?;
        self.play(mv)
    }

    /// Jump from hole `from` to hole `to` (by number, as [`PegView::holes`] lists them).
    ///
    /// # Errors
    /// [`PegError::NoHole`] for a number past the board, [`PegError::NotAJump`] for two holes no jump joins;
    /// then as [`PegSession::play`].
    pub fn jump(&mut self, from: usize, to: usize) -> Result<Message, PegError> {
        let b = self.board();
        if let Some(&hole) = [from, to].iter().find(|&&h| h >= b.holes()) {
            return Err(PegError::NoHole {
                hole,
                board: b.name().to_string(),
                last: b.holes() - 1,
            });
        }
        match b
            .moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to)
        {
            Some(mv) => self.play(mv),
            None => Err(PegError::NotAJump {
                from: b.hole_name(from).to_string(),
                to: b.hole_name(to).to_string(),
            }),
        }
    }

    /// Rebuild the game from the jump list the history now shows.
    fn sync_from_history(&mut self) {
        // Every list in the history was checked when it was played or loaded.
        if let Ok(g) = replay(&self.problem, self.hist.present()) {
            self.game = g;
        }
        self.dirty = true;
        self.after_change();
    }

    /// Take back the last jump.
    ///
    /// # Errors
    /// None: a peg game can always step back (the type is every game's undo, [`GameSession::undo`]).
    pub fn undo(&mut self) -> Result<Message, PegError> {
        let before = self.hist.present().len();
        Ok(if self.hist.undo() {
            self.sync_from_history();
            Message::info(step_message(before, self.hist.present().len()))
        } else {
            Message::info("Nothing to undo")
        })
    }

    /// Play the last jump taken back again.
    ///
    /// # Errors
    /// None: a peg game can always step forward (the type is every game's redo, [`GameSession::redo`]).
    pub fn redo(&mut self) -> Result<Message, PegError> {
        let before = self.hist.present().len();
        Ok(if self.hist.redo() {
            self.sync_from_history();
            Message::info(step_message(before, self.hist.present().len()))
        } else {
            Message::info("Nothing to redo")
        })
    }

    /// Back to the start (one step: undo brings the jumps back).
    pub fn restart(&mut self) -> Message {
        if self.game.played().is_empty() {
            Message::info("Already at the start")
        } else {
            self.hist.push(Vec::new());
            self.sync_from_history();
            Message::info("Back at the start").then(&[NextAction::Undo])
        }
    }

    /// A new game of the same problem (the history is forgotten).
    pub fn new_game(&mut self) -> Message {
        self.hist.reset(Vec::new());
        self.game = peg::Game::new(self.board().clone(), self.problem.start());
        self.dirty = false;
        self.show = false;
        self.want = None;
        let msg = self.after_change();
        if self.game.is_over() {
            msg.unwrap_or_else(|| Message::info("A new game."))
        } else {
            self.opening()
        }
    }

    /// Collect finished background work, start the next search slice, and answer a waiting question: the
    /// message to show, if one came. Call it regularly while [`PegSession::busy`].
    pub fn poll(&mut self) -> Option<Message> {
        let line = self.line();
        self.oracle.pump(&line);
        self.answer_wanted()
    }

    /// Wait until the indicator has answered for the current position and a question waiting on it (a solution
    /// asked for, its next jump) is answered, for at most `limit`: the last message, if any. Without a limit it
    /// also waits for the complete table being built (or the search to give up). This is the call for a
    /// server's blocking pool, and for tests.
    pub fn settle(&mut self, limit: Option<Duration>) -> Option<Message> {
        let Some(limit) = limit else {
            let line = self.line();
            self.oracle.wait(&line, None);
            return self.poll();
        };
        let deadline = Instant::now() + limit;
        let mut msg = None;
        loop {
            if let Some(m) = self.poll() {
                msg = Some(m);
            }
            let settled = !matches!(self.answer(), Answer::Checking) && self.want.is_none();
            let left = deadline.saturating_duration_since(Instant::now());
            if settled || left.is_zero() || !self.busy() {
                return msg;
            }
            self.oracle.wait_a_little(left.min(WAIT_SLICE));
        }
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        self.oracle.busy()
    }

    /// "d4 empty", "d4 e5 empty", "5 holes empty"; on a board of numbered holes "hole 1 empty", "holes 1 4
    /// empty".
    pub fn start_text(&self) -> String {
        let v = self.vacancies();
        match v.len() {
            1 => format!("{} empty", hole_words(&v[0])),
            n if n <= 4 && v.iter().all(|h| numbered(h)) => format!("holes {} empty", v.join(" ")),
            n if n <= 4 => format!("{} empty", v.join(" ")),
            n => format!("{n} holes empty"),
        }
    }

    /// "one peg on d4", "one peg on hole 13", "one peg anywhere".
    pub fn finish_text(&self) -> String {
        match self.finish_name() {
            Some(h) => format!("one peg on {}", hole_words(h)),
            None => "one peg anywhere".into(),
        }
    }

    /// The holes empty at the start.
    pub fn vacancies(&self) -> Vec<String> {
        let b = self.board();
        (0..b.holes())
            .filter(|&h| !self.problem.start().has_peg(h))
            .map(|h| b.hole_name(h).to_string())
            .collect()
    }

    pub(super) fn finish_name(&self) -> Option<&str> {
        match self.problem.finish() {
            Finish::Anywhere => None,
            Finish::Hole(h) => Some(self.board().hole_name(h)),
        }
    }

    /// Whether something changed since the start or the last [`PegSession::mark_saved`] (and the game is on).
    pub fn unsaved(&self) -> bool {
        self.dirty && !self.game.is_over()
    }

    /// Note that the game was just saved.
    pub fn mark_saved(&mut self) {
        self.dirty = false;
    }

    /// A jump for drawing.
    fn jump_view(&self, m: Move) -> Jump {
        Jump {
            from: m.from(),
            over: m.over(),
            to: m.to(),
            text: self.board().format_move(m),
        }
    }

    /// The whole state, for drawing.
    pub fn view(&self) -> PegView {
        self.view_of(&self.game, true)
    }

    /// The game as it stood after its first `ply` jumps, for a replay of its jump list: the board then, the
    /// jumps played until then and the indicator's answer then as far as it is known; nothing is played,
    /// searched or changed (no solution is shown, and undo and redo are the game's own).
    ///
    /// # Errors
    /// `ply` past the jumps played, saying how many there are.
    pub fn view_at(&self, ply: usize) -> Result<PegView, String> {
        let played = self.game.played();
        let first = played.get(..ply).ok_or_else(|| {
            format!(
                "there is no jump {ply}: the game has {} played",
                plural(played.len() as u64, "jump")
            )
        })?;
        let game = replay(&self.problem, first)?;
        Ok(self.view_of(&game, false))
    }

    /// The view of `game` (this game, or its first jumps in a replay, when not `live`).
    fn view_of(&self, game: &peg::Game, live: bool) -> PegView {
        let b = self.board();
        let pos = game.position();
        let line = self.line_of(game);
        let answer = self.oracle.answer(&line);
        let indicator = match &answer {
            Answer::Known(Verdict::Possible(_)) => Indicator::Possible,
            Answer::Known(Verdict::Impossible(why)) => Indicator::Impossible {
                why: *why,
                since: self.oracle.first_lost(&line),
            },
            Answer::Checking => Indicator::Checking {
                nodes: self.oracle.progress(&line),
            },
            Answer::GaveUp { nodes, memory } => Indicator::Unknown {
                nodes: *nodes,
                memory: *memory,
            },
        };
        let solution = match &answer {
            Answer::Known(Verdict::Possible(path)) if live && self.show => {
                Some(path.iter().map(|&m| self.jump_view(m)).collect())
            }
            _ => None,
        };
        let over = game.is_over();
        let solved = over
            && pos.pegs() == 1
            && match self.problem.finish() {
                Finish::Hole(h) => pos.has_peg(h),
                Finish::Anywhere => true,
            };
        PegView {
            board: b.name().to_string(),
            description: Board::builtin_description(b.name())
                .unwrap_or(b.name())
                .to_string(),
            lattice: b.lattice(),
            size: b.size(),
            holes: (0..b.holes())
                .map(|h| Hole {
                    name: b.hole_name(h).to_string(),
                    column: b.cell(h).0,
                    line: b.cell(h).1,
                    peg: pos.has_peg(h),
                })
                .collect(),
            start: self.vacancies(),
            start_text: self.start_text(),
            finish: self.finish_name().map(str::to_string),
            finish_text: self.finish_text(),
            class_allows: self.problem.class_allows_finish(),
            pegs: pos.pegs(),
            moves: game.played().iter().map(|&m| self.jump_view(m)).collect(),
            legal: game
                .legal_moves()
                .iter()
                .map(|&m| self.jump_view(m))
                .collect(),
            over,
            solved,
            why_text: match &indicator {
                Indicator::Impossible { why, .. } => why.short().to_string(),
                _ => String::new(),
            },
            indicator,
            solution,
            show_solution: live && self.show,
            waiting: live && self.want.is_some(),
            table_note: self.oracle.table_note(),
            can_undo: self.hist.can_undo(),
            can_redo: self.hist.can_redo(),
        }
    }
}

/// Whether a hole's name is a number (the triangle's holes 1 to 15): a sentence then says "hole 13".
fn numbered(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// A hole as a sentence names it: "d4", or "hole 13" on a board of numbered holes.
fn hole_words(name: &str) -> String {
    if numbered(name) {
        format!("hole {name}")
    } else {
        name.to_string()
    }
}

/// What an undo or redo step did to the jumps played: one taken back or played again, or (across a restart)
/// many at once.
fn step_message(before: usize, after: usize) -> String {
    match after.cmp(&before) {
        std::cmp::Ordering::Less if before - after == 1 => "Took back the last jump".into(),
        std::cmp::Ordering::Less => format!("Took back {} jumps", before - after),
        std::cmp::Ordering::Greater if after - before == 1 => "Played the jump again".into(),
        std::cmp::Ordering::Greater => format!("Brought back {} jumps", after - before),
        std::cmp::Ordering::Equal => "No jump changed".into(),
    }
}

/// Play `moves` from the problem's start, checking each.
pub(super) fn replay(problem: &Problem, moves: &[Move]) -> Result<peg::Game, String> {
    let mut g = peg::Game::new(problem.board().clone(), problem.start());
    for (i, &m) in moves.iter().enumerate() {
        g.play(m).map_err(|e| format!("jump {}: {e}", i + 1))?;
    }
    Ok(g)
}

impl Refusal for PegError {
    fn message(&self) -> Message {
        PegError::message(self)
    }
}

impl GameSession for PegSession {
    const KIND: GameKind = GameKind::Peg;
    type View = PegView;
    type Error = PegError;

    fn to_state(&self) -> serde_json::Value {
        PegSession::to_state(self)
    }
    fn from_state(state: &serde_json::Value, env: &Env) -> Result<Self, String> {
        PegSession::from_state(state, env)
    }
    fn view(&self) -> PegView {
        PegSession::view(self)
    }
    fn view_at(&self, ply: usize) -> Option<Result<PegView, String>> {
        Some(PegSession::view_at(self, ply))
    }
    fn standing(&self) -> Option<Message> {
        self.is_over().then(|| self.game_over_message())
    }
    fn in_play(&self) -> bool {
        !self.played().is_empty() && !self.is_over()
    }
    fn new_game(&mut self) -> Result<Message, PegError> {
        Ok(PegSession::new_game(self))
    }
    fn undo(&mut self) -> Result<Message, PegError> {
        PegSession::undo(self)
    }
    fn redo(&mut self) -> Result<Message, PegError> {
        PegSession::redo(self)
    }
    /// A way to finish from here ([`PegSession::show_solution`]).
    fn hint(&mut self) -> Result<Message, PegError> {
        Ok(self.show_solution())
    }
    fn poll(&mut self) -> Option<Result<Message, PegError>> {
        PegSession::poll(self).map(Ok)
    }
    fn settle(&mut self, limit: Option<Duration>) -> Option<Result<Message, PegError>> {
        PegSession::settle(self, limit).map(Ok)
    }
    fn busy(&self) -> bool {
        PegSession::busy(self)
    }
    fn unsaved(&self) -> bool {
        PegSession::unsaved(self)
    }
    fn mark_saved(&mut self) {
        PegSession::mark_saved(self);
    }
}
