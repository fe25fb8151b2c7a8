//! The positional evaluation used at the leaves of the alpha-beta search.
//!
//! Scored from the mouse's point of view, then turned to the side to move's:
//! - the mouse's row (higher is better for it) and its freedom (free squares around it, upward ones
//!   counting double);
//! - the cats' line: the spread of their rows, and gaps in the chain of cats across the board (two cats
//!   next to each other by file that do not close the diagonal between them, or an open board edge);
//! - cats the mouse is already past (below the mouse's row), which can never stop it again;
//! - a mouse on a row no lower than every cat's row has escaped and scores near a win.
//!
//! Scores stay within ±[`MAX_EVAL`], far from the win scores of the search.

use crate::board::{MOUSE_MOVES, Side};
use crate::position::Position;
use crate::sized::SizedPosition;

/// The largest evaluation in absolute value.
pub const MAX_EVAL: i32 = 3000;

/// Weights of the evaluation terms (mouse's point of view).
mod w {
    pub const ROW: i32 = 10;
    pub const FREE: i32 = 4;
    pub const FREE_UP: i32 = 4;
    pub const SPREAD: i32 = 6;
    pub const GAP: i32 = 12;
    pub const PAST: i32 = 30;
    pub const ESCAPED: i32 = 2000;
}

/// The evaluation from the mouse's point of view.
#[inline]
pub fn mouse_score(pos: &Position) -> i32 {
    let cats = pos.cats().0;
    let m = pos.mouse();
    let mrow = i32::from(m.row());
    let top = i32::from(pos.top_cat_row());
    if mrow >= top {
        return w::ESCAPED + 50 * mrow;
    }
    let bottom = (cats.trailing_zeros() / 8) as i32;

    let around = MOUSE_MOVES[m.index() as usize] & !cats;
    // The mouse is below every cat here, so below row 8.
    let up = (around & (!0u64 << (8 * (u32::from(m.row()) + 1)))).count_ones() as i32;
    let free = around.count_ones() as i32;

    // Cats by file.
    let mut fr = [(0i32, 0i32); 4];
    let mut c = cats;
    let mut past = 0;
    for slot in fr.iter_mut() {
        let sq = c.trailing_zeros() as i32;
        c &= c - 1;
        *slot = (sq % 8, sq / 8);
        past += i32::from(sq / 8 < mrow);
    }
    // A sorting network on four.
    let sw = |a: &mut [(i32, i32); 4], i: usize, j: usize| {
        if a[i].0 > a[j].0 {
            a.swap(i, j);
        }
    };
    sw(&mut fr, 0, 1);
    sw(&mut fr, 2, 3);
    sw(&mut fr, 0, 2);
    sw(&mut fr, 1, 3);
    sw(&mut fr, 1, 2);
    let mut gaps = i32::from(fr[0].0 > 1) + i32::from(fr[3].0 < 6);
    for k in 0..3 {
        let (f0, r0) = fr[k];
        let (f1, r1) = fr[k + 1];
        let df = f1 - f0;
        let dr = (r1 - r0).abs();
        let closed = (df == 1 && dr == 1) || (df == 2 && dr == 0) || df == 0;
        gaps += i32::from(!closed);
    }

    w::ROW * mrow
        + w::FREE * free
        + w::FREE_UP * up
        + w::SPREAD * (top - bottom)
        + w::GAP * gaps
        + w::PAST * past
}

/// The same evaluation on a board of any size, from the mouse's point of view: the board edges are files
/// A and N, and on 8x8 every term (and so every score) equals [`mouse_score`]'s.
pub fn sized_mouse_score(pos: &SizedPosition) -> i32 {
    let n = i32::from(pos.size().n());
    let m = pos.mouse();
    let mrow = i32::from(m.row());
    let top = i32::from(pos.top_cat_row());
    if mrow >= top {
        return w::ESCAPED + 50 * mrow;
    }
    let bottom = i32::from(pos.bottom_cat_row());
    let geo = pos.size().geometry();
    let around = geo.mouse_steps[usize::from(pos.mouse_dark())] & !pos.cats_dark();
    let up = (around & geo.at_or_above[m.row() as usize + 1]).count_ones() as i32;
    let free = around.count_ones() as i32;

    let mut fr = [(0i32, 0i32); 8];
    let k = usize::from(pos.size().cats());
    let mut past = 0;
    let mut c = pos.cats_dark();
    for slot in fr.iter_mut().take(k) {
        let sq = geo.coord[c.trailing_zeros() as usize];
        c &= c - 1;
        *slot = (i32::from(sq.file()), i32::from(sq.row()));
        past += i32::from(i32::from(sq.row()) < mrow);
    }
    let fr = &mut fr[..k];
    if k == 4 {
        // The 8x8 evaluation's sorting network: ties between cats on one file end in the same order.
        let sw = |a: &mut [(i32, i32)], i: usize, j: usize| {
            if a[i].0 > a[j].0 {
                a.swap(i, j);
            }
        };
        sw(fr, 0, 1);
        sw(fr, 2, 3);
        sw(fr, 0, 2);
        sw(fr, 1, 3);
        sw(fr, 1, 2);
    } else {
        fr.sort_by_key(|&(f, _)| f);
    }
    let mut gaps = i32::from(fr[0].0 > 1) + i32::from(fr[k - 1].0 < n - 2);
    for pair in fr.windows(2) {
        let (f0, r0) = pair[0];
        let (f1, r1) = pair[1];
        let df = f1 - f0;
        let dr = (r1 - r0).abs();
        let closed = (df == 1 && dr == 1) || (df == 2 && dr == 0) || df == 0;
        gaps += i32::from(!closed);
    }
    w::ROW * mrow
        + w::FREE * free
        + w::FREE_UP * up
        + w::SPREAD * (top - bottom)
        + w::GAP * gaps
        + w::PAST * past
}

/// [`sized_mouse_score`] from the side to move's point of view.
#[inline]
pub fn evaluate_sized(pos: &SizedPosition) -> i32 {
    let s = sized_mouse_score(pos);
    match pos.turn() {
        Side::Mouse => s,
        Side::Cats => -s,
    }
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let s = mouse_score(pos);
    match pos.turn() {
        Side::Mouse => s,
        Side::Cats => -s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn terms_point_the_right_way() {
        // Higher mouse is better for the mouse.
        let low = pos("mouse=E1 cats=B8,D8,F8,H8");
        let high = pos("mouse=E3 cats=B8,D8,F8,H8");
        assert!(mouse_score(&high) > mouse_score(&low));
        // A closed line is better for the cats than a broken one.
        let line = pos("mouse=E1 cats=A5,C5,E5,G5");
        let broken = pos("mouse=E1 cats=A5,C5,G5,H8");
        assert!(mouse_score(&broken) > mouse_score(&line));
        // An escaped mouse is nearly won.
        let out = pos("mouse=D6 cats=A5,C5,E5,G5");
        assert!(mouse_score(&out) >= 2000);
        assert!(mouse_score(&out) <= MAX_EVAL);
        // Side to move flips the sign.
        assert_eq!(evaluate(&low), -evaluate(&low.with_turn(Side::Cats)));
    }
}
