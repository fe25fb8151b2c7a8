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
    /// The group (padded permutations by lane), for mapping holes.
    pub perms: Vec<Symmetry>,
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
                    *img = 1u64 << g.map_hole(m.from()) | 1u64 << g.map_hole(m.over()) | 1u64 << g.map_hole(m.to());
                }
                move_images.push(imgs);
            }
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
            perms,
        }
    }

    /// Number of moves on the board.
    #[inline(always)]
    pub fn moves(&self) -> usize {
        self.need.len()
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

    /// Legal moves of `key`, written into `out` as move indices; returns how many.
    #[inline(always)]
    pub fn legal_moves(&self, key: u64, out: &mut [u8; 256]) -> usize {
        let mut k = 0;
        for (j, (&need, &to)) in self.need.iter().zip(&self.to).enumerate() {
            out[k] = j as u8;
            k += usize::from(key & need == need && key & to == 0);
        }
        k
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
            }
        }
    }
}
