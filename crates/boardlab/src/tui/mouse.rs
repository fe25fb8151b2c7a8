//! The Mouse & Cats screen: draws a [`MouseSession`] (the board with coordinates, the picked piece's targets, the
//! hint; a panel with the engine's score, principal variation and nodes, the position's hash and lock and the
//! tables' counters) and turns keys into its actions. The game, the engine turns and the save format are the
//! `play` crate's.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use mousecats::{BoardSize, Coord, Side, SizedMove};
use play::NextAction;
use play::mouse::{MouseError, MouseOptions, MouseSession, MouseView, ScoreView};
use play::text::group_thousands;
use play::{Env, GameKind, GameSession};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::chrome::{Captured, Chrome, said};
use super::screen::{Choice, Config, GameScreen, Handled};
use super::theme::Theme;
use super::ui::{Binding, KeyHelp, KeyMap, Prompt, Status, key_lines, paragraphs};

/// How a board is drawn: the size of a square on screen and of the whole drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cells {
    /// Squares a side.
    n: u8,
    /// Width of a square (5, or 3 when compact).
    w: u16,
    /// Height of a square (2, or 1 when compact).
    h: u16,
}

impl Cells {
    /// Full cells (5x2, pieces drawn in two lines) when the board fits `area` with room for the panel (31
    /// columns), else compact ones (3x1); 12x12 in compact cells fits 80x24.
    fn fit(size: BoardSize, area: Rect) -> Cells {
        let n = size.n();
        let full = Cells { n, w: 5, h: 2 };
        if full.height() <= area.height && full.width() + 34 <= area.width {
            full
        } else {
            Cells { n, w: 3, h: 1 }
        }
    }

    /// Width of the labels of the rows: 1, or 2 from row 10 on.
    fn label_w(self) -> u16 {
        if self.n >= 10 { 2 } else { 1 }
    }

    /// The drawing's width: row labels, borders, the squares, a gap, row labels.
    fn width(self) -> u16 {
        2 + 1 + u16::from(self.n) * self.w + 1 + 1 + self.label_w()
    }

    /// The drawing's height: file letters above and below, borders, the squares.
    fn height(self) -> u16 {
        2 + 2 + u16::from(self.n) * self.h
    }
}

/// What a key does on this screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Cursor(i8, i8),
    Pick,
    PutDown,
    Type,
    Hint,
    WhoWins,
    Panel,
    Undo,
    Redo,
    New,
}

/// The keys of the Mouse & Cats screen, in footer order.
static KEYS: KeyMap<Act> = KeyMap(&[
    Binding {
        keys: "←↑↓→",
        help: "move the cursor",
        footer: Some(("←↑↓→", "move")),
        codes: &[
            (KeyCode::Up, Act::Cursor(0, 1)),
            (KeyCode::Down, Act::Cursor(0, -1)),
            (KeyCode::Left, Act::Cursor(-1, 0)),
            (KeyCode::Right, Act::Cursor(1, 0)),
        ],
    },
    Binding {
        keys: "Enter Space",
        help: "pick up a piece of yours, then put it on a marked square",
        footer: Some(("Enter", "pick/put")),
        codes: &[(KeyCode::Enter, Act::Pick), (KeyCode::Char(' '), Act::Pick)],
    },
    Binding {
        keys: "Esc",
        help: "put the piece down again",
        footer: None,
        codes: &[(KeyCode::Esc, Act::PutDown)],
    },
    Binding {
        keys: ": m",
        help: "type a move: E1F2, e1-f2",
        footer: Some((":", "type move")),
        codes: &[
            (KeyCode::Char(':'), Act::Type),
            (KeyCode::Char('m'), Act::Type),
        ],
    },
    Binding {
        keys: "h",
        help: "hint: a best move (from the exact solution up to 10x10, else from a search)",
        footer: Some(("h", "hint")),
        codes: &[(KeyCode::Char('h'), Act::Hint)],
    },
    Binding {
        keys: "w",
        help: "who wins from here with best play",
        footer: Some(("w", "who wins")),
        codes: &[(KeyCode::Char('w'), Act::WhoWins)],
    },
    Binding {
        keys: "i Tab",
        help: "show or hide the engine panel",
        footer: Some(("i", "panel")),
        codes: &[(KeyCode::Char('i'), Act::Panel), (KeyCode::Tab, Act::Panel)],
    },
    Binding {
        keys: "u / r",
        help: "take back your last move (and the engine's answer) / replay it",
        footer: Some(("u/r", "undo/redo")),
        codes: &[
            (KeyCode::Char('u'), Act::Undo),
            (KeyCode::Char('r'), Act::Redo),
        ],
    },
    Binding {
        keys: "n",
        help: "a new game with the same options",
        footer: Some(("n", "new")),
        codes: &[(KeyCode::Char('n'), Act::New)],
    },
]);

