//! Chains: cycles, forcing chains, cell and region forcing chains, dynamic forcing chains.

use super::state::Candidates;
use super::step::{Rating, Step, TechniqueSet};

/// The easiest chain step rated at most `max`.
pub(crate) fn find(
    _s: &Candidates,
    _step: &mut Step,
    _max: Rating,
    _allowed: TechniqueSet,
) -> bool {
    false
}
