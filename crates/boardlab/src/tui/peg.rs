//! The peg solitaire screen: draws a [`PegSession`] (every built-in board with its hole names, the pegs, the
//! chosen peg's targets, the solution's next jump; a panel with the live indicator and the solution) and turns
//! keys into its actions: jumps by cursor or typed, the solution step by step or played by itself. The game,
//! the indicator and the save format are the `play` crate's.

use play::NextAction;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use peg::{Board, Lattice};
use play::peg::{Answer, Indicator, PegSession, PegView, Verdict};
use play::text::{group_thousands, plural};
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

/// Time between two jumps when the solution plays itself.
const AUTO_STEP: Duration = Duration::from_millis(500);

/// What a key does on this screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Cursor(KeyCode),
    Choose,
    PutDown,
    Type,
    Solution,
    Step,
    Auto,
    Undo,
    Redo,
    Restart,
    New,
}

/// The keys of the peg screen, in footer order.
static KEYS: KeyMap<Act> = KeyMap(&[
    Binding {
        keys: "←↑↓→",
        help: "move the cursor from hole to hole",
        footer: Some(("←↑↓→", "move")),
        codes: &[
            (KeyCode::Up, Act::Cursor(KeyCode::Up)),
            (KeyCode::Down, Act::Cursor(KeyCode::Down)),
            (KeyCode::Left, Act::Cursor(KeyCode::Left)),
            (KeyCode::Right, Act::Cursor(KeyCode::Right)),
        ],
    },
    Binding {
        keys: "Enter Space",
        help: "choose the peg under the cursor (its targets are marked ◎), then the hole to jump to",
        footer: Some(("Enter", "choose/jump")),
        codes: &[
            (KeyCode::Enter, Act::Choose),
            (KeyCode::Char(' '), Act::Choose),
        ],
    },
    Binding {
        keys: "Esc",
        help: "put the chosen peg down; hide the solution",
        footer: None,
        codes: &[(KeyCode::Esc, Act::PutDown)],
    },
    Binding {
        keys: ": m",
        help: "type a jump: d2-d4, d2d4 or d2 d4 (4-1 on the triangle)",
        footer: Some((":", "type a jump")),
        codes: &[
            (KeyCode::Char(':'), Act::Type),
            (KeyCode::Char('m'), Act::Type),
        ],
    },
    Binding {
        keys: "h",
        help: "show a solution from here (or say there is none); again to hide it",
        footer: Some(("h", "solution")),
        codes: &[(KeyCode::Char('h'), Act::Solution)],
    },
    Binding {
        keys: ". >",
        help: "play the next jump of the solution",
        footer: Some((".", "step")),
        codes: &[
            (KeyCode::Char('.'), Act::Step),
            (KeyCode::Char('>'), Act::Step),
        ],
    },
    Binding {
        keys: "a",
        help: "play the solution by itself, a jump every half second; any key stops",
        footer: Some(("a", "auto-play")),
        codes: &[(KeyCode::Char('a'), Act::Auto)],
    },
    Binding {
        keys: "u / r",
        help: "take back the last jump / play it again",
        footer: Some(("u/r", "undo/redo")),
        codes: &[
            (KeyCode::Char('u'), Act::Undo),
            (KeyCode::Char('r'), Act::Redo),
        ],
    },
    Binding {
        keys: "b",
        help: "back to the start (undo brings the jumps back)",
        footer: Some(("b", "restart")),
        codes: &[(KeyCode::Char('b'), Act::Restart)],
    },
    Binding {
        keys: "n",
        help: "a new game on the same board",
        footer: Some(("n", "new")),
        codes: &[(KeyCode::Char('n'), Act::New)],
    },
]);

/// The peg solitaire screen.
pub struct PegScreen {
    session: PegSession,
    cursor: usize,
    selected: Option<usize>,
    /// Auto-play: when the last jump was played.
    auto: Option<Duration>,
    chrome: Chrome,
}

