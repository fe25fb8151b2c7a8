//! Jumps typed as text.

use peg::{Board, Lattice, Move, NameError};

/// Parse a typed jump: `d2-d4`, `d2d4`, `d2 d4` (on the triangle `4-1` or `4 1`). Errors are short enough for
/// a prompt line.
///
/// # Errors
/// A one-line reason: not two holes, a hole not on the board, two holes that are not a jump apart.
pub fn parse_jump(board: &Board, text: &str) -> Result<Move, String> {
    let t = text.trim();
    let not_a_jump = || {
        format!(
            "\"{t}\" is not a jump: type two holes, e.g. {}",
            example(board)
        )
    };
    let joined = if t.contains('-') {
        t.to_string()
    } else {
        let words: Vec<&str> = t.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        match words.as_slice() {
            [a, b] => format!("{a}-{b}"),
            [one] if board.lattice() == Lattice::Square => {
                // d2d4: the second hole starts at the first letter after a digit.
                let chars: Vec<char> = one.chars().collect();
                let split = (1..chars.len())
                    .find(|&i| chars[i].is_ascii_alphabetic() && chars[i - 1].is_ascii_digit());
                match split {
                    Some(i) => format!(
                        "{}-{}",
                        chars[..i].iter().collect::<String>(),
                        chars[i..].iter().collect::<String>()
                    ),
                    None => return Err(not_a_jump()),
                }
            }
            _ => return Err(not_a_jump()),
        }
    };
    board.parse_move(&joined).map_err(|e| match e {
        NameError::UnknownHole { name, board, .. } => {
            format!("there is no hole \"{}\" on the {board} board", name.trim())
        }
        NameError::MalformedMove { .. } => not_a_jump(),
        NameError::NotAJump { from, to, .. } => {
            format!("{from}-{to} is not a jump: {from} and {to} are not two holes apart in a line")
        }
    })
}

/// An example of a typed jump on `board`.
fn example(board: &Board) -> String {
    match board.lattice() {
        Lattice::Square => {
            let m = board
                .legal_moves(board.default_start())
                .first()
                .copied()
                .or_else(|| board.moves().first().copied());
            match m {
                Some(m) => {
                    let (a, b) = (board.hole_name(m.from()), board.hole_name(m.to()));
                    format!("{a}-{b} or {a}{b}")
                }
                None => "d2-d4".into(),
            }
        }
        Lattice::Triangular => "4-1 or 4 1".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_jumps_in_every_form() {
        let b = Board::english();
        let want = b.parse_move("d2-d4").unwrap();
        for t in ["d2-d4", "d2d4", "D2D4", " d2 d4 ", "d2,d4", "d2 - d4"] {
            assert_eq!(parse_jump(&b, t), Ok(want), "{t}");
        }
        let e = parse_jump(&b, "d2").unwrap_err();
        assert!(e.contains("\"d2\" is not a jump"), "{e}");
        let e = parse_jump(&b, "d2-d5").unwrap_err();
        assert!(e.contains("not two holes apart"), "{e}");
        let e = parse_jump(&b, "a1-a3").unwrap_err();
        assert!(e.contains("there is no hole \"a1\""), "{e}");
        let t = Board::builtin("triangle").unwrap();
        assert_eq!(parse_jump(&t, "4 1"), Ok(t.parse_move("4-1").unwrap()));
        assert!(parse_jump(&t, "41").is_err());
    }
}
