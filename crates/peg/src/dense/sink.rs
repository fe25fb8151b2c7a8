//! A step of a walk: each class's successors, ranked, set in the next level's bit set; the jumps kept for the
//! path counts; the levels of a walk.

use std::sync::atomic::{AtomicU64, Ordering};

use super::layer::{Bits, CHUNK, Layer};
use crate::bytes::prefetch_write;
use crate::kernel::{Kernel, LANES, MOVE_WORDS};

/// Positions of a level whose jumps' origins [`count_paths`] looks up together.
pub(super) const PULL: usize = 256;

/// Successors waiting for their bit set's word to come from memory.
const RING: usize = 16;

/// Sets the bits of positions in a layer's bit set, each word asked for [`RING`] positions before it is
/// written; with a second bit set `only`, only the bits set in it (the word of `only` is the one asked for:
/// most positions are not in it, and those are dropped after one read). With `record`, the positions kept are
/// also listed, by the position they were found from (see [`Jumps`]).
pub(super) struct Sink<'a> {
    layer: &'a Layer<'a>,
    bits: &'a Bits,
    only: Option<&'a Bits>,
    /// Positions waiting for their word, each with the index (in its chunk) of the position it was found from.
    ring: [(u32, u32); RING],
    next: usize,
    /// Positions pushed.
    pub(super) count: u64,
    /// The index (in the chunk) of the position whose successors are being pushed.
    pub(super) from: u32,
    /// When recording: the ranks kept, in the order they were pushed.
    record: Option<Vec<u32>>,
    /// When recording: per position of the chunk, how many of its successors were kept.
    kept: Vec<u32>,
}

impl<'a> Sink<'a> {
    pub(super) fn new(layer: &'a Layer<'a>, bits: &'a Bits, only: Option<&'a Bits>) -> Sink<'a> {
        Sink {
            layer,
            bits,
            only,
            ring: [(u32::MAX, 0); RING],
            next: 0,
            count: 0,
            from: 0,
            record: None,
            kept: Vec::new(),
        }
    }

    /// A sink that also lists the ranks kept, for the `sources` positions of a chunk.
    pub(super) fn recording(
        layer: &'a Layer<'a>,
        bits: &'a Bits,
        only: Option<&'a Bits>,
        sources: usize,
    ) -> Sink<'a> {
        Sink {
            record: Some(Vec::with_capacity(sources * 8)),
            kept: vec![0; sources],
            ..Sink::new(layer, bits, only)
        }
    }

    /// The jumps recorded (after [`Sink::flush`]).
    pub(super) fn jumps(self) -> ChunkJumps {
        let mut ends = self.kept;
        let mut at = 0;
        for e in &mut ends {
            at += *e;
            *e = at;
        }
        let mut ranks = self.record.unwrap_or_default();
        ranks.shrink_to_fit();
        ChunkJumps { ranks, ends }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, x: u64) {
        let r = self.layer.rank(x);
        let first = self.only.unwrap_or(self.bits);
        prefetch_write(&first.words[(r >> 6) as usize] as *const AtomicU64);
        let old = std::mem::replace(&mut self.ring[self.next], (r, self.from));
        self.next = (self.next + 1) % RING;
        self.count += 1;
        if old.0 != u32::MAX {
            self.set(old);
        }
    }

    #[inline(always)]
    fn set(&mut self, (r, from): (u32, u32)) {
        let i = (r >> 6) as usize;
        let b = 1u64 << (r & 63);
        if let Some(o) = self.only
            && o.words[i].load(Ordering::Relaxed) & b == 0
        {
            return;
        }
        if let Some(rec) = &mut self.record {
            rec.push(r);
            if let Some(k) = self.kept.get_mut(from as usize) {
                *k += 1;
            }
        }
        let w = &self.bits.words[i];
        // Most successors are repeats: read first, write only a new bit.
        if w.load(Ordering::Relaxed) & b == 0 {
            w.fetch_or(b, Ordering::Relaxed);
        }
    }

    pub(super) fn flush(&mut self) {
        // Oldest first, so that the ranks recorded stay in the order they were pushed.
        for i in 0..RING {
            let e = std::mem::replace(&mut self.ring[(self.next + i) % RING], (u32::MAX, 0));
            if e.0 != u32::MAX {
                self.set(e);
            }
        }
    }
}

/// The jumps a step of a walk found between two levels of a finishable set, for [`count_paths`]: for each
/// position of the level the step started from (in order), the ranks of the successors it kept, in the layer of
/// the level the step built (repeats included: each is a jump). Kept as the step found them, by chunks of
/// [`CHUNK`] positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Jumps {
    pub(super) chunks: Vec<ChunkJumps>,
}

/// The jumps of [`CHUNK`] positions (fewer in the last chunk).
#[derive(Debug, Clone, Default)]
pub(super) struct ChunkJumps {
    /// The ranks, position after position.
    pub(super) ranks: Vec<u32>,
    /// `ends[i]`: where the ranks of the chunk's position `i` end in `ranks`.
    pub(super) ends: Vec<u32>,
}

