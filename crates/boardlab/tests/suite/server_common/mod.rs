//! A real `boardlab serve` on a loopback port, and a plain HTTP/1.1 client for it (shared by `serve_real.rs`
//! and `serve_soak.rs`).

// A test helper: a failure to start or reach the server is the test failing, with its reason.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A server process; killed when dropped if it is still running.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    /// What it printed on stdout after its first line.
    stdout: Option<BufReader<std::process::ChildStdout>>,
}

impl Server {
    /// Start `boardlab serve --addr 127.0.0.1:0` with `args`, and wait for it to say where it listens.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start boardlab serve");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("read the first line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr: SocketAddr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .expect("an address");
        Server {
            child,
            addr,
            stdout: Some(out),
        }
    }

    /// The process id.
    pub fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).expect("a pid")
    }

    /// Send `sig` to the server.
    pub fn signal(&self, sig: i32) {
        // SAFETY: kill sends a signal to our own child.
        unsafe {
            libc::kill(self.pid(), sig);
        }
    }

    /// Wait at most `limit` for the process to end: its status and the time it took, or `None`.
    pub fn wait_for_exit(&mut self, limit: Duration) -> Option<(ExitStatus, Duration)> {
        let t = Instant::now();
        while t.elapsed() < limit {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return Some((s, t.elapsed()));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// The rest of its stdout (after it ended).
    pub fn rest_of_stdout(&mut self) -> String {
        let mut s = String::new();
        if let Some(mut out) = self.stdout.take() {
            let _ = out.read_to_string(&mut s);
        }
        s
    }

    /// A request with `Connection: close`; the status and the body.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        self.request_as(method, path, body, &format!("{}", self.addr))
    }

    /// [`Server::request`] with this `Host` header.
    pub fn request_as(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        host: &str,
    ) -> (u16, String) {
        request(self.addr, method, path, body, host, Duration::from_secs(60))
    }

    /// `/api/status` as JSON.
    pub fn status(&self) -> serde_json::Value {
        let (code, body) = self.request("GET", "/api/status", None);
        assert_eq!(code, 200, "{body}");
        serde_json::from_str(&body).expect("status JSON")
    }

    /// Resident memory of the process in bytes, from /proc.
    pub fn rss(&self) -> u64 {
        rss_of(self.pid())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Resident memory of process `pid` in bytes (0 when it is gone).
pub fn rss_of(pid: i32) -> u64 {
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

/// One request on a new connection, within `limit`: the status and the body (status 0 when the connection
/// closed without an answer).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    host: &str,
    limit: Duration,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(limit)).expect("timeout");
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        body.len()
    );
    if s.write_all(head.as_bytes()).is_err() || s.write_all(body.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_response(&raw)
}

/// The status and body of a raw HTTP/1.1 response (status 0 when there is none).
pub fn parse_response(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return (0, text.into_owned());
    };
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    (code, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The header block of a raw response, lower case.
pub fn headers_of(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    text.split_once("\r\n\r\n")
        .map_or(text.to_string(), |(h, _)| h.to_string())
        .to_ascii_lowercase()
}

/// Whether the peer closed `s` within `limit` (a read returns end of file or an error other than a timeout).
pub fn closed_within(s: &mut TcpStream, limit: Duration) -> bool {
    s.set_read_timeout(Some(limit)).expect("timeout");
    let mut buf = [0u8; 4096];
    let t = Instant::now();
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
        if t.elapsed() > limit {
            return false;
        }
    }
}
