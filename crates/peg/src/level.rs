//! How the fast enumeration stores a level, and the order it keeps positions in.
//!
//! - A normal form (a position's smallest image) is turned into a *mixed key* by a bijection of the `bits`-bit
//!   integers ([`Mixer`]), so that mixed keys are spread evenly however structured the positions are.
//! - A level is split into `2^p` *partitions* by the top `p` bits of the mixed key ([`Layout`]); so partitions
//!   hold consecutive ranges of mixed keys, and a level read partition after partition is in increasing order.
//! - While a level is built, each partition is an open-addressing table whose home slot grows with the key
//!   ([`Table`]); tables are small enough to stay in a core's cache while records are added to them.
//! - A finished partition is *frozen* ([`Part`]): its entries sorted, each stored as the difference from the
//!   previous key and the two counters, every field in the fewest bytes that hold its largest value in that
//!   partition (typically 2 + 4 + 4 bytes an entry at the widest English levels, keys only: 2 bytes).

use std::marker::PhantomData;

use crate::counter::{Counter, SrcIndex};

/// Entries per block of a frozen partition; each block starts from a stored key (a checkpoint), so a partition
/// can be read from any block and searched by bisection over its checkpoints.
pub(crate) const BLOCK: usize = 64;

/// Bytes of zeros after a frozen partition's data, so that every field can be read with whole 8-byte loads.
const PAD: usize = 16;

/// A bijection of the integers below `2^bits`: multiplication by an odd constant modulo `2^bits` (undone by
/// its inverse). The top bits of a mixed key (its partition) depend on every bit of the normal form, and the
/// bits below them (its place in its partition's table) on the low bits: normal forms, which are small and
/// structured, spread evenly over both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mixer {
    mask: u64,
    a: u64,
    ai: u64,
}

/// The inverse of an odd number modulo `2^64` (Newton's iteration).
fn inverse(a: u64) -> u64 {
    let mut x = a;
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

impl Mixer {
    /// The bijection of `bits`-bit integers (`1..=64`).
    pub fn new(bits: u32) -> Mixer {
        let bits = bits.clamp(1, 64);
        let a = 0x9E37_79B9_7F4A_7C15u64;
        Mixer {
            mask: u64::MAX >> (64 - bits),
            a,
            ai: inverse(a),
        }
    }

    /// The mixed key of `x` (which must be below `2^bits`).
    #[inline(always)]
    pub fn mix(&self, x: u64) -> u64 {
        x.wrapping_mul(self.a) & self.mask
    }

    /// [`Mixer::mix`] of each lane.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn mix8(&self, x: std::arch::x86_64::__m512i) -> std::arch::x86_64::__m512i {
        use std::arch::x86_64::*;
        _mm512_and_si512(
            _mm512_mullo_epi64(x, _mm512_set1_epi64(self.a as i64)),
            _mm512_set1_epi64(self.mask as i64),
        )
    }

    /// The inverse of [`Mixer::mix`].
    #[inline(always)]
    pub fn unmix(&self, h: u64) -> u64 {
        h.wrapping_mul(self.ai) & self.mask
    }
}

/// The partitions of a level: `2^pbits` ranges of mixed keys of `bits` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pbits: u32,
    /// `bits - pbits`, at least 1: the bits of a key inside its partition.
    shift: u32,
}

impl Layout {
    /// A layout for a level of about `expected` entries with `bits`-bit keys, partitions of about `target`
    /// entries, and at least `2^min_pbits` partitions.
    pub fn for_size(bits: u32, expected: usize, target: usize, min_pbits: u32) -> Layout {
        let bits = bits.clamp(1, 64);
        let want = expected.div_ceil(target.max(1)).max(1);
        let pbits = want
            .next_power_of_two()
            .trailing_zeros()
            .min(20)
            .max(min_pbits)
            .min(bits - 1);
        Layout {
            pbits,
            shift: bits - pbits,
        }
    }

    /// The layout with `2^pbits` partitions of `bits`-bit keys (`pbits < bits <= 64`), as read back from a
    /// stored level; `None` for values no layout has.
    pub fn from_pbits(bits: u32, pbits: u32) -> Option<Layout> {
        (bits <= 64 && pbits < bits && pbits <= 20).then_some(Layout {
            pbits,
            shift: bits - pbits,
        })
    }

    /// The number of partition bits.
    pub fn pbits(&self) -> u32 {
        self.pbits
    }

    /// The bits of a mixed key.
    pub fn bits(&self) -> u32 {
        self.pbits + self.shift
    }

    /// Number of partitions.
    #[inline(always)]
    pub fn parts(&self) -> usize {
        1 << self.pbits
    }

    /// The partition of a mixed key.
    #[inline(always)]
    pub fn part(&self, h: u64) -> usize {
        // `shift` is in 1..=64: shift by one, then by the rest, so that a shift of 64 gives 0.
        (h >> 1 >> (self.shift - 1)) as usize
    }

