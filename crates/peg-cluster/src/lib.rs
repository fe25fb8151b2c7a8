#![doc = include_str!("../README.md")]

pub mod checkpoint;
pub mod hosts;
pub mod mesh;
pub mod spill;
pub mod store;
pub mod transport;
pub mod watchdog;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use peg::Problem;
use peg::shard::{self, Shape, ShardError, ShardOptions, ShardOutput, ShardStep, WorkerFigures};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

use crate::checkpoint::{FileCheckpoint, Manifest, open_share, read_manifest};
use crate::hosts::Host;
use crate::mesh::{Hello, PROTOCOL};
use crate::transport::TimelyTransport;
use crate::watchdog::Watchdog;

/// Why a process of a cluster run stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClusterError {
    /// Before the computation: the processes could not be connected, or do not run the same thing.
    #[error("{0}")]
    Start(String),
    /// The checkpoint directory cannot be used.
    #[error("{0}")]
    Checkpoint(String),
    /// The computation stopped (every process stops with the same error).
    #[error(transparent)]
    Run(#[from] ShardError),
    /// A worker thread failed.
    #[error("{0}")]
    Internal(String),
}

/// Checkpoints.
#[derive(Debug, Clone)]
pub struct CheckpointConfig {
    /// The directory (on each process's machine; it is created if needed).
    pub dir: PathBuf,
    /// Remove a level's shares once the next level is saved.
    pub prune: bool,
}

/// How to run one process of a cluster.
#[derive(Debug, Clone)]
pub struct Config {
    /// The addresses of all processes.
    pub hosts: Vec<Host>,
    /// The host file's name, for messages.
    pub hosts_file: String,
    /// This process.
    pub process: usize,
    /// Worker threads in each process.
    pub workers: usize,
    /// How long to wait for the other processes at start-up.
    pub connect_timeout: Duration,
    /// How long a silent peer is waited for before it is declared lost.
    pub peer_timeout: Duration,
    /// Checkpoints, if any.
    pub checkpoint: Option<CheckpointConfig>,
    /// Keep the levels in this directory instead of memory (on each process's machine; it is created if
    /// needed): each worker its own buckets, process 0 the manifest; each level is built in as many passes
    /// as the memory limit needs, and a run started again with the same directory resumes from the last
    /// level recorded ([`peg::shard::count_spilled`]). Not with `checkpoint`: the directory is the checkpoint.
    pub spill: Option<PathBuf>,
    /// This process's memory limit.
    pub max_memory: Option<u64>,
    /// Enumerate only this many levels.
    pub max_levels: Option<usize>,
    /// The problem in words (compared between processes and with checkpoints).
    pub problem_text: String,
    /// Print a line per level and worker on stderr.
    pub log: bool,
}

/// Figures of one process over the run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ProcessFigures {
    /// The process.
    pub process: usize,
    /// Its address.
    pub address: String,
    /// Classes of its largest share of a level (summed over its workers).
    pub classes_held_max: u64,
    /// Classes of its shares of all levels.
    pub classes_held: u64,
    /// Records its workers sent (to workers of the same process included).
    pub records_sent: u64,
    /// Of those, to other processes.
    pub records_sent_remote: u64,
    /// Records its workers received.
    pub records_received: u64,
    /// Of those, from other processes.
    pub records_received_remote: u64,
    /// Bytes it sent on its connections to other processes (records, timely's own messages, and heartbeats
    /// aside).
    pub bytes_sent: u64,
    /// Bytes it received on them.
    pub bytes_received: u64,
    /// Peak resident memory of the process, bytes.
    pub peak_memory: u64,
    /// The largest memory estimate of a step of its workers (summed over them), bytes: about the smallest
    /// memory limit the process can run with.
    pub memory_estimate: u64,
    /// CPU seconds of the process (user and system).
    pub cpu_secs: f64,
    /// Seconds its workers spent expanding, merging, and in exchanges (summed over workers).
    pub expand_secs: f64,
    /// Seconds merging.
    pub merge_secs: f64,
    /// Seconds in exchanges and agreements, including waiting for the others.
    pub exchange_secs: f64,
    /// Seconds saving checkpoints.
    pub checkpoint_secs: f64,
}

/// The result of a process's run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The table (the same on every process).
    pub count: peg::Count,
    /// Every process's figures.
    pub processes: Vec<ProcessFigures>,
    /// Workers per process.
    pub workers: usize,
    /// The level the run resumed from, if it did.
    pub resumed_from: Option<u32>,
    /// Wall seconds of this process's run, from the connection to the result.
    pub wall_secs: f64,
}

