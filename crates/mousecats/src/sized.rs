//! Positions on a board of any even size from 4x4 to 16x16, and the position text (one-line notation and
//! diagrams) of every size, which the classic 8x8 [`Position`] also reads and writes.

use std::fmt;
use std::str::FromStr;

use crate::board::Side;
use crate::board_position::BoardPosition;
use crate::error::{MoveError, ParseError, SquareError};
use crate::position::{Position, Rule};
use crate::size::{BoardSize, Coord, Geometry};

/// A move on a board of any size: one piece from one square to a diagonally adjacent one.
///
/// Moves print as `E1-F2` and parse from `E1-F2`, `e10-f11`, `E1F2` or `e10f11`:
///
/// ```
/// use mousecats::SizedMove;
/// let mv: SizedMove = "j10i9".parse().unwrap();
/// assert_eq!(mv.to_string(), "J10-I9");
/// assert_eq!(mv.to_compact(), "j10i9");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SizedMove {
    from: Coord,
    to: Coord,
}

impl SizedMove {
    /// The move from `from` to `to` (not checked against any position).
    pub const fn new(from: Coord, to: Coord) -> SizedMove {
        SizedMove { from, to }
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Coord {
        self.from
    }

    /// The square the piece goes to.
    pub const fn to(self) -> Coord {
        self.to
    }

    /// The lower-case form without a dash, for example `e1f2`.
    pub fn to_compact(self) -> String {
        format!("{}{}", self.from, self.to).to_ascii_lowercase()
    }
}

impl fmt::Display for SizedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Debug for SizedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for SizedMove {
    type Err = ParseError;

