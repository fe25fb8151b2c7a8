//! The sudoku screen: draws a [`SudokuSession`] (the grid with clues, digits, pencil marks, conflicts and the
//! hint's cells; a panel with the time, the counts and the hint) and turns keys into its actions. The game
//! itself, its rules and its save format are the `play` crate's.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use play::NextAction;
use play::sudoku::{Direction, End, Mode, Puzzle, Setup, SudokuError, SudokuSession, SudokuView};
use play::{Env, GameKind};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use sudoku::logic::tables::cell_name;

use super::chrome::{Captured, Chrome, Question, said};
use super::screen::{Choice, Config, GameScreen, Handled};
use super::theme::Theme;
use super::ui::{Binding, KeyHelp, KeyMap, Prompt, Status, key_lines, paragraphs};

/// The width of the panel beside the grid.
const PANEL_WIDTH: u16 = 29;

/// What a key does on this screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Move(Direction),
    Digit(u8),
    Erase,
    Pencil,
    AllMarks,
    Conflicts,
    Hint,
    Check,
    Solution,
    Type,
    Undo,
    Redo,
    New,
    Own,
}

/// The most characters the "your puzzle" prompt takes: a line of 81 with room for separators.
const OWN_MAX: usize = 200;

/// The keys of the sudoku screen, in footer order.
static KEYS: KeyMap<Act> = KeyMap(&[
    Binding {
        keys: "←↑↓→",
        help: "move the cursor",
        footer: Some(("←↑↓→", "move")),
        codes: &[
            (KeyCode::Up, Act::Move(Direction::Up)),
            (KeyCode::Down, Act::Move(Direction::Down)),
            (KeyCode::Left, Act::Move(Direction::Left)),
            (KeyCode::Right, Act::Move(Direction::Right)),
            (KeyCode::Home, Act::Move(Direction::Home)),
            (KeyCode::End, Act::Move(Direction::End)),
        ],
    },
    Binding {
        keys: "1-9",
        help: "put the digit in the cursor's cell (a pencil mark in pencil mode)",
        footer: Some(("1-9", "digit")),
        codes: &[
            (KeyCode::Char('1'), Act::Digit(1)),
            (KeyCode::Char('2'), Act::Digit(2)),
            (KeyCode::Char('3'), Act::Digit(3)),
            (KeyCode::Char('4'), Act::Digit(4)),
            (KeyCode::Char('5'), Act::Digit(5)),
            (KeyCode::Char('6'), Act::Digit(6)),
            (KeyCode::Char('7'), Act::Digit(7)),
            (KeyCode::Char('8'), Act::Digit(8)),
            (KeyCode::Char('9'), Act::Digit(9)),
        ],
    },
    Binding {
        keys: "0 Del",
        help: "erase the cell (its digit, or else its pencil marks)",
        footer: Some(("0", "erase")),
        codes: &[
            (KeyCode::Char('0'), Act::Erase),
            (KeyCode::Char('.'), Act::Erase),
            (KeyCode::Char(' '), Act::Erase),
            (KeyCode::Delete, Act::Erase),
            (KeyCode::Backspace, Act::Erase),
        ],
    },
    Binding {
        keys: "p",
        help: "switch between digits and pencil marks",
        footer: Some(("p", "pencil")),
        codes: &[(KeyCode::Char('p'), Act::Pencil)],
    },
    Binding {
        keys: "a",
        help: "fill every empty cell's pencil marks automatically",
        footer: Some(("a", "all marks")),
        codes: &[(KeyCode::Char('a'), Act::AllMarks)],
    },
    Binding {
        keys: "c",
        help: "highlight conflicting digits, or stop",
        footer: Some(("c", "conflicts")),
        codes: &[(KeyCode::Char('c'), Act::Conflicts)],
    },
    Binding {
        keys: "h",
        help: "hint: the next logical step, explained; h again applies it",
        footer: Some(("h", "hint")),
        codes: &[(KeyCode::Char('h'), Act::Hint)],
    },
    Binding {
        keys: "k",
        help: "check the grid: wrong entries and conflicts are marked",
        footer: Some(("k", "check")),
        codes: &[(KeyCode::Char('k'), Act::Check)],
    },
    Binding {
        keys: "v",
        help: "show the solution (ends the game)",
        footer: Some(("v", "solution")),
        codes: &[(KeyCode::Char('v'), Act::Solution)],
    },
    Binding {
        keys: ": Enter",
        help: "type \"row column value\", the ZX-81 way: 3 5 7 puts 7 in r3c5",
        footer: Some((":", "row col value")),
        codes: &[
            (KeyCode::Char(':'), Act::Type),
            (KeyCode::Enter, Act::Type),
            (KeyCode::Char('t'), Act::Type),
        ],
    },
    Binding {
        keys: "u / r",
        help: "undo / redo",
        footer: Some(("u/r", "undo/redo")),
        codes: &[
            (KeyCode::Char('u'), Act::Undo),
            (KeyCode::Char('r'), Act::Redo),
        ],
    },
    Binding {
        keys: "n",
        help: "a new puzzle with the same options",
        footer: Some(("n", "new")),
        codes: &[(KeyCode::Char('n'), Act::New)],
    },
    Binding {
        keys: "o",
        help: "play your own puzzle: type or paste it as one line of 81 (. or 0 for an empty cell)",
        footer: None,
        codes: &[(KeyCode::Char('o'), Act::Own)],
    },
]);

