//! The server's limits, against a real `boardlab serve` on a loopback port: jobs end at their deadline, the
//! process stops when told, slow and idle connections are closed, connections are capped, and only the
//! served host names are answered.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::server_common::{Server, closed_within, headers_of, request};

const PUZZLE: &str =
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

fn solve_body() -> String {
    format!(r#"{{"puzzle":"{PUZZLE}"}}"#)
}

/// Wait until `/api/status` shows `running` jobs (at most 10 s).
fn wait_running(s: &Server, running: u64) -> bool {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(10) {
        if s.status()["jobs"]["running"].as_u64() == Some(running) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// A perft that cannot finish (10x10, depth 64) is answered 503 at the time limit and stops there: its worker
/// is free again at once, and its table of counted positions stays within its bound meanwhile.
#[test]
fn a_perft_past_its_deadline_stops_and_frees_its_worker() {
    let s = Server::start(&["--jobs", "1", "--time-limit", "3"]);
    let t = Instant::now();
    let (code, body) = s.request(
        "POST",
        "/api/mouse/perft",
        Some(r#"{"size":"10","depth":64}"#),
    );
    assert_eq!(code, 503, "{body}");
    assert!(t.elapsed() < Duration::from_secs(6), "{:?}", t.elapsed());
    // The job has stopped (not merely been abandoned): the one worker is free.
    assert!(
        wait_running(&s, 0),
        "the perft job still runs: {}",
        s.status()
    );
    let (code, body) = s.request("POST", "/api/sudoku/solve", Some(&solve_body()));
    assert_eq!(code, 200, "{body}");
    // Its memory went back, or was never taken: the table is bounded at 128 MiB.
    let rss = s.rss();
    assert!(rss < 400 << 20, "resident memory {} MiB", rss >> 20);
}

/// A rating past its deadline stops at its next step and frees its worker. One of the forum's hardest puzzles
/// (SE 10.0) takes a second or more to rate; with a time limit of 0.1 s the answer is a 503 at once, and the
/// worker is free again within a step (at most about 150 ms), well before the rating would have ended.
#[test]
fn a_rating_past_its_deadline_stops_and_frees_its_worker() {
    const HARDEST: &str =
        "1.......2....1..3...5..34....2..1..4....8.7..6..9.......1..5.4.8.....5..9...6....";
    let s = Server::start(&["--jobs", "1", "--time-limit", "0.1"]);
    let (code, body) = s.request(
        "POST",
        "/api/sudoku/rate",
        Some(&format!(r#"{{"puzzle":"{HARDEST}","explain":true}}"#)),
    );
    assert_eq!(code, 503, "{body}");
    // The job started (and so had a rating to stop), rather than timing out in the queue.
    assert!(body.contains("no answer within"), "{body}");
    let t = Instant::now();
    while s.status()["jobs"]["running"].as_u64() != Some(0) {
        assert!(
            t.elapsed() < Duration::from_millis(800),
            "the rating still runs {:?} after its 503: {}",
            t.elapsed(),
            s.status()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The worker takes the next request.
    let (code, body) = s.request("POST", "/api/sudoku/solve", Some(&solve_body()));
    assert_eq!(code, 200, "{body}");
}

/// SIGTERM and SIGINT stop the server within a few seconds even while every worker runs a job that would never
/// finish, with a kept-alive connection open.
#[test]
fn sigterm_and_sigint_stop_the_server_within_seconds() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let mut s = Server::start(&["--jobs", "2", "--time-limit", "600"]);
        let addr = s.addr;
        let busy: Vec<_> = (0..2)
            .map(|_| {
                std::thread::spawn(move || {
                    request(
                        addr,
                        "POST",
                        "/api/mouse/perft",
                        Some(r#"{"size":"16","depth":64}"#),
                        &addr.to_string(),
                        Duration::from_secs(30),
                    )
                })
            })
            .collect();
        assert!(wait_running(&s, 2), "{}", s.status());
        // An idle kept-alive connection must not hold the stop either.
        let _idle = TcpStream::connect(addr).expect("connect");
        s.signal(sig);
        let (status, took) = s
            .wait_for_exit(Duration::from_secs(5))
            .unwrap_or_else(|| panic!("signal {sig}: the server still runs after 5 s"));
        assert!(status.success(), "signal {sig}: {status:?}");
        assert!(took < Duration::from_secs(5));
        assert!(s.rest_of_stdout().contains("stopped"), "signal {sig}");
        for b in busy {
            let (code, _) = b.join().expect("client");
            // The answer under way is a 503 or the connection closes without one; never a hang.
            assert!(code == 503 || code == 0, "signal {sig}: {code}");
        }
    }
}

/// A connection that sends part of its headers, or nothing after a request, is closed after the idle timeout.
#[test]
fn slow_headers_and_idle_connections_are_closed() {
    let s = Server::start(&["--idle-timeout", "1"]);
    let mut partial = TcpStream::connect(s.addr).expect("connect");
    partial
        .write_all(format!("GET /api/status HTTP/1.1\r\nHost: {}\r\n", s.addr).as_bytes())
        .expect("write");
    let mut idle = TcpStream::connect(s.addr).expect("connect");
    idle.write_all(format!("GET /api/status HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes())
        .expect("write");
    let mut silent = TcpStream::connect(s.addr).expect("connect");
    // (The idle one gets its answer first, then is closed: reading until the close covers both.)
    let t = Instant::now();
    assert!(
        closed_within(&mut partial, Duration::from_secs(4)),
        "partial headers"
    );
    assert!(
        closed_within(&mut idle, Duration::from_secs(4)),
        "kept alive and idle"
    );
    assert!(closed_within(&mut silent, Duration::from_secs(4)), "silent");
    assert!(t.elapsed() < Duration::from_secs(4));
    // The server still answers.
    assert_eq!(s.request("GET", "/api/status", None).0, 200);
}

/// A body that stops half-way is answered 408 after the idle timeout.
#[test]
fn a_body_that_stops_half_way_is_answered_408() {
    let s = Server::start(&["--idle-timeout", "1"]);
    let mut c = TcpStream::connect(s.addr).expect("connect");
    c.write_all(
        format!(
            "POST /api/sudoku/solve HTTP/1.1\r\nHost: {}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{{\"puz",
            s.addr
        )
        .as_bytes(),
    )
    .expect("write");
    c.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let mut raw = Vec::new();
    let _ = std::io::Read::read_to_end(&mut c, &mut raw);
    let (code, body) = crate::server_common::parse_response(&raw);
    assert_eq!(code, 408, "{body}");
    assert!(body.contains("did not arrive"), "{body}");
}

/// Past the connection cap, the oldest connection that is not answering a request makes room: connections
/// that never send a request cannot lock others out.
#[test]
fn connections_are_capped_and_idle_ones_make_room() {
    let s = Server::start(&["--max-connections", "8", "--idle-timeout", "30"]);
    let mut hogs: Vec<TcpStream> = (0..40)
        .map(|_| {
            let mut c = TcpStream::connect(s.addr).expect("connect");
            let _ = c.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            c
        })
        .collect();
    let t = Instant::now();
    let (code, body) = s.request("GET", "/api/status", None);
    assert_eq!(code, 200, "{body}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // At most the cap is still open: the first ones were closed to make room.
    let closed = hogs
        .iter_mut()
        .map(|c| closed_within(c, Duration::from_millis(200)))
        .filter(|&closed| closed)
        .count();
    assert!(
        closed >= 40 - 8,
        "only {closed} of 40 idle connections were closed"
    );
}

/// Only the address served, `localhost` and names given with --allow-host are answered (DNS rebinding).
#[test]
fn other_host_names_are_refused() {
    let s = Server::start(&["--allow-host", "board.lan"]);
    let port = s.addr.port();
    for path in ["/", "/api/status", "/assets/app.js"] {
        let (code, body) = s.request_as("GET", path, None, "evil.example");
        assert_eq!(code, 403, "{path}: {body}");
        assert!(body.contains("--allow-host"), "{body}");
        let (code, _) = s.request_as("GET", path, None, &format!("evil.example:{port}"));
        assert_eq!(code, 403, "{path}");
        for ok in [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            "board.lan".into(),
        ] {
            let (code, body) = s.request_as("GET", path, None, &ok);
            assert_eq!(code, 200, "{path} as {ok}: {body}");
        }
    }
    let (code, _) = s.request_as(
        "POST",
        "/api/sudoku/solve",
        Some(&solve_body()),
        "rebound.example",
    );
    assert_eq!(code, 403);
}

/// Every answer, a 404 included, tells the browser not to guess its type.
#[test]
fn not_found_answers_carry_nosniff() {
    let s = Server::start(&[]);
    for path in ["/assets/nothing.js", "/no/such/page", "/api/nothing"] {
        let mut c = TcpStream::connect(s.addr).expect("connect");
        c.write_all(
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                s.addr
            )
            .as_bytes(),
        )
        .expect("write");
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut c, &mut raw).expect("read");
        let head = headers_of(&raw);
        assert!(head.starts_with("http/1.1 404"), "{path}: {head}");
        assert!(
            head.contains("x-content-type-options: nosniff"),
            "{path}: {head}"
        );
    }
}

#[test]
fn the_caches_keep_within_one_memory_budget() {
    // Three 10x10 games, one per rule, the engine to move at level 10 (perfect play: it solves the board first):
    // each solution is about 210 MB, so a budget of 300 MiB keeps one at a time (without a budget all three stay:
    // 680 MB resident, against 230 MB with it).
    let limit: u64 = 300 << 20;
    let s = Server::start(&[
        "--jobs",
        "2",
        "--time-limit",
        "120",
        "--cache-memory",
        "300M",
    ]);
    for rule in ["far-row", "escape", "region"] {
        let body = format!(
            r#"{{"action":{{"new":{{"player":"mouse","level":10,"size":10,"rule":"{rule}","first":"cats"}}}}}}"#
        );
        let (code, answer) = s.request("POST", "/api/mouse/session", Some(&body));
        assert_eq!(code, 200, "{rule}: {answer}");
        let status = s.status();
        let cache = &status["cache"];
        assert_eq!(cache["limit_bytes"].as_u64(), Some(limit), "{status}");
        let used = cache["used_bytes"].as_u64().expect("used bytes");
        assert!(used <= limit, "{rule}: {used} bytes kept: {status}");
        let mouse = cache["caches"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["name"] == "mouse solutions"))
            .and_then(|c| c["bytes"].as_u64());
        assert!(
            mouse.is_some_and(|b| b > 100 << 20),
            "{rule}: the solution just made is kept: {status}"
        );
    }
    let status = s.status();
    assert!(
        status["cache"]["evicted"].as_u64() >= Some(2),
        "the older solutions made room: {status}"
    );
    let rss = s.rss();
    eprintln!("after three 10x10 solutions: {status}, {rss} bytes resident");
    // What is kept, the program and the allocator's slack; not three solutions.
    assert!(rss < limit + (200 << 20), "{rss} bytes resident: {status}");
    // A budget that cannot hold anything useful is refused with the reason.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["serve", "--addr", "127.0.0.1:0", "--cache-memory", "12K"])
        .output()
        .expect("boardlab runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--cache-memory must be at least 1 MiB"),
        "{err}"
    );
}

/// A diamond solve from e1 goes through the one budget: whatever it built, what stays afterwards is within
/// `--cache-memory`, and so is the memory the process keeps (plus a fixed margin for the program, the English
/// table's build and the allocator). In its 4 s the solver's tables grow to about the 16 MiB budget (the English
/// table, about 50 MB, is refused outright).
#[test]
fn a_diamond_solve_keeps_within_the_budget() {
    let limit: u64 = 16 << 20;
    let s = Server::start(&["--jobs", "1", "--time-limit", "4", "--cache-memory", "16M"]);
    let (code, answer) = s.request(
        "POST",
        "/api/peg/solve",
        Some(r#"{"problem":{"board":"diamond","start":["e1"]}}"#),
    );
    // Solved, or stopped at the time limit; either way the search is over.
    assert!(code == 200 || code == 503, "{code} {answer}");
    assert!(wait_running(&s, 0), "{}", s.status());
    let status = s.status();
    let cache = &status["cache"];
    assert_eq!(cache["limit_bytes"].as_u64(), Some(limit), "{status}");
    assert!(
        cache["used_bytes"].as_u64().is_some_and(|b| b <= limit),
        "{status}"
    );
    let rss = s.rss();
    eprintln!("after a diamond solve: {status}, {rss} bytes resident");
    assert!(rss < limit + (200 << 20), "{rss} bytes resident: {status}");
}

/// The threads of process `pid` now.
fn threads_of(pid: i32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, Iterator::count)
}

#[test]
fn peg_table_builds_run_on_the_pool_within_its_limits_and_stop_with_it() {
    // Eight games from eight starts: each asks for a complete table of its own, built in the background. With
    // one worker they wait their turn on the pool, and each is counted in /api/status.
    let mut s = Server::start(&["--jobs", "1", "--queue", "4", "--time-limit", "30"]);
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    // The runtime's workers, its blocking threads (jobs, quick lane, table builds, searches: one each, and four
    // more), the main thread and a little slack.
    let most_threads = cores + 4 + 4 + 3;
    let mut seen_background = false;
    for start in ["c1", "d1", "e1", "c2", "d2", "e2", "a3", "b3"] {
        let body = format!(r#"{{"action":{{"new":{{"board":"english","start":["{start}"]}}}}}}"#);
        let (code, answer) = s.request("POST", "/api/peg/session", Some(&body));
        assert_eq!(code, 200, "{start}: {answer}");
        let status = s.status();
        let jobs = &status["jobs"];
        let background = jobs["background"].as_u64().expect("background");
        assert!(background <= 1, "{start}: {status}");
        // The searches of the start positions (no table answers them yet) on slots of their own.
        let searches = jobs["searches"].as_u64().expect("searches");
        assert!(searches <= 1, "{start}: {status}");
        seen_background |= background == 1;
        let threads = threads_of(s.pid());
        assert!(
            threads <= most_threads,
            "{start}: {threads} threads: {status}"
        );
    }
    assert!(
        seen_background,
        "the builds are counted as the pool's background work"
    );
    // Told to stop while builds are under way or waiting, it stops within seconds.
    s.signal(libc::SIGTERM);
    let (status, took) = s
        .wait_for_exit(Duration::from_secs(5))
        .expect("SIGTERM ends the server within 5 s");
    assert!(status.success(), "{status:?} after {took:?}");
}

/// Games asking for the table being built (the English board's, started with the server) join its build: the
/// builds' lane keeps one job, the build itself, however many such games start meanwhile (before, each game's
/// request added a job that held a build slot while it waited for the same table: two slots taken with
/// `--jobs 2`).
#[test]
fn games_wait_for_the_table_being_built_without_taking_build_slots() {
    let s = Server::start(&["--jobs", "2", "--time-limit", "30"]);
    let body = r#"{"action":{"new":{"board":"english"}}}"#;
    let mut most = 0;
    let mut asked = 0;
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(20) {
        let status = s.status();
        let background = status["jobs"]["background"].as_u64().expect("background");
        most = most.max(background);
        if background == 0 && asked > 0 {
            break;
        }
        if asked < 6 {
            let (code, answer) = s.request("POST", "/api/peg/session", Some(body));
            assert_eq!(code, 200, "{answer}");
            asked += 1;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        asked, 6,
        "the table was built before the games were started"
    );
    assert!(most <= 1, "{most} build jobs at once: {}", s.status());
    // Built once, and kept.
    let (code, answer) = s.request("POST", "/api/peg/session", Some(body));
    assert_eq!(code, 200, "{answer}");
    assert!(answer.contains("complete table"), "{answer}");
}
