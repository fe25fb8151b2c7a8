//! `boardlab mouse ...` run as a process: every subcommand, the JSON output, and bad input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use mousecats::{Engine, EngineConfig, Level, Position, Rule, Side, Solution, TableConfig};
use serde_json::Value as Json;

pub(crate) fn boardlab() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("boardlab")
}

/// Run and return stdout, asserting success.
pub(crate) fn ok(args: &[&str]) -> String {
    let out = boardlab().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Run with `--json` and parse stdout, which must hold nothing but the JSON document.
pub(crate) fn json(args: &[&str]) -> Json {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = ok(&all);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"))
}

/// Run expecting failure: a non-zero exit and one clear line on stderr containing `needle`.
pub(crate) fn fails(args: &[&str], needle: &str) {
    let out = boardlab().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
}

#[test]
fn solve_the_standard_game() {
    let out = ok(&["mouse", "solve"]);
    assert!(out.contains("value: the cats win in 44 plies"), "{out}");
    assert!(out.contains("states: 2,013,760"), "{out}");
    let j = json(&["mouse", "solve"]);
    assert_eq!(j["winner"], "cats");
    assert_eq!(j["plies"], 44);
    assert_eq!(j["states"], 2_013_760);
    for side in ["mouse_to_move", "cats_to_move"] {
        let s = &j[side];
        assert_eq!(
            s["mouse_wins"].as_u64().unwrap() + s["cats_win"].as_u64().unwrap(),
            1_006_880
        );
    }
    let reachable = j["reachable_positions"].as_u64().unwrap();
    assert!(reachable > 1 && reachable < 2_013_760);
}

#[test]
fn solve_with_the_mouse_anywhere_on_row_1() {
    for sq in ["A1", "C1", "g1"] {
        let j = json(&["mouse", "solve", "--mouse", sq]);
        assert_eq!(j["winner"], "cats", "{sq}");
    }
    // Options are accepted and reported.
    let j = json(&[
        "mouse",
        "solve",
        "--cats-first",
        "--rule",
        "escape",
        "--single-thread",
    ]);
    assert_eq!(j["first"], "cats");
    assert_eq!(j["rule"], "escape");
    assert_eq!(j["threads"], 1);
    assert!(j["start"].as_str().unwrap().ends_with("turn=cats"));
}

#[test]
fn solve_rejects_bad_options() {
    fails(&["mouse", "solve", "--mouse", "Z9"], "unknown square 'Z9'");
    fails(&["mouse", "solve", "--mouse", "B1"], "B1 is a light square");
    fails(&["mouse", "solve", "--mouse", "D8"], "two pieces on D8");
    fails(&["mouse", "solve", "--rule", "row9"], "unknown rule 'row9'");
}

#[test]
fn analyse_a_position() {
    let out = ok(&["mouse", "analyse", "start", "--depth", "8", "--stats"]);
    assert!(out.contains("best move: E1-"), "{out}");
    assert!(out.contains("principal variation: E1-"), "{out}");
    assert!(out.contains("exact: the cats win in 44 plies"), "{out}");
    assert!(out.contains("lock mismatches"), "{out}");

    let j = json(&[
        "mouse",
        "analyse",
        "mouse=E1 cats=B8,D8,F8,H8 turn=mouse",
        "--depth",
        "10",
        "--stats",
        "--tt-bits",
        "8",
        "--lock-bits",
        "0",
        "--verify",
    ]);
    let best = j["best_move"].as_str().unwrap();
    assert!(["E1-D2", "E1-F2"].contains(&best), "{best}");
    assert_eq!(j["depth"], 10);
    assert_eq!(j["pv"].as_array().unwrap().len(), 10);
    let its = j["iterations"].as_array().unwrap();
    assert_eq!(its.len(), 10);
    assert_eq!(its[9]["pv"], j["pv"]);
    assert_eq!(j["exact"]["winner"], "cats");
    assert_eq!(j["exact"]["plies"], 44);
    assert!(j["nodes"].as_u64().unwrap() > 10);
    let t = &j["tables"];
    assert_eq!(t["index_bits"], 8);
    assert!(t["false_hits"].as_u64().unwrap() > 0, "{t}");

    // Level 10 plays from the exact table.
    let j = json(&["mouse", "analyse", "start", "--level", "10"]);
    assert_eq!(j["perfect"], true);
    assert_eq!(j["score"]["text"], "the cats win in 44 plies");
    assert_eq!(j["score"]["kind"], "loss");
    assert_eq!(j["score"]["value"], 44);
    assert_eq!(j["pv"].as_array().unwrap().len(), 44);
    let keep: Vec<&str> = j["exact"]["value_keeping_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(keep.contains(&j["best_move"].as_str().unwrap()));

    // A near-end position, given as a diagram on stdin, no tables.
    let p: Position = "mouse=C3 cats=B4,D4,A1,E1 turn=cats".parse().unwrap();
    let out = boardlab()
        .args([
            "--json",
            "mouse",
            "analyse",
            "-",
            "--depth",
            "6",
            "--no-tables",
        ])
        .write_stdin(p.diagram())
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["position"], p.to_string());
    let exact = Solution::solve(Rule::FarRow).value(&p);
    assert_eq!(j["exact"]["plies"], exact.plies());
}

#[test]
fn analyse_rejects_bad_input() {
    fn a<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut v = vec!["mouse", "analyse"];
        v.extend_from_slice(extra);
        v
    }
    fails(&a(&["mouse=E1 cats=B8,D8,F8"]), "expected 4 cats, found 3");
    fails(
        &a(&["mouse=E1 cats=B8,D8,F8,H8,A7"]),
        "expected 4 cats, found 5",
    );
    fails(&a(&["mouse=B8 cats=B8,D8,F8,H8"]), "two pieces on B8");
    fails(&a(&["mouse=E2 cats=B8,D8,F8,H8"]), "E2 is a light square");
    fails(
        &a(&["mouse=K1 cats=B8,D8,F8,H8"]),
        "K1 is off the 8x8 board",
    );
    fails(&a(&["mouse=Z1 cats=B8,D8,F8,H8"]), "unknown square 'Z1'");
    fails(
        &a(&["start", "--depth", "0"]),
        "--depth must be between 1 and 64, got 0",
    );
    fails(
        &a(&["start", "--depth", "65"]),
        "--depth must be between 1 and 64, got 65",
    );
    fails(&a(&["start", "--depth", "deep"]), "not a whole number");
    fails(
        &a(&["start", "--level", "11"]),
        "--level must be between 1 and 10",
    );
    fails(&a(&["start", "--level", "3", "--depth", "4"]), "not both");
    fails(
        &a(&["start", "--tt-bits", "7"]),
        "--tt-bits must be between 8 and 28",
    );
    fails(
        &a(&["start", "--lock-bits", "33"]),
        "--lock-bits must be between 0 and 32",
    );
    fails(&a(&["start", "--time", "-1"]), "--time must be more than 0");
    fails(&a(&["start", "--no-tables", "--verify"]), "--verify");
    fails(&a(&["start", "--rule", "x"]), "unknown rule");
    let bad_diagram = "8 c . c . c . c .\n7 . . . . . . . .\n";
    fails(&a(&[bad_diagram]), "diagram line 1, column 3");
}

