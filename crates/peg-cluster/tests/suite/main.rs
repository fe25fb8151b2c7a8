//! peg-cluster's integration tests, one module per concern, in one test binary: the crate is linked once. Run one
//! module with `cargo test -p peg-cluster --test suite <module>::` (for example `spill::`).

mod memory;
mod spill;