/// The Mouse & Cats screen.
pub struct MouseScreen {
    session: MouseSession,
    cursor: Coord,
    selected: Option<Coord>,
    chrome: Chrome,
}

/// Start a new game from the title screen's options.
pub fn start(choices: &[Choice], env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let opts = MouseOptions::from_choices(choices).map_err(|e| e.to_string())?;
    let session = MouseSession::new(opts, env).map_err(|e| e.to_string())?;
    let status = session.opening();
    Ok(Box::new(MouseScreen::over(session, status)))
}

/// Rebuild a saved game.
pub fn load(state: &serde_json::Value, env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let session = MouseSession::from_state(state, env)?;
    let status = GameSession::standing(&session).unwrap_or_else(|| Status::info("Welcome back."));
    Ok(Box::new(MouseScreen::over(session, status)))
}

impl MouseScreen {
    fn over(session: MouseSession, status: Status) -> MouseScreen {
        let cursor = session.home_square();
        MouseScreen {
            session,
            cursor,
            selected: None,
            chrome: Chrome::new(Some(status)),
        }
    }

    /// Run `action` on the session; when it changed the moves, nothing stays picked up and the cursor goes back
    /// to a piece of the player's if it is not on one.
    fn act<T>(&mut self, action: impl FnOnce(&mut MouseSession) -> T) -> T {
        let before = self.session.moves().to_vec();
        let out = action(&mut self.session);
        if self.session.moves() != before.as_slice() {
            self.selected = None;
            if !self.session.is_over() && !self.session.is_players(self.cursor) {
                self.cursor = self.session.home_square();
            }
        }
        out
    }

    /// The player plays `mv`: the cursor follows the piece.
    fn play(&mut self, mv: SizedMove) -> Result<Status, MouseError> {
        let msg = self.act(|s| s.play(mv))?;
        self.selected = None;
        self.cursor = mv.to();
        Ok(msg)
    }

    fn new_game(&mut self) {
        let msg = self.act(MouseSession::new_game);
        self.chrome.say(msg);
        self.selected = None;
        self.cursor = self.session.home_square();
    }

    fn cursor_move(&mut self, df: i8, dr: i8) {
        let n = self.session.size().n() as i8;
        let f = (self.cursor.file() as i8 + df).rem_euclid(n) as u8;
        let r = (self.cursor.row() as i8 + dr).rem_euclid(n) as u8;
        if let Some(sq) = Coord::new(f, r) {
            self.cursor = sq;
        }
    }

    /// Enter or Space on the cursor's square: pick up a piece, or put the picked one down.
    fn pick(&mut self) -> Status {
        if self.session.is_over() {
            return MouseError::Over.message();
        }
        if self.session.thinking() {
            return MouseError::Thinking.message();
        }
        let sq = self.cursor;
        if self.session.is_players(sq) {
            let targets = self.session.targets(sq);
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
            Some(from) => said(self.play(SizedMove::new(from, sq))),
            None => Status::info(format!(
                "Put the cursor on {} and press Enter to pick it up",
                if self.session.options().player == Side::Mouse {
                    "the mouse"
                } else {
                    "a cat"
                }
            )),
        }
    }