/// A TCP stream that counts the bytes through it (for the figures).
struct Counted {
    s: TcpStream,
    sent: Arc<AtomicU64>,
    received: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
        let n = self.s.read(b)?;
        self.received.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Write for Counted {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let n = self.s.write(b)?;
        self.sent.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.s.flush()
    }
}

impl timely::communication::allocator::zero_copy::stream::Stream for Counted {
    fn try_clone(&self) -> std::io::Result<Self> {
        Ok(Counted {
            s: self.s.try_clone()?,
            sent: Arc::clone(&self.sent),
            received: Arc::clone(&self.received),
        })
    }
    fn set_nonblocking(&self, nonblocking: bool) -> std::io::Result<()> {
        self.s.set_nonblocking(nonblocking)
    }
    fn shutdown(&self, how: Shutdown) -> std::io::Result<()> {
        self.s.shutdown(how)
    }
}

/// A hash of this executable (the processes of a run, and a checkpoint and its resumption, must run the
/// same build).
///
/// # Errors
/// The executable cannot be read.
pub fn binary_hash() -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let mut f = std::fs::File::open(&exe)
        .map_err(|e| format!("cannot read this executable {}: {e}", exe.display()))?;
    let mut sum = checkpoint::Checksum::default();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f
            .read(&mut buf)
            .map_err(|e| format!("cannot read this executable {}: {e}", exe.display()))?;
        if n == 0 {
            break;
        }
        sum.update(&buf[..n]);
    }
    Ok(format!("{:016x}", sum.finish()))
}

/// The process's peak resident memory (bytes) and CPU seconds so far, from `/proc/self`.
pub fn process_usage() -> (u64, f64) {
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<u64>().ok())
            })
        })
        .map_or(0, |kb| kb * 1024);
    // Fields 14 and 15 of /proc/self/stat (after the command's closing parenthesis): user and system time in
    // clock ticks (100 a second on Linux).
    let cpu = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let u = f.get(11)?.parse::<f64>().ok()?;
            let k = f.get(12)?.parse::<f64>().ok()?;
            Some((u + k) / 100.0)
        })
        .unwrap_or(0.0);
    (peak, cpu)
}

/// A reader that fails at once (for a share that cannot be opened: the worker reports it with the others).
struct Failing(String);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other(self.0.clone()))
    }
}

/// Whether a worker's error is its own (the others may not know of it) rather than one every worker reached.
fn is_local(e: &ShardError) -> bool {
    matches!(e, ShardError::Transport(_) | ShardError::Protocol(_))
}

/// Install (once) a panic hook that turns timely's connection failures into the watchdog's message instead of
/// a panic report.
fn install_hook(dog: &Watchdog) {
    static DOG: Mutex<Option<Watchdog>> = Mutex::new(None);
    let first = {
        let mut d = DOG.lock().unwrap_or_else(PoisonError::into_inner);
        let first = d.is_none();
        *d = Some(dog.clone());
        first
    };
    if !first {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        // timely's network threads fail on a broken connection; its workers and the threads joining them
        // fail after them.
        let cascade = [
            "timely communication error",
            "MergeQueue poisoned",
            "thread panic: Any",
        ];
        if cascade.iter().any(|c| msg.contains(c)) {
            if let Some(d) = DOG.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
                d.lost(format!("the connection to another process broke ({msg})"));
            }
            return;
        }
        previous(info);
    }));
}

/// The finish of `problem` as a checkpoint's manifest names it: a hole's name, or `anywhere`.
fn finish_name(problem: &Problem) -> String {
    match problem.finish() {
        peg::Finish::Anywhere => "anywhere".to_string(),
        peg::Finish::Hole(h) => problem.board().hole_name(h).to_string(),
    }
}

