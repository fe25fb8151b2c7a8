//! The general walks of the finishable set (any board): forward from the start and backward from the finish,
//! each level kept to the keys the other walk can still meet.

use rayon::prelude::*;

use crate::count::{CountError, add};
use crate::counter::{Counter, NoCount};
use crate::kernel::Kernel;
use crate::level::{Frozen, KeyFilter, Mixer, Slot, TableKey};
use crate::problem::{Finish, Problem};
use crate::step::{AnyFrozen, KeyLevel, Options, Walk};

/// Keep the classes of `level` that are in `keep` (mixed keys, increasing, with the number of finishable
/// positions in each class): the level restricted, and the paths into the finishable positions (full tree: the
/// per-position count times the finishable positions of the class; normal tree: the class's count). With
/// `whole`, every position of a class kept is finishable (the set has the classes of `g`'s group): the
/// class's full-tree count as it is.
pub(super) fn restrict<C: Counter>(
    g: &Kernel,
    mixer: &Mixer,
    level: &Frozen<C>,
    keep: &[(u64, u64)],
    whole: bool,
    pegs: u32,
) -> Result<(Frozen<C>, u128, u128), CountError> {
    let mut out = Vec::with_capacity(keep.len());
    let (mut full, mut normal) = (0u128, 0u128);
    let mut it = keep.iter().peekable();
    for (h, f, n) in level.iter() {
        while it.peek().is_some_and(|k| k.0 < h) {
            it.next();
        }
        if let Some(&&(_, finishable)) = it.peek().filter(|k| k.0 == h) {
            let paths = if whole {
                f.to_u128()
            } else {
                let size = u128::from(g.class_size(mixer.unmix(h)));
                (f.to_u128() / size)
                    .checked_mul(u128::from(finishable))
                    .ok_or(CountError::Overflow { pegs })?
            };
            full = add(full, paths, pegs)?;
            normal = add(normal, n.to_u128(), pegs)?;
            out.push(Slot {
                h,
                full: f,
                norm: n,
            });
        }
    }
    Ok((Frozen::from_entries(g.holes as u32, out), full, normal))
}

/// The classes of `g`'s group that hold the classes `keys` (normal forms under a subgroup): their mixed keys,
/// increasing, without repeats.
pub(super) fn regroup(g: &Kernel, mixer: &Mixer, keys: impl Iterator<Item = u64>) -> Vec<u64> {
    let keys: Vec<u64> = keys.collect();
    let mut keys: Vec<u64> = keys
        .par_iter()
        .map(|&x| mixer.mix(g.normalize(x).0))
        .collect();
    keys.par_sort_unstable();
    keys.dedup();
    keys
}

/// [`regroup`], with the number of positions of the classes `keys` (of `sub`'s group) in each class of
/// `g`'s.
pub(super) fn regroup_sizes(
    g: &Kernel,
    sub: &Kernel,
    mixer: &Mixer,
    keys: &[u64],
) -> Vec<(u64, u64)> {
    let mut keys: Vec<(u64, u64)> = keys
        .par_iter()
        .map(|&pos| (mixer.mix(g.normalize(pos).0), sub.class_size(pos)))
        .collect();
    keys.par_sort_unstable_by_key(|e| e.0);
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(keys.len());
    for (h, n) in keys {
        match out.last_mut() {
            Some(last) if last.0 == h => last.1 += n,
            _ => out.push((h, n)),
        }
    }
    out
}

/// A level of keys from mixed keys in increasing order.
fn key_level(bits: u32, keys: &[u64]) -> KeyLevel {
    Frozen::from_entries(
        bits,
        keys.iter()
            .map(|&h| Slot {
                h,
                full: NoCount,
                norm: NoCount,
            })
            .collect(),
    )
}

/// The mixed keys of `a` that are also in `b` (both in increasing order).
fn intersect<C: Counter>(a: &Frozen<C>, b: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut out = Vec::new();
    let mut b = b.peekable();
    for (h, _, _) in a.iter() {
        while b.peek().is_some_and(|&x| x < h) {
            b.next();
        }
        if b.peek() == Some(&h) {
            out.push(h);
        }
    }
    out
}

