//! Undo and redo, shared by the three games.
//!
//! A [`History`] holds the present state and two stacks of snapshots. Mouse & Cats and peg solitaire keep their
//! undoable state small (a position, a move list), so whole snapshots are simpler and safer than inverse
//! operations: an undo can never leave a state that was not really reached. A sudoku keeps the cells each step
//! changed instead, within a bound (`sudoku::steps`), since a game can take thousands of marks.

/// The present state with the states before it (undo) and after it (redo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History<T> {
    past: Vec<T>,
    present: T,
    future: Vec<T>,
}

impl<T: Clone> History<T> {
    /// A history with `present` and nothing to undo or redo.
    pub fn new(present: T) -> Self {
        Self {
            past: Vec::new(),
            present,
            future: Vec::new(),
        }
    }

    /// Rebuild a history from saved parts.
    pub fn from_parts(past: Vec<T>, present: T, future: Vec<T>) -> Self {
        Self {
            past,
            present,
            future,
        }
    }

    /// The present state.
    pub fn present(&self) -> &T {
        &self.present
    }

    /// The states that undo walks back through, oldest first.
    pub fn past(&self) -> &[T] {
        &self.past
    }

    /// The states that redo walks forward through, the next one last.
    pub fn future(&self) -> &[T] {
        &self.future
    }

    /// Make `next` the present state; the old one can be undone to, and the redo stack is dropped.
    pub fn push(&mut self, next: T) {
        let old = std::mem::replace(&mut self.present, next);
        self.past.push(old);
        self.future.clear();
    }

    /// Change the present state in place without recording a step (for state that undo must not restore, or
    /// to amend the step just pushed).
    pub fn present_mut(&mut self) -> &mut T {
        &mut self.present
    }

    /// Step back; false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.past.pop() {
            Some(prev) => {
                let cur = std::mem::replace(&mut self.present, prev);
                self.future.push(cur);
                true
            }
            None => false,
        }
    }

    /// Step forward again; false when there is nothing to redo.
    pub fn redo(&mut self) -> bool {
        match self.future.pop() {
            Some(next) => {
                let cur = std::mem::replace(&mut self.present, next);
                self.past.push(cur);
                true
            }
            None => false,
        }
    }

    /// Whether undo would do something.
    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    /// Whether redo would do something.
    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// Forget everything and start again from `present`.
    pub fn reset(&mut self, present: T) {
        self.past.clear();
        self.future.clear();
        self.present = present;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_redo_walk_both_ways() {
        let mut h = History::new(0);
        assert!(!h.undo());
        h.push(1);
        h.push(2);
        assert_eq!(*h.present(), 2);
        assert!(h.undo());
        assert_eq!(*h.present(), 1);
        assert!(h.undo());
        assert_eq!(*h.present(), 0);
        assert!(!h.undo());
        assert!(h.redo());
        assert!(h.redo());
        assert_eq!(*h.present(), 2);
        assert!(!h.redo());
    }

    #[test]
    fn a_new_step_drops_the_redo_stack() {
        let mut h = History::new('a');
        h.push('b');
        assert!(h.undo());
        assert!(h.can_redo());
        h.push('c');
        assert!(!h.can_redo());
        assert_eq!(h.past(), &['a']);
        assert_eq!(*h.present(), 'c');
    }
}
