//! A spilling enumeration's level store in a directory ([`peg::spill::LevelStore`]): each bucket of a level is
//! a file `level-<pegs>-<bucket>.bin`, and `spill.json` records the state of the run after each level (the
//! problem, the build, the table rows so far, and the level's buckets with their sizes and checksums). Every
//! file is written to a temporary name, synced and renamed, and the manifest last, so a run stopped at any
//! moment (killed, or a full disk) leaves the last complete level to resume from; the files of the level
//! before are removed once the manifest names the new one.

use std::fs::{self, File};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use peg::shard::{SavedShare, ShareData, State};
use peg::spill::{LevelStore, Stored};
use serde::{Deserialize, Serialize};

use crate::checkpoint::{CheckedReader, Checksum, ShareEntry, StateJson, SumWriter, write_atomic};

/// The manifest's file name.
pub const SPILL_MANIFEST: &str = "spill.json";

const FORMAT: &str = "boardlab-peg-spill";
const VERSION: u32 = 1;

/// The manifest of a level store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct SpillManifest {
    format: String,
    version: u32,
    /// The problem, in words.
    problem: String,
    /// The hash of the binary that wrote it.
    binary: String,
    state: StateJson,
    buckets: Vec<ShareEntry>,
}

/// A level store in a directory.
pub struct DirStore {
    dir: PathBuf,
    problem: String,
    binary: String,
}

fn is_level_file(name: &str) -> bool {
    (name.starts_with("level-") || name.starts_with(".level-"))
        && (name.ends_with(".bin") || name.ends_with(".bin.tmp"))
}

impl DirStore {
    /// Open (creating it if needed) the store in `dir` for the problem `problem` (in words) run by the build
    /// `binary`; what it holds of an earlier run of the same problem and build, to resume from.
    ///
    /// # Errors
    /// One line: the directory cannot be created or written, or it holds a run of another problem or build,
    /// or its manifest is damaged.
    pub fn open(
        dir: &Path,
        problem: &str,
        binary: &str,
    ) -> Result<(DirStore, Option<Stored>), String> {
        let d = dir.display();
        fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the spill directory {d}: {e}"))?;
        // Can it be written? A probe file, removed at once.
        let probe = dir.join(".probe.tmp");
        File::create(&probe)
            .and_then(|mut f| f.write_all(b"probe"))
            .map_err(|e| format!("cannot write in the spill directory {d}: {e}"))?;
        let _ = fs::remove_file(&probe);
        let store = DirStore {
            dir: dir.to_path_buf(),
            problem: problem.to_string(),
            binary: binary.to_string(),
        };
        let path = dir.join(SPILL_MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if fs::read_dir(dir)
                    .map_err(|e| format!("cannot read the spill directory {d}: {e}"))?
                    .filter_map(Result::ok)
                    .any(|e| is_level_file(&e.file_name().to_string_lossy()))
                {
                    return Err(format!(
                        "{d} holds level files but no {SPILL_MANIFEST}: not a store this run can resume; \
                         use another directory"
                    ));
                }
                return Ok((store, None));
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let m: SpillManifest = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{} is damaged or not a boardlab spill manifest ({e})",
                path.display()
            )
        })?;
        if m.format != FORMAT || m.version != VERSION {
            return Err(format!(
                "{} is a store of another format ({} version {}); use another directory",
                path.display(),
                m.format,
                m.version
            ));
        }
        if m.problem != problem {
            return Err(format!(
                "{d} holds the levels of another problem ({}; this run: {problem}): use another directory",
                m.problem
            ));
        }
        if m.binary != binary {
            return Err(format!(
                "{d} holds levels written by another build of boardlab (binary {}; this one: {binary}): \
                 resume with the binary that wrote them, or use another directory",
                m.binary
            ));
        }
        let state = m
            .state
            .state()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut buckets = Vec::with_capacity(m.buckets.len());
        for (i, b) in m.buckets.iter().enumerate() {
            let checksum = u64::from_str_radix(&b.checksum, 16).map_err(|_| {
                format!(
                    "{}: a bucket's checksum '{}' is not hexadecimal",
                    path.display(),
                    b.checksum
                )
            })?;
            if b.file.contains('/') || b.file.contains('\\') || b.file.starts_with('.') {
                return Err(format!(
                    "{}: the manifest names a file '{}' outside its directory",
                    path.display(),
                    b.file
                ));
            }
            if b.worker as usize != i {
                return Err(format!("{}: the buckets are out of order", path.display()));
            }
            buckets.push(SavedShare {
                worker: b.worker,
                classes: b.classes,
                bytes: b.bytes,
                checksum,
                name: b.file.clone(),
            });
        }
        Ok((store, Some(Stored { state, buckets })))
    }

    /// The file of bucket `b` of the level with `pegs` pegs.
    pub fn bucket_file(pegs: u32, b: usize) -> String {
        format!("level-{pegs}-{b}.bin")
    }
}

