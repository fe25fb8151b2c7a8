//! The AVX2 pieces of the expansion, for CPUs without AVX-512: the images of a position and the neighbour bits
//! of each direction as the OR of one cache line per four bits of the position ([`Kernel::nib_images`],
//! [`Kernel::nib_dirs`]), and the normal forms of eight successors at a time. Every function here needs the
//! CPU features [`has_avx2`](super::has_avx2) checks; the callers are compiled with them too, so that these are inlined.

use std::arch::x86_64::*;

use super::tables::{Kernel, LANES, Line};

/// The smaller of each pair of lanes (signed: positions are below 2^63).
#[inline]
#[target_feature(enable = "avx2")]
pub fn min64(a: __m256i, b: __m256i) -> __m256i {
    _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b))
}

/// The OR of the lines `table[(group * nchunks + c) * 16 + nibble c of key]` over the chunks `c`, as two
/// vectors of four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn gather(table: &[Line], group: usize, nchunks: usize, key: u64) -> [__m256i; 2] {
    let mut a = _mm256_setzero_si256();
    let mut b = _mm256_setzero_si256();
    let lines = &table[group * nchunks * 16..(group + 1) * nchunks * 16];
    let base = lines.as_ptr();
    let mut x = key;
    for c in 0..nchunks {
        // SAFETY: `c * 16 + (x & 15)` is below `nchunks * 16`, inside `lines`; reads the 64 bytes of a
        // `Line`.
        unsafe {
            let p = base.add(c * 16 + (x as usize & 15)).cast::<__m256i>();
            a = _mm256_or_si256(a, _mm256_load_si256(p));
            b = _mm256_or_si256(b, _mm256_load_si256(p.add(1)));
        }
        x >>= 4;
    }
    [a, b]
}

/// For kernels with [`Kernel::nib_both`]: the images of `key` (lanes `0..4`, `4..8`), and the `over` and
/// `to` bits of its four directions, in one pass over its chunks.
#[inline]
#[target_feature(enable = "avx2")]
pub fn images_dirs(k: &Kernel, key: u64) -> [__m256i; 4] {
    let mut v = [_mm256_setzero_si256(); 4];
    let base = k.nib_both.as_ptr();
    let mut x = key;
    for c in 0..k.nchunks {
        // SAFETY: `c * 16 + (x & 15)` is below `nchunks * 16`, the length of `nib_both`; reads the 128
        // bytes of two `Line`s.
        unsafe {
            let p = base.add(c * 16 + (x as usize & 15)).cast::<__m256i>();
            v[0] = _mm256_or_si256(v[0], _mm256_load_si256(p));
            v[1] = _mm256_or_si256(v[1], _mm256_load_si256(p.add(1)));
            v[2] = _mm256_or_si256(v[2], _mm256_load_si256(p.add(2)));
            v[3] = _mm256_or_si256(v[3], _mm256_load_si256(p.add(3)));
        }
        x >>= 4;
    }
    v
}

/// The legal moves of four directions as bit masks over their `from` holes, from the position broadcast
/// in `kv` and its `over` and `to` bits.
#[inline]
#[target_feature(enable = "avx2")]
pub fn legal4(
    reverse: bool,
    kv: __m256i,
    over: __m256i,
    to: __m256i,
    valid: &[u64; 4],
) -> [u64; 4] {
    // SAFETY: reads the four `u64` of `valid`.
    let valid = unsafe { _mm256_loadu_si256(valid.as_ptr().cast()) };
    let legal = if reverse {
        _mm256_andnot_si256(kv, _mm256_andnot_si256(over, _mm256_and_si256(to, valid)))
    } else {
        _mm256_and_si256(_mm256_and_si256(kv, over), _mm256_andnot_si256(to, valid))
    };
    let mut l = [0u64; 4];
    // SAFETY: writes the four `u64` of `l`.
    unsafe { _mm256_storeu_si256(l.as_mut_ptr().cast(), legal) };
    l
}

/// The minimum of each of four vectors, as the four lanes of one (a transposing reduction).
#[inline]
#[target_feature(enable = "avx2")]
pub fn reduce4(m: &[__m256i; 4]) -> __m256i {
    let y0 = min64(
        _mm256_unpacklo_epi64(m[0], m[1]),
        _mm256_unpackhi_epi64(m[0], m[1]),
    );
    let y1 = min64(
        _mm256_unpacklo_epi64(m[2], m[3]),
        _mm256_unpackhi_epi64(m[2], m[3]),
    );
    min64(
        _mm256_permute2x128_si256::<0x20>(y0, y1),
        _mm256_permute2x128_si256::<0x31>(y0, y1),
    )
}

