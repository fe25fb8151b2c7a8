//! The level-by-level solve of the larger boards: two levels in memory at a time ([`solve_layers`]).

use std::time::{Duration, Instant};

use super::cell::Cell;
use super::counts::{SolveCounts, count_rows};
use super::kernel::{Kernel, level_sets};
use super::options::{LayerOptions, SolveProgress};
use super::reach::count_reachable;
use super::{SolveError, Value, cell_bytes};
use crate::board::Side;
use crate::layout::Layout;
use crate::position::Rule;
use crate::size::BoardSize;
use crate::sized::{SizedMove, SizedPosition};
use crate::word::Word;

/// What [`solve_layers`] found: the start's value and the figures of the whole board.
#[derive(Clone, Debug)]
pub struct LayerReport {
    /// The board.
    pub size: BoardSize,
    /// The rule.
    pub rule: Rule,
    /// The start.
    pub start: SizedPosition,
    /// The start's value for the side to move.
    pub value: Value,
    /// Each legal first move with its value for the side that makes it.
    pub first_moves: Vec<(SizedMove, Value)>,
    /// Won and lost states of the whole board.
    pub counts: SolveCounts,
    /// Positions reachable from the start (the start included; play stops when a game is over).
    pub reachable: u64,
    /// All states: cat sets x free squares x 2 sides.
    pub states: u128,
    /// Cat sets.
    pub sets: u64,
    /// Levels.
    pub levels: usize,
    /// Cat sets of the widest level.
    pub widest_level: u64,
    /// Bytes of the largest buffers held at once (cells, level lists, reachability sets).
    pub peak_bytes: u64,
    /// Time spent solving.
    pub solve_time: Duration,
    /// Time spent counting the reachable positions.
    pub reach_time: Duration,
}

/// The bytes [`solve_layers`] holds at its peak on `size`: the cells of the level below (mouse to move)
/// and of the level being solved (both sides), that level's list of sets; or, while counting the
/// reachable positions, two levels of position sets. The larger of the two phases.
pub fn layered_memory_bytes(size: BoardSize) -> u64 {
    let layout = Layout::of(size);
    let d = u64::from(size.dark_squares());
    let cell = cell_bytes(size);
    let mut peak = 0;
    for level in 0..layout.levels() {
        let below = if level > 0 {
            layout.level_len(level - 1)
        } else {
            0
        };
        let here = layout.level_len(level);
        let solve = (below + 2 * here) * d * cell + here * 16;
        let reach = (2 * here + below) * 16 + here * 16 + below * 16;
        peak = peak.max(solve).max(reach);
    }
    peak
}

