//! Aligned exclusion: a few cells whose combinations of digits are tested one by one against the cells they all
//! see; a digit of a base cell that appears in no allowed combination goes.
//!
//! As in Sudoku Explainer, the base cells need not see each other. A combination is excluded when two base cells that
//! see each other would take the same digit, or when a cell with two candidates seen by both base cells would
//! lose both to it. Base cells are the cells with two
//! or more candidates that see at least one such cell; pairs are taken in SE's order (the second cell ascending, the
//! first ascending below it), and the first that removes something is the step.

use super::state::Candidates;
use super::step::{Candidate, Step, Technique};
use super::tables::{CellSet, Cells, Digits, PEERS, bit};

/// Aligned pair exclusion (SE 6.2). `changed` holds the cells whose candidates changed since this search last
/// found nothing (all cells the first time): what a pair excludes depends only on its two cells and the cells both
/// see, so a pair none of whose cells changed still excludes nothing and is skipped.
pub(crate) fn aligned_pair(s: &Candidates, step: &mut Step, changed: CellSet) -> bool {
    let empty = s.unsolved();
    let mut bivalue: CellSet = 0;
    for c in Cells(empty) {
        if super::basic::pop9(s.candidates(c)) == 2 {
            bivalue |= bit(c);
        }
    }
    // The base cells and the bivalue cells each sees.
    let mut base: Vec<(usize, CellSet)> = Vec::new();
    for c in Cells(empty) {
        let ex = PEERS[c] & bivalue;
        if super::basic::pop9(s.candidates(c)) >= 2 && ex != 0 {
            base.push((c, ex));
        }
    }
    for j in 1..base.len() {
        for i in 0..j {
            let (c0, e0) = base[i];
            let (c1, e1) = base[j];
            let common = e0 & e1;
            if common & common.wrapping_sub(1) == 0
                || (bit(c0) | bit(c1) | (PEERS[c0] & PEERS[c1])) & changed == 0
            {
                continue;
            }
            let (m0, m1) = (s.candidates(c0), s.candidates(c1));
            let sees = PEERS[c0] & bit(c1) != 0;
            // The cells both see have two candidates each: {a, b} (a, b different) is excluded exactly when one of
            // them holds that pair, so each digit's partners in those cells' pairs are read once.
            let mut partners = [0u16; 9];
            for x in Cells(common) {
                let m = s.candidates(x);
                let (lo, hi) = (m & m.wrapping_neg(), m & (m - 1));
                partners[lo.trailing_zeros() as usize] |= hi;
                partners[hi.trailing_zeros() as usize] |= lo;
            }
            let (mut keep0, mut keep1) = (0u16, 0u16);
            for a in Digits(m0) {
                let bit_a = 1u16 << (a - 1);
                let with = m1 & !partners[usize::from(a - 1)] & if sees { !bit_a } else { !0 };
                if with != 0 {
                    keep0 |= bit_a;
                    keep1 |= with;
                }
            }
            if m0 & !keep0 == 0 && m1 & !keep1 == 0 {
                continue;
            }
            step.start(Technique::AlignedPairExclusion);
            step.cells = vec![c0 as u8, c1 as u8];
            for (c, m, keep) in [(c0, m0, keep0), (c1, m1, keep1)] {
                for d in Digits(m & !keep) {
                    step.eliminations.push(Candidate::new(c, d));
                }
            }
            for x in Cells(common) {
                for d in Digits(s.candidates(x)) {
                    step.highlights.push(Candidate::new(x, d));
                }
            }
            return true;
        }
    }
    false
}
