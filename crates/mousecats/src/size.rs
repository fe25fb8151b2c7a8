//! Boards of every even size from 4x4 to 16x16: the size, squares named on any of them, and the tables of
//! one size (steps, the cats' cones, Zobrist keys) built once per process.
//!
//! On an N x N board the dark squares are numbered row by row, N/2 to a row: on even rows (counted from
//! zero) the dark squares are on files A, C, E, …; on odd rows on files B, D, F, …. A set of dark squares
//! is a `u128` (16x16 has exactly 128 dark squares). This numbering is the "dark index" used by
//! [`SizedPosition`](crate::SizedPosition) and by the exact solver.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::board::Square;
use crate::error::{ParseError, SquareError};
use crate::zobrist;

/// The size N of an N x N board: even, from 4 to 16. The standard game is 8x8.
///
/// Sizes parse from `10` or `10x10` and print as `10x10`:
///
/// ```
/// use mousecats::BoardSize;
/// let s: BoardSize = "10".parse().unwrap();
/// assert_eq!(s.n(), 10);
/// assert_eq!(s.cats(), 5);
/// assert_eq!(s.dark_squares(), 50);
/// assert_eq!(s.to_string(), "10x10");
/// assert_eq!(s.default_mouse().to_string(), "E1");
/// assert!("9".parse::<BoardSize>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BoardSize(u8);

impl BoardSize {
    /// The smallest size, 4x4.
    pub const MIN: BoardSize = BoardSize(4);
    /// The largest size, 16x16 (128 dark squares, the width of a `u128`).
    pub const MAX: BoardSize = BoardSize(16);
    /// The standard 8x8 board.
    pub const EIGHT: BoardSize = BoardSize(8);

    /// The size `n` x `n`, checked: even, 4 to 16.
    ///
    /// # Errors
    /// [`ParseError::Size`] for an odd size or one outside 4..=16.
    pub fn new(n: u32) -> Result<BoardSize, ParseError> {
        if n.is_multiple_of(2) && (4..=16).contains(&n) {
            Ok(BoardSize(n as u8))
        } else {
            Err(ParseError::Size(n.to_string()))
        }
    }

    /// A size known to be valid.
    pub(crate) const fn new_const(n: u8) -> BoardSize {
        BoardSize(n)
    }

    /// Every size, smallest first: 4, 6, … 16.
    pub fn all() -> impl Iterator<Item = BoardSize> {
        (2..=8u8).map(|h| BoardSize(2 * h))
    }

    /// N, the number of rows and of files.
    pub const fn n(self) -> u8 {
        self.0
    }

    /// N / 2: the dark squares of one row, and the number of cats.
    pub const fn half(self) -> u8 {
        self.0 / 2
    }

    /// The number of cats, N / 2.
    pub const fn cats(self) -> u8 {
        self.0 / 2
    }

    /// The number of dark squares, N² / 2.
    pub const fn dark_squares(self) -> u8 {
        // 16 * 16 / 2 = 128 fits in a byte.
        ((self.0 as u16 * self.0 as u16) / 2) as u8
    }

    /// 0 for 4x4, 1 for 6x6, … 6 for 16x16.
    pub const fn ordinal(self) -> usize {
        (self.0 / 2 - 2) as usize
    }

    /// The mouse's default start (as in gilith/solve): the dark square of row 1 in file 2·⌊N/4⌋ counted
    /// from zero, C1 on 4x4 and 6x6, E1 on 8x8 and 10x10, G1 on 12x12.
    pub const fn default_mouse(self) -> Coord {
        Coord::pack(2 * (self.0 / 4), 0)
    }

    /// The cats' start: the dark squares of row N (B8, D8, F8, H8 on 8x8).
    pub fn cat_start(self) -> impl Iterator<Item = Coord> {
        let n = self.0;
        (0..n / 2).map(move |k| Coord::pack(2 * k + 1, n - 1))
    }

    /// Whether `c` is on this board.
    pub const fn contains(self, c: Coord) -> bool {
        c.file() < self.0 && c.row() < self.0
    }

    /// The dark index of `c` on this board (`row * N/2 + file / 2`), or `None` for a light square or one
    /// off the board.
    pub const fn dark_index(self, c: Coord) -> Option<u8> {
        if self.contains(c) && c.is_dark() {
            Some(c.row() * self.half() + c.file() / 2)
        } else {
            None
        }
    }

    /// The square with dark index `d` (below [`BoardSize::dark_squares`]).
    pub const fn dark_square(self, d: u8) -> Coord {
        let h = self.half();
        let row = d / h;
        Coord::pack(2 * (d % h) + row % 2, row)
    }

