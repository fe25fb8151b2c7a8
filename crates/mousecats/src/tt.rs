//! Transposition tables: best move, score, depth and bound of searched positions, one table per side to
//! move, indexed by the low bits of the Zobrist hash and checked with the lock.
//!
//! With `index_bits` = 8 and `lock_bits` = 8 this is the C64 program's set-up: 256 entries per side and an
//! 8-bit lock. The tables count what happens to them ([`TableStats`]): probes, hits, empty slots, lock
//! mismatches (a different position in the slot, detected), stores and overwrites of a different position
//! (collisions). In verify mode each entry also keeps the exact position, so the tables can count false
//! hits: a different position whose lock matched, which the engine would then use as if it were the same.

use std::marker::PhantomData;

use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::error::SettingError;
use crate::position::{Move, Position};

/// Settings of the transposition tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableConfig {
    /// Each table has 2^`index_bits` entries; 8 to 28.
    pub index_bits: u8,
    /// How many bits of the 32-bit lock are stored and checked; 0 (no check) to 32.
    pub lock_bits: u8,
    /// Keep the exact position beside each entry and count false hits (costs memory and time).
    pub verify: bool,
}

impl TableConfig {
    /// The C64 set-up: 256 entries per side, an 8-bit lock.
    pub const C64: TableConfig = TableConfig {
        index_bits: 8,
        lock_bits: 8,
        verify: false,
    };
    /// Smallest `index_bits`.
    pub const MIN_INDEX_BITS: u8 = 8;
    /// Largest `index_bits`.
    pub const MAX_INDEX_BITS: u8 = 28;
    /// Largest `lock_bits`.
    pub const MAX_LOCK_BITS: u8 = 32;

    /// Check the ranges.
    pub fn validate(&self) -> Result<(), SettingError> {
        if !(Self::MIN_INDEX_BITS..=Self::MAX_INDEX_BITS).contains(&self.index_bits) {
            return Err(SettingError::OutOfRange {
                name: "table index bits",
                min: Self::MIN_INDEX_BITS.into(),
                max: Self::MAX_INDEX_BITS.into(),
                value: self.index_bits.into(),
            });
        }
        if self.lock_bits > Self::MAX_LOCK_BITS {
            return Err(SettingError::OutOfRange {
                name: "lock bits",
                min: 0,
                max: Self::MAX_LOCK_BITS.into(),
                value: self.lock_bits.into(),
            });
        }
        Ok(())
    }

    /// Bytes the two tables will take for 8x8 positions.
    pub fn memory_bytes(&self) -> usize {
        self.memory_bytes_for::<Position>()
    }

    /// Bytes the two tables will take for positions of type `P` (verify mode keeps `P`'s exact key).
    pub fn memory_bytes_for<P: BoardPosition>(&self) -> usize {
        let per = std::mem::size_of::<Slot>()
            + if self.verify {
                std::mem::size_of::<P::Key>()
            } else {
                0
            };
        2 * (1usize << self.index_bits) * per
    }
}

impl Default for TableConfig {
    /// 2^18 entries per side (4 MiB for both), a full 32-bit lock.
    fn default() -> TableConfig {
        TableConfig {
            index_bits: 18,
            lock_bits: 32,
            verify: false,
        }
    }
}

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (the search failed high).
    Lower,
    /// At most this score (the search failed low).
    Upper,
}

/// One table entry as seen from outside.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry<M = Move> {
    /// The best move found.
    pub best: Option<M>,
    /// The score, from the side to move's point of view (win scores relative to this position).
    pub score: i16,
    /// The depth searched below this position (at most 127).
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
}

/// Counters of one table or both.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TableStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that found an entry with a matching lock (used by the search).
    pub hits: u64,
    /// Lookups that found the slot empty.
    pub empty: u64,
    /// Lookups that found another position's entry and saw it by its lock: collisions detected.
    pub lock_mismatches: u64,
    /// Hits on an entry of a different position that the lock did not catch (verify mode only).
    pub false_hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Stores that overwrote a different position's entry: collisions. Told apart by the lock, or by the
    /// exact position in verify mode.
    pub collisions: u64,
}

