//! An independent, deliberately plain reference implementation of the rules: coordinates instead of
//! bitboards, its own move generation and its own end-of-game test. The tests compare the library with it.

#![allow(dead_code)]

use mousecats::{Position, Rule, Side};

/// A position as (file, row) pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plain {
    pub mouse: (i32, i32),
    pub cats: Vec<(i32, i32)>,
    pub mouse_to_move: bool,
}

impl Plain {
    pub fn from(p: &Position) -> Plain {
        Plain {
            mouse: (i32::from(p.mouse().file()), i32::from(p.mouse().row())),
            cats: p
                .cat_squares()
                .iter()
                .map(|s| (i32::from(s.file()), i32::from(s.row())))
                .collect(),
            mouse_to_move: p.turn() == Side::Mouse,
        }
    }

    fn free(&self, f: i32, r: i32) -> bool {
        (0..8).contains(&f)
            && (0..8).contains(&r)
            && self.mouse != (f, r)
            && !self.cats.contains(&(f, r))
    }

    /// Moves as ((from), (to)).
    pub fn moves(&self) -> Vec<((i32, i32), (i32, i32))> {
        let mut out = Vec::new();
        if self.mouse_to_move {
            let (f, r) = self.mouse;
            for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                if self.free(f + df, r + dr) {
                    out.push(((f, r), (f + df, r + dr)));
                }
            }
        } else {
            for &(f, r) in &self.cats {
                for df in [-1, 1] {
                    if self.free(f + df, r - 1) {
                        out.push(((f, r), (f + df, r - 1)));
                    }
                }
            }
        }
        out
    }

    pub fn play(&self, mv: ((i32, i32), (i32, i32))) -> Plain {
        let mut p = self.clone();
        if p.mouse_to_move {
            p.mouse = mv.1;
        } else {
            for c in p.cats.iter_mut() {
                if *c == mv.0 {
                    *c = mv.1;
                }
            }
        }
        p.mouse_to_move = !p.mouse_to_move;
        p
    }

    /// `Some(true)` if the mouse has won, `Some(false)` if the cats have, `None` while the game goes on.
    pub fn mouse_won(&self, rule: Rule) -> Option<bool> {
        if self.mouse.1 == 7 {
            return Some(true);
        }
        if rule == Rule::Escape && self.cats.iter().all(|c| c.1 <= self.mouse.1) {
            return Some(true);
        }
        if self.moves().is_empty() {
            return Some(!self.mouse_to_move);
        }
        None
    }

    pub fn perft(&self, depth: u32, rule: Rule) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.mouse_won(rule).is_some() {
            return 0;
        }
        self.moves()
            .into_iter()
            .map(|m| self.play(m).perft(depth - 1, rule))
            .sum()
    }

    /// The value with best play if the game is decided within `limit` plies whatever is played:
    /// `(side to move wins, plies)`. Plain minimax, no pruning.
    pub fn value_within(&self, limit: u32, rule: Rule) -> Option<(bool, u32)> {
        if let Some(mouse_won) = self.mouse_won(rule) {
            return Some((mouse_won == self.mouse_to_move, 0));
        }
        if limit == 0 {
            return None;
        }
        let mut best_win: Option<u32> = None;
        let mut longest_loss = 0;
        let mut all_resolved = true;
        for m in self.moves() {
            match self.play(m).value_within(limit - 1, rule) {
                Some((false, k)) => best_win = Some(best_win.map_or(k + 1, |b| b.min(k + 1))),
                Some((true, k)) => longest_loss = longest_loss.max(k + 1),
                None => all_resolved = false,
            }
        }
        match best_win {
            Some(n) => Some((true, n)),
            None if all_resolved => Some((false, longest_loss)),
            None => None,
        }
    }
}

/// A small deterministic generator for test walks.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
