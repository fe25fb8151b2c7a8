//! The open-addressing table of a partition while its level is built.

use super::keys::{Layout, Rec, TableKey};
use super::part::{BLOCK, Part};
use super::pool::{Pool, lock, take_vec};
use crate::bytes::{prefetch, prefetch_ptr};
use crate::counter::{Counter, SrcIndex};

/// The counters a record adds: entry `src` of the round's source counters (none for tables without counters,
/// whose records carry no index).
#[inline(always)]
fn source<C: Counter>(srcs: &[[C; 2]], src: u32) -> Option<[C; 2]> {
    if std::mem::size_of::<C>() == 0 {
        return Some([C::default(); 2]);
    }
    srcs.get(src as usize).copied()
}

/// How many records ahead [`Table::add_recs`] asks for the slots a record will read.
const SLOTS_AHEAD: usize = 8;

/// Fill at which a table grows.
const MAX_LOAD: f64 = 0.9;
/// Fill a table is sized for.
pub(crate) const INIT_LOAD: f64 = 0.82;

/// The open-addressing table of one partition while its level is built: linear probing from a home slot that
/// increases with the key, without wrapping around (a few spare slots follow the last home slot), so that the
/// filled slots read in order are nearly sorted. Keys and counters are in separate arrays, so that a whole
/// cache line of keys (16 or 8) is compared at once; an empty slot has key 0 and counters 0, so adding to a
/// slot and filling an empty one are the same operation.
pub(crate) struct Table<K, C> {
    keys: Vec<K>,
    /// The two counters of each slot, side by side (one cache line holds both).
    counts: Vec<[C; 2]>,
    /// Number of home slots.
    cap: usize,
    len: usize,
    limit: usize,
    /// 64 minus the bits of a key inside its partition.
    lsh: u32,
}

/// Spare slots after the last home slot.
fn spare(cap: usize) -> usize {
    cap / 16 + 32
}

impl<K: TableKey, C: Counter> Table<K, C> {
    /// A table for about `expected` entries.
    pub fn new(layout: Layout, expected: usize, pool: &Pool<K, C>) -> Table<K, C> {
        let cap = ((expected as f64 / INIT_LOAD) as usize).max(16);
        let n = cap + spare(cap);
        // Arrays from the pool are all zeros (see `Table::freeze`): only a longer array needs new zeros.
        let (mut keys, mut counts) = lock(&pool.tables).pop().unwrap_or_default();
        keys.truncate(n);
        counts.truncate(n);
        // Arrays far bigger than needed are shrunk: where the next level has twice the partitions, each
        // keeps the arrays of one of the level before, half again what it needs, and they stay resident.
        if keys.capacity() > n + n / 16 {
            keys.shrink_to(n);
            counts.shrink_to(n);
        }
        // Arrays that are too short grow to exactly `n` (growing them at once to the largest size a partition
        // can need, so that later levels would not grow them again, measured no faster).
        keys.reserve_exact(n - keys.len());
        counts.reserve_exact(n - counts.len());
        keys.resize(n, K::default());
        counts.resize(n, [C::default(); 2]);
        Table {
            keys,
            counts,
            cap,
            len: 0,
            limit: (cap as f64 * MAX_LOAD) as usize,
            lsh: 64 - layout.shift,
        }
    }

    /// Number of filled slots.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Number of blocks of [`BLOCK`] slots (the last one may be shorter).
    pub fn blocks(&self) -> usize {
        self.keys.len().div_ceil(BLOCK)
    }