/// The mixed normal forms of the complements of a level's positions, in increasing order.
pub(crate) fn complements<C: Counter>(
    k: &Kernel,
    mixer: &Mixer,
    full: u64,
    level: &Frozen<C>,
) -> Vec<u64> {
    let mut keys: Vec<u64> = level
        .parts
        .par_iter()
        .enumerate()
        .flat_map_iter(|(q, p)| {
            p.reader(level.layout.base(q), 0, p.blocks())
                .map(|(h, _, _)| complement(k, mixer, full, h))
        })
        .collect();
    keys.par_sort_unstable();
    keys
}

/// The mixed normal form of the complement of the position with mixed normal form `h`: the complement of its
/// largest image.
#[inline]
pub(crate) fn complement(k: &Kernel, mixer: &Mixer, full: u64, h: u64) -> u64 {
    let x = mixer.unmix(h);
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::has_avx512() {
        // SAFETY: the CPU has the features (checked just above).
        let max = unsafe { crate::kernel::avx512::max_image(k, x) };
        return mixer.mix(full ^ max);
    }
    mixer.mix(full ^ k.max_image(x))
}

/// The level of a keys-only walk (never rebuilt with wide counters: there are none).
fn keys_of(level: AnyFrozen<NoCount>) -> KeyLevel {
    match level {
        AnyFrozen::Narrow(l) => l,
        AnyFrozen::Wide(l) => crate::finish::keys_only(&AnyFrozen::<NoCount>::Wide(l)),
    }
}

