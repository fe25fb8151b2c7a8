//! The expansion of source classes into records for the next level, with their statistics: portable, and
//! hand-written for AVX-512 and AVX2.

use crate::count::{CountError, Level, add};
use crate::counter::{Counter, SrcIndex};
use crate::kernel::{Kernel, LANES, MOVE_WORDS, MoveId};
use crate::level::{KeyFilter, Layout, Mixer, Rec, TableKey};

/// Statistics of a level gathered while expanding it.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Acc {
    pub positions: u64,
    pub classes: u64,
    pub paths_full: u128,
    pub paths_normal: u128,
    pub dead: u64,
    pub dead_classes: u64,
    pub games_full: u128,
    pub games_normal: u128,
    pub sol_full: u128,
    pub sol_normal: u128,
    pub records: u64,
}

impl Acc {
    /// The table row of the level with `pegs` pegs whose statistics these are.
    pub fn row(&self, pegs: u32) -> Level {
        Level {
            pegs,
            positions: self.positions,
            classes: self.classes,
            paths_full: self.paths_full,
            paths_normal: self.paths_normal,
            dead_ends: self.dead,
            dead_end_classes: self.dead_classes,
            games_full: self.games_full,
            games_normal: self.games_normal,
            finishable: None,
            finishable_classes: None,
        }
    }

    pub fn merge(self, o: Acc, pegs: u32) -> Result<Acc, CountError> {
        Ok(Acc {
            positions: self.positions + o.positions,
            classes: self.classes + o.classes,
            paths_full: add(self.paths_full, o.paths_full, pegs)?,
            paths_normal: add(self.paths_normal, o.paths_normal, pegs)?,
            dead: self.dead + o.dead,
            dead_classes: self.dead_classes + o.dead_classes,
            games_full: add(self.games_full, o.games_full, pegs)?,
            games_normal: add(self.games_normal, o.games_normal, pegs)?,
            sol_full: add(self.sol_full, o.sol_full, pegs)?,
            sol_normal: add(self.sol_normal, o.sol_normal, pegs)?,
            records: self.records + o.records,
        })
    }
}

/// Why a step stopped.
pub(crate) enum StepError {
    /// A narrow counter overflowed: rebuild the level with wide counters.
    Narrow,
    /// A final error.
    Fatal(CountError),
}

impl From<CountError> for StepError {
    fn from(e: CountError) -> Self {
        StepError::Fatal(e)
    }
}

/// One thread's output of a round: records by target partition, the counters they add (one entry per source
/// class with successors, and one more for each successor reached by several moves), and statistics.
pub(crate) struct Worker<K, D: Counter> {
    pub bufs: Vec<Vec<Rec<K, D::Src>>>,
    pub srcs: Vec<[D; 2]>,
    pub acc: Acc,
    /// Successors waiting for their filter bit (see [`Worker::emit`]): a ring of (mixed key, source).
    pending: [(u64, u32); PENDING],
    /// The index of the oldest entry of `pending`.
    oldest: usize,
}

/// How many successors a worker keeps waiting for their filter bits to come from memory.
const PENDING: usize = 32;

impl<K: TableKey, D: Counter> Worker<K, D> {
    /// A worker with these buffers and no successor waiting (for expansions without a filter, as a cluster
    /// worker's).
    pub(crate) fn with_buffers(bufs: Vec<Vec<Rec<K, D::Src>>>, srcs: Vec<[D; 2]>) -> Worker<K, D> {
        Worker {
            bufs,
            srcs,
            acc: Acc::default(),
            pending: [(u64::MAX, 0); PENDING],
            oldest: 0,
        }
    }

    /// Add counters to the table of source counters; their index.
    #[inline(always)]
    fn source(&mut self, full: D, norm: D) -> u32 {
        let i = self.srcs.len() as u32;
        if self.srcs.len() == self.srcs.capacity() {
            // A round that covers more source classes than its first guess: grow by a quarter, not double
            // (the memory limit counts the capacity).
            self.srcs.reserve_exact(self.srcs.capacity() / 4 + 64);
        }
        self.srcs.push([full, norm]);
        i
    }

