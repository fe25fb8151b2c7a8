//! The fast level-by-level enumeration.
//!
//! Each level (all positions with the same number of pegs) is stored as normal forms (the smallest image under
//! the symmetry group) with two path counters: the *class total* of the full tree (the number of move sequences
//! from the start to any position of the class) and the normal-tree count. Levels are kept in the crate's
//! private `level` module's format: normal forms turned into evenly spread *mixed keys* by a bijection, split
//! into partitions of consecutive mixed keys, each partition sorted and byte-packed (about 11 bytes a class at
//! the widest English levels, 41 MB for its 3.6 million classes).
//!
//! The next level is built in rounds by the level step (the crate's `step` module), which the in-memory run, the spilling
//! store ([`crate::spill`]) and the cluster ([`crate::shard`]) share. Counters are `u64`; a level where a class's
//! sum overflows is rebuilt with `u128` counters. Memory is bounded: before each level the memory it needs is
//! estimated and compared with the limit ([`Options::max_memory`]); the check is repeated after every round
//! with the tables' real size.

use crate::count::{Count, CountError, Level};
use crate::counter::Counter;
use crate::finishable::{Finishable, FinishableLevel};
use crate::kernel::Kernel;
use crate::position::Position;
use crate::problem::{Finish, Problem};
use crate::step::run;

pub use crate::step::{CounterWidth, Options, Progress, StatsSink, StepStats};

/// Enumerate the problem level by level with the fast engine.
pub fn count(problem: &Problem, opts: &Options<'_>) -> Result<Count, CountError> {
    match opts.counter_width {
        CounterWidth::U64 => count_with::<u64>(problem, opts),
        CounterWidth::U16 => count_with::<u16>(problem, opts),
        CounterWidth::U128 => count_with::<u128>(problem, opts),
    }
}

fn count_with<N: Counter>(problem: &Problem, opts: &Options<'_>) -> Result<Count, CountError> {
    let k = Kernel::new(problem.board(), problem.group());
    let finish_key = match problem.finish() {
        Finish::Anywhere => None,
        Finish::Hole(h) => Some(k.normalize(1u64 << h).0),
    };
    let starts = [problem.start().bits()];
    // Found first (a small part of the cost of the table), and dropped before the table is built.
    let rows = finishable_rows(problem, opts)?;
    let (mut levels, sf, sn) = run::<N>(&k, &starts, finish_key, opts, None)?;
    if let Some(rows) = rows {
        fill_finishable(&mut levels, &rows);
    }
    Count::from_levels(k.group_size, levels, sf, sn)
}

/// With a finish hole, the rows of the reachable positions from which it can still be reached, level by
/// level: the problem's finishable set ([`crate::Finishable`], found by meeting in the middle), or no row at
/// all when play cannot reach the finish's position class. `None` without a finish hole, or when only some
/// levels are counted.
///
/// # Errors
/// The finishable set's errors (the memory limit, a cancel).
pub(crate) fn finishable_rows(
    problem: &Problem,
    opts: &Options<'_>,
) -> Result<Option<Vec<FinishableLevel>>, CountError> {
    let Finish::Hole(h) = problem.finish() else {
        return Ok(None);
    };
    if opts.max_levels.is_some() {
        return Ok(None);
    }
    let board = problem.board();
    if board.position_class(problem.start()) != board.position_class(Position::EMPTY.with_peg(h)) {
        // Play keeps the position class: no reachable position can finish on `h`.
        return Ok(Some(Vec::new()));
    }
    Ok(Some(Finishable::build(problem, opts)?.levels().to_vec()))
}

/// Give each level its finishable positions and classes from `rows` (none where no row has its pegs).
pub(crate) fn fill_finishable(levels: &mut [Level], rows: &[FinishableLevel]) {
    for l in levels {
        let row = rows.iter().find(|r| r.pegs == l.pegs);
        l.finishable = Some(row.map_or(0, |r| r.positions));
        l.finishable_classes = Some(row.map_or(0, |r| r.classes));
    }
}
