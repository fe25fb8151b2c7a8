//! Reading grids from text: the 81-character line and the 9-line block, with `#` comments.
//!
//! The formats, line by line:
//! - A line whose first word is 81 cells is a whole puzzle; anything after that word, past whitespace, is
//!   ignored (a rating or a note, as in `4.....8.5.3.... ED=7.1`). A line of 81 cells with spaces or `|` between
//!   them is a whole puzzle too.
//! - A line of 9 cells (spaces, `|` and `+` between them allowed) is one row of a 9-line block; 9 such rows make
//!   a puzzle.
//! - A cell is a digit `1`–`9`, or a blank: `.`, `0`, `_`, `-` or `*`.
//! - Lines made of `-`, `+`, `=`, `|` and spaces (such as `------+-------+------`) separate the bands of a block;
//!   blank lines and lines starting with `#` (comments) are skipped everywhere.
//!
//! Errors carry the line and column (both counted from 1, columns in characters) of what was wrong.

use std::fmt;
use std::str::FromStr;

use crate::grid::{CELLS, Conflict, Grid};

/// What was wrong with a puzzle's text (see [`ParseError`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that is neither a cell (`1`–`9`, `.`, `0`, `_`, `-`, `*`) nor a separator.
    UnknownCharacter(char),
    /// A line holds a number of cells that is neither 81 (a whole puzzle) nor 9 (a row of a block).
    WrongLength {
        /// The number of cells on the line.
        found: usize,
    },
    /// A 9-line block stopped before its ninth row.
    IncompleteBlock {
        /// Rows read.
        rows: usize,
        /// The line of its first row.
        started: usize,
    },
    /// A digit repeats in a row, a column or a box.
    Conflict(Conflict),
    /// No puzzle at all: empty input, or only comments and blank lines.
    NoPuzzle,
    /// More than one puzzle where one was expected ([`Grid::parse`]).
    ExtraPuzzle,
}

/// A puzzle that could not be read: what was wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// The line, counted from 1.
    pub line: usize,
    /// The column in characters, counted from 1.
    pub column: usize,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            ParseErrorKind::UnknownCharacter(c) => write!(
                f,
                "unknown character {c:?} (a cell is a digit 1-9 or a blank: . 0 _ - *)"
            ),
            ParseErrorKind::WrongLength { found } => write!(
                f,
                "{found} cells on the line; a puzzle line has 81, a row of a 9-line block has 9"
            ),
            ParseErrorKind::IncompleteBlock { rows, started } => write!(
                f,
                "the 9-line block started on line {started} ends after {rows} row{}",
                if *rows == 1 { "" } else { "s" }
            ),
            ParseErrorKind::Conflict(c) => c.fmt(f),
            ParseErrorKind::NoPuzzle => {
                f.write_str("no puzzle (the input is empty or holds only comments and blank lines)")
            }
            ParseErrorKind::ExtraPuzzle => f.write_str("a second puzzle where one was expected"),
        }
    }
}

impl std::error::Error for ParseError {}

/// A puzzle read by a [`PuzzleReader`], with the line it starts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParsedPuzzle {
    /// The puzzle.
    pub grid: Grid,
    /// The line (counted from 1) of its first row.
    pub line: usize,
}

/// Reads puzzles from text one line at a time, in any mix of the formats described in [`crate::grid_parse`], in
/// constant memory.
///
/// Feed every line in order to [`PuzzleReader::read_line`], then call [`PuzzleReader::finish`]. After an error
/// the reader recovers: the rest of a broken block is skipped and reading continues with the next puzzle.
///
/// ```
/// use sudoku::PuzzleReader;
///
/// let text = "# two puzzles\n\
///             4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
///             52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n";
/// let mut reader = PuzzleReader::new();
/// let mut lines = Vec::new();
/// for line in text.lines() {
///     for read in reader.read_line(line) {
///         lines.push(read.unwrap().line);
///     }
/// }
/// assert!(reader.finish().is_none());
/// assert_eq!(lines, [2, 3]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct PuzzleReader {
    /// Lines read so far.
    line: usize,
    /// The block being read, if any.
    block: Option<Block>,
}

