//! Positions, moves, the end-of-game rule, and the position notation.

use std::fmt;
use std::str::FromStr;

use crate::board::{Bitboard, CAT_CONES, CAT_MOVES, MOUSE_MOVES, Side, Square};
use crate::error::{MoveError, ParseError, SquareError};
use crate::size::{BoardSize, Coord};
use crate::zobrist::{
    CAT_HASH, CAT_LOCK, CATS_TO_MOVE_HASH, CATS_TO_MOVE_LOCK, MOUSE_HASH, MOUSE_LOCK,
};

/// When the mouse has won (on every board size; a side to move without a legal move loses under all three).
///
/// - [`Rule::FarRow`]: the mouse reaches the far row (row N; called `row8` on 8x8). The classic rule.
/// - [`Rule::Escape`]: also as soon as the mouse stands on a row no lower than every cat's row: the cats
///   only move down, so they can no longer stop it.
/// - [`Rule::Region`]: the mouse wins as soon as it stands on a square no cat can ever reach (outside every
///   cat's forward cone, whatever the other pieces do) with at least one diagonal neighbour on the board
///   that no cat can reach either: it has escaped into a region of two squares or more. Reaching the far
///   row is not a win in itself. This is gilith/solve's rule, so its published values can be checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Rule {
    /// The mouse wins only by reaching the far row (or by the cats being unable to move). The classic rule.
    #[default]
    FarRow,
    /// The mouse also wins as soon as it stands on a row no lower than every cat's row.
    Escape,
    /// The mouse wins once it stands in a region of two or more squares that no cat can reach.
    Region,
}

impl Rule {
    /// The three rules.
    pub const ALL: [Rule; 3] = [Rule::FarRow, Rule::Escape, Rule::Region];

    /// `"far-row"`, `"escape"` or `"region"`.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::FarRow => "far-row",
            Rule::Escape => "escape",
            Rule::Region => "region",
        }
    }

    /// 0, 1 or 2.
    pub(crate) const fn ordinal(self) -> usize {
        match self {
            Rule::FarRow => 0,
            Rule::Escape => 1,
            Rule::Region => 2,
        }
    }

    /// Parse a rule name for a board of `size`: as [`Rule::from_str`](std::str::FromStr), except that
    /// the 8x8 name `row8` is accepted only on 8x8 (elsewhere row 8 is not the far row).
    ///
    /// # Errors
    /// [`ParseError::Rule`] for an unknown name, [`ParseError::RuleForSize`] for `row8` on another board.
    pub fn parse_for(text: &str, size: crate::BoardSize) -> Result<Rule, ParseError> {
        let rule: Rule = text.parse()?;
        let lower = text.trim().to_ascii_lowercase();
        if size != crate::BoardSize::EIGHT && (lower == "row8" || lower == "row-8") {
            return Err(ParseError::RuleForSize {
                rule: text.trim().to_string(),
                size,
            });
        }
        Ok(rule)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = ParseError;
    /// `far-row` (also `farrow`, `far_row`, and on 8x8 `row8`), `escape` or `region`, case-insensitive.
    fn from_str(s: &str) -> Result<Rule, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "far-row" | "farrow" | "far_row" | "row8" | "row-8" => Ok(Rule::FarRow),
            "escape" => Ok(Rule::Escape),
            "region" => Ok(Rule::Region),
            other => Err(ParseError::Rule(other.to_string())),
        }
    }
}