    /// The key's bits inside its partition.
    #[inline(always)]
    pub fn local(&self, h: u64) -> u64 {
        h & (u64::MAX >> (64 - self.shift))
    }

    /// The smallest mixed key of partition `q`.
    #[inline(always)]
    pub fn base(&self, q: usize) -> u64 {
        (q as u64) << 1 << (self.shift - 1)
    }
}

/// One entry of a level: mixed key (never 0: no position with a peg mixes to 0) and the two counters.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Slot<C> {
    pub h: u64,
    pub full: C,
    pub norm: C,
}

/// The form a mixed key takes in a table and in a record: the key's bits inside its partition, plus one (0 is
/// an empty slot), in 32 bits when they fit (the partitions of the enumeration are made small enough when the
/// board has at most 51 holes), else the whole mixed key (never 0).
pub(crate) trait TableKey:
    Copy + Default + Eq + Send + Sync + std::fmt::Debug + 'static
{
    /// Whether the keys of partitions with `shift` bits fit.
    fn fits(shift: u32) -> bool;
    /// The stored form of mixed key `h`.
    fn store(h: u64, layout: &Layout) -> Self;
    /// The mixed key, given its partition's smallest mixed key (anything, without overflow, for the empty
    /// key).
    fn mixed(self, base: u64) -> u64;
    /// The key's position inside its partition as a fraction of `2^64` (`lsh` is 64 minus the bits inside
    /// a partition).
    fn frac(self, lsh: u32) -> u64;
    /// The key's home slot in a table of `cap` home slots: `frac(lsh) * cap / 2^64`, below `cap` for any
    /// key (the merge's unchecked reads rely on it).
    fn home(self, lsh: u32, cap: usize) -> usize;
    /// Whether the key is one [`TableKey::store`] gives for a mixed key of partition `q` of `layout` (keys that
    /// come from elsewhere, as another worker's records, are checked before they are added).
    fn valid(self, layout: &Layout, q: usize) -> bool;
    /// The stored bits.
    fn bits(self) -> u64;
    /// The key with these stored bits (the inverse of [`TableKey::bits`], for keys sent between workers).
    fn from_bits(b: u64) -> Self;
}

impl TableKey for u32 {
    #[inline(always)]
    fn fits(shift: u32) -> bool {
        shift <= 31
    }
    #[inline(always)]
    fn store(h: u64, layout: &Layout) -> u32 {
        (layout.local(h) + 1) as u32
    }
    #[inline(always)]
    fn mixed(self, base: u64) -> u64 {
        (base + u64::from(self)).wrapping_sub(1)
    }
    #[inline(always)]
    fn frac(self, lsh: u32) -> u64 {
        u64::from(self).wrapping_sub(1) << lsh
    }
    fn valid(self, layout: &Layout, _: usize) -> bool {
        self != 0 && u64::from(self) - 1 == layout.local(u64::from(self) - 1)
    }
    #[inline(always)]
    fn home(self, lsh: u32, cap: usize) -> usize {
        // The key's bits inside its partition (at most 31, see `fits`; masked, so that any key gives a slot
        // below `cap`) times `cap` (far below 2^33) fit in 64 bits: the same value as the 128-bit product of
        // the fraction, with one 64-bit multiplication.
        let bits = u64::from(self).wrapping_sub(1) & (u64::MAX >> lsh);
        ((bits * cap as u64) >> (64 - lsh)) as usize
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn from_bits(b: u64) -> u32 {
        b as u32
    }
}

impl TableKey for u64 {
    #[inline(always)]
    fn fits(_: u32) -> bool {
        true
    }
    #[inline(always)]
    fn store(h: u64, _: &Layout) -> u64 {
        h
    }
    #[inline(always)]
    fn mixed(self, _: u64) -> u64 {
        self
    }
    #[inline(always)]
    fn frac(self, lsh: u32) -> u64 {
        self << lsh
    }
    fn valid(self, layout: &Layout, q: usize) -> bool {
        self != 0 && layout.part(self) == q
    }
    #[inline(always)]
    fn home(self, lsh: u32, cap: usize) -> usize {
        ((u128::from(self.frac(lsh)) * cap as u128) >> 64) as usize
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        self
    }
    #[inline(always)]
    fn from_bits(b: u64) -> u64 {
        b
    }
}

/// A record for the level being built: a successor's key (in its partition) and the index of the counters
/// it adds in the round's table of source counters.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Rec<K, S = u32> {
    pub key: K,
    pub src: S,
}

type Shared<T> = std::sync::Mutex<Vec<T>>;

