//! The generator: a random solved grid, then clues removed (by symmetry orbits) while the logical rater can
//! still solve the puzzle within the target difficulty.
//!
//! Removal is steered by the rater rather than filtered afterwards: a clue (orbit) is only taken away if the puzzle
//! stays solvable with techniques no harder than the level's ceiling. Being solvable by sound logic (no guessing,
//! no uniqueness-based technique) proves the solution unique. Each removal is tested cheaply first: if the removed
//! cells come straight back as singles nothing changed; if the emptied cells cover an unavoidable set of the
//! solution (found in advance from pairs of lines and pairs of digits, or learned from earlier second solutions)
//! the solution is no longer unique; if singles from the clues fill the removed cells the removal stands (sound
//! singles prove the solution unique; knowing the solution, they are found on bitsets without candidate masks);
//! then the fast solver looks for a solution other than the known one (trying the other digits first at each
//! guess; a second solution it finds is learned as an unavoidable set), and only then does the rest of the rater
//! run, stopping as soon as the removed cells are found again.
//!
//! When a pass ends (no orbit can go), the puzzle is rated, unless singles alone solve it (then it is below every floor
//! above 2.3, or 1.5 without naked singles). If it is below the level's floor, the pass is run again on the same grid
//! in a new order; after sixteen passes a new grid is drawn (the grid's unavoidable sets, found in advance and learned,
//! serve all its passes: with four passes a grid, medium puzzles took 10% longer). [`Generated::grids`] and
//! [`Generated::passes`] report how much work a puzzle took. Most passes end because uniqueness, not the ceiling, stops
//! the removal, and most such puzzles need only singles (two thirds of medium passes need only hidden singles): a
//! medium puzzle takes about 13 passes, a hard one about 7. Searching locally instead was tried and kept out: giving a
//! few clues back between passes needed as much work per puzzle; swapping orbits (one given back, one taken away) cut
//! the passes by a third but not the work, and left puzzles that were not minimal; removing first under the ceiling
//! just below the level's floor, then on with the level's ceiling (which would make any further removal reach the
//! floor), doubled the passes, since a puzzle minimal under the lower ceiling can seldom lose another orbit. Two other
//! uniqueness shortcuts measured no faster and were left out: learning, instead of all the cells where a second
//! solution differs, the smallest sets among them that can swap (the closures of the orbit's cells), which rejected no
//! more removals; and one search per emptied cell with the known digit taken out of it.
//!
//! The levels, in terms of the rater's grade (the hardest technique, SE rating):
//!
//! | level | ratings | techniques needed at the hardest point |
//! | --- | --- | --- |
//! | beginner | 1.0-1.6 | full houses and hidden singles only; at least 36 clues are kept |
//! | easy | 1.7-2.5 | naked singles, or locked candidates / hidden pairs and triples that reveal a single at once |
//! | medium | 2.6-3.5 | pointing, claiming, naked pairs, X-Wings, hidden pairs |
//! | hard | 3.6-4.4 | naked and hidden triples, Swordfish, skyscrapers, kites, turbot fish, XY- and XYZ-Wings |
//! | expert | 4.5 and up, no guessing | quads, Jellyfish, chains |

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::Grid;
use crate::logic::tables::{ALL_CELLS, CELL_HOUSES, CellSet, HOUSE, PEERS, bit, digit_bit};
use crate::logic::{self, Candidates, Options, Rating, Technique, TechniqueSet};
use crate::rng::Rng;
use crate::stop::Stopped;

/// The symmetry of a puzzle's clue pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// No symmetry.
    None,
    /// Unchanged by a half turn (the usual newspaper symmetry).
    #[default]
    Rotate180,
    /// Unchanged by a quarter turn.
    Rotate90,
    /// Unchanged by a left-right mirror.
    Mirror,
    /// Unchanged by reflection in the main diagonal.
    Diagonal,
}

