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
//! [`Layout`]: a perfect index, no hashing. On 8x8 that is the numbering of the classic solver:
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

use std::ops::{BitAnd, BitOr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use thiserror::Error;

use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::layout::{Layout, SmallColex, rank_const};
use crate::position::{Position, Rule};
use crate::size::BoardSize;
use crate::sized::{SizedMove, SizedPosition};
use crate::word::{Geo, Word};

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
fn lanes<const D: usize, T: Cell>(mask: u128) -> [T; D] {
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

/// Room on both sides of a row for the mouse's steps off the board (at least N/2 + 2 cells).
const PAD: usize = 10;

/// Solves the sets of one level on a board with `H` dark squares per row and `D` in all, with sets of
/// dark squares in words `W` and cells `T`.
struct Kernel<const H: usize, const D: usize, W: Word, T: Cell> {
    geo: Geo<W>,
    layout: &'static Layout,
    count: &'static [u64],
    small: Option<&'static SmallColex>,
    rule: Rule,
    /// Lanes of even rows off file A: diagonal steps change the dark index by `H ± 1` there.
    even_left: [T; D],
    /// Lanes of odd rows off the last file.
    odd_right: [T; D],
}

impl<const H: usize, const D: usize, W: Word, T: Cell> Kernel<H, D, W, T> {
    fn new(size: BoardSize, rule: Rule) -> Self {
        let geo = size.geometry();
        debug_assert_eq!(geo.dark as usize, D);
        debug_assert_eq!(geo.half as usize, H);
        let layout = Layout::of(size);
        Kernel {
            geo: Geo::new(geo),
            layout,
            count: layout.count_table(),
            small: layout.small_colex(),
            rule,
            even_left: lanes(geo.even_not_left),
            odd_right: lanes(geo.odd_not_right),
        }
    }

    /// Solve one cat set: `cats_out` and `mouse_out` are its two rows; `prev` holds the mouse-to-move
    /// rows of the level below.
    #[inline]
    fn solve_set(&self, set: W, prev: &[T], cats_out: &mut [T], mouse_out: &mut [T]) {
        let geo = &self.geo;
        let free = geo.all & !set;
        // Mouse squares where the game is over before anyone moves.
        let over = geo.mouse_won(set, self.rule) & free;
        let live = free & !over;

        // Cats to move: the largest successor cell over the cat moves, gathered in the output row itself
        // (in memory, where each successor row is one vector maximum). In a successor row the target
        // square holds a cat, so its cell is 0 (the smallest): a move onto the mouse's square never counts.
        let Some(cats_out) = cats_out.first_chunk_mut::<D>() else {
            return;
        };
        cats_out.fill(T::WON);
        let mut moves = 0u32;
        let mut targets_seen = W::ZERO;
        for_each_cat_move::<H, W>(geo, set, |s2, t| {
            let base = rank_const::<H, D, W>(self.count, self.small, s2) * D;
            if let Some(row) = prev.get(base..).and_then(|r| r.first_chunk::<D>()) {
                for (b, &v) in cats_out.iter_mut().zip(row) {
                    *b = (*b).max(v);
                }
            }
            moves += 1;
            targets_seen = targets_seen | W::bit(t);
        });
        // The cats are stuck where every move they have goes to the mouse's square (or they have none).
        let stuck = match (moves, targets_seen.ones()) {
            (0, _) => !W::ZERO,
            (_, 1) => targets_seen,
            _ => W::ZERO,
        };
        let cats_live: [T; D] = lanes((live & !stuck).to_u128());
        let cats_lost: [T; D] = lanes((free & (over | stuck)).to_u128());
        for d in 0..D {
            cats_out[d] = (T::result(cats_out[d]) & cats_live[d]) | (T::LOST & cats_lost[d]);
        }

        // Mouse to move: the largest cell among the squares it can step to. The cats' squares hold 0 in
        // `cats_out`, so they never count; a mouse with no free step at all is trapped.
        let mut pad = [T::WON; 128 + 2 * PAD];
        pad[PAD..PAD + D].copy_from_slice(cats_out);
        // Trapped: no free square next to it (steps are symmetric).
        let trapped = live & !geo.neighbours(free);
        let mouse_live: [T; D] = lanes((live & !trapped).to_u128());
        let mouse_lost: [T; D] = lanes(trapped.to_u128());
        let Some(mouse_out) = mouse_out.first_chunk_mut::<D>() else {
            return;
        };
        // Already-won squares and the cats' own squares get 0: `WON`.
        for d in 0..D {
            let straight = pad[d + PAD + H].max(pad[d + PAD - H]);
            let left = pad[d + PAD + H - 1].max(pad[d + PAD - H - 1]) & self.even_left[d];
            let right = pad[d + PAD + H + 1].max(pad[d + PAD - H + 1]) & self.odd_right[d];
            let g = straight.max(left).max(right);
            mouse_out[d] = (T::result(g) & mouse_live[d]) | (T::LOST & mouse_lost[d]);
        }
    }

    /// Solve the sets `sets` of one level (in rank order) into their rows.
    fn solve_level(&self, sets: &[W], prev: &[T], cats: &mut [T], mouse: &mut [T], parallel: bool) {
        if parallel && sets.len() > 64 {
            cats.par_chunks_mut(D)
                .zip(mouse.par_chunks_mut(D))
                .zip(sets.par_iter())
                .with_min_len(64)
                .for_each(|((c, m), &set)| self.solve_set(set, prev, c, m));
        } else {
            for ((c, m), &set) in cats.chunks_mut(D).zip(mouse.chunks_mut(D)).zip(sets) {
                self.solve_set(set, prev, c, m);
            }
        }
    }
}

/// The sets of `level` in words `W`, borrowed from the layout's cache on small boards.
fn level_sets<W: Word>(layout: &Layout, level: usize) -> std::borrow::Cow<'_, [W]> {
    match W::cached(layout, level) {
        Some(sets) => std::borrow::Cow::Borrowed(sets),
        None => std::borrow::Cow::Owned(
            layout
                .level_sets(level)
                .into_iter()
                .map(W::from_u128)
                .collect(),
        ),
    }
}

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

/// Bytes per cell on a board of `size`.
pub fn cell_bytes(size: BoardSize) -> u64 {
    if size.n() <= 10 { 1 } else { 2 }
}

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
    fn plus(self, o: SolveCounts) -> SolveCounts {
        SolveCounts {
            mouse_to_move: self.mouse_to_move.plus(o.mouse_to_move),
            cats_to_move: self.cats_to_move.plus(o.cats_to_move),
        }
    }
}

