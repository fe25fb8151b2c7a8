//! `boardlab peg count ... --hosts FILE --process I [--workers W]` and `--local-processes N`: the enumeration on
//! a cluster of processes (the `peg-cluster` crate), with the single-machine command's output on process 0.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use peg::{Count, Problem};
use peg_cluster::{CheckpointConfig, Config, Outcome, hosts};

use super::{parse_duration, sep};
use crate::output::Output;

/// The cluster options of `peg count`.
#[derive(Debug, Args, Default)]
pub(super) struct ClusterArgs {
    /// Run on a cluster: a file of host:port lines, one per process, process 0 first. Every process runs the
    /// same command, each with its own --process; process 0 prints the result.
    #[arg(
        long,
        value_name = "FILE",
        requires = "process",
        help_heading = "Cluster"
    )]
    hosts: Option<PathBuf>,
    /// This process's line of the host file, counted from 0 (blank and # lines not counted).
    #[arg(long, value_name = "I", requires = "hosts", help_heading = "Cluster")]
    process: Option<usize>,
    /// Worker threads per process (the same on every process). Default: 1.
    #[arg(long, value_name = "W", help_heading = "Cluster")]
    workers: Option<usize>,
    /// Start N processes on this machine (on free loopback ports), run the cluster, and print process 0's result.
    #[arg(long, value_name = "N", conflicts_with_all = ["hosts", "process"], help_heading = "Cluster")]
    local_processes: Option<usize>,
    /// Save each level in DIR (each process its own share, process 0 the manifest); the same command started
    /// again with the same DIR resumes from the last level saved. With --finish, process 0 first finds the
    /// positions that can still finish in memory (as --spill does), and the manifest keeps them.
    #[arg(long, value_name = "DIR", help_heading = "Cluster")]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint: remove a level's saved shares once the next level is saved (default: keep all).
    #[arg(long, requires = "checkpoint", help_heading = "Cluster")]
    checkpoint_prune: bool,
    /// How long the processes wait for each other at start-up (for example 30s or 5m). Default: 60s.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, help_heading = "Cluster")]
    connect_timeout: Option<Duration>,
    /// How long a process that is not heard from is waited for before every process stops. Default: 60s.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, help_heading = "Cluster")]
    peer_timeout: Option<Duration>,
    /// Set by --local-processes on the processes it starts: stop when the parent's pipe closes.
    #[arg(long, hide = true)]
    local_child: bool,
}

impl ClusterArgs {
    /// Whether the cluster engine was asked for.
    pub(super) fn wanted(&self) -> bool {
        self.hosts.is_some() || self.local_processes.is_some()
    }

    /// Whether checkpoints were asked for.
    pub(super) fn checkpoints(&self) -> bool {
        self.checkpoint.is_some()
    }

    /// Refuse cluster options given without a cluster.
    pub(super) fn check_unused(&self) -> anyhow::Result<()> {
        let stray = [
            (self.workers.is_some(), "--workers"),
            (self.checkpoint.is_some(), "--checkpoint"),
            (self.connect_timeout.is_some(), "--connect-timeout"),
            (self.peer_timeout.is_some(), "--peer-timeout"),
        ];
        if let Some((_, name)) = stray.iter().find(|(given, _)| *given) {
            bail!(
                "{name} works with the cluster engine only: add --local-processes N (or --hosts FILE --process I)"
            );
        }
        Ok(())
    }
}

/// The problem in words: what the processes of a run, and a checkpoint and its resumption, must agree on
/// (the board's name is left out: two copies of a layout file may be named differently).
pub(super) fn problem_text(p: &Problem) -> String {
    let b = p.board();
    let finish = match p.finish() {
        peg::Finish::Anywhere => "anywhere".to_string(),
        peg::Finish::Hole(h) => b.hole_name(h).to_string(),
    };
    let layout = b
        .layout_string(p.start())
        .trim_end()
        .lines()
        .collect::<Vec<_>>()
        .join("/");
    format!(
        "{} lattice, {} holes, start [{layout}], finish {finish}",
        b.lattice(),
        b.holes()
    )
}

/// The figures of every process, as `--json` prints them under "cluster".
#[derive(serde::Serialize)]
pub(super) struct ClusterJson<'a> {
    processes: usize,
    workers: usize,
    resumed_from: Option<u32>,
    wall_secs: f64,
    per_process: &'a [peg_cluster::ProcessFigures],
}

