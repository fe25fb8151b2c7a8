//! The walks of the finishable set over dense bit sets: forward from the start, backward from the finish,
//! meeting in the middle.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::layer::{Bits, CHUNK, Layer, MAX_HOLES, MAX_LAYER_BITS, Ranks, prefix_table};
use super::sink::{ChunkJumps, Filter, Jumps, Level, Sink, each_successors, held};
use crate::count::CountError;
use crate::kernel::Kernel;
use crate::problem::{Finish, Problem};
use crate::step::Options;

/// The dense walks of one problem: made by [`prepare`], used by [`meet`].
pub(crate) struct Dense<'a> {
    ranks: Ranks,
    state: u8,
    full: u64,
    /// Whether the start is the full board less the finish hole.
    self_dual: bool,
    portable: bool,
    cancel: Option<&'a AtomicBool>,
    max_memory: Option<u64>,
    /// The bit set a step builds, and the one it is intersected with.
    out: Bits,
    and: Bits,
    /// Prefix tables of the layers (`cum` of [`Layer`]), by pegs; `None` for layers too big.
    tables: Vec<Option<Vec<u32>>>,
    stats: Option<crate::step::StatsSink<'a>>,
}

/// Why a dense walk stopped: an error to report, or a reason to use the general walks instead.
enum Stop {
    Error(CountError),
    Fallback,
}

impl Dense<'_> {
    /// The layer of `pegs` pegs.
    fn layer(&self, pegs: u32) -> Result<Layer<'_>, Stop> {
        let cum = self
            .tables
            .get(pegs as usize)
            .and_then(Option::as_deref)
            .ok_or(Stop::Fallback)?;
        Ok(Layer {
            r: &self.ranks,
            pegs,
            state: self.state,
            cum,
        })
    }

    fn check(&self, held: u64) -> Result<(), Stop> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Stop::Error(CountError::Cancelled));
        }
        let used = held + self.out.bytes() + self.and.bytes() + self.table_bytes() + (4 << 20);
        if self.max_memory.is_some_and(|m| used > m) {
            return Err(Stop::Fallback);
        }
        Ok(())
    }

    /// Bytes of the prefix tables.
    fn table_bytes(&self) -> u64 {
        self.tables
            .iter()
            .flatten()
            .map(|t| t.capacity() as u64 * 4)
            .sum()
    }

    /// The successors of `from` by `k`'s moves, normalized; with `and`, only those in it.
    fn step(&self, k: &Kernel, from: &Level, and: Option<Filter<'_>>) -> Result<Level, Stop> {
        Ok(self.step_with(k, from, and, false)?.0)
    }

    /// [`Dense::step`]; with `record`, also the successors kept of each position of `from`.
    fn step_with(
        &self,
        k: &Kernel,
        from: &Level,
        and: Option<Filter<'_>>,
        record: bool,
    ) -> Result<(Level, Option<Jumps>), Stop> {
        let pegs = if k.reverse {
            from.pegs + 1
        } else {
            from.pegs.saturating_sub(1)
        };
        if from.len() == 0 || pegs == 0 || pegs as usize > k.holes {
            if let Some(Filter::Loaded) = and {
                self.and.clear();
            }
            let jumps = record.then(|| Jumps {
                chunks: from
                    .ranks
                    .chunks(CHUNK)
                    .map(|c| ChunkJumps {
                        ranks: Vec::new(),
                        ends: vec![0; c.len()],
                    })
                    .collect(),
            });
            return Ok((Level::empty(pegs), jumps));
        }
        let src = self.layer(from.pegs)?;
        let dst = self.layer(pegs)?;
        let len = dst.len();
        if let Some(Filter::Level(a)) = and {
            self.and.set_all(&a.ranks);
        }
        let (out, portable) = (&self.out, self.portable);
        let only = and.map(|_| &self.and);
        let t = std::time::Instant::now();
        let chunks: Vec<(u64, Option<ChunkJumps>)> = from
            .ranks
            .par_chunks(CHUNK)
            .map(|c| {
                let mut sink = if record {
                    Sink::recording(&dst, out, only, c.len())
                } else {
                    Sink::new(&dst, out, only)
                };
                each_successors(k, portable, src.keys(c), |_, succ| {
                    for &v in succ {
                        sink.push(v);
                    }
                    sink.from += 1;
                });
                sink.flush();
                (sink.count, record.then(|| sink.jumps()))
            })
            .collect();
        let records = chunks.iter().map(|c| c.0).sum();
        let jumps = record.then(|| Jumps {
            chunks: chunks.into_iter().filter_map(|c| c.1).collect(),
        });
        let expand_secs = t.elapsed().as_secs_f64();
        let ranks = self.out.take(len, and.map(|_| &self.and));
        if let Some(stats) = self.stats {
            let total_secs = t.elapsed().as_secs_f64();
            stats(&crate::step::StepStats {
                pegs: from.pegs,
                sources: from.len() as u64,
                records,
                next_classes: ranks.len() as u64,
                rounds: 1,
                expand_secs,
                merge_secs: total_secs - expand_secs,
                total_secs,
                next_bytes: (ranks.len() * 4) as u64,
                ..Default::default()
            });
        }
        Ok((Level { pegs, ranks }, jumps))
    }

    /// The normal forms (under `k`'s group) of the complements of `from`'s positions, as a level.
    fn complements(&self, k: &Kernel, from: &Level) -> Result<Level, Stop> {
        let pegs = k.holes as u32 - from.pegs;
        let len = self.layer(pegs)?.len();
        self.complement_bits(k, from, &self.out)?;
        Ok(Level {
            pegs,
            ranks: self.out.take(len, None),
        })
    }

    /// Sets in `bits` the bits of the normal forms (under `k`'s group) of the complements of `from`'s
    /// positions.
    fn complement_bits(&self, k: &Kernel, from: &Level, bits: &Bits) -> Result<(), Stop> {
        let pegs = k.holes as u32 - from.pegs;
        let src = self.layer(from.pegs)?;
        let dst = self.layer(pegs)?;
        let full = self.full;
        from.ranks.par_chunks(CHUNK).for_each(|c| {
            let mut sink = Sink::new(&dst, bits, None);
            for x in src.keys(c) {
                sink.push(full ^ k.max_image(x));
            }
            sink.flush();
        });
        Ok(())
    }

    /// The ranks in both `a` and `b` (same number of pegs).
    fn intersect(a: &Level, b: &Level) -> Level {
        let mut out = Vec::new();
        let mut it = b.ranks.iter().peekable();
        for &r in &a.ranks {
            while it.next_if(|&&x| x < r).is_some() {}
            if it.peek() == Some(&&r) {
                out.push(r);
            }
        }
        Level {
            pegs: a.pegs,
            ranks: out,
        }
    }

    /// The positions of a level, in increasing order.
    fn keys(&self, level: &Level) -> Result<Vec<u64>, Stop> {
        if level.len() == 0 {
            return Ok(Vec::new());
        }
        let layer = self.layer(level.pegs)?;
        let mut keys = vec![0u64; level.len()];
        keys.par_chunks_mut(CHUNK)
            .zip(level.ranks.par_chunks(CHUNK))
            .for_each(|(out, c)| {
                for (o, x) in out.iter_mut().zip(layer.keys(c)) {
                    *o = x;
                }
            });
        Ok(keys)
    }
}