/// Count the states of rows `cells` (D cells per set) whose sets are `sets`.
fn count_rows<const D: usize, W: Word, T: Cell>(
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

/// The exact value of every state of one board under one rule: the whole table, kept in memory (boards
/// up to [`MAX_TABLE_SIZE`]).
///
/// ```
/// use mousecats::{Position, Rule, Side, Solution, Value};
/// let solution = Solution::solve(Rule::FarRow);
/// let start = Position::start();
/// assert_eq!(solution.value(&start), Value::Loss(44)); // the cats win in 44 plies
/// let keep = solution.value_keeping_moves(&start);
/// assert!(!keep.is_empty());
/// ```
#[derive(Clone)]
pub struct Solution {
    size: BoardSize,
    rule: Rule,
    /// Mouse-to-move cells of every set, then cats-to-move cells.
    values: Vec<u8>,
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution")
            .field("size", &self.size)
            .field("rule", &self.rule)
            .field("cells", &self.values.len())
            .finish()
    }
}

impl Solution {
    /// Solve every state of the 8x8 board under `rule`, using rayon's threads for the cat sets of each
    /// level.
    pub fn solve(rule: Rule) -> Solution {
        Solution::solve_with(rule, true)
    }

    /// Solve every state of the 8x8 board under `rule`, on rayon's threads if `parallel`, else on this
    /// thread only.
    pub fn solve_with(rule: Rule, parallel: bool) -> Solution {
        Solution::build(BoardSize::EIGHT, rule, parallel)
    }