    /// The name of the last square, for messages: `H8` on 8x8, `L12` on 12x12.
    pub fn last_square(self) -> Coord {
        Coord::pack(self.0 - 1, self.0 - 1)
    }

    /// A square name checked against this board: on it, and dark.
    ///
    /// # Errors
    /// A [`SquareError`] for a malformed name, a square off this board or a light square.
    pub fn parse_dark(self, s: &str) -> Result<Coord, SquareError> {
        let c: Coord = s.parse()?;
        if !self.contains(c) {
            return Err(SquareError::OffBoard {
                square: c,
                size: self,
            });
        }
        if !c.is_dark() {
            return Err(SquareError::Light(c));
        }
        Ok(c)
    }

    /// The tables of this size.
    pub(crate) fn geometry(self) -> &'static Geometry {
        static ALL: [OnceLock<Geometry>; 7] = [const { OnceLock::new() }; 7];
        ALL[self.ordinal()].get_or_init(|| Geometry::build(self))
    }
}

impl Default for BoardSize {
    fn default() -> BoardSize {
        BoardSize::EIGHT
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.0)
    }
}

impl FromStr for BoardSize {
    type Err = ParseError;

    /// `10`, `10x10` or `10X10`.
    fn from_str(s: &str) -> Result<BoardSize, ParseError> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        let n = match lower.split_once('x') {
            Some((a, b)) if a == b => a,
            Some(_) => return Err(ParseError::Size(t.to_string())),
            None => lower.as_str(),
        };
        match n.parse::<u32>() {
            Ok(v) => BoardSize::new(v).map_err(|_| ParseError::Size(t.to_string())),
            Err(_) => Err(ParseError::Size(t.to_string())),
        }
    }
}

/// A square on a board of any size: its file (0 = A … 15 = P) and row (0 = row 1 … 15 = row 16).
///
/// Squares print as `E1`, `L12`, `P16` and parse from the same, in either case:
///
/// ```
/// use mousecats::Coord;
/// let c: Coord = "l12".parse().unwrap();
/// assert_eq!((c.file(), c.row()), (11, 11));
/// assert_eq!(c.to_string(), "L12");
/// assert!(c.is_dark());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord(u8);

impl Coord {
    /// The square on `file` and `row` (both counted from zero), or `None` beyond 16.
    pub const fn new(file: u8, row: u8) -> Option<Coord> {
        if file < 16 && row < 16 {
            Some(Coord::pack(file, row))
        } else {
            None
        }
    }

    pub(crate) const fn pack(file: u8, row: u8) -> Coord {
        Coord((row & 15) << 4 | (file & 15))
    }

    /// The file, 0 = A.
    pub const fn file(self) -> u8 {
        self.0 & 15
    }

    /// The row counted from zero: 0 = row 1, the mouse's side.
    pub const fn row(self) -> u8 {
        self.0 >> 4
    }

    /// The packed form, `row << 4 | file`.
    pub(crate) const fn packed(self) -> u8 {
        self.0
    }

    /// Whether pieces may stand here (A1 is dark on every board).
    pub const fn is_dark(self) -> bool {
        (self.file() + self.row()).is_multiple_of(2)
    }
}

impl From<Square> for Coord {
    fn from(s: Square) -> Coord {
        Coord::pack(s.file(), s.row())
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.file()), self.row() + 1)
    }
}

impl fmt::Debug for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Coord {
    type Err = SquareError;

    /// A file letter A..P and a row number 1..16, for example `E1` or `l12`.
    fn from_str(s: &str) -> Result<Coord, SquareError> {
        let t = s.trim();
        let unknown = || SquareError::Unknown(t.to_string());
        let mut chars = t.chars();
        let file = chars.next().ok_or_else(unknown)?.to_ascii_uppercase();
        if !('A'..='P').contains(&file) {
            return Err(unknown());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(unknown());
        }
        let row: u8 = digits.parse().map_err(|_| unknown())?;
        if !(1..=16).contains(&row) || digits.starts_with('0') {
            return Err(unknown());
        }
        Ok(Coord::pack(file as u8 - b'A', row - 1))
    }
}