fn lock<T>(m: &Shared<T>) -> std::sync::MutexGuard<'_, Vec<T>> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Memory kept from one level to the next: the arrays of finished tables, record buffers and source
/// counters of finished rounds. Taking memory from the system and giving it back at every level cost a page
/// fault for every 4 KiB touched again, and unmapping it an interrupt to the other core to flush its address
/// translations.
pub(crate) struct Pool<K, C: Counter> {
    tables: Shared<(Vec<K>, Vec<[C; 2]>)>,
    bufs: Shared<Vec<Rec<K, C::Src>>>,
    srcs: Shared<Vec<[C; 2]>>,
    /// Buffers for putting a table's entries in order: (mixed key, slot).
    order: Shared<Vec<(u64, u32)>>,
    /// The same for tables without counters: their keys.
    keys: Shared<Vec<K>>,
    /// The byte arrays of frozen partitions of levels no longer needed.
    data: Shared<Vec<u8>>,
}

/// An empty vector from `m` with room for about `cap` elements: shrunk if it was far bigger, grown to exactly
/// `cap` if it was smaller (the callers' sizes include their slack; growing further ahead, so that later levels
/// would not grow it again, measured no faster).
fn take_vec<T>(m: &Shared<Vec<T>>, cap: usize) -> Vec<T> {
    let mut v = lock(m).pop().unwrap_or_default();
    v.clear();
    if v.capacity() > cap + cap / 4 + 64 {
        v.shrink_to(cap);
    }
    v.reserve_exact(cap);
    v
}

fn vec_bytes<T>(m: &Shared<Vec<T>>) -> usize {
    lock(m)
        .iter()
        .map(|v| v.capacity() * std::mem::size_of::<T>())
        .sum()
}

impl<K: TableKey, C: Counter> Pool<K, C> {
    pub fn new() -> Pool<K, C> {
        Pool {
            tables: Shared::new(Vec::new()),
            bufs: Shared::new(Vec::new()),
            srcs: Shared::new(Vec::new()),
            order: Shared::new(Vec::new()),
            keys: Shared::new(Vec::new()),
            data: Shared::new(Vec::new()),
        }
    }

    /// A byte array of `n` zeros for a frozen partition.
    pub fn take_data(&self, n: usize) -> Vec<u8> {
        let mut v = lock(&self.data).pop().unwrap_or_default();
        v.clear();
        if v.capacity() < n {
            v = Vec::with_capacity(n + n / 8);
        }
        v.resize(n, 0);
        v
    }

    /// Keep the memory of a frozen level that is no longer needed, for the levels to come.
    pub fn recycle(&self, level: Frozen<C>) {
        let mut d = lock(&self.data);
        for p in level.parts {
            if p.data.capacity() >= 4096 {
                d.push(p.data);
            }
        }
    }

    /// Keep the memory of frozen partitions that are no longer needed, for the levels to come.
    pub fn recycle_parts(&self, parts: Vec<Part<C>>) {
        let mut d = lock(&self.data);
        for p in parts {
            if p.data.capacity() >= 4096 {
                d.push(p.data);
            }
        }
    }

    /// An empty record buffer, with room for about `cap` records.
    pub fn take_buf(&self, cap: usize) -> Vec<Rec<K, C::Src>> {
        take_vec(&self.bufs, cap)
    }

    /// Give a record buffer back.
    pub fn give_buf(&self, v: Vec<Rec<K, C::Src>>) {
        lock(&self.bufs).push(v);
    }

    /// An empty table of source counters, with room for about `cap`.
    pub fn take_srcs(&self, cap: usize) -> Vec<[C; 2]> {
        take_vec(&self.srcs, cap)
    }

    /// Give a table of source counters back.
    pub fn give_srcs(&self, v: Vec<[C; 2]>) {
        lock(&self.srcs).push(v);
    }

    /// Keep at most this many tables, record buffers, tables of source counters and ordering buffers (the
    /// biggest), for a level that needs no more; give the rest back to the system.
    pub fn trim(&self, tables: usize, bufs: usize, srcs: usize, order: usize) {
        let mut t = lock(&self.tables);
        t.sort_unstable_by_key(|(k, _)| std::cmp::Reverse(k.capacity()));
        t.truncate(tables);
        let mut b = lock(&self.bufs);
        b.sort_unstable_by_key(|v| std::cmp::Reverse(v.capacity()));
        b.truncate(bufs);
        let mut r = lock(&self.srcs);
        r.sort_unstable_by_key(|v| std::cmp::Reverse(v.capacity()));
        r.truncate(srcs);
        let mut o = lock(&self.order);
        o.sort_unstable_by_key(|v| std::cmp::Reverse(v.capacity()));
        o.truncate(order);
        let mut o = lock(&self.keys);
        o.sort_unstable_by_key(|v| std::cmp::Reverse(v.capacity()));
        o.truncate(order);
        let mut d = lock(&self.data);
        d.sort_unstable_by_key(|v| std::cmp::Reverse(v.capacity()));
        d.truncate(tables);
    }

