//! The round driver of a level step ([`Rounds`]): expand a slice of the source level on every worker, then
//! give the round's records to where they go (a [`Sink`]); and the builder of a level in this process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use super::expand::{Acc, Ctx, StepError, Worker};
use super::levels::{Source, Tables, freeze};
use super::options::{Options, StepStats};
use super::plan::next_pegs;
use super::sink::{LocalTables, Sink, Stop};
use crate::count::CountError;
use crate::counter::Counter;
use crate::level::{Frozen, Layout, Pool, Rec, Table, TableKey};

/// Bytes of records per round, over all threads: about 3 million 8-byte records. Smaller rounds read every
/// table once more per round; bigger ones spread their records and source counters beyond the caches (on
/// the English board, rounds of 24 MiB are about 10% faster than rounds of 6 or 96 MiB).
const ROUND_BYTES: usize = 24 << 20;

/// Source blocks per task of the expand phase.
const TASK_BLOCKS: usize = 8;

/// Records per round with keys of type `K`.
pub(crate) fn round_records<K: TableKey>() -> usize {
    ROUND_BYTES / std::mem::size_of::<Rec<K>>()
}

/// Records of a round per class of the tables being built, where the memory allows. Each round reads every
/// table it adds to ([`Table::warm`]) and writes back the lines it changed: with rounds of `r` records building
/// `n` classes, about `20 n / (0.82 r)` bytes of tables (20 bytes a slot, 82% fill) each way per record. Once
/// the tables outgrow the last-level cache (on the diamond from its centre, building 27 pegs and fewer), that
/// traffic is most of the merge's cost: rounds of at least as many records as classes keep it near 25 bytes a
/// record and the cost per record flat (docs/experiments/peg.md has the measurements).
const ROUND_RECORDS_PER_CLASS: usize = 1;

/// Classes of the tables being built per record of a round, at most, where the memory limit has no room for
/// rounds as big as the level: the round buffers then take about 3.5 bytes a class instead of 14.
const CLASSES_PER_LEAST_ROUND_RECORD: usize = 4;

/// Records per round for tables of about `classes` classes in all, where the memory allows: as many as the
/// classes.
pub(crate) fn round_records_for<K: TableKey>(classes: usize) -> usize {
    round_records::<K>().max(classes * ROUND_RECORDS_PER_CLASS)
}

/// Records per round for tables of about `classes` classes, the fewest before the merge's cost per record
/// grows with the tables: a quarter of the classes (or [`round_records`], if more).
pub(crate) fn round_records_least<K: TableKey>(classes: usize) -> usize {
    round_records::<K>().max(classes / CLASSES_PER_LEAST_ROUND_RECORD)
}

/// Bytes of the buffers of a round of `records` records: records (with a quarter of slack) and source
/// counters of `counter` bytes.
pub(crate) fn round_bytes<K: TableKey>(counter: usize, records: usize) -> u64 {
    (records * std::mem::size_of::<Rec<K>>() * 5 / 4 + records / 4 * 2 * counter) as u64
}

