//! One worker's run, level by level, with its checkpoints.

use std::time::Instant;

use super::checkpoint::{Checkpoint, Resume, ShareData};
use super::error::ShardError;
use super::figures::{ShardStep, WorkerFigures};
use super::share::{AnyShare, ShareLevel, read_share, recycle};
use super::step::{Traffic, build, conclude, freeze_share, memory_needed, step_wide};
use super::wire::{NoteBody, Transport};
use super::worker::Sh;
use crate::counter::Counter;
use crate::level::{Pool, Table, TableKey};
use crate::step::{Ctx, State, fit_round, next_pegs};

/// One worker's level-by-level enumeration (from the starts of `sh`, or from `resume`), calling `hook` with
/// each level before it is expanded. Returns the state at the end and the level it resumed from.
pub(super) fn run_with<N: Counter, K: TableKey, T: Transport + ?Sized, H: LevelHook<N>>(
    sh: &Sh<'_>,
    net: &mut T,
    mut checkpoint: Option<&mut dyn Checkpoint>,
    resume: Option<Resume<'_>>,
    hook: &mut H,
    figures: &mut WorkerFigures,
) -> Result<(State, Option<u32>), ShardError> {
    let k = sh.k;
    let shape = sh.opts.shape;
    let pool: Pool<K, N> = Pool::new();
    let wide_pool: Pool<K, u128> = Pool::new();
    let (mut st, mut level, resumed_from) = match resume {
        Some(r) => {
            let loaded = read_share::<N>(sh, r.state.wide, r.share);
            let notes = sh.gather(net, NoteBody::Loaded(loaded.as_ref().err().cloned()))?;
            for (w, n) in notes.iter().enumerate() {
                if let NoteBody::Loaded(Some(m)) = n {
                    return Err(ShardError::Resume {
                        worker: w,
                        process: shape.process_of(w),
                        message: m.clone(),
                    });
                }
            }
            let share = loaded.map_err(|m| ShardError::Resume {
                worker: sh.me,
                process: sh.process(),
                message: m,
            })?;
            if r.state.sizes.is_empty() {
                return Err(ShardError::Resume {
                    worker: sh.me,
                    process: sh.process(),
                    message: "the checkpoint's state has no level sizes".to_string(),
                });
            }
            let from = r.state.pegs;
            (r.state, share, Some(from))
        }
        None => {
            let layout = sh.layout::<K>(sh.starts.len());
            let share = AnyShare::Narrow(ShareLevel::<N>::start(sh, layout));
            let mut keys: Vec<u64> = sh.starts.iter().map(|&s| sh.k.normalize(s).0).collect();
            keys.sort_unstable();
            keys.dedup();
            let pegs = sh.starts.first().map_or(0, |s| s.count_ones());
            let st = State::start(pegs, keys.len() as u64);
            (st, share, None)
        }
    };
    let mut limits: Vec<Option<u64>> = vec![None; shape.processes];
    let mut classes_so_far: u64 = st.levels.iter().map(|l| l.classes).sum();
    while st.goes_on(sh.opts.max_levels) {
        let t = Instant::now();
        let pegs = st.pegs;
        hook.level(sh, net, pegs, &level)?;
        let total = st.sizes.last().copied().unwrap_or(0);
        let last = st.last(k, sh.opts.max_levels);
        let expected = st.expected(last);
        let ctx = Ctx {
            k,
            mixer: sh.mixer,
            pegs,
            finish_key: sh.finish_key,
            out: sh.layout::<K>(expected),
            emit: !last,
            filter: None,
            first: 0,
            parts: 0,
        };
        let ctx = Ctx {
            parts: ctx.out.parts(),
            ..ctx
        };
        // Memory: every process's workers' estimates against its limit. Where a worker's part of the limit
        // has no room for its rounds, smaller ones, down to the fewest records an exchange takes.
        let needs = |round: usize| {
            memory_needed::<K, N>(sh, &level, (expected, round), last, (&pool, &wide_pool))
                + hook.bytes()
        };
        let full = sh.round_for::<K>(expected, level.len());
        let round = match sh.opts.max_memory {
            Some(limit) => {
                let mine = limit / shape.per_process.max(1) as u64;
                let least = sh.least_round().min(full);
                fit_round(full, least, |r| needs(r) <= mine).unwrap_or(least)
            }
            None => full,
        };
        let needed = needs(round);
        figures.estimate_max = figures.estimate_max.max(needed);
        let notes = sh.gather(
            net,
            NoteBody::Start {
                needed,
                limit: sh.opts.max_memory,
            },
        )?;
        let mut sums = vec![0u64; shape.processes];
        for (w, n) in notes.iter().enumerate() {
            if let NoteBody::Start { needed, limit } = n {
                let p = shape.process_of(w);
                sums[p] += needed;
                if w % shape.per_process.max(1) == 0 {
                    limits[p] = *limit;
                }
            }
        }
        for (p, &sum) in sums.iter().enumerate() {
            if let Some(l) = limits[p]
                && sum > l
            {
                return Err(ShardError::Memory {
                    process: p,
                    pegs: next_pegs(k, pegs),
                    needed: sum,
                    limit: l,
                    classes_so_far: classes_so_far + total,
                });
            }
        }
        let mut traffic = Traffic::default();
        let mut freeze_secs = 0.0;
        let so_far = classes_so_far + total;
        let share_len = level.len() as u64;
        let (acc, next_total, next, rebuilt) = match &level {
            AnyShare::Narrow(src) => {
                let b = build::<K, N, N, T>(
                    sh,
                    &ctx,
                    src,
                    (expected, round),
                    net,
                    &pool,
                    &mut traffic,
                )?;
                match conclude(sh, net, &ctx, b, &pool, false, &limits, so_far)? {
                    Some((acc, n, t)) => (acc, n, Next::Narrow(t), false),
                    None => {
                        let (acc, n, t) = step_wide::<K, N, T>(
                            sh,
                            &ctx,
                            src,
                            (expected, round),
                            net,
                            &wide_pool,
                            &mut traffic,
                            (&limits, so_far),
                        )?;
                        (acc, n, Next::Wide(t), true)
                    }
                }
            }
            AnyShare::Wide(src) => {
                let (acc, n, t) = step_wide::<K, u128, T>(
                    sh,
                    &ctx,
                    src,
                    (expected, round),
                    net,
                    &wide_pool,
                    &mut traffic,
                    (&limits, so_far),
                )?;
                (acc, n, Next::Wide(t), false)
            }
        };
        if acc.classes != total {
            return Err(ShardError::Protocol(format!(
                "the level with {pegs} pegs has {total} classes, but the workers expanded {}",
                acc.classes
            )));
        }
        // The level expanded is recycled before the next is frozen, so that freezing reuses its memory.
        let empty = AnyShare::Narrow(ShareLevel {
            layout: level.layout(),
            first: 0,
            parts: Vec::new(),
        });
        recycle(std::mem::replace(&mut level, empty), &pool, &wide_pool);
        // The round buffers go back to the system: the next level, frozen beside the tables, is this step's
        // peak (the next step takes new buffers).
        pool.trim(usize::MAX, 0, 0, 1);
        wide_pool.trim(usize::MAX, 0, 0, 1);
        let tf = Instant::now();
        level = match next {
            Next::Narrow(t) => AnyShare::Narrow(freeze_share(sh, ctx.out, t, &pool)),
            Next::Wide(t) => AnyShare::Wide(freeze_share(sh, ctx.out, t, &wide_pool)),
        };
        freeze_secs += tf.elapsed().as_secs_f64();
        classes_so_far += acc.classes;
        st.advance(k, &acc, if last { 0 } else { next_total }, level.is_wide())?;
        figures.classes_held_max = figures.classes_held_max.max(share_len);
        figures.classes_held += share_len;
        figures.records_sent += traffic.sent;
        figures.records_sent_remote += traffic.sent_remote;
        figures.records_received += traffic.received;
        figures.records_received_remote += traffic.received_remote;
        figures.wire_sent += traffic.wire_sent;
        figures.wire_received += traffic.wire_received;
        figures.rounds += u64::from(traffic.rounds);
        figures.expand_secs += traffic.expand_secs;
        figures.merge_secs += traffic.merge_secs;
        figures.exchange_secs += traffic.exchange_secs;
        if let Some(p) = sh.opts.progress
            && let Some(row) = st.levels.last()
        {
            p(row);
        }
        if let Some(sink) = sh.opts.stats {
            sink(&ShardStep {
                pegs,
                classes: total,
                share: share_len,
                next_share: level.len() as u64,
                records_sent: traffic.sent,
                records_received: traffic.received,
                wire_sent: traffic.wire_sent,
                wire_received: traffic.wire_received,
                rounds: traffic.rounds,
                rebuilt_wide: rebuilt,
                expand_secs: traffic.expand_secs,
                merge_secs: traffic.merge_secs,
                exchange_secs: traffic.exchange_secs,
                freeze_secs,
                total_secs: t.elapsed().as_secs_f64(),
                estimate: needed,
                round_records: round as u64,
            });
        }
        // Save the next level (not after the last one: there is none).
        if let Some(cp) = checkpoint.as_deref_mut()
            && !last
            && next_total > 0
        {
            let tc = Instant::now();
            save(sh, net, cp, &st, &level)?;
            figures.checkpoint_secs += tc.elapsed().as_secs_f64();
        }
    }
    hook.end();
    Ok((st, resumed_from))
}

