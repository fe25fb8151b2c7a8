//! The complete table of positions from which a finish can be reached.
//!
//! Taking a jump back (`from` and `over` empty, a peg on `to` becomes pegs on `from` and `over`) is a jump
//! forward on the complemented board (holes and pegs swapped). So the positions from which one peg on `h` can be
//! reached are the complements of the positions reachable, by ordinary play, from the board full but for `h`: the
//! table is one enumeration from the complemented finish, keeping every level as a compact sorted set
//! (the crate's private `keyset` module). A question is then one lookup.

use crate::board::{Board, Symmetry};
use crate::count::CountError;
use crate::counter::NoCount;
use crate::enumerate::{Options, run};
use crate::kernel::Kernel;
use crate::keyset::{KeySet, radix_sort_dedup};
use crate::position::{Move, Position};
use crate::problem::Finish;

/// Every position of a board from which one peg can finish (on a hole, or anywhere), up to symmetry.
#[derive(Debug, Clone)]
pub struct FinishTable {
    board: Board,
    finish: Finish,
    kernel: Kernel,
    /// `levels[j]`: normal forms of the complements (with `j` pegs) of the finishable positions with
    /// `holes - j` pegs.
    levels: Vec<KeySet>,
    /// The position class the table is restricted to ([`FinishTable::build_for_class`]); `None`: every class.
    class: Option<u8>,
}

impl FinishTable {
    /// Build the table for `finish` on `board`, normalizing with the symmetries that fix the finish. This is a
    /// whole enumeration: about 23.5 million classes (about 70 MB) for the English board and a one-peg finish
    /// on the centre; bigger boards stop at `opts.max_memory` with [`CountError::MemoryLimit`].
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
        let kernel = Kernel::new(board, group);
        let full = board.full().bits();
        let starts: Vec<u64> = match finish {
            Finish::Anywhere => (0..board.holes()).map(|h| full ^ 1 << h).collect(),
            Finish::Hole(h) => vec![full ^ 1 << h],
        };
        let n = board.holes();
        let mut levels = vec![KeySet::default(); n + 1];
        let bits = n as u32;
        let opts = Options {
            max_levels: None,
            ..*opts
        };
        run::<NoCount>(&kernel, &starts, None, &opts, &mut |pegs, len, keys| {
            let mut v = Vec::with_capacity(len);
            v.extend(keys);
            radix_sort_dedup(&mut v, bits);
            levels[pegs as usize] = KeySet::from_sorted(&v);
            Ok(())
        })?;
        Ok(FinishTable {
            board: board.clone(),
            finish,
            kernel,
            levels,
            class: None,
        })
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
        let kernel = Kernel::new(board, &group);
        let full = board.full().bits();
        let starts: Vec<u64> = holes.holes().map(|h| full ^ 1 << h).collect();
        let n = board.holes();
        let mut levels = vec![KeySet::default(); n + 1];
        let bits = n as u32;
        let opts = Options {
            max_levels: None,
            ..*opts
        };
        if !starts.is_empty() {
            run::<NoCount>(&kernel, &starts, None, &opts, &mut |pegs, len, keys| {
                let mut v = Vec::with_capacity(len);
                v.extend(keys);
                radix_sort_dedup(&mut v, bits);
                levels[pegs as usize] = KeySet::from_sorted(&v);
                Ok(())
            })?;
        }
        Ok(FinishTable {
            board: board.clone(),
            finish: Finish::Anywhere,
            kernel,
            levels,
            class: Some(class),
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
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    /// Bytes of memory the table uses.
    pub fn bytes(&self) -> u64 {
        self.levels.iter().map(KeySet::bytes).sum()
    }

    /// The normal form of the complement of `pos` (the key looked up in the table).
    pub(crate) fn key(&self, pos: Position) -> u64 {
        self.kernel
            .normalize(!pos.bits() & self.board.full().bits())
            .0
    }

    /// The level set for positions with `pegs` pegs.
    pub(crate) fn level(&self, pegs: u32) -> Option<&KeySet> {
        self.levels
            .get(self.board.holes().checked_sub(pegs as usize)?)
    }

    /// Whether the finish can be reached from `pos`. One lookup: microseconds. For a position the table does
    /// not [cover](FinishTable::covers), `false`.
    pub fn can_finish(&self, pos: Position) -> bool {
        let pos = Position::from_bits(pos.bits() & self.board.full().bits());
        if pos.pegs() == 0 || !self.covers(pos) {
            return false;
        }
        self.level(pos.pegs())
            .is_some_and(|l| l.contains(self.key(pos)))
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

/// Radix sort of `(key, index, weight)` entries by key.
pub(crate) fn sort_entries(v: &mut Vec<(u64, u32, u32)>, bits: u32) {
    const R: u32 = 11;
    if v.len() < 1 << 12 {
        v.sort_unstable_by_key(|e| e.0);
        return;
    }
    let mut tmp = vec![(0u64, 0u32, 0u32); v.len()];
    let mut src = std::mem::take(v);
    for p in 0..bits.div_ceil(R).max(1) {
        let shift = p * R;
        let mut count = vec![0usize; 1 << R];
        for e in &src {
            count[(e.0 >> shift) as usize & ((1 << R) - 1)] += 1;
        }
        let mut sum = 0;
        for c in &mut count {
            let x = *c;
            *c = sum;
            sum += x;
        }
        for e in &src {
            let d = (e.0 >> shift) as usize & ((1 << R) - 1);
            tmp[count[d]] = *e;
            count[d] += 1;
        }
        std::mem::swap(&mut src, &mut tmp);
    }
    *v = src;
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
    /// positions, OEIS A112737) plus one.
    #[test]
    #[ignore = "a whole English enumeration: several seconds; run with --ignored"]
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
