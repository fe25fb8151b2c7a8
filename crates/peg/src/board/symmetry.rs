//! Lattices and their symmetries: the rotations and reflections a board's group is drawn from.

use std::fmt;

use crate::position::Position;

/// The lattice the holes sit on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lattice {
    /// Square lattice: jumps along rows and columns (four directions).
    Square,
    /// Triangular lattice: jumps along the three axes of the triangle (six directions). In a layout, holes of
    /// neighbouring rows are offset by one character and holes of one row are two characters apart.
    Triangular,
}

impl fmt::Display for Lattice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lattice::Square => "square",
            Lattice::Triangular => "triangular",
        })
    }
}

/// A symmetry of a board: a permutation of its holes that maps jumps onto jumps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Symmetry {
    pub(super) perm: Vec<u8>,
}

impl Symmetry {
    /// The identity on `n` holes.
    pub fn identity(n: usize) -> Self {
        // n <= 64, so every index fits in a u8.
        Self {
            perm: (0..n).map(|i| i as u8).collect(),
        }
    }

    /// The hole that `hole` is mapped to.
    pub fn map_hole(&self, hole: usize) -> usize {
        self.perm[hole] as usize
    }

    /// The image of a position: a peg on `h` becomes a peg on `map_hole(h)`.
    pub fn apply(&self, pos: Position) -> Position {
        let mut out = 0u64;
        for h in pos.holes() {
            out |= 1u64 << self.perm[h];
        }
        Position::from_bits(out)
    }

    /// The permutation as a slice: `perm()[h]` is the image of hole `h`.
    pub fn perm(&self) -> &[u8] {
        &self.perm
    }

    /// `self` after `other`: the symmetry `h -> self(other(h))`.
    pub fn compose(&self, other: &Symmetry) -> Symmetry {
        Symmetry {
            perm: other.perm.iter().map(|&h| self.perm[h as usize]).collect(),
        }
    }

    /// The inverse permutation.
    pub fn inverse(&self) -> Symmetry {
        let mut perm = vec![0u8; self.perm.len()];
        for (h, &img) in self.perm.iter().enumerate() {
            perm[img as usize] = h as u8;
        }
        Symmetry { perm }
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        self.perm.iter().enumerate().all(|(i, &p)| i == p as usize)
    }
}

/// The 8 linear maps of the square lattice in (x, y).
pub(super) fn square_maps() -> Vec<[[i32; 2]; 2]> {
    vec![
        [[1, 0], [0, 1]],
        [[0, -1], [1, 0]],
        [[-1, 0], [0, -1]],
        [[0, 1], [-1, 0]],
        [[-1, 0], [0, 1]],
        [[1, 0], [0, -1]],
        [[0, 1], [1, 0]],
        [[0, -1], [-1, 0]],
    ]
}

/// The 12 linear maps of the triangular lattice in axial coordinates (q, r).
pub(super) fn triangular_maps() -> Vec<[[i32; 2]; 2]> {
    // Rotation by 60 degrees in cube coordinates: (q, r, s) -> (-r, -s, -q) with s = -q - r,
    // i.e. q' = -r, r' = q + r. Reflection: (q, r, s) -> (q, s, r), i.e. q' = q, r' = -q - r.
    let rot = [[0, -1], [1, 1]];
    let refl = [[1, 0], [-1, -1]];
    let mul = |a: [[i32; 2]; 2], b: [[i32; 2]; 2]| {
        let mut c = [[0; 2]; 2];
        for i in 0..2 {
            for j in 0..2 {
                c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
            }
        }
        c
    };
    let mut out = Vec::new();
    let mut m = [[1, 0], [0, 1]];
    for _ in 0..6 {
        out.push(m);
        m = mul(rot, m);
    }
    for i in 0..6 {
        out.push(mul(out[i], refl));
    }
    out
}
