//! The command line's limits, against the real binary: perft's memory bound, the cluster parent's signals,
//! input that never ends a line, a full stderr, and one meaning of `--max-memory`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
}

fn rss_of(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// `mouse perft 64 --size 10` grew without bound (1.6 GB in 30 s); with `--max-memory` its table stays
/// within the bound and the count goes on without it.
#[test]
fn perft_stays_within_max_memory() {
    let mut c = bin()
        .args([
            "mouse",
            "perft",
            "64",
            "--size",
            "10",
            "--max-memory",
            "32M",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let t = Instant::now();
    let mut peak = 0;
    while t.elapsed() < Duration::from_secs(6) {
        if let Some(status) = c.try_wait().expect("try_wait") {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut c.stderr.take().expect("stderr"), &mut err).ok();
            panic!("perft ended early: {status:?} {err}");
        }
        peak = peak.max(rss_of(c.id()));
        std::thread::sleep(Duration::from_millis(100));
    }
    c.kill().expect("kill");
    c.wait().expect("wait");
    // 32 MiB of table, plus the program itself.
    assert!(peak < 96 << 20, "peak resident memory {} MiB", peak >> 20);
    assert!(peak > 0);
}

/// The same counts with a tiny table as with the default one.
#[test]
fn perft_with_a_tiny_table_counts_the_same() {
    let run = |extra: &[&str]| {
        let out = bin()
            .args(["--json", "mouse", "perft", "16", "--size", "6"])
            .args(extra)
            .output()
            .expect("run");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        v["count"].clone()
    };
    assert_eq!(run(&["--max-memory", "4096B"]), run(&[]));
}

/// `--max-memory 1` is one MiB in every command (it was one byte in `mouse solve`).
#[test]
fn max_memory_means_the_same_everywhere() {
    let out = bin()
        .args(["mouse", "solve", "--size", "10", "--max-memory", "1"])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("more than the 1.0 MiB allowed"), "{err}");
    let out = bin()
        .args(["mouse", "solve", "--size", "4", "--max-memory", "1"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Endless input without a newline is refused at once (`/dev/zero` spun forever).
#[test]
fn input_without_newlines_is_an_error_at_once() {
    if !Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero");
        return;
    }
    for verb in ["solve", "rate"] {
        let t = Instant::now();
        let mut c = bin()
            .args(["sudoku", verb, "/dev/zero"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start");
        while t.elapsed() < Duration::from_secs(10) && c.try_wait().expect("try_wait").is_none() {
            std::thread::sleep(Duration::from_millis(20));
        }
        if c.try_wait().expect("try_wait").is_none() {
            c.kill().expect("kill");
            panic!("sudoku {verb} /dev/zero still runs after 10 s");
        }
        let out = c.wait_with_output().expect("output");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{verb}: {err}");
        assert!(err.contains("line 1: no end of line"), "{verb}: {err}");
        assert_eq!(err.lines().count(), 1, "{verb}: {err}");
    }
}

/// A full stderr is not a panic.
#[test]
fn a_full_stderr_is_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let bad = "1234\n";
    let cases: [&[&str]; 3] = [
        &["sudoku", "solve", "-"],
        &["sudoku", "rate", "-"],
        &["sudoku", "generate", "--count", "0"],
    ];
    for args in cases {
        let mut c = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(full.try_clone().expect("clone"))
            .spawn()
            .expect("start");
        {
            use std::io::Write;
            let mut stdin = c.stdin.take().expect("stdin");
            let _ = stdin.write_all(bad.as_bytes());
        }
        let status = c.wait().expect("wait");
        assert_ne!(status.code(), Some(101), "{args:?} panicked");
        assert!(status.code().is_some(), "{args:?}: {status:?}");
    }
}

/// `--lattice` with a built-in board was accepted silently.
#[test]
fn lattice_without_a_layout_is_refused() {
    let out = bin()
        .args([
            "peg",
            "count",
            "--board",
            "english",
            "--lattice",
            "triangular",
        ])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("--lattice is for a --layout file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A one-line host file and a `--process` past it: "it has 1 line", not "1 lines".
#[test]
fn a_process_past_a_one_line_host_file_is_named_in_the_singular() {
    let dir = std::env::temp_dir().join(format!("boardlab-hosts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, "127.0.0.1:1\n").expect("host file");
    let out = bin()
        .args(["peg", "count", "--board", "triangle", "--hosts"])
        .arg(&hosts)
        .args(["--process", "1"])
        .output()
        .expect("run");
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("--process 1 is not in the host file")
            && err.contains("(it has 1 line: process 0)"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The process ids whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) {
            // The fields after the command name (which is in parentheses and may hold spaces).
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            if rest
                .split_whitespace()
                .nth(1)
                .and_then(|f| f.parse::<u32>().ok())
                == Some(pid)
            {
                out.push(p);
            }
        }
    }
    out
}

/// SIGTERM (or SIGINT) to `peg count --local-processes 3 --checkpoint DIR`: the parent passes it on, its
/// processes end, the temporary directory goes, the checkpoint stays.
#[test]
fn the_cluster_parent_passes_signals_on_and_cleans_up() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let ck = tmp.path().join("ck");
        let scratch = tmp.path().join("tmp");
        std::fs::create_dir_all(&scratch).expect("mkdir");
        let mut c = bin()
            .args([
                "--json",
                "peg",
                "count",
                "--board",
                "english",
                "--local-processes",
                "3",
                "--checkpoint",
            ])
            .arg(&ck)
            .env("TMPDIR", &scratch)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start");
        let pid = c.id();
        // Wait for the three processes and the first level saved.
        let t = Instant::now();
        let mut kids = Vec::new();
        while t.elapsed() < Duration::from_secs(60) {
            kids = children_of(pid);
            if kids.len() == 3 && ck.join("manifest.json").exists() {
                break;
            }
            assert!(
                c.try_wait().expect("try_wait").is_none(),
                "the count ended before the signal"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(kids.len(), 3, "{kids:?}");
        let signalled = Instant::now();
        // SAFETY: a signal to our own child.
        unsafe {
            libc::kill(i32::try_from(pid).expect("pid"), sig);
        }
        while signalled.elapsed() < Duration::from_secs(20)
            && c.try_wait().expect("try_wait").is_none()
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        if c.try_wait().expect("try_wait").is_none() {
            c.kill().ok();
            panic!("signal {sig}: the parent still runs after 20 s");
        }
        let out = c.wait_with_output().expect("output");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "signal {sig}: {err}");
        assert!(out.stdout.is_empty(), "signal {sig}: a result was printed");
        assert!(err.contains("stopped by SIG"), "signal {sig}: {err}");
        for k in &kids {
            assert!(
                !Path::new(&format!("/proc/{k}")).exists(),
                "signal {sig}: process {k} still runs"
            );
        }
        let left: Vec<_> = std::fs::read_dir(&scratch)
            .expect("read")
            .flatten()
            .collect();
        assert!(
            left.is_empty(),
            "signal {sig}: temporary files left: {left:?}"
        );
        assert!(
            ck.join("manifest.json").exists(),
            "signal {sig}: the checkpoint is gone"
        );
    }
}