    /// Bytes held, idle: (tables, buffers).
    pub fn held(&self) -> (u64, u64) {
        let t: usize = lock(&self.tables)
            .iter()
            .map(|(k, c)| {
                k.capacity() * std::mem::size_of::<K>()
                    + c.capacity() * std::mem::size_of::<[C; 2]>()
            })
            .sum();
        let b = vec_bytes(&self.bufs)
            + vec_bytes(&self.srcs)
            + vec_bytes(&self.order)
            + vec_bytes(&self.keys)
            + vec_bytes(&self.data);
        (t as u64, b as u64)
    }

    /// Bytes held, idle.
    pub fn bytes(&self) -> u64 {
        let (t, b) = self.held();
        t + b
    }
}

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
        if keys.capacity() > n + n / 2 {
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
    fn add_recs_by(&mut self, path: u32, recs: &[Rec<K, C::Src>], srcs: &[[C; 2]]) -> Option<()> {
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
fn width_of(v: u128) -> u32 {
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

/// A frozen partition: entries sorted by key, byte-packed (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct Part<C> {
    len: usize,
    /// Bytes of a key difference, of a full-tree counter, of a normal-tree counter.
    wk: u32,
    wf: u32,
    wn: u32,
    data: Vec<u8>,
    /// Per block: the local key of the entry before the block's first (0 for the first block).
    ck: Vec<u64>,
    _c: PhantomData<C>,
}

impl<C: Counter> Default for Part<C> {
    fn default() -> Self {
        Part {
            len: 0,
            wk: 0,
            wf: 0,
            wn: 0,
            data: vec![0; PAD],
            ck: Vec::new(),
            _c: PhantomData,
        }
    }
}

impl<C: Counter> Part<C> {
    /// Freeze entries sorted by key (all in partition `q` of `layout`).
    pub fn encode(entries: &[Slot<C>], layout: &Layout) -> Part<C> {
        Part::encode_by(entries.len(), |i| {
            let e = &entries[i];
            (layout.local(e.h), e.full, e.norm)
        })
    }

    /// Freeze `n` entries given in increasing key order by `entry(i)`: (key bits inside the partition, the two
    /// counters). Each entry is read twice: once for the field widths, once to write it.
    pub fn encode_by(n: usize, entry: impl Fn(usize) -> (u64, C, C)) -> Part<C> {
        Part::encode_with(n, entry, None, |bytes| vec![0u8; bytes])
    }

    /// [`Part::encode_by`], given (when known) the largest key difference and values with the bit lengths of
    /// the largest counters, and with the byte array (of zeros) from `zeros`.
    fn encode_with(
        n: usize,
        entry: impl Fn(usize) -> (u64, C, C),
        widths: Option<(u64, u128, u128)>,
        zeros: impl FnOnce(usize) -> Vec<u8>,
    ) -> Part<C> {
        if n == 0 {
            return Part::default();
        }
        let (mk, mf, mn) = widths.unwrap_or_else(|| {
            let (mut mk, mut mf, mut mn) = (0u64, 0u128, 0u128);
            let mut prev = 0u64;
            for i in 0..n {
                let (l, full, norm) = entry(i);
                mk = mk.max(l - prev);
                prev = l;
                mf = mf.max(full.to_u128());
                mn = mn.max(norm.to_u128());
            }
            (mk, mf, mn)
        });
        let wk = width_of(u128::from(mk)).max(1);
        let (wf, wn) = (width_of(mf), width_of(mn));
        let stride = (wk + wf + wn) as usize;
        let mut data = zeros(n * stride + PAD);
        let mut ck = Vec::with_capacity(n.div_ceil(BLOCK));
        let mut prev = 0u64;
        let mut off = 0usize;
        for i in 0..n {
            let (l, full, norm) = entry(i);
            if i % BLOCK == 0 {
                ck.push(prev);
            }
            put(&mut data, off, u128::from(l - prev), wk);
            if wf + wn > 0 {
                put(&mut data, off + wk as usize, full.to_u128(), wf);
                put(&mut data, off + (wk + wf) as usize, norm.to_u128(), wn);
            }
            off += stride;
            prev = l;
        }
        Part {
            len: n,
            wk,
            wf,
            wn,
            data,
            ck,
            _c: PhantomData,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes of memory held.
    pub fn bytes(&self) -> u64 {
        (self.data.capacity() + self.ck.capacity() * 8) as u64
    }

    /// Write the partition in its stored form (for checkpoints): the entry count, the three field widths, the
    /// block checkpoints and the packed bytes, little-endian.
    pub fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        w.write_all(&(self.len as u64).to_le_bytes())?;
        w.write_all(&[self.wk as u8, self.wf as u8, self.wn as u8])?;
        let packed = self.len * (self.wk + self.wf + self.wn) as usize;
        w.write_all(&(self.ck.len() as u64).to_le_bytes())?;
        let mut ck = Vec::with_capacity(self.ck.len() * 8);
        for c in &self.ck {
            ck.extend_from_slice(&c.to_le_bytes());
        }
        w.write_all(&ck)?;
        w.write_all(&self.data[..packed])
    }

    /// Read a partition written by [`Part::write_to`], checking that its sizes are consistent (every field
    /// width at most the bytes of `C`, as many checkpoints as blocks, the checkpoints increasing and below
    /// `2^shift`) so that reading it can never go out of bounds. An `InvalidData` error otherwise.
    pub fn read_from(r: &mut dyn std::io::Read, shift: u32) -> std::io::Result<Part<C>> {
        use std::io::{Error, ErrorKind};
        let bad = |what: &str| Error::new(ErrorKind::InvalidData, what.to_string());
        let mut b8 = [0u8; 8];
        r.read_exact(&mut b8)?;
        let len = u64::from_le_bytes(b8);
        let mut w3 = [0u8; 3];
        r.read_exact(&mut w3)?;
        let (wk, wf, wn) = (u32::from(w3[0]), u32::from(w3[1]), u32::from(w3[2]));
        let cb = std::mem::size_of::<C>() as u32;
        if len > 0 && (wk == 0 || wk > 8 || wf > cb || wn > cb) {
            return Err(bad("a partition's field widths are out of range"));
        }
        r.read_exact(&mut b8)?;
        let nck = u64::from_le_bytes(b8);
        // At most 2^32 entries a partition (a partition holds a few thousand to a few million).
        if len > 1 << 32 || nck != len.div_ceil(BLOCK as u64) {
            return Err(bad("a partition's entry count does not match its blocks"));
        }
        let (len, nck) = (len as usize, nck as usize);
        let mut raw = vec![0u8; nck * 8];
        r.read_exact(&mut raw)?;
        let limit = u64::MAX.checked_shr(64 - shift.min(64)).unwrap_or(0);
        let mut ck = Vec::with_capacity(nck);
        for c in raw.chunks_exact(8) {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            let v = u64::from_le_bytes(b);
            if v > limit || ck.last().is_some_and(|&p| v < p) {
                return Err(bad("a partition's block checkpoints are out of order"));
            }
            ck.push(v);
        }
        if len == 0 {
            return Ok(Part::default());
        }
        let stride = (wk + wf + wn) as usize;
        let packed = len * stride;
        let mut data = vec![0u8; packed + PAD];
        r.read_exact(&mut data[..packed])?;
        // Every key inside the partition, increasing, and each block's checkpoint the key before it.
        let mut key = 0u64;
        for i in 0..len {
            if i % BLOCK == 0 && ck[i / BLOCK] != key {
                return Err(bad("a partition's block checkpoints do not match its keys"));
            }
            let d = read_u64(&data, i * stride, wk);
            key = match key.checked_add(d) {
                Some(k) if k <= limit && (d > 0 || i == 0) => k,
                _ => return Err(bad("a partition's keys are out of order")),
            };
        }
        Ok(Part {
            len,
            wk,
            wf,
            wn,
            data,
            ck,
            _c: PhantomData,
        })
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        self.ck.len()
    }

    /// A reader of blocks `from..to`, giving keys from `base` (the partition's smallest mixed key).
    pub fn reader(&self, base: u64, from: usize, to: usize) -> Reader<'_, C> {
        let stride = (self.wk + self.wf + self.wn) as usize;
        let from = from.min(self.ck.len());
        let first = from * BLOCK;
        let last = (to * BLOCK).min(self.len).max(first);
        Reader {
            data: &self.data,
            off: first * stride,
            end: last * stride,
            stride,
            wk: self.wk,
            wf: self.wf,
            wn: self.wn,
            key: base + self.ck.get(from).copied().unwrap_or(0),
            _c: PhantomData,
        }
    }

    /// The block that holds the mixed key `h` if the partition (whose smallest key is `base`) holds it: the
    /// last block whose checkpoint is below it (the first block for the smallest keys).
    pub fn block_of(&self, base: u64, h: u64) -> usize {
        let l = h.saturating_sub(base);
        self.ck.partition_point(|&c| c < l).max(1) - 1
    }

    /// Whether the mixed key `h` (in this partition, whose smallest key is `base`) is present.
    pub fn contains(&self, base: u64, h: u64) -> bool {
        let l = h - base;
        // The last block whose checkpoint is below `l`: its entries are the only ones that can hold it.
        if self.len == 0 {
            return false;
        }
        // The block holding `l`, if any: the last whose checkpoint is below `l` (the first block for 0).
        let b = self.ck.partition_point(|&c| c < l).max(1) - 1;
        for (k, _, _) in self.reader(base, b, b + 1) {
            if k >= h {
                return k == h;
            }
        }
        false
    }
}

/// Write the low `w` bytes of `v` at `off`, and garbage after them up to 8 (or 16) bytes: fields are written
/// in increasing order, so the next field overwrites it, and the data ends with zero padding.
#[inline(always)]
fn put(data: &mut [u8], off: usize, v: u128, w: u32) {
    if w <= 8 {
        data[off..off + 8].copy_from_slice(&(v as u64).to_le_bytes());
    } else {
        data[off..off + 16].copy_from_slice(&v.to_le_bytes());
    }
}

/// Reads the entries of a frozen partition in order.
pub(crate) struct Reader<'a, C> {
    data: &'a [u8],
    off: usize,
    end: usize,
    stride: usize,
    wk: u32,
    wf: u32,
    wn: u32,
    key: u64,
    _c: PhantomData<C>,
}

impl<C: Counter> Iterator for Reader<'_, C> {
    type Item = (u64, C, C);
    #[inline(always)]
    fn next(&mut self) -> Option<(u64, C, C)> {
        if self.off >= self.end {
            return None;
        }
        let o = self.off;
        self.key += read_u64(self.data, o, self.wk);
        let full = C::read(self.data, o + self.wk as usize, self.wf);
        let norm = C::read(self.data, o + (self.wk + self.wf) as usize, self.wn);
        self.off += self.stride;
        Some((self.key, full, norm))
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

/// A whole frozen level.
#[derive(Debug, Clone)]
pub(crate) struct Frozen<C> {
    pub layout: Layout,
    pub parts: Vec<Part<C>>,
}

impl<C: Counter> Frozen<C> {
    /// An empty level.
    pub fn empty(bits: u32) -> Frozen<C> {
        Frozen {
            layout: Layout::for_size(bits, 0, PART_TARGET, 0),
            parts: Vec::new(),
        }
    }

    /// A level from entries in any order (for the first level).
    pub fn from_entries(bits: u32, mut entries: Vec<Slot<C>>) -> Frozen<C> {
        entries.sort_unstable_by_key(|e| e.h);
        entries.dedup_by_key(|e| e.h);
        let layout = Layout::for_size(bits, entries.len(), PART_TARGET, 0);
        let mut parts = Vec::with_capacity(layout.parts());
        let mut rest = &entries[..];
        for q in 0..layout.parts() {
            let n = rest.partition_point(|e| layout.part(e.h) == q);
            parts.push(Part::encode(&rest[..n], &layout));
            rest = &rest[n..];
        }
        Frozen { layout, parts }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.parts.iter().map(Part::len).sum()
    }

    /// Bytes of memory held.
    pub fn bytes(&self) -> u64 {
        self.parts.iter().map(Part::bytes).sum::<u64>()
            + (self.parts.capacity() * std::mem::size_of::<Part<C>>()) as u64
    }

    /// All entries in increasing key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, C, C)> + '_ {
        self.parts
            .iter()
            .enumerate()
            .flat_map(|(q, p)| p.reader(self.layout.base(q), 0, p.blocks()))
    }

    /// The entries in increasing key order from the block that would hold the mixed key `h` on (so every entry
    /// of at least `h`, and a few before it).
    pub fn iter_from(&self, h: u64) -> impl Iterator<Item = (u64, C, C)> + '_ {
        let q0 = self.layout.part(h).min(self.parts.len());
        self.parts[q0..].iter().enumerate().flat_map(move |(i, p)| {
            let base = self.layout.base(q0 + i);
            let from = if i == 0 { p.block_of(base, h) } else { 0 };
            p.reader(base, from, p.blocks())
        })
    }

    /// Whether the mixed key `h` is present.
    pub fn contains(&self, h: u64) -> bool {
        let q = self.layout.part(h);
        self.parts
            .get(q)
            .is_some_and(|p| p.contains(self.layout.base(q), h))
    }
}

