//! Small pieces shared by every screen: the key list, status messages, the one-line prompt, pop-ups.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::theme::Theme;

/// The smallest terminal the interface draws in.
pub const MIN_WIDTH: u16 = 80;
/// The smallest terminal the interface draws in.
pub const MIN_HEIGHT: u16 = 24;

/// One entry of a key list: the key(s) and what they do.
pub type KeyHelp = (&'static str, &'static str);

/// Lay out `keys` as "key description" pairs, packed into lines no wider than `width`.
pub fn key_lines(keys: &[KeyHelp], width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for (key, what) in keys {
        let len = key.chars().count() + 1 + what.chars().count();
        let gap = if spans.is_empty() { 0 } else { 2 };
        if !spans.is_empty() && used + gap + len > width {
            lines.push(Line::from(std::mem::take(&mut spans)));
            used = 0;
        }
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
            used += 2;
        }
        spans.push(Span::styled(*key, theme.key));
        spans.push(Span::styled(format!(" {what}"), theme.dim));
        used += len;
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    lines
}

/// Lay out `keys` one per line, the key column padded to `key_width`.
pub fn key_table(keys: &[KeyHelp], key_width: usize, theme: &Theme) -> Vec<Line<'static>> {
    keys.iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::styled(format!("{key:<key_width$}"), theme.key),
                Span::styled(format!(" {what}"), theme.text),
            ])
        })
        .collect()
}

/// A one-line message under the game: the answer of a session's action, or the shell's.
pub type Status = play::Message;
pub use play::Tone;

/// A status message as the terminal shows it: the sentence, then the keys of what the player can do next
/// ("n: new game, u: undo."), each named by `key_of` (an action without a key on this screen is left out).
pub fn status_text(status: &Status, key_of: impl Fn(play::NextAction) -> Option<String>) -> String {
    let keys: Vec<String> = status
        .next
        .iter()
        .filter_map(|&a| key_of(a).map(|k| format!("{k}: {}", a.label())))
        .collect();
    if keys.is_empty() {
        status.text.clone()
    } else {
        format!("{} {}.", status.text, keys.join(", "))
    }
}

/// The style of a status message.
pub fn status_style(status: &Status, theme: &Theme) -> Style {
    match status.tone {
        Tone::Info => theme.text,
        Tone::Good => theme.good,
        Tone::Warn => theme.warn,
        Tone::Error => theme.bad,
    }
}

/// One entry of a screen's key map: the keys, what they do (in the help and in the footer), and the action
/// each key code stands for. The handler, the footer and the help all read the same map.
#[derive(Debug)]
pub struct Binding<A: 'static> {
    /// The keys as the help names them, e.g. "u / r".
    pub keys: &'static str,
    /// What they do, for the help.
    pub help: &'static str,
    /// The keys and what they do in the footer, if the entry is shown there, e.g. ("u/r", "undo/redo").
    pub footer: Option<KeyHelp>,
    /// The key codes and the action of each (a letter matches in either case).
    pub codes: &'static [(KeyCode, A)],
}

/// A screen's keys, in footer order.
#[derive(Debug)]
pub struct KeyMap<A: 'static>(pub &'static [Binding<A>]);

impl<A: Copy> KeyMap<A> {
    /// The action of `code`, if the map has it (letters in either case).
    pub fn action(&self, code: KeyCode) -> Option<A> {
        let find = |code: KeyCode| {
            self.0
                .iter()
                .flat_map(|b| b.codes.iter())
                .find(|(c, _)| *c == code)
                .map(|&(_, a)| a)
        };
        find(code).or_else(|| match code {
            KeyCode::Char(c) if c.is_ascii_uppercase() => {
                find(KeyCode::Char(c.to_ascii_lowercase()))
            }
            _ => None,
        })
    }

    /// The first key of the action `want` (a letter as itself), for naming it after a message.
    pub fn key_of(&self, want: A) -> Option<String>
    where
        A: PartialEq,
    {
        self.0
            .iter()
            .flat_map(|b| b.codes.iter())
            .find(|(_, a)| *a == want)
            .and_then(|(c, _)| match c {
                KeyCode::Char(c) => Some(c.to_string()),
                _ => None,
            })
    }

