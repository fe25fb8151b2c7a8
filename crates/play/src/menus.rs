//! Everything a front end offers in its new-game menus, as data: the Mouse & Cats boards with their start
//! squares, default start, levels and rules; the peg boards with their standard vacancy; the sudoku
//! difficulties, symmetries and classic sizes; and each game's name, description and rules text.
//!
//! A front end that cannot call into this crate (the web page) asks for [`Menus::new`] as JSON and builds its
//! menus from it, so that no board size, default square, level or rule is written a second time.
//!
//! ```
//! let menus = play::menus::Menus::new();
//! let six = menus.mouse.boards.iter().find(|b| b.size == 6).unwrap();
//! assert_eq!(six.default_start, "C1");
//! let triangle = menus.peg.boards.iter().find(|b| b.name == "triangle").unwrap();
//! assert_eq!(triangle.standard_vacancy, "1");
//! ```

use mousecats::search::Level;
use mousecats::{BoardSize, Rule};
use peg::Board;
use serde::Serialize;
use sudoku::generate::{Difficulty, Symmetry};

use crate::GameKind;
use crate::mouse::{
    MENU_SIZES, MouseOptions, has_table, level_label, mouse_starts, rule_label_for,
};
use crate::sudoku::{CLASSIC_HIDE, MAX_HIDE, Setup};
use crate::text::capitalise;

/// A value as it is sent back in a new game's options, and how a menu shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The value in a request or a save file (`"far-row"`, `"180"`, `"5"`).
    pub value: String,
    /// What a menu shows.
    pub label: String,
}

impl Item {
    fn new(value: impl Into<String>, label: impl Into<String>) -> Item {
        Item {
            value: value.into(),
            label: label.into(),
        }
    }
}

/// A game's name, description and rules.
#[derive(Debug, Clone, Serialize)]
pub struct GameText {
    /// `mouse`, `peg` or `sudoku`.
    pub key: &'static str,
    /// Its name as shown.
    pub name: &'static str,
    /// One paragraph for a menu.
    pub description: &'static str,
    /// The rules, as paragraphs (the terminal's rules screen shows the same).
    pub rules: &'static [&'static str],
}

/// One Mouse & Cats board in the menu.
#[derive(Debug, Clone, Serialize)]
pub struct MouseBoard {
    /// N, for an N x N board.
    pub size: u8,
    /// "8x8".
    pub label: String,
    /// Whether the board's whole exact solution is kept (hints and level 10 from it).
    pub exact: bool,
    /// The squares the mouse may start on.
    pub starts: Vec<String>,
    /// The board's default start.
    pub default_start: String,
    /// The engine's levels on this board.
    pub levels: Vec<Item>,
    /// The rules, with their names on this board ("row 6").
    pub rules: Vec<Item>,
}

/// The Mouse & Cats menu.
#[derive(Debug, Clone, Serialize)]
pub struct MouseMenu {
    /// The boards offered, smallest first.
    pub boards: Vec<MouseBoard>,
    /// The sides a player can take (and that can move first).
    pub sides: Vec<Item>,
    /// The default board's N.
    pub default_size: u8,
    /// The default side of the player.
    pub default_player: String,
    /// The default level.
    pub default_level: u8,
    /// The default side to move first.
    pub default_first: String,
    /// The default rule's value.
    pub default_rule: String,
}

/// One built-in peg board.
#[derive(Debug, Clone, Serialize)]
pub struct PegBoard {
    /// Its name, as a `new` action takes it.
    pub name: String,
    /// One line about it.
    pub description: String,
    /// `square` or `triangular`.
    pub lattice: String,
    /// Holes.
    pub holes: usize,
    /// The hole empty at the standard start.
    pub standard_vacancy: String,
    /// A jump from the standard start, as an example of how jumps are written.
    pub example_jump: String,
}

/// The peg menu.
#[derive(Debug, Clone, Serialize)]
pub struct PegMenu {
    /// The built-in boards, in menu order.
    pub boards: Vec<PegBoard>,
    /// The default board's name.
    pub default_board: String,
    /// The lattices a pasted layout can use.
    pub lattices: Vec<Item>,
}