/// The sudoku screen.
pub struct SudokuScreen {
    session: SudokuSession,
    /// The prompt open is the one for a puzzle of the player's own (not a row-column-value entry).
    own_prompt: bool,
    chrome: Chrome,
}

/// Start a new game from the title screen's options.
pub fn start(choices: &[Choice], cfg: &Config, env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let setup = Setup::from_choices(choices, cfg.seed.unwrap_or_else(sudoku::rng::clock_seed))
        .map_err(|e| e.to_string())?;
    let session = SudokuSession::new(setup, env).map_err(|e| e.to_string())?;
    Ok(Box::new(SudokuScreen::over(session, None)))
}

/// A game of the player's own puzzle (`boardlab play sudoku --puzzle`); `n` then makes generated puzzles with
/// the default options.
pub fn own(puzzle: Puzzle, cfg: &Config, env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let setup = Setup {
        seed: cfg.seed.unwrap_or_else(sudoku::rng::clock_seed),
        ..Setup::default()
    };
    let label = puzzle.label.clone();
    let session = SudokuSession::with_puzzle(setup, puzzle, env).map_err(|e| e.to_string())?;
    Ok(Box::new(SudokuScreen::over(
        session,
        Some(Status::info(format!(
            "{label}. Fill the grid; ? shows the rules."
        ))),
    )))
}

/// Rebuild a saved game.
pub fn load(state: &serde_json::Value, env: &Env) -> Result<Box<dyn GameScreen>, String> {
    let session = SudokuSession::from_state(state, env)?;
    Ok(Box::new(SudokuScreen::over(
        session,
        Some(Status::info("Welcome back")),
    )))
}

impl SudokuScreen {
    fn over(session: SudokuSession, status: Option<Status>) -> SudokuScreen {
        let making = session
            .busy()
            .then(|| Status::info(format!("Making a {}…", session.setup().describe())));
        let mut s = SudokuScreen {
            session,
            own_prompt: false,
            chrome: Chrome::new(status.or(making)),
        };
        s.collect();
        s
    }

    /// Take the news of a puzzle made.
    fn collect(&mut self) {
        if let Some(news) = self.session.poll() {
            self.chrome.say(said(news));
        }
    }

    fn new_game(&mut self) {
        let msg = said(self.session.new_game());
        self.chrome.say(msg);
    }

    /// Ask for a puzzle of the player's own: typed or pasted as one line.
    fn open_own_prompt(&mut self) {
        self.own_prompt = true;
        self.chrome.open_prompt(
            Prompt::new("Your puzzle", "81 digits, . or 0 for empty; Enter plays it")
                .with_max(OWN_MAX),
        );
    }

