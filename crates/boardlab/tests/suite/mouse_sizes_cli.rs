//! `boardlab mouse ... --size N`: every verb on boards other than 8x8, the published values of
//! gilith/solve, and bad sizes, squares and positions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use mousecats::{BoardSize, Rule, SizedPosition, perft};

use crate::mouse_cli::{boardlab, fails, json, ok};

fn size(n: u32) -> BoardSize {
    BoardSize::new(n).unwrap()
}

#[test]
fn solve_gives_gilith_solves_published_values() {
    // Region rule, mouse first from its default square: value and reachable positions.
    for (n, winner, plies, reachable) in [
        ("4", "cats", 8, 83u64),
        ("6", "mouse", 21, 8_175),
        ("8", "cats", 44, 709_868),
    ] {
        let j = json(&["mouse", "solve", "--size", n, "--rule", "region"]);
        assert_eq!(j["winner"], winner, "{n}");
        assert_eq!(j["plies"], plies, "{n}");
        assert_eq!(j["reachable_positions"], reachable, "{n}");
        assert_eq!(j["rule"], "region");
        assert_eq!(j["size"].as_u64().unwrap().to_string(), n);
        let states = j["states"].as_u64().unwrap();
        let counted: u64 = ["mouse_to_move", "cats_to_move"]
            .iter()
            .map(|s| j[s]["mouse_wins"].as_u64().unwrap() + j[s]["cats_win"].as_u64().unwrap())
            .sum();
        assert_eq!(counted, states, "{n}: every state is won or lost");
        assert!(!j["value_keeping_moves"].as_array().unwrap().is_empty());
    }
    let out = ok(&["mouse", "solve", "--size", "6", "--rule", "region"]);
    assert!(
        out.contains("Mouse & Cats on 6x6, region rule: mouse on C1"),
        "{out}"
    );
    assert!(out.contains("value: the mouse wins in 21 plies"), "{out}");
    assert!(
        out.contains("positions reachable from the start: 8,175"),
        "{out}"
    );
    assert!(
        out.contains("states: 24,480 (816 cat sets x 15 mouse squares"),
        "{out}"
    );
}

