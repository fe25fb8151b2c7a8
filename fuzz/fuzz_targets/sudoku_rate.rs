//! The rater: on any grid (digits from the input, taken only where they keep it solvable), every placement of
//! every step agrees with the solution, no elimination removes a solution digit, and a grid the rater calls
//! solved has exactly one solution.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku::Grid;
use sudoku::rate::{self, Verdict};

fuzz_target!(|data: &[u8]| {
    if data.len() < 81 {
        return;
    }
    // A solved grid from the input's first bytes, then cells kept where the input says so: a puzzle with at
    // least one solution. The grid of all empties is solved by the first solution the solver finds.
    let mut seed = [0u8; 81];
    for (d, &b) in seed.iter_mut().zip(data).take(17) {
        *d = b % 10;
    }
    let Ok(start) = Grid::from_digits(seed) else {
        return;
    };
    let Some(solution) = sudoku::solver::first_solution(&start) else {
        return;
    };
    let mut puzzle = [0u8; 81];
    for (i, (p, &b)) in puzzle.iter_mut().zip(data).enumerate() {
        if b & 0x10 != 0 {
            *p = solution.digits()[i];
        }
    }
    let Ok(grid) = Grid::from_digits(puzzle) else {
        return;
    };
    let report = rate::rate(&grid, true);
    let unique = sudoku::solver::count_solutions(&grid, 2) == 1;
    if unique {
        let sol = grid.solve().expect("unique");
        for step in &report.steps {
            for p in &step.placements {
                assert_eq!(
                    sol.digits()[usize::from(p.cell)],
                    p.digit,
                    "{}: {:?}",
                    grid.to_line(),
                    step.technique
                );
            }
            for e in &step.eliminations {
                assert_ne!(
                    sol.digits()[usize::from(e.cell)],
                    e.digit,
                    "{}: {:?}",
                    grid.to_line(),
                    step.technique
                );
            }
        }
    }
    if report.verdict == Verdict::Solved {
        assert!(unique, "rated solved but not unique: {}", grid.to_line());
    }
    let _ = rate::hint(&grid);
});