/// A set of mixed keys, approximately: one bit per value of a key's top bits. It holds every key put in, and
/// some others (about one in sixteen of the keys not put in, with sixteen bits a key); a level built through
/// it ([`crate::enumerate::Walk::step_filtered`]) is then intersected with the exact set. Bits are set with
/// atomic operations, so that keys can be put in from several threads.
pub(crate) struct KeyFilter {
    bits: Vec<std::sync::atomic::AtomicU64>,
    /// A key's bit is its top bits: the key shifted right by this many.
    shift: u32,
}

impl KeyFilter {
    /// A filter for about `n` keys of `key_bits` bits (exact when it can have a bit for every key).
    pub fn new(n: usize, key_bits: u32) -> KeyFilter {
        let want = (n.max(1) * 16).next_power_of_two().trailing_zeros().max(6);
        let fb = want.min(key_bits.max(6));
        let words = 1usize << (fb - 6);
        KeyFilter {
            bits: (0..words)
                .map(|_| std::sync::atomic::AtomicU64::new(0))
                .collect(),
            shift: key_bits.saturating_sub(fb),
        }
    }

    /// Put in the mixed key `h`.
    #[inline]
    pub fn insert(&self, h: u64) {
        let i = (h >> self.shift) as usize;
        if let Some(w) = self.bits.get(i >> 6) {
            w.fetch_or(1 << (i & 63), std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Ask the CPU to bring the bit of the mixed key `h` into the cache, to be set.
    #[inline(always)]
    pub fn prefetch_insert(&self, h: u64) {
        let i = (h >> self.shift) as usize;
        if let Some(w) = self.bits.get(i >> 6) {
            prefetch_write(w as *const std::sync::atomic::AtomicU64);
        }
    }

    /// Ask the CPU to bring the bit of the mixed key `h` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, h: u64) {
        let i = (h >> self.shift) as usize;
        if let Some(w) = self.bits.get(i >> 6) {
            prefetch(w);
        }
    }

    /// Whether the mixed key `h` may have been put in (`false`: certainly not).
    #[inline(always)]
    pub fn may_hold(&self, h: u64) -> bool {
        let i = (h >> self.shift) as usize;
        self.bits
            .get(i >> 6)
            .is_some_and(|w| w.load(std::sync::atomic::Ordering::Relaxed) >> (i & 63) & 1 == 1)
    }

    /// A filter holding the keys of a level (parallel over its partitions).
    pub fn of_level<C: Counter>(level: &Frozen<C>, key_bits: u32) -> KeyFilter {
        use rayon::prelude::*;
        let f = KeyFilter::new(level.len(), key_bits);
        level.parts.par_iter().enumerate().for_each(|(q, p)| {
            for (h, _, _) in p.reader(level.layout.base(q), 0, p.blocks()) {
                f.insert(h);
            }
        });
        f
    }
}

/// Target entries per partition: a table of this many 20-byte slots at 82% load fits a core's 1 MiB L2 cache
/// beside the records streaming through.
pub(crate) const PART_TARGET: usize = 20 << 10;

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    #[test]
    fn mixer_is_a_bijection() {
        for bits in [1u32, 2, 5, 15, 32, 33, 37, 41, 45, 63, 64] {
            let m = Mixer::new(bits);
            let mask = u64::MAX >> (64 - bits);
            let mut x = 0x1234_5678u64;
            for _ in 0..2000 {
                let v = xorshift(&mut x) & mask;
                let h = m.mix(v);
                assert!(h <= mask);
                assert_eq!(m.unmix(h), v, "bits {bits}");
            }
            if bits <= 15 {
                let mut seen = vec![false; 1 << bits];
                for v in 0..1u64 << bits {
                    let h = m.mix(v) as usize;
                    assert!(!seen[h]);
                    seen[h] = true;
                }
            }
            assert_eq!(m.mix(0), 0);
        }
    }

    #[test]
    fn read_masks_widths() {
        let data = [0xffu8; 24];
        for w in 0..=8u32 {
            let want = if w == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * w)) - 1
            };
            assert_eq!(read_u64(&data, 3, w), want);
        }
    }

    /// Records into tables (each key form, through merge path `path`, see [`Table::add_recs_by`]), frozen,
    /// read back and searched, against a plain map.
    fn freeze_round_trip<K: TableKey>(bits: u32, path: u32) {
        let mask = u64::MAX >> (64 - bits);
        let min_pbits = if K::fits(64) {
            0
        } else {
            bits.saturating_sub(31)
        };
        let layout = Layout::for_size(bits, 50_000, 4000, min_pbits);
        assert!(layout.parts() >= 8);
        assert!(K::fits(layout.shift));
        let pool: Pool<K, u64> = Pool::new();
        let mut tables: Vec<Table<K, u64>> = (0..layout.parts())
            .map(|_| Table::new(layout, 1000, &pool))
            .collect();
        let mut want = std::collections::BTreeMap::new();
        let mut x = 99u64;
        let mut recs: Vec<Vec<Rec<K>>> = vec![Vec::new(); layout.parts()];
        let mut srcs: Vec<[u64; 2]> = Vec::new();
        for i in 0..60_000u64 {
            let h = (xorshift(&mut x) % 40_000 + 1) * (mask / 40_001);
            let c = [i, i % 7 + (i << 40)];
            recs[layout.part(h)].push(Rec {
                key: K::store(h, &layout),
                src: srcs.len() as u32,
            });
            srcs.push(c);
            let e = want.entry(h).or_insert((0u64, 0u64));
            e.0 += c[0];
            e.1 += c[1];
        }
        for (t, r) in tables.iter_mut().zip(&recs) {
            t.add_recs_by(path, r, &srcs).unwrap();
        }
        let parts: Vec<Part<u64>> = tables
            .into_iter()
            .enumerate()
            .map(|(q, t)| t.freeze(q, &layout, &pool))
            .collect();
        let level = Frozen { layout, parts };
        let got: Vec<(u64, (u64, u64))> = level.iter().map(|(h, f, n)| (h, (f, n))).collect();
        let want: Vec<(u64, (u64, u64))> = want.into_iter().collect();
        assert_eq!(got, want);
        for &(h, _) in want.iter().step_by(13) {
            assert!(level.contains(h));
            assert_eq!(
                level.contains(h + 1),
                want.binary_search_by_key(&(h + 1), |e| e.0).is_ok()
            );
        }
    }

    #[test]
    fn tables_freeze_sorted_and_levels_read_back() {
        for path in 0..3 {
            for bits in [20u32, 33, 45] {
                freeze_round_trip::<u32>(bits, path);
            }
            for bits in [20u32, 33, 64] {
                freeze_round_trip::<u64>(bits, path);
            }
        }
    }

    /// Keys crowded around a few home slots, so that most windows are full: each merge path looks on to the
    /// windows after a full one (or falls back to the slow path at the end of the arrays), and the frozen
    /// table holds the same keys and sums as a plain map.
    #[test]
    fn crowded_windows_are_searched_on() {
        for path in 0..3 {
            crowded::<u32>(path);
            crowded::<u64>(path);
        }
    }

    /// One key width and merge path of [`crowded_windows_are_searched_on`].
    fn crowded<K: TableKey>(path: u32) {
        // Four partitions of 2^31 keys: the first one is filled.
        let layout = Layout::for_size(33, 0, 4000, 2);
        let pool: Pool<K, u64> = Pool::new();
        let mut tables: Vec<Table<K, u64>> = (0..layout.parts())
            .map(|_| Table::new(layout, 1000, &pool))
            .collect();
        let span = 1u64 << layout.shift;
        let mut want = std::collections::BTreeMap::new();
        let mut recs: Vec<Rec<K>> = Vec::new();
        let mut srcs: Vec<[u64; 2]> = Vec::new();
        let mut x = 5u64;
        // Runs of 200 consecutive keys (each within a few home slots; two of them overlap), one at the very
        // end of the partition, each key several times.
        for i in 0..2400u64 {
            let run = xorshift(&mut x) % 4;
            let start = [span / 7, span / 2, span / 2 + 150, span - 200][run as usize];
            let h = start + xorshift(&mut x) % 200;
            recs.push(Rec {
                key: K::store(h, &layout),
                src: srcs.len() as u32,
            });
            srcs.push([i + 1, 1]);
            let e = want.entry(h).or_insert((0u64, 0u64));
            e.0 += i + 1;
            e.1 += 1;
        }
        tables[0].add_recs_by(path, &recs, &srcs).unwrap();
        let parts = tables
            .into_iter()
            .enumerate()
            .map(|(q, t)| t.freeze(q, &layout, &pool))
            .collect();
        let got: Vec<(u64, (u64, u64))> = Frozen { layout, parts }
            .iter()
            .map(|(h, f, n)| (h, (f, n)))
            .collect();
        let want: Vec<(u64, (u64, u64))> = want.into_iter().collect();
        assert_eq!(
            got,
            want,
            "path {path}, {} bytes a key",
            std::mem::size_of::<K>()
        );
    }

    /// A key's home slot is the 128-bit product of its fraction and the capacity, and below the capacity for
    /// any key, valid or not (the AVX-512 merge reads its window unchecked).
    #[test]
    fn home_slots_are_below_the_capacity() {
        let mut x = 7u64;
        for shift in [1u32, 9, 20, 25, 31] {
            let lsh = 64 - shift;
            for cap in [16usize, 1000, 24_989, 1 << 20] {
                let mut keys: Vec<u32> = vec![0, 1, u32::MAX, (1u64 << shift) as u32];
                keys.extend((0..200).map(|_| xorshift(&mut x) as u32));
                for k in keys {
                    let h = k.home(lsh, cap);
                    assert!(h < cap, "key {k}, shift {shift}, cap {cap}: home {h}");
                    if k >= 1 && u64::from(k) - 1 < 1u64 << shift {
                        let want = (u128::from(k.frac(lsh)) * cap as u128) >> 64;
                        assert_eq!(h as u128, want);
                    }
                }
                for _ in 0..200 {
                    let k = xorshift(&mut x);
                    assert!(k.home(lsh, cap) < cap);
                }
            }
        }
    }

    #[test]
    fn table_overflow_is_reported() {
        let layout = Layout::for_size(33, 10, 100, 2);
        let mut t: Table<u32, u16> = Table::new(layout, 4, &Pool::new());
        let k = 77u32;
        assert!(t.add(k, [40_000, 1]).is_some());
        assert!(t.add(k, [40_000, 1]).is_none());
    }
}