    /// Add a record for partition `q`, asking the CPU for the buffer's next cache line (the buffers are far
    /// bigger than the caches, and a store that misses the cache holds up the stores after it).
    #[inline(always)]
    fn push(&mut self, q: usize, r: Rec<K, D::Src>) {
        let b = &mut self.bufs[q];
        let ahead = b
            .as_ptr()
            .wrapping_add(b.len() + 128 / std::mem::size_of::<Rec<K, D::Src>>());
        crate::bytes::prefetch_write(ahead);
        if b.len() == b.capacity() {
            // This thread took more of the round than its share: grow by a quarter, not double.
            b.reserve_exact(b.capacity() / 4 + 64);
        }
        b.push(r);
    }

    /// Emit successor `v` (a normal form) with the counters at `src`.
    #[inline(always)]
    fn emit(&mut self, ctx: &Ctx<'_>, v: u64, src: u32) {
        let h = ctx.mixer.mix(v);
        if let Some(f) = ctx.filter {
            // The filter's bits are far bigger than the caches: ask for this one now, and test the successor
            // queued `PENDING` successors ago (the empty places of the ring hold `u64::MAX`).
            f.prefetch(h);
            let i = self.oldest;
            let (old, old_src) = self.pending[i];
            self.pending[i] = (h, src);
            self.oldest = (i + 1) % PENDING;
            if old != u64::MAX && f.may_hold(old) {
                self.push_key(ctx, old, old_src);
            }
            return;
        }
        self.push_key(ctx, h, src);
    }

    /// Test the successors still waiting for their filter bits.
    pub(super) fn flush(&mut self, ctx: &Ctx<'_>) {
        let Some(f) = ctx.filter else {
            return;
        };
        for i in 0..PENDING {
            let (h, src) = std::mem::replace(&mut self.pending[i], (u64::MAX, 0));
            if h != u64::MAX && f.may_hold(h) {
                self.push_key(ctx, h, src);
            }
        }
        self.oldest = 0;
    }

    /// Add the record of the successor with mixed key `h`.
    #[inline(always)]
    fn push_key(&mut self, ctx: &Ctx<'_>, h: u64, src: u32) {
        if let Some(i) = ctx.buffer_of(h) {
            self.push(
                i,
                Rec {
                    key: K::store(h, &ctx.out),
                    src: D::Src::new(src),
                },
            );
        }
    }

    pub fn bytes(&self) -> u64 {
        let n: usize = self.bufs.iter().map(Vec::capacity).sum();
        (n * std::mem::size_of::<Rec<K, D::Src>>()
            + self.srcs.capacity() * std::mem::size_of::<[D; 2]>()) as u64
    }
}

/// Context of one level step.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub k: &'a Kernel,
    pub mixer: Mixer,
    pub pegs: u32,
    /// Normal form of the finish position (when the finish is a hole).
    pub finish_key: Option<u64>,
    /// Partitions of the level being built.
    pub out: Layout,
    /// Whether to build the next level (false for the last level: statistics only).
    pub emit: bool,
    /// When set, only the successors it may hold are kept (see [`KeyFilter`]).
    pub filter: Option<&'a KeyFilter>,
    /// The partitions of `out` this step builds, `first..first + parts`: the records of the others are
    /// dropped, and a worker's buffer `i` holds the records of partition `first + i` (a whole level in one
    /// pass: `0..out.parts()`; a level built in several passes by key range, as a spilling store does:
    /// one range a pass).
    pub first: usize,
    /// Number of partitions built (see `first`).
    pub parts: usize,
}