    fn ended_key(&mut self, key: KeyEvent, end: End) -> Handled {
        match KEYS.action(key.code) {
            Some(Act::New) => self.new_game(),
            Some(Act::Move(d)) => self.session.move_cursor(d),
            Some(_) => self.chrome.say(SudokuError::Over(end).message()),
            None => return Handled::No,
        }
        Handled::Yes
    }

    /// The panel's status lines (puzzle, time, counts, modes, cursor cell).
    fn panel_status(&self, v: &SudokuView, t: &Theme) -> Vec<Line<'static>> {
        let row = |label: &str, value: String, style: Style| {
            Line::from(vec![
                Span::styled(format!("{label:<11}"), t.dim),
                Span::styled(value, style),
            ])
        };
        let (state, state_style) = match v.end {
            Some(End::Solved) => ("solved!", t.good),
            Some(End::Revealed) => ("solution shown", t.warn),
            None if !v.running => ("paused", t.dim),
            None => ("playing", t.text),
        };
        let cell = v.cursor;
        let what = if v.givens[cell] != 0 {
            format!("clue {}", v.values[cell])
        } else if v.values[cell] != 0 {
            format!("your {}", v.values[cell])
        } else if v.marks[cell] != 0 {
            format!("marks {}", digits_text(v.marks[cell]))
        } else {
            "empty".to_string()
        };
        let on_off = |on: bool, yes: &str, no: &str| if on { yes } else { no }.to_string();
        vec![
            Line::styled(v.label.clone(), t.title),
            row(
                "Time",
                play::clock::format_duration(std::time::Duration::from_millis(v.elapsed_ms)),
                t.text,
            ),
            row("State", state.into(), state_style),
            row("Cells left", v.cells_left.to_string(), t.text),
            row(
                "Mistakes",
                v.mistakes.to_string(),
                if v.mistakes > 0 { t.bad } else { t.text },
            ),
            row("Hints", v.hints.to_string(), t.text),
            row("Entry", on_off(v.pencil, "pencil marks", "digits"), t.text),
            row(
                "Conflicts",
                on_off(v.show_conflicts, "shown", "not shown"),
                t.text,
            ),
            Line::from(vec![
                Span::styled(format!("{:<11}", cell_name(cell)), t.key),
                Span::styled(what, t.text),
            ]),
        ]
    }

    fn footer_keys(&self, pencil: bool) -> Vec<KeyHelp> {
        let mut keys = KEYS.footer(|act, entry| match act {
            Act::Digit(_) if pencil => (entry.0, "mark"),
            _ => entry,
        });
        keys.extend_from_slice(super::app::SHELL_KEYS.footer(|_, e| e).as_slice());
        keys
    }
}

