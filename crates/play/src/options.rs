//! A game's options as a menu shows them: a label, the values it can take, the one chosen, a note.

use serde::{Deserialize, Serialize};

/// One option of a game (the title screen of the terminal, the start page of the web app).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// Its name, e.g. "Level".
    pub label: String,
    /// The values it can take, as shown.
    pub values: Vec<String>,
    /// The index of the value chosen.
    pub selected: usize,
    /// A sentence explaining it.
    pub note: String,
}

impl Choice {
    /// An option with `values`, `selected` chosen.
    pub fn new(
        label: impl Into<String>,
        values: Vec<String>,
        selected: usize,
        note: impl Into<String>,
    ) -> Choice {
        let selected = selected.min(values.len().saturating_sub(1));
        Choice {
            label: label.into(),
            values,
            selected,
            note: note.into(),
        }
    }

    /// The value chosen.
    pub fn value(&self) -> &str {
        self.values
            .get(self.selected)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// Step to the next value (wrapping).
    pub fn next(&mut self) {
        if !self.values.is_empty() {
            self.selected = (self.selected + 1) % self.values.len();
        }
    }

    /// Step to the previous value (wrapping).
    pub fn prev(&mut self) {
        if !self.values.is_empty() {
            self.selected = (self.selected + self.values.len() - 1) % self.values.len();
        }
    }
}

/// The value chosen for the option labelled `label`, if there is one.
pub fn value_of<'a>(choices: &'a [Choice], label: &str) -> Option<&'a str> {
    choices.iter().find(|c| c.label == label).map(Choice::value)
}
