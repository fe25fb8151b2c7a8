//! The defects found by fuzzing and by trying `boardlab` as a new user would (issue 16), each run as a process:
//! no panic on any input, closed pipes, bounded threads, memory, time and input sizes, short error messages,
//! exact big integers in JSON, and options that would be silently ignored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
}

/// Run with `stdin` as input; returns (exit code, stdout, stderr).
fn run_with(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_with(args, b"")
}

/// A failure with one clear line on stderr containing `needle`, nothing on stdout, and no panic.
fn fails(args: &[&str], stdin: &[u8], needle: &str) -> String {
    let (code, out, err) = run_with(args, stdin);
    assert_ne!(code, 0, "{args:?} should fail: {err}");
    assert_ne!(code, 101, "{args:?} panicked: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: stdout {out}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    err
}

#[test]
fn multibyte_move_text_does_not_panic() {
    // Item 1: `printf '😀\n' | boardlab mouse play` panicked inside Move::from_str.
    for text in ["😀\n", "€1\n", "1€\n", "e1-€\n"] {
        let (code, out, err) = run_with(&["mouse", "play", "--level", "1"], text.as_bytes());
        assert_eq!(code, 0, "{text}: {err}");
        assert!(!err.contains("panicked"), "{text}: {err}");
        assert!(out.contains("Unknown command or move"), "{text}: {out}");
        assert!(out.contains("Bye."), "{text}: {out}");
    }
}

/// Run a command whose stdout is closed after its first line, as `| head -1` does.
fn first_line_only(args: &[&str]) -> (Option<i32>, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    // Wait for the first byte, then close the pipe while the program is still writing.
    let _ = stdout.read(&mut first);
    drop(stdout);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), err)
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    // Item 2: each of these panicked with "failed printing to stdout: Broken pipe" (exit 101). The outputs are
    // made long enough (JSON, --show, --divide) that they are still being written when the pipe closes.
    let commands: &[&[&str]] = &[
        &["peg", "board", "--board", "wiegleb"],
        &["peg", "boards"],
        &["--json", "peg", "board", "--board", "wiegleb"],
        &["peg", "solve", "--board", "triangle", "--show"],
        &["peg", "count", "--board", "triangle"],
        &["mouse", "show", "start"],
        &["--json", "mouse", "show", "start"],
        &["mouse", "perft", "6", "--divide"],
        &["mouse", "analyse", "start", "--depth", "4", "--stats"],
        &["mouse", "solve"],
        &[
            "sudoku",
            "hint",
            ".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.",
        ],
    ];
    for args in commands {
        let (code, err) = first_line_only(args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: stderr should stay quiet: {err}");
    }
}

