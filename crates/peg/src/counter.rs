//! Path counters that grow as needed: levels are built with narrow (`u64`) counters and rebuilt with `u128` when
//! a sum overflows. Every addition and multiplication is checked; an overflow is an error, never a wrap.

use crate::bytes::read_u64;

/// The index a record carries of the counters it adds ([`crate::level::Rec`]): a `u32` for levels with
/// counters, nothing for levels without (their records are their keys alone, half the bytes).
pub(crate) trait SrcIndex:
    Copy + Default + Send + Sync + Eq + std::fmt::Debug + 'static
{
    /// The index `i` (dropped when there is nothing to index).
    fn new(i: u32) -> Self;
    /// The index (0 when there is none).
    fn get(self) -> u32;
}

impl SrcIndex for u32 {
    #[inline(always)]
    fn new(i: u32) -> u32 {
        i
    }
    #[inline(always)]
    fn get(self) -> u32 {
        self
    }
}

impl SrcIndex for () {
    #[inline(always)]
    fn new(_: u32) {}
    #[inline(always)]
    fn get(self) -> u32 {
        0
    }
}

/// An unsigned counter type used in level storage.
pub(crate) trait Counter:
    Copy + Default + Send + Sync + Eq + std::fmt::Debug + 'static
{
    /// What a record of a level with these counters carries to find its counters.
    type Src: SrcIndex;
    /// A value from a `u128`, if it fits.
    fn from_u128(v: u128) -> Option<Self>;
    /// The value as a `u128`.
    fn to_u128(self) -> u128;
    /// Checked addition.
    fn add(self, o: Self) -> Option<Self>;
    /// Checked multiplication by a small factor.
    fn mul(self, m: u32) -> Option<Self>;
    /// The counter stored in the low `w` bytes at `off` (16 bytes there must be readable), as written from
    /// [`Counter::to_u128`] of a value of this type.
    fn read(data: &[u8], off: usize, w: u32) -> Self;
}

macro_rules! counter {
    ($t:ty) => {
        impl Counter for $t {
            type Src = u32;
            #[inline(always)]
            fn from_u128(v: u128) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn add(self, o: Self) -> Option<Self> {
                self.checked_add(o)
            }
            #[inline(always)]
            fn mul(self, m: u32) -> Option<Self> {
                self.checked_mul(m as $t)
            }
            #[inline(always)]
            fn read(data: &[u8], off: usize, w: u32) -> Self {
                // The value was written from a `$t`: it fits.
                read_u64(data, off, w.min(8)) as $t
            }
        }
    };
}

counter!(u16);
counter!(u32);
counter!(u64);

impl Counter for u128 {
    type Src = u32;
    #[inline(always)]
    fn from_u128(v: u128) -> Option<Self> {
        Some(v)
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn add(self, o: Self) -> Option<Self> {
        self.checked_add(o)
    }
    #[inline(always)]
    fn mul(self, m: u32) -> Option<Self> {
        self.checked_mul(u128::from(m))
    }
    #[inline(always)]
    fn read(data: &[u8], off: usize, w: u32) -> Self {
        let lo = read_u64(data, off, w.min(8));
        let hi = read_u64(data, off + 8, w.saturating_sub(8));
        u128::from(hi) << 64 | u128::from(lo)
    }
}

/// No counter at all: levels of positions only (used for the backward tables of finishable positions).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct NoCount;

impl Counter for NoCount {
    type Src = ();
    #[inline(always)]
    fn from_u128(_: u128) -> Option<Self> {
        Some(NoCount)
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        0
    }
    #[inline(always)]
    fn add(self, _: Self) -> Option<Self> {
        Some(NoCount)
    }
    #[inline(always)]
    fn mul(self, _: u32) -> Option<Self> {
        Some(NoCount)
    }
    #[inline(always)]
    fn read(_: &[u8], _: usize, _: u32) -> Self {
        NoCount
    }
}
