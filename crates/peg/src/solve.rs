//! Solutions: a beam search first, then a complete depth-first search with pruning; fast even where full
//! enumeration is slow.
//!
//! The beam search keeps, level by level, the few thousand most promising positions (pegs near the centre and
//! next to other pegs); it finds the classical games of the bigger boards (Wiegleb's 45 holes, the diamond) in a
//! fraction of a second, where depth-first search alone could take hours. It cannot prove that there is no
//! solution; when it finds none, the depth-first search decides.
//!
//! A [`Solver`] is made for one board and one finish and answers any number of questions about positions of that
//! board: can one peg still finish (on the hole, or anywhere) from here, and how. It prunes with:
//! - the *position class* (an invariant of play; [`Board::position_class`]): positions of another class than the
//!   finish are rejected at once;
//! - a *pagoda function* (a weight per hole such that no jump increases the total weight of the pegs), here
//!   `s^d` with `d` the lattice distance to the finish hole and `s = (sqrt 5 - 1) / 2`: a position whose weight is
//!   below the finish's cannot reach it;
//! - a *table of finishable positions* near the end: all positions with few pegs from which the finish can be
//!   reached, built backwards from the finish when the solver is made;
//! - a *table of dead positions*: every position the search proved hopeless, up to symmetry, kept between
//!   questions (so asking again along a game is fast).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Board, Symmetry};
use crate::count::{CountError, fmt_bytes};
use crate::finish::FinishTable;
use crate::kernel::Kernel;
use crate::position::{Move, Position};
use crate::problem::Finish;
use crate::step::Options;

/// A hasher for `u64` keys that are already well spread (positions): one multiplication.
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ x >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 32;
    }
}

pub(crate) type FastSet = HashSet<u64, BuildHasherDefault<FastHasher>>;

/// Why a search stopped without an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The table of dead positions reached its memory limit.
    #[error(
        "the search was stopped after {nodes} positions: its table of dead positions reached the memory limit of {}",
        fmt_bytes(*.limit)
    )]
    MemoryLimit {
        /// Positions examined.
        nodes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The search examined its allowed number of positions without an answer.
    #[error("the search was stopped after {nodes} positions without an answer")]
    NodeLimit {
        /// Positions examined.
        nodes: u64,
    },
    /// The flag of [`Solver::stop_handle`] was set (a time limit, say).
    #[error("the search was stopped after {nodes} positions without an answer (asked to stop)")]
    Stopped {
        /// Positions examined by all searches so far.
        nodes: u64,
    },
}

/// Positions examined between two looks at the stop flag: a few hundred microseconds of search.
const STOP_CHECK: u64 = 1 << 12;

/// Settings of a [`Solver`].
#[derive(Debug, Clone, Copy)]
pub struct SolverOptions {
    /// Most bytes the tables may use.
    pub max_memory: u64,
    /// Stop growing the backward table of finishable positions at about this many entries.
    pub table_entries: usize,
    /// Give up a question after examining this many positions ([`SolveError::NodeLimit`]).
    pub max_nodes: Option<u64>,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            max_memory: 1 << 30,
            table_entries: 2_000_000,
            max_nodes: None,
        }
    }
}

/// Bytes per entry of a hash set of `u64` (key, control byte, load factor).
const SET_ENTRY_BYTES: u64 = 20;

/// Answers "can one peg still finish from here, and how" for one board and one finish.
#[derive(Debug, Clone)]
pub struct Solver {
    board: Board,
    finish: Finish,
    kernel: Kernel,
    /// Classes a finished position can have.
    finish_classes: Vec<u8>,
    /// Pagoda weights scaled to integers, rounded up, and the finish's weight rounded down.
    pagoda: Option<(Vec<u64>, u64)>,
    /// `table[k]`: normal forms of the positions with `k` pegs from which the finish can be reached. Built at
    /// the first question that passes the position-class test (empty until then), so that a question refused
    /// by its class is answered at once.
    table: Vec<FastSet>,
    dead: FastSet,
    options: SolverOptions,
    nodes: u64,
    /// Nodes at the start of the current question.
    question_start: u64,
    /// The complete table, when one is attached: questions are then lookups.
    complete: Option<Arc<FinishTable>>,
    /// For the beam search's score, per hole: its neighbours (holes one step away along a line of jumps) and
    /// its lattice distance to the board's centre (the standard vacancy).
    neighbours: Vec<u64>,
    distance: Vec<u32>,
    /// Positions (bits) whose beam searches found nothing: a question asked again (after a node limit, say)
    /// goes straight on with the depth-first search.
    beam_failed: FastSet,
    /// Set from elsewhere to stop the current question ([`Solver::stop_handle`]).
    stop: Arc<AtomicBool>,
}

