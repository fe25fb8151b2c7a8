//! The exact solution of the whole game.
//!
//! Every placement of the mouse and the four cats on dark squares, with either side to move, is one state:
//! C(32,4) = 35,960 cat sets x 28 free squares for the mouse x 2 sides = 2,013,760 states (the same as
//! 32 x C(31,4) x 2). Each state gets one byte: whether the side to move wins, and in how many plies the
//! game ends with best play (the winner takes the shortest win, the loser the longest defence).
//!
//! **Indexing.** A state's index is perfect, not hashed: `side * 1,150,720 + slot(cats) * 32 + mouse`,
//! where `mouse` is the mouse's dark-square number (0..32) and `slot(cats)` numbers the cat sets by the
//! sum of the cats' rows, then by their combinatorial (colex) rank. The four numbers of a set's own cat
//! squares are unused, so the table has 2,301,440 bytes for the 2,013,760 states; in exchange each cat set
//! is one aligned 32-byte row and the solver works on whole rows at once.
//!
//! **Order.** A cat move lowers the sum of the cats' rows by exactly one, so all sets of one row sum (a
//! "level") depend only on the level below, which is solved first. Within one cat set the cats-to-move
//! values need only mouse-to-move values of other (already solved) sets, and the mouse-to-move values need
//! only the same set's cats-to-move values: one pass, no iteration to a fixed point. The sets of one level
//! are independent and are solved in parallel with rayon.
//!
//! **Bytes.** Each byte says how good the state is for the player who just moved into it: `n` if the side
//! to move wins in `n` plies (small is bad for the one who moved in), `255 - n` if it loses in `n`. A side
//! to move then simply takes the largest byte among its successors, so a cat set's 28 cats-to-move values
//! are a byte-wise maximum of at most eight successor rows, and the mouse-to-move values a byte-wise
//! maximum of the cats-to-move row shifted four to six ways.

use std::sync::{Arc, LazyLock, OnceLock};

use rayon::prelude::*;

use crate::board::{Bitboard, CAT_MOVES, MOUSE_MOVES, Side, Square};
use crate::position::{Move, Position, Rule};

/// The number of sets of four cats on the 32 dark squares, C(32,4).
pub const CAT_SETS: usize = 35_960;
/// Free dark squares for the mouse beside four cats.
pub const MOUSE_SQUARES: usize = 28;
/// States with one side to move: 35,960 x 28 = 1,006,880.
pub const STATES_PER_SIDE: usize = CAT_SETS * MOUSE_SQUARES;
/// All states, both sides to move: 2,013,760.
pub const STATES: usize = 2 * STATES_PER_SIDE;
/// Table entries per side to move, including the unused ones: 35,960 x 32 = 1,150,720.
pub const INDEX_PER_SIDE: usize = CAT_SETS * 32;
/// The range of [`state_index`]: 2,301,440.
pub const INDEX_LEN: usize = 2 * INDEX_PER_SIDE;

