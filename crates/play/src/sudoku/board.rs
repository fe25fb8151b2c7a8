//! The grid the player fills: digits and marks (the undoable part of a game), the conflicts between them, and a
//! typed "row column value" entry.

use serde::{Deserialize, Serialize};
use sudoku::logic::tables::{PEERS, bit, cell_name, house_name};

use super::puzzle::Puzzle;
use crate::text::plural;

/// The undoable part of the game: the digits in the grid (clues included), the pencil marks (the candidates
/// a player notes in a cell's corners) and the centre marks (notes of the player's own: which digits a pair or
/// a triple of cells shares, say; no rule reads them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Board {
    #[serde(with = "digits81")]
    pub(super) values: [u8; 81],
    #[serde(with = "marks81")]
    pub(super) marks: [u16; 81],
    /// Saved since format version 2, and only when a cell has one.
    #[serde(
        with = "marks81",
        default = "no_marks",
        skip_serializing_if = "no_mark_set"
    )]
    pub(super) centre: [u16; 81],
}

fn no_marks() -> [u16; 81] {
    [0; 81]
}

fn no_mark_set(m: &[u16; 81]) -> bool {
    m.iter().all(|&x| x == 0)
}

impl Board {
    pub(super) fn of(values: [u8; 81]) -> Board {
        Board {
            values,
            marks: [0; 81],
            centre: [0; 81],
        }
    }

    /// Check a board read from a save against its puzzle.
    pub(super) fn check(&self, p: &Puzzle) -> Result<(), String> {
        self.check_cells(p, 0..81)
    }

    /// Check `cells` of a board read from a save against its puzzle (the others known to be right).
    pub(super) fn check_cells(
        &self,
        p: &Puzzle,
        cells: impl Iterator<Item = usize> + Clone,
    ) -> Result<(), String> {
        if let Some(c) = cells
            .clone()
            .find(|&c| p.givens[c] != 0 && self.values[c] != p.givens[c])
        {
            return Err(format!("the clue in {} was changed", cell_name(c)));
        }
        if let Some(c) = cells.clone().find(|&c| self.values[c] > 9) {
            return Err(format!("{} holds {}", cell_name(c), self.values[c]));
        }
        if let Some(c) = cells.clone().find(|&c| self.marks[c] > 0x1ff) {
            return Err(format!(
                "the pencil marks of {} are out of range",
                cell_name(c)
            ));
        }
        if let Some(c) = cells.clone().find(|&c| self.centre[c] > 0x1ff) {
            return Err(format!(
                "the centre marks of {} are out of range",
                cell_name(c)
            ));
        }
        Ok(())
    }
}

/// Cells whose digit repeats in their row, column or box.
pub fn conflicts(values: &[u8; 81]) -> Vec<usize> {
    (0..81)
        .filter(|&c| {
            let v = values[c];
            v != 0 && (0..81).any(|o| PEERS[c] & bit(o) != 0 && values[o] == v)
        })
        .collect()
}

/// The house two cells that see each other share, for messages ("row 1", "column 3", "box 9").
pub(super) fn shared_house(a: usize, b: usize) -> String {
    use sudoku::logic::tables::CELL_HOUSES;
    CELL_HOUSES[a]
        .iter()
        .find(|h| CELL_HOUSES[b].contains(h))
        .map_or_else(String::new, |&h| house_name(usize::from(h)))
}