/// The tables and bit sets of the dense walks of `problem` towards `holes`, made before its kernels are (they
/// do not depend on the pagoda tests: the two are made side by side). `None` when the dense walks cannot be
/// used (see the [module documentation](self)) or would need more memory than `opts` allows.
pub(crate) fn prepare<'a>(
    problem: &Problem,
    holes: &[usize],
    opts: &Options<'a>,
) -> Option<Dense<'a>> {
    let board = problem.board();
    let n = board.holes();
    if n as u32 > MAX_HOLES || holes.is_empty() {
        return None;
    }
    let full = board.full().bits();
    let start = problem.start();
    let state = board.position_class(start);
    let self_dual = match problem.finish() {
        Finish::Hole(h) => start.bits() == full ^ 1u64 << h,
        Finish::Anywhere => false,
    };
    if self_dual && board.position_class(board.full()) != 0 {
        return None;
    }
    let ranks = Ranks::new(board);
    // The widest layer the walks may use, two bit sets of it.
    let widest = (1..=start.pegs())
        .map(|p| ranks.layer_len(p, state))
        .max()
        .unwrap_or(0);
    if widest > MAX_LAYER_BITS || opts.max_memory.is_some_and(|m| widest / 4 > m / 2) {
        return None;
    }
    // A self-dual problem's walks use only the layers from the middle up (see `walks`).
    let tables = (0..=n as u32)
        .into_par_iter()
        .map(|p| {
            if self_dual && (p as usize) < n / 2 {
                None
            } else {
                prefix_table(&ranks, p, state)
            }
        })
        .collect();
    Some(Dense {
        ranks,
        state,
        full,
        self_dual,
        portable: opts.portable,
        cancel: opts.cancel,
        max_memory: opts.max_memory,
        out: Bits::new(widest),
        and: Bits::new(widest),
        tables,
        stats: opts.stats,
    })
}

