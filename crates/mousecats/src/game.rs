//! A game in progress: a start position, a rule and the moves played, with undo.

use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::position::{Position, Rule};

/// A game: the start position, the end-of-game rule and the moves played so far, on the classic 8x8
/// board ([`Position`], the default) or on any size ([`SizedPosition`](crate::SizedPosition)).
///
/// ```
/// use mousecats::{Game, Position, Rule, Side};
/// let mut game = Game::new(Position::start(), Rule::FarRow);
/// game.play("E1-F2".parse().unwrap()).unwrap();
/// assert_eq!(game.position().turn(), Side::Cats);
/// assert!(game.play("E1-F2".parse().unwrap()).is_err()); // not the mouse's turn any more
/// game.undo();
/// assert_eq!(game.position(), &Position::start());
/// ```
#[derive(Clone, Debug)]
pub struct Game<P: BoardPosition = Position> {
    rule: Rule,
    positions: Vec<P>,
    moves: Vec<P::Move>,
}

impl<P: BoardPosition> Game<P> {
    /// A new game from `start` under `rule`.
    pub fn new(start: P, rule: Rule) -> Game<P> {
        Game {
            rule,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The end-of-game rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &P {
        // `positions` always holds the start.
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played, first to last.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> P::Moves {
        // Empty when the mouse has won; empty anyway when the side to move is stuck.
        self.position().legal_moves(self.rule)
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Side> {
        self.position().outcome(self.rule)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Play `mv` if it is legal.
    ///
    /// # Errors
    /// Why the move cannot be played; the game is unchanged.
    pub fn play(&mut self, mv: P::Move) -> Result<(), P::PlayError> {
        let next = self.position().play(mv, self.rule)?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Take back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<P::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// Go back to the start.
    pub fn restart(&mut self) {
        self.positions.truncate(1);
        self.moves.clear();
    }
}
