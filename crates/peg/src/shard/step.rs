//! One worker's level step: its share expanded in rounds, records exchanged with the other workers and added
//! into the tables of its partitions, then the step agreed on by all.

use std::sync::Arc;
use std::time::Instant;

use super::error::ShardError;
use super::records::{LocalBody, PartRecs, Received, WIRE_PARCEL_BYTES, decode, encode_parcels};
use super::share::{AnyShare, ShareLevel};
use super::wire::{Body, FAILED, Failure, MORE, NoteBody, Parcel, Transport};
use super::worker::Sh;
use crate::count::CountError;
use crate::counter::Counter;
use crate::level::{INIT_LOAD, Layout, Pool, Rec, Table, TableKey};
use crate::step::{
    Acc, BASE_BYTES, Checks, Ctx, Rounds, Sink, StepError, Stop, Worker, next_pegs, warm_worth,
};

/// Counters of a step's records and bytes.
#[derive(Default, Clone, Copy)]
pub(super) struct Traffic {
    pub(super) sent: u64,
    pub(super) sent_remote: u64,
    pub(super) received: u64,
    pub(super) received_remote: u64,
    pub(super) wire_sent: u64,
    pub(super) wire_received: u64,
    pub(super) rounds: u32,
    pub(super) expand_secs: f64,
    pub(super) merge_secs: f64,
    pub(super) exchange_secs: f64,
}

/// The result of one worker's build of a level step.
pub(super) struct Built<K, D> {
    pub(super) acc: Acc,
    pub(super) tables: Vec<Table<K, D>>,
    pub(super) failure: Failure,
}

/// The [`Sink`] of a cluster worker's level step: each round, this worker's records go to the workers that
/// own their partitions (as they are to a worker of the same process, byte-packed to one in another), and
/// the records this worker receives are added into the tables of its own partitions.
pub(super) struct Exchange<'a, 's, K, D: Counter, T: ?Sized> {
    sh: &'a Sh<'s>,
    net: &'a mut T,
    out: Layout,
    /// The partitions of `out` this step builds, `first..end` (the whole level, or a pass's range of a
    /// spilling step), split among the workers as [`owned_in`] says; the workers' buffers hold them from
    /// `first`.
    first: usize,
    end: usize,
    /// This worker's partitions of them, `lo..hi`, and their tables.
    lo: usize,
    hi: usize,
    tables: Vec<Table<K, D>>,
    pool: &'a Pool<K, D>,
    /// Capacity of a fresh record buffer, and of a fresh table of source counters.
    per_buf: usize,
    per_srcs: usize,
    remap: Vec<u32>,
    /// This worker's source counters of the round before, while other workers of this process may still
    /// read them (they came with the records it handed over): taken back into `pool` once the next
    /// exchange has returned, when every worker is done with them. Only their sender recycles a round's
    /// counters, and at a point that does not depend on the order in which the workers finish a round, so
    /// that what each worker's pool holds (which its memory check counts) depends on the input only.
    lent: Option<Arc<Vec<[D; 2]>>>,
    traffic: &'a mut Traffic,
}

impl<K: TableKey, D: Counter, T: Transport + ?Sized> Sink<K, D> for Exchange<'_, '_, K, D, T> {
    type Error = ShardError;
    const LOCKSTEP: bool = true;

