//! The complete table of positions from which a finish can be reached.
//!
//! The table is one enumeration with jumps taken back (a peg on `to`, `from` and `over` empty, becomes pegs on
//! `from` and `over`), from the finish position (or every one-peg position when the finish is anywhere), up to
//! the full board, keeping each level's keys: the positions with `k` pegs from which the finish can be reached,
//! up to symmetry. It is stored like the fast enumeration's levels (mixed normal forms, sorted, byte-packed:
//! about 2 bytes a position), so a question is one lookup and a level of a forward enumeration with the same
//! symmetries is matched against it in one merge.

use rayon::prelude::*;

use crate::board::{Board, Symmetry};
use crate::count::CountError;
use crate::counter::{Counter, NoCount};
use crate::kernel::Kernel;
use crate::level::{Frozen, Mixer, Part};
use crate::position::{Move, Position};
use crate::problem::Finish;
use crate::step::{AnyFrozen, KeyLevel, Options, run};

/// Every position of a board from which one peg can finish (on a hole, or anywhere), up to symmetry.
#[derive(Debug, Clone)]
pub struct FinishTable {
    board: Board,
    finish: Finish,
    kernel: Kernel,
    mixer: Mixer,
    /// `levels[k]`: mixed normal forms of the finishable positions with `k` pegs (`None` once taken).
    levels: Vec<Option<KeyLevel>>,
    /// The position class the table is restricted to ([`FinishTable::build_for_class`]); `None`: every class.
    class: Option<u8>,
}

impl FinishTable {
    /// Build the table for `finish` on `board`, normalizing with the symmetries that fix the finish. This is a
    /// whole enumeration: about 23.5 million classes for the English board and a one-peg finish on the
    /// centre (about 1.3 s on two cores, 130 MB at the peak); bigger boards stop at `opts.max_memory` with [`CountError::MemoryLimit`].
    pub fn build(
        board: &Board,
        finish: Finish,
        opts: &Options<'_>,
    ) -> Result<FinishTable, CountError> {
        let group = match finish {
            Finish::Anywhere => board.symmetries().to_vec(),
            Finish::Hole(h) => board.stabilizer(Position::EMPTY.with_peg(h)),
        };
        FinishTable::build_with_group(board, finish, &group, opts)
    }

    /// Build with a given group (a subgroup of the symmetries fixing the finish).
    pub(crate) fn build_with_group(
        board: &Board,
        finish: Finish,
        group: &[Symmetry],
        opts: &Options<'_>,
    ) -> Result<FinishTable, CountError> {
        let starts: Vec<u64> = finish.holes(board.holes()).map(|h| 1u64 << h).collect();
        FinishTable::build_from(board, finish, group, &starts, None, opts)
    }

    /// The table for one peg left on any hole, restricted to the positions of one position class: the class of
    /// `like` ([`Board::position_class`]). Every position reachable from a start has the start's class, and a
    /// position can only finish on a hole whose single peg has its class, so for a game from `like` this table
    /// answers exactly what the [`Finish::Anywhere`] table would, built from those holes alone: on the English
    /// board, from the standard start, that costs what the centre finish costs (about 23.5 million classes)
    /// instead of about 12 times as much for every class.
    ///
    /// The table [covers](FinishTable::covers) only positions of that class: [`FinishTable::can_finish`] answers
    /// `false` for the others, and [`Solver::attach`](crate::Solver::attach) does not take it. Its
    /// [`FinishTable::finish`] is [`Finish::Anywhere`].
    pub fn build_for_class(
        board: &Board,
        like: Position,
        opts: &Options<'_>,
    ) -> Result<FinishTable, CountError> {
        let class = board.position_class(like);
        let mut holes = Position::EMPTY;
        for h in 0..board.holes() {
            if board.position_class(Position::EMPTY.with_peg(h)) == class {
                holes = holes.with_peg(h);
            }
        }
        // The symmetries that map the set of finish holes onto itself also map the class onto itself.
        let group = board.stabilizer(holes);
        let starts: Vec<u64> = holes.holes().map(|h| 1u64 << h).collect();
        FinishTable::build_from(board, Finish::Anywhere, &group, &starts, Some(class), opts)
    }

    /// The enumeration of jumps taken back from the one-peg positions `starts`.
    fn build_from(
        board: &Board,
        finish: Finish,
        group: &[Symmetry],
        starts: &[u64],
        class: Option<u8>,
        opts: &Options<'_>,
    ) -> Result<FinishTable, CountError> {
        let reverse = Kernel::new_reverse(board, group);
        let n = board.holes();
        let mut levels: Vec<Option<KeyLevel>> = vec![None; n + 1];
        let opts = Options {
            max_levels: None,
            ..*opts
        };
        if !starts.is_empty() {
            run::<NoCount>(
                &reverse,
                starts,
                None,
                &opts,
                Some(&mut |pegs, level| {
                    if let (Some(slot), AnyFrozen::Narrow(l)) =
                        (levels.get_mut(pegs as usize), level)
                    {
                        *slot = Some(l.clone());
                    }
                    Ok(())
                }),
            )?;
        }
        Ok(FinishTable {
            board: board.clone(),
            finish,
            kernel: Kernel::new(board, group),
            mixer: Mixer::new(n as u32),
            levels,
            class,
        })
    }

    /// Whether the table answers for `pos`: always, except for a table made by
    /// [`FinishTable::build_for_class`], which answers only for positions of its class.
    pub fn covers(&self, pos: Position) -> bool {
        self.class
            .is_none_or(|c| self.board.position_class(pos) == c)
    }

