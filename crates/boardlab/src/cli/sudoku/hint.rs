//! `boardlab sudoku hint PUZZLE`: the next logical step from a grid, explained, with the cells it involves.
//!
//! PUZZLE is the grid itself (an 81-character line), a file holding one grid (line or 9-line block), or `-` for
//! standard input. It may be a puzzle with some cells already filled in.

use crate::outln;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use play::sudoku::HintKind;
use sudoku::Grid;
use sudoku::logic::tables::cell_name;

use crate::answers::sudoku::HintAnswer;
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
    // The one hint (the session's and the API's): a grid with no solution names the entries to blame.
    let digits = grid.digits();
    let hint = play::sudoku::hint(digits, digits, &[0; 81]);
    let code = match hint.kind {
        HintKind::NoSolution | HintKind::Mistake => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    };
    if out.json {
        out.print_json(&HintAnswer::new(digits, &hint))?;
    } else if code == ExitCode::SUCCESS {
        outln!("{}", hint.text)?;
    }
    if let Some(s) = &hint.step
        && !out.json
    {
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
    }
    if code != ExitCode::SUCCESS {
        crate::errln!("boardlab: error: {}", hint.text);
    }
    Ok(code)
}
