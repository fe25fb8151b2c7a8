//! The finishable set of a problem, and its solution counts computed over that set alone.
//!
//! The *finishable set* of a problem is, level by level, the positions reachable from its start from which its
//! finish can still be reached. On the English board from the centre vacancy to the centre it has 1,679,072
//! classes, against 23,475,688 reachable ones; every solution passes through it and through nothing else. So
//! the solution counts need only a count of paths over that set ([`Finishable::solutions`]).
//!
//! The set is found by meeting in the middle, keys only: the positions reachable from the start (jumps), level
//! by level from the start, and the positions from which the finish can be reached (jumps taken back), level by
//! level from the finish, each side one level at a time, the smaller side first, until both have reached the
//! same number of pegs `m`. The finishable positions with `m` pegs are those found by both. Then, outwards:
//! the finishable positions with `k + 1` pegs are the reachable ones with a jump into the finishable ones with
//! `k` (the jumps taken back from those, matched against the reachable level), and the finishable ones with
//! `k - 1` pegs are those that can be reached from the finishable ones with `k` and can reach the finish (the
//! jumps from those, matched against the backward level).
//!
//! When the start is the full board less the finish hole, the backward side is the forward side complemented (a
//! position can reach the finish exactly when its complement can be reached from the start), so the forward side
//! alone is enumerated, to half the board, and the finishable set below the middle is the complement of the one
//! above it. The dense walks (on boards of up to 34 holes) keep it that way: a position below the middle is
//! looked up by its complement, and the levels below the middle are only made when the solution counts need
//! them.

use std::borrow::Cow;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, Symmetry};
use crate::count::{CountError, add};
use crate::counter::{Counter, NoCount};
use crate::dense::Jumps;
use crate::enumerate::{AnyFrozen, KeyLevel, Options, Walk, narrow_keys};
use crate::kernel::{Kernel, MAX_TESTS};
use crate::level::{Frozen, KeyFilter, Mixer, Slot, TableKey};
use crate::pagoda::Side;
use crate::position::{Move, Position};
use crate::problem::{Finish, Problem};

/// One level of the finishable set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct FinishableLevel {
    /// Number of pegs.
    pub pegs: u32,
    /// Positions reachable from the start, with this many pegs, from which the finish can still be reached.
    pub positions: u64,
    /// The same up to symmetry (classes of the symmetries that fix the start, with at least one such position).
    pub classes: u64,
}

/// One level of the solution count ([`Finishable::solutions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct SolutionLevel {
    /// Number of pegs.
    pub pegs: u32,
    /// Finishable positions with this many pegs ([`FinishableLevel::positions`]).
    pub positions: u64,
    /// The same up to symmetry ([`FinishableLevel::classes`]).
    pub classes: u64,
    /// Paths in the full game tree from the start to these positions: the ways to play down to this level and
    /// still be able to finish.
    #[serde(serialize_with = "crate::count::decimal")]
    pub paths_full: u128,
    /// Paths in the normal tree from the start to these classes.
    #[serde(serialize_with = "crate::count::decimal")]
    pub paths_normal: u128,
}

/// The solution counts of a problem, and the paths into its finishable set level by level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Solutions {
    /// Number of symmetries used for the normal tree (the board's symmetries that fix the start).
    pub symmetries: usize,
    /// Solutions in the full game tree (move sequences from the start to one peg on the finish).
    #[serde(serialize_with = "crate::count::decimal")]
    pub solutions_full: u128,
    /// Solutions in the normal tree.
    #[serde(serialize_with = "crate::count::decimal")]
    pub solutions_normal: u128,
    /// Finishable positions, up to symmetry, over all levels.
    pub finishable_classes: u64,
    /// Finishable positions over all levels.
    pub finishable: u64,
    /// One row per level, from the start's number of pegs down to one.
    pub levels: Vec<SolutionLevel>,
}

/// The positions reachable from a problem's start from which its finish can still be reached, level by level
/// (see the [module documentation](self)): the answer to "can this game still be won, and how" for every
/// position of a game from that start, one lookup each.
#[derive(Debug, Clone)]
pub struct Finishable {
    problem: Problem,
    /// Forward kernel of the symmetries that fix both the start and the set of finish holes.
    kernel: Kernel,
    /// Backward kernel (jumps taken back) of the same symmetries.
    reverse: Kernel,
    mixer: Mixer,
    levels: Levels,
    /// From the start's number of pegs down to one.
    rows: Vec<FinishableLevel>,
    /// Kept by [`Finishable::build_for_solutions`]: the jumps from the level of `k + 1` pegs into that of `k`,
    /// by the positions they end on, at `jumps[k]` (for some levels of the dense walks).
    jumps: Vec<Option<Jumps>>,
}

/// The finishable positions by number of pegs, as normal forms under the kernel of a [`Finishable`].
#[derive(Debug, Clone)]
enum Levels {
    /// From the general walks: `levels[k]` holds the mixed normal forms of the positions with `k` pegs.
    Mixed(Vec<KeyLevel>),
    /// From the dense walks: `levels[k]` holds the normal forms of the positions with `k` pegs in increasing
    /// order, or is `None` when they are the complements of the positions of the level of as many pegs as
    /// the board has holes without `k` (a self-dual problem, below its middle).
    Plain(Vec<Option<Vec<u64>>>),
}

