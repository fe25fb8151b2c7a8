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
use crate::mouse::{MENU_SIZES, MouseOptions, has_table, level_label, mouse_starts, rule_label_for};
use crate::sudoku::{CLASSIC_HIDE, Setup};

/// The most cells the classic sudoku mode may be asked to hide (a grid keeps at least 17 clues).
pub const MAX_CLASSIC_HIDE: usize = 64;

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
                    .map(|r| Item::new(r.name(), rule_label_for(r, size)))
                    .collect(),
            }
        })
        .collect();
    let defaults = MouseOptions::default();
    MouseMenu {
        boards,
        sides: vec![Item::new("mouse", "the mouse"), Item::new("cats", "the cats")],
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
                description: Board::builtin_description(name)
                    .unwrap_or("")
                    .to_string(),
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
            Item::new("square", "square"),
            Item::new("triangular", "triangular"),
        ],
    }
}

fn symmetry_label(s: Symmetry) -> &'static str {
    match s {
        Symmetry::None => "none",
        Symmetry::Rotate180 => "half turn",
        Symmetry::Rotate90 => "quarter turn",
        Symmetry::Mirror => "mirror",
        Symmetry::Diagonal => "diagonal",
    }
}

fn sudoku_menu() -> SudokuMenu {
    let d = Setup::default();
    SudokuMenu {
        modes: vec![
            Item::new("graded", "a new puzzle of a difficulty"),
            Item::new("classic", "the classic shuffle (ZX-81)"),
        ],
        difficulties: Difficulty::ALL
            .iter()
            .map(|x| Item::new(x.name(), x.name()))
            .collect(),
        symmetries: Symmetry::ALL
            .iter()
            .map(|&s| Item::new(s.name(), symmetry_label(s)))
            .collect(),
        classic_hide: CLASSIC_HIDE.to_vec(),
        max_hide: MAX_CLASSIC_HIDE,
        default_difficulty: d.difficulty,
        default_symmetry: d.symmetry,
        default_hide: d.hide,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(b.rules[0].label, format!("row {}", b.size));
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
        assert_eq!((english.name.as_str(), english.standard_vacancy.as_str()), ("english", "d4"));
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
            assert!(legal.contains(&b.example_jump), "{}: {}", b.name, b.example_jump);
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
