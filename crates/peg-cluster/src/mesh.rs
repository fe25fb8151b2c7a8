//! Connecting the processes: every pair of processes opens two TCP connections (one for timely's data, one
//! for the start-up check and the watchdog's heartbeats), process `i` connecting to every process before it
//! and accepting from every process after it, all within a deadline; then each process tells every other
//! what it runs ([`Hello`]), and a difference stops both with a message saying what differs.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::ClusterError;
use crate::hosts::Host;

/// The first bytes of every connection between two processes.
const MAGIC: &[u8; 8] = b"BLPEGC01";

/// The version of what processes say to each other (the preamble, the hello, the heartbeats).
pub const PROTOCOL: u32 = 2;

/// Kinds of connection.
const DATA: u8 = 0;
const CONTROL: u8 = 1;

/// A control connection: its reader (which may hold bytes already received) and a handle to write.
pub type Control = (BufReader<TcpStream>, TcpStream);

/// The connections of one process to all others (`None` at its own index).
pub struct Mesh {
    /// The data connections (handed to timely).
    pub data: Vec<Option<TcpStream>>,
    /// The control connections (for the watchdog).
    pub control: Vec<Option<Control>>,
}

/// What a process tells the others at start-up: everything that must be the same on all of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`PROTOCOL`].
    pub protocol: u32,
    /// The sender's process index.
    pub process: usize,
    /// The addresses of all processes, as the sender read them.
    pub hosts: Vec<String>,
    /// A hash of the sender's executable.
    pub binary: String,
    /// The problem (board, lattice, start, finish), in words.
    pub problem: String,
    /// The other settings that decide the result (levels).
    pub settings: String,
    /// Workers per process.
    pub workers: usize,
    /// Whether the sender keeps checkpoints.
    pub checkpoint: bool,
    /// From process 0: the checkpoint to resume from (its manifest, as JSON), if any.
    pub manifest: Option<String>,
    /// From process 0: why it will not start (a checkpoint it refused), if so.
    pub refusal: Option<String>,
}

impl Hello {
    /// Why a peer's hello does not match this one (`peer` names the peer in the message), if it does not.
    pub fn mismatch(&self, other: &Hello, peer: &str) -> Option<String> {
        if other.protocol != self.protocol {
            return Some(format!(
                "{peer} speaks protocol version {}, this process {} (run the same boardlab everywhere)",
                other.protocol, self.protocol
            ));
        }
        if other.hosts != self.hosts {
            return Some(format!(
                "{peer} read another host file ({}; here: {})",
                other.hosts.join(" "),
                self.hosts.join(" ")
            ));
        }
        if other.binary != self.binary {
            return Some(format!(
                "{peer} runs another build of boardlab (binary {}; here: {}): run the same binary everywhere",
                other.binary, self.binary
            ));
        }
        if other.problem != self.problem {
            return Some(format!(
                "{peer} runs another problem ({}; here: {})",
                other.problem, self.problem
            ));
        }
        if other.settings != self.settings {
            return Some(format!(
                "{peer} runs with other settings ({}; here: {})",
                other.settings, self.settings
            ));
        }
        if other.workers != self.workers {
            return Some(format!(
                "{peer} runs {} workers, this process {} (give every process the same --workers)",
                other.workers, self.workers
            ));
        }
        if other.checkpoint != self.checkpoint {
            let (a, b) = if other.checkpoint {
                ("keeps checkpoints", "does not")
            } else {
                ("keeps no checkpoint", "does")
            };
            return Some(format!(
                "{peer} {a} and this process {b} (give --checkpoint to every process or to none)"
            ));
        }
        None
    }
}

/// How process `j` is named in messages.
pub fn name(hosts: &[Host], j: usize, file: &str) -> String {
    match hosts.get(j) {
        Some(h) if h.line > 0 => format!("process {j} ({}, line {} of {file})", h.addr, h.line),
        Some(h) => format!("process {j} ({})", h.addr),
        None => format!("process {j}"),
    }
}

fn preamble(kind: u8, from: usize, to: usize) -> [u8; 17] {
    let mut b = [0u8; 17];
    b[..8].copy_from_slice(MAGIC);
    b[8] = kind;
    b[9..13].copy_from_slice(&(from as u32).to_le_bytes());
    b[13..].copy_from_slice(&(to as u32).to_le_bytes());
    b
}