impl Levels {
    fn bytes(&self) -> u64 {
        match self {
            Levels::Mixed(l) => l.iter().map(KeyLevel::bytes).sum(),
            Levels::Plain(l) => l.iter().flatten().map(|v| v.capacity() as u64 * 8).sum(),
        }
    }
}

/// The holes a single last peg may end on for a game from `start`: those of the finish whose one-peg position
/// has the start's position class (play keeps the class: no other can be reached).
pub(crate) fn finish_holes(board: &Board, start: Position, finish: Finish) -> Vec<usize> {
    let class = board.position_class(start);
    finish
        .holes(board.holes())
        .filter(|&h| board.position_class(Position::EMPTY.with_peg(h)) == class)
        .collect()
}

impl Finishable {
    /// Find the finishable set of `problem`. The memory limit of `opts` applies to the whole search (its
    /// levels kept, keys only, and the level being built); its `max_levels`, `progress` and counter width are
    /// not used.
    ///
    /// # Errors
    /// [`CountError::MemoryLimit`] when the search would need more memory than `opts.max_memory`;
    /// [`CountError::Cancelled`] when `opts.cancel` is set.
    pub fn build(problem: &Problem, opts: &Options<'_>) -> Result<Finishable, CountError> {
        Finishable::build_with(problem, opts, true, false)
    }

    /// [`Finishable::build`] for a caller who will ask for the [solution counts](Finishable::solutions): the
    /// jumps between the set's positions that the dense walks find on their way back to the start are kept, so
    /// that the counts need not list the jumps into those levels again. The set is the same; only the memory it
    /// holds and the time of [`Finishable::solutions`] differ. On the English board from the centre to the
    /// centre that is 4.9 million jumps, 18 MB, and the solution counts about 5% faster in all; from c3 with the
    /// finish anywhere (walks back to the start over more levels) 0.8 GB more and 15% faster. When the memory
    /// limit of `opts` leaves no room for them, the jumps are not kept.
    ///
    /// # Errors
    /// As [`Finishable::build`].
    pub fn build_for_solutions(
        problem: &Problem,
        opts: &Options<'_>,
    ) -> Result<Finishable, CountError> {
        Finishable::build_with(problem, opts, true, true)
    }

