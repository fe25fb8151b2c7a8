//! `boardlab sudoku rate`: ratings in input order, --explain, JSON, per-line errors and exit status.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use crate::sudoku_hint::run;

/// qqwing "simple": Sudoku Explainer rates it 1.2 (hidden singles in boxes only).
const SIMPLE: &str =
    "........71..87....48.5.3.9.....9...........41..6......7....695.....491....37...86";
/// Sudoku Explainer rates it 2.6 (pointing).
const POINTING: &str =
    ".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.";
/// "Easter Monster" (SE 11.x, nested dynamic chains): beyond the rater's techniques.
const HARD: &str =
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";

#[test]
fn rates_in_input_order() {
    let (code, out, err) = run(
        &["sudoku", "rate"],
        &format!("# three\n{SIMPLE}\n{POINTING}\n{SIMPLE} a note\n"),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], format!("{SIMPLE}  1.2  hidden single (beginner)"));
    assert_eq!(lines[1], format!("{POINTING}  2.6  pointing (medium)"));
    assert_eq!(lines[2], lines[0]);
    assert!(err.contains("3 puzzles rated"), "{err}");
}

#[test]
fn explain_lists_every_step() {
    let (code, out, err) = run(
        &["sudoku", "rate", "--explain", "-"],
        &format!("{POINTING}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let empty = POINTING.bytes().filter(|&b| b == b'.').count();
    // At least one step per empty cell (placements), plus the pointing.
    assert!(lines.len() > empty, "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  2.6  Pointing: in box")),
        "{out}"
    );
    assert!(lines.iter().skip(1).all(|l| l.starts_with("  ")));
}

#[test]
fn json_has_results_and_summary() {
    let (code, out, err) = run(
        &["--json", "sudoku", "rate", "--explain"],
        &format!("{SIMPLE}\n{HARD}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = v["results"].as_array().unwrap();
    assert_eq!(r[0]["status"], "rated");
    assert_eq!(r[0]["rating"], 1.2);
    assert_eq!(r[0]["difficulty"], "beginner");
    let steps = r[0]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), SIMPLE.bytes().filter(|&b| b == b'.').count());
    assert!(
        steps[0]["placements"][0]["cell"]
            .as_str()
            .unwrap()
            .starts_with('r')
    );
    assert_eq!(r[1]["status"], "needs_guessing");
    assert_eq!(r[1]["grade"], "needs guessing");
    assert_eq!(v["summary"]["puzzles"], 2);
}

#[test]
fn unsolvable_and_ambiguous_puzzles_are_reported() {
    let two = format!("{}.", &SIMPLE[..80]);
    let many = format!("1{}", ".".repeat(80));
    let (code, out, _) = run(&["sudoku", "rate"], &format!("{many}\n"));
    assert_eq!(code, 0);
    assert!(out.contains("more than one solution"), "{out}");
    // Removing one clue of a minimal puzzle leaves it with several solutions or still one.
    let (code, _, err) = run(&["sudoku", "rate"], &format!("{two}\n"));
    assert_eq!(code, 0, "{err}");
    let dead = format!("12345678.........9{}", ".".repeat(63));
    let (_, out, _) = run(&["sudoku", "rate"], &format!("{dead}\n"));
    assert!(out.contains("no solution"), "{out}");
}

#[test]
fn bad_input_gives_line_and_column() {
    let cases = [
        (
            format!("{SIMPLE}\n{}\n", &SIMPLE[..80]),
            "line 2",
            "80 cells",
        ),
        (
            format!("{}x{}\n", &SIMPLE[..10], &SIMPLE[11..]),
            "line 1, column 11",
            "unknown character",
        ),
        (
            format!("55{}\n", &SIMPLE[2..]),
            "line 1, column 2",
            "repeats",
        ),
    ];
    for (input, place, what) in cases {
        let (code, out, err) = run(&["sudoku", "rate"], &input);
        assert_eq!(code, 1, "{input}");
        assert!(out.contains(&format!("error: {place}")), "{out}");
        assert!(out.contains(what), "{out}");
        assert!(err.contains(place) && !err.contains("panicked"), "{err}");
    }
    // Empty input.
    let (code, out, err) = run(&["sudoku", "rate"], "# nothing\n\n");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("no puzzle"), "{err}");
    // A missing file.
    let (code, out, err) = run(&["sudoku", "rate", "/nonexistent/puzzles.txt"], "");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot open /nonexistent/puzzles.txt"),
        "{err}"
    );
}

#[test]
fn reads_a_file_and_nine_line_blocks() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    for row in 0..9 {
        let r = &POINTING[row * 9..row * 9 + 9];
        writeln!(
            f,
            "{} {} {} | {} {} {} | {} {} {}",
            &r[0..1],
            &r[1..2],
            &r[2..3],
            &r[3..4],
            &r[4..5],
            &r[5..6],
            &r[6..7],
            &r[7..8],
            &r[8..9]
        )
        .unwrap();
    }
    let (code, out, err) = run(&["sudoku", "rate", f.path().to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim_end(),
        format!("{POINTING}  2.6  pointing (medium)")
    );
}

#[test]
fn a_puzzle_may_be_the_argument() {
    let (code, out, err) = run(&["sudoku", "rate", POINTING], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim_end(),
        format!("{POINTING}  2.6  pointing (medium)")
    );
}

#[test]
fn an_overlong_line_is_reported_in_place_for_rate_and_solve() {
    let long = "#".repeat(70_000);
    let input = format!("{SIMPLE}\n.{long}\n{POINTING}\n");
    for verb in ["rate", "solve"] {
        let (code, out, err) = run(&["sudoku", verb], &input);
        assert_eq!(code, 1, "{verb}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{verb}: {out}");
        assert_eq!(
            lines[1], "error: line 2, column 65537: the line is longer than 65536 bytes",
            "{verb}"
        );
        assert!(lines[2].len() >= 81, "{verb}: {out}");
        assert!(
            err.lines().all(|l| l.starts_with("boardlab: ")),
            "{verb}: {err}"
        );
    }
}
