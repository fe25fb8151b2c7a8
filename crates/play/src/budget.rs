//! One memory budget for the caches of an [`Env`](crate::Env): the complete peg tables, the peg solvers kept
//! with what they learnt, the Mouse & Cats solutions, and whatever a front end keeps beside them (a server's
//! solvers and counts).
//!
//! A cache that keeps something asks the budget for its size ([`MemoryBudget::charge`]) and holds the
//! [`Charge`] beside it; using it again marks it recently used ([`Charge::touch`]). When a new charge would pass
//! the limit, the least recently used things of every cache are evicted (each cache says how, when it charges)
//! until the new one fits; something larger than the whole budget is not kept at all. Dropping a charge (the
//! cache let the thing go by itself) gives its bytes back. What is in use (a game holding a table, a search
//! running) stays alive until it is let go: the budget bounds what is kept for later, not the work.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use serde::Serialize;

/// How an evicted thing is taken out of its cache (called without the budget's lock held).
type Evict = Box<dyn FnOnce() + Send>;

struct Entry {
    id: u64,
    cache: &'static str,
    bytes: u64,
    /// When it was last used (a tick of [`Inner::tick`]).
    used: u64,
    evict: Evict,
}

#[derive(Default)]
struct Inner {
    limit: Option<u64>,
    used: u64,
    tick: u64,
    next_id: u64,
    entries: Vec<Entry>,
    evicted: u64,
    refused: u64,
}

impl Inner {
    fn tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    // The budget's counters are updated under the lock in one step each: a panic elsewhere leaves them whole.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The memory budget shared by the caches of an `Env` (cheap to clone: the clones share it).
#[derive(Clone, Default)]
pub struct MemoryBudget {
    inner: Arc<Mutex<Inner>>,
}

/// The budget's state, as a server's status shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BudgetStats {
    /// The limit in bytes (`None`: unlimited).
    pub limit_bytes: Option<u64>,
    /// Bytes charged now.
    pub used_bytes: u64,
    /// Things kept now.
    pub entries: usize,
    /// Bytes charged now per cache, by its name, largest first.
    pub caches: Vec<(String, u64)>,
    /// Things evicted to make room, since the start.
    pub evicted: u64,
    /// Things not kept because each alone was larger than the whole budget.
    pub refused: u64,
}

impl MemoryBudget {
    /// A budget without a limit (a terminal's: one player, who chose what to open).
    pub fn unlimited() -> MemoryBudget {
        MemoryBudget::default()
    }

    /// A budget of `limit` bytes.
    pub fn new(limit: u64) -> MemoryBudget {
        MemoryBudget {
            inner: Arc::new(Mutex::new(Inner {
                limit: Some(limit),
                ..Inner::default()
            })),
        }
    }

    /// The limit in bytes, if there is one.
    pub fn limit(&self) -> Option<u64> {
        lock(&self.inner).limit
    }

    /// Charge `bytes` kept by `cache`, evicting the least recently used things (of any cache) until they fit;
    /// `evict` takes this thing out of its cache when its own turn comes. `None` when `bytes` alone pass the
    /// limit: then the thing is not to be kept.
    ///
    /// Call it without holding the lock of any cache: the evictions it makes take those locks.
    pub fn charge(
        &self,
        cache: &'static str,
        bytes: u64,
        evict: impl FnOnce() + Send + 'static,
    ) -> Option<Charge> {
        let mut evicted = Vec::new();
        let id = {
            let mut inner = lock(&self.inner);
            if inner.limit.is_some_and(|l| bytes > l) {
                inner.refused += 1;
                return None;
            }
            let id = inner.next_id;
            inner.next_id += 1;
            let used = inner.tick();
            inner.entries.push(Entry {
                id,
                cache,
                bytes,
                used,
                evict: Box::new(evict),
            });
            inner.used += bytes;
            while let Some(limit) = inner.limit
                && inner.used > limit
            {
                // The least recently used, other than the newcomer (which fits alone).
                let Some(i) = inner
                    .entries
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.id != id)
                    .min_by_key(|(_, e)| e.used)
                    .map(|(i, _)| i)
                else {
                    break;
                };
                let e = inner.entries.swap_remove(i);
                inner.used -= e.bytes;
                inner.evicted += 1;
                evicted.push(e.evict);
            }
            id
        };
        for evict in evicted {
            evict();
        }
        Some(Charge {
            inner: Arc::downgrade(&self.inner),
            id,
        })
    }

    /// The state now.
    pub fn stats(&self) -> BudgetStats {
        let inner = lock(&self.inner);
        let mut caches: Vec<(String, u64)> = Vec::new();
        for e in &inner.entries {
            match caches.iter_mut().find(|(c, _)| c == e.cache) {
                Some((_, b)) => *b += e.bytes,
                None => caches.push((e.cache.to_string(), e.bytes)),
            }
        }
        caches.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        BudgetStats {
            limit_bytes: inner.limit,
            used_bytes: inner.used,
            entries: inner.entries.len(),
            caches,
            evicted: inner.evicted,
            refused: inner.refused,
        }
    }
}

