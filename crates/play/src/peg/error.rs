//! Why a peg action was refused.

use crate::{Message, NextAction, Tone};

/// Why an action was refused. Each message is one line and names the hole or the jump.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PegError {
    /// The options name something that is not there.
    #[error("{0}")]
    Setup(String),
    /// The game is over.
    #[error("The game is over: no jump is left")]
    Over,
    /// Text that is not a jump (see [`parse_jump`](super::parse_jump)).
    #[error("{0}")]
    Typed(String),
    /// A jump that is not legal here.
    #[error("Not a legal jump: {0}")]
    Illegal(String),
    /// Two holes that no jump joins.
    #[error("{from} cannot jump to {to}: a jump goes over one neighbouring peg in a straight line")]
    NotAJump {
        /// The hole jumped from.
        from: String,
        /// The hole jumped to.
        to: String,
    },
    /// A hole number past the board.
    #[error("there is no hole {hole}: the {board} board has holes 0 to {last}")]
    NoHole {
        /// The number given.
        hole: usize,
        /// The board.
        board: String,
        /// Its last hole number.
        last: usize,
    },
    /// "Play the next jump of the solution" when there is no way to finish.
    #[error("{0}")]
    NoSolution(String),
}

impl PegError {
    /// How the message should be taken.
    pub fn tone(&self) -> Tone {
        match self {
            PegError::Over | PegError::NoSolution(_) => Tone::Warn,
            _ => Tone::Error,
        }
    }

    /// The error as a message to show.
    pub fn message(&self) -> Message {
        let next: &[NextAction] = match self {
            PegError::Over => &[NextAction::Undo, NextAction::Restart, NextAction::NewGame],
            _ => &[],
        };
        Message::new(self.to_string(), self.tone()).then(next)
    }
}