/// "1 4 7" from a mark mask.
fn digits_text(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << (d - 1)) != 0)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Draw the grid of `v` with its top-left corner at (x0, y0).
fn render_grid(frame: &mut Frame, x0: u16, y0: u16, geo: Geometry, v: &SudokuView, t: &Theme) {
    let buf = frame.buffer_mut();
    let area = buf.area;
    let mut put = |x: u16, y: u16, s: &str, style: Style| {
        if y < area.bottom() && x < area.right() {
            buf.set_string(x, y, s, style);
        }
    };
    let border = t.dim;
    let (w, h) = (geo.cell_w, geo.cell_h);
    // Horizontal borders, with the column numbers in the top one.
    for band in 0..4u16 {
        let (l, m, r) = match band {
            0 => ('┌', '┬', '┐'),
            3 => ('└', '┴', '┘'),
            _ => ('├', '┼', '┤'),
        };
        let mut line = String::new();
        line.push(l);
        for stack in 0..3 {
            for k in 0..3 {
                let col = stack * 3 + k + 1;
                let half = usize::from(w / 2);
                if band == 0 {
                    line.push_str(&"─".repeat(half));
                    line.push_str(&col.to_string());
                    line.push_str(&"─".repeat(usize::from(w) - half - 1));
                } else {
                    line.push_str(&"─".repeat(usize::from(w)));
                }
            }
            line.push(if stack == 2 { r } else { m });
        }
        put(x0 + 2, y0 + band * (3 * h + 1), &line, border);
    }
    let no_conflicts = Vec::new();
    let conflicts = if v.show_conflicts {
        &v.conflicts
    } else {
        &no_conflicts
    };
    let cursor_digit = v.values[v.cursor];
    for r in 0..9u16 {
        let y = y0 + 1 + r * h + r / 3;
        put(x0, y + (h - 1) / 2, &format!("{}", r + 1), border);
        for c in 0..9u16 {
            let x = x0 + 3 + c * w + c / 3;
            for dy in 0..h {
                if c % 3 == 0 {
                    put(x - 1, y + dy, "│", border);
                }
                if c == 8 {
                    put(x + w, y + dy, "│", border);
                }
            }
            let cell = usize::from(r * 9 + c);
            let d = v.values[cell];
            let given = v.givens[cell] != 0;
            // A checkerboard of two shades keeps neighbouring cells' pencil marks apart.
            let bg = if (r + c) % 2 == 1 { t.shaded } else { t.plain };
            // A highlight sets both colours (and wins over the digit's), keeping the digit's attributes.
            let mut highlight = None;
            if let Some(hint) = &v.hint {
                if hint.pattern.contains(&cell) {
                    highlight = Some(t.hint);
                } else if hint.targets.contains(&cell) {
                    highlight = Some(t.target);
                }
            }
            if cell == v.cursor {
                highlight = Some(t.cursor);
            }
            let mut fg = if given { t.given } else { t.entered };
            if d != 0 && (conflicts.contains(&cell) || v.flagged.contains(&cell)) {
                fg = t.bad;
            }
            if d != 0 && d == cursor_digit && cell != v.cursor && t.colour {
                fg = fg.add_modifier(Modifier::UNDERLINED);
            }
            let blank = " ".repeat(usize::from(w));
            let mut rows = vec![blank.clone(); usize::from(h)];
            let style = if d != 0 {
                let mut mid: Vec<char> = blank.chars().collect();
                mid[usize::from(w / 2)] = char::from(b'0' + d);
                rows[usize::from((h - 1) / 2)] = mid.into_iter().collect();
                bg.patch(fg)
            } else {
                let m = v.marks[cell];
                let digit = |d: u8| {
                    if m & (1 << (d - 1)) != 0 {
                        char::from(b'0' + d)
                    } else {
                        ' '
                    }
                };
                if h >= 3 {
                    // " 1 2 3 " / " 4 5 6 " / " 7 8 9 "
                    for (k, row) in rows.iter_mut().enumerate().take(3) {
                        let mut line: Vec<char> = blank.chars().collect();
                        for j in 0..3u8 {
                            let pos = usize::from(w / 2) - 2 + 2 * usize::from(j);
                            line[pos] = digit(k as u8 * 3 + j + 1);
                        }
                        *row = line.into_iter().collect();
                    }
                } else {
                    // Five columns hold at most four marks a row, so that the last column stays blank and the
                    // marks of neighbouring cells never run together: "137 " / "89  "; all nine: "1234" / "5-9".
                    let set: Vec<char> = (1..=9u8)
                        .filter(|&d| m & (1 << (d - 1)) != 0)
                        .map(|d| char::from(b'0' + d))
                        .collect();
                    let line = |chars: &[char]| -> String {
                        let mut l: String = chars.iter().collect();
                        while l.chars().count() < usize::from(w) {
                            l.push(' ');
                        }
                        l
                    };
                    if set.len() == 9 {
                        rows[0] = line(&set[..4]);
                        rows[1] = line(&['5', '-', '9']);
                    } else {
                        let (a, b) = set.split_at(set.len().min(4));
                        rows[0] = line(a);
                        rows[1] = line(b);
                    }
                }
                bg.patch(t.pencil)
            };
            let style = match highlight {
                Some(hl) => style.patch(hl),
                None => style,
            };
            for (dy, row) in rows.iter().enumerate() {
                put(x, y + dy as u16, row, style);
            }
        }
    }
}