/// The biggest round from `full` records down to `least` for which `fits` holds (a memory estimate within
/// the limit, growing with the round), or `None` when even `least` does not fit. `full` when it fits.
pub(crate) fn fit_round(full: usize, least: usize, fits: impl Fn(usize) -> bool) -> Option<usize> {
    if fits(full) {
        return Some(full);
    }
    if least >= full || !fits(least) {
        return None;
    }
    // `lo` fits, `hi` does not.
    let (mut lo, mut hi) = (least, full);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// Classes the tables of `parts` partitions are sized for, of a next level of about `expected` classes laid
/// out as `out` (as [`Builder::new`] sizes them).
pub(crate) fn sized_classes(out: Layout, parts: usize, expected: usize) -> usize {
    expected.div_ceil(out.parts()) * parts
}

/// The records of a round for a step from a level of `sources` classes: at most `round`, and no more than
/// the level can give (about 12 records a source class at most).
pub(crate) fn round_within(round: usize, sources: usize) -> usize {
    round.min(sources.saturating_mul(12).saturating_add(1024))
}

/// The tables of a level being built, the statistics of its source level, and the step's timings.
pub(crate) struct Built<K, D> {
    pub acc: Acc,
    pub tables: Vec<Table<K, D>>,
    /// Seconds spent expanding and merging, and the number of rounds.
    pub expand_secs: f64,
    pub merge_secs: f64,
    pub rounds: u32,
}

impl<K: TableKey, D: Counter> Built<K, D> {
    /// Freeze the tables (sorted, packed) into the next level; the source level's statistics. The timings of
    /// the step go into `step`.
    pub(super) fn freeze(
        self,
        out: Layout,
        pool: &Pool<K, D>,
        step: &mut StepStats,
    ) -> (Acc, Frozen<D>) {
        step.expand_secs = self.expand_secs;
        step.merge_secs = self.merge_secs;
        step.rounds = self.rounds;
        let t = std::time::Instant::now();
        let next = freeze(out, self.tables, pool);
        step.freeze_secs += t.elapsed().as_secs_f64();
        (self.acc, next)
    }

    /// The tables as they are (not frozen), as the next level; the source level's statistics.
    pub(super) fn keep(self, out: Layout, step: &mut StepStats) -> (Acc, Tables<K, D>) {
        step.expand_secs = self.expand_secs;
        step.merge_secs = self.merge_secs;
        step.rounds = self.rounds;
        let tables = Tables {
            layout: out,
            tables: self.tables,
        };
        (self.acc, tables)
    }
}

/// Expand `src` into tables for the next level (the partitions `ctx` builds), in one pass, in rounds of
/// about `round` records.
pub(super) fn build<K: TableKey, S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: Source<'_, K, S>,
    expected: usize,
    round: usize,
    opts: &Options<'_>,
    pool: &Pool<K, D>,
) -> Result<Built<K, D>, StepError> {
    let mut b = Builder::new(ctx, expected, round, pool);
    b.feed(ctx, src, opts, 0)?;
    b.finish()
}

/// What the round driver checks besides the step: the kernel to use, a cancel flag, the memory limit.
#[derive(Clone, Copy, Default)]
pub(crate) struct Checks<'a> {
    /// Use the portable kernel even when the CPU has AVX-512.
    pub portable: bool,
    /// Checked between rounds; when set, the step stops with [`CountError::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
    /// Stop when the memory held passes this many bytes.
    pub max_memory: Option<u64>,
    /// Memory held besides the source, the tables, the buffers and the pool.
    pub held: u64,
}

impl<'a> Checks<'a> {
    /// The checks an enumeration's options ask for, with `held` bytes held besides.
    pub(crate) fn of(opts: &Options<'a>, held: u64) -> Checks<'a> {
        Checks {
            portable: opts.portable,
            cancel: opts.cancel,
            max_memory: opts.max_memory,
            held,
        }
    }
}

/// The round driver of a level step: its workers (one per thread that expands), the memory they keep, and
/// the figures of the rounds so far. [`Rounds::feed`] expands a source level (or a part of one) into records
/// and gives each round's records to a [`Sink`].
pub(crate) struct Rounds<'p, K: TableKey, D: Counter> {
    workers: Vec<Mutex<Worker<K, D>>>,
    pool: &'p Pool<K, D>,
    /// Seconds expanding, seconds giving records to the sink.
    timing: (f64, f64),
    rounds: u32,
    /// Records given to the sink so far.
    records: u64,
    /// Records per source class expanded (an estimate, for the size of a round's slice of the source).
    per_source: f64,
    /// Source classes a round may expand at most (each takes an entry in the round's source counters).
    max_sources: usize,
    /// Pegs of the source level (for errors).
    pegs: u32,
    /// Whether a sink in lockstep said that no round follows.
    ended: bool,
    /// The most bytes of record buffers (their capacity) a round held.
    peak_bufs: u64,
}

