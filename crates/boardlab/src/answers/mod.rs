//! The answers that `--json` and the HTTP API give: one serde struct per question, built here and printed by
//! the CLI or sent by the server, so that the same question gets the same JSON both ways. Not a front end:
//! `cli/` and `serve/` both import it, and it imports neither.

pub mod mouse;
pub mod sudoku;
