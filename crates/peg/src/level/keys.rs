//! Mixed keys and partitions: the bijection that spreads normal forms ([`Mixer`]), the partitions of a level
//! ([`Layout`]), the form a key takes in a table and a record ([`TableKey`]), entries and records.

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
    pub(super) shift: u32,
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

/// Target entries per partition: a table of this many 20-byte slots at 82% load fits a core's 1 MiB L2 cache
/// beside the records streaming through.
pub(crate) const PART_TARGET: usize = 20 << 10;
