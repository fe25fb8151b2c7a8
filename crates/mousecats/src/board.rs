//! Squares, bitboards, sides and the precomputed move tables.

use std::fmt;
use std::str::FromStr;

use crate::error::SquareError;

/// A square of the 8x8 board: A1 = 0, B1 = 1, … H1 = 7, A2 = 8, … H8 = 63.
///
/// A1 is at the bottom left and is dark; pieces stand only on dark squares, those whose file and row
/// (counted from zero) add up to an even number. Squares parse from and print as algebraic names
/// (`"E1"`, case-insensitive on input):
///
/// ```
/// use mousecats::Square;
/// let e1: Square = "e1".parse().unwrap();
/// assert_eq!(e1, Square::E1);
/// assert_eq!(e1.index(), 4);
/// assert!(e1.is_dark());
/// assert_eq!(e1.to_string(), "E1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// A1, the bottom-left corner (dark).
    pub const A1: Square = Square(0);
    /// C1.
    pub const C1: Square = Square(2);
    /// E1, the mouse's default start.
    pub const E1: Square = Square(4);
    /// G1.
    pub const G1: Square = Square(6);
    /// B8, a cat's start.
    pub const B8: Square = Square(57);
    /// D8, a cat's start.
    pub const D8: Square = Square(59);
    /// F8, a cat's start.
    pub const F8: Square = Square(61);
    /// H8, a cat's start (top-right corner).
    pub const H8: Square = Square(63);

    /// The square with index `index` (0..64), or `None` when out of range.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = A … 7 = H) and `row` (0 = row 1 … 7 = row 8).
    pub const fn from_coords(file: u8, row: u8) -> Option<Square> {
        if file < 8 && row < 8 {
            Some(Square(row * 8 + file))
        } else {
            None
        }
    }

    /// The index, 0..64 (A1 = 0, H8 = 63).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 = A … 7 = H.
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The row counted from zero: 0 = row 1 (the mouse's side) … 7 = row 8 (the cats' side).
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// Whether pieces may stand here (A1 is dark).
    pub const fn is_dark(self) -> bool {
        (self.file() + self.row()).is_multiple_of(2)
    }

    /// The one-bit bitboard of this square.
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u64 << self.0)
    }

    /// The dark squares numbered 0..32 row by row (A1 = 0, C1 = 1, E1 = 2, G1 = 3, B2 = 4, … H8 = 31),
    /// or `None` for a light square. The exact solver indexes positions with it.
    pub const fn dark_index(self) -> Option<u8> {
        if self.is_dark() {
            Some(self.row() * 4 + self.file() / 2)
        } else {
            None
        }
    }

    /// The dark square with dark index `d` (see [`Square::dark_index`]); `d` must be below 32.
    pub const fn from_dark_index(d: u8) -> Square {
        let row = (d / 4) % 8;
        let file = 2 * (d % 4) + row % 2;
        Square(row * 8 + file)
    }

    /// All 32 dark squares in increasing order.
    pub fn dark_squares() -> impl Iterator<Item = Square> {
        (0..32u8).map(Square::from_dark_index)
    }

    /// The algebraic name, for example `"E1"`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'A' + self.file());
        let row = char::from(b'1' + self.row());
        write!(f, "{file}{row}")
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = SquareError;

    /// Parse an algebraic name such as `E1` or `e1` (surrounding spaces are ignored).
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let t = s.trim();
        let b = t.as_bytes();
        if b.len() == 2 {
            let file = b[0].to_ascii_uppercase();
            let row = b[1];
            if (b'A'..=b'H').contains(&file) && (b'1'..=b'8').contains(&row) {
                return Ok(Square((row - b'1') * 8 + (file - b'A')));
            }
        }
        Err(SquareError::Unknown(t.to_string()))
    }
}

impl Square {
    /// Parse a square name and require it to be dark (a square a piece may stand on).
    pub fn parse_dark(s: &str) -> Result<Square, SquareError> {
        let sq: Square = s.parse()?;
        if sq.is_dark() {
            Ok(sq)
        } else {
            Err(SquareError::light(sq))
        }
    }
}

/// A set of squares, one bit per square (bit `i` is the square with index `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 dark squares.
    pub const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// The number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.0)
    }

    /// The set with `sq` removed.
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.0))
    }

    /// The lowest square of the set.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square of the set.
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The squares in increasing order.
    pub fn squares(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares()).finish()
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(sq))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