/// The `over` and `to` bits of the four directions of group `g`, for the position `key`.
#[inline]
#[target_feature(enable = "avx2")]
pub fn dirs(k: &Kernel, g: usize, key: u64) -> [__m256i; 2] {
    gather(&k.nib_dirs, g, k.nchunks, key)
}

/// The images of `key`: vectors `2 * row` and `2 * row + 1` hold lanes `0..4` and `4..8` of row `row`
/// (vectors past the rows are zero).
#[inline]
#[target_feature(enable = "avx2")]
pub fn images(k: &Kernel, key: u64) -> [__m256i; 4] {
    let [a, b] = gather(&k.nib_images, 0, k.nchunks, key);
    if k.rows == 1 {
        return [a, b, _mm256_setzero_si256(), _mm256_setzero_si256()];
    }
    let [c, d] = gather(&k.nib_images, 1, k.nchunks, key);
    [a, b, c, d]
}

/// The smallest and the largest image of `key`, and the number of symmetries that fix it.
#[target_feature(enable = "avx2,popcnt")]
pub fn summary(k: &Kernel, key: u64) -> (u64, u64, u32) {
    let im = images(k, key);
    let fixed = fixed(k, &im, key);
    let (mut lo, mut hi) = (min64(im[0], im[1]), max64(im[0], im[1]));
    if k.rows == 2 {
        lo = min64(lo, min64(im[2], im[3]));
        hi = max64(hi, max64(im[2], im[3]));
    }
    let mut l = [0u64; 4];
    let mut h = [0u64; 4];
    // SAFETY: writes four lanes each.
    unsafe {
        _mm256_storeu_si256(l.as_mut_ptr().cast(), lo);
        _mm256_storeu_si256(h.as_mut_ptr().cast(), hi);
    }
    (
        l[0].min(l[1]).min(l[2].min(l[3])),
        h[0].max(h[1]).max(h[2].max(h[3])),
        fixed,
    )
}

/// The sum over `keys` of the number of their distinct images.
#[target_feature(enable = "avx2,popcnt")]
pub fn class_sizes_sum(k: &Kernel, keys: &[u64]) -> u64 {
    keys.iter()
        .map(|&key| {
            let im = images(k, key);
            u64::from(k.class_sizes[fixed(k, &im, key) as usize])
        })
        .sum()
}

/// The largest image of `key`.
#[target_feature(enable = "avx2")]
pub fn max_image(k: &Kernel, key: u64) -> u64 {
    let im = images(k, key);
    let mut hi = max64(im[0], im[1]);
    if k.rows == 2 {
        hi = max64(hi, max64(im[2], im[3]));
    }
    let mut h = [0u64; 4];
    // SAFETY: writes four lanes.
    unsafe { _mm256_storeu_si256(h.as_mut_ptr().cast(), hi) };
    h[0].max(h[1]).max(h[2].max(h[3]))
}

/// The larger of each pair of lanes (signed: positions are below 2^63).
#[inline]
#[target_feature(enable = "avx2")]
pub fn max64(a: __m256i, b: __m256i) -> __m256i {
    _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b))
}

/// [`images`] written to `out` (lanes `0..8` row 0, `8..16` row 1).
#[target_feature(enable = "avx2")]
pub fn images_to(k: &Kernel, key: u64, out: &mut [u64; 2 * LANES]) {
    let im = images(k, key);
    for (i, v) in im.iter().enumerate().take(2 * k.rows) {
        // SAFETY: writes four lanes inside `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(4 * i).cast(), *v) };
    }
}

/// The images of `key` ([`images`]) and its legal moves as bit masks over their `from` holes, one per
/// direction, in `legal` (one pass over the chunks for both where the kernel has [`Kernel::nib_both`]).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn images_legal(k: &Kernel, key: u64, legal: &mut [u64; 8]) -> [__m256i; 4] {
    let kv = _mm256_set1_epi64x(key as i64);
    if !k.nib_both.is_empty() {
        let [a, b, over, to] = images_dirs(k, key);
        legal[..4].copy_from_slice(&legal4(k.reverse, kv, over, to, &k.dir_valid[0]));
        let top = _mm256_set1_epi64x(i64::MAX);
        return [a, b, top, top];
    }
    for (g, valid) in k.dir_valid.iter().enumerate() {
        let [over, to] = dirs(k, g, key);
        legal[4 * g..4 * g + 4].copy_from_slice(&legal4(k.reverse, kv, over, to, valid));
    }
    images(k, key)
}

