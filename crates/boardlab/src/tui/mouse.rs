//! The Mouse & Cats screen: the board with coordinates, the player against the engine at levels 1 to 10 (10 is
//! perfect play from the exact solution), moves by cursor or typed, a side panel with the engine's score,
//! principal variation and nodes, the position's hash and lock and the tables' statistics, a hint and "who wins
//! from here".
//!
//! The rules, the engine and the exact solution are the `mousecats` crate's; this module keeps the move list,
//! the cursor and what is shown.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use mousecats::search::{Engine, EngineConfig, Level, Score, SearchResult};
use mousecats::tt::{TableConfig, TableStats};
use mousecats::{Move, Position, Rule, Side, Solution, Square, Value};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use serde::{Deserialize, Serialize};

use super::job::{Job, Outcome};
use super::screen::{Choice, Config, GameScreen, Handled};
use super::theme::Theme;
use super::ui::{KeyHelp, Prompt, PromptEvent, Status, key_lines};
use play::GameKind;
use play::History;
use play::save::field;
use play::text::group_thousands as group;

/// Width of a square on screen.
const SQ_W: u16 = 5;
/// Height of a square on screen.
const SQ_H: u16 = 2;
/// The board drawing: rank labels, borders, eight squares.
const BOARD_W: u16 = 2 + 2 + 8 * SQ_W + 2;
/// The board drawing: file letters above and below, borders, eight squares.
const BOARD_H: u16 = 2 + 2 + 8 * SQ_H;
/// The squares where the mouse may start (the dark squares of row 1).
const MOUSE_STARTS: [&str; 4] = ["A1", "C1", "E1", "G1"];

/// The options of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The side the player plays.
    #[serde(with = "side_name")]
    pub player: Side,
    /// The engine's level, 1 to 10.
    pub level: u8,
    /// The mouse's start square.
    #[serde(with = "square_name")]
    pub mouse_start: Square,
    /// The side that moves first.
    #[serde(with = "side_name")]
    pub first: Side,
    /// The end-of-game rule.
    #[serde(with = "rule_name")]
    pub rule: Rule,
}

impl Options {
    fn level(&self) -> Result<Level, String> {
        Level::new(self.level).map_err(|e| e.to_string())
    }

    fn start(&self) -> Result<Position, String> {
        Position::start_with(self.mouse_start, self.first).map_err(|e| e.to_string())
    }

    fn engine_side(&self) -> Side {
        self.player.opponent()
    }

    fn level_text(&self) -> String {
        level_label(self.level)
    }
}

fn level_label(level: u8) -> String {
    match Level::new(level).ok().and_then(Level::depth) {
        Some(d) => format!("{level} ({d} plies)"),
        None => format!("{level} (perfect)"),
    }
}

/// The options of the title screen.
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
            vec!["row 8".into(), "escape".into()],
            0,
            "row 8: the mouse wins on reaching row 8. escape: it also wins as soon as it stands level with or \
             above every cat, since the cats can no longer stop it.",
        ),
    ]
}

/// Start a new game from the title screen's options.
pub fn start(choices: &[Choice], cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    let get = |label: &str, default: &str| {
        choices
            .iter()
            .find(|c| c.label == label)
            .map(|c| c.value().to_string())
            .unwrap_or_else(|| default.to_string())
    };
    let side = |s: String| s.parse::<Side>().map_err(|e| e.to_string());
    let level: u8 = get("Level", "5")
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or("the level is not a number")?;
    let opts = Options {
        player: side(get("Play as", "mouse"))?,
        level,
        mouse_start: get("Mouse starts", "E1")
            .parse()
            .map_err(|e: mousecats::SquareError| e.to_string())?,
        first: side(get("First move", "mouse"))?,
        rule: get("Rule", "row 8")
            .replace(' ', "")
            .parse()
            .map_err(|e: mousecats::ParseError| e.to_string())?,
    };
    let screen = MouseScreen::new(opts, Vec::new(), cfg)?;
    Ok(Box::new(screen))
}

/// What the engine thread hands back.
struct Thought {
    engine: Engine,
    result: SearchResult,
    /// The move list it thought about (to check it still applies).
    moves: Vec<Move>,
}

