//! The three games as the title screen sees them: a description, options, and how to start or resume one.

use ratatui::text::Line;

use super::Game;
use super::screen::{Choice, Config, GameScreen};

/// A one-paragraph description of `game` for the title screen.
pub fn description(game: Game) -> &'static str {
    match game {
        Game::Mouse => {
            "Fox and Hounds on a chessboard. One mouse tries to slip past four cats to the far row; the cats \
             try to trap it. Play either side against the engine: alpha-beta with hash tables at levels 1 and \
             up, and perfect play from the game's exact solution at the top level."
        }
        Game::Peg => {
            "Jump a peg over a neighbour into an empty hole and take the jumped peg off. Finish with one peg. \
             The English cross, the French board, the triangle, the diamond and Wiegleb's board, with a live \
             signal that says whether a one-peg finish can still be reached."
        }
        Game::Sudoku => {
            "Fill the grid so that every row, column and 3x3 box holds 1 to 9 once. Graded puzzles from \
             beginner to expert with unique solutions, or the classic ZX-81 way: a valid grid shuffled and 27 \
             cells hidden. Pencil marks, hints that explain themselves, a timer."
        }
    }
}

/// The options of `game`, with their default values.
pub fn choices(game: Game) -> Vec<Choice> {
    match game {
        Game::Mouse => super::mouse::choices(),
        Game::Sudoku => super::sudoku::choices(),
        Game::Peg => super::peg::choices(),
    }
}

/// Update the options of `game` after one of them changed (the peg board decides which holes can be chosen).
pub fn refresh_choices(game: Game, choices: &mut [Choice]) {
    if game == Game::Peg {
        super::peg::refresh(choices);
    }
}

/// The rules of `game` for the help screen reached from the title.
pub fn rules(game: Game) -> Vec<Line<'static>> {
    match game {
        Game::Mouse => super::mouse::rules(),
        Game::Sudoku => super::sudoku::rules(),
        Game::Peg => super::peg::rules(),
    }
}

/// Start a new game of `game` with the options `choices` (as returned by [`choices`], possibly changed).
pub fn start(game: Game, choices: &[Choice], cfg: &Config) -> Result<Box<dyn GameScreen>, String> {
    match game {
        Game::Mouse => super::mouse::start(choices, cfg),
        Game::Sudoku => super::sudoku::start(choices, cfg),
        Game::Peg => super::peg::start(choices, cfg),
    }
}

/// Rebuild a saved game of `game` from its saved `state`.
pub fn load(
    game: Game,
    state: &serde_json::Value,
    cfg: &Config,
) -> Result<Box<dyn GameScreen>, String> {
    match game {
        Game::Mouse => super::mouse::load(state, cfg),
        Game::Sudoku => super::sudoku::load(state, cfg),
        Game::Peg => super::peg::load(state, cfg),
    }
}

/// Whether `game` can be played in this build.
pub fn playable(game: Game) -> bool {
    match game {
        Game::Mouse | Game::Peg | Game::Sudoku => true,
    }
}
