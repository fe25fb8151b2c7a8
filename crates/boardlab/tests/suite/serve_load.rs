//! A bounded load test against a real `boardlab serve` on a loopback port, driven by `wrk` (Debian's package;
//! `.ci/run` installs it; where it is missing the test says so on stderr and passes without running). For a
//! few seconds each, 32 connections ask for a sudoku hint (the quick lane, whose queue of its own holds at least
//! 1,024 lookups whatever `--queue` says) and for a sudoku generation (the job pool, with a queue of 8, so that
//! part of the flood is turned away). Then:
//!
//! - every hint was answered 2xx, with no socket error, and none was turned away (the pool's `rejected` stays 0);
//! - every generation was answered, 2xx or 503 (busy), and none hung: wrk saw no timeout;
//! - the server still answers at once and its resident memory grew by less than [`MEMORY_GROWTH`];
//! - SIGTERM ends it within 5 s.
//!
//! It asserts what must hold under load, not a speed: requests per second and latencies are printed (run
//! `crates/boardlab/loadtest/run.sh` under the bench lock for figures).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly on purpose

use std::process::Command;
use std::time::Duration;

use crate::server_common::Server;

/// Seconds of load per route.
const SECONDS: u32 = 4;
/// The most the resident memory may grow over the test.
const MEMORY_GROWTH: u64 = 200 << 20;

const GRID: &str =
    ".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.";
const GENERATE: &str = r#"{"difficulty":"medium"}"#;

/// What wrk reported.
#[derive(Debug, Default)]
struct Report {
    requests: u64,
    non_2xx: u64,
    socket_errors: String,
    timeouts: u64,
    text: String,
}

fn wrk(url: &str, body: &str) -> Report {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/loadtest/post.lua");
    let out = Command::new("wrk")
        .args([
            "-t2",
            "-c32",
            &format!("-d{SECONDS}s"),
            "--timeout",
            "10s",
            "--latency",
            "-s",
            script,
            url,
        ])
        .env("BODY", body)
        .output()
        .expect("wrk runs");
    assert!(
        out.status.success(),
        "wrk: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut r = Report {
        text: text.clone(),
        ..Report::default()
    };
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if line.contains("requests in") {
            r.requests = words[0].parse().expect("a count of requests");
        } else if line.trim_start().starts_with("Non-2xx or 3xx responses:") {
            r.non_2xx = words.last().and_then(|w| w.parse().ok()).expect("a count");
        } else if line.trim_start().starts_with("Socket errors:") {
            r.socket_errors = line.trim().to_string();
            r.timeouts = line
                .split("timeout")
                .nth(1)
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or(0);
        }
    }
    r
}

#[test]
fn hints_and_generation_under_load() {
    if Command::new("wrk").arg("--version").output().is_err() {
        eprintln!("skipped: wrk is missing (apt-get install wrk); the load test needs it");
        return;
    }
    let mut s = Server::start(&["--jobs", "2", "--queue", "8", "--time-limit", "5"]);
    let base = format!("http://{}", s.addr);
    let before = s.rss();

    let hint_body = format!(r#"{{"puzzle":"{GRID}"}}"#);
    let hint = wrk(&format!("{base}/api/sudoku/hint"), &hint_body);
    eprintln!("hint:\n{}", hint.text);
    assert!(hint.requests > 0, "{}", hint.text);
    assert_eq!(hint.non_2xx, 0, "{}", hint.text);
    assert!(hint.socket_errors.is_empty(), "{}", hint.text);
    let status = s.status();
    assert_eq!(status["jobs"]["rejected"], 0, "{status}");
    assert_eq!(status["jobs"]["timed_out"], 0, "{status}");

    let generate = wrk(&format!("{base}/api/sudoku/generate"), GENERATE);
    eprintln!("generate:\n{}", generate.text);
    assert!(generate.requests > 0, "{}", generate.text);
    assert_eq!(generate.timeouts, 0, "{}", generate.text);
    let status = s.status();
    let done = status["jobs"]["done"].as_u64().expect("done");
    let rejected = status["jobs"]["rejected"].as_u64().expect("rejected");
    let timed_out = status["jobs"]["timed_out"].as_u64().expect("timed out");
    // Every answer that was not a 2xx is a 503 the pool counted (busy, or the time limit).
    assert!(
        generate.non_2xx <= rejected + timed_out,
        "{} non-2xx answers, {rejected} rejected and {timed_out} timed out: {status}",
        generate.non_2xx
    );
    assert!(done > 0, "{status}");

    let (code, _) = s.request("POST", "/api/sudoku/solve", Some(&hint_body));
    assert_eq!(code, 200);
    let after = s.rss();
    eprintln!("memory: {before} bytes before, {after} after");
    assert!(after < before + MEMORY_GROWTH, "{before} -> {after} bytes");

    s.signal(libc::SIGTERM);
    let (exit, took) = s
        .wait_for_exit(Duration::from_secs(5))
        .expect("SIGTERM ends the server within 5 s");
    assert!(exit.success(), "{exit:?} after {took:?}");
}
