//! What the exact solution advises, and how a game was won, in words shared by every front end.

use mousecats::{BoardPosition, Rule, Side, Solution, Value};

/// "s" after a side's name in "the mouse wins", none in "the cats win".
pub(super) fn plural_s(side: Side) -> &'static str {
    if side == Side::Mouse { "s" } else { "" }
}

/// How a finished game was won, in words ("the mouse reached row 8", "the mouse is trapped"): the one
/// classification of the end of a game for the terminal, the web page and `boardlab mouse play`, on every board
/// size. `winner` is the game's winner under `rule` in `pos`.
pub fn how_won<P: BoardPosition>(pos: &P, rule: Rule, winner: Side) -> String {
    let far_row = pos.board_size().n();
    match winner {
        Side::Mouse if rule == Rule::Region && pos.mouse_has_won(Rule::Region) => {
            "the mouse got where no cat can reach".into()
        }
        Side::Mouse if pos.mouse_square().row() + 1 == far_row => {
            format!("the mouse reached row {far_row}")
        }
        Side::Mouse if rule == Rule::Escape && pos.mouse_has_won(Rule::Escape) => {
            "the mouse got past every cat".into()
        }
        Side::Mouse => "the cats cannot move".into(),
        Side::Cats => "the mouse is trapped".into(),
    }
}

/// What the exact solution advises in a position: a best move, every move that keeps the value, and the
/// value for the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advice<M> {
    /// The move a hint names (the first of `keeping`).
    pub best: M,
    /// Every move that keeps the value: for the winner the fastest wins, for the loser the longest defences.
    pub keeping: Vec<M>,
    /// The position's value for the side to move.
    pub value: Value,
}

/// The exact solution's advice in `pos` (any board size the solution is for), or `None` when the game is
/// over: the one hint of the terminal, the web page and `boardlab mouse play`.
///
/// # Panics
/// If `pos` is on another board size than `sol` (as [`Solution::value`]).
pub fn advice<P: BoardPosition>(sol: &Solution, pos: &P) -> Option<Advice<P::Move>> {
    let keeping = sol.value_keeping_moves(pos);
    let best = *keeping.first()?;
    Some(Advice {
        best,
        keeping,
        value: sol.value(pos),
    })
}
