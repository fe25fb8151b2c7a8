//! Checkpoints in a directory: after each level, every worker writes its share of the next level
//! (`share-<pegs>-w<worker>.bin`, to a temporary name first, then renamed), and process 0 writes the manifest
//! last (`manifest.json`, the same way): the problem, the build, the cluster's shape, the state of the run
//! (the table rows so far) and, per share, its size and checksum. A manifest names only shares that were
//! completely written, so a run killed at any moment leaves the last complete level to resume from.
//!
//! Nothing in the directory is deleted, unless the run is asked to (`prune`): then, once a level's manifest is
//! written, the shares of the level before it (the ones its manifest named) are removed.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use peg::shard::{Checkpoint, SavedShare, ShareData, State};
use peg::{FinishableLevel, Level};
use serde::{Deserialize, Serialize};

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";

/// The format name and version written in manifests. Version 2 adds the finish hole and, with one, the
/// positions that can still finish; a version 1 manifest (neither) is still read.
const FORMAT: &str = "boardlab-peg-checkpoint";
const VERSION: u32 = 2;
/// The oldest version read.
const OLDEST: u32 = 1;

/// A 64-bit checksum of a byte stream, computed eight bytes at a time (a multiply-xorshift of each word into
/// the state; the length is mixed in at the end).
#[derive(Debug, Clone)]
pub struct Checksum {
    state: u64,
    len: u64,
    tail: [u8; 8],
    ntail: usize,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum {
            state: 0x243F_6A88_85A3_08D3,
            len: 0,
            tail: [0; 8],
            ntail: 0,
        }
    }
}

impl Checksum {
    #[inline(always)]
    fn word(&mut self, w: u64) {
        let x = (self.state ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.state = x ^ (x >> 29);
    }

    /// Add bytes.
    pub fn update(&mut self, mut b: &[u8]) {
        self.len += b.len() as u64;
        if self.ntail > 0 {
            let k = (8 - self.ntail).min(b.len());
            self.tail[self.ntail..self.ntail + k].copy_from_slice(&b[..k]);
            self.ntail += k;
            b = &b[k..];
            if self.ntail < 8 {
                return;
            }
            let w = u64::from_le_bytes(self.tail);
            self.word(w);
            self.ntail = 0;
        }
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            self.word(u64::from_le_bytes(a));
        }
        let rest = chunks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.ntail = rest.len();
    }

    /// Bytes added.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The checksum of everything added.
    pub fn finish(&self) -> u64 {
        let mut c = self.clone();
        if c.ntail > 0 {
            let mut a = [0u8; 8];
            a[..c.ntail].copy_from_slice(&c.tail[..c.ntail]);
            c.word(u64::from_le_bytes(a));
        }
        c.word(c.len);
        c.word(0x5851_F42D_4C95_7F2D);
        c.state
    }
}

/// A writer that checksums and counts what goes through it.
pub(crate) struct SumWriter<W> {
    pub(crate) inner: W,
    pub(crate) sum: Checksum,
}

impl<W: Write> Write for SumWriter<W> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(b)?;
        self.sum.update(&b[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that checksums what it reads and, at the end of the stream, fails unless the size and checksum
/// are the expected ones.
pub struct CheckedReader<R> {
    inner: R,
    sum: Checksum,
    expect: (u64, u64),
    name: String,
}

impl<R: Read> CheckedReader<R> {
    /// Read `inner`, expecting `bytes` bytes with checksum `checksum` (`name` names it in errors).
    pub fn new(inner: R, bytes: u64, checksum: u64, name: String) -> Self {
        CheckedReader {
            inner,
            sum: Checksum::default(),
            expect: (bytes, checksum),
            name,
        }
    }
}

impl<R: Read> Read for CheckedReader<R> {
    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(b)?;
        self.sum.update(&b[..n]);
        if self.sum.len > self.expect.0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} is longer than the manifest says ({} bytes)",
                    self.name, self.expect.0
                ),
            ));
        }
        if n == 0 || self.sum.len == self.expect.0 {
            // At the end: the whole file must be there, unchanged.
            if self.sum.len != self.expect.0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{} has {} bytes, the manifest says {}",
                        self.name, self.sum.len, self.expect.0
                    ),
                ));
            }
            if self.sum.finish() != self.expect.1 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{} is damaged: its checksum is {:016x}, the manifest says {:016x}",
                        self.name,
                        self.sum.finish(),
                        self.expect.1
                    ),
                ));
            }
        }
        Ok(n)
    }
}