/// A move: one piece from one square to a diagonally adjacent one.
///
/// Moves print as `E1-F2` and parse from `E1-F2`, `e1-f2`, `E1F2` or `e1f2`:
///
/// ```
/// use mousecats::{Move, Square};
/// let mv: Move = "e1f2".parse().unwrap();
/// assert_eq!(mv.from(), Square::E1);
/// assert_eq!(mv.to_string(), "E1-F2");
/// assert_eq!(mv.to_compact(), "e1f2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// The move from `from` to `to` (not checked against any position).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the piece goes to.
    pub const fn to(self) -> Square {
        self.to
    }

    /// The move packed into 12 bits (`from | to << 6`); never 0 for a real move.
    pub const fn to_u16(self) -> u16 {
        self.from.index() as u16 | (self.to.index() as u16) << 6
    }

    /// Unpack [`Move::to_u16`]; `None` for 0.
    pub const fn from_u16(v: u16) -> Option<Move> {
        if v == 0 {
            return None;
        }
        match (
            Square::new((v & 63) as u8),
            Square::new((v >> 6 & 63) as u8),
        ) {
            (Some(from), Some(to)) => Some(Move { from, to }),
            _ => None,
        }
    }

    /// The lower-case form without a dash, for example `e1f2`.
    pub fn to_compact(self) -> String {
        format!("{}{}", self.from, self.to).to_ascii_lowercase()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = ParseError;
    /// Two 8x8 square names, with or without one `-` between them. Read character by character (as a
    /// [`SizedMove`](crate::SizedMove)), so any text gives a move or an error, never a panic.
    fn from_str(s: &str) -> Result<Move, ParseError> {
        let m: crate::SizedMove = s.parse()?;
        let square = |c: Coord| Square::from_coords(c.file(), c.row());
        match (square(m.from()), square(m.to())) {
            (Some(from), Some(to)) => Ok(Move { from, to }),
            _ => Err(ParseError::Move(s.trim().to_string())),
        }
    }
}

/// The moves of one position: at most 8 (four cats, two steps each), kept on the stack.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; 8],
    len: u8,
}

impl MoveList {
    const fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A1, Square::A1); 8],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// Move the entry at `index` to the front, keeping the others in order.
    pub fn move_to_front(&mut self, index: usize) {
        if index < self.len as usize {
            self.moves[..=index].rotate_right(1);
        }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A position: where the mouse and the four cats stand, and whose turn it is, with its Zobrist hash and
/// lock kept up to date on every move.
///
/// Positions parse from and print as one line, `mouse=E1 cats=B8,D8,F8,H8 turn=mouse`, and also parse
/// from an 8-line diagram (see [`Position::diagram`]). Both round-trip:
///
/// ```
/// use mousecats::Position;
/// let p: Position = "mouse=E1 cats=B8,D8,F8,H8 turn=mouse".parse().unwrap();
/// assert_eq!(p, Position::start());
/// assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
/// assert_eq!(p.diagram().parse::<Position>().unwrap(), p);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    cats: Bitboard,
    hash: u64,
    lock: u32,
    mouse: Square,
    turn: Side,
}

impl Position {
    /// The standard start: the mouse on E1, the cats on B8, D8, F8, H8, the mouse to move.
    pub fn start() -> Position {
        Position::from_parts(
            Square::E1,
            Bitboard::EMPTY
                .with(Square::B8)
                .with(Square::D8)
                .with(Square::F8)
                .with(Square::H8),
            Side::Mouse,
        )
    }

    /// The start with the mouse on `mouse` (any free dark square) and `first` to move.
    pub fn start_with(mouse: Square, first: Side) -> Result<Position, ParseError> {
        Position::new(
            mouse,
            &[Square::B8, Square::D8, Square::F8, Square::H8],
            first,
        )
    }

    /// A position from its pieces, checked: all squares dark, exactly four cats, no square used twice.
    ///
    /// # Errors
    /// A [`ParseError`] naming the first problem.
    pub fn new(mouse: Square, cats: &[Square], turn: Side) -> Result<Position, ParseError> {
        if !mouse.is_dark() {
            return Err(SquareError::light(mouse).into());
        }
        if cats.len() != 4 {
            return Err(ParseError::CatCount {
                found: cats.len(),
                expected: 4,
                size: BoardSize::EIGHT,
            });
        }
        let mut set = Bitboard::EMPTY;
        for &c in cats {
            if !c.is_dark() {
                return Err(SquareError::light(c).into());
            }
            if set.contains(c) || c == mouse {
                return Err(ParseError::Occupied(c.into()));
            }
            set = set.with(c);
        }
        Ok(Position::from_parts(mouse, set, turn))
    }