#[test]
fn solve_other_starts_and_the_classic_rule() {
    // The classic 8x8 figures are unchanged whatever the path.
    let j = json(&["mouse", "solve", "--size", "8x8"]);
    assert_eq!(
        (j["winner"].as_str(), j["plies"].as_u64()),
        (Some("cats"), Some(44))
    );
    assert_eq!(j["states"], 2_013_760);
    // Another square, the cats first.
    let j = json(&[
        "mouse",
        "solve",
        "--size",
        "6",
        "--mouse",
        "a1",
        "--cats-first",
        "--single-thread",
    ]);
    assert_eq!(j["first"], "cats");
    assert_eq!(j["threads"], 1);
    assert_eq!(j["start"], "size=6 mouse=A1 cats=B6,D6,F6 turn=cats");
    let moves = j["first_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5, "three cats, five moves: {moves:?}");
}

#[test]
fn solve_refuses_boards_that_do_not_fit() {
    fails(
        &["mouse", "solve", "--size", "14", "--max-memory", "1G"],
        "solving the 14x14 board needs about",
    );
    fails(&["mouse", "solve", "--size", "16"], "TiB of memory");
    fails(
        &["mouse", "solve", "--size", "12", "--max-memory", "1G"],
        "more than the 1.0 GiB allowed by --max-memory",
    );
    // Read like every other --max-memory (a usage error from the argument parser, as in `peg` and `analyse`).
    let out = boardlab()
        .args(["mouse", "solve", "--size", "6", "--max-memory", "many"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("\"many\" is not a size"), "{err}");
}

#[test]
fn bad_sizes_squares_and_rules() {
    for bad in ["9", "2", "18", "0", "x", "10x8", "-4", "९", "8.0"] {
        fails(&["mouse", "solve", "--size", bad], "--size: bad board size");
        fails(
            &["mouse", "show", "start", "--size", bad],
            "--size: bad board size",
        );
    }
    fails(
        &["mouse", "solve", "--mouse", "E9"],
        "--mouse: E9 is off the 8x8 board",
    );
    fails(
        &["mouse", "solve", "--size", "6", "--mouse", "G1"],
        "G1 is off the 6x6 board",
    );
    fails(
        &["mouse", "solve", "--size", "10", "--mouse", "F1"],
        "F1 is a light square",
    );
    fails(
        &["mouse", "solve", "--size", "10", "--mouse", "J10"],
        "two pieces on J10",
    );
    fails(
        &["mouse", "solve", "--size", "10", "--mouse", "é1"],
        "unknown square 'é1'",
    );
    fails(
        &["mouse", "solve", "--size", "10", "--rule", "row8"],
        "rule 'row8' is the 8x8 name of far-row",
    );
    fails(&["mouse", "solve", "--rule", "zone"], "unknown rule 'zone'");
    // Positions whose text does not match the size.
    fails(
        &[
            "mouse",
            "show",
            "--size",
            "8",
            "size=10 mouse=E1 cats=B10,D10,F10,H10,J10",
        ],
        "the position is for the 10x10 board, not 8x8",
    );
    fails(
        &["mouse", "show", "mouse=E1 cats=B10,D10,F10,H10,J10"],
        "B10 is off the 8x8 board",
    );
    fails(
        &[
            "mouse",
            "analyse",
            "--size",
            "10",
            "mouse=E1 cats=B8,D8,F8,H8",
        ],
        "expected 5 cats, found 4",
    );
    let ten = SizedPosition::start(size(10)).diagram();
    fails(
        &["mouse", "perft", "2", &ten, "--size", "8"],
        "row label 10 where row 8",
    );
    fails(
        &["mouse", "show", "size=11 mouse=E1"],
        "bad board size '11'",
    );
    fails(
        &["mouse", "show", "size=4 mouse=E1 cats=B4,D4"],
        "E1 is off the 4x4 board",
    );
    fails(
        &["mouse", "analyse", "--size", "12", "start", "--level", "10"],
        "--level 10 plays from the exact table",
    );
    fails(
        &["mouse", "play", "--size", "14", "--level", "10"],
        "on 14x14 pick a level from 1 to 9",
    );
}

#[test]
fn show_and_perft_on_every_size() {
    for n in [4u32, 6, 10, 12, 14, 16] {
        let s = size(n);
        let start = SizedPosition::start(s);
        let j = json(&["mouse", "show", "start", "--size", &n.to_string()]);
        assert_eq!(j["position"], start.to_string());
        assert_eq!(j["hash"], format!("{:016x}", start.zobrist_hash()));
        assert_eq!(j["size"], n);
        // The printed position reads back without --size.
        let j2 = json(&["mouse", "show", j["position"].as_str().unwrap()]);
        assert_eq!(j2["hash"], j["hash"]);
        let j3 = json(&["mouse", "show", j["diagram"].as_str().unwrap()]);
        assert_eq!(j3["position"], j["position"]);
        for d in [1u32, 3] {
            let p = json(&["mouse", "perft", &d.to_string(), "--size", &n.to_string()]);
            assert_eq!(
                p["count"],
                perft(&start, d, Rule::FarRow).to_string(),
                "{n} {d}"
            );
        }
    }
    // The memoised path beyond depth 6 agrees with plain perft.
    let start = SizedPosition::start(size(6));
    let p = json(&[
        "mouse", "perft", "8", "--size", "6", "--divide", "--rule", "region",
    ]);
    assert_eq!(p["count"], perft(&start, 8, Rule::Region).to_string());
    let out = ok(&["mouse", "show", "--size", "10", "start"]);
    assert!(out.starts_with("10   C   C   C   C   C\n 9 ."), "{out}");
    assert!(out.contains("   A B C D E F G H I J\n"), "{out}");
}

#[test]
fn analyse_on_other_boards() {
    let j = json(&[
        "mouse", "analyse", "--size", "6", "start", "--depth", "30", "--rule", "region",
    ]);
    assert_eq!(j["exact"]["winner"], "mouse");
    assert_eq!(j["exact"]["plies"], 21);
    assert_eq!(
        j["score"]["kind"], "win",
        "a 30-ply search proves the 21-ply win"
    );
    assert_eq!(j["score"]["value"], 21);
    let j = json(&["mouse", "analyse", "--size", "6", "start", "--level", "10"]);
    assert_eq!(j["perfect"], true);
    let j = json(&[
        "mouse", "analyse", "--size", "12", "start", "--depth", "6", "--stats",
    ]);
    assert!(j["exact"].is_null());
    assert_eq!(j["pv"].as_array().unwrap().len(), 6);
    assert!(j["best_move"].as_str().unwrap().starts_with("G1-"));
    let j = json(&[
        "mouse",
        "analyse",
        "--size",
        "10",
        "start",
        "--depth",
        "4",
        "--no-exact",
    ]);
    assert!(j["exact"].is_null());
    let out = ok(&["mouse", "analyse", "--size", "16", "start", "--depth", "2"]);
    assert!(out.contains("exact: not known here"), "{out}");
}

#[test]
fn play_on_a_small_board() {
    let out = boardlab()
        .args([
            "mouse", "play", "--size", "4", "--level", "10", "--rule", "region",
        ])
        .write_stdin("moves\nc1d2\nhint\nquit\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Mouse & Cats on 4x4 (region rule)"), "{text}");
    assert!(text.contains("Your moves: C1-D2 C1-B2"), "{text}");
    assert!(text.contains("The cats play "), "{text}");
    assert!(
        text.contains("4   C   C") || text.contains("4   C"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("Bye."), "{text}");
    let out = boardlab()
        .args(["mouse", "play", "--size", "12", "--level", "1"])
        .write_stdin("g1h2\nhint\nquit\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Hint: ") && text.contains("a 2-ply search"),
        "{text}"
    );
}