/// What [`meet`] finds: the finishable levels (see there), and with `record`, the jumps the walks found between
/// them, by the number of pegs of the level they start from (see [`Jumps`]; only for some levels).
pub(crate) type Met = (Vec<Option<Vec<u64>>>, Vec<Option<Jumps>>);

/// The finishable set of `problem` by meeting in the middle (as the general `meet` of
/// [`crate::finishable`]: the same steps, the same pagoda tests in `kf` and `kr`, with dense walks), with the
/// tables and bit sets `d` that [`prepare`] made for the problem and `holes`, as levels indexed by pegs, each
/// the normal forms (under `kf`'s group) of its positions in increasing order. When the start is the full
/// board less the finish hole, the levels below the middle are `None`: each is the complements of the level
/// of as many pegs as it has holes (see [`crate::finishable`]). `None` when the walks would need more memory
/// than the options given to [`prepare`] allow.
///
/// Every position of a walk has the start's class, and so do its images under the symmetries of `kf`'s group:
/// a forward position is the start XOR a sum of jumps' holes, its image the start's image (the start itself:
/// the group fixes it) XOR a sum of jumps' holes (a symmetry maps a jump onto a jump), and a jump's holes have
/// class 0 (play keeps the class); a backward position is a finish hole XOR jumps', and the group maps the finish
/// holes (all of the start's class) onto themselves. The complements used when the start is the full board
/// less the finish hole have the class of the full board XORed with the start's: checked by [`prepare`].
///
/// With `record`, the jumps of the steps outwards to the start are kept too (each is between two finishable
/// positions: the step keeps only the reachable positions with a jump into the level below it), for
/// [`count_paths`].
pub(crate) fn meet(
    d: Dense<'_>,
    problem: &Problem,
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
    record: bool,
) -> Option<Result<Met, CountError>> {
    let n = problem.board().holes();
    let mut jumps: Vec<Option<Jumps>> = Vec::new();
    if record {
        jumps.resize_with(n + 1, || None);
    }
    match walks(&d, problem, kf, kr, holes, d.self_dual, &mut jumps) {
        Ok(found) => {
            let mut levels = Vec::with_capacity(n + 1);
            for l in &found {
                match l {
                    Some(l) => match d.keys(l) {
                        Ok(k) => levels.push(Some(k)),
                        Err(Stop::Fallback) => return None,
                        Err(Stop::Error(e)) => return Some(Err(e)),
                    },
                    None => levels.push(None),
                }
            }
            Some(Ok((levels, jumps)))
        }
        Err(Stop::Fallback) => None,
        Err(Stop::Error(e)) => Some(Err(e)),
    }
}