impl Symmetry {
    /// All symmetries.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The cell `cell` maps to.
    pub fn map(self, cell: usize) -> usize {
        let (r, c) = (cell / 9, cell % 9);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotate180 => 80 - cell,
            Symmetry::Rotate90 => c * 9 + (8 - r),
            Symmetry::Mirror => r * 9 + (8 - c),
            Symmetry::Diagonal => c * 9 + r,
        }
    }

    /// The orbits of the 81 cells (each a list of cells mapped onto each other), in cell order of their first cell.
    pub fn orbits(self) -> Vec<Vec<u8>> {
        let mut seen = [false; 81];
        let mut out = Vec::new();
        for start in 0..81 {
            if seen[start] {
                continue;
            }
            let mut orbit = Vec::new();
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                orbit.push(c as u8);
                c = self.map(c);
            }
            out.push(orbit);
        }
        out
    }

    /// Whether the clue pattern of `puzzle` has this symmetry.
    pub fn holds_for(self, puzzle: &[u8; 81]) -> bool {
        (0..81).all(|c| (puzzle[c] == 0) == (puzzle[self.map(c)] == 0))
    }

    /// The command-line name (`180`, `90`, `none`, `mirror`, `diagonal`).
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "180",
            Symmetry::Rotate90 => "90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown symmetry or difficulty name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What was given.
    pub given: String,
    /// What is accepted.
    pub expected: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown value `{}` (expected {})",
            self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Symmetry {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Ok(Symmetry::None),
            "180" | "rotate180" | "rotational" | "half-turn" => Ok(Symmetry::Rotate180),
            "90" | "rotate90" | "quarter-turn" => Ok(Symmetry::Rotate90),
            "mirror" | "horizontal" => Ok(Symmetry::Mirror),
            "diagonal" => Ok(Symmetry::Diagonal),
            _ => Err(UnknownName {
                given: s.to_string(),
                expected: "none, 180, 90, mirror or diagonal",
            }),
        }
    }
}

/// A target difficulty (see the module documentation for the definitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Difficulty {
    /// Full houses and hidden singles only (SE 1.0-1.5), with many clues.
    Beginner,
    /// Up to naked singles and the "direct" techniques (SE 1.7-2.5).
    Easy,
    /// Locked candidates, naked and hidden pairs, X-Wing (SE 2.6-3.4).
    #[default]
    Medium,
    /// Triples, Swordfish, turbot fish, XY- and XYZ-Wing (SE 3.6-4.4).
    Hard,
    /// Quads, Jellyfish and chains, still without guessing (SE 4.5 and up).
    Expert,
}

impl Difficulty {
    /// All levels, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Beginner,
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// The inclusive range of ratings of the level.
    pub const fn range(self) -> (Rating, Rating) {
        match self {
            Difficulty::Beginner => (Rating(0), Rating(16)),
            Difficulty::Easy => (Rating(17), Rating(25)),
            Difficulty::Medium => (Rating(26), Rating(35)),
            Difficulty::Hard => (Rating(36), Rating(44)),
            Difficulty::Expert => (Rating(45), Rating(u8::MAX - 1)),
        }
    }

    /// The level of a logically solved puzzle with this rating.
    pub fn of(rating: Rating) -> Difficulty {
        Difficulty::ALL
            .into_iter()
            .find(|d| rating <= d.range().1)
            .unwrap_or(Difficulty::Expert)
    }

    /// The fewest clues a generated puzzle of this level keeps.
    pub const fn min_clues(self) -> usize {
        match self {
            Difficulty::Beginner => 36,
            _ => 17,
        }
    }