/// The tables of one board size, on dark indices.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// The size.
    pub size: BoardSize,
    /// N / 2.
    pub half: u32,
    /// Dark squares.
    pub dark: u32,
    /// All dark squares.
    pub all: u128,
    /// The row (from zero) of each dark index.
    pub row: [u8; 128],
    /// The square of each dark index.
    pub coord: [Coord; 128],
    /// The dark index of each square (`row << 4 | file`), 255 where there is none.
    pub dark_of: [u8; 256],
    /// The dark squares of each row.
    pub row_mask: [u128; 16],
    /// The dark squares on this row or higher: `at_or_above[r]`.
    pub at_or_above: [u128; 17],
    /// Where the mouse may step from each dark square (diagonally, any direction).
    pub mouse_steps: [u128; 128],
    /// Where a cat may step from each dark square (diagonally towards row 1).
    pub cat_steps: [u128; 128],
    /// The squares a cat on each dark square may ever reach, the square itself included.
    pub cone: [u128; 128],
    /// Even rows without file A: the steps that move the dark index by N/2 ± 1 there.
    pub even_not_left: u128,
    /// Odd rows without the last file.
    pub odd_not_right: u128,
    /// Zobrist hash key of the mouse on each dark square.
    pub mouse_hash: [u64; 128],
    /// Hash key of a cat on each dark square.
    pub cat_hash: [u64; 128],
    /// Hash key for the cats to move.
    pub cats_to_move_hash: u64,
    /// Lock key of the mouse on each dark square.
    pub mouse_lock: [u32; 128],
    /// Lock key of a cat on each dark square.
    pub cat_lock: [u32; 128],
    /// Lock key for the cats to move.
    pub cats_to_move_lock: u32,
}

impl Geometry {
    fn build(size: BoardSize) -> Geometry {
        let n = size.n();
        let dark = u32::from(size.dark_squares());
        let mut g = Geometry {
            size,
            half: u32::from(size.half()),
            dark,
            all: if dark == 128 {
                u128::MAX
            } else {
                (1u128 << dark) - 1
            },
            row: [0; 128],
            coord: [Coord(0); 128],
            dark_of: [255; 256],
            row_mask: [0; 16],
            at_or_above: [0; 17],
            mouse_steps: [0; 128],
            cat_steps: [0; 128],
            cone: [0; 128],
            even_not_left: 0,
            odd_not_right: 0,
            mouse_hash: [0; 128],
            cat_hash: [0; 128],
            cats_to_move_hash: 0,
            mouse_lock: [0; 128],
            cat_lock: [0; 128],
            cats_to_move_lock: 0,
        };
        let bit = |c: Coord| size.dark_index(c).map_or(0, |d| 1u128 << d);
        for d in 0..dark as u8 {
            let c = size.dark_square(d);
            let (f, r) = (i32::from(c.file()), i32::from(c.row()));
            g.row[usize::from(d)] = c.row();
            g.coord[usize::from(d)] = c;
            g.dark_of[usize::from(c.0)] = d;
            g.row_mask[usize::from(c.row())] |= 1 << d;
            let step = |df: i32, dr: i32| {
                let (nf, nr) = (f + df, r + dr);
                if (0..i32::from(n)).contains(&nf) && (0..i32::from(n)).contains(&nr) {
                    bit(Coord::pack(nf as u8, nr as u8))
                } else {
                    0
                }
            };
            g.mouse_steps[usize::from(d)] = step(1, 1) | step(-1, 1) | step(1, -1) | step(-1, -1);
            g.cat_steps[usize::from(d)] = step(1, -1) | step(-1, -1);
            if c.row().is_multiple_of(2) && c.file() != 0 {
                g.even_not_left |= 1 << d;
            }
            if c.row() % 2 == 1 && c.file() != n - 1 {
                g.odd_not_right |= 1 << d;
            }
        }
        for r in (0..usize::from(n)).rev() {
            g.at_or_above[r] = g.at_or_above[r + 1] | g.row_mask[r];
        }
        // Cones, lowest rows first: a square's cone is itself and its steps' cones.
        for d in 0..dark as usize {
            let mut cone = 1u128 << d;
            let mut steps = g.cat_steps[d];
            while steps != 0 {
                let t = steps.trailing_zeros() as usize;
                steps &= steps - 1;
                cone |= g.cone[t];
            }
            g.cone[d] = cone;
        }
        if size == BoardSize::EIGHT {
            // The 8x8 board keeps the keys of the classic engine, so both hash a position alike.
            for d in 0..32u8 {
                let sq = usize::from(Square::from_dark_index(d).index());
                g.mouse_hash[usize::from(d)] = zobrist::MOUSE_HASH[sq];
                g.cat_hash[usize::from(d)] = zobrist::CAT_HASH[sq];
                g.mouse_lock[usize::from(d)] = zobrist::MOUSE_LOCK[sq];
                g.cat_lock[usize::from(d)] = zobrist::CAT_LOCK[sq];
            }
            g.cats_to_move_hash = zobrist::CATS_TO_MOVE_HASH;
            g.cats_to_move_lock = zobrist::CATS_TO_MOVE_LOCK;
        } else {
            let keys = zobrist::SizeKeys::new(n);
            g.mouse_hash = keys.mouse_hash;
            g.cat_hash = keys.cat_hash;
            g.cats_to_move_hash = keys.cats_to_move_hash;
            g.mouse_lock = keys.mouse_lock;
            g.cat_lock = keys.cat_lock;
            g.cats_to_move_lock = keys.cats_to_move_lock;
        }
        g
    }