    /// [`Finishable::build`], with the dense walks where they can be used when `dense` is set, else with the
    /// general walks; with `record`, keeping the jumps the dense walks find for [`Finishable::solutions`].
    fn build_with(
        problem: &Problem,
        opts: &Options<'_>,
        dense: bool,
        record: bool,
    ) -> Result<Finishable, CountError> {
        let board = problem.board();
        let start = problem.start();
        let holes = finish_holes(board, start, problem.finish());
        // The symmetries that fix the start and map the finish holes onto themselves.
        let group: Vec<Symmetry> = problem
            .group()
            .iter()
            .filter(|s| holes.iter().all(|&h| holes.contains(&s.map_hole(h))))
            .cloned()
            .collect();
        let kernel = Kernel::new(board, &group);
        let reverse = Kernel::new_reverse(board, &group);
        // With a finish hole, the walks drop what a pagoda function centred on it rules out (the group fixes
        // the hole, so the weights are the same on every hole of an orbit): forward, the positions that cannot
        // reach the finish; backward, those that cannot be reached from the start.
        // The walks drop what the best pagoda found for the problem rules out (see `crate::pagoda`).
        let opts = Options {
            max_levels: None,
            progress: None,
            ..*opts
        };
        // The dense walks' tables are made while the pagoda tests are searched for.
        let (kernels, prepared) = rayon::join(
            || pruned(problem, &group, &kernel, &reverse, &holes),
            || {
                dense
                    .then(|| crate::dense::prepare(problem, &holes, &opts))
                    .flatten()
            },
        );
        let (forward, reverse) = kernels?;
        let n = board.holes();
        let mut jumps = Vec::new();
        let levels = if holes.is_empty() {
            Levels::Mixed(vec![KeyLevel::empty(n as u32); n + 1])
        } else if let Some(met) = prepared
            .and_then(|d| crate::dense::meet(d, problem, &forward, &reverse, &holes, record))
        {
            let (levels, j) = met?;
            jumps = j;
            Levels::Plain(levels)
        } else if narrow_keys(&kernel) {
            Levels::Mixed(meet::<u32>(problem, &forward, &reverse, &holes, &opts)?)
        } else {
            Levels::Mixed(meet::<u64>(problem, &forward, &reverse, &holes, &opts)?)
        };
        let mixer = Mixer::new(n as u32);
        let same = group.len() == problem.group().len();
        let g = Kernel::new(board, problem.group());
        let mut rows: Vec<FinishableLevel> = (1..=start.pegs())
            .rev()
            .map(|pegs| {
                let (positions, classes) = match &levels {
                    Levels::Mixed(l) => {
                        let level = &l[pegs as usize];
                        let positions = level
                            .parts
                            .par_iter()
                            .enumerate()
                            .map(|(q, p)| {
                                p.reader(level.layout.base(q), 0, p.blocks())
                                    .map(|(h, _, _)| kernel.class_size(mixer.unmix(h)))
                                    .sum::<u64>()
                            })
                            .sum();
                        let classes = if same {
                            level.len() as u64
                        } else {
                            regroup(&g, &mixer, level.iter().map(|e| mixer.unmix(e.0))).len() as u64
                        };
                        (positions, classes)
                    }
                    // Filled in below from the level they are the complements of.
                    Levels::Plain(l) => match &l[pegs as usize] {
                        None => (0, 0),
                        Some(keys) => {
                            let positions = keys
                                .par_chunks(1 << 14)
                                .map(|c| kernel.class_sizes_sum(c))
                                .sum::<u64>();
                            let classes = if same {
                                keys.len() as u64
                            } else {
                                regroup(&g, &mixer, keys.iter().copied()).len() as u64
                            };
                            (positions, classes)
                        }
                    },
                };
                FinishableLevel {
                    pegs,
                    positions,
                    classes,
                }
            })
            .collect();
        // Complements: as many positions, and classes (a symmetry maps complements to complements).
        if let Levels::Plain(l) = &levels {
            let s = start.pegs() as usize;
            for k in 1..=s {
                if l[k].is_none() && n - k <= s && n - k >= 1 {
                    let partner = rows[s - (n - k)];
                    rows[s - k].positions = partner.positions;
                    rows[s - k].classes = partner.classes;
                }
            }
        }
        Ok(Finishable {
            problem: problem.clone(),
            kernel,
            reverse,
            mixer,
            levels,
            rows,
            jumps,
        })
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The levels, from the start's number of pegs down to one.
    pub fn levels(&self) -> &[FinishableLevel] {
        &self.rows
    }

    /// Finishable positions over all levels.
    pub fn positions(&self) -> u64 {
        self.rows.iter().map(|l| l.positions).sum()
    }

    /// Finishable positions up to symmetry (of the start) over all levels.
    pub fn classes(&self) -> u64 {
        self.rows.iter().map(|l| l.classes).sum()
    }

    /// Bytes of memory the set uses.
    pub fn bytes(&self) -> u64 {
        self.levels.bytes() + self.jumps.iter().flatten().map(Jumps::bytes).sum::<u64>()
    }

    /// Whether `pos` is in the set: reachable from the start, and able to reach the finish. For a position of a
    /// game played from the start, that is whether the game can still be won. One lookup.
    pub fn contains(&self, pos: Position) -> bool {
        let full = self.problem.board().full().bits();
        let pos = pos.bits() & full;
        let k = pos.count_ones() as usize;
        match &self.levels {
            Levels::Mixed(l) => l.get(k).is_some_and(|l| {
                l.len() > 0 && l.contains(self.mixer.mix(self.kernel.normalize(pos).0))
            }),
            Levels::Plain(l) => match l.get(k) {
                None => false,
                Some(Some(keys)) => keys.binary_search(&self.kernel.normalize(pos).0).is_ok(),
                // A complement of the level of `holes - k` pegs.
                Some(None) => l
                    .get(self.problem.board().holes() - k)
                    .and_then(Option::as_ref)
                    .is_some_and(|keys| {
                        keys.binary_search(&self.kernel.normalize(full ^ pos).0)
                            .is_ok()
                    }),
            },
        }
    }

    /// The normal forms (under the kernel's group) of the finishable positions with `pegs` pegs, in increasing
    /// order (borrowed when the set keeps them so).
    fn plain_keys(&self, pegs: u32) -> Cow<'_, [u64]> {
        let k = pegs as usize;
        let sorted = |mut v: Vec<u64>| {
            v.par_sort_unstable();
            Cow::Owned(v)
        };
        match &self.levels {
            Levels::Mixed(l) => l.get(k).map_or(Cow::Borrowed(&[][..]), |l| {
                sorted(l.iter().map(|e| self.mixer.unmix(e.0)).collect())
            }),
            Levels::Plain(l) => match l.get(k) {
                None => Cow::Borrowed(&[]),
                Some(Some(keys)) => Cow::Borrowed(keys),
                Some(None) => {
                    let board = self.problem.board();
                    let full = board.full().bits();
                    l.get(board.holes() - k).and_then(Option::as_ref).map_or(
                        Cow::Borrowed(&[][..]),
                        |keys| {
                            sorted(
                                keys.par_iter()
                                    .map(|&x| full ^ self.kernel.max_image(x))
                                    .collect(),
                            )
                        },
                    )
                }
            },
        }
    }

    /// The middle of a self-dual problem's dense levels (the lowest level kept; those below it, above no
    /// pegs, are the complements of levels above it), or `None`.
    fn middle(&self) -> Option<u32> {
        let Levels::Plain(l) = &self.levels else {
            return None;
        };
        let m = (1..l.len()).find(|&k| l[k].is_some())?;
        (m > 1).then_some(m as u32)
    }

    /// A solution from `pos` (following any jump that stays in the set), or `None` when `pos` is not in the set.
    pub fn solve(&self, pos: Position) -> Option<Vec<Move>> {
        let board = self.problem.board();
        let mut pos = Position::from_bits(pos.bits() & board.full().bits());
        if !self.contains(pos) {
            return None;
        }
        let mut moves = Vec::new();
        while pos.pegs() > 1 {
            let m = board
                .legal_moves(pos)
                .into_iter()
                .find(|&m| self.contains(pos.apply(m)))?;
            moves.push(m);
            pos = pos.apply(m);
        }
        Some(moves)
    }

