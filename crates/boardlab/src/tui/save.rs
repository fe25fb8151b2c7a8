//! Saved games: a JSON envelope with a format marker and version, written atomically.
//!
//! ```json
//! { "format": "boardlab-save", "version": 1, "game": "peg", "state": { ... } }
//! ```
//!
//! The `state` belongs to the game: each game screen turns it back into a game by replaying it through its
//! engine library, so a hand-edited file with an illegal move is refused with a message, not trusted.
//! Files are written to a temporary file in the same directory, flushed, then renamed over the target, so a
//! crash or a full disk never leaves half a save behind.

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Game;

/// The value of the `format` field of every save file.
pub const FORMAT: &str = "boardlab-save";
/// The save-file format version this program writes and reads.
pub const VERSION: u32 = 1;
/// Save files larger than this are refused without being parsed (a save is a few kilobytes).
pub const MAX_BYTES: u64 = 4 << 20;

/// The envelope of a save file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version, [`VERSION`] when written by this program.
    pub version: u32,
    /// `mouse`, `peg` or `sudoku`.
    pub game: String,
    /// The game's own state.
    pub state: serde_json::Value,
}

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
            SaveError::TooLarge { path, bytes } => write!(
                f,
                "{} is not a boardlab save file: it is {bytes} bytes, far larger than any save",
                path.display()
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
                "{} was saved in format version {found}; this boardlab reads version {VERSION}",
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

impl SaveFile {
    /// A new envelope for `game` holding `state`.
    pub fn new(game: Game, state: serde_json::Value) -> SaveFile {
        SaveFile {
            format: FORMAT.to_string(),
            version: VERSION,
            game: game.key().to_string(),
            state,
        }
    }

    /// Parse a save file's text; `path` is only used in messages.
    pub fn parse(text: &str, path: &Path) -> Result<SaveFile, SaveError> {
        let foreign = |reason: String| SaveError::Foreign {
            path: path.to_path_buf(),
            reason,
        };
        if text.trim().is_empty() {
            return Err(foreign("the file is empty".into()));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            foreign(format!(
                "not valid JSON (line {}, column {}: {})",
                e.line(),
                e.column(),
                json_reason(&e)
            ))
        })?;
        let obj = value
            .as_object()
            .ok_or_else(|| foreign("the JSON is not an object".into()))?;
        match obj.get("format").and_then(|v| v.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(foreign(format!(
                    "its format is \"{other}\", not \"{FORMAT}\""
                )));
            }
            None => {
                return Err(foreign(format!(
                    "it has no \"format\": \"{FORMAT}\" marker"
                )));
            }
        }
        let version = obj
            .get("version")
            .and_then(|v| v.as_u64())
            .ok_or_else(|| foreign("it has no format version number".into()))?;
        if version != u64::from(VERSION) {
            return Err(SaveError::Version {
                path: path.to_path_buf(),
                found: u32::try_from(version).unwrap_or(u32::MAX),
            });
        }
        let game = obj
            .get("game")
            .and_then(|v| v.as_str())
            .ok_or_else(|| foreign("it does not say which game it holds".into()))?;
        if Game::from_key(game).is_none() {
            return Err(foreign(format!(
                "it holds an unknown game \"{game}\" (known: mouse, peg, sudoku)"
            )));
        }
        let state = obj
            .get("state")
            .cloned()
            .ok_or_else(|| foreign("it has no game state".into()))?;
        Ok(SaveFile {
            format: FORMAT.to_string(),
            version: VERSION,
            game: game.to_string(),
            state,
        })
    }

    /// The game this file holds (checked by [`SaveFile::parse`]).
    pub fn game(&self) -> Option<Game> {
        Game::from_key(&self.game)
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
        let bytes = fs::read(path).map_err(io)?;
        let text = String::from_utf8(bytes).map_err(|e| SaveError::Foreign {
            path: path.to_path_buf(),
            reason: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        })?;
        SaveFile::parse(&text, path)
    }

    /// Write this save to `path` atomically: a temporary file beside it, flushed to disk, then renamed over it.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let io = |e: std::io::Error| SaveError::Io {
            path: path.to_path_buf(),
            message: io_message(&e),
        };
        let text = serde_json::to_string_pretty(self).map_err(|e| SaveError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&dir).map_err(io)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "save.json".into());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let result = (|| {
            let mut file = fs::File::create(&tmp)?;
            file.write_all(text.as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            drop(file);
            fs::rename(&tmp, path)
        })();
        if let Err(e) = result {
            let _ = fs::remove_file(&tmp);
            return Err(io(e));
        }
        Ok(())
    }
}

/// A serde_json error without its " at line L column C" suffix (the caller says where).
fn json_reason(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
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

/// Pull a typed field out of a game's saved state, with a message naming the field when it is missing or of
/// the wrong type.
pub fn field<T: serde::de::DeserializeOwned>(
    state: &serde_json::Value,
    name: &str,
) -> Result<T, String> {
    let v = state
        .get(name)
        .ok_or_else(|| format!("the field \"{name}\" is missing"))?;
    serde_json::from_value(v.clone()).map_err(|e| format!("the field \"{name}\" is wrong: {e}"))
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
            let err = SaveFile::parse(text, &p())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(want), "{text:?}: {err:?} lacks {want:?}");
            assert!(err.starts_with("x.json"), "{err}");
        }
        let err = SaveFile::parse(
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
        let save = SaveFile::new(Game::Peg, serde_json::json!({"moves": ["d2-d4"]}));
        save.write(&path).unwrap();
        assert_eq!(SaveFile::read(&path).unwrap(), save);
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("peg.json")]);
        // Overwriting replaces the whole file.
        let save2 = SaveFile::new(Game::Peg, serde_json::json!({"moves": []}));
        save2.write(&path).unwrap();
        assert_eq!(SaveFile::read(&path).unwrap(), save2);
    }

    #[test]
    fn unreadable_and_binary_files_give_messages() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.json");
        let e = SaveFile::read(&missing).unwrap_err().to_string();
        assert!(e.ends_with("nope.json: no such file"), "{e}");
        let bin = dir.path().join("bin.json");
        fs::write(&bin, [0xff, 0xfe, 0x00]).unwrap();
        let e = SaveFile::read(&bin).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
        let e = SaveFile::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
    }

    #[test]
    fn fields_name_what_is_wrong() {
        let state = serde_json::json!({"level": "high"});
        assert_eq!(
            field::<u32>(&state, "moves").unwrap_err(),
            "the field \"moves\" is missing"
        );
        let e = field::<u32>(&state, "level").unwrap_err();
        assert!(e.starts_with("the field \"level\" is wrong"), "{e}");
    }
}
