//! The hot inner kernel shared by the fast enumeration and the solver: images of a position under a symmetry
//! group, legal moves, and normal forms of successors.
//!
//! A symmetry is a permutation of bits, so it is linear under XOR: `g(p ^ m) = g(p) ^ g(m)`. The kernel computes
//! the images of a position once, and the images of every successor `p ^ m` as `images(p)[i] ^ images(m)[i]`
//! with the move masks' images precomputed. The normal form is the smallest image.
//!
//! Two implementations: a portable one (byte lookup tables, scalar loops) and, on x86-64 CPUs with AVX-512
//! (F, BW, BITALG), one that computes each image with a single bit-shuffle instruction and the eight successor
//! images with one vector XOR and a vector minimum. Both give identical results (tested).

use crate::board::{Board, Symmetry};

/// Words of a legal-move bit set (a board has at most 6 * 64 = 384 jumps).
pub(crate) const MOVE_WORDS: usize = 6;

/// Lanes: the group is padded to 8 elements (repeating the identity); groups of more than 8 use two rows.
pub(crate) const LANES: usize = 8;

/// Precomputed tables for one board and one symmetry group.
#[derive(Debug, Clone)]
pub(crate) struct Kernel {
    /// Number of real group elements (1..=12).
    pub group_size: usize,
    /// Number of 8-lane rows (1, or 2 for groups of more than 8 elements).
    pub rows: usize,
    /// Bytes of a position that can hold pegs.
    nbytes: usize,
    /// `tables[row*8+lane][byte][value]`: the image of `value << 8*byte`.
    tables: Vec<[[u64; 256]; 8]>,
    /// Per lane: the bit-shuffle control (for each target bit, the source bit it comes from).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    shuffle: Vec<[u8; 64]>,
    /// Per move: pegs needed on `from` and `over`.
    pub need: Vec<u64>,
    /// Per move: the `to` bit.
    pub to: Vec<u64>,
    /// Per move: the images of its mask, `rows*8` lanes.
    pub move_images: Vec<[u64; LANES]>,
    /// `need` padded to a multiple of 8 with moves that are never legal.
    need_pad: Vec<u64>,
    /// `to` padded likewise.
    to_pad: Vec<u64>,
}

impl Kernel {
    /// Tables for `board` and the group `group` (whose first element is the identity).
    pub fn new(board: &Board, group: &[Symmetry]) -> Kernel {
        let n = board.holes();
        let group_size = group.len().max(1);
        let rows = group_size.div_ceil(LANES);
        let lanes = rows * LANES;
        let mut perms: Vec<Symmetry> = group.to_vec();
        if perms.is_empty() {
            perms.push(Symmetry::identity(n));
        }
        while perms.len() < lanes {
            perms.push(perms[0].clone());
        }
        let nbytes = n.div_ceil(8);
        let mut tables = Vec::with_capacity(lanes);
        let mut shuffle = Vec::with_capacity(lanes);
        for g in &perms {
            let mut t = [[0u64; 256]; 8];
            for (byte, row) in t.iter_mut().enumerate() {
                for (value, slot) in row.iter_mut().enumerate() {
                    let mut img = 0u64;
                    for bit in 0..8 {
                        let h = byte * 8 + bit;
                        if value >> bit & 1 == 1 && h < n {
                            img |= 1u64 << g.map_hole(h);
                        }
                    }
                    *slot = img;
                }
            }
            tables.push(t);
            // Target bit g(h) comes from source bit h; bits that are not holes read bit 63, which is zero
            // unless the board has 64 holes (and then every bit is a hole).
            let mut c = [63u8; 64];
            for h in 0..n {
                c[g.map_hole(h)] = h as u8;
            }
            shuffle.push(c);
        }
        let mut need = Vec::new();
        let mut to = Vec::new();
        let mut move_images = Vec::new();
        for m in board.moves() {
            need.push(1u64 << m.from() | 1u64 << m.over());
            to.push(1u64 << m.to());
            for row in 0..rows {
                let mut imgs = [0u64; LANES];
                for (lane, img) in imgs.iter_mut().enumerate() {
                    let g = &perms[row * LANES + lane];
                    *img = 1u64 << g.map_hole(m.from())
                        | 1u64 << g.map_hole(m.over())
                        | 1u64 << g.map_hole(m.to());
                }
                move_images.push(imgs);
            }
        }
        let mut need_pad = need.clone();
        let mut to_pad = to.clone();
        while need_pad.len() % LANES != 0 || need_pad.is_empty() {
            need_pad.push(u64::MAX);
            to_pad.push(u64::MAX);
        }
        Kernel {
            group_size,
            rows,
            nbytes,
            tables,
            shuffle,
            need,
            to,
            move_images,
            need_pad,
            to_pad,
        }
    }