impl LevelStore for DirStore {
    fn put(
        &mut self,
        pegs: u32,
        bucket: usize,
        data: &dyn ShareData,
    ) -> Result<SavedShare, String> {
        put_bucket(
            &self.dir,
            DirStore::bucket_file(pegs, bucket),
            bucket as u32,
            data,
        )
    }

    fn get(&mut self, saved: &SavedShare) -> Result<Box<dyn Read + '_>, String> {
        open_bucket(&self.dir, saved)
    }

    fn commit(&mut self, state: &State, buckets: &[SavedShare]) -> Result<(), String> {
        let m = SpillManifest {
            format: FORMAT.to_string(),
            version: VERSION,
            problem: self.problem.clone(),
            binary: self.binary.clone(),
            state: StateJson::of(state),
            buckets: manifest_entries(buckets),
        };
        write_manifest(&self.dir, &m)?;
        // The level before, and anything a stopped run left, are no longer needed.
        remove_unnamed(&self.dir, buckets, is_level_file);
        Ok(())
    }

    fn free_bytes(&self) -> Option<u64> {
        free_space(&self.dir)
    }

    fn place(&self) -> String {
        self.dir.display().to_string()
    }
}

/// The manifest's entries of the buckets of a committed level.
pub(crate) fn manifest_entries(buckets: &[SavedShare]) -> Vec<ShareEntry> {
    buckets
        .iter()
        .map(|s| ShareEntry {
            worker: s.worker,
            file: s.name.clone(),
            classes: s.classes,
            bytes: s.bytes,
            checksum: format!("{:016x}", s.checksum),
        })
        .collect()
}

/// Writes a spill manifest as `dir/`[`SPILL_MANIFEST`] (through a temporary file renamed into place).
pub(crate) fn write_manifest<M: Serialize>(dir: &Path, manifest: &M) -> Result<(), String> {
    let text = serde_json::to_string_pretty(manifest)
        .map_err(|e| format!("cannot encode the spill manifest: {e}"))?;
    let path = dir.join(SPILL_MANIFEST);
    write_atomic(&path, |w| w.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Removes the files of `dir` that `ours` claims and no bucket of `buckets` names (best effort: a file that
/// cannot be removed only takes space).
pub(crate) fn remove_unnamed(dir: &Path, buckets: &[SavedShare], ours: impl Fn(&str) -> bool) {
    let keep: Vec<&str> = buckets.iter().map(|b| b.name.as_str()).collect();
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            if ours(&name) && !keep.contains(&name.as_str()) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

/// Writes one bucket of a spilled level as the file `name` in `dir` (through a temporary file renamed into
/// place), with its checksum; `worker` is the number recorded in the manifest's entry.
pub(crate) fn put_bucket(
    dir: &Path,
    name: String,
    worker: u32,
    data: &dyn ShareData,
) -> Result<SavedShare, String> {
    let path = dir.join(&name);
    let mut sum = Checksum::default();
    write_atomic(&path, |w| {
        let mut sw = SumWriter {
            inner: w,
            sum: Checksum::default(),
        };
        data.write_to(&mut sw)?;
        sw.flush()?;
        sum = sw.sum;
        Ok(())
    })
    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(SavedShare {
        worker,
        classes: data.classes(),
        bytes: sum.len(),
        checksum: sum.finish(),
        name,
    })
}

/// Opens a bucket written by [`put_bucket`], as a reader that checks its length and checksum.
pub(crate) fn open_bucket(
    dir: &Path,
    saved: &SavedShare,
) -> Result<Box<dyn Read + 'static>, String> {
    let path = dir.join(&saved.name);
    let f = File::open(&path).map_err(|e| {
        format!(
            "cannot open {} (named by {SPILL_MANIFEST}): {e}",
            path.display()
        )
    })?;
    Ok(Box::new(CheckedReader::new(
        BufReader::with_capacity(1 << 20, f),
        saved.bytes,
        saved.checksum,
        path.display().to_string(),
    )))
}

/// Bytes available to an unprivileged user on the file system holding `dir`.
pub fn free_space(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut s = std::mem::MaybeUninit::<libc::statvfs>::zeroed();
    // SAFETY: `c` is a NUL-terminated path and `s` points to memory for one `statvfs`, which the call fills
    // when it returns 0 (and is not read otherwise).
    let r = unsafe { libc::statvfs(c.as_ptr(), s.as_mut_ptr()) };
    if r != 0 {
        return None;
    }
    // SAFETY: the call returned 0, so it filled the structure.
    let s = unsafe { s.assume_init() };
    #[allow(clippy::unnecessary_cast)] // `fsblkcnt_t` and `c_ulong` are narrower on 32-bit systems.
    Some((s.f_bavail as u64).saturating_mul(s.f_frsize as u64))
}