impl TableStats {
    /// The counters of `self` minus those of `earlier`.
    pub fn since(&self, earlier: &TableStats) -> TableStats {
        TableStats {
            probes: self.probes - earlier.probes,
            hits: self.hits - earlier.hits,
            empty: self.empty - earlier.empty,
            lock_mismatches: self.lock_mismatches - earlier.lock_mismatches,
            false_hits: self.false_hits - earlier.false_hits,
            stores: self.stores - earlier.stores,
            collisions: self.collisions - earlier.collisions,
        }
    }

    /// Both sets of counters added.
    pub fn plus(&self, other: &TableStats) -> TableStats {
        TableStats {
            probes: self.probes + other.probes,
            hits: self.hits + other.hits,
            empty: self.empty + other.empty,
            lock_mismatches: self.lock_mismatches + other.lock_mismatches,
            false_hits: self.false_hits + other.false_hits,
            stores: self.stores + other.stores,
            collisions: self.collisions + other.collisions,
        }
    }
}

/// The packed entry, 8 bytes: lock (bits 0-31), score (32-47), depth (48-54), bound + 1 (55-56; 0 =
/// empty), best move as its index in the position's moves + 1 (57-61; 0 = none; up to 16 moves).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Slot(u64);

impl Slot {
    #[inline]
    fn pack(lock: u32, score: i16, depth: u8, bound: Bound, best: Option<u8>) -> Slot {
        let b = match bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let m = best.map_or(0, |i| u64::from(i & 15) + 1);
        Slot(
            u64::from(lock)
                | u64::from(score as u16) << 32
                | u64::from(depth & 0x7F) << 48
                | b << 55
                | m << 57,
        )
    }
    #[inline]
    fn used(self) -> bool {
        self.0 >> 55 & 3 != 0
    }
    #[inline]
    fn lock(self) -> u32 {
        self.0 as u32
    }
    #[inline]
    fn raw(self) -> RawEntry {
        RawEntry {
            best: match (self.0 >> 57 & 31) as u8 {
                0 => None,
                i => Some(i - 1),
            },
            score: (self.0 >> 32) as u16 as i16,
            depth: (self.0 >> 48 & 0x7F) as u8,
            bound: match self.0 >> 55 & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// An entry as the search uses it: the best move as an index into the position's moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct RawEntry {
    pub best: Option<u8>,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
}

/// One table (one side to move).
#[derive(Clone)]
struct Table<K> {
    slots: Vec<Slot>,
    /// The exact key of each entry's position (verify mode only).
    exact: Vec<K>,
    stats: TableStats,
}

impl<K: Copy + Default> Table<K> {
    fn new(config: &TableConfig) -> Table<K> {
        let n = 1usize << config.index_bits;
        Table {
            slots: vec![Slot::default(); n],
            exact: if config.verify {
                vec![K::default(); n]
            } else {
                Vec::new()
            },
            stats: TableStats::default(),
        }
    }
}

/// The two transposition tables (mouse to move, cats to move) with their counters, for positions of type
/// `P` (the classic 8x8 [`Position`] by default).
///
/// ```
/// use mousecats::{Position, tt::{Bound, TableConfig, TranspositionTables}};
/// let mut tables = TranspositionTables::new(TableConfig::C64).unwrap();
/// let p = Position::start();
/// assert!(tables.probe(&p).is_none());
/// tables.store(&p, p.moves().first().copied(), 12, 3, Bound::Exact);
/// assert_eq!(tables.probe(&p).unwrap().score, 12);
/// assert_eq!(tables.stats().hits, 1);
/// ```
#[derive(Clone)]
pub struct TranspositionTables<P: BoardPosition = Position> {
    config: TableConfig,
    mask: u64,
    lock_mask: u32,
    mouse: Table<P::Key>,
    cats: Table<P::Key>,
    _pos: PhantomData<fn(P)>,
}

impl<P: BoardPosition> std::fmt::Debug for TranspositionTables<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTables")
            .field("config", &self.config)
            .field("stats", &self.stats())
            .finish()
    }
}