    /// The solution counts in both trees, by a count of paths from the start over the finishable set alone.
    ///
    /// # Errors
    /// [`CountError::Overflow`] when a count passes 2^128 - 1; [`CountError::MemoryLimit`] and
    /// [`CountError::Cancelled`] as for [`Finishable::build`].
    pub fn solutions(&self, opts: &Options<'_>) -> Result<Solutions, CountError> {
        let opts = Options {
            max_levels: None,
            progress: None,
            ..*opts
        };
        let g = Kernel::new(self.problem.board(), self.problem.group());
        // Over the dense walks' levels, when their classes are the normal tree's: the counts pulled level by
        // level.
        if g.group_size == self.kernel.group_size && matches!(self.levels, Levels::Plain(_)) {
            let levels = |pegs: u32| self.plain_keys(pegs);
            let jumps = |pegs: u32| self.jumps.get(pegs as usize).and_then(Option::as_ref);
            if let Some(paths) = crate::dense::count_paths(
                self.problem.board(),
                self.problem.start(),
                (&self.kernel, &self.reverse),
                &levels,
                &jumps,
                self.middle().map(|m| (m, self.bytes())),
                &opts,
            ) {
                let levels = self
                    .rows
                    .iter()
                    .zip(paths?)
                    .map(|(row, (paths_full, paths_normal))| SolutionLevel {
                        pegs: row.pegs,
                        positions: row.positions,
                        classes: row.classes,
                        paths_full,
                        paths_normal,
                    })
                    .collect();
                return Ok(self.tally(&g, levels));
            }
        }
        let levels = if narrow_keys(&g) {
            self.solutions_with::<u32>(&g, &opts)?
        } else {
            self.solutions_with::<u64>(&g, &opts)?
        };
        Ok(self.tally(&g, levels))
    }

    /// The solution counts from the paths into each level (from the start's number of pegs down).
    fn tally(&self, g: &Kernel, levels: Vec<SolutionLevel>) -> Solutions {
        let last = levels.last().copied().unwrap_or_default();
        let one = last.pegs == 1;
        Solutions {
            symmetries: g.group_size,
            solutions_full: if one { last.paths_full } else { 0 },
            solutions_normal: if one { last.paths_normal } else { 0 },
            finishable_classes: self.classes(),
            finishable: self.positions(),
            levels,
        }
    }

    /// The paths into each level, by a walk from the start restricted to the set.
    fn solutions_with<K: TableKey>(
        &self,
        g: &Kernel,
        opts: &Options<'_>,
    ) -> Result<Vec<SolutionLevel>, CountError> {
        let start = self.problem.start();
        let same = g.group_size == self.kernel.group_size;
        let mut walk = Walk::<u64, K>::new(g, &[start.bits()], None)?;
        let mut levels = Vec::new();
        // (G-class, finishable positions in it), by mixed key, for the level with `pegs` pegs.
        let keep_of = |pegs: u32| -> Vec<(u64, u64)> {
            let keys = self.plain_keys(pegs);
            if same {
                let mut v: Vec<(u64, u64)> = keys
                    .par_iter()
                    .map(|&x| (self.mixer.mix(x), g.class_size(x)))
                    .collect();
                v.par_sort_unstable_by_key(|e| e.0);
                v
            } else {
                regroup_sizes(g, &self.kernel, &self.mixer, &keys)
            }
        };
        let mut keep = keep_of(start.pegs());
        for row in &self.rows {
            let pegs = row.pegs;
            let (next, paths_full, paths_normal) = match walk.level() {
                AnyFrozen::Narrow(l) => {
                    let (l, f, n) = restrict(g, &self.mixer, l, &keep, same, pegs)?;
                    (AnyFrozen::Narrow(l), f, n)
                }
                AnyFrozen::Wide(l) => {
                    let (l, f, n) = restrict(g, &self.mixer, l, &keep, same, pegs)?;
                    (AnyFrozen::Wide(l), f, n)
                }
            };
            walk.set_level(next);
            levels.push(SolutionLevel {
                pegs,
                positions: row.positions,
                classes: row.classes,
                paths_full,
                paths_normal,
            });
            if pegs <= 1 {
                break;
            }
            keep = keep_of(pegs - 1);
            if walk.len() > 0 && !keep.is_empty() {
                // Only the successors that may be finishable become records.
                let filter = KeyFilter::new(keep.len(), g.holes as u32);
                for &(h, _) in &keep {
                    filter.insert(h);
                }
                walk.step_filtered(opts, true, false, Some(&filter))?;
            } else {
                // Nothing finishable at this level: nothing at the ones below.
                walk.set_level(AnyFrozen::Narrow(Frozen::empty(g.holes as u32)));
            }
        }
        Ok(levels)
    }
}