    fn render_board(&self, frame: &mut Frame, x0: u16, y0: u16, cells: Cells, t: &Theme) {
        let buf = frame.buffer_mut();
        let area = buf.area;
        let mut put = |x: u16, y: u16, s: &str, style: Style| {
            if y < area.bottom() && x < area.right() {
                buf.set_string(x, y, s, style);
            }
        };
        let Cells { n, w, h } = cells;
        let (board_w, board_h) = (cells.width(), cells.height());
        let pad = usize::from(w / 2);
        let files: String = (0..n)
            .map(|f| format!("{0:pad$}{1}{0:pad$}", "", char::from(b'A' + f)))
            .collect();
        put(x0 + 3, y0, &files, t.dim);
        put(x0 + 3, y0 + board_h - 1, &files, t.dim);
        let line = "─".repeat(usize::from(u16::from(n) * w));
        put(x0 + 2, y0 + 1, &format!("┌{line}┐"), t.dim);
        put(x0 + 2, y0 + board_h - 2, &format!("└{line}┘"), t.dim);
        let pos = self.session.position();
        let targets = self
            .selected
            .map(|s| self.session.targets(s))
            .unwrap_or_default();
        let last = self.session.moves().last().copied();
        let hint = self.session.hint_move();
        let label_w = usize::from(cells.label_w());
        for r in 0..n {
            let y = y0 + 2 + u16::from(n - 1 - r) * h;
            put(x0, y, &format!("{:>label_w$}", r + 1), t.dim);
            put(
                x0 + board_w - cells.label_w(),
                y,
                &format!("{:<label_w$}", r + 1),
                t.dim,
            );
            for dy in 0..h {
                put(x0 + 2, y + dy, "│", t.dim);
                put(x0 + 3 + u16::from(n) * w, y + dy, "│", t.dim);
            }
            for f in 0..n {
                let Some(sq) = Coord::new(f, r) else {
                    continue;
                };
                let x = x0 + 3 + u16::from(f) * w;
                let dark = sq.is_dark();
                let bg = if dark { t.dark_square } else { t.light_square };
                let hinted = hint.is_some_and(|m| m.from() == sq || m.to() == sq);
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
                let compact = h == 1;
                let (l1, l2, fg) = if pos.mouse() == sq {
                    if compact {
                        (" M ", "", t.mouse)
                    } else {
                        (" ╭M╮ ", " ╰─╯ ", t.mouse)
                    }
                } else if pos.has_cat(sq) {
                    if compact {
                        (" C ", "", t.cat)
                    } else {
                        (" ┌C┐ ", " └─┘ ", t.cat)
                    }
                } else if targets.contains(&sq) || hinted {
                    if compact {
                        (" ◦ ", "", t.text)
                    } else {
                        ("  ◦  ", "     ", t.text)
                    }
                } else if dark && !t.colour {
                    if compact {
                        (" · ", "", t.dim)
                    } else {
                        ("  ·  ", "     ", t.dim)
                    }
                } else if compact {
                    ("   ", "", t.text)
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
                if !compact {
                    put(x, y + 1, l2, style);
                }
            }
        }
    }

    fn panel_lines(&self, v: &MouseView, t: &Theme) -> Vec<Line<'static>> {
        let row = |label: &str, value: String, style: Style| {
            Line::from(vec![
                Span::styled(format!("{label:<8}"), t.dim),
                Span::styled(value, style),
            ])
        };
        let player = v.options.player.to_string();
        let turn = match &v.winner {
            Some(w) => (
                format!("over: the {w} won"),
                if *w == player { t.good } else { t.bad },
            ),
            None if v.thinking => (format!("the {} (thinking…)", v.turn), t.warn),
            None if v.turn == player => (format!("the {} (you)", v.turn), t.good),
            None => (format!("the {}", v.turn), t.text),
        };
        let mut lines = vec![
            row("You", format!("the {player}"), t.text),
            row("Level", v.level_text.clone(), t.text),
        ];
        if v.size != 8 {
            let (text, style) = if v.exact {
                (format!("{0}x{0} · exact solution", v.size), t.text)
            } else {
                (format!("{0}x{0} · no exact value", v.size), t.warn)
            };
            lines.push(row("Board", text, style));
        }
        lines.extend([
            row("Turn", turn.0, turn.1),
            row(
                "Moves",
                format!(
                    "{}{}",
                    v.moves.len(),
                    v.moves
                        .last()
                        .map(|m| format!(" · last {m}"))
                        .unwrap_or_default()
                ),
                t.text,
            ),
        ]);
        if !v.panel {
            lines.push(Line::styled("(i shows the engine panel)", t.dim));
            return lines;
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("Engine", t.title));
        match &v.engine {
            Some(e) => {
                let side = &e.side;
                let (win, lose) = if side == "mouse" {
                    ("wins", "loses")
                } else {
                    ("win", "lose")
                };
                let score = match e.score {
                    ScoreView::Win { plies } => format!("the {side} {win} in {plies}"),
                    ScoreView::Loss { plies } => format!("the {side} {lose} in {plies}"),
                    ScoreView::Eval { value } => format!("{value:+} for the {side}"),
                };
                lines.push(row("Score", score, t.text));
                let pv: Vec<&str> = e.pv.iter().take(4).map(String::as_str).collect();
                let more = if e.pv.len() > 4 { " …" } else { "" };
                lines.push(row("PV", format!("{}{more}", pv.join(" ")), t.text));
                let how = if e.perfect {
                    "exact solution".to_string()
                } else {
                    format!("depth {} · {} nodes", e.depth, group_thousands(e.nodes))
                };
                lines.push(row("Search", how, t.text));
            }
            None => lines.push(row("Score", "no search yet".into(), t.dim)),
        }
        let tb = &v.tables;
        lines.extend([
            row("Hash", v.hash.clone(), t.text),
            row("Lock", v.lock.clone(), t.text),
            row(
                "Tables",
                format!("2 × 2^{}, {}-bit lock", tb.index_bits, tb.lock_bits),
                t.text,
            ),
            row(
                "Probes",
                format!(
                    "{} · hits {}",
                    group_thousands(tb.probes),
                    group_thousands(tb.hits)
                ),
                t.text,
            ),
            row(
                "Stores",
                format!(
                    "{} · overwrites {}",
                    group_thousands(tb.stores),
                    group_thousands(tb.collisions)
                ),
                t.text,
            ),
            row(
                "Caught",
                format!("{} by the lock", group_thousands(tb.lock_mismatches)),
                t.text,
            ),
        ]);
        lines
    }
}