    fn round(
        &mut self,
        workers: &mut [&mut Worker<K, D>],
        more: bool,
        failure: &mut Option<StepError>,
    ) -> Result<bool, Stop<ShardError>> {
        let sh = self.sh;
        let pool = self.pool;
        let (out, lo, hi) = (self.out, self.lo, self.hi);
        let (first, end) = (self.first, self.end);
        let nworkers = sh.workers();
        let my_process = sh.process();
        let failed = failure.is_some();
        // One parcel to every worker (possibly empty): it carries this worker's flags.
        let flags = (u8::from(more) * MORE) | (u8::from(failed) * FAILED);
        let t1 = Instant::now();
        let mut parcels = Vec::with_capacity(nworkers);
        let w = &mut *workers[0];
        let srcs = Arc::new(std::mem::replace(
            &mut w.srcs,
            pool.take_srcs(self.per_srcs),
        ));
        // Whether another worker (of this process) is handed this round's source counters.
        let mut lent = false;
        for d in 0..nworkers {
            let (dlo, dhi) = owned_in(first, end, d, nworkers);
            let (dlo, dhi) = (dlo - first, dhi - first);
            let n: usize = w.bufs[dlo..dhi].iter().map(Vec::len).sum();
            self.traffic.sent += n as u64;
            let parcel = |body| Parcel {
                to: d as u32,
                from: sh.me as u32,
                flags,
                body,
            };
            if n == 0 || failed {
                parcels.push(parcel(Body::Empty));
            } else if sh.opts.shape.process_of(d) != my_process {
                self.traffic.sent_remote += n as u64;
                let packed =
                    encode_parcels(&w.bufs[dlo..dhi], &srcs, &mut self.remap, WIRE_PARCEL_BYTES);
                for bytes in packed {
                    self.traffic.wire_sent += bytes.len() as u64;
                    parcels.push(parcel(Body::Wire(bytes)));
                }
                for b in &mut w.bufs[dlo..dhi] {
                    b.clear();
                }
            } else {
                lent |= d != sh.me;
                let recs: Vec<Vec<Rec<K, D::Src>>> = w.bufs[dlo..dhi]
                    .iter_mut()
                    .map(|b| std::mem::replace(b, pool.take_buf(self.per_buf)))
                    .collect();
                parcels.push(parcel(Body::Local(Arc::new(LocalBody {
                    srcs: Arc::clone(&srcs),
                    recs,
                }))));
            }
        }
        for b in &mut w.bufs {
            b.clear();
        }
        let mut got = self
            .net
            .exchange(parcels)
            .map_err(|e| Stop::Sink(e.into()))?;
        self.traffic.rounds += 1;
        // Every worker has merged the round before (it sent this round's parcels after): the counters lent
        // then are this worker's alone again.
        if let Some(v) = self.lent.take().and_then(|a| Arc::try_unwrap(a).ok()) {
            pool.give_srcs(v);
        }
        // In the order of the senders, whatever the order of arrival (a sender's parcels stay in the order it
        // sent them): the buffers received go into the pool in an order that depends on the input only.
        got.sort_by_key(|p| p.from);
        // Every worker sends every worker at least one parcel (it carries the sender's flags).
        let mut heard = vec![false; nworkers];
        for p in &got {
            if let Some(h) = heard.get_mut(p.from as usize) {
                *h = true;
            }
        }
        if got.iter().any(|p| p.from as usize >= nworkers) || heard.contains(&false) {
            return Err(Stop::Sink(ShardError::Protocol(format!(
                "worker {} received parcels from workers {:?} in an exchange of {nworkers} workers",
                sh.me,
                got.iter().map(|p| p.from).collect::<Vec<_>>()
            ))));
        }
        let any_more = got.iter().any(|p| p.flags & MORE != 0);
        let any_failed = got.iter().any(|p| p.flags & FAILED != 0);
        // Unpack what came.
        let mut bodies: Vec<Received<K, D>> = Vec::with_capacity(got.len());
        // Whether each body's buffers are this worker's to recycle: its own. Those another worker lent go
        // back to it (see `lent`), never into this worker's pool, even when this worker happens to drop them
        // last; those unpacked from another process's bytes are dropped once merged (their sizes are the
        // parcels', not the pool's).
        let mut own: Vec<bool> = Vec::with_capacity(got.len());
        for p in got {
            match p.body {
                Body::Empty => {}
                Body::Wire(bytes) => {
                    self.traffic.wire_received += bytes.len() as u64;
                    let (s, r) = decode::<K, D>(&bytes, (&out, lo, hi - lo)).map_err(|e| {
                        Stop::Sink(ShardError::Protocol(format!("from worker {}: {e}", p.from)))
                    })?;
                    self.traffic.received_remote += r.records() as u64;
                    bodies.push((Arc::new(s), r));
                    own.push(false);
                }
                Body::Local(a) => {
                    let body = a.downcast::<LocalBody<K, D>>().map_err(|_| {
                        Stop::Sink(ShardError::Protocol(format!(
                            "worker {} sent records of another kind",
                            p.from
                        )))
                    })?;
                    let body = Arc::try_unwrap(body).unwrap_or_else(|b| LocalBody {
                        srcs: Arc::clone(&b.srcs),
                        recs: b.recs.clone(),
                    });
                    if body.recs.len() != hi - lo {
                        return Err(Stop::Sink(ShardError::Protocol(format!(
                            "worker {} sent records of {} partitions where {} were expected",
                            p.from,
                            body.recs.len(),
                            hi - lo
                        ))));
                    }
                    bodies.push((body.srcs, PartRecs::Bufs(body.recs)));
                    own.push(p.from as usize == sh.me);
                }
            }
        }
        self.traffic.exchange_secs += t1.elapsed().as_secs_f64();
        // Add them into the tables, partition by partition (each table is read into the cache once).
        let t2 = Instant::now();
        let received: u64 = bodies.iter().map(|(_, r)| r.records() as u64).sum();
        self.traffic.received += received;
        if failure.is_none() && !any_failed {
            'merge: for (i, t) in self.tables.iter_mut().enumerate() {
                let n: usize = bodies.iter().map(|(_, r)| r.part(i).len()).sum();
                if n == 0 {
                    continue;
                }
                if warm_worth(t, n) {
                    t.warm();
                }
                for (s, r) in &bodies {
                    if t.add_recs(r.part(i), s).is_none() {
                        *failure = Some(StepError::Narrow);
                        break 'merge;
                    }
                }
            }
        }
        for ((s, recs), own) in bodies.into_iter().zip(own) {
            if let PartRecs::Bufs(recs) = recs {
                for r in recs {
                    pool.give_buf(r);
                }
            }
            if own && let Ok(v) = Arc::try_unwrap(s) {
                pool.give_srcs(v);
            }
        }
        if lent {
            self.lent = Some(srcs);
        } else if let Ok(v) = Arc::try_unwrap(srcs) {
            pool.give_srcs(v);
        }
        self.traffic.merge_secs += t2.elapsed().as_secs_f64();
        Ok(any_more && !any_failed)
    }

    fn bytes(&self) -> u64 {
        self.tables.iter().map(Table::bytes).sum()
    }
}