#[derive(Debug, Clone)]
struct Block {
    cells: [u8; CELLS],
    /// Line and column of each cell read so far.
    pos: [(u32, u32); CELLS],
    rows: usize,
    started: usize,
    /// An error was reported for this block: swallow its remaining rows silently.
    broken: bool,
}

/// What one line holds.
enum LineKind {
    /// Blank, a comment or a separator: nothing to read.
    Skip,
    /// `n` cells (values in `buf.cells[..n.min(81)]`).
    Cells(usize),
}

/// Scratch space for the cells of one line.
struct LineBuf {
    cells: [u8; CELLS],
    cols: [u32; CELLS],
    /// Column of the 82nd cell, if any (to point at a line that is too long).
    col_82: u32,
    /// Column of the 10th cell, if any.
    col_10: u32,
    /// Column just past the last character.
    end_col: u32,
}

/// The value of a cell character: a digit, 0 for a blank, `None` for anything else.
fn cell_value(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '.' | '0' | '_' | '-' | '*' => Some(0),
        _ => None,
    }
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '+' | '=')
}

/// Classify `line` and collect its cells into `buf`. `Err((column, char))` for an unknown character.
fn scan(line: &str, buf: &mut LineBuf) -> Result<LineKind, (usize, char)> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(LineKind::Skip);
    }
    // A first word of exactly 81 cells is a whole puzzle; the rest of the line is a note.
    let lead = line.len() - trimmed.len();
    let lead_cols = line[..lead].chars().count();
    let word_end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let word = &trimmed[..word_end];
    if word.len() == CELLS && word.chars().all(|c| cell_value(c).is_some()) {
        for (k, c) in word.chars().enumerate() {
            buf.cells[k] = cell_value(c).unwrap_or(0);
            buf.cols[k] = (lead_cols + k + 1) as u32;
        }
        return Ok(LineKind::Cells(CELLS));
    }
    let mut n = 0usize;
    let mut dashes = 0usize;
    let mut other_cells = 0usize;
    let mut plus_or_equals = false;
    buf.col_82 = 0;
    buf.col_10 = 0;
    let mut col = 0usize;
    for c in line.chars() {
        col += 1;
        if let Some(v) = cell_value(c) {
            if c == '-' {
                dashes += 1;
            } else {
                other_cells += 1;
            }
            if n < CELLS {
                buf.cells[n] = v;
                buf.cols[n] = col as u32;
            } else if n == CELLS {
                buf.col_82 = col as u32;
            }
            if n == 9 {
                buf.col_10 = col as u32;
            }
            n += 1;
        } else if is_separator(c) {
            plus_or_equals |= c == '+' || c == '=';
        } else {
            return Err((col, c));
        }
    }
    buf.end_col = col as u32 + 1;
    // A line of dashes is a band separator, unless it is exactly 9 dashes (a row of blanks) with no `+`/`=`.
    if other_cells == 0 && (plus_or_equals || dashes != 9) {
        return Ok(LineKind::Skip);
    }
    Ok(LineKind::Cells(n))
}

impl PuzzleReader {
    /// A reader at the start of its input.
    #[must_use]
    pub fn new() -> PuzzleReader {
        PuzzleReader::default()
    }

