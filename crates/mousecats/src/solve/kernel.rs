//! The solving kernel: the cat sets of one level, each from the level below, in lane-wise maxima.

use rayon::prelude::*;

use super::cell::{Cell, lanes};
use crate::layout::{Layout, SmallColex, rank_const};
use crate::position::Rule;
use crate::size::BoardSize;
use crate::word::{Geo, Word};

/// Room on both sides of a row for the mouse's steps off the board (at least N/2 + 2 cells).
const PAD: usize = 10;

/// Solves the sets of one level on a board with `H` dark squares per row and `D` in all, with sets of
/// dark squares in words `W` and cells `T`.
pub(super) struct Kernel<const H: usize, const D: usize, W: Word, T: Cell> {
    geo: Geo<W>,
    pub(super) layout: &'static Layout,
    count: &'static [u64],
    small: Option<&'static SmallColex>,
    rule: Rule,
    /// Lanes of even rows off file A: diagonal steps change the dark index by `H ± 1` there.
    even_left: [T; D],
    /// Lanes of odd rows off the last file.
    odd_right: [T; D],
}

impl<const H: usize, const D: usize, W: Word, T: Cell> Kernel<H, D, W, T> {
    pub(super) fn new(size: BoardSize, rule: Rule) -> Self {
        let geo = size.geometry();
        debug_assert_eq!(geo.dark as usize, D);
        debug_assert_eq!(geo.half as usize, H);
        let layout = Layout::of(size);
        Kernel {
            geo: Geo::new(geo),
            layout,
            count: layout.count_table(),
            small: layout.small_colex(),
            rule,
            even_left: lanes(geo.even_not_left),
            odd_right: lanes(geo.odd_not_right),
        }
    }

    /// Solve one cat set: `cats_out` and `mouse_out` are its two rows; `prev` holds the mouse-to-move
    /// rows of the level below.
    #[inline]
    fn solve_set(&self, set: W, prev: &[T], cats_out: &mut [T], mouse_out: &mut [T]) {
        let geo = &self.geo;
        let free = geo.all & !set;
        // Mouse squares where the game is over before anyone moves.
        let over = geo.mouse_won(set, self.rule) & free;
        let live = free & !over;

        // Cats to move: the largest successor cell over the cat moves, gathered in the output row itself
        // (in memory, where each successor row is one vector maximum). In a successor row the target
        // square holds a cat, so its cell is 0 (the smallest): a move onto the mouse's square never counts.
        let Some(cats_out) = cats_out.first_chunk_mut::<D>() else {
            return;
        };
        cats_out.fill(T::WON);
        let mut moves = 0u32;
        let mut targets_seen = W::ZERO;
        for_each_cat_move::<H, W>(geo, set, |s2, t| {
            let base = rank_const::<H, D, W>(self.count, self.small, s2) * D;
            if let Some(row) = prev.get(base..).and_then(|r| r.first_chunk::<D>()) {
                for (b, &v) in cats_out.iter_mut().zip(row) {
                    *b = (*b).max(v);
                }
            }
            moves += 1;
            targets_seen = targets_seen | W::bit(t);
        });
        // The cats are stuck where every move they have goes to the mouse's square (or they have none).
        let stuck = match (moves, targets_seen.ones()) {
            (0, _) => !W::ZERO,
            (_, 1) => targets_seen,
            _ => W::ZERO,
        };
        let cats_live: [T; D] = lanes((live & !stuck).to_u128());
        let cats_lost: [T; D] = lanes((free & (over | stuck)).to_u128());
        for d in 0..D {
            cats_out[d] = (T::result(cats_out[d]) & cats_live[d]) | (T::LOST & cats_lost[d]);
        }

        // Mouse to move: the largest cell among the squares it can step to. The cats' squares hold 0 in
        // `cats_out`, so they never count; a mouse with no free step at all is trapped.
        let mut pad = [T::WON; 128 + 2 * PAD];
        pad[PAD..PAD + D].copy_from_slice(cats_out);
        // Trapped: no free square next to it (steps are symmetric).
        let trapped = live & !geo.neighbours(free);
        let mouse_live: [T; D] = lanes((live & !trapped).to_u128());
        let mouse_lost: [T; D] = lanes(trapped.to_u128());
        let Some(mouse_out) = mouse_out.first_chunk_mut::<D>() else {
            return;
        };
        // Already-won squares and the cats' own squares get 0: `WON`.
        for d in 0..D {
            let straight = pad[d + PAD + H].max(pad[d + PAD - H]);
            let left = pad[d + PAD + H - 1].max(pad[d + PAD - H - 1]) & self.even_left[d];
            let right = pad[d + PAD + H + 1].max(pad[d + PAD - H + 1]) & self.odd_right[d];
            let g = straight.max(left).max(right);
            mouse_out[d] = (T::result(g) & mouse_live[d]) | (T::LOST & mouse_lost[d]);
        }
    }

    /// Solve the sets `sets` of one level (in rank order) into their rows.
    pub(super) fn solve_level(
        &self,
        sets: &[W],
        prev: &[T],
        cats: &mut [T],
        mouse: &mut [T],
        parallel: bool,
    ) {
        if parallel && sets.len() > 64 {
            cats.par_chunks_mut(D)
                .zip(mouse.par_chunks_mut(D))
                .zip(sets.par_iter())
                .with_min_len(64)
                .for_each(|((c, m), &set)| self.solve_set(set, prev, c, m));
        } else {
            for ((c, m), &set) in cats.chunks_mut(D).zip(mouse.chunks_mut(D)).zip(sets) {
                self.solve_set(set, prev, c, m);
            }
        }
    }
}

/// The sets of `level` in words `W`, borrowed from the layout's cache on small boards.
pub(super) fn level_sets<W: Word>(layout: &Layout, level: usize) -> std::borrow::Cow<'_, [W]> {
    match W::cached(layout, level) {
        Some(sets) => std::borrow::Cow::Borrowed(sets),
        None => std::borrow::Cow::Owned(
            layout
                .level_sets(level)
                .into_iter()
                .map(W::from_u128)
                .collect(),
        ),
    }
}

/// Call `f(next set, target square)` for every cat move of the `H` cats `set` (ignoring the mouse), cats
/// lowest first.
#[inline(always)]
pub(super) fn for_each_cat_move<const H: usize, W: Word>(
    geo: &Geo<W>,
    set: W,
    mut f: impl FnMut(W, u32),
) {
    let free = geo.all & !set;
    let mut rest = set;
    for _ in 0..H {
        let c = rest.tz();
        rest = rest.clear_lowest();
        let mut targets = geo.cat_steps[c as usize & 127] & free;
        while targets != W::ZERO {
            let t = targets.tz();
            targets = targets.clear_lowest();
            f(set ^ W::bit(c) ^ W::bit(t), t);
        }
    }
}