impl fmt::Debug for MemoryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.stats();
        f.debug_struct("MemoryBudget")
            .field("limit_bytes", &s.limit_bytes)
            .field("used_bytes", &s.used_bytes)
            .finish_non_exhaustive()
    }
}

/// One kept thing's share of a [`MemoryBudget`], held by its cache beside it. Dropping it gives the bytes back.
pub struct Charge {
    inner: Weak<Mutex<Inner>>,
    id: u64,
}

impl Charge {
    /// Mark the thing used now (the last to be evicted).
    pub fn touch(&self) {
        if let Some(inner) = self.inner.upgrade() {
            let mut inner = lock(&inner);
            let now = inner.tick();
            if let Some(e) = inner.entries.iter_mut().find(|e| e.id == self.id) {
                e.used = now;
            }
        }
    }

    /// Whether the budget evicted the thing already (a cache that charged before storing it checks this once
    /// it has stored it, since the eviction may have come in between).
    pub fn is_evicted(&self) -> bool {
        self.inner
            .upgrade()
            .is_none_or(|inner| !lock(&inner).entries.iter().any(|e| e.id == self.id))
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.upgrade() {
            let mut inner = lock(&inner);
            if let Some(i) = inner.entries.iter().position(|e| e.id == self.id) {
                let e = inner.entries.swap_remove(i);
                inner.used -= e.bytes;
            }
        }
    }
}

impl fmt::Debug for Charge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Charge").field("id", &self.id).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A cache of named things of given sizes, over a budget.
    #[derive(Clone, Default)]
    struct Cache(Arc<Mutex<HashMap<&'static str, Charge>>>);

    impl Cache {
        fn keep(&self, budget: &MemoryBudget, name: &'static str, bytes: u64) -> bool {
            let weak = Arc::downgrade(&self.0);
            let Some(charge) = budget.charge("test", bytes, move || {
                if let Some(map) = weak.upgrade() {
                    map.lock().unwrap().remove(name);
                }
            }) else {
                return false;
            };
            self.0.lock().unwrap().insert(name, charge);
            true
        }

        fn use_(&self, name: &str) -> bool {
            self.0
                .lock()
                .unwrap()
                .get(name)
                .map(Charge::touch)
                .is_some()
        }

        fn has(&self, name: &str) -> bool {
            self.0.lock().unwrap().contains_key(name)
        }
    }

    #[test]
    fn the_least_recently_used_go_first_and_the_total_stays_within_the_limit() {
        let budget = MemoryBudget::new(100);
        let (a, b) = (Cache::default(), Cache::default());
        assert!(a.keep(&budget, "a1", 40));
        assert!(b.keep(&budget, "b1", 40));
        assert!(a.use_("a1"));
        // 40 + 40 + 30 > 100: b1, used less recently than a1, goes, from the other cache.
        assert!(a.keep(&budget, "a2", 30));
        assert!(a.has("a1") && a.has("a2") && !b.has("b1"));
        let s = budget.stats();
        assert_eq!((s.used_bytes, s.entries, s.evicted), (70, 2, 1));
        // Larger than the whole budget: not kept, and nothing is evicted for it.
        assert!(!b.keep(&budget, "huge", 101));
        assert_eq!(budget.stats().refused, 1);
        assert!(a.has("a1") && a.has("a2"));
        // Exactly the budget: everything else goes.
        assert!(b.keep(&budget, "b2", 100));
        assert!(!a.has("a1") && !a.has("a2") && b.has("b2"));
        assert_eq!(budget.stats().used_bytes, 100);
        // A thing let go by its cache gives its bytes back.
        b.0.lock().unwrap().clear();
        assert_eq!(budget.stats().used_bytes, 0);
        assert_eq!(budget.stats().entries, 0);
    }

    #[test]
    fn unlimited_keeps_everything() {
        let budget = MemoryBudget::unlimited();
        let c = Cache::default();
        for name in ["x", "y", "z"] {
            assert!(c.keep(&budget, name, 1 << 40));
        }
        assert_eq!(budget.stats().used_bytes, 3 << 40);
        assert_eq!(budget.stats().evicted, 0);
    }
}