    /// The name (`beginner`, `easy`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Beginner => "beginner",
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Difficulty {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "beginner" => Ok(Difficulty::Beginner),
            "easy" => Ok(Difficulty::Easy),
            "medium" => Ok(Difficulty::Medium),
            "hard" => Ok(Difficulty::Hard),
            "expert" => Ok(Difficulty::Expert),
            _ => Err(UnknownName {
                given: s.to_string(),
                expected: "beginner, easy, medium, hard or expert",
            }),
        }
    }
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GenerateOptions {
    /// Target level.
    pub difficulty: Difficulty,
    /// Symmetry of the clue pattern.
    pub symmetry: Symmetry,
}

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The clues (0 = empty).
    pub puzzle: [u8; 81],
    /// Its unique solution.
    pub solution: [u8; 81],
    /// The rater's rating.
    pub rating: Rating,
    /// The hardest technique the rater needed.
    pub hardest: Option<Technique>,
    /// The level reached (the one asked for).
    pub difficulty: Difficulty,
    /// Number of clues.
    pub clues: usize,
    /// Solved grids drawn (1 when the first grid gave the level).
    pub grids: u32,
    /// Removal passes run over all grids (1 when the first pass gave the level).
    pub passes: u32,
}

/// The generator could not reach the level within its budget of grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateError {
    /// The level asked for.
    pub difficulty: Difficulty,
    /// The symmetry asked for.
    pub symmetry: Symmetry,
    /// Grids tried.
    pub grids: u32,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no {} puzzle with {} symmetry found after {} solved grids",
            self.difficulty, self.symmetry, self.grids
        )
    }
}

impl std::error::Error for GenerateError {}

/// A uniformly shuffled complete grid: the three diagonal boxes filled at random, the rest by randomised
/// depth-first search.
pub fn random_solution(rng: &mut Rng) -> [u8; 81] {
    loop {
        let mut g = [0u8; 81];
        for b in [0usize, 4, 8] {
            let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            rng.shuffle(&mut digits);
            for (j, &d) in digits.iter().enumerate() {
                let cell = (b / 3) * 27 + (b % 3) * 3 + (j / 3) * 9 + j % 3;
                g[cell] = d;
            }
        }
        let mut budget = 2000u32;
        if fill(&mut g, rng, &mut budget) {
            return g;
        }
    }
}

fn fill(g: &mut [u8; 81], rng: &mut Rng, budget: &mut u32) -> bool {
    let mut used = [0u16; 27];
    for (c, &d) in g.iter().enumerate() {
        if d != 0 {
            for &h in &CELL_HOUSES[c] {
                used[usize::from(h)] |= digit_bit(d);
            }
        }
    }
    fill_rec(g, &mut used, rng, budget)
}

/// Depth-first completion: the most constrained empty cell (the first one found at the minimum), its digits in
/// random order. `used` holds the digits of each house.
fn fill_rec(g: &mut [u8; 81], used: &mut [u16; 27], rng: &mut Rng, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut best = 81;
    let mut best_mask = 0u16;
    let mut best_n = 10;
    for c in 0..81 {
        if g[c] != 0 {
            continue;
        }
        let h = CELL_HOUSES[c];
        let m =
            !(used[usize::from(h[0])] | used[usize::from(h[1])] | used[usize::from(h[2])]) & 0x1ff;
        let n = m.count_ones();
        if n < best_n {
            best_n = n;
            best = c;
            best_mask = m;
            if n <= 1 {
                break;
            }
        }
    }
    if best == 81 {
        return true;
    }
    let mut digits = [0u8; 9];
    let mut k = 0;
    for d in crate::logic::tables::Digits(best_mask) {
        digits[k] = d;
        k += 1;
    }
    rng.shuffle(&mut digits[..k]);
    let h = CELL_HOUSES[best];
    for &d in &digits[..k] {
        g[best] = d;
        for &x in &h {
            used[usize::from(x)] |= digit_bit(d);
        }
        if fill_rec(g, used, rng, budget) {
            return true;
        }
        for &x in &h {
            used[usize::from(x)] &= !digit_bit(d);
        }
    }
    g[best] = 0;
    false
}

/// The techniques and ceiling the removal may rely on for a level.
fn ceiling(d: Difficulty) -> Options {
    Options {
        max_rating: d.range().1,
        techniques: TechniqueSet::ALL,
        record: false,
    }
}

