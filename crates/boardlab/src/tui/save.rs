//! Save files on disk: read with a size limit and written atomically. The format itself (the envelope, its
//! version and its checks) is the `play` crate's ([`play::save`]); this module adds the file and its name to
//! every message.
//!
//! Files are written to a temporary file in the same directory, flushed, then renamed over the target, so a
//! crash or a full disk never leaves half a save behind.

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub use play::save::{FORMAT, OLDEST_VERSION, SaveFile, VERSION};

/// Save files larger than this are refused without being parsed (a save is a few kilobytes).
pub const MAX_BYTES: u64 = 4 << 20;

/// Why a save file could not be read or written. Every variant names the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// The file is far larger than any save file.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        bytes: u64,
    },
    /// The file is not JSON, or not a boardlab save file.
    Foreign {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The file was written by a newer (or unknown) format version.
    Version {
        /// The file.
        path: PathBuf,
        /// The version it claims.
        found: u32,
    },
    /// The file is a boardlab save, but its game state is damaged or describes something impossible.
    Damaged {
        /// The file.
        path: PathBuf,
        /// The game it holds.
        game: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            SaveError::TooLarge { path, bytes } if *bytes > MAX_BYTES + 1 => write!(
                f,
                "{} is not a boardlab save file: it is {bytes} bytes, far larger than any save",
                path.display()
            ),
            SaveError::TooLarge { path, .. } => write!(
                f,
                "{} is not a boardlab save file: it holds more than {}, far larger than any save",
                path.display(),
                crate::files::size_text(MAX_BYTES)
            ),
            SaveError::Foreign { path, reason } => {
                write!(
                    f,
                    "{} is not a boardlab save file: {reason}",
                    path.display()
                )
            }
            SaveError::Version { path, found } => write!(
                f,
                "{} was saved in format version {found}; this boardlab reads versions {OLDEST_VERSION} to {VERSION}",
                path.display()
            ),
            SaveError::Damaged { path, game, reason } => {
                write!(
                    f,
                    "{}: the saved {game} game is damaged: {reason}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for SaveError {}

impl SaveError {
    /// The error of the save format `e`, for the file `path`.
    pub fn of(path: &Path, e: play::SaveError) -> SaveError {
        let path = path.to_path_buf();
        match e {
            play::SaveError::Foreign(reason) => SaveError::Foreign { path, reason },
            play::SaveError::Version(found) => SaveError::Version { path, found },
            play::SaveError::Damaged { game, reason } => SaveError::Damaged {
                path,
                game: game.name().to_string(),
                reason,
            },
        }
    }
}

/// Parse a save file's text; `path` is only used in messages.
pub fn parse(text: &str, path: &Path) -> Result<SaveFile, SaveError> {
    SaveFile::parse(text).map_err(|e| SaveError::of(path, e))
}

/// Read and check a save file.
pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
    let io = |e: std::io::Error| SaveError::Io {
        path: path.to_path_buf(),
        message: io_message(&e),
    };
    let meta = fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(SaveError::Io {
            path: path.to_path_buf(),
            message: "is a directory, not a save file".into(),
        });
    }
    if meta.len() > MAX_BYTES {
        return Err(SaveError::TooLarge {
            path: path.to_path_buf(),
            bytes: meta.len(),
        });
    }
    // Capped: a device such as /dev/zero has no length to check beforehand, and a FIFO must not hang.
    let file = crate::files::open(path).map_err(|e| SaveError::Io {
        path: path.to_path_buf(),
        message: e.root_cause().to_string(),
    })?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(SaveError::TooLarge {
            path: path.to_path_buf(),
            bytes: bytes.len() as u64,
        });
    }
    let text = String::from_utf8(bytes).map_err(|e| SaveError::Foreign {
        path: path.to_path_buf(),
        reason: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })?;
    // A byte-order mark some editors add is not part of the JSON.
    parse(text.strip_prefix('\u{feff}').unwrap_or(&text), path)
}

/// Write `save` to `path` atomically: a temporary file beside it, flushed to disk, then renamed over it.
pub fn write(save: &SaveFile, path: &Path) -> Result<(), SaveError> {
    let io = |e: std::io::Error| SaveError::Io {
        path: path.to_path_buf(),
        message: io_message(&e),
    };
    let text = save.to_text();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(io)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save.json".into());
    // A temporary name of our own, created only if it does not exist (O_EXCL): never through a link someone
    // left there, never over another writer's file.
    let (tmp, mut file) = {
        let mut attempt = 0u32;
        loop {
            let tmp = dir.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(file) => break (tmp, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                }
                Err(e) => return Err(io(e)),
            }
        }
    };
    let result = (|| {
        file.write_all(text.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        // The rename is only durable once the directory is on disk too.
        #[cfg(unix)]
        fs::File::open(&dir)?.sync_all()?;
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

/// An I/O error as a short lower-case phrase.
fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Where saves go when no file was named: `$XDG_DATA_HOME/boardlab`, else `~/.local/share/boardlab`, else the
/// current directory.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("boardlab");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(h)
            .join(".local")
            .join("share")
            .join("boardlab");
    }
    PathBuf::from(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> PathBuf {
        PathBuf::from("x.json")
    }

    #[test]
    fn foreign_files_are_refused_with_a_reason() {
        let cases = [
            ("", "empty"),
            ("{not json", "not valid JSON (line 1, column 2"),
            ("[1,2]", "not an object"),
            ("{\"a\":1}", "no \"format\""),
            ("{\"format\":\"other\"}", "its format is \"other\""),
            ("{\"format\":\"boardlab-save\"}", "no format version"),
            (
                "{\"format\":\"boardlab-save\",\"version\":1}",
                "does not say which game",
            ),
            (
                "{\"format\":\"boardlab-save\",\"version\":1,\"game\":\"chess\",\"state\":{}}",
                "unknown game \"chess\"",
            ),
            (
                "{\"format\":\"boardlab-save\",\"version\":1,\"game\":\"peg\"}",
                "no game state",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text, &p())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(want), "{text:?}: {err:?} lacks {want:?}");
            assert!(err.starts_with("x.json"), "{err}");
        }
        let err = parse(
            "{\"format\":\"boardlab-save\",\"version\":9,\"game\":\"peg\",\"state\":{}}",
            &p(),
        );
        assert_eq!(
            err,
            Err(SaveError::Version {
                path: p(),
                found: 9
            })
        );
    }

    #[test]
    fn write_then_read_round_trips_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("peg.json");
        let save = SaveFile::new(play::GameKind::Peg, serde_json::json!({"moves": ["d2-d4"]}));
        write(&save, &path).unwrap();
        assert_eq!(read(&path).unwrap(), save);
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("peg.json")]);
        // Overwriting replaces the whole file.
        let save2 = SaveFile::new(play::GameKind::Peg, serde_json::json!({"moves": []}));
        write(&save2, &path).unwrap();
        assert_eq!(read(&path).unwrap(), save2);
    }

    #[test]
    fn unreadable_and_binary_files_give_messages() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.json");
        let e = read(&missing).unwrap_err().to_string();
        assert!(e.ends_with("nope.json: no such file"), "{e}");
        let bin = dir.path().join("bin.json");
        fs::write(&bin, [0xff, 0xfe, 0x00]).unwrap();
        let e = read(&bin).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
        let e = read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
    }
}
