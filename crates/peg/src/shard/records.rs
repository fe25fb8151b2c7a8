//! Records between processes: byte-packed with the counters they use, and checked when unpacked.

use std::sync::Arc;

use crate::counter::{Counter, SrcIndex};
use crate::level::{Layout, Rec, TableKey};

/// Records received from one worker: its counters, and the records of each partition.
pub(super) type Received<K, D> = (Arc<Vec<[D; 2]>>, PartRecs<K, <D as Counter>::Src>);

/// Bytes a parcel of records for another process is cut to, at most (about: the cut is by source, and the
/// sources' records vary). timely's buffers between processes hold a message whole and grow to the next power
/// of two of the biggest one they have carried, for good: parcels of a round's records (several MB) kept
/// several such buffers per process (about 64 MiB on the French board), where parcels of this size stay
/// within their first megabyte.
pub(super) const WIRE_PARCEL_BYTES: usize = 256 << 10;

/// The buffers sent to a worker of the same process.
pub(super) struct LocalBody<K, D: Counter> {
    pub(super) srcs: Arc<Vec<[D; 2]>>,
    pub(super) recs: Vec<Vec<Rec<K, D::Src>>>,
}

/// The records of each partition of a parcel: the buffers of a worker of this process, as it wrote them, or
/// one buffer with the partitions one after another, unpacked from another process's bytes.
#[derive(Debug)]
pub(super) enum PartRecs<K, S> {
    Bufs(Vec<Vec<Rec<K, S>>>),
    Packed {
        recs: Vec<Rec<K, S>>,
        /// Where each partition's records end in `recs`.
        ends: Vec<usize>,
    },
}

impl<K, S> PartRecs<K, S> {
    /// Number of partitions.
    #[cfg(test)]
    pub(super) fn parts(&self) -> usize {
        match self {
            PartRecs::Bufs(b) => b.len(),
            PartRecs::Packed { ends, .. } => ends.len(),
        }
    }

    /// The records of partition `i`.
    pub(super) fn part(&self, i: usize) -> &[Rec<K, S>] {
        match self {
            PartRecs::Bufs(b) => &b[i],
            PartRecs::Packed { recs, ends } => {
                let from = if i == 0 { 0 } else { ends[i - 1] };
                &recs[from..ends[i]]
            }
        }
    }

    /// Number of records.
    pub(super) fn records(&self) -> usize {
        match self {
            PartRecs::Bufs(b) => b.iter().map(Vec::len).sum(),
            PartRecs::Packed { recs, .. } => recs.len(),
        }
    }
}

/// Byte-pack the records of partitions `recs` for a worker of another process, with the counters they use
/// (renumbered), in parcels of about `budget` bytes at most: each parcel holds the records of every partition
/// whose sources are in one range (a partition's records are in the order of their sources), so that a
/// source's counters are sent once, with all of its records.
pub(super) fn encode_parcels<K: TableKey, D: Counter>(
    recs: &[Vec<Rec<K, D::Src>>],
    srcs: &[[D; 2]],
    remap: &mut Vec<u32>,
    budget: usize,
) -> Vec<Vec<u8>> {
    let kb = std::mem::size_of::<K>();
    let cb = std::mem::size_of::<D>();
    let n: usize = recs.iter().map(Vec::len).sum();
    let bytes = 10 + recs.len() * 4 + n * (kb + 4) + n.min(srcs.len()) * 2 * cb;
    let cuts = bytes.div_ceil(budget.max(1)).max(1);
    if cuts == 1 {
        let all: Vec<&[Rec<K, D::Src>]> = recs.iter().map(Vec::as_slice).collect();
        return vec![encode(&all, srcs, remap)];
    }
    // Records without counters carry no source: they are cut by position instead.
    let counted = std::mem::size_of::<D::Src>() > 0;
    let mut at = vec![0usize; recs.len()];
    let mut out = Vec::with_capacity(cuts);
    for c in 1..=cuts {
        let bound = (srcs.len() * c / cuts) as u64;
        let slices: Vec<&[Rec<K, D::Src>]> = recs
            .iter()
            .zip(&mut at)
            .map(|(r, from)| {
                let end = if c == cuts {
                    r.len()
                } else if counted {
                    *from + r[*from..].partition_point(|x| u64::from(x.src.get()) < bound)
                } else {
                    r.len() * c / cuts
                };
                let s = &r[*from..end.max(*from)];
                *from = end.max(*from);
                s
            })
            .collect();
        out.push(encode(&slices, srcs, remap));
    }
    out
}

