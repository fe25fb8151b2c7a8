//! The puzzle stream shared by `sudoku solve` and `sudoku rate`: a file, standard input, or a puzzle given as the
//! argument, read line by line into chunks of [`Item`]s in input order, so memory stays constant however long the
//! input is.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context;
use sudoku::{Grid, ParseError, ParseErrorKind, PuzzleReader};

/// Longest line kept, in bytes; the rest of a longer line is skipped and the line reported.
pub(crate) const MAX_LINE: usize = 1 << 16;

/// Most bytes of an overlong line skipped in search of its end; past it, the input is not a file of puzzles
/// (`/dev/zero`, a disk image) and reading stops with an error instead of scanning on.
pub(crate) const MAX_SKIP: usize = 1 << 20;

/// Parse errors echoed on stderr before the rest are only counted.
pub(crate) const MAX_ERRORS_SHOWN: usize = 10;

/// One item of the input, in order.
pub(crate) enum Item {
    /// A puzzle read whole; `line` is where it ended.
    Puzzle { line: usize, grid: Grid },
    /// Something that could not be read, with where and why.
    Bad {
        line: usize,
        column: usize,
        message: String,
    },
}

impl Item {
    fn bad(err: &ParseError) -> Item {
        Item::Bad {
            line: err.line,
            column: err.column,
            message: err.to_string(),
        }
    }
}

/// Reads lines of at most [`MAX_LINE`] bytes, feeding a [`PuzzleReader`].
pub(crate) struct Input {
    /// How the input is named in messages: the file, `<stdin>`, or `the puzzle argument`.
    pub(crate) name: String,
    source: Box<dyn BufRead + Send>,
    reader: PuzzleReader,
    bytes: Vec<u8>,
    eof: bool,
}

impl Input {
    /// Open `file`: nothing or `-` is standard input; a path that names no file but reads as a puzzle (only cells
    /// and separators, at least 17 cells) is that puzzle; anything else is a file, which must open.
    pub(crate) fn open(file: Option<&Path>) -> anyhow::Result<Input> {
        let (name, source): (String, Box<dyn Read + Send>) = match file {
            None => ("<stdin>".to_string(), Box::new(io::stdin())),
            Some(p) if p.as_os_str() == "-" => ("<stdin>".to_string(), Box::new(io::stdin())),
            Some(p) if !p.exists() && looks_like_a_puzzle(&p.to_string_lossy()) => (
                "the puzzle argument".to_string(),
                Box::new(io::Cursor::new(
                    p.to_string_lossy().into_owned().into_bytes(),
                )),
            ),
            Some(p) => {
                let f = crate::files::open(p)?;
                (p.display().to_string(), Box::new(f))
            }
        };
        Ok(Input {
            name,
            source: Box::new(BufReader::with_capacity(1 << 20, source)),
            reader: PuzzleReader::new(),
            bytes: Vec::with_capacity(256),
            eof: false,
        })
    }

    /// Read up to `chunk` items into `items` (cleared first); `items` stays empty once the input is exhausted.
    pub(crate) fn fill(&mut self, items: &mut Vec<Item>, chunk: usize) -> anyhow::Result<()> {
        items.clear();
        while items.len() < chunk && !self.eof {
            let truncated = self.read_line()?;
            if self.eof && self.bytes.is_empty() {
                if let Some(err) = self.reader.finish() {
                    items.push(Item::bad(&err));
                }
                break;
            }
            if truncated {
                // Keep the line count in step; a comment line touches nothing else.
                let _ = self.reader.read_line("#");
                items.push(Item::Bad {
                    line: self.reader.lines_read(),
                    column: MAX_LINE + 1,
                    message: format!(
                        "line {}, column {}: the line is longer than {MAX_LINE} bytes",
                        self.reader.lines_read(),
                        MAX_LINE + 1
                    ),
                });
            } else {
                // A UTF-8 byte-order mark at the very start of the input is not part of the text.
                let start =
                    if self.reader.lines_read() == 0 && self.bytes.starts_with(b"\xef\xbb\xbf") {
                        3
                    } else {
                        0
                    };
                let text = String::from_utf8_lossy(&self.bytes[start..]);
                for read in self.reader.read_line(&text) {
                    items.push(match read {
                        Ok(p) => Item::Puzzle {
                            line: p.line,
                            grid: p.grid,
                        },
                        Err(e) => Item::bad(&e),
                    });
                }
            }
            // A last line without a newline: the input ends here, so a block it leaves open is an error.
            if self.eof
                && let Some(err) = self.reader.finish()
            {
                items.push(Item::bad(&err));
            }
        }
        Ok(())
    }

    /// The error for an input that held no puzzle at all (only comments and blank lines, or nothing).
    pub(crate) fn no_puzzle(&self) -> ParseError {
        ParseError {
            line: self.reader.lines_read().max(1),
            column: 1,
            kind: ParseErrorKind::NoPuzzle,
        }
    }

    /// Read one line into `self.bytes` (without the newline or a carriage return before it). Returns whether it
    /// was cut at [`MAX_LINE`]; the rest of a cut line is skipped.
    fn read_line(&mut self) -> anyhow::Result<bool> {
        self.bytes.clear();
        let mut truncated = false;
        let mut seen = 0usize;
        loop {
            let buf = match self.source.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).context("reading the puzzles"),
            };
            if buf.is_empty() {
                self.eof = true;
                return Ok(truncated);
            }
            let (take, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            let room = MAX_LINE.saturating_sub(self.bytes.len());
            if take > room {
                truncated = true;
            }
            seen = seen.saturating_add(take);
            if !done && seen > MAX_LINE + MAX_SKIP {
                anyhow::bail!(
                    "{}: line {}: no end of line within its first {} bytes; this is not a file of puzzles",
                    self.name,
                    self.reader.lines_read() + 1,
                    MAX_LINE + MAX_SKIP
                );
            }
            self.bytes.extend_from_slice(&buf[..take.min(room)]);
            self.source.consume(if done { take + 1 } else { take });
            if done {
                return Ok(truncated);
            }
        }
    }
}

/// Whether a command-line argument that names no file is a puzzle given directly: nothing but cells (digits and
/// blanks) and separators, with at least 17 cells.
fn looks_like_a_puzzle(arg: &str) -> bool {
    let cells = arg
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | '-' | '*'))
        .count();
    cells >= 17
        && arg.chars().all(|c| {
            c.is_ascii_digit() || matches!(c, '.' | '_' | '-' | '*' | '|' | '+' | ' ' | '\n')
        })
}
