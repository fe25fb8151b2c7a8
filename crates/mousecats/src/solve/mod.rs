//! The exact solution of the whole game, on every board size.
//!
//! A *state* is a placement of the mouse and the N/2 cats on dark squares with either side to move. Each
//! state gets one cell: whether the side to move wins, and in how many plies the game ends with best play
//! (the winner takes the shortest win, the loser the longest defence).
//!
//! **Levels.** A cat move lowers the sum of the cats' rows (the *level*) by exactly one and nothing raises
//! it, so the states of one level depend only on the level below, which is solved first: no iteration to a
//! fixed point. Within one cat set, the cats-to-move values need only mouse-to-move values of the level
//! below, and the mouse-to-move values only the same set's cats-to-move values: one pass per set. The sets
//! of one level are independent and are solved in parallel with rayon.
//!
//! **Indexing.** Each cat set has one row of cells per side to move, one cell per dark square (the mouse's
//! square; the cats' own squares are unused), at `level_start + rank` in the numbering of
//! [`Layout`](crate::Layout): a perfect index, no hashing. On 8x8 that is the numbering of the classic solver:
//! `side * 1,150,720 + slot * 32 + mouse`.
//!
//! **Two layers.** [`Solution`] keeps every level (the table that perfect play and hints read; up to
//! 10x10, 212 MB). [`solve_layers`] keeps only the level below and the level being solved, which is what
//! makes 12x12 (about 2 x 10^10 states, at most 5% of them in one level) fit in memory.
//!
//! **Cells.** A cell says how good the state is for the player who just moved into it: `n` if the side to
//! move wins in `n` plies (small is bad for the one who moved in), `MAX - n` if it loses in `n`. A side to
//! move then simply takes the largest cell among its successors, so a set's cats-to-move row is a
//! lane-wise maximum of the successor rows, and its mouse-to-move row a lane-wise maximum of the
//! cats-to-move row shifted four ways. Cells are bytes up to 10x10, where no game lasts more than 91 plies;
//! from 12x12 on (games of up to N (N - 1) + 1 plies) they are 16-bit.
//!
//! The parts: [`Value`] and the figures of 8x8 here; `cell` (a state's cell, bytes or 16-bit words), `kernel`
//! (one level's cat sets solved from the level below), `counts` (won and lost states), `table` (the whole
//! table, [`Solution`], and its perfect index), `layers` (the level-by-level solve of the larger boards,
//! [`solve_layers`]), `reach` (the positions reachable from a start) and `options` (the settings and progress
//! of that level-by-level work).

use thiserror::Error;

use crate::board::Side;
use crate::size::BoardSize;

/// Call `$body` with the const parameters (`H`, `D`), the word type of a set of dark squares and the
/// cell type of `$size`.
macro_rules! with_size {
    ($size:expr, |$h:ident, $d:ident, $w:ident, $t:ident| $body:expr) => {
        match $size.n() {
            4 => with_size!(@ $h $d $w $t 2 8 u32 u8 $body),
            6 => with_size!(@ $h $d $w $t 3 18 u32 u8 $body),
            8 => with_size!(@ $h $d $w $t 4 32 u32 u8 $body),
            10 => with_size!(@ $h $d $w $t 5 50 u64 u8 $body),
            12 => with_size!(@ $h $d $w $t 6 72 u128 u16 $body),
            14 => with_size!(@ $h $d $w $t 7 98 u128 u16 $body),
            _ => with_size!(@ $h $d $w $t 8 128 u128 u16 $body),
        }
    };
    (@ $h:ident $d:ident $w:ident $t:ident $hv:literal $dv:literal $wt:ident $tt:ident $body:expr) => {{
        #[allow(dead_code)]
        const $h: usize = $hv;
        #[allow(dead_code)]
        const $d: usize = $dv;
        #[allow(dead_code)]
        type $w = $wt;
        #[allow(dead_code)]
        type $t = $tt;
        $body
    }};
}