    /// Two square names, with or without one `-` between them. Works on characters, so any text is
    /// answered with a value or an error, never a panic.
    fn from_str(s: &str) -> Result<SizedMove, ParseError> {
        let t = s.trim();
        let bad = || ParseError::Move(t.to_string());
        let chars: Vec<char> = t.chars().collect();
        // A square: a letter and one or two digits.
        let square_end = |start: usize| -> Option<usize> {
            let first = *chars.get(start)?;
            if !first.is_ascii_alphabetic() {
                return None;
            }
            let mut end = start + 1;
            while end < chars.len() && chars[end].is_ascii_digit() && end - start <= 2 {
                end += 1;
            }
            (end > start + 1).then_some(end)
        };
        let a_end = square_end(0).ok_or_else(bad)?;
        let b_start = if chars.get(a_end) == Some(&'-') {
            a_end + 1
        } else {
            a_end
        };
        let b_end = square_end(b_start).ok_or_else(bad)?;
        if b_end != chars.len() {
            return Err(bad());
        }
        let text = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
        match (
            text(0, a_end).parse::<Coord>(),
            text(b_start, b_end).parse::<Coord>(),
        ) {
            (Ok(from), Ok(to)) => Ok(SizedMove { from, to }),
            _ => Err(bad()),
        }
    }
}

impl From<crate::Move> for SizedMove {
    fn from(m: crate::Move) -> SizedMove {
        SizedMove::new(m.from().into(), m.to().into())
    }
}

/// The moves of one position: at most 16 (eight cats, two steps each), kept on the stack.
#[derive(Clone, Copy)]
pub struct SizedMoveList {
    moves: [SizedMove; 16],
    len: u8,
}

impl SizedMoveList {
    const fn new() -> SizedMoveList {
        SizedMoveList {
            moves: [SizedMove::new(Coord::pack(0, 0), Coord::pack(0, 0)); 16],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, mv: SizedMove) {
        if let Some(slot) = self.moves.get_mut(usize::from(self.len)) {
            *slot = mv;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for SizedMoveList {
    type Target = [SizedMove];
    fn deref(&self) -> &[SizedMove] {
        &self.moves[..usize::from(self.len)]
    }
}

impl fmt::Debug for SizedMoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a SizedMoveList {
    type Item = &'a SizedMove;
    type IntoIter = std::slice::Iter<'a, SizedMove>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A position on a board of any size: where the mouse and the N/2 cats stand and whose turn it is, with
/// its Zobrist hash and lock (random keys of its own size; on 8x8 the classic engine's keys, so both
/// position types hash an 8x8 position alike).
///
/// It prints and parses as one line: the 8x8 notation of [`Position`], with `size=N` in front on other
/// boards (`size=10 mouse=E1 cats=B10,D10,F10,H10,J10 turn=mouse`); or as an N-line diagram.
///
/// ```
/// use mousecats::{BoardSize, Rule, SizedPosition};
/// let size = BoardSize::new(10).unwrap();
/// let p = SizedPosition::start(size);
/// assert_eq!(p.to_string(), "size=10 mouse=E1 cats=B10,D10,F10,H10,J10 turn=mouse");
/// assert_eq!(p.to_string().parse::<SizedPosition>().unwrap(), p);
/// assert_eq!(p.diagram().parse::<SizedPosition>().unwrap(), p);
/// assert_eq!(p.moves().len(), 2);
/// let q = p.play("E1-F2".parse().unwrap(), Rule::FarRow).unwrap();
/// assert_eq!(q.moves().len(), 9);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SizedPosition {
    cats: u128,
    hash: u64,
    lock: u32,
    size: BoardSize,
    mouse: u8,
    turn: Side,
}

impl SizedPosition {
    /// The start of `size`: the cats on the dark squares of row N, the mouse on its default square
    /// ([`BoardSize::default_mouse`]), the mouse to move.
    pub fn start(size: BoardSize) -> SizedPosition {
        let geo = size.geometry();
        let cats = geo.row_mask[usize::from(size.n()) - 1];
        let mouse = size.dark_index(size.default_mouse()).unwrap_or(0);
        SizedPosition::from_parts(size, mouse, cats, Side::Mouse)
    }

    /// The start of `size` with the mouse on `mouse` (any free dark square of the board) and `first` to
    /// move.
    ///
    /// # Errors
    /// A [`ParseError`] if `mouse` is off the board, light, or on a cat.
    pub fn start_with(
        size: BoardSize,
        mouse: Coord,
        first: Side,
    ) -> Result<SizedPosition, ParseError> {
        let cats: Vec<Coord> = size.cat_start().collect();
        SizedPosition::new(size, mouse, &cats, first)
    }

    /// A position from its pieces, checked: all squares on the board and dark, exactly N/2 cats, no
    /// square used twice.
    ///
    /// # Errors
    /// A [`ParseError`] naming the first problem.
    pub fn new(
        size: BoardSize,
        mouse: Coord,
        cats: &[Coord],
        turn: Side,
    ) -> Result<SizedPosition, ParseError> {
        let m = check_square(size, mouse)?;
        let dark = cats
            .iter()
            .map(|&c| check_square(size, c))
            .collect::<Result<Vec<u8>, ParseError>>()?;
        if cats.len() != usize::from(size.cats()) {
            return Err(ParseError::CatCount {
                found: cats.len(),
                expected: usize::from(size.cats()),
                size,
            });
        }
        let mut set = 0u128;
        for (&c, &d) in cats.iter().zip(&dark) {
            if set >> d & 1 != 0 || d == m {
                return Err(ParseError::Occupied(c));
            }
            set |= 1 << d;
        }
        Ok(SizedPosition::from_parts(size, m, set, turn))
    }

    /// A position from dark indices (see [`BoardSize::dark_index`]), or `None` unless the mouse and the
    /// N/2 cats are on distinct dark squares of the board.
    pub fn from_dark(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> Option<SizedPosition> {
        let geo = size.geometry();
        let valid = u32::from(mouse) < geo.dark
            && cats & !geo.all == 0
            && cats.count_ones() == u32::from(size.cats())
            && cats >> mouse & 1 == 0;
        valid.then(|| SizedPosition::from_parts(size, mouse, cats, turn))
    }

    fn from_parts(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> SizedPosition {
        let mut p = SizedPosition {
            cats,
            hash: 0,
            lock: 0,
            size,
            mouse,
            turn,
        };
        p.hash = p.compute_hash();
        p.lock = p.compute_lock();
        p
    }

    #[inline(always)]
    fn geo(&self) -> &'static Geometry {
        self.size.geometry()
    }

    /// The board size.
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The mouse's square.
    pub fn mouse(&self) -> Coord {
        self.geo().coord[usize::from(self.mouse)]
    }

    /// The mouse's dark index.
    pub const fn mouse_dark(&self) -> u8 {
        self.mouse
    }

    /// The cats' dark indices as a set.
    pub const fn cats_dark(&self) -> u128 {
        self.cats
    }

    /// The cats' squares, lowest first.
    pub fn cat_squares(&self) -> Vec<Coord> {
        let geo = self.geo();
        bits(self.cats).map(|d| geo.coord[d as usize]).collect()
    }

    /// Whether a cat stands on `c`.
    pub fn has_cat(&self, c: Coord) -> bool {
        self.size
            .dark_index(c)
            .is_some_and(|d| self.cats >> d & 1 != 0)
    }

    /// The side to move.
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The same pieces with `turn` to move.
    pub fn with_turn(&self, turn: Side) -> SizedPosition {
        SizedPosition::from_parts(self.size, self.mouse, self.cats, turn)
    }

    /// The 64-bit Zobrist hash (kept incrementally; equal to [`SizedPosition::compute_hash`]).
    pub const fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The 32-bit lock, from key tables independent of the hash's.
    pub const fn zobrist_lock(&self) -> u32 {
        self.lock
    }

    /// The hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let geo = self.geo();
        let mut h = geo.mouse_hash[usize::from(self.mouse)];
        for c in bits(self.cats) {
            h ^= geo.cat_hash[c as usize];
        }
        if self.turn == Side::Cats {
            h ^= geo.cats_to_move_hash;
        }
        h
    }

    /// The lock computed from scratch.
    pub fn compute_lock(&self) -> u32 {
        let geo = self.geo();
        let mut h = geo.mouse_lock[usize::from(self.mouse)];
        for c in bits(self.cats) {
            h ^= geo.cat_lock[c as usize];
        }
        if self.turn == Side::Cats {
            h ^= geo.cats_to_move_lock;
        }
        h
    }

    /// The highest row (from zero) any cat stands on.
    #[inline]
    pub fn top_cat_row(&self) -> u8 {
        self.geo().row[127 - self.cats.leading_zeros() as usize]
    }

    /// The lowest row any cat stands on.
    #[inline]
    pub fn bottom_cat_row(&self) -> u8 {
        self.geo().row[self.cats.trailing_zeros() as usize]
    }

    /// Whether the mouse stands on a row no lower than every cat's row.
    #[inline]
    pub fn mouse_escaped(&self) -> bool {
        self.mouse().row() >= self.top_cat_row()
    }

    /// The dark squares no cat can ever reach, whatever the other pieces do (outside every cat's forward
    /// cone). The [`Rule::Region`] rule looks at them.
    pub fn out_of_reach(&self) -> u128 {
        self.geo().out_of_reach(self.cats)
    }

    /// Whether the mouse has already won under `rule`, whoever is to move: it stands on row N
    /// ([`Rule::FarRow`]), or also on a row no lower than every cat ([`Rule::Escape`]); or, under
    /// [`Rule::Region`], on a square no cat can reach beside another such square.
    #[inline]
    pub fn mouse_has_won(&self, rule: Rule) -> bool {
        self.geo().mouse_won(self.cats, rule) >> self.mouse & 1 != 0
    }

    /// Whether the side to move has at least one move.
    #[inline]
    pub fn has_moves(&self) -> bool {
        let geo = self.geo();
        match self.turn {
            Side::Mouse => geo.mouse_steps[usize::from(self.mouse)] & !self.cats != 0,
            Side::Cats => {
                let h = geo.half;
                let free = geo.all & !self.cats & !(1u128 << self.mouse);
                let even = self.cats & geo.even_not_left;
                let odd = self.cats & geo.odd_not_right;
                let down = self.cats >> h | even >> (h + 1) | odd >> (h - 1);
                down & free != 0
            }
        }
    }

    /// The winner if the game is over under `rule`: the mouse has won, or the side to move has no move
    /// (it loses). `None` while the game goes on.
    pub fn outcome(&self, rule: Rule) -> Option<Side> {
        if self.mouse_has_won(rule) {
            Some(Side::Mouse)
        } else if !self.has_moves() {
            Some(self.turn.opponent())
        } else {
            None
        }
    }

    /// The moves of the side to move, whether or not the game has already ended. The mouse's upward
    /// steps come first; the cats' moves go by the cat's square, lowest first (the order of the 8x8
    /// [`Position::moves`]).
    #[inline]
    pub fn moves(&self) -> SizedMoveList {
        let geo = self.geo();
        let mut list = SizedMoveList::new();
        match self.turn {
            Side::Mouse => {
                let from = geo.coord[usize::from(self.mouse)];
                let mut t = geo.mouse_steps[usize::from(self.mouse)] & !self.cats;
                while t != 0 {
                    let to = 127 - t.leading_zeros() as usize;
                    t &= !(1u128 << to);
                    list.push(SizedMove::new(from, geo.coord[to]));
                }
            }
            Side::Cats => {
                let empty = !self.cats & !(1u128 << self.mouse);
                let mut cats = self.cats;
                while cats != 0 {
                    let from = cats.trailing_zeros() as usize;
                    cats &= cats - 1;
                    let mut t = geo.cat_steps[from] & empty;
                    while t != 0 {
                        let to = t.trailing_zeros() as usize;
                        t &= t - 1;
                        list.push(SizedMove::new(geo.coord[from], geo.coord[to]));
                    }
                }
            }
        }
        list
    }

    /// The moves of the side to move, or none once the game is over under `rule`.
    pub fn legal_moves(&self, rule: Rule) -> SizedMoveList {
        if self.mouse_has_won(rule) {
            SizedMoveList::new()
        } else {
            self.moves()
        }
    }

    /// The dark indices of a move's squares on this board.
    #[inline]
    fn dark_pair(&self, mv: SizedMove) -> Option<(usize, usize)> {
        let geo = self.geo();
        let f = geo.dark_of[usize::from(mv.from.packed())];
        let t = geo.dark_of[usize::from(mv.to.packed())];
        (f != 255 && t != 255 && self.size.contains(mv.from) && self.size.contains(mv.to))
            .then_some((usize::from(f), usize::from(t)))
    }

    /// Whether `mv` is one of [`SizedPosition::moves`].
    pub fn is_move(&self, mv: SizedMove) -> bool {
        let geo = self.geo();
        let Some((from, to)) = self.dark_pair(mv) else {
            return false;
        };
        match self.turn {
            Side::Mouse => {
                from == usize::from(self.mouse)
                    && (geo.mouse_steps[from] & !self.cats) >> to & 1 != 0
            }
            Side::Cats => {
                self.cats >> from & 1 != 0
                    && (geo.cat_steps[from] & !self.cats & !(1u128 << self.mouse)) >> to & 1 != 0
            }
        }
    }

    /// The position after `mv`, which must be one of [`SizedPosition::moves`] (not checked; see
    /// [`SizedPosition::play`]). Copy-make: the hash and lock are updated incrementally.
    #[inline]
    pub fn make_move(&self, mv: SizedMove) -> SizedPosition {
        debug_assert!(self.is_move(mv), "{mv} in {self}");
        let geo = self.geo();
        let Some((from, to)) = self.dark_pair(mv) else {
            return *self;
        };
        let mut p = *self;
        match self.turn {
            Side::Mouse => {
                p.mouse = to as u8;
                p.hash ^= geo.mouse_hash[from] ^ geo.mouse_hash[to] ^ geo.cats_to_move_hash;
                p.lock ^= geo.mouse_lock[from] ^ geo.mouse_lock[to] ^ geo.cats_to_move_lock;
                p.turn = Side::Cats;
            }
            Side::Cats => {
                p.cats ^= 1u128 << from | 1u128 << to;
                p.hash ^= geo.cat_hash[from] ^ geo.cat_hash[to] ^ geo.cats_to_move_hash;
                p.lock ^= geo.cat_lock[from] ^ geo.cat_lock[to] ^ geo.cats_to_move_lock;
                p.turn = Side::Mouse;
            }
        }
        p
    }

    /// The hash of the position after `mv` (one of [`SizedPosition::moves`]), without making the move.
    #[inline]
    pub fn hash_after(&self, mv: SizedMove) -> u64 {
        let geo = self.geo();
        let Some((from, to)) = self.dark_pair(mv) else {
            return self.hash;
        };
        let keys = match self.turn {
            Side::Mouse => &geo.mouse_hash,
            Side::Cats => &geo.cat_hash,
        };
        self.hash ^ keys[from] ^ keys[to] ^ geo.cats_to_move_hash
    }

    /// The position after `mv`, checked: the game must not be over under `rule` and `mv` must be legal.
    ///
    /// # Errors
    /// A [`MoveError`] saying why not.
    pub fn play(
        &self,
        mv: SizedMove,
        rule: Rule,
    ) -> Result<SizedPosition, MoveError<SizedMove, Coord>> {
        if let Some(winner) = self.outcome(rule) {
            return Err(MoveError::GameOver(winner));
        }
        if self.is_move(mv) {
            return Ok(self.make_move(mv));
        }
        let own = match self.turn {
            Side::Mouse => mv.from() == self.mouse(),
            Side::Cats => self.has_cat(mv.from()),
        };
        if let Some(square) = Some(mv.from()).filter(|sq| !sq.is_dark()) {
            return Err(MoveError::LightSquare { mv, square });
        }
        if !own {
            return Err(MoveError::NotYourPiece {
                mv,
                side: self.turn,
                from: mv.from(),
            });
        }
        let legal = self
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        Err(MoveError::Illegal {
            mv,
            side: self.turn,
            legal,
        })
    }

    /// The N-line diagram, row N first, with coordinates and a final `turn=` line. Dark squares show `.`
    /// (empty), `M` (mouse) or `C` (cat); light squares are blank. The 8x8 diagram is
    /// [`Position::diagram`]'s.
    pub fn diagram(&self) -> String {
        let mouse = self.mouse();
        let cats = self.cats;
        let size = self.size;
        diagram(size, self.turn, |c| {
            if c == mouse {
                'M'
            } else if size.dark_index(c).is_some_and(|d| cats >> d & 1 != 0) {
                'C'
            } else {
                '.'
            }
        })
    }

    /// Parse a position of any size: the one-line notation (with an optional `size=N` field) or a
    /// diagram (its number of rows gives the size). `size`, when given, is the size asked for: a text of
    /// another size is refused; a text that does not say defaults to it (else to 8x8).
    ///
    /// # Errors
    /// A [`ParseError`] naming the problem and where.
    pub fn parse(text: &str, size: Option<BoardSize>) -> Result<SizedPosition, ParseError> {
        let p = parse_text(text, size)?;
        SizedPosition::new(p.size, p.mouse, &p.cats, p.turn)
    }
}

/// The set bits of `set`, lowest first.
fn bits(set: u128) -> impl Iterator<Item = u32> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let b = rest.trailing_zeros();
            rest &= rest - 1;
            b
        })
    })
}