    /// Solve every state of `size` under `rule`.
    ///
    /// # Errors
    /// [`SolveError::TableTooLarge`] beyond [`MAX_TABLE_SIZE`] (use [`solve_layers`] there).
    pub fn solve_size(size: BoardSize, rule: Rule, parallel: bool) -> Result<Solution, SolveError> {
        if size > MAX_TABLE_SIZE {
            let layout = Layout::of(size);
            return Err(SolveError::TableTooLarge {
                size,
                bytes: u128::from(layout.sets())
                    * u128::from(size.dark_squares())
                    * 2
                    * u128::from(cell_bytes(size)),
            });
        }
        Ok(Solution::build(size, rule, parallel))
    }

    /// Bytes the whole table of `size` takes.
    pub fn table_bytes(size: BoardSize) -> u128 {
        u128::from(Layout::of(size).sets())
            * u128::from(size.dark_squares())
            * 2
            * u128::from(cell_bytes(size))
    }

    fn build(size: BoardSize, rule: Rule, parallel: bool) -> Solution {
        with_size!(size, |H, D, W, T| {
            let values = solve_table::<H, D, W>(size, rule, parallel);
            Solution { size, rule, values }
        })
    }

    /// The 8x8 solution for `rule`, solved once per process and shared: later calls return the same
    /// table.
    pub fn cached(rule: Rule) -> Arc<Solution> {
        match Solution::cached_size(BoardSize::EIGHT, rule) {
            Ok(s) => s,
            // 8x8 always has a table.
            Err(_) => Arc::new(Solution::solve(rule)),
        }
    }