    /// The entries of the help: every binding.
    pub fn help(&self) -> Vec<KeyHelp> {
        self.0.iter().map(|b| (b.keys, b.help)).collect()
    }

    /// The entries of the footer, each through `relabel` (which may change the text by the binding's first
    /// action, e.g. "digit" to "mark" in pencil mode).
    pub fn footer(&self, relabel: impl Fn(A, KeyHelp) -> KeyHelp) -> Vec<KeyHelp> {
        self.0
            .iter()
            .filter_map(|b| {
                let entry = b.footer?;
                Some(match b.codes.first() {
                    Some(&(_, a)) => relabel(a, entry),
                    None => entry,
                })
            })
            .collect()
    }
}

/// Rules given as paragraphs, as lines with a blank line between paragraphs.
pub fn paragraphs(text: &[&'static str]) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (i, p) in text.iter().enumerate() {
        if i > 0 {
            lines.push(Line::raw(""));
        }
        lines.push(Line::raw(*p));
    }
    lines
}

/// What a [`Prompt`] did with a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEvent {
    /// The key edited the text (or was ignored); the prompt stays open.
    Editing,
    /// Enter: the text is submitted and the prompt closes.
    Submit(String),
    /// Esc: the prompt closes without submitting.
    Cancel,
}

/// A one-line text entry (typed moves, "row column value").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What is being asked, e.g. "Move".
    pub label: &'static str,
    /// An example shown while the text is empty.
    pub example: &'static str,
    /// The text typed so far.
    pub text: String,
    /// The most characters it takes.
    max: usize,
}

/// The longest text a prompt accepts; nothing typed at a prompt needs more.
const PROMPT_MAX: usize = 40;

impl Prompt {
    /// An empty prompt.
    pub fn new(label: &'static str, example: &'static str) -> Prompt {
        Prompt {
            label,
            example,
            text: String::new(),
            max: PROMPT_MAX,
        }
    }

    /// The same prompt taking up to `max` characters (a pasted sudoku is 81).
    pub fn with_max(mut self, max: usize) -> Prompt {
        self.max = max;
        self
    }

    /// Feed one key.
    pub fn handle(&mut self, key: KeyEvent) -> PromptEvent {
        match key.code {
            KeyCode::Enter => PromptEvent::Submit(std::mem::take(&mut self.text)),
            KeyCode::Esc => PromptEvent::Cancel,
            KeyCode::Backspace => {
                self.text.pop();
                PromptEvent::Editing
            }
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.text.clear();
                PromptEvent::Editing
            }
            KeyCode::Char(c)
                if !key.modifiers.contains(KeyModifiers::CONTROL)
                    && !c.is_control()
                    && self.text.chars().count() < self.max =>
            {
                self.text.push(c);
                PromptEvent::Editing
            }
            _ => PromptEvent::Editing,
        }
    }

    /// The prompt as a line: label, text, a block cursor; while the text is empty, the result of the last entry
    /// (`last`) or else an example.
    pub fn line(&self, theme: &Theme, last: Option<&Status>) -> Line<'static> {
        let mut spans = vec![
            Span::styled(format!("{}: ", self.label), theme.title),
            Span::styled(visible_tail(&self.text, PROMPT_SHOWN), theme.text),
            Span::styled(" ", theme.cursor),
        ];
        if self.text.is_empty() {
            match last {
                Some(s) => spans.push(Span::styled(
                    format!("  {}", s.text),
                    status_style(s, theme),
                )),
                None => spans.push(Span::styled(
                    format!("  e.g. {}  (Esc: done)", self.example),
                    theme.dim,
                )),
            }
        }
        Line::from(spans)
    }
}

/// At most this many characters of a prompt's text are shown (the end of it, where the typing is).
const PROMPT_SHOWN: usize = 48;

/// The last `n` characters of `text`, after `…` when some were left out.
fn visible_tail(text: &str, n: usize) -> String {
    let count = text.chars().count();
    if count <= n {
        text.to_string()
    } else {
        let tail: String = text.chars().skip(count - (n - 1)).collect();
        format!("…{tail}")
    }
}

