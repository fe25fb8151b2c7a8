//! A cluster run's levels spilled to directories (`--spill DIR` with the cluster options,
//! [`peg::shard::count_spilled`]): each worker writes its buckets as `level-<pegs>-w<worker>-<bucket>.bin` in
//! its process's directory (on its own machine), and process 0 writes `spill.json` after each level: the
//! problem, the build, the shape of the cluster, the state of the run and every worker's buckets with their
//! sizes and checksums. Every file is written to a temporary name, synced and renamed, and the manifest last,
//! so a run stopped at any moment (killed, or a full disk) leaves the last complete level to resume from;
//! each worker removes its files of the level before once the manifest names the new one. The manifest is
//! read by process 0 and sent to the others at start-up.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use peg::shard::{SavedShare, ShareData, State};
use peg::spill::{LevelStore, Stored};
use serde::{Deserialize, Serialize};

use crate::checkpoint::{ShareEntry, StateJson};
use crate::store::{
    SPILL_MANIFEST, free_space, manifest_entries, open_bucket, put_bucket, remove_unnamed,
    write_manifest,
};

const FORMAT: &str = "boardlab-peg-cluster-spill";
const VERSION: u32 = 1;

/// The manifest of a cluster run's spilled levels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Manifest {
    format: String,
    version: u32,
    /// The problem, in words.
    problem: String,
    /// The hash of the binary that wrote it.
    binary: String,
    /// Processes of the run.
    processes: usize,
    /// Workers per process.
    workers: usize,
    state: StateJson,
    /// Every worker's buckets, by worker, each worker's in key order.
    buckets: Vec<ShareEntry>,
}

/// What a run must match to resume a store.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The problem, in words.
    pub problem: String,
    /// The build.
    pub binary: String,
    /// Processes.
    pub processes: usize,
    /// Workers per process.
    pub workers: usize,
}

