//! A state's cell: a byte up to 10x10, a 16-bit word beyond (see the module notes of `solve`).

use std::ops::{BitAnd, BitOr};

use super::Value;

/// One state's cell: a byte or a 16-bit word (see the module notes).
pub(crate) trait Cell:
    Copy + Ord + Default + Send + Sync + BitAnd<Output = Self> + BitOr<Output = Self> + 'static
{
    /// The side to move has won already.
    const WON: Self;
    /// The side to move has lost already (all ones).
    const LOST: Self;
    /// The cell of a state whose best successor cell is `g`.
    fn result(g: Self) -> Self;
    /// The value the cell stands for.
    fn value(self) -> Value;
    /// Eight cells, all ones where `byte` has a bit.
    fn expand(byte: u8) -> [Self; 8];
}

impl Cell for u8 {
    const WON: u8 = 0;
    const LOST: u8 = u8::MAX;
    /// `g >= 128` is a successor where the opponent loses in `255 - g`: a win in `256 - g`; otherwise the
    /// opponent wins in `g`: a loss in `g + 1`, cell `254 - g`.
    #[inline(always)]
    fn result(g: u8) -> u8 {
        254u8.wrapping_sub(g).wrapping_add((g >> 7) << 1)
    }
    #[inline]
    fn value(self) -> Value {
        if self < 128 {
            Value::Win(self)
        } else {
            Value::Loss(255 - self)
        }
    }
    #[inline(always)]
    fn expand(byte: u8) -> [u8; 8] {
        EXPAND_BYTES[usize::from(byte)].to_le_bytes()
    }
}

impl Cell for u16 {
    const WON: u16 = 0;
    const LOST: u16 = u16::MAX;
    #[inline(always)]
    fn result(g: u16) -> u16 {
        0xFFFEu16.wrapping_sub(g).wrapping_add((g >> 15) << 1)
    }
    #[inline]
    fn value(self) -> Value {
        // No game on a board up to 16x16 lasts more than 241 plies.
        if self < 0x8000 {
            Value::Win(self.min(255) as u8)
        } else {
            Value::Loss((0xFFFF - self).min(255) as u8)
        }
    }
    #[inline(always)]
    fn expand(byte: u8) -> [u16; 8] {
        let b = EXPAND_BYTES[usize::from(byte)].to_le_bytes();
        b.map(|x| u16::from(x) * 0x0101)
    }
}

/// Lanes `0..D` of a set as all-ones / zero cells, eight lanes per table lookup.
#[inline(always)]
pub(super) fn lanes<const D: usize, T: Cell>(mask: u128) -> [T; D] {
    let mut t = [T::WON; D];
    for (k, chunk) in t.chunks_mut(8).enumerate() {
        let e = T::expand((mask >> (8 * k)) as u8);
        chunk.copy_from_slice(&e[..chunk.len()]);
    }
    t
}

/// Bit `j` of the index set: byte `j` of the entry is 0xFF.
const EXPAND_BYTES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u64;
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 != 0 {
                v |= 0xFF << (8 * j);
            }
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_cells() {
        // Best successor: the opponent lost already -> win in 1; the opponent wins in 5 -> loss in 6.
        assert_eq!(u8::result(u8::LOST).value(), Value::Win(1));
        assert_eq!(u8::result(5).value(), Value::Loss(6));
        assert_eq!(u8::result(u8::WON).value(), Value::Loss(1));
        assert_eq!(u8::result(255 - 7).value(), Value::Win(8));
        assert_eq!(u8::result(70).value(), Value::Loss(71));
        assert_eq!(u8::result(255 - 70).value(), Value::Win(71));
        assert_eq!(u16::result(u16::LOST).value(), Value::Win(1));
        assert_eq!(u16::result(200).value(), Value::Loss(201));
        assert_eq!(u16::result(u16::MAX - 200).value(), Value::Win(201));
        assert_eq!(u16::result(u16::WON).value(), Value::Loss(1));
        assert_eq!(u8::LOST.value().for_mover(), Value::Win(1));
        assert_eq!(u8::WON.value().for_mover(), Value::Loss(1));
    }
}
