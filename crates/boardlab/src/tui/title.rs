//! The title screen: choose a game, set its options, start it; or resume a saved game.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Wrap};

use super::games;
use super::screen::{Choice, Config};
use super::ui::{KeyHelp, key_lines};
use play::GameKind;

/// One row of the title menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A game to start.
    Game(GameKind),
    /// Option `usize` of a game.
    Option(GameKind, usize),
    /// Resume the saved game in the default save file.
    Resume(GameKind),
    /// The help screen.
    Help,
    /// Leave boardlab.
    Quit,
}

/// What the title screen asks the shell to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleAction {
    /// Nothing.
    None,
    /// Start a new game with the options shown.
    Start(GameKind),
    /// Resume the saved game of this kind.
    Resume(GameKind),
    /// Open the help screen.
    Help,
    /// Quit.
    Quit,
}

/// The keys of the title screen.
pub const KEYS: &[KeyHelp] = &[
    ("↑↓", "choose"),
    ("←→", "change option"),
    ("Enter", "play"),
    ("?", "help and rules"),
    ("q", "quit"),
];

/// The state of the title screen.
#[derive(Debug, Clone)]
pub struct Title {
    cursor: Row,
    choices: [Vec<Choice>; 3],
    saves: Vec<GameKind>,
}

fn slot(game: GameKind) -> usize {
    match game {
        GameKind::Mouse => 0,
        GameKind::Peg => 1,
        GameKind::Sudoku => 2,
    }
}

impl Title {
    /// The title screen with `game` highlighted, the default options, and the saves found in `cfg.save_dir`.
    pub fn new(game: GameKind, cfg: &Config) -> Title {
        let mut t = Title {
            cursor: Row::Game(game),
            choices: [
                games::choices(GameKind::Mouse),
                games::choices(GameKind::Peg),
                games::choices(GameKind::Sudoku),
            ],
            saves: Vec::new(),
        };
        t.refresh_saves(cfg);
        t
    }

    /// Look again for saved games (after a save, or when coming back to the title).
    pub fn refresh_saves(&mut self, cfg: &Config) {
        self.saves = GameKind::ALL
            .into_iter()
            .filter(|g| cfg.save_path(*g).is_file())
            .collect();
        if let Row::Resume(g) = self.cursor
            && !self.saves.contains(&g)
        {
            self.cursor = Row::Game(g);
        }
    }

    /// The options of `game` as currently set.
    pub fn choices(&self, game: GameKind) -> &[Choice] {
        &self.choices[slot(game)]
    }

    /// Set the options of `game` (e.g. to those of a game just left, so "new game" keeps them).
    pub fn set_choices(&mut self, game: GameKind, choices: Vec<Choice>) {
        if choices.len() == self.choices[slot(game)].len() {
            self.choices[slot(game)] = choices;
        }
    }

    /// The highlighted row.
    pub fn cursor(&self) -> Row {
        self.cursor
    }

    /// The game whose options are open: that of the highlighted row.
    fn open_game(&self) -> Option<GameKind> {
        match self.cursor {
            Row::Game(g) | Row::Option(g, _) => Some(g),
            _ => None,
        }
    }

