//! Sudoku text: any input is read into puzzles or errors with a line and column (no panic); every puzzle read
//! is solved by the fast solver and by the plain reference solver with the same count (up to 3), and every
//! solution found is a valid solution of the puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku::{Grid, PuzzleReader};

fn check(grid: &Grid) {
    let fast = sudoku::solver::count_solutions_with_first(grid, 3);
    let (count, first) = sudoku::solver::reference::count_solutions_with_first(grid, 3);
    assert_eq!(fast.count, count, "{}", grid.to_line());
    for solution in [fast.first, first].into_iter().flatten() {
        assert_eq!(solution.check_solution_of(grid), Ok(()), "{}", grid.to_line());
    }
    if count == 1 {
        assert_eq!(grid.solve().ok(), first, "{}", grid.to_line());
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut reader = PuzzleReader::new();
    let mut read = 0;
    for line in text.lines() {
        for result in reader.read_line(line) {
            match result {
                Ok(p) => {
                    read += 1;
                    if read <= 4 {
                        check(&p.grid);
                    }
                }
                Err(e) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
            }
        }
    }
    let _ = reader.finish();
    if let Ok(grid) = Grid::parse(&text) {
        let again: Grid = grid.to_line().parse().expect("a printed grid reads back");
        assert_eq!(again, grid);
    }
    // The raw bytes as digits (clashes allowed): the solvers must agree on those too.
    if data.len() >= 81 {
        let mut digits = [0u8; 81];
        for (d, &b) in digits.iter_mut().zip(data) {
            *d = b % 10;
        }
        if let Ok(grid) = Grid::from_digits_allow_conflicts(digits) {
            check(&grid);
        }
    }
});