/// Build this worker's tables of the next level from its share `src`, exchanging records with the other
/// workers in rounds until none has sources left.
pub(super) fn build<K: TableKey, S: Counter, D: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    ctx: &Ctx<'_>,
    src: &ShareLevel<S>,
    (expected, round): (usize, usize),
    net: &mut T,
    pool: &Pool<K, D>,
    traffic: &mut Traffic,
) -> Result<Built<K, D>, ShardError> {
    build_with(
        sh,
        ctx,
        (expected, round),
        net,
        pool,
        traffic,
        |rounds, sink, checks, round| rounds.feed(ctx, src.source(), sink, checks, round, false),
    )
}

/// Build this worker's tables of the partitions `ctx` builds (of a next level of about `expected` classes),
/// exchanging records with the other workers in rounds of `round` records until none has sources left: `feed` gives the round
/// driver this worker's sources (every one but the last with `more_after`, then at least one without, so
/// that the worker goes on in step with the others until all are done).
pub(super) fn build_with<K, D, T, F>(
    sh: &Sh<'_>,
    ctx: &Ctx<'_>,
    (expected, round): (usize, usize),
    net: &mut T,
    pool: &Pool<K, D>,
    traffic: &mut Traffic,
    feed: F,
) -> Result<Built<K, D>, ShardError>
where
    K: TableKey,
    D: Counter,
    T: Transport + ?Sized,
    F: FnOnce(
        &mut Rounds<'_, K, D>,
        &mut Exchange<'_, '_, K, D, T>,
        &Checks<'_>,
        usize,
    ) -> Result<(), Stop<ShardError>>,
{
    let out = ctx.out;
    let nparts = out.parts();
    let (first, end) = (ctx.first, ctx.first + ctx.parts);
    let (lo, hi) = owned_in(first, end, sh.me, sh.workers());
    let per_part = if ctx.emit {
        expected.div_ceil(nparts)
    } else {
        0
    };
    pool.trim(hi - lo, 2 * ctx.parts, 4, 1);
    let per_process = sh.opts.shape.per_process.max(1) as u64;
    let checks = Checks {
        portable: sh.opts.portable,
        cancel: None,
        max_memory: sh.opts.max_memory.map(|m| m / per_process),
        held: 0,
    };
    let mut sink = Exchange {
        sh,
        net,
        out,
        first,
        end,
        lo,
        hi,
        tables: (lo..hi).map(|_| Table::new(out, per_part, pool)).collect(),
        pool,
        per_buf: round / ctx.parts.max(1) * 5 / 4 + 16,
        per_srcs: round / 6,
        remap: Vec::new(),
        lent: None,
        traffic,
    };
    // One worker: this thread expands its share itself.
    let mut rounds = Rounds::new(pool, 1, ctx.pegs);
    let fed = feed(&mut rounds, &mut sink, &checks, round);
    let (acc, (expand_secs, _), _) = rounds.finish()?;
    let Exchange {
        tables, traffic, ..
    } = sink;
    traffic.expand_secs += expand_secs;
    let failure = match fed {
        Ok(()) => Failure::None,
        Err(Stop::Sink(e)) => return Err(e),
        Err(Stop::Step(StepError::Narrow)) => Failure::Narrow,
        Err(Stop::Step(StepError::Fatal(CountError::Overflow { pegs }))) => {
            Failure::Overflow { pegs }
        }
        Err(Stop::Step(StepError::Fatal(CountError::MemoryLimit { needed, .. }))) => {
            Failure::Memory {
                needed: needed * per_process,
            }
        }
        Err(Stop::Step(StepError::Fatal(e))) => return Err(e.into()),
    };
    Ok(Built {
        acc,
        tables,
        failure,
    })
}

