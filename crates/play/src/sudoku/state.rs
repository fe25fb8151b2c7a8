//! A sudoku's saved state: written for a save file, and read back with every part checked.

use std::time::Duration;

use sudoku::logic::tables::cell_name;

use super::board::{Board, conflicts};
use super::puzzle::Puzzle;
use super::session::{End, SudokuSession};
use super::setup::Setup;
use super::steps::{Step, Steps};
use crate::clock::Stopwatch;
use crate::save::{SaveFile, field};
use crate::{Env, GameKind};

impl SudokuSession {
    /// The game's state for a save file (the `state` of a [`SaveFile`]).
    pub fn to_state(&self) -> serde_json::Value {
        let mut state = serde_json::json!({
            "setup": self.setup,
            "puzzle": self.puzzle,
            "board": self.hist.present(),
            "undo": self.hist.undo_steps().iter().map(Step::to_value).collect::<Vec<_>>(),
            "redo": self.hist.redo_steps().iter().map(Step::to_value).collect::<Vec<_>>(),
            "cursor": self.cursor,
            "pencil": self.pencil,
            "conflicts": self.show_conflicts,
            "mistakes": self.mistakes,
            "hints": self.hints,
            "end": self.end,
            "elapsed_ms": u64::try_from(self.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        // Since format version 2, and only while a hint is shown (so a game without one saves as before).
        if self.hint.is_some()
            && let Some(obj) = state.as_object_mut()
        {
            obj.insert("hint".into(), true.into());
        }
        // Written only when there is something in it, so that a save of the first release saves back unchanged.
        if !self.counted.is_empty()
            && let Some(obj) = state.as_object_mut()
        {
            obj.insert("counted".into(), serde_json::json!(self.counted));
        }
        state
    }

    /// The game as a save file.
    pub fn save(&self) -> SaveFile {
        SaveFile::new(GameKind::Sudoku, self.to_state())
    }

    /// Rebuild a saved game from its state, checking everything: the setup, the puzzle against its solution,
    /// every grid of the undo and redo history against the clues. The history is a list of steps (the cells
    /// each changed, since format version 4) or of whole grids (older saves), which become steps.
    ///
    /// # Errors
    /// A one-line reason naming the field, the step or the cell.
    pub fn from_state(state: &serde_json::Value, env: &Env) -> Result<SudokuSession, String> {
        let setup: Setup = field(state, "setup")?;
        setup.check().map_err(|e| e.to_string())?;
        // A game saved while its puzzle was still being made has no puzzle yet: nothing was played, so it
        // resumes by making one, as a new game does.
        let puzzle: Option<Puzzle> = field(state, "puzzle")?;
        let Some(puzzle) = puzzle else {
            let mut s = SudokuSession::empty(setup, env);
            s.generate();
            return Ok(s);
        };
        puzzle.check()?;
        let board: Board = field(state, "board")?;
        board.check(&puzzle).map_err(|e| format!("the grid: {e}"))?;
        let undo = saved_steps(state, "undo", &board, &puzzle)?;
        let redo = saved_steps(state, "redo", &board, &puzzle)?;
        let cursor: usize = field(state, "cursor")?;
        if cursor >= 81 {
            return Err(format!("the cursor is at cell {cursor}; cells are 0 to 80"));
        }
        let end: Option<End> = field(state, "end")?;
        if let Some(end) = end {
            let what = match end {
                End::Solved => "solved",
                End::Revealed => "revealed",
            };
            if let Some(c) = board.values.iter().position(|&v| v == 0) {
                return Err(format!(
                    "the game is marked {what}, but {} is empty",
                    cell_name(c)
                ));
            }
            if let Some(&c) = conflicts(&board.values).first() {
                return Err(format!(
                    "the game is marked {what}, but {} clashes with another cell",
                    cell_name(c)
                ));
            }
            if puzzle.unique
                && let Some(c) = (0..81).find(|&c| board.values[c] != puzzle.solution[c])
            {
                return Err(format!(
                    "the game is marked {what}, but {} is not the solution's digit",
                    cell_name(c)
                ));
            }
        }
        let elapsed: u64 = field(state, "elapsed_ms")?;
        let mut s = SudokuSession::empty(setup, env);
        s.puzzle = Some(puzzle);
        s.hist = Steps::from_parts(board, undo, redo);
        s.cursor = cursor;
        s.pencil = field(state, "pencil")?;
        s.show_conflicts = field(state, "conflicts")?;
        s.mistakes = field(state, "mistakes")?;
        // Saves written before mistakes were counted at checks have no list: their counter stands as it is.
        if state.get("counted").is_some() {
            let counted: Vec<(usize, u8)> = field(state, "counted")?;
            if let Some(&(c, d)) = counted
                .iter()
                .find(|&&(c, d)| c >= 81 || !(1..=9).contains(&d))
            {
                return Err(format!(
                    "the field \"counted\" is wrong: ({c}, {d}) is not a cell 0-80 and a digit 1-9"
                ));
            }
            s.counted = counted;
        }
        s.hints = field(state, "hints")?;
        s.end = end;
        // Since format version 2: a hint shown when the game was saved is shown again (it is worked out from
        // the grid and the marks, so it is the same hint, and it is not counted twice).
        let hint: Option<bool> = state
            .get("hint")
            .map(|v| serde_json::from_value(v.clone()))
            .transpose()
            .map_err(|e| format!("the field \"hint\" is wrong: {e}"))?;
        if hint == Some(true) && s.end.is_none() {
            s.hint = Some(s.find_hint());
        }
        let now = env.clock.now();
        s.watch = Stopwatch::running(Duration::from_millis(elapsed), now);
        if s.end.is_some() {
            s.watch.pause(now);
        }
        Ok(s)
    }
}

/// The undo (or redo) list `name` of a saved state, as steps, each checked to lead to a grid that keeps the
/// clues. The list runs oldest first (redo: the next step last); walking it from the grid now, an entry is a
/// step (a list of changed cells, since format version 4) or, in older saves, the whole grid it leads to.
fn saved_steps(
    state: &serde_json::Value,
    name: &str,
    present: &Board,
    puzzle: &Puzzle,
) -> Result<Vec<Step>, String> {
    let entries: Vec<serde_json::Value> = field(state, name)?;
    let mut steps = Vec::with_capacity(entries.len());
    let mut cur = present.clone();
    for (i, entry) in entries.iter().enumerate().rev() {
        let at = |e: String| format!("{name} step {}: {e}", i + 1);
        let (step, other) = if entry.is_object() {
            let other: Board =
                serde_json::from_value(entry.clone()).map_err(|e| at(e.to_string()))?;
            other.check(puzzle).map_err(at)?;
            match Step::between(&other, &cur) {
                Some(step) => (step, other),
                // An older save may repeat a grid: a step that changes nothing is no step.
                None => continue,
            }
        } else {
            let step = Step::from_value(entry).map_err(at)?;
            let mut other = cur.clone();
            step.apply(&mut other);
            // The rest of the grid is the one checked already.
            other.check_cells(puzzle, step.changed()).map_err(at)?;
            (step, other)
        };
        steps.push(step);
        cur = other;
    }
    steps.reverse();
    Ok(steps)
}
