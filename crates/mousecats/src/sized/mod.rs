//! Positions on a board of any even size from 4x4 to 16x16: [`SizedPosition`] (this module), its moves
//! ([`SizedMove`], [`SizedMoveList`]) and its implementation of [`BoardPosition`](crate::BoardPosition) with
//! the conversions to and from the 8x8 [`Position`](crate::Position).
//! Its text (the one-line notation and the diagrams of every size) is read and written by `crate::notation`,
//! which the classic 8x8 [`Position`](crate::Position) shares.

mod board_position;
mod moves;

use std::fmt;
use std::str::FromStr;

use crate::board::Side;
use crate::error::{MoveError, ParseError, SquareError};
use crate::notation::{diagram, parse_text};
use crate::position::Rule;
use crate::size::{BoardSize, Coord, Geometry};

pub use moves::{SizedMove, SizedMoveList};

/// A position on a board of any size: where the mouse and the N/2 cats stand and whose turn it is, with
/// its Zobrist hash and lock (random keys of its own size; on 8x8 the classic engine's keys, so both
/// position types hash an 8x8 position alike).
///
/// It prints and parses as one line: the 8x8 notation of [`Position`](crate::Position), with `size=N` in front on
/// other boards (`size=10 mouse=E1 cats=B10,D10,F10,H10,J10 turn=mouse`); or as an N-line diagram.
///
/// ```
/// use mousecats::{BoardSize, Rule, SizedPosition};
/// let size = BoardSize::new(10).unwrap();
/// let p = SizedPosition::start(size);
/// assert_eq!(p.to_string(), "size=10 mouse=E1 cats=B10,D10,F10,H10,J10 turn=mouse");
/// assert_eq!(p.to_string().parse::<SizedPosition>().unwrap(), p);
/// assert_eq!(p.diagram().parse::<SizedPosition>().unwrap(), p);
/// assert_eq!(p.moves().len(), 2);
/// let q = p.play("E1-F2".parse().unwrap(), Rule::FarRow).unwrap();
/// assert_eq!(q.moves().len(), 9);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SizedPosition {
    cats: u128,
    hash: u64,
    lock: u32,
    size: BoardSize,
    mouse: u8,
    turn: Side,
}

impl SizedPosition {
    /// The start of `size`: the cats on the dark squares of row N, the mouse on its default square
    /// ([`BoardSize::default_mouse`]), the mouse to move.
    pub fn start(size: BoardSize) -> SizedPosition {
        let geo = size.geometry();
        let cats = geo.row_mask[usize::from(size.n()) - 1];
        let mouse = size.dark_index(size.default_mouse()).unwrap_or(0);
        SizedPosition::from_parts(size, mouse, cats, Side::Mouse)
    }

    /// The start of `size` with the mouse on `mouse` (any free dark square of the board) and `first` to
    /// move.
    ///
    /// # Errors
    /// A [`ParseError`] if `mouse` is off the board, light, or on a cat.
    pub fn start_with(
        size: BoardSize,
        mouse: Coord,
        first: Side,
    ) -> Result<SizedPosition, ParseError> {
        let cats: Vec<Coord> = size.cat_start().collect();
        SizedPosition::new(size, mouse, &cats, first)
    }

    /// A position from its pieces, checked: all squares on the board and dark, exactly N/2 cats, no
    /// square used twice.
    ///
    /// # Errors
    /// A [`ParseError`] naming the first problem.
    pub fn new(
        size: BoardSize,
        mouse: Coord,
        cats: &[Coord],
        turn: Side,
    ) -> Result<SizedPosition, ParseError> {
        let m = check_square(size, mouse)?;
        let dark = cats
            .iter()
            .map(|&c| check_square(size, c))
            .collect::<Result<Vec<u8>, ParseError>>()?;
        if cats.len() != usize::from(size.cats()) {
            return Err(ParseError::CatCount {
                found: cats.len(),
                expected: usize::from(size.cats()),
                size,
            });
        }
        let mut set = 0u128;
        for (&c, &d) in cats.iter().zip(&dark) {
            if set >> d & 1 != 0 || d == m {
                return Err(ParseError::Occupied(c));
            }
            set |= 1 << d;
        }
        Ok(SizedPosition::from_parts(size, m, set, turn))
    }

