//! Perft: the number of move sequences of exactly `depth` plies, on any board.
//!
//! A sequence cannot continue past the end of the game, so a finished game contributes to depth 0 only.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

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

type Map<K> = HashMap<(K, u32), u128, BuildHasherDefault<MemoHasher>>;

/// Bounds on a memoised perft: the memory its table may take, and a flag that stops it.
#[derive(Debug, Clone, Copy)]
pub struct PerftOptions<'a> {
    /// The most memory the table of counted positions may take, in bytes. When it is full the count goes on
    /// without remembering more positions: slower, the same answer.
    pub max_memory: usize,
    /// Set (by another thread) to stop the count with [`PerftError::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for PerftOptions<'_> {
    /// No bound and no flag.
    fn default() -> Self {
        PerftOptions {
            max_memory: usize::MAX,
            cancel: None,
        }
    }
}

/// Why a memoised perft gave no count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    /// A count does not fit in 128 bits.
    #[error("the count does not fit in 128 bits")]
    Overflow,
    /// [`PerftOptions::cancel`] was set.
    #[error("cancelled")]
    Cancelled,
}

/// The table of counted positions, with its bound and the stop flag.
struct Memo<'a, K> {
    map: Map<K>,
    /// Entries kept at most, so that the table (and its growth, when the old and the new table live side by
    /// side) stays within [`PerftOptions::max_memory`].
    max_entries: usize,
    cancel: Option<&'a AtomicBool>,
}

impl<'a, K> Memo<'a, K> {
    fn new(opts: &PerftOptions<'a>) -> Self {
        // A table of `b` buckets holds 7/8 b entries and takes (entry + 1 control byte) x b bytes; growing to
        // hold one more entry than a full table allocates the doubled table while the old one lives: 3 x the
        // old one's size at the peak. Hence at most `max_memory` / (3 x 8/7 x (entry + 1)) entries.
        let per_entry = (std::mem::size_of::<((K, u32), u128)>() + 1) * 24 / 7;
        Memo {
            map: Map::default(),
            max_entries: opts.max_memory / per_entry.max(1),
            cancel: opts.cancel,
        }
    }
}

/// Perft for any depth: positions met again at the same remaining depth are counted once and reused, so
/// even the whole game tree of 8x8 is counted in a moment. Counts are exact 128-bit integers; `None` if
/// one would overflow. The table is not bounded: [`perft_with`] bounds it and can be stopped.
pub fn perft_memo<P: BoardPosition>(pos: &P, depth: u32, rule: Rule) -> Option<u128> {
    perft_with(pos, depth, rule, &PerftOptions::default()).ok()
}

/// [`perft_memo`] within `opts`: a table of at most `opts.max_memory` bytes (past it, positions are counted
/// again each time they are met), stopped when `opts.cancel` is set.
///
/// ```
/// use mousecats::perft::{perft_memo, perft_with, PerftOptions};
/// use mousecats::{Position, Rule};
/// let tiny = PerftOptions { max_memory: 4096, cancel: None };
/// assert_eq!(perft_with(&Position::start(), 12, Rule::FarRow, &tiny).ok(),
///            perft_memo(&Position::start(), 12, Rule::FarRow));
/// ```
///
/// # Errors
/// [`PerftError::Overflow`] when a count does not fit in 128 bits, [`PerftError::Cancelled`] when stopped.
pub fn perft_with<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
    opts: &PerftOptions<'_>,
) -> Result<u128, PerftError> {
    let mut memo = Memo::new(opts);
    perft_memo_inner(pos, depth, rule, &mut memo)
}

fn perft_memo_inner<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
    memo: &mut Memo<'_, P::Key>,
) -> Result<u128, PerftError> {
    if depth <= 4 {
        return Ok(u128::from(perft(pos, depth, rule)));
    }
    if memo.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Err(PerftError::Cancelled);
    }
    if pos.mouse_has_won(rule) {
        return Ok(0);
    }
    let key = (pos.exact_key(), depth);
    if let Some(&n) = memo.map.get(&key) {
        return Ok(n);
    }
    let mut total: u128 = 0;
    for &m in pos.moves().iter() {
        let n = perft_memo_inner(&pos.make_move(m), depth - 1, rule, memo)?;
        total = total.checked_add(n).ok_or(PerftError::Overflow)?;
    }
    if memo.map.len() < memo.max_entries {
        memo.map.insert(key, total);
    }
    Ok(total)
}

/// Perft split by first move ("divide"): each legal move with the count of sequences starting with it.
/// `None` if a count would overflow.
pub fn perft_divide<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
) -> Option<Vec<(P::Move, u128)>> {
    perft_divide_with(pos, depth, rule, &PerftOptions::default()).ok()
}

/// [`perft_divide`] within `opts` (see [`perft_with`]).
///
/// # Errors
/// [`PerftError::Overflow`] when a count does not fit in 128 bits, [`PerftError::Cancelled`] when stopped.
pub fn perft_divide_with<P: BoardPosition>(
    pos: &P,
    depth: u32,
    rule: Rule,
    opts: &PerftOptions<'_>,
) -> Result<Vec<(P::Move, u128)>, PerftError> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut memo = Memo::new(opts);
    pos.legal_moves(rule)
        .iter()
        .map(|&m| {
            Ok((
                m,
                perft_memo_inner(&pos.make_move(m), depth - 1, rule, &mut memo)?,
            ))
        })
        .collect()
}