    /// A reader of the filled slots of blocks `from..to`, in slot order (nearly, not exactly, key order),
    /// giving mixed keys from `base` (the partition's smallest mixed key).
    pub fn reader(&self, base: u64, from: usize, to: usize) -> TableReader<'_, K, C> {
        let end = (to * BLOCK).min(self.keys.len());
        TableReader {
            keys: &self.keys[..end],
            counts: &self.counts[..end],
            i: (from * BLOCK).min(end),
            base,
        }
    }

    /// Give the arrays back to the pool, all zeros again (without freezing the table).
    pub fn recycle(mut self, pool: &Pool<K, C>) {
        self.keys.fill(K::default());
        self.counts.fill([C::default(); 2]);
        lock(&pool.tables).push((self.keys, self.counts));
    }

    /// Bytes of memory held.
    pub fn bytes(&self) -> u64 {
        (self.keys.capacity() * std::mem::size_of::<K>()
            + self.counts.capacity() * std::mem::size_of::<[C; 2]>()) as u64
    }

    /// Read the arrays in order, so that the random accesses that follow find them in the cache.
    pub fn warm(&self) {
        let step = (64 / std::mem::size_of::<K>()).max(1);
        let mut x = 0u64;
        let mut i = 0;
        while i < self.keys.len() {
            x ^= self.keys[i].bits();
            i += step;
        }
        std::hint::black_box(x);
        let step = (64 / std::mem::size_of::<[C; 2]>().max(1)).max(1);
        if std::mem::size_of::<C>() > 0 {
            let mut i = 0;
            while i < self.counts.len() {
                std::hint::black_box(self.counts[i]);
                i += step;
            }
        }
    }

    /// The home slot of a key.
    #[inline(always)]
    fn home(&self, key: K) -> usize {
        key.home(self.lsh, self.cap)
    }

    /// From slot `i` on, the first slot holding `key` or empty; `None` past the last slot.
    #[inline(always)]
    fn find(&self, key: K, mut i: usize) -> Option<usize> {
        while let Some(&k) = self.keys.get(i) {
            if k == key || k == K::default() {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// Add counters `c` into slot `i` (which holds `key` or is empty); `None` when a counter overflows.
    #[inline(always)]
    fn add_at(&mut self, i: usize, key: K, c: [C; 2]) -> Option<()> {
        let new = self.keys[i] == K::default();
        self.keys[i] = key;
        let s = &mut self.counts[i];
        s[0] = s[0].add(c[0])?;
        s[1] = s[1].add(c[1])?;
        self.len += usize::from(new);
        Some(())
    }

    /// Add counters `c` to `key`'s entry (creating it); `None` when a counter overflows.
    pub fn add(&mut self, key: K, c: [C; 2]) -> Option<()> {
        if self.len >= self.limit {
            self.grow();
        }
        let i = self.find_or_grow(key, self.home(key));
        self.add_at(i, key, c)
    }

    /// Add the records `recs`, whose counters are in `srcs`.
    pub fn add_recs(&mut self, recs: &[Rec<K, C::Src>], srcs: &[[C; 2]]) -> Option<()> {
        #[cfg(target_arch = "x86_64")]
        if crate::kernel::has_avx512() {
            // SAFETY: the CPU has AVX-512 F (checked just above).
            return unsafe { self.add_recs_avx512(recs, srcs) };
        }
        #[cfg(target_arch = "x86_64")]
        if crate::kernel::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.add_recs_avx2(recs, srcs) };
        }
        recs.iter()
            .try_for_each(|r| self.add(r.key, source(srcs, r.src.get())?))
    }

    /// [`Table::add_recs`] comparing a cache line of keys at a time, with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    fn add_recs_avx2(&mut self, mut recs: &[Rec<K, C::Src>], srcs: &[[C; 2]]) -> Option<()> {
        use std::arch::x86_64::*;
        let narrow = std::mem::size_of::<K>() == 4;
        let lanes = if narrow { 16 } else { 8 };
        let counted = std::mem::size_of::<C>() > 0;
        while !recs.is_empty() {
            if self.len >= self.limit {
                self.grow();
            }
            // Each record adds at most one entry: this many fit before the table must grow.
            let n = recs.len().min(self.limit - self.len);
            let (keys, counts) = (&mut self.keys[..], &mut self.counts[..]);
            assert_eq!(keys.len(), counts.len());
            let (lsh, cap) = (self.lsh, self.cap);
            // The home slot of a key, as [`Table::home`] (which would borrow the whole table).
            let home_of = |key: K| key.home(lsh, cap);
            let zero = _mm256_setzero_si256();
            let mut added = 0usize;
            let mut done = 0usize;
            for (j, r) in recs[..n].iter().enumerate() {
                // The source counters are spread over a few MiB: fetch them ahead.
                if counted
                    && let Some(c) = recs
                        .get(j + 64)
                        .and_then(|a| srcs.get(a.src.get() as usize))
                {
                    prefetch(c);
                }
                // The slots of a record a few ahead: the table is bigger than the first-level cache.
                if let Some(a) = recs.get(j + SLOTS_AHEAD) {
                    let h = home_of(a.key);
                    if let (Some(k), Some(c)) = (keys.get(h), counts.get(h)) {
                        prefetch(k);
                        if counted {
                            prefetch(c);
                        }
                    }
                }
                let mut home = home_of(r.key);
                // The empty slots and the key's slot in the window at `home`; `None` past the arrays.
                let window = |home: usize| {
                    let window = keys.get(home..home + lanes)?;
                    // SAFETY: `window` holds 64 bytes of keys, which the two unaligned loads read.
                    let (v0, v1) = unsafe {
                        (
                            _mm256_loadu_si256(window.as_ptr().cast()),
                            _mm256_loadu_si256(window.as_ptr().cast::<u8>().add(32).cast()),
                        )
                    };
                    Some(if narrow {
                        let k = _mm256_set1_epi32(r.key.bits() as i32);
                        let bits = |v: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32;
                        let e = bits(_mm256_cmpeq_epi32(v0, zero))
                            | bits(_mm256_cmpeq_epi32(v1, zero)) << 8;
                        let f =
                            bits(_mm256_cmpeq_epi32(v0, k)) | bits(_mm256_cmpeq_epi32(v1, k)) << 8;
                        (e, e | f)
                    } else {
                        let k = _mm256_set1_epi64x(r.key.bits() as i64);
                        let bits = |v: __m256i| _mm256_movemask_pd(_mm256_castsi256_pd(v)) as u32;
                        let e = bits(_mm256_cmpeq_epi64(v0, zero))
                            | bits(_mm256_cmpeq_epi64(v1, zero)) << 4;
                        let f =
                            bits(_mm256_cmpeq_epi64(v0, k)) | bits(_mm256_cmpeq_epi64(v1, k)) << 4;
                        (e, e | f)
                    })
                };
                let Some((mut empty, mut m)) = window(home) else {
                    break;
                };
                // A full window without the key: the windows after it, while they are inside the arrays.
                while m == 0
                    && let Some(next) = window(home + lanes)
                {
                    home += lanes;
                    (empty, m) = next;
                }
                if m == 0 {
                    break;
                }
                let t = m.trailing_zeros();
                let i = home + t as usize;
                let new = empty >> t & 1;
                added += new as usize;
                // The key is stored only into an empty slot (see [`Table::add_recs_avx512`]).
                if new != 0 {
                    // SAFETY: `i` is in the window, inside `keys`.
                    unsafe { *keys.get_unchecked_mut(i) = r.key };
                }
                if counted {
                    let c = srcs.get(r.src.get() as usize)?;
                    // SAFETY: `i` is inside `keys`, and `counts` has as many slots.
                    let s = unsafe { counts.get_unchecked_mut(i) };
                    s[0] = s[0].add(c[0])?;
                    s[1] = s[1].add(c[1])?;
                }
                done += 1;
            }
            self.len += added;
            recs = &recs[done..];
            // A record whose windows were full to the end of the arrays: the slow path (which grows the table).
            if done < n
                && let Some(r) = recs.first()
            {
                let i = self.find_or_grow(r.key, self.home(r.key));
                self.add_at(i, r.key, source(srcs, r.src.get())?)?;
                recs = &recs[1..];
            }
        }
        Some(())
    }

    /// [`Table::add_recs`] comparing a cache line of keys at a time. A record's key is stored only when its
    /// slot was empty: most records add to a slot that holds their key already, and a store into the keys
    /// that the next records' windows are read from holds those reads up (about 3 ns a record on the
    /// development host, measured on a table in the first-level cache). A full window (neither the key nor an
    /// empty slot) is followed by the next ones with the same compare, in the loop.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn add_recs_avx512(&mut self, mut recs: &[Rec<K, C::Src>], srcs: &[[C; 2]]) -> Option<()> {
        use std::arch::x86_64::*;
        let narrow = std::mem::size_of::<K>() == 4;
        let lanes = if narrow { 16 } else { 8 };
        while !recs.is_empty() {
            if self.len >= self.limit {
                self.grow();
            }
            // Each record adds at most one entry: this many fit before the table must grow.
            let n = recs.len().min(self.limit - self.len);
            let (lsh, cap) = (self.lsh, self.cap);
            let (keys, counts) = (&mut self.keys[..], &mut self.counts[..]);
            // Every window (a home slot, below `cap`, and the `lanes - 1` after it) is inside both arrays.
            assert!(keys.len() == counts.len() && keys.len() >= cap + lanes);
            let klen = keys.len();
            let (kp, cp) = (keys.as_mut_ptr(), counts.as_mut_ptr());
            let mut added = 0usize;
            let mut done = 0usize;
            for (j, r) in recs[..n].iter().enumerate() {
                // The source counters are spread over a few MiB: ask for them ahead (the last record's
                // again near the end, rather than a branch).
                let a = recs[(j + 64).min(n - 1)].src.get() as usize;
                prefetch_ptr(srcs.as_ptr().wrapping_add(a));
                let mut home = r.key.home(lsh, cap);
                // The empty slots and the key's slot in the window at `home`.
                let window = |home: usize| {
                    // SAFETY: the callers keep the window's 64 bytes inside `keys`: `home < cap` whatever the
                    // key (see `TableKey::home`; asserted above), or checked before a window further on.
                    let v = unsafe { _mm512_loadu_si512(kp.add(home).cast()) };
                    if narrow {
                        let k = _mm512_set1_epi32(r.key.bits() as i32);
                        let e = u64::from(_mm512_testn_epi32_mask(v, v));
                        (e, e | u64::from(_mm512_cmpeq_epi32_mask(v, k)))
                    } else {
                        let k = _mm512_set1_epi64(r.key.bits() as i64);
                        let e = u64::from(_mm512_testn_epi64_mask(v, v));
                        (e, e | u64::from(_mm512_cmpeq_epi64_mask(v, k)))
                    }
                };
                let (mut empty, mut m) = window(home);
                // A full window without the key: the windows after it, while they are inside the arrays.
                while m == 0 && home + 2 * lanes <= klen {
                    home += lanes;
                    (empty, m) = window(home);
                }
                if m == 0 {
                    break;
                }
                let t = m.trailing_zeros();
                let i = home + t as usize;
                let new = empty >> t & 1;
                added += new as usize;
                let c = source(srcs, r.src.get())?;
                // SAFETY: `i` is in the window, inside both arrays.
                let s = unsafe {
                    if new != 0 {
                        *kp.add(i) = r.key;
                    }
                    &mut *cp.add(i)
                };
                s[0] = s[0].add(c[0])?;
                s[1] = s[1].add(c[1])?;
                done += 1;
            }
            self.len += added;
            recs = &recs[done..];
            // A record whose windows were full to the end of the arrays: the slow path (which grows the table).
            if done < n
                && let Some(r) = recs.first()
            {
                let i = self.find_or_grow(r.key, self.home(r.key));
                self.add_at(i, r.key, source(srcs, r.src.get())?)?;
                recs = &recs[1..];
            }
        }
        Some(())
    }

    /// [`Table::add_recs`] through one path: `0` the fastest the CPU has, `1` the AVX2 loop (when the CPU has
    /// AVX2), `2` the portable loop.
    #[cfg(test)]
    pub(super) fn add_recs_by(
        &mut self,
        path: u32,
        recs: &[Rec<K, C::Src>],
        srcs: &[[C; 2]],
    ) -> Option<()> {
        match path {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2 (checked in the guard).
            1 if crate::kernel::has_avx2() => unsafe { self.add_recs_avx2(recs, srcs) },
            2 => recs
                .iter()
                .try_for_each(|r| self.add(r.key, source(srcs, r.src.get())?)),
            _ => self.add_recs(recs, srcs),
        }
    }

    /// The slot for `key` searching from `from`, growing the table when the search runs past its end.
    #[cold]
    #[inline(never)]
    fn find_or_grow(&mut self, key: K, from: usize) -> usize {
        if let Some(i) = self.find(key, from) {
            return i;
        }
        loop {
            self.grow();
            if let Some(i) = self.find(key, self.home(key)) {
                return i;
            }
        }
    }

    /// Move to a table half as big again.
    fn grow(&mut self) {
        let cap = self.cap + self.cap / 2 + 16;
        let n = cap + spare(cap);
        let keys = std::mem::replace(&mut self.keys, vec![K::default(); n]);
        let counts = std::mem::replace(&mut self.counts, vec![[C::default(); 2]; n]);
        self.cap = cap;
        self.limit = (cap as f64 * MAX_LOAD) as usize;
        for (k, c) in keys.into_iter().zip(counts) {
            if k == K::default() {
                continue;
            }
            let mut i = self.home(k);
            while i < self.keys.len() && self.keys[i] != K::default() {
                i += 1;
            }
            if i == self.keys.len() {
                self.keys.push(K::default());
                self.counts.push([C::default(); 2]);
            }
            self.keys[i] = k;
            self.counts[i] = c;
        }
    }

    /// [`Table::freeze`] for a table without counters: its keys alone, sorted.
    fn freeze_keys(mut self, q: usize, layout: &Layout, pool: &Pool<K, C>) -> Part<C> {
        let base = layout.base(q);
        let mut keys = take_vec(&pool.keys, self.keys.len());
        let spare = keys.spare_capacity_mut();
        assert!(spare.len() >= self.keys.len());
        let mut n = 0usize;
        for &k in &self.keys {
            // `n` is at most the slot's index: inside `spare`. An empty slot is written, then overwritten.
            spare[n].write(k);
            n += usize::from(k != K::default());
        }
        // SAFETY: the first `n` entries were written.
        unsafe { keys.set_len(n) };
        // Nearly sorted (home slots increase with the key): an insertion sort costs little more than a pass.
        for i in 1..keys.len() {
            let x = keys[i];
            let mut j = i;
            while j > 0 && keys[j - 1].bits() > x.bits() {
                keys[j] = keys[j - 1];
                j -= 1;
            }
            keys[j] = x;
        }
        let mut mk = 0u64;
        let mut prev = base;
        for &k in &keys {
            let h = k.mixed(base);
            mk = mk.max(h - prev);
            prev = h;
        }
        let part = Part::encode_with(
            keys.len(),
            |j| {
                (
                    layout.local(keys[j].mixed(base)),
                    C::default(),
                    C::default(),
                )
            },
            Some((mk, 0, 0)),
            |bytes| pool.take_data(bytes),
        );
        self.keys.fill(K::default());
        lock(&pool.tables).push((self.keys, self.counts));
        lock(&pool.keys).push(keys);
        part
    }

    /// Freeze the table as partition `q` of `layout`. Its arrays go back to the pool, all zeros again.
    pub fn freeze(mut self, q: usize, layout: &Layout, pool: &Pool<K, C>) -> Part<C> {
        if std::mem::size_of::<C>() == 0 {
            return self.freeze_keys(q, layout, pool);
        }
        let base = layout.base(q);
        let mut order = take_vec(&pool.order, self.keys.len());
        // The counters' widths: the OR of the values has the bit length of the largest (empty slots hold
        // zeros). Without a branch on whether a slot is filled (they are filled at random): every slot is
        // written, and the next one overwrites it when it was empty.
        let (mut of, mut on) = (0u128, 0u128);
        let spare = order.spare_capacity_mut();
        assert!(spare.len() >= self.keys.len());
        let mut n = 0usize;
        for (i, (&k, c)) in self.keys.iter().zip(&self.counts).enumerate() {
            // `n <= i`: inside `spare`.
            spare[n].write((k.mixed(base), i as u32));
            n += usize::from(k != K::default());
            of |= c[0].to_u128();
            on |= c[1].to_u128();
        }
        // SAFETY: the first `n` entries were written: entry `j` at the slot holding the `j`-th filled key
        // at the latest.
        unsafe { order.set_len(n) };
        // Nearly sorted (home slots increase with the key): an insertion sort costs little more than a pass.
        for i in 1..order.len() {
            let x = order[i];
            let mut j = i;
            while j > 0 && order[j - 1].0 > x.0 {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = x;
        }
        let mut mk = 0u64;
        let mut prev = base;
        for &(h, _) in &order {
            mk = mk.max(h - prev);
            prev = h;
        }
        let part = Part::encode_with(
            order.len(),
            |j| {
                let (h, i) = order[j];
                let [full, norm] = self.counts[i as usize];
                (layout.local(h), full, norm)
            },
            Some((mk, of, on)),
            |bytes| pool.take_data(bytes),
        );
        // Every slot back to zero (in one sequential pass, cheaper than clearing the filled ones).
        self.keys.fill(K::default());
        self.counts.fill([C::default(); 2]);
        lock(&pool.tables).push((self.keys, self.counts));
        lock(&pool.order).push(order);
        part
    }
}

/// Reads the filled slots of a table, in slot order.
pub(crate) struct TableReader<'a, K, C> {
    keys: &'a [K],
    counts: &'a [[C; 2]],
    i: usize,
    base: u64,
}

impl<K: TableKey, C: Counter> Iterator for TableReader<'_, K, C> {
    type Item = (u64, C, C);
    #[inline(always)]
    fn next(&mut self) -> Option<(u64, C, C)> {
        while let Some(&k) = self.keys.get(self.i) {
            let i = self.i;
            self.i += 1;
            if k != K::default() {
                let [full, norm] = self.counts[i];
                return Some((k.mixed(self.base), full, norm));
            }
        }
        None
    }
}