    /// A position from dark indices (see [`BoardSize::dark_index`]), or `None` unless the mouse and the
    /// N/2 cats are on distinct dark squares of the board.
    pub fn from_dark(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> Option<SizedPosition> {
        let geo = size.geometry();
        let valid = u32::from(mouse) < geo.dark
            && cats & !geo.all == 0
            && cats.count_ones() == u32::from(size.cats())
            && cats >> mouse & 1 == 0;
        valid.then(|| SizedPosition::from_parts(size, mouse, cats, turn))
    }

    fn from_parts(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> SizedPosition {
        let mut p = SizedPosition {
            cats,
            hash: 0,
            lock: 0,
            size,
            mouse,
            turn,
        };
        p.hash = p.compute_hash();
        p.lock = p.compute_lock();
        p
    }

    #[inline(always)]
    fn geo(&self) -> &'static Geometry {
        self.size.geometry()
    }

    /// The board size.
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The mouse's square.
    pub fn mouse(&self) -> Coord {
        self.geo().coord[usize::from(self.mouse)]
    }

    /// The mouse's dark index.
    pub const fn mouse_dark(&self) -> u8 {
        self.mouse
    }

    /// The cats' dark indices as a set.
    pub const fn cats_dark(&self) -> u128 {
        self.cats
    }

    /// The cats' squares, lowest first.
    pub fn cat_squares(&self) -> Vec<Coord> {
        let geo = self.geo();
        bits(self.cats).map(|d| geo.coord[d as usize]).collect()
    }

    /// Whether a cat stands on `c`.
    pub fn has_cat(&self, c: Coord) -> bool {
        self.size
            .dark_index(c)
            .is_some_and(|d| self.cats >> d & 1 != 0)
    }

    /// The side to move.
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The same pieces with `turn` to move.
    pub fn with_turn(&self, turn: Side) -> SizedPosition {
        SizedPosition::from_parts(self.size, self.mouse, self.cats, turn)
    }

    /// The 64-bit Zobrist hash (kept incrementally; equal to [`SizedPosition::compute_hash`]).
    pub const fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The 32-bit lock, from key tables independent of the hash's.
    pub const fn zobrist_lock(&self) -> u32 {
        self.lock
    }

    /// The hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let geo = self.geo();
        let mut h = geo.mouse_hash[usize::from(self.mouse)];
        for c in bits(self.cats) {
            h ^= geo.cat_hash[c as usize];
        }
        if self.turn == Side::Cats {
            h ^= geo.cats_to_move_hash;
        }
        h
    }

    /// The lock computed from scratch.
    pub fn compute_lock(&self) -> u32 {
        let geo = self.geo();
        let mut h = geo.mouse_lock[usize::from(self.mouse)];
        for c in bits(self.cats) {
            h ^= geo.cat_lock[c as usize];
        }
        if self.turn == Side::Cats {
            h ^= geo.cats_to_move_lock;
        }
        h
    }

    /// The highest row (from zero) any cat stands on.
    #[inline]
    pub fn top_cat_row(&self) -> u8 {
        self.geo().row[127 - self.cats.leading_zeros() as usize]
    }

    /// The lowest row any cat stands on.
    #[inline]
    pub fn bottom_cat_row(&self) -> u8 {
        self.geo().row[self.cats.trailing_zeros() as usize]
    }

    /// Whether the mouse stands on a row no lower than every cat's row.
    #[inline]
    pub fn mouse_escaped(&self) -> bool {
        self.mouse().row() >= self.top_cat_row()
    }

    /// The dark squares no cat can ever reach, whatever the other pieces do (outside every cat's forward
    /// cone). The [`Rule::Region`] rule looks at them.
    pub fn out_of_reach(&self) -> u128 {
        self.geo().out_of_reach(self.cats)
    }

    /// Whether the mouse has already won under `rule`, whoever is to move: it stands on row N
    /// ([`Rule::FarRow`]), or also on a row no lower than every cat ([`Rule::Escape`]); or, under
    /// [`Rule::Region`], on a square no cat can reach beside another such square.
    #[inline]
    pub fn mouse_has_won(&self, rule: Rule) -> bool {
        self.geo().mouse_won(self.cats, rule) >> self.mouse & 1 != 0
    }

    /// Whether the side to move has at least one move.
    #[inline]
    pub fn has_moves(&self) -> bool {
        let geo = self.geo();
        match self.turn {
            Side::Mouse => geo.mouse_steps[usize::from(self.mouse)] & !self.cats != 0,
            Side::Cats => {
                let h = geo.half;
                let free = geo.all & !self.cats & !(1u128 << self.mouse);
                let even = self.cats & geo.even_not_left;
                let odd = self.cats & geo.odd_not_right;
                let down = self.cats >> h | even >> (h + 1) | odd >> (h - 1);
                down & free != 0
            }
        }
    }

    /// The winner if the game is over under `rule`: the mouse has won, or the side to move has no move
    /// (it loses). `None` while the game goes on.
    pub fn outcome(&self, rule: Rule) -> Option<Side> {
        if self.mouse_has_won(rule) {
            Some(Side::Mouse)
        } else if !self.has_moves() {
            Some(self.turn.opponent())
        } else {
            None
        }
    }