/// Levels: the sum of the four cats' rows runs from 0 to 28.
const LEVELS: usize = 29;

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

    /// The value of a state from its byte.
    fn from_byte(b: u8) -> Value {
        if b < 128 {
            Value::Win(b)
        } else {
            Value::Loss(255 - b)
        }
    }

    /// The value for the player who moved into a state with byte `b`, counted from before that move.
    fn for_mover(b: u8) -> Value {
        match Value::from_byte(b) {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
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

/// The byte of a state whose side to move has won already.
const WON: u8 = 0;
/// The byte of a state whose side to move has lost already.
const LOST: u8 = 255;

/// A state's byte from the largest byte `g` among its successors: `g >= 128` means a successor where the
/// opponent loses in `255 - g`, so this state is a win in `256 - g`; otherwise the best is an opponent's
/// win in `g`, so this state is a loss in `g + 1`, byte `254 - g`.
#[inline(always)]
fn result(g: u8) -> u8 {
    254u8.wrapping_sub(g).wrapping_add((g >> 7) << 1)
}

/// Cat steps on dark indices.
const CAT_DARK: [u32; 32] = dark_table(&CAT_MOVES);
/// Mouse steps on dark indices.
const MOUSE_DARK: [u32; 32] = dark_table(&MOUSE_MOVES);

const fn dark_table(moves: &[u64; 64]) -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut d = 0;
    while d < 32 {
        let sq = Square::from_dark_index(d as u8).index() as usize;
        let mut bits = moves[sq];
        let mut out = 0u32;
        while bits != 0 {
            let to = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if let Some(sq) = Square::new(to)
                && let Some(td) = sq.dark_index()
            {
                out |= 1 << td;
            }
        }
        t[d] = out;
        d += 1;
    }
    t
}

/// The ordering of cat sets.
struct SetIndex {
    /// `binom[n][k]` = C(n, k).
    binom: [[u32; 5]; 32],
    /// Colex rank -> slot.
    slot_of_colex: Vec<u16>,
    /// Slot -> the set as a mask of dark indices.
    set_of_slot: Vec<u32>,
    /// First slot of each level (sum of cat rows), plus the end.
    level_start: [usize; LEVELS + 1],
}

impl SetIndex {
    fn build() -> SetIndex {
        let mut binom = [[0u32; 5]; 32];
        for (n, row) in binom.iter_mut().enumerate() {
            for (k, cell) in row.iter_mut().enumerate() {
                // C(n,k) = n (n-1) ... (n-k+1) / k!, built up exactly; 0 when n < k.
                let mut c: u64 = 1;
                for j in 0..k as u64 {
                    c = c * (n as u64).saturating_sub(j) / (j + 1);
                }
                *cell = c as u32;
            }
        }
        // All sets in colex order, then stably sorted by level.
        let mut sets: Vec<(u8, u32)> = Vec::with_capacity(CAT_SETS);
        for c3 in 3..32u32 {
            for c2 in 2..c3 {
                for c1 in 1..c2 {
                    for c0 in 0..c1 {
                        let mask = 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3;
                        sets.push((level_of(mask), mask));
                    }
                }
            }
        }
        sets.sort_by_key(|&(level, _)| level);
        let mut slot_of_colex = vec![0u16; CAT_SETS];
        let mut set_of_slot = vec![0u32; CAT_SETS];
        let mut level_start = [0usize; LEVELS + 1];
        let mut index = SetIndex {
            binom,
            slot_of_colex: Vec::new(),
            set_of_slot: Vec::new(),
            level_start,
        };
        for (slot, &(level, mask)) in sets.iter().enumerate() {
            slot_of_colex[index.colex(mask)] = slot as u16;
            set_of_slot[slot] = mask;
            level_start[level as usize + 1] = slot + 1;
        }
        for l in 1..=LEVELS {
            level_start[l] = level_start[l].max(level_start[l - 1]);
        }
        index.slot_of_colex = slot_of_colex;
        index.set_of_slot = set_of_slot;
        index.level_start = level_start;
        index
    }

    /// The colex rank of a 4-set of dark indices.
    #[inline]
    fn colex(&self, mut mask: u32) -> usize {
        let mut r = 0u32;
        let mut k = 1;
        while mask != 0 {
            let c = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            r += self.binom[c][k];
            k += 1;
        }
        r as usize
    }

    #[inline]
    fn slot(&self, mask: u32) -> usize {
        self.slot_of_colex[self.colex(mask)] as usize
    }
}

/// The sum of the rows of a set of dark indices.
fn level_of(mut mask: u32) -> u8 {
    let mut s = 0;
    while mask != 0 {
        s += mask.trailing_zeros() as u8 / 4;
        mask &= mask - 1;
    }
    s
}

static INDEX: LazyLock<SetIndex> = LazyLock::new(SetIndex::build);

/// The cats of a position as a mask of dark indices.
fn dark_mask(cats: Bitboard) -> u32 {
    cats.squares()
        .filter_map(|s| s.dark_index())
        .fold(0, |m, d| m | 1 << d)
}

/// The perfect index of a position, in `0..INDEX_LEN`.
pub fn state_index(pos: &Position) -> usize {
    let ix = &*INDEX;
    let set = dark_mask(pos.cats());
    let m = usize::from(pos.mouse().dark_index().unwrap_or(0));
    let side = match pos.turn() {
        Side::Mouse => 0,
        Side::Cats => INDEX_PER_SIDE,
    };
    side + ix.slot(set) * 32 + m
}

/// The position with perfect index `index`, or `None` if `index` is out of range or one of the unused
/// entries (the mouse's number names one of the cats' squares).
pub fn state_position(index: usize) -> Option<Position> {
    if index >= INDEX_LEN {
        return None;
    }
    let ix = &*INDEX;
    let turn = if index >= INDEX_PER_SIDE {
        Side::Cats
    } else {
        Side::Mouse
    };
    let i = index % INDEX_PER_SIDE;
    let set = ix.set_of_slot[i / 32];
    let m = (i % 32) as u8;
    if set >> m & 1 != 0 {
        return None;
    }
    let mut cats = Bitboard::EMPTY;
    for d in 0..32u8 {
        if set & 1 << d != 0 {
            cats = cats.with(Square::from_dark_index(d));
        }
    }
    Some(Position::from_parts(Square::from_dark_index(m), cats, turn))
}

/// Lane masks (0xFF where the step exists) for the mouse's steps that depend on the row's parity: on
/// even rows (0-based) the dark squares are on files A, C, E, G, and the steps to the left (-1 file)
/// change the dark number by +3 going up and -5 going down, except on file A; on odd rows the steps to the
/// right change it by +5 up and -3 down, except on file H.
const EVEN_LEFT: [u8; 32] = lanes(0);
const ODD_RIGHT: [u8; 32] = lanes(1);

/// 0xFF on the rows of `parity` (0 even, 1 odd), except file A on even rows and file H on odd rows.
const fn lanes(parity: usize) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut d = 0;
    while d < 32 {
        let edge = if parity == 0 { 0 } else { 3 };
        if (d / 4) % 2 == parity && d % 4 != edge {
            t[d] = 0xFF;
        }
        d += 1;
    }
    t
}

