//! The options of a peg game: board, start and finish, as a menu offers them.

use peg::{Board, Finish, Problem};

use super::{BOARDS, PegError};
use crate::options::{Choice, value_of};

/// The options of a peg game, with their default values, for a menu. The start and finish values of a board's
/// holes are marked ✘ where the position class rules out a one-peg finish.
pub fn choices() -> Vec<Choice> {
    let mut c = vec![
        Choice::new(
            "Board",
            BOARDS.iter().map(ToString::to_string).collect(),
            0,
            "english: the 33-hole cross; french: the European 37-hole board; triangle: 15 holes, six jump \
             directions; diamond: 41 holes; wiegleb: Wiegleb's 45-hole board.",
        ),
        Choice::new(
            "Start",
            Vec::new(),
            0,
            "The hole left empty at the start; std is the board's standard vacancy (the centre, or the \
             triangle's top). ✘: no game from there can end with one peg (its position class), as on the \
             French board and the diamond from the centre.",
        ),
        Choice::new(
            "Finish",
            Vec::new(),
            0,
            "Where the last peg must stand: any hole, or one chosen hole. ✘: the chosen start can never end \
             with one peg on that hole (position class).",
        ),
    ];
    refresh(&mut c);
    c
}

/// The board named by the first word of an option's value.
fn board_of(value: &str) -> Board {
    value
        .split_whitespace()
        .next()
        .and_then(|n| Board::builtin(n).ok())
        .unwrap_or_else(Board::english)
}

/// Rebuild the start and finish values for the board chosen, keeping the holes chosen where the board has them.
pub fn refresh(choices: &mut [Choice]) {
    let [board_c, start_c, finish_c] = choices else {
        return;
    };
    let board = board_of(board_c.value());
    let first_word = |c: &Choice| c.value().split_whitespace().next().map(str::to_string);
    // A standard start stays the standard start of the new board; another hole is kept where the board has it.
    let old_start = first_word(start_c).filter(|_| !start_c.value().contains("(std)"));
    let old_finish = first_word(finish_c);
    let std = board.default_vacancy();
    let mut starts = Vec::new();
    for h in 0..board.holes() {
        let mut v = board.hole_name(h).to_string();
        if h == std {
            v.push_str(" (std)");
        }
        if !Finish::Anywhere.allows(&board, board.full().without_peg(h)) {
            v.push_str(" ✘");
        }
        starts.push(v);
    }
    let start_sel = old_start
        .and_then(|n| board.parse_hole(&n).ok())
        .unwrap_or(std);
    start_c.values = starts;
    start_c.selected = start_sel;
    let start = board.full().without_peg(start_sel);
    let mut finishes = vec!["any hole".to_string()];
    for h in 0..board.holes() {
        let mut v = board.hole_name(h).to_string();
        if !Finish::Hole(h).allows(&board, start) {
            v.push_str(" ✘");
        }
        finishes.push(v);
    }
    let finish_sel = old_finish
        .filter(|n| n != "any")
        .and_then(|n| board.parse_hole(&n).ok())
        .map_or(0, |h| h + 1);
    finish_c.values = finishes;
    finish_c.selected = finish_sel;
}

/// The problem the options `choices` describe (as returned by [`choices`], possibly changed).
///
/// # Errors
/// [`PegError::Setup`] naming an unknown board or hole.
pub fn problem_from_choices(choices: &[Choice]) -> Result<Problem, PegError> {
    let get = |label: &str| {
        value_of(choices, label).and_then(|v| v.split_whitespace().next().map(str::to_string))
    };
    let setup = |e: String| PegError::Setup(e);
    let board_name = get("Board").unwrap_or_else(|| "english".into());
    let board = Board::builtin(&board_name).map_err(|e| setup(e.to_string()))?;
    let vacancies: Vec<String> = get("Start").into_iter().collect();
    let start = Problem::start_of(&board, None, &vacancies).map_err(|e| setup(e.to_string()))?;
    let finish = match get("Finish").filter(|f| f != "any") {
        Some(h) => Finish::Hole(board.parse_hole(&h).map_err(|e| setup(e.to_string()))?),
        None => Finish::Anywhere,
    };
    Problem::new(board, start, finish).map_err(|e| setup(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_follow_the_board() {
        let mut c = choices();
        assert_eq!(c[1].value(), "d4 (std)");
        assert_eq!(c[2].value(), "any hole");
        // French: the centre start is marked impossible, and so are finishes of another class.
        c[0].selected = 1;
        refresh(&mut c);
        assert_eq!(c[1].value(), "d4 (std) ✘");
        // Wiegleb: the standard start is its own centre, e5.
        c[0].selected = 4;
        refresh(&mut c);
        assert_eq!(c[1].value(), "e5 (std)");
        // Another start is kept where the new board has that hole.
        c[1].selected = Board::builtin("wiegleb").unwrap().parse_hole("d4").unwrap();
        c[0].selected = 0;
        refresh(&mut c);
        assert_eq!(c[1].value(), "d4 (std)");
        c[1].selected = Board::english().parse_hole("c1").unwrap();
        c[0].selected = 1;
        refresh(&mut c);
        assert_eq!(c[1].value(), "c1");
        // Triangle: holes 1..15, the top by default.
        c[0].selected = 2;
        refresh(&mut c);
        assert_eq!(c[1].value(), "1 (std)");
        assert_eq!(c[1].values.len(), 15);
        assert_eq!(c[2].values.len(), 16);
        // A finish of another class than the start's is marked.
        let b = Board::builtin("triangle").unwrap();
        for h in 0..15 {
            let ok = Finish::Hole(h).allows(&b, b.default_start());
            assert_eq!(!ok, c[2].values[h + 1].ends_with('✘'));
        }
        assert_eq!(problem_from_choices(&c).unwrap().start(), b.default_start());
    }
}
