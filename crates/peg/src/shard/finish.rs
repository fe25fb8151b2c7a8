//! The positions that can still finish, counted over the workers' shares (the hooks of a run).

use std::sync::Arc;

use super::error::ShardError;
use super::run::LevelHook;
use super::share::{AnyShare, ShareLevel};
use super::wire::{Body, NoteBody, Parcel, Transport};
use super::worker::Sh;
use crate::counter::{Counter, NoCount};
use crate::kernel::Kernel;
use crate::level::{Layout, Mixer};

/// Keeps every level, keys only (the levels of a finish table).
pub(super) struct Keep {
    pub(super) levels: Vec<Option<ShareLevel<NoCount>>>,
}

impl LevelHook<NoCount> for Keep {
    fn level<T: Transport + ?Sized>(
        &mut self,
        _: &Sh<'_>,
        _: &mut T,
        pegs: u32,
        level: &AnyShare<NoCount>,
    ) -> Result<(), ShardError> {
        let p = pegs as usize;
        if self.levels.len() <= p {
            self.levels.resize_with(p + 1, || None);
        }
        self.levels[p] = Some(level.keys_only());
        Ok(())
    }
    fn bytes(&self) -> u64 {
        self.levels.iter().flatten().map(ShareLevel::bytes).sum()
    }
    fn end(&mut self) {}
}

/// How the positions that can still finish are counted (see [`count`]).
pub(super) enum FinishPlan {
    /// Not at all (no finish hole, or only some levels).
    None,
    /// None can: the finish is in another position class than the start.
    Zero,
    /// From the complements of the partner levels: the keys of the levels waiting for their partner.
    SelfDual {
        kept: Vec<Option<ShareLevel<NoCount>>>,
        full: u64,
        found: Vec<(u32, u64, u64)>,
    },
    /// From the finish table (this worker's share of each of its levels, normalized with the symmetries
    /// fixing both start and finish, `tk`'s group; `same` when that is the whole group of the count).
    Table {
        levels: Vec<Option<ShareLevel<NoCount>>>,
        same: bool,
        tk: Box<Kernel>,
        found: Vec<(u32, u64, u64)>,
    },
}

impl FinishPlan {
    /// (pegs, positions, classes) per level, when finishable positions are counted.
    pub(super) fn found(&self) -> Option<&[(u32, u64, u64)]> {
        match self {
            FinishPlan::None => None,
            FinishPlan::Zero => Some(&[]),
            FinishPlan::SelfDual { found, .. } | FinishPlan::Table { found, .. } => Some(found),
        }
    }
}