/// The walks of [`meet`]: the finishable levels, indexed by pegs. When `jumps` has slots (one per number of
/// pegs), the jumps of the steps outwards to the start are kept there, by the pegs of the level they end on.
fn walks(
    d: &Dense<'_>,
    problem: &Problem,
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
    self_dual: bool,
    jumps: &mut [Option<Jumps>],
) -> Result<Vec<Option<Level>>, Stop> {
    let n = problem.board().holes();
    // The jumps are kept when there are slots for them (and while the memory allows).
    let mut record = !jumps.is_empty();
    let start = problem.start();
    let s = start.pegs() as usize;
    let mut found: Vec<Level> = (0..=n as u32).map(Level::empty).collect();
    let mut fwd_levels: Vec<Option<Level>> = (0..=n).map(|_| None).collect();
    let mut bwd_levels: Vec<Option<Level>> = (0..=n).map(|_| None).collect();
    let first = |d: &Dense<'_>, k: &Kernel, keys: &[u64]| -> Result<Level, Stop> {
        let pegs = keys.first().map_or(0, |x| x.count_ones());
        let layer = d.layer(pegs)?;
        let mut ranks: Vec<u32> = keys.iter().map(|&x| layer.rank(k.normalize(x).0)).collect();
        ranks.sort_unstable();
        ranks.dedup();
        Ok(Level { pegs, ranks })
    };
    let mut fwd = first(d, kf, &[start.bits()])?;
    let m;
    if self_dual {
        m = n / 2;
        let partner = n - m;
        while fwd.pegs as usize > partner {
            if fwd.len() == 0 {
                return Ok(found.into_iter().map(Some).collect());
            }
            d.check(held(&fwd_levels) + fwd.bytes())?;
            let next = d.step(kf, &fwd, None)?;
            let pegs = fwd.pegs as usize;
            fwd_levels[pegs] = Some(std::mem::replace(&mut fwd, next));
        }
        if fwd.pegs as usize != partner || fwd.len() == 0 {
            return Ok(found.into_iter().map(Some).collect());
        }
        d.check(held(&fwd_levels) + fwd.bytes())?;
        if partner == m {
            let comp = d.complements(kf, &fwd)?;
            found[m] = Dense::intersect(&fwd, &comp);
            fwd_levels[m] = Some(fwd);
        } else {
            // The complements go straight into the bit set the step intersects with.
            d.complement_bits(kf, &fwd, &d.and)?;
            found[m] = d.step(kf, &fwd, Some(Filter::Loaded))?;
            found[partner] = d.complements(kf, &found[m])?;
            fwd_levels[partner] = Some(fwd);
        }
    } else {
        let finishes: Vec<u64> = holes.iter().map(|&h| 1u64 << h).collect();
        let mut bwd = first(d, kr, &finishes)?;
        while fwd.pegs > bwd.pegs + 1 {
            if fwd.len() == 0 || bwd.len() == 0 {
                return Ok(found.into_iter().map(Some).collect());
            }
            d.check(held(&fwd_levels) + held(&bwd_levels) + fwd.bytes() + bwd.bytes())?;
            if fwd.len() <= bwd.len() {
                let next = d.step(kf, &fwd, None)?;
                let pegs = fwd.pegs as usize;
                fwd_levels[pegs] = Some(std::mem::replace(&mut fwd, next));
            } else {
                let next = d.step(kr, &bwd, None)?;
                let pegs = bwd.pegs as usize;
                bwd_levels[pegs] = Some(std::mem::replace(&mut bwd, next));
            }
        }
        if fwd.len() == 0 || bwd.len() == 0 {
            return Ok(found.into_iter().map(Some).collect());
        }
        d.check(held(&fwd_levels) + held(&bwd_levels) + fwd.bytes() + bwd.bytes())?;
        if fwd.pegs == bwd.pegs {
            // A start with one peg.
            m = fwd.pegs as usize;
            found[m] = Dense::intersect(&fwd, &bwd);
            fwd_levels[m] = Some(fwd);
            bwd_levels[m] = Some(bwd);
        } else if fwd.len() <= bwd.len() {
            m = bwd.pegs as usize;
            found[m] = d.step(kf, &fwd, Some(Filter::Level(&bwd)))?;
            let p = fwd.pegs as usize;
            fwd_levels[p] = Some(fwd);
            bwd_levels[m] = Some(bwd);
        } else {
            m = fwd.pegs as usize;
            found[m] = d.step(kr, &bwd, Some(Filter::Level(&fwd)))?;
            let p = bwd.pegs as usize;
            bwd_levels[p] = Some(bwd);
            fwd_levels[m] = Some(fwd);
        }
    }
    // Outwards to the start: the reachable positions with a jump into the finishable ones one peg fewer (with
    // `jumps`, those jumps are kept: every one is between two finishable positions).
    let first_up = if self_dual { n - m + 1 } else { m + 1 };
    for k in first_up..=s {
        let Some(reach) = fwd_levels[k].take() else {
            break;
        };
        let held_now = held(&fwd_levels) + held(&bwd_levels) + reach.bytes();
        if record {
            let kept: u64 = jumps.iter().flatten().map(Jumps::bytes).sum();
            // What this step would keep (room for eight jumps a position, as `Sink::recording` reserves), and
            // room left for the counts' lookup table ([`Indexed`]: 16 bytes a word of the widest bit set).
            let next = found[k - 1].len() as u64 * 9 * 4;
            let count = 2 * d.out.bytes();
            if d.check(held_now + kept + next + count).is_err() {
                // Too little memory to keep them: the counts will list the jumps again instead.
                jumps.iter_mut().for_each(|j| *j = None);
                record = false;
            }
        }
        d.check(held_now)?;
        let (level, j) = d.step_with(kr, &found[k - 1], Some(Filter::Level(&reach)), record)?;
        found[k] = level;
        if let (Some(slot), Some(j)) = (jumps.get_mut(k - 1), j) {
            *slot = Some(j);
        }
    }
    if self_dual {
        // Below the middle: the complements of the levels above it, left to the caller.
        return Ok(found
            .into_iter()
            .enumerate()
            .map(|(k, l)| (k >= m || k == 0).then_some(l))
            .collect());
    }
    // Outwards to the finish.
    for k in (1..m).rev() {
        let Some(back) = bwd_levels[k].take() else {
            break;
        };
        d.check(held(&fwd_levels) + held(&bwd_levels) + back.bytes())?;
        found[k] = d.step(kf, &found[k + 1], Some(Filter::Level(&back)))?;
    }
    Ok(found.into_iter().map(Some).collect())
}
