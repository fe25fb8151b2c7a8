//! The application shell: the title screen or a game, the help screen, questions, saving and loading, and the
//! event loop.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::{Frame, Terminal};

use std::sync::{Arc, OnceLock};

use play::{Env, GameKind, PegTables};

use super::games;
use super::job::Threads;
use super::save::{self, SaveError, SaveFile};
use super::screen::{Config, GameScreen, Handled};
use super::title::{self, Title, TitleAction};
use super::ui::{self, Binding, KeyMap, MIN_HEIGHT, MIN_WIDTH, Status, key_table, status_style};

/// A question or screen drawn over the game or the title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Overlay {
    /// The help screen, scrolled down by this many lines.
    Help(u16),
    /// "Leave this game?"
    ConfirmLeave,
}

/// What a shell key does on a game screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShellKey {
    /// Save the game.
    Save,
    /// Open the help.
    Help,
    /// Leave the game (asks first when something would be lost).
    Leave,
}

/// The keys the shell handles on a game screen (after the game has declined them), in footer order. Ctrl+C is
/// answered before anything else, from every screen.
pub static SHELL_KEYS: KeyMap<ShellKey> = KeyMap(&[
    Binding {
        keys: "s",
        help: "save the game",
        footer: Some(("s", "save")),
        codes: &[(KeyCode::Char('s'), ShellKey::Save)],
    },
    Binding {
        keys: "?  F1",
        help: "help and rules",
        footer: Some(("?", "help")),
        codes: &[
            (KeyCode::Char('?'), ShellKey::Help),
            (KeyCode::F(1), ShellKey::Help),
        ],
    },
    Binding {
        keys: "q  Esc",
        help: "leave the game (asks first)",
        footer: Some(("q", "leave")),
        codes: &[
            (KeyCode::Char('q'), ShellKey::Leave),
            (KeyCode::Esc, ShellKey::Leave),
        ],
    },
    Binding {
        keys: "Ctrl+C",
        help: "quit boardlab at once (a game with unsaved moves is saved first)",
        footer: None,
        codes: &[],
    },
]);

/// The complete peg tables of this process: one terminal is one player, so every game of the process (and every
/// `App`, as tests make many) shares them, and a new game of the same kind finds its table ready.
fn process_peg_tables() -> PegTables {
    static TABLES: OnceLock<PegTables> = OnceLock::new();
    TABLES.get_or_init(PegTables::default).clone()
}

/// The whole interface: what is on screen and what the keys do.
pub struct App {
    cfg: Config,
    /// What the game sessions run on: threads for background work, the clock, the shared caches.
    env: Env,
    title: Title,
    game: Option<Box<dyn GameScreen>>,
    overlay: Option<Overlay>,
    /// A message from the shell (saved, load failed…), shown until the next key.
    message: Option<Status>,
    /// Where `s` saves the current game: the file it was loaded from, or the default save file.
    save_path: Option<PathBuf>,
    quit: bool,
    /// The size of the last frame drawn, to know whether the "too small" screen is showing.
    size: (u16, u16),
    /// Set when quitting could not save the game: the next Ctrl+C (or q on the "too small" screen) quits
    /// without saving.
    quit_unsaved_armed: bool,
    /// What to tell the player once the terminal is restored (where a game was saved on the way out).
    exit_note: Option<String>,
    /// F12 panics on purpose (set from `BOARDLAB_TEST_PANIC_KEY` by [`super::run`], to test the panic hook).
    pub panic_key: bool,
}

impl App {
    /// The interface on its title screen, with `game` highlighted.
    pub fn new(cfg: Config, game: GameKind) -> App {
        let title = Title::new(game, &cfg);
        let mut env = Env::new(Arc::new(Threads), cfg.clock.clone());
        env.peg_tables = process_peg_tables();
        App {
            cfg,
            env,
            title,
            game: None,
            overlay: None,
            message: None,
            save_path: None,
            quit: false,
            quit_unsaved_armed: false,
            exit_note: None,
            size: (MIN_WIDTH, MIN_HEIGHT),
            panic_key: false,
        }
    }

    /// The interface straight into a new game of `game` with its default options (the title screen, with a
    /// message, if it cannot start).
    pub fn new_game(cfg: Config, game: GameKind) -> App {
        let mut app = App::new(cfg, game);
        app.start(game);
        app
    }

    /// The interface resuming the game saved in `path`.
    pub fn load(cfg: Config, path: &Path) -> Result<App, SaveError> {
        let save = save::read(path)?;
        let game = save.kind().map_err(|e| SaveError::of(path, e))?;
        let mut app = App::new(cfg, game);
        app.resume(&save, path)?;
        Ok(app)
    }

