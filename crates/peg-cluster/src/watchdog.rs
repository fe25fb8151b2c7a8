//! The watchdog: over the control connections, every process sends a heartbeat every second, says when it
//! ends on purpose (`done`), and says why when it stops on an error of its own (`stop`). A process that
//! hears nothing from a peer for the peer timeout, sees its connection close without `done`, or is told
//! `stop`, prints one line saying which process and why, and exits: no process waits forever for a peer
//! that is gone (timely itself would).

use std::io::{BufRead, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::hosts::Host;
use crate::mesh::{Control, name};

/// The exit code of a process stopped by the watchdog.
pub const EXIT_LOST: i32 = 3;

struct Inner {
    me: usize,
    names: Vec<String>,
    writers: Mutex<Vec<Option<TcpStream>>>,
    /// This process ends on purpose: connections closing are expected.
    done: AtomicBool,
    /// A failure is being reported (only the first one is).
    failing: AtomicBool,
    /// What the run is doing (for messages): "during the level with 20 pegs".
    context: Mutex<String>,
    /// Per peer: it said `done`.
    peer_done: Vec<AtomicBool>,
    /// timely reported a broken connection.
    broken: AtomicBool,
}

/// The watchdog of one process (clone it freely).
#[derive(Clone)]
pub struct Watchdog {
    inner: Arc<Inner>,
}

impl Watchdog {
    /// Start watching the peers over `control` (one reader thread per peer and one heartbeat thread),
    /// declaring a peer lost after `timeout` of silence.
    pub fn start(
        control: Vec<Option<Control>>,
        hosts: &[Host],
        file: &str,
        me: usize,
        timeout: Duration,
    ) -> Watchdog {
        let n = control.len();
        let names = (0..n).map(|j| name(hosts, j, file)).collect();
        let mut writers = Vec::with_capacity(n);
        let mut readers = Vec::with_capacity(n);
        for c in control {
            match c {
                Some((r, w)) => {
                    let _ = w.set_write_timeout(Some(Duration::from_secs(5)));
                    writers.push(Some(w));
                    readers.push(Some(r));
                }
                None => {
                    writers.push(None);
                    readers.push(None);
                }
            }
        }
        let inner = Arc::new(Inner {
            me,
            names,
            writers: Mutex::new(writers),
            done: AtomicBool::new(false),
            failing: AtomicBool::new(false),
            context: Mutex::new(String::new()),
            peer_done: (0..n).map(|_| AtomicBool::new(false)).collect(),
            broken: AtomicBool::new(false),
        });
        let dog = Watchdog { inner };
        for (j, r) in readers.into_iter().enumerate() {
            if let Some(r) = r {
                let d = dog.clone();
                let _ = std::thread::Builder::new()
                    .name(format!("peg-cluster watch {j}"))
                    .spawn(move || d.watch(j, r, timeout));
            }
        }
        let d = dog.clone();
        let _ = std::thread::Builder::new()
            .name("peg-cluster heartbeat".into())
            .spawn(move || {
                while !d.inner.done.load(Ordering::SeqCst) {
                    d.send_all("alive");
                    std::thread::sleep(Duration::from_secs(1));
                }
            });
        dog
    }

    /// Record what the run is doing, for messages.
    pub fn set_context(&self, context: String) {
        *self
            .inner
            .context
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = context;
    }

    fn context(&self) -> String {
        self.inner
            .context
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn send_all(&self, line: &str) {
        let mut ws = self
            .inner
            .writers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for w in ws.iter_mut().flatten() {
            let _ = w.write_all(line.as_bytes());
            let _ = w.write_all(b"\n");
            let _ = w.flush();
        }
    }

    /// This process ends on purpose (with its result, or an error every process reached together): tell the
    /// others, and stop watching.
    pub fn done(&self) {
        self.inner.done.store(true, Ordering::SeqCst);
        self.send_all("done");
    }

    /// This process stops on an error of its own: tell the others why (they stop too).
    pub fn stop_all(&self, message: &str) {
        self.inner.done.store(true, Ordering::SeqCst);
        let one_line = message.replace('\n', " ");
        self.send_all(&format!("stop {one_line}"));
    }

    /// Report `message` (and what the run was doing) on stderr and end the process. Only the first failure
    /// is reported.
    pub fn fail(&self, message: &str) {
        if self.inner.failing.swap(true, Ordering::SeqCst) {
            // Another thread is reporting: let it.
            std::thread::sleep(Duration::from_secs(3600));
            return;
        }
        self.inner.done.store(true, Ordering::SeqCst);
        // The others learn why (they may not have seen it yet): they stop with the same cause.
        self.send_all(&format!("stop {}", message.replace('\n', " ")));
        let context = self.context();
        let sep = if context.is_empty() { "" } else { " " };
        eprintln!(
            "boardlab: error: {message}{sep}{context}; every process stops (with --checkpoint, start the \
             same command again to resume from the last level saved)"
        );
        let _ = std::io::stderr().flush();
        std::process::exit(EXIT_LOST);
    }

    /// Whether a failure is being reported (the process is about to exit).
    pub fn failing(&self) -> bool {
        self.inner.failing.load(Ordering::SeqCst) || self.inner.broken.load(Ordering::SeqCst)
    }

    /// A connection failed under timely: report which peer if a reader thread finds out within two seconds,
    /// else `message`.
    pub fn lost(&self, message: String) {
        if self.inner.broken.swap(true, Ordering::SeqCst) {
            return;
        }
        let d = self.clone();
        let _ = std::thread::Builder::new()
            .name("peg-cluster lost".into())
            .spawn(move || {
                std::thread::sleep(Duration::from_secs(2));
                d.fail(&message);
            });
    }

    fn watch(&self, j: usize, mut r: std::io::BufReader<TcpStream>, timeout: Duration) {
        let peer = self.inner.names[j].clone();
        let poll = Duration::from_millis(500).min(timeout);
        let _ = r.get_ref().set_read_timeout(Some(poll));
        let mut heard = Instant::now();
        let mut line = String::new();
        loop {
            if self.inner.done.load(Ordering::SeqCst) && !self.inner.failing.load(Ordering::SeqCst)
            {
                return;
            }
            match r.read_line(&mut line) {
                Ok(0) => {
                    if self.inner.done.load(Ordering::SeqCst)
                        || self.inner.peer_done[j].load(Ordering::SeqCst)
                    {
                        return;
                    }
                    self.fail(&format!("{peer} was lost: its connection closed"));
                    return;
                }
                Ok(_) => {
                    heard = Instant::now();
                    let l = line.trim_end();
                    if l == "done" {
                        self.inner.peer_done[j].store(true, Ordering::SeqCst);
                    } else if let Some(why) = l.strip_prefix("stop ") {
                        if !self.inner.done.load(Ordering::SeqCst) {
                            self.fail(&format!("{peer} stopped: {why}"));
                        }
                        return;
                    }
                    line.clear();
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    // `line` keeps a partial line, if any, for the next read.
                    if heard.elapsed() > timeout && !self.inner.peer_done[j].load(Ordering::SeqCst)
                    {
                        self.fail(&format!(
                            "{peer} has not been heard from for {} s (the network between the processes, or \
                             the process, is down)",
                            timeout.as_secs()
                        ));
                        return;
                    }
                }
                Err(e) => {
                    if self.inner.done.load(Ordering::SeqCst)
                        || self.inner.peer_done[j].load(Ordering::SeqCst)
                    {
                        return;
                    }
                    self.fail(&format!("{peer} was lost: {e}"));
                    return;
                }
            }
        }
    }

    /// This process's index.
    pub fn me(&self) -> usize {
        self.inner.me
    }
}