    /// The images of `key` in lanes of row `row`, portable version.
    #[inline(always)]
    pub fn images_portable(&self, key: u64, row: usize) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        for (lane, o) in out.iter_mut().enumerate() {
            let t = &self.tables[row * LANES + lane];
            let mut img = 0u64;
            for (b, tb) in t.iter().enumerate().take(self.nbytes) {
                img |= tb[(key >> (8 * b)) as usize & 255];
            }
            *o = img;
        }
        out
    }

    /// The bit-shuffle controls of a row, as 8 lanes of 64 bytes.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn shuffle_row(&self, row: usize) -> &[[u8; 64]] {
        &self.shuffle[row * LANES..row * LANES + LANES]
    }

    /// The legal moves of `key` as a bit set over move indices, portable version.
    #[inline(always)]
    pub fn legal_portable(&self, key: u64) -> [u64; MOVE_WORDS] {
        let mut out = [0u64; MOVE_WORDS];
        for (w, o) in out.iter_mut().enumerate() {
            let lo = w * 64;
            if lo >= self.need.len() {
                break;
            }
            let hi = (lo + 64).min(self.need.len());
            let mut bits = 0u64;
            for (j, (&need, &to)) in self.need[lo..hi].iter().zip(&self.to[lo..hi]).enumerate() {
                bits |= u64::from(key & need == need && key & to == 0) << j;
            }
            *o = bits;
        }
        out
    }

    /// The normal form (smallest image) of `pos` and its class size, portable version.
    pub fn normalize(&self, pos: u64) -> (u64, u64) {
        let mut best = u64::MAX;
        for row in 0..self.rows {
            let imgs = self.images_portable(pos, row);
            best = best.min(imgs.iter().copied().min().unwrap_or(u64::MAX));
        }
        (best, self.class_size(best))
    }

    /// All images of `pos` under the group (the real elements, in group order).
    pub fn images(&self, pos: u64) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.group_size);
        for row in 0..self.rows {
            let imgs = self.images_portable(pos, row);
            for (lane, &img) in imgs.iter().enumerate() {
                if row * LANES + lane < self.group_size {
                    out.push(img);
                }
            }
        }
        out
    }

    /// Number of distinct images of `pos`: group size over the number of symmetries fixing it.
    pub fn class_size(&self, pos: u64) -> u64 {
        let mut fixed = 0usize;
        for row in 0..self.rows {
            let imgs = self.images_portable(pos, row);
            for (lane, &img) in imgs.iter().enumerate() {
                if row * LANES + lane < self.group_size && img == pos {
                    fixed += 1;
                }
            }
        }
        (self.group_size / fixed.max(1)) as u64
    }
}

/// Whether this CPU has the AVX-512 features the fast kernel uses.
pub(crate) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512bitalg")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The instruction-set variants of the kernel's per-position work.
pub(crate) trait Isa: Copy + Send + Sync {
    /// Images of `key` under row `row` of the group.
    fn images(self, k: &Kernel, key: u64, row: usize) -> [u64; LANES];
    /// The smallest of `imgs[i] ^ m[i]`.
    fn min_xor(self, imgs: &[u64; LANES], m: &[u64; LANES]) -> u64;
    /// The legal moves of `key` as a bit set.
    fn legal(self, k: &Kernel, key: u64) -> [u64; MOVE_WORDS];
    /// The distinct normal forms of the successors of a position (given its images and legal moves), with how
    /// many moves reach each, when there are at most 16 of them (`None` otherwise: the caller sorts).
    #[inline(always)]
    fn successors(
        self,
        k: &Kernel,
        imgs: &[[u64; LANES]; 2],
        legal: &[u64; MOVE_WORDS],
        vals: &mut [u64; 16],
        mults: &mut [u64; 16],
    ) -> Option<usize> {
        let mut nd = 0usize;
        for (wi, &word) in legal.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let v = min_successor(self, k, imgs, j);
                match vals[..nd].iter().position(|&x| x == v) {
                    Some(i) => mults[i] += 1,
                    None => {
                        if nd == 16 {
                            return None;
                        }
                        vals[nd] = v;
                        mults[nd] = 1;
                        nd += 1;
                    }
                }
            }
        }
        Some(nd)
    }
}