/// The dark index of `c`, checked against the board.
fn check_square(size: BoardSize, c: Coord) -> Result<u8, ParseError> {
    if !size.contains(c) {
        return Err(SquareError::OffBoard { square: c, size }.into());
    }
    size.dark_index(c)
        .ok_or_else(|| SquareError::Light(c).into())
}

impl fmt::Display for SizedPosition {
    /// The one-line notation; `size=N` first unless the board is 8x8.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cats: Vec<String> = self.cat_squares().iter().map(ToString::to_string).collect();
        if self.size != BoardSize::EIGHT {
            write!(f, "size={} ", self.size.n())?;
        }
        write!(
            f,
            "mouse={} cats={} turn={}",
            self.mouse(),
            cats.join(","),
            self.turn
        )
    }
}

impl fmt::Debug for SizedPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for SizedPosition {
    type Err = ParseError;
    /// As [`SizedPosition::parse`] with no size asked for.
    fn from_str(s: &str) -> Result<SizedPosition, ParseError> {
        SizedPosition::parse(s, None)
    }
}

impl From<Position> for SizedPosition {
    fn from(p: Position) -> SizedPosition {
        SizedPosition::from_parts(
            BoardSize::EIGHT,
            BoardPosition::mouse_dark(&p),
            BoardPosition::cats_dark(&p),
            p.turn(),
        )
    }
}