/// The size of the drawn grid: cells of 5x2 characters in an 80x24 terminal, 7x3 (room for pencil marks in a
/// 3x3 block) from 99x33 up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Geometry {
    cell_w: u16,
    cell_h: u16,
}

impl Geometry {
    const SMALL: Geometry = Geometry {
        cell_w: 5,
        cell_h: 2,
    };
    const LARGE: Geometry = Geometry {
        cell_w: 7,
        cell_h: 3,
    };

    /// The largest geometry that fits `area` with a panel of `PANEL_WIDTH` beside it.
    fn fitting(area: Rect) -> Geometry {
        let large = Geometry::LARGE;
        if area.width >= large.width() + 1 + PANEL_WIDTH && area.height >= large.height() {
            large
        } else {
            Geometry::SMALL
        }
    }

    /// Width: row labels, four borders, nine cells.
    fn width(self) -> u16 {
        2 + 4 + 9 * self.cell_w
    }

    /// Height: four borders, nine cells.
    fn height(self) -> u16 {
        4 + 9 * self.cell_h
    }
}

impl GameScreen for SudokuScreen {
    fn key_of(&self, action: NextAction) -> Option<String> {
        match action {
            NextAction::NewGame => KEYS.key_of(Act::New),
            NextAction::Undo => KEYS.key_of(Act::Undo),
            NextAction::FillMarks => KEYS.key_of(Act::AllMarks),
            NextAction::DigitMode | NextAction::PencilMode => KEYS.key_of(Act::Pencil),
            _ => None,
        }
    }

    fn game(&self) -> GameKind {
        GameKind::Sudoku
    }

    fn heading(&self) -> String {
        let setup = self.session.setup();
        match setup.mode {
            Mode::Graded => format!("{} · {} symmetry", setup.difficulty, setup.symmetry),
            Mode::Classic => format!(
                "classic · {} hidden{}",
                setup.hide,
                match self.session.puzzle() {
                    Some(p) if p.unique => " · one solution",
                    Some(_) => " · several solutions",
                    None => "",
                }
            ),
        }
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let t = &cfg.theme;
        let v = self.session.view();
        let geo = Geometry::fitting(area);
        let (gw, gh) = (geo.width(), geo.height());
        let total_w = (gw + 1 + PANEL_WIDTH).min(area.width);
        let x0 = area.x + (area.width - total_w) / 2;
        let y0 = area.y + area.height.saturating_sub(gh) / 2;
        if !v.ready {
            let msg = Paragraph::new(vec![
                Line::raw(""),
                Line::styled(format!("Making a {}…", v.describe), t.title),
            ]);
            frame.render_widget(
                msg,
                Rect {
                    x: x0,
                    width: gw,
                    ..area
                },
            );
            return;
        }
        render_grid(frame, x0, y0, geo, &v, t);
        // The panel: status at the top, keys at the bottom, the hint in between.
        let panel = Rect {
            x: x0 + gw + 1,
            y: y0,
            width: area.right().saturating_sub(x0 + gw + 1),
            height: gh.min(area.bottom() - y0),
        };
        let status = self.panel_status(&v, t);
        let keys = key_lines(
            &self.footer_keys(v.pencil),
            panel.width.saturating_sub(1),
            t,
        );
        let top_h = u16::try_from(status.len()).unwrap_or(0).min(panel.height);
        let keys_h = u16::try_from(keys.len())
            .unwrap_or(0)
            .min(panel.height.saturating_sub(top_h));
        let top = Rect {
            height: top_h,
            ..panel
        };
        let bottom = Rect {
            y: panel.bottom() - keys_h,
            height: keys_h,
            ..panel
        };
        let middle = Rect {
            y: top.bottom() + 1,
            height: bottom.y.saturating_sub(top.bottom() + 2),
            ..panel
        };
        frame.render_widget(Paragraph::new(status), top);
        frame.render_widget(Paragraph::new(keys), bottom);
        if let Some(h) = &v.hint {
            let mut spans = vec![
                Span::styled("Hint:", t.hint),
                Span::raw(" "),
                Span::raw(h.text.clone()),
            ];
            if h.applicable() {
                spans.push(Span::styled(" Press h again to apply it.", t.dim));
            }
            frame.render_widget(
                Paragraph::new(Line::from(spans)).wrap(Wrap { trim: true }),
                middle,
            );
        }
    }

