//! The exact solution of the whole game.
//!
//! Every placement of the mouse and the four cats on dark squares, with either side to move, is one state:
//! C(32,4) = 35,960 cat sets x 28 free squares for the mouse x 2 sides = 2,013,760 states (the same as
//! 32 x C(31,4) x 2). Each state gets one byte: whether the side to move wins, and in how many plies the
//! game ends with best play (the winner takes the shortest win, the loser the longest defence).
//!
//! **Indexing.** A state's index is perfect, not hashed: `side * 1,006,880 + slot(cats) * 28 + mouse`,
//! where `mouse` counts the free dark squares below the mouse and `slot(cats)` numbers the cat sets by the
//! sum of the cats' rows, then by the combinatorial (colex) rank of the set.
//!
//! **Order.** A cat move lowers the sum of the cats' rows by exactly one, so all sets of one row sum (a
//! "level") depend only on the level below, which is solved first. Within one cat set the cats-to-move
//! values need only mouse-to-move values of other (already solved) sets, and the mouse-to-move values need
//! only the same set's cats-to-move values: one pass, no iteration to a fixed point. The sets of one level
//! are independent and are solved in parallel with rayon.

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

    fn from_byte(b: u8) -> Value {
        if b & WIN != 0 {
            Value::Win(b & 0x7F)
        } else {
            Value::Loss(b)
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

/// Value byte: bit 7 set = the side to move wins; bits 0..7 = plies to the end.
const WIN: u8 = 0x80;

/// How good a successor value `v` (from the opponent's view) is for the mover: losses for the mover map to
/// 0..128 (longer is better), wins to 128..256 (shorter is better).
const GOOD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = if v & 0x80 != 0 {
            (v & 0x7F) as u8
        } else {
            255 - v as u8
        };
        v += 1;
    }
    t
};

/// The mover's value byte from the best [`GOOD`] over its moves.
const RESULT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut g = 0;
    while g < 256 {
        t[g] = if g >= 128 {
            WIN | (256 - g) as u8
        } else {
            (g + 1) as u8
        };
        g += 1;
    }
    t
};

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

/// Index of the mouse among the free dark squares of `set`.
#[inline]
fn mouse_slot(set: u32, m: u32) -> usize {
    (m - (set & ((1u32 << m) - 1)).count_ones()) as usize
}

/// The cats of a position as a mask of dark indices.
fn dark_mask(cats: Bitboard) -> u32 {
    cats.squares()
        .filter_map(|s| s.dark_index())
        .fold(0, |m, d| m | 1 << d)
}

/// The perfect index of a position, in `0..STATES`.
pub fn state_index(pos: &Position) -> usize {
    let ix = &*INDEX;
    let set = dark_mask(pos.cats());
    let m = u32::from(pos.mouse().dark_index().unwrap_or(0));
    let side = match pos.turn() {
        Side::Mouse => 0,
        Side::Cats => STATES_PER_SIDE,
    };
    side + ix.slot(set) * MOUSE_SQUARES + mouse_slot(set, m)
}

/// The position with perfect index `index`, or `None` if `index >= STATES`.
pub fn state_position(index: usize) -> Option<Position> {
    if index >= STATES {
        return None;
    }
    let ix = &*INDEX;
    let turn = if index >= STATES_PER_SIDE {
        Side::Cats
    } else {
        Side::Mouse
    };
    let i = index % STATES_PER_SIDE;
    let set = ix.set_of_slot[i / MOUSE_SQUARES];
    let mut k = i % MOUSE_SQUARES;
    let mut mouse = 0u8;
    for d in 0..32u8 {
        if set & 1 << d == 0 {
            if k == 0 {
                mouse = d;
                break;
            }
            k -= 1;
        }
    }
    let mut cats = Bitboard::EMPTY;
    for d in 0..32u8 {
        if set & 1 << d != 0 {
            cats = cats.with(Square::from_dark_index(d));
        }
    }
    Some(Position::from_parts(
        Square::from_dark_index(mouse),
        cats,
        turn,
    ))
}