/// A question waiting for the exact solution to be ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Hint,
    WhoWins,
}

/// The Mouse & Cats screen.
pub struct MouseScreen {
    opts: Options,
    start: Position,
    /// The move list at each point where the player is to move (undo goes back one such point).
    hist: History<Vec<Move>>,
    game: mousecats::Game,
    engine: Option<Engine>,
    stop: Arc<AtomicBool>,
    thinking: Option<Job<Thought>>,
    solution: Option<Arc<Solution>>,
    solving: Option<Job<Arc<Solution>>>,
    want: Option<Want>,
    /// The last search, shown in the panel.
    last_search: Option<SearchResult>,
    /// The tables' counters since the game started.
    table_stats: TableStats,
    cursor: Square,
    selected: Option<Square>,
    hint: Option<Move>,
    panel: bool,
    prompt: Option<Prompt>,
    prompt_result: Option<Status>,
    ask_new: bool,
    status: Option<Status>,
    unsaved: bool,
}

impl MouseScreen {
    fn new(opts: Options, moves: Vec<Move>, _cfg: &Config) -> Result<MouseScreen, String> {
        opts.level()?;
        let start = opts.start()?;
        let game = replay(&start, opts.rule, &moves)?;
        let engine = Engine::new(EngineConfig {
            rule: opts.rule,
            tables: Some(TableConfig::default()),
        })
        .map_err(|e| e.to_string())?;
        let stop = engine.stop_handle();
        let rule = opts.rule;
        let mut s = MouseScreen {
            opts,
            start,
            hist: History::new(moves),
            game,
            engine: Some(engine),
            stop,
            thinking: None,
            solution: None,
            // The exact solution takes a moment; it is ready long before the first hint is asked for.
            solving: Some(Job::spawn(move || Solution::cached(rule))),
            want: None,
            last_search: None,
            table_stats: TableStats::default(),
            cursor: Square::E1,
            selected: None,
            hint: None,
            panel: true,
            prompt: None,
            prompt_result: None,
            ask_new: false,
            status: None,
            unsaved: false,
        };
        s.cursor = s.home_square();
        s.status = Some(Status::info(format!(
            "You are the {}. {}",
            s.opts.player,
            if s.opts.player == Side::Mouse {
                "Reach row 8 past the cats."
            } else {
                "Trap the mouse before it gets past you."
            }
        )));
        s.after_change();
        Ok(s)
    }