/// Make the directory (if needed) and check that it can be written.
///
/// # Errors
/// One line naming the directory.
pub fn prepare(dir: &Path) -> Result<(), String> {
    let d = dir.display();
    fs::create_dir_all(dir).map_err(|e| format!("cannot create the spill directory {d}: {e}"))?;
    let probe = dir.join(format!(".probe-{}.tmp", std::process::id()));
    File::create(&probe)
        .and_then(|mut f| f.write_all(b"probe"))
        .map_err(|e| format!("cannot write in the spill directory {d}: {e}"))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Process 0: the manifest in `dir`, as text, checked against this run; `None` when the directory holds no
/// run yet.
///
/// # Errors
/// One line: the manifest cannot be read, is damaged, or is of another problem, build or shape; or the
/// directory holds level files without a manifest.
pub fn read_manifest(dir: &Path, id: &Identity) -> Result<Option<String>, String> {
    let d = dir.display();
    let path = dir.join(SPILL_MANIFEST);
    match fs::read_to_string(&path) {
        Ok(text) => parse(&text, dir, id).map(|_| Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let stray = fs::read_dir(dir)
                .map_err(|e| format!("cannot read the spill directory {d}: {e}"))?
                .filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().starts_with("level-"));
            if stray {
                return Err(format!(
                    "{d} holds level files but no {SPILL_MANIFEST}: not a store this run can resume; use \
                     another directory"
                ));
            }
            Ok(None)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// What a manifest's text records, checked against this run.
///
/// # Errors
/// One line saying what differs or is damaged.
pub fn parse(text: &str, dir: &Path, id: &Identity) -> Result<Stored, String> {
    let d = dir.display();
    let path = dir.join(SPILL_MANIFEST);
    let p = path.display();
    let m: Manifest = serde_json::from_str(text).map_err(|e| {
        format!("{p} is damaged or not a boardlab spill manifest of a cluster run ({e})")
    })?;
    if m.format != FORMAT || m.version != VERSION {
        return Err(format!(
            "{p} is a store of another format ({} version {}); use another directory",
            m.format, m.version
        ));
    }
    if m.problem != id.problem {
        return Err(format!(
            "{d} holds the levels of another problem ({}; this run: {}): use another directory",
            m.problem, id.problem
        ));
    }
    if m.binary != id.binary {
        return Err(format!(
            "{d} holds levels written by another build of boardlab (binary {}; this one: {}): resume with \
             the binary that wrote them, or use another directory",
            m.binary, id.binary
        ));
    }
    if m.processes != id.processes || m.workers != id.workers {
        return Err(format!(
            "{d} holds the levels of a run of {} processes of {} workers; this run has {} of {}: start it \
             with the same number of processes and workers",
            m.processes, m.workers, id.processes, id.workers
        ));
    }
    let state = m.state.state().map_err(|e| format!("{p}: {e}"))?;
    let nworkers = id.processes * id.workers;
    let mut buckets = Vec::with_capacity(m.buckets.len());
    for b in &m.buckets {
        let checksum = u64::from_str_radix(&b.checksum, 16).map_err(|_| {
            format!(
                "{p}: a bucket's checksum '{}' is not hexadecimal",
                b.checksum
            )
        })?;
        if b.file.contains('/') || b.file.contains('\\') || b.file.starts_with('.') {
            return Err(format!(
                "{p}: the manifest names a file '{}' outside its directory",
                b.file
            ));
        }
        if b.worker as usize >= nworkers {
            return Err(format!(
                "{p}: a bucket of worker {} in a run of {nworkers} workers",
                b.worker
            ));
        }
        buckets.push(SavedShare {
            worker: b.worker,
            classes: b.classes,
            bytes: b.bytes,
            checksum,
            name: b.file.clone(),
        });
    }
    Ok(Stored { state, buckets })
}

/// One worker's level store in its process's directory.
pub struct WorkerStore {
    dir: PathBuf,
    worker: usize,
    id: Identity,
}

impl WorkerStore {
    /// The store of worker `worker` in `dir` (made by [`prepare`]).
    pub fn new(dir: &Path, worker: usize, id: Identity) -> WorkerStore {
        WorkerStore {
            dir: dir.to_path_buf(),
            worker,
            id,
        }
    }

    /// The file of worker `w`'s bucket `b` of the level with `pegs` pegs.
    pub fn bucket_file(pegs: u32, w: usize, b: usize) -> String {
        format!("level-{pegs}-w{w}-{b}.bin")
    }

    /// Whether `name` is one of this worker's level files (or a temporary one).
    fn is_mine(&self, name: &str) -> bool {
        let name = name.strip_prefix('.').unwrap_or(name);
        name.starts_with("level-")
            && name.contains(&format!("-w{}-", self.worker))
            && (name.ends_with(".bin") || name.ends_with(".bin.tmp"))
    }
}

impl LevelStore for WorkerStore {
    fn put(
        &mut self,
        pegs: u32,
        bucket: usize,
        data: &dyn ShareData,
    ) -> Result<SavedShare, String> {
        put_bucket(
            &self.dir,
            WorkerStore::bucket_file(pegs, self.worker, bucket),
            self.worker as u32,
            data,
        )
    }

    fn get(&mut self, saved: &SavedShare) -> Result<Box<dyn Read + '_>, String> {
        open_bucket(&self.dir, saved)
    }

    /// Worker 0 writes the manifest; every worker then removes its own files that it does not name.
    fn commit(&mut self, state: &State, buckets: &[SavedShare]) -> Result<(), String> {
        if self.worker == 0 {
            let m = Manifest {
                format: FORMAT.to_string(),
                version: VERSION,
                problem: self.id.problem.clone(),
                binary: self.id.binary.clone(),
                processes: self.id.processes,
                workers: self.id.workers,
                state: StateJson::of(state),
                buckets: manifest_entries(buckets),
            };
            write_manifest(&self.dir, &m)?;
        }
        remove_unnamed(&self.dir, buckets, |name| self.is_mine(name));
        Ok(())
    }

    fn free_bytes(&self) -> Option<u64> {
        free_space(&self.dir)
    }

    fn place(&self) -> String {
        self.dir.display().to_string()
    }
}
