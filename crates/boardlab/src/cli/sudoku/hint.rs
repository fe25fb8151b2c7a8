//! `boardlab sudoku hint PUZZLE`: the next logical step from a grid, explained, with the cells it involves.
//!
//! PUZZLE is the grid itself (an 81-character line), a file holding one grid (line or 9-line block), or `-` for
//! standard input. It may be a puzzle with some cells already filled in.

use crate::outln;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde::Serialize;
use sudoku::Grid;
use sudoku::logic::tables::cell_name;
use sudoku::rate::Hint;

use crate::answers::sudoku::StepInfo;
use crate::output::Output;

/// Arguments of `boardlab sudoku hint`.
#[derive(Debug, Args)]
#[command(after_help = "\
PUZZLE is an 81-character line ('.', '0', '_', '-' or '*' for an empty cell), a file holding one puzzle (a line \
or a 9-line block), or '-' to read standard input.

Output: the easiest logical step available, in one sentence, then what it places or removes and the cells of \
its pattern. Exit status 1 when the grid cannot be read or has no solution.")]
pub struct HintArgs {
    /// The grid: an 81-character line, a file, or `-` for standard input.
    pub puzzle: String,
}

#[derive(Debug, Serialize)]
struct JsonHint {
    puzzle: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<StepInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// The most a grid file may hold: one grid is at most a few hundred bytes, with comments.
const GRID_MAX_BYTES: u64 = 64 << 10;

/// Read the grid from the argument: `-`, an existing file, or the text itself.
fn read_grid(arg: &str) -> anyhow::Result<Grid> {
    let (what, text) = if arg == "-" {
        (
            "<stdin>".to_string(),
            crate::files::read_stdin("a grid", GRID_MAX_BYTES)?,
        )
    } else if std::path::Path::new(arg).exists() {
        let s = crate::files::read_file(std::path::Path::new(arg), "a grid", GRID_MAX_BYTES)?;
        (arg.to_string(), s)
    } else {
        ("the puzzle argument".to_string(), arg.to_string())
    };
    Grid::parse(&text).with_context(|| format!("cannot read {what}"))
}

/// Run `boardlab sudoku hint`.
pub fn run(args: HintArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let grid = read_grid(&args.puzzle)?;
    // Logic alone can step on from a grid with a wrong entry without noticing (the wrong digit clashes with
    // nothing yet), so the grid is first checked to have a solution; the entries to blame are those whose
    // removal alone makes it solvable.
    let unsolvable =
        grid.first_conflict().is_none() && sudoku::solver::count_solutions(&grid, 1) == 0;
    let hint = if unsolvable {
        None
    } else {
        // The terminal's hint asks the same question (with the player's pencil marks; here there are none).
        Some(play::sudoku::next_step(grid.digits(), &[0; 81]))
    };
    let (status, message, code) = match &hint {
        None => (
            "no_solution",
            Some(play::sudoku::no_solution_reason(&grid)),
            ExitCode::FAILURE,
        ),
        Some(Hint::Step(_)) => ("step", None, ExitCode::SUCCESS),
        Some(Hint::Solved) => ("solved", Some("the grid is already full".to_string()), ExitCode::SUCCESS),
        Some(Hint::Stuck) => (
            "stuck",
            Some(
                "no logical step found: the rest needs guessing, or the grid has more than one solution"
                    .to_string(),
            ),
            ExitCode::SUCCESS,
        ),
        Some(Hint::Contradiction(c)) => (
            "no_solution",
            Some(format!("the grid has no solution: {c} (is an entry wrong?)")),
            ExitCode::FAILURE,
        ),
        Some(Hint::Mistake { cell, digit }) => (
            "mistake",
            Some(format!("{} should not be {digit}", cell_name(*cell))),
            ExitCode::FAILURE,
        ),
    };
    if out.json {
        let step = match &hint {
            Some(Hint::Step(s)) => Some(StepInfo::new(s)),
            _ => None,
        };
        out.print_json(&JsonHint {
            puzzle: grid.to_line(),
            status,
            step,
            message: message.clone(),
        })?;
    } else if let Some(Hint::Step(s)) = &hint {
        outln!("{s}")?;
        let places: Vec<String> = s
            .placements
            .iter()
            .map(|p| format!("{} in {}", p.digit, cell_name(usize::from(p.cell))))
            .collect();
        let removes: Vec<String> = s
            .eliminations
            .iter()
            .map(|e| format!("{} from {}", e.digit, cell_name(usize::from(e.cell))))
            .collect();
        let mut parts = vec![format!("rating {}", s.rating)];
        if !places.is_empty() {
            parts.push(format!("places {}", places.join(", ")));
        }
        if !removes.is_empty() {
            parts.push(format!("removes {}", removes.join(", ")));
        }
        let cells: Vec<String> = s.cells.iter().map(|&c| cell_name(usize::from(c))).collect();
        if !cells.is_empty() {
            parts.push(format!("cells {}", cells.join(" ")));
        }
        outln!("{}", parts.join("; "))?;
    } else if let Some(m) = &message
        && code == ExitCode::SUCCESS
    {
        outln!("{m}")?;
    }
    if code != ExitCode::SUCCESS
        && let Some(m) = message
    {
        crate::errln!("boardlab: error: {m}");
    }
    Ok(code)
}
