//! Sets of dark squares in the narrowest machine word that holds a board's dark squares: `u32` up to
//! 8x8, `u64` up to 10x10, `u128` beyond. The solver's kernels are written once over [`Word`] and compiled
//! for each width, so the 8x8 board runs on 32-bit words as the classic solver did.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use crate::position::Rule;
use crate::size::Geometry;

/// A set of dark squares.
pub(crate) trait Word:
    Copy
    + Eq
    + Default
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + 'static
{
    /// The empty set.
    const ZERO: Self;
    /// The low bits of a `u128` set.
    fn from_u128(v: u128) -> Self;
    /// The set as a `u128`.
    fn to_u128(self) -> u128;
    /// The lowest square.
    fn tz(self) -> u32;
    /// The highest square of a non-empty set.
    fn highest(self) -> u32;
    /// The sets of one level from the layout's cache, where the layout keeps them in this word.
    fn cached(layout: &crate::layout::Layout, level: usize) -> Option<&[Self]>;
    /// The number of squares.
    fn ones(self) -> u32;
    /// The set without its lowest square.
    fn clear_lowest(self) -> Self;
    /// The one-square set.
    fn bit(i: u32) -> Self;
}

macro_rules! word {
    ($t:ty, |$l:ident, $lv:ident| $cached:expr) => {
        impl Word for $t {
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn cached($l: &crate::layout::Layout, $lv: usize) -> Option<&[$t]> {
                $cached
            }
            const ZERO: $t = 0;
            #[inline(always)]
            fn from_u128(v: u128) -> $t {
                v as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn tz(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn clear_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn bit(i: u32) -> $t {
                (1 as $t).wrapping_shl(i)
            }
        }
    };
}

word!(u32, |layout, level| layout
    .small_level_sets()
    .and_then(|all| all.get(level))
    .map(Vec::as_slice));
word!(u64, |_layout, _level| None);
word!(u128, |_layout, _level| None);

/// The board's tables that the kernels read, in words of type `W`.
pub(crate) struct Geo<W> {
    /// N / 2.
    pub half: u32,
    /// All dark squares.
    pub all: W,
    /// The far row.
    pub top: W,
    /// Even rows off file A.
    pub even_not_left: W,
    /// Odd rows off the last file.
    pub odd_not_right: W,
    /// The rows of each dark square.
    pub row: [u8; 128],
    /// The dark squares on each row or higher.
    pub at_or_above: [W; 17],
    /// Cat steps from each dark square.
    pub cat_steps: [W; 128],
    /// The cats' cones.
    pub cone: [W; 128],
}

impl<W: Word> Geo<W> {
    pub(crate) fn new(g: &Geometry) -> Geo<W> {
        Geo {
            half: g.half,
            all: W::from_u128(g.all),
            top: W::from_u128(g.row_mask[usize::from(g.size.n()) - 1]),
            even_not_left: W::from_u128(g.even_not_left),
            odd_not_right: W::from_u128(g.odd_not_right),
            row: g.row,
            at_or_above: g.at_or_above.map(W::from_u128),
            cat_steps: g.cat_steps.map(W::from_u128),
            cone: g.cone.map(W::from_u128),
        }
    }

    /// The dark squares one mouse step away from some square of `set`.
    #[inline(always)]
    pub(crate) fn neighbours(&self, set: W) -> W {
        let h = self.half;
        let straight = set << h | set >> h;
        let even = set & self.even_not_left;
        let odd = set & self.odd_not_right;
        let diag = even << (h - 1) | even >> (h + 1) | odd << (h + 1) | odd >> (h - 1);
        (straight | diag) & self.all
    }

    /// The mouse squares where the mouse has already won under `rule`, with cats on `cats` (see
    /// [`Geometry::mouse_won`]).
    #[inline(always)]
    pub(crate) fn mouse_won(&self, cats: W, rule: Rule) -> W {
        match rule {
            Rule::FarRow => self.top,
            Rule::Escape => {
                let top_cat = cats.highest() as usize;
                self.top | self.at_or_above[usize::from(self.row[top_cat & 127])]
            }
            Rule::Region => {
                let mut cone = W::ZERO;
                let mut c = cats;
                while c != W::ZERO {
                    cone = cone | self.cone[c.tz() as usize & 127];
                    c = c.clear_lowest();
                }
                let safe = self.all & !cone;
                safe & self.neighbours(safe)
            }
        }
    }
}
