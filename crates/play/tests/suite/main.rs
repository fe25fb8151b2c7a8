//! play's integration tests, one module per concern, in one test binary: the crate is linked once and the generic
//! code the tests share is compiled once, not once per file. Run one module with
//! `cargo test -p play --test suite <module>::` (for example `peg_session::`).

mod game_session;
mod mouse_session;
mod neutral;
mod no_keys;
mod peg_session;
mod sudoku_session;