/// Byte-pack the records of partitions `recs` for a worker of another process, with the counters they use
/// (renumbered).
pub(super) fn encode<K: TableKey, D: Counter>(
    recs: &[&[Rec<K, D::Src>]],
    srcs: &[[D; 2]],
    remap: &mut Vec<u32>,
) -> Vec<u8> {
    let kb = std::mem::size_of::<K>();
    let cb = std::mem::size_of::<D>();
    let n: usize = recs.iter().map(|r| r.len()).sum();
    // The counters used, numbered in the order of their first record (first, so that the bytes are
    // allocated once, to their exact size: the parcels of a round are all held at once).
    remap.clear();
    remap.resize(srcs.len(), u32::MAX);
    let mut used: Vec<u32> = Vec::new();
    for r in recs.iter().copied().flatten() {
        let s = r.src.get();
        if let Some(m) = remap.get_mut(s as usize)
            && *m == u32::MAX
        {
            *m = used.len() as u32;
            used.push(s);
        }
    }
    let mut out = Vec::with_capacity(10 + recs.len() * 4 + n * (kb + 4) + used.len() * cb * 2);
    out.push(kb as u8);
    out.push(cb as u8);
    out.extend_from_slice(&(recs.len() as u32).to_le_bytes());
    for part in recs {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        for r in *part {
            let i = remap.get(r.src.get() as usize).copied().unwrap_or(0);
            out.extend_from_slice(&r.key.bits().to_le_bytes()[..kb]);
            out.extend_from_slice(&i.to_le_bytes());
        }
    }
    out.extend_from_slice(&(used.len() as u32).to_le_bytes());
    for &s in &used {
        let c = srcs.get(s as usize).copied().unwrap_or_default();
        out.extend_from_slice(&c[0].to_u128().to_le_bytes()[..cb]);
        out.extend_from_slice(&c[1].to_u128().to_le_bytes()[..cb]);
    }
    out
}