    /// A square of the player's side to start the cursor on.
    fn home_square(&self) -> Square {
        let pos = self.game.position();
        match self.opts.player {
            Side::Mouse => pos.mouse(),
            Side::Cats => pos.cats().first().unwrap_or(Square::E1),
        }
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// After any change of the move list: announce the end, or let the engine move.
    fn after_change(&mut self) {
        self.selected = None;
        if let Some(winner) = self.game.winner() {
            self.status = Some(self.game_over_status(winner));
            return;
        }
        if self.position().turn() == self.opts.engine_side() && self.thinking.is_none() {
            self.think();
        }
    }

    fn game_over_status(&self, winner: Side) -> Status {
        let pos = self.position();
        let how = match winner {
            Side::Mouse if self.opts.rule == Rule::Region && pos.mouse_has_won(Rule::Region) => {
                "the mouse got where no cat can reach"
            }
            Side::Mouse if pos.mouse().row() == 7 => "the mouse reached row 8",
            Side::Mouse if self.opts.rule == Rule::Escape && pos.mouse_escaped() => {
                "the mouse got past every cat"
            }
            Side::Mouse => "the cats cannot move",
            Side::Cats => "the mouse is trapped",
        };
        let text = format!(
            "Game over: {how}. The {} win{}! n: new game, u: undo.",
            winner,
            if winner == Side::Mouse { "s" } else { "" }
        );
        if winner == self.opts.player {
            Status::good(text)
        } else {
            Status::warn(text)
        }
    }

    /// Start the engine on the current position.
    fn think(&mut self) {
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let Ok(level) = self.opts.level() else {
            self.engine = Some(engine);
            return;
        };
        if let Some(sol) = &self.solution {
            engine.set_solution(Arc::clone(sol));
        }
        let pos = *self.position();
        let moves = self.game.moves().to_vec();
        self.thinking = Some(Job::spawn(move || {
            let result = engine.think(&pos, level, None);
            Thought {
                engine,
                result,
                moves,
            }
        }));
    }

    /// Take the engine's answer.
    fn take_thought(&mut self, outcome: Outcome<Thought>) {
        self.thinking = None;
        let Outcome::Done(t) = outcome else {
            let why = super::job::take_panic_message().unwrap_or_else(|| "it stopped".into());
            self.status = Some(Status::error(format!("The engine failed: {why}")));
            // A fresh engine, so the game can go on.
            if let Ok(e) = Engine::new(EngineConfig {
                rule: self.opts.rule,
                tables: Some(TableConfig::default()),
            }) {
                self.stop = e.stop_handle();
                self.engine = Some(e);
            }
            return;
        };
        self.table_stats = self.table_stats.plus(&t.result.table_stats);
        self.engine = Some(t.engine);
        if t.moves != self.game.moves() {
            // The game moved on (undo, new game) while the engine was thinking.
            return;
        }
        let Some(mv) = t.result.best_move else {
            self.last_search = Some(t.result);
            return;
        };
        match self.game.play(mv) {
            Ok(()) => {
                *self.hist.present_mut() = self.game.moves().to_vec();
                self.status = Some(Status::info(match self.opts.engine_side() {
                    Side::Mouse => format!("The mouse plays {mv}."),
                    Side::Cats => format!("The cats play {mv}."),
                }));
                self.last_search = Some(t.result);
                self.hint = None;
                self.after_change();
                if !self.game.is_over() && !self.board_has_player_piece(self.cursor) {
                    self.cursor = self.home_square();
                }
            }
            Err(e) => {
                self.status = Some(Status::error(format!(
                    "The engine chose an illegal move: {e}"
                )));
            }
        }
    }

    fn board_has_player_piece(&self, sq: Square) -> bool {
        let pos = self.position();
        match self.opts.player {
            Side::Mouse => pos.mouse() == sq,
            Side::Cats => pos.cats().contains(sq),
        }
    }

    /// Stop the engine if it is thinking, and wait for it to hand the engine back.
    fn stop_thinking(&mut self) {
        if let Some(job) = self.thinking.take() {
            self.stop.store(true, Ordering::Relaxed);
            let outcome = job.wait();
            if let Outcome::Done(t) = outcome {
                self.table_stats = self.table_stats.plus(&t.result.table_stats);
                self.engine = Some(t.engine);
            } else {
                self.take_thought(Outcome::Failed);
            }
        }
    }

    /// The player plays `mv`.
    fn play(&mut self, mv: Move) -> Status {
        if self.game.is_over() {
            return Status::warn("The game is over: n starts a new one, u takes moves back");
        }
        if self.thinking.is_some() {
            return Status::warn("Wait a moment: the engine is thinking");
        }
        if self.position().turn() != self.opts.player {
            return Status::warn(format!("It is the {}' move", self.position().turn()));
        }
        match self.game.play(mv) {
            Ok(()) => {
                self.hist.push(self.game.moves().to_vec());
                self.unsaved = true;
                self.hint = None;
                self.selected = None;
                self.cursor = mv.to();
                let status = Status::info(format!("You play {mv}."));
                self.status = Some(status.clone());
                self.after_change();
                self.status.clone().unwrap_or(status)
            }
            Err(e) => Status::error(e.to_string()),
        }
    }

    /// Rebuild the game from the move list the history now shows.
    fn sync_from_history(&mut self) {
        match replay(&self.start, self.opts.rule, self.hist.present()) {
            Ok(g) => self.game = g,
            Err(e) => self.status = Some(Status::error(e)),
        }
        self.hint = None;
        self.selected = None;
        self.last_search = None;
        self.unsaved = true;
        if !self.board_has_player_piece(self.cursor) {
            self.cursor = self.home_square();
        }
        self.after_change();
    }

    fn new_game(&mut self) {
        self.stop_thinking();
        self.hist.reset(Vec::new());
        self.game = mousecats::Game::new(self.start, self.opts.rule);
        if let Some(e) = self.engine.as_mut() {
            e.clear_tables();
        }
        self.table_stats = TableStats::default();
        self.last_search = None;
        self.hint = None;
        self.selected = None;
        self.unsaved = false;
        self.cursor = self.home_square();
        self.status = Some(Status::info("A new game."));
        self.after_change();
    }

    /// Answer a hint or "who wins" once the exact solution is there.
    fn answer(&mut self, want: Want) {
        let Some(sol) = self.solution.clone() else {
            self.want = Some(want);
            self.status = Some(Status::info("Working it out…"));
            return;
        };
        let pos = *self.position();
        if self.game.is_over() {
            self.status = Some(Status::info("The game is over."));
            return;
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
                self.status = Some(if winner == self.opts.player {
                    Status::good(text)
                } else {
                    Status::warn(text)
                });
            }
            Want::Hint => {
                if pos.turn() != self.opts.player {
                    self.status = Some(Status::info("Hints are for your own move."));
                    return;
                }
                let Some(mv) = sol.best_move(&pos) else {
                    self.status = Some(Status::info("There is no move to hint at."));
                    return;
                };
                let value = sol.value(&pos);
                let why = match value {
                    Value::Win(n) => format!("it keeps your win (in {n} plies)"),
                    Value::Loss(n) => format!(
                        "you cannot win against best play; it holds out longest ({n} plies)"
                    ),
                };
                self.hint = Some(mv);
                self.cursor = mv.from();
                self.status = Some(Status::info(format!("Hint: {mv}: {why}.")));
            }
        }
    }

