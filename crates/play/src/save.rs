//! The save-file format: a JSON envelope with a format marker and version around one game's state.
//!
//! ```json
//! { "format": "boardlab-save", "version": 4, "game": "peg", "state": { ... } }
//! ```
//!
//! Versions: 1 was the first; 2 added the sudoku's centre pencil marks (`board.centre`, absent when there are
//! none) and whether a hint is shown (`hint`); 3 added the Mouse & Cats board size (`options.size`, absent on
//! 8x8, and the far-row rule named `far-row` on other boards); 4 writes a sudoku's undo and redo lists as the
//! cells each step changed (older saves list whole grids, read as steps), at most a bounded number of them. This
//! program writes version 4 and reads all four: an older file is a newer one without those fields. An older program refuses a newer file with a
//! message rather than drop what it does not know (a 10x10 game read as an 8x8 one).
//!
//! The `state` belongs to the game: each session turns it back into a game by replaying it through its engine
//! library, so a hand-edited file with an illegal move is refused with a message, not trusted. The terminal
//! writes these files and a web page keeps the same value, so a game moves between them both ways. Reading and
//! writing files is the front end's business; this module parses and checks text and values.

use serde::{Deserialize, Serialize};

use crate::GameKind;

/// The value of the `format` field of every save file.
pub const FORMAT: &str = "boardlab-save";
/// The save-file format version this program writes.
pub const VERSION: u32 = 4;
/// The oldest save-file format version this program reads.
pub const OLDEST_VERSION: u32 = 1;

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

/// Why a save could not be used. The messages do not name the file: a front end that read one adds its name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// The text is not JSON, or not a boardlab save.
    #[error("not a boardlab save file: {0}")]
    Foreign(String),
    /// The save was written in a newer (or unknown) format version.
    #[error(
        "saved in format version {0}; this boardlab reads versions {OLDEST_VERSION} to {VERSION}"
    )]
    Version(u32),
    /// The save is a boardlab save, but its game state is damaged or describes something impossible.
    #[error("the saved {} game is damaged: {reason}", .game.name())]
    Damaged {
        /// The game it holds.
        game: GameKind,
        /// What is wrong with it.
        reason: String,
    },
}

impl SaveFile {
    /// A new envelope for `game` holding `state`.
    pub fn new(game: GameKind, state: serde_json::Value) -> SaveFile {
        SaveFile {
            format: FORMAT.to_string(),
            version: VERSION,
            game: game.key().to_string(),
            state,
        }
    }