    /// The number of lines read so far.
    #[must_use]
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// Read the next line (without its line ending; a trailing `\r` is ignored). Yields what this line
    /// completes: usually nothing or one puzzle or error; two items (the error for an unfinished block, then a
    /// puzzle) when a one-line puzzle interrupts a block.
    pub fn read_line(&mut self, line: &str) -> LineResults {
        self.line += 1;
        let line_no = self.line;
        let line = line.strip_suffix('\r').unwrap_or(line);
        // The common case first: exactly 81 cells, digits and '.' or '0', outside a block, no repeated digit.
        // Anything else (including a repeated digit, for its message) takes the general path below.
        if self.block.is_none()
            && let Some(grid) = plain_line(line.as_bytes())
        {
            return LineResults::one(Ok(ParsedPuzzle {
                grid,
                line: line_no,
            }));
        }
        let mut buf = LineBuf {
            cells: [0; CELLS],
            cols: [0; CELLS],
            col_82: 0,
            col_10: 0,
            end_col: 0,
        };
        let n = match scan(line, &mut buf) {
            Ok(LineKind::Skip) => return LineResults::none(),
            Ok(LineKind::Cells(n)) => n,
            Err((column, c)) => {
                let err = ParseError {
                    line: line_no,
                    column,
                    kind: ParseErrorKind::UnknownCharacter(c),
                };
                return self.fail_row(err);
            }
        };
        match n {
            CELLS => {
                // A whole puzzle on one line: it ends any block in progress.
                let interrupted = self.end_block(line_no, 1);
                let mut pos = [(0u32, 0u32); CELLS];
                for (p, &c) in pos.iter_mut().zip(buf.cols.iter()) {
                    *p = (line_no as u32, c);
                }
                LineResults {
                    items: [
                        interrupted.map(Err),
                        Some(finish_grid(buf.cells, &pos, line_no)),
                    ],
                }
            }
            9 => {
                let block = match &mut self.block {
                    Some(block) => block,
                    empty => empty.insert(Block {
                        cells: [0; CELLS],
                        pos: [(0, 0); CELLS],
                        rows: 0,
                        started: line_no,
                        broken: false,
                    }),
                };
                let r = block.rows;
                block.cells[r * 9..r * 9 + 9].copy_from_slice(&buf.cells[..9]);
                for k in 0..9 {
                    block.pos[r * 9 + k] = (line_no as u32, buf.cols[k]);
                }
                block.rows += 1;
                if block.rows < 9 {
                    return LineResults::none();
                }
                match self.block.take() {
                    Some(done) if !done.broken => {
                        LineResults::one(finish_grid(done.cells, &done.pos, done.started))
                    }
                    _ => LineResults::none(),
                }
            }
            found => {
                let column = if found > CELLS {
                    buf.col_82
                } else if found > 9 && found < 45 {
                    buf.col_10
                } else {
                    buf.end_col
                } as usize;
                let err = ParseError {
                    line: line_no,
                    column,
                    kind: ParseErrorKind::WrongLength { found },
                };
                self.fail_row(err)
            }
        }
    }

    /// An error on a line: inside a block, report it once and swallow the rest of the block.
    fn fail_row(&mut self, err: ParseError) -> LineResults {
        match &mut self.block {
            Some(block) => {
                let was_broken = block.broken;
                block.broken = true;
                block.rows += 1;
                if block.rows >= 9 {
                    self.block = None;
                }
                if was_broken {
                    LineResults::none()
                } else {
                    LineResults::one(Err(err))
                }
            }
            None => LineResults::one(Err(err)),
        }
    }

    /// Drop the block in progress; the error for it if it was unfinished and not already reported.
    fn end_block(&mut self, line: usize, column: usize) -> Option<ParseError> {
        let block = self.block.take()?;
        if block.broken {
            return None;
        }
        Some(ParseError {
            line,
            column,
            kind: ParseErrorKind::IncompleteBlock {
                rows: block.rows,
                started: block.started,
            },
        })
    }

    /// End of input: the error for a block left unfinished, if any (pointing just past the last line). The
    /// reader is then ready for more input; line numbers keep counting.
    pub fn finish(&mut self) -> Option<ParseError> {
        self.end_block(self.line + 1, 1)
    }
}

/// What one line completed (see [`PuzzleReader::read_line`]): an iterator over zero, one or two results, in
/// input order.
#[derive(Debug, Clone)]
pub struct LineResults {
    items: [Option<Result<ParsedPuzzle, ParseError>>; 2],
}

