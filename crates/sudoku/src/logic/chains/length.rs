//! SE's rating of a chain by its length: the bonus added to a technique's base rating as the chain grows, and
//! the longest chain still worth looking for.

use crate::logic::step::Rating;

/// SE's length bonus, in tenths, for a chain (or set of branches) of `complexity` nodes.
pub(crate) const fn length_bonus(complexity: usize) -> u8 {
    let length = complexity.saturating_sub(2);
    let mut ceil = 4usize;
    let mut odd = false;
    let mut added = 0u8;
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// SE's length bonus (see [`length_bonus`]) for every chain length up to 255.
const LENGTH_BONUS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = length_bonus(k);
        k += 1;
    }
    t
};

/// The rating of a chain of technique base `base` and `k` nodes.
pub(super) fn chain_rating(base: Rating, k: usize) -> Rating {
    Rating(base.0.saturating_add(LENGTH_BONUS[k.min(255)]))
}

/// The longest chain of a technique with base rating `base` worth finding: rated at most `max`, and better than
/// `best` (rating, then length), the best chain found so far. 0 when none is. (Both conditions hold for every
/// length up to some point, so the answer is found by bisection.)
pub(super) fn longest_useful(base: Rating, max: Rating, best: Option<(Rating, usize)>) -> usize {
    let ok = |k: usize| {
        let r = chain_rating(base, k);
        r <= max && best.is_none_or(|b| (r, k) < b)
    };
    let (mut lo, mut hi) = (0usize, 254usize);
    if ok(hi) {
        return hi;
    }
    // ok(lo) (or lo == 0) and !ok(hi).
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}
