//! A board: its holes on a lattice, its moves and its symmetry group, the built-in boards, hole names, and the
//! ASCII layout format it is read from and written as.

use std::collections::HashMap;

use super::error::{LayoutError, NameError, UnknownBoard};
use super::symmetry::{Lattice, Symmetry, square_maps, triangular_maps};
use crate::position::{Move, Position};

/// Most holes a board may have (one bit each in a `u64`).
pub const MAX_HOLES: usize = 64;

/// A board: holes, jumps and symmetries.
#[derive(Debug, Clone)]
pub struct Board {
    name: String,
    lattice: Lattice,
    /// Layout coordinates of each hole: (text column, line), 0-based, relative to the layout's bounding box.
    cells: Vec<(i32, i32)>,
    /// Lattice coordinates of each hole: (x, y) on the square lattice, axial (q, r) on the triangular one.
    lat: Vec<(i32, i32)>,
    width: i32,
    height: i32,
    names: Vec<String>,
    by_cell: HashMap<(i32, i32), usize>,
    moves: Vec<Move>,
    symmetries: Vec<Symmetry>,
    default_vacancy: usize,
    /// Per family of diagonals (a linear form mod 3 that no jump direction annuls): the holes of each residue.
    class_masks: Vec<[u64; 3]>,
}

/// The built-in boards: (name, aliases, lattice, layout, description).
const BUILTIN: &[(&str, &[&str], Lattice, &str, &str)] = &[
    (
        "english",
        &["british", "33"],
        Lattice::Square,
        "  ooo\n  ooo\nooooooo\nooooooo\nooooooo\n  ooo\n  ooo\n",
        "the English 33-hole cross",
    ),
    (
        "french",
        &["european", "37"],
        Lattice::Square,
        "  ooo\n ooooo\nooooooo\nooooooo\nooooooo\n ooooo\n  ooo\n",
        "the French (European) 37-hole board",
    ),
    (
        "triangle",
        &["15"],
        Lattice::Triangular,
        "    o\n   o o\n  o o o\n o o o o\no o o o o\n",
        "the 15-hole triangle",
    ),
    (
        "diamond",
        &["41"],
        Lattice::Square,
        "    o\n   ooo\n  ooooo\n ooooooo\nooooooooo\n ooooooo\n  ooooo\n   ooo\n    o\n",
        "the 41-hole diamond",
    ),
    (
        "wiegleb",
        &["45"],
        Lattice::Square,
        "   ooo\n   ooo\n   ooo\nooooooooo\nooooooooo\nooooooooo\n   ooo\n   ooo\n   ooo\n",
        "Wiegleb's 45-hole board",
    ),
];

/// Names of the built-in boards, the first one (`english`) being the default.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|b| b.0)
}

pub(super) fn column_letters(mut c: usize) -> String {
    // Spreadsheet style: a..z, aa..az, ba..
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (c % 26) as u8);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    s.reverse();
    String::from_utf8_lossy(&s).into_owned()
}

/// The column of a name's letters, the inverse of [`column_letters`] for any number of letters (columns past
/// `zzz`, the 18,278th, have four or more); `None` for other text or a column too large to count.
pub(super) fn parse_column_letters(s: &str) -> Option<usize> {
    if s.is_empty() {
        return None;
    }
    let mut v: usize = 0;
    for b in s.bytes() {
        let d = (b.to_ascii_lowercase()).checked_sub(b'a')?;
        if d >= 26 {
            return None;
        }
        v = v.checked_mul(26)?.checked_add(d as usize + 1)?;
    }
    Some(v - 1)
}

impl Board {
    /// A built-in board by name (`english`, `french`, `triangle`, `diamond`, `wiegleb`, or an alias such as
    /// `european`, `33`, `37`, `15`, `41`, `45`).
    pub fn builtin(name: &str) -> Result<Board, UnknownBoard> {
        let lower = name.to_ascii_lowercase();
        for (bname, aliases, lattice, layout, _) in BUILTIN {
            if *bname == lower || aliases.contains(&lower.as_str()) {
                // The built-in layouts are valid by construction (checked by the unit tests).
                #[allow(clippy::expect_used)]
                let (board, _) =
                    Board::from_layout(layout, *lattice, bname).expect("built-in layout");
                return Ok(board);
            }
        }
        Err(UnknownBoard {
            name: name.to_string(),
        })
    }