/// The legal moves of `legal` (from [`images_legal`]) as move indices in `moves`, direction by
/// direction; returns how many.
#[cfg(test)]
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn move_ids(k: &Kernel, legal: &[u64; 8], moves: &mut [u8; 256]) -> usize {
    let mut n = 0usize;
    for (d, dir) in k.dirs.iter().enumerate() {
        let mut bits = legal[d];
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // `n` is below the number of jumps, at most 256 (`avx2_ok`): inside `moves`.
            moves[n & 255] = dir.ids8[x & 63];
            n += 1;
        }
    }
    n
}

/// For a byte `v`, the positions of its set bits in increasing order, one a byte from the lowest (the bytes
/// past them zero): a shuffle control that packs the entries of an 8-byte group at those positions.
static PACK: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let (mut x, mut k) = (0u64, 0);
        let mut b = 0;
        while b < 8 {
            if v >> b & 1 == 1 {
                x |= (b as u64) << (8 * k);
                k += 1;
            }
            b += 1;
        }
        t[v] = x;
        v += 1;
    }
    t
};

/// [`move_ids`] without a branch per move: the legal moves of each direction are packed eight holes at a
/// time (a table lookup, a byte shuffle of the move indices of those holes, an 8-byte store), so `moves`
/// has room for the last store past the moves. The same moves in the same order.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn move_ids_packed(k: &Kernel, legal: &[u64; 8], moves: &mut [u8; 256 + 8]) -> usize {
    let mut n = 0usize;
    let groups = k.holes.div_ceil(8);
    for (d, dir) in k.dirs.iter().enumerate() {
        let bits = legal[d];
        for c in 0..groups {
            let v = (bits >> (8 * c)) as u8;
            // SAFETY: `c < groups <= 8` reads eight of the 64 entries of `ids8`; `n` is below the number of
            // jumps, at most 256 (`avx2_ok`), so the eight bytes at `n & 255` are inside `moves`.
            unsafe {
                let ids = _mm_loadl_epi64(dir.ids8.as_ptr().add(8 * c).cast());
                let ctl = _mm_cvtsi64_si128(PACK[usize::from(v)] as i64);
                _mm_storel_epi64(
                    moves.as_mut_ptr().add(n & 255).cast(),
                    _mm_shuffle_epi8(ids, ctl),
                );
            }
            n += v.count_ones() as usize;
        }
    }
    n
}

/// The legal moves of `legal` (from [`images_legal`]) as indices in direction order ([`Kernel::dir_images`],
/// which must not be empty): each direction's legal holes squeezed into its run of indices (a bit
/// extraction), then the set bits of the whole mask listed eight at a time (a table of set-bit positions
/// plus the group's first index, an 8-byte store). So `moves` has room for the last store past the
/// moves; the bytes past the moves are indices below the number of moves.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn move_ids_dir(k: &Kernel, legal: &[u64; 8], moves: &mut [u8; 256 + 8]) -> usize {
    let mut all = [0u64; 5];
    for (d, dir) in k.dirs.iter().enumerate().take(8) {
        let bits = _pext_u64(legal[d], dir.valid);
        let b = k.dir_base[d] as usize & 255;
        let (w, s) = (b / 64, b % 64);
        all[w] |= bits << s;
        if s > 0 {
            all[w + 1] |= bits >> (64 - s);
        }
    }
    let mut n = 0usize;
    for c in 0..k.dir_groups.min(32) {
        let v = (all[c / 8] >> (8 * (c % 8))) as u8;
        // Positions 0..8 plus `8c <= 248`: no carry from one byte into the next.
        let ids = PACK[usize::from(v)] + (8 * c as u64) * 0x0101_0101_0101_0101;
        // `n` is at most the number of moves, 256, so the eight bytes at `n & 255` are inside `moves`.
        let at = n & 255;
        moves[at..at + 8].copy_from_slice(&ids.to_le_bytes());
        n += v.count_ones() as usize;
    }
    n
}