/// The walks' kernels with the pagoda tests found for the problem: forward, against positions that cannot
/// finish; backward (unless the backward side is the forward one complemented), against positions that cannot
/// be reached from the start. Each pagoda is scored on a sample of positions halfway between the start and the
/// finish, from random games (forward from the start, or backward from the finish).
fn pruned(
    problem: &Problem,
    group: &[Symmetry],
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
) -> Result<(Kernel, Kernel), CountError> {
    let board = problem.board();
    let start = problem.start().bits();
    let (mut f, mut r) = (kf.clone(), kr.clone());
    if holes.is_empty() {
        return Ok((f, r));
    }
    let middle = problem.start().pegs().div_ceil(2);
    // Weights the same on each orbit of `group`; when it has too many orbits for the search (a start that
    // no symmetry but the identity fixes has one per hole), or none of those rules out enough, weights the
    // same on each orbit of all the board's symmetries (which are constant on the orbits of `group` too).
    let search = |side: Side, sample: &[u64]| {
        crate::pagoda::search(board, group, side, holes, start, sample).or_else(|| {
            (group.len() < board.symmetries().len())
                .then(|| {
                    crate::pagoda::search(board, board.symmetries(), side, holes, start, sample)
                })
                .flatten()
        })
    };
    // The best pagoda, then those that rule out the most of what the tests so far keep (see
    // `crate::pagoda::search_more`).
    let tests_with_more = |first: crate::pagoda::Found, side: Side, sample: &[u64]| {
        let more = crate::pagoda::search_more(
            board,
            group,
            side,
            (holes, start),
            sample,
            std::slice::from_ref(&first),
            MAX_TESTS,
        );
        std::iter::once(first)
            .chain(more)
            .map(|t| (t.weights, t.limit))
            .collect::<Vec<_>>()
    };
    let fwd_sample = random_games(board, &[start], middle, false);
    if let Some(p) = search(Side::Forward, &fwd_sample) {
        f.set_prune(board, &tests_with_more(p, Side::Forward, &fwd_sample));
    }
    let full = board.full().bits();
    let self_dual = matches!(problem.finish(), Finish::Hole(h) if start == full ^ 1u64 << h);
    if !self_dual {
        let finishes: Vec<u64> = holes.iter().map(|&h| 1u64 << h).collect();
        let bwd_sample = random_games(board, &finishes, middle, true);
        if let Some(p) = search(Side::Backward, &bwd_sample) {
            r.set_prune(board, &tests_with_more(p, Side::Backward, &bwd_sample));
        }
    }
    Ok((f, r))
}

/// Games played at random from `starts` (jumps, or jumps taken back with `reverse`) until the position has
/// `pegs` pegs or no jump is left: the positions they end on (a sample for the pagoda search).
fn random_games(board: &Board, starts: &[u64], pegs_at: u32, reverse: bool) -> Vec<u64> {
    const GAMES: u64 = 1024;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // Per move: the holes that must hold pegs and the one that must be empty (jumps taken back: the other way
    // round), and the holes a jump flips.
    let rules: Vec<(u64, u64, u64)> = board
        .moves()
        .iter()
        .map(|m| {
            let (from, over, to) = (1u64 << m.from(), 1u64 << m.over(), 1u64 << m.to());
            let flip = from | over | to;
            if reverse {
                (to, from | over, flip)
            } else {
                (from | over, to, flip)
            }
        })
        .collect();
    let mut legal = Vec::with_capacity(rules.len());
    (0..GAMES)
        .map(|i| {
            let mut pos = starts[(i as usize) % starts.len()];
            loop {
                let pegs = pos.count_ones();
                let done = if reverse {
                    pegs >= pegs_at
                } else {
                    pegs <= pegs_at
                };
                legal.clear();
                legal.extend(
                    rules
                        .iter()
                        .filter(|&&(full, empty, _)| pos & full == full && pos & empty == 0)
                        .map(|r| r.2),
                );
                if done || legal.is_empty() {
                    return pos;
                }
                pos ^= legal[(rand() % legal.len() as u64) as usize];
            }
        })
        .collect()
}

/// Keep the classes of `level` that are in `keep` (mixed keys, increasing, with the number of finishable
/// positions in each class): the level restricted, and the paths into the finishable positions (full tree: the
/// per-position count times the finishable positions of the class; normal tree: the class's count). With
/// `whole`, every position of a class kept is finishable (the set has the classes of `g`'s group): the
/// class's full-tree count as it is.
fn restrict<C: Counter>(
    g: &Kernel,
    mixer: &Mixer,
    level: &Frozen<C>,
    keep: &[(u64, u64)],
    whole: bool,
    pegs: u32,
) -> Result<(Frozen<C>, u128, u128), CountError> {
    let mut out = Vec::with_capacity(keep.len());
    let (mut full, mut normal) = (0u128, 0u128);
    let mut it = keep.iter().peekable();
    for (h, f, n) in level.iter() {
        while it.peek().is_some_and(|k| k.0 < h) {
            it.next();
        }
        if let Some(&&(_, finishable)) = it.peek().filter(|k| k.0 == h) {
            let paths = if whole {
                f.to_u128()
            } else {
                let size = u128::from(g.class_size(mixer.unmix(h)));
                (f.to_u128() / size)
                    .checked_mul(u128::from(finishable))
                    .ok_or(CountError::Overflow { pegs })?
            };
            full = add(full, paths, pegs)?;
            normal = add(normal, n.to_u128(), pegs)?;
            out.push(Slot {
                h,
                full: f,
                norm: n,
            });
        }
    }
    Ok((Frozen::from_entries(g.holes as u32, out), full, normal))
}

/// The classes of `g`'s group that hold the classes `keys` (normal forms under a subgroup): their mixed keys,
/// increasing, without repeats.
fn regroup(g: &Kernel, mixer: &Mixer, keys: impl Iterator<Item = u64>) -> Vec<u64> {
    let keys: Vec<u64> = keys.collect();
    let mut keys: Vec<u64> = keys
        .par_iter()
        .map(|&x| mixer.mix(g.normalize(x).0))
        .collect();
    keys.par_sort_unstable();
    keys.dedup();
    keys
}

/// [`regroup`], with the number of positions of the classes `keys` (of `sub`'s group) in each class of
/// `g`'s.
fn regroup_sizes(g: &Kernel, sub: &Kernel, mixer: &Mixer, keys: &[u64]) -> Vec<(u64, u64)> {
    let mut keys: Vec<(u64, u64)> = keys
        .par_iter()
        .map(|&pos| (mixer.mix(g.normalize(pos).0), sub.class_size(pos)))
        .collect();
    keys.par_sort_unstable_by_key(|e| e.0);
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(keys.len());
    for (h, n) in keys {
        match out.last_mut() {
            Some(last) if last.0 == h => last.1 += n,
            _ => out.push((h, n)),
        }
    }
    out
}

