//! A level-by-level enumeration in memory, one level at a time ([`Walk`]), and the run of one over a whole
//! problem ([`run`]).

use super::expand::{Ctx, StepError};
use super::levels::{AnyFrozen, AnyTables, Source, recycle};
use super::options::{Options, StepStats};
use super::plan::{BASE_BYTES, at_end, estimate, key_pbits, narrow_keys, next_pegs};
use super::rounds::{
    Built, build, fit_round, round_bytes, round_records, round_records_for, round_records_least,
    round_within, sized_classes,
};
use crate::count::{CountError, Level, add};
use crate::counter::Counter;
use crate::kernel::Kernel;
use crate::level::{
    Frozen, INIT_LOAD, KeyFilter, Layout, Mixer, PART_TARGET, Pool, Slot, TableKey,
};

/// A level built with narrow or wide counters.
enum AnyBuilt<K, N> {
    Narrow(Built<K, N>),
    Wide(Built<K, u128>),
}

/// A callback given each level before it is expanded: its number of pegs and the level.
pub(crate) type OnLevel<'a, N> = dyn FnMut(u32, &AnyFrozen<N>) -> Result<(), CountError> + 'a;

/// Enumerate level by level from `starts` (positions with the same number of pegs), normalized with the
/// kernel's group, with the kernel's jumps (forward, or taken back), giving each level to `on_level` (when
/// there is one) before it is expanded. Returns the levels and the solution counts.
pub(crate) fn run<N: Counter>(
    k: &Kernel,
    starts: &[u64],
    finish_key: Option<u64>,
    opts: &Options<'_>,
    on_level: Option<&mut OnLevel<'_, N>>,
) -> Result<(Vec<Level>, u128, u128), CountError> {
    if narrow_keys(k) {
        run_with::<N, u32>(k, starts, finish_key, opts, on_level)
    } else {
        run_with::<N, u64>(k, starts, finish_key, opts, on_level)
    }
}

fn run_with<N: Counter, K: TableKey>(
    k: &Kernel,
    starts: &[u64],
    finish_key: Option<u64>,
    opts: &Options<'_>,
    mut on_level: Option<&mut OnLevel<'_, N>>,
) -> Result<(Vec<Level>, u128, u128), CountError> {
    let mut walk = Walk::<N, K>::new(k, starts, finish_key)?;
    if on_level.is_none() {
        // Nothing looks at the levels: each is expanded straight from the tables it was merged into.
        walk.leave_unfrozen();
    }
    let mut levels: Vec<Level> = Vec::new();
    let (mut sol_full, mut sol_normal) = (0u128, 0u128);
    let limit = opts.max_levels.unwrap_or(usize::MAX);
    while walk.len() > 0 && levels.len() < limit {
        if let Some(f) = on_level.as_deref_mut() {
            f(walk.pegs(), walk.level())?;
        }
        let last = levels.len() + 1 == limit || walk.at_end();
        let step = walk.step(opts, !last, false)?;
        sol_full = add(sol_full, step.sol_full, step.level.pegs)?;
        sol_normal = add(sol_normal, step.sol_normal, step.level.pegs)?;
        if let Some(p) = opts.progress {
            p(&step.level);
        }
        levels.push(step.level);
    }
    Ok((levels, sol_full, sol_normal))
}

/// What one [`Walk::step`] found: the statistics of the level expanded, its solutions (at one peg), and the
/// level itself when it was asked for.
pub(crate) struct Stepped<N> {
    pub level: Level,
    pub sol_full: u128,
    pub sol_normal: u128,
    pub source: Option<AnyFrozen<N>>,
}

/// A level-by-level enumeration, one level at a time: the current level (classes and their counters), and
/// the memory kept from level to level. [`Walk::step`] expands the current level into the next. Forward
/// (jumps) or backward (jumps taken back) as the kernel says.
pub(crate) struct Walk<'a, N: Counter, K: TableKey> {
    k: &'a Kernel,
    mixer: Mixer,
    /// With 32-bit keys, a key's bits inside its partition must fit: at least this many partition bits.
    min_pbits: u32,
    finish_key: Option<u64>,
    pegs: u32,
    level: AnyFrozen<N>,
    /// The current level when it was left in its tables (`level` is then empty).
    tables: Option<AnyTables<K, N>>,
    /// Whether each level built is left in its tables (see [`Walk::leave_unfrozen`]).
    unfrozen: bool,
    /// The sizes of the levels so far (for the estimate of the next).
    hist: Vec<usize>,
    /// Classes of the last level built per class expanded, when the level was then replaced by a part of it
    /// ([`Walk::set_level`]): the estimate of the next level for a walk whose levels are cut down.
    growth: Option<f64>,
    restricted: bool,
    classes_so_far: u64,
    pool: Pool<K, N>,
    wide_pool: Pool<K, u128>,
}

