//! A peg game's saved state: written for a save file, and read back with every jump list replayed.

use peg::{Board, Finish, Lattice, Move, Problem};

use super::session::{PegSession, replay};
use crate::history::History;
use crate::save::{SaveFile, field, history_steps};
use crate::{Env, GameKind};

impl PegSession {
    /// The game's state for a save file (the `state` of a [`SaveFile`]). A board that is not built in is saved
    /// with its layout.
    pub fn to_state(&self) -> serde_json::Value {
        let b = self.board();
        let list = |moves: &[Move]| moves.iter().map(|&m| b.format_move(m)).collect::<Vec<_>>();
        let mut state = serde_json::json!({
            "board": b.name(),
            "start": self.vacancies(),
            "finish": self.finish_name(),
            "moves": list(self.hist.present()),
            "undo": self.hist.past().iter().map(|m| list(m)).collect::<Vec<_>>(),
            "redo": self.hist.future().iter().map(|m| list(m)).collect::<Vec<_>>(),
        });
        let builtin = Board::builtin(b.name()).is_ok_and(|bb| {
            bb.lattice() == b.lattice() && bb.layout_string(bb.full()) == b.layout_string(b.full())
        });
        if !builtin && let Some(obj) = state.as_object_mut() {
            obj.insert("layout".into(), b.layout_string(b.full()).into());
            obj.insert(
                "lattice".into(),
                serde_json::to_value(b.lattice()).unwrap_or_default(),
            );
        }
        state
    }

    /// The game as a save file.
    pub fn save(&self) -> SaveFile {
        SaveFile::new(GameKind::Peg, self.to_state())
    }

    /// Rebuild a saved game from its state, replaying every jump list of the game and its history.
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the jump.
    pub fn from_state(state: &serde_json::Value, env: &Env) -> Result<PegSession, String> {
        let name: String = field(state, "board")?;
        let board = match state.get("layout") {
            None | Some(serde_json::Value::Null) => {
                Board::builtin(&name).map_err(|e| format!("the board: {e}"))?
            }
            Some(_) => {
                let layout: String = field(state, "layout")?;
                let lattice: String = field(state, "lattice")?;
                let lattice = match lattice.as_str() {
                    "square" => Lattice::Square,
                    "triangular" => Lattice::Triangular,
                    other => {
                        return Err(format!(
                            "the lattice \"{other}\" is neither \"square\" nor \"triangular\""
                        ));
                    }
                };
                Board::from_layout(&layout, lattice, &name)
                    .map_err(|e| format!("the layout: {e}"))?
                    .0
            }
        };
        let vacancies: Vec<String> = field(state, "start")?;
        if vacancies.is_empty() {
            return Err("the start: no hole is empty, so no jump can be made".into());
        }
        let start = Problem::start_with_vacancies(&board, &vacancies)
            .map_err(|e| format!("the start: {e}"))?;
        if start.pegs() == 0 {
            return Err("the start: every hole is empty".into());
        }
        let finish: Option<String> = field(state, "finish")?;
        let finish = match finish {
            Some(f) => Finish::Hole(
                board
                    .parse_hole(&f)
                    .map_err(|e| format!("the finish: {e}"))?,
            ),
            None => Finish::Anywhere,
        };
        let problem = Problem::new(board, start, finish).map_err(|e| e.to_string())?;
        let parse_list = |what: &str, list: Vec<String>| -> Result<Vec<Move>, String> {
            let moves = list
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    problem
                        .board()
                        .parse_move(m)
                        .map_err(|e| format!("{what}: jump {}: {e}", i + 1))
                })
                .collect::<Result<Vec<Move>, String>>()?;
            replay(&problem, &moves).map_err(|e| format!("{what}: {e}"))?;
            Ok(moves)
        };
        let moves = parse_list("the moves", field(state, "moves")?)?;
        let (past, future) = history_steps(state, parse_list)?;
        let mut s =
            PegSession::with_moves(problem, moves.clone(), env).map_err(|e| e.to_string())?;
        s.hist = History::from_parts(past, moves, future);
        Ok(s)
    }
}