/// A table row as the manifest stores it (path counts as decimal strings: they pass 2^64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Row {
    pegs: u32,
    positions: u64,
    classes: u64,
    paths_full: String,
    paths_normal: String,
    dead_ends: u64,
    dead_end_classes: u64,
    games_full: String,
    games_normal: String,
}

/// A level of the positions that can still finish, as the manifest stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct FinishableRow {
    pegs: u32,
    positions: u64,
    classes: u64,
}

/// The state of a run as the manifest stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StateJson {
    pegs: u32,
    wide: bool,
    rows: Vec<Row>,
    solutions_full: String,
    solutions_normal: String,
    sizes: Vec<u64>,
    /// With a finish hole: the positions that can still finish, level by level (absent otherwise, and in
    /// the manifests of version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    finishable: Option<Vec<FinishableRow>>,
}

impl StateJson {
    /// A state as the manifest stores it.
    pub(crate) fn of(state: &State) -> StateJson {
        let rows = state
            .levels
            .iter()
            .map(|l| Row {
                pegs: l.pegs,
                positions: l.positions,
                classes: l.classes,
                paths_full: l.paths_full.to_string(),
                paths_normal: l.paths_normal.to_string(),
                dead_ends: l.dead_ends,
                dead_end_classes: l.dead_end_classes,
                games_full: l.games_full.to_string(),
                games_normal: l.games_normal.to_string(),
            })
            .collect();
        StateJson {
            pegs: state.pegs,
            wide: state.wide,
            rows,
            solutions_full: state.solutions_full.to_string(),
            solutions_normal: state.solutions_normal.to_string(),
            sizes: state.sizes.clone(),
            finishable: state.finishable.as_ref().map(|f| {
                f.iter()
                    .map(|r| FinishableRow {
                        pegs: r.pegs,
                        positions: r.positions,
                        classes: r.classes,
                    })
                    .collect()
            }),
        }
    }

    /// The state it stores.
    pub(crate) fn state(&self) -> Result<State, String> {
        let s = self;
        let mut levels = Vec::with_capacity(s.rows.len());
        for r in &s.rows {
            levels.push(Level {
                pegs: r.pegs,
                positions: r.positions,
                classes: r.classes,
                paths_full: big(&r.paths_full, "path count")?,
                paths_normal: big(&r.paths_normal, "path count")?,
                dead_ends: r.dead_ends,
                dead_end_classes: r.dead_end_classes,
                games_full: big(&r.games_full, "game count")?,
                games_normal: big(&r.games_normal, "game count")?,
                finishable: None,
                finishable_classes: None,
            });
        }
        let finishable = match &s.finishable {
            None => None,
            Some(rows) => {
                let mut seen = Vec::with_capacity(rows.len());
                for r in rows {
                    if seen.contains(&r.pegs) || r.classes > r.positions {
                        return Err(format!(
                            "the manifest's count of the positions that can still finish with {} pegs is \
                             damaged ({} positions, {} classes{})",
                            r.pegs,
                            r.positions,
                            r.classes,
                            if seen.contains(&r.pegs) {
                                ", twice"
                            } else {
                                ""
                            }
                        ));
                    }
                    seen.push(r.pegs);
                }
                Some(
                    rows.iter()
                        .map(|r| FinishableLevel {
                            pegs: r.pegs,
                            positions: r.positions,
                            classes: r.classes,
                        })
                        .collect(),
                )
            }
        };
        Ok(State {
            pegs: s.pegs,
            wide: s.wide,
            levels,
            solutions_full: big(&s.solutions_full, "solution count")?,
            solutions_normal: big(&s.solutions_normal, "solution count")?,
            sizes: s.sizes.clone(),
            finishable,
        })
    }
}

