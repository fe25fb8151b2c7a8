//! A problem: a board, a start position and a finish.

use crate::board::{Board, NameError, Symmetry};
use crate::position::Position;

/// Where the last peg must end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Finish {
    /// One peg left, on any hole.
    Anywhere,
    /// One peg left, on this hole.
    Hole(usize),
}

impl Finish {
    /// Whether `pos` is a finished position: one peg, on the finish hole if there is one.
    pub fn is_finished(self, pos: Position) -> bool {
        pos.pegs() == 1
            && match self {
                Finish::Anywhere => true,
                Finish::Hole(h) => pos.has_peg(h),
            }
    }

    /// The holes the last peg may end on, on a board of `holes` holes.
    pub(crate) fn holes(self, holes: usize) -> std::ops::Range<usize> {
        match self {
            Finish::Anywhere => 0..holes,
            Finish::Hole(h) => h..h + 1,
        }
    }

    /// The position classes ([`Board::position_class`]) of the finished positions on `board`, sorted: a position
    /// of any other class can never finish, whatever is played.
    pub fn classes(self, board: &Board) -> Vec<u8> {
        let mut classes: Vec<u8> = self
            .holes(board.holes())
            .map(|h| board.position_class(Position::EMPTY.with_peg(h)))
            .collect();
        classes.sort_unstable();
        classes.dedup();
        classes
    }

    /// Whether the position class of `pos` is that of a finished position on `board` (else no game from `pos`
    /// can end with one peg on the finish, whatever is played).
    pub fn allows(self, board: &Board, pos: Position) -> bool {
        let class = board.position_class(pos);
        self.holes(board.holes())
            .any(|h| board.position_class(Position::EMPTY.with_peg(h)) == class)
    }
}

/// Why a problem cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// A hole name that is not on the board.
    #[error(transparent)]
    Name(#[from] NameError),
    /// The start position has no peg.
    #[error("the start position has no peg")]
    NoPeg,
    /// The same hole was named twice as a vacancy.
    #[error("hole {0} is named twice")]
    DuplicateVacancy(String),
}

/// A board, a start position and a finish. The symmetry group used with it is the board's symmetries that fix
/// the start position (all of them for the standard start).
#[derive(Debug, Clone)]
pub struct Problem {
    board: Board,
    start: Position,
    finish: Finish,
    group: Vec<Symmetry>,
}

impl Problem {
    /// A problem from a start position. Fails when the start has no peg.
    pub fn new(board: Board, start: Position, finish: Finish) -> Result<Problem, ProblemError> {
        if start.pegs() == 0 {
            return Err(ProblemError::NoPeg);
        }
        let start = Position::from_bits(start.bits() & board.full().bits());
        let group = board.stabilizer(start);
        Ok(Problem {
            board,
            start,
            finish,
            group,
        })
    }

    /// The standard problem of a board: the standard vacancy, finish anywhere.
    pub fn standard(board: Board) -> Problem {
        let start = board.default_start();
        let group = board.stabilizer(start);
        Problem {
            board,
            start,
            finish: Finish::Anywhere,
            group,
        }
    }

    /// A problem from hole names: every hole filled except the `vacancies` (the standard vacancy when the list is
    /// empty), finishing on `finish` (any hole when `None`).
    pub fn from_names(
        board: Board,
        vacancies: &[&str],
        finish: Option<&str>,
    ) -> Result<Problem, ProblemError> {
        let start = Problem::start_of(&board, None, vacancies)?;
        let finish = match finish {
            Some(f) => Finish::Hole(board.parse_hole(f)?),
            None => Finish::Anywhere,
        };
        Problem::new(board, start, finish)
    }

    /// The full board but for the holes named in `vacancies` (none: the full board). Fails on a name that is
    /// not a hole of the board, or a hole named twice.
    pub fn start_with_vacancies<S: AsRef<str>>(
        board: &Board,
        vacancies: &[S],
    ) -> Result<Position, ProblemError> {
        let mut start = board.full();
        for v in vacancies {
            let h = board.parse_hole(v.as_ref())?;
            if !start.has_peg(h) {
                return Err(ProblemError::DuplicateVacancy(
                    board.hole_name(h).to_string(),
                ));
            }
            start = start.without_peg(h);
        }
        Ok(start)
    }

    /// The start a player means on `board`, the one rule every front end follows: every hole filled but the
    /// named `vacancies` when any are named; else the position `drawn` (a layout's empty holes), where a layout
    /// drawn with every hole filled, like a built-in board (`None`), means the standard start
    /// ([`Board::default_start`]). Fails on an unknown hole, a hole named twice, or a start with no peg.
    ///
    /// ```
    /// use peg::{Board, Problem};
    /// let english = Board::builtin("english").unwrap();
    /// let standard = Problem::start_of::<&str>(&english, None, &[]).unwrap();
    /// assert_eq!(standard, english.default_start());
    /// let full = Problem::start_of::<&str>(&english, Some(english.full()), &[]).unwrap();
    /// assert_eq!(full, standard);
    /// let c1 = Problem::start_of(&english, None, &["c1"]).unwrap();
    /// assert_eq!(c1.pegs(), 32);
    /// assert!(!c1.has_peg(english.parse_hole("c1").unwrap()));
    /// assert!(Problem::start_of(&english, None, &["c1", "c1"]).is_err());
    /// ```
    pub fn start_of<S: AsRef<str>>(
        board: &Board,
        drawn: Option<Position>,
        vacancies: &[S],
    ) -> Result<Position, ProblemError> {
        let start = if !vacancies.is_empty() {
            Problem::start_with_vacancies(board, vacancies)?
        } else {
            match drawn {
                Some(pos) if pos != board.full() => pos,
                _ => board.default_start(),
            }
        };
        if start.pegs() == 0 {
            return Err(ProblemError::NoPeg);
        }
        Ok(start)
    }

    /// Whether the start's position class allows the finish ([`Finish::allows`]).
    pub fn class_allows_finish(&self) -> bool {
        self.finish.allows(&self.board, self.start)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The finish.
    pub fn finish(&self) -> Finish {
        self.finish
    }

    /// The same problem with another finish.
    pub fn with_finish(mut self, finish: Finish) -> Problem {
        self.finish = finish;
        self
    }

    /// The symmetry group used for counting: the board's symmetries that fix the start (identity first).
    pub fn group(&self) -> &[Symmetry] {
        &self.group
    }

    /// The normal form of a position under [`Problem::group`]: its smallest image.
    pub fn normalize(&self, pos: Position) -> Position {
        Board::normalize_with(pos, &self.group)
    }

    /// Number of distinct images of `pos` under [`Problem::group`] (its symmetry type: 1, 2, 4 or 8 on the
    /// English board).
    pub fn class_size(&self, pos: Position) -> u64 {
        let fixed = self.group.iter().filter(|s| s.apply(pos) == pos).count();
        (self.group.len() / fixed.max(1)) as u64
    }
}
