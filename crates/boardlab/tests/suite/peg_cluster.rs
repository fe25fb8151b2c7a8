//! `boardlab peg count` on a cluster of processes on this machine: the same output as the single-machine
//! command (byte for byte, the cluster's figures apart), a run killed in the middle of a level and resumed
//! from its checkpoint, and every start-up failure (mismatched processes, a bad host file, a port in use, an
//! unreachable peer) reported by every process, with a non-zero exit, in bounded time.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use crate::cluster_common::{bin, finish, text};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

/// Each command's output, computed once.
type Outputs = Mutex<HashMap<Vec<String>, Arc<OnceLock<Vec<u8>>>>>;

/// The single-machine command's stdout (each command run once for all the tests of this file: the English
/// table is wanted by two of them).
fn single(args: &[&str]) -> Vec<u8> {
    static DONE: OnceLock<Outputs> = OnceLock::new();
    let key: Vec<String> = args.iter().map(|a| (*a).to_string()).collect();
    let slot = Arc::clone(
        DONE.get_or_init(Mutex::default)
            .lock()
            .unwrap()
            .entry(key)
            .or_default(),
    );
    slot.get_or_init(|| {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        out.stdout
    })
    .clone()
}

/// The same command on `procs` local processes of `workers` workers: its stdout must be the single-machine
/// JSON with one more key, "cluster", at the end.
fn same_json(args: &[&str], procs: usize, workers: usize) {
    let mut want = vec!["--json", "peg", "count"];
    want.extend_from_slice(args);
    let single_out = single(&want);
    let (p, w) = (procs.to_string(), workers.to_string());
    want.extend_from_slice(&["--local-processes", &p, "--workers", &w]);
    let out = run(&want);
    assert!(out.status.success(), "{want:?}: {}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{want:?}: {}", text(&out.stderr));
    let s = text(&single_out);
    let c = text(&out.stdout);
    // Byte for byte up to the closing brace; then the cluster's figures.
    let body = s.strip_suffix("\n}\n").unwrap();
    assert!(
        c.starts_with(body) && c[body.len()..].starts_with(",\n  \"cluster\": {"),
        "{want:?}:\n{c}\nis not\n{s}\nwith the cluster figures"
    );
    let v: serde_json::Value = serde_json::from_str(&c).unwrap();
    let figures = &v["cluster"];
    assert_eq!(figures["processes"], procs);
    assert_eq!(figures["workers"], workers);
    let per = figures["per_process"].as_array().unwrap();
    assert_eq!(per.len(), procs);
    let sent: u64 = per
        .iter()
        .map(|p| p["records_sent"].as_u64().unwrap())
        .sum();
    let received: u64 = per
        .iter()
        .map(|p| p["records_received"].as_u64().unwrap())
        .sum();
    assert_eq!(sent, received);
    if procs > 1 {
        assert!(per.iter().all(|p| p["bytes_sent"].as_u64().unwrap() > 0));
    }
}

fn layout_file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn english_centre_in_three_processes_and_in_two_of_two_workers() {
    same_json(&[], 3, 1);
    same_json(&[], 2, 2);
}

#[test]
fn french_standard_start_triangle_and_a_custom_layout() {
    let dir = tempfile::tempdir().unwrap();
    // 24 holes on the square lattice, one mirror symmetry, two vacancies.
    let custom = layout_file(
        dir.path(),
        "boat.txt",
        "  ooo\n  o.o\nooooooo\nooo.ooo\n ooooo\n",
    );
    for (procs, workers) in [(3, 1), (2, 2)] {
        same_json(&["--board", "french", "--levels", "9"], procs, workers);
        same_json(&["--board", "triangle"], procs, workers);
        same_json(&["--board", "triangle", "--start", "4"], procs, workers);
        // Finish holes: the start's vacancy (complements), and another hole (a table of jumps taken back).
        same_json(&["--board", "triangle", "--finish", "1"], procs, workers);
        same_json(
            &["--board", "triangle", "--start", "4", "--finish", "13"],
            procs,
            workers,
        );
        same_json(&["--layout", &custom], procs, workers);
    }
    // Text: stdout byte for byte, the figures on stderr.
    let want = single(&["peg", "count", "--board", "triangle"]);
    let out = run(&[
        "peg",
        "count",
        "--board",
        "triangle",
        "--local-processes",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), text(&want));
    let err = text(&out.stderr);
    assert!(err.contains("cluster: 2 processes x 1 worker"), "{err}");
    assert!(err.contains("peak memory"), "{err}");
}

