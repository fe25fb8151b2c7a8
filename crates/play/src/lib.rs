#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod budget;
pub mod clock;
pub mod game;
pub mod history;
pub mod menus;
pub mod mouse;
pub mod options;
pub mod peg;
pub mod save;
pub mod sudoku;
pub mod text;
pub mod work;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use budget::{BudgetStats, Charge, MemoryBudget};
pub use clock::{Clock, Stopwatch};
pub use game::{GameSession, Refusal};
pub use history::History;
pub use mouse::{MouseSession, MouseSolutions};
pub use options::Choice;
pub use peg::{PegSession, PegTables};
pub use save::{SaveError, SaveFile};
pub use sudoku::SudokuSession;
pub use work::{Inline, Outcome, Pending, Runner, Task};

/// Which game: Mouse & Cats, peg solitaire or sudoku. (A game *in progress* is a session:
/// [`SudokuSession`] and its siblings; the engine crates' `Game` types are their move lists.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Mouse & Cats.
    Mouse,
    /// Peg solitaire.
    Peg,
    /// Sudoku.
    Sudoku,
}

impl GameKind {
    /// The three games, in menu order.
    pub const ALL: [GameKind; 3] = [GameKind::Mouse, GameKind::Peg, GameKind::Sudoku];

    /// The game's name as shown.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Mouse => "Mouse & Cats",
            GameKind::Peg => "Peg solitaire",
            GameKind::Sudoku => "Sudoku",
        }
    }

    /// The game's key in save files and on the command line: `mouse`, `peg`, `sudoku`.
    pub fn key(self) -> &'static str {
        match self {
            GameKind::Mouse => "mouse",
            GameKind::Peg => "peg",
            GameKind::Sudoku => "sudoku",
        }
    }

    /// The game with this key.
    pub fn from_key(key: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.key() == key)
    }

    /// A one-paragraph description of the game, for a menu.
    pub fn description(self) -> &'static str {
        match self {
            GameKind::Mouse => {
                "Fox and Hounds on a chessboard. One mouse tries to slip past four cats to the far row; the cats \
                 try to trap it. Play either side against the engine: alpha-beta with hash tables at levels 1 \
                 and up, and perfect play from the game's exact solution at the top level."
            }
            GameKind::Peg => {
                "Jump a peg over a neighbour into an empty hole and take the jumped peg off. Finish with one \
                 peg. The English cross, the French board, the triangle, the diamond and Wiegleb's board, with \
                 a live signal that says whether a one-peg finish can still be reached."
            }
            GameKind::Sudoku => {
                "Fill the grid so that every row, column and 3x3 box holds 1 to 9 once. Graded puzzles from \
                 beginner to expert with unique solutions, or the classic ZX-81 way: a valid grid shuffled and \
                 27 cells hidden. Pencil marks, hints that explain themselves, a timer."
            }
        }
    }

    /// The rules of the game, as paragraphs of plain text.
    pub fn rules(self) -> &'static [&'static str] {
        match self {
            GameKind::Mouse => mouse::RULES,
            GameKind::Peg => peg::RULES,
            GameKind::Sudoku => sudoku::RULES,
        }
    }

    /// The game's options with their default values, for a menu (see [`Choice`]).
    pub fn choices(self) -> Vec<Choice> {
        match self {
            GameKind::Mouse => mouse::choices(),
            GameKind::Peg => peg::choices(),
            GameKind::Sudoku => sudoku::choices(),
        }
    }

    /// Update the options of this game after one of them changed (the peg board decides which holes can be
    /// chosen; the mouse board the start squares, the rule's name and the levels).
    pub fn refresh_choices(self, choices: &mut [Choice]) {
        match self {
            GameKind::Peg => peg::refresh(choices),
            GameKind::Mouse => mouse::refresh(choices),
            GameKind::Sudoku => {}
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The error of [`GameKind::from_str`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game \"{0}\" (known: mouse, peg, sudoku)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        GameKind::from_key(s.trim()).ok_or_else(|| UnknownGame(s.trim().to_string()))
    }
}

/// How a message to the player should be taken (a front end picks the colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    /// Neutral information.
    Info,
    /// Good news (a win, everything right so far).
    Good,
    /// A warning, or a refusal that is not a mistake of typing.
    Warn,
    /// Something the player gave was wrong, or something failed.
    Error,
}

/// What the player can do next, as data: a session names it, and each front end renders it its own way (a key
/// in the terminal, a button on the web page). No text of a session names a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextAction {
    /// Start a new game with the same options.
    NewGame,
    /// Take the last step back.
    Undo,
    /// Back to the start of this game (peg solitaire).
    Restart,
    /// Leave the game for the title screen or page.
    Leave,
    /// Read the rules.
    Rules,
    /// Fill every empty cell's pencil marks (sudoku).
    FillMarks,
    /// Digits fill cells again (sudoku, in pencil mode).
    DigitMode,
    /// Digits toggle pencil marks (sudoku).
    PencilMode,
    /// Play the next jump of the solution shown (peg solitaire).
    PlaySolution,
    /// Play the whole solution shown (peg solitaire).
    PlayAll,
}

