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
        })
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

    /// Whether the finish can be reached from `pos`. One lookup: microseconds.
    pub fn can_finish(&self, pos: Position) -> bool {
        let pos = Position::from_bits(pos.bits() & self.board.full().bits());
        if pos.pegs() == 0 {
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
    use super::*;
    use crate::solve::Solver;

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
