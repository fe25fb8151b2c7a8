//! The generator: a random solved grid, then clues removed (by symmetry orbits) while the logical rater can
//! still solve the puzzle within the target difficulty.
//!
//! Removal is steered by the rater rather than filtered afterwards: a clue (orbit) is only taken away if the puzzle
//! stays solvable with techniques no harder than the level's ceiling. Being solvable by sound logic (no guessing,
//! no uniqueness-based technique) proves the solution unique, so no separate solution count is needed. When the
//! pass ends (no orbit can go), the puzzle is rated; if it is below the level's floor, the generator keeps the
//! same solution grid and tries again with the removal order reshuffled, and only after several such tries
//! draws a new grid. [`Generated::grids`] and [`Generated::passes`] report how much work a puzzle took.
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

use crate::logic::tables::{CELL_HOUSES, HOUSE, PEERS, bit, digit_bit};
use crate::logic::{self, Candidates, Options, Rating, Technique, TechniqueSet};
use crate::rng::Rng;

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

/// Removal passes tried on one solved grid before drawing another.
const PASSES_PER_GRID: u32 = 4;
/// Solved grids tried before giving up.
const MAX_GRIDS: u32 = 2000;

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
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    // Most constrained empty cell.
    let mut best = 81;
    let mut best_mask = 0u16;
    let mut best_n = 10;
    for c in 0..81 {
        if g[c] != 0 {
            continue;
        }
        let mut used = 0u16;
        for p in crate::logic::tables::Cells(PEERS[c]) {
            if g[p] != 0 {
                used |= digit_bit(g[p]);
            }
        }
        let m = !used & 0x1ff;
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
    for &d in &digits[..k] {
        g[best] = d;
        if fill(g, rng, budget) {
            return true;
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

/// Whether the cells of `orbit` (emptied in `puzzle`) come straight back as singles allowed under `max`, one
/// after the other. Then the puzzle is as solvable as before the removal.
fn refills_by_singles(puzzle: &[u8; 81], solution: &[u8; 81], orbit: &[u8], max: Rating) -> bool {
    let Ok(mut s) = Candidates::from_values(puzzle) else {
        return false;
    };
    let naked_ok = Technique::NakedSingle.base_rating() <= max;
    let mut left: u32 = (1u32 << orbit.len()) - 1;
    loop {
        let mut progress = false;
        for (i, &c) in orbit.iter().enumerate() {
            if left & (1 << i) == 0 {
                continue;
            }
            let c = usize::from(c);
            let d = solution[c];
            let pos = s.positions(d);
            let mut single = CELL_HOUSES[c]
                .iter()
                .any(|&h| pos & HOUSE[usize::from(h)] == bit(c));
            if !single && naked_ok {
                single = s.candidates(c) == digit_bit(d);
            }
            if single {
                s.place(c, d);
                left &= !(1 << i);
                progress = true;
            }
        }
        if left == 0 {
            return true;
        }
        if !progress {
            return false;
        }
    }
}

/// Generate one puzzle, deterministically from `rng`.
pub fn generate_with(opts: &GenerateOptions, rng: &mut Rng) -> Result<Generated, GenerateError> {
    let level = opts.difficulty;
    let (floor, top) = level.range();
    let cap = ceiling(level);
    let mut orbits = opts.symmetry.orbits();
    let mut passes = 0;
    for grid in 1..=MAX_GRIDS {
        let solution = random_solution(rng);
        for _ in 0..PASSES_PER_GRID {
            passes += 1;
            rng.shuffle(&mut orbits);
            let mut puzzle = solution;
            let mut clues = 81usize;
            for orbit in &orbits {
                if clues - orbit.len() < level.min_clues() {
                    continue;
                }
                for &c in orbit.iter() {
                    puzzle[usize::from(c)] = 0;
                }
                let ok = refills_by_singles(&puzzle, &solution, orbit, top) || {
                    let s = Candidates::from_values(&puzzle).ok();
                    s.is_some_and(|s| logic::solve(s, &cap).is_solved())
                };
                if ok {
                    clues -= orbit.len();
                } else {
                    for &c in orbit.iter() {
                        puzzle[usize::from(c)] = solution[usize::from(c)];
                    }
                }
            }
            let Ok(state) = Candidates::from_values(&puzzle) else {
                continue;
            };
            let out = logic::solve(state, &Options::default());
            if out.is_solved() && out.rating >= floor && out.rating <= top {
                return Ok(Generated {
                    puzzle,
                    solution,
                    rating: out.rating,
                    hardest: out.hardest,
                    difficulty: level,
                    clues,
                    grids: grid,
                    passes,
                });
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
