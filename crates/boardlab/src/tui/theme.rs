//! Colours, and the monochrome fallback used when `NO_COLOR` is set.
//!
//! Every style the screens use comes from a [`Theme`], so the two palettes stay complete: the monochrome one
//! uses only bold, dim, reversed and underlined text, which every terminal shows.

use ratatui::style::{Color, Modifier, Style};

/// The styles of every element on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Whether this is the colour palette (false: monochrome).
    pub colour: bool,
    /// Plain text.
    pub text: Style,
    /// Secondary text: explanations, coordinates.
    pub dim: Style,
    /// Headings and the title bar.
    pub title: Style,
    /// A key name in the key bar.
    pub key: Style,
    /// The highlighted menu row or the cursor.
    pub cursor: Style,
    /// A selected piece or peg.
    pub selected: Style,
    /// A square or hole the selected piece can move to.
    pub target: Style,
    /// Cells or squares that a hint points at.
    pub hint: Style,
    /// Good news: a win, "still possible".
    pub good: Style,
    /// Bad news: a loss, an error, "no longer possible", a conflict.
    pub bad: Style,
    /// Warnings and notices.
    pub warn: Style,
    /// Dark board squares (Mouse & Cats).
    pub dark_square: Style,
    /// Light board squares (Mouse & Cats).
    pub light_square: Style,
    /// The mouse.
    pub mouse: Style,
    /// A cat.
    pub cat: Style,
    /// A peg.
    pub peg: Style,
    /// An empty hole.
    pub hole: Style,
    /// A sudoku clue (a given digit).
    pub given: Style,
    /// A digit the player entered.
    pub entered: Style,
    /// Pencil marks.
    pub pencil: Style,
    /// Sudoku cells, in a checkerboard of two shades (this one and `plain`) so neighbouring cells' pencil
    /// marks stay apart.
    pub shaded: Style,
    /// The other shade of sudoku cells.
    pub plain: Style,
    /// The last move played.
    pub last_move: Style,
}

impl Theme {
    /// The theme for this process: monochrome when the `NO_COLOR` environment variable is set and not empty
    /// (see <https://no-color.org>), colour otherwise.
    pub fn from_env() -> Theme {
        match std::env::var_os("NO_COLOR") {
            Some(v) if !v.is_empty() => Theme::mono(),
            _ => Theme::colour(),
        }
    }

    /// The colour palette. Boards set their own background as well as their foreground, so they look the same
    /// on light and dark terminals; only the 256-colour palette is used (no true colour).
    pub fn colour() -> Theme {
        let bold = Modifier::BOLD;
        Theme {
            colour: true,
            text: Style::new(),
            dim: Style::new().add_modifier(Modifier::DIM),
            title: Style::new().fg(Color::Yellow).add_modifier(bold),
            key: Style::new().fg(Color::Cyan).add_modifier(bold),
            cursor: Style::new().fg(Color::Black).bg(Color::Yellow),
            selected: Style::new()
                .fg(Color::Black)
                .bg(Color::LightGreen)
                .add_modifier(bold),
            target: Style::new().fg(Color::Black).bg(Color::Green),
            hint: Style::new().fg(Color::Black).bg(Color::LightMagenta),
            good: Style::new().fg(Color::Green).add_modifier(bold),
            bad: Style::new().fg(Color::Red).add_modifier(bold),
            warn: Style::new().fg(Color::Yellow),
            dark_square: Style::new().bg(Color::Indexed(94)),
            light_square: Style::new().bg(Color::Indexed(223)),
            mouse: Style::new().fg(Color::Indexed(231)).add_modifier(bold),
            cat: Style::new().fg(Color::Indexed(16)).add_modifier(bold),
            peg: Style::new().fg(Color::Indexed(208)).add_modifier(bold),
            hole: Style::new().fg(Color::Indexed(244)),
            given: Style::new().fg(Color::Indexed(231)).add_modifier(bold),
            entered: Style::new().fg(Color::Indexed(117)),
            pencil: Style::new().fg(Color::Indexed(248)),
            shaded: Style::new().bg(Color::Indexed(238)),
            plain: Style::new().bg(Color::Indexed(235)),
            last_move: Style::new().fg(Color::Indexed(226)),
        }
    }

    /// The monochrome palette: attributes only, no colour at all.
    pub fn mono() -> Theme {
        let s = Style::new();
        Theme {
            colour: false,
            text: s,
            dim: s.add_modifier(Modifier::DIM),
            title: s.add_modifier(Modifier::BOLD),
            key: s.add_modifier(Modifier::BOLD),
            cursor: s.add_modifier(Modifier::REVERSED),
            selected: s.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            target: s.add_modifier(Modifier::UNDERLINED),
            hint: s.add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            good: s.add_modifier(Modifier::BOLD),
            bad: s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            warn: s.add_modifier(Modifier::BOLD),
            dark_square: s,
            light_square: s,
            mouse: s.add_modifier(Modifier::BOLD),
            cat: s.add_modifier(Modifier::BOLD),
            peg: s.add_modifier(Modifier::BOLD),
            hole: s.add_modifier(Modifier::DIM),
            given: s.add_modifier(Modifier::BOLD),
            entered: s,
            pencil: s.add_modifier(Modifier::DIM),
            shaded: s,
            plain: s,
            last_move: s.add_modifier(Modifier::UNDERLINED),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mono_uses_no_colour() {
        let t = Theme::mono();
        let styles = [
            t.text,
            t.dim,
            t.title,
            t.key,
            t.cursor,
            t.selected,
            t.target,
            t.hint,
            t.good,
            t.bad,
            t.warn,
            t.dark_square,
            t.light_square,
            t.mouse,
            t.cat,
            t.peg,
            t.hole,
            t.given,
            t.entered,
            t.pencil,
            t.shaded,
            t.plain,
            t.last_move,
        ];
        for s in styles {
            assert_eq!(s.fg, None);
            assert_eq!(s.bg, None);
        }
        assert!(!t.colour);
        assert!(Theme::colour().colour);
        assert_ne!(Theme::colour().cursor.bg, None);
    }
}
