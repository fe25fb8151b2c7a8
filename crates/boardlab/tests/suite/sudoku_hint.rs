//! `boardlab sudoku hint`: the next step, explained; JSON; bad input.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sudoku::Grid;

const PUZZLE: &str =
    "4......9.6.......5.....5....9.1..36....8....1..8.9.7...8.4.6.....1.7...4..65.983.";

/// Run `boardlab` with `args` and `stdin`: the exit code, stdout and stderr.
pub(crate) fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn gives_a_correct_explained_step() {
    let (code, out, err) = run(&["sudoku", "hint", PUZZLE], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("Hidden single: "), "{out}");
    assert!(lines[1].starts_with("rating 1.2; places "), "{out}");
    // The placed digit agrees with the solution.
    let sol = PUZZLE.parse::<Grid>().unwrap().solve().unwrap();
    let placed = lines[1]
        .split("places ")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    let (d, cell) = placed.split_once(" in r").unwrap();
    let (r, c) = cell.split_once('c').unwrap();
    let idx = (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1;
    assert_eq!(sol.digits()[idx], d.parse::<u8>().unwrap());
}

#[test]
fn json_step_has_cells_and_candidates() {
    let (code, out, err) = run(&["--json", "sudoku", "hint", "-"], &format!("{PUZZLE}\n"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "step");
    assert_eq!(v["step"]["technique"], "hidden_single_box");
    assert_eq!(v["step"]["placements"].as_array().unwrap().len(), 1);
    assert!(
        v["step"]["text"]
            .as_str()
            .unwrap()
            .contains("can only go in")
    );
    assert_eq!(v["step"]["houses"].as_array().unwrap().len(), 1);
}

#[test]
fn a_full_grid_and_a_stuck_grid() {
    let sol = PUZZLE.parse::<Grid>().unwrap().solve().unwrap().to_line();
    let (code, out, _) = run(&["sudoku", "hint", &sol], "");
    assert_eq!(code, 0);
    assert_eq!(out, "The grid is complete.\n");
    let empty = ".".repeat(81);
    let (code, out, _) = run(&["sudoku", "hint", &empty], "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "No logical step is left from here: the rest needs guessing, or the grid has more than one solution.\n"
    );
}

#[test]
fn bad_grids_are_rejected_cleanly() {
    let cases = [
        (PUZZLE[..80].to_string(), "80 cells"),
        (format!("{}?{}", &PUZZLE[..3], &PUZZLE[4..]), "column 4"),
        (format!("44{}", &PUZZLE[2..]), "repeats"),
        (
            "12345678.........9".to_string() + &".".repeat(63),
            "no solution",
        ),
    ];
    for (arg, needle) in cases {
        let (code, out, err) = run(&["sudoku", "hint", &arg], "");
        assert_eq!(code, 1, "{arg}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle) && !err.contains("panicked"), "{err}");
    }
    let (code, _, err) = run(&["sudoku", "hint", "-"], "");
    assert_eq!(code, 1);
    assert!(err.contains("no puzzle"), "{err}");
}

/// The terminal's hint (the sudoku session's, with no pencil marks) is the CLI's for the same grid: the same
/// sentence, the same placements and eliminations. Grids: puzzles of every generator level and partly filled
/// versions of them (correct entries only, so the session has no mistake to point at first).
#[test]
fn the_sessions_hint_is_the_clis() {
    use play::Env;
    use play::sudoku::{Puzzle, Setup, SudokuSession};
    use sudoku::generate::{Difficulty, GenerateOptions, Symmetry, generate};
    use sudoku::logic::tables::cell_name;

    let mut grids: Vec<[u8; 81]> = vec![*PUZZLE.parse::<Grid>().unwrap().digits()];
    for (i, d) in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
        .into_iter()
        .enumerate()
    {
        let opts = GenerateOptions {
            difficulty: d,
            symmetry: Symmetry::Rotate180,
        };
        let g = generate(&opts, 7, i as u64).unwrap();
        grids.push(g.puzzle);
        // The same puzzle with a third and then two thirds of its empty cells filled from the solution.
        let empty: Vec<usize> = (0..81).filter(|&c| g.puzzle[c] == 0).collect();
        for part in [3, 2] {
            let mut p = g.puzzle;
            for &c in &empty[..empty.len() / part] {
                p[c] = g.solution[c];
            }
            grids.push(p);
        }
    }
    let env = Env::blocking();
    for grid in grids {
        let line: String = grid
            .iter()
            .map(|&d| char::from(b'0' + d))
            .collect::<String>()
            .replace('0', ".");
        let (code, out, err) = run(&["--json", "sudoku", "hint", &line], "");
        assert_eq!(code, 0, "{line}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let step = &json["step"];
        let puzzle = Puzzle::from_givens(grid, "test").unwrap();
        let mut s = SudokuSession::with_puzzle(Setup::default(), puzzle, &env).unwrap();
        s.hint().unwrap();
        let h = s.shown_hint().unwrap();
        assert_eq!(
            h.text,
            format!("{}.", step["text"].as_str().unwrap()),
            "{line}"
        );
        let list = |key: &str| -> Vec<(String, u64)> {
            step[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c["cell"].as_str().unwrap().to_string(),
                        c["digit"].as_u64().unwrap(),
                    )
                })
                .collect()
        };
        let named = |v: &[(usize, u8)]| -> Vec<(String, u64)> {
            v.iter()
                .map(|&(c, d)| (cell_name(c), u64::from(d)))
                .collect()
        };
        assert_eq!(named(&h.place), list("placements"), "{line}");
        assert_eq!(named(&h.remove), list("eliminations"), "{line}");
    }
}

/// The terminal's hint (a sudoku session with no pencil marks) and `boardlab sudoku hint` give the same step for
/// the same grid, from the start of a puzzle and after some digits were filled in.
#[test]
fn the_terminal_and_the_cli_give_the_same_step() {
    use play::sudoku::{Puzzle, Setup, SudokuSession};
    let grid: Grid = PUZZLE.parse().unwrap();
    let solution = *grid.solve().unwrap().digits();
    let mut values = *grid.digits();
    let puzzle = Puzzle {
        givens: values,
        solution,
        unique: true,
        label: "test".into(),
    };
    let mut session =
        SudokuSession::with_puzzle(Setup::default(), puzzle, &play::Env::blocking()).unwrap();
    let empty: Vec<usize> = (0..81).filter(|&c| values[c] == 0).collect();
    // Fill in every seventh empty cell, asking both after each.
    for &cell in empty.iter().step_by(7).take(6) {
        session.hint().unwrap();
        let shown = session.view().hint.unwrap().text;
        let line: String = values.iter().map(|d| char::from(b'0' + d)).collect();
        let (code, out, err) = run(&["sudoku", "hint", &line], "");
        assert_eq!(code, 0, "{err}");
        let first = out.lines().next().unwrap();
        // One hint, one wording: the CLI's first line is the session's sentence.
        assert_eq!(shown, first, "grid {line}");
        session.enter(cell, solution[cell]).unwrap();
        values[cell] = solution[cell];
    }
}