/// The normal forms of the successors of the position whose images are `im` by the first `n` moves of
/// `moves`, into `vals[..n]`, four at a time (the last group's lanes past `n` are computed from the
/// entries after the moves, valid indices left from earlier positions or zero, and not used).
#[cfg(test)]
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn successors(
    k: &Kernel,
    im: &[__m256i; 4],
    moves: &[u8; 256],
    n: usize,
    vals: &mut [u64; 256 + 4],
) {
    successors_in(k, &k.move_images, im, moves, n, vals);
}

/// [`successors`] with the moves' images in `table` (indexed as [`Kernel::move_images`], or in direction
/// order as [`Kernel::dir_images`]); every index of `moves` must be below its number of moves.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn successors_in<const N: usize>(
    k: &Kernel,
    table: &[[u64; LANES]],
    im: &[__m256i; 4],
    moves: &[u8; N],
    n: usize,
    vals: &mut [u64; 256 + 4],
) {
    const { assert!(N >= 256) };
    let rows = k.rows;
    let load = |l: &[u64; LANES], half: usize| {
        // SAFETY: reads four of the eight `u64` of `l`.
        unsafe { _mm256_loadu_si256(l.as_ptr().add(4 * half).cast()) }
    };
    let mut g = 0usize;
    while g < n {
        let line = |i: usize, row: usize| &table[usize::from(moves[(g + i) & 255]) * rows + row];
        let succ = |i: usize| {
            let l = line(i, 0);
            let mut m = min64(
                _mm256_xor_si256(im[0], load(l, 0)),
                _mm256_xor_si256(im[1], load(l, 1)),
            );
            if rows == 2 {
                let l = line(i, 1);
                m = min64(
                    m,
                    min64(
                        _mm256_xor_si256(im[2], load(l, 0)),
                        _mm256_xor_si256(im[3], load(l, 1)),
                    ),
                );
            }
            m
        };
        let batch = [succ(0), succ(1), succ(2), succ(3)];
        // SAFETY: `g < n <= 256`, so the four lanes at `g` are inside `vals` (256 + 4 entries).
        unsafe { _mm256_storeu_si256(vals.as_mut_ptr().add(g & 255).cast(), reduce4(&batch)) };
        g += 4;
    }
}

/// The normal forms of the successors of `key` (its images `im` and legal moves `legal` from
/// [`images_legal`]) that the kernel's pagoda test keeps, into `vals`; returns how many. The moves are
/// listed in direction order ([`move_ids_dir`]) when the test is applied as masks or there is none, else
/// by index and then tested one by one. `legal` is left without the moves the masks drop.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub fn kept_successors(
    k: &Kernel,
    key: u64,
    im: &[__m256i; 4],
    legal: &mut [u64; 8],
    moves: &mut [u8; 256 + 8],
    vals: &mut [u64; 256 + 4],
) -> usize {
    let masked = k.prune_legal(key, legal);
    if k.dir_order(masked) {
        let n = move_ids_dir(k, legal, moves);
        successors_in(k, &k.dir_images, im, moves, n, vals);
        return n;
    }
    let mut n = move_ids_packed(k, legal, moves);
    if !masked {
        n = k.prune_moves(key, moves, n);
    }
    successors_in(k, &k.move_images, im, moves, n, vals);
    n
}

/// The number of symmetries of the group that fix `key`, from its images.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
pub fn fixed(k: &Kernel, im: &[__m256i; 4], key: u64) -> u32 {
    let kv = _mm256_set1_epi64x(key as i64);
    let mut mask = 0u32;
    for (i, v) in im.iter().enumerate().take(2 * k.rows) {
        let eq = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(*v, kv))) as u32;
        mask |= eq << (4 * i);
    }
    let real = (1u32 << k.group_size) - 1;
    (mask & real).count_ones()
}

/// Whether two distinct jumps from `key` can lead to the same class: only when some symmetry other than
/// the identity moves at most six holes of it (two jumps change three holes each). Without such a
/// symmetry, the successors of a class are all in distinct classes.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
pub fn near_symmetric(k: &Kernel, im: &[__m256i; 4], key: u64) -> bool {
    let mut lanes = [0u64; 2 * LANES];
    for (i, v) in im.iter().enumerate().take(2 * k.rows) {
        // SAFETY: writes four lanes inside `lanes`.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().add(4 * i).cast(), *v) };
    }
    lanes[1..k.group_size]
        .iter()
        .any(|&img| (img ^ key).count_ones() <= 6)
}