    fn cursor_move(&mut self, code: KeyCode) {
        let (f, r) = (self.cursor.file(), self.cursor.row());
        let (f, r) = match code {
            KeyCode::Left => ((f + 7) % 8, r),
            KeyCode::Right => ((f + 1) % 8, r),
            KeyCode::Up => (f, (r + 1) % 8),
            KeyCode::Down => (f, (r + 7) % 8),
            _ => (f, r),
        };
        if let Some(sq) = Square::from_coords(f, r) {
            self.cursor = sq;
        }
    }

    /// Enter or Space on the cursor's square: pick up a piece, or put the picked one down.
    fn select(&mut self) -> Status {
        if self.game.is_over() {
            return Status::warn("The game is over: n starts a new one, u takes moves back");
        }
        if self.thinking.is_some() {
            return Status::warn("Wait a moment: the engine is thinking");
        }
        let sq = self.cursor;
        if self.board_has_player_piece(sq) {
            let targets = self.targets(sq);
            if targets.is_empty() {
                self.selected = None;
                return Status::warn(format!("The piece on {sq} cannot move"));
            }
            self.selected = Some(sq);
            let list: Vec<String> = targets.iter().map(ToString::to_string).collect();
            return Status::info(format!(
                "{sq} picked up: it can go to {}",
                list.join(" or ")
            ));
        }
        match self.selected {
            Some(from) => self.play(Move::new(from, sq)),
            None => Status::info(format!(
                "Put the cursor on {} and press Enter to pick it up",
                if self.opts.player == Side::Mouse {
                    "the mouse"
                } else {
                    "a cat"
                }
            )),
        }
    }

    /// Where the piece on `from` can go.
    fn targets(&self, from: Square) -> Vec<Square> {
        self.game
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect::<std::collections::BTreeSet<Square>>()
            .into_iter()
            .collect()
    }

    fn typed(&mut self, text: &str) -> Status {
        match text.parse::<Move>() {
            Ok(mv) => self.play(mv),
            Err(_) => Status::error(format!(
                "\"{}\" is not a move: type the two squares, e.g. E1F2 or e1-f2",
                text.trim()
            )),
        }
    }

