//! Transposition tables: best move, score, depth and bound of searched positions, one table per side to
//! move, indexed by the low bits of the Zobrist hash and checked with the lock.
//!
//! With `index_bits` = 8 and `lock_bits` = 8 this is the C64 program's set-up: 256 entries per side and an
//! 8-bit lock. The tables count what happens to them ([`TableStats`]): probes, hits, empty slots, lock
//! mismatches (a different position in the slot, detected), stores and overwrites of a different position
//! (collisions). In verify mode each entry also keeps the exact position, so the tables can count false
//! hits: a different position whose lock matched, which the engine would then use as if it were the same.

use crate::board::Side;
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

    /// Bytes the two tables will take.
    pub fn memory_bytes(&self) -> usize {
        let per = std::mem::size_of::<Slot>()
            + if self.verify {
                std::mem::size_of::<Exact>()
            } else {
                0
            };
        2 * (1usize << self.index_bits) * per
    }
}

impl Default for TableConfig {
    /// 2^20 entries per side (24 MiB for both), a full 32-bit lock.
    fn default() -> TableConfig {
        TableConfig {
            index_bits: 20,
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
pub struct Entry {
    /// The best move found.
    pub best: Option<Move>,
    /// The score, from the side to move's point of view (win scores relative to this position).
    pub score: i16,
    /// The depth searched below this position.
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

/// The packed entry: 12 bytes.
#[derive(Clone, Copy, Default)]
struct Slot {
    lock: u32,
    score: i16,
    mv: u16,
    depth: u8,
    /// 0 = empty, else 1 + bound.
    flags: u8,
}

/// The exact position kept beside an entry in verify mode.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Exact {
    cats: u64,
    mouse: u8,
}

impl Exact {
    fn of(pos: &Position) -> Exact {
        Exact {
            cats: pos.cats().0,
            mouse: pos.mouse().index(),
        }
    }
}

/// One table (one side to move).
#[derive(Clone)]
struct Table {
    slots: Vec<Slot>,
    exact: Vec<Exact>,
    stats: TableStats,
}

impl Table {
    fn new(config: &TableConfig) -> Table {
        let n = 1usize << config.index_bits;
        Table {
            slots: vec![Slot::default(); n],
            exact: if config.verify {
                vec![Exact::default(); n]
            } else {
                Vec::new()
            },
            stats: TableStats::default(),
        }
    }
}

/// The two transposition tables (mouse to move, cats to move) with their counters.
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
pub struct TranspositionTables {
    config: TableConfig,
    mask: u64,
    lock_mask: u32,
    mouse: Table,
    cats: Table,
}

impl std::fmt::Debug for TranspositionTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTables")
            .field("config", &self.config)
            .field("stats", &self.stats())
            .finish()
    }
}

impl TranspositionTables {
    /// Empty tables with `config` (checked).
    pub fn new(config: TableConfig) -> Result<TranspositionTables, SettingError> {
        config.validate()?;
        Ok(TranspositionTables {
            config,
            mask: (1u64 << config.index_bits) - 1,
            lock_mask: if config.lock_bits == 0 {
                0
            } else {
                u32::MAX >> (32 - config.lock_bits)
            },
            mouse: Table::new(&config),
            cats: Table::new(&config),
        })
    }

    /// The settings.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// Bytes held by both tables.
    pub fn memory_bytes(&self) -> usize {
        self.config.memory_bytes()
    }

    #[inline]
    fn table(&mut self, side: Side) -> &mut Table {
        match side {
            Side::Mouse => &mut self.mouse,
            Side::Cats => &mut self.cats,
        }
    }

    /// Look `pos` up. A hit is an entry whose stored lock bits match; in verify mode a hit on a different
    /// position is counted as a false hit but still returned, exactly as without verify mode.
    #[inline]
    pub fn probe(&mut self, pos: &Position) -> Option<Entry> {
        let i = (pos.hash() & self.mask) as usize;
        let lock = pos.lock() & self.lock_mask;
        let verify = self.config.verify;
        let t = self.table(pos.turn());
        t.stats.probes += 1;
        let s = t.slots[i];
        if s.flags == 0 {
            t.stats.empty += 1;
            return None;
        }
        if s.lock != lock {
            t.stats.lock_mismatches += 1;
            return None;
        }
        t.stats.hits += 1;
        if verify && t.exact[i] != Exact::of(pos) {
            t.stats.false_hits += 1;
        }
        Some(Entry {
            best: Move::from_u16(s.mv),
            score: s.score,
            depth: s.depth,
            bound: match s.flags {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        })
    }

    /// Store an entry for `pos`, replacing whatever the slot held.
    #[inline]
    pub fn store(
        &mut self,
        pos: &Position,
        best: Option<Move>,
        score: i16,
        depth: u8,
        bound: Bound,
    ) {
        let i = (pos.hash() & self.mask) as usize;
        let lock = pos.lock() & self.lock_mask;
        let verify = self.config.verify;
        let t = self.table(pos.turn());
        t.stats.stores += 1;
        let old = t.slots[i];
        if old.flags != 0 {
            let different = if verify {
                t.exact[i] != Exact::of(pos)
            } else {
                old.lock != lock
            };
            if different {
                t.stats.collisions += 1;
            }
        }
        t.slots[i] = Slot {
            lock,
            score,
            mv: best.map_or(0, Move::to_u16),
            depth,
            flags: 1 + match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
        };
        if verify {
            t.exact[i] = Exact::of(pos);
        }
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
        self.mouse.slots.iter().filter(|s| s.flags != 0).count()
            + self.cats.slots.iter().filter(|s| s.flags != 0).count()
    }

    /// Total entries over both tables.
    pub fn capacity(&self) -> usize {
        2 << self.config.index_bits
    }

    /// Empty both tables and zero the counters.
    pub fn clear(&mut self) {
        for t in [&mut self.mouse, &mut self.cats] {
            t.slots.fill(Slot::default());
            t.exact.fill(Exact::default());
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
            TranspositionTables::new(TableConfig {
                index_bits: 5,
                lock_bits: 8,
                verify: false
            })
            .is_err()
        );
    }

    #[test]
    fn store_probe_and_lock() {
        let mut t = TranspositionTables::new(TableConfig::C64).unwrap();
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
