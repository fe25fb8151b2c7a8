//! `boardlab sudoku hint PUZZLE`: the next logical step from a grid, explained, with the cells it involves.
//!
//! PUZZLE is the grid itself (an 81-character line), a file holding one grid (line or 9-line block), or `-` for
//! standard input. It may be a puzzle with some cells already filled in.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde::Serialize;
use sudoku::Grid;
use sudoku::logic::tables::cell_name;
use sudoku::rate::{self, Hint};

use super::rate::{JsonStep, json_step};
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
    step: Option<JsonStep>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// Read the grid from the argument: `-`, an existing file, or the text itself.
fn read_grid(arg: &str) -> anyhow::Result<Grid> {
    let (what, text) = if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading standard input")?;
        ("<stdin>".to_string(), s)
    } else if std::path::Path::new(arg).is_file() {
        let s = std::fs::read_to_string(arg).with_context(|| format!("cannot read {arg}"))?;
        (arg.to_string(), s)
    } else {
        ("the puzzle argument".to_string(), arg.to_string())
    };
    Grid::parse(&text).with_context(|| format!("cannot read {what}"))
}

/// Run `boardlab sudoku hint`.
pub fn run(args: HintArgs, out: &Output) -> anyhow::Result<ExitCode> {
    let grid = read_grid(&args.puzzle)?;
    let hint = rate::hint(&grid);
    let (status, message, code) = match &hint {
        Hint::Step(_) => ("step", None, ExitCode::SUCCESS),
        Hint::Solved => ("solved", Some("the grid is already full".to_string()), ExitCode::SUCCESS),
        Hint::Stuck => (
            "stuck",
            Some(
                "no logical step found: the rest needs guessing, or the grid has more than one solution"
                    .to_string(),
            ),
            ExitCode::SUCCESS,
        ),
        Hint::Contradiction(c) => (
            "no_solution",
            Some(format!("the grid has no solution: {c} (is an entry wrong?)")),
            ExitCode::FAILURE,
        ),
        Hint::Mistake { cell, digit } => (
            "mistake",
            Some(format!("{} should not be {digit}", cell_name(*cell))),
            ExitCode::FAILURE,
        ),
    };
    if out.json {
        let step = match &hint {
            Hint::Step(s) => Some(json_step(s)),
            _ => None,
        };
        out.print_json(&JsonHint {
            puzzle: grid.to_line(),
            status,
            step,
            message: message.clone(),
        })?;
    } else if let Hint::Step(s) = &hint {
        println!("{s}");
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
        println!("{}", parts.join("; "));
    } else if let Some(m) = &message
        && code == ExitCode::SUCCESS
    {
        println!("{m}");
    }
    if code != ExitCode::SUCCESS
        && let Some(m) = message
    {
        eprintln!("boardlab: error: {m}");
    }
    Ok(code)
}