/// Singles whose solving a whole puzzle proves its rating below `floor`, if any (`true` with naked singles, `false`
/// hidden singles only): when singles fill every cell, at each state of the rater's easiest-first solve one of them
/// is still there (a single stays a single as other cells are placed and candidates go), so the rater never takes
/// a step rated above the singles' ratings (naked singles, 2.3, and hidden singles, at most 1.5).
fn below_by_singles(floor: Rating) -> Option<bool> {
    if floor > Technique::NakedSingle.base_rating() {
        Some(true)
    } else if floor > Technique::HiddenSingleLine.base_rating() {
        Some(false)
    } else {
        None
    }
}

/// Each cell with its row, column and box: the cells a digit placed there rules out.
const SIGHT: [CellSet; 81] = {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = PEERS[c] | (1u128 << c);
        c += 1;
    }
    t
};

/// The houses of each cell as bits (row `r`, column `9 + c`, box `18 + b`).
const HOUSES_OF: [u32; 81] = {
    let mut t = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = 1 << (c / 9) | 1 << (9 + c % 9) | 1 << (18 + (c / 27) * 3 + (c % 9) / 3);
        c += 1;
    }
    t
};

/// Naked (when `naked`) and hidden singles, applied to `puzzle` (whose clues are a subset of `solution`'s) until the
/// cells of `targets` are filled (`true`) or none is left (`false`); `puzzle` gets the digits placed. Singles are
/// sound, so a single's digit is the solution's; knowing it, the search needs no candidate masks: a digit may go in
/// the empty cells outside the rows, columns and boxes that hold it. The singles visible at once are placed
/// together; the cells filled in the end are the same whatever the order.
fn fill_singles(puzzle: &mut [u8; 81], solution: &[u8; 81], naked: bool, targets: CellSet) -> bool {
    let mut cover = [0u128; 9];
    let mut empty = ALL_CELLS;
    for (c, &d) in puzzle.iter().enumerate() {
        if d != 0 {
            cover[usize::from(d - 1)] |= SIGHT[c];
            empty &= !bit(c);
        }
    }
    // Each digit's places at the last round: a hidden single can only appear in a house where they changed.
    let mut last = [u128::MAX; 9];
    loop {
        if empty & targets == 0 {
            return true;
        }
        let cand: [CellSet; 9] = std::array::from_fn(|d| empty & !cover[d]);
        let mut found = 0u128;
        if naked {
            let (mut ones, mut twos) = (0u128, 0u128);
            for &m in &cand {
                twos |= ones & m;
                ones |= m;
            }
            found |= ones & !twos;
        }
        for (&m, was) in cand.iter().zip(last.iter_mut()) {
            let changed = std::mem::replace(was, m) ^ m;
            if changed == 0 || m == 0 {
                continue;
            }
            // The houses where the places changed (all of them in the first round).
            let mut houses = if changed >> 81 != 0 {
                (1u32 << 27) - 1
            } else {
                crate::logic::tables::Cells(changed).fold(0, |a, c| a | HOUSES_OF[c])
            };
            while houses != 0 {
                let h = houses.trailing_zeros() as usize;
                houses &= houses - 1;
                let x = m & HOUSE[h];
                if x != 0 && x & (x - 1) == 0 {
                    found |= x;
                }
            }
        }
        if found == 0 {
            return false;
        }
        empty &= !found;
        for c in crate::logic::tables::Cells(found) {
            let d = solution[c];
            puzzle[c] = d;
            cover[usize::from(d - 1)] |= SIGHT[c];
        }
    }
}

/// A puzzle being thinned, with the digits present in each house as bit masks.
#[derive(Clone)]
struct Work {
    puzzle: [u8; 81],
    /// Clue digits per house (rows, columns, boxes; bit `d - 1`).
    house: [u16; 27],
    /// The clues of each digit (index `d - 1`), and the cells they rule the digit out of.
    clues_of: [CellSet; 9],
    cover: [CellSet; 9],
    clues: usize,
    /// Empty cells.
    empty: CellSet,
    /// Unavoidable sets of the solution met so far: sets of cells where a second solution differs from it. A
    /// puzzle with all the cells of one of them empty has more than one solution.
    unavoidable: Vec<CellSet>,
}