/// A rectangle of `width` x `height` centred in `area` (clipped to it).
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// Draw a bordered pop-up with a title and wrapped text, centred in `area`.
pub fn popup(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'static>>, theme: &Theme) {
    let inner_width = lines
        .iter()
        .map(Line::width)
        .max()
        .unwrap_or(0)
        .max(title.len() + 2);
    let width = u16::try_from(inner_width + 4)
        .unwrap_or(u16::MAX)
        .min(area.width.saturating_sub(4))
        .max(20);
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    let block = Block::bordered()
        .title(Span::styled(format!(" {title} "), theme.title))
        .border_style(theme.title);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        rect,
    );
}

/// The "terminal too small" screen.
pub fn render_too_small(frame: &mut Frame, theme: &Theme) {
    let area = frame.area();
    let lines = vec![
        Line::styled("Terminal too small", theme.bad),
        Line::raw(format!("It is {}x{}.", area.width, area.height)),
        Line::raw(format!("boardlab needs at least {MIN_WIDTH}x{MIN_HEIGHT}.")),
        Line::raw("Enlarge the window,"),
        Line::raw("or press q to quit."),
    ];
    let h = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let rect = centered(area, area.width, h);
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(ratatui::layout::Alignment::Center)
            .wrap(Wrap { trim: true }),
        rect,
    );
}

/// Word-wrap styled lines to `width` columns, keeping each word's style. A word longer than the width is cut.
pub fn wrap_lines(lines: Vec<Line<'static>>, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut out = Vec::new();
    for line in lines {
        if line.width() <= width {
            out.push(line);
            continue;
        }
        // Split into (text, style) tokens: runs of spaces and runs of non-spaces.
        let mut tokens: Vec<(String, Style)> = Vec::new();
        for span in &line.spans {
            let style = line.style.patch(span.style);
            let mut cur = String::new();
            let mut cur_space = None;
            for ch in span.content.chars() {
                let sp = ch == ' ';
                if cur_space.is_some_and(|s| s != sp) {
                    tokens.push((std::mem::take(&mut cur), style));
                }
                cur_space = Some(sp);
                cur.push(ch);
            }
            if !cur.is_empty() {
                tokens.push((cur, style));
            }
        }
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut used = 0usize;
        for (text, style) in tokens {
            let is_space = text.starts_with(' ');
            let len = text.chars().count();
            if used + len > width && used > 0 {
                out.push(Line::from(std::mem::take(&mut spans)));
                used = 0;
                if is_space {
                    continue;
                }
            }
            let text: String = if len > width {
                text.chars().take(width).collect()
            } else {
                text
            };
            used += text.chars().count();
            spans.push(Span::styled(text, style));
        }
        if !spans.is_empty() {
            out.push(Line::from(spans));
        }
    }
    out
}

/// Whether `key` is Ctrl+C, which quits at once from anywhere.
pub fn is_ctrl_c(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('C'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_lines_pack_to_the_width() {
        let keys = [("a", "one"), ("b", "two"), ("c", "three")];
        let lines = key_lines(&keys, 12, &Theme::mono());
        let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        assert_eq!(text, vec!["a one  b two", "c three"]);
    }

    #[test]
    fn prompt_edits_submits_and_cancels() {
        let mut p = Prompt::new("Move", "e1f2");
        let k = |c| KeyEvent::new(c, KeyModifiers::NONE);
        assert_eq!(p.handle(k(KeyCode::Char('e'))), PromptEvent::Editing);
        assert_eq!(p.handle(k(KeyCode::Char('2'))), PromptEvent::Editing);
        assert_eq!(p.handle(k(KeyCode::Backspace)), PromptEvent::Editing);
        assert_eq!(p.handle(k(KeyCode::Char('1'))), PromptEvent::Editing);
        assert_eq!(
            p.handle(k(KeyCode::Enter)),
            PromptEvent::Submit("e1".into())
        );
        assert_eq!(p.handle(k(KeyCode::Esc)), PromptEvent::Cancel);
        for _ in 0..100 {
            p.handle(k(KeyCode::Char('x')));
        }
        assert_eq!(p.text.len(), PROMPT_MAX);
    }
}
