//! The solver and counter: every solution checked against its clues and the rules, solution counts on the public
//! sets (samples here, whole files in an ignored test and the benches), no-solution and many-solution cases, and
//! agreement with a naive brute force and with the independent reference solver.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use proptest::prelude::*;
use sudoku::solver::reference;
use sudoku::{Cell, Grid, SolveError};

const NORVIG_HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// The solution published in Norvig's essay "Solving Every Sudoku Puzzle".
const NORVIG_HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// `../shared/sudoku-data`, or `None` with a notice the test harness does not swallow.
fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sudoku-data");
    if dir.is_dir() {
        Some(dir)
    } else {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "notice: {} is absent; the shared data-set checks were skipped",
            dir.display()
        );
        None
    }
}

/// Where a set lives: the repository's `tests/data`, or `../shared/sudoku-data`.
#[derive(Clone, Copy)]
enum Source {
    Repo,
    Shared,
}

/// The puzzles of a data file (comments and blank lines skipped), with their line numbers.
fn load(source: Source, name: &str) -> Option<Vec<(usize, Grid)>> {
    let dir = match source {
        Source::Repo => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        Source::Shared => data_dir()?,
    };
    let path = dir.join(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let mut reader = sudoku::PuzzleReader::new();
    let mut out = Vec::new();
    for line in text.lines() {
        for r in reader.read_line(line) {
            let p = r.unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((p.line, p.grid));
        }
    }
    assert!(reader.finish().is_none());
    Some(out)
}

/// The repository's own sets (how each was made is in its header): (file, puzzles in it, solutions each
/// counting to 2).
const REPO_SETS: &[(&str, usize, u64)] = &[
    ("qqwing_simple_40.txt", 40, 1),
    ("qqwing_easy_40.txt", 40, 1),
    ("qqwing_intermediate_40.txt", 40, 1),
    ("qqwing_expert_40.txt", 40, 1),
    ("own_expert_20.txt", 20, 1),
    ("own_many_solutions_30.txt", 30, 2),
];

/// The public sets of `../shared/sudoku-data`: (file, puzzles in it, solutions each counting to 2)
const SETS: &[(&str, usize, u64)] = &[
    ("puzzles1_unbiased_first1000", 1000, 1),
    ("puzzles2_17_clue", 49158, 1),
    ("puzzles3_magictour_top1465", 1465, 1),
    ("puzzles5_forum_hardest_1905_11+", 48766, 1),
    ("puzzles6_forum_hardest_1106", 375, 1),
    ("puzzles7_serg_benchmark", 10000, 2),
    ("norvig_top95.txt", 95, 1),
    ("norvig_hardest11.txt", 11, 1),
    ("generated/qqwing_simple_1000.txt", 1000, 1),
    ("generated/qqwing_easy_1000.txt", 1000, 1),
    ("generated/qqwing_intermediate_1000.txt", 1000, 1),
    ("generated/qqwing_expert_1000.txt", 1000, 1),
];

/// Count to 2 on every `step`-th puzzle of each set; check each unique solution against clues and rules.
fn check_sets(source: Source, sets: &[(&str, usize, u64)], max_per_set: usize) {
    for &(name, size, expected) in sets {
        let Some(puzzles) = load(source, name) else {
            return;
        };
        assert_eq!(puzzles.len(), size, "{name}");
        let step = size.div_ceil(max_per_set).max(1);
        for (line, puzzle) in puzzles.iter().step_by(step) {
            let counted = sudoku::count_solutions_with_first(puzzle, 2);
            assert_eq!(counted.count, expected, "{name} line {line}");
            let first = counted
                .first
                .unwrap_or_else(|| panic!("{name} line {line}: no solution"));
            assert_eq!(
                first.check_solution_of(puzzle),
                Ok(()),
                "{name} line {line}"
            );
            match expected {
                1 => assert_eq!(puzzle.solve(), Ok(first), "{name} line {line}"),
                _ => assert_eq!(puzzle.solve(), Err(SolveError::MultipleSolutions)),
            }
        }
    }
}

#[test]
fn data_set_samples() {
    check_sets(Source::Repo, REPO_SETS, usize::MAX);
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_set_samples() {
    check_sets(Source::Shared, SETS, 400);
}

#[test]
#[ignore = "whole files: a few minutes; run with --ignored"]
fn data_sets_whole() {
    check_sets(Source::Shared, SETS, usize::MAX);
}

#[test]
fn reference_agrees_on_samples() {
    reference_agrees(Source::Repo, REPO_SETS);
}

#[test]
#[ignore = "needs ../shared/sudoku-data; .ci/run runs it with --ignored where it exists"]
fn shared_data_reference_agrees_on_samples() {
    reference_agrees(Source::Shared, SETS);
}

fn reference_agrees(source: Source, sets: &[(&str, usize, u64)]) {
    for &(name, size, expected) in sets {
        let Some(puzzles) = load(source, name) else {
            return;
        };
        for (line, puzzle) in puzzles.iter().step_by(size.div_ceil(40)) {
            let (count, first) = reference::count_solutions_with_first(puzzle, 2);
            assert_eq!(count, expected, "{name} line {line}");
            let first = first.unwrap_or_else(|| panic!("{name} line {line}"));
            assert_eq!(first.check_solution_of(puzzle), Ok(()));
            if expected == 1 {
                assert_eq!(puzzle.solve(), Ok(first), "{name} line {line}");
            }
        }
    }
}

#[test]
fn known_solution() {
    let puzzle: Grid = NORVIG_HARD.parse().unwrap();
    let solution = puzzle.solve().unwrap();
    assert_eq!(solution.to_line(), NORVIG_HARD_SOLUTION);
    assert_eq!(solution.check_solution_of(&puzzle), Ok(()));
    // A solved grid is its own unique solution.
    assert_eq!(solution.solve(), Ok(solution));
    assert_eq!(solution.count_solutions(5), 1);
}

#[test]
fn no_solution() {
    // Repeated digits (only possible through `from_digits_allow_conflicts`).
    let mut digits = [0u8; 81];
    digits[0] = 5;
    digits[10] = 5; // r2c2: the same box as r1c1
    let g = Grid::from_digits_allow_conflicts(digits).unwrap();
    assert!(g.first_conflict().is_some());
    assert_eq!(g.count_solutions(2), 0);
    assert_eq!(g.solve(), Err(SolveError::NoSolution));
    assert_eq!(g.first_solution(), None);
    assert_eq!(reference::count_solutions(&g, 2), 0);

    // No repeated clue, yet r1c9 has no candidate: row 1 holds 1-8 and column 9 holds 9.
    let g: Grid =
        "12345678.........9..............................................................."
            .parse()
            .unwrap();
    assert_eq!(g.count_solutions(2), 0);
    assert_eq!(g.solve(), Err(SolveError::NoSolution));

    // Digit 1 has no place in box 1: rows 1-2 and column 1 hold it outside the box, r3c2/r3c3 hold others.
    let g: Grid = "\
. . . | 1 . . | . . .
. . . | . . . | 1 . .
. 2 3 | . . . | . . .
. . . | . . . | . . .
1 . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
"
    .parse()
    .unwrap();
    assert_eq!(g.count_solutions(2), 0);
    assert_eq!(reference::count_solutions(&g, 2), 0);

    // A full grid breaking a clue-free rule cannot be solved either.
    let mut s: Grid = NORVIG_HARD_SOLUTION.parse().unwrap();
    let (a, b) = (Cell::new(0, 1), Cell::new(0, 2));
    let (va, vb) = (s.get(a), s.get(b));
    s.set(a, vb);
    s.set(b, va);
    assert_eq!(s.count_solutions(2), 0);
}

#[test]
fn many_solutions() {
    assert_eq!(Grid::EMPTY.count_solutions(0), 0);
    assert_eq!(Grid::EMPTY.count_solutions(1), 1);
    assert_eq!(Grid::EMPTY.count_solutions(2), 2);
    assert_eq!(Grid::EMPTY.count_solutions(10_000), 10_000);
    assert_eq!(Grid::EMPTY.solve(), Err(SolveError::MultipleSolutions));
    let any = Grid::EMPTY.first_solution().unwrap();
    assert!(any.is_solved());

    // Removing the four cells of a rectangle over two boxes holding a b / b a leaves exactly two solutions.
    let s: Grid = NORVIG_HARD_SOLUTION.parse().unwrap();
    let mut found = 0;
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let same_band = r1 / 3 == r2 / 3;
                    let same_stack = c1 / 3 == c2 / 3;
                    if same_band == same_stack {
                        continue; // four boxes, or one box
                    }
                    let cells = [
                        Cell::new(r1, c1),
                        Cell::new(r1, c2),
                        Cell::new(r2, c1),
                        Cell::new(r2, c2),
                    ];
                    let v = cells.map(|c| s.get(c));
                    if v[0] == v[3] && v[1] == v[2] {
                        let mut g = s;
                        for c in cells {
                            g.set(c, 0);
                        }
                        assert_eq!(g.count_solutions(100), 2, "{g}");
                        assert_eq!(g.solve(), Err(SolveError::MultipleSolutions));
                        assert_eq!(reference::count_solutions(&g, 100), 2);
                        found += 1;
                    }
                }
            }
        }
    }
    assert!(found > 0, "no unavoidable rectangle in the test grid");
}