/// Solve `size` level by level under `rule`, keeping only two levels in memory, and report the value of
/// `start` (whose board gives the size), its first moves, the won and lost states of the whole board and
/// the positions reachable from `start`.
///
/// ```
/// use mousecats::{BoardSize, LayerOptions, Rule, SizedPosition, Value, solve_layers};
/// let size = BoardSize::new(6).unwrap();
/// let start = SizedPosition::start(size);
/// let r = solve_layers(&start, Rule::Region, &LayerOptions::default()).unwrap();
/// assert_eq!(r.value, Value::Win(21)); // the mouse wins in 21 plies (gilith/solve)
/// assert_eq!(r.reachable, 8_175);
/// ```
///
/// # Errors
/// [`SolveError::OutOfMemory`] if the solve would need more than `options.memory_limit` bytes.
pub fn solve_layers(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> Result<LayerReport, SolveError> {
    let size = start.size();
    let layout = Layout::of(size);
    let needed = layered_memory_bytes(size);
    if let Some(limit) = options.memory_limit
        && needed > limit
    {
        return Err(SolveError::OutOfMemory {
            size,
            needed,
            limit,
            widest: layout.widest_level(),
        });
    }
    let t0 = Instant::now();
    let (value, first_moves, counts, solve_peak) = with_size!(size, |H, D, W, T| {
        solve_levels::<H, D, W, T>(start, rule, options)
    });
    let solve_time = t0.elapsed();
    let t1 = Instant::now();
    let (reachable, reach_peak) = count_reachable(start, rule, options);
    Ok(LayerReport {
        size,
        rule,
        start: *start,
        value,
        first_moves,
        counts,
        reachable,
        states: layout.states(),
        sets: layout.sets(),
        levels: layout.levels(),
        widest_level: layout.widest_level(),
        peak_bytes: solve_peak.max(reach_peak),
        solve_time,
        reach_time: t1.elapsed(),
    })
}

type Solved = (Value, Vec<(SizedMove, Value)>, SolveCounts, u64);

/// `n` cells for a level's rows: the smallest buffer of `spare` that has room, cut to `n` and holding
/// whatever it held (`solve_set` writes every cell of a row before anything reads it); or, when none has
/// room, fresh ones (and the buffers too small are given back). Fresh memory costs a page fault per 4 KiB
/// written: reusing the buffers on the levels after the widest took the 12x12 solve's system time from about
/// 32 s to 19 s.
fn cells<T: Cell>(spare: &mut Vec<Vec<T>>, n: usize) -> Vec<T> {
    let fits = (0..spare.len())
        .filter(|&i| spare[i].len() >= n)
        .min_by_key(|&i| spare[i].len());
    match fits {
        Some(i) => {
            let mut b = spare.swap_remove(i);
            b.truncate(n);
            b.shrink_to_fit();
            b
        }
        None => {
            spare.clear();
            vec![T::WON; n]
        }
    }
}

pub(super) fn solve_levels<const H: usize, const D: usize, W: Word, T: Cell>(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> Solved {
    let size = start.size();
    let kernel = Kernel::<H, D, W, T>::new(size, rule);
    let layout = kernel.layout;
    let start_set = start.cats_dark();
    let start_level = layout.level_of(start_set);
    let start_rank = layout.rank(start_set) as usize;
    let mut prev: Vec<T> = Vec::new();
    let mut counts = SolveCounts::default();
    let mut peak = 0u64;
    let mut sets_done = 0u64;
    let mut start_value = Value::Loss(0);
    let mut first = Vec::new();
    let cell = std::mem::size_of::<T>() as u64;
    // The cells of levels no longer needed, kept for the levels to come.
    let mut spare: Vec<Vec<T>> = Vec::new();
    for level in 0..layout.levels() {
        let sets = level_sets::<W>(layout, level);
        let n = sets.len() * D;
        let mut mouse = cells(&mut spare, n);
        let mut cats = cells(&mut spare, n);
        peak = peak.max((prev.len() + 2 * n) as u64 * cell + sets.len() as u64 * 16);
        kernel.solve_level(&sets, &prev, &mut cats, &mut mouse, options.parallel);
        counts = counts.plus(SolveCounts {
            mouse_to_move: count_rows::<D, W, T>(&sets, &mouse, options.parallel),
            cats_to_move: count_rows::<D, W, T>(&sets, &cats, options.parallel),
        });
        if level == start_level {
            let base = start_rank * D;
            let m = usize::from(start.mouse_dark());
            let own = match start.turn() {
                Side::Mouse => mouse[base + m],
                Side::Cats => cats[base + m],
            };
            start_value = own.value();
            // Each first move's successor: the same set (mouse moves) or the level below (cat moves).
            for &mv in start.legal_moves(rule).iter() {
                let next = start.make_move(mv);
                let s2 = next.cats_dark();
                let m2 = usize::from(next.mouse_dark());
                let cellv = match start.turn() {
                    Side::Mouse => cats[base + m2],
                    Side::Cats => prev[layout.rank(s2) as usize * D + m2],
                };
                first.push((mv, cellv.value().for_mover()));
            }
        }
        spare.push(std::mem::replace(&mut prev, mouse));
        spare.push(cats);
        sets_done += sets.len() as u64;
        if let Some(p) = options.progress {
            p(&SolveProgress {
                phase: "solve",
                levels_done: level + 1,
                levels: layout.levels(),
                sets_done,
                sets: layout.sets(),
            });
        }
    }
    (start_value, first, counts, peak)
}
