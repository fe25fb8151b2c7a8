//! Sudoku answers: logical steps, explained, and the next step for a player's grid.

use serde::Serialize;
use sudoku::logic::tables::{Digits, cell_name, house_name};
use sudoku::logic::{Candidate, Step};
use utoipa::ToSchema;

/// A candidate: a digit in a cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CandidateInfo {
    /// `r4c2`.
    pub cell: String,
    /// 0-80, row by row.
    pub index: u8,
    /// 1-9.
    pub digit: u8,
}

impl CandidateInfo {
    /// `c` for an answer.
    pub fn new(c: &Candidate) -> CandidateInfo {
        CandidateInfo {
            cell: cell_name(usize::from(c.cell)),
            index: c.cell,
            digit: c.digit,
        }
    }
}

/// One logical step, explained (a step of `sudoku rate --explain`, the step of `sudoku hint`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StepInfo {
    /// Technique id (`hidden_single_box`, `x_wing`, ...).
    pub technique: String,
    /// Technique name.
    pub name: String,
    /// Its rating on Sudoku Explainer's scale.
    pub rating: f64,
    /// The step in one sentence.
    pub text: String,
    /// Digits placed.
    pub placements: Vec<CandidateInfo>,
    /// Candidates removed.
    pub eliminations: Vec<CandidateInfo>,
    /// Cells of the pattern, by index (0-80, row by row).
    pub cells: Vec<u8>,
    /// Cells of the pattern, by name (`r4c2`).
    pub cell_names: Vec<String>,
    /// Houses of the pattern (`row 4`, `column 2`, `box 5`).
    pub houses: Vec<String>,
    /// Digits of the pattern.
    pub digits: Vec<u8>,
    /// Candidates the pattern is made of, for highlighting.
    pub highlights: Vec<CandidateInfo>,
    /// Chain nodes (`r4c2=7` or `r4c2<>7`), for chains.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<String>,
}

impl StepInfo {
    /// `s` for an answer.
    pub fn new(s: &Step) -> StepInfo {
        let t = s.technique();
        StepInfo {
            technique: t.id().to_string(),
            name: t.name().to_string(),
            rating: s.rating.value(),
            text: s.to_string(),
            placements: s.placements.iter().map(CandidateInfo::new).collect(),
            eliminations: s.eliminations.iter().map(CandidateInfo::new).collect(),
            cells: s.cells.to_vec(),
            cell_names: s.cells.iter().map(|&c| cell_name(usize::from(c))).collect(),
            houses: s
                .houses
                .iter()
                .map(|&h| house_name(usize::from(h)))
                .collect(),
            digits: Digits(s.digits).collect(),
            highlights: s.highlights.iter().map(CandidateInfo::new).collect(),
            chain: s.chain.iter().map(ToString::to_string).collect(),
        }
    }
}

/// The next step for a grid (`sudoku hint`, `/api/sudoku/hint`): `play::sudoku::hint`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct HintAnswer {
    /// The puzzle's clues, 81 characters (`.` for an empty cell).
    pub puzzle: String,
    /// `step`, `solved`, `stuck`, `no_solution` or `mistake`.
    pub status: String,
    /// The hint in one sentence (for `step`, the step's text).
    pub message: String,
    /// The step, for `step`.
    pub step: Option<StepInfo>,
    /// For `mistake`: the wrong cell's index (0-80, row by row).
    pub cell: Option<u8>,
}

impl HintAnswer {
    /// `hint`, for the puzzle whose clues are `givens`.
    pub fn new(givens: &[u8; 81], hint: &play::sudoku::Hint) -> HintAnswer {
        HintAnswer {
            puzzle: givens
                .iter()
                .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
                .collect(),
            status: hint.kind.id().to_string(),
            message: hint.text.clone(),
            step: hint.step.as_ref().map(StepInfo::new),
            cell: hint.cell().and_then(|c| u8::try_from(c).ok()),
        }
    }
}
