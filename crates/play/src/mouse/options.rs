//! The options of a Mouse & Cats game: side, level, board, start, first move and rule, as a menu offers them
//! and a save file keeps them.

use mousecats::search::Level;
use mousecats::solve::MAX_TABLE_SIZE;
use mousecats::{BoardSize, Coord, Rule, Side, SizedPosition, Square};
use serde::{Deserialize, Serialize};

use super::MouseError;
use crate::options::{Choice, value_of};

/// The squares where the mouse may start on 8x8 (the dark squares of row 1); [`mouse_starts`] for any board.
pub const MOUSE_STARTS: [&str; 4] = ["A1", "C1", "E1", "G1"];

/// The board sizes a menu offers (every size can be played; these fit a terminal of 80x24).
pub const MENU_SIZES: [u8; 5] = [4, 6, 8, 10, 12];
/// The options of a game. In a save file the board size is written only when it is not 8x8 and the far-row
/// rule keeps the first release's name `row8` on 8x8, so an 8x8 game saves exactly as it always did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "SavedOptions", try_from = "SavedOptions")]
pub struct MouseOptions {
    /// The side the player plays.
    pub player: Side,
    /// The engine's level, 1 to 10 (1 to 9 beyond [`MAX_TABLE_SIZE`]).
    pub level: u8,
    /// The board.
    pub size: BoardSize,
    /// The mouse's start square: a free dark square of the board.
    pub mouse_start: Coord,
    /// The side that moves first.
    pub first: Side,
    /// The end-of-game rule.
    pub rule: Rule,
}

impl Default for MouseOptions {
    /// The mouse against the engine at level 5 on 8x8, from E1, the mouse first, the row 8 rule.
    fn default() -> MouseOptions {
        MouseOptions {
            player: Side::Mouse,
            level: 5,
            size: BoardSize::EIGHT,
            mouse_start: Coord::from(Square::E1),
            first: Side::Mouse,
            rule: Rule::FarRow,
        }
    }
}

/// [`MouseOptions`] as a save file holds them.
#[derive(Serialize, Deserialize)]
struct SavedOptions {
    #[serde(with = "text_form")]
    player: Side,
    level: u8,
    /// N; absent on 8x8 (and in every save written before other boards could be played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<u32>,
    /// Absent (in a new game's options): the board's default square.
    #[serde(default)]
    mouse_start: Option<String>,
    #[serde(with = "text_form")]
    first: Side,
    rule: String,
}

impl From<MouseOptions> for SavedOptions {
    fn from(o: MouseOptions) -> SavedOptions {
        let eight = o.size == BoardSize::EIGHT;
        SavedOptions {
            player: o.player,
            level: o.level,
            size: (!eight).then_some(u32::from(o.size.n())),
            mouse_start: Some(o.mouse_start.to_string()),
            first: o.first,
            // The first release wrote `row8`; it stays the 8x8 name.
            rule: match o.rule {
                Rule::FarRow if eight => "row8".to_string(),
                other => other.name().to_string(),
            },
        }
    }
}

impl TryFrom<SavedOptions> for MouseOptions {
    type Error = String;

    fn try_from(s: SavedOptions) -> Result<MouseOptions, String> {
        let size = match s.size {
            Some(n) => BoardSize::new(n).map_err(|e| e.to_string())?,
            None => BoardSize::EIGHT,
        };
        Ok(MouseOptions {
            player: s.player,
            level: s.level,
            size,
            mouse_start: match s.mouse_start {
                Some(text) => text
                    .parse()
                    .map_err(|e: mousecats::SquareError| e.to_string())?,
                None => size.default_mouse(),
            },
            first: s.first,
            rule: Rule::parse_for(&s.rule, size).map_err(|e| e.to_string())?,
        })
    }
}

impl MouseOptions {
    /// The default options on `size`: the mouse on the board's default square
    /// ([`BoardSize::default_mouse`]), the rest as [`MouseOptions::default`].
    pub fn for_size(size: BoardSize) -> MouseOptions {
        MouseOptions {
            size,
            mouse_start: size.default_mouse(),
            ..MouseOptions::default()
        }
    }

