//! A soak test in CI size, against a real `boardlab serve` on a loopback port: for 30 seconds, cheap requests
//! (the status, a page asset, a sudoku solved, a Mouse & Cats hint from the exact table) beside expensive ones
//! that never finish (a 10x10 perft to depth 64, stopped at the time limit), peg games started from new
//! positions (each one a table built in the background), and sudoku generation. Then:
//!
//! - every cheap request was answered 200, and 99% of them within 100 ms (they run on the quick lane and never
//!   wait for a search; on a machine shared with other work the figure is the scheduler's as much as ours);
//! - every expensive one was answered (2xx, or 503 at the time limit or when the queue was full): none hung;
//! - the caches (peg tables and solvers, Mouse & Cats solutions) kept within their budget, `--cache-memory`
//!   [`CACHE_MEMORY`], all along; the resident memory, all along and at the end, within that budget plus
//!   [`MARGIN`] for the work under way (two perft tables of 128 MiB, the peg tables being built, at most one per
//!   worker) and the program itself;
//! - SIGTERM ends the process within 5 s with success.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::server_common::{Server, request};

const SOAK: Duration = Duration::from_secs(30);
/// The caches' memory budget the server is given.
const CACHE_MEMORY: u64 = 256 << 20;
/// Resident memory allowed beyond the caches' budget: the work under way and the program.
const MARGIN: u64 = 640 << 20;
/// The 99th percentile of the cheap requests' times.
const CHEAP_P99: Duration = Duration::from_millis(100);

const PUZZLE: &str =
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

/// Holes of the English board to start peg games from (each start is a table of its own).
const STARTS: &[&str] = &[
    "c1", "d1", "e1", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "d4",
];

/// The body of an expensive client's `i`-th request.
type BodyOf = Box<dyn Fn(usize) -> String + Send>;

#[test]
fn thirty_seconds_of_mixed_load() {
    let s = Server::start(&[
        "--jobs",
        "2",
        "--time-limit",
        "5",
        "--queue",
        "16",
        "--cache-memory",
        "256M",
    ]);
    let addr = s.addr;
    let host = addr.to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let end = Instant::now() + SOAK;
    // The status every half second: the most resident memory and cache use seen.
    let watcher = {
        let (stop, host) = (Arc::clone(&stop), host.clone());
        std::thread::spawn(move || {
            let (mut rss, mut cached) = (0u64, 0u64);
            while !stop.load(Ordering::Relaxed) && Instant::now() < end {
                let (code, body) = request(
                    addr,
                    "GET",
                    "/api/status",
                    None,
                    &host,
                    Duration::from_secs(30),
                );
                if code == 200
                    && let Ok(v) = serde_json::from_str::<serde_json::Value>(&body)
                {
                    assert_eq!(
                        v["cache"]["limit_bytes"].as_u64(),
                        Some(CACHE_MEMORY),
                        "{v}"
                    );
                    rss = rss.max(v["rss_bytes"].as_u64().unwrap_or(0));
                    cached = cached.max(v["cache"]["used_bytes"].as_u64().unwrap_or(0));
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            (rss, cached)
        })
    };
    let mut cheap = Vec::new();
    for t in 0..2 {
        let (stop, host) = (Arc::clone(&stop), host.clone());
        cheap.push(std::thread::spawn(move || {
            let mut times = Vec::new();
            let mut failures = Vec::new();
            let mut i = t;
            while !stop.load(Ordering::Relaxed) && Instant::now() < end {
                let solve = format!(r#"{{"puzzle":"{PUZZLE}"}}"#);
                let (method, path, body) = match i % 4 {
                    0 => ("GET", "/api/status", None),
                    1 => ("GET", "/assets/app.js", None),
                    2 => ("POST", "/api/sudoku/solve", Some(solve.as_str())),
                    _ => ("POST", "/api/mouse/hint", Some(r#"{"position":"start"}"#)),
                };
                let t0 = Instant::now();
                let (code, answer) =
                    request(addr, method, path, body, &host, Duration::from_secs(30));
                times.push(t0.elapsed());
                if code != 200 {
                    failures.push(format!("{path}: {code} {answer}"));
                }
                i += 1;
                std::thread::sleep(Duration::from_millis(5));
            }
            (times, failures)
        }));
    }
    let expensive: Vec<(&str, String, BodyOf)> = vec![
        (
            "perft",
            "/api/mouse/perft".into(),
            Box::new(|_| r#"{"size":"10","depth":64}"#.to_string()),
        ),
        (
            "peg new",
            "/api/peg/session".into(),
            Box::new(|i| {
                format!(
                    r#"{{"action":{{"new":{{"board":"english","start":["{}"]}}}}}}"#,
                    STARTS[i % STARTS.len()]
                )
            }),
        ),
        (
            "generate",
            "/api/sudoku/generate".into(),
            Box::new(|i| format!(r#"{{"difficulty":"hard","seed":{i}}}"#)),
        ),
    ];
    let mut heavy = Vec::new();
    for (name, path, body) in expensive {
        let (stop, host) = (Arc::clone(&stop), host.clone());
        heavy.push(std::thread::spawn(move || {
            let mut codes = Vec::new();
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) && Instant::now() < end {
                let (code, answer) = request(
                    addr,
                    "POST",
                    &path,
                    Some(&body(i)),
                    &host,
                    Duration::from_secs(30),
                );
                codes.push((code, answer));
                i += 1;
            }
            (name, codes)
        }));
    }
    let mut times = Vec::new();
    let mut failures = Vec::new();
    for c in cheap {
        let (t, f) = c.join().expect("cheap client");
        times.extend(t);
        failures.extend(f);
    }
    stop.store(true, Ordering::Relaxed);
    for h in heavy {
        let (name, codes) = h.join().expect("expensive client");
        assert!(!codes.is_empty(), "{name}: no request was made");
        for (code, answer) in &codes {
            assert!(
                (200..300).contains(code) || *code == 503,
                "{name}: {code} {answer}"
            );
        }
        eprintln!(
            "soak: {name}: {} requests, {} answered 503",
            codes.len(),
            codes.iter().filter(|(c, _)| *c == 503).count()
        );
    }
    assert!(failures.is_empty(), "cheap requests failed: {failures:?}");
    times.sort();
    assert!(times.len() > 100, "only {} cheap requests", times.len());
    let p99 = times[times.len() * 99 / 100];
    let (peak_rss, peak_cached) = watcher.join().expect("status watcher");
    let rss = s.rss();
    eprintln!(
        "soak: {} cheap requests, median {:?}, p99 {:?}, max {:?}; resident memory {} MiB at the end, {} MiB \
         at most; caches {} MiB at most",
        times.len(),
        times[times.len() / 2],
        p99,
        times[times.len() - 1],
        rss >> 20,
        peak_rss >> 20,
        peak_cached >> 20
    );
    assert!(p99 <= CHEAP_P99, "p99 of the cheap requests {p99:?}");
    assert!(
        peak_cached <= CACHE_MEMORY,
        "caches kept {peak_cached} bytes"
    );
    let bound = CACHE_MEMORY + MARGIN;
    assert!(rss <= bound, "resident memory {} MiB", rss >> 20);
    assert!(
        peak_rss <= bound,
        "resident memory {} MiB during the soak",
        peak_rss >> 20
    );
    let mut s = s;
    s.signal(libc::SIGTERM);
    let (status, took) = s
        .wait_for_exit(Duration::from_secs(5))
        .expect("the server still runs 5 s after SIGTERM");
    assert!(status.success(), "{status:?}");
    eprintln!("soak: stopped {took:?} after SIGTERM");
}