/// Read bytes packed by [`encode`]: the records of each partition (one after another, in one buffer), and
/// their counters.
#[allow(clippy::type_complexity)]
pub(super) fn decode<K: TableKey, D: Counter>(
    bytes: &[u8],
    (layout, first, parts): (&Layout, usize, usize),
) -> Result<(Vec<[D; 2]>, PartRecs<K, D::Src>), String> {
    let kb = std::mem::size_of::<K>();
    let cb = std::mem::size_of::<D>();
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let s = bytes
            .get(at..at + n)
            .ok_or_else(|| "a parcel ended early".to_string())?;
        at += n;
        Ok(s)
    };
    let head = take(2)?;
    if usize::from(head[0]) != kb || usize::from(head[1]) != cb {
        return Err(
            "a parcel's records are of another kind (workers of different versions?)".into(),
        );
    }
    let u32_at = |s: &[u8]| -> u32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&s[..4]);
        u32::from_le_bytes(b)
    };
    let np = u32_at(take(4)?) as usize;
    if np != parts {
        return Err(format!(
            "a parcel has records of {np} partitions where {parts} were expected"
        ));
    }
    // The records in all (each count read ahead, past the records it counts): the buffer is made for them.
    let mut total = 0usize;
    let mut ahead = 6usize;
    for _ in 0..np {
        let n = bytes
            .get(ahead..ahead + 4)
            .map(u32_at)
            .ok_or_else(|| "a parcel ended early".to_string())? as usize;
        ahead += 4 + n * (kb + 4);
        total += n;
    }
    if ahead > bytes.len() {
        return Err("a parcel ended early".to_string());
    }
    let mut recs = Vec::with_capacity(total);
    let mut ends = Vec::with_capacity(np);
    for i in 0..np {
        let n = u32_at(take(4)?) as usize;
        let raw = take(n * (kb + 4))?;
        for r in raw.chunks_exact(kb + 4) {
            let mut kbuf = [0u8; 8];
            kbuf[..kb].copy_from_slice(&r[..kb]);
            let key = K::from_bits(u64::from_le_bytes(kbuf));
            if !key.valid(layout, first + i) {
                return Err(format!(
                    "a parcel's record for partition {} has a key outside it",
                    first + i
                ));
            }
            recs.push(Rec {
                key,
                src: D::Src::new(u32_at(&r[kb..])),
            });
        }
        ends.push(recs.len());
    }
    let ns = u32_at(take(4)?) as usize;
    let raw = take(ns * 2 * cb)?;
    let mut srcs = Vec::with_capacity(ns);
    let counter = |s: &[u8]| -> Result<D, String> {
        let mut b = [0u8; 16];
        b[..cb].copy_from_slice(s);
        D::from_u128(u128::from_le_bytes(b))
            .ok_or_else(|| "a parcel's counter is too big".to_string())
    };
    if cb == 0 {
        srcs.resize(ns, [D::default(); 2]);
    } else {
        for c in raw.chunks_exact(2 * cb) {
            srcs.push([counter(&c[..cb])?, counter(&c[cb..])?]);
        }
    }
    // (Records without counters carry no index: they refer to nothing.)
    let counted = std::mem::size_of::<D::Src>() > 0;
    if counted && recs.iter().any(|r| r.src.get() as usize >= ns) {
        return Err("a parcel's record refers to counters it does not have".to_string());
    }
    if at != bytes.len() {
        return Err("a parcel has bytes after its end".to_string());
    }
    Ok((srcs, PartRecs::Packed { recs, ends }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::NoCount;

    /// The records of each partition of a parcel, as vectors.
    fn parts<K: Copy, S: Copy>(r: &PartRecs<K, S>) -> Vec<Vec<Rec<K, S>>> {
        (0..r.parts()).map(|i| r.part(i).to_vec()).collect()
    }

    /// Records of two partitions packed for another worker, unpacked: the same records; with a key
    /// changed to one outside its partition (or the empty key), refused with a message, not added.
    fn parcel_keys_are_checked<K: TableKey>() {
        let layout = Layout::for_size(33, 100_000, 4000, 8);
        let first = 5;
        let recs: Vec<Vec<Rec<K>>> = (first..first + 2)
            .map(|q| {
                (1..4u64)
                    .map(|j| Rec {
                        key: K::store(layout.base(q) + j * 1000, &layout),
                        src: j as u32 - 1,
                    })
                    .collect()
            })
            .collect();
        let srcs = vec![[1u64, 1], [2, 2], [3, 3]];
        let all: Vec<&[Rec<K>]> = recs.iter().map(Vec::as_slice).collect();
        let bytes = encode::<K, u64>(&all, &srcs, &mut Vec::new());
        let (_, got) = decode::<K, u64>(&bytes, (&layout, first, 2)).unwrap();
        assert_eq!(parts(&got), recs);
        // The first record's key: after the 2 bytes of widths, the partition count and the first
        // partition's record count.
        let kb = std::mem::size_of::<K>();
        for bad in [0u64, u64::MAX >> (64 - 8 * kb as u32)] {
            let mut b = bytes.clone();
            b[10..10 + kb].copy_from_slice(&bad.to_le_bytes()[..kb]);
            let e = decode::<K, u64>(&b, (&layout, first, 2)).unwrap_err();
            assert!(e.contains("partition 5 has a key outside it"), "{e}");
        }
        // Whole mixed keys name their partition: the same bytes read as other partitions are refused.
        if kb == 8 {
            assert!(decode::<K, u64>(&bytes, (&layout, first + 1, 2)).is_err());
        }
        // A count of records beyond the bytes: refused, without asking for memory for it.
        let mut b = bytes.clone();
        b[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = decode::<K, u64>(&b, (&layout, first, 2)).unwrap_err();
        assert!(e.contains("ended early"), "{e}");
    }

    #[test]
    fn parcels_with_keys_outside_their_partitions_are_refused() {
        parcel_keys_are_checked::<u32>();
        parcel_keys_are_checked::<u64>();
    }

    /// A round's records for another process (several partitions, each in the order of its sources, as the
    /// expansion writes them), cut into parcels of a small budget: unpacked, every record arrives once with
    /// its own counters, each parcel is within the budget but for a few records, and each source's counters
    /// are sent once (the cut is by source). Records without counters are cut by position.
    #[test]
    fn parcels_are_cut_by_source_and_lose_nothing() {
        let layout = Layout::for_size(33, 1 << 20, 4000, 8);
        let first = 3;
        let nparts = 7;
        let nsrcs = 5_000u32;
        // Source s has successors in a few partitions, as an expansion gives them.
        let mut recs: Vec<Vec<Rec<u32>>> = vec![Vec::new(); nparts];
        let mut x = 12345u64;
        for s in 0..nsrcs {
            for _ in 0..(s % 5) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let q = (x >> 40) as usize % nparts;
                let key = u32::store(layout.base(first + q) + 1 + (x >> 50), &layout);
                recs[q].push(Rec { key, src: s });
            }
        }
        let srcs: Vec<[u64; 2]> = (0..u64::from(nsrcs)).map(|s| [s + 1, 2 * s + 1]).collect();
        let n: usize = recs.iter().map(Vec::len).sum();
        let budget = 4096;
        let parcels = encode_parcels::<u32, u64>(&recs, &srcs, &mut Vec::new(), budget);
        assert!(parcels.len() >= n * 8 / budget, "{} parcels", parcels.len());
        let mut got: Vec<Vec<(u32, [u64; 2])>> = vec![Vec::new(); nparts];
        let mut counters_sent = 0;
        for bytes in &parcels {
            assert!(bytes.len() <= budget + budget / 2, "{} bytes", bytes.len());
            let (s, r) = decode::<u32, u64>(bytes, (&layout, first, nparts)).unwrap();
            counters_sent += s.len();
            for (q, part) in parts(&r).into_iter().enumerate() {
                got[q].extend(part.iter().map(|r| (r.key, s[r.src as usize])));
            }
        }
        let want: Vec<Vec<(u32, [u64; 2])>> = recs
            .iter()
            .map(|p| p.iter().map(|r| (r.key, srcs[r.src as usize])).collect())
            .collect();
        assert_eq!(got, want);
        let distinct = (0..nsrcs).filter(|s| s % 5 != 0).count();
        assert_eq!(counters_sent, distinct);
        // Without counters: every key once, in order.
        let keys: Vec<Vec<Rec<u32, ()>>> = recs
            .iter()
            .map(|p| {
                p.iter()
                    .map(|r| Rec {
                        key: r.key,
                        src: (),
                    })
                    .collect()
            })
            .collect();
        let parcels = encode_parcels::<u32, NoCount>(&keys, &[], &mut Vec::new(), budget);
        assert!(parcels.len() > 1);
        let mut got: Vec<Vec<Rec<u32, ()>>> = vec![Vec::new(); nparts];
        for bytes in &parcels {
            let (_, r) = decode::<u32, NoCount>(bytes, (&layout, first, nparts)).unwrap();
            for (q, part) in parts(&r).into_iter().enumerate() {
                got[q].extend(part);
            }
        }
        assert_eq!(got, keys);
    }
}