    /// Parse a save file's text.
    ///
    /// # Errors
    /// [`SaveError::Foreign`] for empty text, text that is not JSON (with its line and column) or not a
    /// boardlab save; [`SaveError::Version`] for another format version.
    pub fn parse(text: &str) -> Result<SaveFile, SaveError> {
        if text.trim().is_empty() {
            return Err(SaveError::Foreign("the file is empty".into()));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            SaveError::Foreign(format!(
                "not valid JSON (line {}, column {}: {})",
                e.line(),
                e.column(),
                json_reason(&e)
            ))
        })?;
        SaveFile::from_value(value)
    }

    /// Check a save held as a JSON value (as a web page keeps it).
    ///
    /// # Errors
    /// As [`SaveFile::parse`].
    pub fn from_value(value: serde_json::Value) -> Result<SaveFile, SaveError> {
        let foreign = |reason: String| SaveError::Foreign(reason);
        let serde_json::Value::Object(mut obj) = value else {
            return Err(foreign("the JSON is not an object".into()));
        };
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
        let version = match obj.get("version") {
            None => return Err(foreign("it has no format version number".into())),
            Some(v) => v.as_u64().ok_or_else(|| {
                let shown: String = v.to_string().chars().take(40).collect();
                foreign(format!(
                    "its format version {shown} is not a version number (this boardlab reads versions {OLDEST_VERSION} to {VERSION})"
                ))
            })?,
        };
        if !(u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&version) {
            return Err(SaveError::Version(
                u32::try_from(version).unwrap_or(u32::MAX),
            ));
        }
        let game = obj
            .get("game")
            .and_then(|v| v.as_str())
            .ok_or_else(|| foreign("it does not say which game it holds".into()))?
            .to_string();
        if GameKind::from_key(&game).is_none() {
            return Err(foreign(format!(
                "it holds an unknown game \"{game}\" (known: mouse, peg, sudoku)"
            )));
        }
        let state = obj
            .remove("state")
            .ok_or_else(|| foreign("it has no game state".into()))?;
        Ok(SaveFile {
            format: FORMAT.to_string(),
            version: VERSION,
            game,
            state,
        })
    }

    /// The game this save holds.
    ///
    /// # Errors
    /// [`SaveError::Foreign`] for an unknown game (only possible for an envelope not made by
    /// [`SaveFile::parse`], [`SaveFile::from_value`] or [`SaveFile::new`]).
    pub fn kind(&self) -> Result<GameKind, SaveError> {
        GameKind::from_key(&self.game).ok_or_else(|| {
            SaveError::Foreign(format!(
                "it holds an unknown game \"{}\" (known: mouse, peg, sudoku)",
                self.game
            ))
        })
    }

    /// The save as a JSON value.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({
            "format": self.format,
            "version": self.version,
            "game": self.game,
            "state": self.state,
        })
    }

    /// The save as the text of a file (compact JSON on one line, no final newline: a long game's file stays a
    /// third of its pretty-printed size).
    pub fn to_text(&self) -> String {
        // Serializing a tree of JSON values cannot fail; the fallback is never taken.
        serde_json::to_string(self).unwrap_or_default()
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

/// Pull a typed field out of a game's saved state, with a message naming the field when it is missing or of
/// the wrong type.
///
/// # Errors
/// "the field "NAME" is missing" or "the field "NAME" is wrong: WHY".
pub fn field<T: serde::de::DeserializeOwned>(
    state: &serde_json::Value,
    name: &str,
) -> Result<T, String> {
    let v = state
        .get(name)
        .ok_or_else(|| format!("the field \"{name}\" is missing"))?;
    serde_json::from_value(v.clone()).map_err(|e| format!("the field \"{name}\" is wrong: {e}"))
}

/// The `undo` and `redo` fields of a game's saved state: lists of steps, each a list of texts (moves, jumps)
/// that `parse` turns into a step of the game's history, given the step's name ("undo step 2") for its
/// messages. The past first, then the future.
///
/// # Errors
/// As [`field`], or `parse`'s message.
pub fn history_steps<T>(
    state: &serde_json::Value,
    parse: impl Fn(&str, Vec<String>) -> Result<T, String>,
) -> Result<(Vec<T>, Vec<T>), String> {
    let mut sides = [Vec::new(), Vec::new()];
    for (side, name) in sides.iter_mut().zip(["undo", "redo"]) {
        let steps: Vec<Vec<String>> = field(state, name)?;
        for (i, step) in steps.into_iter().enumerate() {
            side.push(parse(&format!("{name} step {}", i + 1), step)?);
        }
    }
    let [past, future] = sides;
    Ok((past, future))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_saves_are_refused_with_a_reason() {
        let cases = [
            ("", "empty"),
            ("{not json", "not valid JSON (line 1, column 2"),
            ("[1,2]", "not an object"),
            ("{\"a\":1}", "no \"format\""),
            ("{\"format\":\"other\"}", "its format is \"other\""),
            ("{\"format\":\"boardlab-save\"}", "no format version"),
            (
                "{\"format\":\"boardlab-save\",\"version\":-1}",
                "its format version -1 is not a version number (this boardlab reads versions 1 to",
            ),
            (
                "{\"format\":\"boardlab-save\",\"version\":\"2\"}",
                "its format version \"2\" is not a version number",
            ),
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
            let err = SaveFile::parse(text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(want), "{text:?}: {err:?} lacks {want:?}");
            assert!(err.starts_with("not a boardlab save file: "), "{err}");
        }
        assert_eq!(
            SaveFile::parse(
                "{\"format\":\"boardlab-save\",\"version\":9,\"game\":\"peg\",\"state\":{}}"
            ),
            Err(SaveError::Version(9))
        );
        assert_eq!(
            SaveError::Version(5).to_string(),
            "saved in format version 5; this boardlab reads versions 1 to 4"
        );
        // Version 0 never existed.
        assert_eq!(
            SaveFile::parse(
                "{\"format\":\"boardlab-save\",\"version\":0,\"game\":\"peg\",\"state\":{}}"
            ),
            Err(SaveError::Version(0))
        );
    }

    #[test]
    fn version_1_files_still_load() {
        let v1 = "{\"format\":\"boardlab-save\",\"version\":1,\"game\":\"peg\",\"state\":{\"moves\":[]}}";
        let save = SaveFile::parse(v1).unwrap();
        assert_eq!(save.kind(), Ok(GameKind::Peg));
        assert_eq!(save.state, serde_json::json!({"moves": []}));
        // Written again, it is a file of this version.
        assert_eq!(save.version, VERSION);
    }

    #[test]
    fn text_and_values_round_trip() {
        let save = SaveFile::new(GameKind::Peg, serde_json::json!({"moves": ["d2-d4"]}));
        assert_eq!(SaveFile::parse(&save.to_text()), Ok(save.clone()));
        assert_eq!(SaveFile::from_value(save.to_value()), Ok(save.clone()));
        assert_eq!(save.kind(), Ok(GameKind::Peg));
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