/// Run this process of the cluster (`--hosts`), or start the local processes (`--local-processes`).
/// Returns the table and the cluster figures when this process prints the result.
/// `limits`: this process's memory limit, and the default limit of the machine (without `--max-memory`).
/// With `spill`, the levels are kept in that directory.
pub(super) fn count(
    a: &ClusterArgs,
    problem: &Problem,
    (max_memory, local_default): (Option<u64>, Option<u64>),
    max_levels: Option<usize>,
    spill: Option<&Path>,
    out: &Output,
) -> anyhow::Result<Option<(Count, Outcome)>> {
    if let Some(n) = a.local_processes {
        if let Some(dir) = spill {
            // One line here rather than one from every process.
            peg_cluster::spill::prepare(dir).map_err(anyhow::Error::msg)?;
        }
        return local(n, local_default, a.checkpoint.is_some() || spill.is_some()).map(|()| None);
    }
    let (Some(file), Some(process)) = (&a.hosts, a.process) else {
        bail!("--hosts and --process go together");
    };
    if a.local_child {
        watch_parent();
    }
    let workers = a.workers.unwrap_or(1);
    if !(1..=256).contains(&workers) {
        bail!("--workers must be from 1 to 256 (got {workers})");
    }
    let hosts = hosts::read(file)?;
    let cfg = Config {
        hosts,
        hosts_file: file.display().to_string(),
        process,
        workers,
        connect_timeout: a.connect_timeout.unwrap_or(Duration::from_secs(60)),
        peer_timeout: a.peer_timeout.unwrap_or(Duration::from_secs(60)),
        checkpoint: a.checkpoint.as_ref().map(|d| CheckpointConfig {
            dir: d.clone(),
            prune: a.checkpoint_prune,
        }),
        spill: spill.map(Path::to_path_buf),
        max_memory,
        max_levels,
        problem_text: problem_text(problem),
        log: std::env::var_os("PEG_DEBUG").is_some(),
    };
    let outcome = peg_cluster::run(problem, &cfg)?;
    if process != 0 {
        out.log(&format!(
            "process {process}: done in {:.1} s",
            outcome.wall_secs
        ));
        return Ok(None);
    }
    let count = outcome.count.clone();
    Ok(Some((count, outcome)))
}

/// The figures of every process on stderr (after process 0's table).
pub(super) fn print_figures(o: &Outcome) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(
        e,
        "cluster: {} processes x {} workers, {:.2} s{}",
        o.processes.len(),
        o.workers,
        o.wall_secs,
        o.resumed_from
            .map(|p| format!(" (resumed from the checkpoint of the level with {p} pegs)"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        e,
        "{:>7} {:>22} {:>16} {:>16} {:>16} {:>16} {:>11} {:>9}",
        "process",
        "classes held (widest)",
        "records sent",
        "received",
        "bytes sent",
        "bytes received",
        "peak memory",
        "CPU s"
    );
    for p in &o.processes {
        let _ = writeln!(
            e,
            "{:>7} {:>22} {:>16} {:>16} {:>16} {:>16} {:>8} MB {:>9.2}",
            p.process,
            sep(u128::from(p.classes_held_max)),
            sep(u128::from(p.records_sent)),
            sep(u128::from(p.records_received)),
            sep(u128::from(p.bytes_sent)),
            sep(u128::from(p.bytes_received)),
            p.peak_memory >> 20,
            p.cpu_secs
        );
    }
}

/// The figures for `--json`.
pub(super) fn figures_json(o: &Outcome) -> ClusterJson<'_> {
    ClusterJson {
        processes: o.processes.len(),
        workers: o.workers,
        resumed_from: o.resumed_from,
        wall_secs: o.wall_secs,
        per_process: &o.processes,
    }
}

/// In a process started by `--local-processes`: stop when the parent's pipe (our stdin) closes, so that no
/// process outlives a parent that was killed.
fn watch_parent() {
    let _ = std::thread::Builder::new()
        .name("parent watch".into())
        .spawn(|| {
            let mut buf = [0u8; 64];
            let mut stdin = std::io::stdin();
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) | Err(_) => {
                        crate::errln!(
                            "boardlab: error: the boardlab that started this process has ended"
                        );
                        std::process::exit(1);
                    }
                    Ok(_) => {}
                }
            }
        });
}

/// Free ports on the loopback address, `n` of them (distinct).
fn free_ports(n: usize) -> anyhow::Result<Vec<u16>> {
    let listeners = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()
        .context("cannot find free loopback ports")?;
    listeners
        .iter()
        .map(|l| Ok(l.local_addr()?.port()))
        .collect::<std::io::Result<Vec<u16>>>()
        .context("cannot find free loopback ports")
}

/// This command's arguments without `--local-processes N`.
fn child_args() -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(a) = args.next() {
        if a == "--local-processes" {
            args.next();
            continue;
        }
        if a.to_string_lossy().starts_with("--local-processes=") {
            continue;
        }
        out.push(a);
    }
    out
}

/// A directory of our own for the host file.
fn temp_dir() -> anyhow::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("boardlab-cluster-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot make a temporary directory {}", dir.display()))?;
    Ok(dir)
}

