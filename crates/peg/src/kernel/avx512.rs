//! The AVX-512 pieces of the expansion. Every function here needs the CPU features [`has_avx512`](super::has_avx512) checks; the
//! callers are compiled with them too, so that these are inlined.

use std::arch::x86_64::*;

use super::tables::{Direction, Kernel, LANES, MoveId};

/// The images of `key` (broadcast in `kv`), one row of eight lanes per 8 symmetries, and the number of
/// symmetries that fix it.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
pub fn images(k: &Kernel, kv: __m512i) -> ([__m512i; 2], u32) {
    let real0 = (0xFFu16 >> (LANES - k.group_size.min(LANES))) as u8;
    let real1 = (0xFFu16 >> (LANES - k.group_size.saturating_sub(LANES).min(LANES))) as u8;
    let mut im = [_mm512_setzero_si512(); 2];
    let mut fixed = 0u32;
    for (row, imr) in im.iter_mut().enumerate().take(k.rows) {
        for (lane, c) in k.shuffle[row * LANES..row * LANES + LANES]
            .iter()
            .enumerate()
        {
            // SAFETY: reads the 64 bytes of a `[u8; 64]`.
            let c = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
            let img = _mm512_bitshuffle_epi64_mask(kv, c);
            *imr = _mm512_mask_set1_epi64(*imr, 1 << lane, img as i64);
        }
        let real = if row == 0 { real0 } else { real1 };
        fixed += (_mm512_cmpeq_epi64_mask(*imr, kv) & real).count_ones();
    }
    (im, fixed)
}

/// The largest image of `key` under the group.
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
pub fn max_image(k: &Kernel, key: u64) -> u64 {
    let kv = _mm512_set1_epi64(key as i64);
    let (im, _) = images(k, kv);
    // Padding lanes repeat the identity, whose image is a real one.
    let mut m = im[0];
    if k.rows == 2 {
        m = _mm512_max_epu64(m, im[1]);
    }
    _mm512_reduce_max_epu64(m)
}

/// The legal moves of direction `d` for `key` (broadcast in `kv`), as a bit mask over their `from` holes:
/// the `over` and `to` neighbours' bits gathered with one bit shuffle each.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg")]
fn dir_legal(k: &Kernel, d: &Direction, key: u64, kv: __m512i) -> u64 {
    // SAFETY: reads the 64 bytes of two `[u8; 64]`.
    let (over, to) = unsafe {
        (
            _mm512_loadu_si512(d.over.as_ptr().cast()),
            _mm512_loadu_si512(d.to.as_ptr().cast()),
        )
    };
    let ov = _mm512_bitshuffle_epi64_mask(kv, over);
    let tv = _mm512_bitshuffle_epi64_mask(kv, to);
    (if k.reverse {
        !key & !ov & tv
    } else {
        key & ov & !tv
    }) & d.valid
}

/// The indices of the legal moves of `key` (broadcast in `kv`), written to `moves` (which must have 16
/// spare entries after the last move); their number.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
pub fn legal_moves(k: &Kernel, key: u64, kv: __m512i, moves: &mut [u32]) -> usize {
    let mut n = 0usize;
    for d in &k.dirs {
        let legal = dir_legal(k, d, key, kv);
        for c in (0..4).filter(|c| d.valid >> (16 * c) & 0xFFFF != 0) {
            let m = (legal >> (16 * c)) as u16;
            let Some(out) = moves.get_mut(n..n + 16) else {
                return n;
            };
            // SAFETY: reads 16 `u32` of `ids` (64 entries); writes the 16 `u32` of `out`.
            unsafe {
                let ids = _mm512_loadu_si512(d.ids.as_ptr().add(16 * c).cast());
                let packed = _mm512_maskz_compress_epi32(m, ids);
                _mm512_storeu_si512(out.as_mut_ptr().cast(), packed);
            }
            n += m.count_ones() as usize;
        }
    }
    n
}

