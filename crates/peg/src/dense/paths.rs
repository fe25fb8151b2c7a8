//! The solution counts over a finishable set found by the dense walks.

use std::borrow::Cow;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use rayon::prelude::*;

use super::layer::{CHUNK, Layer, MAX_HOLES, MAX_LAYER_BITS, Ranks, prefix_table};
use super::sink::{ChunkJumps, Jumps, PULL, each_successors};
use crate::board::Board;
use crate::bytes::prefetch;
use crate::count::{CountError, add};
use crate::kernel::{Kernel, MOVE_WORDS};
use crate::position::Position;
use crate::step::Options;

/// A level of a finishable set for [`count_paths`]: its positions' ranks as a bit set over their layer, each
/// word beside the number of bits set before it (one cache line for both), so that a position's index in the
/// level is one lookup.
pub(super) struct Indexed {
    /// `(word, bits set in the words before it)`.
    pub(super) blocks: Vec<(u64, u64)>,
}

impl Indexed {
    /// The bit set of `ranks` (increasing) over a layer of `len` positions, in the buffer of `self` (whose
    /// blocks are all clear): only the blocks of `ranks` are written.
    pub(super) fn fill(&mut self, ranks: impl Iterator<Item = u32>, len: u64) {
        let n = len.div_ceil(64) as usize;
        if self.blocks.len() < n {
            self.blocks.resize(n, (0, 0));
        }
        for (i, r) in ranks.enumerate() {
            let b = &mut self.blocks[(r >> 6) as usize];
            if b.0 == 0 {
                // The first rank of the block: the number of ranks before it.
                b.1 = i as u64;
            }
            b.0 |= 1 << (r & 63);
        }
    }

    /// Clear the blocks of `ranks` (those [`Indexed::fill`] was given).
    pub(super) fn clear(&mut self, ranks: impl Iterator<Item = u32>) {
        for r in ranks {
            self.blocks[(r >> 6) as usize] = (0, 0);
        }
    }

    /// Ask for the block of rank `r` from memory.
    #[inline(always)]
    fn prefetch(&self, r: u32) {
        prefetch(&self.blocks[(r >> 6) as usize]);
    }

    /// The index in the level of the position of rank `r`, or `none` when it is not in the level (without a
    /// branch: whether a position is in the level is a coin toss the CPU cannot predict).
    #[inline(always)]
    pub(super) fn index_or(&self, r: u32, none: usize) -> usize {
        let (word, before) = self.blocks[(r >> 6) as usize];
        let b = r & 63;
        let j = (before + u64::from((word & ((1u64 << b) - 1)).count_ones())) as usize;
        let hit = word >> b & 1 == 1;
        std::hint::select_unpredictable(hit, j, none)
    }
}