/// Start `n` processes of this command on loopback ports, forward their output, and wait for all.
fn local(n: usize, max_memory: Option<u64>, checkpoint: bool) -> anyhow::Result<()> {
    if !(1..=64).contains(&n) {
        bail!("--local-processes must be from 1 to 64 (got {n})");
    }
    let ports = free_ports(n)?;
    let dir = temp_dir()?;
    let result = run_local(n, &ports, &dir, max_memory, checkpoint);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_local(
    n: usize,
    ports: &[u16],
    dir: &Path,
    max_memory: Option<u64>,
    checkpoint: bool,
) -> anyhow::Result<()> {
    watch_signals();
    let hosts_file = dir.join("hosts.txt");
    let text: String = ports.iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(&hosts_file, text)
        .with_context(|| format!("cannot write {}", hosts_file.display()))?;
    let exe = std::env::current_exe().context("cannot find this executable")?;
    let mut base = child_args();
    // The processes share this machine: each gets its part of the default memory limit.
    if let Some(m) = max_memory {
        base.push("--max-memory".into());
        base.push(format!("{}B", m / n as u64).into());
    }
    let mut children = Vec::with_capacity(n);
    let mut forwarders = Vec::with_capacity(n);
    let mut pipes = Vec::with_capacity(n);
    for i in 0..n {
        let mut cmd = Command::new(&exe);
        cmd.args(&base)
            .arg("--hosts")
            .arg(&hosts_file)
            .arg("--process")
            .arg(i.to_string())
            .arg("--local-child")
            .stdin(Stdio::piped())
            .stdout(if i == 0 {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start process {i} ({})", exe.display()))?;
        // Kept open until every process has ended (waiting for a child closes its stdin): a process sees
        // it close only when this one ends.
        pipes.push(child.stdin.take());
        if let Some(err) = child.stderr.take() {
            forwarders.push(std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    crate::errln!("[process {i}] {line}");
                }
            }));
        }
        children.push(child);
    }
    let (statuses, stopped_by) = wait_all(&mut children);
    let mut failed = Vec::new();
    for (i, status) in statuses.into_iter().enumerate() {
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => {
                use std::os::unix::process::ExitStatusExt;
                failed.push(match (s.code(), s.signal()) {
                    (Some(code), _) => format!("process {i} exited with code {code}"),
                    (None, Some(sig)) => format!("process {i} was killed by signal {sig}"),
                    _ => format!("process {i} failed"),
                });
            }
            Err(e) => failed.push(format!("process {i} could not be waited for: {e}")),
        }
    }
    drop(pipes);
    for f in forwarders {
        let _ = f.join();
    }
    if let Some(sig) = stopped_by {
        bail!(
            "stopped by {}: the {n} local processes were stopped{}",
            signal_name(sig),
            if checkpoint {
                "; the checkpoint (or spill directory) is kept, and the same command resumes from its last level"
            } else {
                ""
            }
        );
    }
    if !failed.is_empty() {
        bail!(
            "{} of {n} local processes failed ({}); their messages are above",
            failed.len(),
            failed.join(", ")
        );
    }
    Ok(())
}

/// The signal (SIGINT or SIGTERM) this process received while it ran local processes, 0 for none.
static STOP_SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_stop_signal(sig: libc::c_int) {
    // Only an atomic store: nothing else is safe in a signal handler.
    STOP_SIGNAL.store(sig, Ordering::SeqCst);
}

/// From now on SIGINT and SIGTERM are recorded in [`STOP_SIGNAL`] instead of ending this process at once, so
/// that it can pass them on to its processes, wait for them and clean up.
fn watch_signals() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(sig, on_stop_signal as *const () as libc::sighandler_t);
        }
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// How long processes told to stop get before they are killed.
const STOP_WAIT: Duration = Duration::from_secs(10);

/// Wait for every child. On SIGINT or SIGTERM, pass the signal on to those still running, give them
/// [`STOP_WAIT`] to end (a checkpoint is written level by level, each file renamed into place, so ending
/// between two levels loses nothing saved), then kill what is left. Returns each child's status and the signal
/// that stopped the run, if any.
fn wait_all(
    children: &mut [std::process::Child],
) -> (Vec<std::io::Result<std::process::ExitStatus>>, Option<i32>) {
    let mut statuses: Vec<Option<std::io::Result<std::process::ExitStatus>>> =
        children.iter().map(|_| None).collect();
    let mut stop_since: Option<std::time::Instant> = None;
    let mut killed = false;
    loop {
        for (c, st) in children.iter_mut().zip(statuses.iter_mut()) {
            if st.is_none() {
                match c.try_wait() {
                    Ok(Some(s)) => *st = Some(Ok(s)),
                    Ok(None) => {}
                    Err(e) => *st = Some(Err(e)),
                }
            }
        }
        if statuses.iter().all(Option::is_some) {
            break;
        }
        let sig = STOP_SIGNAL.load(Ordering::SeqCst);
        if sig != 0 && stop_since.is_none() {
            stop_since = Some(std::time::Instant::now());
            for (c, st) in children.iter().zip(&statuses) {
                if st.is_none()
                    && let Ok(pid) = libc::pid_t::try_from(c.id())
                {
                    // SAFETY: kill sends a signal to our own child, which has not been waited for yet (its pid
                    // cannot have been reused).
                    unsafe {
                        libc::kill(pid, sig);
                    }
                }
            }
        }
        if let Some(t) = stop_since
            && !killed
            && t.elapsed() > STOP_WAIT
        {
            killed = true;
            for (c, st) in children.iter_mut().zip(&statuses) {
                if st.is_none() {
                    let _ = c.kill();
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let sig = STOP_SIGNAL.load(Ordering::SeqCst);
    (
        statuses.into_iter().flatten().collect(),
        (sig != 0).then_some(sig),
    )
}
