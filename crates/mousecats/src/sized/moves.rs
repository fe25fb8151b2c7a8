//! Moves on a board of any size, and the list of a position's moves.

use std::fmt;
use std::str::FromStr;

use crate::error::ParseError;
use crate::size::Coord;

/// A move on a board of any size: one piece from one square to a diagonally adjacent one.
///
/// Moves print as `E1-F2` and parse from `E1-F2`, `e10-f11`, `E1F2` or `e10f11`:
///
/// ```
/// use mousecats::SizedMove;
/// let mv: SizedMove = "j10i9".parse().unwrap();
/// assert_eq!(mv.to_string(), "J10-I9");
/// assert_eq!(mv.to_compact(), "j10i9");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SizedMove {
    pub(super) from: Coord,
    pub(super) to: Coord,
}

impl SizedMove {
    /// The move from `from` to `to` (not checked against any position).
    pub const fn new(from: Coord, to: Coord) -> SizedMove {
        SizedMove { from, to }
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Coord {
        self.from
    }

    /// The square the piece goes to.
    pub const fn to(self) -> Coord {
        self.to
    }

    /// The lower-case form without a dash, for example `e1f2`.
    pub fn to_compact(self) -> String {
        format!("{}{}", self.from, self.to).to_ascii_lowercase()
    }
}

impl fmt::Display for SizedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Debug for SizedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for SizedMove {
    type Err = ParseError;

    /// Two square names, with or without one `-` between them. Works on characters, so any text is
    /// answered with a value or an error, never a panic.
    fn from_str(s: &str) -> Result<SizedMove, ParseError> {
        let t = s.trim();
        let bad = || ParseError::Move(t.to_string());
        let chars: Vec<char> = t.chars().collect();
        // A square: a letter and one or two digits.
        let square_end = |start: usize| -> Option<usize> {
            let first = *chars.get(start)?;
            if !first.is_ascii_alphabetic() {
                return None;
            }
            let mut end = start + 1;
            while end < chars.len() && chars[end].is_ascii_digit() && end - start <= 2 {
                end += 1;
            }
            (end > start + 1).then_some(end)
        };
        let a_end = square_end(0).ok_or_else(bad)?;
        let b_start = if chars.get(a_end) == Some(&'-') {
            a_end + 1
        } else {
            a_end
        };
        let b_end = square_end(b_start).ok_or_else(bad)?;
        if b_end != chars.len() {
            return Err(bad());
        }
        let text = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
        match (
            text(0, a_end).parse::<Coord>(),
            text(b_start, b_end).parse::<Coord>(),
        ) {
            (Ok(from), Ok(to)) => Ok(SizedMove { from, to }),
            _ => Err(bad()),
        }
    }
}

impl From<crate::Move> for SizedMove {
    fn from(m: crate::Move) -> SizedMove {
        SizedMove::new(m.from().into(), m.to().into())
    }
}

/// The moves of one position: at most 16 (eight cats, two steps each), kept on the stack.
#[derive(Clone, Copy)]
pub struct SizedMoveList {
    moves: [SizedMove; 16],
    len: u8,
}

impl SizedMoveList {
    pub(super) const fn new() -> SizedMoveList {
        SizedMoveList {
            moves: [SizedMove::new(Coord::pack(0, 0), Coord::pack(0, 0)); 16],
            len: 0,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, mv: SizedMove) {
        if let Some(slot) = self.moves.get_mut(usize::from(self.len)) {
            *slot = mv;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for SizedMoveList {
    type Target = [SizedMove];
    fn deref(&self) -> &[SizedMove] {
        &self.moves[..usize::from(self.len)]
    }
}

impl fmt::Debug for SizedMoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a SizedMoveList {
    type Item = &'a SizedMove;
    type IntoIter = std::slice::Iter<'a, SizedMove>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_on_characters() {
        for (text, shown) in [
            ("e1f2", "E1-F2"),
            ("E10-F11", "E10-F11"),
            ("p16o15", "P16-O15"),
            (" a1-b2 ", "A1-B2"),
        ] {
            assert_eq!(text.parse::<SizedMove>().unwrap().to_string(), shown);
        }
        for bad in [
            "",
            "e1",
            "e1-",
            "e1--f2",
            "e1-f2-g3",
            "é1f2",
            "e1f2é",
            "ee1f2",
            "e123f2",
            "e0f1",
            "q1a2",
            "€€€€",
            "e1 f2",
            "１２３４",
        ] {
            assert!(bad.parse::<SizedMove>().is_err(), "{bad}");
        }
    }
}