    /// The options `choices` describe (as returned by [`choices`], possibly changed).
    ///
    /// # Errors
    /// [`MouseError::Setup`] naming the value that is not a side, a level, a board, a square or a rule.
    pub fn from_choices(choices: &[Choice]) -> Result<MouseOptions, MouseError> {
        let get =
            |label: &str, default: &str| value_of(choices, label).unwrap_or(default).to_string();
        let setup = |e: String| MouseError::Setup(e);
        let side = |s: String| s.parse::<Side>().map_err(|e| setup(e.to_string()));
        let size: BoardSize = get("Board", "8x8")
            .parse()
            .map_err(|e: mousecats::ParseError| setup(e.to_string()))?;
        let level: u8 = get("Level", "5")
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| setup("the level is not a number".into()))?;
        let rule_text = get("Rule", "row 8");
        let rule = match Rule::ALL
            .into_iter()
            .find(|&r| rule_label_for(r, size) == rule_text)
        {
            Some(r) => r,
            None => Rule::parse_for(&rule_text.replace(' ', ""), size)
                .map_err(|e| setup(e.to_string()))?,
        };
        let opts = MouseOptions {
            player: side(get("Play as", "mouse"))?,
            level,
            size,
            mouse_start: get("Mouse starts", &size.default_mouse().to_string())
                .parse()
                .map_err(|e: mousecats::SquareError| setup(e.to_string()))?,
            first: side(get("First move", "mouse"))?,
            rule,
        };
        opts.check()?;
        Ok(opts)
    }

    /// Check the level (level 10 needs the board's exact table) and the start.
    ///
    /// # Errors
    /// [`MouseError::Setup`]: a level out of range, level 10 beyond [`MAX_TABLE_SIZE`], a start square that
    /// is not the mouse's.
    pub fn check(&self) -> Result<(), MouseError> {
        let level = self.engine_level()?;
        if level.depth().is_none() && !has_table(self.size) {
            return Err(MouseError::Setup(format!(
                "level 10 plays from the exact table, which is kept for boards up to {MAX_TABLE_SIZE}; on {} pick a level from 1 to 9",
                self.size
            )));
        }
        self.start()?;
        Ok(())
    }

    pub(super) fn engine_level(&self) -> Result<Level, MouseError> {
        Level::new(self.level).map_err(|e| MouseError::Setup(e.to_string()))
    }

    pub(super) fn start(&self) -> Result<SizedPosition, MouseError> {
        SizedPosition::start_with(self.size, self.mouse_start, self.first)
            .map_err(|e| MouseError::Setup(e.to_string()))
    }

    /// The side the engine plays.
    pub fn engine_side(&self) -> Side {
        self.player.opponent()
    }
}

/// Whether the whole exact table of `size` is kept (hints and level 10 from the exact solution).
pub fn has_table(size: BoardSize) -> bool {
    size <= MAX_TABLE_SIZE
}

/// "4 (8 plies)", "10 (perfect)".
pub fn level_label(level: u8) -> String {
    match Level::new(level).ok().and_then(Level::depth) {
        Some(d) => format!("{level} ({d} plies)"),
        None => format!("{level} (perfect)"),
    }
}

/// A rule as a menu and a heading name it on 8x8: "row 8", "escape", "region".
pub fn rule_label(rule: Rule) -> &'static str {
    match rule {
        Rule::FarRow => "row 8",
        Rule::Escape => "escape",
        Rule::Region => "region",
    }
}

/// A rule as a menu and a heading name it on `size`: "row 10", "escape", "region".
pub fn rule_label_for(rule: Rule, size: BoardSize) -> String {
    match rule {
        Rule::FarRow => format!("row {}", size.n()),
        other => rule_label(other).to_string(),
    }
}

/// The dark squares of row 1 of `size`, where a menu lets the mouse start: A1, C1, E1, ...
pub fn mouse_starts(size: BoardSize) -> Vec<Coord> {
    (0..size.n())
        .step_by(2)
        .filter_map(|f| Coord::new(f, 0))
        .collect()
}

/// The options of a game, with their default values, for a menu (8x8; [`refresh`] fits them to another
/// board when the "Board" option changes).
pub fn choices() -> Vec<Choice> {
    let mut c = vec![
        Choice::new(
            "Play as",
            vec!["mouse".into(), "cats".into()],
            0,
            "The side you play; the engine plays the other. With best play the cats win from every 8x8 start.",
        ),
        Choice::new(
            "Level",
            (1..=Level::PERFECT.number()).map(level_label).collect(),
            4,
            "Levels 1 to 9 search 2 to 18 plies with alpha-beta and hash tables; level 10 plays perfectly \
             from the exact solution of the whole game (boards up to 10x10).",
        ),
        Choice::new(
            "Mouse starts",
            MOUSE_STARTS.iter().map(ToString::to_string).collect(),
            2,
            "The mouse's square on row 1 (E1 is the classic start).",
        ),
        Choice::new(
            "First move",
            vec!["mouse".into(), "cats".into()],
            0,
            "Which side moves first.",
        ),
        Choice::new(
            "Rule",
            Rule::ALL.map(|r| rule_label(r).to_string()).to_vec(),
            0,
            "row N: the mouse wins on reaching the far row. escape: it also wins as soon as it stands level \
             with or above every cat. region: it also wins once it stands where no cat can ever reach, beside \
             another such square (gilith/solve's rule).",
        ),
        Choice::new(
            "Board",
            MENU_SIZES.iter().map(|&n| format!("{n}x{n}")).collect(),
            2,
            "The board: N/2 cats on row N. The whole exact table (hints, level 10) is kept up to 10x10; on \
             12x12 the hints come from the engine's search.",
        ),
    ];
    refresh(&mut c);
    c
}