impl LineResults {
    fn none() -> LineResults {
        LineResults {
            items: [None, None],
        }
    }

    fn one(item: Result<ParsedPuzzle, ParseError>) -> LineResults {
        LineResults {
            items: [Some(item), None],
        }
    }
}

impl Iterator for LineResults {
    type Item = Result<ParsedPuzzle, ParseError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.items[0].take().or_else(|| self.items[1].take())
    }
}

/// The grid of a line of exactly 81 bytes, each `'1'..='9'`, `'.'` or `'0'`, with no digit repeated in a unit;
/// `None` for any other line.
fn plain_line(bytes: &[u8]) -> Option<Grid> {
    let bytes: &[u8; CELLS] = bytes.try_into().ok()?;
    let mut cells = [0u8; CELLS];
    let mut bad = false;
    for (c, &b) in cells.iter_mut().zip(bytes) {
        let v = b.wrapping_sub(b'0');
        bad |= v > 9 && b != b'.';
        *c = if v > 9 { 0 } else { v };
    }
    if bad {
        return None;
    }
    // Each digit at most once per row, column and box: 27 masks of seen digits.
    let mut seen = [0u16; 27];
    let mut repeat = 0u16;
    for (i, &v) in cells.iter().enumerate() {
        // Bit 0 stands for an empty cell and is ignored.
        let bit = (1u16 << v) & !1;
        let (r, c) = (i / 9, i % 9);
        let b = 18 + (r / 3) * 3 + c / 3;
        repeat |= (seen[r] | seen[9 + c] | seen[b]) & bit;
        seen[r] |= bit;
        seen[9 + c] |= bit;
        seen[b] |= bit;
    }
    (repeat == 0).then(|| Grid::from_raw(cells))
}

/// Check a complete grid for repeated digits; `pos` gives each cell's line and column.
fn finish_grid(
    cells: [u8; CELLS],
    pos: &[(u32, u32); CELLS],
    line: usize,
) -> Result<ParsedPuzzle, ParseError> {
    // Values are 0..=9: they come from `cell_value`.
    let grid = Grid::from_raw(cells);
    match grid.first_conflict() {
        None => Ok(ParsedPuzzle { grid, line }),
        Some(conflict) => {
            let (l, c) = pos[conflict.second.index()];
            Err(ParseError {
                line: l as usize,
                column: c as usize,
                kind: ParseErrorKind::Conflict(conflict),
            })
        }
    }
}

impl Grid {
    /// Read exactly one puzzle from `text`, in either format (see [`crate::grid_parse`]); comment lines and
    /// blank lines are allowed around it.
    ///
    /// ```
    /// use sudoku::Grid;
    ///
    /// let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    /// let grid = Grid::parse(line)?;
    /// assert_eq!(Grid::parse(&grid.to_block())?, grid);
    ///
    /// let err = Grid::parse("44...............................................................................").unwrap_err();
    /// assert_eq!(err.to_string(), "line 1, column 2: 4 at r1c2 repeats the 4 at r1c1 in row 1");
    /// # Ok::<(), sudoku::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] naming the line and column: an unknown character, a wrong number of cells, an unfinished
    /// block, a repeated digit (naming both cells), no puzzle, or a second puzzle.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        let mut reader = PuzzleReader::new();
        let mut found: Option<Grid> = None;
        for line in text.lines() {
            for read in reader.read_line(line) {
                let read = read?;
                if found.is_some() {
                    return Err(ParseError {
                        line: read.line,
                        column: 1,
                        kind: ParseErrorKind::ExtraPuzzle,
                    });
                }
                found = Some(read.grid);
            }
        }
        if let Some(err) = reader.finish() {
            return Err(err);
        }
        found.ok_or(ParseError {
            line: reader.lines_read().max(1),
            column: 1,
            kind: ParseErrorKind::NoPuzzle,
        })
    }
}

impl FromStr for Grid {
    type Err = ParseError;
    /// Same as [`Grid::parse`].
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::parse(s)
    }
}
