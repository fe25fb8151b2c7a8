//! The finishable set of a problem, level by level, and its solution counts.

use std::borrow::Cow;

use serde::Serialize;

use rayon::prelude::*;

use super::meet::{meet, regroup, regroup_sizes, restrict};
use super::prune::pruned;
use crate::board::{Board, Symmetry};
use crate::count::CountError;
use crate::dense::Jumps;
use crate::kernel::Kernel;
use crate::level::{Frozen, KeyFilter, Mixer, TableKey};
use crate::position::{Move, Position};
use crate::problem::{Finish, Problem};
use crate::step::{AnyFrozen, KeyLevel, Options, Walk, narrow_keys};

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
/// (see the [module documentation](crate::finishable)): the answer to "can this game still be won, and how" for every
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