impl<'p, K: TableKey, D: Counter> Rounds<'p, K, D> {
    /// A driver with `workers` workers (more than one: they expand in parallel on rayon's threads) for a step
    /// from a level with `pegs` pegs, whose buffers come from `pool`.
    pub(crate) fn new(pool: &'p Pool<K, D>, workers: usize, pegs: u32) -> Rounds<'p, K, D> {
        let workers = (0..workers.max(1))
            .map(|_| Mutex::new(Worker::with_buffers(Vec::new(), Vec::new())))
            .collect();
        Rounds {
            workers,
            pool,
            timing: (0.0, 0.0),
            rounds: 0,
            records: 0,
            per_source: 10.0,
            max_sources: usize::MAX,
            pegs,
            ended: false,
            peak_bufs: 0,
        }
    }

    /// Let a round expand at most `n` source classes (at least one block), whatever records they give: a
    /// bound on the round's source counters where few of each class's records are kept (a pass of a
    /// spilling store keeps the records of its partitions only).
    pub(crate) fn limit_sources(&mut self, n: usize) {
        self.max_sources = n.max(1);
    }

    /// Records given to the sink so far.
    pub(crate) fn records(&self) -> u64 {
        self.records
    }

    /// Whether a sink in lockstep said that no round follows (every worker is done, or one failed): no
    /// source may be fed after it.
    pub(crate) fn ended(&self) -> bool {
        self.ended
    }

    /// Expand `src` in rounds of about `round` records (over all workers), giving each round's records to
    /// `sink`, until `src` is done (or, for a sink in lockstep, until the sink says no round follows). With
    /// `more_after` (a sink in lockstep, whose caller feeds another source after this one), the driver returns
    /// once `src` is done, having told the sink that more follows.
    ///
    /// # Errors
    /// The step's errors (for a sink in lockstep, after the last round), and the sink's.
    pub(crate) fn feed<S: Counter, Snk: Sink<K, D>>(
        &mut self,
        ctx: &Ctx<'_>,
        src: Source<'_, K, S>,
        sink: &mut Snk,
        checks: &Checks<'_>,
        round: usize,
        more_after: bool,
    ) -> Result<(), Stop<Snk::Error>> {
        let nparts = ctx.parts;
        let nthreads = self.workers.len();
        let pool = self.pool;
        let total = src.len();
        let bounded = self.max_sources < usize::MAX;
        let (per_buf, per_srcs) = if ctx.emit {
            (
                round / nthreads / nparts.max(1) * 5 / 4 + 16,
                // A round with a bound on its source classes has room for its share of them; otherwise a
                // first guess, grown as the round needs.
                if bounded {
                    self.max_sources / nthreads + 64
                } else {
                    round / nthreads / 6
                },
            )
        } else {
            (0, 0)
        };
        for m in &mut self.workers {
            let w = m.get_mut().unwrap_or_else(PoisonError::into_inner);
            if w.bufs.len() != nparts {
                w.bufs = (0..nparts).map(|_| pool.take_buf(per_buf)).collect();
                w.srcs = pool.take_srcs(per_srcs);
            }
        }
        // Every block of the source level, round the partitions: (partition, block).
        let blocks = src.blocks();
        // Classes a block holds on average (fewer than `BLOCK` in tables, which have empty slots).
        let per_block = (total as f64 / blocks.len().max(1) as f64).max(1.0);
        let mut next = 0usize;
        let mut consumed = 0usize;
        let mut failure: Option<StepError> = None;
        // The tables' bytes before this source: they are sized for the level (or pass) at the start, and grow
        // only where a partition outgrows its estimate.
        let tables_before = sink.bytes();
        loop {
            if next >= blocks.len() && (!Snk::LOCKSTEP || (more_after && failure.is_none())) {
                break;
            }
            if checks.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(Stop::Step(CountError::Cancelled.into()));
            }
            let t0 = std::time::Instant::now();
            let mut sources = None;
            if failure.is_none() && next < blocks.len() {
                // The round's slice of the source, taken in pieces: the records a source class gives vary
                // along the level (a pass keeps the records of some partitions only, and which ones a class
                // reaches follows its key), so the estimate from the round before can be far off. The first
                // piece is three quarters of what that estimate asks for; each next one is what the records
                // so far ask for at the rate this round has measured, until the round is nearly full, its
                // source classes are used up, or the source is done.
                let mut n = 0usize;
                let mut kept = 0usize;
                // As many source classes as a round of records at a quarter of a record each, at most.
                let most = self.max_sources.min((round as f64 / 0.25) as usize).max(1);
                loop {
                    let rate = if n > 0 && kept > 0 {
                        (kept as f64 / n as f64).max(0.25) * 1.05
                    } else {
                        self.per_source
                    };
                    let mut want = (round.saturating_sub(kept) as f64 / rate) as usize;
                    if n == 0 && ctx.emit {
                        want -= want / 4;
                    }
                    let want = want.min(most.saturating_sub(n));
                    let nb = ((want as f64 / per_block) as usize).clamp(1, blocks.len() - next);
                    let range = &blocks[next..next + nb];
                    next += nb;
                    let res = self.expand(ctx, src, range, checks.portable);
                    n += range
                        .iter()
                        .map(|&(q, b)| src.block_len(q, b))
                        .sum::<usize>();
                    match res {
                        Ok(()) => {}
                        Err(e) if Snk::LOCKSTEP => {
                            failure = Some(e);
                            break;
                        }
                        Err(e) => return Err(Stop::Step(e)),
                    }
                    if !ctx.emit || next >= blocks.len() || n as f64 + per_block > most as f64 {
                        break;
                    }
                    kept = self
                        .workers
                        .iter_mut()
                        .map(|m| {
                            let w = m.get_mut().unwrap_or_else(PoisonError::into_inner);
                            w.bufs.iter().map(Vec::len).sum::<usize>()
                        })
                        .sum();
                    if kept >= round - round / 16 {
                        break;
                    }
                }
                consumed += n;
                sources = Some(n);
            }
            let t1 = std::time::Instant::now();
            let mut views: Vec<&mut Worker<K, D>> = self
                .workers
                .iter_mut()
                .map(|m| m.get_mut().unwrap_or_else(PoisonError::into_inner))
                .collect();
            // The records kept in this pass (those of the partitions it builds).
            let now: u64 = views
                .iter()
                .map(|w| w.bufs.iter().map(Vec::len).sum::<usize>() as u64)
                .sum();
            if let Some(n) = sources {
                self.per_source = (now as f64 / n.max(1) as f64).max(0.25) * 1.05;
            }
            self.records += now;
            let more = failure.is_none() && (next < blocks.len() || more_after);
            let go_on = if ctx.emit {
                sink.round(&mut views, more, &mut failure)?
            } else {
                more
            };
            let buf_bytes: u64 = views.iter().map(|w| w.bytes()).sum();
            // (The record buffers' part of it: all but the source counters.)
            let srcs_bytes: usize = views
                .iter()
                .map(|w| w.srcs.capacity() * std::mem::size_of::<[D; 2]>())
                .sum();
            self.peak_bufs = self.peak_bufs.max(buf_bytes - srcs_bytes as u64);
            // Buffers that grew past their share (a thread that took more of the round than the other, or a
            // partition that got more than its share) are shrunk back: the next round's records fall
            // otherwise, and buffers that kept the most any round gave them would hold the sum of the biggest
            // shares, not a round's records.
            for w in &mut views {
                for b in &mut w.bufs {
                    b.clear();
                    if b.capacity() > per_buf + 64 {
                        b.shrink_to(per_buf);
                    }
                }
                w.srcs.clear();
                if bounded && w.srcs.capacity() > per_srcs + per_srcs / 4 + 64 {
                    w.srcs.shrink_to(per_srcs);
                }
            }
            self.timing.0 += (t1 - t0).as_secs_f64();
            self.timing.1 += t1.elapsed().as_secs_f64();
            self.rounds += 1;
            // (Workers in lockstep check at the steps that build a level, as they exchange records.)
            if let (Some(limit), None, true) =
                (checks.max_memory, &failure, ctx.emit || !Snk::LOCKSTEP)
            {
                let table_bytes = sink.bytes();
                let held = src.bytes() + buf_bytes + pool.bytes() + checks.held;
                let used = held + table_bytes;
                if used > limit {
                    // What is held now, and the tables' growth so far extrapolated to the rest of the source
                    // (the tables themselves were sized for the whole step at its start: extrapolating their
                    // bytes, not their growth, named many times the memory the step needs).
                    let grown = table_bytes.saturating_sub(tables_before) as f64;
                    let rest = total.saturating_sub(consumed) as f64 / consumed.max(1) as f64;
                    let needed = used + (grown * rest) as u64;
                    let e = StepError::Fatal(CountError::MemoryLimit {
                        pegs: next_pegs(ctx.k, ctx.pegs),
                        needed,
                        limit,
                        classes_so_far: 0,
                    });
                    if !Snk::LOCKSTEP {
                        return Err(Stop::Step(e));
                    }
                    failure = Some(e);
                }
            }
            if !go_on {
                self.ended = Snk::LOCKSTEP;
                break;
            }
        }
        match failure {
            Some(e) => Err(Stop::Step(e)),
            None => Ok(()),
        }
    }