mod cell;
mod counts;
mod kernel;
mod layers;
mod options;
mod reach;
mod table;

pub use counts::{SideCounts, SolveCounts};
pub use layers::{LayerReport, layered_memory_bytes, solve_layers};
pub use options::{LayerOptions, SolveProgress};
pub use reach::reachable_positions;
pub use table::{Solution, state_index, state_position};

/// The number of sets of four cats on the 32 dark squares of 8x8, C(32,4).
pub const CAT_SETS: usize = 35_960;
/// Free dark squares for the mouse beside four cats on 8x8.
pub const MOUSE_SQUARES: usize = 28;
/// States of 8x8 with one side to move: 35,960 x 28 = 1,006,880.
pub const STATES_PER_SIDE: usize = CAT_SETS * MOUSE_SQUARES;
/// All states of 8x8, both sides to move: 2,013,760.
pub const STATES: usize = 2 * STATES_PER_SIDE;
/// Table entries per side to move on 8x8, including the unused ones: 35,960 x 32 = 1,150,720.
pub const INDEX_PER_SIDE: usize = CAT_SETS * 32;
/// The range of [`state_index`]: 2,301,440.
pub const INDEX_LEN: usize = 2 * INDEX_PER_SIDE;

/// The largest board whose whole table [`Solution`] keeps (one byte per state).
pub const MAX_TABLE_SIZE: BoardSize = BoardSize::new_const(10);

/// The value of a position with best play, from the side to move's point of view: it wins or loses, and
/// the game ends after this many plies (half-moves). `Win(0)`/`Loss(0)` mean the game is already over.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u8),
    /// The side to move loses in this many plies.
    Loss(u8),
}

impl Value {
    /// The winning side, given the side to move.
    pub fn winner(self, to_move: Side) -> Side {
        match self {
            Value::Win(_) => to_move,
            Value::Loss(_) => to_move.opponent(),
        }
    }

    /// Plies to the end of the game with best play.
    pub fn plies(self) -> u8 {
        match self {
            Value::Win(n) | Value::Loss(n) => n,
        }
    }

    /// The value for the player who moved into a state of value `self`, counted from before that move.
    pub fn for_mover(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n.saturating_add(1)),
            Value::Loss(n) => Value::Win(n.saturating_add(1)),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

/// Bytes per cell on a board of `size`.
pub fn cell_bytes(size: BoardSize) -> u64 {
    if size.n() <= 10 { 1 } else { 2 }
}

/// Why a board could not be solved here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The whole table of this board is too large to keep (see [`MAX_TABLE_SIZE`]).
    #[error(
        "the whole table of the {size} board would take {bytes} bytes; tables are kept up to 10x10 (solve larger boards level by level)"
    )]
    TableTooLarge {
        /// The board.
        size: BoardSize,
        /// Bytes the table would need.
        bytes: u128,
    },
    /// The level-by-level solve needs more memory than allowed.
    #[error(
        "solving the {size} board needs about {needed} of memory (its widest level has {widest} cat sets), more than the {limit} available"
        , needed = human_bytes(*needed), limit = human_bytes(*limit)
    )]
    OutOfMemory {
        /// The board.
        size: BoardSize,
        /// Bytes needed.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
        /// Cat sets of the widest level.
        widest: u64,
    },
}

/// Bytes in words, for messages, in binary units: `1.5 GiB`, `312 MiB`.
pub fn human_bytes(b: u64) -> String {
    let v = b as f64;
    let unit = |shift: i32| v / f64::powi(2.0, shift);
    if b >= 1 << 40 {
        format!("{:.1} TiB", unit(40))
    } else if b >= 1 << 30 {
        format!("{:.1} GiB", unit(30))
    } else if b >= 1 << 20 {
        format!("{:.1} MiB", unit(20))
    } else {
        format!("{:.1} KiB", unit(10))
    }
}