    /// The interface straight into a game of the player's own sudoku puzzle.
    pub fn own_sudoku(cfg: Config, puzzle: play::sudoku::Puzzle) -> App {
        let mut app = App::new(cfg, GameKind::Sudoku);
        match super::sudoku::own(puzzle, &app.cfg, &app.env) {
            Ok(screen) => app.game = Some(screen),
            Err(e) => app.message = Some(Status::error(e)),
        }
        app
    }

    /// Open the game saved in `save`, read from `path` (which `s` then saves to again).
    fn resume(&mut self, save: &SaveFile, path: &Path) -> Result<(), SaveError> {
        let game = save.kind().map_err(|e| SaveError::of(path, e))?;
        let screen = games::load(game, &save.state, &self.env)
            .map_err(|reason| SaveError::of(path, play::SaveError::Damaged { game, reason }))?;
        self.game = Some(screen);
        self.save_path = Some(path.to_path_buf());
        self.message = Some(Status::info(format!("Resumed {}", path.display())));
        Ok(())
    }

    /// The settings in use.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Whether the player has asked to quit.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The game on screen, if any.
    pub fn game(&self) -> Option<&dyn GameScreen> {
        self.game.as_deref()
    }

    /// Where `s` would save the game on screen.
    pub fn save_path(&self) -> Option<PathBuf> {
        let game = self.game.as_ref()?;
        Some(
            self.save_path
                .clone()
                .unwrap_or_else(|| self.cfg.save_path(game.game())),
        )
    }

    /// Handle one terminal event. Only key presses count (not releases or repeats reported as such).
    pub fn handle_event(&mut self, event: Event) {
        if let Event::Key(key) = event
            && key.kind == KeyEventKind::Press
        {
            self.handle_key(key);
        }
    }