/// Lanes 0..32 of a 32-bit mask as bytes 0xFF / 0x00.
#[inline(always)]
fn mask_lanes(mask: u32) -> [u8; 32] {
    let mut t = [0u8; 32];
    for (d, v) in t.iter_mut().enumerate() {
        *v = 0u8.wrapping_sub((mask >> d & 1) as u8);
    }
    t
}

/// Solve the states of one cat set: `cats_out` and `mouse_out` are its 32-byte cats-to-move and
/// mouse-to-move rows; `mouse_done` holds the mouse-to-move rows of all lower levels.
#[inline]
fn solve_set(
    ix: &SetIndex,
    set: u32,
    escape: bool,
    mouse_done: &[u8],
    cats_out: &mut [u8],
    mouse_out: &mut [u8],
) {
    let free = !set;
    let top_row = (31 - set.leading_zeros()) / 4;
    // Mouse squares where the game is over before anyone moves: row 8, or escaped.
    let over = if escape {
        !0u32 << (4 * top_row)
    } else {
        0xF000_0000
    };
    let live = free & !over;

    // Cats to move: the largest successor byte over the cat moves. In a successor row the target square
    // holds a cat, so its byte is 0 (the smallest): a move onto the mouse's square never counts.
    let mut best = [WON; 32];
    let mut moves = 0u32;
    let mut targets_seen = 0u32;
    let mut rest = set;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        let mut targets = CAT_DARK[c as usize] & free;
        while targets != 0 {
            let t = targets.trailing_zeros();
            targets &= targets - 1;
            let s2 = set ^ (1 << c) ^ (1 << t);
            let base = ix.slot(s2) * 32;
            let row = &mouse_done[base..base + 32];
            for (b, &v) in best.iter_mut().zip(row) {
                *b = (*b).max(v);
            }
            moves += 1;
            targets_seen |= 1 << t;
        }
    }
    // The cats are stuck where every move they have goes to the mouse's square (or they have none).
    let stuck = match (moves, targets_seen.count_ones()) {
        (0, _) => !0u32,
        (_, 1) => targets_seen,
        _ => 0,
    };
    let cats_live = mask_lanes(live & !stuck);
    let cats_lost = mask_lanes(free & (over | stuck));
    for d in 0..32 {
        cats_out[d] = (result(best[d]) & cats_live[d]) | (LOST & cats_lost[d]);
    }

    // Mouse to move: the largest byte among the free squares it can step to. Occupied squares hold 0 in
    // `cats_out`, so they never count; a mouse with no free step at all is trapped.
    let mut pad = [0u8; 48];
    pad[8..40].copy_from_slice(&cats_out[..32]);
    let mut g = [0u8; 32];
    for d in 0..32 {
        let straight = pad[d + 12].max(pad[d + 4]);
        let left = pad[d + 11].max(pad[d + 3]) & EVEN_LEFT[d];
        let right = pad[d + 13].max(pad[d + 5]) & ODD_RIGHT[d];
        g[d] = straight.max(left).max(right);
    }
    let mut trapped = 0u32;
    let mut l = live;
    while l != 0 {
        let m = l.trailing_zeros();
        l &= l - 1;
        if MOUSE_DARK[m as usize] & free == 0 {
            trapped |= 1 << m;
        }
    }
    let mouse_live = mask_lanes(live & !trapped);
    let mouse_lost = mask_lanes(trapped);
    // Already-won squares (row 8, escaped) and the cats' own squares get 0: `WON`.
    for d in 0..32 {
        mouse_out[d] = (result(g[d]) & mouse_live[d]) | (LOST & mouse_lost[d]);
    }
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