/// Fit the options to the board chosen: the mouse's start squares (the old one kept if the board has it, else
/// the board's default), the far-row rule's name, and the levels (no level 10 without the exact table).
pub fn refresh(choices: &mut [Choice]) {
    let Some(size) = value_of(choices, "Board").and_then(|v| v.parse::<BoardSize>().ok()) else {
        return;
    };
    for c in choices.iter_mut() {
        match c.label.as_str() {
            "Mouse starts" => {
                let old = c.value().to_string();
                let starts = mouse_starts(size);
                c.selected = starts
                    .iter()
                    .position(|s| s.to_string() == old)
                    .or_else(|| starts.iter().position(|&s| s == size.default_mouse()))
                    .unwrap_or(0);
                c.values = starts.iter().map(ToString::to_string).collect();
            }
            "Rule" => {
                c.values = Rule::ALL.map(|r| rule_label_for(r, size)).to_vec();
            }
            "Level" => {
                let top = if has_table(size) {
                    Level::PERFECT.number()
                } else {
                    Level::PERFECT.number() - 1
                };
                c.values = (1..=top).map(level_label).collect();
                c.selected = c.selected.min(c.values.len() - 1);
            }
            _ => {}
        }
    }
}

/// Sides ("mouse", "cats") and squares ("E1") in save files: as they print and parse.
mod text_form {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr<Err: Display>,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(|e: T::Err| D::Error::custom(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_labels() {
        assert_eq!(level_label(1), "1 (2 plies)");
        assert_eq!(level_label(9), "9 (18 plies)");
        assert_eq!(level_label(10), "10 (perfect)");
    }

    #[test]
    fn options_from_the_menu() {
        let mut c = choices();
        assert_eq!(MouseOptions::from_choices(&c), Ok(MouseOptions::default()));
        c[0].selected = 1;
        c[1].selected = 9;
        c[4].selected = 1;
        let o = MouseOptions::from_choices(&c).unwrap();
        assert_eq!((o.player, o.level, o.rule), (Side::Cats, 10, Rule::Escape));
        c[1].values[9] = "eleven".into();
        assert!(MouseOptions::from_choices(&c).is_err());
    }

    #[test]
    fn the_menu_fits_the_board() {
        let mut c = choices();
        let board = c.iter().position(|c| c.label == "Board").unwrap();
        // 12x12: no level 10 (no exact table), row 12, the mouse's default start G1.
        c[board].selected = MENU_SIZES.iter().position(|&n| n == 12).unwrap();
        c[1].selected = 9;
        c[2].selected = 2; // E1 on 8x8
        refresh(&mut c);
        assert_eq!(c[1].values.len(), 9);
        assert_eq!(c[1].selected, 8);
        assert_eq!(c[2].values, ["A1", "C1", "E1", "G1", "I1", "K1"]);
        assert_eq!(c[2].value(), "E1", "a start the new board has is kept");
        assert_eq!(c[4].values, ["row 12", "escape", "region"]);
        c[4].selected = 0;
        let o = MouseOptions::from_choices(&c).unwrap();
        assert_eq!(o.size, BoardSize::new(12).unwrap());
        assert_eq!(
            (o.level, o.rule, o.mouse_start.to_string()),
            (9, Rule::FarRow, "E1".into())
        );
        // 4x4: the start E1 is not there; the board's default C1 is taken.
        c[board].selected = 0;
        refresh(&mut c);
        assert_eq!(c[2].values, ["A1", "C1"]);
        assert_eq!(c[2].value(), "C1");
        assert_eq!(c[1].values.len(), 10);
        c[4].selected = 2;
        let o = MouseOptions::from_choices(&c).unwrap();
        assert_eq!((o.size.n(), o.rule), (4, Rule::Region));
    }

    #[test]
    fn options_save_as_the_first_release_did_on_8x8() {
        let o = MouseOptions::default();
        let j = serde_json::to_value(o).unwrap();
        assert_eq!(
            j,
            serde_json::json!({"first": "mouse", "level": 5, "mouse_start": "E1", "player": "mouse", "rule": "row8"})
        );
        let ten = MouseOptions {
            rule: Rule::FarRow,
            ..MouseOptions::for_size(BoardSize::new(10).unwrap())
        };
        let j = serde_json::to_value(ten).unwrap();
        assert_eq!(j["size"], 10);
        assert_eq!(j["rule"], "far-row");
        assert_eq!(serde_json::from_value::<MouseOptions>(j).unwrap(), ten);
        // Bad sizes and the 8x8 rule name on another board are refused with a reason.
        for (edit, want) in [
            (serde_json::json!({"size": 9}), "bad board size '9'"),
            (serde_json::json!({"size": 10, "rule": "row8"}), "row8"),
            (
                serde_json::json!({"size": 6, "rule": "far-row", "mouse_start": "G1"}),
                "G1 is off the 6x6 board",
            ),
        ] {
            let mut j = serde_json::to_value(MouseOptions::default()).unwrap();
            for (k, v) in edit.as_object().unwrap() {
                j[k] = v.clone();
            }
            let e = serde_json::from_value::<MouseOptions>(j)
                .map(|o| o.check().map_err(|e| e.to_string()))
                .map_err(|e| e.to_string());
            let text = match e {
                Err(e) | Ok(Err(e)) => e,
                Ok(Ok(())) => String::new(),
            };
            assert!(text.contains(want), "{text:?} lacks {want:?}");
        }
    }
}
