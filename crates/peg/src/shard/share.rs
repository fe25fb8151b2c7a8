//! A worker's share of a level: its partitions, frozen, as they are written to and read from a checkpoint.

use std::io::{Read, Write};

use super::checkpoint::ShareData;
use super::worker::Sh;
use crate::counter::{Counter, NoCount};
use crate::level::{Layout, Part, Pool, TableKey};
use crate::step::Source;

/// One worker's share of a level: partitions `first..first + parts.len()` of `layout`.
pub(super) struct ShareLevel<C> {
    pub(super) layout: Layout,
    pub(super) first: usize,
    pub(super) parts: Vec<Part<C>>,
}

impl<C: Counter> ShareLevel<C> {
    pub(super) fn len(&self) -> usize {
        self.parts.iter().map(Part::len).sum()
    }

    pub(super) fn bytes(&self) -> u64 {
        self.parts.iter().map(Part::bytes).sum::<u64>()
            + (self.parts.capacity() * std::mem::size_of::<Part<C>>()) as u64
    }

    /// The share as the source of a level step.
    pub(super) fn source<K: TableKey>(&self) -> Source<'_, K, C> {
        Source::Parts {
            layout: self.layout,
            first: self.first,
            parts: &self.parts,
        }
    }

    /// The share of the first level: the starts' classes, each on the worker that owns its key.
    pub(super) fn start(sh: &Sh<'_>, layout: Layout) -> ShareLevel<C> {
        let one = C::from_u128(1).unwrap_or_default();
        let mut slots: Vec<crate::level::Slot<C>> = sh
            .starts
            .iter()
            .map(|&s| crate::level::Slot {
                h: sh.mixer.mix(sh.k.normalize(s).0),
                full: one,
                norm: one,
            })
            .collect();
        slots.sort_unstable_by_key(|e| e.h);
        slots.dedup_by_key(|e| e.h);
        let (lo, hi) = sh.owned(&layout, sh.me);
        let parts = (lo..hi)
            .map(|q| {
                let mine: Vec<_> = slots
                    .iter()
                    .filter(|e| layout.part(e.h) == q)
                    .copied()
                    .collect();
                Part::encode(&mine, &layout)
            })
            .collect();
        ShareLevel {
            layout,
            first: lo,
            parts,
        }
    }

    /// The mixed keys, in increasing order.
    pub(super) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.parts.iter().enumerate().flat_map(|(i, p)| {
            p.reader(self.layout.base(self.first + i), 0, p.blocks())
                .map(|e| e.0)
        })
    }

    /// The same share without counters.
    fn keys_only(&self) -> ShareLevel<NoCount> {
        let parts = self
            .parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let base = self.layout.base(self.first + i);
                let keys: Vec<u64> = p.reader(base, 0, p.blocks()).map(|e| e.0 - base).collect();
                Part::encode_by(keys.len(), |j| (keys[j], NoCount, NoCount))
            })
            .collect();
        ShareLevel {
            layout: self.layout,
            first: self.first,
            parts,
        }
    }

    /// Write the share: a header, then each partition.
    fn write(&self, wide: bool, w: &mut dyn Write) -> std::io::Result<()> {
        w.write_all(SHARE_MAGIC)?;
        w.write_all(&[u8::from(wide), std::mem::size_of::<C>() as u8])?;
        w.write_all(&self.layout.bits().to_le_bytes())?;
        w.write_all(&self.layout.pbits().to_le_bytes())?;
        w.write_all(&(self.first as u64).to_le_bytes())?;
        w.write_all(&(self.parts.len() as u64).to_le_bytes())?;
        for p in &self.parts {
            p.write_to(w)?;
        }
        Ok(())
    }

    /// Read a share written by [`ShareLevel::write`] for worker `me` (checking that it is its share).
    fn read(sh: &Sh<'_>, r: &mut dyn Read) -> Result<(bool, ShareLevel<C>), String> {
        let io = |e: std::io::Error| format!("the share cannot be read: {e}");
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(io)?;
        if &magic != SHARE_MAGIC {
            return Err("the share file is not a boardlab level share".to_string());
        }
        let mut b2 = [0u8; 2];
        r.read_exact(&mut b2).map_err(io)?;
        let wide = b2[0] == 1;
        let mut b4 = [0u8; 4];
        r.read_exact(&mut b4).map_err(io)?;
        let bits = u32::from_le_bytes(b4);
        r.read_exact(&mut b4).map_err(io)?;
        let pbits = u32::from_le_bytes(b4);
        let mut b8 = [0u8; 8];
        r.read_exact(&mut b8).map_err(io)?;
        let first = u64::from_le_bytes(b8);
        r.read_exact(&mut b8).map_err(io)?;
        let n = u64::from_le_bytes(b8);
        let layout = Layout::from_pbits(bits, pbits)
            .filter(|_| bits == sh.bits())
            .ok_or_else(|| "the share is of another board".to_string())?;
        let (lo, hi) = sh.owned(&layout, sh.me);
        if first != lo as u64 || n != (hi - lo) as u64 {
            return Err(format!(
                "the share holds partitions {first}..{} of {}, but this worker owns {lo}..{hi} \
                 (a checkpoint of a run with another number of workers?)",
                first + n,
                layout.parts()
            ));
        }
        let expect = if wide { 16 } else { std::mem::size_of::<C>() };
        if usize::from(b2[1]) != expect {
            return Err("the share's counters are of another width".to_string());
        }
        let shift = bits - pbits;
        let parts = (lo..hi)
            .map(|_| Part::read_from(r, shift))
            .collect::<std::io::Result<Vec<Part<C>>>>()
            .map_err(|e| format!("the share is damaged: {e}"))?;
        Ok((
            wide,
            ShareLevel {
                layout,
                first: lo,
                parts,
            },
        ))
    }
}