/// [`legal_moves`] as bytes, for boards with at most 256 jumps ([`Kernel::byte_moves`]): one compress
/// instruction per direction. `moves` must have 64 spare entries after the last move.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512bitalg,popcnt")]
pub fn legal_moves8(k: &Kernel, key: u64, kv: __m512i, moves: &mut [u8]) -> usize {
    let mut n = 0usize;
    for d in &k.dirs {
        let legal = dir_legal(k, d, key, kv);
        // SAFETY: reads the 64 bytes of a `[u8; 64]`.
        let ids = unsafe { _mm512_loadu_si512(d.ids8.as_ptr().cast()) };
        let Some(out) = moves.get_mut(n..n + 64) else {
            return n;
        };
        // SAFETY: writes the 64 bytes of `out`.
        unsafe {
            _mm512_storeu_si512(
                out.as_mut_ptr().cast(),
                _mm512_maskz_compress_epi8(legal, ids),
            );
        }
        n += legal.count_ones() as usize;
    }
    n
}

/// The legal moves of `key` (see [`legal_moves`] and [`legal_moves8`]), as move indices of type `M`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512bitalg,popcnt")]
pub fn legal_moves_as<M: MoveId>(k: &Kernel, key: u64, kv: __m512i, moves: &mut [M]) -> usize {
    if let Some(b) = M::bytes(moves) {
        return legal_moves8(k, key, kv, b);
    }
    match M::words(moves) {
        Some(w) => legal_moves(k, key, kv, w),
        None => 0,
    }
}

/// The legal moves of `key` (broadcast in `kv`) as bit masks over their `from` holes, one per direction
/// (the first eight directions; as [`super::avx2::images_legal`] gives them).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512bitalg,popcnt")]
pub fn legal_masks(k: &Kernel, key: u64, kv: __m512i, legal: &mut [u64; 8]) {
    for (d, l) in k.dirs.iter().zip(legal.iter_mut()) {
        *l = dir_legal(k, d, key, kv);
    }
}

/// Whether an image of `key` (broadcast in `kv`, its images `im`) under a symmetry other than the identity
/// differs from it in at most six holes: otherwise no two jumps from `key` lead to the same class (two
/// successors `key ^ a`, `g(key ^ b)` are equal only if `key ^ g(key) = a ^ g(b)`, at most six holes).
#[inline]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
pub fn near_symmetric(k: &Kernel, im: &[__m512i; 2], kv: __m512i) -> bool {
    let six = _mm512_set1_epi64(6);
    // Lane 0 of the first row is the identity; lanes past the group repeat it.
    let real0 = (0xFFu16 >> (LANES - k.group_size.min(LANES))) as u8 & !1;
    let real1 = (0xFFu16 >> (LANES - k.group_size.saturating_sub(LANES).min(LANES))) as u8;
    let near = |v: __m512i, real: u8| {
        _mm512_mask_cmple_epu64_mask(real, _mm512_popcnt_epi64(_mm512_xor_si512(v, kv)), six)
    };
    let mut m = near(im[0], real0);
    if k.rows == 2 {
        m |= near(im[1], real1);
    }
    m != 0
}

