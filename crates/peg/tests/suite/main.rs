//! peg's integration tests, one module per concern, in one test binary: the crate is linked once and the generic
//! code the tests share is compiled once, not once per file. Run one module with
//! `cargo test -p peg --test suite <module>::` (for example `shard::`).

mod english;
mod every_start;
mod fast_vs_reference;
mod finishable;
mod hostile_input;
mod memory;
mod reference;
mod shard;
mod solve;
mod spill;