    /// Whether the table answers for every position (it was not restricted to one position class).
    pub fn covers_all(&self) -> bool {
        self.class.is_none()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The finish.
    pub fn finish(&self) -> Finish {
        self.finish
    }

    /// Number of finishable positions up to symmetry (of the symmetries fixing the finish).
    pub fn classes(&self) -> u64 {
        self.levels.iter().flatten().map(|l| l.len() as u64).sum()
    }

    /// Bytes of memory the table uses.
    pub fn bytes(&self) -> u64 {
        self.levels.iter().flatten().map(KeyLevel::bytes).sum()
    }

    /// The mixed normal form of `pos` (the key looked up in the table).
    pub(crate) fn key(&self, pos: u64) -> u64 {
        self.mixer.mix(self.kernel.normalize(pos).0)
    }

    /// Whether the finish can be reached from `pos`. One lookup: microseconds. For a position the table does
    /// not [cover](FinishTable::covers), `false`.
    pub fn can_finish(&self, pos: Position) -> bool {
        let pos = Position::from_bits(pos.bits() & self.board.full().bits());
        if pos.pegs() == 0 || !self.covers(pos) {
            return false;
        }
        self.levels
            .get(pos.pegs() as usize)
            .and_then(Option::as_ref)
            .is_some_and(|l| l.contains(self.key(pos.bits())))
    }

    /// A solution from `pos` (following any jump that stays in the table), or `None` when the finish cannot be
    /// reached.
    pub fn solve(&self, pos: Position) -> Option<Vec<Move>> {
        let mut pos = Position::from_bits(pos.bits() & self.board.full().bits());
        if !self.can_finish(pos) {
            return None;
        }
        let mut moves = Vec::new();
        while pos.pegs() > 1 {
            let m = self
                .board
                .legal_moves(pos)
                .into_iter()
                .find(|&m| self.can_finish(pos.apply(m)))?;
            moves.push(m);
            pos = pos.apply(m);
        }
        Some(moves)
    }
}

/// The keys of a level, without counters.
pub(crate) fn keys_only<N: Counter>(level: &AnyFrozen<N>) -> KeyLevel {
    fn of<C: Counter>(l: &Frozen<C>) -> KeyLevel {
        let parts = l
            .parts
            .par_iter()
            .enumerate()
            .map(|(q, p)| {
                let base = l.layout.base(q);
                let keys: Vec<u64> = p.reader(base, 0, p.blocks()).map(|e| e.0 - base).collect();
                Part::encode_by(keys.len(), |i| (keys[i], NoCount, NoCount))
            })
            .collect();
        Frozen {
            layout: l.layout,
            parts,
        }
    }
    match level {
        AnyFrozen::Narrow(l) => of(l),
        AnyFrozen::Wide(l) => of(l),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::solve::Solver;

    #[test]
    fn class_tables_agree_with_search_on_their_class() {
        let b = Board::builtin("triangle").unwrap();
        let mut s = Solver::new(&b, Finish::Anywhere);
        let mut classes = Vec::new();
        for v in 0..b.holes() {
            let start = b.full().without_peg(v);
            let class = b.position_class(start);
            if classes.contains(&class) {
                continue;
            }
            classes.push(class);
            let t = FinishTable::build_for_class(&b, start, &Options::default()).unwrap();
            assert!(t.covers(start) && !t.covers_all());
            assert_eq!(t.finish(), Finish::Anywhere);
            assert!(
                !s.attach(Arc::new(t.clone())),
                "a class table is not complete"
            );
            for bits in 0..1u64 << 15 {
                let pos = Position::from_bits(bits);
                let covered = b.position_class(pos) == class;
                assert_eq!(t.covers(pos), covered);
                let want = covered && s.can_finish(pos).unwrap();
                assert_eq!(t.can_finish(pos), want, "{bits:#x} class {class}");
                if want {
                    let end = t.solve(pos).unwrap().into_iter().fold(pos, |p, m| {
                        assert!(m.is_legal(p));
                        p.apply(m)
                    });
                    assert_eq!(end.pegs(), 1);
                }
            }
        }
        // Every single-vacancy start of the triangle is in one of three classes.
        assert_eq!(classes.len(), 3);
    }

    /// The class of the English standard start: the centre's table plus the lone peg on an edge hole of the
    /// class (d1, a4, g4 or d7: one class up to symmetry). Every other position that can finish on an edge hole
    /// can also finish on the centre, so the count is the centre table's (23,475,688, the number of reachable
    /// positions, OEIS A112737) plus one. A whole English enumeration (keys only): about a second.
    #[test]
    fn english_class_table_is_the_centre_table_and_one_more() {
        let b = Board::english();
        let t = FinishTable::build_for_class(&b, b.default_start(), &Options::default()).unwrap();
        assert_eq!(t.classes(), 23_475_688 + 1);
        assert!(t.can_finish(b.default_start()));
        let d1 = b.parse_hole("d1").unwrap();
        assert!(t.can_finish(Position::EMPTY.with_peg(d1)));
    }

    #[test]
    fn triangle_table_agrees_with_search() {
        let b = Board::builtin("triangle").unwrap();
        for finish in [
            Finish::Anywhere,
            Finish::Hole(0),
            Finish::Hole(4),
            Finish::Hole(12),
        ] {
            let t = FinishTable::build(&b, finish, &Options::default()).unwrap();
            let mut s = Solver::new(&b, finish);
            for bits in 0..1u64 << 15 {
                let pos = Position::from_bits(bits);
                let want = s.can_finish(pos).unwrap();
                assert_eq!(t.can_finish(pos), want, "{bits:#x} {finish:?}");
                if want {
                    let moves = t.solve(pos).unwrap();
                    let mut p = pos;
                    for m in moves {
                        assert!(m.is_legal(p));
                        p = p.apply(m);
                    }
                    assert!(finish.is_finished(p));
                }
            }
        }
    }
}
