//! Perft: the number of move sequences of exactly `depth` plies, on any board.
//!
//! A sequence cannot continue past the end of the game, so a finished game contributes to depth 0 only.

use std::hash::{Hash, Hasher};
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

/// Bounds on a memoised perft: the memory its table may take, and a flag that stops it.
#[derive(Debug, Clone, Copy)]
pub struct PerftOptions<'a> {
    /// The most memory the table of counted positions may take, in bytes. When it is full, new counts
    /// overwrite old ones (those of smaller subtrees first): slower, the same answer.
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

/// One remembered count: a position, the plies left, and the number of sequences. The count is kept as two
/// words so that a slot is aligned to 8 bytes, not 16.
#[derive(Clone, Copy, Default)]
struct Slot<K> {
    key: K,
    /// Plies left; 0 marks an empty slot (counts are only remembered for more than four plies).
    depth: u32,
    lo: u64,
    hi: u64,
}

/// The table of counted positions: two-slot buckets, a table that grows (doubling while it can) up to its
/// bound and then overwrites. The first slot of a bucket keeps the entry with more plies left (a larger
/// subtree, more work saved), the second always takes the newest; so a full table degrades gently instead
/// of falling back to plain recursion below everything it could not keep.
struct Memo<'a, K> {
    slots: Vec<Slot<K>>,
    /// Entries stored since the last growth.
    filled: usize,
    /// Slots that fit in `max_memory`: while the table grows, the old table and the new one together.
    budget: usize,
    cancel: Option<&'a AtomicBool>,
}

/// Slots in a new table (it grows from there).
const FIRST_SLOTS: usize = 1 << 12;

impl<'a, K: Copy + Default + Eq + Hash> Memo<'a, K> {
    fn new(opts: &PerftOptions<'a>) -> Self {
        let budget = opts.max_memory / std::mem::size_of::<Slot<K>>().max(1);
        let first = FIRST_SLOTS.min(budget) & !1;
        Memo {
            slots: vec![Slot::default(); first],
            filled: 0,
            budget,
            cancel: opts.cancel,
        }
    }

    /// The first slot of `key`'s bucket.
    fn bucket(&self, key: &(K, u32)) -> usize {
        let mut h = MemoHasher::default();
        key.hash(&mut h);
        let buckets = self.slots.len() / 2;
        // Multiply-shift onto 0..buckets (any number of buckets, not only powers of two).
        (((u128::from(h.finish()) * buckets as u128) >> 64) as usize) * 2
    }

    fn get(&self, key: &(K, u32)) -> Option<u128> {
        if self.slots.len() < 2 {
            return None;
        }
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.depth == key.1 && s.key == key.0)
            .map(|s| u128::from(s.lo) | (u128::from(s.hi) << 64))
    }

    fn insert(&mut self, key: (K, u32), count: u128) {
        if self.slots.len() < 2 {
            return;
        }
        if self.filled * 4 >= self.slots.len() * 3 {
            self.grow();
        }
        let slot = Slot {
            key: key.0,
            depth: key.1,
            lo: count as u64,
            hi: (count >> 64) as u64,
        };
        self.place(slot);
    }

    fn place(&mut self, slot: Slot<K>) {
        let b = self.bucket(&(slot.key, slot.depth));
        let [deep, recent] = &mut self.slots[b..b + 2] else {
            return;
        };
        if deep.depth == 0 {
            self.filled += 1;
            *deep = slot;
        } else if slot.depth >= deep.depth {
            if recent.depth == 0 {
                self.filled += 1;
            }
            *recent = std::mem::replace(deep, slot);
        } else {
            if recent.depth == 0 {
                self.filled += 1;
            }
            *recent = slot;
        }
    }

    /// Double the table, or as far as the budget allows with the old one alive beside the new; a table
    /// that cannot grow by more than a quarter stays as it is and overwrites.
    fn grow(&mut self) {
        let len = self.slots.len();
        let size = (len * 2).min(self.budget.saturating_sub(len)) & !1;
        if size * 4 < len * 5 {
            return;
        }
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        self.filled = 0;
        for slot in old.into_iter().filter(|s| s.depth != 0) {
            self.place(slot);
        }
    }
}

/// Perft for any depth: positions met again at the same remaining depth are counted once and reused, so
/// even the whole game tree of 8x8 is counted in a moment. Counts are exact 128-bit integers; `None` if
/// one would overflow. The table is not bounded: [`perft_with`] bounds it and can be stopped.
pub fn perft_memo<P: BoardPosition>(pos: &P, depth: u32, rule: Rule) -> Option<u128> {
    perft_with(pos, depth, rule, &PerftOptions::default()).ok()
}

/// [`perft_memo`] within `opts`: a table of at most `opts.max_memory` bytes (once full, it keeps the larger
/// subtrees and the latest counts; positions it lost are counted again), stopped when `opts.cancel` is set.
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
    if let Some(n) = memo.get(&key) {
        return Ok(n);
    }
    let mut total: u128 = 0;
    for &m in pos.moves().iter() {
        let n = perft_memo_inner(&pos.make_move(m), depth - 1, rule, memo)?;
        total = total.checked_add(n).ok_or(PerftError::Overflow)?;
    }
    memo.insert(key, total);
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