    /// The moves of the side to move, whether or not the game has already ended. The mouse's upward
    /// steps come first; the cats' moves go by the cat's square, lowest first (the order of the 8x8
    /// [`Position::moves`](crate::Position::moves)).
    #[inline]
    pub fn moves(&self) -> SizedMoveList {
        let geo = self.geo();
        let mut list = SizedMoveList::new();
        match self.turn {
            Side::Mouse => {
                let from = geo.coord[usize::from(self.mouse)];
                let mut t = geo.mouse_steps[usize::from(self.mouse)] & !self.cats;
                while t != 0 {
                    let to = 127 - t.leading_zeros() as usize;
                    t &= !(1u128 << to);
                    list.push(SizedMove::new(from, geo.coord[to]));
                }
            }
            Side::Cats => {
                let empty = !self.cats & !(1u128 << self.mouse);
                let mut cats = self.cats;
                while cats != 0 {
                    let from = cats.trailing_zeros() as usize;
                    cats &= cats - 1;
                    let mut t = geo.cat_steps[from] & empty;
                    while t != 0 {
                        let to = t.trailing_zeros() as usize;
                        t &= t - 1;
                        list.push(SizedMove::new(geo.coord[from], geo.coord[to]));
                    }
                }
            }
        }
        list
    }

    /// The moves of the side to move, or none once the game is over under `rule`.
    pub fn legal_moves(&self, rule: Rule) -> SizedMoveList {
        if self.mouse_has_won(rule) {
            SizedMoveList::new()
        } else {
            self.moves()
        }
    }

    /// The dark indices of a move's squares on this board.
    #[inline]
    fn dark_pair(&self, mv: SizedMove) -> Option<(usize, usize)> {
        let geo = self.geo();
        let f = geo.dark_of[usize::from(mv.from.packed())];
        let t = geo.dark_of[usize::from(mv.to.packed())];
        (f != 255 && t != 255 && self.size.contains(mv.from) && self.size.contains(mv.to))
            .then_some((usize::from(f), usize::from(t)))
    }

    /// Whether `mv` is one of [`SizedPosition::moves`].
    pub fn is_move(&self, mv: SizedMove) -> bool {
        let geo = self.geo();
        let Some((from, to)) = self.dark_pair(mv) else {
            return false;
        };
        match self.turn {
            Side::Mouse => {
                from == usize::from(self.mouse)
                    && (geo.mouse_steps[from] & !self.cats) >> to & 1 != 0
            }
            Side::Cats => {
                self.cats >> from & 1 != 0
                    && (geo.cat_steps[from] & !self.cats & !(1u128 << self.mouse)) >> to & 1 != 0
            }
        }
    }

    /// The position after `mv`, which must be one of [`SizedPosition::moves`] (not checked; see
    /// [`SizedPosition::play`]). Copy-make: the hash and lock are updated incrementally.
    #[inline]
    pub fn make_move(&self, mv: SizedMove) -> SizedPosition {
        debug_assert!(self.is_move(mv), "{mv} in {self}");
        let geo = self.geo();
        let Some((from, to)) = self.dark_pair(mv) else {
            return *self;
        };
        let mut p = *self;
        match self.turn {
            Side::Mouse => {
                p.mouse = to as u8;
                p.hash ^= geo.mouse_hash[from] ^ geo.mouse_hash[to] ^ geo.cats_to_move_hash;
                p.lock ^= geo.mouse_lock[from] ^ geo.mouse_lock[to] ^ geo.cats_to_move_lock;
                p.turn = Side::Cats;
            }
            Side::Cats => {
                p.cats ^= 1u128 << from | 1u128 << to;
                p.hash ^= geo.cat_hash[from] ^ geo.cat_hash[to] ^ geo.cats_to_move_hash;
                p.lock ^= geo.cat_lock[from] ^ geo.cat_lock[to] ^ geo.cats_to_move_lock;
                p.turn = Side::Mouse;
            }
        }
        p
    }

    /// The hash of the position after `mv` (one of [`SizedPosition::moves`]), without making the move.
    #[inline]
    pub fn hash_after(&self, mv: SizedMove) -> u64 {
        let geo = self.geo();
        let Some((from, to)) = self.dark_pair(mv) else {
            return self.hash;
        };
        let keys = match self.turn {
            Side::Mouse => &geo.mouse_hash,
            Side::Cats => &geo.cat_hash,
        };
        self.hash ^ keys[from] ^ keys[to] ^ geo.cats_to_move_hash
    }