/// Listen on this process's address.
///
/// # Errors
/// The address cannot be resolved, or is not this machine's, or its port is taken.
pub fn listen(hosts: &[Host], me: usize, file: &str) -> Result<TcpListener, ClusterError> {
    let me_name = name(hosts, me, file);
    let addr = &hosts[me].addr;
    TcpListener::bind(addr.as_str()).map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::AddrInUse => {
                " (another program, or another boardlab, holds that port: choose a free one)"
            }
            std::io::ErrorKind::AddrNotAvailable => {
                " (that address is not this machine's: is --process right for this machine?)"
            }
            _ => "",
        };
        ClusterError::Start(format!("{me_name} cannot listen on {addr}: {e}{hint}"))
    })
}

/// Connect to every other process within `timeout` (process `me` listening with `listener`).
///
/// # Errors
/// A process cannot be reached, or does not connect, before the deadline.
pub fn connect(
    listener: TcpListener,
    hosts: &[Host],
    me: usize,
    file: &str,
    timeout: Duration,
) -> Result<Mesh, ClusterError> {
    let deadline = Instant::now() + timeout;
    let n = hosts.len();
    let later: Vec<usize> = (me + 1..n).collect();
    let accept_hosts = hosts.to_vec();
    let accept_file = file.to_string();
    let acceptor = std::thread::Builder::new()
        .name("peg-cluster accept".into())
        .spawn(move || accept_all(listener, &accept_hosts, me, &later, &accept_file, deadline))
        .map_err(|e| ClusterError::Start(format!("cannot start a thread: {e}")))?;
    let mut data: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut control: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut failure = None;
    for j in 0..me {
        let addrs = match hosts[j].addr.to_socket_addrs() {
            Ok(a) => a.collect::<Vec<SocketAddr>>(),
            Err(e) => {
                failure = Some(ClusterError::Start(format!(
                    "cannot resolve the address of {}: {e}",
                    name(hosts, j, file)
                )));
                break;
            }
        };
        match connect_one(&addrs, DATA, me, j, deadline)
            .and_then(|d| connect_one(&addrs, CONTROL, me, j, deadline).map(|c| (d, c)))
        {
            Ok((d, c)) => {
                data[j] = Some(d);
                control[j] = Some(c);
            }
            Err(e) => {
                failure = Some(ClusterError::Start(format!(
                    "could not reach {} within {}: {e} (is it started, with the same host file?)",
                    name(hosts, j, file),
                    secs(timeout)
                )));
                break;
            }
        }
    }
    let accepted = acceptor
        .join()
        .map_err(|_| ClusterError::Start("the accepting thread failed".into()))?;
    if let Some(f) = failure {
        return Err(f);
    }
    for (j, d, c) in accepted? {
        data[j] = Some(d);
        control[j] = Some(c);
    }
    let mut ctl: Vec<Option<Control>> = Vec::with_capacity(n);
    for c in control {
        ctl.push(match c {
            Some(s) => {
                let w = s
                    .try_clone()
                    .map_err(|e| ClusterError::Start(format!("cannot use a connection: {e}")))?;
                Some((BufReader::new(s), w))
            }
            None => None,
        });
    }
    for d in data.iter().flatten() {
        d.set_read_timeout(None)
            .and_then(|()| d.set_nodelay(true))
            .map_err(|e| ClusterError::Start(format!("cannot set up a connection: {e}")))?;
    }
    Ok(Mesh { data, control: ctl })
}

fn secs(d: Duration) -> String {
    format!("{} s", d.as_secs_f64().round())
}

/// One connection of `kind` to process `to`, retried until `deadline`.
fn connect_one(
    addrs: &[SocketAddr],
    kind: u8,
    me: usize,
    to: usize,
    deadline: Instant,
) -> Result<TcpStream, std::io::Error> {
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
    loop {
        for a in addrs {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(last);
            }
            match TcpStream::connect_timeout(a, left.min(Duration::from_secs(2))) {
                Ok(mut s) => {
                    s.set_nodelay(true)?;
                    s.write_all(&preamble(kind, me, to))?;
                    return Ok(s);
                }
                Err(e) => last = e,
            }
        }
        std::thread::sleep(
            Duration::from_millis(100).min(deadline.saturating_duration_since(Instant::now())),
        );
    }
}

type Accepted = Vec<(usize, TcpStream, TcpStream)>;