/// Start a new game from the title screen's options.
pub fn start(choices: &[Choice], env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let problem = play::peg::problem_from_choices(choices).map_err(|e| e.to_string())?;
    let session = PegSession::new(problem, env).map_err(|e| e.to_string())?;
    let status = GameSession::standing(&session).unwrap_or_else(|| session.opening());
    Ok(Box::new(PegScreen::over(session, status)))
}

/// Rebuild a saved game.
pub fn load(state: &serde_json::Value, env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let session = PegSession::from_state(state, env)?;
    let status = GameSession::standing(&session).unwrap_or_else(|| Status::info("Welcome back."));
    Ok(Box::new(PegScreen::over(session, status)))
}

impl PegScreen {
    fn over(session: PegSession, status: Status) -> PegScreen {
        let mut s = PegScreen {
            session,
            cursor: 0,
            selected: None,
            auto: None,
            chrome: Chrome::new(Some(status)),
        };
        s.moved();
        s
    }

    fn board(&self) -> &Board {
        self.session.problem().board()
    }

    /// After the jumps changed: nothing chosen, the cursor on the last jump's hole (or the first peg that can
    /// jump), no auto-play past the end.
    fn moved(&mut self) {
        self.selected = None;
        self.cursor = self
            .session
            .played()
            .last()
            .map_or_else(|| self.session.first_movable(), |m| m.to());
        if self.session.is_over() {
            self.auto = None;
        }
    }

    /// Run `action` on the session; if it changed the jumps, move the cursor.
    fn act<T>(&mut self, action: impl FnOnce(&mut PegSession) -> T) -> T {
        let before = self.session.played().to_vec();
        let out = action(&mut self.session);
        if self.session.played() != before.as_slice() {
            self.moved();
        }
        out
    }

    fn new_game(&mut self) {
        self.auto = None;
        let msg = self.session.new_game();
        self.chrome.say(msg);
        self.moved();
    }

    /// Enter or Space on the cursor's hole: choose a peg, jump to a target, or put the peg down.
    fn choose(&mut self) -> Status {
        let h = self.cursor;
        let name = self.board().hole_name(h).to_string();
        if self.session.is_over() {
            return play::peg::PegError::Over.message();
        }
        if self.session.position().has_peg(h) {
            if self.selected == Some(h) {
                self.selected = None;
                return Status::info(format!("{name} put down"));
            }
            let targets = self.session.targets(h);
            if targets.is_empty() {
                self.selected = None;
                return Status::warn(format!(
                    "The peg on {name} cannot jump: it needs a neighbouring peg with an empty hole behind it"
                ));
            }
            self.selected = Some(h);
            let list: Vec<&str> = targets.iter().map(|&t| self.board().hole_name(t)).collect();
            return Status::info(format!(
                "{name} chosen: it can jump to {}",
                list.join(" or ")
            ));
        }
        match self.selected {
            Some(from) => said(self.act(|s| s.jump(from, h))),
            None => Status::info(format!(
                "{name} is empty: put the cursor on a peg and press Enter to choose it"
            )),
        }
    }