    /// The solution of `size` under `rule`, solved once per process and shared.
    ///
    /// # Errors
    /// As [`Solution::solve_size`].
    pub fn cached_size(size: BoardSize, rule: Rule) -> Result<Arc<Solution>, SolveError> {
        static CACHE: [[OnceLock<Arc<Solution>>; 3]; 4] =
            [const { [const { OnceLock::new() }; 3] }; 4];
        if size > MAX_TABLE_SIZE {
            return Solution::solve_size(size, rule, true).map(Arc::new);
        }
        let cell = &CACHE[size.ordinal()][rule.ordinal()];
        Ok(Arc::clone(cell.get_or_init(|| {
            Arc::new(Solution::build(size, rule, true))
        })))
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The rule this solution is for.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Bytes of memory held by the table (one per index).
    pub fn memory_bytes(&self) -> usize {
        self.values.len()
    }

    /// The number of indices, used or not: 2 x cat sets x dark squares.
    pub fn index_len(&self) -> usize {
        self.values.len()
    }

    /// The perfect index of `pos` in this table.
    ///
    /// # Panics
    /// If `pos` is on another board size than the solution.
    pub fn index_of<P: BoardPosition>(&self, pos: &P) -> usize {
        assert_eq!(
            pos.board_size(),
            self.size,
            "a {} position asked of a {} solution",
            pos.board_size(),
            self.size
        );
        index_in(self.size, pos.mouse_dark(), pos.cats_dark(), pos.turn())
    }

    /// The exact value of `pos` for the side to move.
    ///
    /// # Panics
    /// If `pos` is on another board size than the solution.
    pub fn value<P: BoardPosition>(&self, pos: &P) -> Value {
        self.values[self.index_of(pos)].value()
    }

    /// The exact value of the state with perfect index `index`; `None` when out of range or unused.
    pub fn value_at(&self, index: usize) -> Option<Value> {
        position_at(self.size, index)?;
        self.values.get(index).map(|b| b.value())
    }

    /// The position with perfect index `index` in this table, or `None` if out of range or unused.
    pub fn position_at(&self, index: usize) -> Option<SizedPosition> {
        let (mouse, cats, turn) = position_at(self.size, index)?;
        SizedPosition::from_dark(self.size, mouse, cats, turn)
    }

    /// The moves that keep the value: for the winner every move that wins as fast as possible, for the
    /// loser every move that holds out as long as possible. Empty when the game is over.
    ///
    /// # Panics
    /// If `pos` is on another board size than the solution.
    pub fn value_keeping_moves<P: BoardPosition>(&self, pos: &P) -> Vec<P::Move> {
        let scored = self.move_cells(pos);
        let Some(best) = scored.iter().map(|&(_, g)| g).max() else {
            return Vec::new();
        };
        scored
            .into_iter()
            .filter(|&(_, g)| g == best)
            .map(|(m, _)| m)
            .collect()
    }

    /// Every legal move with the value of the position it leads to, from the point of view of the side
    /// that made it (so `Value::Win(n)` means that move wins in `n` plies counted from `pos`).
    ///
    /// # Panics
    /// If `pos` is on another board size than the solution.
    pub fn moves_with_values<P: BoardPosition>(&self, pos: &P) -> Vec<(P::Move, Value)> {
        self.move_cells(pos)
            .into_iter()
            .map(|(m, g)| (m, g.value().for_mover()))
            .collect()
    }

    fn move_cells<P: BoardPosition>(&self, pos: &P) -> Vec<(P::Move, u8)> {
        pos.legal_moves(self.rule)
            .iter()
            .map(|&m| (m, self.values[self.index_of(&pos.make_move(m))]))
            .collect()
    }

    /// A perfect move: the first of [`Solution::value_keeping_moves`], or `None` when the game is over.
    ///
    /// # Panics
    /// If `pos` is on another board size than the solution.
    pub fn best_move<P: BoardPosition>(&self, pos: &P) -> Option<P::Move> {
        self.value_keeping_moves(pos).first().copied()
    }

    /// The game from `pos` to its end with both sides playing [`Solution::best_move`].
    ///
    /// # Panics
    /// If `pos` is on another board size than the solution.
    pub fn perfect_line<P: BoardPosition>(&self, pos: &P) -> Vec<P::Move> {
        let mut line = Vec::new();
        let mut p = *pos;
        while let Some(m) = self.best_move(&p) {
            line.push(m);
            p = p.make_move(m);
        }
        line
    }

    /// Won and lost states over the whole state space, for each side to move.
    pub fn counts(&self) -> SolveCounts {
        let layout = Layout::of(self.size);
        let half = self.values.len() / 2;
        let (m, c) = self.values.split_at(half);
        let d = usize::from(self.size.dark_squares());
        let mut total = SolveCounts::default();
        with_size!(self.size, |H, D, W, T| {
            for level in 0..layout.levels() {
                let sets = level_sets::<W>(layout, level);
                let a = layout.level_start(level) as usize * d;
                let b = a + sets.len() * d;
                total = total.plus(SolveCounts {
                    mouse_to_move: count_rows::<D, W, u8>(&sets, &m[a..b], true),
                    cats_to_move: count_rows::<D, W, u8>(&sets, &c[a..b], true),
                });
            }
        });
        total
    }
}

/// Solve the whole table of a board with bytes as cells.
fn solve_table<const H: usize, const D: usize, W: Word>(
    size: BoardSize,
    rule: Rule,
    parallel: bool,
) -> Vec<u8> {
    let kernel = Kernel::<H, D, W, u8>::new(size, rule);
    let layout = kernel.layout;
    let per_side = layout.sets() as usize * D;
    let mut values = vec![0u8; 2 * per_side];
    let (mouse, cats) = values.split_at_mut(per_side);
    for level in 0..layout.levels() {
        let sets = level_sets::<W>(layout, level);
        let a = layout.level_start(level) as usize * D;
        let b = a + sets.len() * D;
        let prev_start = layout.level_start(level.saturating_sub(1)) as usize * D;
        let (done, rest) = mouse.split_at_mut(a);
        kernel.solve_level(
            &sets,
            &done[prev_start..],
            &mut cats[a..b],
            &mut rest[..b - a],
            parallel,
        );
    }
    values
}

/// The perfect index of a state of `size`.
fn index_in(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> usize {
    let layout = Layout::of(size);
    let d = usize::from(size.dark_squares());
    let slot = layout.level_start(layout.level_of(cats)) + layout.rank(cats);
    let side = match turn {
        Side::Mouse => 0,
        Side::Cats => layout.sets() as usize * d,
    };
    side + slot as usize * d + usize::from(mouse)
}

/// The state with perfect index `index` of `size`: mouse, cats and side to move.
fn position_at(size: BoardSize, index: usize) -> Option<(u8, u128, Side)> {
    let layout = Layout::of(size);
    let d = usize::from(size.dark_squares());
    let per_side = layout.sets() as usize * d;
    if index >= 2 * per_side {
        return None;
    }
    let turn = if index >= per_side {
        Side::Cats
    } else {
        Side::Mouse
    };
    let i = index % per_side;
    let slot = (i / d) as u64;
    let m = (i % d) as u8;
    let level = (0..layout.levels()).rfind(|&l| layout.level_start(l) <= slot)?;
    let cats = layout.unrank(level, slot - layout.level_start(level))?;
    if cats >> m & 1 != 0 {
        return None;
    }
    Some((m, cats, turn))
}

/// The perfect index of an 8x8 position, in `0..INDEX_LEN`.
pub fn state_index(pos: &Position) -> usize {
    index_in(
        BoardSize::EIGHT,
        BoardPosition::mouse_dark(pos),
        BoardPosition::cats_dark(pos),
        pos.turn(),
    )
}

/// The 8x8 position with perfect index `index`, or `None` if `index` is out of range or one of the
/// unused entries (the mouse's number names one of the cats' squares).
pub fn state_position(index: usize) -> Option<Position> {
    let (m, cats, turn) = position_at(BoardSize::EIGHT, index)?;
    Position::from_dark(BoardSize::EIGHT, m, cats, turn)
}

/// Where a level-by-level computation has got to, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// `"solve"` while the values are computed (lowest level first), `"reach"` while the positions
    /// reachable from the start are counted (from the start's level down).
    pub phase: &'static str,
    /// Levels finished in this phase.
    pub levels_done: usize,
    /// Levels this phase will do.
    pub levels: usize,
    /// Cat sets finished in this phase.
    pub sets_done: u64,
    /// Cat sets this phase will do.
    pub sets: u64,
}

/// Settings of [`solve_layers`].
#[derive(Clone, Copy, Default)]
pub struct LayerOptions<'a> {
    /// Solve each level's sets on rayon's threads.
    pub parallel: bool,
    /// Refuse to start if the solve would need more bytes than this.
    pub memory_limit: Option<u64>,
    /// Called after every level.
    pub progress: Option<&'a (dyn Fn(&SolveProgress) + Sync)>,
}