impl TryFrom<SizedPosition> for Position {
    type Error = ParseError;
    fn try_from(p: SizedPosition) -> Result<Position, ParseError> {
        Position::from_dark(p.size, p.mouse, p.cats, p.turn).ok_or(ParseError::SizeMismatch {
            found: p.size,
            expected: BoardSize::EIGHT,
        })
    }
}

impl BoardPosition for SizedPosition {
    type Move = SizedMove;
    type Moves = SizedMoveList;
    type Key = (u128, u8);
    type PlayError = MoveError<SizedMove, Coord>;

    const NULL_MOVE: SizedMove = SizedMove::new(Coord::pack(0, 0), Coord::pack(0, 0));

    #[inline]
    fn board_size(&self) -> BoardSize {
        self.size
    }
    fn start_at(size: BoardSize, mouse: Coord, first: Side) -> Result<SizedPosition, ParseError> {
        SizedPosition::start_with(size, mouse, first)
    }
    fn parse_text(text: &str, size: Option<BoardSize>) -> Result<SizedPosition, ParseError> {
        SizedPosition::parse(text, size)
    }
    fn diagram(&self) -> String {
        SizedPosition::diagram(self)
    }
    fn mouse_square(&self) -> Coord {
        self.mouse()
    }
    #[inline]
    fn turn(&self) -> Side {
        self.turn
    }
    #[inline]
    fn with_turn(&self, turn: Side) -> SizedPosition {
        SizedPosition::with_turn(self, turn)
    }
    #[inline]
    fn zobrist_hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    fn zobrist_lock(&self) -> u32 {
        self.lock
    }
    #[inline]
    fn exact_key(&self) -> (u128, u8) {
        (
            self.cats,
            self.mouse | u8::from(self.turn == Side::Cats) << 7,
        )
    }
    #[inline]
    fn mouse_dark(&self) -> u8 {
        self.mouse
    }
    #[inline]
    fn cats_dark(&self) -> u128 {
        self.cats
    }
    fn from_dark(size: BoardSize, mouse: u8, cats: u128, turn: Side) -> Option<SizedPosition> {
        SizedPosition::from_dark(size, mouse, cats, turn)
    }
    #[inline]
    fn moves(&self) -> SizedMoveList {
        SizedPosition::moves(self)
    }
    #[inline]
    fn is_move(&self, mv: SizedMove) -> bool {
        SizedPosition::is_move(self, mv)
    }
    #[inline]
    fn make_move(&self, mv: SizedMove) -> SizedPosition {
        SizedPosition::make_move(self, mv)
    }
    #[inline]
    fn hash_after(&self, mv: SizedMove) -> u64 {
        SizedPosition::hash_after(self, mv)
    }
    #[inline]
    fn mouse_has_won(&self, rule: Rule) -> bool {
        SizedPosition::mouse_has_won(self, rule)
    }
    #[inline]
    fn has_moves(&self) -> bool {
        SizedPosition::has_moves(self)
    }
    #[inline]
    fn legal_moves(&self, rule: Rule) -> SizedMoveList {
        SizedPosition::legal_moves(self, rule)
    }
    #[inline]
    fn evaluate(&self) -> i32 {
        crate::eval::evaluate_sized(self)
    }
    fn play(
        &self,
        mv: SizedMove,
        rule: Rule,
    ) -> Result<SizedPosition, MoveError<SizedMove, Coord>> {
        SizedPosition::play(self, mv, rule)
    }
}

