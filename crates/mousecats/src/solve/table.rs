//! The whole table of a board up to 10x10 ([`Solution`]), and the perfect index of its states.

use std::sync::{Arc, OnceLock};

use super::cell::Cell;
use super::counts::{SolveCounts, count_rows};
use super::kernel::{Kernel, level_sets};
use super::{MAX_TABLE_SIZE, SolveError, Value, cell_bytes};
use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::layout::Layout;
use crate::position::{Position, Rule};
use crate::size::BoardSize;
use crate::sized::SizedPosition;
use crate::word::Word;

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
    /// [`SolveError::TableTooLarge`] beyond [`MAX_TABLE_SIZE`] (use [`solve_layers`](super::solve_layers) there).
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
pub(super) fn index_in(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> usize {
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
pub(super) fn position_at(size: BoardSize, index: usize) -> Option<(u8, u128, Side)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{INDEX_LEN, STATES};

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
}