/// A level of keys from mixed keys in increasing order.
fn key_level(bits: u32, keys: &[u64]) -> KeyLevel {
    Frozen::from_entries(
        bits,
        keys.iter()
            .map(|&h| Slot {
                h,
                full: NoCount,
                norm: NoCount,
            })
            .collect(),
    )
}

/// The mixed keys of `a` that are also in `b` (both in increasing order).
fn intersect<C: Counter>(a: &Frozen<C>, b: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut out = Vec::new();
    let mut b = b.peekable();
    for (h, _, _) in a.iter() {
        while b.peek().is_some_and(|&x| x < h) {
            b.next();
        }
        if b.peek() == Some(&h) {
            out.push(h);
        }
    }
    out
}

/// The mixed normal forms of the complements of a level's positions, in increasing order.
pub(crate) fn complements<C: Counter>(
    k: &Kernel,
    mixer: &Mixer,
    full: u64,
    level: &Frozen<C>,
) -> Vec<u64> {
    let mut keys: Vec<u64> = level
        .parts
        .par_iter()
        .enumerate()
        .flat_map_iter(|(q, p)| {
            p.reader(level.layout.base(q), 0, p.blocks())
                .map(|(h, _, _)| complement(k, mixer, full, h))
        })
        .collect();
    keys.par_sort_unstable();
    keys
}

/// The mixed normal form of the complement of the position with mixed normal form `h`: the complement of its
/// largest image.
#[inline]
pub(crate) fn complement(k: &Kernel, mixer: &Mixer, full: u64, h: u64) -> u64 {
    let x = mixer.unmix(h);
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::has_avx512() {
        // SAFETY: the CPU has the features (checked just above).
        let max = unsafe { crate::kernel::avx512::max_image(k, x) };
        return mixer.mix(full ^ max);
    }
    mixer.mix(full ^ k.max_image(x))
}

/// The level of a keys-only walk (never rebuilt with wide counters: there are none).
fn keys_of(level: AnyFrozen<NoCount>) -> KeyLevel {
    match level {
        AnyFrozen::Narrow(l) => l,
        AnyFrozen::Wide(l) => crate::finish::keys_only(&AnyFrozen::<NoCount>::Wide(l)),
    }
}

