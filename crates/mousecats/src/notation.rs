//! The position text of every board size, which the any-size [`SizedPosition`](crate::SizedPosition) and the
//! classic 8x8 [`Position`](crate::Position) both read and write: the one-line notation
//! (`size=10 mouse=E1 cats=B10,D10,F10,H10,J10 turn=mouse`, `start`) and the N-line diagrams, with errors that
//! name the line and the column.

use crate::board::Side;
use crate::error::ParseError;
use crate::size::{BoardSize, Coord};

/// The diagram of a board of `size`: `cell(square)` for each dark square.
pub(crate) fn diagram(size: BoardSize, turn: Side, cell: impl Fn(Coord) -> char) -> String {
    let n = size.n();
    let width = if n >= 10 { 2 } else { 1 };
    let mut s = String::new();
    for row in (0..n).rev() {
        let mut line = format!("{:>width$} ", row + 1);
        for file in 0..n {
            let c = Coord::pack(file, row);
            line.push(if c.is_dark() { cell(c) } else { ' ' });
            if file + 1 < n {
                line.push(' ');
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(&" ".repeat(width + 1));
    let files: Vec<String> = (0..n).map(|f| char::from(b'A' + f).to_string()).collect();
    s.push_str(&files.join(" "));
    s.push('\n');
    s.push_str(&format!("turn={turn}"));
    s
}

/// A position read from text, before it is checked.
pub(crate) struct Parsed {
    pub size: BoardSize,
    pub mouse: Coord,
    pub cats: Vec<Coord>,
    pub turn: Side,
}

/// Read a position of any size: a diagram if the text has more than one non-blank line, else the
/// one-line notation (or `start`). `hint` is the size asked for (see [`SizedPosition::parse`]).
pub(crate) fn parse_text(text: &str, hint: Option<BoardSize>) -> Result<Parsed, ParseError> {
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    if lines > 1 {
        parse_diagram(text, hint)
    } else {
        parse_notation(text, hint)
    }
}

/// Check a size the text gives against the one asked for.
fn settle_size(found: BoardSize, hint: Option<BoardSize>) -> Result<BoardSize, ParseError> {
    match hint {
        Some(expected) if expected != found => Err(ParseError::SizeMismatch { found, expected }),
        _ => Ok(found),
    }
}

pub(crate) fn parse_notation(text: &str, hint: Option<BoardSize>) -> Result<Parsed, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    if text.eq_ignore_ascii_case("start") {
        let size = hint.unwrap_or_default();
        return Ok(Parsed {
            size,
            mouse: size.default_mouse(),
            cats: size.cat_start().collect(),
            turn: Side::Mouse,
        });
    }
    // Join "cats=B8, D8" and "mouse = E1" back into single words.
    let mut words: Vec<String> = Vec::new();
    for w in text.split_whitespace() {
        let join = match words.last() {
            Some(prev) => {
                prev.ends_with(',')
                    || prev.ends_with('=')
                    || w.starts_with(',')
                    || w.starts_with('=')
            }
            None => false,
        };
        match words.last_mut() {
            Some(prev) if join => prev.push_str(w),
            _ => words.push(w.to_string()),
        }
    }
    let mut size: Option<BoardSize> = None;
    let mut mouse: Option<Coord> = None;
    let mut cats: Option<Vec<Coord>> = None;
    let mut turn: Option<Side> = None;
    for w in &words {
        let Some((key, value)) = w.split_once('=') else {
            return Err(ParseError::NotKeyValue(w.clone()));
        };
        match key.to_ascii_lowercase().as_str() {
            "size" | "board" => {
                if size.is_some() {
                    return Err(ParseError::DuplicateField("size".into()));
                }
                size = Some(value.parse()?);
            }
            "mouse" | "m" => {
                if mouse.is_some() {
                    return Err(ParseError::DuplicateField("mouse".into()));
                }
                mouse = Some(value.parse::<Coord>()?);
            }
            "cats" | "cat" | "c" => {
                if cats.is_some() {
                    return Err(ParseError::DuplicateField("cats".into()));
                }
                let mut v = Vec::new();
                for part in value.split(',').filter(|p| !p.trim().is_empty()) {
                    v.push(part.parse::<Coord>()?);
                }
                cats = Some(v);
            }
            "turn" | "side" => {
                if turn.is_some() {
                    return Err(ParseError::DuplicateField("turn".into()));
                }
                turn = Some(value.parse()?);
            }
            other => return Err(ParseError::UnknownField(other.to_string())),
        }
    }
    let size = match size {
        Some(s) => settle_size(s, hint)?,
        None => hint.unwrap_or_default(),
    };
    let mouse = mouse.ok_or(ParseError::NoMouse)?;
    let cats = cats.unwrap_or_default();
    Ok(Parsed {
        size,
        mouse,
        cats,
        turn: turn.unwrap_or(Side::Mouse),
    })
}

/// One board line of a diagram: its line number, its label if any (with its column), and its cells with
/// their 1-based columns.
struct BoardLine {
    line: usize,
    label: Option<(u32, usize)>,
    cells: Vec<(usize, char)>,
}

pub(crate) fn parse_diagram(text: &str, hint: Option<BoardSize>) -> Result<Parsed, ParseError> {
    let mut board: Vec<BoardLine> = Vec::new();
    let mut turn: Option<Side> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        if let Some(rest) = lower
            .strip_prefix("turn")
            .or_else(|| lower.strip_prefix("side"))
        {
            let v = rest.trim_start_matches([' ', '=', ':']).trim();
            turn = Some(v.parse()?);
            continue;
        }
        if lower == "mouse to move" || lower == "cats to move" {
            turn = Some(if lower.starts_with("mouse") {
                Side::Mouse
            } else {
                Side::Cats
            });
            continue;
        }
        let letters: String = t
            .split_whitespace()
            .collect::<String>()
            .to_ascii_uppercase();
        if letters.len() >= 4 && "ABCDEFGHIJKLMNOP".starts_with(&letters) {
            // The line of file letters.
            continue;
        }
        let mut cells: Vec<(usize, char)> = raw
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(k, c)| (k + 1, c))
            .collect();
        // A leading row label: one or two digits followed by a space (or nothing).
        let digits = cells.iter().take_while(|(_, c)| c.is_ascii_digit()).count();
        let mut label = None;
        if digits > 0 {
            let first_col = cells[0].0;
            let contiguous = cells[..digits]
                .iter()
                .enumerate()
                .all(|(j, &(col, _))| col == first_col + j);
            let after = cells[digits - 1].0;
            let next_is_space = raw.chars().nth(after).is_none_or(char::is_whitespace);
            if contiguous && next_is_space {
                let text: String = cells[..digits].iter().map(|&(_, c)| c).collect();
                let value = if digits <= 2 {
                    text.parse::<u32>().unwrap_or(0)
                } else {
                    0
                };
                label = Some((value, first_col));
                cells.drain(..digits);
            }
        }
        board.push(BoardLine { line, label, cells });
    }
    if board.is_empty() {
        return Err(ParseError::Empty);
    }
    // The size: asked for, else the first row's label, else the number of board lines.
    let size = match hint {
        Some(s) => s,
        None => {
            let guess = board[0].label.map_or(board.len() as u32, |(v, _)| v);
            match BoardSize::new(guess) {
                Ok(s) => s,
                Err(_) => {
                    BoardSize::new(board.len() as u32).map_err(|_| ParseError::DiagramRows {
                        found: board.len(),
                        size: BoardSize::EIGHT,
                    })?
                }
            }
        }
    };
    let n = usize::from(size.n());
    let half = usize::from(size.half());
    let mut mouse: Option<Coord> = None;
    let mut cats: Vec<Coord> = Vec::new();
    for (k, b) in board.iter().enumerate() {
        if k == n {
            return Err(ParseError::Diagram {
                line: b.line,
                column: 1,
                message: format!("more than {n} board lines"),
            });
        }
        let row = (n - 1 - k) as u8;
        if let Some((v, column)) = b.label
            && v != u32::from(row) + 1
        {
            return Err(ParseError::Diagram {
                line: b.line,
                column,
                message: format!("row label {v} where row {} was expected", row + 1),
            });
        }
        let squares: Vec<Coord> = if b.cells.len() == n {
            (0..n as u8).map(|f| Coord::pack(f, row)).collect()
        } else if b.cells.len() == half {
            (0..half as u8)
                .map(|j| Coord::pack(2 * j + row % 2, row))
                .collect()
        } else {
            let found = b.cells.len();
            let column = b
                .cells
                .get(if found > n {
                    n
                } else {
                    found.saturating_sub(1)
                })
                .map_or(1, |c| c.0);
            return Err(ParseError::Diagram {
                line: b.line,
                column,
                message: format!(
                    "expected {n} cells (or the row's {half} dark squares), found {found}"
                ),
            });
        };
        for (&(column, c), &sq) in b.cells.iter().zip(&squares) {
            let piece = match c {
                'M' | 'm' => Some(Side::Mouse),
                'C' | 'c' => Some(Side::Cats),
                '.' | '-' | '_' => None,
                other => {
                    return Err(ParseError::Diagram {
                        line: b.line,
                        column,
                        message: format!(
                            "unexpected '{other}' on {sq} (use M, C or . for an empty square)"
                        ),
                    });
                }
            };
            let Some(piece) = piece else { continue };
            if !sq.is_dark() {
                return Err(ParseError::Diagram {
                    line: b.line,
                    column,
                    message: format!("{sq} is a light square; pieces stand only on dark squares"),
                });
            }
            match piece {
                Side::Mouse => {
                    if let Some(m) = mouse {
                        return Err(ParseError::TwoMice(m, sq));
                    }
                    mouse = Some(sq);
                }
                Side::Cats => cats.push(sq),
            }
        }
    }
    if board.len() != n {
        return Err(ParseError::DiagramRows {
            found: board.len(),
            size,
        });
    }
    let mouse = mouse.ok_or(ParseError::NoMouse)?;
    Ok(Parsed {
        size,
        mouse,
        cats,
        turn: turn.unwrap_or(Side::Mouse),
    })
}