    /// The position after `mv`, checked: the game must not be over under `rule` and `mv` must be legal.
    ///
    /// # Errors
    /// A [`MoveError`] saying why not.
    pub fn play(
        &self,
        mv: SizedMove,
        rule: Rule,
    ) -> Result<SizedPosition, MoveError<SizedMove, Coord>> {
        if let Some(winner) = self.outcome(rule) {
            return Err(MoveError::GameOver(winner));
        }
        if self.is_move(mv) {
            return Ok(self.make_move(mv));
        }
        let own = match self.turn {
            Side::Mouse => mv.from() == self.mouse(),
            Side::Cats => self.has_cat(mv.from()),
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

    /// The N-line diagram, row N first, with coordinates and a final `turn=` line. Dark squares show `.`
    /// (empty), `M` (mouse) or `C` (cat); light squares are blank. The 8x8 diagram is
    /// [`Position::diagram`](crate::Position::diagram)'s.
    pub fn diagram(&self) -> String {
        let mouse = self.mouse();
        let cats = self.cats;
        let size = self.size;
        diagram(size, self.turn, |c| {
            if c == mouse {
                'M'
            } else if size.dark_index(c).is_some_and(|d| cats >> d & 1 != 0) {
                'C'
            } else {
                '.'
            }
        })
    }

    /// Parse a position of any size: the one-line notation (with an optional `size=N` field) or a
    /// diagram (its number of rows gives the size). `size`, when given, is the size asked for: a text of
    /// another size is refused; a text that does not say defaults to it (else to 8x8).
    ///
    /// # Errors
    /// A [`ParseError`] naming the problem and where.
    pub fn parse(text: &str, size: Option<BoardSize>) -> Result<SizedPosition, ParseError> {
        let p = parse_text(text, size)?;
        SizedPosition::new(p.size, p.mouse, &p.cats, p.turn)
    }
}

/// The set bits of `set`, lowest first.
fn bits(set: u128) -> impl Iterator<Item = u32> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let b = rest.trailing_zeros();
            rest &= rest - 1;
            b
        })
    })
}

/// The dark index of `c`, checked against the board.
fn check_square(size: BoardSize, c: Coord) -> Result<u8, ParseError> {
    if !size.contains(c) {
        return Err(SquareError::OffBoard { square: c, size }.into());
    }
    size.dark_index(c)
        .ok_or_else(|| SquareError::Light(c).into())
}

impl fmt::Display for SizedPosition {
    /// The one-line notation; `size=N` first unless the board is 8x8.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cats: Vec<String> = self.cat_squares().iter().map(ToString::to_string).collect();
        if self.size != BoardSize::EIGHT {
            write!(f, "size={} ", self.size.n())?;
        }
        write!(
            f,
            "mouse={} cats={} turn={}",
            self.mouse(),
            cats.join(","),
            self.turn
        )
    }
}

impl fmt::Debug for SizedPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for SizedPosition {
    type Err = ParseError;
    /// As [`SizedPosition::parse`] with no size asked for.
    fn from_str(s: &str) -> Result<SizedPosition, ParseError> {
        SizedPosition::parse(s, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_of_every_size_round_trips() {
        for size in BoardSize::all() {
            let p = SizedPosition::start(size);
            assert_eq!(p.to_string().parse::<SizedPosition>().unwrap(), p);
            assert_eq!(p.diagram().parse::<SizedPosition>().unwrap(), p);
            assert_eq!(SizedPosition::parse(&p.diagram(), Some(size)).unwrap(), p);
            assert_eq!(SizedPosition::parse("start", Some(size)).unwrap(), p);
            assert_eq!(p.zobrist_hash(), p.compute_hash());
        }
    }

    #[test]
    fn text_of_the_wrong_size_is_refused() {
        let ten = BoardSize::new(10).unwrap();
        let err = |s: &str, size: Option<BoardSize>| {
            SizedPosition::parse(s, size).unwrap_err().to_string()
        };
        let e = err(
            "size=10 mouse=E1 cats=B10,D10,F10,H10,J10",
            Some(BoardSize::EIGHT),
        );
        assert!(e.contains("for the 10x10 board, not 8x8"), "{e}");
        let e = err("mouse=E1 cats=B10,D10,F10,H10,J10", None);
        assert!(e.contains("B10 is off the 8x8 board"), "{e}");
        let e = err("mouse=E1 cats=B8,D8,F8,H8", Some(ten));
        assert!(e.contains("expected 5 cats"), "{e}");
        let e = err(&SizedPosition::start(ten).diagram(), Some(BoardSize::EIGHT));
        assert!(e.contains("row label 10 where row 8"), "{e}");
        let e = err("size=9 mouse=E1", None);
        assert!(e.contains("bad board size '9'"), "{e}");
        let e = err("size=12 mouse=A13 cats=B12", None);
        assert!(e.contains("A13 is off the 12x12 board"), "{e}");
    }
}