    /// The English 33-hole board, the default.
    pub fn english() -> Board {
        #[allow(clippy::expect_used)] // "english" is a built-in name
        Board::builtin("english").expect("built-in board")
    }

    /// A one-line description of a built-in board, if `name` is one.
    pub fn builtin_description(name: &str) -> Option<&'static str> {
        BUILTIN.iter().find(|b| b.0 == name).map(|b| b.4)
    }

    /// Parse an ASCII layout. Returns the board and the position drawn in the layout (`o` = peg, `.` = empty).
    ///
    /// Format: one text line per row; `o` is a hole with a peg, `.` an empty hole, a space or `_` no hole.
    /// Lines starting with `#` are comments. On the triangular lattice, holes of a row are two characters apart
    /// and neighbouring rows are offset by one character (see the built-in `triangle`).
    pub fn from_layout(
        text: &str,
        lattice: Lattice,
        name: &str,
    ) -> Result<(Board, Position), LayoutError> {
        let mut raw: Vec<(i32, i32, bool, usize, usize)> = Vec::new(); // x, y, peg, line, column
        let mut any_line = false;
        for (li, line) in text.lines().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.starts_with('#') {
                continue;
            }
            if !line.trim().is_empty() {
                any_line = true;
            }
            for (ci, ch) in line.chars().enumerate() {
                let peg = match ch {
                    'o' => true,
                    '.' => false,
                    ' ' | '_' => continue,
                    _ => {
                        return Err(LayoutError::UnknownChar {
                            ch,
                            line: li + 1,
                            column: ci + 1,
                        });
                    }
                };
                if raw.len() == MAX_HOLES {
                    return Err(LayoutError::TooManyHoles {
                        count: MAX_HOLES + 1,
                        line: li + 1,
                        column: ci + 1,
                    });
                }
                raw.push((ci as i32, li as i32, peg, li + 1, ci + 1));
            }
        }
        if !any_line {
            return Err(LayoutError::Empty);
        }
        if raw.is_empty() {
            return Err(LayoutError::NoHoles);
        }
        if lattice == Lattice::Triangular {
            let p0 = (raw[0].0 + raw[0].1).rem_euclid(2);
            for &(x, y, _, line, column) in &raw {
                if (x + y).rem_euclid(2) != p0 {
                    return Err(LayoutError::OffLattice { line, column });
                }
            }
        }
        let minx = raw.iter().map(|r| r.0).min().unwrap_or(0);
        let miny = raw.iter().map(|r| r.1).min().unwrap_or(0);
        let cells: Vec<(i32, i32)> = raw.iter().map(|r| (r.0 - minx, r.1 - miny)).collect();
        let mut pegs = 0u64;
        for (i, r) in raw.iter().enumerate() {
            if r.2 {
                pegs |= 1 << i;
            }
        }
        Ok((
            Board::from_cells(name, lattice, cells),
            Position::from_bits(pegs),
        ))
    }

    /// Build a board from hole cells in reading order (already validated).
    fn from_cells(name: &str, lattice: Lattice, cells: Vec<(i32, i32)>) -> Board {
        let n = cells.len();
        let width = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let height = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let by_cell: HashMap<(i32, i32), usize> =
            cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        // Lattice coordinates.
        let lat: Vec<(i32, i32)> = match lattice {
            Lattice::Square => cells.clone(),
            Lattice::Triangular => {
                let p0 = (cells[0].0 + cells[0].1).rem_euclid(2);
                cells
                    .iter()
                    .map(|&(x, y)| ((x - y - p0).div_euclid(2), y))
                    .collect()
            }
        };
        let by_lat: HashMap<(i32, i32), usize> =
            lat.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let dirs: &[(i32, i32)] = match lattice {
            Lattice::Square => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            Lattice::Triangular => &[(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)],
        };
        let mut moves = Vec::new();
        for (a, &(q, r)) in lat.iter().enumerate() {
            for &(dq, dr) in dirs {
                if let (Some(&b), Some(&c)) = (
                    by_lat.get(&(q + dq, r + dr)),
                    by_lat.get(&(q + 2 * dq, r + 2 * dr)),
                ) {
                    moves.push(Move::new(a, b, c));
                }
            }
        }
        moves.sort();
        // Symmetries: linear lattice maps plus the translation that fixes the set of holes.
        let maps = match lattice {
            Lattice::Square => square_maps(),
            Lattice::Triangular => triangular_maps(),
        };
        let sum = lat
            .iter()
            .fold((0i64, 0i64), |s, &(q, r)| (s.0 + q as i64, s.1 + r as i64));
        let mut symmetries: Vec<Symmetry> = Vec::new();
        for m in maps {
            let apply = |q: i64, r: i64| {
                (
                    m[0][0] as i64 * q + m[0][1] as i64 * r,
                    m[1][0] as i64 * q + m[1][1] as i64 * r,
                )
            };
            let ls = apply(sum.0, sum.1);
            let (tx, ty) = (sum.0 - ls.0, sum.1 - ls.1);
            let nn = n as i64;
            if tx % nn != 0 || ty % nn != 0 {
                continue;
            }
            let (tx, ty) = (tx / nn, ty / nn);
            let mut perm = Vec::with_capacity(n);
            for &(q, r) in &lat {
                let (a, b) = apply(q as i64, r as i64);
                match by_lat.get(&((a + tx) as i32, (b + ty) as i32)) {
                    Some(&j) => perm.push(j as u8),
                    None => break,
                }
            }
            if perm.len() == n {
                let s = Symmetry { perm };
                if !symmetries.contains(&s) {
                    symmetries.push(s);
                }
            }
        }
        // The identity is always found first (the first map is the identity, translation zero).
        let names: Vec<String> = match lattice {
            Lattice::Square => cells
                .iter()
                .map(|&(x, y)| format!("{}{}", column_letters(x as usize), y + 1))
                .collect(),
            Lattice::Triangular => (1..=n).map(|i| i.to_string()).collect(),
        };
        // Default vacancy: the hole fixed by every symmetry (the centre) if there is exactly one, else hole 0.
        let fixed: Vec<usize> = (0..n)
            .filter(|&h| symmetries.iter().all(|s| s.map_hole(h) == h))
            .collect();
        let default_vacancy = if fixed.len() == 1 { fixed[0] } else { 0 };
        // Position classes: a jump takes three consecutive holes of a line, which fall in three different residues
        // of any linear form (a x + b y) mod 3 that is non-zero on every jump direction; so every jump flips the
        // parity of the peg count of each residue, and the two parity differences are invariant.
        let mut class_masks = Vec::new();
        for (a, b) in [(1i32, 1i32), (1, 2)] {
            if dirs
                .iter()
                .any(|&(dx, dy)| (a * dx + b * dy).rem_euclid(3) == 0)
            {
                continue;
            }
            let mut m = [0u64; 3];
            for (h, &(x, y)) in lat.iter().enumerate() {
                m[(a * x + b * y).rem_euclid(3) as usize] |= 1 << h;
            }
            class_masks.push(m);
        }
        Board {
            name: name.to_string(),
            lattice,
            cells,
            lat,
            width,
            height,
            names,
            by_cell,
            moves,
            symmetries,
            default_vacancy,
            class_masks,
        }
    }

    /// The board's name (`english`, ..., or the name given to a layout).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lattice.
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }

    /// Number of holes.
    pub fn holes(&self) -> usize {
        self.cells.len()
    }

    /// The position with a peg in every hole.
    pub fn full(&self) -> Position {
        let n = self.holes();
        Position::from_bits(if n == 64 { u64::MAX } else { (1u64 << n) - 1 })
    }

    /// Every jump of the board (legal or not in a given position), sorted.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The board's symmetry group (the identity first).
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The symmetries of the board that map `pos` onto itself (a subgroup; the identity first).
    pub fn stabilizer(&self, pos: Position) -> Vec<Symmetry> {
        self.symmetries
            .iter()
            .filter(|s| s.apply(pos) == pos)
            .cloned()
            .collect()
    }

    /// The standard vacancy: the centre (the hole every symmetry fixes) when there is one, otherwise the first
    /// hole in reading order (the triangle's top corner).
    pub fn default_vacancy(&self) -> usize {
        self.default_vacancy
    }

    /// The standard start: every hole filled except the standard vacancy.
    pub fn default_start(&self) -> Position {
        self.full().without_peg(self.default_vacancy)
    }

    /// The name of a hole (`d4` on square boards, `1`..`15` on the triangle).
    pub fn hole_name(&self, hole: usize) -> &str {
        &self.names[hole]
    }

    /// All hole names, by hole index.
    pub fn hole_names(&self) -> &[String] {
        &self.names
    }

    /// Layout cell (column, line), 0-based, of a hole. On the triangular lattice the column is the text column
    /// (holes of a row are two apart).
    pub fn cell(&self, hole: usize) -> (i32, i32) {
        self.cells[hole]
    }

    /// Lattice coordinates of a hole: (column, row) on the square lattice, axial (q, r) on the triangular one
    /// (jumps go along (1, 0), (0, 1) and (-1, 1)).
    pub fn lattice_coords(&self, hole: usize) -> (i32, i32) {
        self.lat[hole]
    }

    /// Width and height of the layout's bounding box in text columns and lines.
    pub fn size(&self) -> (i32, i32) {
        (self.width, self.height)
    }

    /// The hole at a layout cell, if any.
    pub fn hole_at(&self, column: i32, line: i32) -> Option<usize> {
        self.by_cell.get(&(column, line)).copied()
    }

    fn naming_scheme(&self) -> String {
        match self.lattice {
            Lattice::Square => format!(
                "by column letter a..{} and row number 1..{} from the top, e.g. {}",
                column_letters((self.width - 1).max(0) as usize),
                self.height,
                self.names[self.default_vacancy]
            ),
            Lattice::Triangular => format!("1..{} row by row from the top", self.holes()),
        }
    }

    /// The hole with this name (case-insensitive).
    pub fn parse_hole(&self, name: &str) -> Result<usize, NameError> {
        let t = name.trim();
        let found = match self.lattice {
            Lattice::Triangular => t
                .parse::<usize>()
                .ok()
                .filter(|&k| k >= 1 && k <= self.holes())
                .map(|k| k - 1),
            Lattice::Square => {
                let split = t.find(|c: char| c.is_ascii_digit()).unwrap_or(t.len());
                let (letters, digits) = t.split_at(split);
                match (parse_column_letters(letters), digits.parse::<i32>()) {
                    (Some(c), Ok(r))
                        if letters.chars().all(|c| c.is_ascii_alphabetic()) && r >= 1 =>
                    {
                        i32::try_from(c).ok().and_then(|c| self.hole_at(c, r - 1))
                    }
                    _ => None,
                }
            }
        };
        found.ok_or_else(|| NameError::UnknownHole {
            name: name.to_string(),
            board: self.name.clone(),
            range: self.naming_scheme(),
        })
    }

    /// Parse a move written `FROM-TO` (for example `d2-d4`, or `4-1` on the triangle). The jumped hole is the
    /// one between. Whether the move is legal in a given position is a separate question
    /// ([`Board::is_legal`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, NameError> {
        let t = text.trim();
        let example = self
            .moves
            .first()
            .map(|m| self.format_move(*m))
            .unwrap_or_default();
        let Some((a, b)) = t.split_once('-') else {
            return Err(NameError::MalformedMove {
                text: text.to_string(),
                example,
            });
        };
        let from = self.parse_hole(a)?;
        let to = self.parse_hole(b)?;
        self.moves
            .iter()
            .find(|m| m.from() == from && m.to() == to)
            .copied()
            .ok_or_else(|| NameError::NotAJump {
                text: text.to_string(),
                from: self.names[from].clone(),
                to: self.names[to].clone(),
            })
    }

    /// Format a move as `FROM-TO`.
    pub fn format_move(&self, mv: Move) -> String {
        format!("{}-{}", self.names[mv.from()], self.names[mv.to()])
    }

    /// Format a list of moves separated by spaces.
    pub fn format_moves(&self, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|&m| self.format_move(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether `mv` is legal in `pos`: pegs on `from` and `over`, `to` empty.
    pub fn is_legal(&self, pos: Position, mv: Move) -> bool {
        mv.is_legal(pos)
    }

    /// All legal moves in `pos`, in the board's move order.
    pub fn legal_moves(&self, pos: Position) -> Vec<Move> {
        self.moves
            .iter()
            .copied()
            .filter(|m| m.is_legal(pos))
            .collect()
    }

    /// Whether `pos` has at least one legal move.
    pub fn has_move(&self, pos: Position) -> bool {
        self.moves.iter().any(|m| m.is_legal(pos))
    }

    /// The position class of `pos` (de Bruijn, Conway): an invariant of play. A position can only reach another
    /// one of the same class; in particular a single peg on `h` only from positions of the class of `h`.
    pub fn position_class(&self, pos: Position) -> u8 {
        let mut c = 0u8;
        for (i, m) in self.class_masks.iter().enumerate() {
            let p = m.map(|mask| (pos.bits() & mask).count_ones() as u8 & 1);
            c |= ((p[0] ^ p[1]) | (p[1] ^ p[2]) << 1) << (2 * i);
        }
        c
    }

    /// The smallest image of `pos` under the given symmetries (its normal form), by the bits as a number.
    pub fn normalize_with(pos: Position, symmetries: &[Symmetry]) -> Position {
        symmetries.iter().map(|s| s.apply(pos)).min().unwrap_or(pos)
    }

    /// The normal form of `pos` under the whole symmetry group of the board.
    pub fn normalize(&self, pos: Position) -> Position {
        Board::normalize_with(pos, &self.symmetries)
    }

    /// The board drawn as text with the position's pegs (`o`) and empty holes (`.`), one line per row, in the
    /// layout format (so it can be read back with [`Board::from_layout`]).
    pub fn layout_string(&self, pos: Position) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            let mut line = String::new();
            for x in 0..self.width {
                line.push(match self.hole_at(x, y) {
                    Some(h) if pos.has_peg(h) => 'o',
                    Some(_) => '.',
                    None => ' ',
                });
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// The board drawn with the position and coordinates: column letters on top and row numbers on the left
    /// (square lattice), or with the hole numbers beside it (triangle).
    pub fn render(&self, pos: Position) -> String {
        match self.lattice {
            Lattice::Square => {
                let mut out = String::from("  ");
                for x in 0..self.width {
                    out.push(' ');
                    out.push_str(&format!("{:<1}", column_letters(x as usize)));
                }
                out.push('\n');
                for y in 0..self.height {
                    let mut line = format!("{:>2}", y + 1);
                    for x in 0..self.width {
                        line.push(' ');
                        line.push(match self.hole_at(x, y) {
                            Some(h) if pos.has_peg(h) => 'o',
                            Some(_) => '.',
                            None => ' ',
                        });
                    }
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
                out
            }
            Lattice::Triangular => {
                let mut out = String::new();
                for y in 0..self.height {
                    let mut line = String::new();
                    let mut nums = String::new();
                    for x in 0..self.width {
                        match self.hole_at(x, y) {
                            Some(h) => {
                                line.push(if pos.has_peg(h) { 'o' } else { '.' });
                                if !nums.is_empty() {
                                    nums.push(' ');
                                }
                                nums.push_str(&self.names[h]);
                            }
                            None => line.push(' '),
                        }
                    }
                    let pad = (self.width as usize).saturating_sub(line.trim_end().len());
                    out.push_str(line.trim_end());
                    out.push_str(&" ".repeat(pad + 4));
                    out.push_str(&nums);
                    out.push('\n');
                }
                out
            }
        }
    }

    /// The board drawn with every hole's name in place of the hole.
    pub fn render_names(&self) -> String {
        let w = self.names.iter().map(|s| s.len()).max().unwrap_or(1);
        let cellw = match self.lattice {
            Lattice::Square => w + 1,
            Lattice::Triangular => w.div_ceil(2) + 1,
        };
        let mut lines = Vec::new();
        for y in 0..self.height {
            let mut line = String::new();
            for x in 0..self.width {
                let s = match self.hole_at(x, y) {
                    Some(h) => format!("{:>width$}", self.names[h], width = cellw),
                    None => " ".repeat(cellw),
                };
                line.push_str(&s);
            }
            lines.push(line.trim_end().to_string());
        }
        // Remove the indentation common to every line.
        let indent = lines
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let mut out = String::new();
        for l in lines {
            out.push_str(l.get(indent..).unwrap_or(""));
            out.push('\n');
        }
        out
    }
}