const SHARE_MAGIC: &[u8; 8] = b"PEGSHR01";

/// A share of narrow or wide counters.
pub(super) enum AnyShare<N> {
    Narrow(ShareLevel<N>),
    Wide(ShareLevel<u128>),
}

impl<N: Counter> AnyShare<N> {
    pub(super) fn keys(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self {
            AnyShare::Narrow(s) => Box::new(s.keys()),
            AnyShare::Wide(s) => Box::new(s.keys()),
        }
    }
    pub(super) fn layout(&self) -> Layout {
        match self {
            AnyShare::Narrow(s) => s.layout,
            AnyShare::Wide(s) => s.layout,
        }
    }
    pub(super) fn keys_only(&self) -> ShareLevel<NoCount> {
        match self {
            AnyShare::Narrow(s) => s.keys_only(),
            AnyShare::Wide(s) => s.keys_only(),
        }
    }
    pub(super) fn len(&self) -> usize {
        match self {
            AnyShare::Narrow(s) => s.len(),
            AnyShare::Wide(s) => s.len(),
        }
    }
    pub(super) fn bytes(&self) -> u64 {
        match self {
            AnyShare::Narrow(s) => s.bytes(),
            AnyShare::Wide(s) => s.bytes(),
        }
    }
    pub(super) fn is_wide(&self) -> bool {
        matches!(self, AnyShare::Wide(_))
    }
}

impl<N: Counter> ShareData for AnyShare<N> {
    fn classes(&self) -> u64 {
        self.len() as u64
    }
    fn write_to(&self, w: &mut dyn Write) -> std::io::Result<()> {
        match self {
            AnyShare::Narrow(s) => s.write(false, w),
            AnyShare::Wide(s) => s.write(true, w),
        }
    }
}

/// Read a worker's share of a checkpoint.
pub(super) fn read_share<N: Counter>(
    sh: &Sh<'_>,
    wide: bool,
    r: &mut dyn Read,
) -> Result<AnyShare<N>, String> {
    let share = if wide {
        let (w, s) = ShareLevel::<u128>::read(sh, r)?;
        if !w {
            return Err("the share has narrow counters, the checkpoint says wide".to_string());
        }
        AnyShare::Wide(s)
    } else {
        let (w, s) = ShareLevel::<N>::read(sh, r)?;
        if w {
            return Err("the share has wide counters, the checkpoint says narrow".to_string());
        }
        AnyShare::Narrow(s)
    };
    // Nothing may follow.
    let mut rest = [0u8; 1];
    match r.read(&mut rest) {
        Ok(0) => Ok(share),
        Ok(_) => Err("the share file has bytes after its end".to_string()),
        Err(e) => Err(format!("the share cannot be read: {e}")),
    }
}

/// Give the memory of a share no longer needed to the pool of its counter type.
pub(super) fn recycle<K: TableKey, N: Counter>(
    level: AnyShare<N>,
    pool: &Pool<K, N>,
    wide: &Pool<K, u128>,
) {
    match level {
        AnyShare::Narrow(s) => pool.recycle_parts(s.parts),
        AnyShare::Wide(s) => wide.recycle_parts(s.parts),
    }
}