    /// Expand the blocks `range` of `src` into the workers' buffers (on rayon's threads, with more than one
    /// worker).
    fn expand<S: Counter>(
        &self,
        ctx: &Ctx<'_>,
        src: Source<'_, K, S>,
        range: &[(usize, usize)],
        portable: bool,
    ) -> Result<(), StepError> {
        let nthreads = self.workers.len();
        let workers = &self.workers;
        let task = |chunk: &[(usize, usize)]| -> Result<(), StepError> {
            let i = rayon::current_thread_index().unwrap_or(0) % nthreads;
            let mut w = workers[i].lock().unwrap_or_else(PoisonError::into_inner);
            let mut c = 0;
            while c < chunk.len() {
                // Consecutive blocks of one partition are read in one go.
                let (q, b) = chunk[c];
                let mut e = c + 1;
                while e < chunk.len() && chunk[e].0 == q {
                    e += 1;
                }
                src.expand(portable, ctx, q, b, b + (e - c), &mut w)?;
                w.flush(ctx);
                c = e;
            }
            Ok(())
        };
        if nthreads == 1 {
            range.chunks(TASK_BLOCKS).try_for_each(task)
        } else {
            range.par_chunks(TASK_BLOCKS).try_for_each(task)
        }
    }

    /// The statistics of everything expanded (summed over the workers), the timings and the number of rounds;
    /// the buffers go back to the pool.
    pub(crate) fn finish(self) -> Result<(Acc, (f64, f64), u32), CountError> {
        let mut acc = Acc::default();
        for m in self.workers {
            let w = m.into_inner().unwrap_or_else(PoisonError::into_inner);
            acc = acc.merge(w.acc, self.pegs)?;
            for b in w.bufs {
                self.pool.give_buf(b);
            }
            self.pool.give_srcs(w.srcs);
        }
        Ok((acc, self.timing, self.rounds))
    }
}

