//! What every level-by-level run decides the same way: the size of the next level, its number of pegs, the
//! key width, the program's own memory.

use crate::kernel::Kernel;
use crate::level::TableKey;

/// Boards with at most this many holes keep 32-bit keys in tables and records (their partitions are made
/// small enough: at least `2^(holes - 31)` of them, 1,024 on the 41-hole diamond); bigger ones keep whole
/// mixed keys. Whole keys double a record (8 to 16 bytes, with its source index) and halve the keys a
/// cache line of a table compares at once: on the diamond the merge took about twice the time a record.
pub(crate) const NARROW_KEY_BITS: u32 = 41;

/// Memory of the program itself, besides the levels, tables and buffers (code, thread stacks, allocator).
pub(crate) const BASE_BYTES: u64 = 16 << 20;

/// The number of pegs of the level after one with `pegs` pegs.
pub(crate) fn next_pegs(k: &Kernel, pegs: u32) -> u32 {
    if k.reverse {
        pegs + 1
    } else {
        pegs.saturating_sub(1)
    }
}

/// The expected size of the next level from the sizes so far: the last growth ratio, corrected by how it
/// changed from the one before.
pub(crate) fn estimate(hist: &[usize]) -> usize {
    let n = hist.len();
    let cur = hist[n - 1] as f64;
    if n < 2 {
        return (cur * 8.0) as usize + 16;
    }
    let r1 = cur / hist[n - 2].max(1) as f64;
    let r = if n >= 3 {
        let r0 = hist[n - 2] as f64 / hist[n - 3].max(1) as f64;
        (r1 * r1 / r0).clamp(r1 * 0.6, r1 * 1.4)
    } else {
        r1
    };
    (cur * r * 1.03) as usize + 16
}

/// Whether a board's levels are built with 32-bit keys in tables and records (see [`NARROW_KEY_BITS`]).
pub(crate) fn narrow_keys(k: &Kernel) -> bool {
    k.holes as u32 <= NARROW_KEY_BITS
}

/// Whether the level with `pegs` pegs is the last one a run can have (one peg forward, a full board backward).
pub(crate) fn at_end(k: &Kernel, pegs: u32) -> bool {
    (!k.reverse && pegs <= 1) || (k.reverse && pegs as usize >= k.holes)
}

/// The fewest partition bits of a level of keys of `bits` bits kept as `K`: with 32-bit keys, a key's bits
/// inside its partition must fit.
pub(crate) fn key_pbits<K: TableKey>(bits: u32) -> u32 {
    if K::fits(64) {
        0
    } else {
        bits.saturating_sub(31)
    }
}
