//! Won and lost states, counted over rows of cells.

use rayon::prelude::*;

use super::Value;
use super::cell::Cell;
use crate::word::Word;

/// How many states the side to move wins and loses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SideCounts {
    /// States the side to move wins.
    pub wins: u64,
    /// States the side to move loses.
    pub losses: u64,
    /// The longest game (in plies) from any of these states with best play.
    pub longest: u8,
}

impl SideCounts {
    fn plus(self, o: SideCounts) -> SideCounts {
        SideCounts {
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            longest: self.longest.max(o.longest),
        }
    }
}

/// Won and lost states over the whole state space, for each side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SolveCounts {
    /// States with the mouse to move.
    pub mouse_to_move: SideCounts,
    /// States with the cats to move.
    pub cats_to_move: SideCounts,
}

impl SolveCounts {
    pub(super) fn plus(self, o: SolveCounts) -> SolveCounts {
        SolveCounts {
            mouse_to_move: self.mouse_to_move.plus(o.mouse_to_move),
            cats_to_move: self.cats_to_move.plus(o.cats_to_move),
        }
    }
}

/// Count the states of rows `cells` (D cells per set) whose sets are `sets`.
pub(super) fn count_rows<const D: usize, W: Word, T: Cell>(
    sets: &[W],
    cells: &[T],
    parallel: bool,
) -> SideCounts {
    let one = |set: W, row: &[T]| {
        let set = set.to_u128();
        let mut c = SideCounts::default();
        for (d, &b) in row.iter().enumerate().take(D) {
            if set >> d & 1 != 0 {
                continue;
            }
            let v = b.value();
            match v {
                Value::Win(_) => c.wins += 1,
                Value::Loss(_) => c.losses += 1,
            }
            c.longest = c.longest.max(v.plies());
        }
        c
    };
    if parallel && sets.len() > 4096 {
        sets.par_iter()
            .zip(cells.par_chunks(D))
            .with_min_len(1024)
            .map(|(&s, r)| one(s, r))
            .reduce(SideCounts::default, SideCounts::plus)
    } else {
        sets.iter()
            .zip(cells.chunks(D))
            .fold(SideCounts::default(), |acc, (&s, r)| acc.plus(one(s, r)))
    }
}