impl Ctx<'_> {
    /// The buffer of the record of mixed key `h`, when its partition is built in this pass.
    #[inline(always)]
    pub(crate) fn buffer_of(&self, h: u64) -> Option<usize> {
        let i = self.out.part(h).wrapping_sub(self.first);
        (i < self.parts).then_some(i)
    }
}

/// Expand source classes: statistics and records for the next level, into the worker's buffers. The
/// portable version, in plain Rust.
#[inline(always)]
pub(super) fn expand<K: TableKey, S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    let k = ctx.k;
    let rows = k.rows;
    let mut acc = w.acc;
    let mut succ = [0u64; MOVE_WORDS * 64];
    for (h, full, norm) in src {
        let key = ctx.mixer.unmix(h);
        let mut imgs = [[0u64; LANES]; 2];
        let mut fixed = 0usize;
        for (row, im) in imgs.iter_mut().enumerate().take(rows) {
            *im = k.images_portable(key, row);
            for (lane, &img) in im.iter().enumerate() {
                fixed += usize::from(img == key && row * LANES + lane < k.group_size);
            }
        }
        let size = u64::from(k.class_sizes[fixed]);
        let tw = full.to_u128();
        let nw = norm.to_u128();
        let legal = k.legal_portable(key);
        let dead = legal.iter().all(|&l| l == 0);
        tally(ctx, &mut acc, key, size, tw, nw, dead)?;
        if dead || !ctx.emit {
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        let slacks = k.prune.as_ref().map(|p| p.slacks(key));
        let mut n = 0;
        for (wi, &word) in legal.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(slacks), Some(p)) = (&slacks, &k.prune)
                    && !p.keeps(slacks, j)
                {
                    continue;
                }
                succ[n] = k.min_successor(&imgs, j);
                n += 1;
            }
        }
        if n == 0 {
            continue;
        }
        acc.records += emit_sorted(ctx, w, &mut succ[..n], td, nd)?;
    }
    w.acc = acc;
    Ok(())
}