impl Solver {
    /// A solver with default settings.
    pub fn new(board: &Board, finish: Finish) -> Solver {
        Solver::with_options(board, finish, SolverOptions::default())
    }

    /// A solver with the given settings.
    pub fn with_options(board: &Board, finish: Finish, options: SolverOptions) -> Solver {
        let group: Vec<Symmetry> = match finish {
            Finish::Anywhere => board.symmetries().to_vec(),
            Finish::Hole(h) => board.stabilizer(Position::EMPTY.with_peg(h)),
        };
        let kernel = Kernel::new(board, &group);
        let finish_classes = finish.classes(board);
        let pagoda = match finish {
            Finish::Anywhere => None,
            Finish::Hole(h) => Some(distance_pagoda(board, h)),
        };
        let mut neighbours = vec![0u64; board.holes()];
        for m in board.moves() {
            neighbours[m.from()] |= 1 << m.over();
        }
        // Aimed at the board's centre whatever the finish: pegs drawn to an edge finish early get stranded, and the
        // pagoda already keeps the search near the finish.
        let centre = board.default_vacancy();
        let distance = (0..board.holes())
            .map(|h| lattice_distance(board, h, centre))
            .collect();

        Solver {
            board: board.clone(),
            finish,
            kernel,
            finish_classes,
            pagoda,
            table: Vec::new(),
            dead: FastSet::default(),
            options,
            nodes: 0,
            question_start: 0,
            complete: None,
            neighbours,
            distance,
            beam_failed: FastSet::default(),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A flag that, once set (from another thread: a timer, say), stops the question being answered within a
    /// few milliseconds with [`SolveError::Stopped`], and every later question at once until it is cleared. What
    /// the searches learnt so far (dead positions, failed beam searches) is kept. The same flag can be given to
    /// [`Options::cancel`] to stop the building of a complete table.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// [`SolveError::Stopped`] if the stop flag is set.
    fn check_stop(&self) -> Result<(), SolveError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(SolveError::Stopped { nodes: self.nodes })
        } else {
            Ok(())
        }
    }

    /// A solver with the complete table of finishable positions ([`FinishTable`]): every question is then a
    /// lookup, microseconds for any position. Building it is a whole enumeration (on the English board with the
    /// finish on the centre: about 1.3 s on two cores and 130 MB at the peak); boards too big for `max_memory` give [`CountError::MemoryLimit`].
    pub fn complete(board: &Board, finish: Finish, max_memory: u64) -> Result<Solver, CountError> {
        let opts = Options {
            max_memory: Some(max_memory),
            ..Options::default()
        };
        let table = FinishTable::build(board, finish, &opts)?;
        // The search's own table is not needed: keep it to the finish itself.
        let options = SolverOptions {
            max_memory,
            table_entries: 0,
            max_nodes: None,
        };
        let mut s = Solver::with_options(board, finish, options);
        s.complete = Some(Arc::new(table));
        Ok(s)
    }

    /// Attach a complete table (built elsewhere, for example in a background thread) for the same board and
    /// finish; returns `false` (and attaches nothing) if it is for another board or finish, or covers only one
    /// position class ([`FinishTable::build_for_class`]).
    pub fn attach(&mut self, table: Arc<FinishTable>) -> bool {
        if table.finish() != self.finish
            || table.board().moves() != self.board.moves()
            || !table.covers_all()
        {
            return false;
        }
        self.complete = Some(table);
        true
    }