impl std::fmt::Debug for LayerOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LayerOptions")
            .field("parallel", &self.parallel)
            .field("memory_limit", &self.memory_limit)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// What [`solve_layers`] found: the start's value and the figures of the whole board.
#[derive(Clone, Debug)]
pub struct LayerReport {
    /// The board.
    pub size: BoardSize,
    /// The rule.
    pub rule: Rule,
    /// The start.
    pub start: SizedPosition,
    /// The start's value for the side to move.
    pub value: Value,
    /// Each legal first move with its value for the side that makes it.
    pub first_moves: Vec<(SizedMove, Value)>,
    /// Won and lost states of the whole board.
    pub counts: SolveCounts,
    /// Positions reachable from the start (the start included; play stops when a game is over).
    pub reachable: u64,
    /// All states: cat sets x free squares x 2 sides.
    pub states: u128,
    /// Cat sets.
    pub sets: u64,
    /// Levels.
    pub levels: usize,
    /// Cat sets of the widest level.
    pub widest_level: u64,
    /// Bytes of the largest buffers held at once (cells, level lists, reachability sets).
    pub peak_bytes: u64,
    /// Time spent solving.
    pub solve_time: Duration,
    /// Time spent counting the reachable positions.
    pub reach_time: Duration,
}

/// The bytes [`solve_layers`] holds at its peak on `size`: the cells of the level below (mouse to move)
/// and of the level being solved (both sides), that level's list of sets; or, while counting the
/// reachable positions, two levels of position sets. The larger of the two phases.
pub fn layered_memory_bytes(size: BoardSize) -> u64 {
    let layout = Layout::of(size);
    let d = u64::from(size.dark_squares());
    let cell = cell_bytes(size);
    let mut peak = 0;
    for level in 0..layout.levels() {
        let below = if level > 0 {
            layout.level_len(level - 1)
        } else {
            0
        };
        let here = layout.level_len(level);
        let solve = (below + 2 * here) * d * cell + here * 16;
        let reach = (2 * here + below) * 16 + here * 16 + below * 16;
        peak = peak.max(solve).max(reach);
    }
    peak
}

