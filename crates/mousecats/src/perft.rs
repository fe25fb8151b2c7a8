//! Perft: the number of move sequences of exactly `depth` plies, on any board.
//!
//! A sequence cannot continue past the end of the game, so a finished game contributes to depth 0 only.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board_position::BoardPosition;
use crate::position::Rule;

/// The number of move sequences of exactly `depth` plies from `pos` under `rule`, by plain recursion.
///
/// ```
/// use mousecats::{perft, BoardSize, Position, Rule, SizedPosition};
/// assert_eq!(perft(&Position::start(), 4, Rule::FarRow), 344);
/// let ten = SizedPosition::start(BoardSize::new(10).unwrap());
/// assert_eq!(perft(&ten, 2, Rule::FarRow), 2 * 9);
/// ```
pub fn perft<P: BoardPosition>(pos: &P, depth: u32, rule: Rule) -> u64 {
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

/// A fast hasher for the memo's keys (exact keys of positions and depths, which nobody picks to
/// collide): multiply and rotate per word, mixed once at the end.
#[derive(Default)]
struct MemoHasher(u64);

impl MemoHasher {
    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for MemoHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ h >> 31).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ h >> 29
    }
}

type Memo<K> = HashMap<(K, u32), u128, BuildHasherDefault<MemoHasher>>;

/// Perft for any depth: positions met again at the same remaining depth are counted once and reused, so
/// even the whole game tree of 8x8 is counted in a moment. Counts are exact 128-bit integers; `None` if
/// one would overflow.
pub fn perft_memo<P: BoardPosition>(pos: &P, depth: u32, rule: Rule) -> Option<u128> {
    let mut memo = Memo::default();
    perft_memo_inner(pos, depth, rule, &mut memo)
}

fn perft_memo_inner<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
    memo: &mut Memo<P::Key>,
) -> Option<u128> {
    if depth <= 4 {
        return Some(u128::from(perft(pos, depth, rule)));
    }
    if pos.mouse_has_won(rule) {
        return Some(0);
    }
    let key = (pos.exact_key(), depth);
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
pub fn perft_divide<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
) -> Option<Vec<(P::Move, u128)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut memo = Memo::default();
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