impl<P: BoardPosition> TranspositionTables<P> {
    /// Empty tables with `config` (checked).
    ///
    /// # Errors
    /// A [`SettingError`] if `config` is out of range.
    pub fn new(config: TableConfig) -> Result<TranspositionTables<P>, SettingError> {
        config.validate()?;
        Ok(TranspositionTables::with_checked(config))
    }

    /// Empty tables with `config`, whose ranges were validated.
    pub(crate) fn with_checked(config: TableConfig) -> TranspositionTables<P> {
        TranspositionTables {
            config,
            mask: (1u64 << config.index_bits) - 1,
            lock_mask: if config.lock_bits == 0 {
                0
            } else {
                u32::MAX >> (32 - config.lock_bits)
            },
            mouse: Table::new(&config),
            cats: Table::new(&config),
            _pos: PhantomData,
        }
    }

    /// The settings.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// Bytes held by both tables.
    pub fn memory_bytes(&self) -> usize {
        self.config.memory_bytes_for::<P>()
    }

    #[inline]
    fn table(&mut self, side: Side) -> &mut Table<P::Key> {
        match side {
            Side::Mouse => &mut self.mouse,
            Side::Cats => &mut self.cats,
        }
    }

    /// Look `pos` up. A hit is an entry whose stored lock bits match; in verify mode a hit on a different
    /// position is counted as a false hit but still returned, exactly as without verify mode.
    pub fn probe(&mut self, pos: &P) -> Option<Entry<P::Move>> {
        let raw = self.probe_raw(pos)?;
        let moves = pos.moves();
        Some(Entry {
            best: raw.best.and_then(|i| moves.get(usize::from(i)).copied()),
            score: raw.score,
            depth: raw.depth,
            bound: raw.bound,
        })
    }

    /// Store an entry for `pos`, replacing whatever the slot held. `best` is kept only if it is one of
    /// `pos`'s moves; `depth` is capped at 127.
    pub fn store(&mut self, pos: &P, best: Option<P::Move>, score: i16, depth: u8, bound: Bound) {
        let index = best.and_then(|b| pos.moves().iter().position(|&m| m == b));
        self.store_raw(pos, index.map(|i| i as u8), score, depth.min(127), bound);
    }

    #[inline]
    pub(crate) fn probe_raw(&mut self, pos: &P) -> Option<RawEntry> {
        let i = (pos.zobrist_hash() & self.mask) as usize;
        let lock = pos.zobrist_lock() & self.lock_mask;
        let verify = self.config.verify;
        let t = self.table(pos.turn());
        t.stats.probes += 1;
        let s = t.slots[i];
        if !s.used() {
            t.stats.empty += 1;
            return None;
        }
        if s.lock() != lock {
            t.stats.lock_mismatches += 1;
            return None;
        }
        t.stats.hits += 1;
        if verify && t.exact[i] != pos.exact_key() {
            t.stats.false_hits += 1;
        }
        Some(s.raw())
    }

    #[inline]
    pub(crate) fn store_raw(
        &mut self,
        pos: &P,
        best: Option<u8>,
        score: i16,
        depth: u8,
        bound: Bound,
    ) {
        let i = (pos.zobrist_hash() & self.mask) as usize;
        let lock = pos.zobrist_lock() & self.lock_mask;
        let verify = self.config.verify;
        let t = self.table(pos.turn());
        t.stats.stores += 1;
        let old = t.slots[i];
        if old.used() {
            let different = if verify {
                t.exact[i] != pos.exact_key()
            } else {
                old.lock() != lock
            };
            if different {
                t.stats.collisions += 1;
            }
        }
        t.slots[i] = Slot::pack(lock, score, depth, bound, best);
        if verify {
            t.exact[i] = pos.exact_key();
        }
    }

