//! The level a step expands: frozen, or still in the tables its records were merged into.

use rayon::prelude::*;

use super::expand::{Ctx, StepError, Worker, expand_dispatch};
use crate::counter::{Counter, NoCount};
use crate::level::{BLOCK, Frozen, Layout, Part, Pool, Table, TableKey};

/// Consecutive blocks of a partition in the order a step expands its source, before the next partition's
/// (as many as a task of the expansion takes).
const ROUND_ROBIN_BLOCKS: usize = 8;

/// A stored level, with narrow or wide counters.
pub(crate) enum AnyFrozen<N> {
    Narrow(Frozen<N>),
    Wide(Frozen<u128>),
}

impl<N: Counter> AnyFrozen<N> {
    pub fn len(&self) -> usize {
        match self {
            AnyFrozen::Narrow(s) => s.len(),
            AnyFrozen::Wide(s) => s.len(),
        }
    }
    pub fn bytes(&self) -> u64 {
        match self {
            AnyFrozen::Narrow(s) => s.bytes(),
            AnyFrozen::Wide(s) => s.bytes(),
        }
    }
}

/// A level still in the tables the merge filled (not frozen): what a walk that only counts expands next.
pub(crate) struct Tables<K, C> {
    pub(super) layout: Layout,
    pub(super) tables: Vec<Table<K, C>>,
}

impl<K: TableKey, C: Counter> Tables<K, C> {
    fn len(&self) -> usize {
        self.tables.iter().map(Table::len).sum()
    }
    fn bytes(&self) -> u64 {
        self.tables.iter().map(Table::bytes).sum()
    }
    /// Give the tables' memory back to the pool.
    pub(super) fn recycle(self, pool: &Pool<K, C>) {
        self.tables.into_par_iter().for_each(|t| t.recycle(pool));
    }
    /// Freeze into a stored level.
    pub(super) fn freeze(self, pool: &Pool<K, C>) -> Frozen<C> {
        freeze(self.layout, self.tables, pool)
    }
}

/// A level in tables, with narrow or wide counters.
pub(crate) enum AnyTables<K, N> {
    Narrow(Tables<K, N>),
    Wide(Tables<K, u128>),
}

impl<K: TableKey, N: Counter> AnyTables<K, N> {
    pub(super) fn len(&self) -> usize {
        match self {
            AnyTables::Narrow(t) => t.len(),
            AnyTables::Wide(t) => t.len(),
        }
    }
    pub(super) fn bytes(&self) -> u64 {
        match self {
            AnyTables::Narrow(t) => t.bytes(),
            AnyTables::Wide(t) => t.bytes(),
        }
    }
}

/// The level a step expands (or a part of it): frozen partitions, or a level still in its tables.
#[derive(Clone, Copy)]
pub(crate) enum Source<'s, K, C> {
    /// Partitions `first..first + parts.len()` of a level of partitions `layout`, frozen (a whole level,
    /// a cluster worker's share of one, or a bucket of a spilling store).
    Parts {
        layout: Layout,
        first: usize,
        parts: &'s [Part<C>],
    },
    /// A level left in the tables its records were merged into.
    Tables(&'s Tables<K, C>),
}

impl<'s, K: TableKey, C: Counter> Source<'s, K, C> {
    /// A whole frozen level.
    pub(crate) fn frozen(f: &'s Frozen<C>) -> Source<'s, K, C> {
        Source::Parts {
            layout: f.layout,
            first: 0,
            parts: &f.parts,
        }
    }
    pub(crate) fn len(&self) -> usize {
        match self {
            Source::Parts { parts, .. } => parts.iter().map(Part::len).sum(),
            Source::Tables(t) => t.len(),
        }
    }
    pub(crate) fn bytes(&self) -> u64 {
        match self {
            Source::Parts { parts, .. } => parts.iter().map(Part::bytes).sum(),
            Source::Tables(t) => t.bytes(),
        }
    }
    /// Every block, in the order a level step expands them: (partition, block), partitions counted from the
    /// first one of the source.
    pub(crate) fn blocks(&self) -> Vec<(usize, usize)> {
        let counts: Vec<usize> = match self {
            Source::Parts { parts, .. } => parts.iter().map(Part::blocks).collect(),
            Source::Tables(t) => t.tables.iter().map(Table::blocks).collect(),
        };
        // A successor's mixed key is its source's plus a constant of the jump (up to the symmetry taken), so
        // a round that expanded a range of keys would give some partitions of the next level far more than
        // their share, and its records a class would drift along the level. The blocks go round the
        // partitions instead, a few consecutive ones of each at a time (read in one go): every slice of
        // the list is spread over the whole level.
        let most = counts.iter().copied().max().unwrap_or(0);
        let mut order = Vec::with_capacity(counts.iter().sum());
        for g in (0..most).step_by(ROUND_ROBIN_BLOCKS) {
            for (q, &n) in counts.iter().enumerate() {
                order.extend((g..(g + ROUND_ROBIN_BLOCKS).min(n)).map(|b| (q, b)));
            }
        }
        order
    }
    /// About how many classes block `b` of partition `q` holds (exactly, for a stored level; on average, for
    /// tables).
    pub(crate) fn block_len(&self, q: usize, b: usize) -> usize {
        match self {
            Source::Parts { parts, .. } => block_len(&parts[q], b),
            Source::Tables(t) => {
                let t = &t.tables[q];
                (t.len() + t.blocks() / 2) / t.blocks().max(1)
            }
        }
    }
    /// Expand blocks `from..to` of partition `q`.
    pub(crate) fn expand(
        &self,
        portable: bool,
        ctx: &Ctx<'_>,
        q: usize,
        from: usize,
        to: usize,
        w: &mut Worker<K, impl Counter>,
    ) -> Result<(), StepError> {
        match self {
            Source::Parts {
                layout,
                first,
                parts,
            } => {
                let reader = parts[q].reader(layout.base(first + q), from, to);
                expand_dispatch(portable, ctx, reader, w)
            }
            Source::Tables(t) => {
                let reader = t.tables[q].reader(t.layout.base(q), from, to);
                expand_dispatch(portable, ctx, reader, w)
            }
        }
    }
}

/// Number of entries of block `b` of a partition.
fn block_len<C: Counter>(p: &Part<C>, b: usize) -> usize {
    (p.len() - b * BLOCK).min(BLOCK)
}

/// Sort and freeze the tables of a built level.
pub(super) fn freeze<K: TableKey, D: Counter>(
    out: Layout,
    tables: Vec<Table<K, D>>,
    pool: &Pool<K, D>,
) -> Frozen<D> {
    let parts = tables
        .into_par_iter()
        .enumerate()
        .map(|(q, t)| t.freeze(q, &out, pool))
        .collect();
    Frozen { layout: out, parts }
}

/// Give the memory of a level no longer needed to the pool of its counter type.
pub(super) fn recycle<K: TableKey, N: Counter>(
    level: AnyFrozen<N>,
    pool: &Pool<K, N>,
    wide: &Pool<K, u128>,
) {
    match level {
        AnyFrozen::Narrow(f) => pool.recycle(f),
        AnyFrozen::Wide(f) => wide.recycle(f),
    }
}

/// Keys-only enumeration, for the finish tables.
pub(crate) type KeyLevel = Frozen<NoCount>;