    fn render_board(&self, frame: &mut Frame, x0: u16, y0: u16, t: &Theme) {
        let buf = frame.buffer_mut();
        let area = buf.area;
        let mut put = |x: u16, y: u16, s: &str, style: Style| {
            if y < area.bottom() && x < area.right() {
                buf.set_string(x, y, s, style);
            }
        };
        let files: String = (0..8u8)
            .map(|f| format!("  {}  ", char::from(b'A' + f)))
            .collect();
        put(x0 + 3, y0, &files, t.dim);
        put(x0 + 3, y0 + BOARD_H - 1, &files, t.dim);
        let line = "─".repeat(usize::from(8 * SQ_W));
        put(x0 + 2, y0 + 1, &format!("┌{line}┐"), t.dim);
        put(x0 + 2, y0 + BOARD_H - 2, &format!("└{line}┘"), t.dim);
        let pos = self.position();
        let targets = self.selected.map(|s| self.targets(s)).unwrap_or_default();
        let last = self.game.moves().last().copied();
        for r in 0..8u8 {
            let y = y0 + 2 + u16::from(7 - r) * SQ_H;
            put(x0, y, &format!("{}", r + 1), t.dim);
            put(x0 + BOARD_W - 1, y, &format!("{}", r + 1), t.dim);
            for dy in 0..SQ_H {
                put(x0 + 2, y + dy, "│", t.dim);
                put(x0 + 3 + 8 * SQ_W, y + dy, "│", t.dim);
            }
            for f in 0..8u8 {
                let Some(sq) = Square::from_coords(f, r) else {
                    continue;
                };
                let x = x0 + 3 + u16::from(f) * SQ_W;
                let dark = sq.is_dark();
                let bg = if dark { t.dark_square } else { t.light_square };
                let hinted = self.hint.is_some_and(|m| m.from() == sq || m.to() == sq);
                // A highlight sets both colours, over the square's and the piece's.
                let mut highlight = None;
                if targets.contains(&sq) {
                    highlight = Some(t.target);
                }
                if hinted {
                    highlight = Some(t.hint);
                }
                if self.selected == Some(sq) {
                    highlight = Some(t.selected);
                }
                if self.cursor == sq {
                    highlight = Some(t.cursor);
                }
                let moved_here = last.is_some_and(|m| m.to() == sq);
                let (l1, l2, fg) = if pos.mouse() == sq {
                    (" ╭M╮ ", " ╰─╯ ", t.mouse)
                } else if pos.cats().contains(sq) {
                    (" ┌C┐ ", " └─┘ ", t.cat)
                } else if targets.contains(&sq) || hinted {
                    ("  ◦  ", "     ", t.text)
                } else if dark && !t.colour {
                    ("  ·  ", "     ", t.dim)
                } else {
                    ("     ", "     ", t.text)
                };
                let mut style = bg.patch(fg);
                if moved_here {
                    style = style.patch(t.last_move);
                }
                if let Some(hl) = highlight {
                    style = style.patch(hl);
                }
                put(x, y, l1, style);
                put(x, y + 1, l2, style);
            }
        }
    }

