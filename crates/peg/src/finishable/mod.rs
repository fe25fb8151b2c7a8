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

mod meet;
mod prune;
mod set;

pub(crate) use meet::complement;
pub use set::{Finishable, FinishableLevel, SolutionLevel, Solutions};