impl<N: Counter> LevelHook<N> for FinishPlan {
    fn level<T: Transport + ?Sized>(
        &mut self,
        sh: &Sh<'_>,
        net: &mut T,
        pegs: u32,
        level: &AnyShare<N>,
    ) -> Result<(), ShardError> {
        match self {
            FinishPlan::None | FinishPlan::Zero => Ok(()),
            FinishPlan::SelfDual { kept, full, found } => {
                let partner = sh.k.holes as u32 - pegs;
                if pegs > partner {
                    let p = pegs as usize;
                    if kept.len() <= p {
                        kept.resize_with(p + 1, || None);
                    }
                    kept[p] = Some(level.keys_only());
                    return Ok(());
                }
                let dual_mixer = Mixer::new(sh.k.holes as u32);
                let complement =
                    |h: u64| crate::finishable::complement(sh.k, &dual_mixer, *full, h);
                let own = pegs == partner;
                let there = kept.get_mut(partner as usize).and_then(Option::take);
                // The complements of the partner level, each sent to its owner in this level.
                let comps: Vec<(u64, u64)> = match (&there, own) {
                    (_, true) => level.keys().map(|h| (complement(h), 0)).collect(),
                    (Some(t), false) => t.keys().map(|h| (complement(h), 0)).collect(),
                    (None, false) => Vec::new(),
                };
                let got = route(sh, net, &level.layout(), comps)?;
                let mine = merge_count(level.keys(), &got, |h, _| {
                    sh.k.class_size(sh.mixer.unmix(h))
                });
                let (a, c) = sum_found(sh, net, mine)?;
                found.push((pegs, a, c));
                if !own {
                    // Complementing is a bijection between the two sets matched (and keeps class sizes).
                    found.push((partner, a, c));
                }
                Ok(())
            }
            FinishPlan::Table {
                levels,
                same,
                tk,
                found,
            } => {
                let set = levels.get_mut(pegs as usize).and_then(Option::take);
                let mine = if *same {
                    // This level's keys, each sent to its owner in the table's level (same normal forms).
                    match &set {
                        Some(t) => {
                            let got =
                                route(sh, net, &t.layout, level.keys().map(|h| (h, 0)).collect())?;
                            merge_count(t.keys(), &got, |h, _| sh.k.class_size(sh.mixer.unmix(h)))
                        }
                        None => {
                            // Every worker has no share of a level the table does not reach.
                            (0, 0)
                        }
                    }
                } else {
                    // The table's classes, turned into this level's normal forms (with their sizes under the
                    // table's group), each sent to its owner in this level.
                    let items: Vec<(u64, u64)> = set
                        .as_ref()
                        .map(|t| {
                            t.keys()
                                .map(|y| {
                                    let pos = sh.mixer.unmix(y);
                                    (sh.mixer.mix(sh.k.normalize(pos).0), tk.class_size(pos))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let got = route(sh, net, &level.layout(), items)?;
                    merge_count(level.keys(), &got, |_, sizes| sizes)
                };
                let (a, c) = sum_found(sh, net, mine)?;
                found.push((pegs, a, c));
                Ok(())
            }
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            FinishPlan::SelfDual { kept, .. } => kept.iter().flatten().map(ShareLevel::bytes).sum(),
            FinishPlan::Table { levels, .. } => {
                levels.iter().flatten().map(ShareLevel::bytes).sum()
            }
            _ => 0,
        }
    }

    fn end(&mut self) {
        if let FinishPlan::SelfDual { kept, found, .. } = self {
            // Levels whose partner never came (the enumeration ended before it): none of their positions
            // can finish.
            for (pegs, l) in kept.iter_mut().enumerate() {
                if l.take().is_some() {
                    found.push((pegs as u32, 0, 0));
                }
            }
        }
    }
}

/// Every worker's (positions, classes), summed.
fn sum_found<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    mine: (u64, u64),
) -> Result<(u64, u64), ShardError> {
    let notes = sh.gather(
        net,
        NoteBody::Found {
            positions: mine.0,
            classes: mine.1,
        },
    )?;
    Ok(notes.iter().fold((0, 0), |acc, n| match n {
        NoteBody::Found { positions, classes } => (acc.0 + positions, acc.1 + classes),
        _ => acc,
    }))
}

/// Of `keys` (increasing), those among `items` (sorted by key): (sum of `size(key, summed payloads)`, number
/// of keys found).
fn merge_count(
    keys: impl Iterator<Item = u64>,
    items: &[(u64, u64)],
    size: impl Fn(u64, u64) -> u64,
) -> (u64, u64) {
    let (mut all, mut classes) = (0u64, 0u64);
    let mut i = 0;
    for h in keys {
        while i < items.len() && items[i].0 < h {
            i += 1;
        }
        let mut sum = 0u64;
        let mut hit = false;
        while i < items.len() && items[i].0 == h {
            sum += items[i].1;
            hit = true;
            i += 1;
        }
        if hit {
            all += size(h, sum);
            classes += 1;
        }
    }
    (all, classes)
}

/// Keys sent between workers of one process.
struct LocalKeys(Vec<(u64, u64)>);

/// Send each (mixed key, payload) to the worker that owns the key in `layout`; the items this worker
/// received, sorted by key.
fn route<T: Transport + ?Sized>(
    sh: &Sh<'_>,
    net: &mut T,
    layout: &Layout,
    items: Vec<(u64, u64)>,
) -> Result<Vec<(u64, u64)>, ShardError> {
    let owners = sh.owners(layout);
    let workers = sh.workers();
    let mut to: Vec<Vec<(u64, u64)>> = vec![Vec::new(); workers];
    for it in items {
        to[owners[layout.part(it.0)] as usize].push(it);
    }
    let me = sh.process();
    let parcels = to
        .into_iter()
        .enumerate()
        .map(|(d, v)| Parcel {
            to: d as u32,
            from: sh.me as u32,
            flags: 0,
            body: if v.is_empty() {
                Body::Empty
            } else if sh.opts.shape.process_of(d) != me {
                let mut b = Vec::with_capacity(8 + v.len() * 16);
                b.extend_from_slice(&(v.len() as u64).to_le_bytes());
                for (k, p) in &v {
                    b.extend_from_slice(&k.to_le_bytes());
                    b.extend_from_slice(&p.to_le_bytes());
                }
                Body::Wire(b)
            } else {
                Body::Local(Arc::new(LocalKeys(v)))
            },
        })
        .collect();
    let got = net.exchange(parcels)?;
    let mut out = Vec::new();
    for p in got {
        match p.body {
            Body::Empty => {}
            Body::Local(a) => {
                let v = a.downcast::<LocalKeys>().map_err(|_| {
                    ShardError::Protocol(format!("worker {} sent keys of another kind", p.from))
                })?;
                out.extend_from_slice(&v.0);
            }
            Body::Wire(b) => {
                let bad =
                    || ShardError::Protocol(format!("worker {} sent a damaged key list", p.from));
                let word = |i: usize| -> Result<u64, ShardError> {
                    let mut a = [0u8; 8];
                    a.copy_from_slice(b.get(i..i + 8).ok_or_else(bad)?);
                    Ok(u64::from_le_bytes(a))
                };
                let n = word(0)? as usize;
                if b.len() != 8 + n * 16 {
                    return Err(bad());
                }
                for j in 0..n {
                    out.push((word(8 + 16 * j)?, word(16 + 16 * j)?));
                }
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}