    fn panel_lines(&self, t: &Theme) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        let row = |label: &str, value: String, style: Style| {
            Line::from(vec![
                Span::styled(format!("{label:<8}"), t.dim),
                Span::styled(value, style),
            ])
        };
        let pos = self.position();
        lines.push(row("You", format!("the {}", self.opts.player), t.text));
        lines.push(row("Level", self.opts.level_text(), t.text));
        let turn = if let Some(w) = self.game.winner() {
            (
                format!("over: the {w} won"),
                if w == self.opts.player { t.good } else { t.bad },
            )
        } else if self.thinking.is_some() {
            (format!("the {} (thinking…)", pos.turn()), t.warn)
        } else if pos.turn() == self.opts.player {
            (format!("the {} (you)", pos.turn()), t.good)
        } else {
            (format!("the {}", pos.turn()), t.text)
        };
        lines.push(row("Turn", turn.0, turn.1));
        lines.push(row(
            "Moves",
            format!(
                "{}{}",
                self.game.moves().len(),
                self.game
                    .moves()
                    .last()
                    .map(|m| format!(" · last {m}"))
                    .unwrap_or_default()
            ),
            t.text,
        ));
        if !self.panel {
            lines.push(Line::styled("(i shows the engine panel)", t.dim));
            return lines;
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("Engine", t.title));
        match &self.last_search {
            Some(r) => {
                let side = self.opts.engine_side();
                let (win, lose) = match side {
                    Side::Mouse => ("wins", "loses"),
                    Side::Cats => ("win", "lose"),
                };
                let score = match r.score {
                    Score::Win(n) => format!("the {side} {win} in {n}"),
                    Score::Loss(n) => format!("the {side} {lose} in {n}"),
                    Score::Eval(s) => format!("{s:+} for the {side}"),
                };
                lines.push(row("Score", score, t.text));
                let pv: Vec<String> = r.pv.iter().take(4).map(|m| m.to_compact()).collect();
                let more = if r.pv.len() > 4 { " …" } else { "" };
                lines.push(row("PV", format!("{}{more}", pv.join(" ")), t.text));
                let how = if r.perfect {
                    "exact solution".to_string()
                } else {
                    format!("depth {} · {} nodes", r.depth, group(r.nodes))
                };
                lines.push(row("Search", how, t.text));
            }
            None => lines.push(row("Score", "no search yet".into(), t.dim)),
        }
        lines.push(row("Hash", format!("{:016X}", pos.hash()), t.text));
        lines.push(row("Lock", format!("{:08X}", pos.lock()), t.text));
        let st = &self.table_stats;
        let tc = TableConfig::default();
        lines.push(row(
            "Tables",
            format!("2 × 2^{}, {}-bit lock", tc.index_bits, tc.lock_bits),
            t.text,
        ));
        lines.push(row(
            "Probes",
            format!("{} · hits {}", group(st.probes), group(st.hits)),
            t.text,
        ));
        lines.push(row(
            "Stores",
            format!("{} · overwrites {}", group(st.stores), group(st.collisions)),
            t.text,
        ));
        lines.push(row(
            "Caught",
            format!("{} by the lock", group(st.lock_mismatches)),
            t.text,
        ));
        lines
    }

    fn short_keys(&self) -> Vec<KeyHelp> {
        vec![
            ("←↑↓→", "move"),
            ("Enter", "pick/put"),
            (":", "type move"),
            ("h", "hint"),
            ("w", "who wins"),
            ("i", "panel"),
            ("u/r", "undo/redo"),
            ("n", "new"),
            ("s", "save"),
            ("?", "help"),
            ("q", "leave"),
        ]
    }
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

impl GameScreen for MouseScreen {
    fn game(&self) -> GameKind {
        GameKind::Mouse
    }

    fn heading(&self) -> String {
        format!(
            "you: {} · level {} · {}",
            self.opts.player,
            self.opts.level,
            match self.opts.rule {
                Rule::FarRow => "row 8",
                Rule::Escape => "escape",
                Rule::Region => "region",
            }
        )
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let t = &cfg.theme;
        let y0 = area.y + area.height.saturating_sub(BOARD_H) / 2;
        let x0 = area.x + 1;
        self.render_board(frame, x0, y0, t);
        let px = x0 + BOARD_W + 2;
        let panel = Rect {
            x: px,
            y: area.y,
            width: area.right().saturating_sub(px),
            height: area.height,
        };
        let keys = key_lines(&self.short_keys(), panel.width.saturating_sub(1), t);
        let keys_h = u16::try_from(keys.len()).unwrap_or(0).min(panel.height);
        let top = Rect {
            height: panel.height.saturating_sub(keys_h + 1),
            ..panel
        };
        let bottom = Rect {
            y: panel.bottom() - keys_h,
            height: keys_h,
            ..panel
        };
        frame.render_widget(
            Paragraph::new(self.panel_lines(t)).wrap(Wrap { trim: true }),
            top,
        );
        frame.render_widget(Paragraph::new(keys), bottom);
    }