/// A share as the manifest names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareEntry {
    /// The worker.
    pub worker: u32,
    /// Its file, in the directory.
    pub file: String,
    /// Classes.
    pub classes: u64,
    /// Bytes.
    pub bytes: u64,
    /// Checksum ([`Checksum`]), in hexadecimal.
    pub checksum: String,
}

/// The manifest of a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The format's name (`boardlab-peg-checkpoint`).
    pub format: String,
    /// The format's version.
    pub version: u32,
    /// The problem, in words (as the processes compare it).
    pub problem: String,
    /// The finish: a hole's name, or `anywhere` (absent in version 1, where the problem names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<String>,
    /// The hash of the binary that wrote it.
    pub binary: String,
    /// Processes of the run.
    pub processes: usize,
    /// Workers per process.
    pub workers: usize,
    /// The state (the next level to expand, the rows so far).
    state: StateJson,
    /// The shares of the next level, by worker.
    pub shares: Vec<ShareEntry>,
}

fn big(s: &str, what: &str) -> Result<u128, String> {
    s.parse::<u128>()
        .map_err(|_| format!("the manifest's {what} '{s}' is not a number"))
}

impl Manifest {
    /// The manifest of a run (`problem` in words with its `finish`, `binary` its hash) whose state is
    /// `state`.
    pub fn new(
        (problem, finish): (&str, &str),
        binary: &str,
        processes: usize,
        workers: usize,
        state: &State,
        shares: &[SavedShare],
    ) -> Manifest {
        Manifest {
            format: FORMAT.to_string(),
            version: VERSION,
            problem: problem.to_string(),
            finish: Some(finish.to_string()),
            binary: binary.to_string(),
            processes,
            workers,
            state: StateJson::of(state),
            shares: shares
                .iter()
                .map(|s| ShareEntry {
                    worker: s.worker,
                    file: s.name.clone(),
                    classes: s.classes,
                    bytes: s.bytes,
                    checksum: format!("{:016x}", s.checksum),
                })
                .collect(),
        }
    }

    /// The state of the run.
    ///
    /// # Errors
    /// A count in the manifest is not a number.
    pub fn state(&self) -> Result<State, String> {
        self.state.state()
    }

    /// The pegs of the level the checkpoint holds.
    pub fn pegs(&self) -> u32 {
        self.state.pegs
    }

    /// Levels done.
    pub fn levels_done(&self) -> usize {
        self.state.rows.len()
    }

    /// The share of worker `w`: (file, bytes, checksum).
    ///
    /// # Errors
    /// The manifest has no share for it, or a bad checksum.
    pub fn share(&self, w: usize) -> Result<(String, u64, u64), String> {
        let e = self
            .shares
            .iter()
            .find(|s| s.worker as usize == w)
            .ok_or_else(|| format!("the manifest has no share for worker {w}"))?;
        let sum = u64::from_str_radix(&e.checksum, 16).map_err(|_| {
            format!(
                "the manifest's checksum '{}' is not hexadecimal",
                e.checksum
            )
        })?;
        if e.file.contains('/') || e.file.contains('\\') || e.file.starts_with('.') {
            return Err(format!(
                "the manifest names a share file '{}' outside its directory",
                e.file
            ));
        }
        Ok((e.file.clone(), e.bytes, sum))
    }

