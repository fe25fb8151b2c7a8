//! The cluster path with its levels spilled (`Config::spill`), run as separate processes on loopback ports:
//! this test binary starts copies of itself as the cluster's processes (the ignored test `process` is their
//! entry point). Their table is the in-memory engine's, JSON byte for byte, under memory limits that force
//! several passes per step, and after every process was killed with SIGKILL in the middle of a level and the
//! same run started again on the directory.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use peg::enumerate::{self, Options};
use peg::{Board, Problem};

/// The environment variable that makes the `process` test run one process of a cluster: board, levels (0:
/// all), memory limit in MiB, process index, host file, spill directory, separated by `;`.
const CHILD: &str = "PEG_CLUSTER_TEST_PROCESS";

fn problem(board: &str) -> Problem {
    Problem::standard(Board::builtin(board).unwrap())
}

/// One process of a cluster run, started by [`start`] (not a test of its own: it does nothing unless
/// started so). Prints the table as JSON on stdout after `table: `, and which level it resumed from on
/// stderr.
#[test]
#[ignore = "a process of the cluster runs of the other tests"]
fn process() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    let f: Vec<&str> = spec.split(';').collect();
    let levels: usize = f[1].parse().unwrap();
    let hosts = std::fs::read_to_string(f[4]).unwrap();
    let cfg = peg_cluster::Config {
        hosts: peg_cluster::hosts::parse(&hosts, f[4]).unwrap(),
        hosts_file: f[4].to_string(),
        process: f[3].parse().unwrap(),
        workers: 1,
        connect_timeout: Duration::from_secs(60),
        peer_timeout: Duration::from_secs(60),
        checkpoint: None,
        spill: Some(f[5].into()),
        max_memory: Some(f[2].parse::<u64>().unwrap() << 20),
        max_levels: (levels > 0).then_some(levels),
        problem_text: format!("{} for the spill tests", f[0]),
        log: false,
    };
    match peg_cluster::run(&problem(f[0]), &cfg) {
        Ok(o) => {
            println!("table: {}", serde_json::to_string(&o.count).unwrap());
            eprintln!("resumed from {:?}", o.resumed_from);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

/// Free loopback ports, written as a host file in `dir`.
fn host_file(dir: &Path, n: usize) -> std::path::PathBuf {
    let listeners: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    let path = dir.join("hosts.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// Start the `n` processes of a run.
fn start(board: &str, levels: usize, mib: u64, n: usize, work: &Path, spill: &Path) -> Vec<Child> {
    let hosts = host_file(work, n);
    (0..n)
        .map(|i| {
            Command::new(std::env::current_exe().unwrap())
                .args([
                    "--ignored",
                    "--exact",
                    "spill::process",
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env(
                    CHILD,
                    format!(
                        "{board};{levels};{mib};{i};{};{}",
                        hosts.display(),
                        spill.display()
                    ),
                )
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect()
}

/// Wait for every process: process 0's table (the JSON line) and its stderr.
fn finish(children: Vec<Child>) -> (String, String) {
    let mut out = (String::new(), String::new());
    for (i, mut c) in children.into_iter().enumerate() {
        let mut stdout = String::new();
        let mut stderr = String::new();
        c.stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        c.stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = c.wait().unwrap();
        assert!(status.success(), "process {i} failed: {stderr}");
        if i == 0 {
            // (The test harness may print its own words before it on the line.)
            let line = stdout
                .lines()
                .find_map(|l| l.split_once("table: ").map(|(_, t)| t))
                .unwrap_or_else(|| panic!("no table from process 0: {stdout} {stderr}"))
                .to_string();
            out = (line, stderr);
        }
    }
    out
}

/// The in-memory engine's table as JSON.
fn engine(board: &str, levels: usize) -> String {
    let opts = Options {
        max_levels: (levels > 0).then_some(levels),
        ..Options::default()
    };
    serde_json::to_string(&enumerate::count(&problem(board), &opts).unwrap()).unwrap()
}

/// The most buckets one worker wrote of a level recorded in the manifest (the passes of the step that
/// built it).
fn passes_recorded(spill: &Path) -> usize {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(spill.join("spill.json")).unwrap()).unwrap();
    let b = m["buckets"].as_array().unwrap();
    let w0 = b.iter().filter(|e| e["worker"] == 0).count();
    let w1 = b.iter().filter(|e| e["worker"] == 1).count();
    w0.max(w1)
}

/// The French board's first 14 levels, two processes of one worker each, under a memory limit that builds
/// the widest levels in several passes: the engine's table, byte for byte.
#[test]
fn spilled_french_levels_equal_the_engine() {
    let work = tempfile::tempdir().unwrap();
    let spill = work.path().join("store");
    let (json, stderr) = finish(start("french", 14, 40, 2, work.path(), &spill));
    assert_eq!(json, engine("french", 14));
    assert!(stderr.contains("resumed from None"), "{stderr}");
    assert!(
        passes_recorded(&spill) >= 2,
        "the last level recorded was built in one pass"
    );
}

/// The English board whole, two processes of one worker each, under a memory limit that forces several
/// passes per step, killed (SIGKILL, every process) once a level built in passes is recorded, then started
/// again on the same directory: it resumes from the last level recorded and gives the engine's table, byte
/// for byte.
#[test]
fn spilled_english_killed_and_resumed_equals_the_engine() {
    let (board, mib) = ("english", 40);
    let work = tempfile::tempdir().unwrap();
    let spill = work.path().join("store");
    let mut children = start(board, 0, mib, 2, work.path(), &spill);
    let t = Instant::now();
    loop {
        assert!(
            t.elapsed() < Duration::from_secs(600),
            "no level was spilled in passes"
        );
        if spill.join("spill.json").exists() && passes_recorded(&spill) >= 2 {
            break;
        }
        if let Some(s) = children[0].try_wait().unwrap() {
            panic!("the run ended ({s}) before a level was spilled in passes");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    for c in &mut children {
        c.kill().unwrap();
        c.wait().unwrap();
    }
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(spill.join("spill.json")).unwrap()).unwrap();
    let pegs = m["state"]["pegs"].as_u64().unwrap();
    let (json, stderr) = finish(start(board, 0, mib, 2, work.path(), &spill));
    assert_eq!(json, engine(board, 0));
    assert!(
        stderr.contains(&format!("resumed from Some({pegs})")),
        "{stderr}"
    );
}