impl GameScreen for MouseScreen {
    fn key_of(&self, action: NextAction) -> Option<String> {
        match action {
            NextAction::NewGame => KEYS.key_of(Act::New),
            NextAction::Undo => KEYS.key_of(Act::Undo),
            _ => None,
        }
    }

    fn game(&self) -> GameKind {
        GameKind::Mouse
    }

    fn heading(&self) -> String {
        let o = self.session.options();
        let board = if o.size == BoardSize::EIGHT {
            String::new()
        } else {
            format!("{} · ", o.size)
        };
        format!(
            "you: {} · level {} · {board}{}",
            o.player,
            o.level,
            play::mouse::rule_label_for(o.rule, o.size)
        )
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let t = &cfg.theme;
        let cells = Cells::fit(self.session.size(), area);
        let y0 = area.y + area.height.saturating_sub(cells.height()) / 2;
        let x0 = area.x + 1;
        self.render_board(frame, x0, y0, cells, t);
        let px = x0 + cells.width() + 2;
        let panel = Rect {
            x: px,
            y: area.y,
            width: area.right().saturating_sub(px),
            height: area.height,
        };
        let mut footer = KEYS.footer(|_, e| e);
        footer.extend(super::app::SHELL_KEYS.footer(|_, e| e));
        let keys = key_lines(&footer, panel.width.saturating_sub(1), t);
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
        let v = self.session.view();
        frame.render_widget(
            Paragraph::new(self.panel_lines(&v, t)).wrap(Wrap { trim: true }),
            top,
        );
        frame.render_widget(Paragraph::new(keys), bottom);
    }

