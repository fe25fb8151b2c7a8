//! mousecats' integration tests, one module per concern, in one test binary: the crate is linked once and the
//! generic code the tests share is compiled once, not once per file. Run one module with
//! `cargo test -p mousecats --test suite <module>::` (for example `sizes::`).

mod hostile_text;
mod known_results;
mod perft_bounded;
mod rules;
mod search;
mod sizes;
mod solve;

// Helpers shared by several modules.
mod common;