impl Work {
    fn full(solution: &[u8; 81]) -> Self {
        let mut w = Work {
            puzzle: [0; 81],
            house: [0; 27],
            clues_of: [0; 9],
            cover: [0; 9],
            clues: 0,
            empty: ALL_CELLS,
            unavoidable: Vec::new(),
        };
        for (c, &d) in solution.iter().enumerate() {
            w.set(c, d);
        }
        w
    }

    fn set(&mut self, c: usize, d: u8) {
        self.puzzle[c] = d;
        self.empty &= !bit(c);
        self.clues_of[usize::from(d - 1)] |= bit(c);
        self.cover[usize::from(d - 1)] |= SIGHT[c];
        for &h in &CELL_HOUSES[c] {
            self.house[usize::from(h)] |= digit_bit(d);
        }
        self.clues += 1;
    }

    fn clear(&mut self, c: usize) {
        let d = self.puzzle[c];
        self.puzzle[c] = 0;
        self.empty |= bit(c);
        let di = usize::from(d - 1);
        self.clues_of[di] &= !bit(c);
        self.cover[di] =
            crate::logic::tables::Cells(self.clues_of[di]).fold(0, |a, x| a | SIGHT[x]);
        for &h in &CELL_HOUSES[c] {
            self.house[usize::from(h)] &= !digit_bit(d);
        }
        self.clues -= 1;
    }

    /// The digits a cell's houses rule out.
    fn seen(&self, c: usize) -> u16 {
        let h = CELL_HOUSES[c];
        self.house[usize::from(h[0])]
            | self.house[usize::from(h[1])]
            | self.house[usize::from(h[2])]
    }

    /// Whether the empty cells of `orbit` come straight back, one after the other, as full houses, hidden singles
    /// or (when `naked` allows) naked singles of the clues alone. Then the puzzle without the orbit solves exactly
    /// as the puzzle with it. Leaves the work unchanged.
    fn refills(&mut self, orbit: &[u8], solution: &[u8; 81], naked: bool) -> bool {
        let mut left: u32 = (1u32 << orbit.len()) - 1;
        let mut placed: u32 = 0;
        let ok = loop {
            let mut progress = false;
            for (i, &c) in orbit.iter().enumerate() {
                if left & (1 << i) == 0 {
                    continue;
                }
                let c = usize::from(c);
                let d = solution[c];
                let db = digit_bit(d);
                // Every other empty cell of one of its houses sees a clue `d` (a full house is one such), or
                // (a naked single) the cell sees every other digit.
                let places = self.empty & !self.cover[usize::from(d - 1)];
                let single = CELL_HOUSES[c]
                    .iter()
                    .any(|&h| places & HOUSE[usize::from(h)] == bit(c))
                    || (naked && (!self.seen(c) & 0x1ff) == db);
                if single {
                    self.set(c, d);
                    left &= !(1 << i);
                    placed |= 1 << i;
                    progress = true;
                }
            }
            if left == 0 {
                break true;
            }
            if !progress {
                break false;
            }
        };
        for (i, &c) in orbit.iter().enumerate() {
            if placed & (1 << i) != 0 {
                self.clear(usize::from(c));
            }
        }
        ok
    }

