//! Frozen partitions and frozen levels: sorted, byte-packed entries.

use std::marker::PhantomData;

use super::keys::{Layout, PART_TARGET, Slot};
use crate::bytes::{PAD, put, read_u64, width_of};
use crate::counter::Counter;

/// Entries per block of a frozen partition; each block starts from a stored key (a checkpoint), so a partition
/// can be read from any block and searched by bisection over its checkpoints.
pub(crate) const BLOCK: usize = 64;

/// A frozen partition: entries sorted by key, byte-packed (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct Part<C> {
    len: usize,
    /// Bytes of a key difference, of a full-tree counter, of a normal-tree counter.
    wk: u32,
    wf: u32,
    wn: u32,
    pub(super) data: Vec<u8>,
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
    pub(super) fn encode_with(
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
