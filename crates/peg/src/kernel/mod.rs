//! The hot inner kernel shared by the fast enumeration and the solver: images of a position under a symmetry
//! group, legal moves, and normal forms of successors.
//!
//! A symmetry is a permutation of bits, so it is linear under XOR: `g(p ^ m) = g(p) ^ g(m)`. The kernel computes
//! the images of a position once, and the images of every successor `p ^ m` as `images(p)[i] ^ images(m)[i]`
//! with the move masks' images precomputed. The normal form is the smallest image.
//!
//! Legal moves: the moves are split into *directions* (in each, a hole starts at most one move), so that the
//! legal moves of a direction are a mask over holes: a peg on the hole, a peg on its `over` neighbour, its
//! `to` neighbour empty, where the neighbours' bits are gathered from the position in one instruction.
//!
//! Two implementations: a portable one (byte lookup tables, scalar loops) and, on x86-64 CPUs with AVX-512
//! (F, BW, DQ, CD, VL, VBMI2, BITALG, VPOPCNTDQ), the [`avx512`] one: each image, and each direction's
//! neighbour bits, with a single bit-shuffle instruction; the normal forms of eight successors at a time; CPUs
//! with AVX2 but not those use the [`avx2`] one. All give identical results (tested here, and against the slow
//! reference in `tests/suite/fast_vs_reference.rs`).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
mod cpu;
mod portable;
mod tables;
#[cfg(test)]
mod tests;

pub(crate) use cpu::{has_avx2, has_avx512};
pub(crate) use tables::{Kernel, LANES, MAX_TESTS, MOVE_WORDS, MoveId};
