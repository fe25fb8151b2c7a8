//! The cluster path's memory, run as separate processes on loopback ports (this test binary starts copies of
//! itself; the ignored test `process` is their entry point): every process's memory estimate (what its
//! memory limit is checked against) is at least the peak resident memory it reaches, and not far above it,
//! and its memory per class held stays where it was measured.
// Test helpers outside #[test] functions unwrap too: a failure is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

use peg::enumerate::{self, Options};
use peg::{Board, Problem};

/// The environment variable that makes the `process` test run one process of a cluster: board, levels,
/// processes, workers per process, process index and host file, separated by `;`.
const CHILD: &str = "PEG_CLUSTER_MEMORY_PROCESS";

/// Levels of the French board counted: the last step builds the level with 23 pegs (5.9 million classes),
/// about 170 to 185 MiB a process in two.
const LEVELS: usize = 14;

/// Peak resident bytes a process may hold per class of its widest share of a level (the tables of the level
/// built take about 28 bytes a class of it, and twice as many classes are built as held).
const PEAK_PER_CLASS_HELD: f64 = 76.0;

fn problem(board: &str) -> Problem {
    Problem::standard(Board::builtin(board).unwrap())
}

/// One process of a cluster run, started by [`run`] (not a test of its own: it does nothing unless started
/// so). Prints each process's peak memory, memory estimate and widest share on stdout (process 0), and the
/// table as JSON.
#[test]
#[ignore = "a process of the cluster runs of the other tests"]
fn process() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    let f: Vec<&str> = spec.split(';').collect();
    let hosts = std::fs::read_to_string(f[5]).unwrap();
    let cfg = peg_cluster::Config {
        hosts: peg_cluster::hosts::parse(&hosts, f[5]).unwrap(),
        hosts_file: f[5].to_string(),
        process: f[4].parse().unwrap(),
        workers: f[3].parse().unwrap(),
        connect_timeout: Duration::from_secs(60),
        peer_timeout: Duration::from_secs(60),
        checkpoint: None,
        spill: None,
        max_memory: None,
        max_levels: Some(f[1].parse().unwrap()),
        problem_text: format!("{} for the memory tests", f[0]),
        log: false,
    };
    match peg_cluster::run(&problem(f[0]), &cfg) {
        Ok(o) => {
            for p in &o.processes {
                println!(
                    "figures: {} {} {} {}",
                    p.process, p.peak_memory, p.memory_estimate, p.classes_held_max
                );
            }
            println!("table: {}", serde_json::to_string(&o.count).unwrap());
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

/// A process's figures: peak resident bytes, memory estimate (bytes), classes of its widest share.
struct Figures {
    peak: u64,
    estimate: u64,
    held: u64,
}

/// Run `processes` processes of `workers` workers on the first `levels` levels of `board`: the table as
/// JSON, and every process's figures.
fn run(board: &str, levels: usize, processes: usize, workers: usize) -> (String, Vec<Figures>) {
    let work = tempfile::tempdir().unwrap();
    let listeners: Vec<_> = (0..processes)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    let hosts = work.path().join("hosts.txt");
    std::fs::write(&hosts, text).unwrap();
    drop(listeners);
    let children: Vec<_> = (0..processes)
        .map(|i| {
            Command::new(std::env::current_exe().unwrap())
                .args([
                    "--ignored",
                    "--exact",
                    "memory::process",
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env(
                    CHILD,
                    format!(
                        "{board};{levels};{processes};{workers};{i};{}",
                        hosts.display()
                    ),
                )
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut out = (String::new(), Vec::new());
    for (i, mut c) in children.into_iter().enumerate() {
        let (mut stdout, mut stderr) = (String::new(), String::new());
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
        assert!(c.wait().unwrap().success(), "process {i} failed: {stderr}");
        if i == 0 {
            // (The test harness may print its own words before them on the line.)
            for l in stdout.lines() {
                if let Some((_, t)) = l.split_once("table: ") {
                    out.0 = t.to_string();
                } else if let Some((_, f)) = l.split_once("figures: ") {
                    let v: Vec<u64> = f.split(' ').map(|x| x.parse().unwrap()).collect();
                    out.1.push(Figures {
                        peak: v[1],
                        estimate: v[2],
                        held: v[3],
                    });
                }
            }
        }
    }
    assert_eq!(out.1.len(), processes, "no figures from process 0");
    out
}

/// The French board's first levels on two processes of one worker and on two of two: the engine's table;
/// every process peaks below its memory estimate (so a limit the estimate passes is one the process keeps),
/// the estimate at most 1.4 times the peak, and the peak per class held within [`PEAK_PER_CLASS_HELD`].
#[test]
fn estimates_cover_the_peaks_and_memory_per_class_holds() {
    let opts = Options {
        max_levels: Some(LEVELS),
        ..Options::default()
    };
    let want =
        serde_json::to_string(&enumerate::count(&problem("french"), &opts).unwrap()).unwrap();
    for (processes, workers) in [(2, 1), (2, 2)] {
        let (json, figures) = run("french", LEVELS, processes, workers);
        assert_eq!(json, want, "{processes} x {workers}");
        for (p, f) in figures.iter().enumerate() {
            let shape = format!(
                "{processes} x {workers}, process {p}: peak {} MiB, estimate {} MiB, widest share {} classes",
                f.peak >> 20,
                f.estimate >> 20,
                f.held
            );
            assert!(f.peak <= f.estimate, "{shape}");
            assert!(f.estimate as f64 <= 1.4 * f.peak as f64, "{shape}");
            assert!(
                f.peak as f64 <= PEAK_PER_CLASS_HELD * f.held as f64,
                "{shape}: {:.1} bytes a class held",
                f.peak as f64 / f.held as f64
            );
        }
    }
}
