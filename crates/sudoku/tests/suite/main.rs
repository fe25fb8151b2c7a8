//! sudoku's integration tests, one module per concern, in one test binary: the crate is linked once and the
//! generic code the tests share is compiled once, not once per file. Run one module with
//! `cargo test -p sudoku --test suite <module>::` (for example `solve::`).

mod classic_props;
mod generate_props;
mod grid;
mod logic_qqwing_levels;
mod logic_se_agreement;
mod logic_sound;
mod logic_techniques;
mod solve;
mod stop;

// Helpers shared by several modules.
mod common;