/// Accept the data and control connections of every process in `from` before `deadline`.
fn accept_all(
    listener: TcpListener,
    hosts: &[Host],
    me: usize,
    from: &[usize],
    file: &str,
    deadline: Instant,
) -> Result<Accepted, ClusterError> {
    let n = hosts.len();
    let mut data: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut control: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let missing = |d: &[Option<TcpStream>], c: &[Option<TcpStream>]| -> Option<usize> {
        from.iter()
            .copied()
            .find(|&j| d[j].is_none() || c[j].is_none())
    };
    listener
        .set_nonblocking(true)
        .map_err(|e| ClusterError::Start(format!("cannot listen: {e}")))?;
    while let Some(j) = missing(&data, &control) {
        if Instant::now() >= deadline {
            return Err(ClusterError::Start(format!(
                "{} did not connect to this process ({}) in time: is it started, with the same host file?",
                name(hosts, j, file),
                name(hosts, me, file)
            )));
        }
        match listener.accept() {
            Ok((mut s, _)) => {
                // A connection that does not introduce itself properly is not one of ours: drop it.
                let ok = s
                    .set_nonblocking(false)
                    .and_then(|()| s.set_read_timeout(Some(Duration::from_secs(3))));
                let mut b = [0u8; 17];
                if ok.is_err() || s.read_exact(&mut b).is_err() || &b[..8] != MAGIC {
                    continue;
                }
                let mut w = [0u8; 4];
                w.copy_from_slice(&b[9..13]);
                let peer = u32::from_le_bytes(w) as usize;
                w.copy_from_slice(&b[13..17]);
                let to = u32::from_le_bytes(w) as usize;
                if to != me || peer <= me || peer >= n {
                    return Err(ClusterError::Start(format!(
                        "a boardlab process that says it is process {peer} connected to this process \
                         ({}) as process {to}: do the processes read the same host file?",
                        name(hosts, me, file)
                    )));
                }
                let _ = s.set_nodelay(true);
                match b[8] {
                    DATA => data[peer] = Some(s),
                    CONTROL => control[peer] = Some(s),
                    _ => {}
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                return Err(ClusterError::Start(format!(
                    "{} cannot accept connections: {e}",
                    name(hosts, me, file)
                )));
            }
        }
    }
    let mut out = Vec::new();
    for &j in from {
        if let (Some(d), Some(c)) = (data[j].take(), control[j].take()) {
            out.push((j, d, c));
        }
    }
    Ok(out)
}

/// Tell every other process what this one runs, and check what they run. Returns their hellos, by process.
///
/// # Errors
/// A process runs something else, refuses to start, or does not answer within `timeout`.
pub fn handshake(
    mesh: &mut Mesh,
    hello: &Hello,
    hosts: &[Host],
    file: &str,
    timeout: Duration,
) -> Result<Vec<Option<Hello>>, ClusterError> {
    let line = serde_json::to_string(hello)
        .map_err(|e| ClusterError::Start(format!("cannot encode the start-up check: {e}")))?;
    // A peer that found a difference may already have stopped and closed its connections, so that sending
    // to it fails; what it sent before is still read below, and its difference is the better message. A
    // failed send is reported only when nothing better is found.
    let mut send_failed: Vec<Option<String>> = (0..hosts.len()).map(|_| None).collect();
    for (j, c) in mesh.control.iter_mut().enumerate() {
        if let Some((_, w)) = c
            && let Err(e) = w
                .set_write_timeout(Some(timeout))
                .and_then(|()| w.write_all(line.as_bytes()))
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush())
        {
            send_failed[j] = Some(format!(
                "cannot send the start-up check to {}: {e}",
                name(hosts, j, file)
            ));
        }
    }
    let mut out: Vec<Option<Hello>> = (0..hosts.len()).map(|_| None).collect();
    for (j, c) in mesh.control.iter_mut().enumerate() {
        let Some((r, _)) = c else { continue };
        let peer = name(hosts, j, file);
        r.get_ref()
            .set_read_timeout(Some(timeout))
            .map_err(|e| ClusterError::Start(format!("cannot use a connection: {e}")))?;
        let mut text = String::new();
        match r.read_line(&mut text) {
            Ok(0) => {
                return Err(ClusterError::Start(format!(
                    "{peer} closed its connection during the start-up check (see its own message)"
                )));
            }
            Ok(_) => {}
            Err(e) => {
                return Err(ClusterError::Start(send_failed[j].take().unwrap_or_else(
                    || format!("{peer} did not answer the start-up check: {e}"),
                )));
            }
        }
        let theirs: Hello = serde_json::from_str(text.trim_end()).map_err(|_| {
            ClusterError::Start(format!(
                "{peer} did not answer like this boardlab does (another version, or another program?)"
            ))
        })?;
        if theirs.process != j {
            return Err(ClusterError::Start(format!(
                "{peer} says it is process {}: do the processes read the same host file with the right --process?",
                theirs.process
            )));
        }
        if let Some(why) = &theirs.refusal {
            return Err(ClusterError::Start(format!("{peer} will not start: {why}")));
        }
        if let Some(m) = hello.mismatch(&theirs, &peer) {
            return Err(ClusterError::Start(m));
        }
        out[j] = Some(theirs);
    }
    if let Some(e) = send_failed.into_iter().flatten().next() {
        return Err(ClusterError::Start(e));
    }
    Ok(out)
}
