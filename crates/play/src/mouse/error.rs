//! Why a Mouse & Cats action was refused.

use mousecats::Side;

use crate::{Message, NextAction, Tone};
/// Why an action was refused. Each message is one line and names the move or the square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MouseError {
    /// The options name something that is not there.
    #[error("{0}")]
    Setup(String),
    /// The game is over.
    #[error("The game is over")]
    Over,
    /// The engine is thinking.
    #[error("Wait a moment: the engine is thinking")]
    Thinking,
    /// It is the engine's move.
    #[error("It is the {0}' move")]
    NotYourTurn(Side),
    /// Text that is not a move.
    #[error("\"{0}\" is not a move: type the two squares, e.g. E1F2 or e1-f2")]
    Typed(String),
    /// A move with a square off the board (the move and the square named).
    #[error("{0}")]
    OffBoard(String),
    /// A move that is not legal here (the rules' reason).
    #[error("{0}")]
    Illegal(String),
}

impl MouseError {
    /// How the message should be taken.
    pub fn tone(&self) -> Tone {
        match self {
            MouseError::Over | MouseError::Thinking | MouseError::NotYourTurn(_) => Tone::Warn,
            _ => Tone::Error,
        }
    }

    /// The error as a message to show.
    pub fn message(&self) -> Message {
        let next: &[NextAction] = match self {
            MouseError::Over => &[NextAction::NewGame, NextAction::Undo],
            _ => &[],
        };
        Message::new(self.to_string(), self.tone()).then(next)
    }
}