/// The normal form of the successor of a position by move `j`, from the position's images.
#[inline(always)]
pub(crate) fn min_successor<I: Isa>(isa: I, k: &Kernel, imgs: &[[u64; LANES]; 2], j: usize) -> u64 {
    let rows = k.rows;
    let mut best = isa.min_xor(&imgs[0], &k.move_images[j * rows]);
    if rows > 1 {
        best = best.min(isa.min_xor(&imgs[1], &k.move_images[j * rows + 1]));
    }
    best
}

/// The portable variant.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl Isa for Portable {
    #[inline(always)]
    fn images(self, k: &Kernel, key: u64, row: usize) -> [u64; LANES] {
        k.images_portable(key, row)
    }
    #[inline(always)]
    fn min_xor(self, imgs: &[u64; LANES], m: &[u64; LANES]) -> u64 {
        let mut best = imgs[0] ^ m[0];
        for i in 1..LANES {
            best = best.min(imgs[i] ^ m[i]);
        }
        best
    }
    #[inline(always)]
    fn legal(self, k: &Kernel, key: u64) -> [u64; MOVE_WORDS] {
        k.legal_portable(key)
    }
}

/// The AVX-512 variant. Only constructed after [`has_avx512`] returned true, and only used inside functions
/// compiled with those target features.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Avx512(());

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The variant, if this CPU supports it.
    pub fn detect() -> Option<Avx512> {
        has_avx512().then_some(Avx512(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Isa for Avx512 {
    #[inline(always)]
    fn images(self, k: &Kernel, key: u64, row: usize) -> [u64; LANES] {
        use std::arch::x86_64::*;
        let ctl = k.shuffle_row(row);
        let mut out = [0u64; LANES];
        // SAFETY: an `Avx512` value exists only when the CPU has AVX-512 F/BW/BITALG (checked by `detect`);
        // the loads read 64 bytes from `[u8; 64]` arrays.
        unsafe {
            let src = _mm512_set1_epi64(key as i64);
            for (lane, o) in out.iter_mut().enumerate() {
                let c = _mm512_loadu_si512(ctl[lane].as_ptr().cast());
                *o = _mm512_bitshuffle_epi64_mask(src, c);
            }
        }
        out
    }
    #[inline(always)]
    fn min_xor(self, imgs: &[u64; LANES], m: &[u64; LANES]) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: as above; the loads read 64 bytes from `[u64; 8]` arrays.
        unsafe {
            let a = _mm512_loadu_si512(imgs.as_ptr().cast());
            let b = _mm512_loadu_si512(m.as_ptr().cast());
            _mm512_reduce_min_epu64(_mm512_xor_si512(a, b))
        }
    }
    #[inline(always)]
    fn legal(self, k: &Kernel, key: u64) -> [u64; MOVE_WORDS] {
        use std::arch::x86_64::*;
        let mut out = [0u64; MOVE_WORDS];
        // SAFETY: as above; `need_pad` and `to_pad` have a multiple of 8 elements, read 8 at a time.
        unsafe {
            let kv = _mm512_set1_epi64(key as i64);
            let blocks = k.need_pad.len() / LANES;
            for (w, o) in out.iter_mut().enumerate() {
                let mut bits = 0u64;
                for b in (w * 8)..(w * 8 + 8).min(blocks) {
                    let nv = _mm512_loadu_si512(k.need_pad.as_ptr().add(b * LANES).cast());
                    let tv = _mm512_loadu_si512(k.to_pad.as_ptr().add(b * LANES).cast());
                    let m1 = _mm512_cmpeq_epi64_mask(_mm512_and_si512(kv, nv), nv);
                    let m2 = _mm512_mask_testn_epi64_mask(m1, kv, tv);
                    bits |= u64::from(m2) << (8 * (b % 8));
                }
                *o = bits;
                if (w + 1) * 8 >= blocks {
                    break;
                }
            }
        }
        out
    }
    #[inline(always)]
    fn successors(
        self,
        k: &Kernel,
        imgs: &[[u64; LANES]; 2],
        legal: &[u64; MOVE_WORDS],
        vals: &mut [u64; 16],
        mults: &mut [u64; 16],
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        if k.rows != 1 {
            return Portable.successors(k, imgs, legal, vals, mults);
        }
        // SAFETY: as above; every load reads a `[u64; 8]`, the stores write `[u64; 16]` arrays in two halves.
        unsafe {
            let im = _mm512_loadu_si512(imgs[0].as_ptr().cast());
            let one = _mm512_set1_epi64(1);
            let (mut v0, mut v1) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let (mut c0, mut c1) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let mut nd = 0usize;
            for (wi, &word) in legal.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let j = wi * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let m = _mm512_loadu_si512(k.move_images[j].as_ptr().cast());
                    // The minimum of the eight images, in every lane.
                    let x = _mm512_xor_si512(im, m);
                    let x = _mm512_min_epu64(x, _mm512_shuffle_i64x2::<0b0100_1110>(x, x));
                    let x = _mm512_min_epu64(x, _mm512_shuffle_i64x2::<0b1011_0001>(x, x));
                    let x = _mm512_min_epu64(x, _mm512_shuffle_epi32::<0b0100_1110>(x));
                    // Successors are never 0 (they keep at least one peg) and unused lanes are 0.
                    let e0 = _mm512_cmpeq_epi64_mask(v0, x);
                    let e1 = _mm512_cmpeq_epi64_mask(v1, x);
                    if e0 | e1 != 0 {
                        c0 = _mm512_mask_add_epi64(c0, e0, c0, one);
                        c1 = _mm512_mask_add_epi64(c1, e1, c1, one);
                    } else if nd < 8 {
                        v0 = _mm512_mask_mov_epi64(v0, 1 << nd, x);
                        c0 = _mm512_mask_mov_epi64(c0, 1 << nd, one);
                        nd += 1;
                    } else if nd < 16 {
                        v1 = _mm512_mask_mov_epi64(v1, 1 << (nd - 8), x);
                        c1 = _mm512_mask_mov_epi64(c1, 1 << (nd - 8), one);
                        nd += 1;
                    } else {
                        return None;
                    }
                }
            }
            _mm512_storeu_si512(vals.as_mut_ptr().cast(), v0);
            _mm512_storeu_si512(vals.as_mut_ptr().add(8).cast(), v1);
            _mm512_storeu_si512(mults.as_mut_ptr().cast(), c0);
            _mm512_storeu_si512(mults.as_mut_ptr().add(8).cast(), c1);
            Some(nd)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::position::Position;

    #[test]
    fn portable_images_match_symmetry_apply() {
        for name in crate::board::builtin_names() {
            let b = Board::builtin(name).unwrap();
            let k = Kernel::new(&b, b.symmetries());
            let mut x = 0x1234_5678_9abc_def1u64;
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let pos = Position::from_bits(x & b.full().bits());
                let imgs = k.images_portable(pos.bits(), 0);
                for (lane, g) in b.symmetries().iter().enumerate() {
                    assert_eq!(imgs[lane], g.apply(pos).bits());
                }
                assert_eq!(k.normalize(pos.bits()).0, b.normalize(pos).bits());
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_kernel_matches_portable() {
        let Some(isa) = Avx512::detect() else {
            eprintln!("no AVX-512 on this CPU: only the portable kernel is tested");
            return;
        };
        for name in crate::board::builtin_names() {
            let b = Board::builtin(name).unwrap();
            let k = Kernel::new(&b, b.symmetries());
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..500 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let key = x & b.full().bits();
                let a = isa.images(&k, key, 0);
                let p = Portable.images(&k, key, 0);
                assert_eq!(a, p);
                for m in &k.move_images {
                    assert_eq!(isa.min_xor(&a, m), Portable.min_xor(&p, m));
                }
                assert_eq!(isa.legal(&k, key), Portable.legal(&k, key));
                let imgs2 = [a, [0; 8]];
                let legal = Portable.legal(&k, key);
                let (mut va, mut ma, mut vp, mut mp) = ([0; 16], [0; 16], [0; 16], [0; 16]);
                let na = isa.successors(&k, &imgs2, &legal, &mut va, &mut ma);
                let np = Portable.successors(&k, &imgs2, &legal, &mut vp, &mut mp);
                assert_eq!(na, np);
                if let Some(n) = na {
                    assert_eq!(va[..n], vp[..n]);
                    assert_eq!(ma[..n], mp[..n]);
                }
                let legal = Portable.legal(&k, key);
                for (j, mv) in b.moves().iter().enumerate() {
                    assert_eq!(
                        legal[j / 64] >> (j % 64) & 1 == 1,
                        mv.is_legal(Position::from_bits(key))
                    );
                }
            }
        }
    }
}
