//! Records between processes: byte-packed with the counters they use, and checked when unpacked.

use std::sync::Arc;

use crate::counter::{Counter, SrcIndex};
use crate::level::{Layout, Pool, Rec, TableKey};

/// Records received from one worker: its counters, and the records of each partition.
pub(super) type Received<K, D> = (Arc<Vec<[D; 2]>>, Vec<Vec<Rec<K, <D as Counter>::Src>>>);

/// The buffers sent to a worker of the same process.
pub(super) struct LocalBody<K, D: Counter> {
    pub(super) srcs: Arc<Vec<[D; 2]>>,
    pub(super) recs: Vec<Vec<Rec<K, D::Src>>>,
}

/// Byte-pack the records of partitions `recs` for a worker of another process, with the counters they use
/// (renumbered).
pub(super) fn encode<K: TableKey, D: Counter>(
    recs: &[Vec<Rec<K, D::Src>>],
    srcs: &[[D; 2]],
    remap: &mut Vec<u32>,
) -> Vec<u8> {
    let kb = std::mem::size_of::<K>();
    let cb = std::mem::size_of::<D>();
    let n: usize = recs.iter().map(Vec::len).sum();
    remap.clear();
    remap.resize(srcs.len(), u32::MAX);
    let mut used: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(10 + recs.len() * 4 + n * (kb + 4) + n / 2 * cb * 2);
    out.push(kb as u8);
    out.push(cb as u8);
    out.extend_from_slice(&(recs.len() as u32).to_le_bytes());
    for part in recs {
        out.extend_from_slice(&(part.len() as u32).to_le_bytes());
        for r in part {
            let s = r.src.get() as usize;
            let i = match remap.get(s) {
                Some(&i) if i != u32::MAX => i,
                _ => {
                    let i = used.len() as u32;
                    used.push(r.src.get());
                    if let Some(m) = remap.get_mut(s) {
                        *m = i;
                    }
                    i
                }
            };
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

/// Read bytes packed by [`encode`]: the records of each partition, and their counters.
#[allow(clippy::type_complexity)]
pub(super) fn decode<K: TableKey, D: Counter>(
    bytes: &[u8],
    (layout, first, parts): (&Layout, usize, usize),
    pool: &Pool<K, D>,
) -> Result<(Vec<[D; 2]>, Vec<Vec<Rec<K, D::Src>>>), String> {
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
    let mut recs = Vec::with_capacity(np);
    for i in 0..np {
        let n = u32_at(take(4)?) as usize;
        let raw = take(n * (kb + 4))?;
        let mut v = pool.take_buf(n);
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
            v.push(Rec {
                key,
                src: D::Src::new(u32_at(&r[kb..])),
            });
        }
        recs.push(v);
    }
    let ns = u32_at(take(4)?) as usize;
    let raw = take(ns * 2 * cb)?;
    let mut srcs = pool.take_srcs(ns);
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
    if counted && recs.iter().flatten().any(|r| r.src.get() as usize >= ns) {
        return Err("a parcel's record refers to counters it does not have".to_string());
    }
    if at != bytes.len() {
        return Err("a parcel has bytes after its end".to_string());
    }
    Ok((srcs, recs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of two partitions packed for another worker, unpacked: the same records; with a key
    /// changed to one outside its partition (or the empty key), refused with a message, not added.
    fn parcel_keys_are_checked<K: TableKey>() {
        let layout = Layout::for_size(33, 100_000, 4000, 8);
        let pool: Pool<K, u64> = Pool::new();
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
        let bytes = encode::<K, u64>(&recs, &srcs, &mut Vec::new());
        let (_, got) = decode::<K, u64>(&bytes, (&layout, first, 2), &pool).unwrap();
        assert_eq!(got, recs);
        // The first record's key: after the 2 bytes of widths, the partition count and the first
        // partition's record count.
        let kb = std::mem::size_of::<K>();
        for bad in [0u64, u64::MAX >> (64 - 8 * kb as u32)] {
            let mut b = bytes.clone();
            b[10..10 + kb].copy_from_slice(&bad.to_le_bytes()[..kb]);
            let e = decode::<K, u64>(&b, (&layout, first, 2), &pool).unwrap_err();
            assert!(e.contains("partition 5 has a key outside it"), "{e}");
        }
        // Whole mixed keys name their partition: the same bytes read as other partitions are refused.
        if kb == 8 {
            assert!(decode::<K, u64>(&bytes, (&layout, first + 1, 2), &pool).is_err());
        }
    }

    #[test]
    fn parcels_with_keys_outside_their_partitions_are_refused() {
        parcel_keys_are_checked::<u32>();
        parcel_keys_are_checked::<u64>();
    }
}
