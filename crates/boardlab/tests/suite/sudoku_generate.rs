//! `boardlab sudoku generate`: levels, symmetry, uniqueness, determinism, classic mode, JSON, bad input.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sudoku::Grid;
use sudoku::generate::{Difficulty, Symmetry};
use sudoku::rate::{self, Verdict};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A bad invocation: non-zero exit, nothing on stdout, one clear line on stderr, no panic.
fn assert_rejected(args: &[&str], needle: &str) {
    let (code, out, err) = run(args);
    assert_ne!(code, 0, "{args:?} should fail");
    assert!(out.is_empty(), "{args:?} printed {out:?}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: {err:?} should mention {needle:?}"
    );
    let lines = err.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(lines <= 4, "{args:?}: too much on stderr: {err}");
}

#[test]
fn generates_unique_symmetric_puzzles_of_the_level() {
    for (level, sym) in [
        ("beginner", "none"),
        ("easy", "90"),
        ("medium", "180"),
        ("hard", "mirror"),
        ("hard", "diagonal"),
    ] {
        let (code, out, err) = run(&[
            "sudoku", "generate", "-d", level, "-s", sym, "-n", "3", "--seed", "11",
        ]);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        let want: Difficulty = level.parse().unwrap();
        let symmetry: Symmetry = sym.parse().unwrap();
        for l in lines {
            let mut words = l.split_whitespace();
            let grid: Grid = words.next().unwrap().parse().unwrap();
            assert_eq!(grid.count_solutions(2), 1, "{l}");
            assert!(
                symmetry.holds_for(grid.digits()),
                "{l} lacks {sym} symmetry"
            );
            let r = rate::rate(&grid, false);
            assert_eq!(r.verdict, Verdict::Solved);
            assert_eq!(r.difficulty(), Some(want), "{l}");
            let printed: f64 = words.next().unwrap().parse().unwrap();
            assert_eq!(Some(printed), r.rating.map(|x| x.value()), "{l}");
            assert_eq!(words.next(), Some(level));
        }
        assert!(err.contains("seed 11"), "{err}");
    }
}

#[test]
fn a_seed_gives_the_same_puzzles_whatever_the_threads() {
    let a = run(&[
        "sudoku",
        "generate",
        "-n",
        "6",
        "--seed",
        "99",
        "--threads",
        "1",
    ]);
    let b = run(&[
        "sudoku",
        "generate",
        "-n",
        "6",
        "--seed",
        "99",
        "--threads",
        "2",
    ]);
    assert_eq!(a.0, 0);
    assert_eq!(a.1, b.1);
    let c = run(&["sudoku", "generate", "-n", "6", "--seed", "100"]);
    assert_ne!(a.1, c.1);
}

#[test]
fn json_output_is_only_json() {
    let (code, out, err) = run(&[
        "--json", "sudoku", "generate", "-n", "2", "--seed", "3", "-d", "easy",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["seed"], "3", "the 64-bit seed is a decimal string");
    let ps = v["puzzles"].as_array().unwrap();
    assert_eq!(ps.len(), 2);
    for p in ps {
        assert_eq!(p["difficulty"], "easy");
        assert_eq!(p["unique"], true);
        let grid: Grid = p["puzzle"].as_str().unwrap().parse().unwrap();
        let sol: Grid = p["solution"].as_str().unwrap().parse().unwrap();
        assert!(sol.check_solution_of(&grid).is_ok());
    }
}

#[test]
fn classic_hides_the_asked_number_of_cells() {
    let (code, out, err) = run(&[
        "sudoku",
        "generate",
        "--classic",
        "-n",
        "4",
        "--seed",
        "1981",
    ]);
    assert_eq!(code, 0, "{err}");
    for l in out.lines() {
        let p = l.split_whitespace().next().unwrap();
        assert_eq!(p.bytes().filter(|&b| b == b'.').count(), 27, "{l}");
        assert!(l.contains("possibly-not-unique"), "{l}");
        let grid: Grid = p.parse().unwrap();
        assert!(
            grid.count_solutions(1) == 1,
            "a classic puzzle keeps a solution: {l}"
        );
    }
    let (code, out, err) = run(&[
        "sudoku",
        "generate",
        "--classic",
        "--hide",
        "45",
        "--unique",
        "-n",
        "3",
        "--seed",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    for l in out.lines() {
        let p = l.split_whitespace().next().unwrap();
        assert_eq!(p.bytes().filter(|&b| b == b'.').count(), 45, "{l}");
        assert!(l.contains("classic unique"), "{l}");
        assert_eq!(p.parse::<Grid>().unwrap().count_solutions(2), 1, "{l}");
    }
}

#[test]
fn bad_arguments_are_rejected_cleanly() {
    assert_rejected(&["sudoku", "generate", "-d", "impossible"], "impossible");
    assert_rejected(&["sudoku", "generate", "-s", "sideways"], "sideways");
    assert_rejected(&["sudoku", "generate", "-n", "0"], "0");
    assert_rejected(&["sudoku", "generate", "--hide", "10"], "--classic");
    assert_rejected(&["sudoku", "generate", "--classic", "--hide", "82"], "82");
    // One range everywhere (the server's and a loaded game's): at most 64 hidden, 17 clues kept.
    assert_rejected(
        &["sudoku", "generate", "--classic", "--hide", "65"],
        "0..=64",
    );
    assert_rejected(&["sudoku", "generate", "--seed", "minus-one"], "minus-one");
    assert_rejected(
        &[
            "sudoku",
            "generate",
            "--classic",
            "--unique",
            "--hide",
            "60",
            "--seed",
            "1",
        ],
        "cannot hide 60",
    );
}