/// Where the jumps into a chunk of a level start from, for [`each_origins`].
#[derive(Clone, Copy)]
enum Origins<'a> {
    /// Kept by the walks: all from the level above.
    Kept(&'a ChunkJumps),
    /// Listed again from the chunk's positions (jumps taken back): some from outside the level above.
    Listed(&'a [u64]),
}

/// For each position `i` of a chunk of a level (in order), `visit(i, origins)` with the indices in the level
/// above (`ix`, over the layer `above`) of the positions its jumps start from, one for each jump (those outside
/// the level above left out). A few hundred positions at a time: their origins' blocks of `ix` are asked for
/// from memory first.
fn each_origins(
    src: Origins<'_>,
    ix: &Indexed,
    above: &Layer<'_>,
    kr: &Kernel,
    portable: bool,
    mut visit: impl FnMut(usize, &[usize]) -> Result<(), CountError>,
) -> Result<(), CountError> {
    // At most `MOVE_WORDS * 64` jumps into a position.
    let mut hits = [0usize; MOVE_WORDS * 64];
    match src {
        Origins::Kept(j) => {
            let len = j.ends.len();
            for i0 in (0..len).step_by(PULL) {
                let i1 = (i0 + PULL).min(len);
                let lo = if i0 == 0 { 0 } else { j.ends[i0 - 1] as usize };
                for &r in &j.ranks[lo..j.ends[i1 - 1] as usize] {
                    ix.prefetch(r);
                }
                for i in i0..i1 {
                    let mut k = 0;
                    for &r in j.of(i) {
                        let o = ix.index_or(r, usize::MAX);
                        debug_assert_ne!(o, usize::MAX, "a jump kept from outside the level above");
                        hits[k % hits.len()] = o;
                        k += 1;
                    }
                    visit(i, &hits[..k.min(hits.len())])?;
                }
            }
        }
        Origins::Listed(c) => {
            let mut ranks = Vec::new();
            let mut ends = Vec::new();
            let mut i = 0;
            // Two passes: the origins ranked (their blocks asked for), then looked up.
            for sub in c.chunks(PULL) {
                ranks.clear();
                ends.clear();
                each_successors(kr, portable, sub.iter().copied(), |_, preds| {
                    for &p in preds {
                        let r = above.rank(p);
                        ix.prefetch(r);
                        ranks.push(r);
                    }
                    ends.push(ranks.len());
                });
                let mut lo = 0;
                for &hi in &ends {
                    // The origins in the level above, without a branch each.
                    let mut k = 0;
                    for &r in &ranks[lo..hi] {
                        let o = ix.index_or(r, usize::MAX);
                        hits[k % hits.len()] = o;
                        k += usize::from(o != usize::MAX);
                    }
                    visit(i, &hits[..k.min(hits.len())])?;
                    lo = hi;
                    i += 1;
                }
            }
        }
    }
    Ok(())
}

/// Counters of [`push_up`], the full tree's and the normal tree's for each class, in two 64-bit halves: the high
/// halves are left out (half the memory) while no count can pass 2^64.
#[derive(Default)]
pub(super) struct Split {
    pub(super) lo: Vec<[u64; 2]>,
    /// Empty, or as long as `lo`.
    pub(super) hi: Vec<[u64; 2]>,
}

/// A class's two counts from their low and high halves.
#[inline(always)]
fn join_halves(lo: [u64; 2], hi: [u64; 2]) -> [u128; 2] {
    [
        u128::from(hi[0]) << 64 | u128::from(lo[0]),
        u128::from(hi[1]) << 64 | u128::from(lo[1]),
    ]
}

/// A class's two counts as their low and high halves.
#[inline(always)]
fn split_halves(v: [u128; 2]) -> ([u64; 2], [u64; 2]) {
    (
        [v[0] as u64, v[1] as u64],
        [(v[0] >> 64) as u64, (v[1] >> 64) as u64],
    )
}

impl Split {
    /// The counts `v`, split.
    pub(super) fn from(v: Vec<[u128; 2]>) -> Split {
        let wide = v.iter().any(|c| (c[0] | c[1]) >> 64 != 0);
        Split {
            lo: v.iter().map(|&c| split_halves(c).0).collect(),
            hi: if wide {
                v.iter().map(|&c| split_halves(c).1).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// `len` counters at zero, with their high halves when `wide`.
    pub(super) fn reset(&mut self, len: usize, wide: bool) {
        self.lo.clear();
        self.lo.resize(len, [0, 0]);
        self.hi.clear();
        if wide {
            self.hi.resize(len, [0, 0]);
        }
    }

    /// The counts of class `i`.
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> [u128; 2] {
        join_halves(self.lo[i], self.hi.get(i).copied().unwrap_or_default())
    }

    /// Add `v` to count `t` (0: full tree, 1: normal tree) of class `i`.
    #[inline(always)]
    pub(super) fn add(&mut self, i: usize, t: usize, v: u128, pegs: u32) -> Result<(), CountError> {
        let (l, carry) = self.lo[i][t].overflowing_add(v as u64);
        self.lo[i][t] = l;
        let high = (v >> 64) as u64;
        match self.hi.get_mut(i) {
            Some(h) => {
                h[t] = h[t]
                    .checked_add(high)
                    .and_then(|x| x.checked_add(u64::from(carry)))
                    .ok_or(CountError::Overflow { pegs })?;
            }
            // Without high halves no count passes 2^64 (see `push_up`): kept as a check.
            None if carry || high != 0 => return Err(CountError::Overflow { pegs }),
            None => {}
        }
        Ok(())
    }
}

/// The counts of the classes from `i0` on (their low halves `lo`, their high halves `hi` when kept) plus those
/// of `parts`, written back; the largest count and the sums of both trees'.
pub(super) fn sum_chunk(
    i0: usize,
    lo: &mut [[u64; 2]],
    mut hi: Option<&mut [[u64; 2]]>,
    parts: &[Split],
    pegs: u32,
) -> Result<(u128, u128, u128), CountError> {
    let (mut big, mut f, mut normal) = (0u128, 0u128, 0u128);
    for (j, l) in lo.iter_mut().enumerate() {
        let mut v = join_halves(*l, hi.as_deref().map_or([0, 0], |h| h[j]));
        for p in parts {
            let w = p.get(i0 + j);
            v = [add(v[0], w[0], pegs)?, add(v[1], w[1], pegs)?];
        }
        let (low, high) = split_halves(v);
        *l = low;
        match hi.as_deref_mut() {
            Some(h) => h[j] = high,
            // As in `Split::add`.
            None if (v[0] | v[1]) >> 64 != 0 => return Err(CountError::Overflow { pegs }),
            None => {}
        }
        big = big.max(v[0]).max(v[1]);
        f = add(f, v[0], pegs)?;
        normal = add(normal, v[1], pegs)?;
    }
    Ok((big, f, normal))
}

/// The middle of a self-dual problem for [`push_up`]: its number of pegs, its positions and their paths
/// from the start (positions-paths and the normal tree's, as [`count_paths`] pulls them).
struct Middle<'k> {
    m: u32,
    keys: &'k [u64],
    paths: &'k [[u128; 2]],
}

/// The rows of [`count_paths`] below the middle of a self-dual problem (see `dual` there), appended to `out`
/// from `mid.m - 1` pegs down to one. `None` when a layer's tables are missing.
#[allow(clippy::too_many_arguments)]
fn push_up<'a, 'r>(
    board: &Board,
    mid: Middle<'_>,
    out: &mut Vec<(u128, u128)>,
    index: &mut Indexed,
    layer: &dyn Fn(u32) -> Option<Layer<'r>>,
    (kf, kr): (&Kernel, &Kernel),
    levels: &(dyn Fn(u32) -> Cow<'a, [u64]> + Sync),
    jumps: &(dyn Fn(u32) -> Option<&'a Jumps> + Sync),
    opts: &Options<'_>,
) -> Option<Result<(), CountError>> {
    let n = board.holes() as u32;
    let m = mid.m;
    if mid.keys.is_empty() {
        out.extend((1..m).map(|_| (0, 0)));
        return Some(Ok(()));
    }
    let full = board.full().bits();
    // The level of `n - m` pegs: each class's paths to the finish are the paths from the start into its
    // complement's class, in the middle.
    let l0 = n - m;
    let middle = layer(m)?;
    let ranks: Vec<u32> = mid.keys.par_iter().map(|&x| middle.rank(x)).collect();
    index.fill(ranks.iter().copied(), middle.len());
    let first = levels(l0);
    let mut g = vec![[0u128; 2]; first.len()];
    let init = first
        .par_chunks(PULL)
        .zip(g.par_chunks_mut(PULL))
        .try_for_each(|(c, out)| {
            // The complements' ranks first (their blocks of the index asked for), then their places.
            let mut found = [(0u32, 0u64); PULL];
            for (e, &x) in found.iter_mut().zip(c) {
                let (max, size) = kf.max_image_and_size(x);
                let r = middle.rank(full ^ max);
                index.prefetch(r);
                *e = (r, size);
            }
            for (o, &(r, size)) in out.iter_mut().zip(&found) {
                let c = index.index_or(r, usize::MAX);
                debug_assert_ne!(
                    c,
                    usize::MAX,
                    "the complement of a finishable position is finishable"
                );
                let [f, normal] = mid.paths.get(c).copied().unwrap_or_default();
                let f = f
                    .checked_mul(u128::from(size))
                    .ok_or(CountError::Overflow { pegs: m })?;
                *o = [f, normal];
            }
            Ok(())
        });
    index.clear(ranks.iter().copied());
    if let Err(e) = init {
        return Some(Err(e));
    }
    debug_assert_eq!(
        g.iter()
            .fold((0u128, 0u128), |s, a| (s.0 + a[0], s.1 + a[1])),
        out.last().copied().unwrap_or_default(),
        "the middle's paths from the start, and to the finish from its complements"
    );
    let mut largest = g.par_iter().map(|a| a[0].max(a[1])).max().unwrap_or(0);
    let mut g = Split::from(g);
    // A class one peg above gets at most this many pushes (one for each jump from one of its positions).
    let pushes = (kf.group_size * board.moves().len()) as u128;
    // Each thread's counters of the level above, with the level they were last cleared for.
    let mut accs: Vec<Mutex<(u32, Split)>> = (0..rayon::current_num_threads())
        .map(|_| Mutex::new((u32::MAX, Split::default())))
        .collect();
    let mut here = first;
    for level in l0..n - 1 {
        if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Err(CountError::Cancelled));
        }
        // The row these counts give.
        let pegs = n - (level + 1);
        let up = layer(level + 1)?;
        let above = levels(level + 1);
        let ranks: Vec<u32> = above.par_iter().map(|&x| up.rank(x)).collect();
        index.fill(ranks.iter().copied(), up.len());
        let known = jumps(level).filter(|j| j.fits(here.len()));
        // The counters of the level above fit in 64 bits when all of their pushes do.
        let wide = largest.saturating_mul(pushes) > u128::from(u64::MAX);
        let (ix, accs_ref, gr, portable, len) = (&*index, &accs, &g, opts.portable, above.len());
        let pushed = here.par_chunks(CHUNK).enumerate().try_for_each(|(ci, c)| {
            let src = match known.and_then(|j| j.chunks.get(ci)) {
                Some(j) => Origins::Kept(j),
                None => Origins::Listed(c),
            };
            let t = rayon::current_thread_index().unwrap_or(0) % accs_ref.len();
            let mut guard = accs_ref[t]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (cleared, acc) = &mut *guard;
            if *cleared != level {
                acc.reset(len, wide);
                *cleared = level;
            }
            let mut distinct = Vec::with_capacity(MOVE_WORDS * 64);
            each_origins(src, ix, &up, kr, portable, |i, origins| {
                let [f, normal] = gr.get(ci * CHUNK + i);
                distinct.clear();
                for &k in origins {
                    acc.add(k, 0, f, pegs)?;
                    if !distinct.contains(&k) {
                        distinct.push(k);
                        acc.add(k, 1, normal, pegs)?;
                    }
                }
                Ok(())
            })
        });
        if let Err(e) = pushed {
            return Some(Err(e));
        }
        // The threads' counters added up in the buffers of one of them (the sums fit as each part does: the
        // bound on the pushes holds for all of them together); the buffers (and the level's own) are given
        // back to be cleared and used again.
        let mut rest: Vec<Split> = accs
            .iter_mut()
            .map(|a| {
                a.get_mut()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            })
            .filter(|a| a.0 == level)
            .map(|a| std::mem::take(&mut a.1))
            .collect();
        let mut next = rest.pop().unwrap_or_else(|| {
            let mut z = Split::default();
            z.reset(len, wide);
            z
        });
        // Per chunk: the largest count and the row's sums.
        let parts = &rest;
        let summed: Result<Vec<(u128, u128, u128)>, CountError> = if next.hi.is_empty() {
            next.lo
                .par_chunks_mut(CHUNK)
                .enumerate()
                .map(|(ci, lo)| sum_chunk(ci * CHUNK, lo, None, parts, pegs))
                .collect()
        } else {
            next.lo
                .par_chunks_mut(CHUNK)
                .zip(next.hi.par_chunks_mut(CHUNK))
                .enumerate()
                .map(|(ci, (lo, hi))| sum_chunk(ci * CHUNK, lo, Some(hi), parts, pegs))
                .collect()
        };
        let summed = match summed {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        largest = summed.iter().map(|s| s.0).max().unwrap_or(0);
        let row = summed.iter().try_fold((0u128, 0u128), |r, s| {
            Ok((add(r.0, s.1, pegs)?, add(r.1, s.2, pegs)?))
        });
        match row {
            Ok(r) => out.push(r),
            Err(e) => return Some(Err(e)),
        }
        rest.push(std::mem::take(&mut g));
        for a in &mut accs {
            let a = a
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if a.1.lo.capacity() == 0
                && let Some(buf) = rest.pop()
            {
                *a = (u32::MAX, buf);
            }
        }
        index.clear(ranks.iter().copied());
        g = next;
        here = above;
    }
    Some(Ok(()))
}

/// A position's paths pulled from the level above: the sum of the paths (in `from`) of the jumps' origins at
/// `origins` (indices in the level above; those past its end add nothing), every jump in the full tree, each
/// class above once in the normal tree (`distinct` is scratch space).
#[inline(always)]
fn add_origins(
    origins: impl Iterator<Item = usize>,
    from: &[[u128; 2]],
    distinct: &mut Vec<usize>,
    pegs: u32,
) -> Result<[u128; 2], CountError> {
    distinct.clear();
    let (mut f, mut n) = (0u128, 0u128);
    for k in origins {
        if let Some(p) = from.get(k) {
            f = add(f, p[0], pegs)?;
            if !distinct.contains(&k) {
                distinct.push(k);
                n = add(n, p[1], pegs)?;
            }
        }
    }
    Ok([f, n])
}

/// The paths from the start into a finishable set's levels, in both trees, counted over the set alone: from the
/// start's number of pegs down to one, the full tree's and the normal tree's paths into each level's positions.
///
/// `levels(pegs)` gives the finishable positions with `pegs` pegs as normal forms under the group of `kf` (the
/// forward kernel, without pagoda tests) and `kr` (the backward one, the same group), in increasing order; the group
/// must be the problem's (so that its classes are the normal tree's nodes). The counts are pulled, one level
/// from the one above it, every position on its own (so threads share nothing they write): a position `y`'s
/// positions-paths (paths into one position of its class: the same for each) are the sum, over the jumps into
/// `y` (its moves taken back), of the positions-paths of the position the jump starts from, and its class's
/// normal-tree paths the sum over the distinct classes those positions are in. A position the jump starts from
/// that is not finishable was not reached from the start (it has a jump into a finishable position): it adds
/// nothing. A class's full-tree paths are its positions-paths times its size.
///
/// `jumps(pegs)`, when the walks kept them (see [`meet`]), gives the jumps into the positions with `pegs` pegs
/// from those with one peg more, all of them between finishable positions: those levels are pulled from the
/// jumps kept, without listing and ranking the jumps taken back again (and without looking up the origins that
/// are not finishable, about half of them on the English board).
///
/// `dual`, for a self-dual problem (the start is the full board less the finish hole), is its middle `m` and
/// the bytes the caller holds: the levels below the middle are the complements of those above it (see
/// [`meet`]), and their counts are not pulled when the memory limit of `opts` leaves room for what the push
/// needs (each thread's counters, 32 bytes a class of the widest level, and the level's own).
/// A position `x`'s paths to the finish are the paths from the start to its complement (the complements of a
/// game's positions, in the reverse order, are a game from the start to the complement of `x`), so the paths
/// into the level of `k < m` pegs are the paths to the finish from the level of `n - k` (`n` holes), whose
/// positions are finishable too. Those are known at the level of `n - m` pegs from the paths into the middle,
/// and are pushed up one level at a time along the jumps into each level (kept or listed, the same jumps
/// the pull goes down): per class `C`, the full tree's paths from all of its positions to the finish, `G(C)`,
/// and the normal tree's from the class, `g(C)`. A class `C` one peg above a position `y` of class `D` gets
/// `G(D)` once for every jump into `y` from a position of `C` (these jumps, counted for each of `D`'s
/// positions, are all the jumps from `C`'s positions into `D`'s), and `g(D)` once. Each thread adds into its own
/// counters, summed at the end of each level. The level of `n - k` then gives the row of `k`: the sums of `G`
/// and of `g` over its classes.
///
/// `None` when the dense tables cannot be used (the board has more than [`MAX_HOLES`] holes, a layer is too
/// big) or the bit sets would pass the memory limit of `opts`: the caller counts another way.
pub(crate) fn count_paths<'a>(
    board: &Board,
    start: Position,
    (kf, kr): (&Kernel, &Kernel),
    levels: &(dyn Fn(u32) -> Cow<'a, [u64]> + Sync),
    jumps: &(dyn Fn(u32) -> Option<&'a Jumps> + Sync),
    dual: Option<(u32, u64)>,
    opts: &Options<'_>,
) -> Option<Result<Vec<(u128, u128)>, CountError>> {
    let n = board.holes();
    if n as u32 > MAX_HOLES {
        return None;
    }
    let state = board.position_class(start);
    let ranks = Ranks::new(board);
    let s = start.pegs();
    let widest = (1..=s)
        .map(|p| ranks.layer_len(p, state))
        .max()
        .unwrap_or(0);
    // The bit set and the counts before each word of the widest layer.
    if widest > MAX_LAYER_BITS
        || opts
            .max_memory
            .is_some_and(|m| widest / 8 + widest / 16 > m / 2)
    {
        return None;
    }
    // A self-dual problem is pulled down to its middle only: below it, the paths into a level are those from
    // the complements of its positions to the finish, pushed up from the middle (see `dual` above), when
    // there is room for the threads' counters.
    let dual = dual.filter(|&(m, _)| m > 1 && m < s).and_then(|(m, held)| {
        let threads = rayon::current_num_threads() as u64;
        let w = (m..=s).map(|p| levels(p).len() as u64).max().unwrap_or(0);
        let need = held + (threads + 1) * w * 32 + widest / 4;
        opts.max_memory.is_none_or(|max| need <= max).then_some(m)
    });
    let lowest = dual.unwrap_or(1);
    // The layers of the levels counted (for a push, from its middle up).
    let tables: Vec<Option<Vec<u32>>> = (0..=s)
        .into_par_iter()
        .map(|p| {
            if p < lowest {
                None
            } else {
                prefix_table(&ranks, p, state)
            }
        })
        .collect();
    let layer = |pegs: u32| {
        tables[pegs as usize].as_deref().map(|cum| Layer {
            r: &ranks,
            pegs,
            state,
            cum,
        })
    };
    let mut out = Vec::with_capacity(s as usize);
    let mut keys = levels(s);
    // Per position of the level: paths into one position of its class (full tree), into its class (normal).
    let mut paths: Vec<[u128; 2]> = vec![[1, 1]; keys.len()];
    let total = |keys: &[u64], paths: &[[u128; 2]], pegs: u32| {
        keys.par_iter()
            .zip(paths)
            .map(|(&x, &[f, n])| {
                let f = f
                    .checked_mul(u128::from(kf.class_size(x)))
                    .ok_or(CountError::Overflow { pegs })?;
                Ok((f, n))
            })
            .try_reduce(
                || (0, 0),
                |a, b| Ok((add(a.0, b.0, pegs)?, add(a.1, b.1, pegs)?)),
            )
    };
    match total(&keys, &paths, s) {
        Ok(t) => out.push(t),
        Err(e) => return Some(Err(e)),
    }
    let mut index = Indexed { blocks: Vec::new() };
    for pegs in (lowest..s).rev() {
        if keys.is_empty() {
            out.push((0, 0));
            paths.clear();
            continue;
        }
        if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Err(CountError::Cancelled));
        }
        let above = layer(pegs + 1)?;
        // The level above's ranks, found on every thread.
        let ranks: Vec<u32> = keys.par_iter().map(|&x| above.rank(x)).collect();
        index.fill(ranks.iter().copied(), above.len());
        let next = levels(pegs);
        let mut next_paths = vec![[0u128; 2]; next.len()];
        let (ix, from_paths, portable) = (&index, &paths, opts.portable);
        // The jumps into the level above found by the walks, when they kept them: no successors to list.
        let known = jumps(pegs).filter(|j| j.fits(next.len()));
        let pulled = next
            .par_chunks(CHUNK)
            .zip(next_paths.par_chunks_mut(CHUNK))
            .enumerate()
            .try_for_each(|(ci, (c, out))| {
                let src = match known.and_then(|j| j.chunks.get(ci)) {
                    Some(j) => Origins::Kept(j),
                    None => Origins::Listed(c),
                };
                let mut distinct = Vec::with_capacity(MOVE_WORDS * 64);
                each_origins(src, ix, &above, kr, portable, |i, origins| {
                    out[i] = add_origins(origins.iter().copied(), from_paths, &mut distinct, pegs)?;
                    Ok(())
                })
            });
        if let Err(e) = pulled {
            return Some(Err(e));
        }
        match total(&next, &next_paths, pegs) {
            Ok(t) => out.push(t),
            Err(e) => return Some(Err(e)),
        }
        index.clear(ranks.iter().copied());
        keys = next;
        paths = next_paths;
    }
    if let Some(m) = dual {
        let mid = Middle {
            m,
            keys: &keys,
            paths: &paths,
        };
        if let Err(e) = push_up(
            board,
            mid,
            &mut out,
            &mut index,
            &layer,
            (kf, kr),
            levels,
            jumps,
            opts,
        )? {
            return Some(Err(e));
        }
    }
    Some(Ok(out))
}