/// The finishable set, level by level (indexed by pegs), by meeting in the middle (see the module
/// documentation). Where a level is built only to be intersected with another (the last step of the meeting,
/// and every step outwards), only its classes that a [`KeyFilter`] of the other may hold are built, and then
/// checked one by one against it.
fn meet<K: TableKey>(
    problem: &Problem,
    kf: &Kernel,
    kr: &Kernel,
    holes: &[usize],
    opts: &Options<'_>,
) -> Result<Vec<KeyLevel>, CountError> {
    let board = problem.board();
    let n = board.holes();
    let bits = n as u32;
    let full = board.full().bits();
    let start = problem.start();
    let s = start.pegs() as usize;
    let mixer = Mixer::new(bits);
    let mut found: Vec<KeyLevel> = vec![KeyLevel::empty(bits); n + 1];
    // Levels kept (keys only) for the way outwards, by pegs.
    let mut fwd_levels: Vec<Option<KeyLevel>> = vec![None; n + 1];
    let mut bwd_levels: Vec<Option<KeyLevel>> = vec![None; n + 1];
    let kept = |a: &[Option<KeyLevel>], b: &[Option<KeyLevel>]| -> u64 {
        a.iter().chain(b).flatten().map(KeyLevel::bytes).sum()
    };
    let budget = |held: u64| Options {
        max_memory: opts.max_memory.map(|m| m.saturating_sub(held)),
        ..*opts
    };
    let self_dual = match problem.finish() {
        Finish::Hole(h) => start.bits() == full ^ 1u64 << h,
        Finish::Anywhere => false,
    };
    let mut fwd = Walk::<NoCount, K>::new(kf, &[start.bits()], None)?;
    // Walk `walk` one level, keeping the level it leaves in `keep`.
    let advance = |walk: &mut Walk<'_, NoCount, K>,
                   keep: &mut Vec<Option<KeyLevel>>,
                   held: u64,
                   filter: Option<&KeyFilter>|
     -> Result<(), CountError> {
        let pegs = walk.pegs() as usize;
        let step = walk.step_filtered(&budget(held), true, true, filter)?;
        keep[pegs] = step.source.map(keys_of);
        Ok(())
    };
    let m;
    if self_dual {
        // The backward level with k pegs is the forward level with n - k complemented. Walk forward to the
        // middle, keeping the levels: with an odd number of holes to the level with (n + 1) / 2 pegs, whose
        // successors are kept where their complements may be in it.
        m = n / 2;
        let partner = n - m;
        while fwd.pegs() as usize > partner {
            if fwd.len() == 0 {
                return Ok(found);
            }
            let held = kept(&fwd_levels, &bwd_levels);
            advance(&mut fwd, &mut fwd_levels, held, None)?;
        }
        if fwd.pegs() as usize != partner || fwd.len() == 0 {
            return Ok(found);
        }
        if partner == m {
            let level_m = keys_of(fwd.into_level());
            let comp = complements(kf, &mixer, full, &level_m);
            found[m] = key_level(bits, &intersect(&level_m, comp.into_iter()));
            fwd_levels[m] = Some(level_m);
        } else {
            let filter = match fwd.level() {
                AnyFrozen::Narrow(l) => complement_filter(kf, &mixer, full, l),
                AnyFrozen::Wide(_) => return Ok(found),
            };
            let held = kept(&fwd_levels, &bwd_levels);
            advance(&mut fwd, &mut fwd_levels, held, Some(&filter))?;
            drop(filter);
            let candidates = keys_of(fwd.into_level());
            let Some(upper) = fwd_levels[partner].as_ref() else {
                return Ok(found);
            };
            found[m] = key_level(
                bits,
                &members(&candidates, upper, false, |h| {
                    complement(kf, &mixer, full, h)
                }),
            );
            // The finishable positions one peg above are the complements of those.
            found[partner] = key_level(bits, &complements(kf, &mixer, full, &found[m]));
        }
    } else {
        let finishes: Vec<u64> = holes.iter().map(|&h| 1u64 << h).collect();
        let mut bwd = Walk::<NoCount, K>::new(kr, &finishes, None)?;
        // Each side one level at a time, the smaller first, until they are one level apart.
        while fwd.pegs() > bwd.pegs() + 1 {
            if fwd.len() == 0 || bwd.len() == 0 {
                return Ok(found);
            }
            if fwd.len() <= bwd.len() {
                let held = kept(&fwd_levels, &bwd_levels) + bwd.bytes();
                advance(&mut fwd, &mut fwd_levels, held, None)?;
            } else {
                let held = kept(&fwd_levels, &bwd_levels) + fwd.bytes();
                advance(&mut bwd, &mut bwd_levels, held, None)?;
            }
        }
        if fwd.len() == 0 || bwd.len() == 0 {
            return Ok(found);
        }
        if fwd.pegs() == bwd.pegs() {
            // A start with one peg.
            m = fwd.pegs() as usize;
            let (a, b) = (keys_of(fwd.into_level()), keys_of(bwd.into_level()));
            found[m] = key_level(bits, &intersect(&a, b.iter().map(|e| e.0)));
            fwd_levels[m] = Some(a);
            bwd_levels[m] = Some(b);
        } else {
            // The last step, from the smaller side, keeps only what the other side may hold.
            let forward = fwd.len() <= bwd.len();
            let held =
                kept(&fwd_levels, &bwd_levels) + if forward { bwd.bytes() } else { fwd.bytes() };
            let (walk, other, keep) = if forward {
                (&mut fwd, &mut bwd, &mut fwd_levels)
            } else {
                (&mut bwd, &mut fwd, &mut bwd_levels)
            };
            let there = match other.level() {
                AnyFrozen::Narrow(l) => l.clone(),
                AnyFrozen::Wide(_) => return Ok(found),
            };
            let filter = KeyFilter::of_level(&there, bits);
            advance(walk, keep, held, Some(&filter))?;
            drop(filter);
            m = walk.pegs() as usize;
            let candidates = match walk.level() {
                AnyFrozen::Narrow(l) => l.clone(),
                AnyFrozen::Wide(_) => return Ok(found),
            };
            found[m] = key_level(bits, &members(&candidates, &there, true, |h| h));
            if forward {
                bwd_levels[m] = Some(there);
            } else {
                fwd_levels[m] = Some(there);
            }
        }
    }
    // Outwards to the start: the reachable positions with a jump into the finishable ones one peg fewer.
    let first_up = if self_dual { n - m + 1 } else { m + 1 };
    for k in first_up..=s {
        let Some(reach) = fwd_levels[k].take() else {
            break;
        };
        let from = std::mem::replace(&mut found[k - 1], KeyLevel::empty(bits));
        let held = kept(&fwd_levels, &bwd_levels) + reach.bytes();
        let filter = KeyFilter::of_level(&reach, bits);
        let (back, pred) = one_step::<K>(kr, from, k as u32 - 1, &budget(held), &filter)?;
        found[k - 1] = back;
        found[k] = key_level(bits, &members(&pred, &reach, true, |h| h));
    }
    // Outwards to the finish.
    for k in (1..m).rev() {
        if self_dual {
            // The finishable positions with k pegs are the complements of those with n - k.
            let comp = complements(kf, &mixer, full, &found[n - k]);
            found[k] = key_level(bits, &comp);
            continue;
        }
        let Some(back) = bwd_levels[k].take() else {
            break;
        };
        let from = std::mem::replace(&mut found[k + 1], KeyLevel::empty(bits));
        let held = kept(&fwd_levels, &bwd_levels) + back.bytes();
        let filter = KeyFilter::of_level(&back, bits);
        let (fwd_from, succ) = one_step::<K>(kf, from, k as u32 + 1, &budget(held), &filter)?;
        found[k + 1] = fwd_from;
        found[k] = key_level(bits, &members(&succ, &back, true, |h| h));
    }
    Ok(found)
}