/// The diagram of a board of `size`: `cell(square)` for each dark square.
pub(crate) fn diagram(size: BoardSize, turn: Side, cell: impl Fn(Coord) -> char) -> String {
    let n = size.n();
    let width = if n >= 10 { 2 } else { 1 };
    let mut s = String::new();
    for row in (0..n).rev() {
        let mut line = format!("{:>width$} ", row + 1);
        for file in 0..n {
            let c = Coord::pack(file, row);
            line.push(if c.is_dark() { cell(c) } else { ' ' });
            if file + 1 < n {
                line.push(' ');
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(&" ".repeat(width + 1));
    let files: Vec<String> = (0..n).map(|f| char::from(b'A' + f).to_string()).collect();
    s.push_str(&files.join(" "));
    s.push('\n');
    s.push_str(&format!("turn={turn}"));
    s
}

/// A position read from text, before it is checked.
pub(crate) struct Parsed {
    pub size: BoardSize,
    pub mouse: Coord,
    pub cats: Vec<Coord>,
    pub turn: Side,
}

/// Read a position of any size: a diagram if the text has more than one non-blank line, else the
/// one-line notation (or `start`). `hint` is the size asked for (see [`SizedPosition::parse`]).
pub(crate) fn parse_text(text: &str, hint: Option<BoardSize>) -> Result<Parsed, ParseError> {
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    if lines > 1 {
        parse_diagram(text, hint)
    } else {
        parse_notation(text, hint)
    }
}

/// Check a size the text gives against the one asked for.
fn settle_size(found: BoardSize, hint: Option<BoardSize>) -> Result<BoardSize, ParseError> {
    match hint {
        Some(expected) if expected != found => Err(ParseError::SizeMismatch { found, expected }),
        _ => Ok(found),
    }
}

pub(crate) fn parse_notation(text: &str, hint: Option<BoardSize>) -> Result<Parsed, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    if text.eq_ignore_ascii_case("start") {
        let size = hint.unwrap_or_default();
        return Ok(Parsed {
            size,
            mouse: size.default_mouse(),
            cats: size.cat_start().collect(),
            turn: Side::Mouse,
        });
    }
    // Join "cats=B8, D8" and "mouse = E1" back into single words.
    let mut words: Vec<String> = Vec::new();
    for w in text.split_whitespace() {
        let join = match words.last() {
            Some(prev) => {
                prev.ends_with(',')
                    || prev.ends_with('=')
                    || w.starts_with(',')
                    || w.starts_with('=')
            }
            None => false,
        };
        match words.last_mut() {
            Some(prev) if join => prev.push_str(w),
            _ => words.push(w.to_string()),
        }
    }
    let mut size: Option<BoardSize> = None;
    let mut mouse: Option<Coord> = None;
    let mut cats: Option<Vec<Coord>> = None;
    let mut turn: Option<Side> = None;
    for w in &words {
        let Some((key, value)) = w.split_once('=') else {
            return Err(ParseError::NotKeyValue(w.clone()));
        };
        match key.to_ascii_lowercase().as_str() {
            "size" | "board" => {
                if size.is_some() {
                    return Err(ParseError::DuplicateField("size".into()));
                }
                size = Some(value.parse()?);
            }
            "mouse" | "m" => {
                if mouse.is_some() {
                    return Err(ParseError::DuplicateField("mouse".into()));
                }
                mouse = Some(value.parse::<Coord>()?);
            }
            "cats" | "cat" | "c" => {
                if cats.is_some() {
                    return Err(ParseError::DuplicateField("cats".into()));
                }
                let mut v = Vec::new();
                for part in value.split(',').filter(|p| !p.trim().is_empty()) {
                    v.push(part.parse::<Coord>()?);
                }
                cats = Some(v);
            }
            "turn" | "side" => {
                if turn.is_some() {
                    return Err(ParseError::DuplicateField("turn".into()));
                }
                turn = Some(value.parse()?);
            }
            other => return Err(ParseError::UnknownField(other.to_string())),
        }
    }
    let size = match size {
        Some(s) => settle_size(s, hint)?,
        None => hint.unwrap_or_default(),
    };
    let mouse = mouse.ok_or(ParseError::NoMouse)?;
    let cats = cats.unwrap_or_default();
    Ok(Parsed {
        size,
        mouse,
        cats,
        turn: turn.unwrap_or(Side::Mouse),
    })
}

/// One board line of a diagram: its line number, its label if any (with its column), and its cells with
/// their 1-based columns.
struct BoardLine {
    line: usize,
    label: Option<(u32, usize)>,
    cells: Vec<(usize, char)>,
}

pub(crate) fn parse_diagram(text: &str, hint: Option<BoardSize>) -> Result<Parsed, ParseError> {
    let mut board: Vec<BoardLine> = Vec::new();
    let mut turn: Option<Side> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        if let Some(rest) = lower
            .strip_prefix("turn")
            .or_else(|| lower.strip_prefix("side"))
        {
            let v = rest.trim_start_matches([' ', '=', ':']).trim();
            turn = Some(v.parse()?);
            continue;
        }
        if lower == "mouse to move" || lower == "cats to move" {
            turn = Some(if lower.starts_with("mouse") {
                Side::Mouse
            } else {
                Side::Cats
            });
            continue;
        }
        let letters: String = t
            .split_whitespace()
            .collect::<String>()
            .to_ascii_uppercase();
        if letters.len() >= 4 && "ABCDEFGHIJKLMNOP".starts_with(&letters) {
            // The line of file letters.
            continue;
        }
        let mut cells: Vec<(usize, char)> = raw
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(k, c)| (k + 1, c))
            .collect();
        // A leading row label: one or two digits followed by a space (or nothing).
        let digits = cells.iter().take_while(|(_, c)| c.is_ascii_digit()).count();
        let mut label = None;
        if digits > 0 {
            let first_col = cells[0].0;
            let contiguous = cells[..digits]
                .iter()
                .enumerate()
                .all(|(j, &(col, _))| col == first_col + j);
            let after = cells[digits - 1].0;
            let next_is_space = raw.chars().nth(after).is_none_or(char::is_whitespace);
            if contiguous && next_is_space {
                let text: String = cells[..digits].iter().map(|&(_, c)| c).collect();
                let value = if digits <= 2 {
                    text.parse::<u32>().unwrap_or(0)
                } else {
                    0
                };
                label = Some((value, first_col));
                cells.drain(..digits);
            }
        }
        board.push(BoardLine { line, label, cells });
    }
    if board.is_empty() {
        return Err(ParseError::Empty);
    }
    // The size: asked for, else the first row's label, else the number of board lines.
    let size = match hint {
        Some(s) => s,
        None => {
            let guess = board[0].label.map_or(board.len() as u32, |(v, _)| v);
            match BoardSize::new(guess) {
                Ok(s) => s,
                Err(_) => {
                    BoardSize::new(board.len() as u32).map_err(|_| ParseError::DiagramRows {
                        found: board.len(),
                        size: BoardSize::EIGHT,
                    })?
                }
            }
        }
    };
    let n = usize::from(size.n());
    let half = usize::from(size.half());
    let mut mouse: Option<Coord> = None;
    let mut cats: Vec<Coord> = Vec::new();
    for (k, b) in board.iter().enumerate() {
        if k == n {
            return Err(ParseError::Diagram {
                line: b.line,
                column: 1,
                message: format!("more than {n} board lines"),
            });
        }
        let row = (n - 1 - k) as u8;
        if let Some((v, column)) = b.label
            && v != u32::from(row) + 1
        {
            return Err(ParseError::Diagram {
                line: b.line,
                column,
                message: format!("row label {v} where row {} was expected", row + 1),
            });
        }
        let squares: Vec<Coord> = if b.cells.len() == n {
            (0..n as u8).map(|f| Coord::pack(f, row)).collect()
        } else if b.cells.len() == half {
            (0..half as u8)
                .map(|j| Coord::pack(2 * j + row % 2, row))
                .collect()
        } else {
            let found = b.cells.len();
            let column = b
                .cells
                .get(if found > n {
                    n
                } else {
                    found.saturating_sub(1)
                })
                .map_or(1, |c| c.0);
            return Err(ParseError::Diagram {
                line: b.line,
                column,
                message: format!(
                    "expected {n} cells (or the row's {half} dark squares), found {found}"
                ),
            });
        };
        for (&(column, c), &sq) in b.cells.iter().zip(&squares) {
            let piece = match c {
                'M' | 'm' => Some(Side::Mouse),
                'C' | 'c' => Some(Side::Cats),
                '.' | '-' | '_' => None,
                other => {
                    return Err(ParseError::Diagram {
                        line: b.line,
                        column,
                        message: format!(
                            "unexpected '{other}' on {sq} (use M, C or . for an empty square)"
                        ),
                    });
                }
            };
            let Some(piece) = piece else { continue };
            if !sq.is_dark() {
                return Err(ParseError::Diagram {
                    line: b.line,
                    column,
                    message: format!("{sq} is a light square; pieces stand only on dark squares"),
                });
            }
            match piece {
                Side::Mouse => {
                    if let Some(m) = mouse {
                        return Err(ParseError::TwoMice(m, sq));
                    }
                    mouse = Some(sq);
                }
                Side::Cats => cats.push(sq),
            }
        }
    }
    if board.len() != n {
        return Err(ParseError::DiagramRows {
            found: board.len(),
            size,
        });
    }
    let mouse = mouse.ok_or(ParseError::NoMouse)?;
    Ok(Parsed {
        size,
        mouse,
        cats,
        turn: turn.unwrap_or(Side::Mouse),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_on_characters() {
        for (text, shown) in [
            ("e1f2", "E1-F2"),
            ("E10-F11", "E10-F11"),
            ("p16o15", "P16-O15"),
            (" a1-b2 ", "A1-B2"),
        ] {
            assert_eq!(text.parse::<SizedMove>().unwrap().to_string(), shown);
        }
        for bad in [
            "",
            "e1",
            "e1-",
            "e1--f2",
            "e1-f2-g3",
            "é1f2",
            "e1f2é",
            "ee1f2",
            "e123f2",
            "e0f1",
            "q1a2",
            "€€€€",
            "e1 f2",
            "１２３４",
        ] {
            assert!(bad.parse::<SizedMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn notation_of_every_size_round_trips() {
        for size in BoardSize::all() {
            let p = SizedPosition::start(size);
            assert_eq!(p.to_string().parse::<SizedPosition>().unwrap(), p);
            assert_eq!(p.diagram().parse::<SizedPosition>().unwrap(), p);
            assert_eq!(SizedPosition::parse(&p.diagram(), Some(size)).unwrap(), p);
            assert_eq!(SizedPosition::parse("start", Some(size)).unwrap(), p);
            assert_eq!(p.zobrist_hash(), p.compute_hash());
        }
    }

    #[test]
    fn text_of_the_wrong_size_is_refused() {
        let ten = BoardSize::new(10).unwrap();
        let err = |s: &str, size: Option<BoardSize>| {
            SizedPosition::parse(s, size).unwrap_err().to_string()
        };
        let e = err(
            "size=10 mouse=E1 cats=B10,D10,F10,H10,J10",
            Some(BoardSize::EIGHT),
        );
        assert!(e.contains("for the 10x10 board, not 8x8"), "{e}");
        let e = err("mouse=E1 cats=B10,D10,F10,H10,J10", None);
        assert!(e.contains("B10 is off the 8x8 board"), "{e}");
        let e = err("mouse=E1 cats=B8,D8,F8,H8", Some(ten));
        assert!(e.contains("expected 5 cats"), "{e}");
        let e = err(&SizedPosition::start(ten).diagram(), Some(BoardSize::EIGHT));
        assert!(e.contains("row label 10 where row 8"), "{e}");
        let e = err("size=9 mouse=E1", None);
        assert!(e.contains("bad board size '9'"), "{e}");
        let e = err("size=12 mouse=A13 cats=B12", None);
        assert!(e.contains("A13 is off the 12x12 board"), "{e}");
    }
}
