//! `boardlab peg count --spill DIR`: the levels kept in a directory, each step in as many passes as the memory
//! limit needs. The same JSON as the in-memory command byte for byte (the English board whole, the French
//! board's first levels), a run killed with SIGKILL while it spills and resumed from the directory, and the
//! bad cases (a directory that cannot be written, a store of another problem, a damaged bucket) as one line
//! and a non-zero exit with the files kept.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cluster_common::{bin, finish, text};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The level files in a store.
fn level_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("level-"))
        .collect();
    v.sort();
    v
}

/// The English board whole under a limit that forces several passes per step, killed while it spills and
/// resumed; the French board's first 12 levels: the in-memory command's JSON, byte for byte.
#[test]
fn spilled_counts_match_and_resume_after_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let s = store.to_str().unwrap();
    let want = ok(&["--json", "peg", "count"]);
    let args = [
        "--json",
        "peg",
        "count",
        "--max-memory",
        "64M",
        "--spill",
        s,
    ];
    let mut child = Command::new(bin())
        .args(args)
        .env("PEG_DEBUG", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Each level's log line comes once the level is saved: after the one with 20 pegs, the step from 19 is
    // building the level with 18 in passes.
    let err = child.stderr.take().unwrap();
    let mut lines = BufReader::new(err).lines();
    let mut passes = 0;
    loop {
        let line = lines
            .next()
            .expect("the run ended before the level with 20 pegs")
            .unwrap();
        if let Some(p) = line
            .split(" pass(es)")
            .next()
            .and_then(|l| l.rsplit(' ').next())
        {
            passes = passes.max(p.parse::<usize>().unwrap_or(0));
        }
        if line.starts_with("peg spill: 20 pegs,") {
            break;
        }
    }
    assert!(passes > 1, "no step needed several passes");
    child.kill().unwrap();
    child.wait().unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(store.join("spill.json")).unwrap()).unwrap();
    let saved = manifest["state"]["pegs"].as_u64().unwrap();
    assert!(saved == 19 || saved == 18, "saved at {saved} pegs");
    assert!(!level_files(&store).is_empty());
    // The same command again: resumed, the same JSON; only the last level is left in the store.
    let resumed = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(resumed, Duration::from_secs(600));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), want);
    assert!(level_files(&store).is_empty(), "{:?}", level_files(&store));
    // Once more: the finished run's table, from the store alone.
    assert_eq!(ok(&args), want);

    let french = [
        "--json", "peg", "count", "--board", "french", "--levels", "12",
    ];
    let want = ok(&french);
    let fs = dir.path().join("french");
    let mut spilled = french.to_vec();
    spilled.extend(["--max-memory", "100M", "--spill", fs.to_str().unwrap()]);
    assert_eq!(ok(&spilled), want);
}

/// A store of another problem, a damaged bucket, and a directory that cannot be written: one line, a non-zero
/// exit, and the files kept.
#[test]
fn bad_stores_are_refused_with_the_files_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let s = store.to_str().unwrap();
    // A run of the diamond stopped after a few levels.
    let first = [
        "--json", "peg", "count", "--board", "diamond", "--levels", "6", "--spill", s,
    ];
    ok(&first);
    let before = std::fs::read_to_string(store.join("spill.json")).unwrap();
    // Another problem in the same directory.
    let out = run(&["--json", "peg", "count", "--spill", s]);
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains("another problem"), "{e}");
    assert_eq!(
        std::fs::read_to_string(store.join("spill.json")).unwrap(),
        before
    );

    // A damaged bucket: the run that reads it stops and says which file.
    // A store of a run in progress: stop one after its fourth level by hand, then damage its bucket.
    let prog = dir.path().join("prog");
    let p = prog.to_str().unwrap();
    let mut child = Command::new(bin())
        .args([
            "--json",
            "peg",
            "count",
            "--spill",
            p,
            "--max-memory",
            "100M",
        ])
        .env("PEG_DEBUG", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    for line in BufReader::new(err).lines() {
        if line.unwrap().starts_with("peg spill: 27 pegs,") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let files = level_files(&prog);
    assert!(!files.is_empty());
    let victim = prog.join(&files[0]);
    let mut bytes = std::fs::read(&victim).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x55;
    std::fs::write(&victim, &bytes).unwrap();
    let out = run(&[
        "--json",
        "peg",
        "count",
        "--spill",
        p,
        "--max-memory",
        "100M",
    ]);
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains("damaged") && e.contains(&files[0]), "{e}");
    assert_eq!(level_files(&prog), files, "files were removed");

    // A directory that cannot be created (a file is in the way).
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, b"x").unwrap();
    let out = run(&[
        "peg",
        "count",
        "--spill",
        blocked.join("sub").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains("cannot create the spill directory"), "{e}");
}

/// `--spill` with the cluster path: two local processes each keep their share in the directory, under a limit
/// that forces several passes per step: the in-memory command's JSON (the cluster's figures aside); `--spill`
/// with `--checkpoint` is refused in one line, and so is a directory that cannot be made.
#[test]
fn spill_on_the_cluster_path() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let want = ok(&[
        "--json", "peg", "count", "--board", "french", "--levels", "12",
    ]);
    let got = ok(&[
        "--json",
        "peg",
        "count",
        "--board",
        "french",
        "--levels",
        "12",
        "--local-processes",
        "2",
        "--max-memory",
        "50M",
        "--spill",
        store.to_str().unwrap(),
    ]);
    // Byte for byte up to the closing brace; then the cluster's figures.
    let body = want.strip_suffix("\n}\n").unwrap();
    assert!(
        got.starts_with(body) && got[body.len()..].starts_with(",\n  \"cluster\": {"),
        "{got}\nis not\n{want}\nwith the cluster figures"
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(store.join("spill.json")).unwrap()).unwrap();
    assert_eq!(m["processes"], 2);
    let out = Command::new(bin())
        .args(["peg", "count", "--local-processes", "2"])
        .args(["--spill", dir.path().to_str().unwrap()])
        .args(["--checkpoint", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains("--spill and --checkpoint"), "{e}");
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let out = Command::new(bin())
        .args(["peg", "count", "--local-processes", "2", "--spill"])
        .arg(file.join("sub"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains("cannot create the spill directory"), "{e}");
}

/// `--finish` with `--spill` on the cluster path: the whole English board from the centre to the centre, two
/// local processes spilling under a limit that forces several passes: the in-memory command's JSON (the
/// solutions to the centre and the positions that can still finish), the cluster's figures aside.
#[test]
fn spill_on_the_cluster_path_with_a_finish_hole() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let want = ok(&["--json", "peg", "count", "--finish", "d4"]);
    let got = ok(&[
        "--json",
        "peg",
        "count",
        "--finish",
        "d4",
        "--local-processes",
        "2",
        "--max-memory",
        "60M",
        "--spill",
        store.to_str().unwrap(),
    ]);
    let body = want.strip_suffix("\n}\n").unwrap();
    assert!(body.contains("\"finishable\""), "{want}");
    assert!(
        got.starts_with(body) && got[body.len()..].starts_with(",\n  \"cluster\": {"),
        "{got}\nis not\n{want}\nwith the cluster figures"
    );
}
