//! Helpers shared by the terminal-interface tests: an [`App`] on a `TestBackend`, driven by key strings.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::Duration;

use boardlab::tui::theme::Theme;
use boardlab::tui::{App, Config};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use play::{Clock, GameKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// An app on an 80x24 test terminal, with a manual clock and a private save directory.
pub struct Harness {
    pub app: App,
    pub term: Terminal<TestBackend>,
    pub clock: Clock,
    pub dir: tempfile::TempDir,
}

/// Settings for tests: monochrome (so snapshots do not depend on colours), a manual clock, a fresh save
/// directory, seed 1.
pub fn config() -> (Config, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        theme: Theme::mono(),
        clock: Clock::manual(),
        save_dir: dir.path().join("saves"),
        seed: Some(1),
    };
    (cfg, dir)
}

impl Harness {
    /// The title screen.
    pub fn title() -> Harness {
        let (cfg, dir) = config();
        Harness::with(App::new(cfg, GameKind::Mouse), dir)
    }

    /// Straight into a new game with default options (as `boardlab play GAME`).
    pub fn game(game: GameKind) -> Harness {
        let (cfg, dir) = config();
        Harness::with(App::new_game(cfg, game), dir)
    }

    /// Wrap an app built from [`config`].
    pub fn with(app: App, dir: tempfile::TempDir) -> Harness {
        let clock = app.config().clock.clone();
        let mut h = Harness {
            app,
            term: Terminal::new(TestBackend::new(80, 24)).unwrap(),
            clock,
            dir,
        };
        h.app.wait_idle();
        h.app.tick();
        h.draw();
        h
    }

    /// The directory of the default saves.
    pub fn save_dir(&self) -> PathBuf {
        self.app.config().save_dir.clone()
    }

    /// Resize the test terminal.
    pub fn resize(&mut self, w: u16, h: u16) {
        self.term.backend_mut().resize(w, h);
        self.term
            .resize(ratatui::layout::Rect::new(0, 0, w, h))
            .unwrap();
        self.draw();
    }

    /// Draw a frame.
    pub fn draw(&mut self) {
        let app = &mut self.app;
        self.term.draw(|f| app.render(f)).unwrap();
    }

    /// Press one key, let background work finish, and redraw.
    pub fn press(&mut self, code: KeyCode, mods: KeyModifiers) {
        let mut ev = KeyEvent::new(code, mods);
        ev.kind = KeyEventKind::Press;
        self.app.handle_event(Event::Key(ev));
        self.app.wait_idle();
        self.app.tick();
        self.draw();
    }

    /// Type a key string: characters stand for themselves; `<Up>`, `<Down>`, `<Left>`, `<Right>`, `<Enter>`,
    /// `<Esc>`, `<BS>`, `<Del>`, `<Tab>`, `<Space>`, `<F1>`, `<C-c>` and `<C-r>` for special keys.
    pub fn keys(&mut self, s: &str) {
        let mut rest = s;
        while let Some(c) = rest.chars().next() {
            if c == '<'
                && let Some(end) = rest.find('>')
                && end > 1
            {
                let name = &rest[1..end];
                let (code, mods) = match name {
                    "Up" => (KeyCode::Up, KeyModifiers::NONE),
                    "Down" => (KeyCode::Down, KeyModifiers::NONE),
                    "Left" => (KeyCode::Left, KeyModifiers::NONE),
                    "Right" => (KeyCode::Right, KeyModifiers::NONE),
                    "Enter" => (KeyCode::Enter, KeyModifiers::NONE),
                    "Esc" => (KeyCode::Esc, KeyModifiers::NONE),
                    "BS" => (KeyCode::Backspace, KeyModifiers::NONE),
                    "Del" => (KeyCode::Delete, KeyModifiers::NONE),
                    "Tab" => (KeyCode::Tab, KeyModifiers::NONE),
                    "Space" => (KeyCode::Char(' '), KeyModifiers::NONE),
                    "F1" => (KeyCode::F(1), KeyModifiers::NONE),
                    "PgDn" => (KeyCode::PageDown, KeyModifiers::NONE),
                    "C-c" => (KeyCode::Char('c'), KeyModifiers::CONTROL),
                    "C-r" => (KeyCode::Char('r'), KeyModifiers::CONTROL),
                    other => panic!("unknown key <{other}>"),
                };
                self.press(code, mods);
                rest = &rest[end + 1..];
            } else {
                self.press(KeyCode::Char(c), KeyModifiers::NONE);
                rest = &rest[c.len_utf8()..];
            }
        }
    }

    /// On the title screen, press Down until the row `label` is highlighted.
    pub fn select(&mut self, label: &str) {
        for _ in 0..30 {
            if self.shows(&format!("▶ {label}")) {
                return;
            }
            self.keys("<Down>");
        }
        panic!("no title row {label:?}:\n{}", self.screen());
    }

    /// Move the manual clock on and redraw.
    pub fn advance(&mut self, secs: u64) {
        self.clock.advance(Duration::from_secs(secs));
        self.app.tick();
        self.draw();
    }

    /// The screen as text, one line per row, trailing spaces kept (for snapshots).
    /// The temporary directory's path is replaced by `<TMP>` so snapshots do not change from run to run.
    pub fn screen(&self) -> String {
        let tmp = self.dir.path().display().to_string();
        buffer_text(self.term.backend().buffer()).replace(&tmp, "<TMP>")
    }

    /// Whether the screen shows `text` somewhere.
    pub fn shows(&self, text: &str) -> bool {
        self.screen().contains(text)
    }

    /// The buffer drawn last.
    pub fn buffer(&self) -> &Buffer {
        self.term.backend().buffer()
    }
}

/// A buffer as plain text lines.
pub fn buffer_text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0usize;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            line.push_str(sym);
            let w = unicode_width(sym);
            skip = w.saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn unicode_width(s: &str) -> usize {
    // Every symbol the screens draw is one column wide.
    if s.is_empty() { 0 } else { 1 }
}
