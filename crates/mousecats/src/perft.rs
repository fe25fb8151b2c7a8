//! Perft: the number of move sequences of exactly `depth` plies.
//!
//! A sequence cannot continue past the end of the game, so a finished game contributes to depth 0 only.

use std::collections::HashMap;

use crate::position::{Move, Position, Rule};
use crate::solve::state_index;

/// The number of move sequences of exactly `depth` plies from `pos` under `rule`, by plain recursion.
///
/// ```
/// use mousecats::{perft, Position, Rule};
/// assert_eq!(perft(&Position::start(), 4, Rule::Row8), 344);
/// ```
pub fn perft(pos: &Position, depth: u32, rule: Rule) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.mouse_has_won(rule) {
        return 0;
    }
    let moves = pos.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft(&pos.make_move(m), depth - 1, rule))
        .sum()
}

/// Perft for any depth: positions met again at the same remaining depth are counted once and reused
/// (there are at most 2,013,760 positions), so even the whole game tree is counted in a moment. Counts
/// are exact 128-bit integers; `None` if one would overflow.
pub fn perft_memo(pos: &Position, depth: u32, rule: Rule) -> Option<u128> {
    let mut memo = HashMap::new();
    perft_memo_inner(pos, depth, rule, &mut memo)
}

fn perft_memo_inner(
    pos: &Position,
    depth: u32,
    rule: Rule,
    memo: &mut HashMap<(u32, u32), u128>,
) -> Option<u128> {
    if depth <= 4 {
        return Some(u128::from(perft(pos, depth, rule)));
    }
    if pos.mouse_has_won(rule) {
        return Some(0);
    }
    let key = (state_index(pos) as u32, depth);
    if let Some(&n) = memo.get(&key) {
        return Some(n);
    }
    let mut total: u128 = 0;
    for &m in pos.moves().iter() {
        let n = perft_memo_inner(&pos.make_move(m), depth - 1, rule, memo)?;
        total = total.checked_add(n)?;
    }
    memo.insert(key, total);
    Some(total)
}

/// Perft split by first move ("divide"): each legal move with the count of sequences starting with it.
/// `None` if a count would overflow.
pub fn perft_divide(pos: &Position, depth: u32, rule: Rule) -> Option<Vec<(Move, u128)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut memo = HashMap::new();
    pos.legal_moves(rule)
        .iter()
        .map(|&m| {
            Some((
                m,
                perft_memo_inner(&pos.make_move(m), depth - 1, rule, &mut memo)?,
            ))
        })
        .collect()
}
