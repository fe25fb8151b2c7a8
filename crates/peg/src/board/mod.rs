//! Boards: holes, lattice, moves, symmetries, hole names and the ASCII layout format.
//!
//! A board is a set of at most 64 holes on the square lattice (four jump directions) or the triangular lattice
//! (six jump directions). Holes are numbered `0..n` in reading order (top line first, left to right) and a
//! [`Position`](crate::Position) stores one bit per hole. The board's symmetry group is found from the layout itself: every
//! rotation or reflection of the lattice that maps the set of holes onto itself.

mod error;
mod layout;
mod symmetry;
#[cfg(test)]
mod tests;

pub use error::{LayoutError, NameError, UnknownBoard};
pub use layout::{Board, MAX_HOLES, builtin_names};
pub use symmetry::{Lattice, Symmetry};