/// Free loopback ports for a host file.
fn hosts_file(dir: &Path, n: usize) -> String {
    let listeners: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    layout_file(dir, "hosts.txt", &text)
}

fn spawn(args: &[&str], process: usize, hosts: &str, extra: &[&str]) -> Child {
    Command::new(bin())
        .args(args)
        .args(["--hosts", hosts, "--process", &process.to_string()])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Every process of `args` (one per entry, with its extra arguments) fails within `limit` with a message
/// containing the entry's text.
fn all_fail(args: &[&str], hosts: &str, each: &[(&[&str], &str)], limit: Duration) {
    let children: Vec<Child> = each
        .iter()
        .enumerate()
        .map(|(i, (extra, _))| spawn(args, i, hosts, extra))
        .collect();
    for (i, (c, (_, want))) in children.into_iter().zip(each).enumerate() {
        let out = finish(c, limit);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "process {i} succeeded: {err}");
        assert!(err.contains(want), "process {i}: {err:?} lacks {want:?}");
        assert!(err.starts_with("boardlab: error: "), "process {i}: {err:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "process {i}: {err:?}");
        assert!(!err.contains("panicked"), "process {i}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn mismatched_processes_are_refused_by_every_process() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hosts_file(dir.path(), 3);
    let t = ["peg", "count", "--connect-timeout", "20s"];
    let limit = Duration::from_secs(40);
    all_fail(
        &t,
        &hosts,
        &[
            (&["--board", "triangle"], "another problem"),
            (&["--board", "triangle"], "another problem"),
            (&["--board", "triangle", "--start", "4"], "another problem"),
        ],
        limit,
    );
    let hosts = hosts_file(dir.path(), 2);
    all_fail(
        &t,
        &hosts,
        &[
            (&["--board", "triangle", "--workers", "2"], "workers"),
            (&["--board", "triangle"], "workers"),
        ],
        limit,
    );
    let hosts = hosts_file(dir.path(), 2);
    all_fail(
        &t,
        &hosts,
        &[
            (&["--board", "triangle", "--levels", "3"], "other settings"),
            (&["--board", "triangle"], "other settings"),
        ],
        limit,
    );
}

#[test]
fn bad_host_files_ports_in_use_and_unreachable_peers() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "peg",
        "count",
        "--board",
        "triangle",
        "--connect-timeout",
        "3s",
    ];
    let limit = Duration::from_secs(30);
    // A bad line: every process says which line.
    let bad = layout_file(dir.path(), "bad.txt", "127.0.0.1:4100\nlocalhost\n");
    all_fail(&args, &bad, &[(&[], "line 2"), (&[], "line 2")], limit);
    let out = run(&[
        "peg",
        "count",
        "--hosts",
        &bad,
        "--process",
        "5",
        "--board",
        "triangle",
    ]);
    assert!(!out.status.success());
    // --process past the file.
    let two = hosts_file(dir.path(), 2);
    let out = run(&[
        "peg",
        "count",
        "--hosts",
        &two,
        "--process",
        "2",
        "--board",
        "triangle",
    ]);
    assert!(text(&out.stderr).contains("--process 2 is not in the host file"));
    // A port in use: process 1 cannot listen, process 0 waits for it in vain.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hosts = layout_file(
        dir.path(),
        "taken.txt",
        &format!(
            "127.0.0.1:{}\n127.0.0.1:{}\n",
            free.local_addr().unwrap().port(),
            taken.local_addr().unwrap().port()
        ),
    );
    drop(free);
    all_fail(
        &args,
        &hosts,
        &[(&[], "did not connect"), (&[], "already in use")],
        limit,
    );
    drop(taken);
    // Only one of two processes started: it says which peer is missing.
    let hosts = hosts_file(dir.path(), 2);
    all_fail(&args, &hosts, &[(&[], "process 1 (127.0.0.1:")], limit);
    let c = spawn(&args, 1, &hosts, &[]);
    let out = finish(c, limit);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("could not reach process 0"), "{err}");
    // Cluster options without a cluster.
    let out = run(&["peg", "count", "--board", "triangle", "--workers", "2"]);
    assert!(text(&out.stderr).contains("--workers works with the cluster engine only"));
    assert!(!out.status.success());
}

