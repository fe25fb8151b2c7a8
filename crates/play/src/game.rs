//! What every game session offers, whatever the game: [`GameSession`].
//!
//! A front end that treats the three games alike (the web server's session route, the terminal's shared screen
//! parts) is written once against this trait: start again, undo and redo, a hint, the save file both ways, the
//! view to draw, and the background work it collects. What only one game has (a move, a jump, a digit) stays a
//! method of that game's session.

use std::time::Duration;

use serde::Serialize;

use crate::{Env, GameKind, Message, SaveFile};

/// An action a session refused, as the player reads it.
pub trait Refusal: std::error::Error {
    /// The refusal as a message to show (its tone, and what the player can do next).
    fn message(&self) -> Message;
}

/// A game in progress of one kind: [`MouseSession`](crate::MouseSession), [`PegSession`](crate::PegSession) and
/// [`SudokuSession`](crate::SudokuSession).
///
/// Every action answers with a [`Message`] for the player, or the session's [`Refusal`]. Work that takes a
/// while (an engine's move, a solver's answer, a puzzle being made) runs on the [`Env`]'s runner: the answer
/// comes with a later [`GameSession::poll`], or [`GameSession::settle`] waits for it.
pub trait GameSession: Sized {
    /// Which game this is.
    const KIND: GameKind;
    /// The state a front end draws (serialized as it is for the web page).
    type View: Serialize;
    /// Why an action was refused.
    type Error: Refusal;

    /// The game's state for a save file (the `state` of a [`SaveFile`]).
    fn to_state(&self) -> serde_json::Value;

    /// Rebuild a game from the state [`GameSession::to_state`] wrote (of this or any earlier save version).
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the square.
    fn from_state(state: &serde_json::Value, env: &Env) -> Result<Self, String>;

    /// The game as a save file.
    fn save(&self) -> SaveFile {
        SaveFile::new(Self::KIND, self.to_state())
    }

    /// Everything a front end draws.
    fn view(&self) -> Self::View;

    /// The game as it stood after its first `ply` moves, to draw in a replay of its move list (nothing is
    /// played, searched or changed); `None` for a game without a move list to replay (a sudoku).
    ///
    /// # Errors
    /// A one-line reason: `ply` is past the moves played.
    fn view_at(&self, _ply: usize) -> Option<Result<Self::View, String>> {
        None
    }

    /// What to tell the player about the game as it stands when it is opened (a finished Mouse & Cats or peg
    /// game says how it ended); `None` when there is nothing to say.
    fn standing(&self) -> Option<Message>;

    /// Whether a new game would give this one up: it is not over, and there is something of it to lose (a
    /// move played, a sudoku's puzzle).
    fn in_play(&self) -> bool;

    /// A new game with the same options.
    ///
    /// # Errors
    /// The new game could not be made (a sudoku's generator failed).
    fn new_game(&mut self) -> Result<Message, Self::Error>;

    /// Take the last step back.
    ///
    /// # Errors
    /// The game cannot step back now (a finished sudoku).
    fn undo(&mut self) -> Result<Message, Self::Error>;

    /// Play the step taken back again.
    ///
    /// # Errors
    /// The game cannot step forward now (the engine is thinking, a finished sudoku).
    fn redo(&mut self) -> Result<Message, Self::Error>;

    /// Help with the next step: the best move, a way to finish, the next logical step.
    ///
    /// # Errors
    /// The game has no hint now (a finished sudoku).
    fn hint(&mut self) -> Result<Message, Self::Error>;

    /// Collect finished background work without waiting: the message it brings, if any. Call it regularly
    /// while [`GameSession::busy`].
    fn poll(&mut self) -> Option<Result<Message, Self::Error>>;

    /// Wait for the background work the player is waiting on, for at most `limit` (`None`: until it is done;
    /// a Mouse & Cats engine is bounded by its own time limit), and collect it: the last message it brings.
    fn settle(&mut self, limit: Option<Duration>) -> Option<Result<Message, Self::Error>>;

    /// Whether background work is under way.
    fn busy(&self) -> bool;

    /// Whether leaving would lose something (play since the start or the last [`GameSession::mark_saved`]).
    fn unsaved(&self) -> bool;

    /// Note that the game was just saved.
    fn mark_saved(&mut self);
}
