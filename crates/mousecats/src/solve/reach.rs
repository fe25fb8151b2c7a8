//! The positions reachable from a start, counted level by level like the solve.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::kernel::{for_each_cat_move, level_sets};
use super::options::{LayerOptions, SolveProgress};
use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::layout::{Layout, rank_const};
use crate::position::Rule;
use crate::sized::SizedPosition;
use crate::word::{Geo, Word};

/// The number of distinct positions reachable from `start` by legal play under `rule`, counting `start`
/// itself and the final positions of games (play stops when a game is over).
///
/// Works level by level like the solver: for each cat set, the squares where the mouse can stand with the
/// mouse to move and with the cats to move are sets of dark squares; the mouse's moves fill the second
/// from the first inside the set, and each cat move carries the second into a set of the level below.
pub fn reachable_positions<P: BoardPosition>(start: &P, rule: Rule) -> u64 {
    let Some(s) = SizedPosition::from_dark(
        start.board_size(),
        start.mouse_dark(),
        start.cats_dark(),
        start.turn(),
    ) else {
        return 0;
    };
    count_reachable(&s, rule, &LayerOptions::default()).0
}

/// Reachable positions from `start`, and the bytes held at the peak.
pub(super) fn count_reachable(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> (u64, u64) {
    with_size!(start.size(), |H, D, W, T| {
        count_reachable_k::<H, D, W>(start, rule, options)
    })
}

fn count_reachable_k<const H: usize, const D: usize, W: Word>(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> (u64, u64) {
    let size = start.size();
    let geo = Geo::<W>::new(size.geometry());
    let layout = Layout::of(size);
    let count_table = layout.count_table();
    let small = layout.small_colex();
    let start_set = start.cats_dark();
    let top = layout.level_of(start_set);
    let len = |l: usize| layout.level_len(l) as usize;
    let mut mouse_reach = vec![W::ZERO; len(top)];
    let start_rank = layout.rank(start_set) as usize;
    // Cats-to-move positions come from mouse moves within a set, except the start's own.
    let mut start_cats = (start.turn() == Side::Cats).then_some(start_rank);
    if start.turn() == Side::Mouse {
        mouse_reach[start_rank] = W::bit(u32::from(start.mouse_dark()));
    }
    let start_bit = W::bit(u32::from(start.mouse_dark()));
    let mut count = 0u64;
    let mut peak = 0u64;
    let mut sets_done = 0u64;
    let total_sets: u64 = (0..=top).map(|l| layout.level_len(l)).sum();
    let word = std::mem::size_of::<W>() as u64;
    // Cat moves lead to the level below: go down from the start.
    for level in (0..=top).rev() {
        let sets = level_sets::<W>(layout, level);
        let below = if level > 0 { len(level - 1) } else { 0 };
        peak = peak.max((2 * sets.len() + 2 * below) as u64 * word);
        // The mouse's moves within each set: the cats-to-move positions reached, and those still live.
        let expand = |set: W, mr: W, cr: W| -> (W, W) {
            let free = geo.all & !set;
            let over = geo.mouse_won(set, rule) & free;
            let cr = cr | (geo.neighbours(mr & !over) & free);
            (cr, cr & !over)
        };
        let start_here = start_cats.take_if(|_| level == top);
        if options.parallel && sets.len() > 4096 && level > 0 {
            let next: Vec<[AtomicU64; 2]> = (0..below)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect();
            count += sets
                .par_iter()
                .zip(mouse_reach.par_iter())
                .enumerate()
                .with_min_len(256)
                .map(|(i, (&set, &mr))| {
                    let cr = if start_here == Some(i) {
                        start_bit
                    } else {
                        W::ZERO
                    };
                    if mr == W::ZERO && cr == W::ZERO {
                        return 0;
                    }
                    let (cr, live) = expand(set, mr, cr);
                    if live != W::ZERO {
                        for_each_cat_move::<H, W>(&geo, set, |s2, t| {
                            let bits = (live & !W::bit(t)).to_u128();
                            if bits != 0 {
                                let r = rank_const::<H, D, W>(count_table, small, s2);
                                if let Some(slot) = next.get(r) {
                                    slot[0].fetch_or(bits as u64, Ordering::Relaxed);
                                    slot[1].fetch_or((bits >> 64) as u64, Ordering::Relaxed);
                                }
                            }
                        });
                    }
                    u64::from(mr.ones() + cr.ones())
                })
                .sum::<u64>();
            mouse_reach = next
                .into_iter()
                .map(|[lo, hi]| {
                    W::from_u128(u128::from(lo.into_inner()) | u128::from(hi.into_inner()) << 64)
                })
                .collect();
        } else {
            let mut next = vec![W::ZERO; below];
            for (i, (&set, &mr)) in sets.iter().zip(&mouse_reach).enumerate() {
                let cr = if start_here == Some(i) {
                    start_bit
                } else {
                    W::ZERO
                };
                if mr == W::ZERO && cr == W::ZERO {
                    continue;
                }
                let (cr, live) = expand(set, mr, cr);
                count += u64::from(mr.ones() + cr.ones());
                if live == W::ZERO {
                    continue;
                }
                for_each_cat_move::<H, W>(&geo, set, |s2, t| {
                    if let Some(slot) = next.get_mut(rank_const::<H, D, W>(count_table, small, s2))
                    {
                        *slot = *slot | (live & !W::bit(t));
                    }
                });
            }
            mouse_reach = next;
        }
        sets_done += sets.len() as u64;
        if let Some(p) = options.progress {
            p(&SolveProgress {
                phase: "reach",
                levels_done: top + 1 - level,
                levels: top + 1,
                sets_done,
                sets: total_sets,
            });
        }
    }
    (count, peak)
}