    /// Check that the manifest is of this problem (`problem` in words, with its `finish`: a hole's name or
    /// `anywhere`), build and shape; read it as JSON text first with [`Manifest::parse`].
    ///
    /// # Errors
    /// A message saying what differs (the two finishes, when only they differ).
    pub fn check(
        &self,
        dir: &Path,
        (problem, finish): (&str, &str),
        binary: &str,
        processes: usize,
        workers: usize,
    ) -> Result<(), String> {
        let d = dir.display();
        if let Some(theirs) = &self.finish
            && theirs != finish
            && self.problem.strip_suffix(&format!(", finish {theirs}"))
                == problem.strip_suffix(&format!(", finish {finish}"))
        {
            let words = |f: &str| {
                if f == "anywhere" {
                    "anywhere".to_string()
                } else {
                    format!("on {f}")
                }
            };
            return Err(format!(
                "{d} holds a checkpoint of this count finishing {}, but this run finishes {}: resume it with \
                 {}, or use another directory",
                words(theirs),
                words(finish),
                if theirs == "anywhere" {
                    "no --finish".to_string()
                } else {
                    format!("--finish {theirs}")
                }
            ));
        }
        if self.problem != problem {
            return Err(format!(
                "{d} holds a checkpoint of another problem ({}; this run: {problem}): use another directory",
                self.problem
            ));
        }
        if self.binary != binary {
            return Err(format!(
                "{d} holds a checkpoint written by another build of boardlab (binary {}; this one: {binary}): \
                 resume with the binary that wrote it, or use another directory",
                self.binary
            ));
        }
        if self.processes != processes || self.workers != workers {
            return Err(format!(
                "{d} holds a checkpoint of a run of {} processes of {} workers; this run has {processes} of \
                 {workers}: start it with the same number of processes and workers",
                self.processes, self.workers
            ));
        }
        if self.shares.len() != processes * workers {
            return Err(format!(
                "{d}: the manifest names {} shares for {} workers",
                self.shares.len(),
                processes * workers
            ));
        }
        self.state().map(|_| ())
    }

    /// Read a manifest from its JSON text.
    ///
    /// # Errors
    /// It is not a manifest of this format and version.
    pub fn parse(text: &str, dir: &Path) -> Result<Manifest, String> {
        let d = dir.display();
        let m: Manifest = serde_json::from_str(text).map_err(|e| {
            format!("{d}/{MANIFEST} is damaged or not a boardlab checkpoint manifest ({e})")
        })?;
        if m.format != FORMAT || !(OLDEST..=VERSION).contains(&m.version) {
            return Err(format!(
                "{d}/{MANIFEST} is a checkpoint of another format ({} version {})",
                m.format, m.version
            ));
        }
        Ok(m)
    }
}

