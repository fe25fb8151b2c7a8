//! A Mouse & Cats game's saved state: written for a save file, and read back with every move list replayed.

use mousecats::SizedMove;

use super::MouseOptions;
use super::session::{MouseSession, replay};
use crate::history::History;
use crate::save::{SaveFile, field, history_steps};
use crate::{Env, GameKind};

impl MouseSession {
    /// The game's state for a save file (the `state` of a [`SaveFile`]).
    pub fn to_state(&self) -> serde_json::Value {
        let list = |moves: &[SizedMove]| moves.iter().map(|m| m.to_compact()).collect::<Vec<_>>();
        serde_json::json!({
            "options": self.opts,
            "moves": list(self.hist.present()),
            "undo": self.hist.past().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "redo": self.hist.future().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "panel": self.panel,
        })
    }

    /// The game as a save file.
    pub fn save(&self) -> SaveFile {
        SaveFile::new(GameKind::Mouse, self.to_state())
    }

    /// Rebuild a saved game from its state, replaying every move list of the game and its history. When it is
    /// the engine's move it starts thinking.
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the move.
    pub fn from_state(state: &serde_json::Value, env: &Env) -> Result<MouseSession, String> {
        let opts: MouseOptions = field(state, "options")?;
        opts.check().map_err(|e| e.to_string())?;
        let start = opts.start().map_err(|e| e.to_string())?;
        let parse = |what: &str, list: Vec<String>| -> Result<Vec<SizedMove>, String> {
            list.iter()
                .enumerate()
                .map(|(i, m)| {
                    m.parse::<SizedMove>()
                        .map_err(|_| format!("{what}: move {} \"{m}\" is not a move", i + 1))
                })
                .collect()
        };
        let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<SizedMove>, String> {
            let moves = parse(what, list)?;
            replay(&start, opts.rule, &moves).map_err(|e| format!("{what}: {e}"))?;
            Ok(moves)
        };
        // The game's own moves are named by their number alone: "move 2 (H8-H1): ...".
        let moves = parse("the moves", field(state, "moves")?)?;
        replay(&start, opts.rule, &moves)?;
        let (past, future) = history_steps(state, parse_list)?;
        let panel: bool = field(state, "panel")?;
        let mut s =
            MouseSession::with_moves(opts, moves.clone(), env).map_err(|e| e.to_string())?;
        s.hist = History::from_parts(past, s.game.moves().to_vec(), future);
        s.panel = panel;
        Ok(s)
    }
}
