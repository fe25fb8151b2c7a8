//! `boardlab peg ...` run as a process: every subcommand, JSON output, and every bad-input path.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn boardlab() -> Command {
    Command::cargo_bin("boardlab").unwrap()
}

fn layout(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

/// Run and expect a one-line error on stderr containing `msg`, a non-zero exit and no panic.
fn fails_with(args: &[&str], msg: &str) {
    let out = boardlab().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        stderr.contains(msg),
        "{args:?}: stderr {stderr:?} lacks {msg:?}"
    );
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {stderr:?}"
    );
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
}

/// A command-line usage error (reported by clap): non-zero exit, the message on stderr, no panic.
fn usage_error(args: &[&str], msg: &str) {
    let out = boardlab().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        stderr.contains(msg),
        "{args:?}: stderr {stderr:?} lacks {msg:?}"
    );
    assert!(!stderr.contains("panicked"));
    assert!(out.stdout.is_empty());
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = boardlab().arg("--json").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{args:?} wrote on stderr in --json mode"
    );
    serde_json::from_slice(&out.stdout).expect("stdout is only JSON")
}

#[test]
fn boards_lists_the_built_in_boards() {
    boardlab()
        .args(["peg", "boards"])
        .assert()
        .success()
        .stdout(
            contains("english")
                .and(contains("wiegleb"))
                .and(contains("triangle")),
        );
    let v = json(&["peg", "boards"]);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["english", "french", "triangle", "diamond", "wiegleb"]
    );
    assert_eq!(v[0]["holes"], 33);
    assert_eq!(v[0]["symmetries"], 8);
}

#[test]
fn board_prints_hole_names() {
    boardlab().args(["peg", "board"]).assert().success().stdout(
        contains("c1")
            .and(contains("d4"))
            .and(contains("g5"))
            .and(contains("8 symmetries")),
    );
    boardlab()
        .args(["peg", "board", "--board", "triangle"])
        .assert()
        .success()
        .stdout(contains("15").and(contains("6 symmetries")));
    let v = json(&["peg", "board", "--board", "diamond", "--start", "e5", "a5"]);
    assert_eq!(v["holes"], 41);
    assert_eq!(v["start"], serde_json::json!(["a5", "e5"]));
    assert_eq!(v["hole_names"][0], "e1");
}

#[test]
fn count_triangle_matches_published_figures() {
    boardlab()
        .args(["peg", "count", "--board", "triangle"])
        .assert()
        .success()
        .stdout(contains("reachable positions: 3,016").and(contains("29,760 in the full tree")));
    let v = json(&["peg", "count", "--board", "triangle"]);
    assert_eq!(v["totals"]["positions"], 3016);
    // Path counts are decimal strings (exact for every JSON reader); position counts are numbers.
    assert_eq!(v["totals"]["solutions_full"], "29760");
    assert_eq!(v["totals"]["games_full"], "568630");
    assert_eq!(v["levels"].as_array().unwrap().len(), 14);
    assert_eq!(v["levels"][0]["pegs"], 14);
    assert_eq!(v["finish"], serde_json::Value::Null);
}

#[test]
fn count_with_start_and_finish() {
    let v = json(&[
        "peg", "count", "--board", "triangle", "--start", "4", "--finish", "4",
    ]);
    assert_eq!(v["start"], serde_json::json!(["4"]));
    assert_eq!(v["finish"], "4");
    let solutions: u128 = v["totals"]["solutions_full"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(solutions > 0);
}

#[test]
fn count_from_a_layout_file() {
    // A 3x5 rectangle with one empty hole drawn in.
    let f = layout("ooooo\noo.oo\nooooo\n");
    let v = json(&["peg", "count", "--layout", f.path().to_str().unwrap()]);
    assert_eq!(v["holes"], 15);
    assert_eq!(v["start"], serde_json::json!(["c2"]));
    assert_eq!(v["symmetries"], 4);
}

#[test]
fn solutions_match_the_whole_table() {
    boardlab()
        .args(["peg", "solutions", "--board", "triangle"])
        .assert()
        .success()
        .stdout(contains(
            "29,760 in the full tree, 13,005 in the normal tree",
        ));
    // The same counts as the whole table, for a start and a finish of its own.
    let args = ["--board", "triangle", "--start", "4", "--finish", "4"];
    let table = json(&[&["peg", "count"][..], &args].concat());
    let v = json(&[&["peg", "solutions"][..], &args].concat());
    assert_eq!(v["solutions_full"], table["totals"]["solutions_full"]);
    assert_eq!(v["solutions_normal"], table["totals"]["solutions_normal"]);
    assert_eq!(v["finishable"], table["totals"]["finishable"]);
    assert_eq!(
        v["finishable_classes"],
        table["totals"]["finishable_classes"]
    );
    assert_eq!(v["start"], serde_json::json!(["4"]));
    assert_eq!(v["finish"], "4");
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 14);
    assert_eq!(levels[13]["paths_full"], v["solutions_full"]);
}