/// The normal forms of the successors of `key` (its images `im`, its legal moves `legal` from
/// [`legal_masks`]) that the kernel's pagoda test keeps, into `vals` eight at a time; returns how many.
/// The moves are listed in direction order (one compress instruction per direction) when the test is
/// applied as masks or there is none, else by index and then tested one by one, as
/// [`super::avx2::kept_successors`] does. The kernel must have at most eight directions and 256 jumps.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,avx512bitalg,popcnt")]
pub fn kept_successors(
    k: &Kernel,
    key: u64,
    im: &[__m512i; 2],
    legal: &mut [u64; 8],
    moves: &mut [u8; 256 + 64],
    vals: &mut [u64; 256 + 8],
) -> usize {
    let masked = k.prune_legal(key, legal);
    let dir_order = k.dir_order(masked);
    let mut n = 0usize;
    for (d, &l) in k.dirs.iter().zip(legal.iter()) {
        let ids = if dir_order { &d.dids8 } else { &d.ids8 };
        // `n` is below the number of jumps, at most 256: the 64 bytes at `n & 255` are inside `moves`.
        let at = n & 255;
        // SAFETY: reads the 64 bytes of `ids`, writes 64 bytes of `moves` from `at` (see above).
        unsafe {
            let ids = _mm512_loadu_si512(ids.as_ptr().cast());
            _mm512_storeu_si512(
                moves.as_mut_ptr().add(at).cast(),
                _mm512_maskz_compress_epi8(l, ids),
            );
        }
        n += l.count_ones() as usize;
    }
    let n = n.min(256);
    let (table, n) = if dir_order {
        (&k.dir_images, n)
    } else if masked {
        (&k.move_images, n)
    } else {
        (&k.move_images, k.prune_moves(key, &mut moves[..], n))
    };
    let mut g = 0;
    while g < n {
        let v = successors8_in(k, table, im, &moves[g..n.min(g + LANES)]);
        // SAFETY: `g < n <= 256`: the eight values at `g` are inside `vals` (256 + 8 entries).
        unsafe { _mm512_storeu_si512(vals.as_mut_ptr().add(g).cast(), v) };
        g += LANES;
    }
    n
}

/// The normal forms of the successors of a class by up to eight moves, from the class's images `im`: lane
/// `i` is the successor by `moves[i]`, the lanes past the moves hold all ones. The XOR of the images with
/// each move's images, then a transposing reduction to the minimum of each (pairs, then quadruples, then
/// all eight).
#[inline]
#[target_feature(enable = "avx512f")]
pub fn successors8<M: MoveId>(k: &Kernel, im: &[__m512i; 2], moves: &[M]) -> __m512i {
    successors8_in(k, &k.move_images, im, moves)
}

/// [`successors8`] with the moves' images in `table` (indexed as [`Kernel::move_images`], or in direction
/// order as [`Kernel::dir_images`]).
#[inline]
#[target_feature(enable = "avx512f")]
pub fn successors8_in<M: MoveId>(
    k: &Kernel,
    table: &[[u64; LANES]],
    im: &[__m512i; 2],
    moves: &[M],
) -> __m512i {
    let rows = k.rows;
    let ones = _mm512_set1_epi64(-1);
    let mut x = [ones; LANES];
    for (xi, &j) in x.iter_mut().zip(moves) {
        let j = j.index();
        // SAFETY: `move_images` holds `[u64; 8]` arrays; this reads one (two for two rows).
        let m0 = unsafe { _mm512_loadu_si512(table[j * rows].as_ptr().cast()) };
        *xi = _mm512_xor_si512(im[0], m0);
        if rows == 2 {
            let m1 = unsafe { _mm512_loadu_si512(table[j * rows + 1].as_ptr().cast()) };
            *xi = _mm512_min_epu64(*xi, _mm512_xor_si512(im[1], m1));
        }
    }
    let mut y = [ones; 4];
    for (i, yi) in y.iter_mut().enumerate() {
        let (a, b) = (x[2 * i], x[2 * i + 1]);
        *yi = _mm512_min_epu64(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
    }
    let idx_c = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let idx_d = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    let mut z = [ones; 2];
    for (i, zi) in z.iter_mut().enumerate() {
        let (a, b) = (y[2 * i], y[2 * i + 1]);
        *zi = _mm512_min_epu64(
            _mm512_permutex2var_epi64(a, idx_c, b),
            _mm512_permutex2var_epi64(a, idx_d, b),
        );
    }
    _mm512_min_epu64(
        _mm512_shuffle_i64x2::<0x44>(z[0], z[1]),
        _mm512_shuffle_i64x2::<0xEE>(z[0], z[1]),
    )
}
