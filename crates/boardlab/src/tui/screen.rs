//! What every game screen provides to the application shell, and the per-game options of the title screen.

use std::path::PathBuf;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::chrome::Chrome;
use super::theme::Theme;
use super::ui::{KeyHelp, Status};
pub use play::Choice;
use play::{Clock, GameKind};

/// What the screens share: the palette, the clock, where saves go, the generator seed.
#[derive(Debug, Clone)]
pub struct Config {
    /// Colours or monochrome.
    pub theme: Theme,
    /// The clock behind the sudoku timer.
    pub clock: Clock,
    /// The directory of the default save files (`<dir>/<game>.json`).
    pub save_dir: PathBuf,
    /// A fixed seed for generated puzzles (tests, reproducible games); random when absent.
    pub seed: Option<u64>,
}

impl Config {
    /// The settings for an interactive run: theme from `NO_COLOR`, the real clock, the default save directory.
    pub fn from_env(seed: Option<u64>) -> Config {
        Config {
            theme: Theme::from_env(),
            clock: Clock::system(),
            save_dir: super::save::default_dir(),
            seed,
        }
    }

    /// The default save file of `game`.
    pub fn save_path(&self, game: GameKind) -> PathBuf {
        self.save_dir.join(format!("{}.json", game.key()))
    }
}

/// Whether a game screen used a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// The screen used it.
    Yes,
    /// The screen does not use this key; the shell may (help, save, leave).
    No,
}

/// A game in progress on screen.
pub trait GameScreen {
    /// Which game this is.
    fn game(&self) -> GameKind;

    /// A short description for the title bar, e.g. "you are the mouse · level 4".
    fn heading(&self) -> String;

    /// Draw the game (board, panels, keys) into `area`, everything but the title bar and the status line.
    fn render(&mut self, frame: &mut Frame, area: Rect, cfg: &Config);

    /// Handle a key press. Keys the screen does not use fall through to the shell.
    fn handle_key(&mut self, key: KeyEvent, cfg: &Config) -> Handled;

    /// The screen's status line, prompt and question.
    fn chrome(&self) -> &Chrome;

    /// True while the screen takes every key itself (a prompt or a question is open), so the shell's keys do
    /// not apply.
    fn capturing(&self) -> bool {
        self.chrome().capturing()
    }

    /// The status line.
    fn status(&self) -> Option<Status> {
        self.chrome().status()
    }

    /// A line that replaces the status line while it is open (a prompt for typed input).
    fn footer(&self, theme: &Theme) -> Option<Line<'static>> {
        self.chrome().footer(theme)
    }

    /// Called about ten times a second: collect background results, advance timers.
    fn tick(&mut self, _cfg: &Config) {}

    /// Whether background work (an engine thinking, a solver searching) is under way.
    fn busy(&self) -> bool {
        false
    }

    /// Block until background work is finished and collected (for tests).
    fn wait(&mut self, _cfg: &Config) {}

    /// The key of `action` on this screen, for naming it after a message (the shell names its own: leaving and
    /// the rules).
    fn key_of(&self, _action: play::NextAction) -> Option<String> {
        None
    }

    /// The rules, shown by the help screen.
    fn rules(&self) -> Vec<Line<'static>>;

    /// The keys of this screen, shown by the help screen (the screen also shows them itself).
    fn keys(&self) -> Vec<KeyHelp>;

    /// The game's state for a save file.
    fn save_state(&self, cfg: &Config) -> serde_json::Value;

    /// Whether leaving would lose something (moves made since the start or since the last save).
    fn unsaved(&self) -> bool;

    /// Tell the screen that its state was just saved.
    fn mark_saved(&mut self);

    /// The help screen or a question covers the game (true) or has gone (false): timers stop meanwhile.
    fn set_covered(&mut self, _covered: bool, _cfg: &Config) {}
}