/// Solve `size` level by level under `rule`, keeping only two levels in memory, and report the value of
/// `start` (whose board gives the size), its first moves, the won and lost states of the whole board and
/// the positions reachable from `start`.
///
/// ```
/// use mousecats::{BoardSize, LayerOptions, Rule, SizedPosition, Value, solve_layers};
/// let size = BoardSize::new(6).unwrap();
/// let start = SizedPosition::start(size);
/// let r = solve_layers(&start, Rule::Region, &LayerOptions::default()).unwrap();
/// assert_eq!(r.value, Value::Win(21)); // the mouse wins in 21 plies (gilith/solve)
/// assert_eq!(r.reachable, 8_175);
/// ```
///
/// # Errors
/// [`SolveError::OutOfMemory`] if the solve would need more than `options.memory_limit` bytes.
pub fn solve_layers(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> Result<LayerReport, SolveError> {
    let size = start.size();
    let layout = Layout::of(size);
    let needed = layered_memory_bytes(size);
    if let Some(limit) = options.memory_limit
        && needed > limit
    {
        return Err(SolveError::OutOfMemory {
            size,
            needed,
            limit,
            widest: layout.widest_level(),
        });
    }
    let t0 = Instant::now();
    let (value, first_moves, counts, solve_peak) = with_size!(size, |H, D, W, T| {
        solve_levels::<H, D, W, T>(start, rule, options)
    });
    let solve_time = t0.elapsed();
    let t1 = Instant::now();
    let (reachable, reach_peak) = count_reachable(start, rule, options);
    Ok(LayerReport {
        size,
        rule,
        start: *start,
        value,
        first_moves,
        counts,
        reachable,
        states: layout.states(),
        sets: layout.sets(),
        levels: layout.levels(),
        widest_level: layout.widest_level(),
        peak_bytes: solve_peak.max(reach_peak),
        solve_time,
        reach_time: t1.elapsed(),
    })
}

type Solved = (Value, Vec<(SizedMove, Value)>, SolveCounts, u64);

/// `n` cells for a level's rows: the smallest buffer of `spare` that has room, cut to `n` and holding
/// whatever it held (`solve_set` writes every cell of a row before anything reads it); or, when none has
/// room, fresh ones (and the buffers too small are given back). Fresh memory costs a page fault per 4 KiB
/// written: reusing the buffers on the levels after the widest took the 12x12 solve's system time from about
/// 32 s to 19 s.
fn cells<T: Cell>(spare: &mut Vec<Vec<T>>, n: usize) -> Vec<T> {
    let fits = (0..spare.len())
        .filter(|&i| spare[i].len() >= n)
        .min_by_key(|&i| spare[i].len());
    match fits {
        Some(i) => {
            let mut b = spare.swap_remove(i);
            b.truncate(n);
            b.shrink_to_fit();
            b
        }
        None => {
            spare.clear();
            vec![T::WON; n]
        }
    }
}

fn solve_levels<const H: usize, const D: usize, W: Word, T: Cell>(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> Solved {
    let size = start.size();
    let kernel = Kernel::<H, D, W, T>::new(size, rule);
    let layout = kernel.layout;
    let start_set = start.cats_dark();
    let start_level = layout.level_of(start_set);
    let start_rank = layout.rank(start_set) as usize;
    let mut prev: Vec<T> = Vec::new();
    let mut counts = SolveCounts::default();
    let mut peak = 0u64;
    let mut sets_done = 0u64;
    let mut start_value = Value::Loss(0);
    let mut first = Vec::new();
    let cell = std::mem::size_of::<T>() as u64;
    // The cells of levels no longer needed, kept for the levels to come.
    let mut spare: Vec<Vec<T>> = Vec::new();
    for level in 0..layout.levels() {
        let sets = level_sets::<W>(layout, level);
        let n = sets.len() * D;
        let mut mouse = cells(&mut spare, n);
        let mut cats = cells(&mut spare, n);
        peak = peak.max((prev.len() + 2 * n) as u64 * cell + sets.len() as u64 * 16);
        kernel.solve_level(&sets, &prev, &mut cats, &mut mouse, options.parallel);
        counts = counts.plus(SolveCounts {
            mouse_to_move: count_rows::<D, W, T>(&sets, &mouse, options.parallel),
            cats_to_move: count_rows::<D, W, T>(&sets, &cats, options.parallel),
        });
        if level == start_level {
            let base = start_rank * D;
            let m = usize::from(start.mouse_dark());
            let own = match start.turn() {
                Side::Mouse => mouse[base + m],
                Side::Cats => cats[base + m],
            };
            start_value = own.value();
            // Each first move's successor: the same set (mouse moves) or the level below (cat moves).
            for &mv in start.legal_moves(rule).iter() {
                let next = start.make_move(mv);
                let s2 = next.cats_dark();
                let m2 = usize::from(next.mouse_dark());
                let cellv = match start.turn() {
                    Side::Mouse => cats[base + m2],
                    Side::Cats => prev[layout.rank(s2) as usize * D + m2],
                };
                first.push((mv, cellv.value().for_mover()));
            }
        }
        spare.push(std::mem::replace(&mut prev, mouse));
        spare.push(cats);
        sets_done += sets.len() as u64;
        if let Some(p) = options.progress {
            p(&SolveProgress {
                phase: "solve",
                levels_done: level + 1,
                levels: layout.levels(),
                sets_done,
                sets: layout.sets(),
            });
        }
    }
    (start_value, first, counts, peak)
}

/// The number of distinct positions reachable from `start` by legal play under `rule`, counting `start`
/// itself and the final positions of games (play stops when a game is over).
///
/// Works level by level like the solver: for each cat set, the squares where the mouse can stand with the
/// mouse to move and with the cats to move are sets of dark squares; the mouse's moves fill the second
/// from the first inside the set, and each cat move carries the second into a set of the level below.
pub fn reachable_positions<P: BoardPosition>(start: &P, rule: Rule) -> u64 {
    let Some(s) = SizedPosition::from_dark(
        start.board_size(),
        start.mouse_dark(),
        start.cats_dark(),
        start.turn(),
    ) else {
        return 0;
    };
    count_reachable(&s, rule, &LayerOptions::default()).0
}

/// Reachable positions from `start`, and the bytes held at the peak.
fn count_reachable(start: &SizedPosition, rule: Rule, options: &LayerOptions<'_>) -> (u64, u64) {
    with_size!(start.size(), |H, D, W, T| {
        count_reachable_k::<H, D, W>(start, rule, options)
    })
}

fn count_reachable_k<const H: usize, const D: usize, W: Word>(
    start: &SizedPosition,
    rule: Rule,
    options: &LayerOptions<'_>,
) -> (u64, u64) {
    let size = start.size();
    let geo = Geo::<W>::new(size.geometry());
    let layout = Layout::of(size);
    let count_table = layout.count_table();
    let small = layout.small_colex();
    let start_set = start.cats_dark();
    let top = layout.level_of(start_set);
    let len = |l: usize| layout.level_len(l) as usize;
    let mut mouse_reach = vec![W::ZERO; len(top)];
    let start_rank = layout.rank(start_set) as usize;
    // Cats-to-move positions come from mouse moves within a set, except the start's own.
    let mut start_cats = (start.turn() == Side::Cats).then_some(start_rank);
    if start.turn() == Side::Mouse {
        mouse_reach[start_rank] = W::bit(u32::from(start.mouse_dark()));
    }
    let start_bit = W::bit(u32::from(start.mouse_dark()));
    let mut count = 0u64;
    let mut peak = 0u64;
    let mut sets_done = 0u64;
    let total_sets: u64 = (0..=top).map(|l| layout.level_len(l)).sum();
    let word = std::mem::size_of::<W>() as u64;
    // Cat moves lead to the level below: go down from the start.
    for level in (0..=top).rev() {
        let sets = level_sets::<W>(layout, level);
        let below = if level > 0 { len(level - 1) } else { 0 };
        peak = peak.max((2 * sets.len() + 2 * below) as u64 * word);
        // The mouse's moves within each set: the cats-to-move positions reached, and those still live.
        let expand = |set: W, mr: W, cr: W| -> (W, W) {
            let free = geo.all & !set;
            let over = geo.mouse_won(set, rule) & free;
            let cr = cr | (geo.neighbours(mr & !over) & free);
            (cr, cr & !over)
        };
        let start_here = start_cats.take_if(|_| level == top);
        if options.parallel && sets.len() > 4096 && level > 0 {
            let next: Vec<[AtomicU64; 2]> = (0..below)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect();
            count += sets
                .par_iter()
                .zip(mouse_reach.par_iter())
                .enumerate()
                .with_min_len(256)
                .map(|(i, (&set, &mr))| {
                    let cr = if start_here == Some(i) {
                        start_bit
                    } else {
                        W::ZERO
                    };
                    if mr == W::ZERO && cr == W::ZERO {
                        return 0;
                    }
                    let (cr, live) = expand(set, mr, cr);
                    if live != W::ZERO {
                        for_each_cat_move::<H, W>(&geo, set, |s2, t| {
                            let bits = (live & !W::bit(t)).to_u128();
                            if bits != 0 {
                                let r = rank_const::<H, D, W>(count_table, small, s2);
                                if let Some(slot) = next.get(r) {
                                    slot[0].fetch_or(bits as u64, Ordering::Relaxed);
                                    slot[1].fetch_or((bits >> 64) as u64, Ordering::Relaxed);
                                }
                            }
                        });
                    }
                    u64::from(mr.ones() + cr.ones())
                })
                .sum::<u64>();
            mouse_reach = next
                .into_iter()
                .map(|[lo, hi]| {
                    W::from_u128(u128::from(lo.into_inner()) | u128::from(hi.into_inner()) << 64)
                })
                .collect();
        } else {
            let mut next = vec![W::ZERO; below];
            for (i, (&set, &mr)) in sets.iter().zip(&mouse_reach).enumerate() {
                let cr = if start_here == Some(i) {
                    start_bit
                } else {
                    W::ZERO
                };
                if mr == W::ZERO && cr == W::ZERO {
                    continue;
                }
                let (cr, live) = expand(set, mr, cr);
                count += u64::from(mr.ones() + cr.ones());
                if live == W::ZERO {
                    continue;
                }
                for_each_cat_move::<H, W>(&geo, set, |s2, t| {
                    if let Some(slot) = next.get_mut(rank_const::<H, D, W>(count_table, small, s2))
                    {
                        *slot = *slot | (live & !W::bit(t));
                    }
                });
            }
            mouse_reach = next;
        }
        sets_done += sets.len() as u64;
        if let Some(p) = options.progress {
            p(&SolveProgress {
                phase: "reach",
                levels_done: top + 1 - level,
                levels: top + 1,
                sets_done,
                sets: total_sets,
            });
        }
    }
    (count, peak)
}

/// Call `f(next set, target square)` for every cat move of the `H` cats `set` (ignoring the mouse), cats
/// lowest first.
#[inline(always)]
fn for_each_cat_move<const H: usize, W: Word>(geo: &Geo<W>, set: W, mut f: impl FnMut(W, u32)) {
    let free = geo.all & !set;
    let mut rest = set;
    for _ in 0..H {
        let c = rest.tz();
        rest = rest.clear_lowest();
        let mut targets = geo.cat_steps[c as usize & 127] & free;
        while targets != W::ZERO {
            let t = targets.tz();
            targets = targets.clear_lowest();
            f(set ^ W::bit(c) ^ W::bit(t), t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection() {
        let mut used = 0;
        for i in 0..INDEX_LEN {
            if let Some(p) = state_position(i) {
                assert_eq!(state_index(&p), i, "{p}");
                used += 1;
            }
        }
        assert_eq!(used, STATES);
        assert!(state_position(INDEX_LEN).is_none());
    }

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