    fn render_board(&self, frame: &mut Frame, x0: u16, y0: u16, v: &PegView, t: &Theme) {
        let board = self.board();
        let geo = Geometry::of(board);
        let targets = self
            .selected
            .map(|s| self.session.targets(s))
            .unwrap_or_default();
        let next = v.solution.as_ref().and_then(|p| p.first());
        let last = v.moves.last();
        let buf = frame.buffer_mut();
        let area = buf.area;
        let mut put = |x: u16, y: u16, s: &str, style: Style| {
            if y < area.bottom() && x < area.right() {
                buf.set_string(x, y, s, style);
            }
        };
        let (w, h) = board.size();
        // Names: letters and numbers around a square board; each hole's number under it on the triangle.
        if board.lattice() == Lattice::Square {
            for c in 0..w {
                let letter = column_name(board, c);
                let x = x0 + geo.glyph_x(c);
                put(x, y0, &letter, t.dim);
                put(x, y0 + geo.height - 1, &letter, t.dim);
            }
            for l in 0..h {
                let y = y0 + geo.glyph_y(l);
                put(x0, y, &format!("{:>2}", l + 1), t.dim);
                put(x0 + geo.width - 2, y, &format!("{}", l + 1), t.dim);
            }
        }
        for (hole, info) in v.holes.iter().enumerate() {
            let x = x0 + geo.glyph_x(info.column);
            let y = y0 + geo.glyph_y(info.line);
            let is_target = targets.contains(&hole);
            let hinted = next.is_some_and(|m| m.from == hole || m.to == hole);
            let glyph = if info.peg {
                "●"
            } else if is_target {
                "◎"
            } else {
                "○"
            };
            let (open, close) = if self.cursor == hole {
                ("[", "]")
            } else if self.selected == Some(hole) {
                ("(", ")")
            } else if hinted {
                ("<", ">")
            } else {
                (" ", " ")
            };
            let mut style = if info.peg { t.peg } else { t.hole };
            if last.is_some_and(|m| m.to == hole) {
                style = style.patch(t.last_move);
            }
            if is_target {
                style = style.patch(t.target);
            }
            if hinted {
                style = style.patch(t.hint);
            }
            if self.selected == Some(hole) {
                style = style.patch(t.selected);
            }
            if self.cursor == hole {
                style = style.patch(t.cursor);
            }
            put(x - 1, y, &format!("{open}{glyph}{close}"), style);
            if board.lattice() == Lattice::Triangular {
                let nx = x - u16::try_from(info.name.len().saturating_sub(1) / 2).unwrap_or(0);
                put(nx, y + 1, &info.name, t.dim);
            }
        }
        put(
            x0,
            y0 + geo.height,
            "● peg  ○ empty  ◎ can jump here",
            t.dim,
        );
    }

    fn panel_lines(&self, v: &PegView, t: &Theme) -> Vec<Line<'static>> {
        let row = |label: &str, value: String, style: Style| {
            Line::from(vec![
                Span::styled(format!("{label:<8}"), t.dim),
                Span::styled(value, style),
            ])
        };
        let mut lines = vec![
            row("Board", v.description.clone(), t.text),
            row("Start", v.start_text.clone(), t.text),
            row("Goal", v.finish_text.clone(), t.text),
            row("Pegs", format!("{} left", v.pegs), t.text),
            row(
                "Moves",
                format!(
                    "{} made{}",
                    v.moves.len(),
                    v.moves
                        .last()
                        .map(|m| format!(" · last {}", m.text))
                        .unwrap_or_default()
                ),
                t.text,
            ),
            Line::raw(""),
        ];
        let (text, style) = if v.over {
            if v.solved {
                ("Game over: solved".to_string(), t.good)
            } else {
                (
                    format!("Game over: stuck with {}", plural(v.pegs, "peg")),
                    t.bad,
                )
            }
        } else {
            lines.push(Line::styled(
                match &v.finish {
                    Some(h) => format!("A one-peg finish on {h} is"),
                    None => "A one-peg finish is".to_string(),
                },
                t.dim,
            ));
            match &v.indicator {
                Indicator::Possible => ("✔ still possible".to_string(), t.good),
                Indicator::Impossible { .. } if v.moves.is_empty() => {
                    ("✘ not possible".to_string(), t.bad)
                }
                Indicator::Impossible { .. } => ("✘ no longer possible".to_string(), t.bad),
                Indicator::Checking { .. } => ("… being checked".to_string(), t.warn),
                Indicator::Unknown { .. } => ("? not known".to_string(), t.warn),
            }
        };
        lines.push(Line::styled(text, style));
        let detail = match &v.indicator {
            Indicator::Impossible { why, since } => match since {
                // The first position of this game known to be lost, if it is neither the start nor now.
                Some(i) if *i > 0 && *i < v.moves.len() => format!(
                    "since move {i}, {}",
                    v.moves.get(i - 1).map(|m| m.text.as_str()).unwrap_or("")
                ),
                _ if v.moves.is_empty() => format!("from this start: {}", why.short()),
                _ => why.short().to_string(),
            },
            Indicator::Checking { nodes: 0 } | Indicator::Possible => String::new(),
            Indicator::Checking { nodes } => {
                format!("{} positions searched", group_thousands(*nodes))
            }
            Indicator::Unknown { nodes, memory } => format!(
                "{} after {} positions; h searches longer",
                if *memory { "memory full" } else { "gave up" },
                group_thousands(*nodes)
            ),
        };
        if !detail.is_empty() && !v.over {
            lines.push(Line::styled(format!("  {detail}"), t.dim));
        }
        if !v.over && !v.table_note.is_empty() {
            lines.push(Line::styled(format!("  {}", v.table_note), t.dim));
        }
        if let Some(path) = v.solution.as_ref().filter(|p| !p.is_empty()) {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                format!("Solution from here: {}", plural(path.len() as u64, "jump")),
                t.title,
            ));
            let shown: Vec<&str> = path.iter().take(6).map(|m| m.text.as_str()).collect();
            let more = if path.len() > 6 { " …" } else { "" };
            lines.push(Line::from(vec![
                Span::styled(shown.first().map_or("", |s| s).to_string(), t.hint),
                Span::raw(format!(
                    " {}{more}",
                    shown.get(1..).unwrap_or_default().join(" ")
                )),
            ]));
            if self.auto.is_some() {
                lines.push(Line::styled("playing… any key stops", t.warn));
            }
        }
        lines
    }
}

