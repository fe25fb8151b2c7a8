//! Path counters that grow as needed: levels are built with narrow (`u64`) counters and rebuilt with `u128` when
//! a sum overflows. Every addition and multiplication is checked; an overflow is an error, never a wrap.

/// An unsigned counter type used in level storage.
pub(crate) trait Counter:
    Copy + Default + Send + Sync + Eq + std::fmt::Debug + 'static
{
    /// A value from a `u128`, if it fits.
    fn from_u128(v: u128) -> Option<Self>;
    /// The value as a `u128`.
    fn to_u128(self) -> u128;
    /// Checked addition.
    fn add(self, o: Self) -> Option<Self>;
    /// Checked multiplication by a small factor.
    fn mul(self, m: u32) -> Option<Self>;
}

macro_rules! counter {
    ($t:ty) => {
        impl Counter for $t {
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
        }
    };
}

counter!(u16);
counter!(u32);
counter!(u64);
counter!(u128);

/// No counter at all: levels of positions only (used for the backward tables of finishable positions).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct NoCount;

impl Counter for NoCount {
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
}