/// Count every solution by plain backtracking over empty cells, without any propagation.
fn brute_force(g: &mut [u8; 81], limit: u64) -> u64 {
    let Some(i) = g.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (r, c) = (i / 9, i % 9);
    let mut total = 0;
    for d in 1..=9u8 {
        let clash = (0..9).any(|k| {
            g[r * 9 + k] == d
                || g[k * 9 + c] == d
                || g[((r / 3) * 3 + k / 3) * 9 + (c / 3) * 3 + k % 3] == d
        });
        if !clash {
            g[i] = d;
            total += brute_force(g, limit - total);
            g[i] = 0;
            if total >= limit {
                break;
            }
        }
    }
    total
}

/// A valid solved grid from a seed: a few random clues, then the first solution (checked by the rules).
fn random_solution(seed: u64) -> Grid {
    let mut x = seed;
    let mut next = move || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    loop {
        let mut g = Grid::EMPTY;
        for _ in 0..12 {
            let cell = Cell::from_index((next() % 81) as usize);
            g.set(cell, (next() % 9 + 1) as u8);
            if g.first_conflict().is_some() {
                g.set(cell, 0);
            }
        }
        if let Some(s) = g.first_solution() {
            assert!(s.is_solved());
            assert_eq!(s.check_solution_of(&g), Ok(()));
            return s;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Blank random cells of a solved grid: the counter agrees with brute force, and the solution is the grid.
    #[test]
    fn counts_match_brute_force(seed in any::<u64>(), blanks in 0usize..45, pick in any::<u64>()) {
        let solution = random_solution(seed);
        let mut g = solution;
        let mut x = pick | 1;
        for _ in 0..blanks {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            g.set(Cell::from_index((x % 81) as usize), 0);
        }
        let mut cells = *g.digits();
        let exact = brute_force(&mut cells, 50);
        prop_assert!(exact >= 1);
        prop_assert_eq!(g.count_solutions(50), exact);
        prop_assert_eq!(reference::count_solutions(&g, 50), exact);
        let first = g.first_solution().unwrap();
        prop_assert_eq!(first.check_solution_of(&g), Ok(()));
        match g.solve() {
            Ok(s) => {
                prop_assert_eq!(exact, 1);
                prop_assert_eq!(s, solution);
            }
            Err(e) => {
                prop_assert_eq!(e, SolveError::MultipleSolutions);
                prop_assert!(exact >= 2);
            }
        }
    }

    /// Few clues, many solutions: the counter agrees with the reference solver at a limit.
    #[test]
    fn sparse_counts_match_reference(seed in any::<u64>(), keep in 0usize..30, limit in 1u64..200) {
        let solution = random_solution(seed);
        let mut g = Grid::EMPTY;
        let mut x = seed | 1;
        for _ in 0..keep {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let cell = Cell::from_index((x % 81) as usize);
            g.set(cell, solution.get(cell));
        }
        let counted = sudoku::count_solutions_with_first(&g, limit);
        prop_assert_eq!(counted.count, reference::count_solutions(&g, limit));
        prop_assert!(counted.count >= 1);
        prop_assert_eq!(counted.first.unwrap().check_solution_of(&g), Ok(()));
    }

    /// Random (often contradictory) clue sets: the counter never reports a wrong solution and agrees with the
    /// reference solver.
    #[test]
    fn random_clues_agree(digits in proptest::collection::vec(0u8..=9, 81), density in 0u8..=100) {
        let mut cells = [0u8; 81];
        for (i, &d) in digits.iter().enumerate() {
            if (d as u32 * 37 + i as u32 * 11) % 100 < density as u32 {
                cells[i] = d;
            }
        }
        let g = Grid::from_digits_allow_conflicts(cells).unwrap();
        let counted = sudoku::count_solutions_with_first(&g, 3);
        prop_assert_eq!(counted.count, reference::count_solutions(&g, 3));
        if let Some(s) = counted.first {
            prop_assert_eq!(s.check_solution_of(&g), Ok(()));
        } else {
            prop_assert_eq!(counted.count, 0);
        }
    }
}
