//! The three games as the title screen sees them: a description, options, and how to start or resume one.

use play::{Env, GameKind};
use ratatui::text::Line;

use super::screen::{Choice, Config, GameScreen};
use super::ui::paragraphs;

/// A one-paragraph description of `game` for the title screen.
pub fn description(game: GameKind) -> &'static str {
    game.description()
}

/// The options of `game`, with their default values.
pub fn choices(game: GameKind) -> Vec<Choice> {
    game.choices()
}

/// Update the options of `game` after one of them changed (the peg board decides which holes can be chosen).
pub fn refresh_choices(game: GameKind, choices: &mut [Choice]) {
    game.refresh_choices(choices);
}

/// The rules of `game` for the help screen reached from the title.
pub fn rules(game: GameKind) -> Vec<Line<'static>> {
    paragraphs(game.rules())
}

/// Start a new game of `game` with the options `choices` (as returned by [`choices`], possibly changed).
pub fn start(
    game: GameKind,
    choices: &[Choice],
    cfg: &Config,
    env: &Env,
) -> Result<Box<dyn GameScreen>, String> {
    match game {
        GameKind::Mouse => super::mouse::start(choices, env),
        GameKind::Sudoku => super::sudoku::start(choices, cfg, env),
        GameKind::Peg => super::peg::start(choices, env),
    }
}

/// Rebuild a saved game of `game` from its saved `state`.
pub fn load(
    game: GameKind,
    state: &serde_json::Value,
    env: &Env,
) -> Result<Box<dyn GameScreen>, String> {
    match game {
        GameKind::Mouse => super::mouse::load(state, env),
        GameKind::Sudoku => super::sudoku::load(state, env),
        GameKind::Peg => super::peg::load(state, env),
    }
}

/// Whether `game` can be played in this build.
pub fn playable(game: GameKind) -> bool {
    match game {
        GameKind::Mouse | GameKind::Peg | GameKind::Sudoku => true,
    }
}