    /// The squares no cat of `cats` can ever reach, whatever the other pieces do.
    #[inline]
    pub fn out_of_reach(&self, cats: u128) -> u128 {
        let mut cone = 0;
        let mut c = cats;
        while c != 0 {
            cone |= self.cone[c.trailing_zeros() as usize];
            c &= c - 1;
        }
        self.all & !cone
    }

    /// The dark squares one mouse step away from some square of `set`.
    #[inline]
    pub fn neighbours(&self, set: u128) -> u128 {
        let h = self.half;
        let straight = set << h | set >> h;
        let even = set & self.even_not_left;
        let odd = set & self.odd_not_right;
        let diag = even << (h - 1) | even >> (h + 1) | odd << (h + 1) | odd >> (h - 1);
        (straight | diag) & self.all
    }

    /// The mouse squares where the mouse has already won under `rule`, with cats on `cats`.
    #[inline(always)]
    pub fn mouse_won(&self, cats: u128, rule: crate::Rule) -> u128 {
        let top = self.row_mask[usize::from(self.size.n()) - 1];
        match rule {
            crate::Rule::FarRow => top,
            crate::Rule::Escape => {
                let top_cat = 127 - cats.leading_zeros() as usize;
                top | self.at_or_above[usize::from(self.row[top_cat])]
            }
            crate::Rule::Region => {
                let safe = self.out_of_reach(cats);
                safe & self.neighbours(safe)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_check() {
        for n in [4, 6, 8, 10, 12, 14, 16] {
            let s = BoardSize::new(n).unwrap();
            assert_eq!(s.to_string().parse::<BoardSize>().unwrap(), s);
            assert_eq!(n.to_string().parse::<BoardSize>().unwrap(), s);
        }
        for bad in [
            "3", "5", "2", "18", "0", "-4", "8x10", "x", "", "eight", "९",
        ] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad}");
        }
        assert_eq!(BoardSize::all().count(), 7);
        let names: Vec<String> = BoardSize::all()
            .map(|s| s.default_mouse().to_string())
            .collect();
        assert_eq!(names, ["C1", "C1", "E1", "E1", "G1", "G1", "I1"]);
    }

    #[test]
    fn coords_parse_char_safely() {
        assert_eq!("P16".parse::<Coord>().unwrap().to_string(), "P16");
        for bad in [
            "Q1", "A0", "A17", "A01", "é1", "A١", "1A", "", "A", "AA1", "E1é",
        ] {
            assert!(bad.parse::<Coord>().is_err(), "{bad}");
        }
    }

    #[test]
    fn dark_indices_round_trip_and_steps_match_the_board() {
        for size in BoardSize::all() {
            let g = size.geometry();
            for d in 0..size.dark_squares() {
                let c = size.dark_square(d);
                assert!(c.is_dark() && size.contains(c));
                assert_eq!(size.dark_index(c), Some(d));
                // Steps from the shifts agree with the table.
                assert_eq!(
                    g.neighbours(1 << d),
                    g.mouse_steps[usize::from(d)],
                    "{size} {c}"
                );
                for t in 0..size.dark_squares() {
                    let ct = size.dark_square(t);
                    let df = i32::from(ct.file()) - i32::from(c.file());
                    let dr = i32::from(ct.row()) - i32::from(c.row());
                    let adjacent = df.abs() == 1 && dr.abs() == 1;
                    assert_eq!(g.mouse_steps[usize::from(d)] >> t & 1 == 1, adjacent);
                    assert_eq!(
                        g.cat_steps[usize::from(d)] >> t & 1 == 1,
                        adjacent && dr == -1
                    );
                    // The cone: below by at least |df| rows.
                    let below = dr <= 0 && df.abs() <= -dr;
                    assert_eq!(g.cone[usize::from(d)] >> t & 1 == 1, below, "{c} {ct}");
                }
            }
        }
    }
}