/// Parse "row column value": three digits, with or without separators ("357", "3 5 7", "3,5,7", "r3c5=7",
/// "r3c5 7"). Value 0 erases. Returns the 0-based row and column and the value.
///
/// # Errors
/// A one-line reason: not three digits, a row or column 0, other letters.
pub fn parse_rcv(text: &str) -> Result<(usize, usize, u8), String> {
    let t = text.trim();
    let digits: Vec<u8> = t
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let others: String = t
        .chars()
        .filter(|c| !c.is_ascii_digit() && !c.is_whitespace() && !",;=-/".contains(*c))
        .collect::<String>()
        .to_ascii_lowercase();
    if !(others.is_empty() || others == "rc") {
        return Err(format!(
            "\"{t}\" is not \"row column value\": type three digits, e.g. 3 5 7 puts 7 in row 3, column 5"
        ));
    }
    // A '-' joins two digits (3-5-7); anywhere else it would read as a minus sign, and -1 is no row.
    let chars: Vec<char> = t.chars().collect();
    let joined = |i: usize| {
        i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())
    };
    if let Some(i) = (0..chars.len()).find(|&i| chars[i] == '-' && !joined(i)) {
        return Err(format!(
            "\"{t}\" has a minus sign at character {}: rows, columns and values are 1 to 9 (0 erases)",
            i + 1
        ));
    }
    let [r, c, v] = digits[..] else {
        return Err(format!(
            "\"{t}\" has {}; type three: row, column, value (e.g. 3 5 7; value 0 erases)",
            plural(digits.len() as u64, "digit")
        ));
    };
    if r == 0 {
        return Err("rows are numbered 1 to 9".into());
    }
    if c == 0 {
        return Err("columns are numbered 1 to 9".into());
    }
    Ok((usize::from(r - 1), usize::from(c - 1), v))
}

/// 81 cells as an 81-character string of digits, `.` for empty.
pub(super) mod digits81 {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &[u8; 81], s: S) -> Result<S::Ok, S::Error> {
        let text: String = v
            .iter()
            .map(|&d| {
                if d == 0 {
                    '.'
                } else {
                    char::from(b'0' + d.min(9))
                }
            })
            .collect();
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 81], D::Error> {
        let text = String::deserialize(d)?;
        let mut out = [0u8; 81];
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 81 {
            return Err(D::Error::custom(format!(
                "a grid has 81 cells, this one {}",
                chars.len()
            )));
        }
        for (i, ch) in chars.into_iter().enumerate() {
            out[i] = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u8 - b'0',
                _ => {
                    return Err(D::Error::custom(format!(
                        "cell {} holds '{ch}'; expected a digit or '.'",
                        i + 1
                    )));
                }
            };
        }
        Ok(out)
    }
}

/// 81 pencil-mark masks as a list of numbers.
mod marks81 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &[u16; 81], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u16; 81], D::Error> {
        let v = Vec::<u16>::deserialize(d)?;
        <[u16; 81]>::try_from(v.as_slice()).map_err(|_| {
            D::Error::custom(format!(
                "81 pencil-mark entries expected, found {}",
                v.len()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rcv_entries_parse_in_every_usual_form() {
        for t in ["357", "3 5 7", "3,5,7", "r3c5=7", "R3C5 7", " 3-5-7 "] {
            assert_eq!(parse_rcv(t), Ok((2, 4, 7)), "{t}");
        }
        assert_eq!(parse_rcv("350"), Ok((2, 4, 0)));
        assert!(parse_rcv("35").unwrap_err().contains("has 2 digits"));
        assert!(parse_rcv("3").unwrap_err().contains("has 1 digit;"));
        assert!(parse_rcv("3577").unwrap_err().contains("has 4 digits"));
        assert!(
            parse_rcv("057")
                .unwrap_err()
                .contains("rows are numbered 1 to 9")
        );
        assert!(
            parse_rcv("307")
                .unwrap_err()
                .contains("columns are numbered 1 to 9")
        );
        assert!(
            parse_rcv("x y z")
                .unwrap_err()
                .contains("is not \"row column value\"")
        );
        assert!(parse_rcv("").unwrap_err().contains("has 0 digits"));
        assert!(parse_rcv("３５７").is_err());
        for t in ["-1 2 3", "1 -2 3", "1 2 -3", "- 1 2 3", "1 2 3-"] {
            let e = parse_rcv(t).unwrap_err();
            assert!(e.contains("has a minus sign"), "{t}: {e}");
        }
    }

    #[test]
    fn houses_shared_by_two_cells() {
        assert_eq!(shared_house(0, 8), "row 1");
        assert_eq!(shared_house(0, 72), "column 1");
        assert_eq!(shared_house(0, 20), "box 1");
        assert_eq!(shared_house(80, 60), "box 9");
    }

    #[test]
    fn conflicts_are_repeated_digits_of_a_house() {
        let mut v = [0u8; 81];
        v[0] = 5;
        v[80] = 5;
        assert!(conflicts(&v).is_empty());
        v[8] = 5;
        assert_eq!(conflicts(&v), vec![0, 8, 80]);
    }
}