    /// The menu rows, in order.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        let open = self.open_game();
        for g in GameKind::ALL {
            rows.push(Row::Game(g));
            if open == Some(g) {
                for i in 0..self.choices[slot(g)].len() {
                    rows.push(Row::Option(g, i));
                }
            }
        }
        for g in &self.saves {
            rows.push(Row::Resume(*g));
        }
        rows.push(Row::Help);
        rows.push(Row::Quit);
        rows
    }

    /// Handle a key.
    pub fn handle_key(&mut self, key: KeyEvent) -> TitleAction {
        let rows = self.rows();
        let at = rows.iter().position(|r| *r == self.cursor).unwrap_or(0);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.move_to(&rows, at, -1);
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.move_to(&rows, at, 1);
            }
            KeyCode::Left | KeyCode::Char('h') => self.change(false),
            KeyCode::Right | KeyCode::Char('l') => self.change(true),
            KeyCode::Home => self.cursor = Row::Game(GameKind::Mouse),
            KeyCode::Char('1') => self.cursor = Row::Game(GameKind::Mouse),
            KeyCode::Char('2') => self.cursor = Row::Game(GameKind::Peg),
            KeyCode::Char('3') => self.cursor = Row::Game(GameKind::Sudoku),
            KeyCode::Enter | KeyCode::Char(' ') => {
                return match self.cursor {
                    Row::Game(g) | Row::Option(g, _) => TitleAction::Start(g),
                    Row::Resume(g) => TitleAction::Resume(g),
                    Row::Help => TitleAction::Help,
                    Row::Quit => TitleAction::Quit,
                };
            }
            KeyCode::Char('?') | KeyCode::F(1) => return TitleAction::Help,
            KeyCode::Char('q') | KeyCode::Esc => return TitleAction::Quit,
            _ => {}
        }
        TitleAction::None
    }

    fn move_to(&mut self, rows: &[Row], at: usize, step: isize) {
        let n = rows.len();
        if n == 0 {
            return;
        }
        let next = (at as isize + step).rem_euclid(n as isize) as usize;
        let target = rows[next];
        // Moving up from a game onto the options of the game above lands on that game instead, so the
        // accordion opens downward the way the eye expects.
        self.cursor = match (step < 0, target) {
            (true, Row::Option(g, _)) if self.open_game() != Some(g) => Row::Game(g),
            _ => target,
        };
    }

    fn change(&mut self, forward: bool) {
        if let Row::Option(g, i) = self.cursor
            && let Some(c) = self.choices[slot(g)].get_mut(i)
        {
            if forward {
                c.next();
            } else {
                c.prev();
            }
            games::refresh_choices(g, &mut self.choices[slot(g)]);
        }
    }

    /// Draw the title screen into `area`.
    pub fn render(&self, frame: &mut Frame, area: Rect, cfg: &Config) {
        let theme = &cfg.theme;
        let [main, keys] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
        let [left, right] =
            Layout::horizontal([Constraint::Length(38), Constraint::Fill(1)]).areas(main);

        let mut lines: Vec<Line> = Vec::new();
        let mut prev = None;
        for row in self.rows() {
            let here = row == self.cursor;
            let marker = if here { "▶ " } else { "  " };
            let line = match row {
                Row::Game(g) => {
                    let mut spans = vec![
                        Span::styled(marker, theme.title),
                        Span::styled(g.name(), if here { theme.cursor } else { theme.title }),
                    ];
                    if !games::playable(g) {
                        spans.push(Span::styled("  (not yet)", theme.dim));
                    }
                    Line::from(spans)
                }
                Row::Option(g, i) => {
                    let c = &self.choices[slot(g)][i];
                    let value = format!("◀ {} ▶", c.value());
                    // Indented under the game's name, with room for the longest value ("◀ 10 (perfect) ▶").
                    Line::from(vec![
                        Span::raw("  "),
                        Span::styled(marker, theme.title),
                        Span::styled(format!("{:<14}", c.label), theme.text),
                        Span::styled(value, if here { theme.cursor } else { theme.key }),
                    ])
                }
                Row::Resume(g) => Line::from(vec![
                    Span::styled(marker, theme.title),
                    Span::styled(
                        format!("Resume saved {}", g.name()),
                        if here { theme.cursor } else { theme.text },
                    ),
                ]),
                Row::Help => Line::from(vec![
                    Span::styled(marker, theme.title),
                    Span::styled(
                        "Help and rules",
                        if here { theme.cursor } else { theme.text },
                    ),
                ]),
                Row::Quit => Line::from(vec![
                    Span::styled(marker, theme.title),
                    Span::styled("Quit", if here { theme.cursor } else { theme.text }),
                ]),
            };
            let first_resume =
                matches!(row, Row::Resume(_)) && !matches!(prev, Some(Row::Resume(_)));
            if first_resume || row == Row::Help {
                lines.push(Line::raw(""));
            }
            lines.push(line);
            prev = Some(row);
        }
        let menu = Paragraph::new(lines).block(
            Block::bordered()
                .title(Span::styled(" Choose a game ", theme.title))
                .border_style(theme.dim)
                .padding(Padding::horizontal(1)),
        );
        frame.render_widget(menu, left);

        let (heading, mut text) = self.explain(cfg);
        text.insert(0, Line::raw(""));
        let info = Paragraph::new(text).wrap(Wrap { trim: true }).block(
            Block::bordered()
                .title(Span::styled(format!(" {heading} "), theme.title))
                .border_style(theme.dim)
                .padding(Padding::horizontal(1)),
        );
        frame.render_widget(info, right);

        let key_line = key_lines(KEYS, keys.width.saturating_sub(1), theme);
        frame.render_widget(
            Paragraph::new(key_line),
            keys.inner(ratatui::layout::Margin::new(1, 0)),
        );
    }

    /// The heading and text of the right-hand panel for the highlighted row.
    fn explain(&self, cfg: &Config) -> (String, Vec<Line<'static>>) {
        let theme = &cfg.theme;
        match self.cursor {
            Row::Game(g) | Row::Option(g, _) => {
                let mut text = vec![Line::raw(games::description(g))];
                if let Row::Option(_, i) = self.cursor
                    && let Some(c) = self.choices[slot(g)].get(i)
                {
                    text.push(Line::raw(""));
                    text.push(Line::from(vec![
                        Span::styled(format!("{}: ", c.label), theme.title),
                        Span::raw(c.note.clone()),
                    ]));
                } else if !self.choices[slot(g)].is_empty() {
                    text.push(Line::raw(""));
                    text.push(Line::styled(
                        "Press ↓ to set the options, Enter to play.",
                        theme.dim,
                    ));
                }
                if !games::playable(g) {
                    text.push(Line::raw(""));
                    text.push(Line::styled(
                        format!("{} cannot be played in this build yet.", g.name()),
                        theme.warn,
                    ));
                }
                (g.name().to_string(), text)
            }
            Row::Resume(g) => (
                format!("Resume {}", g.name()),
                vec![
                    Line::raw("Continue the game saved in"),
                    Line::styled(cfg.save_path(g).display().to_string(), theme.key),
                ],
            ),
            Row::Help => (
                "Help".to_string(),
                vec![Line::raw(
                    "How to play each game, and the keys. Press ? at any time for the help of the screen \
                     you are on.",
                )],
            ),
            Row::Quit => ("Quit".to_string(), vec![Line::raw("Leave boardlab.")]),
        }
    }
}