#[test]
fn solutions_of_the_english_central_game() {
    let v = json(&["peg", "solutions", "--finish", "d4"]);
    assert_eq!(v["class_allows_finish"], true);
    assert_eq!(v["solutions_full"], "40861647040079968");
    assert_eq!(v["solutions_normal"], "4750671971732176");
    assert_eq!(v["finishable_classes"], 1_679_072);
    assert_eq!(v["symmetries"], 8);
}

#[test]
fn finishable_set_alone() {
    let v = json(&["peg", "finishable", "--board", "triangle", "--finish", "13"]);
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 14);
    assert_eq!(levels[0]["pegs"], 14);
    assert_eq!(levels[13]["positions"], 1);
    assert!(levels[0].get("paths_full").is_none());
    let total: u64 = levels.iter().map(|l| l["classes"].as_u64().unwrap()).sum();
    assert_eq!(v["finishable_classes"], total);
    boardlab()
        .args(["peg", "finishable", "--board", "triangle"])
        .assert()
        .success()
        .stdout(contains("can still be reached: 769 (390 up to symmetry)"));
    // A finish the position class rules out: nothing, and no error.
    let v = json(&["peg", "solutions", "--finish", "c1"]);
    assert_eq!(v["solutions_full"], "0");
    assert_eq!(v["finishable"], 0);
    assert_eq!(v["class_allows_finish"], false);
    assert_eq!(
        json(&["peg", "finishable", "--finish", "c1"])["class_allows_finish"],
        false
    );
    // The text says why.
    boardlab()
        .args(["peg", "solutions", "--finish", "c1"])
        .assert()
        .success()
        .stdout(contains(
            "cannot be reached from this start: play keeps the position class",
        ));
}

#[test]
fn solutions_bad_input() {
    fails_with(
        &["peg", "solutions", "--finish", "z9"],
        "unknown hole \"z9\"",
    );
    fails_with(
        &["peg", "finishable", "--board", "hexagon"],
        "unknown board",
    );
    fails_with(&["peg", "solutions", "--start", "d4", "d4"], "named twice");
    fails_with(
        &["peg", "solutions", "--finish", "d4", "--max-memory", "1M"],
        "would need about",
    );
    usage_error(&["peg", "finishable", "--max-memory", "lots"], "not a size");
}

#[test]
fn count_stops_at_the_memory_limit_with_a_message() {
    fails_with(&["peg", "count", "--max-memory", "1M"], "would need about");
}

