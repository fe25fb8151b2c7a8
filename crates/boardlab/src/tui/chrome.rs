//! What every game screen keeps around its board: the status line, the one-line prompt for typed input (with
//! the result of the last entry typed at it), and the yes/no question (give up this game for a new one). The
//! screens differ in their boards and keys; this part they share.

use crossterm::event::{KeyCode, KeyEvent};
use play::{GameSession, Refusal};
use ratatui::text::Line;

use super::theme::Theme;
use super::ui::{Prompt, PromptEvent, Status};

/// A question waiting for y or n.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Give up this game and start a new one.
    NewGame,
    /// Show the solution and end the game (sudoku).
    Reveal,
}

/// What became of a key given to [`Chrome::capture`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Captured {
    /// The open prompt or question took it; nothing more to do.
    Taken,
    /// The prompt's text was submitted (it is not blank); the prompt stays open until the screen closes it.
    Submitted(String),
    /// The player said yes to this question.
    Yes(Question),
    /// No prompt or question is open: the key is the screen's.
    Free,
}

/// The status line, the prompt and the question of a game screen.
#[derive(Debug, Default)]
pub struct Chrome {
    /// The status line.
    pub status: Option<Status>,
    /// The result of the last entry typed at the prompt, shown on the prompt line while it is empty.
    pub prompt_result: Option<Status>,
    prompt: Option<Prompt>,
    question: Option<Question>,
}

impl Chrome {
    /// Nothing open, with `status` on the status line.
    pub fn new(status: Option<Status>) -> Chrome {
        Chrome {
            status,
            ..Chrome::default()
        }
    }

    /// Put `status` on the status line.
    pub fn say(&mut self, status: Status) {
        self.status = Some(status);
    }

    /// Open `prompt` (empty, without a last result).
    pub fn open_prompt(&mut self, prompt: Prompt) {
        self.prompt = Some(prompt);
        self.prompt_result = None;
    }

    /// Close the prompt.
    pub fn close_prompt(&mut self) {
        self.prompt = None;
    }

    /// Give a key to the open prompt or question: what became of it. A blank entry or Esc closes the prompt;
    /// any key but y answers no to a question ("Carry on").
    pub fn capture(&mut self, key: KeyEvent) -> Captured {
        if let Some(prompt) = self.prompt.as_mut() {
            return match prompt.handle(key) {
                PromptEvent::Editing => Captured::Taken,
                PromptEvent::Submit(text) if !text.trim().is_empty() => Captured::Submitted(text),
                PromptEvent::Submit(_) | PromptEvent::Cancel => {
                    self.prompt = None;
                    Captured::Taken
                }
            };
        }
        if let Some(question) = self.question.take() {
            if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                return Captured::Yes(question);
            }
            self.say(Status::info("Carry on"));
            return Captured::Taken;
        }
        Captured::Free
    }

    /// Ask `question` in the words `text` (y or n answers it).
    pub fn ask(&mut self, question: Question, text: &str) {
        self.question = Some(question);
        self.say(Status::warn(format!("{text} y/n")));
    }

    /// The new-game key on `session` (a `what`: "game", "puzzle"): true when the new game should start at once
    /// (nothing would be given up); else the question is asked.
    pub fn new_game_now<G: GameSession>(&mut self, session: &G, what: &str) -> bool {
        if session.in_play() {
            self.ask(
                Question::NewGame,
                &format!("Give up this {what} and start a new one?"),
            );
            false
        } else {
            true
        }
    }

    /// True while the prompt or a question takes every key.
    pub fn capturing(&self) -> bool {
        self.prompt.is_some() || self.question.is_some()
    }

    /// The status line.
    pub fn status(&self) -> Option<Status> {
        self.status.clone()
    }

    /// The prompt's line, which replaces the status line while the prompt is open.
    pub fn footer(&self, theme: &Theme) -> Option<Line<'static>> {
        self.prompt
            .as_ref()
            .map(|p| p.line(theme, self.prompt_result.as_ref()))
    }
}

/// The message of an action: its answer, or its refusal.
pub fn said<E: Refusal>(result: Result<Status, E>) -> Status {
    result.unwrap_or_else(|e| e.message())
}