/// The sudoku menu.
#[derive(Debug, Clone, Serialize)]
pub struct SudokuMenu {
    /// How puzzles are made: `graded`, `classic`.
    pub modes: Vec<Item>,
    /// The graded difficulties, easiest first.
    pub difficulties: Vec<Item>,
    /// The symmetries of graded puzzles' clues.
    pub symmetries: Vec<Item>,
    /// The numbers of hidden cells the terminal offers for the classic mode.
    pub classic_hide: Vec<usize>,
    /// The most cells the classic mode may hide.
    pub max_hide: usize,
    /// The default setup's difficulty, symmetry and hidden cells.
    pub default_difficulty: String,
    /// See `default_difficulty`.
    pub default_symmetry: String,
    /// See `default_difficulty`.
    pub default_hide: usize,
}

/// Every menu of every game.
#[derive(Debug, Clone, Serialize)]
pub struct Menus {
    /// The games in menu order, with their rules.
    pub games: Vec<GameText>,
    /// Mouse & Cats.
    pub mouse: MouseMenu,
    /// Peg solitaire.
    pub peg: PegMenu,
    /// Sudoku.
    pub sudoku: SudokuMenu,
}

impl Default for Menus {
    fn default() -> Menus {
        Menus::new()
    }
}

impl Menus {
    /// The menus.
    pub fn new() -> Menus {
        Menus {
            games: GameKind::ALL
                .into_iter()
                .map(|g| GameText {
                    key: g.key(),
                    name: g.name(),
                    description: g.description(),
                    rules: g.rules(),
                })
                .collect(),
            mouse: mouse_menu(),
            peg: peg_menu(),
            sudoku: sudoku_menu(),
        }
    }
}

fn mouse_menu() -> MouseMenu {
    let boards = MENU_SIZES
        .iter()
        .filter_map(|&n| BoardSize::new(u32::from(n)).ok())
        .map(|size| {
            let top = if has_table(size) {
                Level::PERFECT.number()
            } else {
                Level::PERFECT.number() - 1
            };
            MouseBoard {
                size: size.n(),
                label: size.to_string(),
                exact: has_table(size),
                starts: mouse_starts(size).iter().map(ToString::to_string).collect(),
                default_start: size.default_mouse().to_string(),
                levels: (1..=top)
                    .map(|l| Item::new(l.to_string(), level_label(l)))
                    .collect(),
                rules: Rule::ALL
                    .into_iter()
                    .map(|r| Item::new(r.name(), capitalise(&rule_label_for(r, size))))
                    .collect(),
            }
        })
        .collect();
    let defaults = MouseOptions::default();
    MouseMenu {
        boards,
        sides: vec![
            Item::new("mouse", "The mouse"),
            Item::new("cats", "The cats"),
        ],
        default_size: defaults.size.n(),
        default_player: defaults.player.to_string(),
        default_level: defaults.level,
        default_first: defaults.first.to_string(),
        default_rule: defaults.rule.name().to_string(),
    }
}

fn peg_menu() -> PegMenu {
    let boards: Vec<PegBoard> = crate::peg::BOARDS
        .iter()
        .filter_map(|&name| Board::builtin(name).ok().map(|b| (name, b)))
        .map(|(name, b)| {
            let start = b.default_start();
            PegBoard {
                name: name.to_string(),
                description: Board::builtin_description(name).unwrap_or("").to_string(),
                lattice: b.lattice().to_string(),
                holes: b.holes(),
                standard_vacancy: b.hole_name(b.default_vacancy()).to_string(),
                example_jump: b
                    .legal_moves(start)
                    .first()
                    .map(|&m| b.format_move(m))
                    .unwrap_or_default(),
            }
        })
        .collect();
    PegMenu {
        default_board: boards.first().map(|b| b.name.clone()).unwrap_or_default(),
        boards,
        lattices: vec![
            Item::new("square", "Square"),
            Item::new("triangular", "Triangular"),
        ],
    }
}

fn symmetry_label(s: Symmetry) -> &'static str {
    match s {
        Symmetry::None => "None",
        Symmetry::Rotate180 => "Half turn",
        Symmetry::Rotate90 => "Quarter turn",
        Symmetry::Mirror => "Mirror",
        Symmetry::Diagonal => "Diagonal",
    }
}

