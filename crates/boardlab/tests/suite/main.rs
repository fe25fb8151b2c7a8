//! boardlab's integration tests, one module per concern, in one test binary: the crate and its dependencies
//! are linked once, and the generic code the tests share (serde, axum, tokio, ratatui) is compiled once,
//! not once per file. Run one module with
//! `cargo test -p boardlab --test suite <module>::` (for example `serve_api::`).

mod answers_agree;
mod cli_reference;
mod front_ends;
mod habits;
mod hardening;
mod mouse_cli;
mod mouse_sizes_cli;
mod peg_cli;
mod peg_cluster;
mod peg_cluster_netns;
mod peg_spill;
mod readme_examples;
mod reliability_cli;
mod serve_api;
mod serve_load;
mod serve_real;
mod serve_soak;
mod serve_web;
mod sudoku_generate;
mod sudoku_hint;
mod sudoku_rate;
mod sudoku_solve;
mod tui_mouse;
mod tui_peg;
mod tui_shell;
mod tui_smoke;
mod tui_sudoku;

// Helpers shared by several modules.
mod cluster_common;
mod server_common;
mod tui_common;
