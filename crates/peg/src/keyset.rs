//! Compact sorted sets of positions: the keys in blocks of 16, each block a full first key and 15 deltas as
//! variable-length integers (about 2 to 3 bytes a key for a level of the English board), with the first keys in
//! a separate array for binary search.

/// Keys per block.
const BLOCK: usize = 16;

/// A sorted set of `u64` keys, stored compactly.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeySet {
    /// First key of each block.
    first: Vec<u64>,
    /// Byte offset of each block's deltas in `data` (plus one final offset).
    offs: Vec<u32>,
    data: Vec<u8>,
    len: usize,
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline(always)]
fn get_varint(data: &[u8], pos: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = data[*pos];
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

impl KeySet {
    /// A set from keys sorted in increasing order without repeats.
    pub fn from_sorted(keys: &[u64]) -> KeySet {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let mut s = KeySet {
            first: Vec::with_capacity(keys.len().div_ceil(BLOCK)),
            offs: Vec::with_capacity(keys.len().div_ceil(BLOCK) + 1),
            data: Vec::with_capacity(keys.len() * 3),
            len: keys.len(),
        };
        for block in keys.chunks(BLOCK) {
            s.first.push(block[0]);
            s.offs.push(s.data.len() as u32);
            for w in block.windows(2) {
                put_varint(&mut s.data, w[1] - w[0]);
            }
        }
        s.offs.push(s.data.len() as u32);
        s.data.shrink_to_fit();
        s
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes used.
    pub fn bytes(&self) -> u64 {
        (self.first.capacity() * 8 + self.offs.capacity() * 4 + self.data.capacity()) as u64
    }

    /// Whether `key` is in the set.
    pub fn contains(&self, key: u64) -> bool {
        // The last block whose first key is <= key.
        let b = self.first.partition_point(|&f| f <= key);
        if b == 0 {
            return false;
        }
        let b = b - 1;
        let mut k = self.first[b];
        if k == key {
            return true;
        }
        let mut pos = self.offs[b] as usize;
        let end = self.offs[b + 1] as usize;
        while pos < end {
            k += get_varint(&self.data, &mut pos);
            if k >= key {
                return k == key;
            }
        }
        false
    }

    /// The keys in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.first.len()).flat_map(move |b| {
            let mut k = self.first[b];
            let mut pos = self.offs[b] as usize;
            let end = self.offs[b + 1] as usize;
            let mut started = false;
            std::iter::from_fn(move || {
                if !started {
                    started = true;
                    return Some(k);
                }
                if pos < end {
                    k += get_varint(&self.data, &mut pos);
                    Some(k)
                } else {
                    None
                }
            })
        })
    }
}

/// Sort `keys` (LSD radix sort on the low `bits` bits, 11 bits a pass), then remove repeats.
pub(crate) fn radix_sort_dedup(keys: &mut Vec<u64>, bits: u32) {
    const R: u32 = 11;
    let passes = bits.div_ceil(R).max(1);
    if keys.len() < 1 << 12 {
        keys.sort_unstable();
        keys.dedup();
        return;
    }
    let mut tmp = vec![0u64; keys.len()];
    let mut src = std::mem::take(keys);
    for p in 0..passes {
        let shift = p * R;
        let mut count = vec![0usize; 1 << R];
        for &k in &src {
            count[(k >> shift) as usize & ((1 << R) - 1)] += 1;
        }
        let mut sum = 0;
        for c in &mut count {
            let x = *c;
            *c = sum;
            sum += x;
        }
        for &k in &src {
            let d = (k >> shift) as usize & ((1 << R) - 1);
            tmp[count[d]] = k;
            count[d] += 1;
        }
        std::mem::swap(&mut src, &mut tmp);
    }
    src.dedup();
    *keys = src;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyset_round_trips_and_finds() {
        let mut x = 12345u64;
        let mut keys: Vec<u64> = (0..20000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & ((1 << 40) - 1)
            })
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        radix_sort_dedup(&mut keys, 40);
        assert_eq!(keys, sorted);
        let set = KeySet::from_sorted(&keys);
        assert_eq!(set.len(), keys.len());
        assert_eq!(set.iter().collect::<Vec<_>>(), keys);
        for &k in keys.iter().step_by(7) {
            assert!(set.contains(k));
            assert!(!set.contains(k + 1) || keys.binary_search(&(k + 1)).is_ok());
        }
        assert!(!set.contains(0) || keys[0] == 0);
        assert!(!KeySet::from_sorted(&[]).contains(5));
    }
}
