#![doc = include_str!("../README.md")]

pub mod board;
mod bytes;
pub mod count;
pub(crate) mod counter;
pub(crate) mod dense;
pub mod enumerate;
pub mod finish;
pub mod finishable;
pub mod game;
pub(crate) mod kernel;
pub(crate) mod level;
pub(crate) mod pagoda;
pub mod position;
pub mod problem;
pub mod reference;
pub mod shard;
pub mod solve;
pub mod spill;
pub(crate) mod step;

pub use board::{Board, Lattice, LayoutError, NameError, Symmetry};
pub use count::{Count, CountError, Level, Totals};
pub use finish::FinishTable;
pub use finishable::{Finishable, FinishableLevel, SolutionLevel, Solutions};
pub use game::{Game, MoveError};
pub use position::{Move, Position};
pub use problem::{Finish, Problem, ProblemError};
pub use solve::{SolveError, Solver, SolverOptions};

/// Whether this CPU has every feature the AVX-512 kernel of the enumeration needs (it is then used unless
/// [`enumerate::Options::portable`] is set); without them the portable kernel runs. Tests use it to say which
/// kernels they exercised.
pub fn has_avx512_kernel() -> bool {
    kernel::has_avx512()
}