    /// Whether the puzzle (the orbit just emptied) still has one solution; `known` is the puzzle with what the
    /// singles found (the same solutions, less to search). When it has more, a second solution is found (it
    /// differs from `solution` in an orbit cell, since the puzzle had one solution before) and the cells where the
    /// two differ are remembered as an unavoidable set.
    fn unique(&mut self, orbit: &[u8], solution: &[u8; 81], known: &[u8; 81]) -> bool {
        let Some(other) = crate::solver::other_solution(&Grid::from_raw(*known), solution) else {
            return true;
        };
        let diff = (0..81)
            .filter(|&i| other.digits()[i] != solution[i])
            .fold(0u128, |m, i| m | bit(i));
        // The puzzle had one solution before the orbit went, so the other differs in the orbit.
        debug_assert!(diff & orbit_cells(orbit) != 0);
        if !self.unavoidable.contains(&diff) {
            self.unavoidable.push(diff);
        }
        false
    }

    /// Try to take the orbit's clues away: kept away when the puzzle stays solvable by the rater within `cap`.
    fn try_remove(
        &mut self,
        orbit: &[u8],
        solution: &[u8; 81],
        cap: &Options,
        min_clues: usize,
    ) -> bool {
        if self.clues < min_clues + orbit.len()
            || orbit.iter().any(|&c| self.puzzle[usize::from(c)] == 0)
        {
            return false;
        }
        for &c in orbit {
            self.clear(usize::from(c));
        }
        // Cheap tests first: the removed cells come straight back as singles (then nothing changed), or the
        // puzzle lost its unique solution (the fast counter says so in microseconds); only otherwise does the
        // rater have to run.
        let naked = Technique::NakedSingle.base_rating() <= cap.max_rating;
        let targets = orbit_cells(orbit);
        let ok = self.refills(orbit, solution, naked)
            || (!self.unavoidable.iter().any(|&u| u & !self.empty == 0) && {
                // Singles that fill the removed cells prove the solution unique (they are sound), and pass any
                // ceiling; otherwise the counter checks uniqueness before the rest of the rater runs.
                let mut known = self.puzzle;
                fill_singles(&mut known, solution, naked, targets)
                    || (self.unique(orbit, solution, &known)
                        && Candidates::from_values(&known)
                            .is_ok_and(|state| logic::fills(state, cap, targets)))
            });
        if !ok {
            for &c in orbit {
                let c = usize::from(c);
                self.set(c, solution[c]);
            }
        }
        ok
    }
}

/// The unavoidable sets of a solved grid that live in two rows of a band (or two columns of a stack): where the
/// two rows hold the same digits on a set of columns (a cycle of the permutation between the rows), the two rows'
/// digits can be swapped on those columns. Any puzzle
/// with a unique solution keeps a clue in each such set; finding them costs no search.
fn line_pair_unavoidable_sets(solution: &[u8; 81]) -> Vec<CellSet> {
    let mut out = Vec::new();
    for transpose in [false, true] {
        let at = |line: usize, i: usize| {
            if transpose {
                solution[i * 9 + line]
            } else {
                solution[line * 9 + i]
            }
        };
        let cell = |line: usize, i: usize| {
            if transpose {
                i * 9 + line
            } else {
                line * 9 + i
            }
        };
        for band in 0..3 {
            for a in band * 3..band * 3 + 3 {
                for b in a + 1..band * 3 + 3 {
                    // Position in line b of each digit.
                    let mut where_b = [0usize; 10];
                    for i in 0..9 {
                        where_b[usize::from(at(b, i))] = i;
                    }
                    let mut seen = 0u16;
                    for start in 0..9 {
                        if seen & (1 << start) != 0 {
                            continue;
                        }
                        // The cycle: position i in line a holds digit x, which line b holds at position j, ...
                        let mut cycle = 0u16;
                        let mut i = start;
                        while cycle & (1 << i) == 0 {
                            cycle |= 1 << i;
                            i = where_b[usize::from(at(a, i))];
                        }
                        seen |= cycle;
                        if cycle.count_ones() < 2 {
                            continue;
                        }
                        // Swapping the lines' digits on the cycle keeps rows, columns and boxes (both lines cross
                        // the same boxes) valid.
                        let mut set = 0u128;
                        for i in 0..9 {
                            if cycle & (1 << i) != 0 {
                                set |= bit(cell(a, i)) | bit(cell(b, i));
                            }
                        }
                        out.push(set);
                    }
                }
            }
        }
    }
    out
}

