//! The any-size position beside the classic 8x8 one: as a [`BoardPosition`] (what the generic search, solver and
//! perft use), and the conversions between the two.

use super::{SizedMove, SizedMoveList, SizedPosition};
use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::error::{MoveError, ParseError};
use crate::position::{Position, Rule};
use crate::size::{BoardSize, Coord};

impl BoardPosition for SizedPosition {
    type Move = SizedMove;
    type Moves = SizedMoveList;
    type Key = (u128, u8);
    type PlayError = MoveError<SizedMove, Coord>;

    const NULL_MOVE: SizedMove = SizedMove::new(Coord::pack(0, 0), Coord::pack(0, 0));

    #[inline]
    fn board_size(&self) -> BoardSize {
        self.size
    }
    fn start_at(size: BoardSize, mouse: Coord, first: Side) -> Result<SizedPosition, ParseError> {
        SizedPosition::start_with(size, mouse, first)
    }
    fn parse_text(text: &str, size: Option<BoardSize>) -> Result<SizedPosition, ParseError> {
        SizedPosition::parse(text, size)
    }
    fn diagram(&self) -> String {
        SizedPosition::diagram(self)
    }
    fn mouse_square(&self) -> Coord {
        self.mouse()
    }
    #[inline]
    fn turn(&self) -> Side {
        self.turn
    }
    #[inline]
    fn with_turn(&self, turn: Side) -> SizedPosition {
        SizedPosition::with_turn(self, turn)
    }
    #[inline]
    fn zobrist_hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    fn zobrist_lock(&self) -> u32 {
        self.lock
    }
    #[inline]
    fn exact_key(&self) -> (u128, u8) {
        (
            self.cats,
            self.mouse | u8::from(self.turn == Side::Cats) << 7,
        )
    }
    #[inline]
    fn mouse_dark(&self) -> u8 {
        self.mouse
    }
    #[inline]
    fn cats_dark(&self) -> u128 {
        self.cats
    }
    fn from_dark(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> Option<SizedPosition> {
        SizedPosition::from_dark(size, mouse, cats, turn)
    }
    #[inline]
    fn moves(&self) -> SizedMoveList {
        SizedPosition::moves(self)
    }
    #[inline]
    fn is_move(&self, mv: SizedMove) -> bool {
        SizedPosition::is_move(self, mv)
    }
    #[inline]
    fn make_move(&self, mv: SizedMove) -> SizedPosition {
        SizedPosition::make_move(self, mv)
    }
    #[inline]
    fn hash_after(&self, mv: SizedMove) -> u64 {
        SizedPosition::hash_after(self, mv)
    }
    #[inline]
    fn mouse_has_won(&self, rule: Rule) -> bool {
        SizedPosition::mouse_has_won(self, rule)
    }
    #[inline]
    fn has_moves(&self) -> bool {
        SizedPosition::has_moves(self)
    }
    #[inline]
    fn legal_moves(&self, rule: Rule) -> SizedMoveList {
        SizedPosition::legal_moves(self, rule)
    }
    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::evaluate_sized(self)
    }
    fn play(
        &self,
        mv: SizedMove,
        rule: Rule,
    ) -> Result<SizedPosition, MoveError<SizedMove, Coord>> {
        SizedPosition::play(self, mv, rule)
    }
}

impl From<Position> for SizedPosition {
    fn from(p: Position) -> SizedPosition {
        SizedPosition::from_parts(
            BoardSize::EIGHT,
            BoardPosition::mouse_dark(&p),
            BoardPosition::cats_dark(&p),
            p.turn(),
        )
    }
}

impl TryFrom<SizedPosition> for Position {
    type Error = ParseError;
    fn try_from(p: SizedPosition) -> Result<Position, ParseError> {
        Position::from_dark(p.size, p.mouse, p.cats, p.turn).ok_or(ParseError::SizeMismatch {
            found: p.size,
            expected: BoardSize::EIGHT,
        })
    }
}