impl NextAction {
    /// What the action does, in a few words ("new game", "undo"): the label of a button or beside a key.
    pub fn label(self) -> &'static str {
        match self {
            NextAction::NewGame => "new game",
            NextAction::Undo => "undo",
            NextAction::Restart => "restart",
            NextAction::Leave => "title screen",
            NextAction::Rules => "rules",
            NextAction::FillMarks => "fill the marks",
            NextAction::DigitMode => "digits",
            NextAction::PencilMode => "pencil marks",
            NextAction::PlaySolution => "next jump",
            NextAction::PlayAll => "play them all",
        }
    }
}

/// A one-line message to the player: the answer to an action, and what the player may want to do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The sentence (it names no key: see [`Message::next`]).
    pub text: String,
    /// How it should be taken.
    pub tone: Tone,
    /// What the player can do next, for a front end to offer (a key named after the sentence, buttons).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<NextAction>,
}

impl Message {
    /// A message of `tone`.
    pub fn new(text: impl Into<String>, tone: Tone) -> Message {
        Message {
            text: text.into(),
            tone,
            next: Vec::new(),
        }
    }

    /// The message offering `next`.
    #[must_use]
    pub fn then(mut self, next: &[NextAction]) -> Message {
        self.next = next.to_vec();
        self
    }
    /// Neutral information.
    pub fn info(text: impl Into<String>) -> Message {
        Message::new(text, Tone::Info)
    }
    /// Good news.
    pub fn good(text: impl Into<String>) -> Message {
        Message::new(text, Tone::Good)
    }
    /// A warning.
    pub fn warn(text: impl Into<String>) -> Message {
        Message::new(text, Tone::Warn)
    }
    /// An error.
    pub fn error(text: impl Into<String>) -> Message {
        Message::new(text, Tone::Error)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// What the front end supplies to every session: where background work runs, the clock, and the caches that
/// games share (a cache lives as long as the `Env` and its clones; nothing is process-wide).
///
/// Cloning is cheap and shares the runner and the caches.
#[derive(Clone)]
pub struct Env {
    /// Where background work (generating a puzzle, an engine thinking, a solver searching) runs.
    pub runner: Arc<dyn Runner>,
    /// The clock behind timers.
    pub clock: Clock,
    /// The complete tables of finishable peg positions, shared by the peg games.
    pub peg_tables: PegTables,
    /// The exact solutions of Mouse & Cats, shared by the mouse games.
    pub mouse_solutions: MouseSolutions,
    /// A time limit for each move of the Mouse & Cats engine in new sessions (a server's bound on a request;
    /// `None`: the level's depth alone, as in the terminal).
    pub mouse_time_limit: Option<Duration>,
    /// A flag the front end raises when the work of the action under way is no longer wanted (a server's
    /// request past its deadline): a sudoku being made stops at its next check and the action ends with
    /// [`sudoku::SudokuError::Stopped`]. Work shared beyond the action (the peg tables) does not look at it.
    /// `None`: nothing stops that work but its own end, as in the terminal.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Env {
    /// An environment that runs every piece of work at once on the calling thread ([`Inline`]) with the real
    /// clock: each action has finished its work when it returns. For servers (inside their blocking pool),
    /// tools and tests.
    pub fn blocking() -> Env {
        Env::new(Arc::new(Inline), Clock::system())
    }

    /// An environment with `runner` and `clock` and empty caches.
    pub fn new(runner: Arc<dyn Runner>, clock: Clock) -> Env {
        Env {
            runner,
            clock,
            peg_tables: PegTables::default(),
            mouse_solutions: MouseSolutions::default(),
            mouse_time_limit: None,
            stop: None,
        }
    }
}

impl fmt::Debug for Env {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Env")
            .field("clock", &self.clock)
            .field("peg_tables", &self.peg_tables)
            .finish_non_exhaustive()
    }
}

/// A game in progress of any of the three kinds: what a front end that resumes any save file holds.
#[derive(Debug)]
pub enum Session {
    /// A Mouse & Cats game.
    Mouse(Box<MouseSession>),
    /// A peg solitaire game.
    Peg(Box<PegSession>),
    /// A sudoku.
    Sudoku(Box<SudokuSession>),
}

impl Session {
    /// Rebuild the session a save file holds.
    ///
    /// # Errors
    /// [`SaveError::Damaged`] when the game's state is damaged or describes something impossible.
    pub fn load(save: &SaveFile, env: &Env) -> Result<Session, SaveError> {
        let kind = save.kind()?;
        let damaged = |reason: String| SaveError::Damaged { game: kind, reason };
        match kind {
            GameKind::Mouse => Ok(Session::Mouse(Box::new(
                MouseSession::from_state(&save.state, env).map_err(damaged)?,
            ))),
            GameKind::Peg => Ok(Session::Peg(Box::new(
                PegSession::from_state(&save.state, env).map_err(damaged)?,
            ))),
            GameKind::Sudoku => Ok(Session::Sudoku(Box::new(
                SudokuSession::from_state(&save.state, env).map_err(damaged)?,
            ))),
        }
    }

    /// The save file of this session.
    pub fn save(&self) -> SaveFile {
        match self {
            Session::Mouse(s) => s.save(),
            Session::Peg(s) => s.save(),
            Session::Sudoku(s) => s.save(),
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            Session::Mouse(_) => GameKind::Mouse,
            Session::Peg(_) => GameKind::Peg,
            Session::Sudoku(_) => GameKind::Sudoku,
        }
    }
}
