//! Positions (one bit per hole) and moves (jumps).

use std::fmt;

/// A position: which holes hold a peg. Bit `h` is set when hole `h` has a peg.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Position(u64);

impl Position {
    /// The position without any peg.
    pub const EMPTY: Position = Position(0);

    /// A position from its bits (bit `h` = peg on hole `h`).
    pub const fn from_bits(bits: u64) -> Self {
        Position(bits)
    }

    /// The bits (bit `h` = peg on hole `h`).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether hole `hole` has a peg.
    pub const fn has_peg(self, hole: usize) -> bool {
        self.0 >> hole & 1 == 1
    }

    /// Number of pegs.
    pub const fn pegs(self) -> u32 {
        self.0.count_ones()
    }

    /// This position with a peg added on `hole`.
    pub const fn with_peg(self, hole: usize) -> Self {
        Position(self.0 | 1 << hole)
    }

    /// This position with the peg on `hole` removed.
    pub const fn without_peg(self, hole: usize) -> Self {
        Position(self.0 & !(1 << hole))
    }

    /// The holes with a peg, in increasing order.
    pub fn holes(self) -> impl Iterator<Item = usize> {
        let mut b = self.0;
        std::iter::from_fn(move || {
            if b == 0 {
                None
            } else {
                let h = b.trailing_zeros() as usize;
                b &= b - 1;
                Some(h)
            }
        })
    }

    /// The position after the jump `mv` (which must be legal; see [`Move::is_legal`]).
    pub const fn apply(self, mv: Move) -> Self {
        Position(self.0 ^ mv.mask())
    }

    /// The position before the jump `mv`, i.e. `mv` taken back (the inverse of [`Position::apply`]).
    pub const fn undo(self, mv: Move) -> Self {
        Position(self.0 ^ mv.mask())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:#x})", self.0)
    }
}

/// A jump: the peg on `from` jumps over the peg on `over` into the empty hole `to`; the peg on `over` is removed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Move {
    from: u8,
    over: u8,
    to: u8,
}

impl Move {
    /// A jump between holes (indices below 64).
    pub const fn new(from: usize, over: usize, to: usize) -> Self {
        Move {
            from: from as u8,
            over: over as u8,
            to: to as u8,
        }
    }

    /// The hole the jumping peg leaves.
    pub const fn from(self) -> usize {
        self.from as usize
    }

    /// The hole jumped over (its peg is removed).
    pub const fn over(self) -> usize {
        self.over as usize
    }

    /// The hole the peg lands in.
    pub const fn to(self) -> usize {
        self.to as usize
    }

    /// The three holes as a bit mask: applying the move XORs it into the position.
    pub const fn mask(self) -> u64 {
        1 << self.from | 1 << self.over | 1 << self.to
    }

    /// Whether the move is legal in `pos`: pegs on `from` and `over`, `to` empty.
    pub const fn is_legal(self, pos: Position) -> bool {
        let need = 1u64 << self.from | 1 << self.over;
        pos.0 & need == need && pos.0 >> self.to & 1 == 0
    }

    /// Whether the move can be taken back in `pos` (a peg on `to`, `from` and `over` empty).
    pub const fn is_undoable(self, pos: Position) -> bool {
        let need = 1u64 << self.from | 1 << self.over;
        pos.0 & need == 0 && pos.0 >> self.to & 1 == 1
    }
}