    /// A position from text that [`crate::notation::parse_text`] read for the 8x8 board.
    fn from_parsed(p: crate::notation::Parsed) -> Result<Position, ParseError> {
        let sized = crate::SizedPosition::new(p.size, p.mouse, &p.cats, p.turn)?;
        Position::try_from(sized)
    }

    /// Build from parts already known to be valid (dark squares, four cats, mouse not on a cat).
    pub(crate) fn from_parts(mouse: Square, cats: Bitboard, turn: Side) -> Position {
        let mut p = Position {
            cats,
            hash: 0,
            lock: 0,
            mouse,
            turn,
        };
        p.hash = p.compute_hash();
        p.lock = p.compute_lock();
        p
    }

    /// The mouse's square.
    pub const fn mouse(&self) -> Square {
        self.mouse
    }

    /// The cats' squares as a set.
    pub const fn cats(&self) -> Bitboard {
        self.cats
    }

    /// The cats' squares, lowest first.
    pub fn cat_squares(&self) -> [Square; 4] {
        let mut out = [Square::A1; 4];
        for (slot, sq) in out.iter_mut().zip(self.cats.squares()) {
            *slot = sq;
        }
        out
    }

    /// All five pieces.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.cats.0 | 1 << self.mouse.index())
    }

    /// The side to move.
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The same pieces with `turn` to move.
    pub fn with_turn(&self, turn: Side) -> Position {
        Position::from_parts(self.mouse, self.cats, turn)
    }

    /// The 64-bit Zobrist hash (kept incrementally; equal to [`Position::compute_hash`]).
    pub const fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The 32-bit lock, from key tables independent of the hash's.
    pub const fn zobrist_lock(&self) -> u32 {
        self.lock
    }

    /// The hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = MOUSE_HASH[self.mouse.index() as usize];
        for c in self.cats {
            h ^= CAT_HASH[c.index() as usize];
        }
        if self.turn == Side::Cats {
            h ^= CATS_TO_MOVE_HASH;
        }
        h
    }

    /// The lock computed from scratch.
    pub fn compute_lock(&self) -> u32 {
        let mut h = MOUSE_LOCK[self.mouse.index() as usize];
        for c in self.cats {
            h ^= CAT_LOCK[c.index() as usize];
        }
        if self.turn == Side::Cats {
            h ^= CATS_TO_MOVE_LOCK;
        }
        h
    }

    /// The highest row (0-based) any cat stands on.
    #[inline]
    pub fn top_cat_row(&self) -> u8 {
        // Four cats are always on the board.
        (63 - self.cats.0.leading_zeros() as u8) / 8
    }

    /// Whether the mouse stands on a row no lower than every cat's row (it can no longer be stopped).
    #[inline]
    pub fn mouse_escaped(&self) -> bool {
        self.mouse.row() >= self.top_cat_row()
    }

    /// The dark squares no cat can ever reach, whatever the other pieces do (outside every cat's forward
    /// cone).
    #[inline]
    pub fn out_of_reach(&self) -> Bitboard {
        let mut cone = 0u64;
        for c in self.cats {
            cone |= CAT_CONES[c.index() as usize];
        }
        Bitboard(Bitboard::DARK.0 & !cone)
    }

    /// Whether the mouse has won under `rule`, whoever is to move: it stands on row 8, or, under
    /// [`Rule::Escape`], has escaped; under [`Rule::Region`], it stands on a square no cat can reach
    /// beside another such square.
    #[inline]
    pub fn mouse_has_won(&self, rule: Rule) -> bool {
        match rule {
            Rule::FarRow => self.mouse.row() == 7,
            Rule::Escape => self.mouse.row() == 7 || self.mouse_escaped(),
            Rule::Region => self.mouse_in_region(),
        }
    }

    /// Whether the mouse stands on a square no cat can reach beside another such square.
    #[inline]
    fn mouse_in_region(&self) -> bool {
        let safe = self.out_of_reach().0;
        safe >> self.mouse.index() & 1 != 0 && MOUSE_MOVES[self.mouse.index() as usize] & safe != 0
    }

    /// Whether the side to move has at least one move.
    #[inline]
    pub fn has_moves(&self) -> bool {
        match self.turn {
            Side::Mouse => MOUSE_MOVES[self.mouse.index() as usize] & !self.cats.0 != 0,
            Side::Cats => {
                let empty = !self.occupied().0;
                // South-west steps (-9) cannot start on file A, south-east steps (-7) not on file H.
                const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
                const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
                let sw = (self.cats.0 & NOT_A) >> 9;
                let se = (self.cats.0 & NOT_H) >> 7;
                (sw | se) & empty != 0
            }
        }
    }

    /// The winner if the game is over under `rule`: the mouse on row 8 (or escaped), or the side to move
    /// without a move (it loses). `None` while the game goes on.
    pub fn outcome(&self, rule: Rule) -> Option<Side> {
        if self.mouse_has_won(rule) {
            Some(Side::Mouse)
        } else if !self.has_moves() {
            Some(self.turn.opponent())
        } else {
            None
        }
    }

    /// The moves of the side to move, whether or not the game has already ended (see
    /// [`Position::legal_moves`]). The mouse's upward steps come first.
    #[inline]
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        match self.turn {
            Side::Mouse => {
                let mut t = MOUSE_MOVES[self.mouse.index() as usize] & !self.cats.0;
                while t != 0 {
                    let to = 63 - t.leading_zeros() as u8;
                    t &= !(1u64 << to);
                    list.push(Move::new(self.mouse, Square::from_index_unchecked(to)));
                }
            }
            Side::Cats => {
                let empty = !self.occupied().0;
                let mut cats = self.cats.0;
                while cats != 0 {
                    let from = cats.trailing_zeros() as u8;
                    cats &= cats - 1;
                    let mut t = CAT_MOVES[from as usize] & empty;
                    while t != 0 {
                        let to = t.trailing_zeros() as u8;
                        t &= t - 1;
                        list.push(Move::new(
                            Square::from_index_unchecked(from),
                            Square::from_index_unchecked(to),
                        ));
                    }
                }
            }
        }
        list
    }

    /// The moves of the side to move, or none once the game is over under `rule`.
    pub fn legal_moves(&self, rule: Rule) -> MoveList {
        if self.mouse_has_won(rule) {
            MoveList::new()
        } else {
            self.moves()
        }
    }

    /// Whether `mv` is one of [`Position::moves`].
    pub fn is_move(&self, mv: Move) -> bool {
        match self.turn {
            Side::Mouse => {
                mv.from() == self.mouse
                    && MOUSE_MOVES[mv.from().index() as usize] & !self.cats.0 & mv.to().bb().0 != 0
            }
            Side::Cats => {
                self.cats.contains(mv.from())
                    && CAT_MOVES[mv.from().index() as usize] & !self.occupied().0 & mv.to().bb().0
                        != 0
            }
        }
    }

    /// The position after `mv`, which must be one of [`Position::moves`] (not checked; see
    /// [`Position::play`]). Copy-make: the hash and lock are updated incrementally.
    #[inline]
    pub fn make_move(&self, mv: Move) -> Position {
        debug_assert!(self.is_move(mv), "{mv} in {self}");
        let from = mv.from().index() as usize;
        let to = mv.to().index() as usize;
        let mut p = *self;
        match self.turn {
            Side::Mouse => {
                p.mouse = mv.to();
                p.hash ^= MOUSE_HASH[from] ^ MOUSE_HASH[to] ^ CATS_TO_MOVE_HASH;
                p.lock ^= MOUSE_LOCK[from] ^ MOUSE_LOCK[to] ^ CATS_TO_MOVE_LOCK;
                p.turn = Side::Cats;
            }
            Side::Cats => {
                p.cats = Bitboard(self.cats.0 ^ (1u64 << from) ^ (1u64 << to));
                p.hash ^= CAT_HASH[from] ^ CAT_HASH[to] ^ CATS_TO_MOVE_HASH;
                p.lock ^= CAT_LOCK[from] ^ CAT_LOCK[to] ^ CATS_TO_MOVE_LOCK;
                p.turn = Side::Mouse;
            }
        }
        p
    }

    /// The hash of the position after `mv` (one of [`Position::moves`]), without making the move.
    #[inline]
    pub fn hash_after(&self, mv: Move) -> u64 {
        let from = mv.from().index() as usize;
        let to = mv.to().index() as usize;
        let keys = match self.turn {
            Side::Mouse => &MOUSE_HASH,
            Side::Cats => &CAT_HASH,
        };
        self.hash ^ keys[from] ^ keys[to] ^ CATS_TO_MOVE_HASH
    }

    /// The position after `mv`, checked: the game must not be over under `rule` and `mv` must be legal.
    pub fn play(&self, mv: Move, rule: Rule) -> Result<Position, MoveError> {
        if let Some(winner) = self.outcome(rule) {
            return Err(MoveError::GameOver(winner));
        }
        if self.is_move(mv) {
            return Ok(self.make_move(mv));
        }
        let own = match self.turn {
            Side::Mouse => mv.from() == self.mouse,
            Side::Cats => self.cats.contains(mv.from()),
        };
        if let Some(square) = Some(mv.from()).filter(|sq| !sq.is_dark()) {
            return Err(MoveError::LightSquare { mv, square });
        }
        if !own {
            return Err(MoveError::NotYourPiece {
                mv,
                side: self.turn,
                from: mv.from(),
            });
        }
        let legal = self
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        Err(MoveError::Illegal {
            mv,
            side: self.turn,
            legal,
        })
    }

    /// The 8-line diagram, row 8 first, with coordinates and a final `turn=` line. Dark squares show `.`
    /// (empty), `M` (mouse) or `C` (cat); light squares are blank.
    ///
    /// ```text
    /// 8   C   C   C   C
    /// 7 .   .   .   .
    /// 6   .   .   .   .
    /// 5 .   .   .   .
    /// 4   .   .   .   .
    /// 3 .   .   .   .
    /// 2   .   .   .   .
    /// 1 .   .   M   .
    ///   A B C D E F G H
    /// turn=mouse
    /// ```
    pub fn diagram(&self) -> String {
        crate::notation::diagram(BoardSize::EIGHT, self.turn, |c| {
            let sq = Square::from_coords(c.file(), c.row()).unwrap_or(Square::A1);
            if sq == self.mouse {
                'M'
            } else if self.cats.contains(sq) {
                'C'
            } else {
                '.'
            }
        })
    }

    /// Parse the one-line notation `mouse=E1 cats=B8,D8,F8,H8 turn=mouse` (fields in any order, case
    /// does not matter, `turn` defaults to the mouse, `size=8` may be given) or the word `start`.
    ///
    /// # Errors
    /// A [`ParseError`] naming the problem.
    pub fn from_notation(text: &str) -> Result<Position, ParseError> {
        Position::from_parsed(crate::notation::parse_notation(
            text,
            Some(BoardSize::EIGHT),
        )?)
    }

    /// Parse an 8-line diagram, row 8 first. Each board line may start with its row number; it then holds
    /// either 8 cells (one per square) or 4 cells (the row's dark squares only), separated by any spaces.
    /// A cell is `M` (mouse), `C` (cat) or `.`, `-`, `_` (empty), in either case. Blank lines and a line of
    /// file letters are ignored; a line `turn=mouse` or `turn=cats` sets the side to move (default mouse).
    ///
    /// # Errors
    /// A [`ParseError`] with the line and column of the problem.
    pub fn from_diagram(text: &str) -> Result<Position, ParseError> {
        Position::from_parsed(crate::notation::parse_diagram(
            text,
            Some(BoardSize::EIGHT),
        )?)
    }
}