#[test]
fn solve_english_central_game() {
    let out = boardlab()
        .args(["peg", "solve", "--finish", "d4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    let moves: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(moves.len(), 31);
    // Replay with the library: legal all the way, one peg on d4 at the end.
    let b = peg::Board::english();
    let mut pos = b.default_start();
    for m in moves {
        let m = b.parse_move(m).unwrap();
        assert!(m.is_legal(pos));
        pos = pos.apply(m);
    }
    assert_eq!(
        pos,
        peg::Position::EMPTY.with_peg(b.parse_hole("d4").unwrap())
    );
}

#[test]
fn solve_show_and_json() {
    boardlab()
        .args(["peg", "solve", "--board", "triangle", "--show"])
        .assert()
        .success()
        .stdout(contains("1. ").and(contains("13. ")));
    let v = json(&["peg", "solve", "--board", "triangle", "--start", "5"]);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["moves"].as_array().unwrap().len(), 13);
    assert_eq!(v["positions"].as_array().unwrap().len(), 13);
}

#[test]
fn solve_reports_no_solution() {
    boardlab()
        .args(["peg", "solve", "--board", "french"])
        .assert()
        .success()
        .stdout(contains("No solution"));
    boardlab()
        .args(["peg", "solve", "--finish", "c1"])
        .assert()
        .success()
        .stdout(contains("No solution"));
    let v = json(&["peg", "solve", "--finish", "e4"]);
    assert_eq!(v["solvable"], false);
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn bad_boards_and_holes() {
    fails_with(
        &["peg", "count", "--board", "hexagon"],
        "unknown board \"hexagon\"",
    );
    fails_with(&["peg", "count", "--start", "z9"], "unknown hole \"z9\"");
    fails_with(&["peg", "count", "--start", "a1"], "unknown hole \"a1\"");
    fails_with(&["peg", "solve", "--finish", "h4"], "unknown hole \"h4\"");
    fails_with(
        &["peg", "board", "--board", "triangle", "--start", "16"],
        "unknown hole \"16\"",
    );
    fails_with(&["peg", "count", "--start", "d4", "d4"], "named twice");
    usage_error(&["peg", "count", "--max-memory", "lots"], "not a size");
    let all: Vec<String> = {
        let b = peg::Board::builtin("triangle").unwrap();
        b.hole_names().to_vec()
    };
    let mut args = vec!["peg", "solve", "--board", "triangle", "--start"];
    args.extend(all.iter().map(String::as_str));
    fails_with(&args, "the start position has no peg");
}

#[test]
fn bad_layouts_name_line_and_column() {
    let missing = ["peg", "count", "--layout", "/nonexistent/board.txt"];
    fails_with(&missing, "cannot open /nonexistent/board.txt: No such file");
    let cases: [(&str, &str); 6] = [
        ("", "the layout is empty"),
        ("__ _\n  \n", "no holes"),
        ("ooo\nooo\noxo\n", "line 3, column 2: unknown character 'x'"),
        (
            &"oooooooooo\n".repeat(7),
            "line 7, column 5: hole number 65",
        ),
        ("...\n...\n", "the start position has no peg"),
        ("ooo\no\to\n", "line 2, column 2: unknown character '\\t'"),
    ];
    for (text, msg) in cases {
        let f = layout(text);
        fails_with(
            &["peg", "count", "--layout", f.path().to_str().unwrap()],
            msg,
        );
    }
    let f = layout("  o\n o o\noo o\n");
    fails_with(
        &[
            "peg",
            "board",
            "--layout",
            f.path().to_str().unwrap(),
            "--lattice",
            "triangular",
        ],
        "line 3, column 2: hole is off the triangular lattice",
    );
    usage_error(
        &["peg", "count", "--board", "english", "--layout", "x.txt"],
        "cannot be used with",
    );
}

#[test]
fn triangular_layout_file() {
    let f = layout("   o\n  o o\n o . o\no o o o\n");
    let v = json(&[
        "peg",
        "count",
        "--layout",
        f.path().to_str().unwrap(),
        "--lattice",
        "triangular",
    ]);
    assert_eq!(v["holes"], 10);
    assert_eq!(v["start"], serde_json::json!(["5"]));
}

#[test]
fn solve_gives_up_at_the_time_limit_with_a_message() {
    // A diamond start that no search here decides quickly: the limit ends it with one line on stderr.
    let started = std::time::Instant::now();
    fails_with(
        &[
            "peg",
            "solve",
            "--board",
            "diamond",
            "--start",
            "e1",
            "--time-limit",
            "1s",
        ],
        "no answer within the time limit of 1s",
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    // A question answered in time is not affected.
    boardlab()
        .args([
            "peg",
            "solve",
            "--board",
            "diamond",
            "--start",
            "c5",
            "--time-limit",
            "1m",
        ])
        .assert()
        .success();
    usage_error(&["peg", "solve", "--time-limit", "0"], "not a duration");
    usage_error(&["peg", "solve", "--time-limit", "5x"], "not a duration");
    usage_error(&["peg", "solve", "--time-limit=-3"], "not a duration");
}