/// Won and lost states over the whole state space, for each side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SolveCounts {
    /// States with the mouse to move.
    pub mouse_to_move: SideCounts,
    /// States with the cats to move.
    pub cats_to_move: SideCounts,
}

/// The exact value of every state under one rule.
///
/// ```
/// use mousecats::{Position, Rule, Side, Solution, Value};
/// let solution = Solution::solve(Rule::Row8);
/// let start = Position::start();
/// assert_eq!(solution.value(&start), Value::Loss(44)); // the cats win in 44 plies
/// let keep = solution.value_keeping_moves(&start);
/// assert!(!keep.is_empty());
/// ```
#[derive(Clone)]
pub struct Solution {
    rule: Rule,
    /// Mouse-to-move bytes, then cats-to-move bytes.
    values: Vec<u8>,
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution")
            .field("rule", &self.rule)
            .field("states", &self.values.len())
            .finish()
    }
}

impl Solution {
    /// Solve every state under `rule`, using rayon's threads for the cat sets of each level.
    pub fn solve(rule: Rule) -> Solution {
        Solution::solve_with(rule, true)
    }

    /// The solution for `rule`, solved once per process and shared: later calls return the same table.
    pub fn cached(rule: Rule) -> Arc<Solution> {
        static ROW8: OnceLock<Arc<Solution>> = OnceLock::new();
        static ESCAPE: OnceLock<Arc<Solution>> = OnceLock::new();
        let cell = match rule {
            Rule::Row8 => &ROW8,
            Rule::Escape => &ESCAPE,
        };
        Arc::clone(cell.get_or_init(|| Arc::new(Solution::solve(rule))))
    }

    /// Solve every state under `rule`, on rayon's threads if `parallel`, else on this thread only.
    pub fn solve_with(rule: Rule, parallel: bool) -> Solution {
        let ix = &*INDEX;
        let escape = rule == Rule::Escape;
        let mut values = vec![0u8; INDEX_LEN];
        let (mouse, cats) = values.split_at_mut(INDEX_PER_SIDE);
        for level in 0..LEVELS {
            let (a, b) = (ix.level_start[level], ix.level_start[level + 1]);
            if a == b {
                continue;
            }
            let (done, rest) = mouse.split_at_mut(a * 32);
            let done: &[u8] = done;
            let cur_m = &mut rest[..(b - a) * 32];
            let cur_c = &mut cats[a * 32..b * 32];
            let sets = &ix.set_of_slot[a..b];
            if parallel && b - a > 64 {
                cur_c
                    .par_chunks_mut(32)
                    .zip(cur_m.par_chunks_mut(32))
                    .zip(sets.par_iter())
                    .with_min_len(64)
                    .for_each(|((c, m), &set)| solve_set(ix, set, escape, done, c, m));
            } else {
                for ((c, m), &set) in cur_c.chunks_mut(32).zip(cur_m.chunks_mut(32)).zip(sets) {
                    solve_set(ix, set, escape, done, c, m);
                }
            }
        }
        Solution { rule, values }
    }

    /// The rule this solution is for.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Bytes of memory held by the table (one per index, [`INDEX_LEN`]).
    pub fn memory_bytes(&self) -> usize {
        self.values.len()
    }

    /// The exact value of `pos` for the side to move.
    pub fn value(&self, pos: &Position) -> Value {
        Value::from_byte(self.values[state_index(pos)])
    }

    /// The exact value of the state with perfect index `index` (see [`state_index`]); `None` when out of
    /// range or unused.
    pub fn value_at(&self, index: usize) -> Option<Value> {
        state_position(index)?;
        self.values.get(index).map(|&b| Value::from_byte(b))
    }

    /// The moves that keep the value: for the winner every move that wins as fast as possible, for the
    /// loser every move that holds out as long as possible. Empty when the game is over.
    pub fn value_keeping_moves(&self, pos: &Position) -> Vec<Move> {
        let scored = self.move_values(pos);
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
    pub fn moves_with_values(&self, pos: &Position) -> Vec<(Move, Value)> {
        self.move_values(pos)
            .into_iter()
            .map(|(m, g)| (m, Value::for_mover(g)))
            .collect()
    }

    fn move_values(&self, pos: &Position) -> Vec<(Move, u8)> {
        pos.legal_moves(self.rule)
            .iter()
            .map(|&m| (m, self.values[state_index(&pos.make_move(m))]))
            .collect()
    }

    /// A perfect move: the first of [`Solution::value_keeping_moves`], or `None` when the game is over.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        self.value_keeping_moves(pos).first().copied()
    }