/// Run process `cfg.process` of a cluster enumeration of `problem`.
///
/// # Errors
/// See [`ClusterError`]. A peer lost during the computation ends the process from the watchdog (exit code
/// [`watchdog::EXIT_LOST`]) instead of returning.
pub fn run(problem: &Problem, cfg: &Config) -> Result<Outcome, ClusterError> {
    let n = cfg.hosts.len();
    let me = cfg.process;
    if me >= n {
        return Err(ClusterError::Start(format!(
            "--process {me} is not in the host file {} ({})",
            cfg.hosts_file,
            if n == 1 {
                "it has 1 line: process 0".to_string()
            } else {
                format!("it has {n} lines: processes 0 to {}", n - 1)
            }
        )));
    }
    if cfg.workers == 0 {
        return Err(ClusterError::Start("--workers must be at least 1".into()));
    }
    if cfg.spill.is_some() && cfg.checkpoint.is_some() {
        return Err(ClusterError::Start(
            "--spill and --checkpoint do not go together (the spill directory is the checkpoint)"
                .into(),
        ));
    }
    let binary = binary_hash().map_err(ClusterError::Start)?;
    let finish = finish_name(problem);
    let spill_id = spill::Identity {
        problem: cfg.problem_text.clone(),
        binary: binary.clone(),
        processes: n,
        workers: cfg.workers,
    };
    let listener = mesh::listen(&cfg.hosts, me, &cfg.hosts_file)?;
    // Checkpoints: every process makes its directory; process 0 reads the manifest and decides.
    let mut refusal = None;
    let mut manifest_text = None;
    if let Some(c) = &cfg.checkpoint {
        std::fs::create_dir_all(&c.dir).map_err(|e| {
            ClusterError::Checkpoint(format!(
                "cannot make the checkpoint directory {}: {e}",
                c.dir.display()
            ))
        })?;
        if me == 0 {
            match read_manifest(&c.dir) {
                Ok(Some(m)) => match m.check(
                    &c.dir,
                    (&cfg.problem_text, &finish),
                    &binary,
                    n,
                    cfg.workers,
                ) {
                    Ok(()) => manifest_text = serde_json::to_string(&m).ok(),
                    Err(e) => refusal = Some(e),
                },
                Ok(None) => {}
                Err(e) => refusal = Some(e),
            }
        }
    }
    if let Some(dir) = &cfg.spill {
        spill::prepare(dir).map_err(ClusterError::Checkpoint)?;
        if me == 0 {
            match spill::read_manifest(dir, &spill_id) {
                Ok(t) => manifest_text = t,
                Err(e) => refusal = Some(e),
            }
        }
    }
    let hello = Hello {
        protocol: PROTOCOL,
        process: me,
        hosts: cfg.hosts.iter().map(|h| h.addr.clone()).collect(),
        binary: binary.clone(),
        problem: cfg.problem_text.clone(),
        settings: format!(
            "{}{}",
            match cfg.max_levels {
                Some(l) => format!("levels {l}"),
                None => "all levels".to_string(),
            },
            if cfg.spill.is_some() { ", spilled" } else { "" }
        ),
        workers: cfg.workers,
        checkpoint: cfg.checkpoint.is_some(),
        manifest: manifest_text.clone(),
        refusal: refusal.clone(),
    };
    let mut mesh = mesh::connect(
        listener,
        &cfg.hosts,
        me,
        &cfg.hosts_file,
        cfg.connect_timeout,
    )?;
    let hellos = mesh::handshake(
        &mut mesh,
        &hello,
        &cfg.hosts,
        &cfg.hosts_file,
        cfg.connect_timeout,
    )?;
    if let Some(r) = refusal {
        return Err(ClusterError::Checkpoint(r));
    }
    let text = if me == 0 {
        manifest_text
    } else {
        hellos
            .first()
            .and_then(|h| h.as_ref())
            .and_then(|h| h.manifest.clone())
    };
    let spilled = match (&cfg.spill, &text) {
        (Some(dir), Some(t)) => {
            Some(spill::parse(t, dir, &spill_id).map_err(ClusterError::Checkpoint)?)
        }
        _ => None,
    };
    let manifest: Option<Manifest> = match (&cfg.checkpoint, text) {
        (Some(c), Some(t)) => {
            let m = Manifest::parse(&t, &c.dir).map_err(ClusterError::Checkpoint)?;
            m.check(
                &c.dir,
                (&cfg.problem_text, &finish),
                &binary,
                n,
                cfg.workers,
            )
            .map_err(ClusterError::Checkpoint)?;
            Some(m)
        }
        _ => None,
    };
    let dog = Watchdog::start(
        std::mem::take(&mut mesh.control),
        &cfg.hosts,
        &cfg.hosts_file,
        me,
        cfg.peer_timeout,
    );
    install_hook(&dog);
    let began = Instant::now();
    let sent = Arc::new(AtomicU64::new(0));
    let received = Arc::new(AtomicU64::new(0));
    let sockets: Vec<Option<Counted>> = mesh
        .data
        .into_iter()
        .map(|s| {
            s.map(|s| Counted {
                s,
                sent: Arc::clone(&sent),
                received: Arc::clone(&received),
            })
        })
        .collect();
    let hooks = timely::communication::Hooks::default();
    let process_allocators =
        ProcessBuilder::new_typed_vector(cfg.workers, hooks.refill.clone(), None);
    let (builders, guard) =
        initialize_networking_from_sockets(process_allocators, sockets, me, cfg.workers, hooks)
            .map_err(|e| ClusterError::Start(format!("cannot start the network threads: {e}")))?;
    let builders: Vec<AllocatorBuilder> = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    let shape = Shape {
        processes: n,
        per_process: cfg.workers,
    };
    let shared_manifest = manifest.clone();
    let shared = Arc::new(Shared {
        problem: problem.clone(),
        cfg: cfg.clone(),
        binary,
        manifest,
        spilled,
        spill_id,
        dog: dog.clone(),
        shape,
        sent: Arc::clone(&sent),
        received: Arc::clone(&received),
    });
    let guards = timely::execute::execute_from(
        builders,
        Box::new(guard),
        timely::WorkerConfig::default(),
        move |worker| work(worker, &shared),
    )
    .map_err(|e| ClusterError::Start(format!("cannot start the workers: {e}")))?;
    let mut outputs: Vec<ShardOutput> = Vec::new();
    let mut error: Option<ClusterError> = None;
    // Joining fails (the network threads panicked) when a connection broke: the watchdog reports it.
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()));
    let joined = match joined {
        Ok(j) => j,
        Err(_) => {
            wait_for_watchdog(&dog);
            return Err(ClusterError::Internal(
                "the connections between the processes broke".into(),
            ));
        }
    };
    if joined.iter().any(Result::is_err) && dog.failing() {
        wait_for_watchdog(&dog);
    }
    for r in joined {
        match r {
            Ok(Ok(o)) => outputs.push(o),
            Ok(Err(e)) => {
                error.get_or_insert(ClusterError::Run(e));
            }
            Err(e) => {
                error.get_or_insert(ClusterError::Internal(format!("a worker failed: {e}")));
            }
        }
    }
    if let Some(mut e) = error {
        // A share that could not be read: name its file.
        if let (ClusterError::Run(ShardError::Resume { worker, .. }), Some(m), Some(c)) =
            (&e, &shared_manifest, &cfg.checkpoint)
            && let Ok((file, _, _)) = m.share(*worker)
        {
            e = ClusterError::Checkpoint(format!("{e} (in {})", c.dir.join(file).display()));
        }
        if matches!(e, ClusterError::Internal(_)) {
            dog.stop_all(&e.to_string());
        } else {
            dog.done();
        }
        return Err(e);
    }
    dog.done();
    let Some(first) = outputs.into_iter().next() else {
        return Err(ClusterError::Internal("no worker returned".into()));
    };
    let processes = (0..n)
        .map(|p| {
            let mut f = ProcessFigures {
                process: p,
                address: cfg.hosts[p].addr.clone(),
                ..ProcessFigures::default()
            };
            for w in first.figures.iter().filter(|w| w.process as usize == p) {
                f.classes_held_max += w.classes_held_max;
                f.classes_held += w.classes_held;
                f.records_sent += w.records_sent;
                f.records_sent_remote += w.records_sent_remote;
                f.records_received += w.records_received;
                f.records_received_remote += w.records_received_remote;
                f.bytes_sent += w.process_bytes_sent;
                f.bytes_received += w.process_bytes_received;
                f.peak_memory += w.process_peak_memory;
                f.memory_estimate += w.estimate_max;
                f.cpu_secs += w.process_cpu_secs;
                f.expand_secs += w.expand_secs;
                f.merge_secs += w.merge_secs;
                f.exchange_secs += w.exchange_secs;
                f.checkpoint_secs += w.checkpoint_secs;
            }
            f
        })
        .collect();
    Ok(Outcome {
        count: first.count,
        processes,
        workers: cfg.workers,
        resumed_from: first.resumed_from,
        wall_secs: began.elapsed().as_secs_f64(),
    })
}