fn sudoku_menu() -> SudokuMenu {
    let d = Setup::default();
    SudokuMenu {
        modes: vec![
            Item::new("graded", "A new puzzle of the difficulty below"),
            Item::new("classic", "The classic shuffle (ZX-81)"),
        ],
        difficulties: Difficulty::ALL
            .iter()
            .map(|x| Item::new(x.name(), capitalise(x.name())))
            .collect(),
        symmetries: Symmetry::ALL
            .iter()
            .map(|&s| Item::new(s.name(), symmetry_label(s)))
            .collect(),
        classic_hide: CLASSIC_HIDE.to_vec(),
        max_hide: MAX_HIDE,
        default_difficulty: d.difficulty,
        default_symmetry: d.symmetry,
        default_hide: d.hide,
    }
}

/// The daily puzzles of a date: the same for everyone on that date, whatever the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Daily {
    /// The date, `YYYY-MM-DD`.
    pub date: String,
    /// The daily sudoku: a graded puzzle of this difficulty...
    pub sudoku_difficulty: String,
    /// ...with this symmetry...
    pub sudoku_symmetry: String,
    /// ...made by the generator from this seed: the date's digits, `"20261128"`, as a decimal string (as every
    /// seed the API sends or takes: a JSON number loses the digits of a large one in JavaScript).
    pub sudoku_seed: String,
    /// The daily peg game: this board (one with a complete table, so that its indicator answers at once)...
    pub peg_board: String,
    /// ...with this hole empty at the start (one from which one peg can be left).
    pub peg_start: String,
}

/// The boards a daily peg game is played on.
const DAILY_PEG_BOARDS: [&str; 2] = ["english", "triangle"];

/// The error of [`Daily::of`]: the text is not a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a date of the form YYYY-MM-DD, such as 2026-11-28")]
pub struct BadDate(pub String);

