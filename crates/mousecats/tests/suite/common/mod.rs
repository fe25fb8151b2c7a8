//! An independent, deliberately plain reference implementation of the rules on every board size:
//! coordinates instead of bitboards, its own move generation, its own end-of-game test (the region rule
//! by walking each cat's cone) and a memoised minimax over every state. The tests compare the library
//! with it.

#![allow(dead_code)]

use std::collections::HashMap;

use mousecats::{BoardPosition, Rule, Side};

/// A position as (file, row) pairs on an `n` x `n` board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plain {
    pub n: i32,
    pub mouse: (i32, i32),
    pub cats: Vec<(i32, i32)>,
    pub mouse_to_move: bool,
}

impl Plain {
    pub fn from<P: BoardPosition>(p: &P) -> Plain {
        let size = p.board_size();
        let mut cats: Vec<(i32, i32)> = (0..size.dark_squares())
            .filter(|&d| p.cats_dark() >> d & 1 != 0)
            .map(|d| {
                let c = size.dark_square(d);
                (i32::from(c.file()), i32::from(c.row()))
            })
            .collect();
        cats.sort_unstable();
        let m = p.mouse_square();
        Plain {
            n: i32::from(size.n()),
            mouse: (i32::from(m.file()), i32::from(m.row())),
            cats,
            mouse_to_move: p.turn() == Side::Mouse,
        }
    }

    fn on_board(&self, f: i32, r: i32) -> bool {
        (0..self.n).contains(&f) && (0..self.n).contains(&r)
    }

    fn free(&self, f: i32, r: i32) -> bool {
        self.on_board(f, r) && self.mouse != (f, r) && !self.cats.contains(&(f, r))
    }

    /// Whether some cat could ever reach (f, r): it lies in a cat's forward cone.
    fn reachable_by_cats(&self, f: i32, r: i32) -> bool {
        self.cats
            .iter()
            .any(|&(cf, cr)| r <= cr && (f - cf).abs() <= cr - r)
    }

    /// The region rule, square by square: the mouse's square and one of its neighbours on the board are
    /// out of every cat's reach.
    fn in_region(&self) -> bool {
        let (f, r) = self.mouse;
        let safe = |f: i32, r: i32| self.on_board(f, r) && !self.reachable_by_cats(f, r);
        safe(f, r)
            && [(1, 1), (-1, 1), (1, -1), (-1, -1)]
                .iter()
                .any(|&(df, dr)| safe(f + df, r + dr))
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
            p.cats.sort_unstable();
        }
        p.mouse_to_move = !p.mouse_to_move;
        p
    }

    /// `Some(true)` if the mouse has won, `Some(false)` if the cats have, `None` while the game goes on.
    pub fn mouse_won(&self, rule: Rule) -> Option<bool> {
        let far_row = self.mouse.1 == self.n - 1;
        let won = match rule {
            Rule::FarRow => far_row,
            Rule::Escape => far_row || self.cats.iter().all(|c| c.1 <= self.mouse.1),
            Rule::Region => self.in_region(),
        };
        if won {
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

/// The value of every state reachable by play from `start` (and of `start`), by memoised minimax:
/// `(side to move wins, plies)`. The game has no cycles (the cats only move down), so plain recursion
/// ends.
pub fn plain_values(
    start: &Plain,
    rule: Rule,
    memo: &mut HashMap<Plain, (bool, u32)>,
) -> (bool, u32) {
    if let Some(&v) = memo.get(start) {
        return v;
    }
    let v = match start.mouse_won(rule) {
        Some(mouse_won) => (mouse_won == start.mouse_to_move, 0),
        None => {
            let children: Vec<(bool, u32)> = start
                .moves()
                .into_iter()
                .map(|m| plain_values(&start.play(m), rule, memo))
                .collect();
            let fastest_win = children.iter().filter(|c| !c.0).map(|c| c.1 + 1).min();
            match fastest_win {
                Some(n) => (true, n),
                None => (false, children.iter().map(|c| c.1 + 1).max().unwrap_or(0)),
            }
        }
    };
    memo.insert(start.clone(), v);
    v
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