    /// Whether a complete table is attached.
    pub fn is_complete(&self) -> bool {
        self.complete.is_some()
    }

    /// Build the backward table: level 1 is the finish, level k+1 the positions with a jump into level k. When
    /// stopped half way, the table is left empty (to be built again by the next question).
    fn build_table(&mut self) -> Result<(), SolveError> {
        let mut level1 = FastSet::default();
        for h in self.finish.holes(self.board.holes()) {
            level1.insert(self.norm(Position::EMPTY.with_peg(h)));
        }
        self.table = vec![FastSet::default(), level1];
        let mut total = 0usize;
        let moves = self.board.moves().to_vec();
        loop {
            let k = self.table.len() - 1;
            let last = &self.table[k];
            total += last.len();
            if total + last.len() * 4 > self.options.table_entries || k + 1 >= self.board.holes() {
                break;
            }
            let mut next = FastSet::default();
            for (i, &q) in last.iter().enumerate() {
                if (i as u64).is_multiple_of(STOP_CHECK) && self.stop.load(Ordering::Relaxed) {
                    self.table.clear();
                    return Err(SolveError::Stopped { nodes: self.nodes });
                }
                let q = Position::from_bits(q);
                for &m in &moves {
                    if m.is_undoable(q) {
                        next.insert(self.norm(q.undo(m)));
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            self.table.push(next);
        }
        Ok(())
    }

    #[inline]
    fn norm(&self, pos: Position) -> u64 {
        self.kernel.normalize(pos.bits()).0
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The finish.
    pub fn finish(&self) -> Finish {
        self.finish
    }

    /// Change the number of positions a question may examine ([`SolverOptions::max_nodes`]); what the searches
    /// so far learnt (dead positions, failed beam searches) is kept, so asking again goes on from there.
    pub fn set_max_nodes(&mut self, max_nodes: Option<u64>) {
        self.options.max_nodes = max_nodes;
    }

    /// Positions examined by all searches so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Bytes the solver's own tables hold, estimated from their entries as its memory limit is (a complete
    /// table it was given is shared, and not counted).
    pub fn memory_bytes(&self) -> u64 {
        let entries = self.table.iter().map(FastSet::len).sum::<usize>()
            + self.dead.len()
            + self.beam_failed.len();
        entries as u64 * SET_ENTRY_BYTES
    }

    /// Number of positions in the table of dead positions (up to symmetry).
    pub fn dead_positions(&self) -> usize {
        self.dead.len()
    }

    /// Largest number of pegs covered by the backward table (0 before the first question that needed it).
    pub fn table_pegs(&self) -> usize {
        self.table.len().saturating_sub(1)
    }

    /// Whether the finish can still be reached from `pos`.
    pub fn can_finish(&mut self, pos: Position) -> Result<bool, SolveError> {
        Ok(self.solve(pos)?.is_some())
    }

    /// A sequence of jumps from `pos` to the finish, or `None` when there is none.
    pub fn solve(&mut self, pos: Position) -> Result<Option<Vec<Move>>, SolveError> {
        let pos = Position::from_bits(pos.bits() & self.board.full().bits());
        if pos.pegs() == 0
            || !self
                .finish_classes
                .contains(&self.board.position_class(pos))
        {
            return Ok(None);
        }
        if let Some(t) = &self.complete {
            return Ok(t.solve(pos));
        }
        self.check_stop()?;
        if self.table.is_empty() {
            self.build_table()?;
        }
        if pos.pegs() as usize >= self.table.len() && !self.beam_failed.contains(&pos.bits()) {
            for width in BEAM_WIDTHS {
                if let Some(path) = self.beam(pos, width)? {
                    return Ok(Some(path));
                }
            }
            self.beam_failed.insert(pos.bits());
        }
        self.question_start = self.nodes;
        let mut path = Vec::new();
        if self.search(pos, &mut path)? {
            path.reverse();
            Ok(Some(path))
        } else {
            Ok(None)
        }
    }

    /// The beam search's score of a position (lower is more promising): pegs far from the finish, and pegs
    /// without a neighbouring peg (which need another peg to come to them), cost.
    fn score(&self, pos: Position) -> u32 {
        let bits = pos.bits();
        pos.holes()
            .map(|h| {
                let lone = u32::from(self.neighbours[h] & bits == 0);
                2 * self.distance[h] + lone
            })
            .sum()
    }

    /// Beam search: level by level, every jump from the `width` most promising positions (by [`Solver::score`],
    /// distinct up to symmetry, passing the pagoda and dead-position tests); stops with a solution as soon as a
    /// position of the backward table is reached. Fast where it works, but not complete: `None` says nothing.
    fn beam(&mut self, start: Position, width: usize) -> Result<Option<Vec<Move>>, SolveError> {
        let moves = self.board.moves().to_vec();
        // Each level: the position, the index of its parent in the level before, and the jump from there.
        let mut levels: Vec<Vec<(u64, u32, u16)>> = vec![vec![(start.bits(), 0, 0)]];
        let mut seen = FastSet::default();
        let mut candidates: Vec<(u32, u64, u32, u16)> = Vec::new();
        loop {
            let Some(current) = levels.last() else {
                return Ok(None);
            };
            candidates.clear();
            seen.clear();
            for (i, &(bits, _, _)) in current.iter().enumerate() {
                if i.is_multiple_of(64) {
                    self.check_stop()?;
                }
                let pos = Position::from_bits(bits);
                for (j, &m) in moves.iter().enumerate() {
                    if !m.is_legal(pos) {
                        continue;
                    }
                    self.nodes += 1;
                    let next = pos.apply(m);
                    let pegs = next.pegs() as usize;
                    if pegs < self.table.len() {
                        if !self.table[pegs].contains(&self.norm(next)) {
                            continue;
                        }
                        // The rest follows the table; then the jumps that led here, from the last back.
                        let mut path = Vec::new();
                        match self.search(next, &mut path) {
                            Ok(true) => {}
                            Err(e @ SolveError::Stopped { .. }) => return Err(e),
                            _ => continue,
                        }
                        path.push(m);
                        let mut at = i;
                        for level in levels.iter().skip(1).rev() {
                            let (_, parent, jump) = level[at];
                            path.push(moves[usize::from(jump)]);
                            at = parent as usize;
                        }
                        path.reverse();
                        return Ok(Some(path));
                    }
                    if !self.pagoda_ok(next) {
                        continue;
                    }
                    let key = self.norm(next);
                    if self.dead.contains(&key) || !seen.insert(key) {
                        continue;
                    }
                    candidates.push((self.score(next), next.bits(), i as u32, j as u16));
                }
            }
            if candidates.is_empty() {
                return Ok(None);
            }
            if candidates.len() > width {
                candidates.select_nth_unstable(width);
                candidates.truncate(width);
            }
            levels.push(candidates.iter().map(|&(_, b, p, j)| (b, p, j)).collect());
        }
    }

    fn pagoda_ok(&self, pos: Position) -> bool {
        match &self.pagoda {
            None => true,
            Some((w, need)) => pos.holes().map(|h| w[h]).sum::<u64>() >= *need,
        }
    }

    fn search(&mut self, pos: Position, path: &mut Vec<Move>) -> Result<bool, SolveError> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_CHECK) {
            self.check_stop()?;
        }
        if let Some(max) = self.options.max_nodes
            && self.nodes - self.question_start > max
        {
            return Err(SolveError::NodeLimit {
                nodes: self.nodes - self.question_start,
            });
        }
        let pegs = pos.pegs() as usize;
        if pegs < self.table.len() {
            if !self.table[pegs].contains(&self.norm(pos)) {
                return Ok(false);
            }
            if pegs == 1 {
                return Ok(true);
            }
            // In the table: follow any jump that stays in it.
            for m in self.board.legal_moves(pos) {
                let next = pos.apply(m);
                if self.table[pegs - 1].contains(&self.norm(next)) {
                    let found = self.search(next, path)?;
                    debug_assert!(found);
                    path.push(m);
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        if !self.pagoda_ok(pos) {
            return Ok(false);
        }
        let key = self.norm(pos);
        if self.dead.contains(&key) {
            return Ok(false);
        }
        let mut moves = self.board.legal_moves(pos);
        if let Some((w, _)) = &self.pagoda {
            // Jumps that lose the least pagoda weight first: towards the finish.
            moves.sort_by_key(|m| {
                w[m.from()] + w[m.over()] - w[m.to()].min(w[m.from()] + w[m.over()])
            });
        }
        for m in moves {
            if self.search(pos.apply(m), path)? {
                path.push(m);
                return Ok(true);
            }
        }
        if self.dead.len() as u64 * SET_ENTRY_BYTES >= self.options.max_memory {
            return Err(SolveError::MemoryLimit {
                nodes: self.nodes,
                limit: self.options.max_memory,
            });
        }
        self.dead.insert(key);
        Ok(false)
    }
}

/// Beam widths tried, in order, before the complete depth-first search.
const BEAM_WIDTHS: [usize; 2] = [1 << 10, 1 << 14];

/// The number of lattice steps between two holes.
pub(crate) fn lattice_distance(board: &Board, a: usize, b: usize) -> u32 {
    let (ax, ay) = board.lattice_coords(a);
    let (bx, by) = board.lattice_coords(b);
    let (dx, dy) = (ax - bx, ay - by);
    let d = match board.lattice() {
        crate::board::Lattice::Square => dx.abs() + dy.abs(),
        // Axial coordinates: the third coordinate is -q-r.
        crate::board::Lattice::Triangular => dx.abs().max(dy.abs()).max((dx + dy).abs()),
    };
    d.unsigned_abs()
}

/// The pagoda `s^d` (`d` = lattice distance to `h`, `s` = (sqrt 5 - 1) / 2), scaled to integers: peg weights
/// rounded up and the finish weight (1) rounded down, so that the test "total < finish" stays sound.
fn distance_pagoda(board: &Board, h: usize) -> (Vec<u64>, u64) {
    const SCALE: f64 = (1u64 << 40) as f64;
    let s = (5f64.sqrt() - 1.0) / 2.0;
    let (hx, hy) = board.lattice_coords(h);
    let w = (0..board.holes())
        .map(|x| {
            let (cx, cy) = board.lattice_coords(x);
            let (dx, dy) = (cx - hx, cy - hy);
            let d = match board.lattice() {
                crate::board::Lattice::Square => dx.abs() + dy.abs(),
                // Axial coordinates: the third coordinate is -q-r.
                crate::board::Lattice::Triangular => dx.abs().max(dy.abs()).max((dx + dy).abs()),
            };
            // A little above the true weight, so rounding errors only weaken the test.
            (s.powi(d) * SCALE * (1.0 + 1e-9)).ceil() as u64 + 1
        })
        .collect();
    (w, (SCALE * (1.0 - 1e-9)).floor() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(mut pos: Position, moves: &[Move]) -> Position {
        for &m in moves {
            assert!(m.is_legal(pos));
            pos = pos.apply(m);
        }
        pos
    }

    #[test]
    fn solves_the_english_central_game() {
        let b = Board::english();
        let d4 = b.parse_hole("d4").unwrap();
        let mut s = Solver::new(&b, Finish::Hole(d4));
        let moves = s.solve(b.default_start()).unwrap().unwrap();
        assert_eq!(moves.len(), 31);
        let end = replay(b.default_start(), &moves);
        assert_eq!(end, Position::EMPTY.with_peg(d4));
    }

    #[test]
    fn a_search_given_more_nodes_goes_on() {
        // Pegs that can jump but never come together, searched without the backward table: the beam search
        // fails, the depth-first search gives up after one node, then proves it with the limit lifted.
        let b = Board::english();
        let h = |n: &str| b.parse_hole(n).unwrap();
        let apart = Position::EMPTY
            .with_peg(h("a3"))
            .with_peg(h("b3"))
            .with_peg(h("g5"))
            .with_peg(h("c7"));
        let options = SolverOptions {
            table_entries: 0,
            max_nodes: Some(1),
            ..SolverOptions::default()
        };
        let mut s = Solver::with_options(&b, Finish::Anywhere, options);
        assert!(matches!(
            s.solve(apart),
            Err(SolveError::NodeLimit { nodes: 2 })
        ));
        s.set_max_nodes(None);
        assert_eq!(s.solve(apart), Ok(None));
        assert!(s.dead_positions() > 0);
    }

    #[test]
    fn solves_bigger_boards_by_beam_search() {
        // Depth-first search alone did not solve these within minutes; the beam search finds them in well under a
        // second (release build).
        let w = Board::builtin("wiegleb").unwrap();
        let e5 = w.parse_hole("e5").unwrap();
        let mut s = Solver::new(&w, Finish::Hole(e5));
        let moves = s.solve(w.default_start()).unwrap().unwrap();
        assert_eq!(moves.len(), 43);
        assert_eq!(
            replay(w.default_start(), &moves),
            Position::EMPTY.with_peg(e5)
        );

        let d = Board::builtin("diamond").unwrap();
        for name in ["d2", "f8", "c5"] {
            let start = d.full().without_peg(d.parse_hole(name).unwrap());
            let mut s = Solver::new(&d, Finish::Anywhere);
            let moves = s.solve(start).unwrap().unwrap();
            assert_eq!(moves.len(), 39, "{name}");
            assert_eq!(replay(start, &moves).pegs(), 1, "{name}");
        }
    }

    #[test]
    fn solves_every_english_complement_problem() {
        // Every single vacancy of the English board can be played down to one peg on that same hole (a classical
        // result; Beasley, "The Ins and Outs of Peg Solitaire"). One hole per orbit of the symmetry group.
        let b = Board::english();
        let mut seen = Vec::new();
        for h in 0..b.holes() {
            let orbit = b.symmetries().iter().map(|s| s.map_hole(h)).min().unwrap();
            if seen.contains(&orbit) {
                continue;
            }
            seen.push(orbit);
            let start = b.full().without_peg(h);
            let mut s = Solver::new(&b, Finish::Hole(h));
            let moves = s.solve(start).unwrap().unwrap();
            assert_eq!(
                replay(start, &moves),
                Position::EMPTY.with_peg(h),
                "{}",
                b.hole_name(h)
            );
        }
        assert_eq!(seen.len(), 7);
    }

    #[test]
    fn rejects_impossible_finishes() {
        let b = Board::english();
        let c1 = b.parse_hole("c1").unwrap();
        let mut s = Solver::new(&b, Finish::Hole(c1));
        assert_eq!(s.solve(b.default_start()).unwrap(), None);
        // The French board from the centre vacancy cannot be solved at all (position class).
        let f = Board::builtin("french").unwrap();
        let mut s = Solver::new(&f, Finish::Anywhere);
        assert_eq!(s.solve(f.default_start()).unwrap(), None);
        // Refused by its class alone: the backward table was not even built, nor any position examined.
        assert_eq!((s.table_pegs(), s.nodes()), (0, 0));
        // A question that passes the class test builds it.
        let a3 = f.full().without_peg(f.parse_hole("a3").unwrap());
        assert!(s.solve(a3).unwrap().is_some());
        assert!(s.table_pegs() > 1);
    }

    #[test]
    fn pagoda_is_a_pagoda() {
        for name in crate::board::builtin_names() {
            let b = Board::builtin(name).unwrap();
            for h in 0..b.holes() {
                let (w, need) = distance_pagoda(&b, h);
                assert!(w[h] >= need);
                for m in b.moves() {
                    // Exact inequality s^a + s^b >= s^c holds; the rounded weights may only add slack on the left.
                    assert!(w[m.from()] + w[m.over()] + 2 >= w[m.to()], "{name}");
                }
            }
        }
    }
}
