//! Byte packing and cache hints shared by the level formats and the counters.

/// Bytes of zeros after a frozen partition's data, so that every field can be read with whole 8-byte loads.
pub(crate) const PAD: usize = 16;

/// Hint the CPU to bring the line at `p` into the cache (any address: a hint never faults).
#[inline(always)]
pub(crate) fn prefetch_ptr<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Hint the CPU to bring `x` into the cache.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    prefetch_ptr(x as *const T);
}

/// Hint the CPU to bring the line at `p` into the cache, to be written (any address: a hint never faults).
#[inline(always)]
pub(crate) fn prefetch_write<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_ET0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Bytes needed for `v` (0 for 0).
#[inline(always)]
pub(crate) fn width_of(v: u128) -> u32 {
    (128 - v.leading_zeros()).div_ceil(8)
}

/// The low `w` bytes (`w <= 8`) of the little-endian `u64` at `off`.
#[inline(always)]
pub(crate) fn read_u64(data: &[u8], off: usize, w: u32) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&data[off..off + 8]);
    u64::from_le_bytes(b) & low_mask(w)
}

/// The mask of the low `w` bytes (`w <= 8`).
#[inline(always)]
pub(crate) fn low_mask(w: u32) -> u64 {
    u64::MAX.checked_shr(64 - 8 * w).unwrap_or(0)
}

/// Write the low `w` bytes of `v` at `off`, and garbage after them up to 8 (or 16) bytes: fields are written
/// in increasing order, so the next field overwrites it, and the data ends with zero padding.
#[inline(always)]
pub(crate) fn put(data: &mut [u8], off: usize, v: u128, w: u32) {
    if w <= 8 {
        data[off..off + 8].copy_from_slice(&(v as u64).to_le_bytes());
    } else {
        data[off..off + 16].copy_from_slice(&v.to_le_bytes());
    }
}
