//! The result of a level-by-level enumeration, shared by the fast engine ([`crate::enumerate`]) and the slow
//! reference ([`crate::reference`]).
//!
//! Definitions (for a start position `S` and the group `G` of board symmetries fixing `S`):
//! - a *class* is a set of positions that are images of each other under `G`; counts "up to symmetry" count
//!   classes, counts "all" count positions;
//! - the *full tree* is the game tree from `S` where every legal move is a branch; a path count at a level is the
//!   number of move sequences from `S` to positions of that level;
//! - the *normal tree* has classes for nodes: from a class, each distinct class reachable in one move is one
//!   branch, however many moves lead to it;
//! - a *dead end* is a position without a legal move; a *complete game* is a path that ends in a dead end;
//! - a *solution* is a path to a single peg (on the finish hole when one is given). In the normal tree a
//!   solution to a hole `h` is a path to the class of the one-peg position on `h`.

use serde::{Serialize, Serializer};

/// Writes a count that can pass 2^53 as a JSON string of decimal digits (`"577116156815309849672"`): a JSON
/// number that large is rounded to a float by most JSON readers (jq, JavaScript), so the exact figure would be
/// lost. Used for every path, game and solution count of [`Level`] and [`Totals`].
///
/// # Errors
/// Only those of the serializer.
pub fn decimal<S: Serializer>(n: &u128, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(n)
}

/// One row of the table: the positions with a given number of pegs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Level {
    /// Number of pegs.
    pub pegs: u32,
    /// Reachable positions with this many pegs.
    pub positions: u64,
    /// The same, up to symmetry (classes).
    pub classes: u64,
    /// Paths from the start in the full game tree.
    #[serde(serialize_with = "decimal")]
    pub paths_full: u128,
    /// Paths from the start in the normal tree.
    #[serde(serialize_with = "decimal")]
    pub paths_normal: u128,
    /// Dead ends (positions without a move).
    pub dead_ends: u64,
    /// Dead ends up to symmetry.
    pub dead_end_classes: u64,
    /// Complete games ending at this level (full tree).
    #[serde(serialize_with = "decimal")]
    pub games_full: u128,
    /// Complete games ending at this level (normal tree).
    #[serde(serialize_with = "decimal")]
    pub games_normal: u128,
    /// With a finish hole: positions from which a one-peg finish on it can still be reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finishable: Option<u64>,
    /// The same, up to symmetry: classes with at least one such position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finishable_classes: Option<u64>,
}

/// Totals over all levels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Totals {
    /// Reachable positions.
    pub positions: u64,
    /// Reachable positions up to symmetry.
    pub classes: u64,
    /// Complete games (paths ending in a dead end), full tree.
    #[serde(serialize_with = "decimal")]
    pub games_full: u128,
    /// Complete games, normal tree.
    #[serde(serialize_with = "decimal")]
    pub games_normal: u128,
    /// Solutions (paths to one peg on the finish, or anywhere), full tree.
    #[serde(serialize_with = "decimal")]
    pub solutions_full: u128,
    /// Solutions, normal tree.
    #[serde(serialize_with = "decimal")]
    pub solutions_normal: u128,
    /// With a finish hole: reachable positions from which it can still be reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finishable: Option<u64>,
    /// The same, up to symmetry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finishable_classes: Option<u64>,
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    /// Number of symmetries used (the board's symmetries that fix the start).
    pub symmetries: usize,
    /// One row per level, from the start's number of pegs down to the last reachable level.
    pub levels: Vec<Level>,
    /// Totals.
    pub totals: Totals,
}

/// Why an enumeration stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// A count passed 2^128 - 1.
    #[error("a path count passed 2^128 - 1 at the level with {pegs} pegs")]
    Overflow {
        /// The level where it happened.
        pegs: u32,
    },
    /// The next level would need more memory than allowed.
    #[error(
        "stopped before the level with {pegs} pegs: it would need about {} of memory and the limit is {} \
         (the levels before it had {} up to symmetry; \
         raise the limit with --max-memory if the machine has the memory)",
        fmt_bytes(*.needed), fmt_bytes(*.limit), positions(*.classes_so_far)
    )]
    MemoryLimit {
        /// The level that was not built.
        pegs: u32,
        /// Estimated bytes needed to build it.
        needed: u64,
        /// The limit.
        limit: u64,
        /// Classes enumerated before stopping.
        classes_so_far: u64,
    },
    /// The caller asked to stop.
    #[error("cancelled")]
    Cancelled,
}

impl CountError {
    /// A memory-limit error with the classes enumerated before it filled in (the code that finds the step does
    /// not fit does not know them); any other error as it is.
    pub(crate) fn with_classes_so_far(self, classes: u64) -> CountError {
        match self {
            CountError::MemoryLimit {
                pegs,
                needed,
                limit,
                ..
            } => CountError::MemoryLimit {
                pegs,
                needed,
                limit,
                classes_so_far: classes,
            },
            e => e,
        }
    }
}

/// "1 position", "2 positions".
pub(crate) fn positions(n: u64) -> String {
    if n == 1 {
        "1 position".to_string()
    } else {
        format!("{n} positions")
    }
}

/// Bytes in a human unit (MiB, GiB).
pub fn fmt_bytes(b: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    let m = b as f64 / MIB;
    if m >= 1024.0 {
        format!("{:.1} GiB", m / 1024.0)
    } else if b >= 1 << 20 {
        format!("{m:.0} MiB")
    } else if b >= 1 << 10 {
        format!("{:.0} KiB", b as f64 / 1024.0)
    } else {
        format!("{b} bytes")
    }
}

/// Checked u128 addition reporting the level.
pub(crate) fn add(a: u128, b: u128, pegs: u32) -> Result<u128, CountError> {
    a.checked_add(b).ok_or(CountError::Overflow { pegs })
}

impl Count {
    /// Build the totals from the levels and the solution counts.
    pub(crate) fn from_levels(
        symmetries: usize,
        levels: Vec<Level>,
        solutions_full: u128,
        solutions_normal: u128,
    ) -> Result<Count, CountError> {
        let mut t = Totals {
            solutions_full,
            solutions_normal,
            ..Totals::default()
        };
        for l in &levels {
            t.positions += l.positions;
            t.classes += l.classes;
            t.games_full = add(t.games_full, l.games_full, l.pegs)?;
            t.games_normal = add(t.games_normal, l.games_normal, l.pegs)?;
            if let (Some(a), Some(c)) = (l.finishable, l.finishable_classes) {
                t.finishable = Some(t.finishable.unwrap_or(0) + a);
                t.finishable_classes = Some(t.finishable_classes.unwrap_or(0) + c);
            }
        }
        Ok(Count {
            symmetries,
            levels,
            totals: t,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory-limit message counts what came before in words that agree with the number.
    #[test]
    fn memory_limit_message_says_one_position() {
        let e = |classes_so_far| {
            CountError::MemoryLimit {
                pegs: 30,
                needed: 3 << 20,
                limit: 1 << 20,
                classes_so_far,
            }
            .to_string()
        };
        assert!(e(1).contains("had 1 position up to symmetry;"), "{}", e(1));
        assert!(e(2).contains("had 2 positions up to symmetry;"), "{}", e(2));
        assert!(e(1).contains("about 3 MiB of memory and the limit is 1 MiB"));
    }
}