/// Where things go on screen for a board.
#[derive(Debug, Clone, Copy)]
struct Geometry {
    lattice: Lattice,
    width: u16,
    height: u16,
}

impl Geometry {
    fn of(board: &Board) -> Geometry {
        let (w, h) = board.size();
        let (w, h) = (
            u16::try_from(w.max(0)).unwrap_or(0),
            u16::try_from(h.max(0)).unwrap_or(0),
        );
        match board.lattice() {
            // Row numbers, a blank line or column between them and the holes, a hole every 4 columns and 2
            // lines.
            Lattice::Square => Geometry {
                lattice: Lattice::Square,
                width: 4 + 4 * w + 2,
                height: 2 * h + 3,
            },
            // Holes 3 columns per layout column (6 apart in a row), 3 lines per row: the hole, its number, a
            // blank line.
            Lattice::Triangular => Geometry {
                lattice: Lattice::Triangular,
                width: 3 * w + 3,
                height: 3 * h,
            },
        }
    }

    /// Screen column of the glyph of layout column `c`, from the board's left edge.
    fn glyph_x(&self, c: i32) -> u16 {
        let c = u16::try_from(c.max(0)).unwrap_or(0);
        match self.lattice {
            Lattice::Square => 5 + 4 * c,
            Lattice::Triangular => 2 + 3 * c,
        }
    }

    /// Screen line of the glyph of layout line `l`, from the board's top edge.
    fn glyph_y(&self, l: i32) -> u16 {
        let l = u16::try_from(l.max(0)).unwrap_or(0);
        match self.lattice {
            Lattice::Square => 2 + 2 * l,
            Lattice::Triangular => 3 * l,
        }
    }
}

/// The letters of layout column `c` on a square board (from the names of its holes).
fn column_name(board: &Board, c: i32) -> String {
    (0..board.holes())
        .find(|&h| board.cell(h).0 == c)
        .map(|h| {
            board
                .hole_name(h)
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect()
        })
        .unwrap_or_default()
}

