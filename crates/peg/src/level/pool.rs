//! Memory kept from one level to the next.

use super::keys::{Rec, TableKey};
use super::part::{Frozen, Part};
use crate::counter::Counter;

type Shared<T> = std::sync::Mutex<Vec<T>>;

pub(super) fn lock<T>(m: &Shared<T>) -> std::sync::MutexGuard<'_, Vec<T>> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Memory kept from one level to the next: the arrays of finished tables, record buffers and source
/// counters of finished rounds. Taking memory from the system and giving it back at every level cost a page
/// fault for every 4 KiB touched again, and unmapping it an interrupt to the other core to flush its address
/// translations.
pub(crate) struct Pool<K, C: Counter> {
    pub(super) tables: Shared<(Vec<K>, Vec<[C; 2]>)>,
    bufs: Shared<Vec<Rec<K, C::Src>>>,
    srcs: Shared<Vec<[C; 2]>>,
    /// Buffers for putting a table's entries in order: (mixed key, slot).
    pub(super) order: Shared<Vec<(u64, u32)>>,
    /// The same for tables without counters: their keys.
    pub(super) keys: Shared<Vec<K>>,
    /// The byte arrays of frozen partitions of levels no longer needed.
    data: Shared<Vec<u8>>,
}

/// An empty vector from `m` with room for about `cap` elements: shrunk if it was far bigger, grown to exactly
/// `cap` if it was smaller (the callers' sizes include their slack; growing further ahead, so that later levels
/// would not grow it again, measured no faster).
pub(super) fn take_vec<T>(m: &Shared<Vec<T>>, cap: usize) -> Vec<T> {
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
        } else if v.capacity() > n + n / 4 + 4096 {
            // An array of a bigger partition (a level before had fewer partitions): shrunk, so that a level
            // of small partitions does not hold the arrays of big ones.
            v.shrink_to(n + n / 8);
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

    /// Bytes of the idle round buffers (records and source counters), part of [`Pool::held`]'s buffers: a
    /// round that takes them shrinks those more than a quarter bigger than it asks for.
    pub fn round_held(&self) -> u64 {
        (vec_bytes(&self.bufs) + vec_bytes(&self.srcs)) as u64
    }

    /// Bytes held, idle.
    pub fn bytes(&self) -> u64 {
        let (t, b) = self.held();
        t + b
    }
}
