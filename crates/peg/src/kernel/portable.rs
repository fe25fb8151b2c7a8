//! The portable kernel in plain Rust (byte lookup tables, scalar loops), and the operations that use a vector
//! kernel where the CPU has one.

use super::cpu::has_avx2;
use super::tables::{Kernel, LANES, MOVE_WORDS};

#[cfg(target_arch = "x86_64")]
use super::avx2;

impl Kernel {
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

    /// The normal form (smallest image) of `pos` and its class size.
    pub fn normalize(&self, pos: u64) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            let (min, _, fixed) = unsafe { avx2::summary(self, pos) };
            return (min, u64::from(self.class_sizes[fixed as usize]));
        }
        let im = self.images(pos);
        let lanes = &im[..self.rows * LANES];
        let best = lanes.iter().copied().min().unwrap_or(pos);
        let fixed = lanes[..self.group_size]
            .iter()
            .filter(|&&img| img == pos)
            .count();
        (best, (self.group_size / fixed.max(1)) as u64)
    }

    /// The largest image of `pos` and its class size (one computation of the images for both).
    pub fn max_image_and_size(&self, pos: u64) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            let (_, max, fixed) = unsafe { avx2::summary(self, pos) };
            return (max, u64::from(self.class_sizes[fixed as usize]));
        }
        (self.max_image(pos), self.class_size(pos))
    }

    /// Number of distinct images of `pos`: group size over the number of symmetries fixing it.
    pub fn class_size(&self, pos: u64) -> u64 {
        self.normalize(pos).1
    }

    /// The sum of [`Kernel::class_size`] over `keys`: how many positions their classes hold.
    pub fn class_sizes_sum(&self, keys: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            return unsafe { avx2::class_sizes_sum(self, keys) };
        }
        keys.iter().map(|&x| self.class_size(x)).sum()
    }

    /// Whether the [`avx2`] kernel can be used for this board: the CPU has the features, positions are below
    /// 2^63 (the vector minimum compares signed), and move indices fit in a byte.
    pub fn avx2_ok(&self) -> bool {
        self.holes < 64 && self.byte_moves() && has_avx2()
    }

    /// The images of `key` (in the group's lanes, `rows * 8` of them; the lanes past the group repeat the
    /// identity), with the vector kernel where the CPU has it.
    #[inline]
    pub fn images(&self, key: u64) -> [u64; 2 * LANES] {
        let mut out = [0u64; 2 * LANES];
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            unsafe { avx2::images_to(self, key, &mut out) };
            return out;
        }
        for row in 0..self.rows {
            out[row * LANES..row * LANES + LANES].copy_from_slice(&self.images_portable(key, row));
        }
        out
    }

    /// The largest image of `key` under the group.
    pub fn max_image(&self, key: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_ok() {
            // SAFETY: the CPU has the features (checked by `avx2_ok`).
            return unsafe { avx2::max_image(self, key) };
        }
        self.images(key)[..self.rows * LANES]
            .iter()
            .copied()
            .max()
            .unwrap_or(key)
    }

    /// The normal form of the successor of a position by move `j`, from the position's images (portable).
    #[inline(always)]
    pub fn min_successor(&self, imgs: &[[u64; LANES]; 2], j: usize) -> u64 {
        let mut best = u64::MAX;
        for (row, im) in imgs.iter().enumerate().take(self.rows) {
            let m = &self.move_images[j * self.rows + row];
            for (a, b) in im.iter().zip(m) {
                best = best.min(a ^ b);
            }
        }
        best
    }
}
