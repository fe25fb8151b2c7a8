//! The options of a sudoku: how its puzzles are made, and the menu that chooses them.

use serde::{Deserialize, Serialize};
use sudoku::classic;
use sudoku::generate::{self, Difficulty, Symmetry};

use super::SudokuError;
use crate::options::{Choice, value_of};

/// The numbers of cells the classic mode's menu offers to hide (the ZX-81 hid 27).
pub const CLASSIC_HIDE: [usize; 4] = [27, 36, 45, 54];
/// The most cells the classic mode hides: a puzzle keeps at least 17 clues.
pub const MAX_HIDE: usize = classic::MAX_HIDE;
/// How puzzles are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The graded generator: unique puzzles at a difficulty.
    Graded,
    /// The classic method: a valid grid shuffled, cells hidden.
    Classic,
}

/// Everything that decides the next puzzle (saved as it is).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Graded or classic.
    pub mode: Mode,
    /// The level of graded puzzles (a [`Difficulty`] name).
    pub difficulty: String,
    /// The symmetry of graded puzzles' clues (a [`Symmetry`] name).
    pub symmetry: String,
    /// How many cells the classic mode hides.
    pub hide: usize,
    /// Whether the classic mode keeps the solution unique.
    #[serde(default)]
    pub unique: bool,
    /// The generator's seed.
    pub seed: u64,
    /// The number of the next puzzle under that seed.
    pub index: u64,
}

impl Default for Setup {
    /// A medium graded puzzle with the half-turn symmetry, seed 1.
    fn default() -> Setup {
        Setup {
            mode: Mode::Graded,
            difficulty: Difficulty::Medium.name().to_string(),
            symmetry: Symmetry::Rotate180.name().to_string(),
            hide: CLASSIC_HIDE[0],
            unique: false,
            seed: 1,
            index: 0,
        }
    }
}

impl Setup {
    /// The setup the options `choices` describe (as returned by [`choices`], possibly changed), with `seed`.
    ///
    /// # Errors
    /// [`SudokuError::Setup`] when a value is not one the generator knows.
    pub fn from_choices(choices: &[Choice], seed: u64) -> Result<Setup, SudokuError> {
        let get =
            |label: &str, default: &str| value_of(choices, label).unwrap_or(default).to_string();
        let mode = if get("Puzzles", "graded") == "classic" {
            Mode::Classic
        } else {
            Mode::Graded
        };
        let setup = Setup {
            mode,
            difficulty: get("Difficulty", "medium"),
            symmetry: get("Symmetry", "180"),
            hide: get("Hidden cells", "27").parse().unwrap_or(27),
            unique: get("Unique", "no") == "yes",
            seed,
            index: 0,
        };
        setup.check()?;
        Ok(setup)
    }

    /// Check the names and numbers.
    ///
    /// # Errors
    /// [`SudokuError::Setup`] naming the unknown difficulty or symmetry, or a number of hidden cells out of
    /// the classic method's range (0 to [`classic::MAX_HIDE`], the range every front end takes), in the words
    /// the generator uses.
    pub fn check(&self) -> Result<(), SudokuError> {
        self.difficulty_level()?;
        self.symmetry_kind()?;
        if self.hide > classic::MAX_HIDE {
            return Err(SudokuError::Setup(
                classic::ClassicError::TooMany { hide: self.hide }.to_string(),
            ));
        }
        Ok(())
    }

    pub(super) fn difficulty_level(&self) -> Result<Difficulty, SudokuError> {
        self.difficulty
            .parse()
            .map_err(|e: generate::UnknownName| SudokuError::Setup(e.to_string()))
    }

    pub(super) fn symmetry_kind(&self) -> Result<Symmetry, SudokuError> {
        self.symmetry
            .parse()
            .map_err(|e: generate::UnknownName| SudokuError::Setup(e.to_string()))
    }

    /// "medium puzzle" or "classic puzzle (27 hidden)".
    pub fn describe(&self) -> String {
        match self.mode {
            Mode::Graded => format!("{} puzzle", self.difficulty),
            Mode::Classic => format!("classic puzzle ({} hidden)", self.hide),
        }
    }
}

/// The options of a sudoku, with their default values, for a menu.
pub fn choices() -> Vec<Choice> {
    vec![
        Choice::new(
            "Puzzles",
            vec!["graded".into(), "classic".into()],
            0,
            "graded: puzzles made to a difficulty, rated on Sudoku Explainer's scale, each with exactly one \
             solution. classic: the ZX-81 way, a valid grid shuffled (digits relabelled; rows, columns, bands \
             and stacks swapped; turned) and then cells hidden.",
        ),
        Choice::new(
            "Difficulty",
            Difficulty::ALL
                .iter()
                .map(|d| d.name().to_string())
                .collect(),
            2,
            "For graded puzzles. Beginner needs only singles; easy up to naked singles; medium locked \
             candidates, pairs and X-Wings; hard triples, Swordfish, XY-Wings; expert chains (never \
             guessing).",
        ),
        Choice::new(
            "Symmetry",
            Symmetry::ALL.iter().map(|s| s.name().to_string()).collect(),
            1,
            "For graded puzzles: the symmetry of the pattern of clues (180 is the newspaper half turn).",
        ),
        Choice::new(
            "Hidden cells",
            CLASSIC_HIDE.iter().map(ToString::to_string).collect(),
            0,
            "For classic puzzles: how many cells are hidden (the ZX-81 hid 27).",
        ),
        Choice::new(
            "Unique",
            vec!["no".into(), "yes".into()],
            0,
            "For classic puzzles: no hides cells at random, as the ZX-81 did, so a puzzle may have several \
             solutions (any grid that keeps the rules wins); yes hides only cells that keep the solution \
             unique.",
        ),
    ]
}