    fn handle_key(&mut self, key: KeyEvent, _cfg: &Config) -> Handled {
        match self.chrome.capture(key) {
            Captured::Free => {}
            Captured::Taken => return Handled::Yes,
            Captured::Submitted(text) if self.own_prompt => {
                match Puzzle::from_text(&text, "Your puzzle") {
                    Ok(puzzle) => {
                        self.chrome.close_prompt();
                        let msg = self.session.play_puzzle(puzzle);
                        self.chrome.say(msg);
                    }
                    Err(e) => self.chrome.prompt_result = Some(e.message()),
                }
                return Handled::Yes;
            }
            Captured::Submitted(text) => {
                let result = said(self.session.type_entry(&text));
                self.chrome.say(result.clone());
                self.chrome.prompt_result = Some(result);
                if self.session.end().is_some() {
                    self.chrome.close_prompt();
                }
                return Handled::Yes;
            }
            Captured::Yes(Question::NewGame) => {
                self.new_game();
                return Handled::Yes;
            }
            Captured::Yes(Question::Reveal) => {
                let msg = said(self.session.reveal());
                self.chrome.say(msg);
                return Handled::Yes;
            }
        }
        if KEYS.action(key.code) == Some(Act::Own) && !key.modifiers.contains(KeyModifiers::CONTROL)
        {
            self.open_own_prompt();
            return Handled::Yes;
        }
        if self.session.puzzle().is_none() {
            return Handled::No;
        }
        if let Some(end) = self.session.end() {
            return self.ended_key(key, end);
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            || key.modifiers.contains(KeyModifiers::ALT)
        {
            return Handled::No;
        }
        let Some(act) = KEYS.action(key.code) else {
            return Handled::No;
        };
        let s = &mut self.session;
        let status = match act {
            Act::Move(d) => {
                s.move_cursor(d);
                return Handled::Yes;
            }
            Act::Digit(d) => said(s.enter_at_cursor(d)),
            Act::Erase => said(s.enter_at_cursor(0)),
            Act::Pencil => s.toggle_pencil(),
            Act::AllMarks => said(s.fill_marks()),
            Act::Conflicts => s.toggle_conflicts(),
            Act::Hint if s.shown_hint().is_some() => said(s.apply_hint()),
            Act::Hint => said(s.hint()),
            Act::Check => said(s.check()),
            Act::Solution => {
                self.chrome
                    .ask(Question::Reveal, "Show the solution and end this game?");
                return Handled::Yes;
            }
            Act::New => {
                if self.chrome.new_game_now(&self.session, "puzzle") {
                    self.new_game();
                }
                return Handled::Yes;
            }
            Act::Undo => said(s.undo()),
            Act::Redo => said(s.redo()),
            Act::Own => {
                self.open_own_prompt();
                return Handled::Yes;
            }
            Act::Type => {
                self.own_prompt = false;
                self.chrome.open_prompt(Prompt::new(
                    "Row column value",
                    "3 5 7 puts 7 in r3c5; 3 5 0 erases",
                ));
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
        self.collect();
    }

    fn busy(&self) -> bool {
        self.session.busy()
    }

    fn wait(&mut self, _cfg: &Config) {
        if let Some(news) = self.session.wait() {
            self.chrome.say(said(news));
        }
    }

    fn rules(&self) -> Vec<Line<'static>> {
        paragraphs(play::sudoku::RULES)
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
        self.session.set_paused(covered);
    }
}