/// The hole the cursor goes to from `from` with an arrow key: along the row for ← and →, along the column (the
/// next row on the triangle) for ↑ and ↓, wrapping round on square boards.
pub fn step_cursor(board: &Board, from: usize, code: KeyCode) -> usize {
    let (c, l) = board.cell(from);
    let holes = 0..board.holes();
    let cycle = |mut line: Vec<(i32, usize)>, forward: bool| {
        line.sort_unstable();
        let n = line.len();
        match line.iter().position(|&(_, h)| h == from) {
            Some(i) if n > 0 => {
                line[if forward {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                }]
                .1
            }
            _ => from,
        }
    };
    match code {
        KeyCode::Left | KeyCode::Right => cycle(
            holes
                .filter(|&h| board.cell(h).1 == l)
                .map(|h| (board.cell(h).0, h))
                .collect(),
            code == KeyCode::Right,
        ),
        KeyCode::Up | KeyCode::Down => match board.lattice() {
            Lattice::Square => cycle(
                holes
                    .filter(|&h| board.cell(h).0 == c)
                    .map(|h| (board.cell(h).1, h))
                    .collect(),
                code == KeyCode::Down,
            ),
            Lattice::Triangular => {
                let target = if code == KeyCode::Up { l - 1 } else { l + 1 };
                holes
                    .filter(|&h| board.cell(h).1 == target)
                    .min_by_key(|&h| ((board.cell(h).0 - c).abs(), board.cell(h).0))
                    .unwrap_or(from)
            }
        },
        _ => from,
    }
}

impl GameScreen for PegScreen {
    fn key_of(&self, action: NextAction) -> Option<String> {
        match action {
            NextAction::NewGame => KEYS.key_of(Act::New),
            NextAction::Undo => KEYS.key_of(Act::Undo),
            NextAction::Restart => KEYS.key_of(Act::Restart),
            NextAction::PlaySolution => KEYS.key_of(Act::Step),
            NextAction::PlayAll => KEYS.key_of(Act::Auto),
            _ => None,
        }
    }

    fn game(&self) -> GameKind {
        GameKind::Peg
    }

    fn heading(&self) -> String {
        let p = self.session.problem();
        format!(
            "{} · start {} · {}",
            p.board().name(),
            self.session.vacancies().join(" "),
            match p.finish() {
                peg::Finish::Hole(h) => format!("finish {}", p.board().hole_name(h)),
                peg::Finish::Anywhere => "finish anywhere".into(),
            }
        )
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let t = &cfg.theme;
        let v = self.session.view();
        let geo = Geometry::of(self.board());
        // The board and its legend (a line below it) centred in the height.
        let y0 = area.y + area.height.saturating_sub(geo.height + 1) / 2;
        let x0 = area.x + 1;
        self.render_board(frame, x0, y0, &v, t);
        let px = x0 + geo.width.max(32) + 2;
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
        frame.render_widget(
            Paragraph::new(self.panel_lines(&v, t)).wrap(Wrap { trim: true }),
            top,
        );
        frame.render_widget(Paragraph::new(keys), bottom);
    }