/// Start `n` processes of `args` on `hosts`, process 1 logging its levels.
fn start_logged(args: &[&str], hosts: &str, n: usize) -> Vec<Child> {
    (0..n)
        .map(|i| {
            let mut c = Command::new(bin());
            c.args(args)
                .args(["--hosts", hosts, "--process", &i.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            if i == 1 {
                c.env("PEG_DEBUG", "1");
            }
            c.spawn().unwrap()
        })
        .collect()
}

/// Start `n` processes of `args` (with `--checkpoint ck`) and kill process 1 with SIGKILL once it has
/// expanded the level with 22 pegs (the one with 21 has begun): every other process stops with a message
/// naming it, in bounded time. Returns the pegs of the level the checkpoint holds: one saved before the kill.
fn kill_process_1(args: &[&str], hosts: &str, n: usize, ck: &str) -> u64 {
    let mut first = start_logged(args, hosts, n);
    let err = first[1].stderr.take().unwrap();
    let mut lines = BufReader::new(err).lines();
    let mut seen = Vec::new();
    loop {
        let line = lines
            .next()
            .expect("process 1 ended before the level with 22 pegs")
            .unwrap();
        let done = line.contains("level 22 pegs:");
        seen.push(line);
        if done {
            break;
        }
    }
    first[1].kill().unwrap();
    first[1].wait().unwrap();
    let t = Instant::now();
    for (i, c) in first.into_iter().enumerate() {
        if i == 1 {
            continue;
        }
        let out = finish(c, Duration::from_secs(30));
        let err = text(&out.stderr);
        assert!(!out.status.success(), "process {i} succeeded");
        assert!(err.contains("process 1 (127.0.0.1:"), "process {i}: {err}");
        assert!(err.contains("was lost"), "process {i}: {err}");
        assert!(!err.contains("panicked"), "process {i}: {err}");
    }
    assert!(t.elapsed() < Duration::from_secs(25));
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ck).join("manifest.json")).unwrap(),
    )
    .unwrap();
    let saved = manifest["state"]["pegs"].as_u64().unwrap();
    assert!(saved == 21 || saved == 22, "manifest at {saved} pegs");
    saved
}

/// The same command started again on `n` processes: it resumes from the level `saved` of the checkpoint, and
/// process 0 prints `want`'s JSON byte for byte, then the cluster's figures.
fn resumed_gives(args: &[&str], hosts: &str, n: usize, saved: u64, want: &[u8]) {
    let outs: Vec<Output> = start_logged(args, hosts, n)
        .into_iter()
        .map(|c| finish(c, Duration::from_secs(900)))
        .collect();
    for (i, o) in outs.iter().enumerate() {
        assert!(o.status.success(), "process {i}: {}", text(&o.stderr));
    }
    let got = text(&outs[0].stdout);
    let body = text(want);
    let body = body.strip_suffix("\n}\n").unwrap();
    assert!(
        got.starts_with(body) && got[body.len()..].starts_with(",\n  \"cluster\": {"),
        "{got}\nis not\n{body}"
    );
    let v: serde_json::Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["cluster"]["resumed_from"].as_u64(), Some(saved));
}

/// Process 1 killed with SIGKILL in the middle of a level: every other process stops with a message naming
/// it, in bounded time; the same command started again resumes from the checkpoint and gives the
/// uninterrupted run's table.
#[test]
fn killed_process_then_resumed_from_the_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let ck = ck.to_str().unwrap();
    let want = single(&["--json", "peg", "count"]);
    let hosts = hosts_file(dir.path(), 3);
    let args = [
        "--json",
        "peg",
        "count",
        "--checkpoint",
        ck,
        "--peer-timeout",
        "20s",
    ];
    let saved = kill_process_1(&args, &hosts, 3, ck);
    // Again: resumed, the same table.
    resumed_gives(&args, &hosts, 3, saved, &want);
    // Nothing was deleted: the shares of every level saved are still there.
    let shares = std::fs::read_dir(ck)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("share-22-")
        })
        .count();
    assert_eq!(shares, 3);
}