    /// Handle one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if ui::is_ctrl_c(&key) {
            self.quit_keeping_the_game();
            return;
        }
        if self.panic_key && key.code == KeyCode::F(12) {
            panic!("deliberate panic (F12 with BOARDLAB_TEST_PANIC_KEY set)");
        }
        if self.size.0 < MIN_WIDTH || self.size.1 < MIN_HEIGHT {
            // Nothing can be seen: only quitting is safe, and it keeps the game.
            if matches!(key.code, KeyCode::Char('q') | KeyCode::Char('Q')) {
                self.quit_keeping_the_game();
            }
            return;
        }
        self.message = None;
        match self.overlay {
            Some(Overlay::Help(scroll)) => {
                self.help_key(key, scroll);
                return;
            }
            Some(Overlay::ConfirmLeave) => {
                self.confirm_key(key);
                return;
            }
            None => {}
        }
        let Some(game) = self.game.as_mut() else {
            self.title_key(key);
            return;
        };
        // A screen with a prompt or a question open takes every key.
        let capturing = game.capturing();
        if game.handle_key(key, &self.cfg) == Handled::Yes || capturing {
            return;
        }
        match SHELL_KEYS.action(key.code) {
            Some(ShellKey::Help) => self.open_overlay(Overlay::Help(0)),
            Some(ShellKey::Save) => {
                self.save();
            }
            Some(ShellKey::Leave) => {
                if game.unsaved() {
                    self.open_overlay(Overlay::ConfirmLeave);
                } else {
                    self.leave();
                }
            }
            None => {}
        }
    }

    fn open_overlay(&mut self, overlay: Overlay) {
        self.overlay = Some(overlay);
        if let Some(g) = self.game.as_mut() {
            g.set_covered(true, &self.cfg);
        }
    }

    fn close_overlay(&mut self) {
        self.overlay = None;
        if let Some(g) = self.game.as_mut() {
            g.set_covered(false, &self.cfg);
        }
    }

    fn title_key(&mut self, key: KeyEvent) {
        match self.title.handle_key(key) {
            TitleAction::None => {}
            TitleAction::Start(g) => self.start(g),
            TitleAction::Resume(g) => {
                let path = self.cfg.save_path(g);
                if let Err(e) = save::read(&path).and_then(|s| self.resume(&s, &path)) {
                    self.message = Some(Status::error(e.to_string()));
                }
            }
            TitleAction::Help => self.overlay = Some(Overlay::Help(0)),
            TitleAction::Quit => self.quit = true,
        }
    }

    fn start(&mut self, game: GameKind) {
        match games::start(game, self.title.choices(game), &self.cfg, &self.env) {
            Ok(screen) => {
                self.game = Some(screen);
                self.save_path = None;
            }
            Err(e) => self.message = Some(Status::error(e)),
        }
    }

    fn help_key(&mut self, key: KeyEvent, scroll: u16) {
        let scroll = match key.code {
            KeyCode::Up | KeyCode::Char('k') => scroll.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => scroll.saturating_add(1),
            KeyCode::PageUp => scroll.saturating_sub(10),
            KeyCode::PageDown | KeyCode::Char(' ') => scroll.saturating_add(10),
            KeyCode::Home => 0,
            _ => {
                self.close_overlay();
                return;
            }
        };
        self.overlay = Some(Overlay::Help(scroll));
    }

    fn confirm_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Char('q') => {
                self.close_overlay();
                self.leave();
            }
            KeyCode::Char('s') | KeyCode::Char('S') => {
                self.close_overlay();
                if self.save() {
                    self.leave();
                    if let Some(path) = &self.save_path.take() {
                        self.message = Some(Status::good(format!("Saved to {}", path.display())));
                    }
                }
            }
            _ => self.close_overlay(),
        }
    }

    /// Save the game on screen; false (and a message) on failure.
    fn save(&mut self) -> bool {
        let Some(game) = self.game.as_mut() else {
            return false;
        };
        let path = self
            .save_path
            .clone()
            .unwrap_or_else(|| self.cfg.save_path(game.game()));
        let file = SaveFile::new(game.game(), game.save_state(&self.cfg));
        match save::write(&file, &path) {
            Ok(()) => {
                game.mark_saved();
                self.message = Some(Status::good(format!("Saved to {}", path.display())));
                self.save_path = Some(path);
                true
            }
            Err(e) => {
                self.message = Some(Status::error(format!("Not saved: {e}")));
                false
            }
        }
    }

    /// Quit at once, keeping the game: one with unsaved moves is saved first (to the file it came from, else
    /// its default save file). If that fails the interface stays, says why, and the same key again quits
    /// without saving.
    fn quit_keeping_the_game(&mut self) {
        let unsaved = self.game.as_ref().is_some_and(|g| g.unsaved());
        if !unsaved || self.quit_unsaved_armed {
            self.quit = true;
            return;
        }
        if self.save() {
            self.exit_note = self
                .save_path
                .as_ref()
                .map(|p| format!("Your game was saved to {}", p.display()));
            self.quit = true;
        } else {
            self.quit_unsaved_armed = true;
            let why = self
                .message
                .take()
                .map(|m| m.text)
                .unwrap_or_else(|| "Not saved".into());
            self.message = Some(Status::error(format!(
                "{why}. Ctrl+C again quits without saving."
            )));
        }
    }

    /// What to tell the player after the interface has closed: where a game was saved on the way out.
    pub fn exit_note(&self) -> Option<&str> {
        self.exit_note.as_deref()
    }

    /// Back to the title screen.
    fn leave(&mut self) {
        if let Some(g) = self.game.take() {
            self.title = {
                let mut t = Title::new(g.game(), &self.cfg);
                for game in GameKind::ALL {
                    t.set_choices(game, self.title.choices(game).to_vec());
                }
                t
            };
        }
        self.title.refresh_saves(&self.cfg);
        self.save_path = None;
    }

    /// Collect background work and move timers on; call it regularly.
    pub fn tick(&mut self) {
        if let Some(g) = self.game.as_mut() {
            g.tick(&self.cfg);
        }
    }

    /// Block until the game's background work (engine, solver) has finished and been collected.
    pub fn wait_idle(&mut self) {
        if let Some(g) = self.game.as_mut() {
            g.wait(&self.cfg);
        }
    }

    /// Draw the whole interface.
    pub fn render(&mut self, frame: &mut Frame) {
        let area = frame.area();
        self.size = (area.width, area.height);
        let theme = self.cfg.theme;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            ui::render_too_small(frame, &theme);
            return;
        }
        let [top, body, foot] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);

        // Title bar.
        let heading = match &self.game {
            Some(g) => format!(" {} · {}", g.game().name(), g.heading()),
            None => " boardlab · board games in the terminal".to_string(),
        };
        let right = match (&self.game, self.overlay) {
            (_, Some(Overlay::Help(_))) => "↑↓ scroll  any other key: back ",
            (Some(_), _) => "? help  s save  q leave ",
            (None, _) => "? help  q quit ",
        };
        let rw = u16::try_from(right.chars().count())
            .unwrap_or(0)
            .min(top.width);
        let room = usize::from(top.width.saturating_sub(rw + 1));
        let heading = if heading.chars().count() > room {
            let cut: String = heading.chars().take(room.saturating_sub(1)).collect();
            format!("{cut}…")
        } else {
            heading
        };
        let bar = Line::from(vec![Span::styled(heading, theme.title)]);
        frame.render_widget(Paragraph::new(bar), top);
        frame.render_widget(
            Paragraph::new(Line::styled(right, theme.dim)),
            Rect {
                x: top.x + top.width - rw,
                width: rw,
                ..top
            },
        );

        // Body.
        if let Some(Overlay::Help(scroll)) = self.overlay {
            self.render_help(frame, body, scroll);
        } else {
            match self.game.as_mut() {
                Some(g) => g.render(frame, body, &self.cfg),
                None => self.title.render(frame, body, &self.cfg),
            }
        }

        // Status line, or the game's prompt.
        if self.message.is_none()
            && let Some(line) = self.game.as_ref().and_then(|g| g.footer(&theme))
        {
            frame.render_widget(Paragraph::new(line), foot.inner(Margin::new(1, 0)));
        } else if let Some(s) = self
            .message
            .clone()
            .or_else(|| self.game.as_ref().and_then(|g| g.status()))
        {
            let game = self.game.as_deref();
            let text = ui::status_text(&s, |a| match a {
                play::NextAction::Leave => SHELL_KEYS.key_of(ShellKey::Leave),
                play::NextAction::Rules => SHELL_KEYS.key_of(ShellKey::Help),
                other => game.and_then(|g| g.key_of(other)),
            });
            frame.render_widget(
                Paragraph::new(Line::styled(format!(" {text}"), status_style(&s, &theme))),
                foot,
            );
        }

        if self.overlay == Some(Overlay::ConfirmLeave) {
            let lines = vec![
                Line::raw("Leave this game? Moves since the last save"),
                Line::raw("will be lost."),
                Line::raw(""),
                Line::from(vec![
                    Span::styled("y", theme.key),
                    Span::raw(" leave   "),
                    Span::styled("s", theme.key),
                    Span::raw(" save and leave   "),
                    Span::styled("n", theme.key),
                    Span::raw(" stay"),
                ]),
            ];
            ui::popup(frame, body, "Leave the game", lines, &theme);
        }
    }

    fn render_help(&mut self, frame: &mut Frame, area: Rect, scroll: u16) {
        let theme = &self.cfg.theme;
        let mut lines: Vec<Line<'static>> = Vec::new();
        let heading = |s: &str| Line::styled(s.to_string(), theme.title);
        match &self.game {
            Some(g) => {
                lines.push(heading(&format!("{}: the rules", g.game().name())));
                lines.extend(g.rules());
                lines.push(Line::raw(""));
                lines.push(heading("Keys"));
                lines.extend(key_table(&g.keys(), 12, theme));
                lines.extend(key_table(&SHELL_KEYS.help(), 12, theme));
                lines.push(Line::raw(""));
                lines.push(heading("Saving"));
                lines.push(Line::raw(format!(
                    "s saves to {}; `boardlab play --load FILE` resumes a save, and the title screen offers \
                     to resume the default save of each game.",
                    self.save_path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                )));
            }
            None => {
                lines.push(heading("boardlab"));
                lines.push(Line::raw(
                    "Three classic board games against exact engines. Choose a game on the title screen, set \
                     its options with ← and →, and press Enter. Every game screen lists its keys; ? shows its \
                     rules. Games can be saved (s) and resumed from the title screen or with \
                     `boardlab play --load FILE`.",
                ));
                for g in GameKind::ALL {
                    lines.push(Line::raw(""));
                    lines.push(heading(g.name()));
                    lines.extend(games::rules(g));
                }
                lines.push(Line::raw(""));
                lines.push(heading("Title screen keys"));
                lines.extend(key_table(title::KEYS, 12, theme));
                lines.push(Line::raw(""));
                lines.push(heading("Colours"));
                lines.push(Line::raw(
                    "Set NO_COLOR=1 in the environment for a monochrome display. The terminal must be at least \
                     80x24.",
                ));
                lines.push(Line::raw(format!(
                    "Saves go to {}.",
                    self.cfg.save_dir.display()
                )));
            }
        }
        let inner = area.inner(Margin::new(2, 1));
        let lines = ui::wrap_lines(lines, inner.width);
        let total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
        let scroll = scroll.min(total.saturating_sub(inner.height));
        self.overlay = Some(Overlay::Help(scroll));
        let more = if scroll + inner.height < total {
            " ↓ more "
        } else {
            ""
        };
        let block = Block::bordered()
            .title(Span::styled(" Help ", theme.title))
            .title_bottom(Line::styled(more, theme.dim).right_aligned())
            .border_style(theme.dim);
        frame.render_widget(block, area);
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
    }

    /// Run the event loop on a real terminal until the player quits.
    pub fn run<B: ratatui::backend::Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
    ) -> io::Result<()>
    where
        B::Error: Into<io::Error>,
    {
        while !self.quit {
            terminal.draw(|f| self.render(f)).map_err(Into::into)?;
            if event::poll(Duration::from_millis(100))? {
                let ev = event::read()?;
                self.handle_event(ev);
            }
            self.tick();
        }
        Ok(())
    }
}