#[test]
fn perft_counts() {
    let out = ok(&["mouse", "perft", "4"]);
    assert!(out.starts_with("perft 4: 344 "), "{out}");
    for (d, n) in [(1, 2), (2, 14), (3, 56), (4, 344)] {
        let j = json(&["mouse", "perft", &d.to_string()]);
        assert_eq!(j["count"], n.to_string(), "counts are decimal strings");
    }
    let j = json(&["mouse", "perft", "9", "--divide"]);
    let total: u64 = j["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["count"].as_str().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(j["count"], total.to_string());
    assert_eq!(
        total,
        mousecats::perft(&Position::start(), 9, Rule::FarRow),
        "the memoised count agrees with plain perft"
    );
    // From a given position.
    let j = json(&["mouse", "perft", "3", "mouse=D4 cats=A5,C5,E5,G5 turn=cats"]);
    let p: Position = "mouse=D4 cats=A5,C5,E5,G5 turn=cats".parse().unwrap();
    assert_eq!(
        j["count"],
        mousecats::perft(&p, 3, Rule::FarRow).to_string()
    );
    let j = json(&[
        "mouse",
        "perft",
        "3",
        "mouse=D4 cats=A3,C3,E3,G3",
        "--rule",
        "escape",
    ]);
    assert_eq!(j["count"], "0", "the escaped mouse has already won");

    fails(
        &["mouse", "perft", "65"],
        "perft depth must be between 0 and 64, got 65",
    );
    fails(
        &["mouse", "perft", "-1"],
        "perft depth must be between 0 and 64",
    );
    fails(&["mouse", "perft", "x"], "not a whole number");
    fails(
        &["mouse", "perft", "2", "mouse=A1 cats=A1,C3,E5,G7"],
        "two pieces on A1",
    );
}

#[test]
fn show_a_position() {
    let out = ok(&["mouse", "show", "start"]);
    assert!(out.contains("8   C   C   C   C"), "{out}");
    assert!(out.contains("mouse to move: E1-F2 E1-D2"), "{out}");
    let j = json(&[
        "mouse",
        "show",
        "mouse=D4 cats=A3,C3,E3,G3",
        "--rule",
        "escape",
    ]);
    assert_eq!(j["winner"], "mouse");
    let p: Position = j["position"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        format!("{:016x}", p.zobrist_hash()),
        j["hash"].as_str().unwrap()
    );
    fails(&["mouse", "show", "mouse=E1"], "expected 4 cats, found 0");
}

/// Feed `input` to `boardlab mouse play ARGS` and return stdout.
fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["mouse", "play"];
    all.extend_from_slice(args);
    let out = boardlab().args(&all).write_stdin(input).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{all:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn play_a_whole_game_against_perfect_cats() {
    // The human plays the mouse's first legal move every turn; the cats play perfectly. Work out the
    // game with the library first, then type the mouse's moves in.
    let solution = Solution::solve(Rule::FarRow);
    let mut p = Position::start();
    let mut script = String::new();
    while p.outcome(Rule::FarRow).is_none() {
        let mv = match p.turn() {
            Side::Mouse => {
                let m = p.moves()[0];
                script.push_str(&m.to_compact());
                script.push('\n');
                m
            }
            Side::Cats => solution.best_move(&p).unwrap(),
        };
        p = p.make_move(mv);
    }
    script.push_str("moves\nhint\nquit\n");
    let out = play(&["--level", "10"], &script);
    assert!(out.contains("Game over: the cats win"), "{out}");
    assert!(out.contains("No moves: the game is over."), "{out}");
    assert!(out.contains("No hint: the game is over."), "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
}

#[test]
fn play_the_cats_perfectly_against_a_searching_mouse() {
    // The engine's choices are deterministic: replay them with the library's engine set up the same way.
    let solution = Solution::solve(Rule::FarRow);
    let mut engine = Engine::new(EngineConfig {
        rule: Rule::FarRow,
        tables: Some(TableConfig::default()),
    })
    .unwrap();
    let level = Level::new(2).unwrap();
    let mut p = Position::start();
    let mut script = String::new();
    let mut engine_moves = Vec::new();
    while p.outcome(Rule::FarRow).is_none() {
        let mv = match p.turn() {
            Side::Mouse => {
                let m = engine.think(&p, level, None).best_move.unwrap();
                engine_moves.push(m);
                m
            }
            Side::Cats => {
                let m = solution.best_move(&p).unwrap();
                script.push_str(&format!("{m}\n"));
                m
            }
        };
        p = p.make_move(mv);
    }
    let out = play(&["--as", "cats", "--level", "2"], &script);
    for m in &engine_moves {
        assert!(
            out.contains(&format!("The mouse plays {m} (")),
            "{m}: {out}"
        );
    }
    assert!(out.contains("Game over: the cats win"), "{out}");
    // End of input quits cleanly.
    assert!(out.trim_end().ends_with("Bye."), "{out}");
}

#[test]
fn play_commands_and_bad_input() {
    let input =
        "help\nmoves\nz9\ne1e2\nb8a7\n\ne1f2\nhint\nboard\nundo\nundo\nswap\nmoves\nnew\nquit\n";
    let out = play(&["--level", "1"], input);
    assert!(out.contains("Commands:"), "{out}");
    assert!(out.contains("Your moves: E1-F2 E1-D2"), "{out}");
    assert!(out.contains("Unknown command or move 'z9'"), "{out}");
    assert!(
        out.contains("Illegal move: E1-E2 is not a legal mouse move here"),
        "{out}"
    );
    assert!(
        out.contains("Illegal move: B8-A7: no mouse piece on B8"),
        "{out}"
    );
    assert!(out.contains("The cats play "), "{out}");
    assert!(out.contains("Hint: "), "{out}");
    assert!(out.contains("Took back E1-F2 "), "{out}");
    assert!(out.contains("Nothing to undo"), "{out}");
    assert!(out.contains("You now play the cats"), "{out}");
    assert!(out.contains("The mouse plays "), "{out}");
    assert!(out.contains("Your moves: B8-A7 "), "{out}");
    assert!(out.contains("New game. You play the cats."), "{out}");
    // The board with its hash and lock.
    let start = Position::start();
    assert!(
        out.contains(&format!(
            "mouse to move   hash {:016x}   lock {:08x}",
            start.zobrist_hash(),
            start.zobrist_lock()
        )),
        "{out}"
    );
    assert!(out.contains("  A B C D E F G H"), "{out}");
}

#[test]
fn play_options() {
    let out = play(
        &[
            "--mouse",
            "A1",
            "--cats-first",
            "--rule",
            "escape",
            "--time",
            "0.5",
        ],
        "quit\n",
    );
    assert!(out.contains("(escape rule)"), "{out}");
    assert!(out.contains("The cats play "), "the cats move first: {out}");
    fails(&["mouse", "play", "--as", "dog"], "unknown side 'dog'");
    fails(
        &["mouse", "play", "--level", "0"],
        "--level must be between 1 and 10",
    );
    fails(&["mouse", "play", "--mouse", "H8"], "two pieces on H8");
    fails(&["--json", "mouse", "play"], "no --json output");
}

/// `boardlab mouse play` and the terminal (a `play::MouseSession`) give the same hint and tell the end of the
/// same game the same way.
#[test]
fn play_gives_the_sessions_hint_and_end() {
    use play::mouse::{MouseOptions, MouseSession};
    let env = play::Env::blocking();
    let mut s = MouseSession::new(
        MouseOptions {
            level: 10,
            ..MouseOptions::default()
        },
        &env,
    )
    .unwrap();
    // The mouse plays its first legal move each turn; the perfect cats answer. A hint from each of the first
    // positions, and one at the end.
    let mut script = String::new();
    let mut hints = Vec::new();
    while !s.is_over() {
        if hints.len() < 3 {
            s.hint();
            hints.push(s.hint_move().unwrap());
            script.push_str("hint\n");
        }
        let m = s.legal_moves()[0];
        script.push_str(&format!("{}\n", m.to_compact()));
        s.play(m).unwrap();
    }
    script.push_str("quit\n");
    let out = play(&["--level", "10"], &script);
    let cli_hints: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split("Hint: ").nth(1))
        .map(|h| h.split(' ').next().unwrap())
        .collect();
    let hints: Vec<String> = hints.iter().map(ToString::to_string).collect();
    assert_eq!(cli_hints, hints, "{out}");
    let end = s.game_over_message(s.winner().unwrap()).text;
    assert!(end.starts_with("Game over: the mouse is trapped."), "{end}");
    assert!(
        out.contains(&format!(
            "Game over: the cats win after {} plies (the mouse is trapped).",
            s.moves().len()
        )),
        "{out}"
    );
}