/// Every worker saves its share; then worker 0 records the state; every worker learns whether all went well.
pub(super) fn save<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    cp: &mut dyn Checkpoint,
    st: &State,
    share: &dyn ShareData,
) -> Result<(), ShardError> {
    let shape = sh.opts.shape;
    let saved = cp.save(st.pegs, share).map(|mut s| {
        s.worker = sh.me as u32;
        s
    });
    let notes = sh.gather(net, NoteBody::Saved(saved))?;
    let mut shares = Vec::with_capacity(notes.len());
    for (w, n) in notes.into_iter().enumerate() {
        match n {
            NoteBody::Saved(Ok(s)) => shares.push(s),
            NoteBody::Saved(Err(message)) => {
                return Err(ShardError::Checkpoint {
                    worker: w,
                    process: shape.process_of(w),
                    message,
                });
            }
            _ => {}
        }
    }
    let committed = if sh.me == 0 {
        cp.commit(st, &shares).err()
    } else {
        None
    };
    let notes = sh.gather(net, NoteBody::Committed(committed))?;
    if let Some(NoteBody::Committed(Some(message))) = notes.into_iter().next() {
        return Err(ShardError::Checkpoint {
            worker: 0,
            process: 0,
            message,
        });
    }
    Ok(())
}

/// What a run does with each level before it is expanded, besides expanding it.
pub(super) trait LevelHook<N: Counter> {
    /// The level with `pegs` pegs (this worker's share of it), before it is expanded.
    fn level<T: Transport + ?Sized>(
        &mut self,
        sh: &Sh<'_>,
        net: &mut T,
        pegs: u32,
        level: &AnyShare<N>,
    ) -> Result<(), ShardError>;
    /// Bytes held (for the memory estimates).
    fn bytes(&self) -> u64;
    /// The run ended.
    fn end(&mut self);
}

/// A worker's tables of the next level, with narrow or wide counters.
enum Next<K, N> {
    Narrow(Vec<Table<K, N>>),
    Wide(Vec<Table<K, u128>>),
}