    fn handle_key(&mut self, key: KeyEvent, cfg: &Config) -> Handled {
        // Auto-play stops at any key (no prompt or question can be open meanwhile: opening one is a key).
        if self.auto.take().is_some() {
            self.chrome
                .say(Status::info("Stopped. a plays on, . plays one jump."));
            return Handled::Yes;
        }
        match self.chrome.capture(key) {
            Captured::Free => {}
            Captured::Taken => return Handled::Yes,
            Captured::Submitted(text) => {
                let result = said(self.act(|s| s.play_text(&text)));
                if self.session.is_over() {
                    self.chrome.close_prompt();
                } else {
                    // The prompt stays open for the next jump, with this one's result in it.
                    self.chrome.prompt_result = Some(result.clone());
                }
                self.chrome.say(result);
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
            Act::Cursor(code) => {
                self.cursor = step_cursor(self.board(), self.cursor, code);
                return Handled::Yes;
            }
            Act::Choose => self.choose(),
            Act::PutDown if self.selected.is_some() || self.session.solution_shown() => {
                self.selected = None;
                self.session.set_solution_shown(false);
                Status::info("Put down")
            }
            Act::PutDown => return Handled::No,
            Act::Type => {
                self.chrome
                    .open_prompt(Prompt::new("Jump", "d2-d4 or d2d4"));
                self.selected = None;
                return Handled::Yes;
            }
            Act::Solution if self.session.solution_shown() && !self.session.waiting() => {
                self.session.set_solution_shown(false);
                Status::info("Solution hidden")
            }
            Act::Solution => self.session.show_solution(),
            Act::Step => said(self.act(PegSession::step)),
            Act::Auto if self.session.is_over() => self.session.game_over_message(),
            Act::Auto => match self.session.answer() {
                Answer::Known(Verdict::Possible(_)) => {
                    self.session.set_solution_shown(true);
                    self.auto = Some(cfg.clock.now());
                    Status::info("Playing the solution: any key stops")
                }
                _ => self.session.show_solution(),
            },
            Act::Undo => said(self.act(PegSession::undo)),
            Act::Redo => said(self.act(PegSession::redo)),
            Act::Restart => self.act(PegSession::restart),
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

    fn tick(&mut self, cfg: &Config) {
        if let Some(msg) = self.act(PegSession::poll) {
            self.chrome.say(msg);
        }
        // Auto-play: one jump per step of time, catching up if ticks were late.
        while let Some(last) = self.auto {
            let now = cfg.clock.now();
            if now.saturating_sub(last) < AUTO_STEP {
                break;
            }
            match self.session.answer() {
                Answer::Known(Verdict::Possible(path)) if !path.is_empty() => {
                    self.auto = Some(last + AUTO_STEP);
                    let msg = said(self.act(PegSession::step));
                    self.chrome.say(msg);
                }
                Answer::Checking => break,
                _ => self.auto = None,
            }
        }
    }

    fn busy(&self) -> bool {
        self.session.busy()
    }

    fn wait(&mut self, cfg: &Config) {
        if let Some(msg) = self.act(|s| s.settle(None)) {
            self.chrome.say(msg);
        }
        self.tick(cfg);
    }

    fn rules(&self) -> Vec<Line<'static>> {
        paragraphs(play::peg::RULES)
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

    fn set_covered(&mut self, covered: bool, _cfg: &Config) {
        if covered {
            self.auto = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_walks_over_holes_only() {
        let b = Board::english();
        let h = |n: &str| b.parse_hole(n).unwrap();
        assert_eq!(step_cursor(&b, h("c1"), KeyCode::Left), h("e1"));
        assert_eq!(step_cursor(&b, h("e1"), KeyCode::Right), h("c1"));
        assert_eq!(step_cursor(&b, h("a3"), KeyCode::Up), h("a5"));
        assert_eq!(step_cursor(&b, h("d4"), KeyCode::Up), h("d3"));
        assert_eq!(step_cursor(&b, h("d7"), KeyCode::Down), h("d1"));
        let t = Board::builtin("triangle").unwrap();
        let n = |s: &str| t.parse_hole(s).unwrap();
        assert_eq!(step_cursor(&t, n("1"), KeyCode::Down), n("2"));
        assert_eq!(step_cursor(&t, n("5"), KeyCode::Up), n("2"));
        assert_eq!(step_cursor(&t, n("1"), KeyCode::Up), n("1"));
        assert_eq!(step_cursor(&t, n("11"), KeyCode::Down), n("11"));
        assert_eq!(step_cursor(&t, n("4"), KeyCode::Right), n("5"));
        assert_eq!(step_cursor(&t, n("6"), KeyCode::Right), n("4"));
    }
}