/// The statistics of one source class (and, at the last peg, its solutions); `true` when it is a dead end.
#[inline(always)]
fn tally(
    ctx: &Ctx<'_>,
    acc: &mut Acc,
    key: u64,
    size: u64,
    tw: u128,
    nw: u128,
    dead: bool,
) -> Result<(), CountError> {
    let pegs = ctx.pegs;
    acc.positions += size;
    acc.classes += 1;
    acc.paths_full = add(acc.paths_full, tw, pegs)?;
    acc.paths_normal = add(acc.paths_normal, nw, pegs)?;
    if dead {
        acc.dead += size;
        acc.dead_classes += 1;
        acc.games_full = add(acc.games_full, tw, pegs)?;
        acc.games_normal = add(acc.games_normal, nw, pegs)?;
        if pegs == 1 && !ctx.k.reverse {
            match ctx.finish_key {
                None => {
                    acc.sol_full = add(acc.sol_full, tw, 1)?;
                    acc.sol_normal = add(acc.sol_normal, nw, 1)?;
                }
                Some(f) if f == key => {
                    acc.sol_full = add(acc.sol_full, tw / u128::from(size), 1)?;
                    acc.sol_normal = add(acc.sol_normal, nw, 1)?;
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Emit the distinct successors among `succ` (normal forms, sorted here) of a class with counters `td`, `nd`:
/// a successor reached by several moves adds the full-tree count that many times. Returns the number of
/// records.
#[inline(always)]
fn emit_sorted<K: TableKey, D: Counter>(
    ctx: &Ctx<'_>,
    w: &mut Worker<K, D>,
    succ: &mut [u64],
    td: D,
    nd: D,
) -> Result<u64, StepError> {
    succ.sort_unstable();
    let one = w.source(td, nd);
    let mut records = 0;
    let mut i = 0;
    while i < succ.len() {
        let mut j = i + 1;
        while j < succ.len() && succ[j] == succ[i] {
            j += 1;
        }
        let src = if j - i == 1 {
            one
        } else {
            let full = td.mul((j - i) as u32).ok_or(StepError::Narrow)?;
            w.source(full, nd)
        };
        w.emit(ctx, succ[i], src);
        records += 1;
        i = j;
    }
    Ok(records)
}

/// [`expand`] hand-written for AVX-512: the images of a class with one bit-shuffle instruction each; eight
/// successors' normal forms at a time (the XOR of the class's images with the moves' images, then a
/// transposing reduction to the minimum of each); their mixed keys with vector multiplications; repeats among
/// up to 16 successors found with one conflict-detection instruction on 32-bit fingerprints (a fingerprint
/// repeat sends the class to the exact path, which sorts).
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl,avx512vbmi2,avx512bitalg,avx512vpopcntdq,popcnt,bmi1,bmi2"
)]
fn expand_avx512<K: TableKey, S: Counter, D: Counter, M: MoveId>(
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    use std::arch::x86_64::*;

    use crate::kernel::avx512;
    let k = ctx.k;
    let ones = _mm512_set1_epi64(-1);
    let mut acc = w.acc;
    let mut moves = [M::default(); MOVE_WORDS * 64 + 64];
    let mut vals = [0u64; 400];
    let mut hs = [0u64; 16];
    for (h, full, norm) in src {
        let key = ctx.mixer.unmix(h);
        let kv = _mm512_set1_epi64(key as i64);
        let (im, fixed) = avx512::images(k, kv);
        let size = u64::from(k.class_sizes[fixed as usize]);
        let tw = full.to_u128();
        let nw = norm.to_u128();
        let n = avx512::legal_moves_as(k, key, kv, &mut moves);
        tally(ctx, &mut acc, key, size, tw, nw, n == 0)?;
        if n == 0 || !ctx.emit {
            continue;
        }
        let n = k.prune_moves(key, &mut moves, n);
        if n == 0 {
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        // Normal forms of the successors, eight at a time: lane `i` of the result is the successor by move
        // `moves[g + i]` (all ones past the moves).
        if n > 2 * LANES {
            for g in (0..n).step_by(LANES) {
                let v = avx512::successors8(k, &im, &moves[g..n.min(g + LANES)]);
                // SAFETY: `vals` has room for 8 values from any group start below the number of moves.
                unsafe { _mm512_storeu_si512(vals.as_mut_ptr().add(g).cast(), v) };
            }
            acc.records += emit_sorted(ctx, w, &mut vals[..n], td, nd)?;
            continue;
        }
        let v0 = avx512::successors8(k, &im, &moves[..n.min(LANES)]);
        let v1 = if n > LANES {
            avx512::successors8(k, &im, &moves[LANES..n])
        } else {
            ones
        };
        {
            let h0 = ctx.mixer.mix8(v0);
            let h1 = ctx.mixer.mix8(v1);
            let f = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(_mm512_cvtepi64_epi32(h0)),
                _mm512_cvtepi64_epi32(h1),
            );
            let valid = (0xFFFFu32 >> (16 - n)) as u16;
            if !avx512::near_symmetric(k, &im, kv)
                || _mm512_test_epi32_mask(_mm512_maskz_conflict_epi32(valid, f), ones) == 0
            {
                // SAFETY: `hs` holds 16 values: two unaligned stores of 8 at offsets 0 and 8 fill it exactly.
                unsafe {
                    _mm512_storeu_si512(hs.as_mut_ptr().cast(), h0);
                    _mm512_storeu_si512(hs.as_mut_ptr().add(LANES).cast(), h1);
                }
                let src = w.source(td, nd);
                for &hv in &hs[..n] {
                    if ctx.filter.is_some() {
                        // Through the filter's queue (the key is mixed again: this path is rare).
                        w.emit(ctx, ctx.mixer.unmix(hv), src);
                        continue;
                    }
                    w.push_key(ctx, hv, src);
                }
                acc.records += n as u64;
                continue;
            }
        }
        // Two fingerprints are equal: sort the successors to find repeats.
        // SAFETY: `vals` holds at least 16 values.
        unsafe {
            _mm512_storeu_si512(vals.as_mut_ptr().cast(), v0);
            _mm512_storeu_si512(vals.as_mut_ptr().add(LANES).cast(), v1);
        }
        acc.records += emit_sorted(ctx, w, &mut vals[..n], td, nd)?;
    }
    w.acc = acc;
    Ok(())
}

/// [`expand`] hand-written for AVX2 (CPUs without AVX-512). Per class: its images and the neighbour bits of
/// its holes, one cache line of a table per four bits of the position (one pass over them for both on the
/// square lattice); then its successors straight from the bit masks of legal moves, four at a time (the XOR
/// of the class's images with the move's, each reduced to its minimum in one transposing step). A class that
/// no symmetry but the identity brings within six holes of itself cannot reach one class by two jumps, so its
/// successors are emitted as they come, unsorted; keys-only levels (no counters) never sort.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn expand_avx2<K: TableKey, S: Counter, D: Counter>(
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    use crate::kernel::avx2;
    let k = ctx.k;
    let keys_only = std::mem::size_of::<D>() == 0;
    let ndirs = k.dirs.len();
    let mut acc = w.acc;
    let mut vals = [0u64; 256 + 4];
    let mut moves = [0u8; 256 + 8];
    let mut legal = [0u64; 8];
    for (h, full, norm) in src {
        let key = ctx.mixer.unmix(h);
        let im = avx2::images_legal(k, key, &mut legal);
        let dead = legal[..ndirs].iter().all(|&l| l == 0);
        let (tw, nw) = (full.to_u128(), norm.to_u128());
        if keys_only {
            acc.classes += 1;
        } else {
            let fixed = avx2::fixed(k, &im, key);
            let size = u64::from(k.class_sizes[fixed as usize]);
            tally(ctx, &mut acc, key, size, tw, nw, dead)?;
        }
        if dead || !ctx.emit {
            continue;
        }
        // The successors' normal forms, without those the pruning test drops.
        let n = avx2::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals);
        if n == 0 {
            continue;
        }
        if keys_only {
            for &v in &vals[..n] {
                w.emit(ctx, v, 0);
            }
            acc.records += n as u64;
            continue;
        }
        let td = D::from_u128(tw).ok_or(StepError::Narrow)?;
        let nd = D::from_u128(nw).ok_or(StepError::Narrow)?;
        if avx2::near_symmetric(k, &im, key) {
            acc.records += emit_sorted(ctx, w, &mut vals[..n], td, nd)?;
            continue;
        }
        let src = w.source(td, nd);
        for &v in &vals[..n] {
            w.emit(ctx, v, src);
        }
        acc.records += n as u64;
    }
    w.acc = acc;
    Ok(())
}

pub(crate) fn expand_dispatch<K: TableKey, S: Counter, D: Counter>(
    portable: bool,
    ctx: &Ctx<'_>,
    src: impl Iterator<Item = (u64, S, S)>,
    w: &mut Worker<K, D>,
) -> Result<(), StepError> {
    #[cfg(target_arch = "x86_64")]
    if !portable && crate::kernel::has_avx512() {
        // SAFETY: `has_avx512` checked that the CPU has the features `expand_avx512` is compiled for.
        return unsafe {
            if ctx.k.byte_moves() {
                expand_avx512::<K, S, D, u8>(ctx, src, w)
            } else {
                expand_avx512::<K, S, D, u32>(ctx, src, w)
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    if !portable && ctx.k.avx2_ok() && ctx.k.dgroups <= 2 {
        // SAFETY: `avx2_ok` checked that the CPU has the features `expand_avx2` is compiled for.
        return unsafe { expand_avx2(ctx, src, w) };
    }
    let _ = portable;
    expand(ctx, src, w)
}