/// The finishable set, level by level (indexed by pegs), by meeting in the middle (see the module
/// documentation). Where a level is built only to be intersected with another (the last step of the meeting,
/// and every step outwards), only its classes that a [`KeyFilter`] of the other may hold are built, and then
/// checked one by one against it.
pub(super) fn meet<K: TableKey>(
    problem: &Problem,
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
    opts: &Options<'_>,
) -> Result<Vec<KeyLevel>, CountError> {
    let board = problem.board();
    let n = board.holes();
    let bits = n as u32;
    let full = board.full().bits();
    let start = problem.start();
    let s = start.pegs() as usize;
    let mixer = Mixer::new(bits);
    let mut found: Vec<KeyLevel> = vec![KeyLevel::empty(bits); n + 1];
    // Levels kept (keys only) for the way outwards, by pegs.
    let mut fwd_levels: Vec<Option<KeyLevel>> = vec![None; n + 1];
    let mut bwd_levels: Vec<Option<KeyLevel>> = vec![None; n + 1];
    let kept = |a: &[Option<KeyLevel>], b: &[Option<KeyLevel>]| -> u64 {
        a.iter().chain(b).flatten().map(KeyLevel::bytes).sum()
    };
    let budget = |held: u64| Options {
        max_memory: opts.max_memory.map(|m| m.saturating_sub(held)),
        ..*opts
    };
    let self_dual = match problem.finish() {
        Finish::Hole(h) => start.bits() == full ^ 1u64 << h,
        Finish::Anywhere => false,
    };
    let mut fwd = Walk::<NoCount, K>::new(kf, &[start.bits()], None)?;
    // Walk `walk` one level, keeping the level it leaves in `keep`.
    let advance = |walk: &mut Walk<'_, NoCount, K>,
                   keep: &mut Vec<Option<KeyLevel>>,
                   held: u64,
                   filter: Option<&KeyFilter>|
     -> Result<(), CountError> {
        let pegs = walk.pegs() as usize;
        let step = walk.step_filtered(&budget(held), true, true, filter)?;
        keep[pegs] = step.source.map(keys_of);
        Ok(())
    };
    let m;
    if self_dual {
        // The backward level with k pegs is the forward level with n - k complemented. Walk forward to the
        // middle, keeping the levels: with an odd number of holes to the level with (n + 1) / 2 pegs, whose
        // successors are kept where their complements may be in it.
        m = n / 2;
        let partner = n - m;
        while fwd.pegs() as usize > partner {
            if fwd.len() == 0 {
                return Ok(found);
            }
            let held = kept(&fwd_levels, &bwd_levels);
            advance(&mut fwd, &mut fwd_levels, held, None)?;
        }
        if fwd.pegs() as usize != partner || fwd.len() == 0 {
            return Ok(found);
        }
        if partner == m {
            let level_m = keys_of(fwd.into_level());
            let comp = complements(kf, &mixer, full, &level_m);
            found[m] = key_level(bits, &intersect(&level_m, comp.into_iter()));
            fwd_levels[m] = Some(level_m);
        } else {
            let filter = match fwd.level() {
                AnyFrozen::Narrow(l) => complement_filter(kf, &mixer, full, l),
                AnyFrozen::Wide(_) => return Ok(found),
            };
            let held = kept(&fwd_levels, &bwd_levels);
            advance(&mut fwd, &mut fwd_levels, held, Some(&filter))?;
            drop(filter);
            let candidates = keys_of(fwd.into_level());
            let Some(upper) = fwd_levels[partner].as_ref() else {
                return Ok(found);
            };
            found[m] = key_level(
                bits,
                &members(&candidates, upper, false, |h| {
                    complement(kf, &mixer, full, h)
                }),
            );
            // The finishable positions one peg above are the complements of those.
            found[partner] = key_level(bits, &complements(kf, &mixer, full, &found[m]));
        }
    } else {
        let finishes: Vec<u64> = holes.iter().map(|&h| 1u64 << h).collect();
        let mut bwd = Walk::<NoCount, K>::new(kr, &finishes, None)?;
        // Each side one level at a time, the smaller first, until they are one level apart.
        while fwd.pegs() > bwd.pegs() + 1 {
            if fwd.len() == 0 || bwd.len() == 0 {
                return Ok(found);
            }
            if fwd.len() <= bwd.len() {
                let held = kept(&fwd_levels, &bwd_levels) + bwd.bytes();
                advance(&mut fwd, &mut fwd_levels, held, None)?;
            } else {
                let held = kept(&fwd_levels, &bwd_levels) + fwd.bytes();
                advance(&mut bwd, &mut bwd_levels, held, None)?;
            }
        }
        if fwd.len() == 0 || bwd.len() == 0 {
            return Ok(found);
        }
        if fwd.pegs() == bwd.pegs() {
            // A start with one peg.
            m = fwd.pegs() as usize;
            let (a, b) = (keys_of(fwd.into_level()), keys_of(bwd.into_level()));
            found[m] = key_level(bits, &intersect(&a, b.iter().map(|e| e.0)));
            fwd_levels[m] = Some(a);
            bwd_levels[m] = Some(b);
        } else {
            // The last step, from the smaller side, keeps only what the other side may hold.
            let forward = fwd.len() <= bwd.len();
            let held =
                kept(&fwd_levels, &bwd_levels) + if forward { bwd.bytes() } else { fwd.bytes() };
            let (walk, other, keep) = if forward {
                (&mut fwd, &mut bwd, &mut fwd_levels)
            } else {
                (&mut bwd, &mut fwd, &mut bwd_levels)
            };
            let there = match other.level() {
                AnyFrozen::Narrow(l) => l.clone(),
                AnyFrozen::Wide(_) => return Ok(found),
            };
            let filter = KeyFilter::of_level(&there, bits);
            advance(walk, keep, held, Some(&filter))?;
            drop(filter);
            m = walk.pegs() as usize;
            let candidates = match walk.level() {
                AnyFrozen::Narrow(l) => l.clone(),
                AnyFrozen::Wide(_) => return Ok(found),
            };
            found[m] = key_level(bits, &members(&candidates, &there, true, |h| h));
            if forward {
                bwd_levels[m] = Some(there);
            } else {
                fwd_levels[m] = Some(there);
            }
        }
    }
    // Outwards to the start: the reachable positions with a jump into the finishable ones one peg fewer.
    let first_up = if self_dual { n - m + 1 } else { m + 1 };
    for k in first_up..=s {
        let Some(reach) = fwd_levels[k].take() else {
            break;
        };
        let from = std::mem::replace(&mut found[k - 1], KeyLevel::empty(bits));
        let held = kept(&fwd_levels, &bwd_levels) + reach.bytes();
        let filter = KeyFilter::of_level(&reach, bits);
        let (back, pred) = one_step::<K>(kr, from, k as u32 - 1, &budget(held), &filter)?;
        found[k - 1] = back;
        found[k] = key_level(bits, &members(&pred, &reach, true, |h| h));
    }
    // Outwards to the finish.
    for k in (1..m).rev() {
        if self_dual {
            // The finishable positions with k pegs are the complements of those with n - k.
            let comp = complements(kf, &mixer, full, &found[n - k]);
            found[k] = key_level(bits, &comp);
            continue;
        }
        let Some(back) = bwd_levels[k].take() else {
            break;
        };
        let from = std::mem::replace(&mut found[k + 1], KeyLevel::empty(bits));
        let held = kept(&fwd_levels, &bwd_levels) + back.bytes();
        let filter = KeyFilter::of_level(&back, bits);
        let (fwd_from, succ) = one_step::<K>(kf, from, k as u32 + 1, &budget(held), &filter)?;
        found[k + 1] = fwd_from;
        found[k] = key_level(bits, &members(&succ, &back, true, |h| h));
    }
    Ok(found)
}

