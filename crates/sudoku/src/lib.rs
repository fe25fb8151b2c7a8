#![doc = include_str!("../README.md")]

pub mod classic;
pub mod generate;
pub mod grid;
pub mod grid_parse;
pub mod logic;
pub mod rate;
pub mod rng;
pub mod solver;
pub mod stop;

pub use grid::{CELLS, Cell, Conflict, Grid, GridError, SolutionError, Unit};
pub use grid_parse::{LineResults, ParseError, ParseErrorKind, ParsedPuzzle, PuzzleReader};
pub use solver::{
    Counted, SearchStats, SolveError, count_solutions, count_solutions_with_first,
    count_solutions_with_stats, first_solution, solve,
};