/// The partitions worker `w` of `workers` owns among partitions `first..end` (a whole level: `0..parts`).
pub(super) fn owned_in(first: usize, end: usize, w: usize, workers: usize) -> (usize, usize) {
    (
        first + w * (end - first) / workers,
        first + (w + 1) * (end - first) / workers,
    )
}

/// What the workers agreed at the end of a level step.
pub(super) enum Verdict {
    /// The level's row statistics, summed over the workers, and the classes of the next level.
    Done(Acc, u64),
    /// Some narrow counter overflowed: build the level again with 128-bit counters.
    Narrow,
}

/// Tell the others how the step went; decide together.
#[allow(clippy::too_many_arguments)]
pub(super) fn agree_end<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    mine: (Acc, u64, Failure),
    pegs: u32,
    wide: bool,
    limits: &[Option<u64>],
    classes_so_far: u64,
) -> Result<Verdict, ShardError> {
    let (acc, next_len, failure) = mine;
    let notes = sh.gather(
        net,
        NoteBody::End {
            acc,
            next_len,
            failure,
        },
    )?;
    let mut total = Acc::default();
    let mut next = 0u64;
    let mut narrow = false;
    let mut memory: Option<(usize, u64)> = None;
    for (w, n) in notes.iter().enumerate() {
        let NoteBody::End {
            acc,
            next_len,
            failure,
        } = n
        else {
            continue;
        };
        match *failure {
            Failure::None => {}
            Failure::Narrow => narrow = true,
            Failure::Overflow { pegs } => return Err(CountError::Overflow { pegs }.into()),
            Failure::Memory { needed } => {
                if memory.is_none_or(|(_, m)| needed > m) {
                    memory = Some((sh.opts.shape.process_of(w), needed));
                }
            }
        }
        total = total.merge(*acc, pegs)?;
        next += next_len;
    }
    if let Some((process, needed)) = memory {
        return Err(ShardError::Memory {
            process,
            pegs: next_pegs(sh.k, pegs),
            needed,
            limit: limits.get(process).copied().flatten().unwrap_or(0),
            classes_so_far,
        });
    }
    if narrow {
        if wide {
            return Err(CountError::Overflow {
                pegs: next_pegs(sh.k, pegs),
            }
            .into());
        }
        return Ok(Verdict::Narrow);
    }
    Ok(Verdict::Done(total, next))
}