    fn handle_key(&mut self, key: KeyEvent, _cfg: &Config) -> Handled {
        match self.chrome.capture(key) {
            Captured::Free => {}
            Captured::Taken => return Handled::Yes,
            Captured::Submitted(text) => {
                // A refused move keeps the prompt open with the reason; a move played closes it (even when
                // the engine's answer, given at once, ends the game).
                let result = MouseSession::parse_move(&text).and_then(|mv| self.play(mv));
                let status = match result {
                    Ok(msg) => {
                        self.chrome.close_prompt();
                        msg
                    }
                    Err(e) => {
                        self.chrome.prompt_result = Some(e.message());
                        e.message()
                    }
                };
                self.chrome.say(status);
                return Handled::Yes;
            }
            Captured::Yes(_) => {
                self.new_game();
                return Handled::Yes;
            }
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            || key.modifiers.contains(KeyModifiers::ALT)
        {
            return Handled::No;
        }
        let Some(act) = KEYS.action(key.code) else {
            return Handled::No;
        };
        let status = match act {
            Act::Cursor(df, dr) => {
                self.cursor_move(df, dr);
                return Handled::Yes;
            }
            Act::Pick => self.pick(),
            Act::PutDown if self.selected.is_some() || self.session.hint_move().is_some() => {
                self.selected = None;
                self.session.clear_hint();
                Status::info("Put down")
            }
            Act::PutDown => return Handled::No,
            Act::Type => {
                self.chrome
                    .open_prompt(Prompt::new("Move", "E1F2 or e1-f2"));
                return Handled::Yes;
            }
            Act::Hint => {
                let msg = self.session.hint();
                if let Some(m) = self.session.hint_move() {
                    self.cursor = m.from();
                }
                msg
            }
            Act::WhoWins => self.session.who_wins(),
            Act::Panel => {
                self.session.toggle_panel();
                return Handled::Yes;
            }
            Act::Undo => said(self.act(MouseSession::undo)),
            Act::Redo => said(self.act(MouseSession::redo)),
            Act::New => {
                if self.chrome.new_game_now(&self.session, "game") {
                    self.new_game();
                }
                return Handled::Yes;
            }
        };
        self.chrome.say(status);
        Handled::Yes
    }

    fn chrome(&self) -> &Chrome {
        &self.chrome
    }

    fn tick(&mut self, _cfg: &Config) {
        let hinted = self.session.hint_move();
        if let Some(msg) = self.act(MouseSession::poll) {
            self.chrome.say(msg);
            // A hint that was waiting for the exact solution puts the cursor on its piece.
            if let Some(m) = self.session.hint_move().filter(|_| hinted.is_none()) {
                self.cursor = m.from();
            }
        }
    }

    fn busy(&self) -> bool {
        self.session.busy()
    }

    fn wait(&mut self, cfg: &Config) {
        let hinted = self.session.hint_move();
        if let Some(msg) = self.act(MouseSession::settle) {
            self.chrome.say(msg);
            if let Some(m) = self.session.hint_move().filter(|_| hinted.is_none()) {
                self.cursor = m.from();
            }
        }
        self.tick(cfg);
    }

    fn rules(&self) -> Vec<Line<'static>> {
        paragraphs(play::mouse::RULES)
    }

    fn keys(&self) -> Vec<KeyHelp> {
        KEYS.help()
    }

    fn save_state(&self, _cfg: &Config) -> serde_json::Value {
        self.session.to_state()
    }

    fn unsaved(&self) -> bool {
        self.session.unsaved()
    }

    fn mark_saved(&mut self) {
        self.session.mark_saved();
    }
}
