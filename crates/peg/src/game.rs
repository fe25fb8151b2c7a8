//! A game in progress: a position and the jumps played, each checked. Undo and redo are the game session's
//! (`play::peg`), which keeps whole jump lists.

use crate::board::{Board, NameError};
use crate::position::{Move, Position};

/// Why a jump cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a jump on this board.
    #[error(transparent)]
    Name(#[from] NameError),
    /// No peg on the `from` hole.
    #[error("{mv}: there is no peg on {hole} to jump with")]
    NoPeg {
        /// The jump as written.
        mv: String,
        /// The empty hole.
        hole: String,
    },
    /// No peg on the hole jumped over.
    #[error("{mv}: there is no peg on {hole} to jump over")]
    NothingToJump {
        /// The jump as written.
        mv: String,
        /// The empty hole.
        hole: String,
    },
    /// The landing hole holds a peg.
    #[error("{mv}: {hole} is not empty")]
    Occupied {
        /// The jump as written.
        mv: String,
        /// The occupied hole.
        hole: String,
    },
}

/// A game: board, start, current position, and the jumps played.
#[derive(Debug, Clone)]
pub struct Game {
    board: Board,
    start: Position,
    pos: Position,
    played: Vec<Move>,
}

impl Game {
    /// A new game from `start`.
    pub fn new(board: Board, start: Position) -> Game {
        let start = Position::from_bits(start.bits() & board.full().bits());
        Game {
            board,
            start,
            pos: start,
            played: Vec::new(),
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.pos
    }

    /// The jumps played so far.
    pub fn played(&self) -> &[Move] {
        &self.played
    }

    /// The legal jumps now.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.board.legal_moves(self.pos)
    }

    /// Whether no jump is left.
    pub fn is_over(&self) -> bool {
        !self.board.has_move(self.pos)
    }

    /// Check a jump against the current position, with the reason it is illegal.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        let name = |h: usize| self.board.hole_name(h).to_string();
        let text = self.board.format_move(mv);
        if !self.pos.has_peg(mv.from()) {
            Err(MoveError::NoPeg {
                mv: text,
                hole: name(mv.from()),
            })
        } else if !self.pos.has_peg(mv.over()) {
            Err(MoveError::NothingToJump {
                mv: text,
                hole: name(mv.over()),
            })
        } else if self.pos.has_peg(mv.to()) {
            Err(MoveError::Occupied {
                mv: text,
                hole: name(mv.to()),
            })
        } else {
            Ok(())
        }
    }

    /// Play a jump.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.check(mv)?;
        self.pos = self.pos.apply(mv);
        self.played.push(mv);
        Ok(())
    }

    /// Parse and play a jump written `FROM-TO` (`d2-d4`).
    pub fn play_str(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.board.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jumps_are_checked() {
        let mut g = Game::new(Board::english(), Board::english().default_start());
        assert_eq!(g.legal_moves().len(), 4);
        let m = g.play_str("d2-d4").unwrap();
        assert_eq!(g.position().pegs(), 31);
        assert!(matches!(g.play_str("d2-d4"), Err(MoveError::NoPeg { .. })));
        assert!(matches!(
            g.play_str("d1-d3"),
            Err(MoveError::NothingToJump { .. })
        ));
        assert!(matches!(
            g.play_str("b4-d4"),
            Err(MoveError::Occupied { .. })
        ));
        assert!(matches!(g.play_str("d1-d9"), Err(MoveError::Name(_))));
        g.play_str("f3-d3").unwrap();
        assert_eq!(
            g.played(),
            [m, Board::english().parse_move("f3-d3").unwrap()]
        );
        assert_eq!(g.position().pegs(), 30);
        assert!(!g.is_over());
    }
}