    /// Ask the processor to fetch the slot of the position with `hash` and `side` to move.
    #[inline]
    pub(crate) fn prefetch(&self, hash: u64, side: Side) {
        let t = match side {
            Side::Mouse => &self.mouse,
            Side::Cats => &self.cats,
        };
        let i = (hash & self.mask) as usize;
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = t.slots.get(i) {
            // SAFETY: a prefetch is only a hint; it never faults and has no effect on memory, and SSE is
            // part of every x86-64 processor.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    (slot as *const Slot).cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (t, i);
    }

    /// The counters of both tables added.
    pub fn stats(&self) -> TableStats {
        self.mouse.stats.plus(&self.cats.stats)
    }

    /// The counters of the table for `side` to move.
    pub fn stats_for(&self, side: Side) -> TableStats {
        match side {
            Side::Mouse => self.mouse.stats,
            Side::Cats => self.cats.stats,
        }
    }

    /// How many entries are in use, over both tables.
    pub fn used_entries(&self) -> usize {
        self.mouse.slots.iter().filter(|s| s.used()).count()
            + self.cats.slots.iter().filter(|s| s.used()).count()
    }

    /// Total entries over both tables.
    pub fn capacity(&self) -> usize {
        2 << self.config.index_bits
    }

    /// Empty both tables and zero the counters.
    pub fn clear(&mut self) {
        for t in [&mut self.mouse, &mut self.cats] {
            t.slots.fill(Slot::default());
            t.exact.fill(P::Key::default());
            t.stats = TableStats::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked() {
        for (i, l, ok) in [
            (7, 8, false),
            (8, 0, true),
            (28, 32, true),
            (29, 8, false),
            (8, 33, false),
        ] {
            let c = TableConfig {
                index_bits: i,
                lock_bits: l,
                verify: false,
            };
            assert_eq!(c.validate().is_ok(), ok, "{i} {l}");
        }
        assert!(
            TranspositionTables::<Position>::new(TableConfig {
                index_bits: 5,
                lock_bits: 8,
                verify: false
            })
            .is_err()
        );
    }

    #[test]
    fn slots_pack_and_unpack() {
        for (lock, score, depth, bound, best) in [
            (0u32, 0i16, 0u8, Bound::Exact, None),
            (u32::MAX, -30_000, 127, Bound::Lower, Some(15u8)),
            (0x1234_5678, 9_950, 64, Bound::Upper, Some(0)),
            (1, -1, 1, Bound::Exact, Some(3)),
        ] {
            let s = Slot::pack(lock, score, depth, bound, best);
            assert!(s.used());
            assert_eq!(s.lock(), lock);
            assert_eq!(
                s.raw(),
                RawEntry {
                    best,
                    score,
                    depth,
                    bound
                }
            );
        }
        assert!(!Slot::default().used());
    }

    #[test]
    fn store_probe_and_lock() {
        let mut t: TranspositionTables = TranspositionTables::new(TableConfig::C64).unwrap();
        let p = Position::start();
        let q = p.make_move(p.moves()[0]);
        t.store(&p, Some(p.moves()[1]), -7, 4, Bound::Upper);
        let e = t.probe(&p).unwrap();
        assert_eq!(
            (e.best, e.score, e.depth, e.bound),
            (Some(p.moves()[1]), -7, 4, Bound::Upper)
        );
        // The other side's table is separate.
        assert!(t.probe(&q).is_none());
        assert_eq!(t.stats().probes, 2);
        assert_eq!(t.stats().hits, 1);
        assert_eq!(t.stats().empty, 1);
    }
}