/// The unavoidable sets of a solved grid made of two digits: swapping digits `a` and `b` on a set of their cells
/// keeps the grid valid when every house meets the set in both its `a` and its `b` cell or in neither. Linking, in
/// each house, its `a` cell to its `b` cell, each connected part of the 18 cells is such a set.
fn digit_pair_unavoidable_sets(solution: &[u8; 81]) -> Vec<CellSet> {
    let mut out = Vec::new();
    let mut of_digit = [0u128; 10];
    for (c, &d) in solution.iter().enumerate() {
        of_digit[usize::from(d)] |= bit(c);
    }
    for a in 1..=9u8 {
        for b in a + 1..=9 {
            let cells: CellSet = of_digit[usize::from(a)] | of_digit[usize::from(b)];
            let mut left = cells;
            let mut parts = 0;
            let mut found = Vec::new();
            while left != 0 {
                // Grow one connected part: cells sharing a house are linked.
                let mut part = bit(left.trailing_zeros() as usize);
                loop {
                    let mut grown = part;
                    for c in crate::logic::tables::Cells(part) {
                        grown |= PEERS[c] & cells;
                    }
                    if grown == part {
                        break;
                    }
                    part = grown;
                }
                left &= !part;
                parts += 1;
                found.push(part);
            }
            if parts > 1 {
                out.extend(found);
            } else {
                out.push(cells);
            }
        }
    }
    out
}

/// The cells of an orbit as a set.
fn orbit_cells(orbit: &[u8]) -> CellSet {
    orbit.iter().fold(0, |m, &c| m | bit(usize::from(c)))
}

/// Solved grids tried before giving up.
const MAX_GRIDS: u32 = 2000;
/// Removal passes tried on one solved grid before drawing another.
const PASSES_PER_GRID: u32 = 16;

/// Generate one puzzle, deterministically from `rng`.
///
/// A pass takes clue orbits away in random order while the rater can solve the puzzle within the level's
/// ceiling. If the puzzle it ends with is below the level's floor, the pass is run again on the same grid in a new
/// order; after sixteen passes a new grid is drawn.
pub fn generate_with(opts: &GenerateOptions, rng: &mut Rng) -> Result<Generated, GenerateError> {
    // Without a flag nothing stops the search but its own end: `None` cannot come back.
    generate_until(opts, rng, None)?.ok_or(GenerateError {
        difficulty: opts.difficulty,
        symmetry: opts.symmetry,
        grids: MAX_GRIDS,
    })
}