impl Daily {
    /// The daily puzzles of `date` (`YYYY-MM-DD`).
    ///
    /// # Errors
    /// [`BadDate`] when `date` is not a calendar date from year 2000 to 9999.
    pub fn of(date: &str) -> Result<Daily, BadDate> {
        let bad = || BadDate(date.to_string());
        let t = date.trim();
        let parts: Vec<&str> = t.split('-').collect();
        let [y, m, d] = parts.as_slice() else {
            return Err(bad());
        };
        let num = |s: &str, len: usize| -> Option<u32> {
            (s.len() == len && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let (y, m, d) = (
            num(y, 4).ok_or_else(bad)?,
            num(m, 2).ok_or_else(bad)?,
            num(d, 2).ok_or_else(bad)?,
        );
        let leap = (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
        let days = match m {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return Err(bad()),
        };
        if !(2000..=9999).contains(&y) || d == 0 || d > days {
            return Err(bad());
        }
        let seed = u64::from(y * 10_000 + m * 100 + d);
        // One draw per choice from the date's own stream.
        let mut state = seed;
        let mut draw = |n: usize| -> usize {
            (sudoku::rng::splitmix64(&mut state) % (n.max(1) as u64)) as usize
        };
        let difficulties = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];
        let difficulty = difficulties[draw(difficulties.len())];
        let board_name = DAILY_PEG_BOARDS[draw(DAILY_PEG_BOARDS.len())];
        let board = Board::builtin(board_name).map_err(|_| bad())?;
        let starts: Vec<usize> = (0..board.holes())
            .filter(|&h| peg::Finish::Anywhere.allows(&board, board.full().without_peg(h)))
            .collect();
        let start = starts
            .get(draw(starts.len()))
            .copied()
            .unwrap_or_else(|| board.default_vacancy());
        Ok(Daily {
            date: format!("{y:04}-{m:02}-{d:02}"),
            sudoku_difficulty: difficulty.name().to_string(),
            sudoku_symmetry: Symmetry::Rotate180.name().to_string(),
            sudoku_seed: seed.to_string(),
            peg_board: board_name.to_string(),
            peg_start: board.hole_name(start).to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_makes_one_daily_game_of_each_kind() {
        let a = Daily::of("2026-11-28").unwrap();
        assert_eq!(a, Daily::of(" 2026-11-28 ").unwrap());
        assert_eq!(a.sudoku_seed, "20261128");
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["sudoku_seed"], "20261128", "a string in the API");
        let b = Daily::of("2026-11-29").unwrap();
        assert_ne!(a.sudoku_seed, b.sudoku_seed);
        // Every start is one the position class lets end with one peg, on a board with a complete table.
        let mut boards = std::collections::BTreeSet::new();
        for day in 1..=28 {
            let d = Daily::of(&format!("2027-02-{day:02}")).unwrap();
            let board = Board::builtin(&d.peg_board).unwrap();
            let h = board.parse_hole(&d.peg_start).unwrap();
            assert!(peg::Finish::Anywhere.allows(&board, board.full().without_peg(h)));
            assert!(d.sudoku_difficulty.parse::<Difficulty>().is_ok());
            boards.insert(d.peg_board);
        }
        assert_eq!(boards.len(), 2, "both boards come up in a month");
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-1-01",
            "yesterday",
            "1999-12-31",
            "2026-11-28x",
        ] {
            assert!(Daily::of(bad).is_err(), "{bad}");
        }
        assert!(Daily::of("2028-02-29").is_ok());
    }

    #[test]
    fn mouse_boards_follow_the_engine() {
        let m = Menus::new().mouse;
        let sizes: Vec<u8> = m.boards.iter().map(|b| b.size).collect();
        assert_eq!(sizes, MENU_SIZES);
        for b in &m.boards {
            let size = BoardSize::new(u32::from(b.size)).unwrap();
            assert_eq!(b.default_start, size.default_mouse().to_string());
            assert!(b.starts.contains(&b.default_start));
            assert_eq!(b.levels.len(), if b.exact { 10 } else { 9 });
            assert_eq!(b.rules[0].label, format!("Row {}", b.size));
        }
        let six = m.boards.iter().find(|b| b.size == 6).unwrap();
        assert_eq!(six.starts, ["A1", "C1", "E1"]);
        assert_eq!(six.default_start, "C1");
        assert_eq!(m.default_size, 8);
        assert!(!m.boards.iter().find(|b| b.size == 12).unwrap().exact);
    }

    #[test]
    fn peg_boards_have_their_vacancy_and_a_legal_example() {
        let p = Menus::new().peg;
        assert_eq!(p.boards.len(), crate::peg::BOARDS.len());
        let english = &p.boards[0];
        assert_eq!(
            (english.name.as_str(), english.standard_vacancy.as_str()),
            ("english", "d4")
        );
        let tri = p.boards.iter().find(|b| b.name == "triangle").unwrap();
        assert_eq!(tri.standard_vacancy, "1");
        assert_eq!(tri.holes, 15);
        for b in &p.boards {
            let board = Board::builtin(&b.name).unwrap();
            let legal: Vec<String> = board
                .legal_moves(board.default_start())
                .iter()
                .map(|&m| board.format_move(m))
                .collect();
            assert!(
                legal.contains(&b.example_jump),
                "{}: {}",
                b.name,
                b.example_jump
            );
        }
    }

    #[test]
    fn sudoku_menu_names_parse() {
        let s = Menus::new().sudoku;
        for d in &s.difficulties {
            assert!(d.value.parse::<Difficulty>().is_ok());
        }
        for x in &s.symmetries {
            assert!(x.value.parse::<Symmetry>().is_ok());
        }
        assert_eq!(s.default_difficulty, "medium");
        // Labels are written as a menu shows them, the values as a request sends them.
        let medium = s.difficulties.iter().find(|d| d.value == "medium").unwrap();
        assert_eq!(medium.label, "Medium");
        assert!(
            s.symmetries
                .iter()
                .chain(&s.modes)
                .all(|x| x.label.starts_with(char::is_uppercase)),
            "{:?}",
            s.symmetries
        );
        assert!(s.classic_hide.iter().all(|&h| h <= s.max_hide));
    }

    #[test]
    fn the_menus_serialize_with_the_rules() {
        let v = serde_json::to_value(Menus::new()).unwrap();
        assert_eq!(v["games"][0]["key"], "mouse");
        assert!(v["games"][2]["rules"][0].as_str().unwrap().contains("3x3"));
        assert_eq!(v["mouse"]["default_rule"], "far-row");
        assert_eq!(v["mouse"]["default_player"], "mouse");
    }
}