/// `--finish` with `--checkpoint` (English board, to the centre): a run whose process 1 is killed in the
/// middle of a level, started again, resumes and gives the single engine's JSON byte for byte (the
/// uninterrupted checkpointed run is the engine's at the peg level: `shard::finish_holes_resumed_from_every_checkpoint`),
/// and its manifest records the finish and the positions that can still finish, as the table has them; the
/// checkpoint, resumed with another finish hole or with none, is refused by every process in one line naming
/// both, and left as it was.
#[test]
fn finish_hole_killed_then_resumed_from_the_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let want = single(&["--json", "peg", "count", "--finish", "d4"]);
    assert!(text(&want).contains("\"finishable\""));
    // Killed in the middle of a level, then resumed.
    let ck = dir.path().join("ck");
    let ck = ck.to_str().unwrap();
    let hosts = hosts_file(dir.path(), 2);
    let args = [
        "--json",
        "peg",
        "count",
        "--finish",
        "d4",
        "--checkpoint",
        ck,
        "--peer-timeout",
        "20s",
    ];
    let saved = kill_process_1(&args, &hosts, 2, ck);
    resumed_gives(&args, &hosts, 2, saved, &want);
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ck).join("manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["version"], 2);
    assert_eq!(manifest["finish"], "d4");
    // The rows recorded are those of the table printed.
    let table: serde_json::Value = serde_json::from_slice(&want).unwrap();
    let rows = manifest["state"]["finishable"].as_array().unwrap();
    for l in table["levels"].as_array().unwrap() {
        let row = rows.iter().find(|r| r["pegs"] == l["pegs"]);
        let at = |k: &str| row.map_or(0, |r| r[k].as_u64().unwrap());
        assert_eq!(l["finishable"].as_u64(), Some(at("positions")), "{l}");
        assert_eq!(l["finishable_classes"].as_u64(), Some(at("classes")), "{l}");
    }
    // Another finish hole, or none: refused before anything is read or written.
    let before = std::fs::read(Path::new(ck).join("manifest.json")).unwrap();
    let base = ["--json", "peg", "count", "--checkpoint", ck];
    for (extra, words) in [
        (
            &["--finish", "d1"][..],
            "holds a checkpoint of this count finishing on d4, but this run finishes on d1: resume it with \
             --finish d4",
        ),
        (
            &[][..],
            "finishing on d4, but this run finishes anywhere: resume it with --finish d4",
        ),
    ] {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        all_fail(
            &a,
            &hosts,
            &[(&[], words), (&[], words)],
            Duration::from_secs(60),
        );
    }
    assert_eq!(
        std::fs::read(Path::new(ck).join("manifest.json")).unwrap(),
        before
    );
}

/// A checkpoint of another problem, or a damaged one, is refused; nothing in the directory is touched.
#[test]
fn foreign_and_damaged_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let ck = ck.to_str().unwrap();
    let base = [
        "--json",
        "peg",
        "count",
        "--checkpoint",
        ck,
        "--local-processes",
        "2",
    ];
    let mut a = base.to_vec();
    a.extend_from_slice(&["--board", "triangle"]);
    let out = run(&a);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = |d: &str| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = listing(ck);
    assert!(before.iter().any(|(n, _)| n == "manifest.json"));
    let mut b = base.to_vec();
    b.extend_from_slice(&["--board", "english"]);
    let out = run(&b);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("another problem"), "{err}");
    assert!(!err.contains("panicked"));
    assert_eq!(listing(ck), before);
    // Another shape.
    let mut c = a.clone();
    c[6] = "3";
    let out = run(&c);
    assert!(
        text(&out.stderr).contains("2 processes of 1 workers"),
        "{}",
        text(&out.stderr)
    );
    // A damaged share: the run that reads it stops, every process with the same message.
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ck).join("manifest.json")).unwrap(),
    )
    .unwrap();
    let file = manifest["shares"][1]["file"].as_str().unwrap().to_string();
    let path = Path::new(ck).join(&file);
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let out = run(&a);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("damaged"), "{err}");
    assert!(err.contains(&file), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn memory_limit_on_the_cluster() {
    let out = run(&[
        "peg",
        "count",
        "--local-processes",
        "2",
        "--max-memory",
        "40M",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("would need about"), "{err}");
    assert!(err.contains("limit is 40 MiB"), "{err}");
    assert!(!err.contains("panicked"));
}