/// [`generate_with`] that looks at `cancel` before every removal pass and every clue orbit tried (most take well
/// under a millisecond), and at every step of the rating that ends a pass (see [`logic::solve_until`]), and gives
/// up with `Ok(None)` once it is set.
///
/// # Errors
/// [`GenerateError`] when no puzzle of the level was found within the grids tried.
pub fn generate_until(
    opts: &GenerateOptions,
    rng: &mut Rng,
    cancel: Option<&AtomicBool>,
) -> Result<Option<Generated>, GenerateError> {
    let stopped = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let level = opts.difficulty;
    let (floor, top) = level.range();
    let cap = ceiling(level);
    let mut orbits = opts.symmetry.orbits();
    let mut passes = 0;
    for grid in 1..=MAX_GRIDS {
        let solution = random_solution(rng);
        let mut unavoidable = line_pair_unavoidable_sets(&solution);
        unavoidable.extend(digit_pair_unavoidable_sets(&solution));
        unavoidable.sort_by_key(|u| u.count_ones());
        unavoidable.dedup();
        for _ in 0..PASSES_PER_GRID {
            if stopped() {
                return Ok(None);
            }
            passes += 1;
            rng.shuffle(&mut orbits);
            let mut work = Work::full(&solution);
            work.unavoidable = std::mem::take(&mut unavoidable);
            for orbit in &orbits {
                if stopped() {
                    return Ok(None);
                }
                work.try_remove(orbit, &solution, &cap, level.min_clues());
            }
            unavoidable = std::mem::take(&mut work.unavoidable);
            let Ok(state) = Candidates::from_values(&work.puzzle) else {
                continue;
            };
            if let Some(naked) = below_by_singles(floor) {
                // Most passes end with a puzzle that singles alone solve: then the rater's grade is below the
                // floor, and it need not run.
                let mut quick = work.puzzle;
                if fill_singles(&mut quick, &solution, naked, ALL_CELLS) {
                    continue;
                }
            }
            let out = match cancel {
                None => logic::solve(state, &Options::default()),
                Some(flag) => match logic::solve_until(state, &Options::default(), flag) {
                    Ok(out) => out,
                    Err(Stopped) => return Ok(None),
                },
            };
            if out.is_solved() && out.rating >= floor && out.rating <= top {
                return Ok(Some(Generated {
                    puzzle: work.puzzle,
                    solution,
                    rating: out.rating,
                    hardest: out.hardest,
                    difficulty: level,
                    clues: work.clues,
                    grids: grid,
                    passes,
                }));
            }
        }
    }
    Err(GenerateError {
        difficulty: level,
        symmetry: opts.symmetry,
        grids: MAX_GRIDS,
    })
}

/// Generate puzzle number `index` of a batch seeded with `seed` (the same on every machine and thread count).
pub fn generate(opts: &GenerateOptions, seed: u64, index: u64) -> Result<Generated, GenerateError> {
    let mut rng = Rng::for_item(seed, index);
    generate_with(opts, &mut rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_grid() {
        for s in Symmetry::ALL {
            let orbits = s.orbits();
            let mut all: Vec<u8> = orbits.iter().flatten().copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..81).collect::<Vec<u8>>());
            let expected = match s {
                Symmetry::None => 81,
                Symmetry::Rotate180 => 41,
                Symmetry::Rotate90 => 21,
                Symmetry::Mirror | Symmetry::Diagonal => 45,
            };
            assert_eq!(orbits.len(), expected, "{s}");
        }
    }

    #[test]
    fn random_solution_is_valid() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let g = random_solution(&mut rng);
            let s = Candidates::from_values(&g).expect("valid grid");
            assert!(s.is_solved());
        }
    }

    #[test]
    fn names_round_trip() {
        for s in Symmetry::ALL {
            assert_eq!(s.name().parse::<Symmetry>(), Ok(s));
        }
        for d in Difficulty::ALL {
            assert_eq!(d.name().parse::<Difficulty>(), Ok(d));
        }
        assert!("sideways".parse::<Symmetry>().is_err());
    }
}

#[cfg(test)]
mod unavoidable_tests {
    use super::*;

    #[test]
    fn digit_pair_sets_are_unavoidable() {
        let mut rng = Rng::new(10);
        for _ in 0..10 {
            let sol = random_solution(&mut rng);
            for set in digit_pair_unavoidable_sets(&sol) {
                let mut p = sol;
                for c in crate::logic::tables::Cells(set) {
                    p[c] = 0;
                }
                assert!(crate::solver::count_solutions(&Grid::from_raw(p), 2) >= 2);
            }
        }
    }

    #[test]
    fn line_pair_sets_are_unavoidable() {
        let mut rng = Rng::new(9);
        let mut total = 0;
        for _ in 0..20 {
            let sol = random_solution(&mut rng);
            let sets = line_pair_unavoidable_sets(&sol);
            total += sets.len();
            for &set in &sets {
                // Emptying the set leaves at least two solutions.
                let mut p = sol;
                for c in crate::logic::tables::Cells(set) {
                    p[c] = 0;
                }
                assert!(crate::solver::count_solutions(&Grid::from_raw(p), 2) >= 2);
            }
        }
        assert!(total > 20, "only {total} sets in 20 grids");
    }
}