impl<'a, N: Counter, K: TableKey> Walk<'a, N, K> {
    /// A walk from the positions `starts` (all with the same number of pegs), each with path counts of one.
    pub fn new(
        k: &'a Kernel,
        starts: &[u64],
        finish_key: Option<u64>,
    ) -> Result<Walk<'a, N, K>, CountError> {
        let mixer = Mixer::new(k.holes as u32);
        let one = N::from_u128(1).ok_or(CountError::Overflow { pegs: 0 })?;
        let first: Vec<Slot<N>> = starts
            .iter()
            .map(|&s| Slot {
                h: mixer.mix(k.normalize(s).0),
                full: one,
                norm: one,
            })
            .collect();
        let pegs = starts.first().map_or(0, |s| s.count_ones());
        let level = Frozen::from_entries(k.holes as u32, first);
        Ok(Walk::from_level(k, level, pegs, finish_key))
    }

    /// A walk from a stored level (normalized with the kernel's group) of positions with `pegs` pegs.
    pub fn from_level(
        k: &'a Kernel,
        level: Frozen<N>,
        pegs: u32,
        finish_key: Option<u64>,
    ) -> Walk<'a, N, K> {
        let bits = k.holes as u32;
        let min_pbits = key_pbits::<K>(bits);
        Walk {
            k,
            mixer: Mixer::new(bits),
            min_pbits,
            finish_key,
            pegs,
            level: AnyFrozen::Narrow(level),
            tables: None,
            unfrozen: false,
            hist: Vec::new(),
            growth: None,
            restricted: false,
            classes_so_far: 0,
            pool: Pool::new(),
            wide_pool: Pool::new(),
        }
    }

    /// Number of pegs of the current level.
    pub fn pegs(&self) -> u32 {
        self.pegs
    }

    /// Leave each level built in the tables its records were merged into, instead of freezing it (sorted,
    /// packed): for a walk that only expands each level into the next, and never asks for [`Walk::level`].
    /// The next step reads the tables directly; they take about twice the memory of a frozen level.
    pub fn leave_unfrozen(&mut self) {
        self.unfrozen = true;
    }

    /// Freeze the current level if it was left in its tables; the seconds it took.
    fn settle(&mut self) -> f64 {
        let start = std::time::Instant::now();
        match self.tables.take() {
            Some(AnyTables::Narrow(t)) => self.level = AnyFrozen::Narrow(t.freeze(&self.pool)),
            Some(AnyTables::Wide(t)) => self.level = AnyFrozen::Wide(t.freeze(&self.wide_pool)),
            None => {}
        }
        start.elapsed().as_secs_f64()
    }

    /// The current level (frozen: not for a walk that leaves its levels unfrozen).
    pub fn level(&self) -> &AnyFrozen<N> {
        debug_assert!(self.tables.is_none(), "the level was left in its tables");
        &self.level
    }

    /// Number of classes of the current level.
    pub fn len(&self) -> usize {
        self.tables
            .as_ref()
            .map_or_else(|| self.level.len(), AnyTables::len)
    }

    /// Bytes of the current level.
    fn level_bytes(&self) -> u64 {
        self.tables
            .as_ref()
            .map_or_else(|| self.level.bytes(), AnyTables::bytes)
    }

    /// The current level, ending the walk.
    pub fn into_level(mut self) -> AnyFrozen<N> {
        self.settle();
        self.level
    }

    /// Replace the current level (for example by a part of it), keeping the walk's memory.
    pub fn set_level(&mut self, level: AnyFrozen<N>) {
        self.restricted = true;
        self.recycle_tables();
        let old = std::mem::replace(&mut self.level, level);
        recycle(old, &self.pool, &self.wide_pool);
    }

    /// Give the tables of the current level, if it was left in them, back to the pools.
    fn recycle_tables(&mut self) {
        match self.tables.take() {
            Some(AnyTables::Narrow(t)) => t.recycle(&self.pool),
            Some(AnyTables::Wide(t)) => t.recycle(&self.wide_pool),
            None => {}
        }
    }

    /// Bytes held by the walk: the current level and the memory kept for the levels to come.
    pub fn bytes(&self) -> u64 {
        self.level_bytes() + self.pool.bytes() + self.wide_pool.bytes()
    }

    /// Whether the current level is the last one a walk can have (one peg forward, a full board backward).
    pub fn at_end(&self) -> bool {
        at_end(self.k, self.pegs)
    }

    /// The memory a step needs (an estimate), for a next level of about `expected` classes built in rounds
    /// of `round` records.
    fn step_bytes(&self, expected: usize, last: bool, round: usize) -> u64 {
        let wide = self.is_wide();
        let (slot, counter) = match wide {
            false => (
                std::mem::size_of::<K>() + 2 * std::mem::size_of::<N>(),
                std::mem::size_of::<N>(),
            ),
            true => (std::mem::size_of::<K>() + 32, 16),
        };
        // While the next level is built: this level, the tables (with their spare slots) and a round's
        // buffers; while it is frozen, the frozen next level (about as many bytes a class as this one)
        // instead of this level. Memory kept from the level before counts where it is more than they need
        // (idle round buffers more than a quarter bigger than this round's are shrunk to it when taken);
        // then 5% for the allocator and a few MiB for the program itself (measured on the English board: the
        // peaks come within 3% below the estimates). A level left in its tables counts as its tables, and
        // so does the next level (it is left in its tables too, or frozen into less): there the English
        // peaks come 6-8% below the estimates.
        let tables = (expected as f64 / INIT_LOAD * 1.07) as u64 * slot as u64;
        let bufs = if last {
            0
        } else {
            round_bytes::<K>(counter, round)
        };
        let (held_t, held_b) = self.pool.held();
        let (wide_t, wide_b) = self.wide_pool.held();
        let rounds_held = if wide {
            self.wide_pool.round_held()
        } else {
            self.pool.round_held()
        };
        let shrunk = rounds_held.saturating_sub(bufs / 4 * 5);
        let level_bytes = self.level_bytes();
        let per_class = level_bytes as f64 / self.len().max(1) as f64;
        let frozen = level_bytes.max((expected as f64 * per_class) as u64);
        (frozen + (held_t + wide_t).max(tables) + (held_b + wide_b - shrunk).max(bufs)) / 20 * 21
            + BASE_BYTES
    }

    /// Whether the current level has 128-bit counters.
    fn is_wide(&self) -> bool {
        matches!(self.tables, Some(AnyTables::Wide(_))) || matches!(self.level, AnyFrozen::Wide(_))
    }

    /// The biggest round from `full` records down to `least` whose step fits in `limit` bytes (see
    /// [`fit_round`]).
    fn fit_round(
        &self,
        expected: usize,
        last: bool,
        (full, least): (usize, usize),
        limit: u64,
    ) -> Option<usize> {
        fit_round(full, least, |r| self.step_bytes(expected, last, r) <= limit)
    }

    /// Expand the current level: its statistics, and (with `emit`) the next level, which becomes the current
    /// one. With `keep`, the level expanded is handed back instead of being recycled.
    pub fn step(
        &mut self,
        opts: &Options<'_>,
        emit: bool,
        keep: bool,
    ) -> Result<Stepped<N>, CountError> {
        self.step_filtered(opts, emit, keep, None)
    }

    /// [`Walk::step`], keeping of the next level only the classes `filter` may hold (and a few more: it is a
    /// filter; the caller intersects the level with what it stands for).
    pub fn step_filtered(
        &mut self,
        opts: &Options<'_>,
        emit: bool,
        keep: bool,
        filter: Option<&KeyFilter>,
    ) -> Result<Stepped<N>, CountError> {
        // A level handed back, or filtered, is frozen first.
        let settled = if keep || filter.is_some() {
            self.settle()
        } else {
            0.0
        };
        let k = self.k;
        let pegs = self.pegs;
        let bits = k.holes as u32;
        let sources = self.len();
        self.hist.push(sources);
        let last = !emit;
        let expected = match (last, self.restricted, self.growth) {
            (true, _, _) => 0,
            // A level cut down grows like the one before it did before it was cut.
            (false, true, Some(g)) => (sources as f64 * g * 1.05) as usize + 16,
            _ => estimate(&self.hist),
        };
        let ctx = Ctx {
            k,
            mixer: self.mixer,
            pegs,
            finish_key: self.finish_key,
            out: Layout::for_size(bits, expected, PART_TARGET, self.min_pbits),
            emit,
            filter,
            first: 0,
            parts: 0,
        };
        let ctx = Ctx {
            parts: ctx.out.parts(),
            ..ctx
        };
        let mut step = StepStats {
            pegs,
            sources: sources as u64,
            expected: expected as u64,
            freeze_secs: settled,
            ..StepStats::default()
        };
        // Rounds as big as the level built where the memory allows (the level expanded frozen first when
        // they do not fit beside it in its tables); where the limit has no room for them, the biggest that
        // fit, down to a quarter of the level built, then down to the fixed size of a round.
        let built_classes = sized_classes(ctx.out, ctx.parts, expected);
        let full = round_within(round_records_for::<K>(built_classes), sources);
        let mut round = full;
        if let Some(limit) = opts.max_memory {
            if self.step_bytes(expected, last, full) > limit && self.tables.is_some() {
                // Frozen, the level takes about half the memory of its tables.
                step.freeze_secs += self.settle();
                // The pools now hold the arrays of two levels of tables: one is all the step needs.
                let nthreads = rayon::current_num_threads().max(1);
                let nparts = ctx.out.parts();
                self.pool
                    .trim(nparts, nparts * nthreads, nthreads, nthreads);
                self.wide_pool
                    .trim(nparts, nparts * nthreads, nthreads, nthreads);
            }
            let least = round_within(round_records_least::<K>(built_classes), sources);
            let floor = round_within(round_records::<K>(), sources);
            let fitted = self.fit_round(expected, last, (full, least), limit);
            let fitted = fitted.or_else(|| self.fit_round(expected, last, (least, floor), limit));
            let needed = self.step_bytes(expected, last, fitted.unwrap_or(floor));
            step.estimate_bytes = Some(needed);
            match fitted {
                Some(r) => round = r,
                None => {
                    return Err(CountError::MemoryLimit {
                        pegs: next_pegs(k, pegs),
                        needed,
                        limit,
                        classes_so_far: self.classes_so_far + sources as u64,
                    });
                }
            }
        }
        step.round_records = round as u64;
        let t = std::time::Instant::now();
        // Classes known when a step stops: the levels expanded, and the one being expanded.
        let known = self.classes_so_far + sources as u64;
        let fix = |e: StepError| match e {
            StepError::Narrow => CountError::Overflow {
                pegs: next_pegs(k, pegs),
            },
            StepError::Fatal(e) => e.with_classes_so_far(known),
        };
        let (pool, wide_pool) = (&self.pool, &self.wide_pool);
        // The source level: narrow counters (`Ok`) or wide ones (`Err`).
        let source = match (&self.tables, &self.level) {
            (Some(AnyTables::Narrow(t)), _) => Ok(Source::Tables(t)),
            (Some(AnyTables::Wide(t)), _) => Err(Source::Tables(t)),
            (None, AnyFrozen::Narrow(f)) => Ok(Source::frozen(f)),
            (None, AnyFrozen::Wide(f)) => Err(Source::frozen(f)),
        };
        let built = match source {
            Ok(src) => match build::<K, N, N>(&ctx, src, expected, round, opts, pool) {
                Ok(b) => AnyBuilt::Narrow(b),
                Err(StepError::Narrow) => {
                    step.rebuilt_wide = true;
                    AnyBuilt::Wide(
                        build::<K, N, u128>(&ctx, src, expected, round, opts, wide_pool)
                            .map_err(fix)?,
                    )
                }
                Err(e) => return Err(fix(e)),
            },
            Err(src) => AnyBuilt::Wide(
                build::<K, u128, u128>(&ctx, src, expected, round, opts, wide_pool).map_err(fix)?,
            ),
        };
        // The level expanded is given back (or recycled) before the next is frozen, so that freezing can
        // reuse its memory.
        self.recycle_tables();
        let empty = AnyFrozen::Narrow(Frozen::empty(bits));
        let source = std::mem::replace(&mut self.level, empty);
        let source = if keep {
            Some(source)
        } else {
            recycle(source, &self.pool, &self.wide_pool);
            None
        };
        let unfrozen = self.unfrozen && !keep && filter.is_none();
        let acc = match built {
            AnyBuilt::Narrow(b) if unfrozen => {
                let (acc, next) = b.keep(ctx.out, &mut step);
                self.tables = Some(AnyTables::Narrow(next));
                acc
            }
            AnyBuilt::Wide(b) if unfrozen => {
                let (acc, next) = b.keep(ctx.out, &mut step);
                self.tables = Some(AnyTables::Wide(next));
                acc
            }
            AnyBuilt::Narrow(b) => {
                let (acc, next) = b.freeze(ctx.out, &self.pool, &mut step);
                self.level = AnyFrozen::Narrow(next);
                acc
            }
            AnyBuilt::Wide(b) => {
                let (acc, next) = b.freeze(ctx.out, &self.wide_pool, &mut step);
                self.level = AnyFrozen::Wide(next);
                acc
            }
        };
        self.restricted = false;
        self.growth = Some(self.len() as f64 / sources.max(1) as f64);
        let stats = acc.row(pegs);
        self.classes_so_far += acc.classes;
        if let Some(sink) = opts.stats {
            step.records = acc.records;
            step.next_classes = self.len() as u64;
            step.next_bytes = self.level_bytes();
            step.left_in_tables = self.tables.is_some();
            step.total_secs = t.elapsed().as_secs_f64();
            sink(&step);
        }
        self.pegs = next_pegs(k, pegs);
        Ok(Stepped {
            level: stats,
            sol_full: acc.sol_full,
            sol_normal: acc.sol_normal,
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::problem::Problem;
    use std::sync::atomic::AtomicUsize;
    use std::sync::atomic::Ordering;

    /// What `run` gives: the levels and the two solution counts.
    type Run = (Vec<Level>, u128, u128);

    /// `run` with each level left in its tables (nothing looks at the levels) and with each level frozen
    /// (a callback looks at them): the levels and solution counts, and how many steps left their level in
    /// its tables.
    fn both_ways<N: Counter>(p: &Problem, levels: Option<usize>) -> (Run, Run, usize) {
        let k = Kernel::new(p.board(), p.group());
        let starts = [p.start().bits()];
        let left = AtomicUsize::new(0);
        let sink = |s: &StepStats| {
            left.fetch_add(usize::from(s.left_in_tables), Ordering::Relaxed);
        };
        let opts = Options {
            max_levels: levels,
            stats: Some(&sink),
            ..Options::default()
        };
        let unfrozen = run::<N>(&k, &starts, None, &opts, None).unwrap();
        let left_unfrozen = left.swap(0, Ordering::Relaxed);
        let mut seen = 0;
        let frozen = run::<N>(
            &k,
            &starts,
            None,
            &opts,
            Some(&mut |_, _| {
                seen += 1;
                Ok(())
            }),
        )
        .unwrap();
        assert_eq!(seen, frozen.0.len());
        assert_eq!(
            left.load(Ordering::Relaxed),
            0,
            "a level looked at was left in its tables"
        );
        (unfrozen, frozen, left_unfrozen)
    }

    /// Levels expanded straight from their tables count exactly as frozen ones: 32-bit keys (triangle,
    /// English, diamond) and whole keys (Wiegleb's board), `u64` counters and `u16` ones (which overflow within a few levels:
    /// those levels are rebuilt with `u128` counters from a source level still in its tables, and the levels
    /// after are left in wide tables).
    #[test]
    fn levels_left_in_tables_count_as_frozen_ones() {
        for (name, levels) in [
            ("triangle", None),
            ("english", Some(13)),
            ("diamond", Some(8)),
            ("wiegleb", Some(8)),
        ] {
            let p = Problem::standard(Board::builtin(name).unwrap());
            let (unfrozen, frozen, left) = both_ways::<u64>(&p, levels);
            assert_eq!(unfrozen, frozen, "{name}");
            assert!(
                left + 2 >= unfrozen.0.len(),
                "{name}: {left} levels left in tables"
            );
            let (narrow, frozen16, left16) = both_ways::<u16>(&p, levels);
            assert_eq!(narrow, frozen16, "{name}, u16");
            assert_eq!(narrow, unfrozen, "{name}, u16 against u64");
            assert!(left16 + 2 >= unfrozen.0.len(), "{name}, u16: {left16}");
            assert!(
                narrow.0.iter().any(|l| l.paths_full > u128::from(u16::MAX)),
                "{name}: the u16 counters never overflowed"
            );
        }
    }
}