/// A step all workers agreed on: the summed statistics of the level expanded, the classes of the next level,
/// and this worker's tables of it.
pub(super) type Agreed<K, D> = (Acc, u64, Vec<Table<K, D>>);

/// One level step with 128-bit counters from the share `src` (narrow or already wide): build, then agree; an
/// overflow even at 128 bits is the error [`CountError::Overflow`]. `limits` are the processes' memory limits
/// and the number of classes so far, as [`conclude`] takes them.
#[allow(clippy::too_many_arguments)]
pub(super) fn step_wide<K: TableKey, S: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    ctx: &Ctx<'_>,
    src: &ShareLevel<S>,
    sizes: (usize, usize),
    net: &mut T,
    wide_pool: &Pool<K, u128>,
    traffic: &mut Traffic,
    (limits, so_far): (&[Option<u64>], u64),
) -> Result<Agreed<K, u128>, ShardError> {
    let b = build::<K, S, u128, T>(sh, ctx, src, sizes, net, wide_pool, traffic)?;
    let conclusion = conclude(sh, net, ctx, b, wide_pool, true, limits, so_far)?;
    conclusion.ok_or_else(|| {
        CountError::Overflow {
            pegs: next_pegs(ctx.k, ctx.pegs),
        }
        .into()
    })
}

