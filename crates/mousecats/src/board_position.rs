//! What the search, the tables, perft, games and the exact solution need of a position, so that one
//! implementation of each serves both position types: the classic 8x8 [`Position`] with its hand-tuned
//! 64-square bitboards, and [`SizedPosition`](crate::SizedPosition) for every even size from 4x4 to
//! 16x16 (8x8 included). Generic code is compiled once per type, so the 8x8 engine keeps its own fast
//! move generation.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::Deref;

use crate::board::{Bitboard, Side, Square};
use crate::position::{Move, MoveList, Position, Rule};
use crate::size::{BoardSize, Coord};

/// A Mouse & Cats position on some board: pieces, side to move, hash and lock, moves.
///
/// The inherent methods of the two position types have the same names and meanings (one name for each: the
/// hash is `zobrist_hash` everywhere, kept incrementally; `compute_hash` recomputes it from scratch, for
/// checks); this trait only makes them available to generic code.
pub trait BoardPosition:
    Copy + Eq + Hash + Debug + Display + Send + Sync + Sized + 'static
{
    /// A move on this board.
    type Move: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + std::str::FromStr<Err = crate::ParseError>
        + Send
        + Sync
        + 'static;
    /// The moves of one position.
    type Moves: Copy + Deref<Target = [Self::Move]> + Debug;
    /// An exact, compact key of the position (pieces and side to move), for tables that must never
    /// confuse two positions.
    type Key: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;

    /// Why a move could not be played.
    type PlayError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;

    /// A placeholder move (never played).
    const NULL_MOVE: Self::Move;

    /// The board size.
    fn board_size(&self) -> BoardSize;
    /// The start of `size` with the mouse on `mouse` and `first` to move.
    ///
    /// # Errors
    /// A [`ParseError`](crate::ParseError) if the square cannot take the mouse, or if this type has no
    /// board of that size.
    fn start_at(size: BoardSize, mouse: Coord, first: Side) -> Result<Self, crate::ParseError>;
    /// Read a position (notation or diagram) for a board of `size` if given (see
    /// [`SizedPosition::parse`](crate::SizedPosition::parse)).
    ///
    /// # Errors
    /// A [`ParseError`](crate::ParseError) naming the problem and where.
    fn parse_text(text: &str, size: Option<BoardSize>) -> Result<Self, crate::ParseError>;
    /// The diagram, row N first.
    fn diagram(&self) -> String;
    /// The mouse's square.
    fn mouse_square(&self) -> Coord;
    /// The side to move.
    fn turn(&self) -> Side;
    /// The same pieces with `turn` to move.
    fn with_turn(&self, turn: Side) -> Self;
    /// The 64-bit Zobrist hash.
    fn zobrist_hash(&self) -> u64;
    /// The 32-bit lock.
    fn zobrist_lock(&self) -> u32;
    /// The exact key.
    fn exact_key(&self) -> Self::Key;
    /// The mouse's dark index (see [`BoardSize::dark_index`]).
    fn mouse_dark(&self) -> u8;
    /// The cats' dark indices as a set.
    fn cats_dark(&self) -> u128;
    /// The position with these pieces on `size`, or `None` if this type has no such board (the classic
    /// [`Position`] is 8x8 only). The pieces must be valid: distinct dark indices on the board, N/2 cats.
    fn from_dark(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> Option<Self>;
    /// The moves of the side to move, whether or not the game is over.
    fn moves(&self) -> Self::Moves;
    /// Whether `mv` is one of [`BoardPosition::moves`].
    fn is_move(&self, mv: Self::Move) -> bool;
    /// The position after `mv`, one of [`BoardPosition::moves`] (not checked).
    fn make_move(&self, mv: Self::Move) -> Self;
    /// The hash after `mv` without making it.
    fn hash_after(&self, mv: Self::Move) -> u64;
    /// Whether the mouse has already won under `rule`, whoever is to move.
    fn mouse_has_won(&self, rule: Rule) -> bool;
    /// Whether the side to move has a move.
    fn has_moves(&self) -> bool;
    /// The moves, or none once the game is over under `rule`.
    fn legal_moves(&self, rule: Rule) -> Self::Moves;
    /// The positional evaluation for the side to move (see [`eval`](crate::eval)).
    fn evaluate(&self) -> i32;
    /// The position after `mv`, checked: the game must not be over under `rule` and `mv` must be legal.
    ///
    /// # Errors
    /// Why the move cannot be played.
    fn play(&self, mv: Self::Move, rule: Rule) -> Result<Self, Self::PlayError>;

    /// The winner if the game is over under `rule`.
    #[inline]
    fn outcome(&self, rule: Rule) -> Option<Side> {
        if self.mouse_has_won(rule) {
            Some(Side::Mouse)
        } else if !self.has_moves() {
            Some(self.turn().opponent())
        } else {
            None
        }
    }
}

impl BoardPosition for Position {
    type Move = Move;
    type Moves = MoveList;
    type Key = (u64, u8);
    type PlayError = crate::MoveError;

    const NULL_MOVE: Move = Move::new(Square::A1, Square::A1);

    #[inline]
    fn board_size(&self) -> BoardSize {
        BoardSize::EIGHT
    }
    fn start_at(size: BoardSize, mouse: Coord, first: Side) -> Result<Position, crate::ParseError> {
        Position::try_from(crate::SizedPosition::start_with(size, mouse, first)?)
    }
    fn parse_text(text: &str, size: Option<BoardSize>) -> Result<Position, crate::ParseError> {
        Position::try_from(crate::SizedPosition::parse(
            text,
            Some(size.unwrap_or(BoardSize::EIGHT)),
        )?)
    }
    fn diagram(&self) -> String {
        Position::diagram(self)
    }
    fn mouse_square(&self) -> Coord {
        self.mouse().into()
    }
    #[inline]
    fn turn(&self) -> Side {
        Position::turn(self)
    }
    #[inline]
    fn with_turn(&self, turn: Side) -> Position {
        Position::with_turn(self, turn)
    }
    #[inline]
    fn zobrist_hash(&self) -> u64 {
        Position::zobrist_hash(self)
    }
    #[inline]
    fn zobrist_lock(&self) -> u32 {
        Position::zobrist_lock(self)
    }
    #[inline]
    fn exact_key(&self) -> (u64, u8) {
        let turn = u8::from(Position::turn(self) == Side::Cats);
        (self.cats().0, self.mouse().index() | turn << 7)
    }
    #[inline]
    fn mouse_dark(&self) -> u8 {
        self.mouse().dark_index().unwrap_or(0)
    }
    #[inline]
    fn cats_dark(&self) -> u128 {
        let mut m = 0u128;
        for c in self.cats() {
            m |= 1 << c.dark_index().unwrap_or(0);
        }
        m
    }
    fn from_dark(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> Option<Position> {
        if size != BoardSize::EIGHT || mouse >= 32 || cats >> 32 != 0 {
            return None;
        }
        let mut set = Bitboard::EMPTY;
        let mut rest = cats;
        while rest != 0 {
            set = set.with(Square::from_dark_index(rest.trailing_zeros() as u8));
            rest &= rest - 1;
        }
        Some(Position::from_parts(
            Square::from_dark_index(mouse),
            set,
            turn,
        ))
    }
    #[inline]
    fn moves(&self) -> MoveList {
        Position::moves(self)
    }
    #[inline]
    fn is_move(&self, mv: Move) -> bool {
        Position::is_move(self, mv)
    }
    #[inline]
    fn make_move(&self, mv: Move) -> Position {
        Position::make_move(self, mv)
    }
    #[inline]
    fn hash_after(&self, mv: Move) -> u64 {
        Position::hash_after(self, mv)
    }
    #[inline]
    fn mouse_has_won(&self, rule: Rule) -> bool {
        Position::mouse_has_won(self, rule)
    }
    #[inline]
    fn has_moves(&self) -> bool {
        Position::has_moves(self)
    }
    #[inline]
    fn legal_moves(&self, rule: Rule) -> MoveList {
        Position::legal_moves(self, rule)
    }
    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::evaluate(self)
    }
    #[inline]
    fn outcome(&self, rule: Rule) -> Option<Side> {
        Position::outcome(self, rule)
    }
    fn play(&self, mv: Move, rule: Rule) -> Result<Position, crate::MoveError> {
        Position::play(self, mv, rule)
    }
}