    fn handle_key(&mut self, key: KeyEvent, _cfg: &Config) -> Handled {
        if let Some(prompt) = self.prompt.as_mut() {
            match prompt.handle(key) {
                PromptEvent::Editing => {}
                PromptEvent::Cancel => self.prompt = None,
                PromptEvent::Submit(text) => {
                    if text.trim().is_empty() {
                        self.prompt = None;
                    } else {
                        let result = self.typed(&text);
                        if matches!(result.tone, super::ui::Tone::Error | super::ui::Tone::Warn) {
                            self.prompt_result = Some(result.clone());
                        } else {
                            self.prompt = None;
                        }
                        self.status = Some(result);
                    }
                }
            }
            return Handled::Yes;
        }
        if self.ask_new {
            self.ask_new = false;
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.new_game();
            } else {
                self.status = Some(Status::info("Carry on"));
            }
            return Handled::Yes;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            || key.modifiers.contains(KeyModifiers::ALT)
        {
            return Handled::No;
        }
        let status = match key.code {
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                self.cursor_move(key.code);
                return Handled::Yes;
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.select(),
            KeyCode::Esc if self.selected.is_some() || self.hint.is_some() => {
                self.selected = None;
                self.hint = None;
                Status::info("Put down")
            }
            KeyCode::Char(':') | KeyCode::Char('m') | KeyCode::Char('M') => {
                self.prompt = Some(Prompt::new("Move", "E1F2 or e1-f2"));
                self.prompt_result = None;
                return Handled::Yes;
            }
            KeyCode::Char('h') | KeyCode::Char('H') => {
                self.answer(Want::Hint);
                return Handled::Yes;
            }
            KeyCode::Char('w') | KeyCode::Char('W') => {
                self.answer(Want::WhoWins);
                return Handled::Yes;
            }
            KeyCode::Char('i') | KeyCode::Char('I') | KeyCode::Tab => {
                self.panel = !self.panel;
                return Handled::Yes;
            }
            KeyCode::Char('u') | KeyCode::Char('U') => {
                self.stop_thinking();
                if self.hist.undo() {
                    self.sync_from_history();
                    Status::info("Took back your last move")
                } else {
                    self.after_change();
                    Status::info("Nothing to undo")
                }
            }
            KeyCode::Char('r') | KeyCode::Char('R') => {
                if self.thinking.is_some() {
                    Status::warn("Wait a moment: the engine is thinking")
                } else if self.hist.redo() {
                    self.sync_from_history();
                    Status::info("Replayed the move")
                } else {
                    Status::info("Nothing to redo")
                }
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                if self.game.moves().is_empty() || self.game.is_over() {
                    self.new_game();
                    return Handled::Yes;
                }
                self.ask_new = true;
                Status::warn("Give up this game and start a new one? y/n")
            }
            _ => return Handled::No,
        };
        self.status = Some(status);
        Handled::Yes
    }

    fn capturing(&self) -> bool {
        self.prompt.is_some() || self.ask_new
    }

    fn status(&self) -> Option<Status> {
        self.status.clone()
    }

    fn footer(&self, theme: &Theme) -> Option<Line<'static>> {
        self.prompt
            .as_ref()
            .map(|p| p.line(theme, self.prompt_result.as_ref()))
    }

    fn tick(&mut self, _cfg: &Config) {
        if let Some(outcome) = self.solving.as_ref().and_then(Job::poll) {
            self.solving = None;
            if let Outcome::Done(sol) = outcome {
                self.solution = Some(sol);
            }
            if let Some(w) = self.want.take() {
                self.answer(w);
            }
        }
        if let Some(outcome) = self.thinking.as_ref().and_then(Job::poll) {
            self.take_thought(outcome);
        }
    }

    fn busy(&self) -> bool {
        self.thinking.is_some() || self.solving.is_some()
    }

    fn wait(&mut self, cfg: &Config) {
        if let Some(job) = self.solving.take() {
            if let Outcome::Done(sol) = job.wait() {
                self.solution = Some(sol);
            }
            if let Some(w) = self.want.take() {
                self.answer(w);
            }
        }
        while let Some(job) = self.thinking.take() {
            let outcome = job.wait();
            self.take_thought(outcome);
        }
        self.tick(cfg);
    }

    fn rules(&self) -> Vec<Line<'static>> {
        rules()
    }

    fn keys(&self) -> Vec<KeyHelp> {
        vec![
            ("←↑↓→", "move the cursor"),
            (
                "Enter Space",
                "pick up a piece of yours, then put it on a marked square",
            ),
            ("Esc", "put the piece down again"),
            (": m", "type a move: E1F2, e1-f2"),
            ("h", "hint: a best move from the exact solution"),
            ("w", "who wins from here with best play"),
            ("i Tab", "show or hide the engine panel"),
            (
                "u / r",
                "take back your last move (and the engine's answer) / replay it",
            ),
            ("n", "a new game with the same options"),
        ]
    }

    fn save_state(&self, _cfg: &Config) -> serde_json::Value {
        let list = |moves: &[Move]| moves.iter().map(|m| m.to_compact()).collect::<Vec<_>>();
        serde_json::json!({
            "options": self.opts,
            "moves": list(self.hist.present()),
            "undo": self.hist.past().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "redo": self.hist.future().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "panel": self.panel,
        })
    }

    fn unsaved(&self) -> bool {
        self.unsaved && !self.game.is_over()
    }

    fn mark_saved(&mut self) {
        self.unsaved = false;
    }
}