    /// The game from `pos` to its end with both sides playing [`Solution::best_move`].
    pub fn perfect_line(&self, pos: &Position) -> Vec<Move> {
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
        let ix = &*INDEX;
        let count = |bytes: &[u8]| {
            let mut c = SideCounts::default();
            for (row, &set) in bytes.chunks_exact(32).zip(&ix.set_of_slot) {
                for (d, &b) in row.iter().enumerate() {
                    if set >> d & 1 != 0 {
                        continue;
                    }
                    let v = Value::from_byte(b);
                    match v {
                        Value::Win(_) => c.wins += 1,
                        Value::Loss(_) => c.losses += 1,
                    }
                    c.longest = c.longest.max(v.plies());
                }
            }
            c
        };
        let (m, c) = self.values.split_at(INDEX_PER_SIDE);
        SolveCounts {
            mouse_to_move: count(m),
            cats_to_move: count(c),
        }
    }
}

/// The number of distinct positions reachable from `start` by legal play under `rule`, counting `start`
/// itself and the final positions of games (play stops when a game is over).
///
/// Works level by level like the solver: for each cat set, the squares where the mouse can stand with the
/// mouse to move and with the cats to move are 32-bit masks; the mouse's moves fill the second from the
/// first inside the set, and each cat move carries the second into the next set's first.
pub fn reachable_positions(start: &Position, rule: Rule) -> u64 {
    let ix = &*INDEX;
    let escape = rule == Rule::Escape;
    let mut mouse_reach = vec![0u32; CAT_SETS];
    let mut cats_reach = vec![0u32; CAT_SETS];
    let start_set = dark_mask(start.cats());
    let start_slot = ix.slot(start_set);
    let m0 = 1u32 << start.mouse().dark_index().unwrap_or(0);
    match start.turn() {
        Side::Mouse => mouse_reach[start_slot] = m0,
        Side::Cats => cats_reach[start_slot] = m0,
    }
    let mut count = 0u64;
    // Cat moves lead to lower slots: go down from the start.
    for slot in (0..=start_slot).rev() {
        let set = ix.set_of_slot[slot];
        let top_row = (31 - set.leading_zeros()) / 4;
        // Mouse squares where the game is already over: row 8, or escaped under the escape rule.
        let over = if escape {
            !0u32 << (4 * top_row)
        } else {
            0xF000_0000
        };
        let mut live = mouse_reach[slot] & !over;
        let mut to = 0u32;
        while live != 0 {
            let m = live.trailing_zeros();
            live &= live - 1;
            to |= MOUSE_DARK[m as usize];
        }
        cats_reach[slot] |= to & !set;
        count += u64::from(mouse_reach[slot].count_ones() + cats_reach[slot].count_ones());
        let live = cats_reach[slot] & !over;
        if live == 0 {
            continue;
        }
        let mut rest = set;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            let mut targets = CAT_DARK[c as usize] & !set;
            while targets != 0 {
                let t = targets.trailing_zeros();
                targets &= targets - 1;
                let s2 = set ^ (1 << c) ^ (1 << t);
                mouse_reach[ix.slot(s2)] |= live & !(1 << t);
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection() {
        let ix = &*INDEX;
        assert_eq!(ix.level_start[LEVELS], CAT_SETS);
        let mut seen = vec![false; CAT_SETS];
        for c in 0..CAT_SETS {
            let s = ix.slot_of_colex[c] as usize;
            assert!(!seen[s]);
            seen[s] = true;
            assert_eq!(ix.colex(ix.set_of_slot[s]), c);
        }
        // Levels are contiguous and in order.
        for l in 0..LEVELS {
            for s in ix.level_start[l]..ix.level_start[l + 1] {
                assert_eq!(level_of(ix.set_of_slot[s]) as usize, l);
            }
        }
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
    fn result_bytes() {
        // Best successor: the opponent lost already -> win in 1; the opponent wins in 5 -> loss in 6.
        assert_eq!(Value::from_byte(result(LOST)), Value::Win(1));
        assert_eq!(Value::from_byte(result(5)), Value::Loss(6));
        assert_eq!(Value::from_byte(result(WON)), Value::Loss(1));
        assert_eq!(Value::from_byte(result(255 - 7)), Value::Win(8));
        assert_eq!(Value::from_byte(result(70)), Value::Loss(71));
        assert_eq!(Value::from_byte(result(255 - 70)), Value::Win(71));
        assert_eq!(Value::for_mover(LOST), Value::Win(1));
        assert_eq!(Value::for_mover(WON), Value::Loss(1));
    }
}