impl Jumps {
    pub(crate) fn bytes(&self) -> u64 {
        self.chunks
            .iter()
            .map(|c| (c.ranks.capacity() * 4 + c.ends.capacity() * 4) as u64)
            .sum()
    }

    /// Whether these are the jumps of a level of `len` positions.
    pub(super) fn fits(&self, len: usize) -> bool {
        self.chunks.len() == len.div_ceil(CHUNK)
            && self
                .chunks
                .iter()
                .enumerate()
                .all(|(i, c)| c.ends.len() == (len - i * CHUNK).min(CHUNK))
    }
}

impl ChunkJumps {
    /// The ranks of position `i` of the chunk.
    pub(super) fn of(&self, i: usize) -> &[u32] {
        let lo = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.ranks[lo..self.ends[i] as usize]
    }
}

/// What a step keeps of the successors it finds.
#[derive(Clone, Copy)]
pub(super) enum Filter<'a> {
    /// Those in this level.
    Level(&'a Level),
    /// Those whose bits are set in the step's second bit set already.
    Loaded,
}

/// A level of a dense walk: the ranks of its positions (normal forms) in the layer of `pegs` pegs, increasing.
pub(super) struct Level {
    pub(super) pegs: u32,
    pub(super) ranks: Vec<u32>,
}

impl Level {
    pub(super) fn empty(pegs: u32) -> Level {
        Level {
            pegs,
            ranks: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.ranks.len()
    }

    pub(super) fn bytes(&self) -> u64 {
        (self.ranks.capacity() * 4) as u64
    }
}

/// For each position of `keys`, `f(position, successors)`: its successors by `k`'s moves (jumps, or jumps taken
/// back), normalized, those `k`'s pagoda tests keep.
pub(super) fn each_successors<F: FnMut(u64, &[u64])>(
    k: &Kernel,
    portable: bool,
    keys: impl Iterator<Item = u64>,
    mut f: F,
) {
    #[cfg(target_arch = "x86_64")]
    if !portable && k.dirs.len() <= 8 && k.byte_moves() && crate::kernel::has_avx512() {
        // SAFETY: `has_avx512` checked that the CPU has the features `each_successors_avx512` is compiled for.
        unsafe { each_successors_avx512(k, keys, &mut f) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if !portable && k.avx2_ok() && k.dgroups <= 2 {
        // SAFETY: `avx2_ok` checked that the CPU has the features `each_successors_avx2` is compiled for.
        unsafe { each_successors_avx2(k, keys, &mut f) };
        return;
    }
    let _ = portable;
    let mut vals = Vec::with_capacity(MOVE_WORDS * 64);
    for key in keys {
        let mut imgs = [[0u64; LANES]; 2];
        for (row, im) in imgs.iter_mut().enumerate().take(k.rows) {
            *im = k.images_portable(key, row);
        }
        let slacks = k.prune.as_ref().map(|p| p.slacks(key));
        vals.clear();
        for (wi, &word) in k.legal_portable(key).iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(slacks), Some(p)) = (&slacks, &k.prune)
                    && !p.keeps(slacks, j)
                {
                    continue;
                }
                vals.push(k.min_successor(&imgs, j));
            }
        }
        f(key, &vals);
    }
}

/// [`each_successors`] with the AVX2 kernel (as the general walks' `expand_avx2`, without counters).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn each_successors_avx2<F: FnMut(u64, &[u64])>(
    k: &Kernel,
    keys: impl Iterator<Item = u64>,
    f: &mut F,
) {
    use crate::kernel::avx2;
    let mut vals = [0u64; 256 + 4];
    let mut moves = [0u8; 256 + 8];
    let mut legal = [0u64; 8];
    for key in keys {
        let im = avx2::images_legal(k, key, &mut legal);
        let n = avx2::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals);
        f(key, &vals[..n]);
    }
}

/// [`each_successors`] with the AVX-512 kernel: the images with one bit-shuffle instruction each, the legal
/// moves of a direction with two, their indices with one compress instruction, eight successors' normal forms
/// at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl,avx512vbmi2,avx512bitalg,popcnt,bmi1,bmi2"
)]
fn each_successors_avx512<F: FnMut(u64, &[u64])>(
    k: &Kernel,
    keys: impl Iterator<Item = u64>,
    f: &mut F,
) {
    use crate::kernel::avx512;
    use std::arch::x86_64::_mm512_set1_epi64;
    let mut vals = [0u64; 256 + 8];
    let mut moves = [0u8; 256 + 64];
    let mut legal = [0u64; 8];
    for key in keys {
        let kv = _mm512_set1_epi64(key as i64);
        let (im, _) = avx512::images(k, kv);
        avx512::legal_masks(k, key, kv, &mut legal);
        let n = avx512::kept_successors(k, key, &im, &mut legal, &mut moves, &mut vals);
        f(key, &vals[..n]);
    }
}

pub(super) fn held(levels: &[Option<Level>]) -> u64 {
    levels.iter().flatten().map(Level::bytes).sum()
}