/// A filter that may hold the complements of a level's positions.
fn complement_filter<C: Counter>(
    k: &Kernel,
    mixer: &Mixer,
    full: u64,
    level: &Frozen<C>,
) -> KeyFilter {
    let f = KeyFilter::new(level.len(), k.holes as u32);
    level.parts.par_iter().enumerate().for_each(|(q, p)| {
        // The complements fall anywhere in the filter, far bigger than the caches: each bit is asked for
        // `AHEAD` keys before it is set.
        const AHEAD: usize = 16;
        let mut ring = [0u64; AHEAD];
        let mut n = 0usize;
        for (h, _, _) in p.reader(level.layout.base(q), 0, p.blocks()) {
            let c = complement(k, mixer, full, h);
            f.prefetch_insert(c);
            let old = std::mem::replace(&mut ring[n % AHEAD], c);
            if n >= AHEAD {
                f.insert(old);
            }
            n += 1;
        }
        for &c in &ring[..n.min(AHEAD)] {
            f.insert(c);
        }
    });
    f
}

/// The mixed keys of `candidates` (in increasing order) whose image under `map` is in `set`, in increasing
/// order. With `sorted`, `map` keeps the order of keys (the identity): the candidates and the set are read
/// side by side; else the images are sorted first. Either way, a merge over the parts of the set the
/// candidates fall in (cheaper than a lookup each: the set is read in order, a few bytes an entry).
fn members<C: Counter>(
    candidates: &KeyLevel,
    set: &Frozen<C>,
    sorted: bool,
    map: impl Fn(u64) -> u64 + Sync,
) -> Vec<u64> {
    // (image, candidate), by image.
    let mut pairs: Vec<(u64, u64)> = candidates
        .parts
        .par_iter()
        .enumerate()
        .flat_map_iter(|(q, p)| {
            p.reader(candidates.layout.base(q), 0, p.blocks())
                .map(|(h, _, _)| (map(h), h))
        })
        .collect();
    if !sorted {
        pairs.par_sort_unstable();
    }
    // Chunks of candidates, each merged with the set from its first image on.
    const CHUNK: usize = 4096;
    let mut found: Vec<u64> = pairs
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut it = set.iter_from(chunk[0].0).map(|e| e.0).peekable();
            chunk
                .iter()
                .filter(move |&&(m, _)| {
                    while it.next_if(|&x| x < m).is_some() {}
                    it.peek() == Some(&m)
                })
                .map(|&(_, h)| h)
                .collect::<Vec<u64>>()
        })
        .collect();
    if !sorted {
        found.par_sort_unstable();
    }
    found
}

/// One step of a keys-only walk from `level` (with `pegs` pegs), keeping what `filter` may hold: the level
/// given back, and the next one.
fn one_step<K: TableKey>(
    k: &Kernel,
    level: KeyLevel,
    pegs: u32,
    opts: &Options<'_>,
    filter: &KeyFilter,
) -> Result<(KeyLevel, KeyLevel), CountError> {
    let mut walk = Walk::<NoCount, K>::from_level(k, level, pegs, None);
    let step = walk.step_filtered(opts, true, true, Some(filter))?;
    let back = step
        .source
        .map(keys_of)
        .unwrap_or_else(|| KeyLevel::empty(k.holes as u32));
    Ok((back, keys_of(walk.into_level())))
}