/// The rules for the help screen.
pub fn rules() -> Vec<Line<'static>> {
    vec![
        Line::raw(
            "The board is a chessboard; pieces stand only on the dark squares (A1 is dark, bottom left). One \
             mouse (M) starts on row 1, four cats (C) on B8, D8, F8 and H8.",
        ),
        Line::raw(""),
        Line::raw(
            "The mouse moves one square diagonally in any direction. A cat moves one square diagonally \
             forward only, towards row 1. The square moved to must be empty; nobody jumps or captures.",
        ),
        Line::raw(""),
        Line::raw(
            "The mouse wins by reaching row 8. A side that cannot move loses: a trapped mouse means the cats \
             win. Under the escape rule the mouse also wins once it stands on a row no lower than every cat. \
             Cats only move forward, so a game lasts at most 57 plies and never ends in a draw.",
        ),
        Line::raw(""),
        Line::raw(
            "With best play the cats always win. The engine's levels 1 to 9 search 2 to 18 plies ahead; \
             level 10 knows the exact value of every position. The panel shows the engine's score (from its \
             own side), its principal variation (PV) and the nodes searched, the position's Zobrist hash and \
             lock, and what the hash tables did: a collision is caught when the lock of a stored entry does \
             not match the position's.",
        ),
    ]
}

/// Rebuild a saved game.
pub fn load(state: &serde_json::Value, cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    let opts: Options = field(state, "options")?;
    let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<Move>, String> {
        list.iter()
            .enumerate()
            .map(|(i, m)| {
                m.parse::<Move>()
                    .map_err(|_| format!("{what}: move {} \"{m}\" is not a move", i + 1))
            })
            .collect()
    };
    let moves = parse_list("the moves", field(state, "moves")?)?;
    let undo: Vec<Vec<String>> = field(state, "undo")?;
    let redo: Vec<Vec<String>> = field(state, "redo")?;
    let start = opts.start()?;
    let mut past = Vec::new();
    for (i, l) in undo.into_iter().enumerate() {
        let m = parse_list(&format!("undo step {}", i + 1), l)?;
        replay(&start, opts.rule, &m).map_err(|e| format!("undo step {}: {e}", i + 1))?;
        past.push(m);
    }
    let mut future = Vec::new();
    for (i, l) in redo.into_iter().enumerate() {
        let m = parse_list(&format!("redo step {}", i + 1), l)?;
        replay(&start, opts.rule, &m).map_err(|e| format!("redo step {}: {e}", i + 1))?;
        future.push(m);
    }
    let mut s = MouseScreen::new(opts, moves.clone(), cfg)?;
    s.hist = History::from_parts(past, moves, future);
    s.panel = field(state, "panel")?;
    if !s.game.is_over() {
        s.status = Some(Status::info("Welcome back."));
    }
    Ok(Box::new(s))
}

/// Sides as "mouse" / "cats" in save files.
mod side_name {
    use mousecats::Side;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &Side, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e: mousecats::ParseError| D::Error::custom(e.to_string()))
    }
}

/// Squares as "E1" in save files.
mod square_name {
    use mousecats::Square;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &Square, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e: mousecats::SquareError| D::Error::custom(e.to_string()))
    }
}

/// Rules as "row8" / "escape" in save files.
mod rule_name {
    use mousecats::Rule;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &Rule, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rule, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e: mousecats::ParseError| D::Error::custom(e.to_string()))
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
}