/// A filter that may hold the complements of a level's positions.
fn complement_filter<C: Counter>(
    k: &Kernel,
    mixer: &Mixer,
    full: u64,
    level: &Frozen<C>,
) -> KeyFilter {
    let f = KeyFilter::new(level.len(), k.holes as u32);
    level.parts.par_iter().enumerate().for_each(|(q, p)| {
        // The complements fall anywhere in the filter, far bigger than the caches: each bit is asked for
        // `AHEAD` keys before it is set.
        const AHEAD: usize = 16;
        let mut ring = [0u64; AHEAD];
        let mut n = 0usize;
        for (h, _, _) in p.reader(level.layout.base(q), 0, p.blocks()) {
            let c = complement(k, mixer, full, h);
            f.prefetch_insert(c);
            let old = std::mem::replace(&mut ring[n % AHEAD], c);
            if n >= AHEAD {
                f.insert(old);
            }
            n += 1;
        }
        for &c in &ring[..n.min(AHEAD)] {
            f.insert(c);
        }
    });
    f
}

/// The mixed keys of `candidates` (in increasing order) whose image under `map` is in `set`, in increasing
/// order. With `sorted`, `map` keeps the order of keys (the identity): the candidates and the set are read
/// side by side; else the images are sorted first. Either way, a merge over the parts of the set the
/// candidates fall in (cheaper than a lookup each: the set is read in order, a few bytes an entry).
fn members<C: Counter>(
    candidates: &KeyLevel,
    set: &Frozen<C>,
    sorted: bool,
    map: impl Fn(u64) -> u64 + Sync,
) -> Vec<u64> {
    // (image, candidate), by image.
    let mut pairs: Vec<(u64, u64)> = candidates
        .parts
        .par_iter()
        .enumerate()
        .flat_map_iter(|(q, p)| {
            p.reader(candidates.layout.base(q), 0, p.blocks())
                .map(|(h, _, _)| (map(h), h))
        })
        .collect();
    if !sorted {
        pairs.par_sort_unstable();
    }
    // Chunks of candidates, each merged with the set from its first image on.
    const CHUNK: usize = 4096;
    let mut found: Vec<u64> = pairs
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut it = set.iter_from(chunk[0].0).map(|e| e.0).peekable();
            chunk
                .iter()
                .filter(move |&&(m, _)| {
                    while it.next_if(|&x| x < m).is_some() {}
                    it.peek() == Some(&m)
                })
                .map(|&(_, h)| h)
                .collect::<Vec<u64>>()
        })
        .collect();
    if !sorted {
        found.par_sort_unstable();
    }
    found
}

/// One step of a keys-only walk from `level` (with `pegs` pegs), keeping what `filter` may hold: the level
/// given back, and the next one.
fn one_step<K: TableKey>(
    k: &Kernel,
    level: KeyLevel,
    pegs: u32,
    opts: &Options<'_>,
    filter: &KeyFilter,
) -> Result<(KeyLevel, KeyLevel), CountError> {
    let mut walk = Walk::<NoCount, K>::from_level(k, level, pegs, None);
    let step = walk.step_filtered(opts, true, true, Some(filter))?;
    let back = step
        .source
        .map(keys_of)
        .unwrap_or_else(|| KeyLevel::empty(k.holes as u32));
    Ok((back, keys_of(walk.into_level())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense walks and the general ones give the same set: the same rows, the same answer for every
    /// position reachable from the start, the same solution counts. Self-dual problems (whose levels below the
    /// middle the dense walks leave as complements), a finish with fewer symmetries than the start (d4 to d1
    /// on the English board), and a finish anywhere.
    #[test]
    fn dense_and_general_walks_agree() {
        let t = Board::builtin("triangle").unwrap();
        let e = Board::english();
        let cases = [
            Problem::from_names(t.clone(), &["1"], Some("1")).unwrap(),
            Problem::from_names(t.clone(), &["1"], None).unwrap(),
            Problem::from_names(t.clone(), &["4"], Some("4")).unwrap(),
            Problem::from_names(t, &["2"], None).unwrap(),
            Problem::from_names(e.clone(), &["d4"], Some("d4")).unwrap(),
            Problem::from_names(e, &["d4"], Some("d1")).unwrap(),
        ];
        let opts = Options::default();
        for p in &cases {
            let label = format!("start {:#x} finish {:?}", p.start().bits(), p.finish());
            let a = Finishable::build_with(p, &opts, true, false).unwrap();
            let b = Finishable::build_with(p, &opts, false, false).unwrap();
            assert!(matches!(a.levels, Levels::Plain(_)), "{label}");
            assert!(matches!(b.levels, Levels::Mixed(_)), "{label}");
            assert_eq!(a.levels(), b.levels(), "{label}");
            assert_eq!(
                a.solutions(&opts).unwrap(),
                b.solutions(&opts).unwrap(),
                "{label}"
            );
            // Every level's keys, and membership, position by position on the small board; on the English
            // board a sample: the positions of random games from the start.
            for pegs in 1..=p.start().pegs() {
                // Both in increasing order.
                let (x, y) = (a.plain_keys(pegs), b.plain_keys(pegs));
                assert_eq!(x, y, "{label} {pegs} pegs");
            }
            let board = p.board();
            let mut seen = 0;
            let mut pos = p.start();
            let mut rng = 0x2545_F491_4F6C_DD1Du64;
            for _ in 0..2000 {
                assert_eq!(
                    a.contains(pos),
                    b.contains(pos),
                    "{label} {:#x}",
                    pos.bits()
                );
                seen += usize::from(a.contains(pos));
                let moves = board.legal_moves(pos);
                if moves.is_empty() {
                    pos = p.start();
                    continue;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos = pos.apply(moves[(rng % moves.len() as u64) as usize]);
            }
            assert_eq!(seen > 0, a.classes() > 0, "{label}");
        }
    }
}