impl Square {
    /// For indices known to be below 64.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Square {
        match Square::new(i & 63) {
            Some(s) => s,
            None => Square::A1,
        }
    }
}

impl fmt::Display for Position {
    /// The one-line notation, for example `mouse=E1 cats=B8,D8,F8,H8 turn=mouse`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cats: Vec<String> = self.cats.squares().map(|s| s.to_string()).collect();
        write!(
            f,
            "mouse={} cats={} turn={}",
            self.mouse,
            cats.join(","),
            self.turn
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Position {
    type Err = ParseError;
    /// A diagram if the text has more than one non-blank line, otherwise the one-line notation (or
    /// `start`).
    fn from_str(s: &str) -> Result<Position, ParseError> {
        let lines = s.lines().filter(|l| !l.trim().is_empty()).count();
        if lines > 1 {
            Position::from_diagram(s)
        } else {
            Position::from_notation(s)
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        let m: Vec<String> = p.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(m, ["E1-F2", "E1-D2"]);
        let p2 = p.make_move(p.moves()[0]);
        assert_eq!(p2.turn(), Side::Cats);
        let m: Vec<String> = p2.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            m,
            [
                "B8-A7", "B8-C7", "D8-C7", "D8-E7", "F8-E7", "F8-G7", "H8-G7"
            ]
        );
    }

    #[test]
    fn has_moves_agrees_with_moves() {
        // Walk some games and compare at every position.
        for seed in 0..200u64 {
            let mut p = Position::start();
            let mut s = seed;
            loop {
                assert_eq!(p.has_moves(), !p.moves().is_empty(), "{p}");
                for other in [p, p.with_turn(p.turn().opponent())] {
                    assert_eq!(other.has_moves(), !other.moves().is_empty(), "{other}");
                }
                if p.outcome(Rule::FarRow).is_some() {
                    break;
                }
                let ms = p.moves();
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p = p.make_move(ms[(s >> 33) as usize % ms.len()]);
            }
        }
    }

    #[test]
    fn notation_round_trips_and_errors() {
        let p: Position = "cats=a7, c7,E7 ,G7 mouse = b2 turn=cats".parse().unwrap();
        assert_eq!(p.mouse(), sq("B2"));
        assert_eq!(p.turn(), Side::Cats);
        assert_eq!(p.to_string(), "mouse=B2 cats=A7,C7,E7,G7 turn=cats");
        assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        assert_eq!(p.diagram().parse::<Position>().unwrap(), p);
        assert_eq!("start".parse::<Position>().unwrap(), Position::start());

        let err = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert!(err("mouse=Z9 cats=B8,D8,F8,H8").contains("unknown square 'Z9'"));
        assert!(err("mouse=E2 cats=B8,D8,F8,H8").contains("E2 is a light square"));
        assert!(err("mouse=E1 cats=B8,D8,F8").contains("expected 4 cats, found 3"));
        assert!(err("mouse=E1 cats=B8,D8,F8,H8,A7").contains("expected 4 cats, found 5"));
        assert!(err("mouse=B8 cats=B8,D8,F8,H8").contains("two pieces on B8"));
        assert!(err("mouse=E1 cats=B8,B8,F8,H8").contains("two pieces on B8"));
        assert!(err("mouse=E1 cats=B8,D8,F8,H8 turn=dog").contains("unknown side"));
        assert!(err("mouse=E1 dogs=B8").contains("unknown field"));
        assert!(err("mouse=E1 mouse=C1 cats=B8,D8,F8,H8").contains("twice"));
        assert!(err("hello").contains("key=value"));
        assert!(err("").contains("empty"));
        assert!(err("cats=B8,D8,F8,H8").contains("no mouse"));
    }

    #[test]
    fn diagram_forms() {
        let p = Position::start();
        let d = p.diagram();
        assert_eq!(d.lines().count(), 10);
        assert!(d.starts_with("8   C   C   C   C\n"));
        // 8-cell form without labels, cats to move.
        let text = "\
            -c-c-c-c\n........\n........\n........\n........\n........\n........\n....m...\nturn=cats\n";
        let q: Position = text.parse().unwrap();
        assert_eq!(q, p.with_turn(Side::Cats));
        // Errors with line and column.
        let bad = "8 c . c . c . c .\n7 ........\n";
        let e = bad.parse::<Position>().unwrap_err().to_string();
        assert!(e.contains("light square"), "{e}");
        let bad = "8 - c - c - c - c\n7 . . x . . . . .\n6\n";
        let e = bad.parse::<Position>().unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("unexpected 'x'"), "{e}");
        let bad = "8 - c - c - c - c\n7 . .\n";
        let e = bad.parse::<Position>().unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let short = "8 - c - c - c - c\n1 . . . . m . . .\n";
        let e = short.parse::<Position>().unwrap_err().to_string();
        assert!(e.contains("row label 1"), "{e}");
    }

    #[test]
    fn play_checks() {
        let p = Position::start();
        assert!(p.play("e1f2".parse().unwrap(), Rule::FarRow).is_ok());
        let e = p.play("a2b3".parse().unwrap(), Rule::FarRow).unwrap_err();
        assert_eq!(
            e.to_string(),
            "A2-B3: A2 is a light square (pieces stand and move only on dark squares such as A1, C1, B2)"
        );
        let e = p.play("e1e2".parse().unwrap(), Rule::FarRow).unwrap_err();
        assert!(e.to_string().contains("not a legal mouse move"), "{e}");
        let e = p.play("b8a7".parse().unwrap(), Rule::FarRow).unwrap_err();
        assert!(e.to_string().contains("no mouse piece on B8"), "{e}");
        assert!("e1".parse::<Move>().is_err());
        assert!("e1-f2-g3".parse::<Move>().is_err());
        assert!("e1--f2".parse::<Move>().is_err());
        assert_eq!(
            "E1-F2".parse::<Move>().unwrap(),
            Move::new(sq("E1"), sq("F2"))
        );
        let m = Move::new(sq("H8"), sq("G7"));
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
    }

    #[test]
    fn outcomes() {
        // Mouse trapped in the corner.
        let p: Position = "mouse=A1 cats=B2,C3,H8,F8 turn=mouse".parse().unwrap();
        assert_eq!(p.outcome(Rule::FarRow), Some(Side::Cats));
        // Mouse on row 8.
        let p: Position = "mouse=B8 cats=A1,C1,E1,G1 turn=cats".parse().unwrap();
        assert_eq!(p.outcome(Rule::FarRow), Some(Side::Mouse));
        // Cats all blocked on row 1: the cats to move lose.
        let p: Position = "mouse=D4 cats=A1,C1,E1,G1 turn=cats".parse().unwrap();
        assert_eq!(p.outcome(Rule::FarRow), Some(Side::Mouse));
        // Escaped mouse: a win only under the escape rule.
        let p: Position = "mouse=D4 cats=A3,C3,E3,G3 turn=cats".parse().unwrap();
        assert_eq!(p.outcome(Rule::FarRow), None);
        assert_eq!(p.outcome(Rule::Escape), Some(Side::Mouse));
        assert!(p.legal_moves(Rule::Escape).is_empty());
        let p: Position = "mouse=D4 cats=A5,C3,E3,G3 turn=cats".parse().unwrap();
        assert_eq!(p.outcome(Rule::Escape), None);
    }
}