/// Solve the states of one cat set: `cats_out` and `mouse_out` are its 28 cats-to-move and
/// mouse-to-move bytes; `mouse_done` holds the mouse-to-move bytes of all lower levels.
#[inline]
fn solve_set(
    ix: &SetIndex,
    set: u32,
    escape: bool,
    mouse_done: &[u8],
    cats_out: &mut [u8],
    mouse_out: &mut [u8],
) {
    // The cat moves: target square, resulting set, and the base of its bytes.
    let mut succ = [(0u32, 0u32, 0usize); 8];
    let mut n = 0;
    let mut rest = set;
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        let mut targets = CAT_DARK[c as usize] & !set;
        while targets != 0 {
            let t = targets.trailing_zeros();
            targets &= targets - 1;
            let s2 = set ^ (1 << c) ^ (1 << t);
            succ[n] = (t, s2, ix.slot(s2) * MOUSE_SQUARES);
            n += 1;
        }
    }
    let succ = &succ[..n];
    let top_row = (31 - set.leading_zeros()) / 4;

    // Cats to move.
    let mut free = !set;
    let mut i = 0;
    while free != 0 {
        let m = free.trailing_zeros();
        free &= free - 1;
        let row = m / 4;
        cats_out[i] = if row == 7 || (escape && row >= top_row) {
            0 // The mouse has already won: the cats to move have lost.
        } else {
            let mut best = 0u16;
            for &(t, s2, base) in succ {
                if t != m {
                    let v = mouse_done[base + mouse_slot(s2, m)];
                    best = best.max(u16::from(GOOD[v as usize]) + 1);
                }
            }
            if best == 0 {
                0 // Every cat is blocked: the cats lose.
            } else {
                RESULT[(best - 1) as usize]
            }
        };
        i += 1;
    }

    // Mouse to move.
    let mut free = !set;
    let mut i = 0;
    while free != 0 {
        let m = free.trailing_zeros();
        free &= free - 1;
        let row = m / 4;
        mouse_out[i] = if row == 7 || (escape && row >= top_row) {
            WIN // The mouse has already won.
        } else {
            let mut best = 0u16;
            let mut targets = MOUSE_DARK[m as usize] & !set;
            while targets != 0 {
                let t = targets.trailing_zeros();
                targets &= targets - 1;
                let v = cats_out[mouse_slot(set, t)];
                best = best.max(u16::from(GOOD[v as usize]) + 1);
            }
            if best == 0 {
                0 // Trapped.
            } else {
                RESULT[(best - 1) as usize]
            }
        };
        i += 1;
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
        let mut values = vec![0u8; STATES];
        let (mouse, cats) = values.split_at_mut(STATES_PER_SIDE);
        for level in 0..LEVELS {
            let (a, b) = (ix.level_start[level], ix.level_start[level + 1]);
            if a == b {
                continue;
            }
            let (done, rest) = mouse.split_at_mut(a * MOUSE_SQUARES);
            let done: &[u8] = done;
            let cur_m = &mut rest[..(b - a) * MOUSE_SQUARES];
            let cur_c = &mut cats[a * MOUSE_SQUARES..b * MOUSE_SQUARES];
            let sets = &ix.set_of_slot[a..b];
            if parallel && b - a > 64 {
                cur_c
                    .par_chunks_mut(MOUSE_SQUARES)
                    .zip(cur_m.par_chunks_mut(MOUSE_SQUARES))
                    .zip(sets.par_iter())
                    .with_min_len(32)
                    .for_each(|((c, m), &set)| solve_set(ix, set, escape, done, c, m));
            } else {
                for ((c, m), &set) in cur_c
                    .chunks_mut(MOUSE_SQUARES)
                    .zip(cur_m.chunks_mut(MOUSE_SQUARES))
                    .zip(sets)
                {
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

    /// Bytes of memory held by the table (one per state).
    pub fn memory_bytes(&self) -> usize {
        self.values.len()
    }

    /// The exact value of `pos` for the side to move.
    pub fn value(&self, pos: &Position) -> Value {
        Value::from_byte(self.values[state_index(pos)])
    }

    /// The exact value of the state with perfect index `index` (see [`state_index`]); `None` when out of
    /// range.
    pub fn value_at(&self, index: usize) -> Option<Value> {
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
            .map(|(m, g)| (m, Value::from_byte(RESULT[g as usize])))
            .collect()
    }

    fn move_values(&self, pos: &Position) -> Vec<(Move, u8)> {
        pos.legal_moves(self.rule)
            .iter()
            .map(|&m| {
                let v = self.values[state_index(&pos.make_move(m))];
                (m, GOOD[v as usize])
            })
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
        let count = |bytes: &[u8]| {
            let mut c = SideCounts::default();
            for &b in bytes {
                if b & WIN != 0 {
                    c.wins += 1;
                } else {
                    c.losses += 1;
                }
                c.longest = c.longest.max(b & 0x7F);
            }
            c
        };
        let (m, c) = self.values.split_at(STATES_PER_SIDE);
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
        for i in (0..STATES).step_by(997).chain([0, STATES - 1]) {
            let p = state_position(i).unwrap();
            assert_eq!(state_index(&p), i, "{p}");
        }
        assert!(state_position(STATES).is_none());
    }

    #[test]
    fn lookup_tables() {
        // Opponent lost in 0 -> win in 1; opponent wins in 5 -> loss in 6.
        assert_eq!(RESULT[GOOD[0] as usize], WIN | 1);
        assert_eq!(RESULT[GOOD[(WIN | 5) as usize] as usize], 6);
        assert!(GOOD[3] > GOOD[4], "a faster win is better");
        assert!(
            GOOD[(WIN | 9) as usize] > GOOD[(WIN | 8) as usize],
            "a longer defence is better"
        );
        assert!(GOOD[60] > GOOD[(WIN | 60) as usize]);
    }
}