/// The tables of the partitions a pass builds (`ctx.first..ctx.first + ctx.parts` of the next level), filled
/// from one or more source levels or parts of one ([`Builder::feed`]): a level built in one go is fed its
/// whole source once; a spilling store feeds it the source level one stored bucket at a time. The round
/// driver on every thread, with this process's tables as its sink.
pub(crate) struct Builder<'p, K: TableKey, D: Counter> {
    rounds: Rounds<'p, K, D>,
    sink: LocalTables<K, D>,
    /// Records per round (at most: a source smaller than a round gets rounds of its size).
    round: usize,
}

impl<'p, K: TableKey, D: Counter> Builder<'p, K, D> {
    /// Empty tables for the partitions `ctx` builds, for a next level of about `expected` classes in all,
    /// filled in rounds of about `round` records (see [`round_records_for`]; smaller where a memory limit
    /// has no room for that).
    pub(crate) fn new(
        ctx: &Ctx<'_>,
        expected: usize,
        round: usize,
        pool: &'p Pool<K, D>,
    ) -> Builder<'p, K, D> {
        let out = ctx.out;
        let nparts = ctx.parts;
        let per_part = if ctx.emit {
            expected.div_ceil(out.parts())
        } else {
            0
        };
        let nthreads = rayon::current_num_threads().max(1);
        pool.trim(nparts, nparts * nthreads, nthreads, nthreads);
        // On both cores: arrays taken from the pool may have to grow, and fresh memory is zeroed.
        let tables: Vec<Table<K, D>> = (0..nparts)
            .into_par_iter()
            .map(|_| Table::new(out, per_part, pool))
            .collect();
        Builder {
            rounds: Rounds::new(pool, nthreads, ctx.pegs),
            sink: LocalTables {
                tables,
                parallel: nthreads > 1,
            },
            round,
        }
    }

    /// Records added so far.
    pub(crate) fn records(&self) -> u64 {
        self.rounds.records()
    }

    /// The most bytes of record buffers a round held (their capacity).
    pub(crate) fn peak_buffers(&self) -> u64 {
        self.rounds.peak_bufs
    }

    /// Let a round expand at most `n` source classes (see [`Rounds::limit_sources`]).
    pub(crate) fn limit_sources(&mut self, n: usize) {
        self.rounds.limit_sources(n);
    }

    /// Bytes held now by the tables and the round buffers (their capacity, as the memory limit counts them).
    pub(crate) fn bytes(&mut self) -> u64 {
        let bufs: u64 = self
            .rounds
            .workers
            .iter_mut()
            .map(|m| m.get_mut().unwrap_or_else(PoisonError::into_inner).bytes())
            .sum();
        bufs + self.sink.bytes()
    }

    /// Expand `src` and add its records into the tables, in rounds. `held` counts memory held besides the
    /// source, the tables and the pool, for the memory limit.
    pub(crate) fn feed<S: Counter>(
        &mut self,
        ctx: &Ctx<'_>,
        src: Source<'_, K, S>,
        opts: &Options<'_>,
        held: u64,
    ) -> Result<(), StepError> {
        let round = round_within(self.round, src.len());
        match self.rounds.feed(
            ctx,
            src,
            &mut self.sink,
            &Checks::of(opts, held),
            round,
            false,
        ) {
            Ok(()) => Ok(()),
            Err(Stop::Step(e)) => Err(e),
            Err(Stop::Sink(never)) => match never {},
        }
    }

    /// The tables, the statistics of everything fed, and the timings; the buffers go back to the pool.
    pub(crate) fn finish(self) -> Result<Built<K, D>, StepError> {
        let (acc, (expand_secs, merge_secs), rounds) = self.rounds.finish()?;
        Ok(Built {
            acc,
            tables: self.sink.tables,
            expand_secs,
            merge_secs,
            rounds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The biggest round whose estimate fits, from the full round down to the least: the full round when it
    /// fits, none when the least does not, and otherwise the last size that fits (estimates grow with the
    /// round).
    #[test]
    fn fit_round_takes_the_biggest_round_that_fits() {
        let cost = |r: usize| 1_000 + 14 * r as u64;
        assert_eq!(
            fit_round(1 << 20, 1 << 18, |r| cost(r) <= cost(1 << 20)),
            Some(1 << 20)
        );
        assert_eq!(fit_round(1 << 20, 1 << 18, |r| cost(r) <= 1_000), None);
        for limit in [cost(1 << 18), cost(300_000), cost(1 << 20) - 1, 5_000_000] {
            let r = fit_round(1 << 20, 1 << 18, |r| cost(r) <= limit).unwrap();
            assert!(cost(r) <= limit && cost(r + 1) > limit, "{limit}: {r}");
        }
        // A least round no smaller than the full one: the full round or nothing.
        assert_eq!(fit_round(100, 100, |r| r < 100), None);
    }

    /// Rounds as big as the level where the memory allows; a quarter of it at least; the fixed round size
    /// below both; never more records than the source level can give.
    #[test]
    fn round_sizes() {
        let floor = round_records::<u32>();
        assert_eq!(round_records_for::<u32>(10), floor);
        assert_eq!(round_records_for::<u32>(40_000_000), 40_000_000);
        assert_eq!(round_records_least::<u32>(40_000_000), 10_000_000);
        assert_eq!(round_records_least::<u32>(floor), floor);
        assert_eq!(round_within(floor, 100), 100 * 12 + 1024);
        assert_eq!(round_within(1000, 10_000_000), 1000);
        // 8-byte records with a quarter of slack, and a source pair of 8-byte counters per four records.
        assert_eq!(round_bytes::<u32>(8, 4_000), 4_000 * 10 + 1_000 * 16);
    }
}