#[test]
fn thread_counts_are_bounded() {
    // Item 3: --threads 100000 spawned threads for minutes.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    for verb in [
        vec!["sudoku", "solve", puzzle],
        vec!["sudoku", "rate", "-"],
        vec!["sudoku", "generate", "--seed", "1"],
    ] {
        for n in ["100000", "99999999999999999999999"] {
            let mut args = verb.clone();
            args.extend(["--threads", n]);
            let started = Instant::now();
            let (code, _, err) = run_with(&args, puzzle.as_bytes());
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains("threads: give 1 to"), "{args:?}: {err}");
            assert!(started.elapsed() < Duration::from_secs(5));
        }
    }
    let (code, out, err) = run(&["sudoku", "solve", puzzle, "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("417369825"), "{out}");
}

#[test]
fn rayon_num_threads_is_bounded_like_threads() {
    // RAYON_NUM_THREADS sizes every parallel pool: the same bound as --threads, refused before any work.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    for v in ["100000", "lots"] {
        let out = bin()
            .args(["sudoku", "solve", puzzle])
            .env("RAYON_NUM_THREADS", v)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{v}: {err}");
        assert!(
            err.starts_with("boardlab: error: RAYON_NUM_THREADS: "),
            "{v}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    for v in ["0", "1", "2"] {
        let out = bin()
            .args(["sudoku", "solve", puzzle])
            .env("RAYON_NUM_THREADS", v)
            .output()
            .unwrap();
        assert!(out.status.success(), "{v}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("417369825"));
    }
}

#[test]
fn table_sizes_are_checked_against_the_memory_limit() {
    // Item 4: --tt-bits 28 allocated 4.2 GB (12.6 GB with --verify) without a check.
    let err = fails(
        &[
            "mouse",
            "analyse",
            "start",
            "--tt-bits",
            "28",
            "--verify",
            "--max-memory",
            "1G",
        ],
        b"",
        "--tt-bits 28 --verify needs",
    );
    assert!(err.contains("more than the 1.0 GiB allowed"), "{err}");
    fails(
        &[
            "mouse",
            "analyse",
            "start",
            "--tt-bits",
            "20",
            "--max-memory",
            "1K",
        ],
        b"",
        "more than the 1 KiB allowed",
    );
    // Within the limit it runs.
    let (code, out, err) = run(&[
        "mouse",
        "analyse",
        "start",
        "--depth",
        "2",
        "--tt-bits",
        "10",
        "--max-memory",
        "1M",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best move"), "{out}");
}

#[test]
fn big_inputs_are_refused_by_size_and_name_the_file() {
    // Item 5: /dev/zero as a layout, a grid, a position or a save file grew to gigabytes.
    fails(
        &["peg", "board", "--layout", "/dev/zero"],
        b"",
        "/dev/zero is too big: a layout file is at most 1 MiB",
    );
    fails(
        &["sudoku", "hint", "/dev/zero"],
        b"",
        "/dev/zero is too big",
    );
    let zeros = vec![b'x'; 2 << 20];
    fails(
        &["sudoku", "hint", "-"],
        &zeros,
        "standard input is too big",
    );
    fails(
        &["mouse", "show", "-"],
        &zeros,
        "standard input is too big: a position is at most 64 KiB",
    );
    // A prompt line of megabytes is refused and the game goes on.
    let mut long = vec![b'e'; 3 << 20];
    long.extend_from_slice(b"\nquit\n");
    let (code, out, err) = run_with(&["mouse", "play", "--level", "1"], &long);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("That line is longer than 1024 characters"),
        "{out}"
    );
    assert!(out.len() < 10_000, "{} bytes of output", out.len());
}

#[cfg(unix)]
#[test]
fn a_fifo_nobody_writes_to_is_an_error_not_a_hang() {
    // Item 5: `--layout FIFO`, `sudoku solve FIFO` and `play --load FIFO` hung forever.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let status = Command::new("mkfifo").arg(&fifo).status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("notice: mkfifo is not available; the FIFO test is skipped");
        return;
    }
    let f = fifo.to_str().unwrap();
    // One FIFO each: a process giving up opens its FIFO for writing to release its own waiting open, which would
    // release the others' too.
    let names: Vec<String> = (0..3)
        .map(|i| {
            let p = dir.path().join(format!("pipe{i}"));
            assert!(Command::new("mkfifo").arg(&p).status().unwrap().success());
            p.to_str().unwrap().to_string()
        })
        .collect();
    let started = Instant::now();
    let mut children: Vec<_> = [
        vec!["peg", "board", "--layout", &names[0]],
        vec!["sudoku", "solve", &names[1]],
        vec!["sudoku", "hint", &names[2]],
    ]
    .into_iter()
    .map(|args| {
        let child = bin()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        (args, child)
    })
    .collect();
    for (args, child) in children.drain(..) {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.contains("is a named pipe and no program opened it for writing within 5 s"),
            "{args:?}: {err}"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(30));
    // With a writer the FIFO is read as usual.
    let mut child = bin()
        .args(["sudoku", "solve", f])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::fs::write(
        &fifo,
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    )
    .unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert!(out.starts_with("417369825"), "{out}");
}

#[test]
fn a_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for args in [
        vec!["sudoku", "solve", d],
        vec!["sudoku", "rate", d],
        vec!["peg", "board", "--layout", d],
        vec!["sudoku", "hint", d],
    ] {
        let err = fails(&args, b"", "is a directory");
        assert!(err.contains(d), "{args:?}: {err}");
    }
}

#[test]
fn a_byte_order_mark_is_read_past() {
    let dir = tempfile::tempdir().unwrap();
    let layout = dir.path().join("bom.txt");
    std::fs::write(&layout, "\u{feff}ooo.o\n").unwrap();
    let (code, out, err) = run(&["peg", "board", "--layout", layout.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("5 holes"), "{out}");
    let grid = dir.path().join("grid.txt");
    std::fs::write(
        &grid,
        "\u{feff}.1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.\n",
    )
    .unwrap();
    let (code, out, err) = run(&["sudoku", "hint", grid.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Hidden single"), "{out}");
    let (code, out, err) = run(&["sudoku", "solve", grid.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("3"), "{out}");
}

#[test]
fn peg_time_limit_is_honoured() {
    // Item 6: `--board diamond --start e1 --time-limit 1s` answered after 8-14 s, and on boards of 36 holes or
    // fewer the limit was not applied at all. The English board from a one-peg-short start with a finish makes
    // the search slow enough, then builds a complete table; both stages must stop in time.
    for (args, limit) in [
        (
            vec![
                "peg",
                "solve",
                "--board",
                "diamond",
                "--start",
                "e1",
                "--time-limit",
                "1s",
            ],
            1.0,
        ),
        (
            vec![
                "peg",
                "solve",
                "--board",
                "diamond",
                "--start",
                "e1",
                "--time-limit",
                "0.3",
            ],
            0.3,
        ),
        (
            vec![
                "peg",
                "solve",
                "--start",
                "c1",
                "d4",
                "--finish",
                "e7",
                "--time-limit",
                "0.5s",
            ],
            0.5,
        ),
    ] {
        let started = Instant::now();
        let (code, out, err) = run(&args);
        let took = started.elapsed().as_secs_f64();
        if code == 0 {
            // Answered within the limit: fine, as long as it was in time.
            assert!(took < limit + 0.5, "{args:?}: {took:.2} s: {out}");
            continue;
        }
        assert!(
            err.contains("no answer within the time limit"),
            "{args:?}: {err}"
        );
        // The process starts, builds tables and exits around the limit; allow for a loaded test machine.
        assert!(
            took < limit * 1.1 + 1.0,
            "{args:?}: took {took:.2} s for a limit of {limit} s"
        );
        assert!(!err.contains("without a budget"), "{err}");
    }
}

#[test]
fn errors_quote_a_short_excerpt() {
    // Item 7: a 10-million-character line gave a 10 MB error line.
    let line = "x".repeat(60_000);
    let err = fails(&["mouse", "show", "-"], line.as_bytes(), "characters");
    assert!(err.len() < 300, "{} bytes", err.len());
    let word = "q".repeat(100_000);
    let err = fails(&["peg", "board", "--start", &word], b"", "characters");
    assert!(err.len() < 300, "{} bytes", err.len());
    let err = fails(
        &["mouse", "perft", &"9".repeat(50)],
        b"",
        "must be between 0 and 64",
    );
    assert!(err.len() < 200, "{err}");
}

#[test]
fn hint_rejects_a_grid_with_a_wrong_entry_and_names_it() {
    // Item 8: the README's puzzle with a wrong 9 in r1c1 got a hint and exit 0 although it has no solution.
    let err = fails(
        &[
            "sudoku",
            "hint",
            "91.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.",
        ],
        b"",
        "The grid has no solution",
    );
    assert!(err.contains("9 in r1c1"), "{err}");
    // With the first rows filled in and a wrong 4 in r9c9: the message named r9c1.
    let err = fails(
        &[
            "sudoku",
            "hint",
            "3167928457485136925926483171...7..........5.9..73...8..2.95......9..7....71.8..54",
        ],
        b"",
        "The grid has no solution: the 4 in r9c9 is wrong",
    );
    assert!(!err.contains("r9c1"), "{err}");
    let (code, out, _) = run(&[
        "--json",
        "sudoku",
        "hint",
        "3167928457485136925926483171...7..........5.9..73...8..2.95......9..7....71.8..54",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "no_solution");
}

#[test]
fn big_integers_in_json_are_exact_for_every_reader() {
    // Item 9: perft 57 and peg path counts passed 2^53 as JSON numbers, which jq and JavaScript round.
    let (code, out, err) = run(&["--json", "mouse", "perft", "57"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], "1199724195561122105890373964934848");
    // A reader that takes every number as a float (as jq and JavaScript do) keeps it too.
    assert!(
        out.contains("\"count\": \"1199724195561122105890373964934848\""),
        "{out}"
    );
    let (code, out, err) = run(&[
        "--json",
        "sudoku",
        "generate",
        "--seed",
        "18446744073709551615",
        "-d",
        "beginner",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["seed"], "18446744073709551615");
    let (code, out, err) = run(&["--json", "peg", "count", "--board", "triangle"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["totals"]["games_full"], "568630");
    assert_eq!(v["levels"][0]["paths_full"], "1");
    assert_eq!(
        v["totals"]["positions"], 3016,
        "position counts stay numbers"
    );
}

#[test]
fn options_that_would_be_ignored_are_refused() {
    // Item 16.
    fails(&["--json", "play", "peg"], b"", "--json is for the tools");
    fails(&["--json"], b"", "--json is for the tools");
    fails(
        &["peg", "board", "--lattice", "triangular"],
        b"",
        "--layout",
    );
    fails(
        &["sudoku", "generate", "--classic", "--difficulty", "hard"],
        b"",
        "cannot be used with",
    );
    fails(
        &["sudoku", "generate", "--classic", "--symmetry", "90"],
        b"",
        "cannot be used with",
    );
    fails(
        &[
            "mouse",
            "analyse",
            "start",
            "--no-tables",
            "--tt-bits",
            "10",
        ],
        b"",
        "cannot be used with",
    );
    // The defaults alone are fine.
    let (code, _, err) = run(&["sudoku", "generate", "--classic", "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["peg", "board", "--board", "triangle"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_number_too_big_is_out_of_range_not_malformed() {
    let err = fails(
        &[
            "mouse",
            "analyse",
            "start",
            "--depth",
            "99999999999999999999",
        ],
        b"",
        "--depth must be between 1 and 64",
    );
    assert!(!err.contains("not a whole number"), "{err}");
}

#[test]
fn own_sudoku_puzzles_are_checked_like_sudoku_hint() {
    // Item 15: `boardlab play sudoku --puzzle PUZZLE|FILE` plays a puzzle of the player's own; a bad one is one
    // line naming what is wrong, before any terminal is touched.
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let repeated = format!("44{}", &good[2..]);
    let unsolvable = format!("{}9", &good[..80]);
    for (puzzle, want) in [
        ("12345", "--puzzle: the puzzle cannot be played: "),
        (repeated.as_str(), "--puzzle: the puzzle cannot be played: "),
        (unsolvable.as_str(), "the grid has no solution"),
    ] {
        let (code, out, err) = run(&["play", "sudoku", "--puzzle", puzzle]);
        assert_eq!(code, 1, "{puzzle}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(want), "{puzzle}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (code, _, err) = run(&["play", "mouse", "--puzzle", good]);
    assert_eq!(code, 1);
    assert!(err.contains("--puzzle is a sudoku puzzle"), "{err}");
    // A good puzzle (here from a file) gets as far as the terminal, which a test does not have.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.txt");
    std::fs::write(&file, format!("{good}\n")).unwrap();
    let (code, _, err) = run(&["play", "sudoku", "--puzzle", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("needs a terminal"), "{err}");
}