/// The two sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The mouse: one piece, moves one square diagonally in any direction, wants to reach row 8.
    Mouse,
    /// The four cats: move one square diagonally towards row 1, want to trap the mouse.
    Cats,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Mouse => Side::Cats,
            Side::Cats => Side::Mouse,
        }
    }

    /// `"mouse"` or `"cats"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Mouse => "mouse",
            Side::Cats => "cats",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = crate::error::ParseError;

    /// `mouse`/`m` or `cats`/`cat`/`c`, case-insensitive.
    fn from_str(s: &str) -> Result<Side, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mouse" | "m" => Ok(Side::Mouse),
            "cats" | "cat" | "c" => Ok(Side::Cats),
            other => Err(crate::error::ParseError::Side(other.to_string())),
        }
    }
}

const fn build_mouse_moves() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let f = (i % 8) as i32;
        let r = (i / 8) as i32;
        let mut bits = 0u64;
        // NE, NW, SE, SW.
        let d = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
        let mut k = 0;
        while k < 4 {
            let nf = f + d[k].0;
            let nr = r + d[k].1;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bits |= 1u64 << (nr * 8 + nf);
            }
            k += 1;
        }
        if (f + r) % 2 == 0 {
            t[i] = bits;
        }
        i += 1;
    }
    t
}

const fn build_cat_moves() -> [u64; 64] {
    let m = build_mouse_moves();
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        // Only the squares on lower rows.
        let below = (1u64 << ((i / 8) * 8)) - 1;
        t[i] = m[i] & below;
        i += 1;
    }
    t
}

/// Where the mouse may step from each square (one diagonal step in any direction), ignoring occupancy.
/// Empty for light squares. Built at compile time.
pub const MOUSE_MOVES: [u64; 64] = build_mouse_moves();

/// Where a cat may step from each square (one diagonal step towards row 1), ignoring occupancy.
/// Empty for light squares. Built at compile time.
pub const CAT_MOVES: [u64; 64] = build_cat_moves();

const fn build_cat_cones() -> [u64; 64] {
    let steps = build_cat_moves();
    let mut t = [0u64; 64];
    let mut i = 0;
    // Lower squares first: a square's cone is itself and the cones of its steps.
    while i < 64 {
        if (i % 8 + i / 8) % 2 == 0 {
            let mut cone = 1u64 << i;
            let mut s = steps[i];
            while s != 0 {
                let to = s.trailing_zeros() as usize;
                s &= s - 1;
                cone |= t[to];
            }
            t[i] = cone;
        }
        i += 1;
    }
    t
}

/// The squares a cat on each square can ever reach (its forward cone, the square itself included),
/// ignoring occupancy. Empty for light squares. Built at compile time.
pub const CAT_CONES: [u64; 64] = build_cat_cones();

/// The squares of each row: `ROW_MASKS[0]` is row 1.
pub const ROW_MASKS: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut r = 0;
    while r < 8 {
        t[r] = 0xFFu64 << (8 * r);
        r += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_index_round_trips() {
        let mut n = 0;
        for i in 0..64u8 {
            let sq = Square(i);
            if let Some(d) = sq.dark_index() {
                assert_eq!(Square::from_dark_index(d), sq);
                n += 1;
            }
        }
        assert_eq!(n, 32);
        assert_eq!(Bitboard::DARK.count(), 32);
        for sq in Square::dark_squares() {
            assert!(Bitboard::DARK.contains(sq));
        }
    }

    #[test]
    fn names() {
        assert_eq!(Square::A1.to_string(), "A1");
        assert_eq!(Square::H8.to_string(), "H8");
        assert_eq!("h8".parse::<Square>().ok(), Some(Square::H8));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!(Square::parse_dark("b1").is_err());
        assert!(Square::parse_dark("b2").is_ok());
    }

    #[test]
    fn move_tables() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let bb = |v: &[&str]| v.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)));
        assert_eq!(Bitboard(MOUSE_MOVES[4]), bb(&["D2", "F2"]));
        assert_eq!(
            Bitboard(MOUSE_MOVES[sq("D4").index() as usize]),
            bb(&["C5", "E5", "C3", "E3"])
        );
        assert_eq!(
            Bitboard(MOUSE_MOVES[sq("A3").index() as usize]),
            bb(&["B4", "B2"])
        );
        assert_eq!(Bitboard(CAT_MOVES[sq("H8").index() as usize]), bb(&["G7"]));
        assert_eq!(
            Bitboard(CAT_MOVES[sq("B8").index() as usize]),
            bb(&["A7", "C7"])
        );
        assert_eq!(
            Bitboard(CAT_MOVES[sq("C1").index() as usize]),
            Bitboard::EMPTY
        );
        assert_eq!(MOUSE_MOVES[1], 0, "light squares have no moves");
        for m in MOUSE_MOVES {
            assert_eq!(m & !Bitboard::DARK.0, 0);
        }
    }
}