/// Read the manifest in `dir`, if there is one.
///
/// # Errors
/// It cannot be read, or is not a manifest.
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, String> {
    let path = dir.join(MANIFEST);
    match fs::read_to_string(&path) {
        Ok(text) => Manifest::parse(&text, dir).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Write `bytes` to `path` through a temporary file in the same directory, synced, then renamed over it.
pub(crate) fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let f = File::create(&tmp)?;
        let mut w = BufWriter::with_capacity(1 << 20, f);
        write(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The checkpoint of one worker: its shares go to `dir`; worker 0 also writes the manifest.
pub struct FileCheckpoint {
    /// The directory.
    pub dir: PathBuf,
    /// The worker.
    pub worker: usize,
    /// The problem in words, the binary's hash, the shape: for the manifest.
    pub problem: String,
    /// The finish: a hole's name, or `anywhere`.
    pub finish: String,
    /// The binary's hash.
    pub binary: String,
    /// Processes.
    pub processes: usize,
    /// Workers per process.
    pub workers: usize,
    /// Remove the shares of the level before once a manifest is written.
    pub prune: bool,
    /// The shares the last manifest named (for pruning).
    pub previous: Vec<String>,
}

impl FileCheckpoint {
    /// The file of worker `w`'s share of the level with `pegs` pegs.
    pub fn share_file(pegs: u32, w: usize) -> String {
        format!("share-{pegs}-w{w}.bin")
    }
}

impl Checkpoint for FileCheckpoint {
    fn save(&mut self, pegs: u32, share: &dyn ShareData) -> Result<SavedShare, String> {
        let name = FileCheckpoint::share_file(pegs, self.worker);
        let path = self.dir.join(&name);
        let mut sum = Checksum::default();
        write_atomic(&path, |w| {
            let mut sw = SumWriter {
                inner: w,
                sum: Checksum::default(),
            };
            share.write_to(&mut sw)?;
            sw.flush()?;
            sum = sw.sum;
            Ok(())
        })
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(SavedShare {
            worker: self.worker as u32,
            classes: share.classes(),
            bytes: sum.len,
            checksum: sum.finish(),
            name,
        })
    }

    fn commit(&mut self, state: &State, shares: &[SavedShare]) -> Result<(), String> {
        let m = Manifest::new(
            (&self.problem, &self.finish),
            &self.binary,
            self.processes,
            self.workers,
            state,
            shares,
        );
        let text = serde_json::to_string_pretty(&m)
            .map_err(|e| format!("cannot encode the manifest: {e}"))?;
        let path = self.dir.join(MANIFEST);
        write_atomic(&path, |w| w.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let names: Vec<String> = shares.iter().map(|s| s.name.clone()).collect();
        if self.prune {
            for old in &self.previous {
                if !names.contains(old) {
                    let _ = fs::remove_file(self.dir.join(old));
                }
            }
        }
        self.previous = names;
        Ok(())
    }
}

/// Open worker `w`'s share of the checkpoint `m` in `dir`, checked against the manifest as it is read.
///
/// # Errors
/// The manifest has no (valid) entry for it, or its file cannot be opened.
pub fn open_share(
    dir: &Path,
    m: &Manifest,
    w: usize,
) -> Result<CheckedReader<BufReader<File>>, String> {
    let (file, bytes, sum) = m.share(w)?;
    let path = dir.join(&file);
    let f = File::open(&path).map_err(|e| {
        format!(
            "cannot open {} (named by the checkpoint's manifest): {e}",
            path.display()
        )
    })?;
    Ok(CheckedReader::new(
        BufReader::with_capacity(1 << 20, f),
        bytes,
        sum,
        path.display().to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_is_independent_of_chunking() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let mut whole = Checksum::default();
        whole.update(&data);
        for step in [1usize, 3, 7, 8, 9, 64, 999] {
            let mut c = Checksum::default();
            for part in data.chunks(step) {
                c.update(part);
            }
            assert_eq!(c.finish(), whole.finish(), "step {step}");
        }
        let mut other = data.clone();
        other[500] ^= 1;
        let mut c = Checksum::default();
        c.update(&other);
        assert_ne!(c.finish(), whole.finish());
        let mut shorter = Checksum::default();
        shorter.update(&data[..999]);
        assert_ne!(shorter.finish(), whole.finish());
    }

    /// A state of a run to the finish hole d4, after two levels.
    fn state(finishable: Option<Vec<FinishableLevel>>) -> State {
        State {
            pegs: 30,
            wide: false,
            levels: Vec::new(),
            solutions_full: 0,
            solutions_normal: 0,
            sizes: vec![1, 1, 2],
            finishable,
        }
    }

    const PROBLEM_D4: &str =
        "square lattice, 33 holes, start [ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo], finish d4";

    #[test]
    fn manifests_keep_the_finish_and_its_rows() {
        let dir = Path::new("/ck");
        let rows = vec![
            FinishableLevel {
                pegs: 32,
                positions: 1,
                classes: 1,
            },
            FinishableLevel {
                pegs: 31,
                positions: 4,
                classes: 1,
            },
        ];
        let shares = [SavedShare {
            worker: 0,
            classes: 2,
            bytes: 10,
            checksum: 7,
            name: "share-30-w0.bin".into(),
        }];
        let m = Manifest::new(
            (PROBLEM_D4, "d4"),
            "b",
            1,
            1,
            &state(Some(rows.clone())),
            &shares,
        );
        let text = serde_json::to_string_pretty(&m).unwrap();
        let back = Manifest::parse(&text, dir).unwrap();
        assert_eq!(back.state().unwrap().finishable, Some(rows));
        assert_eq!(back.check(dir, (PROBLEM_D4, "d4"), "b", 1, 1), Ok(()));
        // Another finish, or none: one line naming both.
        let e1 = PROBLEM_D4.replace("finish d4", "finish d1");
        let e = back.check(dir, (&e1, "d1"), "b", 1, 1).unwrap_err();
        assert_eq!(
            e,
            "/ck holds a checkpoint of this count finishing on d4, but this run finishes on d1: resume it \
             with --finish d4, or use another directory"
        );
        let any = PROBLEM_D4.replace("finish d4", "finish anywhere");
        let e = back.check(dir, (&any, "anywhere"), "b", 1, 1).unwrap_err();
        assert!(
            e.contains("finishing on d4, but this run finishes anywhere"),
            "{e}"
        );
        // A checkpoint of no finish hole, resumed with one.
        let m = Manifest::new((&any, "anywhere"), "b", 1, 1, &state(None), &shares);
        let e = m.check(dir, (PROBLEM_D4, "d4"), "b", 1, 1).unwrap_err();
        assert!(
            e.contains(
                "finishing anywhere, but this run finishes on d4: resume it with no --finish"
            ),
            "{e}"
        );
        // Another board and finish: the problems, both named.
        let e = m
            .check(dir, ("hexagonal lattice, finish d4", "d4"), "b", 1, 1)
            .unwrap_err();
        assert!(e.contains("another problem"), "{e}");
        assert!(
            e.contains("finish anywhere") && e.contains("finish d4"),
            "{e}"
        );
        // Damaged rows are refused.
        let bad = text.replace("\"classes\": 1\n", "\"classes\": 9\n");
        assert_ne!(bad, text);
        let e = Manifest::parse(&bad, dir).unwrap().state().unwrap_err();
        assert!(
            e.contains("can still finish with 32 pegs is damaged"),
            "{e}"
        );
    }

    /// A manifest of version 1 (written before the finish was recorded) is still read: no finish, no rows.
    #[test]
    fn version_1_manifests_still_load() {
        let dir = Path::new("/ck");
        let any = PROBLEM_D4.replace("finish d4", "finish anywhere");
        let text = format!(
            r#"{{"format":"boardlab-peg-checkpoint","version":1,"problem":"{any}","binary":"b","processes":1,
            "workers":1,"state":{{"pegs":30,"wide":false,"rows":[],"solutions_full":"0","solutions_normal":"0",
            "sizes":[1,1,2]}},"shares":[{{"worker":0,"file":"share-30-w0.bin","classes":2,"bytes":10,
            "checksum":"0000000000000007"}}]}}"#
        );
        let m = Manifest::parse(&text, dir).unwrap();
        assert_eq!(m.finish, None);
        assert_eq!(m.state().unwrap(), state(None));
        assert_eq!(m.check(dir, (&any, "anywhere"), "b", 1, 1), Ok(()));
        // With another finish now: refused as another problem, both named.
        let e = m.check(dir, (PROBLEM_D4, "d4"), "b", 1, 1).unwrap_err();
        assert!(
            e.contains("another problem") && e.contains("finish d4"),
            "{e}"
        );
        let e = Manifest::parse(&text.replace("\"version\":1", "\"version\":3"), dir).unwrap_err();
        assert!(
            e.contains("another format (boardlab-peg-checkpoint version 3)"),
            "{e}"
        );
    }

    #[test]
    fn checked_reader_refuses_changes() {
        let data = b"some share bytes, long enough".to_vec();
        let mut c = Checksum::default();
        c.update(&data);
        let read = |d: &[u8], n: u64, s: u64| {
            let mut r = CheckedReader::new(d, n, s, "f".into());
            let mut out = Vec::new();
            r.read_to_end(&mut out).map(|_| out)
        };
        assert_eq!(
            read(&data, data.len() as u64, c.finish()).ok(),
            Some(data.clone())
        );
        assert!(read(&data, data.len() as u64, c.finish() ^ 1).is_err());
        assert!(read(&data[..10], data.len() as u64, c.finish()).is_err());
        assert!(read(&data, 10, c.finish()).is_err());
    }
}