/// Give the watchdog, which is reporting a lost connection, the time to do so (it ends the process); then
/// report it here.
fn wait_for_watchdog(dog: &Watchdog) {
    std::thread::sleep(Duration::from_secs(5));
    dog.fail("the connection to another process broke");
}

/// What every worker of the process shares.
struct Shared {
    problem: Problem,
    cfg: Config,
    binary: String,
    manifest: Option<Manifest>,
    /// With `--spill`: what the store recorded last (the same on every process), and the run's identity.
    spilled: Option<peg::spill::Stored>,
    spill_id: spill::Identity,
    dog: Watchdog,
    shape: Shape,
    sent: Arc<AtomicU64>,
    received: Arc<AtomicU64>,
}

/// One worker's run.
fn work(worker: &mut timely::worker::Worker, sh: &Shared) -> Result<ShardOutput, ShardError> {
    let index = worker.index();
    let cfg = &sh.cfg;
    let first_of_process = index.is_multiple_of(cfg.workers);
    let dog = sh.dog.clone();
    let progress = |l: &peg::Level| {
        if first_of_process {
            dog.set_context(format!(
                "(after the level with {} pegs, {} positions up to symmetry)",
                l.pegs, l.classes
            ));
        }
    };
    let log = cfg.log;
    let process = sh.shape.process_of(index);
    let stats = move |s: &ShardStep| {
        if log {
            eprintln!(
                "process {process} worker {index}: level {} pegs: {} of {} classes, next {}; records sent {} \
                 received {}; bytes to other processes {} from them {}; {} rounds{}; expand {:.3}s merge {:.3}s \
                 exchange {:.3}s freeze {:.3}s total {:.3}s; round {} records, estimate {:.1} MiB, process peak so far \
                 {:.1} MiB",
                s.pegs,
                s.share,
                s.classes,
                s.next_share,
                s.records_sent,
                s.records_received,
                s.wire_sent,
                s.wire_received,
                s.rounds,
                if s.rebuilt_wide {
                    ", rebuilt with u128 counters"
                } else {
                    ""
                },
                s.expand_secs,
                s.merge_secs,
                s.exchange_secs,
                s.freeze_secs,
                s.total_secs,
                s.round_records,
                s.estimate as f64 / f64::from(1u32 << 20),
                process_usage().0 as f64 / f64::from(1u32 << 20)
            );
        }
    };
    let (sent, received) = (Arc::clone(&sh.sent), Arc::clone(&sh.received));
    let figures_hook = move |f: &mut WorkerFigures| {
        if first_of_process {
            let (peak, cpu) = process_usage();
            f.process_peak_memory = peak;
            f.process_cpu_secs = cpu;
            f.process_bytes_sent = sent.load(Ordering::Relaxed);
            f.process_bytes_received = received.load(Ordering::Relaxed);
        }
    };
    let mut opts = ShardOptions::new(index, sh.shape);
    opts.max_memory = cfg.max_memory;
    opts.max_levels = cfg.max_levels;
    opts.progress = Some(&progress);
    opts.stats = Some(&stats);
    opts.figures = Some(&figures_hook);
    let mut cp = cfg.checkpoint.as_ref().map(|c| FileCheckpoint {
        dir: c.dir.clone(),
        worker: index,
        problem: cfg.problem_text.clone(),
        finish: finish_name(&sh.problem),
        binary: sh.binary.clone(),
        processes: sh.shape.processes,
        workers: cfg.workers,
        prune: c.prune,
        previous: sh
            .manifest
            .as_ref()
            .map(|m| m.shares.iter().map(|s| s.file.clone()).collect())
            .unwrap_or_default(),
    });
    let mut reader: Box<dyn Read> = match (&sh.manifest, &cfg.checkpoint) {
        (Some(m), Some(c)) => match open_share(&c.dir, m, index) {
            Ok(r) => Box::new(r),
            Err(e) => Box::new(Failing(e)),
        },
        _ => Box::new(std::io::empty()),
    };
    let resume = match &sh.manifest {
        Some(m) => match m.state() {
            Ok(state) => Some(shard::Resume {
                state,
                share: &mut reader,
            }),
            Err(e) => return Err(ShardError::Unsupported(e)),
        },
        None => None,
    };
    let mut net = TimelyTransport::new(worker);
    let out = match &cfg.spill {
        Some(dir) => {
            let mut store = spill::WorkerStore::new(dir, index, sh.spill_id.clone());
            shard::count_spilled(&sh.problem, &opts, &mut net, &mut store, sh.spilled.clone())
        }
        None => shard::count(
            &sh.problem,
            &opts,
            &mut net,
            cp.as_mut().map(|c| c as &mut dyn shard::Checkpoint),
            resume,
        ),
    };
    net.close();
    if let Err(e) = &out
        && is_local(e)
    {
        let msg = format!("process {process} worker {index}: {e}");
        sh.dog.stop_all(&msg);
        sh.dog.fail(&msg);
    }
    out
}