/// Agree with the others on the step this worker built: the summed statistics, the next level's size and
/// this worker's tables of it (not frozen yet: the caller recycles the level expanded first, so that freezing
/// reuses its memory), or `None` when the level must be built again with 128-bit counters (the tables then go
/// back to the pool).
#[allow(clippy::too_many_arguments)]
pub(super) fn conclude<K: TableKey, D: Counter, T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    ctx: &Ctx<'_>,
    built: Built<K, D>,
    pool: &Pool<K, D>,
    wide: bool,
    limits: &[Option<u64>],
    classes_so_far: u64,
) -> Result<Option<Agreed<K, D>>, ShardError> {
    let ok = built.failure == Failure::None;
    let next_len = if ok {
        built.tables.iter().map(|t| t.len() as u64).sum()
    } else {
        0
    };
    let verdict = agree_end(
        sh,
        net,
        (built.acc, next_len, built.failure),
        ctx.pegs,
        wide,
        limits,
        classes_so_far,
    );
    match verdict {
        Ok(Verdict::Done(acc, next)) if ok => Ok(Some((acc, next, built.tables))),
        Ok(Verdict::Done(..)) => Err(ShardError::Protocol(
            "a worker's step failed but the others did not hear of it".to_string(),
        )),
        Ok(Verdict::Narrow) => {
            for t in built.tables {
                t.recycle(pool);
            }
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Freeze this worker's tables of a level of partitions `out` into its share.
pub(super) fn freeze_share<K: TableKey, D: Counter>(
    sh: &Sh<'_>,
    out: Layout,
    tables: Vec<Table<K, D>>,
    pool: &Pool<K, D>,
) -> ShareLevel<D> {
    let (lo, _) = sh.owned(&out, sh.me);
    ShareLevel {
        layout: out,
        first: lo,
        parts: tables
            .into_iter()
            .enumerate()
            .map(|(i, t)| t.freeze(lo + i, &out, pool))
            .collect(),
    }
}

/// Bytes a record of a round takes on its way to a worker of another process, besides its place in the
/// sender's buffers: packed into a parcel, carried by the transport and unpacked by the receiver (with its
/// share of the source counters), at `counter` bytes a counter (the per-record growth of the peak is in
/// docs/experiments/peg.md).
fn remote_record_bytes<K: TableKey>(counter: usize) -> u64 {
    (4 * (std::mem::size_of::<Rec<K>>() + counter / 2) + 6) as u64
}

/// Bytes a record of a round takes when it goes to another worker of the same process: the buffers that
/// replace the ones handed over, and the receiver's pool keeping them (shrunk back to their share after each
/// round; the measurements are in docs/experiments/peg.md).
fn local_record_bytes<K: TableKey>() -> u64 {
    4 * std::mem::size_of::<Rec<K>>() as u64
}

/// What a process of the cluster holds besides its workers' levels, tables and rounds: the program
/// ([`BASE_BYTES`]) and timely's threads and buffers, 8 MiB, and 10 MiB more for each other process.
const PROCESS_BYTES: u64 = BASE_BYTES + (8 << 20);
const PEER_BYTES: u64 = 10 << 20;

/// The memory this worker expects the next step to need (its part of its process's: the processes' limits
/// are checked against the sum of their workers'), for a next level of about `expected` classes built in
/// rounds of `round` records.
///
/// While the next level is built: this share, the tables and a round's buffers; while it is frozen (the share
/// expanded recycled into it, the buffers given back): the tables and the frozen next share. Besides: the
/// process's own memory ([`PROCESS_BYTES`], [`PEER_BYTES`]). The estimate covers every process's peak
/// resident memory (`crates/peg-cluster/tests/suite/memory.rs` checks it; the margins are in
/// docs/experiments/peg.md).
pub(super) fn memory_needed<K: TableKey, N: Counter>(
    sh: &Sh<'_>,
    level: &AnyShare<N>,
    (expected, round): (usize, usize),
    last: bool,
    pools: (&Pool<K, N>, &Pool<K, u128>),
) -> u64 {
    let (slot, counter) = if level.is_wide() {
        (std::mem::size_of::<K>() + 32, 16)
    } else {
        (
            std::mem::size_of::<K>() + 2 * std::mem::size_of::<N>(),
            std::mem::size_of::<N>(),
        )
    };
    let shape = sh.opts.shape;
    let workers = sh.workers();
    let mine = expected / workers + 1;
    let tables = (mine as f64 / INIT_LOAD * 1.07) as u64 * slot as u64;
    // A round's records and counters: the worker's own buffers (a quarter of slack; a source's two counters
    // for about six records), and for the share sent to other processes, the copies on the way.
    let bufs = if last {
        0
    } else {
        let r = round as u64;
        let local = shape.per_process.clamp(1, workers) as u64;
        let remote = workers as u64 - local;
        round_bytes_own::<K>(counter, r)
            + r * remote / workers as u64 * remote_record_bytes::<K>(counter)
            + r * (local - 1) / workers as u64 * local_record_bytes::<K>()
    };
    let (held_t, held_b) = pools.0.held();
    let (wide_t, wide_b) = pools.1.held();
    let per_class = if level.len() == 0 {
        12.0
    } else {
        level.bytes() as f64 / level.len() as f64
    };
    // The frozen next share's classes take up to 1.3 times the bytes of this share's (measured on the French
    // board building 19 pegs: 12.5 bytes a class expanded, 16 a class built, its counters wider and the
    // arrays of the level before reused for its partitions). The share and tables while building take about
    // 10% more than their arrays (the allocator, and tables grown past their estimate); the rest 5%.
    let tables = (held_t + wide_t).max(tables);
    let building = (level.bytes() + tables) / 10 * 11 + (held_b + wide_b).max(bufs) / 20 * 21;
    let freezing = ((mine as f64 * per_class * 1.3) as u64 + tables) / 20 * 21;
    let per_process = shape.per_process.max(1) as u64;
    let peers = shape.processes.max(1) as u64 - 1;
    let process = (PROCESS_BYTES + PEER_BYTES * peers) / per_process;
    building.max(freezing) + process
}

/// Bytes of a worker's own buffers of a round of `records` records with counters of `counter` bytes: its
/// records (a quarter of slack) and the source counters it hands over with them (a pair for about six).
fn round_bytes_own<K: TableKey>(counter: usize, records: u64) -> u64 {
    records * std::mem::size_of::<Rec<K>>() as u64 * 5 / 4 + records / 6 * 2 * counter as u64
}
